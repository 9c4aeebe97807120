"""A real ``felt serve`` for the browser tests, with accounts made over its API, and Debian's
Chromium driven by Playwright (its own browser download cannot be reached here).  Under
``CI=true`` a missing Chromium or Playwright is a failure, never a skip."""

from __future__ import annotations

import os
import secrets
import shutil
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
import pytest

from tests.server_process import ServeProcess

ADMIN = "web-admin-password"
BROWSER_FIGURES = pytest.StashKey[list[str]]()
"""What the browser tests measured (first page time, page weight), printed at the end of the
run by tests/conftest.py."""
FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking"]
DESKTOP = {"width": 1280, "height": 900}
PHONE = {"width": 390, "height": 844}
NARROW = {"width": 360, "height": 740}
"""The narrowest phone the screens are held to (issue 20): see :func:`misfits`."""
SHOTS = Path(__file__).resolve().parents[1] / "build" / "screens"
"""Where the tests save their screenshots (the chosen ones are copied to docs/screens)."""

TABLES = """
[[table]]
id = "b5"
game = "boston5"
pace_seconds = 0.3
betting_seconds = 3
between_rounds_seconds = 4
[table.settings]
decision_seconds = 60

[[table]]
id = "b7"
game = "boston7"
edition = "nj-13-69f-24"
pace_seconds = 0.3
betting_seconds = 3
between_rounds_seconds = 4
[table.settings]
decision_seconds = 60

[[table]]
id = "b5m"
game = "boston5"
dealer = "manual"
pace_seconds = 0.3
betting_seconds = 1
between_rounds_seconds = 2
[table.settings]
decision_seconds = 60

[[table]]
id = "dds"
game = "double-down-stud"
pace_seconds = 0.3
betting_seconds = 3
between_rounds_seconds = 4
[table.settings]
decision_seconds = 60
"""


def chromium_path() -> str:
    """Debian's Chromium, or a skip (a failure under CI=true)."""
    path = shutil.which("chromium") or shutil.which("chromium-browser")
    if path is None:
        message = "Debian's chromium is not installed (apt-get install chromium; ./dev test does it as root)"
        if os.environ.get("CI") == "true":
            pytest.fail(message)
        pytest.skip(message)
    return path


@dataclass
class WebServer:
    """A running ``felt serve`` and the passwords of the accounts made on it."""

    proc: ServeProcess
    passwords: dict[str, str] = field(default_factory=dict)
    tokens: dict[str, str] = field(default_factory=dict)

    @property
    def url(self) -> str:
        """The server's address."""
        return f"http://{self.proc.name}"

    def call(self, method: str, path: str, who: str | None = None, **body: Any) -> Any:
        """One API request as ``who``; its JSON answer (a non-2xx answer fails the test)."""
        headers = {"Authorization": f"Bearer {self.tokens[who]}"} if who else {}
        r = httpx.request(method, self.url + path, json=body or None, headers=headers, timeout=30)
        assert r.status_code < 300, f"{method} {path}: {r.status_code} {r.text}"
        return r.json()

    def login(self, name: str) -> None:
        """Log ``name`` in over the API (a browser log-in later replaces this session)."""
        password = ADMIN if name == "admin" else self.passwords[name]
        self.tokens[name] = self.call("POST", "/api/login", name=name, password=password)["token"]

    def account(self, name: str, role: str, deposit: str | None = None) -> str:
        """Open an account (and fund a player's wallet); returns its password."""
        if "admin" not in self.tokens:
            self.login("admin")
        password = f"{name}-pw-{secrets.token_hex(4)}"
        self.passwords[name] = password
        self.call("POST", "/api/accounts", "admin", name=name, role=role, password=password)
        if deposit is not None:
            if "cage" not in self.passwords:
                self.account("cage", "cashier")
                self.login("cage")
            self.call("POST", "/api/cashier/deposit", "cage", player=name, amount=deposit,
                      key=secrets.token_hex(8))  # fmt: skip
        return password


def start_server(tmp: Path, database: str | None = None, extra: str = "") -> WebServer:
    """``felt serve`` on SQLite in ``tmp`` (or ``database``) with the test tables and any
    ``extra`` entries (a ``[[keno]]`` system)."""
    tables = tmp / "tables.toml"
    tables.write_text(TABLES + extra)
    proc = ServeProcess(
        database or f"sqlite:///{tmp / 'felt.db'}", tables, tmp / "serve.log", ADMIN
    )
    proc.start()
    return WebServer(proc)


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    """One headless Chromium for a test module."""
    path = chromium_path()
    try:
        from playwright.sync_api import sync_playwright
    except ImportError as err:  # pragma: no cover - a dev dependency
        if os.environ.get("CI") == "true":
            pytest.fail(f"playwright is not installed: {err}")
        pytest.skip(f"playwright is not installed: {err}")
    with sync_playwright() as pw:
        b = pw.chromium.launch(executable_path=path, args=FLAGS)
        try:
            yield b
        finally:
            b.close()


def log_in(page: Any, name: str, password: str, wait: bool = True) -> None:
    """Fill in the log-in screen as a person does and press Log in; with ``wait``, until the
    page has left it (a refused log-in stays there: pass ``wait=False``)."""
    page.wait_for_selector("#name")
    page.get_by_label("Name").fill(name)
    page.get_by_label("Password", exact=True).fill(password)
    page.get_by_role("button", name="Log in").click()
    if wait:
        page.wait_for_function("() => !location.hash.startsWith('#/login')")


def shot(page: Any, name: str) -> Path:
    """Save a screenshot of the whole page under build/screens."""
    SHOTS.mkdir(parents=True, exist_ok=True)
    path = SHOTS / f"{name}.png"
    page.screenshot(path=str(path), full_page=True)
    return path


UNNAMED = """() => [...document.querySelectorAll('button, input, select, textarea, a[href]')]
  .filter((el) => el.offsetParent !== null || el.getClientRects().length)
  .filter((el) => {
    const text = (el.getAttribute('aria-label') || el.textContent || '').trim();
    if (el.tagName === 'BUTTON' || el.tagName === 'A') return !text;
    const id = el.id && document.querySelector(`label[for="${CSS.escape(el.id)}"]`);
    return !(el.getAttribute('aria-label') || id || el.closest('label'));
  })
  .map((el) => el.outerHTML.slice(0, 120))"""
"""Every visible control of the page without an accessible name (a label, its text or an
aria-label): a screen reader would announce it as nothing."""


def unnamed(page: Any) -> list[str]:
    """The controls of ``page`` that have no accessible name."""
    return list(page.evaluate(UNNAMED))


def tab_to(page: Any, text: str, presses: int = 60) -> None:
    """Press Tab until the focused control's text starts with ``text`` (keyboard only)."""
    for _ in range(presses):
        page.keyboard.press("Tab")
        focused = page.evaluate("() => (document.activeElement.textContent || '').trim()")
        if focused.startswith(text):
            return
    raise AssertionError(f"Tab never reached a control reading {text!r}")


MISFITS = """() => {
  const out = [];
  const canvas = document.createElement('canvas').getContext('2d');
  const page = document.documentElement;
  if (page.scrollWidth > window.innerWidth + 1)
    out.push(`the page is ${page.scrollWidth} px wide in a ${window.innerWidth} px window`);
  const shown = (el) => el.getClientRects().length > 0 && getComputedStyle(el).visibility !== 'hidden';
  for (const table of document.querySelectorAll('table')) {
    if (!shown(table) || table.closest('dialog:not([open])')) continue;
    const box = table.parentElement;
    const room = box.getBoundingClientRect().right;
    const right = table.getBoundingClientRect().right;
    const name = (table.querySelector('caption') || table).textContent.trim().slice(0, 40);
    if (right > Math.min(room, window.innerWidth) + 1)
      out.push(`table "${name}" overflows its container by ${Math.round(right - Math.min(room, window.innerWidth))} px`);
    for (const cell of table.querySelectorAll('th, td')) {
      if (!shown(cell)) continue;
      const style = getComputedStyle(cell);
      canvas.font = `${style.fontStyle} ${style.fontWeight} ${style.fontSize} ${style.fontFamily}`;
      const words = (cell.innerText || '').split(/\\s+/).filter(Boolean);
      if (!words.length) continue;
      const widest = words.reduce((a, w) => (canvas.measureText(w).width > canvas.measureText(a).width ? w : a));
      const need = canvas.measureText(widest).width;
      const have = cell.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight);
      if (have + 1 < need)
        out.push(`a cell of "${name}" is ${Math.round(have)} px wide, narrower than its word "${widest.slice(0, 30)}" (${Math.round(need)} px)`);
    }
  }
  return out;
}"""
"""What does not fit the page's width: the page wider than its window, a table wider than its
container (or the window), a table cell narrower than the longest word in it (a column squeezed
to a letter a line).  Measured in the browser with each cell's own font."""


def misfits(page: Any) -> list[str]:
    """Everything of ``page`` that does not fit its width (:data:`MISFITS`); empty when all fits."""
    return list(page.evaluate(MISFITS))

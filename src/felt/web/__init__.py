"""The browser screens: page files served by felt serve (see felt.server.web), and what the
shared shell learns of the registered games (:func:`games`): it names no game itself.

A table game's screens are the shared ones, drawn from the game's
:meth:`~felt.games.base.TableGame.layout`; a game that needs screens of its own keeps them in
its folder's ``static/`` (served under ``/games/<family>/``) with a ``screens.json`` saying which
module, style sheets, hash routes and roles they serve.
"""

from __future__ import annotations

from functools import cache
from typing import Any, Final

from felt.core.errors import FeltError
from felt.core.readers import parse_json
from felt.games.base import Game, TableGame
from felt.games.registry import families

SCREENS: Final = "screens.json"
"""The file of a game's ``static/`` folder that describes its own screens."""


@cache
def games() -> dict[str, Any]:
    """Every registered game as the browser's shell needs it: its name on the screens by game
    id, and its own screens (``/games/index.json``)."""
    return {"games": [_entry(family, game) for family, game in families().items()]}


def _entry(family: str, game: Game) -> dict[str, Any]:
    out: dict[str, Any] = {
        "family": family,
        "kind": game.kind,
        "titles": {gid: _title(game, gid) for gid in game.ids},
    }
    screens = own_screens(game)
    if screens is not None:
        out["screens"] = screens
    return out


def _title(game: Game, game_id: str) -> str:
    """The game's name as the screens show it: its layout's title (the minimum table's), else
    its title."""
    if isinstance(game, TableGame):
        title = game.layout(game.config(game_id, {})).get("title")
        if isinstance(title, str):
            return title
    return game.title(game_id)


def own_screens(game: Game) -> dict[str, Any] | None:
    """A game's own screens from its ``static/screens.json``, with the module's and the style
    sheets' addresses made absolute; None when the game has no screens of its own.

    The file holds ``module`` (an ES module of the folder), ``styles`` (style sheets of the
    folder), ``routes`` (hash screen -> the module's function drawing it, called with the page's
    root, the rest of the hash and whether the screen is still shown; it may return what to do
    when the screen is left), ``public`` (screens anyone may open without logging in),
    ``home`` (role -> the screen the role lands on), ``nav`` (role -> ``[href, text]`` links
    added to the bar) and ``table`` (one of ``routes``: the screen that shows one of the game's
    tables to every role, opened as ``#/<screen>/<table id>`` by the lobby's and the consoles'
    links instead of the shared table screen)."""
    folder = game.static_dir()
    if folder is None or not folder.joinpath(SCREENS).is_file():
        return None
    where = f"{game.family}/static/{SCREENS}"
    try:
        data = parse_json(folder.joinpath(SCREENS).read_text(encoding="utf-8"), str(SCREENS))
    except ValueError as err:
        raise FeltError(f"{where}: not JSON ({err})") from None
    allowed = {"module", "styles", "routes", "public", "home", "nav", "table"}
    if not isinstance(data, dict) or not set(data) <= allowed or "module" not in data:
        raise FeltError(f"{where}: must be an object with module and any of {sorted(allowed)}")
    base = f"/games/{game.family}/"
    for name in [data["module"], *data.get("styles", [])]:
        if not isinstance(name, str) or "/" in name or not folder.joinpath(name).is_file():
            raise FeltError(f"{where}: {name!r} is no file of the folder")
    routes = data.get("routes", {})
    if not isinstance(routes, dict) or not all(
        isinstance(k, str) and isinstance(v, str) for k, v in routes.items()
    ):
        raise FeltError(f"{where}: routes must map a hash screen to a function's name")
    table = data.get("table")
    if table is not None and table not in routes:
        raise FeltError(f"{where}: table must name one of the routes ({', '.join(routes)})")
    return {
        "table": table,
        "module": base + data["module"],
        "styles": [base + s for s in data.get("styles", [])],
        "routes": routes,
        "public": list(data.get("public", [])),
        "home": dict(data.get("home", {})),
        "nav": {
            role: [list(link) for link in links] for role, links in data.get("nav", {}).items()
        },
    }

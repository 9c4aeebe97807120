// Building the page from data with the DOM (text is always set as text, never parsed as HTML).

export function h(tag, attrs = {}, ...children) {
  const el = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (v === undefined || v === null || v === false) continue;
    if (k.startsWith("on")) el.addEventListener(k.slice(2), v);
    else if (k === "class") el.className = v;
    else if (k === "dataset") Object.assign(el.dataset, v);
    else if (v === true) el.setAttribute(k, "");
    else el.setAttribute(k, String(v));
  }
  for (const c of children.flat(Infinity)) {
    if (c === undefined || c === null || c === false) continue;
    el.append(c instanceof Node ? c : document.createTextNode(String(c)));
  }
  return el;
}

export function mount(el, ...children) {
  // a redraw keeps the keyboard focus on the control that had it (found again by its id, its
  // data-n / data-action / data-card, or its label), so the keyboard user does not lose their place
  const had = document.activeElement && el.contains(document.activeElement) ? document.activeElement : null;
  const key = had && (had.id ? `#${CSS.escape(had.id)}`
    : had.dataset.n ? `[data-n="${had.dataset.n}"]`
    : had.dataset.action ? `[data-action="${had.dataset.action}"]`
    : had.dataset.card ? `[data-card="${had.dataset.card}"]` : null);
  const label = had && had.textContent;
  el.replaceChildren(...children.flat(Infinity).filter((c) => c !== null && c !== undefined && c !== false));
  if (!had) return;
  const again = key ? el.querySelector(key)
    : [...el.querySelectorAll(had.tagName)].find((x) => x.textContent === label);
  if (again) again.focus();
}

export function toast(message) {
  const box = document.getElementById("toast");
  box.textContent = message;
  box.classList.add("show");
  clearTimeout(toast.timer);
  toast.timer = setTimeout(() => box.classList.remove("show"), 6000);
}

export function money(d) {
  const text = String(d);
  return text.startsWith("-") ? "-$" + text.slice(1) : "$" + text;
}

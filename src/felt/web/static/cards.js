// Cards drawn with CSS and the suit symbols: rank and suit in text, red or black, legible at phone width.
import { h } from "./dom.js";

const SUITS = { s: ["♠", "spades", false], h: ["♥", "hearts", true], d: ["♦", "diamonds", true], c: ["♣", "clubs", false] };
const RANKS = { A: "Ace", K: "King", Q: "Queen", J: "Jack", T: "10" };

export function card(code, opts = {}) {
  const rank = code[0];
  const [symbol, suit, red] = SUITS[code[1]] || ["?", "?", false];
  const shown = rank === "T" ? "10" : rank;
  const name = `${RANKS[rank] || rank} of ${suit}`;
  return h(
    opts.button ? "button" : "span",
    {
      class: `card${red ? " red" : ""}${opts.selected ? " selected" : ""}`,
      "aria-label": name + (opts.selected ? " (selected)" : ""),
      "aria-pressed": opts.button ? String(!!opts.selected) : null,
      type: opts.button ? "button" : null,
      title: name,
      onclick: opts.onclick,
      dataset: { card: code },
    },
    h("span", { class: "rank", "aria-hidden": "true" }, shown),
    h("span", { class: "suit", "aria-hidden": "true" }, symbol),
  );
}

export function back(label = "face-down card") {
  return h("span", { class: "card back", "aria-label": label, title: label });
}

export function hand(codes, facedown = 0, opts = {}) {
  const row = h("span", { class: "hand" });
  for (const c of codes) row.append(card(c, opts.each ? opts.each(c) : {}));
  for (let i = 0; i < facedown; i++) row.append(back());
  if (!codes.length && !facedown) row.append(h("span", { class: "muted" }, "no cards"));
  return row;
}

// The dealer's cards as the layout says they show: the cards face up, and face down either the
// rest of a count or one hole card until it is turned over (then shown apart, under ``hole``).
export function dealerHand(pub, layout) {
  const d = (layout && layout.dealer) || {};
  const up = (d.cards && pub[d.cards]) || [];
  const down = d.count ? Math.max(0, (pub[d.count] || 0) - up.length)
    : d.hole ? (pub[d.hole] || !up.length ? 0 : 1) : 0;
  return hand(up, down);
}

// What the layout calls the dealer's cards ("Dealer", or a game's shared cards, such as
// "Community cards"): the layout's ``dealer.label``.
export function dealerLabel(layout) {
  return (layout && layout.dealer && layout.dealer.label) || "Dealer";
}

// The dealer's hole card once the view shows it turned over, else null.
export function holeCard(pub, layout) {
  const d = (layout && layout.dealer) || {};
  return d.hole && pub[d.hole] ? pub[d.hole] : null;
}

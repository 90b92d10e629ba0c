// Cards as clear symbols: "Jd" -> J♦ in the suit's colour (two or four colours, by CSS).

const SUITS = { s: "\u2660", h: "\u2665", d: "\u2666", c: "\u2663" };
const RANKS = { T: "10" };

// "Jd9d5h7c" -> ["Jd", "9d", "5h", "7c"]
export function splitCards(text) {
  const out = [];
  for (let i = 0; i + 1 < (text || "").length; i += 2) out.push(text.slice(i, i + 2));
  return out;
}

export function cardElement(code) {
  const el = document.createElement("span");
  if (!code) {
    el.className = "card back";
    el.setAttribute("aria-label", "hidden card");
    return el;
  }
  const rank = code[0];
  const suit = code[1];
  el.className = `card suit-${suit}`;
  el.dataset.card = code;
  el.textContent = (RANKS[rank] || rank) + (SUITS[suit] || "?");
  return el;
}

// Fill `parent` with the cards of `text` (null: `hidden` backs), only if they changed.
export function showCards(parent, text, hidden = 0) {
  const key = text === null || text === undefined ? `back${hidden}` : text;
  if (parent.dataset.shown === key) return;
  parent.dataset.shown = key;
  const cards = text ? splitCards(text).map(cardElement) : Array.from({ length: hidden }, () => cardElement(null));
  parent.replaceChildren(...cards);
}

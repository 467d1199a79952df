// Small DOM helpers shared by every page: element builder, cards, toasts, the banner.

export const SUIT_SYMBOL = { S: "♠", H: "♥", D: "♦", C: "♣", R: "●", Y: "●", G: "●", B: "●" };
export const SUIT_NAME = {
  S: "spades", H: "hearts", D: "diamonds", C: "clubs", R: "red", Y: "yellow", G: "green", B: "black",
};
const RANK_TEXT = { T: "10" };
const ROOK_COLOURS = "RYGB";

/** el("button#go.primary", {title: "x"}, child...) → an element: tag, optional #id, .classes. */
export function el(spec, attrs = {}, ...children) {
  const [head, ...classes] = spec.split(".");
  const [tag, id] = head.split("#");
  const node = document.createElement(tag || "div");
  if (id) node.id = id;
  if (classes.length) node.className = classes.join(" ");
  for (const [key, value] of Object.entries(attrs || {})) {
    if (value === undefined || value === null || value === false) continue;
    if (key === "text") node.textContent = value;
    else if (key.startsWith("on")) node.addEventListener(key.slice(2), value);
    else if (key === "dataset") Object.assign(node.dataset, value);
    else node.setAttribute(key, value === true ? "" : value);
  }
  for (const child of children.flat()) {
    if (child === null || child === undefined || child === false) continue;
    node.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return node;
}

/** A card name split into rank text and suit letter: "TS" → ["10", "S"], "14R" → ["14", "R"]. */
export function cardParts(name) {
  if (name === "ROOK") return ["Rook", ""];
  const suit = name.slice(-1);
  const rank = name.slice(0, -1);
  return [RANK_TEXT[rank] || rank, suit];
}

/** Rook cards are a number and a colour; standard ones a rank and a suit. */
export function isRookCard(name) {
  return name === "ROOK" || ROOK_COLOURS.includes(name.slice(-1));
}

export function cardLabel(name) {
  const [rank, suit] = cardParts(name);
  if (!suit) return rank;
  return isRookCard(name) ? `${rank} ${SUIT_NAME[suit]}` : `${rank}${SUIT_SYMBOL[suit]}`;
}

/** A playing card face for a canonical name such as "TS", "14R" or "ROOK". */
export function cardEl(name, extra = {}) {
  const [rank, suit] = cardParts(name);
  const rook = isRookCard(name);
  const colour = name === "ROOK" ? "rook" : rook ? `rook-${suit}` : suit === "H" || suit === "D" ? "red" : "";
  const { class: more = "", ...rest } = extra;
  return el(
    "div",
    {
      class: ["card", colour, more].filter(Boolean).join(" "),
      "data-card": name,
      title: suit ? `${rank} of ${SUIT_NAME[suit]}` : "the Rook",
      ...rest,
    },
    el("span.corner", {}, el("span.rank", { text: name === "ROOK" ? "R" : rank }), el("span.suit", { text: suit ? SUIT_SYMBOL[suit] : "★" })),
    el("span.pip", { text: name === "ROOK" ? "★" : rook ? rank : SUIT_SYMBOL[suit] }),
  );
}

const STANDARD_RANKS = "23456789TJQKA";

/** Cards grouped by suit (black, red, black, red; Rook colours in pack order), high first. */
export function sortCards(cards) {
  const suitOrder = { S: 0, H: 1, C: 2, D: 3, R: 0, Y: 1, G: 2, B: 3 };
  const rankOf = (name) => {
    if (name === "ROOK") return 10.5;
    const rank = name.slice(0, -1);
    if (isRookCard(name)) return rank === "1" ? 15 : Number(rank);
    return STANDARD_RANKS.indexOf(rank);
  };
  const suitOf = (name) => (name === "ROOK" ? 4 : suitOrder[name.slice(-1)]);
  return [...cards].sort((a, b) => suitOf(a) - suitOf(b) || rankOf(b) - rankOf(a));
}

export function toast(message, kind = "error", ms = 4500) {
  const box = document.getElementById("toasts");
  const item = el(`div.toast.${kind}`, { role: kind === "error" ? "alert" : "status", text: message });
  box.append(item);
  setTimeout(() => item.classList.add("fade"), ms - 400);
  setTimeout(() => item.remove(), ms);
}

export function banner(message, kind = "warn") {
  const node = document.getElementById("banner");
  if (!message) {
    node.hidden = true;
    node.textContent = "";
    return;
  }
  node.hidden = false;
  node.className = `banner ${kind}`;
  node.textContent = message;
}

export function clear(node) {
  while (node.firstChild) node.firstChild.remove();
  return node;
}

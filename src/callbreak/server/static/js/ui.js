// Small DOM helpers shared by every page: element builder, cards, toasts, the banner.

export const SUIT_SYMBOL = { S: "♠", H: "♥", D: "♦", C: "♣" };
export const SUIT_NAME = { S: "spades", H: "hearts", D: "diamonds", C: "clubs" };
const RANK_TEXT = { T: "10" };

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

export function cardLabel(name) {
  const rank = name.slice(0, -1);
  return `${RANK_TEXT[rank] || rank}${SUIT_SYMBOL[name.slice(-1)]}`;
}

/** A playing card face for a canonical name such as "TS". */
export function cardEl(name, extra = {}) {
  const suit = name.slice(-1);
  const rank = name.slice(0, -1);
  const red = suit === "H" || suit === "D";
  const { class: more = "", ...rest } = extra;
  return el(
    "div",
    {
      class: ["card", red ? "red" : "", more].filter(Boolean).join(" "),
      "data-card": name,
      title: `${RANK_TEXT[rank] || rank} of ${SUIT_NAME[suit]}`,
      ...rest,
    },
    el("span.corner", {}, el("span.rank", { text: `${RANK_TEXT[rank] || rank}` }), el("span.suit", { text: SUIT_SYMBOL[suit] })),
    el("span.pip", { text: SUIT_SYMBOL[suit] }),
  );
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

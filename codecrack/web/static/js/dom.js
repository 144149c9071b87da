// Small DOM helpers: h() builds elements, icon() inlines a bundled lucide SVG.
import { known, t } from "./i18n.js";

export function h(tag, attrs = {}, ...children) {
  const el = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs || {})) {
    if (value === null || value === undefined || value === false) continue;
    if (key.startsWith("on")) el.addEventListener(key.slice(2), value);
    else if (key === "class") el.className = value;
    else if (key === "dataset") Object.assign(el.dataset, value);
    else if (key === "style") el.style.cssText = value; // CSSOM, which the CSP allows (a style attribute it would block)
    else el.setAttribute(key, value === true ? "" : value);
  }
  for (const child of children.flat(Infinity)) {
    if (child === null || child === undefined || child === false) continue;
    el.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return el;
}

const svgCache = new Map();

// An <span class="icon"> filled with /static/icons/<name>.svg once it has loaded.
export function icon(name) {
  const span = h("span", { class: "icon", "aria-hidden": "true" });
  if (!svgCache.has(name)) {
    svgCache.set(name, fetch(`/static/icons/${name}.svg`).then((r) => (r.ok ? r.text() : "")));
  }
  svgCache.get(name).then((svg) => { span.innerHTML = svg; });
  return span;
}

export function button(label, onclick, attrs = {}) {
  return h("button", { type: "button", onclick, ...attrs }, label);
}

export function seatName(table, seat) {
  if (seat === null || seat === undefined) return t("app.nobody");
  return displayName(table?.seats?.[seat]?.name, seat);
}

// A seat's name as shown: the server names an unnamed seat "Seat N" (or "Player N" once taken),
// which the page shows in its own language.
export function displayName(name, seat) {
  if (!name || name === `Seat ${seat + 1}`) return t("app.seat", { number: seat + 1 });
  return name === `Player ${seat + 1}` ? t("app.player", { number: seat + 1 }) : name;
}

// An AI tier's name ("easy") in the page's language; a tier the catalogue does not know as it is.
export function agentTitle(agent) {
  return known(`app.agent.${agent}`) ? t(`app.agent.${agent}`) : agent;
}

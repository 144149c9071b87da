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

const NAME_LIMIT = 40; // the server's longest name (WebConfig.max_name_length)
// A name input that says its limit where the name is typed (the server cuts a longer name).
export function nameInput(attrs) {
  const id = `${attrs.id ?? attrs.name}-limit`;
  return h("span", { class: "name-input" }, h("input", { ...attrs, maxlength: NAME_LIMIT, "aria-describedby": id }),
    h("small", { class: "muted name-limit", id }, t("lobby.name.limit", { count: NAME_LIMIT })));
}

// A choice's label: its translation where the catalogue has one (lobby.choice.deck), else the value itself (a number).
export function choiceTitle(value) {
  const key = `lobby.choice.${value}`;
  return known(key) ? t(key) : String(value);
}

// The ▶ before the name of a seat to move, said in words to a screen reader.
export function toMoveMark() {
  return [h("span", { "aria-hidden": "true" }, "▶ "), h("span", { class: "sr-only" }, `${t("a11y.to_move")} `)];
}

// -- keyboard: re-rendering replaces the DOM, so the focused control is found again by what it is
// (its id, else its name and data, else its label or text: counts in a text may change meanwhile).
function focusKey(el) {
  if (el.id) return `#${el.id}`;
  const data = JSON.stringify({ ...el.dataset });
  const named = el.getAttribute("name") || data !== "{}";
  return [el.tagName, el.getAttribute("name"), data, named ? "" : el.getAttribute("aria-label") ?? el.textContent.trim()].join("|");
}

// Run render() (which rebuilds the children of container) and give focus back to the same control.
// When that control is gone (a move was made), focus goes to fallback(), if it returns an element.
export function keepFocus(container, render, fallback = () => null) {
  const active = document.activeElement;
  const had = active && active !== document.body && container.contains(active) ? focusKey(active) : null;
  render();
  if (had === null) return;
  const again = [...container.querySelectorAll(active.tagName)].find((el) => focusKey(el) === had);
  (again ?? fallback())?.focus({ preventScroll: Boolean(again) });
}

// A live region outside the re-rendered page: screen readers announce what is put in it.
export function announce(text) {
  const region = document.getElementById("announcer");
  if (region && text) region.textContent = text;
}

// A grid of many controls is one Tab stop: the arrow keys move between its `cells` (elements with
// data-r and data-c; others in the way are skipped) and Tab comes back to the cell last focused
// (remembered under `key` across re-renders).
const lastCells = new Map();
const ARROWS = { ArrowUp: [-1, 0], ArrowDown: [1, 0], ArrowLeft: [0, -1], ArrowRight: [0, 1] };

export function arrowGrid(grid, cells, key) {
  const all = [...grid.querySelectorAll(cells)];
  const last = lastCells.get(key);
  const entry = all.find((el) => last && el.dataset.r === last.r && el.dataset.c === last.c) ?? all[0];
  all.forEach((el) => el.setAttribute("tabindex", el === entry ? "0" : "-1"));
  grid.addEventListener("focusin", (event) => {
    if (event.target.dataset.r !== undefined) lastCells.set(key, { r: event.target.dataset.r, c: event.target.dataset.c });
  });
  grid.addEventListener("keydown", (event) => {
    const step = ARROWS[event.key];
    const from = event.target.dataset;
    if (!step || from.r === undefined) return;
    event.preventDefault();
    const at = (r, c, selector = "") => grid.querySelector(`${selector}[data-r="${r}"][data-c="${c}"]`);
    for (let r = Number(from.r) + step[0], c = Number(from.c) + step[1]; at(r, c); r += step[0], c += step[1]) {
      const next = at(r, c, cells);
      if (next) {
        event.target.setAttribute("tabindex", "-1");
        next.setAttribute("tabindex", "0");
        next.focus();
        return;
      }
    }
  });
  return grid;
}

// Enter and Space press a focusable element that is not a button (as they press a button).
export function pressable(el) {
  el.setAttribute("tabindex", el.getAttribute("tabindex") ?? "0");
  el.addEventListener("keydown", (event) => {
    if (event.key !== "Enter" && event.key !== " ") return;
    event.preventDefault();
    el.click();
  });
  return el;
}

// Escape closes the open <details> (a menu) that holds the focus, and focus goes to its summary.
export function closeMenu(target) {
  const menu = target.closest?.("details[open]");
  if (!menu) return false;
  menu.open = false;
  menu.querySelector("summary")?.focus();
  return true;
}

// The cracking sheet: a header of values, then one line per hidden thing with one cell per value.
// A click crosses a value out (kept in localStorage). With hints on, the belief engine's probability
// shades each cell; its number shows on hover (the title) or on a long press (phones).
import { h } from "./dom.js";
import { t } from "./i18n.js";

const LONG_PRESS_MS = 450;
const PEEK_MS = 1800;

export function sheetLine(ctx, key, label, values, { odds = null, seen = new Set(), text = String } = {}) {
  const crossed = new Set(ctx.notes[key] ?? []);
  const name = typeof label === "string" ? label : "";
  return h("tr", {}, h("th", { scope: "row" }, label), values.map((value) => {
    const p = odds ? odds[String(value)] ?? 0 : null;
    const percent = p === null ? null : t("table.sheet.percent", { value: text(value), percent: Math.round(p * 100) });
    const classes = [crossed.has(value) ? "crossed" : "", seen.has(value) ? "seen" : ""].join(" ").trim();
    const cell = h("td", {
      class: classes || null, style: p !== null ? `--p:${p}` : null,
      title: percent ?? t("table.sheet.cross_out", { value: text(value) }),
      "aria-label": [name, text(value), percent, crossed.has(value) ? t("table.sheet.crossed") : ""].filter(Boolean).join(" "),
      dataset: { value: text(value), odds: percent ?? "" },
    }, crossed.has(value) ? "✕" : "");
    cell.addEventListener("click", () => {
      if (cell.dataset.pressed) return; // a long press shows the number; it does not cross out
      if (crossed.has(value)) crossed.delete(value); else crossed.add(value);
      ctx.notes[key] = [...crossed];
      ctx.saveNotes();
      ctx.rerender();
    });
    if (percent) peekOnLongPress(cell);
    return cell;
  }));
}

// A long press (touch or mouse held) shows the cell's number in a bubble for a moment.
function peekOnLongPress(cell) {
  let timer = null;
  cell.addEventListener("pointerdown", () => {
    delete cell.dataset.pressed;
    timer = setTimeout(() => {
      cell.dataset.pressed = "1";
      cell.classList.add("peek");
      setTimeout(() => cell.classList.remove("peek"), PEEK_MS);
    }, LONG_PRESS_MS);
  });
  for (const end of ["pointerup", "pointerleave", "pointercancel"]) cell.addEventListener(end, () => clearTimeout(timer));
  cell.addEventListener("contextmenu", (event) => event.preventDefault()); // the phone's own long-press menu
}

// A sheet: `caption`, a header row of `values` (shown with `text`), then the lines.
export function sheetTable(ctx, lines, { caption = null, values = [], text = String } = {}) {
  return h("table", { class: `sheet${ctx.hint ? " odds" : ""}` },
    caption ? h("caption", {}, caption) : null,
    h("thead", {}, h("tr", {}, h("th", {}), values.map((value) => h("th", { scope: "col" }, text(value))))),
    h("tbody", {}, lines));
}

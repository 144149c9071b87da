// The cracking sheet: a header of values, then one line per hidden thing with one cell per value.
// A click crosses a value out (kept in localStorage). Auto-notes cross out, in grey, the values the
// seat's own view rules out (`out`: the belief engine's exact support); the player's own marks stay
// theirs. With hints on, the belief engine's probability shades each cell; its number shows on hover
// (the title) or on a long press (phones).
// The keyboard reaches a sheet with one Tab, moves with the arrow keys and crosses out with Enter or Space.
import { arrowGrid, h, pressable } from "./dom.js";
import { t } from "./i18n.js";

const LONG_PRESS_MS = 450;
const PEEK_MS = 1800;

export function sheetLine(ctx, key, label, values, { odds = null, out = null, seen = new Set(), text = String } = {}) {
  const crossed = new Set(ctx.notes[key] ?? []);
  const ruledOut = (value) => out?.has(value) ?? false;
  return h("tr", { dataset: { line: key } }, h("th", { scope: "row" }, label), values.map((value, column) => {
    const p = odds ? odds[String(value)] ?? 0 : null;
    const percent = p === null ? null : t("table.sheet.percent", { value: text(value), percent: Math.round(p * 100) });
    const classes = [crossed.has(value) ? "crossed" : "", ruledOut(value) ? "ruled-out" : "", seen.has(value) ? "seen" : ""]
      .join(" ").trim();
    const words = [text(value), crossed.has(value) ? t("a11y.sheet.crossed") : null, ruledOut(value) ? t("a11y.sheet.ruled_out") : null,
      seen.has(value) ? t("a11y.sheet.seen") : null, p !== null ? `${Math.round(p * 100)}%` : null];
    const cell = pressable(h("td", {
      class: classes || null, style: p !== null ? `--p:${p}` : null,
      title: percent ?? (ruledOut(value) ? t("table.sheet.ruled_out") : t("table.sheet.cross_out")),
      "aria-label": words.filter(Boolean).join(", "), dataset: { c: column, value: text(value), odds: percent ?? "" },
    }, crossed.has(value) || ruledOut(value) ? "✕" : ""));
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
  lines.forEach((row, r) => row.querySelectorAll("td").forEach((cell) => { cell.dataset.r = r; }));
  return arrowGrid(h("table", { class: `sheet${ctx.hint ? " odds" : ""}`, role: "grid" },
    caption ? h("caption", {}, caption) : null,
    h("thead", {}, h("tr", {}, h("th", {}), values.map((value) => h("th", { scope: "col" }, text(value))))),
    h("tbody", {}, lines)), "td", `sheet:${lines[0]?.dataset.line}`);
}

// A cracking-sheet line: one cell per value, clicked to cross out (kept in localStorage), shaded
// by the belief engine's probability when hints are on.
// The keyboard reaches a sheet with one Tab, moves with the arrow keys and crosses out with Enter or Space.
import { arrowGrid, h, pressable } from "./dom.js";
import { t } from "./i18n.js";

export function sheetLine(ctx, key, label, values, { odds = null, seen = new Set(), text = String } = {}) {
  const crossed = new Set(ctx.notes[key] ?? []);
  return h("tr", { dataset: { line: key } }, h("th", { scope: "row" }, label), values.map((value, column) => {
    const p = odds ? odds[String(value)] ?? 0 : null;
    const classes = [crossed.has(value) ? "crossed" : "", seen.has(value) ? "seen" : ""].join(" ").trim();
    const words = [text(value), crossed.has(value) ? t("a11y.sheet.crossed") : null, seen.has(value) ? t("a11y.sheet.seen") : null,
      p !== null ? `${Math.round(p * 100)}%` : null];
    return pressable(h("td", {
      class: classes || null, style: p !== null ? `--p:${p}` : null,
      title: p !== null ? `${Math.round(p * 100)}%` : t("table.sheet.cross_out"),
      "aria-label": words.filter(Boolean).join(", "), dataset: { c: column },
      onclick: () => {
        if (crossed.has(value)) crossed.delete(value); else crossed.add(value);
        ctx.notes[key] = [...crossed];
        ctx.saveNotes();
        ctx.rerender();
      },
    }, p !== null && p > 0 ? `${Math.round(p * 100)}` : text(value)));
  }));
}

export function sheetTable(ctx, lines, extra = "") {
  const rows = lines.filter((line) => line.dataset?.line);
  rows.forEach((row, r) => row.querySelectorAll("td").forEach((cell) => { cell.dataset.r = r; }));
  return arrowGrid(h("table", { class: `sheet ${extra}${ctx.hint ? " odds" : ""}`, role: "grid" }, lines), "td", `sheet:${rows[0]?.dataset.line}`);
}

// A cracking-sheet line: one cell per value, clicked to cross out (kept in localStorage), shaded
// by the belief engine's probability when hints are on.
import { h } from "./dom.js";
import { t } from "./i18n.js";

export function sheetLine(ctx, key, label, values, { odds = null, seen = new Set(), text = String } = {}) {
  const crossed = new Set(ctx.notes[key] ?? []);
  return h("tr", {}, h("th", {}, label), values.map((value) => {
    const p = odds ? odds[String(value)] ?? 0 : null;
    const classes = [crossed.has(value) ? "crossed" : "", seen.has(value) ? "seen" : ""].join(" ").trim();
    return h("td", {
      class: classes || null, style: p !== null ? `--p:${p}` : null,
      title: p !== null ? `${Math.round(p * 100)}%` : t("table.sheet.cross_out"),
      onclick: () => {
        if (crossed.has(value)) crossed.delete(value); else crossed.add(value);
        ctx.notes[key] = [...crossed];
        ctx.saveNotes();
        ctx.rerender();
      },
    }, p !== null && p > 0 ? `${Math.round(p * 100)}` : text(value));
  }));
}

export function sheetTable(ctx, lines, extra = "") {
  return h("table", { class: `sheet ${extra}${ctx.hint ? " odds" : ""}` }, lines);
}

// One of the game's strategy tips (its module's teaching) at the table, until it is dismissed (then never again at that table).
import { button, h } from "../dom.js";
import { t } from "../i18n.js";

const KEY = (code) => `codecrack:tip:${code}`;

export function tableTip(code, tips, rerender) {
  if (!tips.length || localStorage.getItem(KEY(code))) return null;
  const pick = [...code].reduce((sum, c) => sum + c.charCodeAt(0), 0) % tips.length; // the same tip on every reload
  return h("aside", { class: "card tip", id: "tip", role: "note" },
    h("b", {}, `${t("learn.tip.title")}: `), t(tips[pick]), " ",
    button(t("learn.tip.dismiss"), () => { localStorage.setItem(KEY(code), "1"); rerender(); }, { id: "tip-dismiss", class: "ghost" }));
}

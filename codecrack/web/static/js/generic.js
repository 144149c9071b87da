// The generic game module and the fallback actions panel: every legal action as a button (or a
// list, when there are many), so any game is playable even where its own UI has no control.
import { button, h, seatName } from "./dom.js";

export function actionLabel(action) {
  const rest = Object.entries(action).filter(([k]) => k !== "type")
    .map(([k, v]) => `${k} ${typeof v === "object" ? JSON.stringify(v) : v}`);
  return [action.type, ...rest].join(" · ");
}

export function actionsPanel(actions, send, covers = new Set()) {
  const left = actions.filter((a) => !covers.has(a.type));
  const groups = new Map();
  for (const action of left) groups.set(action.type, [...(groups.get(action.type) ?? []), action]);
  return h("div", { class: "generic-actions" }, [...groups].map(([type, group]) => {
    if (group.length <= 8) {
      return group.map((action) => button(actionLabel(action), () => send(action),
        { class: "action", dataset: { action: JSON.stringify(action) } }));
    }
    const list = h("select", { class: "action-list", dataset: { type } },
      group.map((action, i) => h("option", { value: i }, actionLabel(action))));
    return h("span", { class: "row" }, list, button(type, () => send(group[Number(list.value)]), { class: "action" }));
  }));
}

function stateOnly(view) {
  const skip = new Set(["history", "legal_actions", "options", "game", "players"]);
  return Object.fromEntries(Object.entries(view).filter(([k]) => !skip.has(k)));
}

export default {
  covers: new Set(),
  board(view) {
    return h("pre", { class: "generic-state" }, JSON.stringify(stateOnly(view), null, 1));
  },
  describe(event, ctx) {
    const who = "seat" in event ? `${seatName(ctx.table, event.seat)}: ` : "";
    const rest = Object.entries(event).filter(([k]) => k !== "type" && k !== "seat")
      .map(([k, v]) => `${k} ${typeof v === "object" ? JSON.stringify(v) : v}`).join(", ");
    return `${who}${event.type}${rest ? ` (${rest})` : ""}`;
  },
  notes() {
    return null;
  },
  // A game's teaching (its own teaching.js): the how-to page's pictures and tips, the coach's targets.
  teaching: { examples: [], tips: [], reading: {}, targets: () => [] },
};

// Table chat: the players' lines (everyone reads them) and the spectators' (the players get them
// only once the game is over: the server holds them back), quick phrases in the reader's language,
// free text shown as text (never as markup), muting a seat or the spectators (remembered per
// table, named again on every connection), and a player's switch that turns the chat off or on.
import { button, h, icon, seatName } from "./dom.js";
import { t } from "./i18n.js";

const PHRASES = ["hello", "good_luck", "have_fun", "thinking", "nice_move", "oops", "thanks", "well_played", "good_game"];
const LIMIT = 200; // the server's chat_length
const SPECTATORS = "spectators"; // the muted "seat" of the spectators, as kept in localStorage

export class Chat {
  constructor(page) {
    this.page = page;
    this.lines = new Map(); // id -> line: the greeting and live lines may repeat one
    this.off = false;
    this.draft = "";
    this.key = `codecrack:muted:${page.code}`;
    this.muted = new Set(JSON.parse(localStorage.getItem(this.key) || "[]"));
  }

  receive(message) {
    for (const line of message.lines) this.lines.set(line.id, line);
    this.off = message.off;
  }

  // After each hello: the server forgets a closed connection's mutes.
  greet() {
    for (const seat of this.muted) this.send({ type: "mute", seat: seat === SPECTATORS ? null : seat });
  }

  send(message) {
    this.page.socket?.send(JSON.stringify(message));
  }

  mute(seat, muted) {
    const kept = seat ?? SPECTATORS;
    if (muted) this.muted.add(kept); else this.muted.delete(kept);
    localStorage.setItem(this.key, JSON.stringify([...this.muted]));
    this.send({ type: "mute", seat, muted });
    this.page.render();
  }

  isMuted(seat) {
    return this.muted.has(seat ?? SPECTATORS);
  }

  say(event) {
    event.preventDefault();
    const text = this.draft.trim();
    if (!text) return;
    this.send({ type: "chat", text });
    this.draft = "";
    this.page.render();
  }

  who(line) {
    return line.seat === null ? t("chat.spectator") : seatName(this.page.table, line.seat);
  }

  lineItem(line) {
    if (line.kind === "off" || line.kind === "on") {
      return h("li", { class: "chat-switch muted" }, t(`chat.turned_${line.kind}`, { name: this.who(line) }));
    }
    const body = line.kind === "phrase" ? t(`chat.phrase.${line.body}`) : line.body;
    return h("li", { class: line.seat === null ? "from-spectator" : "", dataset: { id: line.id } },
      h("b", {}, `${this.who(line)}: `), body);
  }

  panel() {
    const { seat, table } = this.page;
    const shown = [...this.lines.values()].sort((a, b) => a.id - b.id)
      .filter((line) => line.kind === "off" || line.kind === "on" || !this.isMuted(line.seat));
    const others = table.seats.map((s, i) => i).filter((i) => i !== seat && table.seats[i].kind === "human");
    return h("section", { class: "card chat", id: "chat" },
      h("h2", {}, icon("message-circle"), " ", t("chat.title")),
      h("ol", { class: "chat-lines", id: "chat-lines", tabindex: 0, "aria-label": t("chat.title") }, shown.map((line) => this.lineItem(line))),
      this.off ? h("p", { class: "muted", id: "chat-off" }, t("chat.is_off")) : this.form(),
      h("details", { class: "chat-mutes" }, h("summary", {}, t("chat.mute")),
        [...others, null].map((i) => h("label", { class: "check" },
          h("input", { type: "checkbox", checked: this.isMuted(i), dataset: { mute: i ?? SPECTATORS },
            onchange: (e) => this.mute(i, e.target.checked) }),
          " ", i === null ? t("chat.mute_spectators") : t("chat.mute_seat", { name: seatName(table, i) })))),
      seat !== null ? button(t(this.off ? "chat.turn_on" : "chat.turn_off"), () => this.send({ type: "chat_switch", off: !this.off }),
        { class: "ghost", id: "chat-switch" }) : null);
  }

  form() {
    return h("div", {},
      h("details", { class: "chat-phrases" }, h("summary", {}, t("chat.phrases")),
        h("div", { class: "row" }, PHRASES.map((phrase) => button(t(`chat.phrase.${phrase}`),
          () => this.send({ type: "chat", phrase }), { class: "ghost", dataset: { phrase } })))),
      h("form", { class: "row chat-form", onsubmit: (e) => this.say(e) },
        h("input", { id: "chat-text", maxlength: LIMIT, value: this.draft, autocomplete: "off",
          placeholder: t(this.page.seat === null ? "chat.placeholder_spectator" : "chat.placeholder"),
          "aria-label": t("chat.placeholder"), oninput: (e) => { this.draft = e.target.value; } }),
        h("button", { type: "submit", id: "chat-send" }, t("chat.send"))));
  }
}

// A table page: one websocket to the server, which sends this seat's view, then its changes after every action.
import { api, seats } from "./api.js";
import { ViewTracker } from "./deltas.js";
import { agentTitle, announce, button, closeMenu, displayName, h, icon, keepFocus, nameInput, seatName } from "./dom.js";
import { actionsPanel } from "./generic.js";
import { gameModule, gameTitle } from "./games/index.js";
import { lang, t } from "./i18n.js";
import { Chat } from "./chat.js";
import { invited, invitePanel, loadInvite, markPlayed } from "./invite.js";
import { ratedTag, ratingChanges, recoverSeat } from "./players.js";
import { reviewPanel } from "./review.js";
import { chime, soundOn, toggleSound } from "./sound.js";
import { endSummary } from "./summary.js";
import { Coach, isTutorial } from "./learn/coach.js";
import { rulesHref } from "./learn/rules.js";
import { tableTip } from "./learn/tips.js";

export async function showTable(root, code) {
  const page = new TablePage(root, code);
  await page.start();
  window.codecrack = page; // handy in the console and for tests
}

const REPLACED = 4001;
const AUTO_NOTES = "codecrack:auto-notes"; // "off" once the player turned auto-notes off // close code: this seat was opened in another window (the newest one keeps it)

class TablePage {
  constructor(root, code) {
    this.root = root;
    this.code = code;
    this.seat = null;
    this.table = null;
    this.view = null;
    this.views = new ViewTracker(() => this.socket?.send(JSON.stringify({ type: "resync" })));
    this.clock = null;
    this.hint = null;         // the belief engine's answer for this seat at step hintStep
    this.hintStep = null;
    this.showHints = false;   // probabilities shown
    this.autoNotes = localStorage.getItem(AUTO_NOTES) !== "off"; // values ruled out crossed out; on by default
    this.replay = null;       // {frames, at, page, hints} while replaying a finished game: frames fetched a page at a time
    this.review = null;       // this seat's post-game review, shown beside the replay
    this.error = "";
    this.copied = null;       // "done" or "failed" for a moment after "Copy the link"
    this.ui = {};             // the game module's own UI state (selections, half-filled forms)
    this.notes = JSON.parse(localStorage.getItem(`codecrack:notes:${code}`) || "{}");
    this.chat = new Chat(this);
    this.invite = new URLSearchParams(location.hash.slice(1)).get("invite"); // a friends' table's invitation, from its link
  }

  // A visitor may take an open seat of a table open to anyone, or of a friends' table with its link.
  canSit() {
    return this.table.open_to !== "link" || Boolean(this.invite);
  }

  async start() {
    try {
      this.table = await api.table(this.code);
    } catch (error) {
      this.root.replaceChildren(h("section", { class: "card" }, h("h2", {}, t("table.missing")),
        h("p", {}, error.message), h("a", { href: "/" }, t("table.back_to_lobby"))));
      return;
    }
    this.module = await gameModule(this.table.game);
    this.coach = isTutorial(this.table) ? await Coach.load(this.code, this.table.game) : null;
    this.title = `${gameTitle(this.table.game)} · ${this.code} · codecrack`;
    document.title = this.title;
    document.addEventListener("keydown", (event) => this.key(event));
    setInterval(() => this.tick(), 250);
    await recoverSeat(this.code);
    this.connect();
  }

  // The seat token goes in the socket's first message, not in its URL (URLs end up in access logs).
  connect() {
    const token = seats.get(this.code)?.token ?? null;
    const scheme = location.protocol === "https:" ? "wss" : "ws";
    this.socket = new WebSocket(`${scheme}://${location.host}/ws/${this.code}?lang=${lang}`);
    this.socket.onmessage = (event) => this.receive(JSON.parse(event.data));
    this.socket.onclose = (event) => {
      this.online = false;
      this.elsewhere = event.code === REPLACED; // another tab has the seat: no reconnecting, an offer to take it back
      this.render();
      if (!this.elsewhere) setTimeout(() => this.connect(), 1000);
    };
    this.socket.onopen = () => {
      this.online = true;
      this.hintAsked = false;
      this.socket.send(JSON.stringify({ type: "hello", token }));
      this.chat.greet();
    };
  }

  receive(message) {
    switch (message.type) {
      case "hello":
        this.seat = message.seat;
        this.table = message.table;
        if (this.seat !== null) markPlayed(this.table.game);
        if (this.seat !== null) loadInvite(this, seats.get(this.code)?.token);
        this.askRatings();
        break;
      case "table": this.table = message.table; this.askRatings(); break;
      case "rated": this.ratings = message.changes; break;
      case "state":
      case "delta":
        this.sending = false;
        if (!this.views.receive(message)) return; // a delta that did not fit: a whole view is on its way
        if (!this.myMove(this.view ?? {}) && this.myMove(this.views.view)) this.turnStarts();
        this.announceNews(this.view, this.views.view);
        this.view = this.views.view;
        this.step = message.step;
        this.clock = message.clock ? { ...message.clock, until: performance.now() + message.clock.remaining * 1000 } : null;
        this.error = "";
        if (this.wantsHint()) this.askHint();
        break;
      case "hint":
        this.hint = message.hint;
        this.hintStep = message.step;
        this.hintAsked = false;
        if (this.wantsHint() && message.step !== this.step) this.askHint();
        break;
      case "error":
        this.sending = false;
        // A click sent from an earlier step (its ref) was overtaken by the game: refused, and quiet.
        if (message.ref === undefined || message.ref === String(this.step)) this.error = message.message;
        break;
      case "rematch": this.followRematch(message.code); return;
      case "invite": invited(this, message.invite); return; // another seated player renewed the link
      case "chat": this.chat.receive(message); break;
      default: return;
    }
    this.render();
  }

  // A rated game that ended before this page came (or on another instance): its stored changes, asked once.
  askRatings() {
    if (!this.table.rated || !this.table.over || this.ratings !== undefined) return;
    this.ratings = null;
    api.ratings(this.code).then((changes) => { if (changes.length) { this.ratings = changes; this.render(); } }).catch(() => {});
  }

  turnStarts() {
    if (!soundOn()) return;
    chime();
    this.chimes = (this.chimes ?? 0) + 1; // counted for the tests
  }

  // The live region says what is new: the events since the last view, and whose move it is.
  announceNews(before, view) {
    const history = view.history ?? [];
    const seen = before?.history?.length ?? history.length;
    const ctx = this.context(view);
    const lines = seen <= history.length ? history.slice(seen).map((e) => this.module.describe(e, ctx)).filter(Boolean) : [];
    const status = this.statusText(view);
    if (status !== this.announced) lines.push(status);
    this.announced = status;
    announce(lines.join(" "));
  }

  // A repeated click while the last action is on its way, or a stale one (not this seat's move
  // now, or sent before the game moved on: see "error"), is quiet: the refusal would only show the
  // engine's words.
  send(action) {
    if (this.coach && !this.coach.allows(action)) {
      this.render();
      return;
    }
    // legal_actions is empty unless the seat is to move (a plug-in game's view may have no to_move)
    if (this.elsewhere || this.sending || !(this.view?.legal_actions ?? []).length) return;
    this.sending = true;
    clearTimeout(this.sendingTimer);
    this.sendingTimer = setTimeout(() => { this.sending = false; }, 3000); // no answer: clicks work again
    this.socket?.send(JSON.stringify({ type: "action", action, ref: String(this.step ?? 0) }));
  }

  // The belief engine's answer feeds the probabilities and the auto-notes (a seat's own view only).
  wantsHint() {
    return (this.showHints || this.autoNotes) && Boolean(this.table?.hints) && this.seat !== null;
  }

  askHint() {
    if (this.hintAsked) return; // one question at a time; the answer's step tells if it is stale
    this.hintAsked = true;
    this.socket?.send(JSON.stringify({ type: "hint" }));
  }

  followRematch(code) {
    // The rematch answer and the table's "rematch" message both land here: navigate once,
    // since a second assignment to location.href aborts the first navigation.
    if (this.leavingFor === code) return;
    this.leavingFor = code;
    const mine = seats.get(this.code);
    if (mine) seats.set(code, mine.seat, mine.token);
    location.href = `/t/${code}${this.invite ? `#invite=${this.invite}` : ""}`; // a rematch keeps the invitation
  }

  async sit(seat) {
    const name = this.root.querySelector("#sit-name")?.value.trim() || seats.name();
    seats.setName(name);
    try {
      const joined = await api.join(this.code, seat, name, this.invite ?? undefined);
      seats.set(this.code, joined.seat, joined.token);
      this.socket.onclose = null;
      this.socket.close();
      this.connect();
    } catch (error) {
      this.error = error.message;
      this.render();
    }
  }

  saveNotes() {
    localStorage.setItem(`codecrack:notes:${this.code}`, JSON.stringify(this.notes));
  }

  key(event) {
    if (event.key === "Escape" && closeMenu(event.target)) return;
    if (!this.view || this.replay || ["INPUT", "SELECT", "TEXTAREA"].includes(event.target.tagName)) return;
    this.module.key?.(event, this.context(this.view));
  }

  tick() {
    const el = this.root.querySelector(".clock");
    if (!el || !this.clock) return;
    const left = Math.max(0, (this.clock.until - performance.now()) / 1000);
    const counting = left <= this.clock.countdown;
    el.classList.toggle("urgent", counting);
    const seconds = Math.ceil(left); // the whole time left, from the start of the turn
    el.querySelector(".clock-text").textContent = t("table.clock.left",
      { time: `${Math.floor(seconds / 60)}:${String(seconds % 60).padStart(2, "0")}` });
  }

  // The hint of the step shown: live, the latest while the next one is on its way, if it still
  // fits the board (the game says: Coda's rows grow, Alphabet Code's rounds change the code); in a
  // replay, that step's own, from this seat's view then.
  shownHint() {
    if (!this.wantsHint()) return null;
    if (!this.replay) {
      const fits = this.hintStep === this.step || (this.hint && (this.module.hintFits?.(this.hint, this.view) ?? true));
      return fits ? this.hint : null;
    }
    const { at, hints } = this.replay;
    if (!(at in hints) && this.seat !== null) {
      hints[at] = null; // asked once
      api.replayHint(this.code, at, seats.get(this.code)?.token)
        .then((answer) => { hints[at] = answer.hint; this.render(); }).catch(() => {});
    }
    return hints[at];
  }

  context(view, live = true) {
    const hint = this.shownHint();
    return {
      view, table: this.table, seat: this.seat, ui: this.ui, error: this.error,
      hint: this.showHints ? hint : null, auto: this.autoNotes ? hint : null,
      notes: this.notes, saveNotes: () => this.saveNotes(), rerender: () => this.render(),
      send: live ? (action) => this.send(action) : null,
      name: (seat) => seatName(this.table, seat),
    };
  }

  // -- rendering -------------------------------------------------------------------
  render() {
    if (!this.table) return;
    const replaying = this.replay !== null;
    const view = replaying ? this.replay.frames[this.replay.at] : this.view;
    if (!view) return;
    const ctx = this.context(view, !replaying && !this.elsewhere);
    const notesOn = view.options?.notes !== false;
    const historyScroll = this.root.querySelector("#history")?.scrollTop ?? 0;
    document.title = this.myMove(view) ? `${t("table.your_move")} · ${this.title}` : this.title;
    const opened = [...this.root.querySelectorAll("details[open]")].map((menu) => menu.className); // kept open
    keepFocus(this.root, () => {
      this.root.replaceChildren(h("div", { class: `table-page game-${this.table.game}` },
        this.header(view),
        h("div", { class: "layout" },
          h("section", { class: "play" },
            this.elsewhere ? h("div", { class: "card elsewhere", id: "elsewhere", role: "alert" }, t("table.elsewhere"), " ",
              button(t("table.take_back"), () => { this.elsewhere = false; this.connect(); this.render(); }, { class: "primary", id: "take-back" })) : null,
            this.resultBanner(view),
            invitePanel(this),
            replaying ? this.replayBar() : null,
            replaying && this.review ? reviewPanel(this.review, this.replay.at, (at) => this.replayTo(at), this.table.game) : null,
            this.coach ? this.coach.panel(view, this.step, () => this.render())
              : view.result || replaying ? null : tableTip(this.code, this.module.teaching.tips, () => this.render()),
            h("div", { class: "board", tabindex: -1, "aria-label": t("a11y.board") }, this.module.board(view, ctx)),
            endSummary(view, ctx, this.module),
            ratingChanges(this.ratings, this.table),
            replaying || this.elsewhere ? null : this.fallback(view),
            this.error && !ctx.errorShown ? h("p", { class: "error", id: "error" }, this.error) : null),
          h("aside", { class: "side" },
            this.seatList(),
            this.coach ? null : this.chat.panel(),
            notesOn ? this.notesPanel(view, ctx) : null,
            this.historyPanel(view, ctx, notesOn)))));
      opened.forEach((name) => this.root.querySelector(`details[class="${name}"]`)?.setAttribute("open", ""));
      if (!replaying) this.coach?.decorate(this.root, view, this.step, this.ui);
    }, () => this.nextControl());
    this.root.querySelector("#history").scrollTop = historyScroll; // a re-render keeps the reader's place
    const chatLines = this.root.querySelector("#chat-lines");
    if (chatLines) chatLines.scrollTop = chatLines.scrollHeight; // the latest line in sight
    this.tick();
  }

  // Where focus goes when the focused control went away with a move: the next thing to press
  // (in a tutorial, what the coach points at).
  nextControl() {
    return this.root.querySelector("button.coach-target, .coach-target button, #coach-next")
      ?? this.root.querySelector("#result button, .board button:not([disabled]), .board select, .board summary")
      ?? this.root.querySelector(".board");
  }

  header(view) {
    const you = this.seat === null ? t("table.spectating") : t("table.you", { name: seatName(this.table, this.seat) });
    const link = `${location.origin}/t/${this.code}`;
    return h("div", { class: "table-head" },
      h("h1", {}, gameTitle(this.table.game)),
      h("span", { class: "code", title: link }, t("table.code"), " ", h("b", { id: "table-code" }, this.code),
        button(icon("copy"), () => this.copyLink(link), { class: "ghost", title: t("table.copy_link"), "aria-label": t("table.copy_link"), id: "copy-link" }),
        h("span", { class: "copied", id: "copied", role: "status" }, this.copied === "done" ? t("table.copy_done")
          : this.copied === "failed" ? t("table.copy_failed") : "")),
      h("span", { class: "you" }, icon(this.seat === null ? "eye" : "user"), " ", you),
      ratedTag(this.table),
      h("a", { href: rulesHref(this.table.game), target: "_blank", rel: "noopener", id: "howto-link" }, t("learn.howto")),
      h("span", { class: "status", id: "status" }, this.statusText(view)),
      this.clock && !this.replay ? h("span", { class: "clock" }, icon("clock"), " ", seatName(this.table, this.clock.seat), " ",
        h("span", { class: "clock-text" }, "")) : null,
      this.seat !== null ? button([icon("bell"), " ", t(soundOn() ? "table.sound.on" : "table.sound.off")],
        () => { toggleSound(); this.render(); },
        { class: `ghost sound${soundOn() ? " on" : ""}`, id: "sound", "aria-pressed": String(soundOn()), title: t("table.sound.title") }) : null,
      this.online === false && !this.elsewhere ? h("span", { class: "offline" }, t("table.reconnecting")) : null);
  }

  async copyLink(link) {
    try {
      await navigator.clipboard.writeText(link);
      this.copied = "done";
    } catch {
      this.copied = "failed";
    }
    this.render();
    clearTimeout(this.copiedTimer);
    this.copiedTimer = setTimeout(() => { this.copied = null; this.render(); }, 2500);
  }

  myMove(view) {
    return !this.replay && !view.result && !this.table.over && this.seat !== null && (view.to_move ?? []).includes(this.seat);
  }

  statusText(view) {
    if (view.result || this.table.over) return t("table.game_over");
    const moving = view.to_move ?? [];
    if (this.myMove(view)) return t("table.your_move");
    const waiting = moving.map((s) => seatName(this.table, s));
    return waiting.length ? t("table.waiting_for", { names: waiting.join(", ") }) : "";
  }

  resultBanner(view) {
    const result = view.result ?? (this.table.over ? this.table.result : null);
    if (!result) return null;
    const winners = result.winners.map((s) => seatName(this.table, s));
    const scores = result.scores
      ? ` · ${t("table.scores", { scores: result.scores.map((s, i) => `${seatName(this.table, i)} ${s}`).join(", ") })}`
      : result.forfeit ? ` · ${t("table.lost_on_time", { names: result.forfeit.seats.map((s) => seatName(this.table, s)).join(", ") })}` : "";
    const text = winners.length === 0 ? t("table.nobody_wins") : winners.length > 1 ? t("table.shared_win", { names: winners.join(", ") })
      : t("table.wins", { name: winners[0] });
    return h("div", { class: "result", id: "result" }, icon("trophy"), h("b", {}, ` ${text}`), scores,
      h("span", { class: "row" },
        this.table.rematch
          ? h("a", { href: `/t/${this.table.rematch}`, class: "button" }, t("table.go_to_rematch"))
          : this.seat !== null && !this.coach ? button([icon("rotate-ccw"), " ", t("table.rematch")], () => this.startRematch(), { id: "rematch" }) : null,
        this.replay ? button(t("table.back_to_end"), () => { this.replay = null; this.review = null; this.render(); })
          : button([icon("history"), " ", t("table.replay")], () => this.startReplay(), { id: "replay" }),
        this.seat !== null && !this.review ? button(t("table.review"), () => this.startReview(), { id: "review" }) : null));
  }

  async startRematch() {
    try {
      const made = await api.rematch(this.code, seats.get(this.code)?.token);
      this.followRematch(made.code);
    } catch (error) {
      this.error = error.message;
      this.render();
    }
  }

  async startReplay() {
    const first = await api.replay(this.code, seats.get(this.code)?.token, 0);
    this.replay = { frames: new Array(first.steps), at: 0, page: first.frames.length, hints: {} };
    this.keepPage(first);
    this.render();
  }

  keepPage(page) {
    page.frames.forEach((frame, i) => { this.replay.frames[page.start + i] = frame; });
  }

  async startReview() {
    try {
      const review = await api.review(this.code, seats.get(this.code)?.token);
      if (!this.replay) await this.startReplay();
      this.review = review;
      this.replayTo(review.decisions.length ? review.decisions[0].step : 0);
    } catch (error) {
      this.error = error.message;
      this.render();
    }
  }

  async replayTo(at) {
    const replay = this.replay;
    const step = Math.max(0, Math.min(replay.frames.length - 1, at));
    // Fetch the page around the step (steps back and forth stay on it); when the page's byte limit
    // ended it before the step, the page that starts at the step (it holds that frame at least).
    for (const start of [Math.max(0, step - Math.floor(replay.page / 2)), step]) {
      if (replay.frames[step] !== undefined) break;
      try {
        const page = await api.replay(this.code, seats.get(this.code)?.token, start);
        if (this.replay !== replay) return;
        this.keepPage(page);
      } catch (error) {
        this.error = error.message;
        this.render();
        return;
      }
    }
    replay.at = step;
    this.render();
  }

  replayBar() {
    const last = this.replay.frames.length - 1;
    const go = (at) => this.replayTo(at);
    return h("div", { class: "replay-bar", id: "replay-bar" },
      button(icon("skip-back"), () => go(0), { title: t("table.replay.start"), "aria-label": t("table.replay.start") }),
      button(icon("chevron-left"), () => go(this.replay.at - 1), { title: t("table.replay.back"), "aria-label": t("table.replay.back"), id: "replay-back" }),
      h("input", { type: "range", min: 0, max: last, value: this.replay.at, "aria-label": t("a11y.replay.step"), id: "replay-slider",
        oninput: (e) => go(Number(e.target.value)) }),
      button(icon("chevron-right"), () => go(this.replay.at + 1), { title: t("table.replay.forward"), "aria-label": t("table.replay.forward"), id: "replay-next" }),
      button(icon("skip-forward"), () => go(last), { title: t("table.replay.end"), "aria-label": t("table.replay.end") }),
      h("span", { class: "muted", id: "replay-step" }, t("table.replay.step", { step: this.replay.at, last })));
  }

  fallback(view) {
    const actions = view.legal_actions ?? [];
    const uncovered = actions.filter((a) => !this.module.covers.has(a.type));
    const panel = (covers) => actionsPanel(actions, (a) => this.send(a), covers);
    return h("div", { class: "fallback" },
      uncovered.length ? panel(this.module.covers) : null,
      actions.length && uncovered.length < actions.length
        ? h("details", { class: "all-actions" }, h("summary", {}, t("table.all_actions")), panel(new Set()))
        : null);
  }

  seatList() {
    return h("section", { class: "card seats-card" }, h("h2", {}, icon("users"), " ", t("table.players")),
      h("ul", { class: "seat-list" }, this.table.seats.map((s, i) => h("li", { class: i === this.seat ? "me" : "" },
        icon(s.kind === "ai" || s.bot ? "bot" : "user"), ` ${displayName(s.name, i)}`,
        s.kind === "ai" ? h("span", { class: "muted" }, " ", t("table.seat.ai", { agent: agentTitle(s.agent) })) : null,
        s.kind === "human" && s.bot ? h("span", { class: "muted" }, " ", t("table.seat.away_ai", { agent: agentTitle(s.bot) })) : null,
        s.kind === "human" && s.claimed && !s.bot ? h("span", { class: s.connected ? "online" : "muted" },
          " ", s.connected ? t("table.seat.online") : t("table.seat.away")) : null,
        s.kind === "human" && !s.claimed && this.seat === null && this.canSit()
          ? button(t("table.sit"), () => this.sit(i), { class: "sit", dataset: { seat: i } }) : null))),
      this.seat === null && this.canSit() && this.table.seats.some((s) => s.kind === "human" && !s.claimed)
        ? nameInput({ id: "sit-name", placeholder: t("table.your_name"), "aria-label": t("table.your_name"), value: seats.name() }) : null);
  }

  notesPanel(view, ctx) {
    const sheet = this.module.notes(view, ctx);
    if (!sheet) return null;
    const check = (id, on, label, title, set) => h("label", { class: "check", title }, h("input", { type: "checkbox", id, checked: on,
      onchange: (e) => { set(e.target.checked); if (this.wantsHint()) this.askHint(); this.render(); } }), " ", label);
    const toggles = this.table.hints && this.seat !== null ? h("div", { class: "row sheet-toggles" },
      check("auto-notes", this.autoNotes, t("table.auto_notes"), t("table.auto_notes.title"), (on) => {
        this.autoNotes = on;
        localStorage.setItem(AUTO_NOTES, on ? "on" : "off");
      }),
      check("hints", this.showHints, t("table.show_probabilities"), null, (on) => { this.showHints = on; })) : null;
    return h("section", { class: "card notes" }, h("h2", {}, icon("notebook-pen"), " ", t("table.cracking_sheet")), toggles, sheet);
  }

  historyPanel(view, ctx, notesOn) {
    const events = view.history ?? [];
    const lines = events.map((e) => this.module.describe(e, ctx)).filter(Boolean);
    const shown = notesOn ? lines : lines.slice(-1);
    const title = notesOn ? t("table.history") : t("table.last_move");
    return h("section", { class: "card history" }, h("h2", {}, icon("history"), " ", title),
      h("ol", { id: "history", reversed: true, tabindex: 0, "aria-label": title }, shown.map((line) => h("li", {}, line)).reverse()));
  }
}

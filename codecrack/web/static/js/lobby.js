// The lobby: create a table (form generated from each game's options), join by code, list tables.
import { api, seats } from "./api.js";
import { agentTitle, button, choiceTitle, displayName, h, icon, keepFocus, nameInput } from "./dom.js";
import { gameTitle } from "./games/index.js";
import { known, t } from "./i18n.js";
import { learnCard } from "./learn/lobby.js";
import { learnable } from "./learn/rules.js";
import { ratedTag } from "./players.js";

// The games as a first visit should meet them: the easiest first, then any other.
function ordered(games) {
  const first = learnable(games);
  const rank = (g) => (first.includes(g.name) ? first.indexOf(g.name) : first.length);
  return [...games].sort((a, b) => rank(a) - rank(b));
}

export async function showLobby(root) {
  const games = ordered(await api.games());
  const createBox = h("section", { class: "card", id: "create" });
  const listBox = h("section", { class: "card", id: "tables" });
  root.replaceChildren(h("div", { class: "lobby" }, createBox, h("div", { class: "stack" }, joinCard(), learnCard(games), listBox)));
  renderCreate(createBox, games);
  renderList(listBox);
  setInterval(() => renderList(listBox), 5000);
}

function joinCard() {
  const input = h("input", { id: "join-code", placeholder: t("lobby.join.placeholder"), maxlength: 8, autocomplete: "off" });
  const go = () => { if (input.value.trim()) location.href = `/t/${input.value.trim().toUpperCase()}`; };
  input.addEventListener("keydown", (e) => { if (e.key === "Enter") go(); });
  return h("section", { class: "card", id: "join" }, h("h2", {}, icon("log-in"), " ", t("lobby.join.title")),
    h("div", { class: "row" }, input, button(t("lobby.join.go"), go, { id: "join-go" })));
}

async function renderList(box) {
  const tables = await api.tables();
  const rows = tables.map((table) => {
    const open = table.seats.filter((s) => s.kind === "human" && !s.claimed).length;
    const seatsFor = table.open_to === "link" ? "lobby.tables.friends_seats" : "lobby.tables.open_seats";
    const status = table.over ? t("lobby.tables.finished") : open ? t(seatsFor, { count: open }) : t("lobby.tables.playing");
    return h("li", {}, h("a", { href: `/t/${table.code}` }, h("b", {}, table.code), " ", gameTitle(table.game)),
      h("span", { class: "muted" }, ` ${table.seats.map((s, i) => displayName(s.name, i)).join(", ")} · ${status}`), " ", ratedTag(table));
  });
  keepFocus(box, () => box.replaceChildren(h("h2", {}, icon("users"), " ", t("lobby.tables.title")),
    rows.length ? h("ul", { class: "tables" }, rows) : h("p", { class: "muted" }, t("lobby.tables.none"))));
}

function renderCreate(box, games) {
  const state = { game: games[0]?.name, players: games[0]?.min_players, seats: [], values: {}, name: seats.name(), takeover: null, openTo: "link" };
  const form = h("form", { id: "create-form" });
  box.replaceChildren(h("h2", {}, icon("plus"), " ", t("lobby.new.title")), form);
  const current = () => games.find((g) => g.name === state.game);
  const choosePreset = (name) => { state.values = presetValues(current(), name); draw(); };

  const draw = () => {
    const game = current();
    state.players = Math.min(Math.max(state.players, game.min_players), game.max_players);
    state.seats = Array.from({ length: state.players }, (_, i) => state.seats[i] ?? (i === 0 ? "me" : `ai:${defaultTier(game)}`));
    keepFocus(form, () => form.replaceChildren(...[ // a field left out is null: not a child
      field(t("lobby.field.game"), select("game", games.map((g) => [g.name, gameTitle(g.name)]), state.game,
        (v) => { state.game = v; state.takeover = null; choosePreset(defaultPreset(current())); })),
      h("p", { class: "muted game-help", id: "game-help" }, t(`app.game_help.${game.name}`)),
      presetField(game, state.values, choosePreset),
      field(t("lobby.field.players"), select("players", range(game.min_players, game.max_players).map((n) => [n, n]), state.players,
        (v) => { state.players = Number(v); draw(); })),
      h("fieldset", { class: "seats" }, h("legend", {}, t("lobby.field.seats")),
        state.seats.map((choice, i) => field(seatLabel(i), select(`seat-${i}`, seatChoices(game, i), choice,
          (v) => { state.seats[i] = v; }))),
        tierHelp(game)),
      h("fieldset", { class: "options" }, h("legend", {}, t("lobby.field.options")),
        game.options.map((o) => optionField(o, state.players, state.values, draw))),
      field(t("lobby.field.takeover"), select("takeover", [["", t("lobby.takeover.wait")],
        ...game.tiers.map((a) => [a, t("lobby.takeover.ai", { agent: agentTitle(a) })])], state.takeover ?? defaultTier(game), (v) => { state.takeover = v; })),
      mayBeTurnBased(state) ? paceField(state, draw) : null,
      mayBeTurnBased(state) && state.pace ? lapseField(state) : null,
      field(t("lobby.field.open_to"), select("open_to", [["link", t("lobby.open_to.link")], ["anyone", t("lobby.open_to.anyone")]],
        state.openTo, (v) => { state.openTo = v; })),
      field(t("lobby.field.name"), nameInput({ name: "name", value: state.name, placeholder: t("lobby.name.placeholder"),
        oninput: (e) => { state.name = e.target.value; } })),
      h("p", { class: "error", id: "create-error" }),
      h("button", { type: "submit", class: "primary", id: "create-go" }, icon("play"), " ", t("lobby.create")),
    ].filter(Boolean)));
  };
  let pending = null; // the submit in flight: a second click waits for it instead of making a second table
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    if (pending) return;
    pending = crypto.randomUUID?.() ?? `${Date.now()}-${Math.random()}`;
    const game = current();
    const data = new FormData(form);
    const seatPlan = state.seats.map((choice) => choice.startsWith("ai:")
      ? { kind: "ai", agent: choice.slice(3) } : { kind: "human" });
    const sit = state.seats.indexOf("me");
    const name = String(data.get("name") || "");
    seats.setName(name);
    try {
      const made = await api.create({
        game: game.name, players: state.players, seats: seatPlan, options: changedOptions(game, state.values),
        takeover: data.get("takeover") || null, sit: sit >= 0 ? sit : null, name, client_key: pending,
        open_to: state.openTo,
        ...(state.pace && mayBeTurnBased(state)
          ? { turn_hours: Number(state.pace), on_lapse: state.onLapse ?? "ai" } : {}),
      });
      if (made.token) seats.set(made.code, made.seat, made.token);
      location.href = `/t/${made.code}`;
    } catch (error) {
      form.querySelector("#create-error").textContent = error.message;
      pending = null;
    }
  });
  state.values = presetValues(current(), defaultPreset(current()));
  draw();
}

// -- presets: named option sets from the game's catalogue; the lobby shows which one the options match
function defaultPreset(game) {
  return (game.presets.find((p) => p.default) ?? game.presets[0])?.name ?? "";
}

function presetValues(game, name) {
  const preset = game.presets.find((p) => p.name === name);
  return Object.fromEntries(game.options.map((o) => [o.name, preset && o.name in preset.options ? preset.options[o.name] : o.default]));
}

function matchingPreset(game, values) {
  const same = (p) => game.options.every((o) => presetValues(game, p.name)[o.name] === values[o.name]);
  return game.presets.find(same)?.name ?? "";
}

function presetField(game, values, choose) {
  if (!game.presets.length) return null;
  const chosen = matchingPreset(game, values);
  const choices = game.presets.map((p) => [p.name, p.default ? t("lobby.preset.default", { title: p.title }) : p.title]);
  const help = game.presets.find((p) => p.name === chosen)?.help ?? t("lobby.preset.custom_help");
  return described("preset", t("lobby.field.preset"), help,
    select("preset", chosen ? choices : [["", t("lobby.preset.custom")], ...choices], chosen, (v) => { if (v) choose(v); }));
}

// Live play, or turn-based: hours per move (the server takes 1 to 72); a lapse lets the takeover AI
// play, or the seat loses (asked only once a turn-based pace is chosen). 2 to 4 players may play turn-based.
const PACES = [1, 12, 24, 72];

function mayBeTurnBased(state) {
  return state.players >= 2 && state.players <= 4;
}

function paceField(state, draw) {
  const choices = [["", t("lobby.pace.live")], ...PACES.map((hours) => [hours, t("lobby.pace.hours", { hours })])];
  return described("pace", t("lobby.field.pace"), t("lobby.pace.help"),
    select("pace", choices, state.pace ?? "", (v) => { state.pace = v; draw(); }));
}

function lapseField(state) {
  return field(t("lobby.field.on_lapse"), select("on_lapse", [["ai", t("lobby.on_lapse.ai")], ["lose", t("lobby.on_lapse.lose")]],
    state.onLapse ?? "ai", (v) => { state.onLapse = v; }));
}

function seatLabel(i) {
  return t("app.seat", { number: i + 1 });
}

function defaultTier(game) {
  return ["easy", "medium", "random"].find((tier) => game.tiers.includes(tier)) ?? game.tiers[0];
}

function seatChoices(game, i) {
  const me = ["me", t("lobby.seat.me")];
  return [...(i === 0 ? [me] : []), ["open", t("lobby.seat.open")],
    ...game.tiers.map((a) => [`ai:${a}`, t("lobby.seat.ai", { agent: agentTitle(a) })]), ...(i > 0 ? [me] : [])];
}

// The AI tiers in words, weakest first.
function tierHelp(game) {
  return h("details", { class: "tier-help", id: "tier-help" }, h("summary", {}, t("lobby.tiers.title")),
    h("ul", {}, game.tiers.map((tier) => h("li", { dataset: { tier } }, h("b", {}, agentTitle(tier)),
      known(`app.agent_help.${tier}`) ? `: ${t(`app.agent_help.${tier}`)}` : ""))));
}


// One option's control: a checkbox, a choice, a seat (shown 1-based, sent 0-based) or a number.
function optionField(option, players, values, redraw) {
  const name = `opt-${option.name}`;
  const value = values[option.name];
  const set = (v) => { values[option.name] = v; redraw(); };
  if (option.kind === "bool") {
    const id = `help-${name}`;
    return h("label", { class: "check", title: option.help },
      h("input", { type: "checkbox", name, checked: value === true, "aria-describedby": id, onchange: (e) => set(e.target.checked) }),
      ` ${option.title}`, h("span", { class: "sr-only", id }, option.help));
  }
  if (option.kind === "choice") {
    return described(name, option.title, option.help, select(name, option.choices.map((c) => [String(c), choiceTitle(c)]), String(value),
      (v) => set(option.choices.find((c) => String(c) === v))));
  }
  if (option.kind === "seat") {
    const seatsShown = range(0, players - 1).map((s) => [String(s), seatLabel(s)]);
    return described(name, option.title, option.help, select(name, [["", option.unset || t("lobby.option.none")], ...seatsShown], value ?? "",
      (v) => set(v === "" ? null : Number(v))));
  }
  const type = option.kind === "text" ? "text" : "number";
  return described(name, option.title, option.help, h("input", { type, name, value: value ?? "", min: option.min, max: option.max,
    step: option.kind === "number" ? "any" : 1,
    onchange: (e) => set(e.target.value === "" ? null : type === "number" ? Number(e.target.value) : e.target.value) }));
}

// The options that differ from the game's defaults (the server fills in the rest).
function changedOptions(game, values) {
  return Object.fromEntries(game.options.filter((o) => values[o.name] !== o.default && values[o.name] !== undefined)
    .map((o) => [o.name, values[o.name]]));
}

// A labelled control with its one-line description as a tooltip and as its accessible description.
function described(name, label, help, control) {
  const id = `help-${name}`;
  control.setAttribute("aria-describedby", id);
  control.title = help;
  return h("label", { class: "field", title: help }, h("span", {}, label), control, h("span", { class: "sr-only", id }, help));
}

function field(label, control) {
  return h("label", { class: "field" }, h("span", {}, label), control);
}

function select(name, choices, selected, onchange) {
  return h("select", { name, onchange: onchange ? (e) => onchange(e.target.value) : null },
    choices.map(([value, text]) => h("option", { value, selected: String(value) === String(selected) }, text)));
}

function range(low, high) {
  return Array.from({ length: high - low + 1 }, (_, i) => low + i);
}

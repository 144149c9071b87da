// The lobby: create a table (form generated from each game's options), join by code, list tables.
import { api, seats } from "./api.js";
import { button, h, icon } from "./dom.js";
import { gameTitle } from "./games/index.js";

export async function showLobby(root) {
  const games = await api.games();
  const createBox = h("section", { class: "card", id: "create" });
  const listBox = h("section", { class: "card", id: "tables" });
  root.replaceChildren(h("div", { class: "lobby" }, createBox, h("div", { class: "stack" }, joinCard(), listBox)));
  renderCreate(createBox, games);
  renderList(listBox);
  setInterval(() => renderList(listBox), 5000);
}

function joinCard() {
  const input = h("input", { id: "join-code", placeholder: "Table code", maxlength: 8, autocomplete: "off" });
  const go = () => { if (input.value.trim()) location.href = `/t/${input.value.trim().toUpperCase()}`; };
  input.addEventListener("keydown", (e) => { if (e.key === "Enter") go(); });
  return h("section", { class: "card" }, h("h2", {}, icon("log-in"), " Join a table"),
    h("div", { class: "row" }, input, button("Join", go, { id: "join-go" })));
}

async function renderList(box) {
  const tables = await api.tables();
  const rows = tables.map((t) => {
    const open = t.seats.filter((s) => s.kind === "human" && !s.claimed).length;
    const status = t.over ? "finished" : open ? `${open} open seat${open > 1 ? "s" : ""}` : "playing";
    return h("li", {}, h("a", { href: `/t/${t.code}` }, h("b", {}, t.code), " ", gameTitle(t.game)),
      h("span", { class: "muted" }, ` ${t.seats.map((s) => s.name).join(", ")} · ${status}`));
  });
  box.replaceChildren(h("h2", {}, icon("users"), " Tables"),
    rows.length ? h("ul", { class: "tables" }, rows) : h("p", { class: "muted" }, "No tables yet."));
}

function renderCreate(box, games) {
  const state = { game: games[0]?.name, players: games[0]?.min_players, seats: [] };
  const form = h("form", { id: "create-form" });
  box.replaceChildren(h("h2", {}, icon("plus"), " New table"), form);

  const draw = () => {
    const game = games.find((g) => g.name === state.game);
    state.players = Math.min(Math.max(state.players, game.min_players), game.max_players);
    state.seats = Array.from({ length: state.players }, (_, i) => state.seats[i] ?? (i === 0 ? "me" : `ai:${defaultTier(game)}`));
    form.replaceChildren(
      field("Game", select("game", games.map((g) => [g.name, gameTitle(g.name)]), state.game, (v) => { state.game = v; draw(); })),
      field("Players", select("players", range(game.min_players, game.max_players).map((n) => [n, n]), state.players,
        (v) => { state.players = Number(v); draw(); })),
      h("fieldset", { class: "seats" }, h("legend", {}, "Seats"),
        state.seats.map((choice, i) => field(`Seat ${i + 1}`, select(`seat-${i}`, seatChoices(game, i), choice,
          (v) => { state.seats[i] = v; })))),
      h("fieldset", { class: "options" }, h("legend", {}, "Options"), game.options.map((o) => optionField(o, state.players))),
      field("If a player leaves", select("takeover", [["", "keep the seat waiting"],
        ...game.agents.map((a) => [a, `AI (${a}) takes over`])], defaultTier(game))),
      field("Your name", h("input", { name: "name", value: seats.name(), maxlength: 40, placeholder: "Player" })),
      h("p", { class: "error", id: "create-error" }),
      h("button", { type: "submit", class: "primary", id: "create-go" }, icon("play"), " Create table"),
    );
  };
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    const game = games.find((g) => g.name === state.game);
    const data = new FormData(form);
    const seatPlan = state.seats.map((choice) => choice.startsWith("ai:")
      ? { kind: "ai", agent: choice.slice(3) } : { kind: "human" });
    const sit = state.seats.indexOf("me");
    const name = String(data.get("name") || "");
    seats.setName(name);
    try {
      const made = await api.create({
        game: game.name, players: state.players, seats: seatPlan, options: readOptions(game, form),
        takeover: data.get("takeover") || null, sit: sit >= 0 ? sit : null, name,
      });
      if (made.token) seats.set(made.code, made.seat, made.token);
      location.href = `/t/${made.code}`;
    } catch (error) {
      form.querySelector("#create-error").textContent = error.message;
    }
  });
  draw();
}

function defaultTier(game) {
  return ["easy", "medium", "random"].find((t) => game.agents.includes(t)) ?? game.agents[0];
}

function seatChoices(game, i) {
  return [...(i === 0 ? [["me", "Me"]] : []), ["open", "Open seat (a friend)"],
    ...game.agents.map((a) => [`ai:${a}`, `AI: ${a}`]), ...(i > 0 ? [["me", "Me"]] : [])];
}

function optionField(option, players) {
  const name = `opt-${option.name}`;
  const label = option.name.replaceAll("_", " ");
  if (option.kind === "bool") {
    return h("label", { class: "check", title: option.help },
      h("input", { type: "checkbox", name, checked: option.default === true }), ` ${label}`);
  }
  if (option.kind === "choice") {
    return field(label, select(name, option.choices.map((c) => [c, String(c)]), option.default));
  }
  if (option.kind === "seat") {
    return field("first player", select(name, [["", "drawn at random"], ...range(0, players - 1).map((s) => [s, `Seat ${s + 1}`])], ""));
  }
  const type = option.kind === "text" ? "text" : "number";
  return field(label, h("input", { type, name, value: option.default ?? "", min: option.min, max: option.max,
    step: option.kind === "number" ? "any" : 1 }));
}

function readOptions(game, form) {
  const options = {};
  for (const option of game.options) {
    const input = form.elements[`opt-${option.name}`];
    if (!input) continue;
    let value = option.kind === "bool" ? input.checked : input.value;
    if (value === "" || value === null) continue;
    if (option.kind === "choice") value = option.choices.find((c) => String(c) === value);
    if (["int", "number", "seat"].includes(option.kind)) value = Number(value);
    if (value !== option.default) options[option.name] = value;
  }
  return options;
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

// The home page: a card per game (its picture drawn by its own board, a one-line pitch, players
// and length) with Play the AI, Play with friends, Quick match and, for a newcomer, Learn first; the player's
// own tables; and the lobby's full form under "Custom table".
import { api, seats } from "./api.js";
import { agentTitle, button, displayName, h, icon } from "./dom.js";
import { gameModule, gameTitle } from "./games/index.js";
import { known, t } from "./i18n.js";
import { hasPlayed } from "./invite.js";
import { drawExample, rulesHref, startTutorial } from "./learn/rules.js";
import { showLobby } from "./lobby.js";
import { knownSeats, player } from "./players.js";
import { quickMatch } from "./quickmatch.js";

const MY_TABLES = 12; // the latest tables this browser sits at, shown on the home page
const LAST = (game) => `codecrack:last:${game}`;

// The player's last choices for a game (AI tier, number of players, preset), else sensible defaults.
function lastChoices(game) {
  let saved = {};
  try { saved = JSON.parse(localStorage.getItem(LAST(game.name))) ?? {}; } catch { /* none kept */ }
  const tier = game.agents.includes(saved.tier) ? saved.tier : defaultTier(game);
  const players = Math.min(Math.max(Number(saved.players) || game.min_players, game.min_players), game.max_players);
  const preset = game.presets.some((p) => p.name === saved.preset)
    ? saved.preset : (game.presets.find((p) => p.default) ?? game.presets[0])?.name ?? "";
  return { tier, players, preset };
}

function defaultTier(game) {
  return ["easy", "medium", "random"].find((tier) => game.agents.includes(tier)) ?? game.agents[0];
}

export async function showHome(root) {
  const games = await api.games();
  const custom = h("div", { id: "custom-table" });
  const mine = h("section", { class: "card", id: "my-tables" });
  root.replaceChildren(h("div", { class: "home" },
    h("section", { class: "game-cards", id: "game-cards", "aria-label": t("home.games") },
      await Promise.all(games.map((game) => gameCard(game)))),
    mine,
    h("section", { class: "custom", "aria-labelledby": "custom-title" },
      h("h2", { id: "custom-title" }, icon("plus"), " ", t("home.custom")), custom)));
  await Promise.all([showMine(mine), showLobby(custom)]);
}

async function gameCard(game) {
  const choices = lastChoices(game);
  const error = h("p", { class: "error", role: "alert" });
  const remember = () => localStorage.setItem(LAST(game.name), JSON.stringify(choices));
  const start = async (seatPlan) => {
    remember();
    try {
      const name = seats.name();
      const options = game.presets.find((p) => p.name === choices.preset)?.options ?? {};
      const made = await api.create({ game: game.name, players: choices.players, options, seats: seatPlan, takeover: choices.tier, sit: 0, name, open_to: "link" });
      seats.set(made.code, made.seat, made.token);
      location.href = `/t/${made.code}`;
    } catch (failure) {
      error.textContent = failure.message;
    }
  };
  const others = (tier) => Array.from({ length: choices.players - 1 }, () => ({ kind: "ai", agent: tier }));
  const friends = () => Array.from({ length: choices.players - 1 }, () => ({ kind: "human" }));
  const module = await gameModule(game.name);
  const example = module.teaching.examples[0];
  const newcomer = !hasPlayed(game.name) && Boolean(example);
  const againstAi = (tier = choices.tier) => start([{ kind: "human" }, ...others(tier)]);
  const match = quickMatch(game, choices, againstAi, error);
  const playAi = button([icon("bot"), " ", t("home.play_ai")], () => againstAi(),
    { class: newcomer ? "play-ai" : "play-ai primary", dataset: { game: game.name } });
  return h("article", { class: "card game-card", dataset: { game: game.name, newcomer: String(newcomer) } },
    example ? h("div", { class: `picture game-${game.name}`, inert: true }, h("div", { class: "drawn" }, drawExample(module, { ...game.facts, ...example[1] }))) : null,
    h("h2", {}, gameTitle(game.name)),
    known(`home.pitch.${game.name}`) ? h("p", { class: "pitch" }, t(`home.pitch.${game.name}`)) : null,
    h("p", { class: "muted" }, [t("home.players", { low: game.min_players, high: game.max_players }),
      known(`home.length.${game.name}`) ? t(`home.length.${game.name}`) : null].filter(Boolean).join(" · ")),
    newcomer ? h("div", { class: "learn-first" },
      h("p", {}, t("home.new_here")),
      button([icon("notebook-pen"), " ", t("home.learn")], () => startTutorial(game.name, error), { class: "primary learn", dataset: { game: game.name } }),
      " ", h("a", { href: rulesHref(game.name) }, t("learn.howto"))) : null,
    h("div", { class: "row card-actions" },
      playAi,
      button([icon("users"), " ", t("home.play_friends")], () => start([{ kind: "human" }, ...friends()]), { class: "play-friends", dataset: { game: game.name } }),
      match.open),
    match.panel,
    h("div", { class: "row card-choices" },
      choice(t("home.tier"), `tier-${game.name}`, game.agents.map((a) => [a, agentTitle(a)]), choices.tier, (v) => { choices.tier = v; remember(); }),
      choice(t("home.player_count"), `players-${game.name}`, range(game.min_players, game.max_players).map((n) => [n, String(n)]), choices.players,
        (v) => { choices.players = Number(v); remember(); }),
      game.presets.length ? choice(t("lobby.field.preset"), `preset-${game.name}`, game.presets.map((p) => [p.name, p.title]), choices.preset,
        (v) => { choices.preset = v; remember(); }) : null),
    error);
}

function choice(label, name, options, selected, onchange) {
  return h("label", { class: "field small" }, h("span", {}, label),
    h("select", { name, onchange: (e) => onchange(e.target.value) },
      options.map(([value, text]) => h("option", { value, selected: String(value) === String(selected) }, text))));
}

function range(low, high) {
  return Array.from({ length: high - low + 1 }, (_, i) => low + i);
}

// The player's tables (this browser's and the account's): their move first ("My games", with a
// turn-based table's deadline), then playing, waiting for friends, finished.
async function showMine(box) {
  const mine = player ? await api.myGames().catch(() => []) : []; // turn-based tables waiting for the player's move
  const moves = new Map(mine.filter((g) => g.your_move && g.deadline).map((g) => [g.code, g]));
  const held = await knownSeats();
  const kept = [...[...moves.values()].filter((g) => !held.some((entry) => entry.code === g.code)), ...held].slice(0, MY_TABLES);
  const found = await Promise.all(kept.map((entry) => api.table(entry.code).then((table) => ({ ...entry, table })).catch(() => null)));
  const tables = found.filter(Boolean);
  if (!tables.length) {
    box.remove();
    return;
  }
  const group = ({ code, table }) => (table.over ? "finished" : moves.has(code) ? "your_move"
    : table.seats.some((s) => s.kind === "human" && !s.claimed) ? "waiting" : "playing");
  const groups = ["your_move", "playing", "waiting", "finished"].map((name) => [name, tables.filter((entry) => group(entry) === name)]);
  box.replaceChildren(h("h2", {}, icon("history"), " ", t("home.mine")),
    ...groups.filter(([, entries]) => entries.length).map(([name, entries]) => h("div", { class: "mine-group", dataset: { group: name } },
      h("h3", {}, t(`home.mine.${name}`)),
      h("ul", { class: "tables" }, entries.map(({ code, seat, table }) => h("li", {},
        h("a", { href: `/t/${code}` }, h("b", {}, code), " ", gameTitle(table.game)),
        h("span", { class: "muted" }, ` ${table.seats.map((s, i) => (i === seat ? t("home.you") : displayName(s.name, i))).join(", ")}`),
        moves.get(code)?.deadline ? h("span", { class: "deadline" }, " · ", t("home.mine.deadline",
          { time: new Date(moves.get(code).deadline).toLocaleString(document.documentElement.lang || undefined) })) : null))))));
}

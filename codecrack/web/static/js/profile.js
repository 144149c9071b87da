// An account's pages: "/u/HANDLE" (ratings with their course, results against the AI tiers, the
// latest games), "/u/HANDLE/games" (every finished game, filtered, a page at a time) and
// "/leaderboard/GAME[?players=N]" (the top 100 and the viewer's rank; a game rated per player count
// has a board per count).
import { api, call } from "./api.js";
import { agentTitle, button, h, icon } from "./dom.js";
import { gameTitle } from "./games/index.js";
import { t } from "./i18n.js";
import { ratingText } from "./players.js";

const profileHref = (handle) => `/u/${encodeURIComponent(handle)}`;
const boardHref = (game, players) => `/leaderboard/${game}${players ? `?players=${players}` : ""}`;
// A rating's name: its game, and its player count for a game rated per count.
const ratedName = (game, players) => players ? t("leaderboard.count", { game: gameTitle(game), count: players }) : gameTitle(game);

// A small line chart of a rating's course (SVG, drawn from numbers only).
function courseChart(course) {
  if (course.length < 2) return null;
  const NS = "http://www.w3.org/2000/svg";
  const width = 240, height = 60;
  const low = Math.min(...course), high = Math.max(...course), span = Math.max(high - low, 1);
  const points = course.map((r, i) => `${(i * width / (course.length - 1)).toFixed(1)},${(height - 4 - (r - low) * (height - 8) / span).toFixed(1)}`);
  const svg = document.createElementNS(NS, "svg");
  svg.setAttribute("viewBox", `0 0 ${width} ${height}`);
  svg.setAttribute("class", "course");
  svg.setAttribute("role", "img");
  svg.setAttribute("aria-label", t("profile.course", { from: course[0], to: course[course.length - 1] }));
  const line = document.createElementNS(NS, "polyline");
  line.setAttribute("points", points.join(" "));
  svg.append(line);
  return svg;
}

function gameLine(game) {
  const opponents = game.opponents.map((o) => (o.agent ? agentTitle(o.agent) : o.name)).join(", ");
  const change = game.rated ? ` · ${game.before} → ${game.after}` : "";
  return h("li", { dataset: { code: game.code } },
    h("a", { href: `/t/${game.code}` }, h("b", {}, gameTitle(game.game))), " ",
    h("span", { class: game.won ? "gain" : "loss" }, t(game.won ? "profile.won" : "profile.lost")), " ",
    h("span", { class: "muted" }, `${t("profile.against", { opponents })} · ${new Date(game.finished_at).toLocaleDateString()}${change}`));
}

export async function showProfile(root, handle) {
  let profile;
  try {
    profile = await call("GET", `/api/players/${encodeURIComponent(handle)}`);
  } catch (problem) {
    root.replaceChildren(h("p", { class: "error", id: "profile-error" }, problem.message));
    return;
  }
  document.title = `${profile.handle} · codecrack`;
  root.replaceChildren(h("div", { class: "stack profile", id: "profile" },
    h("section", { class: "card" }, h("h1", {}, icon("user"), " ", profile.handle),
      h("p", { class: "muted" }, t("profile.played", { count: profile.played }))),
    h("section", { class: "card", id: "profile-ratings" }, h("h2", {}, icon("trophy"), " ", t("profile.ratings")),
      profile.ratings.length ? h("ul", { class: "ratings" }, profile.ratings.map((r) => h("li", { dataset: { game: r.game, players: r.players ?? "" } },
        h("b", {}, ratedName(r.game, r.players)), " ", h("span", { class: "rating" }, ratingText(r.rating, r.provisional)),
        h("span", { class: "muted" }, ` ±${r.uncertainty} · ${t("profile.record", { games: r.games, wins: r.wins })} · `),
        h("a", { href: boardHref(r.game, r.players) }, t("profile.leaderboard")), courseChart(r.course))))
        : h("p", { class: "muted" }, t("profile.unrated"))),
    profile.against_ai.length ? h("section", { class: "card", id: "profile-ai" }, h("h2", {}, icon("bot"), " ", t("profile.against_ai")),
      h("ul", {}, profile.against_ai.map((r) => h("li", {}, `${gameTitle(r.game)} · ${agentTitle(r.tier)}${r.rating ? ` (${r.rating})` : ""}: `,
        t("profile.record", { games: r.played, wins: r.won }))))) : null,
    h("section", { class: "card", id: "profile-recent" }, h("h2", {}, icon("history"), " ", t("profile.recent")),
      h("ul", { class: "tables" }, profile.recent.map(gameLine)),
      h("a", { href: `${profileHref(profile.handle)}/games`, id: "all-games" }, t("profile.all_games")))));
}

export async function showHistory(root, handle) {
  const params = new URLSearchParams(location.search);
  const page = Number(params.get("page")) || 1;
  const query = new URLSearchParams([...params].filter(([, v]) => v));
  let found;
  try {
    found = await call("GET", `/api/players/${encodeURIComponent(handle)}/games?${query}`);
  } catch (problem) {
    root.replaceChildren(h("p", { class: "error", id: "profile-error" }, problem.message));
    return;
  }
  const go = (changes) => {
    const next = new URLSearchParams(params);
    for (const [key, value] of Object.entries(changes)) if (value) next.set(key, value); else next.delete(key);
    location.search = next.toString();
  };
  const choice = (name, options) => h("label", { class: "field" }, h("span", {}, t(`history.${name}`)),
    h("select", { name, onchange: (event) => go({ [name]: event.target.value, page: "" }) },
      options.map(([value, label]) => h("option", { value, selected: (params.get(name) ?? "") === value }, label))));
  const games = (await api.games()).map((g) => [g.name, gameTitle(g.name)]);
  root.replaceChildren(h("div", { class: "stack history", id: "history-page" },
    h("section", { class: "card" },
      h("h1", {}, h("a", { href: profileHref(found.handle) }, found.handle), " · ", t("history.title")),
      h("form", { class: "row filters", id: "history-filters" },
        choice("game", [["", t("history.any")], ...games]),
        choice("result", [["", t("history.any")], ["won", t("profile.won")], ["lost", t("profile.lost")]]),
        choice("opponents", [["", t("history.any")], ["ai", t("history.ai")], ["people", t("history.people")], ["mixed", t("history.mixed")]])),
      found.games.length ? h("ul", { class: "tables", id: "history-games" }, found.games.map(gameLine))
        : h("p", { class: "muted" }, t("history.none")),
      h("div", { class: "row" },
        page > 1 ? button(t("history.newer"), () => go({ page: String(page - 1) }), { id: "newer" }) : null,
        found.more ? button(t("history.older"), () => go({ page: String(page + 1) }), { id: "older" }) : null))));
}

export async function showLeaderboard(root, game) {
  let board;
  try {
    board = await api.leaderboard(game, new URLSearchParams(location.search).get("players"));
  } catch (problem) {
    root.replaceChildren(h("p", { class: "error", id: "profile-error" }, problem.message));
    return;
  }
  const row = (entry) => h("tr", {}, h("td", {}, String(entry.rank)),
    h("td", {}, h("a", { href: profileHref(entry.handle) }, entry.handle)), h("td", {}, String(entry.rating)),
    h("td", {}, t("profile.record", { games: entry.games, wins: entry.wins })));
  root.replaceChildren(h("div", { class: "stack leaderboard", id: "leaderboard" },
    h("section", { class: "card" }, h("h1", {}, icon("trophy"), " ", t("leaderboard.title", { game: ratedName(game, board.players) })),
      board.counts.length ? h("nav", { class: "row", id: "board-counts", "aria-label": t("leaderboard.counts") },
        board.counts.map((n) => h("a", { href: boardHref(game, n), "aria-current": n === board.players ? "page" : null },
          t("leaderboard.players", { count: n })))) : null,
      h("p", { class: "muted" }, t("leaderboard.rule")),
      board.you ? h("p", { id: "your-rank" }, board.you.rank
        ? t("leaderboard.you", { rank: board.you.rank, rating: board.you.rating })
        : t("leaderboard.unlisted", { rating: ratingText(board.you.rating, board.you.provisional), games: board.you.games })) : null,
      board.top.length ? h("table", { id: "leaderboard-table" }, h("thead", {}, h("tr", {},
        [t("leaderboard.rank"), t("account.handle"), t("leaderboard.rating"), t("leaderboard.games")].map((title) => h("th", {}, title)))),
        h("tbody", {}, board.top.map(row))) : h("p", { class: "muted" }, t("leaderboard.empty")))));
}

// The router: "/" is the home page (the lobby's form under "Custom table"), "/t/CODE" a table, "/daily" the daily puzzle, "#/rules/GAME" a game's how-to page, "#/account" the account page, "/u/HANDLE[/games]" a profile and its games, "/leaderboard/GAME".
import { showAccount } from "./account.js";
import { h } from "./dom.js";
import { lang, languages, setLanguage, t, translatePage } from "./i18n.js";
import { showDaily } from "./daily.js";
import { showHome } from "./home.js";
import { showHistory, showLeaderboard, showProfile } from "./profile.js";
import { accountLink, identify } from "./players.js";
import { showRules } from "./learn/rules.js";
import { showTable } from "./table.js";

// The header's language switch (shown when there is more than one catalogue).
function languageSwitch() {
  if (languages.length < 2) return null;
  return h("select", { id: "language", class: "language", "aria-label": t("app.language"), onchange: (e) => setLanguage(e.target.value) },
    languages.map((l) => h("option", { value: l.code, lang: l.code, selected: l.code === lang }, l.name)));
}

translatePage();
document.querySelector(".topbar").append(languageSwitch() ?? "");

const root = document.getElementById("app");

function route() {
  const rules = location.hash.match(/^#\/rules\/([a-z]+)/);
  const table = location.pathname.match(/^\/t\/([A-Za-z0-9]+)/);
  const account = location.pathname.match(/^\/u\/([^/]+)(\/games)?$/);
  const board = location.pathname.match(/^\/leaderboard\/([a-z]+)$/);
  if (location.hash === "#/account") showAccount(root);
  else if (rules) showRules(root, rules[1]);
  else if (table) showTable(root, table[1].toUpperCase());
  else if (location.pathname === "/daily") showDaily(root);
  else if (account) (account[2] ? showHistory : showProfile)(root, decodeURIComponent(account[1]));
  else if (board) showLeaderboard(root, board[1]);
  else showHome(root);
}

window.addEventListener("hashchange", () => location.reload());
await identify();
document.querySelector(".topbar").append(accountLink());
route();
// The service worker (/sw.js): caches static assets only; it makes the site installable and receives pushes.
navigator.serviceWorker?.register("/sw.js").catch(() => {});

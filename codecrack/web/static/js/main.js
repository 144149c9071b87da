// The router: "/" is the lobby, "/t/CODE" a table, "#/rules/GAME" a game's how-to page.
import { showLobby } from "./lobby.js";
import { showRules } from "./learn/rules.js";
import { showTable } from "./table.js";

const root = document.getElementById("app");

function route() {
  const rules = location.hash.match(/^#\/rules\/([a-z]+)/);
  const table = location.pathname.match(/^\/t\/([A-Za-z0-9]+)/);
  if (rules) showRules(root, rules[1]);
  else if (table) showTable(root, table[1].toUpperCase());
  else showLobby(root);
}

window.addEventListener("hashchange", () => location.reload());
route();

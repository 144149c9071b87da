// The router: "/" is the lobby, "/t/CODE" a table.
import { showLobby } from "./lobby.js";
import { showTable } from "./table.js";

const root = document.getElementById("app");
const match = location.pathname.match(/^\/t\/([A-Za-z0-9]+)/);
if (match) showTable(root, match[1].toUpperCase());
else showLobby(root);

// The page router: "/" tables (create / join), "/t/CODE" a table, "/history" finished matches.
import { renderLobby } from "./lobby.js";
import { openTable } from "./table.js";
import { renderHistory } from "./history.js";

const main = document.getElementById("main");
const path = location.pathname;
const tableMatch = path.match(/^\/t\/([A-Za-z0-9]{4,12})\/?$/);

if (tableMatch) {
  openTable(main, tableMatch[1].toUpperCase());
} else if (path.startsWith("/history")) {
  renderHistory(main);
} else {
  renderLobby(main);
}

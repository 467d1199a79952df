// The page router: "/" tables (create / join), "/t/CODE" a table, "/history" finished matches.
import { renderLobby } from "./lobby.js";
import { openTable } from "./table.js";
import { renderHistory } from "./history.js";
import { toast } from "./ui.js";

const main = document.getElementById("main");
const path = location.pathname;
const tableMatch = path.match(/^\/t\/([A-Za-z0-9]{4,12})\/?$/);

if (tableMatch) {
  openTable(main, tableMatch[1].toUpperCase());
} else if (path.startsWith("/history")) {
  renderHistory(main);
} else {
  renderLobby(main);
  // "/t/…" that is no table code: say so over the front page instead of showing it silently.
  if (path.startsWith("/t/")) toast(`No table has the code "${decoded(path.slice(3))}": check the invite link.`);
}

/** A path part as typed; a broken %-escape (a link cut short) as it stands: decoding it threw,
 * which stopped the script before the toast said anything. */
function decoded(text) {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

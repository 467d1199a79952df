// Finished matches, newest first, each with its game record to download.
import { api } from "./api.js";
import { clear, el, toast } from "./ui.js";

export async function renderHistory(main) {
  clear(main);
  const section = el("section.panel.history", {}, el("h2", { text: "Finished matches" }));
  main.append(section);
  let rows = [];
  try {
    rows = await api("/api/history?limit=100");
  } catch (error) {
    toast(error.message);
  }
  if (!rows.length) {
    section.append(el("p.muted", { text: "No match has been finished here yet." }));
    return;
  }
  const table = el("table.scores.history-table", {},
    el("thead", {}, el("tr", {}, ["When", "Table", "Players and totals", "Record"].map((h) => el("th", { text: h })))),
    el("tbody", {}, rows.map((row) => el("tr", {},
      el("td", { text: new Date(row.finished_at * 1000).toLocaleString() }),
      el("td", {}, el("a", { href: `/t/${row.code}`, text: row.code }), el("div.muted", { text: `${row.rules}, ${row.deals} deal(s)${row.thrown_in ? ` (and ${row.thrown_in} thrown in)` : ""}` })),
      el("td", {}, el("ul.plain", {}, row.seats.map((seat, i) => el(`li${row.winners.includes(i) ? ".winner" : ""}`, {},
        `${seat.name} `, el("span.muted", { text: seat.player.startsWith("bot") ? "(bot)" : "" }), ` ${row.totals[i]}`,
        row.winners.includes(i) ? el("span.star", { text: " ★ won" }) : null)))),
      el("td", {}, el("a.button", { href: `/api/records/${row.code}.json`, download: `callbreak-${row.code}.json`, text: "JSON" })),
    ))),
  );
  section.append(el("div.scroll", {}, table));
}

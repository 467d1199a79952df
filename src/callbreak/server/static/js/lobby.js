// The front page: start a new table, join one by its code, get back to your tables.
import { api, myTables, saveName, saveSeat, savedName } from "./api.js";
import { clear, el, toast } from "./ui.js";

const QUICK_OPTIONS = [
  ["max_call", "Highest call", [["", "preset"], ["8", "8 (apps)"], ["13", "13"]]],
  ["must_overtake", "Must overtake", [["", "preset"], ["true", "on"], ["false", "off"]]],
  ["misdeal", "Misdeal", [["", "preset"], ["claim", "claim"], ["auto", "automatic"], ["off", "off"]]],
];
const FALLBACK_META = {
  presets: { callbreak: { title: "Call Break", game: "callbreak", seats: [4, 4], options: [{ name: "match_deals" }], levels: ["easy", "medium"] } },
  levels: ["easy", "medium"],
};

export async function renderLobby(main) {
  clear(main);
  let meta = FALLBACK_META;
  try {
    meta = await api("/api/meta");
  } catch (error) {
    toast(`Could not reach the server: ${error.message}`);
  }

  const name = el("input#create-name", {
    name: "name", required: true, maxlength: 32, autocomplete: "nickname",
    placeholder: "Your name", value: savedName(),
  });
  const preset = el("select#create-preset", { name: "preset" },
    Object.entries(meta.presets).map(([p, info]) => el("option", { value: p, text: `${info.title} (${p})` })));
  const deals = el("select#create-deals", { name: "deals" },
    [1, 3, 5, 7, 9].map((n) => el("option", { value: n, text: `${n} deal${n > 1 ? "s" : ""}`, selected: n === 5 })));
  const dealsField = el("label.field", {}, "Match", deals);
  const players = el("select#create-players", { name: "players" });
  const playersField = el("label.field", {}, "Players", players);
  const level = el("select#create-level", { name: "level" });
  const levelNote = el("p#level-note.muted.small", {});
  const quick = QUICK_OPTIONS.map(([key, label, values]) =>
    el("label.field", { "data-for": key }, label,
      el("select", { "data-option": key }, values.map(([v, t]) => el("option", { value: v, text: t })))));
  const extra = el("input#create-extra", { placeholder: "e.g. spades_broken=on, min_total_calls=10" });
  const optionList = el("p#create-option-list.muted.small", {});
  const practice = el("input#create-practice", { type: "checkbox" });
  const seed = el("input#create-seed", { inputmode: "numeric", pattern: "[0-9]{1,15}", maxlength: 15, placeholder: "random" });

  // Everything below the preset follows the preset's game: its seat counts, options and levels.
  const follow = () => {
    const info = meta.presets[preset.value];
    const own = new Set(info.options.map((o) => o.name));
    const [low, high] = info.seats;
    clear(players).append(...Array.from({ length: high - low + 1 }, (_, i) => low + i)
      .map((n) => el("option", { value: n, text: `${n} players`, selected: n === (info.rules?.players ?? low) })));
    playersField.hidden = low === high;
    // A match to a target (Call Partner's 500) has no count of deals to choose.
    const end = info.rules?.match_end;
    dealsField.hidden = !own.has("match_deals") || (end !== undefined && end !== "deals" && end !== "open");
    for (const field of quick) field.hidden = !own.has(field.dataset.for);
    const wanted = level.value || "medium";
    clear(level).append(...info.levels.map((l) => el("option", { value: l, text: l, selected: l === wanted })));
    if (!info.levels.includes(wanted)) level.value = info.levels.includes("medium") ? "medium" : info.levels[0];
    const missing = meta.levels.filter((l) => !info.levels.includes(l));
    levelNote.textContent = missing.length
      ? `${missing.join(" and ")} bots do not play ${info.title}: it is offered at ${info.levels.join(", ")}.`
      : "";
    optionList.textContent = `Options of ${info.title}: ${info.options.map((o) => o.name).join(", ")}`;
  };
  preset.addEventListener("change", follow);

  const form = el("form.panel.create", {
    onsubmit: async (event) => {
      event.preventDefault();
      const info = meta.presets[preset.value];
      const options = {};
      if (!dealsField.hidden) options.match_deals = Number(deals.value);
      if (!playersField.hidden && Number(players.value) !== info.rules?.players) options.players = Number(players.value);
      for (const select of form.querySelectorAll("select[data-option]")) {
        if (select.value && !select.closest("label").hidden) options[select.dataset.option] = select.value;
      }
      for (const item of extra.value.split(/[,\n]/)) {
        const [key, ...rest] = item.split("=");
        if (key.trim() && rest.length) options[key.trim()] = rest.join("=").trim();
      }
      const body = { name: name.value.trim(), preset: preset.value, level: level.value, options };
      // Only a practice table takes a seed: at a table others join nobody may know the deals.
      // A seed typed without "Practice" was dropped without a word, and the table dealt other
      // cards than the ones asked for: say so instead of creating it.
      if (seed.value.trim() && !practice.checked) {
        toast("A seed is only for a practice table: tick \"Practice alone\" or clear the seed.");
        seed.focus();
        return;
      }
      if (practice.checked) {
        body.practice = true;
        if (seed.value.trim()) body.seed = Number(seed.value.trim());
      }
      const button = form.querySelector("button");
      button.disabled = true;
      try {
        saveName(name.value.trim());
        const made = await api("/api/tables", { method: "POST", body });
        saveSeat(made.code, made.token);
        location.assign(made.url);
      } catch (error) {
        toast(error.message);
        button.disabled = false;
      }
    },
  },
    el("h2", { text: "New table" }),
    el("p.muted", { text: "You sit down as host and share the link; empty seats get bots when you start." }),
    el("label.field", {}, "Your name", name),
    el("div.row", {}, el("label.field", {}, "Game", preset), playersField, dealsField,
      el("label.field", {}, "Bots", level)),
    levelNote,
    el("details", {}, el("summary", { text: "More options" }), el("div.row", {}, quick),
      el("label.field", {}, "Other options (name=value)", extra), optionList,
      el("div.row", {}, el("label.check", {}, practice, " Practice alone: nobody else can join"),
        el("label.field", {}, "Seed (practice only)", seed))),
    el("button#create-btn.primary", { type: "submit", text: "Create table" }),
  );
  follow();

  const code = el("input#join-code", {
    placeholder: "ABC234", maxlength: 12, autocapitalize: "characters", autocomplete: "off",
    "aria-label": "Table code",
  });
  const join = el("form.panel.join", {
    onsubmit: (event) => {
      event.preventDefault();
      const value = code.value.trim().toUpperCase();
      if (!value) return;
      // A code is letters and digits (six of them); anything else is no table's, said here.
      if (!/^[A-Z0-9]{4,12}$/.test(value)) { toast(`"${value}" is not a table code: it is letters and digits, like ABC234.`); code.focus(); return; }
      location.assign(`/t/${encodeURIComponent(value)}`);
    },
  },
    el("h2", { text: "Join a table" }),
    el("p.muted", { text: "Open the invite link, or type the table's code." }),
    el("div.row", {}, code, el("button#join-btn", { type: "submit", text: "Go" })),
  );

  const mine = myTables();
  const recent = mine.length
    ? el("section.panel", {}, el("h2", { text: "Your tables" }),
        el("ul.plain", {}, mine.map((t) => el("li", {},
          el("a", { href: `/t/${t.code}`, text: t.code }), " ",
          el("span.muted", { text: new Date(t.at).toLocaleString() })))))
    : null;

  main.append(el("div.lobby", {}, form, el("div.stack", {}, join, recent)));
}

// A table: the lobby before the start, then the game. Everything shown comes from the server's
// "state" messages, which hold only what this seat (or a spectator) may see.
import { api, forgetSeat, saveName, saveSeat, savedName, seatToken } from "./api.js";
import { SUIT_NAME, SUIT_SYMBOL, banner, cardEl, cardLabel, clear, el, sortCards, toast } from "./ui.js";
import { contributionFor, localChecks, noteCommitment } from "./fair.js";

// The page knows no game by name: how to ask for each phase and what to show for each game
// comes from the server's tables (/api/meta "faces"); these are the fallbacks for Call Break.
const FALLBACK_FACES = {
  phases: {
    call: { verb: "call", prompt: "Your call:", control: "buttons", labels: {} },
    play: { verb: "play", prompt: "Your turn: play one of the raised cards.", control: "cards", labels: {} },
  },
  games: { callbreak: { stats: ["call", "won"], summary: ["call", "won", "points", "total"], scoring: "" } },
  suits: {},
};
// Fallback labels; the server's tables ("stat_labels", "column_labels") say the same for every face.
const STAT_TEXT = { call: "call", bid: "bid", won: "won", card_points: "pts", score: "score" };
const COLUMN_TEXT = { call: "call", bid: "bid", won: "won", card_points: "card pts", points: "points", total: "total" };

/** Where seat ``offset`` places after you sits round the table, in % of the felt (you at the bottom). */
export function seatSpot(offset, n) {
  const angle = Math.PI / 2 - (2 * Math.PI * offset) / n; // the next seat to your right, as before
  return { x: 50 + 41 * Math.cos(angle), y: 50 + 40 * Math.sin(angle) };
}

/** A corner radius as the browser computes it ("50%" or "12px") in pixels of ``size``. */
function radiusPx(text, size) {
  return text.endsWith("%") ? (parseFloat(text) / 100) * size : parseFloat(text);
}

/** Whether the point (x, y), in pixels from the felt's top left, lies inside its rounded
 * outline (``margin`` pixels in from the edge). */
function inOval(x, y, box, margin) {
  const { w, h, rx, ry } = box;
  if (x < margin || y < margin || x > w - margin || y > h - margin) return false;
  const cx = x < rx ? rx : x > w - rx ? w - rx : null;
  const cy = y < ry ? ry : y > h - ry ? h - ry : null;
  if (cx === null || cy === null) return true;
  return ((x - cx) / (rx - margin)) ** 2 + ((y - cy) / (ry - margin)) ** 2 <= 1;
}

function overlaps(a, b) {
  return a.left < b.right - 1 && b.left < a.right - 1 && a.top < b.bottom - 1 && b.top < a.bottom - 1;
}

/** Pull each seat panel in from its spot toward the middle until the whole panel lies inside
 * the felt's oval (at a wide, low felt the panels between the top and the sides stuck out
 * past the curve), and each seat's card in the trick in with it. On a phone the stylesheet
 * keeps the panels on the screen instead. The deal's facts go above the felt where a panel
 * would cover them. */
export function fitSeats(felt) {
  const wrap = felt.parentElement;
  if (wrap) wrap.classList.remove("facts-above");
  const width = felt.clientWidth, height = felt.clientHeight;
  if (!width || !height || window.matchMedia("(max-width: 520px)").matches) return;
  const [rxText, ryText = rxText] = getComputedStyle(felt).borderTopLeftRadius.split(" ");
  const box = { w: width, h: height, rx: radiusPx(rxText, width), ry: radiusPx(ryText, height) };
  const pulled = {};
  for (const panel of felt.querySelectorAll(".seat")) {
    const sx = Number(panel.dataset.spotX), sy = Number(panel.dataset.spotY);
    const halfW = panel.offsetWidth / 2, halfH = panel.offsetHeight / 2;
    const fits = (t) => {
      const x = width * (0.5 + ((sx - 50) / 100) * t), y = height * (0.5 + ((sy - 50) / 100) * t);
      return [[-1, -1], [1, -1], [-1, 1], [1, 1]].every(([dx, dy]) => inOval(x + dx * halfW, y + dy * halfH, box, 2));
    };
    let t = 1;
    if (!fits(1)) {
      let lo = 0, hi = 1;
      for (let i = 0; i < 14; i += 1) {
        const mid = (lo + hi) / 2;
        if (fits(mid)) lo = mid; else hi = mid;
      }
      t = lo;
    }
    pulled[panel.dataset.seat] = t;
    panel.style.setProperty("--x", `${50 + (sx - 50) * t}%`);
    panel.style.top = `${50 + (sy - 50) * t}%`;
  }
  for (const card of felt.querySelectorAll(".trick .card[data-seat]")) {
    const panel = felt.querySelector(`.seat[data-seat="${card.dataset.seat}"]`);
    const place = (t) => {
      card.style.left = `${50 + Number(card.dataset.dx) * t}%`;
      card.style.top = `${50 + Number(card.dataset.dy) * t}%`;
      return !panel || !overlaps(card.getBoundingClientRect(), panel.getBoundingClientRect());
    };
    // in with its panel, and further in while the panel (which does not shrink) covers it
    let t = pulled[card.dataset.seat] ?? 1;
    while (!place(t) && t > 0.05) t *= 0.85;
  }
  const facts = wrap && wrap.querySelector(".deal-info");
  if (facts && facts.querySelector(".info, .upcard")) {
    const covered = [...felt.querySelectorAll(".seat")].some((panel) => overlaps(panel.getBoundingClientRect(), facts.getBoundingClientRect()));
    if (covered) wrap.classList.add("facts-above");
  }
}

export async function openTable(main, code) {
  const hash = new URLSearchParams(location.hash.slice(1));
  if (hash.get("seat")) {
    saveSeat(code, hash.get("seat"));
    history.replaceState(null, "", location.pathname);
  }
  const view = new TableView(main, code);
  window.cb = view; // for tests and the curious: it holds only what the server sent here
  try {
    view.faces = (await api("/api/meta")).faces || FALLBACK_FACES;
  } catch {
    view.faces = FALLBACK_FACES;
  }
  view.connect();
}

class TableView {
  constructor(main, code) {
    this.main = main;
    this.code = code;
    this.state = null;
    this.ws = null;
    this.retry = 0;
    this.lost = false;
    this.pendingSeq = null;
    this.seenDeals = null;
    this.resultClosed = false;
    this.messages = 0;
    this.faces = FALLBACK_FACES;
    this.pickerSuit = null;
    this.verified = null;
    clear(main);
    this.root = el("div.table-page", { "data-code": code });
    main.append(this.root);
    window.addEventListener("resize", () => {
      const felt = this.root.querySelector(".felt");
      if (felt) fitSeats(felt);
    });
    this.hint = null;
    this.hintAsked = null;
    // "i": a hint, as in the terminal (only where the Hint button is offered)
    document.addEventListener("keydown", (event) => {
      if (event.key !== "i" || event.ctrlKey || event.metaKey || event.altKey) return;
      if (event.target.closest && event.target.closest("input, textarea, select")) return;
      if (this.state && this.hintOffered(this.state)) this.askHint();
    });
  }

  // ------------------------------------------------------------- connection
  connect() {
    const scheme = location.protocol === "https:" ? "wss" : "ws";
    const ws = new WebSocket(`${scheme}://${location.host}/ws/${this.code}`);
    this.ws = ws;
    ws.onopen = () => {
      const token = seatToken(this.code);
      ws.send(JSON.stringify(token ? { type: "hello", token } : { type: "hello" }));
    };
    ws.onmessage = (event) => {
      if (ws !== this.ws) return;
      this.messages += 1;
      this.onMessage(JSON.parse(event.data));
    };
    ws.onclose = (event) => this.onClose(event, ws);
  }

  onMessage(message) {
    if (message.type === "state") {
      if (this.lost) {
        banner("Reconnected: you are back at the table.", "ok");
        setTimeout(() => { if (!this.lost) banner(null); }, 2000);
      }
      this.lost = false;
      this.retry = 0;
      this.pendingSeq = null;
      this.state = message;
      noteCommitment(this.code, message.table.fair);
      this.render();
    } else if (message.type === "hint") {
      this.hintAsked = null;
      if (this.state && message.seq === this.state.seq) {
        this.hint = message;
        this.render();
      }
    } else if (message.type === "error") {
      this.hintAsked = null;
      this.pendingSeq = null;
      toast(message.message);
      this.root.querySelectorAll(".sending").forEach((n) => n.classList.remove("sending"));
    }
  }

  onClose(event, ws) {
    if (ws !== this.ws) return;
    // A hint asked on this socket never comes now: the Hint button may be pressed again
    // once reconnected (it stayed "Thinking…" and the i key did nothing).
    this.hintAsked = null;
    if (event.code === 4404) {
      banner(null);
      clear(this.root).append(el("section.panel", {}, el("h2", { text: "No such table" }),
        el("p", { text: `There is no table with the code ${this.code}.` }), el("a.button", { href: "/", text: "Back to the tables" })));
      return;
    }
    if (event.code === 4401) {
      forgetSeat(this.code);
      toast("The seat token in this browser is not valid at this table: you are watching.");
      this.connect();
      return;
    }
    this.lost = true;
    const delay = Math.min(5000, 250 * 2 ** this.retry);
    this.retry += 1;
    banner(`Connection lost — reconnecting${this.retry > 1 ? ` (attempt ${this.retry})` : ""}…`, "warn");
    this.root.classList.add("offline");
    setTimeout(() => this.connect(), delay);
  }

  send(message) {
    if (!this.ws || this.ws.readyState !== WebSocket.OPEN) {
      toast("Not connected yet: wait a moment.");
      return false;
    }
    this.ws.send(JSON.stringify(message));
    return true;
  }

  act(action, node) {
    const state = this.state;
    if (!state || this.pendingSeq === state.seq) return;
    if (this.send({ type: "act", seq: state.seq, action })) {
      this.pendingSeq = state.seq;
      if (node) node.classList.add("sending");
    }
  }

  // ---------------------------------------------------------------- render
  render() {
    const state = this.state;
    this.root.classList.remove("offline");
    this.root.dataset.seq = state.seq;
    this.root.dataset.status = state.table.status;
    document.title = `${state.table.title || "Call Break"} · ${state.table.code}`;
    if (state.table.status === "lobby") this.renderLobby(state);
    else this.renderGame(state);
  }

  name(seat) {
    const s = this.state.table.seats[seat];
    return s.name || `Seat ${seat + 1}`;
  }

  inviteBox(compact = false) {
    const link = `${location.origin}/t/${this.code}`;
    const input = el("input#invite-link", { readonly: true, value: link, "aria-label": "Invite link", onfocus: (e) => e.target.select() });
    const copy = el("button", {
      type: "button", text: "Copy link",
      onclick: async () => {
        try { await navigator.clipboard.writeText(link); toast("Invite link copied.", "ok", 2000); }
        catch { input.select(); toast("Select the link and copy it.", "info", 2500); }
      },
    });
    return el(`div.invite${compact ? ".compact" : ""}`, {},
      el("div.code-line", {}, "Table code ", el("strong#table-code.code", { text: this.code })),
      el("div.row", {}, input, copy));
  }

  renderLobby(state) {
    const { table, you } = state;
    const openSeats = table.seats.filter((s) => s.kind === "open");
    const seats = el("ol.lobby-seats", {}, table.seats.map((s) => el(`li.${s.kind}`, { "data-seat": s.seat, "data-connected": String(s.connected) },
      el("span.dot", { class: `dot ${s.connected ? "on" : "off"}`, title: s.connected ? "connected" : "not connected" }),
      el("span.seat-name", { text: s.kind === "open" ? "open seat" : s.name }),
      s.kind === "open" ? null : el("span.presence.muted.small", { text: s.connected ? " connected" : " not connected" }),
      s.seat === table.host_seat ? el("span.badge", { text: "host" }) : null,
      s.seat === you.seat ? el("span.badge.you", { text: "you" }) : null)));

    let action;
    if (you.role === "spectator") {
      action = table.practice ? el("p", { text: "A practice table: nobody else can join it. You are watching." })
        : openSeats.length ? this.joinForm(openSeats) : el("p", { text: "Every seat is taken: you are watching." });
    } else if (you.host) {
      const bots = openSeats.length;
      action = el("button#start-btn.primary", {
        type: "button",
        text: bots ? `Start — bots take ${bots} empty seat${bots > 1 ? "s" : ""}` : "Start the match",
        // a fair table mixes the host's own random bytes in, sent only now that it has seen
        // the commitment (docs/fair-tables.md)
        // once only: a second click sent a second start, answered "already started"
        onclick: (event) => {
          const button = event.currentTarget;
          button.disabled = true;
          setTimeout(() => { button.disabled = false; }, 4000);
          this.send(table.fair ? { type: "start", contribution: contributionFor(this.code) } : { type: "start" });
        },
      });
    } else {
      action = el("p.waiting", { text: `Waiting for ${this.name(table.host_seat)} to start the match…` });
    }

    const token = seatToken(this.code);
    const device = token && you.role === "player"
      ? el("details.device", {}, el("summary", { text: "Play this seat on another device" }),
          el("p.muted", { text: "This private link holds your seat. Do not share it." }),
          el("input", { readonly: true, value: `${location.origin}/t/${this.code}#seat=${token}`, onfocus: (e) => e.target.select() }))
      : null;

    const existing = this.root.querySelector("#join-name");
    const typed = existing ? existing.value : null;
    clear(this.root).append(el("section.panel.lobby-table", {},
      el("h2", { text: "Waiting room" }),
      this.inviteBox(),
      seats,
      fairNote(table),
      el("p.muted", { text: rulesText(table) }),
      this.rulesPanel(table, false),
      action,
      device));
    if (typed !== null && this.root.querySelector("#join-name")) this.root.querySelector("#join-name").value = typed;
  }

  joinForm(openSeats) {
    const name = el("input#join-name", { maxlength: 32, placeholder: "Your name", value: savedName(), autocomplete: "nickname", required: true });
    const join = async (seat) => {
      const who = name.value.trim();
      if (!who) { toast("Type your name first."); name.focus(); return; }
      try {
        saveName(who);
        const body = { name: who, seat };
        if (this.state.table.fair) body.contribution = contributionFor(this.code);
        const got = await api(`/api/tables/${this.code}/join`, { method: "POST", body });
        saveSeat(this.code, got.token);
        this.ws.close(1000, "joined");
        this.ws = null;
        this.connect();
      } catch (error) {
        toast(error.message);
      }
    };
    return el("div.join", {},
      el("label.field", {}, "Your name", name),
      el("div.row", {}, openSeats.map((s) => el("button.join-seat.primary", {
        type: "button", "data-seat": s.seat, text: `Sit in seat ${s.seat + 1}`, onclick: () => join(s.seat),
      }))),
      el("p.muted", { text: "Or just stay here to watch." }));
  }

  /** The game's own words where it has them (a Spades seat bids), else the family's. */
  words() {
    return this.gameInfo().words || {};
  }

  phaseInfo(phase) {
    return (this.words().phases || {})[phase] || this.faces.phases[phase] || { verb: phase, prompt: `Your turn (${phase}):`, control: "buttons", labels: {} };
  }

  statLabel(key) {
    return (this.words().stat_labels || {})[key] || (this.faces.stat_labels || STAT_TEXT)[key] || key;
  }

  columnLabel(key) {
    return (this.words().column_labels || {})[key] || (this.faces.column_labels || COLUMN_TEXT)[key] || key;
  }

  /** Why the winner's total may be below another's: the tie-break deal counted only the tied
   * seats' points (docs/rules/callbreak.md rule 8). */
  tieBreakNote(deals) {
    const last = [...deals].reverse().find((deal) => !deal.void);
    if (!last || !last.tie_break) return null;
    const tied = (last.counting_seats || []).map((seat) => this.name(seat)).join(", ");
    return el("p.tie-note", { text: `A tie at the top was played off in a tie-break deal among ${tied}; only their points counted, and the others were out of the running.` });
  }

  /** Whether the person must play a card now. */
  playTurn(state) {
    const { obs, you } = state;
    return Boolean(obs) && obs.phase === "play" && obs.to_act === you.seat;
  }

  /** The engine's "seat 3" (counted from 0) in a reason, as the page names that seat. */
  seatWords(text) {
    return text.replace(/\bseat (\d+)\b/g, (_, seat) => this.name(Number(seat)));
  }

  /** How this table's game scores under its own options (the server words it). */
  scoring() {
    return this.state.table.scoring || this.gameInfo().scoring || "";
  }

  gameInfo() {
    const game = this.state.table.game || "callbreak";
    return this.faces.games[game] || FALLBACK_FACES.games.callbreak;
  }

  /** The index of the side ``seat`` plays on (the game's partnerships), or -1 in a game without. */
  sideOf(seat) {
    return (this.gameInfo().partnerships || []).findIndex((side) => side.includes(seat));
  }

  /** Seats in play order from ``leader`` among those playing this deal. */
  trickSeats(obs, leader, count) {
    const n = this.state.table.seats.length;
    const order = obs.active && obs.active.length ? obs.active : [...Array(n).keys()];
    const at = Math.max(0, order.indexOf(leader));
    return [...order.slice(at), ...order.slice(0, at)].slice(0, count);
  }

  renderGame(state) {
    const { table, you, obs } = state;
    const n = table.seats.length;
    const me = you.seat;
    const base = me ?? 0;
    const myTurn = me !== null && obs.to_act === me && obs.legal.length > 0;
    if (!myTurn || obs.phase !== "partner") this.pickerSuit = null;

    const felt = el(`div.felt.seats-${n}`, { "data-seats": n });
    for (let offset = 0; offset < n; offset += 1) {
      const seat = (base + offset) % n;
      felt.append(this.seatPanel(state, seat, seatSpot(offset, n)));
    }
    felt.append(this.trickView(state, base));

    const frag = [
      el("div.status-line", {}, el("span", { text: statusText(state, this) }),
        el("span.muted.small", { text: ` · ${table.title || ""} · table ${table.code}${table.spectators ? ` · ${table.spectators} watching` : ""}` })),
      // The facts sit beside the felt, not in it: on a phone they go above it, clear of the seats.
      el("div.felt-wrap", {}, this.dealInfo(state), felt),
      this.actionBar(state, myTurn),
      this.handView(state, myTurn),
      this.nestView(obs),
    ];
    const side = el("aside.side", {}, this.scoreboard(state), this.rulesPanel(table, true));
    // Five seats or more, or three facts a cell (Call Partner's bid/won/card points): the
    // scoresheet needs the page's width, below the table.
    const wide = n >= 5 || this.gameInfo().summary.length > 4;
    clear(this.root).append(el(`div.game${wide ? ".wide-sheet" : ""}`, {}, el("div.play", {}, frag), side));
    fitSeats(felt);
    this.showHint(state);
    this.overlays(state);
  }

  rulesPanel(table, withInvite) {
    const options = Object.entries(table.rules).filter(([k]) => k !== "preset");
    return el("details.invite-details.rules-panel", {},
      el("summary", { text: withInvite ? "Invite & rules" : "Rules" }),
      withInvite ? this.inviteBox(true) : null,
      el("h4.rules-title", { text: `${table.title || table.rules.preset} (${table.rules.preset})` }),
      el("p.muted.small", { text: rulesText(table) }),
      fairNote(table),
      this.scoring() ? el("p.small.scoring", { text: this.scoring() }) : null,
      el("ul.plain.small.rules-options", {}, options.map(([k, v]) =>
        el("li", { "data-option": k }, el("code", { text: k }), ` = ${v}${k in table.changed ? " (changed)" : ""}`))));
  }

  stat(obs, seat, key) {
    if (key === "call") return (obs.blind_nils || []).includes(seat) ? "blind nil" : obs.calls[seat];
    if (key === "bid") {
      let last = null;
      for (const [who, bid] of obs.bids) if (who === seat) last = bid;
      return last;
    }
    if (key === "won") return obs.tricks_won[seat];
    if (key === "card_points") return obs.card_points ? obs.card_points[seat] : null;
    if (key === "score") return obs.totals ? obs.totals[seat] : null;
    return null;
  }

  seatPanel(state, seat, spot) {
    const { table, obs } = state;
    const info = table.seats[seat];
    const classes = ["seat"];
    const out = obs.dealt_in && obs.dealt_in.length && !obs.dealt_in.includes(seat);
    const dropped = (obs.dropped || []).includes(seat);
    if (obs.to_act === seat) classes.push("turn");
    if (seat === state.you.seat) classes.push("me");
    if (out) classes.push("out");
    else if (dropped) classes.push("dropped");
    const badges = [];
    if (obs.dealer === seat) badges.push(el("span.badge.dealer", { title: "dealer", text: "D" }));
    if (obs.declarer === seat && obs.contract !== null) badges.push(el("span.badge.declarer", { title: "declarer", text: `bid ${obs.contract}` }));
    if (obs.partner === seat && obs.partner !== obs.declarer) badges.push(el("span.badge.partner", { text: "partner" }));
    const side = this.sideOf(seat);
    if (side >= 0) {
      const mates = this.gameInfo().partnerships[side].map((s) => this.name(s)).join(" & ");
      const mine = side === this.sideOf(state.you.seat ?? -1);
      if (mine && seat !== state.you.seat) badges.push(el("span.badge.partner", { text: "partner" }));
      badges.push(el(`span.badge.team.team-${side}`, { title: `one side: ${mates}`, text: `side ${"ABCDEFGH"[side]}` }));
      classes.push(`team-${side}`);
    }
    if (out) badges.push(el("span.badge.muted-badge", { text: "out of the game" }));
    else if (dropped) badges.push(el("span.badge.muted-badge", { text: "dropped" }));
    if (info.kind === "bot") badges.push(el("span.badge", { text: "bot" }));
    else if (info.bot_playing) badges.push(el("span.badge.warn", { text: "bot playing" }));
    else if (!info.connected) badges.push(el("span.badge.warn", { text: "offline" }));
    if (obs.declared_voids[seat]) badges.push(el("span.badge", { text: `void ${obs.declared_voids[seat].split("").map((s) => SUIT_SYMBOL[s]).join("")}` }));
    const stats = this.gameInfo().stats.map((key) => {
      const value = this.stat(obs, seat, key);
      return el("span", { class: `stat ${key}`, text: `${this.statLabel(key)} ${value ?? "–"}` });
    });
    return el(`div.${classes.join(".")}`, { "data-seat": seat, "data-side": side >= 0 ? side : null, "data-spot-x": spot.x, "data-spot-y": spot.y, style: `--x:${spot.x}%;top:${spot.y}%` },
      el("div.seat-name", {}, el("span.who", { text: this.name(seat) }), seat === state.you.seat ? el("span.you", { text: "\u00a0(you)" }) : null),
      el("div.seat-stats", {}, stats),
      el("div.badges", {}, badges));
  }

  dealInfo(state) {
    const { obs } = state;
    const bits = [];
    if (obs.trump) bits.push(el("span.info.trump", { "data-trump": obs.trump }, `Trump ${SUIT_SYMBOL[obs.trump] || ""} ${SUIT_NAME[obs.trump] || obs.trump}`));
    else if (obs.phase === "play") bits.push(el("span.info.trump", { text: "No trump" }));
    if (obs.reversed_ranks) bits.push(el("span.info", { text: "ranks reversed: 2 high, A low" }));
    if (this.gameInfo().hand_size_varies && obs.hand_size) bits.push(el("span.info.hand-size", { text: `${obs.hand_size} card${obs.hand_size === 1 ? "" : "s"} each this deal` }));
    if (obs.contract !== null && obs.declarer !== null) bits.push(el("span.info.contract", { text: `${this.name(obs.declarer)} bid ${obs.contract}` }));
    if (obs.partner_card) {
      bits.push(el("span.info.partner-card", {}, `Partner card ${cardLabel(obs.partner_card)}`,
        obs.partner !== null && obs.partner !== undefined ? ` — ${obs.partner === obs.declarer ? "plays alone" : this.name(obs.partner)}` : ""));
    }
    if (obs.stock_size && this.gameInfo().stock) bits.push(el("span.info.stock", { text: `stock ${obs.stock_size}` }));
    if (obs.unplayed) bits.push(el("span.info", { text: this.seatWords(obs.unplayed) }));
    const upcard = obs.upcard ? el("div.upcard", { title: "face-up card" }, cardEl(obs.upcard, { class: "face-up" })) : null;
    return el("div.deal-info", {}, upcard, el("div.info-lines", {}, bits));
  }

  trickView(state, base) {
    const { obs, last_trick: lastTrick, last } = state;
    const n = state.table.seats.length;
    const area = el("div.trick", { "aria-label": "cards on the table" });
    let trick = obs.trick;
    let seats = this.trickSeats(obs, trick.leader, trick.cards.length);
    let done = false;
    if (!trick.cards.length && lastTrick && last && lastTrick.cards[lastTrick.cards.length - 1] === last.action) {
      trick = lastTrick;
      seats = lastTrick.seats || this.trickSeats(obs, trick.leader, trick.cards.length);
      done = true;
    }
    // Each card halfway to its seat; on a phone a little nearer the middle where the seats
    // are few, so that a side panel (kept on the screen) does not cover its own card.
    const pull = n <= 5 && window.matchMedia("(max-width: 520px)").matches ? 0.4 : 0.5;
    trick.cards.forEach((card, i) => {
      const seat = seats[i];
      const spot = seatSpot((seat - base + n) % n, n);
      const dx = (spot.x - 50) * pull;
      const dy = (spot.y - 50) * pull;
      const wins = done && trick.winner === seat;
      area.append(cardEl(card, {
        class: `in-trick${wins ? " winner" : ""}${done ? " done" : ""}`, "data-seat": seat, "data-dx": dx, "data-dy": dy,
        style: `left:${50 + dx}%;top:${50 + dy}%`,
      }));
    });
    const total = obs.hand.length + obs.history.length;
    if (done) area.append(el("div.trick-note", { text: `${this.name(trick.winner)} wins the trick` }));
    else if (obs.phase === "play" && !trick.cards.length) area.append(el("div.trick-note.muted", { text: `Trick ${obs.history.length + 1}${state.you.seat !== null && total ? ` of ${total}` : ""}` }));
    return area;
  }

  actionButton(value, labels, phase) {
    const key = String(value);
    const attrs = {
      type: "button", "data-action": key, text: labels[key] ?? (this.faces.suits[key] || key),
      onclick: (e) => this.act(value, e.currentTarget),
    };
    if (typeof value === "number") attrs["data-call"] = value;
    if (typeof value === "boolean") attrs["data-answer"] = key;
    const primary = value === true || this.phaseInfo(phase).answers === "suit";
    return el(`button.act${typeof value === "number" ? ".call" : ""}${primary ? ".primary" : ""}`, attrs);
  }

  /** A hint is offered on your own turn at a table where every other seat is a bot (at a table
   * with another person it would be help the others do not get; the server refuses it there). */
  hintOffered(state) {
    const { table, you, obs } = state;
    if (you.seat === null || state.result || !obs || obs.to_act !== you.seat || !obs.legal.length) return false;
    return table.seats.every((s) => s.seat === you.seat || s.kind === "bot");
  }

  askHint() {
    const state = this.state;
    if (!state || this.hintAsked === state.seq || (this.hint && this.hint.seq === state.seq)) return;
    if (this.send({ type: "hint", seq: state.seq })) {
      this.hintAsked = state.seq;
      const button = this.root.querySelector("#hint-btn");
      if (button) { button.disabled = true; button.textContent = "Thinking…"; }
    }
  }

  /** The Hint button, and once the server has answered, the hint in words. */
  hintView(state) {
    if (!this.hintOffered(state)) return null;
    const hint = this.hint && this.hint.seq === state.seq ? this.hint : null;
    if (hint) {
      // the terminal's words name cards as the engine does ("call the 14R as partner"): the
      // page says them as it shows them everywhere else ("14 red", "K♥")
      const what = hint.card ? cardLabel(hint.action) : reviewText(hint.text);
      const why = hint.reason ? ` — ${reviewText(hint.reason)}` : "";
      return el("span.hint-text", { "data-action": String(hint.action) }, "Hint: ", el("strong", { text: what }), why);
    }
    const waiting = this.hintAsked === state.seq;
    return el("button#hint-btn", {
      type: "button", text: waiting ? "Thinking…" : "Hint", disabled: waiting,
      title: "What the expert bot would do here, for your cards only (key i)", onclick: () => this.askHint(),
    });
  }

  /** Mark the hinted card or answer on the page (the picker shows the hinted card's suit). */
  showHint(state) {
    const hint = this.hint && this.hint.seq === state.seq && this.hintOffered(state) ? this.hint : null;
    if (!hint) return;
    const key = String(hint.action);
    const marks = [...this.root.querySelectorAll(".hand .card.legal, .action-bar button[data-action], .picker .pick")]
      .filter((node) => (node.dataset.card ?? node.dataset.action) === key);
    marks.forEach((node) => node.classList.add("hinted"));
  }

  actionBar(state, myTurn) {
    const { obs } = state;
    const bar = el("div.action-bar", { "data-phase": obs.phase });
    if (!myTurn) return bar;
    const info = this.phaseInfo(obs.phase);
    const labels = info.labels || {};
    bar.append(el("span.prompt", { text: info.prompt }));
    const hint = this.hintView(state);
    if (info.control === "buttons") {
      bar.append(el("div.calls", {}, obs.legal.map((value) => this.actionButton(value, labels, obs.phase))));
    } else if (info.control === "cards") {
      const words = obs.legal.filter((value) => typeof value !== "string" || value in labels);
      if (words.length) bar.append(el("div.calls", {}, words.map((value) => this.actionButton(value, labels, obs.phase))));
      if (obs.phase === "discard" && obs.discards) bar.append(el("span.muted.small", { text: ` ${obs.discards.length} of 5 discarded` }));
    } else if (info.control === "picker") {
      const hinted = this.hint && this.hint.seq === state.seq ? String(this.hint.action) : null;
      if (hinted && this.hintShownFor !== state.seq) {
        this.hintShownFor = state.seq;  // open the hinted card's suit once; the person may move on
        this.pickerSuit = hinted === "ROOK" ? "★" : hinted.slice(-1);
      }
      bar.append(this.picker(obs));
    }
    if (hint) bar.append(hint);
    return bar;
  }

  /** A long list of cards (the partner call): first the suit, then the card. */
  picker(obs) {
    const bySuit = {};
    for (const card of obs.legal) {
      const suit = card === "ROOK" ? "★" : card.slice(-1);
      (bySuit[suit] = bySuit[suit] || []).push(card);
    }
    const suits = Object.keys(bySuit).sort((a, b) => (a === "★") - (b === "★")); // the Rook last
    if (!suits.includes(this.pickerSuit)) this.pickerSuit = obs.trump && suits.includes(obs.trump) ? obs.trump : suits[0];
    const tabs = el("div.picker-tabs", { role: "tablist" }, suits.map((suit) => el(`button.picker-suit${suit === this.pickerSuit ? ".selected" : ""}`, {
      type: "button", role: "tab", "data-suit": suit, text: suit === "★" ? "Rook" : (this.faces.suits[suit] || SUIT_NAME[suit] || suit),
      onclick: () => { this.pickerSuit = suit; this.render(); },
    })));
    const cards = el("div.picker-cards", {}, sortCards(bySuit[this.pickerSuit]).map((card) => el("button.pick", {
      type: "button", "data-card": card, title: cardLabel(card), onclick: (e) => this.act(card, e.currentTarget),
    }, cardEl(card))));
    return el("div.picker", {}, tabs, cards);
  }

  handView(state, myTurn) {
    const { obs, you } = state;
    if (you.role === "spectator") {
      if (state.result) {
        return el("div.hand.empty", {}, "The match is over: every hand is in ",
          el("a", { href: state.result.record_url, text: "its record" }), ".");
      }
      return el("div.hand.empty", { text: "You are watching: the hands stay hidden; the match's record shows them once it is over." });
    }
    const control = this.phaseInfo(obs.phase).control;
    const picking = myTurn && control === "cards";
    const legal = new Set(picking ? obs.legal.filter((v) => typeof v === "string") : []);
    const cards = sortCards(obs.hand);
    // --n lets the cards overlap as much as the row needs (18 in a Rook declarer's hand)
    const hand = el("div.hand", { "aria-label": "your hand", style: `--n: ${Math.max(cards.length, 2)}` });
    for (const name of cards) {
      const playable = legal.has(name);
      const extra = { class: playable ? "legal" : picking ? "dim" : "" };
      if (playable) {
        extra.role = "button";
        extra.tabindex = "0";
        extra.onclick = (e) => this.act(name, e.currentTarget);
        extra.onkeydown = (e) => { if (e.key === "Enter" || e.key === " ") this.act(name, e.currentTarget); };
      }
      hand.append(cardEl(name, extra));
    }
    const dealtIn = !obs.dealt_in || !obs.dealt_in.length || obs.dealt_in.includes(you.seat);
    const unseen = obs.legal.includes("look");  // Spades' blind nil: the cards are not seen yet
    const none = unseen ? "You have not looked at your cards yet." : dealtIn ? "No cards in hand." : "You are out of the game: you watch the others play it out.";
    if (!cards.length) hand.append(el("span.muted", { text: none }));
    return hand;
  }

  /** The Rook nest and your own discards: only the declarer's observation has them. */
  nestView(obs) {
    if (!obs.nest && !obs.discards) return null;
    return el("div.nest", {},
      obs.nest ? el("div.nest-row", {}, el("span.muted.small", { text: "Nest as dealt: " }), obs.nest.map((c) => cardEl(c, { class: "small-card" }))) : null,
      obs.discards && obs.discards.length ? el("div.nest-row", {}, el("span.muted.small", { text: "Your discards: " }), obs.discards.map((c) => cardEl(c, { class: "small-card" }))) : null);
  }

  /** One finished deal's line in a seat's cell: the game's summary columns but points/total. */
  cellNote(deal, seat) {
    const parts = [];
    for (const key of this.gameInfo().summary) {
      if (key === "points" || key === "total") continue;
      const value = summaryValue(deal, seat, key);
      if (value !== null && value !== undefined && value !== "") parts.push(value);
    }
    return parts.join("/");
  }

  scoreboard(state) {
    const { table, obs, deals } = state;
    const n = table.seats.length;
    const game = this.gameInfo();
    const head = el("tr", {}, el("th", { text: "Deal" }), table.seats.map((s) => el("th", { text: this.name(s.seat) })));
    const rows = deals.map((deal) => deal.void
      ? el("tr.void", {}, el("td", { text: deal.number }), el("td", { colspan: n, text: `thrown in: ${this.seatWords(deal.void)}` }))
      : el(`tr${deal.tie_break ? ".tie" : ""}`, {}, el("td", { text: deal.number + (deal.tie_break ? " (tie-break)" : "") }),
          deal.points.map((points, seat) => el(`td${(deal.dropped || []).includes(seat) ? ".dropped" : ""}`, {},
            el("span", { class: scoreClass(points, table.lowest_wins), text: points }),
            el("span.callwon", { text: this.cellNote(deal, seat) })))));
    if (!state.result && obs && obs.phase !== "over" && obs.phase !== "void") {
      const live = game.stats.filter((k) => k !== "score");
      rows.push(el("tr.current", {}, el("td", { text: `${obs.deal_number ?? deals.length + 1} now` }),
        table.seats.map((s) => el("td.small", { text: live.map((k) => this.stat(obs, s.seat, k) ?? "–").join("/") }))));
    }
    const start = String(table.start ?? 0);
    const totals = (state.result && state.result.totals) || (deals.length ? deals[deals.length - 1].totals : Array(n).fill(start));
    const live = game.summary.filter((k) => k !== "points" && k !== "total").map((k) => this.columnLabel(k)).join("/");
    return el("section.scoreboard", {}, el("h3", { text: "Scores" }),
      el("div.scroll", {}, el("table.scores", {}, el("thead", {}, head), el("tbody", {}, rows),
        el("tfoot", {}, el("tr", {}, el("th", { text: "Total" }), totals.map((t) => el("th", { text: t })))))),
      el("p.muted.small", { text: scoringNote(live, this.scoring(), table.lowest_wins) }));
  }

  overlays(state) {
    document.querySelectorAll(".overlay.match-result").forEach((node) => node.remove());
    const deals = state.deals;
    // The last deal's result gives way once you must play a card (it covered the trick), but
    // only after three seconds in sight, so that a quick first turn does not hide it unread.
    if (deals.length === this.seenDeals && this.playTurn(state)) {
      document.querySelectorAll(".deal-result").forEach((node) => {
        const left = 3000 - (Date.now() - Number(node.dataset.shown || 0));
        if (left <= 0) node.remove();
        else setTimeout(() => { if (this.playTurn(this.state)) node.remove(); }, left);
      });
    }
    if (this.seenDeals === null) this.seenDeals = deals.length;
    if (state.result) {
      if (this.resultClosed) return;
      const winners = state.result.winners.map((s) => this.name(s)).join(" and ");
      document.querySelectorAll(".deal-result").forEach((node) => node.remove());
      // Drawn again on every state (a player leaves, the seed check answers): it goes beneath
      // a review opened from it, which it covered (same layer, later in the page) until closed.
      const card = el("div.overlay.match-result", { role: "dialog", "aria-label": "match result" }, el("div.panel.result", {},
        el("h2", { text: "Match over" }),
        el("p.big", { text: `${winners} ${state.result.winners.length > 1 ? "share the win" : "wins"}!` }),
        this.tieBreakNote(deals),
        el("ol.plain", {}, state.table.seats.map((s) => el("li", {}, `${this.name(s.seat)}: `, el("strong", { text: state.result.totals[s.seat] })))),
        el("div.row", {},
          el("a#record-link.button.primary", { href: state.result.record_url, download: `callbreak-${this.code}.json`, text: "Download the record" }),
          el("a.button", { href: "/", text: "New table" }),
          el("button", { type: "button", text: "Close", onclick: () => { this.resultClosed = true; this.overlays(this.state); } })),
        this.fairCheck(state),
        this.reviewLinks(deals)));
      const review = document.querySelector(".overlay.review");
      if (review) review.before(card);
      else document.body.append(card);
      return;
    }
    if (deals.length > this.seenDeals) {
      const deal = deals[deals.length - 1];
      this.seenDeals = deals.length;
      const close = () => node.remove();
      const columns = this.gameInfo().summary;
      const headline = dealHeadline(deal, this);
      const body = deal.void
        ? el("p", { text: `Deal ${deal.number} was thrown in (${this.seatWords(deal.void)}); the same dealer deals again.` })
        : el("div", {}, headline ? el("p.deal-headline", { text: headline }) : null,
            el("table.scores", {},
              el("thead", {}, el("tr", {}, ["", ...columns].map((h) => el("th", { text: h ? this.columnLabel(h) : "" })))),
              el("tbody", {}, state.table.seats.map((s) => el(`tr${(deal.dropped || []).includes(s.seat) ? ".dropped" : ""}`, {},
                el("td.who", {}, this.name(s.seat), (deal.dropped || []).includes(s.seat) ? el("span.small", { text: " (dropped)" }) : null),
                columns.map((key) => el("td", { "data-col": key, text: summaryValue(deal, s.seat, key) ?? "–" })))))));
      document.querySelectorAll(".deal-result").forEach((old) => old.remove());
      const review = this.canReview(deal) ? el("button.review-link", {
        type: "button", text: "Review", "data-deal": deal.number, title: "The review of your decisions in this deal",
        onclick: () => { close(); this.openReview(deal.number); },
      }) : null;
      const node = el("div.deal-result.panel", { role: "status", "aria-label": "deal result", "data-shown": Date.now() },
        el("h2", { text: `Deal ${deal.number} result` }), body,
        el("button", { type: "button", text: "Continue", onclick: close }), review ? " " : null, review);
      document.body.append(node);
      setTimeout(close, review ? 12000 : 6000);
    }
  }

  // ------------------------------------------------------------- fair deals
  /** The result card's check of the shuffle: the hashes here, the re-deal by the server. */
  fairCheck(state) {
    const fair = state.table.fair;
    if (state.table.practice) return el("p.fair-check.muted.small", { text: "A practice table: its host chose the deals, so there is nothing to verify." });
    if (!fair || !fair.revealed) return null;
    const lines = localChecks(this.code, fair, state.you.seat).map((c) =>
      el(`li.${c.ok ? "ok" : "failed"}`, { "data-check": c.name }, `${c.ok ? "✓" : "✗"} ${c.text} (checked here)`));
    const verified = this.verified;
    if (verified === null) {
      this.verified = "pending";
      api(`/api/records/${this.code}/verify`)
        .then((data) => { this.verified = data; })
        .catch((error) => { this.verified = { ok: false, error: error.message }; })
        .finally(() => { if (this.state) this.overlays(this.state); });
    }
    if (verified && verified !== "pending") {
      lines.push(el(`li.${verified.ok ? "ok" : "failed"}`, { "data-check": "deals" }, verified.ok
        ? `✓ every deal (${verified.deals}) follows from the match seed (re-dealt by the server's verifier)`
        : `✗ ${verified.error}`));
    } else {
      lines.push(el("li.pending", { "data-check": "deals", text: "… re-dealing every deal from the match seed" }));
    }
    const ok = lines.every((line) => !line.classList.contains("failed"));
    return el("section.fair-check", { "data-ok": String(ok) },
      el("h3", { text: ok ? "Fair deals: verified" : "Fair deals: the check FAILED" }),
      el("ul.plain.small", {}, lines),
      el("p.muted.small", {}, "Check it yourself: download the record and run ", el("code", { text: `callbreak replay --verify-seed callbreak-${this.code}.json` }), "."));
  }

  // ----------------------------------------------------------------- review
  /** The review is offered to a seated player for every played-out deal. */
  canReview(deal) {
    const { table, you } = this.state;
    const dealtIn = !deal.dealt_in || !deal.dealt_in.length || deal.dealt_in.includes(you.seat);
    return Boolean(table.reviewable) && you.seat !== null && dealtIn && !deal.void && !deal.unplayed;
  }

  reviewLinks(deals) {
    const played = deals.filter((deal) => this.canReview(deal));
    if (!played.length) return null;
    return el("p.review-links", {}, "Review your cards: ", played.map((deal) => el("button.review-link", {
      type: "button", text: `deal ${deal.number}`, "data-deal": deal.number, onclick: () => this.openReview(deal.number),
    })));
  }

  /** Fetch the review of deal ``number`` (your seat's) and show it over the table. */
  async openReview(number) {
    document.querySelectorAll(".overlay.review").forEach((node) => node.remove());
    const content = el("div.review-body", {}, el("p.reviewing", { text: `Reviewing… ${this.state.table.review_note || ""}`.trim() }));
    const close = () => { overlay.remove(); document.removeEventListener("keydown", onKey); };
    const onKey = (event) => { if (event.key === "Escape") close(); };
    const overlay = el("div.overlay.review", { role: "dialog", "aria-label": `review of deal ${number}`, onclick: (event) => { if (event.target === overlay) close(); } },
      el("div.panel.review-panel", {}, el("h2", { text: `Review of deal ${number}` }), content,
        el("div.row", {}, el("button.primary", { type: "button", text: "Close", onclick: close }))));
    document.addEventListener("keydown", onKey);
    document.body.append(overlay);
    try {
      const data = await api(`/api/tables/${this.code}/review?deal=${number}`, { token: seatToken(this.code) });
      clear(content).append(...reviewNodes(data.review, this.name(data.seat)));
    } catch (error) {
      clear(content).append(el("p.review-error", { text: `No review: ${error.message}` }));
    }
  }
}

/** A line of the review as the table says it: "KH" → "K♥", "13Y" → "13 yellow", "ROOK" → "Rook",
 * and in a choice of trump (``kind``) the suit letters "B/G" → "♠ spades/● green". */
function reviewText(text, kind) {
  const words = text
    .replace(/\b([2-9TJQKA])([SHDC])\b/g, (card) => cardLabel(card))
    .replace(/\b(1[0-4]|[1-9])([RYGB])\b/g, (card) => cardLabel(card))
    .replace(/\bROOK\b/g, "Rook");
  if (kind !== "trump") return words;
  return words.replace(/\b([SHDCRYGB])\b/g, (suit) => `${SUIT_SYMBOL[suit]} ${SUIT_NAME[suit]}`);
}

/** The scoresheet's note: what a cell holds and how the game scores, each said once (a game's
 * own scoring text may already name the cell or say that lower is better). */
function scoringNote(live, scoring, lowestWins) {
  const said = scoring.toLowerCase();
  const cells = live && !said.startsWith(live.toLowerCase()) ? `${live}, then points. ` : "";
  const lower = lowestWins && !said.includes("lower is better") ? " Lower is better." : "";
  return `${cells}${scoring}${lower}`;
}

/** A review document (``callbreak.review.review_document``) as the page shows it. */
function reviewNodes(review, name) {
  const solved = review.method !== "playouts with the hands shown";
  const noun = solved ? "card" : "decision";
  const mistakes = review.decisions.filter((d) => d.verdict === "blunder" || d.verdict === "mistake" || d.verdict === "hidden");
  // The call is judged apart from the cards: a bad call with perfect cards is no perfect line.
  const callLost = solved && review.call.lost && Number(review.call.lost) > 0 ? review.call.lost : null;
  const cards = mistakes.length ? `${mistakes.length} of ${review.decisions.length} ${noun}s lost value (−${review.lost} in all)` : `No ${noun} of the ${review.decisions.length} lost value`;
  const lost = callLost ? `${cards}; the call lost ${callLost}.` : mistakes.length ? `${cards}.` : `${cards}: a perfect line.`;
  const lines = review.decisions.map((d) => {
    const lostValue = d.verdict === "blunder" || d.verdict === "mistake" || d.verdict === "hidden";
    const text = lostValue || !solved ? reviewText(d.text, d.kind) : d.values ? `trick ${d.trick}: ${cardLabel(d.played)}, a best card` : reviewText(d.text, d.kind);
    return el(`li.decision.${d.verdict}`, { "data-trick": d.trick, "data-verdict": d.verdict },
      text, lostValue ? el("strong.cost", { text: ` · cost ${d.lost}` }) : null);
  });
  return [
    el("p.review-head", {}, el("strong", { text: solved ? `${name} called ${review.call.call}, won ${review.won}.` : `${name} won ${review.won} trick${review.won === 1 ? "" : "s"}.` }), " ", lost),
    el("p.review-call", { text: solved ? reviewText(`Call ${review.call.text.replace(/^call /, "")}`) : reviewText(review.call.text) }),
    el("ol.plain.review-lines", {}, lines),
    el("p.muted.small", { text: solved ? "Every hand known, each card valued as the points you still secure after it against best defence. Red: the expert, seeing only your cards, kept the value; amber: it would have lost it too (the hidden cards decided)." : "Valued by playouts with the hands shown: every hand known, each choice (a bid, trump, a discard, an exchange, in or out, a card) played out with the heuristic at every seat, worth your points less the others' mean. Red: a choice that lost value." }),
  ];
}

/** " · 5 deal(s)", " · first to 500": how long the match is, as its rules say. */
function matchLength(rules) {
  const end = rules.match_end || "deals";
  if (end.startsWith("target:")) return ` · first to ${end.slice(7)} points`;
  if (end.startsWith("deals:")) return ` · ${end.slice(6)} deal(s)`;
  return end === "deals" && rules.match_deals ? ` · ${rules.match_deals} deal(s)` : "";
}

function rulesText(table) {
  const changed = Object.entries(table.changed).map(([k, v]) => `${k}=${v}`).join(", ");
  const deals = matchLength(table.rules);
  const note = table.bot_note ? ` (${table.bot_note})` : "";
  return `${table.title || table.rules.preset} · ${table.seats.length} players${changed ? ` (${changed})` : ""}${deals} · bots: ${table.level}${note} · a dropped player's seat waits ${table.grace_s} s`;
}

/** What the table promises about its deals: a commitment, or a practice table's warning. */
function fairNote(table) {
  if (table.practice) return el("p.fair-note.practice", { text: "Practice table: the host may have chosen the deals, so nobody else can join it; its record says so." });
  if (!table.fair) return null;
  const text = table.fair.revealed ? "Fair deals: the seed is revealed. Commitment " : "Fair deals: the server has committed to its secret seed before anyone joined. Commitment ";
  return el("p.fair-note.small", { title: "SHA-256 of the server's secret seed and salt, revealed after the match (docs/fair-tables.md)" },
    text, el("code.commitment", { text: table.fair.commitment }),
    table.fair.revealed ? "." : ". Each player's browser adds its own random contribution; all is revealed when the match is over.");
}

function scoreClass(points, lowestWins) {
  const negative = points.startsWith("-");
  if (points === "0") return "zero";
  return negative !== Boolean(lowestWins) ? "neg" : "pos";
}

/** A finished deal's value in one summary column for one seat. */
function summaryValue(deal, seat, key) {
  // The server words every cell as every face does (faces.summary_cell); the rest is for old messages.
  if (deal.cells && deal.cells[key]) return deal.cells[key][seat];
  if (key === "call") return deal.calls ? deal.calls[seat] : null;
  if (key === "bid") return deal.last_bids ? deal.last_bids[seat] : null;
  if (key === "won") return (deal.dropped || []).includes(seat) ? "–" : deal.tricks[seat];
  if (key === "card_points") return deal.card_points ? deal.card_points[seat] : null;
  if (key === "points") return deal.points ? deal.points[seat] : null;
  if (key === "total") return deal.totals[seat];
  return null;
}

/** One line on a finished deal: the contract, trump, the partner, why it was not played. */
function dealHeadline(deal, view) {
  const parts = [];
  if (deal.declarer !== null && deal.contract !== null) parts.push(`${view.name(deal.declarer)} bid ${deal.contract}`);
  if (deal.trump) parts.push(`trump ${SUIT_NAME[deal.trump] || deal.trump}`);
  if (deal.upcard) parts.push(`face up ${cardLabel(deal.upcard)}`);
  if (deal.partner_card) parts.push(`partner card ${cardLabel(deal.partner_card)}${deal.partner !== null ? ` (${deal.partner === deal.declarer ? "alone" : view.name(deal.partner)})` : ""}`);
  if (deal.settled) parts.push(deal.settled === "take" ? "the bidder took −5" : "the bidder gave +5 to the others");
  if (deal.unplayed) parts.push(view.seatWords(deal.unplayed));
  return parts.join(" · ");
}

function statusText(state, view) {
  const { obs, you, result } = state;
  if (result) return "The match is over.";
  const deal = `Deal ${obs.deal_number ?? state.deals.length + 1}${obs.counting_seats ? " (tie-break)" : ""}`;
  if (obs.to_act === null || obs.to_act === undefined) return deal;
  const who = obs.to_act === you.seat ? "you" : view.name(obs.to_act);
  const verb = view.phaseInfo(obs.phase).verb;
  return obs.to_act === you.seat ? `${deal} · Your turn to ${verb}` : `${deal} · Waiting for ${who} to ${verb}…`;
}

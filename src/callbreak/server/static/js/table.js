// A table: the lobby before the start, then the game. Everything shown comes from the server's
// "state" messages, which hold only what this seat (or a spectator) may see.
import { api, forgetSeat, saveName, saveSeat, savedName, seatToken } from "./api.js";
import { SUIT_SYMBOL, banner, cardEl, clear, el, toast } from "./ui.js";

const POSITIONS = ["bottom", "right", "top", "left"]; // turn order runs counter-clockwise
const SUIT_ORDER = { S: 0, H: 1, C: 2, D: 3 }; // black, red, black, red

export function openTable(main, code) {
  const hash = new URLSearchParams(location.hash.slice(1));
  if (hash.get("seat")) {
    saveSeat(code, hash.get("seat"));
    history.replaceState(null, "", location.pathname);
  }
  const view = new TableView(main, code);
  window.cb = view; // for tests and the curious: it holds only what the server sent here
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
    clear(main);
    this.root = el("div.table-page", { "data-code": code });
    main.append(this.root);
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
      this.render();
    } else if (message.type === "error") {
      this.pendingSeq = null;
      toast(message.message);
      this.root.querySelectorAll(".sending").forEach((n) => n.classList.remove("sending"));
    }
  }

  onClose(event, ws) {
    if (ws !== this.ws) return;
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
    document.title = `Call Break · ${state.table.code}`;
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
    const seats = el("ol.lobby-seats", {}, table.seats.map((s) => el(`li.${s.kind}`, { "data-seat": s.seat },
      el("span.dot", { class: `dot ${s.connected ? "on" : "off"}`, title: s.connected ? "connected" : "not connected" }),
      el("span.seat-name", { text: s.kind === "open" ? "open seat" : s.name }),
      s.seat === table.host_seat ? el("span.badge", { text: "host" }) : null,
      s.seat === you.seat ? el("span.badge.you", { text: "you" }) : null)));

    let action;
    if (you.role === "spectator") {
      action = openSeats.length ? this.joinForm(openSeats) : el("p", { text: "Every seat is taken: you are watching." });
    } else if (you.host) {
      const bots = openSeats.length;
      action = el("button#start-btn.primary", {
        type: "button",
        text: bots ? `Start — bots take ${bots} empty seat${bots > 1 ? "s" : ""}` : "Start the match",
        onclick: () => this.send({ type: "start" }),
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
      el("p.muted", { text: rulesText(table) }),
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
        const got = await api(`/api/tables/${this.code}/join`, { method: "POST", body: { name: who, seat } });
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

  renderGame(state) {
    const { table, you, obs } = state;
    const n = table.seats.length;
    const me = you.seat;
    const base = me ?? 0;
    const myTurn = me !== null && obs.to_act === me && obs.legal.length > 0;

    const felt = el("div.felt", {});
    for (let offset = 0; offset < n; offset += 1) {
      const seat = (base + offset) % n;
      felt.append(this.seatPanel(state, seat, POSITIONS[offset]));
    }
    felt.append(this.trickView(state, base));

    const frag = [
      el("div.status-line", {}, el("span", { text: statusText(state, this) }),
        el("span.muted.small", { text: ` · table ${table.code}${table.spectators ? ` · ${table.spectators} watching` : ""}` })),
      felt,
      this.actionBar(state, myTurn),
      this.handView(state, myTurn),
    ];
    const side = el("aside.side", {}, this.scoreboard(state), el("details.invite-details", {},
      el("summary", { text: "Invite & rules" }), this.inviteBox(true), el("p.muted.small", { text: rulesText(table) })));
    clear(this.root).append(el("div.game", {}, el("div.play", {}, frag), side));
    this.overlays(state);
  }

  seatPanel(state, seat, position) {
    const { table, obs } = state;
    const info = table.seats[seat];
    const call = obs.calls[seat];
    const classes = [`seat`, `pos-${position}`];
    if (obs.to_act === seat) classes.push("turn");
    if (seat === state.you.seat) classes.push("me");
    const badges = [];
    if (obs.dealer === seat) badges.push(el("span.badge.dealer", { title: "dealer", text: "D" }));
    if (info.kind === "bot") badges.push(el("span.badge", { text: "bot" }));
    else if (info.bot_playing) badges.push(el("span.badge.warn", { text: "bot playing" }));
    else if (!info.connected) badges.push(el("span.badge.warn", { text: "offline" }));
    if (obs.declared_voids[seat]) badges.push(el("span.badge", { text: `void ${obs.declared_voids[seat].split("").map((s) => SUIT_SYMBOL[s]).join("")}` }));
    return el(`div.${classes.join(".")}`, { "data-seat": seat },
      el("div.seat-name", {}, this.name(seat), seat === state.you.seat ? el("span.you", { text: " (you)" }) : null),
      el("div.seat-stats", {},
        el("span", { class: "stat call", text: `call ${call ?? "–"}` }),
        el("span", { class: "stat won", text: `won ${obs.tricks_won[seat]}` })),
      el("div.badges", {}, badges));
  }

  trickView(state, base) {
    const { obs, last_trick: lastTrick, last } = state;
    const n = state.table.seats.length;
    const area = el("div.trick", { "aria-label": "cards on the table" });
    let trick = obs.trick;
    let done = false;
    if (!trick.cards.length && lastTrick && last && lastTrick.cards[lastTrick.cards.length - 1] === last.action) {
      trick = lastTrick;
      done = true;
    }
    trick.cards.forEach((card, i) => {
      const seat = (trick.leader + i) % n;
      const position = POSITIONS[(seat - base + n) % n];
      const wins = done && trick.winner === seat;
      area.append(cardEl(card, { class: `in-trick at-${position}${wins ? " winner" : ""}${done ? " done" : ""}` }));
    });
    if (done) area.append(el("div.trick-note", { text: `${this.name(trick.winner)} wins the trick` }));
    else if (obs.phase === "play" && !trick.cards.length) area.append(el("div.trick-note.muted", { text: `Trick ${obs.history.length + 1} of 13` }));
    return area;
  }

  actionBar(state, myTurn) {
    const { obs } = state;
    const bar = el("div.action-bar", {});
    if (!myTurn) return bar;
    if (obs.phase === "call") {
      bar.append(el("span.prompt", { text: "Your call:" }),
        el("div.calls", {}, obs.legal.map((value) => el("button.call", {
          type: "button", "data-call": value, text: value, onclick: (e) => this.act(value, e.currentTarget),
        }))));
    } else if (obs.phase === "misdeal") {
      bar.append(el("span.prompt", { text: "Your hand qualifies for a redeal. Show it and redeal?" }),
        el("button.primary", { type: "button", "data-answer": "true", text: "Redeal", onclick: (e) => this.act(true, e.currentTarget) }),
        el("button", { type: "button", "data-answer": "false", text: "Play on", onclick: (e) => this.act(false, e.currentTarget) }));
    } else if (obs.phase === "declare") {
      bar.append(el("span.prompt", { text: "Declare your void suits to the table?" }),
        el("button", { type: "button", "data-answer": "true", text: "Declare", onclick: (e) => this.act(true, e.currentTarget) }),
        el("button", { type: "button", "data-answer": "false", text: "Keep quiet", onclick: (e) => this.act(false, e.currentTarget) }));
    } else if (obs.phase === "play") {
      bar.append(el("span.prompt", { text: "Your turn: play one of the raised cards." }));
    }
    return bar;
  }

  handView(state, myTurn) {
    const { obs, you } = state;
    if (you.role === "spectator") return el("div.hand.empty", { text: "You are watching: hands stay hidden until the match is over." });
    const legal = new Set(myTurn && obs.phase === "play" ? obs.legal : []);
    const cards = [...obs.hand].sort((a, b) => SUIT_ORDER[a.slice(-1)] - SUIT_ORDER[b.slice(-1)]);
    const hand = el("div.hand", { "aria-label": "your hand" });
    for (const name of cards) {
      const playable = legal.has(name);
      const extra = { class: playable ? "legal" : myTurn && obs.phase === "play" ? "dim" : "" };
      if (playable) {
        extra.role = "button";
        extra.tabindex = "0";
        extra.onclick = (e) => this.act(name, e.currentTarget);
        extra.onkeydown = (e) => { if (e.key === "Enter" || e.key === " ") this.act(name, e.currentTarget); };
      }
      hand.append(cardEl(name, extra));
    }
    if (!cards.length) hand.append(el("span.muted", { text: "No cards in hand." }));
    return hand;
  }

  scoreboard(state) {
    const { table, obs, deals } = state;
    const n = table.seats.length;
    const head = el("tr", {}, el("th", { text: "Deal" }), table.seats.map((s) => el("th", { text: this.name(s.seat) })));
    const rows = deals.map((deal) => deal.void
      ? el("tr.void", {}, el("td", { text: deal.number }), el("td", { colspan: n, text: `thrown in: ${deal.void}` }))
      : el(`tr${deal.tie_break ? ".tie" : ""}`, {}, el("td", { text: deal.number + (deal.tie_break ? " (tie-break)" : "") }),
          deal.points.map((points, seat) => el("td", {},
            el("span", { class: points.startsWith("-") ? "neg" : "pos", text: points }),
            el("span.callwon", { text: `${deal.calls[seat]}/${deal.tricks[seat]}` })))));
    if (!state.result && obs && obs.phase !== "over" && obs.phase !== "void") {
      rows.push(el("tr.current", {}, el("td", { text: `${obs.deal_number ?? deals.length + 1} now` }),
        obs.calls.map((call, seat) => el("td.small", { text: `${call ?? "–"}/${obs.tricks_won[seat]}` }))));
    }
    const totals = (state.result && state.result.totals) || (deals.length ? deals[deals.length - 1].totals : Array(n).fill("0"));
    return el("section.scoreboard", {}, el("h3", { text: "Scores" }),
      el("div.scroll", {}, el("table.scores", {}, el("thead", {}, head), el("tbody", {}, rows),
        el("tfoot", {}, el("tr", {}, el("th", { text: "Total" }), totals.map((t) => el("th", { text: t })))))),
      el("p.muted.small", { text: "call/won, then points: call + 0.1 per extra trick, or −call." }));
  }

  overlays(state) {
    document.querySelectorAll(".overlay.match-result").forEach((node) => node.remove());
    const deals = state.deals;
    if (this.seenDeals === null) this.seenDeals = deals.length;
    if (state.result) {
      if (this.resultClosed) return;
      const winners = state.result.winners.map((s) => this.name(s)).join(" and ");
      document.querySelectorAll(".deal-result").forEach((node) => node.remove());
      document.body.append(el("div.overlay.match-result", { role: "dialog", "aria-label": "match result" }, el("div.panel.result", {},
        el("h2", { text: "Match over" }),
        el("p.big", { text: `${winners} ${state.result.winners.length > 1 ? "share the win" : "wins"}!` }),
        el("ol.plain", {}, state.table.seats.map((s) => el("li", {}, `${this.name(s.seat)}: `, el("strong", { text: state.result.totals[s.seat] })))),
        el("div.row", {},
          el("a#record-link.button.primary", { href: state.result.record_url, download: `callbreak-${this.code}.json`, text: "Download the record" }),
          el("a.button", { href: "/", text: "New table" }),
          el("button", { type: "button", text: "Close", onclick: () => { this.resultClosed = true; this.overlays(this.state); } })))));
      return;
    }
    if (deals.length > this.seenDeals) {
      const deal = deals[deals.length - 1];
      this.seenDeals = deals.length;
      const close = () => node.remove();
      const body = deal.void
        ? el("p", { text: `Deal ${deal.number} was thrown in (${deal.void}); the same dealer deals again.` })
        : el("table.scores", {},
            el("thead", {}, el("tr", {}, ["", "call", "won", "points", "total"].map((h) => el("th", { text: h })))),
            el("tbody", {}, state.table.seats.map((s) => el("tr", {}, el("td", { text: this.name(s.seat) }),
              el("td", { text: deal.calls[s.seat] }), el("td", { text: deal.tricks[s.seat] }),
              el("td", { text: deal.points[s.seat] }), el("td", { text: deal.totals[s.seat] })))));
      document.querySelectorAll(".deal-result").forEach((old) => old.remove());
      const node = el("div.deal-result.panel", { role: "status", "aria-label": "deal result" },
        el("h2", { text: `Deal ${deal.number} result` }), body,
        el("button", { type: "button", text: "Continue", onclick: close }));
      document.body.append(node);
      setTimeout(close, 6000);
    }
  }
}

function rulesText(table) {
  const changed = Object.entries(table.changed).map(([k, v]) => `${k}=${v}`).join(", ");
  return `${table.rules.preset}${changed ? ` (${changed})` : ""} · ${table.rules.match_deals} deal(s) · bots: ${table.level} · a dropped player's seat waits ${table.grace_s} s`;
}

function statusText(state, view) {
  const { obs, you, result } = state;
  if (result) return "The match is over.";
  const deal = `Deal ${obs.deal_number ?? state.deals.length + 1}${obs.counting_seats ? " (tie-break)" : ""}`;
  if (obs.to_act === null || obs.to_act === undefined) return deal;
  const who = obs.to_act === you.seat ? "you" : view.name(obs.to_act);
  const verb = { call: "call", play: "play", misdeal: "decide on a redeal", declare: "declare voids" }[obs.phase] || obs.phase;
  return obs.to_act === you.seat ? `${deal} · Your turn to ${verb}` : `${deal} · Waiting for ${who} to ${verb}…`;
}

"""Drawing the table from the person's observation: the top bar, the seats, the middle
(calls, what each seat said, the trick), the choice bar, the status line and the key bar.
"""

from __future__ import annotations

from functools import partial

from rich.console import RenderableType
from rich.table import Table
from rich.text import Text
from textual.widgets import Static

from callbreak.cards import SUIT_SYMBOLS, SUITS
from callbreak.decks import DECKS
from callbreak.engine import Observation, TrickView
from callbreak.faces import (
    CARD_PHASES,
    contract_words,
    deal_facts,
    is_number,
    phase_face,
    said,
    seat_facts,
    seat_places,
    trick_winner,
    turn_order,
)
from callbreak.tui.base import Drawn, TableScreen, TableState
from callbreak.tui.render import (
    render_said,
    render_trick,
)
from callbreak.tui.widgets import ChoiceBar, HandView, KeyBar


def _typed(view: Observation) -> tuple[str, str]:
    """Two cards as the person types them in the deck in force (``1r`` in the Rook deck)."""
    return ("1r", "14g") if DECKS[view.rules.shape.deck].has_rook else ("as", "td")


def _packed(parts: list[Text], joiner: str, width: int) -> list[Text]:
    """``parts`` on as few lines of at most ``width`` cells as they go, each line broken only
    between parts, so that "0 pts" is never split into "0" and "pts" (a part wider than the
    line gets a line of its own, for Textual to wrap)."""
    lines: list[Text] = []
    for part in parts:
        if not part.plain:
            continue
        if lines and lines[-1].cell_len + len(joiner) + part.cell_len <= width:
            lines[-1] = Text.assemble(lines[-1], joiner, part)
        else:
            lines.append(part.copy())
    return lines


def fit_seat(
    head: list[Text],
    facts: list[Text],
    total: Text,
    extra: list[Text],
    *,
    width: int,
    height: int,
) -> Text:
    """A seat's panel in ``width`` × ``height`` cells: the head (name and kind, "(dealer)"),
    its facts, its total, then its voids and "thinking…", each group on lines of its own.

    Where that is more lines than the panel holds (five to eight seats at 80×24 leave the
    seats three or four rows), the facts and the total share lines, then "thinking…"
    goes (the status line below says who is thinking), then "(dealer)" joins the facts,
    so that the name, the facts and the total are never cut off the bottom of the panel.
    """

    def lines(groups: list[tuple[list[Text], str]]) -> list[Text]:
        return [line for parts, joiner in groups for line in _packed(parts, joiner, width)]

    groups = [(head, " "), (facts, " · "), ([total], " · "), (extra, " ")]
    shown = lines(groups)
    if len(shown) > height:
        groups = [(head, " "), ([*facts, total], " · "), (extra, " ")]
        shown = lines(groups)
    if len(shown) > height:
        groups[-1] = (extra[:-1], " ")  # the status line says who is thinking
        shown = lines(groups)
    if len(shown) > height and len(head) > 1:  # "(dealer)" leads the facts
        groups[:2] = [(head[:1], " "), ([*head[1:], *facts, total], " · ")]
        shown = lines(groups)
    return Text("\n").join(shown)


class TableDrawing(TableState):
    """The table drawn from ``session.view()``: nothing here changes the game."""

    def redraw(self) -> None:
        """Draw the whole table from the person's observation."""
        try:
            table = self.table
        except LookupError:
            return
        session = self.session
        view = session.view()
        names = [session.seat_name(s) for s in range(session.players)]
        table.query_one("#topbar", Drawn).show(partial(self._topbar, view))
        _right, top, _left = seat_places(session.players)
        wide_places = {0} | (set(top) if len(top) == 1 else set())
        for seat in range(session.players):
            place = (seat - session.human) % session.players
            widget = table.query_one(f"#place-{place}", Static)
            size = widget.content_size
            text = self._seat_text(
                view, seat, wide=place in wide_places, width=size.width, height=size.height
            )
            widget.update(text, layout=False)
            widget.set_class(view.to_act == seat and not session.over, "turn")
            away = seat in view.dropped or bool(view.dealt_in and seat not in view.dealt_in)
            widget.set_class(away, "away")
        table.query_one("#trick", Drawn).show(partial(self._middle, view, names))
        self._draw_choices(table, view)
        hand = self._hand(view)
        picking = self.state == "human" and view.phase in CARD_PHASES
        legal = frozenset(str(c) for c in view.legal) & frozenset(hand)
        table.query_one(HandView).show(
            hand,
            legal if picking else None,
            min(self.cursor, len(hand) - 1) if picking and hand else None,
        )
        table.query_one("#status", Static).update(self._status(view), layout=False)
        message = table.query_one("#message", Static)
        message.update(self.message, layout=False)
        rows = 1 if len(self.message.plain) <= table.size.width - 2 else 2  # a long hint wraps
        if message.styles.height is None or message.styles.height.value != rows:
            message.styles.height = rows
        wanted = {self.message_kind} - {""}
        if set(message.classes) != wanted:
            message.set_classes(wanted)
        table.query_one(KeyBar).show(self._keys(view))

    def _topbar(self, view: Observation, width: int, height: int) -> RenderableType:
        session, rules = self.session, self.session.rules
        deals = f"/{rules.match_deals}" if rules.match_end == "deals" else ""
        if rules.shape.lowest_wins:
            deals = ""  # a countdown match runs until a score reaches 0
        deal = f"Deal {view.deal_number}{deals}" + (" · tie-break" if session.tie_break else "")
        game = f"{rules.title} · {rules.name}"
        if len(game) > 24:  # the preset's name only where it fits beside the title
            game = rules.title
        parts = [game, deal, f"dealer {session.seat_name(view.dealer)}"]
        if view.phase == "play":
            parts.append(f"trick {min(view.trick_number + 1, view.hand_size)}/{view.hand_size}")
        if rules.shape.lowest_wins:
            parts.append("lowest wins")
        if self.fast:
            parts.append("fast")
        if session.save_failure is not None:  # first: the one part never cut off
            parts.insert(0, "record NOT saved")
        grid = Table.grid(expand=True)
        grid.add_column(no_wrap=True, overflow="ellipsis")
        grid.add_column(justify="right", no_wrap=True)
        grid.add_row(Text(" " + " · ".join(parts), style="bold"), Text("? help ", style="dim"))
        return grid

    def _seat_text(
        self, view: Observation, seat: int, *, wide: bool, width: int = 0, height: int = 0
    ) -> Text:
        """A seat's panel: its name (and kind, dealer), its facts, its total, its declared voids
        and whether it is thinking, fitted to the panel's ``width`` × ``height`` where known."""
        session = self.session
        marker = "▶ " if view.to_act == seat and not session.over else ""
        name = session.seat_name(seat)
        kind = session.seat_kind(seat)
        who = Text.assemble(marker, (name, "bold"))
        if seat != session.human:
            who.append(f" · {kind}", style="italic")
        dealer = [Text("(dealer)")] if view.dealer == seat else []
        head = Text(" ").join([who, *dealer])
        facts = seat_facts(view, seat)
        if self.thinking == seat and view.phase == "call" and view.calls[seat] is None:
            facts[0] = f"{contract_words(view.game).word} …"
        total = view.totals[seat] if view.totals is not None else None
        total_text = f"total {total}" if total is not None else ""
        if view.counting_seats is not None and seat not in view.counting_seats:
            total_text += " (out of the tie-break)"
        voids = view.declared_voids[seat]
        void_text = "void " + "".join(SUIT_SYMBOLS[SUITS.index(s)] for s in voids) if voids else ""
        thinking = "thinking…" if self.thinking == seat else ""
        if wide:
            line = " · ".join(
                p for p in [*facts, total_text, f"{void_text} {thinking}".strip()] if p
            )
            return Text.assemble(head, "\n", line)
        if width <= 0:  # not laid out yet: one line a group, as Textual wraps it
            lines = [head, Text(" · ".join(facts)), Text(total_text)]
            if void_text or thinking:
                lines.append(Text(f"{void_text} {thinking}".strip()))
            return Text("\n").join(lines)
        return fit_seat(
            [who, *dealer],
            [Text(fact) for fact in facts],
            Text(total_text),
            [Text(void_text), Text(thinking)],
            width=width,
            height=height,
        )

    def _middle(
        self, view: Observation, names: list[str], width: int, height: int
    ) -> RenderableType:
        session = self.session
        players = session.players
        if view.phase in ("call", "misdeal", "declare"):
            order = turn_order(view)
            made = sum(c for c in view.calls if c is not None)
            rules = session.rules  # a minimum only where the game has the option (not Oh Hell)
            floor = rules.min_total_calls if "min_total_calls" in rules.shape.options else None
            calls = contract_words(view.game).plural
            footer = f"{calls} so far: {made}" + (f" (at least {floor} to play)" if floor else "")
            if view.phase == "misdeal":
                footer = "a hand without spades or honours may be thrown in"
            if view.phase == "declare":
                footer = "void suits may be declared to the table"
            # The height lets many seats go in two columns so that trump and the face-up
            # card (Oh Hell, Judgement) stay in sight at 80×24 while calling.
            return render_said(
                order,
                names,
                [said(view, seat) for seat in range(players)],
                to_act=view.to_act,
                title=f"Deal {view.deal_number} · {calls}",
                footer=footer,
                facts=deal_facts(view, names),
                height=height,
            )
        facts = deal_facts(view, names)
        if view.phase not in ("play", "over", "void"):
            return self._before_play(view, names, facts, height)
        playing = view.active or tuple(range(players))
        trick = view.trick
        if trick.cards:
            winning = trick_winner(view, trick)
            assert winning is not None
            title = f"Trick {view.trick_number + 1} · {names[trick.leader]} led"
            footer = f"{names[winning]} is winning"
            return render_trick(
                trick,
                players=players,
                human=session.human,
                winning=winning,
                width=width,
                height=height,
                title=title,
                footer=footer,
                facts=facts,
                playing=playing,
            )
        if view.history:
            last = view.history[-1]
            assert last.winner is not None
            title = f"Trick {len(view.history)} · {names[last.leader]} led"
            lead = names[view.to_act] if view.to_act is not None else ""
            footer = f"{names[last.winner]} won it"
            if not self.show_last and lead:
                footer += f" · {lead} to lead"
            return render_trick(
                last,
                players=players,
                human=session.human,
                winning=last.winner,
                width=width,
                height=height,
                title=title,
                footer=footer,
                facts=facts,
                playing=playing,
            )
        leader = names[view.to_act] if view.to_act is not None else ""
        empty = TrickView(view.dealer, (), None)
        return render_trick(
            empty,
            players=players,
            human=session.human,
            winning=None,
            width=width,
            height=height,
            title="Trick 1",
            footer=f"{leader} {'lead' if view.to_act == session.human else 'leads'}"
            if leader
            else "",
            facts=facts,
            playing=playing,
        )

    def _before_play(
        self, view: Observation, names: list[str], facts: str, height: int
    ) -> RenderableType:
        """The middle before the tricks: what each seat said this phase, the deal's facts."""
        players = self.session.players
        order = turn_order(view)
        shown = [said(view, seat) for seat in range(players)]
        title = f"Deal {view.deal_number} · {view.phase}"
        if view.phase == "auction":
            bids = [b for _, b in view.bids if b != "pass"]
            footer = f"high bid {max(map(int, bids))}" if bids else "no bid yet"
        elif view.to_act is not None:
            footer = f"{names[view.to_act]} to {phase_face(view.phase, view.game).verb}"
        else:
            footer = ""
        return render_said(
            order,
            names,
            shown,
            to_act=view.to_act,
            title=title,
            footer=footer,
            facts=facts,
            height=height,
        )

    def _draw_choices(self, table: TableScreen, view: Observation) -> None:
        bar = table.query_one(ChoiceBar)
        human = self.state == "human"
        described = phase_face(view.phase, view.game)
        if human and view.phase not in CARD_PHASES:
            options = described.options(view)
            if bar.options != options:
                start = next((i for i, (_, c) in enumerate(options) if c == 3), 0)
                bar.offer(described.prompt(view), options, start)
            return
        prompt = f"Your hand ({len(view.hand)})"
        if human:
            if view.phase != "play":
                prompt = described.prompt(view)
            else:
                prompt += " · solid cards are legal"
            if self.typed:
                prompt += f" · typed: {self.typed.upper()}_"
            options = described.options(view)
            bar.offer(prompt, options, bar.cursor if bar.options == options else 0)
            return
        if view.dealt_in and self.session.human not in view.dealt_in:
            prompt = "You are out of the game: the others play on"
        elif self.session.human in view.dropped:
            prompt = f"Your hand ({len(view.hand)}) · you sit this deal out"
        bar.offer(prompt, [])

    def _status(self, view: Observation) -> Text:
        session = self.session
        if session.over:
            return Text("The match is over.")
        if self.state == "human":
            if view.phase == "call":
                return Text(self._call_hint(view))
            return Text(
                phase_face(view.phase, view.game).keys_hint.format(typed=", ".join(_typed(view)))
            )
        if self.state == "pause":
            return Text("space: go on" + ("" if self.fast else " · f: fast"), style="dim")
        if self.thinking is not None:
            return Text(f"{session.seat_name(self.thinking)} is thinking…", style="italic")
        return Text("")

    def _call_hint(self, view: Observation) -> str:
        """How to call: the arrows, the number typed so far, and the keys of the words that
        answer now (a Spades seat bids blind nil or looks at its cards before any number)."""
        described = phase_face(view.phase, view.game)
        typed = f" (typed {self.typed})" if self.typed else ""
        ways = ["← → and Enter"]
        if any(is_number(action) for action in view.legal):
            ways.append("type the number")
        ways += [f"{w.key} {w.told[0]}" for w in described.words if w.action in view.legal]
        return f"Your {described.verb}{typed}: {', '.join(ways)}, or click it"

    def _keys(self, view: Observation) -> list[tuple[str, str, str]]:
        keys: list[tuple[str, str, str]] = []
        if self.state == "modal":
            # A result or the match's end is over the table and takes every key but Ctrl-C:
            # only that is offered (the result shows the last trick and the totals itself).
            return [("^C", "quit", "quit")]
        if self.state == "human":
            if view.phase == "play":
                keys += [("←→⏎", "play", "enter"), (_typed(view)[0], "type", "enter")]
            elif view.phase in CARD_PHASES:
                keys += [("←→⏎", "throw" if view.phase == "exchange" else "lay away", "enter")]
                keys += [
                    (k, str(v), f"key:{k}")
                    for k, v in phase_face(view.phase, view.game).keys.items()
                ]
            else:
                keys += [("←→⏎", "choose", "enter")]
            keys.append(("i", "hint", "hint"))
        else:
            keys += [("␣", "go on", "skip"), ("f", "fast" if not self.fast else "wait", "fast")]
        keys += [
            ("l", "last trick", "last"),
            ("p", "scores", "scores"),
            ("?", "help", "help"),
            ("^C", "quit", "quit"),
        ]
        return keys

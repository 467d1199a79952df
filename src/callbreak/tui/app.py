"""``callbreak play``: the Call Break table as a Textual app.

The app is a loop over one ``Session``: after every action it redraws the
table from the person's ``Observation``, then either waits for the person
(keys or mouse), or asks the bot to act in a worker thread — so a thinking bot
never freezes the screen — and shows its card for ``pause`` seconds before
going on.  Finished deals, the match summary, help and the scoresheet are
modal screens over the table.  A generation counter drops the answer of a
worker that belongs to a match the person has already left.
"""

from __future__ import annotations

from functools import partial
from typing import Any, ClassVar

from rich.align import Align
from rich.console import RenderableType
from rich.table import Table
from rich.text import Text
from textual import events
from textual.app import App, ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.screen import Screen
from textual.timer import Timer
from textual.widget import Widget
from textual.widgets import Static

from callbreak.cards import CARD_NAMES, SUIT_SYMBOLS, SUITS, parse_card
from callbreak.engine import Action, IllegalAction, Observation, TrickView
from callbreak.engine.deal import misdeal_reason
from callbreak.engine.tricks import trick_winner_offset
from callbreak.tui.advice import explain
from callbreak.tui.render import (
    chip,
    deal_table,
    face,
    render_calls,
    render_trick,
    rules_summary,
    rules_table,
    scoresheet,
    sort_hand,
)
from callbreak.tui.screens import ChoiceScreen, InfoScreen
from callbreak.tui.session import DealResult, Session
from callbreak.tui.widgets import ChoiceBar, HandView, KeyBar

RANK_KEYS = "23456789tjqka1"
"""Keys that start typing a card (``1`` for ``10`` or the Bhoos ace)."""
SUIT_KEYS = "shdc"

KEYS_HELP: tuple[tuple[str, str], ...] = (
    ("← →", "move along your cards (or the calls); ↑ ↓ jump to the next legal card"),
    ("Enter", "play the card under the cursor (or make the call)"),
    ("as, td, 10h", "type a card: rank then suit (t or 10 is the ten, 1 also the ace)"),
    ("s h d c", "on their own: jump to that suit"),
    ("1–13", "type your call, then Enter"),
    ("y / n", "claim a misdeal (or declare voids) / play on"),
    ("mouse", "click a card, a call, a button, or a key below"),
    ("i", "hint: the expert's choice and why"),
    ("l", "the last trick"),
    ("p", "the scoresheet: every deal's calls, tricks and points"),
    ("space", "go on now instead of waiting after a bot's card"),
    ("f", "fast: no waiting after bots' cards (press again to wait)"),
    ("Esc", "clear what you typed"),
    ("?", "this help"),
    ("Ctrl-C", "leave (asks first; the record, if any, is kept)"),
)


class Drawn(Widget):
    """A widget whose picture is drawn at its current size by a function (redrawn on resize)."""

    def __init__(self, *, id: str | None = None, centred: bool = False) -> None:
        super().__init__(id=id)
        self.draw: Any = lambda width, height: Text("")
        self.centred = centred

    def show(self, draw: Any) -> None:
        self.draw = draw
        self.refresh()

    def render(self) -> RenderableType:
        size = self.content_size
        picture: RenderableType = self.draw(size.width, size.height)
        return Align.center(picture, vertical="middle") if self.centred else picture


class TableScreen(Screen[None]):
    """The table: seats around, the trick in the middle, the hand along the bottom."""

    def compose(self) -> ComposeResult:
        yield Drawn(id="topbar")
        with Vertical(id="table"):
            yield Static(id="north", classes="seat")
            with Horizontal(id="middle"):
                yield Static(id="west", classes="seat side")
                yield Drawn(id="trick", centred=True)
                yield Static(id="east", classes="seat side")
            yield Static(id="south", classes="seat")
        yield ChoiceBar(id="choices")
        yield HandView(id="hand")
        yield Static(id="status")
        yield Static(id="message")
        yield KeyBar(id="keys")

    def on_key(self, event: events.Key) -> None:
        app = self.app
        assert isinstance(app, CallBreakApp)
        if app.table_key(event.key, event.character):
            event.stop()
            event.prevent_default()

    def on_hand_view_picked(self, message: HandView.Picked) -> None:
        app = self.app
        assert isinstance(app, CallBreakApp)
        app.play(message.card)

    def on_choice_bar_chosen(self, message: ChoiceBar.Chosen) -> None:
        app = self.app
        assert isinstance(app, CallBreakApp)
        app.choose(message.value)

    def on_key_bar_pressed(self, message: KeyBar.Pressed) -> None:
        app = self.app
        assert isinstance(app, CallBreakApp)
        app.press(message.action)

    def on_click(self, event: events.Click) -> None:
        """A click on the table itself (not a card or a choice) skips the pause."""
        app = self.app
        assert isinstance(app, CallBreakApp)
        if app.state == "pause":
            app.skip()


class CallBreakApp(App[None]):
    """A match against three bots: see the module docstring for the loop."""

    TITLE = "Call Break"
    ENABLE_COMMAND_PALETTE = False
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("ctrl+c", "request_quit", "Quit", priority=True, show=False),
        Binding("ctrl+q", "request_quit", "Quit", priority=True, show=False),
    ]
    CSS = """
    Screen { layout: vertical; }
    #topbar { height: 1; background: $primary-background; }
    #table {
        height: 1fr; min-height: 9;
        border: round $primary; background: #0f3b24; color: #e8f0e8;
    }
    #north, #south { height: 2; width: 1fr; text-align: center; content-align: center middle; }
    #middle { height: 1fr; }
    #west, #east { width: 1fr; height: 1fr; text-align: center; content-align: center middle; }
    #trick { width: 2fr; height: 1fr; content-align: center middle; }
    .seat.turn { background: #2f6f4a; text-style: bold; }
    #choices { height: 1; margin: 0 1; }
    #hand { height: 4; }
    #status { height: 1; padding: 0 1; text-style: bold; }
    #message { height: 1; padding: 0 1; }
    #message.refused { color: $error; text-style: bold; }
    #message.hint { color: $accent; text-style: bold; }
    """

    def __init__(self, session: Session, *, pause: float = 0.6, notice: str = "") -> None:
        super().__init__()
        self.session = session
        self.pause = max(0.0, pause)
        self.fast = False
        self.state = "idle"
        """idle | human | bot | pause | modal: what the table is waiting for."""
        self.generation = 0
        self.actions = 0
        self.cursor = 0
        self.typed = ""
        self.message: Text = Text(notice)
        self.message_kind = "hint" if notice else ""
        self.show_last = False
        self.thinking: int | None = None
        self._timer: Timer | None = None
        self._seen_entries = session.finished_deals
        self._hint_busy = False
        self._held = False
        self._pending_step = False

    # ----------------------------------------------------------------- set-up
    def on_mount(self) -> None:
        self.push_screen(TableScreen())
        self.call_later(self.step)

    @property
    def table(self) -> TableScreen:
        for screen in self.screen_stack:
            if isinstance(screen, TableScreen):
                return screen
        raise LookupError("the table screen is not mounted")

    # --------------------------------------------------------------- the loop
    def step(self) -> None:
        """Decide what happens next: a result to show, the person's turn, or a bot's."""
        self._timer = None
        session = self.session
        if self._held:
            self._pending_step = True
            return
        if self.state in ("bot", "modal"):
            return
        if session.finished_deals > self._seen_entries:
            fresh = session.results()[self._seen_entries :]
            self._seen_entries = session.finished_deals
            self.show_last = False
            self._show_results(fresh)
            return
        if session.over:
            self._show_summary()
            return
        seat = session.to_act
        assert seat is not None
        if seat == session.human:
            self.state = "human"
            self.thinking = None
            self._start_turn()
            self.redraw()
            return
        self.state = "bot"
        self.thinking = seat
        self.redraw()
        observation = session.bot_view(seat)
        self.run_worker(
            partial(self._bot_work, self.generation, seat, observation),
            thread=True,
            group="bot",
            exit_on_error=False,
        )

    def _bot_work(self, generation: int, seat: int, observation: Observation) -> None:
        """In a worker thread: the bot thinks; its answer is applied on the main thread."""
        try:
            action: Action | Exception = self.session.decide(seat, observation)
        except Exception as error:  # a broken bot must not take the table down
            action = error
        self.call_from_thread(self._bot_done, generation, seat, observation, action)

    def _bot_done(
        self, generation: int, seat: int, observation: Observation, answer: Action | Exception
    ) -> None:
        """Apply a bot's answer on the main thread and say what it did.

        ``observation`` is the bot's own and is used only to fall back on a legal
        action; what the screen says comes from the person's view, and a refused
        answer is never explained (the engine's reason would name the bot's cards).
        """
        if generation != self.generation or self.state != "bot":
            return
        self.state = "idle"
        self.thinking = None
        name = self.session.seat_name(seat)
        seen = self.session.view()
        note = ""
        action: Action = observation.legal[0]
        if isinstance(answer, Exception):
            note = " (its bot failed; it made the first legal choice)"
        else:
            action = answer
        tricks_before = self._progress()
        try:
            self.session.apply_bot(seat, action)
        except IllegalAction:
            note = " (its bot's answer was refused; it made the first legal choice)"
            action = observation.legal[0]
            self.session.apply_bot(seat, action)
        self.actions += 1
        self._set_message(self._describe(name, seen, action) + note, "")
        completed = self._progress() != tricks_before
        delay = self.pause * (2 if completed else 1)
        self.show_last = completed
        self._advance(delay if seen.phase in ("call", "play", "misdeal") else 0)

    def _advance(self, delay: float) -> None:
        """Go on after ``delay`` seconds (0, or fast mode: at once); space or a click skips."""
        self.redraw()
        if self._timer is not None:
            self._timer.stop()
            self._timer = None
        if delay > 0 and not self.fast and not self._deal_just_ended():
            self.state = "pause"
            self._timer = self.set_timer(delay, self._after_pause)
        else:
            self.state = "idle"
            self.call_later(self.step)

    def _after_pause(self) -> None:
        if self.state == "pause":
            self.state = "idle"
            self.step()

    def skip(self) -> None:
        """Go on now instead of waiting for the end of the pause."""
        if self.state == "pause":
            if self._timer is not None:
                self._timer.stop()
                self._timer = None
            self.state = "idle"
            self.step()

    def _deal_just_ended(self) -> bool:
        """A deal was settled: its result screen follows at once (it shows the last trick)."""
        return self.session.finished_deals > self._seen_entries

    def _progress(self) -> tuple[int, int]:
        """Deals settled and tricks completed: public counts that say a trick just ended."""
        view = self.session.view()
        return (self.session.finished_deals, len(view.history))

    # -------------------------------------------------------- the person acts
    def _start_turn(self) -> None:
        """Put the cursor somewhere useful when the person's turn begins."""
        view = self.session.view()
        self.typed = ""
        if view.phase == "play":
            hand = sort_hand(view.hand)
            legal = set(view.legal)
            if not hand:
                return
            self.cursor = min(self.cursor, len(hand) - 1)
            if hand[self.cursor] not in legal:
                self.cursor = next(i for i, c in enumerate(hand) if c in legal)

    def act(self, action: Action) -> bool:
        """The person's action: applied, or refused with the rule's explanation."""
        if self.state != "human":
            return False
        view = self.session.view()
        before = self._progress()
        try:
            self.session.act(action)
        except IllegalAction as error:
            self._set_message(str(error), "refused")
            self.typed = ""
            self.redraw()
            return False
        self.actions += 1
        self.typed = ""
        self._set_message(self._describe(self.session.name, view, action), "")
        completed = self._progress() != before
        self.show_last = completed
        self.state = "idle"
        self._advance(self.pause * 2 if completed else 0)
        return True

    def play(self, card: str) -> None:
        """A card chosen by click, Enter or typing."""
        view = self.session.view()
        if self.state == "human" and view.phase == "play":
            self.act(card)
        elif self.state == "pause":
            self.skip()

    def choose(self, value: Any) -> None:
        """An option of the choice bar (a call, a yes/no answer)."""
        view = self.session.view()
        if self.state == "human" and view.phase in ("call", "misdeal", "declare"):
            self.act(value)

    def press(self, action: str) -> None:
        """A key's action, from the keyboard or a click on the key bar."""
        if action == "help":
            self.show_help()
        elif action == "hint":
            self.hint()
        elif action == "last":
            self.show_last_trick()
        elif action == "scores":
            self.show_scores()
        elif action == "skip":
            self.skip()
        elif action == "fast":
            self.fast = not self.fast
            self._set_message("Fast: bots' cards no longer wait." if self.fast else "", "hint")
            if self.fast:
                self.skip()
            self.redraw()
        elif action == "enter":
            self._enter()
        elif action == "quit":
            self.action_request_quit()

    def table_key(self, key: str, character: str | None) -> bool:
        """Keys on the table; True when the key was used."""
        char = (character or "").lower() if character and character.isprintable() else ""
        named = {
            "?": "help",
            "i": "hint",
            "l": "last",
            "p": "scores",
            "f": "fast",
        }
        if key == "f1" or char in named:
            self.press("help" if key == "f1" else named[char])
            return True
        if key in ("space", "enter") and self.state == "pause":
            self.skip()
            return True
        if self.state != "human":
            return False
        view = self.session.view()
        if key == "escape":
            self.typed = ""
            self._set_message("", "")
            self.redraw()
            return True
        if key == "enter":
            self._enter()
            return True
        if view.phase == "play":
            return self._play_key(view, key, char)
        if view.phase == "call":
            return self._call_key(view, key, char)
        if view.phase in ("misdeal", "declare"):
            bar = self.table.query_one(ChoiceBar)
            if key in ("left", "right", "tab", "shift+tab"):
                bar.move(-1 if key in ("left", "shift+tab") else 1)
                return True
            if char in ("y", "n"):
                self.act(char == "y")
                return True
        return False

    def _enter(self) -> None:
        if self.state == "pause":
            self.skip()
            return
        if self.state != "human":
            return
        view = self.session.view()
        if view.phase == "play":
            hand = sort_hand(view.hand)
            if hand:
                self.act(hand[min(self.cursor, len(hand) - 1)])
        else:
            bar = self.table.query_one(ChoiceBar)
            if bar.active:
                self.act(bar.value)

    def _play_key(self, view: Observation, key: str, char: str) -> bool:
        hand = sort_hand(view.hand)
        legal = [i for i, c in enumerate(hand) if c in set(view.legal)]
        if key in ("left", "right"):
            self.cursor = (self.cursor + (1 if key == "right" else -1)) % len(hand)
        elif key in ("up", "down") and legal:
            step = 1 if key == "up" else -1
            ahead = [i for i in legal if (i - self.cursor) * step > 0]
            if ahead:
                self.cursor = min(ahead) if step > 0 else max(ahead)
            else:
                self.cursor = legal[0] if step > 0 else legal[-1]
        elif key == "home":
            self.cursor = 0
        elif key == "end":
            self.cursor = len(hand) - 1
        elif key == "backspace":
            self.typed = self.typed[:-1]
        elif char and char in SUIT_KEYS and self.typed:
            typed, self.typed = self.typed + char, ""
            try:
                card = CARD_NAMES[parse_card(typed)]
            except ValueError:
                self._set_message(f"{typed} is not a card: type rank then suit, e.g. as, td", "")
                self.redraw()
                return True
            if card in hand:
                self.cursor = hand.index(card)
            self.act(card)
            return True
        elif char and char in SUIT_KEYS:
            suit = char.upper()
            in_suit = [i for i, c in enumerate(hand) if c[-1] == suit]
            if in_suit:
                legal_in_suit = [i for i in in_suit if i in legal]
                self.cursor = (legal_in_suit or in_suit)[0]
            else:
                name = ("spades", "hearts", "diamonds", "clubs")[SUITS.index(suit)]
                self._set_message(f"You hold no {name}.", "")
        elif char == "0" and self.typed == "1":
            self.typed = "10"
        elif char and char in RANK_KEYS:
            self.typed = char
        else:
            return False
        self.redraw()
        return True

    def _call_key(self, view: Observation, key: str, char: str) -> bool:
        bar = self.table.query_one(ChoiceBar)
        if key in ("left", "right", "tab", "shift+tab"):
            bar.move(-1 if key in ("left", "shift+tab") else 1)
            self.typed = ""
        elif key == "home":
            bar.cursor = 0
        elif key == "end":
            bar.cursor = len(bar.options) - 1
        elif char.isdigit():
            typed = self.typed + char
            if not bar.select(int(typed)):
                typed = char
                bar.select(int(typed))
            self.typed = typed
        elif key == "backspace":
            self.typed = self.typed[:-1]
        else:
            return False
        self.redraw()
        return True

    # ---------------------------------------------------------------- hints
    def hint(self) -> None:
        """Ask the hint bot (the expert if there is one) in a worker; show its choice and why."""
        if self.state != "human" or self._hint_busy:
            if self.state != "human":
                self._set_message("A hint is for your own turn.", "hint")
                self.redraw()
            return
        view = self.session.view()
        self._hint_busy = True
        self._set_message("Thinking about a hint…", "hint")
        self.redraw()
        self.run_worker(
            partial(self._hint_work, (self.generation, self.actions), view),
            thread=True,
            group="hint",
            exit_on_error=False,
        )

    def _hint_work(self, token: tuple[int, int], view: Observation) -> None:
        try:
            action: Action = self.session.hint(view)
            reason = explain(view, action)
        except Exception as error:
            self.call_from_thread(self._hint_failed, str(error))
            return
        self.call_from_thread(self._hint_done, token, view, action, reason)

    def _hint_failed(self, error: str) -> None:
        self._hint_busy = False
        self._set_message(f"No hint this time: {error}", "refused")
        self.redraw()

    def _hint_done(
        self, token: tuple[int, int], view: Observation, action: Action, reason: str
    ) -> None:
        self._hint_busy = False
        if token != (self.generation, self.actions) or self.state != "human":
            return
        if view.phase == "play":
            card = str(action)
            hand = sort_hand(view.hand)
            if card in hand:
                self.cursor = hand.index(card)
            what = face(card)
        elif view.phase == "call":
            self.table.query_one(ChoiceBar).select(action)
            what = f"call {action}"
        elif view.phase == "misdeal":
            what = "claim a redeal" if action else "play on"
            self.table.query_one(ChoiceBar).select(action)
        else:
            what = "declare" if action else "keep your voids quiet"
            self.table.query_one(ChoiceBar).select(action)
        self._set_message(f"Hint: {what} — {reason}", "hint")
        self.redraw()

    # ------------------------------------------------------------- messages
    def _set_message(self, text: str, kind: str) -> None:
        self.message = Text(text)
        self.message_kind = kind

    def _describe(self, name: str, view: Observation, action: Action) -> str:
        """One line on what a seat just did, from what everyone saw ("You play", "East plays")."""

        def says(base: str, third: str) -> str:
            return f"{name} {base if name == 'You' else third}"

        if view.phase == "call":
            return says("call", "calls") + f" {action}."
        if view.phase == "misdeal":
            return (
                (says("claim", "claims") + " a misdeal.")
                if action
                else says("play", "plays") + " on."
            )
        if view.phase == "declare":
            return says("declare", "declares") + (" a void." if action else " nothing.")
        if view.phase == "play":
            line = says("play", "plays") + f" {face(str(action))}."
            after = self.session.view()
            if after.history and len(after.history) > len(view.history):
                last = after.history[-1]
                assert last.winner is not None
                line += f" {self.session.seat_name(last.winner)} won the trick."
            return line
        return ""

    # ------------------------------------------------------------- drawing
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
        places = {0: "#south", 1: "#east", 2: "#north", 3: "#west"}
        for seat in range(session.players):
            place = (seat - session.human) % session.players
            widget = table.query_one(places[place], Static)
            widget.update(self._seat_text(view, seat, wide=place in (0, 2)), layout=False)
            widget.set_class(view.to_act == seat and not session.over, "turn")
        table.query_one("#trick", Drawn).show(partial(self._middle, view, names))
        self._draw_choices(table, view)
        hand = sort_hand(view.hand)
        playing = self.state == "human" and view.phase == "play"
        table.query_one(HandView).show(
            hand,
            frozenset(str(c) for c in view.legal) if playing else None,
            min(self.cursor, len(hand) - 1) if playing and hand else None,
        )
        table.query_one("#status", Static).update(self._status(view), layout=False)
        message = table.query_one("#message", Static)
        message.update(self.message, layout=False)
        wanted = {self.message_kind} - {""}
        if set(message.classes) != wanted:
            message.set_classes(wanted)
        table.query_one(KeyBar).show(self._keys(view))

    def _topbar(self, view: Observation, width: int, height: int) -> RenderableType:
        session, rules = self.session, self.session.rules
        deals = f"/{rules.match_deals}" if rules.match_end == "deals" else ""
        deal = f"Deal {view.deal_number}{deals}" + (" · tie-break" if session.tie_break else "")
        parts = [f"Call Break · {rules.name}", deal, f"dealer {session.seat_name(view.dealer)}"]
        if view.phase == "play":
            parts.append(f"trick {min(view.trick_number + 1, rules.hand_size)}/{rules.hand_size}")
        if self.fast:
            parts.append("fast")
        grid = Table.grid(expand=True)
        grid.add_column(no_wrap=True, overflow="ellipsis")
        grid.add_column(justify="right", no_wrap=True)
        grid.add_row(Text(" " + " · ".join(parts), style="bold"), Text("? help ", style="dim"))
        return grid

    def _seat_text(self, view: Observation, seat: int, *, wide: bool) -> Text:
        session = self.session
        marker = "▶ " if view.to_act == seat and not session.over else ""
        name = session.seat_name(seat)
        kind = session.seat_kind(seat)
        head = Text.assemble(marker, (name, "bold"))
        if seat != session.human:
            head.append(f" · {kind}", style="italic")
        if view.dealer == seat:
            head.append(" (dealer)")
        call = view.calls[seat]
        if call is None:
            shown = "…" if self.thinking == seat and view.phase == "call" else "–"
        else:
            shown = str(call)
        facts = [f"call {shown}", f"won {view.tricks_won[seat]}"]
        total = view.totals[seat] if view.totals is not None else None
        total_text = f"total {total}" if total is not None else ""
        if view.counting_seats is not None and seat not in view.counting_seats:
            total_text += " (out of the tie-break)"
        voids = view.declared_voids[seat]
        void_text = "void " + "".join(SUIT_SYMBOLS[SUITS.index(s)] for s in voids) if voids else ""
        if self.thinking == seat:
            void_text = (void_text + " thinking…").strip()
        if wide:
            line = " · ".join(p for p in [*facts, total_text, void_text] if p)
            return Text.assemble(head, "\n", line)
        lines = [head, Text(" · ".join(facts)), Text(total_text)]
        if void_text:
            lines.append(Text(void_text))
        return Text("\n").join(lines)

    def _middle(
        self, view: Observation, names: list[str], width: int, height: int
    ) -> RenderableType:
        session = self.session
        players = session.players
        if view.phase in ("call", "misdeal", "declare"):
            order = [(view.dealer + 1 + i) % players for i in range(players)]
            made = sum(c for c in view.calls if c is not None)
            floor = session.rules.min_total_calls
            footer = f"calls so far: {made}" + (f" (at least {floor} to play)" if floor else "")
            if view.phase == "misdeal":
                footer = "a hand without spades or honours may be thrown in"
            if view.phase == "declare":
                footer = "void suits may be declared to the table"
            title = f"Deal {view.deal_number} · calls"
            return render_calls(
                order, names, view.calls, to_act=view.to_act, title=title, footer=footer
            )
        trick = view.trick
        if trick.cards:
            cards = [parse_card(c) for c in trick.cards]
            winning = trick.seats(players)[trick_winner_offset(cards, session.rules.trump_suit)]
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
            footer=f"{leader} leads" if leader else "",
        )

    def _draw_choices(self, table: TableScreen, view: Observation) -> None:
        bar = table.query_one(ChoiceBar)
        human = self.state == "human"
        if human and view.phase == "call":
            options = [(str(c), c) for c in view.legal]
            if bar.options != options:
                start = next((i for i, (_, c) in enumerate(options) if c == 3), 0)
                bar.offer("Your call:", options, start)
            return
        if human and view.phase == "misdeal":
            reason = misdeal_reason(view.rules, view.hand_mask) or "a weak hand"
            options = [("Claim a redeal (y)", True), ("Play on (n)", False)]
            if bar.options != options:
                bar.offer(f"Misdeal? Your hand has {reason}:", options)
            return
        if human and view.phase == "declare":
            options = [("Declare (y)", True), ("Keep quiet (n)", False)]
            if bar.options != options:
                bar.offer("Declare your void suits?", options)
            return
        prompt = f"Your hand ({len(view.hand)})"
        if human and view.phase == "play":
            prompt += " · solid cards are legal"
            if self.typed:
                prompt += f" · typed: {self.typed.upper()}_"
        bar.offer(prompt, [])

    def _status(self, view: Observation) -> Text:
        session = self.session
        if session.over:
            return Text("The match is over.")
        if self.state == "human":
            if view.phase == "call":
                typed = f" (typed {self.typed})" if self.typed else ""
                return Text(f"Your call{typed}: ← → and Enter, type the number, or click it")
            if view.phase == "misdeal":
                return Text("Your hand qualifies for a misdeal: y claims a redeal, n plays on")
            if view.phase == "declare":
                return Text("You hold a void: y declares it to the table, n keeps it quiet")
            return Text("Your turn: ← → and Enter, type a card (as, td), or click one")
        if self.state == "pause":
            return Text("space: go on" + ("" if self.fast else " · f: fast"), style="dim")
        if self.thinking is not None:
            return Text(f"{session.seat_name(self.thinking)} is thinking…", style="italic")
        return Text("")

    def _keys(self, view: Observation) -> list[tuple[str, str, str]]:
        keys: list[tuple[str, str, str]] = []
        if self.state == "modal":
            pass
        elif self.state == "human":
            if view.phase == "play":
                keys += [("←→⏎", "play", "enter"), ("as", "type", "enter")]
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

    # --------------------------------------------------------------- screens
    def _modal(self, screen: Screen[Any], callback: Any) -> None:
        """A screen the loop stops for (a result, the summary); ``callback`` takes its answer."""
        self.state = "modal"
        self.redraw()

        def done(answer: Any) -> None:
            self.state = "idle"
            callback(answer)

        self.push_screen(screen, done)

    def _show_results(self, results: list[DealResult]) -> None:
        session = self.session
        names = [session.seat_name(s) for s in range(session.players)]
        body: list[RenderableType] = []
        scored = [r for r in results if r.points is not None]
        for result in results:
            if result.void_reason is not None:
                body.append(
                    Text(
                        f"Deal {result.number} thrown in: {result.void_reason}. "
                        "The same dealer deals again.",
                        style="bold",
                    )
                )
                made = [f"{names[s]} {c}" for s, c in enumerate(result.calls) if c is not None]
                if made:
                    body.append(Text("Calls: " + ", ".join(made)))
        for result in scored:
            body.append(deal_table(result, names))
            body.append(self._verdict(result))
        last = self._finished_last_trick() if scored else None
        if last is not None:
            body.append(last)
        choices: list[tuple[str, Any]] = []
        if session.over:
            choices.append(("See the match result", "next"))
        else:
            choices.append(("Next deal", "next"))
            if session.can_finish:
                choices.append(("End the match here", "finish"))
        title = f"Deal {scored[-1].number} result" if scored else "Deal thrown in"
        if scored and scored[-1].tie_break:
            title += " (tie-break)"

        def answered(answer: Any) -> None:
            if answer == "finish":
                session.finish()
                if not session.over:
                    self._set_message("Tie at the top: a tie-break deal follows.", "hint")
            else:
                self._set_message("", "")
            self.step()

        self._modal(
            ChoiceScreen(
                title, body, choices, shortcuts={"e": "finish"} if len(choices) > 1 else {}
            ),
            answered,
        )

    def _verdict(self, result: DealResult) -> Text:
        """How the person's own call went, in words."""
        session = self.session
        me = session.human
        call, won = result.calls[me], result.tricks[me]
        points = result.points[me] if result.points else None
        if call is None or points is None:
            return Text("")
        made = session.rules.success(call, won)
        if made:
            return Text(f"You called {call} and won {won}: {points} points.", style="bold")
        return Text(f"You called {call} but won {won}: {points} points.", style="bold")

    def _finished_last_trick(self) -> Text | None:
        """The last trick of the deal that just ended, for its result screen."""
        trick = self.session.last_trick_of_finished_deal()
        if trick is None:
            return None
        return self._trick_line("Last trick:", trick)

    def _trick_line(self, label: str, trick: TrickView) -> Text:
        players = self.session.players
        line = Text(label + " ")
        for seat, card in zip(trick.seats(players), trick.cards, strict=True):
            line.append(f"{self.session.seat_name(seat)} ")
            line.append_text(chip(card, pad=0))
            line.append("  ")
        if trick.winner is not None:
            line.append(f"→ {self.session.seat_name(trick.winner)} won it", style="bold")
        return line

    def _show_summary(self) -> None:
        session = self.session
        names = [session.seat_name(s) for s in range(session.players)]
        winners = session.winners
        sheet = scoresheet(session.results(), names, session.totals, winners=winners)
        who = " and ".join(names[w] for w in winners)
        best = session.totals[winners[0]] if winners else None
        if winners == [session.human]:
            verdict = f"You win the match with {best}!"
        elif len(winners) > 1:
            verdict = f"{who} share the win with {best}."
        else:
            verdict = f"{who} wins the match with {best}."
        body: list[RenderableType] = [sheet, Text(verdict, style="bold")]
        if session.record is not None:
            body.append(Text(f"Record: {session.record}", style="dim"))

        def answered(answer: Any) -> None:
            if answer == "new":
                self.new_match()
            else:
                self.exit()

        self._modal(
            ChoiceScreen(
                "Match over",
                body,
                [("New match (n)", "new"), ("Quit (x)", "quit")],
                shortcuts={"n": "new", "x": "quit"},
                cancel="quit",
            ),
            answered,
        )

    def new_match(self) -> None:
        """A fresh match with the same rules and bots; answers of old workers are dropped."""
        self.generation += 1
        self.session = self.session.next_match()
        self.session.save()
        self._seen_entries = 0
        self.cursor = 0
        self.show_last = False
        self._set_message("A new match: good luck.", "hint")
        self.state = "idle"
        self.step()

    def show_help(self) -> None:
        rules = self.session.rules
        keys = Table.grid(padding=(0, 2))
        keys.add_column(no_wrap=True, style="bold")
        keys.add_column()
        for key, meaning in KEYS_HELP:
            keys.add_row(key, meaning)
        changed = rules.changed()
        heading = f"Rules: {rules.name}" + (
            " with " + ", ".join(f"{k}={v}" for k, v in changed.items()) if changed else ""
        )
        body: list[RenderableType] = [
            Text("Keys", style="bold underline"),
            keys,
            Text(""),
            Text(heading, style="bold underline"),
            Text(rules_summary(rules)),
            Text(""),
            rules_table(rules),
        ]
        self._info("Help", body, close_keys=("?", "question_mark"))

    def show_scores(self) -> None:
        session = self.session
        names = [session.seat_name(s) for s in range(session.players)]
        body: list[RenderableType] = [scoresheet(session.results(), names, session.totals)]
        if not session.results():
            body.append(Text("No deal finished yet.", style="dim"))
        body.append(
            Text("Each cell: called/won, then the points; Σ is the running total.", style="dim")
        )
        self._info("Scoresheet", body, close_keys=("p",))

    def show_last_trick(self) -> None:
        view = self.session.view()
        if view.history:
            trick = view.history[-1]
        else:
            found = self.session.last_trick_of_finished_deal()
            if found is None:
                self._set_message("No trick has been played yet.", "")
                self.redraw()
                return
            trick = found
        names = [self.session.seat_name(s) for s in range(self.session.players)]
        number = len(view.history) if view.history else self.session.rules.hand_size
        assert trick.winner is not None
        picture = render_trick(
            trick,
            players=self.session.players,
            human=self.session.human,
            winning=trick.winner,
            width=40,
            height=13,
            title=f"Trick {number} · {names[trick.leader]} led",
            footer=f"{names[trick.winner]} won it",
        )
        self._info("Last trick", [picture, self._trick_line("In order:", trick)], close_keys=("l",))

    def _info(self, title: str, body: list[RenderableType], close_keys: tuple[str, ...]) -> None:
        self._overlay(InfoScreen(title, body, close_keys=close_keys))

    def _overlay(self, screen: Screen[Any], callback: Any = None) -> None:
        """A screen the game waits under: a bot may finish its thought, but nothing moves on
        (no next card, no timer running out) until the screen is closed."""
        if self._timer is not None:
            self._timer.pause()
        self._held = True

        def closed(answer: Any) -> None:
            self._held = False
            if callback is not None:
                callback(answer)
            if self._timer is not None:
                self._timer.resume()
            if self._pending_step:
                self._pending_step = False
                self.step()

        self.push_screen(screen, closed)

    def action_request_quit(self) -> None:
        """Ctrl-C: ask before leaving (a second Ctrl-C in the question leaves)."""
        if isinstance(self.screen, ChoiceScreen) and self.screen.title_text == "Leave?":
            self.exit()
            return
        record = self.session.record
        if self.session.over:
            where = "The match is over."
        elif record is not None:
            where = f"The record is kept in {record}: callbreak play --resume {record} continues."
        else:
            where = "This match is not recorded (--record FILE keeps one), so it ends here."

        def answered(leave: Any) -> None:
            if leave:
                self.exit()

        self._overlay(
            ChoiceScreen(
                "Leave?",
                [Text("Leave the match?", style="bold"), Text(where)],
                [("Stay (n)", False), ("Leave (y)", True)],
                shortcuts={"y": True, "n": False},
                cancel=False,
            ),
            answered,
        )

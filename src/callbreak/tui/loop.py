"""The table's loop: whose turn it is, the bots' turns in worker threads, the pauses.

After every action the table is redrawn from the person's ``Observation``; then the
loop waits for the person, or asks a bot in a worker thread (so a thinking bot never
freezes the screen) and shows its card for ``pause`` seconds before going on.  A
generation counter drops the answer of a worker from a match the person has left.
"""

from __future__ import annotations

from functools import partial
from typing import Any

from callbreak.engine import Action, IllegalAction, Observation
from callbreak.faces import (
    CARD_PHASES,
    faced,
    phase_face,
)
from callbreak.tui.base import TableScreen, TableState


class TableLoop(TableState):
    """The turns: the person's actions, the bots' answers, the pauses between them."""

    def on_mount(self) -> None:
        self.push_screen(TableScreen(self.session.players))
        self.call_later(self.step)

    def step(self) -> None:
        """Decide what happens next: a result to show, the person's turn, or a bot's."""
        self._timer = None
        session = self.session
        if self._held:
            self._pending_step = True
            return
        if self.state in ("bot", "modal"):
            return
        if self.tell_save_news():
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
        self._set_message(self._describe(seat, seen, action) + note, "")
        completed = self._progress() != tricks_before
        delay = self.pause * (2 if completed else 1)
        self.show_last = completed
        self._advance(delay if phase_face(seen.phase).pause else 0)

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

    def _start_turn(self) -> None:
        """Put the cursor somewhere useful when the person's turn begins."""
        view = self.session.view()
        self.typed = ""
        if view.phase in CARD_PHASES:
            hand = self._hand(view)
            legal = set(view.legal)
            if not hand or not legal & set(hand):
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
            self._set_message(faced(str(error)), "refused")
            self.typed = ""
            self.redraw()
            return False
        self.actions += 1
        self.own_actions += 1
        self.typed = ""
        self._set_message(self._describe(self.session.human, view, action), "")
        completed = self._progress() != before
        self.show_last = completed
        self.state = "idle"
        self._advance(self.pause * 2 if completed else 0)
        return True

    def play(self, card: str) -> None:
        """A card chosen by click, Enter or typing."""
        view = self.session.view()
        if self.state == "human" and view.phase in CARD_PHASES:
            self.act(card)
        elif self.state == "pause":
            self.skip()

    def choose(self, value: Any) -> None:
        """An option of the choice bar (a call, a bid, an answer, "done")."""
        if self.state == "human":
            self.act(value)

    def _describe(self, seat: int, view: Observation, action: Action) -> str:
        """One line on what a seat just did, from what everyone saw ("You play", "East plays").

        The phase's own words (``engine/words.py``) tell it; a card a bot lays face
        down is told as "a card", never by name.  The person's own action is told to it
        as "You …", whatever name it plays under (its own discards by name).
        """
        mine = seat == self.session.human
        name = "You" if mine else self.session.seat_name(seat)
        line = f"{name} {phase_face(view.phase, view.game).tell(view, action, mine)}."
        if view.phase == "play":
            after = self.session.view()
            if after.history and len(after.history) > len(view.history):
                last = after.history[-1]
                assert last.winner is not None
                line += f" {self.session.seat_name(last.winner)} won the trick."
        return line

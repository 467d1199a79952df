"""A hint on the person's turn: the hint bot's choice, asked in a worker thread, and why."""

from __future__ import annotations

from functools import partial

from callbreak.advice import explain, hint_words
from callbreak.engine import Action, Observation
from callbreak.faces import CARD_PHASES
from callbreak.tui.base import TableState
from callbreak.tui.widgets import ChoiceBar


class TableHints(TableState):
    """The ``i`` key: the expert's (or the hint bot's) choice, with the reason in words."""

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
        if view.phase in CARD_PHASES and str(action) in view.hand:
            self.cursor = self._hand(view).index(str(action))
        else:
            self.table.query_one(ChoiceBar).select(action)
        what = hint_words(view, action)
        self._set_message(f"Hint: {what}" + (f" — {reason}" if reason else ""), "hint")
        self.redraw()

"""What a review of a deal says, whichever method valued it: the decisions, the head, and the
whole deal (``DealReview``), in words and as JSON for the faces.

The exact solver (``callbreak.analysis``) fills them for the call games; playouts with the
hands shown (``callbreak.playout_review``) for the others.  Kept apart from both so that
each method builds the same results without importing the other.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from callbreak.games import Contract, find_game
from callbreak.points import Points

SOLVER = "the exact solver"
"""How the solver's review values a decision, in the review's words (``DealReview.method``)."""


class AnalysisError(ValueError):
    """A deal or record that the analysis cannot review (another game, an odd scoring)."""


def signed(points: Points) -> str:
    """Points with their sign and one decimal, as a review reads them: ``+4.0``, ``-4.0``."""
    return f"{points.tenths / 10:+.1f}"


# ------------------------------------------------------------------ results
@dataclass(frozen=True)
class Decision:
    """One card the seat played, and what the solver and the expert made of it."""

    trick: int
    """1-based number of the trick."""
    position: int
    """0 when the seat led the trick, up to 3 when it played last."""
    played: str
    legal: tuple[str, ...]
    values: dict[str, Points] | None
    """Each legal card's value against best defence; None when the search was stopped."""
    tricks: dict[str, int] | None = None
    """Most tricks the seat ends with after each card (Call Break's scoring), else None."""
    expert: str | None = None
    """The card the expert chose with only the seat's information (None: not asked)."""

    @property
    def forced(self) -> bool:
        return len(self.legal) == 1

    @property
    def known(self) -> bool:
        """Whether the decision was valued (a forced card needs no value: nothing to lose)."""
        return self.values is not None or self.forced

    @property
    def best_value(self) -> Points | None:
        return max(self.values.values()) if self.values else None

    @property
    def played_value(self) -> Points | None:
        return self.values[self.played] if self.values else None

    @property
    def best(self) -> tuple[str, ...]:
        """The cards worth the most, in the order of the legal cards."""
        top = self.best_value
        if self.values is None:
            return ()
        return tuple(card for card in self.legal if self.values[card] == top)

    @property
    def lost(self) -> Points:
        """Value lost by the card played (0 when it was a best card or unknown)."""
        best, played = self.best_value, self.played_value
        if best is None or played is None:
            return Points(0)
        return best - played

    @property
    def mistake(self) -> bool:
        return self.lost.tenths > 0

    @property
    def verdict(self) -> str:
        """``forced``, ``ok``, ``unknown``, or for a mistake ``blunder`` (the expert, seeing
        only the seat's cards, kept the value), ``hidden`` (the expert lost value too: the cards the
        seat could not see decided it) or ``mistake`` (no second opinion)."""
        if self.forced:
            return "forced"
        if self.values is None:
            return "unknown"
        if not self.mistake:
            return "ok"
        if self.expert is None:
            return "mistake"
        return "blunder" if self.values[self.expert] == self.best_value else "hidden"

    def describe(self, card: str, call: int) -> str:
        """What ``card`` does for the call, in words: "keeps your 4", "lets it fail"."""
        assert self.values is not None
        value = self.values[card]
        tricks = self.tricks[card] if self.tricks is not None else None
        if value.tenths < 0:
            return "lets it fail" if tricks is None else f"lets it fail (at most {tricks})"
        if tricks is None or tricks == call:
            return f"keeps your {call}"
        return f"makes {tricks}"

    def text(self, call: int) -> str:
        """One line of the review: "trick 5: KH keeps your 4; 2S lets it fail: -4.0 instead
        of +4.0", then the second opinion."""
        if self.forced:
            return f"trick {self.trick}: {self.played} (forced)"
        if self.values is None:
            return f"trick {self.trick}: {self.played}: unknown (the search was stopped)"
        best = self.best
        alternatives = "/".join(best[:3]) + ("/..." if len(best) > 3 else "")
        best_value, played_value = self.best_value, self.played_value
        assert best_value is not None and played_value is not None
        line = (
            f"trick {self.trick}: {alternatives} {self.describe(best[0], call)}; "
            f"{self.played} {self.describe(self.played, call)}: "
            f"{signed(played_value)} instead of {signed(best_value)}"
        )
        if self.expert is None:
            return line
        if self.verdict == "blunder":
            return f"{line} (the expert, seeing only your cards, played {self.expert}: a blunder)"
        if self.expert == self.played:
            return f"{line} (the expert would have played it too: the hidden cards decided)"
        return (
            f"{line} (the expert would have played {self.expert}, "
            f"{signed(self.values[self.expert])}: the hidden cards decided)"
        )

    def json(self) -> dict[str, Any]:
        return {
            "trick": self.trick,
            "position": self.position,
            "played": self.played,
            "legal": list(self.legal),
            "values": None
            if self.values is None
            else {card: self.values[card].json() for card in self.legal},
            "tricks": None if self.tricks is None else dict(self.tricks),
            "best": list(self.best),
            "lost": self.lost.json(),
            "expert": self.expert,
            "verdict": self.verdict,
        }


@dataclass(frozen=True)
class CallReview:
    """The seat's call against what the deal allowed, all hands known, from the start."""

    call: int
    scored: Points
    """What the call scored in the deal as played."""
    worth: Points | None
    """What the call secures against best defence from the start (None: search stopped)."""
    max_tricks: int | None
    """Most tricks the seat could force from the start (None: search stopped)."""
    makeable: int | None
    """Largest call that best defence could not beat (None: none, or unknown)."""
    makeable_worth: Points | None
    unknown: bool = False
    expert: int | None = None
    """What the expert called with only the seat's information (None: not asked)."""

    @property
    def lost(self) -> Points:
        """What the call gave away against the largest makeable one, both against best
        defence (0 where either is unknown, or the call was as good)."""
        if self.worth is None or self.makeable_worth is None:
            return Points(0)
        return max(Points(0), self.makeable_worth - self.worth)

    def text(self) -> str:
        if self.unknown:
            head = f"call {self.call}: makeable from the start unknown (the search was stopped)"
        elif self.makeable is None:
            head = f"call {self.call}: no call could be made against best defence"
        else:
            assert self.makeable_worth is not None
            head = (
                f"call {self.call}: {self.makeable} was makeable from the start "
                f"({signed(self.makeable_worth)})"
            )
        worth = "unknown" if self.worth is None else signed(self.worth)
        line = f"{head}; your {self.call} was worth {worth} against best defence"
        line += f" and scored {signed(self.scored)}"
        if self.expert is not None:
            line += f"; the expert would have called {self.expert}"
        return line

    def json(self) -> dict[str, Any]:
        return {
            "call": self.call,
            "scored": self.scored.json(),
            "worth": None if self.worth is None else self.worth.json(),
            "max_tricks": self.max_tricks,
            "makeable": self.makeable,
            "makeable_worth": None if self.makeable_worth is None else self.makeable_worth.json(),
            "unknown": self.unknown,
            "expert": self.expert,
            "lost": self.lost.json(),
        }


@dataclass(frozen=True)
class DealReview:
    """The review of one deal for one seat."""

    number: int
    """The deal's number in its match (1-based, as ``DealEntry.number``)."""
    seat: int
    dealer: int
    rules: str
    call: CallReview
    """The solver's call review, or the playouts' ``playout_review.Outcome`` (a subclass)."""
    decisions: tuple[Decision, ...]
    won: int
    """Tricks the seat won."""
    method: str = SOLVER
    """What valued the decisions: ``SOLVER`` or ``playout_review.METHOD``."""
    game: str = "callbreak"
    """The game of the deal (``Analyst`` says it), whose words the review is read in."""

    @property
    def words(self) -> Contract:
        """How the game names a seat's contract: a review's "call" is a Spades seat's bid."""
        return find_game(self.game).face.contract

    @property
    def called(self) -> bool:
        """Whether the head is the solver's call review (a call to speak of)."""
        return self.method == SOLVER

    @property
    def noun(self) -> str:
        """What the decisions are: the solver's are the cards alone (its call is reviewed
        apart), the playouts' every choice, bids included."""
        return "cards" if self.called else "decisions"

    @property
    def call_lost(self) -> Points:
        """What the solver's call lost (nothing where no call is reviewed): a summary of the
        cards alone would read a bad call with a perfect line as a perfect deal."""
        return self.call.lost if self.called else Points(0)

    def heading(self, name: str = "you") -> str:
        """The deal in one phrase: "you called 4, won 5, scored +4.1" (no call in the games
        valued by playouts: "you won 5 tricks, scored -3.0")."""
        scored = signed(self.call.scored)
        if self.called:
            return f"{name} called {self.call.call}, won {self.won}, scored {scored}"
        return f"{name} won {self.won} trick{'' if self.won == 1 else 's'}, scored {scored}"

    @property
    def lost(self) -> Points:
        total = Points(0)
        for decision in self.decisions:
            total = total + decision.lost
        return total

    @property
    def mistakes(self) -> tuple[Decision, ...]:
        return tuple(d for d in self.decisions if d.mistake)

    @property
    def unknown(self) -> int:
        return sum(1 for d in self.decisions if not d.known)

    @property
    def valued(self) -> int:
        """Decisions that had a choice and were valued."""
        return sum(1 for d in self.decisions if d.values is not None)

    def json(self) -> dict[str, Any]:
        return {
            "deal": self.number,
            "method": self.method,
            "seat": self.seat,
            "dealer": self.dealer,
            "rules": self.rules,
            "won": self.won,
            "call": self.call.json(),
            "lost": self.lost.json(),
            "mistakes": len(self.mistakes),
            "unknown": self.unknown,
            "decisions": [d.json() for d in self.decisions],
        }

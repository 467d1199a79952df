"""The deal's log: one typed entry per decision taken before the play.

Each kind of decision is its own small immutable type (PokerKit's operations
are the model), so a reader asks ``isinstance(entry, Bid)`` instead of comparing
phase names.  An entry is a tuple ``(phase, seat, action)`` with ``action``
spelt as the record writes it: the record's ``actions`` are the log itself, and
an entry still reads, unpacks and compares as the plain triple it was before
these types existed.  Made as ``Bid((phase, seat, bid))``: a tuple subclass
without a constructor of its own is made at C speed, about half the cost of a
NamedTuple's, and a deal logs every decision.
"""

from __future__ import annotations

from typing import Any

Action = int | str | bool
"""A call or bid (int), a card, a suit, "pass" (strings) or a yes/no decision (bool): what
``Deal.act`` takes."""


class Entry(tuple[str, int, Any]):
    """A logged decision: the phase it was taken in, the seat, and the action."""

    __slots__ = ()

    @property
    def phase(self) -> str:
        return self[0]

    @property
    def seat(self) -> int:
        return self[1]

    @property
    def action(self) -> Any:
        return self[2]


class MisdealClaim(Entry):
    """A seat with a qualifying hand throws the deal in (True) or plays on (False)."""

    __slots__ = ()

    @property
    def action(self) -> bool:
        said: bool = self[2]
        return said


class CallMade(Entry):
    """A seat calls the tricks it means to take."""

    __slots__ = ()

    @property
    def action(self) -> int:
        said: int = self[2]
        return said


class VoidsDeclared(Entry):
    """A seat makes its void suits public (True) or keeps them to itself (False)."""

    __slots__ = ()

    @property
    def action(self) -> bool:
        said: bool = self[2]
        return said


class Bid(Entry):
    """An auction bid, or ``"pass"``."""

    __slots__ = ()

    @property
    def action(self) -> int | str:
        said: int | str = self[2]
        return said


class Discarded(Entry):
    """The declarer lays a card of its hand away (after taking the nest): its name."""

    __slots__ = ()

    @property
    def action(self) -> str:
        said: str = self[2]
        return said


class Exchanged(Entry):
    """A card thrown in an exchange (its name), or ``"done"`` (draw as many as thrown)."""

    __slots__ = ()

    @property
    def action(self) -> str:
        said: str = self[2]
        return said


class TrumpNamed(Entry):
    """The seat choosing trump names a suit by its letter."""

    __slots__ = ()

    @property
    def action(self) -> str:
        said: str = self[2]
        return said


class PartnerCalled(Entry):
    """The declarer calls a card (its name); its holder is the partner."""

    __slots__ = ()

    @property
    def action(self) -> str:
        said: str = self[2]
        return said


class InOrOut(Entry):
    """A seat plays this deal (``"in"``) or drops / sits out (``"out"``)."""

    __slots__ = ()

    @property
    def action(self) -> str:
        said: str = self[2]
        return said


class Settled(Entry):
    """Everyone else sat out: the bidder takes −5 (``"take"``) or gives +5 (``"give"``)."""

    __slots__ = ()

    @property
    def action(self) -> str:
        said: str = self[2]
        return said


class Looked(Entry):
    """A seat looks at its cards (``"look"``) rather than bid blind (Spades' blind nil)."""

    __slots__ = ()

    @property
    def action(self) -> str:
        said: str = self[2]
        return said

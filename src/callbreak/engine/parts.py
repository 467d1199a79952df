"""What the phases and the observation builder may use of a deal, and the parts phases add.

``DealState`` is the deal as its phases and the one observation builder see it:
the shared facts they read, the few they write (who acts, who is still to
answer), and the helpers they call.  ``Deal`` is the one class that has it; the
phases and ``observe`` are written against this description rather than
against ``Deal`` itself, so that the deal can import them without their
importing it back.

A ``Part`` is the state one kind of phase adds to a deal (see ``phases.py``);
``Parts`` holds a deal's parts by kind.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any, ClassVar, Protocol, Self, TypeVar

if TYPE_CHECKING:
    from callbreak.decks import Deck
    from callbreak.engine.actions import Action, Entry
    from callbreak.engine.games import Context, Layout
    from callbreak.points import Points
    from callbreak.rules import Rules

Pieces = dict[str, Any]
"""Observation fields by name, as a part reveals them."""


class Part:
    """State one kind of phase adds to a deal, and what of it each seat may know.

    Parts hold immutable values and lists only, and copy themselves (``copy``).
    A part is made for a deal of ``players`` seats when a phase first asks the
    deal for it (``Deal.parts``); until then the deal reads as if it held a new one.
    """

    __slots__ = ()
    _fields: ClassVar[tuple[str, ...]] = ()
    shows_all: ClassVar[bool] = False
    """Whether ``public`` reveals anything (the observation builder skips it otherwise)."""
    shows_own: ClassVar[bool] = False
    """Whether ``private`` reveals anything."""
    holds_cards: ClassVar[bool] = False
    """Whether ``move_cards`` moves anything (the deal asks only those when a card moves)."""

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        names: list[str] = []
        for klass in reversed(cls.__mro__):
            names.extend(klass.__dict__.get("__slots__", ()))
        cls._fields = tuple(names)
        cls.shows_all = cls.public is not Part.public
        cls.shows_own = cls.private is not Part.private
        cls.holds_cards = cls.move_cards is not Part.move_cards

    def __init__(self, players: int) -> None:
        pass

    def copy(self) -> Self:
        """An independent copy: acting on one deal's part leaves the other's alone.  Each part
        writes its own (every list copied, the immutable rest shared): ``Deal.copy`` runs on
        every clone of a game tree, and a generic loop over the slots was eight times slower.
        The tests check every part's copy against its slots."""
        raise NotImplementedError

    def dealt(self, layout: Layout) -> None:
        """Take what the dealing laid out for this part (the nest); most take nothing."""

    def move_cards(self, move: Callable[[int], int]) -> None:
        """Cards change their ints (the Rook joins trump, Donut's ranks reverse): ``move``
        maps a mask of old cards to the same cards' new mask."""

    def public(self, deal: DealState) -> Pieces:
        """Observation fields every seat (and a spectator) may see."""
        return {}

    def private(self, deal: DealState, seat: int) -> Pieces:
        """Observation fields only ``seat`` may see (never asked for a spectator)."""
        return {}

    def __repr__(self) -> str:
        inside = ", ".join(f"{name}={getattr(self, name)!r}" for name in self._fields)
        return f"{type(self).__name__}({inside})"


P = TypeVar("P", bound=Part)


class Parts(dict[type[Part], Part]):
    """A deal's parts by kind.  A part is made when a phase first asks for it (``parts[kind]``),
    so a deal carries no state for phases it skipped; ``get`` asks without making one.
    Copying copies every part (``Deal.copy``)."""

    __slots__ = ("players",)
    players: int
    """Seats of the deal, for a new part (set right after the dict is made: dict's own
    constructor is the fast one, and a deal makes one of these per deal and per copy)."""

    def __missing__(self, kind: type[Part]) -> Part:
        part = self[kind] = kind(self.players)
        return part

    if TYPE_CHECKING:  # dict's own lookups at run time (phases index it on every action)

        def __getitem__(self, kind: type[P]) -> P: ...

        def get(self, kind: type[P]) -> P | None: ...  # type: ignore[override]

    def copy(self) -> Parts:
        other = Parts()
        other.players = self.players
        for kind, part in self.items():
            other[kind] = part.copy()
        return other


class DealState(Protocol):
    """The deal as its phases, its parts and ``observe`` use it (``Deal`` has all of it)."""

    # written by the phases (and the observation builder's cache)
    to_act: int | None
    pending: list[int]
    """Seats still to answer a yes/no phase (or to exchange), in turn."""
    _views: tuple[tuple[Any, ...], int]

    # read (lists are changed in place: the hands, the stock, the log)
    @property
    def rules(self) -> Rules: ...
    @property
    def players(self) -> int: ...
    @property
    def dealer(self) -> int: ...
    @property
    def hand_size(self) -> int: ...
    @property
    def deck(self) -> Deck: ...
    @property
    def context(self) -> Context: ...
    @property
    def parts(self) -> Parts: ...
    @property
    def log(self) -> list[Entry]: ...
    @property
    def phase(self) -> str: ...
    @property
    def dealt(self) -> list[int]: ...
    @property
    def hands(self) -> list[int]: ...
    @property
    def dealt_in(self) -> tuple[int, ...]: ...
    @property
    def active(self) -> tuple[int, ...]: ...
    @property
    def upcard(self) -> int | None: ...
    @property
    def stock(self) -> list[int]: ...
    @property
    def trick(self) -> list[int]: ...
    @property
    def leader(self) -> int: ...
    @property
    def history(self) -> list[tuple[int, tuple[int, ...], int]]: ...
    @property
    def tricks(self) -> list[int]: ...
    @property
    def void_reason(self) -> str | None: ...
    @property
    def unplayed(self) -> str | None: ...
    @property
    def over(self) -> bool: ...
    @property
    def points(self) -> list[Points] | None: ...
    @property
    def trump(self) -> str | None: ...
    @property
    def deck_mask(self) -> int: ...
    @property
    def declarer(self) -> int | None: ...
    @property
    def dropped(self) -> frozenset[int]: ...
    @property
    def discards(self) -> int: ...
    @property
    def may_drop(self) -> bool: ...

    # the phase walk and its helpers
    def advance(self) -> None: ...
    def ask_next(self) -> None: ...
    def void(self, reason: str) -> None: ...
    def finish_unplayed(self, reason: str) -> None: ...
    def begin_play(self, leader: int) -> None: ...
    def set_trump(self, suit: int) -> None: ...
    def reverse_ranks(self) -> None: ...
    def set_active(self, seats: Sequence[int]) -> None: ...
    def turn_order(self) -> list[int]: ...
    def next_seat(self, seat: int) -> int: ...
    def score_before(self, seat: int) -> Points: ...
    def misdeal_reason(self, seat: int) -> str | None: ...
    def void_suits(self, seat: int) -> str: ...
    def names_of(self, mask: int) -> list[str]: ...
    def card_or_refuse(self, action: Action) -> int: ...
    def legal_mask(self) -> int: ...
    def legal(self) -> list[Any]: ...

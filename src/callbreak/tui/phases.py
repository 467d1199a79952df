"""What the table shows and asks in each phase, as data: one small description per phase.

The app never branches on the game: it asks this module what the person is
choosing now (cards from the hand, or options on the choice bar), which
letters answer it, what to say on the status line, how each seat's status
reads and how an action is told to the table.  A new game made of known
phases plays at the table with no change here; a new phase needs one entry
in ``PHASES``.

Everything is read from the person's ``Observation`` — never from a deal —
and what a bot threw away (a Rook discard, a Horsethief exchange) is told as
"a card", never by name.

>>> seat_places(4)
((1,), (2,), (3,))
>>> seat_places(8)
((2, 1), (5, 4, 3), (6, 7))
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from callbreak.cards import SUIT_SYMBOLS
from callbreak.cli.common import seat_name as table_seat_name
from callbreak.decks import DECKS, REVERSED, STANDARD, Deck
from callbreak.engine import Action, Observation, TrickView
from callbreak.engine.deal import misdeal_reason
from callbreak.engine.tricks import trick_winner_offset

CARD_PHASES = frozenset({"play", "discard", "exchange"})
"""Phases in which the person picks cards from its own hand."""


# ------------------------------------------------------------------ cards and decks
def deck_of(view: Observation) -> Deck:
    """The deck in force this deal, as the observation tells it (Rook placed, ranks reversed)."""
    deck = DECKS[view.rules.shape.deck]
    if deck.name == "rook" and view.trump is not None and view.trump in deck.suits:
        return deck.with_rook_in(deck.suits.index(view.trump))
    if view.reversed_ranks:
        return REVERSED
    return deck


def trump_index(view: Observation, deck: Deck) -> int:
    """Trump as a suit index of ``deck``, -1 for none."""
    trump = view.trump
    return deck.suits.index(trump) if trump is not None and trump in deck.suits else -1


def face(name: str) -> str:
    """A card as people read it: ``A♠``, ``T♥`` for the standard deck; Rook cards as named."""
    if len(name) == 2 and name[-1] in "SHDC":
        return name[:-1] + SUIT_SYMBOLS["SHDC".index(name[-1])]
    return name


def suit_label(deck: Deck, letter: str) -> str:
    """``♥ hearts``, ``G greens``: a suit (or Rook colour) as people read it."""
    name = deck.suit_names[deck.suits.index(letter)]
    symbol = SUIT_SYMBOLS["SHDC".index(letter)] if deck.stride == STANDARD.stride else letter
    return f"{symbol} {name}"


def trick_winner(view: Observation, trick: TrickView) -> int | None:
    """The seat winning ``trick`` so far, by the deck and trump of this deal."""
    if not trick.cards:
        return None
    deck = deck_of(view)
    cards = [deck.parse(c) for c in trick.cards]
    at = trick_winner_offset(cards, trump_index(view, deck), deck.stride)
    return trick.seats(view.players)[at]


# ------------------------------------------------------------------------ seats
def seat_places(players: int) -> tuple[tuple[int, ...], tuple[int, ...], tuple[int, ...]]:
    """Where the other seats sit, as offsets from the person (at the bottom, offset 0).

    Turn order runs up the right side, right to left along the top, and down
    the left side, as at a real table; returns (right column top to bottom,
    top row left to right, left column top to bottom).  Four players give
    the familiar East, North, West.
    """
    others = players - 1
    side = max(1, (others + 1) // 3)
    top = others - 2 * side
    right = tuple(range(side, 0, -1))
    top_row = tuple(range(side + top, side, -1))
    left = tuple(range(side + top + 1, others + 1))
    return right, top_row, left


def seat_label(seat: int, players: int) -> str:
    """A seat's name: the compass at four seats, else "Seat N"."""
    return table_seat_name(seat, players)


# ------------------------------------------------------------------------ phases
Options = Callable[[Observation], list[tuple[str, Any]]]


@dataclass(frozen=True)
class PhaseFace:
    """How one phase looks and answers at the table."""

    prompt: Callable[[Observation], str]
    """The choice bar's prompt on the person's turn."""
    status: str
    """The status line on the person's turn: which keys do it."""
    options: Options = lambda view: []
    """The choice bar's options (label, action); card phases list only what is not a card."""
    keys: dict[str, Any] = field(default_factory=dict)
    """Letters that answer at once (``y`` → True); only used when the action is legal."""
    typed_number: bool = False
    """Digits type a number on the bar (calls, bids)."""
    typed_card: bool = False
    """Rank and suit letters type a card to answer with (a card not in the hand too)."""
    tell: Callable[[Observation, Action, bool], str] = lambda view, action, mine: ""
    """What the seat did, after its name ("bids 8"); ``mine`` when the person did it."""
    pause: bool = True
    """Whether a bot's action here is shown for a moment before play goes on."""


def _legal_of(pairs: Sequence[tuple[str, Any]]) -> Options:
    """Options from fixed (label, action) pairs, keeping only the legal ones."""
    return lambda view: [(label, value) for label, value in pairs if value in view.legal]


def _misdeal_prompt(view: Observation) -> str:
    reason = misdeal_reason(view.rules, view.hand_mask) or "a weak hand"
    return f"Misdeal? Your hand has {reason}:"


def _auction_options(view: Observation) -> list[tuple[str, Any]]:
    return [("pass (x)" if a == "pass" else str(a), a) for a in view.legal]


def _trump_options(view: Observation) -> list[tuple[str, Any]]:
    deck = deck_of(view)
    return [
        (f"{suit_label(deck, str(letter))} ({str(letter).lower()})", letter)
        for letter in view.legal
    ]


def _partner_options(view: Observation) -> list[tuple[str, Any]]:
    return [(face(str(card)), card) for card in view.legal]


def _tell_trump(view: Observation, action: Action, mine: bool) -> str:
    return f"{'name' if mine else 'names'} trump: {suit_label(deck_of(view), str(action))}"


def _tell_card(verb: tuple[str, str], secret: bool) -> Callable[[Observation, Action, bool], str]:
    """A card action told by name, or — when the card goes face down — only to its owner."""

    def tell(view: Observation, action: Action, mine: bool) -> str:
        if action == "done":
            return "keep the rest" if mine else "is done exchanging"
        if secret and not mine:
            return f"{verb[1]} a card"
        return f"{verb[0] if mine else verb[1]} {face(str(action))}"

    return tell


PHASES: dict[str, PhaseFace] = {
    "misdeal": PhaseFace(
        prompt=_misdeal_prompt,
        status="Your hand qualifies for a misdeal: y claims a redeal, n plays on",
        options=_legal_of([("Claim a redeal (y)", True), ("Play on (n)", False)]),
        keys={"y": True, "n": False},
        tell=lambda view, a, mine: (
            ("claim" if mine else "claims") + " a misdeal"
            if a
            else ("play" if mine else "plays") + " on"
        ),
    ),
    "declare": PhaseFace(
        prompt=lambda view: "Declare your void suits?",
        status="You hold a void: y declares it to the table, n keeps it quiet",
        options=_legal_of([("Declare (y)", True), ("Keep quiet (n)", False)]),
        keys={"y": True, "n": False},
        tell=lambda view, a, mine: (
            ("declare" if mine else "declares") + (" a void" if a else " nothing")
        ),
        pause=False,
    ),
    "call": PhaseFace(
        prompt=lambda view: "Your call:",
        status="Your call: ← → and Enter, type the number, or click it",
        options=lambda view: [(str(c), c) for c in view.legal],
        typed_number=True,
        tell=lambda view, a, mine: f"{'call' if mine else 'calls'} {a}",
    ),
    "auction": PhaseFace(
        prompt=lambda view: "Your bid:",
        status="Your bid: ← → and Enter, type the number, x passes",
        options=_auction_options,
        keys={"x": "pass"},
        typed_number=True,
        tell=lambda view, a, mine: (
            ("pass" if mine else "passes") if a == "pass" else f"{'bid' if mine else 'bids'} {a}"
        ),
    ),
    "trump": PhaseFace(
        prompt=lambda view: "Name trump:",
        status="Name trump: its letter, or ← → and Enter",
        options=_trump_options,
        keys={letter.lower(): letter for letter in "SHDCRYGB"},
        tell=_tell_trump,
    ),
    "drop": PhaseFace(
        prompt=lambda view: "Play this deal?",
        status="Play this deal: y plays, n sits it out",
        options=_legal_of([("Play (y)", "in"), ("Sit out (n)", "out")]),
        keys={"y": "in", "n": "out"},
        tell=lambda view, a, mine: (
            ("play" if mine else "plays") if a == "in" else ("sit out" if mine else "sits out")
        ),
    ),
    "settle": PhaseFace(
        prompt=lambda view: "Everyone else sat out:",
        status="Everyone else sat out: t takes −5 yourself, g gives +5 to every other seat",
        options=_legal_of([("Take −5 (t)", "take"), ("Give +5 to the others (g)", "give")]),
        keys={"t": "take", "g": "give"},
        tell=lambda view, a, mine: (
            ("take" if mine else "takes") + " −5"
            if a == "take"
            else ("give" if mine else "gives") + " +5 to every other seat"
        ),
    ),
    "exchange": PhaseFace(
        prompt=lambda view: "Throw cards to exchange, then done:",
        status="Exchange: Enter throws the card under the cursor (type it too); x when done",
        options=_legal_of([("Done (x)", "done")]),
        keys={"x": "done"},
        typed_card=True,
        tell=_tell_card(("throw", "throws"), secret=True),
        pause=False,
    ),
    "discard": PhaseFace(
        prompt=lambda view: f"Lay a card away ({len(view.discards or ()) + 1} of 5):",
        status="The nest is yours: Enter lays the card under the cursor away (or type it)",
        typed_card=True,
        tell=_tell_card(("lay away", "lays away"), secret=True),
        pause=False,
    ),
    "partner": PhaseFace(
        prompt=lambda view: "Call your partner's card:",
        status="Call a partner card: type it (1g, 14r) or ← → and Enter; one you hold: alone",
        options=_partner_options,
        typed_card=True,
        tell=lambda view, a, mine: f"{'call' if mine else 'calls'} the {face(str(a))} as partner",
    ),
    "play": PhaseFace(
        prompt=lambda view: "",
        status="Your turn: ← → and Enter, type a card (as, td), or click one",
        typed_card=True,
        tell=_tell_card(("play", "plays"), secret=False),
    ),
}


def phase_face(phase: str) -> PhaseFace:
    """The description of ``phase``; an unknown phase answers by the choice bar alone."""
    return PHASES.get(phase) or PhaseFace(
        prompt=lambda view: f"{phase}:",
        status=f"{phase}: ← → and Enter",
        options=lambda view: [(str(a), a) for a in view.legal],
    )


# ------------------------------------------------------------------- the seats
def said(view: Observation, seat: int) -> str:
    """What ``seat`` has said this deal before the play, for the middle of the table."""
    if view.phase in ("call", "misdeal", "declare") or view.game == "callbreak":
        call = view.calls[seat]
        return "–" if call is None else str(call)
    if view.phase == "exchange":
        counts = dict(view.exchanges)
        return f"threw {counts[seat]}" if seat in counts else "–"
    if view.phase == "drop" or view.dropped:
        # Who said "in" is not kept, only who is out; after the drop phase the rest are in.
        if seat in view.dropped:
            return "out"
        return "" if view.phase == "drop" else "in"
    bids = [b for s, b in view.bids if s == seat]
    if not bids:
        return "–"
    return str(bids[-1])


def seat_facts(view: Observation, seat: int) -> list[str]:
    """A seat's facts for its status line, only those this game has."""
    if view.dealt_in and seat not in view.dealt_in:
        return ["out of the game"]
    facts: list[str] = []
    if view.game == "callbreak":
        call = view.calls[seat]
        facts.append(f"call {'–' if call is None else call}")
    elif view.phase in ("auction",):
        facts.append(f"bid {said(view, seat)}")
    elif seat == view.declarer and view.contract is not None:
        facts.append(f"bid {view.contract}")
    if seat in view.dropped:
        facts.append("sits out")
    else:
        facts.append(f"won {view.tricks_won[seat]}")
    if view.card_points is not None and view.phase == "play":
        facts.append(f"{view.card_points[seat]} pts")
    if view.partner is not None and seat == view.partner and view.partner != view.declarer:
        facts.append("partner")
    return facts


def deal_facts(view: Observation, names: Sequence[str]) -> str:
    """The deal's public facts beyond the trick: trump chosen, face-up card, contract, partner."""
    parts: list[str] = []
    deck = deck_of(view)
    if view.rules.trump_suit < 0:
        if view.trump is not None:
            parts.append(f"trump {suit_label(deck, view.trump)}")
        elif view.phase == "play":
            parts.append("no trump")
    if view.upcard is not None:
        parts.append(f"face up {face(view.upcard)}")
    if view.reversed_ranks:
        parts.append("ranks reversed: 2 high, A low")
    if view.declarer is not None and view.contract is not None and view.game != "callbreak":
        parts.append(f"bid {view.contract} by {names[view.declarer]}")
    if view.partner_card is not None:
        who = "" if view.partner is None else f" ({names[view.partner]})"
        parts.append(f"partner {face(view.partner_card)}{who}")
    if view.phase == "exchange" or (view.stock_size and view.game == "horsethief"):
        parts.append(f"stock {view.stock_size}")
    return " · ".join(parts)

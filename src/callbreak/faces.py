"""What every face says about each phase and each game: one description, three faces.

The terminal table, the web page and the line-based ``play --plain`` draw no
game by name.  They ask this module what the person is choosing now (cards
from the hand, a word, a number, a suit), which words answer it and by which
key, what to tell the table when a seat acts, what each seat's status line
shows and how a finished deal is summed up.  A new game made of known phases
plays on every face with no change here; a new phase's words are one entry in
``engine/words.py`` (and a fact in ``PROMPT_FACTS`` if its question names a new
one); what a game's seats show is its record's ``face`` (``callbreak.games``).

How a person answers differs by face (keys, clicks, typed words), so each
phase carries one hint per face; everything else is said once.

Everything is read from the person's ``Observation`` — never from a deal —
and what a bot threw away (a Rook discard, a Horsethief exchange) is told as
"a card", never by name.

>>> seat_places(4)
((1,), (2,), (3,))
>>> seat_places(8)
((2, 1), (5, 4, 3), (6, 7))
>>> PHASES["drop"].answer("n"), PHASES["drop"].answer("sit out"), PHASES["drop"].answer("?")
('out', 'out', None)
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import cache
from string import Formatter
from typing import Any

from callbreak.cards import SUIT_SYMBOLS
from callbreak.decks import DECKS, REVERSED, STANDARD, Deck
from callbreak.engine import Action, Observation, TrickView, observe_public
from callbreak.engine.deal import misdeal_reason
from callbreak.engine.tricks import trick_winner_offset
from callbreak.engine.words import (
    CARD,
    CONTRACT_PHASE,
    LEGAL,
    NUMBER,
    PHASE_WORDS,
    SUIT,
    WORD,
    PhaseWords,
    Word,
    phase_words,
)
from callbreak.games import CALL, GAMES, Contract, Face, find_game
from callbreak.points import Points
from callbreak.rules import Rules

CARD_PHASES = frozenset(name for name, said in PHASE_WORDS.items() if said.control == "cards")
"""Phases in which the person picks cards from its own hand."""


# ------------------------------------------------------------------ cards and decks
def deck_of(view: Observation) -> Deck:
    """The deck in force this deal, as the observation tells it (Rook placed, ranks reversed)."""
    deck = DECKS[view.rules.shape.deck]
    if deck.has_rook and view.trump is not None and view.trump in deck.suits:
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


_CARD_NAME = re.compile(r"\b[2-9TJQKA][SHDC]\b")
"""A standard card as the engine and the typist name it (``QH``), a word of its own."""


def faced(text: str) -> str:
    """``text`` with each standard card named as the table shows it: the engine's refusals
    name cards as they are typed, beside a hand drawn with suit symbols.

    >>> faced("QH is not allowed: follow suit (hearts); play 4H or TH")
    'Q♥ is not allowed: follow suit (hearts); play 4♥ or T♥'
    """
    return _CARD_NAME.sub(lambda found: face(found.group(0)), text)


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
SEAT_NAMES = ("South", "East", "North", "West")
"""The compass names of a four-seat table, the person at South."""


def seat_name(seat: int, players: int) -> str:
    """A seat's name at the table: the compass at four seats, else "Seat N" (1-based)."""
    return SEAT_NAMES[seat] if players == len(SEAT_NAMES) else f"Seat {seat + 1}"


def name_seats(text: str, names: Sequence[str]) -> str:
    """``text`` (an engine's reason: a misdeal claimed, a deal not played out) with each
    "seat N", the engine's 0-based number, replaced by the name the face gives that seat.

    >>> name_seats("misdeal claimed by seat 2 (holds no spade)", ["You", "East", "North"])
    'misdeal claimed by North (holds no spade)'
    """
    return re.sub(r"seat (\d+)", lambda found: names[int(found.group(1))], text)


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


# ------------------------------------------------------------------------ phases
Choices = Callable[[Observation], list[tuple[str, Any]]]


@dataclass(frozen=True)
class PhaseFace:
    """How one phase asks, answers and is told, on every face: its words
    (``engine/words.py``) read against the person's view."""

    said: PhaseWords
    """The phase's words: its verb, question, answers, hints, how it is told."""

    @property
    def verb(self) -> str:
        """What a seat does in this phase, for "waiting for East to …" and "your turn to …"."""
        return self.said.verb

    @property
    def words(self) -> tuple[Word, ...]:
        return self.said.words

    @property
    def control(self) -> str:
        return self.said.control

    @property
    def typed_number(self) -> bool:
        return self.said.typed_number

    @property
    def typed_card(self) -> bool:
        return self.said.typed_card

    @property
    def pause(self) -> bool:
        return self.said.pause

    @property
    def keys_hint(self) -> str:
        return self.said.keys_hint

    @property
    def click_hint(self) -> str:
        return self.said.click_hint

    @property
    def choices(self) -> Choices | None:
        """Answers that are neither words nor cards from the hand (numbers, suits, a partner
        card), or None where there are none."""
        return _CHOICES[self.said.answers] if self.said.listed else None

    @property
    def keys(self) -> dict[str, Any]:
        """Letters that answer at once (``y`` → True); a face uses one only when it is legal."""
        return {word.key: word.action for word in self.words}

    def prompt(self, view: Observation) -> str:
        """The question put to the person on its turn, with the facts of its view it names."""
        return self.said.question.format_map(_Facts(view))

    def tell(self, view: Observation, action: Action, mine: bool) -> str:
        """What the seat did, after its name ("bids 8"); ``mine`` when the person did it.
        A card another seat lays face down is told as "a card"."""
        key = _action_key(action)
        for word in self.words:
            if _action_key(word.action) == key:
                return word.told[0 if mine else 1]
        template = self.said.told[0 if mine else 1]
        if self.said.secret and not mine:
            return template.format(action="a card")
        return template.format(action=_TOLD[self.said.answers](view, action))

    def options(self, view: Observation) -> list[tuple[str, Any]]:
        """The choice bar's (label, action) pairs in legal order; cards in the hand are not here."""
        words = {_action_key(word.action): word for word in self.words}
        options: list[tuple[str, Any]] = []
        chosen = dict((_action_key(a), (label, a)) for label, a in (self.choices or _none)(view))
        for action in view.legal:
            word = words.get(_action_key(action))
            if word is not None:
                options.append((f"{word.label} ({word.key})", action))
            elif _action_key(action) in chosen:
                options.append(chosen[_action_key(action)])
        return options

    def offered(self, view: Observation) -> str:
        """What the question offers now, as its fact says it ("1–13", "85–200 in steps of 5"),
        for a face that refuses something typed."""
        for _, fact, _, _ in Formatter().parse(self.said.question):
            if fact in PROMPT_FACTS:
                return PROMPT_FACTS[fact](view)
        return ", ".join(str(action) for action in view.legal)

    def typed_refusal(self, view: Observation, text: str) -> str | None:
        """Why ``text``, typed to a question of numbers (a call, a bid), answers nothing, or
        None for a whole number, which the engine judges (its reason names the rule).  Where
        no number is legal yet (a Spades seat bids blind nil or looks at its cards first),
        no number answers."""
        words = " or ".join(
            f"{word.label.lower()} ({word.key})" for word in self.words if word.action in view.legal
        )
        if not any(is_number(action) for action in view.legal):
            return f"{text} is not a {self.verb} now: {words or self.offered(view)}."
        # plain digits only: Python's int() would also read "1_2", "+2" or " ５" as numbers
        if not re.fullmatch(r"-?[0-9]+", text):
            return f"Type your {self.verb} as a number: {self.offered(view)}" + (
                f", or {words}." if words else "."
            )
        return None

    def answer(self, text: str) -> Any | None:
        """The word a person typed (its key, its label or its action), or None."""
        said = text.strip().lower()
        said = {"yes": "y", "no": "n"}.get(said, said)
        for word in self.words:
            if said in (word.key, word.label.lower(), _action_key(word.action)):
                return word.action
        return None

    def table(self) -> dict[str, Any]:
        """This phase as JSON-ready data for the web page."""
        labels = {_action_key(word.action): word.label for word in self.words}
        if self.said.answers == SUIT:
            labels.update(SUIT_LABELS)
        return {
            "verb": self.verb,
            "prompt": self.click_hint,
            "control": self.control,
            "answers": self.said.answers,
            "labels": labels,
        }


def _none(view: Observation) -> list[tuple[str, Any]]:
    return []


def _action_key(action: Any) -> str:
    """An action as the web page's JSON names it (``True`` → ``"true"``)."""
    return str(action).lower()


SUIT_LABELS: dict[str, str] = {
    "S": "♠ Spades",
    "H": "♥ Hearts",
    "D": "♦ Diamonds",
    "C": "♣ Clubs",
    "R": "Red",
    "Y": "Yellow",
    "G": "Green",
    "B": "Black",
}
"""Trump choices as people read them (the Rook deck's four colours too)."""


def _misdeal_reason(view: Observation) -> str:
    return misdeal_reason(view.rules, view.hand_mask) or "a weak hand"


def _voids(view: Observation) -> str:
    deck = deck_of(view)
    held = {card[-1] for card in view.hand}
    return ", ".join(deck.suit_names[i] for i, suit in enumerate(deck.suits) if suit not in held)


def is_number(action: Any) -> bool:
    """Whether ``action`` is a number (a call, a bid), not a word or a yes/no."""
    return isinstance(action, int) and not isinstance(action, bool)


def _call_range(view: Observation) -> str:
    """The calls the seat may make now, from its legal actions: a game may allow 0 (nil, or an
    exact bid of none) or forbid one number (Oh Hell's hook).  Where no number is legal yet
    (a Spades seat first bids blind nil or looks at its cards), the words that are."""
    calls = [a for a in view.legal if is_number(a)]
    if not calls:
        words = [str(a) for a in view.legal if isinstance(a, str)]
        return " or ".join(words) or f"{view.rules.min_call}–{view.rules.max_call}"
    low, high = min(calls), max(calls)
    missing = sorted(set(range(low, high + 1)) - set(calls))
    except_ = f" but not {', '.join(map(str, missing))}" if missing else ""
    return f"{low}–{high}{except_}"


def _bid_range(view: Observation) -> str:
    bids = [a for a in view.legal if a != "pass"]
    if not bids:
        return "none left but pass"
    step = f" in steps of {view.rules.bid_step}" if view.rules.bid_step > 1 else ""
    return f"{bids[0]}–{bids[-1]}{step}"


def _laid(view: Observation) -> str:
    return str(len(view.discards or ()) + 1)


PROMPT_FACTS: dict[str, Callable[[Observation], str]] = {
    "reason": _misdeal_reason,
    "voids": _voids,
    "calls": _call_range,
    "bids": _bid_range,
    "laid": _laid,
}
"""The facts of the person's view a phase's question may name in braces (``{calls}``)."""


class _Facts(dict[str, str]):
    """A question's facts, each worked out from the view only when the question names it."""

    def __init__(self, view: Observation) -> None:
        super().__init__()
        self.view = view

    def __missing__(self, key: str) -> str:
        return PROMPT_FACTS[key](self.view)


def _numbers(view: Observation) -> list[tuple[str, Any]]:
    return [(str(a), a) for a in view.legal if is_number(a)]


def _trump_choices(view: Observation) -> list[tuple[str, Any]]:
    deck = deck_of(view)
    return [(f"{suit_label(deck, str(s))} ({str(s).lower()})", s) for s in view.legal]


def _partner_choices(view: Observation) -> list[tuple[str, Any]]:
    return [(face(str(card)), card) for card in view.legal]


def _legal_choices(view: Observation) -> list[tuple[str, Any]]:
    return [(str(a), a) for a in view.legal]


_CHOICES: dict[str, Choices] = {
    WORD: _none,
    NUMBER: _numbers,
    SUIT: _trump_choices,
    CARD: _partner_choices,
    LEGAL: _legal_choices,
}
"""The choice bar of a phase whose actions are listed, by what its actions are."""

_TOLD: dict[str, Callable[[Observation, Action], str]] = {
    WORD: lambda view, action: str(action),
    NUMBER: lambda view, action: str(action),
    SUIT: lambda view, action: suit_label(deck_of(view), str(action)),
    CARD: lambda view, action: face(str(action)),
    LEGAL: lambda view, action: str(action),
}
"""An action as a told line names it, by what the phase's actions are."""

PHASES: dict[str, PhaseFace] = {name: PhaseFace(said) for name, said in PHASE_WORDS.items()}
"""Every phase of the family, as every face shows it."""


def phase_face(phase: str, game: str | None = None) -> PhaseFace:
    """The description of ``phase`` in the words of ``game`` (a Spades seat bids where a Call
    Break seat calls; None: the family's own words); an unknown phase answers by its legal
    actions alone."""
    if phase == CONTRACT_PHASE:
        return _contract_phase(CALL if game is None else contract_words(game))
    return PHASES.get(phase) or PhaseFace(phase_words(phase))


@cache
def _contract_phase(contract: Contract) -> PhaseFace:
    """The call phase in ``contract``'s words: Call Break's own, or Spades' "bid"."""
    return PhaseFace(phase_words(CONTRACT_PHASE, contract))


# ------------------------------------------------------------------------ games
STAT_LABELS = {"call": "call", "bid": "bid", "won": "won", "card_points": "pts", "score": "score"}
"""Stats a seat's status line may show: ``call``, ``bid`` (the last bid, or pass), ``won``
(tricks), ``card_points`` (Rook counters taken) and ``score`` (the running total)."""
COLUMN_LABELS = {
    "call": "call",
    "bid": "bid",
    "won": "won",
    "card_points": "card pts",
    "points": "points",
    "total": "total",
}
"""Columns a finished deal's summary may show."""


def game_face(game: str) -> Face:
    """What the seats of ``game`` show (its record's face words); an unknown game is an
    error, never drawn as another."""
    return find_game(game).face


def contract_words(game: str) -> Contract:
    """How ``game`` names each seat's contract: Call Break's call, Spades' bid."""
    return game_face(game).contract


def column_label(key: str, game: str) -> str:
    """The heading of a summary column (a ``COLUMN_LABELS`` key) in the words of ``game``."""
    return contract_words(game).reword(COLUMN_LABELS[key])


def scoring_text(rules: Rules) -> str:
    """How the game of ``rules`` scores, in one line, under the options in force."""
    scoring = rules.shape.face.scoring
    return scoring if isinstance(scoring, str) else scoring(rules)


def face_tables() -> dict[str, Any]:
    """Everything the web page needs to draw any game, as JSON-ready data."""
    return {
        "phases": {name: phase.table() for name, phase in PHASES.items()},
        "games": {
            name: {
                "stats": list(game.face.stats),
                "summary": list(game.face.summary),
                "scoring": scoring_text(Rules.of_game(name)),
                "stock": game.face.stock,
                "partnerships": [list(side) for side in game.partnerships],
                "hand_size_varies": game.schedule is not None,
                "words": game_words(name),
            }
            for name, game in GAMES.items()
        },
        "suits": SUIT_LABELS,
        "stat_labels": STAT_LABELS,
        "column_labels": COLUMN_LABELS,
    }


def game_words(game: str) -> dict[str, Any]:
    """What the web page says in ``game``'s own words where they differ from the family's
    (a Spades seat bids): its call phase, its stat and column labels."""
    words = contract_words(game)
    return {
        "phases": {CONTRACT_PHASE: phase_face(CONTRACT_PHASE, game).table()},
        "stat_labels": {key: words.reword(label) for key, label in STAT_LABELS.items()},
        "column_labels": {key: words.reword(label) for key, label in COLUMN_LABELS.items()},
    }


# ------------------------------------------------------------------- the seats
def last_bid(view: Observation, seat: int) -> int | str | None:
    """What ``seat`` said last in the auction (a bid or "pass"), None before it spoke."""
    bids = [bid for who, bid in view.bids if who == seat]
    return bids[-1] if bids else None


def said(view: Observation, seat: int) -> str:
    """What ``seat`` has said this deal before the play, for the middle of the table."""
    if view.phase in ("call", "misdeal", "declare") or view.rules.shape.calls:
        return _call_text(view, seat)
    if view.phase == "exchange":
        counts = dict(view.exchanges)
        if seat in counts:
            return f"threw {counts[seat]}"
        return "out" if seat in view.dropped else "–"
    if view.phase == "drop" or view.dropped:
        # Only who is out is kept; the seats are asked in turn from the dealer's left, so one
        # before the seat to act has answered "in" (or plays unasked), and after the drop
        # phase the rest are in.
        if seat in view.dropped:
            return "out"
        return "in" if view.phase != "drop" or _answered(view, seat) else ""
    if seat == view.declarer and view.contract is not None and view.phase != "auction":
        return str(view.contract)  # the winning bid, forced ones too (Batak's dealer at 4)
    bid = last_bid(view, seat)
    return "–" if bid is None else str(bid)


def _call_text(view: Observation, seat: int) -> str:
    """A seat's call as people read it: "–" before it calls, "blind nil" (Spades), a number."""
    call = view.calls[seat]
    if call is None:
        return "–"
    return "blind nil" if seat in view.blind_nils else str(call)


def turn_order(view: Observation) -> list[int]:
    """The seats dealt in, from the dealer's left round the table: the order they are asked."""
    seats = view.dealt_in or tuple(range(view.players))
    return sorted(seats, key=lambda s: (s - view.dealer - 1) % view.players)


def _answered(view: Observation, seat: int) -> bool:
    """Whether ``seat`` comes before the seat to act in this deal's turn order."""
    order = turn_order(view)
    if view.to_act not in order or seat not in order:
        return False
    return order.index(seat) < order.index(view.to_act)


def stat_text(view: Observation, seat: int, key: str) -> str | None:
    """One stat of a seat's status line as text, or None where it has nothing to say yet.

    ``score`` is None here: the terminal shows every seat's running total on a
    line of its own, in every game.
    """
    if key == "call":
        return f"{contract_words(view.game).word} {_call_text(view, seat)}"
    if key == "bid":
        if view.phase == "auction":
            return f"bid {said(view, seat)}"
        if seat == view.declarer and view.contract is not None:
            return f"bid {view.contract}"
        return None
    if key == "won":
        return "sits out" if seat in view.dropped else f"won {view.tricks_won[seat]}"
    if key == "card_points":
        if view.card_points is None or view.phase != "play":
            return None
        return f"{view.card_points[seat]} {STAT_LABELS[key]}"
    return None


def seat_facts(view: Observation, seat: int) -> list[str]:
    """A seat's facts for its status line: its game's stats, then its role this deal."""
    if view.dealt_in and seat not in view.dealt_in:
        return ["out of the game"]
    stats = game_face(view.game).stats
    facts = [text for key in stats if (text := stat_text(view, seat, key)) is not None]
    if seat in view.dropped and "won" not in stats:
        facts.append("sits out")
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
    if view.declarer is not None and view.contract is not None and not view.rules.shape.calls:
        parts.append(f"bid {view.contract} by {names[view.declarer]}")
    if view.partner_card is not None:
        who = "" if view.partner is None else f" ({names[view.partner]})"
        parts.append(f"partner {face(view.partner_card)}{who}")
    if view.stock_size and game_face(view.game).stock:
        parts.append(f"stock {view.stock_size}")
    return " · ".join(parts)


# ------------------------------------------------------------- finished deals
@dataclass(frozen=True)
class DealResult:
    """The public outcome of one finished (or thrown-in) deal: what everyone at the table saw."""

    number: int
    tie_break: bool
    void_reason: str | None
    """Why the deal was thrown in (seat numbers replaced by names), None for a played deal."""
    calls: tuple[int | None, ...]
    tricks: tuple[int, ...]
    points: tuple[Points, ...] | None
    totals: tuple[Points, ...]
    counting: tuple[int, ...]
    """Seats whose points count (all but the untied seats in a tie-break deal)."""
    game: str = "callbreak"
    contract: int | None = None
    declarer: int | None = None
    partner: int | None = None
    """The declarer's partner (Call Partner), public once the deal is over."""
    card_points: tuple[int, ...] | None = None
    """Call Partner: the card points each seat took."""
    dealt_in: tuple[int, ...] = ()
    dropped: tuple[int, ...] = ()
    trump: str | None = None
    unplayed: str | None = None
    """Why the deal ended before its play (seat numbers replaced by names), if it did."""
    lowest_wins: bool = False
    last_bids: tuple[int | str | None, ...] = ()
    """Each seat's last word in the auction (a bid or "pass"), None where it said nothing."""
    blind_nils: tuple[int, ...] = ()
    """Seats that bid blind nil (Spades): their call of 0 is shown as such."""


def deal_result(entry: Any, rules: Rules, describe: Callable[[str], str] = str) -> DealResult:
    """The public outcome of a match entry's deal; ``describe`` words a void or unplayed reason.

    Only what was public at the table is taken: hands never are, and the
    partner only once the deal is over.
    """
    deal = entry.deal
    over = deal.phase == "over"
    counted = rules.shape.card_points
    bids: list[int | str | None] = [None] * deal.players
    for seat, bid in deal.bids:
        bids[seat] = bid
    return DealResult(
        number=entry.number,
        tie_break=entry.tie_break,
        void_reason=None if deal.void_reason is None else describe(deal.void_reason),
        calls=tuple(deal.calls),
        tricks=tuple(deal.tricks),
        points=tuple(deal.points) if over and deal.points is not None else None,
        totals=tuple(entry.totals),
        counting=tuple(entry.counting_seats),
        game=rules.game,
        contract=deal.contract,
        declarer=deal.declarer,
        partner=deal.partner if over and deal.partner_card is not None else None,
        card_points=None if counted is None else tuple(counted(deal)),
        dealt_in=tuple(deal.dealt_in),
        dropped=tuple(sorted(deal.dropped)),
        trump=deal.trump,
        unplayed=None if deal.unplayed is None else describe(deal.unplayed),
        lowest_wins=rules.shape.lowest_wins,
        last_bids=tuple(bids),
        blind_nils=tuple(observe_public(deal).blind_nils),
    )


def summary_cell(result: DealResult, seat: int, key: str) -> str:
    """One cell of a finished deal's summary (a ``COLUMN_LABELS`` key) for one seat.

    A seat out of the game or sitting the deal out says so in the ``won``
    column; the points of a seat that does not count (a tie-break deal) are
    bracketed.
    """
    if key == "call":
        call = result.calls[seat]
        if seat in result.blind_nils:
            return "blind nil"
        return "–" if call is None else str(call)
    if key == "bid":
        mark = "partner" if seat == result.partner and seat != result.declarer else ""
        if seat == result.declarer and result.contract is not None:
            return str(result.contract)
        said = result.last_bids[seat] if result.last_bids else None
        return mark or ("" if said is None else str(said))
    if key == "won":
        if result.dealt_in and seat not in result.dealt_in:
            return "out"
        return "sat out" if seat in result.dropped else str(result.tricks[seat])
    if key == "card_points":
        return "" if result.card_points is None else str(result.card_points[seat])
    if key == "points":
        if result.points is None:
            return "-"
        shown = str(result.points[seat])
        return shown if seat in result.counting else f"({shown})"
    if key == "total":
        return str(result.totals[seat])
    raise KeyError(f"no summary column {key!r}; columns are {', '.join(COLUMN_LABELS)}")

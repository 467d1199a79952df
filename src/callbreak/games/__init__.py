"""Every game of the family as one record, registered once and found by name.

A ``Game`` holds everything that tells one game from another: its deck, seats
and hand size, the phases a deal walks through and how its cards are dealt and
scored, what its faces say, which bot policy plays it and the words of its
hints, and the named presets that play it.  Code outside this package never
asks ``if game == "rook"``: it reads a field or calls a hook of the record
(``rules.shape`` is the record of the rules' game), and a game that needs
something new gets a new field here rather than an ``if`` elsewhere.

This module is only the record and the registry, so that ``callbreak.rules``
(below the engine) can look a game up; the games themselves live in the
modules beside it (``callbreak.games.callbreak``, ``...batak`` and so on),
which compose the engine's phases and scorers, and ``callbreak.games.family``
imports them all, which registers them (``import callbreak`` does it).

>>> find_game("rook").title
'Call Partner (Rook)'
>>> find_game("bridge")  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
ValueError: unknown game 'bridge': choose one of callbreak, batak, snarples, donut, ...
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

from callbreak.points import Points

# This module sits below the engine (``Rules`` reads it), so it names no engine type:
# a deal (``engine.deal.Deal``), a phase (``engine.phases.Phase``) and a layout
# (``engine.games.Layout``) are ``Any`` here, and the engine knows what it put in.
Dealing = Callable[[Sequence[int], Sequence[int], int], Any]
"""Lays out one deal (an ``engine.games.Layout``): the deck in dealing order, the seats
dealt in (from the seat after the dealer), and the hand size."""
Scorer = Callable[[Any], list[Points]]
"""Each seat's change of score for a finished deal."""


class Scale(Protocol):
    """The options a game's ``swing`` may read (``Rules`` has them)."""

    @property
    def bonus_points(self) -> int: ...

    @property
    def score_multiplier(self) -> int: ...


HELD, TURNED_OUT = "held", "out"
"""Where a game's face-up card lies (``Game.upcard``): in the dealer's hand (Donut), or
turned up and never drawn (Horsethief)."""


_CALL_WORDS = re.compile(r"(?<![{\w])call(s|ed)?\b")
"""Call Break's word for a contract in its three forms, lower case ("Call Break", "{calls}"
and "recall" are not it)."""


@dataclass(frozen=True)
class Contract:
    """What a call game names the tricks each seat says it will take, in its rule book's words:
    Call Break's seats call, Spades' and Oh Hell's bid.  Every face takes the word from here,
    so that no face asks which game it draws."""

    word: str = "call"
    """The noun and the verb: "your call", "call 4"."""
    plural: str = "calls"
    """The plural and the verb after a seat's name: "calls so far", "East calls 4"."""
    past: str = "called"
    """"you called 4 and won 5"."""

    def reword(self, text: str) -> str:
        """``text``, written in Call Break's words ("your call", "calls 4", "called"), in
        this game's; a fact in braces (``{calls}``) is left as it is.

        >>> BID.reword("Your call ({calls}): East calls 4, you called 3 (Call Break)")
        'Your bid ({calls}): East bids 4, you bid 3 (Call Break)'
        """
        forms = {None: self.word, "s": self.plural, "ed": self.past}
        return _CALL_WORDS.sub(lambda found: forms[found.group(1)], text)


CALL = Contract()
BID = Contract("bid", "bids", "bid")


@dataclass(frozen=True)
class Face:
    """What a game's seats show while it is played, and how a finished deal is summed up:
    plain words and keys, which each face (terminal, browser, plain lines) draws its own way."""

    stats: tuple[str, ...]
    """A seat's status line, by stat name (``faces.STAT_LABELS``)."""
    summary: tuple[str, ...]
    """The columns of a finished deal's summary (``faces.COLUMN_LABELS``)."""
    scoring: str | Callable[[Any], str]
    """One line on how the game scores, for the rules panel and the scoresheet: words, or
    words made from the rules in force where the game's options change its scoring
    (``faces.scoring_text`` reads either)."""
    stock: bool = False
    """Whether the undealt stock matters to the players (it is drawn from) and is shown."""
    contract: Contract = CALL
    """A call game's word for each seat's contract (``BID`` where its rule book bids)."""


@dataclass(frozen=True)
class Hints:
    """The words a hint uses for what a trick, a bid or sitting out is worth in this game.

    The advice reads the person's situation the same way in every game; only
    these stakes differ.  ``{bid}`` in a text stands for the bid in question.
    """

    trick: str = "each trick is −1"
    """What one more trick is worth to a seat that has won one already."""
    no_trick: str = ""
    """What winning no trick costs a seat that plays (``+5``, ``+3 donut``)."""
    none_cost: int = 0
    """The size of that cost, for weighing a hand's chance of taking nothing."""
    failed_bid: str = "−{bid}"
    """What a failed bid costs the bidder."""
    bid_prize: str = "names trump"
    """What winning the auction brings."""
    defend: str = "each trick is −1"
    """What a trick is worth to a seat that does not bid."""
    bid_made: str | None = None
    """After the bidder has made a bid counted in tricks, what each more trick is worth to
    it; None where the bid is not counted in tricks."""
    defenders_score: bool = False
    """Whether the defenders score their own tricks against a bid (Batak: +1 a trick, −bid
    for none), so that a defender is told how far the bid is from being set."""
    trump_notes: Mapping[str, str] = field(default_factory=dict)
    """What naming a trump suit (by letter) does beyond making it trump."""
    sit_out: tuple[int, int] | None = None
    """Sitting out costs ``cost`` at a score of ``at_most`` or less: ``(at_most, cost)``."""
    call_short: str = "falling short would cost the whole call"
    """In a call game, what a call above the hand's rating risks."""
    call_made: str | None = None
    """In a call game, why a trick more is unwelcome once the call is made; None: read from
    the options (Call Break's overtrick tenths, Call Bridge's window)."""


@dataclass(frozen=True)
class Preset:
    """A named way to play a game: its title and the options it changes from the defaults."""

    name: str
    title: str
    game: str
    options: Mapping[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class Game:
    """One game of the family: its facts, its engine pieces, its faces, bots and hints."""

    name: str
    title: str
    deck: str
    """``standard`` (52 cards) or ``rook`` (57): a key of ``callbreak.decks.DECKS``."""
    seats: tuple[int, int]
    """Fewest and most players."""
    hand_size: int
    trump: int
    """The fixed trump suit, or -1 when each deal decides it (chosen, turned up or none)."""
    options: tuple[str, ...]
    """The options of the rule book this game has, in the order ``callbreak rules`` lists them."""
    phases: tuple[Any, ...]
    """The phases a deal walks through, in order (``callbreak.engine.phases``)."""
    dealing: Dealing
    scorer: Scorer
    face: Face
    policy: str
    """The bot policy that plays it, by name: the bots map the name to their code."""
    swing: Callable[[Scale], float]
    """The largest change of one seat's score in one deal (a learner scales points by it)."""
    hints: Hints = Hints()
    start: int = 0
    """Every seat's score before the first deal (the countdown games start high)."""
    lowest_wins: bool = False
    """Countdown games: the lowest total wins the match."""
    ends_at_zero: bool = False
    """Countdown games: the match ends after a deal in which a seat reaches 0 or below."""
    out_at: int | None = None
    """A seat with this score or more after a deal is out of the game (Snarples)."""
    wins_at_once: Callable[[Any], int | None] | None = None
    """A deal that ends the match on the spot, naming its winner (Snarples' spade out)."""
    needs_context: bool = False
    """Whether its deals read the match's scores, sit-outs or seats out of the game."""
    calls: bool = False
    """Whether every seat calls its own contract before the play (the call games), rather
    than one declarer winning an auction."""
    card_points: Callable[[Any], list[int]] | None = None
    """The card points each seat has taken, in a game whose contract is counted in card
    points (Call Partner); None where tricks are counted."""
    upcard: str | None = None
    """The face-up card: ``HELD`` (one of the dealer's own cards, Donut), ``TURNED_OUT``
    (turned up and never drawn, Horsethief), None where there is none."""
    bhoos: bool = False
    """Whether the Bhoos bot protocol can seat a remote bot at this game."""
    presets: tuple[Preset, ...] = ()
    """The presets of this game (and of others that this module names, in listing order)."""
    partnerships: tuple[tuple[int, ...], ...] = ()
    """Fixed sides, each a tuple of seats (Spades: 0 and 2 against 1 and 3); empty where every
    seat plays for itself.  A side scores as one: its seats' deal points and totals are equal,
    and it wins or loses the match together."""
    schedule: Callable[[Any], tuple[int, ...]] | None = None
    """The hand size of each deal of a match under the given rules, in order (Oh Hell's 10, 9,
    ..., 1); None where every deal deals ``hand_size``.  Its length is the match's length."""
    dealing_by_rules: Callable[[Any], Dealing] | None = None
    """The dealing under the given rules, for a game whose options change how it deals (Oh
    Hell turns up a card only when the turn-up decides trump); None: always ``dealing``."""
    largest_hand: Callable[[Any], int] | None = None
    """The most cards a seat may be dealt under the given rules (what the deck allows), for a
    game whose hand size changes deal by deal; None where it is always ``hand_size``."""
    summary: Callable[[Any], str] | None = None
    """The game in a few sentences under the given rules, for the help screen; None: told
    from its shape and phases alone (the five-card games, Batak, Call Partner)."""
    limits: Callable[[Any], str | None] | None = None
    """Why options that are each allowed cannot be played together in this game (a Batak bid
    of more tricks than a hand holds), or None; ``Rules`` refuses such rules with it."""

    def side(self, seat: int) -> tuple[int, ...]:
        """The seats that play with ``seat`` (itself included): its partnership, or itself."""
        for side in self.partnerships:
            if seat in side:
                return side
        return (seat,)

    @property
    def phase_names(self) -> tuple[str, ...]:
        return tuple(phase.name for phase in self.phases)


def match_end_text(rules: Any) -> str:
    """How a match of these rules ends, as the help screens say it (every game but the
    countdown games ends this way)."""
    if rules.match_end == "deals":
        return f"{rules.match_deals} deals; the highest total wins."
    if rules.match_end == "open":
        return "Play as many deals as you like; the highest total wins."
    return f"First to {rules.match_end.split(':')[1]} points wins."


GAMES: dict[str, Game] = {}
"""Every registered game by name, in registration order."""
PRESETS: dict[str, Preset] = {}
"""Every registered preset by name, in the order ``callbreak rules`` lists them."""


def register(game: Game) -> Game:
    """Add ``game`` and its presets to the registry; a second game of one name is an error."""
    if game.name in GAMES:
        raise ValueError(f"a game named {game.name!r} is registered already")
    for preset in game.presets:
        if preset.name in PRESETS:
            raise ValueError(f"a preset named {preset.name!r} is registered already")
        if preset.game != game.name and preset.game not in GAMES:
            raise ValueError(f"preset {preset.name!r} plays {preset.game!r}, not a known game")
    GAMES[game.name] = game
    PRESETS.update((preset.name, preset) for preset in game.presets)
    return game


def find_game(name: str) -> Game:
    """The record of the game ``name``; an unknown name is an error, never a default game."""
    try:
        return GAMES[name]
    except KeyError:
        raise ValueError(f"unknown game {name!r}: choose one of {', '.join(GAMES)}") from None


def find_preset(name: str) -> Preset:
    """The preset ``name``; an unknown name is an error that lists them."""
    try:
        return PRESETS[name]
    except KeyError:
        raise ValueError(f"unknown preset {name!r}: choose one of {', '.join(PRESETS)}") from None

"""Rules: a frozen, validated set of options under the canonical names of docs/rules/.

A preset is just a named set of option values; ``replace`` checks every change
against the option table below, so a typo or a bad value fails loudly with the
list of what is allowed instead of silently playing another game.

>>> rules = Rules.preset("callbreak").replace(must_trump="always", max_call=8)
>>> rules.must_trump, rules.max_call, rules.name
('always', 8, 'callbreak')
>>> Rules.preset("callbreak").replace(must_trump="sometimes")
Traceback (most recent call last):
...
ValueError: must_trump='sometimes' is not allowed: choose one of winning, always, never
"""

from __future__ import annotations

import dataclasses
import json
import re
from collections.abc import Callable, Mapping
from dataclasses import MISSING, dataclass, field, fields
from functools import cache
from typing import Any

from callbreak.games import PRESETS, Game, Preset, find_game, find_preset
from callbreak.points import Points


def _first_preset(game: str) -> Preset | None:
    """The game's own first preset (Call Break's ``callbreak``), None for a game without one."""
    return next((p for p in PRESETS.values() if p.game == game), None)


@cache
def game_facts(game: str) -> dict[str, Any]:
    """The values a game holds fixed: every field of ``Rules`` that is not one of its options
    (Snarples' bids 1 to 5, its shared ties), as its first preset sets them.

    A rules set of the game under another name (a record's own preset name) gets them too, so
    no game ever plays by another game's defaults; ``match_deals`` is left to the game's
    schedule and to ``deals:N``."""
    own = find_game(game).options
    base = _first_preset(game)
    preset = {} if base is None else dict(base.options)
    defaults = {f.name: f for f in fields(Rules)}
    facts: dict[str, Any] = {}
    for option in OPTIONS:
        if option.name in own or option.name in ("match_deals", "players"):
            continue
        if option.name in preset:
            facts[option.name] = option.check(preset[option.name])
        else:
            default = defaults[option.name]
            factory = default.default_factory
            facts[option.name] = default.default if factory is MISSING else factory()
    return facts


@dataclass(frozen=True)
class Option:
    """One rule option: its name, what values it takes, and what it means."""

    name: str
    allowed: str
    help: str
    check: Callable[[Any], Any] = field(repr=False, compare=False)


def _choice(*values: str) -> Callable[[Any], Any]:
    def check(value: Any) -> Any:
        if value in values:
            return value
        raise ValueError(f"choose one of {', '.join(values)}")

    return check


def _bool(value: Any) -> bool:
    if isinstance(value, bool):
        return value
    if isinstance(value, str) and value.lower() in {"on", "true", "yes", "1"}:
        return True
    if isinstance(value, str) and value.lower() in {"off", "false", "no", "0"}:
        return False
    raise ValueError("choose on or off (true/false)")


def _int_range(low: int, high: int, optional: bool = False) -> Callable[[Any], Any]:
    def check(value: Any) -> Any:
        if optional and (value is None or (isinstance(value, str) and value.lower() == "none")):
            return None
        if isinstance(value, str) and re.fullmatch(r"-?\d+", value.strip()):
            value = int(value)
        if isinstance(value, int) and not isinstance(value, bool) and low <= value <= high:
            return value
        none = " or none" if optional else ""
        raise ValueError(f"give a whole number from {low} to {high}{none}")

    return check


def _points(value: Any) -> Points:
    try:
        points = Points.parse(value)
    except ValueError:
        raise ValueError("give a number with at most one decimal, e.g. 0.1 or 0") from None
    if not 0 <= points.tenths <= 990:
        raise ValueError("give a number from 0 to 99")  # as bonus_points: scores stay small ints
    return points


def _success_window(value: Any) -> str:
    if value in ("at_least", "call_or_one_over", "exact"):
        return str(value)
    if isinstance(value, str) and re.fullmatch(r"call_to_call_plus:[1-9]\d?", value):
        return value
    raise ValueError("choose one of at_least, call_or_one_over, exact, call_to_call_plus:N")


def _match_end(value: Any) -> str:
    if value in ("deals", "open"):
        return str(value)
    if isinstance(value, str) and re.fullmatch(r"deals:[1-9]\d?|target:[1-9]\d{0,3}", value):
        return value
    raise ValueError(
        "choose one of deals (play match_deals deals), deals:N (N from 1 to 99), target:T "
        "(T from 1 to 9999), open"
    )


def _faces(value: Any) -> str:
    if isinstance(value, str) and value and set(value.upper()) <= set("AKQJ"):
        return "".join(r for r in "AKQJ" if r in value.upper())
    raise ValueError("give the honour ranks that save a hand, e.g. AKQJ or KQJ")


OPTIONS: tuple[Option, ...] = (
    Option(
        "misdeal",
        "claim | auto | off",
        "A hand with no spade, or no honour (see misdeal_faces), may be thrown in: "
        "claim = its holder decides, auto = always redealt, off = no misdeal.",
        _choice("claim", "auto", "off"),
    ),
    Option(
        "misdeal_faces",
        "AKQJ | KQJ | ...",
        "Which honours keep a hand from being a misdeal (docs/rules/callbreak.md rule 2 uses "
        "AKQJ; the Bhoos arena redeals a hand without J, Q or K: KQJ).",
        _faces,
    ),
    Option(
        "misdeal_no_spade",
        "on | off",
        "Everyone must hold a spade: a hand without one is always redealt (a Call Bridge rule).",
        _bool,
    ),
    Option("min_call", "1..13", "Lowest call allowed.", _int_range(1, 13)),
    Option("max_call", "1..13", "Highest call allowed.", _int_range(1, 13)),
    Option(
        "min_total_calls",
        "0..52 | none",
        "If the four calls add up to less, the deal is void and the same dealer deals again.",
        _int_range(0, 52, optional=True),
    ),
    Option(
        "must_overtake",
        "on | off",
        "Following suit, you must beat the winning card of the led suit if you can "
        "(unless the trick is already trumped).",
        _bool,
    ),
    Option(
        "must_trump",
        "winning | always | never",
        "Void in the led suit: winning = play a trump that beats every trump in the trick if you "
        "hold one, else any card; always = any trump if you hold one (a winning one if you can); "
        "never = any card.",
        _choice("winning", "always", "never"),
    ),
    Option(
        "no_waste_trump",
        "on | off",
        "When a side suit was led and already trumped, you may not under-trump unless you have "
        "nothing else to play.",
        _bool,
    ),
    Option(
        "no_spade_lead_first_trick",
        "on | off",
        "No spade may be led to the first trick unless the leader holds only spades.",
        _bool,
    ),
    Option(
        "spades_broken",
        "on | off",
        "No trump (a spade in Call Break) may be led until a trump has been played to an "
        "earlier trick, unless the leader holds only trumps.",
        _bool,
    ),
    Option(
        "declare_voids",
        "on | off",
        'After the calls, each player with a void suit may declare it ("side off"); a '
        "declaration only makes the void public.",
        _bool,
    ),
    Option(
        "scoring",
        "callbreak | callbridge",
        "callbreak: a bonus call scores its bonus whenever made; callbridge: the bonus also "
        "needs the call or one more. Otherwise success scores +call (+ overtricks), failure -call.",
        _choice("callbreak", "callbridge"),
    ),
    Option(
        "success_window",
        "at_least | call_or_one_over | exact | call_to_call_plus:N",
        "Which trick counts make a call: at least the call, the call or one more, exactly the "
        "call, or from the call to the call plus N.",
        _success_window,
    ),
    Option(
        "overtrick_points",
        "0 | 0.1 | ... | 99",
        "Points for each trick won above a made call (Call Break: 0.1).",
        _points,
    ),
    Option(
        "bonus_call",
        "1..13 | none",
        "A made call of this many or more scores bonus_points flat instead of the call.",
        _int_range(1, 13, optional=True),
    ),
    Option(
        "bonus_points",
        "1..99",
        "What a made bonus call scores (13; a house rule uses 16).",
        _int_range(1, 99),
    ),
    Option("match_deals", "1..99", "Deals in a match when match_end = deals.", _int_range(1, 99)),
    Option(
        "match_end",
        "deals | deals:N | target:T | open",
        "deals = play match_deals deals (5 where the game has no match_deals); deals:N = N "
        "deals; target:T = first to reach T at the end of a deal (the higher total if several); "
        "open = until the players stop.",
        _match_end,
    ),
    Option(
        "tie_break",
        "extra_deal | shared",
        "A tie at the top: extra_deal = one more deal among all, only the tied seats' points "
        "count, repeated while tied; shared = the tied seats share the win.",
        _choice("extra_deal", "shared"),
    ),
    Option(
        "first_dealer",
        "random | draw_low | draw_high",
        "Who deals first: at random, or by drawing a card (lowest or highest deals; ties draw "
        "again). A seed reproduces either.",
        _choice("random", "draw_low", "draw_high"),
    ),
    Option(
        "players",
        "the game's seat range",
        "How many play: Call Break, Call Bridge, Batak and Call Partner are for 4; the five-card "
        "games take a range.",
        _int_range(2, 8),
    ),
    Option(
        "min_bid",
        "1..200",
        "Lowest bid of the auction (Batak 5; Call Partner 70, a choice of "
        "docs/rules/rook-call-partner.md).",
        _int_range(1, 200),
    ),
    Option("max_bid", "1..200", "Highest bid of the auction.", _int_range(1, 200)),
    Option(
        "bid_step",
        "1..50",
        "Bids go up in steps of this many (Call Partner bids in fives).",
        _int_range(1, 50),
    ),
    Option(
        "forced_bid",
        "0..200 | none",
        "When all the others pass and the last seat in never bid, it takes the contract at this "
        "bid (Batak: the dealer at 4); none = at min_bid.",
        _int_range(0, 200, optional=True),
    ),
    Option(
        "last_trick_points",
        "0..100",
        "Card points for winning the last trick (Call Partner: 20).",
        _int_range(0, 100),
    ),
    Option(
        "score_multiplier",
        "1..100",
        "Every score of a deal is multiplied by this (a Turkish app plays Batak Koz Maça "
        "with call_to_call_plus:3 and x10).",
        _int_range(1, 100),
    ),
)

OPTIONS += (
    Option(
        "blind_nil",
        "on | off",
        'Spades: a seat may bid "blind nil" before looking at its cards: no trick, worth twice '
        "a nil (200).",
        _bool,
    ),
    Option(
        "cap_side_bids",
        "on | off",
        "Spades: partners' bids together may not exceed 13 (OpenSpiel's rule).",
        _bool,
    ),
    Option(
        "mercy_rule",
        "on | off",
        "Spades: a partnership at or below mercy_threshold after a deal loses the match at once.",
        _bool,
    ),
    Option(
        "mercy_threshold",
        "-1000..0",
        "Spades: the score that loses at once under mercy_rule (-350).",
        _int_range(-1000, 0),
    ),
    Option(
        "hook",
        "on | off",
        "Oh Hell: the last bidder (the dealer) may not make the bids add up to the tricks of "
        "the deal, so someone must fail.",
        _bool,
    ),
    Option(
        "trump",
        "turn_up | rotate | none",
        "Oh Hell: the card after the hands is turned up and its suit is trump (turn_up); trump "
        "goes S, D, C, H by deal (rotate, Judgement); or no trump (none).",
        _choice("turn_up", "rotate", "none"),
    ),
    Option(
        "exact_bonus",
        "0..100",
        "Oh Hell: points for taking exactly the tricks bid, on top of the tricks' points.",
        _int_range(0, 100),
    ),
    Option(
        "points_per_trick",
        "0..10",
        "Oh Hell: points for each trick taken (on a miss too when miss_points = tricks).",
        _int_range(0, 10),
    ),
    Option(
        "miss_points",
        "tricks | zero | off_bid",
        "Oh Hell, a bid missed: tricks = points_per_trick a trick taken, no bonus (Oh Hell); "
        "zero = nothing (Judgement); off_bid = minus points_per_trick a trick off the bid.",
        _choice("tricks", "zero", "off_bid"),
    ),
    Option(
        "sequence",
        "down | down_up | up_down",
        "Oh Hell: hand sizes over a match: from start down to 1; down to 1 and back up; or up "
        "from 1 to start and back down.",
        _choice("down", "down_up", "up_down"),
    ),
    Option(
        "start",
        "1..51 | none",
        "Oh Hell: the largest hand of the match (capped by what the deck allows); none = the "
        "most the deck allows.",
        _int_range(1, 51, optional=True),
    ),
)

OPTION_BY_NAME: Mapping[str, Option] = {option.name: option for option in OPTIONS}


CALL_OPTIONS = (
    "players", "misdeal", "misdeal_faces", "misdeal_no_spade", "min_call", "max_call",
    "min_total_calls", "must_overtake", "must_trump", "no_waste_trump",
    "no_spade_lead_first_trick", "spades_broken", "declare_voids", "scoring", "success_window",
    "overtrick_points", "bonus_call", "bonus_points", "score_multiplier",
)  # fmt: skip
MATCH_OPTIONS = ("match_deals", "match_end", "tie_break", "first_dealer")
BATAK_OPTIONS = (
    "players", "min_bid", "max_bid", "forced_bid", "must_overtake", "must_trump",
    "no_waste_trump", "spades_broken", "score_multiplier",
)  # fmt: skip


def option_text(value: Any) -> str:
    """An option value as a person types it: on/off, none, 0.1."""
    if isinstance(value, bool):
        return "on" if value else "off"
    return "none" if value is None else str(value)


def _given_text(value: Any) -> str:
    """A refused option value as its giver wrote it, in the rule book's syntax: ``true`` or
    ``false`` (a game record's ``"players": true``), ``none``, never Python's ``True``; any
    other value as Python shows it, so that a text shows where it ends (``'maybe'``, ``' 5'``).

    >>> _given_text(True), _given_text(None), _given_text("maybe"), _given_text(5)
    ('true', 'none', "'maybe'", '5')
    """
    if isinstance(value, bool):
        return "true" if value else "false"
    return "none" if value is None else repr(value)


@dataclass(frozen=True)
class Rules:
    """The rules of one game: a preset name, the game it plays, and every option's value.

    The game (its record, ``shape``: ``callbreak.games``) fixes the structure
    (deck, hand size, seat range, a fixed trump or none); options change the
    rest.  Only the game's own options may be changed: ``replace(must_trump=...)``
    on Call Partner is an error.
    """

    name: str = "callbreak"
    game: str = "callbreak"
    players: int = 4
    misdeal: str = "claim"
    misdeal_faces: str = "AKQJ"
    misdeal_no_spade: bool = False
    min_call: int = 1
    max_call: int = 13
    min_total_calls: int | None = 8
    must_overtake: bool = True
    must_trump: str = "winning"
    no_waste_trump: bool = False
    no_spade_lead_first_trick: bool = False
    spades_broken: bool = False
    declare_voids: bool = False
    scoring: str = "callbreak"
    success_window: str = "at_least"
    overtrick_points: Points = field(default_factory=lambda: Points(1))
    bonus_call: int | None = None
    bonus_points: int = 13
    match_deals: int = 5
    match_end: str = "deals"
    tie_break: str = "extra_deal"
    first_dealer: str = "random"
    min_bid: int = 5
    max_bid: int = 13
    bid_step: int = 1
    forced_bid: int | None = None
    last_trick_points: int = 20
    score_multiplier: int = 1
    blind_nil: bool = False
    cap_side_bids: bool = False
    mercy_rule: bool = True
    mercy_threshold: int = -350
    hook: bool = True
    trump: str = "turn_up"
    exact_bonus: int = 10
    points_per_trick: int = 1
    miss_points: str = "tricks"
    sequence: str = "down"
    start: int | None = None
    # Facts of the game, set once in __post_init__ (read on hot paths; not options).
    shape: Game = field(init=False, repr=False, compare=False)
    """The record of the game: everything that tells it from the others."""
    hand_size: int = field(init=False, repr=False, compare=False)
    trump_suit: int = field(init=False, repr=False, compare=False)
    """The fixed trump suit (0, spades, in Call Break), or -1 where each deal decides."""

    def __post_init__(self) -> None:
        shape = find_game(self.game)
        object.__setattr__(self, "shape", shape)
        object.__setattr__(self, "trump_suit", shape.trump)
        for option in OPTIONS:
            value = getattr(self, option.name)
            try:
                checked = option.check(value)
            except ValueError as error:
                why = str(error)
                if option.name == "players":
                    why = self._seats_text(shape)  # the game's range, not every game's
                shown = _given_text(value)
                raise ValueError(f"{option.name}={shown} is not allowed: {why}") from None
            if checked != value or type(checked) is not type(value):
                object.__setattr__(self, option.name, checked)
        for name, value in game_facts(self.game).items():
            object.__setattr__(self, name, value)
        low, high = shape.seats
        if not low <= self.players <= high:
            raise ValueError(f"players={self.players!r} is not allowed: {self._seats_text(shape)}")
        # The first deal's hand size; a game whose hands change deal by deal plays its
        # schedule, which is the match (match_deals is not its option).
        sizes = None if shape.schedule is None else shape.schedule(self)
        object.__setattr__(self, "hand_size", shape.hand_size if sizes is None else sizes[0])
        if sizes is not None:
            object.__setattr__(self, "match_deals", len(sizes))
        if self.match_end.startswith("deals:"):
            # deals:N is a shorthand for match_end=deals with match_deals=N.
            object.__setattr__(self, "match_deals", int(self.match_end[6:]))
            object.__setattr__(self, "match_end", "deals")
        if self.min_call > self.max_call:
            raise ValueError(
                f"min_call={self.min_call} is above max_call={self.max_call}: "
                "min_call must not exceed max_call"
            )
        if self.min_bid > self.max_bid:
            raise ValueError(
                f"min_bid={self.min_bid} is above max_bid={self.max_bid}: "
                "min_bid must not exceed max_bid"
            )
        clash = None if shape.limits is None else shape.limits(self)
        if clash is not None:
            raise ValueError(clash)

    def _seats_text(self, shape: Game) -> str:
        low, high = shape.seats
        return f"{self.title} is played by {low if low == high else f'{low} to {high}'}"

    @property
    def title(self) -> str:
        """The game's name for people, e.g. "Call Bridge"."""
        preset = PRESETS.get(self.name)
        return preset.title if preset is not None else self.shape.title

    @classmethod
    def preset(cls, name: str) -> Rules:
        """The rules of a named preset from docs/rules/, e.g. ``callbreak``, ``callbridge``."""
        preset = find_preset(name)
        return cls(name=name, game=preset.game, **preset.options)

    @classmethod
    def of_game(cls, game: str) -> Rules:
        """The rules of the game ``game``'s first preset (``ohhell``: Oh Hell's)."""
        first = _first_preset(game)
        return cls(game=find_game(game).name) if first is None else cls.preset(first.name)

    @classmethod
    def presets(cls) -> list[str]:
        return list(PRESETS)

    def replace(self, **changes: Any) -> Rules:
        """A copy with some options changed; an unknown name or bad value is a ValueError."""
        own = self.shape.options
        end, deals = str(changes.get("match_end", "")), changes.get("match_deals")
        if end.startswith("deals:") and deals is not None and str(deals) != end[6:]:
            raise ValueError(
                f"match_end={end} and match_deals={deals} say different lengths: give one of them"
            )
        for name in changes:
            if name not in OPTION_BY_NAME:
                raise ValueError(f"unknown rule option {name!r}: choose from {', '.join(own)}")
            if name not in own:
                raise ValueError(
                    f"{name} is not an option of {self.title} ({self.name}): "
                    f"choose from {', '.join(own)}"
                )
        return dataclasses.replace(self, **changes)

    def with_an_end(self) -> Rules:
        """These rules, but an open-ended match (``match_end = open``, stopped only by its
        players) plays ``match_deals`` deals: what a match played by programs needs (the
        arena's whole matches, an env's ``reward="match"``)."""
        return self.replace(match_end="deals") if self.match_end == "open" else self

    def options(self) -> dict[str, Any]:
        """Every option of this game with its value, by canonical name.

        Where the game has ``match_end`` but no ``match_deals`` option (Spades, Horsethief),
        a match of a number of deals is written ``deals:N``: the count would otherwise be
        lost on the way through a record or a table's stored rules."""
        out = {name: getattr(self, name) for name in self.shape.options}
        if out.get("match_end") == "deals" and "match_deals" not in out:
            out["match_end"] = f"deals:{self.match_deals}"
        return out

    def changed(self) -> dict[str, Any]:
        """The options that differ from this preset's own values."""
        base = Rules.preset(self.name) if self.name in PRESETS else Rules(game=self.game)
        own = base.options()
        return {k: v for k, v in self.options().items() if own[k] != v}

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready dict: the preset name and every option (points as numbers)."""
        out: dict[str, Any] = {"preset": self.name}
        if self.name not in PRESETS:  # a name of one's own: say whose rules these are
            out["game"] = self.game
        for name, value in self.options().items():
            out[name] = value.json() if isinstance(value, Points) else value
        return out

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Rules:
        """Inverse of ``to_dict``; missing options take the preset's values."""
        data = dict(data)
        name = data.pop("preset", data.pop("name", "callbreak"))
        game = data.pop("game", None)
        if name not in PRESETS and game is None:  # not a custom game's own name either
            find_preset(str(name))  # raises: unknown preset, with the list to choose from
        base = cls.preset(name) if name in PRESETS else cls(name=name, game=game or "callbreak")
        return base.replace(**data)

    def to_json(self) -> str:
        return json.dumps(self.to_dict(), sort_keys=False)

    @classmethod
    def from_json(cls, text: str) -> Rules:
        return cls.from_dict(json.loads(text))

    # Derived facts the engine asks for on its hot path.
    def success(self, call: int, won: int) -> bool:
        """Whether winning ``won`` tricks makes a call of ``call`` under the success window."""
        window = self.success_window
        if window == "at_least":
            return won >= call
        if window == "call_or_one_over":
            return call <= won <= call + 1
        if window == "exact":
            return won == call
        return call <= won <= call + int(window.rsplit(":", 1)[1])

    def score(self, call: int, won: int) -> Points:
        """Points of one seat for one deal of a call game, times ``score_multiplier``.

        >>> rules = Rules.preset("callbreak")
        >>> [str(rules.score(4, won)) for won in (5, 7, 3, 4)]
        ['4.1', '4.3', '-4', '4']
        """
        points = self._score(call, won)
        return points if self.score_multiplier == 1 else points * self.score_multiplier

    def _score(self, call: int, won: int) -> Points:
        if not self.success(call, won):
            return Points.whole(-call)
        bonus = self.bonus_call is not None and call >= self.bonus_call
        if bonus and self.scoring == "callbridge":
            bonus = call <= won <= call + 1
        if bonus:
            return Points.whole(self.bonus_points)
        return Points.whole(call) + self.overtrick_points * max(0, won - call)

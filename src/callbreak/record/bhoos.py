"""Import a Bhoos tournament game log as a game record, checking every play against the rules.

A tournament log is ``{"players": [names], "rounds": [{"dealer", "cards",
"bids", "errors", "actions": [{"started", "cards", "ended"}], "scores",
"responseTimes"}], "ranks"}``; indices point into ``players``, which is the
turn order, and cards are spelled rank then suit with ``1`` for the ace.

Two passes, both through the one rules engine:

1. **Verification.** Each round is played on its own ``Deal`` with the
   logged dealer, hands, calls and cards, so a problem in one round does not
   hide those in the next.  Every call and card goes through ``Deal.act``; the
   first one the rules refuse is reported with the engine's reason (the rest of
   that round cannot be checked: the engine will not apply a refused card).
   The trick leaders and winners and the round's points are compared with the
   log, and so are the logged running totals (``scores``).
2. **The record.** A ``Match`` is fed the same rounds in order and written
   with ``match_record``.  It stops at the first problem (a play the rules
   refuse, a dealer out of rotation), so the record always replays, and
   the report says where it stops.

Rules: the ``callbreak-bhoos`` preset, with these documented adjustments so
that a real tournament game fits: ``min_total_calls`` is None when some
round's calls add up to less than 8 (the tournament had no such rule; the
preset inherits 8 from ``callbreak``), ``match_deals`` is the number of rounds
logged when it is not 5, and ``tie_break`` is ``shared`` when the computed
totals tie at the top (the tournament played no extra deal).  The logged
hands are the ones played; a hand the preset would have redealt (no spade, or
no J, Q or K) is reported.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from callbreak.cards import CARD_NAMES, parse_card
from callbreak.engine.deal import OVER, VOID, Deal
from callbreak.engine.errors import IllegalAction
from callbreak.engine.match import Match
from callbreak.points import Points
from callbreak.record.format import Record, match_record
from callbreak.rules import Rules

PRESET = "callbreak-bhoos"
PLAYERS = 4
HAND = 13


class BhoosLogError(ValueError):
    """A log that cannot be read as a tournament game (wrong shape, unknown cards)."""


@dataclass(frozen=True)
class LogProblem:
    """Something in the log that the rules or the arithmetic do not allow."""

    round: int
    """1-based round."""
    message: str
    trick: int | None = None
    """1-based trick, when the problem is in one."""
    player: str | None = None

    def __str__(self) -> str:
        where = f"round {self.round}"
        if self.trick is not None:
            where += f", trick {self.trick}"
        if self.player is not None:
            where += f", {self.player}"
        return f"{where}: {self.message}"


@dataclass(frozen=True)
class RoundScore:
    """A round's points as logged (the change in ``scores``) and as the rules give them."""

    round: int
    logged: tuple[Points, ...] | None
    """None when the log has no scores for the round (or not for the one before)."""
    computed: tuple[Points, ...] | None
    """None when the round could not be played to the end."""

    @property
    def matches(self) -> bool | None:
        if self.logged is None or self.computed is None:
            return None
        return self.logged == self.computed


@dataclass
class BhoosImport:
    """What the import found, and the record it wrote."""

    record: Record | None
    """The game record (None when not even the first round could be recorded)."""
    rules: Rules
    players: list[str]
    rounds: int
    adjustments: list[str]
    """Changes to the preset that the log needed, each with its reason."""
    problems: list[LogProblem]
    """Plays that broke the rules, wrong leaders or winners, dealers out of rotation."""
    scores: list[RoundScore]
    plays_checked: int
    """Calls and cards the engine accepted."""
    recorded_rounds: int
    """Rounds played out in the record (it stops at the first problem)."""
    logged_errors: int
    """Entries in the rounds' ``errors`` (faults the tournament recorded)."""
    final_totals: list[Points] | None = None
    """The rules' totals after every round, when every round could be played out."""
    logged_totals: list[Points] | None = None
    notes: list[str] = field(default_factory=list)

    @property
    def scores_match(self) -> bool | None:
        """Whether every round's logged points are the rules' (None: nothing to compare)."""
        checks = [s.matches for s in self.scores if s.matches is not None]
        return None if not checks else all(checks)

    @property
    def ok(self) -> bool:
        """No rule broken, every round in the record, and no logged score differs."""
        return (
            not self.problems
            and self.recorded_rounds == self.rounds
            and (self.scores_match is not False)
        )


# ------------------------------------------------------------------ reading
@dataclass
class _Round:
    dealer: int
    hands: list[list[str]]
    bids: list[int]
    tricks: list[tuple[int, list[str], int]]
    scores: list[Points] | None
    errors: int


def _int(value: Any, where: str, low: int = 0, high: int | None = None) -> int:
    if not isinstance(value, int) or isinstance(value, bool):
        raise BhoosLogError(f"{where} must be a whole number, not {value!r}")
    if value < low or (high is not None and value > high):
        raise BhoosLogError(f"{where} must be from {low} to {high}, not {value}")
    return value


def _list(value: Any, where: str, length: int | None = None) -> list[Any]:
    if not isinstance(value, list):
        raise BhoosLogError(f"{where} must be a list, not {type(value).__name__}")
    if length is not None and len(value) != length:
        raise BhoosLogError(f"{where} must have {length} entries, not {len(value)}")
    return value


def _card(value: Any, where: str) -> str:
    if not isinstance(value, str):
        raise BhoosLogError(f"{where}: {value!r} is not a card name")
    try:
        return CARD_NAMES[parse_card(value)]
    except ValueError:
        raise BhoosLogError(f"{where}: {value!r} is not a card") from None


SCORE_LIMIT = 10**6
"""Far beyond any total a tournament game reaches; Infinity or 1e308 is no score."""


def _score(value: Any, where: str) -> Points:
    """A logged total: a float of tenths, possibly with binary noise (4.299999)."""
    if not isinstance(value, int | float) or isinstance(value, bool):
        raise BhoosLogError(f"{where} must be a number, not {value!r}")
    if not -SCORE_LIMIT <= value <= SCORE_LIMIT:  # NaN fails this too
        raise BhoosLogError(f"{where} must be a score, from {-SCORE_LIMIT} to {SCORE_LIMIT}")
    return Points(round(value * 10))


def _count_errors(value: Any) -> int:
    """Errors the arena logged: a list counts its entries, a mapping what is under each key,
    anything else one if set.  A loop, not recursion: a log may nest as deep as JSON can."""
    if not isinstance(value, Mapping):
        return len(value) if isinstance(value, list) else (1 if value else 0)
    count = 0
    pending = [value]
    while pending:
        for item in pending.pop().values():
            if isinstance(item, Mapping):
                pending.append(item)
            else:
                count += len(item) if isinstance(item, list) else 1
    return count


def _read(log: Any) -> tuple[list[str], list[_Round]]:
    if not isinstance(log, Mapping):
        raise BhoosLogError("a tournament log is a JSON object with players and rounds")
    if "players" not in log or "rounds" not in log:
        raise BhoosLogError('a tournament log has "players" and "rounds"')
    names = _list(log["players"], "players", PLAYERS)
    if not all(isinstance(name, str) for name in names) or len(set(names)) != PLAYERS:
        raise BhoosLogError(f"players must be {PLAYERS} different names, not {names!r}")
    raw_rounds = _list(log["rounds"], "rounds")
    if not raw_rounds:
        raise BhoosLogError("the log has no round")
    rounds = []
    for r, raw in enumerate(raw_rounds, 1):
        where = f"round {r}"
        if not isinstance(raw, Mapping):
            raise BhoosLogError(f"{where} must be a JSON object")
        for key in ("dealer", "cards", "bids", "actions"):
            if key not in raw:
                raise BhoosLogError(f"{where}: missing {key!r}")
        dealer = _int(raw["dealer"], f"{where}: dealer", 0, PLAYERS - 1)
        hands = [
            [_card(c, f"{where}: {names[s]}'s cards") for c in _list(h, f"{where}: cards[{s}]")]
            for s, h in enumerate(_list(raw["cards"], f"{where}: cards", PLAYERS))
        ]
        bids = [
            _int(b, f"{where}: {names[s]}'s bid")
            for s, b in enumerate(_list(raw["bids"], f"{where}: bids", PLAYERS))
        ]
        tricks = []
        for t, action in enumerate(_list(raw["actions"], f"{where}: actions"), 1):
            at = f"{where}, trick {t}"
            if not isinstance(action, Mapping) or not {"started", "cards", "ended"} <= set(action):
                raise BhoosLogError(f"{at}: an action is {{started, cards, ended}}")
            cards = [_card(c, at) for c in _list(action["cards"], f"{at}: cards", PLAYERS)]
            tricks.append(
                (
                    _int(action["started"], f"{at}: started", 0, PLAYERS - 1),
                    cards,
                    _int(action["ended"], f"{at}: ended", 0, PLAYERS - 1),
                )
            )
        scores = None
        if raw.get("scores") is not None:
            scores = [
                _score(v, f"{where}: scores[{s}]")
                for s, v in enumerate(_list(raw["scores"], f"{where}: scores", PLAYERS))
            ]
        rounds.append(_Round(dealer, hands, bids, tricks, scores, _count_errors(raw.get("errors"))))
    return names, rounds


# ------------------------------------------------------------------ checking
class _Stop(Exception):
    """The first problem of a round: nothing after it can be played through the engine."""


def _apply(
    act: Any, deal: Deal, rnd: _Round, number: int, names: Sequence[str], out: list[LogProblem]
) -> int:
    """Play a round's calls and tricks with ``act``; problems go to ``out``. Returns plays."""
    plays = 0

    def step(action: int | str, trick: int | None, seat: int) -> None:
        nonlocal plays
        try:
            act(action)
        except IllegalAction as error:
            what = f"call {action}" if trick is None else str(action)
            out.append(LogProblem(number, f"{what}: {error}", trick, names[seat]))
            raise _Stop from None
        plays += 1

    try:
        if deal.phase == VOID:
            out.append(LogProblem(number, f"{deal.void_reason}: the preset redeals such a hand"))
            raise _Stop
        for offset in range(1, PLAYERS + 1):
            seat = (deal.dealer + offset) % PLAYERS
            step(rnd.bids[seat], None, seat)
        if deal.phase == VOID:
            out.append(LogProblem(number, f"the deal is void: {deal.void_reason}"))
            raise _Stop
        for t, (leader, cards, winner) in enumerate(rnd.tricks, 1):
            if deal.phase != "play":
                out.append(LogProblem(number, f"a trick after the round is over ({deal.phase})", t))
                raise _Stop
            if leader != deal.leader:
                why = "the player after the dealer" if t == 1 else "the winner of the last trick"
                out.append(
                    LogProblem(
                        number,
                        f"started by {names[leader]}, but {why} leads: {names[deal.leader]}",
                        t,
                    )
                )
                raise _Stop
            for offset, card in enumerate(cards):
                step(card, t, (leader + offset) % PLAYERS)
            actual = deal.history[-1][2]
            if actual != winner:
                out.append(
                    LogProblem(
                        number,
                        f"ended (won) by {names[winner]} in the log, but {names[actual]} "
                        f"wins it ({' '.join(cards)})",
                        t,
                    )
                )
                raise _Stop
        if deal.phase != OVER:
            out.append(LogProblem(number, f"the round stops after {len(rnd.tricks)} tricks"))
            raise _Stop
    except _Stop:
        pass
    return plays


def import_bhoos_log(log: Any) -> BhoosImport:
    """Check a tournament game log against the preset and turn it into a game record."""
    names, rounds = _read(log)
    adjustments: list[str] = []
    changes: dict[str, Any] = {}
    low = [r for r, rnd in enumerate(rounds, 1) if sum(rnd.bids) < 8]
    if low:
        changes["min_total_calls"] = None
        adjustments.append(
            f"min_total_calls=None: the calls of round(s) {', '.join(map(str, low))} add up to "
            "less than 8, which the tournament allowed"
        )
    if len(rounds) != 5:
        changes["match_deals"] = len(rounds)
        adjustments.append(f"match_deals={len(rounds)}: the log has {len(rounds)} rounds")
    rules = Rules.preset(PRESET).replace(**changes)

    problems: list[LogProblem] = []
    scores: list[RoundScore] = []
    plays = 0
    computed: list[tuple[Points, ...] | None] = []
    for number, rnd in enumerate(rounds, 1):
        try:
            deal = Deal(rules, rnd.hands, dealer=rnd.dealer)
        except ValueError as error:
            raise BhoosLogError(f"round {number}: {error}") from None
        plays += _apply(deal.act, deal, rnd, number, names, problems)
        points = tuple(deal.points) if deal.phase == OVER and deal.points else None
        computed.append(points)
        before = rounds[number - 2].scores if number > 1 else [Points(0)] * PLAYERS
        logged = None
        if rnd.scores is not None and before is not None:
            logged = tuple(a - b for a, b in zip(rnd.scores, before, strict=True))
        scores.append(RoundScore(number, logged, points))
    final: list[Points] | None = None
    if all(p is not None for p in computed):
        final = [Points(0)] * PLAYERS
        for points in computed:
            assert points is not None
            final = [a + b for a, b in zip(final, points, strict=True)]
        best = max(final)
        if final.count(best) > 1:
            rules = rules.replace(tie_break="shared")
            adjustments.append("tie_break=shared: the totals tie at the top")
    for check in scores:
        if check.matches is False:
            assert check.logged is not None and check.computed is not None
            diff = ", ".join(
                f"{names[s]} {check.logged[s]} (rules: {check.computed[s]})"
                for s in range(PLAYERS)
                if check.logged[s] != check.computed[s]
            )
            problems.append(
                LogProblem(
                    check.round, f"the round's logged points (its change in scores) differ: {diff}"
                )
            )

    record, recorded = _record(rules, names, rounds, problems)
    last = rounds[-1].scores
    return BhoosImport(
        record=record,
        rules=rules,
        players=names,
        rounds=len(rounds),
        adjustments=adjustments,
        problems=problems,
        scores=scores,
        plays_checked=plays,
        recorded_rounds=recorded,
        logged_errors=sum(r.errors for r in rounds),
        final_totals=final,
        logged_totals=None if last is None else list(last),
    )


def _record(
    rules: Rules, names: Sequence[str], rounds: Sequence[_Round], problems: list[LogProblem]
) -> tuple[Record | None, int]:
    """The match record of the rounds in order, up to the first thing the engine refuses.

    Only logged hands go into it: the match is fed the rounds before the first
    hand the preset would have redealt, and whatever the match deals after the
    last of them (it shuffles once the log's hands run out) is left out.
    """
    usable = list(rounds)
    for index, rnd in enumerate(rounds):
        if Deal(rules, rnd.hands, dealer=rnd.dealer).phase == VOID:
            usable = usable[:index]
            break
    if not usable:
        return None, 0
    fed = 0

    def feed() -> Iterator[list[list[str]]]:
        nonlocal fed
        for rnd in usable:
            fed += 1
            yield rnd.hands

    match = Match(rules, seed=None, dealer=usable[0].dealer, hands=feed())
    recorded = 0
    for number, rnd in enumerate(usable, 1):
        deal = match.deal
        if match.over:
            break
        if deal.dealer != rnd.dealer:
            problems.append(
                LogProblem(
                    number,
                    f"dealt by {names[rnd.dealer]}, but the deal passes to the next player "
                    f"after each round: {names[deal.dealer]} (the record stops before it)",
                )
            )
            fed = number - 1
            break
        found: list[LogProblem] = []
        _apply(match.act, deal, rnd, number, names, found)
        if found:  # already reported by the verification pass
            break
        recorded += 1
    seats = [{"name": name, "player": "bhoos-log"} for name in names]
    record = match_record(match, seats=seats)
    record["seed"] = None  # the hands came from the log, not from a shuffle
    record["deals"] = record["deals"][:fed]
    if not record["deals"]:
        return None, 0
    return record, recorded

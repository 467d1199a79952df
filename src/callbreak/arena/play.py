"""Duplicate play: deal sets from a seed, each played once per rotation of the seats.

A *lineup* is the list of bot specs, one per *entry* (entry ``e`` sits at seat
``e`` in rotation 0).  In rotation ``r`` entry ``e`` sits at seat
``(e + r) % players``, so over the four rotations every entry plays every
hand of the deal set from every seat, and the luck of the cards cancels.

In a game whose hand size changes deal by deal (``Game.schedule``: Oh Hell,
Judgement) deal set ``k`` plays the schedule's deal ``k``, cycling: its hand
size and whatever else the deal's number sets (Judgement's trump), the same in
every rotation.  A run of whole schedules plays every deal of a match equally
often, rather than the first deal's largest hand every time.

In a game with partnerships (``Game.partnerships``: Spades' seats 0 and 2
against 1 and 3) the entries form the same sides as the seats they hold in
rotation 0, and a side's result is its partners' shared score.  The rotation
moves every entry one seat on, which keeps partners together only when it
maps each side onto a side (true of Spades' opposite seats);
``ArenaConfig`` refuses partnerships that it would split, since a bot paired
with an opponent's copy would measure nothing.

Everything here is a pure function of the configuration, the deal index and
the rotation (shuffle seeds, match seeds and bot seeds are derived from the
arena seed by name), so a chunk of deals gives the same games whichever
process plays it: the worker count can never change a result.  Only the
decision times, which measure the machine, differ from run to run.

Whole matches (``ArenaConfig.whole_matches``): deal set ``k`` is then the start
of a match played to its end under the rules (``match_end``: a number of deals, a
target score, Snarples' and Donut's count down to zero), once per rotation.  Its
first deck is the deal set's; every later deal is shuffled from a seed of the
match and the deal's number, the same in every rotation, so the rotations play
the same cards for as long as their matches last (a match that ends sooner just
stops).  What a match carries from deal to deal (Spades' bags, Snarples' seats out
and sit-outs, a target in sight) then plays its part, and the winner is the
engine's.  An open-ended match (Call Bridge) is played for ``match_deals`` deals.

Void deals:

* A deal that is void *as dealt* under the rules (``misdeal = auto``,
  ``misdeal_no_spade``) never reaches a bot: the deal set is redrawn (the
  next attempt's seed) until it is playable, so every rotation sees the same
  playable hands.
* A deal made void by a *decision* (a claimed misdeal, calls below
  ``min_total_calls``) is part of what the arena measures.  The single-deal
  match then redeals as the rules say, from the match seed, which is the same
  in every rotation; the points of the deal finally played are the ones
  that count.
"""

from __future__ import annotations

import random
import time
import traceback
from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path
from typing import Any

from callbreak.arena.errors import ArenaError as ArenaError
from callbreak.arena.errors import GameStalled
from callbreak.arena.errors import SeatFault as SeatFault
from callbreak.bots import Bot, bot_module, import_bots, make_bot, refusal, warm_up
from callbreak.decks import DECKS
from callbreak.engine import Action, EndlessRedeal, IllegalAction, Match, Observation
from callbreak.engine.deal import VOID, Deal, shuffled_deck
from callbreak.engine.match import opening_deal
from callbreak.rules import Rules

MAX_ILLEGAL_EXAMPLES = 10
"""Faults (illegal and unusable answers, errors, timeouts) described in full: the first ones
in deal order, in a chunk and in the whole run (all of them are counted)."""

MATCH_DEALS_LIMIT = 200
"""Deals after which a whole match still going stops the run (``GameStalled``): a target such
as Call Partner's 500 may never be reached by bots whose failed contracts pull every total
down, and a run waiting on it would never end (``callbreak selfplay --max-deals`` stops
such a match at the same count).  Whole matches of the family average 5 to 23 deals
between our bots."""

FAULT_LABELS = {
    "illegal": "illegal",
    "unusable": "unusable answer",
    "error": "bot error",
    "timeout": "timeout",
}
"""How an example names each kind of fault (``SeatFault.kind``, and ``illegal`` for an
action the engine refused); only ``timeout`` is counted apart, the rest as Illegal."""

STOP: Any = None
"""In a worker process of ``arena.runner``: the run's shared stop flag (a ``RawValue``, read
for nothing at each decision), raised when the run is stopped; the game in play then gives
up (``RunStopped``), so the worker is free at once."""

MAX_REDRAWS = 1000
"""Give up on a deal set after this many hands void as dealt (rules that void every deal)."""


def make_seat(spec: str, seed: int | None = None) -> Bot:
    """The bot for one arena seat: a registered bot spec, or a remote bot's http(s) address."""
    from callbreak.arena import remote

    if remote.is_remote(spec):
        return remote.RemoteBot(spec, seed=seed)
    return make_bot(spec, seed=seed)


def single_deal_rules(rules: Rules) -> Rules:
    """The rules of one arena game: a one-deal match that always ends after its scored deal.

    Open-ended presets (``match_end = open``, as in Call Bridge) and targets
    become ``deals`` with ``match_deals = 1`` (``deals:1`` in a game with a
    ``match_end`` but no ``match_deals``, such as Spades: plain ``deals`` would
    be five there, and the match would deal a second deal that nobody plays);
    a tie is shared instead of played off, because the arena compares points,
    not who wins a deal.  A game whose match ends by score alone (the countdown
    games) has no such options: ``play_game`` stops its match after the first
    scored deal.
    """
    options = rules.options()
    one_deal = "deals" if "match_deals" in options else "deals:1"
    wanted = {"match_deals": 1, "match_end": one_deal, "tie_break": "shared"}
    return rules.replace(**{k: v for k, v in wanted.items() if k in options})


def lineup(seats: Sequence[str], players: int, *, rules: Rules | None = None) -> tuple[str, ...]:
    """One spec for every seat, one per side (given ``rules`` with partnerships: it fills its
    side's seats), or exactly one per seat; each spec must name a known bot, and, given
    ``rules``, one that plays their game (else the run would stop at its turn)."""
    from callbreak.arena import remote

    specs = tuple(s.strip() for s in seats)
    sides = rules.shape.partnerships if rules is not None else ()
    if len(specs) == 1:
        specs *= players
    elif sides and len(specs) == len(sides) != players:
        by_seat = {seat: spec for spec, side in zip(specs, sides, strict=True) for seat in side}
        specs = tuple(by_seat[seat] for seat in range(players))
    if len(specs) != players:
        per_side = f", one per side ({len(sides)})" if sides else ""
        raise ArenaError(
            f"give one seat (it fills all {players}){per_side} or exactly {players} seats, "
            f"not {len(specs)}"
        )
    for spec in dict.fromkeys(specs):
        try:
            make_seat(spec, seed=0)
        except ValueError as error:
            raise ArenaError(f"seat {spec!r}: {error}") from None
        if rules is None:
            continue
        why = remote.protocol_refusal(rules) if remote.is_remote(spec) else refusal(spec, rules)
        if why is not None:
            raise ArenaError(f"seat {spec!r} cannot play {rules.title}: {why}")
    for spec in dict.fromkeys(s for s in specs if remote.is_remote(s)):
        remote.check_remote(spec)  # a bot that is down is reported before the first deal
    return specs


class RunStopped(Exception):
    """The run this chunk belongs to was stopped (``STOP``): its result is wanted no more."""


@dataclass(frozen=True)
class ArenaConfig:
    """What to play: rules, lineup, number of deal sets and the seed they all derive from."""

    rules: Rules
    seats: tuple[str, ...]
    deals: int
    seed: int
    keep_records: bool = False
    """Return every game's record (``record.match_record``) for the report; costs memory."""
    whole_matches: bool = False
    """Play each deal set as the first deal of a whole match (see the module's docstring)
    rather than as one deal; ``deals`` then counts matches."""

    def __post_init__(self) -> None:
        if self.deals < 1:
            raise ArenaError(f"play at least one deal, not {self.deals}")
        if len(self.seats) != self.rules.players:
            raise ArenaError(f"the lineup needs {self.rules.players} seats, not {len(self.seats)}")
        check_sides(self.rules.shape.partnerships, self.rules.players)

    @property
    def players(self) -> int:
        return self.rules.players

    @cached_property
    def game_rules(self) -> Rules:
        return self.rules.with_an_end() if self.whole_matches else single_deal_rules(self.rules)

    @property
    def teams(self) -> tuple[tuple[int, ...], ...]:
        """The lineup's teams as entries: the sides of a partnership game (the entries at a
        side's seats in rotation 0), else every entry alone."""
        return entry_sides(self.rules.shape.partnerships, self.players)

    @property
    def by_side(self) -> bool:
        """Whether results are a side's (partners share one score) rather than a seat's."""
        return bool(self.rules.shape.partnerships)


@dataclass(frozen=True)
class DealSet:
    """The hands every rotation of one deal index plays."""

    index: int
    dealer: int
    hands: tuple[int, ...]
    """Hands as dealt, by seat, as card masks."""
    redraws: int
    """Hands drawn and thrown away first because they were void as dealt."""
    deck: tuple[int, ...] = ()
    """The whole deck in dealing order (hands, and any nest, stock or face-up card, follow)."""
    number: int = 0
    """Deals of the game's schedule before this one (``schedule_deal``); 0 where deals are
    all alike."""
    seed: int | None = None
    """The shuffle seed that deals ``deck`` (``Deal(seed=...)`` shuffles the same way), so
    that a record names it and the review can deal the deal again."""


def _derived_seed(*parts: object) -> int:
    """A 63-bit seed named by ``parts``: stable across processes and Python versions."""
    return random.Random("/".join(str(p) for p in parts)).getrandbits(63)


def schedule_deal(rules: Rules, index: int) -> int:
    """The deals of the game's schedule before deal set ``index``'s: deal set k plays the
    schedule's deal k, cycling, so that every hand size (and Judgement's every trump) is
    measured equally often over whole schedules; 0 in a game whose deals are all alike."""
    schedule = rules.shape.schedule
    return 0 if schedule is None else index % len(schedule(rules))


def deal_set(config: ArenaConfig, index: int) -> DealSet:
    """The ``index``-th deal set: shuffled from the arena seed, redrawn while void as dealt.

    The dealer moves one seat per deal set, and the deal's place in the game's
    schedule one deal, so consecutive deal sets grouped into a match have the
    dealer rotation (and the hand sizes) of a real match.
    """
    rules = config.game_rules
    dealer = index % config.players
    number = 0 if config.whole_matches else schedule_deal(rules, index)
    pack = DECKS[rules.shape.deck]
    for attempt in range(MAX_REDRAWS):
        seed = _derived_seed("callbreak-arena-deal", config.seed, index, attempt)
        order = shuffled_deck(pack, random.Random(seed))
        deal = opening_deal(rules, order, dealer, number)
        if deal.phase != VOID:
            return DealSet(index, dealer, tuple(deal.dealt), attempt, tuple(order), number, seed)
    raise ArenaError(f"deal set {index}: {MAX_REDRAWS} hands in a row were void as dealt")


def seat_of(entry: int, rotation: int, players: int) -> int:
    """Seat of lineup entry ``entry`` in rotation ``rotation``."""
    return (entry + rotation) % players


def entry_at(seat: int, rotation: int, players: int) -> int:
    """Lineup entry sitting at ``seat`` in rotation ``rotation``."""
    return (seat - rotation) % players


def entry_sides(partnerships: Sequence[Sequence[int]], players: int) -> tuple[tuple[int, ...], ...]:
    """Teams of lineup entries: each partnership's seats name the entries sitting there in
    rotation 0; an entry in no partnership (every entry, without them) is a team of one."""
    sides = tuple(tuple(side) for side in partnerships)
    partnered = {seat for side in sides for seat in side}
    return sides + tuple((entry,) for entry in range(players) if entry not in partnered)


def check_sides(partnerships: Sequence[Sequence[int]], players: int) -> None:
    """Refuse partnerships that the seat rotation would split: in every rotation each team of
    entries must sit in the seats of one side, or partners would play against each other."""
    sides = {frozenset(side) for side in partnerships}
    for rotation in range(players):
        for team in entry_sides(partnerships, players):
            seats = frozenset(seat_of(entry, rotation, players) for entry in team)
            if partnerships and seats not in sides:
                raise ArenaError(
                    f"rotation {rotation} would seat the partners of seats "
                    f"{', '.join(map(str, team))} at seats {', '.join(map(str, sorted(seats)))}, "
                    "which are not one side: the arena's rotation needs sides that a "
                    "one-seat turn maps onto sides"
                )


@dataclass(frozen=True)
class Play:
    """What one entry did in one game."""

    entry: int
    seat: int
    call: int | None
    """The seat's call, or in an auction game the contract if it was the declarer, else None."""
    tricks: int
    """Tricks won; for Call Partner's declarer, the card points its side took, so that the
    call and what was won are in the same unit (its contract is in points)."""
    points_tenths: int
    """Points as an exact number of tenths (``Points.tenths``)."""
    made: bool | None
    """Whether the call or contract was made; None for a seat that had neither."""
    deal: int = 0
    """The scored deal of the game it comes from (0-based): always 0 but in whole matches."""


@dataclass
class GameResult:
    """One rotation of one deal set: a single-deal match, or a whole one."""

    rotation: int
    plays: tuple[Play, ...]
    """By scored deal, then by lineup entry: one per entry in a single-deal game, where
    ``plays[e]`` is entry ``e``'s."""
    first_dealt: tuple[int, ...]
    """Hands of the first deal the match dealt (the deal set's hands), by seat."""
    redeals: int
    """Void deals before the scored one (claimed misdeals, calls too low)."""
    claims: tuple[int, ...]
    """Misdeals claimed, by lineup entry."""
    record: dict[str, Any] | None = None
    winners: tuple[int, ...] = ()
    """The entries that won the whole match (partners, or a shared tie); () for one deal."""

    @property
    def deals(self) -> int:
        """Scored deals in the game."""
        return len(self.plays) // len(self.claims)


@dataclass
class DealSetResult:
    deal: DealSet
    games: list[GameResult]


@dataclass
class ChunkTask:
    """A contiguous range of deal indices for one worker.

    The rules travel as their JSON text, not as a ``Rules`` object: a worker
    process or a Ray node rebuilds them with ``Rules.from_json``, which also
    validates them there (and ``Points`` inside ``Rules`` does not pickle).
    """

    rules_json: str
    seats: tuple[str, ...]
    deals: int
    seed: int
    keep_records: bool
    start: int
    stop: int
    whole_matches: bool = False
    imports: tuple[str, ...] = ()
    """Modules that register the lineup's bots (``bots.bot_module``), imported before the
    chunk is played: a spawned worker or a Ray node knows only the bots of what it imported
    (``callbreak arena --import MODULE`` imports them here)."""

    @classmethod
    def of(cls, config: ArenaConfig, start: int, stop: int) -> ChunkTask:
        from callbreak.arena import remote

        modules = (bot_module(s) for s in config.seats if not remote.is_remote(s))
        return cls(
            config.rules.to_json(),
            config.seats,
            config.deals,
            config.seed,
            config.keep_records,
            start,
            stop,
            config.whole_matches,
            tuple(dict.fromkeys(m for m in modules if m is not None)),
        )

    def config(self) -> ArenaConfig:
        rules = Rules.from_json(self.rules_json)
        return ArenaConfig(
            rules, self.seats, self.deals, self.seed, self.keep_records, self.whole_matches
        )


@dataclass
class ChunkResult:
    start: int
    sets: list[DealSetResult]
    times_ms: list[list[float]]
    """Every decision's time in milliseconds, by lineup entry."""
    illegal: list[int]
    """Illegal answers, by lineup entry."""
    illegal_examples: list[str] = field(default_factory=list)
    timeouts: list[int] = field(default_factory=list)
    """Answers that came too late (``SeatFault("timeout")``), by lineup entry."""
    fallbacks: list[int] = field(default_factory=list)
    """Answers a bot took from a stand-in (its ``fell_back`` set: the expert out of time),
    by lineup entry."""


def _bots(config: ArenaConfig, index: int, rotation: int) -> list[Bot]:
    """The bots of one game, by seat, each seeded from (seed, deal, rotation, entry)."""
    players = config.players
    bots = []
    for seat in range(players):
        entry = entry_at(seat, rotation, players)
        seed = _derived_seed("callbreak-arena-bot", config.seed, index, rotation, entry) >> 31
        bots.append(make_seat(config.seats[entry], seed=seed))
    return bots


def deal_match(config: ArenaConfig, deal: DealSet) -> Match:
    """The match that every rotation of ``deal`` plays (one deal, or a whole match): its deck
    and dealer, its place in the game's schedule, and a seed for redeals and later deals of
    its own (not the rotation's)."""
    seed = _derived_seed("callbreak-arena-match", config.seed, deal.index)
    match = Match(
        config.game_rules,
        seed=seed,
        dealer=deal.dealer,
        decks=[deal.deck],
        deals_before=deal.number,
    )
    match.deal.seed = deal.seed  # the deck is that seed's shuffle (replay checks it)
    return match


def play_game(config: ArenaConfig, deal: DealSet, rotation: int, chunk: ChunkResult) -> GameResult:
    """Play one rotation of ``deal``; times and illegal answers are added to ``chunk``.

    An illegal answer (one the engine refuses) is counted against the entry
    and replaced by a random legal action, so that one broken bot cannot stop a
    long run and the others' games stay complete.
    """
    players = config.players
    bots = _bots(config, deal.index, rotation)
    for bot in bots:
        warm_up(bot)
    fallback = random.Random(
        _derived_seed("callbreak-arena-fallback", config.seed, deal.index, rotation)
    )
    match = deal_match(config, deal)
    try:
        _play_out(config, deal, rotation, chunk, bots, match, fallback)
    except EndlessRedeal as error:
        raise GameStalled(_stalled(config, deal, rotation, error)) from None
    scored_deals = match.scored_deals
    if not config.whole_matches:
        scored_deals = scored_deals[-1:]
    plays = []
    for number, scored_entry in enumerate(scored_deals):
        scored = scored_entry.deal
        points = scored.points
        assert points is not None
        for entry in range(players):
            seat = seat_of(entry, rotation, players)
            call, made, won = _commitment(scored, seat)
            tenths = points[seat].tenths if seat in scored_entry.counting_seats else 0
            plays.append(Play(entry, seat, call, won, tenths, made, number))
    claims = [0] * players
    for entry_ in match.entries:
        for seat, claimed in entry_.deal.claims:
            if claimed:
                claims[entry_at(seat, rotation, players)] += 1
    record = None
    if config.keep_records:
        from callbreak.record import match_record

        at_seat = [entry_at(s, rotation, players) for s in range(players)]
        seats = [
            {"name": f"#{e} {config.seats[e]}", "player": _player(config.seats[e])} for e in at_seat
        ]
        record = match_record(match, seats=seats, seed=match.seed)
        # A match that cannot be cut to one deal (a countdown game's, one deal of Oh Hell's
        # schedule) has dealt its next deal by now: the record keeps only what was played.
        record["deals"] = record["deals"][: len(match.entries)]
    return GameResult(
        rotation,
        tuple(plays),
        tuple(match.entries[0].deal.dealt),
        len(match.entries) - len(scored_deals),
        tuple(claims),
        record,
        tuple(sorted(entry_at(s, rotation, players) for s in match.winners))
        if config.whole_matches
        else (),
    )


def _endless(config: ArenaConfig, deal: DealSet, rotation: int) -> str:
    """What ``GameStalled`` says of a whole match that does not end: the run would wait for
    ever, where a message can say what to change."""
    players = config.players
    seated = ", ".join(config.seats[entry_at(s, rotation, players)] for s in range(players))
    return (
        f"deal set {deal.index}, rotation {rotation} (seats {seated}): the match has played "
        f"{MATCH_DEALS_LIMIT} deals without reaching its end (match_end = "
        f"{config.rules.match_end}): totals can stay short of a target for ever with weak bots, "
        "whose failed contracts pull them down; the run stops. Measure single deals (without "
        "--whole-matches), or give the match a number of deals: --option match_end=deals:10"
    )


def _stalled(config: ArenaConfig, deal: DealSet, rotation: int, error: EndlessRedeal) -> str:
    """What ``GameStalled`` says: the game, the engine's reason, and what to change."""
    players = config.players
    seated = ", ".join(config.seats[entry_at(s, rotation, players)] for s in range(players))
    reason = str(error).split("; the match stops")[0]
    advice = "have the bots call or bid so that a deal counts"
    if config.rules.options().get("min_total_calls") is not None:
        advice += ", or play without the minimum: --option min_total_calls=none"
    return (
        f"deal set {deal.index}, rotation {rotation} (seats {seated}): {reason}, so the game "
        f"cannot be scored and the run stops; {advice}"
    )


def _play_out(
    config: ArenaConfig,
    deal: DealSet,
    rotation: int,
    chunk: ChunkResult,
    bots: Sequence[Bot],
    match: Match,
    fallback: random.Random,
) -> None:
    """Ask the bots until the game is over (one scored deal, or the whole match); an illegal
    answer or a fault is counted against its entry and a random legal action played."""
    players = config.players
    clock = time.perf_counter_ns
    while not match.over and (config.whole_matches or not match.scored_deals):
        if STOP is not None and STOP.value:
            raise RunStopped
        if len(match.scored_deals) >= MATCH_DEALS_LIMIT and not match.deal.log:
            raise GameStalled(_endless(config, deal, rotation))
        seat = match.to_act
        assert seat is not None
        observation = match.observation(seat)
        entry = entry_at(seat, rotation, players)
        started = clock()
        where = f"deal {deal.index}, rotation {rotation}, seat {seat} ({config.seats[entry]})"
        try:
            action = _answer(bots[seat], observation)
        except SeatFault as fault:
            chunk.times_ms[entry].append((clock() - started) / 1e6)
            _fault(chunk, entry, fault.kind, f"{where}: {fault}")
            match.act(fallback.choice(observation.legal))
            continue
        chunk.times_ms[entry].append((clock() - started) / 1e6)
        if getattr(bots[seat], "fell_back", None):
            chunk.fallbacks[entry] += 1
        try:
            match.act(action)
        except IllegalAction as error:
            _fault(chunk, entry, "illegal", f"{where}: {action!r} — {error}")
            match.act(fallback.choice(observation.legal))


def _fault(chunk: ChunkResult, entry: int, kind: str, example: str) -> None:
    """Count a fault against ``entry`` (a timeout apart, any other kind as illegal) and keep
    the chunk's first few as examples, each labelled with its kind."""
    (chunk.timeouts if kind == "timeout" else chunk.illegal)[entry] += 1
    if len(chunk.illegal_examples) < MAX_ILLEGAL_EXAMPLES:
        chunk.illegal_examples.append(f"{FAULT_LABELS.get(kind, kind)}: {example}")


def _answer(bot: Bot, observation: Observation) -> Action:
    """The bot's action; a bot that raises gave no usable answer (``SeatFault`` "error"),
    which the run counts against it, as an illegal one, and plays on: a bug in one bot does
    not stop a long run, and its example names the deal, rotation and seat, and the line of
    the bot that raised."""
    try:
        return bot.act(observation)
    except (SeatFault, ArenaError):  # a remote seat that is down stops the run
        raise
    except Exception as error:
        raised = f"the bot raised {type(error).__name__}: {error}{_raised_at(error)}"
        raise SeatFault("error", raised) from error


def _raised_at(error: BaseException) -> str:
    """Where ``error`` was raised, " (at mybot.py:42 in act)": the type and message alone
    leave a bot's author to guess which line of their bot failed.  The innermost frame is
    shown, its file relative to the current directory when it lies under it (the author's
    own tree), else by its name alone; a plain string, since faults come back from the
    workers' processes."""
    frames = traceback.extract_tb(error.__traceback__)
    if not frames:
        return ""
    frame = frames[-1]
    path = Path(frame.filename)
    try:
        shown = str(path.resolve().relative_to(Path.cwd().resolve()))
    except (OSError, ValueError):  # elsewhere, or no current directory left
        shown = path.name
    return f" (at {shown}:{frame.lineno} in {frame.name})"


def _commitment(deal: Deal, seat: int) -> tuple[int | None, bool | None, int]:
    """What ``seat`` undertook in ``deal``, whether it kept it, and what it won against it: its
    call in a call game, the contract for the declarer of an auction (made: won its bid in
    tricks, or in Call Partner in its side's card points), nothing for a defender."""
    call, tricks = deal.calls[seat], deal.tricks[seat]
    if call is not None:
        return call, deal.rules.success(call, tricks), tricks
    if seat != deal.declarer or deal.contract is None:
        return None, None, tricks
    counted = deal.rules.shape.card_points
    if counted is not None:  # card points: made when the side scored
        points = deal.points
        assert points is not None
        taken = counted(deal)
        side = {seat} if deal.partner is None else {seat, deal.partner}
        return deal.contract, points[seat].tenths > 0, sum(taken[s] for s in side)
    return deal.contract, tricks >= deal.contract, tricks


def _player(spec: str) -> str:
    """What played a seat, for its record: ``bot:SPEC``, or ``remote:URL`` for a remote bot."""
    from callbreak.arena import remote

    return f"remote:{spec}" if remote.is_remote(spec) else f"bot:{spec}"


def play_chunk(task: ChunkTask) -> ChunkResult:
    """Play deal sets ``start``..``stop - 1``, every rotation of each (a worker's unit of work)."""
    try:
        import_bots(task.imports)
    except ValueError as error:
        raise ArenaError(str(error)) from None
    config = task.config()
    players = config.players
    chunk = ChunkResult(
        task.start,
        [],
        [[] for _ in range(players)],
        [0] * players,
        timeouts=[0] * players,
        fallbacks=[0] * players,
    )
    for index in range(task.start, task.stop):
        deal = deal_set(config, index)
        games = [play_game(config, deal, rotation, chunk) for rotation in range(players)]
        chunk.sets.append(DealSetResult(deal, games))
    return chunk

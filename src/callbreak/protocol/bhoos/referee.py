"""A referee in the tournament's manner: whole games against bots over the protocol, and a log.

It plays a match under the tournament's rules (``BHOOS_RULES``: five rounds,
no minimum total of calls, ties shared) with any mix of remote bots (an
``http://`` address, spoken to by the arena's ``RemoteBot``) and local bots
(a registry spec).  Faults are handled as the tournament did: a timeout or an
unusable or illegal answer is counted in the round's ``errors`` and replaced
by a random legal action.  The result is the tournament's game log
(``players``, ``rounds`` with ``dealer``, ``cards``, ``bids``, ``errors``,
``actions``, ``scores``, ``responseTimes``, and ``ranks``), which
``callbreak import-bhoos`` turns back into a game record.
"""

from __future__ import annotations

import random
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from callbreak.arena.errors import SeatFault
from callbreak.arena.remote import RemoteBot, is_remote
from callbreak.bots import Bot, make_bot
from callbreak.cards import RANK_COUNT, bhoos_name, cards_of
from callbreak.engine import IllegalAction, Match
from callbreak.engine.deal import OVER
from callbreak.protocol.bhoos.convert import BHOOS_RULES
from callbreak.record import Record, match_record


@dataclass
class BhoosGame:
    """One refereed game: the tournament's log, the fault counts and our own record."""

    log: dict[str, Any]
    timeouts: list[int]
    """Timeouts by seat."""
    illegal: list[int]
    """Unusable or illegal answers by seat."""
    response_ms: list[list[float]] = field(default_factory=list)
    """Every decision's wall time by seat (remote seats: the HTTP round trip)."""
    record: Record | None = None


def _seat_bot(spec: str, seed: int, ids: Sequence[str], budget_ms: int, grace_ms: int) -> Bot:
    if is_remote(spec):
        if "#" not in spec:
            spec = f"{spec}#budget_ms={budget_ms},grace_ms={grace_ms}"
        return RemoteBot(spec, seed=seed, player_ids=ids)
    return make_bot(spec, seed=seed)


def play_bhoos_game(
    seats: Sequence[str],
    *,
    player_ids: Sequence[str] | None = None,
    seed: int = 0,
    rounds: int = 5,
    budget_ms: int = 1500,
    grace_ms: int = 200,
) -> BhoosGame:
    """Play one game; ``seats`` are four bot specs or bot addresses, in turn order.

    ``player_ids`` are the ids sent as ``playerIds`` (any strings; default
    ``P0``..``P3``) and written as the log's ``players``.  ``budget_ms`` is each
    remote bot's time for a round, sent as ``timeBudget`` and counted down.
    """
    if len(seats) != BHOOS_RULES.players:
        raise ValueError(f"give {BHOOS_RULES.players} seats, not {len(seats)}")
    ids = list(player_ids) if player_ids is not None else [f"P{i}" for i in range(len(seats))]
    if len(set(ids)) != len(seats):
        raise ValueError("give one distinct player id per seat")
    rules = BHOOS_RULES.replace(match_deals=rounds, tie_break="shared")
    rng = random.Random(f"bhoos-referee/{seed}")
    bots = [_seat_bot(spec, rng.getrandbits(32), ids, budget_ms, grace_ms) for spec in seats]
    players = len(seats)
    match = Match(rules, seed=seed)
    timeouts, illegal = [0] * players, [0] * players
    times: list[list[float]] = [[] for _ in range(players)]
    errors: dict[int, dict[str, list[str]]] = {}
    round_times: dict[int, dict[str, list[float]]] = {}
    while not match.over:
        seat = match.to_act
        assert seat is not None
        observation = match.observation(seat)
        number = match.deal_number
        started = time.perf_counter()
        problem = None
        try:
            action = bots[seat].act(observation)
        except SeatFault as fault:
            (timeouts if fault.kind == "timeout" else illegal)[seat] += 1
            problem = f"{fault.kind}: {fault}"
            action = rng.choice(observation.legal)
        elapsed = (time.perf_counter() - started) * 1000
        times[seat].append(elapsed)
        round_times.setdefault(number, {i: [] for i in ids})[ids[seat]].append(round(elapsed, 2))
        try:
            match.act(action)
        except IllegalAction as error:
            illegal[seat] += 1
            problem = f"illegal: {action!r}: {error}"
            match.act(rng.choice(observation.legal))
        if problem is not None:
            errors.setdefault(number, {}).setdefault(ids[seat], []).append(problem)
    log_rounds = []
    for entry in match.entries:
        deal = entry.deal
        if deal.phase != OVER:
            continue  # redealt as the tournament did, silently
        log_rounds.append(
            {
                "dealer": deal.dealer,
                "cards": [_hand(deal.dealt[seat]) for seat in range(players)],
                "bids": list(deal.calls),
                "errors": errors.get(entry.number, {}),
                "actions": [
                    {
                        "started": leader,
                        "cards": [bhoos_name(card) for card in cards],
                        "ended": winner,
                    }
                    for leader, cards, winner in deal.history
                ],
                "scores": [float(total) for total in entry.totals],
                "responseTimes": round_times.get(entry.number, {}),
            }
        )
    totals = match.totals
    ranks = [1 + sum(other > mine for other in totals) for mine in totals]
    log = {"players": ids, "rounds": log_rounds, "ranks": ranks}
    seats_record = [
        {"name": ids[s], "player": ("remote:" if is_remote(spec) else "bot:") + spec}
        for s, spec in enumerate(seats)
    ]
    return BhoosGame(log, timeouts, illegal, times, match_record(match, seats_record))


def _hand(mask: int) -> list[str]:
    """A hand in the tournament's spelling, by suit and high card first."""
    ordered = sorted(cards_of(mask), key=lambda c: (c // RANK_COUNT, -c))
    return [bhoos_name(card) for card in ordered]

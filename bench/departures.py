"""Where a search bot departs from the heuristic, and whether its departures pay on the deal
as it truly lay.

The family search (``bots.family_search``) keeps the heuristic's action unless its worlds
show another to be clearly better, so two questions decide whether more of it would help:
how often does it depart, and, where it does, is its action better than the heuristic's?
This script answers both from the records an arena run keeps (``--report DIR`` writes
``DIR/records.jsonl``).  At every decision of the seats a bot played, the heuristic's action
is asked of the same observation, and the two are valued on the true deal, finished by the
heuristic at every seat: the review's playouts with the hands shown
(``callbreak.playout_review``), signed so that more is better.  Per kind of decision (each
bid, trump, discard, partner card, drop, exchange, card) it prints:

- the departures out of the decisions that had a choice;
- the mean gain of a departure over the heuristic's action, with a 95% interval;
- what the best action with the hands shown would have gained over the heuristic's, a
  decision's ceiling: how much a kind of decision is worth knowing the cards.

    callbreak arena --rules rook-call-partner --seat expert:budget_ms=100 --seat heuristic \\
        --seat heuristic --seat heuristic --deals 30 --seed 5 --workers 2 \\
        --report runs/cp --report-deals 0
    PYTHONPATH=src python bench/departures.py runs/cp/records.jsonl --bot expert

Values are the review's: in a match, each deal's points for the seat less its rivals' mean
(not the share of the match the expert plays for), so a departure made for the match may
show a cost here.  docs/expert-experiments.md has the figures and what they said.
"""

from __future__ import annotations

import argparse
import json
import math
import statistics
from collections import defaultdict
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from callbreak.analysis import played_deals
from callbreak.bots.heuristic import HeuristicBot
from callbreak.engine import Deal
from callbreak.playout_review import decision_at, heuristic_players, seat_positions
from callbreak.record import RecordError, read_records, replay


@dataclass(frozen=True)
class Departure:
    """One decision of the observed seat that had a choice: its kind (the phase), the gain
    of the bot's action over the heuristic's (0 where they agree), and the best action's
    gain over the heuristic's, all in points with the hands shown."""

    kind: str
    departed: bool
    gain: float
    ceiling: float


@dataclass
class Tally:
    """The departures of one kind of decision."""

    decisions: int = 0
    gains: list[float] = field(default_factory=list)
    ceilings: list[float] = field(default_factory=list)

    def add(self, item: Departure) -> None:
        self.decisions += 1
        self.ceilings.append(item.ceiling)
        if item.departed:
            self.gains.append(item.gain)

    def row(self) -> dict[str, Any]:
        return {
            "decisions": self.decisions,
            "departures": len(self.gains),
            "gain": _mean(self.gains),
            "ceiling": _mean(self.ceilings),
        }


def _mean(values: list[float]) -> dict[str, float] | None:
    """Mean and 95% half-width (normal), None with fewer than two values."""
    if len(values) < 2:
        return None
    half = 1.96 * statistics.stdev(values) / math.sqrt(len(values))
    return {"mean": statistics.mean(values), "half_width": half, "n": len(values)}


def departures(deal: Deal, seat: int) -> Iterator[Departure]:
    """Each decision of ``seat`` in a finished ``deal`` that had a choice, walked as the
    review walks it, the heuristic asked the same question at each."""
    players = heuristic_players(deal.players)
    for walk, action in seat_positions(deal, seat):
        decision = decision_at(walk, seat, action, players)
        if decision.values is None:
            continue  # forced
        answer = str(HeuristicBot(seed=seat).act(walk.observation(seat)))
        base = decision.values[answer].tenths
        gain = (decision.values[decision.played].tenths - base) / 10
        ceiling = (max(v.tenths for v in decision.values.values()) - base) / 10
        yield Departure(decision.kind, decision.played != answer, gain, ceiling)


def seats_of(record: dict[str, Any], bot: str) -> list[int]:
    """The seats a bot named ``bot`` played in a record (``bot:NAME`` or ``bot:NAME:...``)."""
    wanted = f"bot:{bot}"
    return [
        index
        for index, entry in enumerate(record.get("seats", []))
        if entry.get("player") == wanted or str(entry.get("player", "")).startswith(wanted + ":")
    ]


def tally(paths: list[Path], bot: str, games: int | None = None) -> dict[str, Tally]:
    """Every decision of the seats ``bot`` played in the records of ``paths`` (the first
    ``games`` records at most), by kind."""
    kinds: dict[str, Tally] = defaultdict(Tally)
    seen = 0
    for path in paths:
        for record in read_records(path):
            if games is not None and seen >= games:
                return dict(kinds)
            seen += 1
            seats = seats_of(record, bot)
            if not seats:
                continue
            match = replay(record).match
            for _, deal in played_deals(match):
                for seat in seats:
                    for item in departures(deal, seat):
                        kinds[item.kind].add(item)
    return dict(kinds)


def _text(value: dict[str, float] | None) -> str:
    return "—" if value is None else f"{value['mean']:+.2f} ± {value['half_width']:.2f}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("records", nargs="+", type=Path, help="records files (records.jsonl)")
    parser.add_argument("--bot", default="expert", help="the bot's name in the records' seats")
    parser.add_argument("--games", type=int, default=None, help="read at most this many records")
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    args = parser.parse_args()
    try:
        kinds = tally(args.records, args.bot, args.games)
    except (OSError, RecordError) as error:
        parser.error(str(error))
    if not kinds:
        parser.error(f"no seat played by {args.bot!r} in these records")
    if args.json:
        print(json.dumps({kind: kinds[kind].row() for kind in sorted(kinds)}, indent=2))
        return
    print(f"{'decision':<10} {'departed':>16} {'gain a departure':>18} {'ceiling a decision':>20}")
    for kind in sorted(kinds):
        row = kinds[kind].row()
        share = f"{row['departures']} / {row['decisions']}"
        print(f"{kind:<10} {share:>16} {_text(row['gain']):>18} {_text(row['ceiling']):>20}")
    print("Points with the hands shown, the deal finished by the heuristic; more is better.")


if __name__ == "__main__":
    main()

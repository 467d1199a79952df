"""How strong the expert is in each game of the family: the table of docs/bots.md.

For each table (a preset at a seat count) the expert at ``--budget-ms`` takes one
seat and ``--against`` the others, on duplicate deals with the seats rotated, by
running ``callbreak arena ... --json`` (the command a user would type, printed
before each run).  It prints one Markdown row per table: points per deal, the
paired edge (signed so that positive is better, countdown games included), the
share of matches won with a 95% Wilson interval against par (one over the
seats, or the sides), the decision times and the fallbacks.  Each deal set starts a
whole match played to its end under the preset's rules (``--whole-matches``: to its
target, its number of deals, or Snarples' and Donut's zero), so ``--deals`` counts
matches; ``--deal-groups`` measures single deals and groups them as the arena
does without it.

    python bench/family_strength.py [--tables snarples@3,donut@4,...] [--deals 200]
        [--budget-ms 100] [--against heuristic] [--workers 2] [--seed 1]
    python bench/family_strength.py --pool "cautious aggressive" [--tables ...]

With ``--pool`` each table is the expert against every mix of those bots in the
other seats (``callbreak arena --pool``): a row gives the edge over the whole pool,
over each member and over the worst mix.

A table's matches (deal sets) may be given with it (``snarples@8:40``); ``--deals`` is
the rest's.  The share of matches won counts a shared win as its share, so the
interval is an approximation where ties are common.
"""

from __future__ import annotations

import argparse
import json
import math
import shlex
import shutil
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

from callbreak import Rules

DEFAULT_TABLES = (
    "batak-ihale@4",
    "rook-call-partner@4",
    "snarples@3",
    "snarples@5",
    "snarples@8",
    "donut@4",
    "donut@6",
    "horsethief@3",
    "horsethief@5",
)
"""The tables issue 29 asks figures for (the preset, then its seat count)."""

_Z = 1.96
"""The normal quantile of a two-sided 95% interval."""


def wilson(share: float, count: int) -> tuple[float, float]:
    """The 95% Wilson score interval of a share observed over ``count`` trials.

    >>> low, high = wilson(0.5, 100)
    >>> round(low, 3), round(high, 3)
    (0.404, 0.596)
    """
    if count <= 0:
        return 0.0, 1.0
    z2 = _Z * _Z
    centre = (share + z2 / (2 * count)) / (1 + z2 / count)
    half = _Z * math.sqrt(share * (1 - share) / count + z2 / (4 * count * count))
    half /= 1 + z2 / count
    return max(0.0, centre - half), min(1.0, centre + half)


def _arena(table: str, deals: int, args: argparse.Namespace, lineup: list[str]) -> list[str]:
    """The arena command for one table with ``lineup`` (its seats, or its pool), as a user
    would type it: the seat count is given where it is not the preset's own, and whole
    matches unless ``--deal-groups``."""
    preset, _, seats = table.partition("@")
    line = ["callbreak", "arena", "--rules", preset]
    if seats and int(seats) != Rules.preset(preset).players:
        line += ["--option", f"players={seats}"]
    line += lineup
    if args.whole_matches:
        line.append("--whole-matches")
    line += ["--deals", str(deals), "--seed", str(args.seed), "--workers", str(args.workers)]
    return [*line, "--json"]


def _players(table: str) -> int:
    """The seats of ``preset@players`` (the preset's own without ``@``)."""
    preset, _, seats = table.partition("@")
    return int(seats) if seats else Rules.preset(preset).players


def _candidate(args: argparse.Namespace) -> str:
    """The measured bot with the budget added to its options (``expert:read_play=1``)."""
    joint = "," if ":" in args.candidate else ":"
    return f"{args.candidate}{joint}budget_ms={args.budget_ms}"


def command(table: str, deals: int, args: argparse.Namespace) -> list[str]:
    """The arena command for one table: the expert in one seat, ``--against`` the others."""
    seats = ["--seat", _candidate(args)]
    for _ in range(_players(table) - 1):
        seats += ["--seat", args.against]
    return _arena(table, deals, args, seats)


def pool_command(table: str, deals: int, args: argparse.Namespace) -> list[str]:
    """The arena's pool command for one table: the expert against every mix of ``--pool``."""
    candidate = _candidate(args)
    return _arena(table, deals, args, ["--pool", args.pool, "--candidate", candidate])


def pool_row(table: str, deals: int, summary: dict[str, Any], wall: float) -> str:
    """One Markdown row of the styles table: the edge over the whole pool, over each member,
    and over the worst mix, the share of matches won against par, with the fallbacks."""
    edge = summary["edge_vs_pool"]
    worst = summary["worst_mix"]
    members = ", ".join(
        f"{name} {e['mean']:+.2f} ± {e['half_width']:.2f}"
        for name, e in summary["edge_vs_member"].items()
    )
    fallbacks = summary["fallbacks"]
    decisions = max(1, summary["decisions"])
    return (
        f"| {table} | {deals} × {len(summary['mixes'])} | {edge['mean']:+.2f} ± "
        f"{edge['half_width']:.2f} | {members} | {' + '.join(worst['mix'])}: "
        f"{worst['edge']['mean']:+.2f} ± {worst['edge']['half_width']:.2f} "
        f"| {_won(summary.get('match_share'), summary.get('matches', 0), summary.get('par'))} "
        f"| {fallbacks} ({fallbacks / decisions:.1%}) | {wall:.0f} s |"
    )


def _won(share: float | None, matches: int, par: float | None) -> str:
    """A share of matches won with its 95% Wilson interval and par, or "-" without one."""
    if share is None or par is None:
        return "-"
    low, high = wilson(share, matches)
    return f"{share:.0%} [{low:.0%}, {high:.0%}] of {matches} (par {par:.0%})"


POOL_HEADER = (
    "| table | matches (or deal sets) × mixes | edge over the pool | edge over each member "
    "| worst mix | matches won [95%] | fallbacks | wall |\n"
    "| --- | ---: | ---: | --- | --- | ---: | ---: | ---: |"
)


def row(table: str, deals: int, summary: dict[str, Any], wall: float) -> str:
    """One Markdown row of the strength table from an arena JSON summary."""
    bots = summary["bots"]
    expert, others = bots[0], bots[1:]
    sides = summary.get("sides")  # a partnership game's rows are its sides
    par = 1 / (len(sides) if sides else _players(table))
    points = expert["points_per_deal"]
    other = others[0]["points_per_deal"] if others else {"mean": float("nan")}
    edge = expert["edge_vs_others"]
    share = expert["match_share"] or 0.0
    low, high = wilson(share, expert["matches"])
    ms = expert["decision_ms"]
    fallbacks = expert["fallbacks"]
    decisions = max(1, expert["decisions"])
    met = "yes" if share >= 1.5 * par and low > par else "no"
    length = summary.get("deals_per_match")
    sets = f"{deals} ({length:.1f} deals each)" if length else str(deals)
    return (
        f"| {table} | {sets} | {points['mean']:.2f} ± {points['half_width']:.2f} "
        f"| {other['mean']:.2f} | {edge['mean']:+.2f} ± {edge['half_width']:.2f} "
        f"| {share:.0%} [{low:.0%}, {high:.0%}] of {expert['matches']} (par {par:.0%}; "
        f"1.5 × par and clear: {met}) "
        f"| {ms['p50']:.0f} / {ms['p99']:.0f} / {ms['max']:.0f} ms "
        f"| {fallbacks} ({fallbacks / decisions:.1%}) | {wall:.0f} s |"
    )


HEADER = (
    "| table | matches (or deal sets) | expert points/deal | others' points/deal | edge "
    "| matches won [95%] | decision p50 / p99 / max | fallbacks | wall |\n"
    "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |"
)


def _executable() -> str:
    """The ``callbreak`` command: on the PATH, else beside this Python (a venv not activated)."""
    return shutil.which("callbreak") or str(Path(sys.executable).with_name("callbreak"))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--tables",
        default=",".join(DEFAULT_TABLES),
        help="preset@seats[:deal sets], comma-separated (default: issue 29's tables)",
    )
    parser.add_argument("--deals", type=int, default=40, help="matches (deal sets) per table")
    parser.add_argument(
        "--deal-groups",
        dest="whole_matches",
        action="store_false",
        help="single deals, matches counted as groups of consecutive deal sets",
    )
    parser.add_argument("--budget-ms", type=int, default=100, help="the expert's budget")
    parser.add_argument("--candidate", default="expert", help="the bot measured")
    parser.add_argument("--against", default="heuristic", help="the bot in the other seats")
    parser.add_argument(
        "--pool",
        help="bots for every mix of the other seats (e.g. 'cautious aggressive'): "
        "the expert against the pool instead of against --against",
    )
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    print(POOL_HEADER if args.pool else HEADER, flush=True)
    for entry in args.tables.split(","):
        table, _, count = entry.strip().partition(":")
        deals = int(count) if count else args.deals
        line = (pool_command if args.pool else command)(table, deals, args)
        print(f"<!-- {shlex.join(line)} -->", file=sys.stderr, flush=True)
        started = time.perf_counter()
        done = subprocess.run([_executable(), *line[1:]], capture_output=True, text=True)
        if done.returncode != 0:
            print(done.stderr, file=sys.stderr)
            return done.returncode
        summary = json.loads(done.stdout)
        wall = time.perf_counter() - started
        text = (pool_row if args.pool else row)(table, deals, summary, wall)
        print(text, flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

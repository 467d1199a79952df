"""How long the solver's review of a whole match takes (``callbreak analyze``).

Matches of five deals are played by four heuristic bots (seeds ``--seed``,
``--seed + 1``, ...) and written as records.  Each record is then reviewed
for seat 0 by the command itself in a fresh process, as a player would run
it, so the figure includes numba's one-off compilation of the solver and of
the expert's kernels (the second opinion); then the same matches are
reviewed again in this one process, after its compilation, which is
reported apart.

    python bench/analysis.py [--matches 3] [--seed 1] [--rules callbreak] [--expert SPEC|none]
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from callbreak import Match, Rules
from callbreak.analysis import DEFAULT_EXPERT, Analyst
from callbreak.bots import make_bot
from callbreak.record import match_record, write_record


def play(rules: Rules, seed: int) -> Match:
    """A match of five scored deals between four heuristic bots."""
    match = Match(rules.replace(match_deals=5) if rules.match_end == "deals" else rules, seed=seed)
    bots = [make_bot("heuristic", seed=seed * 4 + s) for s in range(4)]
    while not match.over:
        seat = match.to_act
        assert seat is not None
        match.act(bots[seat].act(match.observation(seat)))
        if len(match.scored_deals) >= 5 and not match.deal.log and not match.over:
            match.finish()
    return match


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--matches", type=int, default=3)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--rules", default="callbreak")
    parser.add_argument("--expert", default=DEFAULT_EXPERT)
    args = parser.parse_args()
    rules = Rules.preset(args.rules)
    print(f"{platform.python_version()} on {os.cpu_count()} cores; rules {args.rules}")
    print(f"second opinion: {args.expert}")
    with tempfile.TemporaryDirectory() as folder:
        paths = []
        for k in range(args.matches):
            path = Path(folder) / f"match{k}.json"
            write_record(path, match_record(play(rules, args.seed + k)))
            paths.append(path)
        cold = []
        command = [sys.executable, "-m", "callbreak.cli.main", "analyze"]
        for path in paths:
            started = time.perf_counter()
            out = subprocess.run(
                [*command, str(path), "--json", "--expert", args.expert],
                check=True,
                capture_output=True,
                text=True,
            ).stdout
            wall = time.perf_counter() - started
            cold.append(wall)
            summary = json.loads(out)["summary"]
            print(
                f"{path.name}: {len(json.loads(out)['deals'])} deals, "
                f"{summary['decisions']} decisions, {summary['mistakes']} lost value, "
                f"{summary['unknown']} unknown: {wall:.1f} s in a fresh process"
            )
        expert = None if args.expert == "none" else args.expert
        analyst = Analyst(expert=expert, threads=2)
        started = time.perf_counter()
        analyst.warm_up()
        if expert is not None:
            from callbreak.bots.expert import warm_up_search

            warm_up_search(wait=True)
        compile_s = time.perf_counter() - started
        warm = []
        from callbreak.analysis import played_deals
        from callbreak.record import read_records, replay

        for path in paths:
            match = replay(read_records(path)[0]).match
            started = time.perf_counter()
            for number, deal in played_deals(match):
                analyst.deal(deal, 0, number)
            warm.append(time.perf_counter() - started)
    print(
        "whole 5-deal match, fresh process (compilation included): "
        f"mean {sum(cold) / len(cold):.1f} s, max {max(cold):.1f} s"
    )
    print(
        f"after compiling once ({compile_s:.1f} s): mean {sum(warm) / len(warm):.2f} s, "
        f"max {max(warm):.2f} s a match"
    )


if __name__ == "__main__":
    main()

"""The engine's cost per random-play deal here against another revision, in CPU time.

``bench/engine.py`` counts deals a second on the wall clock, which swings by a
third on a busy two-core machine; a change to the engine is judged here instead:
each tree plays the same seeded random deals of every preset through the public
``Deal`` in a process of its own, the two trees take turns round after round, and
the CPU time of each (``time.process_time``) is kept.  The median and the best
round of each are compared.

    python bench/engine_compare.py REV [--rounds 7] [--deals 1000] [--presets a,b]

REV is any git revision (checked out once into a temporary worktree) or a folder
holding another checkout.
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import tempfile
from collections import defaultdict
from pathlib import Path

HERE = Path(__file__).resolve().parent.parent

PLAYER = """
import random, sys, time
from callbreak import Deal, Rules
deals = int(sys.argv[1])
for preset in sys.argv[2:]:
    rules = Rules.preset(preset)
    rng = random.Random(7)
    choice = rng.choice
    start = time.process_time()
    for done in range(deals):
        deal = Deal(rules, seed=rng.getrandbits(63), dealer=done % rules.players)
        while deal.to_act is not None:
            deal.act(choice(deal.legal()))
    print(preset, (time.process_time() - start) / deals * 1e6)
"""


def cpu_per_deal(tree: Path, deals: int, presets: list[str]) -> dict[str, float]:
    """Microseconds of CPU a deal for each preset, played by the code of ``tree``."""
    out = subprocess.run(
        [sys.executable, "-c", PLAYER, str(deals), *presets],
        env={"PYTHONPATH": str(tree / "src"), "PATH": "/usr/bin:/bin"},
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    return {name: float(value) for name, value in (line.split() for line in out.splitlines())}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("other", help="a git revision or a folder with another checkout")
    parser.add_argument("--rounds", type=int, default=7, help="turns each tree takes")
    parser.add_argument("--deals", type=int, default=1000, help="deals per preset per turn")
    parser.add_argument("--presets", default="", help="comma-separated (default: all)")
    args = parser.parse_args()
    sys.path.insert(0, str(HERE / "src"))
    from callbreak import Rules

    presets = args.presets.split(",") if args.presets else Rules.presets()
    with tempfile.TemporaryDirectory() as scratch:
        other = Path(args.other)
        if not other.is_dir():
            other = Path(scratch) / "other"
            subprocess.run(
                ["git", "-C", str(HERE), "worktree", "add", "--detach", str(other), args.other],
                check=True,
                capture_output=True,
            )
        try:
            old_presets = [p for p in presets if _knows(other, p)]
            times: dict[tuple[str, str], list[float]] = defaultdict(list)
            for _ in range(args.rounds):
                for label, tree, names in (("other", other, old_presets), ("here", HERE, presets)):
                    for preset, micros in cpu_per_deal(tree, args.deals, names).items():
                        times[label, preset].append(micros)
        finally:
            if other.parent == Path(scratch):
                remove = ["worktree", "remove", "--force", str(other)]
                subprocess.run(["git", "-C", str(HERE), *remove], check=False)
    print(f"CPU µs per random-play deal, {args.rounds} rounds of {args.deals} deals, median (best)")
    print(f"{'preset':18} {args.other[:12]:>16} {'here':>16} {'change':>8}")
    for preset in presets:
        here = times["here", preset]
        if ("other", preset) not in times:
            print(f"{preset:18} {'—':>16} {_cell(here):>16} {'new':>8}")
            continue
        old = times["other", preset]
        change = statistics.median(here) / statistics.median(old) - 1
        print(f"{preset:18} {_cell(old):>16} {_cell(here):>16} {change:>+8.1%}")


def _cell(values: list[float]) -> str:
    return f"{statistics.median(values):.1f} ({min(values):.1f})"


def _knows(tree: Path, preset: str) -> bool:
    """Whether the other tree has the preset at all (an older one lacks the newer games)."""
    probe = f"from callbreak import Rules; Rules.preset({preset!r})"
    env = {"PYTHONPATH": str(tree / "src"), "PATH": "/usr/bin:/bin"}
    probed = subprocess.run([sys.executable, "-c", probe], env=env, capture_output=True)
    return probed.returncode == 0


if __name__ == "__main__":
    main()

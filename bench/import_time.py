"""How long ``import callbreak`` takes in a fresh interpreter (target: under 100 ms).

Each run starts a new Python; the bare interpreter's start-up is measured the
same way and subtracted, so the figure is the package's own cost.

    python bench/import_time.py [--runs 20]
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import time


def median_seconds(code: str, runs: int) -> float:
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        subprocess.run([sys.executable, "-c", code], check=True)
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=20, help="fresh interpreters per figure")
    args = parser.parse_args()
    bare = median_seconds("pass", args.runs)
    loaded = median_seconds("import callbreak", args.runs)
    print(f"python start-up          {bare * 1000:7.1f} ms (median of {args.runs})")
    print(f"python + import callbreak {loaded * 1000:6.1f} ms")
    print(f"import callbreak itself  {(loaded - bare) * 1000:7.1f} ms")


if __name__ == "__main__":
    main()

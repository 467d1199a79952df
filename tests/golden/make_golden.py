"""Generate the golden game records: seeded matches played by a seeded random-legal policy.

The files beside this script are committed; ``tests/test_record.py`` checks that
each one still replays cleanly and that generating it again from the same seed
gives the identical document.  A difference means the engine, the shuffle or the
record format changed: if that was intended, run this script again and commit
the new files with the change that caused them.

    python tests/golden/make_golden.py
"""

from __future__ import annotations

import random
from pathlib import Path

from callbreak.engine.match import Match
from callbreak.record import Record, match_record, write_record
from callbreak.rules import Rules

HERE = Path(__file__).resolve().parent

GOLDEN: dict[str, tuple[str, int, int | None]] = {
    "callbreak-seed1": ("callbreak", 1, None),
    "callbreak-bhoos-seed3": ("callbreak-bhoos", 3, None),
    "callbridge-seed3": ("callbridge", 3, 3),
}
"""File stem → (preset, seed, deals before ``finish()`` for an open match, else None)."""


def play_random(
    match: Match,
    rng: random.Random,
    deals: int | None = None,
    max_actions: int | None = None,
) -> None:
    """Play ``match`` choosing uniformly from ``match.legal()`` with ``rng``.

    With ``deals``, an open-ended match is stopped with ``finish()`` once that
    many deals are scored (a tie at the top is then played off); with
    ``max_actions`` play stops early, leaving an unfinished match.
    """
    actions = 0
    while not match.over:
        if deals is not None and len(match.scored_deals) >= deals and not match.tie_break:
            match.finish()
            continue
        if max_actions is not None and actions >= max_actions:
            return
        match.act(rng.choice(match.legal()))
        actions += 1


def generate(preset: str, seed: int, deals: int | None = None) -> Record:
    """The record of a match of ``preset`` from ``seed``, played by ``random.Random(seed)``."""
    match = Match(Rules.preset(preset), seed=seed)
    play_random(match, random.Random(seed), deals)
    seats = [{"name": f"Seat {i}", "player": "bot:random"} for i in range(match.players)]
    return match_record(match, seats=seats)


def main() -> None:
    for stem, (preset, seed, deals) in GOLDEN.items():
        path = HERE / f"{stem}.json"
        write_record(path, generate(preset, seed, deals))
        print(f"wrote {path}")


if __name__ == "__main__":
    main()

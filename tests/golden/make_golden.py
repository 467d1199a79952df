"""Generate the golden game records: seeded matches played by a seeded random-legal policy.

The files beside this script are committed; ``tests/test_record.py`` checks that
each one still replays cleanly and that generating it again from the same seed
gives the identical document.  A difference means the engine, the shuffle or the
record format changed: if that was intended, run this script again and commit
the new files with the change that caused them.

``v1/`` holds records in the previous format (``callbreak-record/1``), written
by the engine of that time and never regenerated: they prove that old records
are still read, converted and replayed (``V1_GOLDEN`` names the same match in
the current format).

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
    "batak-ihale-seed1": ("batak-ihale", 1, None),
    "batak-koz-maca-seed2": ("batak-koz-maca", 2, None),
    "rook-call-partner-seed1": ("rook-call-partner", 1, None),
    "snarples-players6-seed1": ("snarples players=6", 1, None),
    "donut-players5-seed2": ("donut players=5", 2, None),
    "horsethief-players3-seed1": ("horsethief players=3", 1, None),
}
"""File stem → (preset, seed, deals before ``finish()`` for an open match, else None).

The preset may be followed by ``name=value`` options (``"donut players=5"``): the five-card
games are recorded at a seat count other than their default, where seats drop, sit out or
go out of the game and the dealing order wraps differently."""

V1 = HERE / "v1"
V1_GOLDEN: dict[str, str] = {
    "callbreak-seed1": "callbreak-seed1",
    "callbreak-bhoos-seed3": "callbreak-bhoos-seed3",
    "callbridge-seed3": "callbridge-seed3",
}
"""Version-1 file stem (in ``v1/``) → the stem of the same match in the current format."""


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


def golden_rules(spec: str) -> Rules:
    """The rules a ``GOLDEN`` entry names: a preset, then any ``name=value`` options."""
    preset, *options = spec.split()
    changes = dict(option.split("=", 1) for option in options)
    return Rules.preset(preset).replace(**changes)


def generate(preset: str, seed: int, deals: int | None = None) -> Record:
    """The record of a match of ``preset`` (a ``GOLDEN`` spec: a preset and any options) from
    ``seed``, played by ``random.Random(seed)``."""
    match = Match(golden_rules(preset), seed=seed)
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

"""How much probability the expert's sampled worlds give each hidden card's true holder.

The expert plays by the worlds its sampler draws (``bots.search.sampler``), so the first
question about a belief is how close those worlds are to the deal as it lay.  This script
replays the Call Break games of an arena report, stops at every decision of the observed
seat (its call, and each of its cards), draws the worlds as each setting below would, and
scores them: for every card the seat cannot see, the log of the share of the worlds' weight
that puts it in its true holder's hand (a share of 0 counts as half a world, so that a card
the worlds never place right costs a bounded amount).  Uniform guessing among three holders
scores log(1/3) = -1.099; the true deal scores 0.

    callbreak arena --seat expert:preset=fixed --seat V --seat V --seat V --deals 200 \\
        --seed 31 --workers 2 --report runs/v1 --report-deals 0
    PYTHONPATH=src python bench/belief_accuracy.py runs/v1/records.jsonl \\
        --observer expert:preset=fixed --games 400

(``V = expert-v1:deterministic=1,worlds=32,call_worlds=48``.)  A setting that scores higher
knows more about where the cards lie; whether that wins points is for the arena to say:
docs/expert-experiments.md has the figures and what they did in play.
"""

from __future__ import annotations

import argparse
import json
import math
import random
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import numpy as np

from callbreak.bots.search.sampler import WorldSampler
from callbreak.cards import parse_card
from callbreak.engine import Deal, Observation
from callbreak.rules import Rules

Array = Any
SETTINGS: dict[str, dict[str, Any]] = {
    "hard facts alone": {"sigma": None},
    "calls, weighted (the expert's calls)": {"sigma": 0.6},
    "calls, 16 candidates a world": {"sigma": 0.6, "pick": 16},
    "calls and play (the expert's cards)": {
        "sigma": 0.6,
        "surprise": 0.02,
        "trust": 0.2,
        "oversample": 16,
    },
    "calls and play, surprise 0.1": {"sigma": 0.6, "surprise": 0.1, "trust": 0.2, "oversample": 16},
    "calls and play, no trust": {"sigma": 0.6, "surprise": 0.02, "oversample": 16},
    "calls and play, 64 candidates": {
        "sigma": 0.6,
        "surprise": 0.02,
        "trust": 0.2,
        "oversample": 64,
    },
}
"""The sampler's settings compared: ``WorldSampler``'s own keywords, and ``pick`` for worlds
picked by their weights from that many candidates each where the sampler would only weigh
them (its calls: it resamples only when it reads the play)."""


def decisions(record: dict[str, Any], observer: str | None) -> Iterator[Observation]:
    """The observed seat's observations at its call and its cards, replaying the record's
    last deal (``observer``: the seat whose player is ``bot:observer``; None: seat 0)."""
    deal_record = record["deals"][-1]
    players = [seat["player"] for seat in record["seats"]]
    seat = players.index(f"bot:{observer}") if observer else 0
    deal = Deal(Rules.preset("callbreak"), hands=deal_record["hands"], dealer=deal_record["dealer"])
    for action in deal_record["actions"]:
        if action["seat"] == seat and action["phase"] in ("call", "play"):
            yield deal.observation(seat)
        deal.act(action["action"])


def worlds(
    observation: Observation, setting: dict[str, Any], count: int, rng: random.Random
) -> tuple[Array, Array]:
    """``count`` worlds (hands by seat) and their normalised weights under ``setting``."""
    options = dict(setting)
    pick = options.pop("pick", 1)
    hands, weights = WorldSampler(observation, **options).draw_arrays(count * pick, rng)
    weights = weights / weights.sum()
    if pick > 1:
        cumulative = np.cumsum(weights)
        at = (rng.random() + np.arange(count)) / count
        chosen = np.minimum(np.searchsorted(cumulative, at, side="right"), len(weights) - 1)
        hands, weights = hands[chosen], np.full(count, 1 / count)
    return hands, weights


def score(observation: Observation, hands: Array, weights: Array, holders: dict[int, int]) -> float:
    """Mean log share of the worlds' weight on each hidden card's true holder."""
    floor = 0.5 / len(weights)
    total, cards = 0.0, 0
    for card, holder in holders.items():
        if holder == observation.seat or observation.played_mask >> card & 1:
            continue
        share = float(weights @ ((hands[:, holder] >> card) & 1))
        total += math.log(max(share, floor))
        cards += 1
    return total / cards if cards else 0.0


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("records", type=Path, help="an arena report's records.jsonl (Call Break)")
    parser.add_argument("--observer", help="the observed seat's bot spec (default: seat 0)")
    parser.add_argument("--games", type=int, default=200, help="games read, from the first")
    parser.add_argument("--worlds", type=int, default=48, help="worlds drawn a decision")
    parser.add_argument("--seed", type=int, default=1, help="seed of the draws")
    args = parser.parse_args()
    rng = random.Random(args.seed)
    by_stage: dict[str, dict[int, list[float]]] = {name: {} for name in SETTINGS}
    with args.records.open() as lines:
        for number, line in enumerate(lines):
            if number >= args.games:
                break
            record = json.loads(line)
            holders = {
                parse_card(card): seat
                for seat, hand in enumerate(record["deals"][-1]["hands"])
                for card in hand
            }
            for observation in decisions(record, args.observer):
                stage = 0 if observation.phase == "call" else observation.trick_number + 1
                for name, setting in SETTINGS.items():
                    drawn, weights = worlds(observation, setting, args.worlds, rng)
                    value = score(observation, drawn, weights, holders)
                    by_stage[name].setdefault(stage, []).append(value)
    stages = sorted({stage for rows in by_stage.values() for stage in rows})
    print(f"mean log share of the worlds on each hidden card's true holder, {args.worlds} worlds")
    print(
        f"{'':40s}"
        + "".join(f"{'call' if s == 0 else f'trick {s}':>9s}" for s in stages)
        + "      all"
    )
    for name, rows in by_stage.items():
        every = [value for stage in stages for value in rows.get(stage, [])]
        cells = "".join(f"{np.mean(rows[s]):9.3f}" if rows.get(s) else f"{'-':>9s}" for s in stages)
        print(f"{name:40s}{cells}{np.mean(every):9.3f}")


if __name__ == "__main__":
    main()

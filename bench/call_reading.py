"""How well does an estimate of a hand's tricks explain the calls made with it?

The expert's sampler weighs each world by the calls the others made with the hands it deals
them: a Gaussian (``call_sigma``) around the rule-of-thumb ``estimate_tricks`` of each hand.
A belief is only as sharp as that likelihood is right, so this script scores candidate
estimates on real calls: the held-out log-likelihood of each call given the hand it was made
with, under a Gaussian around the estimate less a shortfall, normalised over the calls
allowed.  Each estimate's shortfall and spread are fitted on the first half of the deals and
scored on the second; the shipped reading (no shortfall, spread 0.6) is scored as it is.

The deals come from ``bench/expert_deals.py`` with the callers of interest at every seat:

    PYTHONPATH=src python bench/expert_deals.py --deals 400 --seeds 51 52 \\
        --bot expert-v1:deterministic=1,worlds=32,call_worlds=48 --out v1.npz
    PYTHONPATH=src python bench/call_reading.py v1.npz

The estimates: the rule of thumb, the learned forecast's mean (``bots.learned.callmodel``,
with and without the calls made before), and mixtures of the shipped reading with the
forecast's, seat by seat, as a sampler that does not know which kind of caller sits there
would weigh them.  docs/expert-experiments.md has the figures and what they did in play.
"""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

import numpy as np

from callbreak.bots.learned import callmodel
from callbreak.bots.trickplay import estimate_tricks
from callbreak.cards import SPADES

Array = Any
CALLS = np.arange(1, 14)
"""The calls Call Break allows."""


def call_probabilities(estimate: Array, calls: Array, shortfall: float, sigma: float) -> Array:
    """P(each call | its hand): a Gaussian over the allowed calls around ``estimate``."""
    centre = np.clip(estimate - shortfall, CALLS[0], CALLS[-1])
    z = -((CALLS[None, :] - centre[:, None]) ** 2) / (2 * sigma * sigma)
    p = np.exp(z - z.max(axis=1, keepdims=True))
    p /= p.sum(axis=1, keepdims=True)
    return np.asarray(p[np.arange(len(calls)), calls - CALLS[0]])


def fitted(estimate: Array, calls: Array, first: Array) -> tuple[float, float]:
    """The shortfall and spread that explain the first half's calls best (a grid)."""
    grid = [
        (float(np.log(call_probabilities(estimate[first], calls[first], d, s)).mean()), d, s)
        for d in np.round(np.arange(-1.5, 2.01, 0.1), 2)
        for s in np.round(np.arange(0.3, 2.01, 0.05), 2)
    ]
    _, shortfall, sigma = max(grid)
    return float(shortfall), float(sigma)


def scores(rows: Array) -> dict[str, float]:
    """Held-out log-likelihood of the calls in ``rows`` (``bench/expert_deals.py``'s, four a
    deal) under each reading, nats a call, by the reading's label."""
    rows = np.asarray(rows).reshape(-1, 4, 4)  # deal, seat: hand, place, call, won
    hands, places, calls = (rows[:, :, i].reshape(-1) for i in range(3))
    earlier = np.full((len(rows), 4, callmodel.EARLIER), callmodel.NOT_CALLED, np.int64)
    for seat in range(4):
        for other in range(4):
            before = rows[:, other, 1] < rows[:, seat, 1]
            earlier[before, seat, rows[before, other, 1]] = rows[before, other, 2]
    model = callmodel.load()
    tricks = np.arange(callmodel.TRICKS)
    rule = np.array([estimate_tricks(int(h), SPADES) for h in hands])
    estimates = {
        "rule of thumb (estimate_tricks)": rule,
        "forecast mean, calls before read": model.predict(
            hands, places, earlier.reshape(-1, callmodel.EARLIER)
        )
        @ tricks,
        "forecast mean, hand and place only": model.predict(hands, places) @ tricks,
    }
    first = np.arange(len(hands)) < len(hands) // 2
    second = ~first
    shipped = call_probabilities(rule[second], calls[second], 0.0, 0.6)
    out = {"the sampler as shipped (shortfall 0, spread 0.6)": float(np.log(shipped).mean())}
    learned = shipped
    for name, estimate in estimates.items():
        shortfall, sigma = fitted(estimate, calls, first)
        p = call_probabilities(estimate[second], calls[second], shortfall, sigma)
        out[f"{name}, fitted shortfall {shortfall:+.1f}, spread {sigma:.2f}"] = float(
            np.log(p).mean()
        )
        if name.startswith("forecast mean, calls"):
            learned = p
    for weight in (0.2, 0.5, 0.8):
        mixed = float(np.log(weight * learned + (1 - weight) * shipped).mean())
        out[f"{weight:.0%} forecast (fitted), rest as shipped"] = mixed
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("deals", type=Path, help="a .npz of bench/expert_deals.py")
    args = parser.parse_args()
    rows = np.load(args.deals)["rows"].reshape(-1, 4, 4)
    print(
        f"{len(rows)} deals: calls {rows[:, :, 2].mean():.2f} a seat, "
        f"tricks {rows[:, :, 3].mean():.2f}"
    )
    print(f"held-out log-likelihood of the {len(rows) * 2} calls of the second half, nats a call:")
    for label, value in scores(rows).items():
        print(f"  {label:68s} {value:.4f}")


if __name__ == "__main__":
    main()

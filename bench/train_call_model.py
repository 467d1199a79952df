"""Retrain the expert's learned call model (``bots/learned/callmodel-*.npz``) from a seed.

First stage: deals are shuffled with numpy's generator from ``--seed`` and played to the
end by the compiled heuristic at all four seats (``search.rollout``, the playouts the
expert itself runs: about 100,000 deals a second), each seat calling what the heuristic
calls; every seat's hand, its place after the leader, the calls made before its own and
the tricks it won make one example.  The network (``callmodel.CallModel``) is fitted by
minibatch Adam on the cross-entropy of the trick count, plain numpy, one thread; a
twentieth of the deals is held out and its loss printed.

Second stage (``--tune FILE``): the network is fitted further on deals the expert played
at all four seats (``bench/expert_deals.py`` writes FILE), five epochs at a steady rate,
each weight pulled back toward the first stage's: a forecast of the tricks the expert
takes, not the heuristic.  Before that fit, the same fit on the first four fifths of the
expert's deals is scored on the last fifth, against the first stage alone.  The shipped
weights (``callmodel-2026-11-29.npz``) are both stages with the defaults:

    PYTHONPATH=src python bench/expert_deals.py --out expert_deals.npz
    PYTHONPATH=src python bench/train_call_model.py --tune expert_deals.npz

On the project's 2-core machine the first command takes about 32 minutes (9,474 deals
played of 10,000, four streams on the two cores) and the second 20 to 60 s (numba, a
default dependency, compiles the playouts); a rerun gives the shipped weights bit for bit.
``--out`` writes elsewhere: new weights go to a file of their own, named by the day
(``callmodel-YYYY-MM-DD.npz``), and ``bots.learned.CALL_WEIGHTS`` names the newest, so
that the experts frozen on the ladder keep the weights they played with.
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path
from typing import Any

import numpy as np

from callbreak.bots.heuristic import estimate_tricks
from callbreak.bots.learned import CALL_WEIGHTS, call_weights_path
from callbreak.bots.learned.callmodel import (
    EARLIER,
    FEATURES,
    NOT_CALLED,
    TRICKS,
    CallModel,
    features,
)
from callbreak.bots.search import rollout
from callbreak.engine.deal import play_rules
from callbreak.rules import Rules

Array = Any


def shuffled_hands(rng: np.random.Generator, deals: int) -> Array:
    """``hands[i, s]``: the 13-card mask seat ``s`` holds in deal ``i``."""
    order = np.argsort(rng.random((deals, 52)), axis=1).astype(np.int64)
    hands = np.zeros((deals, 4), np.int64)
    for seat in range(4):
        hands[:, seat] = (np.int64(1) << order[:, 13 * seat : 13 * seat + 13]).sum(axis=1)
    return hands


def earlier_by_seat(calls: Array, places: Array) -> Array:
    """``out[i, s, q]``: in deal ``i``, the call of the seat at place ``q`` if it called
    before seat ``s`` (a lower place), else ``NOT_CALLED``; ``calls`` and ``places`` by seat."""
    deals = np.arange(len(calls))[:, None]
    by_place = np.empty_like(calls)
    by_place[deals, places] = calls
    before = np.arange(EARLIER)[None, None, :] < places[:, :, None]
    return np.where(before, by_place[:, None, :EARLIER], NOT_CALLED)


def played(rules: Rules, hands: Array, leader: int) -> tuple[Array, Array]:
    """Tricks each seat wins when the heuristic plays every seat, calling its own call;
    and those calls."""
    deal_rules = play_rules(rules)
    playouts = rollout.compiled()
    calls = np.array(
        [
            [
                max(rules.min_call, min(rules.max_call, int(estimate_tricks(h, 0) - 0.25 + 0.5)))
                for h in row
            ]
            for row in hands.tolist()
        ],
        np.int64,
    )
    won = np.zeros(hands.shape, np.int64)
    voids = np.zeros(4, np.int64)
    # The playouts give seat 0 one call for the whole batch: group deals by seat 0's call.
    for call in np.unique(calls[:, 0]).tolist():
        rows = np.flatnonzero(calls[:, 0] == call)
        out = np.zeros((len(rows), 1, 4), np.int64)
        playouts.mixed_call_tricks(
            deal_rules, hands[rows], leader, calls[rows], voids, 0, call, out, np.ones(1), 0.0, 0
        )
        won[rows] = out[:, 0, :]
    return won, calls


def examples(seed: int, deals: int) -> tuple[Array, Array]:
    """Features and trick counts, four examples a deal, the leader turning per block."""
    rng = np.random.default_rng(seed)
    rules = Rules.preset("callbreak")
    xs, ys = [], []
    block = 10_000
    for start in range(0, deals, block):
        leader = (start // block) % 4
        hands = shuffled_hands(rng, min(block, deals - start))
        won, calls = played(rules, hands, leader)
        places = np.broadcast_to((np.arange(4)[None, :] - leader) % 4, hands.shape)
        earlier = earlier_by_seat(calls, places).reshape(-1, EARLIER)
        xs.append(features(hands.reshape(-1), places.reshape(-1), earlier))
        ys.append(won.reshape(-1))
    return np.concatenate(xs), np.concatenate(ys)


def loss(model: CallModel, x: Array, y: Array) -> float:
    """Mean cross-entropy of the true counts, in nats."""
    z = model.logits(x).astype(np.float64)
    z -= z.max(axis=1, keepdims=True)
    log_p = z - np.log(np.exp(z).sum(axis=1, keepdims=True))
    return float(-log_p[np.arange(len(y)), y].mean())


def fit(
    params: list[Array],
    x: Array,
    y: Array,
    rng: np.random.Generator,
    rates: list[float],
    batch: int,
    pull: float = 0.0,
) -> CallModel:
    """Minibatch Adam on the cross-entropy, one epoch per rate in ``rates``; ``pull`` draws
    each weight back toward where it started (an L2 penalty on the change: a fine-tune on a
    few thousand deals keeps what the first stage learned from a million examples)."""
    start = [p.copy() for p in params]
    first = [np.zeros_like(p) for p in params]
    second = [np.zeros_like(p) for p in params]
    step = 0
    for epoch, lr in enumerate(rates):
        order = rng.permutation(len(y))
        for at in range(0, len(y), batch):
            rows = order[at : at + batch]
            xb, yb = x[rows], y[rows]
            w1, b1, w2, b2 = params
            pre = xb @ w1 + b1
            h = np.maximum(pre, 0)
            z = h @ w2 + b2
            z -= z.max(axis=1, keepdims=True)
            p = np.exp(z)
            p /= p.sum(axis=1, keepdims=True)
            p[np.arange(len(yb)), yb] -= 1
            dz = p / len(yb)
            dh = (dz @ w2.T) * (pre > 0)
            grads = [xb.T @ dh, dh.sum(axis=0), h.T @ dz, dz.sum(axis=0)]
            step += 1
            for i, g in enumerate(grads):
                if pull:
                    g = g + pull * (params[i] - start[i])
                first[i] = 0.9 * first[i] + 0.1 * g
                second[i] = 0.999 * second[i] + 0.001 * g * g
                m = first[i] / (1 - 0.9**step)
                v = second[i] / (1 - 0.999**step)
                params[i] = (params[i] - lr * m / (np.sqrt(v) + 1e-8)).astype(np.float32)
        seen = loss(CallModel(*params), x[:50_000], y[:50_000])
        print(f"epoch {epoch + 1}: train loss {seen:.4f}")
    return CallModel(*params)


def train(
    x: Array, y: Array, seed: int, hidden: int, epochs: int, batch: int, rate: float
) -> CallModel:
    """The first stage, from weights drawn with ``seed``; the rate halves every epoch."""
    rng = np.random.default_rng(seed + 1)
    params = [
        (rng.standard_normal((FEATURES, hidden)) * np.sqrt(2 / FEATURES)).astype(np.float32),
        np.zeros(hidden, np.float32),
        (rng.standard_normal((hidden, TRICKS)) * np.sqrt(1 / hidden)).astype(np.float32),
        np.zeros(TRICKS, np.float32),
    ]
    return fit(params, x, y, rng, [rate * 0.5**epoch for epoch in range(epochs)], batch)


def expert_examples(path: Path) -> tuple[Array, Array]:
    """Features and trick counts of the deals the expert played (``bench/expert_deals.py``:
    four rows a deal, in seat order)."""
    rows = np.load(path)["rows"]
    deals = rows.reshape(-1, 4, 4)
    earlier = earlier_by_seat(deals[:, :, 2], deals[:, :, 1]).reshape(-1, EARLIER)
    return features(rows[:, 0], rows[:, 1], earlier), rows[:, 3]


def tune(model: CallModel, x: Array, y: Array, seed: int) -> CallModel:
    """The second stage: ``model`` fitted further on the deals the expert played, five
    epochs at a steady rate, pulled toward its start."""
    params = [model.w1.copy(), model.b1.copy(), model.w2.copy(), model.b2.copy()]
    return fit(params, x, y, np.random.default_rng(seed + 1), [1e-3] * 5, 256, pull=1e-3)


def tune_checked(model: CallModel, path: Path, seed: int) -> CallModel:
    """``tune`` on all the expert's deals, after the same fit on their first four fifths
    is scored on the last fifth against the first stage alone (the figures that tell
    whether the second stage learned anything the first did not know)."""
    x, y = expert_examples(path)
    print(f"tuning on {len(y)} examples of the expert's deals ({path})")
    cut = 4 * (len(y) // 4 * 4 // 5)  # whole deals, four rows each
    held = loss(model, x[cut:], y[cut:])
    fifths = loss(tune(model, x[:cut], y[:cut], seed), x[cut:], y[cut:])
    print(f"expert's last fifth: {held:.4f} nats by the first stage, {fifths:.4f} tuned")
    return tune(model, x, y, seed)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--deals", type=int, default=300_000)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--hidden", type=int, default=128)
    parser.add_argument("--epochs", type=int, default=4)
    parser.add_argument("--batch", type=int, default=512)
    parser.add_argument("--rate", type=float, default=2e-3)
    parser.add_argument("--out", type=Path, default=call_weights_path(CALL_WEIGHTS))
    parser.add_argument(
        "--tune", type=Path, help="then fit on the expert's deals (bench/expert_deals.py --out)"
    )
    args = parser.parse_args()
    started = time.perf_counter()
    x, y = examples(args.seed, args.deals)
    held = len(y) // 20
    print(f"{len(y)} examples in {time.perf_counter() - started:.1f} s")
    model = train(x[held:], y[held:], args.seed, args.hidden, args.epochs, args.batch, args.rate)
    counts = np.bincount(y[held:], minlength=TRICKS) + 1.0
    prior = float(-np.log(counts / counts.sum())[y[:held]].mean())
    held_out = loss(model, x[:held], y[:held])
    print(f"held-out loss {held_out:.4f} nats (trick counts alone: {prior:.4f})")
    if args.tune is not None:
        model = tune_checked(model, args.tune, args.seed)
    model.save(args.out)
    print(f"wrote {args.out} in {time.perf_counter() - started:.1f} s")


if __name__ == "__main__":
    main()

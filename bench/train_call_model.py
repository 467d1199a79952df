"""Retrain the expert's learned call model (``bots/learned/callmodel.npz``) from a seed.

Deals are shuffled with numpy's generator from ``--seed`` and played to the end
by the compiled heuristic at all four seats (``search.rollout``, the playouts
the expert itself runs: about 100,000 deals a second), each seat calling what
the heuristic calls; every seat's hand, its place after the leader and the
tricks it won make one example.  The network (``callmodel.CallModel``) is then
fitted by minibatch Adam on the cross-entropy of the trick count, plain numpy,
one thread.  A twentieth of the deals is held out and its loss printed.

    PYTHONPATH=src python bench/train_call_model.py --deals 300000 --seed 0

With the defaults this takes 13 to 50 s (at most 30 s of CPU) on the project's 2-core machine
(numba, a default dependency, compiles the playouts); ``--out`` writes elsewhere.
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path
from typing import Any

import numpy as np

from callbreak.bots.heuristic import estimate_tricks
from callbreak.bots.learned.callmodel import FEATURES, TRICKS, WEIGHTS, CallModel, features
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


def played(rules: Rules, hands: Array, leader: int) -> Array:
    """Tricks each seat wins when the heuristic plays every seat, calling its own call."""
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
    return won


def examples(seed: int, deals: int) -> tuple[Array, Array]:
    """Features and trick counts, four examples a deal, the leader turning per block."""
    rng = np.random.default_rng(seed)
    rules = Rules.preset("callbreak")
    xs, ys = [], []
    block = 10_000
    for start in range(0, deals, block):
        leader = (start // block) % 4
        hands = shuffled_hands(rng, min(block, deals - start))
        won = played(rules, hands, leader)
        places = (np.arange(4)[None, :] - leader) % 4
        xs.append(features(hands.reshape(-1), np.broadcast_to(places, hands.shape).reshape(-1)))
        ys.append(won.reshape(-1))
    return np.concatenate(xs), np.concatenate(ys)


def loss(model: CallModel, x: Array, y: Array) -> float:
    """Mean cross-entropy of the true counts, in nats."""
    z = model.logits(x).astype(np.float64)
    z -= z.max(axis=1, keepdims=True)
    log_p = z - np.log(np.exp(z).sum(axis=1, keepdims=True))
    return float(-log_p[np.arange(len(y)), y].mean())


def train(
    x: Array, y: Array, seed: int, hidden: int, epochs: int, batch: int, rate: float
) -> CallModel:
    """Minibatch Adam on the cross-entropy, from weights drawn with ``seed``."""
    rng = np.random.default_rng(seed + 1)
    params = [
        (rng.standard_normal((FEATURES, hidden)) * np.sqrt(2 / FEATURES)).astype(np.float32),
        np.zeros(hidden, np.float32),
        (rng.standard_normal((hidden, TRICKS)) * np.sqrt(1 / hidden)).astype(np.float32),
        np.zeros(TRICKS, np.float32),
    ]
    first = [np.zeros_like(p) for p in params]
    second = [np.zeros_like(p) for p in params]
    step = 0
    for epoch in range(epochs):
        order = rng.permutation(len(y))
        lr = rate * (0.5**epoch)
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
                first[i] = 0.9 * first[i] + 0.1 * g
                second[i] = 0.999 * second[i] + 0.001 * g * g
                m = first[i] / (1 - 0.9**step)
                v = second[i] / (1 - 0.999**step)
                params[i] = (params[i] - lr * m / (np.sqrt(v) + 1e-8)).astype(np.float32)
        seen = loss(CallModel(*params), x[:50_000], y[:50_000])
        print(f"epoch {epoch + 1}: train loss {seen:.4f}")
    return CallModel(*params)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--deals", type=int, default=300_000)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--hidden", type=int, default=64)
    parser.add_argument("--epochs", type=int, default=4)
    parser.add_argument("--batch", type=int, default=512)
    parser.add_argument("--rate", type=float, default=2e-3)
    parser.add_argument("--out", type=Path, default=WEIGHTS)
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
    model.save(args.out)
    print(f"wrote {args.out} in {time.perf_counter() - started:.1f} s")


if __name__ == "__main__":
    main()

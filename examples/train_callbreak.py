"""Train a Call Break policy by self-play in plain numpy, and plot how it beats ``random``.

A linear softmax policy over the observation vector (``callbreak.bots.encoding``)
plays all four seats of many tables at once in the batch env; after each round
of deals, REINFORCE moves it toward the actions of seats that scored above the
average (every decision of a deal is credited with that seat's points).  Every
``--eval-every`` seconds the greedy policy sits at seat 0 against three
``random`` seats on fresh deals, and its points per deal make the learning curve.

    python examples/train_callbreak.py --minutes 3 --out callbreak-rl.npz --plot curve.png
    callbreak arena --seat rl:path=callbreak-rl.npz --seat random --seat random --seat random

Needs numpy (``callbreak[rl]`` or ``[fast]``), numba for speed, matplotlib for the plot.
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path

import numpy as np
import numpy.typing as npt

from callbreak.env import BatchCallBreak
from callbreak.env.policy import LinearPolicy
from callbreak.rules import Rules

Floats = npt.NDArray[np.float32]


def sample_actions(
    policy: LinearPolicy, obs: Floats, mask: npt.NDArray[np.int8], rng: np.random.Generator
) -> npt.NDArray[np.int64]:
    """One action per row, drawn from the policy's masked softmax."""
    p = policy.probabilities(obs, mask)
    u = rng.random((len(p), 1), np.float32)
    picked = (p.cumsum(axis=1) < u).sum(axis=1)
    # Rounding may step past the last legal action: fall back to the most probable one.
    bad = mask[np.arange(len(p)), np.minimum(picked, p.shape[1] - 1)] == 0
    picked[bad] = p[bad].argmax(axis=1)
    out: npt.NDArray[np.int64] = np.minimum(picked, p.shape[1] - 1).astype(np.int64)
    return out


def evaluate(policy: LinearPolicy, rules: Rules, deals: int, seed: int) -> tuple[float, float]:
    """Mean points per deal of the greedy policy at seat 0 and of the three random seats."""
    tables = 512
    batch = BatchCallBreak(tables, rules, seed=seed)
    obs, mask = batch.reset()
    rng = np.random.default_rng(seed)
    totals = np.zeros(4)
    finished = 0
    while finished < deals:
        learner = batch.to_act == 0
        actions = np.argmax(mask * (rng.random(mask.shape, np.float32) + 1), axis=1)
        if learner.any():
            actions[learner] = np.argmax(policy.logits(obs[learner], mask[learner]), axis=1)
        obs, mask, rewards, done = batch.step(actions)
        totals += rewards[done].sum(axis=0)
        finished += int(done.sum())
    return totals[0] / finished, totals[1:].mean() / finished


class Adam:
    """Adam on the policy's two arrays (plain numpy)."""

    def __init__(self, shapes: list[tuple[int, ...]], lr: float) -> None:
        self.lr = lr
        self.m = [np.zeros(s, np.float32) for s in shapes]
        self.v = [np.zeros(s, np.float32) for s in shapes]
        self.t = 0

    def step(self, params: list[Floats], grads: list[Floats]) -> None:
        self.t += 1
        for p, g, m, v in zip(params, grads, self.m, self.v, strict=True):
            m *= 0.9
            m += 0.1 * g
            v *= 0.999
            v += 0.001 * g * g
            mhat = m / (1 - 0.9**self.t)
            vhat = v / (1 - 0.999**self.t)
            p += self.lr * mhat / (np.sqrt(vhat) + 1e-8)  # ascent: maximise the return


def train(args: argparse.Namespace) -> tuple[LinearPolicy, list[tuple[float, int, float, float]]]:
    rules = Rules.preset(args.preset)
    policy = LinearPolicy(rules)
    enc = policy.encoder
    # Small random weights: the untrained greedy policy then plays about like random
    # (all-zero weights would always call the lowest call, already a decent strategy).
    init = np.random.default_rng(args.seed)
    policy.weights[:] = init.normal(0, 0.1, policy.weights.shape)
    if True in enc.actions:  # a misdeal claim: rather play on until the policy says otherwise
        policy.bias[enc.action_index(False)] = 0.1
    adam = Adam([policy.weights.shape, policy.bias.shape], args.lr)
    n, horizon = args.tables, args.horizon
    batch = BatchCallBreak(n, rules, seed=args.seed)
    obs, mask = batch.reset()
    rng = np.random.default_rng(args.seed)
    size, actions_n = enc.size, enc.num_actions
    buf_obs = np.zeros((horizon, n, size), np.float32)
    buf_mask = np.zeros((horizon, n, actions_n), np.int8)
    buf_act = np.zeros((horizon, n), np.int64)
    buf_seat = np.zeros((horizon, n), np.int64)
    start = time.perf_counter()
    curve: list[tuple[float, int, float, float]] = []
    deals = 0
    next_eval = 0.0
    while True:
        elapsed = time.perf_counter() - start
        if elapsed >= next_eval:
            mine, theirs = evaluate(policy, rules, args.eval_deals, seed=10_000 + len(curve))
            curve.append((elapsed, deals, mine, theirs))
            print(
                f"{elapsed:7.1f}s {deals:9d} deals  "
                f"greedy vs random: {mine:+.2f} / {theirs:+.2f} per deal",
                flush=True,
            )
            next_eval = elapsed + args.eval_every
            if elapsed >= args.minutes * 60:
                return policy, curve
        # One rollout of `horizon` steps at every table; a step's return is the points its
        # seat makes in that deal (steps of a deal still unfinished at the end are dropped).
        returns = np.full((horizon, n), np.nan, np.float32)
        first = np.zeros(n, np.int64)
        for t in range(horizon):
            buf_obs[t] = obs
            buf_mask[t] = mask
            buf_seat[t] = batch.to_act
            act = sample_actions(policy, obs, mask, rng)
            buf_act[t] = act
            obs, mask, rewards, done = batch.step(act)
            for i in np.flatnonzero(done):
                span = slice(first[i], t + 1)
                returns[span, i] = rewards[i, buf_seat[span, i]]
                first[i] = t + 1
            deals += int(done.sum())
        valid = ~np.isnan(returns)
        x = buf_obs[valid]
        m = buf_mask[valid]
        a = buf_act[valid]
        r = returns[valid]
        adv = (r - r.mean()) / (r.std() + 1e-6)
        p = policy.probabilities(x, m)
        p[np.arange(len(a)), a] -= 1.0  # grad of log pi(a) w.r.t. the logits is onehot - p
        coef = (-p * adv[:, None]).astype(np.float32)
        grads = [x.T @ coef / len(a), coef.mean(axis=0)]
        adam.step([policy.weights, policy.bias], grads)


def plot(curve: list[tuple[float, int, float, float]], path: Path) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    seconds = [c[0] / 60 for c in curve]
    fig, ax = plt.subplots(figsize=(7, 4))
    ax.plot(seconds, [c[2] for c in curve], marker="o", label="learner (greedy), seat 0")
    ax.plot(seconds, [c[3] for c in curve], marker=".", label="random seats (mean)")
    ax.axhline(0, color="grey", linewidth=0.5)
    ax.set_xlabel("training time (minutes, 2 CPU cores)")
    ax.set_ylabel("points per deal")
    ax.set_title("Call Break: a linear policy by self-play (REINFORCE) against random")
    ax.legend()
    fig.tight_layout()
    fig.savefig(path, dpi=100)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--preset", default="callbreak")
    parser.add_argument("--minutes", type=float, default=3.0)
    parser.add_argument("--tables", type=int, default=256)
    parser.add_argument("--horizon", type=int, default=112, help="steps per rollout (2 deals)")
    parser.add_argument("--lr", type=float, default=0.01)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--eval-every", type=float, default=20.0, help="seconds")
    parser.add_argument("--eval-deals", type=int, default=2000)
    parser.add_argument("--out", type=Path, default=Path("callbreak-rl.npz"))
    parser.add_argument("--plot", type=Path, default=None, help="learning-curve PNG")
    args = parser.parse_args()
    policy, curve = train(args)
    policy.save(args.out)
    print(f"saved {args.out}")
    if args.plot is not None:
        plot(curve, args.plot)
        print(f"plotted {args.plot}")


if __name__ == "__main__":
    main()

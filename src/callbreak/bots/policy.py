"""A linear softmax policy over the observation vector, and the ``rl`` bot that plays it.

``examples/train_callbreak.py`` trains one by self-play and saves it with
``LinearPolicy.save``; ``make_bot("rl:path=FILE")`` loads it, so the arena, the
terminal table and the servers can seat it like any bot.  The bot sees only its
``Observation``, encoded by the same ``Encoder`` the envs use.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import numpy.typing as npt

from callbreak.bots.encoding import Encoder
from callbreak.engine import Action, Observation
from callbreak.rules import Rules

Floats = npt.NDArray[np.float32]


class LinearPolicy:
    """``logits = obs @ weights + bias`` over the game's action table; illegal actions masked."""

    def __init__(self, rules: Rules, weights: Floats | None = None, bias: Floats | None = None):
        self.rules = rules
        self.encoder = Encoder(rules)
        shape = (self.encoder.size, self.encoder.num_actions)
        self.weights = np.zeros(shape, np.float32) if weights is None else weights
        self.bias = np.zeros(shape[1], np.float32) if bias is None else bias
        if self.weights.shape != shape or self.bias.shape != (shape[1],):
            raise ValueError(f"weights for {rules.name} must have shape {shape}")

    def logits(self, obs: Floats, mask: npt.NDArray[np.int8]) -> Floats:
        """Masked logits for a batch of vectors (illegal actions at -1e9)."""
        raw = obs @ self.weights + self.bias
        return np.where(mask > 0, raw, np.float32(-1e9)).astype(np.float32)

    def probabilities(self, obs: Floats, mask: npt.NDArray[np.int8]) -> Floats:
        z = self.logits(obs, mask)
        z = z - z.max(axis=-1, keepdims=True)
        e = np.exp(z)
        out: Floats = e / e.sum(axis=-1, keepdims=True)
        return out

    def save(self, path: str | Path) -> None:
        np.savez(path, weights=self.weights, bias=self.bias, rules=np.array(self.rules.to_json()))

    @classmethod
    def load(cls, path: str | Path) -> LinearPolicy:
        with np.load(path) as data:
            rules = Rules.from_json(str(data["rules"]))
            return cls(rules, data["weights"], data["bias"])


class PolicyBot:
    """Plays a saved ``LinearPolicy``: the most probable legal action (or a sample of it,
    with ``sample=1``), from its own observation only."""

    name = "rl"

    def __init__(self, path: str, seed: int | None = None, sample: int = 0) -> None:
        if not path:
            raise ValueError("give the policy file: rl:path=FILE (see examples/train_callbreak.py)")
        self.policy = LinearPolicy.load(path)
        self.sample = bool(sample)
        self._rng = np.random.default_rng(seed)

    def act(self, observation: Observation) -> Action:
        if not observation.legal:
            raise ValueError(f"seat {observation.seat} has no legal action: it is not its turn")
        encoder = self.policy.encoder
        if observation.rules.game != encoder.game:
            raise ValueError(
                f"this policy was trained for {encoder.rules.title}, not {observation.rules.title}"
            )
        vector = encoder.encode(observation)
        mask = encoder.action_mask(observation.legal)
        if self.sample:
            p = self.policy.probabilities(vector[None], mask[None])[0]
            index = int(self._rng.choice(len(p), p=p))
        else:
            index = int(np.argmax(self.policy.logits(vector[None], mask[None])[0]))
        return encoder.action(index)

"""A linear softmax policy over the observation vector, and the ``rl`` bot that plays it.

``examples/train_callbreak.py`` trains one by self-play and saves it with
``LinearPolicy.save``; ``make_bot("rl:path=FILE")`` loads it, so the arena, the
terminal table and the servers can seat it like any bot.  The bot sees only its
``Observation``, encoded by the same ``Encoder`` the envs use.
"""

from __future__ import annotations

import zipfile
import zlib
from pathlib import Path
from typing import Any

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
    def load(cls, path: str | Path, label: str | None = None) -> LinearPolicy:
        """The policy ``save`` wrote to ``path``.

        Any file that is not one is a ``ValueError`` that says so, ``label`` (the option
        that named the file, such as ``rl:path=FILE``; else the path) first, and why in a
        few words: numpy's own errors are about numpy (a JSON file, say, is refused with
        advice to load it with ``allow_pickle``, which would run whatever the file holds).
        """
        try:
            return cls._read(Path(path))
        except _NotAPolicy as error:
            raise ValueError(
                f"{label or path} is not a policy file ({POLICY_FILE}): {error}"
            ) from None

    @classmethod
    def _read(cls, path: Path) -> LinearPolicy:
        """``load``'s work; every way the file can fail is a ``_NotAPolicy`` with the reason."""
        try:
            with path.open("rb") as file:
                head = file.read(len(_NPY_MAGIC))
        except FileNotFoundError:
            raise _NotAPolicy("there is no such file") from None
        except IsADirectoryError:
            raise _NotAPolicy("it is a folder") from None
        except OSError as error:
            raise _NotAPolicy(f"it cannot be read ({error.strerror or error})") from None
        if not head:
            raise _NotAPolicy("it is empty")
        if head.startswith(_NPY_MAGIC):
            raise _NotAPolicy(f"it is one numpy array (.npy), not the .npz of {_ARRAYS}")
        if not head.startswith(_ZIP_MAGIC):
            raise _NotAPolicy(_not_a_zip(head))
        try:
            with np.load(path, allow_pickle=False) as data:
                missing = [name for name in ("weights", "bias", "rules") if name not in data]
                if missing:
                    held = ", ".join(data.files) or "none"
                    raise _NotAPolicy(f"it holds the arrays {held}, not {_ARRAYS}")
                arrays = {name: _array(data, name) for name in ("weights", "bias", "rules")}
        except (zipfile.BadZipFile, zlib.error, EOFError, OSError) as error:
            raise _NotAPolicy(
                f"it is a damaged or truncated .npz ({type(error).__name__}: {error})"
            ) from None
        for name in ("weights", "bias"):
            if arrays[name].dtype.kind not in "fiu":
                raise _NotAPolicy(f"its {name} are {arrays[name].dtype}, not numbers")
        if arrays["rules"].dtype.kind != "U" or arrays["rules"].ndim != 0:
            raise _NotAPolicy("its rules are not the text of a game's rules")
        try:
            rules = Rules.from_json(str(arrays["rules"]))
        except (ValueError, TypeError, KeyError, AttributeError) as error:
            raise _NotAPolicy(f"its rules are not a game's rules ({error})") from None
        try:
            return cls(rules, arrays["weights"], arrays["bias"])
        except ValueError as error:
            raise _NotAPolicy(f"its arrays do not fit: {error}") from None


POLICY_FILE = (
    "a .npz that LinearPolicy.save writes, as examples/train_callbreak.py does; "
    "examples/callbreak-rl.npz is one"
)
"""What a policy file is, for every message that refuses one."""

_ARRAYS = "weights, bias and rules that LinearPolicy.save writes"
_ZIP_MAGIC = b"PK"
"""How a .npz (a zip archive) begins."""
_NPY_MAGIC = b"\x93NUMPY"
"""How a single saved numpy array (.npy) begins."""


class _NotAPolicy(Exception):
    """Why a file is not a policy, in a few words (``LinearPolicy.load`` words the rest)."""


def _not_a_zip(head: bytes) -> str:
    """Why a file that is no zip archive is no policy: text says what it looks like."""
    try:
        text = head.decode("utf-8")
    except UnicodeDecodeError:
        return "it is not a .npz archive"
    if text.lstrip()[:1] in ("{", "["):
        return "it is JSON text (a match record?), not a .npz archive"
    return "it is text, not a .npz archive"


def _array(data: Any, name: str) -> Any:
    """Array ``name`` of an open .npz; one that holds Python objects is refused as such, where
    numpy's words would suggest ``allow_pickle``."""
    try:
        return data[name]
    except ValueError:
        raise _NotAPolicy(f"its {name} hold Python objects, not numbers or text") from None


class PolicyBot:
    """Plays a saved ``LinearPolicy``: the most probable legal action (or a sample of it,
    with ``sample=1``), from its own observation only."""

    name = "rl"

    def __init__(
        self, path: str, seed: int | None = None, sample: int = 0, name: str = "rl"
    ) -> None:
        """``name``: the bot's name, as its spec gives it (``rl``, ``selfplay``), which
        messages about the file name too (``selfplay:path=FILE``)."""
        if not path:
            raise ValueError(
                f"give the policy file: {name}:path=FILE (see examples/train_callbreak.py)"
            )
        if sample not in (0, 1):
            raise ValueError(
                f"sample is a switch: 0 (the default: the most probable action) or 1 (an "
                f"action drawn by its probability), not {sample!r}"
            )
        self.name = name
        self.policy = LinearPolicy.load(path, label=f"{name}:path={path}")
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

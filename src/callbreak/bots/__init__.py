"""Bots: one small interface and a registry by name, used by every face."""

import importlib
import os
import sys
from collections.abc import Sequence
from pathlib import Path, PurePath

from callbreak.bots import base
from callbreak.bots.base import (
    Bot,
    available_bots,
    make_bot,
    parse_spec,
    refusal,
    register_bot,
    warm_up,
)
from callbreak.bots.expert import ExpertBot
from callbreak.bots.family_search import FamilySearchBot
from callbreak.bots.heuristic import HeuristicBot
from callbreak.bots.ladder import ExpertV1Bot, ExpertV2Bot
from callbreak.bots.mcts import MctsBot
from callbreak.bots.random_bot import RandomBot
from callbreak.bots.styles import AggressiveBot, CautiousBot, DuckerBot, TrumperBot


@register_bot("rl", "a policy trained by examples/train_callbreak.py: rl:path=FILE")
def _rl_bot(path: str = "", seed: int | None = None, sample: int = 0) -> Bot:
    # Imported when asked for: the policy needs numpy, which the other bots do not.
    from callbreak.bots.policy import PolicyBot

    # A file that is not there is a bad spec like any other (ValueError, which every face
    # words as its own option's fault), not a traceback from numpy's loader; so is a file
    # that is no policy (``LinearPolicy.load`` says why).
    if path and not Path(path).is_file():
        raise ValueError(
            f"no policy file at {path}: give one with rl:path=FILE "
            "(examples/train_callbreak.py trains it)"
        )
    return PolicyBot(path, seed=seed, sample=sample)


def bot_module(spec: str) -> str | None:
    """The module whose import registered the bot of ``spec``, for a process that has not
    imported it (a spawned worker, a Ray node) to import before it makes the bot; None for
    an unknown bot, one of ``callbreak``'s own (this package registers them) and one
    registered by a script (``__main__``, which no other process can import)."""
    entry = base._REGISTRY.get(parse_spec(spec)[0])
    module = None if entry is None else getattr(entry[0], "__module__", None)
    if not isinstance(module, str) or module == "__main__" or module.startswith("callbreak."):
        return None
    return module


def import_bots(modules: Sequence[str]) -> None:
    """Import ``modules`` for the bots they register (``--import MODULE``), the current
    directory first on the path as for ``python -m``, so ``--import mybot`` finds
    ``./mybot.py``; a module that fails is a ``ValueError`` naming it."""
    if modules and "" not in sys.path and os.getcwd() not in sys.path:
        sys.path.insert(0, os.getcwd())
    for module in modules:
        try:
            importlib.import_module(module)
        except Exception as error:
            raise ValueError(
                f"cannot import {module!r} for its bots: {type(error).__name__}: {error}"
                f"{_module_hint(module)}"
            ) from None


def _module_hint(module: str) -> str:
    """What to write instead when ``module`` is a file's name or path (``mybot.py``,
    ``bots/mybot.py``), which Python's own message ("'mybot' is not a package") leaves
    the reader to work out; empty for a module's name."""
    path = PurePath(module.replace("\\", "/"))
    if path.suffix != ".py" and len(path.parts) < 2:
        return ""
    parts = [part for part in path.with_suffix("").parts if part not in ("/", ".")]
    if path.is_absolute() or ".." in parts:
        # Only a path below the current directory names a module from it.
        return f" (give the module's name, not its file: --import {path.stem}, run from its folder)"
    return f" (give the module's name, not its file: --import {'.'.join(parts)})"


__all__ = [
    "AggressiveBot",
    "Bot",
    "CautiousBot",
    "DuckerBot",
    "ExpertBot",
    "ExpertV1Bot",
    "ExpertV2Bot",
    "FamilySearchBot",
    "HeuristicBot",
    "MctsBot",
    "RandomBot",
    "TrumperBot",
    "available_bots",
    "bot_module",
    "import_bots",
    "make_bot",
    "refusal",
    "register_bot",
    "warm_up",
]

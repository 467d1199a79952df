"""The arena: duplicate deals with the seats rotated, statistics, ratings and reports.

Strength is measured, never claimed (docs/design.md): every deal set is played once
per rotation of the lineup, so each bot holds every hand from every seat and
the luck of the cards cancels.  The layers: ``play`` (deal sets and games),
``runner`` (inline, process pool or Ray), ``summary`` (per-bot figures and
openskill ratings), ``report`` (HTML and plots), ``stats`` (means, intervals,
percentiles).  openskill and matplotlib are imported only when a run needs them.

>>> from callbreak import Rules
>>> config = ArenaConfig(Rules.preset("callbreak"), lineup(["random"], 4), deals=2, seed=1)
>>> summary = summarize(run_arena(config, workers=1))
>>> [bot.spec for bot in summary.bots], summary.bots[0].games
(['random'], 32)
"""

from callbreak.arena.errors import ArenaError
from callbreak.arena.play import ArenaConfig, lineup, single_deal_rules
from callbreak.arena.runner import RAY_MISSING, ArenaRun, run_arena
from callbreak.arena.summary import ArenaSummary, BotStats, CalibrationRow, summarize

__all__ = [
    "RAY_MISSING",
    "ArenaConfig",
    "ArenaError",
    "ArenaRun",
    "ArenaSummary",
    "BotStats",
    "CalibrationRow",
    "lineup",
    "run_arena",
    "single_deal_rules",
    "summarize",
]

"""The ladder: each accepted expert frozen as a bot of its own, so a new one is measured
against the best that came before it, not only against weaker styles.

``expert-v1`` is the expert as it stood on 2026-11-25 (``expert_config.V1``, every
option written out), ``expert-v2`` the one of 2026-11-29 (``V2``: the learned forecast in
its calls, from the weights of that day): the ``expert`` bot's defaults may move with each
accepted change, the ladder's bots do not.  The arena's ``ladder`` pool
(``arena.pool.POOLS``) lists them; docs/arena.md says how to measure a candidate against it.
"""

from __future__ import annotations

from callbreak.bots.base import register_bot
from callbreak.bots.expert import ExpertBot

LADDER: tuple[str, ...] = ("expert-v1", "expert-v2")
"""The frozen experts, oldest first; an accepted expert adds its ``expert-vN`` here."""


@register_bot("expert-v1", "the expert of 2026-11-25, frozen for the ladder (options as expert)")
class ExpertV1Bot(ExpertBot):
    """``ExpertBot`` from the pinned ``v1`` preset (its options can still be given, as
    ``expert-v1:budget_ms=50``, for a faster table)."""

    name = "expert-v1"
    preset = "v1"


@register_bot("expert-v2", "the expert of 2026-11-29, frozen for the ladder (options as expert)")
class ExpertV2Bot(ExpertBot):
    """``ExpertBot`` from the pinned ``v2`` preset (its options can still be given)."""

    name = "expert-v2"
    preset = "v2"

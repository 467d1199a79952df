"""Opponents of clearly different styles, for an arena pool (``callbreak arena --pool``).

A bot tuned against three copies of one opponent learns that opponent, not
the game.  These are the other players of the pool: each is the heuristic
(``heuristic.HeuristicBot``) with a few of its decisions changed by a
parameter or an override, so they share its card tracking and differ only
where their style does.

* ``cautious`` calls ``under`` tricks below the hand's estimate (1 by
  default), then plays like the heuristic: it makes its call often and ducks
  the rest.
* ``aggressive`` calls ``over`` tricks above the estimate (1) and, with
  ``greedy=1``, keeps taking tricks after its call is made: overtricks, and
  every trick it takes is one a rival needed.
* ``ducker`` sandbags: calls half a trick under the heuristic (``under=0.5``)
  and plays low.  While it still needs tricks it wins only with a card that is
  sure to hold (or as the last to play) and otherwise plays its lowest card;
  it leads its lowest side card unless it holds a safe winner; once its call
  is made it ducks and sheds like the heuristic, avoiding overtricks.
* ``trumper`` plays trumps early: it leads trump while the others may still
  hold any (its top trump when that is the boss, else its lowest), and ruffs
  whenever it is void in the led suit and a trump of its own would win the
  trick, whether or not it needs the trick.  It calls like the heuristic.
* ``expert-plain`` is the expert with its assumptions about the others off:
  worlds weighed only by the hard facts and the calls (``surprise=1``), no
  ``call_bias``, the others played out as the heuristic exactly (``models=1``),
  fixed world counts (``deterministic=1``, so it is reproducible and about as
  fast on a loaded machine as on a quiet one).
  Every expert option can still be given (``expert-plain:worlds=96``).
* ``selfplay`` is the policy trained by self-play (the ``rl`` bot) with the
  example policy ``examples/callbreak-rl.npz`` by default, so a pool can name
  it; ``selfplay:path=FILE`` seats another.
* ``mcts`` (``bots.mcts``) is the one member that shares nothing with the
  heuristic: a determinized UCT search with random playouts and calls by a
  card count, the way public tournament bots are built.

The styles are written for the Call Break rules (the game ``callbreak``:
``callbreak``, ``callbreak-bhoos``, and the presets built on the same deal
such as Call Bridge).  In the other games of the family every style falls
back to the heuristic's policy for that game, its play unchanged; only the
callers' margin carries over into the bids there (``cautious`` and the
``ducker`` bid lower, ``aggressive`` higher, as the heuristic's ``caution``
does).  ``expert-plain`` plays the heuristic where the expert's search does
not go.
"""

from __future__ import annotations

from pathlib import Path

from callbreak.bots.base import CALLS, Bot, check_number, register_bot
from callbreak.bots.expert import ExpertBot
from callbreak.bots.heuristic import HeuristicBot
from callbreak.bots.knowledge import Knowledge
from callbreak.cards import RANK_COUNT, SUIT_MASKS
from callbreak.engine import Action, Observation
from callbreak.engine.tricks import beats

_HEURISTIC_CAUTION = 0.25
"""The heuristic's own rounding margin: its call is ``round(estimate - 0.25)``."""

SELFPLAY_POLICY = Path(__file__).resolve().parents[3] / "examples" / "callbreak-rl.npz"
"""The self-play policy that ``selfplay`` seats unless given ``path=`` (a source checkout's)."""


def _suit(card: int) -> int:
    return card // RANK_COUNT


def _rank(card: int) -> int:
    return card % RANK_COUNT


def _lowest(k: Knowledge, cards: list[int]) -> int:
    """The cheapest card to give up: side cards before trumps, then the lowest rank,
    then from the shortest suit."""
    return min(
        cards,
        key=lambda c: (_suit(c) == k.trump, _rank(c), (k.hand & SUIT_MASKS[_suit(c)]).bit_count()),
    )


MARGIN = "is tricks off the estimate: a finite number"
"""A style's ``under`` or ``over``, refused under its own name: passed on as the heuristic's
``caution``, it would be refused as an option the spec never gave.  Any finite margin has a
meaning (``cautious:under=-1`` calls a trick over)."""


class StyleBot(HeuristicBot):
    """The heuristic with some Call Break decisions changed by a subclass; in the other
    games of the family, the heuristic's own policy with this bot's ``caution``."""

    def __init__(
        self, seed: int | None = None, caution: float = _HEURISTIC_CAUTION, blunder: float = 0.0
    ) -> None:
        super().__init__(seed=seed, caution=caution, blunder=blunder)
        self._family = HeuristicBot(seed=seed, caution=caution, blunder=blunder)

    def act(self, observation: Observation) -> Action:
        if observation.rules.shape.policy != CALLS:
            return self._family.act(observation)
        return super().act(observation)


@register_bot("cautious", "style: calls about a trick under its hand's estimate (under=1)")
class CautiousBot(StyleBot):
    """Under-calls by ``under`` tricks, then plays as the heuristic does."""

    name = "cautious"

    def __init__(self, seed: int | None = None, under: float = 1.0, blunder: float = 0.0) -> None:
        check_number("under", under, MARGIN)
        super().__init__(seed=seed, caution=_HEURISTIC_CAUTION + under, blunder=blunder)


@register_bot(
    "aggressive", "style: calls about a trick over its estimate (over=1), takes overtricks"
)
class AggressiveBot(StyleBot):
    """Over-calls by ``over`` tricks; with ``greedy`` it never stops taking tricks."""

    name = "aggressive"

    def __init__(
        self, seed: int | None = None, over: float = 1.0, greedy: int = 1, blunder: float = 0.0
    ) -> None:
        check_number("over", over, MARGIN)
        if greedy not in (0, 1):
            raise ValueError(
                f"greedy is a switch: 1 (the default: it keeps taking tricks once its call "
                f"is made) or 0 (it ducks then, as the heuristic does), not {greedy!r}"
            )
        super().__init__(seed=seed, caution=_HEURISTIC_CAUTION - over, blunder=blunder)
        self.greedy = bool(greedy)

    def _lead(self, k: Knowledge, legal: list[int], need: int) -> int:
        return super()._lead(k, legal, max(need, 1) if self.greedy else need)

    def _follow(self, k: Knowledge, legal: list[int], need: int) -> int:
        return super()._follow(k, legal, max(need, 1) if self.greedy else need)


@register_bot("ducker", "style: sandbags: calls low (under=0.5), wins only sure tricks, plays low")
class DuckerBot(StyleBot):
    """Calls ``under`` tricks below the estimate and plays low (see the module's docstring)."""

    name = "ducker"

    def __init__(self, seed: int | None = None, under: float = 0.5, blunder: float = 0.0) -> None:
        check_number("under", under, MARGIN)
        super().__init__(seed=seed, caution=_HEURISTIC_CAUTION + under, blunder=blunder)

    def _lead(self, k: Knowledge, legal: list[int], need: int) -> int:
        if need <= 0:
            return super()._lead(k, legal, need)
        safe = [
            c
            for c in legal
            if k.is_boss(c) and (_suit(c) == k.trump or self._safe_from_ruff(k, _suit(c)))
        ]
        if safe:
            return max(safe, key=lambda c: (_suit(c) != k.trump, c))
        side = [c for c in legal if _suit(c) != k.trump]
        return _lowest(k, side or legal)

    def _follow(self, k: Knowledge, legal: list[int], need: int) -> int:
        if need <= 0:
            return super()._follow(k, legal, need)
        later = k.seats_after_me()
        sure = [c for c in legal if beats(c, k.win, k.trump) and (not later or k.holds(c, later))]
        if sure:
            return min(sure, key=lambda c: (_suit(c) == k.trump, c))
        return _lowest(k, legal)


@register_bot("trumper", "style: leads trump while the others hold any, ruffs whenever it can")
class TrumperBot(StyleBot):
    """Draws trumps early and ruffs every trick it can (see the module's docstring)."""

    name = "trumper"

    def _lead(self, k: Knowledge, legal: list[int], need: int) -> int:
        trumps = [c for c in legal if _suit(c) == k.trump]
        if trumps and k.unseen & SUIT_MASKS[k.trump]:
            bosses = [c for c in trumps if k.is_boss(c)]
            return max(bosses) if bosses else min(trumps)
        return super()._lead(k, legal, need)

    def _follow(self, k: Knowledge, legal: list[int], need: int) -> int:
        if k.trump >= 0 and k.led != k.trump and not k.hand & SUIT_MASKS[k.led]:
            ruffs = [c for c in legal if _suit(c) == k.trump and beats(c, k.win, k.trump)]
            if ruffs:
                return min(ruffs)
        return super()._follow(k, legal, need)


@register_bot(
    "expert-plain",
    "the expert without its model of the others: surprise=1, call_bias=0, fixed world counts",
)
class PlainExpertBot(ExpertBot):
    """``ExpertBot`` with other defaults (every option can still be given); the heuristic
    plays the games the expert's search does not know."""

    name = "expert-plain"
    preset = "plain"

    def act(self, observation: Observation) -> Action:
        if observation.rules.shape.policy != CALLS:
            return self._heuristic.act(observation)
        return super().act(observation)


@register_bot("selfplay", "the policy trained by self-play (rl) with the example policy: path=FILE")
def _selfplay(path: str = "", seed: int | None = None, sample: int = 0) -> Bot:
    # Imported when asked for: the policy needs numpy, which the other bots do not.
    from callbreak.bots.policy import PolicyBot

    policy = Path(path) if path else SELFPLAY_POLICY
    if not policy.is_file():
        raise ValueError(
            f"no self-play policy at {policy} (a source checkout has the example one): "
            "give one with selfplay:path=FILE (examples/train_callbreak.py trains it)"
        )
    return PolicyBot(str(policy), seed=seed, sample=sample, name="selfplay")

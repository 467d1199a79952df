"""An outside style for the pool: determinized UCT with random playouts, calls by counting.

Every other member of the arena's pool is the heuristic with some decisions
changed, or the expert (which plays the heuristic in its playouts), or a
policy trained against them: all of them judge cards the heuristic's way.
The bot that first beat the expert at a real table was none of these (a 2022
Bhoos tournament entry: determinized Monte Carlo tree search, about 95 ms a
decision), so the pool needs a player built the way such bots are built and
sharing nothing with ours:

* **Cards**: ``worlds`` deals of the unseen cards drawn from the hard facts
  alone (cards seen, voids shown; no weighting by calls or by play), in each
  a UCT tree of ``iterations`` random playouts over the open-handed game
  (``search.uct``), every seat choosing for itself; the card with the most
  root visits over all worlds is played.
* **Calls**: a count that card players learn first, not the heuristic's
  estimate: each side ace a trick (half in a suit of six or more), a side
  king a trick when the ace is with it or the suit has two or three cards
  (half otherwise, none alone), spade ace, king and queen a trick each when
  guarded by as many spades below them, every spade past the third a trick,
  and a ruff for each side suit missing or single while spades are spare;
  rounded half up, plus ``margin``.

Fixed counts (not a clock) keep a game reproducible and the bot as strong on
a loaded machine as on a quiet one: at the defaults (16 worlds of 300
playouts) a card takes about 10 ms compiled.  Games other than Call Break,
and phases other than calls and cards (a misdeal claim), are the heuristic's.
"""

from __future__ import annotations

import random
from typing import Any

from callbreak.bots.base import RIVALRY, check_number, register_bot
from callbreak.bots.expert import compiled_search_plays
from callbreak.bots.heuristic import HeuristicBot
from callbreak.cards import CARD_NAMES, RANK_COUNT, SUIT_MASKS, parse_card
from callbreak.engine import Action, Observation
from callbreak.engine.kernel import points_table

_ACE, _KING, _QUEEN = 12, 11, 10
"""Ranks within a suit (2 is 0)."""


def count_tricks(hand: int, trump: int) -> float:
    """The counting rule above, for a hand (bit mask) with ``trump`` the trump suit (-1: none).

    >>> from callbreak.cards import parse_hand
    >>> count_tricks(parse_hand("AS KS QS 5S 2S AH KH AD 7D 4C 3C 2C 9H"), 0)
    8.0
    """
    total = 0.0
    trumps = (hand & SUIT_MASKS[trump]).bit_count() if trump >= 0 else 0
    honours = 0
    if trump >= 0:
        held = hand & SUIT_MASKS[trump]
        base = trump * RANK_COUNT
        for guard, rank in enumerate((_ACE, _KING, _QUEEN)):
            if held >> (base + rank) & 1 and trumps > guard:
                honours += 1
        total += honours + max(0, trumps - 3)
    spare = trumps - max(honours, min(trumps, 3))
    for suit in range(4):
        if suit == trump:
            continue
        held = hand & SUIT_MASKS[suit]
        length = held.bit_count()
        base = suit * RANK_COUNT
        ace = held >> (base + _ACE) & 1
        king = held >> (base + _KING) & 1
        if ace:
            total += 1.0 if length < 6 else 0.5
        if king and length >= 2:
            total += 1.0 if ace or length <= 3 else 0.5
        if length <= 1 and spare > 0:
            total += 1.0 if length == 0 else 0.5
            spare -= 1
    return total


@register_bot("mcts", "outside style: determinized UCT, random playouts, calls by counting")
class MctsBot:
    name = "mcts"

    def __init__(
        self,
        seed: int | None = None,
        worlds: int = 16,
        iterations: int = 300,
        explore: float = 2.0,
        rivalry: float = 0.0,
        margin: float = 0.0,
    ) -> None:
        if not (worlds >= 1 and iterations >= 1):
            raise ValueError(
                "worlds and iterations are whole numbers, at least 1, "
                f"not worlds={worlds!r}, iterations={iterations!r} (16 and 300 by default)"
            )
        check_number(
            "explore",
            explore,
            "is the UCT constant, in points: more than 0 (2 by default)",
            above=0,
        )
        check_number("rivalry", rivalry, RIVALRY, least=0)
        # A negative margin is meaningful (calls a trick lower, as the heuristic's caution
        # does), so only a margin that is no number is refused: nan would fail at the call.
        check_number("margin", margin, "is tricks added to the count: a finite number")
        self.worlds = worlds
        self.iterations = iterations
        self.explore = float(explore)
        """UCT's exploration constant, in points (rewards are points, about -5 to +5)."""
        self.rivalry = float(rivalry)
        """Weight of the others' mean points in a seat's reward (0: its own points only)."""
        self.margin = float(margin)
        """Tricks added to the count before it is rounded into a call."""
        self._rng = random.Random(seed)
        self._heuristic = HeuristicBot(seed=seed)
        self._tree: Any = None
        self._uct: Any = None

    def warm_up(self) -> None:
        """Build (or load) the compiled search now, off any decision's clock."""
        self._search()

    def act(self, observation: Observation) -> Action:
        # Its trees are the compiled Call Break deal's: Oh Hell's changing hands and Spades'
        # sides are not (it failed there with "hands do not fit the trick").
        if not compiled_search_plays(observation.rules):
            return self._heuristic.act(observation)
        if observation.phase == "call":
            return self.call(observation)
        if observation.phase == "play":
            return CARD_NAMES[self.play(observation)]
        return self._heuristic.act(observation)

    def call(self, observation: Observation) -> int:
        rules = observation.rules
        count = count_tricks(observation.hand_mask, rules.trump_suit) + self.margin
        return max(rules.min_call, min(rules.max_call, int(count + 0.5)))

    def play(self, observation: Observation) -> int:
        import numpy

        from callbreak.bots.search import uct
        from callbreak.bots.search.sampler import WorldSampler

        legal = [parse_card(c) for c in observation.legal]
        if len(legal) == 1:
            return legal[0]
        search = self._search()
        sampler = WorldSampler(observation, sigma=None)
        hands, _ = sampler.draw_arrays(self.worlds, self._rng)
        world = sampler.template
        root = uct.root_state(world)
        calls = numpy.array([c or 0 for c in observation.calls], numpy.int64)
        visits = numpy.zeros(64, numpy.int64)
        search.search(
            world.rules,
            hands,
            root,
            calls,
            points_table(observation.rules),
            self.rivalry,
            self.iterations,
            self.explore,
            self._rng.randrange(1 << 31),
            *self._tree.arrays(),
            visits,
        )
        return max(legal, key=lambda c: (int(visits[c]), -c))

    def _search(self) -> Any:
        from callbreak.bots.search import uct
        from callbreak.bots.search.solver import numba_available

        if self._uct is None:
            self._uct = uct.compiled() if numba_available() else uct.interpreted()
            self._tree = uct.Tree.of(self.iterations)
        return self._uct

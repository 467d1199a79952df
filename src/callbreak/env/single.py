"""A Gymnasium env for one learner against registered bots (``callbreak.bots.make_bot``).

The learner sits at ``seat``; the other seats are played by bots built from
specs such as ``"heuristic"`` or ``"random"``, which receive their own seat's
``Observation`` like any bot at any table.  An episode is one deal (or one match
with ``reward="match"``); the reward is the learner's points as each deal ends,
sign-flipped in the countdown games as in the AEC env (higher is better).
Between the learner's decisions the bots play on, so every ``step`` returns the
learner's next decision point.  A deal in which the learner has nothing to decide
(Donut's dealer when everyone else drops) is dealt again at ``reset``; once the
learner has sat out or dropped, its next ``step`` runs the deal to its end.  In a
Snarples match the episode ends when the learner's seat goes out of the game.  With
``reward="match"`` a deal the bots play to its end before the learner's first decision
(Horsethief's last seat in, everyone else having dropped) is still the learner's: its
points come with the reward of its first action taken, so an episode's rewards add up to the change
in the learner's match total.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, SupportsIndex

import gymnasium
import numpy as np

from callbreak.bots import Bot, make_bot, refusal
from callbreak.engine.phases import whole_number
from callbreak.env.aec import (
    CallBreakEnv,
    ObsDict,
    checked_options,
    checked_seed,
    render_text,
)
from callbreak.rules import Rules


class SingleSeat(gymnasium.Env[ObsDict, np.int64]):
    """One seat learning, the others played by bots; observation and action as the AEC env.

    ``players`` sets the seat count where the game allows it, as in ``CallBreakEnv``.
    ``opponents`` is one bot spec for every other seat or one per other seat in seat
    order.  An action outside the mask is refused: with ``illegal="penalty"`` (the
    default, which Gymnasium's checker needs) the state stays as it was and the step
    pays ``illegal_penalty``; with ``illegal="raise"`` it raises ``IllegalAction``.
    ``reset(seed=...)`` reseeds the deal and the bots, so a seed and a list of
    actions reproduce an episode exactly.
    """

    metadata: dict[str, Any] = {"render_modes": ["ansi"], "render_fps": 4}  # noqa: RUF012

    def __init__(
        self,
        preset: str | None = None,
        *,
        opponents: str | Sequence[str] = "heuristic",
        seat: SupportsIndex = 0,
        rules: Rules | None = None,
        players: SupportsIndex | None = None,
        reward: str = "deal",
        illegal: str = "penalty",
        illegal_penalty: float = -1.0,
        render_mode: str | None = None,
    ) -> None:
        if illegal not in ("penalty", "raise"):
            raise ValueError(f"illegal={illegal!r}: choose penalty or raise")
        self.illegal = illegal
        self.illegal_penalty = illegal_penalty
        self.aec = CallBreakEnv(
            preset, rules=rules, players=players, reward=reward, render_mode=render_mode
        )
        n = self.aec.rules.players
        index = whole_number(seat)  # an int or a numpy integer; not 1.0, not "1", not True
        if index is None or not 0 <= index < n:
            raise ValueError(f"seat must be from 0 to {n - 1}, not {seat!r}")
        others = [s for s in range(n) if s != index]
        specs = [opponents] * len(others) if isinstance(opponents, str) else list(opponents)
        if len(specs) != len(others):
            raise ValueError(f"give one opponent spec, or {len(others)} (one per other seat)")
        rules_in_force = self.aec.rules
        for spec in specs:
            # An unknown name, bad options or a bot that cannot play this game (a policy
            # trained on Call Break, seated in Spades) fail here, not in the middle of a reset.
            why = refusal(spec, rules_in_force)
            if why is not None:
                raise ValueError(f"opponent {spec!r} cannot play {rules_in_force.title}: {why}")
        self.seat = index
        self.agent = self.aec.possible_agents[index]
        self.specs = dict(zip(others, specs, strict=True))
        self.bots: dict[int, Bot] = {}
        self._carried = 0.0
        """The learner's reward earned before its first decision (the bots played a whole
        deal of the match at ``reset``), paid with the first step: Gymnasium's ``reset``
        returns no reward, and dropping it would leave the episode's return short."""
        self.render_mode = render_mode
        self.observation_space = self.aec.observation_space(self.agent)
        self.action_space = self.aec.action_space(self.agent)

    def reset(
        self, *, seed: SupportsIndex | None = None, options: dict[str, Any] | None = None
    ) -> tuple[ObsDict, dict[str, Any]]:
        # Checked before the seed moves the generator: a refused reset changes nothing.
        options = checked_options(options)
        # Gymnasium's own seeding refuses a numpy integer, and takes True as 1.
        super().reset(seed=None if seed is None else checked_seed(seed))
        rng = self.np_random
        while True:
            self.aec.reset(seed=int(rng.integers(2**62)), options=options)
            self.bots = {
                s: make_bot(spec, seed=int(rng.integers(2**62))) for s, spec in self.specs.items()
            }
            self._carried = self._bots_play()
            if not self._over():
                return self.aec.observe(self.agent), {}
            if options:
                raise ValueError("the given deal ends before the learner's first decision")

    def step(self, action: np.int64 | int) -> tuple[ObsDict, float, bool, bool, dict[str, Any]]:
        aec = self.aec
        if aec.deal is None:
            raise RuntimeError("there is no episode to act in: call reset() first")
        if self._over():
            raise RuntimeError("the episode is over: call reset()")
        if aec.agent_selection != self.agent:
            raise RuntimeError("not the learner's turn (the bots should have played on)")
        index = aec.encoder.checked(action)
        if not aec.encoder.action_mask(aec.observation_of(self.agent).legal)[index]:
            if self.illegal == "raise":
                aec.step(index)  # raises IllegalAction, naming the rule
            # Refused: nothing changes, the learner is asked again and pays the penalty.
            obs = aec.observe(self.agent)
            return obs, self.illegal_penalty, False, False, {"illegal": True}
        aec.step(index)
        reward = self._carried + float(aec.rewards[self.agent]) + self._bots_play()
        self._carried = 0.0
        return aec.observe(self.agent), reward, self._over(), False, {}

    def render(self) -> str | None:
        if self.render_mode is None:
            return None
        return render_text(self.aec)

    # ------------------------------------------------------------ internals
    def _over(self) -> bool:
        return self.aec.terminations.get(self.agent, True)

    def _bots_play(self) -> float:
        """Let the bots act until the learner's turn or the end; the learner's reward meanwhile."""
        aec = self.aec
        reward = 0.0
        while not self._over() and aec.agent_selection != self.agent:
            agent = aec.agent_selection
            if aec.terminations[agent]:  # a seat out of the game takes its dead step
                aec.step(None)
                continue
            seat = aec.agent_name_mapping[agent]
            action = self.bots[seat].act(aec.observation_of(agent))
            aec.step(aec.encoder.action_index(action))
            reward += float(aec.rewards[self.agent])
        return reward

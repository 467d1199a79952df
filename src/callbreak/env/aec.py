"""The PettingZoo AEC environment: one deal (or one match) of any preset, seat by seat.

Agents are ``player_0`` .. ``player_{n-1}``, one per seat: four, or as many as
``players=`` asks where the game allows it (Snarples 3 to 8, Donut 4 to 6,
Horsethief 3 to 5, Oh Hell and Judgement 3 to 7): ``env("snarples", players=8)``, the same as
``env("snarples", rules=Rules.preset("snarples").replace(players=8))``.
``observe(agent)`` encodes that seat's ``Observation`` (``callbreak.bots.encoding``
documents the vector); nothing else about the deal reaches an agent.  In the four-seat
call games the calls and tricks run on the batch env's compiled kernel instead
(``fast``), which writes the very same vectors from that seat's hand and the public
play, about seven times faster (``bench/env.py``).

The reward of a seat is the deal's points when the deal ends (``reward="deal"``,
the default; one episode is one deal) or each deal's points as it ends
(``reward="match"``; one episode is a whole match, and the rewards add up to the
change in the match totals).  In the countdown games (Snarples, Donut: the lowest
score wins) the reward is the points with the sign flipped, so that for every
game a higher reward is better: ``reward_sign`` is -1 there and 1 elsewhere, and
OpenSpiel's returns (``callbreak.env.spiel``) follow the same rule.  In Spades both
partners carry their side's points, so a seat's reward is its side's.  Where the hand
size changes deal by deal (Oh Hell, Judgement), a lone deal is a deal of the match's
schedule, drawn by the seed or named by ``reset(options={"deal": k})``.

The agent lifecycle: every agent stays in ``agents`` until its episode ends.  A
seat whose turn is skipped (it sat out or dropped, or is never asked) is simply
not selected; it terminates with the others when the deal ends, its reward (a
sit-out can cost a point) coming with theirs.  In a Snarples match a seat that
goes out of the game (33 or more) terminates right after that deal: it is
selected once for PettingZoo's dead step (``step(None)``) and leaves ``agents``.
"""

from __future__ import annotations

import random
from typing import Any, SupportsIndex

import gymnasium
import numpy as np
from pettingzoo import AECEnv

from callbreak.bots.encoding import Encoder, Mask, Vector
from callbreak.engine import Action, Deal, Match, Observation, observe_public
from callbreak.engine.games import Context
from callbreak.engine.match import opening_context, scheduled_size
from callbreak.engine.phases import whole_number
from callbreak.env.batch import LIVE, KernelTable, compiled_kernels
from callbreak.rules import Rules

ENV_PRESETS: tuple[str, ...] = tuple(Rules.presets())
"""The presets the env serves: every preset of the engine."""

ObsDict = dict[str, Any]

RESET_OPTIONS: tuple[str, ...] = ("deal", "dealer", "deck", "hands")
"""The keys ``reset(options=...)`` reads (``SingleSeat`` passes its options on here)."""

_PASSED_BY_TESTS = "options"
"""The one other key taken, and ignored: PettingZoo's ``api_test`` and ``parallel_test``
reset with ``options={"options": 1}`` only to see that ``reset`` takes the keyword."""

ActionIndex = int | np.integer[Any] | float
"""What ``step`` and ``action_of`` take as an action index: a whole number inside the action
space, as a Python int, a numpy integer or a whole float (``Encoder.checked``)."""


class CallBreakEnv(AECEnv):  # type: ignore[misc]
    """A PettingZoo AEC env for one preset (any game of the family the engine runs).

    ``players`` sets the seat count where the game allows it (``rules`` may set it
    too; ``players`` then overrides it).  ``reset(seed=...)`` reproduces the deal (the
    dealer and the shuffle come from the seed); ``reset(options={"hands": [...]} or
    {"deck": [...]}, "dealer": d)`` plays a known deal instead (deal mode; the games that
    deal a nest, a stock or an upcard take the whole ``deck``).  An illegal action raises
    ``IllegalAction`` naming the rule, and changes nothing.

    ``fast`` (the default where it applies): the four-seat call games (Call Break, Call
    Bridge, Batak Koz Maça) play each deal's calls and tricks on the batch env's compiled
    kernel, with the very same vectors, masks and rewards, about seven times faster; the deal
    (its seed, any misdeal claim) starts on the engine, and ``deal`` catches up with the
    kernel whenever it is read (in a match, the match also catches up at the end of each
    deal, to book it).  It needs numba (a default dependency); ``fast=False`` keeps every
    step on the engine.
    """

    metadata: dict[str, Any] = {  # noqa: RUF012 (PettingZoo's own name; copied per instance)
        "render_modes": ["ansi"],
        "name": "callbreak_v0",
        "is_parallelizable": False,
        "render_fps": 4,
    }

    def __init__(
        self,
        preset: str | None = None,
        *,
        rules: Rules | None = None,
        players: SupportsIndex | None = None,
        reward: str = "deal",
        render_mode: str | None = None,
        fast: bool = True,
    ) -> None:
        super().__init__()
        if reward not in ("deal", "match"):
            raise ValueError(f"reward={reward!r}: choose deal or match")
        if render_mode not in (None, "ansi"):
            raise ValueError(f"render_mode={render_mode!r}: only 'ansi' is supported")
        if rules is not None and preset is not None and rules.name != preset:
            raise ValueError(
                f"the rules given are {rules.name}'s, not {preset}'s: give the preset or the "
                "rules (rules=Rules.preset(...).replace(...) for a variant)"
            )
        if rules is not None and not isinstance(rules, Rules):
            raise TypeError(
                f"rules={rules!r}: rules= takes a callbreak.Rules, such as "
                "Rules.preset('callbreak').replace(max_call=8); a preset is named by its "
                "own argument: env('callbreak')"
            )
        if preset is not None and not isinstance(preset, str):
            raise TypeError(
                f"preset={preset!r}: the preset is a name such as 'callbreak' (ENV_PRESETS); "
                "a Rules goes to rules="
            )
        rules = rules if rules is not None else Rules.preset(preset or "callbreak")
        if players is not None:
            count = whole_number(players)  # a numpy integer counts the seats as an int does
            if count is None:
                raise ValueError(f"players={players!r}: the seat count is a whole number")
            if count != rules.players:
                rules = rules.replace(players=count)
        self.rules = rules
        self.reward_mode = reward
        self.reward_sign = -1.0 if rules.shape.lowest_wins else 1.0
        """-1 in the countdown games (lowest score wins), so a higher reward is better."""
        self.render_mode = render_mode
        self.encoder = Encoder(self.rules)
        n = self.rules.players
        self.possible_agents = [f"player_{seat}" for seat in range(n)]
        self.agent_name_mapping = {name: seat for seat, name in enumerate(self.possible_agents)}
        self.metadata = dict(self.metadata, name=f"{self.rules.name.replace('-', '_')}_v0")
        e = self.encoder
        space = gymnasium.spaces.Dict(
            {
                "observation": gymnasium.spaces.Box(e.low, e.high, (e.size,), np.float32),
                "action_mask": gymnasium.spaces.Box(0, 1, (e.num_actions,), np.int8),
            }
        )
        self.observation_spaces = {a: space for a in self.possible_agents}
        self.action_spaces = {
            a: gymnasium.spaces.Discrete(e.num_actions) for a in self.possible_agents
        }
        self._rng = random.Random()
        self._deal: Deal | None = None
        self._match: Match | None = None
        self.agents: list[str] = []
        kernels = compiled_kernels() if fast else None
        self._table: KernelTable | None = None
        if kernels is not None and KernelTable.serves(rules):
            self._table = KernelTable(rules, self.encoder, kernels)
        self._on_table = False
        """Whether the deal in progress is on ``_table`` (from its calls to its end)."""
        self._pending: list[Action] = []
        """Actions the kernel has played that ``_deal`` has not caught up with yet."""
        self._stale_rewards = False
        """Whether ``rewards`` still hold the last deal's, to clear at the next step."""

    @property
    def fast(self) -> bool:
        """Whether deals play on the compiled kernel (see the class docstring)."""
        return self._table is not None

    @property
    def match(self) -> Match | None:
        """The match in progress with ``reward="match"`` (else None), caught up with the
        kernel as ``deal`` is: its seat to act, legal actions and totals are current."""
        if self._pending:
            self._catch_up()
        return self._match

    @property
    def deal(self) -> Deal | None:
        """The deal in progress (the engine's ``Deal``, caught up with the kernel)."""
        if self._pending:
            self._catch_up()
        return self._deal

    @deal.setter
    def deal(self, deal: Deal | None) -> None:
        self._deal, self._pending, self._on_table = deal, [], False

    def _catch_up(self) -> None:
        """Play the kernel's actions on the engine's deal (or match, which then books the
        deal's points and deals the next once the last card is in)."""
        pending, self._pending = self._pending, []
        if self._match is not None:
            for action in pending:
                self._match.act(action)
            self._deal = self._match.deal
            return
        assert self._deal is not None
        for action in pending:
            self._deal.act(action)

    # -------------------------------------------------------------- spaces
    def observation_space(self, agent: str) -> gymnasium.spaces.Space[Any]:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> gymnasium.spaces.Space[Any]:
        return self.action_spaces[agent]

    # --------------------------------------------------------------- reset
    def reset(
        self, seed: SupportsIndex | None = None, options: dict[str, Any] | None = None
    ) -> None:
        """A new deal (or match).  Known ``options``: ``hands`` or ``deck`` (a known deal),
        ``dealer``, and ``deal``: the deal of the match to play, counted from 0 (a lone deal
        of Oh Hell or Judgement is dealt, sized and trumped as that deal of the schedule; a
        match starts there).  Any other key is a ``ValueError`` that names it (``"deals"``
        for ``"deal"`` would deal at random, looking honoured), but for the ``"options"``
        that PettingZoo's own tests pass.

        ``seed`` is a whole number from 0 (a numpy integer too); ``random.Random`` alone would
        deal seed -1 as seed 1 (it seeds from the absolute value) and take 2.5, "7" or True."""
        options = checked_options(options)
        if seed is not None:
            self._rng = random.Random(checked_seed(seed))
        rng = self._rng
        dealer = self._dealer_option(options)
        if self.reward_mode == "match":
            hands, deck = options.get("hands"), options.get("deck")
            self._match = Match(
                self.rules.with_an_end(),  # an open match (Call Bridge) would never end
                seed=rng.getrandbits(63),
                dealer=dealer,
                hands=None if hands is None else [hands],
                decks=None if deck is None else [deck],
                deals_before=self._match_start(options),
            )
            self.deal = self._match.deal
        else:
            self._match = None
            self.deal = self._lone_deal(options, rng)
        self.agents = list(self.possible_agents)
        self.rewards = {a: 0.0 for a in self.agents}
        self._cumulative_rewards = {a: 0.0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        self._skip_agent_selection: str | None = None
        self._totals = self._current_totals()
        self._after_action()

    def _lone_deal(self, options: dict[str, Any], rng: random.Random) -> Deal:
        """The deal of ``reward="deal"``: known (``hands`` or ``deck``) or seeded.  Where the
        hand size changes deal by deal, it is a deal of the schedule: ``options["deal"]``,
        else (seeded) one drawn from the seed, so that every hand size comes up; a known
        deal defaults to the schedule's first."""
        rules = self.rules
        dealer = self._dealer_option(options)
        if dealer is None:
            dealer = rng.randrange(rules.players)
        known = "hands" in options or "deck" in options
        context, size = self._schedule_deal(options, known, rng)
        if known:
            return Deal(
                rules,
                options.get("hands"),
                deck=options.get("deck"),
                dealer=dealer,
                context=context,
                hand_size=size,
            )
        # A deal thrown in as dealt (misdeal=auto) is redealt by the same dealer.
        while True:
            deal = Deal(
                rules, seed=rng.getrandbits(63), dealer=dealer, context=context, hand_size=size
            )
            if not deal.over:
                return deal

    def _match_start(self, options: dict[str, Any]) -> int:
        """``options["deal"]`` with ``reward="match"``: the deal the match starts at, counted
        from 0, refused here in the option's own words (the engine's ``deals_before`` is a
        name the caller never wrote)."""
        given = options.get("deal", 0)
        number = whole_number(given)
        rules = self.rules.with_an_end()
        last = rules.match_deals - 1 if rules.match_end == "deals" else None
        if number is None or number < 0 or (last is not None and number > last):
            span = "0 or more" if last is None else f"from 0 to {last}"
            raise ValueError(
                f"deal={given!r}: the deal the match starts at, counted from 0, is a whole "
                f"number {span}"
            )
        return number

    def _dealer_option(self, options: dict[str, Any]) -> int | None:
        """``options["dealer"]`` as a seat (None: the seed draws one); anything else, such as
        the text "1", is refused here rather than failing deep in the engine."""
        dealer = options.get("dealer")
        if dealer is None:
            return None
        n = self.rules.players
        seat = whole_number(dealer)  # an int or a numpy integer
        if seat is None or not 0 <= seat < n:
            raise ValueError(f"dealer={dealer!r}: the dealer is a seat from 0 to {n - 1}")
        return seat

    def _schedule_deal(
        self, options: dict[str, Any], known: bool, rng: random.Random
    ) -> tuple[Context | None, int | None]:
        """The context and hand size of a lone deal: where the hand size changes deal by deal,
        those of the schedule's deal ``options["deal"]`` (else of a deal drawn from the seed,
        or the first for a known deal); elsewhere none, and only deal 0 is a deal to ask for,
        as OpenSpiel's ``deal`` parameter says (silently ignored, 99 would look honoured)."""
        rules = self.rules
        schedule = rules.shape.schedule
        if schedule is None:
            if "deal" in options:
                number = whole_number(options["deal"])
                if number != 0:
                    raise ValueError(
                        f"deal={options['deal']!r}: {rules.title}'s deals are all alike; only "
                        "deal 0 is "
                        "one to ask for"
                    )
            return None, None
        deals = len(schedule(rules))
        given = options.get("deal", 0 if known else rng.randrange(deals))
        number = whole_number(given)
        if number is None or not 0 <= number < deals:
            raise ValueError(f"deal={given!r}: a deal of the schedule, from 0 to {deals - 1}")
        return opening_context(rules, number), scheduled_size(rules, number)

    # ---------------------------------------------------------------- views
    def _seat_of(self, agent: str) -> int:
        """``agent``'s seat, once there is a deal: before ``reset`` (or for a name that is no
        agent) a message that says what to do, not an ``AssertionError`` or a bare
        ``KeyError``."""
        if self._deal is None:
            raise RuntimeError("there is no deal to observe: call reset() first")
        seat = self.agent_name_mapping.get(agent) if isinstance(agent, str) else None
        if seat is None:
            raise KeyError(
                f"{agent!r} is not an agent: the agents are {', '.join(self.possible_agents)}"
            )
        return seat

    def observation_of(self, agent: str) -> Observation:
        """The engine's ``Observation`` for ``agent``'s seat: what a bot at that seat gets."""
        seat = self._seat_of(agent)
        deal = self.deal  # caught up with the kernel
        if self._match is not None:
            return self._match.observation(seat)
        assert deal is not None  # _seat_of found one
        return deal.observation(seat)

    def last(self, observe: bool = True) -> tuple[Any, float, bool, bool, dict[str, Any]]:
        """PettingZoo's ``last``, but before ``reset`` or after the episode (every agent
        stepped out) a ``RuntimeError`` that says to call ``reset()``, as ``step`` says,
        where PettingZoo's own would fail on a missing attribute or a missing key.  The
        observation stays ``Any``, as PettingZoo's untyped ``last`` gave it: ``observe(agent)``'s
        dict, or None with ``observe=False``, so that ``obs["action_mask"]`` type-checks as
        every example writes it."""
        if self._deal is None:
            raise RuntimeError("there is no deal yet: call reset() first")
        if not self.agents:
            raise RuntimeError("the episode is over (every agent has stepped out): call reset()")
        result: tuple[Any, float, bool, bool, dict[str, Any]] = super().last(observe)
        return result

    def observe(self, agent: str) -> ObsDict:
        self._seat_of(agent)
        if self._on_table:
            assert self._table is not None
            on_table = self._table.observe(self.agent_name_mapping[agent])
            return {"observation": on_table[0], "action_mask": on_table[1]}
        obs = self.observation_of(agent)
        vector: Vector = self.encoder.encode(obs)
        mask: Mask = self.encoder.action_mask(obs.legal)
        return {"observation": vector, "action_mask": mask}

    def render(self) -> str | None:
        """The table as a spectator sees it (no hand), as text."""
        if self.render_mode is None:
            gymnasium.logger.warn("render() without render_mode: pass render_mode='ansi'")
            return None
        if self._deal is None:
            raise RuntimeError("there is no deal to render: call reset() first")
        return render_text(self)

    def close(self) -> None:
        """Nothing to release: the env holds only Python objects."""

    # ----------------------------------------------------------------- step
    def step(self, action: Any) -> None:
        if self._deal is None:
            raise RuntimeError("there is no deal to act in: call reset() first")
        if not self.agents:
            raise RuntimeError("the episode is over (every agent has stepped out): call reset()")
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        index = self.encoder.checked(action)
        if self._on_table:
            self._step_on_table(agent, index)
            return
        deal = self.deal
        assert deal is not None  # reset() made one
        engine_action = self.encoder.action_in(index, deal.phase)
        if self._match is not None:
            self._match.act(engine_action)
            self.deal = self._match.deal
        else:
            deal.act(engine_action)
        self._cumulative_rewards[agent] = 0.0
        self._book()

    # ------------------------------------------------------------ internals
    def _book(self) -> None:
        """The rewards of the step just taken (the change in the points booked), then on to
        the next seat to act."""
        self._clear_rewards()
        totals = self._current_totals()
        sign = self.reward_sign
        for name in self.agents:
            seat = self.agent_name_mapping[name]
            self.rewards[name] = sign * (totals[seat] - self._totals[seat]) / 10
        self._totals = totals
        self._after_action()
        self._accumulate_rewards()

    def _step_on_table(self, agent: str, index: int) -> None:
        """``step`` on the kernel.  Rewards are all 0 until the deal ends (once the last
        deal's are cleared), so only the acting agent's running reward needs clearing."""
        table = self._table
        assert table is not None
        engine_action = self.encoder.actions[index]
        if not table.act(index):
            deal = self.deal  # caught up with the kernel
            assert deal is not None
            self.encoder.action_in(index, deal.phase)  # a call's number in the play: refused
            deal.act(engine_action)  # raises IllegalAction, naming the rule
            raise AssertionError(f"the kernel refused {engine_action!r}, the engine did not")
        self._pending.append(engine_action)
        self._cumulative_rewards[agent] = 0.0
        if self._stale_rewards:
            self._clear_rewards()
            self._stale_rewards = False
        if table.end == LIVE:
            self.agent_selection = self.possible_agents[table.to_act]
            return
        if self._match is not None:
            # The match books the deal and deals the next: it takes over from here.
            self._on_table = False
            self._catch_up()
            self._book()
            return
        # A lone deal: its points straight from the kernel, without catching the engine up
        # (a replay of the whole deal, which would cost about as much as playing it here).
        self._clear_rewards()
        for name, tenths in zip(self.agents, table.points(), strict=True):
            self.rewards[name] = self.reward_sign * tenths / 10
            self.terminations[name] = True
        self.agent_selection = self.agents[0]
        self._accumulate_rewards()

    def _current_totals(self) -> list[int]:
        """Points booked so far by seat, in tenths (the deal's once over; the match's)."""
        if self._match is not None:
            return [p.tenths for p in self._match.totals]
        assert self.deal is not None
        points = self.deal.points if self.deal.over else None
        return [0] * self.rules.players if points is None else [p.tenths for p in points]

    def _after_action(self) -> None:
        if self._match is not None:
            over, seat = self._match.over, self._match.to_act
        else:
            assert self.deal is not None
            over, seat = self.deal.over, self.deal.to_act
        if over:
            for name in self.agents:
                self.terminations[name] = True
            # The dead agents step out in seat order.
            self.agent_selection = self.agents[0]
            return
        assert seat is not None
        self.agent_selection = self.possible_agents[seat]
        deal = self._deal
        fresh = (
            deal is not None and deal.phase == "call" and deal.calls.count(None) == len(deal.calls)
        )
        if self._table is not None and fresh:
            assert deal is not None
            totals = self._totals if self._match is not None else None
            self._table.load(deal.hands, deal.dealer, seat, totals)
            self._on_table = True
            # In a match the step that dealt this deal booked the last one's rewards.
            self._stale_rewards = self._match is not None
        if self._match is not None and self._match.out:
            # Out of the game (Snarples at 33 or more): these seats are done for this match.
            gone = [
                name
                for name in self.agents
                if self.agent_name_mapping[name] in self._match.out and not self.terminations[name]
            ]
            for name in gone:
                self.terminations[name] = True
            if gone:
                self._deads_step_first()

    def action_of(self, index: ActionIndex) -> Action:
        """The engine action an action index stands for.  Any index ``step`` takes (an int, a
        numpy integer such as ``np.flatnonzero`` gives, a whole float), checked the same way."""
        return self.encoder.action(self.encoder.checked(index))


def render_text(env: CallBreakEnv) -> str:
    """A few lines on the table, built from the public (spectator's) observation."""
    assert env.deal is not None
    view = observe_public(env.deal)
    lines = [f"{env.rules.title}: {view.phase}, dealer seat {view.dealer}, trump {view.trump}"]
    if env.encoder.auction:
        bids = " ".join(f"{seat}:{bid}" for seat, bid in view.bids)
        lines.append(f"bids {bids or '-'}  contract {view.contract} declarer {view.declarer}")
    elif env.encoder.bidding:
        lines.append("calls " + " ".join("-" if c is None else str(c) for c in view.calls))
    if env.encoder.five:
        facts = [f"dealt in {' '.join(map(str, view.dealt_in))}"]
        if view.upcard is not None:
            facts.append(f"upcard {view.upcard}")
        if view.dropped:
            facts.append(f"out {' '.join(map(str, view.dropped))}")
        if view.reversed_ranks:
            facts.append("ranks reversed")
        if view.exchanges:
            facts.append("exchanged " + " ".join(f"{s}:{n}" for s, n in view.exchanges))
        lines.append(", ".join(facts))
    lines.append("tricks " + " ".join(str(t) for t in view.tricks_won))
    if view.trick.cards:
        lines.append(f"trick led by seat {view.trick.leader}: {' '.join(view.trick.cards)}")
    if view.points is not None:
        lines.append("points " + " ".join(str(p) for p in view.points))
    if env.match is not None:
        lines.append("totals " + " ".join(str(p) for p in env.match.totals))
    if view.to_act is not None:
        lines.append(f"seat {view.to_act} to act")
    return "\n".join(lines)


def env(preset: str | None = None, **kwargs: Any) -> CallBreakEnv:
    """The AEC env of a preset (PettingZoo's usual ``env()`` constructor; Call Break by
    default, or the game of ``rules=``)."""
    return CallBreakEnv(preset, **kwargs)


def checked_options(options: Any) -> dict[str, Any]:
    """``reset``'s ``options`` (None: none), refused before anything is reset unless it is a
    dict of the keys ``RESET_OPTIONS`` names: a key that is misspelt would otherwise be
    ignored, and the deal dealt at random as if it were honoured."""
    if options is None:
        return {}
    if not isinstance(options, dict):
        raise ValueError(
            f"options is a dict of reset options ({', '.join(RESET_OPTIONS)}), "
            f"not {type(options).__name__}: reset(options={{'dealer': 0}})"
        )
    unknown = [key for key in options if key not in RESET_OPTIONS and key != _PASSED_BY_TESTS]
    if unknown:
        names = ", ".join(repr(key) for key in unknown)
        raise ValueError(
            f"unknown reset option {names}: the env takes {', '.join(RESET_OPTIONS)} "
            "(see docs/rl.md)"
        )
    return options


def checked_seed(seed: Any) -> int:
    """A seed as given to ``reset``: a whole number from 0 up, a Python int or a numpy
    integer (not a bool), else a ValueError saying so."""
    value = whole_number(seed)
    if value is None or value < 0:
        raise ValueError(f"seed={seed!r}: a seed is a whole number, 0 or more (or None)")
    return value

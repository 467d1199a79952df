"""Many Call Break tables stepped at once in compiled code: numpy arrays in, numpy arrays out.

``BatchCallBreak(n)`` keeps ``n`` tables of a call game (the ``callbreak`` game:
Call Break, Call Bridge, Batak Koz Maça) in arrays.  ``step(actions)`` takes one
action index per table (the same action table as ``Encoder``) for the seat to
act there, and returns for every table the observation vector and action mask
of the *next* seat to act (the same layout as ``Encoder.encode``: a test holds
the two equal), the points each seat scored if the deal ended (then the table
deals again by itself), and whether it ended.  One call steps every table; the
outputs are written in place into arrays the env owns, so nothing is allocated
per step.  ``random_actions(rng)`` draws a uniformly random legal action for
every table in the same compiled code (for random opponents, exploration, the
bench).

The play runs on the engine's own ``tricks.legal_mask`` and ``tricks.beats``,
compiled by numba like ``engine/kernel.py`` (``pip install callbreak[fast]``);
without numba the same functions run as plain Python (slowly, but the same).
``parallel=True`` spreads the tables over numba's threads (``NUMBA_NUM_THREADS``)
with the very same results: the deals are still shuffled one table after
another, in table order, from the one seeded generator.  That generator is
numba's (numpy's in plain Python) global one, which ``reset`` seeds: two envs
stepped in turn in one thread share it, so each deals otherwise than it would
alone.

What this env leaves out of the rules, because it has no yes/no actions: a
misdeal is never claimed under ``misdeal=claim`` (the ``callbreak`` preset's
default): every seat plays the hand on, as if each had declined to claim;
``misdeal=auto`` (``callbreak-bhoos``) and ``misdeal_no_spade`` redeal as the
engine does, and ``declare_voids`` is refused.  A deal voided by
``min_total_calls`` ends with no points.

The observation encodes only what the seat to act may know, from the arrays
that hold its own hand and the public play; the test against ``Encoder``
proves it is the very vector the ``Observation`` gives.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt

from callbreak.cards import RANK_COUNT, RANKS, SUIT_MASKS
from callbreak.engine import tricks
from callbreak.engine.deal import play_rules
from callbreak.engine.kernel import score_table
from callbreak.env.encoding import Encoder
from callbreak.rules import Rules

PLAYERS = 4
HAND = 13
CALL, PLAY = 0, 1

# Indices into the ``layout`` array handed to the compiled code.
(
    L_HAND,
    L_PLAYED,
    L_TRICK,
    L_LEADER,
    L_TO_ACT,
    L_DEALER,
    L_PHASE,
    L_CALLS,
    L_WON,
    L_VOIDS,
    L_PHASE_CALL,
    L_PHASE_PLAY,
    L_K1,
    L_MIN_CALL,
    L_CARD0,
    L_TRUMP,
) = range(16)


@dataclass(frozen=True)
class _Kernels:
    seed: Callable[..., Any]
    deal: Callable[..., Any]
    step: Callable[..., Any]
    encode: Callable[..., Any]
    random_actions: Callable[..., Any]
    compiled: bool


def _build(
    jit: Callable[[Any], Any],
    np_: Any,
    loop: Any = range,
    step_jit: Callable[[Any], Any] | None = None,
) -> _Kernels:
    """The kernels, each passed through ``jit``; ``step`` through ``step_jit`` (a parallel
    jit, say), running its tables with ``loop`` (``range``, or ``numba.prange``)."""
    step_jit = step_jit or jit
    play_rules_type = tricks.PlayRules
    legal_mask = jit(tricks.legal_mask)
    beats = jit(tricks.beats)

    def seed(value: int) -> None:
        np_.random.seed(value)

    def qualifies(hand: int, trump_mask: int, faces_mask: int, faces: bool) -> bool:
        if not hand & trump_mask:
            return True
        return faces and not hand & faces_mask

    qualifies = jit(qualifies)

    def deal(s: Any, i: int, redeal: Any) -> None:
        """Shuffle and deal table ``i`` afresh (its dealer is already set)."""
        hands, dealer = s[0], s[1]
        deck = np_.arange(52)
        while True:
            np_.random.shuffle(deck)
            for seat in range(PLAYERS):
                hands[i, seat] = 0
            for k in range(52):
                hands[i, (dealer[i] + 1 + k) % PLAYERS] |= np_.int64(1) << deck[k]
            again = False
            if redeal[0]:
                for seat in range(PLAYERS):
                    if qualifies(hands[i, seat], redeal[1], redeal[2], redeal[3] != 0):
                        again = True
            if not again:
                break
        phase, to_act, calls, played = s[2], s[3], s[4], s[5]
        trick, trick_len, leader, won, voids, info = s[6], s[7], s[8], s[9], s[10], s[11]
        phase[i] = CALL
        to_act[i] = (dealer[i] + 1) % PLAYERS
        leader[i] = to_act[i]
        trick_len[i] = 0
        for seat in range(PLAYERS):
            calls[i, seat] = 0
            played[i, seat] = 0
            trick[i, seat] = -1
            won[i, seat] = 0
            voids[i, seat] = 0
        info[i, 0] = -1  # led suit
        info[i, 1] = -1  # winning card
        info[i, 2] = -1  # winning seat
        info[i, 3] = 0  # trump played
        info[i, 4] = 0  # tricks done

    deal = jit(deal)

    def encode(
        rules: Any, s: Any, i: int, layout: Any, obs: Any, mask: Any, legal: Any, won_f: Any
    ) -> None:
        """Observation row and action mask of the seat to act at table ``i``.

        Written for the compiler: the row is cleared by a loop it turns into one memset,
        every offset is read into a local first (a store into the row could otherwise
        alias ``layout`` and force a reload), and the card fields are written through
        slices indexed from 0, which lets it vectorize their loops.
        """
        hands, dealer, phase, to_act, calls, played = s[0], s[1], s[2], s[3], s[4], s[5]
        trick, trick_len, leader, won, voids, info = s[6], s[7], s[8], s[9], s[10], s[11]
        o_hand, o_played, o_trick = layout[L_HAND], layout[L_PLAYED], layout[L_TRICK]
        o_calls, o_won, o_voids = layout[L_CALLS], layout[L_WON], layout[L_VOIDS]
        k1, min_call, card0 = layout[L_K1], layout[L_MIN_CALL], layout[L_CARD0]
        me = to_act[i]
        hand = hands[i, me]
        row = obs[i]
        for k in range(row.shape[0]):
            row[k] = 0.0
        cells = row[o_hand : o_hand + 52]
        for card in range(52):
            if hand >> card & 1:
                cells[card] = 1.0
        for rel in range(PLAYERS):
            cards = played[i, (me + rel) % PLAYERS]
            cells = row[o_played + rel * 52 : o_played + rel * 52 + 52]
            for card in range(52):
                if cards >> card & 1:
                    cells[card] = 1.0
        for seat in range(PLAYERS):
            rel = (seat - me) % PLAYERS
            v = voids[i, seat]
            for suit in range(4):
                if v >> suit & 1:
                    row[o_voids + rel * 4 + suit] = 1.0
            call = calls[i, seat]
            column = 0 if call == 0 else 1 + call - min_call
            row[o_calls + rel * k1 + column] = 1.0
            row[o_won + rel] = won_f[won[i, seat]]
        for k in range(trick_len[i]):
            row[o_trick + k * 52 + trick[i, k]] = 1.0
        row[layout[L_TO_ACT]] = 1.0
        row[layout[L_DEALER] + (dealer[i] - me) % PLAYERS] = 1.0
        row[layout[L_TRUMP]] = 1.0  # the fixed trump of the call games (spades)
        m = mask[i]
        for k in range(m.shape[0]):
            m[k] = 0
        if phase[i] == CALL:
            row[layout[L_PHASE] + layout[L_PHASE_CALL]] = 1.0
            legal[i] = 0
            for k in range(k1 - 1):
                m[k] = 1
        else:
            row[layout[L_PHASE] + layout[L_PHASE_PLAY]] = 1.0
            row[layout[L_LEADER] + (leader[i] - me) % PLAYERS] = 1.0
            allowed = legal_mask(rules, hand, info[i, 0], info[i, 1], info[i, 4] == 0, info[i, 3])
            legal[i] = allowed
            flags = m[card0 : card0 + 52]
            for card in range(52):
                if allowed >> card & 1:
                    flags[card] = 1

    encode = jit(encode)

    def step(
        rules: Any,
        s: Any,
        actions: Any,
        layout: Any,
        scores: Any,
        min_total: int,
        redeal: Any,
        obs: Any,
        mask: Any,
        legal: Any,
        rewards: Any,
        done: Any,
        won_f: Any,
    ) -> int:
        """Apply one action per table; -1, or the first table whose action is illegal
        (then nothing has changed anywhere).

        The tables are independent (``loop`` may run them on several threads), except
        for the generator that shuffles: the tables whose deal ended are dealt
        afterwards, one by one in table order.
        """
        n = actions.shape[0]
        phase, to_act, calls = s[2], s[3], s[4]
        k1, min_call, card0 = layout[L_K1], layout[L_MIN_CALL], layout[L_CARD0]
        for i in range(n):
            a = actions[i]
            if phase[i] == CALL:
                if a < 0 or a >= k1 - 1:
                    return i
            else:
                card = a - card0
                if card < 0 or card >= 52 or not legal[i] >> card & 1:
                    return i
        hands, dealer, played = s[0], s[1], s[5]
        trick, trick_len, leader, won, voids, info = s[6], s[7], s[8], s[9], s[10], s[11]
        trump = rules.trump
        # A parallel loop cannot take a tuple inside a tuple (``rules.suit_masks``) to its
        # threads: it takes the fields, and each table rebuilds the rules from them.
        overtake, must_trump, waste = rules.must_overtake, rules.must_trump, rules.no_waste_trump
        first_lead, broken, stride = (
            rules.no_trump_lead_first_trick,
            rules.trump_broken_to_lead,
            rules.stride,
        )
        sm0, sm1, sm2, sm3 = rules.suit_masks
        for i in loop(n):
            rules_i = play_rules_type(
                trump, overtake, must_trump, waste, first_lead, broken, stride, (sm0, sm1, sm2, sm3)
            )
            done[i] = False
            for seat in range(PLAYERS):
                rewards[i, seat] = 0.0
            seat = to_act[i]
            a = actions[i]
            if phase[i] == CALL:
                calls[i, seat] = min_call + a
                nxt = (seat + 1) % PLAYERS
                if calls[i, nxt] == 0:
                    to_act[i] = nxt
                else:
                    total = calls[i, 0] + calls[i, 1] + calls[i, 2] + calls[i, 3]
                    if total < min_total:
                        done[i] = True  # void: the same dealer deals again, no points
                    else:
                        phase[i] = PLAY
                        to_act[i] = leader[i]
            else:
                card = a - card0
                hands[i, seat] ^= np.int64(1) << card
                played[i, seat] |= np.int64(1) << card
                trick[i, trick_len[i]] = card
                trick_len[i] += 1
                suit = card // RANK_COUNT
                if suit == trump:
                    info[i, 3] = 1
                if info[i, 1] < 0:
                    info[i, 0] = suit
                    info[i, 1] = card
                    info[i, 2] = seat
                else:
                    if suit != info[i, 0]:
                        voids[i, seat] |= 1 << info[i, 0]
                    if beats(card, info[i, 1], trump, RANK_COUNT):
                        info[i, 1] = card
                        info[i, 2] = seat
                if trick_len[i] < PLAYERS:
                    to_act[i] = (seat + 1) % PLAYERS
                else:
                    winner = info[i, 2]
                    won[i, winner] += 1
                    info[i, 4] += 1
                    trick_len[i] = 0
                    for k in range(PLAYERS):
                        trick[i, k] = -1
                    info[i, 0] = -1
                    info[i, 1] = -1
                    info[i, 2] = -1
                    leader[i] = winner
                    to_act[i] = winner
                    if info[i, 4] == HAND:
                        for p in range(PLAYERS):
                            rewards[i, p] = scores[calls[i, p], won[i, p]] / 10.0
                        done[i] = True
                        dealer[i] = (dealer[i] + 1) % PLAYERS
            if not done[i]:
                encode(rules_i, s, i, layout, obs, mask, legal, won_f)
        for i in range(n):
            if done[i]:
                deal(s, i, redeal)
                encode(rules, s, i, layout, obs, mask, legal, won_f)
        return -1

    def popcount(mask: int) -> int:
        count = 0
        while mask:
            mask &= mask - 1
            count += 1
        return count

    popcount = jit(popcount)

    def nth_card(mask: int, index: int) -> int:
        """The card of ``mask`` with ``index`` cards of the mask below it."""
        for _ in range(index):
            mask &= mask - 1
        card = 0
        for width in (32, 16, 8, 4, 2, 1):
            if not mask & ((np_.int64(1) << width) - 1):
                mask >>= width
                card += width
        return card

    nth_card = jit(nth_card)

    def random_actions(rng: Any, s: Any, legal: Any, layout: Any, out: Any) -> None:
        """A uniformly random legal action per table, from one ``rng.random()`` each."""
        phase = s[2]
        calls, card0 = layout[L_K1] - 1, layout[L_CARD0]
        for i in range(out.shape[0]):
            u = rng.random()
            if phase[i] == CALL:
                out[i] = int(u * calls)
            else:
                allowed = legal[i]
                out[i] = card0 + nth_card(allowed, int(u * popcount(allowed)))

    return _Kernels(
        jit(seed),
        deal,
        step_jit(step),
        encode,
        jit(random_actions),
        compiled=jit is not _identity,
    )


def _faces_mask(faces: str) -> int:
    """Every card of the honour ranks ``faces`` (e.g. ``AKQJ``), in all four suits."""
    mask = 0
    for letter in faces:
        for suit in range(4):
            mask |= 1 << (suit * RANK_COUNT + RANKS.index(letter))
    return mask


def _identity(function: Any) -> Any:
    return function


_COMPILED: dict[bool, _Kernels] = {}


def kernels(compiled: bool | None = None, parallel: bool = False) -> _Kernels:
    """The batch kernels: compiled by numba when it is installed (or ``compiled=True``
    demands it), else plain Python running the same source; ``parallel`` compiles the
    step with ``parallel=True`` (the plain-Python fallback ignores it)."""
    if compiled is False:
        return _build(_identity, np)
    try:
        import numba
    except ImportError:
        if compiled:
            raise
        return _build(_identity, np)
    if parallel not in _COMPILED:
        jit = numba.njit(cache=False)
        if parallel:
            step_jit = numba.njit(cache=False, parallel=True)
            _COMPILED[parallel] = _build(jit, np, numba.prange, step_jit)
        else:
            _COMPILED[parallel] = _build(jit, np)
    return _COMPILED[parallel]


Array = npt.NDArray[Any]


class BatchCallBreak:
    """``n`` tables of a call game, stepped together; see the module docstring.

    >>> batch = BatchCallBreak(2, seed=1, compiled=False)
    >>> obs, mask = batch.reset()
    >>> obs.shape == (2, batch.encoder.size), int(mask[0].sum())  # 13 calls to choose from
    (True, 13)
    """

    def __init__(
        self,
        n: int,
        rules: Rules | None = None,
        *,
        seed: int = 0,
        compiled: bool | None = None,
        parallel: bool = False,
    ) -> None:
        rules = rules if rules is not None else Rules.preset("callbreak")
        if rules.game != "callbreak" or rules.players != PLAYERS:
            raise ValueError(f"the batch env plays the four-seat call games, not {rules.name}")
        if rules.declare_voids:
            raise ValueError("the batch env has no yes/no actions: declare_voids must be off")
        self.rules = rules
        self.n = n
        self.encoder = Encoder(rules)
        self._k = kernels(compiled, parallel)
        self.compiled = self._k.compiled
        self.parallel = parallel and self.compiled
        self._rules = play_rules(rules)
        self._scores = score_table(rules)
        self._min_total = rules.min_total_calls or 0
        auto = rules.misdeal == "auto" or rules.misdeal_no_spade
        self._redeal = np.array(
            [
                int(auto),
                SUIT_MASKS[rules.trump_suit],
                _faces_mask(rules.misdeal_faces),
                int(rules.misdeal == "auto"),
            ],
            np.int64,
        )
        e = self.encoder
        off = {name: at for name, at, _ in e.fields}
        layout = np.zeros(16, np.int64)
        for slot, name in (
            (L_HAND, "hand"),
            (L_PLAYED, "played"),
            (L_TRICK, "trick"),
            (L_LEADER, "trick_leader"),
            (L_TO_ACT, "to_act"),
            (L_DEALER, "dealer"),
            (L_PHASE, "phase"),
            (L_CALLS, "calls"),
            (L_WON, "tricks_won"),
            (L_VOIDS, "voids"),
        ):
            layout[slot] = off[name]
        layout[L_PHASE_CALL] = e.phases.index("call")
        layout[L_PHASE_PLAY] = e.phases.index("play")
        layout[L_K1] = len(e.values) + 1
        layout[L_MIN_CALL] = rules.min_call
        layout[L_CARD0] = e.action_index(e.cards[0])
        layout[L_TRUMP] = off["trump"] + rules.trump_suit
        self._layout = layout
        # tricks_won / 13 as float32, looked up rather than divided in the hot loop.
        self._won_f = (np.arange(HAND + 1) / HAND).astype(np.float32)
        self._seed = seed
        i64 = np.int64
        self._state = (
            np.zeros((n, PLAYERS), i64),  # hands
            np.zeros(n, i64),  # dealer
            np.zeros(n, i64),  # phase
            np.zeros(n, i64),  # to_act
            np.zeros((n, PLAYERS), i64),  # calls (0 = none yet)
            np.zeros((n, PLAYERS), i64),  # played by seat
            np.zeros((n, PLAYERS), i64),  # trick in progress, in order (-1 empty)
            np.zeros(n, i64),  # cards in the trick
            np.zeros(n, i64),  # leader
            np.zeros((n, PLAYERS), i64),  # tricks won
            np.zeros((n, PLAYERS), i64),  # public voids, suit bits
            np.zeros((n, 5), i64),  # led suit, winning card, winning seat, trump played, tricks
        )
        self.obs = np.zeros((n, e.size), np.float32)
        self.mask = np.zeros((n, e.num_actions), np.int8)
        self.rewards = np.zeros((n, PLAYERS), np.float32)
        self.done = np.zeros(n, np.bool_)
        self._legal = np.zeros(n, i64)

    @property
    def to_act(self) -> Array:
        """Seat to act at each table."""
        return self._state[3]

    @property
    def dealers(self) -> Array:
        """Dealer of each table's current deal."""
        return self._state[1]

    @property
    def hands(self) -> Array:
        """Hand masks by table and seat (the simulator's own state: not for agents)."""
        return self._state[0]

    def reset(
        self, hands: Array | None = None, dealers: Array | None = None
    ) -> tuple[Array, Array]:
        """Deal every table afresh (from the seed, or the given hand masks ``[n, 4]`` and
        dealers); the observation and action mask of each table's first seat to act."""
        k = self._k
        k.seed(self._seed)
        s = self._state
        s[1][:] = np.arange(self.n) % PLAYERS if dealers is None else dealers
        for i in range(self.n):
            k.deal(s, i, self._redeal)
        if hands is not None:
            s[0][:] = hands
        for i in range(self.n):
            k.encode(self._rules, s, i, self._layout, self.obs, self.mask, self._legal, self._won_f)
        return self.obs, self.mask

    def step(self, actions: Array) -> tuple[Array, Array, Array, Array]:
        """One action index per table → (obs, mask, rewards [n, 4], done).

        The arrays are reused from step to step: copy what you keep.  An illegal action
        raises ValueError naming the table, and changes no table.
        """
        actions = np.ascontiguousarray(actions, np.int64)
        if actions.shape != (self.n,):
            raise ValueError(f"give one action per table: shape ({self.n},), not {actions.shape}")
        bad = self._k.step(
            self._rules,
            self._state,
            actions,
            self._layout,
            self._scores,
            self._min_total,
            self._redeal,
            self.obs,
            self.mask,
            self._legal,
            self.rewards,
            self.done,
            self._won_f,
        )
        if bad >= 0:
            raise ValueError(
                f"table {bad}: action {int(actions[bad])} "
                f"({self.encoder.action(int(actions[bad]))!r}) is not legal there"
            )
        return self.obs, self.mask, self.rewards, self.done

    def random_actions(self, rng: np.random.Generator, out: Array | None = None) -> Array:
        """A uniformly random legal action for every table, one ``rng.random()`` draw per
        table in table order (compiled, like ``step``); written into ``out`` (int64
        ``[n]``) when given, else into a new array."""
        if out is None:
            out = np.empty(self.n, np.int64)
        self._k.random_actions(rng, self._state, self._legal, self._layout, out)
        return out

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
compiled by numba like ``engine/kernel.py`` (numba comes with every install);
without numba the same functions run as plain Python (slowly, but the same).
``parallel=True`` spreads the tables over numba's threads (``NUMBA_NUM_THREADS``)
with the very same results: the deals are still shuffled one table after
another, in table order, from the one seeded generator.  That generator is
numba's (numpy's in plain Python) global one, so ``reset`` and every ``step``
first seed it from the env's own seed and its count of steps: two envs stepped
in turn deal as each would alone (and code of yours that draws from numba's
global generator between steps changes nothing here, nor is left as it was).

What this env leaves out of the rules, because it has no yes/no actions: a
misdeal is never claimed under ``misdeal=claim`` (the ``callbreak`` preset's
default): every seat plays the hand on, as if each had declined to claim;
``misdeal=auto`` (``callbreak-bhoos``) and ``misdeal_no_spade`` redeal as the
engine does, and ``declare_voids`` is refused.  A deal voided by
``min_total_calls`` ends with no points.

``KernelTable`` is one table on the same kernels, with its whole state in one row,
so that a step or an observation costs one compiled call with a few plain arguments:
the AEC env plays the calls and tricks of these games on it.

The observation encodes only what the seat to act may know, from the arrays
that hold its own hand and the public play; the test against ``Encoder``
proves it is the very vector the ``Observation`` gives.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, SupportsIndex

import numpy as np
import numpy.typing as npt

from callbreak.bots.encoding import Encoder
from callbreak.cards import FULL_DECK, RANK_COUNT, RANKS, SUIT_MASKS, hand_names
from callbreak.engine import tricks
from callbreak.engine.deal import play_rules
from callbreak.engine.kernel import score_table
from callbreak.engine.phases import Call, whole_number
from callbreak.rules import Rules

PLAYERS = 4
HAND = 13
INV_HAND = 1.0 / HAND
"""tricks_won / 13 is shown as tricks_won * INV_HAND (the same float32s; a division costs more)."""
CALL, PLAY = 0, 1
LIVE, OVER, VOID = 0, 1, 2
"""``info[i, I_END]``: the deal goes on, is over (scored), or void (``min_total_calls``)."""

# Columns of ``info``: the trick in progress and the deal's progress, then the match totals
# before this deal, by seat, in tenths (a single table in a match; 0 in the batch env).
I_LED, I_WIN_CARD, I_WIN_SEAT, I_TRUMP_PLAYED, I_TRICKS, I_END, I_TOTALS = range(7)
INFO = I_TOTALS + PLAYERS

# Indices into the ``layout`` array handed to the compiled code: the vector's offsets,
# then the play rules as plain ints (so a single table's entry points take no tuple).
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
    L_POINTS,
    L_PHASE_OVER,
    L_PHASE_VOID,
    L_SCALE10,
    L_MIN_TOTAL,
    L_TOTALS,
    L_R_TRUMP,
    L_R_OVERTAKE,
    L_R_MUST_TRUMP,
    L_R_WASTE,
    L_R_FIRST_LEAD,
    L_R_BROKEN,
    L_R_STRIDE,
    L_R_SUITS,  # four suit masks from here
) = range(30)
LAYOUT_SIZE = L_R_SUITS + 4

# Columns of a single table's state row (``TableKernel``): the batch state's arrays side by
# side, one row.
F_HANDS, F_DEALER, F_PHASE, F_TO_ACT, F_CALLS, F_PLAYED, F_TRICK = 0, 4, 5, 6, 7, 11, 15
F_TRICK_LEN, F_LEADER, F_WON, F_VOIDS, F_INFO = 19, 20, 21, 25, 29
ROW = F_INFO + INFO


@dataclass(frozen=True)
class _Kernels:
    seed: Callable[..., Any]
    deal: Callable[..., Any]
    step: Callable[..., Any]
    encode: Callable[..., Any]
    random_actions: Callable[..., Any]
    one_step: Callable[..., Any]
    one_encode: Callable[..., Any]
    compiled: bool


Kernel = Callable[..., Any]
"""A kernel of the batch env: compiled by the ``jit`` a builder is given, or plain Python."""


def _deal_kernels(
    jit: Callable[[Any], Any], np_: Any, inline: Callable[[Any], Any]
) -> tuple[Kernel, Kernel]:
    """``rules_of`` (the play rules from the layout's ints) and ``deal`` (a table afresh)."""
    play_rules_type = tricks.PlayRules

    def qualifies(hand: int, trump_mask: int, faces_mask: int, faces: bool) -> bool:
        if not hand & trump_mask:
            return True
        return faces and not hand & faces_mask

    qualifies = jit(qualifies)

    def rules_of(layout: Any) -> Any:
        """The play rules from their ints in ``layout`` (a parallel loop cannot take a tuple
        inside a tuple, ``rules.suit_masks``, to its threads: each table rebuilds them)."""
        sm = L_R_SUITS
        return play_rules_type(
            layout[L_R_TRUMP],
            layout[L_R_OVERTAKE] != 0,
            layout[L_R_MUST_TRUMP],
            layout[L_R_WASTE] != 0,
            layout[L_R_FIRST_LEAD] != 0,
            layout[L_R_BROKEN] != 0,
            layout[L_R_STRIDE],
            (layout[sm], layout[sm + 1], layout[sm + 2], layout[sm + 3]),
        )

    rules_of = inline(rules_of)

    def deal(s: Any, i: int, redeal: Any) -> None:
        """Shuffle and deal table ``i`` afresh (its dealer is already set)."""
        hands, dealer = s[0], s[1]
        deck = redeal[4:]  # scratch space: the kernels allocate nothing
        for k in range(52):
            deck[k] = k
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
        info[i, I_LED] = -1
        info[i, I_WIN_CARD] = -1
        info[i, I_WIN_SEAT] = -1
        info[i, I_TRUMP_PLAYED] = 0
        info[i, I_TRICKS] = 0
        info[i, I_END] = LIVE

    deal = jit(deal)

    return rules_of, deal


def _encode_kernels(
    jit: Callable[[Any], Any], inline: Callable[[Any], Any]
) -> tuple[Kernel, Kernel, Kernel]:
    """``allowed`` (the cards a seat may play), ``encode_row`` and ``encode``."""
    legal_mask = jit(tricks.legal_mask)

    def allowed(rules: Any, s: Any, i: int, seat: int) -> int:
        """The cards ``seat`` may play now at table ``i`` (in the play)."""
        info = s[11]
        return legal_mask(  # type: ignore[no-any-return]
            rules,
            s[0][i, seat],
            info[i, I_LED],
            info[i, I_WIN_CARD],
            info[i, I_TRICKS] == 0,
            info[i, I_TRUMP_PLAYED],
        )

    allowed = inline(allowed)

    def encode_row(
        rules: Any, s: Any, i: int, me: int, layout: Any, scores: Any, row: Any, m: Any
    ) -> int:
        """Seat ``me``'s observation row and action mask at table ``i``; the cards it may play
        (0 unless it is to act in the play).

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
        end = info[i, I_END]
        hand = hands[i, me]
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
            row[o_won + rel] = won[i, seat] * INV_HAND
        for k in range(trick_len[i]):
            row[o_trick + k * 52 + trick[i, k]] = 1.0
        row[layout[L_DEALER] + (dealer[i] - me) % PLAYERS] = 1.0
        row[layout[L_TRUMP]] = 1.0  # the fixed trump of the call games (spades)
        for k in range(m.shape[0]):
            m[k] = 0
        # Scores in tenths are shown as ``Encoder`` shows them: / 10, / score_scale, clipped.
        scale, o_totals = layout[L_SCALE10] / 10.0, layout[L_TOTALS]
        for seat in range(PLAYERS):
            tenths = info[i, I_TOTALS + seat]
            if tenths:
                scaled = tenths / 10.0 / scale
                row[o_totals + (seat - me) % PLAYERS] = min(10.0, max(-10.0, scaled))
        if end != LIVE:
            # Over (its points shown) or void (no points).
            row[layout[L_PHASE] + layout[L_PHASE_OVER if end == OVER else L_PHASE_VOID]] = 1.0
            if end == OVER:
                o_points = layout[L_POINTS]
                for seat in range(PLAYERS):
                    scaled = scores[calls[i, seat], won[i, seat]] / 10.0 / scale
                    row[o_points + (seat - me) % PLAYERS] = min(10.0, max(-10.0, scaled))
            return 0
        row[layout[L_TO_ACT] + (to_act[i] - me) % PLAYERS] = 1.0
        if phase[i] == CALL:
            row[layout[L_PHASE] + layout[L_PHASE_CALL]] = 1.0
            if me == to_act[i]:
                for k in range(k1 - 1):
                    m[k] = 1
            return 0
        row[layout[L_PHASE] + layout[L_PHASE_PLAY]] = 1.0
        row[layout[L_LEADER] + (leader[i] - me) % PLAYERS] = 1.0
        if me != to_act[i]:
            return 0
        cards = allowed(rules, s, i, me)
        flags = m[card0 : card0 + 52]
        for card in range(52):
            if cards >> card & 1:
                flags[card] = 1
        return cards

    encode_row = inline(encode_row)

    def encode(
        rules: Any, s: Any, i: int, layout: Any, scores: Any, obs: Any, mask: Any, legal: Any
    ) -> None:
        """Observation row and action mask of the seat to act at table ``i``."""
        legal[i] = encode_row(rules, s, i, s[3][i], layout, scores, obs[i], mask[i])

    encode = inline(encode)

    return allowed, encode_row, encode


def _apply_kernels(
    jit: Callable[[Any], Any], inline: Callable[[Any], Any]
) -> tuple[Kernel, Kernel, Kernel]:
    """``apply`` (one action at a table), ``legal_action`` and ``settle`` (a deal's end)."""
    beats = jit(tricks.beats)

    def apply(rules: Any, s: Any, i: int, a: int, layout: Any) -> None:
        """Play action ``a`` (legal: checked before) at table ``i``; a deal that ends is
        marked OVER or VOID in ``info``, its state left as it ended."""
        phase, to_act, calls, played = s[2], s[3], s[4], s[5]
        trick, trick_len, leader, won, voids, info, hands = (
            s[6],
            s[7],
            s[8],
            s[9],
            s[10],
            s[11],
            s[0],
        )
        seat = to_act[i]
        if phase[i] == CALL:
            calls[i, seat] = layout[L_MIN_CALL] + a
            nxt = (seat + 1) % PLAYERS
            if calls[i, nxt] == 0:
                to_act[i] = nxt
            elif calls[i, 0] + calls[i, 1] + calls[i, 2] + calls[i, 3] < layout[L_MIN_TOTAL]:
                info[i, I_END] = VOID  # the same dealer deals again, no points
            else:
                phase[i] = PLAY
                to_act[i] = leader[i]
            return
        trump = rules.trump
        card = a - layout[L_CARD0]
        hands[i, seat] ^= np.int64(1) << card
        played[i, seat] |= np.int64(1) << card
        trick[i, trick_len[i]] = card
        trick_len[i] += 1
        suit = card // RANK_COUNT
        if suit == trump:
            info[i, I_TRUMP_PLAYED] = 1
        if info[i, I_WIN_CARD] < 0:
            info[i, I_LED] = suit
            info[i, I_WIN_CARD] = card
            info[i, I_WIN_SEAT] = seat
        else:
            if suit != info[i, I_LED]:
                voids[i, seat] |= 1 << info[i, I_LED]
            if beats(card, info[i, I_WIN_CARD], trump, RANK_COUNT):
                info[i, I_WIN_CARD] = card
                info[i, I_WIN_SEAT] = seat
        if trick_len[i] < PLAYERS:
            to_act[i] = (seat + 1) % PLAYERS
            return
        winner = info[i, I_WIN_SEAT]
        won[i, winner] += 1
        info[i, I_TRICKS] += 1
        trick_len[i] = 0
        for k in range(PLAYERS):
            trick[i, k] = -1
        info[i, I_LED] = -1
        info[i, I_WIN_CARD] = -1
        info[i, I_WIN_SEAT] = -1
        leader[i] = winner
        to_act[i] = winner
        if info[i, I_TRICKS] == HAND:
            info[i, I_END] = OVER

    apply = inline(apply)

    def legal_action(rules: Any, s: Any, i: int, a: int, layout: Any, cards: int) -> bool:
        """Whether action index ``a`` is legal at table ``i``; ``cards`` the seat's playable
        cards (in the play)."""
        if s[11][i, I_END] != LIVE:
            return False
        if s[2][i] == CALL:
            return bool(0 <= a < layout[L_K1] - 1)
        card = a - layout[L_CARD0]
        return bool(0 <= card < 52 and cards >> card & 1 != 0)

    legal_action = inline(legal_action)

    def settle(s: Any, i: int, scores: Any, rewards: Any) -> bool:
        """Table ``i``'s rewards for this step (the points, in whole points, if its deal is
        over); whether the deal ended.  The next deal of a scored one passes the deal on."""
        dealer, calls, won, end = s[1], s[4], s[9], s[11][i, I_END]
        for seat in range(PLAYERS):
            if end == OVER:
                rewards[i, seat] = scores[calls[i, seat], won[i, seat]] / 10.0
            else:
                rewards[i, seat] = 0.0
        if end == OVER:
            dealer[i] = (dealer[i] + 1) % PLAYERS
        return end != LIVE  # type: ignore[no-any-return]

    settle = inline(settle)

    return apply, legal_action, settle


def _build(
    jit: Callable[[Any], Any],
    np_: Any,
    loop: Any = range,
    step_jit: Callable[[Any], Any] | None = None,
    inline: Callable[[Any], Any] | None = None,
) -> _Kernels:
    """The kernels, each passed through ``jit``; ``step`` through ``step_jit`` (a parallel
    jit, say), running its tables with ``loop`` (``range``, or ``numba.prange``); the
    helpers that take the state tuple through ``inline`` (numba's ``inline="always"``: a
    call would copy the tuple and count up and down the owner of each of its arrays)."""
    step_jit = step_jit or jit
    inline = inline or jit
    rules_of, deal = _deal_kernels(jit, np_, inline)
    allowed, encode_row, encode = _encode_kernels(jit, inline)
    apply, legal_action, settle = _apply_kernels(jit, inline)

    def seed(value: int) -> None:
        np_.random.seed(value)

    def step(
        s: Any,
        actions: Any,
        layout: Any,
        scores: Any,
        redeal: Any,
        obs: Any,
        mask: Any,
        legal: Any,
        rewards: Any,
        done: Any,
    ) -> int:
        """Apply one action per table; -1, or the first table whose action is illegal
        (then nothing has changed anywhere).

        The tables are independent (``loop`` may run them on several threads), except
        for the generator that shuffles: the tables whose deal ended are dealt
        afterwards, one by one in table order.
        """
        n = actions.shape[0]
        rules = rules_of(layout)
        for i in range(n):
            if not legal_action(rules, s, i, actions[i], layout, legal[i]):
                return i
        for i in loop(n):
            rules_i = rules_of(layout)
            apply(rules_i, s, i, actions[i], layout)
            done[i] = settle(s, i, scores, rewards)
            if not done[i]:
                encode(rules_i, s, i, layout, scores, obs, mask, legal)
        for i in range(n):
            if done[i]:
                deal(s, i, redeal)
                encode(rules, s, i, layout, scores, obs, mask, legal)
        return -1

    popcount = jit(tricks.popcount)
    nth_card = jit(tricks.nth_card)

    def random_actions(rng: Any, s: Any, legal: Any, layout: Any, out: Any) -> None:
        """A uniformly random legal action per table, from one ``rng.random()`` each."""
        phase = s[2]
        calls, card0 = layout[L_K1] - 1, layout[L_CARD0]
        for i in range(out.shape[0]):
            u = rng.random()
            if phase[i] == CALL:
                out[i] = int(u * calls)
            else:
                cards = legal[i]
                out[i] = card0 + nth_card(cards, int(u * popcount(cards)))

    def one_state(row: Any) -> Any:
        """A single table's state row (shape ``(1, ROW)``) as the batch state's arrays."""
        return (
            row[:, F_HANDS : F_HANDS + PLAYERS],
            row[:, F_DEALER],
            row[:, F_PHASE],
            row[:, F_TO_ACT],
            row[:, F_CALLS : F_CALLS + PLAYERS],
            row[:, F_PLAYED : F_PLAYED + PLAYERS],
            row[:, F_TRICK : F_TRICK + PLAYERS],
            row[:, F_TRICK_LEN],
            row[:, F_LEADER],
            row[:, F_WON : F_WON + PLAYERS],
            row[:, F_VOIDS : F_VOIDS + PLAYERS],
            row[:, F_INFO : F_INFO + INFO],
        )

    one_state = inline(one_state)

    def one_step(row: Any, layout: Any, a: int) -> bool:
        """Play action ``a`` at a single table; False (and nothing changed) if illegal.
        Few plain arguments, so a call from Python costs a fraction of a microsecond."""
        s = one_state(row)
        rules = rules_of(layout)
        cards = allowed(rules, s, 0, s[3][0]) if s[2][0] == PLAY else 0
        if not legal_action(rules, s, 0, a, layout, cards):
            return False
        apply(rules, s, 0, a, layout)
        return True

    def one_encode(row: Any, layout: Any, scores: Any, me: int, obs: Any, mask: Any) -> None:
        """Seat ``me``'s observation vector and action mask at a single table."""
        encode_row(rules_of(layout), one_state(row), 0, me, layout, scores, obs, mask)

    return _Kernels(
        jit(seed),
        deal,
        step_jit(step),
        encode,
        jit(random_actions),
        jit(one_step),
        jit(one_encode),
        compiled=jit is not _identity,
    )


def _stream_seed(seed: int, count: int) -> int:
    """A 32-bit seed for numba's generator from an env's seed and a step count (splitmix64:
    nearby pairs give unrelated seeds)."""
    z = (seed * 0x9E3779B97F4A7C15 + count * 0xBF58476D1CE4E5B9 + 1) & (2**64 - 1)
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & (2**64 - 1)
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & (2**64 - 1)
    return (z ^ (z >> 31)) & 0xFFFFFFFF


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
        # No reference counting: the kernels allocate nothing, and counting the owner of
        # every array taken from the state tuple up and down, atomically, cost a third.
        options: dict[str, Any] = {"cache": False, "_nrt": False}
        jit = numba.njit(**options)
        inline = numba.njit(**options, inline="always")
        if parallel:
            # Not inlined here: numba's parallel loop mishandles the inlined helpers' early
            # returns (a seat's call was booked, but the turn did not pass on).
            step_jit = numba.njit(**options, parallel=True)
            _COMPILED[parallel] = _build(jit, np, numba.prange, step_jit)
        else:
            _COMPILED[parallel] = _build(jit, np, inline=inline)
    return _COMPILED[parallel]


Array = npt.NDArray[Any]


def _redeal_of(rules: Rules) -> Array:
    """When a deal is thrown in as dealt and dealt again (``misdeal=auto``,
    ``misdeal_no_spade``): the flag, the trump suit's mask, the honours' mask, and whether
    a hand without honours counts too; then 52 slots the deal shuffles the deck in."""
    auto = rules.misdeal == "auto" or rules.misdeal_no_spade
    flags = [
        int(auto),
        SUIT_MASKS[rules.trump_suit],
        _faces_mask(rules.misdeal_faces),
        int(rules.misdeal == "auto"),
    ]
    return np.array(flags + [0] * 52, np.int64)  # then room for the deck being shuffled


def layout_of(rules: Rules, encoder: Encoder) -> Array:
    """The ints the kernels read: the vector's field offsets (``Encoder``'s layout), the
    call values, and the play rules."""
    off = {name: at for name, at, _ in encoder.fields}
    layout = np.zeros(LAYOUT_SIZE, np.int64)
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
        (L_POINTS, "points"),
        (L_TOTALS, "totals"),
    ):
        layout[slot] = off[name]
    phases = encoder.phases
    layout[L_PHASE_CALL] = phases.index("call")
    layout[L_PHASE_PLAY] = phases.index("play")
    layout[L_PHASE_OVER] = phases.index("over")
    layout[L_PHASE_VOID] = phases.index("void")
    layout[L_K1] = len(encoder.values) + 1
    layout[L_MIN_CALL] = rules.min_call
    layout[L_CARD0] = encoder.action_index(encoder.cards[0])
    layout[L_TRUMP] = off["trump"] + rules.trump_suit
    # Points are in tenths; the vector shows them / score_scale (a whole number of points).
    layout[L_SCALE10] = round(encoder.score_scale * 10)
    layout[L_MIN_TOTAL] = rules.min_total_calls or 0
    play = play_rules(rules)
    layout[L_R_TRUMP] = play.trump
    layout[L_R_OVERTAKE] = play.must_overtake
    layout[L_R_MUST_TRUMP] = play.must_trump
    layout[L_R_WASTE] = play.no_waste_trump
    layout[L_R_FIRST_LEAD] = play.no_trump_lead_first_trick
    layout[L_R_BROKEN] = play.trump_broken_to_lead
    layout[L_R_STRIDE] = play.stride
    layout[L_R_SUITS : L_R_SUITS + 4] = play.suit_masks
    return layout


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
        seed: SupportsIndex = 0,
        compiled: bool | None = None,
        parallel: bool = False,
    ) -> None:
        rules = rules if rules is not None else Rules.preset("callbreak")
        calling = any(isinstance(phase, Call) for phase in rules.shape.phases)
        if not rules.shape.calls or not calling or rules.players != PLAYERS:
            raise ValueError(f"the batch env plays the four-seat call games, not {rules.name}")
        if rules.declare_voids:
            raise ValueError("the batch env has no yes/no actions: declare_voids must be off")
        tables = whole_number(n)  # an int or a numpy integer; not 2.5, not "4"
        if tables is None or tables < 1:
            raise ValueError(
                f"n is how many tables to play at once: a whole number, 1 or more, not {n!r}"
            )
        self.rules = rules
        self.n = tables
        self.encoder = Encoder(rules)
        self._k = kernels(compiled, parallel)
        self.compiled = self._k.compiled
        self.parallel = parallel and self.compiled
        self._scores = score_table(rules)
        self._redeal = _redeal_of(rules)
        self._layout = layout_of(rules, self.encoder)
        whole = whole_number(seed)  # a plain int: a numpy one overflowed the stream's hash
        if whole is None:
            raise ValueError(f"seed={seed!r}: a seed is a whole number")
        self._seed = whole
        self._steps = 0
        """Steps taken since ``reset``: with the seed, they seed the deals of the next step."""
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
            np.zeros((n, INFO), i64),  # the trick, tricks done, end, totals (see I_LED..)
        )
        e = self.encoder
        self.obs = np.zeros((n, e.size), np.float32)
        self.mask = np.zeros((n, e.num_actions), np.int8)
        self.rewards = np.zeros((n, PLAYERS), np.float32)
        self.done = np.zeros(n, np.bool_)
        self._legal = np.zeros(n, i64)
        self._dealt = False
        """Whether ``reset`` has dealt the tables (before it they hold no cards to play)."""

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
        dealers); the observation and action mask of each table's first seat to act.

        Given hands and dealers are checked first (``ValueError`` with the reason, no table
        touched): the compiled code trusts them, and would play a seat 9 or a card dealt
        twice as it found them.
        """
        if dealers is not None:
            dealers = _checked_dealers(dealers, self.n)
        if hands is not None:
            hands = _checked_hands(hands, self.n)
        k = self._k
        k_rules = play_rules(self.rules)
        self._steps = 0
        k.seed(_stream_seed(self._seed, 0))
        s = self._state
        s[1][:] = np.arange(self.n) % PLAYERS if dealers is None else dealers
        for i in range(self.n):
            k.deal(s, i, self._redeal)
        if hands is not None:
            s[0][:] = hands
        for i in range(self.n):
            k.encode(k_rules, s, i, self._layout, self._scores, self.obs, self.mask, self._legal)
        self._dealt = True
        return self.obs, self.mask

    def step(self, actions: Array) -> tuple[Array, Array, Array, Array]:
        """One action index per table → (obs, mask, rewards [n, 4], done).

        The arrays are reused from step to step: copy what you keep.  An illegal action
        raises ValueError naming the table, and changes no table.
        """
        self._check_dealt()
        given = np.asarray(actions)
        if given.shape != (self.n,):
            raise ValueError(f"give one action per table: shape ({self.n},), not {given.shape}")
        count = self.encoder.num_actions
        if given.dtype.kind not in "iuf":
            raise ValueError(
                f"actions are indices into the action space (0 to {count - 1}), not {given.dtype}"
            )
        actions = np.ascontiguousarray(given, np.int64)
        cut = given.dtype.kind == "f" and not np.array_equal(actions, given)
        if cut or actions.min() < 0 or actions.max() >= count:
            table = int(np.argmax((actions != given) | (actions < 0) | (actions >= count)))
            try:
                self.encoder.checked(given[table])
            except ValueError as error:  # it does: it names the action and the space
                raise ValueError(f"table {table}: {error}") from None
        self._k.seed(_stream_seed(self._seed, self._steps + 1))
        bad = self._k.step(
            self._state,
            actions,
            self._layout,
            self._scores,
            self._redeal,
            self.obs,
            self.mask,
            self._legal,
            self.rewards,
            self.done,
        )
        if bad < 0:
            self._steps += 1
        else:
            raise ValueError(
                f"table {bad}: action {int(actions[bad])} "
                f"({self.encoder.action(int(actions[bad]))!r}) is not legal there"
            )
        return self.obs, self.mask, self.rewards, self.done

    def random_actions(self, rng: np.random.Generator, out: Array | None = None) -> Array:
        """A uniformly random legal action for every table, one ``rng.random()`` draw per
        table in table order (compiled, like ``step``); written into ``out`` (int64
        ``[n]``) when given, else into a new array."""
        self._check_dealt()
        if out is None:
            out = np.empty(self.n, np.int64)
        self._k.random_actions(rng, self._state, self._legal, self._layout, out)
        return out

    def _check_dealt(self) -> None:
        """Before the first ``reset`` the tables hold no cards: the kernels would play an
        empty deal (and draw actions from an empty mask) without a word."""
        if not self._dealt:
            raise RuntimeError("the tables are not dealt yet: call reset() first")


def _checked_dealers(dealers: Any, n: int) -> Array:
    """One dealer per table, each a seat of the table."""
    given = np.asarray(dealers)
    if given.shape != (n,):
        raise ValueError(f"dealers: give one dealer per table, shape ({n},), not {given.shape}")
    if given.dtype.kind not in "iu":
        raise ValueError(f"dealers: seats are whole numbers, not {given.dtype}")
    bad = (given < 0) | (given >= PLAYERS)
    if bad.any():
        table = int(np.argmax(bad))
        raise ValueError(
            f"dealers: table {table}: {given[table]} is not a seat (0 to {PLAYERS - 1})"
        )
    return given


def _checked_hands(hands: Any, n: int) -> Array:
    """Each table's four hands as card masks: 13 cards each, no card twice, so the whole deck."""
    given = np.asarray(hands)
    if given.shape != (n, PLAYERS):
        raise ValueError(
            f"hands: give {PLAYERS} hand masks per table, shape ({n}, {PLAYERS}), not {given.shape}"
        )
    if given.dtype.kind not in "iu":
        raise ValueError(f"hands: hands are card masks (whole numbers), not {given.dtype}")
    for table, row in enumerate(given.tolist()):
        seen = 0
        for seat, mask in enumerate(row):
            where = f"hands: table {table}, seat {seat}"
            if not 0 <= mask <= FULL_DECK:
                raise ValueError(f"{where}: {mask} is not a mask of the 52 cards")
            if mask.bit_count() != HAND:
                raise ValueError(f"{where} holds {mask.bit_count()} cards; each needs {HAND}")
            if mask & seen:
                cards = " ".join(hand_names(mask & seen))
                raise ValueError(f"{where}: {cards} already dealt to another seat")
            seen |= mask
    return given


def compiled_kernels() -> _Kernels | None:
    """The compiled kernels, or None without numba (their plain-Python run is slower than
    the engine's own)."""
    try:
        return kernels(compiled=True)
    except ImportError:
        return None


class KernelTable:
    """One deal of a four-seat call game on the batch env's compiled kernel: the AEC env's
    hot path (``CallBreakEnv`` hands a deal over here once its calls begin).

    Everything lives in one int64 row, so a step or an observation is one compiled call
    with a handful of plain arguments (a fraction of a microsecond), where building the
    engine's ``Observation`` and encoding it in Python costs some 25 µs.  The vectors are
    ``Encoder``'s, bit for bit (the env tests step both side by side).
    """

    def __init__(self, rules: Rules, encoder: Encoder, kernels: _Kernels) -> None:
        self._k = kernels
        self.layout = layout_of(rules, encoder)
        self.scores = score_table(rules)
        self.row = np.zeros((1, ROW), np.int64)
        self.size, self.num_actions = encoder.size, encoder.num_actions

    @staticmethod
    def serves(rules: Rules) -> bool:
        """Whether the kernel plays ``rules``: the four-seat call games of the ``Call`` phase
        and Call Break's score table (not Spades' own bids and side scores), without void
        declarations (a yes/no phase inside the play)."""
        calling = any(isinstance(phase, Call) for phase in rules.shape.phases)
        return (
            rules.shape.calls and calling and rules.players == PLAYERS and not rules.declare_voids
        )

    def load(
        self, hands: list[int], dealer: int, to_act: int, totals: list[int] | None = None
    ) -> None:
        """A deal at the start of its calls: the hands as dealt (card masks by seat), and in
        a match the totals before it (tenths, by seat)."""
        row = self.row[0]
        row[:] = 0
        row[F_HANDS : F_HANDS + PLAYERS] = hands
        row[F_DEALER] = dealer
        row[F_PHASE] = CALL
        row[F_TO_ACT] = row[F_LEADER] = to_act
        row[F_TRICK : F_TRICK + PLAYERS] = -1
        row[F_INFO : F_INFO + I_TOTALS] = (-1, -1, -1, 0, 0, LIVE)
        row[F_INFO + I_TOTALS : F_INFO + INFO] = totals or 0

    def act(self, index: int) -> bool:
        """Play an action index for the seat to act; False (and nothing changed) if illegal."""
        return bool(self._k.one_step(self.row, self.layout, index))

    def observe(self, seat: int) -> tuple[Array, Array]:
        """The observation vector and action mask of ``seat`` (new arrays)."""
        vector = np.empty(self.size, np.float32)
        mask = np.empty(self.num_actions, np.int8)
        self._k.one_encode(self.row, self.layout, self.scores, seat, vector, mask)
        return vector, mask

    @property
    def to_act(self) -> int:
        return int(self.row[0, F_TO_ACT])

    @property
    def end(self) -> int:
        """LIVE, OVER or VOID."""
        return int(self.row[0, F_INFO + I_END])

    def points(self) -> list[int]:
        """Each seat's points in tenths once the deal is over (all 0 when void)."""
        row = self.row[0]
        if self.end != OVER:
            return [0] * PLAYERS
        return [int(self.scores[row[F_CALLS + seat], row[F_WON + seat]]) for seat in range(PLAYERS)]

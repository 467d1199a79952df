"""Fast policy playouts: the heuristic's rules of play, compiled, over sampled worlds.

The expert needs thousands of playouts a decision where a full solve does not
fit its budget: to choose a call (play each sampled world out once per
candidate call) and to score cards early in a deal (play each candidate card,
then the rest of the deal).  The heuristic bot in Python costs about a
millisecond a deal, so the same rules are written here in the subset of
Python that numba compiles, and built exactly as ``engine/kernel.py`` builds
its kernel: the engine's own ``tricks.legal_mask`` and ``tricks.beats`` are
jitted alongside, so a playout can never play an illegal card.

The policy is the heuristic's (``bots.heuristic``), card for card: win tricks
while the call is not made, with cards nobody still to play can beat when
there are some; once it is made, duck with the highest card that still
loses.  Each seat knows what the heuristic knows and no more: the cards it
cannot see (the others' hands together) and the voids shown so far, so the
playouts model the way heuristic players really play, not better.
Without numba the very same functions run as plain Python (for the tests).

``mixed_call_tricks`` and ``mixed_card_tricks`` let the other seats play
otherwise, each with a model drawn per world and seat (``choose_as``): the
heuristic, the heuristic playing a random legal card now and then
(``noise``), a trumper, a ducker and a greedy player (the styles of
``bots.styles``, rewritten here); the seat itself always plays the
heuristic.  The draws come from a 31-bit generator seeded per world, so
every card (or call) of a world faces the same models and the same random
moves, compiled or interpreted.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, NamedTuple

import numpy

from callbreak.bots.search import _core
from callbreak.cards import RANK_COUNT, SUIT_MASKS
from callbreak.engine import tricks
from callbreak.engine.tricks import ALWAYS

PLAYERS = 4


@dataclass(frozen=True)
class Rollouts:
    """The entry points, compiled or not (see each function's docstring)."""

    call_tricks: Callable[..., Any]
    card_tricks: Callable[..., Any]
    surprises: Callable[..., Any]
    compiled: bool
    mixed_call_tricks: Callable[..., Any]
    mixed_card_tricks: Callable[..., Any]


Kernel = Callable[..., Any]
"""A function of the playouts: compiled by the ``jit`` a builder is given, or plain Python."""


class _Cards(NamedTuple):
    """The card kernels the policies are written with (the engine's ``legal_mask`` and
    ``beats`` among them)."""

    legal_mask: Kernel
    beats: Kernel
    top: Callable[[int], int]
    count: Callable[[int], int]
    low: Callable[[int], int]
    lowest_rank: Callable[[int], int]
    highest_rank: Callable[[int], int]
    is_boss: Callable[[int, int], bool]
    holds: Callable[[int, int, Any, int, int], bool]


class _Play(NamedTuple):
    """The heuristic's card (``choose``), the generator (``draw``, ``pick``) and ``place``."""

    choose: Callable[..., int]
    draw: Callable[[Any], float]
    pick: Callable[[Any, Any], int]
    place: Callable[..., tuple[int, int, int]]


# The builders below make the playouts in stages, each kernel closing over the jitted
# kernels of the stages before it, so that one source runs compiled or as plain Python.


def _card_kernels(jit: Callable[[Any], Any]) -> _Cards:
    legal_mask = jit(tricks.legal_mask)
    beats = jit(tricks.beats)

    top: Callable[[int], int] = jit(_core.top_card)
    count: Callable[[int], int] = jit(_core.popcount)

    def low(mask: int) -> int:
        return top(mask & -mask)

    low = jit(low)

    def lowest_rank(mask: int) -> int:
        """The card of lowest rank in a non-empty ``mask`` (the first suit's on ties)."""
        best = -1
        while mask:
            c = low(mask)
            mask ^= 1 << c
            if best < 0 or c % RANK_COUNT < best % RANK_COUNT:
                best = c
        return best

    def highest_rank(mask: int) -> int:
        """The card of highest rank in a non-empty ``mask`` (the first suit's on ties)."""
        best = -1
        while mask:
            c = low(mask)
            mask ^= 1 << c
            if best < 0 or c % RANK_COUNT > best % RANK_COUNT:
                best = c
        return best

    lowest_rank = jit(lowest_rank)
    highest_rank = jit(highest_rank)

    def is_boss(card: int, unseen: int) -> bool:
        """No card the seat cannot see ranks above ``card`` in its suit."""
        return (unseen & SUIT_MASKS[card // RANK_COUNT]) >> (card + 1) == 0

    is_boss = jit(is_boss)

    def holds(card: int, unseen: int, voids: Any, later: int, trump: int) -> bool:
        """Whether ``card`` will still win once the seats in ``later`` (a bit mask) have
        played, as far as the seat can tell: ``Knowledge.holds``."""
        suit = card // RANK_COUNT
        if (unseen & SUIT_MASKS[suit]) >> (card + 1):
            if suit == trump:
                return False
            for p in range(PLAYERS):
                if (later >> p) & 1 and not (voids[p] >> suit) & 1:
                    return False
        if suit == trump or trump < 0 or not unseen & SUIT_MASKS[trump]:
            return True
        shown = 0  # the later seats void in the suit
        for p in range(PLAYERS):
            if (later >> p) & 1 and (voids[p] >> suit) & 1:
                shown += 1
        return shown == 0

    holds = jit(holds)

    return _Cards(legal_mask, beats, top, count, low, lowest_rank, highest_rank, is_boss, holds)


def _lead_kernel(jit: Callable[[Any], Any], k: _Cards) -> Callable[..., int]:
    """The heuristic's lead (``HeuristicBot._lead``)."""
    top, count, low, lowest_rank, is_boss = k.top, k.count, k.low, k.lowest_rank, k.is_boss

    def lead(
        hand: int, unseen: int, voids: Any, seat: int, legal: int, need: int, trump: int
    ) -> int:
        tmask = SUIT_MASKS[trump] if trump >= 0 else 0
        side = legal & ~tmask
        if need > 0:
            trumps_out = unseen & tmask
            m = side
            while m:
                c = top(m)
                m ^= 1 << c
                if not is_boss(c, unseen):
                    continue
                suit = c // RANK_COUNT
                safe = True
                if trumps_out:
                    for p in range(PLAYERS):
                        if p != seat and (voids[p] >> suit) & 1:
                            safe = False
                if safe:
                    return c
            m = legal & tmask
            if m and is_boss(top(m), unseen):
                return top(m)
            if side:
                # low from the longest side suit: set up its winners, keep the trumps
                best = -1
                best_len = -1
                for suit in range(4):
                    held = side & SUIT_MASKS[suit]
                    if held:
                        n = count(hand & SUIT_MASKS[suit])
                        lower = low(held) % RANK_COUNT < best % RANK_COUNT
                        if n > best_len or (n == best_len and lower):
                            best = low(held)
                            best_len = n
                return best
            return low(legal)
        # call made: lead the card least likely to win
        pool = 0
        m = side
        while m:
            c = top(m)
            m ^= 1 << c
            if not is_boss(c, unseen):
                pool |= 1 << c
        if not pool:
            pool = side if side else legal
        return lowest_rank(pool)

    lead = jit(lead)
    return lead


def _follow_kernel(jit: Callable[[Any], Any], k: _Cards) -> Callable[..., int]:
    """The heuristic's card to a trick led by another seat (``HeuristicBot._follow``)."""
    beats, top, count, low, holds = k.beats, k.top, k.count, k.low, k.holds
    lowest_rank, highest_rank = k.lowest_rank, k.highest_rank

    def follow(
        hand: int,
        unseen: int,
        voids: Any,
        legal: int,
        need: int,
        trump: int,
        win: int,
        later: int,
    ) -> int:
        """``later`` is a bit mask of the seats still to play to this trick."""
        tmask = SUIT_MASKS[trump] if trump >= 0 else 0
        winners = 0
        m = legal
        while m:
            c = low(m)
            m ^= 1 << c
            if beats(c, win, trump):
                winners |= 1 << c
        if need > 0 and winners:
            if later == 0:
                side = winners & ~tmask
                return low(side) if side else low(winners)
            safe = 0
            m = winners
            while m:
                c = low(m)
                m ^= 1 << c
                if holds(c, unseen, voids, later, trump):
                    safe |= 1 << c
            if safe:
                side = safe & ~tmask
                return low(side) if side else low(safe)
            side = winners & ~tmask
            if not side:
                return low(winners)
            return top(side)
        losers = legal & ~winners
        if need <= 0:
            if losers:
                side = losers & ~tmask
                return highest_rank(side if side else losers)
            return lowest_rank(winners) if later else top(winners)
        # cannot win: the lowest side card, from the shortest suit on ties
        pool = losers & ~tmask
        if not pool:
            pool = losers if losers else legal
        best = -1
        m = pool
        while m:
            c = low(m)
            m ^= 1 << c
            if best < 0:
                best = c
                continue
            r = c % RANK_COUNT
            rb = best % RANK_COUNT
            if r < rb or (
                r == rb
                and count(hand & SUIT_MASKS[c // RANK_COUNT])
                < count(hand & SUIT_MASKS[best // RANK_COUNT])
            ):
                best = c
        return best

    follow = jit(follow)
    return follow


def _play_kernels(
    jit: Callable[[Any], Any], k: _Cards, lead: Callable[..., int], follow: Callable[..., int]
) -> _Play:
    """The heuristic's card for any seat (``choose``), the generator and ``place``."""
    legal_mask, beats, low = k.legal_mask, k.beats, k.low

    def choose(
        rules: Any,
        hands: Any,
        p: int,
        n: int,
        leader: int,
        led: int,
        win: int,
        need: int,
        voids: Any,
        first_trick: bool,
        trump_played: bool,
    ) -> int:
        """The card seat ``p`` plays as the ``n``-th card of a trick led by ``leader`` (the
        suit ``led``, ``win`` winning so far), ``need`` tricks short of its call, knowing
        only its own hand (of ``hands``), the cards it cannot see and the ``voids`` shown."""
        trump = rules.trump
        hand = int(hands[p])  # a plain int when interpreted: 64-bit tricks stay quiet
        legal = legal_mask(rules, hand, led, win, first_trick, trump_played)
        if legal & (legal - 1) == 0:
            return low(legal)
        unseen = int(hands[0] | hands[1] | hands[2] | hands[3]) & ~hand
        if n == 0:
            return lead(hand, unseen, voids, p, legal, need, trump)
        later = 0
        for k in range(n + 1, PLAYERS):
            later |= 1 << ((leader + k) % PLAYERS)
        return follow(hand, unseen, voids, legal, need, trump, win, later)

    choose = jit(choose)

    def draw(rng: Any) -> float:
        """A uniform number in [0, 1) from the 31-bit generator state ``rng[0]``."""
        x = (int(rng[0]) * 1103515245 + 12345) & 0x7FFFFFFF
        rng[0] = x
        return x / 2147483648.0

    draw = jit(draw)

    def pick(models: Any, rng: Any) -> int:
        """A play model drawn with the weights ``models`` (summing to more than 0)."""
        total = 0.0
        for k in range(models.shape[0]):
            total += models[k]
        u = draw(rng) * total
        for k in range(models.shape[0]):
            u -= models[k]
            if u < 0:
                return k
        return 0

    pick = jit(pick)

    def place(
        rules: Any,
        hands: Any,
        voids: Any,
        p: int,
        n: int,
        c: int,
        led: int,
        win: int,
        win_seat: int,
    ) -> tuple[int, int, int]:
        """Seat ``p`` plays ``c`` as the ``n``-th card of the trick: out of its hand, the
        void it shows recorded; returns the suit led and the winning card and seat."""
        trump = rules.trump
        hands[p] ^= 1 << c
        suit = c // RANK_COUNT
        if n > 0 and suit != led:
            voids[p] |= 1 << led
            if rules.must_trump == ALWAYS and trump >= 0 and suit != trump:
                voids[p] |= 1 << trump
        if n == 0:
            return suit, c, p
        if beats(c, win, trump):
            return led, c, p
        return led, win, win_seat

    place = jit(place)
    return _Play(choose, draw, pick, place)


def _model_kernel(jit: Callable[[Any], Any], k: _Cards, play: _Play) -> Callable[..., int]:
    """``choose_as``: the card of a seat of any play model (``MODELS``)."""
    legal_mask, beats, top, count, low = k.legal_mask, k.beats, k.top, k.count, k.low
    is_boss, holds = k.is_boss, k.holds
    choose, draw = play.choose, play.draw

    def choose_as(
        style: int,
        noise: float,
        rng: Any,
        rules: Any,
        hands: Any,
        p: int,
        n: int,
        leader: int,
        led: int,
        win: int,
        need: int,
        voids: Any,
        first_trick: bool,
        trump_played: bool,
    ) -> int:
        """``choose`` for a seat of another play model (``MODELS``): the heuristic (0), the
        heuristic playing a random legal card with probability ``noise`` (1), a trumper (2),
        a ducker (3), or a greedy player who never stops taking tricks (4)."""
        if style == 0:
            return choose(
                rules, hands, p, n, leader, led, win, need, voids, first_trick, trump_played
            )
        trump = rules.trump
        hand = int(hands[p])
        legal = int(legal_mask(rules, hand, led, win, first_trick, trump_played))
        if legal & (legal - 1) == 0:
            return low(legal)
        if style == 1:
            if draw(rng) < noise:
                k = int(draw(rng) * count(legal))
                m = legal
                while k > 0:
                    m ^= 1 << low(m)
                    k -= 1
                return low(m)
        elif style == 2 and trump >= 0:
            tmask = SUIT_MASKS[trump]
            if n == 0:
                unseen = int(hands[0] | hands[1] | hands[2] | hands[3]) & ~hand
                trumps = legal & tmask
                if trumps and unseen & tmask:
                    if is_boss(top(trumps), unseen):
                        return top(trumps)
                    return low(trumps)
            elif led != trump and not hand & SUIT_MASKS[led]:
                m = legal & tmask
                while m:
                    c = low(m)
                    m ^= 1 << c
                    if beats(c, win, trump):
                        return c
        elif style == 3 and need > 0:
            tmask = SUIT_MASKS[trump] if trump >= 0 else 0
            unseen = int(hands[0] | hands[1] | hands[2] | hands[3]) & ~hand
            if n == 0:
                best = -1
                best_key = -1
                m = legal
                while m:
                    c = low(m)
                    m ^= 1 << c
                    if not is_boss(c, unseen):
                        continue
                    suit = c // RANK_COUNT
                    ok = suit == trump or trump < 0 or not unseen & tmask
                    if not ok:
                        ok = True
                        for q in range(PLAYERS):
                            if q != p and (voids[q] >> suit) & 1:
                                ok = False
                    key = c + (64 if suit != trump else 0)  # side suits first, then high
                    if ok and key > best_key:
                        best = c
                        best_key = key
                if best >= 0:
                    return best
            else:
                later = 0
                for k in range(n + 1, PLAYERS):
                    later |= 1 << ((leader + k) % PLAYERS)
                sure = -1
                m = legal
                while m:
                    c = low(m)
                    m ^= 1 << c
                    if not beats(c, win, trump) or (
                        later and not holds(c, unseen, voids, later, trump)
                    ):
                        continue
                    if sure < 0 or (sure // RANK_COUNT == trump and c // RANK_COUNT != trump):
                        sure = c
                if sure >= 0:
                    return sure
            side = legal & ~tmask if n == 0 else legal
            pool = side if side else legal
            best = -1
            m = pool
            while m:
                c = low(m)
                m ^= 1 << c
                if best < 0:
                    best = c
                    continue
                kc = c % RANK_COUNT + (16 if c // RANK_COUNT == trump else 0)
                kb = best % RANK_COUNT + (16 if best // RANK_COUNT == trump else 0)
                if kc < kb or (
                    kc == kb
                    and count(hand & SUIT_MASKS[c // RANK_COUNT])
                    < count(hand & SUIT_MASKS[best // RANK_COUNT])
                ):
                    best = c
            return best
        elif style == 4 and need < 1:
            need = 1
        return choose(rules, hands, p, n, leader, led, win, need, voids, first_trick, trump_played)

    choose_as = jit(choose_as)
    return choose_as


def _playout_kernels(
    jit: Callable[[Any], Any], k: _Cards, play: _Play, choose_as: Kernel
) -> tuple[Kernel, Kernel]:
    """``play_out`` (a deal from the trick in progress to its end) and ``seat_models``."""
    beats = k.beats
    draw, pick, place = play.draw, play.pick, play.place

    def play_out(
        rules: Any,
        hands: Any,
        leader: int,
        trick: Any,
        ncards: int,
        won: Any,
        calls: Any,
        trump_played: bool,
        first_trick: bool,
        voids: Any,
        seat: int,
        styles: Any,
        noise: float,
        rng: Any,
    ) -> int:
        """Play from the trick in progress (``trick[:ncards]`` led by ``leader``) to the
        end; ``hands``, ``won`` and the shown ``voids`` (4-bit suit sets by seat) are
        changed in place.  Returns ``seat``'s final tricks."""
        trump = rules.trump
        led = -1
        win = -1
        win_seat = -1
        for i in range(ncards):
            c = trick[i]
            p = (leader + i) % PLAYERS
            if i == 0:
                led = c // RANK_COUNT
                win = c
                win_seat = p
            elif beats(c, win, trump):
                win = c
                win_seat = p
        n = ncards
        while hands[0] | hands[1] | hands[2] | hands[3]:
            while n < PLAYERS:
                p = (leader + n) % PLAYERS
                c = choose_as(
                    styles[p],
                    noise,
                    rng,
                    rules,
                    hands,
                    p,
                    n,
                    leader,
                    led,
                    win,
                    calls[p] - won[p],
                    voids,
                    first_trick,
                    trump_played,
                )
                led, win, win_seat = place(rules, hands, voids, p, n, c, led, win, win_seat)
                trump_played = trump_played or c // RANK_COUNT == trump
                n += 1
            won[win_seat] += 1
            leader = win_seat
            first_trick = False
            n = 0
            led = -1
            win = -1
        return int(won[seat])

    play_out = jit(play_out)

    def seat_models(models: Any, seed: int, i: int, seat: int, styles: Any, rng: Any) -> None:
        """Draw world ``i``'s play model for each seat but ``seat`` (which plays the
        heuristic) into ``styles``, and seed ``rng`` for the world's noisy moves."""
        rng[0] = (seed + 1 + i * 40503) & 0x7FFFFFFF
        for p in range(PLAYERS):
            styles[p] = 0 if p == seat else pick(models, rng)
        draw(rng)

    seat_models = jit(seat_models)
    return play_out, seat_models


def _call_entries(
    jit: Callable[[Any], Any], play_out: Kernel, seat_models: Kernel
) -> tuple[Kernel, Kernel]:
    """The entry points for a call: ``call_tricks`` and ``mixed_call_tricks``, jitted."""

    def mixed_call_tricks(
        rules: Any,
        worlds: Any,
        leader: int,
        calls: Any,
        voids0: Any,
        seat: int,
        lo: int,
        out: Any,
        models: Any,
        noise: float,
        seed: int,
    ) -> None:
        """``call_tricks`` with the other seats playing models drawn per world and seat
        with the weights ``models`` (see ``choose_as``; ``noise`` for model 1), from the
        generator seeded by ``seed``: every call of a world faces the same models."""
        styles = calls[0].copy()
        rng = calls[0][:1].copy()
        trick = worlds[0].copy()
        voids = voids0.copy()
        hands = worlds[0].copy()
        won = worlds[0].copy()
        want = calls[0].copy()
        for i in range(worlds.shape[0]):
            seat_models(models, seed, i, seat, styles, rng)
            start = rng[0]
            for k in range(out.shape[1]):
                for p in range(PLAYERS):
                    hands[p] = worlds[i, p]
                    won[p] = 0
                    want[p] = calls[i, p]
                    voids[p] = voids0[p]
                want[seat] = lo + k
                rng[0] = start
                play_out(
                    rules,
                    hands,
                    leader,
                    trick,
                    0,
                    won,
                    want,
                    False,
                    True,
                    voids,
                    seat,
                    styles,
                    noise,
                    rng,
                )
                for p in range(PLAYERS):
                    out[i, k, p] = won[p]

    mixed_call_tricks = jit(mixed_call_tricks)

    def call_tricks(
        rules: Any, worlds: Any, leader: int, calls: Any, voids0: Any, seat: int, lo: int, out: Any
    ) -> None:
        """Deals played out from the first lead: ``worlds[i]`` holds the four hands,
        ``calls[i]`` the four calls; ``out[i, k, p]`` gets seat ``p``'s tricks when
        ``seat`` calls ``lo + k`` (the call changes how it plays: it ducks once it is made).
        ``voids0`` holds the voids known before the first lead (declared ones)."""
        models = numpy.ones(1)
        mixed_call_tricks(rules, worlds, leader, calls, voids0, seat, lo, out, models, 0.0, 0)

    return jit(call_tricks), mixed_call_tricks


def _card_entries(
    jit: Callable[[Any], Any], k: _Cards, play_out: Kernel, seat_models: Kernel
) -> tuple[Kernel, Kernel]:
    """The entry points for a card: ``card_tricks`` and ``mixed_card_tricks``, jitted."""
    beats = k.beats

    def mixed_card_tricks(
        rules: Any,
        worlds: Any,
        leader: int,
        trick: Any,
        ncards: int,
        won0: Any,
        calls: Any,
        trump_played: bool,
        first_trick: bool,
        voids0: Any,
        seat: int,
        cards: Any,
        out: Any,
        models: Any,
        noise: float,
        seed: int,
    ) -> None:
        """``card_tricks`` with the other seats playing models drawn per world and seat
        (as ``mixed_call_tricks``): every card of a world faces the same models."""
        styles = calls.copy()
        rng = calls[:1].copy()
        trump = rules.trump
        voids = voids0.copy()
        hands = worlds[0].copy()
        won = won0.copy()
        now = trick.copy()
        for i in range(worlds.shape[0]):
            seat_models(models, seed, i, seat, styles, rng)
            start = rng[0]
            for j in range(cards.shape[0]):
                rng[0] = start
                for p in range(PLAYERS):
                    hands[p] = worlds[i, p]
                    won[p] = won0[p]
                    voids[p] = voids0[p]
                for k in range(ncards):
                    now[k] = trick[k]
                c = cards[j]
                hands[seat] ^= 1 << c
                if ncards > 0 and c // RANK_COUNT != now[0] // RANK_COUNT:
                    voids[seat] |= 1 << (now[0] // RANK_COUNT)
                    if rules.must_trump == ALWAYS and trump >= 0 and c // RANK_COUNT != trump:
                        voids[seat] |= 1 << trump
                now[ncards] = c
                tp = trump_played or c // RANK_COUNT == trump
                if ncards == PLAYERS - 1:
                    # the card ends the trick: score it, then play on from the next lead
                    w = now[0]
                    ws = (seat + 1) % PLAYERS
                    for k in range(1, PLAYERS):
                        if beats(now[k], w, trump):
                            w = now[k]
                            ws = (seat + 1 + k) % PLAYERS
                    won[ws] += 1
                    play_out(
                        rules,
                        hands,
                        ws,
                        now,
                        0,
                        won,
                        calls,
                        tp,
                        False,
                        voids,
                        seat,
                        styles,
                        noise,
                        rng,
                    )
                else:
                    play_out(
                        rules,
                        hands,
                        leader,
                        now,
                        ncards + 1,
                        won,
                        calls,
                        tp,
                        first_trick,
                        voids,
                        seat,
                        styles,
                        noise,
                        rng,
                    )
                for p in range(PLAYERS):
                    out[i, j, p] = won[p]

    mixed_card_tricks = jit(mixed_card_tricks)

    def card_tricks(
        rules: Any,
        worlds: Any,
        leader: int,
        trick: Any,
        ncards: int,
        won0: Any,
        calls: Any,
        trump_played: bool,
        first_trick: bool,
        voids0: Any,
        seat: int,
        cards: Any,
        out: Any,
    ) -> None:
        """Each of ``cards`` played by ``seat`` to the trick in progress in each world,
        then the deal played out: ``out[i, j, p]`` gets seat ``p``'s final tricks.
        ``voids0`` holds the voids the public record shows so far (4-bit suit sets)."""
        models = numpy.ones(1)
        mixed_card_tricks(
            rules,
            worlds,
            leader,
            trick,
            ncards,
            won0,
            calls,
            trump_played,
            first_trick,
            voids0,
            seat,
            cards,
            out,
            models,
            0.0,
            0,
        )

    return jit(card_tricks), mixed_card_tricks


def _surprises_entry(jit: Callable[[Any], Any], k: _Cards, play: _Play) -> Kernel:
    """The entry point that weighs worlds by the others' play: ``surprises``, jitted."""
    legal_mask, count = k.legal_mask, k.count
    choose, place = play.choose, play.place

    def surprises(
        rules: Any,
        worlds: Any,
        played_by: Any,
        history: Any,
        nplayed: int,
        leader: int,
        calls: Any,
        voids0: Any,
        seat: int,
        keep: float,
        out: Any,
        model_logs: Any,
        random_logs: Any,
    ) -> None:
        """How many of each other seat's cards so far the policy would not have played, had
        the hands been those of ``worlds[i]``: ``out[i, p]``; and the log likelihood of
        the seat's cards in that world under two models of it, ``model_logs[i, p]`` for
        "plays the policy's card with probability ``keep``, else any legal card" and
        ``random_logs[i, p]`` for "any legal card" (``sampler``'s ``trust`` mixes them).

        The deal is replayed from the first lead: ``history[:nplayed]`` holds the
        cards in the order played, ``played_by[p]`` the cards seat ``p`` played (so
        ``worlds[i, p] | played_by[p]`` is its hand as dealt), ``voids0`` the voids
        declared before play.  ``seat``'s own cards are not counted.
        """
        trump = rules.trump
        hands = worlds[0].copy()
        won = calls.copy()
        voids = voids0.copy()
        for i in range(worlds.shape[0]):
            for p in range(PLAYERS):
                hands[p] = worlds[i, p] | played_by[p]
                won[p] = 0
                voids[p] = voids0[p]
                out[i, p] = 0
                model_logs[i, p] = 0.0
                random_logs[i, p] = 0.0
            first_trick = True
            trump_played = False
            n = 0
            lead_seat = leader
            led = -1
            win = -1
            win_seat = -1
            for k in range(nplayed):
                c = history[k]
                p = (lead_seat + n) % PLAYERS
                if p != seat:
                    choice = choose(
                        rules,
                        hands,
                        p,
                        n,
                        lead_seat,
                        led,
                        win,
                        calls[p] - won[p],
                        voids,
                        first_trick,
                        trump_played,
                    )
                    options = count(
                        legal_mask(rules, hands[p], led, win, first_trick, trump_played)
                    )
                    spread = (1.0 - keep) / options
                    random_logs[i, p] -= math.log(options)
                    if choice != c:
                        out[i, p] += 1
                        model_logs[i, p] += math.log(spread) if spread > 0 else -1e9
                    else:
                        model_logs[i, p] += math.log(keep + spread)
                led, win, win_seat = place(rules, hands, voids, p, n, c, led, win, win_seat)
                trump_played = trump_played or c // RANK_COUNT == trump
                n += 1
                if n == PLAYERS:
                    won[win_seat] += 1
                    lead_seat = win_seat
                    first_trick = False
                    n = 0
                    led = -1
                    win = -1

    entry: Kernel = jit(surprises)
    return entry


def _build(jit: Callable[[Any], Any]) -> Rollouts:
    cards = _card_kernels(jit)
    play = _play_kernels(jit, cards, _lead_kernel(jit, cards), _follow_kernel(jit, cards))
    play_out, seat_models = _playout_kernels(jit, cards, play, _model_kernel(jit, cards, play))
    call_tricks, mixed_call_tricks = _call_entries(jit, play_out, seat_models)
    card_tricks, mixed_card_tricks = _card_entries(jit, cards, play_out, seat_models)
    return Rollouts(
        call_tricks,
        card_tricks,
        _surprises_entry(jit, cards, play),
        compiled=jit is not _identity,
        mixed_call_tricks=mixed_call_tricks,
        mixed_card_tricks=mixed_card_tricks,
    )


def _identity(function: Any) -> Any:
    return function


_COMPILED: Rollouts | None = None


@functools.cache
def interpreted() -> Rollouts:
    """The playouts as plain Python (numpy arrays in, same results as compiled)."""
    return _build(_identity)


def compiled() -> Rollouts:
    """The playouts compiled by numba, once per process and kept on disk (``jitcache``:
    a later process loads them in about a second instead of compiling for 15 to 30);
    ImportError without numba."""
    global _COMPILED
    if _COMPILED is None:
        import sys

        from callbreak import cards
        from callbreak.bots.search import jitcache

        _COMPILED = _build(jitcache.njit((_core, tricks, cards, sys.modules[__name__])))
    return _COMPILED

"""Belief sampling: deal the unseen cards to the other seats as the public record allows.

From an ``Observation`` alone (never a ``Deal``: docs/design.md's first wall) this
module works out, for every other seat, which unseen cards it may still hold
and how many, and then deals worlds at random among the deals that fit:

* **Hard facts** become a mask of cards per seat (``Constraints.allowed``):
  voids shown (it did not follow suit), ``must_overtake`` ("it followed low
  while it could not have held a higher card of the suit"), ``must_trump`` ("it
  did not ruff, or ruffed low, so it held no spade above the winning one; under
  ``always`` no spade at all"), ``no_waste_trump``, the lead rules
  (``spades_broken``, ``no_spade_lead_first_trick``: a spade led early means it
  held nothing else), and declared voids.  Every such fact is about the hand
  at the time of the card, which is the hand now plus cards played later, so
  the fact holds for the hand now.
* **Facts about the hand as dealt** (dealt = held now + played since): the
  misdeal rule (``misdeal=auto`` and a seat that was never offered a misdeal
  under ``claim``: it held a spade and an honour of ``misdeal_faces``;
  ``misdeal_no_spade``: a spade; a declared void list names *all* the voids,
  so every other suit was held) become "holds at least one of these cards now"
  unless the cards it played already show it; a seat that *declined* a
  misdeal held no spade or no honour, an either-or.
* **Calls are soft evidence**: a world is weighted by how likely each other
  seat's call is for the hand it was dealt there, a Gaussian in the distance
  between the call and ``trickplay.estimate_tricks`` of that hand.
* **The play is soft evidence too** (``WorldSampler(surprise=...)``): a world
  loses weight for every card another seat played that the heuristic policy
  would not have played with the hand it holds there, and each batch is
  resampled from many candidates by weight (``rollout.surprises``).

Sampling is exact for the masks: cards are grouped by the set of seats that
may hold them, a small dynamic programme counts the deals (product of
multinomials over the groups), and a deal is drawn uniformly among them.  The
"at least one" facts are enforced by rejection (still uniform); only when
they are so tight that rejection keeps failing does the sampler place one
card per fact first (consistent, slightly non-uniform).  An either-or picks a
branch in proportion to its number of deals and keeps the world with
probability one over the number of branches it satisfies, which is uniform
over the union.  Where numba is installed, ``belief`` deals and weighs the
candidates compiled, from the same counting tables.
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence
from dataclasses import dataclass, replace
from itertools import product
from typing import Any

from callbreak.bots.search.world import World, world_from_observation
from callbreak.cards import DECK_SIZE, FULL_DECK, RANK_COUNT, RANKS, SUIT_MASKS, SUITS, parse_card
from callbreak.engine.observation import Observation
from callbreak.engine.tricks import beats
from callbreak.rules import Rules

REJECTION_TRIES = 200
"""Draws per world before the sampler places a card for each "at least one" fact itself."""


@dataclass(frozen=True)
class Constraints:
    """What the public record says about the hidden hands, seen from ``seat``.

    ``counts[s]`` cards are in seat ``s``'s hand now, all of them from
    ``allowed[s]`` (for the observing seat, its own hand).  ``must_hold[s]``
    lists card sets of which ``s`` holds at least one now; ``either_lacks[s]``
    lists pairs ``(a, b)``: ``s`` holds no card of ``a`` or no card of ``b``.
    ``played_by[s]`` are the cards ``s`` has played (its dealt hand is those
    plus its hand now).
    """

    seat: int
    hand: int
    unseen: int
    counts: tuple[int, ...]
    allowed: tuple[int, ...]
    must_hold: tuple[tuple[int, ...], ...]
    either_lacks: tuple[tuple[tuple[int, int], ...], ...]
    played_by: tuple[int, ...]

    def satisfied_by(self, hands: Sequence[int]) -> bool:
        """Whether hands (by seat) meet every constraint (the observing seat's included)."""
        seen = 0
        for s, hand in enumerate(hands):
            if hand.bit_count() != self.counts[s] or hand & ~self.allowed[s] or hand & seen:
                return False
            seen |= hand
            if any(not hand & need for need in self.must_hold[s]):
                return False
            if any(hand & a and hand & b for a, b in self.either_lacks[s]):
                return False
        return seen == self.unseen | self.hand


def _faces_mask(faces: str) -> int:
    mask = 0
    for letter in faces:
        rank = RANKS.index(letter)
        for suit in range(4):
            mask |= 1 << (suit * RANK_COUNT + rank)
    return mask


def constraints(observation: Observation) -> Constraints:
    """Every fact the public record gives about the hidden hands (see the module docstring)."""
    obs = observation
    rules = obs.rules
    n = obs.players
    me = obs.seat
    trump = rules.trump_suit
    tmask = SUIT_MASKS[trump] if trump >= 0 else 0
    unseen = FULL_DECK & ~obs.hand_mask & ~obs.played_mask
    allowed = [unseen] * n
    allowed[me] = obs.hand_mask
    played_by = [0] * n
    trump_played = False
    tricks = [*obs.history, obs.trick]
    for number, trick in enumerate(tricks):
        cards = [parse_card(c) for c in trick.cards]
        seats = trick.seats(n)
        led = win = -1
        for p, card in zip(seats, cards, strict=False):
            played_by[p] |= 1 << card
            suit = card // RANK_COUNT
            if win < 0:
                led, win = suit, card
                if (
                    suit == trump
                    and p != me
                    and (
                        (rules.spades_broken and not trump_played)
                        or (rules.no_spade_lead_first_trick and number == 0)
                    )
                ):
                    allowed[p] &= tmask  # a trump lead was allowed only from a hand of trumps
            else:
                if p != me:
                    allowed[p] &= ~_excluded_by_play(rules, card, led, win)
                if beats(card, win, trump):
                    win = card
            if suit == trump:
                trump_played = True
    for p, letters in enumerate(obs.declared_voids):
        if p != me:
            for letter in letters:
                allowed[p] &= ~SUIT_MASKS[SUITS.index(letter)]
    counts = [rules.hand_size - played_by[p].bit_count() for p in range(n)]
    must_hold: list[list[int]] = [[] for _ in range(n)]
    either_lacks: list[list[tuple[int, int]]] = [[] for _ in range(n)]
    faces = _faces_mask(rules.misdeal_faces)
    past_misdeal = obs.phase not in ("misdeal",)
    claimed = {s: c for s, c in obs.misdeal_claims}
    for p in range(n):
        if p == me:
            continue
        dealt_facts: list[int] = []
        if rules.misdeal_no_spade and tmask:
            dealt_facts.append(tmask)
        if rules.misdeal == "auto" or (
            rules.misdeal == "claim" and past_misdeal and p not in claimed
        ):
            dealt_facts += [tmask, faces] if tmask else [faces]
        if letters := obs.declared_voids[p]:
            void = {SUITS.index(letter) for letter in letters}
            dealt_facts += [SUIT_MASKS[s] for s in range(4) if s not in void]
        for need in dealt_facts:
            if need and not played_by[p] & need and need & unseen not in must_hold[p]:
                must_hold[p].append(need & unseen)
        if rules.misdeal == "claim" and claimed.get(p) is False and tmask:
            # It qualified: it was dealt no spade, or no honour; a card it played or must
            # hold may rule one of the two out.
            no_spade = not played_by[p] & tmask and not any(
                need & tmask == need for need in must_hold[p]
            )
            no_face = not played_by[p] & faces and not any(
                need & faces == need for need in must_hold[p]
            )
            if no_spade and no_face:
                either_lacks[p].append((tmask, faces))
            elif no_spade:
                allowed[p] &= ~tmask
            elif no_face:
                allowed[p] &= ~faces
    return Constraints(
        seat=me,
        hand=obs.hand_mask,
        unseen=unseen,
        counts=tuple(counts),
        allowed=tuple(allowed),
        must_hold=tuple(tuple(m) for m in must_hold),
        either_lacks=tuple(tuple(e) for e in either_lacks),
        played_by=tuple(played_by),
    )


def _excluded_by_play(rules: Rules, card: int, led: int, win: int) -> int:
    """Cards the seat cannot have held when it played ``card`` to a trick led in ``led`` and
    won so far by ``win`` (the inverse of ``tricks.legal_mask``, one fact at a time)."""
    trump = rules.trump_suit
    mode = rules.must_trump
    suit = card // RANK_COUNT
    win_suit = win // RANK_COUNT
    above_win = SUIT_MASKS[win_suit] & ~((2 << win) - 1)
    below_win = SUIT_MASKS[win_suit] & ((1 << win) - 1)
    if suit == led:
        if rules.must_overtake and win_suit == led and card < win:
            return above_win  # it followed low: it had no higher card of the suit
        return 0
    excluded = SUIT_MASKS[led]  # it did not follow: void in the suit led
    if trump < 0:
        return excluded
    tmask = SUIT_MASKS[trump]
    winning_trumps = above_win if win_suit == trump else tmask
    wins = suit == trump and beats(card, win, trump)
    if mode != "never" and not wins:
        excluded |= winning_trumps  # it did not ruff to win: it had no trump that would
        if mode == "always" and suit != trump:
            excluded |= tmask  # under always, any trump had to be played
    if (
        rules.no_waste_trump
        and win_suit == trump
        and suit == trump
        and card < win
        and mode != "always"
    ):
        excluded |= FULL_DECK & ~below_win  # a low ruff is allowed only from low trumps
    return excluded


# ---------------------------------------------------------------- exact uniform deals
class _Dealer:
    """Uniform random deals of the cards in ``allowed`` to seats with given counts.

    Cards are grouped by the set of seats that may hold them; ``ways[g]`` maps
    the counts given to each seat by the groups before ``g`` to the number of
    ways to get there (a product of multinomials), so a deal can be drawn
    group by group from the back, each split in proportion to its ways.
    """

    def __init__(self, seats: Sequence[int], counts: Sequence[int], allowed: Sequence[int]):
        self.seats = list(seats)
        self.counts = tuple(counts)
        k = len(self.seats)
        groups: dict[int, list[int]] = {}
        pool = 0
        for a in allowed:
            pool |= a
        for card in range(DECK_SIZE):
            if pool >> card & 1:
                holders = 0
                for i, a in enumerate(allowed):
                    if a >> card & 1:
                        holders |= 1 << i
                groups.setdefault(holders, []).append(card)
        self.groups = sorted(groups.items())
        self.splits = [
            _splits(len(cards), [i for i in range(k) if holders >> i & 1], self.counts)
            for holders, cards in self.groups
        ]
        ways: list[dict[tuple[int, ...], int]] = [{(0,) * k: 1}]
        for splits in self.splits:
            nxt: dict[tuple[int, ...], int] = {}
            for state, count in ways[-1].items():
                for split, mult in splits:
                    key = tuple(state[i] + split[i] for i in range(k))
                    if all(key[i] <= self.counts[i] for i in range(k)):
                        nxt[key] = nxt.get(key, 0) + count * mult
            ways.append(nxt)
        self.ways = ways
        self.total = ways[-1].get(self.counts, 0)

    def deal(self, rng: random.Random) -> list[int]:
        """One uniform deal: a mask per seat (in ``seats`` order)."""
        if self.total == 0:
            raise ValueError("no deal of the unseen cards fits the constraints")
        k = len(self.seats)
        hands = [0] * k
        state = self.counts
        for g in range(len(self.groups) - 1, -1, -1):
            cards = self.groups[g][1]
            before = self.ways[g]
            options = []
            for split, mult in self.splits[g]:
                prev = tuple(state[i] - split[i] for i in range(k))
                weight = before.get(prev, 0) * mult
                if weight:
                    options.append((weight, split, prev))
            _, split, prev = options[_pick([w for w, _, _ in options], rng)]
            shuffled = list(cards)
            rng.shuffle(shuffled)
            at = 0
            for i in range(k):
                for card in shuffled[at : at + split[i]]:
                    hands[i] |= 1 << card
                at += split[i]
            state = prev
        return hands


def _splits(n: int, members: list[int], counts: Sequence[int]) -> list[tuple[tuple[int, ...], int]]:
    """Ways to give ``n`` cards of a group to ``members``, none more than its count:
    ``(cards per seat, multinomial)``."""
    k = len(counts)
    out: list[tuple[tuple[int, ...], int]] = []

    def rec(j: int, left: int, split: list[int], mult: int) -> None:
        i = members[j]
        if j == len(members) - 1:
            if left <= counts[i]:
                split[i] = left
                out.append((tuple(split), mult))
                split[i] = 0
            return
        for x in range(min(left, counts[i]) + 1):
            split[i] = x
            rec(j + 1, left - x, split, mult * math.comb(left, x))
        split[i] = 0

    if not members:
        if n == 0:
            out.append(((0,) * k, 1))
        return out
    rec(0, n, [0] * k, 1)
    return out


# ---------------------------------------------------------------- the sampler
def call_likelihood(
    call: int, estimate: float, min_call: int, max_call: int, sigma: float
) -> float:
    """How likely a seat is to call ``call`` with a hand estimated at ``estimate`` tricks.

    A Gaussian in ``call - estimate``; the estimate is first clamped to the
    calls allowed, since a hand worth less than ``min_call`` still calls it.
    """
    est = min(max(estimate, min_call), max_call)
    return math.exp(-((call - est) ** 2) / (2 * sigma * sigma))


def sample_hands(
    observation: Observation, count: int, rng: random.Random, cons: Constraints | None = None
) -> list[list[int]]:
    """``count`` deals of the unseen cards that fit the public record: hands by seat (the
    observing seat's own hand included), uniform over the fitting deals (unweighted)."""
    return _HandSampler(constraints(observation) if cons is None else cons).draw(count, rng)


class _HandSampler:
    """Uniform deals for one set of constraints; the counting tables are built once.

    The "holds no card of both" facts split the deals into branches, one dealer
    each; a deal is drawn from a branch in proportion to its count and kept
    with probability one over the branches it satisfies, which makes the union
    uniform.
    """

    def __init__(self, cons: Constraints) -> None:
        others = [s for s in range(len(cons.counts)) if s != cons.seat]
        branch_sets = [
            list(product(*[(0, 1)] * len(cons.either_lacks[s]))) if cons.either_lacks[s] else [()]
            for s in others
        ]
        dealers: list[tuple[_Dealer, tuple[tuple[int, ...], ...]]] = []
        for choice in product(*branch_sets):
            allowed = []
            for s, picks in zip(others, choice, strict=True):
                mask = cons.allowed[s]
                for (a, b), pick in zip(cons.either_lacks[s], picks, strict=True):
                    mask &= ~(a if pick == 0 else b)
                allowed.append(mask)
            feasible = all(
                need & mask
                for s, mask in zip(others, allowed, strict=True)
                for need in cons.must_hold[s]
            )
            dealer = _Dealer(others, [cons.counts[s] for s in others], allowed)
            if feasible and dealer.total:
                dealers.append((dealer, choice))
        if not dealers:
            # Cannot happen for a record the engine produced; keep bots playing if it does.
            relaxed = [cons.unseen] * len(others)
            dealers = [(_Dealer(others, [cons.counts[s] for s in others], relaxed), ())]
            cons = Constraints(
                cons.seat,
                cons.hand,
                cons.unseen,
                cons.counts,
                tuple(
                    cons.unseen if s != cons.seat else cons.hand for s in range(len(cons.counts))
                ),
                tuple(() for _ in cons.counts),
                tuple(() for _ in cons.counts),
                cons.played_by,
            )
        self.cons = cons
        self.others = others
        self.dealers = dealers
        self.totals = [d.total for d, _ in dealers]

    def draw(self, count: int, rng: random.Random) -> list[list[int]]:
        cons, others, dealers = self.cons, self.others, self.dealers
        results: list[list[int]] = []
        while len(results) < count:
            dealer, _ = dealers[_pick(self.totals, rng)] if len(dealers) > 1 else dealers[0]
            hands = _draw(dealer, cons, others, rng)
            if len(dealers) > 1:
                # Uniform over a union of branches: keep with 1 / (branches this deal satisfies).
                fits = sum(
                    1
                    for _, choice in dealers
                    if all(
                        not hands[j] & (a if pick == 0 else b)
                        for j, (s, picks) in enumerate(zip(others, choice, strict=True))
                        for (a, b), pick in zip(cons.either_lacks[s], picks, strict=True)
                    )
                )
                if rng.random() * fits >= 1:
                    continue
            full = [0] * len(cons.counts)
            full[cons.seat] = cons.hand
            for s, hand in zip(others, hands, strict=True):
                full[s] = hand
            results.append(full)
        return results


def _pick(weights: Sequence[int], rng: random.Random) -> int:
    x = rng.randrange(sum(weights))
    for i, w in enumerate(weights):
        if x < w:
            return i
        x -= w
    return len(weights) - 1


def _draw(dealer: _Dealer, cons: Constraints, others: list[int], rng: random.Random) -> list[int]:
    """A deal meeting the "at least one" facts: by rejection, else by placing cards first."""
    needs = [(j, need) for j, s in enumerate(others) for need in cons.must_hold[s]]
    if not needs:
        return dealer.deal(rng)
    for _ in range(REJECTION_TRIES):
        hands = dealer.deal(rng)
        if all(hands[j] & need for j, need in needs):
            return hands
    return _forced_draw(dealer, cons, others, needs, rng)


def _forced_draw(
    dealer: _Dealer,
    cons: Constraints,
    others: list[int],
    needs: list[tuple[int, int]],
    rng: random.Random,
) -> list[int]:
    """Place one card for each unmet "at least one" fact, then deal the rest uniformly."""
    for _ in range(REJECTION_TRIES):
        allowed = [dealer_allowed for dealer_allowed in _allowed_of(dealer)]
        counts = list(dealer.counts)
        placed = [0] * len(others)
        ok = True
        for j, need in needs:
            if placed[j] & need:
                continue
            free = need & allowed[j]
            if not free or counts[j] == 0:
                ok = False
                break
            options = [c for c in range(DECK_SIZE) if free >> c & 1]
            card = rng.choice(options)
            placed[j] |= 1 << card
            counts[j] -= 1
            for i in range(len(allowed)):
                allowed[i] &= ~(1 << card)
        if not ok:
            continue
        rest = _Dealer(others, counts, allowed)
        if not rest.total:
            continue
        hands = rest.deal(rng)
        return [h | p for h, p in zip(hands, placed, strict=True)]
    raise ValueError("no deal of the unseen cards fits the public record")


def _allowed_of(dealer: _Dealer) -> list[int]:
    allowed = [0] * len(dealer.seats)
    for holders, cards in dealer.groups:
        for i in range(len(dealer.seats)):
            if holders >> i & 1:
                for card in cards:
                    allowed[i] |= 1 << card
    return allowed


def call_weight(
    observation: Observation, hands: Sequence[int], cons: Constraints, sigma: float = 1.5
) -> float:
    """Likelihood of the other seats' calls if they were dealt these hands."""
    from callbreak.bots.trickplay import estimate_tricks

    rules = observation.rules
    weight = 1.0
    for s, call in enumerate(observation.calls):
        if s == cons.seat or call is None:
            continue
        dealt = hands[s] | cons.played_by[s]
        estimate = estimate_tricks(dealt, rules.trump_suit)
        weight *= call_likelihood(call, estimate, rules.min_call, rules.max_call, sigma)
    return weight


def sample_worlds(
    observation: Observation,
    count: int,
    rng: random.Random,
    *,
    sigma: float | None = 1.5,
) -> list[World]:
    """``count`` worlds that fit ``observation``, each weighted by the other seats' calls.

    The worlds are drawn uniformly among the deals that fit the public
    record; ``World.weight`` is then the likelihood of the calls made, a
    product of ``call_likelihood`` terms in (0, 1] (``sigma`` their spread;
    ``None`` ignores calls).  Weights are not normalised, so worlds from
    several calls for the same observation can be pooled: weigh each by
    ``weight`` and divide by the sum.  To draw many times for one
    observation, make a ``WorldSampler`` once instead.
    """
    return WorldSampler(observation, sigma=sigma).draw(count, rng)


class WorldSampler:
    """``sample_worlds`` for one observation, drawn as often as wanted: the constraints
    and the counting tables (most of the cost of a small draw) are built once.

    ``surprise`` in (0, 1) also weighs each world by how well it explains the
    cards the others have played: a factor ``surprise`` for every card the
    heuristic policy (``search.rollout``) would not have played there with that
    hand.  A world in which the others' play looks sensible is likelier than one
    in which it looks random, and a world in which *nobody* erred is likeliest
    when the others play much as the heuristic does.  With it, each draw of
    ``count`` worlds is picked from ``oversample`` times as many candidates in
    proportion to their weights (so the worlds returned weigh 1 each): most
    candidates explain the play badly, and weighing them all would leave few
    worlds that count.  ``None`` (or 1) ignores the play.

    ``trust`` in (0, 1] weighs the play more carefully, seat by seat, as a
    mixture: with probability ``trust`` the seat plays the policy's card with
    probability ``keep`` (else any legal card: ``keep`` is set so that, with
    four legal cards, a card the policy would not have played weighs
    ``surprise`` times one it would), otherwise it plays any legal card.  A
    seat that keeps straying from the policy in every world then counts as a
    random player, and its cards weigh the worlds by no more than the number
    of cards it could have played, instead of by the policy's opinion: the
    hard facts, when the model of that seat is wrong.  ``None``: the plain
    factor per card above, for every seat alike.

    Where numba is installed the candidates are dealt and weighed by the
    compiled kernels of ``search.belief`` (the same deals, much faster).
    ``draw_arrays`` gives the same draw as numpy arrays, without building a
    ``World`` per deal: the expert's playouts take arrays, and building worlds
    and lists took more of a decision than dealing and weighing the candidates.
    """

    def __init__(
        self,
        observation: Observation,
        *,
        sigma: float | None = 1.5,
        surprise: float | None = None,
        oversample: int = 16,
        trust: float | None = None,
    ) -> None:
        if trust is not None and not 0 < trust <= 1:
            raise ValueError("trust is a probability: more than 0, at most 1")
        self.observation = observation
        self.sigma = sigma
        self.surprise = surprise if surprise is not None and surprise < 1 else None
        self.trust = trust
        self.oversample = oversample
        self._hands = _HandSampler(constraints(observation))
        self._replay = _Replay(observation, self._hands.cons) if self.surprise else None
        self._fast = _FastDeals.make(observation, self._hands)
        self._template: World | None = None

    def draw(self, count: int, rng: random.Random) -> list[World]:
        if count <= 0:
            return []
        hands, weights = self.draw_arrays(count, rng)
        template = self.template
        return [
            replace(template, hands=tuple(row), weight=weight)
            for row, weight in zip(hands.tolist(), weights.tolist(), strict=True)
        ]

    @property
    def template(self) -> World:
        """A world of this observation (its first draw's hands): everything in a drawn
        world but ``hands`` and ``weight`` is the template's (``rules``, ``leader``...)."""
        if self._template is None:
            self._template = world_from_observation(self.observation, self._deals(1, _ONE)[0])
        return self._template

    def draw_arrays(self, count: int, rng: random.Random) -> tuple[Any, Any]:
        """``draw`` as numpy arrays: hands ``[world, seat]`` (int64 masks) and weights,
        with no ``World`` built (the playouts take arrays; ``template`` has the rest)."""
        import numpy

        if count <= 0:
            return numpy.zeros((0, self.observation.players), numpy.int64), numpy.zeros(0)
        pool = count * self.oversample if self.surprise else count
        drawn = self._deals(pool, rng)
        logs = self._log_weights(drawn)
        if self._template is None:
            self._template = world_from_observation(self.observation, drawn[0].tolist())
        if self.surprise:
            return drawn[_resample(logs, count, rng)], numpy.ones(count)
        return drawn, numpy.exp(logs)

    def _deals(self, count: int, rng: random.Random) -> Any:
        """``count`` candidate deals, ``[deal, seat]``: compiled where it can be."""
        import numpy

        if self._fast is not None:
            return self._fast.draw(count, rng)
        return numpy.array(self._hands.draw(count, rng), numpy.int64)

    def _log_weights(self, drawn: Any) -> Any:
        """Log of each deal's weight: its calls, and its surprises when asked for."""
        import numpy

        observation, cons = self.observation, self._hands.cons
        if self.sigma is None:
            logs = numpy.zeros(len(drawn))
        elif self._fast is not None:
            logs = self._fast.call_logs(drawn, self.sigma)
        else:
            logs = numpy.array(
                [
                    math.log(max(call_weight(observation, hands, cons, self.sigma), 1e-300))
                    for hands in drawn.tolist()
                ]
            )
        if self._replay is not None and self.surprise:
            if self.trust is None:
                logs += self._replay.surprises(drawn) * math.log(self.surprise)
            else:
                numpy = self._replay.numpy
                keep = (1 - self.surprise) / (1 + 3 * self.surprise)
                _, model, plain = self._replay.evidence(drawn, keep)
                if self.trust < 1:
                    model = numpy.logaddexp(
                        math.log(self.trust) + model, math.log1p(-self.trust) + plain
                    )
                logs += model.sum(axis=1)
        return logs


_ONE = random.Random(0)
"""The stream of the template's deal: any deal will do, and the caller's stream stays put."""


def _resample(logs: Any, count: int, rng: random.Random) -> Any:
    """``count`` indices drawn in proportion to ``exp(logs)`` (systematic resampling:
    one random offset, evenly spaced, so each index is picked about as often as its
    share says)."""
    import numpy

    cum = numpy.cumsum(numpy.exp(logs - logs.max()))
    step = cum[-1] / count
    at = (rng.random() + numpy.arange(count)) * step
    return numpy.minimum(numpy.searchsorted(cum, at, side="right"), len(cum) - 1)


class _FastDeals:
    """The compiled path of ``WorldSampler``: deals and call weights by ``search.belief``.

    Only for four seats and constraints without "holds no card of both" facts
    (one dealer); ``make`` returns None otherwise, or without numba.
    """

    def __init__(self, observation: Observation, hands: _HandSampler) -> None:
        import numpy

        from callbreak.bots.search import belief

        cons = hands.cons
        dealer = hands.dealers[0][0]
        self.numpy = numpy
        self.kernels = belief.compiled()
        self.hands = hands
        self.cons = cons
        self.others = hands.others
        needs = [(j, need) for j, s in enumerate(self.others) for need in cons.must_hold[s]]
        self.plan = belief.plan(dealer.groups, dealer.ways, dealer.splits, dealer.counts, needs)
        rules = observation.rules
        self.rules = rules
        self.calls = numpy.array([-1 if c is None else c for c in observation.calls], numpy.int64)
        self.played_by = numpy.array(cons.played_by, numpy.int64)

    @classmethod
    def make(cls, observation: Observation, hands: _HandSampler) -> _FastDeals | None:
        from callbreak.bots.search.solver import numba_available

        if observation.players != 4 or len(hands.dealers) != 1 or not numba_available():
            return None
        return cls(observation, hands)

    def draw(self, count: int, rng: random.Random) -> Any:
        """``count`` deals, ``[deal, seat]`` (the observer's own hand included)."""
        numpy, plan, cons = self.numpy, self.plan, self.cons
        out = numpy.zeros((count, 3), numpy.int64)
        filled = plan.deal(self.kernels, REJECTION_TRIES, rng.getrandbits(32), out)
        deals = numpy.zeros((count, 4), numpy.int64)
        deals[:, cons.seat] = cons.hand
        deals[:, self.others] = out
        if filled < count:  # "holds one of" facts too tight for rejection
            deals[filled:] = numpy.array(self.hands.draw(count - filled, rng), numpy.int64)
        return deals

    def call_logs(self, drawn: Any, sigma: float) -> Any:
        numpy, rules = self.numpy, self.rules
        out = numpy.zeros(len(drawn))
        self.kernels.call_log_likelihood(
            drawn,
            self.played_by,
            self.calls,
            self.cons.seat,
            rules.trump_suit,
            rules.min_call,
            rules.max_call,
            float(sigma),
            out,
        )
        return out


class _Replay:
    """The public play so far as arrays, for ``rollout``'s ``surprises``."""

    def __init__(self, observation: Observation, cons: Constraints) -> None:
        import numpy

        from callbreak.bots.search import rollout
        from callbreak.bots.search.solver import numba_available
        from callbreak.engine.deal import play_rules

        self.numpy = numpy
        self.playouts = rollout.compiled() if numba_available() else rollout.interpreted()
        self.rules = play_rules(observation.rules)
        tricks = [*observation.history, observation.trick]
        cards = [parse_card(c) for trick in tricks for c in trick.cards]
        self.history = numpy.zeros(DECK_SIZE, numpy.int64)
        self.history[: len(cards)] = cards
        self.played = len(cards)
        self.leader = tricks[0].leader
        self.seat = observation.seat
        self.calls = numpy.array([c or 0 for c in observation.calls], numpy.int64)
        self.played_by = numpy.array(cons.played_by, numpy.int64)
        self.voids = numpy.zeros(len(cons.counts), numpy.int64)
        for s, letters in enumerate(observation.declared_voids):
            for letter in letters:
                self.voids[s] |= 1 << SUITS.index(letter)

    def surprises(self, drawn: Any) -> Any:
        """Cards of the others' play the policy would not have chosen, per drawn deal
        (``drawn[deal, seat]``, a numpy array or lists)."""
        return self.evidence(drawn, 0.5)[0].sum(axis=1)

    def evidence(self, drawn: Any, keep: float) -> tuple[Any, Any, Any]:
        """Per drawn deal and seat: the cards the policy would not have chosen, and the
        log likelihoods of the seat's play under "the policy's card with probability
        ``keep``, else any" and under "any legal card" (``rollout``'s ``surprises``)."""
        numpy = self.numpy
        misses = numpy.zeros((len(drawn), 4), numpy.int64)
        model = numpy.zeros((len(drawn), 4))
        plain = numpy.zeros((len(drawn), 4))
        if self.played:
            self.playouts.surprises(
                self.rules,
                numpy.asarray(drawn, numpy.int64),
                self.played_by,
                self.history,
                self.played,
                self.leader,
                self.calls,
                self.voids,
                self.seat,
                keep,
                misses,
                model,
                plain,
            )
        return misses, model, plain


__all__ = [
    "Constraints",
    "WorldSampler",
    "call_likelihood",
    "call_weight",
    "constraints",
    "sample_hands",
    "sample_worlds",
]

"""The belief sampler never deals a world that the public record contradicts.

Matches are played with random legal actions and stopped at random points;
from a random seat's observation worlds are sampled, and each is checked
against the record by replaying it: every card played must have been legal
from the hand the seat held then (the engine's ``legal_mask``), and the
misdeal and void-declaration facts must hold for the hands as dealt.  The
inference must also be sound the other way: the real hands always fit.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable, Sequence

import numpy
import pytest

from callbreak import Match, Rules
from callbreak.bots.search import belief
from callbreak.bots.search.sampler import (
    WorldSampler,
    call_likelihood,
    call_weight,
    constraints,
    sample_hands,
    sample_worlds,
)
from callbreak.bots.search.solver import numba_available
from callbreak.bots.search.world import World, world_from_observation
from callbreak.cards import FULL_DECK, RANK_COUNT, RANKS, SUIT_MASKS, SUITS, parse_card
from callbreak.engine import Observation
from callbreak.engine.deal import play_rules
from callbreak.engine.tricks import beats, legal_mask

OPTION_SETS: list[tuple[str, dict[str, object]]] = [
    ("callbreak", {}),
    ("callbreak", {"must_trump": "always", "no_waste_trump": True}),
    ("callbreak", {"must_trump": "never", "spades_broken": True}),
    ("callbreak", {"no_spade_lead_first_trick": True, "misdeal": "auto"}),
    ("callbreak", {"misdeal_no_spade": True, "declare_voids": True}),
    ("callbreak-bhoos", {}),
    ("callbridge", {"no_waste_trump": True, "declare_voids": True}),
    ("callbridge", {"must_overtake": True, "must_trump": "always"}),
]


def random_observation(rules: Rules, rng: random.Random) -> tuple[Observation, list[int]]:
    """A match played at random to a random point of some deal's play; an observation of
    a random seat there, and (for checking only) the real hands."""
    match = Match(rules, seed=rng.getrandbits(32))
    stop = rng.randrange(0, 52)
    while True:
        deal = match.deal
        if deal.phase == "play" and 52 - sum(h.bit_count() for h in deal.hands) >= stop:
            break
        match.act(rng.choice(match.legal()))
    seat = rng.randrange(4)
    return match.observation(seat), list(match.deal.hands)


def faces_mask(faces: str) -> int:
    mask = 0
    for letter in faces:
        for suit in range(4):
            mask |= 1 << (suit * RANK_COUNT + RANKS.index(letter))
    return mask


def check_world(observation: Observation, hands: Sequence[int]) -> None:
    """Fail unless ``hands`` (by seat, now) could have produced the public record."""
    rules = observation.rules
    seat = observation.seat
    assert hands[seat] == observation.hand_mask
    played_by = [0] * 4
    tricks = [*observation.history, observation.trick]
    for trick in tricks:
        for p, name in zip(trick.seats(4), trick.cards, strict=True):
            played_by[p] |= 1 << parse_card(name)
    seen = 0
    for p in range(4):
        assert hands[p].bit_count() == rules.hand_size - played_by[p].bit_count()
        assert not hands[p] & seen, "a card dealt twice"
        seen |= hands[p]
    assert seen | observation.played_mask == FULL_DECK, "a card missing"
    assert not seen & observation.played_mask
    # Replay: every card legal from the hand held at the time.
    fast = play_rules(rules)
    held = [hands[p] | played_by[p] for p in range(4)]
    dealt = list(held)
    trump_played = False
    for number, trick in enumerate(tricks):
        led = win = -1
        for p, name in zip(trick.seats(4), trick.cards, strict=True):
            card = parse_card(name)
            legal = legal_mask(fast, held[p], led, win, number == 0, trump_played)
            assert legal >> card & 1, f"seat {p} could not have played {name} in trick {number}"
            held[p] ^= 1 << card
            if win < 0:
                led, win = card // RANK_COUNT, card
            elif beats(card, win, fast.trump):
                win = card
            if card // RANK_COUNT == fast.trump:
                trump_played = True
    # Facts about the hands as dealt.
    spades = SUIT_MASKS[rules.trump_suit]
    faces = faces_mask(rules.misdeal_faces)
    claims = dict(observation.misdeal_claims)
    for p in range(4):
        qualifies = not dealt[p] & spades or not dealt[p] & faces
        if rules.misdeal == "auto":
            assert not qualifies
        if rules.misdeal == "claim":
            assert qualifies == (p in claims)
        if rules.misdeal_no_spade:
            assert dealt[p] & spades
        letters = observation.declared_voids[p]
        if letters:
            for s in range(4):
                assert bool(dealt[p] & SUIT_MASKS[s]) == (SUITS[s] not in letters)


@pytest.mark.parametrize(("preset", "options"), OPTION_SETS)
def test_sampled_worlds_fit_the_record(preset: str, options: dict[str, object]) -> None:
    rules = Rules.preset(preset).replace(**options)
    rng = random.Random(hash((preset, tuple(sorted(options)))) & 0xFFFF)
    for _ in range(60):
        observation, real = random_observation(rules, rng)
        assert constraints(observation).satisfied_by(real), "the real hands must fit"
        check_world(observation, real)
        worlds = sample_worlds(observation, 8, rng)
        assert len(worlds) == 8
        for world in worlds:
            check_world(observation, world.hands)
            assert 0 < world.weight <= 1
            assert world.to_act == (observation.to_act if observation.to_act is not None else 0)
            assert world.tricks == observation.tricks_won
            assert world.trick == tuple(parse_card(c) for c in observation.trick.cards)


def test_worlds_match_the_observation_fields() -> None:
    rules = Rules.preset("callbreak")
    rng = random.Random(5)
    observation, real = random_observation(rules, rng)
    world = world_from_observation(observation, real)
    assert isinstance(world, World)
    assert world.hands == tuple(real)
    assert world.leader == observation.trick.leader
    assert world.trump_played == bool(observation.played_mask & SUIT_MASKS[0])
    others = {s: real[s] for s in range(4) if s != observation.seat}
    assert world_from_observation(observation, others) == world


def test_inferences_from_one_trick() -> None:
    """Hand-made: the facts a person at the table draws from a single trick."""
    from callbreak import Deal

    rules = Rules.preset("callbreak").replace(misdeal="off")  # must_trump=winning
    hands = [
        "2H 3H 4H 5H 6H 7H 8H 9H TH JH QH KH AH",
        "KS QS 2D 3D 4D 5D 6D 7D 8D 9D TD JD QD",
        "AS 2S 3S 4S 5S 6S 7S 8S 9S TS JS AD KD",
        "2C 3C 4C 5C 6C 7C 8C 9C TC JC QC KC AC",
    ]
    deal = Deal(rules, hands, dealer=0)
    for call in (3, 3, 3, 3):
        deal.act(call)
    for card in ("QD", "AD", "2C", "2H"):
        deal.act(card)
    cons = constraints(deal.observation(1))
    for seat in (3, 0):
        assert not cons.allowed[seat] & SUIT_MASKS[2], "it showed out of diamonds"
        assert not cons.allowed[seat] & SUIT_MASKS[0], "it did not ruff, so it holds no spade"
    assert cons.allowed[2] & SUIT_MASKS[0]
    assert cons.counts == (12, 12, 12, 12)


def test_declined_misdeal_is_an_either_or() -> None:
    rules = Rules.preset("callbreak")  # misdeal=claim
    rng = random.Random(11)
    found = 0
    for _ in range(400):
        match = Match(rules, seed=rng.getrandbits(32))
        while match.phase == "misdeal":
            match.act(False)
        claims = match.deal.claims
        if not claims or match.phase != "call":
            continue
        decliner = claims[0][0]
        seat = (decliner + 1) % 4
        observation = match.observation(seat)
        cons = constraints(observation)
        assert cons.either_lacks[decliner]
        for hands in sample_hands(observation, 20, rng):
            check_world(observation, hands)
        found += 1
        if found == 3:
            break
    assert found, "no declined misdeal in 400 matches"


def assert_uniform_over_small_endings(
    draw: Callable[[Observation, random.Random], list[tuple[int, ...]]],
) -> None:
    """``draw(observation, rng)`` gives 3,000 deals; with few unseen cards, every fitting
    deal must come about equally often (the real one among them)."""
    rules = Rules.preset("callbreak").replace(misdeal="off")
    rng = random.Random(2)
    checked = 0
    while checked < 3:
        observation, real = random_observation(rules, rng)
        if observation.trick_number < 11:
            continue
        counts = Counter(draw(observation, rng))
        for hands in counts:
            check_world(observation, hands)
        assert tuple(real) in counts
        expected = 3000 / len(counts)
        if len(counts) > 1:
            assert min(counts.values()) > expected * 0.6
            assert max(counts.values()) < expected * 1.4
        checked += 1


def test_small_endings_are_sampled_uniformly() -> None:
    """With few unseen cards, every fitting deal is drawn about equally often."""
    assert_uniform_over_small_endings(
        lambda observation, rng: [tuple(h) for h in sample_hands(observation, 3000, rng)]
    )


def test_call_likelihood_prefers_matching_hands() -> None:
    assert call_likelihood(4, 4.0, 1, 13, 1.5) == 1.0
    assert call_likelihood(4, 6.0, 1, 13, 1.5) < call_likelihood(4, 5.0, 1, 13, 1.5)
    # A hand worth less than the minimum call still calls the minimum.
    assert call_likelihood(1, 0.2, 1, 13, 1.5) == 1.0


def test_sampling_is_reproducible() -> None:
    rules = Rules.preset("callbreak")
    observation, _ = random_observation(rules, random.Random(9))
    first = sample_worlds(observation, 5, random.Random(1))
    second = sample_worlds(observation, 5, random.Random(1))
    assert [w.hands for w in first] == [w.hands for w in second]
    assert [w.weight for w in first] == [w.weight for w in second]


def test_a_world_sampler_draws_reproducibly_and_within_the_record() -> None:
    """Batches drawn from a ``WorldSampler`` with the same random stream are the same,
    with and without weighing the play, and every world fits the record."""
    rules = Rules.preset("callbreak")
    rng = random.Random(12)
    for _ in range(5):
        observation, _ = random_observation(rules, rng)
        for surprise in (None, 0.2):
            runs = []
            for _ in range(2):
                sampler = WorldSampler(observation, surprise=surprise)
                stream = random.Random(3)
                runs.append(sampler.draw(2, stream) + sampler.draw(4, stream))
            assert [w.hands for w in runs[0]] == [w.hands for w in runs[1]]
            assert [w.weight for w in runs[0]] == [w.weight for w in runs[1]]
            for world in runs[0]:
                check_world(observation, world.hands)


def test_draw_arrays_is_the_same_draw_as_worlds() -> None:
    """``draw_arrays`` (what the expert's playouts take) and ``draw`` give the same hands
    and weights for the same stream, with and without weighing the play."""
    rules = Rules.preset("callbreak")
    rng = random.Random(21)
    for _ in range(4):
        observation, _ = random_observation(rules, rng)
        for surprise in (None, 0.2):
            worlds = WorldSampler(observation, surprise=surprise).draw(6, random.Random(5))
            sampler = WorldSampler(observation, surprise=surprise)
            hands, weights = sampler.draw_arrays(6, random.Random(5))
            assert hands.dtype == numpy.int64 and hands.shape == (6, 4)
            assert [tuple(row) for row in hands.tolist()] == [w.hands for w in worlds]
            assert weights.tolist() == [w.weight for w in worlds]
            template = sampler.template
            assert (template.leader, template.trick) == (worlds[0].leader, worlds[0].trick)


needs_numba = pytest.mark.skipif(not numba_available(), reason="numba is not installed")


def fast_plan(observation: Observation) -> belief.DealPlan:
    """The compiled path's deal plan for an observation."""
    sampler = WorldSampler(observation)
    fast = sampler._fast
    assert fast is not None
    return fast.plan


def kernel_deals(kernels: belief.Kernels, plan: belief.DealPlan, n: int) -> list[list[int]]:
    out = numpy.zeros((n, 3), numpy.int64)
    filled = plan.deal(kernels, 200, 12345, out)
    assert filled == n
    return out.tolist()


@needs_numba
@pytest.mark.parametrize(("preset", "options"), OPTION_SETS)
def test_compiled_deals_fit_the_record_and_equal_the_plain_ones(
    preset: str, options: dict[str, object]
) -> None:
    rules = Rules.preset(preset).replace(**options)
    rng = random.Random(hash((preset, tuple(sorted(options)), 1)) & 0xFFFF)
    for _ in range(15):
        observation, _ = random_observation(rules, rng)
        if len(WorldSampler(observation)._hands.dealers) != 1:
            continue  # an either-or: the plain sampler's job
        plan = fast_plan(observation)
        compiled = kernel_deals(belief.compiled(), plan, 20)
        assert compiled == kernel_deals(belief.interpreted(), plan, 4) + compiled[4:]
        for world in WorldSampler(observation, surprise=0.3).draw(12, rng):
            check_world(observation, world.hands)


@needs_numba
def test_compiled_deals_are_uniform_over_small_endings() -> None:
    """Like the plain sampler: every fitting deal about equally often."""

    def draw(observation: Observation, rng: random.Random) -> list[tuple[int, ...]]:
        sampler = WorldSampler(observation, sigma=None)
        assert sampler._fast is not None
        return [w.hands for w in sampler.draw(3000, rng)]

    assert_uniform_over_small_endings(draw)


@needs_numba
def test_compiled_deals_have_the_plain_sampler_s_card_frequencies() -> None:
    """Mid-deal, with voids and overtaking facts: how often each unseen card lies with
    each seat is the same, within noise, for the compiled and the plain deals."""
    rules = Rules.preset("callbreak")
    rng = random.Random(21)
    checked = 0
    while checked < 3:
        observation, _ = random_observation(rules, rng)
        if not 3 <= observation.trick_number <= 9:
            continue
        sampler = WorldSampler(observation, sigma=None)
        fast = [w.hands for w in sampler.draw(4000, rng)]
        plain = sample_hands(observation, 4000, rng)
        for seat in range(4):
            for card in range(52):
                a = sum(h[seat] >> card & 1 for h in fast) / 4000
                b = sum(h[seat] >> card & 1 for h in plain) / 4000
                assert abs(a - b) < 0.05, (seat, card, a, b)
        checked += 1


@needs_numba
def test_compiled_call_weights_equal_the_plain_ones() -> None:
    rules = Rules.preset("callbreak")
    rng = random.Random(8)
    for _ in range(10):
        observation, _ = random_observation(rules, rng)
        sampler = WorldSampler(observation, sigma=0.9)
        cons = constraints(observation)
        for world in sampler.draw(5, rng):
            assert world.weight == pytest.approx(
                call_weight(observation, world.hands, cons, 0.9), rel=1e-9
            )


def test_weighing_the_play_favours_worlds_that_explain_it() -> None:
    """Four heuristic players: the worlds drawn with ``surprise`` explain their play
    far better (fewer cards the heuristic would not have played) than uniform ones."""
    from callbreak.bots import HeuristicBot

    rules = Rules.preset("callbreak").replace(misdeal="off")
    rng = random.Random(4)
    bots = [HeuristicBot(seed=s) for s in range(4)]
    match = Match(rules, seed=7)
    while not (match.phase == "play" and match.deal.trick_number >= 6):
        match.act(bots[match.to_act or 0].act(match.observation(match.to_act or 0)))
    observation = match.observation(match.to_act or 0)
    weighed = WorldSampler(observation, sigma=None, surprise=0.05)
    assert weighed._replay is not None
    uniform = WorldSampler(observation, sigma=None).draw(200, rng)
    chosen = weighed.draw(200, rng)
    for world in chosen:
        check_world(observation, world.hands)
    plain = sum(weighed._replay.surprises([list(w.hands) for w in uniform])) / 200
    better = sum(weighed._replay.surprises([list(w.hands) for w in chosen])) / 200
    assert better < plain / 2


def test_trust_lets_a_seat_that_plays_at_random_count_as_random() -> None:
    """Seat 2 plays random legal cards, seats 1 and 3 the heuristic's.  As a mixture
    (``trust=0.2``), seat 2's cards weigh the worlds as a random player's would (by the
    cards it could have played), while seats 1 and 3 are read as the policy: in the
    true world, which explains their play, the policy model outweighs the random one."""
    from callbreak.bots import Bot, HeuristicBot, RandomBot

    rules = Rules.preset("callbreak").replace(misdeal="off")
    bots: list[Bot] = [HeuristicBot(seed=1), HeuristicBot(seed=2), RandomBot(seed=3)]
    bots.append(HeuristicBot(seed=4))
    match = Match(rules, seed=11)
    while not (match.phase == "play" and match.deal.trick_number >= 7):
        match.act(bots[match.to_act or 0].act(match.observation(match.to_act or 0)))
    observation = match.observation(0)
    worlds = WorldSampler(observation, sigma=None).draw(400, random.Random(1))
    drawn = numpy.array([list(match.deal.hands)] + [list(w.hands) for w in worlds])
    surprise, trust = 0.02, 0.2
    sampler = WorldSampler(observation, sigma=None, surprise=surprise, trust=trust)
    assert sampler._replay is not None
    misses, model, plain = sampler._replay.evidence(drawn, (1 - surprise) / (1 + 3 * surprise))
    mixed = numpy.logaddexp(numpy.log(trust) + model, numpy.log1p(-trust) + plain)
    assert numpy.allclose(sampler._log_weights(drawn), mixed.sum(axis=1))
    assert not mixed[:, 0].any()  # the observer's own cards say nothing
    policy_lead = mixed - (numpy.log1p(-trust) + plain)  # >= 0: how far the policy leads
    # In the true world (row 0) the heuristic seats never strayed and the random one did.
    assert misses[0, 1] == misses[0, 3] == 0 and misses[0, 2] >= 3
    assert policy_lead[0, 1] > 3 and policy_lead[0, 3] > 3 and policy_lead[0, 2] < 0.05
    assert numpy.median(policy_lead[:, 2]) < 0.05
    # Per card alike (trust None), the random seat's strays weigh the worlds heavily.
    alike = WorldSampler(observation, sigma=None, surprise=surprise)
    assert numpy.allclose(alike._log_weights(drawn), misses.sum(axis=1) * numpy.log(surprise))
    assert numpy.std(misses[:, 2] * numpy.log(surprise)) > 2 * numpy.std(mixed[:, 2] - plain[:, 2])
    with pytest.raises(ValueError, match="probability"):
        WorldSampler(observation, surprise=surprise, trust=0)

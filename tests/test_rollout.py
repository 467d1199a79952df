"""The compiled policy playouts: complete, consistent deals, and compiled equal to interpreted."""

from __future__ import annotations

import random

import numpy
import pytest

from callbreak import Deal, Rules
from callbreak.bots import HeuristicBot
from callbreak.bots.search import rollout
from callbreak.bots.search.solver import numba_available
from callbreak.cards import SUIT_MASKS, format_hand, parse_card
from callbreak.engine.deal import play_rules, shuffled_hands
from callbreak.engine.fast import PlayState, random_card

OPTION_SETS: list[dict[str, object]] = [
    {},
    {"must_overtake": False},
    {"must_trump": "always", "no_waste_trump": True},
    {"must_trump": "never", "spades_broken": True},
]


def worlds(count: int, seed: int) -> numpy.ndarray:
    rng = random.Random(seed)
    return numpy.array([shuffled_hands(4, i % 4, rng) for i in range(count)], numpy.int64)


def playouts() -> list[rollout.Rollouts]:
    built = [rollout.interpreted()]
    if numba_available():
        built.append(rollout.compiled())
    return built


@pytest.mark.parametrize("options", OPTION_SETS)
def test_call_playouts_share_out_every_trick(options: dict[str, object]) -> None:
    rules = play_rules(Rules.preset("callbreak").replace(**options))
    hands = worlds(12, 1)
    calls = numpy.full((12, 4), 3, numpy.int64)
    results = []
    for built in playouts():
        out = numpy.zeros((12, 4, 4), numpy.int64)
        built.call_tricks(rules, hands, 0, calls, numpy.zeros(4, numpy.int64), 2, 1, out)
        assert (out.sum(axis=-1) == 13).all()
        results.append(out)
    for other in results[1:]:
        assert (other == results[0]).all()


def test_a_hand_of_every_spade_wins_every_trick_whatever_it_calls() -> None:
    rules = play_rules(Rules.preset("callbreak"))
    rest = worlds(1, 2)[0]
    others = [int(h) & ~SUIT_MASKS[0] for h in rest]
    pool = 0
    for h in others:
        pool |= h
    # seat 0 takes all thirteen spades; the 39 other cards go round the others
    cards = [c for c in range(52) if pool >> c & 1]
    hands = [SUIT_MASKS[0], 0, 0, 0]
    for i, card in enumerate(cards):
        hands[1 + i % 3] |= 1 << card
    out = numpy.zeros((1, 13, 4), numpy.int64)
    playouts()[-1].call_tricks(
        rules,
        numpy.array([hands], numpy.int64),
        1,
        numpy.ones((1, 4), numpy.int64),
        numpy.zeros(4, numpy.int64),
        0,
        1,
        out,
    )
    assert (out[0, :, 0] == 13).all()


@pytest.mark.parametrize("options", OPTION_SETS)
def test_card_playouts_from_the_middle_of_a_trick(options: dict[str, object]) -> None:
    """Deals played at random to some point, then each legal card of the seat to act
    played out: the tricks already won stay won and the rest are all shared out."""
    rules = play_rules(Rules.preset("callbreak").replace(**options))
    rng = random.Random(3)
    for trial in range(6):
        state = PlayState(rules, shuffled_hands(4, trial % 4, rng), trial % 4)
        for _ in range(rng.randrange(5, 40)):
            state.play(random_card(state.legal(), rng.random()))
        seat = state.to_act
        legal = [c for c in range(52) if state.legal() >> c & 1]
        trick = numpy.zeros(4, numpy.int64)
        trick[: len(state.trick)] = state.trick
        won = numpy.array(state.tricks, numpy.int64)
        left = 13 - sum(state.tricks)
        results = []
        for built in playouts():
            out = numpy.zeros((1, len(legal), 4), numpy.int64)
            built.card_tricks(
                rules,
                numpy.array([state.hands], numpy.int64),
                state.leader,
                trick,
                len(state.trick),
                won,
                numpy.array([3, 3, 3, 3], numpy.int64),
                state.trump_played,
                sum(state.tricks) == 0,
                numpy.zeros(4, numpy.int64),
                seat,
                numpy.array(legal, numpy.int64),
                out,
            )
            assert (out.sum(axis=-1) == 13).all()
            assert (out.sum(axis=-1) - won.sum() == left).all()
            assert (out >= won).all()
            results.append(out)
        for other in results[1:]:
            assert (other == results[0]).all()


@pytest.mark.parametrize("options", OPTION_SETS)
def test_playouts_play_exactly_as_four_heuristic_bots(options: dict[str, object]) -> None:
    """The compiled policy is the heuristic, card for card: the same deal played by four
    ``HeuristicBot``s through the engine ends with the same tricks for every seat."""
    rules = Rules.preset("callbreak").replace(
        misdeal="off", misdeal_no_spade=False, min_total_calls=None, **options
    )
    rng = random.Random(4)
    bots = [HeuristicBot(seed=s) for s in range(4)]
    built = playouts()
    for trial in range(10):
        dealer = trial % 4
        hands = shuffled_hands(4, dealer, rng)
        deal = Deal(rules, [format_hand(h) for h in hands], dealer=dealer)
        leader = (dealer + 1) % 4
        while deal.to_act is not None:
            deal.act(bots[deal.to_act].act(deal.observation(deal.to_act)))
        calls = numpy.array([deal.calls], numpy.int64)
        for each in built:
            out = numpy.zeros((1, 1, 4), numpy.int64)
            each.call_tricks(
                play_rules(rules),
                numpy.array([hands], numpy.int64),
                leader,
                calls,
                numpy.zeros(4, numpy.int64),
                0,
                int(calls[0, 0]),
                out,
            )
            assert list(out[0, 0]) == list(deal.tricks), trial


@pytest.mark.parametrize("options", OPTION_SETS)
def test_surprises_count_exactly_the_cards_the_heuristic_would_not_have_played(
    options: dict[str, object],
) -> None:
    """Seat 2 plays at random, the others as the heuristic: replayed with the real hands,
    the count is the number of seat 2's cards a ``HeuristicBot`` would have played
    otherwise (asked at the time), and every other seat's play is no surprise."""
    rules = Rules.preset("callbreak").replace(
        misdeal="off", misdeal_no_spade=False, min_total_calls=None, **options
    )
    rng = random.Random(6)
    bots = [HeuristicBot(seed=s) for s in range(4)]
    built = playouts()
    seen = 0
    for trial in range(8):
        dealer = trial % 4
        hands = shuffled_hands(4, dealer, rng)
        deal = Deal(rules, [format_hand(h) for h in hands], dealer=dealer)
        stop = rng.randrange(8, 52)
        deviations = 0
        history: list[int] = []
        while deal.to_act is not None and len(history) < stop:
            seat = deal.to_act
            observation = deal.observation(seat)
            action = bots[seat].act(observation)
            if deal.phase == "play" and seat == 2:
                card = rng.choice(observation.legal)
                deviations += card != action
                action = card
            if deal.phase == "play":
                history.append(parse_card(str(action)))
            deal.act(action)
        now = numpy.array([list(deal.hands)], numpy.int64)
        played_by = numpy.array([h & ~int(n) for h, n in zip(hands, now[0], strict=True)])
        sequence = numpy.zeros(52, numpy.int64)
        sequence[: len(history)] = history
        calls = numpy.array(deal.calls, numpy.int64)
        for each in built:
            for observer, expected in ((0, deviations), (2, 0)):
                out = numpy.zeros((1, 4), numpy.int64)
                model = numpy.zeros((1, 4))
                plain = numpy.zeros((1, 4))
                each.surprises(
                    play_rules(rules),
                    now,
                    played_by,
                    sequence,
                    len(history),
                    (dealer + 1) % 4,
                    calls,
                    numpy.zeros(4, numpy.int64),
                    observer,
                    0.9,
                    out,
                    model,
                    plain,
                )
                assert out[0].sum() == out[0, 2 if observer == 0 else 0] == expected
                assert out[0, observer] == 0 and model[0, observer] == plain[0, observer] == 0
                # Each card weighs log(0.9 + 0.1/n) kept, log(0.1/n) strayed; any: log(1/n):
                # the seats that never strayed are likelier under the policy than random.
                for p in {1, 3}:
                    assert plain[0, p] < 0 and model[0, p] > plain[0, p]
        seen += deviations
    assert seen > 8  # the random seat did stray from the policy


MODEL_MIXES = [(1.0,), (0.0, 1.0), (0.0, 0.0, 1.0), (0.0, 0.0, 0.0, 1.0), (0, 0, 0, 0, 1.0)]


@pytest.mark.parametrize("options", OPTION_SETS)
def test_mixed_playouts_are_complete_and_compiled_equal_interpreted(
    options: dict[str, object],
) -> None:
    """Every play model of the others (``expert.MODELS``) plays legal, complete deals, the
    same compiled as interpreted; with the heuristic alone they are the plain playouts."""
    rules = play_rules(Rules.preset("callbreak").replace(**options))
    hands = worlds(8, 7)
    calls = numpy.full((8, 4), 3, numpy.int64)
    none = numpy.zeros(4, numpy.int64)
    cards = numpy.array([c for c in range(52) if hands[0, 1] >> c & 1], numpy.int64)
    plain = numpy.zeros((8, 3, 4), numpy.int64)
    playouts()[-1].call_tricks(rules, hands, 0, calls, none, 1, 2, plain)
    results: list[list[numpy.ndarray]] = []
    for built in playouts():
        mine = []
        for models in [*MODEL_MIXES, (0.4, 0.15, 0.15, 0.15, 0.15)]:
            weights = numpy.array(models, float)
            out = numpy.zeros((8, 3, 4), numpy.int64)
            built.mixed_call_tricks(rules, hands, 0, calls, none, 1, 2, out, weights, 0.3, 5)
            assert (out.sum(axis=-1) == 13).all()
            if models == (1.0,):
                assert (out == plain).all()
            by_card = numpy.zeros((1, len(cards), 4), numpy.int64)
            built.mixed_card_tricks(
                rules, hands[:1], 1, none, 0, none, calls[0], False, True, none, 1, cards,
                by_card, weights, 0.3, 5,
            )  # fmt: skip
            assert (by_card.sum(axis=-1) == 13).all()
            mine += [out, by_card]
        results.append(mine)
    for other in results[1:]:
        for a, b in zip(other, results[0], strict=True):
            assert (a == b).all()
    # the other models do play otherwise
    assert all((results[0][0] != results[0][2 * k]).any() for k in range(1, len(MODEL_MIXES)))

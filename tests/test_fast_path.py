"""The search state, the kernel and the public Deal must agree move for move."""

from __future__ import annotations

import contextlib
import random

import pytest

from callbreak import Deal, Rules
from callbreak.cards import CARD_NAMES, hand_names, iter_cards
from callbreak.engine.deal import play_rules
from callbreak.engine.fast import PlayState, random_card, random_playout

OPTION_SETS: list[dict[str, object]] = [
    {},
    {"must_overtake": False},
    {"must_trump": "always"},
    {"must_trump": "never"},
    {"no_waste_trump": True},
    {"no_spade_lead_first_trick": True},
    {"spades_broken": True},
    {"must_overtake": False, "must_trump": "always", "no_waste_trump": True, "spades_broken": True},
]


def playing_deal(rules: Rules, seed: int) -> Deal:
    """A seeded deal taken to its play phase with fixed calls."""
    rules = rules.replace(misdeal="off", min_total_calls=None)
    deal = Deal(rules, seed=seed, dealer=seed % 4)
    while deal.phase == "call":
        deal.act(rules.min_call)
    assert deal.phase == "play"
    return deal


@pytest.mark.parametrize("options", OPTION_SETS)
def test_play_state_agrees_with_deal(options: dict[str, object]) -> None:
    rules = Rules.preset("callbreak").replace(**options)
    for seed in range(40):
        deal = playing_deal(rules, seed)
        state = PlayState(play_rules(rules), deal.hands, deal.leader)
        rng = random.Random(seed)
        while deal.to_act is not None:
            assert state.to_act == deal.to_act
            assert state.legal() == deal.legal_mask()
            assert hand_names(state.legal()) == deal.legal()
            card = rng.choice(list(iter_cards(state.legal())))
            deal.act(CARD_NAMES[card])
            state.play(card)
            assert state.tricks == deal.tricks
        assert state.over


def test_undo_restores_every_state() -> None:
    rules = Rules.preset("callbreak").replace(spades_broken=True, no_waste_trump=True)
    for seed in range(20):
        deal = playing_deal(rules, seed)
        state = PlayState(play_rules(rules), deal.hands, deal.leader)
        rng = random.Random(seed)
        snapshots = []
        while not state.over:
            snapshots.append(
                (
                    list(state.hands),
                    list(state.trick),
                    state.to_act,
                    list(state.tricks),
                    state.trump_played,
                    state.legal(),
                )
            )
            state.play(random_card(state.legal(), rng.random()))
        while snapshots:
            state.undo()
            hands, trick, to_act, won, trump_played, legal = snapshots.pop()
            assert (state.hands, state.trick, state.to_act, state.tricks) == (
                hands,
                trick,
                to_act,
                won,
            )
            assert state.trump_played == trump_played
            assert state.legal() == legal


def test_copy_is_independent_and_mid_trick_start_works() -> None:
    rules = Rules.preset("callbreak")
    deal = playing_deal(rules, 3)
    rng = random.Random(3)
    for _ in range(6):  # one trick and two cards into the next
        deal.act(rng.choice(deal.legal()))
    state = PlayState(
        play_rules(rules),
        deal.hands,
        deal.leader,
        trick=deal.trick,
        tricks=deal.tricks,
        trump_played=deal.trump_played,
    )
    assert state.legal() == deal.legal_mask()
    twin = state.copy()
    won = random_playout(twin, rng)
    assert sum(won) == 13 and state.tricks == deal.tricks


def kernel_choices(deal: Deal, draws: list[float]) -> None:
    """Play ``deal`` out choosing as the kernel does: the n-th legal card, n from the draw."""
    used = 0
    while deal.to_act is not None:
        mask = deal.legal_mask()
        deal.act(CARD_NAMES[random_card(mask, draws[used])])
        used += 1


@pytest.mark.parametrize("options", OPTION_SETS[:4])
def test_kernel_interpreted_compiled_and_deal_agree(options: dict[str, object]) -> None:
    np = pytest.importorskip("numpy")
    from callbreak.engine.kernel import compiled, interpreted

    kernels = [interpreted()]
    with contextlib.suppress(ImportError):
        kernels.append(compiled())
    rules = Rules.preset("callbreak").replace(**options)
    for seed in range(15):
        deal = playing_deal(rules, seed)
        rng = random.Random(seed)
        draws = [rng.random() for _ in range(52)]
        results = []
        for kernel in kernels:
            hands = np.array(deal.hands, dtype=np.int64)
            won = np.zeros(4, dtype=np.int64)
            assert kernel.playout(play_rules(rules), hands, deal.leader, np.array(draws), won) == 52
            assert list(hands) == [0, 0, 0, 0]
            results.append(list(won))
        kernel_choices(deal, draws)
        for won in results:
            assert won == deal.tricks


def test_kernel_random_deals_scores_are_consistent() -> None:
    np = pytest.importorskip("numpy")
    from callbreak.engine.kernel import interpreted, score_table

    rules = Rules.preset("callbridge")
    table = score_table(rules)
    assert table[9, 10] == 130 and table[9, 11] == -90 and table[5, 6] == 50
    totals = np.zeros(4, dtype=np.int64)
    played = interpreted().random_deals(
        play_rules(rules), 5, 11, rules.min_call, rules.max_call, table, totals
    )
    assert played == 5 * 52
    assert all(abs(t) <= 5 * 130 for t in totals)

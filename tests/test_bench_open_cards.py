"""``bench/open_cards.py``: its figures are only worth quoting if the plain expert plays
exactly the arena's games and the open-card one really plays out the true deal."""

from __future__ import annotations

import random
from types import ModuleType

import pytest

from bench_support import load_bench
from callbreak import Match, Rules
from callbreak.arena import ArenaConfig, run_arena
from callbreak.arena.pool import summarize_mix

CANDIDATE = "expert:deterministic=1,worlds=4,call_worlds=8"


@pytest.fixture(scope="module")
def bench() -> ModuleType:
    return load_bench("open_cards")


def test_the_plain_expert_plays_the_arenas_games(bench: ModuleType) -> None:
    config = ArenaConfig(Rules.preset("callbreak-bhoos"), (CANDIDATE, *["heuristic"] * 3), 2, 5)
    arena = summarize_mix(("heuristic",) * 3, run_arena(config, workers=1))
    for index in range(2):
        plain, *_ = bench._edges((config, index))
        assert plain == pytest.approx(arena.edges[index])


def test_the_open_card_expert_searches_the_true_deal_only(bench: ModuleType) -> None:
    match = Match(Rules.preset("callbreak-bhoos"), seed=4)
    while match.phase != "play" or match.deal.trick_number < 3:
        match.act(2 if match.phase == "call" else match.legal()[0])
    seat = match.to_act
    assert seat is not None
    bot = bench.OpenCardsExpert(seed=1, deterministic=1, worlds=4, call_worlds=8)
    observation = match.observation(seat)
    with pytest.raises(RuntimeError, match="reveal"):
        bot.act(observation)
    bot.reveal(match.deal)
    hands, weights = bot._sampler(observation).draw_arrays(5, random.Random(0))
    assert hands.tolist() == [list(match.deal.hands)] * 5
    assert weights.tolist() == [1.0] * 5
    assert bot.act(observation) in observation.legal


FAMILY = "expert:deterministic=1,worlds=2"


def test_the_plain_expert_plays_the_arenas_whole_matches_of_the_other_games(
    bench: ModuleType,
) -> None:
    """In a countdown game played to its end: the same edge, signed as the arena signs it,
    and the same share of the matches won."""
    rules = Rules.preset("donut")
    config = ArenaConfig(rules, (FAMILY, *["heuristic"] * 3), 1, 3, whole_matches=True)
    arena = summarize_mix(("heuristic",) * 3, run_arena(config, workers=1))
    plain, _, won, _ = bench._edges((config, 0))
    assert plain == pytest.approx(arena.edges[0])
    assert won == pytest.approx(arena.match_share)


def test_the_open_card_family_search_plays_out_the_true_deal_only(bench: ModuleType) -> None:
    match = Match(Rules.preset("rook-call-partner"), seed=2)
    while match.phase != "play":
        match.act(match.legal()[0] if match.phase != "auction" else "pass")
    seat = match.to_act
    assert seat is not None
    bot = bench.OpenCardsExpert(seed=1, deterministic=1, worlds=2)
    observation = match.observation(seat)
    with pytest.raises(RuntimeError, match="reveal"):
        bot.act(observation)
    bot.reveal(match.deal)
    world, weight = bot._family._draw(None)
    assert weight == 1.0 and world is not match.deal
    assert world.hands == match.deal.hands and world.to_act == seat
    assert bot.act(observation) in observation.legal

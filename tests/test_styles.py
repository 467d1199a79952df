"""The pool's style bots are different players: calls, tricks and trumps, on the same deals."""

from __future__ import annotations

import statistics
from collections.abc import Callable

import pytest

from callbreak import Deal, Match, Rules
from callbreak.bots import HeuristicBot, make_bot
from callbreak.cards import RANK_COUNT, parse_card
from callbreak.engine import Observation
from helpers import play_legally

STYLES = ("cautious", "aggressive", "ducker", "trumper")
SPADES = 0


def _calls(preset: str, specs: tuple[str, ...], deals: int = 150) -> dict[str, list[int]]:
    """Every seat's call by every spec on the same hands (the earlier seats call as the
    heuristic does, so every spec sees the same calls before its own)."""
    rules = Rules.preset(preset)
    bots = {spec: make_bot(spec, seed=1) for spec in specs}
    calls: dict[str, list[int]] = {spec: [] for spec in specs}
    for seed in range(deals):
        deal = Deal(rules, seed=seed, dealer=seed % 4)
        while deal.phase == "misdeal":
            deal.act(False)
        while deal.phase == "call":
            seat = deal.to_act
            assert seat is not None
            observation = deal.observation(seat)
            for spec, bot in bots.items():
                call = bot.act(observation)
                assert call in observation.legal
                calls[spec].append(int(call))
            deal.act(calls["heuristic"][-1])
    return calls


@pytest.mark.parametrize("preset", ["callbreak", "callbreak-bhoos"])
def test_calls_differ_in_the_expected_direction_on_the_same_hands(preset: str) -> None:
    calls = _calls(preset, ("heuristic", *STYLES))
    mean = {spec: statistics.mean(values) for spec, values in calls.items()}
    assert mean["cautious"] < mean["ducker"] < mean["heuristic"] < mean["aggressive"]
    assert mean["aggressive"] - mean["heuristic"] > 0.6
    assert mean["heuristic"] - mean["cautious"] > 0.5
    # Hand for hand, never the other way round (only the bounds of the calls can tie them).
    for low, high in zip(calls["cautious"], calls["heuristic"], strict=True):
        assert low <= high
    for low, high in zip(calls["heuristic"], calls["aggressive"], strict=True):
        assert low <= high
    assert calls["trumper"] == calls["heuristic"]


def _seat_each_in_turn(
    spec: str,
    rules: Rules,
    deals: int,
    watch: Callable[[Observation, str], None],
) -> list[tuple[int, int, bool]]:
    """``spec`` in each seat in turn against three heuristics on the same deals: its (call,
    tricks, made) per game; ``watch`` sees each of its observations and its answer."""
    rules = rules.replace(match_deals=1)
    games = []
    for seed in range(deals):
        for seat in range(4):
            bots = [
                make_bot(spec if s == seat else "heuristic", seed=seed * 4 + s) for s in range(4)
            ]
            match = Match(rules, seed=seed)
            while not match.over:
                actor = match.to_act
                assert actor is not None
                observation = match.observation(actor)
                action = bots[actor].act(observation)
                assert action in observation.legal
                if actor == seat:
                    watch(observation, str(action))
                match.act(action)
            deal = match.scored_deals[0].deal
            call = deal.calls[seat]
            assert call is not None
            games.append((call, deal.tricks[seat], deal.tricks[seat] >= call))
    return games


class TrumpCount:
    """Trump leads, ruffs and the trick number of every trump played, for one seat."""

    def __init__(self) -> None:
        self.leads = 0
        self.trump_leads = 0
        self.ruff_chances = 0
        self.ruffs = 0
        self.trump_tricks: list[int] = []

    def __call__(self, observation: Observation, action: str) -> None:
        if observation.phase != "play":
            return
        card = parse_card(action)
        trump = card // RANK_COUNT == SPADES
        if trump:
            self.trump_tricks.append(len(observation.history))
        if not observation.trick.cards:
            self.leads += 1
            self.trump_leads += trump
            return
        led = parse_card(observation.trick.cards[0]) // RANK_COUNT
        suits = {parse_card(c) // RANK_COUNT for c in observation.hand}
        if led != SPADES and led not in suits and SPADES in suits:
            self.ruff_chances += 1
            self.ruffs += trump


def test_the_trumper_leads_trump_early_and_ruffs_whenever_it_can() -> None:
    counts = {}
    for spec in ("heuristic", "trumper"):
        counts[spec] = TrumpCount()
        _seat_each_in_turn(spec, Rules.preset("callbreak"), 30, counts[spec])
    heuristic, trumper = counts["heuristic"], counts["trumper"]
    assert trumper.trump_leads / trumper.leads > 2 * heuristic.trump_leads / heuristic.leads
    assert statistics.mean(trumper.trump_tricks) < statistics.mean(heuristic.trump_tricks) - 1
    # Where ruffing is a choice (must_trump=never), the trumper takes it nearly every time.
    free = Rules.preset("callbreak").replace(must_trump="never")
    for spec in ("heuristic", "trumper"):
        counts[spec] = TrumpCount()
        _seat_each_in_turn(spec, free, 25, counts[spec])
    heuristic, trumper = counts["heuristic"], counts["trumper"]
    assert trumper.ruffs / trumper.ruff_chances > 0.9
    assert trumper.ruffs / trumper.ruff_chances > heuristic.ruffs / heuristic.ruff_chances + 0.2


def test_made_rates_and_tricks_follow_the_styles() -> None:
    """Cautious makes its calls most often, the aggressive caller least and takes the most
    tricks, the ducker takes fewer than the heuristic from the same seats."""

    def ignore(observation: Observation, action: str) -> None:
        return None

    figures = {}
    for spec in ("heuristic", "cautious", "aggressive", "ducker"):
        games = _seat_each_in_turn(spec, Rules.preset("callbreak"), 40, ignore)
        figures[spec] = (
            statistics.mean(made for _, _, made in games),
            statistics.mean(tricks for _, tricks, _ in games),
            statistics.mean(call - tricks for call, tricks, _ in games),
        )
    made = {spec: f[0] for spec, f in figures.items()}
    tricks = {spec: f[1] for spec, f in figures.items()}
    over = {spec: f[2] for spec, f in figures.items()}
    assert made["cautious"] > made["heuristic"] > made["aggressive"]
    assert made["ducker"] > made["heuristic"]
    assert tricks["aggressive"] > tricks["heuristic"] > tricks["ducker"]
    assert over["aggressive"] > over["heuristic"] > over["cautious"]


@pytest.mark.parametrize("preset", ["callbreak", "callbreak-bhoos", "callbridge"])
def test_a_table_of_styles_plays_only_legal_actions(preset: str) -> None:
    rules = Rules.preset(preset).replace(match_end="deals", match_deals=2)
    for seed in range(4):
        seats = [(*STYLES, "heuristic")[(seed + s) % 5] for s in range(4)]
        bots = [make_bot(spec, seed=seed * 4 + s) for s, spec in enumerate(seats)]
        match = Match(rules, seed=seed)
        play_legally(match, bots)


@pytest.mark.parametrize("preset", ["batak-ihale", "rook-call-partner"])
def test_other_games_fall_back_to_the_heuristic(preset: str) -> None:
    rules = Rules.preset(preset).replace(match_end="deals", match_deals=1)
    for spec in (*STYLES, "expert-plain"):
        styled = [make_bot(spec, seed=s) for s in range(rules.players)]
        # Only the callers' margin carries over, into the bids.
        caution = getattr(styled[0], "caution", HeuristicBot().caution)
        plain = [HeuristicBot(seed=s, caution=caution) for s in range(rules.players)]
        match = Match(rules, seed=5)
        while not match.over:
            seat = match.to_act
            assert seat is not None
            observation = match.observation(seat)
            action = styled[seat].act(observation)
            assert action == plain[seat].act(observation)
            match.act(action)


def test_style_options_and_the_selfplay_slot() -> None:
    assert make_bot("cautious:under=2").act is not None
    with pytest.raises(ValueError, match="bad options"):
        make_bot("trumper:under=1")
    selfplay = make_bot("selfplay", seed=1)
    assert selfplay.name == "selfplay"
    with pytest.raises(ValueError):
        make_bot("selfplay:path=/nonexistent/policy.npz")

"""Scoring (docs/rules/callbreak.md rule 6, docs/rules/callbridge.md,
docs/rules/batak-koz-maca.md): the rule book's worked examples, by ``Rules.score`` and
by whole deals played through the engine.

Whole deals with a known trick count use a *split* deal: seat ``a`` holds the top ``k``
spades and the lowest ``13 - k`` hearts, seat ``b`` the other spades and hearts, and the
two other seats only diamonds and clubs. Whoever of ``a``/``b`` leads and whatever legal
cards are chosen, every spade of ``a`` wins a trick and nothing else of ``a`` does, so
``a`` wins exactly ``k`` tricks, ``b`` the other ``13 - k`` and the others none.
"""

from __future__ import annotations

import random
from typing import Any

import pytest

from callbreak import Deal, Points, Rules
from helpers import split_hands


def play_out(deal: Deal, calls: list[int], rng: random.Random) -> Deal:
    """Refuse any misdeal, make ``calls`` (by seat), declare nothing, play random legal cards."""
    while deal.phase not in ("over", "void"):
        if deal.phase == "call":
            assert deal.to_act is not None
            deal.act(calls[deal.to_act])
        elif deal.phase in ("misdeal", "declare"):
            deal.act(False)
        else:
            deal.act(rng.choice(deal.legal()))
    return deal


# ------------------------------------------------------------------ Rules.score tables
SCORE_TABLE: list[tuple[str, dict[str, Any], int, int, str]] = [
    # Call Break, docs/rules/callbreak.md rule 6
    ("callbreak", {}, 4, 5, "4.1"),
    ("callbreak", {}, 4, 7, "4.3"),
    ("callbreak", {}, 4, 3, "-4"),
    ("callbreak", {}, 4, 4, "4"),
    ("callbreak", {}, 4, 0, "-4"),
    ("callbreak", {}, 1, 13, "2.2"),
    ("callbreak", {}, 8, 13, "8.5"),
    ("callbreak", {}, 13, 13, "13"),
    ("callbreak", {}, 13, 12, "-13"),
    ("callbreak", {}, 12, 13, "12.1"),
    ("callbreak-bhoos", {}, 8, 9, "8.1"),
    ("callbreak-bhoos", {}, 3, 2, "-3"),
    # bonus_call = 8: a made call of 8 or more scores a flat 13
    ("callbreak", {"bonus_call": 8}, 8, 8, "13"),
    ("callbreak", {"bonus_call": 8}, 8, 9, "13"),
    ("callbreak", {"bonus_call": 8}, 9, 13, "13"),
    ("callbreak", {"bonus_call": 8}, 13, 13, "13"),
    ("callbreak", {"bonus_call": 8}, 8, 7, "-8"),
    ("callbreak", {"bonus_call": 8}, 10, 9, "-10"),
    ("callbreak", {"bonus_call": 8}, 7, 8, "7.1"),
    ("callbreak", {"bonus_call": 8}, 7, 13, "7.6"),
    # Call Bridge, docs/rules/callbridge.md: success is the call or one more
    ("callbridge", {}, 9, 9, "13"),
    ("callbridge", {}, 9, 10, "13"),
    ("callbridge", {}, 9, 8, "-9"),
    ("callbridge", {}, 9, 0, "-9"),
    ("callbridge", {}, 9, 11, "-9"),
    ("callbridge", {}, 9, 13, "-9"),
    ("callbridge", {}, 8, 8, "13"),
    ("callbridge", {}, 12, 13, "13"),
    ("callbridge", {}, 12, 12, "13"),
    ("callbridge", {}, 7, 7, "7"),
    ("callbridge", {}, 7, 8, "7"),
    ("callbridge", {}, 7, 9, "-7"),
    ("callbridge", {}, 4, 4, "4"),
    ("callbridge", {}, 4, 5, "4"),
    ("callbridge", {}, 4, 6, "-4"),
    ("callbridge", {}, 4, 3, "-4"),
    ("callbridge", {}, 2, 2, "2"),
    ("callbridge", {}, 2, 0, "-2"),
    # the house rule bonus_points = 16
    ("callbridge", {"bonus_points": 16}, 9, 9, "16"),
    ("callbridge", {"bonus_points": 16}, 9, 10, "16"),
    ("callbridge", {"bonus_points": 16}, 8, 8, "16"),
    ("callbridge", {"bonus_points": 16}, 9, 11, "-9"),
    ("callbridge", {"bonus_points": 16}, 9, 8, "-9"),
    ("callbridge", {"bonus_points": 16}, 7, 7, "7"),
    # success_window = exact
    ("callbreak", {"success_window": "exact"}, 4, 4, "4"),
    ("callbreak", {"success_window": "exact"}, 4, 5, "-4"),
    ("callbreak", {"success_window": "exact"}, 4, 3, "-4"),
    ("callbridge", {"success_window": "exact", "max_call": 8}, 8, 8, "13"),
    ("callbridge", {"success_window": "exact", "max_call": 8}, 8, 9, "-8"),
    ("callbridge", {"success_window": "exact", "max_call": 8}, 5, 5, "5"),
    ("callbridge", {"success_window": "exact", "max_call": 8}, 5, 6, "-5"),
    # success_window = at_least under Call Bridge scoring: the bonus still needs call or call+1
    ("callbridge", {"success_window": "at_least"}, 9, 9, "13"),
    ("callbridge", {"success_window": "at_least"}, 9, 10, "13"),
    ("callbridge", {"success_window": "at_least"}, 9, 11, "9"),
    ("callbridge", {"success_window": "at_least"}, 9, 13, "9"),
    ("callbridge", {"success_window": "at_least"}, 9, 8, "-9"),
    ("callbridge", {"success_window": "at_least"}, 4, 7, "4"),
    ("callbridge", {"success_window": "at_least"}, 4, 3, "-4"),
    # ... while under Call Break scoring a made bonus call always scores the bonus
    ("callbreak", {"bonus_call": 8}, 9, 11, "13"),
    # success_window = call_to_call_plus:3 (Batak koz maça option) without tenths
    ("callbreak", {"success_window": "call_to_call_plus:3", "overtrick_points": 0}, 4, 4, "4"),
    ("callbreak", {"success_window": "call_to_call_plus:3", "overtrick_points": 0}, 4, 7, "4"),
    ("callbreak", {"success_window": "call_to_call_plus:3", "overtrick_points": 0}, 4, 8, "-4"),
    ("callbreak", {"success_window": "call_to_call_plus:3", "overtrick_points": 0}, 4, 3, "-4"),
    ("callbreak", {"success_window": "call_to_call_plus:3"}, 4, 6, "4.2"),
    # overtrick_points = 0: won >= call scores +call
    ("callbreak", {"overtrick_points": 0}, 4, 7, "4"),
    ("callbreak", {"overtrick_points": 0}, 4, 4, "4"),
    ("callbreak", {"overtrick_points": 0}, 4, 3, "-4"),
    ("callbreak", {"overtrick_points": "0.5"}, 4, 6, "5"),
    ("callbreak", {"overtrick_points": 1}, 4, 6, "6"),
]


@pytest.mark.parametrize(("preset", "options", "call", "won", "expected"), SCORE_TABLE)
def test_rules_score(
    preset: str, options: dict[str, Any], call: int, won: int, expected: str
) -> None:
    rules = Rules.preset(preset).replace(**options)
    points = rules.score(call, won)
    assert isinstance(points, Points)
    assert str(points) == expected
    assert points == Points.parse(expected)


def test_call_break_five_deals_of_4_1() -> None:
    rules = Rules.preset("callbreak")
    total = sum((rules.score(4, 5) for _ in range(5)), Points(0))
    assert str(total) == "20.5"
    assert str(rules.score(4, 5) + rules.score(0, 1) * 0 + Points(1) + Points(1)) == "4.3"


# ------------------------------------------------------------------ the split deal itself
@pytest.mark.parametrize("k", range(14))
@pytest.mark.parametrize(("a", "b"), [(0, 1), (1, 0), (0, 2), (3, 0)])
@pytest.mark.parametrize(
    "options",
    [
        {},
        {"must_overtake": False, "must_trump": "never"},
        {"must_trump": "always", "no_waste_trump": True, "spades_broken": True},
    ],
)
def test_split_deal_gives_exactly_k_tricks(k: int, a: int, b: int, options: dict[str, Any]) -> None:
    rules = Rules.preset("callbreak").replace(**options)
    dealer = (a - 1) % 4  # a leads
    for seed in range(3):
        deal = play_out(
            Deal(rules, hands=split_hands(a, b, k), dealer=dealer), [4] * 4, random.Random(seed)
        )
        assert deal.phase == "over"
        expected = [0] * 4
        expected[a], expected[b] = k, 13 - k
        assert deal.tricks == expected


# ------------------------------------------------------------------ whole deals
# (preset, options, k won by seat 0, calls by seat, points by seat)
DEAL_TABLE: list[tuple[str, dict[str, Any], int, list[int], list[str]]] = [
    ("callbreak", {}, 5, [4, 8, 1, 1], ["4.1", "8", "-1", "-1"]),
    ("callbreak", {}, 7, [4, 6, 1, 1], ["4.3", "6", "-1", "-1"]),
    ("callbreak", {}, 3, [4, 9, 1, 1], ["-4", "9.1", "-1", "-1"]),
    ("callbreak", {}, 13, [13, 1, 1, 1], ["13", "-1", "-1", "-1"]),
    ("callbreak", {}, 0, [1, 13, 1, 1], ["-1", "13", "-1", "-1"]),
    ("callbreak", {"bonus_call": 8}, 9, [8, 4, 1, 1], ["13", "4", "-1", "-1"]),
    ("callbreak", {"bonus_call": 8}, 7, [8, 6, 1, 1], ["-8", "6", "-1", "-1"]),
    ("callbreak-bhoos", {"misdeal": "off"}, 9, [8, 4, 1, 1], ["8.1", "4", "-1", "-1"]),
    ("callbridge", {}, 9, [9, 4, 2, 2], ["13", "4", "-2", "-2"]),
    ("callbridge", {}, 10, [9, 3, 2, 2], ["13", "3", "-2", "-2"]),
    ("callbridge", {}, 8, [9, 4, 2, 2], ["-9", "4", "-2", "-2"]),
    ("callbridge", {}, 11, [9, 2, 2, 2], ["-9", "2", "-2", "-2"]),
    ("callbridge", {}, 5, [4, 7, 2, 2], ["4", "7", "-2", "-2"]),
    ("callbridge", {"bonus_points": 16}, 10, [9, 2, 2, 2], ["16", "2", "-2", "-2"]),
    (
        "callbridge",
        {"success_window": "exact", "max_call": 8},
        5,
        [4, 8, 2, 2],
        ["-4", "13", "-2", "-2"],
    ),
    ("callbridge", {"success_window": "at_least"}, 11, [9, 2, 2, 2], ["9", "2", "-2", "-2"]),
    (
        "callbreak",
        {"success_window": "call_to_call_plus:3", "overtrick_points": 0},
        7,
        [4, 2, 1, 1],
        ["4", "-2", "-1", "-1"],
    ),
    ("callbreak", {"overtrick_points": 0}, 7, [4, 6, 1, 1], ["4", "6", "-1", "-1"]),
]


@pytest.mark.parametrize(("preset", "options", "k", "calls", "expected"), DEAL_TABLE)
def test_whole_deal_points(
    preset: str, options: dict[str, Any], k: int, calls: list[int], expected: list[str]
) -> None:
    rules = Rules.preset(preset).replace(**options)
    deal = play_out(Deal(rules, hands=split_hands(0, 1, k), dealer=3), calls, random.Random(k))
    assert deal.phase == "over"
    assert deal.tricks == [k, 13 - k, 0, 0]
    assert deal.points is not None
    assert [str(p) for p in deal.points] == expected
    assert deal.points == [rules.score(c, w) for c, w in zip(calls, deal.tricks, strict=True)]
    for seat in range(4):
        obs = deal.observation(seat)
        assert obs.points is not None
        assert [str(p) for p in obs.points] == expected
        assert obs.to_dict()["points"] == [Points.parse(e).json() for e in expected]


def test_points_are_none_until_the_deal_is_over() -> None:
    rules = Rules.preset("callbreak")
    deal = Deal(rules, hands=split_hands(0, 1, 5), dealer=3)
    rng = random.Random(1)
    while deal.phase != "over":
        assert deal.points is None
        if deal.phase == "call":
            deal.act(3)
        elif deal.phase == "misdeal":
            deal.act(False)
        else:
            deal.act(rng.choice(deal.legal()))
    assert deal.points is not None


@pytest.mark.parametrize(
    ("preset", "options"),
    [
        ("callbreak", {}),
        ("callbreak-bhoos", {}),
        ("callbridge", {}),
        ("callbreak", {"bonus_call": 8, "must_trump": "always"}),
        ("callbridge", {"success_window": "at_least", "bonus_points": 16}),
        ("callbreak", {"success_window": "call_to_call_plus:3", "overtrick_points": 0}),
        ("callbreak", {"success_window": "exact", "max_call": 8, "no_waste_trump": True}),
    ],
)
def test_random_deals_score_by_the_rules(preset: str, options: dict[str, Any]) -> None:
    """Shuffled hands, random calls and random legal cards: points == score(call, won)."""
    rules = Rules.preset(preset).replace(**options)
    played = 0
    for seed in range(40):
        rng = random.Random(seed)
        fixed = Deal(rules, seed=seed, dealer=seed % 4)
        hands = [fixed.hand(s) for s in range(4)]
        calls = [rng.randint(rules.min_call, rules.max_call) for _ in range(4)]
        deal = play_out(Deal(rules, hands=hands, dealer=seed % 4), calls, rng)
        if deal.phase == "void":
            assert deal.points == [Points(0)] * 4
            continue
        played += 1
        assert sum(deal.tricks) == 13
        assert deal.calls == calls
        assert deal.points == [rules.score(c, w) for c, w in zip(calls, deal.tricks, strict=True)]
        for call, won, points in zip(calls, deal.tricks, deal.points, strict=True):
            assert points == expected_points(rules, call, won)
    assert played >= 10


def expected_points(rules: Rules, call: int, won: int) -> Points:
    """docs/rules/callbreak.md rule 6 and docs/rules/callbridge.md
    written out again, independently of ``Rules.score``."""
    window = rules.success_window
    if window == "at_least":
        made = won >= call
    elif window == "exact":
        made = won == call
    elif window == "call_or_one_over":
        made = won in (call, call + 1)
    else:
        made = call <= won <= call + int(window.split(":")[1])
    if not made:
        return Points.parse(-call)
    bonus = rules.bonus_call is not None and call >= rules.bonus_call
    if bonus and (rules.scoring == "callbreak" or won in (call, call + 1)):
        return Points.parse(rules.bonus_points)
    return Points.parse(call) + rules.overtrick_points * (won - call)

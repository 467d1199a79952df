"""Exact scores in tenths (docs/rules/common.md: 4.1 + 0.1 + 0.1 is 4.3, never 4.2999999)."""

from __future__ import annotations

from decimal import Decimal
from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st

from callbreak import Points


def test_five_deals_of_4_1_sum_to_20_5_exactly() -> None:
    total = sum([Points.parse("4.1")] * 5, Points(0))
    assert total.tenths == 205
    assert str(total) == "20.5"
    assert total == Decimal("20.5")
    assert total == 20.5
    assert total == Fraction(41, 2)


def test_sum_with_builtin_sum_and_int_start() -> None:
    assert str(sum([Points.parse("4.1")] * 5)) == "20.5"  # sum() starts from int 0


def test_tenths_add_exactly() -> None:
    total = Points.parse("4.1") + Points.parse("0.1") + Points.parse("0.1")
    assert total == Points.parse("4.3")
    assert str(total) == "4.3"
    assert total.tenths == 43
    # the float way is wrong; Points is not
    assert 4.1 + 0.1 + 0.1 != 4.3
    assert total == 4.3


@pytest.mark.parametrize(
    ("tenths", "text"),
    [
        (41, "4.1"),
        (-30, "-3"),
        (130, "13"),
        (0, "0"),
        (1, "0.1"),
        (-1, "-0.1"),
        (-43, "-4.3"),
        (205, "20.5"),
        (-1300, "-130"),
    ],
)
def test_str_forms(tenths: int, text: str) -> None:
    points = Points(tenths)
    assert str(points) == text
    assert f"{points}" == text
    assert Points.parse(text) == points


@pytest.mark.parametrize(
    ("value", "tenths"),
    [("4.1", 41), (4.1, 41), (-3, -30), ("-3", -30), (Decimal("0.1"), 1), ("13", 130), (0, 0)],
)
def test_parse(value: str | int | float | Decimal, tenths: int) -> None:
    assert Points.parse(value).tenths == tenths


@pytest.mark.parametrize("value", ["4.15", 0.05, "abc", "", True, False, "1e-2"])
def test_parse_refuses_non_tenths(value: str | float | bool) -> None:
    with pytest.raises(ValueError):
        Points.parse(value)


def test_whole_and_arithmetic() -> None:
    assert Points.whole(-4) == -4
    assert Points.whole(13).tenths == 130
    assert Points(41) - Points(1) == 4
    assert Points(41) + 1 == Points(51)
    assert 1 + Points(41) == Points(51)
    assert Points(41) - 4 == Points(1)
    assert -Points(41) == Points(-41)
    assert Points(1) * 3 == Points(3)
    assert 3 * Points(1) == Points.parse("0.3")


@pytest.mark.parametrize(
    ("points", "other", "relation"),
    [
        (Points(41), 4, ">"),
        (Points(40), 4, "=="),
        (Points(-30), -3, "=="),
        (Points(41), 4.1, "=="),
        (Points(41), 4.2, "<"),
        (Points(41), 4.09, ">"),
        (Points(41), Decimal("4.1"), "=="),
        (Points(41), Decimal("4.10"), "=="),
        (Points(41), Decimal("4.11"), "<"),
        (Points(41), Fraction(41, 10), "=="),
        (Points(130), 13, "=="),
        (Points(130), 13.0, "=="),
        (Points(-41), -4, "<"),
        (Points(41), Points(43), "<"),
    ],
)
def test_comparisons_with_numbers(points: Points, other: object, relation: str) -> None:
    if relation == "==":
        assert points == other
        assert (points != other) is False
        assert points <= other and points >= other
        assert not points < other
    elif relation == "<":
        assert points < other
        assert points <= other
        assert points != other
        assert not points > other
    else:
        assert points > other
        assert points >= other
        assert points != other


def test_float_sum_is_not_the_same_as_4_3_but_the_exact_one_is() -> None:
    assert Points(43) != 4.1 + 0.1 + 0.1  # 4.299999999999999 is not 4.3


def test_unrelated_types_are_not_equal_and_not_ordered() -> None:
    assert Points(10) != "1"
    assert Points(10) != True  # noqa: E712  (a bool is not a score)
    with pytest.raises(TypeError):
        _ = Points(10) < "1"


def test_points_are_immutable_and_hash_like_exact_numbers() -> None:
    points = Points(41)
    with pytest.raises(AttributeError):
        points.tenths = 5
    assert hash(points) == hash(Points.parse("4.1"))
    # Points compare equal to the float of their tenths (Points(41) == 4.1), so they hash
    # like it; Decimal("4.1") and Fraction(41, 10) compare equal too but hash differently
    # from 4.1 in Python itself, so only one family can share the hash.
    assert hash(points) == hash(4.1)
    assert points in {4.1}
    assert hash(Points(130)) == hash(13) == hash(13.0)
    assert len({Points(41), Points.parse("4.1"), Points(40), Points.whole(4)}) == 2


def test_json_values_and_decimal() -> None:
    assert Points(130).json() == 13
    assert isinstance(Points(130).json(), int)
    assert Points(41).json() == 4.1
    assert Points(-30).json() == -3
    assert Points(41).as_decimal() == Decimal("4.1")
    assert Points(130).as_decimal() == Decimal(13)
    assert float(Points(-41)) == -4.1


@given(st.lists(st.integers(min_value=-1300, max_value=1300), max_size=30))
def test_sums_are_exact(tenths: list[int]) -> None:
    total = sum((Points(t) for t in tenths), Points(0))
    assert total.tenths == sum(tenths)
    assert total == Fraction(sum(tenths), 10)
    assert Points.parse(str(total)) == total


@given(st.integers(min_value=-(10**6), max_value=10**6))
def test_str_round_trips(tenths: int) -> None:
    points = Points(tenths)
    assert Points.parse(str(points)) == points
    assert Decimal(str(points)) == Fraction(tenths, 10)
    assert Points.parse(points.json()) == points


def test_points_and_rules_survive_pickling() -> None:
    """Worker processes (the arena) receive rules and scores by pickle."""
    import pickle

    from callbreak import Rules

    assert pickle.loads(pickle.dumps(Points(41))) == Points(41)
    rules = Rules.preset("callbreak")
    assert pickle.loads(pickle.dumps(rules)) == rules


@pytest.mark.parametrize("value", ["inf", "-Infinity", "NaN", float("inf"), float("nan")])
def test_no_infinite_or_missing_score(value: str | float) -> None:
    with pytest.raises(ValueError, match="is not a number"):
        Points.parse(value)

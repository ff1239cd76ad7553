"""Tests for movecheck.maneuver.dice."""

from __future__ import annotations

from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st

from movecheck.maneuver.dice import Dice, DiceError, describe_probability


@pytest.mark.parametrize(
    "text, expected, canonical",
    [
        ("1d6", Dice(1, 6), "1d6"),
        ("2d6", Dice(2, 6), "2d6"),
        ("3d6", Dice(3, 6), "3d6"),
        ("d6", Dice(1, 6), "1d6"),
        ("1d2", Dice(1, 2), "1d2"),
        ("2d6+1", Dice(2, 6, 1), "2d6+1"),
        ("1d6-1", Dice(1, 6, -1), "1d6-1"),
        (" 2D6 + 1 ", Dice(2, 6, 1), "2d6+1"),
        ("1", Dice(0, 1, 1), "1"),
        ("0", Dice(0, 1, 0), "0"),
        (3, Dice(0, 1, 3), "3"),
    ],
)
def test_parse_variants(text, expected, canonical):
    dice = Dice.parse(text)
    assert dice == expected
    assert str(dice) == canonical
    assert Dice.parse(str(dice)) == dice


@pytest.mark.parametrize(
    "text", ["3x6", "", "   ", "0d6", "d", "2d", "d0", "2d6+", "2d6+1+1", "101d6", "1d1001",
             "six", "1.5", "2d6*2", True, None, 1.0, [1, 6]],
)
def test_parse_errors(text):
    with pytest.raises(DiceError) as info:
        Dice.parse(text)
    message = str(info.value)
    assert "\n" not in message
    assert message


def test_dice_error_is_value_error():
    assert issubclass(DiceError, ValueError)
    with pytest.raises(ValueError):
        Dice(-1, 6)
    with pytest.raises(ValueError):
        Dice(1, 0)


def test_ranges():
    assert (Dice.parse("1d6").low, Dice.parse("1d6").high) == (1, 6)
    d3 = Dice.parse("3d6")
    assert list(d3.values()) == list(range(3, 19))
    assert (Dice.parse("2d6+1").low, Dice.parse("2d6+1").high) == (3, 13)
    one = Dice.parse("1")
    assert list(one.values()) == [1]
    assert one.is_constant and not d3.is_constant
    assert 18 in d3 and 3 in d3
    assert 2 not in d3 and 19 not in d3 and "4" not in d3 and True not in Dice.parse("1d2")


def test_distribution_2d6():
    dist = Dice.parse("2d6").distribution()
    assert sum(dist.values()) == 1
    assert dist[7] == Fraction(6, 36)
    assert dist[2] == dist[12] == Fraction(1, 36)
    assert set(dist) == set(range(2, 13))
    assert all(isinstance(p, Fraction) for p in dist.values())


def test_distribution_3d6_and_constants():
    dist = Dice.parse("3d6").distribution()
    assert min(dist) == 3 and max(dist) == 18
    assert dist[10] == dist[11] == Fraction(27, 216)
    assert sum(dist.values()) == 1
    assert Dice.parse("0").distribution() == {0: Fraction(1)}
    assert Dice.parse("1d2+1").distribution() == {2: Fraction(1, 2), 3: Fraction(1, 2)}


def test_probability():
    d2 = Dice.parse("2d6")
    assert d2.probability(lambda v: v <= 7) == Fraction(21, 36)
    assert d2.prob_at_most(7) == Fraction(7, 12)
    assert d2.prob_at_least(11) == Fraction(3, 36)
    assert d2.prob_at_most(1) == 0
    assert d2.prob_at_least(2) == 1
    assert describe_probability(d2.prob_at_most(7)) == "58%"


@pytest.mark.parametrize(
    "p, text",
    [
        (Fraction(0), "0%"),
        (Fraction(1), "100%"),
        (Fraction(21, 36), "58%"),
        (Fraction(1, 2), "50%"),
        (Fraction(1, 200), "1%"),  # 0.5% rounds half up
        (Fraction(1, 201), "<1%"),
        (Fraction(1, 216), "<1%"),
        (Fraction(199, 200), ">99%"),  # 99.5% rounds up to 100 but is not certain
        (Fraction(989, 1000), "99%"),
        (Fraction(215, 216), ">99%"),
        (Fraction(1, 3), "33%"),
        (Fraction(2, 3), "67%"),
        (0.25, "25%"),
        (1, "100%"),
    ],
)
def test_describe_probability(p, text):
    assert describe_probability(p) == text


def test_describe_probability_rejects_out_of_range():
    with pytest.raises(ValueError):
        describe_probability(Fraction(3, 2))
    with pytest.raises(ValueError):
        describe_probability(-0.1)


def test_large_dice_are_exact():
    big = Dice.parse("20d20")
    dist = big.distribution()
    assert sum(dist.values()) == 1
    assert dist[20] == Fraction(1, 20**20)


@given(count=st.integers(1, 8), sides=st.integers(1, 12), bonus=st.integers(-5, 5))
def test_distribution_properties(count, sides, bonus):
    dice = Dice(count, sides, bonus)
    dist = dice.distribution()
    assert sum(dist.values()) == 1
    assert list(dist) == list(dice.values())
    assert all(p > 0 for p in dist.values())
    # symmetric about the mean
    for v, p in dist.items():
        assert dist[dice.low + dice.high - v] == p
    assert Dice.parse(str(dice)) == dice

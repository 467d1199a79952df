"""What ``Deal`` takes from its caller: a seed or a given layout, never both, and cards by
name wherever a card is asked (a number is the engine's inner code, never an answer)."""

from __future__ import annotations

import random

import pytest

from callbreak import Deal, IllegalAction, Rules
from helpers import DECK, refuse


def reach(preset: str, phase: str) -> Deal:
    """A deal of ``preset`` played by random legal actions until ``phase`` asks a seat."""
    rules = Rules.preset(preset)
    for seed in range(200):
        deal = Deal(rules, seed=seed, dealer=seed % rules.players)
        rng = random.Random(seed)
        while deal.to_act is not None and deal.phase != phase:
            deal.act(rng.choice(deal.legal()))
        if deal.phase == phase and deal.to_act is not None:
            return deal
    raise AssertionError(f"no seed below 200 reaches {preset}'s {phase}")


@pytest.mark.parametrize(
    ("preset", "phase", "example"),
    [
        ("callbreak", "play", "AS"),
        ("rook-call-partner", "discard", "1R"),
        ("rook-call-partner", "partner", "1R"),
        ("rook-call-partner", "play", "1R"),
        ("horsethief", "exchange", "AS"),
    ],
)
def test_a_number_where_a_card_is_asked_is_refused(preset: str, phase: str, example: str) -> None:
    """Even the number of a legal card: read as the card's code, it would play that card for
    a bot that meant a call."""
    deal = reach(preset, phase)
    card = next(a for a in deal.legal() if a != "done")
    number = deal.deck.parse(card)
    error = refuse(deal, number, "card")
    assert str(error) == f"{number} is not a card: name it like {example!r}"
    refuse(deal, 3, "card")
    deal.act(card)  # the name is taken


def test_a_number_is_still_a_call() -> None:
    deal = reach("callbreak", "call")
    deal.act(3)
    assert 3 in deal.calls


@pytest.mark.parametrize("given", ["hands", "deck"])
def test_a_seed_with_a_given_layout_is_refused(given: str) -> None:
    """The seed would name a shuffle that deals other cards: a review dealing the deal again
    from it would find the record's cards illegal."""
    rules = Rules.preset("callbreak")
    hands = [DECK[i::4] for i in range(4)] if given == "hands" else None
    deck = DECK if given == "deck" else None
    with pytest.raises(ValueError) as error:
        Deal(rules, hands, deck=deck, seed=5, dealer=0)
    assert str(error.value) == (
        f"give the {given} or a seed to shuffle, not both: seed 5 deals cards of its own, "
        f"not the {given} given"
    )
    assert not isinstance(error.value, IllegalAction)
    assert Deal(rules, hands, deck=deck, seed=None, dealer=0).seed is None

"""The learned call model: its inputs, the shipped weights' recorded outputs, the blend
into the expert's call, and the option that turns it on (docs/bots.md)."""

from __future__ import annotations

import numpy as np
import pytest

from callbreak import Rules
from callbreak.bots import make_bot
from callbreak.bots.expert_config import ExpertConfig
from callbreak.bots.learned import CALL_WEIGHTS, call_weight_versions, call_weights_path
from callbreak.bots.learned.callmodel import (
    FEATURES,
    NOT_CALLED,
    TRICKS,
    blended,
    earlier_calls,
    features,
    load,
    serves,
)
from callbreak.cards import parse_card
from callbreak.engine import Match


def mask(names: str) -> int:
    out = 0
    for name in names.split():
        out |= 1 << parse_card(name)
    return out


HANDS = (
    "AS KS QS JS 2H 3H 4H 5D 6D 7D 8C 9C TC",
    "2S 3S 4S 5H 6H 7H 8H 9D TD JD QC KC AC",
    "AH KH AD KD AC KC QC 2S 3H 4D 5C 6C 7C",
)
EARLIER_CALLS = ((NOT_CALLED,) * 3, (3, NOT_CALLED, NOT_CALLED), (2, 6, 4))
"""The calls made before each of HANDS' own, at places 0, 1 and 3."""
RECORDED = (  # the shipped weights' forecasts for HANDS, rounded
    (0.0, 0.0, 0.004, 0.1564, 0.3193, 0.4986, 0.0212, 0.0005, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0),
    (0.0036, 0.1077, 0.3661, 0.3378, 0.1502, 0.0326, 0.0019, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0),
    (0.0, 0.0002, 0.0452, 0.2406, 0.3701, 0.2554, 0.0714, 0.0155, 0.0014, 0.0, 0.0, 0.0, 0.0, 0.0),
)


def test_features_encode_cards_suit_lengths_and_place() -> None:
    x = features(np.array([mask(HANDS[0])]), np.array([2]))
    assert x.shape == (1, FEATURES)
    assert x[0, :52].sum() == 13 and x[0, parse_card("AS")] == 1 and x[0, parse_card("AH")] == 0
    lengths = x[0, 52 : 52 + 4 * 9].reshape(4, 9)
    assert lengths.sum(axis=1).tolist() == [1, 1, 1, 1]
    assert lengths.argmax(axis=1).tolist() == [4, 3, 3, 3]  # four spades, three of each other
    places = x[0, 52 + 4 * 9 : 52 + 4 * 9 + 4]
    assert places.tolist() == [0, 0, 1, 0]
    assert x[0, 52 + 4 * 9 + 4 :].sum() == 0  # no calls known
    with pytest.raises(ValueError, match="0 to 3"):
        features(np.array([1]), np.array([4]))


def test_features_encode_the_calls_made_before_the_seats_own() -> None:
    hand = np.array([mask(HANDS[0])])
    x = features(hand, np.array([2]), np.array([[3, 11, NOT_CALLED]]))
    calls = x[0, 52 + 4 * 9 + 4 :].reshape(3, 9)
    assert calls.sum(axis=1).tolist() == [1, 1, 0]
    assert calls.argmax(axis=1)[:2].tolist() == [3, 8]  # eleven shares the top feature
    with pytest.raises(ValueError, match="places before"):
        features(hand, np.array([1]), np.array([[3, 4, NOT_CALLED]]))
    with pytest.raises(ValueError, match="0 or more"):
        features(hand, np.array([3]), np.array([[3, -2, 1]]))


def test_the_earlier_calls_are_read_by_place_after_the_leader() -> None:
    match = first_call(Rules.preset("callbreak"))
    first = match.to_act
    assert first is not None
    assert earlier_calls(match.observation(first)).tolist() == [NOT_CALLED] * 3
    match.act(4)
    second = match.to_act
    assert second is not None and second != first
    assert earlier_calls(match.observation(second)).tolist() == [4, NOT_CALLED, NOT_CALLED]
    # Whoever looks, its own call is not an earlier one.
    assert earlier_calls(match.observation(first)).tolist() == [NOT_CALLED] * 3


def test_the_shipped_model_gives_the_recorded_outputs() -> None:
    assert call_weights_path(CALL_WEIGHTS).stat().st_size < 300_000
    hands = np.array([mask(h) for h in HANDS])
    p = load().predict(hands, np.array([0, 1, 3]), np.array(EARLIER_CALLS))
    assert p.shape == (3, TRICKS)
    np.testing.assert_allclose(p.sum(axis=1), 1.0)
    np.testing.assert_allclose(p, np.array(RECORDED), atol=1e-4)
    # Four top spades are worth about four tricks; three low spades and a weak side, two.
    means = p @ np.arange(TRICKS)
    assert 3.5 < means[0] < 4.5 and 1.8 < means[1] < 2.8
    # The more the others have called, the fewer tricks are left for the last to call.
    low, high = load().predict(hands[[2, 2]], np.array([3, 3]), np.array([[2] * 3, [6] * 3]))
    assert low @ np.arange(TRICKS) > high @ np.arange(TRICKS) + 1


def test_weights_are_read_by_version() -> None:
    assert call_weight_versions()[-1] == CALL_WEIGHTS  # the default is the newest
    np.testing.assert_array_equal(load(CALL_WEIGHTS).w1, load().w1)
    with pytest.raises(ValueError, match="no call model weights '1999-01-01': these ship"):
        load("1999-01-01")


def test_the_model_serves_call_breaks_deal_only() -> None:
    assert serves(Rules.preset("callbreak")) and serves(Rules.preset("callbreak-bhoos"))
    assert not serves(Rules.preset("callbridge"))  # a call made inside a window


def first_call(rules: Rules) -> Match:
    match = Match(rules, seed=3)
    assert match.phase == "call"
    return match


def test_the_blend_moves_weight_onto_the_forecast() -> None:
    match = first_call(Rules.preset("callbreak"))
    observation = match.observation(match.to_act or 0)
    hist = np.zeros((3, TRICKS))
    hist[:, 2] = 1.0
    assert blended(observation, hist, 0.0) is hist
    mixed = blended(observation, hist, 0.25)
    np.testing.assert_allclose(mixed.sum(axis=1), 1.0)
    place = (observation.seat - observation.trick.leader) % 4
    forecast = load().predict(np.array([observation.hand_mask]), np.array([place]))[0]
    np.testing.assert_allclose(mixed[1], 0.75 * hist[1] + 0.25 * forecast)
    match.act(5)  # the next seat's forecast reads that call
    later = match.observation(match.to_act or 0)
    place = (later.seat - later.trick.leader) % 4
    hand = np.array([later.hand_mask])
    forecast = load().predict(hand, np.array([place]), np.array([[5, NOT_CALLED, NOT_CALLED]]))
    np.testing.assert_allclose(blended(later, hist, 1.0), np.repeat(forecast, 3, axis=0))
    assert not np.allclose(forecast, load().predict(hand, np.array([place])))
    bridge = first_call(Rules.preset("callbridge"))
    assert blended(bridge.observation(bridge.to_act or 0), hist, 0.5) is hist


def test_the_expert_calls_with_the_model_on() -> None:
    with pytest.raises(ValueError, match="call_model is a blend weight"):
        ExpertConfig(call_model=1.5)
    assert ExpertConfig().call_model == 0.5  # measured: docs/expert-experiments.md
    bot = make_bot("expert:deterministic=1,call_worlds=4,call_model=1", seed=1)
    match = first_call(Rules.preset("callbreak"))
    observation = match.observation(match.to_act or 0)
    call = bot.act(observation)
    assert call in observation.legal
    assert getattr(bot, "fell_back", None) is None

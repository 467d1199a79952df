"""The learned call model: its inputs, the shipped weights' recorded outputs, the blend
into the expert's call, and the option that turns it on (docs/bots.md)."""

from __future__ import annotations

import numpy as np
import pytest

from callbreak import Rules
from callbreak.bots import make_bot
from callbreak.bots.expert_config import ExpertConfig
from callbreak.bots.learned import callmodel
from callbreak.bots.learned.callmodel import FEATURES, TRICKS, blended, features, load, serves
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
RECORDED = (  # the shipped weights' forecasts for HANDS at places 0, 1 and 3, rounded
    (0.0, 0.0, 0.014, 0.2536, 0.4891, 0.2282, 0.0146, 0.0005, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0),
    (0.0019, 0.1, 0.3313, 0.3524, 0.187, 0.0256, 0.0018, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0),
    (0.0, 0.0, 0.0079, 0.0776, 0.2967, 0.2861, 0.2161, 0.087, 0.0249, 0.0032, 0.0002, 0, 1e-4, 0),
)


def test_features_encode_cards_suit_lengths_and_place() -> None:
    x = features(np.array([mask(HANDS[0])]), np.array([2]))
    assert x.shape == (1, FEATURES)
    assert x[0, :52].sum() == 13 and x[0, parse_card("AS")] == 1 and x[0, parse_card("AH")] == 0
    lengths = x[0, 52 : 52 + 4 * 9].reshape(4, 9)
    assert lengths.sum(axis=1).tolist() == [1, 1, 1, 1]
    assert lengths.argmax(axis=1).tolist() == [4, 3, 3, 3]  # four spades, three of each other
    assert x[0, -4:].tolist() == [0, 0, 1, 0]
    with pytest.raises(ValueError, match="0 to 3"):
        features(np.array([1]), np.array([4]))


def test_the_shipped_model_gives_the_recorded_outputs() -> None:
    assert callmodel.WEIGHTS.stat().st_size < 300_000
    p = load().predict(np.array([mask(h) for h in HANDS]), np.array([0, 1, 3]))
    assert p.shape == (3, TRICKS)
    np.testing.assert_allclose(p.sum(axis=1), 1.0)
    np.testing.assert_allclose(p, np.array(RECORDED), atol=1e-4)
    # Four top spades are worth about four tricks; three low spades and a weak side, two.
    means = p @ np.arange(TRICKS)
    assert 3.5 < means[0] < 4.5 and 1.8 < means[1] < 2.8


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
    bridge = first_call(Rules.preset("callbridge"))
    assert blended(bridge.observation(bridge.to_act or 0), hist, 0.5) is hist


def test_the_expert_calls_with_the_model_on() -> None:
    with pytest.raises(ValueError, match="call_model is a blend weight"):
        ExpertConfig(call_model=1.5)
    assert ExpertConfig().call_model == 0.0  # off unless measured better
    bot = make_bot("expert:deterministic=1,call_worlds=4,call_model=1", seed=1)
    match = first_call(Rules.preset("callbreak"))
    observation = match.observation(match.to_act or 0)
    call = bot.act(observation)
    assert call in observation.legal
    assert getattr(bot, "fell_back", None) is None

"""The family search's playouts were made faster without changing one decision.

Each table plays seeded whole deals with the heuristic at every seat through
``family_search.finish`` and hashes every deal's log (phase, seat, action of each
decision) with its points.  The fingerprints were recorded with the code before the
speed work (docs/speed.md, "The family search's playouts"), so a change to any
decision of any policy on these deals fails here.  Call Break and Batak koz maça are
in the list because they share the card tracking (``bots/knowledge.py``) and the
observation the policies read.
"""

from __future__ import annotations

import hashlib
import random
from dataclasses import fields

import pytest

from callbreak import Deal, Rules
from callbreak.bots import fivecard
from callbreak.bots.family_search import finish
from callbreak.bots.heuristic import HeuristicBot
from callbreak.decks import REVERSED, ROOK_DECK, ROOK_FREE, Deck
from callbreak.engine.games import card_points
from callbreak.engine.observation import Observation, TrickView, observe_public
from callbreak.engine.phases import Bidding
from callbreak.games import PRESETS
from callbreak.games.rook import points_taken

DEALS = 40

FINGERPRINTS = {
    "snarples@3": "ac5398c3ff409913dade1169575e45707f5dc962c123ad2e53e0b6535c4bca5b",
    "snarples@4": "76a9a2998160d08e428b9833e3f4d699e6239f5f6b6ad7e090345f5129a4b601",
    "snarples@5": "31839b550b7a5010390a79813aceb50638126af7a1454ea803202b38c4b6b39a",
    "snarples@6": "61d4c768f986af636f154853dd69a08f1312423476dbf2ca772be9cac4d8ae6b",
    "snarples@7": "089a7042651954ddbb4db0d5fcb1c6f52de8b7c23e2b012e5030f40ab2267da0",
    "snarples@8": "843a7f2143b6a5c2fc820c49460ed85f395ab7007d43fb53e7ad8d3b346e2733",
    "donut@4": "747e0ca0102a30064477fbee754dbed6552f2ec59e7e6baa42b9e441b8e4ab99",
    "donut@5": "2b7362e9fa5ecd87097c1002b5b22521b908fa3024eea753cfc34924be5700ad",
    "donut@6": "1129552397e5e53ba015cb574afbeb0074b6e5a0b50d9ca5be2eb6b30e08a908",
    "horsethief@3": "496477f0d0b7583edfee5f101ff595970d9c778884b9fd257500e5444cb8cf00",
    "horsethief@4": "a6c654992b4776747a0cdbac1a11ee46e34626b39e9c72f77d7e34527b7594e6",
    "horsethief@5": "a3490896a789609a49e3aee51fcc0cf579f34011eba06a9e4894cc9ae22299bc",
    "batak-ihale": "b697b4daf0f94808457841d4db82034e2c77e1061814ec2493bf2e5bdc09224a",
    "batak-koz-maca": "94686142b163cd4068b68fc09c3e76e444052f75bb19ea54bd41a8fa47dc291c",
    "rook-call-partner": "fcdfa9bf822ea45c7f40577b02c417459f1331299a32326e3b8b8a887887a2ea",
    "callbreak": "de47223822b485083a43b4235252c2d94dcdc7c92a93b65344c57ab1279aced2",
}
"""sha256 of the logs and points of ``DEALS`` deals per table, recorded before the change."""


def _table_rules(table: str) -> Rules:
    """``preset`` or ``preset@players``."""
    preset, _, players = table.partition("@")
    rules = Rules.preset(preset)
    return rules.replace(players=int(players)) if players else rules


def fingerprint(table: str, deals: int = DEALS) -> str:
    """The hash of ``deals`` heuristic deals of ``table`` (``preset`` or ``preset@players``)."""
    rules = _table_rules(table)
    n = rules.players
    digest = hashlib.sha256()
    for seed in range(deals):
        deal = Deal(rules, seed=seed, dealer=seed % n)
        points = finish(deal, [HeuristicBot(seed=s) for s in range(n)])
        digest.update(repr((list(deal.log), points)).encode())
    return digest.hexdigest()


@pytest.mark.parametrize("table", sorted(FINGERPRINTS))
def test_same_decisions_as_before(table: str) -> None:
    assert fingerprint(table) == FINGERPRINTS[table]


ANSWERS = {
    "snarples@3": "ffe2e309c57bf399d599b28b7cb0b1f7ada33b0755842dec99f14fa1476ce65a",
    "snarples@5": "2d5e2098465776dd83ff070bd1138ef92376e707169b079b9e2edbbcb14cf027",
    "snarples@8": "21de717e85a84b662f0980733d8f623ee87735e352832abcb27cd7fb83120ca9",
    "donut@4": "e41968e8aaf4d8fd73042d68e043f174f5b615ef6c143a436e334eaf6b90a987",
    "donut@6": "1325b43848705e5d5fedd9c8c86de042ed3d804ef9ea45bee5d84ca40a783acc",
    "horsethief@3": "99c989c2ad52627870acd60975f9ec7b5c49198517e13e812764952bf2b14c6c",
    "horsethief@5": "96189f5b86cdae47bebf1239b32726f3972cddee5dc4123a8171f65873ede2b9",
    "batak-ihale": "8e9ed767b647851cbeb94a8aec641fc18a5bf6ebf732ee7ab408e3202e4531ff",
    "batak-koz-maca": "10ec17c3b6336a8a75114be2c2d268891e7c1a52878860f0e16a1e2e98f0c3f6",
    "rook-call-partner": "8b65e92bd790f8506b554917782226b2185f97c17b48a844c05061f180be25f1",
    "callbreak": "d7fd3098bb38615cf6b85fec2e599babfc9a8f0f4a98ac5b8bec1a8bfba827f8",
}
"""sha256 of the heuristic's answer to every observation of ``DEALS`` deals in which a third
of the moves are random ones, recorded before the change: the policies are asked in states
their own play never reaches, and on forced turns too (which ``finish`` no longer asks)."""


def answers(table: str, deals: int = DEALS) -> str:
    """The hash of the heuristic's answer at every turn of ``deals`` deals of ``table``."""
    rules = _table_rules(table)
    n = rules.players
    rng = random.Random(7)
    bot = HeuristicBot(seed=1)
    digest = hashlib.sha256()
    for seed in range(deals):
        deal = Deal(rules, seed=seed, dealer=seed % n)
        while deal.to_act is not None:
            action = bot.act(deal.observation(deal.to_act))
            digest.update(repr(action).encode())
            deal.act(rng.choice(deal.legal()) if rng.random() < 1 / 3 else action)
    return digest.hexdigest()


@pytest.mark.parametrize("table", sorted(ANSWERS))
def test_same_answers_as_before_off_the_heuristics_path(table: str) -> None:
    assert answers(table) == ANSWERS[table]


# ---------------------------------------------------------------- the lighter paths' equals


def _states(preset: str, deals: int = 3) -> list[Deal]:
    """Deals of ``preset`` at every seat count it allows, at every step of heuristic play
    mixed with random moves (copies, so that each keeps its state)."""
    rng = random.Random(preset)
    base = Rules.preset(preset)
    low, high = base.shape.seats
    bot = HeuristicBot()
    out = []
    for n in range(low, high + 1):
        rules = base.replace(players=n) if n != base.players else base
        for seed in range(deals):
            deal = Deal(rules, seed=seed, dealer=seed % n)
            while deal.to_act is not None:
                out.append(deal.copy())
                action = bot.act(deal.observation(deal.to_act))
                deal.act(rng.choice(deal.legal()) if rng.random() < 0.3 else action)
            out.append(deal)
    return out


@pytest.mark.parametrize("preset", sorted(PRESETS))
def test_observations_are_the_dataclass_they_stand_for(preset: str) -> None:
    """``_build`` fills an observation without ``__init__``: it must be the very instance
    ``Observation(**fields)`` makes, its attributes in the fields' order."""
    names = [f.name for f in fields(Observation)]
    for deal in _states(preset):
        views = [deal.observation(s) for s in range(deal.players)]
        views.append(observe_public(deal))
        for view in views:
            made = Observation(**{name: getattr(view, name) for name in names})
            assert view == made
            assert list(vars(view)) == names == list(vars(made))
            assert vars(view) == vars(made)
            trick = view.trick
            assert trick == TrickView(trick.leader, trick.cards, trick.winner, trick.active)


def test_a_part_showing_a_piece_with_no_field_is_refused(monkeypatch: pytest.MonkeyPatch) -> None:
    deal = Deal(Rules.preset("batak-ihale"), seed=1)
    deal.act("pass")  # the auction's part is made with the first bid
    monkeypatch.setattr(Bidding, "public", lambda self, deal: {"bidz": ()})
    with pytest.raises(TypeError, match="bidz"):
        deal.observation(0)
    monkeypatch.setattr(Bidding, "public", lambda self, deal: {"trump": "H"})
    with pytest.raises(TypeError, match="trump"):
        deal.observation(0)  # the deal's own fields are not the parts' to fill


def test_a_quick_table_is_the_table() -> None:
    args = (2, 1, 0b1011, 1 << 40, {0: 3, 1: 4}, {0: 1 << 7}, {1: 0b10})
    quick = fivecard.Table.quick(*args)
    made = fivecard.Table(*args)
    assert quick == made and vars(quick) == vars(made) and repr(quick) == repr(made)


@pytest.mark.parametrize("deck", [REVERSED, ROOK_DECK, ROOK_DECK.with_rook_in(2)], ids=repr)
def test_deck_names_are_those_of_each_card_in_turn(deck: Deck) -> None:
    """The names remembered by suit are those read card by card, twice over."""
    rng = random.Random(deck.name)
    cards = list(deck.cards)
    for _ in range(300):
        mask = 0
        for card in rng.sample(cards, rng.randint(0, len(cards))):
            mask |= 1 << card
        expected = []
        for suit_mask in deck.suit_masks:
            for card in sorted(deck.cards, reverse=True):
                if (mask & suit_mask) >> card & 1:
                    expected.append(deck.names[card])
        if mask >> ROOK_FREE & 1:
            expected.append("ROOK")
        assert deck.hand_names(mask) == expected
        assert deck.hand_names(mask) == expected


def test_card_points_follow_any_deal_and_copy() -> None:
    """The card points taken are remembered from the last deal counted: deals and their
    copies read in turn, each at its own point, count as if counted afresh."""
    rules = Rules.preset("rook-call-partner")
    rng = random.Random(4)
    deals = [Deal(rules, seed=s) for s in range(3)]
    bot = HeuristicBot()
    for _ in range(400):
        deal = rng.choice(deals)
        if deal.to_act is None:
            continue
        deal.act(bot.act(deal.observation(deal.to_act)))
        if rng.random() < 0.1:
            deals.append(deal.copy())
        fresh = [0] * deal.players
        for _, cards, winner in deal.history:
            fresh[winner] += card_points(sum(1 << c for c in cards))
        if deal.history and len(deal.history) == rules.hand_size:
            fresh[deal.history[-1][2]] += rules.last_trick_points + card_points(deal.discards)
        assert points_taken(deal) == fresh


def test_a_blundering_bot_is_asked_at_every_card() -> None:
    """Only a bot that never blunders has its forced turns played for it: one that may blunder
    draws its chance at every card, so it still plays the deal it played before."""
    rules = Rules.preset("snarples").replace(players=4)
    for seed in range(5):
        asked = Deal(rules, seed=seed)
        players = [HeuristicBot(seed=s, blunder=0.2) for s in range(4)]
        while asked.to_act is not None:
            asked.act(players[asked.to_act].act(asked.observation(asked.to_act)))
        finished = Deal(rules, seed=seed)
        finish(finished, [HeuristicBot(seed=s, blunder=0.2) for s in range(4)])
        assert finished.log == asked.log

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

import pytest

from callbreak import Deal, Rules
from callbreak.bots.family_search import finish
from callbreak.bots.heuristic import HeuristicBot

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


def fingerprint(table: str, deals: int = DEALS) -> str:
    """The hash of ``deals`` heuristic deals of ``table`` (``preset`` or ``preset@players``)."""
    preset, _, players = table.partition("@")
    rules = Rules.preset(preset)
    if players:
        rules = rules.replace(players=int(players))
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

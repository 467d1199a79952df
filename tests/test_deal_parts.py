"""What the phases add to a deal: each part copies itself, a deal carries only the parts of
the phases it has walked, the observation is assembled from the parts' declared pieces, and
the log holds one typed entry per decision (docs/design.md)."""

from __future__ import annotations

import random

import pytest

from callbreak import Deal, Rules
from callbreak.engine import actions
from callbreak.engine.observation import observe_public
from callbreak.engine.parts import Part, Parts
from callbreak.engine.phases import Bidding, Calls, Exchanges, Nest, PartnerCall
from helpers import state


def _every_part() -> list[type[Part]]:
    found: list[type[Part]] = []
    todo = list(Part.__subclasses__())
    while todo:
        kind = todo.pop()
        found.append(kind)
        todo.extend(kind.__subclasses__())
    return found


@pytest.mark.parametrize("kind", _every_part(), ids=lambda kind: kind.__name__)
def test_part_copy_covers_every_slot(kind: type[Part]) -> None:
    part = kind(5)
    twin = part.copy()
    assert type(twin) is kind and twin is not part
    assert kind._fields, f"{kind.__name__} declares no slots"
    for name in kind._fields:
        mine, theirs = getattr(part, name), getattr(twin, name)
        assert theirs == mine, f"{kind.__name__}.copy leaves out {name}"
        if isinstance(mine, list):
            assert theirs is not mine, f"{kind.__name__}.copy shares its list {name}"
            theirs.append(None)
            assert getattr(part, name) != theirs


def _walk(rules: Rules, seed: int, steps: int) -> Deal:
    deal = Deal(rules, seed=seed, dealer=seed % rules.players)
    rng = random.Random(seed)
    for _ in range(steps):
        if deal.to_act is None:
            break
        deal.act(rng.choice(deal.legal()))
    return deal


@pytest.mark.parametrize("preset", sorted(Rules.presets()))
def test_copy_is_independent_in_every_phase(preset: str) -> None:
    rules = Rules.preset(preset)
    for seed in range(3):
        for steps in (0, 2, 5, 9):
            deal = _walk(rules, seed, steps)
            before = state(deal)
            twin = deal.copy()
            assert state(twin) == before
            assert type(twin.parts) is Parts
            rng = random.Random(seed + 100)
            while twin.to_act is not None:
                twin.act(rng.choice(twin.legal()))
            assert state(deal) == before, f"{preset}: playing the copy changed the original"


def test_a_deal_carries_only_the_parts_of_phases_it_walked() -> None:
    fresh = Deal(Rules.preset("callbreak"), seed=1, dealer=0)
    assert Bidding not in fresh.parts and Calls not in fresh.parts
    # the neutral values stand in for a part no phase has made yet
    assert fresh.bids == [] and fresh.contract is None and fresh.calls == [None] * 4
    fresh.act(3)
    assert Calls in fresh.parts and fresh.calls[1] == 3
    assert Bidding not in fresh.parts
    # asking (legal moves, observations, properties) never makes one
    batak = Deal(Rules.preset("batak-ihale"), seed=1, dealer=0)
    batak.legal()
    batak.observation(0)
    assert batak.contract is None and Bidding not in batak.parts
    rook = Deal(Rules.preset("rook-call-partner"), seed=1, dealer=0)
    assert rook.part(Nest).nest.bit_count() == 5  # the dealing fills the nest's part


def test_the_nest_is_the_declarers_once_taken() -> None:
    deal = _walk(Rules.preset("rook-call-partner"), 2, 0)
    while deal.phase == "auction":
        assert all(deal.observation(s).nest is None for s in range(4))
        deal.act(deal.legal()[-1] if deal.to_act != 1 else deal.legal()[0])
    declarer = deal.declarer
    assert declarer is not None and deal.phase == "discard"
    for seat in range(4):
        view = deal.observation(seat)
        assert (view.nest is not None) == (seat == declarer)
    assert deal.part(Nest).public(deal) == {}  # the nest declares nothing public


def test_pieces_are_declared_public_or_private() -> None:
    """A spectator's view holds exactly the public pieces, and a seat's only adds its own."""
    deal = _walk(Rules.preset("rook-call-partner"), 3, 40)
    assert deal.phase == "play" and deal.partner_card is not None
    partner = deal.part(PartnerCall)
    spectator = observe_public(deal)
    public: dict[str, object] = {}
    for part in deal.parts.values():
        public.update(part.public(deal))
    for name, value in public.items():
        assert getattr(spectator, name) == value, name
    assert spectator.nest is None and spectator.discards is None
    assert spectator.partner == (deal.partner if partner.known(deal) else None)
    assert deal.partner is not None
    assert deal.observation(deal.partner).partner == deal.partner
    declarer = deal.declarer
    assert declarer is not None
    assert deal.observation(declarer).discards == tuple(deal.names_of(deal.discards))


def test_an_exchanging_seat_remembers_its_own_throws_only() -> None:
    rules = Rules.preset("horsethief")
    for seed in range(20):
        deal = _walk(rules, seed, 40)
        exchanges = deal.parts.get(Exchanges)
        if exchanges is None or not exchanges.exchanges:
            continue
        for seat in range(rules.players):
            own = [e.action for e in deal.log if isinstance(e, actions.Exchanged)]
            mine = [
                e.action
                for e in deal.log
                if isinstance(e, actions.Exchanged) and e.seat == seat and e.action != "done"
            ]
            assert set(mine) <= set(own)
            assert deal.observation(seat).discards == (tuple(mine) or None)
        return
    pytest.fail("no seed reached an exchange")


def test_log_entries_are_typed_and_read_as_triples() -> None:
    deal = Deal(Rules.preset("batak-ihale"), seed=7, dealer=0)
    deal.act(5)
    deal.act("pass")
    first, second = deal.log
    assert isinstance(first, actions.Bid) and isinstance(second, actions.Bid)
    assert (first.phase, first.seat, first.action) == ("auction", 1, 5)
    assert first == ("auction", 1, 5) and second == ("auction", 2, "pass")
    phase, seat, action = second
    assert (phase, seat, action) == ("auction", 2, "pass")
    kinds = {
        actions.MisdealClaim,
        actions.CallMade,
        actions.VoidsDeclared,
        actions.Bid,
        actions.Discarded,
        actions.Exchanged,
        actions.TrumpNamed,
        actions.PartnerCalled,
        actions.InOrOut,
        actions.Settled,
        actions.Looked,
    }
    assert kinds == set(actions.Entry.__subclasses__())


def test_deal_keeps_the_common_core() -> None:
    """The phases' state is in parts, not in Deal's own slots."""
    assert "parts" in Deal.__slots__
    for moved in ("bids", "nest", "partner_card", "dropped", "exchanges", "calls", "settled"):
        assert moved not in Deal.__slots__

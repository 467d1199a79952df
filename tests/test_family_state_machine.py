"""Hypothesis state machines over whole matches of Batak İhaleli, Batak Koz Maça and Call
Partner (docs/rules/batak-ihale.md, docs/rules/batak-koz-maca.md,
docs/rules/rook-call-partner.md), checking docs/design.md's invariants after every action.

Steps play a random legal action, play out the rest of a deal, or try an illegal action
(which must raise IllegalAction naming a rule and change nothing).  Invariants: every card
of the deck lies in exactly one place (hands, the nest until taken, the discards, finished
tricks, the trick in progress); one card per seat per trick; 13 tricks in a finished deal;
each deal scored by its game's rule and the match totals equal to the sum of the deals;
Call Partner's card points are 200 a deal; and no observation shows another seat's hand or,
except the declarer's once it has taken it, the nest.
"""

from __future__ import annotations

import json
import re
from typing import Any, ClassVar

from hypothesis import HealthCheck, settings
from hypothesis import strategies as st
from hypothesis.stateful import initialize, invariant, rule

from callbreak import Deal, IllegalAction, Match, Points, Rules
from callbreak.games import rook as games
from helpers import MatchMachine

CARD_TOKEN = re.compile(r"\b(?:[2-9TJQKA][SHDC]|(?:1[0-4]|[1-9])[RYGB]|ROOK)\b")
PRE_PLAY = ("auction", "call", "trump", "discard", "partner")


def bits(mask: int) -> int:
    return mask.bit_count()


def deal_points(deal: Deal) -> list[Points]:
    """The points of a finished deal recomputed from the rule book, not from the engine's
    scorer: Batak §3, Koz Maça §4 (by ``Rules.score``), Call Partner §8."""
    rules = deal.rules
    if rules.game == "batak":
        bid, declarer = deal.contract, deal.declarer
        assert bid is not None and declarer is not None
        out = []
        for seat, won in enumerate(deal.tricks):
            # the declarer: ±bid; the others: +1 a trick, or −bid for no trick at all
            made = won >= bid
            value = (bid if made else -bid) if seat == declarer else (won or -bid)
            out.append(Points.whole(value * rules.score_multiplier))
        return out
    if rules.game == "rook":
        taken = rook_taken(deal)
        assert sum(taken) == 200
        side = {deal.declarer, deal.partner}
        ours = sum(taken[s] for s in range(4) if s in side)
        bid = deal.contract
        assert bid is not None
        return [
            Points.whole((ours if ours >= bid else -bid) if s in side else 200 - ours)
            for s in range(4)
        ]
    return [rules.score(c or 0, w) for c, w in zip(deal.calls, deal.tricks, strict=True)]


def rook_taken(deal: Deal) -> list[int]:
    """Card points each seat took, from card names: 1 = 15; 14, 10 = 10; 5 = 5; Rook = 20;
    the last trick 20 more and the buried nest."""
    values = {"1": 15, "14": 10, "10": 10, "5": 5}

    def value(name: str) -> int:
        return 20 if name == "ROOK" else values.get(name[:-1], 0)

    taken = [0] * 4
    for _, cards, winner in deal.history:
        taken[winner] += sum(value(deal.deck.names[c]) for c in cards)
    if len(deal.history) == 13:
        last = deal.history[-1][2]
        taken[last] += 20 + sum(value(n) for n in deal.names_of(deal.discards))
    return taken


def expected_legal(deal: Deal) -> set[str]:
    """The cards the seat to act may play, straight from the rule book: Call Partner only
    follows the colour led (§8); Batak and Koz Maça (§3, §4) add trump not led before it is
    broken, beating the winning card of the led suit, and trumping (over-trumping) when void."""
    seat = deal.to_act
    assert seat is not None
    stride, trump, rules = deal.deck.stride, deal.trump_suit, deal.rules
    hand = [c for c in range(deal.deck.size + 16) if deal.hands[seat] >> c & 1]

    def suit(card: int) -> int:
        return card // stride

    allowed = hand
    if not deal.trick:
        broken = any(suit(c) == trump for _, cards, _ in deal.history for c in cards)
        side = [c for c in hand if suit(c) != trump]
        if rules.game != "rook" and rules.spades_broken and not broken and side:
            allowed = side
    else:
        led = suit(deal.trick[0])
        trumps_in = [c for c in deal.trick if suit(c) == trump]
        win = max(trumps_in) if trumps_in else max(c for c in deal.trick if suit(c) == led)
        follow = [c for c in hand if suit(c) == led]
        trumps = [c for c in hand if suit(c) == trump]
        if follow:
            allowed = follow
            higher = [c for c in follow if c > win]
            if rules.game != "rook" and rules.must_overtake and suit(win) == led and higher:
                allowed = higher
        elif rules.game != "rook" and trumps and rules.must_trump != "never":
            over = [c for c in trumps if suit(win) != trump or c > win]
            if over:
                allowed = over
            elif rules.must_trump == "always":
                allowed = trumps
    return {deal.deck.names[c] for c in allowed}


class FamilyMachine(MatchMachine):
    """One match of ``PRESET`` with a few of its options drawn at random."""

    PRESET: ClassVar[str] = ""
    OPTIONS: ClassVar[dict[str, st.SearchStrategy[Any]]] = {}
    match: Match

    @initialize(data=st.data(), seed=st.integers(min_value=0, max_value=2**32))
    def start(self, data: st.DataObject, seed: int) -> None:
        rules = Rules.preset(self.PRESET)
        changes = data.draw(st.fixed_dictionaries({}, optional=self.OPTIONS), label="options")
        self.game_rules = rules.replace(**changes)
        self.match = Match(self.game_rules, seed=seed)
        self.checked = 0
        self.totals = [Points(0)] * 4

    # ------------------------------------------------------------------ steps
    @rule(data=st.data())
    def try_an_illegal_action(self, data: st.DataObject) -> None:
        match = self.match
        deal = match.deal
        rules = self.game_rules
        phase = match.phase
        legal = match.legal()
        candidates: list[Any] = [None, 2.5, "ZZ", "", True, False]
        every = deal.names_of(deal.deck.full)
        candidates += [c for c in every if c not in legal][:20]
        if phase in ("auction", "call"):
            low = rules.min_bid if phase == "auction" else rules.min_call
            high = rules.max_bid if phase == "auction" else rules.max_call
            candidates += [low - 1, high + 1, "S", "R"]
            if deal.contract is not None and phase == "auction":
                candidates.append(deal.contract)
            if rules.bid_step > 1 and phase == "auction":
                candidates.append(low + 1)
        if phase != "auction":
            candidates.append("pass")
        if phase == "trump":
            candidates += ["X", "S" if rules.game == "rook" else "R", 1]
        elif phase in ("auction", "call", "over"):
            candidates += [5, 70]  # card ints are accepted as cards: only where none is asked
        candidates = [c for c in candidates if c not in legal]
        action = data.draw(st.sampled_from(candidates), label="illegal")
        before = self.snapshot()
        try:
            match.act(action)
        except IllegalAction as error:
            assert error.rule and str(error)
        else:
            raise AssertionError(f"{action!r} was accepted in phase {phase}")
        assert self.snapshot() == before

    def snapshot(self) -> str:
        match = self.match
        deal = match.deal
        return json.dumps(
            {
                "match": [match.phase, match.to_act, match.over, len(match.entries)],
                "totals": [str(t) for t in match.totals],
                "legal": match.legal(),
                "hands": list(deal.hands),
                "nest": deal.nest,
                "discards": deal.discards,
                "log": deal.log,
                "trick": deal.trick,
                "history": deal.history,
                "trump": deal.trump,
                "partner": [deal.partner_card, deal.partner],
                "obs": [match.observation(s).to_dict() for s in range(4)],
            },
            default=str,
        )

    # ------------------------------------------------------------------ invariants
    @invariant()
    def someone_may_act_until_the_end(self) -> None:
        match = self.match
        if match.over:
            assert match.to_act is None and match.legal() == [] and match.winners
        else:
            assert match.to_act is not None, f"stuck in {match.phase}"
            assert match.legal(), f"nothing legal in {match.phase}"
            assert match.phase in (*PRE_PLAY, "play")

    @invariant()
    def every_card_in_exactly_one_place(self) -> None:
        deal = self.match.deal
        places = list(deal.hands)
        taken = deal.rules.game == "rook" and deal.phase != "auction"
        if not taken:
            places.append(deal.nest)
        else:
            assert deal.declarer is not None
            # once taken, the nest is in the declarer's hand or among its discards
            assert not deal.nest & ~(deal.hands[deal.declarer] | deal.discards | self.played())
        places.append(deal.discards)
        for _, cards, _ in deal.history:
            places.append(sum(1 << c for c in cards))
        places.append(sum(1 << c for c in deal.trick))
        union = 0
        for mask in places:
            assert not union & mask, "a card lies in two places"
            union |= mask
        assert union == deal.deck.full
        assert sum(bits(m) for m in places) == deal.deck.size
        assert bits(deal.discards) in ((0, 5) if deal.phase != "discard" else range(5))
        if deal.rules.game != "rook":
            assert deal.nest == 0 and deal.discards == 0
        # hands: 13 as dealt, less one per trick played to (the declarer holds the nest
        # while it discards)
        for seat in range(4):
            plays = len(deal.history) + (1 if self.seat_in_trick(seat) else 0)
            extra = 5 - bits(deal.discards) if seat == deal.declarer and taken else 0
            if deal.rules.game != "rook":
                extra = 0
            assert bits(deal.hands[seat]) == 13 - plays + extra

    def played(self) -> int:
        deal = self.match.deal
        mask = sum(1 << c for _, cards, _ in deal.history for c in cards)
        return mask | sum(1 << c for c in deal.trick)

    def seat_in_trick(self, seat: int) -> bool:
        deal = self.match.deal
        return seat in [(deal.leader + i) % 4 for i in range(len(deal.trick))]

    @invariant()
    def play_follows_the_rule_book(self) -> None:
        deal = self.match.deal
        if deal.phase == "play":
            assert set(deal.legal()) == expected_legal(deal)

    @invariant()
    def one_card_per_seat_per_trick(self) -> None:
        deal = self.match.deal
        obs = deal.observation(0)
        for trick in obs.history:
            assert len(trick.cards) == 4 and sorted(trick.seats(4)) == [0, 1, 2, 3]
        assert len(deal.trick) < 4
        assert len(set(obs.trick.seats(4))) == len(obs.trick.cards)
        if deal.phase == "play":
            assert deal.to_act == (deal.leader + len(deal.trick)) % 4
        winners = [w for _, _, w in deal.history]
        assert [winners.count(s) for s in range(4)] == deal.tricks
        # each trick's winner leads the next
        for (_, _, winner), (leader, _, _) in zip(deal.history, deal.history[1:], strict=False):
            assert leader == winner
        if deal.phase in PRE_PLAY:
            assert not deal.history and not deal.trick

    @invariant()
    def finished_deals_are_scored_by_the_rules_and_totals_add_up(self) -> None:
        match = self.match
        for entry in match.entries[self.checked :]:
            deal = entry.deal
            assert deal.phase == "over"  # none of these games throws a deal in
            assert len(deal.history) == 13 and sum(deal.tricks) == 13
            assert deal.points == deal_points(deal)
            if deal.rules.game == "rook":
                assert games.points_taken(deal) == rook_taken(deal)
                side = {deal.declarer, deal.partner}
                taken = rook_taken(deal)
                ours = sum(taken[s] for s in range(4) if s in side)
                theirs = sum(taken[s] for s in range(4) if s not in side)
                assert ours + theirs == 200
            if deal.rules.game == "batak":
                assert deal.declarer is not None and deal.trump is not None
            for seat in entry.counting_seats:
                points = deal.points
                assert points is not None
                self.totals[seat] += points[seat]
            assert list(entry.totals) == self.totals
        self.checked = len(match.entries)
        assert match.totals == self.totals
        if match.over:
            rules = self.game_rules
            scored = match.scored_deals
            if rules.match_end == "deals" and not any(e.tie_break for e in scored):
                assert len(scored) == rules.match_deals
            seats = scored[-1].counting_seats
            best = max(match.totals[s] for s in seats)
            assert match.winners == [s for s in seats if match.totals[s] == best]

    @invariant()
    def observations_hide_other_hands_and_the_nest(self) -> None:
        match = self.match
        deal = match.deal
        played = {deal.deck.names[c] for c in self.played_cards()}
        called = set() if deal.partner_card is None else {deal.deck.names[deal.partner_card]}
        nest = set(deal.names_of(deal.nest))
        for seat in range(4):
            obs = match.observation(seat)
            own = set(deal.hand(seat))
            assert set(obs.hand) == own
            view = obs.to_dict()
            legal = view.pop("legal")
            if obs.to_act == seat:
                assert legal == match.legal()
            else:
                assert legal == []
            shown = set(CARD_TOKEN.findall(json.dumps(view)))
            allowed = own | played | called
            declarer_view = seat == deal.declarer and deal.phase != "auction" and deal.nest
            if declarer_view:
                assert obs.nest is not None and set(obs.nest) == nest
                assert obs.discards is not None
                assert set(obs.discards) == set(deal.names_of(deal.discards))
                allowed |= nest | set(obs.discards)
            else:
                assert obs.nest is None and obs.discards is None
            assert shown <= allowed, (seat, deal.phase, shown - allowed)
            for other in range(4):
                if other != seat:
                    assert not (set(deal.hand(other)) - played - called) & shown
            partner_public = deal.partner_known or deal.partner == seat
            assert obs.partner == (deal.partner if partner_public else None)

    def played_cards(self) -> list[int]:
        deal = self.match.deal
        return [c for _, cards, _ in deal.history for c in cards] + list(deal.trick)


class BatakMachine(FamilyMachine):
    PRESET = "batak-ihale"
    OPTIONS: ClassVar[dict[str, st.SearchStrategy[Any]]] = {
        "match_end": st.sampled_from(["deals:1", "deals:2"]),
        "score_multiplier": st.sampled_from([1, 10]),
        "spades_broken": st.booleans(),
        "must_trump": st.sampled_from(["always", "winning"]),
        "must_overtake": st.booleans(),
        "tie_break": st.sampled_from(["extra_deal", "shared"]),
    }


class KozMacaMachine(FamilyMachine):
    PRESET = "batak-koz-maca"
    OPTIONS: ClassVar[dict[str, st.SearchStrategy[Any]]] = {
        "match_end": st.sampled_from(["deals:1", "deals:2"]),
        "success_window": st.just("call_to_call_plus:3"),
        "score_multiplier": st.sampled_from([1, 10]),
        "tie_break": st.sampled_from(["extra_deal", "shared"]),
    }


class RookMachine(FamilyMachine):
    PRESET = "rook-call-partner"
    OPTIONS: ClassVar[dict[str, st.SearchStrategy[Any]]] = {
        "match_end": st.sampled_from(["target:300", "deals:1", "deals:2"]),
        "min_bid": st.sampled_from([70, 100]),
        "bid_step": st.sampled_from([5, 10]),
        "tie_break": st.sampled_from(["extra_deal", "shared"]),
    }


SETTINGS = settings(
    max_examples=30,
    stateful_step_count=60,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much],
)
BatakMachine.TestCase.settings = SETTINGS
KozMacaMachine.TestCase.settings = SETTINGS
RookMachine.TestCase.settings = SETTINGS
TestBatakMachine = BatakMachine.TestCase
TestKozMacaMachine = KozMacaMachine.TestCase
TestRookMachine = RookMachine.TestCase

"""Invariants of the five-card games (docs/rules/snarples.md, docs/rules/donut.md,
docs/rules/horsethief.md) at every seat count, checked after every action of hypothesis-driven
matches.

A hypothesis state machine per game and seat count (Snarples 3–8, Donut 4–6, Horsethief 3–5)
plays random legal actions, plays out whole deals, or tries an illegal action (which must raise
``IllegalAction`` naming a rule and change nothing).  After every step: each card of the deck
lies in exactly one place (hands, Horsethief's turned-up card, the stock or out-of-play cards,
discards, finished tricks, the trick in progress); Donut's face-up card stays in the dealer's
hand until played; seats that dropped, sat out or are out of the game hold their cards and play
none; every trick has one card from each active seat; the match totals are the start plus the
sum of the deals; and no observation shows another seat's hand, the stock or the discards.
"""

from __future__ import annotations

import json
import re
from typing import Any, ClassVar

from hypothesis import HealthCheck, settings
from hypothesis import strategies as st
from hypothesis.stateful import initialize, invariant, rule

from callbreak import Deal, IllegalAction, Match, Points, Rules
from helpers import MatchMachine

CARD_TOKEN = re.compile(r"\b[2-9TJQKA][SHDC]\b")


def mask_of(cards: Any) -> int:
    return sum(1 << c for c in cards)


class FiveCardMachine(MatchMachine):
    """One match of ``PRESET`` at ``PLAYERS`` seats."""

    PRESET: ClassVar[str] = ""
    PLAYERS: ClassVar[int] = 0
    DEAL_ACTIONS = 100

    @initialize(seed=st.integers(min_value=0, max_value=2**32))
    def start(self, seed: int) -> None:
        self.game_rules = Rules.preset(self.PRESET).replace(players=self.PLAYERS)
        self.match = Match(self.game_rules, seed=seed)
        self.start_score = Points.whole(self.game_rules.shape.start)

    # ------------------------------------------------------------------ steps
    @rule(data=st.data())
    def try_an_illegal_action(self, data: st.DataObject) -> None:
        match = self.match
        legal = match.legal()
        deal = match.deal
        candidates: list[Any] = [None, 2.5, "ZZ", "", True, 0, 6, "pass", "in", "out", "take"]
        candidates += ["give", "done", "X", "S", "C"]
        candidates += [c for c in deal.names_of(deal.deck.full) if c not in legal][:15]
        if match.phase in ("play", "exchange"):
            candidates = [c for c in candidates if not isinstance(c, int)]  # ints name cards
        candidates = [c for c in candidates if c not in legal]
        action = data.draw(st.sampled_from(candidates), label="illegal")
        before = self.snapshot()
        try:
            match.act(action)
        except IllegalAction as error:
            assert error.rule and str(error)
        else:
            raise AssertionError(f"{action!r} was accepted in phase {match.phase}")
        assert self.snapshot() == before

    def snapshot(self) -> str:
        match, deal = self.match, self.match.deal
        return json.dumps(
            {
                "match": [match.phase, match.to_act, match.over, len(match.entries)],
                "totals": [str(t) for t in match.totals],
                "legal": match.legal(),
                "hands": list(deal.hands),
                "stock": list(deal.stock),
                "discards": deal.discards,
                "log": deal.log,
                "trick": deal.trick,
                "history": deal.history,
                "dropped": sorted(deal.dropped),
                "obs": [match.observation(s).to_dict() for s in range(self.PLAYERS)],
            },
            default=str,
        )

    # ------------------------------------------------------------- invariants
    def played(self, deal: Deal) -> int:
        return mask_of(c for _, cards, _ in deal.history for c in cards) | mask_of(deal.trick)

    @invariant()
    def cards_are_conserved(self) -> None:
        deal = self.match.deal
        game = deal.rules.game
        places = [*deal.hands, deal.discards, mask_of(deal.stock), mask_of(deal.trick)]
        places += [mask_of(cards) for _, cards, _ in deal.history]
        assert deal.upcard is not None or game == "snarples"
        if game == "horsethief":
            assert deal.upcard is not None
            places.append(1 << deal.upcard)  # turned up, never drawn
        elif game == "donut":
            assert deal.upcard is not None
            # the dealer's own fifth card: in its hand until it plays it
            held = deal.hands[deal.dealer] | self.played(deal)
            assert held >> deal.upcard & 1
        union = 0
        for mask in places:
            assert not union & mask, "a card lies in two places"
            union |= mask
        assert union == deal.deck.full
        assert sum(m.bit_count() for m in places) == 52
        if game != "horsethief":
            assert deal.discards == 0
            assert len(deal.stock) == len(deal.dealt_stock) == 52 - 5 * len(deal.dealt_in)
        else:
            drawn = sum(count for _, count in deal.exchanges)
            assert deal.stock == list(deal.dealt_stock[drawn:])
            assert deal.discards.bit_count() == drawn + deal.thrown

    @invariant()
    def dropped_seats_play_no_card_one_card_per_active_seat_per_trick(self) -> None:
        deal = self.match.deal
        active = deal.active
        assert set(active) <= set(deal.dealt_in)
        if deal.phase == "play" or deal.history:
            # the drops are settled: the seats still in play the tricks
            assert set(active) == set(deal.dealt_in) - deal.dropped
        for seat in range(self.PLAYERS):
            if seat not in deal.dealt_in:
                assert deal.dealt[seat] == 0 and deal.hands[seat] == 0
            elif seat not in active:
                assert deal.hands[seat] == deal.dealt[seat]  # kept, never played
        idle = mask_of(s for s in range(self.PLAYERS) if s not in active)
        idle_cards = 0
        for s in range(self.PLAYERS):
            if idle >> s & 1:
                idle_cards |= deal.dealt[s]
        for leader, cards, winner in deal.history:
            assert len(cards) == len(active) and leader in active and winner in active
            assert not mask_of(cards) & idle_cards  # no card of a seat that is not playing
        assert not mask_of(deal.trick) & idle_cards
        trick_seats = []
        seat = deal.leader
        for _ in deal.trick:
            trick_seats.append(seat)
            seat = deal.next_seat(seat)
        assert len(set(trick_seats)) == len(deal.trick)
        assert set(trick_seats) <= set(active) and len(deal.trick) < max(len(active), 1)
        if deal.phase == "play":
            assert deal.to_act in active
            assert deal.to_act == seat
            plays = len(deal.history)
            for s in active:
                assert deal.hands[s].bit_count() == 5 - plays - (1 if s in trick_seats else 0)
        if deal.phase == "over" and not deal.unplayed:
            assert len(deal.history) == 5 and sum(deal.tricks) == 5
        if deal.unplayed:
            assert not deal.history
        winners = [w for _, _, w in deal.history]
        assert [winners.count(s) for s in range(self.PLAYERS)] == deal.tricks

    @invariant()
    def totals_are_the_start_plus_the_deals(self) -> None:
        match = self.match
        totals = [self.start_score] * self.PLAYERS
        for entry in match.entries:
            points = entry.deal.points
            assert points is not None
            for s in entry.counting_seats:
                totals[s] += points[s]
            assert list(entry.totals) == totals
        assert match.totals == totals
        if match.over:
            pick = min if self.game_rules.shape.lowest_wins else max
            best = pick(totals)
            last = match.scored_deals[-1].deal
            spade_out = (
                self.PRESET == "snarples"
                and last.trump == "S"
                and 5 in [last.tricks[s] for s in last.active]
            )
            if not spade_out:
                assert match.winners == [s for s in range(self.PLAYERS) if totals[s] == best]

    @invariant()
    def observations_hold_no_other_hand_and_no_stock(self) -> None:
        match = self.match
        deal = match.deal
        played = set(deal.names_of(self.played(deal)))
        up = set() if deal.upcard is None else {deal.deck.names[deal.upcard]}
        secret = set(deal.names_of(mask_of(deal.stock) | deal.discards))
        for seat in range(self.PLAYERS):
            obs = match.observation(seat)
            own = set(deal.hand(seat))
            assert set(obs.hand) == own
            assert obs.stock_size == len(deal.stock)
            # Horsethief: a seat remembers the cards it threw itself, and only those
            thrown = {
                str(action)
                for phase, who, action in deal.log
                if phase == "exchange" and who == seat and action != "done"
            }
            view = obs.to_dict()
            shown = set(CARD_TOKEN.findall(json.dumps(view)))
            allowed = own | played | up | thrown
            assert shown <= allowed, (seat, deal.phase, shown - allowed)
            assert not shown & (secret - played - thrown)
            for other in range(self.PLAYERS):
                if other != seat:
                    assert not (set(deal.hand(other)) - played - up) & shown


SETTINGS = settings(
    max_examples=5,
    stateful_step_count=30,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much],
)

SEATS = {"snarples": range(3, 9), "donut": range(4, 7), "horsethief": range(3, 6)}

for _preset, _counts in SEATS.items():
    for _players in _counts:
        _machine: type[FiveCardMachine] = type(
            f"{_preset.title()}{_players}Machine",
            (FiveCardMachine,),
            {"PRESET": _preset, "PLAYERS": _players},
        )
        _case = _machine.TestCase
        _case.settings = SETTINGS
        globals()[f"Test{_preset.title()}{_players}"] = _case
del _case, _machine  # collected under their Test* names only

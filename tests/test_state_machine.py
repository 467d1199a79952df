"""A hypothesis state machine over whole matches, for every preset and random option sets.

Steps play a random legal action, play the rest of a deal at random, or try an illegal
action (a card not in ``legal()``, a call out of range, a bool in the wrong phase, anything
after the end), which must raise IllegalAction and change nothing. After every step the
invariants of docs/design.md hold: 52 cards conserved, one card per seat per trick, 13 tricks in
every finished deal, totals equal to the sum of the deals, a legal action whenever someone
is to act, and no observation showing another seat's cards.
"""

from __future__ import annotations

import json
import random
import re
from typing import Any

from hypothesis import HealthCheck, settings
from hypothesis import strategies as st
from hypothesis.stateful import (
    RuleBasedStateMachine,
    initialize,
    invariant,
    precondition,
    rule,
)

from callbreak import IllegalAction, Match, Points, Rules

RANKS = "AKQJT98765432"
DECK = frozenset(r + s for s in "SHDC" for r in RANKS)
CARD_TOKEN = re.compile(r"\b[2-9TJQKA][SHDC]\b")
PRESETS = ["callbreak", "callbreak-bhoos", "callbridge"]

OPTION_STRATEGIES: dict[str, st.SearchStrategy[Any]] = {
    "misdeal": st.sampled_from(["claim", "auto", "off"]),
    "misdeal_faces": st.sampled_from(["AKQJ", "KQJ"]),
    "misdeal_no_spade": st.booleans(),
    "must_overtake": st.booleans(),
    "must_trump": st.sampled_from(["winning", "always", "never"]),
    "no_waste_trump": st.booleans(),
    "no_spade_lead_first_trick": st.booleans(),
    "spades_broken": st.booleans(),
    "declare_voids": st.booleans(),
    "min_total_calls": st.sampled_from([None, 8, 10]),
    "scoring": st.sampled_from(["callbreak", "callbridge"]),
    "success_window": st.sampled_from(
        ["at_least", "call_or_one_over", "exact", "call_to_call_plus:3"]
    ),
    "overtrick_points": st.sampled_from([0, "0.1"]),
    "bonus_call": st.sampled_from([None, 8]),
    "bonus_points": st.sampled_from([13, 16]),
    "match_end": st.sampled_from(["deals:1", "deals:2", "deals:3", "target:8", "open"]),
    "tie_break": st.sampled_from(["extra_deal", "shared"]),
    "first_dealer": st.sampled_from(["random", "draw_low", "draw_high"]),
}


@st.composite
def rules_strategy(draw: st.DrawFn) -> Rules:
    rules = Rules.preset(draw(st.sampled_from(PRESETS)))
    if draw(st.booleans()):
        changes = draw(st.fixed_dictionaries({}, optional=OPTION_STRATEGIES))
        rules = rules.replace(**changes)
    if rules.match_end != "deals" and draw(st.booleans()):
        # Call Bridge plays an open match by default: often make it end by itself
        rules = rules.replace(match_end=draw(st.sampled_from(["deals:1", "deals:2", "deals:3"])))
    return rules


class MatchMachine(RuleBasedStateMachine):
    match: Match

    @initialize(rules=rules_strategy(), seed=st.integers(min_value=0, max_value=2**32))
    def start(self, rules: Rules, seed: int) -> None:
        self.game_rules = rules
        self.checked = 0  # entries already checked
        self.totals = [Points(0)] * 4  # their points, counting seats only
        self.match = Match(rules, seed=seed)

    # ------------------------------------------------------------------ steps
    @precondition(lambda self: not self.match.over)
    @rule(data=st.data())
    def play_a_legal_action(self, data: st.DataObject) -> None:
        legal = self.match.legal()
        self.match.act(data.draw(st.sampled_from(legal), label="action"))

    @precondition(lambda self: not self.match.over)
    @rule(seed=st.integers(min_value=0, max_value=2**16))
    def play_out_the_deal(self, seed: int) -> None:
        rng = random.Random(seed)
        deal = self.match.deal
        for _ in range(80):
            if self.match.over or self.match.deal is not deal:
                return
            self.match.act(rng.choice(self.match.legal()))
        raise AssertionError("a deal took more than 80 actions")

    @precondition(
        lambda self: (
            self.match.rules.match_end == "open"
            and not self.match.over
            and not self.match.tie_break
            and bool(self.match.scored_deals)
            and not self.match.deal.claims
            and all(c is None for c in self.match.deal.calls)
        )
    )
    @rule()
    def finish_an_open_match(self) -> None:
        self.match.finish()
        best = max(self.match.totals)
        top = [s for s in range(4) if self.match.totals[s] == best]
        if self.match.over:
            assert self.match.winners == top
        else:  # a tie at the top goes to an extra deal among the tied seats
            assert self.match.tie_break
            assert list(self.match.counting_seats) == top

    @rule(data=st.data())
    def try_an_illegal_action(self, data: st.DataObject) -> None:
        match = self.match
        phase = match.phase
        rules = self.game_rules
        candidates: list[Any] = [None, 2.5, "ZZ", ""]
        if phase == "play":
            candidates += sorted(DECK - set(match.legal()))
            candidates += [True, False, 52, -1]
        elif phase == "call":
            candidates += [rules.min_call - 1, rules.max_call + 1, 99, True, False, "AS"]
        elif phase in ("misdeal", "declare"):
            candidates += [0, 1, 5, "AS", "2C"]
        else:  # the match is over
            candidates += [True, False, 3, "AS"]
        action = data.draw(st.sampled_from(candidates), label="illegal")
        before = self.snapshot()
        try:
            match.act(action)
        except IllegalAction as error:
            assert isinstance(error, ValueError)
            assert error.rule
            assert str(error)
        else:
            raise AssertionError(f"{action!r} was accepted in phase {phase}")
        assert self.snapshot() == before

    def snapshot(self) -> Any:
        match = self.match
        deal = match.deal
        return (
            match.phase,
            match.to_act,
            match.legal(),
            match.over,
            list(match.winners),
            [str(t) for t in match.totals],
            len(match.entries),
            id(deal),
            [deal.hand(s) for s in range(4)],
            list(deal.tricks),
            list(deal.calls),
            # history, current trick, claims, declarations, points, totals: public to all
            match.observation(0).to_dict(),
        )

    # ------------------------------------------------------------------ invariants
    @invariant()
    def someone_may_act_until_the_end(self) -> None:
        match = self.match
        if match.over:
            assert match.to_act is None
            assert match.legal() == []
            assert match.winners
        else:
            assert match.to_act is not None, f"stuck in phase {match.phase}"
            assert match.legal(), f"nothing legal in phase {match.phase}"
            assert match.phase in ("misdeal", "call", "declare", "play")

    @invariant()
    def cards_are_conserved_and_each_seat_plays_once_per_trick(self) -> None:
        deal = self.match.deal
        obs = deal.observation(0)
        played: list[str] = []
        for trick in obs.history:
            assert len(trick.cards) == 4
            assert sorted(trick.seats(4)) == [0, 1, 2, 3]
            assert trick.winner is not None
            played += trick.cards
        assert len(obs.trick.cards) < 4
        assert len(set(obs.trick.seats(4))) == len(obs.trick.cards)
        played += obs.trick.cards
        in_hands = [c for s in range(4) for c in deal.hand(s)]
        assert len(played) + len(in_hands) == 52
        assert set(played) | set(in_hands) == DECK
        # each seat has played exactly as many cards as tricks it played to
        for seat in range(4):
            plays = sum(1 for t in (*obs.history, obs.trick) for s in t.seats(4) if s == seat)
            assert len(deal.hand(seat)) == 13 - plays
        assert sum(deal.tricks) == len(obs.history)
        assert [sum(1 for t in obs.history if t.winner == s) for s in range(4)] == deal.tricks

    @invariant()
    def finished_deals_have_13_tricks_and_totals_add_up(self) -> None:
        match = self.match
        # entries never change once booked: check each new one once, keep a running sum
        for entry in match.entries[self.checked :]:
            deal = entry.deal
            assert deal.phase in ("over", "void")
            if deal.phase == "void":
                assert deal.points == [Points(0)] * 4
                assert len(deal.observation(0).history) == 0
            else:
                assert len(deal.observation(0).history) == 13
                assert sum(deal.tricks) == 13
                points = [
                    self.game_rules.score(c or 0, w)
                    for c, w in zip(deal.calls, deal.tricks, strict=True)
                ]
                assert deal.points == points
                for seat in entry.counting_seats:
                    self.totals[seat] += points[seat]
            assert list(entry.totals) == self.totals
        self.checked = len(match.entries)
        assert match.totals == self.totals

    @invariant()
    def observations_hide_the_other_hands(self) -> None:
        match = self.match
        deal = match.deal
        hands = [set(deal.hand(s)) for s in range(4)]
        for seat in range(4):
            obs = match.observation(seat)
            assert set(obs.hand) == hands[seat]
            played = {c for t in (*obs.history, obs.trick) for c in t.cards}
            # every card name anywhere in the JSON view (hand, legal, tricks, ...)
            shown = set(CARD_TOKEN.findall(json.dumps(obs.to_dict())))
            assert shown <= hands[seat] | played
            for other in range(4):
                if other != seat:
                    assert not hands[other] & shown
                    assert not hands[other] & set(obs.hand)
            if obs.to_act == seat:
                assert list(obs.legal) == match.legal()
            else:
                assert obs.legal == ()


MatchMachine.TestCase.settings = settings(
    max_examples=30,
    stateful_step_count=200,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much],
)
TestMatchMachine = MatchMachine.TestCase

"""Table tests for every play rule of docs/rules/callbreak.md rule 5 and
docs/rules/callbridge.md (follow suit, overtake, trump, leads).

Each case fixes the full 13-card hand of the seat to act, the cards played before it
(``"seat:card"``, seat 0 leads because the dealer is seat 3), and which suits or cards
the other seats must not hold; the rest of the deck is dealt to the other seats so that
the four hands always cover the whole deck. The engine itself checks that the set-up
plays are legal, so a wrong set-up fails loudly instead of testing nothing.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import pytest

from callbreak import Deal, IllegalAction, Rules
from helpers import DECK, RANKS, snapshot

DEALER = 3  # so seat 0 calls first and leads the first trick


def expand(tokens: str) -> set[str]:
    """Card names, or a lone suit letter for the whole suit."""
    out: set[str] = set()
    for token in tokens.split():
        if token in ("S", "H", "D", "C"):
            out |= {r + token for r in RANKS}
        else:
            out.add(token)
    return out


def build_hands(
    fixed: dict[int, str], plays: tuple[str, ...], avoid: dict[int, str]
) -> list[list[str]]:
    """Four 13-card hands covering the deck: ``fixed`` seats exactly, the others holding the
    cards they play and none of ``avoid``."""
    hands: dict[int, list[str]] = {seat: sorted(expand(cards)) for seat, cards in fixed.items()}
    for seat, cards in hands.items():
        assert len(cards) == 13, f"seat {seat} is given {len(cards)} cards"
    need: dict[int, list[str]] = {s: [] for s in range(4) if s not in hands}
    for play in plays:
        seat_text, card = play.split(":")
        seat = int(seat_text)
        if seat in hands:
            assert card in hands[seat], f"seat {seat} does not hold {card}"
        else:
            need[seat].append(card)
    used = {c for cards in hands.values() for c in cards} | {c for cs in need.values() for c in cs}
    assert len(used) == sum(len(c) for c in hands.values()) + sum(len(c) for c in need.values())
    remaining = [c for c in DECK if c not in used]
    order = sorted(need, key=lambda s: -len(expand(avoid.get(s, ""))))
    for seat in order:
        banned = expand(avoid.get(seat, ""))
        assert not banned & set(need[seat]), f"seat {seat} must play a card it may not hold"
        take = [c for c in remaining if c not in banned][: 13 - len(need[seat])]
        assert len(need[seat]) + len(take) == 13, f"cannot fill seat {seat}"
        remaining = [c for c in remaining if c not in take]
        hands[seat] = need[seat] + take
    assert not remaining
    assert sorted(c for h in hands.values() for c in h) == sorted(DECK)
    return [hands[s] for s in range(4)]


def set_up(
    rules: Rules,
    fixed: dict[int, str],
    plays: tuple[str, ...] = (),
    avoid: dict[int, str] | None = None,
) -> Deal:
    """A deal with the given hands, everyone calling 3, and ``plays`` made."""
    deal = Deal(rules, hands=build_hands(fixed, plays, avoid or {}), dealer=DEALER)
    while deal.phase in ("misdeal", "call", "declare"):
        deal.act(3 if deal.phase == "call" else False)
    assert deal.phase == "play"
    for play in plays:
        seat_text, card = play.split(":")
        assert deal.to_act == int(seat_text), f"expected seat {deal.to_act} to play, not {play}"
        deal.act(card)
    return deal


@dataclass(frozen=True)
class Case:
    id: str
    hand: str  # the 13 cards of the seat to act
    legal: str  # exactly the cards it may play
    refused: tuple[tuple[str, str], ...]  # (card it holds, rule that refuses it)
    plays: tuple[str, ...] = ()
    avoid: dict[int, str] = field(default_factory=dict)
    seat: int = 3
    preset: str = "callbreak"
    options: dict[str, Any] = field(default_factory=dict)
    fixed: dict[int, str] = field(default_factory=dict)  # more seats with exact hands

    def rules(self) -> Rules:
        return Rules.preset(self.preset).replace(**self.options)

    def deal(self) -> Deal:
        return set_up(self.rules(), {self.seat: self.hand, **self.fixed}, self.plays, self.avoid)


OVERTAKE = {"must_overtake": True}
NO_OVERTAKE = {"must_overtake": False}
# a hand with 4 hearts, 3 spades, 3 diamonds and 3 clubs
H4 = "KH QH 8H 2H AS KS 3S AD 4D 5D AC 4C 3C"
# the same with the ace of hearts, to lead and win the first trick
H4A = "AH QH 8H 2H AS KS 3S AD 4D 5D AC 4C 3C"
# a hand void in hearts
VOID_H = "KS QS 8S 2S AD KD 4D 3D AC KC 4C 3C 2C"

CASES = [
    # ---------------------------------------------------------------- follow suit
    Case(
        "follow-suit-any-heart-without-overtake",
        H4,
        "KH QH 8H 2H",
        (("AS", "follow_suit"), ("AD", "follow_suit"), ("3C", "follow_suit")),
        plays=("0:5H", "1:9H", "2:JH"),
        options=NO_OVERTAKE,
    ),
    Case(
        "follow-suit-callbridge-preset",
        H4,
        "KH QH 8H 2H",
        (("AS", "follow_suit"), ("4D", "follow_suit")),
        plays=("0:5H", "1:9H", "2:JH"),
        preset="callbridge",
    ),
    Case(
        "void-in-led-suit-with-no-spade-may-play-anything",
        "AD KD QD JD TD 9D 8D AC KC QC JC TC 9C",
        "AD KD QD JD TD 9D 8D AC KC QC JC TC 9C",
        (),
        plays=("0:5H", "1:9H", "2:JH"),
    ),
    # ---------------------------------------------------------------- must_overtake on
    Case(
        "overtake-must-beat-the-winning-heart",
        H4,
        "KH QH",
        (
            ("8H", "must_overtake"),
            ("2H", "must_overtake"),
            ("AS", "follow_suit"),
            ("AD", "follow_suit"),
        ),
        plays=("0:5H", "1:9H", "2:JH"),
        options=OVERTAKE,
    ),
    Case(
        "overtake-beats-the-winner-not-the-last-card",
        "QH TH 3H AS KS 3S AD 4D 5D AC 4C 3C 2C",
        "QH",
        (("TH", "must_overtake"), ("3H", "must_overtake"), ("AS", "follow_suit")),
        plays=("0:5H", "1:JH", "2:9H"),
        avoid={2: "QH KH AH"},
    ),
    Case(
        "overtake-cannot-beat-so-any-heart",
        H4,
        "KH QH 8H 2H",
        (("AS", "follow_suit"), ("5D", "follow_suit")),
        plays=("0:5H", "1:9H", "2:AH"),
    ),
    Case(
        "overtake-trick-already-trumped-so-any-heart",
        H4,
        "KH QH 8H 2H",
        (("AS", "follow_suit"), ("KS", "follow_suit"), ("3C", "follow_suit")),
        plays=("0:5H", "1:2S", "2:9H"),
        avoid={1: "H"},
    ),
    Case(
        "overtake-second-seat",
        "KH QH 8H 2H AS KS 3S AD 4D 5D AC 4C 3C",
        "KH QH 8H",
        (("2H", "must_overtake"), ("AS", "follow_suit")),
        plays=("0:7H",),
        seat=1,
    ),
    # ---------------------------------------------------------------- spades led
    Case(
        "spades-led-must-beat-the-winning-spade",
        "KS QS 8S 2S AH KH 3H AD 4D 5D AC 4C 3C",
        "KS QS",
        (("8S", "must_overtake"), ("2S", "must_overtake"), ("AH", "follow_suit")),
        plays=("0:5S", "1:9S", "2:JS"),
    ),
    Case(
        "spades-led-cannot-beat-so-any-spade",
        "KS QS 8S 2S AH KH 3H AD 4D 5D AC 4C 3C",
        "KS QS 8S 2S",
        (("AH", "follow_suit"), ("3C", "follow_suit")),
        plays=("0:5S", "1:9S", "2:AS"),
    ),
    Case(
        "spades-led-without-overtake-any-spade",
        "KS QS 8S 2S AH KH 3H AD 4D 5D AC 4C 3C",
        "KS QS 8S 2S",
        (("AH", "follow_suit"),),
        plays=("0:5S", "1:9S", "2:JS"),
        options=NO_OVERTAKE,
    ),
    Case(
        "spades-led-void-in-spades-any-card",
        "AH KH 3H AD KD 4D 5D AC KC 4C 3C 2C 5H",
        "AH KH 5H 3H AD KD 5D 4D AC KC 4C 3C 2C",
        (),
        plays=("0:5S", "1:9S", "2:JS"),
    ),
    # ---------------------------------------------------------------- must_trump = winning
    Case(
        "winning-no-spade-in-trick-any-spade",
        VOID_H,
        "KS QS 8S 2S",
        (("AD", "must_trump"), ("2C", "must_trump")),
        plays=("0:5H", "1:9H", "2:JH"),
    ),
    Case(
        "winning-must-beat-the-spade",
        VOID_H,
        "KS QS",
        (("8S", "must_trump"), ("2S", "must_trump"), ("AD", "must_trump")),
        plays=("0:5H", "1:9S", "2:JH"),
        avoid={1: "H"},
    ),
    Case(
        "winning-must-beat-every-spade",
        "TS QS 2S AD KD 4D 3D AC KC 4C 3C 2C 5D",
        "QS",
        (("TS", "must_trump"), ("2S", "must_trump"), ("KC", "must_trump")),
        plays=("0:5H", "1:9S", "2:JS"),
        avoid={1: "H", 2: "H"},
    ),
    Case(
        "winning-none-high-enough-any-card",
        VOID_H,
        "KS QS 8S 2S AD KD 4D 3D AC KC 4C 3C 2C",
        (),
        plays=("0:5H", "1:AS", "2:JH"),
        avoid={1: "H"},
    ),
    Case(
        "winning-callbridge-preset",
        VOID_H,
        "KS QS",
        (("8S", "must_trump"), ("AD", "must_trump")),
        plays=("0:5H", "1:9S", "2:JH"),
        avoid={1: "H"},
        preset="callbridge",
    ),
    # ---------------------------------------------------------------- must_trump = always
    Case(
        "always-a-winning-spade-if-possible",
        VOID_H,
        "KS QS",
        (("8S", "must_trump"), ("2S", "must_trump"), ("AD", "must_trump")),
        plays=("0:5H", "1:9S", "2:JH"),
        avoid={1: "H"},
        options={"must_trump": "always"},
    ),
    Case(
        "always-any-spade-when-none-wins",
        VOID_H,
        "KS QS 8S 2S",
        (("AD", "must_trump"), ("2C", "must_trump")),
        plays=("0:5H", "1:AS", "2:JH"),
        avoid={1: "H"},
        options={"must_trump": "always"},
    ),
    Case(
        "always-no-spade-in-trick-any-spade",
        VOID_H,
        "KS QS 8S 2S",
        (("KD", "must_trump"),),
        plays=("0:5H", "1:9H", "2:JH"),
        options={"must_trump": "always"},
    ),
    Case(
        "always-without-spades-any-card",
        "AD KD QD JD TD 9D 8D AC KC QC JC TC 9C",
        "AD KD QD JD TD 9D 8D AC KC QC JC TC 9C",
        (),
        plays=("0:5H", "1:9S", "2:JH"),
        avoid={1: "H"},
        options={"must_trump": "always"},
    ),
    # ---------------------------------------------------------------- must_trump = never
    Case(
        "never-any-card",
        VOID_H,
        "KS QS 8S 2S AD KD 4D 3D AC KC 4C 3C 2C",
        (),
        plays=("0:5H", "1:9S", "2:JH"),
        avoid={1: "H"},
        options={"must_trump": "never"},
    ),
    Case(
        "never-no-spade-in-trick-any-card",
        VOID_H,
        "KS QS 8S 2S AD KD 4D 3D AC KC 4C 3C 2C",
        (),
        plays=("0:5H", "1:9H", "2:JH"),
        options={"must_trump": "never"},
    ),
    # ---------------------------------------------------------------- no_waste_trump
    Case(
        "no-waste-no-under-trump-while-holding-other-cards",
        VOID_H,
        "AD KD 4D 3D AC KC 4C 3C 2C",
        (("KS", "no_waste_trump"), ("QS", "no_waste_trump"), ("2S", "no_waste_trump")),
        plays=("0:5H", "1:AS", "2:JH"),
        avoid={1: "H"},
        options={"no_waste_trump": True},
    ),
    Case(
        "no-waste-off-under-trump-allowed",
        VOID_H,
        "KS QS 8S 2S AD KD 4D 3D AC KC 4C 3C 2C",
        (),
        plays=("0:5H", "1:AS", "2:JH"),
        avoid={1: "H"},
        options={"no_waste_trump": False},
    ),
    Case(
        "no-waste-with-never-over-trump-allowed-under-trump-not",
        VOID_H,
        "KS QS AD KD 4D 3D AC KC 4C 3C 2C",
        (("8S", "no_waste_trump"), ("2S", "no_waste_trump")),
        plays=("0:5H", "1:9S", "2:JH"),
        avoid={1: "H"},
        options={"no_waste_trump": True, "must_trump": "never"},
    ),
    Case(
        "no-waste-does-not-apply-before-the-trick-is-trumped",
        VOID_H,
        "KS QS 8S 2S AD KD 4D 3D AC KC 4C 3C 2C",
        (),
        plays=("0:5H", "1:9H", "2:JH"),
        options={"no_waste_trump": True, "must_trump": "never"},
    ),
    # Engine choice where docs/rules/ is silent: with must_trump=always a spade is compulsory,
    # so the low spades are all there is "to play" and no_waste_trump does not forbid them.
    Case(
        "no-waste-with-always-under-trump-is-compulsory",
        VOID_H,
        "KS QS 8S 2S",
        (("AD", "must_trump"),),
        plays=("0:5H", "1:AS", "2:JH"),
        avoid={1: "H"},
        options={"no_waste_trump": True, "must_trump": "always"},
    ),
    Case(
        "no-waste-allowed-when-nothing-else",
        "KS QS JS TS 9S 8S 7S 6S 5S 4S 3S 2S 2D",
        "KS QS JS TS 9S 8S 7S 6S 5S 4S 3S 2S",
        (),
        plays=("0:AD", "1:4D", "2:5D", "3:2D", "0:5H", "1:AS", "2:6H"),
        avoid={1: "H"},
        options={"no_waste_trump": True},
    ),
    # ---------------------------------------------------------------- leads
    Case("default-any-lead-to-the-first-trick", H4, H4, (), seat=0),
    Case(
        "no-spade-lead-first-trick",
        H4,
        "KH QH 8H 2H AD 4D 5D AC 4C 3C",
        (("AS", "no_spade_lead_first_trick"), ("3S", "no_spade_lead_first_trick")),
        seat=0,
        options={"no_spade_lead_first_trick": True},
    ),
    Case(
        "no-spade-lead-first-trick-unless-only-spades",
        " ".join(r + "S" for r in RANKS),
        " ".join(r + "S" for r in RANKS),
        (),
        seat=0,
        options={"no_spade_lead_first_trick": True},
    ),
    Case(
        "no-spade-lead-first-trick-does-not-bind-the-second",
        H4A,
        "QH 8H 2H AS KS 3S AD 4D 5D AC 4C 3C",
        (),
        plays=("0:AH", "1:5H", "2:6H", "3:7H"),
        seat=0,
        options={"no_spade_lead_first_trick": True},
    ),
    Case(
        "spades-broken-first-trick",
        H4,
        "KH QH 8H 2H AD 4D 5D AC 4C 3C",
        (("AS", "spades_broken"), ("KS", "spades_broken")),
        seat=0,
        options={"spades_broken": True},
    ),
    Case(
        "spades-broken-not-yet-in-the-second-trick",
        H4A,
        "QH 8H 2H AD 4D 5D AC 4C 3C",
        (("AS", "spades_broken"), ("3S", "spades_broken")),
        plays=("0:AH", "1:5H", "2:6H", "3:7H"),
        seat=0,
        options={"spades_broken": True},
    ),
    Case(
        "spades-broken-after-a-spade-was-played",
        "2S 5S 6S 7S AD KD QD JD AC KC QC JC TC",
        "5S 6S 7S AD KD QD JD AC KC QC JC TC",
        (),
        plays=("0:AH", "1:2S", "2:3H", "3:4H"),
        seat=1,
        options={"spades_broken": True},
    ),
    Case(
        "spades-broken-unless-only-spades",
        " ".join(r + "S" for r in RANKS),
        " ".join(r + "S" for r in RANKS),
        (),
        seat=0,
        options={"spades_broken": True},
    ),
]


def case_params() -> list[Any]:
    return [pytest.param(case, id=case.id) for case in CASES]


@pytest.mark.parametrize("case", case_params())
def test_legal_cards(case: Case) -> None:
    deal = case.deal()
    assert deal.phase == "play"
    assert deal.to_act == case.seat
    assert sorted(deal.legal()) == sorted(case.legal.split())
    assert sorted(deal.observation(case.seat).legal) == sorted(case.legal.split())
    for other in range(4):
        if other != case.seat:
            assert deal.observation(other).legal == ()


@pytest.mark.parametrize("case", case_params())
def test_refused_cards_name_the_rule_list_the_allowed_cards_and_change_nothing(
    case: Case,
) -> None:
    deal = case.deal()
    allowed = case.legal.split()
    for card, rule in case.refused:
        assert card in deal.hand(case.seat), f"the case should refuse a card the seat holds: {card}"
        before = snapshot(deal)
        with pytest.raises(IllegalAction) as error:
            deal.act(card)
        assert isinstance(error.value, ValueError)
        assert error.value.rule == rule, str(error.value)
        message = str(error.value)
        assert card in message
        for name in allowed:
            assert name in message, f"{name} missing from {message!r}"
        assert snapshot(deal) == before


@pytest.mark.parametrize("case", case_params())
def test_every_held_card_is_either_playable_or_refused(case: Case) -> None:
    """Exhaustively: each card of the hand outside ``legal`` is refused, each inside is played."""
    deal = case.deal()
    allowed = set(case.legal.split())
    known_rules = {
        "follow_suit",
        "must_overtake",
        "must_trump",
        "no_waste_trump",
        "no_spade_lead_first_trick",
        "spades_broken",
    }
    for card in deal.hand(case.seat):
        if card in allowed:
            continue
        before = snapshot(deal)
        with pytest.raises(IllegalAction) as error:
            deal.act(card)
        assert error.value.rule in known_rules
        assert snapshot(deal) == before
    played_before = len(deal.observation(0).trick.cards) + 4 * len(deal.observation(0).history)
    for card in sorted(allowed):
        fresh = case.deal()
        fresh.act(card)
        obs = fresh.observation(case.seat)
        assert card not in obs.hand
        assert len(obs.trick.cards) + 4 * len(obs.history) == played_before + 1


@pytest.mark.parametrize("case", case_params())
def test_cards_not_held_and_non_cards_are_refused(case: Case) -> None:
    deal = case.deal()
    before = snapshot(deal)
    not_held = next(c for c in DECK if c not in deal.hand(case.seat))
    with pytest.raises(IllegalAction) as error:
        deal.act(not_held)
    assert error.value.rule == "hold_card"
    assert not_held in str(error.value)
    for junk in ("ZZ", "", True, False, 52, -1, 3.5, None):
        with pytest.raises(IllegalAction) as error:
            deal.act(junk)  # type: ignore[arg-type]
        assert error.value.rule == "card"
    assert snapshot(deal) == before


def test_any_notation_plays_the_card() -> None:
    case = next(c for c in CASES if c.id == "overtake-must-beat-the-winning-heart")
    for text in ("KH", "kh", "K♥", "kH"):
        deal = case.deal()
        deal.act(text)
        assert deal.observation(0).history[-1].cards[-1] == "KH"


# ------------------------------------------------------------------ trick winner
WINNER_RULES = {"must_overtake": False, "must_trump": "never"}


@pytest.mark.parametrize(
    ("cards", "winner"),
    [
        ("5H 9H JH 2H", 2),  # highest of the led suit
        ("AH 9H JH 2H", 0),
        ("5H 2S JH AH", 1),  # a trump beats any heart
        ("5H 2S 3S AH", 2),  # the highest trump
        ("5H AS KS QS", 1),
        ("5H AD AC 6H", 3),  # cards of other suits never win
        ("5H AD AC KD", 0),
        ("2D AC AH 3D", 3),
        ("5S 9S AH KD", 1),  # spades led: the highest spade
        ("5S AH AD AC", 0),
        ("TC 2S JC 3S", 3),
    ],
)
def test_trick_winner(cards: str, winner: int) -> None:
    plays = cards.split()
    led = plays[0][1]
    avoid = {seat: led for seat, card in enumerate(plays) if card[1] != led}
    rules = Rules.preset("callbreak").replace(**WINNER_RULES)
    deal = set_up(rules, {}, tuple(f"{s}:{c}" for s, c in enumerate(plays)), avoid)
    assert deal.tricks == [1 if s == winner else 0 for s in range(4)]
    assert deal.to_act == winner
    (trick,) = deal.observation(0).history
    assert trick.leader == 0
    assert trick.cards == tuple(plays)
    assert trick.winner == winner
    assert trick.seats(4) == (0, 1, 2, 3)


def test_the_winner_leads_the_next_trick_and_the_leader_rotates_in_seat_order() -> None:
    rules = Rules.preset("callbreak").replace(**WINNER_RULES)
    deal = set_up(rules, {}, ("0:5H", "1:9H", "2:AH", "3:2H", "2:3D", "3:4D", "0:5D", "1:KD"))
    assert deal.tricks == [0, 1, 1, 0]
    assert deal.to_act == 1
    history = deal.observation(3).history
    assert [t.leader for t in history] == [0, 2]
    assert history[1].seats(4) == (2, 3, 0, 1)

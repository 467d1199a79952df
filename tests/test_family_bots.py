"""Every bot plays every game (issue 14, item 5): legality, strength, and the policies' choices.

Whole deals go through the public ``Deal`` with each bot seeing only its
``Observation``; every action a bot answers must be one of ``deal.legal()``.
Decision times are not asserted here (machines differ): ``bench/family_bots.py``
prints them.
"""

from __future__ import annotations

from collections.abc import Sequence

import pytest

from callbreak import Deal, Rules
from callbreak.bots import Bot, make_bot
from callbreak.bots import batak as batak_policy
from callbreak.bots import rook as rook_policy
from callbreak.decks import ROOK_DECK, ROOK_FREE

FAMILY = ("batak-ihale", "batak-koz-maca", "rook-call-partner")


def play_deal(rules: Rules, bots: Sequence[Bot], seed: int, dealer: int) -> Deal:
    """One whole deal; fails on the first action that is not legal where it is answered."""
    deal = Deal(rules, seed=seed, dealer=dealer)
    while deal.to_act is not None:
        seat = deal.to_act
        action = bots[seat].act(deal.observation(seat))
        legal = deal.legal()
        assert action in legal, f"{bots[seat].name} answered {action!r} in {deal.phase}: {legal}"
        # A bool is an int in Python: make sure a bid never passes as a yes/no or back.
        assert type(action) is type(next(a for a in legal if a == action))
        deal.act(action)
    return deal


@pytest.mark.parametrize("preset", FAMILY)
@pytest.mark.parametrize("name", ["random", "heuristic"])
def test_every_bot_plays_every_deal_legally(preset: str, name: str) -> None:
    rules = Rules.preset(preset)
    for number in range(50):
        bots = [make_bot(name, seed=number * 4 + seat) for seat in range(4)]
        deal = play_deal(rules, bots, seed=1000 + number, dealer=number % 4)
        assert deal.phase == "over"
        assert deal.points is not None and len(deal.history) == rules.hand_size


@pytest.mark.parametrize("preset", FAMILY)
def test_heuristic_beats_random(preset: str) -> None:
    """One heuristic seat against three random ones, the heuristic's seat and the dealer
    turning round the table: it must score clearly more per deal than they do."""
    rules = Rules.preset(preset)
    heuristic_points: list[float] = []
    random_points: list[float] = []
    for number in range(100):
        mine = number % 4
        bots = [
            make_bot("heuristic" if seat == mine else "random", seed=number * 4 + seat)
            for seat in range(4)
        ]
        deal = play_deal(rules, bots, seed=5000 + number, dealer=(number // 4) % 4)
        assert deal.points is not None
        for seat, points in enumerate(deal.points):
            (heuristic_points if seat == mine else random_points).append(float(points.json()))
    mine_mean = sum(heuristic_points) / len(heuristic_points)
    their_mean = sum(random_points) / len(random_points)
    # Clearly: the gap is several points a deal in Batak, tens of points in Call Partner.
    margin = 20.0 if rules.game == "rook" else 2.0
    assert mine_mean > their_mean + margin, (mine_mean, their_mean)


# ------------------------------------------------------------------ Batak
def batak_deal(hands: list[str], dealer: int = 0) -> Deal:
    return Deal(Rules.preset("batak-ihale"), hands=hands, dealer=dealer)


BATAK_HANDS = [
    "7S 6S 5S 4S 3S 2S 9H 8H 7H 9D 8D 7D 9C",
    "AS KS QS JS TS 9S 8S 2H 3H 4D 5D 2C 3C",
    "AH KH QH JH TH 6H 5H 4H AD KD QD JD TD",
    "6D 3D 2D AC KC QC JC TC 8C 7C 6C 5C 4C",
]


def test_batak_seven_top_spades_bid_and_name_spades() -> None:
    deal = batak_deal(BATAK_HANDS)  # seat 1 speaks first
    bot = make_bot("heuristic", seed=1)
    action = bot.act(deal.observation(1))
    assert isinstance(action, int) and action >= 7
    deal.act(action)
    while deal.phase == "auction":
        deal.act("pass")
    assert deal.declarer == 1 and deal.phase == "trump"
    assert bot.act(deal.observation(1)) == "S"


def test_batak_passes_a_weak_hand_and_names_its_long_suit() -> None:
    weak = batak_deal(BATAK_HANDS, dealer=3)  # seat 0, with no honour at all, speaks first
    bot = make_bot("heuristic", seed=2)
    assert bot.act(weak.observation(0)) == "pass"
    assert batak_policy.best_trump(weak.deck.parse_hand(BATAK_HANDS[2])) == 1  # hearts


def test_batak_defender_takes_a_trick_it_can() -> None:
    """As a defender every trick is a point: it overtakes with a card that holds."""
    deal = batak_deal(BATAK_HANDS)
    deal.act(7)
    for _ in range(3):
        deal.act("pass")
    deal.act("S")
    deal.act("2H")  # the declarer leads a low heart; seat 2 holds A K Q J T 6 5 4
    played = make_bot("heuristic", seed=3).act(deal.observation(2))
    assert played == "TH"  # the cheapest heart nobody can beat: every higher one is its own


def test_batak_reads_the_chosen_trump_in_the_trick() -> None:
    deal = batak_deal(BATAK_HANDS)
    deal.act(7)
    for _ in range(3):
        deal.act("pass")
    deal.act("H")
    deal.act("2C")  # the declarer leads a club
    deal.act("4H")  # seat 2 holds no club: it must trump, and its 4 of hearts wins
    deal.act("4C")  # seat 3's club is higher than the one led, but no trump
    k = batak_policy.knowledge(deal.observation(0))
    assert k.trump == 1 and k.win == deal.deck.parse("4H") and k.win_seat == 2
    assert k.void(2, 3) and not k.void(2, 1)


# ------------------------------------------------------------------ Call Partner
def rook_deck_for(hands: list[str], nest: str, dealer: int = 0) -> list[str]:
    """The Rook deck, top first, that deals ``hands`` and ``nest``: round by round from
    the seat after the dealer, a nest card after each of the first five rounds."""
    seats = [(dealer + 1 + i) % 4 for i in range(4)]
    cards = [h.split() for h in hands]
    nest_cards = nest.split()
    order: list[str] = []
    for round_ in range(13):
        order += [cards[seat][round_] for seat in seats]
        if round_ < 5:
            order.append(nest_cards[round_])
    return order


ROOK_HANDS = [
    "1R 14R 13R 12R 11R 2Y 3Y 4Y 2G 3G 4G 2B 3B",
    "10R 9R 8R 7R 6R 5Y 6Y 7Y 8Y 9Y 5G 6G 7G",
    "5R 4R 3R 2R 10Y 11Y 12Y 13Y 14Y 1Y 8G 9G 10G",
    "11G 12G 13G 14G 1G 12B 13B 14B 1B 4B 5B 6B 7B",
]
ROOK_NEST = "8B 9B 10B 11B ROOK"


def rook_deal(dealer: int = 0) -> Deal:
    rules = Rules.preset("rook-call-partner")
    deal = Deal(rules, deck=rook_deck_for(ROOK_HANDS, ROOK_NEST, dealer), dealer=dealer)
    assert deal.names_of(deal.hands[0]) == ROOK_DECK.hand_names(ROOK_DECK.parse_hand(ROOK_HANDS[0]))
    return deal


def test_rook_top_trump_run_bids_at_least_min_bid() -> None:
    deal = rook_deal()  # the dealer, seat 0, speaks first
    action = make_bot("heuristic", seed=4).act(deal.observation(0))
    assert isinstance(action, int) and action >= deal.rules.min_bid
    strong = ROOK_DECK.parse_hand(ROOK_HANDS[0])
    weak = ROOK_DECK.parse_hand("2R 3R 2Y 3Y 4Y 5Y 2G 3G 4G 5G 2B 3B 6B")
    assert rook_policy.estimate_points(strong) > rook_policy.estimate_points(weak) + 30


def test_rook_declarer_discards_names_trump_and_calls_a_partner() -> None:
    deal = rook_deal()
    bot = make_bot("heuristic", seed=5)
    deal.act(70)
    for _ in range(3):
        deal.act("pass")
    assert deal.phase == "discard" and deal.to_act == 0
    held = deal.hands[0]  # the hand with the nest taken in
    while deal.phase == "discard":
        deal.act(bot.act(deal.observation(0)))
    assert deal.discards.bit_count() == 5 and deal.discards & ~held == 0
    assert not deal.discards >> ROOK_FREE & 1
    assert not deal.discards & ROOK_DECK.suit_masks[0]  # the reds it means to name trump
    trump = bot.act(deal.observation(0))
    assert trump == "R"
    deal.act(trump)
    call = bot.act(deal.observation(0))
    assert call in deal.legal() and not deal.hands[0] >> deal.deck.parse(str(call)) & 1
    assert call == "1Y"  # it holds the top reds: it calls a side colour's 1 it lacks


@pytest.mark.parametrize("seed", range(20))
def test_rook_declarer_choices_in_random_deals(seed: int) -> None:
    """Whatever the hand: five discards it held, none of them trump, a trump colour it holds
    at least four of, a partner card it does not hold."""
    rules = Rules.preset("rook-call-partner")
    deal = Deal(rules, seed=seed, dealer=seed % 4)
    bots = [make_bot("heuristic", seed=seed * 4 + s) for s in range(4)]
    held = 0
    while deal.phase != "play":
        seat = deal.to_act
        assert seat is not None
        if deal.phase == "discard" and not held:
            held = deal.hands[seat]
        action = bots[seat].act(deal.observation(seat))
        if deal.phase == "partner":
            assert not deal.hands[seat] >> deal.deck.parse(str(action)) & 1
        deal.act(action)
    assert deal.discards.bit_count() == 5 and deal.discards & ~held == 0
    trump_cards = deal.deck.suit_masks[deal.trump_suit]
    assert not deal.discards & trump_cards  # neither a trump nor the Rook laid away
    declarer = deal.declarer
    assert declarer is not None and (deal.hands[declarer] & trump_cards).bit_count() >= 4


def test_rook_feeds_points_to_a_winning_partner() -> None:
    """Seat 1 holds the called 1 of red, so it knows it is the declarer's partner; the
    declarer leads the 1 of green, which nothing can beat, and seat 1 throws its 10."""
    hands = [
        "1Y 1G 14R 13R 12R 11R 2B 3B 4B 5B 6B 7B 8B",
        "1R 2Y 2G 3G 4G 5G 6G 7G 8G 9G 10G 11G 12G",
        "3Y 13G 14G 2R 3R 4R 5R 6R 7R 8R 9R 10R 9B",
        "4Y 5Y 6Y 7Y 8Y 9Y 10Y 11Y 12Y 13Y 14Y 10B 11B",
    ]
    rules = Rules.preset("rook-call-partner")
    deal = Deal(rules, deck=rook_deck_for(hands, "12B 13B 14B 1B ROOK"), dealer=0)
    deal.act(70)  # the dealer, seat 0, speaks first and wins the auction
    for _ in range(3):
        deal.act("pass")
    for card in ("2B", "3B", "4B", "5B", "6B"):
        deal.act(card)
    deal.act("R")
    deal.act("1R")
    for card in ("2Y", "3Y", "4Y", "1Y"):  # seat 1 leads; the declarer wins the first trick
        deal.act(card)
    deal.act("1G")
    observation = deal.observation(1)
    assert observation.partner == 1
    assert rook_policy.friends(observation) == {0}
    assert make_bot("heuristic", seed=6).act(observation) == "10G"
    deal.act("10G")
    # Seat 2 cannot tell its side yet (the 1 of red is unplayed): it gives no points away,
    # keeping the 14 of green (10 points) and playing the 13 (none).
    observation = deal.observation(2)
    assert observation.partner is None and rook_policy.friends(observation) == set()
    assert make_bot("heuristic", seed=7).act(observation) == "13G"


@pytest.mark.parametrize("seed", range(3))
def test_rook_voids_read_from_the_last_history_match_a_whole_read(seed: int) -> None:
    """The policy reads only the tricks added since its last read (a playout asks after every
    card); copies of one deal that part ways, read by turns, must each get their own voids."""
    rules = Rules.preset("rook-call-partner")
    deal = Deal(rules, seed=seed, dealer=seed % 4)
    heuristic = make_bot("heuristic", seed=seed)
    while deal.to_act is not None and len(deal.history) < 3:
        deal.act(heuristic.act(deal.observation(deal.to_act)))
    copies = [deal.copy(), deal.copy(), Deal(rules, seed=seed + 10, dealer=0)]
    bots = [make_bot("random", seed=seed * 3 + i) for i in range(len(copies))]
    checked = 0
    while any(d.to_act is not None for d in copies):
        for each, bot in zip(copies, bots, strict=True):
            if each.to_act is None:
                continue
            observation = each.observation(each.to_act)
            if observation.phase == "play":
                deck = rook_policy._deck(observation)
                whole = (*observation.history, observation.trick)
                expected = rook_policy._shown_voids(whole, rules.players, deck)
                assert rook_policy._Table.read(observation, deck).voids == expected
                checked += 1
            each.act(bot.act(observation))
    assert checked > 3 * rules.hand_size


# ------------------------------------------------------------------ the expert
@pytest.mark.parametrize("preset", ["batak-ihale", "rook-call-partner"])
def test_expert_searches_games_past_call_break(preset: str) -> None:
    deal = Deal(Rules.preset(preset), seed=1)
    assert deal.to_act is not None
    observation = deal.observation(deal.to_act)
    bot = make_bot("expert:budget_ms=200,deterministic=1", seed=1)
    assert bot.act(observation) in observation.legal
    assert bot.fell_back is None  # type: ignore[attr-defined]


def test_random_bot_answers_only_when_it_is_its_turn() -> None:
    deal = Deal(Rules.preset("rook-call-partner"), seed=2)
    idle = (deal.to_act or 0) + 1
    with pytest.raises(ValueError, match="no legal action"):
        make_bot("random", seed=0).act(deal.observation(idle % 4))


def test_random_bot_is_reproducible_in_every_game() -> None:
    for preset in FAMILY:
        rules = Rules.preset(preset)
        logs = []
        for _ in range(2):
            bots = [make_bot("random", seed=s) for s in range(4)]
            deal = play_deal(rules, bots, seed=9, dealer=1)
            logs.append((deal.log, deal.history))
        assert logs[0] == logs[1]

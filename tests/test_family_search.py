"""The search of the games past Call Break (``bots.family_search``, ``bots.search.family``).

Its worlds must be deals the seat cannot tell from its own: every world kept ends at
exactly the seat's observation, whatever was secret (another declarer's nest and
discards, another seat's exchanged cards, the stock).  Its answers must be legal
for every decision of every game at every seat count, reproducible under a seed,
and inside the budget.
"""

from __future__ import annotations

import math
import random
import time

import pytest

from callbreak import Rules
from callbreak.bots import HeuristicBot, make_bot
from callbreak.bots.family_search import FamilySearchBot, deal_value, finish
from callbreak.bots.heuristic import shortlist
from callbreak.bots.search.family import FamilyWorlds
from callbreak.decks import ROOK_COLOURS, ROOK_DECK
from callbreak.engine import Deal, Observation
from callbreak.engine.observation import observe

SEATINGS = [
    ("batak-ihale", 4),
    ("rook-call-partner", 4),
    ("snarples", 3),
    ("snarples", 5),
    ("snarples", 8),
    ("donut", 4),
    ("donut", 6),
    ("horsethief", 3),
    ("horsethief", 5),
    ("spades", 4),
    ("oh-hell", 4),
    ("judgement", 4),
]
"""Every preset the compiled search does not model, at the seat counts measured (and the
partnership and changing-hand call games, which the expert also searches this way)."""


def _rules(preset: str, players: int) -> Rules:
    rules = Rules.preset(preset)
    return rules if rules.players == players else rules.replace(players=players)


@pytest.mark.parametrize(("preset", "players"), SEATINGS)
def test_every_world_is_at_the_seats_own_observation(preset: str, players: int) -> None:
    """Through a whole deal played by the heuristic, every decision's worlds replay to the
    acting seat's observation, hand included; the hidden cards vary between worlds."""
    rules = _rules(preset, players)
    bots = [HeuristicBot(seed=s) for s in range(players)]
    rng = random.Random(3)
    for seed in range(2):
        deal = Deal(rules, seed=seed, dealer=seed % players)
        kinds = set()
        while deal.to_act is not None:
            seat = deal.to_act
            observation = deal.observation(seat)
            worlds = FamilyWorlds(observation)
            drawn = [worlds.draw(rng) for _ in range(3)]
            assert any(w is not None for w in drawn), (observation.phase, deal.log)
            for world in drawn:
                if world is not None:
                    assert observe(world, seat) == observation
            kinds.add(observation.phase)
            deal.act(bots[seat].act(observation))
        assert "play" in kinds or deal.unplayed


@pytest.mark.parametrize(("preset", "players"), SEATINGS)
def test_the_search_answers_every_decision_legally(preset: str, players: int) -> None:
    rules = _rules(preset, players)
    bot = FamilySearchBot(seed=2, worlds=2, deterministic=1)
    deal = Deal(rules, seed=5, dealer=0)
    searched = 0
    while deal.to_act is not None:
        observation = deal.observation(deal.to_act)
        action = bot.act(observation)
        assert action in observation.legal
        if len(observation.legal) > 1:
            assert bot.fell_back is None and bot.searched == 2
            assert set(bot.values) <= set(observation.legal) and action in bot.values
            searched += 1
        deal.act(action)
    assert searched > 0


def test_a_seat_that_has_not_looked_draws_its_own_cards_too() -> None:
    """Spades' blind nil is decided before the seat sees its hand: the worlds deal it a hand
    of its own (it once asked for a hand of 0 cards and fell back to the first legal action,
    blind nil, at every such decision)."""
    rules = Rules.preset("spades").replace(blind_nil=True)
    deal = Deal(rules, seed=3, dealer=0)
    observation = deal.observation(deal.to_act or 0)
    assert observation.legal == ("blind nil", "look") and not observation.hand
    worlds = FamilyWorlds(observation)
    rng = random.Random(1)
    drawn = [worlds.draw(rng) for _ in range(4)]
    hands = set()
    for world in drawn:
        assert world is not None and observe(world, observation.seat) == observation
        hands.add(world.hands[observation.seat])
    assert len(hands) > 1
    bot = FamilySearchBot(seed=2, worlds=8, deterministic=1)
    assert bot.act(observation) == "look"
    assert bot.fell_back is None and set(bot.values) == {"blind nil", "look"}


def test_hidden_cards_stay_hidden_and_vary() -> None:
    """Another declarer's discards in Call Partner are secret: the worlds lay away different
    cards, never ones that the seat's observation rules out."""
    rules = Rules.preset("rook-call-partner")
    bots = [HeuristicBot(seed=s) for s in range(4)]
    deal = Deal(rules, seed=4, dealer=0)
    while deal.phase != "play":
        deal.act(bots[deal.to_act or 0].act(deal.observation(deal.to_act or 0)))
    seat = next(s for s in range(4) if s != deal.declarer)
    observation = deal.observation(seat)
    assert observation.nest is None and observation.discards is None
    worlds = FamilyWorlds(observation)
    rng = random.Random(0)
    laid_away = set()
    for _ in range(6):
        world = worlds.draw(rng)
        assert world is not None
        assert not world.discards & observation.hand_mask
        laid_away.add(world.discards)
    assert len(laid_away) > 1


def test_the_search_is_reproducible_under_a_seed() -> None:
    rules = Rules.preset("horsethief")

    def actions(seed: int) -> list[object]:
        bot = FamilySearchBot(seed=seed, worlds=3, deterministic=1)
        deal = Deal(rules, seed=8, dealer=1)
        out: list[object] = []
        while deal.to_act is not None:
            action = bot.act(deal.observation(deal.to_act))
            out.append(action)
            deal.act(action)
        return out

    assert actions(1) == actions(1)


def test_the_budget_is_kept() -> None:
    """Call Partner's auction and nest are its slowest decisions: each answer still comes
    inside the budget (with a little room for a busy machine)."""
    rules = Rules.preset("rook-call-partner")
    bot = FamilySearchBot(seed=0, budget_ms=60)
    deal = Deal(rules, seed=1, dealer=0)
    slowest = 0.0
    while deal.phase != "play" or deal.trick_number < 2:
        observation = deal.observation(deal.to_act or 0)
        started = time.perf_counter()
        action = bot.act(observation)
        slowest = max(slowest, time.perf_counter() - started)
        deal.act(action)
    assert slowest < 0.06 + 0.03


@pytest.mark.parametrize("preset", ["donut", "horsethief"])
def test_an_action_is_worth_the_points_it_brings(preset: str) -> None:
    """With ``rivalry=0`` an action's value is the seat's mean points over the worlds, with
    the sign turned in a countdown game (Donut: fewer is better), not in Horsethief."""
    rules = Rules.preset(preset)
    bots = [HeuristicBot(seed=s) for s in range(4)]
    deal = Deal(rules, seed=11, dealer=0)
    while deal.phase != "play" or len(deal.legal()) < 2:
        deal.act(bots[deal.to_act or 0].act(deal.observation(deal.to_act or 0)))
    observation = deal.observation(deal.to_act or 0)
    bot = FamilySearchBot(seed=7, worlds=3, rivalry=0.0, deterministic=1)
    bot.act(observation)
    worlds = FamilyWorlds(observation)
    rng = random.Random(7)
    players = [HeuristicBot(seed=s) for s in range(4)]
    expected = dict.fromkeys(observation.legal, 0.0)
    for _ in range(3):
        world = worlds.draw(rng)
        assert world is not None
        for action in observation.legal:
            trial = world.copy()
            trial.act(action)
            expected[action] += finish(trial, players)[observation.seat] / 3
    sign = -1 if rules.shape.lowest_wins else 1
    assert bot.values == pytest.approx({a: sign * v for a, v in expected.items()})


def test_the_expert_seats_this_search_outside_the_call_games() -> None:
    deal = Deal(Rules.preset("snarples"), seed=3, dealer=0)
    observation = deal.observation(deal.to_act or 0)
    expert = make_bot("expert:budget_ms=100,deterministic=1", seed=1)
    assert expert.act(observation) in observation.legal
    assert expert.fell_back is None  # type: ignore[attr-defined]


def test_an_auction_weighs_the_bids_nearest_the_heuristics_and_passing() -> None:
    deal = Deal(Rules.preset("rook-call-partner"), seed=1, dealer=0)
    observation = deal.observation(deal.to_act or 0)
    bids = [a for a in observation.legal if isinstance(a, int)]
    assert len(bids) > 5 and "pass" in observation.legal
    bot = FamilySearchBot(seed=0, worlds=1, deterministic=1)
    bot.act(observation)
    searched = [a for a in bot.values if isinstance(a, int)]
    assert len(searched) == 5 and "pass" in bot.values
    guess = HeuristicBot(seed=0).act(observation)
    assert guess in bot.values


def _call_partner_decisions(phase: str, deals: int) -> list[Observation]:
    """The observations of every ``phase`` decision in ``deals`` heuristic deals."""
    rules = Rules.preset("rook-call-partner")
    bots = [HeuristicBot(seed=s) for s in range(4)]
    found = []
    for seed in range(deals):
        deal = Deal(rules, seed=seed, dealer=seed % 4)
        while deal.to_act is not None and deal.phase != "play":
            observation = deal.observation(deal.to_act)
            if observation.phase == phase:
                found.append(observation)
            deal.act(bots[deal.to_act].act(observation))
    return found


@pytest.mark.parametrize("phase", ["discard", "partner"])
def test_the_nest_and_the_partner_card_weigh_the_heuristics_shortlist(phase: str) -> None:
    """Call Partner's discards (14 to 18 cards) and partner card (any of 52) weigh the
    heuristic's four best actions, its own choice first, so that each is played out in
    the worlds a budget allows instead of none."""
    observations = _call_partner_decisions(phase, 12)
    assert len(observations) >= 12
    for observation in observations:
        listed = shortlist(observation, 4)
        assert listed is not None and len(listed) == 4 == len(set(listed))
        assert listed[0] == HeuristicBot(seed=0).act(observation)
        assert set(listed) <= set(observation.legal)
    bot = FamilySearchBot(seed=0, worlds=2, deterministic=1, shortlist=1)
    bot.act(observations[0])
    assert list(bot.values) == shortlist(observations[0], 4)
    hand = observations[0].hand_mask
    if phase == "partner":  # it calls cards it lacks: a held card would play alone
        deck = ROOK_DECK.with_rook_in(ROOK_COLOURS.index(observations[0].trump or "R"))
        assert not any(hand >> deck.inputs[name] & 1 for name in bot.values)


def test_the_other_policies_rank_nothing() -> None:
    deal = Deal(Rules.preset("donut"), seed=1, dealer=0)
    assert shortlist(deal.observation(deal.to_act or 0), 4) is None


def test_worlds_the_others_decisions_do_not_fit_weigh_less() -> None:
    """After the others' bids in Snarples, a world in which the heuristic holding that
    world's hand would have bid otherwise weighs ``surprise`` per such bid; with
    ``surprise=1`` every world weighs 1."""
    rules = Rules.preset("snarples")
    bots = [HeuristicBot(seed=s) for s in range(4)]
    deal = Deal(rules, seed=2, dealer=0)
    while len(deal.observation(0).bids) < 2:
        deal.act(bots[deal.to_act or 0].act(deal.observation(deal.to_act or 0)))
    observation = deal.observation(deal.to_act or 0)
    rng = random.Random(1)
    plain = FamilyWorlds(observation)
    assert all(plain.draw(rng) is not None and plain.weight == 1.0 for _ in range(5))
    weighed = FamilyWorlds(observation, surprise=0.5)
    weights = set()
    for _ in range(20):
        assert weighed.draw(rng) is not None
        weights.add(weighed.weight)
    assert weights <= {1.0, 0.5, 0.25, 0.125} and len(weights) > 1


def test_one_world_never_overrules_the_heuristic() -> None:
    """With a single world the best action is mostly the luckiest one: the heuristic's
    stands unless the worlds prefer another by more than ``margin`` standard errors."""
    rules = Rules.preset("batak-ihale")
    bot = FamilySearchBot(seed=3, worlds=1, deterministic=1)
    heuristic = HeuristicBot(seed=3)
    deal = Deal(rules, seed=6, dealer=0)
    for _ in range(12):
        observation = deal.observation(deal.to_act or 0)
        action = bot.act(observation)
        assert action == heuristic.act(observation)
        deal.act(action)


def _late_observation(preset: str, players: int, tricks: int, seed: int = 4) -> object:
    """A seat's observation after ``tricks`` whole tricks of a heuristic deal (the others'
    cards then say something about their hands)."""
    rules = _rules(preset, players)
    bots = [HeuristicBot(seed=s) for s in range(players)]
    deal = Deal(rules, seed=seed, dealer=0)
    while deal.to_act is not None:
        observation = deal.observation(deal.to_act)
        if deal.phase == "play" and len(observation.history) >= tricks:
            return observation
        deal.act(bots[deal.to_act].act(observation))
    raise AssertionError("the deal ended first")


def test_the_others_decisions_weigh_the_worlds_by_surprise() -> None:
    """Without ``trust`` a world weighs ``surprise`` to the power of the others' decisions the
    heuristic would not have taken with its hands: so some worlds weigh less than others,
    and none more than 1; with ``surprise`` 1 every world weighs 1."""
    observation = _late_observation("batak-ihale", 4, 6)
    rng = random.Random(9)
    plain = FamilyWorlds(observation)  # type: ignore[arg-type]
    for _ in range(10):
        assert plain.draw(rng) is not None and plain.weight == 1.0
    worlds = FamilyWorlds(observation, surprise=0.1)  # type: ignore[arg-type]
    weights = []
    for _ in range(40):
        if worlds.draw(rng) is not None:
            weights.append(worlds.weight)
    strays = [round(math.log(w) / math.log(0.1), 6) for w in weights]
    assert all(s == int(s) and s >= 0 for s in strays)
    assert len(set(strays)) > 1


def test_with_trust_a_seat_that_strays_counts_as_a_random_player() -> None:
    """The mixture bounds what one seat's decisions can do to a world: against the plain
    factor per decision, the weights with ``trust`` spread over a narrower range."""
    observation = _late_observation("snarples", 3, 3)
    rng = random.Random(2)
    spreads = []
    for trust in (None, 0.2):
        worlds = FamilyWorlds(observation, surprise=0.02, trust=trust)  # type: ignore[arg-type]
        logs: list[float] = []
        while len(logs) < 30:
            if worlds.draw(rng) is not None:
                logs.append(math.log(worlds.weight))
        spreads.append(max(logs) - min(logs))
    assert spreads[1] < spreads[0]


def test_reading_the_play_is_reproducible_and_legal() -> None:
    """The expert reads the others' decisions with ``read_play=1``: under a seed it gives the
    same legal answers twice (the replayed candidates come from the bot's own stream)."""
    observation = _late_observation("snarples", 3, 1)
    answers = []
    for _ in range(2):
        bot = make_bot("expert:deterministic=1,read_play=1", seed=5)
        answers.append(bot.act(observation))  # type: ignore[arg-type]
    assert answers[0] == answers[1] and answers[0] in observation.legal  # type: ignore[attr-defined]
    assert make_bot("expert:read_play=1")._family.surprise < 1  # type: ignore[attr-defined]
    assert make_bot("expert:read_play=0")._family.surprise == 1  # type: ignore[attr-defined]


def test_the_experts_rivalry_reaches_the_family_search() -> None:
    """``expert:rivalry=0`` values the same worlds by the seat's own points only, so the
    values differ from the default's (the others' mean counted in full)."""
    observation = _late_observation("snarples", 3, 1)
    values = []
    for rivalry in (0, 1):
        bot = make_bot(f"expert:deterministic=1,rivalry={rivalry}", seed=5)
        bot.act(observation)  # type: ignore[arg-type]
        assert bot._family.rivalry == rivalry  # type: ignore[attr-defined]
        values.append(bot._family.values)  # type: ignore[attr-defined]
    assert values[0].keys() == values[1].keys() and values[0] != values[1]


def test_weighed_worlds_count_as_fewer_in_the_margin_rule() -> None:
    """The same paired differences are significant over equal worlds and not once one world
    carries nearly all the weight (Kish's effective size)."""
    bot = FamilySearchBot(seed=0)
    bot._rows = [[0.0, 1.0], [0.0, 1.2], [0.0, 0.8], [0.0, 1.1], [0.0, -0.5]]
    bot._weights = [1.0] * 5
    assert bot._significant(1)
    bot._weights = [1.0, 1e-6, 1e-6, 1e-6, 1e-6]
    assert not bot._significant(1)


def test_a_deal_is_worth_the_seats_points_against_its_rivals_not_its_partner() -> None:
    """In Spades a partner's points are the seat's own: the rivals are the other side (the
    review once valued a Spades decision at two thirds of the swing between the sides)."""
    spades = Deal(Rules.preset("spades"), seed=1, dealer=0)
    assert deal_value(spades, [70.0, -30.0, 70.0, -30.0], 0) == 100.0
    donut = Deal(Rules.preset("donut"), seed=1, dealer=0)  # countdown: fewer is better
    assert deal_value(donut, [-2.0, 3.0, 0.0, -1.0], 0) == pytest.approx(2 + 2 / 3)
    assert deal_value(donut, [-2.0, 3.0, 0.0, -1.0], 0, rivalry=0) == 2.0

"""Bots play every preset and option legally, and the heuristic beats random."""

from __future__ import annotations

import statistics
from pathlib import Path

import pytest

from callbreak import Match, Rules
from callbreak.bots import available_bots, make_bot, refusal
from callbreak.bots.heuristic import estimate_tricks
from callbreak.cards import parse_hand
from helpers import play_legally

VARIANTS = [
    Rules.preset("callbreak"),
    Rules.preset("callbreak-bhoos"),
    Rules.preset("callbridge").replace(match_end="deals:3"),
    Rules.preset("callbreak").replace(
        must_trump="always", no_waste_trump=True, spades_broken=True, declare_voids=True
    ),
    Rules.preset("callbreak").replace(
        must_overtake=False, must_trump="never", no_spade_lead_first_trick=True, misdeal="claim"
    ),
]


FAST_SPECS = {
    # The expert searches in deterministic mode with few worlds, so the test is quick.
    "expert": "expert:deterministic=1,worlds=3,call_worlds=4,solve_from=4",
    # The rl bot plays the policy examples/train_callbreak.py saved for the README.
    "rl": f"rl:path={Path(__file__).parent.parent / 'examples' / 'callbreak-rl.npz'}",
    "expert-plain": "expert-plain:worlds=3,call_worlds=4",
    "expert-v1": "expert-v1:deterministic=1,worlds=3,call_worlds=4",
    "expert-v2": "expert-v2:deterministic=1,worlds=3,call_worlds=4",
    "mcts": "mcts:worlds=2,iterations=40",
}


def test_every_registered_bot_is_tested() -> None:
    assert set(available_bots()) == {
        *("random", "heuristic", "expert", "rl"),
        # the arena pool's opponents (tests/test_styles.py)
        *("cautious", "aggressive", "ducker", "trumper", "expert-plain", "selfplay"),
        "mcts",  # the pool's outside style (tests/test_mcts.py)
        *("expert-v1", "expert-v2"),  # the ladder (tests/test_ladder.py)
    }


@pytest.mark.parametrize("name", sorted(available_bots()))
@pytest.mark.parametrize("rules", VARIANTS, ids=lambda r: f"{r.name}-{len(r.changed())}")
def test_bot_plays_whole_matches_legally(name: str, rules: Rules) -> None:
    spec = FAST_SPECS.get(name, name)
    expert = name.startswith("expert")
    if expert:
        rules = rules.replace(match_end="deals", match_deals=1)
    for seed in range(3 if not expert else 1):
        bots = [make_bot(spec, seed=seed * 4 + s) for s in range(4)]
        match = Match(rules, seed=seed)
        play_legally(match, bots)


def test_unknown_bot_lists_the_known_ones() -> None:
    with pytest.raises(ValueError, match="heuristic"):
        make_bot("genius")
    with pytest.raises(ValueError, match="key=value"):
        make_bot("random:fast")


def test_hand_evaluation_orders_hands_sensibly() -> None:
    strong = parse_hand("AS KS QS JS TS AH KH AD KD AC KC 2C 3C")
    weak = parse_hand("2S 3H 4H 5H 6H 2D 3D 4D 5D 2C 3C 4C 6C")
    assert estimate_tricks(strong, 0) >= 9
    assert estimate_tricks(weak, 0) <= 1.5


def test_heuristic_beats_random_on_duplicate_deals() -> None:
    """Each deal is played four times, the heuristic in each seat in turn: luck cancels."""
    rules = Rules.preset("callbreak").replace(match_deals=1)
    mine: list[float] = []
    theirs: list[float] = []
    for deal_seed in range(40):
        for seat in range(4):
            bots = [
                make_bot("heuristic" if s == seat else "random", seed=deal_seed * 4 + s)
                for s in range(4)
            ]
            match = Match(rules, seed=deal_seed)
            while not match.over:
                actor = match.to_act
                assert actor is not None
                match.act(bots[actor].act(match.observation(actor)))
            points = match.scored_deals[0].deal.points
            assert points is not None
            mine.append(float(points[seat]))
            theirs.extend(float(points[s]) for s in range(4) if s != seat)
    assert statistics.mean(mine) > statistics.mean(theirs) + 3


def test_blunder_rate_weakens_the_heuristic() -> None:
    with pytest.raises(ValueError, match="probability"):
        make_bot("heuristic:blunder=2")
    rules = Rules.preset("callbreak").replace(match_deals=1)
    scores: dict[str, list[float]] = {"heuristic": [], "heuristic:blunder=0.6": []}
    for spec, points in scores.items():
        for seed in range(60):
            bots = [make_bot(spec if s == 0 else "heuristic", seed=seed * 4 + s) for s in range(4)]
            match = Match(rules, seed=seed)
            while not match.over:
                actor = match.to_act
                assert actor is not None
                match.act(bots[actor].act(match.observation(actor)))
            deal_points = match.scored_deals[0].deal.points
            assert deal_points is not None
            points.append(float(deal_points[0]))
    assert statistics.mean(scores["heuristic"]) > statistics.mean(scores["heuristic:blunder=0.6"])


def test_expert_is_reproducible_in_deterministic_mode() -> None:
    rules = Rules.preset("callbreak").replace(match_deals=1)
    spec = "expert:deterministic=1,worlds=3,call_worlds=4,solve_from=5"

    def play(seed: int) -> list[str]:
        bots = [make_bot(spec if s == 0 else "heuristic", seed=seed + s) for s in range(4)]
        match = Match(rules, seed=seed)
        actions: list[str] = []
        while not match.over:
            actor = match.to_act
            assert actor is not None
            action = bots[actor].act(match.observation(actor))
            actions.append(str(action))
            match.act(action)
        return actions

    assert play(3) == play(3)


def test_expert_scores_each_window_rule() -> None:
    """Under Call Bridge the expert asks the solver for the call's window, not the most tricks."""
    rules = Rules.preset("callbridge").replace(match_end="deals:1")
    bots = [
        make_bot("expert:deterministic=1,worlds=2,call_worlds=3,solve_from=5", seed=s)
        for s in range(4)
    ]
    match = Match(rules, seed=8)
    while not match.over:
        actor = match.to_act
        assert actor is not None
        observation = match.observation(actor)
        action = bots[actor].act(observation)
        assert action in observation.legal
        match.act(action)
    assert match.winners


def test_expert_call_spread_widens_the_simulated_tricks() -> None:
    """``call_spread`` moves a share of each trick count's weight one trick down and as much
    up (kept at the ends), only where overtricks are allowed unless given."""
    import numpy

    from callbreak.bots.expert import ExpertBot

    hist = numpy.zeros((2, 14))
    hist[0, 0] = 1.0
    hist[1, 4] = 0.5
    hist[1, 13] = 0.5
    widened = ExpertBot(call_spread=0.2)._widened(hist, Rules.preset("callbreak"))
    assert widened.sum(axis=1) == pytest.approx([1.0, 1.0])
    assert widened[0, :2] == pytest.approx([0.8, 0.2])
    assert widened[1, 3:6] == pytest.approx([0.1, 0.3, 0.1])
    assert widened[1, 12:] == pytest.approx([0.1, 0.4])
    assert ExpertBot()._widened(hist, Rules.preset("callbridge")) is hist
    assert ExpertBot(call_spread=0)._widened(hist, Rules.preset("callbreak")) is hist
    with pytest.raises(ValueError, match="call_spread"):
        ExpertBot(call_spread=0.6)


def test_expert_call_bias_counts_each_playout_richer() -> None:
    """A call is scored as if each simulated count were ``call_bias`` tricks more, between
    whole tricks by interpolation: 0.25 by default where overtricks count, 0 in Call Bridge."""
    from callbreak.bots.expert import ExpertBot
    from callbreak.engine.kernel import points_table

    callbreak = Rules.preset("callbreak")
    plain = points_table(callbreak)[3:5]
    table = ExpertBot()._call_table(callbreak, 3, 4)
    # Calling 3: two tricks in a playout fail it (-3), three make it (+3): 0.75 × -3 + 0.25 × 3.
    assert table[0, 2] == pytest.approx(0.75 * plain[0, 2] + 0.25 * plain[0, 3]) == -1.5
    assert table[1, 13] == plain[1, 13]  # no more than every trick
    whole = ExpertBot(call_bias=1)._call_table(callbreak, 3, 4)
    assert whole[:, :13] == pytest.approx(plain[:, 1:])
    bridge = Rules.preset("callbridge")
    assert ExpertBot()._call_table(bridge, 3, 4) == pytest.approx(points_table(bridge)[3:5])


def test_the_learned_forecasts_share_is_neither_shifted_nor_widened_by_default() -> None:
    """``call_bias`` and ``call_spread`` correct the heuristic's playouts toward the expert's
    own tricks; by default they touch only the playouts' share of the estimate, since the
    learned forecast is of the tricks the expert itself takes.  Given values hold as given."""
    import numpy

    from callbreak.bots.expert import ExpertBot
    from callbreak.engine.kernel import points_table

    callbreak, bridge = Rules.preset("callbreak"), Rules.preset("callbridge")
    assert ExpertBot(call_model=1)._learned_share(callbreak) == 1.0
    assert ExpertBot(call_model=1)._learned_share(bridge) == 0.0  # a deal it never learned
    assert ExpertBot()._learned_share(callbreak) == 0.5  # the default blends half
    assert ExpertBot(call_model=0)._learned_share(callbreak) == 0.0
    plain = points_table(callbreak)[3:5]
    assert ExpertBot()._call_table(callbreak, 3, 4, learned=1.0) == pytest.approx(plain)
    half = ExpertBot()._call_table(callbreak, 3, 4, learned=0.5)
    assert half[0, 2] == pytest.approx(0.875 * plain[0, 2] + 0.125 * plain[0, 3])
    given = ExpertBot(call_bias=1)._call_table(callbreak, 3, 4, learned=1.0)
    assert given[:, :13] == pytest.approx(plain[:, 1:])
    hist = numpy.zeros((1, 14))
    hist[0, 4] = 1.0
    assert ExpertBot()._widened(hist, callbreak, learned=1.0) is hist
    assert ExpertBot()._widened(hist, callbreak, learned=0.5)[0, 3:6] == pytest.approx(
        [0.1, 0.8, 0.1]
    )


def test_trust_reads_the_play_seat_by_seat_unless_given_as_0() -> None:
    from callbreak.bots.expert import ExpertBot

    assert ExpertBot().trust == 0.2
    assert ExpertBot(trust=0).trust is None  # surprise per card, every seat alike
    assert make_bot("expert:trust=0.5").trust == 0.5  # type: ignore[attr-defined]
    with pytest.raises(ValueError, match="trust"):
        ExpertBot(trust=1.5)


def test_warm_up_calls_a_bots_own_preparation_and_skips_bots_without_one() -> None:
    from callbreak.bots import warm_up

    class Preparing:
        name = "preparing"
        prepared = 0

        def act(self, observation: object) -> str:
            raise AssertionError("not asked to act")

        def warm_up(self) -> None:
            self.prepared += 1

    bot = Preparing()
    warm_up(bot)
    assert bot.prepared == 1
    warm_up(make_bot("heuristic"))  # has none: nothing happens, nothing fails


def test_a_failed_search_build_is_reported_as_missing_not_waited_for(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from callbreak.bots.expert import _Shared

    def broken() -> None:
        raise RuntimeError("no compiler here")

    monkeypatch.setattr("threading.excepthook", lambda args: None)
    built = _Shared(lambda: "kernels", "ok")
    assert built.get(wait=True) == "kernels"
    assert _Shared(broken, "broken").get(wait=True) is None


@pytest.mark.parametrize(
    ("spec", "message"),
    [
        ("expert:worlds=many", "worlds takes a number, not 'many'"),
        ("expert-plain:call_worlds=x", "call_worlds takes a number"),  # passed on to the expert
        ("mcts:iterations=2.5", "iterations takes a whole number, not 2.5"),
        ("heuristic:caution=high", "caution takes a number"),
    ],
)
def test_a_word_for_a_number_is_refused_before_any_game(spec: str, message: str) -> None:
    # The expert reads worlds only at its first card: unchecked, a long run would stop there.
    with pytest.raises(ValueError, match=f"bad options for bot .*{message}"):
        make_bot(spec)


def test_numbers_and_words_where_they_belong_are_taken() -> None:
    bot = make_bot("expert:call_bias=1,trust=0,models=0.5/0.5,budget_ms=50", seed=2)
    assert (bot.call_bias, bot.trust, bot.models) == (1, None, (0.5, 0.5))  # type: ignore[attr-defined]


def test_a_bot_says_which_games_it_refuses() -> None:
    donut = Rules.preset("donut")
    assert refusal("expert:budget_ms=50", donut) is None  # the expert searches every game
    assert refusal("heuristic", donut) is None
    assert refusal("mcts", donut) is None  # it hands other games to the heuristic
    assert refusal("expert", Rules.preset("callbridge")) is None
    with pytest.raises(ValueError, match="unknown bot"):
        refusal("genius", donut)


def test_the_expert_answers_which_games_it_plays_without_a_search(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """``refusal`` asks a bot's ``refuses`` where it has one: the expert's is not a whole
    decision's search (up to a second at the default budget, before every table)."""
    from callbreak.bots.expert import ExpertBot

    def no_search(self: ExpertBot, observation: object) -> None:
        raise AssertionError("refusal searched a decision")

    monkeypatch.setattr(ExpertBot, "act", no_search)
    for preset in ("batak-ihale", "rook-call-partner", "snarples", "spades"):
        assert refusal("expert", Rules.preset(preset)) is None
    assert refusal("expert-v1", Rules.preset("donut")) is None

    class Picky:
        name = "picky"

        def act(self, observation: object) -> None:
            raise AssertionError("a bot that says what it refuses is not asked to act")

        @staticmethod
        def refuses(rules: Rules) -> str | None:
            return None if rules.game == "callbreak" else "Call Break only"

    monkeypatch.setattr("callbreak.bots.base.make_bot", lambda spec, seed=None: Picky())
    assert refusal("picky", Rules.preset("donut")) == "Call Break only"

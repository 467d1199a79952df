"""The solver's review after a deal at the Textual table: the key, the screen, the waiting.

The flow is tested with a stand-in analyst (a fixed review with one blunder,
and one that waits until the test lets it go, to see that the table never
waits for it); then once with the real analysis of a whole deal, on the plain
Python solver with a node limit (numba's one-off compilation would take half
a minute).
"""

from __future__ import annotations

import threading
from collections.abc import Iterator

import pytest
from textual.pilot import Pilot

from callbreak import Rules
from callbreak.analysis import Analyst, CallReview, DealReview, Decision
from callbreak.bots.search.solver import Solver
from callbreak.engine import Deal
from callbreak.playout_review import PlayoutDecision
from callbreak.points import Points
from callbreak.review import Reviewer, set_reviewer
from callbreak.tui.app import CallBreakApp
from callbreak.tui.review import ReviewScreen, decision_line
from callbreak.tui.screens import ChoiceScreen
from tui_support import (
    choice_screen,
    make_session,
    my_turn,
    play_by_keys,
    play_until_last_card,
    run_app,
    screen_text,
    wait_for,
)


class FixedAnalyst:
    """A review with one blunder at trick 5 and one good card, after ``gate`` opens."""

    def __init__(self, gate: threading.Event | None = None) -> None:
        self.gate = gate
        self.asked: list[tuple[int, int]] = []

    def deal(self, deal: Deal, seat: int, number: int) -> DealReview:
        self.asked.append((seat, number))
        if self.gate is not None:
            assert self.gate.wait(30), "the test never let the analysis finish"
        four, minus = Points.whole(4), Points.whole(-4)
        decisions = (
            Decision(1, 0, "AS", ("AS", "3S"), {"AS": four, "3S": four}, expert="AS"),
            Decision(5, 1, "2S", ("KH", "2S"), {"KH": four, "2S": minus}, expert="KH"),
            Decision(13, 3, "4D", ("4D",), None),
        )
        call = CallReview(4, minus, four, 5, 5, Points.whole(5), expert=4)
        return DealReview(number, seat, deal.dealer, deal.rules.name, call, decisions, won=3)


@pytest.fixture
def analyst() -> Iterator[FixedAnalyst]:
    fixed = FixedAnalyst()
    old = set_reviewer(Reviewer(lambda: fixed))
    try:
        yield fixed
    finally:
        set_reviewer(old)


async def to_result(pilot: Pilot[None], app: CallBreakApp) -> ChoiceScreen:
    """From the person's last card of deal 1 to its result screen."""
    await my_turn(pilot, app)
    await pilot.press("enter")
    return await choice_screen(pilot, app, "Deal 1 result")


async def review_shown(pilot: Pilot[None], app: CallBreakApp) -> ReviewScreen:
    await wait_for(
        pilot,
        lambda: isinstance(app.screen, ReviewScreen) and not app.screen.pending,
        "the review",
    )
    screen = app.screen
    assert isinstance(screen, ReviewScreen)
    return screen


def test_r_on_the_result_opens_the_review_and_escape_goes_back(analyst: FixedAnalyst) -> None:
    session = make_session(3)
    play_until_last_card(session)

    async def scenario(pilot: Pilot[None], app: CallBreakApp) -> None:
        result = await to_result(pilot, app)
        assert ("Review (r)", "review") in result.choices
        assert "Review (r)" in screen_text(app)
        await pilot.press("r")
        screen = await review_shown(pilot, app)
        assert analyst.asked == [(0, 1)]
        text = screen_text(app)
        assert "Review of deal 1" in text
        assert "5 was makeable from the start" in text and "expert would have called 4" in text
        # The blunder: the better card, what the played one did, and the cost.
        assert "K♥ keeps your 4" in text and "2♠ lets it fail" in text and "cost 8" in text
        assert "A♠: a best card (+4.0)" in text and "4♦ (forced)" in text
        assert "1 of 3 cards lost value (-8.0 in all)" in text
        assert screen.review is not None and screen.review.mistakes[0].trick == 5
        await pilot.press("escape")
        await choice_screen(pilot, app, "Deal 1 result")
        assert app.state == "modal" and app.session.deal_number == 2
        # Open it again: the answer is kept, the analysis does not run twice.
        await pilot.press("r")
        await review_shown(pilot, app)
        assert analyst.asked == [(0, 1)]
        await pilot.press("escape")
        await choice_screen(pilot, app, "Deal 1 result")
        await pilot.press("enter")  # next deal: play goes on
        await my_turn(pilot, app)
        assert not isinstance(app.screen, ChoiceScreen)

    run_app(session, scenario, size=(120, 40))


def test_the_table_never_waits_for_the_review() -> None:
    gate = threading.Event()
    fixed = FixedAnalyst(gate)
    old = set_reviewer(Reviewer(lambda: fixed))
    session = make_session(5, rules=Rules.preset("callbridge"))
    play_until_last_card(session)

    async def scenario(pilot: Pilot[None], app: CallBreakApp) -> None:
        try:
            await to_result(pilot, app)
            await pilot.press("r")
            await wait_for(pilot, lambda: isinstance(app.screen, ReviewScreen), "the review")
            screen = app.screen
            assert isinstance(screen, ReviewScreen) and screen.pending
            assert "Reviewing…" in screen_text(app)
            assert "exact solver" in screen_text(app)  # Call Bridge: the solver's game
            await pilot.press("escape")  # close it while the solver works
            await choice_screen(pilot, app, "Deal 1 result")
            await pilot.press("enter")
            await my_turn(pilot, app)  # the next deal is played meanwhile
            assert app.session.deal_number == 2 and fixed.asked == [(0, 1)]
        finally:
            gate.set()

    try:
        run_app(session, scenario)
    finally:
        gate.set()
        set_reviewer(old)


def test_a_game_the_solver_does_not_play_is_reviewed_by_playouts() -> None:
    old = set_reviewer(Reviewer(lambda: Analyst(solver=Solver(compiled=False), expert=None)))
    session = make_session(2, rules=Rules.preset("donut"))

    async def scenario(pilot: Pilot[None], app: CallBreakApp) -> None:
        await play_by_keys(pilot, app, deals=1)
        screen = app.screen
        assert isinstance(screen, ChoiceScreen) and "result" in screen.title_text
        assert "review" in [value for _, value in screen.choices]
        await pilot.press("r")
        shown = await review_shown(pilot, app)
        assert shown.review is not None and shown.review.decisions
        text = screen_text(app)
        assert "playouts with the hands shown" in text and "Trick  your decision" in text
        assert "called" not in text.split("Review of deal 1", 1)[-1].splitlines()[1]

    try:
        run_app(session, scenario, size=(120, 40))
    finally:
        set_reviewer(old)


def test_the_real_analysis_of_a_whole_deal() -> None:
    """The real ``Analyst`` on the plain Python solver (no compilation), the heuristic as the
    second opinion: every one of the person's 13 cards is listed with its verdict."""
    made: list[Analyst] = []

    def plain() -> Analyst:
        made.append(Analyst(solver=Solver(compiled=False, node_limit=100_000), expert="heuristic"))
        return made[-1]

    old = set_reviewer(Reviewer(plain))
    session = make_session(3)
    play_until_last_card(session)

    async def scenario(pilot: Pilot[None], app: CallBreakApp) -> None:
        await to_result(pilot, app)
        await pilot.press("r")
        screen = await review_shown(pilot, app)
        review = screen.review
        assert screen.failed is None and review is not None
        assert [d.trick for d in review.decisions] == list(range(1, 14))
        assert review.call.call == session.match.entries[0].deal.calls[0]
        text = screen_text(app)
        assert "Review of deal 1" in text and "against best defence" in text
        for decision in review.decisions:
            if decision.forced:
                assert decision.verdict == "forced"
        await pilot.press("escape")
        await choice_screen(pilot, app, "Deal 1 result")

    try:
        run_app(session, scenario, size=(120, 50))
    finally:
        set_reviewer(old)
    assert len(made) == 1


def test_a_playout_reviews_decision_before_the_play_is_named_by_its_phase() -> None:
    values = {"in": Points.whole(1), "out": Points.whole(0)}
    drop = PlayoutDecision(0, 0, "in", ("in", "out"), values, kind="drop")
    assert decision_line(drop, 0).plain == "drop  ✓ in: a best choice (+1.0)"
    card = PlayoutDecision(3, 1, "KH", ("KH", "2H"), {"KH": Points.whole(2), "2H": Points(0)})
    assert decision_line(card, 0).plain == " 3  ✓ K♥: a best card (+2.0)"


def test_a_choice_of_trump_is_named_by_its_suit_words() -> None:
    """ "trump: B was worth…" said a suit by its engine letter."""
    values = {"B": Points.whole(3), "G": Points.whole(-1), "R": Points.whole(-2)}
    chose = PlayoutDecision(0, 0, "R", ("B", "G", "R"), values, kind="trump")
    assert decision_line(chose, 0).plain == (
        "trump  ✗ trump: B blacks was worth +3.0; your R reds -2.0 · cost 5"
    )
    spades = PlayoutDecision(
        0, 0, "S", ("S", "H"), {"S": Points.whole(1), "H": Points(0)}, kind="trump"
    )
    assert decision_line(spades, 0).plain == "trump  ✓ ♠ spades: a best choice (+1.0)"


def test_a_bad_call_with_every_card_right_is_no_perfect_line() -> None:
    """The summary counted the cards only: "a perfect line" under a call that lost 9 points."""
    from callbreak.tui.review import review_body

    one, eight = Points.whole(1), Points.whole(-8)
    cards = (Decision(1, 0, "AS", ("AS", "3S"), {"AS": eight, "3S": eight}),)
    call = CallReview(8, eight, eight, 1, 1, one, expert=1)
    assert call.lost == Points.whole(9) and call.json()["lost"] == 9
    review = DealReview(1, 0, 0, "callbreak", call, cards, won=2)
    summary = str(review_body(review)[1])
    assert "perfect" not in summary and "the call lost 9" in summary, summary
    made = CallReview(1, one, one, 1, 1, one)
    assert made.lost == Points(0)
    perfect = str(review_body(DealReview(1, 0, 0, "callbreak", made, cards, won=1))[1])
    assert perfect.endswith("a perfect line."), perfect

"""Every game of the family at the Textual table, played by keys through Textual's pilot.

Each preset (and the five-card games at several seat counts) plays whole deals
with the person's seat driven by keys — letters, typed numbers and cards,
arrows and Enter — and at every one of the person's turns the screen is
checked for cards it must not show: the other hands, the nest, the stock.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from textual.pilot import Pilot

from callbreak import Rules
from callbreak.advice import hint_spec
from callbreak.bots import make_bot
from callbreak.engine import Action, Deal, Observation
from callbreak.faces import CARD_PHASES, said, seat_places
from callbreak.tui.app import CallBreakApp
from callbreak.tui.keys import keys_help
from callbreak.tui.screens import ChoiceScreen
from callbreak.tui.session import Session, playable_spec
from callbreak.tui.widgets import ChoiceBar, HandView
from tui_support import play_by_keys, run_app, screen_text, wait_for

GAMES = [
    ("callbreak", 4, 3),
    ("callbreak-bhoos", 4, 3),
    ("callbridge", 4, 3),
    ("batak-koz-maca", 4, 3),
    ("batak-ihale", 4, 2),
    ("rook-call-partner", 4, 1),
    ("snarples", 3, 1),
    ("snarples", 6, 1),
    ("snarples", 8, 2),
    ("donut", 4, 2),
    ("donut", 6, 2),
    ("horsethief", 3, 1),
    ("spades", 4, 1),
    ("oh-hell", 5, 1),
    ("judgement", 7, 1),
    ("horsethief", 5, 1),
]


def rules_for(preset: str, players: int) -> Rules:
    rules = Rules.preset(preset)
    return rules if rules.players == players else rules.replace(players=players)


@pytest.mark.parametrize(
    ("preset", "players", "seed"), GAMES, ids=[f"{p}-{n}" for p, n, _ in GAMES]
)
def test_a_whole_deal_of_every_game_by_keys(preset: str, players: int, seed: int) -> None:
    rules = rules_for(preset, players)
    phases: set[str] = set()
    results: list[str] = []

    async def turn(view: Observation) -> None:
        phases.add(view.phase)

    async def result(title: str) -> None:
        results.append(screen_text(app_ref[0]))

    app_ref: list[CallBreakApp] = []

    async def scenario(pilot: Pilot[None], app: CallBreakApp) -> None:
        app_ref.append(app)
        text = screen_text(app)
        assert rules.title in text
        # Every seat is on the table, by name.
        for seat in range(1, players):
            assert app.session.seat_name(seat) in text
        await play_by_keys(pilot, app, on_turn=turn, on_result=result)

    session = Session.start(rules, "heuristic", seed=seed)
    run_app(session, scenario, size=(80, 24))
    assert results and "Points" in results[-1] and "Total" in results[-1]
    played = [r for r in session.results() if r.points is not None]
    assert played and played[-1].game == rules.game
    # The person played cards, unless it sat the played deal out.
    assert "play" in phases or session.human in played[-1].dropped


def test_seat_places_put_every_seat_somewhere_once() -> None:
    for players in range(3, 9):
        right, top, left = seat_places(players)
        assert sorted((*right, *top, *left)) == list(range(1, players))
        assert len(right) == len(left) >= 1


def test_hints_come_from_the_expert_in_every_game() -> None:
    assert hint_spec().startswith("expert")  # one bot, which plays every game
    spec, notice = playable_spec("expert:budget_ms=1000", Rules.preset("batak-ihale"))
    assert spec == "expert:budget_ms=1000" and notice == ""
    spec, notice = playable_spec("expert:budget_ms=300", Rules.preset("callbreak"))
    assert spec == "expert:budget_ms=300" and notice == ""


async def click_for(
    pilot: Pilot[None], app: CallBreakApp, view: Observation, action: Action
) -> None:
    """Answer ``action`` with the mouse alone: a card in the hand, or a word on the choice bar."""
    if view.phase in CARD_PHASES and str(action) in view.hand:
        hand_view = app.screen.query_one(HandView)
        layout = hand_view.layout_now()
        x = layout.starts[layout.cards.index(str(action))] + 1
        await pilot.click(HandView, offset=(x, 2))
        return
    bar = app.screen.query_one(ChoiceBar)
    bar.render()
    index = next(i for i, (_, value) in enumerate(bar.options) if value == action)
    if bar._spans[index][0] < 0:  # scrolled out of sight: the arrows bring it into view
        while bar.cursor != index:
            await pilot.press("right")
        bar.render()
    start, _ = bar._spans[index]
    await pilot.click(ChoiceBar, offset=(start + 1, 0))


MOUSE_GAMES = [
    # seeds where the person meets the game's phases (takes the Rook nest, is asked to drop)
    ("rook-call-partner", 4, 3, {"auction", "discard", "trump", "partner", "play"}),
    ("horsethief", 5, 1, {"drop", "exchange", "play"}),
    ("donut", 6, 1, {"drop", "play"}),
    ("snarples", 6, 1, {"auction", "play"}),
]


@pytest.mark.parametrize(
    ("preset", "players", "seed", "expected"),
    MOUSE_GAMES,
    ids=[f"{p}-{n}" for p, n, _, _ in MOUSE_GAMES],
)
def test_a_deal_of_the_family_by_mouse_alone(
    preset: str, players: int, seed: int, expected: set[str]
) -> None:
    """Every phase the person meets is answered by a click: bids, trump, in/out, the nest,
    the exchange, the partner card, cards; the result screen's button too."""
    rules = rules_for(preset, players)
    session = Session.start(rules, "heuristic", seed=seed)
    stand_in = make_bot(playable_spec("heuristic", rules)[0], seed=5)
    phases: set[str] = set()

    async def scenario(pilot: Pilot[None], app: CallBreakApp) -> None:
        while not [r for r in session.results() if r.points is not None and r.unplayed is None]:
            await wait_for(
                pilot,
                lambda: app.state == "human" or isinstance(app.screen, ChoiceScreen),
                "the person's turn or a result",
                timeout=60,
            )
            if isinstance(app.screen, ChoiceScreen):
                bar = app.screen.query_one(ChoiceBar)
                bar.render()
                await pilot.click(bar, offset=(bar._spans[0][0] + 1, 0))
                await pilot.pause()
                continue
            view = session.view()
            phases.add(view.phase)
            before = app.own_actions
            await click_for(pilot, app, view, stand_in.act(view))
            assert app.own_actions == before + 1, (view.phase, app.message.plain)

    run_app(session, scenario, size=(120, 40))
    assert phases == expected


@pytest.mark.parametrize("preset", ["rook-call-partner", "horsethief", "snarples"])
def test_a_family_game_resumes_mid_deal(preset: str, tmp_path: Path) -> None:
    """Leave in the middle of a deal past its bidding; the record brings the same view back."""
    record = tmp_path / "game.json"
    rules = Rules.preset(preset)
    session = Session.start(rules, "heuristic", seed=4, record=record)
    stand_in = make_bot(playable_spec("heuristic", rules)[0], seed=5)
    match = session.match
    while not (match.deal.phase == "play" and match.deal.history) or match.to_act != session.human:
        seat = match.to_act
        assert seat is not None
        bot = stand_in if seat == session.human else session.bots[seat]
        match.act(bot.act(match.observation(seat)))
    session.save()
    resumed = Session.resume(record)
    assert resumed.view().to_dict() == session.view().to_dict()
    assert resumed.specs == session.specs

    async def scenario(pilot: Pilot[None], app: CallBreakApp) -> None:
        await wait_for(pilot, lambda: app.state == "human", "the person's turn")
        assert resumed.rules.title in screen_text(app)
        view = resumed.view()
        before = app.own_actions
        await click_for(pilot, app, view, stand_in.act(view))
        assert app.own_actions == before + 1

    run_app(resumed, scenario, size=(120, 40))
    again = Session.resume(record)
    assert len(again.view().hand) < len(session.view().hand) or again.view().phase != "play"


@pytest.mark.parametrize("preset", ["oh-hell", "judgement"])
def test_the_call_shows_the_deals_trump_and_no_call_break_minimum(preset: str) -> None:
    """Oh Hell's trump is the face-up card and Judgement's changes deal by deal: a person
    must see it while calling (it once showed only from the play on, under Call Break's
    "at least 8 to play", which these games do not have)."""
    session = Session.start(Rules.preset(preset), "heuristic", seed=4)

    async def scenario(pilot: Pilot[None], app: CallBreakApp) -> None:
        await wait_for(pilot, lambda: app.session.view().to_act == 0, "the person's call")
        view = app.session.view()
        assert view.phase == "call" and view.trump is not None
        text = screen_text(app)
        assert "trump" in text and "at least" not in text
        if view.upcard is not None:
            assert "face up" in text

    run_app(session, scenario)


@pytest.mark.parametrize(
    ("preset", "typed"),
    [("callbreak", "1–13"), ("callbridge", "2–12"), ("spades", "0–13"), ("judgement", "0–7")],
)
def test_the_help_types_the_calls_the_game_offers(preset: str, typed: str) -> None:
    lines = dict(keys_help(Rules.preset(preset)))
    word = "call" if preset.startswith("call") else "bid"  # Spades and Judgement bid
    assert lines[typed] == f"type your {word}, then Enter"


def test_the_last_trick_of_a_shorter_deal_is_numbered_by_that_deal() -> None:
    """Oh Hell's hands shrink deal by deal: the last trick of a deal of 11 cards is trick 11,
    not the rules' first hand size."""
    session = Session.start(Rules.preset("oh-hell"), "heuristic", seed=2)
    person = make_bot("heuristic", seed=9)
    while len(session.match.scored_deals) < 2:
        seat = session.match.to_act
        assert seat is not None
        view = session.match.observation(seat)
        if seat == 0:
            session.match.act(person.act(view))
        else:
            session.match.act(session.bots[seat].act(view))
    found = session.last_trick_of_finished_deal()
    assert found is not None
    number, trick = found
    assert (
        number == session.match.scored_deals[-1].deal.hand_size < Rules.preset("oh-hell").hand_size
    )
    assert trick.winner is not None


def test_a_long_hint_is_shown_whole_at_80_columns() -> None:
    """The reason of a bid in Snarples runs past one line of 80 columns: it wraps onto a
    second line instead of being cut."""
    session = Session.start(Rules.preset("snarples").replace(players=3), "heuristic", seed=1)

    async def scenario(pilot: Pilot[None], app: CallBreakApp) -> None:
        await wait_for(pilot, lambda: app.state == "human", "the person's turn")
        await pilot.press("i")
        await wait_for(pilot, lambda: "Hint:" in app.message.plain, "a hint")
        await pilot.pause()
        hint = app.message.plain
        assert len(hint) > 78, hint
        shown = " ".join(screen_text(app).split())
        assert " ".join(hint.split()[-3:]) in shown, (hint, shown)

    run_app(session, scenario)


def test_who_said_in_shows_while_the_others_decide() -> None:
    """Donut's drop: a seat that stayed in showed a blank, like one still to answer."""
    for seed in range(20):
        deal = Deal(Rules.preset("donut"), seed=seed, dealer=3)
        if deal.phase == "drop" and deal.to_act == 0:
            break
    else:
        raise AssertionError("no deal offered the drop")
    deal.act("in")
    view = deal.observation(1)
    assert said(view, 0) == "in" and said(view, 1) == said(view, 2) == said(view, 3) == ""
    deal.act("out")
    view = deal.observation(2)
    assert (said(view, 0), said(view, 1), said(view, 2)) == ("in", "out", "")

"""The Textual table driven for real through Textual's pilot: keys, mouse, screens, resume.

Bots play in worker threads exactly as for a person; the tests wait for
states, never for fixed times, and read the rendered screen as text.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
from textual.pilot import Pilot

from callbreak import Rules
from callbreak.bots import make_bot
from callbreak.cards import SUITS
from callbreak.engine import Action, Observation
from callbreak.faces import face
from callbreak.record import read_records, replay
from callbreak.tui.app import CallBreakApp
from callbreak.tui.render import sort_hand
from callbreak.tui.screens import ChoiceScreen, InfoScreen
from callbreak.tui.session import ResumeError, Session
from callbreak.tui.widgets import ChoiceBar, HandView, KeyBar
from tui_support import (
    NO_SPADE,
    choice_screen,
    hidden_cards_on_screen,
    make_session,
    my_turn,
    play_until_last_card,
    run_app,
    screen_text,
    wait_for,
)


def typed(card: str) -> list[str]:
    """The keys that type a card: ``as`` for AS, ``1``, ``0``, ``h`` for TH."""
    rank = "10" if card[0] == "T" else card[0].lower()
    return [*rank, card[1].lower()]


def test_a_whole_deal_by_keys_with_illegal_card_hint_and_last_trick() -> None:
    seen: dict[str, str] = {}

    async def scenario(pilot: Pilot[None], app: CallBreakApp) -> None:
        session = app.session
        await my_turn(pilot, app)
        view = session.view()
        assert view.phase == "call"
        bar = app.screen.query_one(ChoiceBar)
        assert [v for _, v in bar.options] == list(view.legal)
        assert hidden_cards_on_screen(app) == []
        await pilot.press("1", "1")  # 11, then corrected
        assert bar.value == 11
        await pilot.press("escape", "3", "enter")
        assert session.view().calls[session.human] == 3
        illegal_tried = hint_seen = last_seen = False
        while session.finished_deals == 0:
            await wait_for(
                pilot,
                lambda: app.state == "human" or session.finished_deals > 0,
                "the person's card or the end of the deal",
            )
            if session.finished_deals:
                break
            assert not isinstance(app.screen, (ChoiceScreen, InfoScreen))
            assert hidden_cards_on_screen(app) == []
            view = session.view()
            assert view.phase == "play"
            illegal = [c for c in view.hand if c not in view.legal]
            if illegal and not illegal_tried:
                illegal_tried = True
                await pilot.press(*typed(illegal[0]))
                assert session.view().hand == view.hand  # refused, nothing changed
                text = screen_text(app)
                seen["refusal"] = text
                assert f"{face(illegal[0])} is not allowed" in text  # as the hand shows it
                continue
            if not hint_seen:
                hint_seen = True
                await pilot.press("i")
                await wait_for(pilot, lambda: "Hint:" in app.message.plain, "a hint")
                hint = app.message.plain
                assert " — " in hint
                assert any(face(str(card)) in hint for card in view.legal)
                seen["hint"] = hint
            if view.history and not last_seen:
                last_seen = True
                await pilot.press("l")
                assert isinstance(app.screen, InfoScreen)
                text = screen_text(app)
                assert "Last trick" in text and "won it" in text
                await pilot.press("escape")
                assert not isinstance(app.screen, InfoScreen)
            # Move onto a legal card with the arrows, then Enter.
            hand = sort_hand(view.hand)
            while hand[app.cursor] not in view.legal:
                await pilot.press("right")
            before = len(session.view().hand)
            await pilot.press("enter")
            assert len(session.view().hand) == before - 1 or session.finished_deals
        assert illegal_tried and hint_seen and last_seen
        screen = await choice_screen(pilot, app, "Deal 1 result")
        text = screen_text(app)
        assert "Call" in text and "Points" in text and "Last trick" in text
        assert screen.choices[0][1] == "next"
        await pilot.press("enter")
        await my_turn(pilot, app)
        await pilot.press("p")
        sheet = screen_text(app)
        assert "Scoresheet" in sheet
        points = app.session.results()[0].points
        assert points is not None
        for value in points:
            assert str(value) in sheet
        await pilot.press("p")
        assert not isinstance(app.screen, InfoScreen)

    run_app(make_session(3), scenario)
    assert "Hint:" in seen["hint"]


def test_calls_offer_only_legal_values_and_bots_calls_show() -> None:
    rules = Rules.preset("callbreak").replace(max_call=8, min_call=2)

    async def scenario(pilot: Pilot[None], app: CallBreakApp) -> None:
        await my_turn(pilot, app)
        bar = app.screen.query_one(ChoiceBar)
        assert [v for _, v in bar.options] == list(range(2, 9))
        await pilot.press("9")  # not a legal call: the cursor does not move to it
        assert bar.value != 9
        view = app.session.view()
        text = screen_text(app)
        for seat, call in enumerate(view.calls):
            if call is not None:
                assert re.search(rf"{app.session.seat_name(seat)}\s+{call}\b", text)

    run_app(make_session(5, rules=rules), scenario)


def test_misdeal_claim_offered_only_when_the_hand_qualifies() -> None:
    # West (seat 3) deals; seat 0 speaks first and may claim; seat 3's clubs-only hand
    # qualifies too, but the claim by seat 0 ends the deal first.
    async def scenario(pilot: Pilot[None], app: CallBreakApp) -> None:
        await my_turn(pilot, app)
        assert app.session.view().phase == "misdeal"
        text = screen_text(app)
        assert "Claim a redeal" in text and "no spade" in text
        await pilot.press("y")
        await choice_screen(pilot, app, "Deal thrown in")
        assert "misdeal claimed by You (holds no spade)" in screen_text(app)
        await pilot.press("enter")
        # Play on through any further redeals until the person must call with a sound hand.
        while True:
            await wait_for(pilot, lambda: app.state in ("human", "modal"), "a decision")
            await pilot.pause()
            if isinstance(app.screen, ChoiceScreen):
                await pilot.press("enter")
                continue
            if app.session.view().phase == "misdeal":
                await pilot.press("n")
                continue
            break
        assert app.session.view().phase == "call"
        assert "Claim a redeal" not in screen_text(app)

    run_app(make_session(hands=[NO_SPADE]), scenario)


def test_mouse_only_call_cards_and_result() -> None:
    async def scenario(pilot: Pilot[None], app: CallBreakApp) -> None:
        session = app.session
        await my_turn(pilot, app)
        bar = app.screen.query_one(ChoiceBar)
        bar.render()
        index = next(i for i, (_, v) in enumerate(bar.options) if v == 2)
        start, _ = bar._spans[index]
        await pilot.click("#choices", offset=(start + 1, 0))
        assert session.view().calls[session.human] == 2
        while session.finished_deals == 0:
            await wait_for(
                pilot,
                lambda: app.state == "human" or session.finished_deals > 0,
                "the person's card",
            )
            if session.finished_deals:
                break
            view = session.view()
            hand_view = app.screen.query_one(HandView)
            layout = hand_view.layout_now()
            card = str(view.legal[-1])
            x = layout.starts[layout.cards.index(card)] + 1
            await pilot.click(HandView, offset=(x, 2))
            assert card not in session.view().hand or session.finished_deals
        await choice_screen(pilot, app, "Deal 1 result")
        dialog_bar = app.screen.query_one(ChoiceBar)
        dialog_bar.render()
        start, _ = dialog_bar._spans[0]
        await pilot.click(dialog_bar, offset=(start + 1, 0))
        await my_turn(pilot, app)
        assert session.deal_number == 2
        # The key bar is clickable too: the scoresheet by mouse.
        keys = app.screen.query_one(KeyBar)
        keys.render()
        start = next(s for s, _, action in keys._spans if action == "scores")
        await pilot.click(KeyBar, offset=(start + 1, 0))
        assert isinstance(app.screen, InfoScreen)
        await pilot.click(offset=(1, 1))
        assert not isinstance(app.screen, InfoScreen)

    run_app(make_session(7), scenario)


def test_a_full_match_to_its_summary_then_a_new_match(tmp_path: Path) -> None:
    record = tmp_path / "game.json"

    async def scenario(pilot: Pilot[None], app: CallBreakApp) -> None:
        first = app.session
        while True:
            await wait_for(
                pilot,
                lambda: app.state in ("human", "modal"),
                "a decision or a result",
            )
            await pilot.pause()
            screen = app.screen
            if isinstance(screen, ChoiceScreen):
                if screen.title_text == "Match over":
                    break
                await pilot.press("enter")
                continue
            if app.state == "human":
                assert hidden_cards_on_screen(app) == []
                await pilot.press("enter")  # the cursor always starts on a legal choice
        assert first.over and first.winners
        text = screen_text(app)
        assert "wins the match" in text or "win" in text
        assert "Total" in text
        for total in first.totals:
            assert str(total) in text
        await pilot.press("n")
        await my_turn(pilot, app)
        assert app.session is not first and not app.session.over
        assert app.session.record == tmp_path / "game-2.json"

    # Two deals keep the test quick; the summary, the totals and a new match are the same.
    rules = Rules.preset("callbreak").replace(match_deals=2)
    run_app(make_session(11, rules=rules, record=record), scenario)
    document = read_records(record)[0]
    assert document["result"]["complete"] is True
    assert replay(document).complete


def test_resume_continues_the_record(tmp_path: Path) -> None:
    record = tmp_path / "game.json"
    state: dict[str, Any] = {}

    async def first(pilot: Pilot[None], app: CallBreakApp) -> None:
        await my_turn(pilot, app)
        await pilot.press("enter")  # call
        await my_turn(pilot, app)
        await pilot.press("enter")  # a card
        await my_turn(pilot, app)
        state["view"] = app.session.view().to_dict()
        await pilot.press("ctrl+c")
        await choice_screen(pilot, app, "Leave?")
        assert "--resume" in screen_text(app)
        await pilot.press("n")
        assert not isinstance(app.screen, ChoiceScreen)
        await pilot.press("ctrl+c")
        await choice_screen(pilot, app, "Leave?")
        await pilot.press("y")

    run_app(make_session(21, record=record), first)
    saved = json.loads(record.read_text())
    assert saved["result"]["complete"] is False

    resumed = Session.resume(record)
    assert resumed.record == record
    assert resumed.specs == {1: "heuristic", 2: "heuristic", 3: "heuristic"}
    assert resumed.view().to_dict() == state["view"]

    async def second(pilot: Pilot[None], app: CallBreakApp) -> None:
        await my_turn(pilot, app)
        assert app.session.view().to_dict() == state["view"]
        await pilot.press("enter")
        await my_turn(pilot, app)

    run_app(resumed, second)
    again = Session.resume(record)
    assert len(again.view().hand) == len(resumed.view().hand)
    assert len(again.view().hand) < len(state["view"]["hand"])


def test_resume_refuses_a_finished_or_foreign_record(tmp_path: Path) -> None:
    session = make_session(2, record=tmp_path / "done.json")
    match = session.match
    me = make_bot("heuristic", seed=1)
    while not match.over:
        seat = match.to_act
        assert seat is not None
        bot = me if seat == session.human else session.bots[seat]
        match.act(bot.act(match.observation(seat)))
    session.save()
    with pytest.raises(ResumeError, match="finished"):
        Session.resume(tmp_path / "done.json")
    unfinished = make_session(2, record=tmp_path / "part.json")
    unfinished.save()
    document = json.loads((tmp_path / "part.json").read_text())
    document["seats"][0]["player"] = "remote:someone"
    foreign = tmp_path / "foreign.json"
    foreign.write_text(json.dumps(document))
    with pytest.raises(ResumeError, match="no single human seat"):
        Session.resume(foreign)


def test_no_colour_keeps_legal_cards_apart_by_shape(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("NO_COLOR", "1")

    async def scenario(pilot: Pilot[None], app: CallBreakApp) -> None:
        assert app.no_color
        await my_turn(pilot, app)
        await pilot.press("enter")
        while True:
            await my_turn(pilot, app)
            view = app.session.view()
            if len(view.legal) < len(view.hand):
                break
            await pilot.press("enter")
        text = screen_text(app)
        assert "┆" in text and "│" in text  # dotted: not legal; solid: legal

    run_app(make_session(3), scenario)


def test_resize_from_120x40_to_80x24_keeps_every_card() -> None:
    async def scenario(pilot: Pilot[None], app: CallBreakApp) -> None:
        await my_turn(pilot, app)
        hand = app.session.view().hand
        for size in ((120, 40), (80, 24), (100, 30)):
            await pilot.resize_terminal(*size)
            await pilot.pause()
            text = screen_text(app)
            for card in hand:
                assert face(card) in text, (size, card)
            assert "Your call" in text

    run_app(make_session(3), scenario, size=(120, 40))


def test_pause_waits_and_space_skips() -> None:
    async def scenario(pilot: Pilot[None], app: CallBreakApp) -> None:
        await wait_for(pilot, lambda: app.state in ("pause", "human"), "a pause or a call")
        if app.state == "human":
            await pilot.press("enter")
        await wait_for(pilot, lambda: app.state == "pause", "a pause after a bot's action")
        actions = app.actions
        assert "go on" in screen_text(app)
        await pilot.press("space")
        await wait_for(pilot, lambda: app.state != "pause" or app.actions > actions, "going on")
        await pilot.press("f")
        assert app.fast
        await my_turn(pilot, app)

    # A 30-second pause would time the test out if space and f did not skip it.
    run_app(make_session(3), scenario, pause=30)


def test_every_suit_key_jumps_to_that_suit() -> None:
    async def scenario(pilot: Pilot[None], app: CallBreakApp) -> None:
        await my_turn(pilot, app)
        await pilot.press("enter")
        await my_turn(pilot, app)
        hand = sort_hand(app.session.view().hand)
        for suit in SUITS:
            await pilot.press(suit.lower())
            if any(c[-1] == suit for c in hand):
                assert hand[app.cursor][-1] == suit
            else:
                assert "You hold no" in app.message.plain

    run_app(make_session(3), scenario)


def test_an_open_match_ends_when_the_person_says_so() -> None:
    session = make_session(8, rules=Rules.preset("callbridge"))
    play_until_last_card(session)

    async def scenario(pilot: Pilot[None], app: CallBreakApp) -> None:
        await my_turn(pilot, app)
        top = screen_text(app).splitlines()[0]
        assert "Deal 1 ·" in top and "Deal 1/" not in top  # an open match has no last deal
        await pilot.press("enter")
        screen = await choice_screen(pilot, app, "Deal 1 result")
        assert [v for _, v in screen.choices] == ["next", "finish", "review"]
        await pilot.press("e")
        await wait_for(
            pilot,
            lambda: app.session.over or app.session.tie_break,
            "the end of the match or a tie-break",
        )
        if app.session.over:
            await choice_screen(pilot, app, "Match over")
        else:
            await my_turn(pilot, app)
            assert "tie-break" in screen_text(app)

    run_app(session, scenario)


class _Broken:
    """A bot that answers with a card nobody may play, or fails outright."""

    name = "broken"

    def __init__(self, fail: bool) -> None:
        self.fail = fail

    def act(self, observation: Observation) -> Action:
        if self.fail:
            raise RuntimeError("out of order")
        return 0 if observation.phase == "call" else "AS" if "AS" not in observation.hand else "2C"


def test_a_broken_bot_neither_stops_the_table_nor_reveals_its_hand() -> None:
    session = make_session(3)
    session.bots[1] = _Broken(fail=False)
    session.bots[3] = _Broken(fail=True)

    async def scenario(pilot: Pilot[None], app: CallBreakApp) -> None:
        notes: set[str] = set()
        for _ in range(6):
            await my_turn(pilot, app)
            notes.add(app.message.plain)
            assert hidden_cards_on_screen(app) == []
            await pilot.press("enter")
        text = " ".join(notes)
        assert "refused" in text or "failed" in text
        assert "your cards" not in text and "must" not in text

    run_app(session, scenario)


def test_declaring_voids_is_asked_and_shown() -> None:
    rules = Rules.preset("callbreak").replace(misdeal="off", declare_voids=True)

    async def scenario(pilot: Pilot[None], app: CallBreakApp) -> None:
        await my_turn(pilot, app)
        assert app.session.view().phase == "call"
        await pilot.press("enter")
        await my_turn(pilot, app)
        view = app.session.view()
        if view.phase != "declare":  # the calls were too few and the deal was redealt
            return
        assert "Declare your void suits (" in screen_text(app)
        await pilot.press("y")
        await my_turn(pilot, app)
        assert app.session.view().declared_voids[0] == "SC"
        assert "void ♠♣" in screen_text(app)

    run_app(make_session(hands=[NO_SPADE], rules=rules), scenario)

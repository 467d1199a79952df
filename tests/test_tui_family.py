"""Every game of the family at the Textual table, played by keys through Textual's pilot.

Each preset (and the five-card games at several seat counts) plays whole deals
with the person's seat driven by keys — letters, typed numbers and cards,
arrows and Enter — and at every one of the person's turns the screen is
checked for cards it must not show: the other hands, the nest, the stock.
"""

from __future__ import annotations

import pytest
from textual.pilot import Pilot

from callbreak import Rules
from callbreak.engine import Observation
from callbreak.tui.app import CallBreakApp
from callbreak.tui.phases import seat_places
from callbreak.tui.session import Session, hint_spec, playable_spec
from tui_support import play_by_keys, run_app, screen_text

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


def test_hints_come_from_the_best_bot_that_knows_the_game() -> None:
    assert hint_spec("callbreak").startswith("expert")
    assert hint_spec("batak") == "heuristic"
    spec, notice = playable_spec("expert:budget_ms=1000", Rules.preset("batak-ihale"))
    assert spec == "heuristic" and "expert" in notice.lower() and "Batak" in notice
    spec, notice = playable_spec("expert:budget_ms=300", Rules.preset("callbreak"))
    assert spec == "expert:budget_ms=300" and notice == ""

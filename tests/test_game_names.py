"""A game is one record: nothing outside ``callbreak/games/`` tells games apart by name,
an unknown game is an error everywhere (never Call Break), and every record's names for
its faces, bots and phases are ones that those layers know."""

from __future__ import annotations

import ast
from collections.abc import Iterator
from dataclasses import replace
from types import ModuleType

import pytest

from bench_support import load_bench
from callbreak import Deal, Match, Rules
from callbreak.advice import explain
from callbreak.bots import make_bot
from callbreak.bots.heuristic import _family_policy
from callbreak.env.encoding import Encoder
from callbreak.faces import COLUMN_LABELS, PHASES, STAT_LABELS, deal_facts, game_face, seat_facts
from callbreak.games import GAMES, PRESETS, Preset, find_game, find_preset, register
from callbreak.games.family import MODULES
from callbreak.tui.render import rules_summary


@pytest.fixture(scope="module")
def name_checks() -> ModuleType:
    return load_bench("name_checks")


def test_no_module_outside_the_games_compares_a_game_name(name_checks: ModuleType) -> None:
    found = name_checks.name_checks()
    assert found == [], "\n".join(f"{c.path}:{c.line}: {c.text}" for c in found)


def test_the_walk_finds_what_it_should_and_not_option_values(name_checks: ModuleType) -> None:
    names = name_checks.game_names()
    assert {"callbreak", "rook", "callbridge", "batak-koz-maca"} <= names
    source = (
        'a = rules.game == "rook"\n'
        'b = view.game in ("snarples", "donut")\n'
        'c = TABLE.get("donut", 3)\n'
        'd = {"batak": 1, "rook": 2}\n'
        'e = rules.scoring == "callbridge"\n'
        'f = {"rook": "magenta"}\n'
        'g = frozenset({"callbreak"})\n'
        "match game:\n"
        '    case "horsethief":\n'
        "        pass\n"
    )
    kinds = sorted(kind for _, kind in name_checks._checks(ast.parse(source), names))
    assert kinds == ["collection", "compare", "compare", "lookup", "match", "table"]


def test_an_unknown_game_is_an_error_not_call_break() -> None:
    with pytest.raises(ValueError, match="unknown game 'bridge': choose one of callbreak"):
        find_game("bridge")
    with pytest.raises(ValueError, match="unknown game 'bridge'"):
        game_face("bridge")
    with pytest.raises(ValueError, match="unknown game 'bridge'"):
        Rules(game="bridge")
    with pytest.raises(ValueError, match="unknown preset 'bridge'"):
        find_preset("bridge")


def test_a_game_or_preset_is_registered_once() -> None:
    with pytest.raises(ValueError, match="'donut' is registered already"):
        register(GAMES["donut"])
    clash = replace(GAMES["donut"], name="donut-again")
    with pytest.raises(ValueError, match="preset named 'donut' is registered already"):
        register(clash)
    assert "donut-again" not in GAMES


def test_every_game_has_a_module_and_every_preset_a_registered_game() -> None:
    assert list(GAMES) == [find_game(name).name for name in MODULES]
    for preset in PRESETS.values():
        rules = Rules.preset(preset.name)
        assert rules.shape is GAMES[preset.game]
        assert rules.title == preset.title


@pytest.mark.parametrize("name", list(GAMES))
def test_a_records_names_are_known_to_the_faces_and_the_bots(name: str) -> None:
    game = GAMES[name]
    assert set(game.face.stats) <= set(STAT_LABELS)
    assert set(game.face.summary) <= set(COLUMN_LABELS)
    assert set(game.phase_names) - {"over", "void"} <= set(PHASES)
    if not game.calls:
        assert callable(_family_policy(game.policy))
    preset = next(p for p in PRESETS.values() if p.game == name)
    deal = Deal(Rules.preset(preset.name), seed=1, dealer=0)
    seat = deal.to_act
    assert seat is not None
    assert make_bot("heuristic", seed=1).act(deal.observation(seat)) in deal.legal()


@pytest.fixture
def nullo() -> Iterator[Rules]:
    """A ninth game registered for one test: Donut's record under another name, as a new
    game made of known pieces would be written (then taken out of the registry again)."""
    donut = GAMES["donut"]
    preset = Preset("nullo", "Nullo", "nullo", dict(donut.presets[0].options))
    register(replace(donut, name="nullo", title="Nullo", presets=(preset,)))
    try:
        yield Rules.preset("nullo")
    finally:
        del GAMES["nullo"], PRESETS["nullo"]


def test_a_new_game_needs_nothing_outside_its_record(nullo: Rules) -> None:
    """Faces, hints, bots and the learner's encoding treat it as the game it copies."""
    donut = Rules.preset("donut")
    assert nullo.title == "Nullo" and game_face("nullo") == game_face("donut")
    assert rules_summary(nullo).replace("Nullo", "Donut") == rules_summary(donut)
    encoder, donut_encoder = Encoder(nullo), Encoder(donut)
    assert encoder.fields == donut_encoder.fields
    names = ["a", "b", "c", "d"]
    match, twin = Match(nullo, seed=2), Match(donut, seed=2)
    bots = [make_bot("heuristic", seed=s) for s in range(4)]
    twin_bots = [make_bot("heuristic", seed=s) for s in range(4)]
    while not match.over:
        seat = match.to_act
        assert seat is not None
        view, twin_view = match.observation(seat), twin.observation(seat)
        action = bots[seat].act(view)
        assert action == twin_bots[seat].act(twin_view)
        if len(view.legal) > 1:
            assert explain(view, action) == explain(twin_view, action)
        assert seat_facts(view, seat) == seat_facts(twin_view, seat)
        assert deal_facts(view, names) == deal_facts(twin_view, names)
        assert (encoder.encode(view) == donut_encoder.encode(twin_view)).all()
        match.act(action)
        twin.act(action)
    assert match.totals == twin.totals

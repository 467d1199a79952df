"""An arena game's record holds the deals that were played, and nothing dealt after them.

Before, Spades (a ``match_end`` but no ``match_deals`` option) played each game as a
five-deal match stopped after its first scored deal: the record held a second deal, dealt
and never played, and replayed as "unfinished".
"""

from __future__ import annotations

import pytest

from callbreak import Rules
from callbreak.arena import ArenaConfig, run_arena, single_deal_rules
from callbreak.record import replay


@pytest.mark.parametrize("preset", ["spades", "horsethief"])
def test_a_game_with_a_match_end_but_no_match_deals_is_one_whole_deal(preset: str) -> None:
    rules = Rules.preset(preset)
    assert "match_deals" not in rules.options() and "match_end" in rules.options()
    assert single_deal_rules(rules).match_deals == 1
    run = run_arena(ArenaConfig(rules, ("heuristic",) * rules.players, 1, 1, True), workers=1)
    for game in run.sets[0].games:
        record = game.record
        assert record is not None and len(record["deals"]) == 1
        report = replay(record)
        assert report.complete and report.scored_deals == 1


@pytest.mark.parametrize("preset", ["snarples", "oh-hell"])
def test_a_match_that_cannot_stop_after_one_deal_keeps_only_the_deal_played(
    preset: str,
) -> None:
    """A countdown game's match (Snarples), or one deal of Oh Hell's schedule, goes on by
    its rules after the scored deal: the record stops there, and replays as it stands."""
    rules = Rules.preset(preset)
    run = run_arena(ArenaConfig(rules, ("heuristic",) * rules.players, 1, 1, True), workers=1)
    for game in run.sets[0].games:
        record = game.record
        assert record is not None and len(record["deals"]) == 1
        assert replay(record).scored_deals == 1

"""The words the terminal faces print: a person's name exactly as typed (no markup read in
it), and each game's own word for a contract (Call Break's seats call, Spades' and Oh Hell's
bid, as their rule books say)."""

from __future__ import annotations

import re
from dataclasses import replace
from pathlib import Path

import pytest
from rich.console import Console
from textual.pilot import Pilot
from typer.testing import CliRunner

from callbreak import Match, Rules
from callbreak.bots import make_bot
from callbreak.cli.play import TerminalGame
from callbreak.engine import Deal, Observation
from callbreak.faces import (
    DealResult,
    column_label,
    face_tables,
    phase_face,
    seat_facts,
    stat_text,
)
from callbreak.playout_review import Outcome, PlayoutDecision
from callbreak.points import Points
from callbreak.review import Reviewer, review_document
from callbreak.tui.app import CallBreakApp
from callbreak.tui.keys import keys_help
from callbreak.tui.render import deal_table
from callbreak.tui.review import review_body
from callbreak.verdicts import DealReview
from tui_support import make_session, my_turn, run_app, screen_text

BID_PRESETS = ("spades", "oh-hell", "judgement")
"""The presets whose rule books bid (docs/rules/spades.md, oh-hell.md)."""
CALL_WORD = re.compile(r"\bcall(s|ed)?\b", re.IGNORECASE)


def plain_text(match: Match, answers: list[str], *, name: str = "You") -> str:
    """``match`` at the plain table: ``answers`` typed in turn, then the bots' own choice for
    the person until the first deal is scored, then "quit"; all the terminal showed."""
    typed = iter(answers)
    person = make_bot("heuristic", seed=9)
    console = Console(record=True, width=200, color_system=None)

    def ask(prompt: str) -> str:
        answer = next(typed, None)
        if answer is None:
            view = match.observation(0)
            answer = "quit" if match.scored_deals else str(person.act(view)).lower()
        console.print(prompt + answer, markup=False)
        return answer

    bots = {seat: make_bot("heuristic", seed=seat) for seat in range(1, match.rules.players)}
    TerminalGame(match, bots, name=name, console=console, ask=ask).run()
    return console.export_text()


# ------------------------------------------------------------------ names as typed
NAMES = ["a\\[b]", "x\\", "x\\\\", "a\\[B]", "q\\[1]", "\\[/]", "[red]Bob", ":smile:", "a\\"]


@pytest.mark.parametrize("name", NAMES)
def test_a_name_prints_exactly_as_typed_at_the_plain_table(name: str) -> None:
    """Rich's ``escape`` doubled a trailing backslash before plain text and dropped one before
    a bracket it did not see as a tag; an emoji code became an emoji."""
    match = Match(Rules.preset("callbreak"), seed=3)
    text = plain_text(match, ["score"], name=name)
    assert match.scored_deals
    shown = [line for line in text.splitlines() if name in line]
    assert any(re.search(rf"│ {re.escape(name)}\s+│\s+\d", line) for line in shown)  # result
    assert any(f"┃ {name} ┃" in line for line in shown)  # the scoresheet's heading
    if name.endswith("\\"):
        assert name + "\\" not in text  # never doubled
    assert "\\" in name or "😄" not in text


def test_a_name_prints_exactly_as_typed_in_the_table_pictures() -> None:
    names = ["x\\", "a\\[b]", ":smile:", "q\\[1]"]
    console = Console(record=True, width=100, color_system=None)
    console.print(deal_table(SPADES_RESULT, names))
    text = console.export_text()
    assert all(name in text for name in names)
    assert "x\\\\" not in text and "😄" not in text


def test_the_help_shows_its_letters_in_brackets() -> None:
    """The help was printed as markup: "[y/n]" and "[b/k]" were read as styles and vanished."""
    text = plain_text(Match(Rules.preset("callbreak"), seed=3), ["?", "quit"])
    assert "lists letters ([y/n], [b/k])" in text


# ------------------------------------------------------------- a game's contract word
@pytest.mark.parametrize("preset", BID_PRESETS)
def test_plain_bidding_games_say_bid(preset: str) -> None:
    rules = Rules.preset(preset)
    match = Match(rules, seed=5)
    text = plain_text(match, [])
    assert "Your bid (" in text and "Bids so far: " in text
    assert re.search(r"\) bids \d", text)  # a bot's bid is told as one
    assert "Tricks won / bid — " in text
    assert re.search(r"┃\s+Seat\s+┃\s+Bid\s+┃", text)  # the deal's result
    assert not CALL_WORD.search(text), CALL_WORD.findall(text)


def test_plain_call_break_still_says_call() -> None:
    text = plain_text(Match(Rules.preset("callbreak"), seed=5), [])
    assert "Your call (" in text and "Calls so far: " in text
    assert re.search(r"\) calls \d", text)
    assert "Tricks won / called — " in text
    assert re.search(r"┃\s+Seat\s+┃\s+Call\s+┃", text)
    assert not re.search(r"\bbid", text, re.IGNORECASE)


def test_a_typed_refusal_names_the_bid() -> None:
    match = Match(Rules.preset("oh-hell"), seed=5)
    text = plain_text(match, ["many", "quit"])
    assert "Type your bid as a number: " in text


def call_view(rules: Rules) -> Observation:
    """The person's view when it is to call, the seats before it having called."""
    deal = Deal(rules, seed=4, dealer=1)
    while deal.to_act != 0:
        deal.act(deal.legal()[1])
    return deal.observation(0)


@pytest.mark.parametrize(
    ("preset", "word"), [("callbreak", "call"), *[(p, "bid") for p in BID_PRESETS]]
)
def test_the_table_words_the_contract_as_the_game_does(preset: str, word: str) -> None:
    rules = Rules.preset(preset)
    view = call_view(rules)
    said = phase_face("call", view.game)
    assert said.verb == word
    assert said.prompt(view).startswith(f"Your {word} (")
    assert said.tell(view, 3, False) == f"{word}s 3"
    assert said.said.keys_hint.startswith(f"Your {word}: ")
    assert said.typed_refusal(view, "x") == f"Type your {word} as a number: " + (
        said.offered(view) + "."
    )
    assert stat_text(view, 3, "call") == f"{word} {view.calls[3]}"
    assert seat_facts(view, 3)[0].startswith(f"{word} ")
    assert column_label("call", view.game) == word
    meanings = " ".join(meaning for _, meaning in keys_help(rules))
    assert f"type your {word}, then Enter" in meanings
    if word == "bid":
        assert not CALL_WORD.search(meanings)


def test_the_web_page_is_given_each_game_s_words() -> None:
    games = face_tables()["games"]
    spades, callbreak = games["spades"]["words"], games["callbreak"]["words"]
    assert spades["phases"]["call"]["verb"] == "bid"
    assert spades["phases"]["call"]["prompt"] == "Your bid:"
    assert spades["stat_labels"]["call"] == spades["column_labels"]["call"] == "bid"
    assert callbreak["phases"]["call"]["verb"] == callbreak["stat_labels"]["call"] == "call"


def test_the_family_words_of_the_call_phase_stay_call() -> None:
    assert phase_face("call").verb == "call"
    assert phase_face("call", "callbreak") == phase_face("call")


def test_the_full_screen_table_says_bid_in_spades() -> None:
    async def scenario(pilot: Pilot[None], app: CallBreakApp) -> None:
        await my_turn(pilot, app)
        text = screen_text(app)
        assert "Your bid" in text and "bids so far" in text, text
        assert not CALL_WORD.search(text), text

    run_app(make_session(5, rules=Rules.preset("spades")), scenario, size=(120, 40))


# ------------------------------------------------------------------ results, verdicts
SPADES_RESULT = DealResult(
    number=1,
    tie_break=False,
    void_reason=None,
    calls=(1, 4, 0, 5),
    tricks=(0, 3, 6, 4),
    points=(Points.whole(51), Points.whole(-40), Points.whole(51), Points.whole(-40)),
    totals=(Points.whole(51), Points.whole(-40), Points.whole(51), Points.whole(-40)),
    counting=(0, 1, 2, 3),
    game="spades",
)


def test_the_results_and_verdicts_say_bid_where_the_game_bids() -> None:
    app = CallBreakApp(make_session(5, rules=Rules.preset("spades")), pause=0)
    assert app._verdict(SPADES_RESULT).plain.startswith("Your side bid 1 (you 1, North 0)")
    app = CallBreakApp(make_session(5, rules=Rules.preset("oh-hell")), pause=0)
    own = replace(SPADES_RESULT, game="ohhell", calls=(0, 4, 0, 5))
    assert app._verdict(own).plain == "You bid 0 and won 0: 51 points."
    assert app._scores_legend().startswith("Each cell: bid/won, then the points")
    console = Console(record=True, width=100, color_system=None)
    console.print(deal_table(SPADES_RESULT, ["You", "East", "North", "West"]))
    assert re.search(r"\bBid\b", console.export_text())
    app = CallBreakApp(make_session(5), pause=0)
    mine = replace(SPADES_RESULT, game="callbreak", calls=(3, 4, 1, 5), tricks=(3, 3, 3, 4))
    assert app._verdict(mine).plain.startswith("You called 3 and won 3")


# ------------------------------------------------------------------------- reviews
def spades_review(number: int, seat: int, dealer: int) -> DealReview:
    values = {"2": Points.whole(-30), "4": Points.whole(40)}
    bid = PlayoutDecision(0, 0, "2", ("2", "4"), values, kind="call")
    head = Outcome(2, Points.whole(-30), None, None, None, None)
    return DealReview(number, seat, dealer, "spades", head, (bid,), won=1, method="playouts")


class SpadesAnalyst:
    def deal(self, deal: Deal, seat: int, number: int) -> DealReview:
        return spades_review(number, seat, deal.dealer)


def played_deal(rules: Rules) -> Deal:
    deal = Deal(rules, seed=2)
    bots = [make_bot("heuristic", seed=seat) for seat in range(rules.players)]
    while deal.to_act is not None:
        deal.act(bots[deal.to_act].act(deal.observation(deal.to_act)))
    return deal


def test_a_review_of_a_spades_deal_says_bid() -> None:
    review = Reviewer(SpadesAnalyst).review(played_deal(Rules.preset("spades")), 0, 1)
    assert review.game == "spades"
    line = review_document(review)["decisions"][0]["text"]
    assert line.startswith("bid: 4 was worth +40.0; your 2 -30.0"), line
    console = Console(record=True, width=100, color_system=None)
    for part in review_body(review):
        console.print(part)
    text = console.export_text()
    assert "bid  ✗ bid: 4 was worth" in text and not CALL_WORD.search(text), text


def test_a_review_keeps_call_break_s_word() -> None:
    review = replace(spades_review(1, 0, 3), game="callbreak")
    assert review_document(review)["decisions"][0]["text"].startswith("call: 4 was worth")


def test_analyze_reviews_a_spades_deal_in_bids(tmp_path: Path) -> None:
    """``callbreak analyze`` reads a review in the game's words too: a Spades seat bids."""
    from callbreak.cli.main import app

    out = tmp_path / "spades.jsonl"
    runner = CliRunner()
    args = ["selfplay", "--rules", "spades", "--bot", "heuristic", "--games", "1"]
    made = runner.invoke(app, [*args, "--seed", "3", "--out", str(out)])
    assert made.exit_code == 0, made.output
    shown = runner.invoke(app, ["analyze", str(out), "--deal", "1", "--all"])
    assert shown.exit_code == 0, shown.output
    assert "bid: " in shown.output
    assert not re.search(r"\bcall(s|ed)?\b", shown.output), shown.output


def test_a_name_in_a_reviews_heading_is_not_reworded() -> None:
    """The game's word replaces ours, never a person's name: "call me" stays as typed."""
    review = replace(spades_review(1, 0, 3), game="spades")
    console = Console(record=True, width=100, color_system=None)
    for part in review_body(review, name="call me"):
        console.print(part)
    assert "call me" in console.export_text()

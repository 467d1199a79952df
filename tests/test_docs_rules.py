"""The worked examples of the rule book (docs/rules/) run as doctests.

A rule page's examples are ```pycon blocks; everything else on the page is
prose.  Each page runs as one doctest (its blocks share their names, so a later
example may continue an earlier deal), with the page's own line numbers, so a
failure points at the line of the Markdown file to fix.  An example that the
engine contradicts fails the suite: the rule book and the code cannot drift apart.
"""

from __future__ import annotations

import doctest
import io
import re
from pathlib import Path

import pytest

from callbreak import Rules

RULES_DIR = Path(__file__).resolve().parent.parent / "docs" / "rules"
PAGES = sorted(RULES_DIR.glob("*.md"))
FENCE = re.compile(r"^\s*```")
FLAGS = doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE
QUALIFIED = re.compile(r"^(?:[A-Za-z_]\w*\.)+([A-Z]\w*): ", re.MULTILINE)


class ShortExceptionNames(doctest.OutputChecker):
    """Compares an exception by its class name and message, not by the module that defines
    it: a page writes ``IllegalAction: ...`` as a reader sees it, and stays right when the
    class moves between engine modules.  The message is still compared in full."""

    def check_output(self, want: str, got: str, optionflags: int) -> bool:
        want, got = QUALIFIED.sub(r"\1: ", want), QUALIFIED.sub(r"\1: ", got)
        return super().check_output(want, got, optionflags)


def examples_only(text: str) -> str:
    """The page with every line outside a ```pycon block blanked, so that line numbers
    still match the file and prose never reads as expected output."""
    kept = []
    inside = False
    for line in text.splitlines():
        if FENCE.match(line):
            inside = not inside and line.strip() == "```pycon"
            kept.append("")
        else:
            kept.append(line if inside else "")
    if inside:
        raise ValueError("a ```pycon block is not closed")
    return "\n".join(kept) + "\n"


def run_page(text: str, name: str) -> tuple[doctest.TestResults, str]:
    """Run a page's examples; the results and the runner's report of any failure."""
    test = doctest.DocTestParser().get_doctest(examples_only(text), {}, name, name, 0)
    out = io.StringIO()
    runner = doctest.DocTestRunner(checker=ShortExceptionNames(), optionflags=FLAGS)
    results = runner.run(test, out=out.write)
    return results, out.getvalue()


def stray_prompts(text: str) -> list[int]:
    """Lines outside a ```pycon block that look like an example: they would never run."""
    lines = []
    inside = False
    for number, line in enumerate(text.splitlines(), 1):
        if FENCE.match(line):
            inside = not inside and line.strip() == "```pycon"
        elif not inside and line.lstrip().startswith(">>> "):
            lines.append(number)
    return lines


def test_the_rule_book_has_its_pages() -> None:
    names = {page.name for page in PAGES}
    assert names == {
        "README.md",
        "common.md",
        "callbreak.md",
        "callbridge.md",
        "batak-ihale.md",
        "batak-koz-maca.md",
        "snarples.md",
        "donut.md",
        "horsethief.md",
        "rook-call-partner.md",
        "spades.md",
        "oh-hell.md",
        "what-bots-know.md",
    }


@pytest.mark.parametrize("page", PAGES, ids=[page.name for page in PAGES])
def test_worked_examples_hold(page: Path) -> None:
    text = page.read_text(encoding="utf-8")
    results, report = run_page(text, str(page))
    assert results.attempted > 0, f"{page.name} has no worked example"
    assert results.failed == 0, report
    assert stray_prompts(text) == [], f"{page.name}: '>>>' outside a ```pycon block"


PRESET_PAGES = {
    "callbreak": ("callbreak.md",),
    "callbreak-bhoos": ("callbreak.md",),
    "callbridge": ("callbridge.md", "callbreak.md"),
    "batak-ihale": ("batak-ihale.md",),
    "batak-koz-maca": ("batak-koz-maca.md", "callbreak.md"),
    "snarples": ("snarples.md",),
    "donut": ("donut.md",),
    "horsethief": ("horsethief.md",),
    "rook-call-partner": ("rook-call-partner.md",),
    "spades": ("spades.md",),
    "oh-hell": ("oh-hell.md",),
    "judgement": ("oh-hell.md",),
}
"""Where each preset's options are written: its own page, and the page it defers to."""


@pytest.mark.parametrize("preset", Rules.presets())
def test_every_option_of_a_preset_is_on_its_pages(preset: str) -> None:
    pages = PRESET_PAGES[preset]
    text = "".join((RULES_DIR / page).read_text(encoding="utf-8") for page in pages)
    assert f"`{preset}`" in (RULES_DIR / pages[0]).read_text(encoding="utf-8")
    missing = [name for name in Rules.preset(preset).options() if f"`{name}`" not in text]
    assert missing == [], f"{preset}: {', '.join(pages)} do not name {missing}"


def test_a_wrong_example_fails() -> None:
    page = (
        "Call Break scores a made call of 4 with 5 tricks as 4.1:\n\n"
        "```pycon\n"
        ">>> import callbreak\n"
        '>>> str(callbreak.Rules.preset("callbreak").score(4, 5))\n'
        "'4.2'\n"
        "```\n"
    )
    results, report = run_page(page, "wrong.md")
    assert results == doctest.TestResults(failed=1, attempted=2)
    assert 'File "wrong.md", line 5' in report and "'4.1'" in report


def test_an_exception_is_compared_by_name_and_message() -> None:
    page = (
        "```pycon\n"
        ">>> import callbreak\n"
        '>>> deal = callbreak.Deal(callbreak.Rules.preset("callbreak"), seed=1, dealer=3)\n'
        ">>> deal.act(0)\n"
        "Traceback (most recent call last):\n"
        "...\n"
        "IllegalAction: 0 is not a call: call a whole number from 1 to 13 (min_call, max_call)\n"
        ">>> deal.act(0)\n"
        "Traceback (most recent call last):\n"
        "...\n"
        "IllegalAction: 0 is not a call\n"
        ">>> deal.act(0)\n"
        "Traceback (most recent call last):\n"
        "...\n"
        "ValueError: 0 is not a call: call a whole number from 1 to 13 (min_call, max_call)\n"
        "```\n"
    )
    results, report = run_page(page, "raises.md")
    assert results == doctest.TestResults(failed=2, attempted=5)
    assert 'File "raises.md", line 8' in report and 'File "raises.md", line 12' in report


def test_prose_is_not_read_as_expected_output() -> None:
    page = "```pycon\n>>> 1 + 1\n2\n```\nThe sum is two.\n"
    assert run_page(page, "prose.md")[0] == doctest.TestResults(failed=0, attempted=1)


def test_an_example_outside_a_pycon_block_is_reported() -> None:
    assert stray_prompts("```python\n>>> 1 + 1\n```\n>>> 2\n") == [2, 4]

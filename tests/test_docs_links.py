"""Every document the project cites is in the repository.

The code, the tests, the benchmarks and the docs cite the rule book
(``docs/rules/...``) and the design notes (``docs/design.md``) by path; a person
who clones the repository must be able to follow every such citation.  So:
every ``docs/...`` path cited exists, every relative link of a Markdown page
resolves, and nothing cites the old working notes outside the repository
(their names are built below, so that this file does not cite them itself).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
OUTSIDE = ("RULES" + ".md", "DESIGN" + ".md")
"""The notes that lived outside the repository; nothing may cite them."""
CITED = re.compile(r"(?<![\w/.-])docs/(?:[\w.-]+/)*(?:[\w.-]+\.md\b|(?=[\s)'\"`,;:]|$))")
"""A path under docs/: a Markdown file (``docs/rules/callbreak.md``) or a folder
(``docs/rules/``)."""
LINK = re.compile(r"\]\(([^)\s]+)\)")
SUFFIXES = {".py", ".md", ".txt", ".toml", ".cfg", ".ini", ".html", ".js", ".css", ".json", ".yml"}
SELF = Path(__file__).resolve()
"""This file: its examples of bad citations are on purpose."""
SKIP = {".git", ".venv", "node_modules", "__pycache__", ".mypy_cache", ".ruff_cache"}


def text_files(*places: str) -> Iterator[Path]:
    """The text files under each place (a folder or a single file) of the repository."""
    for place in places:
        path = ROOT / place
        if path.is_file():
            yield path
            continue
        for found in sorted(path.rglob("*")):
            parts = set(found.relative_to(ROOT).parts)
            if found.is_file() and found.suffix in SUFFIXES and not parts & SKIP and found != SELF:
                yield found


def cited_paths(text: str) -> list[str]:
    """The ``docs/...`` paths a text cites, in order."""
    return [match.group(0) for match in CITED.finditer(text)]


def broken_citations(files: Iterable[Path], root: Path = ROOT) -> list[str]:
    """``file:line: path`` for each cited docs/ path that is not in the repository."""
    broken = []
    for path in files:
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            for cited in dict.fromkeys(cited_paths(line)):  # a link often repeats its text
                if not (root / cited).exists():
                    broken.append(f"{path.relative_to(root)}:{number}: {cited}")
    return broken


def broken_links(files: Iterable[Path], root: Path = ROOT) -> list[str]:
    """``file:line: target`` for each relative Markdown link that leads nowhere."""
    broken = []
    for path in files:
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            for target in LINK.findall(line):
                if re.match(r"[a-z]+:", target) or target.startswith("#"):
                    continue  # a web address, mailto:, or a heading of the same page
                if not (path.parent / target.split("#", 1)[0]).exists():
                    broken.append(f"{path.relative_to(root)}:{number}: {target}")
    return broken


def outside_citations(files: Iterable[Path], root: Path = ROOT) -> list[str]:
    """``file:line`` for each line that names a note outside the repository."""
    found = []
    for path in files:
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            if any(name in line for name in OUTSIDE):
                found.append(f"{path.relative_to(root)}:{number}: {line.strip()}")
    return found


CITING = ("src", "tests", "bench", "examples", "docs", "README.md")


def test_every_cited_document_exists() -> None:
    assert broken_citations(text_files(*CITING)) == []


def test_every_relative_link_of_the_docs_resolves() -> None:
    assert broken_links(text_files("docs", "README.md")) == []


def test_nothing_cites_notes_outside_the_repository() -> None:
    code = [*text_files("src", "tests", "bench", "examples", "docs", "pyproject.toml", "Makefile")]
    assert outside_citations(code) == []


def test_the_readme_cites_nothing_outside_the_repository() -> None:
    assert outside_citations(text_files("README.md")) == []


def test_the_cited_pages_are_the_rule_book_and_the_design() -> None:
    cited = {path for file in text_files("src", "tests") for path in cited_paths(file.read_text())}
    assert {"docs/rules/callbreak.md", "docs/rules/what-bots-know.md", "docs/design.md"} <= cited


def test_a_bad_citation_is_caught(tmp_path: Path) -> None:
    (tmp_path / "docs" / "rules").mkdir(parents=True)
    (tmp_path / "docs" / "rules" / "callbreak.md").write_text("# Call Break\n")
    source = tmp_path / "module.py"
    source.write_text(
        '"""Scoring: docs/rules/callbreak.md rule 6; the deck: docs/rules/cards.md.\n\n'
        "See docs/rules/ and docs/notes/ and " + OUTSIDE[0] + ' §1.6."""\n'
    )
    assert broken_citations([source], tmp_path) == [
        "module.py:1: docs/rules/cards.md",
        "module.py:3: docs/notes/",
    ]
    assert outside_citations([source], tmp_path) == [
        f'module.py:3: See docs/rules/ and docs/notes/ and {OUTSIDE[0]} §1.6."""'
    ]


def test_a_broken_link_is_caught(tmp_path: Path) -> None:
    (tmp_path / "docs").mkdir()
    (tmp_path / "docs" / "design.md").write_text("# Design\n")
    page = tmp_path / "docs" / "page.md"
    page.write_text(
        "[design](design.md#layers), [web](https://example.org/x.md), [here](#top)\n"
        "[missing](rules/spades.md)\n"
    )
    assert broken_links([page], tmp_path) == ["docs/page.md:2: rules/spades.md"]


def test_citations_are_read_whole() -> None:
    text = "(docs/rules/callbreak.md rule 6, docs/design.md's first wall; see docs/rules/)"
    assert cited_paths(text) == ["docs/rules/callbreak.md", "docs/design.md", "docs/rules/"]
    assert cited_paths("mydocs/rules/x.md and src/docs/y.md") == []

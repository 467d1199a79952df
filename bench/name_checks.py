"""Where the code asks "which game is this?" by a game's or preset's name.

A game is one record (``callbreak.games``): everything else should ask the record
for a fact or a hook, not compare ``rules.game`` or ``rules.name`` with a string.
This walks every module of ``src/callbreak`` outside the games' own package and
prints each place that

- compares with a game or preset name (``==``, ``!=``, ``in``, ``not in``, or a
  ``match`` case), or
- looks a table up by one (``TABLE["rook"]``, ``TABLE.get("callbreak", ...)``), or
- keys a dict literal by two or more (a table of facts per game kept outside its record), or
- lists one in a tuple, list or set outside a comparison (``ANALYSED = ("callbreak",)``:
  a comparison kept in a constant).

    python bench/name_checks.py [--quiet]

``tests/test_game_names.py`` runs the same walk and asserts that it finds nothing.
"""

from __future__ import annotations

import argparse
import ast
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

SOURCE = Path(__file__).resolve().parent.parent / "src" / "callbreak"
OWN = ("games", "decks.py", "cards.py")
"""Where the names are owned (under ``src/callbreak``): the games' package, the decks
module (whose Rook deck is named ``rook`` too) and the cards module (whose suit names
include ``spades``, the name of a game too)."""


def game_names() -> frozenset[str]:
    """Every game and preset name, read from the code so that a new game is counted too."""
    from callbreak.rules import Rules

    presets = Rules.presets()
    return frozenset(presets) | {Rules.preset(name).game for name in presets}


@dataclass(frozen=True)
class Check:
    path: str
    line: int
    kind: str
    text: str


def _option_value(node: ast.AST) -> bool:
    """``rules.scoring == "callbridge"`` compares an option's value, not a game's name."""
    from callbreak.rules import OPTION_BY_NAME

    name = node.attr if isinstance(node, ast.Attribute) else getattr(node, "id", None)
    return name in OPTION_BY_NAME and name != "players"


def _names_in(node: ast.AST, names: frozenset[str]) -> bool:
    if isinstance(node, ast.Constant):
        return isinstance(node.value, str) and node.value in names
    if isinstance(node, ast.Tuple | ast.List | ast.Set):
        return any(_names_in(element, names) for element in node.elts)
    return False


def _checks(tree: ast.AST, names: frozenset[str]) -> Iterator[tuple[ast.AST, str]]:
    compared = {
        id(part)
        for node in ast.walk(tree)
        if isinstance(node, ast.Compare)
        for part in ast.walk(node)
    }
    for node in ast.walk(tree):
        listed = isinstance(node, ast.Tuple | ast.List | ast.Set) and id(node) not in compared
        if listed and _names_in(node, names):
            yield node, "collection"
        if isinstance(node, ast.Compare):
            sides = (node.left, *node.comparators)
            if any(_names_in(side, names) for side in sides) and not any(
                _option_value(side) for side in sides
            ):
                yield node, "compare"
        elif isinstance(node, ast.match_case):
            pattern = node.pattern
            if isinstance(pattern, ast.MatchValue) and _names_in(pattern.value, names):
                yield node.pattern, "match"
        elif (isinstance(node, ast.Subscript) and _names_in(node.slice, names)) or (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Attribute)
            and node.func.attr == "get"
            and node.args
            and _names_in(node.args[0], names)
        ):
            yield node, "lookup"
        elif (
            isinstance(node, ast.Dict)
            and sum(key is not None and _names_in(key, names) for key in node.keys) > 1
        ):
            yield node, "table"


def name_checks(root: Path = SOURCE) -> list[Check]:
    """Every place outside the games' own modules that tells games apart by name."""
    names = game_names()
    found = []
    for path in sorted(root.rglob("*.py")):
        relative = path.relative_to(root)
        if relative.parts[0] in OWN:
            continue
        source = path.read_text(encoding="utf-8")
        lines = source.splitlines()
        for node, kind in _checks(ast.parse(source, str(path)), names):
            line = getattr(node, "lineno", 0)
            found.append(Check(str(relative), line, kind, lines[line - 1].strip()))
    return sorted(found, key=lambda c: (c.path, c.line, c.kind))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quiet", action="store_true", help="print only the totals")
    args = parser.parse_args()
    checks = name_checks()
    if not args.quiet:
        for check in checks:
            print(f"{check.path}:{check.line}: {check.kind}: {check.text}")
    kinds = {
        kind: sum(c.kind == kind for c in checks)
        for kind in ("compare", "match", "lookup", "collection")
    }
    tables = sum(c.kind == "table" for c in checks)
    files = len({c.path for c in checks})
    checks_total = sum(kinds.values())
    print(
        f"{checks_total} name checks ({', '.join(f'{v} {k}' for k, v in kinds.items())}) "
        f"and {tables} tables keyed by game name, in {files} files outside callbreak/games/"
    )


if __name__ == "__main__":
    main()

"""The import graph keeps the layers of ``pyproject.toml`` and its functions stay short.

``tests/import_graph.py`` reads the graph from the source; the contract
(``[tool.callbreak.layers]``) says which layer each module is in, which circles are still
tolerated and which compiled kernels may be long.  Run ``python tests/import_graph.py`` to see
the figures behind a failure.
"""

from __future__ import annotations

import pytest

from import_graph import Arrow, Contract, arrows, circles, modules, sizes


@pytest.fixture(scope="module")
def contract() -> Contract:
    return Contract.load()


@pytest.fixture(scope="module")
def edges() -> list[Arrow]:
    return arrows(modules())


def test_every_module_has_a_layer(contract: Contract) -> None:
    assert contract.unplaced(modules()) == []


def test_no_import_circles_but_the_named_exceptions(contract: Contract, edges: list[Arrow]) -> None:
    found = circles(edges)
    unexpected = [c for c in found if not any(set(c) <= a for a in contract.allowed_circles)]
    assert unexpected == [], "import circles: " + "; ".join(" <-> ".join(c) for c in unexpected)
    stale = [sorted(a) for a in contract.allowed_circles if not any(set(c) & a for c in found)]
    assert stale == [], f"these circles are gone: remove them from the contract: {stale}"


def test_no_arrow_points_up_the_layers(contract: Contract, edges: list[Arrow]) -> None:
    assert [str(arrow) for arrow in contract.upward(edges)] == []


def test_no_function_over_the_limit_but_the_named_kernels(contract: Contract) -> None:
    functions, _ = sizes(modules())
    long = [f for f in functions if f.lines > contract.max_function_lines]
    assert [str(f) for f in long if f.name not in contract.kernels] == []
    named = {f.name for f in functions}
    assert [k for k in contract.kernels if k not in named] == [], "a named kernel is gone"


def test_the_checker_finds_a_circle_and_an_upward_arrow(contract: Contract) -> None:
    """The checks above pass because the graph is clean, not because they see nothing."""
    made_up = [
        Arrow("callbreak.cards", "callbreak.engine.deal", 1),
        Arrow("callbreak.engine.deal", "callbreak.cards", 2),
        Arrow("callbreak.tui.app", "callbreak.server.app", 3),
    ]
    assert circles(made_up) == [["callbreak.cards", "callbreak.engine.deal"]]
    assert [str(a) for a in contract.upward(made_up)] == [
        "callbreak.cards -> callbreak.engine.deal (line 1)",
        "callbreak.tui.app -> callbreak.server.app (line 3)",
    ]


def test_a_module_is_placed_by_the_longest_name_that_covers_it(contract: Contract) -> None:
    top, _ = contract.place("callbreak")
    assert top == len(contract.layers) - 1
    assert contract.place("callbreak.tui.app")[1] == "callbreak.tui"
    registry, _ = contract.place("callbreak.games")
    game, member = contract.place("callbreak.games.batak")
    assert member == "callbreak.games.*" and game > contract.place("callbreak.engine.deal")[0]
    assert registry < contract.place("callbreak.rules")[0]
    with pytest.raises(LookupError, match=r"callbreak\.newcomer is in no layer"):
        contract.place("callbreak.newcomer")

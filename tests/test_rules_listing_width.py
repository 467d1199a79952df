"""``callbreak rules`` on an ordinary terminal: every preset's options readable in full.

The preset list once cut long cells with an ellipsis at 80 columns
(``success_window=call_…``), so the option a reader would type was lost.
"""

from __future__ import annotations

import pytest
from typer.testing import CliRunner

from callbreak.cli.main import app
from callbreak.rules import Rules, option_text

runner = CliRunner()


def _set_by(name: str) -> list[str]:
    """What the preset sets away from its game's defaults, as ``option=value``.

    ``Rules.preset(name).changed()`` is empty for a preset (it compares with
    the preset itself), so the defaults of the preset's game are the base.
    """
    rules = Rules.preset(name)
    base = Rules(game=rules.game).options()
    return [f"{k}={option_text(v)}" for k, v in rules.options().items() if base[k] != v]


def _column(output: str, index: int) -> str:
    """One column of the table's body, its fragments joined: folded cells read whole."""
    cells = [line.split("│") for line in output.splitlines() if line.startswith("│")]
    return "".join(cell[index].strip() for cell in cells)


@pytest.mark.parametrize("columns", [60, 80, 120])
def test_every_preset_and_option_is_shown_in_full(columns: int) -> None:
    result = runner.invoke(app, ["rules"], env={"COLUMNS": str(columns)})
    assert result.exit_code == 0, result.output
    table = result.output.split("\nBots: ")[0]
    assert "…" not in table
    assert all(len(line) <= columns for line in table.splitlines())
    names, options = _column(table, 1), _column(table, 4)
    settings = [setting for name in Rules.presets() for setting in _set_by(name)]
    assert "success_window=call_or_one_over" in settings  # the value once cut at 80
    assert names == "".join(Rules.presets())
    assert options == "".join(
        "".join(_set_by(name)) or "-" for name in Rules.presets()
    )  # in order, whole, and nothing else


def test_at_80_columns_no_option_is_broken_across_lines() -> None:
    """At the commonest width each option=value sits on one line, as one types it."""
    result = runner.invoke(app, ["rules"], env={"COLUMNS": "80"})
    cells = [line.split("│") for line in result.output.splitlines() if line.startswith("│")]
    lines = {cell[4].strip() for cell in cells}
    for name in Rules.presets():
        for setting in _set_by(name):
            assert setting in lines, setting


@pytest.mark.parametrize("name", Rules.presets())
def test_one_presets_options_and_values_are_shown_in_full_at_80_columns(name: str) -> None:
    result = runner.invoke(app, ["rules", name], env={"COLUMNS": "80"})
    assert result.exit_code == 0, result.output
    assert "…" not in result.output
    rules = Rules.preset(name)
    options = rules.shape.options
    assert _column(result.output, 1) == "".join(options)
    assert _column(result.output, 2) == "".join(option_text(getattr(rules, o)) for o in options)

"""What a new user meets walking through the docs: each command's options are where the docs say.

The README sends a reader to docs/commands.md for "each one's options"; a walkthrough found
``replay``'s ``--quiet`` and ``--verify-seed`` and ``selfplay``'s ``--deals`` named nowhere,
``analyze``'s ``--threads`` missing from docs/analysis.md, and ``--name`` from the README's
synopsis of ``callbreak play``.  Each command's options must be named on docs/commands.md or
on the page it sends the reader to for that command.
"""

from __future__ import annotations

from pathlib import Path

import pytest
import typer.main

from callbreak.cli.main import app

ROOT = Path(__file__).resolve().parent.parent
PAGES = {
    "rules": ["commands.md"],
    "play": ["commands.md", "playing.md"],
    "selfplay": ["commands.md"],
    "replay": ["commands.md"],
    "analyze": ["analysis.md"],
    "serve": ["commands.md", "online-tables.md"],
    "import-bhoos": ["commands.md"],
}
"""Each command this walkthrough covers, and the pages that give its options (arena and
serve-bot have their own pages, docs/arena.md and docs/protocol.md)."""


def options_of(command: str) -> set[str]:
    group = typer.main.get_command(app)
    sub = group.commands[command]  # type: ignore[attr-defined]
    return {
        name
        for param in sub.params
        for name in param.opts
        if name.startswith("--") and name != "--help"
    }


@pytest.mark.parametrize("command", sorted(PAGES))
def test_every_option_of_a_command_is_named_in_its_docs(command: str) -> None:
    text = "\n".join((ROOT / "docs" / page).read_text(encoding="utf-8") for page in PAGES[command])
    missing = sorted(option for option in options_of(command) if option not in text)
    assert not missing, f"callbreak {command}: {missing} not in any of {PAGES[command]}"


def test_the_readme_synopsis_of_play_names_every_option() -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    synopsis = readme.split("callbreak play [", 1)[1].split("```", 1)[0]
    missing = sorted(option for option in options_of("play") if option not in synopsis)
    assert not missing, f"README's synopsis of callbreak play lacks {missing}"

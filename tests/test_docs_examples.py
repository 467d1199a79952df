"""Every example in the README and in docs/ runs as written (see docs/development.md).

A reader pastes these blocks first, so a block that no longer runs is a bug even when
the code is right.  Two kinds of fenced block are run, each in a fresh process with the
project's ``src`` importable and a scratch directory as the working directory:

- every ```python block, whole; a comment on a ``print`` line that ends ``-> TEXT``
  (``print(x)  # -> 3``, ``# the answer: -> 3``) promises that ``TEXT`` is one line of
  what the block prints, and that is checked too;
- in every ```sh block, the lines that call ``callbreak`` with a sub-command of
  ``CHEAP`` (run in order, so a record written by one line can be read by the next).
  Other lines (``make``, benches, servers) are shown only.

A failure names the file and the line where its block starts.
"""

from __future__ import annotations

import os
import re
import shlex
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
SRC = ROOT / "src"
CHEAP = frozenset({"rules", "selfplay", "replay"})
"""Sub-commands that finish in a second or two, so their examples run in every test run."""
TIMEOUT_S = 120
"""A block that takes longer is broken (an endless loop); a sound one takes seconds."""
_EXPECT = re.compile(r"#[^#]*?->\s*(.+?)\s*$")
_FENCE = re.compile(r"^```([\w+-]*)\s*$")


@dataclass(frozen=True)
class Block:
    """One fenced block of a Markdown file: where it starts, its language and its text."""

    path: Path
    line: int
    """1-based line of the opening fence."""
    lang: str
    code: str

    @property
    def where(self) -> str:
        try:
            name = self.path.relative_to(ROOT)
        except ValueError:
            name = self.path
        return f"{name}:{self.line}"


def doc_files() -> list[Path]:
    return [ROOT / "README.md", *sorted((ROOT / "docs").rglob("*.md"))]


def blocks(path: Path) -> list[Block]:
    """The fenced blocks of ``path``; an unclosed fence is an error, not a silent skip."""
    found: list[Block] = []
    opened: tuple[int, str] | None = None
    body: list[str] = []
    for number, text in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
        if opened is None:
            match = _FENCE.match(text)
            if match:
                opened, body = (number, match.group(1)), []
        elif text.rstrip() == "```":
            found.append(Block(path, opened[0], opened[1], "\n".join(body) + "\n"))
            opened = None
        else:
            body.append(text)
    if opened is not None:
        raise AssertionError(f"{path}:{opened[0]}: a fenced block that is never closed")
    return found


def shell_commands(block: Block) -> list[list[str]]:
    """The ``callbreak CHEAP ...`` lines of a shell block, split as the shell would."""
    commands = []
    for text in block.code.replace("\\\n", " ").splitlines():
        words = shlex.split(text, comments=True)
        if len(words) >= 2 and words[0] == "callbreak" and words[1] in CHEAP:
            commands.append(words)
    return commands


def _env() -> dict[str, str]:
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(SRC), env.get("PYTHONPATH")]))
    env["NO_COLOR"] = "1"
    env["COLUMNS"] = "100"
    return env


def _run(block: Block, argv: list[str], cwd: Path, what: str) -> str:
    try:
        done = subprocess.run(
            argv, cwd=cwd, env=_env(), capture_output=True, text=True, timeout=TIMEOUT_S
        )
    except subprocess.TimeoutExpired:
        raise AssertionError(f"{block.where}: {what} ran past {TIMEOUT_S} s") from None
    if done.returncode != 0:
        raise AssertionError(
            f"{block.where}: {what} failed with exit status {done.returncode}\n"
            f"{done.stdout[-2000:]}{done.stderr[-4000:]}"
        )
    return done.stdout


def run_python(block: Block, cwd: Path) -> None:
    """Run a python block; its ``-> TEXT`` promises must each be a line of its output."""
    script = cwd / "example.py"
    script.write_text(block.code, encoding="utf-8")
    out = _run(block, [sys.executable, str(script)], cwd, "the python block")
    printed = [line.rstrip() for line in out.splitlines()]
    for offset, text in enumerate(block.code.splitlines()):
        promise = _EXPECT.search(text)
        if promise and "print(" in text and promise.group(1) not in printed:
            raise AssertionError(
                f"{block.where}: line {block.line + 1 + offset} promises "
                f"{promise.group(1)!r}, but the block printed:\n{out}"
            )


def run_shell(block: Block, cwd: Path) -> int:
    """Run the block's cheap ``callbreak`` lines in order; return how many ran."""
    commands = shell_commands(block)
    for words in commands:
        argv = [sys.executable, "-m", "callbreak.cli.main", *words[1:]]
        _run(block, argv, cwd, f"`{shlex.join(words)}`")
    return len(commands)


def _all_blocks() -> list[Block]:
    return [b for path in doc_files() for b in blocks(path)]


PYTHON = [b for b in _all_blocks() if b.lang == "python"]
SHELL = [b for b in _all_blocks() if b.lang in ("sh", "bash", "shell") and shell_commands(b)]


@pytest.mark.parametrize("block", PYTHON, ids=[b.where for b in PYTHON])
def test_python_example_runs(block: Block, tmp_path: Path) -> None:
    run_python(block, tmp_path)


@pytest.mark.parametrize("block", SHELL, ids=[b.where for b in SHELL])
def test_shell_example_runs(block: Block, tmp_path: Path) -> None:
    assert run_shell(block, tmp_path) > 0


def test_the_examples_are_found() -> None:
    """A reader's examples exist where the README promises them, so the tests above bite."""
    readme = [b for b in PYTHON + SHELL if b.path.name == "README.md" and b.path.parent == ROOT]
    assert {b.lang for b in readme} == {"python", "sh"}
    assert len(PYTHON) >= 6
    runs = {words[1] for b in SHELL for words in shell_commands(b)}
    assert runs == CHEAP


BROKEN = """# A page

Some words.

```python
print("fine")
```

```python
import callbreak
callbreak.Rules.preset("no-such-game")
```

```python
print(1 + 1)  # -> 3
```

```sh
make play    # shown, never run
callbreak rules
callbreak replay missing.json
```
"""


def test_a_broken_example_fails_naming_its_file_and_line(tmp_path: Path) -> None:
    page = tmp_path / "broken.md"
    page.write_text(BROKEN, encoding="utf-8")
    fine, raises, wrong, shell = blocks(page)
    run_python(fine, tmp_path)
    with pytest.raises(AssertionError, match=r"broken\.md:9: the python block failed") as error:
        run_python(raises, tmp_path)
    assert "no-such-game" in str(error.value)
    with pytest.raises(AssertionError, match=r"broken\.md:14: line 15 promises '3'"):
        run_python(wrong, tmp_path)
    assert [w[:2] for w in shell_commands(shell)] == [
        ["callbreak", "rules"],
        ["callbreak", "replay"],
    ]
    with pytest.raises(AssertionError, match=r"broken\.md:18: `callbreak replay missing.json`"):
        run_shell(shell, tmp_path)


def test_an_endless_example_is_stopped(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(sys.modules[__name__], "TIMEOUT_S", 2)
    block = Block(tmp_path / "loop.md", 1, "python", "while True:\n    pass\n")
    with pytest.raises(AssertionError, match=r"loop\.md:1: the python block ran past 2 s"):
        run_python(block, tmp_path)


def test_an_unclosed_fence_is_an_error(tmp_path: Path) -> None:
    page = tmp_path / "open.md"
    page.write_text("text\n\n```python\nprint(1)\n", encoding="utf-8")
    with pytest.raises(AssertionError, match=r"open\.md:3: a fenced block that is never closed"):
        blocks(page)

"""The package's import graph and function sizes, read from the source with ``ast``.

``tests/test_layers.py`` checks them against the contract in ``pyproject.toml``
(``[tool.callbreak.layers]``) so that a new import circle, an arrow that points up the layers
or a function over the size limit fails ``make test``.  Run as a script it prints what it
finds, the figures the contract was written from::

    python tests/import_graph.py

Every ``import`` statement counts, wherever it is: at the top, inside a function (a lazy
import is still a dependency, only a later one) and under ``if TYPE_CHECKING:`` (an
annotation that names a higher module still ties the lower one to it).  Nothing is
imported to read the graph, so it works without the optional dependencies.
"""

from __future__ import annotations

import ast
import sys
import tomllib
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SOURCE = ROOT / "src"
PACKAGE = "callbreak"


@dataclass(frozen=True)
class Module:
    name: str
    path: Path
    is_package: bool


@dataclass(frozen=True)
class Arrow:
    """``importer`` imports ``imported`` at ``line`` of the importer's file."""

    importer: str
    imported: str
    line: int

    def __str__(self) -> str:
        return f"{self.importer} -> {self.imported} (line {self.line})"


def modules(source: Path = SOURCE) -> dict[str, Module]:
    """Every module of the package by its dotted name (a package by its own name)."""
    found: dict[str, Module] = {}
    for path in sorted((source / PACKAGE).rglob("*.py")):
        parts = list(path.relative_to(source).with_suffix("").parts)
        is_package = parts[-1] == "__init__"
        if is_package:
            parts.pop()
        name = ".".join(parts)
        found[name] = Module(name, path, is_package)
    return found


def _target(module: Module, node: ast.ImportFrom) -> str:
    """The absolute module a ``from ... import`` reads from."""
    if not node.level:
        return node.module or ""
    base = module.name.split(".") if module.is_package else module.name.split(".")[:-1]
    base = base[: len(base) - node.level + 1]
    return ".".join([*base, *([node.module] if node.module else [])])


def arrows(found: dict[str, Module]) -> list[Arrow]:
    """Each import of one of the package's modules by another, once per pair (first line).

    ``from a import b`` is an arrow to ``a.b`` where that is a module, else to ``a``; an
    import of a package is an arrow to its ``__init__``, not to the modules under it.
    """
    first: dict[tuple[str, str], int] = {}
    for module in found.values():
        tree = ast.parse(module.path.read_text(encoding="utf-8"), str(module.path))
        for node in ast.walk(tree):
            targets: list[str] = []
            if not isinstance(node, ast.Import | ast.ImportFrom):
                continue
            if isinstance(node, ast.Import):
                targets = [alias.name for alias in node.names if alias.name in found]
            else:
                base = _target(module, node)
                for alias in node.names:
                    sub = f"{base}.{alias.name}"
                    if sub in found:
                        targets.append(sub)
                    elif base in found:
                        targets.append(base)
            for target in targets:
                if target != module.name:
                    key = (module.name, target)
                    first[key] = min(first.get(key, node.lineno), node.lineno)
    return [Arrow(a, b, line) for (a, b), line in sorted(first.items())]


def circles(edges: list[Arrow]) -> list[list[str]]:
    """The import circles: strongly connected groups of two or more modules (Tarjan's)."""
    graph: dict[str, list[str]] = {}
    for arrow in edges:
        graph.setdefault(arrow.importer, []).append(arrow.imported)
        graph.setdefault(arrow.imported, [])
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    groups: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for nxt in graph[node]:
            if nxt not in index:
                visit(nxt)
                low[node] = min(low[node], low[nxt])
            elif nxt in on_stack:
                low[node] = min(low[node], index[nxt])
        if low[node] == index[node]:
            group: list[str] = []
            while True:
                member = stack.pop()
                on_stack.discard(member)
                group.append(member)
                if member == node:
                    break
            if len(group) > 1:
                groups.append(sorted(group))

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return sorted(groups)


@dataclass(frozen=True)
class Layer:
    """One layer: module prefixes; ``independent`` siblings may not import one another."""

    members: tuple[str, ...]
    independent: bool

    @classmethod
    def parse(cls, text: str) -> Layer:
        if "|" in text and ":" in text:
            raise ValueError(f"a layer is 'a | b' (independent) or 'a : b', not {text!r}")
        independent = "|" in text
        members = tuple(part.strip() for part in text.replace("|", ":").split(":"))
        return cls(members, independent)


@dataclass(frozen=True)
class Contract:
    """``[tool.callbreak.layers]`` of ``pyproject.toml``: see the comments written there."""

    layers: tuple[Layer, ...]
    allowed_circles: tuple[frozenset[str], ...]
    max_function_lines: int
    kernels: tuple[str, ...]
    notes: dict[str, str] = field(default_factory=dict)

    @classmethod
    def load(cls, path: Path = ROOT / "pyproject.toml") -> Contract:
        table = tomllib.loads(path.read_text(encoding="utf-8"))["tool"]["callbreak"]["layers"]
        return cls(
            layers=tuple(Layer.parse(text) for text in table["layers"]),
            allowed_circles=tuple(
                frozenset(entry["modules"]) for entry in table.get("allowed_circles", [])
            ),
            max_function_lines=int(table["max_function_lines"]),
            kernels=tuple(entry["function"] for entry in table.get("kernels", [])),
        )

    def place(self, module: str) -> tuple[int, str]:
        """The layer (0 is the bottom) and the member that ``module`` belongs to, the longest
        that names it: ``a.b`` names the module ``a.b`` and every module under it, ``a.b.*``
        only those under it; the package itself names its ``__init__`` alone, so that a
        module the contract leaves out is found."""
        best: tuple[int, str] | None = None
        for number, layer in enumerate(self.layers):
            for member in layer.members:
                if member.endswith(".*"):
                    matches = module.startswith(member[:-1])
                else:
                    inside = member != PACKAGE and module.startswith(member + ".")
                    matches = module == member or inside
                if matches and (best is None or len(member) > len(best[1])):
                    best = (number, member)
        if best is None:
            raise LookupError(f"{module} is in no layer of the contract")
        return best

    def upward(self, edges: list[Arrow]) -> list[Arrow]:
        """Arrows to a higher layer, or between independent siblings of one layer."""
        wrong = []
        for arrow in edges:
            (low, low_member), (high, high_member) = (
                self.place(arrow.importer),
                self.place(arrow.imported),
            )
            sideways = low == high and low_member != high_member and self.layers[low].independent
            if high > low or sideways:
                wrong.append(arrow)
        return wrong

    def unplaced(self, found: dict[str, Module]) -> list[str]:
        missing = []
        for name in found:
            try:
                self.place(name)
            except LookupError:
                missing.append(name)
        return missing


@dataclass(frozen=True)
class Sized:
    """A function or class and its length in lines (``def``/``class`` line to its last)."""

    name: str
    lines: int
    where: str

    def __str__(self) -> str:
        return f"{self.lines:5d}  {self.name}  ({self.where})"


def _walk_defs(
    node: ast.AST, prefix: str
) -> Iterator[tuple[str, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef]]:
    for child in ast.iter_child_nodes(node):
        if isinstance(child, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            name = f"{prefix}.{child.name}"
            yield name, child
            yield from _walk_defs(child, name)
        else:
            yield from _walk_defs(child, prefix)


def sizes(found: dict[str, Module]) -> tuple[list[Sized], list[Sized]]:
    """Every function (methods and nested functions too) and every class, longest first."""
    functions: list[Sized] = []
    classes: list[Sized] = []
    for module in found.values():
        tree = ast.parse(module.path.read_text(encoding="utf-8"), str(module.path))
        where = str(module.path.relative_to(ROOT))
        for name, node in _walk_defs(tree, module.name):
            end = node.end_lineno or node.lineno
            sized = Sized(name, end - node.lineno + 1, f"{where}:{node.lineno}")
            (classes if isinstance(node, ast.ClassDef) else functions).append(sized)
    functions.sort(key=lambda s: (-s.lines, s.name))
    classes.sort(key=lambda s: (-s.lines, s.name))
    return functions, classes


def report(out: list[str]) -> None:
    """The figures: circles, upward arrows, long functions, longest function and class."""
    found = modules()
    edges = arrows(found)
    contract = Contract.load()
    groups = circles(edges)
    out.append(f"modules: {len(found)}, import arrows inside the package: {len(edges)}")
    out.append(f"import circles: {len(groups)}")
    for group in groups:
        allowed = any(set(group) <= allowed for allowed in contract.allowed_circles)
        out.append(f"  {' <-> '.join(group)}" + ("  (a named exception)" if allowed else ""))
    wrong = contract.upward(edges)
    out.append(f"arrows up the layers: {len(wrong)}")
    out.extend(f"  {arrow}" for arrow in wrong)
    functions, classes = sizes(found)
    limit = contract.max_function_lines
    long = [f for f in functions if f.lines > limit]
    out.append(f"functions over {limit} lines: {len(long)}")
    for sized in long:
        out.append(
            f"  {sized}" + ("  (a compiled kernel)" if sized.name in contract.kernels else "")
        )
    out.append(f"longest function: {functions[0]}")
    plain = [f for f in functions if not any(f.name.startswith(k) for k in contract.kernels)]
    out.append(f"longest function outside the kernels: {plain[0]}")
    out.append(f"longest class: {classes[0]}")


if __name__ == "__main__":
    lines: list[str] = []
    report(lines)
    sys.stdout.write("\n".join(lines) + "\n")

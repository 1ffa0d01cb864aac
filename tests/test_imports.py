"""Imports point one way: no module of ``planner`` imports, however indirectly, a module that imports it back.

The graph is read from the source with :mod:`ast`, not by importing: an edge A → B for every ``import B`` or
``from B import x`` in A (``from B import c`` is an edge to the module ``B.c`` when that is a module), relative
imports resolved.

- Every import counts, wherever it stands. Inside a function it runs too, only later: a circle closed by a lazy
  import works by the accident of which module loads first, and a lazy import is exactly where a circle hides
  (``errors`` ↔ ``common.problems`` was one). Under ``if TYPE_CHECKING:`` it never runs, but the module still
  depends on the other to be read and checked: ``table.rounds`` named ``table.changes``' ``Change`` that way while
  ``changes`` imported ``rounds``, the circle this test was written for.
- Importing ``a.b.c`` also runs the packages ``a`` and ``a.b``; those implicit edges are left out (every module
  would otherwise sit in a circle with ``planner/__init__``), but an ``__init__`` that imports a module is an edge.
"""

from __future__ import annotations

import ast
from pathlib import Path

PACKAGE = Path(__file__).resolve().parents[1] / "planner"

Graph = dict[str, set[str]]


def _module_name(path: Path) -> str:
    parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _imports(tree: ast.AST) -> list[ast.Import | ast.ImportFrom]:
    """Every import statement of the tree: at module level, in functions, under ``if TYPE_CHECKING:``."""
    return [node for node in ast.walk(tree) if isinstance(node, ast.Import | ast.ImportFrom)]


def import_graph() -> Graph:
    """Each module of ``planner`` and the modules of ``planner`` it imports."""
    paths = {_module_name(p): p for p in PACKAGE.rglob("*.py")}
    graph: Graph = {name: set() for name in paths}
    for name, path in paths.items():
        package = name if path.name == "__init__.py" else name.rpartition(".")[0]
        for node in _imports(ast.parse(path.read_text(encoding="utf-8"), str(path))):
            if isinstance(node, ast.Import):
                targets = [alias.name for alias in node.names]
            else:
                base = node.module or ""
                if node.level:
                    anchor = package.split(".")[: len(package.split(".")) - node.level + 1]
                    base = ".".join([*anchor, base] if base else anchor)
                targets = [f"{base}.{a.name}" if f"{base}.{a.name}" in paths else base for a in node.names]
            graph[name].update(t for t in targets if t in paths and t != name)
    return graph


def circles(graph: Graph) -> list[list[str]]:
    """The strongly connected groups of more than one module (Tarjan), each as one circle through them."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    groups: list[list[str]] = []

    def connect(node: str) -> None:  # the package has ~150 modules: recursion depth is no concern
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for other in sorted(graph[node]):
            if other not in index:
                connect(other)
                low[node] = min(low[node], low[other])
            elif other in on_stack:
                low[node] = min(low[node], index[other])
        if low[node] == index[node]:
            group = []
            while True:
                member = stack.pop()
                on_stack.discard(member)
                group.append(member)
                if member == node:
                    break
            if len(group) > 1:
                groups.append(_circle(graph, set(group)))

    for node in sorted(graph):
        if node not in index:
            connect(node)
    return groups


def _circle(graph: Graph, group: set[str]) -> list[str]:
    """A path from the group's first module back to itself through the group (breadth first: a shortest one)."""
    start = min(group)
    paths = {start: [start]}
    frontier = [start]
    while frontier:
        nxt = []
        for node in frontier:
            for other in sorted(graph[node] & group):
                if other == start:
                    return [*paths[node], start]
                if other not in paths:
                    paths[other] = [*paths[node], other]
                    nxt.append(other)
        frontier = nxt
    raise AssertionError(f"no circle through {sorted(group)}")  # a strongly connected group always has one


def test_the_graph_sees_lazy_and_type_checking_imports() -> None:
    graph = import_graph()
    assert "planner.elfenland.advice.keeping" in graph["planner.cli.route"]  # imported inside _keep
    assert "planner.elfenland.advice.keeping" in graph["planner.elfenland.report"]  # under TYPE_CHECKING
    assert "planner.table.change" in graph["planner.table.rounds"]  # from planner.table.change import ...
    assert graph["planner.cli"] == {"planner.cli.elfenland"}  # the group, loaded lazily by __getattr__


def test_circles_are_found_and_named() -> None:
    graph: Graph = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}
    assert circles(graph) == [["a", "b", "c", "a"]]
    assert circles({"a": {"b"}, "b": set()}) == []


def test_no_import_circles() -> None:
    found = circles(import_graph())
    assert not found, "import circles: " + "; ".join(" → ".join(circle) for circle in found)

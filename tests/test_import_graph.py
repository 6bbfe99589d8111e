"""The import graph of the project follows the pipeline, with no cycle.

Data flows one way (architecture: "file → situation → rules view → model →
solutions → decoded choices → JSON"; a module should not reach back up that
chain). The modules of ``solver/``, ``models/`` and ``cli.py`` sit in five
layers, and a module may import only from its own layer or a lower one:

0. ``data`` — the vocabulary every stage shares, with no rules in it: errors
   (``solver.errors``), mana symbols and amounts (``solver.mana``), the ability
   IR (``solver.ir``), the game-state data classes (``solver.state``), the card
   library (``solver.cards``) and the Oracle-text reader that compiles card
   text into the IR (``solver.reader``); also ``solver`` itself (its version).
1. ``models`` — the CP-SAT models (``models.*``): plain data in, typed values
   out; they know nothing of the rules view, so they may use only ``data``.
2. ``rules`` — the rules layer, the solver core: the characteristics view
   (CR 613), costs, mana sources, replacement effects, targeting, resolution,
   the actions engine, the soundness layer, and every *compile step* from the
   rules view to a model's problem (``solver.payment_problem``,
   ``solver.available_problem``, ``solver.targeting``, …). Every top-level
   ``solver`` module not named in another layer is here.
3. ``interface`` — where questions come in and answers go out: the situation
   loader/dumper (``solver.situation``: files ↔ game states), the query
   façades (``solver.queries.*``: parse a query, call the rules layer, format
   the result), the file runner (``solver.runner``), the python-chess-shaped
   API (``solver.api``), the agents' action encoding and environment
   (``solver.encoding``, ``solver.games``, ``solver.env``), and the description of a card for
   people (``solver.cards.describe``).
4. ``edges`` — programs built on the interface: ``cli``, the MCP server
   (``solver.mcp_server``), batch runs (``solver.batch``).

Every import counts: module level, function-local, and ``importlib`` calls
with a literal name. Imports under ``if TYPE_CHECKING:`` are annotations
only (no runtime dependency) and are not edges. The graph is at module
granularity; importing a submodule is an edge to that submodule only.

Rules checked: (1) no import cycle among the modules, (2) no edge from a lower
layer to a higher one. Known exceptions, each with the reason it is not fixed
yet, are in ``ALLOWED_CYCLE_EDGES`` and ``ALLOWED_BACK_EDGES``; an exception
that no longer occurs fails the test too, so the lists only shrink.

See the graph: ``python tests/test_import_graph.py`` prints every edge and
what breaks the rules.
"""
from __future__ import annotations

import ast
import functools
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

LAYERS = ("data", "models", "rules", "interface", "edges")

DATA = ("solver", "solver.errors", "solver.mana", "solver.ir", "solver.state", "solver.cards", "solver.reader")
INTERFACE = ("solver.situation", "solver.queries", "solver.runner", "solver.api", "solver.encoding", "solver.games", "solver.env",
             "solver.cards.describe")
EDGES = ("cli", "solver.mcp_server", "solver.batch")

# (importer, imported): an edge that closes a cycle, kept until the code it needs can move.
ALLOWED_CYCLE_EDGES: dict[tuple[str, str], str] = {
}

# (importer, imported): an import running back up the pipeline, kept until its code moves.
ALLOWED_BACK_EDGES: dict[tuple[str, str], str] = {
}


def module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts = parts[:-1]
    return ".".join(parts)


def project_modules() -> dict[str, Path]:
    files = [ROOT / "cli.py"] + sorted((ROOT / "solver").rglob("*.py")) + sorted((ROOT / "models").rglob("*.py"))
    return {module_name(p): p for p in files if p.exists()}


def layer_of(module: str) -> int:
    def under(names: tuple[str, ...]) -> bool:
        return any(module == n or (n != "solver" and module.startswith(n + ".")) for n in names)

    if under(EDGES):
        return LAYERS.index("edges")
    if under(INTERFACE):
        return LAYERS.index("interface")
    if under(DATA):
        return LAYERS.index("data")
    if module == "models" or module.startswith("models."):
        return LAYERS.index("models")
    return LAYERS.index("rules")


def _type_checking_only(node: ast.If) -> bool:
    t = node.test
    return (isinstance(t, ast.Name) and t.id == "TYPE_CHECKING") or \
        (isinstance(t, ast.Attribute) and t.attr == "TYPE_CHECKING")


def _imports(tree: ast.AST) -> list[tuple[int, ast.AST]]:
    """Every import node and importlib call, skipping ``if TYPE_CHECKING:`` bodies."""
    out: list[tuple[int, ast.AST]] = []

    def walk(node: ast.AST) -> None:
        if isinstance(node, ast.If) and _type_checking_only(node):
            for child in node.orelse:
                walk(child)
            return
        if isinstance(node, (ast.Import, ast.ImportFrom)):
            out.append((node.lineno, node))
        elif isinstance(node, ast.Call) and node.args and isinstance(node.args[0], ast.Constant) \
                and isinstance(node.args[0].value, str):
            f = node.func
            name = f.attr if isinstance(f, ast.Attribute) else f.id if isinstance(f, ast.Name) else ""
            if name in ("import_module", "__import__"):
                out.append((node.lineno, node))
        for child in ast.iter_child_nodes(node):
            walk(child)

    walk(tree)
    return out


def _targets(module: str, is_package: bool, node: ast.AST, modules: dict[str, Path]) -> list[str]:
    names: list[str] = []
    if isinstance(node, ast.Import):
        names = [a.name for a in node.names]
    elif isinstance(node, ast.ImportFrom):
        if node.level:
            base = module.split(".")
            if not is_package:
                base = base[:-1]
            base = base[:len(base) - (node.level - 1)]
            mod = ".".join(base + ([node.module] if node.module else []))
        else:
            mod = node.module or ""
        for a in node.names:
            names.append(f"{mod}.{a.name}" if f"{mod}.{a.name}" in modules else mod)
    else:  # importlib.import_module("solver.x")
        names = [node.args[0].value]  # type: ignore[attr-defined]
    out = []
    for n in names:
        n = n.removeprefix("mtgsolve.")   # the installed package's name for the repository root
        while n and n not in modules:
            n = n.rpartition(".")[0]
        if n and n != module:
            out.append(n)
    return out


@functools.cache
def _graph() -> dict[str, dict[str, int]]:
    return import_graph()


def import_graph() -> dict[str, dict[str, int]]:
    """module -> {imported module: first line}, project modules only."""
    modules = project_modules()
    graph: dict[str, dict[str, int]] = {m: {} for m in modules}
    for m, path in modules.items():
        tree = ast.parse(path.read_text(), str(path))
        for line, node in _imports(tree):
            for t in _targets(m, path.name == "__init__.py", node, modules):
                graph[m].setdefault(t, line)
    return graph


def cycles(graph: dict[str, dict[str, int]], ignore: set[tuple[str, str]] = frozenset()) -> list[list[str]]:
    """The strongly connected components with more than one module (Tarjan), as sorted lists."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on: set[str] = set()
    out: list[list[str]] = []
    counter = [0]

    def visit(v: str) -> None:
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on.add(v)
        for w in sorted(graph.get(v, {})):
            if (v, w) in ignore:
                continue
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                out.append(sorted(comp))

    old = sys.getrecursionlimit()
    sys.setrecursionlimit(max(old, 10_000))
    try:
        for v in sorted(graph):
            if v not in index:
                visit(v)
    finally:
        sys.setrecursionlimit(old)
    return sorted(out)


def _cycle_edges(graph: dict[str, dict[str, int]], comp: list[str]) -> list[str]:
    inside = set(comp)
    return [f"{a}:{graph[a][b]} -> {b}" for a in comp for b in sorted(graph[a]) if b in inside]


def _reachable(graph: dict[str, dict[str, int]], start: str) -> set[str]:
    seen, todo = {start}, [start]
    while todo:
        for w in graph.get(todo.pop(), {}):
            if w not in seen:
                seen.add(w)
                todo.append(w)
    return seen


def back_edges(graph: dict[str, dict[str, int]]) -> list[tuple[str, str, int]]:
    return [(a, b, line) for a in sorted(graph) for b, line in sorted(graph[a].items())
            if layer_of(b) > layer_of(a)]


# ---------------------------------------------------------------------------
# Tests
# ---------------------------------------------------------------------------

def test_no_import_cycle() -> None:
    graph = _graph()
    found = cycles(graph, set(ALLOWED_CYCLE_EDGES) | set(ALLOWED_BACK_EDGES))  # allowed back-edges close some too
    assert not found, "import cycles (edges inside each):\n" + "\n".join(
        f"  {' <-> '.join(c)}:\n    " + "\n    ".join(_cycle_edges(graph, c)) for c in found)


def test_no_import_runs_back_up_the_pipeline() -> None:
    graph = _graph()
    bad = [f"  {a}:{line} ({LAYERS[layer_of(a)]}) imports {b} ({LAYERS[layer_of(b)]})"
           for a, b, line in back_edges(graph) if (a, b) not in ALLOWED_BACK_EDGES]
    assert not bad, "imports running back up the pipeline (data → models → rules → interface → edges):\n" + \
        "\n".join(bad)


def test_allowed_exceptions_still_exist() -> None:
    """An allow-listed edge that is gone must leave the list (so the list only shrinks)."""
    graph = _graph()
    stale = [f"{a} -> {b}" for a, b in list(ALLOWED_BACK_EDGES) + list(ALLOWED_CYCLE_EDGES) if b not in graph.get(a, {})]
    assert not stale, "allow-listed imports that no longer exist (remove them from the list): " + ", ".join(stale)
    for a, b in ALLOWED_CYCLE_EDGES:
        assert a in _reachable(graph, b), f"{a} -> {b} no longer closes a cycle: remove it from ALLOWED_CYCLE_EDGES"
    for a, b in ALLOWED_BACK_EDGES:
        assert layer_of(b) > layer_of(a), f"{a} -> {b} is no longer a back-edge: remove it from ALLOWED_BACK_EDGES"


def test_the_checks_see_what_they_should() -> None:
    g = {"a": {"b": 1}, "b": {"c": 2}, "c": {"a": 3}, "d": {"a": 4}}
    assert cycles(g) == [["a", "b", "c"]]
    assert cycles(g, {("c", "a")}) == []
    assert layer_of("models.payment") < layer_of("solver.payment_problem") < layer_of("solver.queries.pay") \
        < layer_of("cli")
    assert layer_of("solver.reader.grammar") == layer_of("solver.ir") == 0
    tree = ast.parse("from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    import x\n"
                     "def f():\n    import y\n    importlib.import_module('z')\n")
    kinds = [type(n).__name__ for _, n in _imports(tree)]
    assert kinds == ["ImportFrom", "Import", "Call"]


if __name__ == "__main__":  # print the graph and what breaks the rules
    g = import_graph()
    for m in sorted(g):
        print(f"{m} [{LAYERS[layer_of(m)]}] -> {', '.join(sorted(g[m])) or '-'}")
    print("\ncycles:", cycles(g) or "none")
    print("back-edges:")
    for a, b, line in back_edges(g):
        print(f"  {a}:{line} -> {b}" + ("   (allowed)" if (a, b) in ALLOWED_BACK_EDGES else ""))

"""The import graph of the project follows the pipeline, with no cycle.

Data flows one way (architecture: "file → situation → rules view → model →
solutions → decoded choices → JSON"; a module should not reach back up that
chain). The folder a module sits in says its stage, and a module may import only
from its own stage or a lower one. The stages, bottom to top:

0. ``core`` — ``solver/core/`` (errors, mana, the ability IR, options, ids, card
   values, the game state, moves) and ``solver`` itself (its version): vocabulary
   with no rules in it.
1. ``models`` — ``models/``: the CP-SAT models, plain data in, typed values out;
   they may use only ``core``.
2. ``reader`` — ``solver/reader/``: Oracle text → ability IR.
3. ``cards`` — ``solver/cards/``: the card database, the hand-written library,
   the database importer and the reader's coverage over it.
4. ``rules`` — ``solver/rules/`` (the characteristics view, CR 613, and what each
   rule says of it) and ``solver/rules/soundness/`` (unread parts and their reach).
5. ``payment`` — ``solver/payment/``: compile steps from the rules view to the
   payment and available-mana models, and their answers.
6. ``engine`` — ``solver/engine/``: legal actions and the transition kernel
   (casting, resolution, combat, turns).
7. ``io`` — ``solver/io/``: situation files ↔ game states.
8. ``queries`` — ``solver/queries/``: the contract's questions, thin.
9. ``api`` — ``solver/api/``: the agents' API, the game driver, encoding,
   environment, the file runner, card descriptions for people.
10. ``apps`` — ``solver/apps/`` (the MCP server, batch) and ``cli``.

A module outside every folder named here fails the test, so a new file is placed
on purpose.

Every import counts: module level, function-local, and ``importlib`` calls
with a literal name. Imports under ``if TYPE_CHECKING:`` are annotations
only (no runtime dependency) and are not edges. The graph is at module
granularity; importing a submodule is an edge to that submodule only.

Rules checked: (1) no import cycle among the modules, (2) no edge from a lower
stage to a higher one. Known exceptions, each with the reason it is not fixed
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

import pytest

ROOT = Path(__file__).resolve().parent.parent

LAYERS = ("core", "models", "reader", "cards", "rules", "payment", "engine", "io", "queries", "api", "apps")

# stage -> the module prefixes it holds (a prefix names the module and everything below it)
FOLDERS: dict[str, tuple[str, ...]] = {
    "core": ("solver.core",),
    "models": ("models",),
    "reader": ("solver.reader",),
    "cards": ("solver.cards",),
    "rules": ("solver.rules",),
    "payment": ("solver.payment",),
    "engine": ("solver.engine",),
    "io": ("solver.io",),
    "queries": ("solver.queries",),
    "api": ("solver.api",),
    "apps": ("solver.apps", "cli"),
}
ROOT_MODULES = {"solver": "core"}  # the package itself: its version, nothing else

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
    """The stage of a module, by the folder it sits in; a module in no stage's folder is an error."""
    if module in ROOT_MODULES:
        return LAYERS.index(ROOT_MODULES[module])
    for stage, prefixes in FOLDERS.items():
        if any(module == p or module.startswith(p + ".") for p in prefixes):
            return LAYERS.index(stage)
    raise KeyError(f"{module} sits in no stage's folder (tests/test_import_graph.py FOLDERS)")


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


def test_no_cycle_even_through_annotations() -> None:
    """Imports under ``if TYPE_CHECKING:`` are no run-time edges, but a circle through them still says
    a type lives in the wrong file (issue 23): there is none."""
    modules = project_modules()
    graph: dict[str, dict[str, int]] = {m: {} for m in modules}
    for m, path in modules.items():
        tree = ast.parse(path.read_text(), str(path))
        for node in ast.walk(tree):
            if isinstance(node, (ast.Import, ast.ImportFrom)):
                for t in _targets(m, path.name == "__init__.py", node, modules):
                    graph[m].setdefault(t, node.lineno)
    found = cycles(graph)
    assert not found, "import circles through annotations:\n" + "\n".join(" <-> ".join(c) for c in found)


def test_every_module_sits_in_a_stage() -> None:
    """A module's folder names its stage; one outside every stage's folder has no place yet."""
    homeless = []
    for m in _graph():
        try:
            layer_of(m)
        except KeyError:
            homeless.append(m)
    assert not homeless, "modules in no stage's folder (move them, or name the folder in FOLDERS): " + \
        ", ".join(homeless)


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
    assert layer_of("solver.core.ir") < layer_of("models.payment") < layer_of("solver.reader.grammar") \
        < layer_of("solver.payment.problem") < layer_of("solver.queries.pay") < layer_of("cli")
    assert layer_of("solver.rules.soundness.unread") == layer_of("solver.rules.costs")
    with pytest.raises(KeyError):
        layer_of("solver.somewhere_new")
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

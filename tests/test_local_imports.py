"""Imports are at module level, so a module's header says what it depends on; the few
function-local imports of project modules that remain are listed here, each with its reason, and
nowhere else (issue 23: "module-level imports by default, function-local imports only where a
start-up benchmark proves they matter, listed in one place").

The reason is nearly always start-up: ``mtgsolve solve`` on a small file loads 38 of the project's
modules (``python -m benchmarks startup``; the ratio to the bare CP-SAT import is in
docs/benchmarks.md), and ``mtgsolve cards show`` none of the heavy ones
(tests/test_cli.py::test_start_up_imports_nothing_heavy). A module on that path imports locally
what only some questions need. Imports under ``if TYPE_CHECKING:`` are annotations, not imports,
and are not counted. A new local import fails the test until it is listed with a reason; a listed
one that is gone fails it too, so the list only shrinks.
"""
from __future__ import annotations

import ast

from test_import_graph import ROOT, _targets, _type_checking_only, project_modules

_START_UP = "start-up: a small solve does not load it"

#: module -> (the project modules it imports inside functions, why)
ALLOWED: dict[str, tuple[frozenset[str], str]] = {
    "mtgsolve": (frozenset({"solver.api", "solver.api.runner", "solver.queries"}),
                 "lazy package exports (PEP 562): `import mtgsolve` loads no engine"),
    "cli": (frozenset({"solver", "solver.api.describe", "solver.api.runner", "solver.apps.batch",
                       "solver.apps.mcp_server", "solver.cards", "solver.cards.coverage", "solver.cards.importer",
                       "solver.core.errors", "solver.io.load", "solver.queries"}),
            "the command line loads only what the command given needs (its fast `solve` path above all)"),
    "solver.api": (frozenset({"solver.api.situation"}),
                   "lazy package exports: importing solver.api.describe (cards show) loads no engine"),
    "solver.apps.batch": (frozenset({"solver.cards", "solver.core.errors", "solver.io.load", "solver.queries"}),
                          "the batch parent stays light; its workers load the engine and warm it up"),
    "solver.apps.mcp_server": (frozenset({"solver", "solver.api.runner", "solver.api.session", "solver.api.situation", "solver.cards",
                                          "solver.core.errors", "solver.io.load", "solver.queries"}),
                               "the MCP server starts before its first tool call loads the engine"),
    "solver.apps.mcp_games": (frozenset({"solver.api.session"}),
                              "the MCP server starts before its first game loads the engine"),
    "solver.cards": (frozenset({"solver.cards.lookup", "solver.reader"}),
                     "start-up: library cards need no reader, and the index look-up only a database not in memory"),
    "solver.io.load": (frozenset({"solver.io.shape", "solver.reader.subtypes"}),
                       "start-up: pydantic's schema only for files the plain path can't read; subtypes only "
                       "for a chosen creature type"),
    "solver.queries": (frozenset({"solver.queries.results"}), _START_UP + " (an unsupported answer's writer)"),
    "solver.queries.targets": (frozenset({"solver.queries.targets_modes"}), _START_UP + " (modal spells)"),
    "solver.rules.casting_rules": (frozenset({"solver.rules.mana_sources", "solver.rules.spending"}),
                                   _START_UP + " (cost rules with spell filters or counted amounts)"),
    "solver.rules.soundness.check": (frozenset({"solver.rules.soundness.step_reach",
                                                "solver.rules.soundness.trigger_reach"}),
                                     _START_UP + " (the reach of unread triggers: resolve and pass)"),
}


def local_imports() -> dict[str, set[str]]:
    """module -> the project modules it imports inside a function (not under TYPE_CHECKING), resolved
    as the import-graph test resolves every import."""
    modules = project_modules()
    found: dict[str, set[str]] = {}
    root = ROOT / "__init__.py"   # the package mtgsolve itself
    for mod, path in [*modules.items(), ("mtgsolve", root)]:
        out: set[str] = set()

        def walk(node: ast.AST, in_function: bool) -> None:
            for child in ast.iter_child_nodes(node):
                if isinstance(child, ast.If) and _type_checking_only(child):
                    continue
                if in_function and isinstance(child, (ast.Import, ast.ImportFrom)):
                    out.update(_targets(mod, path.name == "__init__.py", child, modules))
                walk(child, in_function or isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef)))

        walk(ast.parse(path.read_text(), str(path)), False)
        if out:
            found[mod] = out
    return found


def test_function_local_imports_are_the_listed_ones() -> None:
    found = local_imports()
    new = {m: sorted(t - ALLOWED.get(m, (frozenset(), ""))[0]) for m, t in found.items()}
    new = {m: t for m, t in new.items() if t}
    assert not new, ("function-local imports not listed in tests/test_local_imports.py ALLOWED (import at "
                     f"module level, or list them with the start-up figure that says why): {new}")
    stale = {m: sorted(ts - found.get(m, set())) for m, (ts, _) in ALLOWED.items()}
    stale = {m: t for m, t in stale.items() if t}
    assert not stale, f"listed local imports that are gone (remove them from ALLOWED): {stale}"
    assert all(reason for _, reason in ALLOWED.values())

"""The brute-force references in ``tests/reference/`` are independent of the engine.

A reference is only worth comparing with when a bug in the engine cannot
hide in it too (docs: the project's perft). So a reference module may import
only what *states the question*:

* loading the situation: ``solver.io.load``, ``solver.core.state`` (the game
  state data classes), ``solver.core.errors``;
* reading card data: ``solver.cards`` (the card library), ``solver.core.ir`` (the
  ability IR data classes, with its sibling modules ``solver.core.statics``,
  ``solver.core.conditions`` and ``solver.core.production``, whose classes it
  re-exports), ``solver.core.mana``
  (mana symbols and amounts);
* the characteristics view ``solver.rules.characteristics`` (CR 613: what each
  object *is* on this board). It is rules-layer code, but it is the input every
  question is asked about rather than an answer to one; it is checked by its
  own tests (tests/test_characteristics.py) and allowed here until the
  references get a plain layer system of their own (see ``SHARED_INPUT``).

Everything else — the mana-source enumeration, cost reading, targeting,
replacement ordering, the models, the queries, OR-Tools — must be re-derived
inside the reference by plain enumeration. Function-local imports count, and
so do ``importlib.import_module``/``__import__`` calls with a literal name. A
name imported from an allowed module must be defined in an allowed module, so
engine code cannot come in re-exported (``solver.io.load`` re-exports helpers
of the rules layer). The standard library, hypothesis, and the references' own
modules are fine. Every ``.py`` file under ``tests/reference/`` is checked,
subdirectories included.
"""
from __future__ import annotations

import ast
import importlib
import sys
from types import ModuleType
from pathlib import Path

import pytest

REFERENCE_DIR = Path(__file__).parent / "reference"
ROOT = Path(__file__).resolve().parent.parent

ALLOWED = frozenset({
    "solver.io.load", "solver.core.state", "solver.core.errors",      # loading the situation
    "solver.cards", "solver.core.ir", "solver.core.mana",               # reading card data
    "solver.core.statics", "solver.core.conditions", "solver.core.production", "solver.core.selectors",  # the IR
})
SHARED_INPUT = frozenset({
    # CR 613 characteristics: the board every question is asked about (see the module docstring).
    "solver.rules.characteristics",
})
PROJECT_ROOTS = ("solver", "models", "cli", "benchmarks")


def _imports(path: Path) -> list[tuple[int, str]]:
    """(line, module) for every import in ``path`` (function-local ones included);
    ``from solver import ir`` gives ``solver.core.ir``; relative imports give ``.``-prefixed names."""
    return _imports_of(ast.parse(path.read_text(), str(path)))


def _is_package(module: str) -> bool:
    """``solver.core`` and the like: ``from solver.core import ir`` imports ``solver.core.ir``."""
    return module.split(".")[0] in PROJECT_ROOTS and (ROOT / module.replace(".", "/") / "__init__.py").exists()


def _imports_of(tree: ast.AST) -> list[tuple[int, str]]:
    out: list[tuple[int, str]] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and node.args and isinstance(node.args[0], ast.Constant) \
                and isinstance(node.args[0].value, str):
            f = node.func
            name = f.attr if isinstance(f, ast.Attribute) else f.id if isinstance(f, ast.Name) else ""
            if name in ("import_module", "__import__"):   # importlib.import_module("mtgsolve.solver.x")
                out.append((node.lineno, node.args[0].value.removeprefix("mtgsolve.")))
        elif isinstance(node, ast.Import):
            out.extend((node.lineno, a.name.removeprefix("mtgsolve.")) for a in node.names)
        elif isinstance(node, ast.ImportFrom):
            module = node.module or ""
            if node.level == 0 and module == "mtgsolve":   # ``from mtgsolve import solver``
                out.extend((node.lineno, a.name) for a in node.names)
                continue
            module = module.removeprefix("mtgsolve.") if node.level == 0 else module
            base = "." * node.level + module
            if node.level == 0 and (module in PROJECT_ROOTS or _is_package(module)):
                out.extend((node.lineno, f"{base}.{a.name}") for a in node.names)
            else:
                out.append((node.lineno, base))
    return out


def _allowed(module: str) -> bool:
    if module.startswith(".") or module.split(".")[0] == "reference":
        return True  # the references' own helpers
    top = module.split(".")[0]
    if top in PROJECT_ROOTS:
        return any(module == m or module.startswith(m + ".") for m in ALLOWED | SHARED_INPUT)
    if top == "ortools":
        return False  # a reference never solves a model
    return top in sys.stdlib_module_names or top in ("hypothesis", "pytest")


def _project_module(module: str) -> bool:
    return module.split(".")[0] in PROJECT_ROOTS


def _names_from_project(tree: ast.AST) -> list[tuple[int, str, str]]:
    """(line, module, name) for every ``from mtgsolve.<project module> import name``."""
    out = []
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            module = node.module.removeprefix("mtgsolve.")
            if module != "mtgsolve" and _project_module(module):
                out.extend((node.lineno, module, a.name) for a in node.names)
    return out


def _defined_in(module: str, name: str) -> str | None:
    """The project module that defines ``module.name`` (None: data without a home module)."""
    obj = getattr(importlib.import_module("mtgsolve." + module), name)
    home = obj.__name__ if isinstance(obj, ModuleType) else getattr(obj, "__module__", None)
    return home.removeprefix("mtgsolve.") if isinstance(home, str) else None


REFERENCES = sorted(REFERENCE_DIR.rglob("*.py"))


@pytest.mark.parametrize("path", REFERENCES, ids=[str(p.relative_to(REFERENCE_DIR)) for p in REFERENCES])
def test_reference_imports_only_the_situation_and_card_data(path: Path) -> None:
    bad = [f"{path.name}:{line}: import {m}" for line, m in _imports(path) if not _allowed(m)]
    assert not bad, ("a reference imports engine code (re-derive it plainly inside the reference):\n"
                     + "\n".join(bad))


@pytest.mark.parametrize("path", REFERENCES, ids=[str(p.relative_to(REFERENCE_DIR)) for p in REFERENCES])
def test_reference_imports_no_engine_code_through_an_allowed_module(path: Path) -> None:
    tree = ast.parse(path.read_text(), str(path))
    bad = []
    for line, module, name in _names_from_project(tree):
        home = _defined_in(module, name)
        if home is not None and _project_module(home) and not _allowed(home):
            bad.append(f"{path.name}:{line}: {name} from {module} is {home} code")
    assert not bad, "a reference imports engine code re-exported by an allowed module:\n" + "\n".join(bad)


def test_the_check_sees_engine_imports() -> None:
    assert not _allowed("solver.rules.mana_sources")
    assert not _allowed("solver.rules.costs")
    assert not _allowed("models.payment")
    assert not _allowed("ortools.sat.python.cp_model")
    assert _allowed("solver.cards.library") and _allowed("solver.core.ir") and _allowed(".mana_ref")
    tree = ast.parse("import importlib\ndef f():\n    importlib.import_module('mtgsolve.solver.rules.costs')\n"
                     "from mtgsolve.solver.io.load import dump_state, GameState\n")
    assert (3, "solver.rules.costs") in _imports_of(tree)
    homes = {name: _defined_in(m, name) for _, m, name in _names_from_project(tree)}
    assert homes == {"dump_state": "solver.io.dump", "GameState": "solver.core.state"}
    assert not _allowed(homes["dump_state"]) and _allowed(homes["GameState"])

"""The brute-force references in ``tests/reference/`` are independent of the engine.

A reference is only worth comparing with when a bug in the engine cannot
hide in it too (docs: the project's perft). So a reference module may import
only what *states the question*:

* loading the situation: ``solver.situation``, ``solver.state`` (the game
  state data classes), ``solver.errors``;
* reading card data: ``solver.cards`` (the card library), ``solver.ir`` (the
  ability IR data classes), ``solver.mana`` (mana symbols and amounts);
* the characteristics view ``solver.characteristics`` (CR 613: what each
  object *is* on this board). It is rules-layer code, but it is the input every
  question is asked about rather than an answer to one; it is checked by its
  own tests (tests/test_characteristics.py) and allowed here until the
  references get a plain layer system of their own (see ``SHARED_INPUT``).

Everything else — the mana-source enumeration, cost reading, targeting,
replacement ordering, the models, the queries, OR-Tools — must be re-derived
inside the reference by plain enumeration. Function-local imports count. The
standard library, hypothesis, and the references' own modules are fine.
"""
from __future__ import annotations

import ast
import sys
from pathlib import Path

import pytest

REFERENCE_DIR = Path(__file__).parent / "reference"

ALLOWED = frozenset({
    "solver.situation", "solver.state", "solver.errors",      # loading the situation
    "solver.cards", "solver.ir", "solver.mana",               # reading card data
})
SHARED_INPUT = frozenset({
    # CR 613 characteristics: the board every question is asked about (see the module docstring).
    "solver.characteristics",
})
PROJECT_ROOTS = ("solver", "models", "cli", "benchmarks")


def _imports(path: Path) -> list[tuple[int, str]]:
    """(line, module) for every import in ``path`` (function-local ones included);
    ``from solver import ir`` gives ``solver.ir``; relative imports give ``.``-prefixed names."""
    tree = ast.parse(path.read_text(), str(path))
    out: list[tuple[int, str]] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            out.extend((node.lineno, a.name.removeprefix("mtgsolve.")) for a in node.names)
        elif isinstance(node, ast.ImportFrom):
            module = node.module or ""
            if node.level == 0 and module == "mtgsolve":   # ``from mtgsolve import solver``
                out.extend((node.lineno, a.name) for a in node.names)
                continue
            module = module.removeprefix("mtgsolve.") if node.level == 0 else module
            base = "." * node.level + module
            if node.level == 0 and module in PROJECT_ROOTS:
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


REFERENCES = sorted(REFERENCE_DIR.glob("*.py"))


@pytest.mark.parametrize("path", REFERENCES, ids=[p.name for p in REFERENCES])
def test_reference_imports_only_the_situation_and_card_data(path: Path) -> None:
    bad = [f"{path.name}:{line}: import {m}" for line, m in _imports(path) if not _allowed(m)]
    assert not bad, ("a reference imports engine code (re-derive it plainly inside the reference):\n"
                     + "\n".join(bad))


def test_the_check_sees_engine_imports() -> None:
    assert not _allowed("solver.mana_sources")
    assert not _allowed("solver.costs")
    assert not _allowed("models.payment")
    assert not _allowed("ortools.sat.python.cp_model")
    assert _allowed("solver.cards.library") and _allowed("solver.ir") and _allowed(".mana_ref")

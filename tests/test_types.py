"""mypy ratchet: the modules listed in ``CLEAN`` type-check with no error.

The configuration is ``[tool.mypy]`` in pyproject.toml; the modules are
checked under their package name ``mtgsolve.…`` (see the test body). Not every module is clean yet;
those that are stay clean: a new error in one of them fails this test. When a
module becomes clean, add it to ``CLEAN`` (``.venv/bin/mypy`` lists the files
that still have errors); the goal is every module (issue 18).

Imported modules are followed silently (their own errors are reported only
when they are in the list). Skipped when mypy is not installed; the cache
lives in the temporary directory so repeated runs take a few seconds.
"""
from __future__ import annotations

import subprocess
import sys
import tempfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent

CLEAN = (
    "models/__init__.py",
    "models/available.py",
    "models/available_count.py",
    "models/base.py",
    "models/combat.py",
    "models/ordering.py",
    "models/payment.py",
    "models/payment_count.py",
    "models/multisets.py",
    "models/payment_delve.py",
    "models/producible.py",
    "models/resolution.py",
    "models/targets.py",
    "solver/__init__.py",
    "solver/actions.py",
    "solver/api.py",
    "solver/available_problem.py",
    "solver/batch.py",
    "solver/cards/__init__.py",
    "solver/cards/describe.py",
    "solver/cards/library.py",
    "solver/cards/lookup.py",
    "solver/casting_options.py",
    "solver/casting_payments.py",
    "solver/casting_rules.py",
    "solver/characteristics.py",
    "solver/combat.py",
    "solver/conditions.py",
    "solver/costs.py",
    "solver/encoding.py",
    "solver/env.py",
    "solver/errors.py",
    "solver/hand_abilities.py",
    "solver/ir.py",
    "solver/mana.py",
    "solver/mana_riders.py",
    "solver/mana_sources.py",
    "solver/mcp_server.py",
    "solver/modes.py",
    "solver/object_ids.py",
    "solver/options.py",
    "solver/payment_problem.py",
    "solver/payments.py",
    "solver/play.py",
    "solver/queries/__init__.py",
    "solver/queries/actions.py",
    "solver/queries/attacks.py",
    "solver/queries/available_mana.py",
    "solver/queries/blocks.py",
    "solver/queries/could_produce.py",
    "solver/queries/order.py",
    "solver/queries/pass.py",
    "solver/queries/pay.py",
    "solver/queries/resolve.py",
    "solver/queries/targets.py",
    "solver/queries/targets_modes.py",
    "solver/reader/__init__.py",
    "solver/reader/hand_abilities.py",
    "solver/reader/coverage.py",
    "solver/reader/importer.py",
    "solver/reader/line_reading.py",
    "solver/reader/mana_riders.py",
    "solver/reader/modes.py",
    "solver/reader/structure.py",
    "solver/reader/subtypes.py",
    "solver/reader/tokens.py",
    "solver/replacement.py",
    "solver/resolution.py",
    "solver/runner.py",
    "solver/situation.py",
    "solver/situation_dump.py",
    "solver/situation_messages.py",
    "solver/situation_shape.py",
    "solver/soundness.py",
    "solver/spending.py",
    "solver/state.py",
    "solver/targeting.py",
    "solver/transition.py",
    "solver/turns.py",
    "solver/unread.py",
)


def test_clean_modules_stay_clean() -> None:
    pytest.importorskip("mypy")
    # the package's modules are ``mtgsolve.solver.…`` with the repository root as ``mtgsolve``
    # (pyproject package-dir); mypy does not follow the editable install's import hook, so it
    # checks them through a directory in which ``mtgsolve`` is a link to the root
    base = Path(tempfile.mkdtemp(prefix="mtgsolve-mypy-"))
    (base / "mtgsolve").symlink_to(ROOT, target_is_directory=True)
    files = [f"mtgsolve/{f}" for f in CLEAN if (ROOT / f).exists()]
    cache = Path(tempfile.gettempdir()) / "mtgsolve-mypy-cache"
    proc = subprocess.run(
        [sys.executable, "-m", "mypy", "--config-file", str(ROOT / "pyproject.toml"), "--follow-imports=silent",
         "--cache-dir", str(cache), *files],
        cwd=base, capture_output=True, text=True, timeout=600)
    errors = [line for line in proc.stdout.splitlines() if ": error:" in line]
    assert proc.returncode == 0 and not errors, (
        "mypy errors in modules listed as clean (tests/test_types.py):\n"
        + "\n".join(errors or proc.stdout.splitlines()[-20:] + proc.stderr.splitlines()[-20:]))


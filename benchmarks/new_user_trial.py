"""The new-user trial of issue 28, scripted: ``python -m benchmarks.new_user_trial``.

What an agent developer, an LLM-agent developer and a batch user tried from a fresh clone, as
checks that pass or fail (each is also part of the test suite; this runs them together and says
which step failed):

1. MCP: every tool answers every status (ok, truncated, unsupported, error) through a real MCP
   client over stdio, with the CLI's fields and one-line errors (``tests/test_mcp_stdio.py``;
   skipped without the ``mcp`` extra).
2. The PettingZoo environment truncates a real-deck game with the reason in ``infos``, never an
   exception (``tests/test_env_realdecks.py``; skipped without the ``env`` extra).
3. ``kill -9`` of a batch leaves no worker behind; symlink loops and a missing ``--out``
   directory give one located line each (``tests/test_batch_cleanup.py``).
4. The Saga instances: a lore counter as a Saga enters and as the precombat main phase begins,
   the final chapter's sacrifice (``instances/*/saga_*.yaml`` through ``mtgsolve check``).
5. Every README figure's benchmark runs and prints its ``README:`` line
   (``tests/test_bench_smoke.py``; nothing about time is asserted).

Exit status 0 when every step passes.
"""
from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

STEPS: tuple[tuple[str, list[str]], ...] = (
    ("MCP through a real client, every tool and status", ["-m", "pytest", "-q", "tests/test_mcp_stdio.py"]),
    ("the environment truncates real-deck games", ["-m", "pytest", "-q", "tests/test_env_realdecks.py"]),
    ("batch cleans up and locates bad input", ["-m", "pytest", "-q", "tests/test_batch_cleanup.py"]),
    ("Saga instances", ["-m", "mtgsolve.cli", "check", *sorted(str(p.relative_to(ROOT))
                                                             for p in ROOT.glob("instances/*/saga_*.yaml"))]),
    ("every README figure's benchmark prints its line", ["-m", "pytest", "-q", "tests/test_bench_smoke.py"]),
)


def main(argv: list[str] | None = None) -> int:
    failed = 0
    for what, args in STEPS:
        proc = subprocess.run([sys.executable, *args], cwd=ROOT, capture_output=True, text=True)
        tail = (proc.stdout.strip().splitlines() or [""])[-1]
        print(f"{'ok  ' if proc.returncode == 0 else 'FAIL'} {what}: {tail}", flush=True)
        failed += proc.returncode != 0
    print(f"{len(STEPS) - failed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    raise SystemExit(main())

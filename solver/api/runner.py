"""Answering a whole situation file, and comparing answers with ``expect``
(contract §3, §4). Shared by the command line, batch jobs and the MCP server."""
from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..cards import SHIPPED, CardDB
from ..core.errors import MtgsolveError, QueryError
from ..queries import Options, answer
from ..io.load import load_situation


def solve_loaded(loaded: Any, options: Options = Options()) -> list[dict]:
    """Answer every query of a loaded situation, in order."""
    results = []
    many = len(loaded.queries) != 1 or isinstance(loaded.raw.get("query"), list)
    for i, q in enumerate(loaded.queries):
        path = f"query[{i}]" if many else "query"
        try:
            results.append(answer(loaded.state, q, options, path=path))
        except QueryError as e:
            raise QueryError(loaded.source, e.path, e.message) from None
    return results


def solve_file(path: str | Path, options: Options = Options(), cards: CardDB = SHIPPED) -> dict:
    """``{"file", "name", "results"}`` for one file (contract §3, ``solve --json``), its card names
    read in ``cards``."""

    loaded = load_situation(path, cards=cards)
    return {"file": str(path), "name": loaded.state.name, "results": solve_loaded(loaded, options)}


def matches(expected: Any, actual: Any) -> bool:
    """Contract §4: only the fields given are compared. Mappings compare
    recursively on the expected keys; lists compare element by element and
    must have the same length; scalars compare equal (ints and floats alike)."""
    if isinstance(expected, dict):
        return isinstance(actual, dict) and all(k in actual and matches(v, actual[k]) for k, v in expected.items())
    if isinstance(expected, list):
        return isinstance(actual, list) and len(expected) == len(actual) and all(
            matches(e, a) for e, a in zip(expected, actual))
    if isinstance(expected, bool) or isinstance(actual, bool):
        return expected is actual
    return expected == actual


@dataclass(frozen=True)
class CheckResult:
    file: str
    ok: bool
    message: str


def differences(expected: Any, actual: Any, path: str = "") -> list[str]:
    """Human-readable list of where ``actual`` departs from ``expected``."""
    out: list[str] = []
    if isinstance(expected, dict):
        if not isinstance(actual, dict):
            return [f"{path or '.'}: expected a mapping, got {json.dumps(actual, sort_keys=True)[:200]}"]
        for k, v in expected.items():
            if k not in actual:
                out.append(f"{path}.{k}: missing" if path else f"{k}: missing")
            else:
                out.extend(differences(v, actual[k], f"{path}.{k}" if path else k))
        return out
    if not matches(expected, actual):
        out.append(f"{path}: expected {json.dumps(expected, sort_keys=True)[:300]}, got {json.dumps(actual, sort_keys=True)[:300]}")
    return out


def check_loaded(loaded: Any, options: Options = Options()) -> CheckResult:
    """Compare the answers of a loaded situation with its ``expect``."""
    if loaded.expect is None:
        return CheckResult(loaded.source, False, "no expect")
    results = solve_loaded(loaded, options)
    diffs: list[str] = []
    for i, (exp, res) in enumerate(zip(loaded.expect, results)):
        if exp is None:
            continue
        prefix = f"query[{i}]" if len(results) > 1 else "query"
        diffs.extend(f"{prefix}.{d}" for d in differences(exp, res))
    if diffs:
        return CheckResult(loaded.source, False, "; ".join(diffs))
    return CheckResult(loaded.source, True, f"ok ({len(results)} quer{'y' if len(results) == 1 else 'ies'})")


def situation_files(paths: list[str]) -> list[Path]:
    """Expand files and directories into situation files (sorted, recursive)."""
    out: list[Path] = []
    for p in paths:
        pp = Path(p)
        if pp.is_dir():
            out.extend(sorted(f for f in pp.rglob("*") if f.suffix in (".yaml", ".yml", ".json") and f.is_file()))
        else:
            out.append(pp)
    return out

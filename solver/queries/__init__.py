"""The queries of contract §2 and their dispatch.

Each query kind lives in its own module of this package and registers a
function ``fn(state, query, options) -> dict`` with :func:`register`.  The
result dict holds the contract's fields; :func:`answer` adds ``kind`` and
``status`` first so key order is stable.  A kind whose module is not present
answers ``status: error`` naming the missing capability, never a fake answer.
"""
from __future__ import annotations

import importlib
from typing import Any, Callable

from ..core.errors import QueryError, UnsupportedCase
from ..core.options import QUERY_KINDS, Options
from ..rules.soundness.check import blocking, scope_of
from ..core.state import GameState
from ..rules.faces import select_face

__all__ = ["KINDS", "Options", "QueryFn", "answer", "register"]

KINDS: tuple[str, ...] = QUERY_KINDS


QueryFn = Callable[[GameState, dict, Options], dict]
_REGISTRY: dict[str, QueryFn] = {}


def register(kind: str) -> Callable[[QueryFn], QueryFn]:
    def deco(fn: QueryFn) -> QueryFn:
        _REGISTRY[kind] = fn
        return fn
    return deco


def _load(kind: str) -> QueryFn | None:
    if kind not in _REGISTRY:
        try:
            importlib.import_module(f"{__name__}.{kind}")
        except ModuleNotFoundError as e:
            if e.name != f"{__name__}.{kind}":
                raise
            return None
    return _REGISTRY.get(kind)


def answer(state: GameState, query: dict, options: Options = Options(), path: str = "query") -> dict:
    """Answer one query (contract §2). Raises :class:`QueryError` for a bad query."""
    if not isinstance(query, dict):
        raise QueryError("", path, "a query must be a mapping with 'kind'")
    kind = query.get("kind")
    if kind not in KINDS:
        import difflib
        m = difflib.get_close_matches(str(kind), KINDS, n=1)
        hint = f" (did you mean '{m[0]}'?)" if m else ""
        raise QueryError("", f"{path}.kind", f"unknown query kind '{kind}'{hint}; known: {', '.join(KINDS)}")
    fn = _load(kind)
    if fn is None:
        return {"kind": kind, "status": "error", "error": f"the '{kind}' query is not implemented yet in this version"}
    if kind in ("pay", "targets") and "cast" in query:   # an Adventure, a split card's half (CR 715.3, 709.3)
        try:
            state, query = select_face(state, query)
        except QueryError as e:
            raise QueryError(e.file, f"{path}.{e.path}" if e.path else path, e.message) from None
        except UnsupportedCase as e:     # a split card named without its half (CR 709.3)
            return {"kind": kind, "status": "unsupported", "unsupported": [], "reason": str(e)}
    blocked = _blocking(state, query)
    if blocked:
        from .results import unsupported_result

        return unsupported_result(kind, blocked)
    try:
        body = fn(state, query, options)
    except QueryError as e:
        raise QueryError(e.file, f"{path}.{e.path}" if e.path else path, e.message) from None
    except UnsupportedCase as e:
        body = {"status": "error", "error": f"unsupported: {e}"}
    out: dict[str, Any] = {"kind": kind, "status": body.pop("status", "ok")}
    if out["status"] == "error" and str(body.get("error", "")).startswith("unsupported: "):
        # a combination the engine does not model (contract §2.0): never an approximation
        out["status"] = "unsupported"
        out["unsupported"] = []
        out["reason"] = str(body.pop("error")).removeprefix("unsupported: ")
        body = {k: v for k, v in body.items() if k in ("unsupported",)} | {"unsupported": out["unsupported"]}
    out.update(body)
    return out


def _blocking(state: GameState, query: dict) -> list:
    """The unread parts that could change this query's answer (contract §2.0; :mod:`solver.rules.soundness.check`).

    A query naming objects or players the situation lacks is left to its own
    code, which reports the bad argument (exit code 2) rather than a refusal."""
    scope = scope_of(state, query)
    if scope.subject is not None and state.find(scope.subject) is None:
        return []
    if scope.player is not None and not state.is_player(scope.player):
        return []
    return blocking(state, scope)

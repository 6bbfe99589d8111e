"""The ``pay`` query (contract §2.3; CR 601.2f–h, 602.2b, 605): a façade.

It parses the query (the paying player, the total cost: :mod:`solver.rules.costs`), asks the
rules layer (:func:`solver.payment.answers.pay_outcome`: one CP-SAT solve decides ``payable``;
``payments`` lists every distinct resulting situation, see :mod:`models.payment`, or the
counting dynamic programme of :mod:`models.payment_count` where it applies; when nothing
can pay the cost, ``reason`` is one sentence derived from an unsatisfiable core of the
cost's parts) and formats the result.

The query is read here (:func:`cost_request`, :func:`query_player`) into a typed
:class:`~solver.rules.costs.CostRequest`; the rules layer knows no query mapping.

The rules-layer entry points stay importable from here for other callers, with a *cost spec*
read first (:func:`cost_of`): a :class:`~solver.rules.costs.TotalCost`, or a mapping shaped like
a pay query without ``kind`` (``{"cast": id}``, ``{"activate": {"object": id, "index": n}}``,
``{"cost": "{1}{G}"}``, with optional ``x`` and ``life``): :func:`is_payable`,
:func:`count_payments` and :func:`payments` (the contract objects); :func:`build_problem` and
:func:`payment_counter` take a :class:`~solver.rules.costs.TotalCost`.
"""
from __future__ import annotations

import time
from typing import Any

from ..rules.characteristics import View
from ..rules.costs import CostRequest, TotalCost, total_cost
from ..core.errors import QueryError, UnsupportedCase
from ..payment import answers, problem
from ..payment.problem import build_problem, purpose_of
from ..payment.answers import PaymentLookupError, pay_outcome, payment_counter
from ..core.state import GameState
from . import Options, register
from .payments import outcome_result, payment_object

__all__ = ["PaymentLookupError", "build_problem", "cost_of", "cost_request", "count_payments", "is_payable",
           "pay_query", "pay_view", "payment_counter", "payments", "purpose_of", "query_player"]


@register("pay")
def pay_query(state: GameState, query: dict, options: Options) -> dict:
    """Contract §2.3."""
    return pay_view(View.of(state), query, options)


def pay_view(view: View, query: dict, options: Options = Options()) -> dict:
    """The ``pay`` query on an existing rules view (shares its caches)."""
    start = time.monotonic()
    player = query_player(view, query)
    try:
        tc = total_cost(view, player, cost_request(view, query))
    except UnsupportedCase as e:   # an activated ability the project does not model
        return {"status": "error", "error": f"unsupported: {e}"}
    deadline = None if options.timeout is None else start + options.timeout
    return outcome_result(pay_outcome(view, player, tc, options.max_results, deadline))


# ---------------------------------------------------------------------------
# Reading the query
# ---------------------------------------------------------------------------

PAY_KEYS = ("kind", "player", "cast", "cost", "activate", "suspend", "x", "life", "alternative", "kicked", "buyback",
            "casualty")


def query_player(view: View, query: dict) -> str:
    """The paying player: ``player`` or the player with priority (contract §2)."""
    pid = query.get("player", view.state.priority)
    if not isinstance(pid, str) or not view.state.is_player(pid):
        raise QueryError("", "player", f"unknown player {pid!r}; players: {', '.join(view.state.player_ids)}")
    return pid


def cost_request(view: View, query: dict) -> CostRequest:
    """The :class:`~solver.rules.costs.CostRequest` a ``pay`` query names (contract §2.3).

    Raises :class:`~solver.core.errors.QueryError` (path inside the query) for unknown keys,
    missing or several of ``cast``/``cost``/``activate``/``suspend``, values of the wrong
    kind, and ``alternative``/``kicked`` on anything but ``cast``; :func:`total_cost` checks
    the objects and abilities named."""
    for k in query:
        if k not in PAY_KEYS:
            raise QueryError("", str(k), f"unknown key '{k}' in a pay query; known: {', '.join(PAY_KEYS[1:])}")
    given = [k for k in ("cast", "cost", "activate", "suspend") if k in query]
    if len(given) != 1:
        raise QueryError("", "", "a pay query needs exactly one of 'cast', 'cost', 'activate' or 'suspend'"
                         + (f" (got {', '.join(given)})" if given else ""))
    life_allowed = query.get("life", True)
    if not isinstance(life_allowed, bool):
        raise QueryError("", "life", f"expected true or false, got {life_allowed!r}")
    what = given[0]
    alternative, kicked, buyback, casualty, index = "", 0, 0, 0, 1
    if what == "cast":
        subject = _object_id(query["cast"], "cast")
        alternative = query.get("alternative", "") or ""
        if not isinstance(alternative, str):
            raise QueryError("", "alternative", f"expected the name of an alternative cost, got {alternative!r}")
        kicked = _kicked_value(query.get("kicked"))
        buyback = _buyback_value(query.get("buyback"))
        casualty = _buyback_value(query.get("casualty"), "casualty")
    elif "alternative" in query or "kicked" in query or "buyback" in query or "casualty" in query:
        key = next(k for k in ("alternative", "kicked", "buyback", "casualty") if k in query)
        raise QueryError("", key, f"'{key}' applies only to 'cast'" if key in ("buyback", "casualty")
                         else "'alternative' and 'kicked' apply only to 'cast'")
    elif what == "cost":
        subject = query["cost"]
        if not isinstance(subject, str):
            raise QueryError("", "cost", f"expected a mana cost string such as '{{1}}{{G}}', got {subject!r}")
    elif what == "suspend":
        subject = _object_id(query["suspend"], "suspend")
    else:
        subject, index = _ability_ref(view, query["activate"])
    return CostRequest(what, subject, index, _x_value(query), life_allowed, alternative, kicked, buyback, casualty)


def _object_id(oid: Any, path: str) -> str:
    if not isinstance(oid, str):
        raise QueryError("", path, f"unknown object {oid!r}")
    return oid


def _ability_ref(view: View, ref: Any) -> tuple[str, int]:
    """``{object, index}`` of an ``activate`` request (the index defaults to 1)."""
    if not isinstance(ref, dict) or set(ref) - {"object", "index"} or "object" not in ref:
        raise QueryError("", "activate", "expected {object: <id>, index: <n>}")
    oid, index = _object_id(ref["object"], "activate.object"), ref.get("index", 1)
    if isinstance(index, bool) or not isinstance(index, int):
        if view.state.find(oid) is None:
            raise QueryError("", "activate.object", f"unknown object {oid!r}")
        acts = view.chars(oid).activated
        have = f"it has {len(acts)} activated abilit{'y' if len(acts) == 1 else 'ies'}"
        raise QueryError("", "activate.index", f"{view.chars(oid).name} has no activated ability {index!r} ({have})")
    return oid, index


def _x_value(query: dict) -> int | None:
    """``x``: a number, or ``any`` (``None``: every value); 0 when not given (CR 107.3a)."""
    x = query.get("x", 0)
    if x == "any":
        return None
    if isinstance(x, bool) or not isinstance(x, int) or x < 0:
        raise QueryError("", "x", f"expected a number of at least 0 or 'any', got {x!r}")
    return x


def _buyback_value(v: Any, key: str = "buyback") -> int:
    """``buyback: true``: pay the buyback cost (CR 702.27a); ``casualty: true`` likewise (702.153a)."""
    if v is None or isinstance(v, bool):
        return 1 if v else 0
    raise QueryError("", key, f"expected true or false, got {v!r}")


def _kicked_value(v: Any) -> int:
    if v is True:
        return 1
    if v is False or v is None:
        return 0
    if isinstance(v, int) and not isinstance(v, bool) and v >= 0:
        return v
    raise QueryError("", "kicked", f"expected true, false or a number, got {v!r}")


# ---------------------------------------------------------------------------
# The rules layer's answers for a cost spec
# ---------------------------------------------------------------------------

def cost_of(view: View, player: str, spec: "TotalCost | dict") -> TotalCost:
    """The total cost of a cost spec: a :class:`~solver.rules.costs.TotalCost` as it is, or a
    mapping shaped like a pay query (its ``kind`` ignored)."""
    if isinstance(spec, TotalCost):
        return spec
    if not isinstance(spec, dict):
        raise QueryError("", "", "a cost spec is a TotalCost or a mapping like a pay query")
    q = {k: v for k, v in spec.items() if k != "kind"}
    return total_cost(view, player, cost_request(view, q))


def is_payable(view: View, player: str, spec: "TotalCost | dict", timeout: float | None = None) -> bool:
    """:func:`solver.payment.problem.is_payable` of a cost spec."""
    return problem.is_payable(view, player, cost_of(view, player, spec), timeout)


def count_payments(view: View, player: str, spec: "TotalCost | dict", limit: int | None = None,
                   timeout: float | None = None) -> int:
    """:func:`solver.payment.answers.count_payments` of a cost spec."""
    return answers.count_payments(view, player, cost_of(view, player, spec), limit, timeout)


def payments(view: View, player: str, spec: "TotalCost | dict", limit: int | None = None) -> list[dict]:
    """The contract objects of :func:`solver.payment.answers.payments` of a cost spec."""
    return [payment_object(p) for p in answers.payments(view, player, cost_of(view, player, spec), limit)]

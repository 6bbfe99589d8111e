"""The ``pay`` query (contract §2.3; CR 601.2f–h, 602.2b, 605): a façade.

It parses the query (the paying player, the total cost: :mod:`solver.rules.costs`), asks the
rules layer (:func:`solver.payment.answers.pay_outcome`: one CP-SAT solve decides ``payable``;
``payments`` lists every distinct resulting situation, see :mod:`models.payment`, or the
counting dynamic programme of :mod:`models.payment_count` where it applies; when nothing
can pay the cost, ``reason`` is one sentence derived from an unsatisfiable core of the
cost's parts) and formats the result.

The rules-layer entry points stay importable from here for other callers:
:func:`build_problem`, :func:`is_payable` (:mod:`solver.payment.problem`),
:func:`count_payments`, :func:`find_payment`, :func:`payments`, :func:`payment_counter`
(:mod:`solver.payment.answers`). They take a *cost spec*: a :class:`~solver.rules.costs.TotalCost`, or
a mapping shaped like a pay query without ``kind`` (``{"cast": id}``,
``{"activate": {"object": id, "index": n}}``, ``{"cost": "{1}{G}"}``, with optional ``x``
and ``life``).
"""
from __future__ import annotations

import time
from typing import Any

from ..rules.characteristics import View
from ..rules.costs import query_player, total_cost
from ..core.errors import UnsupportedCase
from ..payment.problem import build_problem, is_payable, purpose_of
from ..payment.answers import (PayOutcome, PaymentLookupError, count_payments, find_payment, pay_outcome, payment_counter,
                        payments)
from ..core.state import GameState
from . import Options, register

__all__ = ["PaymentLookupError", "build_problem", "count_payments", "find_payment", "is_payable", "pay_query",
           "pay_view", "payment_counter", "payments", "purpose_of"]


@register("pay")
def pay_query(state: GameState, query: dict, options: Options) -> dict:
    """Contract §2.3."""
    return pay_view(View(state), query, options)


def pay_view(view: View, query: dict, options: Options = Options()) -> dict:
    """The ``pay`` query on an existing rules view (shares its caches)."""
    start = time.monotonic()
    player = query_player(view, query)
    try:
        tc = total_cost(view, player, query)
    except UnsupportedCase as e:   # an activated ability the project does not model
        return {"status": "error", "error": f"unsupported: {e}"}
    deadline = None if options.timeout is None else start + options.timeout
    return result_of(pay_outcome(view, player, tc, options.max_results, deadline))


def result_of(o: PayOutcome) -> dict:
    """The contract §2.3 fields of an outcome, in the contract's order."""
    if o.status == "error":
        return {"status": "error", "error": o.error}
    out: dict[str, Any] = {"status": o.status, "payable": o.payable, "count": o.count, "payments": o.payments}
    if o.x_values is not None:
        out["x_values"] = o.x_values
        out["x_max"] = o.x_max
    if o.reason is not None:
        out["reason"] = o.reason
    return out

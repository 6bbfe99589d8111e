"""The typed payments of the rules layer (:class:`solver.payment.paid.CostPayment`) and their two
writers agree: the API's move made directly (:meth:`CostPayment.move`) is the move read back from
the pay query's contract object (:func:`solver.queries.payments.payment_object` then
:meth:`solver.core.moves.Payment.from_json`, the JSON round trip the API used to make), for every
payment of every ``pay`` query of the instances (mana abilities, riders, restricted mana, delve,
convoke, casting modes' exiled, discarded, sacrificed and returned cards)."""
from __future__ import annotations

from pathlib import Path

import pytest

from mtgsolve.solver.core.moves import Payment
from mtgsolve.solver.io.load import load_situation
from mtgsolve.solver.payment.answers import pay_outcome
from mtgsolve.solver.queries import Options
from mtgsolve.solver.queries.pay import cost_request, query_player
from mtgsolve.solver.queries.payments import payment_object
from mtgsolve.solver.rules.characteristics import View
from mtgsolve.solver.rules.costs import total_cost

ROOT = Path(__file__).resolve().parent.parent / "instances"
FILES = sorted(p for p in ROOT.rglob("*") if p.suffix in (".yaml", ".yml", ".json") and p.is_file())


def _pay_queries():
    for path in FILES:
        loaded = load_situation(path)
        for i, q in enumerate(loaded.queries):
            if q.get("kind") == "pay":
                yield pytest.param(loaded, q, id=f"{path.relative_to(ROOT)}#{i}")


@pytest.mark.parametrize("loaded,query", list(_pay_queries()))
def test_move_is_the_contract_object_read_back(loaded, query):
    view = View(loaded.state)
    try:
        player = query_player(view, query)
        tc = total_cost(view, player, cost_request(view, query))
    except Exception:   # a bad query or an unmodeled ability: nothing is listed
        return
    out = pay_outcome(view, player, tc, Options().max_results)
    for p in out.payments:
        obj = payment_object(p)
        assert p.move() == Payment.from_json(obj), obj
        assert p.x == obj["x"]


def test_instances_list_casting_mode_payments():
    """The comparison above covers a casting mode's choices (not only the model's part)."""
    seen = set()
    for path in FILES:
        loaded = load_situation(path)
        view = View(loaded.state)
        for q in loaded.queries:
            if q.get("kind") != "pay":
                continue
            try:
                player = query_player(view, q)
                out = pay_outcome(view, player, total_cost(view, player, cost_request(view, q)))
            except Exception:
                continue
            seen.update(k for p in out.payments for k, _ in p.chosen)
    assert {"exile", "return"} <= seen, seen

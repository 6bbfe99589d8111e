"""The pay façade reads a query into a typed :class:`~solver.rules.costs.CostRequest`
(:func:`solver.queries.pay.cost_request`) with the messages the rules layer gave when it read the
mapping itself; the actions engine makes the same request from a candidate."""
from __future__ import annotations

import pytest

from mtgsolve.solver.core.errors import QueryError
from mtgsolve.solver.core.moves import Candidate
from mtgsolve.solver.engine.actions import Oracle
from mtgsolve.solver.io.load import situation_from_dict
from mtgsolve.solver.queries.pay import cost_request
from mtgsolve.solver.rules.characteristics import View
from mtgsolve.solver.rules.costs import CostRequest, total_cost


def _view():
    return View(situation_from_dict({
        "format": "mtgsolve/1", "players": ["alice", "bob"],
        "turn": {"number": 3, "active": "alice", "step": "main1"},
        "battlefield": {"alice": ["Mountain", "Prodigal Pyromancer"]},
        "hand": {"alice": ["Fireblast", "Shock"]}}).state)


@pytest.mark.parametrize("query,path,message", [
    ({"cast": "shock", "bogus": 1}, "bogus", "unknown key 'bogus' in a pay query"),
    ({}, "", "a pay query needs exactly one of 'cast', 'cost', 'activate' or 'suspend'"),
    ({"cast": "shock", "cost": "{R}"}, "", "(got cast, cost)"),
    ({"cast": "shock", "life": "no"}, "life", "expected true or false, got 'no'"),
    ({"cast": 3}, "cast", "unknown object 3"),
    ({"cast": "shock", "alternative": 5}, "alternative", "expected the name of an alternative cost, got 5"),
    ({"cast": "shock", "kicked": "twice"}, "kicked", "expected true, false or a number, got 'twice'"),
    ({"cost": "{R}", "kicked": True}, "kicked", "'alternative' and 'kicked' apply only to 'cast'"),
    ({"cost": 3}, "cost", "expected a mana cost string such as '{1}{G}', got 3"),
    ({"activate": "prodigal-pyromancer"}, "activate", "expected {object: <id>, index: <n>}"),
    ({"activate": {"object": "prodigal-pyromancer", "index": "one"}}, "activate.index",
     "Prodigal Pyromancer has no activated ability 'one' (it has 1 activated ability)"),
    ({"cast": "shock", "x": -1}, "x", "expected a number of at least 0 or 'any', got -1"),
])
def test_bad_queries_say_where_and_why(query, path, message):
    with pytest.raises(QueryError) as e:
        cost_request(_view(), query)
    assert e.value.path == path and message in e.value.message


@pytest.mark.parametrize("query,path,message", [
    ({"cast": "nothing"}, "cast", "unknown object 'nothing'"),
    ({"cast": "mountain"}, "cast", "Mountain is a land"),
    ({"cast": "shock", "x": 2}, "x", "the cost {R} has no {X}"),
    ({"cost": "{Q"}, "cost", ""),
    ({"activate": {"object": "prodigal-pyromancer", "index": 2}}, "activate.index", "has no activated ability 2"),
    ({"cast": "fireblast", "alternative": "nope"}, "alternative", "has no alternative cost 'nope'"),
])
def test_the_rules_check_what_the_request_names(query, path, message):
    view = _view()
    with pytest.raises(QueryError) as e:
        total_cost(view, "alice", cost_request(view, query))
    assert e.value.path == path and message in e.value.message


def test_the_engine_asks_what_the_query_asks():
    view = _view()
    oracle = Oracle(view.state, "alice", view=view)
    for cand, query in ((Candidate.make("cast", "shock"), {"cast": "shock"}),
                        (Candidate.make("cast", "fireblast", 0, "Fireblast"), {"cast": "fireblast",
                                                                                "alternative": "Fireblast"}),
                        (Candidate.make("activate", "prodigal-pyromancer", 1),
                         {"activate": {"object": "prodigal-pyromancer", "index": 1}})):
        assert oracle.cost_request(cand) == cost_request(view, query)
    assert cost_request(view, {"cost": "{X}{R}", "x": "any"}) == CostRequest("cost", "{X}{R}", x=None)

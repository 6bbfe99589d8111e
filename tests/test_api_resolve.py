"""``Situation.resolve()`` asks the rules layer (solver.engine.resolution) directly: the same
outcomes as the ``resolve`` query, whose situations load again unchanged (issue 18)."""
from __future__ import annotations

from pathlib import Path

import pytest

from mtgsolve.solver.api import Situation
from mtgsolve.solver.core.errors import QueryError
from mtgsolve.solver.io.load import situation_from_dict

INSTANCES = sorted((Path(__file__).resolve().parent.parent / "instances" / "resolve").glob("*.yaml"))


@pytest.mark.parametrize("path", INSTANCES[::4], ids=lambda p: p.stem)
def test_resolve_equals_the_query_loaded_again(path: Path) -> None:
    s = Situation.load(path)
    if not s.state.zone("stack"):
        pytest.skip("nothing on the stack")
    res = s.query({"kind": "resolve"}, max_results=10**9)
    if res["status"] != "ok":
        with pytest.raises(ValueError):
            s.resolve()
        return
    got = s.resolve()
    assert [c for c, _ in got] == [o["choices"] for o in res["outcomes"]]
    assert [t.state for _, t in got] == [situation_from_dict(o["situation"]).state for o in res["outcomes"]]


def test_resolve_with_an_empty_stack_is_a_query_error() -> None:
    s = Situation.load(INSTANCES[0])
    empty = Situation(s.state.replace_objects([o for o in s.state.objects if o.zone != "stack"]))
    with pytest.raises(QueryError, match="nothing to resolve"):
        empty.resolve()

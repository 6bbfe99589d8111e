"""The order of an action's own triggered abilities (CR 603.3b) in games: the same ability of
interchangeable sources needs no order (one outcome up to renaming, contract §2.3); otherwise the API's
apply names the sources (AmbiguousActionError.trigger_sources), the game session answers choose_order,
and the environment makes it the next decision (every distinct order an option)."""
from __future__ import annotations

import pytest

from mtgsolve.solver.api import Situation
from mtgsolve.solver.api.session import TriggerOrder, trigger_orders
from mtgsolve.solver.core.moves import AmbiguousActionError
from mtgsolve.solver.io.load import situation_from_dict

BASE = {"format": "mtgsolve/1", "players": ["alice", "bob"], "turn": {"number": 3, "active": "alice", "step": "main1"}}


def _cast(sentinels: list[dict]) -> tuple[Situation, object]:
    d = {**BASE, "battlefield": {"alice": sentinels + ["Forest"]}, "hand": {"alice": ["Llanowar Elves"]}}
    sit = Situation(situation_from_dict(d).state)
    (cast,) = [a for a in sit.legal_actions if a.kind == "cast"]
    return sit, cast


def test_interchangeable_sources_need_no_order():
    sit, cast = _cast([{"card": "Nettle Sentinel", "tapped": True}, {"card": "Nettle Sentinel", "tapped": True}])
    after = sit.apply(cast)   # "Whenever you cast a green spell, you may untap this creature." twice
    assert len([o for o in after.state.zone("stack") if o.ability is not None]) == 2


def test_distinct_sources_are_the_players_choice():
    sit, cast = _cast([{"card": "Nettle Sentinel", "tapped": True}, {"card": "Nettle Sentinel"}])
    with pytest.raises(AmbiguousActionError) as e:
        sit.apply(cast)
    assert e.value.trigger_sources == ("nettle-sentinel", "nettle-sentinel-2")
    orders = trigger_orders(cast, e.value.trigger_sources)
    assert [o.order for o in orders] == [("nettle-sentinel", "nettle-sentinel-2"), ("nettle-sentinel-2", "nettle-sentinel")]
    for o in orders:
        assert isinstance(o, TriggerOrder) and str(o).endswith("ordering " + ", ".join(o.order))
        top = sit.apply(o.action, trigger_order=o.order).state.zone("stack")[0]
        assert top.ability is not None and top.ability.source == o.order[0]

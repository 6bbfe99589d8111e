"""'Damage equal to the sacrificed creature's power' (Fling and its kin): the spell records the one creature
sacrificed to cast it as it last existed (stack key ``sacrificed``, CR 608.2h, 113.7a) and deals that much,
against an independent reference on random boards; a spell without the record is refused."""
from __future__ import annotations

import pytest
from hypothesis import given, settings, strategies as st

from mtgsolve.solver.api import Situation
from mtgsolve.solver.core.errors import MtgsolveError
from mtgsolve.solver.io.load import situation_from_dict

CREATURES = {"Grizzly Bears": 2, "Ornithopter": 0, "Hill Giant": 3}   # printed power (card data)
BASE = {"format": "mtgsolve/1", "players": ["alice", "bob"], "turn": {"number": 3, "active": "alice", "step": "main1"}}


@st.composite
def boards(draw):
    name = draw(st.sampled_from(sorted(CREATURES)))
    counters = draw(st.integers(0, 3))
    return name, counters


def _reference(name: str, counters: int) -> int:
    """Independent: Bob's life after Fling sacrificing that creature (its power with +1/+1 counters)."""
    return 20 - (CREATURES[name] + counters)


@settings(max_examples=20, deadline=None)
@given(boards())
def test_fling_deals_the_sacrificed_creatures_power(board):
    name, counters = board
    d = {**BASE, "battlefield": {"alice": ["Mountain", "Mountain", {"card": name, "counters": {"+1/+1": counters}}]},
         "hand": {"alice": ["Fling"]}}
    sit = Situation(situation_from_dict(d).state)
    (cast,) = [a for a in sit.legal_actions if a.kind == "cast" and str(a).startswith("cast fling -> bob")]
    on_stack = sit.apply(cast)
    assert dict(on_stack.state.obj("fling").sacrificed)["power"] == CREATURES[name] + counters
    ((_, done),) = on_stack.resolve()
    assert done.state.player("bob").life == _reference(name, counters)


def test_the_record_round_trips_and_is_checked():
    d = {**BASE, "stack": [{"card": "Fling", "controller": "alice", "targets": [["bob"]],
                            "sacrificed": {"power": 3, "toughness": 3, "mana_value": 4}}]}
    state = situation_from_dict(d).state
    assert situation_from_dict(Situation(state).to_dict()).state.obj("fling").sacrificed == state.obj("fling").sacrificed
    with pytest.raises(MtgsolveError, match="sacrificed"):
        situation_from_dict({**d, "stack": [{**d["stack"][0], "sacrificed": {"colour": 1}}]})
    with pytest.raises(MtgsolveError, match="sacrificed"):
        situation_from_dict({**BASE, "battlefield": {"alice": [{"card": "Grizzly Bears", "sacrificed": {"power": 1}}]}})

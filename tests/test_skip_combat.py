"""'Target opponent skips their next combat phase' (CR 614.10): recorded in the turn (``turn.skip_combat``),
skipped by the turn engine from the first main phase to the second (nothing of the combat phase happens,
614.10a), used up once; loaded, checked and dumped."""
from __future__ import annotations

import pytest

from mtgsolve.solver.api import Situation
from mtgsolve.solver.cards import get_card
from mtgsolve.solver.core import ir
from mtgsolve.solver.core.errors import MtgsolveError
from mtgsolve.solver.io.load import situation_from_dict

BASE = {"format": "mtgsolve/1", "players": ["alice", "bob"]}


def test_read():
    (a,) = [x for x in get_card("Stonehorn Dignitary").abilities if isinstance(x, ir.TriggeredAbility)]
    assert a.effects == (ir.SkipNextCombat(ir.T(0)),) and a.targets[0].filter.players


def test_the_skip_is_used_once_and_only_by_its_player():
    d = {**BASE, "turn": {"number": 4, "active": "bob", "step": "main1", "skip_combat": ["bob", "bob"]},
         "battlefield": {"bob": ["Grizzly Bears"], "alice": ["Grizzly Bears"]}}
    sit = Situation(situation_from_dict(d).state)
    while sit.state.turn.step == "main1":
        sit = sit.apply("pass")
    assert sit.state.turn.step == "main2" and sit.state.turn.skip_combat == ("bob",)   # one skip used
    # alice's turn: her combat phase is not skipped
    d2 = {**BASE, "turn": {"number": 5, "active": "alice", "step": "main1", "skip_combat": ["bob"]},
          "battlefield": {"alice": ["Grizzly Bears"]}}
    sit2 = Situation(situation_from_dict(d2).state)
    while sit2.state.turn.step == "main1":
        sit2 = sit2.apply("pass")
    assert sit2.state.turn.step == "beginning_of_combat" and sit2.state.turn.skip_combat == ("bob",)


def test_round_trip_and_errors():
    d = {**BASE, "turn": {"number": 4, "active": "bob", "step": "main1", "skip_combat": ["bob"]}}
    state = situation_from_dict(d).state
    assert situation_from_dict(Situation(state).to_dict()).state.turn.skip_combat == ("bob",)
    with pytest.raises(MtgsolveError, match="skip_combat"):
        situation_from_dict({**BASE, "turn": {"number": 4, "active": "bob", "step": "main1", "skip_combat": ["carol"]}})

""""Exile target … until this permanent leaves the battlefield" (CR 610.3): the card is exiled linked to
its source (object key ``exiled_until``) and returns to the battlefield under its owner's control as the
source leaves — not when the source had already left as the ability resolved (610.3c)."""
from __future__ import annotations

import pytest

from mtgsolve.solver.core.errors import SituationError
from mtgsolve.solver.io.dump import dump_state
from mtgsolve.solver.io.load import situation_from_dict
from mtgsolve.solver.queries import answer

BASE = {"format": "mtgsolve/1", "players": ["alice", "bob"], "turn": {"number": 3, "active": "alice", "step": "main1"}}


def _resolve(doc: dict) -> dict:
    res = answer(situation_from_dict(doc).state, {"kind": "resolve"})
    assert res["status"] == "ok", res
    (out,) = res["outcomes"]
    return out["situation"]


def test_banishing_light_exiles_until_it_leaves_and_the_card_returns():
    after = _resolve({**BASE, "battlefield": {"alice": ["Banishing Light"], "bob": ["Grizzly Bears"]},
                      "stack": [{"ability": {"source": "banishing-light", "index": 1}, "controller": "alice",
                                 "targets": [["grizzly-bears"]]}]})
    (bears,) = after["exile"]["bob"]
    assert bears["id"] == "grizzly-bears" and bears["exiled_until"] == "banishing-light"
    # the link survives a dump and a load (contract extension), then Disenchant-like removal returns it
    state = situation_from_dict(after).state
    assert situation_from_dict(dump_state(state)).state.key() == state.key()
    back = _resolve({**after, "stack": [{"card": "Naturalize", "controller": "bob", "targets": [["banishing-light"]]}]})
    assert [o["id"] for o in back["battlefield"]["bob"]] == ["grizzly-bears"]
    assert back["battlefield"]["bob"][0].get("sick") is True and "exile" not in back


def test_nothing_is_exiled_when_the_source_left_first():
    """CR 610.3c: Banishing Light gone before its ability resolves: the target is not exiled at all."""
    after = _resolve({**BASE, "battlefield": {"bob": ["Grizzly Bears"]}, "graveyard": {"alice": ["Banishing Light"]},
                      "stack": [{"ability": {"source": "banishing-light", "index": 1}, "controller": "alice",
                                 "targets": [["grizzly-bears"]]}]})
    assert [o["id"] for o in after["battlefield"]["bob"]] == ["grizzly-bears"]


def test_exiled_until_must_name_a_permanent():
    with pytest.raises(SituationError, match="exiled_until"):
        situation_from_dict({**BASE, "battlefield": {"alice": []},
                             "exile": {"bob": [{"card": "Grizzly Bears", "exiled_until": "nobody"}]}})

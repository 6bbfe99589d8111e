"""Soundness of the casting rules read for issue 15 (contract §2.0, tests/test_soundness.py
style): text that is now read no longer blocks the answers it used to, and what is still
not read (or not recorded by the situation) still blocks, naming its printed text."""
from __future__ import annotations

import pytest

from mtgsolve.solver.queries import answer
from mtgsolve.solver.io.load import situation_from_dict


def state(bob="bob", **kw):
    d = {"format": "mtgsolve/1", "players": ["alice", bob],
         "turn": {"number": 3, "active": "alice", "step": "main1"}}
    d.update(kw)
    return situation_from_dict(d).state


READ = [
    # (what, situation keys, query)
    ("delve", dict(battlefield={"alice": ["Island"] * 3}, hand={"alice": ["Murktide Regent"]},
                   graveyard={"alice": ["Opt"] * 5}), {"kind": "pay", "cast": "murktide-regent"}),
    ("convoke", dict(battlefield={"alice": ["Forest", "Llanowar Elves", "Llanowar Elves"]},
                     hand={"alice": ["Chord of Calling"]}), {"kind": "actions"}),
    ("improvise", dict(battlefield={"alice": ["Island", "Island", "Ornithopter", "Ornithopter", "Memnite"]},
                       hand={"alice": ["Reverse Engineer"]}), {"kind": "actions"}),
    ("spectacle recorded", dict(bob={"id": "bob", "life_lost_this_turn": 2}, battlefield={"alice": ["Mountain"]},
                                hand={"alice": ["Light Up the Stage"]}), {"kind": "actions"}),
    ("dash", dict(battlefield={"alice": ["Mountain", "Mountain"]}, hand={"alice": ["Ragavan, Nimble Pilferer"]}),
     {"kind": "actions"}),
    ("adventure in hand", dict(battlefield={"alice": ["Mountain", "Mountain"]}, hand={"alice": ["Bonecrusher Giant"]}),
     {"kind": "actions"}),
    ("adventure in graveyard", dict(battlefield={"alice": ["Mountain"]}, graveyard={"alice": ["Rimrock Knight"]}),
     {"kind": "actions"}),
    ("split card in hand", dict(battlefield={"alice": ["Volcanic Island", "Island"]}, hand={"alice": ["Fire // Ice"]}),
     {"kind": "actions"}),
    ("a modal double-faced card's land back face in hand", dict(battlefield={"alice": ["Mountain"]},
                                                                 hand={"alice": ["Emeria's Call"]}), {"kind": "actions"}),
    # recorded by the situation since issue 24 (object keys face, on_adventure): the front face unless
    # face says otherwise, and a card on an adventure is cast as the creature from exile (CR 715.3d)
    ("adventure in exile", dict(battlefield={"alice": ["Mountain"]}, exile={"alice": ["Bonecrusher Giant"]}),
     {"kind": "actions"}),
    ("adventure on an adventure", dict(battlefield={"alice": ["Mountain"]},
                                       exile={"alice": [{"card": "Bonecrusher Giant", "on_adventure": True}]}),
     {"kind": "actions"}),
    ("adventure on the stack", dict(stack=[{"card": "Bonecrusher Giant", "controller": "bob", "owner": "bob"}]),
     {"kind": "resolve"}),
    ("a modal double-faced card on the battlefield", dict(battlefield={"alice": [
        "Emeria's Call // Emeria, Shattered Skyclave", "Plains"]}), {"kind": "could_produce"}),
    ("Sunscape Familiar", dict(battlefield={"alice": ["Sunscape Familiar", "Forest"]},
                               hand={"alice": ["Grizzly Bears"]}), {"kind": "pay", "cast": "grizzly-bears"}),
    ("Herald's Horn", dict(battlefield={"alice": [{"card": "Herald's Horn", "chosen": {"type": "Elf"}}, "Forest"]},
                           hand={"alice": ["Elvish Visionary"]}), {"kind": "actions"}),
    ("Embercleave", dict(battlefield={"alice": ["Mountain"] * 4}, hand={"alice": ["Embercleave"]}),
     {"kind": "pay", "cast": "embercleave"}),
    ("an Adventure on the stack", dict(battlefield={"bob": ["Grizzly Bears"]}, stack=[
        {"card": "Petty Theft", "controller": "alice", "targets": [["grizzly-bears"]]}]), {"kind": "resolve"}),
]


@pytest.mark.parametrize("what,keys,query", READ, ids=[r[0] for r in READ])
def test_read_text_no_longer_blocks(what, keys, query):
    res = answer(state(**keys), query)
    assert res["status"] == "ok", (what, res)


STILL = [
    # (what, situation keys, query, words of the blocking text)
    ("spectacle not recorded", dict(battlefield={"alice": ["Mountain"]}, hand={"alice": ["Light Up the Stage"]}),
     {"kind": "actions"}, "Spectacle {R}"),
    ("an Adventure not in the faces file", dict(battlefield={"alice": ["Forest"]}, hand={"alice": ["Moonshae Pixie"]}),
     {"kind": "actions"}, "not in the card database"),
    ("a card-type cost rule (Cloud Key)", dict(battlefield={"alice": ["Cloud Key", "Island", "Island"]},
                                               hand={"alice": ["Divination"]}),
     {"kind": "pay", "cast": "divination"}, "of the chosen type"),
]


@pytest.mark.parametrize("what,keys,query,words", STILL, ids=[r[0] for r in STILL])
def test_unread_or_unrecorded_text_still_blocks(what, keys, query, words):
    res = answer(state(**keys), query)
    assert res["status"] == "unsupported", (what, res)
    assert any(words in u["text"] for u in res["unsupported"]), (what, res["unsupported"])

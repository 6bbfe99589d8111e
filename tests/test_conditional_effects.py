""""If <condition>, …" and "… instead if <condition>" (CR 608.2c): read by the condition readers,
decided as the spell resolves — Galvanic Blast with and without metalcraft — and the shape over the
database."""
from __future__ import annotations

import re

from mtgsolve.solver.cards import get_card, oracle_index
from mtgsolve.solver.core import ir
from mtgsolve.solver.io.load import situation_from_dict
from mtgsolve.solver.queries import answer


def _blast(artifacts: int) -> int:
    doc = {"format": "mtgsolve/1", "players": ["alice", "bob"], "turn": {"number": 3, "active": "alice", "step": "main1"},
           "battlefield": {"alice": ["Ornithopter"] * artifacts},
           "stack": [{"card": "Galvanic Blast", "controller": "alice", "targets": [["bob"]]}]}
    (out,) = answer(situation_from_dict(doc).state, {"kind": "resolve"})["outcomes"]
    bob = [p for p in out["situation"]["players"] if isinstance(p, dict) and p["id"] == "bob"][0]
    return 20 - bob["life"]


def test_galvanic_blast_deals_four_only_with_three_artifacts():
    assert _blast(2) == 2
    assert _blast(3) == 4


def test_condition_decided_as_it_resolves_for_a_permanents_ability():
    """The condition is the board's as the instruction happens, the resolving object's controller's."""
    card = {"name": "Test Scholar", "types": ["Sorcery"],
            "text": "If you control a Swamp, you gain 3 life."}
    for lands, life in ((["Swamp"], 23), (["Forest"], 20)):
        doc = {"format": "mtgsolve/1", "players": ["alice", "bob"],
               "turn": {"number": 3, "active": "alice", "step": "main1"}, "battlefield": {"alice": lands},
               "stack": [{"card": card, "controller": "alice"}]}
        (out,) = answer(situation_from_dict(doc).state, {"kind": "resolve"})["outcomes"]
        alice = out["situation"]["players"][0]
        assert (alice["life"] if isinstance(alice, dict) else 20) == life


def test_instead_if_you_control_over_the_database():
    """Every "<instruction> instead if you control …" sentence is read into an IfCondition, or stays
    unread for a reason the reader states (the condition or the instruction not read)."""
    cards = list(oracle_index().values())   # the shipped database, one entry per card name
    read = 0
    for c in cards:
        if not re.search(r"instead if you control", c.get("text") or ""):
            continue
        card = get_card(c["name"])
        effects = list(card.spell.effects) if card.spell else [e for a in card.abilities for e in getattr(a, "effects", ())]
        assert any(isinstance(e, (ir.IfCondition, ir.UnreadEffect)) for e in effects) or card.unsupported, c["name"]
        read += any(isinstance(e, ir.IfCondition) for e in effects)
    assert read >= 4, read

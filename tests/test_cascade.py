"""Cascade (CR 702.85a, 702.85c): read on every database card with the keyword, and resolved against the
brute-force reference (tests/reference/cascade_ref.py) on random known libraries: the card hit, declining or
casting it without paying its mana cost, and the rest on the bottom in a random order (chance outcomes)."""
from __future__ import annotations

import gzip
import json
import re
from fractions import Fraction
from pathlib import Path

import pytest
from hypothesis import given, settings, strategies as st

from mtgsolve.solver.api import Situation, UnsupportedCaseError
from mtgsolve.solver.cards import get_card
from mtgsolve.solver.core import ir
from mtgsolve.solver.engine.resolution import resolve_top
from tests.reference.cascade_ref import cascade

ROOT = Path(__file__).resolve().parents[1]
POOL = ["Forest", "Island", "Grizzly Bears", "Llanowar Elves", "Ornithopter", "Divination", "Hill Giant"]
SPELLS = {"Bloodbraid Elf": 4, "Shardless Agent": 3, "Violent Outburst": 3}


def _data(name: str):
    return get_card(name).data


def _board(spell: str, library: list[str]) -> dict:
    return {"format": "mtgsolve/1", "players": ["alice", "bob"],
            "turn": {"number": 3, "active": "alice", "step": "main1"},
            "library": {"alice": library, "bob": ["Plains"]},
            "stack": [{"ability": {"source": "spell", "index": 1}, "controller": "alice"},
                      {"id": "spell", "card": spell, "controller": "alice"}]}


@settings(max_examples=40, deadline=None)
@given(spell=st.sampled_from(sorted(SPELLS)), library=st.lists(st.sampled_from(POOL), max_size=5))
def test_cascade_matches_the_reference(spell, library):
    res = resolve_top(Situation.from_dict(_board(spell, library)).state)
    got: dict = {}
    for out in res.outcomes:
        s = out.state
        cast = any(o.zone == "stack" and o.id != "spell" for o in s.objects)
        lib = tuple(o.card.name for o in s.zone("library", "alice"))
        key = (cast, "random", tuple(sorted(lib))) if "alice" in s.shuffled else (cast, "known", lib)
        got[key] = got.get(key, Fraction(0)) + (out.probability if out.probability is not None else Fraction(1))
    want = cascade(library, lambda n: _data(n).mana_cost.mana_value, lambda n: "Land" in _data(n).types,
                   SPELLS[spell])
    assert got == want


def test_cascade_from_a_random_library_is_refused():
    board = _board("Bloodbraid Elf", ["Forest", "Grizzly Bears", "Island"])
    board["shuffled"] = {"alice": True}
    with pytest.raises(UnsupportedCaseError, match="cascades from a library in random order"):
        Situation.from_dict(board).resolve()


def test_every_card_with_cascade_reads_it():
    names = [c["name"] for c in json.load(gzip.open(ROOT / "solver" / "data" / "oracle-cards.json.gz"))
             if any(re.fullmatch(r"cascade(, cascade)*", re.sub(r"\s*\([^)]*\)", "", ln).strip().lower())
                    for ln in (c.get("text") or "").split("\n")) and "//" not in c["name"]]
    assert len(names) >= 30
    for name in names:
        assert any(isinstance(a, ir.TriggeredAbility) and a.effects == (ir.Cascade(),)
                   for a in get_card(name).abilities), name

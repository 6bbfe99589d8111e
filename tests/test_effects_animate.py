""""This land becomes a 2/2 … creature until end of turn. It's still a land." (CR 611.2a, 613.1d-f,
613.4b): the manlands' abilities resolve into a characteristics change for the turn, ended at cleanup."""
from __future__ import annotations

import re

from mtgsolve.solver.cards import get_card, oracle_index
from mtgsolve.solver.core import ir
from mtgsolve.solver.io.load import situation_from_dict
from mtgsolve.solver.queries import answer
from mtgsolve.solver.rules.characteristics import View


def _after(name: str, index: int) -> View:
    oid = name.lower().replace("'", "").replace(" ", "-")
    doc = {"format": "mtgsolve/1", "players": ["alice", "bob"], "turn": {"number": 3, "active": "alice", "step": "main1"},
           "battlefield": {"alice": [name]},
           "stack": [{"ability": {"source": oid, "index": index}, "controller": "alice"}]}
    (out,) = answer(situation_from_dict(doc).state, {"kind": "resolve"})["outcomes"]
    return View(situation_from_dict(out["situation"]).state)


def test_mishras_factory_becomes_an_artifact_creature_and_stays_a_land():
    c = _after("Mishra's Factory", 2).chars("mishras-factory")
    assert c.is_creature and (c.power, c.toughness) == (2, 2)
    assert {"Land", "Artifact", "Creature"} <= c.types and "Assembly-Worker" in c.subtypes


def test_celestial_colonnade_gets_its_colors_and_keywords():
    c = _after("Celestial Colonnade", 2).chars("celestial-colonnade")
    assert (c.power, c.toughness) == (4, 4) and c.colors == frozenset({"W", "U"})
    assert c.keyword("flying") and c.keyword("vigilance")


def test_the_animation_ends_at_cleanup():
    from mtgsolve.solver.engine.turns import play_pass  # noqa: F401  (the turn engine clears effects, CR 514.2)
    doc = {"format": "mtgsolve/1", "players": ["alice", "bob"], "turn": {"number": 3, "active": "alice", "step": "main1"},
           "battlefield": {"alice": ["Mishra's Factory"]},
           "stack": [{"ability": {"source": "mishras-factory", "index": 2}, "controller": "alice"}]}
    (out,) = answer(situation_from_dict(doc).state, {"kind": "resolve"})["outcomes"]
    sit = out["situation"]
    assert sit.get("effects")  # recorded as an effect entry, which the cleanup step empties
    sit["turn"] = {"number": 3, "active": "alice", "step": "end", "priority": "bob", "passed": ["alice"]}
    res = answer(situation_from_dict(sit).state, {"kind": "pass"})
    (nxt,) = res["outcomes"]
    assert not nxt["situation"].get("effects")
    assert not View(situation_from_dict(nxt["situation"]).state).chars("mishras-factory").is_creature


def test_manland_lines_over_the_database():
    """Every "This land becomes a N/N … creature … until end of turn. It's still a land." line is read, or
    stays unread for a word the reader doesn't hold (a keyword not modeled, "all creature types", …)."""
    cards = list(oracle_index().values())   # the shipped database, one entry per card name
    read = 0
    for c in cards:
        if not re.search(r"This land becomes an? \d+/\d+ [^.]*creature[^.]* until end of turn\. It's still a land\.",
                         c.get("text") or ""):
            continue
        card = get_card(c["name"])
        effects = [e for a in card.abilities for e in getattr(a, "effects", ())]
        if any(isinstance(e, ir.Animate) for e in effects):
            read += 1
        else:
            assert card.unsupported or any(isinstance(e, ir.UnreadEffect) for e in effects), c["name"]
    assert read >= 12, read

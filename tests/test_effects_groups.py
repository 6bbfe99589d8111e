"""Effects on every permanent of a description (CR 608.2c): "deals N damage to each creature …",
"Destroy all creatures" — against an independent reference on random boards, and the grammar over
the database."""
from __future__ import annotations

from hypothesis import given, settings, strategies as st

from mtgsolve.solver.io.load import situation_from_dict
from mtgsolve.solver.queries import answer

# the reference's card facts (printed toughness, indestructible), from the cards' Oracle text
POOL = {"Grizzly Bears": (2, False), "Savannah Lions": (1, False), "Centaur Courser": (3, False),
        "Darksteel Myr": (1, True)}
SPELLS = {
    "Pyroclasm": ("damage", 2, "any"),
    "Day of Judgment": ("destroy", 0, "any"),
    "Sweeper": ("damage", 1, "opponent"),   # inline: "~ deals 1 damage to each creature you don't control."
}


def _spell(name: str) -> object:
    if name != "Sweeper":
        return name
    return {"name": "Sweeper", "types": ["Sorcery"], "text": "Sweeper deals 1 damage to each creature you don't control."}


def _survivors(board: list[tuple[str, str]], spell: str) -> list[tuple[str, str]]:
    kind, n, who = SPELLS[spell]
    out = []
    for name, ctl in board:
        tough, indestructible = POOL[name]
        hit = who == "any" or ctl != "alice"
        dies = hit and not indestructible and (kind == "destroy" or n >= tough)
        if not dies:
            out.append((name, ctl))
    return sorted(out)


@settings(max_examples=30, deadline=None)
@given(st.lists(st.tuples(st.sampled_from(sorted(POOL)), st.sampled_from(["alice", "bob"])), max_size=5),
       st.sampled_from(sorted(SPELLS)))
def test_group_damage_and_destroy_match_the_reference(board, spell):
    doc = {"format": "mtgsolve/1", "players": ["alice", "bob"], "turn": {"number": 3, "active": "alice", "step": "main1"},
           "battlefield": {p: [n for n, c in board if c == p] for p in ("alice", "bob")},
           "stack": [{"card": _spell(spell), "controller": "alice"}]}
    res = answer(situation_from_dict(doc).state, {"kind": "resolve"})
    assert res["status"] == "ok" and res["count"] == 1
    bf = res["outcomes"][0]["situation"].get("battlefield", {})
    got = sorted((o.get("card") if isinstance(o.get("card"), str) else o["card"]["name"], ctl)
                 for ctl, objs in bf.items() for o in objs)
    assert got == _survivors(board, spell)


def test_group_effects_read_over_the_database():
    """"Destroy all <permanents>." and "deals N damage to each creature [and each player]." read on every
    card that prints them in a shape the description reader holds."""
    import re
    from mtgsolve.solver.cards import get_card, oracle_index
    from mtgsolve.solver.core import ir

    cards = list(oracle_index().values())   # the shipped database, one entry per card name
    read = 0
    for c in cards:
        text = c.get("text") or ""
        if not re.fullmatch(r"Destroy all (creatures|artifacts|enchantments|lands|nonland permanents)\.", text.strip()):
            continue
        spell = get_card(c["name"]).spell
        assert spell is not None and any(isinstance(e, ir.Destroy) and e.to.kind == "each_object"
                                         for e in spell.effects), c["name"]
        read += 1
    assert read >= 8

""""Enters tapped unless you control …" (CR 614.1c): a self-replacement read with the activation
condition reader, its condition checked as the permanent would enter — through the action applier
(playing a land) and through resolution (a permanent spell) — and the grammar over the database."""
from __future__ import annotations

import re

from mtgsolve.solver.api import Situation
from mtgsolve.solver.cards import get_card, oracle_index
from mtgsolve.solver.core import ir
from mtgsolve.solver.io.load import situation_from_dict


def _play(lands: list[str], land: str) -> bool:
    sit = Situation(situation_from_dict({
        "format": "mtgsolve/1", "players": ["alice", "bob"], "turn": {"number": 3, "active": "alice", "step": "main1"},
        "battlefield": {"alice": lands}, "hand": {"alice": [land]}}).state)
    oid = land.lower().replace(" ", "-")
    return sit.apply(f"play {oid}").state.obj(oid).tapped


def test_fastland_and_checkland_conditions_as_a_land_is_played():
    assert _play(["Plains", "Island"], "Deserted Beach") is False      # two or more other lands
    assert _play(["Plains"], "Deserted Beach") is True
    assert _play(["Plains"], "Glacial Fortress") is False              # a Plains or an Island
    assert _play(["Forest", "Mountain"], "Glacial Fortress") is True


def test_condition_checked_as_a_permanent_spell_resolves():
    from mtgsolve.solver.queries import answer

    doc = {"format": "mtgsolve/1", "players": ["alice", "bob"], "turn": {"number": 3, "active": "alice", "step": "main1"},
           "battlefield": {"alice": ["Island"]},
           "stack": [{"card": {"name": "Tidal Shrine", "types": ["Artifact"],
                               "text": "This artifact enters tapped unless you control an Island."}, "controller": "alice"}]}
    (out,) = answer(situation_from_dict(doc).state, {"kind": "resolve"})["outcomes"]
    shrine = [o for o in out["situation"]["battlefield"]["alice"] if o["id"] == "tidal-shrine"][0]
    assert not shrine.get("tapped")
    doc["battlefield"]["alice"] = ["Forest"]
    (out,) = answer(situation_from_dict(doc).state, {"kind": "resolve"})["outcomes"]
    shrine = [o for o in out["situation"]["battlefield"]["alice"] if o["id"] == "tidal-shrine"][0]
    assert shrine.get("tapped") is True


def test_every_enters_tapped_unless_you_control_line_of_the_database():
    """The shape covers many cards: each "enters tapped unless you control <permanents>" line is read,
    or stays unread because its condition is one the reader doesn't hold ("two or fewer", …)."""
    cards = list(oracle_index().values())   # the shipped database, one entry per card name
    read = unread = 0
    for c in cards:
        lines = [ln for ln in (c.get("text") or "").split("\n") if re.search(r"enters tapped unless you control", ln)]
        if not lines:
            continue
        card = get_card(c["name"])
        got = [a for a in card.abilities if isinstance(a, ir.EntersWith) and a.unless is not None]
        if got:
            read += 1
        else:
            unread += 1
            assert any(re.search(r"or fewer|opponent|basic|creature|legendary", ln) for ln in lines) or \
                any(u.text for u in card.unsupported), c["name"]
    assert read >= 40, read

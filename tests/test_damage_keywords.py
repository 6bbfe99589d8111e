"""Infect, wither and toxic (CR 702.90, 702.80, 702.164): damage dealt as -1/-1 counters and poison
counters, checked against the brute-force reference (tests/reference/damage_results_ref.py) on random
combats between two inline creatures with random keywords (deathtouch and lifelink too), through the
combat damage step of ``pass``; and the reader reads each keyword on every database card that prints it."""
from __future__ import annotations

import gzip
import json
import re
from pathlib import Path

from hypothesis import given, settings, strategies as st

from mtgsolve.solver.api import Situation
from mtgsolve.solver.cards import get_card
from mtgsolve.solver.core.ir import Keyword
from tests.reference.damage_results_ref import Creature, Player, deal, dies, loses

KEYWORDS = ["infect", "wither", "deathtouch", "lifelink"]


def _card(name: str, power: int, toughness: int, keywords: list[str], toxic: int) -> dict:
    lines = [k.capitalize() for k in keywords] + ([f"Toxic {toxic}"] if toxic else [])
    return {"name": name, "manaCost": "{1}", "type": "Creature — Test", "types": ["Creature"],
            "subtypes": ["Test"], "power": str(power), "toughness": str(toughness), "text": "\n".join(lines)}


creatures = st.tuples(st.integers(0, 3), st.integers(1, 4), st.lists(st.sampled_from(KEYWORDS), unique=True),
                      st.integers(0, 2))


@settings(max_examples=60, deadline=None)
@given(att=creatures, blk=st.one_of(st.none(), creatures), life=st.integers(1, 4), poison=st.integers(0, 9),
       minus=st.integers(0, 1))
def test_combat_damage_matches_the_reference(att, blk, life, poison, minus):
    a = Creature(att[0], att[1], frozenset(att[2]), att[3])
    attacker = {"id": "a", "card": _card("Test Attacker", *att), "attacking": "bob"}
    board: dict = {"format": "mtgsolve/1", "players": [{"id": "alice", "life": life}, {"id": "bob", "life": life,
                                                                                      "poison": poison}],
                   "turn": {"number": 3, "active": "alice", "step": "declare_blockers", "priority": "bob",
                            "passed": ["alice"]},
                   "battlefield": {"alice": [attacker]}, "library": {"alice": [], "bob": []}}
    alice, bob = Player(life), Player(life, poison)
    b = None
    if blk is not None:
        # printed toughness raised by the -1/-1 counter it has (CR 122.1a: it lowers power too)
        b = Creature(blk[0] - minus, blk[1] + minus, frozenset(blk[2]), blk[3], minus=minus)
        blocker = {"id": "b", "card": _card("Test Blocker", *blk[:1], blk[1] + minus, *blk[2:]), "blocking": ["a"]}
        if minus:
            blocker["counters"] = {"-1/-1": minus}
        board["battlefield"]["bob"] = [blocker]
        attacker["blocked"] = True
        deal(a, a.power, b, True, alice)
        deal(b, max(0, b.power), a, True, bob)
    else:
        deal(a, a.power, bob, True, alice)
    outs = [out for _c, _p, out in Situation.from_dict(board).outcomes("pass")]
    assert len(outs) == 1
    s = outs[0].state
    assert (s.player("alice").life, s.player("bob").life, s.player("bob").poison) == (alice.life, bob.life, bob.poison)
    assert (s.player("bob").lost, s.player("alice").lost) == (loses(bob), loses(alice))
    for oid, c in (("a", a), ("b", b)):
        if c is None:
            continue
        o = s.find(oid)
        if dies(c):
            assert o is None or o.zone == "graveyard", oid
        else:
            assert o is not None and o.zone == "battlefield", oid
            assert (o.damage, dict(o.counters).get("-1/-1", 0)) == (c.damage, c.minus), oid


def test_each_keyword_is_read_on_every_card_that_prints_it():
    """Every database card with "Infect", "Wither" or "Toxic N" in a keyword line ("Flying, infect") has
    the keyword."""
    path = Path(__file__).resolve().parents[1] / "solver" / "data" / "oracle-cards.json.gz"
    counts = {"infect": 0, "wither": 0, "toxic": 0}
    for raw in json.load(gzip.open(path)):
        if "//" in raw["name"]:
            continue
        lines = [[it.strip().lower() for it in re.sub(r"\([^)]*\)", "", ln).split(",")]
                 for ln in (raw.get("text") or "").split("\n")]
        items = [it for ln in lines if all(len(it.split()) <= 3 for it in ln) for it in ln]   # keyword lines
        for name in counts:
            if any(it == name or (name == "toxic" and re.fullmatch(r"toxic \d+", it)) for it in items):
                card = get_card(raw["name"])
                assert any(isinstance(k, Keyword) and k.name == name for k in card.abilities), raw["name"]
                counts[name] += 1
    assert counts["infect"] >= 40 and counts["wither"] >= 20 and counts["toxic"] >= 30, counts

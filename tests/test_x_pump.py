"""'+X/+X until end of turn' with X fixed as it resolves (CR 608.2h, 107.3; group sets 611.2c): ", where X
is <count>" (Craterhoof Behemoth) and the spell's own X (Untamed Might), against a reference that counts
the board from the card data; the value is the effects entry's ``x``, and an entry without it is refused."""
from __future__ import annotations

import random

import pytest

from mtgsolve.solver.cards import get_card
from mtgsolve.solver.io.load import situation_from_dict
from mtgsolve.solver.queries import Options, answer
from mtgsolve.solver.rules.characteristics import View

TURN = {"number": 3, "active": "alice", "step": "main1"}
POOL = ["Grizzly Bears", "Llanowar Elves", "Hill Giant", "Ornithopter", "Forest", "Sol Ring"]


def _creature(name: str) -> bool:
    return "Creature" in get_card(name).data.types


@pytest.mark.parametrize("seed", range(12))
def test_craterhoof_against_reference(seed):
    rng = random.Random(seed)
    mine = [rng.choice(POOL) for _ in range(rng.randint(0, 4))]
    theirs = [rng.choice(POOL) for _ in range(rng.randint(0, 3))]
    doc = {"format": "mtgsolve/1", "players": ["alice", "bob"], "turn": TURN,
           "battlefield": {"alice": [{"id": f"a{i}", "card": n} for i, n in enumerate(mine)] + ["Craterhoof Behemoth"],
                           "bob": [{"id": f"b{i}", "card": n} for i, n in enumerate(theirs)]},
           "stack": [{"ability": {"source": "craterhoof-behemoth", "index": 1}, "controller": "alice"}]}
    res = answer(situation_from_dict(doc).state, {"kind": "resolve"}, Options())
    assert res["status"] == "ok" and res["count"] == 1
    out = situation_from_dict(res["outcomes"][0]["situation"]).state
    x = 1 + sum(1 for n in mine if _creature(n))     # the reference: alice's creatures, the Behemoth included
    view = View(out)
    for i, n in enumerate(mine):
        c, d = view.chars(f"a{i}"), get_card(n).data
        if _creature(n):
            assert (c.power, c.toughness, c.keyword("trample")) == (int(d.power) + x, int(d.toughness) + x, True)
    for i, n in enumerate(theirs):
        c, d = view.chars(f"b{i}"), get_card(n).data
        if _creature(n):
            assert (c.power, c.toughness) == (int(d.power), int(d.toughness))
    assert out.effects[0].x == x


@pytest.mark.parametrize("x", [0, 1, 4])
def test_the_spells_own_x(x):
    """Untamed Might ("Target creature gets +X/+X until end of turn."): X as cast (CR 107.3m)."""
    doc = {"format": "mtgsolve/1", "players": ["alice", "bob"], "turn": TURN,
           "battlefield": {"alice": ["Grizzly Bears"]},
           "stack": [{"card": "Untamed Might", "controller": "alice", "x": x, "targets": [["grizzly-bears"]]}]}
    res = answer(situation_from_dict(doc).state, {"kind": "resolve"}, Options())
    out = situation_from_dict(res["outcomes"][0]["situation"]).state
    c = View(out).chars("grizzly-bears")
    assert (c.power, c.toughness) == (2 + x, 2 + x) and out.effects[0].x == x


def test_an_entry_without_its_x_blocks_and_one_with_it_does_not():
    """Soundness both ways: X unknown is an unread part of the board; X recorded is not."""
    base = {"format": "mtgsolve/1", "players": ["alice", "bob"], "turn": TURN,
            "battlefield": {"alice": ["Grizzly Bears", "Craterhoof Behemoth"]}}
    entry = {"ability": {"source": "craterhoof-behemoth", "index": 1}, "controller": "alice",
             "affected": [["craterhoof-behemoth", "grizzly-bears"]]}
    q = {"kind": "attacks"}
    assert answer(situation_from_dict({**base, "effects": [entry]}).state, q, Options())["status"] == "unsupported"
    assert answer(situation_from_dict({**base, "effects": [{**entry, "x": 2}]}).state, q, Options())["status"] == "ok"

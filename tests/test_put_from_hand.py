"""'You may put <a card of a kind> [with mana value equal to the number of <kind> counters on this] from
your hand onto the battlefield' (CR 608.2c-d, 402.3, 202.3): one outcome per distinct qualifying card of
the player's own hand plus declining, against a reference that reads the hand from the card data; every
card of the shape over the database is read or refused, never misread."""
from __future__ import annotations

import gzip
import json
import random
import re
from pathlib import Path

import pytest

from mtgsolve.solver.cards import get_card
from mtgsolve.solver.core import ir
from mtgsolve.solver.io.load import situation_from_dict
from mtgsolve.solver.queries import Options, answer

TURN = {"number": 3, "active": "alice", "step": "main1"}
HAND = ["Grizzly Bears", "Llanowar Elves", "Hill Giant", "Forest", "Bonesplitter", "Sol Ring", "Shock",
        "Ornithopter"]
DATA = Path(__file__).resolve().parent.parent / "solver" / "data" / "oracle-cards.json.gz"


def _reference(hand: list[str], kind: str, mv: int | None) -> int:
    """Outcomes: declining, and each distinct card name in the hand of that kind (and mana value)."""
    names = {n for n in hand if kind in (get_card(n).data.types + get_card(n).data.subtypes)
             and (mv is None or get_card(n).data.mana_cost.mana_value == mv)}
    return 1 + len(names)


@pytest.mark.parametrize("seed", range(10))
def test_aether_vial_against_reference(seed):
    rng = random.Random(seed)
    hand = [rng.choice(HAND) for _ in range(rng.randint(0, 5))]
    n = rng.randint(0, 3)
    doc = {"format": "mtgsolve/1", "players": ["alice", "bob"], "turn": TURN,
           "battlefield": {"alice": [{"card": "Aether Vial", "counters": {"charge": n} if n else {}, "tapped": True}]},
           "hand": {"alice": hand, "bob": ["Grizzly Bears"]},
           "stack": [{"ability": {"source": "aether-vial", "index": 2}, "controller": "alice"}]}
    res = answer(situation_from_dict(doc).state, {"kind": "resolve"}, Options())
    assert res["status"] == "ok", res.get("reason")
    assert res["count"] == _reference(hand, "Creature", n)
    for o in res["outcomes"]:
        put = o["choices"].get("put_from_hand")
        if put:
            bf = {x["id"] for x in o["situation"]["battlefield"]["alice"]}
            assert put in bf


@pytest.mark.parametrize("seed", range(6))
def test_stoneforge_against_reference(seed):
    rng = random.Random(100 + seed)
    hand = [rng.choice(HAND) for _ in range(rng.randint(0, 5))]
    doc = {"format": "mtgsolve/1", "players": ["alice", "bob"], "turn": TURN,
           "battlefield": {"alice": ["Stoneforge Mystic"]}, "hand": {"alice": hand},
           "stack": [{"ability": {"source": "stoneforge-mystic", "index": 2}, "controller": "alice"}]}
    res = answer(situation_from_dict(doc).state, {"kind": "resolve"}, Options())
    assert res["status"] == "ok" and res["count"] == _reference(hand, "Equipment", None)


def test_every_card_of_the_shape_is_read_or_refused():
    shape = re.compile(r"You may put an? [^.]* card[^.]* from your hand onto the battlefield( tapped)?\.")
    read = unread = 0
    for c in json.load(gzip.open(DATA)):
        if c.get("layout") not in (None, "normal") or not shape.search(c.get("text") or ""):
            continue
        card = get_card(c["name"])
        effs = [e for a in card.abilities for e in getattr(a, "effects", ()) or ()] + \
            list(card.spell.effects if card.spell else ())
        puts = [e for e in effs if isinstance(e, ir.PutFromHand)]
        if puts:
            read += 1
            assert all(e.optional for e in puts), c["name"]
        else:
            unread += 1
    assert read >= 40, (read, unread)

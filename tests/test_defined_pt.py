"""Characteristic-defining power and toughness (CR 604.3, 208.2a; layer 7a, 613.4a) and statics whose
condition counts cards of a type in the graveyard (CR 611.3a, 205.2a), against a reference that reads the
printed text with its own pattern and counts the board from the card data (no reader, no view):
every card of the database with the shape "<this creature's | ~'s> power [and toughness are each | is]
equal to the number of <things> you control." is tested, on the battlefield and in the hand."""
from __future__ import annotations

import gzip
import json
import re
from functools import lru_cache
from pathlib import Path

import pytest

from mtgsolve.solver.cards import get_card
from mtgsolve.solver.core import ir
from mtgsolve.solver.io.load import situation_from_dict
from mtgsolve.solver.rules.characteristics import View

DATA = Path(__file__).resolve().parent.parent / "solver" / "data" / "oracle-cards.json.gz"
SHAPE = re.compile(r"^(?:This creature's|~'s) (power and toughness are each|power is|toughness is) equal to the "
                   r"number of (\w+) you control\.$")
TYPES = {"creatures": "Creature", "lands": "Land", "artifacts": "Artifact", "enchantments": "Enchantment"}
BOARD = ["Forest", "Forest", "Island", "Grizzly Bears", "Llanowar Elves", "Sol Ring", "Ornithopter"]


@lru_cache(maxsize=1)
def shaped() -> list[tuple[str, str, str]]:
    """(name, which, plural) of every card of the shape, from the card data."""
    out = []
    for c in json.load(gzip.open(DATA)):
        for line in (c.get("text") or "").split("\n"):
            m = SHAPE.match(line.replace(c["name"], "~").replace(c["name"].split(",")[0], "~"))
            if m and c.get("layout") in (None, "normal"):
                out.append((c["name"], m.group(1), m.group(2)))
    return out


def _reference_count(plural: str, board: list[str], extra: str) -> int | None:
    """The number of permanents alice controls of the kind named (printed types / subtypes)."""
    names = board + [extra]
    if plural in TYPES:
        return sum(1 for n in names if TYPES[plural] in get_card(n).data.types)
    sub = plural[:-3] + "f" if plural.endswith("ves") else plural[:-3] + "y" if plural.endswith("ies") else \
        plural[:-1] if plural.endswith("s") else plural
    if sub[:1].isupper():
        return sum(1 for n in names if sub in get_card(n).data.subtypes)
    return None


def test_the_shape_is_common():
    assert len(shaped()) >= 30


def test_every_card_of_the_shape_against_the_reference():
    read = 0
    for name, which, plural in shaped():
        card = get_card(name)
        want = _reference_count(plural, BOARD, name)
        if want is None or not any(isinstance(a, ir.DefinedPT) for a in card.abilities):
            continue
        read += 1
        doc = {"format": "mtgsolve/1", "players": ["alice", "bob"],
               "battlefield": {"alice": BOARD + [{"id": "it", "card": name}], "bob": ["Grizzly Bears"]},
               "hand": {"alice": [{"id": "copy", "card": name}]}}
        view = View(situation_from_dict(doc).state)
        for oid, n in (("it", want), ("copy", want)):   # CR 604.3: in the hand too (it counts the permanents)
            c = view.chars(oid)
            p = int(card.data.power) if card.data.power not in (None, "*") else None
            t = int(card.data.toughness) if card.data.toughness not in (None, "*") else None
            exp_p = n if which != "toughness is" else p
            exp_t = n if which != "power is" else t
            assert (c.power, c.toughness) == (exp_p, exp_t), (name, oid)
    assert read >= 25, read


@pytest.mark.parametrize("graveyard, bonus", [(["Forest", "Island", "Mountain"], 2), (["Forest", "Island", "Shock"], 0),
                                              (["Forest", "Island", "Mountain", "Shock"], 2), ([], 0)])
def test_land_cards_in_the_graveyard(graveyard, bonus):
    """Elvish Reclaimer: +2/+2 while three or more *land* cards are in its controller's graveyard."""
    doc = {"format": "mtgsolve/1", "players": ["alice", "bob"], "battlefield": {"alice": ["Elvish Reclaimer"]},
           "graveyard": {"alice": graveyard, "bob": ["Forest", "Forest", "Forest"]}}
    c = View(situation_from_dict(doc).state).chars("elvish-reclaimer")
    lands = sum(1 for n in graveyard if "Land" in get_card(n).data.types)
    assert (lands >= 3) == bool(bonus)
    assert (c.power, c.toughness) == (1 + bonus, 2 + bonus)


def test_counters_and_pumps_apply_after_layer_7a():
    """CR 613.4a-c: the defined value first, then counters and pumps."""
    doc = {"format": "mtgsolve/1", "players": ["alice", "bob"],
           "battlefield": {"alice": ["Forest", "Forest", {"card": "Cultivator Colossus", "counters": {"+1/+1": 2}}]}}
    c = View(situation_from_dict(doc).state).chars("cultivator-colossus")
    assert (c.power, c.toughness) == (4, 4)

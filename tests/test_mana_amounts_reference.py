"""The mana amounts read for issue 25 — "Choose a color. Add … equal to your devotion to that color"
(CR 700.5) and "For each color among permanents you control, add one mana of that color" — give the
same payments as the brute-force reference (tests/reference/pay_ref.py, mana_ref.py), including the
payments that leave mana in the pool. Found by the real-deck benchmark's ``--references`` run: the
reference did not know the devotion-to-a-chosen-color amount (it counted 2 payments where there are 8)."""
from __future__ import annotations

import itertools

import pytest

from reference.pay_ref import brute_pay
from mtgsolve.solver.io.load import situation_from_dict
from mtgsolve.solver.queries import Options, answer

KEEPER = {"name": "Blossom Keeper", "manaCost": "{1}{G}", "type": "Creature — Elf Druid", "types": ["Creature"],
          "subtypes": ["Elf", "Druid"], "power": "1", "toughness": "1",
          "text": "{T}: For each color among permanents you control, add one mana of that color."}
SPELLS = ["Burning-Tree Emissary", "Grizzly Bears", "Lightning Bolt", "Leatherback Baloth", "Counterspell"]
BOARDS = [
    ["Nykthos, Shrine to Nyx", "Forest", "Forest", "Forest", "Burning-Tree Emissary"],
    ["Nykthos, Shrine to Nyx", "Forest", "Mountain", "Leatherback Baloth", "Llanowar Elves"],
    [{"card": KEEPER}, "Merfolk Looter", "Forest", "Island"],
    [{"card": KEEPER}, "Nykthos, Shrine to Nyx", "Forest", "Forest", "Kird Ape"],
]


@pytest.mark.parametrize("board, spell", list(itertools.product(range(len(BOARDS)), SPELLS)))
def test_payments_equal_the_reference(board, spell):
    d = {"format": "mtgsolve/1", "players": ["alice", "bob"], "turn": {"number": 3, "active": "alice", "step": "main1"},
         "battlefield": {"alice": BOARDS[board]}, "hand": {"alice": [{"card": spell, "id": "spell"}]}}
    state = situation_from_dict(d).state
    q = {"kind": "pay", "cast": "spell"}
    got = answer(state, q, Options(max_results=100_000))
    assert got["status"] == "ok", got
    want = brute_pay(state, dict(q))
    assert (got["payable"], got["count"]) == (want["payable"], want["count"])

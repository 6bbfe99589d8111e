""""Exile target creature. Its controller gains life equal to its power." (Swords to Plowshares) and
"Destroy target creature or planeswalker. Its controller investigates." (Fateful Absence): the
controller and power of the creature as it last existed on the battlefield (CR 608.2h) — its
counters and the effects then applying to it counted — against a plain computation of the rules
(CR 119.3: no life for a power of 0 or less; 701.16a: a Clue under that player's control)."""
from __future__ import annotations

import pytest

from mtgsolve.solver.api import Situation
from mtgsolve.solver.cards import get_card

BASE = {"format": "mtgsolve/1", "players": ["alice", {"id": "bob", "life": 10}],
        "turn": {"number": 3, "active": "alice", "step": "main1"}}


def _stp(counters: int, pumped: bool, power: int = 2) -> Situation:
    bears = {"id": "bears", "card": "Grizzly Bears" if power == 2 else "Memnite"}
    if counters:
        bears["counters"] = {"+1/+1": counters} if counters > 0 else {"-1/-1": -counters}
    d = {**BASE, "battlefield": {"bob": [bears]},
         "stack": [{"card": "Swords to Plowshares", "controller": "alice", "targets": [["bears"]]}]}
    if pumped:
        d["effects"] = [{"card": "Giant Growth", "controller": "alice", "targets": [["bears"]]}]
    return Situation.from_dict(d)


@pytest.mark.parametrize("counters,pumped,power", [(0, False, 2), (2, False, 2), (0, True, 2), (1, True, 2),
                                                   (0, False, 1), (0, False, 0)])
def test_life_equal_to_last_known_power(counters, pumped, power):
    base = 2 if power == 2 else 1   # Grizzly Bears 2/2; Memnite 1/1 (0: a 1/1 with a -1/-1 counter)
    if power == 0:
        counters = -1
    want = max(0, base + counters + (3 if pumped else 0))
    [(_c, out)] = _stp(counters, pumped, power).resolve()
    assert out.life("bob") == 10 + want
    assert [o.id for o in out.state.zone("exile", "bob")] == ["bears"]


def test_fateful_absence_gives_the_controller_a_clue():
    d = {**BASE, "battlefield": {"bob": [{"id": "bears", "card": "Grizzly Bears"}]},
         "stack": [{"card": "Fateful Absence", "controller": "alice", "targets": [["bears"]]}]}
    [(_c, out)] = Situation.from_dict(d).resolve()
    assert [o.card.name for o in out.state.zone("battlefield", "bob")] == ["Clue"]
    assert not out.state.zone("battlefield", "alice")


@pytest.mark.parametrize("name,kinds", [("Swords to Plowshares", ["exile", "its_controller_gains_life"]),
                                        ("Fateful Absence", ["destroy", "its_controller_investigates"])])
def test_reader(name, kinds):
    card = get_card(name)
    assert card.spell is not None and [e.kind for e in card.spell.effects] == kinds


def test_other_its_controller_sentences_stay_unread():
    """"Its controller gains life equal to its mana value" after a counterspell (Illumination): the
    controller of a spell as it last existed on the stack, unread. ("Its controller may search …", Path to
    Exile, is read since issue 26's library effects: tests/test_effects_library.py.)"""
    card = get_card("Illumination")
    assert card.spell is not None and any(e.kind == "unread" for e in card.spell.effects)

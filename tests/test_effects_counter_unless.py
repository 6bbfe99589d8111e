""""Counter target spell unless its controller pays {N}" (Force Spike {1}, Quench {2}, Mana Leak {3};
CR 118.12, 701.6a): read by grammar with any spell description and a fixed amount of mana, resolved
with the targeted spell's controller declining (the spell is countered) or paying — every distinct
payment an outcome — against tests/reference/unless_ref.py; in a game the choice is that player's
(:func:`solver.engine.resolution.unless_decider`); "unless … pays {X}" stays unread."""
from __future__ import annotations

import random

import pytest

from mtgsolve.solver.api import Situation
from mtgsolve.solver.cards import get_card
from tests.reference.unless_ref import unless_results

COUNTERS = {"Force Spike": 1, "Quench": 2, "Mana Leak": 3}


def _doc(counter: str, lands: list[tuple[str, bool]]) -> dict:
    bf = [{"id": f"land-{i}", "card": n, "tapped": t} for i, (n, t) in enumerate(lands)]
    return {"format": "mtgsolve/1", "players": ["alice", "bob"],
            "turn": {"number": 3, "active": "alice", "step": "main1", "priority": "bob"},
            "library": {"alice": ["Island"], "bob": ["Island"]},
            "battlefield": {"alice": bf},
            "stack": [{"card": counter, "controller": "bob", "targets": [["shock"]]},
                      {"card": "Shock", "id": "shock", "controller": "alice", "targets": [["bob"]]}]}


@pytest.mark.parametrize("counter", sorted(COUNTERS))
def test_matches_reference(counter):
    rng = random.Random(sorted(COUNTERS).index(counter))
    for _ in range(12):
        lands = [(rng.choice(["Mountain", "Island", "Forest"]), rng.random() < 0.3) for _ in range(rng.randint(0, 5))]
        sit = Situation.from_dict(_doc(counter, lands))
        got = []
        for choices, out in sit.resolve():
            unless = choices["unless"]
            assert unless["player"] == "alice"
            if unless["paid"]:
                assert [o.id for o in out.state.zone("stack")] == ["shock"]
                newly = [o.name for o in out.state.zone("battlefield", "alice") if o.tapped
                         and not dict(zip([f"land-{i}" for i in range(len(lands))], [t for _n, t in lands]))[o.id]]
                got.append(tuple(sorted(newly)))
            else:
                assert not out.state.zone("stack") and [o.name for o in out.state.zone("graveyard", "alice")] == ["Shock"]
                got.append(None)
        want = unless_results([n for n, t in lands if not t], COUNTERS[counter])
        assert len(got) == len(set(got)) and set(got) == want, (counter, lands)


def test_the_game_asks_the_spells_controller():
    """Following one path of the game, the player asked to pay chooses (CR 118.12), not the
    counterspell's controller."""
    d = _doc("Mana Leak", [("Mountain", False), ("Mountain", False), ("Island", False)])
    d["turn"] = {**d["turn"], "priority": "alice", "passed": ["bob"]}
    s = Situation.from_dict(d).apply("pass")
    assert s.decision is not None and s.player == "alice"
    assert len(list(s.legal_actions)) == 2


def test_cant_be_countered_is_not_countered():
    """CR 101.2: a spell that can't be countered stays on the stack when its controller declines."""
    d = _doc("Quench", [])
    d["stack"][1] = {"card": "Carnage Tyrant", "id": "shock", "controller": "alice"}
    [(choices, out)] = Situation.from_dict(d).resolve()
    assert choices["unless"] == {"player": "alice", "paid": False}
    assert [o.id for o in out.state.zone("stack")] == ["shock"]


@pytest.mark.parametrize("name,described", [
    ("Mana Leak", "counter target #1 unless its controller pays {3}"),
    ("Spell Pierce", "counter target #1 unless its controller pays {2}"),
    ("Daze", "counter target #1 unless its controller pays {1}"),
])
def test_reader_reads_counter_unless(name, described):
    card = get_card(name)
    assert card.spell is not None and [e.describe() for e in card.spell.effects] == [described]


def test_unless_x_stays_unread():
    card = get_card("Power Sink")
    assert card.spell is not None and any(e.kind == "unread" for e in card.spell.effects)

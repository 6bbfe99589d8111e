"""Ward (CR 702.21): the trigger (cast, activated, triggered abilities put on the stack with a
warded permanent among their targets, by an opponent), the stack object (``refers_to``), the
resolution (pay with every distinct payment, or decline: countered — unless it can't be), the
game decision, and a differential test against the brute-force reference
(tests/reference/ward_ref.py) on small random boards."""
from __future__ import annotations

import json

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from mtgsolve.solver.api import Situation
from mtgsolve.solver.core.errors import SituationError
from mtgsolve.solver.engine.resolution import resolve_top
from mtgsolve.solver.engine.ward import WardChoice
from mtgsolve.solver.io.dump import dump_state
from mtgsolve.solver.io.load import situation_from_dict

from reference.ward_ref import summary, ward_outcomes


def doc(battlefield, stack=None, hand=None, active="bob", players=("alice", "bob"), **kw) -> dict:
    d = {"format": "mtgsolve/1", "players": list(players), "turn": {"active": active},
         "battlefield": battlefield, "hand": hand or {}, **kw}
    if stack:
        d["stack"] = stack
    return d


def load(d: dict):
    return situation_from_dict(d).state


WARD_TOP = {"ability": {"source": "tomakul-honor-guard", "index": 1}, "controller": "alice", "refers_to": "shock"}
SHOCK = {"card": "Shock", "controller": "bob", "targets": [["tomakul-honor-guard"]]}


# --- the trigger (CR 702.21a, 603.2, 603.3) ------------------------------------------------------------

def test_casting_a_spell_at_an_opponents_warded_creature_triggers_ward():
    s = Situation.from_dict(doc({"alice": ["Tomakul Honor Guard"], "bob": ["Mountain", "Mountain", "Forest"]},
                                hand={"bob": ["Shock"]}))
    after = s.apply("cast shock -> tomakul-honor-guard paying mountain")
    stack = after.to_dict()["stack"]
    assert stack[0] == {"id": "ability-of-tomakul-honor-guard", "ability": {"source": "tomakul-honor-guard",
                                                                            "index": 1},
                        "controller": "alice", "refers_to": "shock"}
    assert [o["id"] for o in stack] == ["ability-of-tomakul-honor-guard", "shock"]
    face = s.apply("cast shock -> alice paying mountain")   # not a target: no trigger
    assert [o["id"] for o in face.to_dict()["stack"]] == ["shock"]


def test_no_ward_trigger_for_the_permanents_own_controller():
    """CR 702.21a: "a spell or ability an opponent controls"."""
    s = Situation.from_dict(doc({"bob": ["Tomakul Honor Guard", "Mountain"]}, hand={"bob": ["Shock"]}))
    after = s.apply("cast shock -> tomakul-honor-guard paying mountain")
    assert [o["id"] for o in after.to_dict()["stack"]] == ["shock"]


def test_two_warded_targets_trigger_two_ward_abilities_ordered_by_their_controller():
    s = Situation.from_dict(doc({"alice": ["Tomakul Honor Guard", "Waterfall Aerialist"],
                                 "bob": ["Plains", "Plains", "Plains"]}, hand={"bob": ["Dauntless Onslaught"]}))
    after = s.apply("cast dauntless-onslaught -> tomakul-honor-guard, waterfall-aerialist "
                    "paying plains, plains-2, plains-3")
    assert after.decision is not None and after.decision.kind == "choose" and after.player == "alice"
    chosen = after.apply(list(after.legal_actions)[0])
    stack = chosen.to_dict()["stack"]
    assert sorted(o.get("refers_to", "") for o in stack) == ["", "dauntless-onslaught", "dauntless-onslaught"]


def test_an_activated_ability_targeting_a_warded_creature_triggers_ward():
    s = Situation.from_dict(doc({"alice": ["Tomakul Honor Guard"], "bob": [{"card": "Prodigal Pyromancer"}]}))
    after = s.apply("activate prodigal-pyromancer:1 -> tomakul-honor-guard paying prodigal-pyromancer")
    stack = after.to_dict()["stack"]
    assert stack[0]["ability"]["source"] == "tomakul-honor-guard"
    assert stack[0]["refers_to"] == stack[1]["id"] and stack[1]["ability"]["source"] == "prodigal-pyromancer"


def test_a_triggered_ability_put_on_the_stack_with_a_warded_target_triggers_ward():
    """CR 603.3d: the enters trigger gets its target as it is put on the stack; ward triggers then."""
    state = load(doc({"alice": ["Island"], "bob": ["Tomakul Honor Guard"]}, active="alice",
                     stack=[{"card": "Man-o'-War", "controller": "alice"}]))
    res = resolve_top(state)
    by_target = {json.dumps(o.choices["triggers"][-1]["targets"]): o.state for o in res.outcomes}
    warded = by_target[json.dumps([["tomakul-honor-guard"]])]
    top = warded.zone("stack")[0]
    assert top.ability.source == "tomakul-honor-guard" and top.refers_to == "ability-of-man-o-war"
    assert top.controller == "bob"
    assert all(len(s.zone("stack")) == 1 for k, s in by_target.items() if "tomakul" not in k)


# --- the stack object: refers_to (contract extension) --------------------------------------------------

def test_refers_to_round_trips_through_dump():
    state = load(doc({"alice": ["Tomakul Honor Guard"], "bob": ["Mountain"]}, stack=[WARD_TOP, SHOCK]))
    assert state.obj("ability-of-tomakul-honor-guard").refers_to == "shock"
    again = situation_from_dict(dump_state(state)).state
    assert again == state and again.key() == state.key()


@pytest.mark.parametrize("entry, message", [
    ({**SHOCK, "refers_to": "ability-of-tomakul-honor-guard"}, "only for abilities on the stack"),
    ({**WARD_TOP, "refers_to": "mountain"}, "is not on the stack"),
    ({**WARD_TOP, "refers_to": "shok"}, "unknown object 'shok'"),
    ({**WARD_TOP, "refers_to": "ability-of-tomakul-honor-guard"}, "cannot refer to itself"),
])
def test_refers_to_errors_are_located(entry, message):
    stack = [entry, SHOCK] if "card" not in entry else [WARD_TOP, entry]
    with pytest.raises(SituationError) as e:
        load(doc({"alice": ["Tomakul Honor Guard"], "bob": ["Mountain"]}, stack=stack))
    assert message in str(e.value) and "refers_to" in str(e.value)


# --- resolution (CR 702.21a, 608.2) ---------------------------------------------------------------------

def _outcomes(d: dict):
    return resolve_top(load(d)).outcomes


def test_declining_counters_the_spell_paying_keeps_it():
    outs = _outcomes(doc({"alice": ["Tomakul Honor Guard"], "bob": ["Mountain", "Forest"]}, stack=[WARD_TOP, SHOCK]))
    assert [o.choices["ward"]["paid"] for o in outs] == [False, True]
    declined, paid = outs
    assert declined.state.obj("shock").zone == "graveyard" and not declined.state.zone("stack")
    assert [o.id for o in paid.state.zone("stack")] == ["shock"]
    assert paid.state.obj("mountain").tapped and paid.state.obj("forest").tapped


def test_ward_paid_from_the_pool():
    outs = _outcomes(doc({"alice": ["Tomakul Honor Guard"], "bob": []}, stack=[WARD_TOP, SHOCK],
                         mana_pool={"bob": "{R}{R}{G}"}))
    paid = [o for o in outs if o.choices["ward"]["paid"]]
    assert sorted(o.state.pool("bob").text for o in paid) == ["{G}", "{R}"]


def test_a_countered_ability_is_removed_from_the_stack():
    d = doc({"alice": ["Tomakul Honor Guard"], "bob": [{"card": "Prodigal Pyromancer", "tapped": True}]},
            stack=[{**WARD_TOP, "refers_to": "ability-of-prodigal-pyromancer"},
                   {"ability": {"source": "prodigal-pyromancer", "index": 1}, "controller": "bob",
                    "targets": [["tomakul-honor-guard"]]}])
    (declined,) = _outcomes(d)
    assert not declined.state.zone("stack") and declined.choices == {"ward": {"paid": False}}


def test_a_spell_that_cant_be_countered_stays_even_when_ward_is_declined():
    d = doc({"alice": ["Tomakul Honor Guard"], "bob": ["Swamp", "Swamp"]},
            stack=[{**WARD_TOP, "refers_to": "long-goodbye"},
                   {"card": "Long Goodbye", "controller": "bob", "targets": [["tomakul-honor-guard"]]}])
    outs = _outcomes(d)
    assert len(outs) == 2 and all([o.id for o in x.state.zone("stack")] == ["long-goodbye"] for x in outs)


def test_counterspell_cant_counter_a_spell_that_cant_be_countered():
    """CR 101.2: "This spell can't be countered" is read, and the counter effect honours it."""
    d = doc({"alice": ["Island"], "bob": ["Tomakul Honor Guard"]}, active="alice",
            stack=[{"card": "Counterspell", "controller": "alice", "targets": [["long-goodbye"]]},
                   {"card": "Long Goodbye", "controller": "bob", "targets": [["tomakul-honor-guard"]]}])
    (out,) = _outcomes(d)
    assert [o.id for o in out.state.zone("stack")] == ["long-goodbye"]
    assert out.state.obj("counterspell").zone == "graveyard"


# --- the game: a ward decision for the targeting spell's controller ---------------------------------------

def test_the_game_asks_the_spells_controller_to_pay_or_decline():
    s = Situation.from_dict(doc({"alice": ["Tomakul Honor Guard"], "bob": ["Mountain", "Mountain", "Forest"]},
                                hand={"bob": ["Shock"]}))
    s = s.apply("cast shock -> tomakul-honor-guard paying mountain").apply("pass").apply("pass")
    assert s.decision is not None and s.decision.kind == "ward" and s.player == "bob"
    options = list(s.legal_actions)
    assert [str(o) for o in options][0] == "ward decline"
    assert all(isinstance(o.value, WardChoice) for o in options)
    assert [o.value.paid for o in options] == [False, True]
    declined = s.apply("ward decline")
    assert declined.zone("graveyard", "bob") == ["shock"] and declined.decision is None
    paid = s.apply(options[1])
    assert paid.stack == ["shock"]


# --- the brute-force reference (tests/reference/ward_ref.py) ---------------------------------------------

WARDED = ["Tomakul Honor Guard", "Rimeshield Frost Giant", "Owlin Shieldmage",
          {"name": "Ward Two And Two", "manaCost": "{2}", "type": "Creature — Bear", "types": ["Creature"],
           "text": "Ward—{2}, Pay 2 life.", "power": "2", "toughness": "2"}]
SOURCES = ["Mountain", "Forest", "Plains", "Island", "Llanowar Elves"]


@st.composite
def ward_boards(draw):
    creature = draw(st.sampled_from(WARDED))
    cid = "warded"
    lands = draw(st.lists(st.tuples(st.sampled_from(SOURCES), st.sampled_from([False, False, True])), max_size=5))
    bob = [{"card": name, "tapped": tapped} for name, tapped in lands]
    spell = draw(st.sampled_from(["Shock", "Long Goodbye", None]))
    pool = draw(st.sampled_from(["", "{R}", "{G}{G}", "{C}"]))
    life = draw(st.integers(1, 6))
    stack = [{"ability": {"source": cid, "index": 1}, "controller": "alice"}]
    if spell is not None:
        stack[0]["refers_to"] = "spell"
        stack.append({"id": "spell", "card": spell, "controller": "bob", "targets": [[cid]]})
    d = doc({"alice": [{"id": cid, "card": creature}], "bob": bob}, stack=stack,
            players=("alice", {"id": "bob", "life": life}))
    if pool:
        d["mana_pool"] = {"bob": pool}
    return load(d)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(ward_boards())
def test_engine_matches_the_brute_force_ward_reference(state):
    expected = sorted(ward_outcomes(state), key=lambda s: json.dumps(s, sort_keys=True))
    got = []
    for o in resolve_top(state).outcomes:
        rec = o.choices.get("ward")
        paid = rec.get("payment") if rec and rec["paid"] else None
        got.append(summary(o.state, paid, bool(rec) and not rec["paid"]))
    got.sort(key=lambda s: json.dumps(s, sort_keys=True))
    assert got == expected

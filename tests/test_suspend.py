"""Suspend from the hand, a special action (CR 116.2f, 702.62a): the reader, the ``actions`` and
``pay`` queries, the soundness rule of reach (both ways), the Python API (strings, ``apply``, the
encoding's slot) and a differential test of the ``actions`` query against the brute-force reference
(tests/reference/actions_ref.py) on random boards with suspend cards in the hands.
``MTGSOLVE_EXAMPLES`` scales the number of boards; ``CI=true`` derandomizes them."""
from __future__ import annotations

import json
import os

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from reference.actions_ref import reference_actions
from reference.pay_ref import brute_pay
from mtgsolve.solver.core import ir
from mtgsolve.solver.api import Action, InvalidActionError, Situation
from mtgsolve.solver.cards import get_card
from mtgsolve.solver.core.errors import QueryError
from mtgsolve.solver.queries import answer
from mtgsolve.solver.io.load import situation_from_dict

EXAMPLES = int(os.environ.get("MTGSOLVE_EXAMPLES", "400")) // 4


def state_of(**kw):
    d = {"format": "mtgsolve/1", "players": ["alice", "bob"], "turn": {"number": 3, "active": "alice", "step": "main1"}}
    d.update(kw)
    return situation_from_dict(d).state


def inline(text: str, types: str = "Sorcery", cost: str = "{2}{U}") -> dict:
    return {"card": {"name": "Moon Sleeper", "manaCost": cost, "type": types, "types": [types], "text": text}}


# ---------------------------------------------------------------------------
# The reader
# ---------------------------------------------------------------------------

def _suspend(name: str) -> list:
    return [a for a in get_card(name).abilities if isinstance(a, ir.Suspend)]


def test_suspend_is_read_with_counters_and_cost():
    (bolt,) = _suspend("Rift Bolt")                      # reminder text ignored
    assert bolt.time_counters == 1 and bolt.mana.text == "{R}"
    (end,) = _suspend("Living End")                      # no reminder text, no mana cost
    assert end.time_counters == 3 and end.mana.text == "{2}{B}{B}"
    (bloom,) = _suspend("Lotus Bloom")                   # "Suspend 3—{0}"
    assert bloom.time_counters == 3 and bloom.mana.text == "{0}"
    # the two triggered abilities, which function in exile (CR 702.62a, 113.6), are read
    card = get_card("Rift Bolt")
    assert not [a for a in card.abilities if isinstance(a, ir.Unsupported)]
    upkeep, last = [a for a in card.abilities if isinstance(a, ir.TriggeredAbility)]
    assert upkeep.trigger == ir.StepTrigger("upkeep", "you", zone="exile")
    assert upkeep.effects == (ir.RemoveCounter("time", exiled=True),)
    assert last.trigger == ir.LastCounterRemovedTrigger("time", zone="exile")
    assert last.effects == (ir.CastSuspended(),)


def test_suspend_x_is_not_read():
    from mtgsolve.solver.cards import CardData, read_card

    d = CardData.from_mtgjson({"name": "Moon X", "manaCost": "{3}{R}", "type": "Sorcery", "types": ["Sorcery"],
                               "text": "Suspend X—{X}{R}{R}. X can't be 0."})
    assert not [a for a in read_card(d).abilities if isinstance(a, ir.Suspend)]


# ---------------------------------------------------------------------------
# actions and pay
# ---------------------------------------------------------------------------

def test_actions_list_suspend_with_payments():
    s = state_of(battlefield={"alice": ["Mountain", "Mountain", "Swamp", "Swamp"]},
                 hand={"alice": ["Rift Bolt", "Living End", "Lotus Bloom"]})
    got = answer(s, {"kind": "actions"})
    assert got["status"] == "ok"
    sus = [a for a in got["actions"] if a["kind"] == "suspend"]
    assert sus == [{"kind": "suspend", "object": "living-end", "payments": 1},
                   {"kind": "suspend", "object": "lotus-bloom", "payments": 1},     # {0}: one empty payment
                   {"kind": "suspend", "object": "rift-bolt", "payments": 1}]
    assert got["actions"][-3:] == sus                                             # the last kind in order
    assert not any(a["kind"] == "cast" and a["object"] in ("living-end", "lotus-bloom") for a in got["actions"])


def test_suspend_timing_follows_casting():
    # an instant with suspend: any time its owner has priority (CR 116.2f, 304.1)
    s = state_of(turn={"number": 4, "active": "bob", "step": "end", "priority": "alice"},
                 battlefield={"alice": ["Island"]}, hand={"alice": [inline("Suspend 2—{U}", "Instant"), "Rift Bolt"]})
    kinds = [(a["kind"], a.get("object")) for a in answer(s, {"kind": "actions"})["actions"]]
    assert kinds == [("pass", None), ("suspend", "moon-sleeper")]
    # Teferi, Time Raveler: opponents only as a sorcery (CR 601.3) — then no suspending an instant either
    s = state_of(turn={"number": 4, "active": "bob", "step": "end", "priority": "alice"},
                 battlefield={"alice": ["Island"], "bob": ["Teferi, Time Raveler"]},
                 hand={"alice": [inline("Suspend 2—{U}", "Instant")]})
    assert [a["kind"] for a in answer(s, {"kind": "actions"})["actions"]] == ["pass"]
    # no priority, no action (CR 117.1c)
    s = state_of(turn={"number": 4, "active": "bob", "step": "end", "priority": "bob"},
                 battlefield={"alice": ["Island"]}, hand={"alice": [inline("Suspend 2—{U}", "Instant")]})
    assert answer(s, {"kind": "actions", "player": "alice"})["actions"] == []


def test_pay_suspend_form_and_errors():
    s = state_of(battlefield={"alice": ["Mountain", "Mountain", "Plains"], "bob": ["Thalia, Guardian of Thraben"]},
                 hand={"alice": ["Rift Bolt"], "bob": ["Rift Bolt"]}, graveyard={"alice": ["Lotus Bloom"]})
    got = answer(s, {"kind": "pay", "suspend": "rift-bolt"})
    assert got["status"] == "ok" and got["count"] == 1 and got["payments"][0]["tap"] == ["mountain"]
    assert answer(s, {"kind": "pay", "cast": "rift-bolt"})["payable"] is False   # {3}{R} under Thalia: not for suspend
    for q in ({"suspend": "rift-bolt-2"}, {"suspend": "lotus-bloom"}, {"suspend": "mountain"},
              {"suspend": "nope"}, {"suspend": "rift-bolt", "cast": "rift-bolt"}):
        with pytest.raises(QueryError):
            answer(s, {"kind": "pay", **q})


# ---------------------------------------------------------------------------
# Soundness, both ways
# ---------------------------------------------------------------------------

def test_read_suspend_no_longer_blocks_actions_or_pay():
    s = state_of(battlefield={"alice": ["Mountain"]}, hand={"alice": ["Rift Bolt", "Living End", "Ancestral Vision"]})
    assert answer(s, {"kind": "actions"})["status"] == "ok"
    assert answer(s, {"kind": "pay", "suspend": "living-end"})["status"] == "ok"
    # an unread suspend ("Suspend X—…") still blocks its owner's actions, not the opponent's
    s = state_of(battlefield={"alice": ["Mountain"], "bob": ["Mountain"]},
                 hand={"alice": [inline("Suspend X—{X}{R}{R}. X can't be 0.", "Sorcery", "{3}{R}")]})
    assert answer(s, {"kind": "actions"})["status"] == "unsupported"
    assert answer(s, {"kind": "actions", "player": "bob"})["status"] == "ok"


def test_suspended_card_in_exile_triggers_in_its_owners_upkeep_only():
    """Read both ways: the suspended card blocks nothing; its upkeep ability triggers in its owner's upkeep
    only, from exile only (CR 702.62a, 113.6) — not from the hand, graveyard or battlefield."""
    s = state_of(turn={"number": 3, "active": "alice", "step": "end"}, battlefield={"alice": ["Mountain"]},
                 exile={"alice": [{"card": "Rift Bolt", "counters": {"time": 1}}]})
    assert answer(s, {"kind": "actions"})["status"] == "ok"
    assert answer(s, {"kind": "pay", "cost": "{R}"})["status"] == "ok"
    ends = {"number": 3, "active": "bob", "step": "end", "priority": "alice", "passed": ["bob"]}
    s = state_of(turn=ends, battlefield={"alice": ["Mountain"]},
                 exile={"alice": [{"card": "Rift Bolt", "counters": {"time": 1}}]})
    (out,) = answer(s, {"kind": "pass"})["outcomes"]
    assert [o["ability"] for o in out["situation"]["stack"]] == [{"source": "rift-bolt", "index": 1}]
    s = state_of(battlefield={"alice": ["Mountain"]}, stack=[{"card": "Shock", "controller": "alice",
                                                           "targets": [["bob"]]}],
                 exile={"alice": [{"card": "Rift Bolt", "counters": {"time": 1}}]})
    assert answer(s, {"kind": "resolve"})["status"] == "ok"
    # in the hand, graveyard or on the battlefield the triggers don't function (CR 702.62a, 113.6)
    for zone in ("hand", "graveyard"):
        s = state_of(turn=ends, **{zone: {"alice": ["Rift Bolt"]}})
        (out,) = answer(s, {"kind": "pass"})["outcomes"]
        assert "stack" not in out["situation"], zone
    s = state_of(turn=ends, battlefield={"alice": [{"card": "Lotus Bloom", "counters": {"time": 2}}]})
    (out,) = answer(s, {"kind": "pass"})["outcomes"]
    assert "stack" not in out["situation"]


# ---------------------------------------------------------------------------
# The Python API
# ---------------------------------------------------------------------------

def test_api_suspends_into_exile_with_time_counters():
    sit = Situation(state_of(battlefield={"alice": ["Mountain", "Swamp"]},
                             hand={"alice": ["Rift Bolt", "Lotus Bloom"]}))
    acts = [str(a) for a in sit.legal_actions]
    assert acts == ["pass", "suspend lotus-bloom paying nothing", "suspend rift-bolt paying mountain"]
    assert sit.legal_actions.count() == 3
    assert sit.is_legal("suspend rift-bolt") and not sit.is_legal("suspend rift-bolt paying swamp")
    after = sit.apply("suspend rift-bolt")
    d = after.to_dict()
    assert d["exile"]["alice"] == [{"id": "rift-bolt", "card": "Rift Bolt", "counters": {"time": 1},
                                    "timestamp": d["exile"]["alice"][0]["timestamp"]}]
    assert after.player == "alice" and after.stack == []                     # no stack; priority kept (CR 116.3)
    assert "mountain" in [o["id"] for o in d["battlefield"]["alice"] if o.get("tapped")]
    assert [str(a) for a in after.legal_actions] == ["pass", "suspend lotus-bloom paying nothing"]
    bloom = sit.apply("suspend lotus-bloom paying nothing")
    assert bloom.to_dict()["exile"]["alice"][0]["counters"] == {"time": 3}


def test_api_suspend_strings_and_json():
    a = Action.parse("suspend rift-bolt paying mountain")
    assert a.kind == "suspend" and str(a) == "suspend rift-bolt paying mountain"
    assert Action.from_json(a.to_json()) == a and Action.parse(str(a)) == a
    assert Action.from_json({"kind": "suspend", "object": "rift-bolt", "payments": 1}) == Action.parse("suspend rift-bolt")
    with pytest.raises(InvalidActionError):
        Action("suspend", "rift-bolt", targets=(("bob",),))
    sit = Situation(state_of(turn={"number": 4, "active": "bob", "step": "main1", "priority": "alice"},
                             battlefield={"alice": ["Mountain"]}, hand={"alice": ["Rift Bolt"]}))
    v = sit.is_legal("suspend rift-bolt")
    assert not v and "CR 116.2f" in (v.reason or "")


def test_mask_and_encoding_have_suspend_slots():
    from mtgsolve.solver.api.encoding import ActionEncoding

    sit = Situation(state_of(battlefield={"alice": ["Mountain"]}, hand={"alice": ["Rift Bolt"]}))
    mask, cands = sit.legal_actions_mask()
    assert [str(a) for a, m in zip(cands, mask) if m] == ["pass", "suspend rift-bolt"]
    enc = ActionEncoding(sit)
    legal = sorted(enc.describe(i) for i in range(enc.size) if enc.mask(sit)[i])
    assert legal == ["pass", "suspend rift-bolt"]
    assert str(enc.decode(sit, enc.index[("suspend", "rift-bolt")])) == "suspend rift-bolt"


# ---------------------------------------------------------------------------
# Differential test against the brute-force reference
# ---------------------------------------------------------------------------

LANDS = ["Mountain", "Swamp", "Island", "Forest", "City of Brass", "Pillar of the Paruns", "Ancient Tomb"]
PERMANENTS = ["Leyline of Anticipation", "Teferi, Time Raveler", "Thalia, Guardian of Thraben", "Llanowar Elves",
              "Sol Ring", "Grizzly Bears"]
HAND = ["Rift Bolt", "Living End", "Lotus Bloom", "Ancestral Vision", "Search for Tomorrow", "Crashing Footfalls",
        "Errant Ephemeron", "Wheel of Fate", "Shock", "Mountain"]
STEPS = ["main1"] * 5 + ["main2", "upkeep", "end", "untap"]


@st.composite
def boards(draw):
    d = {"format": "mtgsolve/1", "players": ["alice", "bob"]}
    active = draw(st.sampled_from(["alice", "alice", "bob"]))
    priority = draw(st.sampled_from(["alice"] * 4 + ["bob"]))
    d["turn"] = {"number": 3, "active": active, "priority": priority, "step": draw(st.sampled_from(STEPS)),
                 "lands_played": draw(st.sampled_from([0, 1]))}

    def perm(names):
        return st.tuples(st.sampled_from(names), st.booleans(), st.booleans()).map(
            lambda t: {"card": t[0], "tapped": t[1], "sick": t[2]})
    d["battlefield"] = {"alice": draw(st.lists(perm(LANDS), max_size=4)) + draw(st.lists(perm(PERMANENTS), max_size=1)),
                        "bob": draw(st.lists(st.one_of(perm(LANDS), perm(PERMANENTS)), max_size=2))}
    d["hand"] = {"alice": draw(st.lists(st.sampled_from(HAND), max_size=3)),
                 "bob": draw(st.lists(st.sampled_from(HAND), max_size=2))}
    if draw(st.integers(0, 3)) == 0:
        d["mana_pool"] = {"alice": draw(st.sampled_from(["{R}", "{G}{B}", "{C}"]))}
    return d


@settings(max_examples=EXAMPLES, deadline=None, derandomize=os.environ.get("CI") == "true",
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(boards())
def test_matches_brute_force_reference(d):
    state = situation_from_dict(d).state
    for player in ("alice", "bob"):
        got = answer(state, {"kind": "actions", "player": player})
        assert got["status"] == "ok", got
        entries = [{k: v for k, v in a.items() if k != "unread"} for a in got["actions"]]
        assert entries == reference_actions(state, player), d
    for o in state.objects:   # the pay query's suspend form: every payment of the plain mana cost
        sus = [a for a in (o.card.abilities if o.card else ()) if isinstance(a, ir.Suspend)]
        if o.zone == "hand" and sus:
            got = answer(state, {"kind": "pay", "suspend": o.id, "player": o.owner})
            ref = brute_pay(state, {"kind": "pay", "cost": sus[0].mana.text, "player": o.owner})
            assert got["count"] == ref["count"], d
            assert sorted(json.dumps(p, sort_keys=True) for p in got["payments"]) == ref["payments"], d
    sit = Situation(state)
    summary = answer(state, {"kind": "actions"})
    mask, cands = sit.legal_actions_mask()
    heads = [a for a, m in zip(cands, mask) if m]
    assert [a.to_json() for a in heads] == [{k: v for k, v in e.items() if k in ("kind", "object", "index")}
                                            for e in summary["actions"]]
    assert sit.legal_actions.count() == sum(e.get("targets", 1) * e.get("payments", 1) for e in summary["actions"])

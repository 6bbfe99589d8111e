"""What a trigger event names, in the effect (CR 603.2, 608.2c, 400.7): the object ("it", "that
creature" after "whenever a creature … enters / attacks") and the player ("that player" after combat
damage to a player, an opponent's cast) — read by the reader (``Ref`` kinds ``event_object`` /
``event_player``), recorded by the kernel on the pending trigger and the stack ability (object keys
``event_object`` / ``event_player``), found by resolution while the object is the same object.

Checked against an independent reference (attack triggers of several observers over several
attackers: one ability per observer and attacker, each naming its attacker, CR 603.2c; after they
all resolve each attacker has one counter per observer), and for soundness both ways: what is read
now, and what still blocks (a lasting effect on "that player", a dies trigger's "it" but to exile or
return the card, "that player" after a
cast of your own)."""
from __future__ import annotations

from collections import Counter

import pytest
from hypothesis import given, settings, strategies as st

from mtgsolve.solver.cards import get_card
from mtgsolve.solver.core import ir
from mtgsolve.solver.core.events import Attacked
from mtgsolve.solver.engine.transition import event_triggers
from mtgsolve.solver.io.dump import dump_state
from mtgsolve.solver.io.load import situation_from_dict
from mtgsolve.solver.queries import answer

GLEAMER = {"name": "Gleamer", "types": ["Enchantment"],
           "text": "Whenever a creature you control attacks, put a +1/+1 counter on it."}


def _triggered(card: object) -> ir.TriggeredAbility:
    c = get_card(card) if isinstance(card, str) else situation_from_dict(
        {"format": "mtgsolve/1", "players": ["alice", "bob"], "battlefield": {"alice": [{"card": card}]}}
    ).state.battlefield[0].card
    assert c is not None
    found = [a for a in c.abilities if isinstance(a, ir.TriggeredAbility)]
    assert found, c.abilities
    return found[0]


# --- the reader --------------------------------------------------------------------------------------

@pytest.mark.parametrize("name,kind", [
    ("Good-Fortune Unicorn", "event_object"),   # whenever another creature you control enters … on it
    ("Gleam of Battle", "event_object"),        # whenever a creature you control attacks … on it
    ("Abyssal Specter", "event_player"),        # deals damage to a player, that player discards
    ("Oppression", "event_player"),             # whenever a player casts a spell, that player discards
    ("Kambal, Consul of Allocation", "event_player"),
])
def test_event_references_are_read(name, kind):
    a = _triggered(name)
    assert not any(isinstance(e, ir.UnreadEffect) for e in a.effects)
    assert ir.event_ref_kinds(a.effects) == {kind}


@pytest.mark.parametrize("text", [
    # a lasting effect on the player: the effects list records the event's object, not its player
    "Whenever an opponent casts a spell, that player can't cast spells this turn.",
    # dies: only exiling or returning the card it became in the graveyard is read (CR 400.7d)
    "Whenever another creature dies, put a +1/+1 counter on it.",
    "Whenever another creature you control dies, tap it.",
    # "that player" names no player of your own cast
    "Whenever you cast a spell, that player loses 1 life.",
])
def test_what_the_event_does_not_name_stays_unread(text):
    doc = {"format": "mtgsolve/1", "players": ["alice", "bob"],
           "battlefield": {"alice": [{"card": {"name": "Probe", "types": ["Enchantment"], "text": text}}]}}
    card = situation_from_dict(doc).state.battlefield[0].card
    assert card is not None
    read = [a for a in card.abilities if isinstance(a, ir.TriggeredAbility)
            and not any(isinstance(e, ir.UnreadEffect) for e in a.effects)]
    assert not read, read


def test_a_lasting_effect_follows_the_object_until_it_changes_zones():
    """CR 611.2a, 400.7: "it gets +2/+2 until end of turn" (Fervent Charge) applies to the attacking
    creature the trigger named — recorded in the effects entry (``event_object``) — and to nothing
    once that creature has left the battlefield and come back (a new object)."""
    from mtgsolve.solver.rules.characteristics import View
    doc = {"format": "mtgsolve/1", "players": ["alice", "bob"],
           "turn": {"number": 4, "active": "alice", "step": "declare_attackers"},
           "battlefield": {"alice": ["Fervent Charge", {"card": "Grizzly Bears", "attacking": "bob"}]},
           "stack": [{"ability": {"source": "fervent-charge", "index": 1}, "controller": "alice",
                      "event_object": "grizzly-bears"}]}
    res = answer(situation_from_dict(doc).state, {"kind": "resolve"})
    after = situation_from_dict(res["outcomes"][0]["situation"]).state
    c = View(after).chars("grizzly-bears")
    assert (c.power, c.toughness) == (4, 4)
    assert dump_state(after)["effects"][0]["event_object"] == "grizzly-bears"
    blink = dict(res["outcomes"][0]["situation"])
    blink["stack"] = [{"card": "Unsummon", "controller": "bob", "targets": [["grizzly-bears"]]}]
    gone = answer(situation_from_dict(blink).state, {"kind": "resolve"})["outcomes"][0]["situation"]
    assert "effects" not in gone  # the entry affected only that object: removed (CR 400.7)


def test_a_dies_trigger_names_the_card_until_it_leaves_the_graveyard():
    """CR 400.7d: two Chaos Shrine's Black Crystals see one creature die; both abilities name its card
    in the graveyard. The first exiles it; the second then names nothing (the card in exile is a new
    object) and does nothing."""
    doc = {"format": "mtgsolve/1", "players": ["alice", "bob"], "turn": {"number": 4, "active": "alice",
                                                                          "step": "main1"},
           "battlefield": {"alice": ["Chaos Shrine's Black Crystal", "Chaos Shrine's Black Crystal",
                                     {"card": "Grizzly Bears", "damage": 1}]},
           "stack": [{"card": "Shock", "controller": "bob", "targets": [["grizzly-bears"]]}]}
    res = answer(situation_from_dict(doc).state, {"kind": "resolve"})
    assert res["status"] == "ok"
    after = res["outcomes"][0]["situation"]
    assert [o.get("event_object") for o in after["stack"]] == ["grizzly-bears", "grizzly-bears"]
    once = answer(situation_from_dict(after).state, {"kind": "resolve"})["outcomes"][0]["situation"]
    assert once["exile"] == {"alice": [{"id": "grizzly-bears", "card": "Grizzly Bears"}]}
    assert [o.get("event_object") for o in once["stack"]] == [None]
    twice = answer(situation_from_dict(once).state, {"kind": "resolve"})["outcomes"][0]["situation"]
    assert twice["exile"] == once["exile"] and not twice.get("stack")


def test_the_source_own_event_keeps_self():
    """"When this creature enters, put a +1/+1 counter on it": "it" is the source (SELF)."""
    a = _triggered({"name": "Selfie", "types": ["Creature"], "power": 1, "toughness": 1,
                    "text": "When this creature enters, put a +1/+1 counter on it."})
    assert not ir.event_ref_kinds(a.effects)


# --- the kernel against a reference -------------------------------------------------------------------

def _board(observers: int, attackers: int) -> dict:
    return {"format": "mtgsolve/1", "players": ["alice", "bob"],
            "turn": {"number": 3, "active": "alice", "step": "declare_attackers"},
            "battlefield": {"alice": [{"card": GLEAMER} for _ in range(observers)]
                            + [{"card": "Grizzly Bears", "attacking": "bob"} for _ in range(attackers)]}}


def _bear_ids(n: int) -> list[str]:
    return ["grizzly-bears"] + [f"grizzly-bears-{i}" for i in range(2, n + 1)]


def _gleamer_ids(n: int) -> list[str]:
    return ["gleamer"] + [f"gleamer-{i}" for i in range(2, n + 1)]


@settings(max_examples=15, deadline=None)
@given(st.integers(1, 2), st.integers(1, 3))
def test_attack_triggers_name_each_attacker(observers, attackers):
    state = situation_from_dict(_board(observers, attackers)).state
    bears = _bear_ids(attackers)
    pending = event_triggers(state, [Attacked("alice", tuple(bears))])
    got = Counter((p.source, p.event_object) for p in pending)
    # reference (CR 603.2c): once for each attacking creature, for each observer, naming it
    assert got == Counter((g, b) for g in _gleamer_ids(observers) for b in bears)


@settings(max_examples=8, deadline=None)
@given(st.integers(1, 2), st.integers(1, 2))
def test_after_the_triggers_resolve_each_attacker_has_one_counter_per_observer(observers, attackers):
    state = situation_from_dict(_board(observers, attackers)).state
    bears = _bear_ids(attackers)
    pending = event_triggers(state, [Attacked("alice", tuple(bears))])
    doc = _board(observers, attackers)
    doc["stack"] = [{"ability": {"source": p.source, "index": p.index}, "controller": "alice",
                     "event_object": p.event_object} for p in pending]
    for _ in pending:
        res = answer(situation_from_dict(doc).state, {"kind": "resolve"})
        assert res["status"] == "ok" and res["count"] == 1, res
        doc = res["outcomes"][0]["situation"]
    counters = {o["id"]: o.get("counters", {}).get("+1/+1", 0) for o in doc["battlefield"]["alice"]}
    assert {b: counters[b] for b in bears} == {b: observers for b in bears}
    assert not doc.get("stack")


# --- resolution: the same object only ------------------------------------------------------------------

def _unicorn(stack_extra: list, bears_zone: str = "battlefield") -> dict:
    doc: dict = {"format": "mtgsolve/1", "players": ["alice", "bob"],
                 "turn": {"number": 4, "active": "alice", "step": "main1"},
                 "battlefield": {"alice": ["Good-Fortune Unicorn"]},
                 "stack": stack_extra + [{"ability": {"source": "good-fortune-unicorn", "index": 1},
                                          "controller": "alice", "event_object": "grizzly-bears"}]}
    doc.setdefault(bears_zone, {}).setdefault("alice", []).append("Grizzly Bears")
    return doc


def test_an_object_in_another_zone_is_refused_not_guessed():
    """A counter on a card in the graveyard (a situation may write such a reference; the reader reads
    only exiling or returning it, CR 400.7d): refused, never ``ok``."""
    res = answer(situation_from_dict(_unicorn([], bears_zone="graveyard")).state, {"kind": "resolve"})
    assert res["status"] != "ok"


def test_the_reference_round_trips_and_keys_the_state():
    s1 = situation_from_dict(_unicorn([])).state
    assert s1.obj("ability-of-good-fortune-unicorn").event_object == "grizzly-bears"
    again = situation_from_dict(dump_state(s1)).state
    assert again.obj("ability-of-good-fortune-unicorn").event_object == "grizzly-bears" and again.key() == s1.key()
    doc = _unicorn([])
    del doc["stack"][0]["event_object"]
    assert situation_from_dict(doc).state.key() != s1.key()


@pytest.mark.parametrize("key,value,message", [
    ("event_player", "grizzly-bears", "not a player"),
    ("event_object", "nowhere", "unknown object"),
])
def test_the_loader_checks_the_references(key, value, message):
    doc = _unicorn([])
    doc["stack"][0][key] = value
    with pytest.raises(Exception, match=message):
        situation_from_dict(doc)


def test_only_abilities_on_the_stack_carry_them():
    doc = _unicorn([])
    doc["battlefield"]["alice"] = [{"card": "Good-Fortune Unicorn", "event_player": "bob"}]
    with pytest.raises(Exception, match="only for abilities on the stack"):
        situation_from_dict(doc)


def test_an_ability_that_does_not_read_its_event_records_nothing():
    """Soul Warden's ability reads no event reference: two of them triggered by one creature stay
    without one (their order on the stack is as before, CR 603.3b)."""
    doc = {"format": "mtgsolve/1", "players": ["alice", "bob"], "turn": {"number": 4, "active": "bob",
                                                                          "step": "main1"},
           "battlefield": {"alice": ["Soul Warden"]}, "stack": [{"card": "Grizzly Bears", "controller": "bob"}]}
    res = answer(situation_from_dict(doc).state, {"kind": "resolve"})
    assert res["status"] == "ok"
    assert all("event_object" not in o and "event_player" not in o
               for out in res["outcomes"] for o in out["situation"].get("stack", []))

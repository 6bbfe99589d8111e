"""The action applier changes the state through the kernel only (``docs/kernel.md``, issue 23):
the last known information of an activated ability's source that left as the cost was paid is
the kernel's one format (:func:`solver.engine.transition._lki_entries`, CR 608.2h, 113.7a); what
``move`` notes as not modeled refuses the action."""
from __future__ import annotations

import pytest

from mtgsolve.solver.api import Situation, UnsupportedActionError
from mtgsolve.solver.engine.apply import apply_action


def sit(**kw) -> Situation:
    d = {"format": "mtgsolve/1", "players": ["alice", "bob"],
         "turn": {"number": 3, "active": "alice", "step": "main1"}}
    d.update(kw)
    return Situation.from_dict(d)


def test_a_sacrificed_source_leaves_the_kernels_last_known_information():
    # CR 608.2h: the ability uses its source as it last existed on the battlefield — here the one
    # thing that differs from the card in the graveyard is its +1/+1 counter (owner, controller and
    # card are the graveyard card's own, so the kernel does not repeat them)
    s = sit(battlefield={"alice": [{"card": "Mogg Fanatic", "counters": {"+1/+1": 1}}]})
    after = s.apply("activate mogg-fanatic:1 -> bob paying sacrificing mogg-fanatic")
    (ab,) = after.state.zone("stack")
    assert ab.ability.source == "mogg-fanatic" and after.state.obj("mogg-fanatic").zone == "graveyard"
    assert ab.last_known == (("counters", (("+1/+1", 1),)),)
    [(choices, resolved)] = after.resolve()
    assert resolved.state.player("bob").life == 19


def test_a_stolen_source_remembers_its_controller():
    s = sit(battlefield={"alice": [{"card": "Mogg Fanatic", "owner": "bob"}]})
    after = s.apply("activate mogg-fanatic:1 -> bob paying sacrificing mogg-fanatic")
    (ab,) = after.state.zone("stack")
    assert ab.last_known == (("controller", "alice"),)
    assert after.state.obj("mogg-fanatic").zone == "graveyard" and after.state.obj("mogg-fanatic").owner == "bob"


def test_the_chosen_color_is_last_known_information():
    # "the chosen color" (CR 614.12) of a permanent that left: the new object has no chosen value
    from mtgsolve.solver.core.state import GameObject
    from mtgsolve.solver.engine.transition import _lki_entries

    o = GameObject(id="x", zone="battlefield", owner="alice", controller="alice", card=None,
                   chosen=(("color", "red"),), tapped=True)
    assert _lki_entries(o) == (("tapped", True), ("chosen", (("color", "red"),)))


# --- what move notes as not modeled is read: the action is refused, as the turn engine refuses ----

def _viscera_seer_sacrificing(creature: str):
    """The engine's applier itself (the api's soundness check refuses Kitchen Finks' unread text
    before it is reached)."""
    s = sit(battlefield={"alice": ["Viscera Seer", creature]})
    oid = creature.lower().replace(" ", "-")
    action = s.complete(f"activate viscera-seer:1 paying sacrificing {oid}")
    return apply_action(s.state, s.view, s.player, action)


def test_an_action_that_moves_unmodeled_text_is_refused():
    # Kitchen Finks sacrificed as a cost dies: its persist (not modeled) would return it (CR 702.79a)
    with pytest.raises(UnsupportedActionError, match="kitchen-finks leaves the battlefield; not modeled: persist"):
        _viscera_seer_sacrificing("Kitchen Finks")


def test_an_action_that_moves_only_modeled_text_is_applied():
    applied = _viscera_seer_sacrificing("Grizzly Bears")
    assert applied.state.obj("grizzly-bears").zone == "graveyard"
    assert [o.id for o in applied.state.zone("stack")] == ["ability-of-viscera-seer"]


def test_playing_a_land_with_unmodeled_text_is_refused_and_a_plain_one_is_not():
    # Dark Depths' triggered ability is not read: the turn engine would refuse what follows, so
    # apply refuses the play itself (before: the land was put onto the battlefield silently)
    with pytest.raises(UnsupportedActionError, match="dark-depths enters the battlefield; not modeled"):
        sit(hand={"alice": ["Dark Depths"]}).apply("play dark-depths")
    after = sit(hand={"alice": ["Forest"]}).apply("play forest")
    assert after.state.obj("forest").zone == "battlefield"


def test_a_card_returning_to_the_battlefield_is_a_new_object_its_aura_stays_behind():
    """CR 400.7: the card keeps its id across zone changes here, but the permanent that returns is a
    new object: an Aura that was attached to it is attached to nothing (and goes to the graveyard,
    704.5m); the Aura's own record of what it was attached to stays until then."""
    from mtgsolve.solver.engine.transition import _World, move
    from mtgsolve.solver.io.load import situation_from_dict

    s = situation_from_dict({"format": "mtgsolve/1", "players": ["alice", "bob"], "battlefield": {
        "alice": [{"id": "bears", "card": "Grizzly Bears"}, {"id": "rancor", "card": "Rancor", "attached_to": "bears"}]}}).state
    w = _World(s)
    move(w, "bears", "exile")
    assert w.objects["rancor"].attached_to == "bears"     # until state-based actions (704.5m)
    move(w, "bears", "battlefield", sick=True)
    assert w.objects["bears"].zone == "battlefield" and w.objects["rancor"].attached_to is None

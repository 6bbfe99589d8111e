"""Flicker (issue 26): "Exile <permanents>, then return it / that card / those cards to the battlefield
under its owner's / your control" — one sentence or two — read as :class:`~solver.core.ir.Blink` and
resolved as two zone changes (CR 400.7: a new object), against an independent reference on random
boards; "another target" of a permanent's ability as its first target (any but the source); and "is
put into a graveyard from the battlefield" of a noncreature (an Aura) triggering (CR 700.4)."""
from __future__ import annotations

from hypothesis import given, settings, strategies as st

from mtgsolve.solver.api import Situation
from mtgsolve.solver.cards import get_card
from mtgsolve.solver.core import ir
from mtgsolve.solver.io.load import situation_from_dict
from mtgsolve.solver.queries import answer


def _blinks(name: str) -> list[ir.Blink]:
    card = get_card(name)
    effects = list(card.spell.effects) if card.spell is not None else []
    effects += [e for a in card.abilities for e in getattr(a, "effects", ())]
    return [e for e in effects if isinstance(e, ir.Blink)]


def test_flicker_shapes_read():
    assert _blinks("Cloudshift") == [ir.Blink(ir.T(0), "you")]
    assert _blinks("Momentary Blink") == [ir.Blink(ir.T(0), "owner")]
    (two,) = _blinks("Ghostly Flicker")            # "those cards", two targets
    assert two.to.kind == "each_target" and two.under == "you"
    (conj,) = _blinks("Distinguished Conjurer")   # "another target creature you control" of a permanent
    assert conj.under == "owner"
    (a,) = [x for x in get_card("Distinguished Conjurer").abilities if isinstance(x, ir.ActivatedAbility)]
    assert a.targets[0].filter.other_than_source


def test_a_delayed_return_is_no_flicker():
    """Flickerwisp's return "at the beginning of the next end step" is no flicker (issue 26, helper
    animate): its exile happens now and the return is a delayed ability remembering the exiled card
    (``ir.ReturnExiled``, CR 603.7c) — the card stays in exile as the trigger resolves."""
    assert not _blinks("Flickerwisp")
    d = {"format": "mtgsolve/1", "players": ["alice", "bob"], "turn": {"number": 3, "active": "alice", "step": "main1"},
         "battlefield": {"alice": ["Flickerwisp"], "bob": ["Grizzly Bears"]},
         "stack": [{"ability": {"source": "flickerwisp", "index": 1}, "controller": "alice",
                    "targets": [["grizzly-bears"]]}]}
    r = answer(situation_from_dict(d).state, {"kind": "resolve"})
    assert r["status"] == "ok" and r["count"] == 1
    sit = r["outcomes"][0]["situation"]
    assert sit["exile"] == {"bob": [{"id": "grizzly-bears", "card": "Grizzly Bears"}]}
    assert sit["delayed"][0]["it"] == "grizzly-bears"


CREATURES = ["Grizzly Bears", "Ornithopter", "Llanowar Elves"]


@st.composite
def boards(draw):
    objs = []
    for k in range(draw(st.integers(1, 3))):
        objs.append({"card": draw(st.sampled_from(CREATURES)), "id": f"c{k}", "tapped": draw(st.booleans()),
                     "token": draw(st.booleans()), "counters": {"+1/+1": draw(st.integers(0, 2))},
                     "owner": draw(st.sampled_from(["alice", "bob"]))})
    target = draw(st.sampled_from([o["id"] for o in objs]))
    spell = draw(st.sampled_from(["Cloudshift", "Momentary Blink"]))
    return objs, target, spell


def _reference(objs: list[dict], target: str, spell: str) -> dict[str, tuple[str, bool, int]]:
    """Independent: the permanents after the flicker — id -> (controller, tapped, +1/+1 counters). The
    target leaves; a token is gone for good (CR 111.8); a card returns untapped with no counters, under
    the caster's control (Cloudshift: "under your control") or its owner's (Momentary Blink)."""
    out = {o["id"]: ("alice", o["tapped"], o["counters"]["+1/+1"]) for o in objs if o["id"] != target}
    t = next(o for o in objs if o["id"] == target)
    if not t["token"]:
        out[target] = ("alice" if spell == "Cloudshift" else t["owner"], False, 0)
    return out


@settings(max_examples=40, deadline=None)
@given(boards())
def test_flicker_matches_the_reference(board):
    objs, target, spell = board
    d = {"format": "mtgsolve/1", "players": ["alice", "bob"], "turn": {"number": 3, "active": "alice", "step": "main1"},
         "battlefield": {"alice": [{k: v for k, v in o.items()} for o in objs]},
         "stack": [{"card": spell, "controller": "alice", "targets": [[target]]}]}
    outcomes = Situation(situation_from_dict(d).state).resolve()
    assert len(outcomes) == 1
    ((_, after),) = outcomes
    got = {o.id: (o.controller, o.tapped, o.counter("+1/+1")) for o in after.state.zone("battlefield")}
    assert got == _reference(objs, target, spell)


def test_a_dies_trigger_returns_the_card_it_became():
    """CR 400.7d: "When this … is put into a graveyard from the battlefield, return it to its owner's hand"
    finds the card in the graveyard — the kernel names it on the trigger (``event_object``); an Aura put
    there by state-based actions (704.5m) triggers and comes back (it was an ok answer doing nothing)."""
    d = {"format": "mtgsolve/1", "players": ["alice", "bob"], "turn": {"number": 3, "active": "alice", "step": "main1"},
         "battlefield": {"alice": ["Grizzly Bears", {"card": "Rancor", "attached_to": "grizzly-bears"}]},
         "stack": [{"card": "Unsummon", "controller": "bob", "targets": [["grizzly-bears"]]}]}
    ((_, after),) = Situation(situation_from_dict(d).state).resolve()
    (trigger,) = after.state.zone("stack")
    assert trigger.event_object == "rancor"
    ((_, done),) = after.resolve()
    assert sorted(done.zone("hand", "alice")) == ["grizzly-bears", "rancor"]
    (a,) = [x for x in get_card("Rancor").abilities if isinstance(x, ir.TriggeredAbility)]
    assert a.trigger == ir.DiesTrigger(any_permanent=True) and a.effects == (ir.ReturnToHand(ir.Ref("event_object")),)

"""Delayed triggered abilities (CR 603.7): the grammar over the database, the situation key
``delayed`` (loader errors, round trip, identity), the turn engine firing them against an independent
reference (tests/reference/delayed_ref.py), and soundness both ways."""
from __future__ import annotations

import gzip
import json
from collections import Counter
from pathlib import Path

import pytest
from hypothesis import given, settings, strategies as st

from mtgsolve.solver.api.describe import describe_card
from mtgsolve.solver.cards import SHIPPED, card_from_mapping
from mtgsolve.solver.core import ir
from mtgsolve.solver.core.errors import SituationError
from mtgsolve.solver.io.dump import dump_state
from mtgsolve.solver.io.load import situation_from_dict
from mtgsolve.solver.queries import answer

from tests.reference.delayed_ref import next_step, triggered

ROOT = Path(__file__).resolve().parent.parent
CANTRIP = "Draw a card at the beginning of the next turn's upkeep."


def _doc(**kw: object) -> dict:
    d: dict = {"format": "mtgsolve/1", "players": ["alice", "bob"],
               "turn": {"number": 3, "active": "alice", "step": "main1"},
               "graveyard": {"alice": ["Ray of Erasure", "Bearer of the Heavens"]},
               "library": {"alice": ["Island", "Island"], "bob": ["Forest", "Forest"]}}
    d.update(kw)
    return d


def _delayed(card: object) -> list[ir.Delayed]:
    out = ir.delayed_of(card, 0)
    for i in range(1, len(ir.numbered_abilities(card.abilities)) + 1):  # type: ignore[attr-defined]
        out += ir.delayed_of(card, i)
    return out


def test_cantrip_sentence_read_on_every_card_that_prints_it():
    """The grammar, no card names: every card of the database whose text has the cantrip sentence
    (capitalized: a sentence of its own) reads it as one delayed draw of its controller — or, where the
    spell or ability around it is not read (a mana ability's rider, a modal spell), the card keeps an
    unread part."""
    cards = json.load(gzip.open(ROOT / "solver" / "data" / "oracle-cards.json.gz"))
    names = [c["name"] for c in cards if CANTRIP in (c.get("text") or "")]
    assert len(names) >= 40
    read = [n for n in names if ir.Delayed("upkeep", (ir.Draw(1),)) in _delayed(SHIPPED.get(n))]
    assert len(read) >= 35
    assert all(not describe_card(SHIPPED.get(n))["fully_modeled"] for n in set(names) - set(read))


@pytest.mark.parametrize("sentence, want", [
    ("At the beginning of the next end step, you gain 2 life.", ir.Delayed("end", (ir.GainLife(2),))),
    ("You gain 2 life at the beginning of the next end step.", ir.Delayed("end", (ir.GainLife(2),))),
    ("At the beginning of your next upkeep, draw two cards.", ir.Delayed("upkeep", (ir.Draw(2),), "you")),
    ("Draw a card at the beginning of your next upkeep.", ir.Delayed("upkeep", (ir.Draw(1),), "you")),
    # what the delayed ability would have to remember is not read (CR 603.7c): it stays unread
    ("Sacrifice it at the beginning of the next end step.", None),
    # a target of the spell, remembered as the delayed ability is created (CR 603.7c)
    ("Return target creature to its owner's hand at the beginning of the next end step.",
     ir.Delayed("end", (ir.ReturnToHand(ir.T(0)),))),
    ("At the beginning of the next end step, return target creature and target land to their owners' hands.",
     None),
])
def test_delayed_grammar(sentence: str, want: ir.Delayed | None):
    card = card_from_mapping({"name": "Test Spell", "types": ["Sorcery"], "text": "Draw a card. " + sentence})
    got = _delayed(card)
    assert got == ([want] if want is not None else [])
    if want is None:
        assert card.spell is None or any(isinstance(e, ir.UnreadEffect) for e in card.spell.effects)


def test_loader_checks_delayed_records():
    ok = _doc(delayed=[{"step": "upkeep", "controller": "alice", "source": "ray-of-erasure", "turn": 3}])
    situation_from_dict(ok)
    for bad, where in [
        ({"step": "upkeep", "controller": "carol", "source": "ray-of-erasure"}, "delayed[0].controller"),
        ({"step": "upkeep", "controller": "alice", "source": "nothing"}, "delayed[0].source"),
        ({"step": "upkeep", "controller": "alice", "source": "ray-of-erasure", "index": 2}, "delayed[0].index"),
        ({"step": "upkeep", "controller": "alice", "source": "bearer-of-the-heavens"}, "delayed[0].index"),
        ({"step": "draw", "controller": "alice", "source": "ray-of-erasure"}, "delayed[0].step"),
    ]:
        with pytest.raises(SituationError) as e:
            situation_from_dict(_doc(delayed=[bad]))
        assert where in str(e.value), (bad, str(e.value))
    with pytest.raises(SituationError, match="delayed"):
        situation_from_dict(_doc(stack=[{"ability": {"source": "ray-of-erasure", "index": 0}, "controller": "alice"}]))
    with pytest.raises(SituationError, match="delayed"):
        situation_from_dict(_doc(stack=[{"ability": {"source": "bearer-of-the-heavens", "index": 1},
                                         "delayed": 2, "controller": "alice"}]))


def test_round_trip_and_identity():
    recs = [{"step": "end", "controller": "bob", "source": "bearer-of-the-heavens", "ability": 1},
            {"step": "upkeep", "controller": "alice", "source": "ray-of-erasure", "turn": 3, "whose": "you"}]
    doc = _doc(delayed=recs, stack=[{"ability": {"source": "ray-of-erasure", "index": 0}, "delayed": 1,
                                     "controller": "alice"}])
    state = situation_from_dict(doc).state
    dumped = dump_state(state)
    assert dumped["delayed"] == sorted(recs, key=lambda r: r["step"])
    again = situation_from_dict(dumped).state
    assert again.key() == state.key()
    without = situation_from_dict(_doc(stack=doc["stack"])).state
    assert without.key() != state.key()


_RECORDS = st.lists(st.tuples(st.sampled_from(["end", "upkeep"]), st.sampled_from(["alice", "bob"]),
                              st.integers(2, 4), st.sampled_from(["any", "you"])), max_size=4)


def _stack_sources(situation: dict) -> Counter[tuple[str, int, str]]:
    return Counter((o["ability"]["source"], o["ability"]["index"], o["controller"])
                   for o in situation.get("stack", []) if o.get("delayed"))


@settings(max_examples=30, deadline=None)
@given(_RECORDS, st.sampled_from(["upkeep", "draw", "main2", "end"]), st.sampled_from(["alice", "bob"]))
def test_firing_matches_the_reference(records, step, active):
    """CR 603.7b-c against the reference: which delayed triggers go on the stack as the next step
    begins (controlled by their controllers, 603.7d), and which stay in force."""
    src = {"end": ("bearer-of-the-heavens", 1), "upkeep": ("ray-of-erasure", 0)}
    recs = [{"step": k, "controller": c, "source": src[k][0], "ability": src[k][1], "turn": t,
             "whose": w if k == "upkeep" else "any"} for k, c, t, w in records]
    other = "bob" if active == "alice" else "alice"
    doc = _doc(turn={"number": 4, "active": active, "step": step, "priority": other, "passed": [active]},
               delayed=recs)
    res = answer(situation_from_dict(doc).state, {"kind": "pass"})
    assert res["status"] == "ok", res
    turn, now, new_step = next_step(4, active, step, ("alice", "bob"))
    plain = [(k, c, t, w if k == "upkeep" else "any") for k, c, t, w in records]
    fire, keep = triggered(plain, turn, now, new_step)
    want = Counter((src[k][0], src[k][1], c) for k, c, _, _ in fire)
    for out in res["outcomes"]:
        sit = out["situation"]
        assert (sit["turn"]["number"], sit["turn"]["step"]) == (turn, new_step)
        assert _stack_sources(sit) == want
        left = Counter((r["step"], r["controller"], r.get("turn", 0), r.get("whose", "any"))
                       for r in sit.get("delayed", []))
        assert left == Counter(keep)


def test_source_off_the_battlefield_is_refused_not_forgotten():
    """CR 603.7c: "When this creature dies, return it to its owner's hand at the beginning of the next end
    step" is read, but the card it names is in the graveyard as the delayed ability is created: that is
    refused as it resolves (never a delayed ability that would do nothing)."""
    text = "When this creature dies, return it to its owner's hand at the beginning of the next end step."
    doc = _doc(battlefield={"alice": [{"card": {"name": "Test Phoenix", "types": ["Creature"], "power": "3",
                                                "toughness": "1", "text": text}}]},
               graveyard={}, stack=[{"card": "Shock", "controller": "bob", "targets": [["test-phoenix"]]}])
    res = answer(situation_from_dict(doc).state, {"kind": "resolve"})
    assert res["status"] == "ok"
    dies = situation_from_dict(res["outcomes"][0]["situation"]).state
    assert answer(dies, {"kind": "resolve"})["status"] == "unsupported"


def test_soundness_both_ways():
    """An unread delayed instruction blocks the resolution that would create it; a read one in force
    blocks nothing: passing into its step puts it on the stack, passing elsewhere leaves it alone."""
    unread = _doc(stack=[{"card": "Arcane Denial", "controller": "alice", "targets": [["grizzly-bears"]]},
                         {"card": "Grizzly Bears", "controller": "bob"}])
    assert answer(situation_from_dict(unread).state, {"kind": "resolve"})["status"] == "unsupported"
    read = _doc(stack=[{"card": "Ray of Erasure", "controller": "alice", "targets": [["bob"]]}])
    assert answer(situation_from_dict(read).state, {"kind": "resolve"})["status"] == "ok"
    rec = [{"step": "upkeep", "controller": "alice", "source": "ray-of-erasure", "turn": 3}]
    at_end = _doc(turn={"number": 3, "active": "alice", "step": "end", "priority": "bob", "passed": ["alice"]},
                  delayed=rec)
    res = answer(situation_from_dict(at_end).state, {"kind": "pass"})
    assert res["status"] == "ok" and all(_stack_sources(o["situation"]) for o in res["outcomes"])

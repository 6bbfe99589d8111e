"""Casualty N (CR 702.153a) and copies of spells on the stack (707.10, 707.10c): the reader (over every card
of the database with the keyword), the casting mode through the queries and the Python API (action strings
round-trip, a mask slot), the cast trigger with its intervening "if" (603.4), the copy's targets against the
brute-force reference (tests/reference/copies_ref.py) on random small boards, and soundness both ways (what
is not modeled is refused, nothing else)."""
from __future__ import annotations

import gzip
import json
import os
import re

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from reference.copies_ref import reference_copy_targets
from mtgsolve.solver.api import Action, Situation
from mtgsolve.solver.api.encoding import ActionEncoding
from mtgsolve.solver.cards import get_card
from mtgsolve.solver.core import ir
from mtgsolve.solver.core.errors import QueryError
from mtgsolve.solver.io.load import situation_from_dict
from mtgsolve.solver.queries import Options, answer

EXAMPLES = int(os.environ.get("MTGSOLVE_EXAMPLES", "40"))
DATA = os.path.join(os.path.dirname(__file__), "..", "solver", "data", "oracle-cards.json.gz")


def doc(**kw) -> dict:
    d = {"format": "mtgsolve/1", "players": ["alice", "bob"], "turn": {"number": 3, "active": "alice", "step": "main1"}}
    d.update(kw)
    return d


def test_reader_reads_casualty_n_on_every_card_with_it():
    """Every "Casualty N" line of the database is read: the optional cost and the copy trigger; the one
    "Casualty X" line (a further sentence changing the copy) stays unread."""
    cards = json.load(gzip.open(DATA))
    with_n = [c["name"] for c in cards if re.search(r"^Casualty \d+ ", c.get("text") or "", re.M)]
    with_x = [c["name"] for c in cards if re.search(r"^Casualty X", c.get("text") or "", re.M)]
    assert len(with_n) == 15 and len(with_x) == 1
    for name in with_n:
        card = get_card(name)
        opts = [a for a in card.abilities if isinstance(a, ir.Casualty)]
        trig = [a for a in card.abilities if isinstance(a, ir.TriggeredAbility) and a.if_cast == "casualty"]
        assert len(opts) == 1 and opts[0].cost.sacrifice_power >= 1 and len(trig) == 1, name
        assert isinstance(trig[0].trigger, ir.CastSelfTrigger) and trig[0].effects == (ir.CopySpell(),)
        assert not any(u.text.startswith("Casualty") for u in card.unsupported), name
    x = get_card(with_x[0])
    assert any(u.text.startswith("Casualty X") for u in x.unsupported)


def _light_board() -> dict:
    return doc(turn={"number": 3, "active": "alice", "step": "main1", "spells_cast": {}},battlefield={"alice": ["Mountain", "Mountain", "Llanowar Elves", "Grizzly Bears"],
                            "bob": ["Savannah Lions", "Raging Goblin"]},
               hand={"alice": ["Light 'Em Up"]})


def test_api_casts_with_casualty_and_the_copy_resolves_first():
    """The cast paying casualty is its own action (a mask slot; the string round-trips); the trigger goes on
    the stack above the spell (CR 603.3); resolving it offers the copy's targets as a decision; the copy
    resolves first and ceases to exist (707.10a); the copy is not cast (one spell counted, 601.2i)."""
    s = Situation.from_dict(_light_board())
    text = "cast light-em-up casualty -> savannah-lions paying mountain, mountain-2 sacrificing grizzly-bears"
    a = Action.parse(text)
    assert a.casualty and str(a) == text and Action.from_json(a.to_json()) == a and s.is_legal(a)
    enc = ActionEncoding(s)
    i = enc.encode_head(Action("cast", "light-em-up", casualty=True))
    assert i is not None and enc.mask(s)[i] == 1 and enc.decode(s, i) == Action("cast", "light-em-up", casualty=True)
    after = s.apply(a)
    stack = [o for o in after.state.objects if o.zone == "stack"]
    assert [o.ability is not None for o in sorted(stack, key=lambda o: o.order)] == [True, False]
    assert any(o.casualty for o in stack) and after.state.turn.cast_by("alice") == 1
    cur = after
    seen_choice = False
    for _ in range(10):
        if cur.decision is not None:
            opts = [o for o in cur.legal_actions if "raging-goblin" in str(o)]
            seen_choice = True
            cur = cur.apply(opts[0])
        elif any(o.zone == "stack" for o in cur.state.objects):
            cur = cur.apply("pass")
        else:
            break
    assert seen_choice
    gy = {o.id for o in cur.state.objects if o.zone == "graveyard"}
    assert {"savannah-lions", "raging-goblin", "light-em-up", "grizzly-bears"} <= gy
    assert not any(o.copy for o in cur.state.objects) and cur.state.turn.cast_by("alice") == 1


def test_without_casualty_no_trigger_goes_on_the_stack():
    """CR 603.4: "if a casualty cost was paid for it" is false as the spell is cast: it doesn't trigger."""
    s = Situation.from_dict(_light_board())
    after = s.apply("cast light-em-up -> savannah-lions paying mountain, mountain-2")
    assert [o.id for o in after.state.objects if o.zone == "stack"] == ["light-em-up"]


def test_pay_query_refuses_casualty_on_a_card_without_it():
    state = situation_from_dict(doc(hand={"alice": ["Lightning Bolt"]}, battlefield={"alice": ["Mountain"]})).state
    with pytest.raises(QueryError, match="casualty"):
        answer(state, {"kind": "pay", "cast": "lightning-bolt", "casualty": True}, Options())


# ---------------------------------------------------------------------------
# The copy's targets against the reference
# ---------------------------------------------------------------------------

CREATURES = ["Savannah Lions", "Raging Goblin", "Llanowar Elves", "Slippery Bogle", "Grizzly Bears",
             "Benevolent Bodyguard", "Silver Knight", "Gladecover Scout"]


@st.composite
def stacks(draw):
    mine = [draw(st.sampled_from(CREATURES)) for _ in range(draw(st.integers(0, 2)))]
    theirs = [draw(st.sampled_from(CREATURES)) for _ in range(draw(st.integers(1, 3)))]
    d = doc(battlefield={"alice": mine, "bob": theirs})
    state = situation_from_dict(d).state
    creatures = sorted(o.id for o in state.objects if o.zone == "battlefield")
    target = draw(st.sampled_from(creatures))
    spell = {"card": "Light 'Em Up", "controller": "alice", "casualty": draw(st.integers(0, 4)) > 0,
             "targets": [[target]]}
    d["stack"] = [{"ability": {"source": "light-em-up", "index": 1}, "controller": "alice"}, spell]
    return d


@settings(max_examples=EXAMPLES, deadline=None, derandomize=os.environ.get("CI") == "true",
          suppress_health_check=[HealthCheck.too_slow])
@given(stacks())
def test_copy_targets_match_the_reference(d):
    state = situation_from_dict(d).state
    got = answer(state, {"kind": "resolve"}, Options(max_results=10_000))
    assert got["status"] == "ok", got
    want = reference_copy_targets(d)
    copies = []
    for oc in got["outcomes"]:
        top = (oc["situation"].get("stack") or [{}])[0]
        if top.get("copy"):
            copies.append(top["targets"])
    assert sorted(copies) == want, (json.dumps(d), got["count"])
    assert got["count"] == max(1, len(want))


# ---------------------------------------------------------------------------
# Storm (CR 702.40a): a copy for each spell cast before it this turn
# ---------------------------------------------------------------------------

def test_reader_reads_storm():
    for name in ("Grapeshot", "Empty the Warrens", "Tendrils of Agony", "Brain Freeze"):
        card = get_card(name)
        (trig,) = [a for a in card.abilities if isinstance(a, ir.TriggeredAbility)]
        assert isinstance(trig.trigger, ir.CastSelfTrigger) and trig.effects == (ir.CopySpell(per="storm"),)
        assert not card.unsupported, name


def test_api_records_spells_cast_before_a_storm_spell():
    """As a storm spell is cast, it records the spells all players cast this turn before it (CR 702.40a):
    the copies are made from that record; a spell without storm records nothing."""
    d = doc(turn={"number": 3, "active": "alice", "step": "main1", "spells_cast": {"alice": 1, "bob": 1}},
            battlefield={"alice": ["Mountain", "Mountain"], "bob": ["Savannah Lions"]},
            hand={"alice": ["Grapeshot", "Lightning Bolt"]})
    s = Situation.from_dict(d)
    after = s.apply("cast grapeshot -> bob paying mountain, mountain-2")
    spell = after.state.obj("grapeshot")
    assert spell.cast_before == 2 and after.state.turn.cast_by("alice") == 2
    r = answer(after.state, {"kind": "resolve"}, Options())
    assert r["status"] == "ok" and r["count"] == 9   # two copies, each: bob, alice or the Lions
    bolt = s.apply("cast lightning-bolt -> bob paying mountain")
    assert bolt.state.obj("lightning-bolt").cast_before is None


@st.composite
def storm_stacks(draw):
    theirs = [draw(st.sampled_from(CREATURES)) for _ in range(draw(st.integers(0, 2)))]
    d = doc(battlefield={"alice": [], "bob": theirs})
    targets = ["alice", "bob"] + sorted(o.id for o in situation_from_dict(d).state.objects)
    spell = {"card": "Grapeshot", "controller": "alice", "cast_before": draw(st.integers(0, 2)),
             "targets": [[draw(st.sampled_from(targets))]]}
    d["stack"] = [{"ability": {"source": "grapeshot", "index": 1}, "controller": "alice"}, spell]
    return d


@settings(max_examples=EXAMPLES, deadline=None, derandomize=os.environ.get("CI") == "true",
          suppress_health_check=[HealthCheck.too_slow])
@given(storm_stacks())
def test_storm_copies_match_the_reference(d):
    from reference.copies_ref import reference_storm_targets

    state = situation_from_dict(d).state
    got = answer(state, {"kind": "resolve"}, Options(max_results=10_000))
    assert got["status"] == "ok", got
    seen = []
    for oc in got["outcomes"]:
        copies = [o for o in oc["situation"].get("stack") or [] if o.get("copy")]
        seen.append([o["targets"] for o in reversed(copies)])   # bottom first: the order they were put there
    assert sorted(seen) == reference_storm_targets(d), json.dumps(d)

"""Shields (issue 26): regeneration (CR 701.15, 614.8) and prevention shields (CR 615).

* the reader reads "Regenerate <permanent>" and the prevention sentences of resolving spells and
  abilities by grammar, on every card of the database with those sentences;
* the situation keys ``regeneration_shields`` (objects) and ``prevention`` (top level) load with
  located errors and are written back;
* resolution against the brute-force reference (tests/reference/shields_ref.py): damage and
  destruction under random regeneration and prevention shields — exact where the affected player's
  order of shields (CR 616.1) does not matter, refused exactly where it does;
* cleanup ends every shield (CR 514.2); soundness both ways.
"""
from __future__ import annotations

import gzip
import json
import re
from pathlib import Path

import pytest
from hypothesis import example, given, settings, strategies as st

from mtgsolve.solver.api import Situation, UnsupportedCaseError
from mtgsolve.solver.cards import get_card
from mtgsolve.solver.core import ir
from mtgsolve.solver.core.state import PreventionShield
from mtgsolve.solver.io.dump import dump_state
from tests.reference.shields_ref import Creature, after_damage, destroyed, prevention_results, without

ROOT = Path(__file__).resolve().parent.parent


def _effects(card_name: str) -> list[ir.Effect]:
    card = get_card(card_name)
    out: list[ir.Effect] = list(card.spell.effects) if card.spell is not None else []
    for a in card.abilities:
        out.extend(getattr(a, "effects", ()) or ())
    return out


# ---------------------------------------------------------------------------
# The reader, over the database
# ---------------------------------------------------------------------------

_REGEN = re.compile(r"^(?:[^:\n]*\{[^:\n]*: )?Regenerate (?:this creature|target creature|enchanted creature)\.$",
                    re.M)
_PREVENT = re.compile(r"^Prevent (?:the next \d+ damage that would be dealt to (?:any target|target creature|you)"
                      r"|all combat damage that would be dealt) this turn\.$", re.M)


def _oracle() -> list[dict]:
    return json.load(gzip.open(ROOT / "solver" / "data" / "oracle-cards.json.gz"))


def _matching(rx: re.Pattern[str]) -> list[str]:
    return sorted(c["name"] for c in _oracle() if c.get("text") and "//" not in c["name"] and rx.search(
        re.sub(r" \([^)]*\)", "", c["text"])))


#: what else leaves a shield line unread: a cost of another family (a discard, a growl), cycling, level up
_OTHER = re.compile(r"Discard a card|Growl|Cycling|Level up")


def _unread_for_another_reason(name: str) -> bool:
    return bool(_OTHER.search(get_card(name).data.text))


def test_every_plain_regenerate_line_is_read():
    names = _matching(_REGEN)
    assert len(names) >= 140     # 150 on the shipped database
    missed = [n for n in names if not any(isinstance(e, ir.Regenerate) for e in _effects(n))]
    assert len(missed) <= 8 and all(_unread_for_another_reason(n) for n in missed), missed


def test_every_plain_prevention_spell_is_read():
    names = _matching(_PREVENT)
    assert len(names) >= 20      # 24 on the shipped database
    missed = [n for n in names if not any(isinstance(e, ir.PreventDamage) for e in _effects(n))]
    assert len(missed) <= 1 and all(_unread_for_another_reason(n) for n in missed), missed


@pytest.mark.parametrize("name, want", [
    ("Drudge Skeletons", ir.Regenerate(ir.SELF)),
    ("Regeneration", ir.Regenerate(ir.ATTACHED)),
    ("Mending Hands", ir.PreventDamage(to=ir.T(0), amount=4)),
    ("Holy Day", ir.PreventDamage(combat_only=True)),
    ("Shielded Passage", ir.PreventDamage(to=ir.T(0))),
    ("Fend Off", ir.PreventDamage(source=ir.T(0), combat_only=True)),
])
def test_read_as(name, want):
    assert want in _effects(name)


def test_cant_be_regenerated_riders():
    for name in ("Terror", "Dark Banishing", "Nekrataal"):
        ds = [e for e in _effects(name) if isinstance(e, ir.Destroy)]
        assert ds and all(e.cant_be_regenerated for e in ds), name
    assert not any(e.cant_be_regenerated for e in _effects("Murder") if isinstance(e, ir.Destroy))


# ---------------------------------------------------------------------------
# The situation keys
# ---------------------------------------------------------------------------

def _base(**extra) -> dict:
    d = {"format": "mtgsolve/1", "players": ["alice", "bob"], "turn": {"number": 3, "active": "alice", "step": "main1"},
         "battlefield": {"bob": [{"card": "Grizzly Bears", "regeneration_shields": 1}]}}
    d.update(extra)
    return d


def test_keys_round_trip():
    d = _base(prevention=[{"to": "bob", "amount": 2}, {"combat_only": True}, {"source": "grizzly-bears"}])
    s = Situation.from_dict(d).state
    assert s.obj("grizzly-bears").regeneration_shields == 1
    assert set(s.prevention) == {PreventionShield("bob", None, 2), PreventionShield(None, None, None, True),
                                 PreventionShield(None, "grizzly-bears")}
    again = Situation.from_dict(dump_state(s)).state
    assert again.key() == s.key()


@pytest.mark.parametrize("doc, where", [
    ({"hand": {"bob": [{"card": "Grizzly Bears", "regeneration_shields": 1}]}}, "regeneration_shields"),
    ({"prevention": [{"to": "nobody"}]}, "prevention[0].to"),
    ({"prevention": [{"source": "bob"}]}, "prevention[0].source"),
    ({"prevention": [{"to": "bob", "amount": 0}]}, "prevention[0].amount"),
    ({"prevention": [{"to": "bob", "colour": "red"}]}, "prevention[0]"),
    ({"prevention": [{"amount": 2}]}, "prevention[0].amount"),
    ({"prevention": [{"to": "bob", "source": "grizzly-bears", "amount": 2}]}, "prevention[0].amount"),
])
def test_located_errors(doc, where):
    with pytest.raises(Exception) as e:
        Situation.from_dict(_base(**doc))
    assert where.split("[")[0] in str(e.value), str(e.value)


# ---------------------------------------------------------------------------
# Resolution against the reference
# ---------------------------------------------------------------------------

SPELLS = {"Lightning Bolt": ("damage", 3), "Shock": ("damage", 2), "Murder": ("destroy", True),
          "Dark Banishing": ("destroy", False)}
TARGETS = ("hill-giant", "bob")


def _shields():
    """Shields as a situation may hold them: a shield of N protects one recipient from any source."""
    to = st.sampled_from([None, "hill-giant", "bob"])
    source = st.sampled_from([None, None, "spell", "grizzly-bears"])
    every = st.tuples(to, source, st.just(None), st.booleans())
    of_n = st.tuples(st.sampled_from(["hill-giant", "bob"]), st.just(None), st.sampled_from([1, 2, 3]), st.booleans())
    return st.lists(st.one_of(every, of_n), max_size=3)


@settings(max_examples=60, deadline=None)
@given(spell=st.sampled_from(sorted(SPELLS)), target=st.sampled_from(TARGETS), damage=st.integers(0, 2),
       regen=st.integers(0, 2), shields=_shields())
@example(spell="Lightning Bolt", target="hill-giant", damage=0, regen=0, shields=[(None, "spell", None, False)])
def test_matches_reference(spell, target, damage, regen, shields):
    kind, arg = SPELLS[spell]
    if kind == "destroy" and target == "bob":
        target = "hill-giant"
    spell_id = spell.lower().replace(" ", "-")
    shields = [(to, spell_id if src == "spell" else src, n, c) for to, src, n, c in shields]
    d = {"format": "mtgsolve/1", "players": ["alice", "bob"],
         "turn": {"number": 3, "active": "alice", "step": "main1"},
         "battlefield": {"bob": [{"card": "Hill Giant", "damage": damage, "regeneration_shields": regen},
                                 "Grizzly Bears"]},
         "stack": [{"card": spell, "controller": "alice", "targets": [[target]]}],
         "prevention": [{k: v for k, v in (("to", to), ("source", src), ("amount", n), ("combat_only", c))
                         if v is not None and v is not False} for to, src, n, c in shields]}
    sit = Situation.from_dict(d)
    giant = Creature(3, damage, regen)
    before = tuple(sorted(shields, key=repr))
    if kind == "damage":
        results = prevention_results(before, spell_id, target, arg)
        if len(results) > 1:
            with pytest.raises(UnsupportedCaseError):
                sit.resolve()
            return
        left, after = results.pop()
        life = 20 - left if target == "bob" else 20
        if target == "hill-giant":
            giant = after_damage(giant, left)
    else:
        giant, after, life = destroyed(giant, arg), before, 20
    if not giant.alive:
        after = without(after, "hill-giant")
    (_, out), = sit.resolve()
    s = out.state
    g = s.find("hill-giant")
    assert (g is not None and g.zone == "battlefield") == giant.alive
    if giant.alive:
        assert (g.damage, g.regeneration_shields, g.tapped) == (giant.damage, giant.regen, giant.tapped)
    assert s.player("bob").life == life
    got = tuple(sorted(((p.to, p.source, p.amount, p.combat_only) for p in s.prevention), key=repr))
    assert got == after


# ---------------------------------------------------------------------------
# Cleanup (CR 514.2) and the resolution of the shields themselves
# ---------------------------------------------------------------------------

def test_cleanup_ends_every_shield():
    d = {"format": "mtgsolve/1", "players": ["alice", "bob"],
         "turn": {"number": 3, "active": "alice", "step": "end", "priority": "bob", "passed": ["alice"]},
         "battlefield": {"bob": [{"card": "River Boa", "regeneration_shields": 2}]},
         "library": {"alice": ["Island"], "bob": ["Island"]},
         "prevention": [{"to": "bob", "amount": 2}, {"combat_only": True}]}
    outcomes = Situation.from_dict(d).outcomes("pass")
    assert outcomes
    for _choices, _p, sit in outcomes:
        assert sit.state.turn.number == 4
        assert not sit.state.prevention
        assert all(o.regeneration_shields == 0 for o in sit.state.objects)


def test_x_amount_shield_and_zero():
    ref = ir.PreventDamage(to=ir.T(0), amount="X")
    assert "the next X damage" in ref.describe()


# ---------------------------------------------------------------------------
# Soundness both ways (contract §2.0)
# ---------------------------------------------------------------------------

def _resolve_doc(battlefield: dict, stack: list, **extra) -> dict:
    d = {"format": "mtgsolve/1", "players": ["alice", "bob"], "turn": {"number": 3, "active": "alice", "step": "main1"},
         "battlefield": battlefield, "stack": stack}
    d.update(extra)
    return d


@pytest.mark.parametrize("spell", ["Holy Day", "Mending Hands", "Shielded Passage"])
def test_read_prevention_spell_resolves(spell):
    """A read shield is no unread part: its resolution answers."""
    targets = [] if spell == "Holy Day" else [["grizzly-bears"]]
    d = _resolve_doc({"bob": ["Grizzly Bears"]}, [{"card": spell, "controller": "alice", "targets": targets}])
    (_, out), = Situation.from_dict(d).resolve()
    assert len(out.state.prevention) == 1


@pytest.mark.parametrize("spell", ["Harmless Assault", "Forfend", "Defend the Hearth"])
def test_unread_prevention_spell_is_refused(spell):
    """A prevention sentence the reader does not read ("… by attacking creatures", "… to creatures")
    stays an unread part: resolving it is refused, never taken as doing nothing."""
    d = _resolve_doc({"bob": ["Grizzly Bears"]}, [{"card": spell, "controller": "alice"}])
    with pytest.raises(UnsupportedCaseError):
        Situation.from_dict(d).resolve()


def test_unread_static_prevention_still_blocks_damage():
    """An unread static prevention effect (Dawn Elemental) still blocks the damage it reaches."""
    d = _resolve_doc({"bob": ["Dawn Elemental"]}, [{"card": "Lightning Bolt", "controller": "alice",
                                                   "targets": [["dawn-elemental"]]}])
    with pytest.raises(UnsupportedCaseError):
        Situation.from_dict(d).resolve()


@pytest.mark.parametrize("shields, refused", [(0, False), (1, True)])
def test_regeneration_taps_reach_a_becomes_tapped_trigger(shields, refused):
    """Regeneration taps the permanent (CR 701.15a): with a shield on an untapped permanent, a
    destruction can cause a "becomes tapped" event, so an unread "Whenever this creature becomes
    tapped" trigger blocks the resolution; without a shield it can't and does not."""
    d = _resolve_doc({"bob": [{"card": "Encumbered Reejerey", "regeneration_shields": shields}]},
                     [{"card": "Murder", "controller": "alice", "targets": [["encumbered-reejerey"]]}])
    sit = Situation.from_dict(d)
    if refused:
        with pytest.raises(UnsupportedCaseError):
            sit.resolve()
    else:
        assert len(sit.resolve()) == 1


def test_shield_on_a_source_that_leaves_with_its_ability_on_the_stack_is_refused():
    """A shield on the damage of a permanent that leaves the battlefield while an ability from it is on
    the stack: whether it still prevents that ability's damage (CR 113.7a) is not modeled — refused."""
    d = _resolve_doc({"alice": [{"card": "Prodigal Pyromancer", "tapped": True}]},
                     [{"card": "Murder", "controller": "bob", "targets": [["prodigal-pyromancer"]]},
                      {"ability": {"source": "prodigal-pyromancer", "index": 1}, "targets": [["bob"]]}],
                     prevention=[{"source": "prodigal-pyromancer"}])
    (_, after), = Situation.from_dict(d).resolve()          # Murder: the shield stays, the ability waits
    assert after.state.prevention == (PreventionShield(None, "prodigal-pyromancer"),)
    with pytest.raises(UnsupportedCaseError):
        after.resolve()
    d["stack"] = d["stack"][:1]                                  # no ability from it: the shield goes
    (_, alone), = Situation.from_dict(d).resolve()
    assert alone.state.prevention == ()


def test_unread_damage_cant_be_prevented_blocks_a_shield():
    """"Damage can't be prevented." (unread static) could change what a shield does: it blocks the
    resolution (classified ``replacement``, CR 615 prevention being a replacement of damage)."""
    d = _resolve_doc({"alice": ["Everlasting Torment"], "bob": ["Grizzly Bears"]},
                     [{"card": "Lightning Bolt", "controller": "alice", "targets": [["grizzly-bears"]]}],
                     prevention=[{"to": "grizzly-bears", "amount": 2}])
    with pytest.raises(UnsupportedCaseError):
        Situation.from_dict(d).resolve()


# ---------------------------------------------------------------------------
# Combat damage under shields, against the reference (CR 510.2, 615, 701.15)
# ---------------------------------------------------------------------------

def _combat_shields():
    every = st.tuples(st.sampled_from([None, "hill-giant", "grizzly-bears", "bob"]),
                      st.sampled_from([None, None, "hill-giant", "grizzly-bears"]), st.just(None), st.booleans())
    of_n = st.tuples(st.sampled_from(["hill-giant", "grizzly-bears", "bob"]), st.just(None),
                     st.sampled_from([1, 2, 3]), st.booleans())
    return st.lists(st.one_of(every, of_n), max_size=3)


@settings(max_examples=40, deadline=None)
@given(blocked=st.booleans(), regen=st.tuples(st.integers(0, 1), st.integers(0, 1)), shields=_combat_shields())
def test_combat_damage_matches_reference(blocked, regen, shields):
    """Hill Giant (3/3) attacks bob, blocked by Grizzly Bears (2/2) or not; each damage event is
    prevented as the reference's enumeration of shield orders says (refused when the orders differ),
    then lethal damage destroys — or regeneration replaces it."""
    d = {"format": "mtgsolve/1", "players": ["alice", "bob"],
         "turn": {"number": 3, "active": "alice", "step": "declare_blockers", "priority": "bob", "passed": ["alice"]},
         "battlefield": {
             "alice": [{"card": "Hill Giant", "tapped": True, "attacking": "bob", "blocked": blocked,
                        "regeneration_shields": regen[0]}],
             "bob": [{"card": "Grizzly Bears", "regeneration_shields": regen[1],
                      **({"blocking": ["hill-giant"]} if blocked else {})}]},
         "prevention": [{k: v for k, v in (("to", to), ("source", src), ("amount", n), ("combat_only", c))
                         if v is not None and v is not False} for to, src, n, c in shields]}
    events = [("hill-giant", "grizzly-bears" if blocked else "bob", 3)] + ([("grizzly-bears", "hill-giant", 2)]
                                                                          if blocked else [])
    now = tuple(sorted(shields, key=repr))
    dealt: dict[str, int] = {}
    for src, to, n in events:      # each recipient has one source here: no shield is shared by two events
        results = prevention_results(now, src, to, n, combat=True)
        if len(results) > 1:
            with pytest.raises(Exception, match="unsupported"):
                Situation.from_dict(d).outcomes("pass")
            return
        left, now = results.pop()
        dealt[to] = left
    giant = after_damage(Creature(3, 0, regen[0], True), dealt.get("hill-giant", 0))
    bears = after_damage(Creature(2, 0, regen[1]), dealt.get("grizzly-bears", 0))
    for name, c in (("hill-giant", giant), ("grizzly-bears", bears)):
        if not c.alive:
            now = without(now, name)
    (_, _p, out), = Situation.from_dict(d).outcomes("pass")
    s = out.state
    for oid, c in (("hill-giant", giant), ("grizzly-bears", bears)):
        o = s.find(oid)
        assert (o is not None and o.zone == "battlefield") == c.alive, oid
        if c.alive:
            assert (o.damage, o.regeneration_shields, o.tapped) == (c.damage, c.regen, c.tapped), oid
    assert s.player("bob").life == 20 - dealt.get("bob", 0)
    assert tuple(sorted(((p.to, p.source, p.amount, p.combat_only) for p in s.prevention), key=repr)) == now

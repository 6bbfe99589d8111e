"""Equipment and attaching (CR 702.6, 701.3, 301.5, 704.5n): the reader's equip keyword and "attach …
to target creature" effects over the whole card database, the kernel's ``attach`` primitive and
state-based action, soundness both ways, and the outcomes of resolving equip abilities against the
brute-force reference (tests/reference/equip_ref.py) on small random boards."""
from __future__ import annotations

import gzip
import json
import re
from functools import lru_cache
from pathlib import Path
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from mtgsolve.solver.cards import get_card
from mtgsolve.solver.core import ir
from mtgsolve.solver.engine.resolution import resolve_top
from mtgsolve.solver.engine.transition import _World, attach, attachment_legal, settle
from mtgsolve.solver.io.load import situation_from_dict
from mtgsolve.solver.queries import answer
from mtgsolve.solver.rules.characteristics import View
from mtgsolve.solver.rules.soundness.check import unread_parts

from reference.equip_ref import expected, summary

DATA = Path(__file__).resolve().parent.parent / "solver" / "data" / "oracle-cards.json.gz"
_REMINDER = re.compile(r"\s*\([^)]*\)")


def load(d: dict[str, Any]) -> Any:
    return situation_from_dict({"format": "mtgsolve/1", "players": ["alice", "bob"], **d}).state


@lru_cache(maxsize=1)
def _database_lines() -> tuple[tuple[str, str], ...]:
    """(card name, line without reminder text) of every rules-text line of the database."""
    return tuple((c["name"], _REMINDER.sub("", line).strip()) for c in json.load(gzip.open(DATA))
                 for line in (c.get("text") or "").split("\n"))


def _lines(pattern: str) -> list[tuple[str, str]]:
    """(card name, line) of every database line matching ``pattern``."""
    rx = re.compile(pattern)
    return [(n, ln) for n, ln in _database_lines() if rx.fullmatch(ln)]


def _abilities(name: str) -> list[Any]:
    card = get_card(name)
    return list(card.abilities) + [a for f in getattr(card, "faces", ()) or () for a in getattr(f, "abilities", ())]


# --- the reader, over the database ------------------------------------------------------------------

def test_every_equip_mana_cost_line_is_read_as_attach() -> None:
    """CR 702.6a: each "Equip {cost}" line (mana, no X) reads as a sorcery-speed activated ability
    attaching its source to target creature you control — on every card of the database with one."""
    lines = _lines(r"Equip (\{[0-9WUBRGC]\})+")
    assert len(lines) >= 580
    equip = ir.Attach(ir.SELF, ir.T(0))
    you = ir.TargetSpec(ir.Filter(types=frozenset({"Creature"}), who="you"))
    missing = [(n, ln) for n, ln in lines
               if not any(isinstance(a, ir.ActivatedAbility) and a.effects == (equip,) and a.sorcery
                          and a.targets == (you,) and _REMINDER.sub("", a.text).strip() == ln for a in _abilities(n))]
    assert missing == []


def test_equip_with_a_quality_or_a_non_mana_cost() -> None:
    """CR 702.6c: "Equip Knight {1}" targets a Knight you control; "Equip legendary creature {3}" a
    legendary creature; "Equip—Pay 3 life." pays life. Qualities the targeting reader can't hold stay
    unread ("Equip commander", "Equip worthy")."""
    lance = [a for a in get_card("Steelclaw Lance").abilities if isinstance(a, ir.ActivatedAbility)]
    assert lance[0].targets[0].filter.subtypes == frozenset({"Knight"}) and lance[0].targets[0].filter.who == "you"
    assert lance[0].effects == (ir.Attach(ir.SELF, ir.T(0)),)
    lash = [a for a in get_card("Nightmare Lash").abilities if isinstance(a, ir.ActivatedAbility)]
    assert lash[0].cost.life == 3 and lash[0].sorcery
    for name, text in [(n, ln) for n, ln in _lines(r"Equip legendary creature \{\d\}")]:
        ab = next(a for a in get_card(name).abilities if isinstance(a, ir.ActivatedAbility) and a.text.startswith(text))
        assert ab.targets[0].filter.supertypes == frozenset({"Legendary"}), name
    plate = get_card("Commander's Plate")
    assert any(u.text.startswith("Equip commander") for u in plate.unsupported)


def test_enters_attach_it_riders_are_read() -> None:
    """"When this Equipment enters, attach it to target creature you control." (CR 701.3a) on every
    card of the database with that line."""
    lines = _lines(r"When this Equipment enters, attach it to target creature you control\.")
    assert len(lines) >= 25
    for name, ln in lines:
        trig = next(a for a in get_card(name).abilities if isinstance(a, ir.TriggeredAbility) and a.text.startswith(ln))
        assert trig.effects == (ir.Attach(ir.SELF, ir.T(0)),), name


# --- the kernel -------------------------------------------------------------------------------------

def test_attach_moves_with_a_new_timestamp_and_refuses_what_cant_be_equipped() -> None:
    """CR 701.3a-c, 613.7e, 301.5c: an Equipment moves onto a creature with a new timestamp; never onto
    itself, a land, a player or a creature with protection from artifacts; already attached: nothing."""
    s = load({"battlefield": {"alice": ["Grizzly Bears", "Forest", "Tel-Jilad Chosen",
                                        {"card": "Bonesplitter", "attached_to": "grizzly-bears"}]}})
    w = _World(s)
    view = View(s)
    assert not attachment_legal(view, "bonesplitter", "forest")
    assert not attachment_legal(view, "bonesplitter", "bonesplitter")
    assert not attachment_legal(view, "bonesplitter", "bob")
    assert not attachment_legal(view, "bonesplitter", "tel-jilad-chosen")  # protection from artifacts
    assert not attachment_legal(view, "grizzly-bears", "tel-jilad-chosen")  # no Equipment
    before = w.objects["bonesplitter"].timestamp
    assert not attach(w, "bonesplitter", "grizzly-bears")              # 701.3b
    assert not attach(w, "bonesplitter", "forest")
    assert w.objects["bonesplitter"].attached_to == "grizzly-bears"
    assert attach(w, "bonesplitter", None) and w.objects["bonesplitter"].attached_to is None
    assert attach(w, "bonesplitter", "grizzly-bears")
    assert w.objects["bonesplitter"].timestamp > before


def test_a_fortification_fortifies_lands_only() -> None:
    """CR 301.6, 702.67a: a Fortification is attached to a land, never to a creature."""
    s = load({"battlefield": {"alice": ["Grizzly Bears", "Forest", "Darksteel Garrison"]}})
    assert attachment_legal(View(s), "darksteel-garrison", "forest")
    assert not attachment_legal(View(s), "darksteel-garrison", "grizzly-bears")
    fortify = [a for a in get_card("Darksteel Garrison").abilities if isinstance(a, ir.ActivatedAbility)]
    assert fortify[0].targets[0].filter.types == frozenset({"Land"}) and fortify[0].sorcery


def test_state_based_actions_unattach_an_equipment_from_a_player() -> None:
    """CR 704.5n: an Equipment attached to a player becomes unattached and stays on the battlefield."""
    s = load({"battlefield": {"alice": ["Grizzly Bears", "Bonesplitter"]}})
    on_bob = s.with_(objects=tuple(o.with_(attached_to="bob") if o.id == "bonesplitter" else o for o in s.objects))
    (branch,) = settle(on_bob).branches
    o = branch.state.find("bonesplitter")
    assert o is not None and o.zone == "battlefield" and o.attached_to is None


def test_the_equipped_creature_gets_the_bonus_after_equip_resolves() -> None:
    """CR 301.5a, 613.4c: "Equipped creature gets +2/+0" follows the new attachment."""
    s = load({"battlefield": {"alice": ["Grizzly Bears", "Llanowar Elves",
                                        {"card": "Bonesplitter", "attached_to": "grizzly-bears"}]},
              "stack": [{"ability": {"source": "bonesplitter", "index": 1}, "controller": "alice",
                         "targets": [["llanowar-elves"]]}]})
    assert View(s).chars("grizzly-bears").power == 4
    (out,) = resolve_top(s).outcomes
    v = View(out.state)
    assert v.chars("grizzly-bears").power == 2 and v.chars("llanowar-elves").power == 3


# --- soundness both ways ----------------------------------------------------------------------------

def _equip_on_stack(extra: list[Any], equipment: Any = "Bonesplitter", eq_id: str = "bonesplitter") -> Any:
    return load({"battlefield": {"alice": ["Grizzly Bears", equipment], "bob": extra},
                 "stack": [{"ability": {"source": eq_id, "index": 1}, "controller": "alice",
                            "targets": [["grizzly-bears"]]}]})


def _unread_card(name: str, text: str, types: tuple[str, ...] = ("Enchantment",)) -> dict[str, Any]:
    return {"card": {"name": name, "manaCost": "{2}", "type": " ".join(types), "types": list(types), "text": text}}


def test_a_read_equip_is_no_unread_part_and_resolves() -> None:
    s = _equip_on_stack([])
    assert unread_parts(s) == ()
    assert answer(s, {"kind": "resolve"})["status"] == "ok"


def test_an_unread_equip_blocks_its_own_resolution_not_its_activation() -> None:
    """"Equip commander {3}" is not read: resolving it is refused; the other, read, equip ability
    of the same card resolves."""
    plate = load({"battlefield": {"alice": ["Grizzly Bears", "Commander's Plate"]},
                  "stack": [{"ability": {"source": "commanders-plate", "index": 1}, "controller": "alice",
                             "targets": [["grizzly-bears"]]}]})
    assert answer(plate, {"kind": "resolve"})["status"] == "unsupported"
    read = load({"battlefield": {"alice": ["Grizzly Bears", "Commander's Plate"]},
                 "stack": [{"ability": {"source": "commanders-plate", "index": 2}, "controller": "alice",
                            "targets": [["grizzly-bears"]]}]})
    got = answer(read, {"kind": "resolve"})
    assert got["status"] in ("ok", "unsupported")
    assert all("Equip {5}" not in (u.get("text") or "") for u in got.get("unsupported", []))


def test_unread_triggers_block_an_equip_resolution_only_when_reached() -> None:
    """Attaching causes no cast, draw or tap event: such unread triggers don't block it; a "becomes
    attached" trigger (no event family: unknown) and a dies trigger (an Equipment's -N/-N kills,
    704.5f: the classification is conservative) do."""
    cast = _unread_card("Cast Watcher", "Whenever a player casts a spell, frobnicate a widget.")
    attached = _unread_card("Attach Watcher", "Whenever an Equipment becomes attached to a creature, "
                                              "frobnicate a widget.")
    dies = _unread_card("Death Watcher", "Whenever a creature dies, frobnicate a widget.")
    assert answer(_equip_on_stack([cast]), {"kind": "resolve"})["status"] == "ok"
    assert answer(_equip_on_stack([attached]), {"kind": "resolve"})["status"] == "unsupported"
    assert answer(_equip_on_stack([dies]), {"kind": "resolve"})["status"] == "unsupported"


# --- the differential test against the reference ----------------------------------------------------

CREATURES = ["Grizzly Bears", "Llanowar Elves", "Knight of the White Orchid", "Tel-Jilad Chosen"]


@st.composite
def equip_boards(draw: Any) -> Any:
    mine = draw(st.lists(st.sampled_from(CREATURES), min_size=1, max_size=3))
    theirs = draw(st.lists(st.sampled_from(CREATURES), max_size=2))
    alice = [{"id": f"a{i}", "card": n} for i, n in enumerate(mine)]
    bob = [{"id": f"b{i}", "card": n} for i, n in enumerate(theirs)]
    ids = [o["id"] for o in alice + bob]
    equipment = draw(st.sampled_from(["Bonesplitter", "Steelclaw Lance", "Lizard Blades"]))
    index = draw(st.sampled_from([1, 2])) if equipment == "Steelclaw Lance" else 1
    on_host = draw(st.sampled_from([None] + [o["id"] for o in alice if o["card"] != "Tel-Jilad Chosen"]))
    eq: dict[str, Any] = {"id": "eq", "card": equipment, **({"attached_to": on_host} if on_host else {})}
    gone = draw(st.booleans()) and draw(st.booleans())      # the Equipment left before resolution
    target = draw(st.sampled_from(ids + ([] if gone else ["eq"])))
    ability: dict[str, Any] = {"ability": {"source": "eq", "index": index}, "controller": "alice",
                               "targets": [[target]]}
    d: dict[str, Any] = {"battlefield": {"alice": alice + ([] if gone else [eq]), "bob": bob}}
    if gone:
        d["graveyard"] = {"alice": [{"id": "eq", "card": equipment}]}
        ability["last_known"] = {"controller": "alice"}
    d["stack"] = [ability]
    return load(d)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(equip_boards())
def test_equip_resolution_matches_the_reference(s: Any) -> None:
    """Every resolution of an equip ability on a random board equals the reference's one outcome."""
    outs = resolve_top(s).outcomes
    assert len(outs) == 1
    assert summary(outs[0].state) == expected(s)


# --- reconfigure (CR 702.151) -----------------------------------------------------------------------

def test_every_reconfigure_mana_cost_line_is_read() -> None:
    """CR 702.151a: "Reconfigure {cost}" is the keyword and two activated abilities — attach to
    another target creature you control, unattach while attached to a creature — on every card of
    the database with a mana reconfigure cost."""
    lines = _lines(r"Reconfigure (\{[0-9WUBRGC]\})+")
    assert len(lines) >= 20
    for name, ln in lines:
        abilities = get_card(name).abilities
        i = abilities.index(ir.Keyword("reconfigure"))
        attach_ab, unattach_ab = abilities[i + 1], abilities[i + 2]
        assert isinstance(attach_ab, ir.ActivatedAbility) and isinstance(unattach_ab, ir.ActivatedAbility), name
        assert attach_ab.effects == (ir.Attach(ir.SELF, ir.T(0)),) and attach_ab.sorcery
        assert attach_ab.targets[0].filter.other_than_source and attach_ab.targets[0].filter.who == "you"
        assert unattach_ab.effects == (ir.Unattach(ir.SELF),) and unattach_ab.sorcery
        assert unattach_ab.condition == ir.AttachedToCreature() and unattach_ab.cost == attach_ab.cost, name


def _actions(s: Any) -> set[tuple[str, int]]:
    got = answer(s, {"kind": "actions"})
    assert got["status"] == "ok", got
    return {(a["object"], a["index"]) for a in got["actions"] if a["kind"] == "activate"}


def test_reconfigure_attach_and_unattach_as_actions_and_characteristics() -> None:
    """CR 702.151a-b: unattached, Lizard Blades is a creature and may attach (not unattach);
    attached, it isn't a creature and may unattach; 301.5c doesn't make it fall off (704.5n)."""
    lands = ["Mountain", "Mountain"]
    free = load({"battlefield": {"alice": lands + ["Grizzly Bears", "Lizard Blades"]}})
    assert View(free).chars("lizard-blades").is_creature
    assert ("lizard-blades", 1) in _actions(free) and ("lizard-blades", 2) not in _actions(free)
    on = load({"battlefield": {"alice": lands + ["Grizzly Bears",
                                                 {"card": "Lizard Blades", "attached_to": "grizzly-bears"}]}})
    assert not View(on).chars("lizard-blades").is_creature
    assert "double strike" in {getattr(a, "name", "") for a in View(on).chars("grizzly-bears").abilities}
    assert ("lizard-blades", 2) in _actions(on)
    assert settle(on).changed is False

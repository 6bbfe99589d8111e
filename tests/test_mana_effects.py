"""Mana added by resolving spells and abilities (CR 106.1, 106.4, 605.5a, 608.2): the reader's
:class:`~solver.core.ir.AddMana` over the database, every outcome equal to the plain enumeration of
``tests/reference/add_mana_ref.py``, the mana usable through the API while it stays (CR 500.4), and
soundness both ways (an unread restriction or "instead" refuses; an unread "for mana" trigger, which
adding mana by a spell can't trigger, does not)."""
from __future__ import annotations

import dataclasses
import gzip
import json
import os
import re
from functools import lru_cache
from pathlib import Path
from typing import Any, Iterator

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from mtgsolve.solver.api import Situation
from mtgsolve.solver.cards import get_card
from mtgsolve.solver.core import ir
from mtgsolve.solver.core.mana import Mana
from mtgsolve.solver.engine.resolution import resolve_top
from mtgsolve.solver.io.load import situation_from_dict
from mtgsolve.solver.queries import answer

from reference.add_mana_ref import added, pools_after

DATA = Path(__file__).resolve().parent.parent / "solver" / "data" / "oracle-cards.json.gz"
EXAMPLES = int(os.environ.get("MTGSOLVE_EXAMPLES", "60"))


def _walk(value: Any) -> Iterator[Any]:
    """Every IR value inside ``value`` (dataclass fields, tuples)."""
    yield value
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        for f in dataclasses.fields(value):
            yield from _walk(getattr(value, f.name))
    elif isinstance(value, (tuple, list)):
        for v in value:
            yield from _walk(v)


def _adds(value: Any) -> list[ir.AddMana]:
    return [v for v in _walk(value) if isinstance(v, ir.AddMana)]


@lru_cache(maxsize=1)
def _database_adders() -> dict[str, list[tuple[Any, list[ir.AddMana]]]]:
    """Cards of the database with an "add" instruction the reader read as AddMana: per card, the
    ability or spell behaviour holding it."""
    with gzip.open(DATA, "rt", encoding="utf-8") as f:
        cards = json.load(f)
    out: dict[str, list[tuple[Any, list[ir.AddMana]]]] = {}
    for c in cards:
        if not re.search(r"\badds?\b", (c.get("text") or "").lower()):
            continue
        card = get_card(c["name"])
        holders = [(a, _adds(a)) for a in (*card.abilities, card.spell) if a is not None]
        holders = [(a, got) for a, got in holders if got]
        if holders:
            out[c["name"]] = holders
    return out


def test_rituals_and_an_enters_trigger_are_read():
    dark = get_card("Dark Ritual").spell
    assert dark is not None and dark.effects == (ir.AddMana(ir.FixedMana((Mana.parse("{B}{B}{B}"),))),)
    morph = get_card("Manamorphose").spell
    assert morph is not None and [type(e) for e in morph.effects] == [ir.AddMana, ir.Draw]
    assert morph.effects[0].produce == ir.Combination(amount=2)
    trig = [a for a in get_card("Crumbling Vestige").abilities if isinstance(a, ir.TriggeredAbility)]
    assert trig and trig[0].effects == (ir.AddMana(ir.AnyColor()),)
    # an activated ability that adds mana without a target stays a mana ability (CR 605.1a)
    assert any(isinstance(a, ir.ManaAbility) for a in get_card("Llanowar Elves").abilities)


def test_every_add_mana_of_the_database_uses_the_stack():
    """CR 605.1a-b, 605.5a: AddMana only in spells, triggered abilities that are not mana abilities
    (no "tapped for mana" event) and loyalty abilities — never in an activated ability without a
    loyalty cost, which would be a mana ability."""
    adders = _database_adders()
    assert len(adders) >= 40, len(adders)
    for name, holders in adders.items():
        for a, _got in holders:
            if isinstance(a, ir.ActivatedAbility):
                assert a.cost.loyalty is not None, name
            elif isinstance(a, ir.TriggeredAbility):
                assert not isinstance(a.trigger, ir.TappedForMana), name
            else:
                assert isinstance(a, ir.SpellBehaviour), (name, type(a))


def _situation(card: str, pool: str) -> dict[str, Any]:
    d: dict[str, Any] = {"format": "mtgsolve/1", "players": ["alice", "bob"],
                         "turn": {"number": 3, "active": "alice", "step": "main1", "priority": "alice"},
                         "library": {"alice": [{"card": "Island"}]},
                         "stack": [{"id": "spell", "card": card, "controller": "alice"}]}
    if pool:
        d["mana_pool"] = {"alice": pool}
    return d


@lru_cache(maxsize=1)
def _enumerable_spells() -> list[str]:
    """Instants and sorceries whose every instruction is an AddMana the reference enumerates or a draw."""
    out = []
    for name, holders in sorted(_database_adders().items()):
        spell = get_card(name).spell
        if spell is None or spell.modes or get_card(name).unsupported:
            continue
        if not all(isinstance(e, (ir.AddMana, ir.Draw)) for e in spell.effects):
            continue
        try:
            for e in spell.effects:
                if isinstance(e, ir.AddMana):
                    added(e.produce)
        except ValueError:
            continue
        out.append(name)
    return out


def test_enough_spells_for_the_differential():
    assert len(_enumerable_spells()) >= 6, _enumerable_spells()


@settings(max_examples=EXAMPLES, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.data())
def test_outcomes_equal_the_reference(data: st.DataObject):
    """Every pool after the spell resolves, and no other, is the reference's (CR 106.1b, 106.4)."""
    name = data.draw(st.sampled_from(_enumerable_spells()))
    pool = data.draw(st.lists(st.sampled_from("WUBRGC"), max_size=3))
    start = Mana.of(pool)
    state = situation_from_dict(_situation(name, start.text)).state
    got = {tuple(sorted(t for t, n in zip("WUBRGC", dict(o.state.mana_pool).get("alice", Mana()).counts)
                        for _ in range(n)))
           for o in resolve_top(state).outcomes}
    want = {tuple(sorted(pool))}
    for e in get_card(name).spell.effects:  # type: ignore[union-attr]
        if isinstance(e, ir.AddMana):
            want = {tuple(sorted(p + extra)) for p in want for extra in added(e.produce)}
    assert got == want, name
    assert len(resolve_top(state).outcomes) == len(want)


def test_reference_pools_after():
    assert pools_after(Mana.parse("{G}"), ir.AnyColor()) == {tuple(sorted("G" + c)) for c in "WUBRG"}
    assert len(added(ir.Combination(amount=2))) == 15


def test_the_mana_is_usable_and_empties_as_the_step_ends():
    """CR 106.4, 500.4: Dark Ritual's {B}{B}{B} pays for Hypnotic Specter; unused, it is gone in the
    next step."""
    d = {"format": "mtgsolve/1", "players": ["alice", "bob"],
         "turn": {"number": 3, "active": "alice", "step": "main1"},
         "battlefield": {"alice": [{"id": "swamp", "card": "Swamp"}]},
         "hand": {"alice": [{"id": "ritual", "card": "Dark Ritual"}, {"id": "specter", "card": "Hypnotic Specter"}]},
         "library": {"alice": [{"card": "Swamp"}] * 3, "bob": [{"card": "Island"}] * 3}}
    s = Situation.from_dict(d).apply("cast ritual paying swamp").apply("pass").apply("pass")
    assert dict(s.state.mana_pool) == {"alice": Mana.parse("{B}{B}{B}")}
    assert "cast specter paying nothing" in [str(a) for a in s.legal_actions]
    later = s.apply("pass").apply("pass")   # both pass with an empty stack: the step ends
    assert later.state.turn.step != "main1" and not any(m for _, m in later.state.mana_pool)


def _resolve(d: dict[str, Any]) -> dict[str, Any]:
    return answer(situation_from_dict(d).state, {"kind": "resolve"})


def test_soundness_unread_parts_refuse_and_nothing_else():
    """An unread restriction (Geosurge) refuses the resolution; Cabal Ritual's threshold "… instead if there
    are seven or more cards in your graveyard" is read (CR 608.2c, conditional_effects); an unread "whenever
    a player taps a land for mana" trigger (Manabarbs) can't trigger from a spell's mana and does not
    (CR 605.1b, 603.2)."""
    assert _resolve(_situation("Geosurge", ""))["status"] == "unsupported"
    assert _resolve(_situation("Cabal Ritual", ""))["status"] == "ok"
    d = _situation("Dark Ritual", "")
    d["battlefield"] = {"bob": [{"id": "barbs", "card": "Manabarbs"}]}
    got = _resolve(d)
    assert got["status"] == "ok" and got["count"] == 1

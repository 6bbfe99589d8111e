"""Transforming, flipping, day and night, melding (CR 701.27, 702.145, 710, 712, 730): the kernel's
primitives (solver/engine/transition.py), the reader's effects, and the outcomes of resolving a
transform against the brute-force reference (tests/reference/transform_ref.py) on small random
boards."""
from __future__ import annotations

import random
from typing import Any

import pytest

from mtgsolve.solver.api import Situation
from mtgsolve.solver.cards import card_from_mapping, get_card
from mtgsolve.solver.core import ir
from mtgsolve.solver.engine.resolution import resolve_top
from mtgsolve.solver.engine.transition import _World, count_spell, flip, meld, move, set_day_night, transform
from mtgsolve.solver.io.dump import dump_state
from mtgsolve.solver.io.load import situation_from_dict

from reference.transform_ref import expected, meld_expected, summary

TURN = {"name": "Turn Over", "manaCost": "{U}", "type": "Instant", "types": ["Instant"],
        "text": "Transform target creature."}
FLICKER = {"name": "Flicker Over", "manaCost": "{W}", "type": "Instant", "types": ["Instant"],
           "text": "Exile target creature, then return it to the battlefield transformed under its owner's control."}


def load(d: dict) -> Any:
    return situation_from_dict({"format": "mtgsolve/1", "players": ["alice", "bob"], **d}).state


# --- the reader ----------------------------------------------------------------------------------

def test_reader_reads_transform_flip_and_delver() -> None:
    prowler = get_card("Kessig Prowler")
    assert [type(e) for a in prowler.abilities for e in getattr(a, "effects", ())] == [ir.Transform]
    delver = get_card("Delver of Secrets")
    (trig,) = delver.abilities
    (reveal,) = trig.effects
    assert isinstance(reveal, ir.RevealTop) and reveal.optional
    assert reveal.quality is not None and reveal.quality.types == frozenset({"Instant", "Sorcery"})
    assert reveal.then == (ir.Transform(ir.SELF),)
    assert not delver.unsupported
    assert ir.Keyword("daybound") in get_card("Bird Admirer").abilities


def test_reader_reads_exile_then_return_transformed() -> None:
    card = card_from_mapping(FLICKER)
    assert card.spell is not None and [type(e) for e in card.spell.effects] == [ir.ReturnTransformed]


# --- the kernel ----------------------------------------------------------------------------------

def test_transform_both_ways_keeps_the_object() -> None:
    """CR 701.27a, 712.18, 613.7g: front → back → front, same id and status, new timestamps."""
    s = load({"battlefield": {"alice": [{"id": "p", "card": "Kessig Prowler", "tapped": True,
                                         "counters": {"+1/+1": 2}, "damage": 1}]}})
    w = _World(s)
    before = w.objects["p"].timestamp
    assert transform(w, "p")
    o = w.objects["p"]
    assert o.face == "Sinuous Predator" and o.tapped and o.counters == (("+1/+1", 2),) and o.damage == 1
    assert o.timestamp > before
    assert transform(w, "p")
    assert w.objects["p"].face is None and w.objects["p"].card == s.find("p").card


def test_what_does_not_transform() -> None:
    """CR 701.27c: a single-faced card, a modal double-faced card; 702.145b: daybound by an effect."""
    s = load({"day_night": "day", "battlefield": {"alice": ["Grizzly Bears", "Bird Admirer", "Blightstep Pathway"]}})
    w = _World(s)
    for o in list(s.battlefield):
        assert not transform(w, o.id), o.id
    assert transform(w, "bird-admirer-wing-shredder", by_day_night=True)


def test_flip_and_unflip_on_leaving() -> None:
    """CR 710: flipped, the same object; a zone change leaves it unflipped (400.7)."""
    s = load({"battlefield": {"alice": [{"id": "a", "card": "Akki Lavarunner", "counters": {"+1/+1": 1}}]}})
    w = _World(s)
    assert flip(w, "a") and w.objects["a"].face == "Tok-Tok, Volcano Born"
    assert not flip(w, "a")                      # a flipped permanent stays flipped
    assert move(w, "a", "hand").face is None


def test_set_day_night_transforms_daybound_and_nightbound() -> None:
    """CR 702.145c, 702.145f."""
    s = load({"day_night": "day", "battlefield": {"alice": ["Bird Admirer", "Grizzly Bears"]}})
    w = _World(s)
    set_day_night(w, "night")
    assert w.objects["bird-admirer-wing-shredder"].face == "Wing Shredder"
    set_day_night(w, "day")
    assert w.objects["bird-admirer-wing-shredder"].face is None
    assert w.state().day_night == "day"


def test_meld_and_unmeld() -> None:
    """CR 701.42a-c, 712.4a: two cards, one melded permanent; leaving the battlefield it is two
    cards again (712.4c), each front face up, owned by their owner."""
    s = load({"battlefield": {"alice": [{"id": "bruna", "card": "Bruna, the Fading Light"},
                                        {"id": "gisela", "card": "Gisela, the Broken Blade"}]}})
    w = _World(s)
    oid = meld(w, "bruna", "gisela", "Brisela, Voice of Nightmares", "alice")
    assert oid == "bruna"
    o = w.objects[oid]
    assert o.zone == "battlefield" and o.face == "Brisela, Voice of Nightmares" and o.melded_with is not None
    assert "gisela" not in w.objects
    again = situation_from_dict(dump_state(w.state())).state
    assert again.find(oid).melded_with == o.melded_with
    move(w, oid, "graveyard")
    yard = sorted((x.card.name, x.owner, x.face) for x in w.objects.values() if x.zone == "graveyard")
    assert yard == [("Bruna, the Fading Light // Brisela, Voice of Nightmares", "alice", None),
                    ("Gisela, the Broken Blade // Brisela, Voice of Nightmares", "alice", None)]


def test_meld_needs_the_pair() -> None:
    """CR 701.42b-c: cards that aren't the meld pair stay in exile."""
    s = load({"battlefield": {"alice": [{"id": "bruna", "card": "Bruna, the Fading Light"},
                                        {"id": "bears", "card": "Grizzly Bears"}]}})
    w = _World(s)
    assert meld(w, "bruna", "bears", "Brisela, Voice of Nightmares", "alice") is None
    assert sorted(o.zone for o in w.objects.values()) == ["exile", "exile"]


def test_spells_cast_counted_only_when_recorded() -> None:
    s = load({"turn": {"active": "alice", "spells_cast": {"bob": 1}}})
    t = count_spell(s.turn, "alice", s.player_ids)
    assert t.spells_cast == (("alice", 1), ("bob", 1)) and t.cast_by("alice") == 1
    assert count_spell(load({}).turn, "alice", ("alice", "bob")).spells_cast is None


def test_spells_cast_loads_and_dumps() -> None:
    s = load({"turn": {"active": "alice", "spells_cast": {"alice": 2, "bob": 0}}})
    assert s.turn.spells_cast == (("alice", 2),)
    assert dump_state(s)["turn"]["spells_cast"] == {"alice": 2}
    with pytest.raises(Exception):
        load({"turn": {"spells_cast": {"carol": 1}}})


# --- resolution against the reference ------------------------------------------------------------

POOL = [{"card": "Kessig Prowler"}, {"card": "Kessig Prowler", "face": "Sinuous Predator"},
        {"card": "Delver of Secrets"}, {"card": "Delver of Secrets", "face": "Insectile Aberration"},
        {"card": "Grizzly Bears"}, {"card": "Bird Admirer"}, {"card": "Bird Admirer", "face": "Wing Shredder"},
        {"card": "Hookhand Mariner"}]


def _board(rng: random.Random, day_night: str) -> dict:
    bf: dict[str, list] = {"alice": [], "bob": []}
    n = rng.randint(1, 4)
    for i in range(n):
        o = dict(rng.choice(POOL), id=f"c{i}")
        if o["card"] in ("Bird Admirer", "Hookhand Mariner"):   # daybound: nightbound face up at night (702.145c)
            o.pop("face", None)
            if day_night == "night":
                o["face"] = {"Bird Admirer": "Wing Shredder", "Hookhand Mariner": "Riphook Raider"}[o["card"]]
        if rng.random() < 0.5:
            o["tapped"] = True
        if rng.random() < 0.4:
            o["counters"] = {"+1/+1": rng.randint(1, 2)}
        if rng.random() < 0.3:
            o["damage"] = 1
        bf[rng.choice(["alice", "bob"])].append(o)
    if rng.random() < 0.4:
        host = f"c{rng.randrange(n)}"
        owner = next(p for p, objs in bf.items() if any(o["id"] == host for o in objs))
        bf[owner].append({"id": "aura", "card": "Rancor", "attached_to": host})
    return bf


@pytest.mark.parametrize("seed", range(40))
def test_resolution_matches_reference(seed: int) -> None:
    rng = random.Random(seed)
    day_night = rng.choice(["day", "night"])
    bf = _board(rng, day_night)
    creatures = [o["id"] for objs in bf.values() for o in objs if o["id"] != "aura"]
    returned = rng.random() < 0.4
    spell = {"card": FLICKER if returned else TURN, "controller": "alice", "targets": [[rng.choice(creatures)]]}
    state = load({"turn": {"active": "alice", "step": "main1"}, "day_night": day_night, "battlefield": bf,
                  "stack": [spell]})
    res = resolve_top(state)
    assert len(res.outcomes) == 1
    assert summary(res.outcomes[0].state) == expected(state, returned)


# --- soundness and games -------------------------------------------------------------------------

def test_read_parts_no_longer_block_and_unread_ones_still_do() -> None:
    """Transform effects, Delver's trigger and daybound are read, and so is Reckless Stormseeker's combat
    trigger now (issue 27: step triggers); Tireless Tracker's sacrifice trigger is not, and is listed
    (docs/soundness.md)."""
    sit = Situation.from_dict({"format": "mtgsolve/1", "players": ["alice", "bob"], "day_night": "day",
                               "turn": {"active": "alice", "step": "main1"},
                               "battlefield": {"alice": ["Delver of Secrets", "Kessig Prowler", "Bird Admirer",
                                                         "Reckless Stormseeker", "Tireless Tracker"]}})
    texts = [u["text"] for u in sit.unsupported]
    assert texts == ["Whenever you sacrifice a Clue, put a +1/+1 counter on this creature."]


def test_a_game_counts_spells_and_night_falls() -> None:
    """Games: casting counts in turn.spells_cast (CR 601.2i); a turn with no spell makes it night as
    the next begins (CR 730.2a), and Bird Admirer transforms (702.145c)."""
    base = {"format": "mtgsolve/1", "players": ["alice", "bob"], "day_night": "day",
            "turn": {"number": 2, "active": "alice", "step": "main1", "spells_cast": {}},
            "battlefield": {"alice": ["Mountain", "Bird Admirer"]}, "hand": {"alice": ["Shock"]},
            "library": {"alice": ["Island"], "bob": ["Island"]}}
    cast = Situation.from_dict(base).apply("cast shock -> bob")
    assert cast.state.turn.cast_by("alice") == 1
    quiet = Situation.from_dict(dict(base, turn=dict(base["turn"], step="end")))
    s = quiet
    while s.state.turn.number == 2:
        s = s.apply("pass")
    assert s.state.day_night == "night"
    assert s.state.find("bird-admirer-wing-shredder").face == "Wing Shredder"
    assert s.state.turn.spells_cast == ()


MELD_POOL = [("Hanweir Garrison", "alice", "alice"), ("Hanweir Garrison", "bob", "alice"),
             ("Hanweir Garrison", "alice", "bob"), ("Grizzly Bears", "alice", "alice"),
             ("Hanweir Garrison", "alice", "alice")]


@pytest.mark.parametrize("seed", range(20))
def test_meld_matches_reference(seed: int) -> None:
    rng = random.Random(1000 + seed)
    bf: dict[str, list] = {"alice": [], "bob": []}
    owner = rng.choice(["alice", "alice", "bob"])
    bf["alice"].append({"id": "battlements", "card": "Hanweir Battlements", "tapped": True, "owner": owner})
    for i in range(rng.randint(0, 3)):
        card, own, ctl = rng.choice(MELD_POOL)
        o: dict = {"id": f"g{i}", "card": card, "owner": own}
        if rng.random() < 0.4:
            o["counters"] = {"+1/+1": 1}
        if rng.random() < 0.4:
            o["tapped"] = True
        bf[ctl].append(o)
    state = load({"turn": {"active": "alice", "step": "main1"}, "battlefield": bf,
                  "stack": [{"ability": {"source": "battlements", "index": 3}, "controller": "alice"}]})
    got = sorted((summary(o.state) for o in resolve_top(state).outcomes), key=repr)
    want = sorted(meld_expected(state, "Hanweir Garrison", "Hanweir, the Writhing Township"), key=repr)
    assert got == want

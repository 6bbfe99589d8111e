"""Control until end of turn, and the delayed return of an exiled card (issues 26, 27; helper animate):
the shapes over the database, the engine against an independent reference (tests/reference/control_ref.py)
on random boards, the situation key ``control_reverts_to``, and soundness both ways."""
from __future__ import annotations

import gzip
import json
import re
from pathlib import Path

import pytest
from hypothesis import given, settings, strategies as st

from mtgsolve.solver.cards.coverage import card_faces
from mtgsolve.solver.core.errors import SituationError
from mtgsolve.solver.io.load import situation_from_dict
from mtgsolve.solver.queries import answer
from mtgsolve.solver.rules.characteristics import View

from tests.reference.control_ref import attacking_tokens, cleanup, delayed_return, gain_control, next_turn
from tests.reference.library_ref import search_up_to_results

ROOT = Path(__file__).resolve().parent.parent
#: the shape after a plain head (a spell, "When this creature enters, ", an activation cost) whose target
#: description the target reader holds (not "… less than or equal to the number of …", "creature or Vehicle")
THREATEN = re.compile(r"^(When this creature enters, |[^:.]*: )?(?![^.]*(number of|Vehicle))(gain control of target "
                      r"[^.]* until end of turn\. Untap (that creature|it)\.|untap target [^.]* and gain control of "
                      r"it until end of turn\.) (It|That creature) gains haste until end of turn\.$", re.I)
#: (a target "you own" is no description the target reader holds)
DELAYED_RETURN = re.compile(r"^(When this creature enters, |[^:.]*: )?(?![^.]*you own)exile (this creature|(another |up to one )?target "
                            r"[^.]*)\. Return (it|that card) to the battlefield under (its owner's|your) control at "
                            r"the beginning of the next end step\.$", re.I)


def _lines(pattern: re.Pattern[str], words: str) -> list[tuple[str, bool]]:
    out = []
    for raw in json.load(gzip.open(ROOT / "solver" / "data" / "oracle-cards.json.gz")):
        if words not in json.dumps(raw).lower():
            continue
        out += [(raw["name"], r.understood) for f in card_faces(raw, set(), set()) for r in f.lines
                if pattern.search(r.clean)]
    return out


def test_threaten_shape_read_on_every_card():
    """"Gain control of target … until end of turn. Untap that creature. It gains haste until end of turn." and
    Threaten's "Untap target creature and gain control of it …" (CR 613.1b, 611.2a): every card printing it."""
    lines = _lines(THREATEN, "gain control")
    assert len(lines) >= 20
    assert [n for n, ok in lines if not ok] == []


def test_delayed_return_shape_read_on_every_card():
    """"Exile <one object>. Return it / that card to the battlefield under … control at the beginning of the next
    end step." (CR 603.7a, 603.7c): every card printing it alone on its line."""
    lines = _lines(DELAYED_RETURN, "next end step")
    assert len(lines) >= 12
    assert [n for n, ok in lines if not ok] == []


PLAYERS = ["alice", "bob"]
#: (card, until end of turn, untaps)
SEIZE = {"name": "Test Seize", "types": ["Sorcery"], "text": "Gain control of target creature."}
SPELLS: list[tuple[object, bool, bool]] = [("Act of Treason", True, True), ("Threaten", True, True), (SEIZE, False, False)]


@st.composite
def _boards(draw: st.DrawFn) -> tuple[list[tuple[str, str, bool, bool, str | None]], str, int, tuple[str, bool, bool]]:
    perms = []
    for _ in range(draw(st.integers(1, 3))):
        controller, owner = draw(st.sampled_from(PLAYERS)), draw(st.sampled_from(PLAYERS))
        other = PLAYERS[1 - PLAYERS.index(controller)]
        perms.append((controller, owner, draw(st.booleans()), draw(st.booleans()),
                      draw(st.sampled_from([None, other]))))
    return perms, draw(st.sampled_from(PLAYERS)), draw(st.integers(0, len(perms) - 1)), draw(st.sampled_from(SPELLS))


def _situation(perms: list, step: str, **kw: object) -> dict:
    bf: dict[str, list] = {}
    for i, (controller, owner, tapped, sick, reverts) in enumerate(perms):
        o: dict = {"id": f"b{i}", "card": "Grizzly Bears", "owner": owner, "tapped": tapped, "sick": sick}
        if reverts is not None:
            o["control_reverts_to"] = reverts
        bf.setdefault(controller, []).append(o)
    d: dict = {"format": "mtgsolve/1", "players": PLAYERS, "turn": {"number": 3, "active": "alice", "step": step},
               "battlefield": bf}
    d.update(kw)
    return d


def _perms(sit: dict) -> dict[str, tuple]:
    out = {}
    for controller, objs in sit.get("battlefield", {}).items():
        for o in objs:
            out[o["id"]] = (controller, o.get("owner", controller), bool(o.get("tapped")), bool(o.get("sick")),
                            o.get("control_reverts_to"))
    return out


@settings(max_examples=25, deadline=None)
@given(_boards())
def test_control_change_and_cleanup_equal_the_reference(board):
    """The spell resolves (CR 613.1b, 302.6, 701.26b), then both players pass in the end step: cleanup ends the
    "until end of turn" control (514.2) and bob's turn begins (502.3, 302.6) — each equal to the reference."""
    perms, caster, target, (card, until_eot, untap) = board
    d = _situation(perms, "main1", stack=[{"card": card, "controller": caster, "targets": [[f"b{target}"]]}])
    r = answer(situation_from_dict(d).state, {"kind": "resolve"})
    assert r["status"] == "ok" and r["count"] == 1, r
    after = list(perms)
    after[target] = gain_control(perms[target], caster, until_eot, untap)
    sit = r["outcomes"][0]["situation"]
    assert _perms(sit) == {f"b{i}": p for i, p in enumerate(after)}
    sit["turn"] = {"number": 3, "active": "alice", "step": "end", "priority": "bob", "passed": ["alice"]}
    r2 = answer(situation_from_dict(sit).state, {"kind": "pass"})
    assert r2["status"] == "ok" and r2["count"] == 1, r2
    assert _perms(r2["outcomes"][0]["situation"]) == {f"b{i}": next_turn(cleanup(p), "bob") for i, p in enumerate(after)}


BLINKER = {"name": "Test Blinker", "types": ["Creature"], "power": "1", "toughness": "1",
           "text": "{1}: Exile another target creature. Return it to the battlefield under your control at the "
                   "beginning of the next end step."}


@settings(max_examples=20, deadline=None)
@given(st.sampled_from(["exile", "graveyard", "hand"]), st.booleans(), st.sampled_from(PLAYERS),
       st.sampled_from(PLAYERS), st.sampled_from([("flickerwisp", "Flickerwisp", "owner"),
                                                  ("test-blinker", BLINKER, "you")]))
def test_delayed_return_equals_the_reference(zone, token, owner, controller, source):
    """The delayed ability resolves on the card it remembered (CR 603.7c, 400.7, 111.7)."""
    if token and zone != "exile":
        token = False   # a token exists only on the battlefield or, until state-based actions, in exile
    sid, card, under = source
    d = {"format": "mtgsolve/1", "players": PLAYERS, "turn": {"number": 3, "active": "alice", "step": "end"},
         "battlefield": {controller: [{"id": sid, "card": card}]},
         zone: {owner: [{"id": "bears", "card": "Grizzly Bears", **({"token": True} if token else {})}]},
         "stack": [{"ability": {"source": sid, "index": 1}, "delayed": 1, "controller": controller, "it": "bears"}]}
    r = answer(situation_from_dict(d).state, {"kind": "resolve"})
    assert r["status"] == "ok" and r["count"] == 1, r
    sit = r["outcomes"][0]["situation"]
    where, under_whom = delayed_return(zone, token, owner, controller, under)
    found = [(z, k) for z in ("battlefield", "exile", "graveyard", "hand") for k, objs in sit.get(z, {}).items()
             for o in objs if o["id"] == "bears"]
    if token:
        assert found == []      # the token ceased to exist (704.5d)
    else:
        assert found == [(where, under_whom if where == "battlefield" else owner)]


def test_control_reverts_to_errors():
    base = _situation([("alice", "bob", False, True, "bob")], "main1")
    situation_from_dict(base)
    bad = _situation([("alice", "bob", False, True, "alice")], "main1")
    with pytest.raises(SituationError, match="already controls it"):
        situation_from_dict(bad)
    bad2 = _situation([("alice", "bob", False, True, "carol")], "main1")
    with pytest.raises(SituationError, match="unknown player"):
        situation_from_dict(bad2)
    gy = {"format": "mtgsolve/1", "players": PLAYERS,
          "graveyard": {"bob": [{"card": "Grizzly Bears", "control_reverts_to": "alice"}]}}
    with pytest.raises(SituationError, match="for a permanent"):
        situation_from_dict(gy)


UNREAD = {"name": "Test Keeper", "types": ["Creature"], "power": "1", "toughness": "1",
          "text": "{1}: Gain control of target creature for as long as you control this creature."}


def test_soundness_both_ways():
    """Read: Act of Treason resolves, nothing blocks it. Unread ("for as long as …", CR 611.2b): the line
    blocks its ability's resolution and nothing else — its targets and the actions stay ``ok``."""
    read = _situation([("bob", "bob", True, False, None)], "main1",
                      stack=[{"card": "Act of Treason", "controller": "alice", "targets": [["b0"]]}])
    assert answer(situation_from_dict(read).state, {"kind": "resolve"})["status"] == "ok"
    d = _situation([("bob", "bob", True, False, None)], "main1")
    d["battlefield"]["alice"] = [{"id": "keeper", "card": UNREAD}, "Mountain"]
    st0 = situation_from_dict(d).state
    assert answer(st0, {"kind": "actions", "player": "alice"})["status"] == "ok"
    assert answer(st0, {"kind": "targets", "activate": {"object": "keeper", "index": 1}})["status"] == "ok"
    d["stack"] = [{"ability": {"source": "keeper", "index": 1}, "controller": "alice", "targets": [["b0"]]}]
    r = answer(situation_from_dict(d).state, {"kind": "resolve"})
    assert r["status"] == "unsupported" and "for as long as" in json.dumps(r["unsupported"])


LIBRARY_CARDS = ["Forest", "Mountain", "Grizzly Bears", "Plains"]
#: (spell, up to N, zone the cards found go to)
UP_TO = [("Explosive Vegetation", 2, "battlefield"), ("Seek the Horizon", 3, "hand")]


@settings(max_examples=25, deadline=None)
@given(st.lists(st.sampled_from(LIBRARY_CARDS), min_size=1, max_size=6), st.sampled_from(UP_TO))
def test_search_up_to_equals_the_reference(library, spell):
    """"Search your library for up to N basic land cards, put them …, then shuffle" (CR 701.23b): every
    distinct set of cards found, equal to the brute-force reference (tests/reference/library_ref.py)."""
    card, n, zone = spell
    d = {"format": "mtgsolve/1", "players": PLAYERS, "turn": {"number": 3, "active": "alice", "step": "main1"},
         "library": {"alice": library}, "stack": [{"card": card, "controller": "alice"}]}
    r = answer(situation_from_dict(d).state, {"kind": "resolve"})
    assert r["status"] == "ok", r
    got = set()
    for o in r["outcomes"]:
        sit = o["situation"]
        found = tuple(sorted(x["card"] for x in sit.get(zone, {}).get("alice", []) if x["card"] != card))
        got.add((found, tuple(sorted(x["card"] for x in sit.get("library", {}).get("alice", [])))))
    assert len(got) == r["count"]
    assert got == search_up_to_results(library, lambda name: name != "Grizzly Bears", n)


#: two different planeswalkers (the legend rule, CR 704.5j, would keep one of two of a name)
WALKERS = ["Jace, the Mind Sculptor", "Liliana of the Veil"]


@settings(max_examples=25, deadline=None)
@given(st.integers(1, 3), st.lists(st.integers(0, 2), min_size=1, max_size=2),
       st.sampled_from(["declare_attackers", "declare_blockers", "main2"]), st.booleans())
def test_tokens_entering_attacking_equal_the_reference(n, walkers, step, per_opponent):
    """"create N … tokens that are tapped and attacking" / "for each opponent, create … attacking that player or
    a planeswalker they control" (CR 508.4, 506.3): what the tokens attack, over every outcome, equals the
    reference's distinct assignments (interchangeable tokens once)."""
    opponents = ["bob", "carol"][:len(walkers)]
    text = (f"Whenever this creature attacks, for each opponent, create {'a' if n == 1 else n} 1/1 white Human creature "
            f"token{'' if n == 1 else 's'} that {'is' if n == 1 else 'are'} tapped and attacking that player or a "
            f"planeswalker they control." if per_opponent else
            f"Whenever this creature attacks, create {'a' if n == 1 else n} 1/1 white Human creature "
            f"token{'' if n == 1 else 's'} that {'is' if n == 1 else 'are'} tapped and attacking.")
    src = {"name": "Test Caller", "types": ["Creature"], "power": "1", "toughness": "1", "text": text}
    bf: dict = {"alice": [{"id": "caller", "card": src, "tapped": True}]}
    for p, k in zip(opponents, walkers):
        bf[p] = [{"id": f"{p}-jace-{i}", "card": WALKERS[i], "counters": {"loyalty": 3}} for i in range(k)]
    d = {"format": "mtgsolve/1", "players": ["alice", *opponents], "turn": {"number": 5, "active": "alice", "step": step},
         "battlefield": bf, "stack": [{"ability": {"source": "caller", "index": 1}, "controller": "alice"}]}
    r = answer(situation_from_dict(d).state, {"kind": "resolve"})
    assert r["status"] == "ok", r
    got = set()
    for o in r["outcomes"]:
        toks = [x for x in o["situation"]["battlefield"]["alice"] if x.get("token")]
        assert len(toks) == n * (len(opponents) if per_opponent else 1)
        assert all(x.get("tapped") for x in toks)
        got.add(tuple(sorted(x["attacking"] for x in toks if "attacking" in x)))
    assert len(got) == r["count"]
    groups = [[p, *(f"{p}-jace-{i}" for i in range(k))] for p, k in zip(opponents, walkers)] if per_opponent else \
        [[*opponents, *(f"{p}-jace-{i}" for p, k in zip(opponents, walkers) for i in range(k))]]
    assert got == attacking_tokens(n, groups, step != "main2")


GIDEONS = re.compile(r"becomes an? \d+/\d+ [^.]*creature[^.]* that's still a planeswalker\. Prevent all damage that "
                     r"would be dealt to him this turn\.$")


def test_gideon_shape_read_on_every_card():
    """"Until end of turn, Gideon becomes a N/N Human Soldier creature [with indestructible] that's still a
    planeswalker. Prevent all damage that would be dealt to him this turn." (CR 611.2a, 205.1b, 615.1): every
    card whose name the line uses as the reader does (its full name or the part before a comma)."""
    lines = _lines(GIDEONS, "still a planeswalker")
    assert len(lines) >= 5
    assert [n for n, ok in lines if not ok] == ["Gideon of the Trials"]   # "Gideon": no self-reference of its name


ANIMATE_ARTIFACT = {"name": "Test Awakening", "types": ["Sorcery"],
                    "text": "Target artifact becomes an artifact creature until end of turn."}


def test_animate_without_power_and_toughness():
    """"becomes an artifact creature" states no power and toughness: a Vehicle has its printed ones (CR 301.7);
    a permanent with none printed is refused as it resolves (CR 208.3), never given a guessed 0/0."""
    for target, status in (("Fleetwheel Cruiser", "ok"), ("Sol Ring", "unsupported")):
        d = {"format": "mtgsolve/1", "players": PLAYERS, "turn": {"number": 3, "active": "alice", "step": "main1"},
             "battlefield": {"alice": [{"id": "t", "card": target}]},
             "stack": [{"card": ANIMATE_ARTIFACT, "controller": "alice", "targets": [["t"]]}]}
        assert answer(situation_from_dict(d).state, {"kind": "resolve"})["status"] == status


@pytest.mark.parametrize("first,second,expect", [
    ("Water Wings", "Diminish", (1, 1, True)),     # the later base 1/1; the earlier flying stays (613.7)
    ("Diminish", "Water Wings", (4, 4, True)),
])
def test_two_animations_apply_in_timestamp_order(first, second, expect):
    """Two resolved "base power and toughness" effects on one creature (CR 613.4b, 613.7): the later one's
    base wins, and the keywords each grants all apply (layer 6)."""
    d = {"format": "mtgsolve/1", "players": PLAYERS, "turn": {"number": 3, "active": "alice", "step": "main1"},
         "battlefield": {"alice": ["Grizzly Bears"]},
         "effects": [{"card": first, "controller": "alice", "targets": [["grizzly-bears"]]},
                     {"card": second, "controller": "alice", "targets": [["grizzly-bears"]]}]}
    c = View(situation_from_dict(d).state).chars("grizzly-bears")
    assert (c.power, c.toughness, c.keyword("flying")) == expect


def test_group_base_pt_in_the_view():
    """Allosaurus Shepherd's effect (CR 611.2c, 613.1d, 613.4b): the Elves of the fixed set are 5/5 Dinosaurs in
    addition to their types, a +1/+1 counter on top (613.4c); an Elf not in the set is unchanged."""
    d = {"format": "mtgsolve/1", "players": PLAYERS, "turn": {"number": 3, "active": "alice", "step": "main1"},
         "battlefield": {"alice": ["Allosaurus Shepherd", {"card": "Llanowar Elves", "counters": {"+1/+1": 1}},
                                   {"id": "late-elf", "card": "Llanowar Elves"}]},
         "effects": [{"ability": {"source": "allosaurus-shepherd", "index": 1}, "controller": "alice",
                      "affected": [["allosaurus-shepherd", "llanowar-elves"]]}]}
    v = View(situation_from_dict(d).state)
    elf, late = v.chars("llanowar-elves"), v.chars("late-elf")
    assert (elf.power, elf.toughness) == (6, 6) and {"Elf", "Druid", "Dinosaur"} <= set(elf.subtypes)
    assert (late.power, late.toughness) == (1, 1) and "Dinosaur" not in late.subtypes


TOKEN_DELAYED = re.compile(r"^(\{[^}]*\}: |At the beginning of combat on your turn, |Whenever you attack, )?create an? "
                           r"\d+/\d+ (?![^.]* named )[^.]* creature token[^.]*\. (Exile|Sacrifice) (it|that token) at "
                           r"the beginning of the next end step\.$", re.I)


def test_token_delayed_shape_read_on_every_card():
    """"Create a <creature token>. Exile / Sacrifice it at the beginning of the next end step." (CR 603.7c): every
    card printing it after a plain head whose token the token reader holds (no "named …")."""
    lines = _lines(TOKEN_DELAYED, "next end step")
    assert len(lines) >= 8
    assert [n for n, ok in lines if not ok] == []


VAMPIRE = {"name": "Vampire", "types": ["Creature"], "subtypes": ["Vampire"], "power": "3", "toughness": "1"}


@pytest.mark.parametrize("controller,stays", [("alice", False), ("bob", True)])
def test_delayed_sacrifice_only_of_a_token_you_control(controller, stays):
    """"Sacrifice it" (CR 701.21a): the delayed ability's controller sacrifices the token only if they control it."""
    tok: dict = {"id": "vampire", "card": VAMPIRE, "token": True, "owner": "alice"}
    if controller != "alice":
        tok["control_reverts_to"] = "alice"
    d = {"format": "mtgsolve/1", "players": PLAYERS, "turn": {"number": 5, "active": "alice", "step": "end"},
         "battlefield": {controller: [tok]}, "graveyard": {"alice": ["Hungry for More"]},
         "stack": [{"ability": {"source": "hungry-for-more", "index": 0}, "delayed": 1, "controller": "alice",
                    "it": "vampire"}]}
    r = answer(situation_from_dict(d).state, {"kind": "resolve"})
    assert r["status"] == "ok" and r["count"] == 1
    assert ("vampire" in json.dumps(r["outcomes"][0]["situation"].get("battlefield", {}))) == stays


#: each card's printed types (CR 205.2), as the reference states them
GRAVE_TYPES = {"Forest": {"Land"}, "Island": {"Land"}, "Grizzly Bears": {"Creature"}, "Glorious Anthem": {"Enchantment"},
               "Ornithopter": {"Artifact", "Creature"}}
GRAVE_CARDS = sorted(GRAVE_TYPES)
RETURN_ALL = [("Splendid Reclamation", {"Land"}, True), ("Brilliant Restoration", {"Artifact", "Enchantment"}, False)]


@settings(max_examples=20, deadline=None)
@given(st.lists(st.sampled_from(GRAVE_CARDS), max_size=5), st.lists(st.sampled_from(GRAVE_CARDS), max_size=3),
       st.sampled_from(RETURN_ALL))
def test_return_all_from_graveyard_equals_the_reference(mine, theirs, spell):
    """"Return all <type> cards from your graveyard to the battlefield [tapped]" (CR 400.7, 608.2c): exactly the
    caster's cards of those types enter (tapped if it says so); the rest, and the opponent's, stay."""
    card, types, tapped = spell
    d = {"format": "mtgsolve/1", "players": PLAYERS, "turn": {"number": 3, "active": "alice", "step": "main1"},
         "graveyard": {"alice": mine, "bob": theirs}, "stack": [{"card": card, "controller": "alice"}]}
    state = situation_from_dict(d).state
    r = answer(state, {"kind": "resolve"})
    assert r["status"] == "ok" and r["count"] == 1, r
    sit = r["outcomes"][0]["situation"]
    expect = sorted(c for c in mine if GRAVE_TYPES[c] & types)
    got = sorted(o["card"] for o in sit.get("battlefield", {}).get("alice", []))
    assert got == expect and all(bool(o.get("tapped")) == tapped for o in sit.get("battlefield", {}).get("alice", []))
    assert sorted(o["card"] for o in sit.get("graveyard", {}).get("bob", [])) == sorted(theirs)

"""Differential tests of the faces of multi-face cards (issue 24 item 5): random boards drawn
with two-faced cards of every layout in every zone and legal state (tests/strategies/faces.py)
answer as the brute-force references do.

* What each object is — name, mana value, colors, types, power, toughness — equals
  ``reference.faces_ref.characteristics``, computed from the shipped face data read directly
  (CR 712.8, 709.3-709.4, 710.1c, 712.8e, 712.8g, 715.3b).
* ``could_produce`` of the multi-face permanents equals what the text of the face that is up
  says (faces_ref); ``available_mana`` equals ``reference.mana_ref``.
* ``targets`` and ``pay`` for every card in the hand, as its front and as every face it may be
  cast as, equal ``reference.targets_ref`` / ``reference.pay_ref`` on the board where that card
  *is* the face (read from the face data by faces_ref, not by the engine's faces); ``actions``
  equals ``reference.actions_ref`` the same way; the targets of a spell on the stack as a face
  or half equal ``targets_ref``.
* Force of Will exiles exactly the hand's blue cards by their face data (709.4, 712.8a, 715.4).
* ``resolve`` writes every face back: what changed zones is its front face up (400.7, 712.14).
* The situation round-trips through ``dump_state`` (the state and its key).

Bugs these checks found, each fixed and kept as a test at the end: a flipped flip card's mana value
(710.1c), an aftermath card in the hand (709.3, 702.127a), an Adventure resolving into the graveyard
instead of exile (715.3d).

Where the engine answers ``unsupported`` the answer names the part (an object and its text),
and the example is discarded (``assume(False)``). Examples scale with ``MTGSOLVE_EXAMPLES``."""
from __future__ import annotations

import os
from dataclasses import replace

import pytest
from hypothesis import HealthCheck, assume, event, example, given, settings
from hypothesis import strategies as st

from reference.actions_ref import reference_actions, reference_face_entries
from reference.alt_costs_ref import brute_cast, reference_cast_entries
from reference.faces_ref import characteristics, face_card, face_cards, reference_could_produce, text_of
from reference.mana_ref import available_mana as reference_available
from reference.pay_ref import brute_pay
from reference.targets_ref import reference_targets
from strategies.faces import ALL_FACE_CARDS, face_boards
from mtgsolve.solver.core.mana import Mana
from mtgsolve.solver.io.dump import dump_state
from mtgsolve.solver.io.load import situation_from_dict
from mtgsolve.solver.queries import Options, answer
from mtgsolve.solver.rules.characteristics import View

EXAMPLES = int(os.environ.get("MTGSOLVE_EXAMPLES", "200"))
SETTINGS = settings(max_examples=EXAMPLES, deadline=None, derandomize=os.environ.get("CI") == "true",
                    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large,
                                           HealthCheck.filter_too_much])
BASICS = {"Plains", "Island", "Swamp", "Mountain", "Forest"}


def _ok(res: dict) -> dict:
    """``res`` when ok; an ``unsupported`` answer must name the part it does not model (an
    object and its text, or a reason), and discards the example."""
    if res["status"] == "unsupported":
        parts = res.get("unsupported") or []
        assert all(p.get("object") and p.get("text") for p in parts), res
        assert parts or res.get("reason"), res
        assume(False)
    assert res["status"] == "ok", res
    return res


def _chars(view: View, oid: str) -> dict:
    c = view.chars(oid)
    return {"name": c.name, "mana_value": c.mana_value, "colors": set(c.colors), "types": set(c.types),
            "subtypes": set(c.subtypes), "supertypes": set(c.supertypes), "power": c.power, "toughness": c.toughness}


@SETTINGS
@given(face_boards())
def test_characteristics_match_the_face_data(doc):
    """Every multi-face object's characteristics are its recorded face's, by zone. A card's
    front face is named by the card's full name (``Front // Back``) in the engine; the
    reference names it by its front face's name (CR 712.8a) — the two are compared as one."""
    state = situation_from_dict(doc).state
    view = View(state)
    for o in state.objects:
        want = characteristics(o)
        if want is None:
            continue
        got = _chars(view, o.id)
        if got["name"] != want["name"] and got["name"].split(" // ")[0] == want["name"]:
            got["name"] = want["name"]
        assert got == want, (o.id, o.zone, o.card.name)
        event(f"{o.zone}: {o.whole.data.layout if o.whole else ''}{' as a face' if o.face else ''}")


@SETTINGS
@given(face_boards(stack=False))
def test_could_produce_is_the_face_ups_mana(doc):
    """CR 712.8d: a Pathway's back face makes its own color; a transformed permanent the mana
    its back face's text says (Azcanta {U}, Lost Vale any color), its front none."""
    state = situation_from_dict(doc).state
    ids = [o.id for o in state.objects if o.zone == "battlefield" and o.card is not None
           and (text_of(o) is not None or o.card.data.name in BASICS)]
    res = _ok(answer(state, {"kind": "could_produce"}))
    got = {oid: set(res["could_produce"].get(oid, [])) for oid in ids}
    assert got == reference_could_produce(state, ids)


@SETTINGS
@given(face_boards(stack=False))
def test_available_mana_matches_reference(doc):
    state = situation_from_dict(doc).state
    res = answer(state, {"kind": "available_mana", "player": "alice"}, Options(max_results=10_000))
    res = _ok(res)
    assert {Mana.parse(b) for b in res["bundles"]} == reference_available(state, "alice")


def _as_face(state, oid: str, card):
    """The board where object ``oid`` *is* ``card`` (a face read from the face data)."""
    return replace(state, objects=tuple(replace(x, card=card, front=None) if x.id == oid else x
                                        for x in state.objects))


def _casts(state, player: str):
    """(object id, face name or None, the board to ask the reference) for every way to cast or
    play each card in ``player``'s hand: its front (a split card only as a half, CR 709.3), and
    each face it may be cast as (CR 715.3, 709.3, 712.12)."""
    for o in state.objects:
        if o.zone != "hand" or o.owner != player or o.card is None:
            continue
        faces = face_cards(o.card.data.name)
        if o.card.data.layout == "aftermath":
            faces = faces[:1]    # its aftermath half only from a graveyard (CR 702.127a)
        if o.card.data.layout not in ("split", "aftermath"):
            yield o.id, None, state
        for name, card in faces:
            yield o.id, name, _as_face(state, o.id, card)


@SETTINGS
@given(face_boards())
def test_targets_for_each_face_match_reference(doc):
    """CR 715.3b, 709.3b: a spell cast as a face has that face's targets and colors (Stomp is
    red against protection from red; Malice "nonblack creature"; Abrupt Decay reads a
    transformed permanent's front mana value, 712.8e, and a melded one's total, 712.8g)."""
    state = situation_from_dict(doc).state
    player = state.turn.priority or state.turn.active
    for oid, face, board in _casts(state, player):
        if "Land" in board.obj(oid).card.data.types:
            continue
        q = {"kind": "targets", "cast": oid, "player": player, **({"face": face} if face else {})}
        res = _ok(answer(state, q, Options(max_results=10_000)))
        want = reference_targets(board, {k: v for k, v in q.items() if k != "face"})
        assert res["count"] == want["count"], (q, res, want)
        event(f"targets {'as ' + board.obj(oid).card.data.layout + ' face' if face else 'front'}: "
              f"{'some' if want['count'] else 'none'}")
        assert sorted(map(str, res["choices"])) == sorted(map(str, want["choices"])), q
    for o in state.objects:          # a spell on the stack as its face or half (CR 715.3b, 709.3b)
        if o.zone == "stack" and o.card is not None:
            q = {"kind": "targets", "spell": o.id}
            res = _ok(answer(state, q, Options(max_results=10_000)))
            want = reference_targets(state, q)
            assert (res["count"], sorted(map(str, res["choices"]))) == \
                (want["count"], sorted(map(str, want["choices"]))), (q, res, want)
            event(f"targets of a spell on the stack{' cast as a face' if o.face else ''}")


@SETTINGS
@given(face_boards(stack=False))
def test_pay_for_each_face_matches_reference(doc):
    """The cost paid is the face's mana cost (CR 601.2f, 715.3a, 709.3a, 712.11b)."""
    state = situation_from_dict(doc).state
    player = state.turn.priority or state.turn.active
    for oid, face, board in _casts(state, player):
        if "Land" in board.obj(oid).card.data.types:
            continue
        q = {"kind": "pay", "cast": oid, "player": player, **({"face": face} if face else {})}
        if board.obj(oid).card.data.mana_cost.x_count:
            q["x"] = 1
        res = _ok(answer(state, q, Options(max_results=10_000)))
        want = brute_pay(board, {k: v for k, v in q.items() if k != "face"})
        assert (res["payable"], res["count"]) == (want["payable"], want["count"]), (q, res, want)
        event(f"pay {'a face' if face else 'a front'}: {'payable' if want['payable'] else 'not payable'}")


@st.composite
def _main_phase_boards(draw):
    """Mostly alice's own main phase with an empty stack (where lands are played and sorceries
    cast), else any board."""
    doc = draw(face_boards())
    if draw(st.integers(0, 3)):
        doc.pop("stack", None)
        doc["turn"] = {"number": 3, "active": "alice", "step": "main1", "priority": "alice",
                       "lands_played": draw(st.integers(0, 1))}
    return doc


@SETTINGS
@given(_main_phase_boards())
# found by a fresh seed: a modal double-faced card's land face with "As … enters, you may pay 3 life" (two plays)
@example({"format": "mtgsolve/1", "players": ["alice", "bob"], "turn": {"number": 3, "active": "alice", "step": "main1"},
          "battlefield": {"alice": [], "bob": [{"card": "Grizzly Bears", "id": "bears"}]},
          "hand": {"alice": [{"card": "Emeria's Call // Emeria, Shattered Skyclave", "id": "o1"}]}})
def test_actions_match_reference(doc):
    """The actions are the reference's on this board (alternative costs: ``alt_costs_ref``), and
    for each face a card in the hand may be cast or played as, the reference's entries for that
    card on the board where it is that face, marked with ``face`` (an MDFC's land back face is a
    land play, CR 712.12, 305.1)."""
    state = situation_from_dict(doc).state
    player = state.turn.priority or state.turn.active
    res = _ok(answer(state, {"kind": "actions"}, Options(max_results=10_000)))
    got = [{k: v for k, v in a.items() if k != "unread"} for a in res["actions"]]
    want = [e for e in reference_cast_entries(state, player) if "alternative" in e or "kicked" in e]
    want += [e for e in reference_actions(state, player)
            if not (e.get("object") and state.obj(e["object"]).zone == "hand"
                    and state.obj(e["object"]).card.data.layout in ("split", "aftermath"))]
    for oid, face, board in _casts(state, player):
        if face is not None:
            want += [{**e, "face": face} for e in reference_actions(board, player)
                     if e["kind"] in ("cast", "play_land") and e["object"] == oid]
    # an aftermath half cast from the graveyard (CR 702.127a): the reference's face entries there
    want += [e for e in reference_face_entries(state, player)
             if state.obj(e["object"]).zone == "graveyard" and state.obj(e["object"]).card.data.layout == "aftermath"]
    key = lambda e: (e["kind"], e.get("object", ""), e.get("face") or "", e.get("alternative") or "",  # noqa: E731
                     e.get("index", 0))
    assert sorted(got, key=key) == sorted(want, key=key)
    for e in got:
        event(f"{e['kind']}{' as a face' if 'face' in e else ''}")


@SETTINGS
@given(face_boards())
def test_round_trip_through_dump(doc):
    """``dump_state`` writes every face, melded card, ``on_adventure`` and ``day_night`` back:
    loading what it wrote gives the same state and key."""
    state = situation_from_dict(doc).state
    again = situation_from_dict(dump_state(state)).state
    assert again == state
    assert again.key() == state.key()


FOW = "pay 1 life and exile a blue card from your hand"


@st.composite
def _boards_with_force_of_will(draw):
    doc = draw(face_boards(stack=False))
    hand = doc.setdefault("hand", {}).setdefault("alice", [])
    hand += [{"id": f"h{i}", "card": draw(st.sampled_from(ALL_FACE_CARDS))} for i in range(draw(st.integers(1, 3)))]
    hand.append({"id": "fow", "card": "Force of Will"})
    doc["turn"]["priority"] = "alice"
    return doc


@SETTINGS
@given(_boards_with_force_of_will())
def test_exile_a_blue_card_reads_each_cards_face_colors(doc):
    """Force of Will's alternative cost exiles a blue card from the hand: a split card is blue
    when either half is (CR 709.4), a double-faced card only when its front face is (712.8a),
    an adventurer card by the creature (715.4). The payments equal ``alt_costs_ref``; the cards
    they exile are exactly the hand's blue cards by the face data."""
    state = situation_from_dict(doc).state
    q = {"kind": "pay", "cast": "fow", "player": "alice", "alternative": FOW}
    got = _ok(answer(state, q, Options(max_results=10_000)))
    ref = brute_cast(state, q)
    assert got["count"] == ref["count"], (got, ref)
    exiled = {i for p in got["payments"] for i in p.get("exile", [])}
    blue = set()
    for o in state.objects:
        if o.zone == "hand" and o.id != "fow":
            want = characteristics(o)
            colors = want["colors"] if want is not None else \
                set(o.card.data.colors or o.card.data.mana_cost.colors)          # a single-faced card
            if "U" in colors:
                blue.add(o.id)
    names = {state.obj(i).card.name for i in blue}
    assert {state.obj(i).card.name for i in exiled} == names, (exiled, blue)
    event(f"blue cards in the hand: {len(names)}")


@SETTINGS
@given(face_boards(require_stack=True))
def test_resolve_writes_every_face_back(doc):
    """Resolving the top of the stack writes a situation that loads again (every face legal
    where it is); what stayed in its zone shows the same face, what changed zones is its front
    face up and not on an adventure (CR 400.7, 712.14); a spell cast as a face that becomes a
    permanent is its front face up (712.14)."""
    state = situation_from_dict(doc).state
    top = doc["stack"][0]["id"]
    res = _ok(answer(state, {"kind": "resolve"}, Options(max_results=1_000)))
    for outcome in res["outcomes"]:
        after = situation_from_dict(outcome["situation"]).state
        for o in after.objects:
            if o.token or o.id not in {x.id for x in state.objects}:
                continue
            before = state.obj(o.id)
            if o.zone == before.zone and o.id != top:
                assert (o.face, o.on_adventure) == (before.face, before.on_adventure), o.id
            elif o.id == top and before.face and before.whole.data.layout == "adventure" and o.zone == "exile":
                assert o.on_adventure and o.face is None, o.id          # 715.3d: exiled on an adventure
            elif o.id == top and before.face and before.whole.data.layout in ("modal_dfc", "transform") \
                    and o.zone == "battlefield":
                # a spell cast as an MDFC's back face or cast transformed (disturb) enters with that face up
                assert o.face == before.face, o.id                       # 712.14, 702.146b
            else:
                assert (o.face, o.on_adventure) == (None, False), (o.id, o.zone)
        event(f"resolved {state.obj(top).whole.data.layout}{' as a face' if state.obj(top).face else ''}")


def _load(**kw):
    d = {"format": "mtgsolve/1", "players": ["alice", "bob"],
         "turn": {"number": 3, "active": "alice", "step": "main1"}, **kw}
    return situation_from_dict(d).state


def test_a_flipped_flip_card_keeps_its_mana_value():
    """CR 710.1c: a flip card's color and mana cost don't change when it flips: Tok-Tok,
    Volcano Born (Akki Lavarunner {3}{R} flipped) has mana value 4."""
    state = _load(battlefield={"alice": [{"id": "tok", "card": "Akki Lavarunner", "face": "Tok-Tok, Volcano Born"}]})
    assert View(state).chars("tok").mana_value == 4


def test_aftermath_first_half_from_the_hand():
    """CR 702.127a, 709.3: Cut // Ribbons in the hand is cast as Cut, never as a whole (its
    aftermath half, Ribbons, only from the graveyard)."""
    state = _load(battlefield={"alice": ["Mountain", "Mountain", "Swamp", "Swamp"],
                               "bob": [{"id": "bears", "card": "Grizzly Bears"}]},
                  hand={"alice": [{"id": "cut", "card": "Cut // Ribbons"}]})
    casts = [a for a in answer(state, {"kind": "actions"})["actions"] if a.get("object") == "cut"]
    assert [a.get("face") for a in casts] == ["Cut"]
    want = brute_pay(_as_face(state, "cut", face_card("Cut // Ribbons", "Cut")), {"kind": "pay", "cast": "cut"})
    assert answer(state, {"kind": "pay", "cast": "cut", "face": "Cut"})["count"] == want["count"] > 0


def test_an_adventure_resolves_into_exile_on_an_adventure():
    """CR 715.3d: a spell cast as an Adventure is exiled as it resolves, "on an adventure"."""
    state = _load(stack=[{"id": "beast", "card": "Lovestruck Beast", "face": "Heart's Desire", "controller": "alice"}])
    (outcome,) = answer(state, {"kind": "resolve"})["outcomes"]
    beast = situation_from_dict(outcome["situation"]).state.obj("beast")
    assert (beast.zone, beast.on_adventure) == ("exile", True)

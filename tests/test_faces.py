"""Adventures (CR 715): the other face read from solver/data/card-faces.json, a face's own
name accepted for the card, casting the Adventure from the hand as an ``actions`` entry
with ``face`` and through ``pay``/``targets`` with ``face``; soundness by zone (CR 715.4);
and a differential test of the face entries against the brute-force reference
(tests/reference/actions_ref.py ``reference_face_entries``)."""
from __future__ import annotations

import os

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from reference.actions_ref import reference_actions, reference_face_entries
from mtgsolve.solver.cards import canonical_name, get_card, other_faces
from mtgsolve.solver.core.errors import QueryError, SituationError
from mtgsolve.solver.rules.characteristics import View
from mtgsolve.solver.queries import Options, answer
from mtgsolve.solver.io.load import situation_from_dict

EXAMPLES = int(os.environ.get("MTGSOLVE_EXAMPLES", "40"))


def state(**kw):
    d = {"format": "mtgsolve/1", "players": ["alice", "bob"],
         "turn": {"number": 3, "active": "alice", "step": "main1"}}
    d.update(kw)
    return situation_from_dict(d).state


def test_faces_are_read_and_face_names_name_the_card():
    card = get_card("Bonecrusher Giant // Stomp")
    (stomp,) = other_faces(card)
    assert stomp.data.name == "Stomp" and stomp.data.mana_cost.text == "{1}{R}"
    assert stomp.data.types == ("Instant",) and stomp.spell is not None and len(stomp.spell.targets) == 1
    assert canonical_name("Bonecrusher Giant") == "Bonecrusher Giant // Stomp"
    assert canonical_name("petty theft") == "Brazen Borrower // Petty Theft"
    assert canonical_name("Forest") == "Forest"          # a card's own name wins over a face's
    assert get_card("Rimrock Knight").data.name == "Rimrock Knight // Boulder Rush"


def test_adventure_is_cast_at_instant_speed_on_the_opponents_turn():
    st_ = state(turn={"number": 3, "active": "bob", "step": "main1", "priority": "alice"},
                battlefield={"alice": ["Mountain", "Mountain", "Mountain"], "bob": ["Grizzly Bears"]},
                hand={"alice": ["Bonecrusher Giant"]})
    res = answer(st_, {"kind": "actions"})
    assert res["status"] == "ok"
    casts = [(a["object"], a.get("face"), a["targets"]) for a in res["actions"] if a["kind"] == "cast"]
    assert casts == [("bonecrusher-giant-stomp", "Stomp", 3)]     # the creature is sorcery-speed


def test_pay_and_targets_with_face_and_errors():
    st_ = state(battlefield={"alice": ["Island", "Island"], "bob": ["Grizzly Bears", "Forest"]},
                hand={"alice": ["Brazen Borrower"]})
    assert answer(st_, {"kind": "pay", "cast": "brazen-borrower-petty-theft", "face": "Petty Theft"})["count"] == 1
    assert answer(st_, {"kind": "pay", "cast": "brazen-borrower-petty-theft"})["payable"] is False
    t = answer(st_, {"kind": "targets", "cast": "brazen-borrower-petty-theft", "face": "Petty Theft"})
    assert t["choices"] == [[["grizzly-bears"]]]                   # nonland, an opponent's
    with pytest.raises(QueryError):
        answer(st_, {"kind": "pay", "cast": "brazen-borrower-petty-theft", "face": "Stomp"})


def test_soundness_by_zone():
    """In the hand the Adventure is read; in the graveyard and exile only the creature exists (CR
    715.4); an exiled card "on an adventure" (``on_adventure``, 715.3d) may be cast as the creature
    from there (listed: instances/faces/adventure_creature_cast_from_exile.yaml); on the stack the spell is the creature unless ``face`` says it was cast as the
    Adventure (715.3b)."""
    gy = state(battlefield={"alice": ["Mountain"]}, graveyard={"alice": ["Bonecrusher Giant"]})
    assert answer(gy, {"kind": "actions"})["status"] == "ok"
    ex = state(battlefield={"alice": ["Mountain"]}, exile={"alice": ["Bonecrusher Giant"]})
    assert answer(ex, {"kind": "actions"})["status"] == "ok"
    away = state(battlefield={"alice": ["Mountain"]},
                 exile={"alice": [{"card": "Bonecrusher Giant", "on_adventure": True}]})
    res = answer(away, {"kind": "actions"})       # the creature may be cast from there (CR 715.3d)
    assert res["status"] == "ok" and [a.get("object") for a in res["actions"]] == [None]   # {4}{R}: one Mountain
    stk = state(battlefield={"alice": ["Mountain"]},
                stack=[{"card": "Bonecrusher Giant", "controller": "bob", "owner": "bob"}])
    assert answer(stk, {"kind": "resolve"})["status"] == "ok"


LANDS = ["Mountain", "Island", "Forest", "Plains", "Swamp"]
HAND = ["Bonecrusher Giant", "Rimrock Knight", "Brazen Borrower", "Lightning Bolt", "Grizzly Bears", "Fire // Ice",
        "Emeria's Call", "Forest", "Claim // Fame", "Wear // Tear"]
GRAVEYARD = ["Claim // Fame", "Claim // Fame", "Cut // Ribbons", "Grizzly Bears"]
BOB = ["Grizzly Bears", "Forest", "Ornithopter", "Sol Ring", "Glorious Anthem"]


@st.composite
def boards(draw):
    alice = [{"card": draw(st.sampled_from(LANDS)), "tapped": draw(st.integers(0, 3)) == 0}
             for _ in range(draw(st.integers(0, 4)))]
    if draw(st.booleans()):
        alice.append("Sunscape Familiar")
    bob = [draw(st.sampled_from(BOB)) for _ in range(draw(st.integers(0, 3)))]
    hand = [draw(st.sampled_from(HAND)) for _ in range(draw(st.integers(1, 3)))]
    active = draw(st.sampled_from(["alice", "bob"]))
    return state(turn={"number": 3, "active": active, "step": draw(st.sampled_from(["main1", "end"])),
                       "priority": "alice", "lands_played": draw(st.integers(0, 1))},
                 battlefield={"alice": alice, "bob": bob}, hand={"alice": hand},
                 graveyard={"alice": [draw(st.sampled_from(GRAVEYARD)) for _ in range(draw(st.integers(0, 2)))]})


@settings(max_examples=EXAMPLES, deadline=None, derandomize=os.environ.get("CI") == "true",
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(boards())
def test_face_entries_match_reference(st_):
    res = answer(st_, {"kind": "actions"}, Options(max_results=10_000))
    assert res["status"] == "ok", res
    got = [{k: v for k, v in a.items() if k != "unread"} for a in res["actions"] if "face" in a]
    ref = reference_face_entries(st_, "alice")
    key = lambda e: (e["object"], e["face"])  # noqa: E731
    assert sorted(got, key=key) == sorted(ref, key=key)
    # a split card is cast as one half only (CR 709.3)
    split = {o.id for o in st_.objects if o.card is not None and o.card.data.layout == "split"}
    assert not [a for a in res["actions"] if a.get("object") in split and "face" not in a]


def test_mdfc_back_face_land_is_played_and_front_only_off_the_stack():
    """CR 712.8a: Emeria's Call in the hand is a white sorcery; 712.12: its land back face may
    be played (play_land with face), once per turn (CR 305.2); on the battlefield the face up is
    recorded (``face``; none: the front, 712.8a) and its mana abilities are the face's (712.8d)."""
    st_ = state(battlefield={"alice": ["Mountain"]}, hand={"alice": ["Emeria's Call"]})
    acts = answer(st_, {"kind": "actions"})["actions"]
    assert {"kind": "play_land", "object": "emerias-call-emeria-shattered-skyclave",
            "face": "Emeria, Shattered Skyclave"} in acts
    played = state(turn={"number": 3, "active": "alice", "step": "main1", "lands_played": 1},
                   battlefield={"alice": ["Mountain"]}, hand={"alice": ["Emeria's Call"]})
    assert answer(played, {"kind": "actions"})["actions"] == [{"kind": "pass"}]
    bf = state(battlefield={"alice": [{"card": "Emeria's Call", "face": "Emeria, Shattered Skyclave"}]})
    res = answer(bf, {"kind": "could_produce"})
    assert res["status"] == "ok" and res["could_produce"] == {"emerias-call-emeria-shattered-skyclave": ["W"]}, res
    named = state(battlefield={"alice": ["Emeria, Shattered Skyclave"]})   # a face's own name: that face up
    assert answer(named, {"kind": "could_produce"}) == res


def test_split_card_halves_and_combined_characteristics():
    """CR 709.3: Fire // Ice is cast as Fire or Ice; CR 709.4: in the hand it is blue and red
    with mana value 4 (Force of Will may exile it)."""
    card = get_card("Fire // Ice")
    assert card.data.mana_cost.text == "{2}{U}{R}" and card.data.mana_cost.mana_value == 4
    assert [f.data.name for f in other_faces(card)] == ["Fire", "Ice"]
    st_ = state(turn={"number": 3, "active": "bob", "step": "main1", "priority": "alice"},
                battlefield={"alice": ["Island", "Mountain"], "bob": ["Grizzly Bears"]},
                hand={"alice": ["Fire // Ice", "Force of Will"]},
                stack=[{"card": "Lightning Bolt", "controller": "bob", "owner": "bob", "targets": [["alice"]]}])
    fow = answer(st_, {"kind": "pay", "cast": "force-of-will",
                       "alternative": "pay 1 life and exile a blue card from your hand"})
    assert [p["exile"] for p in fow["payments"]] == [["fire-ice"]]
    faces = [a.get("face") for a in answer(st_, {"kind": "actions"})["actions"] if a.get("object") == "fire-ice"]
    assert faces == ["Fire", "Ice"]
    whole = answer(st_, {"kind": "pay", "cast": "fire-ice"})     # which half? (CR 709.3)
    assert whole["status"] == "unsupported" and "Fire or Ice" in whole["reason"]
    assert answer(st_, {"kind": "pay", "cast": "fire-ice", "face": "ice"})["count"] == 1
    gy = state(battlefield={"alice": ["Mountain"]}, graveyard={"alice": ["Fire // Ice"]})
    assert answer(gy, {"kind": "actions"})["status"] == "ok"
    with pytest.raises(SituationError, match=r"stack\[0\]\.face: .*give face: Fire or Ice"):
        state(stack=[{"card": "Fire // Ice", "controller": "bob", "owner": "bob"}])   # which half? (CR 709.3)
    ice = state(battlefield={"bob": ["Grizzly Bears"]},
                stack=[{"card": "Fire // Ice", "face": "Ice", "controller": "alice", "targets": [["grizzly-bears"]]}])
    assert answer(ice, {"kind": "resolve"})["status"] == "ok"
    view = View(ice)
    assert view.chars("fire-ice").colors == {"U"} and view.chars("fire-ice").mana_value == 2   # the half cast (709.3b)


ADVENTURERS = ["Bonecrusher Giant", "Rimrock Knight", "Brazen Borrower", "Shepherd of the Flock"]


@st.composite
def exiled_boards(draw):
    """Boards with adventurer cards in exile, on an adventure or not, owned by either player."""
    alice = [{"card": draw(st.sampled_from(LANDS)), "tapped": draw(st.integers(0, 5)) == 0}
             for _ in range(draw(st.integers(2, 6)))]
    exile = {p: [{"card": draw(st.sampled_from(ADVENTURERS)), "on_adventure": draw(st.integers(0, 3)) > 0}
                 for _ in range(draw(st.integers(p == "alice", 2)))] for p in ("alice", "bob")}
    hand = [draw(st.sampled_from(HAND)) for _ in range(draw(st.integers(0, 2)))]
    active = draw(st.sampled_from(["alice", "alice", "bob"]))
    return state(turn={"number": 3, "active": active, "step": draw(st.sampled_from(["main1", "main1", "end"])),
                       "priority": "alice"},
                 battlefield={"alice": alice, "bob": [draw(st.sampled_from(BOB))]}, hand={"alice": hand},
                 exile=exile)


@settings(max_examples=EXAMPLES, deadline=None, derandomize=os.environ.get("CI") == "true",
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(exiled_boards())
def test_casting_from_an_adventure_matches_reference(st_):
    """CR 715.3d: the creature of each of the player's cards on an adventure is an action, with the
    reference's counts of targets and payments; another card in exile is not."""
    res = answer(st_, {"kind": "actions"}, Options(max_results=10_000))
    assert res["status"] == "ok", res
    exiled = {o.id for o in st_.objects if o.zone == "exile"}
    got = [{k: v for k, v in a.items() if k != "unread"} for a in res["actions"] if a.get("object") in exiled]
    ref = [e for e in reference_actions(st_, "alice") if e.get("object") in exiled]
    assert got == ref


@settings(max_examples=EXAMPLES // 2, deadline=None, derandomize=os.environ.get("CI") == "true",
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(boards())
def test_api_face_actions_match_reference(st_):
    """The Python API's face heads and their completions (targets × payments) are the reference's face
    entries (CR 715.3, 709.3, 712.11b, 712.12), and each completion is legal."""
    from mtgsolve.solver.api import Situation

    sit = Situation(st_)
    got = []
    for h in sit.legal_actions.heads():
        if h.face is None:
            continue
        full = sit.completions_of(h.head) if h.kind == "cast" else [h]
        assert all(sit.is_legal(a) for a in full[:3])
        got.append((h.kind, h.object, h.face, len(full)))
    ref = [(e["kind"], e["object"], e["face"], e.get("targets", 1) * e.get("payments", 1))
           for e in reference_face_entries(st_, "alice")]
    assert sorted(got) == sorted(ref)


def test_aftermath_entries_match_reference_on_every_small_board():
    """CR 702.127a on every board of up to four of Mountain, Swamp, Swamp, Island with Claim // Fame
    or Cut // Ribbons in the hand and the graveyard: the engine's face entries (the first half from the
    hand, the aftermath half from the graveyard, with X for Ribbons) are the reference's."""
    import itertools

    pool = ["Mountain", "Swamp", "Swamp", "Island"]
    n = 0
    for k in range(len(pool) + 1):
        for lands in sorted(set(itertools.combinations(pool, k))):
            for card in ("Claim // Fame", "Cut // Ribbons"):
                st_ = state(battlefield={"alice": list(lands), "bob": ["Grizzly Bears"]},
                            hand={"alice": [card]}, graveyard={"alice": [card, "Grizzly Bears"]})
                res = answer(st_, {"kind": "actions"})
                got = [{k2: v for k2, v in a.items() if k2 != "unread"} for a in res["actions"] if "face" in a]
                ref = reference_face_entries(st_, "alice")
                key = lambda e: (e["object"], e["face"])  # noqa: E731
                assert sorted(got, key=key) == sorted(ref, key=key), (lands, card)
                n += any(e["face"] in ("Fame", "Ribbons") for e in got)
    assert n >= 8


def test_fused_entries_match_reference_on_every_small_board():
    """CR 702.102a: Wear // Tear from the hand as Wear, as Tear, and fused (``face`` naming the whole
    card: the combined cost {1}{W}{R}, both halves' targets) on every board of up to four of Mountain,
    Mountain, Plains, Island against an artifact, an enchantment, both or neither: the reference's."""
    import itertools

    pool = ["Mountain", "Mountain", "Plains", "Island"]
    n = 0
    for k in range(len(pool) + 1):
        for lands in sorted(set(itertools.combinations(pool, k))):
            for bob in ([], ["Ornithopter"], ["Ornithopter", "Sol Ring", "Glorious Anthem"]):
                st_ = state(battlefield={"alice": list(lands), "bob": bob}, hand={"alice": ["Wear // Tear"]})
                res = answer(st_, {"kind": "actions"})
                got = [{k2: v for k2, v in a.items() if k2 != "unread"} for a in res["actions"] if "face" in a]
                ref = reference_face_entries(st_, "alice")
                key = lambda e: (e["object"], e["face"])  # noqa: E731
                assert sorted(got, key=key) == sorted(ref, key=key), (lands, bob)
                n += any(e["face"] == "Wear // Tear" for e in got)
    assert n >= 3

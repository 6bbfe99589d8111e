"""Disturb (CR 702.146) and prototype (702.160, 718): casting a transforming card transformed from its
owner's graveyard, its back face on the stack and the battlefield, and its "exile it instead"
(614.1a); the engine's ``actions`` entries are the independent reference's on every small board
(tests/reference/alt_costs_ref.py ``reference_disturb_entries``)."""
from __future__ import annotations

import itertools

import pytest

from reference.actions_ref import reference_face_entries
from mtgsolve.solver.cards import get_card
from mtgsolve.solver.core import ir
from mtgsolve.solver.core.errors import QueryError
from mtgsolve.solver.io.load import situation_from_dict
from mtgsolve.solver.queries import answer
from mtgsolve.solver.rules.characteristics import View, printed_mana_value

ANGLER = "baithook-angler-hook-haunt-drifter"


def state(**kw):
    d = {"format": "mtgsolve/1", "players": ["alice", "bob"],
         "turn": {"number": 3, "active": "alice", "step": "main1"}}
    d.update(kw)
    return situation_from_dict(d).state


def test_disturb_and_exile_instead_are_read():
    card = get_card("Baithook Angler")
    (disturb,) = [a for a in card.abilities if isinstance(a, ir.AlternativeCost)]
    assert disturb.name == "disturb" and disturb.zone == "graveyard" and disturb.mana.text == "{1}{U}"
    back = get_card("Hook-Haunt Drifter")
    assert back is not None


def test_face_entries_match_reference_on_every_small_board():
    """CR 702.146a on every board of up to four of Island, Island, Plains, Mountain, with disturb cards in
    the graveyard and the hand (an Aura back face needing a creature to enchant, 303.4a; a {4}{W}{W}
    disturb cost), on Alice's main phase and on Bob's turn (sorcery timing, 307.1): the engine's face
    entries are the reference's."""
    pool = ["Island", "Island", "Plains", "Mountain"]
    n = 0
    for k in range(len(pool) + 1):
        for lands in sorted(set(itertools.combinations(pool, k))):
            for bob, active in ((["Grizzly Bears"], "alice"), ([], "alice"), (["Grizzly Bears"], "bob")):
                st_ = state(turn={"number": 3, "active": active, "step": "main1", "priority": "alice"},
                            battlefield={"alice": list(lands), "bob": bob},
                            hand={"alice": ["Baithook Angler"]},
                            graveyard={"alice": ["Baithook Angler", "Lantern Bearer", "Beloved Beggar"],
                                       "bob": ["Baithook Angler"]})
                res = answer(st_, {"kind": "actions"})
                assert res["status"] == "ok", res
                got = [{k2: v for k2, v in a.items() if k2 != "unread"} for a in res["actions"] if "face" in a]
                ref = reference_face_entries(st_, "alice")
                key = lambda e: (e["object"], e["face"])  # noqa: E731
                assert sorted(got, key=key) == sorted(ref, key=key), (lands, bob, active)
                n += len(got)
    assert n >= 10


def test_pay_and_targets_queries_and_their_errors():
    st_ = state(battlefield={"alice": ["Island", "Island"]},
                graveyard={"alice": ["Baithook Angler"]}, hand={"alice": ["Baithook Angler"]})
    got = answer(st_, {"kind": "pay", "cast": ANGLER + "-2", "alternative": "disturb"})
    assert got["status"] == "ok" and got["count"] == 1
    same = answer(st_, {"kind": "pay", "cast": ANGLER + "-2", "alternative": "disturb", "face": "Hook-Haunt Drifter"})
    assert same["count"] == 1
    with pytest.raises(QueryError, match="only with disturb"):
        answer(st_, {"kind": "pay", "cast": ANGLER + "-2", "face": "Hook-Haunt Drifter"})
    with pytest.raises(QueryError, match="graveyard, with disturb"):
        answer(st_, {"kind": "pay", "cast": ANGLER, "alternative": "disturb"})
    t = answer(st_, {"kind": "targets", "cast": ANGLER + "-2", "alternative": "disturb"})
    assert t["status"] == "ok" and t["count"] == 1


def test_the_spell_cast_transformed_has_its_front_face_mana_value():
    """CR 712.8e: the mana value of a transforming card's back face is its front face's: Hook-Haunt
    Drifter on the stack (no mana cost of its own) has mana value 2, Baithook Angler's {1}{U}."""
    st_ = state(stack=[{"card": "Baithook Angler", "face": "Hook-Haunt Drifter", "controller": "alice"}])
    v = View(st_)
    assert v.chars(ANGLER).mana_value == 2 and printed_mana_value(st_.obj(ANGLER)) == 2
    assert v.chars(ANGLER).colors == {"U"} and "Spirit" in v.chars(ANGLER).subtypes


if __name__ == "__main__":   # pragma: no cover
    pytest.main([__file__])


def test_a_daybound_permanent_needs_day_or_night():
    """CR 702.145d, 730.1: a permanent with daybound (or nightbound) on the battlefield means it is day or
    night; without the top-level ``day_night`` the situation is a located error; in the hand it is not."""
    from mtgsolve.solver.core.errors import SituationError

    with pytest.raises(SituationError, match=r"battlefield\.bob\[0\].*702\.145d"):
        state(battlefield={"bob": ["Bird Admirer"]})
    with pytest.raises(SituationError, match=r"battlefield\.bob\[0\].*nightbound"):
        state(battlefield={"bob": [{"card": "Bird Admirer", "face": "Wing Shredder"}]})
    assert state(battlefield={"bob": ["Bird Admirer"]}, day_night="day").day_night == "day"
    assert state(hand={"bob": ["Bird Admirer"]}).day_night is None


BLITZ = "blitz-automaton"


def test_every_prototype_line_is_read():
    """The 21 prototype cards of the database (layout prototype): each reads its "Prototype {cost} — P/T"."""
    from mtgsolve.solver.cards import SHIPPED
    from mtgsolve.solver.rules.faces import prototype_of

    names = [n for n, d in SHIPPED.index().items() if isinstance(d, dict) and d.get("layout") == "prototype"]
    assert len(names) == 21, len(names)
    for n in names:
        p = prototype_of(get_card(n))
        assert p is not None and p.mana.mana_value < get_card(n).data.mana_cost.mana_value, n
    p = prototype_of(get_card("Blitz Automaton"))
    assert (p.mana.text, p.power, p.toughness) == ("{2}{R}", 3, 2)


def test_prototyped_characteristics_and_the_flag():
    """CR 718.3b–c: prototyped, Blitz Automaton is a red 3/2 with mana value 3; otherwise (and in every
    other zone, 718.4) a colorless 6/4 with mana value 7. ``prototyped`` is written back, is part of the
    situation's identity, and is a located error off the stack and battlefield, with a face, or on a card
    without prototype."""
    from mtgsolve.solver.core.errors import SituationError
    from mtgsolve.solver.io.dump import dump_state

    st_ = state(battlefield={"alice": [{"card": "Blitz Automaton", "prototyped": True}, "Blitz Automaton"]},
                graveyard={"alice": ["Blitz Automaton"]})
    v = View(st_)
    proto, plain, dead = (v.chars(i) for i in (BLITZ, BLITZ + "-2", BLITZ + "-3"))
    assert (proto.colors, proto.power, proto.toughness, proto.mana_value) == ({"R"}, 3, 2, 3)
    assert (plain.colors, plain.power, plain.toughness, plain.mana_value) == (frozenset(), 6, 4, 7)
    assert dead.colors == frozenset() and dead.mana_value == 7
    d = dump_state(st_)
    assert d["battlefield"]["alice"][0]["prototyped"] is True and "face" not in d["battlefield"]["alice"][0]
    assert situation_from_dict(d).state == st_
    other = state(battlefield={"alice": ["Blitz Automaton", "Blitz Automaton"]}, graveyard={"alice": ["Blitz Automaton"]})
    assert other.key() != st_.key()
    for bad, where in (({"hand": {"alice": [{"card": "Blitz Automaton", "prototyped": True}]}}, r"hand\.alice\[0\]\.prototyped"),
                       ({"battlefield": {"alice": [{"card": "Grizzly Bears", "prototyped": True}]}}, "no prototype"),
                       ({"battlefield": {"alice": [{"card": "Blitz Automaton", "prototyped": True,
                                                   "face": "Blitz Automaton"}]}}, "no 'face'")):
        with pytest.raises(SituationError, match=where):
            state(**bad)
    assert answer(st_, {"kind": "actions", "player": "alice"})["status"] == "ok"   # nothing unread any more


def test_prototype_entries_match_reference_on_every_small_board():
    """CR 702.160a, 718.3 on every board of up to four of Mountain, Mountain, Forest, Swamp with Blitz
    Automaton and Rootwire Amalgam in the hand, with and without Ruby Medallion (a red spell costs {1}
    less: only prototyped is it red, 718.3b): the engine's prototype entries are the reference's."""
    pool = ["Mountain", "Mountain", "Forest", "Swamp"]
    n = 0
    for k in range(len(pool) + 1):
        for lands in sorted(set(itertools.combinations(pool, k))):
            for extra in ([], ["Ruby Medallion"]):
                st_ = state(battlefield={"alice": list(lands) + extra},
                            hand={"alice": ["Blitz Automaton", "Rootwire Amalgam"]})
                res = answer(st_, {"kind": "actions"})
                assert res["status"] == "ok", res
                got = [{k2: v for k2, v in a.items() if k2 != "unread"} for a in res["actions"]
                       if a.get("alternative") == "prototype"]
                ref = [e for e in reference_face_entries(st_, "alice") if e.get("alternative") == "prototype"]
                assert sorted(got, key=str) == sorted(ref, key=str), (lands, extra)
                n += len(got)
    assert n >= 10


def test_more_than_meets_the_eye_entries_match_reference():
    """CR 702.162a: Ultra Magnus, Tactician cast converted from the hand for {2}{R}{G}{W} (its back face on
    the stack, 712.11a), not from the graveyard, on boards of five to seven lands: the reference's."""
    base = ["Mountain", "Forest", "Plains", "Mountain"]
    for extra in ([], ["Mountain"], ["Mountain", "Mountain"], ["Mountain", "Island", "Swamp"]):
        st_ = state(turn={"number": 5, "active": "alice", "step": "main1"}, battlefield={"alice": base + extra},
                    hand={"alice": ["Ultra Magnus, Tactician"]}, graveyard={"alice": ["Ultra Magnus, Tactician"]})
        res = answer(st_, {"kind": "actions"})
        assert res["status"] == "ok", res
        got = [{k: v for k, v in a.items() if k != "unread"} for a in res["actions"] if "face" in a]
        assert sorted(got, key=str) == sorted(reference_face_entries(st_, "alice"), key=str), extra
        assert all(e["object"] == "ultra-magnus-tactician-ultra-magnus-armored-carrier" for e in got)

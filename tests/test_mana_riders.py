"""Mana abilities with additional effects ("riders", CR 605.1a) and conditional
amounts ("If …, add … instead"): the Oracle reader, ``pay`` (contract §2.3 and
the README's "Contract extensions": ``skip_untap``, ``add_counters``,
``life_gained``, ``life_lost``, ``draw``), ``available_mana``,
``could_produce`` (CR 106.7) and the API's ``apply``, each checked against
the brute-force references (tests/reference/pay_ref.py, mana_ref.py).

``MTGSOLVE_EXAMPLES`` scales the differential tests.
"""
from __future__ import annotations

import json

import pytest
from hypothesis import given
from hypothesis import strategies as st

from reference.mana_ref import available_mana as ref_available
from reference.mana_ref import could_produce as ref_could_produce
from reference.pay_ref import brute_pay
from mtgsolve.solver.api import Action, Situation, UnsupportedActionError
from mtgsolve.solver.cards import get_card
from mtgsolve.solver.rules.characteristics import View
from mtgsolve.solver.core import ir
from mtgsolve.solver.core.ir import ManaAbility, ManaRider, Unsupported
from mtgsolve.solver.core.mana import Mana
from mtgsolve.solver.queries import answer
from mtgsolve.solver.queries.pay import pay_view
from mtgsolve.solver.io.load import dump_state, situation_from_dict
from test_pay import _compare, _modeled_activations, _settings, boards

BASE = {"format": "mtgsolve/1", "players": ["alice", "bob"]}


def _mana(name: str) -> list[ManaAbility]:
    return [a for a in get_card(name).abilities if isinstance(a, ManaAbility)]


def _unsupported(name: str) -> list[Unsupported]:
    return [a for a in get_card(name).abilities if isinstance(a, Unsupported)]


def run(board: dict, query: dict, **extra) -> dict:
    loaded = situation_from_dict({**BASE, **board, **extra, "query": query})
    return answer(loaded.state, loaded.queries[0])


# ---------------------------------------------------------------------------
# The reader
# ---------------------------------------------------------------------------


def test_reader_skip_untap():
    plain, marsh = _mana("Cinder Marsh")
    assert not plain.riders
    assert marsh.riders == (ir.SkipUntapRider(),)
    assert not _unsupported("Cinder Marsh")


def test_reader_counters_and_depletion():
    (stock, _) = _mana("Glittering Stockpile")
    assert stock.riders == (ir.AddCountersRider(n=1, counter="stash"),)
    (obelisk,) = _mana("Runecarved Obelisk")
    assert obelisk.riders == (ir.AddCountersRider(n=2, counter="charge"),)
    (woodlot,) = _mana("Hickory Woodlot")
    assert woodlot.cost.remove_counters == ("depletion", 1)
    assert woodlot.riders == (ir.SacrificeIfNone(counter="depletion"),)
    assert not _unsupported("Hickory Woodlot") and not _unsupported("Gemstone Mine")


def test_reader_life_and_draw():
    grove = _mana("Grove of the Burnwillows")[1]
    assert grove.riders == (ir.GainLifeRider(n=1, who="each_opponent"),)
    frag = _mana("Cryptolith Fragment // Aurora of Emrakul")[0]
    assert frag.riders == (ir.LoseLifeRider(n=1, who="each_player"),)
    (reclaimer,) = _mana("Avid Reclaimer")
    (r,) = reclaimer.riders
    assert (r.kind, r.n, r.who, r.condition.kind) == ("gain_life", 2, "you", "control")
    (sphere,) = _mana("Chromatic Sphere")
    assert sphere.riders == (ir.DrawRider(n=1),) and sphere.cost.sacrifice_self
    # a comma list of alternatives is not read: kept unsupported, never dropped
    assert [u.what for u in _unsupported("Altar of the Pantheon") if u.what.startswith("rider")]


def test_reader_conditional_amounts():
    (tower,) = _mana("Urza's Tower")
    cond, alt = tower.produce.instead
    assert cond.kind == "all" and {next(iter(p.selector.subtypes)) for p in cond.parts} == {"Mine", "Power-Plant"}
    assert alt.options == (Mana.parse("{C}{C}{C}"),)
    (druid,) = _mana("Leafkin Druid")
    assert druid.produce.instead[0].kind == "control" and druid.produce.instead[0].n == 4
    (caverns,) = _mana("Gemstone Caverns")
    cond, alt = caverns.produce.instead
    assert (cond.kind, cond.counter, alt.kind) == ("counters", "luck", "any_color")
    (audience,) = _mana("Raucous Audience")
    assert audience.produce.instead[0].kind == "control_power"
    assert _mana("Ilysian Caryatid")[0].produce.instead[1].amount == 2


# ---------------------------------------------------------------------------
# pay
# ---------------------------------------------------------------------------


def test_cinder_marsh_payments_differ_by_skip_untap():
    r = run({"battlefield": {"alice": ["Cinder Marsh"]}}, {"kind": "pay", "cost": "{1}"})
    assert r["count"] == 2
    assert sorted(p.get("skip_untap", []) for p in r["payments"]) == [[], ["cinder-marsh"]]
    r = run({"battlefield": {"alice": ["Cinder Marsh"]}}, {"kind": "pay", "cost": "{B}"})
    assert r["count"] == 1 and r["payments"][0]["skip_untap"] == ["cinder-marsh"]


def test_two_cinder_marshes_count_classes():
    r = run({"battlefield": {"alice": ["Cinder Marsh", "Cinder Marsh"]}}, {"kind": "pay", "cost": "{2}"})
    # both for {C}, one for {B}/{R} (which one is immaterial), both for {B}/{R}
    assert r["count"] == 3


def test_depletion_land_sacrificed_with_its_last_counter():
    board = {"battlefield": {"alice": [{"card": "Hickory Woodlot", "counters": {"depletion": 1}}]}}
    (p,) = run(board, {"kind": "pay", "cost": "{G}"})["payments"]
    assert p["sacrifice"] == ["hickory-woodlot"] and p["pool_after"] == {"alice": "{G}"} and not p["tap"]
    board = {"battlefield": {"alice": [{"card": "Hickory Woodlot", "counters": {"depletion": 2}}]}}
    (p,) = run(board, {"kind": "pay", "cost": "{G}{G}"})["payments"]
    assert p["tap"] == ["hickory-woodlot"] and p["remove_counters"] == {"hickory-woodlot": {"depletion": 1}}


def test_counters_added_and_life_changes():
    board = {"battlefield": {"alice": ["Glittering Stockpile", "Grove of the Burnwillows"]}}
    r = run(board, {"kind": "pay", "cost": "{R}{G}"})
    (p,) = r["payments"]
    assert p["add_counters"] == {"glittering-stockpile": {"stash": 1}} and p["life_gained"] == {"bob": 1}
    board = {"battlefield": {"alice": ["Cryptolith Fragment // Aurora of Emrakul"]}}
    (p,) = run(board, {"kind": "pay", "cost": "{U}"})["payments"]
    assert p["life_lost"] == {"alice": 1, "bob": 1}


def test_life_loss_comes_before_paying_life():
    """CR 601.2g before 601.2h: the mana ability's life loss happens before {B/P} is paid."""
    board = {"battlefield": {"alice": ["Cryptolith Fragment // Aurora of Emrakul"]}}
    r = run(board, {"kind": "pay", "cost": "{B/P}{1}"}, players=[{"id": "alice", "life": 2}, "bob"])
    assert r["payable"] is False
    r = run(board, {"kind": "pay", "cost": "{B/P}{1}"}, players=[{"id": "alice", "life": 3}, "bob"])
    assert r["payable"] is True


def test_conditional_gain_reads_the_board():
    board = {"battlefield": {"alice": ["Avid Reclaimer"]}}
    (p,) = run(board, {"kind": "pay", "cost": "{G}"})["payments"]
    assert "life_gained" not in p


def test_chromatic_sphere_draws():
    board = {"battlefield": {"alice": ["Chromatic Sphere"]}, "mana_pool": {"alice": "{C}"}}
    r = run(board, {"kind": "pay", "cost": "{U}"})
    (p,) = r["payments"]
    assert p["sacrifice"] == ["chromatic-sphere"] and p["draw"] == 1


def test_tron_amounts():
    tron = ["Urza's Tower", "Urza's Mine", "Urza's Power Plant"]
    r = run({"battlefield": {"alice": tron}}, {"kind": "available_mana"})
    assert r["bundles"] == ["{C}{C}{C}{C}{C}{C}{C}"]
    r = run({"battlefield": {"alice": tron[:2]}}, {"kind": "available_mana"})
    assert r["bundles"] == ["{C}{C}"]
    r = run({"battlefield": {"alice": tron}}, {"kind": "pay", "cost": "{6}"})
    # Tower alone gives 3; with Mine or Power Plant, 5 (leaving nothing idle): Tower+Mine+Plant leaves {C}
    assert r["payable"] and all(len(p["tap"]) == 3 for p in r["payments"])


def test_leafkin_druid_and_gemstone_caverns():
    elves = ["Llanowar Elves"] * 3
    r = run({"battlefield": {"alice": ["Leafkin Druid"] + elves}}, {"kind": "available_mana"})
    assert r["bundles"] == ["{G}{G}{G}{G}{G}"]
    r = run({"battlefield": {"alice": ["Leafkin Druid"] + elves[:2]}}, {"kind": "available_mana"})
    assert r["bundles"] == ["{G}{G}{G}"]
    r = run({"battlefield": {"alice": ["Gemstone Caverns"]}}, {"kind": "could_produce"})
    assert r["could_produce"] == {"gemstone-caverns": ["C"]}
    r = run({"battlefield": {"alice": [{"card": "Gemstone Caverns", "counters": {"luck": 1}}]}},
            {"kind": "could_produce"})
    assert r["could_produce"] == {"gemstone-caverns": ["W", "U", "B", "R", "G"]}


def test_condition_changed_by_a_sacrifice_is_unsupported():
    board = {"battlefield": {"alice": ["Urza's Tower", "Urza's Mine", "Urza's Power Plant", "Squandered Resources"]}}
    r = run(board, {"kind": "pay", "cost": "{1}"})
    assert r["status"] == "unsupported" and "order of activations" in r["reason"]


# ---------------------------------------------------------------------------
# The API: apply and the action string
# ---------------------------------------------------------------------------


def _apply_one(board: dict, action: str) -> Situation:
    sit = Situation.from_dict({**BASE, **board})
    a = Action.parse(action)
    assert Action.parse(str(a)) == a and Action.from_json(a.to_json()) == a
    assert sit.is_legal(a), sit.is_legal(a).reason
    return sit.apply(a)


def test_apply_riders_round_trip():
    board = {"battlefield": {"alice": ["Cinder Marsh", "Glittering Stockpile", "Grove of the Burnwillows"]},
             "hand": {"alice": ["Lightning Bolt"]}}
    sit = Situation.from_dict({**BASE, **board})
    acts = [a for a in sit.legal_actions if a.kind == "cast"]
    a = next(a for a in acts if a.payment.skip_untap)
    after = sit.apply(a)
    assert after.state.obj("cinder-marsh").skip_untap and after.state.obj("cinder-marsh").tapped
    dumped = dump_state(after.state)
    assert situation_from_dict(dumped).state == after.state
    a = next(a for a in acts if a.payment.add_counters)
    after = sit.apply(a)
    assert after.state.obj("glittering-stockpile").counter("stash") == 1
    a = next(a for a in acts if a.payment.life_gained)
    assert "gaining bob 1" in str(a)
    assert sit.apply(a).state.player("bob").life == 21


def test_apply_draw_needs_a_known_library():
    board = {"battlefield": {"alice": ["Chromatic Sphere"]}, "mana_pool": {"alice": "{C}"},
             "hand": {"alice": ["Lightning Bolt"]}}
    sit = Situation.from_dict({**BASE, **board})
    a = next(a for a in sit.legal_actions if a.kind == "cast")
    assert a.payment.draw == 1
    with pytest.raises(UnsupportedActionError):
        sit.apply(a)
    sit = Situation.from_dict({**BASE, **board, "library": {"alice": ["Forest", "Island"]}})
    after = sit.apply(a)
    assert after.state.obj("forest").zone == "hand" and after.state.obj("island").zone == "library"


# ---------------------------------------------------------------------------
# Differential tests against the brute-force references
# ---------------------------------------------------------------------------

RIDERS = ["Cinder Marsh", "Glittering Stockpile", "Hickory Woodlot", "Grove of the Burnwillows",
          "Cryptolith Fragment // Aurora of Emrakul", "Chromatic Sphere", "Avid Reclaimer", "Urza's Tower",
          "Urza's Mine", "Urza's Power Plant", "Leafkin Druid", "Gemstone Caverns", "Runecarved Obelisk",
          "Mana Confluence", "Adarkar Wastes", "Forest", "Swamp", "Sol Ring", "Llanowar Elves",
          "Squandered Resources", "Tinder Farm"]
RIDER_COUNTERS = {"Hickory Woodlot": "depletion", "Gemstone Caverns": "luck", "Glittering Stockpile": "stash"}


def _with_counters(board: dict, data) -> dict:
    for obj in board["battlefield"]["alice"]:
        if isinstance(obj, dict) and obj["card"] in RIDER_COUNTERS:
            obj["counters"] = {RIDER_COUNTERS[obj["card"]]: data.draw(st.integers(0, 2))}
    return board


@given(data=st.data())
@_settings(200)
def test_differential_pay_riders(data):
    board = _with_counters(data.draw(boards(max_perms=4, pool=RIDERS)), data)
    loaded = situation_from_dict({**BASE, **board})
    options = _modeled_activations(View(loaded.state))
    if options and data.draw(st.integers(0, 3)) == 0:
        oid, idx = data.draw(st.sampled_from(options))
        q = {"activate": {"object": oid, "index": idx}}
    else:
        q = {"cost": data.draw(st.sampled_from(["{1}", "{B}{1}", "{2}", "{G}{W/P}", "{B/P}{1}", "{3}", "{C}{U}"]))}
    _compare(board, q)


@given(data=st.data())
@_settings(150)
def test_differential_available_and_could_produce(data):
    board = _with_counters(data.draw(boards(max_perms=4, pool=RIDERS)), data)
    loaded = situation_from_dict({**BASE, **board})
    state = loaded.state
    r = answer(state, {"kind": "available_mana", "player": "alice"})
    if r["status"] == "ok":
        ref = sorted(Mana(m.counts).text for m in ref_available(state, "alice"))
        assert sorted(r["bundles"]) == ref, json.dumps(board)
    cp = answer(state, {"kind": "could_produce"})["could_produce"]
    ref_cp = ref_could_produce(View(state))
    assert {k: sorted(v, key="WUBRGC".index) for k, v in cp.items()} == \
        {k: sorted(v, key="WUBRGC".index) for k, v in ref_cp.items()}, json.dumps(board)

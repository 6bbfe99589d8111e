"""Casting modes: alternative costs (CR 118.9), additional costs (CR 601.2b),
kicker (702.33), flashback (702.34), evoke (702.74), escape (702.138),
jump-start (702.133), retrace (702.81) — the reader
(:mod:`solver.reader.casting_options`), the ``pay`` query's ``alternative`` /
``kicked`` keys and payment keys ``exile`` / ``discard`` / ``return``, the
``actions`` entries of each way to cast, the API's refusal, the instances under
instances/casting, and a differential test against the brute-force reference
(tests/reference/alt_costs_ref.py) on random small boards.

``MTGSOLVE_EXAMPLES`` scales the number of generated boards (default 40);
``CI=true`` derandomizes them.
"""
from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from reference.alt_costs_ref import brute_cast, reference_cast_entries, reference_modes
from mtgsolve.solver.core import ir
from mtgsolve.solver.cards import get_card
from mtgsolve.solver.rules.characteristics import View
from mtgsolve.solver.core.errors import QueryError
from mtgsolve.solver.queries import Options, answer
from mtgsolve.solver.reader.casting_options import read
from mtgsolve.solver.api.runner import check_loaded
from mtgsolve.solver.io.load import load_situation, situation_from_dict

ROOT = Path(__file__).resolve().parent.parent
INSTANCES = sorted((ROOT / "instances" / "casting").glob("*.yaml"))
EXAMPLES = int(os.environ.get("MTGSOLVE_EXAMPLES", "40"))

FOW = "pay 1 life and exile a blue card from your hand"
DAZE = "return an Island you control to its owner's hand"


def state_of(**kw):
    d = {"format": "mtgsolve/1", "players": ["alice", "bob"],
         "turn": {"number": 3, "active": "alice", "step": "main1"}}
    d.update(kw)
    return situation_from_dict(d).state


def pay(state, **q):
    return answer(state, {"kind": "pay", **q}, Options(max_results=10_000))


# ---------------------------------------------------------------------------
# Instances
# ---------------------------------------------------------------------------

@pytest.mark.parametrize("path", INSTANCES, ids=[p.stem for p in INSTANCES])
def test_instances(path):
    res = check_loaded(load_situation(path))
    assert res.ok, res.message


def test_there_are_instances():
    assert len(INSTANCES) >= 9


# ---------------------------------------------------------------------------
# The reader
# ---------------------------------------------------------------------------

def test_reader_alternative_costs():
    (fow,) = read("You may pay 1 life and exile a blue card from your hand rather than pay this spell's mana cost.")
    assert fow.kind == "alternative" and fow.name == FOW and fow.zone == "hand" and not fow.condition
    assert fow.mana.text == "{0}" and fow.cost.life == 1 and fow.cost.exile_hand == 1
    assert fow.cost.exile_hand_color == "U"
    (fon,) = read("If it's not your turn, you may exile a blue card from your hand rather than pay this spell's "
                  "mana cost.")
    assert fon.condition == "not_your_turn" and fon.cost.exile_hand == 1 and not fon.cost.life
    (gush,) = read("You may return two Islands you control to their owner's hand rather than pay this spell's "
                   "mana cost.")
    assert gush.cost.return_count == 2 and gush.cost.return_[0].subtypes == {"Island"}
    (fb,) = read("You may sacrifice two Mountains rather than pay this spell's mana cost.")
    assert fb.cost.sacrifice_count == 2 and fb.cost.sacrifice[0].subtypes == {"Mountain"}
    (snuff,) = read("If you control a Swamp, you may pay 4 life rather than pay this spell's mana cost.")
    assert snuff.condition == "control" and snuff.condition_selector.subtypes == {"Swamp"} and snuff.cost.life == 4


def test_reader_additional_costs_and_keywords():
    (dd,) = read("As an additional cost to cast this spell, sacrifice an artifact or creature.")
    assert dd.kind == "additional" and dd.cost.sacrifice_count == 1
    assert {t for s in dd.cost.sacrifice for t in s.types} == {"Artifact", "Creature"}
    (tv,) = read("As an additional cost to cast this spell, discard a card.")
    assert tv.cost.discard == 1
    (k,) = read("Kicker {1}{U} (You may pay an additional {1}{U} as you cast this spell.)")
    assert k.kind == "kicker" and k.mana.text == "{1}{U}"
    (ks,) = read("Kicker—Sacrifice a land.")
    assert ks.mana is None and ks.cost.sacrifice[0].types == {"Land"}
    (f,) = read("Flashback—{1}{R}, Pay 3 life.")
    assert f.kind == "alternative" and f.zone == "graveyard" and f.mana.text == "{1}{R}" and f.cost.life == 3
    (e,) = read("Escape—{3}{R}{R}, Exile four other cards from your graveyard.")
    assert e.zone == "graveyard" and e.cost.exile_graveyard == 4
    ev, trig = read("Evoke—Exile a blue card from your hand.")
    assert ev.name == "evoke" and ev.cost.exile_hand == 1
    # CR 702.74a: "When this permanent enters, if its evoke cost was paid, its controller sacrifices it"
    assert isinstance(trig, ir.TriggeredAbility) and trig.if_cast == "evoke"
    assert isinstance(trig.trigger, ir.EntersTrigger) and trig.effects == (ir.Sacrifice(ir.SELF),)
    (js,) = read("Jump-start")
    assert js.kind == "permission" and js.cost.discard == 1 and js.mana is None
    (rt,) = read("Retrace")
    assert rt.cost.discard_type == "Land"


@pytest.mark.parametrize("text", [
    "As an additional cost to cast this spell, sacrifice a creature or pay {3}.",
    "As an additional cost to cast this spell, discard X cards.",
    "As an additional cost to cast this spell, you may collect evidence 6.",
    "Surge {1}{R}",
    "Multikicker {1}",
    "Kicker {1}{U} and/or {2}{B}",
    "If you control a Plains, you may tap an untapped creature you control rather than pay this spell's mana cost.",
])
def test_unread_wordings_stay_unsupported(text):
    from mtgsolve.solver.reader.grammar import NoMatch

    with pytest.raises(NoMatch):
        from mtgsolve.solver.reader.casting_options import line_casting_option
        line_casting_option((), None, text)


def test_cards_read_without_unsupported_costs():
    for name in ("Force of Will", "Daze", "Fireblast", "Deadly Dispute", "Think Twice", "Burst Lightning",
                 "Gush", "Force of Negation"):
        card = get_card(name)
        assert any(isinstance(a, ir.CastingOption) for a in card.abilities), name
        assert not any(isinstance(a, ir.Unsupported) for a in card.abilities), name
    (no,) = [a for a in get_card("Natural Order").abilities if isinstance(a, ir.CastingOption)]
    assert no.cost.sacrifice_color == "G" and no.cost.sacrifice[0].types == {"Creature"}


# ---------------------------------------------------------------------------
# pay
# ---------------------------------------------------------------------------

def test_force_of_will_payments_and_life():
    s = state_of(hand={"alice": ["Force of Will", "Force of Will", "Brainstorm", "Brainstorm", "Lightning Bolt"]})
    r = pay(s, cast="force-of-will", alternative=FOW)
    assert r["count"] == 2 and [p["exile"] for p in r["payments"]] == [["brainstorm"], ["force-of-will-2"]]
    assert all(p["life"] == 1 for p in r["payments"])
    s0 = state_of(players=[{"id": "alice", "life": 0}, "bob"], hand={"alice": ["Force of Will", "Brainstorm"]})
    assert pay(s0, cast="force-of-will", alternative=FOW)["payable"] is False   # CR 119.4
    lone = state_of(hand={"alice": ["Force of Will", "Lightning Bolt"]})
    r = pay(lone, cast="force-of-will", alternative=FOW)
    assert r["payable"] is False and "exile" in r["reason"]
    assert pay(lone, cast="force-of-will")["payable"] is False      # {3}{U}{U}: no lands


def test_alternative_cost_increased_by_thalia():
    """CR 601.2f: cost increases apply to an alternative cost too."""
    s = state_of(battlefield={"alice": ["Island"], "bob": ["Thalia, Guardian of Thraben"]},
                 hand={"alice": ["Daze"]})
    r = pay(s, cast="daze", alternative=DAZE)
    assert r["status"] == "unsupported"   # {1} to pay together with returning an Island: not modeled
    s2 = state_of(battlefield={"alice": ["Island", "Island"], "bob": ["Thalia, Guardian of Thraben"]},
                  hand={"alice": ["Think Twice"]})
    assert pay(s2, cast="think-twice")["payable"] is False    # {1}{U} + {1}


def test_kicker_and_additional_costs():
    s = state_of(battlefield={"alice": ["Mountain"] * 4}, hand={"alice": ["Burst Lightning"]})
    assert pay(s, cast="burst-lightning")["count"] == 1
    assert pay(s, cast="burst-lightning", kicked=True)["payable"] is False      # {4}{R} with 4 Mountains
    s = state_of(battlefield={"alice": ["Mountain", "Grizzly Bears", "Grizzly Bears"]},
                 hand={"alice": ["Village Rites", "Fling"]})
    r = pay(s, cast="fling")     # {1}{R} + sacrifice a creature
    assert r["count"] == 0 or r["payable"] is False
    r = pay(s, cast="village-rites")   # {B}: no black source
    assert r["payable"] is False


def test_colored_sacrifice():
    s = state_of(battlefield={"alice": ["Forest", "Forest", "Forest", "Llanowar Elves", "Grizzly Bears",
                                        "Ornithopter"]},
                 hand={"alice": ["Natural Order"]})
    r = pay(s, cast="natural-order")    # {2}{G}{G} + sacrifice a green creature (not Ornithopter)
    # the Elves may add {G} and then be sacrificed (CR 601.2g-h): the three Forests and the Elves pay
    assert [(p["tap"], p["sacrifice"]) for p in r["payments"]] == [
        (["forest", "forest-2", "forest-3"], ["llanowar-elves"]),
        (["forest", "forest-2", "forest-3", "llanowar-elves"], ["grizzly-bears"])]
    s = state_of(battlefield={"alice": ["Forest"] * 4 + ["Ornithopter"]}, hand={"alice": ["Natural Order"]})
    r = pay(s, cast="natural-order")
    assert r["payable"] is False and "green creature" in r["reason"]


def test_discard_and_graveyard_costs():
    s = state_of(battlefield={"alice": ["Mountain", "Mountain"]},
                 hand={"alice": ["Tormenting Voice", "Shock", "Shock", "Forest"]})
    r = pay(s, cast="tormenting-voice")   # {1}{R} + discard a card: Shock or Forest
    assert r["count"] == 2 and sorted(p["discard"] for p in r["payments"]) == [["forest"], ["shock"]]
    s = state_of(battlefield={"alice": ["Mountain", "Mountain", "Mountain"]},
                 hand={"alice": ["Forest", "Shock"]}, graveyard={"alice": ["Flame Jab"]})
    r = pay(s, cast="flame-jab", alternative="retrace")   # {R} + discard a land card
    assert r["count"] == 1 and r["payments"][0]["discard"] == ["forest"]


def test_bad_mode_arguments():
    s = state_of(hand={"alice": ["Force of Will", "Shock"]})
    with pytest.raises(QueryError):
        answer(s, {"kind": "pay", "cast": "force-of-will", "alternative": "flashback"})
    with pytest.raises(QueryError):
        answer(s, {"kind": "pay", "cast": "shock", "kicked": True})
    with pytest.raises(QueryError):
        answer(s, {"kind": "pay", "cost": "{1}", "alternative": FOW})


def test_escape_with_sacrificing_mana_abilities_is_unsupported():
    """A sacrificed Lotus Petal would be in the graveyard by the time escape exiles cards (CR 601.2g-h)."""
    s = state_of(battlefield={"alice": ["Mountain", "Mountain", "Lotus Petal"]},
                 graveyard={"alice": ["Satyr's Cunning", "Shock", "Shock"]})
    r = pay(s, cast="satyrs-cunning", alternative="escape")
    assert r["status"] == "unsupported" and "sacrifice" in r["reason"]
    s = state_of(battlefield={"alice": ["Mountain", "Mountain", "Mountain"]},
                 graveyard={"alice": ["Satyr's Cunning", "Shock"]})
    r = pay(s, cast="satyrs-cunning", alternative="escape")
    assert r["status"] == "ok" and r["payable"] is False and "exile" in r["reason"]


# ---------------------------------------------------------------------------
# actions, soundness, API
# ---------------------------------------------------------------------------

def test_actions_list_each_way_and_conditions():
    s = state_of(turn={"number": 3, "active": "bob", "step": "main1", "priority": "alice"},
                 battlefield={"alice": ["Island", "Island", "Island"]},
                 hand={"alice": ["Force of Negation", "Brainstorm"]},
                 stack=[{"card": "Duress", "controller": "bob", "owner": "bob", "targets": [["alice"]]}])
    r = answer(s, {"kind": "actions"})
    assert r["status"] == "ok"
    fon = [a for a in r["actions"] if a.get("object") == "force-of-negation"]
    assert [a.get("alternative") for a in fon] == [None, "exile a blue card from your hand"]
    assert fon[1]["payments"] == 1
    mine = state_of(battlefield={"alice": ["Island"]}, hand={"alice": ["Force of Negation", "Brainstorm"]},
                    stack=[{"card": "Duress", "controller": "bob", "owner": "bob", "targets": [["alice"]]}])
    r = answer(mine, {"kind": "actions"})
    assert not any(a.get("object") == "force-of-negation" for a in r["actions"])   # its own turn


def test_evoke_trigger_blocks_only_triggers():
    s = state_of(battlefield={"alice": ["Island", "Island", "Island"]}, hand={"alice": ["Mulldrifter"]})
    r = answer(s, {"kind": "actions"})
    assert r["status"] == "ok"
    mull = [a for a in r["actions"] if a.get("object") == "mulldrifter"]
    assert [a.get("alternative") for a in mull] == [None] or [a.get("alternative") for a in mull] == ["evoke"]
    assert [a.get("alternative") for a in mull] == ["evoke"]       # {2}{U} payable, {4}{U} not


def test_unread_text_of_a_card_cast_from_the_graveyard_blocks():
    """Contract §2.0: the card's own unread targets matter when it is cast from the graveyard."""
    card = {"name": "Test Flash", "manaCost": "{R}", "type": "Instant", "types": ["Instant"],
            "text": "Frobnicate target widget.\nFlashback {R}"}
    s = state_of(battlefield={"alice": ["Mountain"]}, graveyard={"alice": [{"card": card}]})
    assert answer(s, {"kind": "actions"})["status"] == "unsupported"
    assert pay(s, cast="test-flash", alternative="flashback")["status"] == "unsupported"


def test_api_refuses_casting_modes():
    """Dash has consequences after the cast (CR 702.109a) the API does not record: refused. Kicker is
    recorded (object key ``kicked``, 702.33d) and applied (tests/test_api_kicker_evoke_escape.py)."""
    from mtgsolve.solver.api import Situation, UnsupportedCaseError

    sit = Situation.from_dict({"format": "mtgsolve/1", "players": ["alice", "bob"],
                               "battlefield": {"alice": ["Island", "Mountain"]},
                               "hand": {"alice": ["Ragavan, Nimble Pilferer", "Lightning Bolt"]}})
    with pytest.raises(UnsupportedCaseError, match="dash"):
        list(sit.legal_actions)
    assert sit.is_legal({"kind": "cast", "object": "lightning-bolt"})
    with pytest.raises(UnsupportedCaseError):
        sit.is_legal({"kind": "cast", "object": "ragavan-nimble-pilferer"})


# ---------------------------------------------------------------------------
# Differential test against the brute-force reference
# ---------------------------------------------------------------------------

LANDS = ["Island", "Mountain", "Swamp", "Forest"]
PERMS = ["Ornithopter", "Grizzly Bears", "Llanowar Elves", "Savannah Lions"]
SPELLS = ["Force of Will", "Force of Negation", "Daze", "Fireblast", "Deadly Dispute", "Brainstorm", "Lightning Bolt",
          "Gush", "Burst Lightning", "Think Twice", "Tormenting Voice", "Mulldrifter", "Deep Analysis", "Radical Idea",
          "Flame Jab", "Village Rites", "Snuff Out", "Natural Order", "Light Up the Stage", "Skewer the Critics",
          "Ragavan, Nimble Pilferer", "Vandalblast", "Into the Roil", "Capsize", "Light 'Em Up", "Make Disappear"]
GRAVE = ["Think Twice", "Deep Analysis", "Radical Idea", "Flame Jab", "Shock", "Forest", "Satyr's Cunning", "Woe Strider"]


@st.composite
def boards(draw):
    bf = []
    for _ in range(draw(st.integers(0, 6))):
        bf.append({"card": draw(st.sampled_from(LANDS)), "tapped": draw(st.booleans())})
    bf += [draw(st.sampled_from(PERMS)) for _ in range(draw(st.integers(0, 2)))]
    hand = [draw(st.sampled_from(SPELLS + ["Brainstorm", "Island"])) for _ in range(draw(st.integers(1, 5)))]
    grave = [draw(st.sampled_from(GRAVE)) for _ in range(draw(st.integers(0, 4)))]
    active = draw(st.sampled_from(["alice", "bob"]))
    bob = draw(st.sampled_from(["bob", {"id": "bob", "life_lost_this_turn": 0},
                                {"id": "bob", "life_lost_this_turn": 2}]))   # spectacle (CR 702.137a)
    d = {"format": "mtgsolve/1", "players": [{"id": "alice", "life": draw(st.sampled_from([0, 1, 20, 20]))}, bob],
         "turn": {"number": 3, "active": active, "step": "main1", "priority": "alice"},
         "battlefield": {"alice": bf, "bob": ["Grizzly Bears"] + draw(st.sampled_from([[], ["Ornithopter"]]))},
         "hand": {"alice": hand},
         "graveyard": {"alice": grave}}
    if draw(st.booleans()):
        d["stack"] = [{"card": "Shock", "controller": "bob", "owner": "bob", "targets": [["alice"]]}]
    return situation_from_dict(d).state


def _mode_query(oid, alt, kicked, buyback=0, casualty=0):
    q = {"kind": "pay", "cast": oid, "player": "alice"}
    if alt:
        q["alternative"] = alt
    if kicked:
        q["kicked"] = True
    if buyback:
        q["buyback"] = True
    if casualty:
        q["casualty"] = True
    return q


@settings(max_examples=EXAMPLES, deadline=None, derandomize=os.environ.get("CI") == "true",
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(boards())
def test_pay_and_actions_match_reference(state):
    view = View(state)
    for oid, alt, kicked, buyback, casualty in reference_modes(state, "alice"):
        q = _mode_query(oid, alt, kicked, buyback, casualty)
        got = answer(state, q, Options(max_results=10**6))
        if got["status"] == "unsupported":
            assert got.get("reason") or got.get("unsupported")
            assume(False)
        try:
            ref = brute_cast(state, q, view)
        except NotImplementedError:
            assume(False)
        assert got["count"] == ref["count"], (q, got, ref)
        assert sorted(json.dumps(p, sort_keys=True) for p in got["payments"]) == ref["payments"], q
    res = answer(state, {"kind": "actions", "player": "alice"})
    if res["status"] == "unsupported":
        assume(False)
    got_entries = [{k: v for k, v in a.items() if k != "unread"} for a in res["actions"] if a["kind"] == "cast"]
    key = lambda e: (e["object"], e.get("alternative", ""), bool(e.get("kicked")), bool(e.get("buyback")),  # noqa: E731
                     bool(e.get("casualty")))
    assert sorted(got_entries, key=key) == reference_cast_entries(state, "alice")

"""Activation costs that choose cards or permanents (issue 25): "Discard a card", "Discard two
cards", "Discard a land card" (CR 701.9a), "Exile a creature card from your graveyard" (CR 406.2),
"Sacrifice another creature or artifact" (CR 701.21a), "Tap an untapped Wizard you control"
(CR 118.1, 302.6), "Crew N" (CR 702.122a), "Exile this card from your graveyard" (CR 113.6k) — the reader (:mod:`solver.reader.costs`), the ``pay`` query's payments
(:mod:`solver.payment.casting`, :mod:`solver.payment.problem`), the ``actions`` entries, the kernel
carrying a payment out, the instances under instances/costs, and a differential test against the
brute-force references (tests/reference/activation_costs_ref.py, pay_ref.py, actions_ref.py) on
random small boards.

``MTGSOLVE_EXAMPLES`` scales the number of generated boards (default 40); ``CI=true`` derandomizes.
"""
from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from reference.actions_ref import reference_actions
from reference.pay_ref import brute_pay
from mtgsolve.solver.api.runner import check_loaded
from mtgsolve.solver.api.situation import Situation
from mtgsolve.solver.core.errors import QueryError
from mtgsolve.solver.cards import CardData
from mtgsolve.solver.core import ir
from mtgsolve.solver.io.load import load_situation, situation_from_dict
from mtgsolve.solver.queries import Options, answer
from mtgsolve.solver.reader import read_lines
from mtgsolve.solver.rules.characteristics import View

ROOT = Path(__file__).resolve().parent.parent
INSTANCES = sorted((ROOT / "instances" / "costs").glob("*.yaml"))
EXAMPLES = int(os.environ.get("MTGSOLVE_EXAMPLES", "40"))


@pytest.mark.parametrize("path", INSTANCES, ids=[p.stem for p in INSTANCES])
def test_instances(path):
    res = check_loaded(load_situation(path))
    assert res.ok, res.message


def _parts(text: str) -> list:
    d = CardData.from_mtgjson({"name": "Test Thing", "type": "Creature — Elf", "types": ["Creature"], "text": text})
    return [p for r in read_lines(d)[0] for p in r.parts]


@pytest.mark.parametrize("text, field, want", [
    ("Discard a card: Draw a card.", "discard", (1, "")),
    ("{1}, Discard two cards: Draw a card.", "discard", (2, "")),
    ("Discard a land card: Draw a card.", "discard", (1, "Land")),
    ("{2}, Exile a creature card from your graveyard: Draw a card.", "exile_graveyard", (1, "Creature")),
    ("{R}, {T}, Exile two cards from your graveyard: Draw a card.", "exile_graveyard", (2, "")),
])
def test_reader_card_choices(text, field, want):
    (a,) = _parts(text)
    assert isinstance(a, ir.ActivatedAbility)
    assert (getattr(a.cost, field), getattr(a.cost, field + "_type")) == want


def test_reader_sacrifice_of_several():
    (a,) = _parts("{T}, Sacrifice three other creatures: Draw a card.")
    assert a.cost.sacrifice_count == 3 and a.cost.tap and [s.types for s in a.cost.sacrifice_any] == [{"Creature"}]
    assert a.cost.sacrifice_any[0].exclude_self


def test_reader_sacrifice_of_either_kind_and_tapping_a_kind():
    (a,) = _parts("Sacrifice another creature or artifact: Draw a card.")
    assert a.cost.sacrifice is None and {t for s in a.cost.sacrifice_any for t in s.types} == {"Creature", "Artifact"}
    assert all(s.exclude_self and s.who == "you" for s in a.cost.sacrifice_any)
    (b,) = _parts("Tap an untapped Wizard you control: Draw a card.")
    assert isinstance(b, ir.ActivatedAbility) and b.cost.tap_other_creatures == 1
    assert b.cost.tap_selector is not None and b.cost.tap_selector.subtypes == {"Wizard"}


@pytest.mark.parametrize("text", [
    "Discard a card at random: Draw a card.",      # not a choice (CR 701.9b)
    "Discard X cards: Draw X cards.",
    "Discard a card named Test Thing: Draw a card.",
    "Exile an instant or sorcery card from your graveyard: Draw a card.",
    "Discard a card: Add {B}.",                    # the mana models don't choose cards
    "Exile a card from your graveyard: Add {C}.",
    "Discard a card, Discard a card: Draw a card.",
    "{2}, Sacrifice two artifacts: Draw a card.",   # several sacrifices with a mana payment: not modeled
    "Crew X",
])
def test_unread_wordings_stay_unread(text):
    assert not any(isinstance(p, (ir.ActivatedAbility, ir.ManaAbility)) for p in _parts(text))


def test_kernel_carries_out_the_discard():
    """The action's payment moves the card discarded to its owner's graveyard (CR 701.9a) and the
    cards exiled from the graveyard to exile (CR 406.2)."""
    d = {"format": "mtgsolve/1", "players": ["alice", "bob"], "turn": {"number": 3, "active": "alice", "step": "main1"},
         "battlefield": {"alice": ["Wild Mongrel", "Grim Lavamancer", "Mountain"]},
         "hand": {"alice": ["Lightning Bolt"]}, "graveyard": {"alice": ["Forest", "Forest"]}}
    sit = Situation(situation_from_dict(d).state)
    acts = [a for a in sit.legal_actions if a.kind == "activate"]
    mongrel = next(a for a in acts if a.object == "wild-mongrel")
    after = sit.apply(mongrel).state
    assert after.obj("lightning-bolt").zone == "graveyard"
    lava = next(a for a in acts if a.object == "grim-lavamancer")
    after = sit.apply(lava).state
    assert {after.obj("forest").zone, after.obj("forest-2").zone} == {"exile"}


def test_kernel_exiles_the_card_from_the_graveyard():
    """"{2}{G}, Exile this card from your graveyard: You gain 5 life." (CR 113.6k): activating it exiles
    the card as part of the cost (CR 602.2b, 601.2h) and puts the ability on the stack; it resolves."""
    d = {"format": "mtgsolve/1", "players": ["alice", "bob"], "turn": {"number": 3, "active": "alice", "step": "main1"},
         "battlefield": {"alice": ["Forest", "Forest", "Forest"]}, "graveyard": {"alice": ["Bramble Wurm"]}}
    sit = Situation(situation_from_dict(d).state)
    (act,) = [a for a in sit.legal_actions if a.kind == "activate"]
    after = sit.apply(act).state
    assert after.obj("bramble-wurm").zone == "exile"
    assert [o.ability is not None for o in after.objects if o.zone == "stack"] == [True]


def test_graveyard_ability_is_no_action_elsewhere():
    """The ability works only from its owner's graveyard (CR 113.6k, 602.2): not on the battlefield, not
    from another player's graveyard, and the pay query refuses it there."""
    d = {"format": "mtgsolve/1", "players": ["alice", "bob"], "turn": {"number": 3, "active": "alice", "step": "main1"},
         "battlefield": {"alice": ["Forest", "Forest", "Forest", "Bramble Wurm"]},
         "graveyard": {"bob": ["Bramble Wurm"]}}
    state = situation_from_dict(d).state
    res = answer(state, {"kind": "actions", "player": "alice"})
    assert [a["kind"] for a in res["actions"]] == ["pass"]
    for oid in ("bramble-wurm", "bramble-wurm-2"):
        with pytest.raises(QueryError):
            answer(state, {"kind": "pay", "activate": {"object": oid, "index": 1}, "player": "alice"})


@pytest.mark.parametrize("sentence, steps, yours", [
    ("Activate only during your upkeep.", {"upkeep"}, True),
    ("Activate only during any upkeep step.", {"upkeep"}, False),
    ("Activate only during your turn, before attackers are declared.", {"upkeep", "draw", "main1",
                                                                         "beginning_of_combat"}, True),
    ("Activate only during combat.", {"beginning_of_combat", "declare_attackers", "declare_blockers",
                                      "first_strike_damage", "combat_damage", "end_of_combat"}, False),
])
def test_reader_activation_steps(sentence, steps, yours):
    """CR 602.5b: the steps an ability may be activated in (CR 508.1: attackers are declared in the
    declare attackers step)."""
    (a,) = _parts("{1}: Draw a card. " + sentence)
    assert a.condition == ir.DuringSteps(steps=frozenset(steps), yours=yours)


@pytest.mark.parametrize("text, zone, exile, tap, targets", [
    ("Unearth {2}{B}", "graveyard", False, False, 0),     # CR 702.84a
    ("Embalm {3}{W}", "graveyard", True, False, 0),       # CR 702.128a
    ("Eternalize {4}{U}{U}", "graveyard", True, False, 0),  # CR 702.129a
    ("Scavenge {4}{G}{G}", "graveyard", True, False, 1),  # CR 702.97a: target creature
    ("Level up {1}{W}", "battlefield", False, False, 0),  # CR 702.87a
    ("Outlast {1}{W}", "battlefield", False, True, 0),    # CR 702.107a
])
def test_reader_activated_keywords(text, zone, exile, tap, targets):
    (a,) = _parts(text)
    assert isinstance(a, ir.ActivatedAbility) and a.sorcery and a.zone == zone
    assert (a.cost.exile_self, a.cost.tap, len(a.targets)) == (exile, tap, targets)
    assert [type(e) for e in a.effects] == [ir.UnreadEffect]


def test_reader_graveyard_conditions():
    """Threshold and delirium restrictions (CR 602.5b) of a non-mana ability; a mana ability keeps them
    unread (another mana ability's cost could put cards into the graveyard during the payment)."""
    (a,) = _parts("{1}: Draw a card. Activate only if there are seven or more cards in your graveyard.")
    assert a.condition == ir.GraveyardCount(n=7)
    (b,) = _parts("{1}: Draw a card. Activate only if there are four or more card types among cards in your "
                  "graveyard.")
    assert b.condition == ir.GraveyardTypes(n=4)
    assert not any(isinstance(p, ir.ManaAbility) for p in _parts(
        "{T}: Add {B}{B}. Activate only if there are seven or more cards in your graveyard."))


def test_reader_equip_with_a_quality_or_another_cost():
    """CR 702.6a: "Equip [quality] [cost]": the target is a [quality] creature you control; a cost after a
    dash is read by the cost grammar ("Equip—Pay 3 life"); "Equip—Pay {1} or discard a card" stays unread."""
    (a,) = _parts("Equip legendary creature {3}")
    assert a.sorcery and a.targets[0].filter.supertypes == {"Legendary"} and a.targets[0].filter.who == "you"
    (b,) = _parts("Equip Knight {1}")
    assert b.targets[0].filter.subtypes == {"Knight"} and b.cost.mana.text == "{1}"
    (c,) = _parts("Equip—Pay 3 life.")
    assert c.cost == ir.Cost(life=3) and c.sorcery
    assert not any(isinstance(p, ir.ActivatedAbility) for p in _parts("Equip—Pay {1} or discard a card."))


def test_reader_crew():
    (a,) = _parts("Crew 3")
    assert isinstance(a, ir.ActivatedAbility) and a.cost == ir.Cost(crew=3) and not a.targets and not a.sorcery
    # CR 702.122a: "This permanent becomes an artifact creature until end of turn" — its printed P/T stay
    assert a.effects == (ir.Animate(ir.SELF, None, None, frozenset({"Artifact", "Creature"})),)


def test_crewed_vehicle_is_a_creature_until_end_of_turn():
    """The resolved crew ability makes the Vehicle an artifact creature with its printed power and
    toughness (CR 702.122a, 208.3) until the cleanup step ends it (514.2); an uncrewed one is none."""
    from mtgsolve.solver.rules.characteristics import View

    d = {"format": "mtgsolve/1", "players": ["alice", "bob"], "turn": {"number": 3, "active": "alice", "step": "main1"},
         "battlefield": {"alice": ["Renegade Freighter", {"card": "Grizzly Bears", "tapped": True}]},
         "stack": [{"ability": {"source": "renegade-freighter", "index": 2}, "controller": "alice"}]}
    state = situation_from_dict(d).state
    assert "Creature" not in View(state).chars("renegade-freighter").types
    ((_, after),) = Situation(state).resolve()
    c = View(after.state).chars("renegade-freighter")
    assert {"Artifact", "Creature"} <= c.types and (c.power, c.toughness) == (4, 3)


def test_return_this_permanent_as_a_cost():
    """"Return this enchantment to its owner's hand: …" (CR 602.2b, 601.2h): read, an action with one
    payment, and applying it returns the permanent to its owner's hand; not in a mana ability's cost."""
    (a,) = _parts("Return Test Thing to its owner's hand: Draw a card.")
    assert isinstance(a, ir.ActivatedAbility) and a.cost == ir.Cost(return_self=True)
    assert not any(isinstance(p, ir.ManaAbility) for p in _parts("Return Test Thing to its owner's hand: Add {G}."))
    d = {"format": "mtgsolve/1", "players": ["alice", "bob"], "turn": {"number": 3, "active": "alice", "step": "main1"},
         "battlefield": {"alice": ["Attunement"]}, "library": {"alice": ["Forest"] * 5}}
    state = situation_from_dict(d).state
    assert answer(state, {"kind": "pay", "activate": {"object": "attunement", "index": 1}})["count"] == 1
    sit = Situation(state)
    (act,) = [a for a in sit.legal_actions if a.kind == "activate"]
    assert sit.apply(act).state.obj("attunement").zone == "hand"


def test_kernel_taps_the_crew():
    """The crew payment's creatures are tapped (CR 702.122a) and the ability goes on the stack."""
    d = {"format": "mtgsolve/1", "players": ["alice", "bob"], "turn": {"number": 3, "active": "alice", "step": "main1"},
         "battlefield": {"alice": ["Renegade Freighter", "Grizzly Bears"]}}
    sit = Situation(situation_from_dict(d).state)
    (act,) = [a for a in sit.legal_actions if a.kind == "activate"]
    after = sit.apply(act).state
    assert after.obj("grizzly-bears").tapped and not after.obj("renegade-freighter").tapped


LANDS = ["Mountain", "Forest", "Swamp", "Plains"]
PERMS = ["Wild Mongrel", "Zombie Infestation", "Grim Lavamancer", "Bartolomé del Presidio",
         "Azami, Lady of Scrolls", "Snapcaster Mage", "Ornithopter", "Mind Stone", "Llanowar Elves",
         "Renegade Freighter", "Grizzly Bears", "Ib Halfheart, Goblin Tactician", "Attunement", "King's Assassin",
         "Augur il-Vec", "Chainflinger"]
CARDS = ["Lightning Bolt", "Forest", "Grizzly Bears", "Shock", "Bramble Wurm", "Halo Scarab", "Dregscape Zombie",
         "Sacred Cat"]


@st.composite
def boards(draw):
    bf = [{"card": draw(st.sampled_from(LANDS)), "tapped": draw(st.booleans())} for _ in range(draw(st.integers(0, 3)))]
    bf += [{"card": draw(st.sampled_from(PERMS)), "tapped": draw(st.booleans()), "sick": draw(st.booleans())}
           for _ in range(draw(st.integers(1, 4)))]
    turn = {"number": 3, "active": draw(st.sampled_from(["alice", "bob"])), "priority": "alice",
            "step": draw(st.sampled_from(["main1", "main2", "upkeep", "beginning_of_combat"]))}
    d = {"format": "mtgsolve/1", "players": ["alice", "bob"], "turn": turn,
         "battlefield": {"alice": bf, "bob": [{"card": "Grizzly Bears", "tapped": draw(st.booleans())}]},
         "hand": {"alice": [draw(st.sampled_from(CARDS)) for _ in range(draw(st.integers(0, 3)))]},
         "graveyard": {"alice": [draw(st.sampled_from(CARDS)) for _ in range(draw(st.integers(0, 8)))]}}
    return situation_from_dict(d).state


@settings(max_examples=EXAMPLES, deadline=None, derandomize=os.environ.get("CI") == "true",
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(boards())
def test_pay_and_actions_match_reference(state):
    view = View(state)
    for o in state.objects:
        if o.zone != "battlefield" or o.controller != "alice":
            continue
        for i, a in enumerate(view.chars(o.id).activated, start=1):
            if not isinstance(a, ir.ActivatedAbility):
                continue
            q = {"kind": "pay", "activate": {"object": o.id, "index": i}, "player": "alice"}
            got = answer(state, q, Options(max_results=10**6))
            if got["status"] == "unsupported":
                continue
            try:
                ref = brute_pay(state, q, view)
            except NotImplementedError:
                continue
            assert got["count"] == ref["count"], (q, got, ref)
            assert sorted(json.dumps(p, sort_keys=True) for p in got["payments"]) == ref["payments"], q
    res = answer(state, {"kind": "actions", "player": "alice"})
    assume(res["status"] == "ok")
    entries = [{k: v for k, v in a.items() if k != "unread"} for a in res["actions"]]
    assert entries == reference_actions(state, "alice")

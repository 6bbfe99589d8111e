"""Mana abilities with costs other than {T} and mana (issue 15, real decks; CR 118.1,
302.6, 602.5b, 602.5d, 605.3a): Heritage Druid ("Tap three untapped Elves you control"),
Wall of Roots ("Put a -0/-1 counter on this creature", once each turn), Lion's Eye Diamond
("Discard your hand, Sacrifice this artifact", only as an instant).

Counts are checked against the brute-force references in tests/test_pay.py and
tests/test_available_mana.py (their generated boards hold these cards); instances:
instances/mana_costs/. Here: what the reader reads, what stays unread, the soundness of
the answers (read text no longer blocks; what the models can't record is refused).
"""
from __future__ import annotations

import json

import pytest

from mtgsolve.solver.core import ir
from mtgsolve.solver.cards import get_card
from mtgsolve.solver.queries import answer
from mtgsolve.solver.io.load import situation_from_dict

ELVES = ir.Selector(who="you", subtypes=frozenset({"Elf"}))


def _ability(name: str) -> ir.ManaAbility:
    c = get_card(name)
    assert not c.unsupported, c.unsupported
    (ab,) = [a for a in c.abilities if isinstance(a, ir.ManaAbility)]
    return ab


def test_reader_heritage_druid():
    ab = _ability("Heritage Druid")
    assert ab.cost == ir.Cost(tap_other_creatures=3, tap_selector=ELVES)
    assert ab.produce == ir.fixed("{G}{G}{G}")


def test_reader_wall_of_roots():
    ab = _ability("Wall of Roots")
    assert ab.cost == ir.Cost(put_counters=("-0/-1", 1))
    assert ab.limit == 1 and ab.produce == ir.fixed("{G}")


def test_reader_lions_eye_diamond():
    ab = _ability("Lion's Eye Diamond")
    assert ab.cost == ir.Cost(sacrifice_self=True, discard_hand=True)
    assert ab.condition == ir.InstantTime()
    assert ab.produce == ir.AnyColor(amount=3)


def test_springleaf_drum_unchanged():
    """"Tap an untapped creature you control" keeps its plain form (no selector)."""
    c = get_card("Springleaf Drum")
    (ab,) = [a for a in c.abilities if isinstance(a, ir.ManaAbility)]
    assert ab.cost.tap_other_creatures == 1 and ab.cost.tap_selector is None


def _inline(name: str, text: str, types=("Artifact",)) -> dict:
    return {"card": {"name": name, "manaCost": "{2}", "type": " ".join(types), "types": list(types), "text": text}}


@pytest.mark.parametrize("text", [
    "Put a +1/+1 counter on this artifact: Draw a card.",   # ("Tap three untapped Elves …" is read: issue 25)
    "Discard your hand, Sacrifice this artifact: Draw three cards.",
])
def test_non_mana_abilities_with_these_costs_stay_unread(text):
    """The actions engine doesn't pay these cost parts: a non-mana ability with one stays
    unread (and blocks `actions`) rather than being activated without paying them."""
    d = {"format": "mtgsolve/1", "players": ["alice", "bob"],
         "battlefield": {"alice": [_inline("Odd Relic", text), "Forest"]}}
    loaded = situation_from_dict(dict(d, query={"kind": "actions"}))
    r = answer(loaded.state, loaded.queries[0])
    assert r["status"] == "unsupported"
    assert [u["text"] for u in r["unsupported"]] == [text]


def _answer(battlefield: dict, query: dict, **kw) -> dict:
    d = {"format": "mtgsolve/1", "players": ["alice", "bob"], "battlefield": battlefield, **kw, "query": query}
    loaded = situation_from_dict(d)
    return answer(loaded.state, loaded.queries[0])


def test_read_costs_no_longer_block():
    bf = {"alice": ["Heritage Druid", "Llanowar Elves", "Llanowar Elves", "Wall of Roots", "Lion's Eye Diamond"]}
    for q in ({"kind": "available_mana"}, {"kind": "could_produce"}, {"kind": "pay", "cost": "{G}{G}"},
              {"kind": "actions"}):
        r = _answer(bf, q)
        assert r["status"] == "ok" and "unsupported" not in r, (q, r)


def test_pay_activate_of_a_tap_n_elves_cost_equals_the_reference():
    """As a total cost (``pay activate``), "Tap three untapped Elves you control" is paid by the payment
    model's tap classes (issue 25): the payments equal the brute-force reference's."""
    from reference.pay_ref import brute_pay

    bf = {"alice": ["Heritage Druid", "Llanowar Elves", "Llanowar Elves", {"card": "Llanowar Elves", "tapped": True},
                    "Elvish Mystic"]}
    q = {"kind": "pay", "activate": {"object": "heritage-druid", "index": 1}}
    d = {"format": "mtgsolve/1", "players": ["alice", "bob"], "battlefield": bf, "query": q}
    loaded = situation_from_dict(d)
    r = answer(loaded.state, loaded.queries[0])
    ref = brute_pay(loaded.state, {**q, "player": "alice"})
    assert r["status"] == "ok" and r["count"] == ref["count"] == 3
    assert sorted(json.dumps(p, sort_keys=True) for p in r["payments"]) == ref["payments"]


def test_pay_activate_of_such_an_ability_is_refused():
    """As a total cost (``pay activate``) the parts modelled only for mana abilities (counters put,
    discarding the hand) are not modeled: unsupported, never dropped."""
    bf = {"alice": ["Wall of Roots"]}
    r = _answer(bf, {"kind": "pay", "activate": {"object": "wall-of-roots", "index": 1}})
    assert r["status"] in ("unsupported", "error") and "not modeled" in (r.get("reason", "") + r.get("error", ""))


def test_toughness_reader_with_wall_of_roots_is_order_dependent():
    """Arbor Adherent adds mana equal to the greatest toughness among other creatures: a -0/-1
    counter put by Wall of Roots first changes it (CR 107.3), so the order would matter."""
    bf = {"alice": ["Wall of Roots", "Arbor Adherent"]}
    for q in ({"kind": "available_mana"}, {"kind": "pay", "cost": "{G}"}):
        r = _answer(bf, q)
        assert r["status"] == "unsupported" and r["unsupported"] == [] and "order" in r["reason"], r


def test_a_toughness_reader_that_cannot_be_activated_does_not_block():
    """A tapped Arbor Adherent's {T} ability can't be activated (CR 302.6, 602.5a) and no mana
    ability untaps it, so Wall of Roots' counter changes nothing it could read: the answer is
    exact ({G} from the Wall alone); untapped, the same board is order dependent again."""
    tapped = {"alice": ["Wall of Roots", {"card": "Arbor Adherent", "tapped": True}]}
    r = _answer(tapped, {"kind": "available_mana"})
    assert r["status"] == "ok" and r["bundles"] == ["{G}"], r
    sick = {"alice": ["Wall of Roots", {"card": "Arbor Adherent", "sick": True}]}
    assert _answer(sick, {"kind": "available_mana"})["status"] == "ok"
    live = {"alice": ["Wall of Roots", "Arbor Adherent"]}
    assert _answer(live, {"kind": "available_mana"})["status"] == "unsupported"


def test_counters_put_under_a_counter_replacement_are_refused():
    """A counter replacement effect that could change the -0/-1 counters put (CR 614.1a)."""
    bf = {"alice": ["Wall of Roots", "Doubling Season"]}   # conservative: "an effect" (its ruling) is not read
    r = _answer(bf, {"kind": "pay", "cost": "{G}"})
    assert r["status"] == "unsupported", r


def test_interchangeable_walls_tapped_by_a_drum_are_refused():
    """Two alike Walls, one of which a Drum may tap: "the tapped Wall used its ability" and "the
    other one did" are different situations the per-class use count can't tell apart."""
    bf = {"alice": ["Wall of Roots", "Wall of Roots", "Springleaf Drum"]}
    r = _answer(bf, {"kind": "pay", "cost": "{G}{G}"})
    assert r["status"] == "unsupported" and "per-turn-limited" in r["reason"], r


def test_lions_eye_diamond_never_pays_during_casting():
    """CR 605.3a allows mana abilities during a payment, but "Activate only as an instant" needs
    priority (CR 602.5d): Lion's Eye Diamond pays nothing; with priority it makes three mana."""
    bf = {"alice": ["Lion's Eye Diamond"]}
    assert _answer(bf, {"kind": "pay", "cost": "{R}"})["payable"] is False
    assert _answer(bf, {"kind": "available_mana"})["bundles"] == ["{W}{W}{W}", "{U}{U}{U}", "{B}{B}{B}",
                                                                  "{R}{R}{R}", "{G}{G}{G}"]


def test_sorcery_speed_mana_ability_not_during_payment():
    """"Activate only as a sorcery" also needs priority: never while paying (CR 602.5d, 605.3a)."""
    relic = _inline("Slow Relic", "{T}: Add {C}. Activate only as a sorcery.")
    bf = {"alice": [relic]}
    assert _answer(bf, {"kind": "available_mana"}, turn={"active": "alice", "step": "main1"})["bundles"] == ["{C}"]
    assert _answer(bf, {"kind": "pay", "cost": "{1}"})["payable"] is False


# ---------------------------------------------------------------------------
# "Activated abilities of … can't be activated" (CR 602.5; reader/statics.py)
# ---------------------------------------------------------------------------

def _statics(name: str) -> list[ir.Static]:
    c = get_card(name)
    return [a for a in c.abilities if isinstance(a, ir.Static) and a.kind == "cant_activate"]


def test_reader_activation_bans():
    artifacts = ir.Selector(types=frozenset({"Artifact"}))
    assert [(s.affected, s.chosen_name, s.except_mana) for s in _statics("Collector Ouphe")] == \
        [(artifacts, False, False)]
    assert [s.affected for s in _statics("Karn, the Great Creator")] == \
        [ir.Selector(who="opponent", types=frozenset({"Artifact"}))]
    assert [(s.chosen_name, s.except_mana) for s in _statics("Phyrexian Revoker")] == [(True, False)]
    assert [(s.chosen_name, s.except_mana) for s in _statics("Pithing Needle")] == [(True, True)]
    assert [s.affected.types for s in _statics("Damping Matrix")] == [frozenset({"Artifact"}),
                                                                      frozenset({"Creature"})]
    revoker = get_card("Phyrexian Revoker")
    assert not revoker.unsupported
    assert any(isinstance(a, ir.EntersWith) and a.choose == "nonland card name" for a in revoker.abilities)


def test_ban_removes_mana_and_actions_and_keeps_could_produce():
    bf = {"alice": ["Mind Stone", "Forest", {"card": "Walking Ballista", "counters": {"+1/+1": 1}}],
          "bob": ["Collector Ouphe"]}
    assert _answer(bf, {"kind": "available_mana"})["bundles"] == ["{G}"]
    acts = _answer(bf, {"kind": "actions"})
    assert acts["status"] == "ok" and acts["actions"] == [{"kind": "pass"}]
    assert _answer(bf, {"kind": "could_produce", "objects": ["mind-stone"]})["could_produce"] == {"mind-stone": ["C"]}


def test_karn_reaches_only_opponents():
    bf = {"alice": ["Mind Stone"], "bob": [{"card": "Karn, the Great Creator", "counters": {"loyalty": 5}},
                                           "Mind Stone"]}
    assert _answer(bf, {"kind": "available_mana", "player": "alice"})["bundles"] == [""]
    assert _answer(bf, {"kind": "available_mana", "player": "bob"})["bundles"] == ["{C}"]


def test_pithing_needle_spares_mana_abilities_revoker_does_not():
    for banner, mana in (("Pithing Needle", ["{C}"]), ("Phyrexian Revoker", [""])):
        bf = {"alice": ["Mind Stone"], "bob": [{"card": banner, "chosen": {"name": "mind stone"}}]}
        assert _answer(bf, {"kind": "available_mana"})["bundles"] == mana, banner
        assert _answer(bf, {"kind": "actions"})["actions"] == [{"kind": "pass"}], banner


def test_no_name_chosen_names_nothing():
    """The situation's `chosen` is the record of choices: none recorded, nothing is named."""
    bf = {"alice": ["Mind Stone"], "bob": ["Phyrexian Revoker"]}
    assert _answer(bf, {"kind": "available_mana"})["bundles"] == ["{C}"]


def test_chosen_name_must_be_a_string():
    from mtgsolve.solver.core.errors import SituationError
    d = {"format": "mtgsolve/1", "players": ["alice", "bob"],
         "battlefield": {"bob": [{"card": "Pithing Needle", "chosen": {"name": 3}}]}}
    with pytest.raises(SituationError) as e:
        situation_from_dict(d)
    assert "chosen.name" in str(e.value)


def test_resolving_a_name_chooser_is_unsupported():
    d = {"format": "mtgsolve/1", "players": ["alice", "bob"],
         "stack": [{"card": "Pithing Needle", "controller": "alice", "owner": "alice"}], "query": {"kind": "resolve"}}
    loaded = situation_from_dict(d)
    r = answer(loaded.state, loaded.queries[0])
    assert r["status"] == "unsupported" and "card name" in r["reason"], r


def test_spyglass_on_the_battlefield():
    """Sorcerous Spyglass's entering line ("look at an opponent's hand, then choose any card
    name") stays unread, but on the battlefield its choice is made (object key chosen): its ban
    applies, sparing mana abilities; resolving it is still refused."""
    bf = {"alice": ["Mind Stone"], "bob": [{"card": "Sorcerous Spyglass", "chosen": {"name": "Mind Stone"}}]}
    r = _answer(bf, {"kind": "available_mana"})
    assert r["status"] == "ok" and r["bundles"] == ["{C}"], r
    assert _answer(bf, {"kind": "actions"})["actions"] == [{"kind": "pass"}]


def test_pay_activate_of_a_banned_ability_is_refused():
    bf = {"alice": ["Mind Stone", "Forest", "Forest"], "bob": ["Collector Ouphe"]}
    r = _answer(bf, {"kind": "pay", "activate": {"object": "mind-stone", "index": 2}})
    assert r["status"] in ("unsupported", "error") and "602.5" in (r.get("reason", "") + r.get("error", "")), r


def test_castle_garenbrig_restricted_mana_and_its_own_cost():
    """Castle Garenbrig's six {G} may be spent only on creature spells and creatures' abilities
    (CR 106.6); they could never pay its own {2}{G}{G}, {T} ability (its {T} is spent making them),
    so the restriction doesn't make available_mana inexact. Two Castles would: unsupported."""
    bf = {"alice": ["Castle Garenbrig", "Forest", "Forest", "Forest", "Llanowar Elves"]}
    r = _answer(bf, {"kind": "available_mana"})
    assert r["status"] == "ok" and r["bundles"] == ["{G}{G}{G}{G}{G}{G}"], r
    two = {"alice": ["Castle Garenbrig", "Castle Garenbrig", "Forest", "Forest", "Forest", "Forest"]}
    assert _answer(two, {"kind": "available_mana"})["status"] == "unsupported"


# ---------------------------------------------------------------------------
# Unread statics that change nothing on the board (solver/rules/soundness/inert.py)
# ---------------------------------------------------------------------------

CAULDRON = "Agatha's Soul Cauldron"


def _texts(r: dict) -> list[str]:
    return [u["text"][:28] for u in r.get("unsupported", [])]


def test_cauldron_grant_inert_without_counters_or_exiled_creatures():
    bf = {"alice": [CAULDRON, "Forest", "Llanowar Elves"]}
    for q in ({"kind": "available_mana"}, {"kind": "could_produce"}, {"kind": "pay", "cost": "{G}"}):
        assert _answer(bf, q)["status"] == "ok", q
    # a creature with a +1/+1 counter and a creature card in exile: the grant may be in force
    bf2 = {"alice": [CAULDRON, "Forest", {"card": "Llanowar Elves", "counters": {"+1/+1": 1}}]}
    assert _answer(bf2, {"kind": "available_mana"})["status"] == "ok"        # nothing exiled
    r = _answer(bf2, {"kind": "available_mana"}, exile={"bob": ["Birds of Paradise"]})
    assert r["status"] == "unsupported" and "Creatures you control with +" in _texts(r), r


def test_spending_rule_refuses_only_the_payments_it_could_change():
    """"You may spend mana as though it were mana of any color to activate abilities of creatures
    you control" (CR 609.4b) is read: casting a spell is unchanged; a payment activating a
    creature's ability with a colored cost (or a creature's mana ability with one) is refused."""
    bf = {"alice": [CAULDRON, "Forest", "Mountain", "Order of Whiteclay"]}
    assert _answer(bf, {"kind": "pay", "cost": "{1}{G}"})["status"] == "ok"
    assert _answer(bf, {"kind": "available_mana"})["status"] == "ok"
    r = _answer(bf, {"kind": "pay", "activate": {"object": "order-of-whiteclay", "index": 1}})
    assert r["status"] == "unsupported" and "609.4b" in r["reason"], r
    # the opponent's Cauldron: alice's payments are hers alone
    bf = {"alice": ["Forest", "Mountain", "Order of Whiteclay"], "bob": [CAULDRON]}
    assert _answer(bf, {"kind": "pay", "activate": {"object": "order-of-whiteclay", "index": 1}})["status"] == "ok"


def test_off_battlefield_static_inert_on_the_battlefield():
    """"As long as Grist isn't on the battlefield, it's a 1/1 Insect creature …" does nothing on
    the battlefield (its condition is false there); the part still exists elsewhere."""
    bf = {"alice": [{"card": "Grist, the Hunger Tide", "counters": {"loyalty": 3}}, "Forest"]}
    for q in ({"kind": "available_mana"}, {"kind": "could_produce"}, {"kind": "pay", "cost": "{G}"}):
        assert _answer(bf, q)["status"] == "ok", q
    from mtgsolve.solver.rules.characteristics import View
    from mtgsolve.solver.rules.soundness.inert import inert_on_board
    st = situation_from_dict({"format": "mtgsolve/1", "players": ["alice", "bob"], "battlefield": bf}).state
    view = View(st)
    text = "As long as Grist isn't on the battlefield, it's a 1/1 Insect creature in addition to its other types."
    assert inert_on_board(view, view.obj("grist-the-hunger-tide"), text)
    assert not inert_on_board(view, view.obj("grist-the-hunger-tide"),
                              "As long as Forest isn't on the battlefield, creatures get +1/+1.")


def test_chosen_name_ban_reaches_cards_in_hand_type_bans_do_not():
    """Pithing Needle's "sources with the chosen name" include a card in a hand (its cycling);
    "artifacts" means artifact permanents only (CR 110.1)."""
    from mtgsolve.solver.rules.activation_rules import activation_ban
    from mtgsolve.solver.rules.characteristics import View
    d = {"format": "mtgsolve/1", "players": ["alice", "bob"],
         "battlefield": {"bob": [{"card": "Pithing Needle", "chosen": {"name": "Street Wraith"}}, "Collector Ouphe"]},
         "hand": {"alice": ["Street Wraith", "Mind Stone"]}}
    view = View(situation_from_dict(d).state)
    assert activation_ban(view, "street-wraith", mana=False) is not None
    assert activation_ban(view, "mind-stone", mana=True) is None


@pytest.mark.parametrize("bob", [[{"card": "Karn, the Great Creator", "counters": {"loyalty": 5}}], ["Collector Ouphe"]])
def test_api_legal_actions_agree_with_a_ban(bob):
    """The quick payability witness of the actions engine (one-mana {T} sources) skips banned
    abilities: Sol Ring is not castable off a Mind Stone under Karn or Collector Ouphe."""
    from mtgsolve.solver.api import Situation
    s = Situation.from_dict({"format": "mtgsolve/1", "players": ["alice", "bob"],
                             "turn": {"number": 3, "active": "alice", "step": "main1"},
                             "battlefield": {"alice": ["Mind Stone"], "bob": bob},
                             "hand": {"alice": ["Sol Ring"]}})
    assert [str(a) for a in s.legal_actions] == ["pass"]
    assert not s.is_legal("cast sol-ring")


def test_api_witness_skips_sorcery_speed_sources():
    from mtgsolve.solver.api import Situation
    relic = _inline("Slow Relic", "{T}: Add {C}. Activate only as a sorcery.")
    s = Situation.from_dict({"format": "mtgsolve/1", "players": ["alice", "bob"],
                             "turn": {"number": 3, "active": "alice", "step": "main1"},
                             "battlefield": {"alice": [relic]}, "hand": {"alice": ["Sol Ring"]}})
    assert not s.is_legal("cast sol-ring")

"""Exile and return-to-hand effects read from Oracle text and carried out by
the resolve query (CR 400.7, 406, 608.2b, 704.5d)."""
from __future__ import annotations

from mtgsolve.solver.core import ir
from mtgsolve.solver.cards import get_card
from mtgsolve.solver.queries import answer
from mtgsolve.solver.io.load import situation_from_dict


def _spell(name: str) -> ir.SpellBehaviour:
    card = get_card(name)
    assert card.fully_supported, card.unsupported
    return card.spell


def test_reader_return_to_hand_and_exile_templates():
    unsummon = _spell("Unsummon")
    assert [e.kind for e in unsummon.effects] == ["return_to_hand"]
    assert unsummon.targets[0].filter.zone == "battlefield"
    disentomb = _spell("Disentomb")
    assert [e.kind for e in disentomb.effects] == ["return_to_hand"]
    assert disentomb.targets[0].filter.zone == "graveyard"
    journey = get_card("Journey to Nowhere").abilities
    trig = [a for a in journey if isinstance(a, ir.TriggeredAbility)]
    assert [e.kind for e in trig[0].effects] == ["exile"]
    # "until this leaves the battlefield" is read (CR 610.3: the card linked to its source); other
    # durations stay unread, never half-read
    banisher = get_card("Banisher Priest")
    (trig,) = [a for a in banisher.abilities if isinstance(a, ir.TriggeredAbility)]
    assert [e.kind for e in trig.effects] == ["exile"] and trig.effects[0].until_source_leaves
    assert trig.targets[0].filter == ir.Filter(types=frozenset({"Creature"}), who="opponent")


def _resolve(stack: list, **zones) -> dict:
    doc = {"format": "mtgsolve/1", "players": ["alice", "bob"], "turn": {"active": "alice", "step": "main1"},
           "stack": stack, **zones}
    return answer(situation_from_dict(doc).state, {"kind": "resolve"})


def test_disentomb_returns_the_card_to_its_owners_hand():
    res = _resolve([{"card": "Disentomb", "id": "d", "controller": "alice", "targets": [["lion"]]}],
                   graveyard={"alice": [{"card": "Silvercoat Lion", "id": "lion"}]})
    (o,) = res["outcomes"]
    assert o["situation"]["hand"] == {"alice": [{"id": "lion", "card": "Silvercoat Lion"}]}


def test_a_bounced_token_ceases_to_exist():
    res = _resolve([{"card": "Unsummon", "id": "u", "controller": "alice", "targets": [["tok"]]}],
                   battlefield={"bob": [{"card": {"name": "Soldier", "types": ["Creature"], "subtypes": ["Soldier"],
                                                  "power": 1, "toughness": 1, "colors": ["W"]},
                                         "id": "tok", "token": True}]})
    (o,) = res["outcomes"]
    assert "battlefield" not in o["situation"] and "hand" not in o["situation"]


def test_journey_to_nowhere_exiles_its_target():
    doc = {"format": "mtgsolve/1", "players": ["alice", "bob"], "turn": {"active": "alice", "step": "main1"},
           "battlefield": {"alice": [{"card": "Journey to Nowhere", "id": "j"}], "bob": [{"card": "Grizzly Bears",
                                                                                      "id": "b"}]},
           "stack": [{"ability": {"source": "j", "index": 1}, "id": "t", "controller": "alice", "targets": [["b"]]}]}
    res = answer(situation_from_dict(doc).state, {"kind": "resolve"})
    # its leaves-the-battlefield trigger (its event read, CR 603.6c, 603.10a) has an unread effect that
    # could act during a resolution, so resolve refuses and names it (contract §2.0)
    assert res["status"] == "unsupported"
    (part,) = res["unsupported"]
    assert part["object"] == "j" and part["affects"] == ["triggers"] and "return the exiled card" in part["text"]


def test_an_illegal_target_is_not_moved():
    # the target left the graveyard: Disentomb does nothing (CR 608.2b)
    res = _resolve([{"card": "Disentomb", "id": "d", "controller": "alice", "targets": [["lion"]]}],
                   battlefield={"alice": [{"card": "Silvercoat Lion", "id": "lion"}]})
    (o,) = res["outcomes"]
    assert o["situation"]["battlefield"] == {"alice": [{"id": "lion", "card": "Silvercoat Lion"}]}


def test_counterspell_resolves_countering_a_spell_and_a_copy_ceases_to_exist():
    stack = [{"card": "Counterspell", "id": "cs", "controller": "alice", "targets": [["shock"]]},
             {"card": "Shock", "id": "shock", "controller": "bob", "targets": [["alice"]]}]
    (o,) = _resolve(stack)["outcomes"]
    assert o["situation"]["graveyard"] == {"alice": [{"id": "cs", "card": "Counterspell"}],
                                           "bob": [{"id": "shock", "card": "Shock"}]}
    assert "stack" not in o["situation"]
    copy = [{"card": "Counterspell", "id": "cs", "controller": "alice", "targets": [["shock"]]},
            {"card": "Shock", "id": "shock", "controller": "bob", "copy": True, "targets": [["alice"]]}]
    (o,) = _resolve(copy)["outcomes"]
    assert o["situation"]["graveyard"] == {"alice": [{"id": "cs", "card": "Counterspell"}]}


def test_counter_target_spell_never_targets_an_ability_or_a_creature_for_negate():
    neg = _spell("Negate").targets[0].filter
    assert neg.zone == "stack" and neg.nontypes == frozenset({"Creature"})
    assert _spell("Essence Scatter").targets[0].filter.types == frozenset({"Creature"})
    # "unless its controller pays {3}" is read whole (CR 118.12; tests/test_effects_counter_unless.py);
    # "unless … pays {X}" of a spell that announces X is read (CR 107.3a; tests/test_counters.py); Power Sink's
    # "If that player doesn't, …" stays an unread part of the spell, so resolving it is refused, never half-read
    leak = get_card("Mana Leak").spell
    assert [e.kind for e in leak.effects] == ["counter_unless"] and leak.targets[0].filter.types == frozenset({"Spell"})
    sink = get_card("Power Sink").spell
    assert [e.kind for e in sink.effects] == ["counter_unless", "unread"]
    d = {"format": "mtgsolve/1", "players": ["alice", "bob"], "turn": {"number": 3, "active": "alice", "step": "main1"},
         "stack": [{"card": "Power Sink", "controller": "bob", "x": 1, "targets": [["bolt"]]},
                   {"id": "bolt", "card": "Lightning Bolt", "controller": "alice", "targets": [["bob"]]}]}
    assert answer(situation_from_dict(d).state, {"kind": "resolve"})["status"] == "unsupported"


def test_target_player_loses_life_and_you_gain_it():
    card = {"name": "Test Drain", "types": ["Sorcery"], "type": "Sorcery", "manaCost": "{1}{B}",
            "text": "Target opponent loses 3 life and you gain 3 life."}
    stack = [{"card": card, "id": "drain", "controller": "alice", "targets": [["bob"]]}]
    doc = {"format": "mtgsolve/1", "players": ["alice", {"id": "bob", "life": 10}],
           "turn": {"active": "alice", "step": "main1"}, "stack": stack}
    (o,) = answer(situation_from_dict(doc).state, {"kind": "resolve"})["outcomes"]
    assert o["situation"]["players"] == [{"id": "alice", "life": 23}, {"id": "bob", "life": 7}]
    # only an opponent is a legal target
    targets = answer(situation_from_dict({**doc, "stack": [], "hand": {"alice": [{"card": card, "id": "drain"}]}})
                     .state, {"kind": "targets", "cast": "drain"})
    assert targets["choices"] == [[["bob"]]]


def test_each_opponent_loses_life():
    card = {"name": "Test Tithe", "types": ["Sorcery"], "type": "Sorcery", "manaCost": "{B}",
            "text": "Each opponent loses 2 life."}
    doc = {"format": "mtgsolve/1", "players": ["alice", "bob", "carol"], "turn": {"active": "alice", "step": "main1"},
           "stack": [{"card": card, "id": "t", "controller": "alice"}]}
    (o,) = answer(situation_from_dict(doc).state, {"kind": "resolve"})["outcomes"]
    assert o["situation"]["players"] == ["alice", {"id": "bob", "life": 18}, {"id": "carol", "life": 18}]


def test_target_card_from_a_graveyard_is_any_card():
    (ab,) = [a for a in get_card("Apostle of Purifying Light").abilities if isinstance(a, ir.ActivatedAbility)]
    f = ab.targets[0].filter
    assert f.zone == "graveyard" and f.types == ir.CARD_TYPES and f.who == "any"
    assert f.describe() == "card from a graveyard"
    doc = {"format": "mtgsolve/1", "players": ["alice", "bob"], "turn": {"active": "alice", "step": "main1"},
           "battlefield": {"alice": [{"card": "Apostle of Purifying Light", "id": "apostle"}]},
           "graveyard": {"alice": [{"card": "Forest", "id": "f"}], "bob": [{"card": "Shock", "id": "s"}]}}
    res = answer(situation_from_dict(doc).state, {"kind": "targets", "activate": {"object": "apostle", "index": 1}})
    assert res["choices"] == [[["f"]], [["s"]]]


def test_non_type_targets():
    terror = _spell("Terror")
    f = terror.targets[0].filter
    assert f.nontypes == frozenset({"Artifact"}) and f.not_colors == frozenset({"B"})
    assert f.describe() == "nonblack nonartifact creature"
    doc = {"format": "mtgsolve/1", "players": ["alice", "bob"], "turn": {"active": "alice", "step": "main1"},
           "battlefield": {"bob": [{"card": "Grizzly Bears", "id": "bears"},
                                   {"card": {"name": "Ornithopter", "types": ["Artifact", "Creature"],
                                             "type": "Artifact Creature — Thopter", "power": 0, "toughness": 2},
                                    "id": "thopter"}]},
           "hand": {"alice": [{"card": "Terror", "id": "terror"}]}}
    res = answer(situation_from_dict(doc).state, {"kind": "targets", "cast": "terror"})
    assert res["choices"] == [[["bears"]]]


def test_target_player_draws_and_loses_life_and_mill():
    sign = _spell("Sign in Blood")
    assert [(e.kind, e.to.kind, e.amount) for e in sign.effects] == [("draw", "target", 2), ("lose_life", "target", 2)]
    doc = {"format": "mtgsolve/1", "players": ["alice", "bob"], "turn": {"active": "alice", "step": "main1"},
           "library": {"bob": [{"card": "Forest", "id": "f1"}, {"card": "Island", "id": "i1"},
                               {"card": "Swamp", "id": "s1"}]},
           "stack": [{"card": "Sign in Blood", "id": "sib", "controller": "alice", "targets": [["bob"]]}]}
    (o,) = answer(situation_from_dict(doc).state, {"kind": "resolve"})["outcomes"]
    sit = o["situation"]
    assert [c["id"] for c in sit["hand"]["bob"]] == ["f1", "i1"]  # the top two, in order
    assert sit["players"] == ["alice", {"id": "bob", "life": 18}]
    tome = _spell("Tome Scour")
    assert [(e.kind, e.amount) for e in tome.effects] == [("mill", 5)]
    doc["stack"] = [{"card": "Tome Scour", "id": "ts", "controller": "alice", "targets": [["bob"]]}]
    (o,) = answer(situation_from_dict(doc).state, {"kind": "resolve"})["outcomes"]
    # three cards milled from a library of three; milling more than the library holds is fine (CR 701.17b)
    assert [c["id"] for c in o["situation"]["graveyard"]["bob"]] == ["f1", "i1", "s1"]
    assert o["situation"]["players"] == ["alice", "bob"]


def test_frost_breath_taps_and_the_creatures_skip_their_next_untap():
    fb = _spell("Frost Breath")
    assert [e.kind for e in fb.effects] == ["tap", "skip_untap"]
    doc = {"format": "mtgsolve/1", "players": ["alice", "bob"], "turn": {"active": "alice", "step": "main1"},
           "battlefield": {"bob": [{"card": "Grizzly Bears", "id": "b1"}, {"card": "Llanowar Elves", "id": "e1"}]},
           "stack": [{"card": "Frost Breath", "id": "fb", "controller": "alice", "targets": [["b1", "e1"]]}]}
    (o,) = answer(situation_from_dict(doc).state, {"kind": "resolve"})["outcomes"]
    bob = o["situation"]["battlefield"]["bob"]
    assert all(p["tapped"] is True and p["skip_untap"] is True for p in bob)
    # a new object forgets it (CR 400.7): Unsummon then no skip_untap in hand
    doc["battlefield"]["bob"][0]["skip_untap"] = True
    doc["stack"] = [{"card": "Unsummon", "id": "u", "controller": "alice", "targets": [["b1"]]}]
    (o,) = answer(situation_from_dict(doc).state, {"kind": "resolve"})["outcomes"]
    assert o["situation"]["hand"]["bob"] == [{"id": "b1", "card": "Grizzly Bears"}]

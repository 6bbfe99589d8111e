"""Characteristics after continuous effects (CR 613, 305.6, 305.7, 302.6)."""
from __future__ import annotations

from mtgsolve.solver.rules.characteristics import View
from mtgsolve.solver.core.ir import ManaAbility
from mtgsolve.solver.io.load import situation_from_dict


def view(**zones) -> View:
    d = {"format": "mtgsolve/1", "players": ["alice", "bob"]}
    d.update(zones)
    return View(situation_from_dict(d).state)


def produced(v: View, oid: str) -> set[str]:
    """Mana texts of the permanent's fixed-mana abilities."""
    out = set()
    for a in v.chars(oid).mana_abilities:
        out.add(a.produce.describe())
    return out


def test_basic_land_types_give_intrinsic_mana_abilities_cr_305_6():
    v = view(battlefield={"alice": ["Tundra", "Forest"]})
    assert produced(v, "tundra") == {"{W}", "{U}"}
    assert produced(v, "forest") == {"{G}"}
    assert v.chars("tundra").subtypes == {"Plains", "Island"}


def test_blood_moon_urborg_plains_dependency_cr_613_8():
    """Blood Moon makes Urborg a Mountain, so Urborg's effect never applies:
    Plains are not Swamps, whatever the timestamps."""
    for order in (["Urborg, Tomb of Yawgmoth", "Blood Moon", "Plains"],
                  ["Blood Moon", "Urborg, Tomb of Yawgmoth", "Plains"]):
        v = view(battlefield={"alice": order})
        assert v.chars("plains").subtypes == {"Plains"}
        assert produced(v, "plains") == {"{W}"}
        assert v.chars("urborg-tomb-of-yawgmoth").subtypes == {"Mountain"}
        assert produced(v, "urborg-tomb-of-yawgmoth") == {"{R}"}


def test_urborg_alone_makes_each_land_a_swamp():
    v = view(battlefield={"alice": ["Urborg, Tomb of Yawgmoth", "Plains"], "bob": ["Reflecting Pool"]})
    assert v.chars("plains").subtypes == {"Plains", "Swamp"}
    assert produced(v, "plains") == {"{W}", "{B}"}
    assert "Swamp" in v.chars("reflecting-pool").subtypes
    assert len(v.chars("reflecting-pool").mana_abilities) == 2  # its own + the Swamp's


def test_blood_moon_removes_rules_text_abilities_cr_305_7():
    v = view(battlefield={"alice": ["Blood Moon", "Reflecting Pool", "Forest"]})
    assert produced(v, "reflecting-pool") == {"{R}"}
    assert produced(v, "forest") == {"{G}"}  # basic: unaffected


def test_prismatic_omen_adds_every_basic_land_type():
    v = view(battlefield={"alice": ["Prismatic Omen", "Wastes"], "bob": ["Island"]})
    assert v.chars("wastes").subtypes == {"Plains", "Island", "Swamp", "Mountain", "Forest"}
    assert produced(v, "wastes") == {"{C}", "{W}", "{U}", "{B}", "{R}", "{G}"}
    assert v.chars("island").subtypes == {"Island"}  # only lands you control


def test_chromatic_lantern_grant_survives_blood_moon_layer_6():
    v = view(battlefield={"alice": ["Chromatic Lantern", "Blood Moon", "Reflecting Pool"], "bob": ["Forest"]})
    abil = v.chars("reflecting-pool").mana_abilities
    assert [a.produce.describe() for a in abil] == ["{R}", "1 mana of any one color"]
    assert len(v.chars("forest").mana_abilities) == 1  # bob's lands don't get it


def test_celestial_dawn_lands_are_plains_and_permanents_white():
    v = view(battlefield={"alice": ["Celestial Dawn", "Forest", "Llanowar Elves"], "bob": ["Forest"]})
    assert v.chars("forest").subtypes == {"Plains"}
    assert produced(v, "forest") == {"{W}"}
    assert v.chars("llanowar-elves").colors == {"W"}
    assert v.chars("forest-2").subtypes == {"Forest"}


def test_enroll_in_the_coalition_makes_its_controller_a_flagbearer():
    v = view(battlefield={"alice": ["Enroll in the Coalition"], "bob": ["Coalition Honor Guard"]})
    assert v.player_subtypes("alice") == {"Flagbearer"}
    assert v.player_subtypes("bob") == frozenset()
    assert "Flagbearer" in v.chars("coalition-honor-guard").subtypes
    assert v.chars("coalition-honor-guard").is_creature


def test_coalition_flag_makes_enchanted_creature_a_flagbearer():
    v = view(battlefield={"alice": ["Grizzly Bears", {"card": "Coalition Flag", "attached_to": "grizzly-bears"}]})
    assert "Flagbearer" in v.chars("grizzly-bears").subtypes


def test_summoning_sickness_and_haste_cr_302_6():
    v = view(battlefield={"alice": [{"card": "Llanowar Elves", "sick": True}, {"card": "Raging Goblin", "sick": True},
                                    {"card": "Sol Ring", "sick": True}, "Grizzly Bears"]})
    assert not v.can_pay_tap_symbol("llanowar-elves")
    assert v.can_pay_tap_symbol("raging-goblin")  # haste
    assert v.can_pay_tap_symbol("sol-ring")  # not a creature
    assert v.can_pay_tap_symbol("grizzly-bears")


def test_thousand_year_elixir_lets_sick_creatures_use_tap_abilities():
    v = view(battlefield={"alice": ["Thousand-Year Elixir", {"card": "Llanowar Elves", "sick": True}],
                          "bob": [{"card": "Llanowar Elves", "sick": True}]})
    assert v.can_pay_tap_symbol("llanowar-elves")
    assert not v.can_pay_tap_symbol("llanowar-elves-2")


def test_cartouche_pumps_enchanted_creature_layer_7c():
    v = view(battlefield={"alice": ["Grizzly Bears", {"card": "Cartouche of Strength", "attached_to": "grizzly-bears"}]})
    c = v.chars("grizzly-bears")
    assert (c.power, c.toughness) == (3, 3)
    assert c.keyword("trample")


def test_counters_layer_7d_and_giant_growth_effect():
    v = view(battlefield={"alice": [{"card": "Grizzly Bears", "counters": {"+1/+1": 2, "-1/-1": 1}}]},
             effects=[{"card": "Giant Growth", "controller": "alice", "targets": [["grizzly-bears"]]}])
    c = v.chars("grizzly-bears")
    assert (c.power, c.toughness) == (6, 6)


def test_mana_replacements_gathered_from_permanents_and_effects():
    v = view(battlefield={"alice": ["Mana Reflection", "Contamination"]},
             effects=[{"card": "Pale Moon", "controller": "bob"}])
    ops = sorted(s.ability.op for s in v.mana_replacements)
    assert ops == ["multiply", "set_type", "set_type_and_amount"]


def test_activated_ability_numbering_counts_mana_abilities():
    v = view(battlefield={"alice": ["Vivid Crag", "Hangarback Walker"]})
    assert len(v.chars("vivid-crag").activated) == 2
    assert len(v.chars("hangarback-walker").activated) == 1
    assert isinstance(v.chars("vivid-crag").activated[0], ManaAbility)


def test_token_colors_come_from_the_effect_cr_111_4():
    d = {"card": {"name": "Spirit", "type": "Creature — Spirit", "types": ["Creature"], "subtypes": ["Spirit"],
                  "power": "1", "toughness": "1", "colors": ["W"]}, "token": True}
    v = view(battlefield={"alice": [d]})
    assert v.chars("spirit").colors == {"W"}


def test_unsupported_abilities_keep_numbering():
    from mtgsolve.solver.core.ir import Unsupported, ability_kind_of_line, is_activated, is_triggered

    assert ability_kind_of_line("{2}, {T}: Draw a card.") == "activated"
    assert ability_kind_of_line("Equip {2}") == "activated"
    assert ability_kind_of_line("Whenever a creature dies, you gain 1 life.") == "triggered"
    assert ability_kind_of_line('Lands you control have "{T}: Add {C}."') == "static"
    assert is_activated(Unsupported("x", "{T}: Draw a card.", "activated"))
    assert is_triggered(Unsupported("persist", "Persist", "triggered"))
    assert not is_activated(Unsupported("x", "Flying", "static"))


def test_celestial_dawn_makes_spells_and_cards_white():
    v = view(battlefield={"alice": ["Celestial Dawn"]}, hand={"alice": ["Lightning Bolt", "Forest"], "bob": ["Shock"]})
    assert v.chars("lightning-bolt").colors == {"W"}
    assert v.chars("forest").colors == frozenset()  # lands are not affected
    assert v.chars("shock").colors == {"R"}  # only cards alice owns

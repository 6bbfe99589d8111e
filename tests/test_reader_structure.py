"""The reader's structure layer (solver/reader/structure.py): real cards whose
effects are not (all) read still get their ability kinds, costs, timing and
target slots read exactly; what is not read is kept as printed
(``UnreadEffect(text=…)``) and never executed (CR 601.2c, 115, 602, 603,
606, 700.2).

Cards are read by the Oracle reader directly (not the hand-written library).
"""
from __future__ import annotations

import pytest

from mtgsolve.solver.core import ir
from mtgsolve.solver.cards import CardData, oracle_index
from mtgsolve.solver.core.ir import (ANY_TARGET, SELF, ActivatedAbility, Attach, Cost, EntersTrigger, Filter, Keyword, T, TargetSpec, Trigger,
                       TriggeredAbility, UnreadEffect, Unsupported)
from mtgsolve.solver.core.mana import ManaCost
from mtgsolve.solver.queries import answer
from mtgsolve.solver.reader import read, read_lines
from mtgsolve.solver.io.load import situation_from_dict

CREATURE = frozenset({"Creature"})


def rd(name: str):
    return read(CardData.from_mtgjson(oracle_index()[name]))


def spell_of(name: str) -> ir.SpellBehaviour:
    abilities, sp = rd(name)
    assert sp is not None, (name, abilities)
    return sp


def kinds(effects) -> list[str]:
    return [e.kind for e in effects]


def unread(effects) -> list[str]:
    return [e.text for e in effects if e.kind == "unread"]


def custom(text: str, types=("Instant",), name: str = "Test Card"):
    return read(CardData.from_mtgjson({"name": name, "type": " ".join(types), "types": list(types), "text": text}))


# ---------------------------------------------------------------------------
# Instants and sorceries
# ---------------------------------------------------------------------------


def test_swords_to_plowshares():
    sp = spell_of("Swords to Plowshares")
    assert sp.targets == (TargetSpec(Filter(types=CREATURE)),)
    # read whole since issue 26 (CR 608.2h; tests/test_effects_its_controller.py)
    assert sp.effects == (ir.Exile(T(0)), ir.ItsControllerGainsLife(T(0)))


def test_path_to_exile():
    sp = spell_of("Path to Exile")
    assert sp.targets == (TargetSpec(Filter(types=CREATURE)),)
    # its second sentence is read since issue 26 (helper library: tests/test_effects_library.py)
    assert kinds(sp.effects) == ["exile", "search"]


def test_fatal_push_condition_is_an_effect_not_a_filter():
    # "if it has mana value 2 or less" is checked on resolution: any creature may be targeted
    sp = spell_of("Fatal Push")
    assert sp.targets == (TargetSpec(Filter(types=CREATURE)),)
    assert unread(sp.effects)[0] == "Destroy target creature if it has mana value 2 or less."
    assert kinds(sp.effects) == ["unread", "unread"]


@pytest.mark.parametrize("name,nontypes,price", [("Mana Leak", frozenset(), "{3}"),
                                                ("Spell Pierce", frozenset({"Creature"}), "{2}"),
                                                ("Daze", frozenset(), "{1}")])
def test_soft_counters_target_a_spell(name, nontypes, price):
    sp = spell_of(name)
    assert sp.targets == (TargetSpec(Filter(types=frozenset({"Spell"}), zone="stack", nontypes=nontypes)),)
    # read whole since issue 26 (CR 118.12; tests/test_effects_counter_unless.py)
    assert kinds(sp.effects) == ["counter_unless"]
    assert sp.effects[0].describe().endswith(f"unless its controller pays {price}")


def test_daze_alternative_cost_is_not_an_effect():
    # a casting rule (read elsewhere or unsupported), never part of the spell's effects
    abilities, sp = rd("Daze")
    (u,) = abilities
    assert u.text == "You may return an Island you control to its owner's hand rather than pay this spell's mana cost."
    assert sp.targets == (TargetSpec(Filter(types=frozenset({"Spell"}), zone="stack")),)


def test_counterspell_is_fully_read():
    sp = spell_of("Counterspell")
    assert sp.targets == (TargetSpec(Filter(types=frozenset({"Spell"}), zone="stack")),)
    assert sp.effects == (ir.CounterSpell(T(0)),)


@pytest.mark.parametrize("name", ["Forked Bolt", "Fire // Ice"])
def test_divided_damage_among_one_or_two_targets(name):
    # CR 601.2d: 2 damage divided among one or two targets (any target, CR 115.4)
    sp = spell_of(name)
    assert sp.targets == (TargetSpec(ANY_TARGET, 1, 2, divided=True),)
    assert unread(sp.effects) == [f"{name.split(' //')[0]} deals 2 damage divided as you choose among one or two targets."]


def test_electrolyze_keeps_its_read_draw():
    sp = spell_of("Electrolyze")
    assert sp.targets == (TargetSpec(ANY_TARGET, 1, 2, divided=True),)
    assert kinds(sp.effects) == ["unread", "draw"]


def test_lightning_helix_and_arc_trail_are_fully_read():
    sp = spell_of("Lightning Helix")
    assert sp.targets == (TargetSpec(ANY_TARGET),)
    assert kinds(sp.effects) == ["damage", "gain_life"]
    sp = spell_of("Arc Trail")
    assert sp.targets == (TargetSpec(ANY_TARGET), TargetSpec(ANY_TARGET, distinct_from=(0,)))


def test_abrupt_decay():
    abilities, sp = rd("Abrupt Decay")
    assert sp.targets == (TargetSpec(Filter(types=frozenset({"Permanent"}), nontypes=frozenset({"Land"}), mv_max=3)),)
    assert sp.effects == (ir.Destroy(T(0)),)
    (u,) = abilities
    assert u == ir.CantBeCountered("This spell can't be countered.")   # read (CR 101.2, 701.6a)


def test_thoughtseize_targets_a_player():
    sp = spell_of("Thoughtseize")
    assert sp.targets == (TargetSpec(Filter(players=True)),)
    assert unread(sp.effects) == []   # the reveal-choose-discard passage is read (issue 26, CR 701.20a, 701.9a)
    assert kinds(sp.effects) == ["choose_discard", "lose_life"]
    assert sp.effects[0] == ir.ChooseDiscard(T(0), Filter(nontypes=frozenset({"Land"}), zone="hand"))


def test_fireblast_alternative_cost_is_not_an_effect():
    abilities, sp = rd("Fireblast")
    assert [a.text for a in abilities] == ["You may sacrifice two Mountains rather than pay this spell's mana cost."]
    assert sp.targets == (TargetSpec(ANY_TARGET),) and kinds(sp.effects) == ["damage"]


def test_skullcrack_target_player_or_planeswalker():
    sp = spell_of("Skullcrack")
    assert sp.targets == (TargetSpec(Filter(types=frozenset({"Planeswalker"}), players=True)),)
    assert kinds(sp.effects) == ["unread", "damage"]
    assert unread(sp.effects) == ["Players can't gain life this turn. Damage can't be prevented this turn."]


def test_dismember_and_smother():
    sp = spell_of("Dismember")
    assert sp.targets == (TargetSpec(Filter(types=CREATURE)),)
    assert sp.effects == (ir.Pump(T(0), power=-5, toughness=-5),)
    sp = spell_of("Smother")
    assert sp.targets == (TargetSpec(Filter(types=CREATURE, mv_max=3)),)


def test_condemn_targets_an_attacking_creature():
    sp = spell_of("Condemn")
    assert sp.targets == (TargetSpec(Filter(types=CREATURE, combat=frozenset({"attacking"}))),)
    # its effect is read since issue 26 (helper library: tests/test_effects_library.py)
    assert kinds(sp.effects) == ["put_in_library", "its_controller_gains_life"]


def test_incinerate_read_damage_then_unread_rider():
    sp = spell_of("Incinerate")
    assert kinds(sp.effects) == ["damage", "unread"]
    assert unread(sp.effects) == ["A creature dealt damage this way can't be regenerated this turn."]


def test_brainstorm_has_no_targets_and_an_unread_effect():
    """Read whole since issue 26 (CR 401.4; tests/test_effects_scry.py)."""
    sp = spell_of("Brainstorm")
    assert sp.targets == ()
    assert kinds(sp.effects) == ["draw", "hand_on_top"]


def test_fling_additional_cost_is_not_an_effect():
    abilities, sp = rd("Fling")
    assert [a.text for a in abilities] == ["As an additional cost to cast this spell, sacrifice a creature."]
    assert sp.targets == (TargetSpec(ANY_TARGET),)


@pytest.mark.parametrize("name", ["Kolaghan's Command", "Izzet Charm", "Cryptic Command"])
def test_modal_spells_are_read_with_modes(name):
    # CR 700.2: modes are read (solver/reader/modes.py; tests/test_modes.py); the spell has no targets
    # or effects of its own: it does what its chosen modes do (CR 700.2a)
    abilities, sp = rd(name)
    assert sp is not None and sp.targets == () and len(sp.modes) >= 3
    assert sp.effects == ()


@pytest.mark.parametrize("name", ["Brokers Confluence"])
def test_modal_spells_are_unsupported_with_targets_and_effect(name):
    # CR 700.2: a mode whose targets are not read ("target activated or triggered ability"): the
    # modes are not modeled; the choice and each mode are reported, as printed
    abilities, sp = rd(name)
    assert sp is None
    assert all(isinstance(a, Unsupported) and a.affects == frozenset({"targets", "effect"}) for a in abilities)
    data = CardData.from_mtgjson(oracle_index()[name])
    assert [a.text for a in abilities] == [line for line in data.text.split("\n") if line]


# ---------------------------------------------------------------------------
# Permanents: activated, loyalty, triggered, equip
# ---------------------------------------------------------------------------


def test_royal_assassin_tapped_creature():
    (a,), _ = rd("Royal Assassin")
    assert a == ActivatedAbility(Cost(tap=True), (TargetSpec(Filter(types=CREATURE, tapped=True)),),
                                 (ir.Destroy(T(0)),), False, a.text)


def test_mother_of_runes():
    (a,), _ = rd("Mother of Runes")
    assert isinstance(a, ActivatedAbility) and a.cost == Cost(tap=True) and not a.sorcery
    assert a.targets == (TargetSpec(Filter(types=CREATURE, who="you")),)
    # read since issue 27: the color is chosen as it resolves (CR 608.2d; tests/test_castmodes.py)
    assert unread(a.effects) == [] and [e.chosen_protection for e in a.effects] == [True]


def test_prodigal_sorcerer_and_mogg_fanatic():
    (a,), _ = rd("Prodigal Sorcerer")
    assert a.cost == Cost(tap=True) and a.targets == (TargetSpec(ANY_TARGET),) and kinds(a.effects) == ["damage"]
    (a,), _ = rd("Mogg Fanatic")
    assert a.cost == Cost(sacrifice_self=True) and a.targets == (TargetSpec(ANY_TARGET),)


def test_wasteland_nonbasic_land():
    mana, a = rd("Wasteland")[0]
    assert a.cost == Cost(tap=True, sacrifice_self=True)
    assert a.targets == (TargetSpec(Filter(types=frozenset({"Land"}), not_supertypes=frozenset({"Basic"}))),)


def test_icy_manipulator():
    (a,), _ = rd("Icy Manipulator")
    assert a.cost == Cost(mana=ManaCost.parse("{1}"), tap=True)
    assert a.targets == (TargetSpec(Filter(types=frozenset({"Artifact", "Creature", "Land"}))),)


def test_grim_lavamancer_graveyard_cost_is_read():
    """"Exile two cards from your graveyard" is a cost the payment chooses (issue 25, CR 406.2, 601.2h)."""
    (a,), _ = rd("Grim Lavamancer")
    assert isinstance(a, ActivatedAbility) and a.cost.tap and a.cost.exile_graveyard == 2
    assert a.cost.mana.text == "{R}" and len(a.targets) == 1


def test_liliana_vess_loyalty_abilities():
    abilities, _ = rd("Liliana Vess")
    assert [a.cost.loyalty for a in abilities] == [1, -2, -8]
    assert all(isinstance(a, ActivatedAbility) and a.sorcery for a in abilities)  # CR 606.3
    assert abilities[0].targets == (TargetSpec(Filter(players=True)),)
    assert abilities[1].targets == abilities[2].targets == ()


def test_jace_possessive_target_player():
    abilities, _ = rd("Jace, the Mind Sculptor")
    assert [a.cost.loyalty for a in abilities] == [2, 0, -1, -12]
    assert abilities[0].targets == (TargetSpec(Filter(players=True)),)
    assert unread(abilities[0].effects) == []   # read by solver/reader/dig.py (tests/test_dig.py)
    assert [type(e).__name__ for e in abilities[0].effects] == ["Dig"]
    assert abilities[3].targets == (TargetSpec(Filter(players=True)),)


def test_snapcaster_mage_trigger_target():
    (flash, trig), _ = rd("Snapcaster Mage")
    assert flash == Keyword("flash")
    assert isinstance(trig, TriggeredAbility) and trig.trigger == EntersTrigger()
    assert trig.targets == (TargetSpec(Filter(types=frozenset({"Instant", "Sorcery"}), who="you", zone="graveyard")),)
    assert unread(trig.effects) == ["target instant or sorcery card in your graveyard gains flashback until end of "
                                    "turn. The flashback cost is equal to its mana cost."]


def test_ravenous_chupacabra_fully_read():
    (trig,), _ = rd("Ravenous Chupacabra")
    assert trig.targets == (TargetSpec(Filter(types=CREATURE, who="opponent")),)
    assert trig.effects == (ir.Destroy(T(0)),)


def test_vendilion_clique_mixes_read_and_unread():
    abilities, _ = rd("Vendilion Clique")
    trig = abilities[2]
    assert trig.targets == (TargetSpec(Filter(players=True)),)
    assert kinds(trig.effects) == ["look_hand", "unread"]


def test_oblivion_ring_another_target_excludes_its_source():
    abilities, _ = rd("Oblivion Ring")
    enters, leaves = abilities
    assert enters.targets == (TargetSpec(Filter(types=frozenset({"Permanent"}), nontypes=frozenset({"Land"}),
                                                other_than_source=True)),)
    # its leaves-the-battlefield event is read (CR 603.6c, issue 27); what it returns stays unread
    assert isinstance(leaves, TriggeredAbility) and leaves.trigger == ir.LeavesTrigger()
    assert kinds(leaves.effects) == ["unread"]


def test_banishing_light_and_sower():
    (trig,), _ = rd("Banishing Light")
    assert trig.targets == (TargetSpec(Filter(types=frozenset({"Permanent"}), nontypes=frozenset({"Land"}),
                                              who="opponent")),)
    flying, trig = rd("Sower of Temptation")[0]
    assert trig.targets == (TargetSpec(Filter(types=CREATURE)),) and kinds(trig.effects) == ["unread"]


def test_pestermite_tap_or_untap():
    abilities, _ = rd("Pestermite")
    assert abilities[2].targets == (TargetSpec(Filter(types=frozenset({"Permanent"}))),)


def test_equip_is_a_sorcery_speed_activated_ability():
    abilities, _ = rd("Bonesplitter")
    equip = abilities[1]
    assert equip == ActivatedAbility(Cost(mana=ManaCost.parse("{1}")), (TargetSpec(Filter(types=CREATURE, who="you")),),
                                     (Attach(SELF, T(0)),), True, "Equip {1}")  # CR 702.6a (reader/effects_equip.py)


def test_brazen_borrower_front_face():
    abilities, sp = rd("Brazen Borrower // Petty Theft")
    assert abilities[:2] == [Keyword("flash"), Keyword("flying")] and sp is None


def test_unread_keywords_say_what_they_affect():
    # (prowess and reconfigure are read now: CR 702.108a, 702.151a)
    abilities, _ = custom("Madness {2}\nAssist\nExalted", types=("Creature",))
    assert [a.affects for a in abilities] == [frozenset({"timing", "costs"}), frozenset({"costs"}),
                                              frozenset({"triggers"})]
    assert [a.text for a in abilities] == ["Madness {2}", "Assist", "Exalted"]
    assert all(isinstance(a, Unsupported) for a in abilities)


def test_overload_is_an_alternative_cost_read_whole():
    """Overload (CR 702.96a-b) is an alternative cost; what an overloaded spell does ("target" reads "each")
    is the resolution's, on the stack object's cast_with: overload — no unread rider."""
    abilities, sp = custom("Destroy target artifact.\nOverload {2}{R}", types=("Sorcery",))
    (opt,) = abilities
    assert isinstance(opt, ir.CastingOption) and (opt.kind, opt.name, opt.zone) == ("alternative", "overload", "hand")
    assert sp is not None and len(sp.targets) == 1  # cast normally it targets (CR 702.96b: overloaded, none)


# ---------------------------------------------------------------------------
# Soundness: a target the IR can't describe completely is never read looser
# ---------------------------------------------------------------------------


@pytest.mark.parametrize("text", [
    "Destroy target creature with the greatest power among creatures you control.",
    "Destroy target creature that was dealt damage this turn.",
    "Tap X target creatures.",
    "Return target creature card in exile to the battlefield under your control.",
    "Destroy target creature blocking or blocked by a Wall.",
    "Counter target activated or triggered ability.",
    "Counter target spell that targets you.",
    "Destroy target red creature or planeswalker.",
    "Destroy target Goblin or creature.",      # a subtype or a type: no filter says that
])
def test_unreadable_targets_leave_the_spell_unread(text):
    abilities, sp = custom(text)
    assert sp is None
    (u,) = abilities
    assert isinstance(u, Unsupported) and u.text == text


def test_target_qualifiers_are_read_exactly():
    cases = {
        "Destroy target creature with power 4 or greater.": Filter(types=CREATURE, power_min=4),
        "Destroy target creature with flying.": Filter(types=CREATURE, keywords=frozenset({"flying"})),
        "Destroy target creature without flying.": Filter(types=CREATURE, not_keywords=frozenset({"flying"})),
        "Destroy target nontoken creature.": Filter(types=CREATURE, token=False),
        "Destroy target creature token.": Filter(types=CREATURE, token=True),             # CR 111.1
        "Destroy target token.": Filter(types=frozenset({"Permanent"}), token=True),
        "Exile target creature card from graveyards.": Filter(types=CREATURE, zone="graveyard"),
        "Exile target artifact and/or enchantment.": Filter(types=frozenset({"Artifact", "Enchantment"})),
        "Destroy target Wolf or Werewolf.": Filter(types=frozenset({"Permanent"}),            # CR 205.3
                                                  subtypes=frozenset({"Wolf", "Werewolf"})),
        "Destroy target Goblin or Elf creature.": Filter(types=CREATURE, subtypes=frozenset({"Goblin", "Elf"})),
        "Destroy target non-Human creature.": Filter(types=CREATURE, not_subtypes=frozenset({"Human"})),
        "Destroy target monocolored creature.": Filter(types=CREATURE, monocolored=True),     # CR 105.2c
        "Destroy target red creature.": Filter(types=CREATURE, colors=frozenset({"R"})),
        "Destroy target multicolored permanent.": Filter(types=frozenset({"Permanent"}), multicolored=True),
        "Destroy target legendary creature.": Filter(types=CREATURE, supertypes=frozenset({"Legendary"})),
        "Destroy target attacking or blocking creature.": Filter(types=CREATURE,
                                                                 combat=frozenset({"attacking", "blocking"})),
        "Destroy target creature with mana value 3 or greater.": Filter(types=CREATURE, mv_min=3),
        "Exile target creature card from an opponent's graveyard.": Filter(types=CREATURE, who="opponent",
                                                                           zone="graveyard"),
    }
    for text, f in cases.items():
        _, sp = custom(text)
        assert sp is not None and sp.targets == (TargetSpec(f),), text


def test_counts_up_to_and_one_two_or_three():
    _, sp = custom("Tap up to two target creatures. Frobnicate them.")
    assert sp.targets == (TargetSpec(Filter(types=CREATURE), 0, 2),)
    _, sp = custom("Test Card deals 3 damage divided as you choose among one, two, or three targets.")
    assert sp.targets == (TargetSpec(ANY_TARGET, 1, 3, divided=True),)
    _, sp = custom("Distribute two +1/+1 counters among one or two target creatures you control.")
    assert sp.targets == (TargetSpec(Filter(types=CREATURE, who="you"), 1, 2, divided=True),)


def test_quoted_abilities_are_not_targets_of_the_spell():
    _, sp = custom('Target creature gains "{T}: This creature deals 1 damage to any target." until end of turn.')
    assert sp.targets == (TargetSpec(Filter(types=CREATURE)),)


def test_line_readings_report_structure_and_unread_sentences():
    lines, _ = read_lines(CardData.from_mtgjson(oracle_index()["Reito Lantern"]))
    (r,) = lines
    assert r.structured and not r.understood and r.unread == 1


# ---------------------------------------------------------------------------
# The engine: structure used for targets, unread effects never executed
# ---------------------------------------------------------------------------


def _state(doc: dict):
    return situation_from_dict({"format": "mtgsolve/1", "players": ["alice", "bob"],
                                "turn": {"active": "alice", "step": "main1"}, **doc}).state


def test_unread_effect_targets_but_does_not_resolve():
    """Fatal Push (its instructions unread; Path to Exile, once this test's card, is read since issue 26)."""
    st = _state({"hand": {"alice": ["Fatal Push"]},
                 "battlefield": {"bob": ["Grizzly Bears"], "alice": ["Swamp"]}})
    r = answer(st, {"kind": "targets", "cast": "fatal-push"})
    assert r["status"] == "ok" and r["choices"] == [[["grizzly-bears"]]], r
    st = _state({"battlefield": {"bob": ["Grizzly Bears"]},
                 "stack": [{"card": "Fatal Push", "id": "fp", "controller": "alice",
                            "targets": [["grizzly-bears"]]}]})
    r = answer(st, {"kind": "resolve"})
    assert r["status"] == "unsupported", r


def test_royal_assassin_targets_only_tapped_creatures():
    st = _state({"battlefield": {"alice": ["Royal Assassin"],
                                 "bob": [{"card": "Grizzly Bears", "tapped": True}, "Llanowar Elves"]}})
    r = answer(st, {"kind": "targets", "activate": {"object": "royal-assassin", "index": 1}})
    assert r["status"] == "ok" and r["choices"] == [[["grizzly-bears"]]], r


def test_forked_bolt_one_or_two_targets():
    st = _state({"hand": {"alice": ["Forked Bolt"]}, "battlefield": {"bob": ["Grizzly Bears"]}})
    r = answer(st, {"kind": "targets", "cast": "forked-bolt"})
    # any target among alice, bob, the Bears: 3 single choices and 3 pairs (CR 601.2d, 115.3)
    assert r["status"] == "ok" and r["count"] == 6, r

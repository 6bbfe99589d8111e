"""Tests of the Oracle-text reader (solver/reader, issue 10).

The hand-written library is the reader's oracle: for every library card the
reader claims to understand fully, its output must equal the library's
(``text`` fields cleared on both sides, see :func:`solver.reader.without_text`).

The full-corpus coverage run takes well over 30 s, so it is marked ``slow`` and
runs only with ``MTGSOLVE_LONG=1``; a sample of the corpus is read in the fast path.
"""
from __future__ import annotations

import gzip
import json
import os

import pytest
from dataclasses import replace

from mtgsolve.solver.core import ir
from mtgsolve.solver.cards import CardData, get_card, oracle_index
from mtgsolve.solver.cards.library import LIBRARY
from mtgsolve.solver.core.ir import (AnyColor, AnyType, AttacksTrigger, BecomesTappedTrigger, Combination, CouldProduce,
                                     CountedMana, EntersTrigger, SacrificedCouldProduce, TappedForMana,
                                     ThatLandProduced, ANY_TARGET, ATTACHED, CONTROLLER, LANDS_OPP_CONTROLS, LANDS_YOU_CONTROL, SELF, Cost, Count,
                       CounterReplacement, Enchant, EntersWith, Filter, Keyword, ManaAbility,
                       ManaReplacement, Produce, Ref, Selector, Static, T, TargetSpec, TokenReplacement, Trigger,
                       TriggeredAbility, TriggeredManaAbility, Unsupported, choice, fixed)
from mtgsolve.solver.core.mana import Mana, ManaCost
from mtgsolve.solver.reader import read, read_lines, without_text
from mtgsolve.solver.cards.coverage import is_mana_ability_line, measure
from mtgsolve.solver.cards.importer import flatten, import_cards, load_cards
from mtgsolve.solver.reader.tokens import strip_reminder, template, tokenize

LAND = frozenset({"Land"})
CREATURE = frozenset({"Creature"})
TAP = Cost(tap=True)
ANY_COLOR = AnyColor()

# Library cards the reader does not fully understand, and why (their other parts must still agree).
EXPECTED_PARTIAL = {
    # "At the beginning of your upkeep, sacrifice this enchantment unless you sacrifice a creature."
    "Contamination",
    # "The same is true for spells you control and nonland cards you own that aren't on the battlefield."
    # (the library models only the permanents' color; the reader reports the rest as a rider)
    "Celestial Dawn",
    # Persist has no meaning in the IR
    "Kitchen Finks",
}


def card(text: str, name: str = "Test Card", types=("Creature",), subtypes=(), cost: str = "",
         supertypes=(), keywords=()) -> CardData:
    return CardData.from_mtgjson({"name": name, "text": text, "types": list(types), "subtypes": list(subtypes),
                                  "supertypes": list(supertypes), "manaCost": cost, "keywords": list(keywords),
                                  "type": " ".join(types)})


def parts(text: str, **kw) -> list:
    abilities, _spell = read(card(text, **kw))
    return without_text(abilities)


def one(text: str, **kw):
    ps = parts(text, **kw)
    assert len(ps) == 1, ps
    return ps[0]


def spell(text: str, **kw) -> ir.SpellBehaviour:
    kw.setdefault("types", ("Instant",))
    abilities, sp = read(card(text, **kw))
    assert not [a for a in abilities if isinstance(a, Unsupported)], abilities
    assert sp is not None
    return without_text(sp)


def unsupported(text: str, **kw) -> list[Unsupported]:
    abilities, _ = read(card(text, **kw))
    return [a for a in abilities if isinstance(a, Unsupported)]


# ---------------------------------------------------------------------------
# The oracle: the hand-written library
# ---------------------------------------------------------------------------


def _library_vs_reader():
    idx = oracle_index()
    for name, build in sorted(LIBRARY.items()):
        data = CardData.from_mtgjson(idx[name])
        lib_abilities, lib_spell = build(data)
        abilities, sp = read(data)
        yield name, without_text(list(lib_abilities)), without_text(lib_spell), without_text(abilities), \
            without_text(sp)


def _has_unread(a) -> bool:
    """An ability (or spell) read only for its structure: some effect is ``unread`` (reader/structure.py)."""
    return any(getattr(e, "kind", "") == "unread" for e in getattr(a, "effects", ()) or ())


def test_reader_reproduces_every_library_card_it_claims_to_understand():
    full, partial = [], []
    for name, lib_ab, lib_sp, ab, sp in _library_vs_reader():
        if any(isinstance(a, Unsupported) or _has_unread(a) for a in ab) or _has_unread(sp):
            partial.append(name)
            continue
        full.append(name)
        assert ab == lib_ab, name
        assert sp == lib_sp, name
    assert len(LIBRARY) == 80
    assert set(partial) <= EXPECTED_PARTIAL, sorted(set(partial) - EXPECTED_PARTIAL)
    assert len(full) >= 77


def test_supported_parts_of_partially_understood_library_cards_agree():
    """Even where a card is not fully understood, what the reader does understand equals the library."""
    for name, lib_ab, lib_sp, ab, sp in _library_vs_reader():
        # an ability read only for its structure (unread effect) stands where the library has an
        # unsupported part, or agrees with the library's ability on its structure
        mine = [a for a in ab if not isinstance(a, Unsupported) and not _has_unread(a)]
        theirs = [a for a in lib_ab if not isinstance(a, Unsupported)
                  and not any(_has_unread(m) and type(m) is type(a) and m.targets == a.targets for m in ab)]
        assert mine == theirs, name
        if _has_unread(sp):
            assert lib_sp is None or lib_sp.targets == sp.targets, name
        else:
            assert sp == lib_sp, name


def test_kitchen_finks_unsupported_persist_matches_library():
    data = CardData.from_mtgjson(oracle_index()["Kitchen Finks"])
    ab, _ = read(data)
    # the reader also says what unread persist could change (a trigger, CR 702.79a)
    assert ab[1].affects == frozenset({"triggers"})
    ab = [replace(a, affects=frozenset()) if isinstance(a, Unsupported) else a for a in ab]
    assert without_text(ab) == without_text(LIBRARY["Kitchen Finks"](data)[0])


def test_basic_lands_reminder_text_gives_no_ability():
    for name in ("Plains", "Forest", "Tundra", "Snow-Covered Island"):
        data = CardData.from_mtgjson(oracle_index()[name])
        assert data.text.startswith("(")
        assert read(data) == ([], None)


# ---------------------------------------------------------------------------
# Tokens
# ---------------------------------------------------------------------------


def test_tokens_self_reference_and_reminder():
    toks = tokenize(strip_reminder("Hexproof (This creature can't be the target of spells.)"))
    assert [t.low for t in toks] == ["hexproof"]
    toks = tokenize("When Cartouche of Strength enters the battlefield, draw a card.", ["Cartouche of Strength"])
    assert toks[1].kind == "SELF"
    toks = tokenize("{T}, Sacrifice this land: Add {R}{W}.")
    assert [t.kind for t in toks][:4] == ["SYM", "PUNCT", "WORD", "SELF"]
    assert tokenize("+1/+1")[0].kind == "PT"


def test_template_normalisation():
    assert template(tokenize("Shock deals 2 damage to any target.", ["Shock"])) == "~ deals N damage to any target."
    assert template(tokenize("{2}{G}, {T}: Add {G}{G}.")) == "{M}, {T}: Add {M}."
    assert template(tokenize("Conjure a card named Lightning Bolt into your hand.")) == \
        "Conjure a card named NAME into your hand."


# ---------------------------------------------------------------------------
# Mana abilities (CR 605) in their common forms
# ---------------------------------------------------------------------------

MANA_CASES = [
    ("{T}: Add {C}{C}.", ManaAbility(TAP, fixed("{C}{C}"))),
    ("{T}: Add {R} or {G}.", ManaAbility(TAP, choice("{R}", "{G}"))),
    ("{W/B}, {T}: Add {W}{W}, {W}{B}, or {B}{B}.",
     ManaAbility(Cost(mana=ManaCost.parse("{W/B}"), tap=True), choice("{W}{W}", "{W}{B}", "{B}{B}"))),
    ("{T}: Add one mana of any color.", ManaAbility(TAP, ANY_COLOR)),
    ("{T}: Add one mana of any type.", ManaAbility(TAP, AnyType())),
    ("{T}: Add two mana of any one color.", ManaAbility(TAP, AnyColor(amount=2))),
    ("{T}: Add one mana of any color that a land you control could produce.",
     ManaAbility(TAP, CouldProduce(selector=LANDS_YOU_CONTROL))),
    ("{T}: Add one mana of any color that a land an opponent controls could produce.",
     ManaAbility(TAP, CouldProduce(selector=LANDS_OPP_CONTROLS))),
    ("{T}: Add one mana of any type that a land you control could produce.",
     ManaAbility(TAP, CouldProduce(selector=LANDS_YOU_CONTROL, of_type=True))),
    ("Sacrifice a land: Add one mana of any type the sacrificed land could produce.",
     ManaAbility(Cost(sacrifice=Selector(who="you", types=LAND)), SacrificedCouldProduce(of_type=True))),
    ("{T}: Add {G} for each creature you control.",
     ManaAbility(TAP, CountedMana((Mana.parse("{G}"),), count=Count(Selector(who="you", types=CREATURE))))),
    ("{T}, Pay 1 life: Add one mana of any color.", ManaAbility(Cost(tap=True, life=1), ANY_COLOR)),
    ("{T}, Sacrifice this land: Add {R}{W}.", ManaAbility(Cost(tap=True, sacrifice_self=True), fixed("{R}{W}"))),
    ("{T}, Remove a charge counter from this land: Add one mana of any color.",
     ManaAbility(Cost(tap=True, remove_counters=("charge", 1)), ANY_COLOR)),
    ("{5}, {T}: Add {W}{U}{B}{R}{G}.", ManaAbility(Cost(mana=ManaCost.parse("{5}"), tap=True), fixed("{W}{U}{B}{R}{G}"))),
    ("{T}, Tap an untapped creature you control: Add one mana of any color.",
     ManaAbility(Cost(tap=True, tap_other_creatures=1), ANY_COLOR)),
    ("{T}: Add {W} or {U}. This land deals 1 damage to you.", ManaAbility(TAP, choice("{W}", "{U}"), 1)),
    ("{T}: Add {C}{C}. This land deals 2 damage to you.", ManaAbility(TAP, fixed("{C}{C}"), 2)),
    ("{5}, {T}: Add five mana in any combination of colors.",
     ManaAbility(Cost(mana=ManaCost.parse("{5}"), tap=True), Combination(amount=5))),
    ("{T}, Sacrifice a Forest: Add two mana in any combination of {R} and/or {G}.",
     ManaAbility(Cost(tap=True, sacrifice=Selector(who="you", subtypes=frozenset({"Forest"}))),
                 choice("{R}{R}", "{R}{G}", "{G}{G}"))),
    ("{1}, {Q}: Add one mana of any color.", ManaAbility(Cost(mana=ManaCost.parse("{1}"), untap=True), ANY_COLOR)),
]


@pytest.mark.parametrize("text,expected", MANA_CASES, ids=[c[0] for c in MANA_CASES])
def test_mana_ability_templates(text, expected):
    assert one(text, types=("Land",)) == expected


def test_mana_ability_with_target_is_not_a_mana_ability():
    # CR 605.5a: "{T}: Add {G}. Target player ..." would need a target
    assert not any(isinstance(a, ManaAbility) for a in parts("{T}: Add {G}. Tap target creature."))


def test_mana_rider_not_understood_keeps_ability_and_reports_rider():
    ps = parts("{T}: Add {C}. Spend this mana only to cast kicked spells.", types=("Land",))
    assert ps[0] == ManaAbility(TAP, fixed("{C}"))
    assert isinstance(ps[1], Unsupported) and ps[1].what.startswith("rider:")
    abilities, _ = read(card("{T}: Add {C}. Spend this mana only to cast kicked spells.", types=("Land",)))
    assert abilities[1].text == "{T}: Add {C}. Spend this mana only to cast kicked spells."


def _spells(**kw) -> ir.Filter:
    return ir.Filter(zone="stack", **kw)


SPEND_CASES = [
    ("Spend this mana only to cast a creature spell.",
     ir.SpendRestriction(spells=(_spells(types=frozenset({"Creature"})),))),
    ("Spend this mana only to cast instant and/or sorcery spells.",
     ir.SpendRestriction(spells=(_spells(types=frozenset({"Instant", "Sorcery"})),))),
    ("Spend this mana only to cast a noncreature spell.",
     ir.SpendRestriction(spells=(_spells(nontypes=frozenset({"Creature"})),))),
    ("Spend this mana only to cast legendary spells.",
     ir.SpendRestriction(spells=(_spells(supertypes=frozenset({"Legendary"})),))),
    ("Spend this mana only to cast a multicolored spell.", ir.SpendRestriction(spells=(_spells(multicolored=True),))),
    ("Spend this mana only to cast a Dragon creature spell.",
     ir.SpendRestriction(spells=(_spells(types=frozenset({"Creature"}), subtypes=frozenset({"Dragon"})),))),
    ("Spend this mana only to cast a Knight or Equipment spell.",
     ir.SpendRestriction(spells=(_spells(subtypes=frozenset({"Knight", "Equipment"})),))),
    ("Spend this mana only to cast an Elemental spell or a Chandra planeswalker spell.",
     ir.SpendRestriction(spells=(_spells(subtypes=frozenset({"Elemental"})),
                                 _spells(types=frozenset({"Planeswalker"}), subtypes=frozenset({"Chandra"}))))),
    ("Spend this mana only to activate abilities.", ir.SpendRestriction(abilities=True)),
    ("Spend this mana only to cast creature spells or activate abilities of creatures.",
     ir.SpendRestriction(spells=(_spells(types=frozenset({"Creature"})),), abilities=True,
                         sources=(ir.Filter(types=frozenset({"Creature"})),))),
    ("Spend this mana only to cast an artifact spell or activate an ability of an artifact source.",
     ir.SpendRestriction(spells=(_spells(types=frozenset({"Artifact"})),), abilities=True,
                         sources=(ir.Filter(types=frozenset({"Artifact"})),))),
    ("Spend this mana only to activate abilities of land sources.",
     ir.SpendRestriction(abilities=True, sources=(ir.Filter(types=frozenset({"Land"})),))),
    ("Spend this mana only to cast a colorless spell or to activate an ability.",
     ir.SpendRestriction(spells=(_spells(colorless=True),), abilities=True)),
    ("Spend this mana only to cast a Cleric, Rogue, Warrior, or Wizard spell or to activate an ability of a "
     "Cleric, Rogue, Warrior, or Wizard.",
     ir.SpendRestriction(spells=(_spells(subtypes=frozenset({"Cleric", "Rogue", "Warrior", "Wizard"})),),
                         abilities=True,
                         sources=(ir.Filter(subtypes=frozenset({"Cleric", "Rogue", "Warrior", "Wizard"})),))),
    ("This mana can't be spent to cast nonartifact spells.",
     ir.SpendRestriction(spells=(_spells(types=frozenset({"Artifact"})),), abilities=True, other=True)),
]


@pytest.mark.parametrize("rider,expected", SPEND_CASES, ids=[c[0][:60] for c in SPEND_CASES])
def test_spending_restrictions(rider, expected):
    """CR 106.6: "Spend this mana only to …" riders are read into ManaAbility.spend."""
    ps = parts("{T}: Add {C}. " + rider, types=("Land",))
    assert ps == [ManaAbility(TAP, fixed("{C}"), spend=expected)]


@pytest.mark.parametrize("rider", [
    "Spend this mana only to cast kicked spells.",
    "Spend this mana only on costs that contain {X}.",
    "Spend this mana only to pay cumulative upkeep costs.",
    "When you spend this mana to cast a Dragon creature spell, scry 2.",
    "If that mana is spent on a creature spell, it gains haste until end of turn.",
    "Spend this mana only to cast Equipment spells or activate equip abilities.",
])
def test_spending_riders_not_modeled_stay_unsupported(rider):
    ps = parts("{T}: Add {C}. " + rider, types=("Land",))
    assert ps[0] == ManaAbility(TAP, fixed("{C}"))
    assert isinstance(ps[1], Unsupported) and ps[1].what.startswith("rider:")


def test_spending_restrictions_of_real_cards():
    """Oracle cards: the restriction is read (CR 106.6)."""
    creature = ir.SpendRestriction(spells=(_spells(types=frozenset({"Creature"})),))
    zig = get_card("Ancient Ziggurat").abilities
    assert [a for a in zig if isinstance(a, ManaAbility)] == [
        ManaAbility(TAP, ir.AnyColor(), text=zig[0].text, spend=creature)]
    pillar = get_card("Pillar of the Paruns").abilities
    assert pillar[0].spend == ir.SpendRestriction(spells=(_spells(multicolored=True),))
    temple = [a for a in get_card("Eldrazi Temple").abilities if isinstance(a, ManaAbility)]
    assert temple[0].spend is None
    assert temple[1].spend == ir.SpendRestriction(
        spells=(_spells(subtypes=frozenset({"Eldrazi"}), colorless=True),), abilities=True,
        sources=(ir.Filter(subtypes=frozenset({"Eldrazi"}), colorless=True),))
    assert "activate abilities of colorless Eldrazi sources" in temple[1].describe()
    workshop = get_card("Mishra's Workshop").abilities
    assert workshop[0].spend == ir.SpendRestriction(spells=(_spells(types=frozenset({"Artifact"})),))
    # Cavern of Souls: the chosen-type restriction is read (tests/test_reader_mana_more.py), "and that
    # spell can't be countered" stays an unsupported rider
    cavern = get_card("Cavern of Souls").abilities
    assert any(isinstance(a, ManaAbility) and a.spend is not None and a.spend.spells[0].chosen_type for a in cavern)
    assert any(isinstance(a, Unsupported) and "can't be countered" in a.what for a in cavern)


def test_triggered_mana_abilities():
    assert one("Whenever a player taps a land for mana, that player adds one mana of any type that land produced.") \
        == TriggeredManaAbility(TappedForMana(Selector(types=LAND)), ThatLandProduced())
    assert one("Whenever enchanted land is tapped for mana, its controller adds an additional {G}{G}.") == \
        TriggeredManaAbility(TappedForMana(Selector(attached=True, types=LAND)), fixed("{G}{G}"))
    assert one("Whenever you tap a creature for mana, add an additional {G}.") == \
        TriggeredManaAbility(TappedForMana(Selector(who="you", types=CREATURE)), fixed("{G}"))


# ---------------------------------------------------------------------------
# Replacement effects and statics
# ---------------------------------------------------------------------------


def test_mana_replacement_effects():
    assert one("If you tap a permanent for mana, it produces twice as much of that mana instead.") == \
        ManaReplacement(Selector(), "multiply", tapper="you", factor=2)
    assert one("If you tap a permanent for mana, it produces three times as much of that mana instead.") == \
        ManaReplacement(Selector(), "multiply", tapper="you", factor=3)
    assert one("If a land is tapped for mana, it produces {B} instead of any other type and amount.") == \
        ManaReplacement(Selector(types=LAND), "set_type_and_amount", mana_type="B")
    assert one("If a land is tapped for mana, it produces colorless mana instead of any other type.") == \
        ManaReplacement(Selector(types=LAND), "set_type", mana_type="C")
    sp = spell("Until end of turn, if a player taps a nonbasic land for mana, it produces colorless mana instead "
               "of any other type.")
    assert sp.effects == (ir.UntilEndOfTurn(ManaReplacement(Selector(types=LAND, nonbasic=True),
                                                                         "set_type", mana_type="C")),)


def test_type_changing_statics():
    assert one("Nonbasic lands are Mountains.") == \
        ir.SetLandTypes(Selector(types=LAND, nonbasic=True), subtypes=frozenset({"Mountain"}))
    assert one("Each land is a Swamp in addition to its other land types.") == \
        ir.AddTypes(Selector(types=LAND), subtypes=frozenset({"Swamp"}))
    assert one("Lands you control are every basic land type in addition to their other types.") == \
        ir.AddTypes(LANDS_YOU_CONTROL, all_basic=True)
    assert one("Enchanted land is an Island.") == \
        ir.SetLandTypes(Selector(attached=True, types=LAND), subtypes=frozenset({"Island"}))


def test_grant_and_anthems():
    assert one('Lands you control have "{T}: Add one mana of any color."') == \
        ir.Grant(LANDS_YOU_CONTROL, granted=ManaAbility(TAP, ANY_COLOR))
    assert one("Enchanted creature gets +1/+1 and has trample.") == \
        ir.StaticPump(Selector(attached=True, types=CREATURE), power=1, toughness=1, keywords=("trample",))
    assert one("Other Elves you control get +1/+1.") == \
        ir.StaticPump(Selector(who="you", subtypes=frozenset({"Elf"}), exclude_self=True), power=1, toughness=1)


def test_adjectives_are_not_subtypes():
    """Capitalised adjectives at the start of a sentence must not be read as subtypes."""
    for text in ("Attacking creatures you control get +1/+1.", "Legendary creatures you control get +1/+1.",
                 "Equipped creatures you control get +1/+1.", "Nonbasic lands are Wastes."):
        assert unsupported(text), text


def test_flagbearer_requirements_both_wordings_and_player():
    current = ("While an opponent is choosing targets as part of casting a spell they control or activating an "
               "ability they control, that player must choose at least one Flagbearer on the battlefield if able.")
    previous = ("While choosing targets as part of casting a spell or activating an ability, your opponents must "
                "choose at least one Flagbearer on the battlefield if able.")
    enroll = ("While choosing targets as part of casting a spell or activating an ability, your opponents must "
              "choose at least one Flagbearer if able.")
    fb = frozenset({"Flagbearer"})
    assert one(current) == one(previous) == ir.MustTarget(subtypes=fb, battlefield_only=True)
    assert one(enroll) == ir.MustTarget(subtypes=fb, battlefield_only=False)
    assert one("You are a Flagbearer.") == ir.PlayerSubtype(subtypes=fb)


def test_counter_and_token_replacements():
    assert one("If an effect would put one or more counters on a permanent you control, it puts twice that many of "
               "those counters on that permanent instead.") == CounterReplacement(Selector(who="you"), "double")
    assert one("If one or more +1/+1 counters would be put on a creature you control, that many plus one +1/+1 "
               "counters are put on it instead.") == \
        CounterReplacement(Selector(who="you", types=CREATURE), "plus_one", counter="+1/+1")
    assert one("If an effect would create one or more tokens under your control, it creates twice that many of "
               "those tokens instead.") == TokenReplacement(2)


def test_enters_replacements():
    assert one("This creature enters with X +1/+1 counters on it.", cost="{X}") == \
        EntersWith(counter="+1/+1", amount="X")
    assert one("This land enters tapped.", types=("Land",)) == EntersWith(tapped=True)
    assert one("Vivid Crag enters the battlefield tapped with two charge counters on it.", name="Vivid Crag",
               types=("Land",)) == EntersWith(counter="charge", amount=2, tapped=True)
    # X must come from the mana cost (CR 107.3m)
    assert unsupported("This creature enters with X +1/+1 counters on it.")
    # counters with a rules meaning of their own are not claimed
    assert unsupported("This creature enters with a shield counter on it.")


# ---------------------------------------------------------------------------
# Keywords (CR 702)
# ---------------------------------------------------------------------------


def test_keywords():
    assert parts("Defender, hexproof") == [Keyword("defender"), Keyword("hexproof")]
    assert parts("Flying\nFirst strike\nTrample, haste") == [Keyword("flying"), Keyword("first strike"),
                                                              Keyword("trample"), Keyword("haste")]
    assert parts("Protection from black and from red") == [Keyword("protection", "B"), Keyword("protection", "R")]
    assert parts("Islandwalk\nShroud\nFlash\nIndestructible") == [Keyword("landwalk", "Island"), Keyword("shroud"),
                                                                   Keyword("flash"), Keyword("indestructible")]
    assert parts("Vigilance, reach\nMenace\nFlying, deathtouch, lifelink\nDouble strike") == [
        Keyword("vigilance"), Keyword("reach"), Keyword("menace"), Keyword("flying"), Keyword("deathtouch"),
        Keyword("lifelink"), Keyword("double strike")]
    assert parts("Enchant creature you control") == [Enchant(Filter(types=CREATURE, who="you"))]
    assert parts("Enchant land") == [Enchant(Filter(types=LAND))]
    assert parts("Enchant player") == [Enchant(Filter(players=True))]


def test_keywords_without_ir_meaning_are_unsupported():
    assert [u.what for u in unsupported("Prowess, exalted")] == ["exalted"]  # prowess is read (CR 702.108a)
    assert [u.what for u in unsupported("Ward {2}")] == []   # read: ir.Ward (CR 702.21a)
    assert [u.what for u in unsupported("Ward—Discard a card.")] == ["ward —Discard a card"]
    # "protection from creatures" and "hexproof from black" are read (solver/reader/statics.py)
    assert [u.what for u in unsupported("Protection from the chosen player")] == ["protection from the chosen player"]
    assert [u.what for u in unsupported("Hexproof from the chosen color")] == ["hexproof from the chosen color"]
    assert [u.what for u in unsupported("Flying, exalted")] == ["exalted"]


# ---------------------------------------------------------------------------
# Targets (CR 115) and effects (CR 608)
# ---------------------------------------------------------------------------


def test_damage_targets():
    assert spell("Shock deals 2 damage to any target.", name="Shock") == \
        ir.SpellBehaviour((TargetSpec(ANY_TARGET),), (ir.Damage(T(0), 2),))
    assert spell("Zap deals 1 damage to target creature or player.", name="Zap").targets == \
        (TargetSpec(Filter(types=CREATURE, players=True)),)
    assert spell("Zap deals 1 damage to target creature.", name="Zap").targets == (TargetSpec(Filter(types=CREATURE)),)
    assert spell("Zap deals 1 damage to target player.", name="Zap").targets == (TargetSpec(Filter(players=True)),)
    assert spell("Zap deals 1 damage to target player or planeswalker.", name="Zap").targets == \
        (TargetSpec(Filter(types=frozenset({"Planeswalker"}), players=True)),)
    arc = spell("Arc deals 2 damage to any target and 1 damage to any other target.", name="Arc")
    assert arc.targets == (TargetSpec(ANY_TARGET), TargetSpec(ANY_TARGET, distinct_from=(0,)))
    assert arc.effects == (ir.Damage(T(0), 2), ir.Damage(T(1), 1))
    assert spell("Blast deals X damage to any target.", name="Blast", cost="{X}{R}").effects == \
        (ir.Damage(T(0), "X"),)


def test_target_descriptions():
    assert spell("Destroy target creature you control.").targets == (TargetSpec(Filter(types=CREATURE, who="you")),)
    assert spell("Destroy target creature an opponent controls.").targets == \
        (TargetSpec(Filter(types=CREATURE, who="opponent")),)
    assert spell("Destroy target creature you don't control.").targets == \
        (TargetSpec(Filter(types=CREATURE, who="opponent")),)
    assert spell("Destroy target nonblack creature.").targets == \
        (TargetSpec(Filter(types=CREATURE, not_colors=frozenset({"B"}))),)
    assert spell("Destroy target land.").targets == (TargetSpec(Filter(types=LAND)),)
    assert spell("Destroy target artifact or enchantment.").targets == \
        (TargetSpec(Filter(types=frozenset({"Artifact", "Enchantment"}))),)
    sp = spell("Return target creature card with mana value 3 or less from your graveyard to the battlefield.",
               types=("Sorcery",))
    assert sp == ir.SpellBehaviour((TargetSpec(Filter(types=CREATURE, zone="graveyard", who="you", mv_max=3)),),
                                   (ir.ReturnToBattlefield(T(0)),))
    up = spell("Up to two target creatures each get +2/+2 until end of turn.")
    assert up == ir.SpellBehaviour((TargetSpec(Filter(types=CREATURE), min=0, max=2),),
                                   (ir.Pump(Ref("each_target", 0), power=2, toughness=2),))
    other = spell("Target creature gets +2/+0 until end of turn. Another target creature gets -2/-0 until end of turn.")
    assert other.targets == (TargetSpec(Filter(types=CREATURE)), TargetSpec(Filter(types=CREATURE), distinct_from=(0,)))


def test_another_target_on_a_permanent_is_read_as_not_the_source():
    # "another" on a permanent's ability, its first target, excludes the source: Filter.other_than_source
    # (CR 109.5), read by the effect grammar as by the structure layer
    (a,), _ = read(card("When this creature enters, another target creature gets +1/+1 until end of turn."))
    assert isinstance(a, ir.TriggeredAbility)
    assert a.targets == (TargetSpec(Filter(types=frozenset({"Creature"}), other_than_source=True)),)
    assert a.effects == (ir.Pump(T(0), power=1, toughness=1),)
    # a second "another target" (distinct from the first target and the source) is still not claimed
    (b,), _ = read(card("When this creature enters, tap target creature and untap another target creature."))
    assert isinstance(b, ir.Unsupported)


def test_effects():
    assert spell("Destroy target creature.").effects == (ir.Destroy(T(0)),)
    assert spell("Target creature gets +3/+3 until end of turn.").effects == \
        (ir.Pump(T(0), power=3, toughness=3),)
    assert spell("Draw a card.").effects == (ir.Draw(1),)
    assert spell("Draw two cards.").effects == (ir.Draw(2),)
    plague = spell("Destroy target nonblack creature and target land. They can't be regenerated.", types=("Sorcery",))
    assert plague.effects == (ir.Destroy(T(0), cant_be_regenerated=True),
                              ir.Destroy(T(1), cant_be_regenerated=True))
    probe = spell("Look at target player's hand.\nDraw a card.", types=("Sorcery",))
    assert probe == ir.SpellBehaviour((TargetSpec(Filter(players=True)),),
                                      (ir.LookAtHand(T(0)), ir.Draw(1)))


def test_activated_and_triggered_abilities():
    assert one("{T}: This creature deals 1 damage to any target.") == \
        ir.ActivatedAbility(TAP, (TargetSpec(ANY_TARGET),), (ir.Damage(T(0), 1),))
    assert one("{S}{S}: This creature gets +2/+0 and gains indestructible until end of turn. Tap it.") == \
        ir.ActivatedAbility(Cost(mana=ManaCost.parse("{S}{S}")),
                            effects=(ir.Pump(SELF, power=2, keywords=("indestructible",)), ir.Tap(SELF)))
    assert one("{2}, Sacrifice this artifact: Draw a card. Activate only as a sorcery.", types=("Artifact",)) == \
        ir.ActivatedAbility(Cost(mana=ManaCost.parse("{2}"), sacrifice_self=True),
                            effects=(ir.Draw(1),), sorcery=True)
    assert one("Whenever this land becomes tapped, it deals 1 damage to you.", types=("Land",)) == \
        TriggeredAbility(BecomesTappedTrigger(), effects=(ir.Damage(CONTROLLER, 1),))
    assert one("When Cartouche of Strength enters the battlefield, you may have enchanted creature fight target "
               "creature an opponent controls.", name="Cartouche of Strength", types=("Enchantment",)) == \
        TriggeredAbility(EntersTrigger(), (TargetSpec(Filter(types=CREATURE, who="opponent")),),
                         (ir.Fight(ATTACHED, T(0), optional=True),))


def test_legendary_short_name_is_self():
    a = one("Whenever Urza attacks, draw a card.", name="Urza, Lord Test", supertypes=("Legendary",))
    assert a == TriggeredAbility(AttacksTrigger(), effects=(ir.Draw(1),))


def test_unsupported_lines_are_kept_with_their_text():
    text = "Flying\nAt the beginning of your upkeep, sacrifice this creature unless you discard a card."
    abilities, _ = read(card(text))
    assert abilities[0] == Keyword("flying")
    # the structure is read (an upkeep trigger, no targets); the effect is kept as printed, unread
    assert isinstance(abilities[1], ir.TriggeredAbility) and abilities[1].trigger == ir.StepTrigger("upkeep", "you")
    assert abilities[1].effects == (ir.UnreadEffect("sacrifice this creature unless you discard a card."),)
    assert abilities[1].text == "At the beginning of your upkeep, sacrifice this creature unless you discard a card."
    text = "Flying\nAt end of combat, sacrifice this creature unless you pay {2}."
    abilities, _ = read(card(text))
    assert isinstance(abilities[1], Unsupported) and abilities[1].affects == frozenset({"triggers"})
    assert abilities[1].text == "At end of combat, sacrifice this creature unless you pay {2}."
    assert abilities[1].what == "At end of combat, sacrifice ~ unless you pay {M}."


def test_spell_with_unread_targeting_line_has_no_behaviour():
    abilities, sp = read(card("Destroy target creature.\nIts controller loses 2 life and target player mills a card.",
                              types=("Instant",)))
    # the second line's target is read (structure), its effect kept unread: both targets are there
    assert not abilities and sp is not None
    assert [t.filter for t in sp.targets] == [Filter(types=frozenset({"Creature"})), Filter(players=True)]
    assert [e.kind for e in sp.effects] == ["destroy", "unread"]
    # a target the reader can't describe completely: no behaviour at all
    abilities, sp = read(card("Destroy target creature.\nTarget creature with the greatest power gets -1/-1.",
                              types=("Instant",)))
    assert sp is None
    assert any(isinstance(a, Unsupported) for a in abilities)


# ---------------------------------------------------------------------------
# The corpus: invariants on a sample, coverage figures
# ---------------------------------------------------------------------------


@pytest.fixture(scope="module")
def corpus() -> list[dict]:
    return load_cards(os.path.join(os.path.dirname(__file__), "..", "solver", "data", "oracle-cards.json.gz"))


def test_corpus_sample_invariants(corpus):
    """Every rules-text line yields parts (or spell instructions); nothing is dropped; no reader errors."""
    sample = corpus[::40]
    for raw in sample:
        try:
            data = CardData.from_mtgjson(raw)
        except ValueError:
            continue  # un-set mana symbols in the cost
        lines, sp = read_lines(data)
        raw_lines = {ln.strip() for ln in data.text.split("\n")}
        for r in lines:
            assert r.error is None, (data.name, r.raw, r.error)
            # a mode line of a modal ability (CR 700.2) is read into the ability on its choice line
            assert r.parts or r.spell_line or r.template == "mode", (data.name, r.raw)
            for u in r.unsupported:
                assert u.text in raw_lines, (data.name, u.text)
            if r.understood:
                assert r.template is not None
        assert len(lines) == sum(1 for ln in data.text.split("\n") if strip_reminder(ln.strip()))


def test_mana_ability_line_classifier():
    assert is_mana_ability_line("{T}: Add {G}.")
    assert is_mana_ability_line("Sacrifice a creature: Add {C}{C}.")
    assert is_mana_ability_line("Whenever enchanted land is tapped for mana, its controller adds an additional {G}.")
    assert not is_mana_ability_line("[+1]: Add {R}{R}.")  # loyalty abilities are not mana abilities (CR 605.1a)
    assert not is_mana_ability_line("{T}: Target creature gets +1/+1 until end of turn.")
    assert not is_mana_ability_line('Lands you control have "{T}: Add one mana of any color."')


def test_coverage_on_a_sample(corpus):
    rep = measure(corpus[::25], source="sample", top=5)
    assert rep.cards + rep.back_face_entries == len(corpus[::25])   # a back face on its own counts with its card
    assert 0 < rep.fully_understood < rep.cards
    assert 0 < rep.mana_cards_understood <= rep.mana_cards
    assert rep.mana_share > 0.6
    assert 0 < rep.targeting_lines_understood <= rep.targeting_lines
    assert rep.reader_errors == 0
    js = rep.to_json()
    assert js["cards"] == rep.cards and len(js["top_unsupported"]) == 5
    json.dumps(js)
    text = rep.lines()
    assert any("mana abilities" in ln for ln in text) and any("cards/s" in ln for ln in text)


@pytest.mark.slow
@pytest.mark.skipif(os.environ.get("MTGSOLVE_LONG") != "1", reason="full-corpus coverage: set MTGSOLVE_LONG=1")
def test_full_corpus_coverage(corpus):
    """Figures on all 35,033 cards (regression floors; see the report for the measured values).

    Issue 10's target of 95% for mana abilities is not reachable with the IR as it
    stands: most of the rest carry spending restrictions, activation conditions,
    a chosen color, or variable amounts the IR cannot hold (the coverage report's
    "mana gap" lists them)."""
    rep = measure(corpus, source="oracle-cards", top=20)
    assert rep.cards + rep.back_face_entries == 35033   # a back face listed on its own counts with its card
    assert rep.reader_errors == 0
    assert rep.mana_share >= 0.72
    assert rep.whole_card_share >= 0.09


# ---------------------------------------------------------------------------
# Import (mtgsolve cards import) and use through MTGSOLVE_CARDS
# ---------------------------------------------------------------------------

ELF = {"name": "Test Elf Mystic", "manaCost": "{G}", "type": "Creature — Elf Druid", "types": ["Creature"],
       "subtypes": ["Elf", "Druid"], "supertypes": [], "text": "{T}: Add {G}.", "power": "1", "toughness": "1",
       "layout": "normal"}
OGRE = {"name": "Test Ogre", "manaCost": "{2}{R}", "type": "Creature — Ogre", "types": ["Creature"],
        "subtypes": ["Ogre"], "supertypes": [], "text": "Exalted", "power": "3", "toughness": "3", "layout": "normal"}
BOLT = dict(oracle_index()["Lightning Bolt"])


def _clear_caches():
    from mtgsolve.solver import cards as cards_mod

    for fn in (cards_mod.oracle_index, cards_mod._lower_index, cards_mod.get_card):
        fn.cache_clear()


@pytest.fixture
def clean_card_caches():
    _clear_caches()
    yield
    _clear_caches()


@pytest.mark.parametrize("shape", ["atomic", "set", "list"])
def test_import_shapes(tmp_path, shape):
    if shape == "atomic":
        doc = {"meta": {}, "data": {c["name"]: [c] for c in (ELF, OGRE, BOLT)}}
    elif shape == "set":
        doc = {"meta": {}, "data": {"code": "TST", "cards": [ELF, OGRE, BOLT, dict(ELF)]}}
    else:
        doc = [ELF, OGRE, BOLT]
    src = tmp_path / "in.json"
    src.write_text(json.dumps(doc))
    cards, _ = flatten(doc)
    assert sorted(c["name"] for c in cards) == sorted([ELF["name"], OGRE["name"], "Lightning Bolt"])
    out = tmp_path / "db.json.gz"
    summary = import_cards(src, out)
    assert summary.cards == 3 and summary.fully_supported == 2 and summary.with_unsupported == 1
    assert summary.to_json()["cards"] == 3 and summary.lines()
    with gzip.open(out, "rt", encoding="utf-8") as f:
        db = json.load(f)
    entries = {c["name"]: c for c in db["data"]}
    assert entries["Test Ogre"]["mtgsolve"]["unsupported"] == [{"what": "exalted", "text": "Exalted"}]
    assert entries["Lightning Bolt"]["mtgsolve"]["source"] == "library"
    assert entries["Test Elf Mystic"]["mtgsolve"]["fully_supported"]


def test_imported_database_is_used_through_a_card_db(tmp_path, monkeypatch, clean_card_caches):
    """A user's card database is a :class:`CardDB` passed explicitly: the loader reads names in it,
    the state keeps it, and writing the state back names its cards; the environment variable is
    read by the command line only (tests/test_cli.py), never by a look-up."""
    from mtgsolve.solver.cards import SHIPPED, CardDB, UnknownCard
    from mtgsolve.solver.io.dump import dump_state
    from mtgsolve.solver.io.load import situation_from_dict

    src = tmp_path / "AtomicCards.json"
    src.write_text(json.dumps({"data": {c["name"]: [c] for c in (ELF, OGRE, BOLT)}}))
    out = tmp_path / "cards.json"
    import_cards(src, out)
    db = CardDB(str(out))
    elf = db.get("test elf mystic")
    assert elf.source == "reader" and elf.fully_supported
    assert without_text(list(elf.abilities)) == [ManaAbility(TAP, fixed("{G}"))]
    assert db.get("Lightning Bolt").source == "library"
    situation = {"format": "mtgsolve/1", "players": ["alice", "bob"], "battlefield": {"alice": ["Test Elf Mystic"]}}
    loaded = situation_from_dict(situation, cards=db)
    objs = [o for o in loaded.state.objects if o.card is not None and o.card.name == "Test Elf Mystic"]
    assert objs and objs[0].card.fully_supported and loaded.state.card_db is db
    assert dump_state(loaded.state)["battlefield"]["alice"][0]["card"] == "Test Elf Mystic"
    monkeypatch.setenv("MTGSOLVE_CARDS", str(out))  # not read below the command line
    with pytest.raises(UnknownCard):
        get_card("Test Elf Mystic")
    with pytest.raises(Exception, match="unknown card 'Test Elf Mystic'"):
        situation_from_dict(situation, cards=SHIPPED)


def test_line_cache_respects_self_names():
    """Identical lines are read once, but a name is a self-reference only on its own card."""
    own = parts("Sacrifice Foo Bar: Draw a card.", name="Foo Bar", types=("Artifact",))
    other = parts("Sacrifice Foo Bar: Draw a card.", name="Baz", types=("Artifact",))
    assert own == [ir.ActivatedAbility(Cost(sacrifice_self=True), effects=(ir.Draw(1),))]
    assert isinstance(other[0], Unsupported)
    assert parts("{T}: Add {G}.", name="A") == parts("{T}: Add {G}.", name="B")


def test_doctests_of_reader_modules():
    import doctest

    import mtgsolve.solver.reader

    from mtgsolve import solver  # noqa: E402
    import mtgsolve.solver.reader.tokens
    from mtgsolve import solver  # noqa: E402
    for mod in (solver.reader, solver.reader.tokens):
        assert doctest.testmod(mod).failed == 0


def test_import_failure_writes_nothing(tmp_path):
    src = tmp_path / "bad.json"
    src.write_text('{"data": 3}')
    out = tmp_path / "db.json"
    with pytest.raises(ValueError):
        import_cards(src, out)
    assert not out.exists() and not list(tmp_path.glob("*.tmp"))


def test_coverage_report_on_a_file(tmp_path):
    from mtgsolve.solver.cards.coverage import coverage_report

    src = tmp_path / "AtomicCards.json.gz"
    with gzip.open(src, "wt", encoding="utf-8") as f:
        json.dump({"data": {c["name"]: [c] for c in (ELF, OGRE, BOLT)}}, f)
    rep = coverage_report(str(src), top=3)
    assert (rep.cards, rep.fully_understood, rep.mana_cards, rep.mana_cards_understood) == (3, 2, 1, 1)
    assert (rep.targeting_lines, rep.targeting_lines_understood) == (1, 1)
    assert rep.unsupported["exalted"] == 1
    assert "cards fully understood" in str(rep)


# ---------------------------------------------------------------------------
# Mana abilities with activation restrictions (CR 602.5b, 602.5d) and variable
# amounts (CR 107.3), on real cards
# ---------------------------------------------------------------------------

def _mana(name: str) -> list[ir.ManaAbility]:
    return [a for a in get_card(name).abilities if isinstance(a, ir.ManaAbility)]


def test_reader_per_turn_limits():
    (devotee,) = _mana("Abzan Devotee")
    assert devotee.limit == 1 and devotee.cost == Cost(mana=ManaCost.parse("{1}")) and devotee.condition is None
    assert devotee.produce == ir.choice("{W}", "{B}", "{G}")
    assert _mana("Kozilek's Translator")[0].limit == 1


def _cond(name: str) -> ir.ActivationCondition:
    return next(a.condition for a in _mana(name) if a.condition is not None)


def test_reader_activation_conditions():
    you = dict(who="you")
    assert _cond("Blazemire Verge") == ir.ControlCount(ir.Selector(subtypes=frozenset({"Swamp", "Mountain"}),
                                                                              **you))
    assert _cond("Temple of the False God") == ir.ControlCount(ir.Selector(types=frozenset({"Land"}), **you),
                                                              n=5)
    assert _cond("Mox Opal") == ir.ControlCount(ir.Selector(types=frozenset({"Artifact"}), **you), n=3)
    assert _cond("Fanatic of Rhonas") == ir.ControlPower(n=4)
    assert _cond("Dark Fortress") == ir.AnyCondition(parts=(
        ir.EnteredThisTurn(), ir.ControlCount(ir.Selector(types=frozenset({"Land"}), basic=True, **you))))
    assert _cond("Pyramid of the Pantheon") == ir.CountersOnSource(n=3, counter="brick")
    assert _cond("Tablet of Compleation") == ir.CountersOnSource(n=2, counter="oil")
    assert _cond("Flywheel Racer") == ir.IsCreature()
    assert _cond("Whisperer of the Wilds") == ir.ControlPower(n=4)
    assert _cond("Lavinia, Foil to Conspiracy") == ir.OpponentTurn()


def test_reader_storage_lands_and_batteries():
    pools = _mana("Calciform Pools")[1]
    assert pools.cost == Cost(mana=ManaCost.parse("{1}"), remove_x_counters=("storage", 0))
    assert pools.produce.kind == "combination" and pools.produce.options == (Mana.parse("{W}"), Mana.parse("{U}"))
    assert pools.produce.count.what == "x"
    reef = _mana("Dreadship Reef")[1]
    assert reef.produce.options == (Mana.parse("{U}"), Mana.parse("{B}"))
    network = _mana("Mage-Ring Network")[1]
    assert network.cost == Cost(tap=True, remove_x_counters=("storage", 0))
    assert network.produce == ir.CountedMana((Mana.parse("{C}"),), count=ir.Count(ir.Selector(self_only=True), "x"))
    (battery,) = _mana("Black Mana Battery")
    assert battery.produce == ir.CountedMana((Mana.parse("{B}"),),
                                         count=ir.Count(ir.Selector(self_only=True), "x", plus=1))
    (rasputin,) = _mana("Rasputin, the Oneiromancer")
    assert rasputin.cost.remove_x_counters == ("dream", 1)


def test_reader_variable_amounts():
    self_ = ir.Selector(self_only=True)
    assert _mana("Viridian Joiner")[0].produce == ir.CountedMana((Mana.parse("{G}"),),
                                                              count=ir.Count(self_, "power"))
    assert _mana("Heronblade Elite")[0].produce == ir.AnyColor(count=ir.Count(self_, "power"))
    assert _mana("Everflowing Chalice")[0].produce == ir.CountedMana(
        (Mana.parse("{C}"),), count=ir.Count(self_, "counters", counter="charge"))
    assert _mana("Gyre Sage")[0].produce.count == ir.Count(self_, "counters", counter="+1/+1")
    assert _mana("Bighorner Rancher")[0].produce.count == ir.Count(
        ir.Selector(who="you", types=frozenset({"Creature"})), "greatest_power")
    brigid = _mana("Brigid, Doun's Mind")[0].produce
    assert brigid.kind == "choice" and brigid.options == (Mana.parse("{G}"), Mana.parse("{W}"))
    assert brigid.count == ir.Count(ir.Selector(who="you", types=frozenset({"Creature"}), exclude_self=True))
    assert _mana("Famous Museum")[0].produce.count == ir.Count(self_, "counters", counter="art", plus=1)
    assert _mana("Lotus Blossom")[0].produce == ir.AnyColor(count=ir.Count(self_, "counters",
                                                                                        counter="petal"))

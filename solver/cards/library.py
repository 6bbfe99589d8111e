"""Hand-written behaviour for the cards the project must hold (issue 2's list).

Each entry maps a card name to a builder returning ``(abilities, spell)`` in
the IR of :mod:`solver.core.ir`, abilities in printed order.  Oracle facts (cost,
types, power/toughness, text) come from the card database, never from here.
Basic land types give their mana abilities intrinsically (CR 305.6), so
Plains, Tundra … list no abilities of their own.

This library is also the Oracle-text reader's test oracle: the reader must
produce exactly these abilities for every card it claims to understand.
"""
from __future__ import annotations

from typing import Callable

from ..core import ir
from ..core.ir import (
    ANY_TARGET, ATTACHED, CONTROLLER, LANDS_OPP_CONTROLS, LANDS_YOU_CONTROL, SELF,
    ActivatedAbility, Conjure, Cost, CounterReplacement, CreateTokens, Damage, Destroy, Draw, Enchant, EntersWith, Fight,
    Filter, GainLife, Keyword, LookAtHand, Pump, PutCounters, ReturnToBattlefield, Tap, UntilEndOfTurn, Untap,
    ManaAbility, ManaReplacement, Produce, Selector, SpellBehaviour, T, TargetSpec,
    TokenReplacement, Trigger, Ref, TriggeredAbility, TriggeredManaAbility, Unsupported, choice, fixed, Count,
    AnyColor, Combination, CouldProduce, CountedMana, SacrificedCouldProduce, ThatLandProduced,
    AttacksTrigger, BecomesTappedTrigger, DiesTrigger, EntersTrigger, TappedForMana,
)
from ..core.mana import ManaCost

Builder = Callable[[object], tuple[list, SpellBehaviour | None]]
LIBRARY: dict[str, Builder] = {}

TAP = Cost(tap=True)
LAND = frozenset({"Land"})
CREATURE = frozenset({"Creature"})
FLAGBEARER = frozenset({"Flagbearer"})


def _def(name: str, *abilities, spell: SpellBehaviour | None = None) -> None:
    a = tuple(abilities)

    def build(data: object) -> tuple[list, SpellBehaviour | None]:
        return list(a), spell

    LIBRARY[name] = build


def _mana(cost: Cost, produce: Produce, damage: int = 0, text: str = "") -> ManaAbility:
    return ManaAbility(cost, produce, damage, text)


def _cost(mana: str = "", **kw) -> Cost:
    return Cost(mana=ManaCost.parse(mana), **kw)


ANY_COLOR = AnyColor()
CREATURE_FILTER = Filter(types=CREATURE)


def _must_target(battlefield_only: bool) -> ir.MustTarget:
    return ir.MustTarget(subtypes=FLAGBEARER, battlefield_only=battlefield_only)


# ---- basic and basic-typed lands (CR 305.6: intrinsic mana abilities) ----
for _n in ("Plains", "Island", "Swamp", "Mountain", "Forest", "Snow-Covered Forest", "Snow-Covered Island",
           "Tundra", "Tropical Island", "Taiga"):
    _def(_n)
_def("Wastes", _mana(TAP, fixed("{C}"), text="{T}: Add {C}."))

# ---- "could produce" lands and sources (CR 106.7) ----
_def("Reflecting Pool", _mana(TAP, CouldProduce(selector=LANDS_YOU_CONTROL, of_type=True)))
_def("Exotic Orchard", _mana(TAP, CouldProduce(selector=LANDS_OPP_CONTROLS)))
_def("Fellwar Stone", _mana(TAP, CouldProduce(selector=LANDS_OPP_CONTROLS)))
_def("Harvester Druid", _mana(TAP, CouldProduce(selector=LANDS_YOU_CONTROL)))
_def("Naga Vitalist", _mana(TAP, CouldProduce(selector=LANDS_YOU_CONTROL, of_type=True)))
_def("Squandered Resources", _mana(Cost(sacrifice=Selector(who="you", types=LAND)),
                                   SacrificedCouldProduce(of_type=True)))

# ---- other mana lands ----
_def("Gaea's Cradle", _mana(TAP, CountedMana((fixed("{G}").options[0],),
                                         count=Count(Selector(who="you", types=CREATURE)))))
_def("Vivid Crag", EntersWith(counter="charge", amount=2, tapped=True),
     _mana(TAP, fixed("{R}")), _mana(Cost(tap=True, remove_counters=("charge", 1)), ANY_COLOR))
_def("Mana Confluence", _mana(Cost(tap=True, life=1), ANY_COLOR))
_def("City of Brass", TriggeredAbility(BecomesTappedTrigger(), effects=(Damage(CONTROLLER, 1),)),
     _mana(TAP, ANY_COLOR))
_def("Adarkar Wastes", _mana(TAP, fixed("{C}")), _mana(TAP, choice("{W}", "{U}"), damage=1))
_def("Llanowar Wastes", _mana(TAP, fixed("{C}")), _mana(TAP, choice("{B}", "{G}"), damage=1))
_def("Fetid Heath", _mana(TAP, fixed("{C}")), _mana(_cost("{W/B}", tap=True), choice("{W}{W}", "{W}{B}", "{B}{B}")))
_def("Crystal Quarry", _mana(TAP, fixed("{C}")), _mana(_cost("{5}", tap=True), fixed("{W}{U}{B}{R}{G}")))
_def("Tinder Farm", EntersWith(tapped=True), _mana(TAP, fixed("{G}")),
     _mana(Cost(tap=True, sacrifice_self=True), fixed("{R}{W}")))
_def("Cascading Cataracts", Keyword("indestructible"), _mana(TAP, fixed("{C}")),
     _mana(_cost("{5}", tap=True), Combination(amount=5)))
_def("Ancient Tomb", _mana(TAP, fixed("{C}{C}"), damage=2))
_def("Urborg, Tomb of Yawgmoth", ir.AddTypes(Selector(types=LAND), subtypes=frozenset({"Swamp"})))

# ---- mana creatures and rocks ----
_def("Llanowar Elves", _mana(TAP, fixed("{G}")))
_def("Birds of Paradise", Keyword("flying"), _mana(TAP, ANY_COLOR))
_def("Sylvan Caryatid", Keyword("defender"), Keyword("hexproof"), _mana(TAP, ANY_COLOR))
_def("Sol Ring", _mana(TAP, fixed("{C}{C}")))
_def("Chromatic Lantern", ir.Grant(LANDS_YOU_CONTROL, granted=_mana(TAP, ANY_COLOR)), _mana(TAP, ANY_COLOR))
_def("Springleaf Drum", _mana(Cost(tap=True, tap_other_creatures=1), ANY_COLOR))

# ---- mana replacement effects (CR 106.12b, 614) ----
_ANY_PERMANENT = Selector()
_def("Pale Moon", spell=SpellBehaviour(effects=(UntilEndOfTurn(ManaReplacement(
    Selector(types=LAND, nonbasic=True), "set_type", mana_type="C")),)))
_def("Contamination",
     Unsupported("upkeep trigger: sacrifice this enchantment unless you sacrifice a creature",
                 "At the beginning of your upkeep, sacrifice this enchantment unless you sacrifice a creature.",
                 "triggered"),
     ManaReplacement(Selector(types=LAND), "set_type_and_amount", mana_type="B"))
_def("Deep Water", ActivatedAbility(_cost("{U}"), effects=(UntilEndOfTurn(ManaReplacement(
    Selector(who="you", types=LAND), "set_type", tapper="you", mana_type="U")),)))
_def("Mana Reflection", ManaReplacement(_ANY_PERMANENT, "multiply", tapper="you", factor=2))
_def("Nyxbloom Ancient", Keyword("trample"), ManaReplacement(_ANY_PERMANENT, "multiply", tapper="you", factor=3))

# ---- triggered mana abilities (CR 605.1b, 106.12a) ----
_LAND_TAPPED = TappedForMana(Selector(types=LAND))
_ENCHANTED_LAND_TAPPED = TappedForMana(Selector(attached=True, types=LAND))
for _n in ("Mana Flare", "Heartbeat of Spring", "Zhur-Taa Ancient"):
    _def(_n, TriggeredManaAbility(_LAND_TAPPED, ThatLandProduced()))
_def("Overgrowth", Enchant(Filter(types=LAND)), TriggeredManaAbility(_ENCHANTED_LAND_TAPPED, fixed("{G}{G}")))
_def("Wild Growth", Enchant(Filter(types=LAND)), TriggeredManaAbility(_ENCHANTED_LAND_TAPPED, fixed("{G}")))

# ---- type- and color-changing statics (CR 305.7, 613) ----
_def("Blood Moon", ir.SetLandTypes(Selector(types=LAND, nonbasic=True), subtypes=frozenset({"Mountain"})))
_def("Prismatic Omen", ir.AddTypes(LANDS_YOU_CONTROL, all_basic=True))
_def("Celestial Dawn",
     ir.SetLandTypes(LANDS_YOU_CONTROL, subtypes=frozenset({"Plains"})),
     ir.SetColor(Selector(who="you", nontypes=LAND), color=frozenset({"W"})),
     ir.SetColorCards(color=frozenset({"W"})),
     ir.SpendWhiteAsAny())

# ---- counters (CR 122.6, 614.1c, 107.3m) ----
_def("Doubling Season", TokenReplacement(2),
     CounterReplacement(Selector(who="you"), "double"))
_def("Hardened Scales", CounterReplacement(Selector(who="you", types=CREATURE), "plus_one", counter="+1/+1"))
_THOPTER = (("name", "Thopter"), ("types", ("Artifact", "Creature")), ("subtypes", ("Thopter",)),
            ("power", 1), ("toughness", 1), ("keywords", ("flying",)), ("colors", ()))
_def("Hangarback Walker", EntersWith(counter="+1/+1", amount="X"),
     TriggeredAbility(DiesTrigger(), effects=(CreateTokens("counters:+1/+1", _THOPTER),)),
     ActivatedAbility(_cost("{1}", tap=True), effects=(PutCounters(SELF, 1, "+1/+1"),)))
_def("Endless One", EntersWith(counter="+1/+1", amount="X"))

# ---- Flagbearers (CR 601.2c) ----
_def("Coalition Honor Guard", _must_target(True))
_def("Standard Bearer", _must_target(True))
_def("Coalition Flag", Enchant(Filter(types=CREATURE, who="you")),
     ir.AddTypes(Selector(attached=True, types=CREATURE), subtypes=FLAGBEARER), _must_target(True))
_def("Enroll in the Coalition", ir.PlayerSubtype(subtypes=FLAGBEARER), _must_target(False))

# ---- targeted spells ----
_def("Shock", spell=SpellBehaviour((TargetSpec(ANY_TARGET),), (Damage(T(0), 2),)))
_def("Lightning Bolt", spell=SpellBehaviour((TargetSpec(ANY_TARGET),), (Damage(T(0), 3),)))
_def("Arc Trail", spell=SpellBehaviour(
    (TargetSpec(ANY_TARGET), TargetSpec(ANY_TARGET, distinct_from=(0,))),
    (Damage(T(0), 2), Damage(T(1), 1))))
_def("Murder", spell=SpellBehaviour((TargetSpec(CREATURE_FILTER),), (Destroy(T(0)),)))
_def("Dismember", spell=SpellBehaviour((TargetSpec(CREATURE_FILTER),), (Pump(T(0), power=-5, toughness=-5),)))
_def("Giant Growth", spell=SpellBehaviour((TargetSpec(CREATURE_FILTER),), (Pump(T(0), power=3, toughness=3),)))
_def("Dauntless Onslaught", spell=SpellBehaviour((TargetSpec(CREATURE_FILTER, min=0, max=2),),
                                                 (Pump(Ref("each_target", 0), power=2, toughness=2),)))
_def("Gitaxian Probe", spell=SpellBehaviour((TargetSpec(Filter(players=True)),),
                                            (LookAtHand(T(0)), Draw(1))))
_def("Plague Spores", spell=SpellBehaviour(
    (TargetSpec(Filter(types=CREATURE, not_colors=frozenset({"B"}))), TargetSpec(Filter(types=LAND))),
    (Destroy(T(0), cant_be_regenerated=True), Destroy(T(1), cant_be_regenerated=True))))
_SPIRIT = (("name", "Spirit"), ("types", ("Creature",)), ("subtypes", ("Spirit",)), ("power", 1), ("toughness", 1),
           ("keywords", ("flying",)), ("colors", ("W",)))
_def("Spectral Procession", spell=SpellBehaviour(effects=(CreateTokens(3, _SPIRIT),)))

# ---- creatures with targeting-relevant keywords ----
_def("Gladecover Scout", Keyword("hexproof"))
_def("White Knight", Keyword("first strike"), Keyword("protection", "B"))
_def("Inkwell Leviathan", Keyword("trample"), Keyword("landwalk", "Island"), Keyword("shroud"))
_def("Raging Goblin", Keyword("haste"))
for _n in ("Grizzly Bears", "Balduvian Bears", "Silvercoat Lion"):
    _def(_n)

# ---- activated abilities with costs and targets ----
_def("Order of Whiteclay", ActivatedAbility(
    _cost("{1}{W}{W}", untap=True),
    targets=(TargetSpec(Filter(types=CREATURE, zone="graveyard", who="you", mv_max=3)),),
    effects=(ReturnToBattlefield(T(0)),)))
_def("Prodigal Pyromancer", ActivatedAbility(TAP, targets=(TargetSpec(ANY_TARGET),), effects=(Damage(T(0), 1),)))
_def("Thousand-Year Elixir", ir.ActivateAsHaste(Selector(who="you", types=CREATURE)),
     ActivatedAbility(_cost("{1}", tap=True), targets=(TargetSpec(CREATURE_FILTER),), effects=(Untap(T(0)),)))
_def("Icehide Troll", ActivatedAbility(_cost("{S}{S}"), effects=(
    Pump(SELF, power=2, toughness=0, keywords=("indestructible",)), Tap(SELF))))
_def("Kitchen Finks", TriggeredAbility(EntersTrigger(), effects=(GainLife(2),)),
     Unsupported("persist", "Persist (When this creature dies, if it had no -1/-1 counters on it, return it to the "
                 "battlefield under its owner's control with a -1/-1 counter on it.)", "triggered"))

# ---- auras with triggers, conjure ----
_def("Cartouche of Strength", Enchant(Filter(types=CREATURE, who="you")),
     TriggeredAbility(EntersTrigger(), targets=(TargetSpec(Filter(types=CREATURE, who="opponent")),),
                      effects=(Fight(ATTACHED, T(0), optional=True),)),
     ir.StaticPump(Selector(attached=True, types=CREATURE), power=1, toughness=1, keywords=("trample",)))
_def("Toralf's Disciple", Keyword("haste"), TriggeredAbility(AttacksTrigger(), effects=(
    Conjure(4, "Lightning Bolt", "library", shuffle=True),)))

"""Targets at the rules level: target slots, legal candidates and Flagbearer
requirements (CR 115, 601.2c, 602.2b, 603.3d, 702.5a, 702.11, 702.16, 702.18).

This module turns a :class:`~solver.rules.characteristics.View` plus "what is
choosing targets" into the plain description the CP-SAT model of
:mod:`models.targets` consumes (:class:`models.targets.TargetProblem`): one
slot per instance of the word "target", the legal candidates of each slot, and
the requirements that say an object or player must be chosen.

Target slots (CR 115.1, 115.3, 115.6)
    * an instant or sorcery: ``SpellBehaviour.targets``;
    * an Aura spell: one slot from its enchant ability (CR 115.1b, 303.4a,
      702.5a) - the Aura *permanent* targets nothing;
    * an activated / triggered ability: ``ActivatedAbility.targets`` /
      ``TriggeredAbility.targets`` (mana abilities have none, CR 605.1a/b);
    * "up to N" is a slot with ``min`` 0 (CR 115.6); "another target" /
      "any other target" is ``distinct_from`` (the chosen objects of that slot
      may not repeat those of the named earlier slots). Within one slot the
      chosen objects are distinct (CR 115.3); across slots repeats are allowed
      (the Plague Spores example of CR 601.2c).

Candidates of a slot (restrictions, "can't be chosen")
    * zone: permanents only unless the text says otherwise (CR 115.2); the
      library's filters name the battlefield or a graveyard ("target creature
      card ... from your graveyard"); graveyard cards are judged by their
      printed characteristics (``View.chars``);
    * the filter's fields: card types (any of; the pseudo-type ``Permanent``
      accepts every permanent), subtypes (any of), ``not_colors``
      ("nonblack"), ``mv_max``, ``who`` (controller of a permanent, owner of a
      card in a graveyard, relative to the spell's or ability's controller -
      not to the player choosing) and players;
    * the qualifiers read from Oracle text (:func:`_qualifiers_match`):
      supertypes ("legendary", "nonbasic"), colors ("red", "multicolored",
      "colorless"), mana value at least, tapped/untapped, attacking/blocking,
      power/toughness bounds, token/nontoken, keywords ("with flying",
      "without flying") and "another" (not the ability's source);
    * "any target" accepts creatures, players, planeswalkers and battles only
      (CR 115.4);
    * shroud: no spell or ability can target it (CR 702.18a); hexproof: no
      spell or ability an opponent of its controller controls can target it
      (CR 702.11b); protection from a color: no spell of that color and no
      ability from a source of that color can target it (CR 702.16b). These
      keywords work on the battlefield only (CR 113.6): a hexproof creature
      *card* in a graveyard can be targeted;
    * a spell or ability on the stack is not a legal target for itself
      (CR 115.5): its own stack id never is a candidate.

Requirements ("must be chosen", CR 601.2c)
    A ``must_target`` static (Coalition Honor Guard, Standard Bearer,
    Coalition Flag, Enroll in the Coalition) is a requirement for a choice of
    targets only when all of these hold:

    * targets are being chosen as part of casting a spell or activating an
      ability (``how`` is ``cast`` or ``activate``) - not for triggered
      abilities (CR 603.3d; the 2017 note on Coalition Honor Guard), copies
      with new targets, changed targets (ruling 2016-06-08) or random choices
      (Enroll in the Coalition rulings);
    * the player choosing is the spell's or ability's controller ("a spell
      they control"; "If a player chooses targets for another player's spell
      or ability ... they don't have to target a Flagbearer");
    * that player is an opponent of the requirement's controller.

    **How requirements combine (interpretation).** Each applicable
    ``must_target`` effect is a separate requirement. A requirement is obeyed
    when at least one chosen target, in any slot, is a Flagbearer that
    satisfies it. A legal choice obeys the maximum possible number of
    requirements; restrictions are never broken to obey one (CR 601.2c).

    *Which Flagbearers satisfy a requirement.* An object with a subtype the
    requirement names satisfies it; with ``battlefield_only`` ("a Flagbearer
    on the battlefield") only permanents do, so a Flagbearer card in a
    graveyard satisfies Enroll in the Coalition's requirement but not
    Coalition Honor Guard's. A **player** who is a Flagbearer
    (``View.player_subtypes``; Enroll in the Coalition: "You are a
    Flagbearer") satisfies *every* Flagbearer requirement, "on the
    battlefield" or not. Read literally, a player is not "on the battlefield",
    and with two Coalition Honor Guards and Enroll in the Coalition out an
    opponent's Shock aimed at the Enroll player would obey one requirement
    where aiming at a Coalition Honor Guard obeys two - contradicting the
    ruling that such a Shock "could target either creature or you, but not
    another player". That ruling (and "Any player's Flagbearer may be
    targeted") only holds if a Flagbearer player satisfies Coalition Honor
    Guard's requirement too, which is the playtest card's "generous
    assumption that basic game rules will be updated to allow them to work".

    *Variable numbers of targets.* CR 601.2c has the player announce how many
    targets a variable slot ("up to two") takes *before* announcing the
    targets, and the requirements bear on the choice of targets. So the
    maximum is taken separately for each announced number of targets
    (``counts_first=True``, the default): casting Dauntless Onslaught with
    zero targets stays legal next to an opponent's Coalition Honor Guard, but
    once one or two targets are announced, one of them must be a Flagbearer
    if able. ``counts_first=False`` takes one maximum over every number
    instead (then zero targets is illegal there); both are modeled, tested
    and selectable through :func:`targeting_problem`.

    Rulings these choices satisfy (each is an instance under
    ``instances/targets``): Coalition Honor Guard's Oracle text and its
    2016-06-08 ruling (changed targets, copies); the 2017 note (triggered
    abilities); Enroll in the Coalition's rulings ("you're not a creature" /
    "You can't be the target of spells or abilities that target creatures but
    not players"; "an opponent's Shock could target either creature or you,
    but not another player"; another player choosing; random choices).

Public helpers for other modules (the ``actions`` query)
    :func:`target_choice_count` (exact number of legal choices, computed
    without enumerating) and :func:`has_legal_targets` (one feasibility
    solve; requirements never make a legal choice impossible, so they are
    ignored there). Build the source with :func:`cast_source`,
    :func:`activated_source`, :func:`triggered_source`,
    :func:`ability_source` or :func:`stack_source`.

An ability with no target slots has exactly one choice, the empty one
(``count`` 1, ``choices`` ``[[]]``); a slot that requires a target with no
legal candidate leaves no choice at all (``count`` 0).
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Iterable
from typing import cast as type_cast

from ..core import ir
from ..cards import Card
from .characteristics import Chars, Sourced, View, printed_colors, printed_subtypes
from ..core.state import GameObject
from ..core.ir import ActivatedAbility, Enchant, Filter, TargetSpec, TriggeredAbility
from mtgsolve.models.targets import Requirement, Slot, TargetProblem

from ..core.errors import UnsupportedCase
from .modes import ModeChoice, TargetingSource, modal_of, selections, with_modes
from .casting_options import overloaded
from .casting_rules import hexproof_from, protected_from
from mtgsolve.models.targets import count_choices
from mtgsolve.models.targets import is_feasible

HOWS: tuple[str, ...] = ("cast", "activate", "trigger", "copy", "change", "random")
"""Why targets are being chosen (contract §2.4 ``how``)."""

REQUIREMENT_HOWS = frozenset({"cast", "activate"})
"""The ``how`` values under which must-target requirements apply (CR 601.2c, 602.2b)."""

ANY_TARGET_TYPES = ir.ANY_TARGET_TYPES  # CR 115.4


class TargetingError(ValueError):
    """A source that cannot be resolved (unknown ability index and the like).
    The query layer turns it into a located :class:`~solver.core.errors.QueryError`."""

    def __init__(self, field: str, message: str):
        super().__init__(message)
        self.field = field
        self.message = message


# --------------------------------------------------------------------------
# Target slots from the IR
# --------------------------------------------------------------------------


def is_aura(card: Card) -> bool:
    """An Aura card: an enchantment with subtype Aura (CR 303.4)."""
    return "Aura" in card.data.subtypes


def enchant_filter(abilities: Iterable[ir.Ability]) -> Filter | None:
    """The filter of the first enchant ability (CR 702.5a), if any."""
    for a in abilities:
        if isinstance(a, Enchant):
            return a.filter
    return None


def spell_specs(card: Card) -> tuple[TargetSpec, ...]:
    """Target slots of a spell: an instant's or sorcery's targets, or an Aura
    spell's single target defined by its enchant ability (CR 115.1b, 303.4a)."""
    if card.spell is not None and card.spell.targets:
        return tuple(card.spell.targets)
    if is_aura(card):
        f = enchant_filter(card.abilities)
        if f is not None:
            return (TargetSpec(f),)
    return ()


def ability_specs(ability: ir.Ability) -> tuple[TargetSpec, ...]:
    """Target slots of an activated or triggered ability (mana abilities: none)."""
    if isinstance(ability, (ActivatedAbility, TriggeredAbility)):
        return tuple(ability.targets)
    return ()


# --------------------------------------------------------------------------
# Sources
# --------------------------------------------------------------------------


def _object(view: View, oid: str, field: str):
    try:
        return view.obj(oid)
    except KeyError:
        raise TargetingError(field, f"no object with id '{oid}'") from None


def cast_source(view: View, card_id: str, alternative: str = "") -> TargetingSource:
    """A spell being cast from wherever ``card_id`` is (the query checks it is
    in hand). Its controller is the card's owner (CR 601.2a: the caster).
    ``alternative``: the alternative cost it is cast for; with its overload cost
    the spell has no targets (CR 702.96b)."""

    o = _object(view, card_id, "cast")
    if o.card is None:
        raise TargetingError("cast", f"'{card_id}' is not a card")
    caster = o.owner if o.zone != "stack" else o.controller
    c = view.chars(o.id)
    specs = () if overloaded(o, alternative) else spell_specs(o.card)
    return TargetingSource("spell", o.id, caster, specs, c.colors,
                           self_id=o.id, default_how="cast", types=c.types, subtypes=c.subtypes,
                           modal=modal_of(o.card.spell))


def ability_source(view: View, object_id: str, ability: ir.Ability, kind: str,
                   controller: str | None = None, self_id: str | None = None) -> TargetingSource:
    """An activated (``kind="activated"``) or triggered (``"triggered"``)
    ability of ``object_id``; ``controller`` defaults to the object's
    controller (CR 602.2, 603.3a)."""
    o = _object(view, object_id, "object")
    ctrl = controller if controller is not None else o.controller
    c = view.chars(o.id)
    return TargetingSource(kind, o.id, ctrl, ability_specs(ability), c.colors,
                           self_id=self_id, default_how="activate" if kind == "activated" else "trigger",
                           types=c.types, subtypes=c.subtypes, modal=modal_of(ability))


def activated_source(view: View, object_id: str, index: int) -> TargetingSource:
    """The ``index``-th (1-based) activated ability of ``object_id`` in printed
    order, mana abilities included (contract §2)."""
    _object(view, object_id, "activate.object")
    acts = view.chars(object_id).activated
    if not isinstance(index, int) or isinstance(index, bool) or not 1 <= index <= len(acts):
        raise TargetingError("activate.index", f"'{object_id}' has {len(acts)} activated abilit"
                             f"{'y' if len(acts) == 1 else 'ies'}; no ability {index!r}")
    return ability_source(view, object_id, acts[index - 1], "activated")


def triggered_source(view: View, object_id: str, index: int) -> TargetingSource:
    """The ``index``-th (1-based) triggered ability of ``object_id`` in printed order."""
    _object(view, object_id, "trigger.object")
    trig = view.chars(object_id).triggered
    if not isinstance(index, int) or isinstance(index, bool) or not 1 <= index <= len(trig):
        raise TargetingError("trigger.index", f"'{object_id}' has {len(trig)} triggered abilit"
                             f"{'y' if len(trig) == 1 else 'ies'}; no ability {index!r}")
    return ability_source(view, object_id, trig[index - 1], "triggered")


def stack_source(view: View, stack_id: str) -> TargetingSource:
    """A spell or ability already on the stack (contract §1 ``stack``).

    A spell's card gives its slots; an ability ``{source, index}`` is the
    n-th activated-or-triggered ability of its source's card in printed order
    (the ``last_known`` card when given; contract §1). The source's colors
    (for protection) are its current ones, or the last known card's. The default
    ``how`` is the way its targets were first chosen: ``copy`` for a copy,
    else ``cast`` / ``activate`` / ``trigger``. A spell cast for its overload cost (``cast_with:
    overload``) has no targets (CR 702.96b: "target" reads "each", :func:`each_described`).
    """
    o = _object(view, stack_id, "spell")
    if o.zone != "stack":
        raise TargetingError("spell", f"'{stack_id}' is not on the stack (it is in the {o.zone})")
    if o.card is not None:
        c = view.chars(o.id)
        specs = () if o.cast_with == "overload" else spell_specs(o.card)   # CR 702.96b: no targets
        return _chosen_modes(o, TargetingSource("spell", o.id, o.controller, specs, c.colors, self_id=o.id,
                                                default_how="copy" if o.copy else "cast", types=c.types,
                                                subtypes=c.subtypes, modal=modal_of(o.card.spell)))
    ref = o.ability
    if ref is None:
        raise TargetingError("spell", f"'{stack_id}' is neither a spell nor an ability")
    lki_card = dict(o.last_known).get("card")
    src = view.state.find(ref.source)
    card = lki_card if lki_card is not None else (src.card if src is not None else None)
    if card is None:
        raise TargetingError("spell", f"the source '{ref.source}' of '{stack_id}' is unknown")
    # printed order, as contract §1 numbers stack abilities (mana abilities count as activated)
    abilities = ir.numbered_abilities(card.abilities)
    if not 1 <= ref.index <= len(abilities):
        raise TargetingError("spell", f"'{ref.source}' has no activated or triggered ability {ref.index}")
    ability = abilities[ref.index - 1]
    kind = "activated" if ir.is_activated(ability) else "triggered"
    if lki_card is None and src is not None:
        sc = view.chars(src.id)  # CR 702.16b: the source's qualities (as it is, or as it last was)
        colors, types, subtypes = sc.colors, sc.types, sc.subtypes
    else:
        colors = printed_colors(card)  # the card data's colors (CR 202.2, 204, 604.3)
        types, subtypes = frozenset(card.data.types), printed_subtypes(card)
    how = "copy" if o.copy else ("activate" if kind == "activated" else "trigger")
    specs = ability_specs(ability)
    made = ir.delayed_of(card, ref.index) if o.delayed else []
    if o.delayed and len(made) >= o.delayed and isinstance(made[o.delayed - 1], ir.Reflexive):
        kind, how, specs = "triggered", "trigger", made[o.delayed - 1].targets   # its own targets (CR 603.12)
    return _chosen_modes(o, TargetingSource(kind, ref.source, o.controller, specs, colors,
                                            self_id=o.id, default_how=how, types=types, subtypes=subtypes,
                                            modal=modal_of(ability)))


def _chosen_modes(o: GameObject, src: TargetingSource) -> TargetingSource:
    """A modal spell or ability on the stack whose modes are recorded (object key ``modes``): its target
    slots are those of the chosen modes (CR 700.2a, 601.2b-c)."""
    if src.modal is None or o.modes is None:
        return src
    return with_modes(src, o.modes)


# --------------------------------------------------------------------------
# Candidates (restrictions)
# --------------------------------------------------------------------------


def player_matches(view: View, source: TargetingSource, f: Filter, pid: str) -> bool:
    """Does player ``pid`` fit filter ``f`` (CR 115.1, 115.4)?"""
    if not f.players:
        return False
    if f.who == "you":
        return pid == source.controller
    if f.who == "opponent":
        return pid != source.controller
    return True


def object_matches(view: View, source: TargetingSource, f: Filter, oid: str) -> bool:
    """Does object ``oid`` fit filter ``f``'s criteria (zone, types, subtypes,
    colors, mana value, controller/owner)? Ignores hexproof and the like."""
    o = view.obj(oid)
    if o.zone != f.zone:
        return False
    if o.zone == "stack" and o.ability is not None:
        return False  # "target spell" is never an ability (CR 113.1, 115.1)
    return object_fits(o, view.chars(oid), f, source)


def object_fits(o: GameObject, c: Chars, f: Filter, source: TargetingSource) -> bool:
    """Does object ``o`` with characteristics ``c`` (as it is, or as it last existed: a trigger's
    look back, CR 603.10a) fit filter ``f``'s types, subtypes, colors, mana value, qualifiers and
    controller (relative to ``source``'s controller)? Its zone is the caller's to check."""
    if not f.types:
        return False
    if not (f.types & c.types or ("Permanent" in f.types and o.zone == "battlefield")
            or ("Spell" in f.types and o.zone == "stack")):
        return False
    if f.nontypes & c.types or not f.types_all <= c.types:
        return False
    if f.subtypes and not (f.subtypes & c.subtypes):
        return False
    if f.not_colors & c.colors:
        return False
    if f.mv_max is not None and c.mana_value > f.mv_max:
        return False
    if not _qualifiers_match(o, c, f, source):
        return False
    holder = o.controller if o.zone in ("battlefield", "stack") else o.owner
    if f.who == "you" and holder != source.controller:
        return False
    if f.who == "opponent" and holder == source.controller:
        return False
    return True


def _qualifiers_match(o, c, f: Filter, source: TargetingSource) -> bool:
    """The further qualifiers of a filter read from Oracle text (CR 115.1): supertypes,
    colors ("red", "multicolored", "colorless", CR 105.2), mana value at least,
    tapped/untapped (CR 110.5), attacking/blocking (CR 506.4), power/toughness
    bounds (an object without power has none to compare, CR 208), token/nontoken,
    keywords ("with flying", "without flying") and "another" (not the source).
    Every field left at its default accepts everything."""
    if f.supertypes and not f.supertypes <= c.supertypes:
        return False
    if f.not_supertypes & c.supertypes:
        return False
    if f.colors and not f.colors <= c.colors:
        return False
    if f.multicolored and len(c.colors) < 2:
        return False
    if f.monocolored and len(c.colors) != 1:
        return False                 # CR 105.2c
    if f.not_subtypes & c.subtypes:
        return False                 # "non-Human" (CR 205.3)
    if f.colorless and c.colors:
        return False
    if f.mv_min is not None and c.mana_value < f.mv_min:
        return False
    if f.total_pt_max is not None and (c.power is None or c.toughness is None
                                       or c.power + c.toughness > f.total_pt_max):
        return False   # "with total power and toughness 5 or less" (CR 208)
    if f.tapped is not None and (o.zone != "battlefield" or bool(o.tapped) != f.tapped):
        return False
    if f.combat and not (("attacking" in f.combat and o.attacking is not None)
                         or ("blocking" in f.combat and bool(o.blocking))):
        return False
    for val, lo, hi in ((c.power, f.power_min, f.power_max), (c.toughness, f.toughness_min, f.toughness_max)):
        if (lo is not None or hi is not None) and val is None:
            return False
        if lo is not None and val < lo:
            return False
        if hi is not None and val > hi:
            return False
    if f.token is not None and bool(o.token) != f.token:
        return False
    if any(not c.keyword(k) for k in f.keywords) or any(c.keyword(k) for k in f.not_keywords):
        return False
    if f.other_than_source and o.id == source.object_id:
        return False
    return True


def can_be_targeted(view: View, source: TargetingSource, oid: str) -> bool:
    """Restrictions from the object's own abilities, on the battlefield only
    (CR 113.6): shroud (702.18a), hexproof (702.11b: opponents of its
    controller), hexproof from a quality (702.11e: a spell with that quality
    an opponent controls, or an ability an opponent controls from a source
    with that quality), protection from a quality (702.16b: a spell with
    that quality, an ability from a source with it — colors, multicolored,
    card types, subtypes, everything; :func:`solver.rules.casting_rules.has_quality`);
    for a player, the keywords their permanents give them ("You have
    hexproof", CR 702.11d, 702.18b). Ward (702.21a) restricts nothing."""
    if view.state.is_player(oid):  # a player with shroud / hexproof (CR 702.18b, 702.11d)
        kws = view.player_keywords(oid)
        return "shroud" not in kws and ("hexproof" not in kws or oid == source.controller)
    o = view.obj(oid)
    if o.zone == "graveyard" and view.statics(ir.GraveyardCardsUntargetable):
        return False   # "Cards in graveyards can't be the targets of spells or abilities." (CR 115.1)
    if o.zone != "battlefield":
        return True
    c = view.chars(oid)
    if c.keyword("shroud"):
        return False
    if c.keyword("hexproof") and o.controller != source.controller:
        return False

    spell = source.kind == "spell"
    if o.controller != source.controller and hexproof_from(c, source.colors, source.types, source.subtypes, spell):
        return False
    if protected_from(c, source.colors, source.types, source.subtypes, spell):
        return False
    return True


def _universe(view: View, f: Filter) -> list[str]:
    return [o.id for o in view.state.objects if o.zone == f.zone]


def slot_candidates(view: View, source: TargetingSource, spec: TargetSpec) -> tuple[str, ...]:
    """Every legal target for one instance of "target", sorted by id."""
    f = spec.filter
    out = [pid for pid in view.state.player_ids
           if player_matches(view, source, f, pid) and can_be_targeted(view, source, pid)]
    for oid in _universe(view, f):
        if oid == source.self_id:  # CR 115.5
            continue
        if object_matches(view, source, f, oid) and can_be_targeted(view, source, oid):
            out.append(oid)
    return tuple(sorted(out))


def each_described(view: View, stack_id: str) -> tuple[tuple[str, ...], ...]:
    """An overloaded spell's objects (CR 702.96b: "target" in its text reads "each"): per instance of
    "target" in its printed text, every player and object its description fits — not only those that
    could be targeted (hexproof, shroud and protection restrict targets, not "each", 702.11b, 702.18a,
    702.16b) — other than the spell itself, sorted by id."""
    o = view.obj(stack_id)
    assert o.card is not None
    src = stack_source(view, stack_id)
    out = []
    for spec in spell_specs(o.card):
        f = spec.filter
        ids = [pid for pid in view.state.player_ids if player_matches(view, src, f, pid)]
        ids += [oid for oid in _universe(view, f) if oid != stack_id and object_matches(view, src, f, oid)]
        out.append(tuple(sorted(ids)))
    return tuple(out)


# --------------------------------------------------------------------------
# Requirements
# --------------------------------------------------------------------------


def requirements_apply(source: TargetingSource, chooser: str, how: str) -> bool:
    """CR 601.2c / the Flagbearer texts and rulings: only while the spell's or
    ability's controller chooses its targets as part of casting or activating."""
    return how in REQUIREMENT_HOWS and chooser == source.controller


def applicable_requirements(view: View, source: TargetingSource, chooser: str, how: str) -> list[Sourced]:
    """The ``must_target`` statics that bind this choice of targets: controlled
    by an opponent of the choosing controller (sorted by source id)."""
    if not requirements_apply(source, chooser, how):
        return []
    reqs = [s for s in view.statics(ir.MustTarget) if s.controller != source.controller]
    return sorted(reqs, key=lambda s: (s.source, s.timestamp))


def satisfies(view: View, requirement: ir.MustTarget, ident: str) -> bool:
    """Does choosing ``ident`` (object or player id) obey ``requirement``?

    Objects: a subtype the requirement names, on the battlefield when it says
    so. Players: a player subtype it names, whatever ``battlefield_only``
    says (see the module docstring for this interpretation).
    """
    if view.state.is_player(ident):
        return bool(view.player_subtypes(ident) & requirement.subtypes)
    o = view.obj(ident)
    if requirement.battlefield_only and o.zone != "battlefield":
        return False
    return bool(view.chars(ident).subtypes & requirement.subtypes)


# --------------------------------------------------------------------------
# The problem handed to the model
# --------------------------------------------------------------------------


def targeting_problem(view: View, source: TargetingSource, chooser: str | None = None, how: str | None = None,
                      counts_first: bool = True) -> TargetProblem:
    """The rules-level description of a target choice for :mod:`models.targets`.

    Requirements with the same set of satisfying candidates are merged into
    one with a weight (the number of effects), which changes neither the
    maximum nor the choices that reach it.
    """
    if source.modal is not None and source.selection is None:
        # CR 601.2b-c: targets exist only for chosen modes (solver/rules/modes.py chooses them first)
        raise UnsupportedCase("a modal spell or ability: choose its modes first (solver.rules.modes.with_modes)")
    chooser = source.controller if chooser is None else chooser
    how = source.default_how if how is None else how
    slots = []
    by_filter: dict = {}   # "any target and another target": the same filter, computed once
    for spec in source.specs:
        try:
            cands = by_filter.get(spec.filter)
        except TypeError:  # an unhashable filter
            cands = None
        if cands is None:
            cands = slot_candidates(view, source, spec)
            try:
                by_filter[spec.filter] = cands
            except TypeError:
                pass
        slots.append(Slot(cands, spec.min, spec.max, tuple(spec.distinct_from)))
    all_cands = sorted({c for s in slots for c in s.candidates})
    groups: dict[frozenset[str], list[str]] = {}
    memo: dict[tuple, frozenset[str]] = {}
    for r in applicable_requirements(view, source, chooser, how):
        key = (r.ability.subtypes, r.ability.battlefield_only)
        sat = memo.get(key)
        if sat is None:
            sat = memo[key] = frozenset(c for c in all_cands if satisfies(view, r.ability, c))
        if sat:
            groups.setdefault(sat, []).append(r.source)
    reqs = tuple(Requirement(sat, len(srcs), tuple(srcs))
                 for sat, srcs in sorted(groups.items(), key=lambda kv: (sorted(kv[0]), kv[1])))
    return TargetProblem(tuple(slots), reqs, counts_first)


def source_of(view: View, *, cast: str | None = None, activate: dict | None = None,
              trigger: dict | None = None, spell: str | None = None, alternative: str = "") -> TargetingSource:
    """The source a query names with exactly one of ``cast=<card id>``,
    ``activate={object, index}``, ``trigger={object, index}`` or
    ``spell=<stack id>`` (contract §2.4). Raises :class:`TargetingError`."""
    given = [k for k, v in (("cast", cast), ("activate", activate), ("trigger", trigger), ("spell", spell))
             if v is not None]
    if len(given) != 1:
        raise TargetingError("", "name exactly one of cast, activate, trigger, spell")
    if cast is not None:
        return cast_source(view, cast, alternative)
    if spell is not None:
        return stack_source(view, spell)
    ref = activate if activate is not None else trigger
    if not isinstance(ref, dict):
        raise TargetingError(given[0], "expected {object: id, index: n}")
    fn = activated_source if activate is not None else triggered_source
    # the object and index are checked there (TargetingError for a bad one)
    return fn(view, type_cast(str, ref.get("object")), type_cast(int, ref.get("index")))


def _resolve(view: View, source: "TargetingSource | str | None", subject: dict) -> tuple[TargetingSource, str | None]:
    """(source, chooser) from either a :class:`TargetingSource` or a player id
    plus the query-style keywords of :func:`source_of`."""
    if isinstance(source, TargetingSource):
        if subject:
            raise TypeError("give either a TargetingSource or cast=/activate=/trigger=/spell=, not both")
        return source, None
    return source_of(view, **subject), source


def target_choice_count(view: View, source: "TargetingSource | str | None" = None, chooser: str | None = None,
                        how: str | None = None, counts_first: bool = True, **subject) -> int:
    """The exact number of legal target choices (requirements obeyed as CR
    601.2c demands), counted without enumerating them: 1 for a source with no
    target slots, 0 when some slot cannot be filled.

    Call it with a :class:`TargetingSource` (``target_choice_count(view, src,
    chooser, how)``) or query-style: ``target_choice_count(view, "alice",
    cast="shock")`` / ``activate={"object": ..., "index": n}`` - the second
    argument is then the player choosing. ``chooser`` defaults to the
    controller and ``how`` to the source's default (cast/activate/trigger).
    """

    src, who = _resolve(view, source, subject)
    chooser = chooser if chooser is not None else who
    if src.modal is not None and src.selection is None:  # CR 700.2a: modes, then targets (below)
        return sum(n for _, n in mode_selection_counts(view, src, chooser, how, counts_first))
    return count_choices(targeting_problem(view, src, chooser, how, counts_first))


def has_legal_targets(view: View, source: "TargetingSource | str | None" = None, **subject) -> bool:
    """Whether at least one legal choice of targets exists: one feasibility
    solve at most (none when no "another target" link ties the slots).
    Requirements never matter here - whenever a choice obeying no requirement
    exists, one obeying the maximum exists too - and neither do the chooser
    or ``how``. Same calling conventions as :func:`target_choice_count`
    (``has_legal_targets(view, src)`` or ``has_legal_targets(view, "alice",
    cast="shock")``)."""

    src, _ = _resolve(view, source, subject)
    if src.modal is not None and src.selection is None:  # CR 700.2a: some legal selection of modes
        return has_legal_modes(view, src)
    slots = tuple(Slot(slot_candidates(view, src, spec), spec.min, spec.max, tuple(spec.distinct_from))
                  for spec in src.specs)
    return is_feasible(TargetProblem(slots))


# --------------------------------------------------------------------------
# Modal spells and abilities (CR 700.2): selections of modes with their targets
# (the modes' data: solver/rules/modes.py)
# --------------------------------------------------------------------------


def mode_selection_counts(view: View, source: TargetingSource, chooser: str | None = None,
                          how: str | None = None, counts_first: bool = True) -> list[tuple[tuple[int, ...], int]]:
    """``(selection, number of target choices)`` for every selection the text allows, sorted
    (counts without enumeration; 0: the selection can't be chosen, CR 700.2a–b)."""

    assert source.modal is not None
    per_mode_ok = [_mode_feasible(view, source, i) for i in range(1, source.modal.n + 1)]
    out = []
    for sel in selections(source.modal):
        if not all(per_mode_ok[i - 1] for i in sel):
            out.append((sel, 0))
            continue
        out.append((sel, count_choices(targeting_problem(view, with_modes(source, sel), chooser, how, counts_first))))
    return out


def _mode_feasible(view: View, source: TargetingSource, i: int) -> bool:
    return has_legal_targets(view, with_modes(source, (i,)))


def modal_choice_count(view: View, source: TargetingSource, chooser: str | None = None,
                       how: str | None = None) -> int:
    """The number of legal (modes, targets) choices (CR 601.2b–c)."""
    return sum(n for _, n in mode_selection_counts(view, source, chooser, how))


def has_legal_modes(view: View, source: TargetingSource) -> bool:
    """Whether some selection of modes has a legal choice of targets (CR 700.2a–b)."""
    assert source.modal is not None
    ok = [has_legal_targets(view, with_modes(source, (i,))) for i in range(1, source.modal.n + 1)]
    for sel in selections(source.modal):
        if all(ok[i - 1] for i in sel) and (len(sel) <= 1 or has_legal_targets(view, with_modes(source, sel))):
            return True
    return False

"""Static abilities that change how spells are cast and what may be targeted.

The reader (:mod:`solver.reader.statics`) turns their Oracle text into
:class:`~solver.core.ir.CastingRule` parts and quality keywords; this module says
what they do, for :mod:`solver.rules.costs` (the total cost), :mod:`solver.engine.actions`
(timing), :mod:`solver.rules.targeting` and :mod:`solver.engine.resolution` (protection).

Total cost (CR 601.2f, 118.7)
    The total cost of a spell is its mana cost plus cost increases minus cost
    reductions; then effects that directly affect the total cost apply
    (Trinisphere: "each spell that would cost less than three mana to cast
    costs three mana to cast"), and the cost is locked in. Here:

    1. **increases** — every ``cost_increase`` rule that applies adds its
       generic amount (Thalia, Guardian of Thraben: "Noncreature spells cost
       {1} more to cast."; Sphere of Resistance);
    2. **reductions** — every ``cost_reduction`` rule that applies takes
       generic mana off, never below zero generic and never off a colored,
       colorless or snow symbol (CR 118.7, 107.4h): Goblin Electromancer,
       the Medallions, "This spell costs {1} less to cast for each creature
       card in your graveyard" (Ghoultree), affinity (CR 702.41a: "This
       spell costs {1} less to cast for each [quality] you control"). A
       cost reduced to nothing is {0} (CR 601.2f), still a cost that can be
       paid (unlike a spell with no mana cost at all, CR 118.6);
    3. **minimums** — a ``cost_minimum`` rule (Trinisphere) raises a total
       cost of fewer than N mana to N by adding generic mana, as the rules
       text's reminder says ("a spell that would cost {1}{B} to cast costs
       {2}{B} to cast instead").

    Which rules apply: those of permanents on the battlefield (after
    continuous effects), by the caster relative to the rule's controller
    (``you``, ``opponent``, ``any``) and by the spell's characteristics as it
    is being cast (its card's, CR 601.2a–b); and the spell's own
    ``self_only`` rules. Cases where the order of announcements matters
    (a reduction larger than the generic part of a cost with {X} or a
    monocolored hybrid symbol; a minimum on a cost with hybrid or Phyrexian
    symbols, whose mana amount depends on the announcement, or with X not
    fixed) are reported as :class:`~solver.core.errors.UnsupportedCase`.

Timing (CR 601.3, 101.2, 702.8a, 307.1)
    ``as_though_flash`` lets a player cast matching spells any time they
    could cast an instant; ``sorcery_timing_only`` (Teferi, Time Raveler) and
    ``cant_cast_during_your_turn`` (Dragonlord Dromoka) forbid casting, and a
    "can't" beats a "can" (CR 101.2).

Qualities (CR 702.16a–b, 702.11e)
    :func:`has_quality` decides whether a spell or a source has a quality
    named by protection or "hexproof from".
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import TypeVar, Union

from ..core import ir
from .conditions import condition_holds
from .characteristics import Chars, Sourced, View
from ..core.errors import UnsupportedCase
from ..core.mana import ManaCost, Symbol

R = TypeVar("R", bound=ir.CastingRule)
#: A rule that changes a spell's total cost (CR 601.2f).
CostRule = Union[ir.CostChangeRule, ir.CostMinimum]

PLAIN_KINDS = frozenset({"color", "colorless", "generic", "snow", "X"})


# ---------------------------------------------------------------------------
# Qualities (protection, hexproof from)
# ---------------------------------------------------------------------------

def has_quality(quality: str, colors: frozenset[str], types: frozenset[str], subtypes: frozenset[str],
                spell: bool) -> bool:
    """Does a spell (``spell``) or a source of an ability / of damage have the
    quality named by a protection or "hexproof from" ability (CR 702.16a)?

    A color letter: that color (CR 105.2); ``multicolored`` two or more
    colors, ``monocolored`` exactly one, ``colorless`` none (CR 105.2b–c);
    ``everything`` always (CR 702.16j); a card type or subtype: the object
    has it ("protection from artifacts", "protection from Demons");
    ``colored spells``: a spell that is one or more colors (Emrakul, the
    Aeons Torn), never an ability's source."""
    if quality in ("W", "U", "B", "R", "G"):
        return quality in colors
    if quality == "multicolored":
        return len(colors) >= 2
    if quality == "monocolored":
        return len(colors) == 1
    if quality == "colorless":
        return not colors
    if quality == "everything":
        return True
    if quality == "colored spells":
        return spell and bool(colors)
    return quality in types or quality in subtypes


def protected_from(c: Chars, colors: frozenset[str], types: frozenset[str] = frozenset(),
                   subtypes: frozenset[str] = frozenset(), spell: bool = False) -> bool:
    """Does the object with characteristics ``c`` have protection from a
    spell or source with these characteristics (CR 702.16b–e)?"""
    return any(has_quality(q, colors, types, subtypes, spell) for q in c.protections)


def hexproof_from(c: Chars, colors: frozenset[str], types: frozenset[str], subtypes: frozenset[str],
                  spell: bool) -> bool:
    """Does ``c`` have "hexproof from" a quality this spell or source has (CR 702.11e)?"""
    return any(isinstance(a, ir.Keyword) and a.name == "hexproof from"
               and has_quality(a.arg, colors, types, subtypes, spell) for a in c.abilities)


# ---------------------------------------------------------------------------
# Which rules apply
# ---------------------------------------------------------------------------

def rules_in_force(view: View) -> list[Sourced]:
    """Casting rules of permanents on the battlefield (after continuous effects,
    so granted ones count), in timestamp order; a spell's own ``self_only``
    rules are not among them."""
    out = [Sourced(o.id, o.controller, a, o.timestamp)
           for o in view.permanents for a in view.chars(o.id).abilities
           if isinstance(a, ir.CastingRule) and not (isinstance(a, ir.CostChangeRule) and a.self_only)]
    out.sort(key=lambda s: (s.timestamp, s.source))
    return out


def _who_matches(who: str, controller: str, player: str) -> bool:
    return who == "any" or (who == "you") == (player == controller)


def spell_matches(f: ir.Filter | None, c: Chars) -> bool:
    """Does a spell with characteristics ``c`` fit a rule's spell description?"""
    if f is None:
        return True
    from .spending import filter_matches

    return filter_matches(f, c)


def bound_rule(r: R, source: "object | None") -> R:
    """The rule with "of the chosen type" read as the creature type chosen for its source
    (object key ``chosen: {type: …}``, CR 205.3m, 614.12); with none chosen it stays
    unbound and no spell has it (as for spending restrictions, CR 106.6)."""
    fs = r.spell_filters() if isinstance(r, ir.SpellsRule) else None
    if not fs or not any(f.chosen_type for f in fs) or source is None:
        return r
    from dataclasses import replace

    from .spending import _bind_filter, chosen_type_of

    t = chosen_type_of(source)  # type: ignore[arg-type]
    assert isinstance(r, ir.SpellsRule) and r.spells is not None
    return replace(r, spells=_bind_filter(r.spells, t), spells_or=tuple(_bind_filter(f, t) for f in r.spells_or))


def rule_applies_to(r: ir.SpellsRule, c: Chars) -> bool:
    """Does a spell with characteristics ``c`` fit one of the rule's spell descriptions
    ("Green spells and blue spells you cast cost {1} less": green or blue, and a
    green-and-blue spell once, CR 601.2f)?"""
    fs = r.spell_filters()
    return fs is None or any(spell_matches(f, c) for f in fs)


def cost_rules(view: View, player: str, spell_id: str) -> list[tuple[str | None, str, CostRule]]:
    """Every cost rule that applies to ``player`` casting ``spell_id``: ``(source
    permanent or None for the spell's own rule, controller, rule)``."""
    c = view.chars(spell_id)
    out: list[tuple[str | None, str, CostRule]] = []
    for s in rules_in_force(view):
        r = bound_rule(s.ability, view.obj(s.source))
        if isinstance(r, ir.CostMinimum):
            if r.untapped_only and view.obj(s.source).tapped:
                continue
        elif not isinstance(r, ir.CostChangeRule):
            continue
        elif not _who_matches(r.who, s.controller, player) or not rule_applies_to(r, c):
            continue
        out.append((s.source, s.controller, r))
    o = view.obj(spell_id)
    if o.card is not None:
        for a in o.card.abilities:
            if isinstance(a, ir.CostChangeRule) and a.self_only:
                out.append((None, player, a))
    return out


def _amount(view: View, rule: ir.CostChangeRule, source: str | None, controller: str, spell_id: str) -> int:
    src = view.obj(source) if source is not None else view.obj(spell_id)
    if rule.condition is not None and not condition_holds(view, rule.condition, src, controller):
        return 0                     # "… if you control a Wizard" does not hold now (CR 601.2f)
    if rule.per is None:
        return rule.amount
    from .mana_sources import count_value

    return rule.amount * count_value(view, rule.per, src, controller)


def _rebuild(symbols: list[Symbol], generic: int) -> ManaCost:
    """The cost with its generic part set to ``generic`` ({0} when nothing is left)."""
    others = [s for s in symbols if s.kind != "generic"]
    if generic > 0 or not others:
        others.append(Symbol("generic", (), max(generic, 0)))
    return ManaCost(tuple(sorted(others, key=Symbol.sort_key)))


@dataclass(frozen=True)
class CostChange:
    """The modified cost and what changed it (for explanations)."""

    mana: ManaCost
    increase: int = 0
    reduction: int = 0
    minimum: int = 0


def modified_cost(view: View, player: str, spell_id: str, mana: ManaCost, x: int | None) -> CostChange:
    """CR 601.2f: the mana part of the total cost of ``player`` casting
    ``spell_id`` whose cost before changes is ``mana`` (X announced as ``x``;
    None: every value), after increases, reductions and minimums (see the
    module docstring). A spell with no mana cost is left alone (CR 118.6)."""
    if not mana:
        return CostChange(mana)
    rules = cost_rules(view, player, spell_id)
    if not rules:
        return CostChange(mana)
    inc = sum(_amount(view, r, src, ctl, spell_id) for src, ctl, r in rules if isinstance(r, ir.CostIncrease))
    red = sum(_amount(view, r, src, ctl, spell_id) for src, ctl, r in rules if isinstance(r, ir.CostReduction))
    mins = [r.amount for _, _, r in rules if isinstance(r, ir.CostMinimum)]
    symbols = list(mana.symbols)
    generic = mana.generic + inc
    taken = min(red, generic)
    left = red - taken
    generic -= taken
    if left > 0 and any(s.kind in ("X", "mono_hybrid") for s in symbols):
        raise UnsupportedCase("a cost reduction larger than the generic part of a cost with {X} or a "
                              "monocolored hybrid symbol (CR 118.7) is not modeled")
    out = _rebuild(symbols, generic)
    minimum = max(mins, default=0)
    if minimum:
        if any(s.kind not in PLAIN_KINDS for s in out.symbols):
            raise UnsupportedCase("a minimum total cost (Trinisphere) on a cost with hybrid or Phyrexian symbols "
                                  "depends on their announcement (CR 601.2b, 601.2f) and is not modeled")
        if out.x_count and x is None:
            raise UnsupportedCase("a minimum total cost (Trinisphere) on a cost with {X}: fix X (x: n)")
        total = sum(s.mana_value for s in out.symbols if s.kind != "X") + out.x_count * (x or 0)
        if total < minimum:
            out = _rebuild(list(out.symbols), out.generic + minimum - total)
    return CostChange(out, inc, red, minimum)


# ---------------------------------------------------------------------------
# Timing
# ---------------------------------------------------------------------------

def may_cast_as_though_flash(view: View, player: str, card_id: str) -> bool:
    """An ``as_though_flash`` rule lets ``player`` cast this card any time they
    could cast an instant (CR 702.8a; Leyline of Anticipation)."""
    c = view.chars(card_id)
    return any(isinstance(s.ability, ir.AsThoughFlash) and _who_matches(s.ability.who, s.controller, player)
               and rule_applies_to(bound_rule(s.ability, view.obj(s.source)), c) for s in rules_in_force(view))


def cast_restriction(view: View, player: str, sorcery_time: bool) -> str | None:
    """Why a rule forbids ``player`` from casting a spell now (CR 601.3, 101.2:
    "can't" beats "can"), or None. ``sorcery_time``: the player could cast a
    sorcery now (CR 307.1)."""
    state = view.state
    for s in rules_in_force(view):
        r: ir.CastingRule = s.ability
        if not _who_matches(r.who, s.controller, player):
            continue
        name = view.chars(s.source).name
        if isinstance(r, ir.SorceryTimingOnly) and not sorcery_time:
            return (f"{name} ({s.source}) lets {player} cast spells only any time they could cast a sorcery "
                    "(CR 601.3, 307.1)")
        if isinstance(r, ir.CantCastDuringYourTurn) and state.turn.active == s.controller:
            return f"{name} ({s.source}): {player} can't cast spells during {s.controller}'s turn (CR 601.3)"
    return None

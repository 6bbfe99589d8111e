"""Resolving the top object of the stack (CR 608), then state-based actions
(CR 704) and putting triggered abilities on the stack (CR 603.3), under every
legal choice — the rules engine behind the ``resolve`` query (contract §2.7).

:func:`resolve_top` takes a :class:`~solver.core.state.GameState` and returns every
distinct resulting situation as an :class:`Outcome`: the new state (written
canonically, loadable again), the choices that lead to it and, when a random
event took part, its probability.

What happens, in order:

1. **Targets are re-checked** (CR 608.2b) with the source's last known
   information when it has left the battlefield (contract ``last_known``).  A
   spell or ability all of whose targets are illegal doesn't resolve; a spell
   is put into its owner's graveyard (an Aura spell too: Cartouche of
   Strength ruling 5).  Illegal targets are not affected by the parts of the
   effect that name them.
2. **Effects** of the IR (:data:`solver.core.ir.Effect`, one class per kind; dispatched on the class by
   :data:`_EFFECT_HANDLERS`) are carried out in
   printed order.  "You may" (CR 608.2d) is a choice of the controller: both
   answers are followed.  Fight follows CR 701.14a–d (no damage if either
   creature is gone, no longer a creature, or an illegal target; trample plays
   no part: fight damage is not combat damage).  Damage from a source with
   lifelink makes the source's controller gain that much life at the same
   time (CR 702.15b); damage from a source with deathtouch marks the
   creature dealt it for the next state-based action check (CR 702.2b).
   Counters go through the one ordering mechanism, :func:`solver.rules.replacement.counter_event_outcomes`
   (Hardened Scales / Doubling Season orders are separate outcomes).  Conjure
   creates new *cards* (not tokens) owned by the conjuring player, then
   shuffles (the library is written in a canonical order and marked
   ``shuffled``).  Drawing from a shuffled library is a random event: one
   outcome per distinct card drawn, with its probability.  A library search
   (CR 701.23) gives one outcome per class of interchangeable qualifying
   cards, plus "find nothing" for a stated quality (701.23b), then shuffles;
   looking at the top N cards and putting them back in any order (CR 401.4)
   gives one outcome per distinct order of those cards — refused on a
   shuffled library the player does not see whole (:func:`_arrange_top`).
   A ward ability (CR 702.21a) is resolved by :mod:`solver.engine.ward`: the targeting spell's
   controller pays (every distinct payment an outcome) or declines (the spell is countered,
   unless it can't be, CR 101.2).
3. **A permanent spell** enters the battlefield under its controller's
   control (CR 608.3), an Aura attached to its target (CR 303.4f), with its
   own "enters tapped / with counters" replacement (CR 614.1c; X is the
   spell's X, CR 107.3m); its "when this enters" abilities trigger.
4. **State-based actions** (CR 704.5) are performed simultaneously and
   repeated until none apply: a player at 0 or less life, who drew from an
   empty library or has ten poison counters loses (reported in
   :attr:`Outcome.losers`; the game is not continued further); tokens outside
   the battlefield cease to exist; creatures with toughness 0 or less go to
   the graveyard; creatures with lethal damage, or dealt damage by a source
   with deathtouch since the last check (CR 702.2b, 704.5h), are destroyed
   (indestructible ones survive); planeswalkers with no loyalty go to the
   graveyard; the legend rule (a choice); Auras attached illegally or to nothing go to their
   owner's graveyard (CR 704.5m, 303.4c–d); +1/+1 and -1/-1 counters
   annihilate.  Creatures put into a graveyard from the battlefield "die" and
   their dies-abilities trigger (Hangarback Walker), with last known
   information.
5. **Triggered abilities** waiting to be put on the stack are put there
   (CR 603.3b): active player first, then the others in turn order; each
   player orders their own (a choice); targets are chosen for each (CR
   603.3d; one outcome per legal choice, Flagbearer requirements do not
   apply to triggered abilities); an ability with no legal target choice is
   removed.  Steps 4 and 5 repeat until neither does anything (CR 704.3).

Outcome identity: two outcomes are the same when their situations are the
same (:meth:`solver.core.state.GameState.key`).  When
several choice sets lead to one situation, the outcome lists the first (in
canonical order) as ``choices`` and the others as ``alternatives``.

Not modeled (reported in :attr:`ResolveResult.unsupported`, never silently
ignored): abilities the card library marks unsupported on objects that enter
or leave the battlefield (e.g. Kitchen Finks' persist);
704.5r/s/t; a player who loses in a game of more than two
players leaving the game (CR 800.4a) — the state is left as is and the loser
reported.
"""
from __future__ import annotations

import dataclasses
import itertools
import json
import math
import re
import time
from collections import Counter
from dataclasses import dataclass, replace
from fractions import Fraction
from functools import lru_cache
from typing import Any, Callable, Hashable, Iterable, TypedDict

from ..core import ir
from ..cards import Card, card_from_mapping, db_of
from ..rules.characteristics import View, printed_colors, printed_mana_value, printed_subtypes
from ..core.ir import Effect, Enchant, Ref, TargetSpec, TriggeredAbility, Unsupported
from ..core.mana import COLORS
from ..core.json_value import JsonObject
from ..core.state import (AbilityRef, ContinuousEffectEntry, DelayedTrigger, GameObject, GameState, Player,
                          PlayPermission, PreventionShield, StateKey)
from .transition import discard_unread
from .transition import dispatch_events
from ..rules.modes import TargetingSource, selection_effects
from ..core.events import DamageDealt
from .transition import (KEYED_ZONES, LKI_KEYS, ResolutionUnsupported, _apnap, _aura_legal, _cease,  # noqa: F401
                         _drop_from_effects, _enchant, _finalize, _game_over, _id_base, _index_of, _is_aura,
                         _is_permanent_card, _lki_entries, _lki_object, _move, _new_id, _note_unsupported,
                         _only_affects_its_source, _PendingTrigger, _put_triggers, _sba_once, _World, ability_of,
                         target_legal, trigger_target_choices, create, draw, move, queue_triggers,
                         change_life, face_unread, flip, meld, other_face, pay, transform, destroy, prevent,
                         change_control)
from .transition import adjust_counters, attach, give_poison

from .ward import counter_object, resolve_ward
from .dig import multiset_orders, orders_count
from .dig import check_limit as dig_check_limit, distinct_orders as dig_distinct_orders, seen_multisets as dig_seen_multisets, seen_sequences as dig_seen_sequences, takes as dig_takes
from ..rules.mana_sources import count_value
from .copies import copies_wanted, copy_spell
from .suspend import cast_suspended, cast_without_paying, remove_counter
from ..reader.effects import predefined_token
from ..reader.scope import FROM_GRAVEYARD
from ..reader.effects_delayed import bound_refs
from mtgsolve.models.payment import Unsupported as PaymentUnsupported
from ..core.errors import UnsupportedCase
from ..payment.answers import payments
from ..rules.costs import TotalCost
from ..rules.casting_rules import protected_from
from ..rules.faces import cast_as
from ..rules.faces import KEPT_ON_BATTLEFIELD
from ..rules.replacement import counter_event_outcomes, entering_with, enters_tapped, life_choice, may_pay_life
from ..rules.targeting import TargetingError, each_described, object_matches, spell_specs, stack_source
from ..rules.triggers import condition_met
from ..rules.conditions import condition_holds
from ..rules.mana_sources import class_of, production_choices
from ..core.mana import Mana

COLOR_NAMES = {"W": "white", "U": "blue", "B": "black", "R": "red", "G": "green"}

__all__ = ["Outcome", "ResolveResult", "NothingToResolve", "ResolutionUnsupported", "CannotResolve", "ResolveTimeout",
           "resolve_top", "target_legal", "trigger_target_choices", "ability_of", "unless_decider", "search_decider"]

PERMANENT_TYPES = frozenset({"Artifact", "Creature", "Enchantment", "Land", "Planeswalker", "Battle"})


class NothingToResolve(ValueError):
    """The stack is empty."""


class CannotResolve(ValueError):
    """The top of the stack cannot resolve as given: it makes no rules sense
    (a mana ability on the stack, CR 605.3b) or lacks what resolving needs
    (its chosen targets)."""


class ResolveTimeout(Exception):
    """The deadline passed while enumerating outcomes."""


# ===========================================================================
# Public results
# ===========================================================================

@dataclass(frozen=True)
class Outcome:
    """One distinct result of resolving the top of the stack.

    ``state``: the resulting situation (canonical: ``situation_from_dict(
    dump_state(state)).state == state``; the outcome's contract object, situation
    included, is written at the edge, :func:`solver.queries.resolve.outcome_json`); ``choices``: the choices that lead to
    it (the first in canonical order); ``alternatives``: other choice sets
    leading to the same situation; ``probability``: the chance of this
    outcome given its choices, when a random event took part (else None);
    ``losers``: players who lost the game by a state-based action (CR
    704.5a–c).
    """

    state: GameState
    choices: JsonObject
    alternatives: tuple[JsonObject, ...] = ()
    probability: Fraction | None = None
    alternative_probabilities: tuple[Fraction | None, ...] = ()
    losers: tuple[str, ...] = ()


@dataclass(frozen=True)
class ResolveResult:
    """Every outcome, in the engine's order (by the canonical text of their choices; the order
    users see, choices then situation, is made by :mod:`solver.queries.resolve`), and the notes
    on what was not modeled."""

    outcomes: tuple[Outcome, ...]
    unsupported: tuple[str, ...] = ()
    resolved: bool = True  # False: every target was illegal (CR 608.2b), it was removed without resolving


def _canon(value: Any) -> str:
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


# ===========================================================================
# Abilities and targets
# ===========================================================================

# ===========================================================================
# Resolution context
# ===========================================================================

@dataclass(frozen=True)
class _Ctx:
    """What a resolving spell or ability knows while its effects happen."""

    stack_id: str
    controller: str
    source_id: str | None  # ability: its source; spell: the spell itself
    source: GameObject | None  # the source as it is, or as last known on the battlefield
    source_on_battlefield: bool
    damage_source: "_DamageSource"  # the source as a dealer of damage (colors, deathtouch, lifelink)
    targets: tuple[tuple[str, ...], ...]  # legal targets only (CR 608.2b)
    x: int
    entry: ContinuousEffectEntry | None  # the effects-list entry for its continuous effects
    event_object: str | None = None  # what its trigger event named (CR 603.2; None: it moved, 400.7)
    event_player: str | None = None


#: Effects that last (recorded in the effects list, CR 611.2a), which name objects by target only.
_LASTING = (ir.Pump, ir.UntilEndOfTurn, ir.ThisTurn)


def _event_refs(w: _World, ctx: _Ctx, k: str) -> list[str]:
    """CR 603.2, 608.2c, 400.7: the object a triggered ability's event named ("it" after "whenever a
    creature enters"), if it is still that object — it has not changed zones since (the kernel drops
    the reference when it does, :func:`solver.engine.transition.move`) — on the battlefield; the
    player it named ("that player"), if still in the game (CR 800.4a)."""
    if k == "event_player":
        p = ctx.event_player
        return [p] if p is not None and p in w.life and p not in w.losers else []
    oid = ctx.event_object
    o = w.objects.get(oid) if oid is not None else None
    if o is None:
        return []
    if o.zone not in ("battlefield", "graveyard"):  # the graveyard: a dying creature's card (CR 400.7d)
        raise ResolutionUnsupported(f"the object its trigger event named, in the {o.zone}")
    return [o.id]


def _check_event_object(w: _World, ctx: _Ctx, eff: Effect) -> None:
    """CR 400.7d: the card a dying creature became in the graveyard is found only to be exiled or
    returned (the reader reads nothing else on it); anything else on a card there is refused."""
    o = w.objects.get(ctx.event_object) if ctx.event_object is not None else None
    if o is not None and o.zone == "graveyard" and not isinstance(eff, FROM_GRAVEYARD) and \
            "event_object" in ir.event_ref_kinds(eff):
        raise ResolutionUnsupported(f"an effect on the card its trigger event named, in the graveyard: {eff.kind}")


def _refs(w: _World, ctx: _Ctx, ref: Ref | None) -> list[str]:
    """The objects or players an effect's reference names now."""
    if ref is None:
        return []
    k = ref.kind
    if k in ("target", "each_target"):
        if ref.index >= len(ctx.targets):
            return []
        return list(ctx.targets[ref.index])
    if k == "controller":
        return [ctx.controller]
    if k in ("each_opponent", "each_player"):
        return [p for p in w.life if k == "each_player" or p != ctx.controller]
    if k == "self":
        return [ctx.source_id] if ctx.source_on_battlefield and ctx.source_id else []
    if k == "attached":
        host = ctx.source.attached_to if ctx.source is not None else None
        return [host] if host is not None else []
    if k in ("event_object", "event_player"):
        return _event_refs(w, ctx, k)
    if k == "defending_player":
        return [_defending_player(w, ctx)]
    if k == "created":   # the token the instruction before created (a delayed instruction's "it", CR 603.7c)
        return [w.created[-1]] if w.created and w.created[-1] in w.objects else []
    if k == "each_object" and ref.group is not None:  # every permanent of the description now (CR 608.2c)
        view = w.view()
        src = TargetingSource("spell", ctx.source_id or "", ctx.controller, ())
        return [o.id for o in sorted(view.state.battlefield, key=lambda x: x.id)
                if object_matches(view, src, ref.group, o.id)]
    raise ResolutionUnsupported(f"effect reference '{k}'")


def _sacrificed_amount(w: _World, ctx: _Ctx, stat: str) -> int:
    """"The sacrificed creature's power": the one creature sacrificed to cast the spell, as it last existed
    (CR 608.2h), which the spell records (object key ``sacrificed``); refused when not recorded."""
    spell = w.objects.get(ctx.stack_id) if ctx.stack_id is not None else None
    known = dict(spell.sacrificed) if spell is not None else {}
    if stat not in known:
        raise ResolutionUnsupported(f"the {stat} of the creature sacrificed to cast it is not recorded "
                                    "(stack key sacrificed)")
    return known[stat]


def _amount(w: _World, ctx: _Ctx, a: Any) -> int:
    if isinstance(a, bool):
        raise ResolutionUnsupported(f"amount {a!r}")
    if isinstance(a, int):
        return a
    if a == "X":
        return ctx.x
    if isinstance(a, ir.Count) and a.what == "returned_to_hand":   # "… returned to your hand this way" (608.2c)
        ids = ctx.targets[a.slot] if 0 <= a.slot < len(ctx.targets) else ()
        return sum(1 for t in ids if (o := w.objects.get(t)) is not None and o.zone == "hand"
                   and o.owner == ctx.controller and not o.token and o.card is not None)
    if isinstance(a, ir.Count):
        src = ctx.source if ctx.source_on_battlefield else None
        return len(w.view().select(a.selector, src, ctx.controller))
    if isinstance(a, str) and a.startswith("sacrificed:"):
        return _sacrificed_amount(w, ctx, a.split(":", 1)[1])
    if isinstance(a, str) and a.startswith("counters:"):
        kind = a.split(":", 1)[1]
        return ctx.source.counter(kind) if ctx.source is not None else 0
    raise ResolutionUnsupported(f"amount {a!r}")


# ===========================================================================
# Effects (CR 608.2c–d and the keyword actions)
# ===========================================================================

@dataclass(frozen=True)
class _DamageSource:
    """What matters about a source of damage when it deals damage: its colors
    (protection, CR 702.16e), whether it has deathtouch (CR 702.2b) or
    lifelink (CR 702.15b), and its controller (who gains the life).  Both
    keywords work from any zone (CR 702.2d, 702.15d): a source that has left
    the battlefield is judged by its last known information."""

    colors: frozenset[str]
    controller: str
    deathtouch: bool = False
    lifelink: bool = False
    types: frozenset[str] = frozenset()     # qualities for protection (CR 702.16e): card types,
    subtypes: frozenset[str] = frozenset()  # subtypes, and whether the source is a spell
    spell: bool = False
    id: str | None = None                   # the object, for prevention shields on its damage (CR 615.7)
    infect: bool = False                    # CR 702.90b: -1/-1 counters to creatures, poison counters to players
    wither: bool = False                    # CR 702.80a: -1/-1 counters to creatures
    toxic: int = 0                          # CR 702.164b-c: its total toxic value


def _damage_keywords(abilities: Iterable[ir.Ability]) -> dict[str, Any]:
    """The keywords that change what damage does (CR 702.90 infect, 702.80 wither, 702.164 toxic: the
    sum of its toxic values), as :class:`_DamageSource` fields."""
    kws = [a for a in abilities if isinstance(a, ir.Keyword)]
    return {"infect": any(a.name == "infect" for a in kws), "wither": any(a.name == "wither" for a in kws),
            "toxic": sum(int(a.arg) for a in kws if a.name == "toxic" and a.arg.isdigit())}


def _damage_source_of(w: _World, oid: str, controller: str, card: Card | None = None,
                      current: bool = True) -> _DamageSource:
    """The object ``oid`` as a source of damage, from its characteristics now
    (on the battlefield or the stack, after layers, when ``current``) or else
    from the printed abilities of ``card`` (default: its card) — its last
    known information as far as the situation records it."""
    o = w.objects.get(oid)
    if current and o is not None and o.zone in ("battlefield", "stack"):
        c = w.view().chars(oid)
        return _DamageSource(c.colors, controller, c.keyword("deathtouch"), c.keyword("lifelink"), c.types,
                             c.subtypes, o.zone == "stack", oid, **_damage_keywords(c.abilities))
    card = card or (o.card if o is not None else None)
    kws = {a.name for a in (card.abilities if card else ()) if isinstance(a, ir.Keyword)}
    colors = printed_colors(card)  # the card data's colors (CR 202.2, 204, 604.3), not only its mana cost's
    return _DamageSource(colors, controller, "deathtouch" in kws, "lifelink" in kws,
                         frozenset(card.data.types) if card else frozenset(),
                         printed_subtypes(card),
                         o is not None and o.zone == "stack", oid, **_damage_keywords(card.abilities if card else ()))


def _deal_damage(w: _World, source: _DamageSource, target: str, amount: int, combat: bool = False) -> int:
    """CR 120.3: damage to a player is life loss; to a creature, marked damage;
    to a planeswalker, loyalty counters removed. 0 damage is not dealt (CR
    120.8); protection prevents damage from sources of that color (CR 702.16e),
    and the prevention shields in force prevent what they apply to (``combat``: combat
    damage; :func:`~solver.engine.transition.prevent`, CR 615.7) — what is prevented is not dealt.
    A creature dealt damage by a source with deathtouch is marked for CR
    704.5h; damage from a source with lifelink makes its controller gain that
    much life, as part of the same event (CR 702.15b, 120.3f). Damage from a
    source with wither or infect is -1/-1 counters on a creature (CR 702.80a,
    702.90b, 120.3d), from one with infect poison counters for a player (120.3b)
    instead of life loss; combat damage to a player from a creature with toxic
    gives that many poison counters more (CR 702.164b).  Returns the damage dealt."""
    if amount <= 0:
        return 0
    if target in w.life:
        amount = prevent(w, source.id, target, amount, combat=combat) if w.prevention else amount
        if amount <= 0:
            return 0
        _damage_event(w, source, target, amount, combat)
        if source.infect:
            give_poison(w, target, amount)   # CR 120.3b, 702.90b: poison counters instead of life loss
        else:
            change_life(w, target, -amount)  # CR 120.3a
        if combat and source.toxic:
            give_poison(w, target, source.toxic)   # CR 702.164b: in addition to the damage's other results
        _lifelink(w, source, amount)
        return amount
    o = w.objects.get(target)
    if o is None or o.zone != "battlefield":
        return 0
    c = w.view().chars(target)

    protected = protected_from(c, source.colors, source.types, source.subtypes, source.spell)  # CR 702.16e
    if c.is_creature and _counters_instead(w, source, o, amount, combat, protected):
        return 0   # not dealt: counters instead (CR 614.1a, 120.8)
    if w.prevention:
        amount = prevent(w, source.id, target, amount, combat=combat, protected=protected)
    elif protected:
        return 0
    if amount <= 0:
        return 0
    if c.is_creature and (source.infect or source.wither):
        o = _withered(w, o, amount)   # CR 120.3d: -1/-1 counters instead of marked damage
        if source.deathtouch:
            w.deathtouched.add(target)
    elif c.is_creature:
        o = o.with_(damage=o.damage + amount)
        if source.deathtouch:
            w.deathtouched.add(target)
    if "Planeswalker" in c.types:
        counters = dict(o.counters)
        counters["loyalty"] = max(0, counters.get("loyalty", 0) - amount)
        o = o.with_(counters=tuple(sorted((k, v) for k, v in counters.items() if v)))
    w.put(o)
    _damage_event(w, source, target, amount, combat)
    _lifelink(w, source, amount)
    return amount


def _withered(w: _World, o: GameObject, amount: int) -> GameObject:
    """``amount`` -1/-1 counters put on creature ``o`` by damage from a source with wither or infect
    (CR 120.3d, 702.80a, 702.90b). Counter replacement effects would apply to them (CR 614.1a): refused
    while any is in force."""
    if w.view().counter_replacements:
        raise ResolutionUnsupported("-1/-1 counters put by damage (wither, infect) with counter replacement "
                                    "effects in force (CR 614.1a) are not modeled")
    adjust_counters(w, o.id, [("-1/-1", amount)])   # the kernel's one way to put counters (CR 122.1)
    return w.objects[o.id]


def _counters_instead(w: _World, source: _DamageSource, o: GameObject, amount: int, combat: bool,
                      protected: bool) -> bool:
    """"If a source you control would deal noncombat damage to a creature an opponent controls, put that
    many -1/-1 counters on that creature instead" (:class:`~solver.core.ir.DamageToCounters`, CR 614.1a):
    when one of the source controller's permanents has it and it applies, the counters are put (CR 122.1)
    and the damage is not dealt — True. Refused where the affected creature's controller would order it
    against prevention (shields, protection, CR 616.1) or counter replacements (122.6), or choose among
    kinds of counters."""
    view = w.view()
    kinds = {a.counter for p in view.state.battlefield if p.controller == source.controller
             for a in view.chars(p.id).abilities if isinstance(a, ir.DamageToCounters)
             and not (a.noncombat and combat)
             and not (a.opponents and o.controller not in w.base.opponents(source.controller))}
    if not kinds:
        return False
    if len(kinds) > 1 or protected or w.prevention or view.counter_replacements:
        raise ResolutionUnsupported(f"damage to {o.id} replaced by counters together with other replacement or "
                                    "prevention effects: its controller orders them (CR 616.1)")
    adjust_counters(w, o.id, [(kinds.pop(), amount)])
    w.changed()
    return True


def _damage_event(w: _World, source: _DamageSource, target: str, amount: int, combat: bool) -> None:
    """The damage event abilities look at ("whenever … deals [combat] damage to a player", CR 603.2)."""
    if source.id is not None:
        w.events.append(DamageDealt(source.id, target, amount, combat))


def _lifelink(w: _World, source: _DamageSource, amount: int) -> None:
    """CR 702.15b: damage dealt by a source with lifelink causes that source's
    controller to gain that much life (in addition to the damage's other results)."""
    if source.lifelink and amount > 0 and source.controller in w.life:
        change_life(w, source.controller, amount)
    w.changed()


def _fight(w: _World, a: str, b: str) -> None:
    """CR 701.14a–d: each deals damage equal to its power to the other (both
    amounts fixed first; damage is dealt simultaneously); a creature fighting
    itself deals twice its power to itself. Not combat damage: trample and
    other combat-damage rules play no part, but deathtouch and lifelink apply
    to any damage (CR 702.2b, 702.15b)."""
    view = w.view()
    for oid in (a, b):
        o = w.objects.get(oid)
        if o is None or o.zone != "battlefield" or not view.chars(oid).is_creature:
            return  # 701.14b
    ca, cb = view.chars(a), view.chars(b)
    pa, pb = max(0, ca.power or 0), max(0, cb.power or 0)
    sa = _damage_source_of(w, a, w.objects[a].controller)
    sb = _damage_source_of(w, b, w.objects[b].controller)
    if a == b:
        _deal_damage(w, sa, a, 2 * pa)  # 701.14c
        return
    _deal_damage(w, sa, b, pa)
    _deal_damage(w, sb, a, pb)


def _recorded_entry(w: _World, ctx: _Ctx) -> int | None:
    """The index in ``w.effects`` of this resolution's entry once recorded — itself, or what it became
    (group sets or X written) — never an entry of the situation the resolution began in."""
    entry = ctx.entry
    if entry is None:
        return None
    for k in range(len(w.effects) - 1, -1, -1):
        e = w.effects[k]
        if e is entry:
            return k
        if not any(e is b for b in w.base.effects) and \
                (e.controller, e.ability, e.card, e.order) == (entry.controller, entry.ability, entry.card, entry.order):
            return k
    return None


def _record_effect_entry(w: _World, ctx: _Ctx) -> None:
    """Record the resolving object's continuous effects in the ``effects`` list
    (once per resolution): ``{card|ability, controller, targets}``."""
    if ctx.entry is None or _recorded_entry(w, ctx) is not None:
        return
    w.effects.append(ctx.entry)
    w.changed()


def _apply_effect(w: _World, ctx: _Ctx, eff: Effect) -> list[_World]:
    """Carry out one effect on branch ``w``; returns the resulting branches. Dispatch is on the
    effect's class (:data:`_EFFECT_HANDLERS`)."""
    handler = _EFFECT_HANDLERS.get(type(eff))
    if handler is None:
        raise ResolutionUnsupported(f"effect '{eff.kind}'")
    return handler(w, ctx, eff)


def _do_damage(w: _World, ctx: _Ctx, eff: ir.Damage) -> list[_World]:
    n = _amount(w, ctx, eff.amount)
    for t in _refs(w, ctx, eff.to):
        _deal_damage(w, ctx.damage_source, t, n)
    return [w]


def _do_if_dealt_damage(w: _World, ctx: _Ctx, eff: ir.IfDealtDamage) -> list[_World]:
    """CR 608.2c: the damage, then ``then`` if a player was dealt damage by it (what was prevented or not dealt
    counts for nothing, CR 120.8, 615.1); the damage's events are dispatched first."""
    n = _amount(w, ctx, eff.damage.amount)
    dealt = [t for t in _refs(w, ctx, eff.damage.to) if _deal_damage(w, ctx.damage_source, t, n) > 0]
    if not any(t in w.life for t in dealt):
        return [w]
    dispatch_events(w)
    return _run_effects(w, ctx, eff.then)


def _do_destroy(w: _World, ctx: _Ctx, eff: ir.Destroy) -> list[_World]:
    """CR 701.8: each permanent named is destroyed (not an indestructible one, 702.12b) through the
    kernel's :func:`~solver.engine.transition.destroy` — a regeneration shield replaces it unless
    "it can't be regenerated" (701.15a-b)."""
    view = w.view()
    for t in _refs(w, ctx, eff.to):
        o = w.objects.get(t)
        if o is not None and o.zone == "battlefield" and not view.chars(t).keyword("indestructible"):
            destroy(w, t, can_regenerate=not eff.cant_be_regenerated)
    return [w]


def _do_lasting(w: _World, ctx: _Ctx, eff: ir.Pump | ir.ThisTurn | ir.Animate) -> list[_World]:
    """CR 611.2a: an effect on the objects named that lasts (until end of turn, this turn): the resolving
    object's effects entry, recorded once when one of them is there (the characteristics view applies it;
    cleanup ends it, CR 514.2)."""
    named = _refs(w, ctx, eff.to)
    if isinstance(eff, ir.Animate) and eff.power is None and any(
            (o := w.objects.get(t)) is not None and o.card is not None and o.card.data.power is None for t in named):
        raise ResolutionUnsupported("a permanent with no printed power and toughness becomes a creature with none "
                                    "stated (CR 208.3)")
    if named:
        _record_effect_entry(w, ctx)
        if isinstance(eff, ir.Pump) and eff.x is not None:
            _fix_x(w, ctx, _amount(w, ctx, eff.x))
        if isinstance(eff, ir.Pump) and eff.chosen_protection:
            return _choose_color(w, ctx)
    return [w]


COLORS = ("W", "U", "B", "R", "G")


def _choose_color(w: _World, ctx: _Ctx) -> list[_World]:
    """"… the color of your choice": the controller chooses one of the five colors as it resolves (CR 105.1,
    608.2d) — one branch per color, written in this resolution's effects entry (``color``) and recorded as
    the choice ``color: {player, color}``. A second choice of a color in one resolution is refused."""
    i = _recorded_entry(w, ctx)
    assert i is not None, "the entry is recorded before its color is chosen"
    if w.effects[i].color is not None:
        raise ResolutionUnsupported("two choices of a color in one resolution (CR 608.2d)")
    out = []
    for color in COLORS:
        v = w.fork()
        v.effects[i] = replace(v.effects[i], color=color)
        v.changed()
        _record_choice(v, "color", {"player": ctx.controller, "color": color})
        out.append(v)
    return out


def _fix_x(w: _World, ctx: _Ctx, value: int) -> None:
    """CR 608.2h: the X of "+X/+X", determined once as the effect is applied, written in this
    resolution's effects entry (``x``); two different values of X in one entry are refused."""
    i = _recorded_entry(w, ctx)
    assert i is not None, "the entry is recorded before X is fixed"
    e = w.effects[i]
    if e.x is not None and e.x != value:
        raise ResolutionUnsupported("two values of X in one effect in force (CR 608.2h)")
    w.effects[i] = replace(e, x=value)
    w.changed()


def _do_until_end_of_turn(w: _World, ctx: _Ctx, eff: ir.UntilEndOfTurn) -> list[_World]:
    _record_effect_entry(w, ctx)
    return [w]


def _do_fight(w: _World, ctx: _Ctx, eff: ir.Fight) -> list[_World]:
    xs, ys = _refs(w, ctx, eff.to), _refs(w, ctx, eff.other)
    if len(xs) == 1 and len(ys) == 1:
        _fight(w, xs[0], ys[0])
    return [w]


def _do_draw_or_mill(w: _World, ctx: _Ctx, eff: ir.Draw | ir.Mill) -> list[_World]:
    n = _amount(w, ctx, eff.amount or 1)
    worlds = [w]
    for p in (_refs(w, ctx, eff.to) if eff.to is not None else [ctx.controller]):
        if p in w.life:  # players only
            worlds = [w3 for w2 in worlds for w3 in _draw(w2, p, n, mill=isinstance(eff, ir.Mill))]
    return worlds


def _do_discard(w: _World, ctx: _Ctx, eff: ir.Discard) -> list[_World]:
    """CR 701.9: the controller, or each player ``eff.to`` names (in turn order; each chooses from
    their own hand, so the choices are independent), discards cards of their choice."""
    n = _amount(w, ctx, eff.amount)
    worlds = [w]
    for p in (_refs(w, ctx, eff.to) if eff.to is not None else [ctx.controller]):
        if p in w.life:  # a player (a target player who left the game is no longer one)
            worlds = [v2 for v in worlds for v2 in _discard_choice(v, p, n)]
    return worlds


def _discard_choice(w: _World, player: str, n: int) -> list[_World]:
    """CR 701.9a: ``player`` discards ``n`` cards of their choice — all of them when the hand holds
    ``n`` or fewer (701.9b) — one branch per distinct multiset of classes of interchangeable cards
    (each class's cards taken in hand order), the cards moved to the graveyard together in hand
    order keeping their timestamps (as :func:`~solver.engine.transition.discard`). Recorded as
    ``discarded`` (ids) when there is a choice."""
    hand = w.zone_list("hand", player)
    if n <= 0 or not hand:
        return [w]
    for o in hand:  # madness, "if a spell or ability causes you to discard this card": not modeled
        unread = discard_unread(o)
        if unread:
            raise ResolutionUnsupported(f"{player} may discard {o.id}; not modeled: {'; '.join(unread)}")
    index: dict[tuple[Hashable, ...], int] = {}
    keys = [index.setdefault(_interchangeable_key(o), len(index)) for o in hand]
    counts = [keys.count(k) for k in range(len(index))]
    picks = [p for p in itertools.product(*(range(c + 1) for c in counts)) if sum(p) == min(n, len(hand))]
    out: list[_World] = []
    for pick in picks:
        v = w.fork() if len(picks) > 1 else w
        taken = {k: 0 for k in range(len(index))}
        ids = []
        for o, k in zip(hand, keys):
            if taken[k] < pick[k]:
                taken[k] += 1
                ids.append(o.id)
        for oid in ids:
            move(v, oid, "graveyard", timestamp=v.objects[oid].timestamp)
        if len(picks) > 1:
            v.choices.setdefault("discarded", []).extend(ids)
        out.append(v)
    return out


def _do_life(w: _World, ctx: _Ctx, eff: ir.GainLife | ir.LoseLife) -> list[_World]:
    n = _amount(w, ctx, eff.amount)
    who = _refs(w, ctx, eff.to) if eff.to is not None else [ctx.controller]
    gain = isinstance(eff, ir.GainLife)
    for p in who:
        if p in w.life:  # a player (CR 119.3); an object can't gain or lose life
            change_life(w, p, n if gain else -n)
    w.changed()
    return [w]


def _last_known(w: _World, oid: str, stat: str = "power") -> tuple[str, int] | None:
    """The controller and ``stat`` (power, toughness or mana value, CR 208, 202.3) of ``oid`` as it
    last existed on the battlefield (CR 608.2h, 113.7a): as it is, when still there; else as it was
    when this resolution began — the reader reads "its controller …" only right after the one
    instruction that removed it, so nothing changed it in between
    (:func:`solver.reader.effects.clause_its_controller`,
    :func:`solver.reader.effects_library.clause_its_controller_life`). None: it was on no battlefield."""
    o = w.objects.get(oid)
    if o is not None and o.zone == "battlefield":
        return o.controller, _stat_of(w.view().chars(oid), stat)
    before = w.base.find(oid)
    if before is None or before.zone != "battlefield":
        return None
    return before.controller, _stat_of(View.of(w.base).chars(oid), stat)


def _stat_of(chars: Any, stat: str) -> int:
    """A permanent's power, toughness or mana value from the characteristics view (CR 613)."""
    value = chars.mana_value if stat == "mana_value" else getattr(chars, stat)
    return value or 0


def _do_gain_life_equal_to(w: _World, ctx: _Ctx, eff: ir.GainLifeEqualTo) -> list[_World]:
    """"You gain life equal to its mana value": the controller gains the last known ``stat`` of the
    removed target (CR 608.2h, 119.3: none for 0 or less)."""
    for t in _refs(w, ctx, eff.of):
        lki = _last_known(w, t, eff.stat)
        if lki is not None and lki[1] > 0:
            change_life(w, ctx.controller, lki[1])
            w.changed()
    return [w]


def _do_its_controller(w: _World, ctx: _Ctx,
                       eff: ir.ItsControllerGainsLife | ir.ItsControllerInvestigates) -> list[_World]:
    """"Its controller gains life equal to its power / toughness / mana value" or "gains N life"
    (CR 608.2h, 119.3: none for 0 or less) / "Its controller investigates" (CR 701.16a: a Clue
    created under that player's control)."""
    worlds = [w]
    for t in _refs(w, ctx, eff.of):
        stat = eff.stat if isinstance(eff, ir.ItsControllerGainsLife) else "power"
        lki = _last_known(w, t, stat)
        if lki is None:
            continue
        player, power = lki
        if isinstance(eff, ir.ItsControllerGainsLife):
            power = eff.fixed if eff.fixed is not None else power
            for v in worlds:
                if power > 0:
                    change_life(v, player, power)
                    v.changed()
            continue
        clue = _token_card(predefined_token("Clue"))
        nxt = []
        for v in worlds:
            nxt.extend(_enter_battlefield(v, create(v, clue, player, token=True), player, x=0))
        worlds = nxt
    return worlds


def _do_if_cast(w: _World, ctx: _Ctx, eff: ir.IfCast) -> list[_World]:
    """"If this spell was kicked, …" (CR 702.33e, 608.2c): ``then`` if the resolving spell (a triggered
    ability's source, as it is or last was) was cast that way, else ``otherwise``."""
    spell = w.objects.get(ctx.stack_id)
    subject = spell if spell is not None and spell.ability is None else ctx.source
    return _run_effects(w, ctx, eff.then if cast_as(subject, eff.how, eff.times) else eff.otherwise)


def _do_if_condition(w: _World, ctx: _Ctx, eff: ir.IfCondition) -> list[_World]:
    """CR 608.2c: ``then`` if the condition holds now for the resolving object's controller (its
    source as it is now — the instructions before may have changed it, "put a counter on it. Then if it
    has three or more …" — or as it last was), else ``otherwise``."""
    now = w.objects.get(ctx.source_id) if ctx.source_id is not None else None
    source = now if now is not None and now.zone == "battlefield" and ctx.source_on_battlefield else ctx.source
    holds = condition_holds(w.view(), eff.condition, source, ctx.controller)
    return _run_effects(w, ctx, eff.then if holds else eff.otherwise)


def _do_sacrifice(w: _World, ctx: _Ctx, eff: ir.Sacrifice) -> list[_World]:
    """CR 701.21a: its controller puts the permanent into its owner's graveyard (indestructible or not),
    if it is still on the battlefield; a creature sacrificed dies (700.4)."""
    for t in _refs(w, ctx, eff.to):
        o = w.objects.get(t)
        if o is not None and o.zone == "battlefield" and not (eff.by_you and o.controller != ctx.controller):
            _move(w, t, "graveyard")   # "sacrifice it": only a permanent you control (701.21a)
    return [w]


def _do_remove_counter(w: _World, ctx: _Ctx, eff: ir.RemoveCounter) -> list[_World]:
    """CR 122.1, 702.62a, 702.32a, 702.63a: a counter removed from the ability's source — the card in exile
    (suspend: still that card in exile) or the permanent (:func:`solver.engine.suspend.remove_counter`)."""
    now = w.objects.get(ctx.source_id) if ctx.source_id is not None else None
    here = now is not None and (now.zone == "exile" if eff.exiled else ctx.source_on_battlefield)
    return remove_counter(w, ctx.source_id if here else None, eff.counter, eff.or_sacrifice)


def _do_cast_suspended(w: _World, ctx: _Ctx, eff: ir.CastSuspended) -> list[_World]:
    """CR 702.62a: the exiled source cast without paying its mana cost, or not
    (:func:`solver.engine.suspend.cast_suspended`)."""
    return cast_suspended(w, ctx.source_id)


def _do_cascade(w: _World, ctx: _Ctx, eff: ir.Cascade) -> list[_World]:
    """CR 702.85a: its controller exiles cards from the top of their library until a nonland card with a
    mana value less than the spell's (its last known one once it has left the stack, 702.85c) is exiled; they
    may cast it without paying its mana cost (:func:`~solver.engine.suspend.cast_without_paying`, choice
    ``cascade``); the exiled cards not cast go on the bottom of the library in a random order — one chance
    outcome per distinct order (:func:`_to_bottom_in_random_order`, choice ``bottom``). A library in random
    order is refused unless its cards are all interchangeable (which card is hit would be a chance outcome
    and the rest would stay random around it)."""
    player, mv = ctx.controller, _cascading_mana_value(w, ctx)
    lib = w.zone_list("library", player)
    _require_libraries(w, player, "cascades (CR 702.85a)")
    if w.random_library(player, "cascades") and len({_interchangeable_key(o) for o in lib}) > 1:
        raise ResolutionUnsupported(f"{player} cascades from a library in random order: which card is hit is a "
                                    "random event and the rest would stay in random order around it")
    exiled: list[str] = []
    hit = None
    for o in lib:
        move(w, o.id, "exile", timestamp=o.timestamp)
        exiled.append(o.id)
        if o.card is not None and "Land" not in o.card.data.types and printed_mana_value(o) < mv:
            hit = o.id
            break
    card = w.objects[hit].card if hit is not None else None
    if hit is not None and (card is None or card.data.layout not in ("normal", "leveler", "saga", "class")):
        raise ResolutionUnsupported(f"casting {w.objects[hit].name}, a card with several faces or halves, by cascade "
                                    "(which face and its mana value, CR 702.85a, 709.3, 712.11) is not modeled")
    worlds = cast_without_paying(w, hit, player, "cascade", "cascade, CR 702.85a", haste=False) if hit else [w]
    out: list[_World] = []
    for v in worlds:
        rest = [v.objects[i] for i in exiled if v.objects[i].zone == "exile"]
        out.extend(_to_bottom_in_random_order(v, player, rest) if rest else [v])
    return out


def _cascading_mana_value(w: _World, ctx: _Ctx) -> int:
    """The cascading spell's mana value: on the stack, its characteristics (X included, CR 202.3e); gone,
    its last known information (CR 702.85c, 608.2h)."""
    o = w.objects.get(ctx.source_id) if ctx.source_id is not None else None
    if o is not None and o.zone == "stack":
        return w.view().chars(o.id).mana_value
    src = ctx.source
    if src is None or src.card is None:
        raise ResolutionUnsupported("cascade whose spell is not known")
    return printed_mana_value(src) + src.x * src.card.data.mana_cost.x_count


def _do_copy_spell(w: _World, ctx: _Ctx, eff: ir.CopySpell) -> list[_World]:
    """CR 702.153a, 702.40a, 707.10, 707.10c: the resolving ability's source — a spell on the stack — is
    copied, once or for storm once per spell cast before it (:func:`solver.engine.copies.copy_spell`), the
    copies controlled by the ability's controller."""
    if ctx.source_id is None or ctx.source_id == ctx.stack_id:
        raise ResolutionUnsupported("'copy this spell' resolving as part of the spell itself")
    n = copies_wanted(w, ctx.source_id, eff.per)   # storm: one per spell cast before it (CR 702.40a)
    return copy_spell(w, ctx.source_id, ctx.controller, ctx.stack_id, eff.new_targets, n)


def _do_nothing(w: _World, ctx: _Ctx, eff: ir.LookAtHand) -> list[_World]:
    return [w]  # no change to the game


def _do_return_to_battlefield(w: _World, ctx: _Ctx, eff: ir.ReturnToBattlefield) -> list[_World]:
    worlds = [w]
    for t in _refs(w, ctx, eff.to):
        worlds = [w3 for w2 in worlds for w3 in _return_to_battlefield(w2, t)]
    return worlds


def _do_counter(w: _World, ctx: _Ctx, eff: ir.CounterSpell) -> list[_World]:
    # CR 701.6a: a countered spell goes to its owner's graveyard (a copy ceases to exist); one that
    # can't be countered stays (CR 101.2)
    for t in _event_spell(w, ctx) if eff.to.kind == "event_object" else _refs(w, ctx, eff.to):
        o = w.objects.get(t)
        if o is not None and o.zone == "stack" and o.ability is None:
            if eff.mv_max is not None and w.view().chars(t).mana_value > eff.mv_max:
                continue   # "if its mana value is N or less" (CR 608.2c, 202.3)
            counter_object(w, t, ctx.stack_id, instead=eff.instead)
    return [w]


def _event_spell(w: _World, ctx: _Ctx) -> list[str]:
    """"Counter that spell" of a cast trigger (CR 601.2i, 603.2): the spell its event named, while it is
    still that spell on the stack (the kernel drops the reference once it moves, CR 400.7)."""
    o = w.objects.get(ctx.event_object) if ctx.event_object is not None else None
    return [o.id] if o is not None and o.zone == "stack" and o.ability is None else []


def _do_counter_unless(w: _World, ctx: _Ctx, eff: ir.CounterUnlessPays) -> list[_World]:
    """CR 118.12, 701.6a: for each (legal) target spell still on the stack, its controller pays
    ``eff.mana`` or not (:func:`_counter_unless`)."""
    worlds = [w]
    mana = eff.mana.with_x(ctx.x) if eff.mana.x_count else eff.mana   # {X}: the value announced (CR 107.3a)
    for t in _refs(w, ctx, eff.to):
        worlds = [v2 for v in worlds for v2 in _counter_unless(v, t, mana, ctx.stack_id, eff.instead)]
    return worlds


def _counter_unless(w: _World, oid: str, mana: Any, resolving: str, instead: str = "") -> list[_World]:
    """The spell ``oid``'s controller declines (it is countered through
    :func:`~solver.engine.ward.counter_object`: to its owner's graveyard, a copy removed, one that
    can't be countered stays, CR 101.2) or pays — every distinct payment of the payment model
    (:func:`solver.payment.answers.payments`, the ``pay`` query's: mana abilities may be activated,
    CR 605.3a) an outcome, paid through the kernel's :func:`~solver.engine.transition.pay`.
    Recorded as ``unless: {player, paid[, payment]}``: the choice is that player's, not the
    resolving object's controller's (:func:`unless_decider`)."""
    o = w.objects.get(oid)
    if o is None or o.zone != "stack" or o.ability is not None:
        return [w]
    player = o.controller
    decline = w.fork()
    _record_choice(decline, "unless", {"player": player, "paid": False})
    counter_object(decline, oid, resolving, instead=instead)
    return [decline] + _paid_worlds(w, player, mana, f"unless {player} pays {mana}")


def _unless_payments(w: _World, player: str, mana: Any, subject: str) -> list[Any]:
    """Every distinct payment of ``mana`` by ``player`` now (CR 118.12, 605.3a)."""
    try:
        return list(payments(w.view(), player, TotalCost(what="cost", mana=mana, subject=subject)))
    except (PaymentUnsupported, UnsupportedCase) as e:
        raise ResolutionUnsupported(f"paying {mana} ({subject}): {e}") from None


def unless_decider(outcomes: Iterable["Outcome"]) -> str | None:
    """Who chooses among resolution outcomes that differ by an "unless" payment (CR 118.12): the
    player the ``unless`` choices name, when every outcome records one such choice of one player
    and no other choice; None when no outcome has one. Outcomes mixing it with another player's
    choices are refused (:class:`ResolutionUnsupported`): following one path of the game, one
    decision has one chooser."""
    return _one_decider(outcomes, "unless", "an 'unless' payment combined with other choices in one resolution")


def search_decider(outcomes: Iterable["Outcome"]) -> str | None:
    """Who chooses among resolution outcomes that differ by another player's search ("Its controller may
    search …", CR 701.23, 608.2d): the player the ``search`` choices name, when every outcome records
    such choices of that one player only and the outcomes differ in nothing else; None when no outcome
    has one. Several players' searches, or one mixed with another choice, are refused
    (:class:`ResolutionUnsupported`): following one path of the game, one decision has one chooser."""
    return _one_decider(outcomes, "search", "another player's search combined with other choices or players in one "
                        "resolution")


def _one_decider(outcomes: Iterable["Outcome"], key: str, what: str) -> str | None:
    """The one player whose ``key`` choices (one each, or a list) every outcome records and in which alone
    the outcomes differ; None when no outcome has one; otherwise refused (``what``): following one path of
    the game, one decision has one chooser."""
    outs = list(outcomes)
    marked = [o for o in outs if key in o.choices]
    if not marked:
        return None
    players = {str(c.get("player")) for o in marked for c in (
        o.choices[key] if isinstance(o.choices[key], list) else [o.choices[key]]) if isinstance(c, dict)}
    if len(players) != 1 or len(marked) != len(outs) or any(set(o.choices) - {key} for o in outs):
        raise ResolutionUnsupported(f"{what}: who chooses each is not modeled when following one path of the game")
    return players.pop()


def _do_skip_untap(w: _World, ctx: _Ctx, eff: ir.SkipUntap) -> list[_World]:
    # "… doesn't untap during its controller's next untap step" (CR 502.3): object key skip_untap
    for t in _refs(w, ctx, eff.to):
        o = w.objects.get(t)
        if o is not None and o.zone == "battlefield" and not o.skip_untap:
            w.put(o.with_(skip_untap=True))
    return [w]


def _do_exile_if_dies(w: _World, ctx: _Ctx, eff: ir.ExileIfDies) -> list[_World]:
    """"If that creature would die this turn, exile it instead" (CR 614.1a, 700.4): object key
    ``exile_if_dies`` on the permanents ``eff.to`` names — or, ``to`` None, on the creatures dealt damage
    this way: damage is dealt during a resolution only by the resolving object (CR 608.2), so a creature
    marked with more damage than as the resolution began was dealt damage by it (CR 120.3e)."""
    if eff.to is not None:
        ids = _refs(w, ctx, eff.to)
    else:
        ids = [o.id for o in w.objects.values() if o.zone == "battlefield" and (b := w.base.find(o.id)) is not None
               and b.zone == "battlefield" and o.damage > b.damage]
    for t in ids:
        o = w.objects.get(t)
        if o is not None and o.zone == "battlefield" and not o.exile_if_dies:
            w.put(o.with_(exile_if_dies=True))
    return [w]


def _do_exile_or_return_to_hand(w: _World, ctx: _Ctx, eff: ir.Exile | ir.ReturnToHand) -> list[_World]:
    # a zone change to the owner's exile / hand (CR 400.7: a new object; a token that
    # leaves the battlefield ceases to exist as a state-based action, CR 704.5d)
    zone = "exile" if isinstance(eff, ir.Exile) else "hand"
    until = isinstance(eff, ir.Exile) and eff.until_source_leaves
    if until and not ctx.source_on_battlefield:
        return [w]   # CR 610.3c: the source left before: the card is not exiled at all
    for t in _refs(w, ctx, eff.to):
        o = w.objects.get(t)
        if o is not None and o.zone == "stack" and o.ability is None and zone == "hand":
            _spell_to_hand(w, o, ctx)
        elif o is not None and o.zone in ("battlefield", "graveyard"):
            if until:
                _move(w, t, zone, exiled_until=ctx.source_id)
            elif zone == "exile" and _links_exiled_card(ctx):
                _move(w, t, zone, exiled_by=ctx.source_id)   # "the exiled card" of a linked ability (CR 607.2a)
            else:
                _move(w, t, zone)
    return [w]


def _links_exiled_card(ctx: _Ctx) -> bool:
    """Does another ability of the resolving object's source, a permanent still on the battlefield, read "the
    exiled card" (:class:`~solver.core.ir.ExiledCardTokens`) — so the card this exiles is linked to it (CR
    607.2a)? A source that left the battlefield is a new object: nothing is linked to it (400.7)."""
    card = ctx.source.card if ctx.source is not None and ctx.source_on_battlefield else None
    return card is not None and any(isinstance(e, ir.ExiledCardTokens) for a in card.abilities
                                    for e in getattr(a, "effects", ()) or ())


def _do_exiled_card_tokens(w: _World, ctx: _Ctx, eff: ir.ExiledCardTokens) -> list[_World]:
    """"The exiled card's owner creates an X/X … token, where X is the mana value of the exiled card" (CR 607.2a,
    111.1): the cards still in exile that the source's linked ability exiled (object key ``exiled_by``); each of
    their owners creates one token, X the total mana value of their cards (CR 202.3: an {X} counts 0); none:
    no token. The links are used up. Refused while the source is on the battlefield again (a new object that
    may have exiled cards of its own: which ones are linked to which is not modeled)."""
    src = w.objects.get(ctx.source_id) if ctx.source_id is not None else None
    if src is not None and src.zone == "battlefield":
        raise ResolutionUnsupported(f"{src.id} is on the battlefield again as its 'the exiled card' ability "
                                    "resolves: which exiled cards are linked to it is not modeled (CR 607.2a)")
    linked = sorted((o for o in w.objects.values() if o.zone == "exile" and o.exiled_by == ctx.source_id),
                    key=lambda o: o.id)
    totals: dict[str, int] = {}
    for o in linked:
        totals[o.owner] = totals.get(o.owner, 0) + printed_mana_value(o)
        w.put(o.with_(exiled_by=None))
    worlds = [w]
    for owner in sorted(totals):
        card = _token_card(eff.token + (("power", totals[owner]), ("toughness", totals[owner])))
        worlds = [v2 for v in worlds for v2 in _enter_battlefield(v, create(v, card, owner, token=True), owner, x=0)]
    return worlds


def _spell_to_hand(w: _World, o: GameObject, ctx: _Ctx) -> None:
    """"Return target spell to its owner's hand": the card leaves the stack for its owner's hand (a new
    object, CR 400.7); a copy of a spell ceases to exist (CR 707.10a)."""
    if o.copy or o.card is None:
        _cease(w, o.id, resolving=ctx.stack_id)
    else:
        _move(w, o.id, "hand")


def _do_tap_or_untap(w: _World, ctx: _Ctx, eff: ir.Tap | ir.Untap) -> list[_World]:
    tap = isinstance(eff, ir.Tap)
    for t in _refs(w, ctx, eff.to):
        o = w.objects.get(t)
        if o is None or o.zone != "battlefield":
            continue
        if tap and not o.tapped:
            w.put(o.with_(tapped=True))
            queue_triggers(w, w.objects[t], ir.BecomesTappedTrigger, w.view().chars(t).abilities)  # City of Brass
        elif not tap and o.tapped:
            w.put(o.with_(tapped=False))
    return [w]


def _do_counters(w: _World, ctx: _Ctx, eff: ir.PutCounters) -> list[_World]:
    worlds = [w]
    n = _amount(w, ctx, eff.amount)
    for t in _refs(w, ctx, eff.to):
        worlds = [w3 for w2 in worlds for w3 in _put_counters(w2, t, eff.counter, n)]
    return worlds


def _do_arrange_top(w: _World, ctx: _Ctx, eff: ir.ArrangeTop) -> list[_World]:
    return _arrange_top(w, ctx.controller, _amount(w, ctx, eff.amount))


def _do_transform(w: _World, ctx: _Ctx, eff: ir.Transform | ir.Flip) -> list[_World]:
    # CR 701.27a (transform) / 710 (flip): the same object turned to its other face (kernel)
    turn = transform if isinstance(eff, ir.Transform) else flip
    for t in _refs(w, ctx, eff.to):
        if turn(w, t):
            _refuse_unread_face(w, t)
    return [w]


def _refuse_unread_face(w: _World, oid: str) -> None:
    """The face a permanent turned to has unread text that could act now ("When this creature
    transforms into …", CR 701.27b; a static or replacement ability): the resolution is refused."""
    unread = face_unread(w.objects[oid])
    if unread:
        raise ResolutionUnsupported(f"{oid} turns to {w.objects[oid].name}; not modeled: " + " ".join(unread))


def _do_return_transformed(w: _World, ctx: _Ctx, eff: ir.ReturnTransformed) -> list[_World]:
    """Exile it, then return it to the battlefield transformed under its owner's control (CR 712.14a:
    a card that isn't a transforming double-faced card stays in exile; the permanent is a new object,
    400.7, with its back face up)."""
    def back(v: _World, t: str, exiled: GameObject) -> list[_World]:
        turned = other_face(exiled) if not exiled.token else None
        return [v] if turned is None else _enter_battlefield(v, t, exiled.owner, x=0, face=turned)
    return _exile_and_return(w, ctx, eff.to, back)


def _do_blink(w: _World, ctx: _Ctx, eff: ir.Blink) -> list[_World]:
    """Exile each permanent named, then return its card to the battlefield at once (CR 400.7: a new
    object) under its owner's or the controller's control (:class:`ir.Blink`); a token doesn't return
    (CR 111.8)."""
    def back(v: _World, t: str, exiled: GameObject) -> list[_World]:
        if exiled.token:
            return [v]
        return _enter_battlefield(v, t, ctx.controller if eff.under == "you" else exiled.owner, x=0, tapped=eff.tapped)
    return _exile_and_return(w, ctx, eff.to, back)


def _do_return_all_from_graveyard(w: _World, ctx: _Ctx, eff: ir.ReturnAllFromGraveyard) -> list[_World]:
    """CR 400.7, 608.2c: every card of the controller's graveyard with the quality enters the battlefield under
    their control (tapped if it says so), with its replacements and "enters" triggers. They enter at once: a
    card whose entering tapped depends on what else is on the battlefield (614.12: "unless you control …") is
    refused when not put there tapped, never counted against the others one by one."""
    ids = [o.id for o in w.zone_list("graveyard", ctx.controller) if _has_quality(o.card, eff.quality)]
    if any((card := w.objects[t].card) is not None and "Aura" in card.data.subtypes for t in ids):
        raise ResolutionUnsupported("an Aura put onto the battlefield without being cast: what it enchants is "
                                    "chosen as it enters (CR 303.4f), not modeled here")
    if not eff.tapped and any(isinstance(a, ir.EntersWith) and (a.unless is not None or a.when is not None)
                              for t in ids if (card := w.objects[t].card) is not None for a in card.abilities):
        raise ResolutionUnsupported("cards entering at once, one entering tapped unless / if a condition on the "
                                    "others (CR 614.12)")
    worlds = [w]
    for t in ids:
        worlds = [v2 for v in worlds for v2 in _enter_battlefield(v, t, ctx.controller, x=0, tapped=eff.tapped)]
    return worlds


def _do_gain_control(w: _World, ctx: _Ctx, eff: ir.GainControl) -> list[_World]:
    """CR 613.1b, 611.2a–b: the effect's controller gains control of each permanent named still on the
    battlefield (:func:`~solver.engine.transition.change_control`); until end of turn, its control goes back
    at cleanup (514.2)."""
    for t in _refs(w, ctx, eff.to):
        o = w.objects.get(t)
        if o is not None and o.zone == "battlefield":
            change_control(w, t, ctx.controller, until_eot=eff.until_eot)
    return [w]


def _do_return_exiled(w: _World, ctx: _Ctx, eff: ir.ReturnExiled) -> list[_World]:
    """CR 603.7c, 400.7: a delayed ability returns the card its exile remembered, if it is still in exile
    and not a token (111.7), to the battlefield under its owner's control or the delayed ability's
    controller's (603.7d) — a new object, its "enters" abilities triggering (603.6a)."""
    worlds = [w]
    for t in _refs(w, ctx, eff.to):
        o = w.objects.get(t)
        if o is None or o.zone != "exile" or o.token:
            continue
        under = ctx.controller if eff.under == "you" else o.owner
        worlds = [v2 for v in worlds for v2 in _enter_battlefield(v, t, under, x=0, tapped=eff.tapped)]
    return worlds


def _exile_and_return(w: _World, ctx: _Ctx, ref: Ref, back: Callable[[_World, str, GameObject], list[_World]]
                      ) -> list[_World]:
    """Each permanent ``ref`` names still on the battlefield is exiled (what was attached to it falls off,
    704.5m) and ``back`` returns its card (CR 400.7: a new object), in every world so far."""
    worlds = [w]
    for t in _refs(w, ctx, ref):
        nxt: list[_World] = []
        for v in worlds:
            o = v.objects.get(t)
            if o is None or o.zone != "battlefield":
                nxt.append(v)
                continue
            exiled = _move(v, t, "exile")
            _detach_from(v, t)
            nxt.extend(back(v, t, exiled))
        worlds = nxt
    return worlds


def _do_meld(w: _World, ctx: _Ctx, eff: ir.Meld) -> list[_World]:
    """"If you both own and control this and a creature named <partner>, exile them, then meld them
    into <into>" (CR 701.42a, 712.4a): with several such creatures the controller chooses one
    (``choices.meld``); without, or if the source isn't theirs on the battlefield, nothing happens."""
    src = w.objects.get(ctx.source_id or "")
    you = ctx.controller
    if src is None or not ctx.source_on_battlefield or src.owner != you or src.controller != you:
        return [w]
    view = w.view()
    partners = sorted(o.id for o in w.objects.values() if o.zone == "battlefield" and o.id != src.id
                      and o.owner == you and o.controller == you and o.front is None and o.card is not None
                      and o.card.name.split(" // ")[0].lower() == eff.partner.lower() and view.chars(o.id).is_creature)
    classes: dict[tuple[Hashable, ...], str] = {}
    for p in partners:      # interchangeable creatures are one choice
        classes.setdefault(_interchangeable_key(w.objects[p]), p)
    partners = sorted(classes.values())
    out = []
    for p in partners:
        v = w.fork() if len(partners) > 1 else w
        if len(partners) > 1:
            v.choices["meld"] = p
        melded = meld(v, src.id, p, eff.into, you)
        if melded is not None:
            _refuse_unread_face(v, melded)
            queue_triggers(v, v.objects[melded], ir.EntersTrigger, v.view().chars(melded).abilities)
        out.append(v)
    return out or [w]


def _detach_from(w: _World, oid: str) -> None:
    """What was attached to ``oid`` is no longer (CR 400.7: the card that left and returns keeps its id
    here, but it is a new object): an Aura then goes to the graveyard, 704.5m."""
    for a in [x for x in w.objects.values() if x.attached_to == oid and x.zone == "battlefield"]:
        attach(w, a.id, None)


def _do_reveal_top(w: _World, ctx: _Ctx, eff: ir.RevealTop) -> list[_World]:
    """Look at the top card of the library and reveal it (the "you may" is the reveal, CR 608.2d):
    if it has the quality, ``then`` happens. The top card must be known: looking at the top of a
    library in random order is refused (what the player then knows, the situation can't say)."""
    player = ctx.controller
    _require_libraries(w, player, "looks at the top card of their library")
    lib = w.zone_list("library", player)
    if not lib:
        return [w]
    if player in w.shuffled and len(lib) > 1 and not w.known_top.get(player):
        raise ResolutionUnsupported(f"{player} looks at the top card of a library in random order")
    if not _has_quality(lib[0].card, eff.quality):
        return [w]
    worlds = [w]
    for e in eff.then:
        worlds = [v2 for v in worlds for v2 in _apply_effect(v, ctx, e)]
    return worlds


def _interchangeable_key(o: GameObject) -> tuple[Hashable, ...]:
    """Objects equal in everything but id and position are interchangeable."""
    return (o.card, o.owner, o.controller, o.tapped, o.sick, o.counters, o.damage, o.attached_to, o.token,
            o.conjured, o.chosen, o.activated_this_turn, o.entered_this_turn, o.skip_untap)


def _draw(w: _World, player: str, n: int, mill: bool = False, exile: PlayPermission | None = None) -> list[_World]:
    """CR 121: draw ``n`` cards one at a time. From a library in random order
    (``shuffled``) the card drawn is a random event: one branch per class of
    interchangeable cards, with its probability. From an empty library: the
    player loses at the next state-based action check (CR 704.5b).

    ``mill`` (CR 701.17a): the top cards go to the graveyard instead, recorded
    as ``milled``; milling from an empty library does nothing (CR 701.17b).
    ``exile`` (CR 406.3, 611.2a): the top cards go to exile instead, each with that permission to play it
    (object key ``may_play``), recorded as ``exiled``; from an empty library nothing is exiled."""
    worlds = [w]
    key = "exiled" if exile is not None else "milled" if mill else "drawn"

    def put(v: _World, oid: str) -> None:
        if exile is not None:
            _move(v, oid, "exile", may_play=exile)
        elif mill:
            _move(v, oid, "graveyard")
        else:
            draw(v, player, oid)

    for _ in range(n):
        nxt: list[_World] = []
        for v in worlds:
            lib = v.zone_list("library", player)
            if not lib:
                if not mill and exile is None:
                    v.drew_empty.add(player)
                nxt.append(v)
                continue
            if player not in v.shuffled or len(lib) == 1 or v.known_top.get(player):
                put(v, lib[0].id)
                nxt.append(v)
                continue
            nxt.extend(_random_top(v, lib, put, key))
        worlds = nxt
    return worlds


def _random_top(v: _World, lib: list[GameObject], put: Callable[[_World, str], None], key: str) -> list[_World]:
    """The top card of a library in random order is a random event (CR 401.2): one branch per class of
    interchangeable cards, with its probability, the card ``put`` where it goes and recorded under ``key``
    (a random result, not a choice)."""
    classes: dict[tuple[Hashable, ...], list[GameObject]] = {}
    for o in lib:
        classes.setdefault(_interchangeable_key(o), []).append(o)
    out = []
    for members in classes.values():
        v2 = v.fork()
        v2.prob *= Fraction(len(members), len(lib))
        put(v2, members[0].id)
        v2.choices.setdefault(key, []).append(members[0].id)
        out.append(v2)
    return out


def _do_exile_top_playable(w: _World, ctx: _Ctx, eff: ir.ExileTopPlayable) -> list[_World]:
    """CR 406.3, 611.2a: the controller exiles the top N cards of their library; they may play them until the
    permission ends (object key ``may_play``; :mod:`solver.rules.play_permissions`)."""
    n = _amount(w, ctx, eff.amount)
    library = {o.id for o in w.zone_list("library", ctx.controller)}
    worlds = _draw(w, ctx.controller, n, exile=PlayPermission(ctx.controller, eff.until, eff.spells_only))
    for v in worlds:
        _exiled_together(v, library)
    return worlds


def _exiled_together(v: _World, library: set[str]) -> None:
    """The cards are exiled at once, and exile has no order (CR 406.3): the ones exiled from ``library`` are
    written in id order, and their random result too, so one set of exiled cards is one outcome."""
    exiled = sorted((o for o in v.objects.values() if o.zone == "exile" and o.id in library), key=lambda o: o.order)
    for o, oid in zip(exiled, sorted(o.id for o in exiled)):
        v.put(v.objects[oid].with_(order=o.order))
    if "exiled" in v.choices:
        v.choices["exiled"] = sorted(v.choices["exiled"])


@lru_cache(maxsize=256)
def _token_card(token: tuple[tuple[str, object], ...]) -> Card:
    """The card of a token described by the IR (MTGJSON field names), built
    exactly as an inline card in a situation file would be."""
    d: dict[str, Any] = dict(token)
    types = list(d.get("types", ()))
    subtypes = list(d.get("subtypes", ()))
    type_line = " ".join(types) + (" — " + " ".join(subtypes) if subtypes else "")
    mapping: dict[str, Any] = {"name": d["name"], "type": type_line, "types": types}
    if subtypes:
        mapping["subtypes"] = subtypes
    if "power" in d:
        mapping["power"] = str(d["power"])
    if "toughness" in d:
        mapping["toughness"] = str(d["toughness"])
    mapping["colors"] = list(d.get("colors", ()))  # CR 111.4: a token's colors are set by the effect
    kws = [str(k).capitalize() for k in d.get("keywords", ())]
    if kws:
        mapping["keywords"] = kws
    text = "\n".join(kws + ([str(d["text"])] if d.get("text") else []))
    if text:
        mapping["text"] = text  # read by the reader as any card's text (a predefined token's, CR 111.10)
    return card_from_mapping(mapping)


def _create_tokens(w: _World, ctx: _Ctx, eff: ir.CreateTokens) -> list[_World]:
    """CR 111.1: create tokens under the controller's control; token
    replacement effects of that player (Doubling Season) multiply the number
    (every order gives the same number, so there is no choice)."""
    n = _amount(w, ctx, eff.amount)
    for s in w.view().token_replacements:
        if s.controller == ctx.controller:
            n *= s.ability.factor
    if n <= 0:
        return [w]
    card = _token_card(_sized(w, ctx, eff) if eff.size is not None else eff.token)
    if eff.attach_source and n != 1:
        raise ResolutionUnsupported(f"{n} tokens created where the effect attaches its source to the one created "
                                    "(living weapon, CR 702.92a): which one is the player's choice, not modeled")
    groups = _attack_groups(w, ctx, eff, n)
    before = set(w.objects)
    worlds = [w]
    for count, defenders in groups:
        for _ in range(count):
            nxt: list[_World] = []
            for v in worlds:
                oid = create(v, card, ctx.controller, token=True)
                v.created.append(oid)
                nxt.extend(_attach_source(v2, ctx, oid) if eff.attach_source else v2
                           for v2 in _enter_battlefield(v, oid, ctx.controller, x=0, tapped=eff.tapped))
            worlds = nxt
    if any(defenders for _, defenders in groups):
        worlds = [v2 for v in worlds for v2 in _enter_attacking(v, groups, before)]
    return worlds


def _sized(w: _World, ctx: _Ctx, eff: ir.CreateTokens) -> tuple[tuple[str, object], ...]:
    """An X/X token's description, X the ability's X or the mana value of the spell ``eff.size`` names (the
    cast trigger's spell, CR 603.2) as the effect resolves: on the stack, its X included (CR 202.3, 107.3). A spell that has
    left the stack is a new object (CR 400.7) whose last known mana value is not recorded: refused."""
    if eff.size == "X":
        mv = ctx.x   # the X paid for the cost (a cycle trigger's: the cycling cost's, CR 702.29c)
    else:
        oid = ctx.event_object if isinstance(eff.size, ir.Ref) and eff.size.kind == "event_object" else None
        o = w.objects.get(oid) if oid is not None else None
        if o is None or o.zone != "stack":
            raise ResolutionUnsupported("an X/X token where X is the mana value of a spell that has left the "
                                        "stack (its last known information, CR 113.7a) is not modeled")
        mv = w.view().chars(o.id).mana_value
    return tuple((k, mv if k in ("power", "toughness") else v) for k, v in eff.token)


def _attach_source(w: _World, ctx: _Ctx, token: str) -> _World:
    """"…, then attach this Equipment to it" (CR 702.92a, 701.3a): the source, still on the battlefield, is
    attached to the token through the kernel's :func:`~.transition.attach` (nothing if it can't be)."""
    src = w.objects.get(ctx.source_id) if ctx.source_id is not None else None
    tok = w.objects.get(token)
    if ctx.source_on_battlefield and src is not None and src.zone == "battlefield" and tok is not None \
            and tok.zone == "battlefield":
        attach(w, src.id, token)
    return w


#: the combat steps in which there are attacking creatures (CR 506.1, 508.1)
_ATTACKING_STEPS = frozenset({"declare_attackers", "declare_blockers", "first_strike_damage", "combat_damage",
                              "end_of_combat"})


def _attack_groups(w: _World, ctx: _Ctx, eff: ir.CreateTokens, n: int) -> list[tuple[int, list[str]]]:
    """The tokens to create in groups (count, what each may attack): one group of ``n`` not attacking, or
    (CR 508.4) attacking a defending player or a planeswalker one controls — "for each opponent": ``n`` per
    opponent, attacking that player (or their planeswalkers). A token that would enter attacking under a
    player who isn't attacking (another player's turn, no combat) enters but isn't attacking (506.3)."""
    if not eff.attacking:
        return [(n, [])]
    opponents = [p for p in w.base.opponents(ctx.controller) if p in w.life and p not in w.losers]
    if eff.attacking.startswith("each_opponent"):
        per = [[p] for p in opponents]
    else:
        per = [opponents]
    if w.base.turn.step not in _ATTACKING_STEPS or w.base.turn.active != ctx.controller:
        if w.base.turn.step == "beginning_of_combat" and w.base.turn.active == ctx.controller:
            raise ResolutionUnsupported("a token entering attacking in the beginning of combat step (CR 506.3, 508.4)")
        return [(n * len(per), [])]
    view = w.view()
    if any("Battle" in view.chars(o.id).types for o in w.base.battlefield):
        raise ResolutionUnsupported("a token entering attacking while a battle could be attacked (CR 508.4, 310)")
    out = []
    for players in per:
        walkers = [o.id for o in sorted(w.base.battlefield, key=lambda x: x.id) if o.controller in players
                   and "Planeswalker" in view.chars(o.id).types] if eff.attacking != "each_opponent" else []
        out.append((n, sorted(players) + walkers))
    return out


def _enter_attacking(w: _World, groups: list[tuple[int, list[str]]], before: set[str]) -> list[_World]:
    """CR 508.4: each token just created (the objects not in ``before``, in order of creation) attacks what
    its controller chooses among its group's defenders — one outcome per distinct assignment, interchangeable
    tokens counted once (the choice ``attacking``: what each attacks, in the tokens' order)."""
    made = [o.id for o in sorted((o for o in w.objects.values() if o.id not in before and o.token),
                                 key=lambda o: o.timestamp)]
    per_group = [list(itertools.combinations_with_replacement(d, k)) if d else [()] for k, d in groups]
    assignments = [tuple(x for part in combo for x in part) for combo in itertools.product(*per_group)]
    out = []
    for a in assignments:
        v = w.fork() if len(assignments) > 1 else w
        for oid, target in zip(made, a):
            o = v.objects.get(oid)
            if o is not None and o.zone == "battlefield":
                v.put(o.with_(attacking=target))
        if len(assignments) > 1:
            v.choices["attacking"] = list(a)
        out.append(v)
    return out


def _conjure(w: _World, ctx: _Ctx, eff: ir.Conjure) -> list[_World]:
    """Conjure (Alchemy; rules reference §1.12): create ``amount`` new cards
    named ``card`` — cards, not tokens — owned by the conjuring player, in
    their ``zone``; then shuffle if told. The shuffled library is written in a
    canonical order and marked ``shuffled`` (contract §2.7)."""
    n = _amount(w, ctx, eff.amount)
    zone = eff.zone
    if zone not in ("hand", "graveyard", "library", "exile", "battlefield"):
        raise ResolutionUnsupported(f"conjure into '{zone}'")
    if zone == "library" and not eff.shuffle:
        raise ResolutionUnsupported("conjure into a library without shuffling (position not modeled)")
    card = db_of(w.state).get(eff.card)  # the database the state was loaded with
    player = ctx.controller
    worlds = [w]
    for _ in range(n):
        nxt = []
        for v in worlds:
            oid = create(v, card, player, conjured=True)
            if zone == "battlefield":
                nxt.extend(_enter_battlefield(v, oid, player, x=0))
            else:
                move(v, oid, zone)
                nxt.append(v)
        worlds = nxt
    if eff.shuffle:
        for v in worlds:
            _shuffle(v, player)
    return worlds


def _has_quality(card: Card | None, f: ir.Filter | None) -> bool:
    """Whether a card in a library is one a search looks for (CR 701.23): ``f``'s ``types``
    (any of), ``supertypes`` (all of), ``subtypes`` (any of) and mana value (``mv_min``/``mv_max``,
    CR 202.3); ``None`` is "a card"."""
    if f is None:
        return card is not None
    if card is None:
        return False
    d = card.data
    return (f.fits_types(set(d.types)) and f.supertypes <= set(d.supertypes)
            and (not f.subtypes or bool(f.subtypes & set(d.subtypes))) and f.colors <= printed_colors(card)
            and _within(d.mana_cost.mana_value, f.mv_min, f.mv_max)
            and _within(_printed_number(card, d.power, f.power_min, f.power_max), f.power_min, f.power_max)
            and _within(_printed_number(card, d.toughness, f.toughness_min, f.toughness_max), f.toughness_min,
                        f.toughness_max))


def _within(v: int | None, lo: int | None, hi: int | None) -> bool:
    """``v`` within the bounds a search states (no bound: anything; a card without the value: no)."""
    if lo is None and hi is None:
        return True
    return v is not None and (lo is None or v >= lo) and (hi is None or v <= hi)


def _printed_number(card: Card, printed: Any, lo: int | None, hi: int | None) -> int | None:
    """A card's printed power or toughness in a library (CR 208.1); a value defined by an ability ("*",
    CR 208.2a) is refused when the search states a bound on it."""
    if lo is None and hi is None or printed is None:
        return None
    text = str(printed)
    if not text.lstrip("-").isdigit():
        raise ResolutionUnsupported(f"{card.name}'s printed power or toughness is {text!r} (CR 208.2a), which a "
                                    "search bound would read")
    return int(text)


def _require_libraries(w: _World, player: str, what: str) -> None:
    """A situation that lists no library at all does not say what a library holds (as for a draw
    in :mod:`solver.engine.turns`): refused. Once any library is listed, a player with none listed has
    an empty library."""
    if not w.shuffled and not w.base.shuffled and not any(o.zone == "library" for o in w.objects.values()) \
            and not any(o.zone == "library" for o in w.base.objects):  # listed before this resolution drew them
        raise ResolutionUnsupported(f"{player} {what} but the situation lists no library; list the libraries "
                                    "(a player with no cards listed has an empty library)")


def _search(w: _World, ctx: _Ctx, eff: ir.SearchLibrary) -> list[_World]:
    """CR 701.23: the controller searches their library for a card with ``eff.quality``
    (its stated quality) and puts it into ``eff.zone`` (hand, or the battlefield under their control —
    tapped if ``eff.tapped`` — with its own replacements and "enters" triggers, CR 614.1c,
    603.6a), then shuffles (CR 701.24, :func:`_shuffle`).

    One outcome per class of interchangeable qualifying cards (choice ``searched``: the id of
    the card found), and — when the search has a stated quality (CR 701.23b) or nothing
    qualifies — one where nothing is found (``searched: null``). "A card" must be found if the
    library holds one (CR 701.23c). The player sees the whole library, so a shuffled library
    changes nothing here: the choice is the same, and it is shuffled again after.

    "Up to N" (``eff.up_to``): one outcome per distinct multiset of classes of at most N cards
    (``searched``: their ids, in library order); ``zone`` ``top``: shuffled, then the card put on
    top (:func:`_shuffle_then_top`). Another player's search (``by_controller_of``, ``each_player``):
    :func:`_searches_by_others`."""
    if eff.by_controller_of is not None or eff.each_player:
        return _searches_by_others(w, ctx, eff)
    return _search_by(w, ctx, eff, ctx.controller)


def _searches_by_others(w: _World, ctx: _Ctx, eff: ir.SearchLibrary) -> list[_World]:
    """"Its controller may search …" (the removed target's controller as it last existed, CR 608.2h;
    they may decline: no search, no shuffle, CR 608.2d) / "Each player searches …" (in turn order,
    each their own library, CR 101.4): each search's choice recorded as ``search: {player, found}``
    (``declined: true`` for a declined one), a list of them when several players search."""
    if eff.each_player:
        players = [p for p in _apnap(w.base) if p in w.life and p not in w.losers]
    else:
        players = [lki[0] for t in _refs(w, ctx, eff.by_controller_of) if (lki := _last_known(w, t)) is not None]
    worlds = [w]
    for p in players:
        nxt: list[_World] = []
        for v in worlds:
            if eff.searcher_may:
                skip = v.fork()
                _record_choice(skip, "search", {"player": p, "declined": True})
                nxt.append(skip)
            nxt.extend(_search_by(v, ctx, eff, p))
        worlds = nxt
    return worlds


def _search_by(w: _World, ctx: _Ctx, eff: ir.SearchLibrary, player: str) -> list[_World]:
    """``player`` searches their own library (:func:`_search`)."""
    _require_libraries(w, player, "searches their library (CR 701.23)")
    out: list[_World] = []
    picks = _search_picks(w, ctx, eff, player)
    for pick in picks:
        v = w.fork() if len(picks) > 1 else w
        if player != ctx.controller or eff.each_player or eff.by_controller_of is not None:
            _record_choice(v, "search", {"player": player, "found": pick[0] if pick else None})
        else:
            v.choices["searched"] = (pick[0] if pick else None) if eff.up_to == 1 else list(pick)
        branch = [v]
        if eff.zone == "top":
            _shuffle_then_top(v, player, pick[0] if pick else None)
            out.append(v)
            continue
        for found in pick:
            if eff.zone == "battlefield":
                branch = [b2 for b in branch for b2 in _enter_battlefield(b, found, player, x=0, tapped=eff.tapped)]
            else:
                for b in branch:   # CR 701.23a: put into the hand
                    move(b, found, "hand", timestamp=b.objects[found].timestamp)
        if eff.shuffle:
            for b in branch:
                _shuffle(b, player)
        out.extend(branch)
    return out


def _do_put_from_hand(w: _World, ctx: _Ctx, eff: ir.PutFromHand) -> list[_World]:
    """CR 608.2c: the controller puts a qualifying card from their own hand (which they see, CR 402.3)
    onto the battlefield (tapped if ``eff.tapped``), entering with its replacements and triggers
    (CR 614.1c, 603.6a); with ``mv_counters``, one whose mana value (CR 202.3) equals the number of those
    counters on the source now (its last known information once gone, CR 113.7a). One outcome per
    class of interchangeable qualifying cards (choice ``put_from_hand``: the card's id); with none,
    nothing happens (``put_from_hand: null``). "You may" (CR 608.2d) is the caller's branch."""
    player = ctx.controller
    need = None
    if eff.mv_counters:
        need = ctx.source.counter(eff.mv_counters) if ctx.source is not None else 0
    classes: dict[tuple[Hashable, ...], GameObject] = {}
    for o in w.zone_list("hand", player):
        if _has_quality(o.card, eff.quality) and (need is None or (
                o.card is not None and o.card.data.mana_cost.mana_value == need)):
            classes.setdefault(_interchangeable_key(o), o)
    finds: list[str | None] = [o.id for o in classes.values()] or [None]
    out: list[_World] = []
    for found in finds:
        v = w.fork() if len(finds) > 1 else w
        v.choices["put_from_hand"] = found
        out.extend(_enter_battlefield(v, found, player, x=0, tapped=eff.tapped) if found is not None else [v])
    return out


def _search_picks(w: _World, ctx: _Ctx, eff: ir.SearchLibrary, player: str) -> list[tuple[str, ...]]:
    """The distinct sets of cards a search of ``player``'s library may find (CR 701.23): each a tuple of
    ids, one per class of interchangeable qualifying cards taken (the first ones of each class in
    library order); the empty pick when the search has a stated quality (701.23b) or nothing
    qualifies (701.23c)."""
    members: dict[tuple[Hashable, ...], list[str]] = {}
    for o in w.zone_list("library", player):
        if _searched_for(o.card, ctx, eff):
            members.setdefault(_interchangeable_key(o), []).append(o.id)
    stated = eff.quality is not None or eff.named_self or bool(eff.or_keyword) or eff.mv_max_x
    if eff.up_to == 1:
        picks = [(ids[0],) for ids in members.values()]
        return picks + ([()] if stated or not picks else [])
    classes = list(members.values())
    out: list[tuple[str, ...]] = []
    for counts in itertools.product(*(range(min(len(ids), eff.up_to) + 1) for ids in classes)):
        if sum(counts) <= eff.up_to:
            out.append(tuple(i for ids, k in zip(classes, counts) for i in ids[:k]))
    return sorted(out, key=lambda pick: (len(pick), pick))


def _searched_for(card: Card | None, ctx: _Ctx, eff: ir.SearchLibrary) -> bool:
    """Whether a library card is one the search looks for: its stated quality (:func:`_has_quality`;
    "with mana value X or less": the spell's X, CR 107.3m), or the printed keyword ``or_keyword``
    ("or a card with flash", CR 702.8), or the source's name (CR 201.4)."""
    if card is None:
        return False
    if eff.named_self:
        return ctx.source is not None and ctx.source.card is not None and card.name == ctx.source.card.name
    quality = eff.quality
    if eff.mv_max_x and quality is not None:
        quality = replace(quality, mv_max=ctx.x)
    if eff.or_keyword and any(isinstance(a, ir.Keyword) and a.name == eff.or_keyword for a in card.abilities):
        return True
    return _has_quality(card, quality)


def _shuffle_then_top(w: _World, player: str, found: str | None) -> None:
    """"Then shuffle and put that card on top" (CR 701.24a, 401.4): the library without the card is
    shuffled and the card put on top. The situation format marks a whole library in random order or
    none of it, so "this card on top, the rest in random order" is written only when the rest is one
    class of interchangeable cards (its order then known); otherwise refused."""
    if found is None:
        _shuffle(w, player)
        return
    rest = sorted((o for o in w.zone_list("library", player) if o.id != found),
                  key=lambda o: (o.card.name if o.card else "", _natural(o.id)))
    _relist_library(w, player, [found] + [o.id for o in rest])
    if len({_interchangeable_key(o) for o in rest}) > 1:
        w.shuffled.add(player)      # the card found on top, known; the rest in random order (``known_top``)
        w.known_top[player] = 1
    else:
        w.known_order(player)
    w.changed()


def _distinct_orders(keys: list[int]) -> list[tuple[int, ...]]:
    """Every distinct order of a multiset of class indices (permutations of equal
    elements are one order), in lexicographic order (:func:`solver.engine.dig.multiset_orders`);
    counted first and refused beyond the dig's :data:`~solver.engine.dig.OUTCOME_LIMIT` (an
    enumeration that would not fit in memory is never started)."""
    dig_check_limit(orders_count(keys), "distinct orders of cards in a library")
    return multiset_orders(keys)


def _arrange_top(w: _World, player: str, n: int) -> list[_World]:
    """Look at the top ``n`` cards of ``player``'s library, then put them back in any order
    (CR 401.4): one outcome per distinct order of those cards (choice ``arranged``: their ids,
    top first); interchangeable cards (same card, same state) are one, and within a class the
    cards keep their relative order, so no outcome is a permutation of another.

    A library in random order (``shuffled``) is refused unless the player sees all of it (or
    all its cards are interchangeable): which cards are on top is then a random event and the
    cards below stay in random order, which the situation format (``shuffled`` marks a whole
    library) cannot say. Seeing the whole library ends its randomness: it is no longer
    ``shuffled``."""
    _require_libraries(w, player, f"looks at the top {n} cards of their library (CR 401.4)")
    lib = w.zone_list("library", player)
    top = lib[:n]
    keys: list[int] = []
    index: dict[tuple[Hashable, ...], int] = {}
    for o in top:
        keys.append(index.setdefault(_interchangeable_key(o), len(index)))
    if w.random_library(player, f"looks at the top {n} cards of their library") and len(index) > 1 and len(lib) > n:
        raise ResolutionUnsupported(
            f"looking at the top {n} cards of {player}'s shuffled library: which cards are on top is a random "
            "event and the rest stays in random order, which the situation format cannot express (its "
            "'shuffled' marks a whole library)")
    if player in w.shuffled and len(lib) <= n:
        w.known_order(player)  # the player looked at every card and chose the order
        w.changed()
    slots = sorted(o.order for o in top)
    members: dict[int, list[GameObject]] = {}
    for o, k in zip(top, keys):
        members.setdefault(k, []).append(o)
    orders = _distinct_orders(keys) if len(index) > 1 else [tuple(keys)]
    out: list[_World] = []
    for order in orders:
        v = w.fork() if len(orders) > 1 else w
        taken = {k: 0 for k in members}
        ids = []
        for slot, k in zip(slots, order):
            o = members[k][taken[k]]
            taken[k] += 1
            ids.append(o.id)
            if v.objects[o.id].order != slot:
                v.put(v.objects[o.id].with_(order=slot))
        if len(orders) > 1:
            v.choices["arranged"] = ids
        out.append(v)
    return out


def _library_classes(w: _World, player: str, n: int, what: str) -> tuple[list[GameObject], list[int]]:
    """``player``'s library and the class of interchangeable cards of each of its cards (an index,
    in order of first appearance), for a player who looks at its top ``n`` cards (CR 701.22a,
    701.25a). As for :func:`_arrange_top`, a library in random order is refused unless the player
    sees all of it (it is then no longer in random order) or all its cards are interchangeable."""
    _require_libraries(w, player, f"{what} (CR 701.22a, 701.25a)")
    lib = w.zone_list("library", player)
    index: dict[tuple[Hashable, ...], int] = {}
    keys = [index.setdefault(_interchangeable_key(o), len(index)) for o in lib]
    if w.random_library(player, what + " of their library") and len(set(keys)) > 1 and len(lib) > n:
        raise ResolutionUnsupported(
            f"{player} {what} of a library in random order: which cards are on top is a random event and the "
            "rest stays in random order, which the situation format cannot express (its 'shuffled' marks a "
            "whole library)")
    if player in w.shuffled and len(lib) <= n:
        w.known_order(player)  # the player sees every card and chooses where each goes
        w.changed()
    return lib, keys


def _splits(keys: list[int]) -> list[tuple[tuple[int, ...], tuple[int, ...]]]:
    """Every distinct split of a multiset of class indices into the cards kept on top (in a
    distinct order) and the others (in a distinct order): a scry's top and bottom (CR 701.22a)."""
    counts: dict[int, int] = {}
    for k in keys:
        counts[k] = counts.get(k, 0) + 1
    classes = sorted(counts)
    out: list[tuple[tuple[int, ...], tuple[int, ...]]] = []
    for moved in itertools.product(*(range(counts[k] + 1) for k in classes)):
        other = [k for k, m in zip(classes, moved) for _ in range(m)]
        stay = [k for k, m in zip(classes, moved) for _ in range(counts[k] - m)]
        out.extend((t, b) for t in _distinct_orders(stay) for b in _distinct_orders(other))
    return out


def _place(lib: list[GameObject], keys: list[int], sequence: list[int]) -> tuple[list[str], list[str]]:
    """The ids of a library whose cards are, top first, of the classes ``sequence`` names, and the
    ids of its cards left over: each class's cards taken in their library order. Interchangeable
    cards (same card, same state) are one: which of them lies where is no distinct situation, so
    every split giving the same sequence of cards gives the same state."""
    queues: dict[int, list[str]] = {}
    for o, k in zip(lib, keys):
        queues.setdefault(k, []).append(o.id)
    placed = [queues[k].pop(0) for k in sequence]
    left = {i for q in queues.values() for i in q}
    return placed, [o.id for o in lib if o.id in left]


def _relist_library(w: _World, player: str, ids: list[str]) -> None:
    """Put ``player``'s library in the order ``ids`` (top first), reusing its order numbers."""
    slots = sorted(o.order for o in w.zone_list("library", player))
    for oid, slot in zip(ids, slots):
        if w.objects[oid].order != slot:
            w.put(w.objects[oid].with_(order=slot))
    w.changed()


def _record_choice(w: _World, key: str, value: dict[str, Any]) -> None:
    """Record a choice (a mapping); a second one of the same key in one resolution makes the record
    the list of them, in order."""
    prev = w.choices.get(key)
    if prev is None:
        w.choices[key] = value
    else:
        w.choices[key] = (prev if isinstance(prev, list) else [prev]) + [value]


def _scry_or_surveil(w: _World, player: str, n: int, surveil: bool) -> list[_World]:
    """CR 701.22a scry / 701.25a surveil ``n``: the top ``n`` cards (:func:`_library_classes`) split
    into those kept on top (in any order) and the others — on the bottom in any order (scry) or into
    the graveyard (surveil; in their library order, as milled cards go, CR 701.17a) — one branch per
    distinct split (:func:`_splits`; for surveil the graveyard's order is not a choice, so splits
    that differ only in it are one), its cards placed by :func:`_place`. Recorded as ``scry: {top,
    bottom}`` / ``surveil: {top, graveyard}`` (ids, top first) when there is more than one split.
    Scry or surveil 0 does nothing (701.22b, 701.25b)."""
    if n <= 0:
        return [w]
    lib, keys = _library_classes(w, player, n, ("surveils " if surveil else "scries ") + str(n))
    seen = keys[:n]
    if not seen:
        return [w]
    splits = _splits(seen)
    if surveil:
        splits = list({(t, tuple(sorted(b))): None for t, b in splits})
    out: list[_World] = []
    for kept, other in splits:
        v = w.fork() if len(splits) > 1 else w
        sequence = list(kept) + keys[len(seen):] + ([] if surveil else list(other))
        placed, left = _place(lib, keys, sequence)
        for oid in left:  # surveil: the cards put into the graveyard
            _move(v, oid, "graveyard")
        _relist_library(v, player, placed)
        if len(splits) > 1:
            top, below = placed[:len(kept)], (left if surveil else placed[len(placed) - len(other):])
            _record_choice(v, "surveil" if surveil else "scry",
                           {"top": top, ("graveyard" if surveil else "bottom"): below})
        out.append(v)
    return out


def _choose_from_top(w: _World, player: str, n: int) -> list[_World]:
    """Look at the top ``n`` cards (:func:`_library_classes`), put one into the hand and the rest on
    the bottom in any order (:class:`~solver.core.ir.ChooseFromTop`): one branch per class of
    interchangeable cards taken and distinct order of the others, the cards placed by
    :func:`_place`; recorded as ``chosen: {hand, bottom}`` (ids, the bottom top first) when there
    is more than one branch."""
    if n <= 0:
        return [w]
    lib, keys = _library_classes(w, player, n, f"looks at the top {n} cards")
    seen = keys[:n]
    if not seen:
        return [w]
    options: list[tuple[int, tuple[int, ...]]] = []
    for k in sorted(set(seen)):
        others = list(seen)
        others.remove(k)
        options.extend((k, order) for order in _distinct_orders(others))
    out: list[_World] = []
    for k, order in options:
        v = w.fork() if len(options) > 1 else w
        placed, _left = _place(lib, keys, [k] + keys[len(seen):] + list(order))
        move(v, placed[0], "hand", timestamp=v.objects[placed[0]].timestamp)
        _relist_library(v, player, placed[1:])
        if len(options) > 1:
            _record_choice(v, "chosen", {"hand": placed[0], "bottom": placed[len(placed) - len(order):]})
        out.append(v)
    return out


def _do_choose_from_top(w: _World, ctx: _Ctx, eff: ir.ChooseFromTop) -> list[_World]:
    return _choose_from_top(w, ctx.controller, _amount(w, ctx, eff.amount))


def _dig_amount(w: _World, ctx: _Ctx, a: Any) -> int:
    """The N of "look at the top N cards": a number, the X paid, or "X is your devotion to <color>"
    (CR 700.5), determined as the instruction resolves (CR 608.2h)."""
    if isinstance(a, ir.Count) and a.what == "devotion":
        return count_value(w.view(), a, ctx.source, ctx.controller, ctx.x)
    return _amount(w, ctx, a)


def _do_dig(w: _World, ctx: _Ctx, eff: ir.Dig) -> list[_World]:
    """:class:`~solver.core.ir.Dig` (CR 401.5, 608.2c): the controller looks at the top N cards of
    their library — of a library in random order, what is seen is a random event, one branch per
    distinct sequence of cards on top with its probability (:func:`solver.engine.dig.seen_sequences`)
    — then chooses the cards taken among the distinct cards seen (:func:`solver.engine.dig.takes`)
    and, for the rest on the bottom "in any order", their order; "in a random order" is a random
    event (every distinct order equally likely). Recorded as ``dug: {into: {<to>}, rest: {<where>}}``
    (ids, in the order placed) when there is more than one branch, the cards seen of a library in random order
    as ``looked_at`` (a random result: top first where a graveyard keeps their order, else sorted)."""
    owners = _refs(w, ctx, eff.whose)
    if not owners or owners[0] not in w.life:
        return [w]   # its target player is no longer a legal target (CR 608.2b)
    player = owners[0]
    n = _dig_amount(w, ctx, eff.amount)
    _require_libraries(w, player, f"looks at the top {n} cards of a library (CR 401.5)")
    lib = w.zone_list("library", player)
    if n <= 0 or not lib:
        return [w]
    index: dict[tuple[Hashable, ...], int] = {}
    keys = [index.setdefault(_interchangeable_key(o), len(index)) for o in lib]
    random_order = player in w.shuffled and len(index) > 1
    out: list[_World] = []
    ordered = not random_order or "graveyard" in (eff.to, eff.rest) or eff.rest == "stay"   # their order kept
    for seen, p in (dig_seen_sequences(keys, n, random_order) if ordered else dig_seen_multisets(keys, n)):
        out.extend(_dig_from(w, ctx, eff, player, lib, keys, seen, p, random_order))
        dig_check_limit(len(out), "outcomes of looking at the top of a library")
    return out


def _dig_from(w: _World, ctx: _Ctx, eff: ir.Dig, player: str, lib: list[GameObject], keys: list[int],
              seen: tuple[int, ...], p: Fraction, random_order: bool) -> list[_World]:
    """The branches of :func:`_do_dig` once the cards on top are the classes ``seen`` (top first)."""
    queues: dict[int, list[str]] = {}
    for o, k in zip(lib, keys):
        queues.setdefault(k, []).append(o.id)
    seen_ids = [queues[k].pop(0) for k in seen]
    unseen = [i for i in (o.id for o in lib) if i not in set(seen_ids)]
    card = {k: o for o, k in zip(reversed(lib), reversed(keys))}

    def eligible(k: int) -> bool:
        c = card[k].card
        return _has_quality(c, eff.quality) and (eff.to != "battlefield" or _is_permanent_card(c))

    chosen = dig_takes(seen, eligible, eff.take, eff.exact, lambda k: printed_mana_value(card[k]), eff.total_mv_max,
                       rest_ordered="graveyard" in (eff.to, eff.rest) or eff.rest == "stay")
    branches: list[tuple[list[str], list[str], Fraction]] = []
    for pos in chosen:
        taken = [seen_ids[i] for i in sorted(pos, key=lambda i: (seen[i], i))]   # put there at once: one order
        rest = [seen_ids[i] for i in range(len(seen)) if i not in pos]
        for top in (_dig_orders(w, taken) if eff.to in ("top", "bottom") else [taken]):
            rests = _dig_orders(w, rest) if eff.rest in ("bottom", "bottom_random") else [rest]
            q = Fraction(1, len(rests)) if eff.rest == "bottom_random" else Fraction(1)
            branches.extend((*_dig_canonical(w, lib, seen_ids, [top, order]), q) for order in rests)
        dig_check_limit(len(branches), "choices among the cards looked at")
    out: list[_World] = []
    for taken_ids, rest_ids, q in branches:
        v = w.fork() if len(branches) > 1 or random_order else w
        v.prob *= p * q
        if random_order:
            v.choices["looked_at"] = _dig_seen_record(eff, seen_ids)   # a random result, not a choice
        out.extend(_dig_place(v, ctx, eff, player, (unseen, taken_ids, rest_ids), random_order, len(branches) > 1))
    return out


def _dig_canonical(w: _World, lib: list[GameObject], seen_ids: list[str], groups: list[list[str]]) -> tuple[list[str], list[str]]:
    """The cards of ``groups`` (taken, rest) renamed so that which of interchangeable cards goes where
    depends only on the classes each group holds: each class's cards seen, in library order, are
    given out group by group. Two branches putting the same cards in the same places are then one
    situation (CR 608.2c: interchangeable cards are one choice)."""
    position = {o.id: i for i, o in enumerate(lib)}
    queues: dict[tuple[Hashable, ...], list[str]] = {}
    for i in sorted(seen_ids, key=position.__getitem__):
        queues.setdefault(_interchangeable_key(w.objects[i]), []).append(i)
    taken, rest = ([queues[_interchangeable_key(w.objects[i])].pop(0) for i in g] for g in groups)
    return taken, rest


def _dig_orders(w: _World, ids: list[str]) -> list[list[str]]:
    """Every distinct order of the cards ``ids`` (CR 401.4; interchangeable cards are one, each
    class's cards kept in their relative order)."""
    index: dict[tuple[Hashable, ...], int] = {}
    keys = [index.setdefault(_interchangeable_key(w.objects[i]), len(index)) for i in ids]
    out = []
    for order in dig_distinct_orders(keys):
        queues: dict[int, list[str]] = {}
        for i, k in zip(ids, keys):
            queues.setdefault(k, []).append(i)
        out.append([queues[k].pop(0) for k in order])
    return out


def _dig_place(v: _World, ctx: _Ctx, eff: ir.Dig, player: str, cards: tuple[list[str], list[str], list[str]],
               random_order: bool, record: bool) -> list[_World]:
    """Put the cards of one branch of :func:`_do_dig` where they go (``cards``: those not seen, those
    taken, the rest): the rest into the graveyard (in library order), into exile (with their counter),
    on the bottom (in the order given) or where they are; the taken on top, on the bottom, into the
    hand or graveyard, or onto the battlefield (:func:`_enter_battlefield`, last); "if you do, you
    lose life equal to its mana value" (CR 119.3). A library in random order stays so when no card
    seen stays in it (it is written canonically); otherwise the cards not seen must be
    interchangeable (their order then known) or the situation can't be written: refused."""
    unseen, taken, rest = cards
    if record:
        _dig_record(v, ctx, eff, taken, rest)
    for oid in (rest if eff.rest == "graveyard" else []) + (taken if eff.to == "graveyard" else []):
        _move(v, oid, "graveyard")
    for oid in rest if eff.rest == "exile" else []:
        if eff.rest_counter:
            _move(v, oid, "exile", counters=((eff.rest_counter, 1),))   # "with a silver counter on it" (CR 122.1)
        else:
            _move(v, oid, "exile")
    for oid in taken if eff.to == "hand" else []:
        move(v, oid, "hand", timestamp=v.objects[oid].timestamp)
        if eff.lose_life_mv:
            change_life(v, ctx.controller, -printed_mana_value(v.objects[oid]))
    library = ((taken if eff.to == "top" else []) + (rest if eff.rest == "stay" else []) + unseen
               + (rest if eff.rest in ("bottom", "bottom_random") else []) + (taken if eff.to == "bottom" else []))
    stays = len(library) > len(unseen)
    if stays:
        _relist_library(v, player, library)
    if random_order:
        _dig_still_random(v, player, unseen, stays)
    elif player in v.shuffled and len(unseen) == 0:
        v.shuffled.discard(player)   # the player saw every card and chose where each goes
        v.changed()
    worlds = [v]
    for oid in taken if eff.to == "battlefield" else []:
        worlds = [u for x in worlds for u in _enter_battlefield(x, oid, ctx.controller, 0, tapped=eff.tapped)]
    return worlds


def _dig_seen_record(eff: ir.Dig, seen: list[str]) -> list[str]:
    """The ids of the cards seen of a library in random order (top first), as recorded: sorted, unless
    their order is kept (a graveyard, or left where they are)."""
    ordered = "graveyard" in (eff.to, eff.rest) or eff.rest == "stay"
    return list(seen) if ordered else sorted(seen, key=_natural)


def _dig_record(v: _World, ctx: _Ctx, eff: ir.Dig, taken: list[str], rest: list[str]) -> None:
    """``dug: {into: {<to>: ids}, rest: {<where>: ids}}`` (the controller's choice) or ``opponent_chose:
    {player, into, rest}`` ("An opponent chooses", CR 608.2d: in a two-player game, the one opponent;
    more are refused). The cards taken come first in the record's key order, so that a game's decision
    among many outcomes is made feature by feature, what is taken before the order of the rest
    (:class:`solver.api.encoding.OptionPicker`)."""
    where = {"graveyard": "graveyard", "exile": "exile", "stay": "left"}.get(eff.rest, "bottom")
    value: dict[str, Any] = {"into": {eff.to: taken}, "rest": {where: rest}}
    if eff.chooser != "opponent":
        _record_choice(v, "dug", value)
        return
    opponents = _players_in_game(v, ctx, Ref("each_opponent"))
    if len(opponents) != 1:
        raise ResolutionUnsupported("an opponent chooses among the cards revealed, with more than one opponent: "
                                    "which opponent chooses is not modeled")
    _record_choice(v, "opponent_chose", {"player": opponents[0], **value})


def opponent_choice_decider(outcomes: Iterable["Outcome"]) -> str | None:
    """Who chooses among resolution outcomes that differ by an opponent's choice among revealed cards
    ("An opponent chooses one of them", CR 608.2d): the player the ``opponent_chose`` choices name
    (as :func:`search_decider`)."""
    return _one_decider(outcomes, "opponent_chose", "an opponent's choice combined with other choices in one "
                        "resolution")


def _dig_still_random(v: _World, player: str, unseen: list[str], stays: bool) -> None:
    """After looking at the top of a library in random order (CR 701.24a): the cards not seen stay in
    random order. With no card seen left in it, the library is still one in random order; with cards
    seen left in it, it is known only when the cards not seen are interchangeable."""
    if not stays:
        _shuffle(v, player) if unseen else v.shuffled.discard(player)
        v.changed()
        return
    if len({_interchangeable_key(v.objects[i]) for i in unseen}) > 1:
        raise ResolutionUnsupported(f"{player} puts cards looked at back into a library in random order: the "
                                    "situation format cannot say 'these cards here, the rest in random order'")
    v.shuffled.discard(player)
    v.changed()


def _do_exiled_to_hand(w: _World, ctx: _Ctx, eff: ir.ExiledToHand) -> list[_World]:
    """:class:`~solver.core.ir.ExiledToHand`: one branch per class of interchangeable cards the
    controller owns in exile with a ``eff.counter`` counter (CR 122.1), the card chosen put into
    their hand (recorded as ``returned`` when there is a choice); none: nothing happens."""
    pool = [o for o in w.zone_list("exile") if o.owner == ctx.controller and o.counter(eff.counter) > 0]
    classes: dict[tuple[Hashable, ...], GameObject] = {}
    for o in pool:
        classes.setdefault(_interchangeable_key(o), o)
    out: list[_World] = []
    for o in classes.values():
        v = w.fork() if len(classes) > 1 else w
        move(v, o.id, "hand")
        if len(classes) > 1:
            v.choices.setdefault("returned", []).append(o.id)   # as "return … you control" records it
        out.append(v)
    return out or [w]


def _do_pile_on_top(w: _World, ctx: _Ctx, eff: ir.PileOnTop) -> list[_World]:
    """:class:`~solver.core.ir.PileOnTop` (Doomsday; CR 701.23a, 401.4): one outcome per distinct
    sequence of N cards (all when fewer) of the controller's library and graveyard (interchangeable
    cards are one; they are looked at, so the library's order no longer matters), put on top in that
    order; the rest of both exiled (library order, then graveyard order). The library is then
    exactly the cards chosen, a known order. Recorded as ``pile`` (ids, top first) when there is a
    choice; more than :data:`solver.engine.dig.OUTCOME_LIMIT` sequences are refused."""
    player = ctx.controller
    _require_libraries(w, player, "searches their library and graveyard (CR 701.23a)")
    pool = w.zone_list("library", player) + w.zone_list("graveyard", player)
    index: dict[tuple[Hashable, ...], int] = {}
    keys = [index.setdefault(_pile_key(o), len(index)) for o in pool]
    sequences = [seq for seq, _p in dig_seen_sequences(keys, _amount(w, ctx, eff.amount), True)]
    out: list[_World] = []
    for seq in sequences:
        v = w.fork() if len(sequences) > 1 else w
        queues: dict[int, list[str]] = {}
        for o, k in zip(pool, keys):
            queues.setdefault(k, []).append(o.id)
        chosen = [queues[k].pop(0) for k in seq]
        for oid in [o.id for o in pool if o.id not in set(chosen)]:
            _move(v, oid, "exile")
        for oid in chosen:
            if v.objects[oid].zone != "library":
                move(v, oid, "library", timestamp=v.objects[oid].timestamp)
        _relist_library(v, player, chosen)
        v.shuffled.discard(player)
        v.changed()
        if len(sequences) > 1:
            v.choices["pile"] = chosen
        out.append(v)
    return out


def _pile_key(o: GameObject) -> tuple[Hashable, ...]:
    """A card's class for :func:`_do_pile_on_top`: a card in the graveyard and one in the library are
    interchangeable when they would be the same card in the library or exile (CR 400.7: a new object)."""
    return (o.card, o.owner, o.token, o.conjured)


def _do_lose_half_life(w: _World, ctx: _Ctx, eff: ir.LoseHalfLife) -> list[_World]:
    """"You lose half your life, rounded up" (CR 107.1a, 119.3): of a positive life total; none of 0 or
    less."""
    life = w.life[ctx.controller]
    if life > 0:
        change_life(w, ctx.controller, -((life + 1) // 2))
    return [w]


def _do_exile_library(w: _World, ctx: _Ctx, eff: ir.ExileLibrary) -> list[_World]:
    """:class:`~solver.core.ir.ExileLibrary`: every card of the library of each player ``eff.of`` names
    (a legal target still in the game) is exiled, in library order (CR 406.1). Of a library in random
    order that order would be random: refused unless its cards are interchangeable."""
    for p in _players_in_game(w, ctx, eff.of):
        lib = w.zone_list("library", p)
        if p in w.shuffled and len({_interchangeable_key(o) for o in lib}) > 1:
            raise ResolutionUnsupported(f"{p}'s library in random order exiled: the order of exile would be random")
        for o in lib:
            _move(w, o.id, "exile")
    return [w]


def _do_shuffle_hand_into_library(w: _World, ctx: _Ctx, eff: ir.ShuffleHandIntoLibrary) -> list[_World]:
    """:class:`~solver.core.ir.ShuffleHandIntoLibrary` (CR 701.24a): the hand of each player ``eff.who``
    names into their library, shuffled (written canonically and marked ``shuffled``)."""
    for p in _players_in_game(w, ctx, eff.who):
        for o in w.zone_list("hand", p):
            move(w, o.id, "library", timestamp=o.timestamp)
        _shuffle(w, p)
    return [w]


def _do_win_if_library_at_most(w: _World, ctx: _Ctx, eff: ir.WinIfLibraryAtMost) -> list[_World]:
    """CR 104.2b: the controller wins the game if the amount (determined now, CR 608.2h) is at least
    the number of cards in their library; each other player still in the game loses (CR 104.1: the
    game is over)."""
    if _dig_amount(w, ctx, eff.amount) >= len(w.zone_list("library", ctx.controller)):
        for p in _players_in_game(w, ctx, Ref("each_opponent")):
            w.losers.add(p)
            w.changed()
    return [w]


def _do_shuffle(w: _World, ctx: _Ctx, eff: ir.Shuffle) -> list[_World]:
    _require_libraries(w, ctx.controller, "shuffles their library (CR 701.24a)")
    _shuffle(w, ctx.controller)
    return [w]


def _hand_on_top(w: _World, player: str, n: int) -> list[_World]:
    """Put ``n`` cards from ``player``'s hand on top of their library in any order (all of them when
    the hand holds fewer; CR 401.4): one branch per distinct sequence of classes of interchangeable
    cards (each class's cards taken in hand order), the first of the sequence on top; recorded as
    ``put_on_top`` (ids, top first) when there is a choice. A library in random order stays so below
    them, which the situation format cannot say: refused unless it is empty."""
    hand = w.zone_list("hand", player)
    k = min(n, len(hand))
    if k <= 0:
        return [w]
    _require_libraries(w, player, "puts cards from their hand on top of their library")
    on_random = w.random_library(player, "puts cards on top of their library") and bool(w.zone_list("library", player))
    index: dict[tuple[Hashable, ...], int] = {}
    keys = [index.setdefault(_interchangeable_key(o), len(index)) for o in hand]
    sequences = sorted({seq for combo in itertools.combinations(keys, k) for seq in itertools.permutations(combo)})
    out: list[_World] = []
    for seq in sequences:
        v = w.fork() if len(sequences) > 1 else w
        placed, _left = _place(hand, keys, list(seq))
        lib = [o.id for o in v.zone_list("library", player)]
        for oid in placed:
            move(v, oid, "library", timestamp=v.objects[oid].timestamp)
        _relist_library(v, player, placed + lib)
        if on_random:   # these on top, known; the rest still in random order (``known_top``)
            v.known_top[player] = len(placed)
        if len(sequences) > 1:
            v.choices["put_on_top"] = placed
        out.append(v)
    return out


def _do_hand_on_top(w: _World, ctx: _Ctx, eff: ir.PutFromHandOnTop) -> list[_World]:
    return _hand_on_top(w, ctx.controller, _amount(w, ctx, eff.amount))


def _do_scry_or_surveil(w: _World, ctx: _Ctx, eff: ir.Scry | ir.Surveil) -> list[_World]:
    return _scry_or_surveil(w, ctx.controller, _amount(w, ctx, eff.amount), isinstance(eff, ir.Surveil))


def _natural(s: str) -> tuple[int | str, ...]:
    return tuple(int(p) if p.isdigit() else p for p in re.split(r"(\d+)", s))


def _shuffle(w: _World, player: str) -> None:
    """CR 701.24: the library is in random order: written canonically (by
    card name, then id) and marked ``shuffled``; never expanded into orders."""
    lib = w.zone_list("library", player)
    lib.sort(key=lambda o: (o.card.name if o.card else "", _natural(o.id)))
    for i, o in enumerate(lib):
        w.objects[o.id] = o.with_(order=i)
    w.shuffled.add(player)
    w.known_top.pop(player, None)
    w.changed()


def _counter_outcomes(w: _World, oid: str, counter: str, amount: int, entering: bool, x: int) -> list[tuple[int, Any]]:
    """The distinct numbers of counters actually put, each with the
    replacement orders leading to it, from the one ordering mechanism
    (:func:`solver.rules.replacement.counter_event_outcomes`)."""
    if amount <= 0 and not entering:
        return [(0, None)]
    res = counter_event_outcomes(w.view(), oid, counter, amount, entering, x)
    return [_decode_counter_outcome(r, counter) for r in res]


def _decode_counter_outcome(r: Any, counter: str) -> tuple[int, Any]:
    """Accepts the ordering helper's outcome objects: a mapping or an object
    with ``counters``/``result`` and ``orders``."""
    get: Callable[[str], Any] = (lambda k: r.get(k)) if isinstance(r, dict) else (lambda k: getattr(r, k, None))
    orders = get("orders")
    res = get("counters")
    if res is None:
        res = get("result")
        if isinstance(res, dict) and "counters" in res:
            res = res["counters"]
    if isinstance(res, dict):
        n = int(res.get(counter, 0))
    elif isinstance(res, int):
        n = res
    else:
        n = int(get("amount"))
    if orders is not None:
        orders = [list(o) for o in orders]
    return n, orders


def _put_counters(w: _World, oid: str, counter: str, amount: int) -> list[_World]:
    """CR 122.6: put counters on a permanent, through the replacement orders."""
    o = w.objects.get(oid)
    if o is None or o.zone != "battlefield":
        return [w]
    outs = _counter_outcomes(w, oid, counter, amount, False, 0)
    worlds = []
    for n, orders in outs:
        v = w.fork() if len(outs) > 1 else w
        if n > 0:
            c = dict(v.objects[oid].counters)
            c[counter] = c.get(counter, 0) + n
            v.put(v.objects[oid].with_(counters=tuple(sorted((k, m) for k, m in c.items() if m))))
        if len(outs) > 1:
            _note_orders(v, oid, counter, orders)
        worlds.append(v)
    return worlds


def _note_orders(w: _World, oid: str, counter: str, orders: Any) -> None:
    """Record, as a choice, the replacement orders that give this result (only
    called when different orders give different results)."""
    if orders:
        w.add_choice("replacements", {"object": oid, "counter": counter, "orders": orders})


def _enter_battlefield(w: _World, oid: str, controller: str, x: int, attach_to: str | None = None,
                       token: bool | None = None, tapped: bool = False,
                       face: tuple[Card, Card | None] | None = None) -> list[_World]:
    """An object enters the battlefield (:func:`_enter_paid`), after its controller's choice of "As this
    land enters, you may pay N life. If you don't, it enters tapped." (CR 614.12: made as it would enter;
    paying only with N or more life, 119.4): one world per choice, recorded as ``pay_life``."""
    o = w.objects[oid]
    n = life_choice(entering_with(o.card, cast=o))
    if not n:
        return _enter_paid(w, oid, controller, x, attach_to, token, tapped, face)
    ways = (False, True) if may_pay_life(w.view(), controller, n) else (False,)
    out: list[_World] = []
    for paid in ways:
        v = w.fork() if len(ways) > 1 else w
        v.add_choice("pay_life", {"object": oid, "paid": paid})
        if paid:
            change_life(v, controller, -n)
        out += _enter_paid(v, oid, controller, x, attach_to, token, tapped, face, paid)
    return out


def _enter_paid(w: _World, oid: str, controller: str, x: int, attach_to: str | None = None,
                token: bool | None = None, tapped: bool = False,
                face: tuple[Card, Card | None] | None = None, paid: bool = False) -> list[_World]:
    """An object enters the battlefield under ``controller``'s control (CR 608.3,
    110.2), with its own "enters tapped / with counters" replacements (CR
    614.1c; X from the spell, CR 107.3m) applied through the ordering
    mechanism; its "when this enters" abilities trigger (CR 603.6a). The object enters
    through the kernel's :func:`~solver.engine.transition.move`, with the status these give it.
    ``tapped``: the effect putting it there says "tapped"; ``face``: ``(card, front)`` of the face it
    enters with ("return it to the battlefield transformed", CR 712.14a)."""
    o = w.objects[oid]
    # its loyalty (CR 306.5b), lore (714.3a) or defense (310.4b) counters and "enters with" effects (614.1c)
    ew = entering_with(o.card, cast=o)
    tapped = tapped or any(enters_tapped(w.view(), a, o, controller, paid) for a in ew)
    # the object as it would enter, controlled by `controller`, for the replacement mechanism (CR 614.12)
    if o.controller != controller:
        w.put(o.with_(controller=controller))
    branches: list[tuple[_World, dict[str, int]]] = [(w, {})]
    for a in ew:
        if not a.counter:
            continue
        amt = a.amount
        if amt == "X":
            n = x
        elif isinstance(amt, int):
            n = amt
        elif isinstance(amt, ir.Count):
            n = len(w.view().select(amt.selector, None, controller))
        else:
            raise ResolutionUnsupported(f"enters with {amt!r} counters")
        nxt = []
        for v, cs in branches:
            outs = _counter_outcomes(v, oid, a.counter, n, True, x)
            for m, orders in outs:
                v2 = v.fork() if len(outs) > 1 else v
                cs2 = dict(cs)
                if m > 0:
                    cs2[a.counter] = cs2.get(a.counter, 0) + m
                if len(outs) > 1:
                    _note_orders(v2, oid, a.counter, orders)
                nxt.append((v2, cs2))
        branches = nxt
    # "As this enters, choose a color [other than …]" (CR 614.12): one branch per color the
    # controller may choose; the choice becomes the permanent's `chosen` color
    if any(a.choose == "creature type" for a in ew):
        # one outcome per creature type (CR 205.3m lists hundreds): not enumerated
        raise ResolutionUnsupported(f"{o.name} enters with a creature type chosen (not enumerated)")
    if any(a.choose in ("card name", "nonland card name") for a in ew):
        # one outcome per card name (CR 201.3): not enumerated
        raise ResolutionUnsupported(f"{o.name} enters with a card name chosen (not enumerated)")
    choose = [a for a in ew if a.choose == "color"]
    if choose:
        allowed = [c for c in COLORS if not any(c in a.choose_except for a in choose)]
        chosen_branches: list[tuple[_World, dict[str, int], tuple[tuple[str, str], ...]]] = []
        for v, cs in branches:
            for c in allowed:
                v2 = v.fork() if len(allowed) > 1 else v
                v2.add_choice("chosen", {"object": oid, "color": COLOR_NAMES[c]})
                chosen_branches.append((v2, cs, (("color", COLOR_NAMES[c]),)))
    else:
        chosen_branches = [(v, cs, ()) for v, cs in branches]
    out = []
    for v, cs, chosen in chosen_branches:
        cur = v.objects[oid]
        shown: dict[str, Any] = {} if face is None else {"card": face[0], "front": face[1]}
        new = move(v, oid, "battlefield", controller=controller, tapped=tapped, sick=True,
                   counters=tuple(sorted(cs.items())), attached_to=attach_to, chosen=chosen,
                   token=cur.token if token is None else token, **(shown or _face_entering(cur)))
        if new.front is not None:   # it entered with another face up (at night, "transformed", an MDFC's back)
            _refuse_unread_face(v, oid)
        # CR 603.6a: its "when this enters" abilities (one it doesn't have now doesn't trigger)
        queue_triggers(v, new, ir.EntersTrigger, v.view().chars(oid).abilities)
        out.append(v)
    return out


def _face_entering(o: GameObject) -> dict[str, Any]:
    """The face a permanent spell enters with: a modal double-faced card cast as its back face
    enters with that face up (CR 712.14), and so does a transforming double-faced card cast
    transformed (702.146b: with disturb); any other object enters front face up (``move``). The permanent
    keeps the spell's cast record (:func:`_cast_record`)."""
    cast = _cast_record(o)
    if o.zone == "stack" and o.prototyped:   # CR 718.3c: a prototyped spell becomes a prototyped permanent
        return {"card": o.card, "front": o.front, "prototyped": True, **cast}
    if o.zone == "stack" and o.front is not None and o.front.data.layout in ("modal_dfc", "transform"):
        return {"card": o.card, "front": o.front, **cast}
    return cast


def _cast_record(o: GameObject) -> dict[str, Any]:
    """What the permanent a spell becomes remembers of how it was cast: how many times it was kicked
    (CR 702.33d-e), that it escaped or was evoked (702.138b, 702.74a; ``cast_with``)."""
    if o.zone != "stack" or o.copy:
        return {}
    out: dict[str, Any] = {"kicked": o.kicked} if o.kicked else {}
    if o.cast_with in KEPT_ON_BATTLEFIELD:
        out["cast_with"] = o.cast_with
    return out


def _return_to_battlefield(w: _World, oid: str) -> list[_World]:
    o = w.objects.get(oid)
    if o is None or o.zone == "battlefield":
        return [w]
    return _enter_battlefield(w, oid, o.owner, x=0)


# ===========================================================================
# Resolving the top of the stack
# ===========================================================================

def _check_targets(w: _World, o: GameObject, where: str) -> tuple[tuple[TargetSpec, ...], tuple[tuple[str, ...], ...], bool]:
    """CR 608.2b: the target slots, the still-legal targets per slot, and
    whether the object resolves (False when it had targets and every one is
    now illegal)."""

    view = w.view()
    try:
        src = stack_source(view, o.id)
    except TargetingError as e:
        raise ResolutionUnsupported(f"{where} ('{o.id}'): {e}") from None
    specs = src.specs
    if not specs:
        return specs, (), True
    if o.targets is None:
        raise CannotResolve(f"{where} ('{o.id}') needs its chosen targets: one list of ids per instance of "
                            f"'target' ({len(specs)})")
    if len(o.targets) != len(specs):
        raise CannotResolve(f"{where} ('{o.id}') has {len(o.targets)} target lists but its text has "
                            f"{len(specs)} instance(s) of 'target'")
    legal = tuple(tuple(t for t in group if target_legal(view, src, spec, t, w.losers))
                  for spec, group in zip(specs, o.targets))
    chosen = sum(len(g) for g in o.targets)
    resolves = chosen == 0 or any(legal)
    return specs, legal, resolves


def _leave_stack(w: _World, o: GameObject, resolved: bool = False) -> None:
    """After resolving (CR 608.2n) or failing to: a spell card to its owner's
    graveyard (a split card as the whole card, 709.4); a copy of a spell, or an ability, ceases to
    exist. A spell cast as an Adventure that resolves is exiled instead, "on an adventure"
    (CR 715.3d: object key ``on_adventure``); one that fails to resolve goes to the graveyard (715.4). A spell
    whose buyback cost was paid goes to its owner's hand as it resolves (702.27a; countered, to the graveyard)."""
    if o.ability is not None or o.copy or o.card is None:
        _cease(w, o.id)
    elif resolved and o.front is not None and o.front.data.layout == "adventure":
        _move(w, o.id, "exile", on_adventure=True)
    elif resolved and o.buyback:   # CR 702.27a: to its owner's hand instead of the graveyard as it resolves
        _move(w, o.id, "hand")
    else:
        _move(w, o.id, "graveyard")


def _resolving_effects(a: object, o: GameObject) -> tuple[tuple[Effect, ...], tuple[int, ...] | None]:
    """What a resolving spell or ability does, and the modes it does it with: a modal one's own effects
    then those of the modes chosen as it was put on the stack (object key ``modes``; CR 700.2a, 601.2b,
    608.2c), never guessed when the situation does not record them; ``(effects, None)`` otherwise."""
    own = tuple(getattr(a, "effects", ()) or ())
    modes = getattr(a, "modes", ()) or ()
    if not modes:
        return own, None
    if o.modes is None:
        raise ResolutionUnsupported(f"'{o.id}' is modal and the modes chosen for it are not recorded (object key "
                                    "modes, CR 700.2a)")
    return own + selection_effects(modes, o.modes), o.modes


def _resolve_object(w: _World, o: GameObject) -> list[_World]:
    """Resolve stack object ``o`` (the top of the stack) on branch ``w``."""
    where = "the top of the stack"
    if o.ability is not None and o.delayed:
        return _resolve_delayed(w, o)
    if o.ability is not None:
        src = w.objects.get(o.ability.source)
        if src is None:
            raise CannotResolve(f"ability source '{o.ability.source}' is not in the game")
        ab = ability_of(dict(o.last_known).get("card") or src.card, o.ability.index)
        if ab is None:
            raise CannotResolve(f"'{src.id}' has no triggered or activated ability #{o.ability.index}")
        if isinstance(ab, (ir.ManaAbility, ir.TriggeredManaAbility)):
            raise CannotResolve(f"ability #{o.ability.index} of '{src.id}' is a mana ability: it doesn't use the "
                                "stack (CR 605.3b, 605.4a)")
        if isinstance(ab, Unsupported):
            raise ResolutionUnsupported(f"ability #{o.ability.index} of '{src.id}': {ab.what}")
        if isinstance(ab, ir.Ward):  # "counter that spell or ability unless that player pays" (CR 702.21a)
            return resolve_ward(w, o, ab)
        if isinstance(ab, TriggeredAbility) and ab.if_cast and isinstance(ab.trigger, ir.CastSelfTrigger) \
                and src.zone != "stack":   # how its spell was cast, read on the spell that has left the stack
            raise ResolutionUnsupported(f"ability #{o.ability.index} of '{src.id}' reads how its spell was cast, and "
                                        "the spell has left the stack (its last known information, CR 113.7a, "
                                        "603.4) is not modeled")
        if isinstance(ab, TriggeredAbility) and ab.if_cast and not cast_as(src, ab.if_cast):
            _cease(w, o.id)   # CR 603.4: the intervening "if" is false as it resolves: it does nothing
            return [w]
        on_bf = src.zone == "battlefield" and not o.last_known
        lki_src = src if on_bf else _lki_object(src, o.last_known) if o.last_known else src
        # the source's colors as it is (on the battlefield, after layers) or as it last was (CR 113.7a):
        # the card's own colors in every zone (CR 202.2, 204, 604.3)
        colors = w.view().chars(src.id).colors if src.zone == "battlefield" else printed_colors(lki_src.card)
        if isinstance(ab, TriggeredAbility) and not condition_met(w.view(), ab, lki_src, o.controller):  # CR 603.4
            # (an activated ability's restriction, CR 602.5b, is checked as it is activated, not as it resolves)
            _cease(w, o.id)
            return [w]
        specs, legal, resolves = _check_targets(w, o, where)
        if not resolves:
            _leave_stack(w, o)
            w.fizzled = True
            return [w]
        effects, modes = _resolving_effects(ab, o)
        entry = ContinuousEffectEntry(controller=o.controller, ability=AbilityRef(src.id, o.ability.index),
                                      targets=legal if specs else None, event_object=o.event_object, modes=modes)
        dsrc = _damage_source_of(w, src.id, lki_src.controller, dict(o.last_known).get("card"),
                                 current=src.zone == "battlefield" and not o.last_known)
        ctx = _Ctx(o.id, o.controller, src.id, lki_src, on_bf, replace(dsrc, colors=colors), legal, o.x, entry,
                   o.event_object, o.event_player)
        worlds = _run_effects(w, ctx, effects)
        for v in worlds:
            _cease(v, o.id)
        return worlds

    card = o.card
    assert card is not None
    colors = w.view().chars(o.id).colors
    specs, legal, resolves = _check_targets(w, o, where)
    if o.cast_with == "overload":   # CR 702.96b: "target" reads "each": every object the text describes
        specs, legal = spell_specs(card), each_described(w.view(), o.id)
    if not resolves:
        _leave_stack(w, o)
        w.fizzled = True
        return [w]
    types = set(card.data.types)
    if types & {"Instant", "Sorcery"}:
        if card.spell is None:
            what = "; ".join(u.text or u.what for u in card.unsupported) or "no behaviour"
            raise ResolutionUnsupported(f"spell '{card.name}': {what}")
        effects, modes = _resolving_effects(card.spell, o)
        entry = ContinuousEffectEntry(controller=o.controller, card=card, targets=legal if specs else None,
                                      modes=modes)
        dsrc = replace(_damage_source_of(w, o.id, o.controller), colors=colors)
        ctx = _Ctx(o.id, o.controller, o.id, o, False, dsrc, legal, o.x, entry)
        worlds = _run_effects(w, ctx, effects)
        for v in worlds:
            cur = v.objects.get(o.id)
            if cur is not None and cur.zone == "stack":  # not shuffled into a library by its own effect
                _leave_stack(v, cur, resolved=True)
        return worlds
    if not _is_permanent_card(card):
        raise ResolutionUnsupported(f"spell '{card.name}' of types {sorted(types)}")
    attach = None
    if _is_aura(card):
        if not legal or not legal[0]:
            raise ResolutionUnsupported(f"Aura spell '{o.id}' without a target")
        attach = legal[0][0]  # CR 303.4f: it enters attached to its target
    # CR 608.3f: a copy of a permanent spell becomes a token
    return _enter_battlefield(w, o.id, o.controller, o.x, attach_to=attach, token=True if o.copy else None)


# ===========================================================================
# Delayed triggered abilities (CR 603.7)
# ===========================================================================

def _instruction_index(ctx: _Ctx, eff: ir.Delayed | ir.Reflexive) -> tuple[int, int]:
    """(the ability, 0 for the spell; the 1-based place of ``eff`` among its delayed and reflexive
    instructions, :func:`solver.core.ir.delayed_of`) — what names a delayed or reflexive triggered ability."""
    ability = ctx.entry.ability.index if ctx.entry is not None and ctx.entry.ability is not None else 0
    card = ctx.entry.card if ctx.entry is not None and ctx.entry.ability is None else \
        (ctx.source.card if ctx.source is not None else None)
    found = ir.delayed_of(card, ability) if card is not None and ctx.source_id is not None else []
    index = next((i for i, d in enumerate(found, start=1) if d is eff), 0) or \
        next((i for i, d in enumerate(found, start=1) if d == eff), 0)
    if not index or ctx.source_id is None:
        raise ResolutionUnsupported("a delayed or reflexive triggered ability (CR 603.7a, 603.12) whose "
                                    "instruction its source's spell or ability does not name")
    return ability, index


def _do_reflexive(w: _World, ctx: _Ctx, eff: ir.Reflexive) -> list[_World]:
    """CR 603.12: the instruction before it happened, so the reflexive triggered ability triggers: it waits
    (``w.pending``) to be put on the stack, with its targets chosen then (603.3d), the next time a player
    would receive priority; its source is the resolving object's source, its controller that object's."""
    ability, index = _instruction_index(ctx, eff)
    assert ctx.source_id is not None
    trig = TriggeredAbility(ir.ReflexiveTrigger(), targets=eff.targets, effects=eff.effects, text=eff.describe())
    w.pending.append(_PendingTrigger(ctx.source_id, ability, ctx.controller, trig, (), w.next_tick(),
                                     delayed=index))
    return [w]


def _do_delayed(w: _World, ctx: _Ctx, eff: ir.Delayed) -> list[_World]:
    """CR 603.7a: the resolving spell or ability creates a delayed triggered ability, in force until it
    triggers (the situation's ``delayed`` records): its source is the spell or the ability's source and
    its controller the resolving object's controller (603.7d-e); the record names the instruction by
    its place among the delayed instructions of that spell (``ability`` 0) or ability."""
    ability, index = _instruction_index(ctx, eff)
    assert ctx.source_id is not None   # _instruction_index refuses an instruction without a source
    w.delayed.append(DelayedTrigger(eff.step, ctx.controller, ctx.source_id, index, ability, w.base.turn.number,
                                    eff.whose, _bound_now(w, ctx, eff)))
    return [w]


def _bound_now(w: _World, ctx: _Ctx, eff: ir.Delayed) -> str | None:
    """CR 603.7c: the object or player a delayed instruction names ("it": its source, a target), as it is
    created — None when it names none, or the target is gone (608.2b)."""
    bound = bound_refs(eff.effects)
    if not bound:
        return None
    ref = next(iter(bound))
    if all(isinstance(e, ir.ReturnExiled) for e in eff.effects):   # the card the exile just before put there
        exiled = [t for t in _refs(w, ctx, ref) if t in w.objects and w.objects[t].zone == "exile"]
        return exiled[0] if len(exiled) == 1 else None
    if ref.kind == "self" and not ctx.source_on_battlefield:   # a card in another zone: not modeled
        raise ResolutionUnsupported("a delayed instruction naming its source off the battlefield (CR 603.7c)")
    found = _refs(w, ctx, ref)
    if len(found) > 1:
        raise ResolutionUnsupported("a delayed instruction naming several objects (CR 603.7c)")
    return found[0] if found else None


def _rebound(value: Any, old: Ref, new: Ref) -> Any:
    """``value`` (an effect, its fields) with reference ``old`` replaced by ``new``."""
    if value == old and isinstance(value, Ref):
        return new
    if isinstance(value, tuple):
        return tuple(_rebound(v, old, new) for v in value)
    if dataclasses.is_dataclass(value) and not isinstance(value, type) and not isinstance(value, Ref):
        return dataclasses.replace(value, **{f.name: _rebound(getattr(value, f.name), old, new)
                                             for f in dataclasses.fields(value) if f.init})
    return value


def _resolve_delayed(w: _World, o: GameObject) -> list[_World]:
    """CR 603.7, 608.2: a delayed triggered ability on the stack resolves: the instructions of the delayed
    instruction its ``delayed`` index names, with its controller as "you"; it has no targets (the reader
    reads none, :mod:`solver.reader.effects_delayed`)."""
    assert o.ability is not None
    src = w.objects.get(o.ability.source)
    found = ir.delayed_of(src.card, o.ability.index) if src is not None and src.card is not None else []
    if src is None or len(found) < o.delayed:
        raise CannotResolve(f"'{o.ability.source}' has no delayed instruction #{o.delayed} (CR 603.7)")
    on_bf = src.zone == "battlefield"
    entry = ContinuousEffectEntry(controller=o.controller, card=src.card) if o.ability.index == 0 else \
        ContinuousEffectEntry(controller=o.controller, ability=AbilityRef(src.id, o.ability.index))
    dsrc = _damage_source_of(w, src.id, o.controller, current=on_bf)
    made = found[o.delayed - 1]
    if isinstance(made, ir.Reflexive):
        return _resolve_reflexive(w, o, made, src, entry, dsrc)
    effects = found[o.delayed - 1].effects
    bound = bound_refs(effects)
    if bound:   # what it remembered (CR 603.7c) as its one object; nothing when it is gone (400.7)
        effects = _rebound(effects, next(iter(bound)), ir.T(0))
    ctx = _Ctx(o.id, o.controller, src.id, src, on_bf, dsrc, ((o.it,) if o.it else (),), 0, entry)
    worlds = _run_effects(w, ctx, effects)
    for v in worlds:
        _cease(v, o.id)
    return worlds


def _resolve_reflexive(w: _World, o: GameObject, made: ir.Reflexive, src: GameObject,
                       entry: ContinuousEffectEntry, dsrc: _DamageSource) -> list[_World]:
    """CR 603.12, 608.2b: a reflexive triggered ability resolves with its own targets (those still legal;
    none legal of those chosen: it does nothing) and its controller as "you"."""
    specs, legal, resolves = _check_targets(w, o, "the top of the stack")
    if not resolves:
        _leave_stack(w, o)
        w.fizzled = True
        return [w]
    on_bf = src.zone == "battlefield"
    ctx = _Ctx(o.id, o.controller, src.id, src, on_bf, dsrc, legal, 0, replace(entry, targets=legal or None))
    worlds = _run_effects(w, ctx, made.effects)
    for v in worlds:
        _cease(v, o.id)
    return worlds


def _run_effects(w: _World, ctx: _Ctx, effects: tuple[Effect, ...]) -> list[_World]:
    unread = [e.text for e in effects if isinstance(e, ir.UnreadEffect)]
    if unread:  # a sentence the reader did not read (only its structure): never skipped silently
        raise ResolutionUnsupported("effect not read: " + " ".join(unread))
    if any(isinstance(e, _LASTING) and "event_player" in ir.event_ref_kinds(e) for e in effects):
        # the effects list records the object a trigger event named, not its player: refused, never dropped
        raise ResolutionUnsupported("a lasting effect on the player its trigger event named")
    worlds = [w]
    n_optional = sum(1 for e in effects if e.optional)
    for eff in effects:
        nxt: list[_World] = []
        for v in worlds:
            _check_event_object(v, ctx, eff)
            if eff.optional:  # CR 608.2d: "you may" — both answers
                skip = v.fork()
                _record_may(skip, False, n_optional)
                nxt.append(skip)
                _record_may(v, True, n_optional)
                nxt.extend(_apply_effect(v, ctx, eff))
            else:
                nxt.extend(_apply_effect(v, ctx, eff))
        for x in nxt:  # one instruction's events happened together (CR 608.2c, 603.2)
            dispatch_events(x)
        worlds = nxt
    return worlds


# ===========================================================================
# Shields: regeneration and prevention (CR 701.15, 615)
# ===========================================================================

def _do_regenerate(w: _World, ctx: _Ctx, eff: ir.Regenerate) -> list[_World]:
    """CR 701.15a: each permanent named gets a regeneration shield for this turn (object key
    ``regeneration_shields``; used by the kernel's ``destroy``, ended at cleanup, CR 514.2)."""
    for t in _refs(w, ctx, eff.to):
        o = w.objects.get(t)
        if o is not None and o.zone == "battlefield":
            w.put(o.with_(regeneration_shields=o.regeneration_shields + 1))
    return [w]


def _do_prevent(w: _World, ctx: _Ctx, eff: ir.PreventDamage) -> list[_World]:
    """CR 615.1, 615.7: a prevention shield for this turn for each object or player named (``to``) or
    each source named (``source``); with neither, one on all damage (a fog, CR 615.1). A reference
    that names nothing now (an illegal target, CR 608.2b) makes no shield. Ended at cleanup
    (CR 514.2)."""
    tos: list[str | None] = list(_refs(w, ctx, eff.to)) if eff.to is not None else [None]
    sources: list[str | None] = list(_refs(w, ctx, eff.source)) if eff.source is not None else [None]
    amount = None if eff.amount is None else _amount(w, ctx, eff.amount)   # X: the value announced (CR 107.3)
    if amount is not None and amount <= 0:
        return [w]                                      # a shield of 0 prevents nothing
    for to in tos:
        for src in sources:
            w.prevention.append(PreventionShield(to, src, amount, eff.combat_only))
    w.changed()
    return [w]


# --- attaching (helper equip; CR 701.3, 702.6a) ------------------------------------------------


def _do_attach(w: _World, ctx: _Ctx, eff: ir.Attach) -> list[_World]:
    """Attach ``eff.what`` to ``eff.to`` through the kernel's :func:`~.transition.attach` (CR 701.3a,
    702.6a): one outcome. Nothing happens when what is attached is no longer on the battlefield (a new
    object, CR 400.7), the target is no longer legal (608.2b: not among ``ctx.targets``; "up to one"
    with none chosen), it can't be attached there or already is (701.3b, 301.5c)."""
    hosts = _refs(w, ctx, eff.to)
    if len(hosts) != 1:
        return [w]
    for t in _refs(w, ctx, eff.what):
        o = w.objects.get(t)
        if o is not None and o.zone == "battlefield":
            attach(w, t, hosts[0])
    return [w]


def _do_unattach(w: _World, ctx: _Ctx, eff: ir.Unattach) -> list[_World]:
    """Unattach ``eff.what`` (CR 701.3d; reconfigure, 702.151a): it stays on the battlefield."""
    for t in _refs(w, ctx, eff.what):
        o = w.objects.get(t)
        if o is not None and o.zone == "battlefield":
            attach(w, t, None)
    return [w]


# ===========================================================================
# "This turn" effects and counter keyword actions (issue 26, helper effb)
# ===========================================================================

def _own_entry(w: _World, ctx: _Ctx, slot: int) -> int | None:
    """The index in ``w.effects`` of this resolution's entry, once recorded: the entry itself, or
    the one it became (a target dropped, CR 400.7; group sets written) — never an entry of the
    situation the resolution began in (an earlier activation of the same ability)."""
    entry = ctx.entry
    assert entry is not None, "a resolving spell or ability has an effects entry"
    for i in range(len(w.effects) - 1, -1, -1):
        e = w.effects[i]
        if e is entry:
            return i
        if any(e is b for b in w.base.effects):
            continue
        if (e.controller, e.ability, e.order) == (entry.controller, entry.ability, entry.order) and \
                e.card is entry.card and len(e.affected or ()) == slot:
            return i
    return None


def _fix_group(w: _World, ctx: _Ctx, slot: int, ids: tuple[str, ...]) -> None:
    """Write the objects group effect ``slot`` affects in this resolution's effects entry (CR 611.2c:
    the set is fixed as the effect begins; objects that match later are not affected)."""
    i = _own_entry(w, ctx, slot)
    if i is None:
        _record_effect_entry(w, ctx)
        i = _own_entry(w, ctx, slot)
    assert i is not None
    e = w.effects[i]
    groups = list(e.affected or ())
    groups += [()] * (slot + 1 - len(groups))
    groups[slot] = ids
    w.effects[i] = replace(e, affected=tuple(groups))
    w.changed()


def _do_group_pump(w: _World, ctx: _Ctx, eff: ir.GroupPump | ir.GroupAnimate) -> list[_World]:
    """CR 611.2a, 611.2c, 613.4c: each permanent of the group now gets the bonus (a :class:`ir.GroupAnimate`:
    its base power and toughness and subtypes, 613.4b) until end of turn."""
    view = w.view()
    src = stack_source(view, ctx.stack_id)
    ids = tuple(sorted(o.id for o in view.permanents if object_matches(view, src, eff.group, o.id)
                       and not (eff.other and o.id == ctx.source_id)))
    _fix_group(w, ctx, eff.slot, ids)
    if isinstance(eff, ir.GroupPump) and eff.x is not None:
        _fix_x(w, ctx, _amount(w, ctx, eff.x))
    return [w]


def _do_group_this_turn(w: _World, ctx: _Ctx, eff: ir.GroupThisTurn) -> list[_World]:
    """CR 611.2c: a rules-modifying effect for the turn — in force whatever the group holds now."""
    _record_effect_entry(w, ctx)
    return [w]


def _do_explore(w: _World, ctx: _Ctx, eff: ir.Explore) -> list[_World]:
    """CR 701.44a: the controller reveals the top card of their library — a random event on a
    library in random order (one branch per class of interchangeable cards, its probability;
    refused where a nonland card put back would be known on top of a library otherwise in random
    order, which the situation cannot say). A land card goes to the hand; otherwise a +1/+1 counter
    on the creature (if still on the battlefield) and the choice ``explore``: ``top`` (the card
    stays) or ``graveyard``. No card revealed (an empty library): the counter (rulings)."""
    player = ctx.controller
    _require_libraries(w, player, "reveals the top card of their library (CR 701.44a)")
    explorers = [t for t in _refs(w, ctx, eff.to) if w.objects.get(t) is not None
                 and w.objects[t].zone == "battlefield"]
    lib = w.zone_list("library", player)
    if not lib:
        return _explore_counter(w, explorers)
    if player not in w.shuffled or len(lib) == 1 or w.known_top.get(player):
        return _explore_card(w, lib[0], explorers)
    classes: dict[tuple[Hashable, ...], list[GameObject]] = {}
    for o in lib:
        classes.setdefault(_interchangeable_key(o), []).append(o)
    if len(classes) > 1 and any(not _is_land_card(m[0]) for m in classes.values()):
        raise ResolutionUnsupported(f"{player} explores from a library in random order: a nonland card put back "
                                    "would be known on top of a library otherwise in random order, which the "
                                    "situation format cannot express (its 'shuffled' marks a whole library)")
    out: list[_World] = []
    for members in classes.values():
        v = w.fork() if len(classes) > 1 else w
        if len(classes) > 1:
            v.prob *= Fraction(len(members), len(lib))
            v.choices.setdefault("revealed", []).append(members[0].id)   # a random result, not a choice
        out.extend(_explore_card(v, members[0], explorers))
    return out


def _is_land_card(o: GameObject) -> bool:
    return o.card is not None and "Land" in o.card.data.types


def _explore_counter(w: _World, explorers: list[str]) -> list[_World]:
    worlds = [w]
    for t in explorers:
        worlds = [v2 for v in worlds for v2 in _put_counters(v, t, "+1/+1", 1)]
    return worlds


def _explore_card(w: _World, card: GameObject, explorers: list[str]) -> list[_World]:
    """The revealed ``card``: to the hand if a land card; else the counter, then top or graveyard."""
    if _is_land_card(card):
        _move(w, card.id, "hand")
        return [w]
    out: list[_World] = []
    for v in _explore_counter(w, explorers):
        g = v.fork()
        _record_choice(v, "explore", {"card": card.id, "to": "top"})
        _record_choice(g, "explore", {"card": card.id, "to": "graveyard"})
        _move(g, card.id, "graveyard")
        out.extend((v, g))
    return out


def _source_permanent(w: _World, ctx: _Ctx) -> GameObject | None:
    """The resolving ability's source, when it is still the permanent it was (CR 701.37a, 701.46a:
    "this permanent"; a new object is not, CR 400.7)."""
    if not ctx.source_on_battlefield or ctx.source_id is None:
        return None
    o = w.objects.get(ctx.source_id)
    return o if o is not None and o.zone == "battlefield" else None


def _do_monstrosity(w: _World, ctx: _Ctx, eff: ir.Monstrosity) -> list[_World]:
    """CR 701.37a: if the permanent isn't monstrous, N +1/+1 counters and it becomes monstrous
    (701.37b: even if no counters were put, 701.37c)."""
    o = _source_permanent(w, ctx)
    if o is None or o.monstrous:
        return [w]
    w.put(o.with_(monstrous=True))
    return _put_counters(w, o.id, "+1/+1", _amount(w, ctx, eff.amount))


def _do_adapt(w: _World, ctx: _Ctx, eff: ir.Adapt) -> list[_World]:
    """CR 701.46a: if the permanent has no +1/+1 counters on it, put N +1/+1 counters on it."""
    o = _source_permanent(w, ctx)
    if o is None or o.counter("+1/+1"):
        return [w]
    return _put_counters(w, o.id, "+1/+1", _amount(w, ctx, eff.amount))


def _do_connive(w: _World, ctx: _Ctx, eff: ir.Connive) -> list[_World]:
    """CR 701.50a, 701.50e: each permanent ``eff.to`` names connives — its controller draws N cards
    (:func:`_draw`: a random event from a library in random order), then discards N of their choice
    (:func:`_discard_choice`: one branch per distinct choice), then puts a +1/+1 counter on it for each
    nonland card discarded. Its source gone from the battlefield still connives by its last known
    controller (701.50c), with no counter."""
    n = _amount(w, ctx, eff.amount)
    named = _refs(w, ctx, eff.to)
    if not named and eff.to == ir.SELF and ctx.source is not None and not ctx.source_on_battlefield:
        return _connive(w, ctx.source.controller, None, n)   # CR 701.50c: last known information
    worlds = [w]
    for oid in named:
        o = w.objects.get(oid)
        if o is not None and o.zone == "battlefield":
            worlds = [v2 for v in worlds for v2 in _connive(v, o.controller, oid, n)]
    return worlds


def _connive(w: _World, player: str, oid: str | None, n: int) -> list[_World]:
    """One permanent (``oid``; None: gone) connives N: ``player`` draws, discards, counters (CR 701.50a)."""
    out: list[_World] = []
    for drawn in _draw(w, player, n):
        before = {o.id for o in drawn.zone_list("hand", player)}
        for v in _discard_choice(drawn, player, n):
            gone = before - {o.id for o in v.zone_list("hand", player)}
            nonland = sum(1 for x in gone if x in v.objects and not v.view().chars(x).is_land)
            out.extend(_put_counters(v, oid, "+1/+1", nonland) if oid is not None and nonland else [v])
    return out


def _do_bolster(w: _World, ctx: _Ctx, eff: ir.Bolster) -> list[_World]:
    """CR 701.39a: the controller chooses a creature with the least toughness among creatures they
    control (every such creature one outcome, recorded as the choice ``bolster``) and puts N +1/+1
    counters on it; with no creature, nothing happens."""
    view = w.view()
    mine = [o.id for o in view.permanents if o.controller == ctx.controller and view.chars(o.id).is_creature]
    if not mine:
        return [w]
    least = min(view.chars(oid).toughness or 0 for oid in mine)
    picks = sorted(oid for oid in mine if (view.chars(oid).toughness or 0) == least)
    n = _amount(w, ctx, eff.amount)
    out: list[_World] = []
    for oid in picks:
        v = w.fork() if len(picks) > 1 else w
        if len(picks) > 1:
            _record_choice(v, "bolster", {"object": oid})
        out.extend(_put_counters(v, oid, "+1/+1", n))
    return out


#: The resolution of each effect kind, keyed by the effect's class (CR 608.2c: in printed order).
# ===========================================================================
# Chosen permanents, counters on groups, proliferate (issue 26, helper effa)
# ===========================================================================

def _class_picks(ids: list[str], classes: dict[str, str], n: int | None) -> list[list[str]]:
    """Every distinct choice among ``ids`` (``classes``: id → its class of interchangeable
    permanents, :func:`solver.rules.mana_sources.class_of`): ``n`` of them — all when there are
    fewer — or, ``n`` None, any number (a subset). One choice per multiset of classes; within a
    class the first ones (in ``ids`` order) are taken."""
    members: dict[str, list[str]] = {}
    for i in ids:
        members.setdefault(classes.get(i, i), []).append(i)
    groups = list(members.values())
    want = None if n is None else min(n, len(ids))
    out: list[list[str]] = []
    for pick in itertools.product(*(range(len(g) + 1) for g in groups)):
        if want is None or sum(pick) == want:
            out.append([i for g, k in zip(groups, pick) for i in g[:k]])
    return out


def _own_matching(w: _World, ctx: _Ctx, player: str, what: ir.Selector,
                  any_of_types: frozenset[str] = frozenset()) -> list[str]:
    """The permanents ``player`` controls that match ``what`` now — and have one of
    ``any_of_types`` when given — (battlefield order; "this permanent" is the source while it is
    on the battlefield under that player's control)."""
    view = w.view()
    src = ctx.source if ctx.source_on_battlefield else None
    return [i for i in view.select(what, src, player) if view.chars(i).controller == player
            and (not any_of_types or bool(any_of_types & view.chars(i).types))]


def _chosen_by_players(w: _World, ctx: _Ctx, players: list[str], what: ir.Selector,
                       n: int, any_of_types: frozenset[str] = frozenset()) -> list[list[list[str]]]:
    """Every combination of the choices of ``players`` (each choosing ``n`` of their own permanents
    matching ``what``), made on the same board before anything moves (CR 608.2c: the effect
    then happens to all of them at once)."""
    classes = class_of(w.view())
    per_player = [_class_picks(_own_matching(w, ctx, p, what, any_of_types), classes, n) for p in players]
    return [list(combo) for combo in itertools.product(*per_player)]


def _move_chosen(w: _World, ctx: _Ctx, players: list[str], what: ir.Selector, n: int, zone: str,
                 key: str, any_of_types: frozenset[str] = frozenset()) -> list[_World]:
    """Each of ``players`` chooses ``n`` permanents they control matching ``what``; all of them go
    to their owner's ``zone`` (graveyard: sacrificed, CR 701.21a — dies abilities trigger, CR
    700.4 — or hand, CR 400.7). One outcome per distinct choice; recorded as ``key`` (ids, in
    turn order of the players) when there is a choice."""
    combos = _chosen_by_players(w, ctx, players, what, n, any_of_types)
    out: list[_World] = []
    for combo in combos:
        v = w.fork() if len(combos) > 1 else w
        ids = [i for chosen in combo for i in chosen]
        for oid in ids:
            move(v, oid, zone)
        if len(combos) > 1:
            v.choices.setdefault(key, []).extend(ids)
        out.append(v)
    return out


def _do_sacrifice_chosen(w: _World, ctx: _Ctx, eff: ir.SacrificeChosen) -> list[_World]:
    """CR 701.21a: the controller, or each player ``eff.to`` names, sacrifices ``eff.amount``
    permanents of their choice among those they control matching ``eff.what``."""
    players = [p for p in (_refs(w, ctx, eff.to) if eff.to is not None else [ctx.controller]) if p in w.life]
    return _move_chosen(w, ctx, players, eff.what, _amount(w, ctx, eff.amount), "graveyard", "sacrificed",
                        eff.any_of_types)


def _do_sacrifice_unless(w: _World, ctx: _Ctx, eff: ir.SacrificeUnlessPays) -> list[_World]:
    """CR 118.12: the controller declines — the source is sacrificed (CR 701.21a) if it is still
    on the battlefield under their control — or pays ``eff.mana``: every distinct payment of the
    payment model an outcome (as :func:`_counter_unless`). Recorded as ``unless``."""
    player = ctx.controller
    decline = w.fork()
    _record_choice(decline, "unless", {"player": player, "paid": False})
    src = ctx.source_id
    if ctx.source_on_battlefield and src is not None and src in decline.objects \
            and decline.objects[src].zone == "battlefield" and decline.view().chars(src).controller == player:
        move(decline, src, "graveyard")
    return [decline] + _paid_worlds(w, player, eff.mana, f"unless {player} pays {eff.mana}")


def _paid_worlds(w: _World, player: str, mana: Any, subject: str, key: str = "unless") -> list[_World]:
    """One world per distinct payment of ``mana`` by ``player`` (CR 118.12, 605.3a), paid through
    the kernel's :func:`~solver.engine.transition.pay` and recorded as ``key`` (``unless``; ``pay``
    for "you may pay …")."""
    out = []
    for cp in _unless_payments(w, player, mana, subject):
        payment = cp.move()
        if payment.draw:  # the random or unknown card drawn while resolving is not followed here
            raise ResolutionUnsupported("a payment during resolution that draws cards is not modeled")
        v = w.fork()
        _record_choice(v, key, {"player": player, "paid": True, "payment": payment.to_json()})
        pay(v, player, payment)
        out.append(v)
    return out


def _do_may_pay(w: _World, ctx: _Ctx, eff: ir.MayPay) -> list[_World]:
    """"You may pay {4}. If you do, …" / "Pay {N}. If you don't, …" (CR 608.2d, 118.1; mana abilities
    may be activated to pay, 605.3a): the controller declines — ``eff.otherwise`` happens — or pays
    ``eff.mana`` (every distinct payment an outcome; none when it can't be paid, CR 118.3), and then
    ``eff.then`` happens (CR 608.2c). Recorded as ``pay: {player, paid[, payment]}``; the choice is
    the controller's."""
    player = ctx.controller
    decline = w.fork()
    _record_choice(decline, "pay", {"player": player, "paid": False})
    paid = _paid_worlds(w, player, eff.mana, f"{player} may pay {eff.mana}", key="pay")
    return _run_effects(decline, ctx, eff.otherwise) + [v2 for v in paid for v2 in _run_effects(v, ctx, eff.then)]


def _do_untap_chosen(w: _World, ctx: _Ctx, eff: ir.UntapChosen) -> list[_World]:
    """CR 608.2c, 701.26b: the controller untaps up to ``eff.amount`` permanents matching ``eff.what``
    of their choice — one outcome per distinct set of tapped ones (interchangeable permanents, by
    :func:`~solver.rules.mana_sources.class_of`, are one; an untapped one chosen changes nothing).
    Recorded as ``untapped`` (ids) when there is a choice."""
    view = w.view()
    src = ctx.source if ctx.source_on_battlefield else None
    tapped = [i for i in view.select(eff.what, src, ctx.controller) if w.objects[i].tapped]
    picks = [p for p in _class_picks(tapped, class_of(view), None) if len(p) <= eff.amount]
    out: list[_World] = []
    for ids in picks:
        v = w.fork() if len(picks) > 1 else w
        for oid in ids:
            v.put(v.objects[oid].with_(tapped=False))
        if len(picks) > 1:
            v.choices["untapped"] = sorted(ids)
        out.append(v)
    return out


def _do_extra_turn(w: _World, ctx: _Ctx, eff: ir.ExtraTurn) -> list[_World]:
    """CR 500.7: each player ``eff.to`` names (still in the game) takes an extra turn after this one,
    before the extra turns created earlier (``turn.extra_turns``, next first)."""
    for p in reversed(_players_in_game(w, ctx, eff.to)):
        w.extra_turns.insert(0, p)
    return [w]


def _players_in_game(w: _World, ctx: _Ctx, ref: Ref) -> list[str]:
    """The players ``ref`` names who are still in the game (CR 800.4a)."""
    return [p for p in _refs(w, ctx, ref) if p in w.life and p not in w.losers]


def _do_skip_next_combat(w: _World, ctx: _Ctx, eff: ir.SkipNextCombat) -> list[_World]:
    """CR 614.10: each player ``eff.to`` names (still in the game) skips their next combat phase
    (``turn.skip_combat``; the turn engine skips it and removes the entry)."""
    for p in _players_in_game(w, ctx, eff.to):
        w.skip_combat.append(p)
        w.changed()
    return [w]


def _do_lose_game(w: _World, ctx: _Ctx, eff: ir.LoseGame) -> list[_World]:
    """CR 104.3e: each player ``eff.to`` names (still in the game) loses the game at once (the
    resolution stops when the game is over, CR 104.1)."""
    for p in _players_in_game(w, ctx, eff.to):
        w.losers.add(p)
        w.changed()
    return [w]


def _do_coin_flip(w: _World, ctx: _Ctx, eff: ir.CoinFlip) -> list[_World]:
    """CR 705.1–705.2: the controller flips a coin — a random event, won or lost with probability 1/2
    each (``flip: won|lost``) — and ``eff.win`` or ``eff.lose`` happens (CR 608.2c)."""
    out: list[_World] = []
    for won, then in ((True, eff.win), (False, eff.lose)):
        v = w.fork()
        v.prob *= Fraction(1, 2)
        _record_choice(v, "flip", {"player": ctx.controller, "won": won})
        out.extend(_run_effects(v, ctx, then))
    return out


def _hand_card_qualifies(o: GameObject, f: ir.Filter | None) -> bool:
    """A card in a hand has the quality a "you choose a … card from it" names: any of ``f.types``,
    none of ``f.nontypes``, its mana value within ``f.mv_min``/``f.mv_max`` (CR 202.3)."""
    if f is None:
        return o.card is not None
    if o.card is None:
        return False
    types = set(o.card.data.types)
    mv = printed_mana_value(o)
    return (f.fits_types(types)
            and (f.mv_min is None or mv >= f.mv_min) and (f.mv_max is None or mv <= f.mv_max))


def _do_choose_discard(w: _World, ctx: _Ctx, eff: ir.ChooseDiscard) -> list[_World]:
    """The player ``eff.to`` names reveals their hand (CR 701.20a); the controller chooses a card
    with ``eff.quality`` from it, which that player discards (CR 701.9a) — one outcome per class of
    interchangeable qualifying cards (recorded as ``discarded``); none qualifying, nothing happens."""
    worlds = [w]
    for p in _refs(w, ctx, eff.to):
        if p in w.life:
            worlds = [v2 for v in worlds for v2 in _choose_one_to_discard(v, p, eff.quality)]
    return worlds


def _choose_one_to_discard(w: _World, player: str, quality: ir.Filter | None) -> list[_World]:
    classes: dict[tuple[Hashable, ...], GameObject] = {}
    for o in w.zone_list("hand", player):
        if _hand_card_qualifies(o, quality):
            unread = discard_unread(o)
            if unread:
                raise ResolutionUnsupported(f"{player} may discard {o.id}; not modeled: {'; '.join(unread)}")
            classes.setdefault(_interchangeable_key(o), o)
    if not classes:
        return [w]
    out = []
    for o in classes.values():
        v = w.fork() if len(classes) > 1 else w
        move(v, o.id, "graveyard", timestamp=v.objects[o.id].timestamp)
        if len(classes) > 1:
            v.choices.setdefault("discarded", []).append(o.id)
        out.append(v)
    return out


def _do_transmute(w: _World, ctx: _Ctx, eff: ir.Transmute) -> list[_World]:
    """CR 702.53a: a search (:func:`_search`) for a card with the mana value of the discarded card
    (the ability's source, in the graveyard: CR 202.3), into the hand, then shuffle."""
    if ctx.source is None:
        raise ResolutionUnsupported("transmute without its card")
    mv = printed_mana_value(ctx.source)
    quality = ir.Filter(types=frozenset(), who="you", zone="library", mv_min=mv, mv_max=mv)
    return _search(w, ctx, ir.SearchLibrary("hand", quality, shuffle=True))


def _do_return_chosen(w: _World, ctx: _Ctx, eff: ir.ReturnChosen) -> list[_World]:
    """The controller returns ``eff.amount`` permanents of their choice they control matching
    ``eff.what`` to their owner's hand (no target: chosen as the effect resolves, CR 608.2c)."""
    return _move_chosen(w, ctx, [ctx.controller], eff.what, _amount(w, ctx, eff.amount), "hand", "returned")


def _do_counters_each(w: _World, ctx: _Ctx, eff: ir.PutCountersOnEach) -> list[_World]:
    """CR 122.1: ``eff.amount`` counters on each permanent matching ``eff.what`` as the effect
    resolves, each through the counter replacement effects (:func:`_put_counters`)."""
    n = _amount(w, ctx, eff.amount)
    src = ctx.source if ctx.source_on_battlefield else None
    ids = w.view().select(eff.what, src, ctx.controller)
    worlds = [w]
    for oid in ids:
        worlds = [v2 for v in worlds for v2 in _put_counters(v, oid, eff.counter, n)]
    return worlds


def _do_proliferate(w: _World, ctx: _Ctx, eff: ir.Proliferate) -> list[_World]:
    """CR 701.34a: the controller chooses any number of the permanents and players that have a
    counter, and each one chosen gets another counter of each kind it already has. One outcome
    per distinct choice (interchangeable permanents are one; recorded as ``proliferated``: ids).
    A player with poison counters (a counter of a player, CR 122.1) is refused: the kernel does
    not change a player's counters."""
    poisoned = [p.id for p in w.base.players if p.poison > 0]
    if poisoned:
        raise ResolutionUnsupported(f"proliferate with a player who has counters ({', '.join(poisoned)}: poison)")
    view = w.view()
    ids = [o.id for o in view.permanents if o.counters]
    picks = _class_picks(ids, class_of(view), None)
    out: list[_World] = []
    for chosen in picks:
        v = w.fork() if len(picks) > 1 else w
        branch = [v]
        for oid in chosen:
            for kind, _n in w.objects[oid].counters:
                branch = [b2 for b in branch for b2 in _put_counters(b, oid, kind, 1)]
        if len(picks) > 1:
            for b in branch:
                b.choices["proliferated"] = list(chosen)
        out.extend(branch)
    return out


# ===========================================================================
# Mana added by a resolving spell or ability (CR 106.4)
# ===========================================================================

#: productions whose value reads the source and its controller (counts, colors among, a chosen color)
_SOURCE_READ = (ir.CountedMana, ir.AmongColors, ir.ChosenColor, ir.CommanderIdentity)


def _do_add_mana(w: _World, ctx: _Ctx, eff: ir.AddMana) -> list[_World]:
    """CR 106.4, 608.2: the controller adds the mana to their pool, where it stays until the step or
    phase ends (CR 500.4). One world per distinct amount the controller may choose ("one mana of any
    color": one per color, CR 106.1b; "two mana in any combination of colors": one per multiset), the
    choice recorded as ``mana_added``; an amount of zero adds nothing (CR 106.5). Counts are read as the
    effect happens (CR 608.2h), of the source as it is (its controller the resolving object's)."""
    produce = eff.produce
    src = w.objects.get(ctx.source_id or "")
    spell = ctx.source_id == ctx.stack_id
    if (isinstance(produce, _SOURCE_READ) or produce.count is not None) and \
            (src is None or src.controller != ctx.controller or not (spell or ctx.source_on_battlefield)):
        # an ability whose source left the battlefield: its counters and controller are last known
        # information (CR 608.2h), which this count does not read
        raise ResolutionUnsupported("mana counted from a source that left the battlefield or has another controller")
    options = production_choices(w.view(), ctx.source_id or ctx.stack_id, produce, {}, x=ctx.x)
    out = []
    for m in options:
        v = w.fork() if len(options) > 1 else w
        v.pools[ctx.controller] = v.pools.get(ctx.controller, Mana()) + m
        if len(options) > 1:
            _record_choice(v, "mana_added", {"player": ctx.controller, "mana": m.text})
        v.changed()
        out.append(v)
    return out


# ---------------------------------------------------------------------------
# Library positions and library-wide effects (issue 26, helper library: CR 401.4, 701.24a)
# ---------------------------------------------------------------------------

def _known_order_for(w: _World, player: str, what: str) -> None:
    """A card put at a position of ``player``'s library in random order (``shuffled``) leaves the
    rest in random order around a known card, which the situation format cannot say (it marks a
    whole library): refused unless the library holds at most one class of interchangeable cards —
    its order is then known, and it is no longer marked in random order."""
    lib = w.zone_list("library", player)
    if not w.random_library(player, what + " its library"):
        return
    if len({_interchangeable_key(o) for o in lib}) > 1:
        raise ResolutionUnsupported(f"{what} a library in random order: the situation format cannot say 'this "
                                    "card there, the rest in random order'")
    w.known_order(player)
    w.changed()


def _place_in_library(w: _World, oid: str, position: int) -> None:
    """Move ``oid`` into its owner's library ``position`` cards from the top (-1: the bottom; a
    library with fewer cards takes it at its bottom, CR 401.4) through :func:`move` (CR 400.7)."""
    owner = w.objects[oid].owner
    _known_order_for(w, owner, f"{oid} is put into")
    lib = [o.id for o in w.zone_list("library", owner)]
    at = len(lib) if position < 0 else min(position, len(lib))
    move(w, oid, "library")
    _relist_library(w, owner, lib[:at] + [oid] + lib[at:])


def _do_put_in_library(w: _World, ctx: _Ctx, eff: ir.PutInLibrary) -> list[_World]:
    """Put each permanent named into its owner's library at ``eff.position`` (CR 401.4, 400.7; a
    token there ceases to exist, CR 704.5d)."""
    for t in _refs(w, ctx, eff.to):
        o = w.objects.get(t)
        if o is not None and o.zone == "battlefield":
            _place_in_library(w, t, eff.position)
    return [w]


def _do_shuffle_self_into_library(w: _World, ctx: _Ctx, eff: ir.ShuffleSelfIntoLibrary) -> list[_World]:
    """The resolving spell card goes into its owner's library, which is shuffled (CR 701.24a; a copy
    of a spell is no card and ceases to exist as it leaves the stack, CR 707.10a)."""
    o = w.objects.get(ctx.stack_id)
    if o is None or o.zone != "stack" or o.copy or o.card is None or o.ability is not None:
        return [w]
    move(w, o.id, "library")
    _shuffle(w, o.owner)
    return [w]


def _do_wheel(w: _World, ctx: _Ctx, eff: ir.Wheel) -> list[_World]:
    """Each player (in turn order, CR 101.4) puts their hand and graveyard into their library and
    shuffles it (CR 701.24a), then each draws ``eff.draw`` cards (CR 121: from a library in random
    order, one chance outcome per class of card drawn, :func:`_draw`). More than
    :data:`_RANDOM_ORDERS_MAX` distinct sequences drawn (:func:`_distinct_sequences`): refused."""
    players = [p for p in _apnap(w.base) if p in w.life and p not in w.losers]
    for p in players:
        for o in w.zone_list("hand", p) + w.zone_list("graveyard", p):
            move(w, o.id, "library")
        _shuffle(w, p)
    total = 1
    for p in players:
        counts = Counter(_interchangeable_key(o) for o in w.zone_list("library", p))
        total *= _distinct_sequences(tuple(sorted(counts.values())), eff.draw)
    if total > _RANDOM_ORDERS_MAX:
        raise ResolutionUnsupported(f"each player draws {eff.draw} cards from a library in random order: {total} "
                                    f"distinct chance outcomes (more than {_RANDOM_ORDERS_MAX})")
    worlds = [w]
    for p in players:
        worlds = [v2 for v in worlds for v2 in _draw(v, p, eff.draw)]
    return worlds


def _defending_player(w: _World, ctx: _Ctx) -> str:
    """CR 506.2, 508.5a: the defending player of the source's ability — the player its source attacks,
    or the controller of the planeswalker it attacks. Refused when the source is not an attacking
    permanent now (what it attacked as it left, the situation does not record) or attacks a battle."""
    src = w.objects.get(ctx.source_id) if ctx.source_id else None
    if src is None or not ctx.source_on_battlefield or src.zone != "battlefield" or src.attacking is None:
        raise ResolutionUnsupported("'defending player' of a source that is not attacking on the battlefield")
    if src.attacking in w.life:
        return src.attacking
    attacked = w.objects.get(src.attacking)
    if attacked is None or "Planeswalker" not in w.view().chars(attacked.id).types:
        raise ResolutionUnsupported(f"'defending player' of a creature attacking {src.attacking}")
    return attacked.controller


def _do_reveal_top_to_hand(w: _World, ctx: _Ctx, eff: ir.RevealTopToHand) -> list[_World]:
    """The player reveals the top card of their library (CR 701.20a) and puts it into their hand if it
    has the quality (no draw, CR 121.1). From a library in random order the card is a chance outcome
    per class of interchangeable cards (``revealed``: its id), the library staying in random order when
    the card leaves it; a card staying on top of a library otherwise random is refused (the format
    cannot say "this on top, the rest random") unless the rest is one class."""
    worlds = [w]
    for p in _refs(w, ctx, eff.to):
        _require_libraries(w, p, "reveals the top card of their library")
        worlds = [v2 for v in worlds for v2 in _reveal_top_to_hand(v, p, eff.quality)]
    return worlds


def _reveal_top_to_hand(w: _World, player: str, quality: ir.Filter | None) -> list[_World]:
    lib = w.zone_list("library", player)
    classes: dict[tuple[Hashable, ...], list[GameObject]] = {}
    for o in lib:
        classes.setdefault(_interchangeable_key(o), []).append(o)
    if not lib:
        return [w]
    if player not in w.shuffled or len(classes) == 1 or w.known_top.get(player):
        if _has_quality(lib[0].card, quality):
            move(w, lib[0].id, "hand", timestamp=lib[0].timestamp)
        return [w]
    out: list[_World] = []
    for members in classes.values():
        card = members[0]
        if not _has_quality(card.card, quality):
            rest = [o for o in lib if o.id != card.id]
            if len({_interchangeable_key(o) for o in rest}) > 1:
                raise ResolutionUnsupported(f"{player} reveals the top card of a library in random order and it stays "
                                            "on top: the situation format cannot say 'this on top, the rest random'")
        v = w.fork()
        v.prob *= Fraction(len(members), len(lib))
        v.choices["revealed"] = card.id   # a random result, not a choice
        if _has_quality(card.card, quality):
            move(v, card.id, "hand", timestamp=card.timestamp)
        else:
            _relist_library(v, player, [card.id] + [o.id for o in lib if o.id != card.id])
            v.known_order(player)
        out.append(v)
    return out


@lru_cache(maxsize=1024)
def _distinct_sequences(counts: tuple[int, ...], n: int) -> int:
    """How many distinct sequences of ``n`` cards (all of them, if fewer) can be drawn from a library
    with ``counts`` cards of each class: n! times the coefficient of x^n in the product of the
    classes' truncated exponential series."""
    n = min(n, sum(counts))
    poly = [Fraction(1)]
    for m in counts:
        term = [Fraction(1, math.factorial(k)) for k in range(m + 1)]
        poly = [sum((poly[i] * term[j - i] for i in range(len(poly)) if 0 <= j - i <= m), Fraction(0))
                for j in range(min(len(poly) + m, n + 1))]
    return int(poly[n] * math.factorial(n)) if n < len(poly) else 0


#: The most distinct random results :func:`_do_graveyard_to_bottom` and :func:`_do_wheel` list as chance outcomes.
_RANDOM_ORDERS_MAX = 720


def _do_graveyard_to_bottom(w: _World, ctx: _Ctx, eff: ir.GraveyardToBottom) -> list[_World]:
    """"… puts all the cards from their graveyard on the bottom of their library in a random order":
    a random event, no player's choice. Onto an empty library: one outcome, the library marked in
    random order (``shuffled``, CR 701.24a: what a random order is). Under a library of known order:
    one chance outcome per distinct order of those cards (interchangeable cards are one), each with
    its probability (uniform over distinct orders), recorded as ``bottom`` (ids, top first). Under a
    library in random order (two random parts) or with more than :data:`_RANDOM_ORDERS_MAX` orders:
    refused."""
    worlds = [w]
    for p in _refs(w, ctx, eff.to):
        if p in w.life:
            worlds = [v2 for v in worlds for v2 in _graveyard_to_bottom(v, p)]
    return worlds


def _graveyard_to_bottom(w: _World, player: str) -> list[_World]:
    grave = w.zone_list("graveyard", player)
    return _to_bottom_in_random_order(w, player, grave) if grave else [w]


def _to_bottom_in_random_order(w: _World, player: str, grave: list[GameObject]) -> list[_World]:
    """``grave`` (cards of ``player``'s) put on the bottom of their library in a random order (CR 401.4):
    one chance outcome per distinct order, uniform, recorded as ``bottom`` (ids, top first); onto an empty
    library, the library shuffled. Under a library in random order or with more than
    :data:`_RANDOM_ORDERS_MAX` orders: refused."""
    lib = [o.id for o in w.zone_list("library", player)]
    if not lib:
        for o in grave:
            move(w, o.id, "library")
        _shuffle(w, player)
        return [w]
    _known_order_for(w, player, "cards are put on the bottom of")
    index: dict[tuple[Hashable, ...], int] = {}
    keys = [index.setdefault(_interchangeable_key(o), len(index)) for o in grave]
    count = orders_count(keys)
    if count > _RANDOM_ORDERS_MAX:
        raise ResolutionUnsupported(f"{count} random orders of {player}'s cards put on the bottom of their "
                                    f"library (more than {_RANDOM_ORDERS_MAX} chance outcomes)")
    orders = _distinct_orders(keys)
    out: list[_World] = []
    for order in orders:
        v = w.fork() if len(orders) > 1 else w
        placed, _left = _place(grave, keys, list(order))
        for oid in placed:
            move(v, oid, "library", timestamp=v.objects[oid].timestamp)
        _relist_library(v, player, lib + placed)
        if len(orders) > 1:
            v.prob *= Fraction(1, len(orders))
            v.choices["bottom"] = placed   # a random result, not a choice
        out.append(v)
    return out


_EFFECT_HANDLERS: dict[type, Callable[[_World, _Ctx, Any], list[_World]]] = {
    ir.Damage: _do_damage,
    ir.IfDealtDamage: _do_if_dealt_damage,
    ir.Destroy: _do_destroy,
    ir.Pump: _do_lasting,
    ir.UntilEndOfTurn: _do_until_end_of_turn,
    ir.Fight: _do_fight,
    ir.Draw: _do_draw_or_mill,
    ir.Mill: _do_draw_or_mill,
    ir.ExileTopPlayable: _do_exile_top_playable,
    ir.DelayedCast: _do_delayed,   # its record's step names it: "cast" / "next_cast" (CR 603.7b-c)
    ir.Discard: _do_discard,
    ir.GainLife: _do_life,
    ir.ItsControllerGainsLife: _do_its_controller,
    ir.ItsControllerInvestigates: _do_its_controller,
    ir.LoseLife: _do_life,
    ir.LookAtHand: _do_nothing,
    ir.CreateTokens: _create_tokens,
    ir.ReturnToBattlefield: _do_return_to_battlefield,
    ir.CounterSpell: _do_counter,
    ir.CounterUnlessPays: _do_counter_unless,
    ir.SkipUntap: _do_skip_untap,
    ir.ExileIfDies: _do_exile_if_dies,
    ir.Reflexive: _do_reflexive,
    ir.ExiledCardTokens: _do_exiled_card_tokens,
    ir.Exile: _do_exile_or_return_to_hand,
    ir.ReturnToHand: _do_exile_or_return_to_hand,
    ir.Tap: _do_tap_or_untap,
    ir.Untap: _do_tap_or_untap,
    ir.PutCounters: _do_counters,
    ir.Conjure: _conjure,
    ir.SearchLibrary: _search,
    ir.ArrangeTop: _do_arrange_top,
    ir.ChooseFromTop: _do_choose_from_top,
    ir.Dig: _do_dig,
    ir.ExileLibrary: _do_exile_library,
    ir.ShuffleHandIntoLibrary: _do_shuffle_hand_into_library,
    ir.PileOnTop: _do_pile_on_top,
    ir.LoseHalfLife: _do_lose_half_life,
    ir.ExiledToHand: _do_exiled_to_hand,
    ir.WinIfLibraryAtMost: _do_win_if_library_at_most,
    ir.Shuffle: _do_shuffle,
    ir.PutFromHandOnTop: _do_hand_on_top,
    ir.Scry: _do_scry_or_surveil,
    ir.Surveil: _do_scry_or_surveil,
    ir.Transform: _do_transform,
    ir.Flip: _do_transform,
    ir.ReturnTransformed: _do_return_transformed,
    ir.Blink: _do_blink,
    ir.ReturnExiled: _do_return_exiled,
    ir.GainControl: _do_gain_control,
    ir.ReturnAllFromGraveyard: _do_return_all_from_graveyard,
    ir.RevealTop: _do_reveal_top,
    ir.Meld: _do_meld,
    ir.Regenerate: _do_regenerate,
    ir.PreventDamage: _do_prevent,
    ir.IfCast: _do_if_cast,
    ir.IfCondition: _do_if_condition,
    ir.CoinFlip: _do_coin_flip,
    ir.LoseGame: _do_lose_game,
    ir.UntapChosen: _do_untap_chosen,
    ir.ExtraTurn: _do_extra_turn,
    ir.SkipNextCombat: _do_skip_next_combat,
    ir.RemoveCounter: _do_remove_counter,
    ir.CastSuspended: _do_cast_suspended,
    ir.Cascade: _do_cascade,
    ir.Animate: _do_lasting,
    ir.Sacrifice: _do_sacrifice,
    ir.CopySpell: _do_copy_spell,
    ir.Attach: _do_attach,
    ir.Unattach: _do_unattach,
    ir.GroupPump: _do_group_pump,
    ir.GroupAnimate: _do_group_pump,
    ir.PutFromHand: _do_put_from_hand,
    ir.ThisTurn: _do_lasting,
    ir.GroupThisTurn: _do_group_this_turn,
    ir.Explore: _do_explore,
    ir.Monstrosity: _do_monstrosity,
    ir.Adapt: _do_adapt,
    ir.Bolster: _do_bolster,
    ir.Connive: _do_connive,
    ir.MayPay: _do_may_pay,
    ir.SacrificeChosen: _do_sacrifice_chosen,
    ir.SacrificeUnlessPays: _do_sacrifice_unless,
    ir.ChooseDiscard: _do_choose_discard,
    ir.Transmute: _do_transmute,
    ir.ReturnChosen: _do_return_chosen,
    ir.PutCountersOnEach: _do_counters_each,
    ir.Proliferate: _do_proliferate,
    ir.AddMana: _do_add_mana,
    ir.Delayed: _do_delayed,
    ir.GainLifeEqualTo: _do_gain_life_equal_to,
    ir.PutInLibrary: _do_put_in_library,
    ir.ShuffleSelfIntoLibrary: _do_shuffle_self_into_library,
    ir.Wheel: _do_wheel,
    ir.GraveyardToBottom: _do_graveyard_to_bottom,
    ir.RevealTopToHand: _do_reveal_top_to_hand,
}


def _record_may(w: _World, value: bool, n_optional: int) -> None:
    if n_optional <= 1:
        w.choices["may"] = value
    else:
        w.choices.setdefault("may", []).append(value)


# ===========================================================================
# State-based actions (CR 704) and triggered abilities (CR 603.3)
# ===========================================================================

class _OutcomeGroup(TypedDict):
    """The finished worlds of :func:`resolve_top` that reach one situation: its state, per
    distinct choices (as canonical JSON) the choices and their summed probability, and the
    players who lost on the way."""

    state: GameState
    choices: dict[str, tuple[JsonObject, Fraction]]
    losers: set[str]


def resolve_top(state: GameState, deadline: float | None = None) -> ResolveResult:
    """Resolve the top object of the stack under every legal choice, then
    state-based actions and triggered abilities (module docstring); every
    distinct resulting situation once (identified by :meth:`GameState.key`), in the
    order of the canonical text of their choices.

    Raises :class:`NothingToResolve` (empty stack), :class:`CannotResolve`
    (the top of the stack makes no rules sense as given),
    :class:`ResolutionUnsupported` (behaviour not modeled) or
    :class:`ResolveTimeout` (``deadline``, a :func:`time.monotonic` value,
    passed)."""
    stack = state.zone("stack")
    if not stack:
        raise NothingToResolve("the stack is empty")
    top = stack[0]
    start = _World(state)
    todo = _resolve_object(start, top)
    done: list[_World] = []
    while todo:
        if deadline is not None and time.monotonic() > deadline:
            raise ResolveTimeout()
        v = todo.pop()
        dispatch_events(v)  # what resolving or the last round of state-based actions changed (CR 603.2)
        if _game_over(v):  # CR 104.2a: the game is over; nothing more happens
            done.append(v)
            continue
        nxt = _sba_once(v)
        if nxt is not None:
            todo.extend(nxt)
            continue
        if v.pending:
            todo.extend(_put_triggers(v))
            continue
        done.append(v)
    random = any(v.prob != 1 for v in done)
    groups: dict[StateKey, _OutcomeGroup] = {}
    for v in done:
        fs = _finalize(v)
        g = groups.setdefault(fs.key(), {"state": fs, "choices": {}, "losers": set()})
        ck = _canon(v.choices)
        prev = g["choices"].get(ck)
        g["choices"][ck] = (v.choices, (prev[1] if prev else 0) + v.prob)
        g["losers"] |= v.losers
    outcomes = []
    for g in groups.values():
        ordered = sorted(g["choices"].items())
        (_, (c0, p0)), rest = ordered[0], ordered[1:]
        outcomes.append(Outcome(state=g["state"], choices=c0,
                                alternatives=tuple(c for _, (c, _) in rest),
                                probability=p0 if random else None,
                                alternative_probabilities=tuple(p for _, (_, p) in rest) if random else (),
                                losers=tuple(p for p in state.player_ids if p in g["losers"])))
    outcomes.sort(key=lambda o: _canon(o.choices))  # the edge adds the situations to this order
    if len(state.players) > 2 and any(o.losers for o in outcomes):
        start.notes.add("a player lost in a game of more than two players: leaving the game (CR 800.4a) "
                        "is not modeled")
    return ResolveResult(tuple(outcomes), tuple(sorted(start.notes)), resolved=not start.fizzled)

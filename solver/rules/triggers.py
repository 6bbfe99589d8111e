"""Which triggered abilities a game event triggers (CR 603.2): the rules of the trigger events read
by the reader (:class:`~solver.core.ir.Trigger` kinds), applied to the events the transition kernel
records (:mod:`solver.core.events`).

* :func:`times_triggered` — how many times one triggered ability of an observer (a permanent on the
  battlefield, or one that left it in the same event, CR 603.10a) triggers on one event: an ability
  triggers once for each time its event occurs (603.2c) — "whenever a creature you control attacks"
  once per attacking creature, "whenever you attack" once per declaration;
* :func:`step_fires` — whether a "beginning of <step>" ability triggers as a step begins (CR 603.2b,
  503.1a, 507.1, 513.1a);
* :data:`EVENT_TRIGGERS` — the trigger kinds the kernel dispatches from its events (the others are
  queued where their event happens: "when this enters", "when this dies", "whenever this attacks",
  "whenever this becomes tapped", ward).

Soundness: a trigger kind listed here triggers exactly on the events named in its docstring; the
kernel records every such event (a zone change in ``move``, a spell cast in the action applier,
life gained in ``change_life``, a card drawn in ``draw`` and the draw step, combat damage in the
combat damage step, attackers and blockers as they are declared), so no read trigger is skipped.
"""
from __future__ import annotations

from functools import lru_cache
from typing import Any

from ..core import events as ev
from ..core.errors import UnsupportedCase
from ..core import ir
from ..core.state import GameObject
from .characteristics import Chars, View
from .conditions import condition_holds
from .modes import TargetingSource
from .spending import filter_matches
from .targeting import object_fits

__all__ = ["EVENT_TRIGGERS", "times_triggered", "event_subjects", "event_refs_used", "step_fires",
           "is_event_trigger", "condition_met", "batch_key"]

#: Trigger kinds dispatched from the kernel's events (an :class:`~solver.core.ir.EitherTrigger` is,
#: whatever its events).
EVENT_TRIGGERS: tuple[type[ir.Trigger], ...] = (
    ir.ObjectEntersTrigger, ir.ObjectDiesTrigger, ir.LeavesTrigger, ir.CastTrigger, ir.CombatDamageTrigger,
    ir.LifeGainTrigger, ir.DrawTrigger, ir.YouAttackTrigger, ir.OtherAttacksTrigger, ir.BlocksTrigger,
    ir.BecomesBlockedTrigger, ir.EitherTrigger, ir.CastSelfTrigger, ir.DealtDamageTrigger,
    ir.GroupCombatDamageTrigger, ir.UnblockedTrigger, ir.DiscardTrigger)


def batch_key(t: ir.Trigger, event: ev.GameEvent) -> Any:
    """For a trigger that triggers once per batch of events (``once_per_batch``: "is dealt damage", "one or
    more … deal combat damage to a player", CR 603.2c), what tells its triggerings apart within a batch
    (the damaged player); None for other triggers."""
    if not getattr(t, "once_per_batch", False):
        return None
    return ("batch", getattr(event, "target", None) if isinstance(t, ir.GroupCombatDamageTrigger) else None)


def condition_met(view: View, ability: Any, source: GameObject, controller: str) -> bool:
    """CR 603.4: a triggered ability with an intervening "if" clause triggers only if its condition
    is true as the event happens, and does nothing as it resolves if the condition is false then."""
    cond = getattr(ability, "condition", None)
    return cond is None or condition_holds(view, cond, source, controller)


def is_event_trigger(a: Any) -> bool:
    """Is ``a`` a triggered ability the kernel dispatches from its events?"""
    return isinstance(a, ir.TriggeredAbility) and isinstance(a.trigger, EVENT_TRIGGERS)


def step_fires(t: ir.Trigger, step: str, active: str, controller: str, opponents: tuple[str, ...]) -> bool:
    """CR 603.2b: does "at the beginning of …" trigger ``t`` of a permanent controlled by
    ``controller`` trigger as ``step`` of ``active``'s turn begins? "Your" means the controller's
    turn, "each opponent's" an opponent's, "each" / "the" every turn."""
    if not isinstance(t, ir.StepTrigger) or t.step != step:
        return False
    if t.whose == "you":
        return active == controller
    if t.whose == "opponent":
        return active in opponents
    return True


class _Observer:
    """The permanent whose ability may trigger: as it is, or as it last existed (CR 603.10a)."""

    __slots__ = ("obj", "source")

    def __init__(self, obj: GameObject):
        self.obj = obj
        self.source = TargetingSource("triggered", obj.id, obj.controller, ())


def times_triggered(t: ir.Trigger, event: ev.GameEvent, observer: GameObject, view: View,
                    opponents: tuple[str, ...]) -> int:
    """How many times trigger ``t`` of ``observer`` triggers on ``event`` (CR 603.2, 603.2c).
    ``view``: the game after the event (characteristics of entering permanents, spells cast);
    ``opponents``: the opponents of the observer's controller."""
    if isinstance(t, ir.EitherTrigger):
        return sum(times_triggered(e, event, observer, view, opponents) for e in t.events)
    o = _Observer(observer)
    if isinstance(event, ev.Entered):
        return int(_enters(t, event, o, view))
    if isinstance(event, ev.LeftBattlefield):
        return int(_leaves(t, event, o))
    if isinstance(event, ev.SpellCast):
        return int(_cast(t, event, o, view, opponents))
    if isinstance(event, ev.LifeGained):
        return int(isinstance(t, ir.LifeGainTrigger) and event.player == observer.controller and event.amount > 0)
    if isinstance(event, ev.CardDrawn):
        return int(isinstance(t, ir.DrawTrigger) and _whose(t.who, event.player, observer.controller, opponents))
    if isinstance(event, ev.CardDiscarded):
        return int(isinstance(t, ir.DiscardTrigger) and _whose(t.who, event.player, observer.controller, opponents))
    if isinstance(event, ev.DamageDealt):
        return int(_damage(t, event, o, view, opponents))
    if isinstance(event, ev.Attacked):
        return _attacks(t, event, o, view)
    if isinstance(event, ev.Blocked):
        return int(_blocks(t, event, o))
    return 0


def _whose(who: str, player: str, controller: str, opponents: tuple[str, ...]) -> bool:
    """Is ``player`` among the players a trigger's subject names — ``you`` (the controller), ``opponent``
    (an opponent of the controller), ``any`` (CR 603.2, 102.2)?"""
    return who == "any" or (player == controller if who == "you" else player in opponents)


def _fits(f: ir.Filter, obj: GameObject, c: Chars, o: _Observer) -> bool:
    return object_fits(obj, c, f, o.source)


def _enters(t: ir.Trigger, e: ev.Entered, o: _Observer, view: View) -> bool:
    if isinstance(t, ir.EntersTrigger):  # only inside an EitherTrigger: "enters or attacks"
        return e.oid == o.obj.id
    if not isinstance(t, ir.ObjectEntersTrigger):
        return False
    entering = view.state.find(e.oid)
    if entering is None or entering.zone != "battlefield" or (t.tapped and not e.tapped):
        return False
    if e.oid == o.obj.id and t.self_too:
        return True
    return _fits(t.what, entering, view.chars(e.oid), o)


def _leaves(t: ir.Trigger, e: ev.LeftBattlefield, o: _Observer) -> bool:
    if isinstance(t, ir.LeavesTrigger):
        return e.before.id == o.obj.id
    if isinstance(t, ir.DiesTrigger):  # only inside an EitherTrigger
        return e.before.id == o.obj.id and e.zone == "graveyard" and e.dies_ok and (e.creature or t.any_permanent)
    if not isinstance(t, ir.ObjectDiesTrigger) or e.zone != "graveyard" or not e.dies_ok:
        return False
    if e.before.id == o.obj.id and t.self_too:
        return True
    return e.chars is not None and _fits(t.what, e.before, e.chars, o)


def _cast(t: ir.Trigger, e: ev.SpellCast, o: _Observer, view: View, opponents: tuple[str, ...]) -> bool:
    if isinstance(t, ir.CastSelfTrigger):   # the spell itself, on the stack (CR 113.6c)
        return e.stack_id == o.obj.id
    if not isinstance(t, ir.CastTrigger):
        return False
    if not _whose(t.who, e.player, o.obj.controller, opponents):
        return False
    if t.nth:
        if e.nth is None:
            raise UnsupportedCase(f"unsupported: \"{t.describe()}\" counts the spells {e.player} cast this turn, "
                                  "which the situation does not record (turn.spells_cast)")
        if e.nth != t.nth:
            return False
    spell = view.state.find(e.stack_id)
    if spell is None or spell.zone != "stack":
        return False
    c = view.chars(e.stack_id)
    if t.mv_counters and c.mana_value != o.obj.counter(t.mv_counters):
        return False   # "with mana value equal to the number of charge counters on this artifact" (CR 202.3)
    return not t.spells or any(filter_matches(f, c) for f in t.spells)


def _damage(t: ir.Trigger, e: ev.DamageDealt, o: _Observer, view: View, opponents: tuple[str, ...]) -> bool:
    if isinstance(t, ir.DealtDamageTrigger):
        return e.amount > 0 and e.target == o.obj.id
    if isinstance(t, ir.GroupCombatDamageTrigger):
        dealer = view.state.find(e.source)
        return e.combat and e.amount > 0 and view.state.is_player(e.target) and dealer is not None \
            and dealer.zone == "battlefield" and _fits(t.what, dealer, view.chars(e.source), o) \
            and (t.to == "player" or e.target in opponents)
    if not isinstance(t, ir.CombatDamageTrigger) or e.amount <= 0 or not _recipient_fits(t.to, e.target, view):
        return False
    if t.combat and not e.combat:
        return False
    if t.to == "opponent" and e.target not in opponents:
        return False
    if t.subject == "self":
        return e.source == o.obj.id
    if t.subject == "attached":
        return o.obj.attached_to == e.source
    dealer = view.state.find(e.source)
    return t.what is not None and dealer is not None and dealer.zone == "battlefield" and \
        _fits(t.what, dealer, view.chars(e.source), o)


def _recipient_fits(to: str, target: str, view: View) -> bool:
    """Whom the damage was dealt to, for "… deals combat damage to a player / an opponent / a creature" (CR
    120.1, 510.2; a permanent dealt damage is still on the battlefield as the damage event is dispatched)."""
    if to == "any":
        return True
    if to == "creature":
        o = view.state.find(target)
        return o is not None and o.zone == "battlefield" and view.chars(target).is_creature
    return view.state.is_player(target)


def _attacks(t: ir.Trigger, e: ev.Attacked, o: _Observer, view: View) -> int:
    if isinstance(t, ir.YouAttackTrigger):
        return int(e.player == o.obj.controller and len(e.attackers) >= max(t.n, 1))   # CR 508.1
    if isinstance(t, ir.AttacksTrigger):  # only inside an EitherTrigger: "attacks or blocks"
        return int(o.obj.id in e.attackers)
    if not isinstance(t, ir.OtherAttacksTrigger):
        return 0
    if t.alone and len(e.attackers) != 1:   # CR 506.5: the only creature declared as an attacker
        return 0
    if t.subject == "attached":
        return int(o.obj.attached_to in e.attackers)
    if t.what is None:
        return 0
    return sum(1 for a in e.attackers if (x := view.state.find(a)) is not None and _fits(t.what, x, view.chars(a), o))


def _blocks(t: ir.Trigger, e: ev.Blocked, o: _Observer) -> bool:
    if isinstance(t, ir.UnblockedTrigger):
        return o.obj.id in e.unblocked
    if isinstance(t, ir.BlocksTrigger):
        return any(b == o.obj.id and attackers for b, attackers in e.blocks)
    if isinstance(t, ir.BecomesBlockedTrigger):
        return any(o.obj.id in attackers for _, attackers in e.blocks)
    return False


def event_refs_used(ability: Any) -> frozenset[str]:
    """The kinds of :data:`EVENT_REF_KINDS` the effects of triggered ability ``ability`` read.
    Only those are recorded on the ability (an ability that does not read its event's object
    stays one ability, whatever object triggered it: CR 603.3b orders them the same)."""
    try:
        return _refs_used_cached(ability)
    except TypeError:  # an unhashable ability value
        return _refs_used(ability)


@lru_cache(maxsize=4096)
def _refs_used_cached(ability: Any) -> frozenset[str]:
    return _refs_used(ability)


def _refs_used(ability: Any) -> frozenset[str]:
    return ir.event_ref_kinds(getattr(ability, "effects", ()))


def event_subjects(t: ir.Trigger, event: ev.GameEvent, observer: GameObject, view: View,
                   opponents: tuple[str, ...]) -> list[tuple[str | None, str | None]]:
    """One (object, player) pair per time trigger ``t`` of ``observer`` triggers on ``event``
    (:func:`times_triggered`; CR 603.2c): what the event names — the permanent that entered
    (CR 603.6a), the card a dying creature became in its owner's graveyard (603.6c, 603.10a), the
    spell and its caster (601.2i), the source of combat damage and the player dealt it (510.2),
    each attacking creature of "whenever a creature … attacks" (508.3a)."""
    if isinstance(t, ir.EitherTrigger):
        return [x for e in t.events for x in event_subjects(e, event, observer, view, opponents)]
    n = times_triggered(t, event, observer, view, opponents)
    if n == 0:
        return []
    if isinstance(event, ev.Attacked) and isinstance(t, ir.OtherAttacksTrigger) and t.subject != "attached" \
            and t.what is not None:
        o = _Observer(observer)
        return [(a, None) for a in event.attackers
                if (x := view.state.find(a)) is not None and _fits(t.what, x, view.chars(a), o)]
    if isinstance(event, ev.DamageDealt) and isinstance(t, ir.CombatDamageTrigger) and t.to == "creature":
        return [(event.target, None)] * n    # "that creature": the creature dealt damage
    return [_subject(event, view)] * n


def _subject(event: ev.GameEvent, view: View) -> tuple[str | None, str | None]:
    if isinstance(event, ev.Entered):
        return event.oid, None
    if isinstance(event, ev.LeftBattlefield):
        now = view.state.find(event.before.id)  # the new object, where the event put it (CR 400.7)
        return (now.id if now is not None and now.zone == event.zone else None), None
    if isinstance(event, ev.SpellCast):
        return event.stack_id, event.player
    if isinstance(event, ev.DamageDealt):
        return event.source, (event.target if view.state.is_player(event.target) else None)
    if isinstance(event, ev.CardDrawn):
        return None, event.player   # the player who drew (CR 121.1, 608.2c)
    if isinstance(event, ev.CardDiscarded):   # the card, where the discard put it (CR 400.7), and its player
        now = view.state.find(event.oid)
        return (event.oid if now is not None and now.zone == "graveyard" else None), event.player
    return None, None

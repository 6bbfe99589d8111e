"""Applying a fully specified legal action to a game state (rules layer).

The action-applying half of the one transition engine (issue 17 item 1): what
changes when a player takes an action while holding priority —

* ``play_land`` (CR 305.1, 116.2a): the card moves from its owner's hand to the
  battlefield, tapped or with counters as its text says (CR 614.1c, counter
  replacement effects through :mod:`solver.rules.replacement`, CR 616);
* ``cast`` (CR 601.2a-h): the card moves to the top of the stack with its
  targets and X, and the payment is made;
* ``activate`` (CR 602.2a-b): an ability object goes on the stack and its cost
  is paid (tapping, sacrificing, discarding or exiling the source, loyalty,
  "once each turn", CR 602.5b, 606.3-4);
* ``suspend`` (CR 702.62a, 116.2f): a special action, the card exiled with
  time counters;
* paying (CR 601.2g-h, 605.1a, 118.3) through the kernel's one ``pay``: permanents tapped,
  untapped and sacrificed, counters removed, life paid, damage from mana abilities taken,
  the riders of mana abilities, the world's pools left as the payment says;

then the abilities that triggered meanwhile go on the stack (CR 603.3b); the ward abilities of
the permanents a spell or ability targets (CR 702.21a) are queued as it is cast or activated
(:func:`~solver.engine.transition.queue_target_triggers`) and wait with the dies abilities.
Every change goes through the kernel of :mod:`solver.engine.transition`
(``docs/kernel.md``): zone changes through ``move`` (CR 400.7; a creature
sacrificed as a cost dies and its dies abilities are queued with its last
known information, CR 700.4, 603.10a), costs through ``pay`` (draws through
``draw``, life and counters through ``change_life``/``adjust_counters``), the action's own
triggers onto the stack through ``put_triggers`` (APNAP, CR 101.4, with the
player's ``trigger_order``). The queued dies abilities are returned with the
new state (:class:`Applied`) and put on the stack with the state-based
actions.
State-based actions are not performed here: :func:`solver.api.play.after_action`
settles the result through :func:`solver.engine.transition.settle` (CR 117.5, 704.3)
like every other change of state, all of 704.5 in one place. Passing priority is not applied here: :mod:`solver.engine.turns` moves the
game on (CR 117.3d-117.4).

:func:`apply_action` is the entry point; ``Situation.apply`` (:mod:`solver.api`)
completes and checks the action, then calls it. This module does not import the
interface layer (``tests/test_import_graph.py``).
"""
from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any, Sequence

from ..core import ir
from .actions import ability_of, target_specs
from ..rules.sagas import is_saga
from ..rules.characteristics import View
from ..core.moves import Action, AmbiguousActionError, InvalidActionError, Payment, UnsupportedActionError
from ..core.object_ids import next_free_id
from ..core.state import AbilityRef, DelayedTrigger, GameObject, GameState, PreventionShield
from .transition import (ResolutionUnsupported, _PendingTrigger, _World, change_life, move, pay, put_triggers,
                         queue_target_triggers, queue_triggers, count_spell, dispatch_events)
from ..core.events import SpellCast
from .copies import needs_cast_before
from .resolution import _interchangeable_key
from ..core.errors import UnsupportedCase
from ..rules.replacement import counter_event_outcomes, enters_tapped, life_choice, may_pay_life
from ..rules.suspend import suspend_of
from ..rules.faces import CAST_WITH, at_face
from ..rules.modes import chooses_on_stack

__all__ = ["ActionApplier", "Applied", "apply_action", "stack_index"]


@dataclass(frozen=True)
class Applied:
    """The result of an action: ``state`` right after it (before state-based actions);
    ``pending``: abilities that triggered as it was taken and wait to be put on the stack with the
    state-based actions' (the "when this dies" abilities of creatures sacrificed to pay a cost, CR
    700.4, 603.10a, queued by :func:`~solver.engine.transition.move`); ``stacked``: the players whose
    own triggered abilities the action put on the stack (CR 603.3b)."""

    state: GameState
    pending: tuple[_PendingTrigger, ...] = ()
    stacked: tuple[str, ...] = ()


def apply_action(state: GameState, view: View, player: str, action: Action,
                 trigger_order: Sequence[str] | None = None) -> Applied:
    """The state right after ``player`` takes the fully specified legal ``action``
    in ``state`` (``view`` is its rules view), before state-based actions are
    checked for priority (CR 117.5; :func:`solver.api.play.after_action`).

    ``trigger_order`` orders one player's triggered abilities (their source
    ids, top of the stack first; CR 603.3b). Raises
    :class:`~solver.core.moves.AmbiguousActionError` when a choice is left open
    (that order, the order of replacement effects) and
    :class:`~solver.core.moves.UnsupportedActionError` when a consequence is not
    modeled.

    An action with ``face`` (an Adventure, a split card's half, a modal double-faced card's back
    face, CR 715.3, 709.3, 712.11b, 712.12) is applied to the situation in which the card has only
    that face's characteristics (:func:`solver.rules.faces.at_face`): the spell goes on the stack as
    that face (715.3b, 709.3b), the land enters with that face up (712.12)."""
    if action.face is not None:
        state, _ = at_face(state, action.head)
        view = View.of(state)
    return ActionApplier(state, view, player, action, trigger_order).run()


# ---------------------------------------------------------------------------
# Applying an action to a state
# ---------------------------------------------------------------------------

class ActionApplier:
    """Builds the state after one fully specified legal action (CR 305.1, 601.2, 602.2, 116.2f).

    ``view`` is the rules view of ``state`` (:class:`~solver.rules.characteristics.View`,
    CR 613), passed in so that a caller that already built it does not build it
    twice; ``player`` is the player taking the action (the one with priority)."""

    def __init__(self, state: GameState, view: View, player: str, action: Action,
                 trigger_order: Sequence[str] | None):
        self.view = view
        self.state = state
        self.action = action
        self.player = player
        self.trigger_order = list(trigger_order) if trigger_order is not None else None
        self.w = _World(state)  # the objects and life totals, changed through the kernel (solver.engine.transition)
        self.w.stamper = self.stamp
        self.objs: dict[str, GameObject] = self.w.objects  # read; written through self.w.put and the kernel
        self.turn = state.turn
        self.next_ts = max((o.timestamp for o in state.objects), default=0) + 1
        self.triggers: list[_PendingTrigger] = []  # the action's own triggers (dies triggers wait in self.w.pending)

    # -- helpers -----------------------------------------------------------
    def stamp(self) -> int:
        ts = self.next_ts
        self.next_ts += 1
        return ts

    def put_on_stack(self, obj: GameObject) -> None:
        """A new ability object on top of the stack (CR 602.2a)."""
        top = min((o.order for o in self.objs.values() if o.zone == "stack"), default=0) - 1
        self.w.put(obj.with_(zone="stack", order=top))

    def taken_ids(self) -> set[str]:
        return self.w.taken_ids()

    def triggered(self, source: GameObject, event: type[ir.Trigger], x: int = 0) -> None:
        """Triggered abilities of ``source`` on ``event`` (CR 603.2), to be put on the stack later.

        Numbered as the stack names them (contract §1: the n-th triggered or
        activated ability in printed order); an ability the permanent has lost
        (Blood Moon, CR 305.7) does not trigger."""
        if source.card is None:
            return
        printed = ir.numbered_abilities(source.card.abilities)
        wanted = [(i, a) for i, a in enumerate(printed, start=1)
                  if isinstance(a, ir.TriggeredAbility) and isinstance(a.trigger, event)]
        if not wanted:
            return
        live = self.live_abilities(source.id)
        for i, a in wanted:
            if a in live and chooses_on_stack(a):
                raise UnsupportedActionError(
                    f"{source.name}'s triggered ability needs modes or targets chosen as it is put on the "
                    f"stack (CR 603.3c-d); apply does not model that choice yet")
        self.triggers += queue_triggers(self.w, source, event, live, x=x)

    def live_abilities(self, oid: str) -> tuple[ir.Ability, ...]:
        """The abilities the permanent has now (after continuous effects)."""
        before = self.state.find(oid)
        if before is not None and before.zone == "battlefield":
            return self.view.chars(oid).abilities
        return View.of(self.build()).chars(oid).abilities

    # -- payment -----------------------------------------------------------
    def pay(self, payment: Payment, x: int) -> None:
        """CR 601.2g-h: activate mana abilities and pay the total cost, as the payment describes,
        through the kernel's one :func:`~solver.engine.transition.pay` (the pools are the world's,
        ``self.w.pools``); the "becomes tapped" abilities it queues are the action's own triggers."""
        self.check_payment(payment)
        try:
            tapped = pay(self.w, self.player, payment)
        except ResolutionUnsupported as e:
            raise UnsupportedActionError(str(e)) from None
        for t in tapped:
            if chooses_on_stack(t.ability):
                raise UnsupportedActionError(
                    f"{self.objs[t.source].name}'s triggered ability needs modes or targets chosen as it is put "
                    f"on the stack (CR 603.3c-d); apply does not model that choice yet")
        self.triggers += tapped

    def check_payment(self, payment: Payment) -> None:
        """The riders of the mana abilities the payment activated (CR 605.1a) name permanents (kept
        tapped through the next untap step, CR 502.3, object key ``skip_untap``; counters put on
        them) and players (life gained or lost)."""
        for oid in payment.skip_untap + tuple(o for o, _ in payment.add_counters):
            if oid not in self.objs or self.objs[oid].zone != "battlefield":
                raise InvalidActionError(f"payment: {oid} is not a permanent")
        for pid, _ in payment.life_gained + payment.life_lost:
            if pid not in self.w.life:
                raise InvalidActionError(f"payment: {pid} is not a player")

    # -- the actions -------------------------------------------------------
    def run(self) -> Applied:
        a = self.action
        if a.kind == "pass":  # passing priority moves the game on: solver.engine.turns (CR 117.3d-117.4)
            raise InvalidActionError("'pass' is not applied here: passing priority is solver.engine.turns' move")
        if a.kind == "play_land":
            self.play_land(a)
        elif a.kind == "cast":
            self.cast(a)
        elif a.kind == "suspend":
            self.suspend(a)
        else:
            self.activate(a)
        self.own_event_triggers()
        stacked = self.stack_triggers()
        self.refuse_unmodeled()
        return Applied(self.build(), tuple(self.w.pending), stacked)

    def refuse_unmodeled(self) -> None:
        """What the kernel noted as not modeled of an object that entered or left the battlefield
        (``move``: persist on a creature sacrificed as a cost, a land's unread text as it is played)
        could change what happens: the action is refused, as the turn engine refuses a change whose
        settling noted such text (:func:`solver.engine.turns.settle_action`) — never ignored."""
        if self.w.notes:
            raise UnsupportedActionError("not modeled: " + "; ".join(sorted(self.w.notes)))

    def play_land(self, a: Action) -> None:
        o = self.objs[_object_of(a)]
        tapped = False
        counters: dict[str, int] = {}
        paid = self.pay_life_as_enters(o, bool(a.pay_life))
        for ab in (o.card.abilities if o.card else ()):
            if isinstance(ab, ir.EntersWith):
                if ab.choose:
                    # "As this land enters, choose a color" (CR 614.12): the choice is the player's;
                    # apply has no way to be told it, and never chooses for them
                    raise UnsupportedActionError(f"'{o.id}' has its controller choose a {ab.choose} as it enters; "
                                                 "apply can't make that choice")
                if enters_tapped(self.view, ab, o, self.player, paid):  # "… unless you control …" (CR 614.1c)
                    tapped = True
                if ab.counter:
                    amount = ab.amount if isinstance(ab.amount, int) else 0  # X of a played land is 0 (CR 107.3)
                    counters[ab.counter] = counters.get(ab.counter, 0) + amount
        if is_saga(o.card):
            counters["lore"] = counters.get("lore", 0) + 1  # CR 714.3a: a Saga land (Urza's Saga)
        move(self.w, o.id, "battlefield", controller=self.player, sick=True, tapped=tapped,  # CR 305.1
             **self._face_status(o))
        self.turn = replace(self.turn, lands_played=self.turn.lands_played + 1)
        if counters:
            self.enter_with_counters(o.id, counters)
        self.triggered(self.objs[o.id], ir.EntersTrigger)

    def pay_life_as_enters(self, o: GameObject, paid: bool) -> bool:
        """"As this land enters, you may pay N life. If you don't, it enters tapped." (CR 614.12: the
        choice is made as it would enter, by the action's ``pay_life``): the life paid through the kernel's
        ``change_life`` (a loss, CR 119.4), only with N or more life. Returns whether it was paid."""
        n = life_choice(o.card.abilities if o.card else ())
        if not paid:
            return False
        if not n or not may_pay_life(self.view, self.player, n):
            raise InvalidActionError(f"{o.id}: no {n or ''} life can be paid as it enters (CR 614.12, 119.4)")
        change_life(self.w, self.player, -n)
        return True

    def enter_with_counters(self, oid: str, counters: dict[str, int]) -> None:
        """CR 614.1c, 616: the counters a permanent enters with, after counter
        replacement effects (Doubling Season), through the one ordering
        mechanism (:mod:`solver.rules.replacement`). When the orders give different
        results the player would choose; apply does not choose for them."""
        probe = self.build()
        view = View.of(probe)
        if not view.counter_replacements:
            final = counters
        else:
            results = counter_event_outcomes(view, oid, None, 0, True, 0)
            if len(results) != 1:
                raise AmbiguousActionError(
                    f"{oid} enters with counters whose number depends on the order of replacement effects "
                    f"(CR 616.1): {len(results)} outcomes; apply does not choose that order")
            final = dict(next(iter(results)))
        o = self.objs[oid]
        self.w.put(o.with_(counters=tuple(sorted((k, v) for k, v in final.items() if v))))

    def cast(self, a: Action) -> None:
        specs = target_specs(self.state, self.view, a.head)
        cast_with: dict[str, Any] = {"cast_with": a.alternative} if a.alternative in CAST_WITH else {}
        if a.kicked:
            cast_with["kicked"] = int(a.kicked)   # CR 702.33d: the spell records that it was kicked
        if a.buyback:
            cast_with["buyback"] = True           # CR 702.27a: to its owner's hand as it resolves
        if a.casualty:
            cast_with["casualty"] = True          # CR 702.153a: its "if a casualty cost was paid" trigger reads it
        if a.modes:
            cast_with["modes"] = a.modes          # CR 700.2a, 601.2b: the spell records the modes chosen
        if self.turn.spells_cast is not None and needs_cast_before(self.objs[_object_of(a)].card):   # storm
            cast_with["cast_before"] = sum(n for _, n in self.turn.spells_cast)
        move(self.w, _object_of(a), "stack", controller=self.player, x=a.x or 0,  # CR 601.2a
             targets=a.targets if specs else None, **self._face_status(self.objs[_object_of(a)]), **cast_with)
        queue_target_triggers(self.w, _object_of(a))  # the targets' ward abilities (CR 702.21a)
        payment = _payment_of_complete(a)
        sacrificed = self._sacrificed_creature(payment)
        self.pay(payment, a.x or 0)
        if sacrificed:
            spell = self.w.objects[_object_of(a)]
            self.w.put(spell.with_(sacrificed=sacrificed))
        self.turn = count_spell(self.turn, self.player, self.state.player_ids)  # turn.spells_cast (CR 730.2)
        self.w.events.append(SpellCast(_object_of(a), self.player, self.turn.cast_by(self.player)))  # CR 601.2i

    def _sacrificed_creature(self, payment: Payment) -> tuple[tuple[str, int], ...]:
        """The power, toughness and mana value of the one creature the payment sacrifices, as it is now (its
        last known information once sacrificed, CR 608.2h): what "the sacrificed creature's power" of the
        spell names. None recorded when no creature or several are sacrificed (resolution then refuses)."""
        creatures = [oid for oid in payment.sacrifice if self.view.chars(oid).is_creature]
        if len(creatures) != 1:
            return ()
        c = self.view.chars(creatures[0])
        return (("mana_value", c.mana_value), ("power", c.power or 0), ("toughness", c.toughness or 0))

    def _face_status(self, o: GameObject) -> dict[str, Any]:
        """The face the card shows where it goes when the action names one: the spell on the stack
        as the face cast (CR 715.3b, 709.3b, 712.11b), the land played as its back face (712.12)."""
        if self.action.face is None or o.front is None:
            return {}
        return {"card": o.card, "front": o.front}

    def suspend(self, a: Action) -> None:
        """CR 702.62a, 116.2f: pay the suspend cost and exile the card from its owner's hand with N time
        counters on it (a special action: nothing goes on the stack, CR 116.3 — the player keeps
        priority). Time counters are the object key ``counters`` of the card in exile."""

        oid = _object_of(a)
        o = self.objs[oid]
        s = suspend_of(o)
        assert s is not None   # a legal suspend action names a card with suspend
        self.pay(_payment_of_complete(a), 0)
        counters = (("time", s.time_counters),) if s.time_counters > 0 else ()
        move(self.w, oid, "exile", counters=counters)

    def activate(self, a: Action) -> None:
        oid = _object_of(a)
        source = self.objs[oid]
        ab = ability_of(self.view, a.head)
        assert ab is not None
        aid = next_free_id(f"ability-of-{a.object}", self.taken_ids())
        specs = target_specs(self.state, self.view, a.head)   # a modal ability: its chosen modes' (CR 601.2c)
        obj = GameObject(id=aid, zone="stack", owner=self.player, controller=self.player, card=None,
                         x=a.x or 0, targets=a.targets if specs else None, modes=a.modes if ab.modes else None,
                         ability=AbilityRef(oid, stack_index(source, ab)), timestamp=self.stamp())
        self.put_on_stack(obj)
        queue_target_triggers(self.w, aid)  # the targets' ward abilities (CR 702.21a)
        self.pay(_payment_of_complete(a), a.x or 0)  # {T}, {Q}, sacrifices and counters are parts of the payment (contract §2.3)
        if ab.cost.discard_self:   # cycling, channel: the card is discarded as the cost (CR 602.2b, 601.2h, 701.9)
            move(self.w, oid, "graveyard")
            if ab.cycling:         # "When you cycle this card": from the zone it went to (CR 702.29c)
                self.triggered(self.objs[oid], ir.CycleTrigger, x=a.x or 0)
        if ab.cost.exile_self:     # "Exile this artifact" (CR 602.2b, 601.2h, 406.2)
            move(self.w, oid, "exile")
        if ab.cost.return_self:    # "Return this creature to its owner's hand" (CR 602.2b, 601.2h)
            move(self.w, oid, "hand")
        if ab.limit is not None:   # "Activate only once each turn" (CR 602.5b): object key activated_this_turn
            o = self.objs[oid]
            done = dict(o.activated_this_turn)
            done[a.head.index] = done.get(a.head.index, 0) + 1
            self.w.put(o.with_(activated_this_turn=tuple(sorted(done.items()))))
        if ab.cost.loyalty is not None:
            # CR 606.3: one loyalty ability per permanent each turn; CR 606.4: a +N cost puts N loyalty
            # counters on it (as a cost: not doubled by Doubling Season, per its ruling); -N was paid above
            o = self.objs[oid]
            done = dict(o.activated_this_turn)
            done[a.head.index] = done.get(a.head.index, 0) + 1
            counters = dict(o.counters)
            if ab.cost.loyalty > 0:
                counters["loyalty"] = counters.get("loyalty", 0) + ab.cost.loyalty
            self.w.put(o.with_(activated_this_turn=tuple(sorted(done.items())),
                               counters=tuple(sorted((k, v) for k, v in counters.items() if v > 0))))

    # -- afterwards --------------------------------------------------------
    def own_event_triggers(self) -> None:
        """CR 603.2, 603.3b: the abilities the action's events triggered (a spell cast, a permanent
        entering or leaving, life gained: :func:`~solver.engine.transition.dispatch_events`). Those
        without targets are the action's own, put on the stack now with the others; those with
        targets wait, to be put on the stack with their targets chosen by ``settle`` (CR 603.3d)."""
        try:
            queued = dispatch_events(self.w)
        except UnsupportedCase as e:
            raise UnsupportedActionError(str(e)) from None
        for t in queued:
            if not chooses_on_stack(t.ability):
                self.triggers.append(t)

    def stack_triggers(self) -> tuple[str, ...]:
        """CR 603.3b: the action's own triggered abilities go on the stack in APNAP order, each
        player's in the order ``trigger_order`` gives (:func:`~solver.engine.transition.put_triggers`);
        the dies abilities of creatures sacrificed to pay a cost keep waiting (:class:`Applied`).
        Returns the players whose abilities were put on the stack."""
        if not self.triggers:
            return ()
        own = {p.seq for p in self.triggers}
        waiting = [p for p in self.w.pending if p.seq not in own]
        self.w.pending = [p for p in self.w.pending if p.seq in own]
        (self.w,) = put_triggers(self.w, self.chosen_order)
        self.objs = self.w.objects
        self.w.pending = waiting + self.w.pending  # and those they triggered (ward, CR 702.21a)
        return tuple(sorted({p.controller for p in self.triggers}))

    def _interchangeable(self, mine: list[_PendingTrigger]) -> bool:
        """Are these pending triggers one ability of interchangeable sources, naming nothing else (no
        targets yet, the same event object and player, no last known information)?"""
        first = mine[0]

        def key(t: _PendingTrigger) -> tuple[Any, ...]:
            o = self.objs.get(t.source)
            status = None if o is None else (o.zone, *_interchangeable_key(o))
            return (t.index, t.ability, t.controller, t.event_object, t.event_player, t.last_known, t.refers_to,
                    t.delayed, t.it, status)
        return first.event_object is None and all(key(t) == key(first) for t in mine)

    def chosen_order(self, pid: str, mine: list[_PendingTrigger]) -> list[_PendingTrigger]:
        """The order ``pid``'s abilities go on the stack (the first at the bottom): ``trigger_order``
        lists their sources top of the stack first (CR 603.3b)."""
        if len(mine) <= 1:
            return mine
        if self.trigger_order is None and self._interchangeable(mine):
            # the same ability of interchangeable sources (two Nettle Sentinels): every order is the same
            # outcome up to which of the interchangeable objects is which (contract §2.3) — one order
            return sorted(mine, key=lambda t: t.source)
        if self.trigger_order is None:
            raise AmbiguousActionError(
                f"{pid} puts {len(mine)} triggered abilities on the stack and chooses their order "
                f"(CR 603.3b); pass trigger_order=[source ids, top of the stack first]: "
                f"{', '.join(sorted(t.source for t in mine))}", tuple(sorted(t.source for t in mine)))
        rank = {s: i for i, s in enumerate(self.trigger_order)}
        missing = [t.source for t in mine if t.source not in rank]
        if missing:
            raise InvalidActionError(f"trigger_order does not list {', '.join(missing)}")
        return sorted(mine, key=lambda t: -rank[t.source])  # the last listed goes on the stack first

    def build(self) -> GameState:
        """The new state, objects in the loader's canonical order with positions renumbered
        (so that loading ``dump_state`` of it gives an equal state)."""
        zones = ("battlefield", "hand", "graveyard", "library", "exile", "command")
        ids = self.state.player_ids
        objs = list(self.w.objects.values())
        out: list[GameObject] = []
        for zone in zones:
            for pid in ids:
                group = [o for o in objs if o.zone == zone and (o.controller if zone == "battlefield" else o.owner) == pid]
                group.sort(key=lambda o: o.order)
                out.extend(o.with_(order=n) for n, o in enumerate(group))
        stack = sorted((o for o in objs if o.zone == "stack"), key=lambda o: o.order)
        out.extend(o.with_(order=n) for n, o in enumerate(stack))
        pools = tuple((pid, self.w.pools[pid]) for pid in ids if self.w.pools.get(pid))
        players = tuple(p if (p.life, p.life_lost_this_turn) == (self.w.life[p.id], self.w.life_lost[p.id])
                        else replace(p, life=self.w.life[p.id], life_lost_this_turn=self.w.life_lost[p.id])
                        for p in self.state.players)
        turn = self.turn if self.turn.history == self.w.history else replace(self.turn, history=self.w.history)
        return replace(self.state, players=players, turn=turn, objects=tuple(out), mana_pool=pools,
                       restricted_pool=self.w.rpool,
                       day_night=self.w.day_night,
                       prevention=tuple(sorted(self.w.prevention, key=PreventionShield.sort_key)),
                       delayed=tuple(sorted(self.w.delayed, key=DelayedTrigger.sort_key)))


def _object_of(a: Action) -> str:
    """The object of a ``play_land``/``cast``/``activate`` action (never None: Action checks it)."""
    assert a.object is not None
    return a.object


def _payment_of_complete(a: Action) -> Payment:
    """The payment of a completed action (:meth:`Situation.complete` always names one)."""
    assert a.payment is not None
    return a.payment


def stack_index(source: GameObject, ability: ir.ActivatedAbility) -> int:
    """The index an ability object on the stack uses for ``ability`` (contract §1:
    the n-th triggered *or* activated ability of the source in printed order;
    the ``activate`` queries count activated abilities only)."""
    printed = ir.numbered_abilities(source.card.abilities if source.card else ())
    for i, a in enumerate(printed, start=1):
        if a is ability or a == ability:
            return i
    raise UnsupportedActionError(f"{source.name}'s ability is not printed on it (granted by an effect); "
                                 "an ability object for it cannot be named on the stack (contract §1)")

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
* paying (CR 601.2g-h, 605.1a, 118.3): permanents tapped, untapped and
  sacrificed, counters removed, life paid, damage from mana abilities taken,
  the riders of mana abilities, pools left as the payment says;

then the abilities that triggered meanwhile go on the stack (CR 603.3b).
State-based actions are not performed here: :func:`solver.api.play.after_action`
settles the result through :func:`solver.engine.transition.settle` (CR 117.5, 704.3)
like every other change of state, all of 704.5 in one place. Passing priority is not applied here: :mod:`solver.engine.turns` moves the
game on (CR 117.3d-117.4).

:func:`apply_action` is the entry point; ``Situation.apply`` (:mod:`solver.api`)
completes and checks the action, then calls it. This module does not import the
interface layer (``tests/test_import_graph.py``).
"""
from __future__ import annotations

from dataclasses import replace
from typing import Sequence, cast

from ..core import ir
from .actions import ability_of, target_specs
from ..rules.characteristics import View
from ..core.mana import Mana
from ..core.moves import Action, AmbiguousActionError, InvalidActionError, Payment, UnsupportedActionError
from ..core.object_ids import next_free_id
from ..core.state import AbilityRef, GameObject, GameState

__all__ = ["ActionApplier", "apply_action", "stack_index"]


def apply_action(state: GameState, view: View, player: str, action: Action,
                 trigger_order: Sequence[str] | None = None) -> GameState:
    """The state right after ``player`` takes the fully specified legal ``action``
    in ``state`` (``view`` is its rules view), before state-based actions are
    checked for priority (CR 117.5; :func:`solver.api.play.after_action`).

    ``trigger_order`` orders one player's triggered abilities (their source
    ids, top of the stack first; CR 603.3b). Raises
    :class:`~solver.core.moves.AmbiguousActionError` when a choice is left open
    (that order, the order of replacement effects) and
    :class:`~solver.core.moves.UnsupportedActionError` when a consequence is not
    modeled."""
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
        self.objs: dict[str, GameObject] = {o.id: o for o in state.objects}
        self.order: list[str] = [o.id for o in state.objects]
        self.players = {p.id: p for p in state.players}
        self.pools = dict(state.mana_pool)
        self.turn = state.turn
        self.next_ts = max((o.timestamp for o in state.objects), default=0) + 1
        self.triggers: list[tuple[str, str, int]] = []  # (controller, source, ability index)

    # -- helpers -----------------------------------------------------------
    def stamp(self) -> int:
        ts = self.next_ts
        self.next_ts += 1
        return ts

    def put_on_stack(self, obj: GameObject) -> None:
        for oid, o in list(self.objs.items()):
            if o.zone == "stack":
                self.objs[oid] = o.with_(order=o.order + 1)
        if obj.id not in self.objs:
            self.order.append(obj.id)
        self.objs[obj.id] = obj.with_(zone="stack", order=0)

    def taken_ids(self) -> set[str]:
        return set(self.objs) | set(self.players)

    def move_to_graveyard(self, oid: str) -> None:
        o = self.objs[oid]
        self.objs[oid] = o.with_(zone="graveyard", controller=o.owner, tapped=False, sick=False, counters=(),
                                 damage=0, attached_to=None, order=10**9, timestamp=self.stamp())

    def triggered(self, source: GameObject, event: type[ir.Trigger]) -> None:
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
            if a not in live:
                continue
            if a.targets:
                raise UnsupportedActionError(
                    f"{source.name}'s triggered ability needs targets chosen as it is put on the stack "
                    f"(CR 603.3d); apply does not model that choice yet")
            self.triggers.append((source.controller, source.id, i))

    def live_abilities(self, oid: str) -> tuple:
        """The abilities the permanent has now (after continuous effects)."""
        before = self.state.find(oid)
        if before is not None and before.zone == "battlefield":
            return self.view.chars(oid).abilities
        return View(self.build()).chars(oid).abilities

    # -- payment -----------------------------------------------------------
    def pay(self, payment: Payment, x: int) -> None:
        """CR 601.2g-h: activate mana abilities and pay the total cost, as the payment describes."""
        for oid in payment.tap:
            o = self.objs[oid]
            self.objs[oid] = o.with_(tapped=True)
            self.triggered(o, ir.BecomesTappedTrigger)
        for oid in payment.untap:
            self.objs[oid] = self.objs[oid].with_(tapped=False)
        for oid, counters in payment.remove_counters:  # CR 118.3: removing counters as a cost
            o = self.objs[oid]
            left = dict(o.counters)
            for kind, n in counters:
                left[kind] = left.get(kind, 0) - n
            self.objs[oid] = o.with_(counters=tuple(sorted((k, v) for k, v in left.items() if v > 0)))
        self.pay_riders(payment)
        for oid, uses in payment.activated:  # CR 602.5b: these count toward "once each turn"
            o = self.objs[oid]
            done = dict(o.activated_this_turn)
            for index, n in uses:
                done[index] = done.get(index, 0) + n
            self.objs[oid] = o.with_(activated_this_turn=tuple(sorted(done.items())))
        for oid in payment.sacrifice:
            self.move_to_graveyard(oid)
        p = self.players[self.player]
        self.players[self.player] = replace(p, life=p.life - payment.life - payment.damage)
        for pid, n in payment.life_gained:   # CR 119.3 (riders of mana abilities)
            self.players[pid] = replace(self.players[pid], life=self.players[pid].life + n)
        for pid, n in payment.life_lost:
            self.players[pid] = replace(self.players[pid], life=self.players[pid].life - n)
        if payment.draw:
            self.draw(self.player, payment.draw)
        if payment.restricted_pool_after:
            # a situation file has no way to hold mana with a spending restriction (CR 106.6)
            raise UnsupportedActionError("this payment leaves restricted mana in the pool ("
                                  + "; ".join(f"{m}: {why}" for _, m, why in payment.restricted_pool_after)
                                  + "), which a situation can't hold")
        pools = dict(payment.pool_after)
        self.pools[self.player] = Mana.parse(pools.pop(self.player, ""))
        for pid, text in pools.items():
            if pid in self.players:
                self.pools[pid] = Mana.parse(text)

    def pay_riders(self, payment: Payment) -> None:
        """The riders of the mana abilities the payment activated (CR 605.1a): a
        permanent kept tapped through its controller's next untap step
        (CR 502.3, object key ``skip_untap``) and counters put on permanents."""
        for oid in payment.skip_untap + tuple(o for o, _ in payment.add_counters):
            if oid not in self.objs or self.objs[oid].zone != "battlefield":
                raise InvalidActionError(f"payment: {oid} is not a permanent")
        for pid, _ in payment.life_gained + payment.life_lost:
            if pid not in self.players:
                raise InvalidActionError(f"payment: {pid} is not a player")
        if payment.add_counters and self.view.counter_replacements:
            raise UnsupportedActionError("counters put on a permanent by a mana ability with counter replacement "
                                         "effects in force (CR 614.1a, 616) are not modeled by apply")
        for oid in payment.skip_untap:
            self.objs[oid] = self.objs[oid].with_(skip_untap=True)
        for oid, counters in payment.add_counters:  # CR 122.1
            o = self.objs[oid]
            now = dict(o.counters)
            for kind, n in counters:
                now[kind] = now.get(kind, 0) + n
            self.objs[oid] = o.with_(counters=tuple(sorted((k, v) for k, v in now.items() if v > 0)))

    def draw(self, player: str, n: int) -> None:
        """CR 121.1: the player puts the top ``n`` cards of their library into their hand.
        Refused when the outcome isn't known from the situation: a library with fewer
        listed cards (an unlisted library is indistinguishable from an empty one, and
        drawing from an empty library is a loss, CR 704.5b) or a shuffled one (random)."""
        library = sorted((o for o in self.objs.values() if o.zone == "library" and o.owner == player),
                         key=lambda o: o.order)
        if player in self.state.shuffled:
            raise UnsupportedActionError(f"the payment draws {n} card(s) from {player}'s shuffled library "
                                         "(a random card); apply does not choose it")
        if len(library) < n:
            raise UnsupportedActionError(f"the payment draws {n} card(s) but {player}'s library lists "
                                         f"{len(library)}: the cards drawn are not known")
        hand = [o.order for o in self.objs.values() if o.zone == "hand" and o.owner == player]
        top = max(hand, default=-1) + 1
        for i, card in enumerate(library[:n]):
            self.objs[card.id] = card.with_(zone="hand", order=top + i)

    # -- the actions -------------------------------------------------------
    def run(self) -> GameState:
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
        self.stack_triggers()
        return self.build()

    def play_land(self, a: Action) -> None:
        o = self.objs[_object_of(a)]
        entered = o.with_(zone="battlefield", controller=self.player, tapped=False, sick=True, counters=(), damage=0,
                          attached_to=None, targets=None, x=0, timestamp=self.stamp(), order=10**9)
        counters: dict[str, int] = {}
        for ab in (o.card.abilities if o.card else ()):
            if isinstance(ab, ir.EntersWith):
                if ab.choose:
                    # "As this land enters, choose a color" (CR 614.12): the choice is the player's;
                    # apply has no way to be told it, and never chooses for them
                    raise UnsupportedActionError(f"'{o.id}' has its controller choose a {ab.choose} as it enters; "
                                                 "apply can't make that choice")
                if ab.tapped:
                    entered = entered.with_(tapped=True)
                if ab.counter:
                    amount = ab.amount if isinstance(ab.amount, int) else 0  # X of a played land is 0 (CR 107.3)
                    counters[ab.counter] = counters.get(ab.counter, 0) + amount
        self.objs[o.id] = entered
        self.turn = replace(self.turn, lands_played=self.turn.lands_played + 1)
        if counters:
            self.enter_with_counters(o.id, counters)
        self.triggered(self.objs[o.id], ir.EntersTrigger)

    def enter_with_counters(self, oid: str, counters: dict[str, int]) -> None:
        """CR 614.1c, 616: the counters a permanent enters with, after counter
        replacement effects (Doubling Season), through the one ordering
        mechanism (:mod:`solver.rules.replacement`). When the orders give different
        results the player would choose; apply does not choose for them."""
        probe = self.build()
        view = View(probe)
        if not view.counter_replacements:
            final = counters
        else:
            from ..rules.replacement import counter_event_outcomes

            results = counter_event_outcomes(view, oid, None, 0, True, 0)
            if len(results) != 1:
                raise AmbiguousActionError(
                    f"{oid} enters with counters whose number depends on the order of replacement effects "
                    f"(CR 616.1): {len(results)} outcomes; apply does not choose that order")
            final = dict(next(iter(results)))
        o = self.objs[oid]
        self.objs[oid] = o.with_(counters=tuple(sorted((k, v) for k, v in final.items() if v)))

    def cast(self, a: Action) -> None:
        o = self.objs[_object_of(a)]
        specs = target_specs(self.state, self.view, a.head)
        spell = o.with_(zone="stack", controller=self.player, tapped=False, sick=False, counters=(), damage=0,
                        attached_to=None, x=a.x or 0, targets=a.targets if specs else None, timestamp=self.stamp())
        self.put_on_stack(spell)
        self.pay(_payment_of_complete(a), a.x or 0)

    def suspend(self, a: Action) -> None:
        """CR 702.62a, 116.2f: pay the suspend cost and exile the card from its owner's hand with N time
        counters on it (a special action: nothing goes on the stack, CR 116.3 — the player keeps
        priority). Time counters are the object key ``counters`` of the card in exile."""
        from ..rules.suspend import suspend_of

        oid = _object_of(a)
        o = self.objs[oid]
        s = suspend_of(o)
        assert s is not None   # a legal suspend action names a card with suspend
        self.pay(_payment_of_complete(a), 0)
        counters = (("time", s.time_counters),) if s.time_counters > 0 else ()
        self.objs[oid] = o.with_(zone="exile", controller=o.owner, tapped=False, sick=False, counters=counters,
                                 damage=0, attached_to=None, order=10**9, timestamp=self.stamp())

    def activate(self, a: Action) -> None:
        oid = _object_of(a)
        source = self.objs[oid]
        ab = ability_of(self.view, a.head)
        assert ab is not None
        aid = next_free_id(f"ability-of-{a.object}", self.taken_ids())
        specs = ab.targets
        obj = GameObject(id=aid, zone="stack", owner=self.player, controller=self.player, card=None,
                         x=a.x or 0, targets=a.targets if specs else None,
                         ability=AbilityRef(oid, stack_index(source, ab)), timestamp=self.stamp())
        self.put_on_stack(obj)
        before = source
        self.pay(_payment_of_complete(a), a.x or 0)  # {T}, {Q}, sacrifices and counters are parts of the payment (contract §2.3)
        if ab.cost.discard_self:   # cycling, channel: the card is discarded as the cost (CR 602.2b, 601.2h, 701.9)
            self.move_to_graveyard(oid)
        if ab.cost.exile_self:     # "Exile this artifact" (CR 602.2b, 601.2h, 406.2)
            gone = self.objs[oid]
            self.objs[oid] = gone.with_(zone="exile", controller=gone.owner, tapped=False, sick=False, counters=(),
                                        damage=0, attached_to=None, order=10**9, timestamp=self.stamp())
        if ab.limit is not None:   # "Activate only once each turn" (CR 602.5b): object key activated_this_turn
            o = self.objs[oid]
            done = dict(o.activated_this_turn)
            done[a.head.index] = done.get(a.head.index, 0) + 1
            self.objs[oid] = o.with_(activated_this_turn=tuple(sorted(done.items())))
        if ab.cost.loyalty is not None:
            # CR 606.3: one loyalty ability per permanent each turn; CR 606.4: a +N cost puts N loyalty
            # counters on it (as a cost: not doubled by Doubling Season, per its ruling); -N was paid above
            o = self.objs[oid]
            done = dict(o.activated_this_turn)
            done[a.head.index] = done.get(a.head.index, 0) + 1
            counters = dict(o.counters)
            if ab.cost.loyalty > 0:
                counters["loyalty"] = counters.get("loyalty", 0) + ab.cost.loyalty
            self.objs[oid] = o.with_(activated_this_turn=tuple(sorted(done.items())),
                                          counters=tuple(sorted((k, v) for k, v in counters.items() if v > 0)))
        if before.zone == "battlefield" and self.objs[oid].zone != "battlefield":  # the source left: keep its last known information
            lki = [("card", before.card), ("owner", before.owner), ("controller", before.controller),
                   ("tapped", before.tapped), ("sick", before.sick), ("counters", dict(before.counters) or None),
                   ("damage", before.damage), ("attached_to", before.attached_to), ("token", before.token),
                   ("conjured", before.conjured), ("chosen", before.chosen or None)]
            lki_t = tuple((k, (tuple(sorted(cast(dict, v).items())) if k == "counters" else v)) for k, v in lki
                          if v not in (None, False, 0, ()) or k in ("card", "owner", "controller"))
            self.objs[aid] = self.objs[aid].with_(last_known=lki_t)

    # -- afterwards --------------------------------------------------------
    def stack_triggers(self) -> None:
        """CR 603.3b: APNAP; each player orders their own triggers (``trigger_order``)."""
        if not self.triggers:
            return
        ids = self.state.player_ids
        start = ids.index(self.turn.active)
        apnap = ids[start:] + ids[:start]
        for pid in apnap:  # active player's go on the stack first (so they resolve last)
            mine = [t for t in self.triggers if t[0] == pid]
            if len(mine) > 1:
                if self.trigger_order is None:
                    raise AmbiguousActionError(
                        f"{pid} puts {len(mine)} triggered abilities on the stack and chooses their order "
                        f"(CR 603.3b); pass trigger_order=[source ids, top of the stack first]: "
                        f"{', '.join(sorted(t[1] for t in mine))}")
                rank = {s: i for i, s in enumerate(self.trigger_order)}
                missing = [t[1] for t in mine if t[1] not in rank]
                if missing:
                    raise InvalidActionError(f"trigger_order does not list {', '.join(missing)}")
                mine.sort(key=lambda t: -rank[t[1]])  # the last listed goes on the stack first
            for controller, source, index in mine:
                aid = next_free_id(f"ability-of-{source}", self.taken_ids())
                self.put_on_stack(GameObject(id=aid, zone="stack", owner=controller, controller=controller,
                                             card=None, ability=AbilityRef(source, index), timestamp=self.stamp()))

    def build(self) -> GameState:
        """The new state, objects in the loader's canonical order with positions renumbered
        (so that loading ``dump_state`` of it gives an equal state)."""
        zones = ("battlefield", "hand", "graveyard", "library", "exile", "command")
        ids = self.state.player_ids
        out: list[GameObject] = []
        for zone in zones:
            for pid in ids:
                group = [self.objs[i] for i in self.order if i in self.objs and self.objs[i].zone == zone and
                         (self.objs[i].controller if zone == "battlefield" else self.objs[i].owner) == pid]
                group.sort(key=lambda o: o.order)
                out.extend(o.with_(order=n) for n, o in enumerate(group))
        stack = sorted((self.objs[i] for i in self.order if i in self.objs and self.objs[i].zone == "stack"),
                       key=lambda o: o.order)
        out.extend(o.with_(order=n) for n, o in enumerate(stack))
        pools = tuple((pid, self.pools[pid]) for pid in ids if pid in self.pools and self.pools[pid])
        return replace(self.state, players=tuple(self.players[p] for p in ids), turn=self.turn, objects=tuple(out),
                       mana_pool=pools)


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

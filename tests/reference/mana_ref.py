"""Brute-force reference for ``could_produce`` (CR 106.7) and ``available_mana``.

Written independently of ``solver.mana_sources``, ``models.producible`` and
``models.available``, as plainly as possible:

* :func:`could_produce` iterates "what each permanent could produce" from
  nothing until it stops changing (the least fixed point, CR 106.7 example),
  applying replacement effects in every order with the brute-force walk of
  ``ordering_ref``;
* :func:`available_mana` plays every sequence of mana-ability activations on
  the actual game state — tapping, untapping nothing, sacrificing (the board
  changes: "could produce" and counts are re-read after every sacrifice),
  removing counters, paying life and mana from the pool in every way — and
  keeps the pools no other reachable pool contains.

Only the characteristics view (``solver.characteristics.View``, the
foundation every query shares) is reused.
"""
from __future__ import annotations

from dataclasses import replace
from itertools import combinations, combinations_with_replacement

from solver.characteristics import View
from solver.ir import ManaAbility, TriggeredManaAbility
from solver.mana import COLORS, TYPES, Mana
from solver.state import GameState

from .ordering_ref import mana_orders


# ---------------------------------------------------------------------------
# What an ability produces
# ---------------------------------------------------------------------------


def _amounts(view: View, oid: str, produce, cp: dict[str, set[str]], sacrificed: str | None) -> list[Mana]:
    """Every amount the ability may add as it resolves; [] when it adds nothing."""
    o = view.state.obj(oid)
    k = produce.kind
    if k == "fixed":
        out = [produce.options[0]]
    elif k == "choice":
        out = list(produce.options)
    elif k == "any_color":
        out = [Mana.of({c: produce.amount}) for c in COLORS]
    elif k == "any_type":
        out = [Mana.of({t: produce.amount}) for t in TYPES]
    elif k == "combination":
        out = [Mana.of(list(c)) for c in combinations_with_replacement(COLORS, produce.amount)]
    elif k == "could_produce":
        allowed = TYPES if produce.of_type else COLORS
        seen = set()
        for q in view.select(produce.selector, o, o.controller):
            seen |= cp[q]
        out = [Mana.of([t]) for t in allowed if t in seen]
    elif k == "sacrificed_could_produce":
        allowed = TYPES if produce.of_type else COLORS
        out = [Mana.of([t]) for t in allowed if sacrificed is not None and t in cp[sacrificed]]
    elif k == "count":
        n = len(view.select(produce.count.selector, o, o.controller))
        out = [produce.options[0].scale(n)]
    else:
        out = []
    return [m for m in out if m.total > 0]


# ---------------------------------------------------------------------------
# Could produce (CR 106.7)
# ---------------------------------------------------------------------------


def could_produce(view: View) -> dict[str, set[str]]:
    perms = [o.id for o in view.permanents]
    cp: dict[str, set[str]] = {p: set() for p in perms}
    while True:
        changed = False
        for p in perms:
            o = view.state.obj(p)
            ts: set[str] = set()
            for ab in view.chars(p).abilities:
                if isinstance(ab, ManaAbility):
                    amounts = []
                    if ab.produce.kind == "sacrificed_could_produce":
                        # ignoring costs: any land it could sacrifice
                        if ab.cost.sacrifice is not None:
                            victims = view.select(ab.cost.sacrifice, o, o.controller)
                        else:
                            victims = [p] if ab.cost.sacrifice_self else []
                        for v in victims:
                            amounts += _amounts(view, p, ab.produce, cp, v)
                    else:
                        amounts = _amounts(view, p, ab.produce, cp, None)
                    for m in amounts:
                        if ab.cost.tap:
                            for r in mana_orders(view, p, o.controller, m):
                                ts |= set(r.types())
                        else:
                            ts |= set(m.types())
                elif isinstance(ab, TriggeredManaAbility) and ab.produce.kind == "fixed":
                    ts |= set(ab.produce.options[0].types())
            if ts != cp[p]:
                cp[p] = ts
                changed = True
        if not changed:
            return cp


# ---------------------------------------------------------------------------
# Available mana: every sequence of activations, played out
# ---------------------------------------------------------------------------


def _pay(pool: Mana, cost, white_as_any: bool) -> set[Mana]:
    """Every pool left after paying ``cost`` (a ManaCost) from ``pool``."""
    results = {pool}
    for sym in cost.symbols:
        nxt = set()
        for p in results:
            for what, n in sym.payment_options():
                if what == "life" or what == "S":
                    continue
                if what == "*":
                    for combo in combinations_with_replacement(TYPES, n):
                        spend = Mana.of(list(combo))
                        if spend <= p:
                            nxt.add(p - spend)
                else:
                    # which types may pay a symbol of type `what` (Celestial Dawn: white
                    # as any color, other mana only as colorless)
                    if white_as_any:
                        payers = ["W"] if what != "C" else ["U", "B", "R", "G", "C"]
                    else:
                        payers = [what]
                    for t in payers:
                        spend = Mana.of({t: n})
                        if spend <= p:
                            nxt.add(p - spend)
        results = nxt
    return results


def available_mana(state: GameState, player: str) -> set[Mana]:
    """Every maximal pool ``player`` can reach by activating mana abilities now."""
    start_tapped = frozenset(o.id for o in state.objects if o.zone == "battlefield" and o.tapped)
    start_counters = tuple(sorted((o.id, k, n) for o in state.objects if o.zone == "battlefield"
                                  for k, n in o.counters))
    views: dict[frozenset, tuple[View, dict]] = {}

    def board(gone: frozenset) -> tuple[View, dict]:
        if gone not in views:
            objs = [o if o.id not in gone else replace(o, zone="graveyard", attached_to=None, tapped=False)
                    for o in state.objects]
            v = View(state.replace_objects(objs))
            views[gone] = (v, could_produce(v))
        return views[gone]

    life0 = state.player(player).life
    # permanents that look alike (same card, controller, status, counters, attachments, nothing
    # attached or pointing at them) are interchangeable: states that differ only by which of
    # them is tapped or gone are explored once
    look: dict[str, tuple] = {}
    pointed = {o.attached_to for o in state.objects if o.attached_to}
    for e in state.effects:
        if e.ability is not None:
            pointed.add(e.ability.source)
    for o in state.objects:
        if o.zone == "battlefield":
            look[o.id] = (o.id,) if o.id in pointed else (
                o.card.name if o.card else o.id, o.controller, o.owner, o.tapped, o.sick, o.counters, o.damage,
                o.attached_to, o.token)

    def canonical(tapped, gone, counters, life, pool):
        cd: dict[str, list] = {}
        for i, k, n in counters:
            cd.setdefault(i, []).append((k, n))
        shape = sorted((look[i], i in tapped, i in gone, tuple(cd.get(i, ()))) for i in look)
        return (tuple(shape), life, pool)

    reached: set[Mana] = set()
    seen: set = set()
    stack = [(start_tapped, frozenset(), start_counters, life0, state.pool(player))]
    while stack:
        key = stack.pop()
        ckey = canonical(*key)
        if ckey in seen:
            continue
        seen.add(ckey)
        tapped, gone, counters, life, pool = key
        reached.add(pool)
        view, cp = board(gone)
        white = any(s.controller == player for s in view.statics("spend_white_as_any"))
        cdict = {(i, k): n for i, k, n in counters}
        mine = [o for o in view.permanents if o.controller == player]
        for o in mine:
            for index, ab in enumerate(view.chars(o.id).activated, start=1):
                if not isinstance(ab, ManaAbility):
                    continue
                cost = ab.cost
                if cost.tap and (o.id in tapped or not view.can_pay_tap_symbol(o.id)):
                    continue
                if cost.untap:
                    continue
                if cost.life and cost.life > life:  # CR 119.4
                    continue
                if cost.remove_counters and cdict.get((o.id, cost.remove_counters[0]), 0) < cost.remove_counters[1]:
                    continue
                if cost.sacrifice is not None:
                    victims = [q for q in view.select(cost.sacrifice, o, player)
                               if view.state.obj(q).controller == player]
                elif cost.sacrifice_self:
                    victims = [o.id]
                else:
                    victims = [None]
                if cost.tap_other_creatures:
                    others = [c.id for c in mine if c.id != o.id and c.id not in tapped
                              and view.chars(c.id).is_creature]
                    tap_sets = list(combinations(others, cost.tap_other_creatures))
                else:
                    tap_sets = [()]
                for victim in victims:
                    amounts = _amounts(view, o.id, ab.produce, cp, victim)
                    results: set[Mana] = set()
                    for m in amounts:
                        if cost.tap:
                            for r in mana_orders(view, o.id, player, m):
                                results |= _with_triggers(view, o.id, r)
                        else:
                            results.add(m)
                    if not results:
                        results = {Mana()}
                    for rest in _pay(pool, cost.mana, white):
                        for extra in tap_sets:
                            for r in results:
                                t2 = tapped | ({o.id} if cost.tap else set()) | set(extra)
                                g2 = gone | ({victim} if victim else set())
                                c2 = dict(cdict)
                                if cost.remove_counters:
                                    c2[(o.id, cost.remove_counters[0])] -= cost.remove_counters[1]
                                ctuple = tuple(sorted((i, k, n) for (i, k), n in c2.items()))
                                stack.append((frozenset(t2), frozenset(g2), ctuple, life - cost.life - ab.damage_to_you,
                                              rest + r))
    return {p for p in reached if not any(q != p and p <= q for q in reached)}


def _with_triggers(view: View, tapped: str, produced: Mana) -> set[Mana]:
    """``produced`` plus what triggered mana abilities add (CR 605.1b, 106.12a)."""
    if produced.total == 0:
        return {produced}
    outs = {produced}
    for s in view.triggered_mana:
        ab: TriggeredManaAbility = s.ability
        if ab.trigger.event != "tapped_for_mana":
            continue
        if not view.matches(ab.trigger.selector, tapped, view.state.find(s.source), s.controller):
            continue
        if ab.produce.kind == "that_land_produced":
            adds = [Mana.of([t]) for t in produced.types()]
        else:
            adds = [ab.produce.options[0]]
        outs = {m + a for m in outs for a in adds}
    return outs

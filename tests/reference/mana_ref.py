"""Brute-force reference for ``could_produce`` (CR 106.7) and ``available_mana``.

Written independently of ``solver.rules.mana_sources``, ``models.producible`` and
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

Only the characteristics view (``solver.rules.characteristics.View``, the
foundation every query shares) is reused.
"""
from __future__ import annotations

import re

from dataclasses import replace
from dataclasses import replace as _dc_replace
from itertools import combinations, combinations_with_replacement

from mtgsolve.solver.rules.characteristics import View
from mtgsolve.solver.core.ir import ManaAbility, SpendWhiteAsAny, TriggeredManaAbility
from mtgsolve.solver.core.mana import COLORS, TYPES, Mana
from mtgsolve.solver.core.state import GameState

from .ordering_ref import mana_orders


# ---------------------------------------------------------------------------
# What an ability produces
# ---------------------------------------------------------------------------


def _number(view: View, o, count, x: int, counters: dict | None) -> int:
    """A variable amount, read plainly from the board (CR 107.3): ``counters``
    overrides the object's counters (those removed so far)."""
    if count.what == "x":
        n = x
    elif count.what == "counters":
        n = (counters if counters is not None else dict(o.counters)).get(count.counter, 0)
    elif count.what == "power":
        n = view.chars(o.id).power or 0
    elif count.what == "greatest_power":
        n = 0
        for q in view.select(count.selector, o, o.controller):
            if view.chars(q).is_creature:
                n = max(n, view.chars(q).power or 0)
    elif count.what == "greatest_toughness":
        n = 0
        for q in view.select(count.selector, o, o.controller):
            if view.chars(q).is_creature:
                n = max(n, view.chars(q).toughness or 0)
    elif count.what == "life":
        n = view.state.player(o.controller).life
    elif count.what == "devotion":
        # CR 700.5: mana symbols of that color among the mana costs of your permanents
        n = 0
        for q in view.permanents_of(o.controller):
            if q.card is not None:
                for sym in q.card.data.mana_cost.symbols:
                    if count.color in sym.colors:
                        n += 1
    elif count.what == "cards":
        f = count.card_filter
        n = 0
        for q in view.state.objects:
            if q.zone == "graveyard" and q.owner == o.controller and q.card is not None:
                c = view.chars(q.id)
                if (not f.types or f.types & c.types) and f.colors <= c.colors:
                    n += 1
    else:
        n = 0
        for q in view.select(count.selector, o, o.controller):
            c = view.chars(q)
            if count.keyword and not c.keyword(count.keyword):
                continue
            if count.min_power is not None and not ("Creature" in c.types and (c.power or 0) >= count.min_power):
                continue
            if count.same_name and c.name != view.chars(o.id).name:
                continue
            n += 1
    return max(n, 0) + count.plus


def _amounts(view: View, oid: str, produce, cp: dict[str, set[str]], sacrificed: str | None, x: int = 0,
             counters: dict | None = None) -> list[Mana]:
    """Every amount the ability may add as it resolves; [] when it adds nothing."""
    o = view.state.obj(oid)
    if produce.instead is not None:  # "If <condition>, add … instead", read as it resolves
        cond, alt = produce.instead
        produce = alt if _condition(view, cond, o, o.controller) else _dc_replace(produce, instead=None)
    k = produce.kind
    amount = produce.amount
    if produce.count is not None:
        amount = _number(view, o, produce.count, x, counters)
    if k == "fixed":
        out = [produce.options[0]]
    elif k == "choice":
        out = [m.scale(amount) for m in produce.options] if produce.count is not None else list(produce.options)
    elif k == "any_color" and produce.count is not None and produce.count.what == "devotion" \
            and produce.count.color == "chosen":
        # "Choose a color. Add … of that color equal to your devotion to that color" (CR 700.5)
        per = [Mana.of({c: _number(view, o, _dc_replace(produce.count, color=c), x, counters)}) for c in COLORS]
        out = [m for m in per if m]
    elif k == "any_color":
        out = [Mana.of({c: amount}) for c in COLORS]
    elif k == "any_type":
        out = [Mana.of({t: amount}) for t in TYPES]
    elif k == "combination":
        letters = [t for m in produce.options for t in m.types()] or list(COLORS)
        out = [Mana.of(list(c)) for c in combinations_with_replacement(letters, amount)]
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
        out = [produce.options[0].scale(amount)]
    elif k == "different_colors":
        out = [Mana.of(list(c)) for c in combinations(COLORS, amount)]
    elif k == "among_colors":
        seen = set()
        for f in produce.among:
            if f.zone == "graveyard":
                objs = [q for q in view.state.objects if q.zone == "graveyard" and q.owner == o.controller]
            else:
                objs = view.permanents_of(o.controller)
            for q in objs:
                c = view.chars(q.id)
                if (not f.types or f.types & c.types) and f.supertypes <= c.supertypes:
                    seen |= set(c.colors)
        if getattr(produce, "each", False):   # one mana of each of those colors, together
            out = [Mana.of([col for col in COLORS if col in seen])] if seen else []
        else:
            out = [Mana.of([col]) for col in COLORS if col in seen]
    elif k == "commander_identity":
        # CR 903.4: the mana symbols' colors of the player's commander cards (the database's
        # colorIdentity); CR 903.4f: without a commander, nothing
        seen = set()
        for q in view.state.objects:
            if getattr(q, "commander", False) and q.owner == o.controller and q.card is not None:
                ci = q.card.data.color_identity
                if ci is None:
                    ci = tuple(set(q.card.data.mana_cost.colors) | {
                        c for sym in re.findall(r"\{([^}]*)\}", re.sub(r"\([^)]*\)", "", q.card.data.text))
                        for c in "WUBRG" if c in sym.upper().split("/")})
                seen |= set(ci)
        out = [Mana.of([col]) for col in COLORS if col in seen]
    elif k == "chosen_color":
        # the color recorded as chosen when it entered; none: nothing of that kind (CR 106.5)
        named = {"white": "W", "blue": "U", "black": "B", "red": "R", "green": "G"}
        given = dict(o.chosen).get("color")
        letter = named.get(given.lower(), given.upper() if given.upper() in COLORS else None) \
            if isinstance(given, str) else None
        out = list(produce.options) + ([Mana.of({letter: amount})] if letter else [])
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
                        # costs ignored: a "Remove X counters" cost can remove one
                        x = max(1, ab.cost.remove_x_counters[1]) if ab.cost.remove_x_counters else 0
                        amounts = _amounts(view, p, ab.produce, cp, None, x=x)
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


def _condition(view: View, cond, o, player: str) -> bool:
    """An activation restriction (CR 602.5b, 602.5d, 602.5e), checked plainly on the board."""
    k = cond.kind
    if k == "any":
        return any(_condition(view, c, o, player) for c in cond.parts)
    if k == "all":
        return all(_condition(view, c, o, player) for c in cond.parts)
    if k == "control":
        mine = [q.id for q in view.permanents if q.controller == player]
        return sum(1 for q in mine if view.matches(cond.selector, q, o, player)) >= cond.n
    if k == "control_power":
        return any(view.chars(q.id).is_creature and (view.chars(q.id).power or 0) >= cond.n
                   for q in view.permanents if q.controller == player)
    if k == "counters":
        return dict(o.counters).get(cond.counter, 0) >= cond.n
    if k == "entered_this_turn":
        return o.entered_this_turn
    if k == "is_creature":
        return "Creature" in view.chars(o.id).types
    turn = view.state.turn
    if k == "your_turn":
        return turn.active == player
    if k == "opponent_turn":
        return turn.active != player
    if k == "sorcery":
        return turn.active == player and turn.step in ("main1", "main2") and \
            not any(q.zone == "stack" for q in view.state.objects)
    if k == "instant":
        return True
    if k == "graveyard_card":
        return any(q.zone == "graveyard" and q.owner == player and
                   any(t in view.chars(q.id).subtypes for t in cond.selector.subtypes) for q in view.state.objects)
    if k == "total_power":
        total = 0
        for q in view.permanents:
            if q.controller == player and "Creature" in view.chars(q.id).types:
                total += view.chars(q.id).power or 0
        return total >= cond.n
    if k == "opponent_poison":
        return any(p.id != player and p.poison >= cond.n for p in view.state.players)
    if k == "same_name_lands":
        lands = [view.chars(q.id).name for q in view.permanents
                 if q.controller == player and "Land" in view.chars(q.id).types]
        return any(lands.count(n) >= cond.n for n in lands)
    raise AssertionError(k)


def banned(view: View, o, mana: bool = True) -> bool:
    """CR 602.5: a static "Activated abilities of <permanents | sources with the chosen
    name> can't be activated [unless they're mana abilities]" applies to ``o``'s abilities."""
    for q in view.permanents:
        for st in view.chars(q.id).abilities:
            if getattr(st, "kind", None) != "cant_activate" or (mana and st.except_mana):
                continue
            if st.chosen_name:
                name = dict(q.chosen).get("name")
                if isinstance(name, str) and name.lower() == view.chars(o.id).name.lower():
                    return True
            elif view.matches(st.affected, o.id, q, q.controller):
                return True
    return False


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
                o.attached_to, o.token, o.activated_this_turn, o.entered_this_turn)

    def canonical(tapped, gone, counters, life, pool, uses):
        cd: dict[str, list] = {}
        for i, k, n in counters:
            cd.setdefault(i, []).append((k, n))
        ud: dict[str, list] = {}
        for (i, idx), n in uses:
            ud.setdefault(i, []).append((idx, n))
        shape = sorted((look[i], i in tapped, i in gone, tuple(cd.get(i, ())), tuple(sorted(ud.get(i, ()))))
                       for i in look)
        return (tuple(shape), life, pool)

    reached: set[Mana] = set()
    seen: set = set()
    pool0 = state.pool(player)
    for mana, _restriction in state.restricted_mana(player):
        pool0 = pool0 + mana   # restricted mana is mana in the pool (CR 106.6): its type is unchanged
    stack = [(start_tapped, frozenset(), start_counters, life0, pool0, frozenset())]
    while stack:
        key = stack.pop()
        ckey = canonical(*key)
        if ckey in seen:
            continue
        seen.add(ckey)
        tapped, gone, counters, life, pool, uses = key
        used = dict(uses)
        reached.add(pool)
        view, cp = board(gone)
        white = any(s.controller == player for s in view.statics(SpendWhiteAsAny))
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
                # CR 602.5b: a per-turn limit counts earlier activations this turn and those made here
                if ab.limit is not None and o.activated(index) + used.get((o.id, index), 0) >= ab.limit:
                    continue
                if ab.condition is not None and not _condition(view, ab.condition, o, player):
                    continue
                if banned(view, o):
                    continue
                mine_counters = {k: n for (i, k), n in cdict.items() if i == o.id}
                if cost.remove_x_counters:
                    xs = range(cost.remove_x_counters[1], mine_counters.get(cost.remove_x_counters[0], 0) + 1)
                else:
                    xs = [0]
                if cost.sacrifice is not None:
                    victims = [q for q in view.select(cost.sacrifice, o, player)
                               if view.state.obj(q).controller == player]
                elif cost.sacrifice_self:
                    victims = [o.id]
                else:
                    victims = [None]
                if cost.tap_other_creatures:
                    # "Tap N untapped creatures / Elves you control" (CR 118.1): sickness doesn't matter;
                    # the source itself only when its {T} doesn't tap it already
                    sel = cost.tap_selector
                    others = [c.id for c in mine if not (cost.tap and c.id == o.id) and c.id not in tapped
                              and (view.chars(c.id).is_creature if sel is None
                                   else view.matches(sel, c.id, o, player))]
                    tap_sets = list(combinations(others, cost.tap_other_creatures))
                else:
                    tap_sets = [()]
                for victim, x in [(v, x) for v in victims for x in xs]:
                    amounts = _amounts(view, o.id, ab.produce, cp, victim, x=x, counters=mine_counters)
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
                                if cost.remove_x_counters:
                                    c2[(o.id, cost.remove_x_counters[0])] = \
                                        c2.get((o.id, cost.remove_x_counters[0]), 0) - x
                                if cost.put_counters:  # a cost (CR 118.1): Wall of Roots' -0/-1 counter
                                    c2[(o.id, cost.put_counters[0])] = \
                                        c2.get((o.id, cost.put_counters[0]), 0) + cost.put_counters[1]
                                life2 = life - cost.life - ab.damage_to_you
                                for rd in ab.riders:  # CR 605.1a: the ability's other effects
                                    if rd.condition is not None and not _condition(view, rd.condition, o, player):
                                        continue
                                    if rd.kind == "add_counters":
                                        c2[(o.id, rd.counter)] = c2.get((o.id, rd.counter), 0) + rd.n
                                    elif rd.kind == "sacrifice_if_none" and c2.get((o.id, rd.counter), 0) <= 0:
                                        g2 = g2 | {o.id}
                                    elif rd.kind in ("gain_life", "lose_life") and rd.who in ("you", "each_player"):
                                        life2 += rd.n if rd.kind == "gain_life" else -rd.n
                                ctuple = tuple(sorted((i, k, n) for (i, k), n in c2.items()))
                                u2 = dict(used)
                                u2[(o.id, index)] = u2.get((o.id, index), 0) + 1
                                stack.append((frozenset(t2), frozenset(g2), ctuple, life2,
                                              rest + r, frozenset(u2.items())))
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

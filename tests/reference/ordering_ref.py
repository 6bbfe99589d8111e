"""Brute-force reference for replacement-effect orderings (CR 614.5, 616.1).

Written independently of ``solver.rules.replacement`` and ``models.ordering``, as
plainly as possible: it walks every legal sequence of individual effects,
re-checking after each application which effects still apply (616.1f),
offering only self-replacement effects while any applies (616.1a), and using
each effect at most once (614.5). Results map an outcome to the set of orders
(tuples of effect-source ids) that give it.
"""
from __future__ import annotations

from mtgsolve.solver.rules.characteristics import View
from mtgsolve.solver.core.ir import Count, CounterReplacement, EntersWith, ManaReplacement
from mtgsolve.solver.core.mana import Mana


def _mana_effects(view: View, tapped: str, tapper: str) -> list[tuple[str, ManaReplacement]]:
    out = []
    for s in view.mana_replacements:
        ab = s.ability
        if ab.tapper == "you" and s.controller != tapper:
            continue
        if view.matches(ab.tapped, tapped, view.state.find(s.source), s.controller):
            out.append((s.source, ab))
    return out


def _apply_mana(ab: ManaReplacement, m: Mana) -> Mana:
    if ab.op == "multiply":
        return m.scale(ab.factor)  # "twice as much of that mana"
    if ab.op == "set_type":
        return Mana.of({ab.mana_type: m.total})  # "that type instead of any other type"
    if ab.op == "set_type_and_amount":
        return Mana.of({ab.mana_type: 1})  # "{B} instead of any other type and amount"
    raise AssertionError(ab.op)


def mana_orders(view: View, tapped: str, tapper: str, produced: Mana) -> dict[Mana, set[tuple[str, ...]]]:
    """Every result of ``tapper`` tapping ``tapped`` for ``produced`` mana."""
    effects = _mana_effects(view, tapped, tapper)
    results: dict[Mana, set[tuple[str, ...]]] = {}

    def walk(m: Mana, used: frozenset[int], order: tuple[str, ...]) -> None:
        # an effect modifies the production event only while mana is being produced
        choices = [i for i in range(len(effects)) if i not in used and m.total > 0]
        if not choices:
            results.setdefault(m, set()).add(order)
            return
        for i in choices:
            walk(_apply_mana(effects[i][1], m), used | {i}, order + (effects[i][0],))

    walk(produced, frozenset(), ())
    return results


def counter_orders(view: View, oid: str, counter: str | None = None, amount: int = 0, entering: bool = False,
                   x: int = 0) -> dict[tuple[tuple[str, int], ...], set[tuple[str, ...]]]:
    """Every result of counters being put on ``oid`` (or of ``oid`` entering)."""
    o = view.state.obj(oid)
    own = []  # the entering object's "enters with" effects (self-replacement, CR 616.1a)
    if entering:
        if counter:
            own.append((counter, amount))
        else:
            for ab in view.chars(oid).abilities:
                if isinstance(ab, EntersWith) and ab.counter:
                    n = ab.amount
                    if n == "X":
                        n = x
                    elif isinstance(n, Count):
                        n = len(view.select(n.selector, o, o.controller))
                    own.append((ab.counter, n))
    others = []
    for s in view.counter_replacements:
        ab: CounterReplacement = s.ability
        if view.matches(ab.affected, oid, view.state.find(s.source), s.controller):
            others.append((s.source, ab))
    start: dict[str, int] = {}
    if counter and not entering:
        start[counter] = amount
    results: dict = {}

    def applies(ab: CounterReplacement, c: dict[str, int]) -> bool:
        if ab.op == "double":
            return any(n >= 1 for k, n in c.items() if not ab.counter or ab.counter == k)
        return c.get("+1/+1", 0) >= 1 and ab.counter in ("", "+1/+1")

    def apply(ab: CounterReplacement, c: dict[str, int]) -> dict[str, int]:
        c = dict(c)
        if ab.op == "double":
            for k in c:
                if not ab.counter or ab.counter == k:
                    c[k] *= 2
        else:
            c["+1/+1"] += 1
        return c

    def walk(c: dict[str, int], used_own: frozenset[int], used: frozenset[int], order: tuple[str, ...]) -> None:
        own_left = [i for i in range(len(own)) if i not in used_own]
        if own_left:
            for i in own_left:
                k, n = own[i]
                c2 = dict(c)
                c2[k] = c2.get(k, 0) + n
                walk(c2, used_own | {i}, used, order + (oid,))
            return
        choices = [i for i in range(len(others)) if i not in used and applies(others[i][1], c)]
        if not choices:
            key = tuple(sorted((k, n) for k, n in c.items() if n))
            results.setdefault(key, set()).add(order)
            return
        for i in choices:
            walk(apply(others[i][1], c), used_own, used | {i}, order + (others[i][0],))

    walk(start, frozenset(), frozenset(), ())
    return results

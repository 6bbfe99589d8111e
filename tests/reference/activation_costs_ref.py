"""Brute-force reference for activation costs that choose cards or permanents (CR 602.2b, 601.2h):
"Discard a card", "Discard two land cards" (CR 701.9a), "Exile a creature card from your graveyard"
(CR 406.2), "Return an Elf you control to its owner's hand", and the one sacrifice of "another
creature or artifact" (CR 701.21a), "Crew N" (CR 702.122a: other untapped creatures of total power N or
greater, listed under ``tap``) — written independently of :mod:`solver.rules.costs` and
:mod:`solver.payment.casting`.

The cost is re-read plainly from the ability's :class:`~solver.core.ir.Cost`. Its mana, {T}/{Q},
life, counters, creatures tapped and one sacrifice are paid by the plain simulation of
:mod:`reference.pay_ref` (a sacrifice of one of several kinds: one run per kind, the results united);
every card or permanent the cost chooses besides is chosen by listing every set of distinct objects
(``itertools.combinations`` over ids) and naming each set canonically (within interchangeable objects,
the first in zone order: :func:`reference.alt_costs_ref._sets`). Payments are the distinct resulting
situations (JSON strings). Where the choices are not independent of the simulation's payment (a mana
ability draws cards while cards are discarded; a card may reach the graveyard during the payment
while graveyard cards are exiled; a permanent returned may also be tapped or sacrificed), this
reference raises NotImplementedError rather than guess. Exponential: small boards only.
"""
from __future__ import annotations

import itertools
import json
from dataclasses import replace

from mtgsolve.solver.core import ir
from mtgsolve.solver.rules.characteristics import View

from .alt_costs_ref import _card_classes, _sets
from .pay_ref import _classes, _total_cost, brute_payments, query_player, reference_cost_changes


def chooses_objects(cost: ir.Cost) -> bool:
    """Does the activation cost choose cards or permanents besides the simulation's own?"""
    return bool(cost.discard or cost.exile_graveyard or cost.sacrifice_any or cost.return_ is not None or cost.crew)


def _many(cost: ir.Cost) -> bool:
    """"Sacrifice two Foods": several permanents, chosen here (the simulation sacrifices one)."""
    return cost.sacrifice_count > 1


def _ability(view: View, query: dict):
    ref = query["activate"]
    return view.chars(ref["object"]).activated[ref.get("index", 1) - 1]


def _base(view: View, player: str, query: dict, cost: ir.Cost) -> set[str]:
    tc = reference_cost_changes(view, player, _total_cost(view, query))
    runs = [] if _many(cost) else [replace(tc, sacrifice=sel) for sel in cost.sacrifice_any]
    runs = runs or [tc]
    return {json.dumps(p, sort_keys=True) for run in runs for p in brute_payments(view, player, run)}


def _choices(view: View, player: str, source: str, cost: ir.Cost) -> list[list[tuple[str, tuple[str, ...]]]]:
    state = view.state
    out = []
    if cost.discard:
        cl = _card_classes(view, player, "hand", source)
        cands = [i for i in cl if not cost.discard_type or cost.discard_type in state.obj(i).card.data.types]
        out.append([("discard", s) for s in _sets(cands, cost.discard, cl)])
    if cost.exile_graveyard:
        cl = _card_classes(view, player, "graveyard", source)
        cands = [i for i in cl if not cost.exile_graveyard_type
                 or cost.exile_graveyard_type in state.obj(i).card.data.types]
        out.append([("exile", s) for s in _sets(cands, cost.exile_graveyard, cl)])
    if cost.return_ is not None:
        perm = {oid: (i, r) for i, ids in enumerate(_classes(view, player, source)) for r, oid in enumerate(ids)}
        cands = [i for i in perm if view.matches(cost.return_, i, state.obj(source), player)]
        out.append([("return", s) for s in _sets(cands, 1, perm)])
    if cost.crew:
        out.append([("tap", c) for c in _crews(view, player, source, cost.crew)])
    if _many(cost):
        perm = {oid: (i, r) for i, ids in enumerate(_classes(view, player, source)) for r, oid in enumerate(ids)}
        cands = [i for i in perm if any(view.matches(sel, i, state.obj(source), player) for sel in cost.sacrifice_any)]
        out.append([("sacrifice", s) for s in _sets(cands, cost.sacrifice_count, perm)])
    return out


def _crews(view: View, player: str, source: str, n: int) -> set[tuple[str, ...]]:
    """"Crew N" (CR 702.122a): every set of other untapped creatures ``player`` controls with total power
    N or greater (any size), named canonically."""
    perm = {oid: (i, r) for i, ids in enumerate(_classes(view, player, source)) for r, oid in enumerate(ids)}
    cands = [o.id for o in view.state.objects if o.zone == "battlefield" and o.controller == player
             and o.id != source and not o.tapped and view.chars(o.id).is_creature]
    if any((view.chars(i).power or 0) < 0 for i in cands):
        raise NotImplementedError("a creature of negative power")
    out: set[tuple[str, ...]] = set()
    for size in range(1, len(cands) + 1):
        for combo in itertools.combinations(cands, size):
            if sum(view.chars(i).power or 0 for i in combo) >= n:
                out |= _sets(list(combo), size, perm)
    return out


def _independent(base: set[str], cost: ir.Cost, source_zone: str) -> None:
    """NotImplementedError where the choices could depend on the payment (module docstring)."""
    pays = [json.loads(p) for p in base]
    if cost.discard and any(p.get("draw") for p in pays):
        raise NotImplementedError("a mana ability draws cards while the cost discards")
    if cost.exile_graveyard and (cost.discard or cost.sacrifice_self or cost.discard_self or cost.sacrifice_any
                                 or cost.sacrifice is not None or any(p["sacrifice"] for p in pays)):
        raise NotImplementedError("a card reaches the graveyard during a payment that exiles graveyard cards")
    if _many(cost) and any(p["sacrifice"] for p in pays):
        raise NotImplementedError("a mana ability sacrifices while the cost sacrifices several permanents")
    if cost.return_ is not None and any(p["tap"] or p["sacrifice"] for p in pays):
        raise NotImplementedError("a permanent returned could be tapped or sacrificed too")


def brute_activate(state, query: dict, view: View | None = None) -> dict:
    """``payable``, ``count`` and the set of payments (canonical JSON strings) of a ``pay`` query
    ``{activate: {object, index}}`` whose cost chooses cards or permanents (:func:`chooses_objects`)."""
    view = view or View(state)
    player = query_player(view, query)
    cost = _ability(view, query).cost
    source = query["activate"]["object"]
    base = _base(view, player, query, cost)
    _independent(base, cost, state.obj(source).zone)
    out: set[str] = set()
    for p in base:
        pay = json.loads(p)
        for combo in itertools.product(*_choices(view, player, source, cost)):
            q = dict(pay)
            for key, ids in combo:
                q[key] = sorted(list(q.get(key, [])) + list(ids))
            out.add(json.dumps(q, sort_keys=True))
    return {"payable": bool(out), "count": len(out), "payments": sorted(out)}

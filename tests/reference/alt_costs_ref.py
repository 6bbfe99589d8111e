"""Brute-force reference for casting modes (alternative and additional costs,
kicker, flashback …; CR 601.2b, 118.9, 702.33, 702.34, 702.74, 702.133,
702.138), written independently of :mod:`solver.rules.casting_options`.

The total cost of a mode is re-read plainly from the card's
:class:`~solver.core.ir.CastingOption` parts; its mana, life and a sacrifice of one
permanent are paid by the plain simulation of :mod:`reference.pay_ref` (one run
per kind of permanent the sacrifice accepts, the results united); every other
part is chosen by listing every set of distinct objects (``itertools.combinations``
over ids), then naming each set canonically (within interchangeable objects,
the first in zone order). Payments are the distinct resulting situations
(JSON strings). Exponential: small boards only.
"""
from __future__ import annotations

import itertools
import json
from dataclasses import replace

from mtgsolve.solver.core import ir
from mtgsolve.solver.rules.characteristics import View
from mtgsolve.solver.core.mana import ManaCost

from .pay_ref import TotalCost, _classes, brute_payments, query_player, reference_cost_changes


def _options(o) -> list:
    return [a for a in o.card.abilities if isinstance(a, ir.CastingOption)]


def _alternative(o, name: str):
    for a in _options(o):
        if a.kind in ("alternative", "permission") and a.name.lower() == name.lower():
            return a
    return None


def mode_parts(o, alternative: str, kicked: int, buyback: int = 0, casualty: int = 0):
    """(mana, list of CardCost parts) of casting ``o`` in this mode, or None if the mode doesn't exist
    (buyback, CR 702.27a, and casualty, 702.153a: optional additional costs, like kicker)."""
    alt = _alternative(o, alternative) if alternative else None
    if alternative and alt is None:
        return None
    kick = [a for a in _options(o) if a.kind == "kicker"]
    if kicked and len(kick) != 1:
        return None
    buy = [a for a in _options(o) if a.kind == "buyback"]
    if buyback and len(buy) != 1:
        return None
    cas = [a for a in _options(o) if a.kind == "casualty"]
    if casualty and len(cas) != 1:
        return None
    if buyback:
        kick = kick + buy if kicked else buy
        kicked = 1
    if casualty:
        kick = kick + cas if kicked else cas
        kicked = 1
    mana_text = o.card.data.mana_cost.text if o.card.data.mana_cost else ""
    if alt is not None and alt.kind == "alternative":
        mana_text = alt.mana.text if alt.mana is not None else "{0}"
    costs = [a.cost for a in _options(o) if a.kind == "additional"]
    extra_mana = [a.mana.text for a in _options(o) if a.kind == "additional" and a.mana]
    for k in (kick if kicked else []):
        costs.append(k.cost)
        if k.mana:
            extra_mana.append(k.mana.text)
    if alt is not None:
        costs.append(alt.cost)
    if mana_text:
        mana_text += "".join(extra_mana)
    return (ManaCost.parse(mana_text) if mana_text else ManaCost()), costs


def _card_classes(view: View, player: str, zone: str, exclude: str) -> dict[str, int]:
    """Object id → (index of its interchangeable class, rank in the class), for cards of the zone."""
    keys: dict[tuple, list[str]] = {}
    for o in view.state.objects:
        if o.zone == zone and o.owner == player and o.id != exclude and o.card is not None:
            keys.setdefault((o.card.name, o.owner, o.token, o.conjured), []).append(o.id)
    return {oid: (i, r) for i, ids in enumerate(keys.values()) for r, oid in enumerate(ids)}


def _canonical(chosen: tuple[str, ...], classes: dict) -> tuple[str, ...]:
    """Name a set of interchangeable objects by the first members of their classes."""
    by_cls: dict[int, int] = {}
    for oid in chosen:
        c = classes[oid][0]
        by_cls[c] = by_cls.get(c, 0) + 1
    firsts = {(classes[o][0], classes[o][1]): o for o in classes}
    return tuple(sorted(firsts[(c, r)] for c, n in by_cls.items() for r in range(n)))


def _sets(candidates: list[str], n: int, classes: dict) -> set[tuple[str, ...]]:
    return {_canonical(c, classes) for c in itertools.combinations(candidates, n)}


def brute_cast(state, query: dict, view: View | None = None) -> dict:
    """``payable``, ``count`` and the set of payments (canonical JSON strings) of a ``pay``
    query ``{cast, alternative?, kicked?, x?}``."""
    view = view or View(state)
    player = query_player(view, query)
    o = state.obj(query["cast"])
    kicked = 1 if query.get("kicked") in (True, 1) else 0
    got = mode_parts(o, query.get("alternative", "") or "", kicked, 1 if query.get("buyback") else 0,
                     1 if query.get("casualty") else 0)
    if got is None:
        return {"payable": False, "count": 0, "payments": []}
    mana, costs = got
    x = query.get("x", 0)
    if x == "any":
        x = None if any(s.kind == "X" for s in mana.symbols) else 0
    life = sum(c.life for c in costs)
    tc = reference_cost_changes(view, player, TotalCost("cast", mana, x=x, life=life, spell=o.id))
    # the sacrifice of one permanent is the simulation's own; others are chosen below
    sac_one = [c for c in costs if c.sacrifice_count == 1]
    base: set[str] = set()
    if sac_one:
        color = sac_one[0].sacrifice_color
        power = sac_one[0].sacrifice_power     # casualty N: power N or greater (CR 702.153a)
        for sel in sac_one[0].sacrifice:
            for p in brute_payments(view, player, replace(tc, sacrifice=sel)):
                victims = [i for i in p["sacrifice"] if view.matches(sel, i, None, player)]
                if (color or power) and len(victims) > 1:
                    raise NotImplementedError("which sacrifice is the cost's can't be told here")
                if color and not any(color in view.chars(i).colors for i in victims):
                    continue   # this payment's sacrifice is of another color (the simulation ignores colors)
                if power and not any((view.chars(i).power or 0) >= power for i in victims):
                    continue   # too small a creature for casualty
                base.add(json.dumps(p, sort_keys=True))
    else:
        base = {json.dumps(p, sort_keys=True) for p in brute_payments(view, player, tc)}
    choices: list[list[tuple[str, tuple[str, ...]]]] = []
    perm_cls = {oid: (i, r) for i, ids in enumerate(_classes(view, player, None)) for r, oid in enumerate(ids)}
    for c in costs:
        if c.exile_hand:
            cl = _card_classes(view, player, "hand", o.id)
            cands = [i for i in cl if not c.exile_hand_color or c.exile_hand_color in view.chars(i).colors]
            choices.append([("exile", s) for s in _sets(cands, c.exile_hand, cl)])
        if c.discard:
            cl = _card_classes(view, player, "hand", o.id)
            cands = [i for i in cl if not c.discard_type or c.discard_type in state.obj(i).card.data.types]
            choices.append([("discard", s) for s in _sets(cands, c.discard, cl)])
        if c.exile_graveyard:
            cl = _card_classes(view, player, "graveyard", o.id)
            choices.append([("exile", s) for s in _sets(list(cl), c.exile_graveyard, cl)])
        if c.sacrifice_count > 1:
            cands = [i for i in perm_cls if any(view.matches(s, i, None, player) for s in c.sacrifice)
                     and (not c.sacrifice_color or c.sacrifice_color in view.chars(i).colors)]
            choices.append([("sacrifice", s) for s in _sets(cands, c.sacrifice_count, perm_cls)])
        if c.return_count:
            cands = [i for i in perm_cls if any(view.matches(s, i, None, player) for s in c.return_)]
            choices.append([("return", s) for s in _sets(cands, c.return_count, perm_cls)])
    out: set[str] = set()
    for p in base:
        pay = json.loads(p)
        for combo in itertools.product(*choices):
            q = dict(pay)
            for key, ids in combo:
                q[key] = sorted(list(q.get(key, [])) + list(ids))
            out.add(json.dumps(q, sort_keys=True))
    return {"payable": bool(out), "count": len(out), "payments": sorted(out)}


def reference_modes(state, player: str) -> list[tuple[str, str, int, int, int]]:
    """``(object, alternative, kicked, buyback, casualty)`` of every mode to consider: a card in the player's hand
    or graveyard, with the alternative's zone and condition checked (timing is the caller's)."""
    view = View(state)
    out = []
    for o in state.objects:
        if o.owner != player or o.card is None or "Land" in o.card.data.types:
            continue
        opts = _options(o)
        names = [""] + [a.name for a in opts if a.kind in ("alternative", "permission")
                        # disturb casts a transforming card transformed (CR 702.146a): reference_disturb_entries
                        and not (a.name in _TRANSFORMED and o.card.data.layout == "transform")]
        kicks = [0, 1] if len([a for a in opts if a.kind == "kicker"]) == 1 else [0]
        buys = [0, 1] if len([a for a in opts if a.kind == "buyback"]) == 1 else [0]
        cas = [0, 1] if len([a for a in opts if a.kind == "casualty"]) == 1 else [0]
        for name in names:
            alt = _alternative(o, name) if name else None
            zone = alt.zone if alt is not None else "hand"
            if o.zone != zone:
                continue
            if getattr(alt, "condition", "") == "not_your_turn" and state.turn.active == player:
                continue
            if getattr(alt, "condition", "") == "opponent_lost_life" and not any(
                    p.id != player and not p.lost and (p.life_lost_this_turn or 0) > 0 for p in state.players):
                continue        # spectacle (CR 702.137a): an opponent lost life this turn
            if getattr(alt, "condition", "") == "control" and not any(
                    p.zone == "battlefield" and view.matches(alt.condition_selector, p.id, None, player)
                    for p in state.objects):
                continue
            for k in kicks:
                out.extend((o.id, name, k, b, c) for b in buys for c in cas)
    return out


def reference_cast_entries(state, player: str) -> list[dict]:
    """The ``cast`` entries of the ``actions`` query for every mode of every card of ``player``
    (contract §2.6 with the extension keys ``alternative``, ``kicked``): timing from
    :mod:`reference.actions_ref`, targets from :mod:`reference.targets_ref`, payments from
    :func:`brute_cast`. Sorted by (object, alternative, kicked)."""
    from .actions_ref import _flash, _flash_permission, _forbidden
    from .targets_ref import reference_targets

    view = View(state)
    t = state.turn
    stack = any(o.zone == "stack" for o in state.objects)
    if t.step == "untap" or (t.step == "cleanup" and not stack) or (t.priority or t.active) != player:
        return []
    sorcery_time = t.active == player and t.step in ("main1", "main2") and not stack
    out = []
    for oid, alt, kicked, buyback, casualty in reference_modes(state, player):
        o = state.obj(oid)
        if _forbidden(state, view, player, sorcery_time):
            continue
        if not (sorcery_time or "Instant" in o.card.data.types or _flash(o.card)
                or _flash_permission(state, view, player, oid)):
            continue
        tq = {"kind": "targets", "cast": oid, "player": player}
        if alt:
            tq["alternative"] = alt   # overload: no targets (CR 702.96b)
        n_t = reference_targets(state, tq)["count"]
        if not n_t:
            continue
        q = {"kind": "pay", "cast": oid, "player": player}
        if alt:
            q["alternative"] = alt
        if kicked:
            q["kicked"] = True
        if buyback:
            q["buyback"] = True
        if casualty:
            q["casualty"] = True
        n_p = brute_cast(state, q, view)["count"]
        if n_p:
            e = {"kind": "cast", "object": oid, "targets": n_t, "payments": n_p}
            if alt:
                e["alternative"] = alt
            if kicked:
                e["kicked"] = True
            if buyback:
                e["buyback"] = True
            if casualty:
                e["casualty"] = True
            out.append(e)
    out.sort(key=lambda e: (e["object"], e.get("alternative", ""), bool(e.get("kicked")), bool(e.get("buyback")),
                            bool(e.get("casualty"))))
    return out


_TRANSFORMED = ("disturb", "more than meets the eye")


def reference_disturb_entries(state, player: str) -> list[dict]:
    """The ``cast`` entries with ``alternative: disturb`` and ``face`` (CR 702.146a: "You may cast this
    card transformed from your graveyard by paying [cost] rather than its mana cost"): for each
    transforming card in ``player``'s graveyard whose front face reads "Disturb [cost]", the entries of
    :func:`reference_cast_entries` on the board where the card has only its back face's
    characteristics (712.11a, 712.8d) and, as that face, the disturb cost. Likewise "More Than Meets the
    Eye [cost]" (702.162a) from the hand."""
    from mtgsolve.solver.cards import faces

    out = []
    for o in state.objects:
        if o.owner != player or o.card is None or o.card.data.layout != "transform":
            continue
        disturb = [a for a in _options(o) if a.kind == "alternative" and a.name in _TRANSFORMED]
        fs = faces(o.card)
        if len(disturb) != 1 or len(fs) < 2 or o.zone != disturb[0].zone:
            continue
        back = replace(fs[1], abilities=fs[1].abilities + (disturb[0],))
        sub = replace(state, objects=tuple(replace(x, card=back) if x.id == o.id else x for x in state.objects))
        out += [{**e, "face": fs[1].data.name} for e in reference_cast_entries(sub, player)
                if e["object"] == o.id and e.get("alternative") == disturb[0].name]
    return out

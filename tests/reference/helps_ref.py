"""Brute-force reference for delve, convoke and improvise (CR 702.66a, 702.51a,
702.126a), written independently of :mod:`models.payment` and
:mod:`solver.payment.problem`.

For a ``pay`` query ``{cast, x}`` (X fixed) of a card whose IR has
``PaymentOption`` parts: list every set of graveyard cards to
exile (delve: each pays one generic mana) and every way to tap each untapped
creature (convoke: one generic mana, or one colored symbol of one of its
colors) or untapped artifact (improvise: one generic mana) the player
controls, or leave it; take what they pay off the cost; pay the rest with
the plain simulation of :mod:`reference.pay_ref` on a copy of the board where
the helpers are tapped; and add the helpers to the payment (``tap``) and the
exiled cards (``exile``). Interchangeable objects are named canonically (the
first members of their class in zone or board order). Payments are the
distinct resulting situations (JSON strings). Exponential: small boards only;
costs with hybrid, monocolored hybrid or Phyrexian symbols are not handled
here (the differential tests do not generate them).
"""
from __future__ import annotations

import itertools
import json
from dataclasses import replace

from mtgsolve.solver.core import ir
from mtgsolve.solver.rules.characteristics import View
from mtgsolve.solver.core.mana import ManaCost

from .alt_costs_ref import _card_classes, _sets
from .pay_ref import TotalCost, _classes, brute_payments, query_player, reference_cost_changes

COLORS = "WUBRG"


def helps_of(card) -> set[str]:
    return {a.name for a in card.abilities if isinstance(a, ir.CastingOption) and a.kind == "payment"}


def _helper_roles(view: View, player: str, helps: set[str], colored: list[str]) -> dict[str, list[str]]:
    """Per untapped permanent of the player, what tapping it may pay: ``gen`` and/or a colored
    symbol letter it may pay (convoke: its colors), for the helps the spell has."""
    roles: dict[str, list[str]] = {}
    for o in view.permanents_of(player):
        if o.tapped:
            continue
        c = view.chars(o.id)
        r: list[str] = []
        if "convoke" in helps and c.is_creature:
            r = ["gen"] + [t for t in COLORS if t in c.colors and t in colored]
        if "improvise" in helps and "Artifact" in c.types and "gen" not in r:
            r.append("gen")
        if r:
            roles[o.id] = r
    return roles


def _canonical_taps(view: View, player: str, tapped: list[str]) -> list[str]:
    """The tapped permanents named canonically: per class, its first members in board order."""
    out: list[str] = []
    for ids in _classes(view, player, None):
        n = sum(1 for i in ids if i in tapped)
        out.extend(ids[:n])
    return sorted(out)


def brute_helped(state, query: dict) -> dict:
    """``payable``, ``count`` and the sorted payments (canonical JSON) of ``{cast, x}``."""
    view = View(state)
    player = query_player(view, query)
    o = state.obj(query["cast"])
    helps = helps_of(o.card)
    x = int(query.get("x", 0))
    tc = reference_cost_changes(view, player, TotalCost("cast", o.card.data.mana_cost, x=x, spell=o.id))
    generic = sum(s.generic for s in tc.mana.symbols if s.kind == "generic") + x * tc.x_count
    colored = [s.text[1] for s in tc.mana.symbols if s.kind == "color"]
    others = [s.text for s in tc.mana.symbols if s.kind not in ("generic", "X", "color")]
    gy = _card_classes(view, player, "graveyard", o.id) if "delve" in helps else {}
    roles = _helper_roles(view, player, helps, colored)
    helpers = sorted(roles)
    out: set[str] = set()
    for d in range(0, min(generic, len(gy)) + 1):
        for exiled in _sets(list(gy), d, gy):
            for choice in itertools.product(*[[None] + roles[h] for h in helpers]):
                used = [(h, r) for h, r in zip(helpers, choice) if r is not None]
                gen_left = generic - d - sum(1 for _, r in used if r == "gen")
                if gen_left < 0:
                    continue
                left = list(colored)
                ok = True
                for _, r in used:
                    if r != "gen":
                        if r not in left:
                            ok = False
                            break
                        left.remove(r)
                if not ok:
                    continue
                text = ("{%d}" % gen_left if gen_left else "") + "".join("{%s}" % t for t in left) + "".join(others)
                tapped = {h for h, _ in used}
                board = replace(state, objects=tuple(replace(b, tapped=True) if b.id in tapped else b
                                                     for b in state.objects))
                bview = View(board)
                rest = TotalCost("cast", ManaCost.parse(text or "{0}"), x=x, spell=o.id)
                for p in brute_payments(bview, player, rest):
                    q = dict(p)
                    q["tap"] = _canonical_taps(view, player, list(p["tap"]) + [h for h, _ in used])
                    if exiled:
                        q["exile"] = sorted(exiled)
                    out.add(json.dumps(q, sort_keys=True))
    return {"payable": bool(out), "count": len(out), "payments": sorted(out)}

"""Brute-force reference for combat declarations and combat damage (CR 508.1,
509.1, 510.1), written independently of solver/engine/combat.py and models/combat.py.

It reads only the situation (objects, their status) and each permanent's
characteristics from the View (types, colors, power/toughness, abilities as
IR objects), then enumerates *every* declaration (each creature: not
declared, or each option / each subset of options) and every assignment of
each point of damage, and filters by the rules written out plainly.
Requirements: keep the declarations obeying the most requirements, computed
over declarations with no cost (CR 508.1d, 509.1c). Small boards only.
"""
from __future__ import annotations

import itertools

from mtgsolve.solver.rules.characteristics import View
from mtgsolve.solver.core.ir import Keyword, Static


def _kw(view, oid, name):
    return any(isinstance(a, Keyword) and a.name == name for a in view.chars(oid).abilities)


def _protections(view, oid):
    return {a.arg for a in view.chars(oid).abilities if isinstance(a, Keyword) and a.name == "protection"}


def _condition_met(state, a, o) -> bool:
    """A static's "as long as …" condition (CR 611.3a), read plainly from the situation:
    permanents its controller controls by printed types and subtypes, the active player,
    the controller's graveyard."""
    cond = a.condition
    if cond is None:
        return True
    you = o.controller
    if cond.kind == "control":
        sel = cond.selector
        mine = [p for p in state.objects if p.zone == "battlefield" and p.controller == you and p.card is not None]
        return sum(1 for p in mine if set(sel.types) <= set(p.card.data.types)
                   and (not sel.subtypes or set(sel.subtypes) & set(p.card.data.subtypes))) >= cond.n
    if cond.kind == "your_turn":
        return state.turn.active == you
    if cond.kind == "opponent_poison":
        return any(p.poison >= cond.n for p in state.players if p.id != you)
    if cond.kind == "equipped":
        return any(p.zone == "battlefield" and p.attached_to == o.id and p.card is not None
                   and "Equipment" in p.card.data.subtypes for p in state.objects)
    if cond.kind == "counters":
        return dict(o.counters).get(cond.counter, 0) >= cond.n
    if cond.kind == "attacking":
        return o.attacking is not None
    if cond.kind == "untapped":
        return not o.tapped
    cards = [p for p in state.objects if p.zone == "graveyard" and p.owner == you]
    if cond.kind == "graveyard_count":
        return len(cards) >= cond.n
    if cond.kind == "graveyard_types":
        return len({t for p in cards for t in p.card.data.types}) >= cond.n
    raise NotImplementedError(cond.kind)


def _statics_on(view, oid, kind):
    """Combat statics of ``kind`` that apply to ``oid``: its own ("this creature …")
    and those of permanents attached to it ("enchanted creature …"), while their
    conditions hold."""
    state = view.state
    out = []
    for o in state.objects:
        if o.zone != "battlefield":
            continue
        for a in view.chars(o.id).abilities:
            if isinstance(a, Static) and a.kind == kind and a.affected is not None and _condition_met(state, a, o):
                if a.affected.self_only and o.id == oid:
                    out.append(a)
                elif a.affected.attached and o.attached_to == oid:
                    out.append(a)
    return out


def _is_creature(view, o):
    return o.zone == "battlefield" and "Creature" in view.chars(o.id).types


# ---------------------------------------------------------------------------
# Attacks
# ---------------------------------------------------------------------------

def attack_reference(state, player, payable=lambda amount, attackers: True):
    """Sorted list of (declaration as sorted ((attacker, defender), …), cost)."""
    view = View(state)
    opponents = [p.id for p in state.players if p.id != player and not p.lost]
    targets = list(opponents) + [o.id for o in state.objects if o.zone == "battlefield"
                                 and "Planeswalker" in view.chars(o.id).types
                                 and view.chars(o.id).controller in opponents]
    able = []
    for o in state.objects:
        if not _is_creature(view, o) or view.chars(o.id).controller != player or o.tapped:
            continue
        if o.sick and not _kw(view, o.id, "haste"):
            continue
        if _kw(view, o.id, "defender") or _statics_on(view, o.id, "cant_attack"):
            continue
        able.append(o.id)
    tax = {}
    for o in state.objects:
        if o.zone == "battlefield":
            for a in view.chars(o.id).abilities:
                if isinstance(a, Static) and a.kind == "attack_tax":
                    tax[o.controller] = tax.get(o.controller, 0) + a.amount
    def defender_of(t):
        return t if state.is_player(t) else view.chars(t).controller

    def may_attack(a, t):
        for st in _statics_on(view, a, "attack_needs_defender_land"):
            lands = [o for o in state.objects if o.zone == "battlefield" and view.chars(o.id).controller == defender_of(t)
                     and "Land" in view.chars(o.id).types and st.subtypes & view.chars(o.id).subtypes]
            if not lands:
                return False
        return True

    candidates = []
    for pick in itertools.product(*[[None] + sorted(targets) for _ in able]):
        decl = {a: t for a, t in zip(able, pick) if t is not None}
        if not all(may_attack(a, t) for a, t in decl.items()):
            continue
        if any(_statics_on(view, a, "cant_attack_alone") for a in decl) and len(decl) < 2:
            continue
        cost = sum(tax.get(t, 0) for t in decl.values())
        req = sum(len(_statics_on(view, a, "must_attack")) for a in decl)
        candidates.append((decl, cost, req))
    best = max((r for d, c, r in candidates if c == 0), default=0)
    out = []
    for decl, cost, req in candidates:
        if req < best:
            continue
        if cost and not payable(cost, decl):
            continue
        out.append((tuple(sorted(decl.items())), cost))
    return sorted(out)


# ---------------------------------------------------------------------------
# Blocks
# ---------------------------------------------------------------------------

def block_reference(state, defender):
    """Sorted list of declarations as sorted ((blocker, (attackers…)), …)."""
    view = View(state)
    attackers = []
    for o in state.objects:
        if not _is_creature(view, o) or o.attacking is None:
            continue
        t = o.attacking
        if t == defender:
            attackers.append(o.id)
        else:
            tt = state.find(t)
            if tt is not None and tt.zone == "battlefield" and view.chars(t).controller == defender:
                attackers.append(o.id)
    attackers.sort()
    blockers = [o.id for o in state.objects if _is_creature(view, o) and view.chars(o.id).controller == defender
                and not o.tapped and o.attacking is None and not _statics_on(view, o.id, "cant_block")]
    blockers.sort()

    def pair_ok(b, a):
        if _statics_on(view, a, "unblockable"):
            return False
        if _kw(view, a, "flying") and not (_kw(view, b, "flying") or _kw(view, b, "reach")):
            return False
        if _protections(view, a) & set(view.chars(b).colors):
            return False
        ca, cb = view.chars(a), view.chars(b)
        artifact_or = "Artifact" in cb.types
        if _kw(view, a, "fear") and not (artifact_or or "B" in cb.colors):
            return False
        if _kw(view, a, "intimidate") and not (artifact_or or set(ca.colors) & set(cb.colors)):
            return False
        if _kw(view, a, "shadow") and not _kw(view, b, "shadow"):
            return False
        if _kw(view, b, "shadow") and not _kw(view, a, "shadow"):
            return False
        if _kw(view, a, "horsemanship") and not _kw(view, b, "horsemanship"):
            return False
        if _kw(view, a, "skulk") and (cb.power or 0) > (ca.power or 0):
            return False
        if _statics_on(view, b, "block_only_flying") and not _kw(view, a, "flying"):
            return False
        def fits(st):
            return bool(st.subtypes & view.chars(b).subtypes) or bool(st.color & view.chars(b).colors) \
                or any(_kw(view, b, k) for k in st.keywords)
        bp, ap = view.chars(b).power or 0, view.chars(a).power or 0
        if any(bp <= st.amount for st in _statics_on(view, a, "unblockable_power_le")):
            return False
        if any(bp >= st.amount for st in _statics_on(view, a, "unblockable_power_ge")):
            return False
        if any(fits(st) for st in _statics_on(view, a, "unblockable_by")):
            return False
        if any(not fits(st) for st in _statics_on(view, a, "blockable_only_by")):
            return False
        if any(ap <= st.amount for st in _statics_on(view, b, "cant_block_power_le")):
            return False
        if any(ap >= st.amount for st in _statics_on(view, b, "cant_block_power_ge")):
            return False
        for k in view.chars(a).abilities:
            if isinstance(k, Keyword) and k.name == "landwalk":
                for o in state.objects:
                    if o.zone == "battlefield" and o.controller == defender and \
                            "Land" in view.chars(o.id).types and k.arg in view.chars(o.id).subtypes:
                        return False
        return True

    def cap(b):
        if _statics_on(view, b, "block_any_number"):
            return len(attackers)
        return 1 + sum(s.amount for s in _statics_on(view, b, "block_additional"))

    per_blocker = []
    for b in blockers:
        subsets = [()]
        for k in range(1, cap(b) + 1):
            subsets += list(itertools.combinations(attackers, k))
        per_blocker.append([s for s in subsets if all(pair_ok(b, a) for a in s)])
    results = []
    for pick in itertools.product(*per_blocker):
        decl = {b: s for b, s in zip(blockers, pick) if s}
        ok = True
        for a in attackers:
            n = sum(1 for s in decl.values() if a in s)
            need = max([2 if _kw(view, a, "menace") else 1] + [s.amount for s in _statics_on(view, a, "min_blockers")])
            if 0 < n < need:
                ok = False
            if any(n > s.amount for s in _statics_on(view, a, "max_blockers")):
                ok = False
        for b in decl:
            if _statics_on(view, b, "cant_block_alone") and len(decl) < 2:
                ok = False
        if not ok:
            continue
        req = 0
        for a in attackers:  # "must be blocked if able": obeyed when anyone blocks it
            if any(a in s for s in decl.values()):
                req += len(_statics_on(view, a, "must_be_blocked"))
        for b, s in decl.items():
            req += len(_statics_on(view, b, "must_block"))
            req += sum(len(_statics_on(view, a, "lure")) for a in s)
        results.append((tuple(sorted(decl.items())), req))
    best = max(r for _, r in results)
    return sorted(d for d, r in results if r == best)


# ---------------------------------------------------------------------------
# Combat damage
# ---------------------------------------------------------------------------

def damage_reference(state, first_strike):
    """Every legal assignment: sorted list of plans {dealer: {recipient: amount}}
    (canonical tuples), by assigning each point of damage separately."""
    view = View(state)

    def deals(oid):
        fs, ds = _kw(view, oid, "first strike"), _kw(view, oid, "double strike")
        return (fs or ds) if first_strike else (ds or not fs)

    creatures = [o for o in state.objects if _is_creature(view, o)]
    attacking = {o.id: o for o in creatures if o.attacking is not None}

    def target_alive(t):
        if state.is_player(t):
            return not state.player(t).lost
        o = state.find(t)
        return o is not None and o.zone == "battlefield" and "Planeswalker" in view.chars(t).types

    blockers_of = {a: [] for a in attacking}
    blocks = {}
    for o in creatures:
        if o.blocking and o.attacking is None:
            blocks[o.id] = [a for a in o.blocking if a in attacking]
            for a in blocks[o.id]:
                blockers_of[a].append(o.id)
    dealers = []  # (id, power, recipients, trample target, blockers, deathtouch)
    for o in sorted(creatures, key=lambda o: o.id):
        p = view.chars(o.id).power
        if not deals(o.id) or p is None or p <= 0:
            continue
        dt = _kw(view, o.id, "deathtouch")
        if o.id in attacking:
            t = o.attacking if target_alive(o.attacking) else None
            bl = sorted(blockers_of[o.id])
            tr = _kw(view, o.id, "trample")
            if not bl:
                if t is not None and (not o.blocked or tr):
                    dealers.append((o.id, p, [t], None, [], dt))
            elif tr and t is not None:
                dealers.append((o.id, p, bl + [t], t, bl, dt))
            else:
                dealers.append((o.id, p, bl, None, bl, dt))
        elif blocks.get(o.id):
            dealers.append((o.id, p, sorted(blocks[o.id]), None, [], dt))
    per = []
    for did, p, rec, _t, _b, _dt in dealers:
        seen = set()
        for pts in itertools.product(rec, repeat=p):
            counts = {}
            for r in pts:
                counts[r] = counts.get(r, 0) + 1
            seen.add(tuple(sorted(counts.items())))
        per.append(sorted(seen))
    out = []
    for combo in itertools.product(*per):
        got, dt_hit = {}, set()
        for d, plan in zip(dealers, combo):
            for r, n in plan:
                got[r] = got.get(r, 0) + n
                if d[5]:
                    dt_hit.add(r)
        ok = True
        for d, plan in zip(dealers, combo):
            if d[3] is not None and dict(plan).get(d[3], 0) > 0:
                for b in d[4]:
                    lethal = max(0, view.chars(b).toughness - state.obj(b).damage)
                    if b not in dt_hit and got.get(b, 0) < lethal:
                        ok = False
        if ok:
            out.append(tuple(sorted((d[0], plan) for d, plan in zip(dealers, combo))))
    return sorted(out)

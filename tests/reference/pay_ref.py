"""Brute-force reference for the ``pay`` query (contract §2.3).

A plain sequential simulation, written without the CP-SAT model: activate mana
abilities one at a time in every order (CR 601.2g, 605.3a), each paid from
the pool as it is at that moment, tracking which activation made every mana
unit; then pay the total cost (CR 601.2h) in every way (announcements per
symbol, X, which units are spent, which permanents are tapped or
sacrificed). A payment is kept only if every activated ability had at least
one of its units spent (contract: no idle activations). Payments are the
distinct situations left behind, with interchangeable permanents (contract
definition, computed here independently) named canonically: within a class,
members in board order take the fates sorted as sacrificed, tapped with
counters removed (fewest first), tapped, unchanged.

Spending restrictions (CR 106.6): every unit remembers the restriction of
the ability that made it (the ``restricted`` part of an outcome); a unit may
pay the total cost or a mana ability's cost only if its restriction allows
that purpose, judged here by :func:`_allows` (written for this reference):
casting a spell of the restriction's spell descriptions, activating an
ability of a source of its source descriptions; a bare ``cost`` has no known
purpose, so restricted units never pay it. Restricted units left unspent are
listed in ``restricted_pool_after``, apart from ``pool_after``.

Nothing here comes from the engine: which mana abilities can be activated and
what each activation adds (after replacement effects in every order and
triggered mana) is re-derived by :func:`_activations` from the card IR, the
board and the plain helpers of ``mana_ref``/``ordering_ref``; the total cost
is read from the query by :func:`_total_cost`. Only the situation loader, the
card data (IR, mana symbols) and the characteristics view are shared with the
engine (tests/test_reference_independence.py). Exponential: small boards only.
"""
from __future__ import annotations

import itertools
import json
from collections import Counter
from dataclasses import dataclass
from dataclasses import replace as _replace

from mtgsolve.solver.rules.characteristics import View
from mtgsolve.solver.core.ir import Cost, ManaAbility, Selector, SpendRestriction, SpendWhiteAsAny, TriggeredManaAbility
from mtgsolve.solver.core.mana import COLORS, TYPES, Mana, ManaCost

from .mana_ref import _amounts, _condition, banned, could_produce
from .ordering_ref import mana_orders


# ---------------------------------------------------------------------------
# The total cost, read plainly from the query (CR 601.2f, 602.2b)
# ---------------------------------------------------------------------------


@dataclass(frozen=True)
class TotalCost:
    """What the query asks to pay: the mana cost as printed (X, hybrid and
    Phyrexian symbols unannounced), the announced X (None: every value), and
    the non-mana parts of an activation cost."""

    what: str                       # "cast" | "activate" | "cost"
    mana: ManaCost
    x: int | None = 0
    life_allowed: bool = True
    source: str | None = None
    tap: bool = False
    untap: bool = False
    sacrifice_self: bool = False
    sacrifice: Selector | None = None
    life: int = 0
    remove_counters: tuple[str, int] | None = None
    tap_creatures: int = 0
    tap_selector: Selector | None = None   # "Tap an untapped Wizard you control" (None: creatures)
    tap_symbol_blocked: bool = False
    spell: str | None = None
    hand_source: str | None = None  # the card in the hand whose ability is activated (cycling, channel)

    @property
    def x_count(self) -> int:
        return sum(1 for s in self.mana.symbols if s.kind == "X")


def query_player(view: View, query: dict) -> str:
    return query.get("player", view.state.priority)


def _total_cost(view: View, query: dict) -> TotalCost:
    """The cost named by a valid ``pay`` query (the engine has already rejected bad ones)."""
    life_allowed = query.get("life", True)
    if "cast" in query:
        o = view.state.obj(query["cast"])
        tc = TotalCost("cast", o.card.data.mana_cost, spell=o.id)
    elif "cost" in query:
        tc = TotalCost("cost", ManaCost.parse(query["cost"]))
    else:
        ref = query["activate"]
        oid = ref["object"]
        ability = view.chars(oid).activated[ref.get("index", 1) - 1]
        cost: Cost = ability.cost
        if cost.loyalty is not None and cost.loyalty < 0:  # CR 606.4: -N removes N loyalty counters
            cost = _replace(cost, remove_counters=("loyalty", -cost.loyalty))
        mana = _ability_reduced(view, query_player(view, query), ability, cost.mana)
        in_hand = view.state.obj(oid).zone != "battlefield"   # a card in a hand or graveyard: not a permanent
        tc = TotalCost("activate", mana, source=None if in_hand else oid, hand_source=oid if in_hand else None,
                       tap=cost.tap, untap=cost.untap,
                       sacrifice_self=cost.sacrifice_self, sacrifice=cost.sacrifice, life=cost.life,
                       remove_counters=cost.remove_counters, tap_creatures=cost.tap_other_creatures,
                       tap_selector=cost.tap_selector,
                       tap_symbol_blocked=(cost.tap or cost.untap) and not view.can_pay_tap_symbol(oid))
    x = query.get("x", 0)
    if x == "any":
        x = None if tc.x_count else 0
    return _replace(tc, x=x, life_allowed=life_allowed)


def _ability_reduced(view: View, player: str, ability, mana: ManaCost) -> ManaCost:
    """"This ability costs {N} less to activate for each <supertype> <type> you control" (channel;
    CR 601.2f via 602.2b, 118.7), plainly: N per such permanent of the player, off the generic mana
    only, never below zero."""
    red = getattr(ability, "reduction", None)
    if red is None:
        return mana
    n, f = red
    count = sum(1 for o in view.state.objects if o.zone == "battlefield" and o.controller == player
                and all(t in view.chars(o.id).types for t in f.types)
                and all(t in view.chars(o.id).supertypes for t in f.supertypes))
    generic = sum(s.generic for s in mana.symbols if s.kind == "generic")
    left = max(generic - n * count, 0)
    text = "".join(s.text for s in mana.symbols if s.kind != "generic")
    return ManaCost.parse((f"{{{left}}}" if left or not text else "") + text)


# ---------------------------------------------------------------------------
# Which mana abilities can be activated, and what each activation adds
# ---------------------------------------------------------------------------


@dataclass(frozen=True)
class _Outcome:
    """One result of an activation: all the mana the player gets, its snow part,
    damage dealt to the player, and the part under the ability's spending
    restriction (what the ability itself made, replacement effects included,
    CR 106.6a) with its snow part."""

    mana: Mana
    snow: Mana
    damage: int
    restricted: Mana
    restricted_snow: Mana


@dataclass(frozen=True)
class _Act:
    source: str
    index: int
    cost: Cost
    sacrifice: str | None
    x: int
    spend: SpendRestriction | None
    outcomes: tuple[_Outcome, ...]


def _snowy(view: View, oid: str) -> bool:
    o = view.state.find(oid)
    return o is not None and o.zone == "battlefield" and "Snow" in view.chars(oid).supertypes


def _bound(r: SpendRestriction | None, o) -> SpendRestriction | None:
    """The restriction as it applies to mana from ``o``: "of the chosen type" names
    the type chosen for ``o`` (left as it is when none was chosen)."""
    t = dict(o.chosen).get("type")
    if r is None or not isinstance(t, str) or not t:
        return r

    def bind(f):
        return _replace(f, chosen_type=False, subtypes=f.subtypes | {t}) if f.chosen_type else f

    return _replace(r, spells=tuple(bind(f) for f in r.spells), sources=tuple(bind(f) for f in r.sources))


def _triggered(view: View, tapped: str, produced: Mana, cp) -> list[tuple[Mana, Mana]]:
    """``produced`` plus what each triggered mana ability adds (CR 605.1b, 106.12a),
    every combination: (total, part made by snow sources among the triggers)."""
    outs = [(produced, Mana())]
    for s in view.triggered_mana:
        ab: TriggeredManaAbility = s.ability
        if ab.trigger.event != "tapped_for_mana" or ab.trigger.selector is None:
            continue
        if not view.matches(ab.trigger.selector, tapped, view.state.find(s.source), s.controller):
            continue
        if ab.produce.kind == "that_land_produced":
            adds = [Mana.of([t]) for t in produced.types()]
        else:
            adds = _amounts(view, s.source, ab.produce, cp, None)
        snow = _snowy(view, s.source)
        outs = [(m + a, sn + (a if snow else Mana())) for m, sn in outs for a in (adds or [Mana()])]
    return outs


def _outcomes(view: View, o, ab: ManaAbility, player: str, cp, victim: str | None, x: int) -> list[_Outcome]:
    snow_src = _snowy(view, o.id)
    out = []
    for m in _amounts(view, o.id, ab.produce, cp, victim, x=x):
        results = list(mana_orders(view, o.id, player, m)) if ab.cost.tap else [m]
        for r in results:
            if not r:
                continue
            adds = _triggered(view, o.id, r, cp) if ab.cost.tap else [(r, Mana())]
            for total, trig_snow in adds:
                res = r if ab.spend is not None else Mana()
                out.append(_Outcome(total, (r if snow_src else Mana()) + trig_snow, ab.damage_to_you,
                                    res, res if snow_src else Mana()))
    return out


def _activations(view: View, player: str) -> list[_Act]:
    """Every mana ability of ``player``'s permanents that can be activated on this
    board, one entry per sacrificed permanent and per X of a "Remove X counters"
    cost: {T} needs an untapped permanent that may use it (CR 302.6), {Q} a
    tapped one (CR 107.6), counters to remove, enough life (CR 119.4), other
    untapped creatures to tap, a per-turn limit not reached (CR 602.5b), its
    condition met (CR 602.5b, 602.5d). Abilities with {X} in their mana cost
    are not modeled (the engine says so before the reference runs)."""
    cp = could_produce(view)
    life = view.state.player(player).life
    out: list[_Act] = []
    for o in view.permanents_of(player):
        for index, ab in enumerate(view.chars(o.id).activated, start=1):
            if not isinstance(ab, ManaAbility):
                continue
            cost = ab.cost
            if any(s.kind == "X" for s in cost.mana.symbols):
                continue
            if cost.tap and (o.tapped or not view.can_pay_tap_symbol(o.id)):
                continue
            if cost.untap and (not o.tapped or not view.can_pay_tap_symbol(o.id)):
                continue
            if cost.remove_counters and dict(o.counters).get(cost.remove_counters[0], 0) < cost.remove_counters[1]:
                continue
            if cost.life and life < cost.life:
                continue
            sel = cost.tap_selector   # "Tap three untapped Elves you control": the source too, unless {T} taps it
            others = [q for q in view.permanents_of(player)
                      if not (cost.tap and q.id == o.id) and not q.tapped
                      and (view.chars(q.id).is_creature if sel is None else view.matches(sel, q.id, o, player))]
            if len(others) < cost.tap_other_creatures:
                continue
            if _instant_or_sorcery_only(ab.condition):
                continue  # "Activate only as an instant": needs priority, never during a payment (CR 605.3a)
            if banned(view, o):
                continue  # "Activated abilities of artifacts can't be activated" (CR 602.5)
            if ab.limit is not None and o.activated(index) >= ab.limit:
                continue
            if ab.condition is not None and not _condition(view, ab.condition, o, player):
                continue
            if cost.sacrifice is not None:
                victims = [q for q in view.select(cost.sacrifice, o, player) if view.state.obj(q).controller == player]
            elif cost.sacrifice_self:
                victims = [o.id]
            else:
                victims = [None]
            if cost.remove_x_counters:
                kind, least = cost.remove_x_counters
                variants = [(x, _replace(cost, remove_counters=(kind, x) if x else None, remove_x_counters=None))
                            for x in range(least, dict(o.counters).get(kind, 0) + 1)]
            else:
                variants = [(0, cost)]
            for x, vcost in variants:
                for victim in victims:
                    outs = _outcomes(view, o, ab, player, cp, victim, x)
                    if outs:
                        out.append(_Act(o.id, index, vcost, victim, x, _bound(ab.spend, o), tuple(outs)))
    return out


def _instant_or_sorcery_only(cond) -> bool:
    """"Activate only as an instant / as a sorcery" (alone or with other conditions)."""
    if cond is None:
        return False
    return cond.kind in ("instant", "sorcery") or (cond.kind == "all" and
                                                   any(_instant_or_sorcery_only(p) for p in cond.parts))


def _spendable(unit_type: str, snow: bool, req: str, celestial: bool) -> bool:
    """CR 107.4a–h, Celestial Dawn: may this unit pay requirement ``req``?"""
    if req == "*":
        return True
    if req == "S":
        return snow
    if not celestial:
        return unit_type == req
    if unit_type == "W":
        return req in COLORS
    return req == "C"


def _fits(f, c, chosen=None, spell=None) -> bool:
    """Plain reading of a spending restriction's description against characteristics ``c``;
    ``chosen``: the creature type chosen for the mana's source; ``spell``: for a spell,
    (zone it is cast from, its owner, the caster, {X} in its mana cost)."""
    ok = True
    if f.chosen_type:
        ok = ok and chosen is not None and chosen in c.subtypes
    if f.mv_min is not None:
        ok = ok and c.mana_value >= f.mv_min
    ok = ok and all(col in c.colors for col in f.colors)
    if spell is not None:
        zone, owner, caster, has_x = spell
        if f.has_x:
            ok = ok and has_x
        if f.not_owned:
            ok = ok and owner != caster
        where = "exile" if zone == "exile" else (zone if owner == caster else "elsewhere")
        if f.from_zones:
            ok = ok and where in f.from_zones
        if f.not_from_zones:
            ok = ok and where not in f.not_from_zones
    if f.types:
        ok = ok and any(t in c.types for t in f.types)
    if f.subtypes:
        ok = ok and any(t in c.subtypes for t in f.subtypes)
    ok = ok and not any(t in c.types for t in f.nontypes)
    ok = ok and all(t in c.types for t in f.types_all)
    ok = ok and all(t in c.supertypes for t in f.supertypes)
    ok = ok and not any(col in c.colors for col in f.not_colors)
    if f.colorless:
        ok = ok and len(c.colors) == 0
    if f.multicolored:
        ok = ok and len(c.colors) >= 2
    if f.mv_max is not None:
        ok = ok and c.mana_value <= f.mv_max
    return ok


def _allows(r, what: str, chars, chosen=None, spell=None) -> bool:
    """CR 106.6: may mana under restriction ``r`` (None: none) be spent on ``what``
    ("cast" a spell / "activate" an ability of a source, with its characteristics)?"""
    if r is None:
        return True
    if what == "cast":
        return any(_fits(f, chars, chosen, spell) for f in r.spells)
    if what == "activate":
        if not r.abilities:
            return False
        return len(r.sources) == 0 or any(_fits(f, chars, chosen) for f in r.sources)
    return False


def _matching(units: list[tuple], reqs: list[str], celestial: bool) -> bool:
    """Can these units (exactly as many as reqs) pay the requirements one to one?"""
    if len(units) != len(reqs):
        return False
    reqs = sorted(reqs, key=lambda r: r == "*")  # specific requirements first

    def go(i: int, used: frozenset) -> bool:
        if i == len(reqs):
            return True
        seen = set()
        for j, u in enumerate(units):
            if j in used or (u[0], u[1]) in seen:
                continue
            if _spendable(u[0], u[1], reqs[i], celestial):
                seen.add((u[0], u[1]))
                if go(i + 1, used | {j}):
                    return True
        return False

    return go(0, frozenset())


def _sub_multisets(units: tuple, size: int):
    """Distinct sub-multisets of ``units`` (a sorted tuple) of ``size``."""
    counts = Counter(units)
    keys = sorted(counts)

    def go(i: int, left: int):
        if left == 0:
            yield ()
            return
        if i == len(keys):
            return
        k = keys[i]
        for n in range(min(counts[k], left), -1, -1):
            for rest in go(i + 1, left - n):
                yield (k,) * n + rest

    yield from go(0, size)


def _announcements(symbols, life_allowed: bool):
    """Every announced equivalent (CR 601.2b): list of requirement letters ("*" for
    generic) and life paid."""
    per = []
    for s in symbols:
        opts = []
        for what, n in s.payment_options():
            if what == "life":
                if life_allowed:
                    opts.append(((), n))
            else:
                opts.append(((what,) * n, 0))
        if s.kind == "generic" and s.generic == 0:
            opts = [((), 0)]
        per.append(opts)
    seen = set()
    for combo in itertools.product(*per):
        reqs = tuple(sorted(r for o in combo for r in o[0]))
        life = sum(o[1] for o in combo)
        if (reqs, life) not in seen:
            seen.add((reqs, life))
            yield list(reqs), life


def _classes(view: View, player: str, source: str | None) -> list[list[str]]:
    """Interchangeable permanents (contract §2.3): same card, controller, owner,
    status, counters, damage, attachments, and nothing attached to them. The
    permanent whose ability is being paid for is on its own."""
    attached_to_something = {o.attached_to for o in view.state.objects if o.attached_to}
    groups: dict[tuple, list[str]] = {}
    for o in view.permanents_of(player):
        if o.id in attached_to_something or o.id == source:
            key: tuple = ("unique", o.id)
        else:
            key = (o.card.name, o.controller, o.owner, o.tapped, o.sick, o.counters, o.damage, o.attached_to,
                   o.token, o.conjured, o.chosen, o.activated_this_turn, o.entered_this_turn)
        groups.setdefault(key, []).append(o.id)
    return list(groups.values())


class _Sim:
    def __init__(self, view: View, player: str, tc: TotalCost):
        self.view = view
        self.player = player
        self.tc = tc
        self.celestial = any(s.controller == player for s in view.statics(SpendWhiteAsAny))
        self.life0 = view.state.player(player).life
        self.acts = _activations(view, player)
        self.perms = [o.id for o in view.permanents_of(player)]
        self.creatures = {o.id for o in view.permanents_of(player) if view.chars(o.id).is_creature}
        self.initial = {o.id: (o.tapped, dict(o.counters)) for o in view.permanents_of(player)}
        self.results: dict[str, dict] = {}
        # each restriction as printed on the source's ability, with the type chosen for the source
        self.restrictions = {}
        for a in self.acts:
            if a.spend is not None:
                printed = view.chars(a.source).activated[a.index - 1].spend
                self.restrictions[a.spend.describe()] = (printed, dict(view.state.obj(a.source).chosen).get("type"))
        self.spell = None
        if tc.what == "cast" and tc.spell is not None:
            so = view.state.obj(tc.spell)
            self.spell = (so.zone, so.owner, player, "{X}" in so.card.data.mana_cost.text)
            self.purpose = ("cast", view.chars(tc.spell))
        elif tc.what == "activate" and (tc.source or tc.hand_source) is not None:
            self.purpose = ("activate", view.chars(tc.source or tc.hand_source))
        else:
            self.purpose = ("cost", None)

    def usable(self, unit: tuple, what: str, chars) -> bool:
        if unit[3] == "":
            return True
        printed, chosen = self.restrictions[unit[3]]
        return _allows(printed, what, chars, chosen, self.spell if what == "cast" else None)

    # state: (objs, pool, activated, spent_tags, ab_life, damage)
    # objs: tuple of (id, present, tapped, counters-tuple) in self.perms order
    def start(self):
        objs = tuple((oid, True, self.initial[oid][0], tuple(sorted(self.initial[oid][1].items())), False)
                     for oid in self.perms)
        pool = []
        for t, n in zip(TYPES, self.view.state.pool(self.player).counts):
            pool.extend([(t, False, "", "")] * n)
        for mana, r in self.view.state.restricted_mana(self.player):   # already in the pool, restricted
            self.restrictions.setdefault(r.describe(), (r, None))
            for t, n in zip(TYPES, mana.counts):
                pool.extend([(t, False, "", r.describe())] * n)
        return (objs, tuple(sorted(pool)), frozenset(), frozenset(), 0, 0, ())

    def run(self) -> None:
        seen = set()
        stack = [self.start()]
        while stack:
            st = stack.pop()
            if st in seen:
                continue
            seen.add(st)
            self.finish(st)
            for nxt in self.successors(st):
                if nxt not in seen:
                    stack.append(nxt)

    @staticmethod
    def _obj(objs, oid):
        for o in objs:
            if o[0] == oid:
                return o
        raise KeyError(oid)

    @staticmethod
    def _set(objs, oid, **kw):
        out = []
        for o in objs:
            if o[0] == oid:
                d = {"present": o[1], "tapped": o[2], "counters": o[3], "skip": o[4]}
                d.update(kw)
                o = (oid, d["present"], d["tapped"], d["counters"], d["skip"])
            out.append(o)
        return tuple(out)

    def riders(self, objs, fx, a, ab):
        """The mana ability's riders as it resolves (CR 605.1a), read from the IR
        here: skip untap, counters put on it, sacrifice without counters left,
        life gained or lost, cards drawn."""
        fx = dict(fx)
        src = self.view.state.obj(a.source)
        for r in ab.riders:
            if r.condition is not None and not _condition(self.view, r.condition, src, self.player):
                continue
            if r.kind == "skip_untap":
                objs = self._set(objs, a.source, skip=True)
            elif r.kind == "add_counters":
                c = dict(self._obj(objs, a.source)[3])
                c[r.counter] = c.get(r.counter, 0) + r.n
                objs = self._set(objs, a.source, counters=tuple(sorted(c.items())))
            elif r.kind == "sacrifice_if_none":
                if dict(self._obj(objs, a.source)[3]).get(r.counter, 0) == 0:
                    objs = self._set(objs, a.source, present=False)
            elif r.kind in ("gain_life", "lose_life"):
                ids = self.view.state.player_ids
                who = {"you": [self.player], "each_player": list(ids),
                       "each_opponent": [q for q in ids if q != self.player]}[r.who]
                for q in who:
                    key = ("life_gained" if r.kind == "gain_life" else "life_lost", q)
                    fx[key] = fx.get(key, 0) + r.n
            elif r.kind == "draw":
                fx[("draw", "")] = fx.get(("draw", ""), 0) + r.n
        return objs, tuple(sorted(fx.items()))

    def life_now(self, ab_life, dmg, fx) -> int:
        f = dict(fx)
        return (self.life0 - ab_life - dmg + f.get(("life_gained", self.player), 0)
                - f.get(("life_lost", self.player), 0))

    def successors(self, st):
        objs, pool, activated, spent, ab_life, dmg, fx = st
        for a in self.acts:
            ab = self.view.chars(a.source).activated[a.index - 1]
            base = f"{a.source}#{a.index}#"
            if ab.limit is not None:
                # CR 602.5b: at most `limit` activations each turn, earlier ones this turn included
                before = sum(1 for t in activated if t.startswith(base))
                if self.view.state.obj(a.source).activated(a.index) + before >= ab.limit:
                    continue
                tag = f"{base}{before}"
            elif not a.cost.tap and a.cost.tap_other_creatures:
                # no {T}: again and again while there are permanents to tap (Heritage Druid)
                tag = f"{base}{sum(1 for t in activated if t.startswith(base))}"
            else:
                tag = f"{base}{a.sacrifice}#{a.x}"
                if tag in activated:
                    continue
            if ab.condition is not None:
                assert _condition(self.view, ab.condition, self.view.state.obj(a.source), self.player), a
            src = self._obj(objs, a.source)
            if not src[1]:
                continue
            cost = a.cost
            if cost.tap and src[2]:
                continue
            if cost.untap and not src[2]:
                continue
            counters = dict(src[3])
            if cost.remove_counters and counters.get(cost.remove_counters[0], 0) < cost.remove_counters[1]:
                continue
            life_now = self.life_now(ab_life, dmg, fx)
            if cost.life and life_now < cost.life:
                continue
            if a.sacrifice is not None and not self._obj(objs, a.sacrifice)[1]:
                continue
            # pay the ability's costs: tap, counters, creatures, sacrifice, mana
            o2 = objs
            if cost.tap:
                o2 = self._set(o2, a.source, tapped=True)
            if cost.untap:
                o2 = self._set(o2, a.source, tapped=False)
            if cost.remove_counters:
                c = dict(self._obj(o2, a.source)[3])
                c[cost.remove_counters[0]] -= cost.remove_counters[1]
                o2 = self._set(o2, a.source, counters=tuple(sorted((k, v) for k, v in c.items() if v)))
            if cost.put_counters:  # a cost (CR 118.1): counters put on the source
                c = dict(self._obj(o2, a.source)[3])
                c[cost.put_counters[0]] = c.get(cost.put_counters[0], 0) + cost.put_counters[1]
                o2 = self._set(o2, a.source, counters=tuple(sorted(c.items())))
            creature_choices = [()]
            if cost.tap_other_creatures:
                sel = cost.tap_selector
                srcobj = self.view.state.obj(a.source)
                cands = [o[0] for o in o2 if o[1] and not o[2] and (
                    o[0] in self.creatures if sel is None else self.view.matches(sel, o[0], srcobj, self.player))]
                creature_choices = list(itertools.combinations(cands, cost.tap_other_creatures))
            for chosen in creature_choices:
                o3 = o2
                for cid in chosen:
                    o3 = self._set(o3, cid, tapped=True)
                if a.sacrifice is not None:
                    o3 = self._set(o3, a.sacrifice, present=False)
                src_chars = self.view.chars(a.source)
                usable = tuple(u for u in pool if self.usable(u, "activate", src_chars))
                for reqs, _ in _announcements(cost.mana.symbols, False):
                    for units in _sub_multisets(usable, len(reqs)):
                        if not _matching(list(units), reqs, self.celestial):
                            continue
                        rest = list(pool)
                        for u in units:
                            rest.remove(u)
                        sp = spent | {u[2] for u in units if u[2]}
                        for out in a.outcomes:
                            if not out.mana:
                                continue
                            add = []
                            rtext = a.spend.describe() if a.spend is not None else ""
                            for t, n, sn, r, rs in zip(TYPES, out.mana.counts, out.snow.counts,
                                                       out.restricted.counts, out.restricted_snow.counts):
                                add.extend([(t, True, tag, "")] * (sn - rs) + [(t, False, tag, "")] * (n - sn - r + rs))
                                add.extend([(t, True, tag, rtext)] * rs + [(t, False, tag, rtext)] * (r - rs))
                            o4, fx2 = self.riders(o3, fx, a, ab)
                            yield (o4, tuple(sorted(rest + add)), activated | {tag}, sp,
                                   ab_life + cost.life, dmg + out.damage, fx2)

    def finish(self, st) -> None:
        objs, pool, activated, spent, ab_life, dmg, fx = st
        tc = self.tc
        src = self._obj(objs, tc.source) if tc.source else None
        if tc.source is not None:
            if (tc.tap or tc.untap or tc.sacrifice_self or tc.remove_counters) and not src[1]:
                return
            if (tc.tap or tc.untap) and tc.tap_symbol_blocked:
                return
            if tc.tap and src[2]:
                return
            if tc.untap and not src[2]:
                return
            if tc.remove_counters and dict(src[3]).get(tc.remove_counters[0], 0) < tc.remove_counters[1]:
                return
        o2 = objs
        if tc.tap:
            o2 = self._set(o2, tc.source, tapped=True)
        if tc.untap:
            o2 = self._set(o2, tc.source, tapped=False)
        if tc.remove_counters:
            c = dict(self._obj(o2, tc.source)[3])
            c[tc.remove_counters[0]] -= tc.remove_counters[1]
            o2 = self._set(o2, tc.source, counters=tuple(sorted((k, v) for k, v in c.items() if v)))
        tap_choices = [()]
        if tc.tap_creatures:
            srcobj = self.view.state.obj(tc.source) if tc.source else None
            cands = [o[0] for o in o2 if o[1] and not o[2] and (
                o[0] in self.creatures if tc.tap_selector is None
                else self.view.matches(tc.tap_selector, o[0], srcobj, self.player))]
            tap_choices = list(itertools.combinations(cands, tc.tap_creatures))
        for chosen in tap_choices:
            o3 = o2
            for cid in chosen:
                o3 = self._set(o3, cid, tapped=True)
            sac_choices = [None]
            if tc.sacrifice is not None:
                srcobj = self.view.state.obj(tc.source) if tc.source else None
                sac_choices = [o[0] for o in o3 if o[1] and self.view.matches(tc.sacrifice, o[0], srcobj, self.player)]
            for victim in sac_choices:
                o4 = o3
                if tc.sacrifice is not None:
                    o4 = self._set(o4, victim, present=False)
                if tc.sacrifice_self:
                    if not self._obj(o4, tc.source)[1]:
                        continue
                    o4 = self._set(o4, tc.source, present=False)
                self.pay_mana(o4, pool, activated, spent, ab_life, dmg, fx)

    def x_values(self):
        if self.tc.x is not None:
            return [self.tc.x]
        total = len(self.start()[1]) + sum(max((o.mana.total for o in a.outcomes), default=0) for a in self.acts)
        return range(0, total // max(self.tc.x_count, 1) + 1)

    def pay_mana(self, objs, pool, activated, spent, ab_life, dmg, fx) -> None:
        tc = self.tc
        for x in self.x_values():
            syms = [s for s in tc.mana.symbols if s.kind != "X"]
            for reqs, life in _announcements(syms, tc.life_allowed):
                reqs = reqs + ["*"] * (x * tc.x_count)
                life_paid = life + tc.life
                if life_paid > 0 and self.life_now(ab_life, dmg, fx) < life_paid:
                    continue
                usable = tuple(u for u in pool if self.usable(u, *self.purpose))
                for units in _sub_multisets(usable, len(reqs)):
                    if not _matching(list(units), reqs, self.celestial):
                        continue
                    sp = spent | {u[2] for u in units if u[2]}
                    if not activated <= sp:
                        continue
                    rest = list(pool)
                    for u in units:
                        rest.remove(u)
                    self.record(objs, rest, ab_life + life_paid, dmg, x, fx, activated)

    def record(self, objs, rest, life, dmg, x, fx=(), activated=frozenset()) -> None:
        fates = {}
        for oid, present, tapped, counters, skip in objs:
            t0, c0 = self.initial[oid]
            now = dict(counters)
            removed = {k: v - now.get(k, 0) for k, v in c0.items() if v - now.get(k, 0) > 0}
            added = {k: v - c0.get(k, 0) for k, v in now.items() if v - c0.get(k, 0) > 0}
            fates[oid] = (present, tapped, tuple(sorted(removed.items())), t0, skip, tuple(sorted(added.items())))
        tap, untap, sac, rc, skips, ac = [], [], [], {}, [], {}
        for members in _classes(self.view, self.player, self.tc.source):
            def rank(f):
                # canonical naming: sacrificed, then tapped by a mana ability with something
                # left on it (counters removed, then what riders left: skip untap, counters added),
                # then plainly tapped, then unchanged
                present, tapped, removed, t0, skip, added = f
                if not present:
                    return (0, ())
                if tapped and not t0:
                    marks = ((("skip_untap", "", 1),) if skip else ()) + tuple(("add", k, n) for k, n in added)
                    if not removed and not marks:
                        return (2, ())
                    name, n = removed[0] if removed else ("", 0)
                    return (1, name, n) + ((marks,) if marks else ())
                # untapped by the payment: those with counters put on them (a limited ability's
                # cost, used on the first members) before the others
                return (3, removed, (0, tuple((k, -n) for k, n in added)) if added else (1,))
            fs = sorted((fates[m] for m in members), key=rank)
            for oid, f in zip(members, fs):
                present, tapped, removed, t0, skip, added = f
                if not present:
                    sac.append(oid)
                    continue
                if tapped and not t0:
                    tap.append(oid)
                if t0 and not tapped:
                    untap.append(oid)
                if removed:
                    rc[oid] = dict(removed)
                if skip:
                    skips.append(oid)
                if added:
                    ac[oid] = dict(added)
        # uses of per-turn-limited abilities without {T} (CR 602.5b), per member; within a class
        # of interchangeable members the busiest get the first names
        uses: dict[str, dict[str, int]] = {}
        for t in activated:
            src, index = t.split("#")[0], int(t.split("#")[1])
            ab = self.view.chars(src).activated[index - 1]
            if ab.limit is not None and not ab.cost.tap:
                uses.setdefault(src, {})[str(index)] = uses.get(src, {}).get(str(index), 0) + 1
        used = {}
        for members in _classes(self.view, self.player, self.tc.source):
            counts = sorted((sorted(uses.get(m, {}).items()) for m in members), reverse=True)
            for oid, c in zip(members, counts):
                if c:
                    used[oid] = dict(c)
        pool = Counter(u[0] for u in rest if u[3] == "")
        pm = {"tap": sorted(tap), "untap": sorted(untap), "sacrifice": sorted(sac), "life": life, "damage": dmg,
              "x": x, "pool_after": {self.player: "".join("{%s}" % t * pool[t] for t in TYPES)}}
        if used:
            pm["activated"] = {k: used[k] for k in sorted(used)}
        if rc:
            pm["remove_counters"] = {k: rc[k] for k in sorted(rc)}
        if skips:
            pm["skip_untap"] = sorted(skips)
        if ac:
            pm["add_counters"] = {k: ac[k] for k in sorted(ac)}
        for (what, q), n in fx:
            if n and what == "draw":
                pm["draw"] = n
            elif n:
                pm.setdefault(what, {})[q] = n
        kept = sorted({u[3] for u in rest if u[3]})
        if kept:
            pm["restricted_pool_after"] = {self.player: [
                {"mana": "".join("{%s}" % t * sum(1 for u in rest if u[3] == text and u[0] == t) for t in TYPES),
                 "restriction": text} for text in kept]}
        self.results[json.dumps(pm, sort_keys=True)] = pm


def brute_payments(view: View, player: str, tc: TotalCost) -> list[dict]:
    """Every distinct payment, as contract objects (unsorted)."""
    if tc.what == "cast" and not tc.mana:
        return []
    sim = _Sim(view, player, tc)
    sim.run()
    return list(sim.results.values())


def _ref_count(view: View, per, src, controller: str) -> int:
    """A "for each …" count, plainly: permanents ``controller`` controls fitting the
    selector, or cards in ``controller``'s graveyard fitting the card filter."""
    if per.what == "cards":
        f = per.card_filter
        return sum(1 for o in view.state.objects if o.zone == "graveyard" and o.owner == controller
                   and o.card is not None and _fits(f, view.chars(o.id))) + per.plus
    sel = per.selector
    n = 0
    for o in view.state.objects:
        if o.zone != "battlefield":
            continue
        c = view.chars(o.id)
        if sel.who == "you" and o.controller != controller:
            continue
        if sel.who == "opponent" and o.controller == controller:
            continue
        if sel.types and not all(t in c.types for t in sel.types):
            continue
        if sel.subtypes and not any(t in c.subtypes for t in sel.subtypes):
            continue
        if sel.attacking and o.attacking is None:
            continue            # "for each attacking creature you control" (CR 506.4)
        n += 1
    return n + per.plus


def reference_cost_changes(view: View, player: str, tc: TotalCost) -> TotalCost:
    """CR 601.2f, 118.7, written plainly for this reference: the printed mana cost
    of the spell, plus every cost increase that applies, minus every reduction
    (generic mana only, not below zero), then raised to the largest minimum
    (Trinisphere, untapped) that applies; {0} when nothing is left."""
    from mtgsolve.solver.core import ir

    if tc.what != "cast" or not tc.mana:
        return tc
    spell = view.state.obj(tc.spell)
    c = view.chars(tc.spell)
    rules = []
    for o in view.state.objects:
        if o.zone == "battlefield":
            for a in view.chars(o.id).abilities:
                if isinstance(a, ir.CastingRule) and not getattr(a, "self_only", False):
                    rules.append((o, o.controller, a))
    for a in spell.card.abilities:
        if isinstance(a, ir.CastingRule) and getattr(a, "self_only", False):
            rules.append((spell, player, a))
    more = less = minimum = 0
    for src, ctl, r in rules:
        if r.kind == "cost_minimum":
            if not (r.untapped_only and src.tapped):
                minimum = max(minimum, r.amount)
            continue
        if r.kind not in ("cost_increase", "cost_reduction"):
            continue
        if not r.self_only:
            if (r.who == "you" and player != ctl) or (r.who == "opponent" and player == ctl):
                continue
            chosen = dict(src.chosen).get("type")      # "of the chosen type": the source's (CR 614.12)
            if r.spells is not None and not any(_fits(f, c, chosen) for f in (r.spells,) + tuple(r.spells_or)):
                continue            # "Green spells and blue spells": either description, once
        n = r.amount * (_ref_count(view, r.per, src, ctl) if r.per is not None else 1)
        if r.kind == "cost_increase":
            more += n
        else:
            less += n
    if not more and not less and not minimum:
        return tc
    generic = sum(s.generic for s in tc.mana.symbols if s.kind == "generic") + more
    generic = max(generic - less, 0)
    rest = "".join(s.text for s in tc.mana.symbols if s.kind != "generic")
    amount = generic + sum(s.mana_value for s in tc.mana.symbols if s.kind not in ("generic", "X")) \
        + sum(1 for s in tc.mana.symbols if s.kind == "X") * (tc.x or 0)
    if amount < minimum:
        generic += minimum - amount
    text = ("{%d}" % generic if generic or not rest else "") + rest
    return _replace(tc, mana=ManaCost.parse(text))


def brute_pay(state, query: dict, view: View | None = None) -> dict:
    """``payable``, ``count`` and the set of payments (as canonical JSON strings).
    The situation's cost changes are applied by :func:`reference_cost_changes`."""
    view = view or View(state)
    if "activate" in query:
        from .activation_costs_ref import brute_activate, chooses_objects   # it builds on this module

        ref = query["activate"]
        if chooses_objects(view.chars(ref["object"]).activated[ref.get("index", 1) - 1].cost):
            return brute_activate(state, query, view)
    player = query_player(view, query)
    tc = reference_cost_changes(view, player, _total_cost(view, query))
    pays = brute_payments(view, player, tc)
    return {"payable": bool(pays), "count": len(pays),
            "payments": sorted(json.dumps(p, sort_keys=True) for p in pays)}

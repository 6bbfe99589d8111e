"""Mana sources: what each mana ability of a player's permanents can add, and
what every permanent could produce (CR 106, 605).

The API the mana models (:mod:`models.available`, the ``pay`` model) build on:

* :func:`activations` — every activatable mana ability of a player's
  permanents (one :class:`Activation` per sacrifice choice), with every
  distinct :class:`ManaOutcome`: the ability's production after replacement
  effects in each order the player may choose (CR 106.12b, 616), plus the
  triggered mana abilities (Mana Flare, Overgrowth …; CR 605.1b, 106.12a)
  resolving on the mana actually produced;
* :func:`could_produce` — CR 106.7 for every permanent, decided by the
  least-fixed-point model of :mod:`models.producible`;
* :func:`interchangeable_classes` — permanents that are interchangeable
  objects (same card, controller, owner, status, counters, damage,
  attachments, nothing attached, referred to by nothing), so models can count
  per class; :func:`class_of` is the one definition (the payments are listed
  with it and :mod:`solver.api` matches a given payment with it);
  :func:`card_classes` — the same for cards in other zones (:func:`card_key`).

Rules choices worth knowing:

* "Tapped for mana" (CR 106.12) means a mana ability with {T} in its cost:
  replacement effects on production (106.12b) and "whenever … is tapped for
  mana" triggers (106.12a) see only those. Squandered Resources (sacrifice, no
  {T}) is not tapping for mana; neither is the creature Springleaf Drum taps.
* Triggered mana abilities add mana of their own (their source is the
  enchantment or creature, not the tapped land): replacement effects on the
  land's production don't modify it (Contamination + Mana Flare gives {B}{B}).
* An ability that would produce no mana (Gaea's Cradle with no creatures,
  Exotic Orchard with nothing to copy, CR 106.5/106.7) is still activatable
  (CR 605.2) and produces nothing; no trigger sees it (106.12a).
* "Sacrifice a land: add one mana of any type the sacrificed land could
  produce" uses that land's could-produce on the board as it is (the player
  may sacrifice in any order, after tapping; see :mod:`models.available`).
"""
from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, replace
from itertools import combinations, combinations_with_replacement, product
from typing import Any, Iterable, Mapping, Sequence

from mtgsolve.models import producible

from .activation_rules import activation_ban
from .characteristics import View
from .conditions import condition_holds
from ..core import ir
from ..core.ir import (ActivationCondition, Cost, Count, ManaAbility, Produce, SpendRestriction, Static, StaticPump,
                 TriggeredManaAbility, condition_classes)
from ..core.mana import COLORS, TYPES, Mana, chosen_color_letter
from .mana_riders import NONE as NO_RIDERS, RiderEffects, rider_dependence, rider_effects
from .replacement import mana_effects, mana_event
from .spending import bind_restriction, filter_matches
from ..core.state import GameObject

REPRESENTATIVE_ORDERS = 8
"""How many replacement orders a :class:`ManaOutcome` keeps (informational)."""


@dataclass(frozen=True)
class ManaOutcome:
    """One distinct result of activating a mana ability.

    ``mana``: all mana the activating player gets from this activation: the
    ability's production after replacement effects in the chosen order, plus
    triggered mana abilities resolving on what was actually produced (CR
    605.1b, 106.12a). ``snow``: the part of ``mana`` produced by a snow source
    (for {S}, CR 107.4h). ``damage``: damage the activation deals to the
    activating player (Adarkar Wastes, Ancient Tomb). ``orders``: some
    replacement orders (ids of effect sources) leading here, informational
    (at most :data:`REPRESENTATIVE_ORDERS`). ``restricted``: the part of
    ``mana`` subject to the ability's spending restriction (CR 106.6): all the
    ability itself produced, replacement effects included (CR 106.6a), but
    not what triggered mana abilities add; ``restricted_snow``: the part of
    it produced by a snow source."""

    mana: Mana
    snow: Mana
    damage: int = 0
    orders: tuple[tuple[str, ...], ...] = ()
    restricted: Mana = Mana()
    restricted_snow: Mana = Mana()


@dataclass(frozen=True)
class Activation:
    """One activatable mana ability (CR 605.1a) of a permanent.

    ``source``: the permanent; ``index``: 1-based activated-ability index on it
    (contract numbering); ``cost``: the ability's cost (X-free);
    ``sacrifice``: the permanent sacrificed for a "Sacrifice a land" cost (one
    Activation per choice), or the source itself for a sacrifice-self cost;
    ``taps_for_mana``: {T} in the cost (CR 106.12); ``outcomes``: every
    distinct result, sorted; ``klass``: the interchangeable-object class of
    the source (the id of its first member). ``x``: the X chosen for a
    "Remove X counters" cost (one Activation per X; ``cost`` then removes
    exactly X, and ``variable`` marks such variants, CR 107.3a);
    ``uses_left``: activations still allowed this turn by a per-turn limit
    (CR 602.5b; None: no limit). ``spend``: the ability's spending
    restriction (CR 106.6), which applies to each outcome's ``restricted`` part."""

    source: str
    index: int
    cost: Cost
    sacrifice: str | None
    taps_for_mana: bool
    outcomes: tuple[ManaOutcome, ...]
    klass: str
    x: int = 0
    uses_left: int | None = None
    variable: bool = False
    spend: "SpendRestriction | None" = None
    riders: RiderEffects = NO_RIDERS


# ---------------------------------------------------------------------------
# Interchangeable objects
# ---------------------------------------------------------------------------


def _referenced_ids(view: View) -> set[str]:
    """Ids that something refers to: attachments, targets, ability sources,
    effects. Such a permanent is never interchangeable with another."""
    out: set[str] = set()
    st = view.state
    for o in st.objects:
        if o.attached_to:
            out.add(o.attached_to)
        for slot in o.targets or ():
            out.update(slot)
        if o.ability is not None:
            out.add(o.ability.source)
        for k, v in o.last_known:
            if isinstance(v, str):
                out.add(v)
    for e in st.effects:
        for slot in e.targets or ():
            out.update(slot)
        if e.ability is not None:
            out.add(e.ability.source)
    return out


def class_of(view: View) -> dict[str, str]:
    """Permanent id → its class key (the id of the first interchangeable permanent, battlefield order).

    The one definition of interchangeable permanents (contract §2.3): the payment and
    available-mana problems count per class (:func:`interchangeable_classes`) and the API's
    legality check compares a given payment with a listed one per class
    (:func:`solver.api.payment_key`). Equal: the same card, controller, owner and status
    (tapped, summoning sick, counters, damage, attachments, choices, X, what was done this
    turn) and the same characteristics now (CR 613); never equal: a permanent something
    refers to (an attachment, a target, an ability's source, an effect)."""
    return view.memo.get("class_of", lambda: _classes(view))


def _classes(view: View) -> dict[str, str]:
    refs = _referenced_ids(view)
    first: dict[tuple, str] = {}
    out: dict[str, str] = {}
    for o in view.permanents:
        c = view.chars(o.id)
        if o.id in refs:
            key: tuple = ("unique", o.id)
        else:
            key = (o.card.name if o.card else o.name, o.controller, o.owner, o.tapped, o.sick,
                   tuple(sorted(o.counters)), o.damage, o.attached_to, o.token, o.conjured,
                   tuple(sorted((k, repr(v)) for k, v in o.chosen)), o.x,
                   c.types, c.subtypes, c.supertypes, c.colors, c.abilities, c.power, c.toughness,
                   o.activated_this_turn, o.entered_this_turn, o.skip_untap)
        out[o.id] = first.setdefault(key, o.id)
    return out


def card_key(o: GameObject) -> tuple:
    """Cards outside the battlefield with the same key are interchangeable (contract §2.3):
    same card, owner and status (token, conjured, counters, choices made for it).

    Not :func:`class_of`: a card in a hand, graveyard or library is a new object with none of
    a permanent's status (CR 400.7) — no tapped or summoning-sick status, damage or
    attachments — and no continuous effect changes its characteristics (CR 611.3a, 613), so
    its card and status say everything; a permanent's class needs the characteristics view
    and what refers to it."""
    return (o.card.name if o.card is not None else o.name, o.owner, o.token, o.conjured,
            tuple(sorted(o.counters)), tuple(sorted((k, repr(v)) for k, v in o.chosen)))


def card_classes(view: View, player: str, zone: str, exclude: str, color: str = "",
                 card_type: str = "") -> list[list[str]]:
    """The player's cards in ``zone`` (other than ``exclude``) that fit, in interchangeable
    classes (ids in zone order), the classes in order of their first member."""
    groups: dict[tuple, list[str]] = {}
    for o in view.state.objects:
        if o.zone != zone or o.owner != player or o.id == exclude or o.card is None:
            continue
        if color and color not in view.chars(o.id).colors:
            continue
        if card_type and card_type not in o.card.data.types:
            continue
        groups.setdefault(card_key(o), []).append(o.id)
    return list(groups.values())


def interchangeable_classes(view: View, player: str) -> dict[str, list[str]]:
    """Class key → ids (battlefield order) of the permanents ``player`` controls."""
    cls = class_of(view)
    out: dict[str, list[str]] = {}
    for o in view.permanents_of(player):
        out.setdefault(cls[o.id], []).append(o.id)
    return out


# ---------------------------------------------------------------------------
# What an ability would produce
# ---------------------------------------------------------------------------


def _unit(t: str) -> Mana:
    return Mana.of([t])


def count_value(view: View, count: Count, src, controller: str, x: int = 0) -> int:
    """The value of a :class:`~solver.core.ir.Count` now (CR 107.3, 208.3): a number
    of permanents, a power, the greatest power, counters on the source, or the
    cost's X; plus ``count.plus``. Powers below 0 count as 0 (CR 107.1b)."""
    w = count.what
    if w == "x":
        n = x
    elif w == "counters":
        n = src.counter(count.counter) if src is not None else 0
    elif w in ("power", "greatest_power"):
        powers = [view.chars(q).power or 0 for q in view.select(count.selector, src, controller)
                  if view.chars(q).is_creature]
        n = max(powers, default=0)
    elif w == "greatest_toughness":
        n = max((view.chars(q).toughness or 0 for q in view.select(count.selector, src, controller)
                 if view.chars(q).is_creature), default=0)
    elif w == "life":
        n = view.state.player(controller).life  # CR 119
    elif w == "devotion":
        # CR 700.5: each mana symbol of that color in the mana costs of permanents you control
        # (hybrid and Phyrexian symbols count toward each of their colors)
        n = sum(1 for o in view.permanents_of(controller) if o.card is not None
                for sym in o.card.data.mana_cost.symbols if count.color in sym.colors)
    elif w == "cards":
        f = count.card_filter
        n = sum(1 for o in view.state.zone("graveyard") if o.owner == controller and o.card is not None
                and (f is None or filter_matches(f, view.chars(o.id))))
    elif count.keyword or count.min_power is not None or count.same_name:
        name = view.chars(src.id).name if src is not None else None
        n = sum(1 for q in view.select(count.selector, src, controller)
                if (not count.keyword or view.chars(q).keyword(count.keyword))
                and (count.min_power is None or (view.chars(q).is_creature
                                                 and (view.chars(q).power or 0) >= count.min_power))
                and (not count.same_name or view.chars(q).name == name))
    else:
        n = len(view.select(count.selector, src, controller))
    return max(n, 0) + count.plus


def production_choices(view: View, source_id: str, produce: Produce, cp: Mapping[str, frozenset[str]],
                       sacrificed: str | None = None, types_only: bool = False, x: int = 0) -> list[Mana]:
    """Every amount of mana ``produce`` may add as it resolves (before
    replacement effects), sorted; ``[Mana()]`` when it would add none
    (CR 106.5, 106.7; a count of zero).

    ``cp``: could-produce types of every permanent (for CR 106.7 abilities).
    ``types_only``: for could-produce purposes, "N mana in any combination of
    colors" is represented by its one-color amounts (the replacement effects
    of the IR map types, so they give the same types)."""
    src = view.state.find(source_id)
    controller = src.controller if src is not None else ""
    if produce.instead is not None:
        # "If <condition>, add … instead": read as the ability resolves (CR 608.2h), here and now
        cond, alt = produce.instead
        produce = alt if src is not None and condition_holds(view, cond, src, controller) else \
            replace(produce, instead=None)
    out: list[Mana]
    amount = produce.amount
    if produce.count is not None and not isinstance(produce, ir.CountedMana):  # a variable amount (CR 107.3)
        amount = count_value(view, produce.count, src, controller, x)
    if isinstance(produce, ir.FixedMana):
        out = [produce.options[0]]
    elif isinstance(produce, ir.ManaChoice):
        out = [o.scale(amount) for o in produce.options] if produce.count is not None else list(produce.options)
    elif isinstance(produce, ir.Combination) and produce.options:
        letters = [t for o in produce.options for t in o.types()]
        if types_only:
            out = [_unit(c).scale(amount) for c in letters]
        else:
            out = [Mana.of(list(combo)) for combo in combinations_with_replacement(letters, amount)]
    elif isinstance(produce, ir.AnyColor) and produce.count is not None and \
            produce.count.color == ir.DEVOTION_TO_CHOSEN:
        # "Choose a color. Add … of that color equal to your devotion to that color" (CR 700.5)
        per = [_unit(c).scale(count_value(view, replace(produce.count, color=c), src, controller, x)) for c in COLORS]
        out = [m for m in per if m] or [Mana()]
    elif isinstance(produce, ir.AnyColor):
        out = [_unit(c).scale(amount) for c in COLORS]
    elif isinstance(produce, ir.AnyType):
        out = [_unit(t).scale(produce.amount) for t in TYPES]
    elif isinstance(produce, ir.DifferentColors):
        # "two mana of different colors": distinct colors, one mana each
        if types_only:
            out = [_unit(c) for c in COLORS] if amount <= len(COLORS) else []
        else:
            out = [Mana.of(list(combo)) for combo in combinations(COLORS, amount)]
    elif isinstance(produce, ir.AmongColors):
        # "any color among legendary creatures and planeswalkers you control" (characteristics now)
        cols: set[str] = set()
        for f in produce.among:
            objs = [o for o in view.state.zone("graveyard") if o.owner == controller] if f.zone == "graveyard" \
                else view.permanents_of(controller)
            for o in objs:
                c = view.chars(o.id)
                if filter_matches(f, c):
                    cols |= c.colors
        if produce.each:      # one mana of each of those colors
            out = [Mana.of([c for c in COLORS if c in cols])] if cols else [Mana()]
        else:
            out = [_unit(c) for c in COLORS if c in cols]
    elif isinstance(produce, ir.CommanderIdentity):
        # the color identity of the controller's commanders, wherever they are (CR 903.3, 903.4);
        # no commander: no mana (CR 903.4f)
        ident: set[str] = set()
        for o in view.state.objects:
            if o.commander and o.owner == controller and o.card is not None:
                ident |= o.card.data.identity
        out = [_unit(c) for c in COLORS if c in ident]
    elif isinstance(produce, ir.Combination):
        if types_only:
            out = [_unit(c).scale(amount) for c in COLORS]
        else:
            out = [Mana.of(list(combo)) for combo in combinations_with_replacement(COLORS, amount)]
    elif isinstance(produce, ir.CouldProduce):
        allowed = TYPES if produce.of_type else COLORS
        ts: set[str] = set()
        for q in view.select(produce.selector, src, controller):
            ts |= cp.get(q, frozenset())
        out = [_unit(t) for t in TYPES if t in ts and t in allowed]
    elif isinstance(produce, ir.SacrificedCouldProduce):
        allowed = TYPES if produce.of_type else COLORS
        sac_ts = cp.get(sacrificed, frozenset()) if sacrificed else frozenset()
        out = [_unit(t) for t in TYPES if t in sac_ts and t in allowed]
    elif isinstance(produce, ir.CountedMana):
        assert produce.count is not None, "a counted production needs its count"
        out = [produce.options[0].scale(count_value(view, produce.count, src, controller, x))]
    elif isinstance(produce, ir.ThatLandProduced):
        out = []  # needs a land's production: only meaningful as a trigger (see _trigger_adds)
    elif isinstance(produce, ir.ChosenColor):
        # the color chosen as the source entered; none chosen: that part adds nothing (CR 106.5)
        color = chosen_color_letter(dict(src.chosen).get("color")) if src is not None else None
        out = list(produce.options) + ([_unit(color).scale(amount)] if color else [])
    else:
        raise ValueError(f"unsupported mana production {produce.kind!r}")
    out = [m for m in out if m]
    if not out:
        return [Mana()]
    return sorted(set(out), key=lambda m: m.counts)


def _triggers_on(view: View, tapped_id: str) -> list:
    """Triggered mana abilities that trigger when ``tapped_id`` is tapped for mana (CR 106.12a)."""
    out = []
    for s in view.triggered_mana:
        ab: TriggeredManaAbility = s.ability
        if not isinstance(ab.trigger, ir.TappedForMana) or ab.trigger.selector is None:
            continue
        if view.matches(ab.trigger.selector, tapped_id, view.state.find(s.source), s.controller):
            out.append(s)
    return out


def _trigger_adds(view: View, trig, produced: Mana, cp: Mapping[str, frozenset[str]]) -> list[Mana]:
    """What one triggered mana ability may add, given what the land actually produced."""
    p: Produce = trig.ability.produce
    if isinstance(p, ir.ThatLandProduced):
        return [_unit(t) for t in produced.types()]  # "one mana of any type that land produced"
    return [m for m in production_choices(view, trig.source, p, cp)]


def _is_snow(view: View, oid: str) -> bool:
    o = view.state.find(oid)
    return o is not None and o.zone == "battlefield" and "Snow" in view.chars(oid).supertypes


def ability_outcomes(view: View, source_id: str, ability: ManaAbility, tapper: str,
                     cp: Mapping[str, frozenset[str]], sacrificed: str | None = None,
                     x: int = 0) -> tuple[ManaOutcome, ...]:
    """Every distinct :class:`ManaOutcome` of activating ``ability`` of ``source_id``
    (``x``: the X chosen for its cost)."""
    taps = ability.cost.tap
    snow_src = _is_snow(view, source_id)
    triggers = _triggers_on(view, source_id) if taps else []
    found: dict[tuple[Any, ...], list[tuple[str, ...]]] = {}
    dmg = ability.damage_to_you
    for m in production_choices(view, source_id, ability.produce, cp, sacrificed, x=x):
        if not m:
            found.setdefault((Mana(), Mana(), dmg), [])
            continue
        if taps:
            ev = mana_event(view, source_id, tapper, m, max_orders=REPRESENTATIVE_ORDERS)
            results = ev.results
        else:
            results = {m: [()]}
        for r, orders in results.items():
            if not r:
                found.setdefault((Mana(), Mana(), dmg), []).extend(orders)
                continue
            options = [[(a, _is_snow(view, t.source)) for a in _trigger_adds(view, t, r, cp) if a] or [(Mana(), False)]
                       for t in triggers]
            for combo in product(*options):
                total = r
                snow = r if snow_src else Mana()
                for add, is_snow in combo:
                    total = total + add
                    if is_snow:
                        snow = snow + add
                res = r if ability.spend is not None else Mana()  # CR 106.6, 106.6a
                found.setdefault((total, snow, dmg, res, res if snow_src else Mana()), []).extend(orders)
    out = []
    for (mana, snow, d, *res), orders in found.items():
        reps = tuple(sorted(set(orders)))[:REPRESENTATIVE_ORDERS]
        out.append(ManaOutcome(mana, snow, d, reps, *res))
    out.sort(key=lambda o: (o.mana.counts, o.snow.counts, o.damage, o.restricted.counts))
    return tuple(out)


# ---------------------------------------------------------------------------
# Could produce (CR 106.7)
# ---------------------------------------------------------------------------

class _TypesCache:
    """Types of mana a permanent's production may become after replacement
    effects (every order), shared by permanents with the same effects."""

    def __init__(self, view: View):
        self.view = view
        self.effects: dict[tuple[str, str], tuple] = {}
        self.types: dict[tuple, frozenset[str]] = {}
        self.selected: dict[tuple, tuple[str, ...]] = {}

    def after(self, oid: str, tapper: str, amounts: Iterable[Mana], taps: bool) -> set[str]:
        out: set[str] = set()
        for m in amounts:
            if not m:
                continue
            if not taps:
                out.update(m.types())
                continue
            key_e = (oid, tapper)
            if key_e not in self.effects:
                effs = mana_effects(self.view, oid, tapper)
                self.effects[key_e] = (effs, frozenset(Counter((e.identity, e.rank) for e in effs).items()))
            effs, sig = self.effects[key_e]
            key = (sig, m)
            if key not in self.types:
                ev = mana_event(self.view, oid, tapper, m, max_orders=1, effects=effs)
                self.types[key] = frozenset(t for r in ev.results for t in r.types())
            out |= self.types[key]
        return out

    def select(self, sel, o, controller: str) -> tuple[str, ...]:
        """``view.select`` memoized for selectors that don't depend on the source."""
        if sel.self_only or sel.attached or sel.exclude_self:
            return tuple(self.view.select(sel, o, controller))
        key = (sel, controller)
        if key not in self.selected:
            self.selected[key] = tuple(self.view.select(sel, o, controller))
        return self.selected[key]


def producible_problem(view: View) -> producible.ProducibleProblem:
    """The rules-level description of CR 106.7 for every permanent."""
    cache = _TypesCache(view)
    objects = tuple(o.id for o in view.permanents)
    base: list[tuple[str, frozenset[str]]] = []
    rules: list[producible.Rule] = []
    for o in view.permanents:
        c = view.chars(o.id)
        ts: set[str] = set()
        for ab in c.abilities:
            if isinstance(ab, ManaAbility):
                p = ab.produce
                taps = ab.cost.tap
                if isinstance(p, (ir.CouldProduce, ir.SacrificedCouldProduce)):
                    if isinstance(p, ir.CouldProduce):
                        sources = cache.select(p.selector, o, o.controller)
                    elif ab.cost.sacrifice is not None:
                        sources = cache.select(ab.cost.sacrifice, o, o.controller)
                    else:
                        sources = (o.id,) if ab.cost.sacrifice_self else ()
                    allowed = frozenset(TYPES if p.of_type else COLORS)
                    maps = tuple((t, frozenset(cache.after(o.id, o.controller, [_unit(t)], taps)))
                                 for t in TYPES if t in allowed) if taps else ()
                    rules.append(producible.Rule(o.id, sources, allowed, maps))
                else:
                    # CR 106.7 ignores costs: a "Remove X counters" cost may remove one (or its least X)
                    x = max(1, ab.cost.remove_x_counters[1]) if ab.cost.remove_x_counters else 0
                    amounts = production_choices(view, o.id, p, {}, types_only=True, x=x)
                    ts |= cache.after(o.id, o.controller, amounts, taps)
            elif isinstance(ab, TriggeredManaAbility):
                # CR 106.7 "an ability of that permanent": a triggered mana ability with a
                # fixed production (Overgrowth) would produce it; "that land produced"
                # has no land to refer to, so no type can be defined.
                if not isinstance(ab.produce, (ir.ThatLandProduced, ir.CouldProduce, ir.SacrificedCouldProduce)):
                    for m in production_choices(view, o.id, ab.produce, {}, types_only=True):
                        ts.update(m.types())
        base.append((o.id, frozenset(ts)))
    return producible.ProducibleProblem(objects, tuple(base), tuple(rules))


def could_produce(view: View, timeout: float | None = None) -> dict[str, frozenset[str]]:
    """CR 106.7: the types of mana every permanent could produce (type letters).

    Costs are ignored (tapped, counters, life), replacement effects are taken
    in every order (union), and "could produce" chains are the least fixed
    point, decided by :mod:`models.producible`."""
    return view.memo.get("could_produce", lambda: producible.solve(producible_problem(view), timeout))


class _LazyCouldProduce(Mapping[str, frozenset[str]]):
    """:func:`could_produce` of a view, computed on the first look-up (most boards have no ability
    whose production depends on what other permanents could produce)."""

    def __init__(self, view: View) -> None:
        self._view = view
        self._cp: dict[str, frozenset[str]] | None = None

    def _all(self) -> dict[str, frozenset[str]]:
        if self._cp is None:
            self._cp = could_produce(self._view)
        return self._cp

    def __getitem__(self, key: str) -> frozenset[str]:
        return self._all()[key]

    def __iter__(self):  # type: ignore[no-untyped-def]
        return iter(self._all())

    def __len__(self) -> int:
        return len(self._all())


# ---------------------------------------------------------------------------
# Activations
# ---------------------------------------------------------------------------


def activation_cap(cost: Cost, *, members: int, sacrificed_self: bool = False, victims: int | None = None,
                   counters: int = 0, uses_left: int | None = None, tappable: int = 0,
                   life: int | None = None) -> int | None:
    """How many times one mana ability of a class of ``members`` interchangeable permanents
    can be activated at once (the ``pay`` and ``available_mana`` problems share it), or
    ``None`` when nothing in its cost limits it.

    * ``{T}`` or ``{Q}`` in the cost, or "Sacrifice this" (``sacrificed_self``): once per
      member (CR 107.5, 107.6, 701.21a);
    * "Sacrifice a <permanent>": once per permanent of the sacrificed class (``victims``);
    * "Remove N counters": ``counters // N`` times per member (CR 122.8);
    * a per-turn limit: ``uses_left`` times per member, and never more (CR 602.5b);
    * "Tap N untapped <permanents> you control": ``tappable // N`` times;
    * "Pay N life": ``life // N`` times, and never more (CR 119.4) — only when the caller
      gives ``life``: the ``pay`` model checks life payments against the life total and the
      riders' life gain together, so it passes no life bound (and refuses an ability that
      only life limits), while ``available_mana`` refuses boards where life gained could pay
      a life cost and so can cap by the life total alone.
    """
    if cost.tap or cost.untap:
        cap = members
    elif victims is not None:
        cap = victims
    elif sacrificed_self:
        cap = members
    elif cost.remove_counters:
        cap = members * (counters // cost.remove_counters[1])
    elif uses_left is not None:
        cap = members * uses_left
    elif cost.tap_other_creatures:
        cap = tappable // cost.tap_other_creatures
    elif cost.life and life is not None:
        cap = life // cost.life
    else:
        return None
    if uses_left is not None:
        cap = min(cap, members * uses_left)
    if cost.life and life is not None:
        cap = min(cap, life // cost.life)
    return cap


def tappable_by_cost(view: View, player: str, source, cost: Cost) -> list[str]:
    """The untapped permanents ``player`` controls that the cost's "Tap N untapped
    <permanents> you control" may tap (CR 118.1): creatures, or those its
    ``tap_selector`` names ("Elves you control"). Summoning sickness doesn't
    matter (CR 302.6 restricts only {T}/{Q}); the source is one of them only
    when the cost has no {T} (Heritage Druid may tap itself)."""
    sel = cost.tap_selector
    return [o.id for o in view.permanents_of(player)
            if not o.tapped and not (cost.tap and o.id == source.id)
            and (view.chars(o.id).is_creature if sel is None else view.matches(sel, o.id, source, player))]


def _untapped_other_creatures(view: View, player: str, source, cost: Cost) -> int:
    return len(tappable_by_cost(view, player, source, cost))


def pt_counter_changes(kind: str, side: int) -> bool:
    """Does a counter of ``kind`` change power (``side`` 0) or toughness (1)? "+1/+1": both;
    "-0/-1": toughness only (CR 122.1a); other kinds neither."""
    parts = kind.split("/")
    if len(parts) != 2:
        return False
    try:
        return int(parts[side]) != 0
    except ValueError:
        return True   # not a number: conservatively, it might


def _reads_counters(produce: Produce) -> tuple[str, ...]:
    """What a production amount reads that removing counters could change: ``power``, ``counters:<kind>``."""
    c = produce.count
    if c is None:
        return ()
    if c.what in ("power", "greatest_power"):
        return ("power",)
    if c.what == "counters":
        return ("counters:" + c.counter,)
    return ()


def order_dependence(view: View, player: str, acts: Sequence[Activation] | None = None) -> str | None:
    """Why the player's mana abilities can't be treated as independent
    activations, or None: an amount read from power or counters (CR 107.3)
    while another mana ability removes counters that could change it (the
    result would depend on the order of activations). ``acts``: the player's
    :func:`activations` when the caller has them already (computed otherwise)."""
    acts = activations(view, player) if acts is None else acts
    reads, removes = [], []
    live = frozenset(a.source for a in acts)
    for o in view.permanents_of(player):
        for ab in view.chars(o.id).mana_abilities:
            r = _reads_counters(ab.produce)
            if r and _may_activate(o, ab, live):
                reads.append((o, r))
            rc = ab.cost.remove_counters or ab.cost.remove_x_counters
            if rc:
                removes.append((o, rc[0]))
            if ab.cost.put_counters:  # counters put as a cost change power / counters just the same
                removes.append((o, ab.cost.put_counters[0]))
    for o, r in reads:
        for q, kind in removes:
            if ("power" in r and pt_counter_changes(kind, 0)) or (f"counters:{kind}" in r and q.id == o.id):
                return (f"{o.name}'s mana ability reads {'power' if 'power' in r else kind + ' counters'} while "
                        f"{q.name}'s mana ability removes {kind} counters (the order of activations matters)")
    return _board_dependence(view, player, acts) or _condition_dependence(view, player, acts) or \
        rider_dependence(view, player)  # riders: solver.rules.mana_riders


def _condition_dependence(view: View, player: str, live: Sequence[Activation]) -> str | None:
    """A static "as long as you control …" / "… cards in your graveyard" (CR 611.3a)
    whose effect a mana ability reads — haste on a permanent with a {T}/{Q} mana ability
    (CR 302.6), or power/toughness while an amount or activation condition reads them —
    while one of the player's mana abilities that can be activated now sacrifices, exiles,
    discards or removes or puts counters (or taps, for "as long as it's untapped"):
    activating that one first could turn the condition off, so the order of activations
    would matter."""
    changers = [a for a in live
                if a.cost.sacrifice_self or a.cost.sacrifice is not None or a.cost.discard_hand or a.cost.exile_self
                or a.cost.remove_counters or a.cost.remove_x_counters or a.cost.put_counters]
    tappers = [a for a in live if a.cost.tap or a.cost.tap_other_creatures]   # "as long as it's untapped"
    if not changers and not tappers:
        return None
    reads_pt = any(_reads_pt(ab) for o in view.permanents_of(player) for ab in view.chars(o.id).mana_abilities)
    for o in view.permanents:
        for ab in (o.card.abilities if o.card is not None else ()):
            if not (isinstance(ab, StaticPump) and ab.condition is not None):
                continue
            cond = ab.condition
            by = tappers if isinstance(cond, ir.SourceUntapped) else changers if isinstance(cond, (
                ir.ControlCount, ir.GraveyardCount, ir.GraveyardTypes, ir.Equipped, ir.CountersOnSource)) else []
            if not by:
                continue
            affected = [q.id for q in view.permanents if view.matches(ab.affected, q.id, o, o.controller)]
            haste = "haste" in ab.keywords and any(
                m.cost.tap or m.cost.untap for q in affected for m in view.chars(q).mana_abilities)
            if haste or ((ab.power or ab.toughness) and reads_pt):
                return (f"{o.name}'s static ability applies as long as {ab.condition.describe()}, which "
                        f"{view.state.obj(by[0].source).name}'s mana ability could change "
                        "(the order of activations matters)")
    return None


def _reads_pt(ab: ManaAbility) -> bool:
    """Does a mana ability read power or toughness (an amount, CR 107.3; an activation condition)?"""
    c = ab.produce.count
    if c is not None and (c.what in ("power", "greatest_power", "greatest_toughness") or c.min_power is not None):
        return True
    return bool(condition_classes(ab.condition) & {ir.ControlPower, ir.TotalPower})


def _may_activate(o, ab: ManaAbility, live: frozenset[str]) -> bool:
    """Could ``ab`` of ``o`` be activated at some point of a sequence of mana
    activations? Not when ``o`` has no activatable mana ability now and this one
    has no activation condition: what rules it out ({T} on a tapped or
    summoning-sick permanent, CR 302.6; counters it lacks; a per-turn limit)
    no mana ability changes back. A condition might become true, so an ability
    with one is kept (conservative). Only a reader that can be activated makes
    the order of activations matter."""
    return o.id in live or ab.condition is not None


def _live_sacrificers(view: View, acts: Sequence[Activation]) -> list:
    """The permanents with a mana ability that sacrifices something and can be activated now (``acts``)."""
    ids = sorted({a.source for a in acts if a.cost.sacrifice_self or a.cost.sacrifice is not None})
    return [view.state.obj(i) for i in ids]


def _board_dependence(view: View, player: str, acts: Sequence[Activation]) -> str | None:
    """Like :func:`order_dependence` for amounts read from the life total
    (another mana ability costs life, deals damage or has a rider) and from the
    graveyard, devotion, toughness or keyworded permanents (another mana
    ability sacrifices a permanent that counts, or removes +1/+1 / -1/-1
    counters): activating that one first would change the amount (CR 107.3)."""
    perms = view.permanents_of(player)
    abilities = [(o, ab) for o in perms for ab in view.chars(o.id).mana_abilities]
    sacrificers = [q for q, ab in abilities if ab.cost.sacrifice_self or ab.cost.sacrifice is not None]
    for o, ab in abilities:
        cond = ab.condition
        if cond is None:
            continue
        kinds = condition_classes(cond)
        if sacrificers and kinds & {ir.GraveyardCard, ir.TotalPower, ir.SameNameLands}:
            return (f"{o.name}'s mana ability has an activation condition ({cond.describe()}) that "
                    f"{sacrificers[0].name}'s mana ability could change (the order of activations matters)")
        # "Activate only if you control a Swamp": sacrificing that Swamp for mana first would change it
        # (only sacrifices that can happen now, and only when this ability itself can be activated)
        if kinds & {ir.ControlCount, ir.ControlPower} and condition_holds(view, cond, o, player) and \
                any(a.source == o.id for a in acts) and \
                (live := [q for q in _live_sacrificers(view, acts) if q.id != o.id]):
            return (f"{o.name}'s mana ability has an activation condition ({cond.describe()}) that "
                    f"{live[0].name}'s mana ability could change (the order of activations matters)")
    active = frozenset(a.source for a in acts)
    readers = [(o, ab.produce.count) for o, ab in abilities if ab.produce.count is not None and _may_activate(
        o, ab, active) and (
        ab.produce.count.what in ("life", "cards", "devotion", "greatest_toughness") or ab.produce.count.keyword
        or ab.produce.count.min_power is not None or ab.produce.count.same_name)]
    if not readers:
        return None

    def victims(o, ab) -> list[str]:
        out = [o.id] if ab.cost.sacrifice_self else []
        if ab.cost.sacrifice is not None:
            out += view.select(ab.cost.sacrifice, o, player)
        return out

    def counts(c: Count, reader, q: str) -> bool:
        """Would sacrificing ``q`` change ``c``?"""
        obj = view.state.obj(q)
        ch = view.chars(q)
        if c.what == "devotion":
            return obj.card is not None and any(c.color in sym.colors or (c.color == ir.DEVOTION_TO_CHOSEN and sym.colors)
                                                for sym in obj.card.data.mana_cost.symbols)
        if c.what == "cards":
            f = c.card_filter
            types = ch.types | (frozenset(obj.card.data.types) if obj.card is not None else frozenset())
            return not obj.token and (f is None or f.fits_types(types))
        return q in view.select(c.selector, reader, player)

    for o, c in readers:
        for q, ab in abilities:
            if c.what == "life":
                hit = ab.produce.count is not c and (ab.cost.life or ab.damage_to_you or ab.riders)
            else:
                rc = ab.cost.remove_counters or ab.cost.remove_x_counters
                pc = ab.cost.put_counters
                side = 1 if c.what == "greatest_toughness" else 0
                hit = (c.what == "greatest_toughness" or c.min_power is not None) and (
                    (rc is not None and pt_counter_changes(rc[0], side))
                    or (pc is not None and pt_counter_changes(pc[0], side))) or \
                    any(counts(c, o, v) for v in victims(q, ab)) or \
                    (c.what == "cards" and ab.cost.discard_hand and _discards_counted(view, c, player))
            if hit:
                return (f"{o.name}'s mana ability reads {c.describe()} while {q.name}'s mana ability "
                        "changes it (the order of activations matters)")
    return None


def timing_restricted(cond: ActivationCondition | None) -> bool:
    """Does the condition say "Activate only as an instant / as a sorcery"? Such a
    mana ability is activated only when its controller could cast an instant /
    a sorcery, i.e. while holding priority (CR 602.5d, 117.1): never while
    paying a cost during the casting of a spell or the activation of an
    ability, nor when a rule asks for a payment (CR 605.3a gives those moments
    to mana abilities without such a restriction; Lion's Eye Diamond's ruling)."""
    return isinstance(cond, (ir.InstantTime, ir.SorceryTime)) or (
        isinstance(cond, ir.AllConditions) and any(timing_restricted(p) for p in cond.parts))


def _discards_counted(view: View, c: Count, player: str) -> bool:
    """Would discarding ``player``'s hand (CR 701.9) put a card that ``c`` counts in the graveyard?"""
    f = c.card_filter
    return any(o.owner == player and o.card is not None and (f is None or f.fits_types(
        frozenset(o.card.data.types))) for o in view.state.zone("hand"))


def activations(view: View, player: str, paying: bool = False) -> list[Activation]:
    """Every activatable mana ability of the permanents ``player`` controls.
    ``paying``: during a payment (CR 601.2g, 602.2b, 605.3a) rather than with
    priority: abilities restricted to instant or sorcery timing are left out
    (:func:`timing_restricted`).

    Whether a cost can be paid *from mana* is not checked, but restrictions
    that can never be met are: {T} on a tapped permanent or on a creature that
    is summoning sick without haste (CR 302.6, 107.5; Thousand-Year Elixir
    counts), {Q} on an untapped one (107.6), removing counters it doesn't
    have, paying more life than the player has (119.4), tapping other
    creatures the player doesn't have untapped, sacrificing a permanent
    nobody matches, a per-turn limit already reached (CR 602.5b: object key
    ``activated_this_turn``), an activation condition not met (CR 602.5b,
    602.5d). A "Remove X counters" cost gives one Activation per X the
    permanent can pay (an X whose activation would add no mana is left out:
    it could never contribute). Abilities with {X} in their mana cost are not
    listed (not modeled). Order: battlefield order, ability index, X,
    sacrifice id."""
    cp = _LazyCouldProduce(view)      # only abilities that read it (CR 106.7) pay for the fixed point
    cls = class_of(view)
    life = view.state.player(player).life
    out: list[Activation] = []
    memo: dict[tuple, tuple[ManaOutcome, ...]] = {}
    for o in view.permanents_of(player):
        c = view.chars(o.id)
        for index, ab in enumerate(c.activated, start=1):
            if not isinstance(ab, ManaAbility):
                continue
            cost = ab.cost
            if cost.mana.x_count:
                continue
            if cost.tap and (o.tapped or not view.can_pay_tap_symbol(o.id)):
                continue
            if cost.untap and (not o.tapped or not view.can_pay_tap_symbol(o.id)):
                continue
            if cost.remove_counters and o.counter(cost.remove_counters[0]) < cost.remove_counters[1]:
                continue
            if cost.life and life < cost.life:
                continue
            if cost.tap_other_creatures and _untapped_other_creatures(view, player, o, cost) < cost.tap_other_creatures:
                continue
            uses_left = None
            if ab.limit is not None:
                uses_left = ab.limit - o.activated(index)
                if uses_left <= 0:
                    continue
            if ab.condition is not None and not condition_holds(view, ab.condition, o, player):
                continue
            if paying and timing_restricted(ab.condition):
                continue
            if activation_ban(view, o.id, mana=True) is not None:
                continue  # "Activated abilities of artifacts can't be activated" (CR 602.5, 605.1a)
            victims: list[str | None]
            if cost.sacrifice is not None:
                victims = [q for q in view.select(cost.sacrifice, o, player)
                           if view.state.obj(q).controller == player]
            elif cost.sacrifice_self:
                victims = [o.id]
            else:
                victims = [None]
            if cost.remove_x_counters:
                kind, least = cost.remove_x_counters
                variants = [(x, replace(cost, remove_counters=(kind, x) if x else None, remove_x_counters=None))
                            for x in range(least, o.counter(kind) + 1)]
            else:
                variants = [(0, cost)]
            for x, vcost in variants:
                fx = rider_effects(view, o, ab, player, vcost.remove_counters[1] if vcost.remove_counters else 0)
                vvictims = victims
                if fx.sacrifice and victims == [None]:
                    # "If there are no depletion counters on this land, sacrifice it": this activation
                    # removes the last one, so it is a sacrifice of the source (as {T}, Sacrifice it)
                    vvictims, vcost = [o.id], replace(vcost, sacrifice_self=True)
                for victim in vvictims:
                    key = (cls[o.id], index, x, cls.get(victim) if victim else None,
                           cp.get(victim) if victim else None)
                    outs = memo.get(key)
                    if outs is None:
                        outs = ability_outcomes(view, o.id, ab, player, cp, victim, x=x)
                        memo[key] = outs
                    if cost.remove_x_counters and not any(oc.mana for oc in outs):
                        continue
                    out.append(Activation(o.id, index, vcost, victim, cost.tap, outs, cls[o.id], x, uses_left,
                                          bool(cost.remove_x_counters), bind_restriction(ab.spend, o), fx))
    return out

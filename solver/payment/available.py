"""The available-mana problem (CR 106, 605, 616): the compile step from the rules
view to :class:`models.available.AvailableProblem`.

Rules layer: one unit per class of interchangeable permanents, one template
per mana ability of a class, with the distinct mana of its outcomes (triggered
mana abilities and replacement effects in every order already folded in by
:mod:`solver.rules.mana_sources`), and the spending restrictions on that mana
(CR 106.6). The ``available_mana`` query (:mod:`solver.queries.available_mana`)
parses the query, calls these and formats the result.
"""
from __future__ import annotations

from mtgsolve.models.available import AvailableProblem, Template, Unit, Unsupported

from ..core import ir
from ..rules.activation_rules import spend_as_any_color_reason
from ..rules.characteristics import View
from ..rules.mana_sources import Activation, activation_cap, activations, interchangeable_classes, order_dependence
from ..rules.spending import activate_purpose, allows

__all__ = ["available_problem", "restricted_in_pool", "restricted_sources"]


def available_problem(view: View, player: str) -> AvailableProblem:
    """The rules-level description of the player's mana abilities for
    :mod:`models.available`: one unit per class of interchangeable permanents,
    one template per mana ability of a class (per sacrificed class for
    "Sacrifice a land"), with the distinct mana of its outcomes."""
    acts = activations(view, player)
    classes = interchangeable_classes(view, player)
    by_source: dict[str, list[Activation]] = {}
    for a in acts:
        by_source.setdefault(a.source, []).append(a)
    units: list[Unit] = []
    unit_of: dict[str, int] = {}
    members: list[list[str]] = []
    groups, group_of = _tap_groups(view, player, acts, list(classes.values()))
    for k, ids in classes.items():
        o = view.state.obj(ids[0])
        removed = {a.cost.remove_counters[0] for a in by_source.get(ids[0], ()) if a.cost.remove_counters}
        if len(removed) > 1:
            raise Unsupported(f"{o.name}: mana abilities removing different kinds of counters")
        counters = o.counter(next(iter(removed))) if removed else 0
        in_groups = tuple(g for g, us in enumerate(groups) if len(units) in us)
        creatures = 0 if o.tapped or not in_groups else len(ids)
        for i in ids:
            unit_of[i] = len(units)
        units.append(Unit(len(ids), creatures, counters, k, in_groups))
        members.append(ids)
    life = view.state.player(player).life
    dependence = order_dependence(view, player, acts)
    if dependence is not None:
        raise Unsupported(dependence)
    any_color = spend_as_any_color_reason(view, player, [(a.source, a.cost.mana) for a in acts])
    if any_color is not None:
        raise Unsupported(any_color)   # CR 609.4b: which mana may pay a mana ability's cost
    gains = [a for a in acts if dict(a.riders.life).get(("gain", player))]
    if gains and any(a.cost.life for a in acts):
        # life gained by one mana ability could pay another's life cost (CR 119.4): order-dependent
        raise Unsupported(f"{view.chars(gains[0].source).name}'s mana ability gains life while another mana "
                          "ability costs life (the order of activations matters)")
    templates: dict[tuple, Template] = {}
    for ui, g in enumerate(members):
        for a in by_source.get(g[0], ()):
            outs = sorted({o.mana.counts for o in a.outcomes if o.mana})
            if not outs:
                continue
            cost = a.cost
            sac_self = cost.sacrifice_self and cost.sacrifice is None
            victim = unit_of[a.sacrifice] if a.sacrifice is not None else None
            uses_tap = cost.tap or cost.untap
            if a.variable and not uses_tap and units[ui].size > 1:
                # counters are pooled per unit: exact only when each activation is a different member's tap
                raise Unsupported(f"{view.chars(a.source).name}'s mana ability {a.index} removes a variable "
                                  "number of counters without {T}, on interchangeable permanents")
            if a.uses_left is not None and (victim is not None or a.variable) and not uses_tap:
                raise Unsupported(f"{view.chars(a.source).name}'s mana ability {a.index}: a per-turn limit "
                                  "shared by several ways to activate it")
            # "Tap three untapped Elves you control": the untapped permanents of its tap groups
            tappable = sum(units[u].tappable_creatures for u in groups[group_of[a.source, a.index]]) \
                if cost.tap_other_creatures else 0
            # the same caps as pay's (solver.payment.problem._cap); life too: life gained can't pay here
            found = activation_cap(cost, members=units[ui].size, sacrificed_self=sac_self,
                                   victims=units[victim].size if victim is not None else None,
                                   counters=units[ui].counters, uses_left=a.uses_left, tappable=tappable, life=life)
            if found is None:
                raise Unsupported(f"{view.chars(a.source).name}'s mana ability {a.index} can be activated "
                                          "any number of times")
            cap = found
            key = (ui, a.index, a.x, victim)
            if key in templates or cap <= 0:
                continue
            templates[key] = Template(
                unit=ui, outcomes=tuple(outs), uses_tap=uses_tap, victim=victim, life=cost.life,
                tap_others=cost.tap_other_creatures,
                counters=cost.remove_counters[1] if cost.remove_counters else 0,
                cost=cost.mana, max_uses=cap, label=f"{a.index}" + (f" X={a.x}" if a.variable else ""),
                tap_groups=_supersets(groups, group_of[a.source, a.index]) if cost.tap_other_creatures else ())
    white = any(s.controller == player for s in view.statics(ir.SpendWhiteAsAny))
    pool = view.state.pool(player)
    for mana, _r in view.state.restricted_mana(player):   # restricted mana is mana in the pool (CR 106.6)
        pool = pool + mana
    return AvailableProblem(tuple(pool.counts), life, tuple(units), tuple(templates.values()), white)


def _tap_groups(view: View, player: str, acts: list[Activation],
                classes: list[list[str]]) -> tuple[list[frozenset[int]], dict[tuple[str, int], int]]:
    """The tap groups: for each "Tap N untapped <permanents> you control" cost
    (CR 118.1; Springleaf Drum's creatures, Heritage Druid's Elves), the set of
    classes (by index) of untapped permanents it may tap, and which group each
    such ability draws on. The family must be laminar (two groups nested or
    disjoint): then per-group capacities are exact (Hall's condition reduces to
    the groups themselves); otherwise unsupported."""
    groups: list[frozenset[int]] = []
    group_of: dict[tuple[str, int], int] = {}
    for a in acts:
        if not a.cost.tap_other_creatures:
            continue
        src = view.state.obj(a.source)
        if a.cost.tap_selector is not None and (a.cost.tap_selector.exclude_self or a.cost.tap_selector.self_only):
            raise Unsupported(f"{view.chars(a.source).name}'s mana ability {a.index} taps permanents other than itself")
        # the classes of untapped permanents the cost may tap; the source's own {T} is one tap of
        # its class (the unit's {T} use counts against the group), so its class counts whole
        g = frozenset(ci for ci, ids in enumerate(classes) if _may_tap(view, player, src, view.state.obj(ids[0]), a.cost))
        if any(not (g <= h or h <= g or not g & h) for h in groups):
            raise Unsupported(f"{view.chars(a.source).name}'s mana ability {a.index} taps permanents that overlap "
                              "another such cost's only in part")
        if g not in groups:
            groups.append(g)
        group_of[a.source, a.index] = groups.index(g)
    return groups, group_of


def _may_tap(view: View, player: str, src, o, cost) -> bool:
    """May the cost's "Tap N untapped <permanents> you control" tap ``o`` (its {T} aside)?"""
    sel = cost.tap_selector
    return not o.tapped and o.controller == player and (
        view.chars(o.id).is_creature if sel is None else view.matches(sel, o.id, src, player))


def _supersets(groups: list[frozenset[int]], g: int) -> tuple[int, ...]:
    """Group ``g`` and every group containing it (the capacities its taps count against)."""
    return tuple(h for h, us in enumerate(groups) if groups[g] <= us)


def restricted_in_pool(view: View, player: str, acts: list[Activation]) -> list[tuple[str, str]]:
    """The mana in ``player``'s pool under spending restrictions (CR 106.6), counted in the bundles,
    as ``(mana, restriction text)``, for the ``restricted`` extension key. As for
    :func:`restricted_sources`, restricted mana that could not pay the mana cost of some mana
    ability makes the model inexact: reported as unsupported."""
    costed = sorted({a.source for a in acts if a.cost.mana})
    out = []
    for mana, r in view.state.restricted_mana(player):
        for src in costed:
            if not allows(r, activate_purpose(view, src)):
                raise Unsupported(f"mana in the pool can be spent only as it says ({r.describe()}, CR 106.6) and "
                                  f"{view.chars(src).name}'s mana ability has a mana cost it can't pay")
        out.append((mana.text, r.describe()))
    return out


def restricted_sources(view: View, acts: list[Activation]) -> list[tuple[tuple[str, ...], str]]:
    """Spending restrictions (CR 106.6) on the player's mana, for the ``restricted``
    extension key: ``(sorted ids of the sources, restriction text)``, sorted by text.

    Restricted mana is mana in the pool (a restriction doesn't change its type,
    CR 106.6), so bundles count it; what it changes is what the mana may pay.
    The only payments inside ``available_mana`` are mana abilities' mana costs
    (filter lands, Signets): restricted mana may pay one only if its
    restriction allows activating an ability of that source. When some
    restricted mana could not pay some such cost, the model (which lets any
    mana pay any cost it fits) would not be exact, and the query reports the
    case as unsupported instead."""
    costed = {a.source for a in acts if a.cost.mana}
    by_text: dict[str, list[str]] = {}
    for a in acts:
        if a.spend is None or not any(o.restricted for o in a.outcomes):
            continue
        for src in sorted(costed):
            if src == a.source and a.cost.tap and all(b.cost.tap for b in acts if b.source == src and b.cost.mana):
                continue  # its {T} is spent making this mana: none of its {T} abilities can follow (CR 107.5)
            if not allows(a.spend, activate_purpose(view, src)):
                raise Unsupported(f"{view.chars(a.source).name}'s mana can be spent only as it says "
                                  f"({a.spend.describe()}, CR 106.6) and {view.chars(src).name}'s mana ability has "
                                  "a mana cost it can't pay")
        ids = by_text.setdefault(a.spend.describe(), [])
        if a.source not in ids:
            ids.append(a.source)
    return [(tuple(sorted(ids)), text) for text, ids in sorted(by_text.items())]

"""The ``pay`` query (contract §2.3; CR 601.2f–h, 602.2b, 605).

``payable`` is decided by one CP-SAT solve; ``payments`` lists every distinct
resulting situation (see :mod:`models.payment`); when nothing can pay the
cost, ``reason`` is one sentence derived from an unsatisfiable core of the
cost's parts.

For other modules (the ``actions`` query):

* :func:`is_payable` — one solve;
* :func:`count_payments` — the number of distinct payments, up to a limit.

Both raise :class:`Unsupported` for payments the model can't represent
exactly (a mana ability repeatable without {T}, a sacrifice or counters; a
mana ability whose cost has both mana and life) and
:class:`~solver.errors.QueryError` for a bad cost spec. Both take a *cost spec*: a :class:`~solver.costs.TotalCost`, or a mapping
shaped like a pay query without ``kind`` (``{"cast": id}``,
``{"activate": {"object": id, "index": n}}``, ``{"cost": "{1}{G}"}``, with
optional ``x`` and ``life``).
"""
from __future__ import annotations

import time
import weakref
from typing import Any

from models import payment as pm
from models import payment_count as pcount
from models.payment import MainCost, ManaAbilityUse, Outcome, PaymentProblem, PermClass, SpendRule, Unsupported

from ..characteristics import View
from ..costs import TotalCost, query_player, sacrifice_phrase, spend_white_as_any, total_cost
from ..errors import QueryError, UnsupportedCase
from ..mana_sources import activations, interchangeable_classes, order_dependence
from ..spending import UNKNOWN, Purpose, activate_purpose, allows, cast_purpose
from ..state import GameState
from . import Options, register

# ---------------------------------------------------------------------------
# From the rules view to the model's problem
# ---------------------------------------------------------------------------


class _Base:
    """The paying player's classes and mana abilities (independent of the cost)."""

    def __init__(self, view: View, player: str):
        self.view = view
        self.player = player
        self.classes = interchangeable_classes(view, player)
        self.activations = activations(view, player)


_BASE_CACHE: "weakref.WeakKeyDictionary[View, dict[str, _Base]]" = weakref.WeakKeyDictionary()


def _base(view: View, player: str) -> _Base:
    per = _BASE_CACHE.setdefault(view, {})
    b = per.get(player)
    if b is None:
        b = per[player] = _Base(view, player)
    return b


def _outcome(o: Any, tag: int = 0, effects: tuple[int, ...] = ()) -> Outcome:
    if not tag or not o.restricted:
        if effects:
            return Outcome(tuple(o.mana.counts), tuple(o.snow.counts), o.damage, effects=effects)
        return Outcome(tuple(o.mana.counts), tuple(o.snow.counts), o.damage)
    return Outcome(tuple(o.mana.counts), tuple(o.snow.counts), o.damage, tuple(o.restricted.counts),
                   tuple(o.restricted_snow.counts), tag, effects)


def _effect_names(acts: list) -> tuple[str, ...]:
    """The riders' quantities that some activation changes (:attr:`PaymentProblem.effects`):
    ``gain:<player>``, ``lose:<player>`` (CR 119.3), ``draw`` (CR 121.1); empty for plain boards."""
    names = set()
    for a in acts:
        for (verb, pid), n in a.riders.life:
            if n:
                names.add(f"{verb}:{pid}")
        if a.riders.draw:
            names.add("draw")
    return tuple(sorted(names))


def _effect_vector(names: tuple[str, ...], fx: Any, use: str | None = None) -> tuple[int, ...]:
    """Per name of :attr:`PaymentProblem.effects`, what one activation adds: the riders'
    life and cards, and 1 for ``use`` (``use:<class>:<ability index>:<uses left per member>``,
    a per-turn-limited ability) when this activation is of that ability."""
    if not names:
        return ()
    life = {f"{verb}:{pid}": n for (verb, pid), n in fx.life}
    return tuple(fx.draw if name == "draw" else 1 if name == use else life.get(name, 0) for name in names)


def purpose_of(view: View, tc: TotalCost) -> Purpose:
    """What the total cost pays for, as a spending restriction sees it (CR 106.6):
    the spell cast, the source whose ability is activated, or unknown for a bare cost."""
    if tc.what == "cast" and tc.spell is not None:
        return cast_purpose(view, tc.spell)
    if tc.what == "activate" and tc.source is not None:
        return activate_purpose(view, tc.source)
    return UNKNOWN


def build_problem(view: View, player: str, tc: TotalCost) -> PaymentProblem:
    """The rules-level description of paying ``tc`` (CR 601.2g–h).

    Classes are the interchangeable classes of :mod:`solver.mana_sources`,
    except that the permanent whose ability is activated is its own class.
    Raises :class:`models.payment.Unsupported` for mana abilities the model
    can't count (repeatable without {T}, a sacrifice or counters).
    """
    base = _base(view, player)
    order = {o.id: i for i, o in enumerate(view.state.objects)}
    groups = sorted((sorted(ids, key=order.__getitem__) for ids in base.classes.values()),
                    key=lambda ids: order[ids[0]])
    if tc.source is not None:
        split = []
        for ids in groups:
            if tc.source in ids and len(ids) > 1:
                split.append([tc.source])
                rest = [i for i in ids if i != tc.source]
                split.append(rest)
            else:
                split.append(ids)
        groups = sorted(split, key=lambda ids: order[ids[0]])
    cls_of = {oid: c for c, ids in enumerate(groups) for oid in ids}
    classes = []
    for ids in groups:
        o = view.obj(ids[0])
        counters = o.counter(tc.remove_counters[0]) if (tc.remove_counters and ids[0] == tc.source) else 0
        classes.append(PermClass(tuple(ids), view.chars(ids[0]).name, o.tapped, view.chars(ids[0]).is_creature,
                                 counters))

    # mana abilities, grouped: (class of the source, ability, class of the sacrificed permanent)
    grouped: dict[tuple, list] = {}
    for act in base.activations:
        cost = act.cost
        sac_self = act.sacrifice is not None and (cost.sacrifice_self or act.sacrifice == act.source) \
            and cost.sacrifice is None
        victim = None if (act.sacrifice is None or sac_self) else cls_of[act.sacrifice]
        key = (cls_of[act.source], act.index, act.x, victim)
        grouped.setdefault(key, []).append(act)
    abilities = []
    tags: dict[Any, int] = {}          # spending restriction -> tag (1-based, CR 106.6)
    tag_sources: dict[Any, list[str]] = {}
    dependence = order_dependence(view, player)
    if dependence is not None:
        raise Unsupported(dependence)
    effect_names = _effect_names(base.activations)
    # a per-turn-limited mana ability without {T} (CR 602.5b): each activation is counted, so that
    # the payment says it was used ("activated") and payments that differ only in using it differ
    limited = {(cls_of[a.source], a.index): a.uses_left for a in base.activations
               if a.uses_left is not None and not a.cost.tap}
    effect_names = effect_names + tuple(f"use:{c}:{i}:{left}" for (c, i), left in sorted(limited.items()))
    for (c, index, x, victim), acts in sorted(grouped.items(), key=lambda kv: (
            kv[0][0], kv[0][1], kv[0][2], -1 if kv[0][3] is None else kv[0][3])):
        act = acts[0]
        cost = act.cost
        sac_self = victim is None and act.sacrifice is not None
        if cost.remove_counters and not cost.tap:
            # the payment key records removed counters only for members tapped by the ability
            raise Unsupported(f"{classes[c].name}'s mana ability {index} removes counters without {{T}}")
        if act.uses_left is not None and (victim is not None or act.variable) and not cost.tap:
            raise Unsupported(f"{classes[c].name}'s mana ability {index}: a per-turn limit shared by "
                              "several ways to activate it")
        if cost.tap:
            cap = len(classes[c].members)
        elif sac_self:
            cap = len(classes[c].members)
        elif victim is not None:
            cap = len(classes[victim].members)
        elif cost.remove_counters:
            per = view.obj(act.source).counter(cost.remove_counters[0]) // cost.remove_counters[1]
            cap = per * len(classes[c].members)
        elif cost.untap:
            cap = len(classes[c].members)
        elif act.uses_left is not None:
            cap = act.uses_left * len(classes[c].members)  # "Activate only once each turn" (CR 602.5b)
        else:
            raise Unsupported(f"{classes[c].name}'s mana ability {index} can be activated any number of times "
                                 "(no {T}, sacrifice or counters in its cost)")
        if cost.untap:
            raise Unsupported(f"{classes[c].name}'s mana ability {index} has {{Q}} in its cost")
        if act.uses_left is not None:
            cap = min(cap, act.uses_left * len(classes[c].members))
        label = f"{classes[c].name} ability {index}" + (f" (X={x})" if act.variable else "") + (f" (sacrificing {classes[victim].name})" if victim is not None else "")
        rc = cost.remove_counters
        tag = 0
        if act.spend is not None:
            tag = tags.setdefault(act.spend, len(tags) + 1)
            names = tag_sources.setdefault(act.spend, [])
            if classes[c].name not in names:
                names.append(classes[c].name)
        fx = act.riders
        marks = () if sac_self else fx.marks
        if marks and not cost.tap:
            raise Unsupported(f"{classes[c].name}'s mana ability {index} changes its source without {{T}} "
                              "in its cost (the payment records riders only for members it taps)")
        if cost.life and dict(fx.life).get(("gain", player)):
            raise Unsupported(f"{classes[c].name}'s mana ability {index} both costs life and gains life")
        effects = _effect_vector(effect_names, fx,
                                 f"use:{c}:{index}:{limited[c, index]}" if (c, index) in limited else None)
        abilities.append(ManaAbilityUse(
            cls=c, label=label, outcomes=tuple(_outcome(o, tag, effects) for o in act.outcomes), cap=cap,
            tap=cost.tap, sac_self=sac_self, sac_cls=victim, mana_cost=cost.mana, life=cost.life,
            counters=rc[1] if rc else 0, counter_name=rc[0] if rc else "", tap_creatures=cost.tap_other_creatures,
            marks=marks))

    pool = tuple(view.state.pool(player).counts)
    ub = sum(pool) + sum(a.cap * max((o.total for o in a.outcomes), default=0) for a in abilities)
    src = cls_of.get(tc.source) if tc.source is not None else None
    sac_classes = None
    if tc.sacrifice is not None:
        src_obj = view.obj(tc.source) if tc.source else None
        sac_classes = tuple(c for c, ids in enumerate(groups)
                            if view.matches(tc.sacrifice, ids[0], src_obj, player))
    tap_cre = tuple(c for c, pc in enumerate(classes) if pc.creature and not pc.tapped) if tc.tap_creatures else ()
    main = MainCost(
        mana=tc.mana, x=tc.x, x_upper=ub // max(tc.x_count, 1), life_allowed=tc.life_allowed, source_cls=src,
        source_name=tc.source_name, tap=tc.tap, untap=tc.untap, tap_symbol_blocked=tc.tap_symbol_blocked,
        sac_self=tc.sacrifice_self, sacrifice_classes=sac_classes,
        sacrifice_text=sacrifice_phrase(tc.sacrifice) if tc.sacrifice is not None else "",
        life=tc.life, remove_counters=tc.remove_counters[1] if tc.remove_counters else 0,
        counter_name=tc.remove_counters[0] if tc.remove_counters else "",
        tap_creatures=tc.tap_creatures, tap_creature_classes=tap_cre)
    # where restricted mana may go (CR 106.6): the total cost per its purpose; a mana ability's
    # mana cost is "activating an ability" of that ability's source
    purpose = purpose_of(view, tc)
    if purpose.kind == "cast":
        purpose = cast_purpose(view, tc.spell, player)  # the caster: "from your graveyard" (CR 106.6)
    rules = []
    for r in sorted(tags, key=tags.__getitem__):
        ok = frozenset(ai for ai, a in enumerate(abilities)
                       if a.costed and allows(r, activate_purpose(view, classes[a.cls].members[0])))
        rules.append(SpendRule(r.describe(), allows(r, purpose), ok, tuple(tag_sources[r])))
    return PaymentProblem(player, view.state.player(player).life, pool, tuple(classes), tuple(abilities), main,
                          spend_white_as_any(view, player), tuple(rules), effect_names)


def _cost_of(view: View, player: str, cost_spec: Any) -> TotalCost:
    if isinstance(cost_spec, TotalCost):
        return cost_spec
    if not isinstance(cost_spec, dict):
        raise QueryError("", "", "a cost spec is a TotalCost or a mapping like a pay query")
    q = {k: v for k, v in cost_spec.items() if k != "kind"}
    return total_cost(view, player, q)


def _no_mana_cost(tc: TotalCost) -> bool:
    """CR 118.6: a spell with no mana cost can't be cast by paying it."""
    return tc.what == "cast" and not tc.mana


# ---------------------------------------------------------------------------
# Public API for other modules
# ---------------------------------------------------------------------------


def is_payable(view: View, player: str, cost_spec: Any, timeout: float | None = None) -> bool:
    """Can ``player`` pay the total cost now? One CP-SAT solve (contract §2.3).
    Raises :class:`TimeoutError` when ``timeout`` runs out before an answer."""
    tc = _cost_of(view, player, cost_spec)
    if _no_mana_cost(tc):
        return False
    problem = build_problem(view, player, tc)
    verdict = pm.decide(problem, timeout)
    if verdict is None:  # undecided within the time limit: never report "not payable" for that
        raise TimeoutError(f"deciding whether {player} can pay took longer than {timeout} s")
    return bool(verdict)


_COUNTERS: dict[PaymentProblem, Any] = {}
_COUNTERS_MAX = 256


def payment_counter(problem: PaymentProblem) -> "pcount.PaymentCounter | None":
    """The counting DP of :mod:`models.payment_count` for ``problem`` when it applies (else
    ``None``); built once per problem and kept (a small cache: agents ask several questions of
    one situation, and identical costs share it)."""
    if problem in _COUNTERS:
        return _COUNTERS[problem]
    c = pcount.counter_for(problem)
    if len(_COUNTERS) >= _COUNTERS_MAX:
        _COUNTERS.pop(next(iter(_COUNTERS)))
    _COUNTERS[problem] = c
    return c


def count_payments(view: View, player: str, cost_spec: Any, limit: int | None = None,
                   timeout: float | None = None) -> int:
    """The number of distinct payments (at most ``limit`` when given). Exact and without
    enumeration where :mod:`models.payment_count` applies; by enumeration otherwise."""
    tc = _cost_of(view, player, cost_spec)
    if _no_mana_cost(tc):
        return 0
    problem = build_problem(view, player, tc)
    counter = payment_counter(problem)
    if counter is not None:
        n = counter.count()
        return n if limit is None else min(n, limit)
    deadline = None if timeout is None else time.monotonic() + timeout
    return len(pm.PaymentModel(problem).enumerate(limit, deadline).keys)


def payments(view: View, player: str, cost_spec: Any, limit: int | None = None) -> list[dict]:
    """The distinct payments as contract objects, sorted."""
    tc = _cost_of(view, player, cost_spec)
    if _no_mana_cost(tc):
        return []
    problem = build_problem(view, player, tc)
    counter = payment_counter(problem)
    if counter is not None:
        keys = list(counter.keys(limit))
    else:
        keys = pm.PaymentModel(problem).enumerate(limit).keys
    return sorted((pm.decode(problem, k) for k in keys), key=pm.payment_sort_key)


# ---------------------------------------------------------------------------
# The query
# ---------------------------------------------------------------------------


@register("pay")
def pay_query(state: GameState, query: dict, options: Options) -> dict:
    """Contract §2.3."""
    return pay_view(View(state), query, options)


def pay_view(view: View, query: dict, options: Options = Options()) -> dict:
    """The ``pay`` query on an existing rules view (shares its caches)."""
    start = time.monotonic()
    player = query_player(view, query)
    try:
        tc = total_cost(view, player, query)
    except UnsupportedCase as e:   # an activated ability the project does not model
        return {"status": "error", "error": f"unsupported: {e}"}
    if _no_mana_cost(tc):
        return {"status": "ok", "payable": False, "count": 0, "payments": [],
                "reason": f"{tc.subject} has no mana cost, so it can't be cast by paying one (CR 118.6)"}
    try:
        problem = build_problem(view, player, tc)
    except Unsupported as e:
        return {"status": "error", "error": f"unsupported: {e}"}
    deadline = None if options.timeout is None else start + options.timeout
    counter = payment_counter(problem)
    if counter is not None:
        return _pay_by_counting(problem, tc, counter, options, deadline)
    try:
        model = pm.PaymentModel(problem)
        res = model.enumerate(options.max_results, deadline)
    except Unsupported as e:
        return {"status": "error", "error": f"unsupported: {e}"}
    pays = sorted((pm.decode(problem, k) for k in res.keys), key=pm.payment_sort_key)
    out: dict[str, Any] = {"status": "ok"}
    if res.timed_out:
        out["status"] = "timeout"
    elif not res.complete:
        out["status"] = "truncated"
    if not pays and res.timed_out:
        out.update({"payable": None, "count": None, "payments": []})
        return out
    out["payable"] = bool(pays)
    out["count"] = len(pays) if res.complete else None
    out["payments"] = pays
    if tc.x is None:
        out["x_values"] = sorted({p["x"] for p in pays})
        left = None if deadline is None else max(deadline - time.monotonic(), 0.001)
        out["x_max"] = pm.PaymentModel(problem, keys=False).max_x(left) if pays else None
    if not pays:
        left = None if deadline is None else max(deadline - time.monotonic(), 0.001)
        out["reason"] = pm.explain(problem, left)
    return out


def _pay_by_counting(problem: PaymentProblem, tc: TotalCost, counter: "pcount.PaymentCounter",
                     options: Options, deadline: float | None) -> dict:
    """The ``pay`` answer from the counting DP (:mod:`models.payment_count`): the count is
    exact even when the listing is cut at ``max_results``."""
    n = counter.count()
    limit = options.max_results
    pays = sorted((pm.decode(problem, k) for k in counter.keys(limit)), key=pm.payment_sort_key)
    out: dict[str, Any] = {"status": "ok" if limit is None or n <= limit else "truncated",
                           "payable": n > 0, "count": n, "payments": pays}
    if tc.x is None:
        out["x_values"] = sorted({p["x"] for p in pays})
        xs = counter.x_values()
        out["x_max"] = xs[-1] if xs else None
    if not n:
        left = None if deadline is None else max(deadline - time.monotonic(), 0.001)
        out["reason"] = pm.explain(problem, left)
    return out

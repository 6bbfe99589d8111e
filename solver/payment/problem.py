"""The payment problem of a total cost (CR 601.2f–h, 602.2b, 605): the compile
step from the rules view to :class:`models.payment.PaymentProblem`.

Rules layer: reads the rules view (:mod:`solver.rules.characteristics`), the
player's mana abilities and interchangeable classes (:mod:`solver.rules.mana_sources`)
and the total cost (:mod:`solver.rules.costs`), and builds the plain data the
payment model takes. Nothing here parses a query or formats a result: the
``pay`` query (:mod:`solver.queries.pay`) and the ``actions`` engine
(:mod:`solver.engine.actions`) both call it.
"""
from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

from mtgsolve.models import payment as pm
from mtgsolve.models.payment import (MainCost, ManaAbilityUse, Outcome, PaymentProblem, PermClass, SpendRule, Unsupported,
                                     LifeEffect, UseEffect)

from ..rules.activation_rules import spend_as_any_color_reason
from ..rules.characteristics import View
from ..rules.costs import TotalCost, sacrifice_phrase, spend_white_as_any
from ..rules.mana_sources import (activation_cap, activations, card_classes, interchangeable_classes, order_dependence,
                           tappable_by_cost)
from ..rules.spending import UNKNOWN, Purpose, activate_purpose, allows, cast_purpose
from mtgsolve.models.payment import Outcome

__all__ = ["build_problem", "is_payable", "purpose_of"]



class _Base:
    """The paying player's classes and mana abilities (independent of the cost)."""

    def __init__(self, view: View, player: str):
        self.view = view
        self.player = player
        self.classes = interchangeable_classes(view, player)
        self.activations = activations(view, player, paying=True)  # during a payment (CR 605.3a)


def _base(view: View, player: str) -> _Base:
    return view.memo.get(("payment_base", player), lambda: _Base(view, player))


def _outcome(o: Any, tag: int = 0, effects: tuple[int, ...] = ()) -> Outcome:
    if not tag or not o.restricted:
        if effects:
            return Outcome(tuple(o.mana.counts), tuple(o.snow.counts), o.damage, effects=effects)
        return Outcome(tuple(o.mana.counts), tuple(o.snow.counts), o.damage)
    return Outcome(tuple(o.mana.counts), tuple(o.snow.counts), o.damage, tuple(o.restricted.counts),
                   tuple(o.restricted_snow.counts), tag, effects)


def _effect_names(acts: list) -> tuple[str | LifeEffect, ...]:
    """The riders' quantities that some activation changes (:attr:`PaymentProblem.effects`):
    the life each player gains or loses (:class:`LifeEffect`, CR 119.3), ``draw`` (CR 121.1),
    in the order of their texts; empty for plain boards."""
    names: set[str | LifeEffect] = set()
    for a in acts:
        for (verb, pid), n in a.riders.life:
            if n:
                names.add(LifeEffect(verb, pid))
        if a.riders.draw:
            names.add("draw")
    return tuple(sorted(names, key=str))


def _effect_vector(names: tuple[str | LifeEffect | UseEffect, ...], fx: Any, use: UseEffect | None = None) -> tuple[int, ...]:
    """Per name of :attr:`PaymentProblem.effects`, what one activation adds: the riders'
    life and cards, and 1 for ``use`` (a per-turn-limited ability, :class:`UseEffect`) when
    this activation is of that ability."""
    if not names:
        return ()
    life: dict[str | LifeEffect | UseEffect, int] = {LifeEffect(verb, pid): n for (verb, pid), n in fx.life}
    return tuple(fx.draw if name == "draw" else 1 if name == use else life.get(name, 0) for name in names)


def _use_name(c: int, index: int, left: int, put: tuple[str, int] | None) -> UseEffect:
    """The effect name counting uses of a per-turn-limited ability without {T}
    (:attr:`PaymentProblem.effects`, a typed :class:`~models.payment.UseEffect`)."""
    return UseEffect(c, index, left, put)


def _check_cost_parts(view: View, act: Any, name: str) -> None:
    """Cost parts the payment can't record: discarding the hand (the payment has no
    key for it) and counters put while a counter replacement effect could apply
    to them (CR 614.1a, 616; the payment would show the unreplaced counters)."""
    cost = act.cost
    if cost.discard_hand:
        raise Unsupported(f"{name}'s mana ability {act.index} discards the hand as a cost (not part of a payment)")
    if cost.put_counters and any((not r.ability.counter or r.ability.counter == cost.put_counters[0])
                                 and view.matches(r.ability.affected, act.source, view.state.find(r.source),
                                                  r.controller) for r in view.counter_replacements):
        raise Unsupported(f"{name}'s mana ability {act.index} puts counters on it while a counter replacement "
                          "effect is in force")


def _check_use_naming(limited: dict, classes: list[PermClass], abilities: list[ManaAbilityUse],
                      main: MainCost) -> None:
    """A per-turn-limited ability without {T} is counted per class (``use:`` effects), its uses
    named on the first members. When another part of the payment may also tap or sacrifice
    members of that class, "the same member" and "another member" are different situations the
    count can't tell apart: unsupported rather than merged."""
    touched: set[int] = set(main.tap_creature_classes) | set(main.sacrifice_classes or ())
    touched |= {c for c, _ in getattr(main, "convoke_classes", ())} | set(getattr(main, "improvise_classes", ()))
    if main.source_cls is not None:
        touched.add(main.source_cls)
    for a in abilities:
        if a.tap or a.sac_self:
            touched.add(a.cls)
        if a.sac_cls is not None:
            touched.add(a.sac_cls)
        if a.tap_creatures:
            touched |= set(a.tap_classes) if a.tap_classes is not None else \
                {c for c, pc in enumerate(classes) if pc.creature and not pc.tapped}
    for c, _ in limited:
        if len(classes[c].members) > 1 and c in touched:
            raise Unsupported(f"{classes[c].name}: a per-turn-limited mana ability of interchangeable permanents "
                              "that the payment may also tap or sacrifice")


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

    Classes are the interchangeable classes of :mod:`solver.rules.mana_sources`,
    except that the permanent whose ability is activated is its own class.
    Raises :class:`models.payment.Unsupported` for mana abilities the model
    can't count (repeatable without {T}, a sacrifice or counters).

    In passes: the classes (:func:`_classes`), the mana abilities' uses
    (:func:`_ability_uses`), the main cost (:func:`_main_cost`) and the spending
    rules of restricted mana (:func:`_spend_rules`).
    """
    if getattr(tc, "extra", None) is not None:
        # a casting mode's costs outside the model (exile, discard, return …): only
        # solver.rules.casting_options pays them; never silently drop them
        raise Unsupported("the casting mode's other costs are paid by solver.rules.casting_options")
    base = _base(view, player)
    any_color = spend_as_any_color_reason(view, player, [(a.source, a.cost.mana) for a in base.activations] + (
        [(tc.source, tc.mana)] if tc.what == "activate" and tc.source is not None else []))
    if any_color is not None:
        raise Unsupported(any_color)   # CR 609.4b for abilities of some permanents
    groups, cls_of, classes = _classes(view, base, tc)
    uses = _ability_uses(view, player, base, groups, cls_of, classes)
    restricted_pool = _restricted_pool(view, player, uses)
    pool = tuple(view.state.pool(player).counts)
    in_pool = tuple(a + sum(r[1][t] for r in restricted_pool) for t, a in enumerate(pool))   # all of the pool
    main = _main_cost(view, player, tc, groups, cls_of, classes, uses.abilities, in_pool)
    main = _helpers_as_abilities(main, classes, uses.abilities, spend_white_as_any(view, player))
    rules = _spend_rules(view, player, tc, uses, classes)
    _check_use_naming(uses.limited, classes, uses.abilities, main)
    return PaymentProblem(player, view.state.player(player).life, pool, tuple(classes), tuple(uses.abilities), main,
                          spend_white_as_any(view, player), tuple(rules), uses.effect_names, restricted_pool)


def _restricted_pool(view: View, player: str, uses: "_Uses") -> tuple[tuple[int, tuple[int, ...]], ...]:
    """The mana in ``player``'s pool under spending restrictions (CR 106.6), each under the tag of its
    restriction — the one a mana ability making mana with that restriction has, so that mana made now
    and mana already in the pool follow one rule (:func:`_spend_rules`)."""
    out = []
    for mana, r in view.state.restricted_mana(player):
        tag = uses.tags.setdefault(r, len(uses.tags) + 1)
        names = uses.tag_sources.setdefault(r, [])
        if "mana in the pool" not in names:
            names.append("mana in the pool")
        out.append((tag, tuple(mana.counts)))
    return tuple(out)


def _classes(view: View, base: _Base, tc: TotalCost) -> tuple[list[list[str]], dict[str, int], list[PermClass]]:
    """The paying player's permanents in interchangeable classes, in the order of the
    situation's objects, the source of an activated ability in a class of its own:
    (member ids per class, class of each id, the classes)."""
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
    return groups, cls_of, classes


@dataclass
class _Uses:
    """The mana abilities' uses and what they need named (:func:`_ability_uses`)."""

    abilities: list[ManaAbilityUse]
    tags: dict[Any, int]               # spending restriction -> tag (1-based, CR 106.6)
    tag_sources: dict[Any, list[str]]  # spending restriction -> names of the classes whose mana has it
    effect_names: tuple[str | LifeEffect | UseEffect, ...]
    limited: dict[tuple[int, int], int]


def _ability_uses(view: View, player: str, base: _Base, groups: list[list[str]], cls_of: dict[str, int],
                  classes: list[PermClass]) -> _Uses:
    """The player's mana abilities as :class:`ManaAbilityUse` values, grouped by (class of
    the source, ability, X, class of the sacrificed permanent), with how often each can be
    activated (``cap``) and the riders it has."""
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
    effect_names: tuple[str | LifeEffect | UseEffect, ...] = _effect_names(base.activations)
    # a per-turn-limited mana ability without {T} (CR 602.5b): each activation is counted, so that
    # the payment says it was used ("activated") and payments that differ only in using it differ
    limited = {(cls_of[a.source], a.index): a.uses_left for a in base.activations
               if a.uses_left is not None and not a.cost.tap}
    puts = {(cls_of[a.source], a.index): a.cost.put_counters for a in base.activations}
    effect_names = effect_names + tuple(_use_name(c, i, left, puts[c, i]) for (c, i), left in sorted(limited.items()))
    for (c, index, x, victim), acts in sorted(grouped.items(), key=lambda kv: (
            kv[0][0], kv[0][1], kv[0][2], -1 if kv[0][3] is None else kv[0][3])):
        act = acts[0]
        cost = act.cost
        sac_self = victim is None and act.sacrifice is not None
        cap = _cap(view, player, act, c, index, victim, classes)
        if cost.untap:
            raise Unsupported(f"{classes[c].name}'s mana ability {index} has {{Q}} in its cost")
        label = f"{classes[c].name} ability {index}" + (f" (X={x})" if act.variable else "") + (f" (sacrificing {classes[victim].name})" if victim is not None else "")
        rc = cost.remove_counters
        tag = 0
        if act.spend is not None:
            tag = tags.setdefault(act.spend, len(tags) + 1)
            names = tag_sources.setdefault(act.spend, [])
            if classes[c].name not in names:
                names.append(classes[c].name)
        fx = act.riders
        _check_cost_parts(view, act, classes[c].name)
        marks = () if sac_self else fx.marks
        if cost.put_counters and cost.tap and not sac_self:
            marks = marks + (("add", cost.put_counters[0], cost.put_counters[1]),)  # CR 118.1: on the tapped member
        if marks and not cost.tap:
            raise Unsupported(f"{classes[c].name}'s mana ability {index} changes its source without {{T}} "
                              "in its cost (the payment records riders only for members it taps)")
        if cost.life and dict(fx.life).get(("gain", player)):
            raise Unsupported(f"{classes[c].name}'s mana ability {index} both costs life and gains life")
        effects = _effect_vector(effect_names, fx, _use_name(c, index, limited[c, index], cost.put_counters)
                                 if (c, index) in limited else None)
        tap_classes = None
        if cost.tap_other_creatures and cost.tap_selector is not None:
            src_obj = view.obj(act.source)
            tap_classes = tuple(k for k, ids in enumerate(groups) if not classes[k].tapped
                                and view.matches(cost.tap_selector, ids[0], src_obj, player))
        abilities.append(ManaAbilityUse(
            cls=c, label=label, outcomes=tuple(_outcome(o, tag, effects) for o in act.outcomes), cap=cap,
            tap=cost.tap, sac_self=sac_self, sac_cls=victim, mana_cost=cost.mana, life=cost.life,
            counters=rc[1] if rc else 0, counter_name=rc[0] if rc else "", tap_creatures=cost.tap_other_creatures,
            marks=marks, tap_classes=tap_classes))
    return _Uses(abilities, tags, tag_sources, effect_names, limited)


def _cap(view: View, player: str, act: Any, c: int, index: int, victim: int | None,
         classes: list[PermClass]) -> int:
    """How many times the mana ability ``act`` (ability ``index`` of class ``c``) can be
    activated in one payment (:func:`solver.rules.mana_sources.activation_cap`, shared with
    ``available_mana``; no life bound: the model checks life itself); :class:`Unsupported`
    when the model can't count it."""
    cost = act.cost
    sac_self = victim is None and act.sacrifice is not None
    if cost.remove_counters and not cost.tap:
        # the payment key records removed counters only for members tapped by the ability
        raise Unsupported(f"{classes[c].name}'s mana ability {index} removes counters without {{T}}")
    if act.uses_left is not None and (victim is not None or act.variable) and not cost.tap:
        raise Unsupported(f"{classes[c].name}'s mana ability {index}: a per-turn limit shared by "
                          "several ways to activate it")
    members = len(classes[c].members)
    counters = view.obj(act.source).counter(cost.remove_counters[0]) if cost.remove_counters else 0
    # "Tap three untapped Elves you control" (no {T}): as often as there are permanents to tap
    tappable = len(tappable_by_cost(view, player, view.obj(act.source), cost)) if cost.tap_other_creatures else 0
    cap = activation_cap(cost, members=members, sacrificed_self=sac_self,
                         victims=len(classes[victim].members) if victim is not None else None,
                         counters=counters, uses_left=act.uses_left, tappable=tappable)
    if cap is None:
        raise Unsupported(f"{classes[c].name}'s mana ability {index} can be activated any number of times "
                             "(no {T}, sacrifice or counters in its cost)")
    return cap


def _tap_classes(view: View, player: str, tc: TotalCost, groups: list[list[str]],
                 classes: list[PermClass]) -> tuple[int, ...]:
    """The untapped classes whose members the cost's "Tap N untapped <permanents> you control" may
    tap (CR 118.1; creatures when the cost names no other kind; tapping for a cost other than {T}
    ignores summoning sickness, CR 302.6). A source tapped by its own {T} is a member tapped once."""
    if not tc.tap_creatures:
        return ()
    if tc.tap_selector is None:
        return tuple(c for c, pc in enumerate(classes) if pc.creature and not pc.tapped)
    src = view.obj(tc.source) if tc.source is not None else None
    return tuple(c for c, ids in enumerate(groups) if not classes[c].tapped
                 and view.matches(tc.tap_selector, ids[0], src, player))


def _main_cost(view: View, player: str, tc: TotalCost, groups: list[list[str]], cls_of: dict[str, int],
               classes: list[PermClass], abilities: list[ManaAbilityUse], pool: tuple[int, ...]) -> MainCost:
    """The total cost itself as the model takes it: mana, X and its upper bound, the
    source's {T}/{Q}, sacrifices, life, counters, creatures to tap, delve / convoke /
    improvise helpers."""
    ub = sum(pool) + sum(a.cap * max((o.total for o in a.outcomes), default=0) for a in abilities)
    src = cls_of.get(tc.source) if tc.source is not None else None
    sac_classes = None
    if tc.sacrifice is not None:
        source_obj = view.obj(tc.source) if tc.source else None
        sac_classes = tuple(c for c, ids in enumerate(groups)
                            if view.matches(tc.sacrifice, ids[0], source_obj, player))
    tap_cre = _tap_classes(view, player, tc, groups, classes)
    helps = _helps(view, player, tc, classes) if tc.helps else {}
    ub += sum(len(ids) for ids in helps.get("delve_classes", ())) + sum(  # what X may reach
        len(classes[c].members) for c, _ in helps.get("convoke_classes", ())) + sum(
        len(classes[c].members) for c in helps.get("improvise_classes", ()))
    if "delve_classes" in helps:
        _delve_sacrifice_check(view, player, tc, sac_classes, classes, abilities)
    main = MainCost(
        mana=tc.mana, x=tc.x, x_upper=ub // max(tc.x_count, 1), life_allowed=tc.life_allowed, source_cls=src,
        source_name=tc.source_name, tap=tc.tap, untap=tc.untap, tap_symbol_blocked=tc.tap_symbol_blocked,
        sac_self=tc.sacrifice_self, sacrifice_classes=sac_classes,
        sacrifice_text=sacrifice_phrase(tc.sacrifice) if tc.sacrifice is not None else "",
        life=tc.life, remove_counters=tc.remove_counters[1] if tc.remove_counters else 0,
        counter_name=tc.remove_counters[0] if tc.remove_counters else "",
        tap_creatures=tc.tap_creatures, tap_creature_classes=tap_cre, **helps)
    return main


def _delve_sacrifice_check(view: View, player: str, tc: TotalCost, sac_classes: tuple[int, ...] | None,
                           classes: list[PermClass], abilities: list[ManaAbilityUse]) -> None:
    """Refuse delve (CR 702.66a) only where a permanent the payment may sacrifice — by the total cost's
    sacrifice or a mana ability's (601.2g: mana abilities are activated before the total cost is paid,
    601.2h: its parts in any order) — could then be exiled from the player's graveyard: a card (a token
    can't move from the graveyard, CR 111.7, and is no card, 702.66a) the player owns (it goes to its
    owner's graveyard, 400.3). Sacrificed tokens and permanents of other owners never add to what
    delve exiles, so the payments are the model's."""
    touched: set[int] = set(sac_classes or ())
    touched.update(a.cls for a in abilities if a.sac_self)
    touched.update(a.sac_cls for a in abilities if a.sac_cls is not None)
    if tc.sacrifice_self and tc.source is not None:
        touched.update(c for c, pc in enumerate(classes) if tc.source in pc.members)
    delve_sacrifice_check(view, player, touched, classes)


def delve_sacrifice_check(view: View, player: str, touched: set[int] | tuple[int, ...],
                          classes: list[PermClass]) -> None:
    """Raise :class:`Unsupported` when a member of a class in ``touched`` (permanents a payment with
    delve may sacrifice) is a card ``player`` owns (CR 111.7, 400.3, 601.2g–h, 702.66a)."""
    for c in sorted(touched):
        for oid in classes[c].members:
            o = view.obj(oid)
            if not o.token and o.owner == player:
                raise Unsupported(f"delve while the payment may sacrifice {classes[c].name} (a card of "
                                  f"{player}'s: it could be in the graveyard and exiled too, CR 601.2g–h) "
                                  "is not modeled")


def _spend_rules(view: View, player: str, tc: TotalCost, uses: _Uses, classes: list[PermClass]) -> list[SpendRule]:
    """One rule per spending restriction on the player's mana (CR 106.6): whether the
    total cost may take it, and which costed mana abilities may."""
    # where restricted mana may go (CR 106.6): the total cost per its purpose; a mana ability's
    # mana cost is "activating an ability" of that ability's source
    purpose = purpose_of(view, tc)
    if purpose.kind == "cast" and tc.spell is not None:
        purpose = cast_purpose(view, tc.spell, player)  # the caster: "from your graveyard" (CR 106.6)
    rules = []
    for r in sorted(uses.tags, key=uses.tags.__getitem__):
        ok = frozenset(ai for ai, a in enumerate(uses.abilities)
                       if a.costed and allows(r, activate_purpose(view, classes[a.cls].members[0])))
        rules.append(SpendRule(r.describe(), allows(r, purpose), ok, tuple(uses.tag_sources[r])))
    return rules


def _helpers_as_abilities(main: MainCost, classes: list[PermClass], abilities: list[ManaAbilityUse],
                          celestial: bool) -> MainCost:
    """Convoke and improvise (CR 702.51a, 702.126a) as {T} "abilities" of the helpers' classes
    adding one mana of one of the creature's colors ({C} for a colorless creature or an
    artifact), appended to ``abilities``, when that is the same payment: nothing but the total
    cost can spend the mana (no mana ability with a mana cost), {C} symbols are not in the cost
    (a colorless helper pays generic mana only), no spending rule for colors applies (Celestial
    Dawn), and one mana is never left in the pool (every activation contributes, contract
    §2.3). No triggered mana or replacement applies to these (tapping to convoke is not tapping
    for mana). Then the counting DP of :mod:`models.payment_count` counts them too; otherwise
    they stay the model's own choices (``MainCost.convoke_classes``)."""
    if not (main.convoke_classes or main.improvise_classes) or celestial or any(a.costed for a in abilities) \
            or any(s.kind == "colorless" for s in main.mana.symbols):
        return main

    letters: dict[int, set[str]] = {}
    for c, colors in main.convoke_classes:
        letters.setdefault(c, set()).update(colors or "C")
    for c in main.improvise_classes:
        letters.setdefault(c, set()).add("C")
    for c in sorted(letters):
        outs = tuple(Outcome(tuple(int(t == x) for x in "WUBRGC")) for t in "WUBRGC" if t in letters[c])
        abilities.append(ManaAbilityUse(cls=c, label=f"{classes[c].name} (convoke/improvise)", outcomes=outs,
                                        cap=len(classes[c].members), tap=True))
    return replace(main, convoke_classes=(), improvise_classes=())


def _graveyard_classes(view: View, player: str, exclude: str) -> tuple[tuple[str, ...], ...]:
    """The player's graveyard cards other than ``exclude`` in interchangeable classes
    (:func:`solver.rules.mana_sources.card_classes`: same card, owner and status; ids in zone order),
    the classes in order of their first member."""
    return tuple(tuple(ids) for ids in card_classes(view, player, "graveyard", exclude))


def _helps(view: View, player: str, tc: TotalCost, classes: list[PermClass]) -> dict[str, Any]:
    """The :class:`MainCost` fields of the spell's other ways to pay (``tc.helps``):

    * delve (CR 702.66a) — the cards in the player's graveyard other than the spell
      (it is on the stack, CR 601.2a), in interchangeable classes (same card and
      status), each card paying {1};
    * convoke (CR 702.51a) — the untapped creature classes and the colors of their
      creatures now (CR 105.2; summoning sickness does not matter: no {T} ability),
      each paying {1} or one mana of one of its colors;
    * improvise (CR 702.126a) — the untapped artifact classes, each paying {1}.
    """
    out: dict[str, Any] = {}
    if "delve" in tc.helps:
        out["delve_classes"] = _graveyard_classes(view, player, tc.spell or "")
    conv, impr = [], []
    for c, pc in enumerate(classes):
        if pc.tapped:
            continue
        chars = [view.chars(oid) for oid in pc.members]
        if "convoke" in tc.helps and chars[0].is_creature:
            colors = frozenset(chars[0].colors)
            if any(ch.colors != colors or not ch.is_creature for ch in chars):
                raise Unsupported(f"{pc.name}: interchangeable creatures of different colors for convoke")
            conv.append((c, "".join(t for t in "WUBRG" if t in colors)))
        if "improvise" in tc.helps and "Artifact" in chars[0].types:
            if any("Artifact" not in ch.types for ch in chars):
                raise Unsupported(f"{pc.name}: interchangeable permanents of different types for improvise")
            impr.append(c)
    if "convoke" in tc.helps:
        out["convoke_classes"] = tuple(conv)
    if "improvise" in tc.helps:
        out["improvise_classes"] = tuple(impr)
    return out


def _no_mana_cost(tc: TotalCost) -> bool:
    """CR 118.6: a spell with no mana cost can't be cast by paying it."""
    return tc.what == "cast" and not tc.mana


def is_payable(view: View, player: str, tc: TotalCost, timeout: float | None = None) -> bool:
    """Can ``player`` pay the total cost now? One CP-SAT solve (contract §2.3).
    Raises :class:`TimeoutError` when ``timeout`` runs out before an answer."""
    if _no_mana_cost(tc):
        return False
    problem = build_problem(view, player, tc)
    verdict = pm.decide(problem, timeout)
    if verdict is None:  # undecided within the time limit: never report "not payable" for that
        raise TimeoutError(f"deciding whether {player} can pay took longer than {timeout} s")
    return bool(verdict)

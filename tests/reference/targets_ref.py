"""Brute-force reference for the ``targets`` query (contract §2.4).

Written independently of ``solver/rules/targeting.py`` and ``models/targets.py``,
as plainly as possible: find the target slots in the card's IR, test every
object and player of the game against each slot's criteria, try every
combination of targets, and keep the ones that obey the most Flagbearer
requirements (CR 601.2c). Only characteristics come from the shared
:class:`solver.rules.characteristics.View`.

The interpretations are the ones documented in ``solver/rules/targeting.py``:
a Flagbearer player satisfies every Flagbearer requirement; with
``counts_first`` the maximum is taken per announced number of targets.
"""
from __future__ import annotations

import itertools

from mtgsolve.solver.core import ir
from mtgsolve.solver.rules.characteristics import View
from mtgsolve.solver.core.state import GameState


def _slots_of_card(card) -> list[ir.TargetSpec]:
    if card.spell is not None and len(card.spell.targets) > 0:
        return list(card.spell.targets)
    if "Aura" in card.data.subtypes:
        for a in card.abilities:
            if isinstance(a, ir.Enchant):
                return [ir.TargetSpec(a.filter, 1, 1)]
    return []


def _slots_of_ability(a) -> list[ir.TargetSpec]:
    if isinstance(a, ir.ActivatedAbility) or isinstance(a, ir.TriggeredAbility):
        return list(a.targets)
    return []


def _describe_source(state: GameState, view: View, query: dict):
    """(slots, controller, colors, own stack id, kind, default how)."""
    if "cast" in query:
        o = state.obj(query["cast"])
        # cast for its overload cost: "target" reads "each", no target at all (CR 702.96b)
        over = str(query.get("alternative") or "").lower() == "overload" and any(
            isinstance(a, ir.CastingOption) and a.kind == "alternative" and a.name.lower() == "overload"
            for a in o.card.abilities)
        return [] if over else _slots_of_card(o.card), o.owner, view.chars(o.id).colors, o.id, "spell", "cast"
    if "activate" in query:
        oid = query["activate"]["object"]
        n = query["activate"]["index"]
        acts = [a for a in view.chars(oid).abilities if isinstance(a, (ir.ManaAbility, ir.ActivatedAbility))
                or (isinstance(a, ir.Unsupported) and a.kind == "activated")]
        return (_slots_of_ability(acts[n - 1]), state.obj(oid).controller, view.chars(oid).colors, None,
                "activated", "activate")
    if "trigger" in query:
        oid = query["trigger"]["object"]
        n = query["trigger"]["index"]
        trig = [a for a in view.chars(oid).abilities if isinstance(a, (ir.TriggeredAbility, ir.TriggeredManaAbility))
                or (isinstance(a, ir.Unsupported) and a.kind == "triggered")]
        return (_slots_of_ability(trig[n - 1]), state.obj(oid).controller, view.chars(oid).colors, None,
                "triggered", "trigger")
    o = state.obj(query["spell"])
    if o.card is not None:
        return (_slots_of_card(o.card), o.controller, view.chars(o.id).colors, o.id, "spell",
                "copy" if o.copy else "cast")
    src = o.ability.source
    lki = dict(o.last_known)
    if "card" in lki:
        card = lki["card"]
        colors = card.data.mana_cost.colors
    else:
        card = state.obj(src).card
        colors = view.chars(src).colors
    abilities = [a for a in card.abilities
                 if isinstance(a, (ir.ManaAbility, ir.ActivatedAbility, ir.TriggeredAbility, ir.TriggeredManaAbility))
                 or (isinstance(a, ir.Unsupported) and a.kind in ("activated", "triggered"))]
    a = abilities[o.ability.index - 1]
    activated = isinstance(a, (ir.ManaAbility, ir.ActivatedAbility))
    how = "copy" if o.copy else ("activate" if activated else "trigger")
    return _slots_of_ability(a), o.controller, colors, o.id, "activated" if activated else "triggered", how


def _source_types(state: GameState, view: View, query: dict) -> tuple[frozenset, frozenset, bool]:
    """(card types, subtypes, is a spell) of the spell, or of the ability's source (CR 702.16b)."""
    if "cast" in query:
        c = view.chars(query["cast"])
        return c.types, c.subtypes, True
    if "activate" in query or "trigger" in query:
        c = view.chars((query.get("activate") or query.get("trigger"))["object"])
        return c.types, c.subtypes, False
    o = state.obj(query["spell"])
    if o.card is not None:
        c = view.chars(o.id)
        return c.types, c.subtypes, True
    lki = dict(o.last_known)
    if "card" in lki:
        return frozenset(lki["card"].data.types), frozenset(lki["card"].data.subtypes), False
    c = view.chars(o.ability.source)
    return c.types, c.subtypes, False


def _has(quality: str, colors, types, subtypes, spell: bool) -> bool:
    """A quality of protection / hexproof from, read plainly (CR 702.16a, 105.2)."""
    if quality == "everything":
        return True
    if quality == "multicolored":
        return len(colors) > 1
    if quality == "monocolored":
        return len(colors) == 1
    if quality == "colorless":
        return len(colors) == 0
    if quality == "colored spells":
        return spell and len(colors) > 0
    return quality in colors or quality in types or quality in subtypes


def _legal(state: GameState, view: View, f: ir.Filter, ident: str, controller: str, colors, own_id,
           quals: tuple = (frozenset(), frozenset(), False)) -> bool:
    """Is ``ident`` (player or object) a legal target for filter ``f``?"""
    if state.is_player(ident):
        if not f.players:
            return False
        if f.who == "you" and ident != controller:
            return False
        if f.who == "opponent" and ident == controller:
            return False
        # "You have hexproof / shroud" on a permanent the player controls (CR 702.11d, 702.18b)
        for o in state.objects:
            if o.zone != "battlefield" or o.controller != ident:
                continue
            for a in view.chars(o.id).abilities:
                if isinstance(a, ir.Static) and a.kind == "player_keyword":
                    if "shroud" in a.keywords:
                        return False
                    if "hexproof" in a.keywords and ident != controller:
                        return False
        return True
    if ident == own_id:  # CR 115.5
        return False
    o = state.obj(ident)
    if o.zone == "graveyard":   # "Cards in graveyards can't be the targets of spells or abilities."
        for p in state.objects:
            if p.zone == "battlefield" and any(isinstance(a, ir.Static) and a.kind == "graveyard_cards_untargetable"
                                               for a in view.chars(p.id).abilities):
                return False
    if o.zone != f.zone:
        return False
    if o.zone == "stack" and o.ability is not None:  # abilities aren't spells
        return False
    c = view.chars(ident)
    type_ok = False
    for t in f.types:
        if t == "Permanent" and o.zone == "battlefield":
            type_ok = True
        if t == "Spell" and o.zone == "stack":
            type_ok = True
        if t in c.types:
            type_ok = True
    if not type_ok:
        return False
    for t in f.types_all:          # "artifact creature": every one of these types
        if t not in c.types:
            return False
    for t in f.nontypes:
        if t in c.types:
            return False
    if len(f.subtypes) > 0 and len(f.subtypes & c.subtypes) == 0:
        return False
    for col in f.not_colors:
        if col in c.colors:
            return False
    if f.mv_min is not None and c.mana_value < f.mv_min:
        return False
    if f.mv_max is not None and c.mana_value > f.mv_max:
        return False
    # color words of the modal cards' targets ("colorless nonland permanent", CR 105.2c)
    if f.colorless and len(c.colors) > 0:
        return False
    if f.multicolored and len(c.colors) < 2:
        return False
    if getattr(f, "monocolored", False) and len(c.colors) != 1:
        return False                 # "monocolored": one color exactly
    for st in getattr(f, "not_subtypes", ()):
        if st in c.subtypes:         # "non-Human"
            return False
    for col in f.colors:
        if col not in c.colors:
            return False
    for st in f.supertypes:          # "legendary", "basic" (CR 205.4)
        if st not in c.supertypes:
            return False
    for st in f.not_supertypes:      # "nonlegendary", "nonbasic"
        if st in c.supertypes:
            return False
    # "with power 2 or less", "1/1 creature" (CR 208): the bounds on power and toughness, plainly
    if f.power_min is not None and (c.power is None or c.power < f.power_min):
        return False
    if f.power_max is not None and (c.power is None or c.power > f.power_max):
        return False
    if f.toughness_min is not None and (c.toughness is None or c.toughness < f.toughness_min):
        return False
    if f.toughness_max is not None and (c.toughness is None or c.toughness > f.toughness_max):
        return False
    total = getattr(f, "total_pt_max", None)   # "with total power and toughness 5 or less"
    if total is not None and (c.power is None or c.toughness is None or c.power + c.toughness > total):
        return False
    if f.tapped is not None and (o.zone != "battlefield" or o.tapped != f.tapped):
        return False  # "target tapped creature" (CR 110.5)
    if f.token is True and not o.token:
        return False  # "target token", "target creature token" (CR 111.1)
    if f.token is False and o.token:
        return False  # "target nontoken creature"
    for kw in f.keywords:            # "target creature with flying" (CR 702)
        if not c.keyword(kw):
            return False
    for kw in f.not_keywords:        # "target creature without flying"
        if c.keyword(kw):
            return False
    if f.combat:  # "attacking or blocking" (CR 506.4): in combat in the way the filter says
        in_combat = set()
        if o.zone == "battlefield" and o.attacking is not None:
            in_combat.add("attacking")
        if o.zone == "battlefield" and len(o.blocking) > 0:
            in_combat.add("blocking")
        if not (in_combat & set(f.combat)):
            return False
    if o.zone == "battlefield" or o.zone == "stack":
        holder = o.controller
    else:
        holder = o.owner
    if f.who == "you" and holder != controller:
        return False
    if f.who == "opponent" and holder == controller:
        return False
    if o.zone == "battlefield":  # keywords only work on the battlefield
        if c.keyword("shroud"):
            return False
        if c.keyword("hexproof") and o.controller != controller:
            return False
        types, subtypes, spell = quals
        for a in c.abilities:
            if not isinstance(a, ir.Keyword):
                continue
            if a.name == "protection" and _has(a.arg, colors, types, subtypes, spell):  # CR 702.16b
                return False
            if a.name == "hexproof from" and o.controller != controller and \
                    _has(a.arg, colors, types, subtypes, spell):  # CR 702.11e
                return False
    return True


def _obeyed(state: GameState, view: View, reqs, chosen: set[str]) -> int:
    n = 0
    for r in reqs:
        ok = False
        for t in chosen:
            if state.is_player(t):
                if view.player_subtypes(t) & r.subtypes:
                    ok = True
            else:
                o = state.obj(t)
                if r.battlefield_only and o.zone != "battlefield":
                    continue
                if view.chars(t).subtypes & r.subtypes:
                    ok = True
        if ok:
            n += 1
    return n


def _modal_object(state: GameState, view: View, query: dict):
    """The spell behaviour or ability carrying modes (CR 700.2), or None."""
    if "cast" in query or ("spell" in query and state.obj(query["spell"]).card is not None):
        card = state.obj(query.get("cast") or query["spell"]).card
        sp = card.spell
        return sp if sp is not None and len(sp.modes) > 0 else None
    if "spell" in query:
        o = state.obj(query["spell"])
        card = dict(o.last_known).get("card") or state.obj(o.ability.source).card
        abilities = [a for a in card.abilities
                     if isinstance(a, (ir.ManaAbility, ir.ActivatedAbility, ir.TriggeredAbility,
                                       ir.TriggeredManaAbility))
                     or (isinstance(a, ir.Unsupported) and a.kind in ("activated", "triggered"))]
        a = abilities[o.ability.index - 1]
    else:
        form = "activate" if "activate" in query else "trigger"
        oid, n = query[form]["object"], query[form]["index"]
        if form == "activate":
            lst = [a for a in view.chars(oid).abilities if isinstance(a, (ir.ManaAbility, ir.ActivatedAbility))
                   or (isinstance(a, ir.Unsupported) and a.kind == "activated")]
        else:
            lst = [a for a in view.chars(oid).abilities
                   if isinstance(a, (ir.TriggeredAbility, ir.TriggeredManaAbility))
                   or (isinstance(a, ir.Unsupported) and a.kind == "triggered")]
        a = lst[n - 1]
    modes = getattr(a, "modes", ())
    return a if len(modes) > 0 else None


def reference_targets(state: GameState, query: dict, counts_first: bool = True) -> dict:
    """``{"count", "choices"}`` for a ``targets`` query, by brute force.

    A modal spell or ability (CR 700.2, 601.2b-c): every selection of modes the text allows
    (``query["modes"]`` fixes one), each mode's slots one after the other ("another target"
    inside a mode), a selection kept only when it has a choice of targets; the result adds
    ``modes`` (parallel to ``choices``) and ``by_modes``."""
    view = View(state)
    slots, controller, colors, own_id, kind, default_how = _describe_source(state, view, query)
    quals = _source_types(state, view, query)
    how = query.get("how", default_how)
    chooser = query.get("player", controller)
    modal = _modal_object(state, view, query)
    if modal is None:
        return _reference_slots(state, view, slots, controller, colors, own_id, quals, how, chooser, counts_first,
                                _source_object(state, query))
    n = len(modal.modes)
    if "modes" in query:
        selections = [tuple(sorted(query["modes"]))]
    else:
        selections = []
        for k in range(modal.min_modes, modal.max_modes + 1):
            pick = itertools.combinations_with_replacement if modal.mode_repeat else itertools.combinations
            selections.extend(pick(range(1, n + 1), k))
        selections.sort()
    out = {"count": 0, "choices": [], "modes": [], "by_modes": []}
    for sel in selections:
        sel_slots = []
        for m in sel:
            base = len(sel_slots)
            for spec in modal.modes[m - 1].targets:
                sel_slots.append(ir.TargetSpec(spec.filter, spec.min, spec.max,
                                               tuple(base + d for d in spec.distinct_from), spec.divided))
        res = _reference_slots(state, view, sel_slots, controller, colors, own_id, quals, how, chooser, counts_first,
                               _source_object(state, query))
        if res["count"] == 0:
            continue
        out["count"] += res["count"]
        out["choices"] += res["choices"]
        out["modes"] += [list(sel)] * res["count"]
        out["by_modes"].append({"modes": list(sel), "count": res["count"]})
    return out


def _source_object(state: GameState, query: dict) -> str | None:
    """The permanent whose ability it is ("other target creatures" of a permanent: not itself)."""
    for key in ("activate", "trigger"):
        if key in query:
            return query[key]["object"]
    o = state.find(query["spell"]) if "spell" in query else None
    return o.ability.source if o is not None and o.ability is not None else None


def _reference_slots(state: GameState, view: View, slots, controller, colors, own_id, quals, how, chooser,
                     counts_first: bool, source_object: str | None = None) -> dict:
    everything = list(state.player_ids) + [o.id for o in state.objects]

    per_slot_options = []
    for spec in slots:
        legal = sorted(i for i in everything if _legal(state, view, spec.filter, i, controller, colors, own_id,
                                                      quals)
                       and not (spec.filter.other_than_source and i == source_object))
        options = []
        for n in range(spec.min, min(spec.max, len(legal)) + 1):
            for combo in itertools.combinations(legal, n):
                options.append(tuple(combo))
        per_slot_options.append(options)

    reqs = []
    if how in ("cast", "activate") and chooser == controller:
        for s in view.statics(ir.MustTarget):
            if s.controller != controller:
                reqs.append(s.ability)

    candidates = []
    for choice in itertools.product(*per_slot_options):
        ok = True
        for s, spec in enumerate(slots):
            for t in spec.distinct_from:
                if set(choice[s]) & set(choice[t]):
                    ok = False
        if not ok:
            continue
        chosen = set()
        for part in choice:
            chosen |= set(part)
        candidates.append((choice, _obeyed(state, view, reqs, chosen)))

    best: dict = {}
    for choice, n in candidates:
        key = tuple(len(p) for p in choice) if counts_first else None
        best[key] = max(best.get(key, 0), n)
    legal_choices = []
    for choice, n in candidates:
        key = tuple(len(p) for p in choice) if counts_first else None
        if n == best[key]:
            legal_choices.append([list(p) for p in choice])
    legal_choices.sort()
    return {"count": len(legal_choices), "choices": legal_choices}


def reference_problem_choices(problem) -> list[tuple[tuple[str, ...], ...]]:
    """Brute force over a :class:`models.targets.TargetProblem` (the model's
    own input), for model-level differential tests."""
    per_slot = []
    for slot in problem.slots:
        opts = []
        for n in range(slot.min, slot.max + 1):
            opts.extend(itertools.combinations(slot.candidates, n))
        per_slot.append(opts)
    scored = []
    for choice in itertools.product(*per_slot):
        if any(set(choice[s]) & set(choice[t]) for s, slot in enumerate(problem.slots)
               for t in slot.distinct_from if t != s):
            continue
        chosen = set().union(*choice) if choice else set()
        score = sum(r.weight for r in problem.requirements if chosen & r.satisfiers)
        key = tuple(len(p) for p in choice) if problem.counts_first else None
        scored.append((key, score, choice))
    best: dict = {}
    for key, score, _ in scored:
        best[key] = max(best.get(key, 0), score)
    return sorted(choice for key, score, choice in scored if score == best[key])

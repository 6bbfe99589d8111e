"""Brute-force reference for the ``actions`` query (contract §2.6), written
independently of :mod:`solver.engine.actions`: the timing rules spelled out plainly,
and every count obtained by brute force from the other references
(``reference_targets`` lists every target choice, ``brute_pay`` every payment).

It is as plain as possible and slow; use it on small boards only.
"""
from __future__ import annotations

import re

from reference.pay_ref import brute_pay
from reference.targets_ref import reference_targets
from mtgsolve.solver.core import ir
from mtgsolve.solver.rules.characteristics import View
from mtgsolve.solver.core.state import GameState

SORCERY_STEPS = {"main1", "main2"}



def _pay_life_as_enters(text: str) -> int | None:
    """N of the printed line "As this land enters, you may pay N life. If you don't, it enters tapped." (an
    independent reading of the Oracle text), or None."""
    m = re.search(r"^As [^\n]+? enters(?: the battlefield)?, you may pay (\d+) life\. If you don't, it enters(?: the battlefield)? tapped\.$",
                  text or "", re.M)
    return int(m.group(1)) if m else None

def _flash(card) -> bool:
    return any(isinstance(a, ir.Keyword) and a.name == "flash" for a in card.abilities) or \
        "Flash" in card.data.keywords


def _rules(state: GameState, view: View):
    """(controller, rule) for every casting rule of a permanent on the battlefield."""
    for o in state.objects:
        if o.zone == "battlefield":
            for a in view.chars(o.id).abilities:
                if isinstance(a, ir.CastingRule) and not getattr(a, "self_only", False):
                    yield o.controller, a


def _applies_to(who: str, controller: str, player: str) -> bool:
    if who == "you":
        return player == controller
    if who == "opponent":
        return player != controller
    return True


def _forbidden(state: GameState, view: View, player: str, sorcery_time: bool) -> bool:
    """CR 601.3: Teferi, Time Raveler (sorcery timing only); Dragonlord Dromoka (not in its controller's turn)."""
    for ctl, r in _rules(state, view):
        if not _applies_to(r.who, ctl, player):
            continue
        if r.kind == "sorcery_timing_only" and not sorcery_time:
            return True
        if r.kind == "cant_cast_during_your_turn" and state.turn.active == ctl:
            return True
    return False


def _flash_permission(state: GameState, view: View, player: str, card_id: str) -> bool:
    """CR 702.8a: "You may cast [creature] spells as though they had flash"."""
    from reference.pay_ref import _fits

    for ctl, r in _rules(state, view):
        if r.kind == "as_though_flash" and _applies_to(r.who, ctl, player) and \
                (r.spells is None or _fits(r.spells, view.chars(card_id))):
            return True
    return False


def _lands_from_graveyard(state: GameState, player: str) -> bool:
    """A permanent of ``player``'s with the printed line "You may play lands from your graveyard." (CR 305.1)."""
    return any(o.zone == "battlefield" and o.controller == player and o.card is not None
               and "you may play lands from your graveyard." in o.card.data.text.lower().split("\n")
               for o in state.objects)


def _playable_from(state: GameState, o, player: str) -> bool:
    """May ``player`` play or cast ``o`` from its zone (before timing, targets and costs)?"""
    land = "Land" in o.card.data.types
    if o.zone == "hand":
        return o.owner == player
    if o.zone == "exile":
        perm = o.may_play   # "You may play that card this turn" (CR 611.2a); "you may cast" casts only (305.9)
        if perm is not None and perm.player == player:
            return not (land and perm.spells_only)
        return o.owner == player and o.on_adventure and o.card.data.layout == "adventure"
    if o.zone == "graveyard" and o.owner == player:
        if land:
            return _lands_from_graveyard(state, player)
        return _aftermath_line(o.card)   # an aftermath half (CR 702.127a)
    return False


def _lands_allowed(state: GameState, view: View, player: str) -> int:
    """CR 305.2: one land a turn, plus one per "additional land" of each such static of the player's
    permanents (cumulative, 305.2a)."""
    n = 1
    for o in state.objects:
        if o.zone == "battlefield" and o.controller == player:
            for a in view.chars(o.id).abilities:
                if isinstance(a, ir.Static) and a.kind == "additional_lands":
                    n += a.amount
    return n


def _return_choices(view: View, player: str, source: str, sel) -> int:
    """The distinct choices of one permanent of ``player`` matching ``sel`` to return: one per
    interchangeable class (pay_ref's classes, the source on its own)."""
    from reference.pay_ref import _classes

    return sum(1 for ids in _classes(view, player, source) if view.matches(sel, ids[0], None, player))


def _condition_met(state: GameState, view: View, cond, player: str, source=None) -> bool:
    """"Activate only if …" (CR 602.5b), plainly, for the conditions the boards use."""
    if cond.kind == "opponent_controls":   # "an opponent controls four or more lands"
        for q in state.player_ids:
            if q == player:
                continue
            n = sum(1 for o in state.objects if o.zone == "battlefield" and o.controller == q
                    and all(t in view.chars(o.id).types for t in cond.selector.types))
            if n >= cond.n:
                return True
        return False
    if cond.kind == "hand_exactly":        # "you have exactly seven cards in hand"
        return len([o for o in state.objects if o.zone == "hand" and o.owner == player]) == cond.n
    if cond.kind == "attached_to_creature":   # reconfigure's unattach: "if this permanent is attached to a creature"
        host = state.find(source.attached_to) if source is not None and source.attached_to else None
        return host is not None and host.zone == "battlefield" and view.chars(host.id).is_creature
    mine = [o for o in state.objects if o.zone == "graveyard" and o.owner == player]
    if cond.kind == "graveyard_count":     # threshold: "seven or more cards in your graveyard"
        return len(mine) >= cond.n
    if cond.kind == "graveyard_types":     # delirium: card types among them, as printed
        kinds = {"Artifact", "Battle", "Creature", "Enchantment", "Instant", "Kindred", "Land", "Planeswalker",
                 "Sorcery"}
        return len({t for o in mine for t in o.card.data.types if t in kinds}) >= cond.n
    if cond.kind == "during_steps":        # "Activate only during your upkeep", "… during combat"
        return state.turn.step in cond.steps and (not cond.yours or state.turn.active == player)
    raise NotImplementedError(f"reference: activation condition {cond.kind}")


def reference_actions(state: GameState, player: str) -> list[dict]:
    """Every legal action of ``player``, sorted like the query's result."""
    t = state.turn
    stack = [o for o in state.objects if o.zone == "stack"]
    if t.step == "untap":
        return []
    if t.step == "cleanup" and not stack:
        return []
    if (t.priority or t.active) != player:
        return []
    out = [{"kind": "pass"}]
    sorcery_time = t.active == player and t.step in SORCERY_STEPS and not stack
    view = View(state)
    for o in state.objects:
        # from the hand; an adventurer card of the player's on an adventure, from exile (CR 715.3d); a card
        # exiled with a permission to play it (CR 611.2a); a land from the graveyard (Crucible, CR 305.1)
        if o.card is None or not _playable_from(state, o, player):
            continue
        if o.card.data.layout in ("split", "aftermath"):   # cast as one half only (CR 709.3)
            continue
        if "Land" in o.card.data.types:
            if sorcery_time and t.lands_played < _lands_allowed(state, view, player):
                out.append({"kind": "play_land", "object": o.id})
                n = _pay_life_as_enters(o.card.data.text)
                if n is not None and state.player(player).life >= n:   # CR 614.12, 119.4: the shock land's choice
                    out.append({"kind": "play_land", "object": o.id, "pay_life": True})
            continue
        if _forbidden(state, view, player, sorcery_time):
            continue
        if not (sorcery_time or "Instant" in o.card.data.types or _flash(o.card)
                or _flash_permission(state, view, player, o.id)):
            continue
        n_targets = reference_targets(state, {"kind": "targets", "cast": o.id, "player": player})["count"]
        if not n_targets:
            continue
        q = {"kind": "pay", "cast": o.id, "player": player}
        if o.card.data.mana_cost.x_count:
            q["x"] = "any"
        n_pay = brute_pay(state, q, view)["count"]
        if n_pay:
            out.append({"kind": "cast", "object": o.id, "targets": n_targets, "payments": n_pay})
    for o in state.objects:
        # a permanent's abilities work on the battlefield; cycling, channel … in the owner's hand (CR 113.6k)
        # … and "Exile this card from your graveyard: …" in the owner's graveyard
        if (o.zone, o.controller if o.zone == "battlefield" else o.owner) not in (("battlefield", player),
                                                                                   ("hand", player),
                                                                                   ("graveyard", player)):
            continue
        for i, a in enumerate(view.chars(o.id).activated, start=1):
            if not isinstance(a, ir.ActivatedAbility):
                continue  # mana abilities are not actions
            if getattr(a, "zone", "battlefield") != o.zone:
                continue
            # The Wandering Emperor: her loyalty abilities as instants the turn she entered
            as_instant = a.cost.loyalty is not None and o.entered_this_turn and any(
                isinstance(b, ir.Static) and b.kind == "loyalty_as_instant_if_entered"
                for b in view.chars(o.id).abilities)
            if a.sorcery and not sorcery_time and not as_instant:
                continue
            limit = getattr(a, "limit", None)   # "Activate only once each turn" (CR 602.5b)
            if limit is not None and dict(o.activated_this_turn).get(i, 0) >= limit:
                continue
            if a.condition is not None and not _condition_met(state, view, a.condition, player, o):
                continue
            if a.cost.loyalty is not None:  # CR 606.3, 606.6
                loyalty_indices = [j for j, b in enumerate(view.chars(o.id).activated, start=1)
                                   if isinstance(b, ir.ActivatedAbility) and b.cost.loyalty is not None]
                if any(dict(o.activated_this_turn).get(j, 0) for j in loyalty_indices):
                    continue
                if a.cost.loyalty < 0 and dict(o.counters).get("loyalty", 0) < -a.cost.loyalty:
                    continue
            ref = {"object": o.id, "index": i}
            n_targets = reference_targets(state, {"kind": "targets", "activate": ref, "player": player})["count"]
            if not n_targets:
                continue
            q = {"kind": "pay", "activate": ref, "player": player}
            if a.cost.mana.x_count:
                q["x"] = "any"
            n_pay = brute_pay(state, q, view)["count"]   # a cost choosing cards: activation_costs_ref
            if n_pay:
                out.append({"kind": "activate", "object": o.id, "index": i, "targets": n_targets, "payments": n_pay})
    out.extend(_suspend_entries(state, view, player, sorcery_time))
    order = {"activate": 0, "cast": 1, "pass": 2, "play_land": 3, "suspend": 4}
    out.sort(key=lambda e: (order[e["kind"]], e.get("object", ""), e.get("index", 0)))
    return out


def _suspend_entries(state: GameState, view: View, player: str, sorcery_time: bool) -> list[dict]:
    """CR 116.2f, 702.62a: a card with "Suspend N—[cost]" in the player's hand may be exiled, paying
    its suspend cost, whenever the player could begin to cast it — timing alone (its targets and its
    mana cost don't matter). The cost is a plain mana cost (no spell's cost changes apply), paid by
    brute force; restricted mana never pays it (neither a spell nor an ability)."""
    out = []
    for o in state.objects:
        if o.zone != "hand" or o.owner != player or o.card is None or "Land" in o.card.data.types:
            continue
        sus = [a for a in o.card.abilities if isinstance(a, ir.Suspend)]
        if not sus or _forbidden(state, view, player, sorcery_time):
            continue
        if not (sorcery_time or "Instant" in o.card.data.types or _flash(o.card)
                or _flash_permission(state, view, player, o.id)):
            continue
        n_pay = brute_pay(state, {"kind": "pay", "cost": sus[0].mana.text or "{0}", "player": player}, view)["count"]
        if n_pay:
            out.append({"kind": "suspend", "object": o.id, "payments": n_pay})
    return out


def _aftermath_line(card) -> bool:
    """The card (a face) has the keyword line "Aftermath" (CR 702.127a: cast only from a graveyard)."""
    return any(line.split(" (")[0].strip().lower() == "aftermath" for line in card.data.text.split("\n"))


def _keyword_line(card, word: str) -> bool:
    return any(line.split(" (")[0].strip().lower() == word for line in card.data.text.split("\n"))


def _fused(card, zone: str) -> tuple:
    """A split card whose halves both have the keyword line "Fuse", in the hand: the spell of both
    halves (CR 702.102: the whole card's characteristics, both halves' target slots in order — what
    the targets and payments depend on; the effects don't matter here)."""
    from dataclasses import replace

    from mtgsolve.solver.cards import other_faces

    halves = other_faces(card)
    if zone != "hand" or card.data.layout != "split" or len(halves) != 2 or \
            not all(_keyword_line(h, "fuse") and h.spell is not None for h in halves):
        return ()
    spell = ir.SpellBehaviour(targets=halves[0].spell.targets + halves[1].spell.targets)
    # the card itself with that spell, cast as such (not as one half)
    return (replace(card, data=replace(card.data, layout="normal"), abilities=(), spell=spell),)


def reference_face_entries(state: GameState, player: str) -> list[dict]:
    """The ``cast`` entries with ``face`` (an Adventure cast from the hand, CR 715.3; a split
    card's half, CR 709.3): for each such card in ``player``'s hand and each face the card
    database holds, the
    entries of :func:`reference_actions` on the board where that card has only the
    Adventure's characteristics (CR 715.3b), marked with the face's name."""
    from dataclasses import replace

    from mtgsolve.solver.cards import other_faces

    out = []
    for o in state.objects:
        if o.owner != player or o.card is None or \
                o.card.data.layout not in ("adventure", "split", "modal_dfc", "aftermath"):
            continue
        if o.zone not in ("hand", "graveyard") or (o.zone == "graveyard" and o.card.data.layout != "aftermath"):
            continue
        for face in other_faces(o.card) + _fused(o.card, o.zone):
            if _aftermath_line(face) != (o.zone == "graveyard"):   # the aftermath half from a graveyard only
                continue
            sub = replace(state, objects=tuple(replace(x, card=face) if x.id == o.id else x for x in state.objects))
            for e in reference_actions(sub, player):
                if e["kind"] in ("cast", "play_land") and e["object"] == o.id:
                    out.append({**e, "face": face.data.name})
    from .alt_costs_ref import reference_disturb_entries
    return out + reference_disturb_entries(state, player) + reference_prototype_entries(state, player)


def reference_prototype_entries(state: GameState, player: str) -> list[dict]:
    """The ``cast`` entries with ``alternative: prototype`` (CR 702.160a, 718.3): for each card in
    ``player``'s hand whose printed text has the line "Prototype {cost} — P/T", the cast entries of
    :func:`reference_actions` on the board where the card has that mana cost, power and toughness and
    that mana cost's colors (718.3b), read here from the printed line itself."""
    import re
    from dataclasses import replace

    from mtgsolve.solver.core.mana import ManaCost

    out = []
    for o in state.objects:
        if o.zone != "hand" or o.owner != player or o.card is None:
            continue
        m = [re.match(r"Prototype ((?:\{[^}]+\})+) — (\d+)/(\d+)", line) for line in o.card.data.text.split("\n")]
        m = [x for x in m if x]
        if len(m) != 1:
            continue
        mana = ManaCost.parse(m[0].group(1))
        colors = tuple(c for c in "WUBRG" if c in m[0].group(1))
        data = replace(o.card.data, mana_cost=mana, power=m[0].group(2), toughness=m[0].group(3), colors=colors,
                       color_indicator=None)
        sub = replace(state, objects=tuple(replace(x, card=replace(x.card, data=data)) if x.id == o.id else x
                                           for x in state.objects))
        out += [{**e, "alternative": "prototype"} for e in reference_actions(sub, player)
                if e["kind"] == "cast" and e["object"] == o.id]
    return out


def reference_mode_choices(state: GameState, player: str) -> list[tuple]:
    """Every (kind, object, index, modes, targets, payments) a player may choose for each legal modal spell
    or ability (CR 700.2, 601.2b-c: the modes, then the targets of the chosen modes only), by brute force:
    the legal entries of :func:`reference_actions`, each selection of modes and its target choices from
    ``reference_targets`` (targets are chosen before the cost is paid, CR 601.2c, 601.2h: the number of
    payments is the entry's, whatever the modes). Sorted; the API lists the same choices."""
    out = []
    for e in reference_actions(state, player):
        if e["kind"] not in ("cast", "activate"):
            continue
        q = {"kind": "targets", "player": player}
        if e["kind"] == "cast":
            q["cast"] = e["object"]
        else:
            q["activate"] = {"object": e["object"], "index": e["index"]}
        res = reference_targets(state, q)
        if "modes" not in res:
            continue
        for sel, ch in zip(res["modes"], res["choices"]):
            out.append((e["kind"], e["object"], e.get("index", 0), tuple(sel),
                        tuple(tuple(sorted(slot)) for slot in ch), e["payments"]))
    return sorted(out)

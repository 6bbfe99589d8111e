"""Write a game state back as a situation (contract §1): :func:`dump_state`, the inverse of the
loader (:mod:`solver.io.load`), deterministic and with only the keys that differ from the contract's
defaults. The rules layer keys, sorts and carries the outcomes of resolution and of passing priority by
the canonical JSON of this form, so it lives below the interface layer that reads files.
"""
from __future__ import annotations

from typing import Any, Iterable

from ..cards import SHIPPED, Card, CardData, CardDB, UnknownCard, db_of
from .messages import DEFAULT_LIFE
from ..core.state import ZONES, ContinuousEffectEntry, DelayedTrigger, GameObject, GameState, Player, PreventionShield, Turn

__all__ = ["FORMAT", "KEYED_ZONES", "OWNED_ZONES", "dump_state"]

FORMAT = "mtgsolve/1"

OWNED_ZONES: tuple[str, ...] = ("hand", "graveyard", "library", "exile", "command")
KEYED_ZONES: tuple[str, ...] = ("battlefield",) + OWNED_ZONES  # zones written as player id → list
assert ZONES == KEYED_ZONES + ("stack",)


def _dump_card(card: Card, cards: CardDB = SHIPPED) -> str | dict:
    """A card by name when the database ``cards`` gives the same card, else inline (MTGJSON field names)."""
    if cards.canonical_name(card.name) is None:  # not in the database (tokens): skip UnknownCard's slow "did you mean"
        return _inline_card(card.data)
    try:
        if cards.get(card.name) == card:
            return card.name
    except UnknownCard:
        pass
    return _inline_card(card.data)


def _inline_card(data: CardData) -> dict:
    out: dict[str, Any] = {"name": data.name}
    if data.mana_cost:
        out["manaCost"] = data.mana_cost.text
    if data.type_line:
        out["type"] = data.type_line
    for key, value in (("types", data.types), ("subtypes", data.subtypes), ("supertypes", data.supertypes)):
        if value:
            out[key] = list(value)
    for key, number in (("power", data.power), ("toughness", data.toughness), ("loyalty", data.loyalty)):
        if number is not None:
            out[key] = number
    if data.text:
        out["text"] = data.text
    if data.keywords:
        out["keywords"] = list(data.keywords)
    if data.layout != "normal":
        out["layout"] = data.layout
    if data.colors is not None:
        out["colors"] = list(data.colors)
    return out


def _thaw(v: Any) -> Any:
    return list(v) if isinstance(v, tuple) else v


def _dump_status(items: Iterable[tuple[str, Any]], cards: CardDB) -> dict:
    """Status keys shared by objects and last known information, in contract order."""
    out: dict[str, Any] = {}
    for key, value in items:
        if key == "card":
            out[key] = _dump_card(value, cards)
        elif key == "counters":
            out[key] = dict(value)
        elif key == "chosen":
            out[key] = {k: _thaw(v) for k, v in value}
        else:
            out[key] = value
    return out


def _dump_object(o: GameObject, position: int, cards: CardDB) -> dict:
    d: dict[str, Any] = {"id": o.id}
    if o.card is not None:
        d["card"] = _dump_card(o.whole or o.card, cards)
    if o.cast_with:
        d["cast_with"] = o.cast_with         # flashback, jump-start, escape, evoke (CR 702.34a, 702.133a, 702.138b, 702.74a)
    if o.kicked:
        d["kicked"] = o.kicked               # times kicked (CR 702.33d)
    if o.buyback:
        d["buyback"] = True                  # its buyback cost was paid (CR 702.27a)
    if o.casualty:
        d["casualty"] = True                 # its casualty cost was paid (CR 702.153a)
    if o.cast_before is not None:
        d["cast_before"] = o.cast_before     # spells cast this turn before it (storm, CR 702.40a)
    if o.sacrificed:
        d["sacrificed"] = dict(o.sacrificed)  # the creature sacrificed to cast it, as it last existed (CR 608.2h)
    if o.prototyped:
        d["prototyped"] = True               # cast prototyped (CR 718.3)
    elif o.front is not None and o.card is not None and o.card.name == o.front.name:
        d["fused"] = True                    # a fused split spell: both halves (CR 702.102)
    elif o.face is not None:
        d["face"] = o.face                   # the face it shows (io/faces.py); a melded one names its pair
    if o.on_adventure:
        d["on_adventure"] = True
    if o.monstrous:
        d["monstrous"] = True                # it became monstrous (CR 701.37b)
    if o.control_reverts_to is not None:
        d["control_reverts_to"] = o.control_reverts_to   # control until end of turn (CR 613.1b, 514.2)
    if o.ability is not None:
        d["ability"] = {"source": o.ability.source, "index": o.ability.index}
    if o.delayed:
        d["delayed"] = o.delayed             # a delayed triggered ability (CR 603.7)
    if o.it is not None:
        d["it"] = o.it                       # what its instruction names (CR 603.7c)
    if o.zone == "stack":
        d["controller"] = o.controller
        if o.owner != o.controller:
            d["owner"] = o.owner
    elif o.zone == "battlefield":
        if o.owner != o.controller:
            d["owner"] = o.owner
    elif o.controller != o.owner:
        d["controller"] = o.controller
    status = [("tapped", o.tapped), ("sick", o.sick), ("counters", o.counters), ("damage", o.damage),
              ("attached_to", o.attached_to), ("token", o.token), ("conjured", o.conjured), ("chosen", o.chosen),
              ("x", o.x)]
    d.update(_dump_status(((k, v) for k, v in status if v), cards))
    if o.targets is not None:
        d["targets"] = [list(t) for t in o.targets]
    if o.copy:
        d["copy"] = True
    if o.last_known:
        d["last_known"] = _dump_status(o.last_known, cards)
    if o.timestamp != position:
        d["timestamp"] = o.timestamp
    if o.activated_this_turn:
        d["activated_this_turn"] = dict(o.activated_this_turn)
    if o.entered_this_turn:
        d["entered_this_turn"] = True
    if o.skip_untap:
        d["skip_untap"] = True
    if o.exile_if_dies:
        d["exile_if_dies"] = True
    if o.commander:
        d["commander"] = True
    if o.attacking is not None:
        d["attacking"] = o.attacking
    if o.blocking:
        d["blocking"] = list(o.blocking)
    if o.blocked:
        d["blocked"] = True
    if o.refers_to is not None:
        d["refers_to"] = o.refers_to
    if o.exiled_until is not None:
        d["exiled_until"] = o.exiled_until
    if o.exiled_by is not None:
        d["exiled_by"] = o.exiled_by
    if o.may_play is not None:
        d["may_play"] = _dump_permission(o)
    if o.event_object is not None:
        d["event_object"] = o.event_object
    if o.event_player is not None:
        d["event_player"] = o.event_player
    if o.regeneration_shields:
        d["regeneration_shields"] = o.regeneration_shields
    if o.modes is not None:
        d["modes"] = list(o.modes)           # the modes chosen (CR 700.2a)
    return d


def _zone_groups(state: GameState, zone: str) -> dict[str, list[GameObject]]:
    """Objects of a keyed zone by zone key, players in turn order, each list in order."""
    groups: dict[str, list[GameObject]] = {pid: [] for pid in state.player_ids}
    for o in state.objects:
        if o.zone == zone:
            groups.setdefault(o.controller if zone == "battlefield" else o.owner, []).append(o)
    return {k: sorted(v, key=lambda o: o.order) for k, v in groups.items() if v}


def dump_state(state: GameState) -> dict:
    """Write a :class:`GameState` as a situation (contract §1), deterministic.

    Every object carries its ``id``; other keys appear only when they differ
    from the contract's defaults.  ``situation_from_dict(dump_state(s)).state == s``
    for every state loaded from a situation.
    """
    cards = db_of(state)  # a card is written by name when the state's database gives it
    out: dict[str, Any] = {"format": FORMAT}
    if state.name is not None:
        out["name"] = state.name
    if state.description is not None:
        out["description"] = state.description
    if state.rules:
        out["rules"] = list(state.rules)
    out["players"] = [_dump_player(p) for p in state.players]
    out["turn"] = _dump_turn(state.turn)
    position = 0
    for zone in KEYED_ZONES:
        groups = _zone_groups(state, zone)
        if groups:
            out[zone] = {}
            for key, objs in groups.items():
                out[zone][key] = []
                for o in objs:
                    position += 1
                    out[zone][key].append(_dump_object(o, position, cards))
    stack = sorted((o for o in state.objects if o.zone == "stack"), key=lambda o: o.order)
    if stack:
        out["stack"] = []
        for o in stack:
            position += 1
            out["stack"].append(_dump_object(o, position, cards))
    pools = {pid: m.text for pid, m in state.mana_pool if m}
    if pools:
        out["mana_pool"] = pools
    if state.restricted_pool:
        restricted: dict[str, list[dict[str, str]]] = {}
        for pid, m, r in state.restricted_pool:
            restricted.setdefault(pid, []).append({"mana": m.text, "restriction": r.describe()})
        out["restricted_mana_pool"] = restricted
    if state.effects:
        out["effects"] = [_dump_effect(e, cards) for e in sorted(state.effects, key=lambda e: e.order)]
    if state.shuffled:
        out["shuffled"] = {pid: True for pid in state.shuffled}
    if state.known_top:
        out["known_top"] = dict(state.known_top)
    if state.day_night is not None:
        out["day_night"] = state.day_night
    if state.prevention:
        out["prevention"] = [_dump_prevention(p) for p in sorted(state.prevention, key=PreventionShield.sort_key)]
    if state.delayed:
        out["delayed"] = [_dump_delayed(t) for t in sorted(state.delayed, key=DelayedTrigger.sort_key)]
    return out


def _dump_delayed(t: DelayedTrigger) -> dict[str, Any]:
    """A delayed triggered ability in force (CR 603.7) as its situation mapping: defaults left out."""
    d: dict[str, Any] = {"step": t.step, "controller": t.controller, "source": t.source}
    if t.ability:
        d["ability"] = t.ability
    if t.index != 1:
        d["index"] = t.index
    if t.turn:
        d["turn"] = t.turn
    if t.whose != "any":
        d["whose"] = t.whose
    if t.it is not None:
        d["it"] = t.it
    return d


def _dump_prevention(p: PreventionShield) -> dict[str, Any]:
    """A prevention shield (CR 615.7) as its situation mapping: only the keys it sets."""
    d: dict[str, Any] = {}
    if p.to is not None:
        d["to"] = p.to
    if p.source is not None:
        d["source"] = p.source
    if p.amount is not None:
        d["amount"] = p.amount
    if p.combat_only:
        d["combat_only"] = True
    return d


def _dump_player(p: Player) -> str | dict:
    if p.life == DEFAULT_LIFE and p.poison == 0 and not p.lost and p.life_lost_this_turn is None:
        return p.id
    d: dict[str, Any] = {"id": p.id}
    if p.life != DEFAULT_LIFE:
        d["life"] = p.life
    if p.poison:
        d["poison"] = p.poison
    if p.lost:
        d["lost"] = True
    if p.life_lost_this_turn is not None:
        d["life_lost_this_turn"] = p.life_lost_this_turn
    return d


def _dump_turn(t: Turn) -> dict:
    d: dict[str, Any] = {"number": t.number, "active": t.active, "step": t.step}
    if t.priority and t.priority != t.active:
        d["priority"] = t.priority
    if t.lands_played:
        d["lands_played"] = t.lands_played
    if t.passed:
        d["passed"] = list(t.passed)
    if t.spells_cast is not None:
        d["spells_cast"] = dict(t.spells_cast)
    if t.extra_turns:
        d["extra_turns"] = list(t.extra_turns)   # (extension) CR 500.7
    if t.skip_combat:
        d["skip_combat"] = list(t.skip_combat)   # (extension) CR 614.10
    if t.history is not None:
        h = t.history
        d["history"] = {k: v for k, v in (("died", h.died), ("gained", dict(h.gained)),
                                          ("attacked", dict(h.attacked))) if v}
    return d


def _dump_effect(e: ContinuousEffectEntry, cards: CardDB) -> dict:
    d: dict[str, Any] = {}
    if e.card is not None:
        d["card"] = _dump_card(e.card, cards)
    if e.ability is not None:
        d["ability"] = {"source": e.ability.source, "index": e.ability.index}
    d["controller"] = e.controller
    if e.targets is not None:
        d["targets"] = [list(t) for t in e.targets]
    if e.affected is not None:
        d["affected"] = [list(t) for t in e.affected]
    if e.event_object is not None:
        d["event_object"] = e.event_object
    if e.modes is not None:
        d["modes"] = list(e.modes)
    if e.x is not None:
        d["x"] = e.x                         # X fixed as it resolved (CR 608.2h)
    if e.color is not None:
        d["color"] = e.color                 # the color chosen as it resolved (CR 608.2d)
    return d


def _dump_permission(o: GameObject) -> dict[str, Any]:
    """``may_play`` (extension): who may play the exiled card, until when (CR 611.2); defaults left out."""
    perm = o.may_play
    assert perm is not None
    d: dict[str, Any] = {"player": perm.player}
    if perm.until != "end_of_turn":
        d["until"] = perm.until
    if perm.spells_only:
        d["spells_only"] = True
    return d

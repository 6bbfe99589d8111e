"""Brute-force reference for resolving a modal spell with its modes chosen (CR 700.2a, 601.2b-c, 608.2c).

Independent of the engine: it reads the card data's modes (their target instances and effects, the IR
the reader made) and the situation, then follows the chosen modes in printed order over a small
vocabulary — damage (CR 120.3), destroy (701.8), gain and lose life (119.3), tap and untap (701.26) — to
targets (each mode's own instances, in order), "you", each opponent and "each <type>" permanents; then
state-based actions (704.5g: lethal damage). Returns None for anything outside that vocabulary.
The result: each player's life, the ids in each graveyard, the tapped permanents.
"""
from __future__ import annotations

from dataclasses import replace
from typing import Any

from mtgsolve.solver.core import ir
from mtgsolve.solver.core.selectors import Filter
from mtgsolve.solver.core.state import GameState


def _mode_targets(modes, sel, targets) -> list[list[tuple[str, ...]]]:
    """The object's target lists split per chosen mode (printed order, CR 601.2c)."""
    out, i = [], 0
    for m in sel:
        n = len(modes[m - 1].targets)
        out.append(list(targets[i:i + n]))
        i += n
    return out


def _plain_group(f: Filter | None) -> bool:
    return f is not None and replace(f, types=frozenset(), who="any", nontypes=frozenset()) == Filter()


def _group(state: GameState, f: Filter, you: str, alive: set[str]) -> list[str]:
    out = []
    for o in state.zone("battlefield"):
        if o.id not in alive or o.card is None:
            continue
        types = set(o.card.data.types)
        if f.types and not (types & f.types) or types & f.nontypes:
            continue
        if f.who == "you" and o.controller != you or f.who == "opponent" and o.controller == you:
            continue
        out.append(o.id)
    return out


def _refs(state, ref, you, local, alive) -> list[str] | None:
    if ref is None or ref.kind == "controller":
        return [you]
    if ref.kind in ("target", "each_target"):
        return list(local[ref.index]) if ref.index < len(local) else []
    if ref.kind == "each_opponent":
        return [p.id for p in state.players if p.id != you]
    if ref.kind == "each_player":
        return [p.id for p in state.players]
    if ref.kind == "each_object" and _plain_group(ref.group):
        return _group(state, ref.group, you, alive)
    return None


def reference_modal_resolution(state: GameState) -> dict[str, Any] | None:
    """The result of resolving the modal spell on top of the stack, or None (outside the vocabulary)."""
    top = state.zone("stack")[0]
    sp = top.card.spell if top.card is not None else None
    if sp is None or not sp.modes or top.modes is None:
        return None
    you = top.controller
    life = {p.id: p.life for p in state.players}
    players = set(life)
    alive = {o.id for o in state.zone("battlefield")}
    tapped = {o.id for o in state.zone("battlefield") if o.tapped}
    damage: dict[str, int] = {}
    dead: list[str] = []
    for m, local in zip(top.modes, _mode_targets(sp.modes, top.modes, top.targets or ())):
        for e in sp.modes[m - 1].effects:
            if e.optional or not isinstance(getattr(e, "amount", 0), int):
                return None
            who = _refs(state, getattr(e, "to", None), you, local, alive)
            if who is None:
                return None
            for t in who:
                if t in players:
                    if isinstance(e, ir.Damage) or isinstance(e, ir.LoseLife):
                        life[t] -= e.amount
                    elif isinstance(e, ir.GainLife):
                        life[t] += e.amount
                    else:
                        return None
                    continue
                if t not in alive:
                    continue          # it left the battlefield earlier in this resolution
                if isinstance(e, ir.Damage):
                    if e.amount > 0:
                        damage[t] = damage.get(t, 0) + e.amount
                elif isinstance(e, ir.Destroy):
                    alive.discard(t)
                    dead.append(t)
                elif isinstance(e, ir.Tap):
                    tapped.add(t)
                elif isinstance(e, ir.Untap):
                    tapped.discard(t)
                else:
                    return None
    for o in state.zone("battlefield"):   # CR 704.5g: lethal damage
        if o.id in alive and o.card is not None and o.card.data.toughness is not None and \
                damage.get(o.id, 0) >= int(o.card.data.toughness) and "Creature" in o.card.data.types:
            alive.discard(o.id)
            dead.append(o.id)
    owners = {o.id: o.owner for o in state.objects}
    graveyard: dict[str, set[str]] = {p: {o.id for o in state.zone("graveyard") if o.owner == p} for p in players}
    for oid in dead + [top.id]:
        graveyard[owners[oid]].add(oid)
    return {"life": life, "graveyard": graveyard, "tapped": tapped & alive}

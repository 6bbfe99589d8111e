"""Brute-force reference for resolving "transform target creature" and "exile target creature,
then return it to the battlefield transformed under its owner's control" (CR 701.27a, 701.27c-d,
702.145b, 712.14a, 712.18, 400.7).

Written from the rules, without the engine: it reads the situation (loaded) and the card data.
The top of the stack is a spell whose one target is a permanent; the expected battlefield is the
board as it was, with the target turned over when it can be:

* it turns over only if its card is a transforming double-faced card (layout ``transform``) whose
  two faces the card data holds (701.27c), its other face is no instant or sorcery (701.27d), and
  — when transformed by an effect — the face up has neither daybound nor nightbound (702.145b/e);
* transformed, it is the same object (712.18): id, tapped status, counters, damage, attachments
  and summoning sickness stay; only the face shown changes (front ↔ back);
* then state-based actions: a creature with damage at least its toughness dies (704.5g) — a
  Kessig Prowler (2/1) with 1 damage survives as Sinuous Predator (4/4);
* exiled and returned transformed, it is a new object (400.7): untapped, no counters or damage,
  summoning sick, back face up, and the Auras that were attached to it are put into their
  owners' graveyards (704.5m); a card that can't be put onto the battlefield transformed stays in
  exile (712.14a).

``summary`` writes a state's battlefield and exile plainly, so that the engine's outcome state
can be summarised the same way and compared (tests/test_transform.py).
"""
from __future__ import annotations

from typing import Any

from mtgsolve.solver.cards import faces
from mtgsolve.solver.core.state import GameObject, GameState


def _turned(o: GameObject, by_effect: bool = True) -> str | None | bool:
    """The name of the face ``o`` shows once turned over (None: its front), or False when it can't."""
    whole = o.front if o.front is not None else o.card
    if whole is None or whole.data.layout != "transform" or o.melded_with is not None:
        return False
    fs = faces(whole)
    if len(fs) < 2:
        return False
    shown = o.card
    if by_effect and shown is not None and {"daybound", "nightbound"} & {k.lower() for k in shown.data.keywords}:
        return False
    back = fs[1]
    if {"Instant", "Sorcery"} & set(back.data.types):
        return False
    return back.data.name if o.front is None else None


def _toughness(o: GameObject, face: str | None) -> int:
    whole = o.front if o.front is not None else o.card
    assert whole is not None
    data = next((f.data for f in faces(whole) if f.data.name == face), None) if face else None
    if data is None:
        data = faces(whole)[0].data if faces(whole) else whole.data
    return int(data.toughness or 0) + dict(o.counters).get("+1/+1", 0)


def _row(o: GameObject, face: str | None) -> tuple[Any, ...]:
    whole = o.front if o.front is not None else o.card
    return (o.id, whole.name if whole else None, face, o.tapped, o.sick, tuple(sorted(o.counters)), o.damage,
            o.attached_to)


def summary(state: GameState) -> dict[str, Any]:
    """The battlefield (id, card, face shown, tapped, sick, counters, damage, attached_to), sorted,
    and the exiled card names."""
    bf = sorted(_row(o, o.card.name if o.front is not None and o.card else None) for o in state.battlefield)
    ex = sorted(((o.front or o.card).name if (o.front or o.card) else "") for o in state.zone("exile"))
    return {"battlefield": bf, "exile": ex}


def expected(state: GameState, returned: bool) -> dict[str, Any]:
    """The summary of the one outcome of resolving the spell on top (its one target)."""
    top = state.zone("stack")[0]
    target = top.targets[0][0] if top.targets and top.targets[0] else None
    rows, exile = [], []
    gone: set[str] = set()
    for o in state.battlefield:
        face = o.card.name if o.front is not None and o.card else None
        if o.id != target:
            rows.append((o, face))
            continue
        if not returned:
            t = _turned(o)
            rows.append((o, face if t is False else t))
            continue
        front_up = o.with_(card=o.front or o.card, front=None)   # in exile: the card itself (712.14)
        t = _turned(front_up, by_effect=False)
        gone.add(o.id)
        if t is False or o.token:
            exile.append(front_up.card.name if front_up.card else "")
            continue
        fresh = o.with_(tapped=False, sick=True, counters=(), damage=0, attached_to=None)
        rows.append((fresh, t))
    # a creature with damage at least its toughness is destroyed (704.5g: the face shown's toughness
    # and its +1/+1 counters; Rancor gives +2/+0); an Aura attached to a permanent that left is put
    # into its owner's graveyard (704.5m)
    dead = {o.id for o, f in rows if o.attached_to is None and o.damage and o.damage >= _toughness(o, f)}
    gone |= dead
    kept = [(o, f) for o, f in rows if o.id not in dead and (o.attached_to is None or o.attached_to not in gone)]
    bf = sorted(_row(o, f) for o, f in kept)
    ex = sorted([(o.front or o.card).name for o in state.zone("exile") if (o.front or o.card)] + exile)
    return {"battlefield": bf, "exile": ex}


def meld_expected(state: GameState, partner: str, into: str) -> list[dict[str, Any]]:
    """The summaries of the outcomes of "If you both own and control this and a creature named
    ``partner``, exile them, then meld them into ``into``" on top of the stack (CR 701.42a, 712.4a):
    nothing happens unless the source is on the battlefield, owned and controlled by the ability's
    controller; then one outcome per creature named ``partner`` (front face up) that player owns
    and controls, interchangeable ones counted once — both leave (what was attached to them falls off, 704.5m) and one new permanent,
    untapped, uncountered and summoning sick, shows ``into``; with no such creature, nothing."""
    top = state.zone("stack")[0]
    assert top.ability is not None
    src = state.find(top.ability.source)
    you = top.controller
    unchanged = [summary(state)]
    if src is None or src.zone != "battlefield" or src.owner != you or src.controller != you:
        return unchanged
    partners = [o for o in state.battlefield if o.id != src.id and o.owner == you and o.controller == you
                and o.front is None and o.card is not None and o.card.name.split(" // ")[0] == partner]
    # interchangeable creatures (equal but for their ids) are one choice
    classes: dict[Any, GameObject] = {}
    for p in sorted(partners, key=lambda o: o.id):
        classes.setdefault((p.card, p.owner, p.controller, p.tapped, p.sick, p.counters, p.damage, p.attached_to,
                            p.token), p)
    out = []
    for p in classes.values():
        gone = {src.id, p.id}
        rows = [(o, o.card.name if o.front is not None and o.card else None) for o in state.battlefield
                if o.id not in gone and o.attached_to not in gone]
        melded = src.with_(tapped=False, sick=True, counters=(), damage=0, attached_to=None)
        rows.append((melded, into))
        ex = sorted((o.front or o.card).name for o in state.zone("exile") if (o.front or o.card))
        out.append({"battlefield": sorted(_row(o, f) for o, f in rows), "exile": ex})
    return out or unchanged

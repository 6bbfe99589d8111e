"""Casting a card's other face: an adventurer card cast as its Adventure (CR 715).

CR 715.3: as a player casts an adventurer card, they choose whether to cast it
as an Adventure; if they do, the spell has only its alternative
characteristics (the Adventure's name, mana cost, types, text) while on the
stack (CR 715.3b), and legality is judged on those (715.3a). Elsewhere, and
when cast normally, the card has only its normal characteristics (715.4).

So casting the Adventure is answered on the situation in which the card has
the Adventure's characteristics: :func:`with_face` replaces the card of that
one object (same id, zone, owner) by the face's :class:`~solver.cards.Card`
(from :func:`solver.cards.other_faces`). Every question about the cast —
timing (an Adventure instant may be cast any time an instant may), targets,
total cost and cost changes (Sunscape Familiar sees a red instant), spending
restrictions — then follows unchanged.

The ``actions`` entries are made by :func:`solver.actions.face_entries` on
that situation. Contract extensions (documented in docs/extensions.md): ``pay`` and
``targets`` queries take ``face: <face name>`` with ``cast``; ``actions``
entries for casting a face carry ``face: <face name>`` (an entry without it
casts the card normally). Only from the hand: going on an adventure and
casting the creature from exile (715.3d) is not recorded by a situation.
"""
from __future__ import annotations

from dataclasses import replace
from typing import Any

from .errors import QueryError
from .state import GameState

__all__ = ["castable_faces", "faces_of", "select_face", "with_face"]


def faces_of(o: Any) -> tuple:
    """The other faces of the object's card that may be cast instead (an Adventure, CR 715.3)."""
    if o.card is None or o.card.data.layout != "adventure":
        return ()
    from .cards import other_faces

    return other_faces(o.card)


def with_face(state: GameState, oid: str, face: Any) -> GameState:
    """The situation with object ``oid``'s card replaced by ``face`` (CR 715.3b: the spell
    has only the Adventure's characteristics)."""
    return replace(state, objects=tuple(replace(o, card=face) if o.id == oid else o for o in state.objects))


def castable_faces(state: GameState, player: str) -> list[tuple[str, Any]]:
    """``(object id, face)`` for every card in ``player``'s hand with an Adventure."""
    return [(o.id, f) for o in state.objects if o.zone == "hand" and o.owner == player
            for f in faces_of(o)]


def select_face(state: GameState, query: dict) -> tuple[GameState, dict]:
    """For a ``pay`` or ``targets`` query with ``face`` (and ``cast``): the situation in which
    the cast card has that face's characteristics, and the query without ``face``."""
    if "face" not in query:
        return state, query
    name = query["face"]
    rest = {k: v for k, v in query.items() if k != "face"}
    oid = query.get("cast")
    if not isinstance(oid, str) or state.find(oid) is None:
        raise QueryError("", "face", "'face' goes with 'cast' naming a card")
    o = state.obj(oid)
    faces = faces_of(o)
    hit = [f for f in faces if isinstance(name, str) and f.data.name.lower() == name.lower()]
    if not hit:
        have = ", ".join(repr(f.data.name) for f in faces) or "none"
        raise QueryError("", "face", f"{o.name} has no other face {name!r} that may be cast (it has: {have})")
    if o.zone != "hand":
        raise QueryError("", "face", f"{o.name} ({oid}) is cast as {hit[0].data.name} from its owner's hand "
                                     f"only (it is in the {o.zone})")
    return with_face(state, oid, hit[0]), rest

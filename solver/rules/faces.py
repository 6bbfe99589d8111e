"""Casting a card's faces: an adventurer card cast as its Adventure (CR 715), a split card
cast as one of its halves (CR 709.3).

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

The ``actions`` entries are made by :func:`solver.engine.actions.face_entries` on
that situation. Contract extensions (documented in docs/extensions.md): ``pay`` and
``targets`` queries take ``face: <face name>`` with ``cast``; ``actions``
entries for casting a face carry ``face: <face name>`` (an entry without it
casts the card normally). Only from the hand: going on an adventure and
casting the creature from exile (715.3d) is not recorded by a situation.

A split card (CR 709) has the combined characteristics of its halves off the
stack (:func:`solver.cards.split_card`) and is cast as one half (709.3): each
half is a face here, and casting the whole card is not an action
(:func:`whole_card_reason`).

A modal double-faced card (CR 712) has only its front face's characteristics
off the stack and battlefield (712.8a); its back face may be cast, or played
if it is a land (712.12): the ``actions`` entries for the back face carry
``face`` (``play_land`` with ``face`` for a land back face).
"""
from __future__ import annotations

from dataclasses import fields, is_dataclass, replace
from typing import Any

from ..core import ir
from ..core.errors import QueryError, UnsupportedCase
from ..core.moves import Candidate, InvalidActionError
from ..core.state import GameState
from ..cards import Card, other_faces

#: Layouts whose other faces (solver/data/card-faces.json.gz) may be cast or played instead of the card.
FACE_LAYOUTS = frozenset({"adventure", "split", "modal_dfc", "aftermath"})
#: Layouts cast only as one of their halves (CR 709.3; aftermath cards are split cards, 702.127a).
SPLIT_LAYOUTS = frozenset({"split", "aftermath"})
#: The alternative costs that cast a transforming double-faced card transformed: disturb from the
#: graveyard (CR 702.146a), more than meets the eye ("converted") from the hand (702.162a).
DISTURB = "disturb"
MTMTE = "more than meets the eye"
TRANSFORMED_CASTS = frozenset({DISTURB, MTMTE})

__all__ = ["CAST_WITH", "KEPT_ON_BATTLEFIELD", "cast_as", "DISTURB", "PROTOTYPE", "prototype_of", "prototyped_card", "with_prototype", "prototype_castable",
           "FACE_LAYOUTS", "SPLIT_LAYOUTS", "at_face", "cast_aftermath", "cast_transformed", "transformed_cast_of",
           "MTMTE", "TRANSFORMED_CASTS",
           "face_alternative", "leaving_zone", "face_zone_reason", "is_aftermath", "fused_card", "is_fused",
           "on_adventure_of", "zone_faces", "castable_faces", "face_candidates", "face_of", "faces_of", "select_face",
           "whole_card_reason", "with_face"]


def faces_of(o: Any) -> tuple:
    """The other faces of the object's card that may be cast instead (an Adventure, CR 715.3; a
    disturb card's back face, cast transformed, 702.146a)."""
    if o.card is None:
        return ()
    if o.card.data.layout == "transform" and o.front is None:
        return other_faces(o.card) if transformed_cast_of(o.card) is not None else ()
    if o.card.data.layout not in FACE_LAYOUTS:
        return ()
    return other_faces(o.card)


def transformed_cast_of(card: Any) -> ir.AlternativeCost | None:
    """The card's "Disturb [cost]" (CR 702.146a: "You may cast this card transformed from your graveyard
    by paying [cost] rather than its mana cost") or "More Than Meets the Eye [cost]" (702.162a: "… cast
    this card converted by paying [cost] …", from the hand), read on its front face, or None."""
    if card is None or card.data.layout != "transform":
        return None
    hit = [a for a in card.abilities if isinstance(a, ir.AlternativeCost) and a.name in TRANSFORMED_CASTS]
    return hit[0] if len(hit) == 1 else None


def cast_transformed(o: Any) -> bool:
    """Is ``o`` a transforming double-faced card showing its back face where its disturb or more than
    meets the eye casts it from (the situation of :func:`with_face`; CR 702.146a, 702.162a, 712.11a)?"""
    opt = transformed_cast_of(o.front) if o.front is not None and o.card is not None else None
    return opt is not None and o.zone == opt.zone


def with_face(state: GameState, oid: str, face: Any) -> GameState:
    """The situation with object ``oid``'s card replaced by ``face`` (CR 715.3b: the spell
    has only the Adventure's characteristics)."""
    return replace(state, objects=tuple(replace(o, card=face, front=o.whole) if o.id == oid else o
                                        for o in state.objects))


def is_aftermath(face: Any) -> bool:
    """Is ``face`` a split card's half with aftermath (CR 702.127a: cast only from a graveyard, then
    exiled)? The half with the keyword line; its other half is cast like a split card's (from the hand)."""
    return face is not None and any(isinstance(a, ir.Keyword) and a.name == "aftermath" for a in face.abilities)


def _shift_targets(value: Any, n: int) -> Any:
    """``value`` (an effect of the IR) with every reference to a target slot moved ``n`` slots on."""
    if isinstance(value, ir.Ref):
        return replace(value, index=value.index + n) if value.kind == "target" else value
    if isinstance(value, tuple):
        return tuple(_shift_targets(v, n) for v in value)
    if is_dataclass(value) and not isinstance(value, type):
        changes = {f.name: _shift_targets(getattr(value, f.name), n) for f in fields(value)}
        return replace(value, **{k: v for k, v in changes.items() if v is not getattr(value, k)})
    return value


def fused_card(card: Any) -> Any | None:
    """The spell a split card with fuse is when both halves are cast from the hand (CR 702.102a), or
    None (not a split card with fuse on both halves, or a half whose spell is not read, or modal):
    the card's combined characteristics (702.102c, 709.4: both names, the combined mana cost and
    colors), both halves' target slots in order and both halves' instructions, the first half's
    before the second's (702.102d)."""
    if card is None or card.data.layout != "split":
        return None
    return card.memo.get(("fused",), lambda: _fused(card))


def _fused(card: Any) -> Any | None:
    halves = other_faces(card)
    fuse = [any(isinstance(a, ir.Keyword) and a.name == "fuse" for a in h.abilities) for h in halves]
    if len(halves) != 2 or not all(fuse) or any(h.spell is None or h.spell.modes for h in halves):
        return None
    first, second = halves[0].spell, halves[1].spell
    assert first is not None and second is not None   # checked above
    spell = ir.SpellBehaviour(targets=first.targets + second.targets,
                              effects=first.effects + _shift_targets(second.effects, len(first.targets)))
    abilities = tuple(a for h in halves for a in h.abilities if not (isinstance(a, ir.Keyword) and a.name == "fuse"))
    return Card(card.data, abilities, spell, "reader")


def is_fused(o: Any) -> bool:
    """Is ``o`` a fused split spell (both halves cast, CR 702.102; object key ``fused``)?"""
    return o.front is not None and o.card is not None and o.card.data.name == o.front.data.name and not o.prototyped


# ---------------------------------------------------------------------------
# Prototype (CR 702.160, 718)
# ---------------------------------------------------------------------------

PROTOTYPE = "prototype"


def prototype_of(card: Any) -> ir.Prototype | None:
    """The card's read "Prototype [mana cost] — [power]/[toughness]" (CR 702.160a), or None."""
    hit = [a for a in (card.abilities if card is not None else ()) if isinstance(a, ir.Prototype)]
    return hit[0] if len(hit) == 1 else None


def prototyped_card(card: Any) -> Any:
    """The card's characteristics when cast prototyped (CR 718.3): the prototype mana cost, power and
    toughness, and that mana cost's colors (718.3b: 202.2, no color indicator); its name, types,
    abilities and text its own (718.3a)."""
    proto = prototype_of(card)
    assert proto is not None   # only for a card with a read prototype
    return card.memo.get(("prototyped",), lambda: _prototyped(card, proto))


def _prototyped(card: Any, proto: ir.Prototype) -> Any:
    letters = tuple(c for c in "WUBRG" if c in proto.mana.colors)
    data = replace(card.data, mana_cost=proto.mana, power=str(proto.power), toughness=str(proto.toughness),
                   colors=letters, color_indicator=None)
    return replace(card, data=data)


def with_prototype(state: GameState, oid: str) -> GameState:
    """The situation with object ``oid`` prototyped (CR 718.3: the spell cast prototyped has only the
    prototyped characteristics, :func:`prototyped_card`; object key ``prototyped``)."""
    return replace(state, objects=tuple(replace(o, card=prototyped_card(o.card), front=o.card, prototyped=True)
                                        if o.id == oid else o for o in state.objects))


def prototype_castable(o: Any, player: str) -> bool:
    """May ``player`` cast ``o`` prototyped from where it is (their hand, CR 601.2a, 702.160a)?"""
    return o.zone == "hand" and o.owner == player and not o.prototyped and prototype_of(o.card) is not None


def _select_prototype(state: GameState, query: dict) -> tuple[GameState, dict]:
    """A ``pay``/``targets`` query with ``alternative: prototype``: the situation with the card prototyped
    and the query without ``alternative`` (the prototype mana cost is the spell's mana cost, CR 718.3)."""
    rest = {k: v for k, v in query.items() if k != "alternative"}
    oid = query.get("cast")
    o = state.find(oid) if isinstance(oid, str) else None
    if o is None or prototype_of(o.card) is None:
        raise QueryError("", "alternative", f"{o.name if o else oid} has no prototype (CR 702.160a)")
    if o.zone != "hand":
        raise QueryError("", "alternative", f"{o.name} ({oid}) is cast prototyped from its owner's hand here "
                                            f"(CR 601.2a; it is in the {o.zone})")
    return with_prototype(state, o.id), rest


def zone_faces(o: Any) -> tuple:
    """The faces the object's card may be cast or played as from where it is: from its owner's hand
    every face but an aftermath half and a disturb back face (CR 715.3, 709.3, 712.11b, 702.127a,
    702.146a), and a split card with fuse as both halves (named by the card's own name,
    :func:`fused_card`, 702.102a); from a graveyard the aftermath halves (702.127a) and a disturb card's
    back face (702.146a); from exile, with a permission to play it (object key ``may_play``, CR 611.2a), as from
    a hand; from elsewhere none."""
    if o.zone == "hand" or (o.zone == "exile" and o.may_play is not None):   # exile: by a permission (611.2a)
        fused = fused_card(o.card) if o.front is None else None
        return tuple(f for f in faces_of(o) if not is_aftermath(f) and _transformed_zone(o, f) in ("", "hand")) + \
            ((fused,) if fused is not None else ())
    if o.zone == "graveyard" and o.card is not None and o.card.data.layout == "aftermath":
        return tuple(f for f in faces_of(o) if is_aftermath(f))
    if o.zone == "graveyard" and o.card is not None and o.card.data.layout == "transform":
        return tuple(f for f in faces_of(o) if _transformed_zone(o, f) == "graveyard")   # disturb (CR 702.146a)
    return ()


def face_alternative(o: Any, face: Any) -> str:
    """The alternative cost casting ``face`` of ``o``'s card needs: ``disturb`` or ``more than meets the
    eye`` for a transforming card's back face (CR 702.146a, 702.162a: the only ways it is cast
    transformed here), else ``""``."""
    opt = transformed_cast_of(o.card) if o.card is not None and face is not o.card else None
    return opt.name if opt is not None else ""


def _transformed_zone(o: Any, face: Any) -> str:
    """Where ``face``, a transforming card's back face, is cast from (``""``: not such a face)."""
    opt = transformed_cast_of(o.card) if o.card is not None and face is not o.card else None
    return opt.zone if opt is not None else ""


def castable_faces(state: GameState, player: str) -> list[tuple[str, Any]]:
    """``(object id, face)`` for every face of ``player``'s cards that may be cast or played instead of
    the card from where it is (:func:`zone_faces`)."""
    return [(o.id, f) for o in state.objects if (o.owner == player and o.zone in ("hand", "graveyard"))
            or (o.zone == "exile" and o.may_play is not None and o.may_play.player == player)
            for f in zone_faces(o)]


def cast_aftermath(o: Any, player: str) -> bool:
    """Is ``o`` a card in ``player``'s graveyard showing its aftermath half (the situation of
    :func:`with_face`), which they may cast from there (CR 702.127a)?"""
    return o.zone == "graveyard" and o.owner == player and o.front is not None and is_aftermath(o.card)


#: The ways to cast a card that exile it instead of putting it anywhere else as it leaves the stack
#: (CR 702.34a flashback, 702.133a jump-start): the object key ``cast_with``.
EXILED_FROM_STACK = frozenset({"flashback", "jump-start"})

#: The ways to cast a card the permanent it becomes remembers (object key ``cast_with`` on the battlefield):
#: it escaped (CR 702.138b-c), its evoke cost was paid (702.74a).
KEPT_ON_BATTLEFIELD = frozenset({"escape", "evoke"})

#: Every value of the object key ``cast_with``: the alternative costs and permissions a spell records —
#: also ``overload`` (CR 702.96b: the spell has no targets and acts on each object its text describes).
CAST_WITH = EXILED_FROM_STACK | KEPT_ON_BATTLEFIELD | {"overload"}


def cast_as(o: Any, how: str, times: int = 1) -> bool:
    """Was ``o`` — a spell, or the permanent a spell became — cast that way, as its record says? ``kicked``:
    kicked at least ``times`` times (CR 702.33d-e, object key ``kicked``); ``evoke``, ``escape``: cast with
    that alternative cost (702.74a, 702.138b; object key ``cast_with``); ``casualty``: its casualty cost was
    paid (702.153a; object key ``casualty``)."""
    if o is None:
        return False
    if how == "kicked":
        return o.kicked >= times
    if how == "casualty":
        return bool(getattr(o, "casualty", False))
    return o.cast_with == how


def leaving_zone(o: Any, zone: str) -> str:
    """Where an object that leaves its zone for ``zone`` goes: an aftermath half (always cast from a
    graveyard) leaving the stack is exiled instead of being put anywhere else (CR 702.127a); a spell or
    permanent whose face up says "If <this> would be put into a graveyard from anywhere, exile it
    instead" (a disturb card's back face, 702.146; :class:`~solver.core.ir.ExileInstead`, 614.1a) is
    exiled instead of being put into a graveyard; a spell cast with flashback or jump-start (``cast_with``)
    leaving the stack is exiled (702.34a, 702.133a)."""
    if o.zone == "stack" and o.ability is None and not o.copy and o.front is not None and is_aftermath(o.card):
        return "exile"
    if o.zone == "stack" and o.ability is None and not o.copy and getattr(o, "cast_with", None) in EXILED_FROM_STACK:
        return "exile"   # cast with flashback or jump-start (CR 702.34a, 702.133a)
    if zone == "graveyard" and o.zone in ("stack", "battlefield") and o.card is not None \
            and any(isinstance(a, ir.ExileInstead) for a in o.card.abilities):
        return "exile"
    return zone


def on_adventure_of(o: Any, player: str) -> bool:
    """Is ``o`` an adventurer card of ``player``'s in exile "on an adventure", which they may cast as
    the creature from there (CR 715.3d; object key ``on_adventure``)?"""
    return bool(o.on_adventure) and o.zone == "exile" and o.owner == player and o.card is not None


def face_of(o: Any, name: str) -> Any | None:
    """The face named ``name`` (case-insensitive) that the object's card may be cast or played as, or None."""
    hit = [f for f in zone_faces(o) if f.data.name.lower() == name.lower()]
    return hit[0] if hit else None


def face_candidates(state: GameState, player: str) -> list[Candidate]:
    """An action head per face of ``player``'s hand cards that may be cast or played instead of the
    card (CR 715.3, 709.3, 712.11b): ``play_land`` for a land face (712.12, 305.9), else ``cast``."""
    out = []
    for oid, f in castable_faces(state, player):
        land = "Land" in f.data.types
        out.append(Candidate.make("play_land" if land else "cast", oid, face=f.data.name))
        if land and pays_life_as_enters(f):   # "As this land enters, you may pay N life" (CR 614.12)
            out.append(Candidate.make("play_land", oid, face=f.data.name, pay_life=1))
    return out


def pays_life_as_enters(card: Card) -> bool:
    """Has ``card`` "As this land enters, you may pay N life. If you don't, it enters tapped." (CR 614.12)?"""
    return any(isinstance(a, ir.EntersWith) and a.pay_life for a in card.abilities)


def at_face(state: GameState, cand: Candidate) -> tuple[GameState, Candidate]:
    """The situation in which the card of a head with ``face`` has only that face's characteristics
    (:func:`with_face`; CR 715.3b, 709.3b, 712.11b) and the head without ``face`` — with the alternative
    cost the face needs (:func:`face_alternative`: a disturb card's back face is cast with disturb,
    702.146a); a head without ``face`` unchanged. Raises :class:`~solver.core.moves.InvalidActionError` when the object has no
    such face that may be cast or played from where it is (the hand)."""
    if not cand.face:
        return state, cand
    o = state.find(cand.object)
    if o is None:
        raise InvalidActionError(f"there is no object '{cand.object}'")
    f = face_of(o, cand.face)
    if f is None:
        have = ", ".join(repr(x.data.name) for x in faces_of(o)) or "none"
        raise InvalidActionError(f"{o.name} ({o.id}) has no face {cand.face!r} that may be cast or played "
                                 f"(it has: {have})")
    return with_face(state, o.id, f), replace(cand, face="", alternative=cand.alternative or face_alternative(o, f))


def face_zone_reason(state: GameState, cand: Candidate) -> str | None:
    """Why the head's ``face``, a face the card has, can't be cast or played from where the card is
    (an Adventure or a split half only from the hand, an aftermath half only from a graveyard:
    CR 715.3, 709.3, 702.127a), or None."""
    o = state.find(cand.object) if cand.face else None
    if o is None or face_of(o, cand.face) is not None:
        return None
    hit = [f for f in faces_of(o) if f.data.name.lower() == cand.face.lower()]
    if not hit:
        return None
    return f"{o.name} ({o.id}) is cast or played as {hit[0].data.name} from {_face_zone(o, hit[0])} only, and it is in the {o.zone}"


def _face_zone(o: Any, face: Any) -> str:
    if is_aftermath(face):
        return "a graveyard (aftermath, CR 702.127a)"
    if _transformed_zone(o, face) == "graveyard":
        return "its owner's graveyard, with disturb (CR 702.146a)"
    if _transformed_zone(o, face) == "hand":
        return "its owner's hand, with more than meets the eye (CR 702.162a)"
    return "its owner's hand (CR 715.3, 709.3)"


def whole_card_reason(o: Any) -> str | None:
    """Why the card can't be cast as a whole, or None: a split card is cast as one of its
    halves (CR 709.3), named by ``face``."""
    if o.card is None or o.front is not None or o.card.data.layout not in SPLIT_LAYOUTS or not faces_of(o):
        return None
    names = " or ".join(f.data.name for f in faces_of(o))
    return f"{o.name} is a split card: it is cast as one of its halves, {names} (CR 709.3; face: <half>)"


def select_face(state: GameState, query: dict) -> tuple[GameState, dict]:
    """For a ``pay`` or ``targets`` query with ``face`` (and ``cast``): the situation in which
    the cast card has that face's characteristics, and the query without ``face``. Without
    ``face``, casting a split card (which is cast as one half) raises
    :class:`~solver.core.errors.UnsupportedCase` naming the halves (the query answers
    ``unsupported`` with that reason, as it did before the halves were known)."""
    if str(query.get("alternative", "")).lower() == PROTOTYPE and "face" not in query:
        return _select_prototype(state, query)
    if "face" not in query:
        oid = query.get("cast")
        o = state.find(oid) if isinstance(oid, str) else None
        why = whole_card_reason(o) if o is not None else None
        if why:
            raise UnsupportedCase(why)
        opt = transformed_cast_of(o.card) if o is not None and o.front is None else None
        if o is not None and opt is not None and str(query.get("alternative", "")).lower() == opt.name:
            back = faces_of(o)
            if back:   # disturb, more than meets the eye cast the card transformed (CR 702.146a, 702.162a)
                return select_face(state, {**query, "face": back[0].data.name})
        return state, query
    name = query["face"]
    rest = {k: v for k, v in query.items() if k != "face"}
    oid = query.get("cast")
    if not isinstance(oid, str) or state.find(oid) is None:
        raise QueryError("", "face", "'face' goes with 'cast' naming a card")
    o = state.obj(oid)
    fused = fused_card(o.card) if o.front is None else None
    faces = faces_of(o) + ((fused,) if fused is not None else ())   # both halves fused (CR 702.102a)
    hit = [f for f in faces if isinstance(name, str) and f.data.name.lower() == name.lower()]
    if not hit:
        have = ", ".join(repr(f.data.name) for f in faces) or "none"
        raise QueryError("", "face", f"{o.name} has no other face {name!r} that may be cast (it has: {have})")
    if hit[0] not in zone_faces(o):
        raise QueryError("", "face", f"{o.name} ({oid}) is cast as {hit[0].data.name} from {_face_zone(o, hit[0])} "
                                     f"only (it is in the {o.zone})")
    need = face_alternative(o, hit[0])
    if need and str(query.get("alternative", "")).lower() != need:
        raise QueryError("", "face", f"{o.name} ({oid}) is cast transformed, as {hit[0].data.name}, only with "
                                     f"{need} (CR 702.146a): add 'alternative: {need}'")
    return with_face(state, oid, hit[0]), rest

"""Which face of a multi-face card an object shows, as a situation records it (contract §1
extension, docs/situation-format.md "Faces").

An object's ``card`` names the card (its full name, ``Front // Back``, or a face's own name);
``face`` names the face it shows when that is not its front. What a face may be depends on the
zone (CR 712.8a: off the battlefield and the stack only the front face exists; 709.4: a split
card off the stack has both halves' characteristics combined; 715.4: an adventurer card
elsewhere than the stack has only its normal characteristics):

* on the battlefield — a transforming or modal double-faced permanent with its back face up
  (712.8d; a modal double-faced card played or cast as its back face, 712.11b, 712.12), a flipped
  flip card (710.1), a melded permanent (712.4; named by its melded face, the object is both
  cards);
* on the stack — the face or half cast: an Adventure (715.3b), a split card's half (709.3b; a split
  card on the stack is always one of them, or both fused), a modal double-faced card's back face
  (712.11b), a transforming card cast transformed (disturb, 702.146b; 712.11a).

``on_adventure`` (exile only, an adventurer card) records "on an adventure" (715.3d); ``fused``
(stack only, a split card with fuse) a spell cast as both halves (702.102).
"""
from __future__ import annotations

import re
from dataclasses import dataclass

from ..cards import Card, CardDB, face_named, faces
from ..core.ir import Keyword
from ..cards.faces import cards_with_face
from ..rules.faces import fused_card

__all__ = ["FaceUp", "FaceError", "face_up", "fused_up", "by_face_name", "day_night_problem"]

#: The abilities that cast a transforming card with its back face up (CR 702.146b disturb, 702.162 More
#: Than Meets the Eye).
_CAST_TRANSFORMED = re.compile(r"^(?:Disturb|More Than Meets the Eye)\b", re.M)
#: Layouts whose face a permanent may show other than its front (CR 712.8d, 710.1, 712.4).
BATTLEFIELD_FACES = frozenset({"transform", "modal_dfc", "flip", "meld"})
#: Layouts a spell may have been cast as another face of (CR 715.3, 709.3, 712.11, 702.146).
STACK_FACES = frozenset({"adventure", "split", "aftermath", "modal_dfc", "transform"})


class FaceError(ValueError):
    """A face the object can't show there: ``key`` is the object's key the message is about."""

    def __init__(self, key: str, message: str):
        super().__init__(message)
        self.key = key


@dataclass(frozen=True)
class FaceUp:
    """The object's card values: ``card`` the characteristics it has (the face up or cast),
    ``front`` the card itself when that is another face, ``melded_with`` a melded permanent's
    other card, ``on_adventure`` (715.3d)."""

    card: Card
    front: Card | None = None
    melded_with: Card | None = None
    on_adventure: bool = False


def by_face_name(name: str, cards: CardDB) -> tuple[Card, str] | None:
    """A later face's own name ("Insectile Aberration", "Brisela, Voice of Nightmares") written as
    the card: the card it is a face of and that face's name; None when ``name`` is no later face
    or is a card's own name in the database (that card wins, as for front faces)."""
    hits = [(full, i) for full, i in cards_with_face(name) if i > 0]
    if not hits:
        return None
    own = cards.canonical_name(name)
    if own is not None and " // " not in own and not _is_back_face_entry(cards.get(own)):
        return None                      # a card of that name in its own right
    full = sorted(hits)[0][0]            # a meld result is the back of two cards: the first by name
    card = cards.get(full)
    hit = face_named(card, name)
    return (card, hit.data.name) if hit is not None else None


def _is_back_face_entry(card: Card) -> bool:
    """The database's own entry for a transform or meld back face (its layout is the card's)."""
    return card.data.layout in ("transform", "meld") and " // " not in card.data.name


def face_up(card: Card, face: str | None, zone: str, cards: CardDB, *, on_adventure: bool = False) -> FaceUp:
    """The values of an object of ``card`` in ``zone`` showing ``face`` (None: its front; a split
    card on the stack must name its half). Raises :class:`FaceError`."""
    layout = card.data.layout
    if on_adventure and (zone != "exile" or layout != "adventure"):
        raise FaceError("on_adventure", "'on_adventure' is for an adventurer card in exile (CR 715.3d)"
                        if layout == "adventure" else f"{card.name} is not an adventurer card (CR 715)")
    known = faces(card)
    split = layout in ("split", "aftermath")
    if face is not None and not split and known and known[0].data.name.lower() == face.lower():
        face = None                      # its front face: the card itself
    if face is None:
        if zone == "stack" and split and known:
            halves = " or ".join(f.data.name for f in known)
            raise FaceError("face", f"{card.name} is a split card: on the stack it is the half that was cast "
                                    f"(CR 709.3): give face: {halves}")
        return FaceUp(card, on_adventure=on_adventure)
    if not known:
        raise FaceError("face", f"{card.name} has no other faces in the card data"
                        + (" (it is single-faced)" if " // " not in card.name else ""))
    hit = face_named(card, face)
    if hit is None:
        have = ", ".join(repr(f.data.name) for f in known)
        raise FaceError("face", f"{card.name} has no face {face!r} (its faces: {have})")
    _check_zone(card, hit, zone)
    melded = _meld_partner(card, hit, cards) if layout == "meld" else None
    return FaceUp(hit, front=card, melded_with=melded)


def fused_up(card: Card, face: str | None, zone: str) -> FaceUp:
    """A fused split spell (object key ``fused``): a split card with fuse on the stack, cast as both
    halves (CR 702.102a); it has the card's combined characteristics and both halves' text
    (702.102c-d, :func:`solver.rules.faces.fused_card`). Raises :class:`FaceError`."""
    if face is not None:
        raise FaceError("fused", "'fused' is both halves: give no 'face' with it (CR 702.102)")
    if zone != "stack":
        raise FaceError("fused", f"'fused' is for a split spell on the stack (CR 702.102), not in the {zone}")
    fused = fused_card(card)
    if fused is None:
        raise FaceError("fused", f"{card.name} is not a split card with fuse whose halves are read (CR 702.102a)")
    return FaceUp(fused, front=card)


def _check_zone(card: Card, face: Card, zone: str) -> None:
    layout = card.data.layout
    if zone == "battlefield":
        if layout not in BATTLEFIELD_FACES:
            raise FaceError("face", f"{card.name} (layout {layout}) can't be on the battlefield as {face.name}: "
                            + ("a permanent adventurer card has only its normal characteristics (CR 715.4)"
                               if layout == "adventure" else "only its front face or whole card is a permanent"))
        return
    if zone == "stack":
        if layout not in STACK_FACES:
            raise FaceError("face", f"{card.name} (layout {layout}) is not cast as {face.name}: a spell has "
                                    "its front face's characteristics (CR 712.8a)")
        if "Land" in face.data.types:
            raise FaceError("face", f"{face.name} is a land: it is played, never cast (CR 305.1, 305.9)")
        if layout == "transform" and not _CAST_TRANSFORMED.search(card.data.text):
            raise FaceError("face", f"{card.name} is cast with its front face up (CR 712.11a): only an ability "
                                    "such as disturb casts a transforming card transformed (702.146b)")
        return
    raise FaceError("face", f"in the {zone} {card.name} has only its "
                            + ("combined characteristics (CR 709.4)" if layout in ("split", "aftermath")
                               else "front face's characteristics (CR 712.8a, 715.4)")
                            + f"; {face.name} is a face on the battlefield or stack only")


def day_night_problem(card: Card | None, front: Card | None, day_night: str | None) -> str | None:
    """Why a permanent showing ``card`` (the card itself ``front``, when another face) can't be so with
    the game's ``day_night``, or None: while it is night a daybound permanent shows its nightbound face,
    while it is day a nightbound one its daybound face (CR 702.145c–d, 730.2), and once one is on the
    battlefield it is day or night (702.145d: it becomes day as one enters when it is neither)."""
    if card is None:
        return None
    words = {a.name for a in card.abilities if isinstance(a, Keyword)}
    if not words & {"daybound", "nightbound"}:
        return None
    if day_night is None:
        return (f"{card.name} has {'daybound' if 'daybound' in words else 'nightbound'}: once it is on the "
                "battlefield it is day or night (CR 702.145d) — give the top-level day_night")
    if day_night == "night" and "daybound" in words:
        return f"it is night: {card.name} (daybound) shows its nightbound face (CR 702.145c)"
    if day_night == "day" and "nightbound" in words:
        return f"it is day: {card.name} (nightbound) shows its daybound face (CR 702.145c)"
    return None


def _meld_partner(card: Card, face: Card, cards: CardDB) -> Card:
    """The other card of the pair that melds into ``face`` (CR 712.4a)."""
    others = [full for full, i in cards_with_face(face.name) if i > 0 and full != card.name]
    if len(others) != 1:
        raise FaceError("face", f"{face.name} is melded from two cards, and the card data has no single other "
                                f"card beside {card.name}")
    return cards.get(others[0])

"""Suspend from the hand: a special action (CR 116.2f, 702.62a).

Rules layer for what :mod:`solver.reader.casting_options` reads as
:class:`~solver.core.ir.Suspend` ("Suspend N—[cost]"):

* a player who has a card with suspend in their hand may exile it, paying its
  suspend cost, with N time counters on it (CR 702.62a). This is a special
  action (CR 116.2f): it doesn't use the stack, and the player keeps priority
  (CR 116.3);
* they may take it any time they have priority, but only if they could begin
  to cast that card by putting it onto the stack (CR 116.2f, 601.2a): the
  card's casting timing — an instant or a card with flash any time they have
  priority, anything else only when they could cast a sorcery (CR 307.1,
  702.8a), "as though it had flash" permissions and "can't cast" / "only as a
  sorcery" rules of the situation (:mod:`solver.rules.casting_rules`, CR 601.3)
  included. Whether the spell would have legal targets, or a payable (or any)
  mana cost, doesn't matter: only beginning to cast it does (Living End has
  no mana cost and is suspended all the same);
* the suspend cost is a cost of the special action, not of a spell: cost
  increases and reductions of spells don't change it (CR 601.2f is about
  casting), and mana whose spending is restricted to spells or abilities can't
  pay it (CR 106.6). It is paid through the payment model like any mana cost
  (the ``pay`` query's ``suspend: <id>``); every payment exiles the same card,
  so payments differ only in their mana.

What suspend does afterwards — removing a time counter at the beginning of its
owner's upkeep, casting the card without paying its mana cost when the last is
removed, haste for a creature cast that way — is the keyword's two triggered
abilities in exile: an unread part of the card (``affects: triggers``, active
in exile only, :func:`solver.rules.soundness.unread.active`).
"""
from __future__ import annotations

from ..core import ir
from ..core.state import GameObject

__all__ = ["suspend_of", "suspend_reason"]


def suspend_of(o: GameObject) -> ir.Suspend | None:
    """The card's printed "Suspend N—[cost]" (it works from the hand, CR 113.6, 702.62a), or None."""
    if o.card is None:
        return None
    found = [a for a in o.card.abilities if isinstance(a, ir.Suspend)]
    return found[0] if found else None


def suspend_reason(player: str, o: GameObject, cast_why: str | None) -> str | None:
    """Why ``player`` can't suspend ``o`` now (before its cost), or None (CR 116.2f, 702.62a).

    Priority is checked by the caller (:func:`solver.engine.actions.timing_reason`), which also gives
    ``cast_why``: why the card couldn't be cast now by its timing (None: it could,
    :func:`solver.engine.actions.cast_timing_reason`)."""
    s = suspend_of(o)
    if s is None:
        return f"{o.name} ({o.id}) has no suspend (CR 702.62a)"
    if o.zone != "hand" or o.owner != player:
        return f"{o.name} ({o.id}) is not in {player}'s hand: only a card in its owner's hand is suspended (CR 702.62a)"
    if "Land" in o.card.data.types:   # type: ignore[union-attr]
        return f"{o.name} is a land: it can't be cast, so it can't be suspended (CR 305.9, 116.2f)"
    if cast_why:                     # "could begin to cast that card" (CR 116.2f)
        return f"{cast_why}; a card is suspended only when it could be cast (CR 116.2f)"
    return None

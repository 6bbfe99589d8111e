"""Brute-force reference for the counterspell riders (CR 701.6a, 614.1a, 202.3) and the damage and
dying replacements of helper "counters" (CR 614.1a, 615), written from the rules, independent of the
engine: plain enumeration over the objects of a small situation, reading only card data.

* :func:`spell_mana_value` — a spell's mana value on the stack: its mana cost's, X counting as the
  announced value (CR 202.3, 107.3);
* :func:`counter_targets` — the spells a "Counter target <types> spell [with mana value N …]" may
  target (CR 115.1: spells, never abilities);
* :func:`countered_zone` — where a countered spell goes (CR 701.6a: its owner's graveyard; exile with
  "If that spell is countered this way, exile it instead …", 614.1a; a copy ceases to exist, 707.10a).
"""
from __future__ import annotations

from typing import Iterable, Sequence

from mtgsolve.solver.cards import get_card


def spell_mana_value(name: str, x: int = 0) -> int:
    """CR 202.3: the mana value of a spell named ``name`` with X announced as ``x``."""
    symbols = get_card(name).data.mana_cost
    return symbols.mana_value + x * symbols.x_count


def counter_targets(stack: Sequence[tuple[str, str, int]], types: Iterable[str] = (), nontypes: Iterable[str] = (),
                    least: int | None = None, most: int | None = None) -> set[str]:
    """The ids among ``stack`` ((id, card name, x) of each spell) that "counter target spell" of these
    types (any of; none: any spell), none of ``nontypes``, and mana value in [least, most] may target."""
    out = set()
    want, avoid = set(types), set(nontypes)
    for oid, name, x in stack:
        card_types = set(get_card(name).data.types)
        mv = spell_mana_value(name, x)
        if want and not want & card_types:
            continue
        if avoid & card_types:
            continue
        if (least is not None and mv < least) or (most is not None and mv > most):
            continue
        out.add(oid)
    return out


def countered_zone(exile_rider: bool, copy: bool = False) -> str | None:
    """Where a countered spell goes; None: it ceases to exist."""
    if copy:
        return None
    return "exile" if exile_rider else "graveyard"


def after_exile_if_dies(creatures: Sequence[tuple[str, int, int]], dealt: dict[str, int],
                        marked: Iterable[str]) -> dict[str, str]:
    """Each creature ((id, toughness, damage already marked)) after a resolution that dealt it ``dealt[id]``
    damage and made "if it would die this turn, exile it instead" apply to the ids of ``marked``: ``exile``
    (lethal damage, CR 704.5g, replaced, 614.1a), ``graveyard`` (lethal, not marked), ``marked`` (survives,
    marked) or ``battlefield``."""
    marks = set(marked)
    out = {}
    for oid, toughness, damage in creatures:
        lethal = damage + dealt.get(oid, 0) >= toughness
        if lethal:
            out[oid] = "exile" if oid in marks else "graveyard"
        else:
            out[oid] = "marked" if oid in marks else "battlefield"
    return out


def damage_or_counters(amount: int, combat: bool, source_controller: str, target_controller: str,
                       replacers: Iterable[str]) -> tuple[int, int]:
    """(damage marked, -1/-1 counters put) when ``amount`` damage would be dealt to a creature, with
    "If a source you control would deal noncombat damage to a creature an opponent controls, put that many
    -1/-1 counters on that creature instead" controlled by each player of ``replacers`` (CR 614.1a)."""
    if not combat and source_controller in set(replacers) and target_controller != source_controller:
        return 0, amount
    return amount, 0


def connive_reflexive_outcomes(hand: Sequence[str], drawn: str, spells_on_stack: int) -> int:
    """The distinct outcomes of "it connives. When it connives this way, return up to one target spell to its
    owner's hand." resolving (CR 701.50a, 603.12, 603.3d): a discard of one card among the hand and the card
    drawn (cards of one name interchangeable), times the reflexive ability's target choices — each spell on
    the stack, or none ("up to one", CR 601.2c)."""
    return len(set(hand) | {drawn}) * (spells_on_stack + 1)


def exiled_card_tokens(exiled: Iterable[tuple[str, str, bool]]) -> dict[str, int]:
    """Owner → the X of the X/X token they create as "the exiled card's owner creates an X/X … token, where X is
    the mana value of the exiled card" resolves (CR 607.2a; the printed cards' rulings: the sum of the mana
    values of an owner's exiled cards; no linked card, no token): ``exiled`` is (owner, card name, linked)
    for each card in exile."""
    out: dict[str, int] = {}
    for owner, name, linked in exiled:
        if linked:
            out[owner] = out.get(owner, 0) + spell_mana_value(name)
    return out

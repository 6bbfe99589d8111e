"""Activated keyword abilities whose cost is a mana cost (CR 702): the keyword line "Unearth {2}{B}"
is read as the activated ability the rule defines — its cost, the zone it works from (CR 113.6k),
its timing and its target slots — with the effect the rule gives unread (an
:class:`~solver.core.ir.UnreadEffect` with the rule's words: ``resolve`` of the ability answers
``unsupported``):

=============  ==========================================================================  =========
keyword        the ability (its CR definition)                                              works in
=============  ==========================================================================  =========
unearth        702.84a: "[Cost]: Return this card from your graveyard to the battlefield.   graveyard
               It gains haste. Exile it at the beginning of the next end step. …
               Activate only as a sorcery."
embalm         702.128a: "[Cost], Exile this card from your graveyard: Create a token …     graveyard
               Activate only as a sorcery."
eternalize     702.129a: likewise, a 4/4 black Zombie token copy                            graveyard
scavenge       702.97a: "[Cost], Exile this card from your graveyard: Put a number of +1/+1  graveyard
               counters equal to the power of the card you exiled on target creature.
               Activate only as a sorcery."
level up       702.87a: "[Cost]: Put a level counter on this permanent. Activate only as a     battlefield
               sorcery."
outlast        702.107a: "[Cost], {T}: Put a +1/+1 counter on this creature. Activate only as   battlefield
               a sorcery."
=============  ==========================================================================  =========

Only a mana cost is read as the parameter ("Embalm—Discard a card" and other costs stay unread).
"""
from __future__ import annotations

from typing import Sequence

from ..core.ir import ActivatedAbility, Cost, Filter, TargetSpec, UnreadEffect
from . import grammar as g
from .tokens import Token

__all__ = ["KEYWORD_ABILITIES", "line_keyword_ability"]

#: keyword words → (zone, the card exiled as the cost, {T} in the cost, a target creature, the effect)
KEYWORD_ABILITIES: dict[tuple[str, ...], tuple[str, bool, bool, bool, str]] = {
    ("unearth",): ("graveyard", False, False, False,
                   "Return this card from your graveyard to the battlefield. It gains haste. Exile it at the "
                   "beginning of the next end step. If it would leave the battlefield, exile it instead of putting "
                   "it anywhere else."),
    ("embalm",): ("graveyard", True, False, False, "Create a token that's a copy of it, except it's a white "
                                                   "Zombie in addition to its other types and has no mana cost."),
    ("eternalize",): ("graveyard", True, False, False, "Create a token that's a copy of it, except it's a 4/4 "
                                                       "black Zombie in addition to its other types and has no "
                                                       "mana cost."),
    ("scavenge",): ("graveyard", True, False, True, "Put a number of +1/+1 counters equal to the power of the card "
                                                   "you exiled on target creature."),
    ("level", "up"): ("battlefield", False, False, False, "Put a level counter on this permanent."),
    ("outlast",): ("battlefield", False, True, False, "Put a +1/+1 counter on this creature."),
}


def line_keyword_ability(toks: Sequence[Token], ctx, raw: str) -> tuple[list, int]:
    """"<keyword> <mana cost>" alone on its line, for a keyword of :data:`KEYWORD_ABILITIES`."""
    words = tuple(t.low for t in toks[:2])
    key = next((k for k in KEYWORD_ABILITIES if words[:len(k)] == k), None)
    if key is None:
        raise g.NoMatch("not an activated keyword of this table")
    zone, exile_self, tap, target, effect = KEYWORD_ABILITIES[key]
    if zone == "battlefield" and ctx.is_spell:
        raise g.NoMatch("spell text")
    c = g.Cursor(toks)
    c.i = len(key)
    if c.kind() != "SYM":
        raise g.NoMatch("a mana cost")
    mana = g.mana_run(c)
    c.take(".")
    c.end()
    cost = Cost(mana=g.mana_cost(mana), tap=tap, exile_self=exile_self)
    if cost.mana.x_count:
        raise g.NoMatch("an X cost")
    targets = (TargetSpec(Filter(types=frozenset({"Creature"}))),) if target else ()
    return [ActivatedAbility(cost, targets, (UnreadEffect(effect),), True, raw, zone=zone)], 1


#: Equip's effect (CR 702.6a), unread: attaching happens as the ability resolves.

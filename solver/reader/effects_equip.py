"""Attaching (helper equip): the equip keyword (CR 702.6) and "attach … to target creature" effects
(CR 701.3a), read into :class:`~solver.core.ir.Attach`.

* ``clause_attach`` — "attach <SELF | it (the source) | a target Equipment or Aura> to <target creature
  …>": "When this Equipment enters, attach it to target creature you control", "{B}{B}: Attach this
  Equipment to target creature you control", "attach it to up to one target creature you control",
  "Attach target Equipment you control to target creature you control". What is attached must be the
  source or a target of this sentence (an "it" naming another object is not read), and it is attached
  to one target creature or permanent (never a player: CR 303.4 Auras attached to players are not
  read).
* ``reconfigure_abilities`` — "Reconfigure {cost}" (CR 702.151a): the keyword and its two abilities.
* ``equip_ability`` — "Fortify {cost}" (CR 702.67a: target land you control), "Equip {cost}", "Equip [quality] {cost}", "Equip—<cost>" as CR 702.6a and
  702.6c define them: "[Cost]: Attach this permanent to target [quality] creature you control.
  Activate only as a sorcery." The quality is a description the targeting reader holds
  ("legendary creature", "Knight": target Knight you control, "creature token"); a quality it does
  not hold ("commander", "worthy", "planeswalker", "Shaman, Warlock, or Wizard") and a cost it does
  not read (X, "Pay {2} or discard a card") raise :class:`NoMatch` and the line stays unread.
"""
from __future__ import annotations

from typing import Sequence

from ..core.ir import (SELF, ActivatedAbility, Attach, AttachedToCreature, Cost, Effect, Filter, Keyword, TargetSpec, T,
                       Unattach)
from .costs import cost_has_x, only_mana_ability_cost, parse_cost
from .cursor import Cursor, NoMatch
from .descriptions import desc, to_filter
from .phrases import mana_cost, mana_run
from .scope import Scope, object_ref, target_phrase
from .tokens import Token

#: What an Equipment's equip ability may name as its quality (CR 702.6c): creatures, or permanents of
#: a creature subtype ("Equip Knight"); an Equipment equips creatures only (CR 301.5c).
_EQUIPPABLE = (frozenset({"Creature"}), frozenset({"Permanent"}))


def clause_attach(c: Cursor, s: Scope) -> list[Effect]:
    """attach <object> to <target creature or permanent> (CR 701.3a)."""
    c.need("attach")
    before = len(s.targets)
    what = object_ref(c, s)
    if what != SELF and not (what.kind == "target" and what.index == before):
        raise NoMatch("attach an object other than the source or a target of this sentence")
    if what != SELF and s.targets[what.index].filter.players:
        raise NoMatch("a player can't be attached")
    c.need("to")
    to = target_phrase(c, s)
    spec = s.targets[to.index]
    if to.kind != "target" or spec.max != 1 or spec.filter.players or spec.filter.zone != "battlefield":
        raise NoMatch("attach to one target permanent")
    return [Attach(what, to)]


def _quality_filter(toks: Sequence[Token]) -> TargetSpec:
    """The target of "Equip [quality]": target [quality] you control (CR 702.6c); none: a creature."""
    if not toks:
        return TargetSpec(Filter(types=frozenset({"Creature"}), who="you"))
    c = Cursor(toks)
    d = desc(c, targeting=True)
    if not c.done() or d.who != "any" or d.plural or d.other:
        raise NoMatch("equip quality not read")
    d.who = "you"
    f = to_filter(d)
    if f.types not in _EQUIPPABLE or f.players or f.zone != "battlefield":
        raise NoMatch("equip quality: not a creature")
    return TargetSpec(f)


def _equip_cost(c: Cursor) -> tuple[list[Token], Cost]:
    """The quality tokens and the cost of "Equip [quality] {cost}" / "Equip—<cost>." (CR 702.6a)."""
    if c.take("—"):
        rest = list(c.rest())
        if rest and rest[-1].low == ".":
            rest = rest[:-1]
        c.i = len(c.toks)
        return [], parse_cost(rest)
    start = c.i
    while c.peek() is not None and c.kind() != "SYM":
        c.i += 1
    quality = list(c.toks[start:c.i])
    mana = mana_run(c)
    c.end()
    return quality, Cost(mana=mana_cost(mana))


def equip_ability(toks: Sequence[Token], raw: str) -> ActivatedAbility:
    """"Equip [quality] {cost}" / "Equip—<cost>" (CR 702.6a, 702.6c) and "Fortify {cost}" (CR 702.67a:
    "[Cost]: Attach this Fortification to target land you control. Activate only as a sorcery."): an
    activated ability, activated only as a sorcery, whose effect attaches its source to its one target."""
    c = Cursor(toks)
    fortify = c.take("fortify")
    if not fortify:
        c.need("equip")
    quality, cost = _equip_cost(c)
    if cost_has_x(cost) or cost.remove_x_counters is not None:
        raise NoMatch("an equip cost with X")
    only_mana_ability_cost(cost)
    if fortify and quality:
        raise NoMatch("fortify has no quality")
    spec = TargetSpec(Filter(types=frozenset({"Land"}), who="you")) if fortify else _quality_filter(quality)
    return ActivatedAbility(cost, (spec,), (Attach(SELF, T(0)),), True, raw)


def reconfigure_abilities(toks: Sequence[Token], raw: str) -> list[Keyword | ActivatedAbility]:
    """"Reconfigure {cost}" (CR 702.151a): two activated abilities, "[Cost]: Attach this permanent to
    another target creature you control. Activate only as a sorcery." and "[Cost]: Unattach this
    permanent. Activate only if this permanent is attached to a creature and only as a sorcery." —
    after the keyword itself, whose "while attached, it isn't a creature" (702.151b) the
    characteristics view applies. A cost that is not mana ("Reconfigure—Pay {2} or {E}{E}{E}.") is
    not read."""
    c = Cursor(toks)
    c.need("reconfigure")
    cost = Cost(mana=mana_cost(mana_run(c)))
    c.end()
    if cost_has_x(cost):
        raise NoMatch("a reconfigure cost with X")
    other = TargetSpec(Filter(types=frozenset({"Creature"}), who="you", other_than_source=True))
    return [Keyword("reconfigure"),
            ActivatedAbility(cost, (other,), (Attach(SELF, T(0)),), True, raw),
            ActivatedAbility(cost, (), (Unattach(SELF),), True, raw, condition=AttachedToCreature())]

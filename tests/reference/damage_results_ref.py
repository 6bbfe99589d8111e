"""Brute-force reference for what damage does (CR 120.3, 702.2b deathtouch, 702.15b lifelink, 702.80a
wither, 702.90b infect, 702.164b toxic) and the state-based actions that follow (CR 704.5a, 704.5c,
704.5f, 704.5g, 704.5h), written from the rules text alone, independently of solver/engine.

A source's damage to a player is life loss, or poison counters if the source has infect; combat damage
to a player from a creature with toxic N also gives N poison counters. Damage to a creature is marked
damage, or -1/-1 counters if the source has wither or infect. Lifelink gains its controller the damage
dealt. Then: a player at 0 or less life or with ten or more poison counters loses; a creature with
toughness 0 or less, with lethal damage marked, or dealt damage by a deathtouch source is put into its
owner's graveyard (indestructible aside, which these boards never have)."""
from __future__ import annotations

from dataclasses import dataclass, field


@dataclass
class Creature:
    power: int
    toughness: int
    keywords: frozenset[str]
    toxic: int = 0
    damage: int = 0
    minus: int = 0          # -1/-1 counters
    deathtouched: bool = False


@dataclass
class Player:
    life: int
    poison: int = 0
    lifelink_gain: int = field(default=0)


def deal(source: Creature, amount: int, to: Creature | Player, combat: bool, controller: Player) -> None:
    """One source dealing ``amount`` damage (CR 120.3)."""
    if amount <= 0:
        return
    if isinstance(to, Player):
        if "infect" in source.keywords:
            to.poison += amount
        else:
            to.life -= amount
        if combat and source.toxic:
            to.poison += source.toxic
    else:
        if "infect" in source.keywords or "wither" in source.keywords:
            to.minus += amount
        else:
            to.damage += amount
        if "deathtouch" in source.keywords:
            to.deathtouched = True
    if "lifelink" in source.keywords:
        controller.life += amount


def dies(c: Creature) -> bool:
    """CR 704.5f-h."""
    t = c.toughness - c.minus
    return t <= 0 or c.damage >= t or c.deathtouched   # dealt damage by deathtouch, as counters too


def loses(p: Player) -> bool:
    """CR 704.5a, 704.5c."""
    return p.life <= 0 or p.poison >= 10

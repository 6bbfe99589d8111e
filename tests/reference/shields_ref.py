"""Reference for shields (CR 701.15, 615), written from the rules independently of the engine: what
one spell that deals damage to, or destroys, one creature or player does under regeneration shields
and prevention shields, by plain enumeration of the orders the affected player could apply the
prevention shields in (CR 616.1).

A shield is ``(to, source, amount, combat_only)`` (``None``: any recipient / any source / all
damage). Combat-only shields apply to combat damage only (CR 510).
"""
from __future__ import annotations

from dataclasses import dataclass
from itertools import permutations

Shield = tuple[str | None, str | None, int | None, bool]


@dataclass(frozen=True)
class Creature:
    """The one creature of the reference board: its toughness, marked damage, regeneration shields."""

    toughness: int
    damage: int = 0
    regen: int = 0
    tapped: bool = False
    alive: bool = True


def _applies(s: Shield, source: str, target: str, combat: bool) -> bool:
    to, src, _amount, combat_only = s
    return (to is None or to == target) and (src is None or src == source) and (combat or not combat_only)


def prevention_results(shields: tuple[Shield, ...], source: str, target: str, amount: int, combat: bool = False
                       ) -> set[tuple[int, tuple[Shield, ...]]]:
    """Every (damage left, shields left) the affected player can reach by choosing the order of the
    applicable shields (CR 615.7: a shield of N prevents up to N and is reduced by what it prevents;
    616.1: one applied at a time, in the order chosen). ``combat``: combat damage (CR 510.2)."""
    live = [i for i, s in enumerate(shields) if _applies(s, source, target, combat)]
    out: set[tuple[int, tuple[Shield, ...]]] = set()
    for order in permutations(live):
        left, now = amount, list(shields)
        for i in order:
            if left == 0:
                break
            to, src, n, combat_only = now[i]
            if n is None:
                left = 0
            else:
                used = min(n, left)
                left -= used
                now[i] = (to, src, n - used, combat_only)
        kept = tuple(sorted((s for s in now if s[2] != 0), key=repr))
        out.add((left, kept))
    return out


def destroyed(c: Creature, can_regenerate: bool = True) -> Creature:
    """CR 701.8a, 701.15a-b: destroyed — unless a regeneration shield replaces it (tapped, all damage
    removed, one shield used)."""
    if can_regenerate and c.regen > 0:
        return Creature(c.toughness, 0, c.regen - 1, True, True)
    return Creature(c.toughness, c.damage, c.regen, c.tapped, False)


def after_damage(c: Creature, dealt: int) -> Creature:
    """Marked damage (CR 120.3e), then state-based actions: lethal damage destroys it (CR 704.5g)."""
    c = Creature(c.toughness, c.damage + dealt, c.regen, c.tapped, c.alive)
    if c.toughness > 0 and c.damage >= c.toughness:
        return destroyed(c)
    return c


def without(shields: tuple[Shield, ...], gone: str) -> tuple[Shield, ...]:
    """CR 400.7: a permanent that left the battlefield is a new object — the shields that protected it
    or prevented its damage are gone with it."""
    return tuple(s for s in shields if s[0] != gone and s[1] != gone)

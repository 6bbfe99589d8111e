"""Brute-force reference for "this turn" effects and the counter keyword actions (issue 26),
written from the rules independently of the reader and the engine:

* a group pump (CR 611.2c, 613.4c): the creatures of the group as the effect begins get the
  bonus; a creature with toughness 0 or less then dies (CR 704.5f);
* combat restrictions for the turn (CR 509.1b): the blocks of a board without them, minus every
  declaration in which a restricted creature blocks or an unblockable one is blocked (right where
  no combat requirement applies: 509.1c's maximum then plays no part);
* monstrosity (701.37a), adapt (701.46a), bolster (701.39a), support (701.41a) as plain arithmetic
  and choices.
"""
from __future__ import annotations

from typing import Iterable, Sequence


def group_pump(creatures: Sequence[tuple[str, str, int, int]], controller: str, who: str, power: int,
               toughness: int) -> tuple[list[str], list[str], dict[str, tuple[int, int]]]:
    """``creatures``: (id, controller, power, toughness). The ids affected (sorted), those that die
    (sorted), and the power/toughness of each survivor."""
    affected = sorted(i for i, c, _p, _t in creatures
                      if who == "any" or (who == "you") == (c == controller))
    dead, pt = [], {}
    for i, _c, p, t in creatures:
        if i in affected:
            p, t = p + power, t + toughness
        if t <= 0:
            dead.append(i)
        else:
            pt[i] = (p, t)
    return affected, sorted(dead), pt


def restricted_blocks(unrestricted: Iterable[tuple[tuple[str, tuple[str, ...]], ...]], cant_block: set[str],
                      unblockable: set[str]) -> list[tuple[tuple[str, tuple[str, ...]], ...]]:
    """The declarations (sorted (blocker, attackers) pairs) a "can't block" / "can't be blocked"
    restriction leaves."""
    return [d for d in unrestricted
            if not any(b in cant_block or set(a) & unblockable for b, a in d)]


def monstrosity(counters: int, monstrous: bool, n: int) -> tuple[int, bool]:
    """+1/+1 counters and monstrous after monstrosity N (CR 701.37a)."""
    return (counters, True) if monstrous else (counters + n, True)


def adapt(counters: int, n: int) -> int:
    """+1/+1 counters after adapt N (CR 701.46a)."""
    return counters if counters else n


def bolster(toughness: dict[str, int]) -> list[str]:
    """The creatures bolster may choose (CR 701.39a): the least toughness among them."""
    if not toughness:
        return []
    least = min(toughness.values())
    return sorted(i for i, t in toughness.items() if t == least)


def support(creatures: Iterable[str], targets: Iterable[str], source: str | None) -> dict[str, int]:
    """+1/+1 counters put by support (CR 701.41a): one on each target creature still on the
    battlefield, never on the supporting permanent itself."""
    chosen = set(targets)
    return {c: 1 if c in chosen and c != source else 0 for c in creatures}


def explore(library: Sequence[str], lands: set[str], shuffled: bool) -> list[tuple[int, str, str, object]] | None:
    """Explore (CR 701.44a) by a creature on the battlefield, from a library of card names (top
    first): the outcomes as (counters put, card to the hand or "", card to the graveyard or "",
    probability or None), sorted; None where the answer is refused (a nonland card could be put back
    on top of a library otherwise in random order)."""
    from fractions import Fraction
    if not library:
        return [(1, "", "", None)]
    if shuffled and len(library) > 1:
        names = sorted(set(library))
        if len(names) > 1 and any(n not in lands for n in names):
            return None
        tops = [(n, Fraction(library.count(n), len(library)) if len(names) > 1 else None) for n in names]
    else:
        tops = [(library[0], None)]
    out: list[tuple[int, str, str, object]] = []
    for name, p in tops:
        if name in lands:
            out.append((0, name, "", p))
        else:
            out += [(1, "", "", p), (1, "", name, p)]
    return sorted(out, key=repr)

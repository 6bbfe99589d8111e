"""Instance generators for the ``pay`` benchmarks (deterministic by seed).

* :func:`mixed_board` — a board of ``n`` permanents of the kinds the issue
  lists: basics, dual lands, any-color sources, Reflecting Pools, filter lands
  (Fetid Heath, Crystal Quarry), Sol Rings and mana creatures, some of them
  summoning sick or tapped.
* :func:`enumeration_board` — a smaller board with more variety per
  permanent, for listing every payment.

Each returns a situation document (contract §1) without a query.
"""
from __future__ import annotations

import random

BASICS = ["Plains", "Island", "Swamp", "Mountain", "Forest"]
DUALS = ["Tundra", "Taiga", "Tropical Island"]
ANY_COLOR = ["Birds of Paradise", "City of Brass", "Mana Confluence"]
FILTERS = ["Fetid Heath", "Crystal Quarry"]
CREATURES = ["Llanowar Elves", "Birds of Paradise"]

MIX = ([(b, 30) for b in BASICS] + [(d, 8) for d in DUALS] + [(a, 5) for a in ANY_COLOR]
       + [("Reflecting Pool", 6), ("Sol Ring", 5), ("Llanowar Elves", 10)] + [(f, 3) for f in FILTERS])


def _pick(rng: random.Random, table: list[tuple[str, int]]) -> str:
    total = sum(w for _, w in table)
    r = rng.uniform(0, total)
    for name, w in table:
        r -= w
        if r <= 0:
            return name
    return table[-1][0]


def _entry(rng: random.Random, name: str) -> str | dict:
    obj: dict = {"card": name}
    if name in CREATURES and rng.random() < 0.3:
        obj["sick"] = True
    if rng.random() < 0.1:
        obj["tapped"] = True
    return obj if len(obj) > 1 else name


def mixed_board(n: int, seed: int = 0) -> dict:
    """``n`` mixed mana permanents for alice (mostly lands)."""
    rng = random.Random(seed)
    perms = [_entry(rng, _pick(rng, MIX)) for _ in range(n)]
    return {"format": "mtgsolve/1", "name": f"mixed board of {n}", "players": ["alice", "bob"],
            "battlefield": {"alice": perms}}


ENUM_MIX = ([(b, 10) for b in BASICS] + [(d, 4) for d in DUALS] + [("Birds of Paradise", 3), ("City of Brass", 2),
            ("Sol Ring", 3), ("Llanowar Elves", 4), ("Fetid Heath", 2), ("Reflecting Pool", 2),
            ("Adarkar Wastes", 2), ("Vivid Crag", 1)])


def enumeration_board(n: int, seed: int = 0) -> dict:
    """``n`` permanents with more distinct kinds (more distinct payments per permanent)."""
    rng = random.Random(1000 + seed)
    perms = []
    for _ in range(n):
        name = _pick(rng, ENUM_MIX)
        e = _entry(rng, name)
        if name == "Vivid Crag":
            e = {"card": name, "counters": {"charge": 1}}
        perms.append(e)
    return {"format": "mtgsolve/1", "name": f"enumeration board of {n}", "players": ["alice", "bob"],
            "battlefield": {"alice": perms}}

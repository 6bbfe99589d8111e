"""Board generators for the mana benchmarks and the differential tests.

Every generator returns a situation *document* (the mapping of contract §1),
so it goes through the same loader as a user's file
(:func:`solver.io.load.situation_from_dict`). Generators are deterministic
given their ``seed``.

* :func:`could_produce_board` — n permanents, ~20% "could produce" sources
  (Reflecting Pool, Exotic Orchard, Fellwar Stone, Harvester Druid, Naga
  Vitalist) on both sides, forming chains and cycles, plus two replacement
  effects (Contamination and Mana Reflection);
* :func:`mixed_lands_board` — n lands of mixed kinds for ``available_mana`` (few "any color" and filter lands);
* :func:`xmage_board` — the XMage stress board (5 each of the basic lands and
  Wastes, and 3 Cascading Cataracts);
* :func:`order_board` — a Forest with k replacement effects (identical or mixed);
* :func:`random_small_board` — the random small boards of the hypothesis tests.
"""
from __future__ import annotations

import random
from typing import Any

FORMAT = "mtgsolve/1"
BASICS = ["Plains", "Island", "Swamp", "Mountain", "Forest"]
CP_SOURCES = ["Reflecting Pool", "Exotic Orchard", "Fellwar Stone", "Harvester Druid", "Naga Vitalist"]


def doc(battlefield: dict[str, list], players=("alice", "bob"), **kw: Any) -> dict:
    d = {"format": FORMAT, "players": list(players), "battlefield": battlefield}
    d.update(kw)
    return d


def could_produce_board(n: int, seed: int = 0) -> dict:
    """``n`` permanents: 20% could-produce sources split between the players
    (so Orchards and Pools reference each other in chains and cycles), the rest
    lands and mana creatures, plus Contamination and Mana Reflection."""
    rng = random.Random(seed)
    bf: dict[str, list] = {"alice": ["Contamination"], "bob": ["Mana Reflection"]}
    n_cp = max(1, n // 5)
    others = ["Tundra", "Taiga", "Wastes", "Llanowar Elves", "Sol Ring", "Ancient Tomb", "Adarkar Wastes",
              "Birds of Paradise", "Tinder Farm", "Fetid Heath"] + BASICS * 3
    for i in range(n - 2):
        side = "alice" if i % 2 == 0 else "bob"
        card = CP_SOURCES[rng.randrange(len(CP_SOURCES))] if i < n_cp else others[rng.randrange(len(others))]
        bf[side].append(card)
    for side in bf:
        rng.shuffle(bf[side])
    return doc(bf, query={"kind": "could_produce"})


MIXED_LANDS = ["Plains", "Island", "Swamp", "Mountain", "Forest", "Wastes", "Tundra", "Taiga", "Tropical Island",
               "Adarkar Wastes", "Llanowar Wastes", "City of Brass", "Mana Confluence", "Reflecting Pool",
               "Ancient Tomb", "Tinder Farm", "Fetid Heath", "Crystal Quarry", "Cascading Cataracts", "Vivid Crag",
               "Gaea's Cradle", "Exotic Orchard"]


CAPS = {"Cascading Cataracts": 1, "Crystal Quarry": 1, "Fetid Heath": 2, "City of Brass": 2, "Mana Confluence": 2,
        "Reflecting Pool": 2, "Exotic Orchard": 2, "Vivid Crag": 2, "Gaea's Cradle": 1}
"""Most copies of a kind on a mixed board: "any color" and filter lands multiply the
number of exact bundles (five-mana filters alone give thousands)."""


def mixed_lands_board(n: int, seed: int = 0, kinds: int = 8) -> dict:
    """``n`` lands for alice drawn from ``kinds`` kinds of :data:`MIXED_LANDS`
    (capped per kind by :data:`CAPS`), two Forests and a Plains for bob (for
    Exotic Orchard)."""
    rng = random.Random(seed)
    pool = rng.sample(MIXED_LANDS, kinds)
    if all(c in CAPS for c in pool):
        pool.append("Forest")
    lands: list = []
    used: dict[str, int] = {}
    while len(lands) < n:
        c = pool[rng.randrange(len(pool))]
        if used.get(c, 0) >= CAPS.get(c, n):
            continue
        used[c] = used.get(c, 0) + 1
        lands.append({"card": c, "counters": {"charge": 2}} if c == "Vivid Crag" else c)
    return doc({"alice": lands, "bob": ["Forest", "Forest", "Plains"]}, query={"kind": "available_mana"})


def xmage_board() -> dict:
    """5 each of Plains, Island, Swamp, Mountain, Forest, Wastes and 3 Cascading Cataracts."""
    lands = [c for c in BASICS + ["Wastes"] for _ in range(5)] + ["Cascading Cataracts"] * 3
    return doc({"alice": lands}, players=("alice",), query={"kind": "available_mana"})


def order_board(effects: list[str]) -> dict:
    """A Forest tapped for mana with the given replacement-effect permanents (alice's)."""
    return doc({"alice": ["Forest"] + list(effects)},
               query={"kind": "order", "event": {"kind": "tap_for_mana", "object": "forest"}})


# ---------------------------------------------------------------------------
# Random small boards (hypothesis tests draw their choices through `draw`)
# ---------------------------------------------------------------------------

SMALL_PERMANENTS = [
    "Plains", "Island", "Swamp", "Forest", "Wastes", "Snow-Covered Forest", "Tundra", "Taiga",
    "Reflecting Pool", "Exotic Orchard", "Fellwar Stone", "Harvester Druid", "Naga Vitalist",
    "Squandered Resources", "Gaea's Cradle", "Vivid Crag", "Mana Confluence", "City of Brass",
    "Adarkar Wastes", "Llanowar Wastes", "Fetid Heath", "Crystal Quarry", "Tinder Farm", "Cascading Cataracts",
    "Ancient Tomb", "Urborg, Tomb of Yawgmoth", "Llanowar Elves", "Birds of Paradise", "Sol Ring",
    "Chromatic Lantern", "Springleaf Drum", "Contamination", "Mana Reflection", "Nyxbloom Ancient",
    "Mana Flare", "Zhur-Taa Ancient", "Overgrowth", "Wild Growth", "Celestial Dawn", "Blood Moon",
    "Prismatic Omen", "Grizzly Bears", "Thousand-Year Elixir", "Deep Water",
    # activation restrictions (CR 602.5b) and variable amounts (CR 107.3), read from Oracle text
    "Abzan Devotee", "Blazemire Verge", "Mage-Ring Network", "Black Mana Battery", "Viridian Joiner",
    "Everflowing Chalice",
    # "one mana of the chosen color" (the object's `chosen` color), read from Oracle text
    "Coldsteel Heart", "Thriving Bluff",
    # "two mana of different colors", "any color among legendary …", devotion (CR 700.5), "with
    # defender", greatest toughness — read from Oracle text
    "Firemind Vessel", "Mox Amber", "Isamaru, Hound of Konda", "Karametra's Acolyte", "Axebane Guardian",
    "Arbor Adherent",
    # riders of mana abilities (CR 605.1a) and "… instead" amounts, read from Oracle text
    "Cinder Marsh", "Hickory Woodlot", "Grove of the Burnwillows", "Urza's Tower", "Urza's Mine",
    "Leafkin Druid", "Gemstone Caverns",
    # costs: tapping untapped Elves (no {T}), a -0/-1 counter (once each turn), discard hand and
    # sacrifice, only as an instant (CR 118.1, 602.5b, 602.5d)
    "Heritage Druid", "Wall of Roots", "Lion's Eye Diamond",
    # "Activated abilities of artifacts [your opponents control] can't be activated" (CR 602.5)
    "Collector Ouphe", "Karn, the Great Creator",
    # "any color in your commander's color identity" (CR 903.4, 903.4f: no commander, no mana)
    "Arcane Signet"]
#: Commanders a board with Arcane Signet may give its players (command zone, ``commander: true``).
COMMANDERS = ["Krenko, Mob Boss", "Atraxa, Praetors' Voice", "Kenrith, the Returned King", "Karn, Legacy Reforged"]
CREATURES = {"Heritage Druid", "Wall of Roots", "Llanowar Elves", "Birds of Paradise", "Harvester Druid", "Naga Vitalist", "Grizzly Bears",
             "Nyxbloom Ancient", "Zhur-Taa Ancient", "Abzan Devotee", "Viridian Joiner", "Isamaru, Hound of Konda",
             "Karametra's Acolyte", "Axebane Guardian", "Arbor Adherent", "Leafkin Druid"}
COUNTERS = {"Vivid Crag": "charge", "Mage-Ring Network": "storage", "Black Mana Battery": "charge",
            "Everflowing Chalice": "charge", "Hickory Woodlot": "depletion", "Gemstone Caverns": "luck"}
AURAS = {"Overgrowth", "Wild Growth"}
CHOSEN_COLOR = {"Coldsteel Heart": ["white", "blue", "black", "red", "green"],
                "Thriving Bluff": ["white", "blue", "black", "green"]}  # "a color other than red"


def random_small_board(draw, max_permanents: int = 5, cards=SMALL_PERMANENTS, pool: bool = True) -> dict:
    """A small random board. ``draw(kind, *args)`` supplies the random choices:
    ``draw("int", lo, hi)``, ``draw("choice", seq)``, ``draw("bool")`` (a
    hypothesis ``data.draw`` adapter or a ``random.Random`` one)."""
    players = ["alice", "bob"]
    bf: dict[str, list] = {"alice": [], "bob": []}
    effects: list[dict] = []
    n = draw("int", 1, max_permanents)
    names: dict[str, int] = {}
    placed: list[tuple[str, str, str]] = []  # (player, card, id)
    for _ in range(n):
        card = draw("choice", cards)
        who = "alice" if draw("int", 0, 3) else "bob"
        k = names.get(card, 0) + 1
        names[card] = k
        base = _slug(card)
        oid = base if k == 1 else f"{base}-{k}"
        obj: dict[str, Any] = {"card": card, "id": oid}
        if card not in AURAS and draw("int", 0, 4) == 0:
            obj["tapped"] = True
        if card in CREATURES and draw("int", 0, 3) == 0:
            obj["sick"] = True
        if card in COUNTERS:
            obj["counters"] = {COUNTERS[card]: draw("int", 0, 2)}
        if card in ("Abzan Devotee", "Wall of Roots") and draw("bool"):
            obj["activated_this_turn"] = {1: 1}  # "Activate only once each turn": already used
        if card in CHOSEN_COLOR and draw("int", 0, 5):
            obj["chosen"] = {"color": draw("choice", CHOSEN_COLOR[card])}  # else none chosen (CR 106.5)
        bf[who].append(obj)
        placed.append((who, card, oid))
    lands = [(w, oid) for w, c, oid in placed if c not in AURAS and _is_land(c)]
    for who, objs in bf.items():
        for obj in objs:
            if obj["card"] in AURAS:
                if lands:
                    obj["attached_to"] = draw("choice", [oid for _, oid in lands])
                else:
                    obj["card"] = "Grizzly Bears"
            if obj["card"] == "Deep Water" and draw("bool"):
                effects.append({"ability": {"source": obj["id"], "index": 1}, "controller": who})
    if draw("int", 0, 5) == 0:
        effects.append({"card": "Pale Moon", "controller": draw("choice", players)})
    d = doc(bf, players=[{"id": "alice", "life": draw("choice", [20, 20, 2, 1])}, "bob"])
    if any(c == "Arcane Signet" for _, c, _ in placed):   # commanders (CR 903.3), or none (903.4f)
        command = {p: [{"card": draw("choice", COMMANDERS), "commander": True}] for p in players if draw("bool")}
        if command:
            d["command"] = command
    if effects:
        d["effects"] = effects
    if pool and draw("int", 0, 4) == 0:
        d["mana_pool"] = {"alice": draw("choice", ["{W}", "{B}", "{C}{C}", "{G}{U}"])}
    return d


def _is_land(card: str) -> bool:
    return card in ("Plains", "Island", "Swamp", "Forest", "Wastes", "Snow-Covered Forest", "Tundra", "Taiga",
                    "Reflecting Pool", "Exotic Orchard", "Gaea's Cradle", "Vivid Crag", "Mana Confluence",
                    "City of Brass", "Adarkar Wastes", "Llanowar Wastes", "Fetid Heath", "Crystal Quarry",
                    "Tinder Farm", "Cascading Cataracts", "Ancient Tomb", "Urborg, Tomb of Yawgmoth",
                    "Blazemire Verge", "Mage-Ring Network")


def _slug(name: str) -> str:
    import re
    s = name.lower().replace("'", "")
    return re.sub(r"[^a-z0-9]+", "-", s).strip("-")


def hypothesis_draw(data):
    """A ``draw`` for :func:`random_small_board` backed by a hypothesis ``st.data()`` object
    (the differential tests), so that hypothesis can shrink the board."""
    from hypothesis import strategies as st

    def draw(kind, *args):
        if kind == "int":
            return data.draw(st.integers(args[0], args[1]))
        if kind == "choice":
            return data.draw(st.sampled_from(list(args[0])))
        return data.draw(st.booleans())
    return draw


def rng_draw(rng: random.Random):
    """A ``draw`` for :func:`random_small_board` backed by ``random.Random``."""
    def draw(kind, *args):
        if kind == "int":
            return rng.randint(args[0], args[1])
        if kind == "choice":
            return args[0][rng.randrange(len(args[0]))]
        return rng.random() < 0.5
    return draw

"""Reference for the predefined tokens (CR 111.10), written from the rules independently of the
reader and the engine: what each token is (a colorless artifact — a Shard an enchantment — with
its subtype and the one ability the rules give it), and how many a creation makes under token
doublers (CR 111.1, 614.1: each "twice that many" replacement doubles the number, in any order).
"""
from __future__ import annotations

# name: (card types, the ability's text as the rules print it)
TOKENS: dict[str, tuple[tuple[str, ...], str]] = {
    "Treasure": (("Artifact",), "{T}, Sacrifice this artifact: Add one mana of any color."),
    "Food": (("Artifact",), "{2}, {T}, Sacrifice this artifact: You gain 3 life."),
    "Gold": (("Artifact",), "Sacrifice this artifact: Add one mana of any color."),
    "Clue": (("Artifact",), "{2}, Sacrifice this artifact: Draw a card."),
    "Blood": (("Artifact",), "{1}, {T}, Discard a card, Sacrifice this artifact: Draw a card."),
    "Powerstone": (("Artifact",), "{T}: Add {C}. This mana can't be spent to cast a nonartifact spell."),
    "Map": (("Artifact",), "{1}, {T}, Sacrifice this artifact: Target creature you control explores. "
                           "Activate only as a sorcery."),
    "Shard": (("Enchantment",), "{2}, Sacrifice this enchantment: Scry 1, then draw a card."),
}


def token_record(name: str, tapped: bool = False) -> dict:
    """The token as a situation lists it (an inline card; CR 111.4: colorless unless said)."""
    types, text = TOKENS[name]
    return {"name": name, "types": list(types), "subtypes": [name], "colors": [], "text": text, "tapped": tapped}


def token_count(amount: int, doublers: int) -> int:
    """Tokens made by a creation of ``amount`` under ``doublers`` "twice that many" effects."""
    n = amount
    for _ in range(doublers):
        n *= 2
    return n

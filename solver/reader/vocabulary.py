"""The reader's word tables: card types, colours, basic land types, keywords (CR 702)
and ability words (CR 207.2c), and :func:`singular` for plural nouns."""
from __future__ import annotations

from .tokens import NUMBER_WORDS


TYPE_WORDS: dict[str, str] = {
    "creature": "Creature", "land": "Land", "artifact": "Artifact", "enchantment": "Enchantment",
    "planeswalker": "Planeswalker", "battle": "Battle", "permanent": "Permanent", "instant": "Instant",
    "sorcery": "Sorcery",
}
TYPE_PLURALS: dict[str, str] = {w + "s": t for w, t in TYPE_WORDS.items() if w != "sorcery"}
TYPE_PLURALS["sorceries"] = "Sorcery"
COLOR_WORDS: dict[str, str] = {"white": "W", "blue": "U", "black": "B", "red": "R", "green": "G"}
BASIC_TYPES: dict[str, str] = {"Plains": "Plains", "Island": "Island", "Swamp": "Swamp", "Mountain": "Mountain",
                               "Forest": "Forest"}
BASIC_PLURALS: dict[str, str] = {"Plains": "Plains", "Islands": "Island", "Swamps": "Swamp",
                                 "Mountains": "Mountain", "Forests": "Forest"}
LAND_SUBTYPES = frozenset(BASIC_TYPES) | frozenset({"Desert", "Gate", "Lair", "Locus", "Mine", "Power-Plant",
                                                    "Tower", "Cave", "Sphere", "Town", "Urza's", "Planet"})
# Keyword abilities the IR gives a meaning (ir.Keyword's docstring); landwalk and
# protection take an argument, enchant is ir.Enchant.
SIMPLE_KEYWORDS: frozenset[str] = frozenset({
    "hexproof", "shroud", "haste", "flash", "flying", "trample", "first strike", "defender", "indestructible",
    "vigilance", "reach", "menace", "lifelink", "deathtouch", "double strike",
    # evasion (block restrictions only, solver/engine/combat.py): CR 702.36 fear, 702.13 intimidate, 702.28 shadow,
    # 702.31 horsemanship, 702.118 skulk
    "fear", "intimidate", "shadow", "horsemanship", "skulk",
    # day and night (CR 702.145): solver/engine/transition.py and the untap step
    "daybound", "nightbound",
    # damage dealt as -1/-1 counters and poison counters (CR 702.80 wither, 702.90 infect): the damage event
    # (solver/engine/resolution.py ``_deal_damage``)
    "infect", "wither",
    # a split card's half cast only from a graveyard, then exiled (CR 702.127a); both halves cast together
    # from the hand (CR 702.102a): solver/rules/faces.py
    "aftermath", "fuse"})
# The two-word ones, read as a pair of words ("first strike", "double strike").
STRIKE_WORDS: frozenset[str] = frozenset({"first", "double"})
# Keywords an effect or static may grant (Effect.keywords / Static.keywords hold bare names).
GRANTABLE_KEYWORDS = SIMPLE_KEYWORDS - {"daybound", "nightbound", "aftermath", "fuse"}

# Keyword abilities of CR 702 (lower case; multi-word names included).  A line made
# only of these is a keyword line; those outside SIMPLE_KEYWORDS are unsupported.
KEYWORD_NAMES: frozenset[str] = frozenset("""
deathtouch|defender|double strike|enchant|equip|first strike|flash|flying|haste|hexproof|indestructible|intimidate|
lifelink|protection|reach|shroud|trample|vigilance|ward|banding|bands with other|rampage|cumulative upkeep|flanking|
phasing|buyback|shadow|cycling|echo|horsemanship|fading|kicker|multikicker|flashback|madness|fear|morph|megamorph|
amplify|provoke|storm|affinity|entwine|modular|sunburst|bushido|soulshift|splice|offering|ninjutsu|
commander ninjutsu|epic|convoke|dredge|transmute|bloodthirst|haunt|replicate|forecast|graft|recover|ripple|
split second|suspend|vanishing|absorb|aura swap|delve|fortify|frenzy|gravestorm|poisonous|transfigure|champion|
changeling|evoke|hideaway|prowl|reinforce|conspire|persist|wither|retrace|devour|exalted|unearth|cascade|
annihilator|level up|rebound|totem armor|umbra armor|infect|battle cry|living weapon|undying|miracle|soulbond|
overload|scavenge|unleash|cipher|evolve|extort|fuse|bestow|tribute|dethrone|hidden agenda|double agenda|outlast|
prowess|dash|exploit|menace|renown|awaken|devoid|ingest|myriad|surge|skulk|emerge|escalate|melee|crew|fabricate|
partner|partner with|undaunted|improvise|aftermath|embalm|eternalize|afflict|ascend|assist|jump-start|mentor|
afterlife|riot|spectacle|escape|companion|mutate|encore|boast|foretell|demonstrate|daybound|nightbound|disturb|
decayed|cleave|training|compleated|reconfigure|blitz|casualty|enlist|read ahead|ravenous|squad|space sculptor|
visit|prototype|living metal|more than meets the eye|for mirrodin!|toxic|backup|bargain|craft|disguise|solved|
plot|saddle|spree|freerunning|gift|offspring|impending|exhaust|max speed|start your engines!|harmonize|mobilize|
job select|tiered|station|warp|sneak|landwalk|friends forever|choose a background|doctor's companion|
basic landcycling|landcycling|typecycling|hexproof from|protection from|plainswalk|islandwalk|swampwalk|
mountainwalk|forestwalk|nonbasic landwalk|legendary landwalk|snow landwalk|desertwalk|firebending|web-slinging|
infinity|paradigm|increment|vanishing|afterburner|specialize|class|level|channel|transmute|renew|endure|
""".replace("\n", "").split("|")) - {""}

ABILITY_WORDS: frozenset[str] = frozenset("""
adamant|addendum|alliance|battalion|bloodrush|celebration|channel|chroma|cohort|constellation|converge|corrupted|
council's dilemma|coven|delirium|descend 4|descend 8|domain|eerie|eminence|enrage|fateful hour|fathomless descent|
ferocious|flurry|formidable|grandeur|hellbent|heroic|imprint|inspired|join forces|kinship|landfall|lieutenant|
magecraft|metalcraft|morbid|pack tactics|paradox|parley|radiance|raid|rally|renew|revolt|secret council|
spell mastery|strive|survival|sweep|tempting offer|threshold|undergrowth|valiant|void|will of the council|
""".replace("\n", "").split("|")) - {""}

_IRREGULAR_PLURALS = {"elves": "Elf", "dwarves": "Dwarf", "wolves": "Wolf", "werewolves": "Werewolf",
                      "fungi": "Fungus", "plains": "Plains", "mice": "Mouse", "octopi": "Octopus",
                      "djinn": "Djinn", "efreet": "Efreet", "sheep": "Sheep", "samurai": "Samurai",
                      "ninja": "Ninja", "kor": "Kor", "moonfolk": "Moonfolk", "merfolk": "Merfolk",
                      "kithkin": "Kithkin", "homunculi": "Homunculus", "leonin": "Leonin", "azra": "Azra",
                      "mothfolk": "Mothfolk", "lizardfolk": "Lizardfolk", "vedalken": "Vedalken",
                      "viashino": "Viashino", "aetherborn": "Aetherborn", "naga": "Naga", "sphinxes": "Sphinx",
                      "foxes": "Fox", "allies": "Ally", "zombies": "Zombie", "fairies": "Faerie",
                      "faeries": "Faerie", "harpies": "Harpy", "mercenaries": "Mercenary", "sliver": "Sliver"}

# Lower-case words that are grammar, never a subtype even when capitalised at the start of a sentence.
_GRAMMAR_WORDS = frozenset({
    "each", "all", "other", "another", "target", "enchanted", "equipped", "nonbasic", "basic", "a", "an", "the",
    "you", "your", "lands", "creatures", "until", "if", "when", "whenever", "at", "this", "that", "it", "its",
    "they", "them", "up", "any", "one", "two", "three", "and", "or", "of", "with", "while", "add", "tap",
    "untap", "destroy", "draw", "create", "return", "put", "remove", "sacrifice", "pay", "look", "conjure",
    "nonland", "noncreature", "nonartifact", "nonenchantment", "players", "player", "opponent", "opponents",
    "permanents", "permanent", "card", "cards", "token", "tokens", "spell", "spells", "ability", "abilities",
}) | frozenset(TYPE_WORDS) | frozenset(TYPE_PLURALS) | frozenset(COLOR_WORDS) | frozenset(NUMBER_WORDS)


def singular(word: str) -> str:
    """The singular of a (capitalised) subtype as printed in a plural noun phrase."""
    low = word.lower()
    if low in _IRREGULAR_PLURALS:
        return _IRREGULAR_PLURALS[low]
    if low.endswith("ies") and len(low) > 4:
        return word[:-3] + "y"
    if low.endswith(("xes", "shes", "ches", "sses")):
        return word[:-2]
    if low.endswith("s") and not low.endswith("ss"):
        return word[:-1]
    return word

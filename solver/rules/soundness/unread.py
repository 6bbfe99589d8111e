"""Unread parts of a card and what each could change (contract §2.0), from the card alone.

The classification half of the soundness analysis (:mod:`solver.rules.soundness.check` adds the
situation: zones, controllers, the question asked). It reads only the card's IR and
printed words, so the card library (``cards show``) and the rules layer both use it.

* :func:`card_parts` — every unread part of a card: unread lines and keywords
  (:class:`~solver.core.ir.Unsupported`), unread effects of abilities whose structure was read
  (``UnreadEffect``), abilities that work only from another zone (CR 113.6), a
  face the card database does not hold (CR 709, 712, 715);
* :func:`classify` — what an unread part could change (``affects``), conservatively:
  a word that could mean a category adds it; a static ability matching none is
  ``unknown``;
* :func:`reach` and :func:`active` — whose choices a part can change and whether it
  functions from a zone (CR 113.6).
"""
from __future__ import annotations

import re
from typing import Any, Iterable, Iterator

from ...core import ir
from ...cards import other_faces
from ..faces import fused_card, prototype_of, transformed_cast_of

AFFECTS = ir.AFFECTS
_ORDER = {a: i for i, a in enumerate(AFFECTS)}

MULTI_FACE = frozenset({"transform", "modal_dfc", "adventure", "split", "flip", "meld", "aftermath",
                        "reversible_card", "prepare", "prototype", "double_faced_token"})


#: Layouts whose other face matters only on the battlefield (transformed, flipped, melded; the object's
#: ``face`` records which one is up).
BACK_FACE_ONLY_ON_BATTLEFIELD = frozenset({"transform", "flip", "meld"})



_REMINDER = re.compile(r"\([^)]*\)")
_TARGET_WORD = re.compile(r"\btargets?\b")


def words(text: str) -> str:
    return " ".join(_REMINDER.sub("", text).lower().split())


_COSTS = re.compile(
    r"\bcosts? (?:\{[^}]*\}|x|\w+ )*(?:more|less)\b|\bcost \{|\bless to (?:cast|activate)|\bmore to (?:cast|activate)"
    r"|\baffinity\b|\bconvoke\b|\bdelve\b|\bimprovise\b|\brather than pay|\badditional cost|\bwithout paying"
    r"|\bspend only\b|\bonly mana\b|\bcost(?:s)? to (?:cast|activate)|\bcan't (?:be )?(?:spent|paid)|\bkicker\b"
    r"|\bbuyback\b|\bentwine\b|\bescalate\b|\bmultikicker\b|\bphyrexian\b|\bpay\b.*\blife\b|\bcosts? \{")
_TARGETS = re.compile(r"\btarget|\bhexproof\b|\bshroud\b|\bprotection\b|\bcan't be the target|\bchoose (?:one|two|three|"
                      r"four|five|up to|any number)|•|\bdivided\b|\bdistribute\b|\bspree\b|\bsplice\b")
_TIMING = re.compile(
    r"\bmay activate\b|\bany time you could cast\b|cycling\b|\bflash\b|\bcan't cast\b|\bcan cast\b|\bcan't play\b|\bmay play\b|\bmay cast\b|\bonly any time\b|\bas though\b"
    r"|\bcan't be cast\b|\bcan't activate\b|\bcan't be activated\b|\bactivate (?:only|this)|\bcast (?:this|it|them)"
    r"(?: spell)? only\b|\bsplit second\b|\bplay (?:an )?additional land|\bfrom the top of your library\b"
    r"|\bfrom your graveyard\b|\bfrom exile\b|\bfrom your hand\b|\bcycling\b|\bchannel\b|\bninjutsu\b|\bflashback\b"
    r"|\bescape\b|\bunearth\b|\bmadness\b|\bsuspend\b|\bforetell\b|\bplot\b|\bdisturb\b|\bdash\b|\bblitz\b|\bevoke\b"
    r"|\bretrace\b|\bjump-start\b|\baftermath\b|\bembalm\b|\beternalize\b|\bencore\b|\bscavenge\b|\btransmute\b"
    r"|\bmiracle\b|\bcommander\b|\bany player may\b"
    r"|\bcan't (?:cast|activate|play)|\bonly during\b|\bonly as a sorcery\b|\bmutate\b|\bemerge\b|\bsurge\b"
    r"|\bprowl\b|\bspectacle\b|\boverload\b|\bbestow\b|\bdisguise\b|\bmorph\b|\bmegamorph\b|\bcraft\b|\bwarp\b")
_MANA = re.compile(r"\bmana\b|\badd \{|\badd (?:one|two|three|four|five|x|an amount)\b|\badds?\b.*\{[wubrgc]\}")
_REPLACEMENT = re.compile(r"\binstead\b|\bwould\b|\benters? (?:the battlefield )?(?:tapped|untapped|with|as)\b|\bas [^.]* enters\b"
                          r"|\bskip\b|\bprevent(?:ed)?\b|\bregenerated?\b|\bdouble\b|\btwice\b")
_CHARACTERISTICS = re.compile(
    r"\bgets? [+-]|\bget [+-]|\bhave\b(?! cast\b)|\bhas\b(?! cast\b)|\bgains?\b|\bloses?\b|\bis (?:a|an|the|every|all|also|no longer|"
    r"colorless|white|blue|black|red|green)\b|\bare (?:\w+ )?(?:creatures?|lands?|artifacts?|enchantments?|"
    r"colorless|white|blue|black|red|green|every)\b|\bbase power\b|\bpower\b|\btoughness\b|\bin addition to its "
    r"other types\b|\bcreature type\b|\bcolor\b|\bdevoid\b|\bchangeling\b|\bcopy\b|\bcontrol of\b|\bphases?\b"
    r"|\bcounts? as\b|\bnames?\b|\bmana value\b|\blegend rule\b|\bisn't\b|\baren't\b")
_COMBAT = re.compile(r"\battack|\bblock|\bcombat\b|\bfirst strike\b|\btrample\b|\bflying\b|\breach\b|\bmenace\b"
                     r"|\bvigilance\b|\bdefender\b|\bdouble strike\b|\bcan't be blocked|\bdeathtouch\b|\blifelink\b"
                     r"|\bwalk\b|\bintimidate\b|\bfear\b|\bshadow\b|\bhorsemanship\b|\bskulk\b|\bflanking\b"
                     r"|\bbanding\b|\bbushido\b|\brampage\b|\bdamage\b")
_TRIGGER_WORDS = re.compile(r"\btrigger|\bwhenever\b|\bwhen\b|\bat the beginning\b|\bprowess\b|\bward\b|\bexalted\b"
                            r"|\bpersist\b|\bundying\b|\bevolve\b|\bcascade\b|\bstorm\b|\bafterlife\b|\bextort\b")

#: Cues that an ability of a card works from a zone other than the battlefield (CR 113.6).
_ZONE_CUE = re.compile(
    r"\bthis spell\b|\bthis card\b|\bcast this\b|\bas an additional cost to cast\b|\brather than pay this\b"
    r"|\byou may cast (?:it|this)\b|\bflash\b|\bsplit second\b|\bcan't be countered\b"
    r"|cycling\b|\bchannel\b|\bninjutsu\b|\bevoke\b|\bdash\b|\bflashback\b|\bescape\b|\bunearth\b"
    r"|\bmadness\b|\bsuspend\b|\bforetell\b|\bplot\b|\bdisturb\b|\bblitz\b|\bretrace\b|\bjump-start\b|\baftermath\b"
    r"|\bembalm\b|\beternalize\b|\bencore\b|\bscavenge\b|\btransmute\b|\bforecast\b|\breinforce\b|\bbloodrush\b"
    r"|\baffinity\b|\bconvoke\b|\bdelve\b|\bimprovise\b|\bkicker\b|\bmultikicker\b|\bbuyback\b|\bentwine\b"
    r"|\bescalate\b|\boverload\b|\bspectacle\b|\bsurge\b|\bemerge\b|\boffering\b|\bprowl\b|\bmiracle\b"
    r"|\bmorph\b|\bmegamorph\b|\bdisguise\b|\bbestow\b|\bmutate\b|\bcasualty\b|\bbargain\b|\bspree\b|\bcleave\b"
    r"|\bdredge\b|\bcompanion\b|\bsneak\b|\bwarp\b|\bcraft\b|\bharmonize\b|\bcollect evidence\b"
    r"|\bgift\b|\bimpending\b|\bprototype\b|\bfreerunning\b|\bsquad\b|\bmayhem\b|\bwhile (?:~|this card) is in\b")
_ABILITIES = re.compile(r"\bactivated abilities\b|\bmana abilit|\babilities of\b|\bcan't be activated\b|\bmana\b"
                        r"|\babilities (?:cost|can't)\b")
_SELF_ZONE_TRIGGER = re.compile(r"\bis put into\b|\bfrom anywhere\b|\bdiscard|\bis milled\b|\bis exiled\b"
                                r"|\bcycle\b|\bleaves\b|\breveal|\bdraw\b|\bin your graveyard\b|\bin your hand\b"
                                r"|\bfrom (?:your|a|their) (?:graveyard|hand|library)\b|\bfrom exile\b|\bin exile\b")
#: A reference to the card itself in its text ("this card", its name as ``~``, "it").
_SELF_REF = re.compile(r"\bthis (?:card|creature|permanent|land|artifact|enchantment|spell)\b|~|\bit\b|\bits\b")


def _self_zone_trigger(text: str, name: str) -> bool:
    """CR 113.6k–n: off the battlefield a triggered ability functions only if it triggers on that card's
    own moves or its being in that zone ("When you cycle this card", "When ~ is put into your graveyard
    from anywhere", "if this card is in your graveyard", "return this card from your graveyard"): an
    event word and a reference to the card in one clause of its words — not "At the beginning of your
    draw step, …" or "whenever ~ attacks, defending player reveals …" of a card in a library."""
    w = words(text)
    for n in {name.lower(), name.split(",")[0].lower()} - {""}:
        w = w.replace(n, "~")
    return any(_SELF_ZONE_TRIGGER.search(c) and _SELF_REF.search(c) for c in re.split(r"[,.;]", w))


#: An effect moving the card itself out of a named zone ("return this card from your graveyard", "exile ~ from
#: your hand"): the ability functions only in that zone (CR 113.6k).
_MOVES_SELF_OUT = re.compile(r"\b(?:return|put|exile|cast|shuffle) (?:this card|~|it) from (?:your|its owner's|their) "
                             r"(graveyard|hand|library)\b|\b(?:return|put|exile|cast) (?:this card|~|it) from (exile)\b")
#: The trigger condition puts the card into a zone ("is put into your graveyard", "dies") — then the move out
#: of that zone is no restriction (CR 113.6k's "unless its trigger condition … specifies that the object is
#: put into that zone").
_PUT_INTO = re.compile(r"\bis put into (?:your|a|its owner's|their) (graveyard|hand|library)\b|\b(dies)\b|\bis (exiled)\b")


def moved_out_zone(text: str, name: str) -> str | None:
    """The one zone an off-battlefield triggered ability functions in because its effect moves the card
    itself out of that zone (CR 113.6k: "An ability whose cost or effect specifies that it moves the object
    it's on out of a particular zone functions only in that zone, unless its trigger condition … specifies
    that the object is put into that zone"), or None."""
    w = words(text)
    for n in {name.lower(), name.split(",")[0].lower()} - {""}:
        w = w.replace(n, "~")
    m = _MOVES_SELF_OUT.search(w)
    if m is None:
        return None
    zone = m.group(1) or m.group(2)
    into = {g for mm in _PUT_INTO.finditer(w[:m.start()]) for g in mm.groups() if g}
    into = {"graveyard" if z == "dies" else "exile" if z == "exiled" else z for z in into}
    return None if zone in into else zone
_ADDS_MANA = re.compile(r"\badds?\b|\bmana\b(?! abilit| value| cost)")
_MANA_TRIGGER = re.compile(r"\bfor mana\b|\bcauses? (?:you|a player|that player) to add\b|\badds? mana\b|\bmana is added\b")
_ANY_PLAYER = re.compile(r"\bany player may\b")
_YOU_ONLY = re.compile(r"\byou\b|\byour\b")
_OPPONENTS = re.compile(r"\bopponents?\b|\bplayers?\b|\beach player\b|\bnoncreature spells\b|\beach spell\b")


_SELF_ENTERS = re.compile(r"^(?:as )?(?:this|~) (?:\w+ )?(?:\w+ )?enters\b|^if you control [^,]*, (?:this|~) \w+ enters"
                          r"|^(?:this|~) \w+ enters tapped|^you may have (?:this|~) \w+ enter")
def how_it_enters(text: str) -> bool:
    """Is this line about how its own permanent enters the battlefield ("As this land enters, you may …",
    "This land enters tapped unless …", "You may have ~ enter as a copy …": CR 614.1c, 614.12)?"""
    return bool(_SELF_ENTERS.search(words(text)))


_SPECIFIC: tuple[tuple[re.Pattern, frozenset[str]], ...] = (
    (re.compile(r"\b(?:doesn't|don't) untap during\b"), frozenset({"replacement"})),
    (re.compile(r"\bno maximum hand size\b|\bmaximum hand size\b"), frozenset({"effect"})),
    (re.compile(r"^(?:daybound|nightbound)\b"), frozenset({"replacement", "triggers"})),
    (re.compile(r"^play with the top card of your library revealed\.?$"), frozenset({"effect"})),
    # knowing one's own top card (CR 401.2: looking changes no rule's outcome); what a player may then
    # do from the top of the library is a separate line ("you may cast … from the top …")
    (re.compile(r"^you may look at the top card of your library (?:at )?any time\.?$"), frozenset({"effect"})),
    # a limit on draws (CR 121.1): it changes what drawing does as spells resolve and steps begin, never
    # what may be cast, targeted or paid now
    (re.compile(r"\bcan't draw more than (?:one|two|three|\w+) cards? each turn\b"),
     frozenset({"replacement", "effect"})),
    # granting an equip ability (CR 702.6) adds an action of the Equipment's controller, never mana
    (re.compile(r"^(?:metalcraft — )?equipment you control (?:have|has) equip \{[\dx]+\}"
                r"(?: as long as you control [\w ]+)?\.?$"), frozenset({"timing", "costs"})),
    # the keyword alone with its parameter — never an ability word sharing its first word ("Echo of the Lost —")
    (re.compile(r"^(?:living weapon|modular|fading|vanishing|echo|mentor|cascade|exalted|persist|undying|prowess"
                r"|afterlife|evolve|extort|riot|battle cry)(?=$|[ —]?[\d{x—]|\.$|, )"),
     frozenset({"triggers", "replacement"})),
)


#: Keywords of CR 702 whose reach is that of the ability they are (CR 113.3), not of their words:
#: keyword → (ability kind, what it can change, zones where it functions). A line is such a keyword only
#: when it is the keyword alone with its parameter ("Crew 3", "Echo {2}{G}", "Cumulative upkeep—Pay 2
#: life."), never an ability word sharing its first word ("Echo of the Lost — …").
KEYWORD_REACH: dict[str, tuple[str, frozenset[str], frozenset[str]]] = {
    name: (kind, frozenset(affects.split()), frozenset(zones.split()))
    for name, kind, affects, zones in (
        # 702.122a: "[Cost]: This Vehicle becomes an artifact creature until end of turn" — an action of its
        # controller; the vehicle is a creature only after it resolves
        ("crew", "activated", "timing costs characteristics", "battlefield"),
        # 702.87a: "[Cost]: Put a level counter on this. Activate only as a sorcery."; 716.2a a Class's
        # "[Cost]: Level N" likewise (its level's abilities only once it resolves)
        ("level up", "activated", "timing costs characteristics", "battlefield"),
        # 702.84a: activated from the graveyard, as a sorcery
        ("unearth", "activated", "timing costs", "graveyard"),
        # 702.108a: "Whenever you cast a noncreature spell, this creature gets +1/+1 until end of turn."
        ("prowess", "triggered", "triggers", "battlefield"),
        # 702.24a, 702.30a: "At the beginning of your upkeep, …" — triggers only as an upkeep begins
        ("cumulative upkeep", "triggered", "triggers", "battlefield"),
        ("echo", "triggered", "triggers", "battlefield"),
        # 702.35a: a replacement of discarding this card (from the hand) and a trigger when it is so exiled;
        # the cast happens as that trigger resolves, never as an action of `actions`
        ("madness", "static", "replacement triggers", "hand"),
        # 702.37a-c, 702.168a-b: cast face down for {3} from the hand (its owner's actions, the card's own
        # payment); a situation lists permanents face up, for which the keyword does nothing (702.37e)
        ("morph", "static", "timing costs", "hand"),
        ("megamorph", "static", "timing costs", "hand"),
        ("disguise", "static", "timing costs", "hand"),
        # 702.143a: a special action from the hand (116.2h) and a cast from exile on a later turn
        ("foretell", "static", "timing costs", "hand exile"),
        # 702.124j: "When this creature enters, target player may put [name] into their hand from their
        # library" (the deck-construction part, 702.124a, reaches nothing in a game)
        ("partner with", "triggered", "triggers targets", "battlefield"),
        # 702.184a station, 702.171a saddle: "[Cost]: … Activate only as a sorcery" — actions of the controller
        ("station", "activated", "timing costs characteristics", "battlefield"),
        ("saddle", "activated", "timing costs characteristics", "battlefield"),
        # 702.175a: an additional cost as the spell is cast (hand), a trigger as it enters if paid (stack)
        ("offspring", "static", "timing costs", "hand stack"),
        # 702.54a: "enters with N +1/+1 counters if an opponent was dealt damage this turn" — as it enters
        ("bloodthirst", "static", "replacement", "stack"),
        # 702.131a-c: the city's blessing, a designation only other text reads (and text reading it is unread)
        ("ascend", "static", "effect", "battlefield"),
        # its reminder text: "Whenever this creature attacks, add {R}{R}. This mana lasts until end of combat."
        ("firebending", "triggered", "triggers", "battlefield"),
    )
}
_KEYWORD_PARAMETER = r"(?: \d+| x| n|(?: ?\{[^}]*\})+|—[^.]*(?:\.[^.]+)*| [\w ,'-]+)?\.?$"
_KEYWORD_LINE = re.compile(
    r"^(" + "|".join(sorted((re.escape(k) for k in KEYWORD_REACH), key=len, reverse=True)) + r")"
    + _KEYWORD_PARAMETER)


def keyword_reach(text: str) -> tuple[str, frozenset[str], frozenset[str]] | None:
    """The (kind, affects, zones) of a line that is one keyword of :data:`KEYWORD_REACH` with its
    parameter (CR 702), or None."""
    w = words(text)
    m = _KEYWORD_LINE.match(w)
    if m is None:
        return None
    name, rest = m.group(1), w[m.end(1):]
    if name != "partner with" and re.match(r"^ [a-z]", rest) and not re.match(r"^ (?:x|n)\.?$", rest):
        return None                  # words after the keyword ("echo of the lost — …"): not the keyword
    return KEYWORD_REACH[name]


def classify(text: str, kind: str) -> frozenset[str]:
    """What an unread part with this printed ``text`` and ability ``kind`` could change.

    ``kind`` is ``activated`` (CR 602), ``triggered`` (CR 603), ``static``
    (CR 604), ``spell`` (the text of an instant or sorcery), ``keyword``,
    ``rider`` (an unread sentence of a modeled mana ability), ``face`` or
    ``effect``. Conservative: any word that could mean a category adds it.
    """
    w = words(text) or text.lower()
    out: set[str] = set()
    if kind == "effect":
        return frozenset({"unknown"})
    if kind == "face":
        return frozenset({"timing", "costs", "targets", "mana", "characteristics", "effect"})
    if kind == "rider":
        if re.search(r"\bspen[dt]\b|\bcan't be spent\b|\bany player may\b|\bactivate\b|\bonly\b|\binstead\b", w):
            return frozenset({"mana"})       # who may use the mana, or when: what can be paid
        return frozenset({"effect"})
    if kind == "triggered":
        out.add("triggers")
        if _MANA_TRIGGER.search(w) and not _TARGET_WORD.search(w) and _ADDS_MANA.search(w.split(",", 1)[-1]):
            out.add("mana")                  # a triggered mana ability (CR 605.1b): no target (605.5a), adds mana
        if _TARGETS.search(w):
            out.add("targets")               # its own targets, chosen as it is put on the stack (CR 603.3d)
        return frozenset(out)
    if kind == "activated":
        out |= {"timing", "effect"}          # it is an action its controller may take (CR 602)
        if _ADDS_MANA.search(w.split(":", 1)[-1]):
            out.add("mana")                  # it could be a mana ability (CR 605.1a)
        if _TARGETS.search(w):
            out.add("targets")
        if _COSTS.search(w):
            out.add("costs")
        return frozenset(out)
    if kind == "spell":
        out.add("effect")
        if _TARGETS.search(w):
            out.add("targets")
        if _COSTS.search(w) or re.search(r"\bx\b", w):
            out.add("costs")
        if _TIMING.search(w):
            out.add("timing")
        if re.search(r"\bthis spell\b[^.]*\b(?:is|has|gets?)\b|\bdevoid\b|\bcolorless\b", w):
            out.add("characteristics")
        return frozenset(out)
    # static abilities and keywords: every category their words could mean
    if _SELF_ENTERS.search(w):
        return frozenset({"replacement"} | ({"characteristics"} if re.search(r"\bchoose\b|\bcopy\b", w) else set()))
    for rx, cats in _SPECIFIC:
        if rx.search(w):
            return cats
    for name, rx in (("costs", _COSTS), ("targets", _TARGETS), ("timing", _TIMING), ("mana", _MANA),
                     ("replacement", _REPLACEMENT), ("characteristics", _CHARACTERISTICS), ("combat", _COMBAT),
                     ("triggers", _TRIGGER_WORDS)):
        if rx.search(w):
            out.add(name)
    if re.search(r"\bcan't be countered\b", w):
        out |= {"effect", "replacement"}    # matters when something tries to counter it
    if out == {"triggers"} and re.search(r"\bward\b", w):
        return frozenset(out)            # ward: a triggered ability (CR 702.21); targeting stays legal
    if "replacement" in out and _MANA.search(w):
        out.add("mana")
    if not out:
        out.add("unknown")
    return frozenset(out)


_PT = re.compile(r"\bgets? [+-][\dx]+/[+-][\dx]+|\bget [+-][\dx]+/[+-][\dx]+|\bbase power and toughness\b"
                 r"|\bpower and toughness\b|\bpower\b|\btoughness\b")
_COMBAT_KW = (r"(?:flying|haste|trample|first strike|double strike|menace|reach|vigilance|deathtouch|lifelink|"
              r"indestructible|defender|fear|intimidate|\w+walk|skulk|shadow|horsemanship)")
_GRANT = re.compile(rf"\b(?:has|have|gains?|loses?) {_COMBAT_KW}(?:(?:,| and|, and) {_COMBAT_KW})*")


def pt_or_combat_only(text: str) -> bool:
    """The only characteristics the words change are power/toughness and combat keywords (no types,
    colors, names, mana value, or abilities that bear on casting, targeting or mana)."""
    w = words(text)
    if not _CHARACTERISTICS.search(w):
        return False
    rest = _GRANT.sub(" ", _PT.sub(" ", w))
    return not _CHARACTERISTICS.search(rest)


def reach(text: str, kind: str, zone: str) -> str:
    """Whose own choices (costs, timing, mana) the part can change: ``controller``, ``opponents`` or ``all``."""
    w = words(text)
    if _ANY_PLAYER.search(w):
        return "all"
    if kind in ("activated", "face", "spell", "rider") or zone not in ("battlefield", "stack", "effects", "command"):
        return "controller"          # its controller's action, or a card in its owner's hand, graveyard …
    if re.search(r"\bopponents?\b", w) and not re.search(r"\bplayers?\b", w):
        return "opponents"
    if re.search(r"\bplayers?\b|\beach spell\b|\bspells\b(?! you cast)", w):
        return "all"
    if _YOU_ONLY.search(w):
        return "controller"
    return "all"


_ELSEWHERE_ONLY = re.compile(
    r"\bthis card from your (?:graveyard|hand)\b|\bexile this card from\b|\bdiscard this card\b"
    r"|\breveal this card from your hand\b|\breturn this card from\b|\bwhile this card is in\b"
    r"|\bthis spell\b|\bopening hand\b"
    r"|^[\w ]*cycling\b|^channel\b|^ninjutsu\b|^unearth\b|^flashback\b|^escape\b|^embalm\b"
    r"|^eternalize\b|^scavenge\b|^transmute\b|^encore\b|^retrace\b|^disturb\b|^foretell\b|^plot\b")


_SELF_CAST = re.compile(
    r"\bthis spell\b|\bcast this\b(?! turn\b| way\b)|^(?:dash|evoke|kicker|multikicker|delve|convoke|improvise|affinity|flash|buyback"
    r"|entwine|escalate|overload|spectacle|surge|emerge|prowl|madness|miracle|morph|megamorph|disguise|bestow|mutate"
    r"|casualty|bargain|spree|cleave|offering|replicate|splice|suspend|foretell|plot|warp|sneak|impending|prototype"
    r"|squad|gift|freerunning|blitz|flashback|escape|retrace|jump-start|aftermath|disturb|unearth|encore|embalm"
    r"|eternalize|scavenge|ninjutsu|channel|transmute|forecast|reinforce|bloodrush|[\w ]*cycling|tiered|mayhem)\b")
_FROM_GRAVEYARD = re.compile(r"^(?:flashback|escape|retrace|jump-start|aftermath|disturb|unearth|encore|embalm"
                             r"|eternalize|scavenge|mayhem)\b|\bfrom your graveyard\b|\bin your graveyard\b")
_FROM_EXILE = re.compile(r"^(?:foretell|plot|suspend|warp|impending)\b|\bfrom exile\b|\bexiled\b")
_ON_THE_STACK = re.compile(r"\bsplit second\b|\bcan't be countered\b")


_CASTING_COST = re.compile(
    r"\bthis spell costs\b|\brather than pay\b|\badditional cost\b|\bspend only\b|\bcosts? \{[^}]*\} (?:more|less)"
    r"|^(?:kicker|multikicker|delve|convoke|improvise|affinity|dash|evoke|spectacle|surge|emerge|prowl|offering"
    r"|bargain|casualty|buyback|entwine|escalate|overload|spree|replicate|splice|squad|gift|freerunning|blitz|mutate"
    r"|bestow|prototype|impending|madness|miracle|sneak|warp|cleave|tiered|flash)\b")


def casting_cost(text: str) -> bool:
    """The words change how this spell is cast or paid for (CR 601.2b, 601.2f), as opposed to another
    action of the card (cycling, channel, ninjutsu …)."""
    return bool(_CASTING_COST.search(words(text)))


def self_cast(text: str) -> bool:
    """The words are about casting or using this card itself from a hidden zone (its own cost, an
    alternative or additional cost, a keyword that works from the hand or graveyard, CR 113.6)."""
    return bool(_SELF_CAST.search(words(text))) and not _ON_THE_STACK.search(words(text))


_GRAVEYARD_KEYWORD = re.compile(r"^(?:flashback|escape|retrace|jump-start|aftermath|disturb|unearth|encore|embalm"
                               r"|eternalize|scavenge|mayhem)\b")
_EXILE_KEYWORD = re.compile(r"^(?:foretell|plot|suspend|warp|impending)\b")


def _keyword_zone(w: str, zone: str) -> bool | None:
    """For a line led by a keyword that casts or uses the card from a hidden zone (CR 702): whether it
    functions in ``zone`` by the keyword alone — later words ("for each card in your graveyard") name
    what it counts, not where it works; None when the line is not led by such a keyword."""
    if not _SELF_CAST.match(w) or w.startswith(("this spell", "cast this")):
        return None
    if _GRAVEYARD_KEYWORD.match(w):
        return zone == "graveyard"               # flashback, disturb …: only from the graveyard
    if zone == "exile":
        return bool(_EXILE_KEYWORD.match(w))     # foretold, plotted, suspended cards
    return zone in ("hand", "command")           # cycling, disguise, suspend, kicker …: from the hand


_COLOR = r"(?:white|blue|black|red|green)"
#: Words of a characteristic-defining ability about the object's own color or creature types (CR 604.3,
#: 702.114a devoid, 702.73a changeling; "~ is colorless", "is all colors", "is every creature type"):
#: it functions in every zone (604.3, 113.6a).
_OWN_CHARACTERISTIC = re.compile(
    rf"^(?:devoid|changeling)\b|^(?!(?:as long as|if|enchanted|equipped|target|each|all|other|another|"
    rf"creatures?|permanents?|spells?|cards?|lands?|tokens?)\b)[^,.;]*? is (?:colorless|all colors|every colou?r"
    rf"|every creature type|the colou?r|{_COLOR})\b|\bits colou?r is not in the card data\b")
#: The part of :data:`_OWN_CHARACTERISTIC` about color alone: what it reaches is what color reaches.
_OWN_COLOR = re.compile(r"^devoid\b|\bis (?:colorless|all colors|every colou?r|the colou?r|" + _COLOR + r")\b"
                        r"|\bits colou?r is not in the card data\b")


def own_characteristic(text: str) -> bool:
    """The words define the object's own color or creature types (CR 604.3): they function in every
    zone."""
    return bool(_OWN_CHARACTERISTIC.search(words(text)))


def own_color_only(text: str) -> bool:
    """The words are about the object's own color and nothing else (devoid, "~ is colorless", an
    unknown face color): they can change only what reads colors (protection, "a blue card", color
    counts, spending restrictions, CR 105.2)."""
    w = words(text)
    return own_characteristic(text) and bool(_OWN_COLOR.search(w)) and "creature type" not in w


def active(text: str, kind: str, zone: str, card_types: tuple[str, ...], name: str = "") -> bool:
    """Whether a part can function in ``zone`` (CR 113.6); ``name``: the card's, for its words about itself."""
    exact = _keyword_item_reach(text)
    if exact is not None:
        return zone in exact[2] or zone == "effects"   # where the keyword's ability functions (CR 702)
    if zone == "library" and kind in ("spell", "static", "keyword") and self_cast(text) \
            and "library" not in words(text):
        return False                 # how the card is cast: nothing casts a card from a library unless it says so
    if kind == "static" and counter_rule(text):
        return zone in ("battlefield", "effects", "command")   # a permanent's rule on other spells (CR 113.6)
    if kind in ("static", "keyword", "spell") and own_characteristic(text):
        return True                  # a characteristic-defining ability works in every zone (CR 604.3)
    if kind == "triggered" and words(text).startswith("suspend"):
        return zone == "exile"       # suspend's triggered abilities work on a card in exile (CR 702.62a)
    if zone in ("graveyard", "exile") and kind in ("static", "keyword", "spell") and casting_cost(text):
        return True                  # how the spell is paid for: it matters if the card can be cast from
        #                              there (flashback, a granted permission), which one line can't rule out
    if kind in ("static", "keyword", "activated", "spell") and zone in ("hand", "graveyard", "exile", "command"):
        by_keyword = _keyword_zone(words(text), zone)
        if by_keyword is not None:
            return by_keyword
    if kind == "spell" and zone == "graveyard" and _SELF_CAST.match(words(text)) \
            and not words(text).startswith("this spell") and not _FROM_GRAVEYARD.search(words(text)):
        return False                 # an instant's or sorcery's keyword for the hand (suspend, cycling …, CR 702.62a)
    if kind in ("static", "keyword", "activated") and self_cast(text):
        w = words(text)             # never on the battlefield or the stack; elsewhere where its words say
        if zone == "graveyard":
            return bool(_FROM_GRAVEYARD.search(w))
        if zone == "exile":
            return bool(_FROM_EXILE.search(w))
        return zone in ("hand", "command")
    if zone == "battlefield" and kind in ("activated", "static", "keyword") and _ELSEWHERE_ONLY.search(words(text)):
        return False                 # an ability that works only from the hand or the graveyard (CR 113.6k)
    if re.search(r"\bopening hand\b", words(text)):
        return False                 # mid-game, an opening-hand ability (Leyline) never applies again
    if zone == "battlefield" and kind == "static" and _SELF_ENTERS.search(words(text)):
        return False                 # how it enters: it is already on the battlefield (CR 614.1c-d)
    if zone in ("battlefield", "stack", "effects"):
        return True
    if kind == "triggered":          # off the battlefield: only triggers on this card's own zone changes
        only = moved_out_zone(text, name)
        return _self_zone_trigger(text, name) and (only is None or only == zone)
    if kind == "face":
        return zone in ("hand", "graveyard", "exile", "command")
    if kind == "spell" or ({"Instant", "Sorcery"} & set(card_types) and kind not in ("triggered", "activated")):
        return zone in ("hand", "command", "exile") or bool(_ZONE_CUE.search(words(text)))
    if zone == "command":
        return True                  # emblems, commanders: conservatively everything
    return bool(_ZONE_CUE.search(words(text)))


_COUNTER_RULE = re.compile(r"\bspells\b[^.]*\bcan't be countered\b")


def counter_rule(text: str) -> bool:
    """A static ability saying some spells can't be countered ("Creature spells you control can't be
    countered", CR 101.2): it changes only what countering them does (CR 701.6a), never whether a
    counterspell may target them."""
    w = words(text)
    return bool(_COUNTER_RULE.search(w)) and "this spell" not in w


_LEVEL_LINE = re.compile(r"^LEVEL (\d+)(?:-\d+|\+)$")


def striation_level(card_text: str, line: str) -> int | None:
    """The level counters a leveler's line needs (CR 711.2b: "LEVEL N-M" and the lines after it hold while
    the permanent has N or more), or None when ``line`` is in no striation."""
    level = None
    for raw in card_text.split("\n"):
        m = _LEVEL_LINE.match(raw.strip())
        if m:
            level = int(m.group(1))
        if raw.strip() == line.strip():
            return level
    return None


def _keyword_item_reach(text: str) -> tuple[str, frozenset[str], frozenset[str]] | None:
    """:func:`keyword_reach` of the line, or of its one item of :data:`KEYWORD_REACH` when it is a line
    of several keywords ("Vigilance, prowess")."""
    exact = keyword_reach(text)
    if exact is not None:
        return exact
    items = [keyword_reach(i) for i in words(text).split(", ")] if ", " in words(text) else []
    found = [i for i in items if i is not None]
    return found[0] if len(found) == 1 and len(items) > 1 else None


def sorted_affects(affects: Iterable[str]) -> tuple[str, ...]:
    return tuple(sorted(set(affects), key=_ORDER.__getitem__))


# ---------------------------------------------------------------------------
# Finding the parts
# ---------------------------------------------------------------------------

def _printed(u: ir.Unsupported) -> str:
    return u.text or u.what


_CHAPTER = re.compile(r"^[IVX]+(?:, [IVX]+)* —")


def _kind_of(u: ir.Unsupported, card_types: tuple[str, ...]) -> str:
    if u.kind == "rider" or u.what.startswith("rider: "):
        return "rider"
    if _CHAPTER.match(_printed(u)):
        return "triggered"           # a chapter ability is a triggered ability (CR 714.2b)
    if u.kind in ("activated", "triggered"):
        return u.kind
    if {"Instant", "Sorcery"} & set(card_types):
        return "spell"
    if u.kind == "static" or not u.kind:
        kind = ir.ability_kind_of_line(_printed(u))
        return kind
    return u.kind


def _unread_effects(a: object) -> Iterator[tuple[str, str]]:
    """(kind, text) of the unread effects inside a partially read ability."""
    effects = getattr(a, "effects", ()) or ()
    kind = ("triggered" if isinstance(a, ir.TriggeredAbility)
            else "activated" if isinstance(a, ir.ActivatedAbility) else "spell")
    for e in effects:
        if isinstance(e, ir.UnreadEffect):
            yield kind, e.text
    # the unread effects of each mode of a modal spell or ability (CR 700.2; solver/reader/modes.py)
    for m in getattr(a, "modes", ()) or ():
        for e in m.effects:
            if isinstance(e, ir.UnreadEffect):
                yield kind, e.text


def _unread_effect_affects(kind: str, text: str) -> frozenset[str]:
    """An unread effect of an ability whose costs, timing and targets were read: it matters on
    resolution only — unless it adds mana, which would make the ability a mana ability (CR 605.1)."""
    base = {"triggers"} if kind == "triggered" else {"effect"}
    w = words(text)
    if kind == "activated" and _ADDS_MANA.search(w):
        base |= {"mana", "timing"}   # a mana ability is not an action of `actions` (CR 605.3a)
    if kind == "triggered" and _MANA_TRIGGER.search(w):
        base.add("mana")
    return frozenset(base)


def _bullet_parents(text: str) -> dict[str, str]:
    """The ability kind of each mode line ("• …") of a card: that of the line introducing the modes
    (CR 700.2: a modal spell, or a modal triggered or activated ability)."""
    out: dict[str, str] = {}
    head = ""
    for line in text.split("\n"):
        line = line.strip()
        if line.startswith("•"):
            if head:
                out[line] = head
        else:
            k = ir.ability_kind_of_line(line)
            head = "triggered" if k == "triggered" else "activated" if k == "activated" else ""
    return out


def _keyword_item(u: ir.Unsupported) -> str:
    """The unread keyword of a line of several keywords ("Flying, protection from …, annihilator 6"),
    when the reader names it (``what`` "annihilator N"); '' otherwise."""
    if not u.text or u.what == u.text or u.kind == "rider":
        return ""
    items = [i.strip() for i in re.sub(r"\([^)]*\)", "", u.text).split(",")]
    if len(items) < 2:
        return ""
    want = u.what.lower().strip(". ")
    hits = [i for i in items if re.sub(r"\b\d+\b", "n", i.lower()) == want]
    return hits[0] if len(hits) == 1 else ""


def ability_parts(card: object, a: object, zone: str | None = None) -> list[tuple[str, str, frozenset[str]]]:
    """The unread parts :func:`card_parts` finds in one ability ``a`` of ``card`` (printed or granted):
    each ability's parts depend only on it, the card's types and the card's bullets (modal lines)."""
    return _ability_parts(a, tuple(card.data.types), _bullet_parents(card.data.text), zone)  # type: ignore[attr-defined]


def _ability_parts(a: object, types: tuple, parent: dict, zone: str | None) -> list[tuple[str, str, frozenset[str]]]:
    out: list[tuple[str, str, frozenset[str]]] = []
    if isinstance(a, ir.Unsupported):
        text = _printed(a)
        kind = parent.get(text) or _kind_of(a, types)
        sentence = a.what.removeprefix("rider: ") if kind == "rider" else text   # a rider: its own sentence
        item = _keyword_item(a)
        if item:                  # one unread keyword of a keyword line: only it is unread (CR 702.1)
            sentence, kind = item, ir.ability_kind_of_line(item)
        if a.what.startswith("level striation "):
            # a leveler's striation (CR 711.2a): this permanent's power/toughness and abilities at a level
            return [(text, kind, frozenset({"characteristics"}) | (classify(text, kind) - {"unknown"}))]
        exact = keyword_reach(sentence) if kind != "rider" else None
        if exact is not None:     # a keyword of CR 702: the reach of the ability it is, exactly
            return [(text, exact[0], exact[1])]
        mine = classify(sentence, kind)
        # the reader's classification, widened by the words (never narrowed to "unknown")
        out.append((text, kind, (a.affects | (mine - {"unknown"})) if a.affects else mine))
    elif isinstance(a, ir.Grant) and isinstance(a.granted, (ir.TriggeredAbility, ir.Ward)):
        # a granted triggered ability ("Enchanted creature has "Whenever this creature deals combat damage to a
        # player, draw a card."", CR 613.1f): read, but the kernel triggers printed abilities only (contract §1
        # names them by printed index) — an unread part of what it can trigger on
        out.append((a.text, "triggered", frozenset({"triggers"})))
    elif isinstance(a, ir.ActivatedAbility) and a.zone != "battlefield":
        # an ability read as working from the hand (cycling, channel; CR 113.6k): its costs, timing
        # and targets are modeled there; its unread effect is named by the printed line, whose words
        # say where it functions (``active``), and matters only once activated (on the stack)
        effects = [t for _, t in _unread_effects(a)]
        if effects:
            # a keyword line read as its ability (unearth, embalm: reader/keyword_abilities.py) is named by
            # its unread effect, not by the keyword, whose unread reach it no longer has
            text = effects[0] if a.text and keyword_reach(a.text) is not None else a.text
            out.append((text, "activated", frozenset({"effect"})))
    else:
        for kind, text in _unread_effects(a):
            out.append((text, kind, _unread_effect_affects(kind, text)))
        if isinstance(a, ir.ActivatedAbility) and a.text and _ELSEWHERE_ONLY.search(words(a.text)) \
                and zone != "elsewhere":
            # an ability that works from the hand or graveyard: the engine lists activated abilities of
            # permanents only, so off the battlefield it would be missed, on it wrongly offered (CR 113.6)
            out.append((a.text, "activated", frozenset({"timing"})))
    return out


def card_parts(card: object, abilities: tuple | None = None, zone: str | None = None) -> list[tuple[str, str, frozenset[str]]]:
    """The unread parts of a card as ``(printed text, kind, affects)``: its unread lines and keywords,
    unread effects of abilities whose structure was read, abilities read but functioning only from
    another zone, and a face the card database does not hold. ``abilities`` defaults to the card's
    printed ones; ``zone`` (None: anywhere) decides how a missing face can matter."""
    out: list[tuple[str, str, frozenset[str]]] = []
    types = tuple(card.data.types)  # type: ignore[attr-defined]
    parent = _bullet_parents(card.data.text)  # type: ignore[attr-defined]
    for a in card.abilities if abilities is None else abilities:  # type: ignore[attr-defined]
        out.extend(_ability_parts(a, types, parent, zone))
    spell = card.spell  # type: ignore[attr-defined]
    if spell is not None:
        slots = bool(spell.targets) or bool(spell.modes)
        for _, text in _unread_effects(spell):
            # a spell with no target slot read whose unread text names targets ("divided as you choose
            # among any number of targets"): its targets are unread too (CR 601.2c)
            aff = {"effect", "targets"} if not slots and _TARGET_WORD.search(words(text)) else {"effect"}
            out.append((text, "spell", frozenset(aff)))
    data = card.data  # type: ignore[attr-defined]
    out.extend(_disturb_unmodeled(card))
    if unknown_face_colors(data):
        out.append((f"{data.name}: its color is not in the card data (a back face with no mana cost, CR 202.2, "
                    "204)", "static", frozenset({"characteristics"})))
    faces = other_faces(card)  # type: ignore[arg-type]
    if faces:
        # every face is in the card data, and the situation records which one the object shows (``face``,
        # io/faces.py; none given: its front, CR 712.8a) — a face it shows is its own card, read on its own.
        # In the hand an Adventure (715.3), a split card's halves (709.3) or a modal double-faced card's back
        # face (712.11b, 712.12) may be cast or played instead: their unread parts count there
        if data.layout in ("adventure", "split", "aftermath", "modal_dfc") and zone in (None, "hand"):
            out.extend(_face_parts_in_hand(faces, zone))
            if _fuse_unmodeled(card, faces):   # both halves cast fused (CR 702.102a), not modeled for these halves
                out.append((f"Fuse: casting both halves of {data.name} together is not modeled (CR 702.102)",
                            "face", frozenset({"timing"})))
        elif data.layout == "aftermath" and zone == "graveyard":   # its aftermath half is cast from there (702.127a)
            out.extend(_face_parts_in_hand(tuple(f for f in faces if any(
                getattr(a, "name", None) == "aftermath" for a in f.abilities)), zone))
        elif data.layout == "transform" and zone in (None, _cast_zone(card)):
            out.extend(_face_parts_in_hand(faces, zone))   # its back face is cast from there (CR 702.146a, 702.162a)
        elif data.layout == "prepare" and zone == "battlefield":
            # "while it's prepared, you may cast a copy of its spell": whether it is prepared is not recorded
            names = " and ".join(f.data.name for f in faces)
            text = f"{data.name}: whether it is prepared (its owner may cast a copy of {names}) is not recorded"
            out.append((text, "face", frozenset({"timing", "costs", "targets"})))
        return out
    if data.layout in BACK_FACE_ONLY_ON_BATTLEFIELD and zone not in (None, "battlefield"):
        return out                    # only the front face exists off the battlefield (CR 712.8a)
    if data.layout == "prototype" and prototype_of(card) is not None:
        return out                    # cast prototyped or not: modeled (CR 718.3; object key prototyped)
    if data.layout in MULTI_FACE:
        # a face the card data lacks (card-faces.md: 21 cards), or a prototype line not read
        other = data.name.split(" // ", 1)[1] if " // " in data.name else "its other face"
        text = f"{other} (the other face of {data.name}, layout {data.layout}): not in the card database"
        if zone == "battlefield":
            pass                      # not prototyped unless recorded (CR 718.4; the loader refuses the key)
        elif zone == "stack":
            out.append((text, "face", frozenset({"effect", "targets", "characteristics"})))
        else:
            out.append((text, "face", classify(text, "face")))
    return out


def _disturb_unmodeled(card: Any) -> list[tuple[str, str, frozenset[str]]]:
    """"Disturb [cost]" (or "More Than Meets the Eye [cost]") on a card that is not a transforming double-faced card with its back face in the
    card data (an inline card; CR 702.146a casts the back face): the casting it offers is not modeled."""
    if transformed_cast_of(card) is not None and len(other_faces(card)) == 1:
        return []
    if getattr(card.data, "side", None) is not None:
        return []   # one face of a card read on its own (cards show, coverage): the whole card decides
    return [(a.text, "static", frozenset({"costs", "timing"})) for a in card.abilities
            if isinstance(a, ir.AlternativeCost) and a.name in ("disturb", "more than meets the eye")]


def _cast_zone(card: Any) -> str:
    """Where a transforming card's back face is cast from (disturb: the graveyard; more than meets the
    eye: the hand), or ``"-"`` (it isn't)."""
    opt = transformed_cast_of(card)
    return opt.zone if opt is not None else "-"


def unknown_face_colors(data: object) -> bool:
    """A later face (MTGJSON side "b" …) with no mana cost whose colors the card data does not give
    (card-faces.md: Shadows' Lair, Liliana's Undead Minion): its color may be a color indicator's
    (CR 204) — never assumed colorless."""
    return getattr(data, "side", None) not in (None, "a") and getattr(data, "colors", None) is None \
        and not getattr(data, "mana_cost").symbols and getattr(data, "unreadable_cost", None) is None


def _fuse_unmodeled(card: Any, faces: tuple) -> bool:
    """A split card whose halves have fuse but whose fused spell is not modeled (a half's spell not
    read, or modal: :func:`solver.rules.faces.fused_card`)."""
    fuse = [any(getattr(a, "name", None) == "fuse" for a in f.abilities) for f in faces]
    return card.data.layout == "split" and len(faces) == 2 and all(fuse) and fused_card(card) is None


def _face_parts_in_hand(faces: tuple, zone: str | None) -> list[tuple[str, str, frozenset[str]]]:
    """The unread parts of the faces a card in the hand may be cast or played as, those that
    function in the hand judged by the face's own types (CR 113.6: a land face's "As this
    enters …" does not function from the hand; an instant's spell text counts there)."""
    out: list[tuple[str, str, frozenset[str]]] = []
    for f in faces:
        types = tuple(f.data.types)
        out.extend(p for p in card_parts(f, None, zone) if zone is None or active(p[0], p[1], zone, types, f.name))
    return out

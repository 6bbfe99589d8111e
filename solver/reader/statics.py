"""Reading the casting rules of Oracle text: cost changes, timing permissions
and restrictions, target-quality keywords, and loyalty abilities.

Hooked into :mod:`.grammar` in three places: :func:`keyword_item` is tried
first for every keyword of a keyword line, :func:`line_casting` and
:func:`line_loyalty` are line templates. What they produce is executed by
:mod:`solver.rules.casting_rules` (costs, timing, qualities), :mod:`solver.rules.targeting`
and :mod:`solver.engine.actions` (loyalty abilities).

Wordings read
-------------
Cost changes (CR 601.2f, 118.7) — :class:`~solver.core.ir.CastingRule`:

* "<spells> [you cast | your opponents cast] cost {N} more|less to cast."
  and "Each <spell> [you cast | your opponents cast] costs {N} more|less to
  cast.", where <spells> is [color] [nonTYPE…] [Subtype] [TYPE (and|or|, TYPE)*]
  spell(s), or several such joined by "and" ("Green spells and blue spells":
  a spell fitting any of them, reduced once; Sunscape Familiar), or followed
  by "of the chosen type" (Herald's Horn: the creature type chosen for the
  source, object key ``chosen: {type: …}``) (Thalia, Guardian of Thraben; Sphere of Resistance; Goblin
  Electromancer; the Medallions; "Creature spells you cast cost {1} less");
* "This spell costs {N} less|more to cast for each <[attacking] permanents
  you control | [color] TYPE card in your graveyard>." (Ghoultree, Embercleave;
  the spell's own rule);
* "Affinity for <TYPEs | Subtype(s)>" (CR 702.41a: "This spell costs {1} less
  to cast for each [text] you control");
* "As long as this … is untapped, each spell that would cost less than N
  mana to cast costs N mana to cast." (Trinisphere).

Timing (CR 601.3, 702.8a) — :class:`~solver.core.ir.CastingRule`:

* "You may cast <spells> as though they had flash." (Leyline of
  Anticipation; "creature spells": Vivien, Champion of the Wilds);
* "Each opponent can cast spells only any time they could cast a sorcery."
  (Teferi, Time Raveler);
* "Your opponents can't cast spells during your turn." (Dragonlord Dromoka).

Targeting (CR 702.11, 702.16, 702.18, 702.21):

* keywords "hexproof from <quality> [and from <quality>]…" and
  "protection from <quality> [and from <quality>]…" where a quality is a
  color, "each color"/"all colors", multicolored, monocolored, colorless,
  everything, a card type ("artifacts", "creatures", "instants"), a plural
  subtype ("Demons"), or "spells that are one or more colors" (Emrakul);
* "<permanents> have|has hexproof from …|protection from …" (granted:
  ``Grant(granted=Keyword(...))``, one per quality);
* "This … can't be the target of spells or abilities your opponents
  control." (hexproof's own definition, CR 702.11b) and "… can't be the
  target of spells or abilities." (shroud's, CR 702.18a);
* "Ward {N}" / "Ward—<cost>": a triggered ability (CR 702.21a) whose
  trigger is not modeled; it never makes a target illegal, so it stays an
  ``Unsupported`` part with ``affects={"triggers"}`` — the ``targets``
  question is not blocked by it, questions about triggers are.

Loyalty abilities (CR 606):

* "[+N]: …", "[−N]: …", "[0]: …": an :class:`~solver.core.ir.ActivatedAbility`
  with ``Cost(loyalty=±N)`` and ``sorcery=True`` (CR 606.3); its effect is
  read by the effect grammar, or, when not, kept as
  ``UnreadEffect(...)`` provided every "target" of the text is
  read (a sentence opening with a target phrase, "Target player discards a
  card."); otherwise the whole line stays unsupported.

Everything else stays ``Unsupported`` (the soundness layer classifies it):
cost changes with colored amounts or conditions ("if", "as long as" other
than Trinisphere's), "Spells your opponents cast that target …", changes to
activated abilities' costs, "can't cast more than one spell each turn",
"can't be the target of spells" (spells only), protection from players or
from a chosen color, "[−X]" loyalty costs.
"""
from __future__ import annotations

from dataclasses import replace
from typing import Sequence

from ..core import ir
from ..core.ir import (SELF, ActivatedAbility, CantBeCountered, CastingRule, Cost, Count, Filter, Keyword, Selector, Static,
                  UnreadEffect, Unsupported, Ward)
from .costs import parse_cost
from .subtypes import SUBTYPES
from .tokens import Token, detokenize, template
from .vocabulary import COLOR_WORDS, singular, TYPE_PLURALS
from .cursor import Cursor, NoMatch, sentences
from .phrases import counter_kind, number, pt
from .activation_conditions import _controlled
from .descriptions import desc, selector_phrase, to_selector
from .scope import Scope, target_phrase
from .production import _graveyard_cards
from .effects import effect_text
from .spend_restrictions import SPELL_TYPE_WORDS, _spend_filters, _spend_nouns
from .structure import _ends_phrase
from .structure import loyalty_cost


# --------------------------------------------------------------------------
# Spell descriptions
# --------------------------------------------------------------------------

def spells_phrase(c) -> Filter:
    """[color] [colorless|multicolored] [nonTYPE|noncolor]* [TYPE (and|or|, TYPE)*] ("spell"|"spells")."""
    colors: set[str] = set()
    not_colors: set[str] = set()
    adjs: set[str] = set()
    non: set[str] = set()
    while (w := c.low()) is not None:
        if w in COLOR_WORDS:
            colors.add(COLOR_WORDS[w])
        elif w in ("colorless", "multicolored"):
            adjs.add(w)
        elif w.startswith("non") and w[3:] in SPELL_TYPE_WORDS:
            non.add(SPELL_TYPE_WORDS[w[3:]])
        elif w.startswith("non") and w[3:] in COLOR_WORDS:
            not_colors.add(COLOR_WORDS[w[3:]])
        else:
            break
        c.i += 1
    if len(colors) > 1:
        raise NoMatch("one color only")
    nouns = _spend_nouns(c, SPELL_TYPE_WORDS, {})  # "instant and sorcery", "Dragon", "Dinosaur creature"
    c.need(("spell", "spells"))
    filters = _spend_filters(adjs, non, nouns, "stack")
    if len(filters) != 1:
        raise NoMatch("one filter")
    return replace(filters[0], colors=frozenset(colors), not_colors=frozenset(not_colors))


def _caster(c) -> str:
    if c.take("you", "cast"):
        return "you"
    if c.take("your", "opponents", "cast"):
        return "opponent"
    return "any"


def _generic(c) -> int:
    t = c.peek()
    if t is None or t.kind != "SYM" or not t.low.isdigit():
        raise NoMatch("a generic mana amount")
    c.i += 1
    return int(t.low)


def _every_spell(f: Filter) -> Filter | None:
    return None if f == Filter(zone="stack") else f


def cost_change(c) -> CastingRule:
    """"<spells> [who] cost {N} more|less to cast" / "Each <spell> [who] costs …"."""
    each = c.take("each")
    f = spells_phrase(c)
    more_fs: list[Filter] = []
    while not each and c.take("and"):      # "Green spells and blue spells you cast …": either (CR 601.2f)
        more_fs.append(spells_phrase(c))
    chosen = c.take("of", "the", "chosen", "type")
    who = _caster(c)
    chosen = chosen or c.take("of", "the", "chosen", "type")   # "Creature spells you cast of the chosen type"
    if chosen:
        if more_fs or f.types != frozenset({"Creature"}):
            # a creature type only: "Spells you cast of the chosen type" (Cloud Key) is a card type
            raise NoMatch("the chosen creature type of creature spells")
        f = replace(f, chosen_type=True)
    c.need("costs" if each else "cost")
    n = _generic(c)
    more = c.take("more")
    if not more:
        c.need("less")
    c.need("to", "cast")
    c.end()
    if n <= 0:
        raise NoMatch("an amount")
    if more_fs and (_every_spell(f) is None or any(_every_spell(x) is None for x in more_fs)):
        raise NoMatch("every spell among alternatives")
    return (ir.CostIncrease if more else ir.CostReduction)(who=who, spells=_every_spell(f), amount=n,
                                                           spells_or=tuple(more_fs))


def self_cost_change(c) -> CastingRule:
    """"This spell costs {N} less to cast for each …" and "… if you control <permanents>" (the
    spell's own rule, CR 601.2f: the condition is judged as the total cost is determined)."""
    c.need("SELF", "costs")
    n = _generic(c)
    more = c.take("more")
    if not more:
        c.need("less")
    c.need("to", "cast")
    if c.take("if", "you", "control"):
        cond = _controlled(c)
        c.end()
        return (ir.CostIncrease if more else ir.CostReduction)(amount=n, self_only=True, condition=cond)
    c.need("for", "each")
    per = c.attempt(_graveyard_cards, False)
    if per is None and c.take("instant", "and", "sorcery", "card", "in", "your", "graveyard"):
        per = Count(Selector(self_only=True), "cards",
                    card_filter=Filter(types=frozenset({"Instant", "Sorcery"}), zone="graveyard"))
    if per is None:
        d = desc(c)
        if d.plural or d.who != "you":
            raise NoMatch("a permanent you control")
        attacking = d.combat == {"attacking"}      # "for each attacking creature you control" (Embercleave)
        if attacking:
            d.combat = set()
        sel = to_selector(d)
        per = Count(replace(sel, attacking=True) if attacking else sel)
    c.end()
    return (ir.CostIncrease if more else ir.CostReduction)(amount=n, per=per, self_only=True)


def trinisphere(c) -> CastingRule:
    """"As long as this is untapped, each spell that would cost less than N mana to cast costs N mana to cast."""
    c.need("as", "long", "as", "SELF", "is", "untapped", ",", "each", "spell", "that", "would", "cost", "less",
           "than")
    n = number(c)
    c.need("mana", "to", "cast", "costs")
    m = number(c)
    c.need("mana", "to", "cast")
    c.end()
    if n != m or not isinstance(n, int):
        raise NoMatch("the same amount")
    return ir.CostMinimum(amount=n, untapped_only=True)


def as_though_flash(c) -> CastingRule:
    """"You may cast <spells> as though they had flash." (CR 702.8a)."""
    c.need("you", "may", "cast")
    f = spells_phrase(c)
    c.need("as", "though", "they", "had", "flash")
    c.end()
    return ir.AsThoughFlash(who="you", spells=_every_spell(f))


def sorcery_timing_only(c) -> CastingRule:
    c.need("each", "opponent", "can", "cast", "spells", "only", "any", "time", "they", "could", "cast", "a",
           "sorcery")
    c.end()
    return ir.SorceryTimingOnly(who="opponent")


def cant_cast_during_your_turn(c) -> CastingRule:
    c.need("your", "opponents", "can't", "cast", "spells", "during", "your", "turn")
    c.end()
    return ir.CantCastDuringYourTurn(who="opponent")


# --------------------------------------------------------------------------
# Qualities
# --------------------------------------------------------------------------

_QUALITY_WORDS = {"multicolored": "multicolored", "monocolored": "monocolored", "colorless": "colorless",
                  "everything": "everything"}


def quality(c) -> list[str]:
    """One quality of protection / hexproof from (CR 702.16a): a list (``each color`` is five)."""
    if c.take("all", "colors") or c.take("each", "color"):
        return ["W", "U", "B", "R", "G"]
    if c.take("spells", "that", "are", "one", "or", "more", "colors"):
        return ["colored spells"]
    w = c.low()
    t = c.peek()
    if w is None or t.kind != "WORD":
        raise NoMatch("a quality")
    if w in COLOR_WORDS:
        c.i += 1
        return [COLOR_WORDS[w]]
    if w in _QUALITY_WORDS:
        c.i += 1
        return [_QUALITY_WORDS[w]]
    if w in TYPE_PLURALS and TYPE_PLURALS[w] != "Permanent":
        c.i += 1
        return [TYPE_PLURALS[w]]
    if t.text[:1].isupper():
        one = singular(t.text)
        if one != t.text and one in SUBTYPES:
            c.i += 1
            return [one]
    raise NoMatch("a quality")


def qualities(c) -> list[str]:
    out = quality(c)
    while True:
        if c.take("and", "from") or c.take(",", "from") or c.take(",", "and", "from"):
            out.extend(quality(c))
            continue
        if c.at("and"):  # "hexproof from artifacts and enchantments"
            save = c.i
            c.i += 1
            more = c.attempt(quality)
            if more is not None:
                out.extend(more)
                continue
            c.i = save
        return out


def quality_keywords(c) -> list[Keyword]:
    """"hexproof from <q> [and from <q>]…" / "protection from <q> [and from <q>]…"."""
    if c.take("hexproof", "from"):
        return [Keyword("hexproof from", q) for q in qualities(c)]
    c.need("protection", "from")
    return [Keyword("protection", q) for q in qualities(c)]


def keyword_item(toks: Sequence[Token], raw: str = "") -> list | None:
    """A keyword of a keyword line read here, or None (the grammar goes on)."""
    c = Cursor(toks)
    low = [t.low for t in toks]
    try:
        if low[:2] in (["hexproof", "from"], ["protection", "from"]):
            kws = quality_keywords(c)
            c.end()
            if low[0] == "protection" and all(k.arg in "WUBRG" and len(k.arg) == 1 for k in kws):
                return None  # the grammar's own colors reading
            return kws
        if low[:2] == ["affinity", "for"]:
            c.i = 2
            d = desc(c)
            c.end()
            if not d.plural and not d.subtypes:  # "affinity for artifacts", "affinity for Equipment"
                raise NoMatch("affinity for a plural")
            d.who = "you"
            return [ir.CostReduction(amount=1, per=Count(to_selector(d)), self_only=True)]
        if low[:1] == ["ward"]:
            return [ward(toks[1:], raw)]
    except NoMatch:
        return None
    return None


def ward(toks: Sequence[Token], raw: str) -> Ward | Unsupported:
    """"Ward {N}" / "Ward—<cost>" (CR 702.21a): :class:`~solver.core.ir.Ward` when the activation-cost
    grammar (:func:`solver.reader.costs.parse_cost`) reads the cost and it is one the engine pays at
    resolution (mana without X, CR 702.21b; life; one sacrifice); otherwise an ``Unsupported``
    triggered part (``affects={"triggers"}``: it never makes a target illegal)."""
    body = list(toks[1:]) if toks and toks[0].low == "—" else list(toks)
    try:
        cost = parse_cost(body)
    except NoMatch:
        cost = None
    if cost is not None and _ward_payable(cost):
        return Ward(cost, raw)
    return Unsupported("ward " + template(toks).strip(), raw, "triggered", frozenset({"triggers"}))


def _ward_payable(cost: Cost) -> bool:
    """A ward cost the engine pays (:mod:`solver.engine.ward`): mana without X, life, a sacrifice."""
    plain = Cost(mana=cost.mana, life=cost.life, sacrifice=cost.sacrifice)
    return cost == plain and cost.mana.x_count == 0 and cost != Cost()


def granted_qualities(c) -> list[Static]:
    """"<permanents> have|has hexproof from …|protection from …"."""
    sel = selector_phrase(c)
    pump = []
    if c.take(("gets", "get")):  # "Equipped creature gets +2/+2 and has protection from red and from blue."
        p, q = pt(c)
        c.need("and")
        pump = [ir.StaticPump(sel, power=p, toughness=q)]
    c.need(("has", "have"))
    kws = quality_keywords(c)
    c.end()
    return pump + [ir.Grant(sel, granted=k) for k in kws]


def cant_be_countered(c) -> CantBeCountered:
    """"This spell can't be countered." (CR 101.2, 701.6a)."""
    c.need("SELF", "can't", "be", "countered")
    c.take(".")
    return CantBeCountered()


def doesnt_untap(c) -> ir.DoesntUntap:
    """"This artifact doesn't untap during your untap step." (CR 502.3; a static ability of the
    permanent about itself, CR 604.1); "Enchanted creature doesn't untap during its controller's untap
    step." (an Aura's or Equipment's, about the permanent it is attached to)."""
    if c.take(("enchanted", "equipped")):   # the permanent it is attached to (CR 303.4, 301.5)
        c.need(("creature", "permanent", "land", "artifact"), "doesn't", "untap", "during", "its", "controller's",
               "untap", "step")
        c.take(".")
        return ir.DoesntUntap(attached=True)
    c.need("SELF", "doesn't", "untap", "during", "your", "untap", "step")
    c.take(".")
    return ir.DoesntUntap()


def exile_instead(c) -> ir.ExileInstead:
    """"If <this> would be put into a graveyard from anywhere, exile it instead." (CR 614.1a; the back
    faces of disturb cards, 702.146)."""
    c.need("if", "SELF", "would", "be", "put", "into", "a", "graveyard", "from", "anywhere", ",", "exile", "it",
           "instead")
    c.take(".")
    return ir.ExileInstead()


def damage_to_counters(c) -> ir.DamageToCounters:
    """"If a source you control would deal [noncombat] damage to a creature [an opponent controls], put that
    many <kind> counters on that creature instead." (CR 614.1a, 122.1)."""
    c.need("if", "a", "source", "you", "control", "would", "deal")
    noncombat = c.take("noncombat")
    c.need("damage", "to", "a", "creature")
    opponents = c.take("an", "opponent", "controls")
    c.need(",", "put", "that", "many")
    kind = counter_kind(c)
    c.need("counters", "on", "that", "creature", "instead")
    c.take(".")
    return ir.DamageToCounters(kind, noncombat, opponents)


def untargetable_self(c) -> list[Keyword]:
    """"This … can't be the target of spells or abilities [your opponents control]." (CR 702.11b, 702.18a)."""
    c.need("SELF", "can't", "be", "the", "target", "of", "spells", "or", "abilities")
    if c.take("your", "opponents", "control"):
        c.end()
        return [Keyword("hexproof")]
    c.end()
    return [Keyword("shroud")]


def spend_as_any_color(c) -> Static:
    """"You may spend mana as though it were mana of any color to activate abilities of
    <permanents> you control." (CR 609.4b): ``SpendAsAnyColor(affected)``; the
    payment models refuse (unsupported) the payments it could change
    (:func:`solver.rules.activation_rules.spend_as_any_color_reason`)."""
    c.need("you", "may", "spend", "mana", "as", "though", "it", "were", "mana", "of", "any", "color", "to",
           "activate", "abilities", "of")
    d = desc(c)
    c.end()
    if not d.plural or d.who != "you":
        raise NoMatch("permanents you control")
    return ir.SpendAsAnyColor(to_selector(d))


def activation_ban(c) -> list[Static]:
    """"Activated abilities of <permanents> can't be activated [unless they're mana abilities]."
    (CR 602.5; Collector Ouphe, Karn, the Great Creator, Damping Matrix) and "… of sources with the
    chosen name …" (Pithing Needle, Phyrexian Revoker): ``CantActivate``, one per kind
    of permanent ("artifacts and creatures"), applied by :mod:`solver.rules.activation_rules`."""
    c.need("activated", "abilities", "of")
    if c.take("sources", "with", "the", "chosen", "name"):
        parts = [ir.CantActivate(chosen_name=True)]
    else:
        descs = [desc(c)]
        while c.take(",", "and") or c.take(",", "or") or c.take("and") or c.take("or") or c.take(","):
            descs.append(desc(c))
        if any(not d.plural or d.types_joined_by_or or (d.who != "any" and len(descs) > 1) for d in descs):
            raise NoMatch("plural permanents, one kind each (whose: only with one kind)")
        parts = [ir.CantActivate(to_selector(d)) for d in descs]
    c.need("can't", "be", "activated")
    except_mana = c.take("unless", "they're", "mana", "abilities")
    c.end()
    return [replace(p, except_mana=except_mana) for p in parts]


def spells_cant_be_countered(c) -> CantBeCountered:
    """"[Color] [nonTYPE | TYPE (and|or TYPE)*] spells [you control] can't be countered." (CR 101.2, 701.6a):
    a permanent's static ability about other spells (CR 113.6), e.g. "Creature spells you control can't be
    countered.", "Spells can't be countered."."""
    colors: set[str] = set()
    types: set[str] = set()
    non: set[str] = set()
    if c.low() in COLOR_WORDS:
        colors.add(COLOR_WORDS[str(c.low())])
        c.i += 1
    while (w := c.low()) is not None and w != "spells":
        if w.startswith("non") and w[3:] in SPELL_TYPE_WORDS and not types and not non:
            non.add(SPELL_TYPE_WORDS[w[3:]])
        elif w in SPELL_TYPE_WORDS and not non:
            types.add(SPELL_TYPE_WORDS[w])
        elif not (w in ("and", "or") and types):
            raise NoMatch("spells description")
        c.i += 1
    c.need("spells")
    who = "you" if c.take("you", "control") else "any"
    c.need("can't", "be", "countered")
    c.take(".")
    c.end()
    return CantBeCountered(spells=Filter(types=frozenset(types), zone="stack", nontypes=frozenset(non),
                                         colors=frozenset(colors), who=who))


_LINE_PARSERS = (cost_change, self_cost_change, trinisphere, as_though_flash, sorcery_timing_only,
                 cant_cast_during_your_turn, granted_qualities, untargetable_self,
                 activation_ban, spend_as_any_color, cant_be_countered,
                 spells_cant_be_countered, exile_instead, doesnt_untap, damage_to_counters)


def line_casting(toks: Sequence[Token], ctx, raw: str) -> list:
    """A one-sentence static read by one of this module's templates (with ``text``)."""
    sents = sentences(toks)
    if len(sents) != 1:
        raise NoMatch("one sentence")
    for fn in _LINE_PARSERS:
        c = Cursor(sents[0])
        try:
            got = fn(c)
            c.end()
        except NoMatch:
            continue
        parts = got if isinstance(got, list) else [got]
        return [p if isinstance(p, Keyword) else replace(p, text=raw) for p in parts]  # a keyword has no text
    raise NoMatch("no casting template")


# --------------------------------------------------------------------------
# Loyalty abilities (CR 606)
# --------------------------------------------------------------------------

def _targets_only(sents, s) -> bool:
    """Read the targets of sentences whose effect the grammar can't read: each
    sentence that says "target" must open with a target phrase, and say it once."""
    for st in sents:
        n = sum(1 for t in st if t.low == "target")
        if n == 0:
            continue
        if n > 1:
            return False
        c = Cursor(st)
        if c.at("until") and any(t.low == "," for t in st):  # "Until your next turn, up to one target …"
            c.i = next(i for i, t in enumerate(st) if t.low == ",") + 1
        try:
            target_phrase(c, s)
        except NoMatch:
            return False
        if not _ends_phrase(st, c.i):
            return False
    return True


def _loyalty_cost(c) -> int:
    return loyalty_cost(c)


def line_loyalty(toks: Sequence[Token], ctx, raw: str) -> list:
    """A loyalty ability (CR 606): ``ActivatedAbility(Cost(loyalty=n), …, sorcery=True)``."""
    c = Cursor(toks)
    n = _loyalty_cost(c)
    eff = list(c.rest())
    sents = sentences(eff)
    if not sents:
        raise NoMatch("no effect")
    s = Scope(last=SELF, source_is_permanent=True, adds_mana=True)
    try:
        effect_text(sents, s)
        if not s.effects:
            raise NoMatch("no effect")
        targets, effects = tuple(s.targets), tuple(s.effects)
    except NoMatch:
        s = Scope(last=SELF, source_is_permanent=True, adds_mana=True)
        if not _targets_only(sents, s):
            raise
        text = raw.split(":", 1)[1].strip() if ":" in raw else detokenize(eff).strip()  # as printed
        targets, effects = tuple(s.targets), (UnreadEffect(text),)
    return [ActivatedAbility(Cost(loyalty=n), targets, effects, True, raw)]

"""The structure of a line whose meaning stays unread (architecture: "read in layers").

Legal choices depend on each ability's kind, costs, timing and targets, not on what
it does (issue "real decks"). :mod:`.structure` reads an ability whose *effect* is
unread when its event or cost is one the grammar models; this module goes one layer
further for lines that stay :class:`~solver.core.ir.Unsupported` as a whole: it reads
their structure into a :class:`~solver.core.ir.Skeleton` attached to the unsupported part
(``Unsupported.structure``). The part stays unsupported — the soundness analysis
(solver/rules/soundness/unread.py, solver/rules/soundness/check.py) classifies and blocks it exactly as before;
only the reader's structure layer (``LineReading.structured``, ``cards coverage``)
and ``cards show`` see the difference.

A structure is read only when every piece of it is:

* **keyword** (CR 702): a keyword the comprehensive rules define, named with its
  parameter — nothing, a number, a mana cost, "N—{cost}", a cost after a dash
  ("Ward—Pay 3 life"), or a quality ("protection from …");
* **triggered** (CR 603): "When/Whenever/At [event][, if condition], [effect]": the
  event and condition are unread words with no instance of "target" (CR 115.1) in
  them; every target of the effect is read with its filter and count
  (:func:`.structure.scan_targets`; a target of a reflexive or delayed trigger is not);
  a mana ability (CR 605.1b) and a choice of modes (CR 700.2) are not read here;
* **activated** (CR 602): the cost is read (:func:`parse_cost`, a loyalty cost, CR 606);
  timing sentences are those of :data:`TIMING` (anything else about activating leaves the
  line unread); every target of the effect is read; a mana ability is not read here; a
  Class's "Level N" is sorcery-timed and level-gated by its rule (CR 716.2a);
* **static** (CR 604): not activated, not triggered, no instance of "target" outside
  quotes (static abilities don't target, CR 115.1); a quoted granted ability with a
  target must itself have a readable structure; a line about casting *this* object
  (its own costs or timing: "This spell costs …", "As an additional cost to cast …",
  "cast … as though it had flash") is a cost or timing structure, not read here.
"""
from __future__ import annotations

from dataclasses import replace
from functools import lru_cache
from typing import Any, Sequence

from ..core.ir import Cost, Skeleton, TargetSpec, Unsupported
from .reading_mode import skeleton_reading
from .structure import KEYWORD_AFFECTS, _after_flavor_word, _g, _phrase_start, loyalty_cost, scan_targets
from .tokens import NUMBER_WORDS, Token, detokenize

__all__ = ["annotate", "keyword_skeleton", "line_skeleton", "spell_line_skeleton", "TIMING"]

#: Activation restrictions read as timing (CR 602.5b, 606.3, 716.2a), by their words.
TIMING: dict[tuple[str, ...], str] = {
    tuple(k.split()): v for k, v in {
        "activate only as a sorcery": "sorcery",
        "activate only once each turn": "once each turn",
        "activate only once": "once",
        "activate only during your turn": "during your turn",
        "activate only during your upkeep": "during your upkeep",
        "activate only during combat": "during combat",
        "activate only as an instant": "instant",
        "any player may activate this ability": "any player",
        "activate no more than twice each turn": "twice each turn",
        "activate no more than three times each turn": "three times each turn",
        "activate only once each turn and only as a sorcery": "sorcery; once each turn",
    }.items()}

# Words after "this"/SELF that make a line about casting its own object (a cost or timing line).
_OWN_CASTING = ("cost", "costs", "cast", "additional", "flash", "rather", "without", "spend", "split", "as")


def _words(toks: Sequence[Token]) -> list[str]:
    return [t.low for t in toks if t.kind in ("WORD", "SELF", "NUM", "SYM")]


def _no_target_instance(toks: Sequence[Token]) -> bool:
    """No word "target"/"targets" outside quotes is an instance of targeting (CR 115.1)."""
    quoted = False
    for i, t in enumerate(toks):
        if t.kind == "QUOTE":
            quoted = not quoted
        elif not quoted and t.kind == "WORD" and t.low in ("target", "targets") and _phrase_start(toks, i) is not None \
                and not (i >= 1 and toks[i - 1].low == "each" and i + 1 < len(toks) and toks[i + 1].low == "beyond"):
            return False  # ("for each target beyond the first": a count of targets, not an instance)
    return True


def _quoted(toks: Sequence[Token]) -> list[list[Token]]:
    out: list[list[Token]] = []
    cur: list[Token] | None = None
    for t in toks:
        if t.kind == "QUOTE":
            if cur is None:
                cur = []
            else:
                out.append(cur)
                cur = None
        elif cur is not None:
            cur.append(t)
    if cur is not None:
        raise _g().NoMatch("unbalanced quotes")
    return out


def _targets_of(sents: Sequence[Sequence[Token]], source_is_permanent: bool, x_defined: bool) -> tuple[TargetSpec, ...]:
    g = _g()
    s = g.Scope(source_is_permanent=source_is_permanent, x_defined=x_defined)
    with skeleton_reading():
        for st in sents:
            scan_targets(st, s)
    return tuple(s.targets)


# --------------------------------------------------------------------------
# Costs (CR 118, 601.2f–h, 602.1a)
# --------------------------------------------------------------------------

#: Verbs that begin a cost item the IR cannot hold (CR 118.3, 701.x keyword actions).
COST_VERBS = frozenset("""
sacrifice discard exile pay remove return tap untap put reveal mill collect forage exert blight behold waterbend
airbend earthbend firebend expend gather shuffle draw lose create turn
""".split())


def _mana_item(item: Sequence[Token]) -> str | None:
    g = _g()
    if item and all(t.kind == "SYM" and t.low not in ("T", "Q", "E") for t in item):
        g.mana_cost(item)  # NoMatch: not a mana cost
        return "mana " + "".join(t.text for t in item)
    return None


def cost_items(toks: Sequence[Token]) -> tuple[str, ...]:
    """A cost the IR cannot hold, item by item (items separated by commas, "and" before the
    last): mana, {T}, {Q}, {E} payments, and items led by a verb of :data:`COST_VERBS`. No
    item may target (a cost never targets, CR 115.1); raises NoMatch otherwise."""
    g = _g()
    items: list[list[Token]] = [[]]
    for t in toks:
        if t.kind == "PUNCT" and t.low == ",":
            items.append([])
        else:
            items[-1].append(t)
    if items and items[-1][:1] and items[-1][0].low == "and":
        items[-1] = items[-1][1:]
    out: list[str] = []
    for it in items:
        if not it:
            raise g.NoMatch("empty cost item")
        if not _no_target_instance(it) or any(t.kind == "WORD" and t.low in ("target", "targets") for t in it):
            raise g.NoMatch("a cost with a target")
        mana = _mana_item(it)
        if mana is not None:
            out.append(mana)
        elif len(it) == 1 and it[0].kind == "SYM" and it[0].low in ("T", "Q"):
            out.append("tap" if it[0].low == "T" else "untap")
        elif it[0].kind == "WORD" and it[0].low in COST_VERBS and len(it) > 1:
            out.append(f"{it[0].low}: " + detokenize(it[1:]).strip())
        elif it[0].kind == "WORD" and it[0].low in ("forage", "exert") and len(it) == 1:
            out.append(it[0].low)
        else:
            raise g.NoMatch("a cost item not read")
    return tuple(out)


def _cost(toks: Sequence[Token]) -> tuple[Cost | None, tuple[str, ...]]:
    """The IR's cost when it holds this one (:func:`parse_cost`), else its items."""
    g = _g()
    try:
        return g.parse_cost(toks), ()
    except g.NoMatch:
        return None, cost_items(toks)


# --------------------------------------------------------------------------
# Keywords (CR 702)
# --------------------------------------------------------------------------

@lru_cache(maxsize=1)
def _known_keywords() -> frozenset[str]:
    """The keyword names of CR 702 the reader knows (built once: asked for every keyword item)."""
    return frozenset(_g().KEYWORD_NAMES) | frozenset(KEYWORD_AFFECTS)


def _parameter_ok(rest: Sequence[Token]) -> tuple[bool, Cost | None]:
    """Is ``rest`` a keyword's parameter: nothing, a number, a mana cost, "N—{cost}",
    "—[cost]" (CR 702.21a ward, 702.34a flashback …), or a quality ("from …")?"""
    g = _g()
    if not rest:
        return True, None
    c = g.Cursor(rest)
    first = rest[0]
    if first.kind == "WORD" and first.low in ("from", "with"):
        return all(t.kind != "QUOTE" and not (t.kind == "WORD" and t.low in ("target", "targets"))
                   for t in rest), None
    if first.kind == "NUM" or (first.kind == "WORD" and first.low in NUMBER_WORDS) or \
            (first.kind == "SYM" and first.low == "X" and len(rest) == 1):
        c.i += 1
        if c.done():
            return True, None
        if not c.take("—"):
            return False, None
    elif c.take("—"):
        return True, _cost(list(c.rest()))[0]  # NoMatch: the cost is not read
    run = g.mana_run(c)
    return c.done(), Cost(mana=g.mana_cost(run))


def keyword_skeleton(words_of: str | Sequence[Token], card_keywords: frozenset[str] = frozenset()
                     ) -> Skeleton | None:
    """A keyword named with its parameter, or None. Accepts a normalised keyword item
    ("crew N", "ward {M}", the reader's ``Unsupported.what``) or a line's tokens.
    ``card_keywords``: the card database's keyword names for the card (lower case), which
    name keywords newer than :data:`.grammar.KEYWORD_NAMES`."""
    g = _g()
    known = _known_keywords() | card_keywords
    if isinstance(words_of, str):
        w = words_of.lower().strip(" .").split()
        n = _keyword_head(w, known)
        if not n:
            return None
        head, rest = " ".join(w[:n]), " ".join(w[n:])
        if rest in ("", "n", "{m}", "n—{m}", "x") or rest.startswith(("from ", "with ")) or \
                (rest.startswith("—") and "target" not in rest):
            return Skeleton("keyword", keyword=head)
        if head in ("enchant", "equip", "splice onto", "champion", "affinity for", "kicker", "cumulative upkeep",
                    "suspend", "prototype", "level", "landwalk", "offering", "typecycling") \
                and "target" not in rest and '"' not in rest and len(rest.split()) <= 8:
            return Skeleton("keyword", keyword=head)  # a keyword whose parameter is a quality or costs
        return None
    toks = list(words_of)
    while toks and toks[-1].kind == "PUNCT" and toks[-1].low == ".":
        toks.pop()
    words = []
    for t in toks:
        if t.kind != "WORD":
            break
        words.append(t.low)
    n = _keyword_head(words, known)
    if not n:
        return None
    try:
        ok, cost = _parameter_ok(toks[n:])
    except g.NoMatch:
        return None
    return Skeleton("keyword", keyword=" ".join(words[:n]), cost=cost) if ok else None


def _keyword_head(words: Sequence[str], known: frozenset[str]) -> int:
    """How many leading words name a keyword (the longest, up to four), 0 if none."""
    for n in range(min(4, len(words)), 0, -1):
        head = " ".join(words[:n])
        if head in known or (n == 1 and head.endswith("cycling")):
            return n
    return 0


# --------------------------------------------------------------------------
# Triggered abilities (CR 603)
# --------------------------------------------------------------------------

def _clause_end(toks: Sequence[Token], start: int) -> int:
    """Index of the comma ending a trigger event or condition that starts at ``start``
    (a comma followed by a list's continuation does not end it); -1 if none."""
    g = _g()
    quoted = False
    for i in range(start, len(toks)):
        t = toks[i]
        if t.kind == "QUOTE":
            quoted = not quoted
        if quoted or t.kind != "PUNCT" or t.low != ",":
            continue
        n = toks[i + 1] if i + 1 < len(toks) else None
        if n is not None and n.low in ("or", "and", "and/or"):
            continue
        if n is not None and (n.low in g.TYPE_WORDS or n.low in g.TYPE_PLURALS or n.low in g.COLOR_WORDS
                              or n.low.startswith("non")) and _list_goes_on(toks, i + 1):
            continue  # "an artifact, creature, or enchantment spell"
        return i
    return -1


def _list_goes_on(toks: Sequence[Token], start: int) -> bool:
    """After a comma at ``start - 1``: is this an item of a list whose last item follows
    ", or"/", and" (before any period)?"""
    for j in range(start, len(toks) - 1):
        if toks[j].kind == "PUNCT" and toks[j].low == ".":
            return False
        if toks[j].kind == "PUNCT" and toks[j].low == ",":
            return toks[j + 1].low in ("or", "and", "and/or")
    return False


def _triggered(body: Sequence[Token], ctx: Any) -> Skeleton:
    g = _g()
    if not body or body[0].low not in ("when", "whenever", "at"):
        raise g.NoMatch("not a trigger")
    end = _clause_end(body, 1)
    if end < 0:
        raise g.NoMatch("no end to the trigger event")
    if body[end + 1: end + 2] and body[end + 1].low == "if":  # an intervening "if" clause (CR 603.4)
        end = _clause_end(body, end + 2)
        if end < 0:
            raise g.NoMatch("no end to the trigger condition")
    event, effect = body[:end], body[end + 1:]
    if not effect or not _no_target_instance(event):
        raise g.NoMatch("a target in the trigger event")
    words = _words(effect)
    if words[:1] == ["add"] or ("mana" in _words(event) and "add" in words):
        raise g.NoMatch("a triggered mana ability (CR 605.1b)")
    if words[:1] == ["choose"] and any(t.low == "—" for t in effect):
        raise g.NoMatch("a modal trigger (CR 700.2)")
    for q in _quoted(effect):
        if not _no_target_instance(q):
            line_skeleton(q, ctx, granted=True)
    return Skeleton("triggered", targets=_effect_targets(effect, ctx))


def _effect_targets(effect: Sequence[Token], ctx: Any) -> tuple[TargetSpec, ...]:
    """The targets of an effect: its own, then those of a reflexive triggered ability in it
    ("When you do, …", CR 603.12: chosen when that ability is put on the stack, read as
    target slots of the same structure)."""
    g = _g()
    sents = g.sentences(effect)
    if not sents:
        raise g.NoMatch("no effect")
    for k, st in enumerate(sents):
        w = _words(st)
        if w[:3] in (["when", "you", "do"], ["whenever", "you", "do"]) or w[:2] == ["when", "they"]:
            c = _clause_end(st, 1)
            if c < 0:
                raise g.NoMatch("a reflexive trigger without an effect")
            inner = [list(st[c + 1:])] + [list(x) for x in sents[k + 1:]]
            return _targets_of(sents[:k], True, False) + _targets_of(inner, True, False)
    return _targets_of(sents, True, False)


_CHAPTERS = frozenset({"i", "ii", "iii", "iv", "v", "vi"})


def _chapter(body: Sequence[Token], ctx: Any) -> Skeleton | None:
    """A Saga's chapter ability "I, II — [effect]" (CR 714.2b: a triggered ability)."""
    k = 0
    while k < len(body) and (body[k].low in _CHAPTERS or body[k].low == ","):
        k += 1
    if k == 0 or k >= len(body) or body[k].low != "—" or body[0].low not in _CHAPTERS:
        return None
    effect = body[k + 1:]
    if not effect:
        return None
    for q in _quoted(effect):
        if not _no_target_instance(q):
            line_skeleton(q, ctx, granted=True)
    return Skeleton("triggered", keyword="chapter", targets=_effect_targets(effect, ctx))


# --------------------------------------------------------------------------
# Activated abilities (CR 602, 606)
# --------------------------------------------------------------------------

def _activated(body: Sequence[Token], ctx: Any) -> Skeleton:
    g = _g()
    k = g.find_top(body, ":")
    if k <= 0:
        raise g.NoMatch("no colon")
    cost_toks, effect = body[:k], body[k + 1:]
    timing: list[str] = []
    items: tuple[str, ...] = ()
    cost: Cost | None
    if cost_toks[0].low == "[":
        timing.append("sorcery; once each turn")  # CR 606.3
        if [t.low for t in cost_toks] in (["[", "-", "X", "]"], ["[", "−", "X", "]"], ["[", "+", "X", "]"]):
            cost, items = None, (f"loyalty {cost_toks[1].low}X",)
        else:
            c = g.Cursor(body)
            cost = Cost(loyalty=loyalty_cost(c))
            if c.i != k + 1:
                raise g.NoMatch("loyalty cost")
    else:
        cost, items = _cost(cost_toks)
    sents = g.sentences(effect)
    body_sents = []
    for st in sents:
        w = tuple(_words(st))
        if w in TIMING:
            timing.append(TIMING[w])
        elif _restriction(w) and _no_target_instance(st):
            timing.append(" ".join(w))  # a restriction or cost change whose condition stays unread words (CR 602.5b)
        elif w[:1] == ("activate",) or "this ability" in " ".join(w):
            raise g.NoMatch("an activation restriction not read")
        else:
            body_sents.append(st)  # an instruction (about other abilities' activation too: an effect)
    if not body_sents:
        raise g.NoMatch("no effect")
    first = _words(body_sents[0])
    if first[:1] == ["add"] or "add" in first[:3]:
        raise g.NoMatch("a mana ability (CR 605.1a)")
    if first[:1] == ["choose"] and any(t.low == "—" for t in body_sents[0]):
        raise g.NoMatch("a modal ability (CR 700.2)")
    if len(body_sents) == 1 and len(first) == 2 and first[0] == "level":
        timing.append("sorcery; one level at a time")  # a Class's level-up (CR 716.2a)
    for st in body_sents:
        for q in _quoted(st):
            if not _no_target_instance(q):
                line_skeleton(q, ctx, granted=True)
    x = (cost is not None and g.cost_has_x(cost)) or any("X" in i for i in items)
    targets = _targets_of(body_sents, True, x) if not any(
        _words(st)[:3] == ["when", "you", "do"] for st in body_sents) else _effect_targets(effect, ctx)
    return Skeleton("activated", cost=cost, timing=tuple(timing), targets=targets, cost_items=items)


def _restriction(w: tuple[str, ...]) -> bool:
    """A sentence restricting when or by whom this ability may be activated, or changing its cost
    (CR 602.5b, 601.2f): "Activate only as a sorcery and only if …", "Any player may activate this
    ability but only …", "You can't activate this ability during combat", "This ability costs {1}
    less to activate for each …"."""
    text = " ".join(w)
    return (w[:3] in (("activate", "only", "if"), ("activate", "only", "during"), ("activate", "only", "before"),
                      ("activate", "only", "from"), ("activate", "only", "as"), ("activate", "only", "once"))
            or w[:2] == ("activate", "no")
            or text.startswith(("any player may activate this ability", "you can't activate this ability",
                                "this ability costs", "you may activate this ability only"))
            or (w[:1] == ("this",) and "ability can't be activated" in text))


# --------------------------------------------------------------------------
# Modes (CR 700.2)
# --------------------------------------------------------------------------

def _choice(words: Sequence[str]) -> tuple[int, int | None] | None:
    """How many modes "choose …" asks for (CR 700.2), or None when not read."""
    n = {**NUMBER_WORDS}
    w = list(words)
    if w[:1] != ["choose"]:
        return None
    rest = w[1:]
    if len(rest) == 1 and rest[0] in n:
        return n[rest[0]], n[rest[0]]
    if rest[:1] and rest[0] in n and rest[1:] in (["or", "both"], ["or", "more"]):
        return n[rest[0]], (None if rest[2] == "more" else 2)
    if rest[:2] == ["up", "to"] and len(rest) == 3 and rest[2] in n:
        return 0, n[rest[2]]
    if rest == ["any", "number"]:
        return 0, None
    return None


def _modes_line(body: Sequence[Token], ctx: Any) -> Skeleton | None:
    """A choice of modes "Choose one —" (alone or after an activated ability's cost or a
    trigger), or a mode "• [effect]" with its targets (CR 700.2c)."""
    g = _g()
    if body and body[0].low == "•":
        effect = body[1:]
        for q in _quoted(effect):
            if not _no_target_instance(q):
                line_skeleton(q, ctx, granted=True)
        return Skeleton("mode", targets=_effect_targets(effect, ctx))
    dash = [i for i, t in enumerate(body) if t.low == "—"]
    if len(dash) != 1 or dash[0] != len(body) - 1:
        return None
    k = g.find_top(body, ":")
    head = body[k + 1:-1] if k > 0 else body[:-1]
    lead = body[:k] if k > 0 else ()
    cut = max((i for i, t in enumerate(head) if t.low == ","), default=-1)
    if head[:1] and head[0].low in ("when", "whenever", "at") and cut > 0:
        if not _no_target_instance(head[:cut]):
            return None
        lead, head = head[:cut], head[cut + 1:]
    choice = _choice(_words(head))
    if choice is None:
        return None
    if k > 0:
        cost, items = _cost(body[:k])
        return Skeleton("activated", cost=cost, cost_items=items, modes=choice)
    return Skeleton("triggered" if lead else "modes", modes=choice)


# --------------------------------------------------------------------------
# Static abilities (CR 604)
# --------------------------------------------------------------------------

def _about_own_casting(toks: Sequence[Token]) -> bool:
    """A line about casting its own object (its costs or timing): "This spell costs …",
    "As an additional cost to cast ~, …", "You may cast ~ as though it had flash …"."""
    words = [t.low for t in toks if t.kind in ("WORD", "SELF")]
    text = " ".join(words)
    if any(cue in text for cue in ("additional cost", "rather than pay", "without paying", "as though it had flash",
                                   "as though this spell had flash", "cast this", "spend only")):
        return True
    for i, t in enumerate(toks):
        if t.kind == "SELF" or (t.low == "this" and i + 1 < len(toks) and toks[i + 1].low in ("spell", "card")):
            nxt = [x.low for x in toks[i + 1:i + 4] if x.kind == "WORD"]
            if nxt[:1] and nxt[0] in ("costs", "cost") or nxt[:2] in (["spell", "costs"], ["card", "costs"]):
                return True
    words_set = set(words)
    return "cast" in words_set and ("self" in words_set or any(t.kind == "SELF" for t in toks)) and \
        ("only" in words_set or "flash" in words_set or "costs" in words_set or "cost" in words_set)


def _own_casting(body: Sequence[Token], ctx: Any) -> Skeleton | None:
    """A line about casting this object: an additional cost ("As an additional cost to cast
    ~, …", CR 601.2f–h), an alternative cost ("You may … rather than pay this spell's mana
    cost", CR 118.9), a cost change of its own ("~ costs {1} less to cast …", CR 601.2f) —
    its cost read item by item, a condition kept as unread words — or None."""
    g = _g()
    sents = g.sentences(body)
    if len(sents) != 1:
        return None
    st = sents[0]
    w = _words(st)
    c = g.Cursor(st)
    if c.take("as", "an", "additional", "cost", "to", "cast") and (c.take("SELF") or c.take("this", "spell")):
        c.need(",")
        c.take("you", "may")
        return Skeleton("cost", keyword="additional cost", cost_items=cost_items(list(c.rest())))
    if "rather" in w:
        start = 0
        if w[:1] == ["if"]:  # "If [condition], you may …": a condition kept as unread words (CR 118.9)
            start = next((i + 1 for i, t in enumerate(st) if t.low == ","), 0)
        if [t.low for t in st[start:start + 2]] != ["you", "may"]:
            return None
        k = next(i for i, t in enumerate(st) if t.low == "rather")
        tail = [t.low for t in st[k:] if t.kind in ("WORD", "SELF")]
        if tail[:4] != ["rather", "than", "pay", "this"] or "mana" not in tail or k <= start + 2:
            return None
        return Skeleton("cost", keyword="alternative cost", cost_items=cost_items(list(st[start + 2:k])))
    i = 0
    if st[:1] and st[0].kind == "SELF":
        i = 1
    elif w[:2] == ["this", "spell"]:
        i = 2
    else:
        return None
    c = g.Cursor(st, i)
    if not c.take("costs"):
        return None
    amount = g.mana_run(c)
    g.mana_cost(amount)
    way = c.next().low if c.peek() is not None else ""
    if way not in ("less", "more") or not c.take("to", "cast"):
        return None
    return Skeleton("cost", keyword="cost change",
                    cost_items=(f"{way} " + "".join(t.text for t in amount),))


def _static(body: Sequence[Token], ctx: Any) -> Skeleton:
    g = _g()
    if not body:
        raise g.NoMatch("empty")
    if body[0].low in ("when", "whenever", "at", "•", "+") or g.find_top(body, ":") >= 0:
        raise g.NoMatch("not a static ability")
    if _words(body)[:1] == ["choose"] and any(t.low == "—" for t in body):
        raise g.NoMatch("a choice of modes (CR 700.2)")
    if not _no_target_instance(body):
        raise g.NoMatch("a target: an instruction, not a static ability (CR 115.1)")
    if _about_own_casting(body):
        own = _own_casting(body, ctx)
        if own is None:
            raise g.NoMatch("a line about casting this object (its costs or timing)")
        return own
    if ctx.is_spell and not (body[0].kind == "SELF" or [t.low for t in body[:2]] == ["this", "spell"]):
        raise g.NoMatch("an instant's or sorcery's instruction")
    for q in _quoted(body):
        if not _no_target_instance(q):
            line_skeleton(q, ctx, granted=True)
    return Skeleton("static")


# --------------------------------------------------------------------------
# Lines
# --------------------------------------------------------------------------

def _named_activation(body: Sequence[Token]) -> tuple[str, Sequence[Token]] | None:
    """An activated ability after a dash: "Boast — {1}: …" (a keyword that conditions the
    ability, CR 702.142), "Wind Walk — {8}: …" (a flavor name, CR 207.2d) → (the keyword's name
    or "" for a flavor name, the ability). None otherwise."""
    g = _g()
    for k in range(1, 6):
        if k < len(body) and body[k].low == "—":
            head = body[:k]
            if not all(t.kind == "WORD" for t in head) or not head[0].text[:1].isupper():
                return None
            rest = body[k + 1:]
            if g.find_top(rest, ":") <= 0:
                return None
            name = " ".join(t.low for t in head)
            return (name if name in g.KEYWORD_NAMES else ""), rest
    return None


def line_skeleton(toks: Sequence[Token], ctx: Any, granted: bool = False) -> Skeleton:
    """The structure of one line (or a quoted granted ability); raises NoMatch when any
    part of it is not read."""
    g = _g()
    body = g.strip_ability_word(toks)
    # a flavor word (CR 207.2d) — the card database lists some as keywords; the rules' keywords stay
    flavor = _after_flavor_word(body, g.LineContext(is_spell=ctx.is_spell))
    if flavor is not None:
        body = flavor
    if not body:
        raise g.NoMatch("empty")
    chapter = _chapter(body, ctx)
    if chapter is not None:
        return chapter
    modes = _modes_line(body, ctx)
    if modes is not None:
        return modes
    first = body[0].low
    if first in ("when", "whenever", "at"):
        return _triggered(body, ctx)
    named = _named_activation(body)
    if named is not None:
        head, rest = named
        sk = _activated(rest, ctx)
        return replace(sk, keyword=head) if head else sk
    if g.find_top(body, ":") > 0:
        return _activated(body, ctx)
    kw = keyword_skeleton(body, getattr(ctx, "keywords", frozenset()))
    if kw is not None:
        return kw
    if granted:
        raise g.NoMatch("a granted ability is activated, triggered or a keyword")
    if ctx.is_spell and not _no_target_instance(body) and not _about_own_casting(body):
        return Skeleton("spell", targets=_effect_targets(body, ctx))  # an instant's or sorcery's instruction
    return _static(body, ctx)


def spell_line_skeleton(toks: Sequence[Token], ctx: Any) -> Skeleton | None:
    """An instant's or sorcery's instruction line whose targets were read, as a structure of
    its own (its target slots numbered within the line), or None."""
    g = _g()
    try:
        return Skeleton("spell", targets=_targets_of(g.sentences(toks), False, bool(ctx.x_in_cost)))
    except g.NoMatch:
        return None


def annotate(template: str | None, parts: Sequence[Any], toks: Sequence[Token], ctx: Any, raw: str
             ) -> tuple[str | None, tuple[Any, ...]] | None:
    """``(template, parts)`` with a :class:`~solver.core.ir.Skeleton` on each unsupported part
    whose structure is read, or None when some unsupported part's structure is not read
    (then nothing changes)."""
    g = _g()
    todo = [p for p in parts if isinstance(p, Unsupported) and p.kind != "rider" and p.structure is None]
    if not todo:
        return None
    out: list[Any] = []
    for p in parts:
        if p not in todo:
            out.append(p)
            continue
        sk: Skeleton | None
        if template == "keywords":
            sk = keyword_skeleton(p.what, ctx.keywords)
        elif len(todo) == 1 and (template is None or p.text.strip() == raw.strip()):
            try:
                sk = line_skeleton(toks, ctx)
            except g.NoMatch:
                sk = None
        else:
            sk = None
        if sk is None:
            return None
        out.append(replace(p, structure=sk))
    return template or "structure only", tuple(out)

"""Reading a line's *structure* when its effect can't be read (architecture: "read in layers").

Legal choices depend on a card's structure — the kind of each ability (spell,
activated, triggered, static, loyalty, keyword), its costs, timing
restrictions, targets (CR 115, 601.2c) and modes (CR 700.2) — not on what it
does when it resolves.  When no template of :mod:`.grammar` reads a whole
line, the templates here read its structure and keep each instruction
sentence they cannot read as an ``UnreadEffect(<the printed
sentence>)``:

* an instant's or sorcery's instructions → targets and effects of its
  :class:`~solver.core.ir.SpellBehaviour` (read sentences stay typed);
* "[cost]: [effect]" → :class:`~solver.core.ir.ActivatedAbility` (cost read by
  :func:`.grammar.parse_cost`; "Activate only as a sorcery." → ``sorcery``);
* "When/Whenever/At [event], [effect]" → :class:`~solver.core.ir.TriggeredAbility`
  when the event is one :func:`.grammar._trigger_event` reads;
* "Equip [quality] {cost}" → an activated ability targeting a [quality] creature you
  control, activated only as a sorcery, that attaches its source (CR 702.6a, 702.6c;
  :mod:`.effects_equip`).

Soundness first.  A sentence is kept as an unread *effect* only when it is an
instruction: a sentence about casting or activating ("This spell costs …",
"As an additional cost …", "Activate only once each turn.", "Any player may
activate …"), a choice of modes ("Choose one —", bullets, CR 700.2) or a
sentence in quotes that grants an ability is never an effect.  Every word
"target" outside quotes must be an instance read into a
:class:`~solver.core.ir.TargetSpec` (:func:`scan_targets`) whose description the
IR holds completely: the words after a target phrase must end it (a verb, a
preposition of the effect, the end of the sentence), so "target creature
with flying" is never read as "target creature" (a looser filter); anything
else leaves the line unread.  "target" used as a noun ("the target of",
"new targets", "a single target", "that targets") is not an instance.
"""
from __future__ import annotations

from dataclasses import replace
from typing import Sequence

from ..core.ir import (ANY_NUMBER, ANY_TARGET, SELF, ActivatedAbility, Cost, Filter, Ref, T, TargetSpec, TriggeredAbility,
                  UnreadEffect, UntilEndOfTurn)
from .reading_mode import reading_skeleton, skeleton_reading
from . import effects_equip
from .tokens import NUMBER_WORDS, Token, detokenize
from . import shared_readers
from .trigger_events import intervening_if

# Words that may follow a complete target phrase: they start the rest of the
# instruction, never a further description of the target.
FOLLOWERS: frozenset[str] = frozenset("""
gets get gains gain has have loses lose deals deal fights fight can't cannot doesn't don't blocks block attacks attack
becomes become sacrifices sacrifice discards discard draws draw mills mill reveals reveal shuffles shuffle puts put
searches search exiles exile returns return creates create may to into onto until unless then and at for on under this
where instead is are if as perpetually phases explores connives assigns taps tap untaps untap copies chooses choose
looks look pays pay plays play casts cast skips scries surveils loses was were gets would must can seeks seek
equal each controls owns during takes take exchange exchanges phase explores explore connives goads
transforms transform proliferates perpetually
""".split())

# Words before "target" that make it a noun, not an instance of targeting (CR 115.1).
NOT_AN_INSTANCE = frozenset({"the", "new", "single", "its", "their", "a", "an", "that", "this", "those", "these",
                             "no", "same", "different", "legal", "illegal"})
# Words before "target" whose meaning there is not read: the line stays unread.
UNKNOWN_BEFORE = frozenset({"each", "only", "x", "all", "every", "more", "random"})

POSSESSIVES: dict[str, Filter] = {
    "player's": Filter(players=True),
    "opponent's": Filter(players=True, who="opponent"),
    "creature's": Filter(types=frozenset({"Creature"})),
    "permanent's": Filter(types=frozenset({"Permanent"})),
    "artifact's": Filter(types=frozenset({"Artifact"})),
    "land's": Filter(types=frozenset({"Land"})),
    "planeswalker's": Filter(types=frozenset({"Planeswalker"})),
    "enchantment's": Filter(types=frozenset({"Enchantment"})),
    "spell's": Filter(types=frozenset({"Spell"}), zone="stack"),
}


def _g():
    return shared_readers


# "… that player controls": a controller named elsewhere in the ability (CR 109.5)
_CONTROLLER_REFS: tuple[tuple[str, ...], ...] = (
    ("defending", "player", "controls"), ("that", "player", "controls"), ("that", "opponent", "controls"),
    ("they", "control"), ("the", "chosen", "player", "controls"), ("its", "controller", "controls"),
    ("that", "creature's", "controller", "controls"), ("the", "opponent", "to", "your", "left", "controls"),
    ("the", "opponent", "to", "your", "right", "controls"), ("enchanted", "player", "controls"),
    ("that", "spell's", "controller", "controls"), ("the", "defending", "player", "controls"),
)


def _is_count(t: Token | None) -> bool:
    return t is not None and (t.kind == "NUM" or (t.kind == "WORD" and t.low in NUMBER_WORDS))


def _count_value(t: Token) -> int:
    return int(t.low) if t.kind == "NUM" else NUMBER_WORDS[t.low]


def printed(sent: Sequence[Token]) -> str:
    """A sentence as printed (self-references by name included), with its period."""
    text = detokenize(sent).strip()
    return text if text.endswith((".", "—", ":")) else text + "."


# --------------------------------------------------------------------------
# Structural sentences (not effects)
# --------------------------------------------------------------------------

def structural_sentence(sent: Sequence[Token]) -> bool:
    """A sentence about casting, activating or choosing — never an unread effect."""
    words = [t.low for t in sent if t.kind in ("WORD", "SELF")]
    text = " ".join(words)
    if not words:
        return True
    if any(t.kind == "PUNCT" and t.low == "•" for t in sent) or (sent and sent[0].low == "+"):
        return True  # a mode (CR 700.2; "+ {1} —" a spree mode, CR 702.172)
    if words[0] == "choose" and any(t.low == "—" for t in sent):
        return True
    if words[0] == "level" and len(sent) <= 3:
        return True  # a Class's "Level N" (CR 716.2a: sorcery speed, one level at a time)
    if "this spell" in text.replace("this spell was", ""):
        return True  # "This spell costs …", "can't be countered" — but "if this spell was kicked" is an effect
    for cue in ("activate", "activated", "activation", "additional cost", "this ability costs",
                "costs less", "costs more", "cost less", "cost more", "can't be countered", "cast this",
                "split second", "as though", "rather than pay", "without paying", "spend only", "only mana",
                "cast only", "copy this spell", "this ability"):
        if cue in text:
            return True
    return False


# --------------------------------------------------------------------------
# Target phrases anywhere in a sentence
# --------------------------------------------------------------------------

def _phrase_start(toks: Sequence[Token], i: int) -> int | None:
    """Where the target phrase containing ``toks[i]`` ("target"/"targets") begins;
    None when the word is not an instance of targeting."""
    j = i

    def low(k: int) -> str | None:
        return toks[k].low if 0 <= k < len(toks) else None

    if low(j - 1) in ("another", "other"):
        j -= 1
    if low(j - 1) == "any":
        return j - 1
    if _is_count(toks[j - 1] if j >= 1 else None):
        j -= 1
        if low(j - 1) == "to" and low(j - 2) == "up":
            return j - 2
        if low(j - 1) == "or":
            k = j - 1
            if low(k - 1) == ",":
                k -= 1
            if not _is_count(toks[k - 1] if k >= 1 else None):
                return -1
            j = k - 1
            while low(j - 1) == "," and _is_count(toks[j - 2] if j >= 2 else None):
                j -= 2
        return j
    if j == i and low(i) == "targets" and low(i - 1) not in ("any", "among"):
        return None  # "that targets", "new targets": a verb or a noun
    if j == i and low(i - 1) in NOT_AN_INSTANCE:
        return None
    return j


def _count(c) -> tuple[int, int] | None:
    """"up to N" (0..N), "N or M", "N, M, or K" (N..K), "N" (N..N), or None."""
    g = _g()
    if c.take("up", "to"):
        return 0, int(g.number(c))
    if not _is_count(c.peek()):
        return None
    nums = [_count_value(c.next())]
    while c.at(",") and _is_count(c.peek(1)):
        c.i += 1
        nums.append(_count_value(c.next()))
    if c.at("or") or c.at(",", "or"):
        c.take(",")
        c.need("or")
        if not _is_count(c.peek()):
            raise g.NoMatch("a count")
        nums.append(_count_value(c.next()))
    if nums != list(range(nums[0], nums[0] + len(nums))):
        raise g.NoMatch("counts not consecutive")
    return nums[0], nums[-1]


def spell_filter(c) -> Filter:
    """[color] [nonTYPE…] [TYPE (or TYPE)*] "spell" [you control | an opponent controls |
    you don't control] [with mana value N or less|greater] — a spell on the stack (CR 115.1)."""
    g = _g()
    types: list[str] = []
    non: list[str] = []
    colors: set[str] = set()
    while True:
        t = c.peek()
        if t is None or t.kind != "WORD":
            raise g.NoMatch("spell description")
        w = t.low
        if w == "spell":
            c.i += 1
            break
        if w.startswith("non") and w[3:] in g.TYPE_WORDS and w[3:] != "permanent":
            non.append(g.TYPE_WORDS[w[3:]])
        elif w in g.TYPE_WORDS and w != "permanent":
            types.append(g.TYPE_WORDS[w])
        elif w in g.COLOR_WORDS and not colors and not types and not non:
            colors.add(g.COLOR_WORDS[w])
        elif w == "or" and types:
            pass
        else:
            raise g.NoMatch("spell description")
        c.i += 1
    if non and types:
        raise g.NoMatch("mixed spell description")
    f = Filter(types=frozenset(types or ["Spell"]), zone="stack", nontypes=frozenset(non), colors=frozenset(colors))
    while True:
        if c.take("you", "control"):
            f = replace(f, who="you")
        elif c.take("an", "opponent", "controls") or c.take("you", "don't", "control") or \
                c.take("your", "opponents", "control"):
            f = replace(f, who="opponent")
        elif c.take("with", "mana", "value"):
            n = g.number(c)
            if c.take("or", "greater"):
                f = replace(f, mv_min=n)
            elif c.take("or", "less"):
                f = replace(f, mv_max=n)
            else:
                f = replace(f, mv_min=n, mv_max=n)   # "with mana value 2": exactly that (CR 202.3)
        else:
            return f


def loyalty_cost(c) -> int:
    """"[+N]", "[−N]" (normalised to "-"), "[0]" then ":"."""
    g = _g()
    c.need("[")
    sign = 1
    if c.take("+"):
        sign = 1
    elif c.take("-") or c.take("−"):
        sign = -1
    t = c.peek()
    if t is None or t.kind != "NUM":
        raise g.NoMatch("a loyalty number")
    c.i += 1
    c.need("]", ":")
    return sign * int(t.low)


def _ends_phrase(toks: Sequence[Token], k: int) -> bool:
    """Do the words at ``k`` end a target phrase (nothing more describes the target)?"""
    g = _g()
    if k >= len(toks):
        return True
    t = toks[k]
    if t.kind == "PUNCT":
        if t.low in (".", ";", "—"):
            return True
        if t.low == ",":
            n = toks[k + 1] if k + 1 < len(toks) else None
            return n is None or not (n.low in g.TYPE_WORDS or n.low in g.TYPE_PLURALS or n.low in g.COLOR_WORDS
                                     or n.low in ("or", "and", "player", "players", "opponent", "opponents")
                                     or n.low.startswith("non") or (n.kind == "WORD" and n.text[:1].isupper()
                                                                    and g.is_subtype(n.text)))
        return False
    if t.kind == "QUOTE":
        return False
    if t.low == "for" and k + 1 < len(toks) and toks[k + 1].low == "each":
        return False  # "another target for each time …": a variable number of targets
    if t.low == "and":
        n = toks[k + 1] if k + 1 < len(toks) else None
        return n is not None and n.low != "/" and n.low not in g.TYPE_WORDS and n.low not in g.TYPE_PLURALS
    nxt = toks[k + 1].low if k + 1 < len(toks) else None
    if (t.low, nxt) in (("without", "paying"), ("from", "combat")):
        return True  # "cast target … card without paying its mana cost", "remove target creature from combat"
    return t.kind == "WORD" and t.low in FOLLOWERS


def _condition(toks: Sequence[Token], k: int) -> int | None:
    """Where a further description of a target that the filter doesn't hold ends, when it has
    one of the shapes read in structures (:func:`skeleton_reading`): a relative clause ("that
    …", "that's …", "who …") running to the end of the sentence; "with a/an/N [kind] counter(s)
    on it"; "blocking it/~", "blocking or blocked by ~", "it's blocking"; "you own", "you don't
    own"; "chosen at random"; "of their/an opponent's choice". None otherwise."""
    low = [t.low for t in toks[k:]]

    def sentence_end(i: int) -> int | None:
        j = i
        while j < len(toks) and not (toks[j].kind == "PUNCT" and toks[j].low in (".", ";")):
            if toks[j].kind == "QUOTE" or (toks[j].kind == "WORD" and toks[j].low in ("target", "targets")
                                           and not (j == i and toks[j].low == "targets")):
                return None  # (a clause's own verb "that targets …" is no instance of targeting)
            if j > i + 1 and toks[j].kind == "WORD" and toks[j].low in FOLLOWERS and toks[j].low not in (
                    "this", "to", "under", "on", "at", "for", "until", "was", "were", "is", "are", "control",
                    "controls", "own", "owns", "with", "as", "into", "onto", "and", "the"):
                return None  # an instruction goes on after the clause: where the clause ends is not read
            j += 1
        return j
    if low[:1] in (["that"], ["that's"], ["who"], ["which"]) and len(low) > 1:
        return sentence_end(k + 1)
    if low[:2] == ["controlled", "by"]:
        return sentence_end(k + 2)  # "controlled by the same player", "controlled by different players"
    if low[:1] == ["with"] and "counter" in low[:5] + ["counters"] and low[:8].count("on") >= 1:
        for i in range(1, 8):
            if low[i:i + 2] in (["on", "it"], ["on", "them"], ["on", "self"]):
                return k + i + 2
        return None
    for shape in (["blocking", "or", "blocked", "by", "self"], ["blocking", "it"], ["blocking", "self"],
                  ["it's", "blocking"], ["you", "own"], ["you", "don't", "own"], ["chosen", "at", "random"],
                  ["of", "their", "choice"], ["of", "an", "opponent's", "choice"], ["blocked", "by", "self"],
                  ["with", "a", "single", "target"]):
        if low[:len(shape)] == shape:
            return k + len(shape)
    return None


def target_at(toks: Sequence[Token], j: int, s, divided: bool, amount: int | None,
              variable: tuple[int, str] | None = None) -> int:
    """Read the target phrase starting at ``toks[j]`` into scope ``s``; returns where it ends.
    ``variable``: the phrase's count was read by :func:`_variable_count` (the cursor starts
    after it): ``(min, "x" | "any")``."""
    g = _g()
    c = g.Cursor(toks, j)
    other = False
    lo = hi = 1
    filt: Filter | None = None
    plural_noun = False
    if variable is not None:
        lo, hi = variable[0], 2  # plural nouns; the count itself is ``variable``
        if c.take("another") or c.take("other"):
            other = True
        c.need("target")
        d = g.desc(c, targeting=True)
        if d.other:
            other, d.other = True, False
        filt = g.to_filter(d)
        plural_noun = d.plural
        if not plural_noun:
            raise g.NoMatch("a variable number of targets with a singular noun")
    elif c.take("any", "other", "target"):
        filt, other = ANY_TARGET, True
    elif c.take("any", "target"):
        filt = ANY_TARGET
    else:
        n = _count(c)
        if n is not None:
            lo, hi = n
        if c.take("another") or c.take("other"):
            other = True
        if c.take("targets"):
            if n is None:
                raise g.NoMatch("'targets' without a count")
            filt, plural_noun = ANY_TARGET, True  # "one or two targets": any target (CR 115.4)
        else:
            c.need("target")
            t = c.peek()
            if t is not None and t.kind == "WORD" and t.low in POSSESSIVES:
                if hi != 1 or lo != 1:
                    raise g.NoMatch("possessive of several targets")
                c.i += 1
                filt = POSSESSIVES[t.low]
                s.targets.append(TargetSpec(filt))
                s.last = None
                return c.i  # the possessive ends the phrase
            save = c.i
            try:
                filt = spell_filter(c)
                plural_noun = False
                if reading_skeleton() and c.take("or", "ability"):
                    filt = replace(filt, types=filt.types | {"Ability"})  # "target spell or ability" (structure only)
            except g.NoMatch:
                c.i = save
                filt = None
            if filt is None:
                if other and (c.peek() is None or not _starts_noun(c.peek())):
                    filt = ANY_TARGET  # "another target": any target
                else:
                    d = g.desc(c, targeting=True)
                    if d.other:
                        other, d.other = True, False
                    plural_noun = d.plural
                    filt = g.to_filter(d)
            if filt is not ANY_TARGET and plural_noun != (hi > 1):
                raise g.NoMatch("number of targets and noun disagree")
    if plural_noun and hi <= 1:
        raise g.NoMatch("plural noun for one target")
    if divided:
        if lo < 1:
            raise g.NoMatch("divided among zero targets")  # CR 601.2d: each target gets at least one
        if amount is not None and hi > amount:
            hi = amount
    distinct: tuple[int, ...] = ()
    if other:
        if s.targets and s.source_is_permanent:
            raise g.NoMatch("'another target' of a permanent's ability after another target: ambiguous")
        if s.targets:
            distinct = tuple(range(len(s.targets)))
        elif s.source_is_permanent:
            filt = replace(filt, other_than_source=True)
        else:
            raise g.NoMatch("'another target' of a spell with no earlier target")
    if not _ends_phrase(toks, c.i) and reading_skeleton() and filt is not ANY_TARGET and not filt.players:
        for ref in _CONTROLLER_REFS:
            if c.take(*ref):
                filt = replace(filt, controller_ref=" ".join(ref[:-1]))
                break
        end = _condition(toks, c.i) if not _ends_phrase(toks, c.i) else None
        if end is not None:
            filt = replace(filt, condition=detokenize(toks[c.i:end]).strip())
            c.i = end
    if not _ends_phrase(toks, c.i):
        raise g.NoMatch("the target is described further")
    if variable is not None and not reading_skeleton():
        if divided:
            raise g.NoMatch("divided among any number of targets")
        s.targets.append(TargetSpec(filt, lo, ANY_NUMBER, distinct))   # "any number of target …" (CR 601.2c)
        s.last = Ref("each_target", len(s.targets) - 1)
        return c.i
    if variable is not None:
        s.targets.append(TargetSpec(filt, lo, 0, distinct, divided, variable=variable[1]))
        s.last = Ref("each_target", len(s.targets) - 1)
        return c.i
    s.targets.append(TargetSpec(filt, lo, hi, distinct, divided))
    idx = len(s.targets) - 1
    s.last = T(idx) if hi == 1 else Ref("each_target", idx)
    return c.i


def _variable_count(sent: Sequence[Token], i: int) -> tuple[int, int, int, str] | None:
    """A count known only on casting before the "target" at ``i`` (CR 601.2b–c): "X target",
    "up to X target", "any number of [other] target", "one or more [other] target" →
    ``(phrase start, where the count's words end, min, "x" | "any")``; None otherwise."""
    k = i
    if k >= 1 and sent[k - 1].low in ("other", "another"):
        k -= 1
    w = [t.low for t in sent[max(0, k - 4):k]]
    if w[-1:] == ["x"] and w[-3:-1] == ["up", "to"]:
        return k - 3, k, 0, "x"
    if w[-1:] == ["x"]:
        return k - 1, k, 0, "x"
    if w[-3:] == ["any", "number", "of"]:
        return k - 3, k, 0, "any"
    if w[-3:] == ["one", "or", "more"]:
        return k - 3, k, 1, "any"
    return None


def _starts_noun(t: Token) -> bool:
    g = _g()
    return t.kind == "WORD" and (t.low in g.TYPE_WORDS or t.low in g.TYPE_PLURALS or t.low in g.COLOR_WORDS
                                 or t.low.startswith("non") or t.low in ("player", "players", "opponent",
                                                                         "opponents", "card", "cards")
                                 or (t.text[:1].isupper() and g.is_subtype(t.text))
                                 or t.low in ("tapped", "untapped", "attacking", "blocking", "legendary",
                                              "basic", "multicolored", "colorless"))


def _divided_amount(toks: Sequence[Token], j: int) -> tuple[bool, int | None] | None:
    """For a phrase at ``j`` after "among": (divided, the amount if a number) — "N damage
    divided as you choose among", "distribute N <kind> counters among"; None if "among"
    follows anything else."""
    words = [t.low for t in toks[:j]]
    if words[-1:] != ["among"]:
        return False, None
    text = " ".join(words)
    if "divided as you choose among" not in text and not text.startswith(("distribute", "you distribute")):
        return None
    amount = None
    for k, t in enumerate(toks[:j]):
        if _is_count(t) and k + 1 < j and toks[k + 1].low in ("damage", "+1/+1", "-1/-1", "counters"):
            amount = _count_value(t)
        elif t.kind == "NUM" and k + 1 < j and toks[k + 1].kind == "PT":
            amount = _count_value(t)
    for k, t in enumerate(toks[:j]):
        if t.kind == "WORD" and t.low in NUMBER_WORDS and k + 1 < j and toks[k + 1].kind == "PT":
            amount = _count_value(t)
    return True, amount


def scan_targets(sent: Sequence[Token], s) -> None:
    """Read every instance of "target" in a sentence (outside quotes) into ``s.targets``,
    left to right; raises NoMatch if one of them can't be read completely."""
    g = _g()
    quoted = False
    delayed = False  # after "when"/"whenever"/"at the beginning": a reflexive or delayed trigger (CR 603.7, 603.12)
    k = 0
    i = 0
    while i < len(sent):
        t = sent[i]
        if t.kind == "QUOTE":
            quoted = not quoted
            i += 1
            continue
        if not quoted and t.kind == "WORD" and (t.low in ("when", "whenever") or (
                t.low == "at" and i + 2 < len(sent) and sent[i + 1].low == "the"
                and sent[i + 2].low in ("beginning", "end"))):
            delayed = True
        if quoted or i < k or t.kind != "WORD" or t.low not in ("target", "targets"):
            i += 1
            continue
        if delayed:
            # its targets are chosen when that trigger is put on the stack, not now
            raise g.NoMatch("a target of a reflexive or delayed triggered ability")
        j = _phrase_start(sent, i)
        if j is None:
            i += 1
            continue
        if j < 0 or j < k:
            raise g.NoMatch("target count not read")
        prev = sent[j - 1].low if j >= 1 else None
        if prev in UNKNOWN_BEFORE or (prev == "of" and j >= 2 and sent[j - 2].low == "number") or \
                (prev is not None and sent[j - 1].kind == "SYM"):
            var = _variable_count(sent, i)
            if var is not None and not reading_skeleton() and var[3] != "any":
                var = None   # "X target creatures": the number is the announced X (CR 601.2b), not modeled
            if var is None or var[0] < k:
                raise g.NoMatch("a variable number of targets")  # "X target creatures", "any number of target …"
            start, after, lo, how = var
            dv = _divided_amount(sent, start)
            if dv is None:
                raise g.NoMatch("'among' targets of an effect not read")
            k = target_at(sent, after, s, dv[0], None, (max(lo, 1) if dv[0] else lo, how))
            i = max(i + 1, k)
            continue
        div = _divided_amount(sent, j)
        if div is None:
            raise g.NoMatch("'among' targets of an effect not read")
        k = target_at(sent, j, s, div[0], div[1])
        i = max(i + 1, k)
    if quoted:
        raise g.NoMatch("unbalanced quotes")


# --------------------------------------------------------------------------
# Sentences: read when possible, else structure + unread effect
# --------------------------------------------------------------------------

def structured_sentences(sents: Sequence[Sequence[Token]], s, retry: bool = True) -> int:
    """Read each sentence into scope ``s``: fully (the effect grammar), or its targets
    with an ``unread`` effect carrying the printed sentence. Consecutive unread sentences
    share one effect. Returns the number of unread sentences; raises NoMatch when a
    sentence is structural (see :func:`structural_sentence`) or its targets can't be read.
    ``retry=False``: the effect grammar already failed on these very sentences (one
    sentence, same scope): don't try it again."""
    g = _g()
    unread = 0
    prev_unread = False
    for st in sents:
        if structural_sentence(st):
            raise g.NoMatch("a sentence about casting, activating or modes")
        if retry:
            save_t, save_e, save_l = list(s.targets), list(s.effects), s.last
            try:
                g.effect_sentence(st, s)
                prev_unread = False
                continue
            except g.NoMatch:
                s.targets[:], s.effects[:], s.last = save_t, save_e, save_l
        scan_targets(st, s)
        s.last = None  # what "it" means after an unread sentence is not known
        text = printed(st)
        if prev_unread and s.effects and isinstance(s.effects[-1], UnreadEffect):
            s.effects[-1] = replace(s.effects[-1], text=s.effects[-1].text + " " + text)
        else:
            s.effects.append(UnreadEffect(text))
        prev_unread = True
        unread += 1
    return unread


def _split_raw_effect(raw: str) -> str:
    return raw.split(":", 1)[1].strip() if ":" in raw else raw


_ZONES = frozenset({"graveyard", "hand", "exile", "library"})


def sorcery_sentence(sents: Sequence[Sequence[Token]]) -> tuple[bool, list[Sequence[Token]]]:
    """An activated ability's sentences without "Activate only as a sorcery." (CR 602.5d): whether it
    says so, and the effect's sentences (none: ``NoMatch``)."""
    sorcery, body = False, []
    for st in sents:
        c = _g().Cursor(st)
        if c.take("activate", "only", "as", "a", "sorcery") and c.done():
            sorcery = True
        else:
            body.append(st)
    if not body:
        raise _g().NoMatch("no effect")
    return sorcery, body


def works_elsewhere(toks: Sequence[Token]) -> bool:
    """Does the line say its source is in a zone other than the battlefield ("Return
    this card from your graveyard", "Exile SELF from your hand:", "if SELF is in your
    graveyard")? Such an ability functions there only (CR 113.6): not read here."""
    for i, t in enumerate(toks):
        if t.kind != "SELF":
            continue
        if t.low == "self" and t.text.lower().endswith(" card"):
            return True  # "this card": not a permanent
        nxt = [x.low for x in toks[i + 1:i + 5]]
        if i > 0 and toks[i - 1].low == "on" and nxt[:1] == ["from"]:
            continue  # "… counters on this artifact from your hand": "from" belongs to an earlier noun
        if nxt[:1] in (["from"], ["in"]) or nxt[:2] == ["is", "in"] or nxt[:2] == ["were", "in"]:
            if any(w in _ZONES for w in nxt):
                return True
    return False


def line_activated_structure(toks: Sequence[Token], ctx, raw: str) -> tuple[list, int]:
    """"[cost]: [effect]" with the cost read and the effect partly or not read (CR 602.1)."""
    g = _g()
    if ctx.is_spell:
        raise g.NoMatch("spell text")
    k = g.find_top(toks, ":")
    if k <= 0:
        raise g.NoMatch("no colon")
    cost_toks, eff = toks[:k], toks[k + 1:]
    if works_elsewhere(toks):
        raise g.NoMatch("an ability that works from another zone (CR 113.6)")
    loyalty = cost_toks[0].low == "["
    if loyalty:  # a loyalty ability (CR 606) that reader/statics.py's template did not read
        c = g.Cursor(toks)
        cost = Cost(loyalty=loyalty_cost(c))  # "[+N]", "[−N]", "[0]"; "[−X]" is not read
        if c.i != k + 1:
            raise g.NoMatch("loyalty cost")
    else:
        cost = g.parse_cost(cost_toks)
    if cost.remove_x_counters is not None:
        raise g.NoMatch("a variable counter cost is modelled only for mana abilities")
    g.only_mana_ability_cost(cost)
    sents = g.sentences(eff)
    if not sents or sents[0][0].low == "add" or any(t.low == "add" for t in sents[0][:3]):
        raise g.NoMatch("a mana ability (CR 605.1a)")
    s = g.Scope(last=SELF, source_is_permanent=True, x_defined=g.cost_has_x(cost))
    said, body = sorcery_sentence(sents)
    sorcery = loyalty or said  # CR 606.3: loyalty abilities are activated only as a sorcery
    n = structured_sentences(body, s, retry=len(body) > 1)
    return [ActivatedAbility(cost, tuple(s.targets), tuple(s.effects), sorcery, raw)], n


def line_equip(toks: Sequence[Token], ctx, raw: str) -> tuple[list, int]:
    """"Equip [quality] {cost}" (CR 702.6a, 702.6c: "[Cost]: Attach this permanent to target [quality]
    creature you control. Activate only as a sorcery."), read by :mod:`.effects_equip`."""
    return [effects_equip.equip_ability(toks, raw)], 0


def line_triggered_structure(toks: Sequence[Token], ctx, raw: str) -> tuple[list, int]:
    """"When/Whenever/At [event], [effect]" with a trigger event :func:`.grammar._trigger_event`
    reads and the effect partly or not read (CR 603.1)."""
    g = _g()
    if not toks or toks[0].low not in ("when", "whenever", "at"):
        raise g.NoMatch("not a trigger")
    if works_elsewhere(toks):
        raise g.NoMatch("an ability that works from another zone (CR 113.6)")
    c = g.Cursor(toks)
    trig, mana = g._trigger_event(c)
    if mana:
        raise g.NoMatch("a triggered mana ability")
    c.need(",")
    sents = g.sentences(c.rest())
    if not sents:
        raise g.NoMatch("no effect")
    cond, first = intervening_if(sents[0])
    sents = [list(first)] + list(sents[1:])
    s = g.trigger_scope(trig)
    s.adds_mana = True  # not a mana ability (CR 605.5a)
    n = structured_sentences(sents, s, retry=len(sents) > 1)
    g.check_event_refs(s, trig)
    return [TriggeredAbility(trig, tuple(s.targets), tuple(s.effects), raw, condition=cond)], n


def line_spell_structure(toks: Sequence[Token], ctx, raw: str) -> int:
    """An instant's or sorcery's instructions, sentence by sentence, into ``ctx.spell_scope``."""
    g = _g()
    if not ctx.is_spell or ctx.spell_scope is None:
        raise g.NoMatch("not a spell")
    s = ctx.spell_scope
    save_t, save_e, save_l = list(s.targets), list(s.effects), s.last
    try:
        sents = g.sentences(toks)
        return structured_sentences(sents, s, retry=len(sents) > 1)
    except g.NoMatch:
        s.targets[:], s.effects[:], s.last = save_t, save_e, save_l
        raise


# --------------------------------------------------------------------------
# What an unread line affects, when the reader knows (contract §2.0)
# --------------------------------------------------------------------------

_K = {
    "combat": "intimidate fear shadow horsemanship skulk banding landwalk nonbasic_landwalk legendary_landwalk "
              "snow_landwalk desertwalk plainswalk islandwalk swampwalk mountainwalk forestwalk",
    "triggers": "prowess exalted persist undying evolve afflict annihilator cascade storm afterlife extort flanking "
                "rampage bushido provoke melee renown training myriad mentor dethrone soulshift fabricate exploit "
                "backup battle_cry living_weapon poisonous echo fading vanishing cumulative_upkeep soulbond champion "
                "gravestorm ingest haunt",
    "costs effect": "kicker multikicker buyback entwine escalate replicate conspire splice casualty bargain gift",
    "costs": "convoke delve improvise emerge surge spectacle assist offering",
    "timing costs": "flashback escape unearth cycling channel retrace jump-start aftermath embalm eternalize encore "
                    "scavenge transmute madness suspend foretell plot disturb dash blitz ninjutsu commander_ninjutsu "
                    "morph megamorph disguise prowl miracle reinforce forecast outlast boast craft landcycling "
                    "basic_landcycling typecycling warp sneak harmonize",
    "timing": "split_second",
    "characteristics": "devoid changeling",
    "costs targets effect": "overload",
    "timing costs characteristics": "crew reconfigure level_up station saddle",
    "costs targets characteristics": "bestow",
    "combat effect": "infect wither toxic",
    "replacement": "riot totem_armor umbra_armor read_ahead",
}
KEYWORD_AFFECTS: dict[str, frozenset[str]] = {
    name.replace("_", " "): frozenset(k.split()) for k, names in _K.items() for name in names.split()}


def keyword_affects(what: str) -> frozenset[str]:
    """What an unread keyword could change (its name heads ``Unsupported.what``); empty if unknown."""
    w = what.lower()
    for n in range(4, 0, -1):
        head = " ".join(w.split()[:n])
        if head in KEYWORD_AFFECTS:
            return KEYWORD_AFFECTS[head]
    if w.split()[:1] and w.split()[0].endswith("cycling"):
        return KEYWORD_AFFECTS["cycling"]
    if w.startswith(("protection from", "hexproof from")):
        return frozenset({"targets", "combat", "effect"}) if w.startswith("protection") else frozenset({"targets"})
    return frozenset()


def _is_modal(body: Sequence[Token]) -> bool:
    words = [t.low for t in body]
    return bool(words) and (words[0] == "•" or (words[0] == "choose" and "—" in words))


def line_affects(body: Sequence[Token], ctx, raw: str) -> frozenset[str]:
    """What an unread line could change when its shape says so; empty: let the
    soundness layer classify the text (solver/rules/soundness/check.py)."""
    if not body:
        return frozenset()
    body = _after_flavor_word(body, ctx) or body
    first = body[0].low
    g = _g()
    if ctx.is_spell and body[0].low == "+":
        return frozenset({"costs", "targets", "effect"})  # a spree mode and its additional cost (CR 702.172)
    if ctx.is_spell and _is_modal(body):
        return frozenset({"targets", "effect"})  # a mode or the choice of modes (CR 700.2)
    if first in ("when", "whenever", "at") and "mana" not in raw.lower():
        return frozenset({"triggers"})  # a triggered ability only ever affects triggers (CR 603)
    k = g.find_top(body, ":")
    if k > 0 and body[0].low != "[" and k + 1 < len(body) and body[k + 1].low == "add" \
            and not g.mentions_target(body):
        return frozenset({"mana"})  # an activated mana ability (CR 605.1a)
    return frozenset()


def unread_count(parts) -> int:
    """Unread effects among abilities, granted abilities (statics, effects) included."""
    n = 0
    for p in parts:
        for e in getattr(p, "effects", ()) or ():
            if isinstance(e, UnreadEffect):
                n += 1
            elif isinstance(e, UntilEndOfTurn):
                n += unread_count([e.granted])
        if getattr(p, "granted", None) is not None:
            n += unread_count([p.granted])
    return n


def _after_flavor_word(body: Sequence[Token], ctx) -> Sequence[Token] | None:
    """The triggered ability after a flavor word ("Raise — Whenever …", CR 207.2d), or
    None. A keyword before the dash ("Max speed —", "Boast —") is never a flavor word:
    it conditions the ability."""
    g = _g()
    for k in range(1, 6):
        if k < len(body) and body[k].low == "—":
            head = body[:k]
            name = " ".join(t.low for t in head)
            if not all(t.kind == "WORD" for t in head) or not head[0].text[:1].isupper():
                return None
            if name in g.KEYWORD_NAMES or name in ctx.keywords or name in g.ABILITY_WORDS \
                    or any(w in g.KEYWORD_NAMES for w in name.split()):
                return None
            rest = body[k + 1:]
            return rest if rest and rest[0].low in ("when", "whenever", "at") else None
    return None


def fallback(body: Sequence[Token], ctx, raw: str):
    """The structure of a line no full template read: (template name, parts, unread
    sentences, spell_effects), or None."""
    g = _g()
    flavor = _after_flavor_word(body, ctx)
    if flavor is not None:  # "Raise — At the beginning of …" (CR 207.2d: no rules meaning)
        try:
            parts, n = line_triggered_structure(flavor, ctx, raw)
            return "triggered structure", parts, n, False
        except g.NoMatch:
            pass
    for name, fn in (("activated structure", line_activated_structure),
                     ("triggered structure", line_triggered_structure)):
        try:
            parts, n = fn(body, ctx, raw)
            return name, parts, n, False
        except g.NoMatch:
            continue
    try:
        n = line_spell_structure(body, ctx, raw)
        return "spell structure", [], n, True
    except g.NoMatch:
        return None

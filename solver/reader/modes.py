"""Reading modal spells and abilities (CR 700.2): a mode-choice line and its bulleted modes.

A modal spell or ability is printed as one line introducing the choice followed by
one line per mode ("• …")::

    Choose two —                                              (an instant or sorcery)
    Remove a charge counter from Umezawa's Jitte: Choose one —  (an activated ability)
    When this creature enters, choose one —                   (a triggered ability)

:func:`read_group` reads such a group of lines into one IR object with
``modes`` (:class:`~solver.core.ir.Mode`), ``min_modes``, ``max_modes`` and
``mode_repeat``. Each mode's sentences are read with the reader's own
machinery (:func:`.structure.structured_sentences`: the effect grammar, else the
target phrases with the effect kept as ``UnreadEffect``), in a scope of
its own, so each mode's target instances are numbered from 0 (CR 700.2c: a
mode's targets exist only if that mode is chosen).

What is read (anything else leaves the whole group to the line-by-line reading,
which reports it unsupported — affecting targets and effect — as before):

* the choice: "Choose one —", "Choose two —", "Choose three —" (exactly N),
  "Choose one or both —" (1..2), "Choose one or more —" (1..all), "Choose up to
  N —" (0..N; CR 700.2b: with no mode chosen a triggered ability is removed
  from the stack), and "Choose N. You may choose the same mode more than once."
  (CR 700.2d). Not read: "choose any number", "that hasn't been chosen",
  "at random", "each mode must target a different player", "choose both
  instead", "[a player] chooses", spree's "+ {cost} —" modes (CR 702.172);
* the introduction: an instant's or sorcery's line, "[cost]: choose …"
  (CR 602.1; loyalty costs too, CR 606), "When/Whenever/At [event], choose …"
  for the events :func:`.grammar._trigger_event` reads;
* every mode's targets completely (as for any other line, :mod:`.structure`);
  a mode whose targets can't be read leaves the whole card's modes unread.

The IR object's own ``targets`` and ``effects`` are empty: what it does is what its
chosen modes do (CR 700.2a, 601.2b, 603.3c: the modes are chosen as it is put on the
stack and recorded there, object key ``modes``; :func:`solver.rules.modes.selection_effects`).
A mode whose effect is not read keeps it as ``UnreadEffect``: it blocks only a resolution
that chose that mode (:func:`solver.rules.modes.unchosen_unread`), and the modes read stay
castable, activatable and resolvable.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Sequence

from ..core.ir import SELF, ActivatedAbility, Cost, Mode, SpellBehaviour, TriggeredAbility, UnreadEffect
from .tokens import NUMBER_WORDS, Token
from . import grammar
from . import structure
from .structure import loyalty_cost
from .line_reading import LineReading
from .tokens import normalise_chars, strip_reminder, tokenize


@dataclass(frozen=True)
class ModalGroup:
    """The reading of a mode-choice line and its modes.

    ``ability``: the activated or triggered ability (None for a spell);
    ``spell``: the spell's behaviour (None for an ability); ``unread``: the number
    of unread effects of each mode, in printed order."""

    ability: ActivatedAbility | TriggeredAbility | None
    spell: SpellBehaviour | None
    unread: tuple[int, ...]


def _g():
    return grammar


def is_mode_line(raw: str) -> bool:
    """A bulleted mode line (CR 700.2)."""
    return raw.lstrip().startswith("•")


def introduces_modes(raw: str) -> bool:
    """A line that could introduce a choice of modes: it ends with "—" after "choose"
    ("Choose one —"), or it is "Choose N. You may choose the same mode more than once."."""
    low = raw.strip().lower()
    return ("choose" in low and low.endswith("—")) or (
        low.startswith("choose") and low.endswith("you may choose the same mode more than once."))


def choice(toks: Sequence[Token], n_modes: int) -> tuple[int, int, bool]:
    """``(min_modes, max_modes, mode_repeat)`` of the tokens of a mode choice,
    from "choose" to the end of the line (CR 700.2, 700.2d); raises NoMatch."""
    g = _g()
    c = g.Cursor(toks)
    c.need("choose")
    repeat = False
    if c.take("one", "or", "both"):
        lo, hi = 1, 2
    elif c.take("one", "or", "more"):
        lo, hi = 1, n_modes
    elif c.take("up", "to"):
        n = _number(c)
        lo, hi = 0, n
    else:
        n = _number(c)
        lo = hi = n
        if c.take(".", "you", "may", "choose", "the", "same", "mode", "more", "than", "once", "."):
            repeat = True
            c.end()
            return lo, hi, repeat
    c.need("—")
    c.end()
    if not repeat:
        hi = min(hi, n_modes)
    if hi < 1 or lo > hi or (not repeat and lo > n_modes):
        raise g.NoMatch("a number of modes the card does not have")
    return lo, hi, repeat


def _number(c) -> int:
    g = _g()
    t = c.peek()
    if t is None or t.kind != "WORD" or t.low not in NUMBER_WORDS:
        raise g.NoMatch("number of modes")
    c.i += 1
    return NUMBER_WORDS[t.low]


def read_mode(toks: Sequence[Token], scope) -> tuple[Mode, int]:
    """One mode ("• …", bullet included in ``toks``): its targets and effects in ``scope``
    (a fresh :class:`.grammar.Scope`). Returns the mode and its number of unread sentences."""
    g = _g()

    if not toks or toks[0].low != "•":
        raise g.NoMatch("not a mode")
    body = list(toks[1:])
    sents = g.sentences(body)
    if not sents:
        raise g.NoMatch("an empty mode")
    n = structure.structured_sentences(sents, scope, retry=True)
    return Mode(tuple(scope.targets), tuple(scope.effects)), n


def _modes(modes: Sequence[Sequence[Token]], raws: Sequence[str], make_scope) -> tuple[tuple[Mode, ...], tuple[int, ...]]:
    out: list[Mode] = []
    unread: list[int] = []
    for toks, raw in zip(modes, raws):
        m, n = read_mode(toks, make_scope())
        out.append(Mode(m.targets, m.effects, raw.strip()))
        unread.append(n)
    return tuple(out), tuple(unread)


def read_group(head: Sequence[Token], head_raw: str, modes: Sequence[Sequence[Token]], mode_raws: Sequence[str],
               ctx) -> ModalGroup:
    """The modal spell or ability of a mode-choice line ``head`` and its mode lines
    (tokens as the reader makes them). Raises NoMatch when any part is not read."""
    g = _g()

    if len(modes) < 2:
        raise g.NoMatch("CR 700.2: two or more options")
    body = g.strip_ability_word(head)
    sentinel: tuple[UnreadEffect, ...] = ()   # the modal object does only what its chosen modes do (CR 700.2a)
    if ctx.is_spell:
        if not body or body[0].low != "choose":
            raise g.NoMatch("a spell's mode choice starts with 'choose'")
        lo, hi, rep = choice(body, len(modes))
        x = ctx.spell_scope.x_defined if ctx.spell_scope is not None else False
        ms, unread = _modes(modes, mode_raws, lambda: g.Scope(source_is_permanent=False, x_defined=x, adds_mana=True))
        return ModalGroup(None, SpellBehaviour((), sentinel, ms, lo, hi, rep), unread)
    if body and body[0].low in ("when", "whenever", "at"):
        if structure.works_elsewhere(body):
            raise g.NoMatch("an ability that works from another zone (CR 113.6)")
        c = g.Cursor(body)
        trig, mana = g._trigger_event(c)
        if mana:
            raise g.NoMatch("a triggered mana ability")
        c.need(",")
        lo, hi, rep = choice(c.rest(), len(modes))
        last = SELF if trig.of_source else None
        ms, unread = _modes(modes, mode_raws, lambda: g.Scope(last=last, adds_mana=True))
        return ModalGroup(TriggeredAbility(trig, (), sentinel, head_raw, ms, lo, hi, rep), None, unread)
    k = g.find_top(body, ":")
    if k <= 0:
        raise g.NoMatch("not a modal spell, activated or triggered ability")
    if structure.works_elsewhere(body):
        raise g.NoMatch("an ability that works from another zone (CR 113.6)")
    cost_toks = body[:k]
    sorcery = False
    if cost_toks[0].low == "[":  # a loyalty ability (CR 606): activated only as a sorcery (CR 606.3)
        c = g.Cursor(body)
        cost = Cost(loyalty=loyalty_cost(c))
        if c.i != k + 1:
            raise g.NoMatch("loyalty cost")
        sorcery = True
    else:
        cost = g.parse_cost(cost_toks)
    if cost.remove_x_counters is not None:
        raise g.NoMatch("a variable counter cost is modelled only for mana abilities")
    g.only_mana_ability_cost(cost)
    lo, hi, rep = choice(body[k + 1:], len(modes))
    x = g.cost_has_x(cost)
    ms, unread = _modes(modes, mode_raws, lambda: g.Scope(last=SELF, source_is_permanent=True, x_defined=x))
    if any(isinstance(e, UnreadEffect) and "add" in e.text.lower().split()[:2] for m in ms for e in m.effects):
        raise g.NoMatch("a mode that adds mana: a mana ability's modes are not read (CR 605.1a)")
    return ModalGroup(ActivatedAbility(cost, (), sentinel, sorcery, head_raw, ms, lo, hi, rep), None, unread)


def group_spans(raws: Sequence[str]) -> dict[int, int]:
    """``{index of a mode-choice line: number of mode lines after it}`` for the lines of a card."""
    out: dict[int, int] = {}
    for i, raw in enumerate(raws):
        if is_mode_line(raw) or not introduces_modes(raw):
            continue
        n = 0
        while i + 1 + n < len(raws) and is_mode_line(raws[i + 1 + n]):
            n += 1
        if n >= 2:
            out[i] = n
    return out


def read_modal_lines(raws: Sequence[str], i: int, n: int, names: tuple[str, ...], subtypes: tuple[str, ...], ctx):
    """The :class:`~solver.reader.LineReading` of the mode-choice line ``raws[i]`` and of its
    ``n`` mode lines, and the modal spell behaviour (None for an ability); None when the
    group is not read (the caller then reads its lines one by one, as unsupported)."""

    g = _g()
    lines = raws[i:i + n + 1]
    toks = []
    for raw in lines:
        clean = strip_reminder(normalise_chars(raw))
        if ctx.is_spell:
            toks.append((clean, tuple(tokenize(clean, names, subtypes))))
        else:
            present = tuple(x for x in names if x in raw)
            nouns = subtypes if "this " in raw.lower() else ()
            toks.append((clean, tuple(tokenize(clean, present, nouns))))
    try:
        grp = read_group(toks[0][1], lines[0], [t for _, t in toks[1:]], lines[1:], ctx)
    except g.NoMatch:
        return None
    except Exception:  # a reader bug must not hide the lines: read them one by one (unsupported)
        return None
    parts = (grp.ability,) if grp.ability is not None else ()
    head = LineReading(lines[0], toks[0][0], toks[0][1], "modal " + ("spell" if ctx.is_spell else
                       "triggered ability" if isinstance(grp.ability, TriggeredAbility) else "activated ability"),
                       parts, ctx.is_spell, None, 0)   # the choice of modes is read (CR 700.2a)
    rest = [LineReading(raw, clean, t, "mode", (), ctx.is_spell, None, k)
            for raw, (clean, t), k in zip(lines[1:], toks[1:], grp.unread)]
    return [head] + rest, grp.spell

"""The Oracle-text reader: compiles a card's rules text into the ability IR.

:func:`read` is what :func:`solver.cards.read_card` calls for every card that
is not in the hand-written library.  It returns the card's abilities in
printed order and, for an instant or sorcery, its :class:`~solver.core.ir.SpellBehaviour`.
Every line the grammar does not fully understand comes out as an
:class:`~solver.core.ir.Unsupported` part carrying the original line — nothing is
dropped.  (Reminder text is not a line: CR 207.2a gives it no rules meaning;
basic land types' mana abilities are intrinsic, CR 305.6, so "({T}: Add {W}.)"
yields nothing.)

What is claimed
---------------
A line is understood only when a named template of :mod:`.grammar` reads every
token of it.  Sentences after an ability's first one that cannot be read
(riders such as "Spend this mana only to cast creature spells.") are kept as an
``Unsupported("rider: …")`` part right after the ability; a rider mentioning
"target" makes the whole line unsupported.  An instant or sorcery with an
unread line mentioning "target" gets no spell behaviour at all (its readable
lines are reported unsupported too), so a spell is never modelled with fewer
targets than it has.

Structure first (:mod:`.structure`)
-----------------------------------
A line no template reads completely may still have its *structure* read: the
ability kind, costs, timing ("Activate only as a sorcery") and every target
slot, with the sentences not read kept as ``UnreadEffect(<the
printed sentence>)`` (:attr:`LineReading.structured`, :attr:`LineReading.unread`).
An instant or sorcery whose lines are all structured gets a spell behaviour
with those unread effects; one with a line whose targets are not read gets none.
``resolve`` never executes an unread effect.

Modes (:mod:`.modes`)
---------------------
A mode-choice line ("Choose two —", "[cost]: Choose one —", "When …, choose one —")
and its "•" lines are read together into the spell's or ability's ``modes``
(CR 700.2); when any part of them is not read, the lines are read one by one as
before (unsupported, affecting targets and effect).

``text`` fields
---------------
The reader fills each ability's ``text`` with the Oracle line it came from, as
printed, which is what a user wants to see next to it (``Unsupported.text`` is
that line too).  The hand-written library mostly leaves ``text`` empty, so
comparisons between the two use :func:`without_text`, which clears every
``text`` field recursively (abilities granted by statics and by effects
included).  The library is the reader's oracle (tests/test_reader.py).

Also in this package, above the card library they read from
(``solver.cards.importer`` and ``solver.cards.coverage`` import
:mod:`solver.cards`, so this module does not re-export them):
:func:`.importer.import_cards` (``mtgsolve cards import``) and
:func:`.coverage.coverage_report` (``mtgsolve cards coverage``).

>>> from mtgsolve.solver.cards import CardData
>>> d = CardData.from_mtgjson({"name": "Test Elf", "type": "Creature — Elf", "types": ["Creature"],
...                            "text": "{T}: Add {G}."})
>>> abilities, spell = read(d)
>>> abilities[0].describe()
'mana ability: {T}: add {G}'
"""
from __future__ import annotations

from dataclasses import fields, is_dataclass, replace
from functools import lru_cache
from typing import TYPE_CHECKING, Any

from ..core.ir import Ability, SpellBehaviour, Unsupported, ability_kind_of_line
from .grammar import LineContext, Scope, mentions_target, read_line
from .hand_abilities import read_extra
from .line_reading import LineReading
from .skeleton import annotate, spell_line_skeleton
from .tokens import normalise_chars, self_names, strip_reminder, tokenize

if TYPE_CHECKING:  # pragma: no cover
    from ..core.card import CardData
from . import modes as _modes
from .levels import leveled_lines

__all__ = ["read", "read_lines", "LineReading", "without_text"]


def _context(data: "CardData") -> tuple[LineContext, list[str], tuple[str, ...]]:
    is_spell = any(t in ("Instant", "Sorcery") for t in data.types)
    ctx = LineContext(x_in_cost=data.mana_cost.x_count > 0, is_spell=is_spell, is_creature="Creature" in data.types,
                      keywords=frozenset(k.lower() for k in data.keywords),
                      spell_scope=Scope(source_is_permanent=False, x_defined=data.mana_cost.x_count > 0, adds_mana=True)
                      if is_spell else None)
    names = self_names(data.name, legendary="Legendary" in data.supertypes)
    return ctx, names, tuple(data.subtypes)


def _read_one(raw: str, names: tuple[str, ...], subtypes: tuple[str, ...], ctx: LineContext) -> LineReading:
    clean = strip_reminder(normalise_chars(raw))
    toks = tuple(tokenize(clean, names, subtypes))
    try:
        # abilities of the card in the hand, per-turn limits, additional land plays (.hand_abilities)
        res = read_extra(toks, ctx, raw) or read_line(toks, ctx, raw)
    except Exception as e:  # a reader bug must not hide the line: report it unsupported
        return LineReading(raw, clean, toks, None, (Unsupported(f"reader error: {type(e).__name__}", raw, ability_kind_of_line(raw)),),
                           False, repr(e))
    template, parts = res.template, tuple(res.abilities)
    sk = annotate(template, parts, toks, ctx, raw)  # the structure of what stays unread (.skeleton)
    if sk is not None:
        template, parts = sk
    return LineReading(raw, clean, toks, template, parts, res.spell_effects, None, res.unread)


@lru_cache(maxsize=65536)
def _read_permanent_line(raw: str, names: tuple[str, ...], subtypes: tuple[str, ...], x_in_cost: bool,
                         keywords: frozenset[str], creature: bool = False) -> LineReading:
    """A line of a card that is not an instant or sorcery: its reading depends only on
    these arguments, so identical lines ("Flying", "{T}: Add {G}.") are read once."""
    return _read_one(raw, names, subtypes, LineContext(x_in_cost=x_in_cost, keywords=keywords, is_creature=creature))


def read_lines(data: "CardData", modal: bool = True) -> tuple[list[LineReading], SpellBehaviour | None]:
    """Every rules-text line of the card with its reading, and the spell behaviour.
    ``modal=False``: mode lines are read one by one (unsupported), not as modes."""
    ctx, names, subtypes = _context(data)
    out: list[LineReading] = []
    # modal spells and abilities (CR 700.2): a mode-choice line and its "•" lines, read together
    raws = [r.strip() for r in (data.text or "").split("\n") if r.strip() and strip_reminder(r.strip())]
    spans, modal_spells, skip = _modes.group_spans(raws) if modal else {}, [], 0
    for i, raw in enumerate(raws):
        if skip:
            skip -= 1
            continue
        grp = _modes.read_modal_lines(raws, i, spans[i], tuple(names), subtypes, ctx) if i in spans else None
        if grp is not None:
            out.extend(grp[0])
            modal_spells += [grp[1]] if grp[1] is not None else []
            skip = spans[i]
            continue
        if ctx.is_spell:
            out.append(_read_one(raw, tuple(names), subtypes, ctx))
        else:
            present = tuple(n for n in names if n in raw)
            nouns = subtypes if "this " in raw.lower() else ()
            out.append(_read_permanent_line(raw, present, nouns, ctx.x_in_cost, ctx.keywords, ctx.is_creature))
    out = leveled_lines(out, ctx)   # striations and Class levels (CR 711, 716): unread
    spell = None
    s = ctx.spell_scope
    if modal_spells:  # a modal spell (reader/modes.py): nothing else may add targets or effects
        if len(modal_spells) == 1 and s is not None and not s.effects and not s.targets and not any(
                not _modeled_structure(r) and (mentions_target(r.tokens) or _modal(r)) for r in out if r.spell_line):
            return out, modal_spells[0]
        return read_lines(data, modal=False)
    if s is not None and s.effects:
        # a line whose targets are not read, or a choice of modes (CR 700.2, not modeled): no behaviour
        incomplete = any(not _modeled_structure(r) and (mentions_target(r.tokens) or _modal(r)) for r in out)
        if not incomplete:
            spell = SpellBehaviour(tuple(s.targets), tuple(s.effects))
        else:
            # the spell is not modelled at all: its readable instructions are unsupported too
            out = [_unmodeled(r, ctx, any(_modal(x) for x in out)) if r.spell_line else r for r in out]
    return out, spell


def _unmodeled(r: LineReading, ctx: LineContext, modal: bool) -> LineReading:
    """An instruction of a spell that is not modeled at all (another line's targets or modes
    are not read): unsupported, keeping the structure it had (its target slots) as a
    :class:`~solver.core.ir.Skeleton` (reader/skeleton.py)."""
    u = Unsupported(r.pattern, r.raw, ability_kind_of_line(r.raw),
                    (frozenset({"targets", "effect"}) | (frozenset({"costs"}) if r.clean.startswith("+") else frozenset()))
                    if modal else frozenset())
    sk = spell_line_skeleton(r.tokens, ctx) if r.structured else None
    if sk is None:
        return LineReading(r.raw, r.clean, r.tokens, None, (u,), False)
    return LineReading(r.raw, r.clean, r.tokens, "structure only", (replace(u, structure=sk),), False)


def _modeled_structure(r: LineReading) -> bool:
    """The line's structure is read *into abilities or the spell* (no unsupported part but
    riders): a structure read only as a :class:`~solver.core.ir.Skeleton` of an unsupported part
    (reader/skeleton.py) does not give the spell its targets or modes."""
    return r.template is not None and not any(isinstance(p, Unsupported) and p.kind != "rider" for p in r.parts)


def _modal(r: LineReading) -> bool:
    """A choice of modes or a mode (CR 700.2): "Choose one —", "• …"."""
    low = r.clean.lower()
    return low.startswith(("•", "+ {")) or (low.startswith("choose ") and "—" in low)


def read(data: "CardData") -> tuple[list[Ability], SpellBehaviour | None]:
    """The card's abilities in printed order and its spell behaviour (instants, sorceries).

    An instant's or sorcery's instructions whose targets are not all understood
    give no spell behaviour at all (its lines are reported unsupported), so a
    spell is never modelled with fewer targets than it has.
    """
    lines, spell = read_lines(data)
    abilities: list[Ability] = [p for r in lines for p in r.parts]
    return abilities, spell


def without_text(obj: Any) -> Any:
    """``obj`` with every ``text`` field cleared, recursively (for comparing with the library).

    Unsupported parts lose their text too: the library's and the reader's
    quote the same line with or without reminder text; and their structure
    (reader/skeleton.py), which the library does not record.
    """
    if isinstance(obj, (list, tuple)):
        return type(obj)(without_text(x) for x in obj)
    if is_dataclass(obj) and not isinstance(obj, type):
        changes: dict[str, Any] = {}
        for f in fields(obj):
            v = getattr(obj, f.name)
            if f.name == "text" and isinstance(v, str):
                changes[f.name] = ""
            elif f.name == "structure" and isinstance(obj, Unsupported):
                changes[f.name] = None  # the library records no structure of an unread part (.skeleton)
            elif is_dataclass(v) or isinstance(v, (list, tuple)):
                changes[f.name] = without_text(v)
        return replace(obj, **changes) if changes else obj
    return obj

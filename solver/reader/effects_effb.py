"""Effects of "this turn" and counter keyword actions (issue 26): group pumps and grants until end
of turn ("Creatures you control get +1/+1 until end of turn", CR 611.2a, 611.2c, 613.4c), combat
restrictions for the turn ("Target creature can't block this turn", "~ can't be blocked this turn",
CR 509.1b) and the keyword actions monstrosity, adapt, bolster, support and explore (CR 701.37, 701.46,
701.39, 701.41, 701.44).

Each reader is a ``clause_*`` function of the shape the effect dispatcher
(:func:`solver.reader.effects.clause`) tries; they read by grammar, never by card."""
from __future__ import annotations

from ..core import ir
from ..core.ir import Effect, GroupPump, GroupThisTurn, ThisTurn
from ..core.selectors import Selector
from .cursor import Cursor, NoMatch
from .descriptions import desc, to_filter
from .phrases import pt, subtype_word
from .scope import Scope, amount, object_ref, pump_until_eot_x
from .production import amount_phrase

#: The combat rules a "this turn" clause puts on its object, by its words after the subject, and
#: whether "this turn" is followed by "if able" (a requirement, CR 508.1d, 509.1c) — restrictions
#: first (CR 508.1c, 509.1b); longer wordings before their prefixes.
_THIS_TURN_RULES: tuple[tuple[tuple[str | tuple[str, ...], ...], tuple[type[ir.CombatStatic], ...], bool], ...] = (
    (("can't", "attack", "or", "block"), (ir.CantAttack, ir.CantBlock), False),
    (("can't", "be", "blocked"), (ir.Unblockable,), False),
    (("can't", "block"), (ir.CantBlock,), False),
    (("can't", "attack"), (ir.CantAttack,), False),
    (("must", "be", "blocked"), (ir.MustBeBlocked,), True),
    ((("attacks", "attack"),), (ir.MustAttack,), True),     # "Each creature attacks", "Creatures attack"
    ((("blocks", "block"),), (ir.MustBlock,), True),
)


def _combat_rules(c: Cursor) -> tuple[type[ir.CombatStatic], ...]:
    """The words after the subject: "can't block this turn", "attacks this turn if able", … (the
    table above); NoMatch for any other ("can't block this creature this turn", "… by …")."""
    for words, rules, if_able in _THIS_TURN_RULES:
        save = c.i
        if c.take(*words) and c.take("this", "turn") and (not if_able or c.take("if", "able")):
            return rules
        c.i = save
    raise NoMatch("a combat rule this turn")


def _group_subject(c: Cursor) -> tuple[ir.Filter, bool]:
    """"[each|all] [other] <creatures you control | creatures your opponents control | …>": a
    battlefield description (CR 611.2c: the set it names is fixed as the effect begins), and
    whether it says "other" (the source itself excluded)."""
    each = c.take(("each", "all"))
    other = c.take(("other", "another"))
    d = desc(c, targeting=True)
    if d.other:
        other, d.other = True, False
    if not d.plural and not each:
        raise NoMatch("a group is plural or 'each'")
    if d.players or d.zone != "battlefield" or d.card or not d.types:
        raise NoMatch("a group of permanents")
    f = to_filter(d)
    if f.chosen_type or f.has_x or f.from_zones or f.not_from_zones or f.not_owned or f.controller_ref \
            or f.condition:
        raise NoMatch("a qualifier matching a permanent does not evaluate")   # targeting.object_matches
    return f, other


def clause_group_pump(c: Cursor, s: Scope) -> list[Effect]:
    """<group> get(s) +N/+N [and gain(s) <keywords>] until end of turn; <group> gain(s) <keywords>
    until end of turn (CR 611.2a, 613.4c; the set affected fixed as it resolves, 611.2c)."""
    group, other = _group_subject(c)
    if other and not s.source_is_permanent:
        raise NoMatch("'other' of a spell")
    p, q, kws, has_x = pump_until_eot_x(c)
    x = x_of_pump(c, s) if has_x else None
    s.groups += 1   # its slot in the effects entry's ``affected`` (printed order; a gap is harmless)
    return [GroupPump(group, power=p, toughness=q, keywords=kws, other=other, slot=s.groups - 1, x=x)]


def clause_group_base_pt(c: Cursor, s: Scope) -> list[Effect]:
    """["until end of turn,"] <group> has/have base power and toughness N/N [and become(s) a|an <subtype> in
    addition to its/their other creature types] [until end of turn] (CR 611.2a, 611.2c, 613.4b)."""
    leading = bool(c.take("until", "end", "of", "turn", ","))
    group, other = _group_subject(c)
    if other and not s.source_is_permanent:
        raise NoMatch("'other' of a spell")
    c.need(("has", "have"), "base", "power", "and", "toughness")
    p, q = pt(c, signed=False)
    subtypes: frozenset[str] = frozenset()
    if c.take("and", ("becomes", "become"), ("a", "an")):
        subtypes = frozenset({subtype_word(c)})
        c.need("in", "addition", "to", ("its", "their"), "other", "creature", "types")
    if not leading:
        c.need("until", "end", "of", "turn")
    c.end()
    s.groups += 1
    return [ir.GroupAnimate(group, p, q, subtypes, other=other, slot=s.groups - 1)]


def x_of_pump(c: Cursor, s: Scope) -> ir.Amount:
    """What the X of "+X/+X" is (CR 107.3, 608.2h): ", where X is <count>" after the clause — a count
    needing no power or ability of another permanent as it resolves ("the number of creatures you
    control", "your life total") — else the spell's or ability's own X (CR 107.3m)."""
    if c.take(",", "where", "x", "is"):
        n = amount_phrase(c)
        if n.what not in ("number", "cards", "life", "counters") or n.keyword or n.min_power is not None:
            raise NoMatch("an X read from power or abilities")
        return n
    if not s.x_defined:
        raise NoMatch("an X the text does not define")
    return "X"


def clause_this_turn(c: Cursor, s: Scope) -> list[Effect]:
    """<SELF | it | target creature …> can't block / can't be blocked / can't attack [or block] this
    turn, attacks / blocks / must be blocked this turn if able (CR 508.1c–d, 509.1b–c, 611.2a): a
    combat rule on the object named, for the turn. Right after "and", without a subject ("Target
    creature gets +1/+0 until end of turn and can't be blocked this turn"): the object just named."""
    if c.i > 0 and c.toks[c.i - 1].low == "and" and c.at(("can't", "must", "attacks", "blocks")):
        if s.last is None:
            raise NoMatch("no object to bind")
        ref = s.last
    else:
        ref = object_ref(c, s)
    if ref.kind not in ("self", "target", "each_target"):
        raise NoMatch("this object or a target")   # the view names no other object (enchanted, a player)
    if ref.kind in ("target", "each_target") and "Creature" not in s.targets[ref.index].filter.types:
        raise NoMatch("a creature target")
    return [ThisTurn(ref, rule(Selector(self_only=True))) for rule in _combat_rules(c)]


def _rules_group(f: ir.Filter) -> bool:
    """A group the characteristics view evaluates for a rules-modifying effect (:class:`GroupThisTurn`):
    card types, controller, subtypes, non-types, colors and keywords only."""
    return f == ir.Filter(types=f.types, who=f.who, subtypes=f.subtypes, nontypes=f.nontypes, colors=f.colors,
                          keywords=f.keywords, not_keywords=f.not_keywords)


def clause_group_this_turn(c: Cursor, s: Scope) -> list[Effect]:
    """<group> can't block / can't attack [or block] / can't be blocked this turn, <group> attack(s)
    / block(s) this turn if able ("Creatures without flying can't block this turn", "Each creature
    attacks this turn if able"): rules for the turn on whatever the group holds at each moment
    (CR 611.2c, 508.1c–d, 509.1b–c)."""
    group, other = _group_subject(c)
    if other and (not s.source_is_permanent or s.targets):
        raise NoMatch("'other' than what")   # a spell's "other creatures": other than its target
    if not _rules_group(group) or "Permanent" in group.types:
        raise NoMatch("a group the view evaluates")
    return [GroupThisTurn(group, rule(Selector(self_only=True)), other=other) for rule in _combat_rules(c)]


def clause_explore(c: Cursor, s: Scope) -> list[Effect]:
    """<SELF | it | target creature you control> explores (CR 701.44a): the explorer is one its
    controller — the ability's — controls, so the library revealed is theirs."""
    ref = object_ref(c, s)
    c.need("explores")
    c.take("again")   # "it explores, then it explores again" (Jadelight Ranger): a second explore
    if ref.kind == "self" and s.source_is_permanent:
        return [ir.Explore(ref)]
    if ref.kind == "target":
        f = s.targets[ref.index].filter
        if f.types == frozenset({"Creature"}) and f.who == "you" and not f.players:
            return [ir.Explore(ref)]
    raise NoMatch("the source or a target creature you control explores")


def clause_support(c: Cursor, s: Scope) -> list[Effect]:
    """support N (CR 701.41a): a +1/+1 counter on each of up to N other target creatures (a
    permanent's: other than itself, "other"; an instant's or sorcery's: up to N target creatures)."""
    c.need("support")
    n = amount(c, s)
    if not isinstance(n, int) or n < 1:
        raise NoMatch("support N")
    filt = ir.Filter(types=frozenset({"Creature"}), other_than_source=s.source_is_permanent)
    s.targets.append(ir.TargetSpec(filt, 0, n, ()))
    ref = ir.Ref("each_target", len(s.targets) - 1)
    s.last = ref
    return [ir.PutCounters(ref, 1, "+1/+1")]


def clause_counter_keyword(c: Cursor, s: Scope) -> list[Effect]:
    """monstrosity N / adapt N (of the source, CR 701.37a, 701.46a) / bolster N (CR 701.39a)."""
    verb = c.next().low
    if verb not in ("monstrosity", "adapt", "bolster"):
        raise NoMatch("monstrosity, adapt or bolster")
    if verb != "bolster" and not s.source_is_permanent:
        raise NoMatch("the source is a permanent")
    n = amount(c, s)
    if verb == "monstrosity":
        return [ir.Monstrosity(n)]
    return [ir.Adapt(n) if verb == "adapt" else ir.Bolster(n)]


#: The clauses of this module, as the dispatcher lists them (name, reader).
CLAUSES_EFFB = (("group pump", clause_group_pump), ("group base power and toughness", clause_group_base_pt),
                ("this turn", clause_this_turn),
                ("group this turn", clause_group_this_turn), ("explore", clause_explore),
                ("counter keyword", clause_counter_keyword), ("support", clause_support))

__all__ = ["clause_group_pump", "clause_group_base_pt", "clause_this_turn", "clause_counter_keyword", "clause_support", "clause_group_this_turn", "clause_explore",
           "CLAUSES_EFFB"]

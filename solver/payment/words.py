"""Why a total cost can't be paid, in rules terms (rules layer; CR 601.2f–h, 605, 106.6,
107.5, 107.6, 119.4).

:mod:`models.payment` answers in typed values: a cost that can't be paid has a minimal set
of parts that can't be paid together (:func:`~models.payment.unpaid_core`).
:func:`explain` words it as one sentence citing the rules: the ``reason`` of the ``pay``
query and of an illegal action, kept with the typed answers (:class:`~solver.payment.paid.PayOutcome`)
because it is a rule explanation, not a format. The contract's payment objects are written
by :mod:`solver.queries.payments`.
"""
from __future__ import annotations

from dataclasses import replace
from typing import cast

from mtgsolve.models import payment as pm
from mtgsolve.models.payment import SNOW, CostPart, Outcome, PaymentProblem, SpendRule, can_spend, symbol_options

from ..core.mana import TYPES, ManaCost, Symbol

__all__ = ["explain"]


# ---------------------------------------------------------------------------
# Why a cost can't be paid
# ---------------------------------------------------------------------------


def explain(problem: PaymentProblem, time_limit: float | None = None) -> str:
    """One sentence saying why the total cost can't be paid: the minimal set of the cost's
    parts that can't be paid together (:func:`models.payment.unpaid_core`), worded in rules
    terms, and whether spending restrictions (CR 106.6) are the cause."""
    core = pm.unpaid_core(problem, time_limit)
    if core is None:
        return "the cost can't be paid" + _restriction_note(problem, time_limit)
    return _sentence(problem, core, time_limit) + _restriction_note(problem, time_limit)


def _count_word(n: int) -> str:
    return {0: "no", 1: "one", 2: "two", 3: "three", 4: "four", 5: "five"}.get(n, str(n))


def _producers(problem: PaymentProblem, reqs: set[str]) -> int:
    """How many permanents have a usable mana ability with an outcome that can pay one of
    ``reqs`` (the permanent whose ability is being paid for with {T} excluded)."""
    seen: set[int] = set()
    n = 0
    for a in problem.abilities:
        c = a.sac_cls if (a.sac_cls is not None and not a.tap) else a.cls
        if c in seen or (c == problem.main.source_cls and problem.main.tap):
            continue
        if any(_for_main(problem, o)[t] and can_spend(TYPES[t], False, r, problem.celestial)
               for o in a.outcomes for t in range(6) for r in reqs):
            seen.add(c)
            n += len(problem.classes[c].members)
    return n


def _for_main(problem: PaymentProblem, o: Outcome) -> tuple[int, ...]:
    """The mana of an outcome that may be spent on the total cost (CR 106.6)."""
    if not o.tag or problem.rules[o.tag - 1].main:
        return o.mana
    return tuple(m - r for m, r in zip(o.mana, o.restricted))


def _restriction_note(problem: PaymentProblem, time_limit: float | None) -> str:
    """When spending restrictions (CR 106.6) are why the cost can't be paid: which
    mana is restricted and to what; otherwise ""."""
    blocked = [r for r in problem.rules if not r.main or r.abilities != frozenset(
        i for i, a in enumerate(problem.abilities) if a.costed)]
    if not blocked:
        return ""
    free = replace(problem, rules=tuple(SpendRule(r.text, True, frozenset(range(len(problem.abilities))), r.sources)
                                        for r in problem.rules))
    if not pm.decide(free, time_limit):
        return ""
    bits = [f"{' and '.join(r.sources)}: {r.text}" for r in blocked if not r.main]
    bits += [f"{' and '.join(r.sources)} (for mana abilities' costs): {r.text}" for r in blocked if r.main]
    return "; restricted mana can't pay for it (CR 106.6) — " + "; ".join(bits)


def _pool_for(problem: PaymentProblem, reqs: set[str]) -> int:
    return sum(n for t, n in enumerate(problem.pool)
               if any(can_spend(TYPES[t], False, r, problem.celestial) for r in reqs))


def _sources(n: int) -> str:
    """"no untapped source", "only one untapped source", "only 3 untapped sources"."""
    if n == 0:
        return "no untapped source"
    return f"only {_count_word(n)} untapped source{'s' if n != 1 else ''}"


def _mana_text(req: str, n: int) -> str:
    return "{%s}" % req * n


def _sentence(problem: PaymentProblem, core: list[CostPart], time_limit: float | None) -> str:
    main = problem.main
    names = [p.name for p in core]
    src = problem.classes[main.source_cls].name if main.source_cls is not None else main.source_name
    if "tap_symbol" in names:
        tap_sym = "{T}" if main.tap else "{Q}"
        return (f"{src} has summoning sickness: {tap_sym} abilities of creatures need haste "
                f"or continuous control since the turn began (CR 302.6)")
    if len(core) == 1:
        p = core[0]
        if p.name == "tap":
            if problem.classes[cast(int, main.source_cls)].tapped:  # the {T} part: a source on the battlefield
                return f"{src} is tapped: {{T}} requires it to be untapped (CR 107.5)"
        if p.name == "untap":
            return f"{src} is untapped: {{Q}} requires it to be tapped (CR 107.6)"
        if p.name == "sacrifice":
            n = sum(len(problem.classes[c].members) for c in (main.sacrifice_classes or ()))
            return f"needs {main.sacrifice_text} to sacrifice; you control {'none' if n == 0 else n}"
        if p.name == "tap_creatures":
            n = sum(len(problem.classes[c].members) for c in main.tap_creature_classes)
            what = "an untapped creature" if main.tap_creatures == 1 else f"{main.tap_creatures} untapped creatures"
            have = "none" if n == 0 else f"only {_count_word(n)}"
            return f"needs {what} you control to tap; you control {have}"
        if p.name == "counters":
            on_it = problem.classes[cast(int, main.source_cls)].counters  # the counters part: a source on the battlefield
            return (f"{src} has {_count_word(on_it)} {main.counter_name} counter{'s' if on_it != 1 else ''}; "
                    f"the cost removes {main.remove_counters}")
        if p.name == "life":
            if problem.life_total < main.life:
                return f"needs {main.life} life but you have {problem.life_total} (CR 119.4)"
            return (f"paying {main.life} life needs that much life after the mana abilities' damage "
                    f"and life payments (CR 119.4)")
        if p.name.startswith("mana:"):
            r = p.name[5:]
            k = p.text.count("{")
            if r == SNOW:
                n = _producers_snow(problem)
                return f"needs {p.text}; {_sources(n).replace('untapped', 'untapped snow')} can produce mana"
            n = _producers(problem, {r})
            pool_n = _pool_for(problem, {r})
            pool_note = f" and the mana pool holds {pool_n} mana for it" if pool_n else ""
            if "/P}" in p.text and not main.life_allowed:
                pool_note += " (paying life is not allowed)"
            what = "{%s}" % r if not problem.celestial else "mana spendable on {%s}" % r
            if n + pool_n < k:
                return f"needs {p.text}; {_sources(n)} can produce {what}{pool_note}"
            best = pm.max_amount(problem, r, time_limit)
            return f"needs {p.text}; at most {_mana_text(r, best or 0) or 'no such mana'} can be made and spent"
        if p.name.startswith("sym:"):
            sym = _symbol_of(p.text)
            opts = symbol_options(sym, main.life_allowed)
            sym_colors = [r for r, _ in opts if r in TYPES]
            bits = []
            if sym_colors:
                n = _producers(problem, set(sym_colors))
                what = " or ".join("{%s}" % c for c in sym_colors)
                bits.append(f"{_sources(n)} can produce {what}")
            if sym.kind in ("phyrexian", "hybrid_phyrexian"):
                bits.append("paying life is not allowed" if not main.life_allowed
                            else f"you can't pay 2 life for each (CR 119.4)")
            if sym.kind == "mono_hybrid":
                bits.append(f"not enough mana for {{{sym.generic}}} either")
            return f"needs {p.text}; " + " and ".join(bits)
        if p.name == "generic":
            best = pm.max_amount(problem, None, time_limit)
            return f"needs {p.text}; at most {best or 0} mana can be made and spent"
    # several parts: mana-only cores are compared with what can be made
    mana_parts = [p for p in core if p.name.startswith(("mana:", "sym:")) or p.name == "generic"]
    text = "".join(p.text for p in sorted(mana_parts, key=lambda p: _text_order(p.text)))
    if len(mana_parts) == len(core):
        colors = {p.name[5:] for p in core if p.name.startswith("mana:") and p.name[5:] in TYPES}
        if "generic" not in names and all(p.name.startswith("mana:") for p in core) and colors:
            n = _producers(problem, colors)
            pool_n = _pool_for(problem, colors)
            need = sum(_amount(p.text) for p in core)
            what = " or ".join("{%s}" % c for c in sorted(colors, key=TYPES.index))
            if n + pool_n < need:
                return (f"needs {text}; {_sources(n)} can produce {what}"
                        + (f" and the mana pool holds {pool_n} mana for it" if pool_n else ""))
        need = sum(_amount(p.text) for p in core)
        best = pm.max_amount(problem, None, time_limit)
        if best is not None and best < need:
            return f"needs {text}, {need} mana in all; at most {best} mana can be made and spent"
        return f"needs {text}; no combination of untapped sources and pool mana pays all of it"
    others = [p for p in core if p not in mana_parts]
    labels = []
    for p in others:
        labels.append({"tap": "{T}", "untap": "{Q}", "life": f"Pay {main.life} life",
                       "sacrifice": f"sacrificing {main.sacrifice_text}", "sacrifice_self": f"sacrificing {src}",
                       "counters": f"removing {main.remove_counters} {main.counter_name} counter(s)",
                       "tap_creatures": "tapping untapped creatures"}.get(p.name, p.text or p.name))
    if text:
        labels.append(text)
    return f"can't pay {' and '.join(labels)} together: the same permanents or life would be needed twice"


def _producers_snow(problem: PaymentProblem) -> int:
    seen, n = set(), 0
    for a in problem.abilities:
        if any(sum(o.snow) for o in a.outcomes) and a.cls not in seen:
            seen.add(a.cls)
            n += len(problem.classes[a.cls].members)
    return n


def _symbol_of(text: str) -> Symbol:
    return ManaCost.parse(text[: text.index("}") + 1]).symbols[0]


def _amount(text: str) -> int:
    """Mana value-like amount of a cost text (X counts 0; generic its number; others 1)."""
    if not text or text == "{0}":
        return 0
    return sum(max(s.generic, 1) if s.kind in ("generic", "mono_hybrid") else (0 if s.kind == "X" else 1)
               for s in ManaCost.parse(text).symbols)


def _text_order(text: str) -> tuple:
    try:
        return ManaCost.parse(text).symbols[0].sort_key()
    except Exception:  # pragma: no cover - defensive
        return (9,)

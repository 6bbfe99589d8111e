"""Coverage of the Oracle-text reader over a corpus of cards.

:func:`coverage_report` reads every card of an MTGJSON-shaped file (see
:func:`solver.cards.importer.load_cards`) and measures:

* **whole cards** — the share of cards whose every rules-text line is
  understood (no :class:`~solver.core.ir.Unsupported` part);
* **mana abilities** — among cards with at least one mana ability in their
  rules text, the share whose mana abilities are *all* understood.  A line is
  a mana ability by an independent textual test, not by the grammar:
  an activated ability (``cost: effect``, not a loyalty ability) whose effect
  starts with "Add" (CR 605.1a), or a "When/Whenever … tapped for mana / taps
  … for mana" trigger that adds mana (CR 605.1b); lines with "target" are
  excluded (CR 605.5a).  Reminder text is not rules text, so intrinsic mana
  abilities of basic land types (CR 305.6) are not counted; nor are abilities
  granted in quotes.  A mana-ability line is understood when the reader turns
  it into a mana ability with no unsupported part (riders included);
* **targeting** — lines using the word "target" (spells' instructions and
  abilities), and cards all of whose targeting lines are understood;
* the **most common unsupported templates**: each unsupported part's ``what``
  (for lines, the line normalised by :func:`solver.reader.tokens.template`:
  self-references ``~``, numbers ``N``, mana ``{M}``);
* **speed** — cards read per second (CardData construction included).

Layers (architecture, "Cards": read in layers).  Each layer is counted per
line (the lines it concerns, and those read) and per card (cards with at
least one such line, and those whose such lines are all read).  Which lines a
layer concerns is decided from the printed text (:func:`line_layers`), not by
the grammar:

* **structure** — every rules-text line: read when it is classified into an
  ability kind (spell instruction, activated, loyalty, triggered, static,
  keyword) with its cost, timing and target slots read or known to have
  none — its effects may stay unread (``UnreadEffect``,
  :mod:`.structure`), or the whole line may stay unsupported with its structure
  read (``Unsupported.structure``, :mod:`.skeleton`); an unread rider of a read
  ability is an effect, not structure (:attr:`~solver.reader.LineReading.structured`);
* **costs** — lines with an activation cost (``[cost]: [effect]``, loyalty
  abilities, activated keywords such as equip or cycling; CR 602.1, 606):
  read when the line yields an activated or mana ability (its cost read);
* **targets** — lines using the word "target" (CR 115): read when the line's
  structure is read (every target slot read with its filter and count);
* **statics** — static-ability and keyword lines (CR 604, 702) that are
  neither activated nor triggered nor an instant's or sorcery's
  instructions: read when understood completely;
* **effects** — lines that do something on resolution (an instant's or
  sorcery's instructions, activated and triggered abilities; CR 608): read
  when understood completely (no unread effect, no unread rider);
* **whole cards** — as above (every line understood).
"""
from __future__ import annotations

import re
import time
from collections import Counter
from dataclasses import dataclass, field
from typing import Any, Iterable, Mapping

from ..core.ir import ActivatedAbility, ManaAbility, TriggeredManaAbility, ability_kind_of_line
from ..reader import LineReading, read_lines
from .importer import card_data, load_cards

_TARGET_RE = re.compile(r"\btargets?\b", re.IGNORECASE)
_LOYALTY_RE = re.compile(r"^\s*\[")
_TAPPED_FOR_MANA_RE = re.compile(r"\b(?:is tapped for mana|taps? [^,]* for mana)\b", re.IGNORECASE)
_TRIGGER_ADD_RE = re.compile(r"\badds?\b")
NON_GAME_LAYOUTS = frozenset({"vanguard", "scheme", "planar"})

# Why a mana-ability line is not understood: the first matching reason (what the IR
# would need), so the coverage report says which extension would help most.
MANA_GAP_REASONS: tuple[tuple[str, re.Pattern], ...] = tuple((name, re.compile(rx)) for name, rx in (
    ("spending restriction or spending trigger on the mana",
     r"Spend this mana only|mana can't be spent|mana is spent|spend this mana|spent to cast|spent on"),
    ("activation restriction", r"Activate only|Activate no more|can't activate|Activate this ability only"),
    ("chosen color or type", r"chosen color|chosen type|color of your choice|a chosen|last chosen"),
    ("commander's color identity", r"commander's color identity"),
    ("variable amount (X, 'an amount of', counters removed, …)",
     r"\bX\b|an amount of|any number of|that much|for each [^.]*counter|for each card|for each [^.]*(?:with|named|"
     r"among|in your graveyard)|plus an additional|one-half"),
    ("cost the IR cannot hold (energy, mill, exile, discard, exert, tap other permanents, …)",
     r"\{E\}|Mill a card|Exile|Discard|Exert|Tap an untapped (?!creature you control)|Tap (?:two|three|X) untapped "
     r"(?!creatures you control)|Return [^:]*:|Collect evidence|Forage|Untap a tapped|\{TK\}|Sacrifice a [^:]* or "),
    ("conditional amount or type ('If …, add … instead')", r"\bIf\b[^.]*\binstead\b|, instead add"),
    ("additional effect (doesn't untap, counters, life, cards, damage, …)",
     r"doesn't untap|counter on|counters on|You gain|gains? \d+ life|Draw a card|draw a card|deals \d+ damage|"
     r"lose life|loses? \d+ life|sacrifice it|Roll|mill|gains control|return [^.]* to its owner's hand"),
))


_GAP_ORDER = [name for name, _ in MANA_GAP_REASONS] + ["other wording"]


def mana_gap_reason(clean: str) -> str:
    """The first reason of :data:`MANA_GAP_REASONS` that a not-understood mana-ability line shows."""
    for name, rx in MANA_GAP_REASONS:
        if rx.search(clean):
            return name
    return "other wording"


def _top_colon(text: str) -> int:
    quoted = False
    for i, ch in enumerate(text):
        if ch == '"':
            quoted = not quoted
        elif ch == ":" and not quoted:
            return i
    return -1


def is_mana_ability_line(clean: str) -> bool:
    """Is this line (reminder text removed) a mana ability? A textual test, independent of the grammar."""
    if _TARGET_RE.search(clean):
        return False
    k = _top_colon(clean)
    if k > 0 and not _LOYALTY_RE.match(clean):
        effect = clean[k + 1:].strip()
        return effect.startswith("Add ")
    low = clean.lower()
    if low.startswith(("when ", "whenever ")):
        head = clean.split(",", 1)[0]
        return bool(_TAPPED_FOR_MANA_RE.search(head)) and bool(_TRIGGER_ADD_RE.search(clean.split(",", 1)[-1]))
    return False


def is_targeting_line(clean: str) -> bool:
    return bool(_TARGET_RE.search(clean))


LAYERS: tuple[str, ...] = ("structure", "costs", "targets", "statics", "effects")

_ACTIVATED_KEYWORD = re.compile(r"^(?:equip|cycling|\w+cycling|basic landcycling|fortify|reconfigure|level up|outlast|"
                                r"scavenge|unearth|ninjutsu|transmute|embalm|eternalize|boast|crew|transfigure|"
                                r"auto-equip|channel)\b", re.IGNORECASE)


def line_layers(r: LineReading, spell_card: bool) -> dict[str, bool]:
    """The layers a line concerns (key present) and whether it is read there (value)."""
    clean = r.clean
    body = re.sub(r"^[^—:]{1,40} — ", "", clean) if " — " in clean[:42] else clean  # an ability word
    kind = ability_kind_of_line(body)
    loyalty = bool(re.match(r"^\s*\[[+\-−]?[0-9X]+\]:", body))
    out: dict[str, bool] = {"structure": r.structured}
    if kind == "activated" or loyalty or _ACTIVATED_KEYWORD.match(body):
        out["costs"] = r.structured and any(isinstance(p, (ActivatedAbility, ManaAbility)) for p in r.parts)
    if is_targeting_line(clean):
        out["targets"] = r.structured
    keyword_line = r.template == "keywords" or bool(_ACTIVATED_KEYWORD.match(body))
    if kind in ("activated", "triggered") or loyalty or (spell_card and not keyword_line and r.template not in (
            "static ability", "casting rule", "casting option", "mana spending rule", "combat static")):
        out["effects"] = r.understood
    else:
        out["statics"] = r.understood
    return out


def mana_line_understood(r: LineReading) -> bool:
    return r.understood and any(isinstance(p, (ManaAbility, TriggeredManaAbility)) for p in r.parts)


@dataclass
class CoverageReport:
    """Coverage figures over a corpus (see the module docstring for definitions)."""

    source: str
    cards: int = 0
    fully_understood: int = 0
    keyword_gap_cards: int = 0  # not understood only because of keyword abilities the IR lacks
    game_cards: int = 0  # excluding vanguard, scheme and plane cards
    game_fully_understood: int = 0
    mana_cards: int = 0
    mana_cards_understood: int = 0
    mana_lines: int = 0
    mana_lines_understood: int = 0
    targeting_cards: int = 0
    targeting_cards_understood: int = 0
    targeting_lines: int = 0
    targeting_lines_understood: int = 0
    spells_with_targets: int = 0  # instants/sorceries whose spell behaviour has targets
    text_lines: int = 0  # rules-text lines (reminder-only lines excluded)
    text_lines_understood: int = 0
    reader_errors: int = 0
    bad_mana_costs: int = 0
    seconds: float = 0.0  # wall clock
    cpu_seconds: float = 0.0  # process CPU time (steadier on a shared machine)
    top: int = 20
    layer_lines: Counter = field(default_factory=Counter)  # per layer: lines it concerns
    layer_lines_read: Counter = field(default_factory=Counter)
    layer_cards: Counter = field(default_factory=Counter)  # per layer: cards with such a line
    layer_cards_read: Counter = field(default_factory=Counter)
    unstructured: Counter = field(default_factory=Counter)  # templates of lines whose structure is not read
    unstructured_examples: dict = field(default_factory=dict)
    unsupported: Counter = field(default_factory=Counter)
    examples: dict = field(default_factory=dict)
    mana_production_cards: int = 0  # every mana-ability line gives a mana ability (riders may be unsupported)
    mana_unsupported: Counter = field(default_factory=Counter)
    mana_examples: dict = field(default_factory=dict)
    mana_gap: Counter = field(default_factory=Counter)  # cards not understood, by reason (see MANA_GAP_REASONS)
    templates_used: Counter = field(default_factory=Counter)

    # -- figures ------------------------------------------------------------
    @staticmethod
    def _share(a: int, b: int) -> float:
        return a / b if b else 0.0

    @property
    def whole_card_share(self) -> float:
        return self._share(self.fully_understood, self.cards)

    @property
    def mana_share(self) -> float:
        return self._share(self.mana_cards_understood, self.mana_cards)

    @property
    def targeting_share(self) -> float:
        return self._share(self.targeting_lines_understood, self.targeting_lines)

    @property
    def cards_per_second(self) -> float:
        """Cards read per second of CPU time (CardData construction included)."""
        t = self.cpu_seconds or self.seconds
        return self.cards / t if t else 0.0

    # -- rendering ----------------------------------------------------------
    def lines(self) -> list[str]:
        """The report for people, one line per string."""
        def pct(a: int, b: int) -> str:
            return f"{a:,} / {b:,} ({100 * self._share(a, b):.1f}%)"

        out = [
            f"Coverage of the Oracle-text reader over {self.source}",
            f"  cards fully understood:            {pct(self.fully_understood, self.cards)}",
            f"    (game cards, no vanguard/scheme/plane: {pct(self.game_fully_understood, self.game_cards)})",
            f"    not understood only for keyword abilities the IR lacks (prowess, exalted, …): "
            f"{pct(self.keyword_gap_cards, self.cards)}",
            f"  cards with mana abilities, all understood: {pct(self.mana_cards_understood, self.mana_cards)}",
            f"    mana-ability lines understood:   {pct(self.mana_lines_understood, self.mana_lines)}",
            f"    mana production read (riders reported unsupported): "
            f"{pct(self.mana_production_cards, self.mana_cards)}",
            f"  targeting lines understood:        {pct(self.targeting_lines_understood, self.targeting_lines)}",
            f"    cards whose targeting lines are all understood: "
            f"{pct(self.targeting_cards_understood, self.targeting_cards)}",
            f"  rules-text lines understood:       {pct(self.text_lines_understood, self.text_lines)}",
            "  by layer (read / concerned):       lines                          cards",
            *[f"    {layer:<10}{pct(self.layer_lines_read[layer], self.layer_lines[layer]):>34}"
              f"{pct(self.layer_cards_read[layer], self.layer_cards[layer]):>31}" for layer in LAYERS],
            f"    {'whole':<10}{'':>34}{pct(self.fully_understood, self.cards):>31}",
            f"  reader speed: {self.cards_per_second:,.0f} cards/s of CPU time "
            f"({self.cpu_seconds:.2f} s CPU, {self.seconds:.2f} s wall)",
        ]
        if self.reader_errors or self.bad_mana_costs:
            out.append(f"  reader errors: {self.reader_errors}; unreadable mana costs: {self.bad_mana_costs}")
        out.append(f"Most common lines whose structure is not read (top {self.top}):")
        for what, n in self.unstructured.most_common(self.top):
            out.append(f"  {n:6,}  {what}   [e.g. {self.unstructured_examples.get(what, '')}]")
        out.append(f"Most common unsupported templates (top {self.top}):")
        for what, n in self.unsupported.most_common(self.top):
            out.append(f"  {n:6,}  {what}   [e.g. {self.examples.get(what, '')}]")
        if self.mana_gap:
            out.append("Why the other cards' mana abilities are not understood (cards, by first reason):")
            for what, n in self.mana_gap.most_common():
                out.append(f"  {n:6,}  {what}")
        if self.mana_unsupported:
            out.append(f"Most common unsupported mana-ability templates (top {min(self.top, 10)}):")
            for what, n in self.mana_unsupported.most_common(min(self.top, 10)):
                out.append(f"  {n:6,}  {what}   [e.g. {self.mana_examples.get(what, '')}]")
        return out

    def __str__(self) -> str:
        return "\n".join(self.lines())

    def to_json(self) -> dict[str, Any]:
        return {
            "source": self.source,
            "cards": self.cards,
            "fully_understood": self.fully_understood,
            "whole_card_share": round(self.whole_card_share, 4),
            "keyword_gap_cards": self.keyword_gap_cards,
            "game_cards": self.game_cards,
            "game_fully_understood": self.game_fully_understood,
            "mana_cards": self.mana_cards,
            "mana_cards_understood": self.mana_cards_understood,
            "mana_share": round(self.mana_share, 4),
            "mana_production_cards": self.mana_production_cards,
            "mana_gap": dict(self.mana_gap.most_common()),
            "mana_lines": self.mana_lines,
            "mana_lines_understood": self.mana_lines_understood,
            "targeting_lines": self.targeting_lines,
            "targeting_lines_understood": self.targeting_lines_understood,
            "targeting_share": round(self.targeting_share, 4),
            "targeting_cards": self.targeting_cards,
            "targeting_cards_understood": self.targeting_cards_understood,
            "text_lines": self.text_lines,
            "text_lines_understood": self.text_lines_understood,
            "layers": {layer: {"lines": self.layer_lines[layer], "lines_read": self.layer_lines_read[layer],
                               "cards": self.layer_cards[layer], "cards_read": self.layer_cards_read[layer]}
                       for layer in LAYERS},
            "top_unstructured": [{"template": w, "count": n, "example": self.unstructured_examples.get(w, "")}
                                 for w, n in self.unstructured.most_common(self.top)],
            "reader_errors": self.reader_errors,
            "bad_mana_costs": self.bad_mana_costs,
            "seconds": round(self.seconds, 3),
            "cpu_seconds": round(self.cpu_seconds, 3),
            "cards_per_second": round(self.cards_per_second, 1),
            "top_unsupported": [{"template": w, "count": n, "example": self.examples.get(w, "")}
                                for w, n in self.unsupported.most_common(self.top)],
            "top_unsupported_mana": [{"template": w, "count": n, "example": self.mana_examples.get(w, "")}
                                     for w, n in self.mana_unsupported.most_common(self.top)],
        }


def measure(cards: Iterable[Mapping[str, Any]], source: str = "", top: int = 20) -> CoverageReport:
    """Coverage figures over MTGJSON-shaped card mappings."""
    rep = CoverageReport(source=source, top=top)
    t0, c0 = time.perf_counter(), time.process_time()
    for raw in cards:
        data, bad_cost = card_data(raw)
        rep.bad_mana_costs += bad_cost
        lines, _spell = read_lines(data)
        rep.cards += 1
        game = str(raw.get("layout") or "normal") not in NON_GAME_LAYOUTS
        rep.game_cards += game
        ok = all(r.understood for r in lines) and not bad_cost
        rep.fully_understood += ok
        rep.game_fully_understood += ok and game
        if not ok and not bad_cost and all(r.understood or r.template == "keywords" for r in lines):
            rep.keyword_gap_cards += 1
        spell_card = any(t in ("Instant", "Sorcery") for t in data.types)
        card_layers: dict[str, bool] = {}
        for r in lines:
            for layer, ok_layer in line_layers(r, spell_card).items():
                rep.layer_lines[layer] += 1
                rep.layer_lines_read[layer] += ok_layer
                card_layers[layer] = card_layers.get(layer, True) and ok_layer
            if not r.structured:
                rep.unstructured[r.pattern] += 1
                rep.unstructured_examples.setdefault(r.pattern, data.name)
        for layer, ok_layer in card_layers.items():
            rep.layer_cards[layer] += 1
            rep.layer_cards_read[layer] += ok_layer
        mana_total = mana_ok = mana_made = 0
        gap: set[str] = set()
        targ_total = targ_ok = 0
        for r in lines:
            rep.text_lines += 1
            rep.text_lines_understood += r.understood
            rep.templates_used[r.template] += 1
            if r.error:
                rep.reader_errors += 1
            for u in r.unsupported:
                rep.unsupported[u.what] += 1
                rep.examples.setdefault(u.what, data.name)
            if is_mana_ability_line(r.clean):
                mana_total += 1
                good = mana_line_understood(r)
                mana_ok += good
                mana_made += any(isinstance(p, (ManaAbility, TriggeredManaAbility)) for p in r.parts)
                if not good:
                    gap.add(mana_gap_reason(r.clean))
                    key = r.pattern
                    rep.mana_unsupported[key] += 1
                    rep.mana_examples.setdefault(key, data.name)
            if is_targeting_line(r.clean):
                targ_total += 1
                targ_ok += r.understood
        rep.mana_lines += mana_total
        rep.mana_lines_understood += mana_ok
        if mana_total:
            rep.mana_cards += 1
            rep.mana_cards_understood += mana_ok == mana_total
            rep.mana_production_cards += mana_made == mana_total
            if gap:
                rep.mana_gap[min(gap, key=_GAP_ORDER.index)] += 1
        rep.targeting_lines += targ_total
        rep.targeting_lines_understood += targ_ok
        if targ_total:
            rep.targeting_cards += 1
            rep.targeting_cards_understood += targ_ok == targ_total
        if _spell is not None and _spell.targets:
            rep.spells_with_targets += 1
    rep.seconds = time.perf_counter() - t0
    rep.cpu_seconds = time.process_time() - c0
    return rep


def coverage_report(src_path: str, top: int = 20) -> CoverageReport:
    """Coverage of the reader over the cards of an MTGJSON file (AtomicCards, a set
    file, AllPrintings, or a plain list of cards; ``.gz`` allowed)."""
    cards = load_cards(src_path)
    return measure(cards, source=str(src_path), top=top)

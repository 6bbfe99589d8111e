"""Coverage of the Oracle-text reader over a corpus of cards.

:func:`coverage_report` reads every card of an MTGJSON-shaped file (see
:func:`solver.cards.importer.load_cards`) and measures:

* **whole cards** — the share of cards whose every rules-text line is
  understood (no :class:`~solver.core.ir.Unsupported` part);

**Faces** (issue 24). A multi-face card is read face by face, every face
whose text the card data holds (``solver/data/card-faces.json.gz``; CR 709.1b,
712.2: each face has its own text): it is fully understood only when every
face is, and its later faces' lines (a back face, an Adventure, a split card's
right half, a meld result) count as lines. Each face is counted once: the
shipped database also lists 408 transforming back faces and meld results (401 and 7) as
entries of their own (layout ``transform``/``meld``, no mana cost); such an
entry is not a card here but a face of its card (``back_face_entries``); a meld
result's lines count with the first of its two cards; a face whose name is
another entry of the corpus (a reversible card's faces) counts its lines with
that entry, not again.
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
from .faces import face_record
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
    multi_face_cards: int = 0  # cards read with their later faces (the card data holds them, CR 709.1b, 712.2)
    later_faces_read: int = 0  # their later faces (back faces, Adventures, right halves, meld results)
    back_face_entries: int = 0  # entries that are another card's back face (transform, meld): counted with it

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
            f"  faces: {self.multi_face_cards:,} multi-face cards read with their {self.later_faces_read:,} later faces "
            f"(each face counted once; {self.back_face_entries:,} entries that are a back face counted with their card)",
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
            "multi_face_cards": self.multi_face_cards,
            "later_faces_read": self.later_faces_read,
            "back_face_entries": self.back_face_entries,
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


@dataclass(frozen=True)
class FaceReading:
    """One face of a card as the coverage counts it: its data, whether its mana cost was unreadable,
    its lines' readings and spell behaviour, and whether its lines are counted here (``counted``: each
    face once over the corpus, :func:`card_faces`)."""

    data: Any
    bad_cost: bool
    lines: list[LineReading]
    spell: Any
    counted: bool = True


def _read_face(raw: Mapping[str, Any], counted: bool) -> FaceReading:
    data, bad_cost = card_data(raw)
    lines, spell = read_lines(data)
    return FaceReading(data, bad_cost, lines, spell, counted)


def later_faces(cards: list[Mapping[str, Any]]) -> set[str]:
    """The names of the later faces (a back face, an Adventure, a split card's right half, a meld
    result) of the corpus's multi-face cards whose faces the card data holds (:mod:`.faces`)."""
    out: set[str] = set()
    for raw in cards:
        rec = face_record(str(raw.get("name") or ""))
        if rec is not None:
            out.update(rec.names[1:])
    return out


def is_back_face_entry(raw: Mapping[str, Any], faces_named: set[str]) -> bool:
    """A corpus entry that is a transforming card's back face or a meld result listed on its own
    (the shipped database has 408, layout ``transform`` or ``meld``): it is counted with its card."""
    name = str(raw.get("name") or "")
    return " // " not in name and name in faces_named and str(raw.get("layout")) in ("transform", "meld")


def card_faces(raw: Mapping[str, Any], own_entries: set[str], seen: set[str]) -> list[FaceReading]:
    """Every face of the card ``raw`` as the coverage reads it (CR 709.1b, 712.2: each face has its
    own text): the entry itself (its front face, or a split card's left half) and, when the card data
    holds them (:func:`.faces.face_record`), its later faces, each read as a card of its own. A face's
    lines are counted once over the corpus: not here when another entry of the corpus has that name
    (``own_entries``, e.g. a reversible card's faces), nor a second time (``seen``: a meld result is
    the back face of two cards)."""
    name = str(raw.get("name") or "")
    rec = face_record(name)
    out = [_read_face(raw, rec is None or rec.names[0] not in own_entries or rec.names[0] == name)]
    for f in (rec.faces[1:] if rec is not None else ()):
        face = str(f.get("name"))
        out.append(_read_face({**f, "layout": "normal"}, face not in own_entries and face not in seen))
        seen.add(face)
    return out


def _count_lines(rep: CoverageReport, face: FaceReading) -> None:
    """The line figures of one face (layers, templates, mana and targeting lines)."""
    spell_card = any(t in ("Instant", "Sorcery") for t in face.data.types)
    for r in face.lines:
        for layer, ok_layer in line_layers(r, spell_card).items():
            rep.layer_lines[layer] += 1
            rep.layer_lines_read[layer] += ok_layer
        if not r.structured:
            rep.unstructured[r.pattern] += 1
            rep.unstructured_examples.setdefault(r.pattern, face.data.name)
        rep.text_lines += 1
        rep.text_lines_understood += r.understood
        rep.templates_used[r.template] += 1
        rep.reader_errors += r.error is not None
        for u in r.unsupported:
            rep.unsupported[u.what] += 1
            rep.examples.setdefault(u.what, face.data.name)
        if is_mana_ability_line(r.clean):
            rep.mana_lines += 1
            rep.mana_lines_understood += mana_line_understood(r)
            if not mana_line_understood(r):
                rep.mana_unsupported[r.pattern] += 1
                rep.mana_examples.setdefault(r.pattern, face.data.name)
        if is_targeting_line(r.clean):
            rep.targeting_lines += 1
            rep.targeting_lines_understood += r.understood


def _count_card(rep: CoverageReport, raw: Mapping[str, Any], faces: list[FaceReading]) -> None:
    """The card figures of one card over all its faces: fully understood only when every face is."""
    lines = [(r, any(t in ("Instant", "Sorcery") for t in f.data.types)) for f in faces for r in f.lines]
    bad_cost = any(f.bad_cost for f in faces)
    rep.bad_mana_costs += bad_cost
    rep.cards += 1
    rep.multi_face_cards += len(faces) > 1
    rep.later_faces_read += len(faces) - 1
    game = str(raw.get("layout") or "normal") not in NON_GAME_LAYOUTS
    rep.game_cards += game
    ok = all(r.understood for r, _ in lines) and not bad_cost
    rep.fully_understood += ok
    rep.game_fully_understood += ok and game
    if not ok and not bad_cost and all(r.understood or r.template == "keywords" for r, _ in lines):
        rep.keyword_gap_cards += 1
    card_layers: dict[str, bool] = {}
    for r, spell_card in lines:
        for layer, ok_layer in line_layers(r, spell_card).items():
            card_layers[layer] = card_layers.get(layer, True) and ok_layer
    for layer, ok_layer in card_layers.items():
        rep.layer_cards[layer] += 1
        rep.layer_cards_read[layer] += ok_layer
    mana = [r for r, _ in lines if is_mana_ability_line(r.clean)]
    if mana:
        rep.mana_cards += 1
        rep.mana_cards_understood += all(mana_line_understood(r) for r in mana)
        rep.mana_production_cards += all(any(isinstance(p, (ManaAbility, TriggeredManaAbility)) for p in r.parts)
                                         for r in mana)
        gap = {mana_gap_reason(r.clean) for r in mana if not mana_line_understood(r)}
        if gap:
            rep.mana_gap[min(gap, key=_GAP_ORDER.index)] += 1
    targeting = [r for r, _ in lines if is_targeting_line(r.clean)]
    if targeting:
        rep.targeting_cards += 1
        rep.targeting_cards_understood += all(r.understood for r in targeting)
    rep.spells_with_targets += any(f.spell is not None and f.spell.targets for f in faces)


def measure(cards: Iterable[Mapping[str, Any]], source: str = "", top: int = 20) -> CoverageReport:
    """Coverage figures over MTGJSON-shaped card mappings, every face of a multi-face card read
    (:func:`card_faces`; each face counted once: an entry that is another card's back face is
    counted with that card, ``back_face_entries``)."""
    rep = CoverageReport(source=source, top=top)
    t0, c0 = time.perf_counter(), time.process_time()
    corpus = list(cards)
    faces_named = later_faces(corpus)
    own_entries = {str(raw.get("name") or "") for raw in corpus if not is_back_face_entry(raw, faces_named)}
    seen: set[str] = set()
    for raw in corpus:
        if is_back_face_entry(raw, faces_named):
            rep.back_face_entries += 1
            continue
        faces = card_faces(raw, own_entries, seen)
        for f in faces:
            if f.counted:
                _count_lines(rep, f)
        _count_card(rep, raw, faces)
    rep.seconds = time.perf_counter() - t0
    rep.cpu_seconds = time.process_time() - c0
    return rep


def coverage_report(src_path: str, top: int = 20) -> CoverageReport:
    """Coverage of the reader over the cards of an MTGJSON file (AtomicCards, a set
    file, AllPrintings, or a plain list of cards; ``.gz`` allowed)."""
    cards = load_cards(src_path)
    return measure(cards, source=str(src_path), top=top)

"""Real decklists and a seeded generator of mid-game situations from them (issue 15).

The corpus is ``benchmarks/decks/*.txt``: one real competitive decklist per
file (``4 Lightning Bolt`` lines; ``# name:``, ``# format:``, ``# source:``
and, for Commander, ``# commander:`` header lines). Card names are the card
database's Oracle names (multi-face cards by their full ``A // B`` name).

:func:`generate_situation` is a pure function of ``(deck_a, deck_b, seed)``:
it shuffles both decks with a generator seeded by the two deck names and the
seed, and builds a plausible mid-game position in the contract's format
``mtgsolve/1`` (contract §1): turn 2–8, lands on each battlefield according to
the turn (some tapped, CR 106/305), a few non-land permanents (creatures that
entered this turn are ``sick`` for the active player, CR 302.6), hands of 0–7
cards, graveyards, life totals 1–20, the library unlisted or its top cards
listed, sometimes one or two spells on the stack with legal-looking targets
(CR 601.2c; a counterspell over another spell), sometimes with priority held
by the non-active player (CR 117.3), sometimes in the declare attackers or
declare blockers step with attackers and blockers declared (CR 508.1, 509.1);
Sagas carry lore counters, planeswalkers loyalty, X/X creatures +1/+1
counters, Equipment is sometimes attached. Faces (issue 24; docs/situation-format.md
"Faces"), drawn from a generator of their own: a modal double-faced permanent
sometimes shows its back face (a land back face half the time, CR 712.12), a
transforming or flip card is sometimes transformed or flipped (701.28, 710.1),
daybound cards follow the day/night designation the board then has (702.145),
a split card on the stack is always one half (709.3), an adventurer card is
sometimes cast as its Adventure (715.3) and a modal double-faced card as its
spell back face, half the adventurer cards of a graveyard are in exile on an
adventure instead (715.3d), and a ``pay`` or ``targets`` query about a split
card names the half cast (``face``). Every object has an explicit, unique
``id``. The situation carries a list of queries (contract §2): ``actions``,
``targets`` / ``pay`` for cards in the priority player's hand,
``available_mana``, ``could_produce`` and ``resolve`` when the stack is not
empty.

Nothing here reads the solver's behaviour of a card: card types, mana costs and
text come from the Oracle data only, so the generator does not depend on what
the project can read.
"""
from __future__ import annotations

import random
import re
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any

DECKS_DIR = Path(__file__).resolve().parent / "decks"
PLAYERS = ("alice", "bob")
FORMAT = "mtgsolve/1"

_LINE = re.compile(r"^(\d+)\s+(.+?)\s*$")


@dataclass(frozen=True)
class Deck:
    """A parsed decklist: ``cards`` is ((count, name), …) in file order."""

    key: str  # file stem, e.g. ``modern_burn``
    name: str
    format: str
    source: str
    cards: tuple[tuple[int, str], ...]
    commander: str | None = None
    path: str = ""

    @property
    def size(self) -> int:
        return sum(n for n, _ in self.cards)

    def expanded(self) -> list[str]:
        """Every card of the deck, one entry per copy, in file order."""
        return [name for n, name in self.cards for _ in range(n)]


class DeckError(ValueError):
    """A deck file that cannot be parsed (the message names file and line)."""


def parse_deck(path: str | Path) -> Deck:
    """Parse one deck file. Raises :class:`DeckError` on a malformed line."""
    p = Path(path)
    headers: dict[str, str] = {}
    cards: list[tuple[int, str]] = []
    for i, raw in enumerate(p.read_text(encoding="utf-8").splitlines(), 1):
        line = raw.strip()
        if not line:
            continue
        if line.startswith("#"):
            m = re.match(r"#\s*([a-z_]+)\s*:\s*(.*)$", line)
            if m:
                headers[m.group(1)] = m.group(2).strip()
            continue
        m = _LINE.match(line)
        if not m or int(m.group(1)) <= 0:
            raise DeckError(f"{p.name}:{i}: expected '<count> <card name>', got {line!r}")
        cards.append((int(m.group(1)), m.group(2)))
    for h in ("format", "source"):
        if h not in headers:
            raise DeckError(f"{p.name}: missing '# {h}:' header")
    return Deck(key=p.stem, name=headers.get("name", p.stem), format=headers["format"],
                source=headers["source"], cards=tuple(cards), commander=headers.get("commander"),
                path=str(p))


def load_decks(directory: str | Path = DECKS_DIR) -> list[Deck]:
    """Every deck of the corpus, sorted by file name."""
    return [parse_deck(f) for f in sorted(Path(directory).glob("*.txt"))]


# ---------------------------------------------------------------------------
# Oracle facts the generator needs (types, mana value, targets in the text)
# ---------------------------------------------------------------------------

@dataclass(frozen=True)
class CardFacts:
    name: str
    types: frozenset[str]
    subtypes: frozenset[str]
    mana_cost: str
    mana_value: int
    text: str
    toughness: str | None = None
    loyalty: str | None = None

    @property
    def land(self) -> bool:
        return "Land" in self.types

    @property
    def permanent(self) -> bool:
        return bool(self.types & {"Land", "Creature", "Artifact", "Enchantment", "Planeswalker", "Battle"})

    @property
    def spell_kind(self) -> bool:
        return not self.land


def _mana_value(cost: str) -> int:
    total = 0
    for sym in re.findall(r"\{([^}]*)\}", cost or ""):
        if sym.isdigit():
            total += int(sym)
        elif sym in ("X", "Y", "Z"):
            continue
        elif "/" in sym and sym.split("/")[0].isdigit():
            total += int(sym.split("/")[0])
        else:
            total += 1
    return total


@lru_cache(maxsize=None)
def card_facts(name: str) -> CardFacts:
    """The Oracle facts of a card of the database (front face for multi-face cards)."""
    from mtgsolve.solver.cards import canonical_name, oracle_index

    canon = canonical_name(name)
    if canon is None:
        raise KeyError(f"unknown card {name!r}")
    d = oracle_index()[canon]
    cost = d.get("manaCost") or ""
    return CardFacts(name=canon, types=frozenset(d.get("types") or ()), subtypes=frozenset(d.get("subtypes") or ()),
                     mana_cost=cost, mana_value=_mana_value(cost), text=str(d.get("text") or ""),
                     toughness=None if d.get("toughness") is None else str(d.get("toughness")))


def _facts(d: Any, name: str) -> CardFacts:
    cost = d.get("manaCost") or ""
    return CardFacts(name=name, types=frozenset(d.get("types") or ()), subtypes=frozenset(d.get("subtypes") or ()),
                     mana_cost=cost, mana_value=_mana_value(cost), text=str(d.get("text") or ""),
                     toughness=None if d.get("toughness") is None else str(d.get("toughness")),
                     loyalty=None if d.get("loyalty") is None else str(d.get("loyalty")))


@lru_cache(maxsize=None)
def card_faces(name: str) -> tuple[str, tuple[str, ...]] | None:
    """``(layout, face names)`` of a multi-face card whose every face the card data holds
    (``solver/data/card-faces.json.gz``), front first; None otherwise."""
    from mtgsolve.solver.cards.faces import face_record

    rec = face_record(card_facts(name).name)
    return None if rec is None else (rec.layout, rec.names)


@lru_cache(maxsize=None)
def face_facts(name: str, face: str) -> CardFacts:
    """The Oracle facts of the face called ``face`` of the card ``name`` (CR 712.2: each face has
    its own characteristics)."""
    from mtgsolve.solver.cards.faces import face_record

    rec = face_record(card_facts(name).name)
    if rec is None:
        raise KeyError(f"{name!r} has no faces in the card data")
    return _facts(next(f for f in rec.faces if f["name"] == face), face)


def facts_of(o: dict) -> CardFacts:
    """The facts of a generated object: its face's when it records one (``face``), else its card's."""
    return face_facts(o["card"], o["face"]) if o.get("face") else card_facts(o["card"])


def _strip_reminders(text: str) -> str:
    text = re.sub(r"\([^)]*\)", "", text)
    return re.sub(r'"[^"]*"', '""', text)


_TARGET = re.compile(r"\btargets?\b", re.IGNORECASE)


def spell_target_kinds(facts: CardFacts) -> list[str] | None:
    """What each instance of the word "target" in a spell's own text asks for
    (CR 115.1, 601.2c), in printed order: ``creature``, ``creature_pw``,
    ``any``, ``player``, ``opponent``, ``permanent``, ``artifact``,
    ``enchantment``, ``land``, ``nonland``, ``spell``, ``gy_creature``,
    ``gy_card``. None when the text is not understood well enough to pick
    legal-looking targets (modal spells, unusual phrasing): such a spell is
    not put on the stack by the generator.

    Only an instant's or sorcery's text and an Aura's "Enchant" keyword are
    targets of the spell itself; triggered abilities of a permanent spell
    target on their own, later (CR 603.3d).
    """
    text = _strip_reminders(facts.text)
    if "Aura" in facts.subtypes:
        m = re.search(r"^Enchant (creature|permanent|artifact|land|player|creature or planeswalker)\b",
                      text, re.MULTILINE)
        if not m:
            return None
        return [{"creature": "creature", "permanent": "permanent", "artifact": "artifact", "land": "land",
                 "player": "player", "creature or planeswalker": "creature_pw"}[m.group(1)]]
    if not facts.types & {"Instant", "Sorcery"}:
        return []
    if re.search(r"choose (one|two|three|any number|one or more)", text, re.IGNORECASE):
        return None
    kinds: list[str] = []
    for m in _TARGET.finditer(text):
        before = text[max(0, m.start() - 12):m.start()].lower()
        after = text[m.end():m.end() + 60].lower()
        if m.group(0).lower() == "targets":
            continue  # "… that targets …", "… it targets …": not a choice of target
        if before.endswith("any "):
            kinds.append("any")
        elif after.startswith(" creature or planeswalker"):
            kinds.append("creature_pw")
        elif after.startswith(" player or planeswalker"):
            kinds.append("player")
        elif re.match(r" (creature|instant or sorcery|artifact|permanent)? ?card (from|in) (your|a|an opponent's) graveyard",
                      after):
            kinds.append("gy_creature" if after.startswith(" creature card") else "gy_card")
        elif after.startswith((" creature", " attacking creature", " blocking creature", " tapped creature",
                               " untapped creature")):
            kinds.append("creature")
        elif re.match(r" (noncreature |instant or sorcery |creature |activated or triggered ability|"
                      r"instant |sorcery )?spell", after):
            if "ability" in after[:40] and "spell" not in after[:12]:
                return None
            kinds.append("spell")
        elif after.startswith(" opponent"):
            kinds.append("opponent")
        elif after.startswith(" player"):
            kinds.append("player")
        elif after.startswith((" nonland permanent", " nonland, nontoken permanent")):
            kinds.append("nonland")
        elif after.startswith(" artifact or enchantment"):
            kinds.append("permanent")
        elif after.startswith(" artifact"):
            kinds.append("artifact")
        elif after.startswith(" enchantment"):
            kinds.append("enchantment")
        elif after.startswith((" land", " nonbasic land")):
            kinds.append("land")
        elif after.startswith(" permanent"):
            kinds.append("permanent")
        else:
            return None
    return kinds


# ---------------------------------------------------------------------------
# The generator
# ---------------------------------------------------------------------------

STEPS = (("main1", 40), ("main2", 10), ("upkeep", 9), ("draw", 4), ("beginning_of_combat", 8),
         ("declare_attackers", 7), ("declare_blockers", 6), ("end_of_combat", 3), ("end", 13))


def _weighted(rng: random.Random, items: tuple[tuple[str, int], ...]) -> str:
    return rng.choices([k for k, _ in items], weights=[w for _, w in items], k=1)[0]


class _Ids:
    """Explicit unique ids (contract §1 shape: slug of the card name, numbered)."""

    def __init__(self) -> None:
        from mtgsolve.solver.io.load import object_id_base

        self._base = object_id_base
        self._used: set[str] = set(PLAYERS)

    def new(self, name: str) -> str:
        base = self._base(name)
        oid, k = base, 1
        while oid in self._used:
            k += 1
            oid = f"{base}-{k}"
        self._used.add(oid)
        return oid


def _obj(oid: str, name: str, **status: Any) -> dict:
    d: dict[str, Any] = {"card": name, "id": oid}
    d.update({k: v for k, v in status.items() if v})
    return d


def generate_situation(deck_a: Deck, deck_b: Deck, seed: int, faces: bool = True) -> dict:
    """A mid-game situation (contract §1, format ``mtgsolve/1``) between
    ``deck_a`` (player ``alice``) and ``deck_b`` (player ``bob``), with its
    queries. Pure: the same arguments give an identical dict. ``faces=False``:
    every object front face up and no object on an adventure, the boards the
    generator made before issue 24 (only a split card on the stack, which must
    now name its half, would not load)."""
    rng = random.Random(f"realdecks|{deck_a.key}|{deck_b.key}|{seed}")
    ids = _Ids()
    turn = rng.randint(2, 8)
    active = rng.choice(PLAYERS)
    other = PLAYERS[1 - PLAYERS.index(active)]
    step = _weighted(rng, STEPS)
    decks = {"alice": deck_a, "bob": deck_b}

    battlefield: dict[str, list[dict]] = {p: [] for p in PLAYERS}
    hand: dict[str, list[dict]] = {p: [] for p in PLAYERS}
    graveyard: dict[str, list[dict]] = {p: [] for p in PLAYERS}
    library: dict[str, list[dict]] = {p: [] for p in PLAYERS}
    command: dict[str, list[dict]] = {p: [] for p in PLAYERS}
    rest: dict[str, list[str]] = {}
    players = []
    for p in PLAYERS:
        deck = decks[p]
        cards = deck.expanded()
        if deck.commander and deck.commander in cards:
            cards.remove(deck.commander)
        rng.shuffle(cards)
        own_turns = turn if p == active else max(1, turn - rng.randint(0, 1))
        lands = [c for c in cards if card_facts(c).land]
        spells = [c for c in cards if not card_facts(c).land]
        n_lands = min(len(lands), max(1, own_turns - rng.choice((0, 0, 0, 1, 1, 2))))
        my_lands = lands[:n_lands]
        # Lands on the battlefield; some tapped (mana spent this turn, or on the previous turn and
        # not yet untapped for the non-active player, CR 502.3).
        tap_share = rng.choice((0.0, 0.0, 0.25, 0.5, 0.8)) if p == active else rng.choice((0.0, 0.25, 0.5))
        for name in my_lands:
            lore = {"lore": rng.randint(1, 2)} if "Saga" in card_facts(name).subtypes else None  # CR 714.3a
            battlefield[p].append(_obj(ids.new(name), name, tapped=rng.random() < tap_share, counters=lore))
        # Non-land permanents that fit the mana available so far.
        permanents = [c for c in spells if card_facts(c).permanent and card_facts(c).mana_value <= n_lands
                      and "Aura" not in card_facts(c).subtypes]
        n_perm = min(len(permanents), rng.choice((0, 1, 1, 2, 2, 3, 4)))
        placed = permanents[:n_perm]
        creatures: list[str] = []
        for name in sorted(placed, key=lambda c: "Equipment" in card_facts(c).subtypes):
            f = card_facts(name)
            oid = ids.new(name)
            sick = p == active and "Creature" in f.types and rng.random() < 0.3
            tapped = "Creature" in f.types and not sick and rng.random() < 0.15
            counters = None
            if "Planeswalker" in f.types:  # CR 306.5b: loyalty counters; a few turns of use
                counters = {"loyalty": max(1, f.mana_value // 2 + rng.randint(0, 3))}
            elif "Saga" in f.subtypes:  # CR 714.3a: lore counters, chapter I or II reached
                counters = {"lore": rng.randint(1, 2)}
            elif "Creature" in f.types and f.toughness in ("0", "*") and "+1/+1 counter" in f.text:
                counters = {"+1/+1": rng.randint(1, 3)}  # X/X or 0/0 creatures that enter with counters
            attached = None
            if "Equipment" in f.subtypes and creatures and rng.random() < 0.6:
                attached = rng.choice(creatures)  # CR 301.5c: attached to a creature its controller controls
            battlefield[p].append(_obj(oid, name, sick=sick, tapped=tapped, counters=counters,
                                       attached_to=attached))
            if "Creature" in f.types:
                creatures.append(oid)
        remaining = spells[n_perm:] + lands[n_lands:]
        rng.shuffle(remaining)
        # Graveyard: spells cast and cards used so far.
        n_gy = min(len(remaining), rng.randint(0, min(8, turn + 1)))
        gy, remaining = remaining[:n_gy], remaining[n_gy:]
        for name in gy:
            graveyard[p].append(_obj(ids.new(name), name))
        n_hand = min(len(remaining), rng.randint(0, 7))
        hnd, remaining = remaining[:n_hand], remaining[n_hand:]
        for name in hnd:
            hand[p].append(_obj(ids.new(name), name))
        rest[p] = remaining
        if rng.random() < 0.35 and remaining:
            for name in remaining[:rng.randint(1, 3)]:
                library[p].append(_obj(ids.new(name), name))
        if deck.commander:
            command[p].append(_obj(ids.new(deck.commander), deck.commander, commander=True))  # CR 903.3
        players.append({"id": p, "life": rng.randint(1, 20)})

    # Faces (issue 24), drawn from their own generator: which face each permanent shows (a modal
    # double-faced card played or cast as its back face, a transforming card transformed, a flip card
    # flipped, daybound cards as day or night has them), adventurer cards in exile on an adventure.
    frng = random.Random(f"realdecks-faces|{deck_a.key}|{deck_b.key}|{seed}") if faces else None
    day_night: str | None = None
    exile: dict[str, list[dict]] = {}
    if frng is not None:
        day_night = _battlefield_faces(frng, battlefield)
        exile = _exile_adventurers(frng, graveyard)

    if step in ("declare_attackers", "declare_blockers"):
        if not _declare_combat(rng, battlefield, active, other, blocks=step == "declare_blockers"):
            step = "beginning_of_combat"  # no creature could attack: CR 508.8 skips the combat damage steps

    # The stack: sometimes a spell (and a response to it), cast from the rest of a library.
    stack: list[dict] = []
    if rng.random() < 0.3:
        stack = _make_stack(rng, ids, active, other, rest, battlefield, graveyard, step, frng)
    priority = active
    if stack:
        priority = rng.choice(PLAYERS)
    elif rng.random() < 0.2:
        priority = other
    turn_d: dict[str, Any] = {"number": turn, "active": active, "step": step}
    if priority != active:
        turn_d["priority"] = priority
    if step in ("main1", "main2", "beginning_of_combat", "end", "end_of_combat"):
        turn_d["lands_played"] = rng.choice((0, 1)) if step != "main1" else rng.choice((0, 0, 1))

    # Life lost this turn (CR 119.3; the situation key ``life_lost_this_turn``): a live game always knows
    # it, and spectacle reads it (CR 702.137a). Drawn from its own generator so the rest of the board is
    # the same as before the key was recorded.
    lost = random.Random(f"realdecks-life|{deck_a.key}|{deck_b.key}|{seed}")
    for pl in players:
        pl["life_lost_this_turn"] = 0 if lost.random() < 0.6 or turn_d["step"] in ("untap", "upkeep") \
            else lost.randint(1, 5)

    sit: dict[str, Any] = {
        "format": FORMAT,
        "name": f"{deck_a.name} vs {deck_b.name}, seed {seed}",
        "description": f"generated by benchmarks.realdecks from {deck_a.key} and {deck_b.key} (seed {seed})",
        "players": players,
        "turn": turn_d,
    }
    if day_night is not None:
        sit["day_night"] = day_night  # CR 730.1: a daybound permanent means it is day or night
    for zone, content in (("battlefield", battlefield), ("hand", hand), ("graveyard", graveyard),
                          ("exile", exile), ("library", library), ("command", command)):
        z = {p: objs for p, objs in content.items() if objs}
        if z:
            sit[zone] = z
    if stack:
        sit["stack"] = stack
    sit["query"] = _queries(rng, sit, priority)
    if frng is not None:
        _query_faces(frng, sit)
    # Passing (contract §2.10): the other player has already passed in half the boards, so passing
    # resolves the top of the stack or ends the step (CR 117.4); otherwise it only moves priority
    # (CR 117.3d). Drawn from its own generator: the rest of the board and its queries are unchanged.
    passes = random.Random(f"realdecks-pass|{deck_a.key}|{deck_b.key}|{seed}")
    if passes.random() < 0.5 and turn_d["step"] not in ("untap", "cleanup"):
        turn_d["passed"] = [PLAYERS[1 - PLAYERS.index(priority)]]
    sit["query"].append({"kind": "pass"})
    return sit


# ---------------------------------------------------------------------------
# Faces (issue 24): what face each object shows, as a real game has them
# ---------------------------------------------------------------------------

_DAYBOUND = re.compile(r"^(?:Daybound|Nightbound)\b", re.MULTILINE)


def _daybound(name: str) -> bool:
    return bool(_DAYBOUND.search(_strip_reminders(card_facts(name).text)))


def _battlefield_faces(frng: random.Random, battlefield: dict[str, list[dict]]) -> str | None:
    """Turn some permanents to another face (:func:`_permanent_face`); the day/night designation
    when a daybound permanent is out (CR 730.1, 702.145: it becomes day; night falls later, and at
    night daybound permanents are nightbound, their back face up). Returns the designation."""
    objs = [o for p in PLAYERS for o in battlefield[p]]
    day_night = frng.choice(("day", "night")) if any(_daybound(o["card"]) for o in objs) else None
    attached = {o.get("attached_to") for o in objs if o.get("attached_to")}
    for o in objs:
        face = _permanent_face(frng, o, day_night, attached)
        if face is not None:
            _show_face(o, face)
    return day_night


def _permanent_face(frng: random.Random, o: dict, day_night: str | None, attached: set) -> str | None:
    """The face a permanent shows other than its front, or None: a Pathway either face and a modal
    double-faced card with a land back face played as that land, half the time (CR 712.12); another
    modal double-faced card cast as its back face now and then (712.11b); a transforming card
    transformed a third of the time (701.28; a daybound one exactly when it is night, 702.145); a flip
    card flipped (710.1). A creature something is attached to stays a creature."""
    faces = card_faces(o["card"])
    if faces is None or len(faces[1]) < 2:
        return None
    layout, back_name = faces[0], faces[1][1]
    back = face_facts(o["card"], back_name)
    if o["id"] in attached and "Creature" not in back.types:
        return None
    if layout == "modal_dfc":
        share = 0.5 if back.land else 0.25
    elif layout == "transform":
        if _daybound(o["card"]):
            return back_name if day_night == "night" else None
        share = 0.33
    elif layout == "flip":
        share = 0.33
    else:
        return None                     # meld needs both cards; an adventurer permanent is the creature
    return back_name if frng.random() < share else None


def _show_face(o: dict, face: str) -> None:
    """Record ``face`` on the object, with the counters that face's permanent has: no lore counters
    off a Saga (CR 714), a planeswalker face's loyalty (306.5b), no +1/+1 counters from its front."""
    f = face_facts(o["card"], face)
    o["face"] = face
    counters = dict(o.get("counters") or {})
    if "Saga" not in f.subtypes:
        counters.pop("lore", None)
    if "Creature" not in f.types:
        counters.pop("+1/+1", None)
    if "Planeswalker" in f.types and f.loyalty and f.loyalty.isdigit():
        counters["loyalty"] = int(f.loyalty)
    if counters:
        o["counters"] = counters
    else:
        o.pop("counters", None)
    if "Creature" not in f.types:
        for k in ("sick", "attacking", "blocking", "blocked"):
            o.pop(k, None)


def _exile_adventurers(frng: random.Random, graveyard: dict[str, list[dict]]) -> dict[str, list[dict]]:
    """Half the adventurer cards of the graveyards were cast as their Adventure and are in exile
    on an adventure instead (CR 715.3d): moved there with ``on_adventure``."""
    exile: dict[str, list[dict]] = {p: [] for p in PLAYERS}
    for p in PLAYERS:
        for o in list(graveyard[p]):
            faces = card_faces(o["card"])
            if faces is not None and faces[0] == "adventure" and frng.random() < 0.5:
                graveyard[p].remove(o)
                exile[p].append({**o, "on_adventure": True})
    return exile


def _cast_face(frng: random.Random, name: str) -> str | None:
    """The face a spell is cast as, or None for its front: a split card always one half (CR 709.3;
    an aftermath card from the hand its first, 702.127), an adventurer card its Adventure half the time
    (715.3), a modal double-faced card with a spell back face that face a third of the time (712.11b)."""
    faces = card_faces(name)
    if faces is None:
        return None
    layout, names = faces
    if layout == "split":
        return frng.choice(names)
    if layout == "aftermath":
        return names[0]
    if layout == "adventure" and frng.random() < 0.5:
        return names[1]
    if layout == "modal_dfc" and not face_facts(name, names[1]).land and frng.random() < 0.33:
        return names[1]
    return None


def _query_faces(frng: random.Random, sit: dict) -> None:
    """A ``pay`` or ``targets`` query about a split card names the half cast (CR 709.3: a split card
    is cast as one of its halves); one about an adventurer card or a modal double-faced card names
    the Adventure or a spell back face as :func:`_cast_face` picks."""
    objs = {o["id"]: o for zone in ("hand",) for objs in sit.get(zone, {}).values() for o in objs}
    for q in sit["query"]:
        o = objs.get(q.get("cast")) if q["kind"] in ("pay", "targets") else None
        if o is not None:
            face = _cast_face(frng, o["card"])
            if face is not None and card_faces(o["card"]) is not None and card_faces(o["card"])[0] != "aftermath":
                q["face"] = face


def _keyword_line(text: str, word: str) -> bool:
    return bool(re.search(rf"^(?:[A-Za-z ,]*, )?{word}\b", _strip_reminders(text), re.MULTILINE | re.IGNORECASE))


def _declare_combat(rng: random.Random, battlefield: dict[str, list[dict]], active: str, other: str,
                    *, blocks: bool) -> bool:
    """Some of the active player's creatures attack the other player (CR 508.1: untapped, not sick;
    attacking taps them unless they have vigilance, 508.1f); in the declare blockers step, some of
    the defending player's untapped creatures block one attacker each (509.1a; not a creature with
    flying unless the blocker has flying or reach, 702.9b). False when nothing can attack."""
    able = [o for o in battlefield[active] if "Creature" in facts_of(o).types
            and not o.get("tapped") and not o.get("sick")]
    if not able:
        return False
    attackers = [o for o in able if rng.random() < 0.7] or [able[0]]
    for o in attackers:
        o["attacking"] = other
        if not _keyword_line(facts_of(o).text, "vigilance"):
            o["tapped"] = True
    if blocks:
        for b in battlefield[other]:
            f = facts_of(b)
            if "Creature" not in f.types or b.get("tapped") or rng.random() < 0.4:
                continue
            reach = _keyword_line(f.text, "flying") or _keyword_line(f.text, "reach")
            options = [a for a in attackers
                       if reach or not _keyword_line(facts_of(a).text, "flying")]
            if options:
                a = rng.choice(options)
                b["blocking"] = [a["id"]]
                a["blocked"] = True
    return True


def _candidates(kind: str, caster: str, battlefield: dict[str, list[dict]], graveyard: dict[str, list[dict]],
                below: list[dict]) -> list[str]:
    opp = PLAYERS[1 - PLAYERS.index(caster)]
    out: list[str] = []

    def perms(pred) -> list[str]:
        return [o["id"] for p in PLAYERS for o in battlefield[p] if pred(facts_of(o))]

    if kind == "creature":
        out = perms(lambda f: "Creature" in f.types)
    elif kind == "creature_pw":
        out = perms(lambda f: bool(f.types & {"Creature", "Planeswalker"}))
    elif kind == "any":
        out = perms(lambda f: bool(f.types & {"Creature", "Planeswalker", "Battle"})) + list(PLAYERS)
    elif kind == "player":
        out = list(PLAYERS)
    elif kind == "opponent":
        out = [opp]
    elif kind == "permanent":
        out = perms(lambda f: True)
    elif kind == "nonland":
        out = perms(lambda f: not f.land)
    elif kind in ("artifact", "enchantment", "land"):
        out = perms(lambda f: kind.capitalize() in f.types)
    elif kind == "spell":
        out = [o["id"] for o in below if "card" in o]
    elif kind == "gy_creature":
        out = [o["id"] for o in graveyard[caster] if "Creature" in card_facts(o["card"]).types]
    elif kind == "gy_card":
        out = [o["id"] for p in PLAYERS for o in graveyard[p]]
    return out


def _spell_object(rng: random.Random, ids: _Ids, caster: str, pool: list[str], battlefield, graveyard,
                  below: list[dict], *, instant_only: bool, want_spell_target: bool = False,
                  frng: random.Random | None = None) -> dict | None:
    """A spell from ``pool`` with legal-looking targets, or None; cast as the face ``frng`` picks
    (:func:`_cast_face`: a split card's half, sometimes an Adventure or a modal double-faced card's
    back face), judged by that face's characteristics (CR 709.3b, 715.3b, 712.11b)."""
    names = sorted(set(pool))
    rng.shuffle(names)
    for name in names:
        face = _cast_face(frng, name) if frng is not None else None
        f = face_facts(name, face) if face else card_facts(name)
        if f.land:
            continue
        if instant_only and "Instant" not in f.types and not re.search(r"^Flash\b", f.text, re.MULTILINE):
            continue
        kinds = spell_target_kinds(f)
        if kinds is None or (want_spell_target and "spell" not in kinds):
            continue
        targets: list[list[str]] = []
        for k in kinds:
            cands = _candidates(k, caster, battlefield, graveyard, below)
            if not cands:
                break
            targets.append([rng.choice(sorted(cands))])
        else:
            d: dict[str, Any] = {"card": name, "id": ids.new(name), "controller": caster}
            if face:
                d["face"] = face
            if targets:
                d["targets"] = targets
            if "{X}" in f.mana_cost:
                d["x"] = rng.randint(0, 3)
            return d
    return None


def _make_stack(rng: random.Random, ids: _Ids, active: str, other: str, rest: dict[str, list[str]],
                battlefield, graveyard, step: str, frng: random.Random | None = None) -> list[dict]:
    """One spell, or a spell and a response targeting it (stack listed top first)."""
    main = step in ("main1", "main2")
    caster = active if (main and rng.random() < 0.7) else rng.choice(PLAYERS)
    bottom = _spell_object(rng, ids, caster, rest[caster][:25], battlefield, graveyard, [],
                           instant_only=not (main and caster == active), frng=frng)
    if bottom is None:
        return []
    stack = [bottom]
    if rng.random() < 0.35:
        responder = PLAYERS[1 - PLAYERS.index(caster)]
        top = _spell_object(rng, ids, responder, rest[responder][:30], battlefield, graveyard, stack,
                            instant_only=True, want_spell_target=rng.random() < 0.6, frng=frng)
        if top is not None:
            stack.insert(0, top)
    return stack


def _queries(rng: random.Random, sit: dict, priority: str) -> list[dict]:
    """The queries asked of a situation (contract §2)."""
    qs: list[dict] = [{"kind": "actions"}]
    hand = sit.get("hand", {}).get(priority, [])
    with_cost = [o for o in hand if card_facts(o["card"]).mana_cost]
    for o in rng.sample(with_cost, k=min(3, len(with_cost))):
        qs.append({"kind": "pay", "cast": o["id"]})
    # Spells that target as they are cast (instants, sorceries, Auras: CR 601.2c); a permanent spell whose
    # text says "target" only in its abilities has no targets of its own (asked rarely, as a control).
    spell_targeting = [o for o in hand if (card_facts(o["card"]).types & {"Instant", "Sorcery"}
                                           or "Aura" in card_facts(o["card"]).subtypes)
                       and _TARGET.search(_strip_reminders(card_facts(o["card"]).text))]
    other_targeting = [o for o in hand if not card_facts(o["card"]).land and o not in spell_targeting
                       and _TARGET.search(_strip_reminders(card_facts(o["card"]).text))]
    targeting = spell_targeting or (other_targeting if rng.random() < 0.25 else [])
    for o in rng.sample(targeting, k=min(2, len(targeting))):
        qs.append({"kind": "targets", "cast": o["id"]})
    qs.append({"kind": "available_mana", "player": priority})
    if rng.random() < 0.5:
        qs.append({"kind": "available_mana", "player": PLAYERS[1 - PLAYERS.index(priority)]})
    qs.append({"kind": "could_produce"})
    if sit.get("stack"):
        qs.append({"kind": "resolve"})
    return qs


def deck_pairs(decks: list[Deck], n: int, seed: int) -> list[tuple[Deck, Deck, int]]:
    """``n`` (deck_a, deck_b, board seed) triples, deterministic in ``seed``:
    every deck plays in turn, against a random opponent."""
    rng = random.Random(f"realdecks-pairs|{seed}")
    out = []
    for i in range(n):
        a = decks[i % len(decks)]
        b = rng.choice([d for d in decks if d.key != a.key] or decks)
        out.append((a, b, rng.randrange(1 << 30)))
    return out


def generate_boards(n: int, seed: int = 0, decks: list[Deck] | None = None, faces: bool = True) -> list[dict]:
    """``n`` generated situations (deterministic in ``seed``; ``faces``: see :func:`generate_situation`)."""
    decks = load_decks() if decks is None else decks
    return [generate_situation(a, b, s, faces) for a, b, s in deck_pairs(decks, n, seed)]

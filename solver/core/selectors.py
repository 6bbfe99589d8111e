"""Selections, the vocabulary every ability shares (no rules in it): :class:`Selector` (a set of
objects or players relative to an ability's controller), :class:`Filter` (a targeting criterion,
CR 115), :class:`TargetSpec` (one target instance, CR 115.1), :class:`Ref` (what an effect points
at), :class:`Count` (a counted amount, CR 107.3). Every name is re-exported by :mod:`solver.core.ir`;
the IR's families (statics, conditions, production) build on this module, below them all.
"""
from __future__ import annotations

from dataclasses import dataclass, field, fields, is_dataclass, replace
from typing import Any, ClassVar, Union

ANY_TARGET_TYPES = frozenset({"Creature", "Planeswalker", "Battle"})  # CR 115.4


@dataclass(frozen=True)
class Selector:
    """A set of permanents (or players) described relative to a controller.

    ``who``: ``any`` | ``you`` | ``opponent`` — whose permanents (relative to the
    controller of the ability/effect). ``types`` are card types the object must
    have (all of them; empty: any permanent). ``subtypes`` likewise (any of).
    ``nonbasic``/``basic``: supertype conditions; ``self_only`` means the
    source itself; ``attached`` means the object the source is attached to.
    ``exclude_self`` drops the source ("another", "other"). ``attacking``: only
    attacking creatures (CR 506.4; the object key ``attacking``).
    """

    who: str = "any"
    types: frozenset[str] = frozenset()
    subtypes: frozenset[str] = frozenset()
    nonbasic: bool = False
    basic: bool = False
    self_only: bool = False
    attached: bool = False
    exclude_self: bool = False
    nontypes: frozenset[str] = frozenset()
    attacking: bool = False

    def describe(self) -> str:
        if self.self_only:
            return "this permanent"
        if self.attached:
            return "enchanted " + (" ".join(sorted(self.types)).lower() or "permanent")
        words = []
        if self.exclude_self:
            words.append("other")
        if self.basic:
            words.append("basic")
        if self.nonbasic:
            words.append("nonbasic")
        if self.attacking:
            words.append("attacking")
        words.extend("non" + t.lower() for t in sorted(self.nontypes))
        words.extend(sorted(self.subtypes))
        words.append("/".join(sorted(t.lower() for t in self.types)) or "permanent")
        s = " ".join(words) + "s"
        if self.who == "you":
            s += " you control"
        elif self.who == "opponent":
            s += " an opponent controls"
        return s


LANDS_YOU_CONTROL = Selector(who="you", types=frozenset({"Land"}))
LANDS_OPP_CONTROLS = Selector(who="opponent", types=frozenset({"Land"}))


@dataclass(frozen=True)
class Filter:
    """A targeting criterion (CR 115.1, 115.2, 115.4).

    ``types``: card types accepted (any of); the pseudo-type ``Permanent``
    accepts any permanent. ``players``: players are accepted too.
    ``who``: ``any`` | ``you`` | ``opponent`` — controller of the object (owner for
    cards in a graveyard) or, for players, which players. ``not_colors``:
    colors the object must not have ("nonblack"). ``mv_max``: mana value at
    most. ``zone``: ``battlefield`` or ``graveyard`` (objects outside the
    battlefield are legal only where the text says so, CR 115.2).
    ``subtypes``: subtypes required (any of).

    Spells named by a mana spending restriction (:class:`SpendRestriction`,
    CR 106.6) also use ``nontypes`` (none of these card types: "noncreature"),
    ``supertypes`` (all of these: "legendary"), ``colorless`` and
    ``multicolored`` (CR 105.2b–c); there ``types`` may be empty (any type) and
    ``zone`` is ``stack``. Targeting uses them too (the reader's target
    descriptions: "target noncreature spell", "target legendary creature",
    "target multicolored permanent", "target red creature" through ``colors``,
    "target creature with mana value 3 or greater" through ``mv_min``), with the
    further targeting qualifiers below (``tapped`` … ``other_than_source``),
    all matched by :func:`solver.rules.targeting.object_matches`.

    Further spell descriptions of spending restrictions (CR 106.6; never set by
    targeting): ``mv_min`` (mana value at least: "with mana value 4 or
    greater", CR 202.3); ``has_x`` ("spells with {X} in their mana costs",
    CR 107.3); ``from_zones`` / ``not_from_zones`` (the zone the spell is cast
    from, CR 601.2a: ``hand``/``graveyard`` mean the caster's own, ``exile``
    any; "spells from your graveyard", "can't be spent to cast spells from
    your hand"); ``chosen_type`` ("of the chosen type": the source's chosen
    creature type, object key ``chosen: {type: …}``, CR 205.3m — bound to
    ``subtypes`` when the ability is activated; unbound, nothing matches);
    ``colors`` (all of these colors: "black creature cards", for counts);
    ``not_owned`` ("spells you don't own": the caster isn't the card's owner).
    """

    types: frozenset[str] = frozenset()
    players: bool = False
    who: str = "any"
    not_colors: frozenset[str] = frozenset()
    mv_max: int | None = None
    zone: str = "battlefield"
    subtypes: frozenset[str] = frozenset()
    nontypes: frozenset[str] = frozenset()
    supertypes: frozenset[str] = frozenset()
    colorless: bool = False
    multicolored: bool = False
    mv_min: int | None = None
    has_x: bool = False
    from_zones: frozenset[str] = frozenset()
    not_from_zones: frozenset[str] = frozenset()
    chosen_type: bool = False
    colors: frozenset[str] = frozenset()
    not_owned: bool = False
    # Targeting qualifiers read by the Oracle reader (CR 115.1; each defaults to "no condition"):
    tapped: bool | None = None              # "tapped" / "untapped" (CR 110.5)
    combat: frozenset[str] = frozenset()    # any of "attacking", "blocking" (CR 506.4)
    power_min: int | None = None            # "with power N or greater"
    power_max: int | None = None            # "with power N or less"
    toughness_min: int | None = None
    toughness_max: int | None = None
    token: bool | None = None               # "token" / "nontoken" (CR 111)
    not_supertypes: frozenset[str] = frozenset()  # "nonlegendary", "nonbasic" (CR 205.4)
    keywords: frozenset[str] = frozenset()  # "with flying": has all of these keywords (CR 702)
    not_keywords: frozenset[str] = frozenset()  # "without flying"
    other_than_source: bool = False         # "another target …" of a permanent's ability: not its source
    total_pt_max: int | None = None         # "with total power and toughness N or less" (CR 208)
    not_subtypes: frozenset[str] = frozenset()  # "non-Human": none of these subtypes (CR 205.3)
    monocolored: bool = False               # "monocolored": exactly one color (CR 105.2c)
    # every one of these card types too ("artifact creature", "artifact land card": a noun of two card
    # types, both required, CR 205.2a); ``types`` then holds the noun's last type
    types_all: frozenset[str] = frozenset()
    # controlled by a player the ability names elsewhere ("defending player", "that player", "target
    # opponent"): read only in structures of unread abilities (reader/skeleton.py), never in a modeled one
    controller_ref: str = ""
    # a further description the filter's fields don't hold ("that was dealt damage this turn", "with a
    # +1/+1 counter on it"), as printed: likewise only in structures of unread abilities
    condition: str = ""

    def fits_types(self, types: frozenset[str] | set[str]) -> bool:
        """The card types part of the filter: any of ``types`` (none listed: any), every one of
        ``types_all``, none of ``nontypes``."""
        return (not self.types or bool(self.types & types)) and self.types_all <= types \
            and not (self.nontypes & types)

    @property
    def is_any_target(self) -> bool:
        return self.players and self.types == ANY_TARGET_TYPES and self.who == "any"

    def describe(self) -> str:
        if self.is_any_target:
            return "any target"
        parts = []
        if self.types:
            words: list[str] = []
            words.extend("non" + {"W": "white", "U": "blue", "B": "black", "R": "red", "G": "green"}[c] for c in sorted(self.not_colors))
            if self.zone != "stack":
                words.extend("non" + t.lower() for t in sorted(self.nontypes))
            words.extend(sorted(self.subtypes))
            if self.zone == "stack":
                words.extend("non" + t.lower() for t in sorted(self.nontypes))
                words.append(" or ".join(sorted(t.lower() for t in self.types if t != "Spell")))
                words.append("spell")
                words = [w for w in words if w]
            elif self.types_all:
                words.append(" ".join(t.lower() for t in sorted(self.types_all - self.types) + sorted(self.types)))
            elif self.types != CARD_TYPES:
                words.append(" or ".join(sorted(t.lower() for t in self.types)))
            if self.zone == "graveyard":
                words.append("card")
            if self.mv_max is not None and self.mv_max == self.mv_min:
                words.append(f"with mana value {self.mv_max}")   # "with mana value 1" (CR 202.3)
            elif self.mv_max is not None:
                words.append(f"with mana value {self.mv_max} or less")
            words.extend(_filter_qualifier_words(self))
            if self.zone == "graveyard":
                words.append({"you": "from your graveyard", "opponent": "from an opponent's graveyard"}.get(
                    self.who, "from a graveyard"))
            elif self.who == "you":
                words.append("you control")
            elif self.who == "opponent":
                words.append("an opponent controls")
            if self.controller_ref:
                words.append(f"{self.controller_ref} controls")
            if self.condition:
                words.append(self.condition)
            parts.append(" ".join(words))
        if self.players:
            parts.append({"any": "player", "you": "you", "opponent": "opponent"}[self.who])
        return " or ".join(parts)


def _filter_qualifier_words(f: "Filter") -> list[str]:
    """The targeting qualifiers of a filter (tapped, attacking, power, …) as words."""
    w: list[str] = []
    if f.other_than_source:
        w.append("other than this object")
    if f.tapped is not None:
        w.append("tapped" if f.tapped else "untapped")
    if f.combat:
        w.append(" or ".join(sorted(f.combat)))
    if f.token is not None:
        w.append("token" if f.token else "nontoken")
    if f.not_supertypes:
        w.append(" ".join("non" + t.lower() for t in sorted(f.not_supertypes)))
    if f.zone != "stack":
        if f.colors:
            w.append("/".join(sorted(f.colors)))
        if f.multicolored:
            w.append("multicolored")
        if f.monocolored:
            w.append("monocolored")
        if f.not_subtypes:
            w.append(" ".join("non-" + t for t in sorted(f.not_subtypes)))
        if f.colorless:
            w.append("colorless")
        if f.supertypes:
            w.append(" ".join(t.lower() for t in sorted(f.supertypes)))
    if f.mv_min is not None and f.mv_min != f.mv_max and (f.zone != "stack" or f.types != frozenset()):
        w.append(f"with mana value {f.mv_min} or greater")
    for name, lo, hi in (("power", f.power_min, f.power_max), ("toughness", f.toughness_min, f.toughness_max)):
        if lo is not None:
            w.append(f"with {name} {lo} or greater")
        if hi is not None:
            w.append(f"with {name} {hi} or less")
    if f.total_pt_max is not None:
        w.append(f"with total power and toughness {f.total_pt_max} or less")
    if f.keywords:
        w.append("with " + " and ".join(sorted(f.keywords)))
    if f.not_keywords:
        w.append("without " + " or ".join(sorted(f.not_keywords)))
    return w


ANY_TARGET = Filter(types=ANY_TARGET_TYPES, players=True)
CARD_TYPES = frozenset({"Artifact", "Battle", "Creature", "Enchantment", "Instant", "Kindred", "Land",
                        "Planeswalker", "Sorcery"})  # CR 300.1: a card of any type


#: ``TargetSpec.max`` of "any number of target …" (CR 601.2c: as many as the player chooses; a slot's cap is
#: its number of candidates, :attr:`models.targets.Slot.cap`).
ANY_NUMBER = 1 << 20


@dataclass(frozen=True)
class TargetSpec:
    """One instance of the word "target" (CR 115.1, 115.3, 601.2c).

    ``min``/``max``: how many targets this instance takes ("up to two": 0..2,
    CR 115.6). ``distinct_from``: indices of earlier instances whose chosen
    objects this one may not repeat ("any other target", "another target").
    ``divided``: an amount (damage, counters) is divided as the controller
    chooses among the chosen targets ("divided as you choose among one or two
    targets", CR 601.2d: each target gets at least one, so ``min`` ≥ 1 and
    ``max`` ≤ the amount when it is a number).
    """

    filter: Filter
    min: int = 1
    max: int = 1
    distinct_from: tuple[int, ...] = ()
    divided: bool = False  # an amount "divided as you choose among" the targets (CR 601.2d)
    # a number of targets known only on casting: "x" (as many as the announced X, CR 601.2b–c),
    # "any" (any number, ``min`` at least); read only in structures of unread abilities
    # (reader/skeleton.py), never in an ability the engine models — which reads "any number of target …"
    # as ``max`` :data:`ANY_NUMBER` (every candidate may be chosen, CR 601.2c, 115.1)
    variable: str = ""

    def describe(self) -> str:
        if self.max >= ANY_NUMBER and not self.variable:
            n = "any number of target" if self.min == 0 else f"{self.min} or more target"
            return f"{n}{' other' if self.distinct_from else ''} {self.filter.describe()}"
        if self.variable:
            n = "X target" if self.variable == "x" else ("any number of target" if self.min == 0
                                                          else f"{self.min} or more target")
            return f"{n} {self.filter.describe()}"
        if self.min == self.max:
            n = "target" if self.max == 1 else f"{self.max} target"
        elif self.min == 0:
            n = f"up to {self.max} target"
        else:
            n = f"{self.min} to {self.max} target"
        other = " other" if self.distinct_from else ""
        div = " (divided as you choose, CR 601.2d)" if self.divided else ""
        if self.filter.is_any_target:
            return ("any" + other + " target" if self.max == 1 and self.min == 1 else f"{n}s (any)") + div
        return f"{n}{other} {self.filter.describe()}{div}"


@dataclass(frozen=True)
class Ref:
    """What an effect acts on: ``target`` (slot ``index``), ``self`` (the source),
    ``attached`` (what the source enchants), ``controller`` (the ability's
    controller), ``each_target`` (every object chosen for slot ``index``),
    ``each_opponent`` (each opponent of the controller), ``each_player``; ``each_object``: every
    permanent that fits ``group`` as the effect happens ("each creature", "all artifacts", "each other
    creature you control", CR 608.2c — a filter relative to the controller, ``other_than_source``:
    "other"); ``defending_player``: the player the source attacks, or who controls the planeswalker it
    attacks (CR 506.2, 508.5a)."""

    kind: str
    index: int = 0
    group: "Filter | None" = None

    def describe(self) -> str:
        if self.kind == "target":
            return f"target #{self.index + 1}"
        if self.kind == "each_object" and self.group is not None:
            return "each " + self.group.describe()
        return {"self": "this object", "attached": "enchanted creature", "controller": "you",
                "each_target": f"each target #{self.index + 1}", "each_opponent": "each opponent",
                "each_player": "each player", "defending_player": "defending player",
                "created": "the token created"}.get(self.kind, self.kind)


#: References to what a triggered ability's event named (CR 603.2, 608.2c): the object ("it", "that
#: creature" after "whenever a creature enters / attacks") and the player ("that player").
EVENT_REF_KINDS = ("event_object", "event_player")


def event_ref_kinds(v: Any) -> frozenset[str]:
    """The kinds of :data:`EVENT_REF_KINDS` among the references inside ``v`` (effects, nested)."""
    found: set[str] = set()
    _walk_refs(v, found)
    return frozenset(found)


def _walk_refs(v: Any, found: set[str]) -> None:
    if isinstance(v, Ref):
        if v.kind in EVENT_REF_KINDS:
            found.add(v.kind)
    elif isinstance(v, (tuple, list)):
        for x in v:
            _walk_refs(x, found)
    elif is_dataclass(v) and not isinstance(v, type):
        for f in fields(v):
            _walk_refs(getattr(v, f.name), found)


SELF = Ref("self")
ATTACHED = Ref("attached")
CONTROLLER = Ref("controller")


def T(i: int = 0) -> Ref:
    """Shorthand for target slot ``i``."""
    return Ref("target", i)


DEVOTION_TO_CHOSEN = "chosen"
"""``Count.color`` of a devotion to the color chosen as the ability resolves (CR 700.5, 106.1b)."""


@dataclass(frozen=True)
class Count:
    """An amount read from the game when it is needed (CR 107.3, 605).

    ``what``:
      * ``number`` — the number of permanents in ``selector`` ("for each creature you control");
      * ``power`` — the power of ``selector``'s permanent ("equal to this creature's power");
      * ``greatest_power`` — the greatest power among ``selector`` (0 if none);
      * ``counters`` — the number of ``counter`` counters on ``selector``'s permanent;
      * ``x`` — the X chosen for the ability's cost ("for each storage counter
        removed this way", "Remove X storage counters …: Add X mana");
      * ``life`` — the controller's life total (CR 119);
      * ``devotion`` — the controller's devotion to ``color`` (a letter, CR 700.5; :data:`DEVOTION_TO_CHOSEN`:
        to the color chosen as the mana is added, "Choose a color. Add … equal to your devotion to that color");
      * ``greatest_toughness`` — the greatest toughness among ``selector`` (0 if none);
      * ``cards`` — the number of cards in the controller's graveyard matching
        ``card_filter`` ("creature cards in your graveyard": types any of,
        ``colors`` all of);
      * ``returned_to_hand`` — the number of cards among the targets of slot ``slot`` that an earlier
        instruction returned to the controller's hand ("Draw a card for each card returned to your hand
        this way": a card the controller owns, not a token, CR 608.2c, 400.3, 111.1).
    ``plus`` is added ("{C}, plus an additional {C} for each …"; "X plus one").
    ``keyword``: with ``number``, only permanents with that keyword count
    ("creatures you control with defender", CR 702); ``min_power``: only
    creatures with at least that power ("creature with power 4 or greater");
    ``same_name``: only permanents with the source's name ("artifact you
    control named Powerstone Shard", CR 201.2).
    """

    selector: Selector
    what: str = "number"
    counter: str = ""
    plus: int = 0
    keyword: str = ""
    color: str = ""
    card_filter: "Filter | None" = None
    min_power: int | None = None
    same_name: bool = False
    slot: int = -1

    def describe(self) -> str:
        base = {"number": f"the number of {self.selector.describe()}",
                "power": f"the power of {self.selector.describe()}",
                "greatest_power": f"the greatest power among {self.selector.describe()}",
                "counters": f"the number of {self.counter} counters on {self.selector.describe()}",
                "x": "X", "life": "your life total", "devotion": "your devotion to that color" if self.color == DEVOTION_TO_CHOSEN
                else f"your devotion to {self.color}",
                "greatest_toughness": "this permanent's toughness" if self.selector.self_only
                else f"the greatest toughness among {self.selector.describe()}",
                "cards": "the number of " + (describe_spell_filter(self.card_filter)[:-len(" spells")]
                                             if self.card_filter else "") + " cards in your graveyard",
                "returned_to_hand": f"the number of cards among target #{self.slot + 1} returned to your hand "
                                    "this way",
                }.get(self.what, self.what)
        if self.keyword:
            base += f" with {self.keyword}"
        if self.min_power is not None:
            base += f" with power {self.min_power} or greater"
        if self.same_name:
            base += " with this permanent's name"
        return base + (f" plus {self.plus}" if self.plus else "")


Amount = Union[int, str, Count]  # int, "X" (CR 107.3), or a count


def describe_amount(a: Amount) -> str:
    return a.describe() if isinstance(a, Count) else str(a)


def describe_spell_filter(f: Filter) -> str:
    """A spell description as printed in a spending restriction ("colorless Eldrazi spells")."""
    words = [{"W": "white", "U": "blue", "B": "black", "R": "red", "G": "green"}[c]
             for c in "WUBRG" if c in f.colors]
    if f.chosen_type:
        words.append("chosen-type")
    if f.colorless:
        words.append("colorless")
    if f.multicolored:
        words.append("multicolored")
    words.extend(sorted(s.lower() for s in f.supertypes))
    words.extend("non" + t.lower() for t in sorted(f.nontypes))
    if f.subtypes:
        words.append(" or ".join(sorted(f.subtypes)))
    if f.types:
        words.append(" or ".join(sorted(t.lower() for t in f.types)))
    words.append("spells")
    if f.mv_min is not None:
        words.append(f"with mana value {f.mv_min} or greater")
    if f.mv_max is not None:
        words.append(f"with mana value {f.mv_max} or less")
    if f.has_x:
        words.append("with {X} in their mana costs")
    if f.not_owned:
        words.append("you don't own")
    zone = {"hand": "your hand", "graveyard": "your graveyard"}
    if f.from_zones:
        words.append("from " + " or ".join(sorted(zone.get(z, z) for z in f.from_zones)))
    if f.not_from_zones:
        words.append("not from " + " or ".join(sorted(zone.get(z, z) for z in f.not_from_zones)))
    return " ".join(words)

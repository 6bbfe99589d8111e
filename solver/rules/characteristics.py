"""Characteristics of objects after continuous effects (CR 613), and the
rules-level facts derived from them.

:class:`View` computes, for one :class:`~solver.core.state.GameState`, the
characteristics of every permanent in layer order:

* layer 4 — type-changing effects (Blood Moon, Urborg, Prismatic Omen,
  Celestial Dawn's land line, Coalition Flag), applied in timestamp order
  except where one effect depends on another (CR 613.8: Blood Moon turns
  Urborg into a Mountain, removing Urborg's own effect, so Blood Moon applies
  first whatever the timestamps). Setting a land's subtype removes the
  abilities from its rules text (CR 305.7). An Equipment with reconfigure attached to a creature
  isn't a creature (CR 702.151b), before the others;
* layer 5 — color-changing effects (Celestial Dawn), after the colors each object has in every
  zone (:func:`printed_colors`: the card data's — color indicators, devoid, color-defining
  abilities, split cards — else a read color-defining ability's, else the mana cost's; CR 613.3);
* layer 6 — abilities: printed abilities (unless removed), the intrinsic mana
  ability of each basic land type (CR 305.6), granted abilities (Chromatic
  Lantern), keywords granted by statics and by effects until end of turn;
* layer 7 — power/toughness: base, 7c modifications (Auras, pump effects),
  7d counters.

It also gathers the effects other modules need: replacement effects on mana
production and on counters, triggered mana abilities, targeting requirements
(Flagbearers), and which players are Flagbearers.
"""
from __future__ import annotations

from dataclasses import dataclass, field, replace
from functools import cached_property
from typing import Any, Callable, Generic, Iterable, Sequence, TypeVar, cast

from ..core import ir
from ..core.ir import (Ability, CounterReplacement, Keyword, ManaAbility, ManaReplacement, Pump, Selector, Static,
                 TriggeredManaAbility, UntilEndOfTurn, fixed)
from ..core.card import Card
from ..core.mana import ManaCost
from ..core.memo import Memo
from ..core.state import AbilityRef, GameObject, GameState
from ..reader.subtypes import CREATURE_TYPES
from .modes import selection_effects

BASIC_LAND_TYPES: tuple[str, ...] = ("Plains", "Island", "Swamp", "Mountain", "Forest")
BASIC_MANA = {"Plains": "W", "Island": "U", "Swamp": "B", "Mountain": "R", "Forest": "G"}
LAND_TYPES = frozenset(BASIC_LAND_TYPES) | frozenset({
    "Cave", "Desert", "Gate", "Lair", "Locus", "Mine", "Power-Plant", "Sphere", "Tower", "Town", "Urza's",
    "Planet"})
INTRINSIC: dict[str, ManaAbility] = {
    t: ManaAbility(ir.Cost(tap=True), fixed("{%s}" % c), text="{T}: Add {%s}." % c) for t, c in BASIC_MANA.items()}
EFFECT_TIMESTAMP_BASE = 1_000_000  # resolved effects are newer than every permanent listed


@dataclass(frozen=True)
class Chars:
    """An object's characteristics after continuous effects (CR 109.3, 613)."""

    id: str
    name: str
    controller: str
    owner: str
    types: frozenset[str]
    subtypes: frozenset[str]
    supertypes: frozenset[str]
    colors: frozenset[str]
    abilities: tuple[Ability, ...]
    power: int | None
    toughness: int | None
    mana_value: int

    def has_type(self, t: str) -> bool:
        return t in self.types

    @property
    def is_creature(self) -> bool:
        return "Creature" in self.types

    @property
    def is_land(self) -> bool:
        return "Land" in self.types

    def keyword(self, name: str, arg: str | None = None) -> bool:
        for a in self.abilities:
            if isinstance(a, Keyword) and a.name == name and (arg is None or a.arg == arg):
                return True
        return False

    @property
    def protections(self) -> frozenset[str]:
        return frozenset(a.arg for a in self.abilities if isinstance(a, Keyword) and a.name == "protection")

    @property
    def activated(self) -> tuple[Ability, ...]:
        """Activated abilities (mana and non-mana) in order: ``{object, index}`` counts these."""
        return tuple(a for a in self.abilities if ir.is_activated(a))

    @property
    def triggered(self) -> tuple[Ability, ...]:
        return tuple(a for a in self.abilities if ir.is_triggered(a))

    @property
    def mana_abilities(self) -> tuple[ManaAbility, ...]:
        return tuple(a for a in self.abilities if isinstance(a, ManaAbility))


A = TypeVar("A")
S = TypeVar("S", bound=Static)


@dataclass(frozen=True)
class Sourced(Generic[A]):
    """An ability or effect with where it comes from: ``source`` is an object id
    (or the id of the effect's source for resolved effects), ``controller`` the
    player who controls it, ``timestamp`` its order."""

    source: str
    controller: str
    ability: A
    timestamp: int
    targets: tuple[tuple[str, ...], ...] | None = None
    event_object: str | None = None  # what a triggered ability's event named (CR 603.2)
    x: int | None = None  # the X of a resolved "+X/+X", fixed as it resolved (CR 608.2h)
    color: str | None = None  # the color chosen as it resolved ("the color of your choice", CR 608.2d)


def printed_mana_value(o: GameObject) -> int:
    """The mana value of the object's mana cost, X as 0 (CR 202.3): a transforming double-faced
    permanent or spell with its back face up has its front face's (202.3b, 712.8e), a melded
    permanent the total of its two front faces' (712.8g: a face with no mana cost counts as 0,
    202.3a); a modal double-faced card's back face, an Adventure or a split half, its own (712.8f,
    715.3b, 709.3b); a split card off the stack, both halves' (709.4, :func:`solver.cards.split_card`). A
    flipped flip card's face carries the card's own mana cost in the face data (710.1c: :mod:`solver.cards`)."""
    if o.card is None:
        return 0
    front = o.front
    if front is not None and front.data.layout in ("transform", "meld"):
        total = front.data.mana_cost.mana_value
        if o.melded_with is not None:
            total += o.melded_with.data.mana_cost.mana_value
        return total
    return o.card.data.mana_cost.mana_value


def _defining(card: Card) -> tuple[ir.CharacteristicDefining, ...]:
    return tuple(a for a in card.abilities if isinstance(a, ir.CharacteristicDefining))


def printed_colors(card: Card | None) -> frozenset[str]:
    """The card's colors before continuous effects, in every zone (CR 202.2, 105.2): the card
    data's when it gives them (a color indicator, CR 204; a color-defining ability, 604.3; devoid,
    702.114a; a split card's halves, 709.4; a token's), else its color indicator's (202.2e: an inline
    card giving ``colorIndicator`` alone), else those a read color-defining ability sets (604.3: an
    inline card or one the color data lacks), else its mana cost's (202.2)."""
    if card is None:
        return frozenset()
    if card.data.colors is not None:
        return frozenset(card.data.colors)
    if card.data.color_indicator is not None:
        return frozenset(card.data.color_indicator)  # CR 202.2e, 204.1: an inline card's indicator alone
    for a in _defining(card):
        if a.colors is not None:
            return a.colors
    return card.data.mana_cost.colors


def printed_subtypes(card: Card | None) -> frozenset[str]:
    """The card's subtypes before continuous effects, in every zone: its type line's, and every
    creature type when a characteristic-defining ability says so (changeling, CR 702.73a, 604.3,
    205.3m) — a changeling card in the hand is an Elf card."""
    if card is None:
        return frozenset()
    out = frozenset(card.data.subtypes)
    if any(a.every_creature_type for a in _defining(card)):
        out |= CREATURE_TYPES
    return out


def _int(v: str | None) -> int | None:
    if v is None:
        return None
    try:
        return int(v)
    except ValueError:
        return 0  # '*' and similar: characteristic-defining abilities are not modeled (reported unsupported)


def _matches(sel: Selector | None, c: "_Work", source: GameObject | None, controller: str) -> bool:
    """Does permanent ``c`` fall in ``sel`` as seen from an effect controlled by ``controller``?"""
    if sel is None:
        raise ValueError("a static ability that affects permanents needs a selector of what it affects")
    if sel.self_only:
        return source is not None and c.id == source.id
    if sel.attached:
        if source is None or source.attached_to != c.id:
            return False
    if sel.exclude_self and source is not None and c.id == source.id:
        return False
    if sel.who == "you" and c.controller != controller:
        return False
    if sel.who == "opponent" and c.controller == controller:
        return False
    if sel.types and not sel.types <= c.types:
        return False
    if sel.nontypes & c.types:
        return False
    if sel.subtypes and not (sel.subtypes & c.subtypes):
        return False
    if sel.nonbasic and "Basic" in c.supertypes:
        return False
    if sel.basic and "Basic" not in c.supertypes:
        return False
    if sel.attacking and not c.attacking:
        return False
    return True


@dataclass
class _Work:
    """Mutable working characteristics while layers are applied."""

    id: str
    controller: str
    types: frozenset[str]
    subtypes: frozenset[str]
    supertypes: frozenset[str]
    text_abilities_lost: bool = False
    attacking: bool = False         # an attacking creature (CR 506.4)



RECONFIGURE = Keyword("reconfigure")


def _reconfigured(perms: list[GameObject], work: dict[str, "_Work"]) -> None:
    """CR 702.151b: an Equipment with reconfigure attached to a creature isn't a creature until it
    becomes unattached (a layer-4 effect; its other types and subtypes stay)."""
    for o in perms:
        if o.attached_to is not None and o.card is not None and RECONFIGURE in o.card.abilities:
            work[o.id].types = work[o.id].types - {"Creature"}


class View:
    """The rules view of a :class:`GameState`: characteristics and active effects."""

    def __init__(self, state: GameState):
        self.state = state
        self.memo = Memo()  # what the rules derive from this view, once (solver/core/memo.py)
        self._objs = {o.id: o for o in state.objects}
        self._chars: dict[str, Chars] = {}
        self._compute()

    @classmethod
    def of(cls, state: GameState) -> "View":
        """The view of ``state``, built once per (immutable) state: every stage asking for the rules view of
        the same state shares it (its characteristics and memo are functions of the state alone)."""
        return state.memo("view", lambda: cls(state))

    # -- public -----------------------------------------------------------
    def chars(self, oid: str) -> Chars:
        """Characteristics of any object (battlefield objects after effects; others as printed)."""
        c = self._chars.get(oid)
        if c is None:
            o = self._objs[oid]
            c = self._printed(o)
            for s in self.statics(ir.SetColorCards):  # Celestial Dawn's second sentence (layer 5)
                if (o.zone == "stack" and o.controller == s.controller) or (
                        o.zone != "stack" and o.owner == s.controller and "Land" not in c.types):
                    c = replace(c, colors=s.ability.color)
            self._chars[oid] = c
        return c

    def obj(self, oid: str) -> GameObject:
        return self._objs[oid]

    @property
    def permanents(self) -> list[GameObject]:
        return [o for o in self.state.objects if o.zone == "battlefield"]

    def permanents_of(self, player: str) -> list[GameObject]:
        return [o for o in self.permanents if o.controller == player]

    def matches(self, sel: Selector | None, oid: str, source: GameObject | None, controller: str) -> bool:
        """Is permanent ``oid`` in ``sel`` seen from ``controller``? (``None``: a malformed
        ability with no selector, a ValueError.)"""
        c = self.chars(oid)
        w = _Work(c.id, c.controller, c.types, c.subtypes, c.supertypes,
                  attacking=self.state.obj(oid).attacking is not None)
        return _matches(sel, w, source, controller)

    def select(self, sel: Selector | None, source: GameObject | None, controller: str) -> list[str]:
        """Ids of the permanents in ``sel`` seen from ``controller`` (battlefield order)."""
        return [o.id for o in self.permanents if self.matches(sel, o.id, source, controller)]

    def player_subtypes(self, pid: str) -> frozenset[str]:
        """Subtypes a player has (Enroll in the Coalition: "You are a Flagbearer")."""
        out: set[str] = set()
        for s in self.statics(ir.PlayerSubtype):
            if s.controller == pid:
                out |= s.ability.subtypes
        return frozenset(out)

    def player_keywords(self, pid: str) -> frozenset[str]:
        """Keywords a player has ("You have hexproof": CR 702.11d; shroud, 702.18b)."""
        out: set[str] = set()
        for s in self.statics(ir.PlayerKeyword):
            if s.controller == pid:
                out |= set(s.ability.keywords)
        return frozenset(out)

    def statics(self, kind: type[S]) -> list[Sourced[S]]:
        """The statics of class ``kind`` in force (after layer 6), in timestamp order."""
        return [cast("Sourced[S]", s) for s in self._statics if isinstance(s.ability, kind)]

    @cached_property
    def mana_replacements(self) -> list[Sourced[ManaReplacement]]:
        """Replacement effects on mana production (CR 106.12b), from permanents and resolved effects."""
        return self._gather(ManaReplacement)

    @cached_property
    def counter_replacements(self) -> list[Sourced[CounterReplacement]]:
        return self._gather(CounterReplacement)

    @cached_property
    def token_replacements(self) -> list[Sourced[ir.TokenReplacement]]:
        return self._gather(ir.TokenReplacement)

    @cached_property
    def triggered_mana(self) -> list[Sourced[TriggeredManaAbility]]:
        """Triggered mana abilities of permanents (CR 605.1b)."""
        return self._gather(TriggeredManaAbility, include_effects=False)

    def can_pay_tap_symbol(self, oid: str) -> bool:
        """CR 302.6 / 602.5a: a creature's {T}/{Q} ability needs continuous control
        since its controller's turn began, or haste (or an effect letting it be
        activated as though it had haste: Thousand-Year Elixir)."""
        o = self._objs[oid]
        c = self.chars(oid)
        if not c.is_creature or not o.sick:
            return True
        if c.keyword("haste"):
            return True
        for s in self.statics(ir.ActivateAsHaste):
            src = self._objs.get(s.source)
            if s.controller == o.controller and s.ability.affected is not None and \
                    self.matches(s.ability.affected, oid, src, s.controller):
                return True
        return False

    def until_eot_effects(self) -> list[Sourced[Any]]:
        """Effects of resolved spells/abilities still in force (the situation's ``effects``)."""
        return list(self._eot)

    # -- computation -----------------------------------------------------
    def _printed(self, o: GameObject) -> Chars:
        if o.card is None:
            return Chars(o.id, o.name, o.controller, o.owner, frozenset(), frozenset(), frozenset(), frozenset(), (),
                         None, None, 0)
        d = o.card.data
        # CR 202.3, 107.3: an X in the mana cost is its announced value on the stack, 0 elsewhere
        x = o.x * d.mana_cost.x_count if o.zone == "stack" else 0
        p, t = self._defined_pt(o, o.card.abilities, _int(d.power), _int(d.toughness),
                                lambda sel, src, you: len(self.select(sel, src, you)))   # CR 604.3: every zone
        return Chars(o.id, d.name, o.controller, o.owner, frozenset(d.types), printed_subtypes(o.card),
                     frozenset(d.supertypes), self._base_colors(o), o.card.abilities, p, t,
                     printed_mana_value(o) + x)

    def _defined_pt(self, o: GameObject, abilities: Iterable[Ability], p: int | None, t: int | None,
                    permanents: Callable[[Selector, GameObject, str], int]) -> tuple[int | None, int | None]:
        """Layer 7a (CR 613.4a, 604.3): the power and toughness its characteristic-defining abilities set
        (:class:`~solver.core.ir.DefinedPT`), from ``p``/``t`` otherwise; ``permanents`` counts the
        permanents of a selector (on the battlefield: by the types after layer 4, so no layer reads
        itself; elsewhere: the permanents as they are)."""
        for a in abilities:
            if isinstance(a, ir.DefinedPT):
                if a.power is not None:
                    p = self._defined_count(o, a.power, permanents)
                if a.toughness is not None:
                    t = self._defined_count(o, a.toughness, permanents)
        return p, t

    def _defined_count(self, o: GameObject, n: ir.Count,
                       permanents: Callable[[Selector, GameObject, str], int]) -> int:
        """The value of a layer-7a count for object ``o`` (its controller's; CR 604.3)."""
        you = o.controller
        if n.what == "life":
            value = next((pl.life for pl in self.state.players if pl.id == you), 0)
        elif n.what == "cards":
            f = n.card_filter
            value = sum(1 for g in self.state.zone("graveyard") if g.owner == you and g.card is not None and (
                f is None or ((not f.types or bool(f.types & set(g.card.data.types)))
                              and f.colors <= printed_colors(g.card))))
        else:
            value = permanents(n.selector, o, you)
        return value + n.plus

    @staticmethod
    def _base_colors(o: GameObject) -> frozenset[str]:
        """The object's colors before color-changing effects (:func:`printed_colors`)."""
        return printed_colors(o.card)

    def _compute(self) -> None:
        perms = self.permanents
        work = {o.id: _Work(o.id, o.controller, frozenset(o.card.data.types) if o.card else frozenset(),
                            printed_subtypes(o.card),
                            frozenset(o.card.data.supertypes) if o.card else frozenset(),
                            attacking=o.attacking is not None) for o in perms}

        # Resolved effects ("effects" key): their granted abilities and pumps.
        self._eot: list[Sourced[Any]] = []
        for e in self.state.effects:
            src_id, effs = self._effect_entry(e)
            for eff in effs:
                fixed = e.affected if isinstance(eff, (ir.GroupPump, ir.GroupAnimate)) else e.targets   # CR 611.2c
                self._eot.append(Sourced(src_id, e.controller, eff, EFFECT_TIMESTAMP_BASE + e.order, fixed,
                                         e.event_object, e.x, e.color))

        # ---- layer 4: type-changing effects with dependencies (CR 613.8) ----
        _reconfigured(perms, work)   # 702.151b, before the others (its timestamp taken as earliest)
        layer4 = [Sourced(o.id, o.controller, a, o.timestamp)
                  for o in perms if o.card for a in o.card.abilities
                  if isinstance(a, (ir.SetLandTypes, ir.AddTypes))]
        pending = sorted(layer4, key=lambda s: (s.timestamp, s.source))
        while pending:
            live = [s for s in pending if self._exists(s, work)]
            pending = live
            if not pending:
                break
            independent = [s for s in pending if not any(self._depends(s, t, work) for t in pending if t is not s)]
            chosen = (independent or pending)[0]
            self._apply4(chosen, work)
            pending = [s for s in pending if s is not chosen]

        animated = self._animate(work)   # resolved "becomes a N/N … creature until end of turn" (layer 4)

        # ---- layers 5, 6, 7 ----
        def ability_base(o: GameObject) -> tuple[Ability, ...]:
            w = work[o.id]
            printed = () if (w.text_abilities_lost or o.card is None) else o.card.abilities
            intrinsic = tuple(INTRINSIC[t] for t in BASIC_LAND_TYPES if t in w.subtypes) if "Land" in w.types else ()
            return printed + intrinsic

        base_abilities = {o.id: ability_base(o) for o in perms}
        statics: list[Sourced[Static]] = []
        for o in perms:
            for a in base_abilities[o.id]:
                if isinstance(a, Static):
                    statics.append(Sourced(o.id, o.controller, a, o.timestamp))
        statics.sort(key=lambda s: (s.timestamp, s.source))
        statics = [s for s in statics if self._holds(s, work)]   # "as long as …" (CR 611.3a)

        colors = {o.id: self._base_colors(o) for o in perms}
        for s in statics:
            if isinstance(sc := s.ability, ir.SetColor):
                src = self._objs[s.source]
                for o in perms:
                    if _matches(sc.affected, work[o.id], src, s.controller):
                        colors[o.id] = sc.color

        granted: dict[str, list[Ability]] = {o.id: [] for o in perms}
        ptmod: dict[str, list[int]] = {o.id: [0, 0] for o in perms}
        for oid, ans in animated.items():   # layers 5 and 6 of the animations, in timestamp order (CR 613.1e-f, 613.7)
            for an in ans:
                if an.colors is not None:
                    colors[oid] = an.colors
                granted[oid].extend(Keyword(k) for k in an.keywords)
        for s in statics:
            a = s.ability
            src = self._objs[s.source]
            if isinstance(a, ir.Grant):
                for o in perms:
                    if _matches(a.affected, work[o.id], src, s.controller):
                        assert a.granted is not None, "a grant static needs the granted ability"
                        granted[o.id].append(a.granted)
            elif isinstance(a, ir.StaticPump):
                for o in perms:
                    if _matches(a.affected, work[o.id], src, s.controller):
                        ptmod[o.id][0] += a.power
                        ptmod[o.id][1] += a.toughness
                        granted[o.id].extend(Keyword(k) for k in a.keywords)
        for s in self._eot:
            eff = s.ability
            if isinstance(eff, (Pump, ir.GroupPump)):
                times = 1 if eff.x is None else (s.x or 0)   # "+X/+X": X as it resolved (CR 608.2h)
                for oid in (self._refs(eff.to, s) if isinstance(eff, Pump) else self._group(eff, s)):
                    if oid in work:
                        ptmod[oid][0] += eff.power * times
                        ptmod[oid][1] += eff.toughness * times
                        granted[oid].extend(Keyword(k) for k in eff.keywords)
                        if isinstance(eff, Pump) and eff.chosen_protection and s.color:   # CR 702.16a
                            granted[oid].append(Keyword("protection", s.color))

        for o in perms:
            w = work[o.id]
            d = o.card.data if o.card else None
            p = _int(d.power) if d else None
            t = _int(d.toughness) if d else None
            token_pt = getattr(o.card, "pt", None)
            if token_pt:
                p, t = token_pt
            p, t = self._defined_pt(o, base_abilities[o.id], p, t,
                                    lambda sel, src, you: sum(1 for x in work.values() if _matches(sel, x, src, you)))
            for an in animated.get(o.id, ()):   # layer 7b: base P/T, the latest one last (CR 613.4b, 613.7)
                if an.power is not None:
                    p, t = an.power, an.toughness
            if p is not None and t is not None:
                plus = o.counter("+1/+1") - o.counter("-1/-1")
                p += ptmod[o.id][0] + plus
                t += ptmod[o.id][1] + plus
            mv = printed_mana_value(o)
            self._chars[o.id] = Chars(o.id, d.name if d else o.name, o.controller, o.owner, w.types, w.subtypes,
                                      w.supertypes, colors[o.id], base_abilities[o.id] + tuple(granted[o.id]), p, t, mv)

        # statics in force after layer 6 (granted statics included)
        self._statics = [s for s in (Sourced(o.id, o.controller, a, o.timestamp)
                                     for o in perms for a in self._chars[o.id].abilities if isinstance(a, Static))
                         if self._holds(s, work)]
        self._statics.extend(self._this_turn_rules())
        self._statics.sort(key=lambda s: (s.timestamp, s.source))

    def _animate(self, work: dict[str, "_Work"]) -> dict[str, list[ir.Animate]]:
        """Resolved animations (:class:`ir.Animate`, CR 611.2a) in timestamp order: each permanent named
        gains the card types and subtypes (layer 4, CR 613.1d, after the statics of layer 4: a resolved
        effect's timestamp is later); each permanent's animations in timestamp order, which set its colors,
        grant keywords and set its base power and toughness in turn (layers 5, 6, 7b; 613.7)."""
        out: dict[str, list[ir.Animate]] = {}
        for s in sorted(self._eot, key=lambda x: (x.timestamp, x.source)):
            eff = s.ability
            named: Sequence[str]
            if isinstance(eff, ir.GroupAnimate):   # each of the set fixed as it began (CR 611.2c)
                eff = ir.Animate(ir.SELF, eff.power, eff.toughness, frozenset(), eff.subtypes)
                named = self._group(s.ability, s)
            elif isinstance(eff, ir.Animate):
                named = self._refs(eff.to, s)
            else:
                continue
            for oid in named:
                w = work.get(oid)
                if w is None:
                    continue
                w.types = w.types | eff.types
                w.subtypes = w.subtypes | eff.subtypes
                out.setdefault(oid, []).append(eff)
        return out

    def _holds(self, s: Sourced[Static], work: dict[str, "_Work"]) -> bool:
        """Does the condition of a static "as long as …" hold now (CR 611.3a)? Read from
        the types after layer 4 and from zones other than the battlefield, never from
        power, toughness or abilities (the reader accepts only such conditions,
        ``solver/reader/conditional_statics.py``), so this needs no later layer."""
        cond = s.ability.condition
        if cond is None:
            return True
        you = s.controller
        if isinstance(cond, ir.ControlCount):
            src = self._objs[s.source]
            return sum(1 for w in work.values() if _matches(cond.selector, w, src, you)) >= cond.n
        if isinstance(cond, ir.YourTurn):
            return self.state.turn.active == you
        if isinstance(cond, ir.Equipped):   # an Equipment (its subtype after layer 4) attached to the source (CR 301.5)
            return any(w.id != s.source and self._objs[w.id].attached_to == s.source and "Equipment" in w.subtypes
                       for w in work.values())
        if isinstance(cond, ir.CountersOnSource):
            return self._objs[s.source].counter(cond.counter) >= cond.n
        if isinstance(cond, ir.SourceAttacking):
            return self._objs[s.source].attacking is not None
        if isinstance(cond, ir.SourceUntapped):
            return not self._objs[s.source].tapped
        if isinstance(cond, ir.OpponentPoison):
            return any(p.poison >= cond.n for p in self.state.players if p.id != you)
        graveyard = [o for o in self.state.zone("graveyard") if o.owner == you]
        if isinstance(cond, ir.GraveyardCount):
            return sum(1 for o in graveyard if cond.counts(o.card.data.types if o.card else ())) >= cond.n
        if isinstance(cond, ir.GraveyardTypes):   # card types (CR 205.2a) among the cards, as printed
            return len({t for o in graveyard if o.card is not None for t in o.card.data.types
                        if t in ir.CARD_TYPES}) >= cond.n
        raise ValueError(f"a static's condition {cond.kind!r} is not evaluated by the characteristics view")

    def _gather(self, cls: type[A], include_effects: bool = True) -> list[Sourced[A]]:
        """Abilities of class ``cls`` of permanents (after layer 6) and, when
        ``include_effects``, those created by resolved effects (``effects`` key),
        in timestamp order."""
        out: list[Sourced[A]] = [Sourced(o.id, o.controller, a, o.timestamp)
                                 for o in self.permanents for a in self.chars(o.id).abilities if isinstance(a, cls)]
        if include_effects:
            out.extend(s for s in self._eot if isinstance(s.ability, cls))
        out.sort(key=lambda s: (s.timestamp, s.source))
        return out

    def entry_effects(self, e: Any) -> tuple[str, tuple]:
        """The source and the continuous effects of an ``effects`` entry (CR 611.2a)."""
        return self._effect_entry(e)

    def _effect_entry(self, e) -> tuple[str, tuple]:
        """The continuous effects an ``effects`` entry stands for."""
        owner: object = None
        if e.card is not None:
            owner = e.card.spell
            src = e.card.name
        else:
            ref: AbilityRef = e.ability
            src = ref.source
            o = self._objs.get(ref.source)
            if o is not None and o.card is not None:
                acts = ir.numbered_abilities(o.card.abilities)
                if 1 <= ref.index <= len(acts):
                    owner = acts[ref.index - 1]
        effs: tuple[ir.Effect, ...] = tuple(getattr(owner, "effects", None) or ())
        modes: tuple[ir.Mode, ...] = getattr(owner, "modes", None) or ()
        if e.modes is not None and modes:   # a modal one: its chosen modes' effects (CR 700.2a)
            effs += selection_effects(modes, e.modes)
        out: list[Ability | Pump | ir.GroupPump | ir.ThisTurn | ir.GroupThisTurn | ir.Animate | ir.GroupAnimate] = []
        for eff in effs:
            if isinstance(eff, UntilEndOfTurn):
                out.append(eff.granted)
            elif isinstance(eff, (Pump, ir.GroupPump, ir.ThisTurn, ir.GroupThisTurn, ir.Animate, ir.GroupAnimate)):
                out.append(eff)
        return src, tuple(out)

    @staticmethod
    def _group(eff: ir.GroupPump | ir.GroupAnimate, s: Sourced[Any]) -> tuple[str, ...]:
        """The objects a group effect affects: the set fixed as it began (CR 611.2c), the entry's
        ``affected`` list at the effect's slot."""
        if s.targets is None or eff.slot >= len(s.targets):
            return ()
        return s.targets[eff.slot]

    def _this_turn_rules(self) -> list[Sourced[Static]]:
        """The combat rules resolved effects put on the objects they name this turn (CR 611.2a,
        509.1b–c): each a static of the object itself (``affected`` the object), not an ability it has."""
        out: list[Sourced[Static]] = []
        for s in self._eot:
            if isinstance(s.ability, ir.ThisTurn):
                for oid in self._refs(s.ability.to, s):
                    if oid in self._objs and self._objs[oid].zone == "battlefield":
                        out.append(Sourced(oid, s.controller, s.ability.rule, s.timestamp))
            elif isinstance(s.ability, ir.GroupThisTurn):
                for o in self.permanents:
                    if self._in_group(s.ability, o.id, s):
                        out.append(Sourced(o.id, s.controller, s.ability.rule, s.timestamp))
        return out

    def _in_group(self, eff: ir.GroupThisTurn, oid: str, s: Sourced[Any]) -> bool:
        """Is permanent ``oid`` in a rules-modifying group now (CR 611.2c)? Its card types (any of),
        subtypes (any of), colors and keywords (all of) after layers, its controller seen from the
        effect's (the reader gives such a group no other qualifier)."""
        f, c = eff.group, self._chars[oid]
        if eff.other and oid == s.source:
            return False
        if (f.who == "you") != (c.controller == s.controller) and f.who != "any":
            return False
        return bool(f.types & c.types) and f.fits_types(c.types) and (not f.subtypes or bool(f.subtypes & c.subtypes)) \
            and f.colors <= c.colors and all(c.keyword(k) for k in f.keywords) \
            and not any(c.keyword(k) for k in f.not_keywords)

    def _refs(self, ref: ir.Ref | None, s: Sourced[Any]) -> list[str]:
        if ref is None:
            return []
        if ref.kind == "self":
            return [s.source]
        if ref.kind in ("target", "each_target"):
            if s.targets is None or ref.index >= len(s.targets):
                return []
            return list(s.targets[ref.index])
        if ref.kind == "event_object":  # the object its trigger event named, while it is that object (CR 400.7)
            return [s.event_object] if s.event_object is not None else []
        return []

    def _exists(self, s: Sourced[ir.SetLandTypes | ir.AddTypes], work: dict[str, _Work]) -> bool:
        """A static ability's effect exists while its source keeps the ability (CR 613.8a)."""
        w = work.get(s.source)
        return w is not None and not w.text_abilities_lost

    def _affected(self, s: Sourced[ir.SetLandTypes | ir.AddTypes], work: dict[str, _Work]) -> list[str]:
        src = self._objs[s.source]
        sel = s.ability.affected
        return [oid for oid, w in work.items() if _matches(sel, w, src, s.controller)]

    def _apply4(self, s: Sourced[ir.SetLandTypes | ir.AddTypes], work: dict[str, _Work]) -> None:
        a = s.ability
        for oid in self._affected(s, work):
            w = work[oid]
            if isinstance(a, ir.SetLandTypes):
                if "Land" not in w.types:
                    continue
                w.subtypes = (w.subtypes - LAND_TYPES) | a.subtypes
                w.text_abilities_lost = True  # CR 305.7
            else:
                add = frozenset(BASIC_LAND_TYPES) if a.all_basic else a.subtypes
                w.subtypes = w.subtypes | add

    def _depends(self, a: Sourced[ir.SetLandTypes | ir.AddTypes], b: Sourced[ir.SetLandTypes | ir.AddTypes], work: dict[str, _Work]) -> bool:
        """CR 613.8a: ``a`` depends on ``b`` if applying ``b`` would change ``a``'s
        existence or what it applies to (both in layer 4 here)."""
        trial = {k: replace(v) for k, v in work.items()}
        self._apply4(b, trial)
        if self._exists(a, trial) != self._exists(a, work):
            return True
        return self._affected(a, trial) != self._affected(a, work)

"""The validated game state that every query works on.

A :class:`GameState` is built from a situation file by :mod:`solver.io.load`
(which validates it) and written back by :func:`solver.io.dump.dump_state`.
It is plain data: characteristics after continuous effects are computed by
:mod:`solver.rules.characteristics`.
"""
from __future__ import annotations

from dataclasses import dataclass, field, fields, replace
from typing import Any, Callable, Hashable, TypeAlias, TypeVar

from .card import Card, CardSource
from .memo import Memo
from .mana import Mana
from .ir import SpendRestriction

_T = TypeVar("_T")

#: A state's canonical identity (:meth:`GameState.key`): hashed and compared, never read apart.
StateKey: TypeAlias = tuple[Hashable, ...]

ZONES: tuple[str, ...] = ("battlefield", "hand", "graveyard", "library", "exile", "command", "stack")
STEPS: tuple[str, ...] = ("untap", "upkeep", "draw", "main1", "beginning_of_combat", "declare_attackers",
                          "declare_blockers", "first_strike_damage", "combat_damage", "end_of_combat", "main2",
                          "end", "cleanup")


@dataclass(frozen=True)
class Player:
    id: str
    life: int = 20
    poison: int = 0
    lost: bool = False  # the player has lost the game (CR 104.3)
    life_lost_this_turn: int | None = None  # life lost this turn (CR 119.3, 702.137a); None: not recorded


@dataclass(frozen=True)
class TurnHistory:
    """(extension) What happened this turn that rules look back at (issue 27), recorded by the
    transition kernel as it happens: ``died`` creatures that died this turn (CR 700.4: put into a
    graveyard from the battlefield; tokens too); ``gained`` the life each player gained this turn
    (CR 119.3; (player, n) for n > 0 in player order); ``attacked`` the creatures each player
    declared as attackers this turn (CR 508.1; (player, n) for n > 0, summed over declarations).
    Read by intervening "if" clauses and conditions ("if a creature died this turn", "if you gained
    life this turn", "if you attacked [with two or more creatures] this turn", CR 603.4)."""

    died: int = 0
    gained: tuple[tuple[str, int], ...] = ()
    attacked: tuple[tuple[str, int], ...] = ()

    def gained_by(self, player: str) -> int:
        """The life ``player`` gained this turn (CR 119.3)."""
        return dict(self.gained).get(player, 0)

    def attacked_by(self, player: str) -> int:
        """How many creatures ``player`` attacked with this turn (CR 508.1)."""
        return dict(self.attacked).get(player, 0)

    def add(self, players: tuple[str, ...], *, died: int = 0, gained: tuple[str, int] | None = None,
            attacked: tuple[str, int] | None = None) -> "TurnHistory":
        """The record with a death, a life gain or a declaration of attackers added."""
        return TurnHistory(self.died + died, _add(self.gained, gained, players), _add(self.attacked, attacked, players))


def _add(counts: tuple[tuple[str, int], ...], more: tuple[str, int] | None,
         players: tuple[str, ...]) -> tuple[tuple[str, int], ...]:
    if more is None or more[1] <= 0:
        return counts
    d = dict(counts)
    d[more[0]] = d.get(more[0], 0) + more[1]
    return tuple((p, d[p]) for p in players if d.get(p))


@dataclass(frozen=True)
class Turn:
    number: int = 1
    active: str = ""
    step: str = "main1"
    priority: str = ""
    lands_played: int = 0
    passed: tuple[str, ...] = ()  # players who passed priority in succession (CR 117.3d, 117.4), turn order
    # (extension) spells each player cast this turn, (player, n) for n > 0 in player order (CR 730.2:
    # day and night); None: not recorded
    spells_cast: tuple[tuple[str, int], ...] | None = None
    # (extension) extra turns to be taken after this one (CR 500.7), the next first: the player of each
    extra_turns: tuple[str, ...] = ()
    # (extension) players who skip their next combat phase (CR 614.10, 614.10a), one entry per skip
    skip_combat: tuple[str, ...] = ()
    # (extension) what happened this turn that rules look back at (:class:`TurnHistory`); None: not recorded
    history: TurnHistory | None = None

    def cast_by(self, player: str) -> int | None:
        """How many spells ``player`` cast this turn (CR 601.2i), or None when not recorded."""
        return None if self.spells_cast is None else dict(self.spells_cast).get(player, 0)


@dataclass(frozen=True)
class AbilityRef:
    """``{source: id, index: n}``: the n-th (1-based) activated or triggered ability of ``source``."""

    source: str
    index: int


#: The ends of a permission to play a card from exile (:class:`PlayPermission`): "this turn" / "until end
#: of turn" (CR 514.2: the cleanup step of the turn), "until the end of your next turn" (the cleanup step of
#: the permitted player's next turn: as that turn begins it becomes ``end_of_turn``, CR 611.2a).
PERMISSION_ENDS: tuple[str, ...] = ("end_of_turn", "end_of_next_turn")


@dataclass(frozen=True)
class PlayPermission:
    """(extension) a card in exile that ``player`` may play (CR 611.2, 305.1, 601.2a, 116.2b): "Exile the top
    card of your library. You may play that card this turn." ``until`` is one of :data:`PERMISSION_ENDS`;
    ``spells_only``: "you may cast" (a land can't be cast, CR 305.9). Playing the card follows the normal
    rules: its timing (CR 307.1, 305.2: a land only with a land play left) and its costs (CR 601.2f). The
    card is a new object when it leaves exile, and the permission ends (CR 400.7)."""

    player: str
    until: str = "end_of_turn"
    spells_only: bool = False


@dataclass(frozen=True)
class GameObject:
    """A card, token, copy or ability in a zone (contract §1, "Objects").

    ``card`` is None only for abilities on the stack (``ability`` set).
    ``order`` is the object's position in its zone list (stack and library: top first),
    and ``timestamp`` its timestamp for CR 613.7 (by default, its position in
    the file's order of objects). ``activated_this_turn`` (extension):
    (ability index, times) for its activated abilities activated this turn,
    for "Activate only once each turn" (CR 602.5b); ``entered_this_turn``
    (extension): it entered the battlefield this turn; ``skip_untap``
    (extension): it doesn't untap during its controller's next untap step
    (CR 502.3; Cinder Marsh's mana ability); ``refers_to`` (extension, abilities on the
    stack): the id of the spell or ability on the stack the ability refers to (ward's "that
    spell or ability", CR 702.21a).
    """

    id: str
    zone: str
    owner: str
    controller: str
    card: Card | None = None
    tapped: bool = False
    sick: bool = False
    counters: tuple[tuple[str, int], ...] = ()
    damage: int = 0
    attached_to: str | None = None
    token: bool = False
    conjured: bool = False
    chosen: tuple[tuple[str, Any], ...] = ()
    x: int = 0
    targets: tuple[tuple[str, ...], ...] | None = None
    copy: bool = False
    ability: AbilityRef | None = None
    last_known: tuple[tuple[str, Any], ...] = ()
    order: int = 0
    timestamp: int = 0
    activated_this_turn: tuple[tuple[int, int], ...] = ()
    entered_this_turn: bool = False
    skip_untap: bool = False
    # (extension) "If that creature would die this turn, exile it instead": a replacement effect from a resolved
    # spell or ability on this permanent until the cleanup step (CR 614.1a, 700.4, 514.2)
    exile_if_dies: bool = False
    attacking: str | None = None  # the player, planeswalker or battle it attacks (CR 506.4, 508.1b)
    blocking: tuple[str, ...] = ()  # the attacking creatures it blocks (CR 509.1a), sorted
    blocked: bool = False  # an attacking creature that has been blocked (CR 509.1h)
    commander: bool = False  # (extension) a card designated as its owner's commander, in any zone (CR 903.3)
    # (extension) an ability on the stack: the spell or ability on the stack it refers to ("counter that spell
    # or ability", ward, CR 702.21a); None: none, or it has left the stack (CR 400.7)
    refers_to: str | None = None
    # (extension) a card in exile until a permanent leaves the battlefield ("exile target … until this
    # enchantment leaves the battlefield", CR 610.3): the id of that permanent; it returns as it leaves
    exiled_until: str | None = None
    # (extension) a card in exile that a permanent's ability exiled, for its linked ability's "the exiled card"
    # (CR 607.2a): that permanent's id
    exiled_by: str | None = None
    # (extension) the card itself — its front face, or a split card as a whole — when ``card`` holds the
    # characteristics of another of its faces: a transforming or modal double-faced permanent with its back
    # face up (CR 712.8d), a flipped flip card (710.1), a melded permanent (712.4), a spell cast as an
    # Adventure, a split half or a back face (715.3b, 709.3, 712.11b); None: ``card`` is the card itself
    front: Card | None = None
    # (extension) a melded permanent's other card (CR 712.4a, 701.42c: one permanent represented by two cards)
    melded_with: Card | None = None
    # (extension) an adventurer card exiled as its Adventure resolved: "on an adventure" (CR 715.3d)
    on_adventure: bool = False
    # (extension) a prototype card cast prototyped, on the stack or the battlefield (CR 702.160, 718.3): ``card``
    # holds the prototyped characteristics (mana cost, power, toughness, colors) and ``front`` the card
    prototyped: bool = False
    # (extension) how a spell was cast, on the stack: ``flashback`` or ``jump-start`` (exiled instead of going
    # anywhere else as it leaves the stack, CR 702.34a, 702.133a), ``escape`` (it escaped, 702.138b) or
    # ``evoke`` (its evoke cost was paid, 702.74a) — the last two also on the permanent it becomes (escape
    # and evoke read it there); None: cast otherwise
    cast_with: str | None = None
    # (extension) regeneration shields on a permanent, each for this turn: the next time it would be destroyed,
    # instead it is tapped, removed from combat and all damage is removed from it (CR 701.15a, 614.8)
    regeneration_shields: int = 0
    # (extension) how many times a spell was kicked (CR 702.33d), on the stack and on the permanent it becomes
    # (its "if it was kicked" abilities, 702.33e); 0: not kicked
    kicked: int = 0
    # (extension) a spell whose buyback cost was paid (CR 702.27a): it goes to its owner's hand as it resolves
    buyback: bool = False
    # (extension) a spell whose casualty cost was paid (CR 702.153a): its "if a casualty cost was paid" trigger
    casualty: bool = False
    # (extension) a spell on the stack: how many spells all players cast this turn before it (storm, CR 702.40a);
    # None: not recorded
    cast_before: int | None = None
    # (extension) a spell on the stack: the power, toughness and mana value of the one creature sacrificed to
    # cast it, as it last existed on the battlefield ("the sacrificed creature's power", CR 608.2h, 113.7a);
    # () : none recorded
    sacrificed: tuple[tuple[str, int], ...] = ()
    # (extension) a permanent that became monstrous (CR 701.37b); a new object is not (CR 400.7)
    monstrous: bool = False
    # (extension) a permanent under an "until end of turn" control-changing effect (CR 613.1b, 611.2a): the
    # player who controls it again as those effects end at cleanup (514.2); None: its control stays
    control_reverts_to: str | None = None
    # (extension) a triggered ability on the stack: the object its trigger event named ("it", "that creature"
    # after "whenever a creature enters / attacks", CR 603.2, 608.2c) — the permanent that entered or attacked;
    # None: none, or that object has changed zones since (CR 400.7: it is a new object the ability can't find)
    event_object: str | None = None
    # (extension) a triggered ability on the stack: the player its trigger event named ("that player" after
    # "deals combat damage to a player", "whenever an opponent casts a spell", CR 603.2, 608.2c)
    event_player: str | None = None
    # (extension) an ability on the stack that is a delayed triggered ability (CR 603.7): the 1-based index of
    # its instruction among ``ability``'s delayed instructions (``ability.index`` 0: the source's spell); 0: not
    delayed: int = 0
    # (extension) a delayed triggered ability on the stack: the object or player its instruction names (the
    # record's ``it``, CR 603.7c); None: none, or gone (400.7)
    it: str | None = None
    # (extension) a modal spell or ability on the stack: the modes chosen as it was cast, activated or put on
    # the stack (CR 700.2a, 601.2b, 603.3c), sorted 1-based mode numbers in printed order; None: not recorded
    modes: tuple[int, ...] | None = None
    # (extension) a card in exile that a player may play for a duration (CR 611.2; :class:`PlayPermission`);
    # None: no such permission
    may_play: PlayPermission | None = None

    @property
    def whole(self) -> Card | None:
        """The card itself (its front face as the database holds it), whichever face it shows."""
        return self.front if self.front is not None else self.card

    @property
    def face(self) -> str | None:
        """The name of the face it shows when not the card's own front (``card``'s), else None."""
        if self.prototyped:
            return None   # the card itself, prototyped (CR 718.3): its own name
        return self.card.name if self.front is not None and self.card is not None else None

    @property
    def name(self) -> str:
        return self.card.name if self.card is not None else f"ability of {self.ability.source if self.ability else '?'}"

    def counter(self, kind: str) -> int:
        return dict(self.counters).get(kind, 0)

    def activated(self, index: int) -> int:
        """How many times its ``index``-th activated ability was activated this turn (CR 602.5b)."""
        return dict(self.activated_this_turn).get(index, 0)

    def with_(self, **kw: Any) -> "GameObject":
        """A copy with the fields ``kw`` changed (``dataclasses.replace`` without its per-call field
        walk: the engine derives objects this way millions of times in a game; no field is derived in
        ``__init__``, so copying the fields is the same object ``replace`` builds)."""
        unknown = kw.keys() - _OBJECT_FIELDS
        if unknown:
            raise TypeError(f"GameObject has no field {sorted(unknown)[0]!r}")
        new = object.__new__(GameObject)
        fields_ = new.__dict__
        fields_.update(self.__dict__)
        fields_.update(kw)
        return new


_OBJECT_FIELDS = frozenset(f.name for f in fields(GameObject))


@dataclass(frozen=True)
class ContinuousEffectEntry:
    """An entry of the situation's ``effects`` list: a resolved spell's effect
    (``card``) or an activated ability's effect (``ability``) still in force.
    ``targets``: (extension) the targets the spell or ability had, when its
    effect refers to them (Giant Growth's +3/+3)."""

    controller: str
    card: Card | None = None
    ability: AbilityRef | None = None
    targets: tuple[tuple[str, ...], ...] | None = None
    order: int = 0
    # (extension) the objects each group effect of the spell or ability affects ("creatures you control get
    # +1/+1 until end of turn"), one list per group effect in printed order, fixed as it began (CR 611.2c)
    affected: tuple[tuple[str, ...], ...] | None = None
    # (extension) the object the triggered ability's event named, when its effect is on it ("it gets +1/+0
    # until end of turn" after "whenever a creature you control attacks", CR 603.2, 611.2a); None once it
    # has changed zones (CR 400.7)
    event_object: str | None = None
    # (extension) a modal spell or ability (CR 700.2): the modes it was cast or activated with, whose effects
    # the entry stands for (solver/rules/modes.py ``selection_effects``); None: not modal
    modes: tuple[int, ...] | None = None
    # (extension) the value of X of its "+X/+X" effects, fixed as it resolved (CR 608.2h); None: none
    x: int | None = None
    # (extension) the color chosen as it resolved for "protection from the color of your choice" (a color
    # letter, CR 105.1, 608.2d, 702.16a); None: none
    color: str | None = None


@dataclass(frozen=True)
class PreventionShield:
    """(extension) A prevention shield from a resolved spell or ability, for this turn (CR 615.1, 615.7):
    prevent the next ``amount`` damage (None: all damage; ``combat_only``: combat damage only) that
    would be dealt to ``to`` (an object or player; None: to anything) by ``source`` (an object; None:
    any source). Ends at cleanup (CR 514.2)."""

    to: str | None = None
    source: str | None = None
    amount: int | None = None
    combat_only: bool = False

    def sort_key(self) -> tuple[str, str, int, bool]:
        """A total order of shields (the situation writes them in it)."""
        return (self.to or "", self.source or "", -1 if self.amount is None else self.amount, self.combat_only)


@dataclass(frozen=True)
class DelayedTrigger:
    """(extension) A delayed triggered ability in force (CR 603.7a): created by instruction ``index``
    (1-based, :func:`solver.core.ir.delayed_in`) of ``source``'s spell (``ability`` 0) or of its
    ``ability``-th triggered or activated ability (contract ``ability`` numbering); ``controller``
    controls it (603.7d). ``step`` ``end``: it triggers as the next end step begins (603.7b);
    ``upkeep``: as the upkeep of a turn after turn ``turn`` begins (``whose`` ``you``: only the
    controller's). It triggers once and is removed (603.7c)."""

    step: str
    controller: str
    source: str
    index: int = 1
    ability: int = 0
    turn: int = 0
    whose: str = "any"
    # the object or player its instruction names, remembered as it was created (its source or a target,
    # CR 603.7c); None: none, or the object has since changed zones (it is a new object, 400.7)
    it: str | None = None

    def sort_key(self) -> tuple[str, str, str, int, int, int, str, str]:
        """A total order of records (the situation writes them in it)."""
        return (self.step, self.controller, self.source, self.ability, self.index, self.turn, self.whose,
                self.it or "")


RestrictedPool: TypeAlias = tuple[tuple[str, Mana, SpendRestriction], ...]


def restricted_pool_of(entries: Any) -> RestrictedPool:
    """Restricted mana in pools (CR 106.6) in its one canonical form: one entry per player and
    restriction (their mana added up), none empty, sorted by player, restriction text, mana."""
    total: dict[tuple[str, SpendRestriction], Mana] = {}
    for pid, m, r in entries:
        total[pid, r] = total.get((pid, r), Mana()) + m
    return tuple(sorted(((pid, m, r) for (pid, r), m in total.items() if m),
                        key=lambda e: (e[0], e[2].describe(), e[1].text)))


@dataclass(frozen=True)
class GameState:
    """A whole situation, validated. Objects are kept in file order per zone."""

    players: tuple[Player, ...]
    turn: Turn
    objects: tuple[GameObject, ...] = ()
    mana_pool: tuple[tuple[str, Mana], ...] = ()
    # (extension) mana in pools under a spending restriction (CR 106.6): (player, mana, restriction),
    # sorted by player, then restriction text, then mana text; kept apart from ``mana_pool``
    restricted_pool: tuple[tuple[str, Mana, SpendRestriction], ...] = ()
    effects: tuple[ContinuousEffectEntry, ...] = ()
    shuffled: tuple[str, ...] = ()
    # (extension) of a library in random order, how many cards on top are known, in the order listed
    # (CR 401.4, 701.24a: "shuffle, then put that card on top"); sorted by player, each count > 0
    known_top: tuple[tuple[str, int], ...] = ()
    name: str | None = None
    description: str | None = None
    rules: tuple[str, ...] = ()
    # (extension) the game's day/night designation (CR 730.1): "day", "night", or None (neither yet)
    day_night: str | None = None
    # (extension) prevention shields in force this turn (CR 615.7), in canonical order (``PreventionShield.sort_key``)
    prevention: tuple[PreventionShield, ...] = ()
    # (extension) delayed triggered abilities in force (CR 603.7), in canonical order (``DelayedTrigger.sort_key``)
    delayed: tuple[DelayedTrigger, ...] = ()
    # the card database the state was loaded with (solver.cards.CardDB; None: the shipped one):
    # what the engine creates by name comes from it. Not part of the state's value.
    card_db: CardSource | None = field(default=None, compare=False, repr=False)
    # what the rules layer derives from the whole state, once (solver/core/memo.py); not part of
    # the state's value: never compared, hashed, copied by ``replace`` or written
    _memo: Memo = field(default_factory=Memo, init=False, compare=False, repr=False)

    # -- lookups ---------------------------------------------------------
    @property
    def player_ids(self) -> tuple[str, ...]:
        return tuple(p.id for p in self.players)

    def player(self, pid: str) -> Player:
        for p in self.players:
            if p.id == pid:
                return p
        raise KeyError(pid)

    def is_player(self, ident: str) -> bool:
        return any(p.id == ident for p in self.players)

    def memo(self, key: str, compute: Callable[[], _T]) -> _T:
        """``compute()``, once per (immutable) state and ``key``: what the rules layer derives from a
        whole state (the object index, its unread parts, the events a resolution can cause …)."""
        return self._memo.get(key, compute)

    def _by_id(self) -> dict[str, GameObject]:
        """Objects by id, built once per (immutable) state: lookups are O(1) on big boards."""
        index: dict[str, GameObject] | None = self._memo.values.get("_index")  # type: ignore[assignment]
        if index is None:
            index = {}
            for o in self.objects:
                index.setdefault(o.id, o)  # the first, as a linear search would find
            self._memo.values["_index"] = index
        return index

    def obj(self, oid: str) -> GameObject:
        o = self._by_id().get(oid)
        if o is None:
            raise KeyError(oid)
        return o

    def find(self, oid: str) -> GameObject | None:
        return self._by_id().get(oid)

    def zone(self, zone: str, player: str | None = None) -> list[GameObject]:
        """Objects in ``zone`` (for the battlefield: controlled by ``player``; elsewhere owned), in order."""
        out = [o for o in self.objects if o.zone == zone and (
            player is None or (o.controller if zone == "battlefield" else o.owner) == player)]
        if zone in ("stack", "library"):
            out.sort(key=lambda o: o.order)
        return out

    @property
    def battlefield(self) -> list[GameObject]:
        return [o for o in self.objects if o.zone == "battlefield"]

    def opponents(self, pid: str) -> tuple[str, ...]:
        return tuple(p.id for p in self.players if p.id != pid)

    def pool(self, pid: str) -> Mana:
        return dict(self.mana_pool).get(pid, Mana())

    def restricted_mana(self, pid: str) -> tuple[tuple[Mana, SpendRestriction], ...]:
        """The mana in ``pid``'s pool under spending restrictions (CR 106.6), with each restriction."""
        return tuple((m, r) for p, m, r in self.restricted_pool if p == pid)

    @property
    def priority(self) -> str:
        return self.turn.priority or self.turn.active

    def key(self) -> StateKey:
        """A canonical hashable value of the situation this state denotes (built once per state).

        Two states have equal keys exactly when they are the same situation (contract §1): the same
        players, turn, objects in each zone list in the same order, pools, effects in force and
        ``shuffled`` marks — whatever the representation (the order of the ``objects`` tuple, the
        ``order`` numbers beyond their relative order within a zone list, the order of counters,
        choices, pools and ``shuffled`` marks, an unset ``priority`` and the active player's).  The
        engine identifies and merges the outcomes of a change by it (CR 608, 704.3, 117.4: two
        ways to reach one situation are one outcome).  It is an identity, not an order: the
        canonical order of outcomes shown to users is the edge's (``queries``/``api``)."""
        return self.memo("state.key", self._key)

    def _key(self) -> StateKey:
        groups: dict[tuple[str, str], list[GameObject]] = {}
        for o in self.objects:
            holder = "" if o.zone == "stack" else (o.controller if o.zone == "battlefield" else o.owner)
            groups.setdefault((o.zone, holder), []).append(o)
        rank = {pid: i for i, pid in enumerate(self.player_ids)}
        zone_rank = {z: i for i, z in enumerate(ZONES)}
        lists = tuple((zone, holder, tuple(_object_key(o) for o in sorted(objs, key=lambda o: o.order)))
                      for (zone, holder), objs in sorted(groups.items(), key=lambda kv: (
                          zone_rank.get(kv[0][0], len(zone_rank)), rank.get(kv[0][1], len(rank)), kv[0][1])))
        t = self.turn
        turn = (t.number, t.active, t.step, t.priority if t.priority and t.priority != t.active else "",
                t.lands_played, t.passed, t.spells_cast, t.extra_turns, t.skip_combat, t.history)
        pools = tuple(sorted({pid: m.text for pid, m in self.mana_pool if m}.items()))
        effects = tuple((e.controller, e.card, e.ability, e.targets, e.affected, e.event_object, e.modes, e.x, e.color)
                        for e in sorted(self.effects, key=lambda e: e.order))
        restricted = tuple((pid, m.text, r) for pid, m, r in self.restricted_pool)
        return (self.players, turn, lists, pools, restricted, effects, tuple(sorted(set(self.shuffled))), self.known_top,
                self.name,
                self.description, self.rules, self.day_night,
                tuple(sorted(self.prevention, key=PreventionShield.sort_key)),
                tuple(sorted(self.delayed, key=DelayedTrigger.sort_key)))

    def replace_objects(self, objects: list[GameObject] | tuple[GameObject, ...]) -> "GameState":
        return replace(self, objects=tuple(objects))

    def with_(self, **kw: Any) -> "GameState":
        return replace(self, **kw)


def _status_key(items: tuple[tuple[str, Any], ...]) -> tuple[tuple[str, Any], ...]:
    """Status keys (an object's or its last known information's) as a canonical value: maps
    (counters, chosen values) without their order."""
    out = []
    for k, v in items:
        if k in ("counters", "chosen") and isinstance(v, tuple):
            v = tuple(sorted(dict(v).items()))
        out.append((k, v))
    return tuple(sorted(out, key=lambda kv: kv[0]))


def _object_key(o: GameObject) -> tuple[Hashable, ...]:
    """One object of a zone list as a canonical value (its zone and position are the list's)."""
    return (o.id, o.card, o.ability, o.owner, o.controller, o.tapped, o.sick, tuple(sorted(dict(o.counters).items())),
            o.damage, o.attached_to, o.token, o.conjured, tuple(sorted(dict(o.chosen).items())), o.x, o.targets,
            o.copy, _status_key(o.last_known), o.timestamp, tuple(sorted(dict(o.activated_this_turn).items())),
            o.entered_this_turn, o.skip_untap, o.exile_if_dies, o.commander, o.attacking, o.blocking, o.blocked, o.refers_to,
            o.front, o.melded_with, o.on_adventure, o.prototyped, o.cast_with, o.regeneration_shields, o.kicked, o.buyback,
            o.casualty, o.cast_before, o.sacrificed, o.monstrous, o.control_reverts_to, o.exiled_until, o.exiled_by, o.event_object, o.event_player, o.delayed, o.it,
            o.modes, o.may_play)


def opponent_lost_life(state: GameState, player: str) -> bool | None:
    """CR 702.137a (spectacle): did an opponent of ``player`` lose life this turn? From the
    players' ``life_lost_this_turn``; None when no opponent is recorded as having lost life
    and some opponent's is not recorded (the answer is unknown)."""
    opps = [p for p in state.players if p.id != player and not p.lost]
    if any((p.life_lost_this_turn or 0) > 0 for p in opps):
        return True
    if any(p.life_lost_this_turn is None for p in opps):
        return None
    return False

"""The intermediate representation of card behaviour.

Every card's abilities are expressed as frozen, hashable dataclasses from this
module.  The models (``models/``) and the rules code consume only this
representation, never Oracle text; the hand-written library
(``solver/cards/library.py``) and the Oracle-text reader both produce it.

Anything a card says that this representation cannot express is kept as an
:class:`Unsupported` part, so it is reported (``mtgsolve cards show``) and never
silently dropped.

Vocabulary
----------
* A :class:`Selector` names a set of objects/players relative to an ability's
  controller ("lands you control", "a land an opponent controls", "enchanted
  creature", "this permanent").
* A :class:`Filter` is a targeting criterion (CR 115): which objects or players
  a target slot accepts.
* A :class:`Ref` points, inside an effect, at a target slot, the source, the
  enchanted object, the controller, …
* An :data:`Effect` is one instruction of a resolving spell or ability (CR 608.2c):
  one small frozen dataclass per kind (:class:`Damage`, :class:`Destroy`,
  :class:`Pump`, … :class:`UnreadEffect`), each holding only its own fields; the
  resolution engine dispatches on the class. ``kind`` is a read-only class-level
  name of the kind (``"damage"``, ``"unread"``, …) for descriptions and messages.
* The other families are sum types the same way — one small frozen dataclass per kind
  under a common base, dispatched on by class, with a read-only class-level ``kind``:
  :class:`Static` (static abilities, CR 604, 613: :class:`SetLandTypes`,
  :class:`StaticPump`, :class:`CantBlock`, … in :mod:`solver.core.statics`),
  :class:`ActivationCondition` (CR 602.5b, 611.3a: :class:`ControlCount`,
  :class:`YourTurn`, … in :mod:`solver.core.conditions`), :class:`Produce` and
  :class:`ManaRider` (CR 106, 605: :class:`FixedMana`, :class:`AnyColor`, …,
  :class:`DrawRider`, … in :mod:`solver.core.production`), and, here,
  :class:`CastingRule`, :class:`CastingOption` and :class:`Trigger` (its class-level name
  is ``event``). Every class is importable from this module.
"""
from __future__ import annotations

from dataclasses import dataclass, field, fields, replace
from typing import TYPE_CHECKING, Any, ClassVar, Sequence, Union, get_args

from .mana import ManaCost, Mana
from .selectors import *  # noqa: F401,F403  (selectors, filters, target specs, references, counts)
from .conditions import *  # noqa: F401,F403  (the condition kinds, CR 602.5b: one class per kind)
from .production import *  # noqa: F401,F403  (mana production and riders, CR 106, 605: one class per kind)
from .production import describe_spell_filter
from .statics import *  # noqa: F401,F403  (the static kinds, CR 604: one class per kind)
from .statics import STATIC_CLASSES as _STATICS_OF_THEIR_MODULE, AffectingStatic

if TYPE_CHECKING:
    from _typeshed import DataclassInstance

#: What an unread part could change (contract §2.0): ``costs`` (CR 601.2f), ``targets``
#: (CR 115, 702.11, 702.16, 702.18), ``timing`` (CR 117, 305, 601.3, 602.5), ``mana``
#: (CR 106, 605), ``replacement`` (CR 614, 615), ``triggers`` (CR 603), ``effect`` (what
#: happens on resolution), ``characteristics`` (CR 613), ``combat`` (CR 506–511), ``unknown``.
AFFECTS: tuple[str, ...] = ("costs", "targets", "timing", "mana", "replacement", "triggers", "effect",
                            "characteristics", "combat", "unknown")

# --------------------------------------------------------------------------
# Selectors, filters, references
# --------------------------------------------------------------------------

# --------------------------------------------------------------------------
# The one static that holds an ability of the IR (its other kinds: solver/core/statics.py)
# --------------------------------------------------------------------------

@dataclass(frozen=True)
class Grant(AffectingStatic):
    """``affected`` have ``granted`` (an ability-adding effect, layer 6, CR 613.1f)."""

    kind: ClassVar[str] = "grant"
    granted: "Ability | None" = None   # the Ability union, below

    def _text(self) -> str:
        return f"static (layer 6): {self._a} have [{self.granted.describe() if self.granted else ''}]"



@dataclass(frozen=True)
class CharacteristicDefining(Static):
    """A characteristic-defining ability of the object itself (CR 604.3), which functions in every
    zone (604.3, 113.6a): ``colors`` — the object's colors are exactly these (devoid, CR 702.114a,
    and "~ is colorless": ``frozenset()``; "~ is all colors": all five; "~ is <color>"; layer 5,
    613.1e, applied first in its layer, 613.3); None: it defines no color. ``every_creature_type``
    — the object is every creature type (changeling, CR 702.73a; "~ is every creature type",
    205.3m; layer 4, 613.1d). The card data's colors, when it gives them, already hold its effect
    (:func:`solver.rules.characteristics.printed_colors`)."""

    kind: ClassVar[str] = "characteristic_defining"
    colors: frozenset[str] | None = None
    every_creature_type: bool = False

    def _text(self) -> str:
        what = []
        if self.colors is not None:
            what.append("/".join(c for c in "WUBRG" if c in self.colors) or "colorless")
        if self.every_creature_type:
            what.append("every creature type")
        return f"characteristic-defining (CR 604.3, every zone): this object is {' and '.join(what)}"


@dataclass(frozen=True)
class DefinedPT(Static):
    """A characteristic-defining ability setting the object's own ``power`` and/or ``toughness``
    (CR 604.3, 208.2a: "This creature's power is equal to the number of creatures you control",
    "~'s power and toughness are each equal to the number of lands you control"), in every zone
    (604.3), applied in layer 7a (613.4a) before setting (7b) and modifying (7c) effects. Each is a
    :class:`Count` needing no power, toughness or ability of any permanent (the number of permanents
    of a description, of cards of a type in the controller's graveyard, the controller's life);
    None: that characteristic is the printed one."""

    kind: ClassVar[str] = "defined_pt"
    power: "Count | None" = None
    toughness: "Count | None" = None

    def _text(self) -> str:
        parts = [f"{n} = {v.describe()}" for n, v in (("power", self.power), ("toughness", self.toughness))
                 if v is not None]
        return "characteristic-defining (CR 604.3, layer 7a): " + ", ".join(parts)


STATIC_CLASSES: tuple[type[Static], ...] = _STATICS_OF_THEIR_MODULE + (Grant, CharacteristicDefining, DefinedPT)


# --------------------------------------------------------------------------
# Costs
# --------------------------------------------------------------------------


@dataclass(frozen=True)
class Cost:
    """An activation cost (CR 118, 602.1a).

    ``mana``: mana symbols; ``tap``: {T} (CR 107.5); ``untap``: {Q} (CR 107.6);
    ``life``: pay N life; ``sacrifice_self``; ``sacrifice``: sacrifice one
    permanent matching the selector ("Sacrifice a land"); ``remove_counters``:
    (counter, n) from this permanent; ``tap_other_creatures``: tap N untapped
    creatures you control (not restricted by summoning sickness).
    ``remove_x_counters``: (counter, least X) — remove X counters of that kind
    from this permanent, X chosen on activation (CR 107.3a; "Remove any number
    of storage counters": least 0, "one or more": least 1); only on mana
    abilities, whose production reads X through ``Count(what="x")``.
    ``tap_selector``: which untapped permanents ``tap_other_creatures`` taps
    ("Tap three untapped Elves you control"; None: creatures you control); with
    no {T} in the cost the source may be one of them (tapping for a cost other
    than {T} ignores summoning sickness, CR 302.6). ``put_counters``:
    (counter, n) put on this permanent as a cost ("Put a -0/-1 counter on this
    creature", CR 118.1). ``discard_hand``: "Discard your hand" (CR 701.9).
    """

    mana: ManaCost = ManaCost()
    tap: bool = False
    untap: bool = False
    life: int = 0
    sacrifice_self: bool = False
    sacrifice: Selector | None = None
    remove_counters: tuple[str, int] | None = None
    tap_other_creatures: int = 0
    remove_x_counters: tuple[str, int] | None = None
    loyalty: int | None = None  # a loyalty ability's cost (CR 606.4): +N puts, -N removes loyalty counters
    tap_selector: Selector | None = None
    put_counters: tuple[str, int] | None = None
    discard_hand: bool = False
    discard_self: bool = False  # "Discard this card" (CR 701.9): the ability works from the hand (CR 113.6k)
    return_: Selector | None = None  # "Return an Elf you control to its owner's hand" (non-mana abilities)
    exile_self: bool = False  # "Exile this artifact" (CR 406.2): the permanent is exiled as the cost
    # "Discard a card", "Discard two cards", "Discard a land card" (CR 701.9a, 602.2b): N cards of the
    # hand, chosen as the cost is paid (``discard_type``: a card type they all have, "" any card)
    discard: int = 0
    discard_type: str = ""
    # "Exile a creature card from your graveyard", "Exile two cards from your graveyard" (CR 406.2,
    # 601.2h): N cards of the activating player's graveyard (``exile_graveyard_type``: a card type)
    exile_graveyard: int = 0
    exile_graveyard_type: str = ""
    # "Sacrifice another creature or artifact": the one permanent sacrificed fits any of these
    # selectors (CR 701.21a; ``sacrifice`` is None then); with ``sacrifice_count`` ("Sacrifice two
    # Foods", only in a cost without mana) that many permanents, each fitting one of them
    sacrifice_any: tuple[Selector, ...] = ()
    sacrifice_count: int = 0
    # "Crew N" (CR 702.122a): "Tap any number of other untapped creatures you control with total power N
    # or greater" — the N
    crew: int = 0
    # "Return this creature to its owner's hand" (CR 602.2b, 601.2h): the permanent is returned as the cost
    return_self: bool = False

    def describe(self) -> str:
        parts = []
        if self.loyalty is not None:
            parts.append(f"[{'+' if self.loyalty > 0 else ''}{self.loyalty}]".replace("-", "−"))
        if self.mana:
            parts.append(self.mana.text)
        if self.tap:
            parts.append("{T}")
        if self.untap:
            parts.append("{Q}")
        if self.life:
            parts.append(f"Pay {self.life} life")
        if self.sacrifice_self:
            parts.append("Sacrifice this permanent")
        if self.sacrifice is not None:
            parts.append(f"Sacrifice a {self.sacrifice.describe().rstrip('s').replace('s you control', '')}")
        if self.remove_counters:
            parts.append(f"Remove {self.remove_counters[1]} {self.remove_counters[0]} counter(s) from this permanent")
        if self.tap_other_creatures:
            what = "creature(s) you control" if self.tap_selector is None else self.tap_selector.describe()
            parts.append(f"Tap {self.tap_other_creatures} untapped {what}")
        if self.put_counters:
            parts.append(f"Put {self.put_counters[1]} {self.put_counters[0]} counter(s) on this permanent")
        if self.discard_hand:
            parts.append("Discard your hand")
        if self.discard_self:
            parts.append("Discard this card")
        if self.exile_self:
            parts.append("Exile this permanent")
        if self.return_ is not None:
            parts.append(f"Return a {self.return_.describe().rstrip('s').replace('s you control', '')} "
                         "to its owner's hand")
        if self.discard:
            kind = f"{self.discard_type.lower()} " if self.discard_type else ""
            parts.append(f"Discard {self.discard} {kind}card(s)")
        if self.exile_graveyard:
            kind = f"{self.exile_graveyard_type.lower()} " if self.exile_graveyard_type else ""
            parts.append(f"Exile {self.exile_graveyard} {kind}card(s) from your graveyard")
        if self.sacrifice_any:
            many = f"{self.sacrifice_count} " if self.sacrifice_count > 1 else ""
            parts.append(f"Sacrifice {many}" + " or ".join(s.describe() for s in self.sacrifice_any))
        if self.return_self:
            parts.append("Return this permanent to its owner's hand")
        if self.crew:
            parts.append(f"Tap any number of other untapped creatures you control with total power {self.crew} "
                         "or greater")
        if self.remove_x_counters:
            parts.append(f"Remove X {self.remove_x_counters[0]} counters from this permanent "
                         f"(X at least {self.remove_x_counters[1]})")
        return ", ".join(parts) or "{0}"


# --------------------------------------------------------------------------
# Mana production (CR 106, 605)
# --------------------------------------------------------------------------


# --------------------------------------------------------------------------
# Effects (what spells and abilities do when they resolve, CR 608)
# --------------------------------------------------------------------------


@dataclass(frozen=True)
class _EffectBase:
    """What every effect kind shares: ``optional`` marks "you may" (CR 608.2d), and ``kind``, a
    class-level name of the kind (read-only; the resolution engine dispatches on the class)."""

    kind: ClassVar[str] = ""
    optional: bool = field(default=False, kw_only=True)

    def describe(self) -> str:
        return ("you may: " if self.optional else "") + self._text()

    def _text(self) -> str:
        return self.kind


def _ref_text(r: Ref | None) -> str:
    return r.describe() if r else ""


@dataclass(frozen=True)
class Damage(_EffectBase):
    """``amount`` damage to ``to`` (CR 120)."""

    kind: ClassVar[str] = "damage"
    to: Ref
    amount: Amount

    def _text(self) -> str:
        return f"{describe_amount(self.amount)} damage to {_ref_text(self.to)}"


@dataclass(frozen=True)
class IfDealtDamage(_EffectBase):
    """"<Source> deals N damage to any target. If a player is dealt damage this way, scry 1." (Play with Fire):
    ``damage``, then ``then`` only if a player was dealt damage by it (CR 608.2c: an instruction reads the
    result of an earlier one; damage prevented or not dealt is not dealt, 120.8, 615.1)."""

    kind: ClassVar[str] = "if_dealt_damage"
    damage: Damage
    then: tuple["Effect", ...] = ()

    def _text(self) -> str:
        return f"{self.damage.describe()}; if a player is dealt damage this way: " + \
            "; ".join(e.describe() for e in self.then)


@dataclass(frozen=True)
class Destroy(_EffectBase):
    """Destroy ``to`` (CR 701.8); ``cant_be_regenerated``: "It can't be regenerated" (CR 701.15b: no
    regeneration shield applies to that destruction)."""

    kind: ClassVar[str] = "destroy"
    to: Ref
    cant_be_regenerated: bool = False

    def _text(self) -> str:
        return f"destroy {_ref_text(self.to)}" + (" (it can't be regenerated)" if self.cant_be_regenerated else "")


@dataclass(frozen=True)
class Pump(_EffectBase):
    """``to`` gets +``power``/+``toughness`` (and ``keywords``) until end of turn (CR 611.2a, 613.4c)."""

    kind: ClassVar[str] = "pump"
    to: Ref
    power: int = 0
    toughness: int = 0
    keywords: tuple[str, ...] = ()
    # "+X/+X": ``power``/``toughness`` are multiples of X, the amount ``x`` (the spell's X, "X", or a count:
    # "where X is the number of creatures you control"), fixed as it resolves (CR 608.2h; the entry's ``x``)
    x: "Amount | None" = None
    # "gains protection from the color of your choice until end of turn": protection from one color (CR
    # 702.16a, 105.1) its controller chooses as it resolves (608.2d; the entry's ``color``)
    chosen_protection: bool = False

    def _text(self) -> str:
        if self.chosen_protection:
            return f"{_ref_text(self.to)} gains protection from the color of your choice until end of turn"
        kw = (" and gains " + ", ".join(self.keywords)) if self.keywords else ""
        return f"{_ref_text(self.to)} gets {_pt_text(self.power, self.toughness, self.x)}{kw} until end of turn"


def _pt_text(p: int, q: int, x: "Amount | None") -> str:
    """"+2/+2", or "+X/+0 (X = the number of …)" for a pump of X (CR 608.2h)."""
    if x is None:
        return f"{p:+d}/{q:+d}"
    side = {1: "+X", -1: "-X", 0: "+0"}
    return f"{side.get(p, p)}/{side.get(q, q)} (X = {describe_amount(x)}, fixed as it resolves)"


@dataclass(frozen=True)
class Fight(_EffectBase):
    """``to`` fights ``other`` (CR 701.14)."""

    kind: ClassVar[str] = "fight"
    to: Ref
    other: Ref

    def _text(self) -> str:
        return f"{_ref_text(self.to)} fights {_ref_text(self.other)}"


@dataclass(frozen=True)
class Draw(_EffectBase):
    """The controller (or the players ``to`` names) draws ``amount`` cards (CR 121)."""

    kind: ClassVar[str] = "draw"
    amount: Amount
    to: Ref | None = None

    def _text(self) -> str:
        return (f"{_ref_text(self.to)} draws " if self.to else "draw ") + f"{describe_amount(self.amount)} card(s)"


@dataclass(frozen=True)
class Mill(_EffectBase):
    """The controller (or the players ``to`` names) mills ``amount`` cards (CR 701.17)."""

    kind: ClassVar[str] = "mill"
    amount: Amount
    to: Ref | None = None

    def _text(self) -> str:
        return (f"{_ref_text(self.to)} mills " if self.to else "mill ") + f"{describe_amount(self.amount)} card(s)"


@dataclass(frozen=True)
class ExileTopPlayable(_EffectBase):
    """The controller exiles the top ``amount`` cards of their library (CR 406.3) and may play them until
    ``until`` (CR 611.2a: a continuous effect from a resolving spell or ability; 601.2a, 305.1): "Exile the
    top two cards of your library. Until the end of your next turn, you may play those cards." ``until``:
    ``end_of_turn`` ("this turn", "until end of turn", CR 514.2) or ``end_of_next_turn``; ``spells_only``:
    "you may cast" (a land can't be cast, CR 305.9). Each exiled card records the permission (object key
    ``may_play``, :class:`solver.core.state.PlayPermission`)."""

    kind: ClassVar[str] = "exile_top_playable"
    amount: Amount
    until: str = "end_of_turn"
    spells_only: bool = False

    def _text(self) -> str:
        until = "this turn" if self.until == "end_of_turn" else "until the end of your next turn"
        verb = "cast" if self.spells_only else "play"
        return f"exile the top {describe_amount(self.amount)} card(s) of your library; you may {verb} them {until}"


@dataclass(frozen=True)
class Discard(_EffectBase):
    """The controller (or each player ``to`` names: "target player", "each opponent", "each
    player") discards ``amount`` cards of their choice (CR 701.9a: from their hand to their
    graveyard; 701.9b: all of them when the hand holds fewer; the discarding player chooses, CR
    701.9b). Resolution gives one outcome per distinct choice (interchangeable cards are one)."""

    kind: ClassVar[str] = "discard"
    amount: Amount
    to: Ref | None = None  # the players who discard ("target player", "each opponent"); None: the controller

    def _text(self) -> str:
        return (f"{_ref_text(self.to)} discards " if self.to else "discard ") + f"{describe_amount(self.amount)} card(s)"


@dataclass(frozen=True)
class GainLife(_EffectBase):
    """The controller (or the players ``to`` names) gains ``amount`` life (CR 119.3)."""

    kind: ClassVar[str] = "gain_life"
    amount: Amount
    to: Ref | None = None

    def _text(self) -> str:
        return (f"{_ref_text(self.to)} gains " if self.to else "gain ") + f"{describe_amount(self.amount)} life"


@dataclass(frozen=True)
class LoseLife(_EffectBase):
    """The players ``to`` names lose ``amount`` life (CR 119.3)."""

    kind: ClassVar[str] = "lose_life"
    to: Ref
    amount: Amount

    def _text(self) -> str:
        return f"{_ref_text(self.to)} loses {describe_amount(self.amount)} life"


@dataclass(frozen=True)
class ItsControllerGainsLife(_EffectBase):
    """"Its controller gains life equal to its power." (Swords to Plowshares): the controller of
    ``of`` (a target removed by the instruction before, as it last existed on the battlefield, CR
    608.2h, 113.7a) gains life equal to its ``stat`` then — ``power``, ``toughness`` ("equal to its
    toughness", Condemn) or ``mana_value`` (CR 202.3) — or ``fixed`` life ("Its controller gains 3
    life", Oust) (CR 119.3; none for 0 or less)."""

    kind: ClassVar[str] = "its_controller_gains_life"
    of: Ref
    stat: str = "power"
    fixed: int | None = None

    def _text(self) -> str:
        if self.fixed is not None:
            return f"the controller of {_ref_text(self.of)} gains {self.fixed} life"
        return f"the controller of {_ref_text(self.of)} gains life equal to its {self.stat.replace('_', ' ')}"


@dataclass(frozen=True)
class GainLifeEqualTo(_EffectBase):
    """"You gain life equal to its mana value / power / toughness." (Divine Offering): the controller
    gains life equal to ``stat`` of ``of`` — a target removed by the instruction before — as it last
    existed on the battlefield (CR 608.2h, 113.7a; 119.3: none for 0 or less)."""

    kind: ClassVar[str] = "gain_life_equal_to"
    of: Ref
    stat: str

    def _text(self) -> str:
        return f"gain life equal to the {self.stat.replace('_', ' ')} of {_ref_text(self.of)}"


@dataclass(frozen=True)
class PutInLibrary(_EffectBase):
    """Put ``to`` (a permanent) into its owner's library ``position`` cards from the top — 0 "on top
    of its owner's library", 1 "second from the top", 2 "third from the top" — or on the bottom
    (``position`` -1): a zone change (CR 400.7; 401.4: a library holding fewer cards takes it at its
    bottom). A token put there ceases to exist (CR 111.8, 704.5d)."""

    kind: ClassVar[str] = "put_in_library"
    to: Ref
    position: int

    def _text(self) -> str:
        where = "on the bottom" if self.position < 0 else \
            ("on top" if self.position == 0 else f"{('second', 'third', 'fourth', 'fifth')[self.position - 1]} from the top")
        return f"put {_ref_text(self.to)} into its owner's library {where}"


@dataclass(frozen=True)
class ShuffleSelfIntoLibrary(_EffectBase):
    """"Shuffle <this spell> into its owner's library." (Green Sun's Zenith): the resolving spell
    card goes from the stack to its owner's library, which is then shuffled (CR 701.24a, 608.2n: it
    is no longer on the stack to be put into the graveyard)."""

    kind: ClassVar[str] = "shuffle_self_into_library"

    def _text(self) -> str:
        return "shuffle this card into its owner's library"


@dataclass(frozen=True)
class Wheel(_EffectBase):
    """"Each player shuffles their hand and graveyard into their library, then draws ``draw``
    cards." (Timetwister): each player in turn order puts the cards of their hand and graveyard
    into their library and shuffles it (CR 701.24a), then each draws (CR 121; a draw from the
    shuffled library is a chance outcome)."""

    kind: ClassVar[str] = "wheel"
    draw: int

    def _text(self) -> str:
        return f"each player shuffles their hand and graveyard into their library, then draws {self.draw} cards"


@dataclass(frozen=True)
class RevealTopToHand(_EffectBase):
    """"Defending player reveals the top card of their library. If it's a <quality> card, that player
    puts it into their hand." (Goblin Guide): the player ``to`` names reveals the top card of their
    library (CR 701.20a) and puts it into their hand if it has ``quality`` (not a draw, CR 121.1);
    otherwise it stays on top. From a library in random order the card revealed is a chance outcome."""

    kind: ClassVar[str] = "reveal_top_to_hand"
    to: Ref
    quality: Filter | None

    def _text(self) -> str:
        return (f"{_ref_text(self.to)} reveals the top card of their library; if it's "
                f"{describe_library_card(self.quality)}, they put it into their hand")


@dataclass(frozen=True)
class GraveyardToBottom(_EffectBase):
    """"<player> puts all the cards from their graveyard on the bottom of their library in a random
    order." (Endurance): the cards of ``to``'s graveyard go under their library in a random order
    (CR 401.4 does not apply: no player chooses it). A random event: one chance outcome per distinct
    order of those cards (interchangeable cards are one), or — onto an empty library — one outcome,
    the library in random order (``shuffled``)."""

    kind: ClassVar[str] = "graveyard_to_bottom"
    to: Ref

    def _text(self) -> str:
        return f"{_ref_text(self.to)} puts all the cards from their graveyard on the bottom of their library in a random order"


@dataclass(frozen=True)
class ItsControllerInvestigates(_EffectBase):
    """"Its controller investigates." (Fateful Absence): the controller of ``of`` (as it last
    existed on the battlefield, CR 608.2h) creates a Clue token (CR 701.16a, 111.2: under their
    control)."""

    kind: ClassVar[str] = "its_controller_investigates"
    of: Ref

    def _text(self) -> str:
        return f"the controller of {_ref_text(self.of)} investigates"


@dataclass(frozen=True)
class LookAtHand(_EffectBase):
    """Look at ``to``'s hand: no change to the game (the hand is a hidden zone, CR 400.2)."""

    kind: ClassVar[str] = "look_hand"
    to: Ref

    def _text(self) -> str:
        return f"look at {_ref_text(self.to)}'s hand"


@dataclass(frozen=True)
class CreateTokens(_EffectBase):
    """Create ``amount`` tokens described by ``token`` (a card mapping as ``(key, value)`` pairs, its
    ``text`` the token's abilities — a predefined token's, CR 111.10; CR 701.7, 111.2: the
    controller of the effect creates them under their control), ``tapped`` when the effect says so
    (CR 110.5b: it enters tapped). ``attacking`` (CR 508.4, 506.3): "that's / that are tapped and
    attacking" — ``chosen``: each attacks a defending player or a planeswalker one controls, as its
    controller chooses; ``each_opponent`` / ``each_opponent_or_planeswalker``: "for each opponent, create
    … tapped and attacking that player [or a planeswalker they control]" — ``amount`` tokens per opponent,
    each attacking that player (or one of their planeswalkers); "" : not attacking."""

    kind: ClassVar[str] = "tokens"
    amount: Amount
    token: tuple[tuple[str, object], ...]
    tapped: bool = False
    # "…, then attach this Equipment to it" (living weapon, CR 702.92a): the source, if still on the
    # battlefield, is attached to the token created (CR 701.3a)
    attach_source: bool = False
    # an X/X token: its power and toughness as the effect resolves — "where X is that spell's mana value"
    # (CR 107.3, 202.3): a Ref to the spell (still on the stack, X included); "X": the ability's X (a cycle
    # trigger's, the X paid for the cycling cost, CR 702.29c)
    size: "Ref | str | None" = None
    attacking: str = ""

    def _text(self) -> str:
        attacking = {"chosen": " attacking", "each_opponent": " attacking each opponent (one set each)",
                     "each_opponent_or_planeswalker": " attacking each opponent or a planeswalker they control "
                                                      "(one set each)"}.get(self.attacking, "")
        return (f"create {describe_amount(self.amount)} {'tapped ' if self.tapped else ''}"
                f"{dict(self.token).get('name', 'token')} token(s){attacking}"
                + (", then attach this permanent to it" if self.attach_source else ""))


@dataclass(frozen=True)
class ReturnToBattlefield(_EffectBase):
    """Put ``to`` (a card in a graveyard) onto the battlefield under its owner's control (CR 400.7)."""

    kind: ClassVar[str] = "return_to_battlefield"
    to: Ref

    def _text(self) -> str:
        return f"return {_ref_text(self.to)} to the battlefield"


@dataclass(frozen=True)
class Exile(_EffectBase):
    """Move ``to`` (a permanent, or a card in a graveyard) to its owner's exile (CR 406, 701.13)."""

    kind: ClassVar[str] = "exile"
    to: Ref
    # "exile … until this permanent leaves the battlefield" (CR 610.3): returned as the source leaves
    until_source_leaves: bool = False

    def _text(self) -> str:
        until = " until this leaves the battlefield" if self.until_source_leaves else ""
        return f"exile {_ref_text(self.to)}{until}"


@dataclass(frozen=True)
class CounterSpell(_EffectBase):
    """Counter ``to``, a spell (CR 701.6a: to its owner's graveyard; a copy ceases to exist); with
    ``mv_max``, only if its mana value is that or less as the instruction happens ("Counter target spell if
    its mana value is 2 or less", CR 608.2c, 202.3: a spell's X counts on the stack); ``instead``: where the
    countered spell goes instead of its owner's graveyard — ``exile`` ("If that spell is countered this way,
    exile it instead of putting it into its owner's graveyard.") or ``hand`` ("… put it into its owner's
    hand instead of into that player's graveyard."): a replacement effect of the resolving spell on its own
    countering (CR 614.1a, 701.6a); "" none."""

    kind: ClassVar[str] = "counter"
    to: Ref
    mv_max: int | None = None
    instead: str = ""

    def _text(self) -> str:
        cond = f" if its mana value is {self.mv_max} or less" if self.mv_max is not None else ""
        return f"counter {_ref_text(self.to)}{cond}{_instead_text(self.instead)}"


@dataclass(frozen=True)
class CounterUnlessPays(_EffectBase):
    """Counter ``to``, a spell, unless its controller pays ``mana`` (CR 701.6a, 118.12: "[do
    something] unless [a player pays]" — as it resolves, that player chooses to pay or not; mana
    abilities may be activated to pay, CR 605.3a). Resolution gives one outcome where the player
    declines (the spell is countered unless it can't be, CR 101.2) and one per distinct payment;
    ``instead`` as :class:`CounterSpell`'s (CR 614.1a)."""

    kind: ClassVar[str] = "counter_unless"
    to: Ref
    mana: ManaCost
    instead: str = ""

    def _text(self) -> str:
        return f"counter {_ref_text(self.to)} unless its controller pays {self.mana}{_instead_text(self.instead)}"


def _instead_text(zone: str) -> str:
    """The words :class:`CounterSpell` and :class:`CounterUnlessPays` add for their ``instead`` rider."""
    if not zone:
        return ""
    where = "exiled" if zone == "exile" else "put into its owner's hand"
    return f"; if countered this way, it is {where} instead of going to its owner's graveyard"


@dataclass(frozen=True)
class SkipUntap(_EffectBase):
    """``to`` doesn't untap during its controller's next untap step (CR 502.3; object key ``skip_untap``)."""

    kind: ClassVar[str] = "skip_untap"
    to: Ref

    def _text(self) -> str:
        return f"{_ref_text(self.to)} doesn't untap during its controller's next untap step"


@dataclass(frozen=True)
class ReturnToHand(_EffectBase):
    """Move ``to`` (a permanent, or a card in a graveyard) to its owner's hand (CR 400.7)."""

    kind: ClassVar[str] = "return_to_hand"
    to: Ref

    def _text(self) -> str:
        return f"return {_ref_text(self.to)} to its owner's hand"


@dataclass(frozen=True)
class Untap(_EffectBase):
    """Untap ``to`` (CR 701.26b)."""

    kind: ClassVar[str] = "untap"
    to: Ref

    def _text(self) -> str:
        return f"untap {_ref_text(self.to)}"


@dataclass(frozen=True)
class Tap(_EffectBase):
    """Tap ``to`` (CR 701.26a)."""

    kind: ClassVar[str] = "tap"
    to: Ref

    def _text(self) -> str:
        return f"tap {_ref_text(self.to)}"


@dataclass(frozen=True)
class PutCounters(_EffectBase):
    """Put ``amount`` ``counter`` counters on ``to`` (CR 122.1)."""

    kind: ClassVar[str] = "counters"
    to: Ref
    amount: Amount
    counter: str

    def _text(self) -> str:
        return f"put {describe_amount(self.amount)} {self.counter} counter(s) on {_ref_text(self.to)}"


@dataclass(frozen=True)
class Conjure(_EffectBase):
    """Conjure ``amount`` cards named ``card`` into ``zone`` (then shuffle if ``shuffle``): a digital
    keyword action, not in the CR (rules §1.12)."""

    kind: ClassVar[str] = "conjure"
    amount: Amount
    card: str
    zone: str
    shuffle: bool = False

    def _text(self) -> str:
        return (f"conjure {describe_amount(self.amount)} {self.card} into {self.zone}"
                + (", then shuffle" if self.shuffle else ""))


@dataclass(frozen=True)
class UntilEndOfTurn(_EffectBase):
    """Create ``granted`` (a static or replacement ability) until end of turn: a continuous effect
    from a resolving spell or ability (CR 611.2a)."""

    kind: ClassVar[str] = "continuous"
    granted: "Ability"

    def _text(self) -> str:
        return f"until end of turn: {self.granted.describe() if self.granted else ''}"


@dataclass(frozen=True)
class PutFromHand(_EffectBase):
    """The controller puts a card matching ``quality`` (a :class:`Filter` read as a search's: types any
    of, subtypes any of, …; None: "a card") from their hand onto the battlefield (``tapped`` when it says
    so) — with ``mv_counters``, one whose mana value (CR 202.3) equals the number of counters of that
    kind on the source ("with mana value equal to the number of charge counters on this artifact").
    "You may" (``optional``, CR 608.2d): also none. The hand is the player's own (CR 402.3): one outcome
    per class of interchangeable qualifying cards (choice ``put_from_hand``), entering with its own
    replacements and triggers (CR 614.1c, 603.6a)."""

    kind: ClassVar[str] = "put_from_hand"
    quality: Filter | None = None
    tapped: bool = False
    mv_counters: str = ""

    def _text(self) -> str:
        mv = f" with mana value equal to the number of {self.mv_counters} counters on this" if self.mv_counters else ""
        return (f"put {describe_library_card(self.quality)}{mv} from your hand onto the battlefield"
                + (" tapped" if self.tapped else ""))


@dataclass(frozen=True)
class SearchLibrary(_EffectBase):
    """The controller searches their library (CR 701.23) for a card matching ``quality`` (a
    :class:`Filter` of zone ``library``: ``types`` any of, ``supertypes`` all of, ``subtypes`` any
    of; None: "a card"), puts it into ``zone`` (``hand``, or ``battlefield`` under their control,
    ``tapped`` when it says so), then shuffles (``shuffle``, CR 701.24). For a card with a stated
    quality the player may find nothing (CR 701.23b); for "a card" they must find one if the
    library has one (CR 701.23c). Resolution gives one outcome per class of interchangeable
    qualifying cards plus "find nothing".

    Further shapes (issue 26, helper library): ``zone`` ``top`` — "then shuffle and put that card
    on top" (Vampiric Tutor: the library is shuffled, then the card found is put on top, CR 401.4);
    ``up_to`` N — "for up to three cards named <this card>": any number of cards from 0 to N
    (CR 701.23b: a search for a stated quality may find fewer), one outcome per distinct multiset;
    ``named_self`` — only cards with the source's name (CR 201.2, 201.4: a card naming itself means
    that name); ``or_keyword`` — "an instant card or a card with flash": a card with the quality or
    with that printed keyword (CR 702.8); ``mv_max_x`` — "with mana value X or less": X is the
    resolving spell's X (CR 107.3m); ``by_controller_of`` — "Its controller may search their library …"
    (Ghost Quarter): the controller of that removed target as it last existed (CR 608.2h) searches their
    own library, and may decline (``searcher_may``, CR 608.2d: their choice); ``each_player`` — "Each
    player searches their library …" (Field of Ruin): each player in turn order searches their own
    (CR 101.4); the choices of another player are recorded as ``search: {player, found}``."""

    kind: ClassVar[str] = "search"
    zone: str
    quality: Filter | None = None
    tapped: bool = False
    shuffle: bool = True
    up_to: int = 1
    named_self: bool = False
    or_keyword: str = ""
    mv_max_x: bool = False
    by_controller_of: Ref | None = None
    searcher_may: bool = False
    each_player: bool = False

    def _text(self) -> str:
        where = "into your hand" if self.zone == "hand" else \
            "onto the battlefield" + (" tapped" if self.tapped else "")
        what = describe_library_card(self.quality)
        if self.mv_max_x:
            what += " with mana value X or less"
        if self.or_keyword:
            what += f" or a card with {self.or_keyword}"
        if self.named_self:
            what = f"up to {self.up_to} cards named this card" if self.up_to > 1 else "a card named this card"
        if self.zone == "top":
            return f"search your library for {what}, then shuffle and put that card on top"
        if self.by_controller_of is not None or self.each_player:
            who = "each player" if self.each_player else f"the controller of {_ref_text(self.by_controller_of)}"
            verbs = ("may search", "put", "shuffle") if self.searcher_may else ("searches", "puts", "shuffles")
            return f"{who} {verbs[0]} their library for {what}, {verbs[1]} it {where}, then {verbs[2]}"
        return f"search your library for {what}, put it {where}" + (", then shuffle" if self.shuffle else "")


@dataclass(frozen=True)
class ArrangeTop(_EffectBase):
    """The controller looks at the top ``amount`` cards of their library, then puts them back in any
    order (CR 401.4: the owner arranges cards put into a library together): one outcome per
    distinct order of those cards (interchangeable cards are one)."""

    kind: ClassVar[str] = "arrange_top"
    amount: Amount

    def _text(self) -> str:
        return f"look at the top {describe_amount(self.amount)} card(s) of your library, then put them back in any order"


@dataclass(frozen=True)
class ChooseFromTop(_EffectBase):
    """The controller looks at the top ``amount`` cards of their library (all of it when it holds
    fewer), puts one of them into their hand and the rest on the bottom of their library in any
    order (Sleight of Hand, Anticipate; CR 401.4: the owner orders cards put on the bottom
    together). Resolution gives one outcome per class of interchangeable cards taken and distinct
    order of the rest."""

    kind: ClassVar[str] = "choose_from_top"
    amount: Amount

    def _text(self) -> str:
        return (f"look at the top {describe_amount(self.amount)} card(s) of your library, put one into your hand "
                "and the rest on the bottom in any order")


@dataclass(frozen=True)
class Dig(_EffectBase):
    """The controller looks at the top ``amount`` cards of their library (all of it when it holds
    fewer; CR 401.5: the library's order; a library in random order makes what is seen a random
    event) and puts some of them ``to`` a zone, the rest ``rest`` (CR 608.2c): "Put two of them
    into your hand and the rest on the bottom of your library in any order", "You may reveal a
    creature card from among them and put it into your hand. Put the rest on the bottom of your
    library in a random order", "Put up to one of them on top of your library and the rest on the
    bottom …".

    ``take``: how many are put ``to`` (``None``: any number); ``exact``: as many of them as there
    are, up to ``take`` ("Put two of them"), else up to ``take`` ("up to", "you may"); ``quality``:
    which cards may be taken (``None``: any); ``total_mv_max``: the taken cards' mana values sum to
    at most this (CR 202.3); ``to``: ``hand`` | ``battlefield`` | ``top`` (of the library) |
    ``graveyard`` | ``bottom`` (of the library); ``tapped``: onto the battlefield tapped; ``rest``:
    ``bottom`` (in any order, the player's choice, CR 401.4) | ``bottom_random`` (a random order) |
    ``graveyard`` | ``exile`` (with a ``rest_counter`` counter on each, CR 122.1, when named) |
    ``stay`` (where they are: "Look at the top card … You may put that card on the bottom").
    ``whose``: whose library (the controller's, or a target player's, CR 115.1); ``chooser``:
    ``controller`` | ``opponent`` ("An opponent chooses one of them", CR 608.2d; of a two-player
    game); ``lose_life_mv``: "If you do, you lose life equal to its mana value" (CR 202.3, 119.3)."""

    kind: ClassVar[str] = "dig"
    amount: Amount
    take: int | None
    exact: bool
    quality: Filter | None
    to: str
    rest: str
    tapped: bool = False
    total_mv_max: int | None = None
    whose: Ref = CONTROLLER
    chooser: str = "controller"
    rest_counter: str = ""
    lose_life_mv: bool = False

    def _text(self) -> str:
        n = "any number" if self.take is None else f"{'' if self.exact else 'up to '}{self.take}"
        what = describe_library_card(self.quality)
        mv = f" with total mana value {self.total_mv_max} or less" if self.total_mv_max is not None else ""
        rest = {"bottom": "on the bottom in any order", "bottom_random": "on the bottom in a random order",
                "graveyard": "into the graveyard", "stay": "where they are",
                "exile": "into exile" + (f" with a {self.rest_counter} counter" if self.rest_counter else "")}[self.rest]
        to = {"hand": "into your hand", "battlefield": "onto the battlefield", "top": "on top of the library",
              "graveyard": "into the graveyard", "bottom": "on the bottom of the library"}[self.to]
        whose = "your" if self.whose == CONTROLLER else f"{_ref_text(self.whose)}'s"
        who = "an opponent chooses" if self.chooser == "opponent" else "put"
        life = "; if you do, you lose life equal to its mana value" if self.lose_life_mv else ""
        return (f"look at the top {describe_amount(self.amount)} card(s) of {whose} library, {who} {n} of them "
                f"({what}{mv}) {to}{' tapped' if self.tapped else ''} and the rest {rest}{life}")


@dataclass(frozen=True)
class ExiledToHand(_EffectBase):
    """"Put a card you own with a <kind> counter on it from exile into your hand." (Karn, Scion of
    Urza): the controller chooses one such card in exile, if any (CR 608.2c, 122.1; a choice as it
    resolves, no target), and puts it into their hand (CR 400.7: it loses its counters)."""

    kind: ClassVar[str] = "exiled_to_hand"
    counter: str

    def _text(self) -> str:
        return f"put a card you own with a {self.counter} counter on it from exile into your hand"


@dataclass(frozen=True)
class PileOnTop(_EffectBase):
    """"Search your library and graveyard for N cards and exile the rest. Put the chosen cards on top
    of your library in any order." (Doomsday; CR 701.23a: a search; 401.4): the controller chooses
    ``amount`` cards (all when fewer) among their library and graveyard and their order; every
    other card of both is exiled, so the library is exactly the cards chosen, in that order."""

    kind: ClassVar[str] = "pile_on_top"
    amount: Amount

    def _text(self) -> str:
        return (f"search your library and graveyard for {describe_amount(self.amount)} cards, exile the rest, "
                "put the chosen cards on top of your library in any order")


@dataclass(frozen=True)
class LoseHalfLife(_EffectBase):
    """"You lose half your life, rounded up." (CR 107.1a: rounded up; 119.3)."""

    kind: ClassVar[str] = "lose_half_life"

    def _text(self) -> str:
        return "you lose half your life, rounded up"


@dataclass(frozen=True)
class ExileLibrary(_EffectBase):
    """"Exile all cards from target player's library" (CR 406.1, 400.7): every card of the library of
    the player ``of`` names goes to exile, in library order."""

    kind: ClassVar[str] = "exile_library"
    of: Ref

    def _text(self) -> str:
        return f"exile all cards from {_ref_text(self.of)}'s library"


@dataclass(frozen=True)
class ShuffleHandIntoLibrary(_EffectBase):
    """"That player shuffles their hand into their library" (CR 701.24a): the hand of the player ``who``
    names goes into their library, which is then in random order."""

    kind: ClassVar[str] = "shuffle_hand_into_library"
    who: Ref

    def _text(self) -> str:
        return f"{_ref_text(self.who)} shuffles their hand into their library"


@dataclass(frozen=True)
class Shuffle(_EffectBase):
    """The controller shuffles their library (CR 701.24a: its cards are put in a random order);
    "You may shuffle." is ``optional`` (CR 608.2d)."""

    kind: ClassVar[str] = "shuffle"

    def _text(self) -> str:
        return "shuffle your library"


@dataclass(frozen=True)
class PutFromHandOnTop(_EffectBase):
    """The controller puts ``amount`` cards from their hand on top of their library in any order
    (Brainstorm; CR 401.4: the owner orders cards put into a library together; all of them when the
    hand holds fewer). Resolution gives one outcome per distinct sequence of cards put there
    (interchangeable cards are one)."""

    kind: ClassVar[str] = "hand_on_top"
    amount: Amount

    def _text(self) -> str:
        return f"put {describe_amount(self.amount)} card(s) from your hand on top of your library in any order"


@dataclass(frozen=True)
class Scry(_EffectBase):
    """The controller scries ``amount`` (CR 701.22a): looks at the top ``amount`` cards of their
    library (all of it when it holds fewer, 701.22a), puts any number of them on the bottom in any
    order and the rest on top in any order. Resolution gives one outcome per distinct resulting
    library (interchangeable cards are one; two splits giving the same library are one outcome).
    Scry 0 does nothing (701.22b)."""

    kind: ClassVar[str] = "scry"
    amount: Amount

    def _text(self) -> str:
        return f"scry {describe_amount(self.amount)}"


@dataclass(frozen=True)
class Surveil(_EffectBase):
    """The controller surveils ``amount`` (CR 701.25a): looks at the top ``amount`` cards of their
    library, puts any number of them into their graveyard and the rest on top in any order.
    Resolution gives one outcome per distinct resulting library and graveyard. Surveil 0 does
    nothing (701.25b)."""

    kind: ClassVar[str] = "surveil"
    amount: Amount

    def _text(self) -> str:
        return f"surveil {describe_amount(self.amount)}"


@dataclass(frozen=True)
class Transform(_EffectBase):
    """Transform ``to`` (CR 701.27a: a transforming double-faced permanent turns over to its other
    face, either way). It stays the same object (CR 712.18: counters, damage, attachments, tapped
    and combat status stay) with a new timestamp (CR 613.7g). Nothing happens to a permanent that
    isn't a transforming double-faced card or token (701.27c), one whose other face is an instant
    or sorcery (701.27d), or one with daybound or nightbound (702.145b, 702.145e)."""

    kind: ClassVar[str] = "transform"
    to: Ref

    def _text(self) -> str:
        return f"transform {_ref_text(self.to)}"


@dataclass(frozen=True)
class ReturnTransformed(_EffectBase):
    """Exile ``to``, then return it to the battlefield transformed under its owner's control
    (CR 701.27a, 712.14a): two zone changes, so the permanent is a new object (CR 400.7) with its
    back face up; a card that isn't a transforming double-faced card stays in exile (712.14a)."""

    kind: ClassVar[str] = "return_transformed"
    to: Ref

    def _text(self) -> str:
        return f"exile {_ref_text(self.to)}, then return it to the battlefield transformed"


@dataclass(frozen=True)
class Blink(_EffectBase):
    """"Exile <objects>, then return it / that card / those cards to the battlefield under its owner's /
    your control" (one sentence or two): each permanent named is exiled and its card returns at once as
    a new object (CR 400.7) — untapped, without counters, damage or attachments, its "enters" abilities
    triggering (603.6a) — under its owner's control (``under`` ``owner``) or the effect's controller's
    (``you``), ``tapped`` if the text says so; a token exiled this way ceases to exist and doesn't return
    (111.7, 111.8)."""

    kind: ClassVar[str] = "blink"
    to: Ref
    under: str = "owner"
    tapped: bool = False

    def _text(self) -> str:
        who = "your" if self.under == "you" else "its owner's"
        return (f"exile {_ref_text(self.to)}, then return it to the battlefield{' tapped' if self.tapped else ''} "
                f"under {who} control")


@dataclass(frozen=True)
class ReturnAllFromGraveyard(_EffectBase):
    """"Return all <quality> cards from your graveyard to the battlefield [tapped]" (Aftermath Analyst, Splendid
    Reclamation; CR 400.7, 608.2c): every card of the controller's graveyard with ``quality`` (a
    :class:`Filter`: ``types`` any of, ``subtypes`` any of, ``supertypes`` all of) as the instruction happens
    enters the battlefield under their control, ``tapped`` when it says so."""

    kind: ClassVar[str] = "return_all_from_graveyard"
    quality: Filter
    tapped: bool = False

    def _text(self) -> str:
        what = describe_library_card(self.quality).removeprefix("a ").removeprefix("an ")
        return f"return all {what}s from your graveyard to the battlefield" + (" tapped" if self.tapped else "")


@dataclass(frozen=True)
class GainControl(_EffectBase):
    """"Gain control of <target permanent> [until end of turn]" (CR 613.1b, 611.2a–b): a control-changing
    effect (layer 2) of the effect's controller on the permanent ``to`` names, if it is still on the
    battlefield — ``until_eot``: it ends at cleanup (514.2), when the permanent's control goes back to what
    it was; otherwise it lasts indefinitely (a later control-changing effect wins, 613.7). A permanent whose
    controller changes is removed from combat (506.4) and hasn't been controlled continuously by its new
    controller since their turn began (302.6)."""

    kind: ClassVar[str] = "gain_control"
    to: Ref
    until_eot: bool = False

    def _text(self) -> str:
        return f"gain control of {_ref_text(self.to)}" + (" until end of turn" if self.until_eot else "")


@dataclass(frozen=True)
class ReturnExiled(_EffectBase):
    """"Return it / that card to the battlefield [tapped] under its owner's / your control" as the instruction
    of a delayed triggered ability created right after "exile <it>" ("Exile another target permanent.
    Return that card to the battlefield under its owner's control at the beginning of the next end step.",
    CR 603.7a, 603.7c): the card the exile put there, if it is still in exile — a new object (400.7),
    untapped unless ``tapped``, its "enters" abilities triggering (603.6a) — under its owner's control
    (``under`` ``owner``) or the delayed ability's controller's (``you``, 603.7d); a card that has left
    exile, or a token (which ceased to exist, 111.7, 704.5d), is not returned."""

    kind: ClassVar[str] = "return_exiled"
    to: Ref
    under: str = "owner"
    tapped: bool = False

    def _text(self) -> str:
        who = "your" if self.under == "you" else "its owner's"
        return (f"return exiled {_ref_text(self.to)} to the battlefield{' tapped' if self.tapped else ''} "
                f"under {who} control")


@dataclass(frozen=True)
class Flip(_EffectBase):
    """Flip ``to`` (CR 710: a flip card's permanent turns 180 degrees and has its flipped
    characteristics; a permanent that isn't a flip card doesn't flip, and a flipped one stays
    flipped)."""

    kind: ClassVar[str] = "flip"
    to: Ref

    def _text(self) -> str:
        return f"flip {_ref_text(self.to)}"


@dataclass(frozen=True)
class RevealTop(_EffectBase):
    """The controller looks at the top card of their library and may reveal it ("You may reveal
    that card", ``optional``); if a card with ``quality`` is revealed this way, ``then`` happens
    (Delver of Secrets; CR 608.2d, 701.20: revealing changes no zone)."""

    kind: ClassVar[str] = "reveal_top"
    quality: Filter | None
    then: tuple["Effect", ...]

    def describe(self) -> str:
        then = "; ".join(e.describe() for e in self.then)
        return (f"look at the top card of your library; you may reveal it; if "
                f"{describe_library_card(self.quality)} is revealed this way: {then}")


@dataclass(frozen=True)
class Meld(_EffectBase):
    """"Exile them, then meld them into ``into``" (CR 701.42a, 712.4): the source and the other
    permanent of the intervening "if you both own and control" condition, named ``partner``, are
    exiled; if both were exiled that way, they return as one melded permanent with the melded face
    ``into`` up, under their owner's control (712.4a, 701.42b-c: a new object)."""

    kind: ClassVar[str] = "meld"
    partner: str
    into: str

    def _text(self) -> str:
        return f"exile this and {self.partner}, then meld them into {self.into}"


# -- shields: regeneration and prevention (CR 701.15, 614.8, 615) ------------------------------


@dataclass(frozen=True)
class Regenerate(_EffectBase):
    """Regenerate ``to`` (CR 701.15a, 614.8): a regeneration shield on that permanent for this turn —
    the next time it would be destroyed this turn, instead it is tapped, removed from combat and all
    damage is removed from it (object key ``regeneration_shields``)."""

    kind: ClassVar[str] = "regenerate"
    to: Ref

    def _text(self) -> str:
        return f"regenerate {_ref_text(self.to)}"


@dataclass(frozen=True)
class PreventDamage(_EffectBase):
    """A prevention shield for this turn (CR 615.1, 615.7): prevent the next ``amount`` damage (a
    number or ``"X"``, CR 107.3; None: all damage; ``combat_only``: combat damage only, CR 510) that would be dealt to ``to`` (None: to
    anything) by ``source`` (None: by any source) this turn (top-level key ``prevention``)."""

    kind: ClassVar[str] = "prevent_damage"
    to: Ref | None = None
    source: Ref | None = None
    amount: int | str | None = None
    combat_only: bool = False

    def _text(self) -> str:
        how = "all" if self.amount is None else f"the next {describe_amount(self.amount)}"
        what = " combat" if self.combat_only else ""
        to = f" to {_ref_text(self.to)}" if self.to is not None else ""
        by = f" by {_ref_text(self.source)}" if self.source is not None else ""
        return f"prevent {how}{what} damage that would be dealt{to}{by} this turn"


def describe_if_cast(how: str) -> str:
    """The condition on how a spell was cast (CR 702.33e, 702.138c, 702.74a) in words."""
    return {"kicked": "if it was kicked", "escape": "if it escaped", "evoke": "if its evoke cost was paid",
            "casualty": "if a casualty cost was paid for it"}.get(
        how, f"if it was cast with {how}")


@dataclass(frozen=True)
class IfCast(_EffectBase):
    """"If this spell was kicked, <instructions>" (CR 702.33e, 608.2c): ``then`` happens only if the
    resolving spell was cast that way — ``how`` is ``kicked`` (kicked at least ``times`` times, CR 702.33d,
    the stack object's ``kicked``); ``otherwise`` is what happens if not: the earlier instruction that a
    "… instead" sentence replaces (CR 608.2c; "If this spell was kicked, it deals 4 damage instead")."""

    kind: ClassVar[str] = "if_cast"
    how: str
    then: tuple["Effect", ...]
    otherwise: tuple["Effect", ...] = ()
    times: int = 1

    def describe(self) -> str:
        how = self.how + ("" if self.times == 1 else f" {self.times} times")
        then = "; ".join(e.describe() for e in self.then)
        other = ("; otherwise: " + "; ".join(e.describe() for e in self.otherwise)) if self.otherwise else ""
        return f"if this spell was {how}: {then}{other}"


@dataclass(frozen=True)
class Animate(_EffectBase):
    """"<this permanent> becomes a N/N <colors> <subtypes> <types> creature [with <keywords>] until end of
    turn. It's still a land." (CR 611.2a, 613.1d–f, 613.4b): until end of turn ``to`` gains the card types
    ``types`` and the subtypes ``subtypes`` in addition to its own (layer 4), is ``colors`` when given
    (layer 5), has ``keywords`` (layer 6) and base power and toughness ``power``/``toughness`` (layer
    7b); counters and pumps apply on top (613.4c). ``power``/``toughness`` None: its own printed values
    stay (crew's "becomes an artifact creature until end of turn", CR 702.122a, 208.3)."""

    kind: ClassVar[str] = "animate"
    to: Ref
    power: int | None
    toughness: int | None
    types: frozenset[str] = frozenset({"Creature"})
    subtypes: frozenset[str] = frozenset()
    colors: frozenset[str] | None = None
    keywords: tuple[str, ...] = ()

    def _text(self) -> str:
        kw = (" with " + ", ".join(self.keywords)) if self.keywords else ""
        what = " ".join(sorted(self.subtypes) + sorted(t.lower() for t in self.types))
        if not self.types and not self.subtypes:   # "has base power and toughness N/N" (CR 613.4b)
            return f"{_ref_text(self.to)} has base power and toughness {self.power}/{self.toughness}{kw} until end of turn"
        if self.power is None:
            return f"{_ref_text(self.to)} becomes an {what}{kw} until end of turn"
        return f"{_ref_text(self.to)} becomes a {self.power}/{self.toughness} {what}{kw} until end of turn"


@dataclass(frozen=True)
class IfCondition(_EffectBase):
    """"If <condition>, <instructions>." / "<instruction> instead if <condition>." / "If <condition>,
    <instruction> instead." (CR 608.2c: an instruction that depends on the game as the spell or ability
    resolves): ``then`` if ``condition`` holds then (the activation and static condition kinds, read on
    the board for the resolving object's controller), else ``otherwise`` — the earlier instruction that
    an "instead" replaces."""

    kind: ClassVar[str] = "if_condition"
    condition: "ActivationCondition"
    then: tuple["Effect", ...]
    otherwise: tuple["Effect", ...] = ()

    def describe(self) -> str:
        then = "; ".join(e.describe() for e in self.then)
        other = ("; otherwise: " + "; ".join(e.describe() for e in self.otherwise)) if self.otherwise else ""
        return f"if {self.condition.describe()}: {then}{other}"


@dataclass(frozen=True)
class Sacrifice(_EffectBase):
    """"Its controller sacrifices it" (CR 701.21a): the permanent ``to`` names, if it is still on the
    battlefield, is put into its owner's graveyard by its controller (not destroyed: indestructible doesn't
    stop it, 701.21a) — evoke's triggered ability (702.74a). ``by_you``: "sacrifice it" — the effect's
    controller sacrifices it, only if they control it (701.21a)."""

    kind: ClassVar[str] = "sacrifice"
    to: Ref
    by_you: bool = False

    def _text(self) -> str:
        return f"its controller sacrifices {_ref_text(self.to)}"


@dataclass(frozen=True)
class CopySpell(_EffectBase):
    """"Copy this spell. If the spell has any targets, you may choose new targets for the copy" — casualty's
    triggered ability (CR 702.153a): the spell that is the source of the resolving ability, if it is still on
    the stack, is copied there (707.10: the copy has its characteristics and every decision made for it —
    targets, X, how it was cast; it is controlled by the ability's controller and is not cast, 707.10, 707.12);
    ``new_targets``: the controller may change any of its targets to new legal ones (707.10c). ``per``:
    ``""`` one copy; ``storm`` one copy for each other spell cast before it this turn (storm, 702.40a: the
    spell's record ``cast_before``), the copies put on the stack one at a time, each with its own targets."""

    kind: ClassVar[str] = "copy_spell"
    new_targets: bool = True
    per: str = ""

    def _text(self) -> str:
        n = " for each other spell cast before it this turn" if self.per == "storm" else ""
        return f"copy this spell{n}" + ("; you may choose new targets for the copies" if self.new_targets else "")


# --- attaching (helper equip: Equipment, Auras and Fortifications, CR 701.3) ---------------------


@dataclass(frozen=True)
class Attach(_EffectBase):
    """Attach ``what`` (an Aura, Equipment or Fortification: "this Equipment", "it", a target) to
    ``to`` (CR 701.3a): the equip keyword's effect ("Attach this permanent to target creature you
    control", CR 702.6a) and "attach it to target creature you control" riders. It moves from what
    it was attached to (701.3a) with a new timestamp (613.7e); attaching it to what it can't be
    attached to, or to what it is already attached to, does nothing (701.3b, 301.5c)."""

    kind: ClassVar[str] = "attach"
    what: Ref
    to: Ref

    def _text(self) -> str:
        return f"attach {_ref_text(self.what)} to {_ref_text(self.to)}"


@dataclass(frozen=True)
class Unattach(_EffectBase):
    """Unattach ``what`` (CR 701.3d): it stays on the battlefield, attached to nothing — reconfigure's
    second ability, "Unattach this permanent" (CR 702.151a)."""

    kind: ClassVar[str] = "unattach"
    what: Ref

    def _text(self) -> str:
        return f"unattach {_ref_text(self.what)}"


# ---- "this turn" effects and counter keyword actions (issue 26, helper effb) ----


@dataclass(frozen=True)
class GroupPump(_EffectBase):
    """Each permanent of ``group`` (a battlefield :class:`Filter` seen from the controller: "creatures you
    control", "creatures your opponents control"; ``other``: but the source) gets +``power``/+``toughness``
    and ``keywords`` until end of turn (CR 611.2a, 613.4c). The set of objects affected is fixed as the
    effect begins (CR 611.2c): it is written in the effects entry's ``affected`` list at position ``slot``
    (the group effects of one spell or ability, in printed order)."""

    kind: ClassVar[str] = "group_pump"
    group: Filter
    power: int = 0
    toughness: int = 0
    keywords: tuple[str, ...] = ()
    other: bool = False
    slot: int = 0
    x: "Amount | None" = None   # as :attr:`Pump.x` (CR 608.2h)

    def _text(self) -> str:
        kw = (" and gain " + ", ".join(self.keywords)) if self.keywords else ""
        who = ("other " if self.other else "") + self.group.describe()
        return f"each {who} gets {_pt_text(self.power, self.toughness, self.x)}{kw} until end of turn"


@dataclass(frozen=True)
class GroupAnimate(_EffectBase):
    """"[Until end of turn,] each <group> has base power and toughness N/N [and becomes a <subtype> in addition to
    its other creature types] [until end of turn]" (Allosaurus Shepherd; CR 611.2a, 611.2c, 613.1d, 613.4b): each
    permanent of ``group`` as the effect begins (fixed then: the effects entry's ``affected`` at ``slot``, as
    :class:`GroupPump`) has base power and toughness ``power``/``toughness`` (layer 7b) and gains ``subtypes``
    (layer 4) until end of turn."""

    kind: ClassVar[str] = "group_animate"
    group: Filter
    power: int
    toughness: int
    subtypes: frozenset[str] = frozenset()
    other: bool = False
    slot: int = 0

    def _text(self) -> str:
        who = ("other " if self.other else "") + self.group.describe()
        also = f" and becomes {' '.join(sorted(self.subtypes))} in addition to its other types" if self.subtypes else ""
        return f"each {who} has base power and toughness {self.power}/{self.toughness}{also} until end of turn"


@dataclass(frozen=True)
class ThisTurn(_EffectBase):
    """``to`` is bound by ``rule`` this turn — a combat restriction or requirement (a
    :class:`CombatStatic` whose ``affected`` is the object itself: "can't block", "can't be blocked",
    CR 509.1b–c) created by a resolving spell or ability on the objects it names (CR 611.2a). It is an
    effect on the object, not an ability the object has (it is not lost with its abilities, CR 613.1f)."""

    kind: ClassVar[str] = "this_turn"
    to: Ref
    rule: "CombatStatic"

    def _text(self) -> str:
        return f"{_ref_text(self.to)}: {self.rule._rule()} this turn"


@dataclass(frozen=True)
class GroupThisTurn(_EffectBase):
    """Every permanent of ``group`` (a battlefield :class:`Filter` seen from the controller: card types,
    subtypes, colors, keywords; ``other``: but the source) is bound by ``rule`` this turn — "Creatures
    without flying can't block this turn". A rules-modifying effect: it binds whatever matches the
    group at each moment, creatures that enter later included (CR 611.2c, 509.1b)."""

    kind: ClassVar[str] = "group_this_turn"
    group: Filter
    rule: "CombatStatic"
    other: bool = False

    def _text(self) -> str:
        return f"each {('other ' if self.other else '') + self.group.describe()}: {self.rule._rule()} this turn"


@dataclass(frozen=True)
class Explore(_EffectBase):
    """``to`` (the source or a target creature its controller controls) explores (CR 701.44a): its
    controller reveals the top card of their library; a land card goes to their hand, otherwise the
    creature gets a +1/+1 counter and they may put the card into their graveyard (no card revealed —
    an empty library — : the counter; a creature no longer on the battlefield gets none)."""

    kind: ClassVar[str] = "explore"
    to: Ref

    def _text(self) -> str:
        return f"{_ref_text(self.to)} explores"


@dataclass(frozen=True)
class Monstrosity(_EffectBase):
    """Monstrosity N (CR 701.37a): if the source isn't monstrous, put N +1/+1 counters on it and it
    becomes monstrous (the object key ``monstrous``, CR 701.37b)."""

    kind: ClassVar[str] = "monstrosity"
    amount: Amount

    def _text(self) -> str:
        return f"monstrosity {describe_amount(self.amount)}"


@dataclass(frozen=True)
class Adapt(_EffectBase):
    """Adapt N (CR 701.46a): if the source has no +1/+1 counters on it, put N +1/+1 counters on it."""

    kind: ClassVar[str] = "adapt"
    amount: Amount

    def _text(self) -> str:
        return f"adapt {describe_amount(self.amount)}"


@dataclass(frozen=True)
class Bolster(_EffectBase):
    """Bolster N (CR 701.39a): choose a creature with the least toughness among creatures you control and
    put N +1/+1 counters on it (a choice among ties; nothing without a creature)."""

    kind: ClassVar[str] = "bolster"
    amount: Amount

    def _text(self) -> str:
        return f"bolster {describe_amount(self.amount)}"


@dataclass(frozen=True)
class Connive(_EffectBase):
    """``to`` connives [``amount``] (CR 701.50a, 701.50e): its controller draws that many cards, then
    discards that many, then puts a +1/+1 counter on it for each nonland card discarded this way. A
    permanent that left the battlefield still connives — its last known controller draws and discards
    (701.50c) — and gets no counter."""

    kind: ClassVar[str] = "connive"
    to: Ref
    amount: Amount = 1

    def _text(self) -> str:
        n = "" if self.amount == 1 else f" {describe_amount(self.amount)}"
        return f"{_ref_text(self.to)} connives{n}"


# --- issue 26, helper effa: chosen permanents, counters on groups, proliferate -------------------

@dataclass(frozen=True)
class SacrificeChosen(_EffectBase):
    """Each player ``to`` names (None: the controller) sacrifices ``amount`` permanents they control
    matching ``what`` (CR 701.21a: moved to its owner's graveyard; it can't be regenerated and
    indestructible doesn't stop it), chosen by that player as the effect resolves — all of them
    when they control fewer; ``any_of_types``: a permanent of any of those card types ("a creature or
    planeswalker"). Resolution gives one outcome per distinct choice (interchangeable permanents are
    one)."""

    kind: ClassVar[str] = "sacrifice_chosen"
    what: Selector
    amount: Amount = 1
    to: Ref | None = None
    any_of_types: frozenset[str] = frozenset()  # "an artifact or creature": any of these card types too

    def _text(self) -> str:
        who = f"{_ref_text(self.to)} sacrifices " if self.to else "sacrifice "
        alt = f" ({' or '.join(sorted(self.any_of_types)).lower()})" if self.any_of_types else ""
        return who + f"{describe_amount(self.amount)} {self.what.describe()}{alt}"


@dataclass(frozen=True)
class SacrificeUnlessPays(_EffectBase):
    """Sacrifice the source unless its controller pays ``mana`` ("At the beginning of your upkeep,
    sacrifice this creature unless you pay {U}.": CR 118.12 — as it resolves, the controller
    chooses to pay or not, mana abilities may be activated to pay, CR 605.3a; 701.21a). Resolution
    gives one outcome where the player declines (the source is sacrificed if it is still a
    permanent they control) and one per distinct payment."""

    kind: ClassVar[str] = "sacrifice_unless"
    mana: ManaCost

    def _text(self) -> str:
        return f"sacrifice this permanent unless you pay {self.mana}"


@dataclass(frozen=True)
class MayPay(_EffectBase):
    """"You may pay {4}. If you do, untap this artifact." / "Pay {2}{G}{G}. If you don't, you lose the
    game." — as it resolves, the controller chooses to pay ``mana`` or not (CR 608.2d: an optional
    action; a cost paid while resolving, CR 118.1, 117.1d and 605.3a: mana abilities may be activated
    to pay it; an unpayable cost can't be paid, 118.3); ``then`` happens only if they paid ("if you
    do"), ``otherwise`` only if they didn't ("if you don't", CR 608.2c). Resolution gives one outcome
    where the player declines and one per distinct payment (none when the cost can't be paid),
    recorded as ``pay``."""

    kind: ClassVar[str] = "may_pay"
    mana: ManaCost
    then: tuple["Effect", ...] = ()
    otherwise: tuple["Effect", ...] = ()

    def _text(self) -> str:
        then = ("; if you do: " + "; ".join(e.describe() for e in self.then)) if self.then else ""
        other = ("; if you don't: " + "; ".join(e.describe() for e in self.otherwise)) if self.otherwise else ""
        return f"you may pay {self.mana}{then}{other}"


@dataclass(frozen=True)
class UntapChosen(_EffectBase):
    """"Untap up to two lands." — the controller chooses up to ``amount`` permanents matching
    ``what`` (any player's unless it says "you control") as the instruction happens and untaps them
    (CR 608.2c, 701.26b; no target, CR 115.10). Untapping an untapped permanent changes nothing, so
    resolution gives one outcome per distinct set of tapped ones untapped (interchangeable permanents
    are one), recorded as ``untapped``."""

    kind: ClassVar[str] = "untap_chosen"
    what: Selector
    amount: int

    def _text(self) -> str:
        return f"untap up to {self.amount} {self.what.describe()}"


@dataclass(frozen=True)
class SkipNextCombat(_EffectBase):
    """"Target opponent skips their next combat phase." — the player ``to`` names skips the next combat
    phase they would have (CR 614.10: a replacement effect; 614.10a: nothing scheduled for it happens),
    recorded in the turn (``turn.skip_combat``, one entry per skip) until it is skipped."""

    kind: ClassVar[str] = "skip_next_combat"
    to: Ref = field(default_factory=lambda: Ref("controller"))

    def _text(self) -> str:
        return f"{_ref_text(self.to)} skips their next combat phase"


@dataclass(frozen=True)
class ExtraTurn(_EffectBase):
    """"Take an extra turn after this one." — the player ``to`` names takes an extra turn directly
    after this one (CR 500.7; several created: the most recently created is taken first), recorded in
    the turn (``turn.extra_turns``) until it begins."""

    kind: ClassVar[str] = "extra_turn"
    to: Ref = field(default_factory=lambda: Ref("controller"))

    def _text(self) -> str:
        who = "you take" if self.to == Ref("controller") else f"{_ref_text(self.to)} takes"
        return f"{who} an extra turn after this one"


@dataclass(frozen=True)
class LoseGame(_EffectBase):
    """"You lose the game." (CR 104.3e: an effect may state that a player loses the game; it happens
    at once, not as a state-based action, and ends a two-player game, CR 104.1, 104.2a)."""

    kind: ClassVar[str] = "lose_game"
    to: Ref = field(default_factory=lambda: Ref("controller"))

    def _text(self) -> str:
        return "you lose the game" if self.to == Ref("controller") else f"{_ref_text(self.to)} loses the game"


@dataclass(frozen=True)
class WinIfLibraryAtMost(_EffectBase):
    """"If X is greater than or equal to the number of cards in your library, you win the game."
    (CR 104.2b: an effect may state that a player wins the game; the game ends at once, CR 104.1;
    ``amount`` is the X of the instruction before, determined as it resolves, CR 608.2h)."""

    kind: ClassVar[str] = "win_if_library_at_most"
    amount: Amount

    def _text(self) -> str:
        return f"if {describe_amount(self.amount)} is at least the number of cards in your library, you win the game"


@dataclass(frozen=True)
class CoinFlip(_EffectBase):
    """"Flip a coin. If you win the flip, <win>. If you lose the flip, <lose>." (CR 705.1–705.2: the
    controller flips a coin and wins or loses the flip, each with probability 1/2 — a random event;
    CR 608.2c). Resolution gives the two outcomes with their probabilities (``flip``: won or lost)."""

    kind: ClassVar[str] = "coin_flip"
    win: tuple["Effect", ...] = ()
    lose: tuple["Effect", ...] = ()

    def _text(self) -> str:
        won = "; ".join(e.describe() for e in self.win) or "nothing"
        lost = "; ".join(e.describe() for e in self.lose) or "nothing"
        return f"flip a coin: if you win: {won}; if you lose: {lost}"


@dataclass(frozen=True)
class ChooseDiscard(_EffectBase):
    """The player ``to`` reveals their hand (CR 701.20a); the controller chooses a card matching
    ``quality`` from it (``types`` any of, ``nontypes`` none of, ``mv_min``/``mv_max``; None: any
    card) and that player discards it (CR 701.9a) — "Target opponent reveals their hand. You choose
    a noncreature, nonland card from it. That player discards that card." When no card qualifies,
    nothing is discarded. Resolution gives one outcome per class of interchangeable qualifying cards."""

    kind: ClassVar[str] = "choose_discard"
    to: Ref
    quality: Filter | None = None

    def _text(self) -> str:
        return f"{_ref_text(self.to)} reveals their hand; you choose a card from it; they discard it"


@dataclass(frozen=True)
class Transmute(_EffectBase):
    """Transmute's effect (CR 702.53a): search your library for a card with the same mana value as
    the discarded card (the source), reveal it, put it into your hand, then shuffle — a search
    with a stated quality, so it may find nothing (CR 701.23b)."""

    kind: ClassVar[str] = "transmute"

    def _text(self) -> str:
        return "search your library for a card with the same mana value as this card, put it into your hand, then shuffle"


@dataclass(frozen=True)
class ReturnChosen(_EffectBase):
    """The controller chooses ``amount`` permanents they control matching ``what`` as the effect
    resolves (no target, CR 608.2c) and returns them to their owner's hand (CR 400.7) — all of them
    when they control fewer ("return a land you control to its owner's hand")."""

    kind: ClassVar[str] = "return_chosen"
    what: Selector
    amount: Amount = 1

    def _text(self) -> str:
        return f"return {describe_amount(self.amount)} {self.what.describe()} to its owner's hand"


@dataclass(frozen=True)
class PutCountersOnEach(_EffectBase):
    """Put ``amount`` ``counter`` counters on each permanent matching ``what`` as the effect
    resolves (CR 122.1, 608.2c: "each creature you control", "each other creature you control")."""

    kind: ClassVar[str] = "counters_each"
    what: Selector
    amount: Amount
    counter: str

    def _text(self) -> str:
        return f"put {describe_amount(self.amount)} {self.counter} counter(s) on each {self.what.describe()}"


@dataclass(frozen=True)
class Proliferate(_EffectBase):
    """Proliferate (CR 701.34a): the controller chooses any number of permanents and players that
    have counters, then gives each one another counter of each kind already there. Resolution
    gives one outcome per distinct choice (interchangeable permanents are one)."""

    kind: ClassVar[str] = "proliferate"

    def _text(self) -> str:
        return "proliferate"


@dataclass(frozen=True)
class AddMana(_EffectBase):
    """The resolving spell's or ability's controller adds ``produce`` to their mana pool (CR 106.1,
    106.4, 608.2): a ritual ("Add {B}{B}{B}"), a triggered ability that is not a mana ability ("When
    this land enters, add one mana of any color": it uses the stack, CR 605.5a), a loyalty ability
    (CR 605.1a). Each distinct mana the controller may choose is one outcome; the mana stays in the pool
    until the step or phase ends (CR 500.4)."""

    kind: ClassVar[str] = "add_mana"
    produce: Produce

    def _text(self) -> str:
        return f"add {self.produce.describe()}"


@dataclass(frozen=True)
class Delayed(_EffectBase):
    """A delayed triggered ability created as the spell or ability resolves (CR 603.7a): ``effects``
    happen once, later — ``step`` ``end`` "at the beginning of the next end step" (the next one to
    begin, this turn's if it hasn't begun, CR 603.7b), ``upkeep`` "at the beginning of the next turn's
    upkeep" (``whose`` ``any``) or "of your next upkeep" (``whose`` ``you``), a later turn's. The
    situation records it in force (top-level key ``delayed``) until it triggers (603.7c)."""

    kind: ClassVar[str] = "delayed"
    step: str
    effects: tuple["Effect", ...]
    whose: str = "any"

    def _text(self) -> str:
        when = "the next end step" if self.step == "end" else \
            ("your next upkeep" if self.whose == "you" else "the next turn's upkeep")
        return f"at the beginning of {when}: " + "; ".join(e.describe() for e in self.effects)


@dataclass(frozen=True)
class DelayedCast(Delayed):
    """"Whenever you cast a creature spell this turn, draw a card." (Glimpse of Nature) / "When you next cast
    an instant or sorcery spell this turn, …": a delayed triggered ability created as the spell or ability
    resolves (CR 603.7a) that triggers on ``trigger`` (a :class:`CastTrigger`, its controller's "you") for the
    rest of the turn — each time (a stated duration, CR 603.7b) or, with ``once``, the next time only
    (603.7c) — and ends in the cleanup step (514.2). ``step`` names its record: ``cast`` or ``next_cast``.
    Its instructions are read whole; they name no target and nothing of the event."""

    kind: ClassVar[str] = "delayed_cast"
    trigger: "Trigger | None" = None
    once: bool = False

    def _text(self) -> str:
        what = self.trigger.describe() if self.trigger is not None else "whenever you cast a spell"
        when = f"the next time this turn: {what}" if self.once else f"this turn, {what}"
        return f"{when}: " + "; ".join(e.describe() for e in self.effects)


#: The record steps of :class:`DelayedCast` ("this turn": removed in the cleanup step, CR 514.2).
CAST_DELAYED_STEPS: tuple[str, ...] = ("cast", "next_cast")


def delayed_in(effects: "tuple[Effect, ...] | list[Effect]") -> "list[Delayed | Reflexive]":
    """The delayed-trigger instructions (CR 603.7a) and reflexive ones (603.12) of ``effects`` in order, nested
    ones included (an ``IfCast``'s branches): the n-th (1-based) is what a ``delayed`` record's ``index`` names."""
    out: list[Delayed | Reflexive] = []
    for e in effects:
        if isinstance(e, (Delayed, Reflexive)):
            out.append(e)
        elif isinstance(e, (IfCast, IfCondition)):
            out += delayed_in(e.then) + delayed_in(e.otherwise)
        elif isinstance(e, MayPay):
            out += delayed_in(e.then) + delayed_in(e.otherwise)
        elif isinstance(e, CoinFlip):
            out += delayed_in(e.win) + delayed_in(e.lose)
    return out


@dataclass(frozen=True)
class RemoveCounter(_EffectBase):
    """"Remove a <counter> counter from it" (CR 122.1): one ``counter`` counter is removed from the
    ability's source — a permanent (fading, CR 702.32a; vanishing, 702.63a) or, with ``exiled``, the card in
    exile (suspend, 702.62a). ``or_sacrifice``: "If you can't, sacrifice it" (fading, 702.32a: a permanent
    with no such counter is sacrificed). Removing the last time counter triggers "When the last time counter
    is removed from …" (:class:`LastCounterRemovedTrigger`, 702.62a, 702.63a)."""

    kind: ClassVar[str] = "remove_counter"
    counter: str
    exiled: bool = False
    or_sacrifice: bool = False

    def _text(self) -> str:
        where = "this card in exile" if self.exiled else "this permanent"
        return f"remove a {self.counter} counter from {where}" + ("; if you can't, sacrifice it" if self.or_sacrifice
                                                                 else "")


@dataclass(frozen=True)
class Cascade(_EffectBase):
    """Cascade's triggered ability (CR 702.85a): "When you cast this spell, exile cards from the top of your
    library until you exile a nonland card whose mana value is less than this spell's mana value. You may
    cast that card without paying its mana cost if the resulting spell's mana value is less than this
    spell's mana value. Then put all cards exiled this way that weren't cast on the bottom of your library in
    a random order." (The spell's mana value is its last known one once it has left the stack, 702.85c.)"""

    kind: ClassVar[str] = "cascade"

    def _text(self) -> str:
        return "cascade"


@dataclass(frozen=True)
class CastSuspended(_EffectBase):
    """Suspend's last ability (CR 702.62a): "When the last time counter is removed from this card, if it's
    exiled, you may cast it without paying its mana cost if able. If you don't, it remains exiled. If you cast a
    creature spell this way, it gains haste until you lose control of the spell or the permanent it
    becomes." The card's owner casts it as the ability resolves (CR 608.2g, 601.2, 118.9: no mana cost, X is
    0, 107.3b) or declines; timing restrictions don't apply (it is cast while an ability resolves), "can't
    cast" rules do (CR 601.3, 101.2)."""

    kind: ClassVar[str] = "cast_suspended"

    def _text(self) -> str:
        return "you may cast this card from exile without paying its mana cost (a creature gains haste)"


@dataclass(frozen=True)
class UnreadEffect(_EffectBase):
    """The printed sentence(s) ``text`` whose effect is not modeled (contract §2.0: resolving it
    is refused, CR 608.2c)."""

    kind: ClassVar[str] = "unread"
    text: str

    def describe(self) -> str:
        return f"unread effect: {self.text}"


#: One instruction of a resolving spell or ability (CR 608.2c): one class per kind.
@dataclass(frozen=True)
class ExiledCardTokens(_EffectBase):
    """"The exiled card's owner creates an X/X <colors> <subtypes> creature token, where X is the mana value
    of the exiled card." — "the exiled card" is the card(s) another ability of the source exiled (linked
    abilities, CR 607.2a: object key ``exiled_by``), still in exile. Each owner of such cards creates one
    token whose power and toughness are the total mana value of their cards (CR 202.3; the rulings of the
    printed cards); none exiled: no token. ``token``: as :class:`CreateTokens`'s, without power and
    toughness."""

    kind: ClassVar[str] = "exiled_card_tokens"
    token: tuple[tuple[str, object], ...]

    def _text(self) -> str:
        return (f"the exiled card's owner creates an X/X {dict(self.token).get('name', '')} token, where X is the "
                "mana value of the exiled card")


@dataclass(frozen=True)
class Reflexive(_EffectBase):
    """A reflexive triggered ability (CR 603.12) created by the instruction before it — "When it connives this
    way, return up to one target spell to its owner's hand.": it triggers as that instruction happens during
    the resolution and is put on the stack the next time a player would receive priority (603.3), its
    ``targets`` chosen then (603.3d); ``effects`` are its instructions (``T(i)`` its own targets). On the stack
    it is an ability of the resolving object's source named by its place among the delayed and reflexive
    instructions (object key ``delayed``, :func:`delayed_of`)."""

    kind: ClassVar[str] = "reflexive"
    effects: tuple["Effect", ...]
    targets: tuple[TargetSpec, ...] = ()

    def _text(self) -> str:
        return "when it does, a reflexive trigger: " + "; ".join(e.describe() for e in self.effects)


@dataclass(frozen=True)
class ExileIfDies(_EffectBase):
    """"If that creature [or planeswalker] would die this turn, exile it instead." (``to``: the objects it
    names) / "If a creature dealt damage this way would die this turn, exile it instead." (``to`` None: the
    creatures this resolution has dealt damage to so far, CR 120.3e): a replacement effect on each of them
    until the cleanup step (CR 614.1a, 700.4, 514.2; object key ``exile_if_dies``) — put into a graveyard
    from the battlefield as a creature or planeswalker, it is exiled instead, and so never dies."""

    kind: ClassVar[str] = "exile_if_dies"
    to: Ref | None = None

    def _text(self) -> str:
        who = _ref_text(self.to) if self.to is not None else "a creature dealt damage this way"
        return f"if {who} would die this turn, exile it instead"


Effect = Union[Damage, IfDealtDamage, Destroy, Pump, Fight, Draw, Mill, ExileTopPlayable, Discard, GainLife, LoseLife,
               ItsControllerGainsLife,
               GainLifeEqualTo, PutInLibrary, ShuffleSelfIntoLibrary, Wheel,
               RevealTopToHand, GraveyardToBottom,
               ItsControllerInvestigates, LookAtHand, CreateTokens,
               ReturnToBattlefield, Exile, CounterSpell, CounterUnlessPays, SkipUntap, ReturnToHand, Untap, Tap,
               PutCounters, Conjure, UntilEndOfTurn, SearchLibrary, PutFromHand, ArrangeTop, ChooseFromTop, Dig,
               ExiledToHand, PileOnTop, LoseHalfLife, ExileLibrary, ShuffleHandIntoLibrary, Shuffle,
               PutFromHandOnTop, Scry, Surveil, Transform, ReturnTransformed, Blink, ReturnExiled, GainControl,
               ReturnAllFromGraveyard, Flip, RevealTop, Meld, Regenerate,
               PreventDamage, IfCast, Sacrifice, CopySpell, Attach,
               Unattach, GroupPump, GroupAnimate, ThisTurn, GroupThisTurn, Explore, Monstrosity, Adapt,
               Bolster, Connive, SacrificeChosen, SacrificeUnlessPays, ChooseDiscard, ReturnChosen, PutCountersOnEach,
               Proliferate, Transmute, IfCondition, Animate, AddMana, Delayed, DelayedCast, MayPay, CoinFlip, LoseGame,
               WinIfLibraryAtMost, UntapChosen, ExtraTurn, SkipNextCombat,
               RemoveCounter, CastSuspended, Cascade, ExileIfDies, Reflexive, ExiledCardTokens, UnreadEffect]
#: The effect classes, for ``isinstance`` checks.
EFFECT_CLASSES: tuple[type, ...] = get_args(Effect)


def describe_library_card(f: Filter | None) -> str:
    """"a card", "a basic land card", "a Forest or Plains card" (a search's stated quality, CR 701.23)."""
    if f is None:
        return "a card"
    words = sorted(f.colors) + [w.lower() for w in sorted(f.supertypes)]
    if f.subtypes:
        words.append(" or ".join(sorted(f.subtypes)))
    words.extend(sorted(t.lower() for t in f.types_all - f.types))   # "an artifact land card"
    if f.types:
        words.append(" or ".join(sorted(t.lower() for t in f.types)))
    words.append("card")
    for name, lo, hi in (("mana value", f.mv_min, f.mv_max), ("power", f.power_min, f.power_max),
                         ("toughness", f.toughness_min, f.toughness_max)):
        if lo is not None:
            words.append(f"with {name} {lo} or greater")
        if hi is not None:
            words.append(f"with {name} {hi} or less")
    first = words[0]
    return ("an " if first[0].lower() in "aeiou" else "a ") + " ".join(words)


# --------------------------------------------------------------------------
# Modes (CR 700.2)
# --------------------------------------------------------------------------


@dataclass(frozen=True)
class Mode:
    """One mode of a modal spell or ability (CR 700.2): a bulleted option.

    ``targets``: the mode's instances of "target" in printed order (``Ref``
    indices and ``distinct_from`` in ``effects``/``targets`` are local to the
    mode); ``effects``: what it does (``UnreadEffect`` when not read).

    The spell or ability that has modes carries them in ``modes`` with
    ``min_modes``..``max_modes`` (how many may be chosen, CR 700.2a–b) and
    ``mode_repeat`` ("You may choose the same mode more than once", CR 700.2d).
    Its own ``targets`` and ``effects`` are empty (targets are those of the chosen
    modes, CR 700.2c, 601.2c; what it does is what they do, 700.2a): the modes chosen
    are recorded on the stack object (``modes``) and resolution follows only theirs
    (``solver/rules/modes.py``: ``selection_specs``, ``selection_effects``)."""

    targets: tuple[TargetSpec, ...] = ()
    effects: tuple[Effect, ...] = ()
    text: str = ""

    def describe(self) -> str:
        t = ("; targets: " + ", ".join(s.describe() for s in self.targets)) if self.targets else ""
        return "; ".join(e.describe() for e in self.effects) + t


def describe_modes(a: object) -> str:
    """The modes of a spell or ability, for ``describe`` (empty when it has none)."""
    modes = getattr(a, "modes", ())
    if not modes:
        return ""
    lo, hi = getattr(a, "min_modes", 1), getattr(a, "max_modes", 1)
    n = str(lo) if lo == hi else f"{lo} to {hi}"
    rep = ", the same mode more than once allowed" if getattr(a, "mode_repeat", False) else ""
    return f"; choose {n} mode(s){rep} (CR 700.2): " + " | ".join(
        f"[{i}] {m.describe()}" for i, m in enumerate(modes, start=1))


# --------------------------------------------------------------------------
# Abilities
# --------------------------------------------------------------------------


@dataclass(frozen=True)
class SpendRestriction:
    """What the mana an ability adds may be spent on (CR 106.6: "Spend this mana
    only to …"; the restriction does not change the mana's type, CR 106.6, so
    could-produce, CR 106.7, ignores it). Replacement effects that increase the
    amount produced extend the restriction to all of it (CR 106.6a); mana added
    by a *triggered* mana ability (Mana Flare) is that ability's own, unrestricted.

    The mana may be spent only to:

    * cast a spell matching one of ``spells`` (spell filters, see :class:`Filter`);
    * if ``abilities``: activate an ability (CR 602, mana abilities included,
      CR 605.1a) of a source matching one of ``sources`` (empty: any source);
    * if ``other``: pay any other cost (neither casting a spell nor activating
      an ability) — set only by the negative form "This mana can't be spent
      to cast nonartifact spells".
    """

    spells: tuple[Filter, ...] = ()
    abilities: bool = False
    sources: tuple[Filter, ...] = ()
    other: bool = False

    def describe(self) -> str:
        if self.other:
            if self.abilities and not self.sources and len(self.spells) == 1:
                f = self.spells[0]
                if f == Filter(zone="stack", not_from_zones=f.not_from_zones):
                    return "this mana can't be spent to cast spells from " + " or ".join(
                        "your " + z if z in ("hand", "graveyard") else z for z in sorted(f.not_from_zones))
                allowed = describe_spell_filter(f)
                return f"this mana can't be spent to cast spells other than {allowed}"
        parts = [describe_spell_filter(f) for f in self.spells]
        out = ("cast " + " or ".join(parts)) if parts else ""
        if self.abilities:
            srcs = " or ".join(describe_spell_filter(f)[:-len(" spells")] or "any" for f in self.sources)
            act = "activate abilities" + (f" of {srcs} sources" if self.sources else "")
            out = f"{out} or {act}" if out else act
        return "spend this mana only to " + (out or "nothing")


@dataclass(frozen=True)
class ManaAbility:
    """An activated mana ability (CR 605.1a). ``damage_to_you``: the land deals
    that much damage to its controller as part of the effect (Adarkar Wastes).
    ``limit``: at most that many activations each turn ("Activate only once
    each turn", CR 602.5b; counted by the object key ``activated_this_turn``);
    ``condition``: when it may be activated (:class:`ActivationCondition`)."""

    cost: Cost
    produce: Produce
    damage_to_you: int = 0
    text: str = ""
    limit: int | None = None
    condition: ActivationCondition | None = None
    spend: "SpendRestriction | None" = None
    riders: "tuple[ManaRider, ...]" = ()

    def describe(self) -> str:
        dmg = f"; deals {self.damage_to_you} damage to you" if self.damage_to_you else ""
        dmg += "".join(f"; {r.describe()}" for r in self.riders)
        lim = ""
        if self.limit is not None:
            lim = "; activate only once each turn" if self.limit == 1 else f"; activate at most {self.limit} times each turn"
        cond = f"; activate only if {self.condition.describe()}" if self.condition is not None else ""
        spend = f"; {self.spend.describe()} (CR 106.6)" if self.spend is not None else ""
        return f"mana ability: {self.cost.describe()}: add {self.produce.describe()}{dmg}{lim}{cond}{spend}"


@dataclass(frozen=True)
class ActivatedAbility:
    """A non-mana activated ability (CR 602). ``sorcery``: activate only as a sorcery.

    ``zone``: where its source must be for it to be activated — ``battlefield``, or ``hand`` for
    an ability whose cost discards the card (cycling and typecycling, CR 702.29a/e; channel and
    other "[cost], Discard this card: …" abilities; CR 113.6k). ``reduction``: "This ability
    costs {N} less to activate for each <permanent you control>" as ``(N, Filter)`` (the
    permanents counted: ``who``, ``types``, ``supertypes``, ``subtypes``), reducing
    the generic mana of the cost only (CR 601.2f via 602.2b, 118.7). ``limit``: at most that
    many activations each turn ("Activate only once each turn", CR 602.5b; object key
    ``activated_this_turn``). ``condition``: "Activate only if …" (CR 602.5b), any
    :class:`ActivationCondition` (:class:`OpponentControls` and :class:`HandExactly` only
    here)."""

    cost: Cost
    targets: tuple[TargetSpec, ...] = ()
    effects: tuple[Effect, ...] = ()
    sorcery: bool = False
    text: str = ""
    # a modal ability (CR 700.2, solver/reader/modes.py): see :class:`Mode`
    modes: "tuple[Mode, ...]" = ()
    min_modes: int = 0
    max_modes: int = 0
    mode_repeat: bool = False
    zone: str = "battlefield"
    reduction: "tuple[int, Filter] | None" = None
    limit: int | None = None
    condition: "ActivationCondition | None" = None  # "Activate only if …" (CR 602.5b)
    # a cycling or typecycling ability (CR 702.29a, 702.29f): discarding the card to pay its cost cycles it
    # ("When you cycle this card", :class:`CycleTrigger`, 702.29c)
    cycling: bool = False

    def describe(self) -> str:
        t = ("; targets: " + ", ".join(s.describe() for s in self.targets)) if self.targets else ""
        extra = ""
        if self.zone != "battlefield":
            extra += f"; activated from the {self.zone} (CR 113.6k)"
        if self.reduction is not None:
            extra += f"; costs {{{self.reduction[0]}}} less to activate for each {self.reduction[1].describe()}"
        if self.limit is not None:
            extra += "; activate only once each turn" if self.limit == 1 else \
                f"; activate at most {self.limit} times each turn"
        if self.condition is not None:
            extra += f"; activate only if {self.condition.describe()}"
        return f"activated: {self.cost.describe()}: " + "; ".join(e.describe() for e in self.effects) + t \
            + describe_modes(self) + extra


@dataclass(frozen=True)
class Trigger:
    """A trigger event (CR 603.1): the base of the event kinds below, one class each.
    ``event`` is a read-only class-level name of the kind (``enters``, ``dies`` …);
    ``of_source``: the event happens to the ability's source ("this"), so "it" in the effect
    is the source."""

    event: ClassVar[str] = ""
    of_source: ClassVar[bool] = False

    def describe(self) -> str:
        return self.event


@dataclass(frozen=True)
class EntersTrigger(Trigger):
    """"When this enters" (CR 603.6a: an enters-the-battlefield trigger)."""

    event: ClassVar[str] = "enters"
    of_source: ClassVar[bool] = True

    def describe(self) -> str:
        return "when this enters"


@dataclass(frozen=True)
class DiesTrigger(Trigger):
    """"When this dies" (CR 700.4, 603.6c: a leaves-the-battlefield trigger, which looks back).
    ``any_permanent``: "When this is put into a graveyard from the battlefield" — the same event for a
    permanent of any type (an Aura, an artifact), where "dies" is said of creatures only (700.4)."""

    event: ClassVar[str] = "dies"
    of_source: ClassVar[bool] = True
    any_permanent: bool = False

    def describe(self) -> str:
        return "when this is put into a graveyard from the battlefield" if self.any_permanent else "when this dies"


@dataclass(frozen=True)
class AttacksTrigger(Trigger):
    """"Whenever this attacks" (CR 508.3a: triggers as attackers are declared)."""

    event: ClassVar[str] = "attacks"
    of_source: ClassVar[bool] = True

    def describe(self) -> str:
        return "whenever this attacks"


@dataclass(frozen=True)
class BecomesTappedTrigger(Trigger):
    """"Whenever this becomes tapped" (CR 603.2, 701.26a)."""

    event: ClassVar[str] = "becomes_tapped"
    of_source: ClassVar[bool] = True

    def describe(self) -> str:
        return "whenever this becomes tapped"


#: The steps and phases a "beginning of" trigger names (CR 501-513), as :data:`solver.core.state.STEPS` names them.
TRIGGER_STEPS: dict[str, str] = {"upkeep": "upkeep", "draw": "draw step", "main1": "precombat main phase",
                                 "beginning_of_combat": "combat", "main2": "postcombat main phase", "end": "end step"}


@dataclass(frozen=True)
class StepTrigger(Trigger):
    """"At the beginning of [your | each | each opponent's] <step or phase>" (CR 503.1a, 504.2,
    505.4, 507.1, 513.1a, 603.2b: it triggers as that step or phase begins). ``step``: a key of
    :data:`TRIGGER_STEPS`; ``whose``: ``you`` (the ability's controller's turn), ``opponent`` (an
    opponent's turn) or ``each`` (every turn, "each" / "the")."""

    event: ClassVar[str] = "step_begins"
    step: str = "upkeep"
    whose: str = "you"
    # the zone the ability functions from (CR 113.6): "battlefield", or "exile" for suspend's upkeep ability
    # (702.62a: "if this card is suspended", 702.62b), whose "you" is the card's owner
    zone: str = "battlefield"

    def describe(self) -> str:
        if self.zone != "battlefield":
            return f"at the beginning of your upkeep, if this card is in {self.zone}"
        whose = {"you": "your", "opponent": "each opponent's", "each": "each"}[self.whose]
        step = TRIGGER_STEPS[self.step]
        if self.step == "beginning_of_combat":
            return "at the beginning of combat" + (" on your turn" if self.whose == "you" else
                                                   " on each opponent's turn" if self.whose == "opponent" else "")
        return f"at the beginning of {whose} {step}"


@dataclass(frozen=True)
class ObjectEntersTrigger(Trigger):
    """"Whenever [another] <permanents> enter[s] [under your control]", "Whenever this creature or
    another <permanent> enters" (CR 603.2, 603.6a: an enters-the-battlefield trigger of other objects,
    checked after the event). ``what``: the permanents (a :class:`Filter` of the battlefield, ``who``
    the controller relative to the ability's controller, ``other_than_source`` for "another");
    ``self_too``: "this <permanent> or another …"; ``tapped``: "… enters tapped" (only a permanent that
    entered tapped, CR 603.6a, 614.1c)."""

    event: ClassVar[str] = "object_enters"
    what: Filter = field(default_factory=lambda: Filter())
    self_too: bool = False
    tapped: bool = False

    def describe(self) -> str:
        return f"whenever {'this or ' if self.self_too else ''}{self.what.describe()} enters" + \
            (" tapped" if self.tapped else "")


@dataclass(frozen=True)
class ObjectDiesTrigger(Trigger):
    """"Whenever [another] <creature> dies" (CR 700.4, 603.6c, 603.10a: a leaves-the-battlefield
    trigger, which looks back in time: the dying creature as it last existed, and the sources that
    left the battlefield with it)."""

    event: ClassVar[str] = "object_dies"
    what: Filter = field(default_factory=lambda: Filter())
    self_too: bool = False

    def describe(self) -> str:
        return f"whenever {'this or ' if self.self_too else ''}{self.what.describe()} dies"


@dataclass(frozen=True)
class LeavesTrigger(Trigger):
    """"When this <permanent> leaves the battlefield" (CR 603.6c, 603.10a: looks back in time)."""

    event: ClassVar[str] = "leaves_battlefield"
    of_source: ClassVar[bool] = True

    def describe(self) -> str:
        return "when this leaves the battlefield"


@dataclass(frozen=True)
class CastTrigger(Trigger):
    """"Whenever [you | a player | an opponent] cast[s] <a spell>" (CR 601.2i, 603.2: it triggers when
    the spell becomes cast, after its costs are paid). ``who``: ``you`` | ``any`` | ``opponent``;
    ``spells``: the spells it names (any of; empty: any spell), matched on the spell's
    characteristics on the stack. Prowess is this trigger (CR 702.108a). ``mv_counters``: only a spell
    whose mana value (CR 202.3) equals the number of counters of that kind on the source ("a spell with
    mana value equal to the number of charge counters on this artifact"), compared as the spell becomes
    cast (CR 603.2)."""

    event: ClassVar[str] = "spell_cast"
    who: str = "you"
    spells: tuple[Filter, ...] = ()
    nth: int = 0   # "your second spell each turn": only the caster's nth spell this turn (0: any)
    mv_counters: str = ""

    def describe(self) -> str:
        who = {"you": "you cast", "any": "a player casts", "opponent": "an opponent casts"}[self.who]
        what = " or ".join(describe_spell_filter(f) for f in self.spells) or "a spell"
        if self.mv_counters:
            what += f" with mana value equal to the number of {self.mv_counters} counters on this"
        if self.nth:
            what = {1: "first", 2: "second", 3: "third", 4: "fourth", 5: "fifth"}.get(self.nth, str(self.nth)) + \
                " spell each turn"
            who = {"you": "you cast your", "any": "a player casts their", "opponent": "an opponent casts their"}[self.who]
        return f"whenever {who} {what}"


@dataclass(frozen=True)
class DealtDamageTrigger(Trigger):
    """"Whenever this creature is dealt damage" (CR 120.3, 603.2c: once for each damage event — damage
    dealt at the same time by several sources is one event, so it triggers once per batch)."""

    event: ClassVar[str] = "dealt_damage"
    of_source: ClassVar[bool] = True
    once_per_batch: ClassVar[bool] = True

    def describe(self) -> str:
        return "whenever this is dealt damage"


@dataclass(frozen=True)
class GroupCombatDamageTrigger(Trigger):
    """"Whenever one or more <creatures you control> deal combat damage to a player" (CR 510.2, 603.2c:
    once for each player dealt combat damage by them in a combat damage step)."""

    event: ClassVar[str] = "group_combat_damage"
    once_per_batch: ClassVar[bool] = True
    what: Filter = field(default_factory=lambda: Filter())
    to: str = "player"

    def describe(self) -> str:
        return f"whenever one or more {self.what.describe()} deal combat damage to a player"


@dataclass(frozen=True)
class UnblockedTrigger(Trigger):
    """"Whenever this creature attacks and isn't blocked" (CR 509.1h, 603.2: it triggers as blockers are
    declared and none block it)."""

    event: ClassVar[str] = "unblocked"
    of_source: ClassVar[bool] = True

    def describe(self) -> str:
        return "whenever this attacks and isn't blocked"


@dataclass(frozen=True)
class CastSelfTrigger(Trigger):
    """"When you cast this spell" (CR 601.2i, 603.2, 113.6c: an ability of the spell that functions on the
    stack; it triggers as the spell becomes cast and goes on the stack above it)."""

    event: ClassVar[str] = "this_spell_cast"
    of_source: ClassVar[bool] = True

    def describe(self) -> str:
        return "when you cast this spell"


@dataclass(frozen=True)
class CombatDamageTrigger(Trigger):
    """"Whenever <this creature | equipped creature | enchanted creature | a creature you control>
    deals [combat] damage to a player" (CR 120.1, 510.2, 510.3a, 603.2: it triggers as the damage is
    dealt, once for each player dealt damage). ``subject``: ``self``, ``attached`` (the creature the
    source is attached to) or ``filter`` (``what`` names the creatures); ``to``: ``player``,
    ``opponent``, ``creature`` ("to a creature": once for each creature dealt damage, "that creature" is
    it) or ``any`` ("deals combat damage", no recipient named: once for all the damage dealt at once, CR
    510.2 — Umezawa's Jitte's ruling); ``combat``: combat damage only."""

    event: ClassVar[str] = "deals_combat_damage"
    subject: str = "self"
    what: Filter | None = None
    to: str = "player"
    combat: bool = True

    @property
    def of_source(self) -> bool:  # type: ignore[override]
        return self.subject == "self"

    @property
    def once_per_batch(self) -> bool:
        """"Deals combat damage" to no named recipient triggers once for the damage dealt at once (CR 510.2)."""
        return self.to == "any"

    def describe(self) -> str:
        who = {"self": "this creature", "attached": "the creature it is attached to"}.get(
            self.subject, self.what.describe() if self.what else "a creature")
        kind = "combat damage" if self.combat else "damage"
        to = {"player": " to a player", "opponent": " to an opponent", "creature": " to a creature"}.get(self.to, "")
        return f"whenever {who} deals {kind}{to}"


@dataclass(frozen=True)
class LifeGainTrigger(Trigger):
    """"Whenever you gain life" (CR 119.9, 603.2: once for each life-gain event; lifelink damage from
    one source is one event, 120.3f)."""

    event: ClassVar[str] = "life_gained"

    def describe(self) -> str:
        return "whenever you gain life"


@dataclass(frozen=True)
class DrawTrigger(Trigger):
    """"Whenever [you | a player | an opponent] draw(s) a card" (CR 121.2, 603.2: once for each card
    drawn). ``who``: ``you`` | ``any`` | ``opponent`` — whose draws it looks at; the player who drew is
    the event's player ("that player", "they", CR 608.2c)."""

    event: ClassVar[str] = "card_drawn"
    who: str = "you"

    def describe(self) -> str:
        return {"you": "whenever you draw a card", "any": "whenever a player draws a card",
                "opponent": "whenever an opponent draws a card"}[self.who]


@dataclass(frozen=True)
class YouAttackTrigger(Trigger):
    """"Whenever you attack [with ``n`` or more creatures]" (CR 508.1, 508.3a: once each combat, as its
    controller declares ``n`` or more attacking creatures; ``n`` 1: one or more)."""

    event: ClassVar[str] = "you_attack"
    n: int = 1

    def describe(self) -> str:
        return "whenever you attack" + (f" with {self.n} or more creatures" if self.n > 1 else "")


@dataclass(frozen=True)
class OtherAttacksTrigger(Trigger):
    """"Whenever <equipped creature | enchanted creature | a creature you control | a <desc> you
    control> attacks" (CR 508.3a: it triggers as that creature is declared as an attacker).
    ``subject``: ``attached`` or ``filter`` (``what``)."""

    event: ClassVar[str] = "other_attacks"
    subject: str = "filter"
    what: Filter | None = None
    alone: bool = False   # "attacks alone": it is the only creature declared as an attacker (CR 506.5)

    def describe(self) -> str:
        who = "the creature it is attached to" if self.subject == "attached" else \
            (self.what.describe() if self.what else "a creature")
        return f"whenever {who} attacks" + (" alone" if self.alone else "")


@dataclass(frozen=True)
class BlocksTrigger(Trigger):
    """"Whenever this creature blocks" (CR 509.1, 509.3c: it triggers as it is declared as a blocker)."""

    event: ClassVar[str] = "self_blocks"
    of_source: ClassVar[bool] = True

    def describe(self) -> str:
        return "whenever this blocks"


@dataclass(frozen=True)
class BecomesBlockedTrigger(Trigger):
    """"Whenever this creature becomes blocked" (CR 509.1h, 509.3d: once, as blockers are declared,
    however many creatures block it)."""

    event: ClassVar[str] = "becomes_blocked"
    of_source: ClassVar[bool] = True

    def describe(self) -> str:
        return "whenever this becomes blocked"


@dataclass(frozen=True)
class EitherTrigger(Trigger):
    """One triggered ability with several trigger events ("Whenever this creature enters or attacks",
    "Whenever this creature attacks or blocks": CR 603.2 — it triggers on each of them). ``events``:
    the events, none of them an :class:`EitherTrigger`."""

    event: ClassVar[str] = "either_event"
    events: tuple[Trigger, ...] = ()

    @property
    def of_source(self) -> bool:  # type: ignore[override]
        return all(e.of_source for e in self.events)

    def describe(self) -> str:
        return " or ".join(e.describe() for e in self.events)


@dataclass(frozen=True)
class TappedForMana(Trigger):
    """Whenever a permanent in ``selector`` is tapped for mana (lands; enchanted land) — the
    event of triggered mana abilities (CR 106.12a, 605.1b)."""

    event: ClassVar[str] = "tapped_for_mana"
    selector: Selector | None = None

    def describe(self) -> str:
        return f"whenever {self.selector.describe() if self.selector else 'it'} is tapped for mana"


@dataclass(frozen=True)
class BecomesTargetTrigger(Trigger):
    """"Whenever this permanent becomes the target of a spell or ability an opponent controls" — the
    event of ward (CR 702.21a, 115.1): a spell cast, an ability activated or a triggered ability put
    on the stack with this permanent among its targets."""

    event: ClassVar[str] = "becomes_target"
    of_source: ClassVar[bool] = True

    def describe(self) -> str:
        return "whenever this becomes the target of a spell or ability an opponent controls"


#: Every trigger-event kind.
@dataclass(frozen=True)
class LastCounterRemovedTrigger(Trigger):
    """"When the last time counter is removed from this card/permanent" (CR 702.62a suspend, in exile;
    702.63a vanishing, on the battlefield): it triggers when an effect removes the last ``counter`` counter
    from its source (:class:`RemoveCounter`); ``zone``: where the ability functions (CR 113.6)."""

    event: ClassVar[str] = "last_counter_removed"
    of_source: ClassVar[bool] = True
    counter: str = "time"
    zone: str = "battlefield"

    def describe(self) -> str:
        return f"when the last {self.counter} counter is removed from this " + (
            "card in exile" if self.zone == "exile" else "permanent")


@dataclass(frozen=True)
class CycleTrigger(Trigger):
    """"When you cycle this card" (CR 702.29c): "When you discard this card to pay an activation cost of a
    cycling ability" — it triggers from whatever zone the card winds up in (the graveyard), as the cycling
    ability is activated; the triggered ability's X is the X paid for the cycling cost."""

    event: ClassVar[str] = "cycled"
    of_source: ClassVar[bool] = True

    def describe(self) -> str:
        return "when you cycle this card"


@dataclass(frozen=True)
class DiscardTrigger(Trigger):
    """"Whenever [you | a player | an opponent] discard(s) a card" (CR 701.9a, 603.2: once for each card
    discarded). ``who``: ``you`` | ``any`` | ``opponent``; the event names the card, in its owner's graveyard
    ("that card", CR 400.7: only to be exiled or returned from there), and the player who discarded it."""

    event: ClassVar[str] = "card_discarded"
    who: str = "you"

    def describe(self) -> str:
        return {"you": "whenever you discard a card", "any": "whenever a player discards a card",
                "opponent": "whenever an opponent discards a card"}[self.who]


@dataclass(frozen=True)
class ReflexiveTrigger(Trigger):
    """The event of a reflexive triggered ability (CR 603.12): the instruction of the resolving spell or
    ability that created it happened ("When it connives this way, …"). It triggers only from there
    (:class:`Reflexive`), never from an event of the game."""

    event: ClassVar[str] = "reflexive"

    def describe(self) -> str:
        return "when that instruction happens"


TRIGGER_CLASSES: tuple[type[Trigger], ...] = (ReflexiveTrigger, DiscardTrigger, EntersTrigger, DiesTrigger, AttacksTrigger, BecomesTappedTrigger,
                                              StepTrigger, TappedForMana, BecomesTargetTrigger, ObjectEntersTrigger,
                                              ObjectDiesTrigger, LeavesTrigger, CastTrigger, CombatDamageTrigger,
                                              LifeGainTrigger, DrawTrigger, YouAttackTrigger, OtherAttacksTrigger,
                                              BlocksTrigger, BecomesBlockedTrigger, EitherTrigger, CastSelfTrigger,
                                              DealtDamageTrigger, GroupCombatDamageTrigger, UnblockedTrigger,
                                              LastCounterRemovedTrigger, CycleTrigger)


@dataclass(frozen=True)
class TriggeredAbility:
    """A triggered ability that uses the stack (CR 603)."""

    trigger: Trigger
    targets: tuple[TargetSpec, ...] = ()
    effects: tuple[Effect, ...] = ()
    text: str = ""
    # a modal ability (CR 700.2, solver/reader/modes.py): see :class:`Mode`
    modes: "tuple[Mode, ...]" = ()
    min_modes: int = 0
    max_modes: int = 0
    mode_repeat: bool = False
    # an intervening "if" clause (CR 603.4): checked as the event happens and again as it resolves
    condition: "ActivationCondition | None" = None
    # an intervening "if" on how its source was cast (CR 603.4), checked as it triggers and as it resolves:
    # ``evoke`` ("if its evoke cost was paid", 702.74a: the permanent's ``cast_with``); "": none
    if_cast: str = ""

    def describe(self) -> str:
        t = ("; targets: " + ", ".join(s.describe() for s in self.targets)) if self.targets else ""
        cond = (f", if {self.condition.describe()}" if self.condition is not None else "") + \
            (", " + describe_if_cast(self.if_cast) if self.if_cast else "")
        return f"triggered: {self.trigger.describe()}{cond}: " + "; ".join(e.describe() for e in self.effects) + t \
            + describe_modes(self)


@dataclass(frozen=True)
class TriggeredManaAbility:
    """A triggered mana ability (CR 605.1b, 605.4a, 106.12a): whenever a permanent
    in ``trigger.selector`` is tapped for mana, the tapping player (or the land's
    controller) adds ``produce``."""

    trigger: Trigger
    produce: Produce
    text: str = ""

    def describe(self) -> str:
        return f"triggered mana ability: {self.trigger.describe()}: add {self.produce.describe()}"


@dataclass(frozen=True)
class Keyword:
    """A keyword ability (CR 702), by its lower-case name: ``hexproof``,
    ``shroud``, ``protection`` (``arg``: a color letter), ``haste``, ``flash``,
    ``indestructible``, ``deathtouch``, ``lifelink``, ``flying``, ``reach``,
    ``vigilance``, ``menace``, ``trample``, ``first strike``, ``double
    strike``, ``defender``, ``landwalk`` (``arg``: land type); ``enchant`` is
    :class:`Enchant`.

    What each one does in the questions this project answers:

    * ``hexproof``, ``shroud``, ``protection`` — targeting (CR 702.11b,
      702.18a, 702.16b) and, for protection, damage prevention and Auras
      (CR 702.16c, 702.16e). ``protection``'s ``arg`` is a quality
      (:func:`solver.rules.casting_rules.has_quality`): a color letter,
      ``multicolored``, ``monocolored``, ``colorless``, ``everything``
      (CR 702.16j), a card type (``Artifact``, ``Creature`` …: "protection
      from artifacts") or ``colored spells`` (spells only: "protection from
      spells that are one or more colors");
    * ``hexproof from`` (``arg``: a quality as for protection) — CR 702.11e:
      can't be the target of spells with that quality an opponent controls
      or abilities an opponent controls from sources with that quality;
    * ``ward`` (``arg``: the ward cost as printed) — CR 702.21a: a triggered
      ability that counters the spell or ability targeting it unless its
      controller pays; it never makes a target illegal, so choices of
      targets are unchanged;
    * ``indestructible`` — not destroyed by lethal damage, deathtouch or
      "destroy" (CR 702.12b);
    * ``deathtouch`` — a creature dealt damage by it (any amount, any damage,
      not only combat: fight, "deals N damage") is destroyed by the next
      state-based action check (CR 702.2b, 704.5h);
    * ``lifelink`` — damage it deals makes its controller gain that much life
      at the same time (CR 702.15b);
    * ``haste``, ``flash`` — when a permanent can be activated ({T}) or a
      spell cast (CR 702.10, 702.8);
    * ``vigilance``, ``reach``, ``menace``, ``flying``, ``first strike``,
      ``double strike``, ``trample``, ``landwalk``, ``defender``, and the
      evasion keywords ``fear``, ``intimidate``, ``shadow``, ``horsemanship``,
      ``skulk`` — combat only (attacking, blocking, combat damage: CR
      506–511), applied by :mod:`solver.engine.combat` (the ``attacks`` and
      ``blocks`` queries, combat damage in ``pass``); a fight, which is not
      combat damage, ignores them (CR 701.14d);
    * ``infect``, ``wither``, ``toxic`` (``arg``: N) — what its damage does (CR 702.90b, 702.80a,
      702.164b): -1/-1 counters on creatures instead of marked damage (infect, wither), poison counters
      instead of life loss (infect), N more poison counters with its combat damage to a player (toxic);
      applied by the one damage event (:mod:`solver.engine.resolution`);
    * ``daybound``, ``nightbound`` — day and night (CR 702.145, 730): a permanent with daybound makes
      it day if it is neither (702.145d), enters transformed if it is night, transforms as it becomes
      night, and its nightbound face back as it becomes day (702.145c, 702.145f); it can't be
      transformed otherwise (702.145b, 702.145e). Applied by :mod:`solver.engine.transition`
      (``move``, ``transform``, ``set_day_night``) and the untap step (:mod:`solver.engine.turns`);
    * ``reconfigure`` — marks the two activated abilities CR 702.151a defines, read next to it
      (attach to another target creature you control; unattach, only while attached to a creature):
      while attached, it isn't a creature (702.151b, layer 4 in :mod:`solver.rules.characteristics`)
      and, a creature, it may still equip one (301.5c; :func:`solver.engine.transition.attachment_legal`)."""

    name: str
    arg: str = ""

    def describe(self) -> str:
        if self.name in ("protection", "hexproof from"):
            return f"keyword: {self.name.removesuffix(' from')} from {self.arg_text}"
        return f"keyword: {self.name}{(' ' + self.arg) if self.arg else ''}"

    @property
    def arg_text(self) -> str:
        if self.arg in CARD_TYPES:
            return "sorceries" if self.arg == "Sorcery" else self.arg.lower() + "s"
        return {"W": "white", "U": "blue", "B": "black", "R": "red", "G": "green",
                "colored spells": "spells that are one or more colors"}.get(self.arg, self.arg)


@dataclass(frozen=True)
class Enchant:
    """Enchant [object] (CR 702.5a, 303.4a): the Aura spell's target and what it may enchant."""

    filter: Filter

    def describe(self) -> str:
        return f"enchant {self.filter.describe()}"


@dataclass(frozen=True)
class ManaReplacement:
    """A replacement effect on a mana production event (CR 106.12b, 614).

    Applies when a permanent matching ``tapped`` is tapped for mana by a player
    matching ``tapper`` (``any`` | ``you``, relative to this effect's
    controller). ``op``: ``multiply`` (``factor`` times as much of that mana),
    ``set_type`` (``mana_type`` instead of any other type, amount kept),
    ``set_type_and_amount`` (one ``mana_type`` instead of any other type and amount).
    """

    tapped: Selector
    op: str
    tapper: str = "any"
    factor: int = 1
    mana_type: str = ""
    text: str = ""

    def describe(self) -> str:
        who = "you tap" if self.tapper == "you" else "a player taps"
        if self.op == "multiply":
            what = {2: "twice", 3: "three times"}.get(self.factor, f"{self.factor} times") + " as much of that mana"
        elif self.op == "set_type":
            what = f"{{{self.mana_type}}} instead of any other type"
        else:
            what = f"{{{self.mana_type}}} instead of any other type and amount"
        return f"replacement (CR 106.12b): if {who} {self.tapped.describe().rstrip('s')} for mana, it produces {what}"


@dataclass(frozen=True)
class CounterReplacement:
    """A replacement effect on counters being put on a permanent (CR 122.6, 614).

    ``affected``: which permanents; ``counter``: counter kind it applies to
    (empty: any); ``op``: ``double`` (twice that many) or ``plus_one``
    (that many plus one)."""

    affected: Selector
    op: str
    counter: str = ""
    text: str = ""

    def describe(self) -> str:
        c = self.counter or "any"
        what = "twice that many" if self.op == "double" else "that many plus one"
        return f"replacement: if {c} counters would be put on {self.affected.describe().rstrip('s')}, {what} instead"


@dataclass(frozen=True)
class TokenReplacement:
    """If an effect would create tokens under your control, ``factor`` times that many instead."""

    factor: int = 2
    text: str = ""

    def describe(self) -> str:
        return f"replacement: tokens you would create are created {self.factor} times over"


@dataclass(frozen=True)
class EntersWith:
    """"This permanent enters [tapped] [with N counters]" — a self-replacement
    on entering (CR 614.1c). ``amount`` may be ``"X"`` (CR 107.3m: the spell's X).
    ``choose``: "As this permanent enters, choose a color [other than …]"
    (``"color"``; CR 614.12, 614.1c), ``choose_except`` the colors not allowed
    (letters); the choice is the object's ``chosen`` color. ``"creature type"``:
    "As this permanent enters, choose a creature type" (the object's ``chosen``
    type; resolution does not enumerate the ~300 creature types, it reports
    such an entry unsupported)."""

    counter: str = ""
    amount: Amount = 0
    tapped: bool = False
    text: str = ""
    choose: str = ""
    choose_except: tuple[str, ...] = ()
    # only if the permanent's spell was cast that way (:func:`solver.rules.faces.cast_as`): ``kicked`` ("If this
    # creature was kicked, it enters with …", CR 702.33e), ``escape`` ("escapes with …", 702.138c); "": always
    if_cast: str = ""
    # "enters tapped unless <condition>" (CR 614.1c): not tapped when the condition holds as it would enter
    unless: "ActivationCondition | None" = None
    # "If <condition>, this land enters tapped." (CR 614.1c): tapped only when the condition holds as it would enter
    when: "ActivationCondition | None" = None
    # "As this land enters, you may pay N life. If you don't, it enters tapped." (CR 614.12, 614.1c, 119.4):
    # the controller's choice as it would enter; paying (only with N or more life) it enters untapped
    pay_life: int = 0

    def describe(self) -> str:
        parts = [describe_if_cast(self.if_cast) + ":"] if self.if_cast else []
        if self.tapped:
            parts.append("tapped" + (f" unless {self.unless.describe()}" if self.unless is not None else "")
                         + (f" if {self.when.describe()}" if self.when is not None else "")
                         + (f" unless its controller pays {self.pay_life} life" if self.pay_life else ""))
        if self.counter:
            parts.append(f"with {describe_amount(self.amount)} {self.counter} counters")
        if self.choose:
            other = (" other than " + "/".join(self.choose_except)) if self.choose_except else ""
            parts.append(f"choosing a {self.choose}{other}")
        return "replacement: enters " + " ".join(parts)


@dataclass(frozen=True)
class Skeleton:
    """The structure of an ability whose meaning is not modeled (reader/skeleton.py): what
    legal choices could depend on, read even though the ability itself stays unread.

    ``kind``: ``keyword`` (a keyword ability named with its parameter, CR 702 — its costs,
    timing and targets are those the keyword's rule defines), ``static`` (CR 604: no cost,
    timing or target slot of its own), ``triggered`` (CR 603: event, condition and effect
    unread; its target slots read), ``activated`` (CR 602: cost and timing read, effect
    unread; its target slots read). ``keyword``: the keyword's name; ``cost``: an activated
    ability's cost; ``timing``: the activation restrictions read ("sorcery", "once each turn",
    …); ``targets``: the target slots (CR 115.1), each with its filter and count."""

    kind: str
    keyword: str = ""
    cost: Cost | None = None
    timing: tuple[str, ...] = ()
    targets: tuple["TargetSpec", ...] = ()
    # a cost the IR cannot hold, item by item: "mana {1}{U}", "tap", "exile: ~ from your graveyard"
    cost_items: tuple[str, ...] = ()
    modes: tuple[int, int | None] | None = None  # a choice of modes (CR 700.2): how many, None: no maximum

    def describe(self) -> str:
        bits = [self.kind + (f" {self.keyword}" if self.keyword else "")]
        if self.cost is not None:
            bits.append(f"cost {self.cost.describe()}")
        if self.cost_items:
            bits.append("cost " + ", ".join(self.cost_items))
        if self.modes is not None:
            lo, hi = self.modes
            bits.append(f"choose {lo}..{'any' if hi is None else hi} modes")
        bits += list(self.timing)
        if self.targets:
            bits.append("targets: " + ", ".join(t.describe() for t in self.targets))
        return "; ".join(bits)


@dataclass(frozen=True)
class Unsupported:
    """A part of a card the project does not model. Always reported.

    ``kind`` says what sort of ability the part is when that is known
    (``activated``, ``triggered``, ``static`` or ``""``; ``rider`` for an
    unread sentence of the ability before it, which is not an ability of its
    own), so that
    ``{object, index}`` numbering of activated and triggered abilities stays
    right even when an earlier ability is not modeled (a query that names an
    unsupported ability reports it as unsupported)."""

    what: str
    text: str = ""
    kind: str = ""
    affects: frozenset[str] = frozenset()  # what it could change (AFFECTS), when known; empty: classify the text
    # its structure, when read although its meaning is not (reader/skeleton.py); still unread
    structure: Skeleton | None = None

    def describe(self) -> str:
        return f"unsupported: {self.text or self.what}"


def ability_kind_of_line(line: str) -> str:
    """Classify an Oracle line by its shape (CR 113.3): ``activated`` ("[Cost]:
    [Effect]", CR 602.1), ``triggered`` ("When/Whenever/At …", CR 603.1) or
    ``static`` otherwise. Quoted text (granted abilities) and reminder text
    are ignored."""
    import re

    body = re.sub(r"\([^)]*\)", "", line)
    body = re.sub(r'"[^"]*"', '""', body).strip()
    low = body.lower()
    if low.startswith(("when ", "whenever ", "at ")):
        return "triggered"
    if re.match(r"[ivx]+(?:, [ivx]+)* —", low):
        return "triggered"  # a Saga's chapter ability (CR 714.2b)
    if ":" in body and not low.startswith(("choose ", "•")):
        head = body.split(":", 1)[0]
        if "{" in head or any(w in head.lower() for w in ("sacrifice", "tap ", "pay ", "remove ", "discard", "exile",
                                                          "return ", "untap", "put ", "reveal", "mill", "collect",
                                                          "forage", "loyalty", "+", "−", "-", "equip", "cycling", "[")):
            return "activated"
    if low.startswith(("equip ", "equip—", "equip{", "cycling", "fortify", "reconfigure", "level up", "outlast", "scavenge", "unearth",
                       "ninjutsu", "transmute", "embalm", "eternalize", "boast", "crew", "basic landcycling",
                       "landcycling", "transfigure", "auto-equip")):
        return "activated"  # keyword abilities that are activated abilities (CR 702)
    if low.startswith(("persist", "undying", "prowess", "exalted", "evolve", "afflict", "annihilator")):
        return "triggered"  # keyword abilities that are triggered abilities (CR 702.79, 702.93)
    return "static"


@dataclass(frozen=True)
class CastingRule:
    """A static ability that changes the casting of spells (CR 601.2f, 601.3; module
    :mod:`solver.rules.casting_rules` applies them; the reader is :mod:`solver.reader.statics`):
    the base of the kinds below, one class each. ``who`` (``you`` | ``opponent`` | ``any``,
    relative to this ability's controller) says whose spells it changes; ``text`` is the printed
    line. ``kind`` is a read-only class-level name of the kind."""

    kind: ClassVar[str] = ""
    who: str = field(default="any", kw_only=True)
    text: str = field(default="", kw_only=True)

    @property
    def _who(self) -> str:
        return {"you": " you cast", "opponent": " your opponents cast", "any": ""}[self.who]

    def describe(self) -> str:
        return f"casting rule: {self.kind}"


@dataclass(frozen=True)
class SpellsRule(CastingRule):
    """A casting rule about the spells matching ``spells`` (None: every spell) or any of
    ``spells_or`` ("Green spells and blue spells", CR 601.2f)."""

    spells: Filter | None = None
    spells_or: tuple[Filter, ...] = ()   # further spell descriptions, any of

    def spell_filters(self) -> tuple[Filter, ...] | None:
        """The spell descriptions a spell must fit one of (None: every spell)."""
        if self.spells is None:
            return None
        return (self.spells,) + self.spells_or

    @property
    def _what(self) -> str:
        return " and ".join(describe_spell_filter(f) for f in (self.spell_filters() or ())) or "spells"


@dataclass(frozen=True)
class CostChangeRule(SpellsRule):
    """Spells matching the rule cast by ``who`` cost ``amount`` generic mana more (or less),
    times ``per`` when given ("for each artifact you control"; CR 601.2f, 118.7: a reduction
    reduces only the generic component); ``self_only``: the ability of the spell itself
    ("This spell costs {1} less to cast for each …", affinity, CR 702.41a)."""

    amount: int = 0
    per: Count | None = None
    self_only: bool = False
    # "This spell costs {2} less to cast if you control a Wizard": the change applies only while it
    # holds, judged as the total cost is determined (CR 601.2f)
    condition: ActivationCondition | None = None

    def describe(self) -> str:
        what, who = ("this spell", "") if self.self_only else (self._what, self._who)
        per = f" for each of {self.per.describe()}" if self.per is not None else ""
        more = "more" if isinstance(self, CostIncrease) else "less"
        verb = "costs" if self.self_only else "cost"
        cond = f" {self.condition.describe()}" if self.condition is not None else ""
        return f"cost rule (CR 601.2f): {what}{who} {verb} {{{self.amount}}} {more} to cast{per}{cond}"


@dataclass(frozen=True)
class CostIncrease(CostChangeRule):
    """The spells cost ``amount`` (times ``per``) generic mana more (CR 601.2f)."""

    kind: ClassVar[str] = "cost_increase"


@dataclass(frozen=True)
class CostReduction(CostChangeRule):
    """The spells cost ``amount`` (times ``per``) generic mana less (CR 601.2f, 118.7)."""

    kind: ClassVar[str] = "cost_reduction"


@dataclass(frozen=True)
class CostMinimum(CastingRule):
    """Trinisphere: a spell whose total cost is less than ``amount`` mana costs ``amount`` mana
    (applied after every increase and reduction, CR 601.2f), while the source is untapped when
    ``untapped_only``."""

    kind: ClassVar[str] = "cost_minimum"
    amount: int = 0
    untapped_only: bool = False

    def describe(self) -> str:
        cond = "as long as this permanent is untapped, " if self.untapped_only else ""
        return (f"cost rule (CR 601.2f): {cond}each spell that would cost less than {self.amount} mana costs "
                f"{self.amount} mana")


@dataclass(frozen=True)
class AsThoughFlash(SpellsRule):
    """``who`` may cast the spells as though they had flash (CR 702.8a, 601.3)."""

    kind: ClassVar[str] = "as_though_flash"

    def describe(self) -> str:
        return f"timing rule (CR 702.8a): {self.who} may cast {self._what} as though they had flash"


@dataclass(frozen=True)
class SorceryTimingOnly(CastingRule):
    """``who`` can cast spells only any time they could cast a sorcery (CR 307.1, 601.3; Teferi,
    Time Raveler)."""

    kind: ClassVar[str] = "sorcery_timing_only"

    def describe(self) -> str:
        return f"timing rule (CR 601.3): {self.who} can cast spells only any time they could cast a sorcery"


@dataclass(frozen=True)
class CantCastDuringYourTurn(CastingRule):
    """``who`` can't cast spells during this ability's controller's turn (CR 601.3; Dragonlord
    Dromoka)."""

    kind: ClassVar[str] = "cant_cast_during_your_turn"

    def describe(self) -> str:
        return f"timing rule (CR 601.3): {self.who} can't cast spells during your turn"


#: Every casting-rule kind.
CASTING_RULE_CLASSES: tuple[type[CastingRule], ...] = (CostIncrease, CostReduction, CostMinimum, AsThoughFlash,
                                                        SorceryTimingOnly, CantCastDuringYourTurn)


@dataclass(frozen=True)
class CardCost:
    """The parts of a spell's alternative or additional cost other than mana
    (CR 118.9, 601.2b, 601.2h), for :class:`CastingOption`.

    ``life``: pay N life (CR 119.4); ``sacrifice``: sacrifice ``sacrifice_count``
    permanents you control, each matching one of the selectors (CR 701.21;
    "an artifact or creature" is two selectors); ``return_``: return
    ``return_count`` permanents you control matching one of the selectors to
    their owner's hand; ``exile_hand``: exile N cards from your hand (other than
    the spell), of color ``exile_hand_color`` when set; ``discard``: discard N
    cards (of card type ``discard_type`` when set: retrace's land card);
    ``exile_graveyard``: exile N other cards from your graveyard (escape)."""

    life: int = 0
    sacrifice: tuple[Selector, ...] = ()
    sacrifice_count: int = 0
    return_: tuple[Selector, ...] = ()
    return_count: int = 0
    exile_hand: int = 0
    sacrifice_color: str = ""       # the sacrificed permanents are of this color ("a green creature")
    sacrifice_power: int = 0        # the sacrificed creatures have power N or greater (casualty N, CR 702.153a)
    exile_hand_color: str = ""
    discard: int = 0
    discard_type: str = ""
    exile_graveyard: int = 0

    def __bool__(self) -> bool:
        return bool(self.life or self.sacrifice_count or self.return_count or self.exile_hand or self.discard
                    or self.exile_graveyard)


@dataclass(frozen=True)
class CastingOption:
    """A way of casting the spell itself, or a cost it adds (read by
    :mod:`solver.reader.casting_options`, applied by :mod:`solver.rules.casting_options`): the
    base of the option kinds below, one class each (CR 601.2b, 601.2f–h, 118.9).

    ``name`` is how queries name the option (``alternative: <name>``): the keyword
    (``flashback``, ``escape``, ``evoke``, ``dash``, ``jump-start``, ``retrace``, ``delve`` …)
    or, for "rather than pay" lines, the cost as printed ("pay 1 life and exile a blue card from
    your hand"). ``zone``: where the card is cast from with it (``hand``, ``graveyard``; ``any``
    for a way of paying, whatever the mode). ``kind`` is a read-only class-level name."""

    kind: ClassVar[str] = ""
    name: str = ""
    zone: str = field(default="hand", kw_only=True)
    text: str = field(default="", kw_only=True)

    def describe(self) -> str:
        return f"casting option (CR 601.2b, 118.9): {self.kind} {self.name!r} from {self.zone}"


@dataclass(frozen=True)
class CostOption(CastingOption):
    """An option with a cost: ``mana`` (None: no mana of its own) and ``cost``, the other parts
    (CR 118.9, 601.2b)."""

    mana: ManaCost | None = None
    cost: CardCost = CardCost()

    def describe(self) -> str:
        parts = [self.mana.text] if self.mana is not None and self.mana else []
        c = self.cost
        if c.life:
            parts.append(f"pay {c.life} life")
        if c.sacrifice_count:
            parts.append(f"sacrifice {c.sacrifice_count} of " + " or ".join(s.describe() for s in c.sacrifice)
                         + (f" with power {c.sacrifice_power} or greater" if c.sacrifice_power else ""))
        if c.return_count:
            parts.append(f"return {c.return_count} of " + " or ".join(s.describe() for s in c.return_))
        if c.exile_hand:
            parts.append(f"exile {c.exile_hand} {c.exile_hand_color} card(s) from your hand".replace("  ", " "))
        if c.discard:
            parts.append(f"discard {c.discard} {c.discard_type.lower()} card(s)".replace("  ", " "))
        if c.exile_graveyard:
            parts.append(f"exile {c.exile_graveyard} other card(s) from your graveyard")
        what = ", ".join(parts) or "{0}"
        cond = f" if {self._condition}" if self._condition else ""
        return f"casting option (CR 601.2b, 118.9): {self.kind} {self.name!r} from {self.zone}: {what}{cond}"

    @property
    def _condition(self) -> str:
        return ""


@dataclass(frozen=True)
class AlternativeCost(CostOption):
    """Pay ``mana`` (None: no mana, i.e. {0}) and ``cost`` rather than the mana cost (CR 118.9:
    "You may … rather than pay this spell's mana cost", evoke 702.74a, flashback 702.34a, escape
    702.138a, dash 702.109a, overload 702.96a, spectacle 702.137a), cast from ``zone``, only when
    ``condition`` holds (``not_your_turn``; ``opponent_lost_life``; ``control`` with
    ``condition_selector``: "If you control a Plains")."""

    kind: ClassVar[str] = "alternative"
    condition: str = ""
    condition_selector: Selector | None = None

    @property
    def _condition(self) -> str:
        return self.condition


@dataclass(frozen=True)
class CastPermission(CostOption):
    """Cast from ``zone`` paying the mana cost plus ``cost`` (jump-start, CR 702.133a; retrace, CR 702.81a)."""

    kind: ClassVar[str] = "permission"


@dataclass(frozen=True)
class AdditionalCost(CostOption):
    """A mandatory additional cost (CR 601.2b: "As an additional cost to cast this spell, …"):
    ``mana`` and ``cost``."""

    kind: ClassVar[str] = "additional"


@dataclass(frozen=True)
class Kicker(CostOption):
    """An optional additional cost (CR 702.33a): ``mana`` and ``cost``."""

    kind: ClassVar[str] = "kicker"


@dataclass(frozen=True)
class Casualty(CostOption):
    """"Casualty N" (CR 702.153a): an optional additional cost, "you may sacrifice a creature with power N
    or greater" (``cost``: one creature you control, ``sacrifice_power`` N), and a triggered ability of the
    spell, "When you cast this spell, if a casualty cost was paid for it, copy it. If the spell has any
    targets, you may choose new targets for the copy" (read next to it: a
    :class:`TriggeredAbility` with ``if_cast="casualty"`` and :class:`CopySpell`); the stack object records
    that it was paid (``casualty``)."""

    kind: ClassVar[str] = "casualty"


@dataclass(frozen=True)
class Buyback(CostOption):
    """"Buyback [cost]" (CR 702.27a): an optional additional cost; if it was paid, the spell goes to its
    owner's hand instead of their graveyard as it resolves (the stack object's ``buyback``)."""

    kind: ClassVar[str] = "buyback"


@dataclass(frozen=True)
class Prototype(CastingOption):
    """"Prototype [mana cost] — [power]/[toughness]" (CR 702.160a, 718.2): the card may be cast prototyped,
    the spell — and the permanent it becomes — then having that mana cost, power and toughness and the
    mana cost's colors (718.3b–c), its other characteristics unchanged. Not an alternative cost: the
    prototype mana cost is the spell's mana cost (:func:`solver.rules.faces.prototyped_card`)."""

    kind: ClassVar[str] = "prototype"
    mana: ManaCost = field(default_factory=ManaCost)
    power: int = 0
    toughness: int = 0


@dataclass(frozen=True)
class PaymentOption(CastingOption):
    """Another way to pay the total cost, whatever the mode (zone ``any``), named ``delve``
    (CR 702.66a: exile cards from your graveyard, each paying {1}), ``convoke`` (CR 702.51a: tap
    untapped creatures you control, each paying {1} or one mana of its color) or ``improvise``
    (CR 702.126a: tap untapped artifacts you control, each paying {1})."""

    kind: ClassVar[str] = "payment"
    zone: str = field(default="any", kw_only=True)

    def describe(self) -> str:
        rule = {"delve": "702.66a", "convoke": "702.51a", "improvise": "702.126a"}.get(self.name, "601.2h")
        return f"casting option (CR {rule}): {self.name} pays part of the total cost"


#: Every casting-option kind.
OPTION_CLASSES: tuple[type[CastingOption], ...] = (AlternativeCost, CastPermission, AdditionalCost, Kicker,
                                                   PaymentOption, Prototype, Buyback, Casualty)


@dataclass(frozen=True)
class Suspend:
    """"Suspend N—[cost]" (CR 702.62a), the part that works from the hand: its owner may, as a
    special action (CR 116.2f), pay ``mana`` and exile the card from their hand with
    ``time_counters`` time counters on it, any time they have priority and could begin to cast it
    (sorcery timing unless it is an instant or has flash, CR 702.62a). It doesn't use the stack.
    The keyword's two triggered abilities, which work in exile (removing a time counter each upkeep;
    casting it without paying its mana cost when the last is removed, with haste), are a separate
    :class:`Unsupported` part (read by :mod:`solver.reader.casting_options`, applied by
    :mod:`solver.rules.suspend`)."""

    time_counters: int
    mana: ManaCost
    text: str = ""

    def describe(self) -> str:
        return (f"suspend (CR 702.62a, 116.2f): a special action from the hand: pay {self.mana.text or '{0}'} and "
                f"exile it with {self.time_counters} time counter(s)")


# --------------------------------------------------------------------------
# Ward (CR 702.21) and "can't be countered" (CR 101.2, 701.6a): keywords the engine models
# --------------------------------------------------------------------------


@dataclass(frozen=True)
class Ward:
    """"Ward [cost]" (CR 702.21a): a triggered ability — "Whenever this permanent becomes the
    target of a spell or ability an opponent controls, counter that spell or ability unless that
    player pays [cost]." ``cost``: the ward cost as the activation-cost grammar reads it
    (:func:`solver.reader.costs.parse_cost`): mana ("Ward {2}"), life ("Ward—Pay 3 life"), both
    ("Ward—{2}, Pay 2 life"), or a sacrifice ("Ward—Sacrifice a creature"); a cost with X (CR
    702.21b) or another cost part stays :class:`Unsupported`. ``text``: the line as printed.

    It is numbered among the triggered abilities (``{source, index}``, contract §1). It triggers
    when a spell is cast, an ability activated or a triggered ability put on the stack with this
    permanent among its targets (CR 115.1, 603.2, 603.3d) by an opponent of its controller
    (:func:`solver.engine.transition.queue_target_triggers`); its stack object names the spell or
    ability it would counter (object key ``refers_to``); it resolves in
    :mod:`solver.engine.ward`. It never makes a target illegal (CR 702.21a)."""

    cost: Cost
    text: str = ""
    trigger: ClassVar[type[Trigger]] = BecomesTargetTrigger   # the trigger event (CR 603.2)

    def describe(self) -> str:
        return f"keyword: ward ({self.cost.describe()}) (CR 702.21a)"


@dataclass(frozen=True)
class CantBeCountered:
    """"This spell can't be countered." (CR 101.2: a "can't" beats an effect that would counter it;
    CR 701.6a): a static ability that works on the stack (CR 113.6c). A spell or ability that would
    counter it (:class:`CounterSpell`, ward's "counter … unless …") does nothing to it.

    ``spells``: "Creature spells you control can't be countered." — a permanent's static ability
    (CR 113.6) about the spells its filter describes (``who``: "you" — spells its controller controls);
    None: the spell itself."""

    text: str = ""
    spells: Filter | None = None

    def describe(self) -> str:
        if self.spells is not None:
            f = self.spells
            names = {"W": "white", "U": "blue", "B": "black", "R": "red", "G": "green"}
            words = [names[c] for c in sorted(f.colors)] + ["non" + t.lower() for t in sorted(f.nontypes)]
            words += [" or ".join(t.lower() for t in sorted(f.types))] if f.types else []
            whose = " you control" if f.who == "you" else ""
            return f"static: {' '.join(words + ['spells'])}{whose} can't be countered (CR 101.2, 701.6a)"
        return "static: this spell can't be countered (CR 101.2, 701.6a)"


@dataclass(frozen=True)
class ExileInstead:
    """"If <this> would be put into a graveyard from anywhere, exile it instead." — a replacement
    effect of the object on itself (CR 614.1a), the back faces of disturb cards (702.146): it
    functions wherever the face with it is up (the stack, the battlefield; elsewhere the card is its
    front, 712.8a). Applied by the kernel's one zone change
    (:func:`solver.engine.transition.move`, through :func:`solver.rules.faces.leaving_zone`)."""

    text: str = ""

    def describe(self) -> str:
        return "replacement: if this would be put into a graveyard from anywhere, it is exiled instead (CR 614.1a)"


@dataclass(frozen=True)
class DoesntUntap:
    """"This artifact doesn't untap during your untap step." — a static ability of a permanent about
    itself (CR 604.1) that keeps it from untapping in its controller's untap step (CR 502.3: effects
    can keep permanents from untapping). Applied by the turn engine's untap step
    (:func:`solver.engine.turns.untap_step`) while the permanent has it (layer 6, CR 613.1f).
    ``attached``: "Enchanted creature / Enchanted permanent / Equipped creature doesn't untap during its
    controller's untap step." — the permanent it is attached to (CR 303.4, 301.5), not itself."""

    text: str = ""
    attached: bool = False

    def describe(self) -> str:
        what = "the permanent it is attached to" if self.attached else "this permanent"
        return f"static: {what} doesn't untap during its controller's untap step (CR 502.3)"


@dataclass(frozen=True)
class DamageToCounters:
    """"If a source you control would deal [noncombat] damage to a creature [an opponent controls], put that
    many <counter> counters on that creature instead." — a replacement effect of a permanent (CR 614.1a,
    120.3): the damage is not dealt (no damage event, lifelink or deathtouch, CR 120.8); that many counters
    are put on the creature instead (CR 122.1). ``noncombat``: only noncombat damage; ``opponents``: only
    to creatures an opponent of its controller controls. Applied by resolution's damage primitive
    (``_deal_damage``); with a prevention effect that could apply too, or protection, the affected
    creature's controller would order them (CR 616.1): refused."""

    counter: str
    noncombat: bool = True
    opponents: bool = True
    text: str = ""

    def describe(self) -> str:
        kind = "noncombat damage" if self.noncombat else "damage"
        whose = " an opponent controls" if self.opponents else ""
        return (f"replacement: if a source you control would deal {kind} to a creature{whose}, "
                f"put that many {self.counter} counters on it instead (CR 614.1a)")


Ability = Union[ManaAbility, ActivatedAbility, TriggeredAbility, TriggeredManaAbility, Keyword, Enchant,
                Static, ManaReplacement, CounterReplacement, TokenReplacement, EntersWith, Unsupported, CastingRule,
                CastingOption, Suspend, Ward, CantBeCountered, ExileInstead, DoesntUntap,
                DamageToCounters]


@dataclass(frozen=True)
class SpellBehaviour:
    """What an instant or sorcery does (CR 608.2): its target slots and effects."""

    targets: tuple[TargetSpec, ...] = ()
    effects: tuple[Effect, ...] = ()
    # a modal spell (CR 700.2, solver/reader/modes.py): see :class:`Mode`
    modes: "tuple[Mode, ...]" = ()
    min_modes: int = 0
    max_modes: int = 0
    mode_repeat: bool = False

    def describe(self) -> str:
        t = ("; targets: " + ", ".join(s.describe() for s in self.targets)) if self.targets else ""
        return "spell: " + "; ".join(e.describe() for e in self.effects) + t + describe_modes(self)


def is_activated(a: Ability) -> bool:
    """Activated abilities (mana or not, modeled or not) count for ``{object, index}`` references."""
    return isinstance(a, (ManaAbility, ActivatedAbility)) or (isinstance(a, Unsupported) and a.kind == "activated")


def is_triggered(a: Ability) -> bool:
    return isinstance(a, (TriggeredAbility, TriggeredManaAbility, Ward)) or (
        isinstance(a, Unsupported) and a.kind == "triggered")


def numbered_abilities(abilities: Sequence[Ability]) -> list[Ability]:
    """The abilities ``{object, index}`` numbers (contract §1 ``ability``): the triggered and activated
    ones, mana abilities and unmodeled ones included, in printed order (index 1 first)."""
    return [a for a in abilities if is_activated(a) or is_triggered(a)]


def ir_fields(obj: DataclassInstance) -> dict[str, object]:
    """The dataclass fields of an IR node, for JSON export and comparison."""
    return {f.name: getattr(obj, f.name) for f in fields(obj)}


def delayed_of(card: Any, ability: int) -> "list[Delayed | Reflexive]":
    """The delayed-trigger instructions (CR 603.7a) of ``card``'s spell (``ability`` 0) or of its
    ``ability``-th triggered or activated ability (contract ``ability`` numbering), in order."""
    if ability == 0:
        spell = getattr(card, "spell", None)
        return delayed_in(tuple(getattr(spell, "effects", ()) or ()))
    acts = numbered_abilities(card.abilities)
    if not 1 <= ability <= len(acts):
        return []
    return delayed_in(tuple(getattr(acts[ability - 1], "effects", ()) or ()))

"""Static abilities that create continuous effects (CR 604, 611.3, 613): one frozen dataclass
per kind, each holding only its own fields, under the common base :class:`Static`.

The rules code dispatches on the class (``isinstance``, or
:meth:`solver.rules.characteristics.View.statics` with a class); ``kind`` is a read-only
class-level name of the kind (``"pump"``, ``"cant_attack"``, …) for descriptions and messages,
never a field. Every class is also importable from :mod:`solver.core.ir`.

Groups: characteristic-changing statics (layers 4–7c, CR 613.1), statics about players
(CR 102, 115, 305.2), statics about activating abilities and spending mana (CR 602.5, 609.4b),
and combat restrictions and requirements (CR 508.1c–d, 509.1b–c; applied by
:mod:`solver.engine.combat`).
"""
from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import ClassVar

from .conditions import ActivationCondition
from .selectors import Selector

__all__ = [
    "Static", "AffectingStatic", "SetLandTypes", "AddTypes", "SetColor", "SetColorCards", "StaticPump",
    "PlayerSubtype", "PlayerKeyword", "SkipStep", "NoMaximumHandSize", "LookAtTopAnyTime", "MustTarget", "GraveyardCardsUntargetable", "AdditionalLands",
    "PlayLandsFromGraveyard",
    "LoyaltyAsInstantIfEntered", "ActivateAsHaste", "SpendWhiteAsAny", "SpendAsAnyColor", "CantActivate",
    "CombatStatic", "CantAttack", "CantBlock", "CantAttackAlone", "CantBlockAlone", "MustAttack", "MustBlock",
    "BlockAdditional", "BlockAnyNumber", "BlockOnlyFlying", "Unblockable", "MinBlockers", "Lure", "MustBeBlocked",
    "MaxBlockers", "UnblockablePowerLe", "UnblockablePowerGe", "CantBlockPowerLe", "CantBlockPowerGe",
    "AttackNeedsDefenderLand", "UnblockableBy", "BlockableOnlyBy", "AttackTax",
]


@dataclass(frozen=True)
class Static:
    """A static ability creating a continuous effect (CR 604, 613); the base of every static kind.

    ``text``: the printed line; ``condition``: "As long as <condition>, …" (CR 611.3a) — the
    static applies only while it holds (:mod:`solver.rules.characteristics`)."""

    kind: ClassVar[str] = ""
    text: str = field(default="", kw_only=True)
    condition: "ActivationCondition | None" = field(default=None, kw_only=True)

    def describe(self) -> str:
        if self.condition is not None:
            return f"as long as {self.condition.describe()}: " + replace(self, condition=None).describe()
        return self._text()

    def _text(self) -> str:
        return f"static: {self.kind}"


@dataclass(frozen=True)
class AffectingStatic(Static):
    """A static whose effect applies to the permanents in ``affected`` (CR 611.3; None: a
    malformed ability, which affects nothing)."""

    affected: "Selector | None" = None

    @property
    def _a(self) -> str:
        return self.affected.describe() if self.affected else ""


# --------------------------------------------------------------------------
# Characteristic-changing statics (CR 613.1d–f, 613.4c)
# --------------------------------------------------------------------------


@dataclass(frozen=True)
class SetLandTypes(AffectingStatic):
    """``affected`` lands have exactly ``subtypes`` as land types (CR 305.7; layer 4, CR 613.1d)."""

    kind: ClassVar[str] = "set_land_types"
    subtypes: frozenset[str] = frozenset()

    def _text(self) -> str:
        return f"static (layer 4): {self._a} are {'/'.join(sorted(self.subtypes))} (CR 305.7)"


@dataclass(frozen=True)
class AddTypes(AffectingStatic):
    """``affected`` gain ``subtypes`` in addition to their other types (layer 4, CR 613.1d);
    ``all_basic``: every basic land type (CR 305.6)."""

    kind: ClassVar[str] = "add_types"
    subtypes: frozenset[str] = frozenset()
    all_basic: bool = False

    def _text(self) -> str:
        what = "every basic land type" if self.all_basic else "/".join(sorted(self.subtypes))
        return f"static (layer 4): {self._a} are {what} in addition to their other types"


@dataclass(frozen=True)
class SetColor(AffectingStatic):
    """``affected`` are ``color`` (layer 5, CR 613.1e, 105.3)."""

    kind: ClassVar[str] = "set_color"
    color: frozenset[str] = frozenset()

    def _text(self) -> str:
        return f"static (layer 5): {self._a} are {'/'.join(sorted(self.color))}"


@dataclass(frozen=True)
class SetColorCards(Static):
    """Spells you control and nonland cards you own that aren't on the battlefield are ``color``
    (layer 5, CR 613.1e; Celestial Dawn's second sentence)."""

    kind: ClassVar[str] = "set_color_cards"
    color: frozenset[str] = frozenset()

    def _text(self) -> str:
        return (f"static (layer 5): spells you control and nonland cards you own that aren't on the battlefield "
                f"are {'/'.join(sorted(self.color))}")


@dataclass(frozen=True)
class StaticPump(AffectingStatic):
    """``affected`` get +``power``/+``toughness`` (layer 7c, CR 613.4c) and have ``keywords``
    (layer 6, CR 613.1f)."""

    kind: ClassVar[str] = "pump"
    power: int = 0
    toughness: int = 0
    keywords: tuple[str, ...] = ()

    def _text(self) -> str:
        kw = (" and have " + ", ".join(self.keywords)) if self.keywords else ""
        return f"static (layer 7c): {self._a} get {self.power:+d}/{self.toughness:+d}{kw}"


# --------------------------------------------------------------------------
# Statics about players (CR 102, 115, 305.2, 606.3)
# --------------------------------------------------------------------------


@dataclass(frozen=True)
class PlayerSubtype(Static):
    """The controller is a ``subtypes`` ("You are a Flagbearer", CR 205.3: a player with a subtype)."""

    kind: ClassVar[str] = "player_subtype"
    subtypes: frozenset[str] = frozenset()

    def _text(self) -> str:
        return f"static: you are a {'/'.join(sorted(self.subtypes))}"


@dataclass(frozen=True)
class PlayerKeyword(Static):
    """The controller has ``keywords`` ("You have hexproof": CR 702.11d; "You have shroud": CR 702.18b)."""

    kind: ClassVar[str] = "player_keyword"
    keywords: tuple[str, ...] = ()

    def _text(self) -> str:
        return "static: you have " + ", ".join(self.keywords)


@dataclass(frozen=True)
class SkipStep(Static):
    """"Skip your draw step." — the controller skips that step of each of their turns (CR 614.1b,
    614.10: a skipped step doesn't happen — no turn-based action, nothing triggers "at the beginning
    of" it, no player receives priority in it). Applied where the next step is found
    (:func:`solver.rules.step_order.next_step`)."""

    kind: ClassVar[str] = "skip_step"
    step: str = "draw"

    def _text(self) -> str:
        return f"static: skip your {self.step} step"


@dataclass(frozen=True)
class NoMaximumHandSize(Static):
    """"You have no maximum hand size." — its controller discards nothing in their cleanup step
    (CR 402.2, 514.1: a player's maximum hand size is normally seven). Applied by the cleanup step
    (:mod:`solver.engine.turns`)."""

    kind: ClassVar[str] = "no_maximum_hand_size"

    def _text(self) -> str:
        return "static: you have no maximum hand size (CR 402.2)"


@dataclass(frozen=True)
class LookAtTopAnyTime(Static):
    """"You may look at the top card of your library any time." — what its controller may know
    (CR 401.2: a library is hidden; this lets them see one card of their own). It changes no legal choice
    and no outcome, which the situation already knows whole; the game session shows the top card to
    its controller (:mod:`solver.api.session`)."""

    kind: ClassVar[str] = "look_at_top_any_time"

    def _text(self) -> str:
        return "static: you may look at the top card of your library any time (CR 401.2)"


@dataclass(frozen=True)
class MustTarget(Static):
    """Opponents must choose at least one object or player with a subtype in ``subtypes`` (on
    the battlefield when ``battlefield_only``) while choosing targets as part of casting a spell
    or activating an ability they control (Flagbearers, CR 601.2c)."""

    kind: ClassVar[str] = "must_target"
    subtypes: frozenset[str] = frozenset()
    battlefield_only: bool = False

    def _text(self) -> str:
        where = " on the battlefield" if self.battlefield_only else ""
        return (f"static: opponents casting a spell or activating an ability must choose at least one "
                f"{'/'.join(sorted(self.subtypes))}{where} as a target if able (CR 601.2c)")


@dataclass(frozen=True)
class GraveyardCardsUntargetable(Static):
    """"Cards in graveyards can't be the targets of spells or abilities" (CR 115.1;
    :mod:`solver.rules.targeting`)."""

    kind: ClassVar[str] = "graveyard_cards_untargetable"


@dataclass(frozen=True)
class AdditionalLands(Static):
    """"You may play ``amount`` additional lands on each of your turns" (CR 305.2)."""

    kind: ClassVar[str] = "additional_lands"
    amount: int = 0


@dataclass(frozen=True)
class PlayLandsFromGraveyard(Static):
    """"You may play lands from your graveyard." (CR 305.1, 611.3): the controller may play land cards they
    own from their graveyard, under the normal rules for playing a land (timing, CR 305.2 land plays)."""

    kind: ClassVar[str] = "play_lands_from_graveyard"

    def _text(self) -> str:
        return "static (CR 305.1): you may play lands from your graveyard"


@dataclass(frozen=True)
class LoyaltyAsInstantIfEntered(Static):
    """"As long as this permanent entered this turn, you may activate its loyalty abilities any
    time you could cast an instant" (CR 606.3: an exception to loyalty timing)."""

    kind: ClassVar[str] = "loyalty_as_instant_if_entered"


# --------------------------------------------------------------------------
# Statics about activating abilities and spending mana (CR 302.6, 602.5, 609.4b)
# --------------------------------------------------------------------------


@dataclass(frozen=True)
class ActivateAsHaste(AffectingStatic):
    """You may activate abilities of ``affected`` as though they had haste (CR 302.6, 702.10)."""

    kind: ClassVar[str] = "activate_as_haste"

    def _text(self) -> str:
        return f"static: you may activate abilities of {self._a} as though they had haste"


@dataclass(frozen=True)
class SpendWhiteAsAny(Static):
    """Celestial Dawn's mana-spending rule: white mana as though it were any color, other mana
    only as though colorless (CR 609.4b)."""

    kind: ClassVar[str] = "spend_white_as_any"

    def _text(self) -> str:
        return ("static: you may spend white mana as though it were mana of any color; other mana only as though "
                "it were colorless")


@dataclass(frozen=True)
class SpendAsAnyColor(AffectingStatic):
    """You may spend mana as though it were mana of any color to activate abilities of
    ``affected`` (CR 609.4b; payments it could change are unsupported)."""

    kind: ClassVar[str] = "spend_as_any_color"

    def _text(self) -> str:
        return (f"static (CR 609.4b): you may spend mana as though it were mana of any color to activate "
                f"abilities of {self._a}")


@dataclass(frozen=True)
class CantActivate(AffectingStatic):
    """Activated abilities of ``affected`` (or, with ``chosen_name``, of sources with the name
    chosen for this static's source: its ``chosen`` name) can't be activated; with
    ``except_mana`` "unless they're mana abilities" (CR 602.5, 605.1a: mana abilities are
    activated abilities too)."""

    kind: ClassVar[str] = "cant_activate"
    chosen_name: bool = False
    except_mana: bool = False

    def _text(self) -> str:
        who = "sources with the chosen name" if self.chosen_name else self._a
        unless = " unless they're mana abilities" if self.except_mana else ""
        return f"static (CR 602.5): activated abilities of {who} can't be activated{unless}"


# --------------------------------------------------------------------------
# Combat restrictions and requirements (CR 508.1c–d, 509.1b–c; solver/engine/combat.py)
# --------------------------------------------------------------------------


@dataclass(frozen=True)
class CombatStatic(AffectingStatic):
    """A combat restriction or requirement on the creatures in ``affected`` (CR 508.1c–d,
    509.1b–c); ``_rule`` is the words after the subject in :meth:`describe`."""

    def _rule(self) -> str:
        return self.kind

    def _text(self) -> str:
        return f"static (combat, CR 508.1/509.1): {self._a} {self._rule()}"


@dataclass(frozen=True)
class CantAttack(CombatStatic):
    """``affected`` can't attack (CR 508.1c)."""

    kind: ClassVar[str] = "cant_attack"

    def _rule(self) -> str:
        return "can't attack"


@dataclass(frozen=True)
class CantBlock(CombatStatic):
    """``affected`` can't block (CR 509.1b)."""

    kind: ClassVar[str] = "cant_block"

    def _rule(self) -> str:
        return "can't block"


@dataclass(frozen=True)
class CantAttackAlone(CombatStatic):
    """``affected`` can't attack alone (CR 508.1c, 506.5)."""

    kind: ClassVar[str] = "cant_attack_alone"

    def _rule(self) -> str:
        return "can't attack alone"


@dataclass(frozen=True)
class CantBlockAlone(CombatStatic):
    """``affected`` can't block alone (CR 509.1b, 506.5)."""

    kind: ClassVar[str] = "cant_block_alone"

    def _rule(self) -> str:
        return "can't block alone"


@dataclass(frozen=True)
class MustAttack(CombatStatic):
    """``affected`` attacks each combat if able (a requirement, CR 508.1d)."""

    kind: ClassVar[str] = "must_attack"

    def _rule(self) -> str:
        return "attacks each combat if able"


@dataclass(frozen=True)
class MustBlock(CombatStatic):
    """``affected`` blocks each combat if able (a requirement, CR 509.1c)."""

    kind: ClassVar[str] = "must_block"

    def _rule(self) -> str:
        return "blocks each combat if able"


@dataclass(frozen=True)
class BlockAdditional(CombatStatic):
    """``affected`` can block ``amount`` additional creatures each combat (CR 509.1a–b)."""

    kind: ClassVar[str] = "block_additional"
    amount: int = 0

    def _rule(self) -> str:
        return f"can block {self.amount} additional creature(s) each combat"


@dataclass(frozen=True)
class BlockAnyNumber(CombatStatic):
    """``affected`` can block any number of creatures (CR 509.1a–b)."""

    kind: ClassVar[str] = "block_any_number"

    def _rule(self) -> str:
        return "can block any number of creatures"


@dataclass(frozen=True)
class BlockOnlyFlying(CombatStatic):
    """``affected`` can block only creatures with flying (a restriction, CR 509.1b)."""

    kind: ClassVar[str] = "block_only_flying"

    def _rule(self) -> str:
        return "can block only creatures with flying"


@dataclass(frozen=True)
class Unblockable(CombatStatic):
    """``affected`` can't be blocked (CR 509.1b)."""

    kind: ClassVar[str] = "unblockable"

    def _rule(self) -> str:
        return "can't be blocked"


@dataclass(frozen=True)
class MinBlockers(CombatStatic):
    """``affected`` can't be blocked except by ``amount`` or more creatures (CR 509.1b)."""

    kind: ClassVar[str] = "min_blockers"
    amount: int = 0

    def _rule(self) -> str:
        return f"can't be blocked except by {self.amount} or more creatures"


@dataclass(frozen=True)
class Lure(CombatStatic):
    """All creatures able to block ``affected`` do so (a requirement, CR 509.1c)."""

    kind: ClassVar[str] = "lure"

    def _rule(self) -> str:
        return "must be blocked by all creatures able to block it"


@dataclass(frozen=True)
class MustBeBlocked(CombatStatic):
    """``affected`` must be blocked if able (a requirement, CR 509.1c)."""

    kind: ClassVar[str] = "must_be_blocked"

    def _rule(self) -> str:
        return "must be blocked if able"


@dataclass(frozen=True)
class MaxBlockers(CombatStatic):
    """``affected`` can't be blocked by more than ``amount`` creatures (CR 509.1b)."""

    kind: ClassVar[str] = "max_blockers"
    amount: int = 0

    def _rule(self) -> str:
        return f"can't be blocked by more than {self.amount} creature(s)"


@dataclass(frozen=True)
class UnblockablePowerLe(CombatStatic):
    """``affected`` can't be blocked by creatures with power ``amount`` or less (CR 509.1b)."""

    kind: ClassVar[str] = "unblockable_power_le"
    amount: int = 0

    def _rule(self) -> str:
        return f"can't be blocked by creatures with power {self.amount} or less"


@dataclass(frozen=True)
class UnblockablePowerGe(CombatStatic):
    """``affected`` can't be blocked by creatures with power ``amount`` or greater (CR 509.1b)."""

    kind: ClassVar[str] = "unblockable_power_ge"
    amount: int = 0

    def _rule(self) -> str:
        return f"can't be blocked by creatures with power {self.amount} or greater"


@dataclass(frozen=True)
class CantBlockPowerLe(CombatStatic):
    """``affected`` can't block creatures with power ``amount`` or less (CR 509.1b)."""

    kind: ClassVar[str] = "cant_block_power_le"
    amount: int = 0

    def _rule(self) -> str:
        return f"can't block creatures with power {self.amount} or less"


@dataclass(frozen=True)
class CantBlockPowerGe(CombatStatic):
    """``affected`` can't block creatures with power ``amount`` or greater (CR 509.1b)."""

    kind: ClassVar[str] = "cant_block_power_ge"
    amount: int = 0

    def _rule(self) -> str:
        return f"can't block creatures with power {self.amount} or greater"


@dataclass(frozen=True)
class AttackNeedsDefenderLand(CombatStatic):
    """``affected`` can't attack unless the defending player controls a land of a type in
    ``subtypes`` (sea serpents; a restriction, CR 508.1c)."""

    kind: ClassVar[str] = "attack_needs_defender_land"
    subtypes: frozenset[str] = frozenset()

    def _rule(self) -> str:
        return "can't attack unless defending player controls " + " or ".join(
            ("an " if t[0] in "AEIOU" else "a ") + t for t in sorted(self.subtypes))


@dataclass(frozen=True)
class _BlockerDescription(CombatStatic):
    """Blockers described by any of ``subtypes``, ``color`` (letters) or ``keywords`` ("Walls",
    "blue creatures", "creatures with flying or reach")."""

    subtypes: frozenset[str] = frozenset()
    color: frozenset[str] = frozenset()
    keywords: tuple[str, ...] = ()

    def _who(self) -> str:
        return " or ".join(sorted(self.subtypes) + sorted(self.color) + list(self.keywords))


@dataclass(frozen=True)
class UnblockableBy(_BlockerDescription):
    """``affected`` can't be blocked by the blockers described (CR 509.1b)."""

    kind: ClassVar[str] = "unblockable_by"

    def _text(self) -> str:
        return f"static (combat, CR 509.1b): {self._a} can't be blocked by {self._who()}"


@dataclass(frozen=True)
class BlockableOnlyBy(_BlockerDescription):
    """``affected`` can be blocked only by the blockers described (CR 509.1b)."""

    kind: ClassVar[str] = "blockable_only_by"

    def _text(self) -> str:
        return f"static (combat, CR 509.1b): {self._a} can be blocked only by {self._who()}"


@dataclass(frozen=True)
class AttackTax(Static):
    """Creatures can't attack the controller unless their controller pays {``amount``} for each
    of them (Ghostly Prison, Propaganda; CR 508.1g–h)."""

    kind: ClassVar[str] = "attack_tax"
    amount: int = 0

    def _text(self) -> str:
        return (f"static (CR 508.1g): creatures can't attack you unless their controller pays {{{self.amount}}} "
                "for each of them")


#: Every static kind of this module (:data:`solver.core.ir.STATIC_CLASSES` adds :class:`~solver.core.ir.Grant`,
#: which holds an ability of the IR).
STATIC_CLASSES: tuple[type[Static], ...] = (
    SetLandTypes, AddTypes, SetColor, SetColorCards, StaticPump, PlayerSubtype, PlayerKeyword, SkipStep,
    NoMaximumHandSize, LookAtTopAnyTime, MustTarget,
    GraveyardCardsUntargetable, AdditionalLands, PlayLandsFromGraveyard, LoyaltyAsInstantIfEntered, ActivateAsHaste, SpendWhiteAsAny,
    SpendAsAnyColor, CantActivate, CantAttack, CantBlock, CantAttackAlone, CantBlockAlone, MustAttack, MustBlock,
    BlockAdditional, BlockAnyNumber, BlockOnlyFlying, Unblockable, MinBlockers, Lure, MustBeBlocked, MaxBlockers,
    UnblockablePowerLe, UnblockablePowerGe, CantBlockPowerLe, CantBlockPowerGe, AttackNeedsDefenderLand,
    UnblockableBy, BlockableOnlyBy, AttackTax)

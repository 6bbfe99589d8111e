"""The shape of a situation file (contract §1) as pydantic v2 models, key for key
(``extra="forbid"``, strict types): the second pass of :mod:`solver.io.load` for documents its
plain checks do not accept as they are (any error, inline cards, ``last_known``; its messages come
from these models), and the published JSON Schema (``mtgsolve schema``). Imported on first use:
pydantic costs start-up time (issue 16)."""
from __future__ import annotations

from typing import Annotated, Any, Literal, Union

from pydantic import BaseModel, BeforeValidator, ConfigDict, Discriminator, Field, Tag, model_validator
from pydantic_core import PydanticCustomError

from .messages import DEFAULT_LIFE, MAX_INT, _did_you_mean, _tag_of, _unknown_key_message
from ..core.state import STEPS


def _one_of(what: str, **alternatives: Any) -> Any:
    """A union chosen by the Python type of the value (``str=…, map=…, list=…``).

    Unlike a plain union, a failure reports one error at the right place
    ("expected a card name or a mapping, got 3") instead of one per member.
    """
    tags = {f"§{k}": t for k, t in alternatives.items()}

    def pick(value: Any) -> str | None:
        tag = _tag_of(value)
        return tag if tag in tags else None

    members = tuple(Annotated[t, Tag(tag)] for tag, t in tags.items())
    error_type = "wrong_shape_or_string" if "str" in alternatives else "wrong_shape"
    return Annotated[Union[members], Discriminator(pick, custom_error_type=error_type,  # type: ignore[valid-type]
                                                   custom_error_message=f"expected {what}")]


class _Spec(BaseModel):
    """Base of the situation models: strict types, no unknown keys."""

    model_config = ConfigDict(extra="forbid", strict=True, frozen=True)

    @model_validator(mode="before")
    @classmethod
    def _reject_unknown_keys(cls, data: Any) -> Any:
        # Done here rather than by extra="forbid" alone so that the message can
        # suggest the closest valid key ("unknown key 'tapd' (did you mean 'tapped'?)").
        if isinstance(data, dict) and cls.model_config.get("extra") == "forbid":
            allowed = [f.alias or name for name, f in cls.model_fields.items()]
            for key in data:
                if key not in allowed:
                    raise PydanticCustomError("unknown_key", "{message}",
                                              {"message": _unknown_key_message(key, allowed)})
        return data


Id = Annotated[str, Field(min_length=1, max_length=200)]
Count = Annotated[int, Field(ge=0, le=MAX_INT)]
CardName = Annotated[str, Field(min_length=1, max_length=200, description="A card name from the card library")]


class InlineCard(_Spec):
    """An inline card: a mapping with MTGJSON's field names (other MTGJSON fields are allowed)."""

    model_config = ConfigDict(extra="allow", strict=True, frozen=True)

    name: CardName
    manaCost: str | None = None
    type: str | None = None
    types: list[str] | None = None
    subtypes: list[str] | None = None
    supertypes: list[str] | None = None
    keywords: list[str] | None = None
    power: _one_of("a string or an integer", str=str, int=int) | None = None  # type: ignore[valid-type]
    toughness: _one_of("a string or an integer", str=str, int=int) | None = None  # type: ignore[valid-type]
    loyalty: _one_of("a string or an integer", str=str, int=int) | None = None  # type: ignore[valid-type]
    text: str | None = None
    layout: str | None = None


CardRef = _one_of("a card name or an inline card mapping", str=CardName, map=InlineCard)
_Scalar = _one_of("a string, an integer or true/false", bool=bool, int=int, str=str)
ChosenValue = _one_of("a string, an integer, true/false or a list of them",
                      bool=bool, int=int, str=str, list=list[_Scalar])  # type: ignore[valid-type]
Targets = Annotated[list[list[Id]], Field(description="One list of ids per instance of the word 'target'")]


class AbilitySpec(_Spec):
    """``{source, index}``: the n-th (1-based, printed order) triggered or activated ability of ``source``."""

    source: Id
    index: Annotated[int, Field(ge=0, le=MAX_INT)] = Field(
        description="1-based; 0 only for a delayed triggered ability created by its source's spell (object key "
                    "``delayed``, CR 603.7)")


class LastKnownSpec(_Spec):
    """The source's last known information as it last existed on the battlefield (object keys)."""

    card: CardRef | None = None  # type: ignore[valid-type]
    owner: Id | None = None
    controller: Id | None = None
    tapped: bool | None = None
    sick: bool | None = None
    counters: dict[Id, Count] | None = None
    damage: Count | None = None
    attached_to: Id | None = None
    token: bool | None = None
    conjured: bool | None = None
    chosen: dict[Id, ChosenValue] | None = None  # type: ignore[valid-type]


class PlayPermissionSpec(_Spec):
    """(extension) ``may_play`` of a card in exile: the player who may play it and until when (CR 611.2)."""

    player: Id = Field(description="the player who may play the card (CR 305.1, 601.2a, 116.2b)")
    until: Literal["end_of_turn", "end_of_next_turn"] = Field(
        "end_of_turn", description="'end_of_turn': this turn's cleanup step ends it (\"this turn\", \"until end of "
                                   "turn\", CR 514.2); 'end_of_next_turn': the cleanup step of that player's next "
                                   "turn (\"until the end of your next turn\", CR 611.2)")
    spells_only: bool = Field(False, description="\"you may cast\": only as a spell, never as a land (CR 305.9)")


class ObjectSpec(_Spec):
    """An object given as a mapping (contract §1, "Objects")."""

    card: CardRef | None = Field(  # type: ignore[valid-type]
        None, description="Card name or inline card; required except for abilities on the stack")
    id: Id | None = Field(None, description="The object's id (default: automatic, from the card name)")
    owner: Id | None = Field(None, description="Owner (default: from the zone key)")
    controller: Id | None = Field(None, description="Controller (default: from the zone key)")
    tapped: bool = False
    sick: bool = Field(False, description="Its controller has not controlled it continuously since "
                                          "their most recent turn began (CR 302.6)")
    counters: dict[Id, Count] | None = Field(None, description="Counter name → number")
    damage: Count = Field(0, description="Damage marked on it")
    attached_to: Id | None = Field(None, description="Id of the object or player it is attached to")
    token: bool = False
    conjured: bool = False
    chosen: dict[Id, ChosenValue] | None = Field(  # type: ignore[valid-type]
        None, description="Choices made earlier, e.g. {color: green}")
    x: Count = Field(0, description="(stack) the value announced for X")
    targets: Targets | None = Field(None, description="(stack) chosen targets: one list of ids per 'target'")
    copy_: bool = Field(False, alias="copy", description="(stack) a copy of a spell or ability")
    ability: AbilitySpec | None = Field(None, description="(stack, instead of card) the ability's source and index")
    last_known: LastKnownSpec | None = Field(None, description="(stack abilities) the source's last known info")
    timestamp: Count | None = Field(None, description="(extension) timestamp (CR 613.7); default: file position")
    activated_this_turn: dict[Any, Count] | None = Field(
        None, description="(extension) activated-ability index (1-based) → times activated this turn (CR 602.5b)")
    entered_this_turn: bool = Field(False, description="(extension) it entered the battlefield this turn")
    skip_untap: bool = Field(False, description="(extension) it doesn't untap during its controller's next "
                                                "untap step (CR 502.3)")
    exile_if_dies: bool = Field(False, description="(extension; battlefield) if it would die this turn, it is "
                                                   "exiled instead: a resolved spell's replacement effect, until "
                                                   "cleanup (CR 614.1a, 700.4, 514.2)")
    commander: bool = Field(False, description="(extension) the card is its owner's commander, in any zone "
                                               "(CR 903.3): its color identity is the player's commander's "
                                               "(CR 903.4)")
    attacking: Id | None = Field(None, description="(creature on the battlefield) the player, planeswalker or "
                                                   "battle it is attacking (CR 506.4, 508.1b)")
    blocking: list[Id] | None = Field(None, description="(creature on the battlefield) the attacking creatures "
                                                        "it blocks (CR 509.1)")
    blocked: bool = Field(False, description="(attacking creature) it has been blocked (CR 509.1h, 506.4)")
    may_play: PlayPermissionSpec | None = Field(None, description="(extension) (exile) a player may play this card "
                                                                   "for a duration (\"You may play that card this "
                                                                   "turn\", CR 611.2, 601.2a, 305.1)")
    exiled_until: Id | None = Field(None, description="(extension) (exile) the permanent whose leaving the battlefield "
                                                      "returns this card (\"exile … until this leaves the battlefield\", "
                                                      "CR 610.3)")
    exiled_by: Id | None = Field(None, description="(extension) (exile) the permanent whose ability exiled this card, "
                                                   "for its linked ability's \"the exiled card\" (CR 607.2a)")
    refers_to: Id | None = Field(None, description="(extension) (stack abilities) the id of the spell or ability on "
                                                   "the stack it refers to: the one a ward ability counters "
                                                   "unless its controller pays (CR 702.21a)")
    event_object: Id | None = Field(None, description="(extension) (triggered abilities on the stack) the object "
                                                      "its trigger event named: the permanent that entered or "
                                                      "attacked ('it', 'that creature', CR 603.2, 608.2c); absent "
                                                      "once that object has changed zones (CR 400.7)")
    event_player: Id | None = Field(None, description="(extension) (triggered abilities on the stack) the player "
                                                      "its trigger event named: the player dealt combat damage, "
                                                      "the caster of the spell ('that player', CR 603.2, 608.2c)")
    face: Id | None = Field(None, description="(extension) the face it shows when not its front: a permanent's face "
                                              "up (a transformed, flipped or melded permanent, a modal double-faced "
                                              "card's back face, CR 712.8d, 710.1, 712.4), a spell's face or half "
                                              "cast (CR 715.3b, 709.3, 712.11b)")
    on_adventure: bool = Field(False, description="(extension) (exile) an adventurer card exiled as its Adventure "
                                                  "resolved: its owner may cast the creature (CR 715.3d)")
    prototyped: bool = Field(False, description="(extension) (stack, battlefield) a prototype card cast prototyped: "
                                                "it has the prototype mana cost, power, toughness and colors "
                                                "(CR 702.160, 718.3)")
    monstrous: bool = Field(False, description="(extension) (battlefield) a permanent that became monstrous (CR 701.37b)")
    control_reverts_to: Id | None = Field(None, description="(extension) (battlefield) a permanent another player "
                                                            "controls until end of turn: the player who controls it "
                                                            "again as the effect ends at cleanup (CR 613.1b, 514.2)")
    delayed: Annotated[int, Field(ge=0, le=MAX_INT)] = Field(
        0, description="(extension) (stack) a delayed triggered ability (CR 603.7): the 1-based index of its "
                       "instruction among the delayed instructions of ``ability`` (index 0: its source's spell)")
    it: Id | None = Field(None, description="(extension) (stack, with ``delayed``) the object or player its "
                                            "instruction names (CR 603.7c); absent: none, or gone")
    cast_with: Id | None = Field(None, description="(extension) (stack) a spell cast with flashback or jump-start "
                                                   "(``flashback``, ``jump-start``): exiled as it leaves the stack "
                                                   "(CR 702.34a, 702.133a); (stack, battlefield) ``escape``: it "
                                                   "escaped (CR 702.138b), ``evoke``: its evoke cost was paid "
                                                   "(CR 702.74a)")
    kicked: int = Field(0, description="(extension) (stack, battlefield) how many times the spell, or the spell "
                                       "the permanent was, was kicked (CR 702.33d-e); 0: not kicked")
    buyback: bool = Field(False, description="(extension) (stack) the spell's buyback cost was paid: it goes to "
                                             "its owner's hand as it resolves (CR 702.27a)")
    casualty: bool = Field(False, description="(extension) (stack) the spell's casualty cost was paid: its "
                                              "triggered ability copies it (CR 702.153a)")
    cast_before: Count | None = Field(None, description="(extension) (stack) how many spells all players cast "
                                                       "this turn before this spell (storm, CR 702.40a); absent: "
                                                       "not recorded")
    sacrificed: dict[str, int] | None = Field(None, description="(extension) (stack) the power, toughness and "
                                                                "mana value of the one creature sacrificed to cast "
                                                                "the spell, as it last existed (CR 608.2h)")
    regeneration_shields: Count = Field(0, description="(extension) (battlefield) regeneration shields on the "
                                                       "permanent for this turn: each replaces its next "
                                                       "destruction (CR 701.15a)")
    fused: bool = Field(False, description="(extension) (stack) a split card with fuse cast as both halves: the "
                                           "spell has the combined characteristics and both halves' text "
                                           "(CR 702.102)")
    modes: list[Annotated[int, Field(ge=1)]] | None = Field(
        None, description="(extension) (stack) a modal spell or ability: the modes chosen as it was cast, activated "
                          "or put on the stack, 1-based in printed order (CR 700.2a, 601.2b, 603.3c)")


ObjectEntry = _one_of("a card name or an object mapping", str=CardName, map=ObjectSpec)


class PlayerSpec(_Spec):
    """A player given as a mapping."""

    id: Id
    life: Annotated[int, Field(ge=-MAX_INT, le=MAX_INT)] = DEFAULT_LIFE
    poison: Count = 0
    lost: bool = Field(False, description="The player has lost the game (CR 104.3)")
    life_lost_this_turn: Count | None = Field(
        None, description="Life the player has lost this turn (CR 119.3; spectacle, CR 702.137a); absent: "
                          "not recorded")


PlayerEntry = _one_of("a player id or a mapping {id, life, poison}", str=Id, map=PlayerSpec)


def _check_step(value: Any) -> Any:
    if isinstance(value, str) and value not in STEPS:
        hint = _did_you_mean(value, STEPS, 0.5) or f" (one of: {', '.join(STEPS)})"
        raise PydanticCustomError("unknown_step", "{message}", {"message": f"unknown step '{value}'{hint}"})
    return value


Step = Annotated[Literal[STEPS], BeforeValidator(_check_step)]  # type: ignore[valid-type]


class HistorySpec(_Spec):
    """(extension) ``turn.history``: what happened this turn that rules look back at (issue 27)."""

    died: Count = Field(0, description="Creatures that died this turn (CR 700.4)")
    gained: dict[Id, Count] | None = Field(None, description="Life each player gained this turn (CR 119.3); a "
                                                             "player not listed gained none")
    attacked: dict[Id, Count] | None = Field(None, description="Creatures each player attacked with this turn "
                                                               "(CR 508.1); a player not listed attacked with none")


class TurnSpec(_Spec):
    """``{number, active, step, priority, lands_played, passed, spells_cast, extra_turns, skip_combat, history}``."""

    number: Annotated[int, Field(ge=1, le=MAX_INT)] = 1
    active: Id | None = Field(None, description="Active player (default: the first player)")
    step: Step = "main1"  # type: ignore[valid-type]
    priority: Id | None = Field(None, description="Player with priority (default: the active player)")
    lands_played: Count = Field(0, description="Lands the active player has played this turn")
    passed: list[Id] | None = Field(None, description="Players who have passed priority in succession since the "
                                                      "last spell, ability or action (CR 117.3d, 117.4)")
    spells_cast: dict[Id, Count] | None = Field(None, description="(extension) spells each player cast this turn "
                                                                  "(CR 730.2: day and night); a player not listed "
                                                                  "cast none; absent: not recorded")
    extra_turns: list[Id] | None = Field(None, description="(extension) extra turns to be taken after this one "
                                                           "(CR 500.7), the next first: the player of each")
    skip_combat: list[Id] | None = Field(None, description="(extension) players who skip their next combat "
                                                           "phase (CR 614.10), one entry per skip")
    history: HistorySpec | None = Field(None, description="(extension) what happened this turn that rules look "
                                                          "back at (creatures died, life gained, creatures "
                                                          "attacked with); absent: not recorded")


class EffectSpec(_Spec):
    """A continuous effect still in force from a resolved spell (``card``) or ability (``ability``)."""

    card: CardRef | None = None  # type: ignore[valid-type]
    ability: AbilitySpec | None = None
    controller: Id
    targets: Targets | None = Field(None, description="(extension) the targets the spell or ability had")
    affected: Targets | None = Field(None, description="(extension) the objects each group effect of the spell or ability affects, one list per group effect in printed order, fixed as it began (CR 611.2c)")
    event_object: Id | None = Field(None, description="(extension) the object a triggered ability's event named, "
                                                      "when the effect is on it ('it gets +1/+0 until end of turn', "
                                                      "CR 603.2, 611.2a)")
    modes: list[Annotated[int, Field(ge=1)]] | None = Field(
        None, description="(extension) a modal spell or ability: the modes it was cast or activated with (CR 700.2a)")
    x: int | None = Field(None, description="(extension) the value of X of its '+X/+X' effects, fixed as it "
                                             "resolved (CR 608.2h)")
    color: Literal["W", "U", "B", "R", "G"] | None = Field(
        None, description="(extension) the color chosen as it resolved for 'protection from the color of your "
                          "choice' (CR 105.1, 608.2d, 702.16a)")

    @model_validator(mode="after")
    def _card_or_ability(self) -> "EffectSpec":
        if (self.card is None) == (self.ability is None):
            raise PydanticCustomError("effect_shape", "an effect needs exactly one of 'card' or 'ability'")
        return self


class PreventionSpec(_Spec):
    """(extension) A prevention shield in force this turn (CR 615.7): ``{to, source, amount, combat_only}``."""

    to: Id | None = Field(None, description="The permanent or player it protects; absent: damage to anything")
    source: Id | None = Field(None, description="The source whose damage it prevents; absent: any source")
    amount: Annotated[int, Field(ge=1, le=MAX_INT)] | None = Field(
        None, description="How much damage it still prevents; absent: all")
    combat_only: bool = Field(False, description="Combat damage only (CR 510)")


class RestrictedManaSpec(_Spec):
    """(extension) Mana in a pool under a spending restriction (CR 106.6): ``{mana, restriction}``."""

    mana: str = Field(description="A mana string, e.g. {C}{C}")
    restriction: str = Field(description="The restriction as a payment writes it, e.g. 'spend this mana only "
                                         "to cast artifact spells'")


class DelayedSpec(_Spec):
    """(extension) A delayed triggered ability in force (CR 603.7): ``{step, controller, source, ability,
    index, turn, whose}``."""

    step: Literal["end", "upkeep", "cast", "next_cast"] = Field(
        description="``end``: the next end step to begin (CR 603.7b); ``upkeep``: the upkeep of a turn after "
                    "``turn``; ``cast``: each spell its controller casts this turn that its trigger describes, "
                    "``next_cast``: the next one (\"whenever / when you next cast … this turn\", CR 603.7b-c)")
    controller: Id = Field(description="The player who controls it (CR 603.7d)")
    source: Id = Field(description="The object whose spell or ability created it")
    ability: Annotated[int, Field(ge=0, le=MAX_INT)] = Field(
        0, description="0: the source's spell; n: its n-th triggered or activated ability")
    index: Annotated[int, Field(ge=1, le=MAX_INT)] = Field(
        1, description="Which delayed instruction of that spell or ability (1-based, in printed order)")
    turn: Annotated[int, Field(ge=0, le=MAX_INT)] = Field(0, description="The turn it was created in (upkeep)")
    whose: Literal["any", "you"] = Field("any", description="``you``: only its controller's upkeep")
    it: Id | None = Field(None, description="The object or player its instruction names, remembered as it was "
                                            "created (CR 603.7c); absent: none, or it changed zones (400.7)")


class QuerySpec(_Spec):
    """A query (contract §2): a mapping with ``kind``; the rest is checked by the query's module."""

    model_config = ConfigDict(extra="allow", strict=True, frozen=True)

    kind: Annotated[str, Field(min_length=1)]


Zone = dict[Id, list[ObjectEntry]]  # type: ignore[valid-type]


class SituationSpec(_Spec):
    """A situation file, format mtgsolve/1 (contract §1)."""

    model_config = ConfigDict(extra="forbid", strict=True, frozen=True, title="Situation")

    format: Literal["mtgsolve/1"]
    name: str | None = None
    description: str | None = None
    rules: list[str] | None = Field(None, description="CR rules / rulings the situation exercises")
    players: Annotated[list[PlayerEntry],  # type: ignore[valid-type]
                       Field(min_length=1, description="Players in turn order (APNAP)")]
    turn: TurnSpec | None = None
    battlefield: Zone | None = Field(None, description="Controller → objects")
    hand: Zone | None = Field(None, description="Owner → objects")
    graveyard: Zone | None = Field(None, description="Owner → objects")
    library: Zone | None = Field(None, description="Owner → objects, top first")
    exile: Zone | None = Field(None, description="Owner → objects")
    command: Zone | None = Field(None, description="Owner → objects")
    stack: list[ObjectEntry] | None = Field(  # type: ignore[valid-type]
        None, description="Spells and abilities, top first")
    mana_pool: dict[Id, str] | None = Field(None, description="Player → mana string, e.g. {R}{R}{C}")
    restricted_mana_pool: dict[Id, list[RestrictedManaSpec]] | None = Field(
        None, description="(extension) Player → mana in their pool under a spending restriction (CR 106.6)")
    effects: list[EffectSpec] | None = None
    shuffled: dict[Id, bool] | None = Field(None, description="Player → true when their library is in random order")
    known_top: dict[Id, int] | None = Field(None, description="(extension) Player → how many cards on top of their "
                                                              "library in random order are known, in the order "
                                                              "listed (CR 701.24a: shuffle, then put it on top)")
    day_night: Literal["day", "night"] | None = Field(None, description="(extension) the game's day/night "
                                                                        "designation (CR 730.1); absent: neither")
    prevention: list[PreventionSpec] | None = Field(None, description="(extension) prevention shields in force "
                                                                      "this turn (CR 615.7)")
    delayed: list[DelayedSpec] | None = Field(None, description="(extension) delayed triggered abilities in "
                                                                "force (CR 603.7)")
    query: _one_of("a query mapping or a list of queries",  # type: ignore[valid-type]
                   map=QuerySpec, list=list[QuerySpec]) | None = None
    expect: _one_of("a mapping or a list of mappings", map=dict[str, Any],  # type: ignore[valid-type]
                    list=list[Union[dict[str, Any], None]]) | None = None

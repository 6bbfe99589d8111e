"""Situation files: load, validate, assign ids, and write back (contract §1).

A situation file (YAML or JSON, the same structure either way) becomes a
validated :class:`~solver.core.state.GameState` in three passes:

1. **Read** (:func:`read_document`): bytes with a size limit, UTF-8 text, then
   YAML (a :class:`yaml.SafeLoader` that also rejects duplicate keys) or JSON
   (by the extension ``.json``).  Documents that expand to a huge or very deep
   structure (YAML alias bombs, recursive aliases) are rejected.
2. **Shape** (:class:`SituationSpec`): pydantic v2 models mirroring contract §1
   key for key (``extra="forbid"``, strict types; :mod:`solver.io.shape`).
   The first error becomes a one-line :class:`~solver.core.errors.SituationError`
   with the path inside the file (``battlefield.alice[2].card``). Documents
   that plain checks accept as they are (most) skip the models, with the same
   values (:func:`_plain_spec`: importing pydantic costs start-up time).
3. **Meaning** (:class:`_Builder`): defaults from the contract, automatic ids,
   cards, and every cross-reference (players, ids, attachments, targets,
   ability sources), each error located the same way.

Nothing is returned until all three passes succeed, so a :class:`Loaded` is
never partially built (contract §3: "nothing is half-written").

Automatic ids (contract §1, "Objects") and explicit ids: explicit ``id`` values
(and player ids) are reserved first; then objects without an ``id`` are
numbered in the contract's order (zone by zone: battlefield, hand, graveyard,
library, exile, command, stack; within a zone player by player in ``players``
order; each list in listed order).  The k-th object with a given base name gets
the k-th of ``base``, ``base-2``, ``base-3``, … that is not already taken, so
an automatic id never collides with an explicit one (the id helpers are
:mod:`solver.core.object_ids`; writing a state back, :func:`dump_state`, is
:mod:`solver.io.dump`, below the rules layer that uses both; both are
re-exported here).

>>> object_id_base("Urborg, Tomb of Yawgmoth")
'urborg-tomb-of-yawgmoth'
>>> next_free_id("forest", {"forest", "forest-2"})
'forest-3'
"""
from __future__ import annotations

import datetime as _dt
import json
import os
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Container, Mapping, NoReturn

import yaml

from ..cards import SHIPPED, Card, CardDB, UnknownCard, card_from_mapping
from .faces import FaceError, FaceUp, by_face_name, day_night_problem, face_up, fused_up
from ..rules.faces import CAST_WITH, KEPT_ON_BATTLEFIELD, prototype_of, prototyped_card
from ..rules.modes import modal_of, selection_error
from ..core import ir
from ..core.errors import SituationError
from ..core.mana import Mana, ManaSyntaxError, chosen_color_letter
from ..core.object_ids import _free_number, _numbered, next_free_id, object_id_base
from .dump import FORMAT, KEYED_ZONES, OWNED_ZONES, dump_state  # noqa: F401  (re-exported)
from .messages import (DEFAULT_LIFE, MAX_INT, _UNION_TAGS, _closest, _did_you_mean, _show,  # noqa: F401
                                 _unknown_key_message)
from ..core.state import (STEPS, AbilityRef, ContinuousEffectEntry, DelayedTrigger, GameObject, GameState, Player,
                          PlayPermission, PreventionShield, RestrictedPool, Turn, TurnHistory,
                          restricted_pool_of)
from ..core.ir import CAST_DELAYED_STEPS, DelayedCast, delayed_of
from ..reader.spend_restrictions import read_spend_restriction
from ..core.options import QUERY_KINDS

__all__ = [
    "FORMAT", "SCHEMA_ID", "Loaded", "SituationError", "SituationSpec", "dump_state", "load_situation",
    "next_free_id", "object_id_base", "parse_document", "read_document", "situation_from_dict", "situation_json_schema",
]

SCHEMA_ID = "https://mtgsolve.dev/schema/situation-v1.json"

DEFAULT_MAX_FILE_BYTES = 5 * 1024 * 1024
DEFAULT_MAX_OBJECTS = 20_000
MAX_FILE_BYTES_ENV = "MTGSOLVE_MAX_FILE_BYTES"
MAX_OBJECTS_ENV = "MTGSOLVE_MAX_OBJECTS"
MAX_NODES = 1_000_000  # scalars, lists and mappings after YAML aliases are expanded
MAX_DEPTH = 100


# ===========================================================================
# Shape: plain checks for the common case, pydantic models for the rest
# ===========================================================================
#
# The shape of a file is contract §1, written as pydantic models in
# :mod:`solver.io.shape` (the published schema and every shape error's
# message come from them). Most files are well-formed and simple, and
# importing pydantic and building the models costs more than a small query
# (start-up time, issue 16): :func:`_plain_spec` checks such a document with
# plain Python and gives the same values the models would (:class:`_Plain`
# objects with the models' attribute names and defaults). Anything it does not
# take as it is (any error, an inline card, ``last_known``, a key it does not
# know) goes through the models, so every message is theirs. A test compares
# the two on every instance file and on generated documents.

def _spec_model(name: str) -> Any:
    from . import shape as situation_shape

    return getattr(situation_shape, name)


def __getattr__(name: str) -> Any:
    """The pydantic models (``SituationSpec``, ``ObjectSpec``…), imported on first use."""
    if name in ("SituationSpec", "ObjectSpec", "InlineCard", "AbilitySpec", "LastKnownSpec", "PlayerSpec",
                "TurnSpec", "EffectSpec", "QuerySpec"):
        return _spec_model(name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


class _Plain:
    """A part of a situation checked without pydantic: the attributes of the pydantic model named
    ``_model``, its defaults in ``_defaults``. A field the model gained since (not in ``_defaults``)
    reads the model's default."""

    _model = ""
    _defaults: dict[str, Any] = {}

    def __init__(self, **given: Any) -> None:
        self.__dict__.update(self._defaults)
        self.__dict__.update(given)

    def __getattr__(self, name: str) -> Any:
        if name.startswith("__"):
            raise AttributeError(name)
        model = _spec_model(self._model)
        fields = model.model_fields
        key = next((k for k, f in fields.items() if k == name or f.alias == name), None)
        if key is None or fields[key].is_required():
            raise AttributeError(f"{self._model} has no field {name!r}")
        return fields[key].get_default(call_default_factory=True)

    def __repr__(self) -> str:
        return f"_Plain{self._model}({', '.join(f'{k}={v!r}' for k, v in self.__dict__.items())})"


class _PlainObject(_Plain):
    _model = "ObjectSpec"
    _defaults = dict(card=None, id=None, owner=None, controller=None, tapped=False, sick=False, counters=None,
                     damage=0, attached_to=None, token=False, conjured=False, chosen=None, x=0, targets=None,
                     copy_=False, ability=None, last_known=None, timestamp=None, activated_this_turn=None,
                     entered_this_turn=False, skip_untap=False, exile_if_dies=False, attacking=None, blocking=None, blocked=False,
                     commander=False, refers_to=None, face=None, on_adventure=False, fused=False, prototyped=False,
                     cast_with=None, regeneration_shields=0, kicked=0, buyback=False, casualty=False, cast_before=None,
                     sacrificed=None, monstrous=False, control_reverts_to=None,
                     exiled_until=None, exiled_by=None, event_object=None, event_player=None, delayed=0, it=None, modes=None,
                     may_play=None)


class _PlainAbility(_Plain):
    _model = "AbilitySpec"


class _PlainPlayer(_Plain):
    _model = "PlayerSpec"
    _defaults = dict(life=DEFAULT_LIFE, poison=0, lost=False, life_lost_this_turn=None)


class _PlainTurn(_Plain):
    _model = "TurnSpec"
    _defaults = dict(number=1, active=None, step="main1", priority=None, lands_played=0, passed=None,
                     spells_cast=None, extra_turns=None, skip_combat=None, history=None)


class _PlainHistory(_Plain):
    _model = "HistorySpec"
    _defaults = dict(died=0, gained=None, attacked=None)


class _PlainEffect(_Plain):
    _model = "EffectSpec"
    _defaults = dict(card=None, ability=None, targets=None, affected=None, event_object=None, modes=None, x=None,
                     color=None)


class _PlainPrevention(_Plain):
    _model = "PreventionSpec"
    _defaults = dict(to=None, source=None, amount=None, combat_only=False)


class _PlainSituation(_Plain):
    _model = "SituationSpec"
    _defaults = dict(name=None, description=None, rules=None, turn=None, battlefield=None, hand=None,
                     graveyard=None, library=None, exile=None, command=None, stack=None, mana_pool=None,
                     effects=None, shuffled=None, known_top=None, restricted_mana_pool=None, day_night=None, prevention=None, delayed=None, query=None,
                     expect=None)


class _NotPlain(Exception):
    """The document needs the pydantic models (an error, or something the plain checks leave to them)."""


def _str(v: Any) -> str:
    if type(v) is not str:
        raise _NotPlain
    try:
        v.encode("utf-8")  # a lone surrogate (YAML "\ud800"): left to pydantic
    except UnicodeEncodeError:
        raise _NotPlain from None
    return v


def _id(v: Any) -> str:
    """``Id`` and ``CardName``: a string of 1 to 200 characters."""
    if type(v) is not str or not 0 < len(v) <= 200:
        raise _NotPlain
    return _str(v)


def _opt_id(v: Any) -> str | None:
    return None if v is None else _id(v)


def _int(v: Any, lo: int, hi: int = MAX_INT) -> int:
    if type(v) is not int or not lo <= v <= hi:
        raise _NotPlain
    return v


def _bool(v: Any) -> bool:
    if type(v) is not bool:
        raise _NotPlain
    return v


def _list(v: Any, item: Callable[[Any], Any]) -> list:
    if type(v) is not list:
        raise _NotPlain
    return [item(x) for x in v]


def _map(v: Any, key: Callable[[Any], Any], value: Callable[[Any], Any]) -> dict:
    if type(v) is not dict:
        raise _NotPlain
    return {key(k): value(x) for k, x in v.items()}


def _keys(v: Any, allowed: Container[str]) -> dict:
    if type(v) is not dict or not all(type(k) is str and k in allowed for k in v):
        raise _NotPlain
    return v


def _count(v: Any) -> int:
    return _int(v, 0)


def _scalar(v: Any) -> Any:
    if type(v) is bool or type(v) is int:
        return v
    return _str(v)


def _chosen_value(v: Any) -> Any:
    return _list(v, _scalar) if type(v) is list else _scalar(v)


def _targets(v: Any) -> list[list[str]]:
    return _list(v, lambda g: _list(g, _id))


def _ability(v: Any) -> _PlainAbility:
    d = _keys(v, ("source", "index"))
    if len(d) != 2:
        raise _NotPlain
    return _PlainAbility(source=_id(d["source"]), index=_int(d["index"], 0))


def _opt(check: Callable[[Any], Any]) -> Callable[[Any], Any]:
    return lambda v: None if v is None else check(v)


_OBJECT_CHECKS: dict[str, Callable[[Any], Any]] = {
    "card": _opt_id,  # an inline card (a mapping) is left to the models
    "id": _opt_id, "owner": _opt_id, "controller": _opt_id, "attached_to": _opt_id, "attacking": _opt_id,
    "refers_to": _opt_id, "face": _opt_id, "cast_with": _opt_id, "exiled_until": _opt_id, "control_reverts_to": _opt_id, "exiled_by": _opt_id,
    "event_object": _opt_id,
    "event_player": _opt_id, "it": _opt_id,
    "buyback": _bool, "casualty": _bool, "tapped": _bool, "monstrous": _bool, "on_adventure": _bool, "fused": _bool, "prototyped": _bool, "sick": _bool, "token": _bool, "conjured": _bool, "copy": _bool,
    "entered_this_turn": _bool, "skip_untap": _bool, "exile_if_dies": _bool, "blocked": _bool, "commander": _bool,
    "damage": _count, "x": _count, "kicked": _count, "cast_before": _opt(_count), "delayed": _count, "timestamp": _opt(_count), "regeneration_shields": _count,
    "counters": _opt(lambda v: _map(v, _id, _count)),
    "sacrificed": _opt(lambda v: _map(v, _id, lambda x: _int(x, -MAX_INT))),
    "chosen": _opt(lambda v: _map(v, _id, _chosen_value)),
    "targets": _opt(_targets),
    "ability": _opt(_ability),
    "activated_this_turn": _opt(lambda v: _map(v, lambda k: k, _count)),
    "blocking": _opt(lambda v: _list(v, _id)),
    "modes": _opt(lambda v: _list(v, lambda x: _int(x, 1))),
    "last_known": lambda v: v if v is None else _not_plain(),
    "may_play": lambda v: v if v is None else _not_plain(),
}


def _not_plain() -> NoReturn:
    raise _NotPlain


def _object(v: Any) -> str | _PlainObject:
    if type(v) is not dict:
        return _id(v)
    d = _keys(v, _OBJECT_CHECKS)
    return _PlainObject(**{"copy_" if k == "copy" else k: _OBJECT_CHECKS[k](x) for k, x in d.items()})


def _player(v: Any) -> str | _PlainPlayer:
    if type(v) is not dict:
        return _id(v)
    checks = {"id": _id, "life": lambda x: _int(x, -MAX_INT), "poison": _count, "lost": _bool,
              "life_lost_this_turn": _opt(_count)}
    d = _keys(v, checks)
    if "id" not in d:
        raise _NotPlain
    return _PlainPlayer(**{k: checks[k](x) for k, x in d.items()})


def _turn(v: Any) -> _PlainTurn:
    d = _keys(v, ("number", "active", "step", "priority", "lands_played", "passed", "spells_cast", "extra_turns",
                  "skip_combat", "history"))
    checks = {"number": lambda x: _int(x, 1), "active": _opt_id, "priority": _opt_id, "lands_played": _count,
              "passed": _opt(lambda x: _list(x, _id)), "spells_cast": _opt(lambda x: _map(x, _id, _count)),
              "extra_turns": _opt(lambda x: _list(x, _id)), "skip_combat": _opt(lambda x: _list(x, _id)),
              "history": _opt(_history),
              "step": lambda x: x if type(x) is str and x in STEPS else _not_plain()}
    return _PlainTurn(**{k: checks[k](x) for k, x in d.items()})


def _history(v: Any) -> _PlainHistory:
    d = _keys(v, ("died", "gained", "attacked"))
    checks = {"died": _count, "gained": _opt(lambda x: _map(x, _id, _count)),
              "attacked": _opt(lambda x: _map(x, _id, _count))}
    return _PlainHistory(**{k: checks[k](x) for k, x in d.items()})


def _chooses_color(card: Any, ability: AbilityRef | None, objects: Mapping[str, Any]) -> bool:
    """Does the effects entry's spell or ability choose a color as it resolves ("gains protection from the
    color of your choice", ``Pump.chosen_protection``; CR 608.2d)?"""
    if ability is not None:
        p = objects.get(ability.source)
        src = p.card if p is not None else None
        if src is None:
            return False
        acts = ir.numbered_abilities(src.abilities)
        owner = acts[ability.index - 1] if 1 <= ability.index <= len(acts) else None
    else:
        owner = card.spell if card is not None else None
    effs = list(getattr(owner, "effects", ()) or ()) + [e for m in getattr(owner, "modes", ()) or () for e in m.effects]
    return any(getattr(e, "chosen_protection", False) for e in effs)


def _color_letter(v: Any) -> str:
    """One of the five colors by its letter (CR 105.1)."""
    if v not in ("W", "U", "B", "R", "G"):
        raise _NotPlain
    return str(v)


def _effect(v: Any) -> _PlainEffect:
    d = _keys(v, ("card", "ability", "controller", "targets", "affected", "event_object", "modes", "x", "color"))
    if "controller" not in d:
        raise _NotPlain
    checks = {"card": _opt_id, "ability": _opt(_ability), "controller": _id, "targets": _opt(_targets),
              "affected": _opt(_targets), "event_object": _opt_id, "modes": _opt(lambda v: _list(v, lambda x: _int(x, 1))),
              "x": _opt(lambda v: _int(v, -MAX_INT)), "color": _opt(_color_letter)}
    e = _PlainEffect(**{k: checks[k](x) for k, x in d.items()})
    if (e.card is None) == (e.ability is None):
        raise _NotPlain
    return e


def _prevention(v: Any) -> _PlainPrevention:
    checks = {"to": _opt_id, "source": _opt_id, "amount": _opt(lambda x: _int(x, 1)), "combat_only": _bool}
    d = _keys(v, checks)
    return _PlainPrevention(**{k: checks[k](x) for k, x in d.items()})


def _query(v: Any) -> dict:
    if type(v) is not dict or not all(type(k) is str for k in v) or "kind" not in v:
        raise _NotPlain
    if not _str(v["kind"]):
        raise _NotPlain
    return v


def _expect_entry(v: Any) -> dict:
    if type(v) is not dict or not all(type(k) is str for k in v):
        raise _NotPlain
    return v


def _zone(v: Any) -> dict:
    return _map(v, _id, lambda x: _list(x, _object))


_SITUATION_CHECKS: dict[str, Callable[[Any], Any]] = {
    "format": lambda v: v if v == FORMAT and type(v) is str else _not_plain(),
    "name": _opt(_str), "description": _opt(_str), "rules": _opt(lambda v: _list(v, _str)),
    "players": lambda v: _list(v, _player) if type(v) is list and v else _not_plain(),
    "turn": _opt(_turn),
    **{zone: _opt(_zone) for zone in ("battlefield", "hand", "graveyard", "library", "exile", "command")},
    "stack": _opt(lambda v: _list(v, _object)),
    "mana_pool": _opt(lambda v: _map(v, _id, _str)),
    "effects": _opt(lambda v: _list(v, _effect)),
    "shuffled": _opt(lambda v: _map(v, _id, _bool)),
    "known_top": _opt(lambda v: _map(v, _id, lambda n: _int(n, 1))),
    "restricted_mana_pool": lambda v: v if v is None else _not_plain(),   # left to the models
    "day_night": _opt(lambda v: v if type(v) is str and v in ("day", "night") else _not_plain()),
    "prevention": _opt(lambda v: _list(v, _prevention)),
    "delayed": lambda v: v if v is None else _not_plain(),   # left to the models
    "query": _opt(lambda v: _list(v, _query) if type(v) is list else _query(v)),
    "expect": _opt(lambda v: _list(v, _opt(_expect_entry)) if type(v) is list else _expect_entry(v)),
}


def _plain_spec(d: dict) -> _PlainSituation | None:
    """The document's shape checked without pydantic, or None when it needs the models (see above)."""
    try:
        given = _keys(d, _SITUATION_CHECKS)
        if "players" not in given:
            return None
        return _PlainSituation(**{k: _SITUATION_CHECKS[k](v) for k, v in given.items()})
    except _NotPlain:
        return None


def _validated_spec(d: dict, source: str) -> Any:
    """The document's shape (contract §1): plain checks, else the pydantic models (every error is theirs)."""
    spec = _plain_spec(d)
    if spec is not None:
        return spec
    from pydantic import ValidationError

    try:
        return _spec_model("SituationSpec").model_validate(d)
    except ValidationError as e:
        raise _pydantic_error(e.errors()[0], source) from None


def _suggest_id(ident: str, ids: list[str]) -> str:
    """A hint for a dangling id: the most similar id, else the only id containing it ('bears')."""
    hint = _did_you_mean(ident, ids)
    if not hint:
        containing = [i for i in ids if ident in i]
        if len(containing) == 1:
            hint = f" (did you mean '{containing[0]}'?)"
    return hint


def situation_json_schema() -> dict:
    """The JSON Schema of a situation file (format mtgsolve/1).

    Deterministic: the same dict on every call (dump with ``sort_keys=True``).
    """
    schema = _spec_model("SituationSpec").model_json_schema()
    schema.pop("title", None)
    _precise_queries(schema)
    return {"$schema": "https://json-schema.org/draft/2020-12/schema", "$id": SCHEMA_ID,
            "title": "mtgsolve situation (format mtgsolve/1)", **schema}


# The JSON Schema of each query kind (contract §2), discriminated by ``kind``.
# The runtime checks live in each query's module (with located messages); this
# table is what the published schema says, and a test validates every instance
# file against it and checks that it covers every kind in solver.queries.KINDS.
_ID_S = {"type": "string", "minLength": 1}
_PLAYER_S = {**_ID_S, "description": "Player id (default: the player with priority)"}
_ABILITY_S = {"type": "object", "additionalProperties": False, "required": ["object"],
              "properties": {"object": {**_ID_S, "description": "The object's id"},
                             "index": {"type": "integer", "minimum": 1, "default": 1,
                                       "description": "1-based, printed order"}},
              "description": "An ability: the n-th activated (for trigger: triggered) ability of the object"}
_COUNT_S = {"type": "integer", "minimum": 0}
QUERY_SCHEMAS: dict[str, dict] = {
    "could_produce": {"description": "§2.1 (CR 106.7): the types of mana each permanent could produce",
                      "properties": {"objects": {"anyOf": [{"type": "array", "items": _ID_S}, _ID_S],
                                                 "description": "Permanent ids (default: every permanent)"}}},
    "available_mana": {"description": "§2.2: every maximal bundle of mana the player can make now",
                       "properties": {"player": _PLAYER_S}},
    "pay": {"description": "§2.3 (CR 601.2f-h, 602.2b, 605): whether a cost can be paid, and every distinct payment",
            "properties": {"cast": {**_ID_S, "description": "Id of a card to cast"},
                           "cost": {"type": "string", "description": "A mana cost such as {1}{G}"},
                           "activate": _ABILITY_S,
                           "suspend": {**_ID_S, "description": "(extension) Id of a card with suspend in the "
                                       "player's hand: its suspend cost (CR 702.62a, 116.2f)"},
                           "x": {"anyOf": [_COUNT_S, {"const": "any"}], "description": "X: a number, or 'any'"},
                           "life": {"type": "boolean", "description": "false forbids paying life"},
                           "alternative": {"type": "string", "description": "(extension, with cast) the alternative "
                                           "cost or permission used: flashback, evoke, escape, dash, spectacle, "
                                           "overload, jump-start, retrace, or the printed cost of a 'rather than pay' line "
                                           "(CR 118.9)"},
                           "face": {"type": "string", "description": "(extension, with cast) the face cast: an "
                                    "Adventure, a split card's half, a modal double-faced card's back face "
                                    "(CR 715.3, 709.3, 712.12)"},
                           "kicked": {"type": "boolean", "description": "(extension, with cast) pay the kicker cost "
                                      "(CR 702.33a)"},
                           "buyback": {"type": "boolean", "description": "(extension, with cast) pay the buyback "
                                       "cost (CR 702.27a)"},
                           "casualty": {"type": "boolean", "description": "(extension, with cast) pay the casualty "
                                        "cost: sacrifice a creature with power N or greater (CR 702.153a)"},
                           "player": _PLAYER_S},
            "oneOf": [{"required": ["cast"]}, {"required": ["cost"]}, {"required": ["activate"]},
                      {"required": ["suspend"]}]},
    "targets": {"description": "§2.4 (CR 115, 601.2c): every legal choice of targets",
                "properties": {"cast": {**_ID_S, "description": "Id of a card to cast"},
                               "activate": _ABILITY_S, "trigger": _ABILITY_S,
                               "spell": {**_ID_S, "description": "Id of a spell or ability on the stack"},
                               "face": {"type": "string", "description": "(extension, with cast) the face cast "
                                        "(CR 715.3, 709.3, 712.12)"},
                               "alternative": {"type": "string", "description": "(extension, with cast) the "
                                               "alternative cost it is cast for, as in pay: overloaded, a spell "
                                               "has no targets (CR 702.96b)"},
                               "how": {"enum": ["cast", "activate", "trigger", "copy", "change", "random"],
                                       "description": "Who/why targets are chosen"},
                               "player": {**_ID_S, "description": "Who chooses (default: the controller)"},
                               "modes": {"type": "array", "items": {"type": "integer", "minimum": 1},
                                         "description": "(extension) The modes chosen for a modal spell or "
                                                        "ability, 1-based in printed order (CR 700.2, 601.2b); "
                                                        "default: every legal selection"}},
                "oneOf": [{"required": ["cast"]}, {"required": ["activate"]}, {"required": ["trigger"]},
                          {"required": ["spell"]}]},
    "order": {"description": "§2.5 (CR 614, 616): every distinct result of ordering replacement effects",
              "properties": {"event": {"oneOf": [
                  {"type": "object", "additionalProperties": False, "required": ["kind", "object"],
                   "properties": {"kind": {"const": "tap_for_mana"}, "object": _ID_S,
                                  "index": {"type": "integer", "minimum": 1}, "mana": {"type": "string"}}},
                  {"type": "object", "additionalProperties": False, "required": ["kind", "object"],
                   "properties": {"kind": {"enum": ["counters", "enter"]}, "object": _ID_S,
                                  "counter": {"type": "string"}, "amount": _COUNT_S}}]}},
              "required": ["event"]},
    "actions": {"description": "§2.6: everything the player may legally do now", "properties": {"player": _PLAYER_S}},
    "resolve": {"description": "§2.7 (CR 608, 704): every outcome of resolving the top of the stack",
                "properties": {}},
    "attacks": {"description": "§2.8 (CR 508.1): every legal declaration of attackers",
                "properties": {"player": {**_ID_S, "description": "The attacking player (default: the active player)"}}},
    "blocks": {"description": "§2.9 (CR 509.1): every legal declaration of blockers",
               "properties": {"player": {**_ID_S, "description": "The defending player"}}},
    "pass": {"description": "§2.10 (CR 117.3d-117.4, 500-514): every situation after the player with priority passes",
             "properties": {}},
}


def query_kinds() -> tuple[str, ...]:
    """The query kinds this version answers (:data:`solver.core.options.QUERY_KINDS`)."""

    return QUERY_KINDS


def _precise_queries(schema: dict) -> None:
    """Replace the generic ``QuerySpec`` (``{kind: string}``) with one precise
    schema per query kind, discriminated by ``kind`` (so ``kind: target`` fails)."""
    defs = schema.setdefault("$defs", {})
    kinds = [k for k in query_kinds() if k in QUERY_SCHEMAS]
    branches = []
    for kind in kinds:
        spec = QUERY_SCHEMAS[kind]
        name = "Query_" + kind
        body = {"type": "object", "additionalProperties": False, "required": ["kind", *spec.get("required", [])],
                "description": spec["description"],
                "properties": {"kind": {"const": kind}, **spec["properties"]}}
        if "oneOf" in spec:
            body["oneOf"] = spec["oneOf"]
        defs[name] = body
        branches.append({"if": {"properties": {"kind": {"const": kind}}, "required": ["kind"]},
                         "then": {"$ref": f"#/$defs/{name}"}})
    defs["QuerySpec"] = {"title": "Query", "type": "object", "required": ["kind"],
                         "description": "A query (contract §2): a mapping with kind; the other keys depend on it",
                         "properties": {"kind": {"enum": kinds, "description": "The query kind"}},
                         "allOf": branches}


# ===========================================================================
# Paths and messages
# ===========================================================================

_PLAIN_KEY = re.compile(r"[A-Za-z0-9_][A-Za-z0-9_\-]*\Z")


def _at(path: str, *parts: str | int) -> str:
    """Extend a path: ``_at("battlefield", "alice", 2, "card") == "battlefield.alice[2].card"``."""
    for p in parts:
        if isinstance(p, int) and not isinstance(p, bool):
            path += f"[{p}]"
        elif isinstance(p, str) and _PLAIN_KEY.match(p):
            path += f".{p}" if path else p
        else:
            path += f"[{json.dumps(p if isinstance(p, str) else str(p), ensure_ascii=False)}]"
    return path


_TYPE_MESSAGES = {
    "bool_type": "expected true or false",
    "int_type": "expected an integer", "int_from_float": "expected an integer", "int_parsing": "expected an integer",
    "string_type": "expected a string",
    "dict_type": "expected a mapping", "model_type": "expected a mapping",
    "model_attributes_type": "expected a mapping",
    "list_type": "expected a list",
}


def _pydantic_error(err: Mapping[str, Any], source: str) -> SituationError:
    """Turn pydantic's first error into a located one-line :class:`SituationError`."""
    kind = err["type"]
    loc = [p for p in err["loc"] if p not in _UNION_TAGS]
    value = err.get("input")
    ctx = err.get("ctx") or {}
    if kind == "missing":
        key = loc.pop()
        return SituationError(source, _at("", *loc), f"missing key '{key}'")
    if loc and loc[-1] == "[key]":  # a mapping's key, e.g. counters: {1: 2}
        path = _at("", *loc[:-2])
        if kind == "string_type":
            return SituationError(source, path, f"keys must be strings, got {_show(value)}")
        if kind == "string_too_short":
            return SituationError(source, path, "keys must not be empty")
        return SituationError(source, path, f"bad key {_show(value)}: {err['msg']}")
    path = _at("", *loc)
    if kind in _TYPE_MESSAGES:
        msg = f"{_TYPE_MESSAGES[kind]}, got {_show(value)}"
    elif kind.startswith("wrong_shape"):
        msg = f"{err['msg']}, got {_show(value)}"
    elif kind == "greater_than_equal":
        msg = f"must be at least {ctx.get('ge')}, got {_show(value)}"
    elif kind == "less_than_equal":
        msg = f"must be at most {ctx.get('le')}, got {_show(value)}"
    elif kind in ("too_short", "string_too_short"):
        msg = "must not be empty"
    elif kind == "string_too_long":
        msg = f"is too long (at most {ctx.get('max_length')} characters)"
    elif kind == "literal_error":
        msg = f"expected {ctx.get('expected')}, got {_show(value)}"
    else:
        msg = err["msg"]
    if kind in ("string_type", "wrong_shape_or_string") and not source.lower().endswith(".json"):
        msg += _quote_hint(value)
    return SituationError(source, path, msg)


def _quote_hint(value: Any) -> str:
    """Why a YAML scalar meant as text is not a string (``no``, ``702.10``, ``2024-01-01``)."""
    if isinstance(value, bool):
        what = "true/false"
    elif isinstance(value, (int, float)):
        what = "a number"
    elif isinstance(value, (_dt.date, _dt.datetime)):
        what = "a date"
    else:
        return ""
    return f" (put it in quotes: YAML reads it as {what})"


# ===========================================================================
# Read
# ===========================================================================

def _limit(value: int | None, env: str, default: int) -> int:
    if value is not None:
        return value
    try:
        v = int(os.environ.get(env, ""))
        return v if v > 0 else default
    except ValueError:
        return default


class _UniqueKeyLoader(getattr(yaml, "CSafeLoader", yaml.SafeLoader)):  # type: ignore[misc]
    """PyYAML's safe loader (no Python objects) that also rejects duplicate keys."""

    def construct_mapping(self, node: yaml.MappingNode, deep: bool = False) -> dict:
        seen: set = set()
        for key_node, _ in node.value:
            if isinstance(key_node, yaml.ScalarNode) and key_node.tag != "tag:yaml.org,2002:merge":
                key = self.construct_object(key_node)
                try:
                    dup = key in seen
                    seen.add(key)
                except TypeError:
                    continue
                if dup:
                    raise yaml.constructor.ConstructorError(None, None, f"duplicate key {_show(key)}",
                                                            key_node.start_mark)
        return super().construct_mapping(node, deep=deep)


class _JSONProblem(ValueError):
    pass


def _json_pairs(pairs: list[tuple[str, Any]]) -> dict:
    out: dict = {}
    for k, v in pairs:
        if k in out:
            raise _JSONProblem(f"duplicate key {_show(k)}")
        out[k] = v
    return out


def _json_constant(name: str) -> Any:
    raise _JSONProblem(f"{name} is not a number")


def _parse_yaml(text: str, source: str) -> Any:
    try:
        return yaml.load(text, Loader=_UniqueKeyLoader)  # noqa: S506 - a SafeLoader subclass
    except yaml.MarkedYAMLError as e:
        mark = e.problem_mark or e.context_mark
        where = f" at line {mark.line + 1}, column {mark.column + 1}" if mark is not None else ""
        problem = e.problem or e.context or "cannot parse"
        if e.context and e.problem and e.problem.startswith("but "):
            problem = f"{e.context}, {e.problem}"
        raise SituationError(source, "", f"malformed YAML{where}: {problem}") from None
    except yaml.YAMLError as e:
        raise SituationError(source, "", f"malformed YAML: {e}") from None
    except RecursionError:
        raise SituationError(source, "", f"malformed YAML: nested more than {MAX_DEPTH} levels deep") from None


def _parse_json(text: str, source: str) -> Any:
    try:
        return json.loads(text, object_pairs_hook=_json_pairs, parse_constant=_json_constant)
    except json.JSONDecodeError as e:
        raise SituationError(source, "", f"malformed JSON at line {e.lineno}, column {e.colno}: {e.msg}") from None
    except _JSONProblem as e:
        raise SituationError(source, "", f"malformed JSON: {e}") from None
    except RecursionError:
        raise SituationError(source, "", f"malformed JSON: nested more than {MAX_DEPTH} levels deep") from None


def read_document(path: str | Path, *, max_bytes: int | None = None) -> Any:
    """Read and parse a situation file as plain data (no validation).

    ``.json`` files are JSON, anything else YAML.  ``max_bytes`` (default
    5 MB, or ``$MTGSOLVE_MAX_FILE_BYTES``) bounds the file size.
    """
    source = str(path)
    limit = _limit(max_bytes, MAX_FILE_BYTES_ENV, DEFAULT_MAX_FILE_BYTES)
    try:
        with open(path, "rb") as f:
            data = f.read(limit + 1)
    except FileNotFoundError:
        raise SituationError(source, "", "cannot read the file: no such file") from None
    except IsADirectoryError:
        raise SituationError(source, "", "cannot read the file: it is a directory") from None
    except PermissionError:
        raise SituationError(source, "", "cannot read the file: permission denied") from None
    except OSError as e:
        raise SituationError(source, "", f"cannot read the file: {e.strerror or e}") from None
    if len(data) > limit:
        raise SituationError(source, "", f"the file is larger than {limit} bytes "
                                         f"(set {MAX_FILE_BYTES_ENV} to allow more)")
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as e:
        raise SituationError(source, "", f"not UTF-8 text (bad byte at offset {e.start})") from None
    if Path(path).suffix.lower() == ".json":
        return _parse_json(text, source)
    return _parse_yaml(text, source)


def parse_document(text: str, source: str) -> Any:
    """Parse a situation given as text (``mtgsolve solve -``: standard input), YAML or JSON.

    Text whose first non-blank character is ``{`` or ``[`` is read as JSON when
    it is valid JSON, else as YAML (JSON is mostly YAML too)."""
    limit = _limit(None, MAX_FILE_BYTES_ENV, DEFAULT_MAX_FILE_BYTES)
    if len(text.encode("utf-8", "surrogatepass")) > limit:
        raise SituationError(source, "", f"the input is larger than {limit} bytes "
                                         f"(set {MAX_FILE_BYTES_ENV} to allow more)")
    text = text.lstrip("\ufeff")
    if text.lstrip()[:1] in ("{", "["):
        try:
            return _parse_json(text, source)
        except SituationError:
            pass
    return _parse_yaml(text, source)


def _check_size(data: Any, source: str) -> None:
    """Reject structures that are huge once YAML aliases are expanded, or too deep (or recursive)."""
    count = 0
    todo: list[tuple[Any, int]] = [(data, 1)]
    while todo:
        node, depth = todo.pop()
        count += 1
        if depth > MAX_DEPTH:
            raise SituationError(source, "", f"the document is nested more than {MAX_DEPTH} levels deep "
                                             "(or refers to itself through YAML aliases)")
        if isinstance(node, dict):
            count += len(node)
            todo.extend((v, depth + 1) for v in node.values())
        elif isinstance(node, (list, tuple)):
            todo.extend((v, depth + 1) for v in node)
        if count > MAX_NODES:
            raise SituationError(source, "", f"the document has more than {MAX_NODES} values once YAML "
                                             "aliases are expanded")


def _count_objects(raw: dict) -> int:
    n = 0
    for zone in KEYED_ZONES:
        lists = raw.get(zone)
        if isinstance(lists, dict):
            n += sum(len(v) for v in lists.values() if isinstance(v, list))
    if isinstance(raw.get("stack"), list):
        n += len(raw["stack"])
    return n


# ===========================================================================
# Meaning: from the validated shape to a GameState
# ===========================================================================

@dataclass(frozen=True)
class Loaded:
    """A loaded situation: the validated state, its queries and expectations.

    ``queries`` are the query mappings as given (each checked to be a mapping
    with a string ``kind``); ``expect`` is aligned with them (one entry per
    query, ``None`` where a list entry is null) or ``None`` when the file has no
    ``expect``.  ``raw`` is the parsed document.
    """

    state: GameState
    queries: tuple[dict, ...]
    expect: tuple[dict | None, ...] | None
    source: str
    raw: dict = field(repr=False)


_PLAIN_OBJECT = _PlainObject()  # the keys of an object written as a bare card name


@dataclass
class _Pending:
    """An object while it is being built: where it is written and what was given."""

    zone: str
    key: str | None  # the zone key (controller on the battlefield, owner elsewhere); None on the stack
    index: int
    spec: Any  # ObjectSpec, or its _PlainObject
    card_ref: Any  # the card as written: a bare name (str), or the mapping's ``card`` (InlineCard)
    card: Card | None = None
    face: FaceUp | None = None  # the face it shows (io/faces.py), once its card is read
    id: str = ""
    owner: str = ""
    controller: str = ""

    @property
    def path(self) -> str:
        """Where the object is written: ``battlefield.alice[2]``, ``stack[0]``."""
        return _at(self.zone, self.index) if self.key is None else _at(self.zone, self.key, self.index)


def _comma_hint(err: SituationError, entries: list, i: int, cards: CardDB = SHIPPED) -> SituationError:
    """YAML splits ``[Thalia, Guardian of Thraben]`` at the comma: when an unknown
    card name and the entries after it join (with ", ") into a known card name,
    say to quote it instead of suggesting a look-alike card."""
    name = entries[i]
    if (not isinstance(name, str) or not err.message.startswith("unknown card")
            or err.file.lower().endswith(".json")):
        return err
    for j in range(i + 1, min(i + 4, len(entries))):
        if not all(isinstance(x, str) for x in entries[i:j + 1]):
            break
        joined = ", ".join(entries[i:j + 1])
        canon = cards.canonical_name(joined)
        if canon is not None:
            return SituationError(err.file, err.path,
                                  f"unknown card '{name}': YAML split the card name '{canon}' at its comma; "
                                  f"quote names that contain commas: [\"{canon}\"]")
    return err


class _Builder:
    """Builds a :class:`GameState` from a validated :class:`SituationSpec`."""

    def __init__(self, spec: Any, source: str, cards: CardDB = SHIPPED):  # SituationSpec, or its _PlainSituation
        self.spec = spec
        self.source = source
        self.cards = cards
        self.player_ids: tuple[str, ...] = ()
        self.objects: dict[str, _Pending] = {}

    def fail(self, path: str, message: str) -> NoReturn:
        raise SituationError(self.source, path, message)

    # -- players and turn ----------------------------------------------------
    def players(self) -> tuple[Player, ...]:
        out: list[Player] = []
        where: dict[str, int] = {}
        for i, entry in enumerate(self.spec.players):
            if isinstance(entry, str):
                player, path = Player(entry), _at("players", i)
            else:
                player, path = Player(entry.id, entry.life, entry.poison, entry.lost,
                                      entry.life_lost_this_turn), _at("players", i, "id")
            if player.id in where:
                self.fail(path, f"player '{player.id}' is listed twice (also players[{where[player.id]}])")
            where[player.id] = i
            out.append(player)
        self.player_ids = tuple(p.id for p in out)
        return tuple(out)

    def player(self, pid: str, path: str) -> str:
        if pid not in self.player_ids:
            hint = _did_you_mean(pid, self.player_ids) or f" (players: {', '.join(self.player_ids)})"
            self.fail(path, f"unknown player '{pid}'{hint}")
        return pid

    def turn(self) -> Turn:
        """Contract §1 defaults: number 1, first player active, main1, priority to the active player."""
        t = self.spec.turn or _PlainTurn()
        active = self.player(t.active, "turn.active") if t.active is not None else self.player_ids[0]
        priority = self.player(t.priority, "turn.priority") if t.priority is not None else active
        passed: set[str] = set()
        for i, pid in enumerate(t.passed or []):
            self.player(pid, _at("turn", "passed", i))
            if pid in passed:
                self.fail(_at("turn", "passed", i), f"player '{pid}' is listed twice")
            passed.add(pid)
        return Turn(number=t.number, active=active, step=t.step, priority=priority, lands_played=t.lands_played,
                    passed=tuple(pid for pid in self.player_ids if pid in passed), spells_cast=self.spells_cast(t),
                    extra_turns=tuple(self.player(pid, _at("turn", "extra_turns", i))
                                      for i, pid in enumerate(t.extra_turns or [])),
                    skip_combat=tuple(sorted(self.player(pid, _at("turn", "skip_combat", i))
                                             for i, pid in enumerate(t.skip_combat or []))),
                    history=self.history(t))

    def history(self, t: Any) -> TurnHistory | None:
        """(extension) ``turn.history``: what happened this turn that rules look back at (issue 27); a
        player not listed gained no life, attacked with no creature."""
        h = t.history
        if h is None:
            return None
        counts = []
        for key in ("gained", "attacked"):
            given = getattr(h, key) or {}
            for pid in given:
                self.player(pid, _at("turn", "history", key, pid))
            counts.append(tuple((pid, given[pid]) for pid in self.player_ids if given.get(pid, 0) > 0))
        return TurnHistory(h.died, counts[0], counts[1])

    def spells_cast(self, t: Any) -> tuple[tuple[str, int], ...] | None:
        """(extension) ``turn.spells_cast``: spells each player cast this turn (CR 730.2); a player
        not listed cast none."""
        if t.spells_cast is None:
            return None
        for pid in t.spells_cast:
            self.player(pid, _at("turn", "spells_cast", pid))
        return tuple((pid, t.spells_cast[pid]) for pid in self.player_ids if t.spells_cast.get(pid, 0) > 0)

    # -- objects ---------------------------------------------------------------
    def collect(self) -> list[_Pending]:
        """Every object, in the contract's id-numbering order."""
        out: list[_Pending] = []
        for zone in KEYED_ZONES:
            lists = getattr(self.spec, zone) or {}
            for key in lists:
                self.player(key, _at(zone, key))
            for pid in self.player_ids:
                entries = lists.get(pid, [])
                for i, entry in enumerate(entries):
                    try:
                        out.append(self.pending(zone, pid, i, entry))
                    except SituationError as e:
                        raise _comma_hint(e, entries, i, self.cards) from None
        for i, entry in enumerate(self.spec.stack or []):
            out.append(self.pending("stack", None, i, entry))
        return out

    def pending(self, zone: str, key: str | None, index: int, entry: Any) -> _Pending:  # str | ObjectSpec
        """Check an object's shape (card or ability, and where) and read its card."""
        if isinstance(entry, str):
            p = _Pending(zone, key, index, _PLAIN_OBJECT, entry)
        else:
            p = _Pending(zone, key, index, entry, entry.card)
        spec = p.spec
        if spec.ability is not None and p.card_ref is not None:
            self.fail(p.path, "an object has either 'card' (a card or spell) or 'ability' "
                              "(an ability on the stack), not both")
        if spec.ability is not None and zone != "stack":
            self.fail(_at(p.path, "ability"), "only objects on the stack can be abilities")
        if spec.last_known is not None and spec.ability is None:
            self.fail(_at(p.path, "last_known"), "'last_known' is only for abilities on the stack")
        if p.card_ref is None and spec.ability is None:
            if zone == "stack":
                self.fail(p.path, "a stack object needs 'card' (a spell) or 'ability' (an ability)")
            self.fail(p.path, "missing key 'card'")
        if p.card_ref is not None:
            p.card = self.card(p.card_ref, lambda: _at(p.path, "card"))
            p.face = self.face_up(p)
            if zone == "battlefield":
                why = day_night_problem(p.face.card, p.face.front, self.spec.day_night)
                if why:
                    self.fail(p.path, why)
        return p

    def face_up(self, p: _Pending) -> FaceUp:
        """The face the object shows (contract extension ``face``, ``on_adventure``; io/faces.py): a
        later face's own name written as the card names that face of its card."""
        assert p.card is not None
        card, face = p.card, p.spec.face
        named = by_face_name(p.card_ref, self.cards) if isinstance(p.card_ref, str) else None
        if named is not None:
            card, given = named
            if face is not None and face.lower() != given.lower():
                self.fail(_at(p.path, "face"), f"'{p.card_ref}' is the face {given} of {card.name}, not {face}")
            p.card = card
            if face is None:
                try:   # the face named, where the object can show it; elsewhere the card itself (712.8a)
                    return face_up(card, given, p.zone, self.cards, on_adventure=p.spec.on_adventure)
                except FaceError:
                    pass
        try:
            if p.spec.prototyped:   # a prototype card cast prototyped (CR 702.160, 718.3)
                return _prototyped_up(card, face, p.zone)
            if p.spec.fused:   # a split card with fuse cast as both halves (CR 702.102)
                return fused_up(card, face, p.zone)
            return face_up(card, face, p.zone, self.cards, on_adventure=p.spec.on_adventure)
        except FaceError as e:
            self.fail(_at(p.path, e.key), str(e))

    def cast_with(self, p: Any) -> str | None:
        """Object key ``cast_with`` (extension): a spell on the stack cast with flashback or jump-start
        (CR 702.34a, 702.133a), escape or evoke (702.138b, 702.74a: also the permanent it became), an option
        its card has; elsewhere, another name, or without the option: a located error."""
        given = p.spec.cast_with
        if given is None:
            return None
        where = _at(p.path, "cast_with")
        if given not in CAST_WITH:
            self.fail(where, f"'cast_with' is one of {', '.join(sorted(CAST_WITH))}, not {given!r}")
        zones = ("stack", "battlefield") if given in KEPT_ON_BATTLEFIELD else ("stack",)
        if p.zone not in zones or p.spec.ability is not None:
            self.fail(where, f"'cast_with: {given}' is for a spell on the stack"
                      + (" or the permanent it became" if len(zones) > 1 else "") + " (CR 702.34a, 702.133a, "
                      "702.138b, 702.74a)")
        self._needs_option(p, where, given)
        if given == "overload" and p.spec.targets:
            self.fail(where, "a spell cast for its overload cost has no targets (CR 702.96b): give no 'targets'")
        return str(given)

    def _needs_option(self, p: Any, where: str, name: str) -> None:
        """A located error unless ``p``'s card has the casting option ``name`` read (CR 601.2b)."""
        names = {a.name for a in (p.card.abilities if p.card is not None else ()) if isinstance(a, ir.CastingOption)}
        if name not in names:
            self.fail(where, f"{p.card.name if p.card else 'the object'} has no {name} the project reads")

    def modes(self, p: Any) -> tuple[int, ...] | None:
        """Object key ``modes`` (extension): the modes chosen for a modal spell or ability on the stack
        (CR 700.2a, 601.2b, 603.3c) — a selection its text allows (``rules.modes.selection_error``)."""
        given = p.spec.modes
        if given is None:
            return None
        where = _at(p.path, "modes")
        if p.zone != "stack":
            self.fail(where, "'modes' is for a modal spell or ability on the stack (CR 700.2a)")
        if p.spec.ability is not None:
            src = self.objects.get(p.spec.ability.source)
            numbered = ir.numbered_abilities(src.card.abilities) if src is not None and src.card else ()
            i = p.spec.ability.index
            owner = numbered[i - 1] if 1 <= i <= len(numbered) else None
        else:
            owner = p.card.spell if p.card is not None else None
        mc = modal_of(owner)
        if mc is None:
            self.fail(where, "this spell or ability has no modes (CR 700.2)")
        why = selection_error(mc, list(given))
        if why is not None:
            self.fail(where, why)
        return tuple(sorted(given))

    def kicked(self, p: Any) -> int:
        """Object key ``kicked`` (extension): how many times a spell on the stack, or the spell a permanent
        was, was kicked (CR 702.33d-e): its card has kicker (at most once, 702.33a) or multikicker (any
        number, 702.33c); elsewhere a located error."""
        n = int(p.spec.kicked or 0)
        if not n:
            return 0
        where = _at(p.path, "kicked")
        if p.zone not in ("stack", "battlefield") or p.spec.ability is not None:
            self.fail(where, "'kicked' is for a spell on the stack or the permanent it became (CR 702.33d)")
        names = {a.name for a in (p.card.abilities if p.card is not None else ()) if isinstance(a, ir.Kicker)}
        if "multikicker" not in names:
            self._needs_option(p, where, "kicker")
            if n > 1:
                self.fail(where, f"{p.card.name if p.card else 'the object'} has one kicker cost: kicked at most "
                          "once (CR 702.33a)")
        return n

    def buyback(self, p: Any) -> bool:
        """Object key ``buyback`` (extension): a spell on the stack whose buyback cost was paid (CR 702.27a)."""
        if not p.spec.buyback:
            return False
        where = _at(p.path, "buyback")
        if p.zone != "stack" or p.spec.ability is not None:
            self.fail(where, "'buyback' is for a spell on the stack (CR 702.27a)")
        self._needs_option(p, where, "buyback")
        return True

    def casualty(self, p: Any) -> bool:
        """Object key ``casualty`` (extension): a spell on the stack, or a copy of one (CR 707.10), whose
        casualty cost was paid (CR 702.153a)."""
        if not p.spec.casualty:
            return False
        where = _at(p.path, "casualty")
        if p.zone != "stack" or p.spec.ability is not None:
            self.fail(where, "'casualty' is for a spell on the stack (CR 702.153a)")
        self._needs_option(p, where, "casualty")
        return True

    def cast_before(self, p: Any) -> int | None:
        """Object key ``cast_before`` (extension): how many spells all players cast this turn before this spell
        on the stack (storm, CR 702.40a); elsewhere a located error."""
        n = p.spec.cast_before
        if n is None:
            return None
        if p.zone != "stack" or p.spec.ability is not None:
            self.fail(_at(p.path, "cast_before"), "'cast_before' is for a spell on the stack (CR 702.40a)")
        return int(n)

    def sacrificed(self, p: Any) -> tuple[tuple[str, int], ...]:
        """Object key ``sacrificed`` (extension): on a spell on the stack, ``{power, toughness, mana_value}`` of
        the creature sacrificed to cast it as it last existed (CR 608.2h); elsewhere a located error."""
        given = p.spec.sacrificed
        if not given:
            return ()
        where = _at(p.path, "sacrificed")
        if p.zone != "stack" or p.spec.ability is not None:
            self.fail(where, "'sacrificed' is for a spell on the stack (the creature sacrificed to cast it)")
        for k in given:
            if k not in ("power", "toughness", "mana_value"):
                self.fail(_at(where, k), f"unknown characteristic {k!r} (power, toughness, mana_value)")
        return tuple(sorted((str(k), int(v)) for k, v in given.items()))

    def monstrous(self, p: Any) -> bool:
        """Object key ``monstrous`` (extension): a permanent that became monstrous (CR 701.37b); only a
        permanent is (a located error elsewhere)."""
        if not p.spec.monstrous:
            return False
        if p.zone != "battlefield":
            self.fail(_at(p.path, "monstrous"), "'monstrous' is for a permanent (CR 701.37b)")
        return True

    def control_reverts_to(self, p: Any) -> str | None:
        """Object key ``control_reverts_to`` (extension): the player who controls a permanent again as an
        "until end of turn" control-changing effect ends (CR 613.1b, 514.2) — a player other than its
        controller, only on the battlefield (a located error elsewhere)."""
        who = p.spec.control_reverts_to
        if who is None:
            return None
        path = _at(p.path, "control_reverts_to")
        if p.zone != "battlefield":
            self.fail(path, "'control_reverts_to' is for a permanent (CR 613.1b)")
        if who not in self.player_ids:
            self.fail(path, f"unknown player '{who}'{_suggest_id(who, list(self.player_ids))}")
        if who == p.controller:
            self.fail(path, f"'{who}' already controls it: control_reverts_to names the player who controls it "
                            "again at cleanup (CR 514.2)")
        return str(who)

    def card(self, ref: Any, path: str | Callable[[], str]) -> Card:  # str | InlineCard
        """A card by name or inline; ``path`` (or a function giving it, to build it only on error)."""
        where = path if isinstance(path, str) else None
        if isinstance(ref, str):
            try:
                card = self.cards.get(ref)
            except UnknownCard as e:
                self.fail(where or path(), str(e))  # type: ignore[operator]
            return self.cards.get(card.name)  # the cached card under its canonical name
        mapping = ref.model_dump(exclude_unset=True)
        try:
            return card_from_mapping(mapping, self.cards.path)
        except ManaSyntaxError as e:
            self.fail(_at(where or path(), "manaCost"), str(e))  # type: ignore[operator]
        except (ValueError, KeyError, TypeError) as e:
            self.fail(where or path(), f"cannot read the inline card: {e}")  # type: ignore[operator]

    def assign_ids(self, pending: list[_Pending]) -> None:
        """Explicit ids first (reserved), then automatic ids in contract order (see module doc)."""
        players = set(self.player_ids)
        where: dict[str, str] = {}
        for p in pending:
            oid = p.spec.id
            if oid is None:
                continue
            if oid in players:
                self.fail(_at(p.path, "id"),
                          f"id '{oid}' is already a player's id (players and objects share one namespace)")
            if oid in where:
                self.fail(_at(p.path, "id"), f"duplicate id '{oid}' (also at {where[oid]})")
            where[oid] = p.path
            p.id = oid
        taken = players | set(where)
        last: dict[str, int] = {}
        for p in pending:
            if p.id:
                continue
            if p.card is not None:
                base = object_id_base(p.card.name)
            else:
                assert p.spec.ability is not None  # an object without a card is an ability on the stack
                base = f"ability-of-{p.spec.ability.source}"
            last[base] = _free_number(base, taken, last.get(base, 0) + 1)
            p.id = _numbered(base, last[base])
            taken.add(p.id)
        self.objects = {p.id: p for p in pending}

    def known(self, ident: str, path: str, *, players: bool = True, what: str = "id") -> str:
        """Check that ``ident`` names an object (or, with ``players``, a player)."""
        if ident in self.objects or (players and ident in self.player_ids):
            return ident
        pool = [oid for oid, p in self.objects.items() if players or p.card is not None]
        pool += list(self.player_ids) if players else []
        self.fail(path, f"unknown {what} '{ident}'{_suggest_id(ident, pool)}")

    def targets(self, targets: list[list[str]] | None, path: str) -> tuple[tuple[str, ...], ...] | None:
        if targets is None:
            return None
        return tuple(tuple(self.known(t, _at(path, i, j)) for j, t in enumerate(group))
                     for i, group in enumerate(targets))

    def ability_source(self, p: _Pending) -> _Pending:
        ab = p.spec.ability
        assert ab is not None  # called only for abilities on the stack
        path = _at(p.path, "ability", "source")
        self.known(ab.source, path, players=False, what="object")
        source = self.objects[ab.source]
        if source.card is None:
            self.fail(path, f"'{ab.source}' is an ability, not a card or permanent")
        return source

    def control(self, p: _Pending) -> None:
        """Owner and controller (contract §1): the zone key is the controller on
        the battlefield and the owner elsewhere; stack objects name theirs, an
        ability's controller defaults to its source's (CR 113.8)."""
        s = p.spec
        if p.zone == "battlefield":
            if s.controller is not None and s.controller != p.key:
                self.fail(_at(p.path, "controller"), f"controller '{s.controller}' contradicts the zone key "
                                                     f"'{p.key}' (on the battlefield the key is the controller)")
            p.controller = p.key or ""
            p.owner = self.player(s.owner, _at(p.path, "owner")) if s.owner is not None else p.controller
        elif p.zone != "stack":
            if s.owner is not None and s.owner != p.key:
                self.fail(_at(p.path, "owner"), f"owner '{s.owner}' contradicts the zone key '{p.key}' "
                                                f"(in the {p.zone} the key is the owner)")
            p.owner = p.key or ""
            p.controller = self.player(s.controller, _at(p.path, "controller")) if s.controller is not None else p.owner
        else:
            controller = s.controller
            owner = s.owner
            if controller is not None:
                self.player(controller, _at(p.path, "controller"))
            if owner is not None:
                self.player(owner, _at(p.path, "owner"))
            if controller is None and s.ability is not None:
                source = self.ability_source(p)
                lki = s.last_known
                controller = lki.controller if lki is not None and lki.controller is not None else source.controller
            controller = controller or owner
            if controller is None:
                self.fail(p.path, "missing key 'controller' (a spell on the stack needs its controller)")
            p.controller = controller
            p.owner = owner or controller

    def check_attachment(self, p: _Pending) -> None:
        """``attached_to``: a permanent attached to a permanent or a player (CR 301.5, 303.4)."""
        target = p.spec.attached_to
        if target is None:
            return
        path = _at(p.path, "attached_to")
        self.known(target, path)
        if p.zone != "battlefield":
            self.fail(path, f"only permanents can be attached, and this object is in the {p.zone}")
        if target == p.id:
            self.fail(path, "an object cannot be attached to itself")
        other = self.objects.get(target)
        if other is not None and other.zone != "battlefield":
            self.fail(path, f"cannot be attached to '{target}', which is in the {other.zone}, not on the battlefield")

    def check_combat(self, p: _Pending) -> None:
        """``attacking`` / ``blocking`` / ``blocked`` (CR 506.4, 508.1b, 509.1a, 509.1h): a creature on the
        battlefield attacks a player other than its controller, or a planeswalker or battle on the
        battlefield; a blocker blocks attacking creatures of another player; ``blocked`` needs ``attacking``.
        (Whether the object is a creature is a characteristic after effects, checked by the combat rules.)"""
        s = p.spec
        if s.attacking is not None:
            path = _at(p.path, "attacking")
            if p.zone != "battlefield":
                self.fail(path, f"only permanents on the battlefield can attack, and this object is in the {p.zone}")
            self.known(s.attacking, path)
            if s.attacking == p.controller:
                self.fail(path, "a creature cannot attack its own controller")
            other = self.objects.get(s.attacking)
            if other is not None:
                if other.zone != "battlefield":
                    self.fail(path, f"'{s.attacking}' is in the {other.zone}, not on the battlefield")
                if other.id == p.id:
                    self.fail(path, "a creature cannot attack itself")
        if s.blocked and s.attacking is None:
            self.fail(_at(p.path, "blocked"), "only an attacking creature (with 'attacking') can be blocked")
        if s.blocking:
            if p.zone != "battlefield":
                self.fail(_at(p.path, "blocking"), f"only permanents on the battlefield can block, "
                                                   f"and this object is in the {p.zone}")
            if s.attacking is not None:
                self.fail(_at(p.path, "blocking"), "a creature cannot both attack and block")
            seen: set[str] = set()
            for i, aid in enumerate(s.blocking):
                path = _at(p.path, "blocking", i)
                self.known(aid, path, players=False, what="object")
                if aid in seen:
                    self.fail(path, f"'{aid}' is listed twice")
                seen.add(aid)
                other = self.objects[aid]
                if other.spec.attacking is None:
                    self.fail(path, f"'{aid}' is not attacking (it has no 'attacking')")
                if other.controller == p.controller:
                    self.fail(path, f"'{aid}' is controlled by '{p.controller}' too: a creature blocks only "
                                    f"creatures attacking its controller or their permanents")

    def check_cycles(self, pending: list[_Pending]) -> None:
        done: set[str] = set()
        for p in pending:
            chain: list[str] = []
            cur: str | None = p.id
            while cur is not None and cur in self.objects and cur not in done:
                if cur in chain:
                    cycle = chain[chain.index(cur):] + [cur]
                    self.fail(_at(self.objects[cur].path, "attached_to"),
                              "attachments form a cycle: " + " → ".join(cycle))
                chain.append(cur)
                cur = self.objects[cur].spec.attached_to
            done.update(chain)

    def last_known(self, p: _Pending) -> tuple[tuple[str, Any], ...]:
        """The source's last known information, keys in the order of :class:`LastKnownSpec`."""
        lki = p.spec.last_known
        if lki is None:
            return ()
        path = _at(p.path, "last_known")
        out: list[tuple[str, Any]] = []
        for key in _spec_model("LastKnownSpec").model_fields:
            value = getattr(lki, key)
            if value is None:
                continue
            if key == "card":
                value = self.card(value, _at(path, "card"))
            elif key in ("owner", "controller"):
                self.player(value, _at(path, key))
            elif key == "attached_to":
                self.known(value, _at(path, key))
            elif key == "counters":
                value = _counters(value)
            elif key == "chosen":
                value = _chosen(value)
            out.append((key, value))
        return tuple(out)

    def game_object(self, p: _Pending, position: int) -> GameObject:
        s = p.spec
        ability = None
        if s.ability is not None:
            self.ability_source(p)
            ability = AbilityRef(s.ability.source, s.ability.index)
        return GameObject(
            id=p.id, zone=p.zone, owner=p.owner, controller=p.controller,
            card=p.face.card if p.face is not None else p.card,
            front=p.face.front if p.face is not None else None,
            melded_with=p.face.melded_with if p.face is not None else None,
            on_adventure=p.face.on_adventure if p.face is not None else False,
            prototyped=bool(p.spec.prototyped), cast_with=self.cast_with(p), kicked=self.kicked(p),
            buyback=self.buyback(p), casualty=self.casualty(p), cast_before=self.cast_before(p),
            sacrificed=self.sacrificed(p),
            monstrous=self.monstrous(p), control_reverts_to=self.control_reverts_to(p), delayed=self.delayed_object(p), it=self.delayed_it(p),
            tapped=s.tapped, sick=s.sick, counters=_counters(s.counters), damage=s.damage,
            attached_to=s.attached_to, token=s.token, conjured=s.conjured,
            chosen=self.chosen(s.chosen, _at(p.path, "chosen")),
            x=s.x, targets=None if s.targets is None else self.targets(s.targets, _at(p.path, "targets")),
            copy=s.copy_, ability=ability,
            last_known=self.last_known(p), order=p.index,
            timestamp=s.timestamp if s.timestamp is not None else position,
            activated_this_turn=self.activated_this_turn(p), entered_this_turn=s.entered_this_turn,
            skip_untap=s.skip_untap, exile_if_dies=self.exile_if_dies(p), attacking=s.attacking, blocking=tuple(sorted(s.blocking or ())),
            blocked=s.blocked, commander=s.commander, refers_to=self.refers_to(p),
            regeneration_shields=self.regeneration_shields(p), exiled_until=self.exiled_until(p), exiled_by=self.exiled_by(p),
            may_play=self.may_play(p),
            event_object=self.event_ref(p, "event_object"), event_player=self.event_ref(p, "event_player"),
            modes=self.modes(p))

    def regeneration_shields(self, p: _Pending) -> int:
        """``regeneration_shields`` (extension): regeneration shields on a permanent, for this turn
        (CR 701.15a) — only on the battlefield."""
        n = p.spec.regeneration_shields or 0
        if n and p.zone != "battlefield":
            self.fail(_at(p.path, "regeneration_shields"), "regeneration shields are on permanents: only on the "
                                                            "battlefield (CR 701.15a)")
        return int(n)

    def exile_if_dies(self, p: _Pending) -> bool:
        """``exile_if_dies`` (extension): "if it would die this turn, exile it instead" on a permanent, for
        this turn (CR 614.1a, 700.4) — only on the battlefield."""
        if p.spec.exile_if_dies and p.zone != "battlefield":
            self.fail(_at(p.path, "exile_if_dies"), "'if it would die this turn, exile it instead' is on "
                                                    "permanents: only on the battlefield (CR 614.1a)")
        return bool(p.spec.exile_if_dies)

    def may_play(self, p: _Pending) -> PlayPermission | None:
        """``may_play`` (extension): a card in exile a player may play for a duration (CR 611.2, 601.2a,
        305.1)."""
        spec = p.spec.may_play
        if spec is None:
            return None
        path = _at(p.path, "may_play")
        if p.zone != "exile" or p.card is None:
            self.fail(path, "'may_play' is for a card in exile (CR 611.2)")
        if spec.player not in self.player_ids:
            self.fail(_at(path, "player"), f"unknown player '{spec.player}'{_suggest_id(spec.player, list(self.player_ids))}")
        return PlayPermission(spec.player, spec.until, bool(spec.spells_only))

    def exiled_until(self, p: _Pending) -> str | None:
        """``exiled_until`` (extension): a card in exile until a permanent on the battlefield leaves it
        (CR 610.3)."""
        ref = p.spec.exiled_until
        if ref is None:
            return None
        path = _at(p.path, "exiled_until")
        if p.zone != "exile":
            self.fail(path, "'exiled_until' is for a card in exile (CR 610.3)")
        self.known(ref, path, players=False, what="object")
        if self.objects[ref].zone != "battlefield":
            self.fail(path, f"'{ref}' is not on the battlefield (exiled_until names the permanent whose leaving "
                            "returns the card, CR 610.3c)")
        return ref

    def exiled_by(self, p: _Pending) -> str | None:
        """``exiled_by`` (extension): a card in exile that a permanent's ability exiled, for that permanent's
        linked "the exiled card" (CR 607.2a) — it names an object of the situation (the permanent, or what it
        became after leaving the battlefield)."""
        ref = p.spec.exiled_by
        if ref is None:
            return None
        path = _at(p.path, "exiled_by")
        if p.zone != "exile":
            self.fail(path, "'exiled_by' is for a card in exile (CR 607.2a)")
        self.known(ref, path, players=False, what="object")
        return ref

    def refers_to(self, p: _Pending) -> str | None:
        """``refers_to`` (extension): an ability on the stack names another spell or ability on the
        stack ("that spell or ability", ward, CR 702.21a)."""
        ref = p.spec.refers_to
        if ref is None:
            return None
        path = _at(p.path, "refers_to")
        if p.spec.ability is None:
            self.fail(path, "'refers_to' is only for abilities on the stack")
        self.known(ref, path, players=False, what="object")
        if ref == p.id:
            self.fail(path, "an ability cannot refer to itself")
        if self.objects[ref].zone != "stack":
            self.fail(path, f"'{ref}' is not on the stack (refers_to names a spell or ability on the stack)")
        return ref

    def event_ref(self, p: _Pending, key: str) -> str | None:
        """``event_object`` / ``event_player`` (extension): a triggered ability on the stack names the
        object or player of its trigger event (CR 603.2, 608.2c) — an object of the situation (not the
        ability itself) / a player."""
        ref = getattr(p.spec, key)
        if ref is None:
            return None
        path = _at(p.path, key)
        if p.spec.ability is None:
            self.fail(path, f"'{key}' is only for abilities on the stack")
        player = key == "event_player"
        self.known(ref, path, players=player, what="player" if player else "object")
        if player and ref not in self.player_ids:
            self.fail(path, f"'{ref}' is not a player (event_player names a player)")
        if not player and ref == p.id:
            self.fail(path, f"'{ref}' is not another object (event_object names an object of the situation)")
        return str(ref)

    def chosen(self, given: dict[str, Any] | None, path: str) -> tuple[tuple[str, Any], ...]:
        """``chosen``: earlier choices; a ``color`` (what "the chosen color" of a
        mana ability means, CR 106.5) must name a color."""
        if given and "color" in given and chosen_color_letter(given["color"]) is None:
            self.fail(_at(path, "color"), f"expected a color (white, blue, black, red, green or W, U, B, R, G), "
                                          f"got {_show(given['color'])}")
        if given and "name" in given and (not isinstance(given["name"], str) or not given["name"].strip()):
            # (extension) the card name chosen as it entered (Pithing Needle, Phyrexian Revoker), CR 201.3
            self.fail(_at(path, "name"), f"expected a card name such as Lion's Eye Diamond, got {_show(given['name'])}")
        if given and "type" in given:
            # (extension) the creature type chosen as it entered (Cavern of Souls), CR 205.3m
            from ..reader.subtypes import SUBTYPES
            t = given["type"]
            if not isinstance(t, str) or t not in SUBTYPES:
                self.fail(_at(path, "type"), f"expected a creature type such as Elf or Goblin, got {_show(t)}")
        return _chosen(given)

    def activated_this_turn(self, p: _Pending) -> tuple[tuple[int, int], ...]:
        """(extension) ``activated_this_turn``: ability index → times, canonical (sorted, zeros dropped)."""
        given = p.spec.activated_this_turn
        if not given:
            return ()
        path = _at(p.path, "activated_this_turn")
        out: dict[int, int] = {}
        for key, n in given.items():
            index = key if isinstance(key, int) and not isinstance(key, bool) else (
                int(key) if isinstance(key, str) and key.isascii() and key.isdigit() else None)
            if index is None or index < 1 or index > MAX_INT:
                self.fail(path, f"keys must be activated-ability indices (1, 2, …), got {_show(key)}")
            if index in out:
                self.fail(path, f"ability {index} is given twice")
            out[index] = n
        return tuple(sorted((k, v) for k, v in out.items() if v))

    # -- the rest of the top level --------------------------------------------
    def mana_pool(self) -> tuple[tuple[str, Mana], ...]:
        given = self.spec.mana_pool or {}
        for key in given:
            self.player(key, _at("mana_pool", key))
        out = []
        for pid in self.player_ids:
            if pid in given:
                try:
                    mana = Mana.parse(given[pid])
                except ManaSyntaxError as e:
                    self.fail(_at("mana_pool", pid), str(e))
                if mana:
                    out.append((pid, mana))
        return tuple(out)

    def restricted_mana_pool(self) -> RestrictedPool:
        """(extension) ``restricted_mana_pool``: mana under a spending restriction (CR 106.6), each
        restriction read back by the reader's grammar for "Spend this mana only to …"."""
        given = self.spec.restricted_mana_pool or {}
        out = []
        for pid, entries in given.items():
            self.player(pid, _at("restricted_mana_pool", pid))
            for i, e in enumerate(entries):
                path = f"restricted_mana_pool.{pid}[{i}]"
                try:
                    mana = Mana.parse(e.mana)
                except ManaSyntaxError as err:
                    self.fail(_at(path, "mana"), str(err))
                restriction = read_spend_restriction(e.restriction)
                if restriction is None:
                    self.fail(_at(path, "restriction"), f"not a spending restriction the reader reads: {e.restriction!r}")
                out.append((pid, mana, restriction))
        return restricted_pool_of(out)

    def effects(self) -> tuple[ContinuousEffectEntry, ...]:
        out = []
        for i, e in enumerate(self.spec.effects or []):
            path = _at("effects", i)
            controller = self.player(e.controller, _at(path, "controller"))
            card = self.card(e.card, _at(path, "card")) if e.card is not None else None
            ability = None
            if e.ability is not None:
                source = self.effect_source(e.ability.source, _at(path, "ability", "source"))
                ability = AbilityRef(source, e.ability.index)
            if e.color is None and _chooses_color(card, ability, self.objects):
                self.fail(_at(path, "color"), "the color chosen as it resolved ('the color of your choice', CR "
                                              "608.2d) is not part of the entry; give it with color: W|U|B|R|G")
            out.append(ContinuousEffectEntry(controller=controller, card=card, ability=ability,
                                             targets=self.targets(e.targets, _at(path, "targets")), order=i,
                                             affected=self.targets(e.affected, _at(path, "affected")),
                                             event_object=None if e.event_object is None else self.known(
                                                 e.event_object, _at(path, "event_object"), players=False,
                                                 what="object"),
                                             modes=None if e.modes is None else tuple(sorted(e.modes)), x=e.x,
                                             color=e.color))
        return tuple(out)

    def effect_source(self, source: str, path: str) -> str:
        """An effect's ability source: an object id, else a card name (stored under its canonical name)."""
        if source in self.objects:
            return source
        try:
            return self.cards.get(source).name
        except UnknownCard as e:
            hint = _did_you_mean(source, self.objects) or (f" (did you mean '{e.suggestion}'?)" if e.suggestion else "")
            self.fail(path, f"unknown object or card '{source}'{hint}")

    def prevention(self) -> tuple[PreventionShield, ...]:
        """``prevention`` (extension): prevention shields in force this turn (CR 615.7) — ``to`` a
        permanent on the battlefield or a player, ``source`` an object, ``amount`` at least 1 (absent:
        all damage; a shield of N has a ``to`` and no ``source``)."""
        out = []
        for i, e in enumerate(self.spec.prevention or []):
            path = _at("prevention", i)
            if e.to is not None:
                self.known(e.to, _at(path, "to"))
                if e.to in self.objects and self.objects[e.to].zone != "battlefield":
                    self.fail(_at(path, "to"), f"'{e.to}' is not on the battlefield (damage is dealt to "
                                               "permanents and players, CR 120.1)")
            if e.source is not None:
                self.known(e.source, _at(path, "source"), players=False, what="object")
            if e.amount is not None and (e.to is None or e.source is not None):
                self.fail(_at(path, "amount"), "a shield of N protects one permanent or player from any source "
                                               "(CR 615.7): give 'to' and no 'source'")
            out.append(PreventionShield(e.to, e.source, e.amount, bool(e.combat_only)))
        return tuple(sorted(out, key=PreventionShield.sort_key))

    def delayed_object(self, p: Any) -> int:
        """Object key ``delayed`` (extension, CR 603.7): an ability on the stack that is a delayed triggered
        ability — which delayed instruction of its ``ability`` (index 0: of its source's spell); an
        ``ability`` index 0 needs it."""
        n = int(p.spec.delayed or 0)
        ab = p.spec.ability
        if n == 0:
            if ab is not None and ab.index == 0:
                self.fail(_at(p.path, "ability", "index"), "ability index 0 is only for a delayed triggered "
                                                           "ability of a spell (object key 'delayed', CR 603.7)")
            return 0
        if p.zone != "stack" or ab is None:
            self.fail(_at(p.path, "delayed"), "'delayed' is for an ability on the stack (CR 603.7)")
        self._delayed_exists(ab.source, ab.index, n, _at(p.path, "delayed"))
        return n

    def delayed_it(self, p: Any) -> str | None:
        """Object key ``it`` (extension): what a delayed triggered ability on the stack names (CR 603.7c)."""
        it = p.spec.it
        if it is None:
            return None
        if not p.spec.delayed:
            self.fail(_at(p.path, "it"), "'it' is for a delayed triggered ability on the stack (CR 603.7c)")
        self.known(it, _at(p.path, "it"))
        return str(it)

    def _delayed_exists(self, source: str, ability: int, index: int, path: str) -> None:
        """A located error unless ``source``'s spell (``ability`` 0) or ``ability``-th ability has an
        ``index``-th delayed instruction (CR 603.7a)."""
        card = self.objects[source].card if source in self.objects else None
        if card is None:
            self.fail(path, f"'{source}' is not a card or permanent of the situation")
        found = delayed_of(card, ability)
        if len(found) < index:
            self.fail(path, f"'{source}' has no delayed instruction #{index} in "
                            + ("its spell" if ability == 0 else f"its ability #{ability}") + " (CR 603.7a)")

    def _delayed_kind(self, source: str, ability: int, index: int, step: str, path: str) -> None:
        """A located error unless the record's ``step`` fits its instruction: ``cast`` / ``next_cast`` for a
        "whenever / when you next cast … this turn" instruction (CR 603.7b-c), a step for the others."""
        card = self.objects[source].card
        d = delayed_of(card, ability)[index - 1]
        want = ("next_cast" if d.once else "cast") if isinstance(d, DelayedCast) else None
        if (want or step) != step or (want is None and step in CAST_DELAYED_STEPS):
            self.fail(path, f"'{step}' does not fit that delayed instruction ({d.describe()}; CR 603.7)")

    def delayed(self) -> tuple[DelayedTrigger, ...]:
        """``delayed`` (extension): delayed triggered abilities in force (CR 603.7) — a player
        ``controller``, a ``source`` object whose spell or ability has that delayed instruction."""
        out = []
        for i, e in enumerate(self.spec.delayed or []):
            path = _at("delayed", i)
            self.player(e.controller, _at(path, "controller"))
            self.known(e.source, _at(path, "source"), players=False, what="object")
            self._delayed_exists(e.source, e.ability, e.index, _at(path, "index"))
            self._delayed_kind(e.source, e.ability, e.index, e.step, _at(path, "step"))
            if e.it is not None:
                self.known(e.it, _at(path, "it"))
            out.append(DelayedTrigger(e.step, e.controller, e.source, e.index, e.ability, e.turn, e.whose, e.it))
        return tuple(sorted(out, key=DelayedTrigger.sort_key))

    def shuffled(self) -> tuple[str, ...]:
        given = self.spec.shuffled or {}
        for key in given:
            self.player(key, _at("shuffled", key))
        return tuple(pid for pid in self.player_ids if given.get(pid))

    def known_top(self, shuffled: tuple[str, ...], pending: list) -> tuple[tuple[str, int], ...]:
        """(extension) ``known_top``: of a library in random order (``shuffled``), how many cards on top
        are known in the order listed (CR 401.4, 701.24a); at least one, and no more than it lists."""
        out = []
        for pid, n in sorted((self.spec.known_top or {}).items()):
            path = _at("known_top", pid)
            self.player(pid, path)
            if pid not in shuffled:
                self.fail(path, f"{pid}'s library is not marked shuffled: every card of it is known in order")
            listed = sum(1 for p in pending if p.zone == "library" and p.owner == pid)
            if not 1 <= n <= listed:
                self.fail(path, f"expected 1 to {listed} (the cards {pid}'s library lists), got {n}")
            out.append((pid, n))
        return tuple(out)

    def build(self) -> GameState:
        players = self.players()
        turn = self.turn()
        pending = self.collect()
        self.assign_ids(pending)
        for p in pending:
            self.control(p)
        for p in pending:
            self.check_attachment(p)
        self.check_cycles(pending)
        for p in pending:
            self.check_combat(p)
        objects = tuple(self.game_object(p, n) for n, p in enumerate(pending, start=1))
        shuffled = self.shuffled()
        return GameState(
            players=players, turn=turn, objects=objects, mana_pool=self.mana_pool(),
            restricted_pool=self.restricted_mana_pool(), effects=self.effects(),
            shuffled=shuffled, known_top=self.known_top(shuffled, pending), name=self.spec.name, description=self.spec.description,
            rules=tuple(self.spec.rules or ()), day_night=self.spec.day_night, prevention=self.prevention(),
            delayed=self.delayed(), card_db=self.cards)


def _prototyped_up(card: Card, face: str | None, zone: str) -> FaceUp:
    """A prototyped spell or permanent (object key ``prototyped``; CR 718.3): the card's prototyped
    characteristics (:func:`solver.rules.faces.prototyped_card`), on the stack or the battlefield only
    (718.4), of a card whose prototype line is read. Raises :class:`FaceError`."""
    if face is not None:
        raise FaceError("prototyped", "'prototyped' is the card itself, cast prototyped: give no 'face' with it")
    if zone not in ("stack", "battlefield"):
        raise FaceError("prototyped", f"'prototyped' is for a spell or permanent (CR 718.4: in the {zone} a "
                                      "prototype card has only its normal characteristics)")
    if prototype_of(card) is None:
        raise FaceError("prototyped", f"{card.name} has no prototype the project reads (CR 702.160a)")
    return FaceUp(prototyped_card(card), front=card)


def _counters(given: dict[str, int] | None) -> tuple[tuple[str, int], ...]:
    """Counters, canonical: sorted by name, zero counts dropped."""
    return tuple(sorted((k, v) for k, v in (given or {}).items() if v))


def _freeze(v: Any) -> Any:
    return tuple(v) if isinstance(v, list) else v


def _chosen(given: dict[str, Any] | None) -> tuple[tuple[str, Any], ...]:
    """Earlier choices, canonical: sorted by key, lists as tuples."""
    return tuple(sorted((k, _freeze(v)) for k, v in (given or {}).items()))


def _queries(raw: dict, source: str) -> tuple[tuple[dict, ...], tuple[dict | None, ...] | None]:
    """Queries as given, and ``expect`` aligned with them (contract §4)."""
    query, expect = raw.get("query"), raw.get("expect")
    queries: tuple[dict, ...] = () if query is None else (query,) if isinstance(query, dict) else tuple(query)
    if expect is None:
        return queries, None
    if query is None:
        raise SituationError(source, "expect", "'expect' needs a 'query' to check")
    if isinstance(query, dict):
        if not isinstance(expect, dict):
            raise SituationError(source, "expect", "expected a mapping, since 'query' is a single query")
        return queries, (expect,)
    if not isinstance(expect, list):
        raise SituationError(source, "expect", f"expected a list of {len(queries)} entries, one per query")
    if len(expect) != len(queries):
        raise SituationError(source, "expect", f"has {len(expect)} entries but 'query' has {len(queries)}")
    return queries, tuple(expect)


def situation_from_dict(d: Any, source: str = "<situation>", *, max_objects: int | None = None,
                        cards: CardDB = SHIPPED) -> Loaded:
    """Validate a parsed situation document (contract §1) and build its :class:`Loaded`.

    ``max_objects`` (default 20,000, or ``$MTGSOLVE_MAX_OBJECTS``) bounds the
    number of objects; card names are read in ``cards`` (the shipped database unless the
    caller passes another), which the state keeps. Raises :class:`SituationError` on any bad input.
    """
    if d is None:
        raise SituationError(source, "", "the document is empty")
    if not isinstance(d, dict):
        raise SituationError(source, "", f"the top level must be a mapping, got {_show(d)}")
    _check_size(d, source)
    if "format" not in d:
        typo = next((k for k in d if isinstance(k, str) and _closest(k, ["format"])), None)
        if typo is not None:
            raise SituationError(source, "", _unknown_key_message(typo, ["format"]))
        raise SituationError(source, "", f"missing key 'format' (expected 'format: {FORMAT}')")
    if d["format"] != FORMAT:
        raise SituationError(source, "format", f"unsupported format {_show(d['format'])} (expected '{FORMAT}')")
    limit = _limit(max_objects, MAX_OBJECTS_ENV, DEFAULT_MAX_OBJECTS)
    n = _count_objects(d)
    if n > limit:
        raise SituationError(source, "", f"too many objects ({n}; the limit is {limit}, "
                                         f"set {MAX_OBJECTS_ENV} to allow more)")
    state = _Builder(_validated_spec(d, source), source, cards).build()
    queries, expect = _queries(d, source)
    return Loaded(state=state, queries=queries, expect=expect, source=source, raw=d)


def load_situation(path: str | Path, *, max_bytes: int | None = None, max_objects: int | None = None,
                   cards: CardDB = SHIPPED) -> Loaded:
    """Load a situation file (``.yaml``/``.yml`` or ``.json``) with the card database ``cards``;
    errors name ``path`` as given."""
    return situation_from_dict(read_document(path, max_bytes=max_bytes), str(path), max_objects=max_objects,
                               cards=cards)

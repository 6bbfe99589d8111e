"""The agents' API: situations, legal actions, masks, and moves, in the shape of python-chess.

>>> from mtgsolve.solver.api import Situation, Action
>>> sit = Situation.from_dict({
...     "format": "mtgsolve/1", "players": ["alice", "bob"],
...     "battlefield": {"alice": ["Mountain"], "bob": ["Grizzly Bears"]},
...     "hand": {"alice": ["Forest"]}})
>>> sorted(str(a) for a in sit.legal_actions)
['pass', 'play forest']
>>> "play forest" in sit.legal_actions
True
>>> after = sit.apply("play forest")
>>> after.state.turn.lands_played, after.state.obj("forest").zone
(1, 'battlefield')
>>> bool(after.is_legal("play mountain"))
False

Pieces
------
* :class:`Situation` — an immutable game state plus whose decision it is.
  ``Situation.load(path)`` / ``Situation.from_dict(d)`` validate through the
  situation loader (contract §1); ``to_dict()`` writes it back.
* ``situation.legal_actions`` — a lazy view (:class:`LegalActions`):
  iterating yields every fully specified legal action (each legal target choice
  times each distinct payment; contract §2.3, §2.4), ``action in view`` is a
  fast :meth:`Situation.is_legal`, ``bool(view)`` says whether the player can do
  anything (they can always pass while they hold priority), ``view.count()`` is
  the number of fully specified actions, ``view.summary()`` the ``actions``
  query's result (contract §2.6).
* :class:`Action` — frozen and hashable, with a canonical string::

      pass
      play forest-2
      cast shock -> coalition-honor-guard paying mountain
      cast arc-trail -> bob; grizzly-bears paying mountain, mountain-2
      cast dauntless-onslaught -> () paying forest
      cast hangarback-walker x=1 paying forest, forest-2
      activate prodigal-pyromancer:1 -> bob paying prodigal-pyromancer
      activate order-of-whiteclay:1 -> grizzly-bears paying plains, plains-2, plains-3 untapping order-of-whiteclay

      suspend rift-bolt paying mountain

  Grammar: ``cast ID [x=N] [-> TARGETS] [paying PAYMENT]`` and likewise
  ``activate ID:N``; TARGETS are the target instances in printed order
  separated by ``;``, each a comma-separated list of ids or ``()`` for none;
  PAYMENT is the tapped permanents (or ``nothing``) followed by optional
  ``untapping IDS``, ``sacrificing IDS``, ``life N``, ``damage N`` and
  ``leaving PLAYER MANA`` (mana left in a pool), and the riders of mana
  abilities: ``skipping-untap IDS``, ``adding ID N KIND``, ``gaining PLAYER N``,
  ``losing PLAYER N``, ``drawing N`` (CR 605.1a). Ids that are not plain
  (letters, digits, ``_ . -``) or that are one of these keywords are written as
  JSON strings. ``Action.parse(str(a)) == a`` and
  ``Action.from_json(a.to_json()) == a`` for every action.

  An action may leave targets, payment or X unspecified (``cast shock``):
  it is legal if some completion is; :meth:`Situation.apply` completes it when
  exactly one completion exists and raises :class:`AmbiguousActionError`
  otherwise.
* :meth:`Situation.is_legal` returns a :class:`Verdict`, true or false, with the
  ``reason`` in rules terms when the action is illegal.
* :meth:`Situation.apply` returns the next :class:`Situation` (the receiver is
  unchanged).
* :meth:`Situation.legal_actions_mask` returns ``(mask, actions)``: a numpy
  ``int8`` array over the situation's candidate actions and the candidates
  themselves (see that method for the index space).

Errors are :class:`ValueError` subclasses: :class:`InvalidActionError` (the
action cannot be read or names nothing that exists), :class:`IllegalActionError`
(well formed but not legal now), :class:`AmbiguousActionError` (legal, but
several completions exist), and :class:`UnsupportedActionError` (legal, but a
consequence of applying it is not modeled).
"""
from __future__ import annotations

import json
import re
from dataclasses import dataclass, replace
from functools import cached_property
from pathlib import Path
from typing import Any, Iterator, Mapping, Sequence, cast

from . import ir
from .actions import (KINDS, NOT_PAYABLE, Candidate, Oracle, Undecided, ability_of, candidates, has_x,
                      legal_action_entries, priority_reason, target_specs)
from .characteristics import View
from .mana import Mana
from .state import AbilityRef, GameObject, GameState, Turn

__all__ = [
    "Action", "ActionError", "AmbiguousActionError", "IllegalActionError", "InvalidActionError", "LegalActions",
    "Payment", "Situation", "UnsupportedActionError", "UnsupportedCaseError", "Verdict",
]


# ---------------------------------------------------------------------------
# Errors
# ---------------------------------------------------------------------------

class ActionError(ValueError):
    """Base of the errors about actions."""


class InvalidActionError(ActionError):
    """The action cannot be read (bad string or JSON, unknown kind) or names nothing that exists."""


class IllegalActionError(ActionError):
    """The action is well formed but not legal now; the message says why."""


class AmbiguousActionError(ActionError):
    """The action leaves a choice open (targets, payment, X, an order) and several ways exist."""


class UnsupportedActionError(ActionError):
    """The action is legal but a consequence of applying it is not modeled (reported, never guessed)."""


class UnsupportedCaseError(UnsupportedActionError):
    """Text the project does not read could change the answer (contract §2.0): the
    question is refused rather than answered wrongly. ``parts`` lists the blocking
    parts as ``{object, text, affects}`` (the ``unsupported`` field of a query result)."""

    def __init__(self, message: str, parts: Sequence[Mapping[str, Any]] = ()):
        super().__init__(message)
        self.parts = [dict(p) for p in parts]


# ---------------------------------------------------------------------------
# Payment and Action
# ---------------------------------------------------------------------------

def _ids(v: Any, what: str) -> tuple[str, ...]:
    if v is None:
        return ()
    if isinstance(v, str) or not isinstance(v, (list, tuple)) or not all(isinstance(i, str) for i in v):
        raise InvalidActionError(f"{what}: expected a list of ids, got {v!r}")
    return tuple(sorted(v))


def _int(v: Any, what: str, *, minimum: int = 0) -> int:
    if isinstance(v, bool) or not isinstance(v, int) or v < minimum:
        raise InvalidActionError(f"{what}: expected an integer ≥ {minimum}, got {v!r}")
    return v


@dataclass(frozen=True)
class Payment:
    """One way to pay a cost (contract §2.3) without its X (kept on the :class:`Action`).

    ``pool_after`` holds only the non-empty pools, sorted by player id; the
    acting player's pool is empty after the payment unless listed.
    ``remove_counters`` (the pay query's extension field) lists the counters
    removed from each permanent, as sorted ``(id, ((counter, n), ...))`` pairs.
    """

    tap: tuple[str, ...] = ()
    untap: tuple[str, ...] = ()
    sacrifice: tuple[str, ...] = ()
    life: int = 0
    damage: int = 0
    pool_after: tuple[tuple[str, str], ...] = ()
    remove_counters: tuple[tuple[str, tuple[tuple[str, int], ...]], ...] = ()
    restricted_pool_after: tuple[tuple[str, str, str], ...] = ()  # (player, mana, restriction), CR 106.6
    skip_untap: tuple[str, ...] = ()          # riders of mana abilities (CR 605.1a), see _RIDER_KEYS
    add_counters: tuple[tuple[str, tuple[tuple[str, int], ...]], ...] = ()
    life_gained: tuple[tuple[str, int], ...] = ()
    life_lost: tuple[tuple[str, int], ...] = ()
    draw: int = 0
    # per-turn-limited mana abilities without {T} used by the payment (CR 602.5b): id → ((index, n), …)
    activated: tuple[tuple[str, tuple[tuple[int, int], ...]], ...] = ()
    # casting costs (solver/casting_options.py; pay keys exile, discard, return): cards exiled, cards
    # discarded, permanents returned to their owner's hand
    exile: tuple[str, ...] = ()
    discard: tuple[str, ...] = ()
    returned: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        for name in ("tap", "untap", "sacrifice", "exile", "discard", "returned"):
            v = getattr(self, name)
            if isinstance(v, str):
                raise InvalidActionError(f"payment.{name}: expected a list of ids, got {v!r}")
            object.__setattr__(self, name, _ids(list(v), f"payment.{name}"))
            if len(set(v)) != len(v):
                raise InvalidActionError(f"payment.{name}: an object is listed twice")
        _int(self.life, "payment.life")
        _int(self.damage, "payment.damage")
        pools = []
        for pid, text in dict(self.pool_after).items():
            if not isinstance(pid, str) or not isinstance(text, str):
                raise InvalidActionError(f"payment.pool_after: expected player → mana string, got {pid!r}: {text!r}")
            try:
                mana = Mana.parse(text)
            except ValueError as e:
                raise InvalidActionError(f"payment.pool_after.{pid}: {e}") from None
            if mana:
                pools.append((pid, mana.text))
        object.__setattr__(self, "pool_after", tuple(sorted(pools)))
        removed: dict[str, dict[str, int]] = {}
        for oid, counters in (self.remove_counters.items() if isinstance(self.remove_counters, Mapping)
                              else self.remove_counters):
            items = counters.items() if isinstance(counters, Mapping) else counters
            for kind, n in items:
                if not isinstance(oid, str) or not isinstance(kind, str):
                    raise InvalidActionError(f"payment.remove_counters: expected id → counter → number")
                if _int(n, f"payment.remove_counters.{oid}.{kind}"):
                    removed.setdefault(oid, {})[kind] = removed.get(oid, {}).get(kind, 0) + n
        object.__setattr__(self, "remove_counters",
                           tuple(sorted((o, tuple(sorted(c.items()))) for o, c in removed.items())))
        restricted = []
        for entry in self.restricted_pool_after:
            if len(entry) != 3 or not all(isinstance(v, str) for v in entry):
                raise InvalidActionError(f"payment.restricted_pool_after: expected player → "
                                         f"[{{mana, restriction}}], got {entry!r}")
            pid, text, why = entry
            try:
                mana = Mana.parse(text)
            except ValueError as e:
                raise InvalidActionError(f"payment.restricted_pool_after.{pid}: {e}") from None
            if mana:
                restricted.append((pid, mana.text, why))
        object.__setattr__(self, "restricted_pool_after", tuple(sorted(restricted)))
        self._riders_post_init()

    def _riders_post_init(self) -> None:
        """Validate and canonicalise the riders' fields (``skip_untap``, ``add_counters``,
        ``life_gained``, ``life_lost``, ``draw``)."""
        v = self.skip_untap
        if isinstance(v, str):
            raise InvalidActionError(f"payment.skip_untap: expected a list of ids, got {v!r}")
        object.__setattr__(self, "skip_untap", tuple(sorted(set(_ids(list(v), "payment.skip_untap")))))
        added: dict[str, dict[str, int]] = {}
        for oid, counters in (self.add_counters.items() if isinstance(self.add_counters, Mapping)
                              else self.add_counters):
            items = counters.items() if isinstance(counters, Mapping) else counters
            for kind, n in items:
                if not isinstance(oid, str) or not isinstance(kind, str):
                    raise InvalidActionError("payment.add_counters: expected id → counter → number")
                if _int(n, f"payment.add_counters.{oid}.{kind}"):
                    added.setdefault(oid, {})[kind] = added.get(oid, {}).get(kind, 0) + n
        object.__setattr__(self, "add_counters",
                           tuple(sorted((o, tuple(sorted(c.items()))) for o, c in added.items())))
        for name in ("life_gained", "life_lost"):
            v = getattr(self, name)
            merged: dict[str, int] = {}
            for pid, n in (v.items() if isinstance(v, Mapping) else v):
                if not isinstance(pid, str):
                    raise InvalidActionError(f"payment.{name}: expected player → number")
                if _int(n, f"payment.{name}.{pid}"):
                    merged[pid] = merged.get(pid, 0) + n
            object.__setattr__(self, name, tuple(sorted(merged.items())))
        _int(self.draw, "payment.draw")
        used: dict[str, dict[int, int]] = {}
        for oid, uses in (self.activated.items() if isinstance(self.activated, Mapping) else self.activated):
            items = uses.items() if isinstance(uses, Mapping) else uses
            if not isinstance(oid, str):
                raise InvalidActionError("payment.activated: expected id → ability index → times")
            for index, n in items:
                i = int(index) if isinstance(index, str) and index.isascii() and index.isdigit() else index
                _int(i, f"payment.activated.{oid} (ability index)", minimum=1)
                if _int(n, f"payment.activated.{oid}.{index}"):
                    used.setdefault(oid, {})[i] = used.get(oid, {}).get(i, 0) + n
        object.__setattr__(self, "activated", tuple(sorted((o, tuple(sorted(u.items()))) for o, u in used.items())))

    @classmethod
    def from_json(cls, d: Mapping[str, Any]) -> "Payment":
        """From a contract §2.3 payment (its ``x`` is ignored here; see :meth:`Action.from_json`)."""
        if not isinstance(d, Mapping):
            raise InvalidActionError(f"payment: expected a mapping, got {d!r}")
        known = {"tap", "untap", "sacrifice", "life", "damage", "x", "pool_after", "remove_counters",
                 "restricted_pool_after", "exile", "discard", "return"} | set(_RIDER_KEYS)
        extra = set(d) - known
        if extra:
            raise InvalidActionError(f"payment: unknown key(s) {sorted(extra)}")
        pool = d.get("pool_after") or {}
        if not isinstance(pool, Mapping):
            raise InvalidActionError(f"payment.pool_after: expected a mapping, got {pool!r}")
        removed = d.get("remove_counters") or {}
        if not isinstance(removed, Mapping) or not all(isinstance(v, Mapping) for v in removed.values()):
            raise InvalidActionError(f"payment.remove_counters: expected id → {{counter: number}}, got {removed!r}")
        restricted = d.get("restricted_pool_after") or {}
        if not isinstance(restricted, Mapping) or not all(
                isinstance(v, list) and all(isinstance(e, Mapping) for e in v) for v in restricted.values()):
            raise InvalidActionError(f"payment.restricted_pool_after: expected player → [{{mana, restriction}}], "
                                     f"got {restricted!r}")
        entries = tuple((pid, e.get("mana"), e.get("restriction")) for pid, v in restricted.items() for e in v)
        for name in ("add_counters", "life_gained", "life_lost", "activated"):
            if not isinstance(d.get(name) or {}, Mapping):
                raise InvalidActionError(f"payment.{name}: expected a mapping, got {d.get(name)!r}")
        added = d.get("add_counters") or {}
        if not all(isinstance(v, Mapping) for v in added.values()):
            raise InvalidActionError(f"payment.add_counters: expected id → {{counter: number}}, got {added!r}")
        return cls(_ids(d.get("tap"), "payment.tap"), _ids(d.get("untap"), "payment.untap"),
                   _ids(d.get("sacrifice"), "payment.sacrifice"), d.get("life", 0), d.get("damage", 0),
                   tuple(pool.items()), tuple(removed.items()), entries,
                   _ids(d.get("skip_untap"), "payment.skip_untap"), tuple(added.items()),
                   tuple((d.get("life_gained") or {}).items()), tuple((d.get("life_lost") or {}).items()),
                   d.get("draw", 0), tuple((d.get("activated") or {}).items()),
                   _ids(d.get("exile"), "payment.exile"), _ids(d.get("discard"), "payment.discard"),
                   _ids(d.get("return"), "payment.return"))

    def to_json(self, x: int = 0) -> dict:
        d = {"tap": list(self.tap), "untap": list(self.untap), "sacrifice": list(self.sacrifice),
             "life": self.life, "damage": self.damage, "x": x, "pool_after": dict(self.pool_after)}
        if self.remove_counters:
            d["remove_counters"] = {o: dict(c) for o, c in self.remove_counters}
        if self.restricted_pool_after:
            out: dict[str, list] = {}
            for pid, mana, why in self.restricted_pool_after:
                out.setdefault(pid, []).append({"mana": mana, "restriction": why})
            d["restricted_pool_after"] = out
        if self.skip_untap:
            d["skip_untap"] = list(self.skip_untap)
        if self.add_counters:
            d["add_counters"] = {o: dict(c) for o, c in self.add_counters}
        if self.life_gained:
            d["life_gained"] = dict(self.life_gained)
        if self.life_lost:
            d["life_lost"] = dict(self.life_lost)
        if self.draw:
            d["draw"] = self.draw
        if self.activated:
            d["activated"] = {o: {str(i): n for i, n in u} for o, u in self.activated}
        for key, ids in (("exile", self.exile), ("discard", self.discard), ("return", self.returned)):
            if ids:
                d[key] = list(ids)
        return d

    @property
    def is_empty(self) -> bool:
        return not (self.tap or self.untap or self.sacrifice or self.life or self.damage or self.pool_after
                    or self.remove_counters or self.restricted_pool_after or self.skip_untap
                    or self.add_counters or self.life_gained or self.life_lost or self.draw or self.activated
                    or self.exile or self.discard or self.returned)


def _targets(v: Any) -> tuple[tuple[str, ...], ...] | None:
    if v is None:
        return None
    if isinstance(v, str) or not isinstance(v, (list, tuple)):
        raise InvalidActionError(f"targets: expected one list of ids per target instance, got {v!r}")
    out = []
    for i, slot in enumerate(v):
        ids = _ids(slot, f"targets[{i}]")
        if len(set(ids)) != len(ids):
            raise InvalidActionError(f"targets[{i}]: the same object is chosen twice for one instance of 'target' (CR 115.3)")
        out.append(ids)
    return tuple(out)


@dataclass(frozen=True)
class Action:
    """A move: ``kind`` (``pass``, ``play_land``, ``cast``, ``activate``, ``suspend``), the
    ``object`` it acts on, the activated ability's 1-based ``index``, and —
    for casting and activating — optionally the chosen ``targets`` (one sorted
    tuple of ids per instance of "target"), the ``payment`` and ``x``.

    ``None`` means "not specified". When a payment is given, ``x`` defaults
    to 0 (the payment fixes X, contract §2.3).
    """

    kind: str
    object: str | None = None
    index: int | None = None
    targets: tuple[tuple[str, ...], ...] | None = None
    payment: Payment | None = None
    x: int | None = None
    # the casting mode (actions-query extension keys; solver/casting_options.py): the alternative
    # cost or permission used, and whether the kicker is paid (CR 601.2b, 118.9, 702.33a)
    alternative: str | None = None
    kicked: bool | None = None

    def __post_init__(self) -> None:
        if (self.alternative is not None or self.kicked is not None) and self.kind != "cast":
            raise InvalidActionError("'alternative' and 'kicked' apply only to 'cast'")
        if self.alternative is not None and (not isinstance(self.alternative, str) or not self.alternative):
            raise InvalidActionError(f"alternative: expected a name, got {self.alternative!r}")
        if self.kicked is not None and not isinstance(self.kicked, bool):
            raise InvalidActionError(f"kicked: expected true or false, got {self.kicked!r}")
        if self.kind not in KINDS:
            raise InvalidActionError(f"unknown action kind {self.kind!r} (one of: {', '.join(KINDS)})")
        if self.kind == "pass":
            if self.object is not None or self.index is not None or self.targets is not None \
                    or self.payment is not None or self.x is not None:
                raise InvalidActionError("'pass' takes no object, targets or payment")
            return
        if not isinstance(self.object, str) or not self.object:
            raise InvalidActionError(f"'{self.kind}' needs the id of an object")
        if self.kind == "activate":
            _int(self.index, "index", minimum=1)
        elif self.index is not None:
            raise InvalidActionError(f"'{self.kind}' takes no ability index")
        if self.kind == "play_land":
            if self.targets is not None or self.payment is not None or self.x is not None:
                raise InvalidActionError("playing a land takes no targets, payment or X")
            return
        if self.kind == "suspend":   # a special action (CR 116.2f, 702.62a): a payment, nothing else
            if self.targets or self.x:
                raise InvalidActionError("suspending a card takes no targets or X, only a payment (CR 702.62a)")
            object.__setattr__(self, "targets", None)
            if self.payment is not None and not isinstance(self.payment, Payment):
                object.__setattr__(self, "payment", Payment.from_json(self.payment))
            object.__setattr__(self, "x", 0 if self.payment is not None else None)
            return
        targets = _targets(self.targets)
        object.__setattr__(self, "targets", targets or None)  # no instances of "target": same as unspecified
        if self.payment is not None and not isinstance(self.payment, Payment):
            object.__setattr__(self, "payment", Payment.from_json(self.payment))
        if self.x is not None:
            _int(self.x, "x")
        elif self.payment is not None:
            object.__setattr__(self, "x", 0)

    # -- views -------------------------------------------------------------
    @property
    def head(self) -> Candidate:
        """The action without targets, payment and X (a candidate of :func:`solver.actions.candidates`)."""
        return Candidate.make(self.kind, self.object or "", self.index or 0, self.alternative or "",
                              1 if self.kicked else 0)

    def with_(self, **kw: Any) -> "Action":
        return replace(self, **kw)

    # -- JSON --------------------------------------------------------------
    def to_json(self) -> dict:
        d: dict[str, Any] = {"kind": self.kind}
        if self.object is not None:
            d["object"] = self.object
        if self.index is not None:
            d["index"] = self.index
        if self.alternative is not None:
            d["alternative"] = self.alternative
        if self.kicked:
            d["kicked"] = True
        if self.x is not None and (self.payment is None or self.x):
            d["x"] = self.x
        if self.targets is not None:
            d["targets"] = [list(t) for t in self.targets]
        if self.payment is not None:
            d["payment"] = self.payment.to_json(self.x or 0)
        return d

    @classmethod
    def from_json(cls, d: Mapping[str, Any]) -> "Action":
        """From :meth:`to_json`, or from an entry of the ``actions`` query (whose
        ``targets``/``payments`` counts are ignored: the action is then unspecified)."""
        if not isinstance(d, Mapping):
            raise InvalidActionError(f"expected a mapping, got {d!r}")
        extra = set(d) - {"kind", "object", "index", "targets", "payment", "payments", "x", "unsupported", "unread",
                          "alternative", "kicked"}
        if extra:
            raise InvalidActionError(f"unknown key(s) {sorted(extra)}")
        targets: Any = d.get("targets")   # checked by __post_init__, like every field
        if isinstance(targets, int) and not isinstance(targets, bool):
            targets = None  # a count from the actions query
        payment = d.get("payment")
        x = d.get("x")
        kind: Any = d.get("kind")
        if payment is not None:
            payment_obj = Payment.from_json(payment)
            px = payment.get("x")
            if px is not None:
                if x is not None and x != px:
                    raise InvalidActionError(f"x is {x} but the payment's x is {px}")
                x = px
            payment = payment_obj
        return cls(kind, d.get("object"), d.get("index"), targets, payment, x, d.get("alternative"),
                   d.get("kicked"))

    # -- strings -----------------------------------------------------------
    def __str__(self) -> str:
        if self.kind == "pass":
            return "pass"
        if self.kind == "play_land":
            return f"play {_q(self.object)}"
        parts = [self.kind, _q(self.object) + (f":{self.index}" if self.kind == "activate" else "")]
        if self.x is not None and (self.payment is None or self.x):
            parts.append(f"x={self.x}")
        if self.targets:
            parts.append("->")
            parts.append("; ".join(", ".join(_q(i) for i in slot) if slot else "()" for slot in self.targets))
        if self.payment is not None:
            p = self.payment
            parts.append("paying")
            if p.is_empty:
                parts.append("nothing")
            if p.tap:
                parts.append(", ".join(_q(i) for i in p.tap))
            if p.untap:
                parts += ["untapping", ", ".join(_q(i) for i in p.untap)]
            if p.sacrifice:
                parts += ["sacrificing", ", ".join(_q(i) for i in p.sacrifice)]
            if p.life:
                parts += ["life", str(p.life)]
            if p.damage:
                parts += ["damage", str(p.damage)]
            for oid, counters in p.remove_counters:
                for kind, n in counters:
                    parts += ["removing", _q(oid), str(n), _q(kind)]
            for pid, mana in p.pool_after:
                parts += ["leaving", _q(pid), mana]
            for pid, mana, why in p.restricted_pool_after:
                parts += ["leaving", _q(pid), mana, "restricted", json.dumps(why, ensure_ascii=False)]
            if p.skip_untap:
                parts += ["skipping-untap", ", ".join(_q(i) for i in p.skip_untap)]
            for oid, counters in p.add_counters:
                for kind, n in counters:
                    parts += ["adding", _q(oid), str(n), _q(kind)]
            for pid, n in p.life_gained:
                parts += ["gaining", _q(pid), str(n)]
            for pid, n in p.life_lost:
                parts += ["losing", _q(pid), str(n)]
            if p.draw:
                parts += ["drawing", str(p.draw)]
            for oid, uses in p.activated:
                for index, n in uses:
                    parts += ["activating", _q(oid), str(index), str(n)]
        return " ".join(s for s in parts if s != "")

    def __repr__(self) -> str:
        return f"Action.parse({str(self)!r})"

    @classmethod
    def parse(cls, text: str) -> "Action":
        """Read an action from its canonical string (see the module docstring)."""
        if isinstance(text, Action):
            return text
        if not isinstance(text, str):
            raise InvalidActionError(f"expected an action string, got {text!r}")
        return _Parser(text).action()


# -- the string grammar -------------------------------------------------------

KEYWORDS = frozenset({"paying", "nothing", "untapping", "sacrificing", "life", "damage", "removing", "leaving",
                      "skipping-untap", "adding", "gaining", "losing", "drawing", "activating"})
_RIDER_KEYS = ("skip_untap", "add_counters", "life_gained", "life_lost", "draw", "activated")
"""Payment keys for the riders of mana abilities (README, "Contract extensions")."""
"""Words that end an id list; ids spelled like them are quoted."""
_PLAIN = re.compile(r"[A-Za-z0-9_][A-Za-z0-9_.\-]*\Z")
_TOKEN = re.compile(r'\s*(?:(?P<str>"(?:[^"\\]|\\.)*")|(?P<arrow>->)|(?P<punct>[,;:=()])|'
                    r'(?P<mana>(?:\{[^{}\s]*\})+)|(?P<word>[A-Za-z0-9_.\-]+))')


def _q(ident: str | None) -> str:
    """An id as written in an action string: plain, or a JSON string."""
    s = ident or ""
    if _PLAIN.match(s) and s not in KEYWORDS and not s.startswith("-"):
        return s
    return json.dumps(s, ensure_ascii=False)


class _Parser:
    def __init__(self, text: str):
        self.text = text
        self.toks: list[tuple[str, str, bool]] = []  # (kind, value, quoted)
        pos = 0
        stripped = text.rstrip()
        while pos < len(stripped):
            m = _TOKEN.match(stripped, pos)
            if not m or m.end() == pos:
                raise InvalidActionError(f"cannot read action {text!r} at character {pos + 1}")
            kind = m.lastgroup
            assert kind is not None   # every alternative of _TOKEN is a named group
            val = m.group(kind)
            if kind == "str":
                try:
                    val = json.loads(val)
                except json.JSONDecodeError:
                    raise InvalidActionError(f"bad quoted id {val} in {text!r}") from None
                self.toks.append(("id", val, True))
            elif kind == "word":
                self.toks.append(("word", val, False))
            else:
                self.toks.append((kind, val, False))
            pos = m.end()
        self.i = 0

    def fail(self, what: str) -> InvalidActionError:
        got = self.toks[self.i][1] if self.i < len(self.toks) else "the end"
        return InvalidActionError(f"cannot read action {self.text!r}: expected {what}, got {got!r}")

    def peek(self) -> tuple[str, str, bool] | None:
        return self.toks[self.i] if self.i < len(self.toks) else None

    def at_word(self, *words: str) -> bool:
        t = self.peek()
        return t is not None and t[0] == "word" and t[1] in words

    def at(self, kind: str, value: str | None = None) -> bool:
        t = self.peek()
        return t is not None and t[0] == kind and (value is None or t[1] == value)

    def take(self) -> tuple[str, str, bool]:
        t = self.peek()
        if t is None:
            raise self.fail("more")
        self.i += 1
        return t

    def ident(self) -> str:
        t = self.peek()
        if t is None or not (t[0] == "id" or (t[0] == "word" and t[1] not in KEYWORDS)):
            raise self.fail("an id")
        self.i += 1
        return t[1]

    def number(self) -> int:
        t = self.peek()
        if t is None or t[0] != "word" or not t[1].isdigit():
            raise self.fail("a number")
        self.i += 1
        return int(t[1])

    def id_list(self) -> list[str]:
        out = [self.ident()]
        while self.at("punct", ","):
            self.i += 1
            out.append(self.ident())
        return out

    def action(self) -> Action:
        t = self.take()
        if t[0] != "word":
            raise InvalidActionError(f"cannot read action {self.text!r}: it must start with pass, play, cast, activate "
                                     "or suspend")
        verb = t[1]
        if verb == "pass":
            act = Action("pass")
        elif verb in ("play", "play_land"):
            act = Action("play_land", self.ident())
        elif verb == "suspend":   # suspend ID [paying PAYMENT] (CR 116.2f, 702.62a)
            obj = self.ident()
            payment = None
            if self.at_word("paying"):
                self.i += 1
                payment = self.payment()
            act = Action("suspend", obj, None, None, payment)
        elif verb in ("cast", "activate"):
            obj = self.ident()
            index = None
            if verb == "activate":
                if not self.at("punct", ":"):
                    raise self.fail("':' and the ability's index (activate ID:N)")
                self.i += 1
                index = self.number()
            x = None
            if self.at_word("x") and self.i + 1 < len(self.toks) and self.toks[self.i + 1][1] == "=":
                self.i += 1
                if not self.at("punct", "="):
                    raise self.fail("'=' after x")
                self.i += 1
                x = self.number()
            targets = None
            if self.at("arrow"):
                self.i += 1
                targets = [self.slot()]
                while self.at("punct", ";"):
                    self.i += 1
                    targets.append(self.slot())
            payment = None
            if self.at_word("paying"):
                self.i += 1
                payment = self.payment()
            act = Action(verb, obj, index, None if targets is None else tuple(tuple(t) for t in targets), payment, x)
        else:
            raise InvalidActionError(f"cannot read action {self.text!r}: unknown verb {verb!r} "
                                     "(pass, play, cast, activate, suspend)")
        if self.peek() is not None:
            raise self.fail("the end of the action")
        return act

    def slot(self) -> list[str]:
        if self.at("punct", "("):
            self.i += 1
            if not self.at("punct", ")"):
                raise self.fail("')'")
            self.i += 1
            return []
        return self.id_list()

    def payment(self) -> Payment:
        tap: list[str] = []
        untap: list[str] = []
        sac: list[str] = []
        life = damage = 0
        pools: list[tuple[str, str]] = []
        restricted: list[tuple[str, str, str]] = []
        removed: list[tuple[str, tuple[tuple[str, int], ...]]] = []
        skip: list[str] = []
        added: list[tuple[str, tuple[tuple[str, int], ...]]] = []
        gained: list[tuple[str, int]] = []
        lost: list[tuple[str, int]] = []
        draw = 0
        activated: dict[str, dict[int, int]] = {}
        if self.at_word("nothing"):
            self.i += 1
        elif not self.at_word(*(KEYWORDS - {"paying", "nothing"})):
            tap = self.id_list()
        while self.peek() is not None:
            if self.at_word("skipping-untap"):
                self.i += 1
                skip = self.id_list()
                continue
            if self.at_word("adding"):
                self.i += 1
                oid = self.ident()
                n = self.number()
                added.append((oid, ((self.ident(), n),)))
                continue
            if self.at_word("gaining", "losing"):
                which = gained if self.take()[1] == "gaining" else lost
                pid = self.ident()
                which.append((pid, self.number()))
                continue
            if self.at_word("drawing"):
                self.i += 1
                draw = self.number()
                continue
            if self.at_word("activating"):
                self.i += 1
                oid = self.ident()
                index = self.number()
                activated.setdefault(oid, {})[index] = activated.get(oid, {}).get(index, 0) + self.number()
                continue
            if self.at_word("untapping"):
                self.i += 1
                untap = self.id_list()
            elif self.at_word("sacrificing"):
                self.i += 1
                sac = self.id_list()
            elif self.at_word("life"):
                self.i += 1
                life = self.number()
            elif self.at_word("damage"):
                self.i += 1
                damage = self.number()
            elif self.at_word("removing"):
                self.i += 1
                oid = self.ident()
                n = self.number()
                removed.append((oid, ((self.ident(), n),)))
            elif self.at_word("leaving"):
                self.i += 1
                pid = self.ident()
                if not self.at("mana"):
                    raise self.fail("a mana string such as {R}")
                mana = self.take()[1]
                if self.at_word("restricted"):
                    self.i += 1
                    t = self.peek()
                    if t is None or not t[2]:
                        raise self.fail("the restriction as a quoted string")
                    restricted.append((pid, mana, self.take()[1]))
                else:
                    pools.append((pid, mana))
            else:
                raise self.fail("untapping, sacrificing, life, damage, removing, leaving or the end")
        merged: dict[str, dict[str, int]] = {}
        for oid, ((kind, n),) in removed:
            merged.setdefault(oid, {})[kind] = merged.get(oid, {}).get(kind, 0) + n
        more: dict[str, dict[str, int]] = {}
        for oid, ((kind, n),) in added:
            more.setdefault(oid, {})[kind] = more.get(oid, {}).get(kind, 0) + n
        return Payment(tuple(tap), tuple(untap), tuple(sac), life, damage, tuple(pools),
                       tuple((o, tuple(c.items())) for o, c in merged.items()), tuple(restricted),
                       tuple(skip), tuple((o, tuple(c.items())) for o, c in more.items()), tuple(gained),
                       tuple(lost), draw, tuple((o, tuple(u.items())) for o, u in activated.items()))


def to_action(a: "Action | str | Mapping[str, Any]") -> Action:
    """Coerce an :class:`Action`, its string, or its JSON into an :class:`Action`."""
    if isinstance(a, Action):
        return a
    if isinstance(a, str):
        return Action.parse(a)
    if isinstance(a, Mapping):
        return Action.from_json(a)
    raise InvalidActionError(f"expected an Action, an action string or a mapping, got {type(a).__name__}")


# ---------------------------------------------------------------------------
# Verdicts
# ---------------------------------------------------------------------------

@dataclass(frozen=True)
class Verdict:
    """The answer of :meth:`Situation.is_legal`: true when legal; ``reason`` says why not."""

    legal: bool
    action: Action
    reason: str | None = None

    def __bool__(self) -> bool:
        return self.legal

    def __str__(self) -> str:
        return f"{self.action}: legal" if self.legal else f"{self.action}: illegal: {self.reason}"


# ---------------------------------------------------------------------------
# Interchangeable objects (contract §2.3) for comparing payments
# ---------------------------------------------------------------------------

def _class_key(state: GameState, oid: str, attached: frozenset[str]) -> tuple:
    """Objects with the same key are interchangeable in a payment: same card,
    controller, owner, status, counters, damage, attachments, and nothing
    attached to them (an object with something attached is its own class)."""
    o = state.find(oid)
    if o is None:
        return ("missing", oid)
    if oid in attached:
        return ("self", oid)
    return (o.zone, o.card, o.controller, o.owner, o.tapped, o.sick, o.counters, o.damage, o.attached_to,
            o.token, o.conjured, o.chosen, o.activated_this_turn, o.entered_this_turn, o.skip_untap)


def payment_key(state: GameState, payment: Payment, x: int, player: str) -> tuple:
    """A canonical key: two payments with the same key leave the same situation behind."""
    attached = frozenset(o.attached_to for o in state.objects if o.attached_to)
    roles: dict[str, list[int]] = {}
    for r, ids in enumerate((payment.tap, payment.untap, payment.sacrifice)):
        for i in ids:
            roles.setdefault(i, [0, 0, 0])[r] = 1
    removed = dict(payment.remove_counters)
    added = dict(payment.add_counters)
    skip = set(payment.skip_untap)
    for i in list(removed) + list(added) + list(skip):
        roles.setdefault(i, [0, 0, 0])
    objs = sorted((repr(_class_key(state, i, attached)), tuple(rs), removed.get(i, ()), added.get(i, ()), i in skip)
                  for i, rs in roles.items())
    pools = dict(payment.pool_after)
    pools.setdefault(player, "")
    return (tuple(objs), payment.life, payment.damage, x, tuple(sorted((p, m) for p, m in pools.items() if m)),
            payment.restricted_pool_after, payment.life_gained, payment.life_lost, payment.draw,
            tuple(sorted((repr(_class_key(state, i, attached)), u) for i, u in payment.activated)))


# ---------------------------------------------------------------------------
# Situations
# ---------------------------------------------------------------------------

class Situation:
    """An immutable game situation and the decisions of the player with priority."""

    def __init__(self, state: GameState, *, source: str = "<situation>", queries: tuple = (), expect: Any = None):
        self.state = state
        self.source = source
        self.queries = queries
        self.expect = expect
        self._oracles: dict[str, Oracle] = {}
        self.decision: Any = None  # a pending choice of the game (solver.play; solver.turns.NeedDecision)

    # -- construction ------------------------------------------------------
    @classmethod
    def load(cls, path: str | Path) -> "Situation":
        """Load a situation file (YAML or JSON); bad input raises a located
        :class:`~solver.errors.SituationError` (a ``ValueError``)."""
        from .situation import load_situation

        loaded = load_situation(path)
        return cls(loaded.state, source=loaded.source, queries=loaded.queries, expect=loaded.expect)

    @classmethod
    def from_dict(cls, d: Mapping[str, Any], source: str = "<situation>") -> "Situation":
        """Validate a situation mapping (contract §1)."""
        from .situation import situation_from_dict

        loaded = situation_from_dict(d, source)
        return cls(loaded.state, source=loaded.source, queries=loaded.queries, expect=loaded.expect)

    def to_dict(self) -> dict:
        """The situation as a contract §1 mapping (every object with its id)."""
        from .situation import dump_state

        return dump_state(self.state)

    # -- basics ------------------------------------------------------------
    @property
    def player(self) -> str:
        """The player whose decision it is: the player with priority (or the
        player making the pending :attr:`decision`)."""
        if self.decision is not None:
            return self.decision.player
        return self.state.priority

    @property
    def turn(self) -> Turn:
        return self.state.turn

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Situation) and other.state == self.state

    def __hash__(self) -> int:
        return hash(self.state)

    def __repr__(self) -> str:
        t = self.state.turn
        return f"<Situation turn {t.number} {t.step} active={t.active} priority={self.player}>"

    @cached_property
    def view(self) -> View:
        return View(self.state)

    def oracle(self, player: str | None = None) -> Oracle:
        """The (cached) decider of ``player``'s candidate actions."""
        p = player or self.player
        if p not in self._oracles:
            self._oracles[p] = Oracle(self.state, p, view=self.view)
        return self._oracles[p]

    # -- soundness (contract §2.0) -------------------------------------------
    @property
    def unsupported(self) -> list[dict]:
        """Every part of this situation the project does not read, with what it could
        change: ``{object, text, affects, zone}`` (:mod:`solver.soundness`)."""
        from .soundness import unread_parts

        return [p.to_json() | {"zone": p.zone} for p in unread_parts(self.state, self.view)]

    def blocking(self, kind: str = "actions", **query: Any) -> list[dict]:
        """The unread parts that could change the answer to a question of ``kind``
        (``actions``, ``pay``, ``targets``, ``resolve``, …) asked with ``query``'s
        arguments (``cast=``, ``player=`` …); empty when the answer is sound."""
        from .soundness import blocking, scope_of

        scope = scope_of(self.state, {"kind": kind, "player": self.player} | query)
        return [p.to_json() for p in blocking(self.state, scope, self.view)]

    def _check_sound(self, kind: str = "actions", **query: Any) -> None:
        parts = self.blocking(kind, **query)
        if parts:
            what = "; ".join(f"{p['object']}: {p['text']} ({', '.join(p['affects'])})" for p in parts[:3])
            more = f" and {len(parts) - 3} more" if len(parts) > 3 else ""
            raise UnsupportedCaseError(f"{kind}: unread text could change the answer: {what}{more}", parts)
        if kind in ("actions", "action", "apply"):
            from .casting_options import api_refusal  # casting modes: listed by the actions query only

            why = api_refusal(self.state, self.player, query.get("subject") if kind != "actions" else None)
            if why:
                raise UnsupportedCaseError(f"{kind}: {why}", [])
            from .hand_abilities import api_refusal as return_cost_refusal  # "Return an Elf you control …"

            why = return_cost_refusal(self.view, self.player, query.get("subject") if kind != "actions" else None)
            if why:
                raise UnsupportedCaseError(f"{kind}: {why}", [])

    # -- queries -----------------------------------------------------------
    def query(self, query: Mapping[str, Any], *, max_results: int = 10_000, timeout: float | None = None) -> dict:
        """Answer any contract §2 query on this situation."""
        from .queries import Options, answer

        return answer(self.state, dict(query), Options(max_results=max_results, timeout=timeout))

    def resolve(self) -> list[tuple[dict, "Situation"]]:
        """Resolve the top of the stack (the ``resolve`` query, contract §2.7): each
        outcome's choices and the resulting situation."""
        from .errors import QueryError, UnsupportedCase
        from .resolution import CannotResolve, NothingToResolve, ResolutionUnsupported, resolve_top
        from .soundness import blocking, scope_of, unsupported_result

        scope = scope_of(self.state, {"kind": "resolve"})   # the resolve question's soundness (contract §2.0)
        if scope.player is None or self.state.is_player(scope.player):
            parts = blocking(self.state, scope, self.view)
            if parts:
                refusal = unsupported_result("resolve", parts)
                raise UnsupportedCaseError(f"resolve: {refusal['reason']}", refusal["unsupported"])
        try:
            res = resolve_top(self.state)
        except NothingToResolve:
            raise QueryError("", "query", "nothing to resolve: the stack is empty") from None
        except (ResolutionUnsupported, UnsupportedCase) as e:   # behaviour not modeled: never a guess
            raise UnsupportedCaseError(f"resolve: {e or 'unread text could change the outcome'}", ()) from None
        except CannotResolve as e:
            raise UnsupportedActionError(f"resolve: error: {e or None}") from None
        # each outcome's state is canonical (it loads again from its situation JSON unchanged)
        return [(o.choices, Situation(o.state)) for o in res.outcomes]

    # -- legal actions -----------------------------------------------------
    @cached_property
    def legal_actions(self) -> "LegalActions":
        from .play import DecisionActions, NoActions, is_terminal

        if is_terminal(self):  # the game is over (CR 104.2a): nobody acts
            return NoActions(self)  # type: ignore[return-value]
        if self.decision is not None:  # a declaration, discard or other choice of the game (solver.play)
            return DecisionActions(self)  # type: ignore[return-value]
        return LegalActions(self)

    def candidate_actions(self) -> list[Action]:
        """The index space of :meth:`legal_actions_mask`: every action head the
        player could conceivably take, legal or not, in canonical order."""
        return [_head_action(c) for c in candidates(self.state, self.player, self.view)]

    def legal_actions_mask(self) -> tuple["Any", list[Action]]:
        """``(mask, actions)`` for learning agents.

        Index space (stable for a given situation, deterministic across runs):
        ``actions[i]`` is the i-th *candidate* action head of the player with
        priority, in the canonical order of the ``actions`` query — by kind
        (``activate`` < ``cast`` < ``pass`` < ``play_land`` < ``suspend``), then
        object id (string order), then ability index. The candidates are:
        ``pass``; ``play_land`` for each land card in the player's hand;
        ``cast`` for each other card in their hand; ``activate`` for each
        non-mana activated ability (numbered as in contract §2, mana abilities
        included in the numbering) of each permanent they control (and the
        cycling, channel … abilities of the cards in their hand); ``suspend``
        for each card with suspend in their hand (CR 116.2f). ``mask[i]`` is 1 when that
        head is legal now (some target choice and some payment exist), else 0.
        A head is completed into full actions with ``legal_actions`` or by
        :meth:`apply` when the completion is unique.
        """
        import numpy as np

        if self.decision is not None or self.is_terminal:  # a pending choice of the game: its options (solver.play)
            opts = list(self.legal_actions)
            return np.ones(len(opts), dtype=np.int8), opts  # type: ignore[return-value]
        self._check_sound("actions")
        cands = candidates(self.state, self.player, self.view)
        oracle = self.oracle()
        mask = np.zeros(len(cands), dtype=np.int8)
        for i, c in enumerate(cands):
            try:
                ok, _ = oracle.legal(c)
            except Undecided as u:
                raise UnsupportedActionError(f"cannot decide {c.describe(self.state)}: {u.message}") from None
            mask[i] = 1 if ok else 0
        return mask, [_head_action(c) for c in cands]

    def is_legal(self, action: "Action | str | Mapping[str, Any]") -> Verdict:
        """Is ``action`` legal now? A partially specified action is legal when some
        completion is. Malformed input raises :class:`InvalidActionError`."""
        from .play import DecisionActions, is_terminal

        if is_terminal(self):
            return Verdict(False, action, "the game is over (CR 104.2a)")  # type: ignore[arg-type]
        if self.decision is not None:  # a pending choice of the game (solver.play)
            found = DecisionActions(self).find(action)
            if found is None:
                return Verdict(False, action, f"not one of the options of {self.player}'s "  # type: ignore[arg-type]
                                              f"{self.decision.kind} decision")
            return Verdict(True, found, None)  # type: ignore[arg-type]
        a = to_action(action)
        if a.kind != "pass":
            self._check_sound("action", subject=a.object)
        why = self._illegal_reason(a)
        return Verdict(why is None, a, why)

    def _illegal_reason(self, a: Action) -> str | None:
        oracle = self.oracle()
        cand = a.head
        if cand.kind == "activate":
            o = self.state.find(cand.object)
            if o is not None and o.zone == "battlefield":
                acts = self.view.chars(o.id).activated
                u = acts[cand.index - 1] if 1 <= cand.index <= len(acts) else None
                if isinstance(u, ir.Unsupported):
                    raise UnsupportedActionError(f"{a}: ability {cand.index} of {o.name} is not modeled by this "
                                                 f"project (unsupported: {u.text or u.what})")
        try:
            ok, why = oracle.legal(cand)
            if not ok:
                return oracle.payment_reason(cand) if why == NOT_PAYABLE else why
            if cand.kind in ("pass", "play_land"):
                return None
            specs = target_specs(self.state, self.view, cand)
            oracle._no_modal_listing(cand)  # CR 700.2: an Action names no modes; never cast one without them
            if a.targets is not None:
                why = self._targets_reason(oracle, cand, specs, a.targets)
                if why:
                    return why
            if a.x is not None and a.x and not has_x(self.state, self.view, cand):
                return f"{self._name(cand.object)}'s cost has no {{X}}, so X can only be 0"
            if a.payment is None:
                if a.x is not None and has_x(self.state, self.view, cand):
                    ok, why = oracle.payable(cand, a.x)
                    if not ok:
                        return f"with X={a.x}: {oracle.payment_reason(cand, a.x)}"
                return None
            return self._payment_reason(oracle, cand, a)
        except Undecided as u:
            raise UnsupportedActionError(f"cannot decide {cand.describe(self.state)}: {u.message}") from None

    def _name(self, oid: str) -> str:
        o = self.state.find(oid)
        return o.name if o is not None else oid

    def _targets_reason(self, oracle: Oracle, cand: Candidate, specs: tuple, targets: tuple) -> str | None:
        if len(targets) != len(specs):
            return (f"{self._name(cand.object)} has {len(specs)} instance(s) of the word 'target', "
                    f"but {len(targets)} target list(s) were given (CR 115.1, 601.2c)")
        for slot in targets:
            for t in slot:
                if self.state.find(t) is None and not self.state.is_player(t):
                    return f"there is no object or player '{t}'"
        if oracle.target_choice_legal(cand, targets):   # one solve at most, no listing (issue 16)
            return None
        choices, total = oracle.target_examples(cand, 3)
        shown = "; ".join(" / ".join(",".join(s) or "()" for s in ch) for ch in choices[:3])
        more = f" (and {total - 3} more)" if total > 3 else ""
        return (f"{_fmt_targets(targets)} is not a legal choice of targets for {self._name(cand.object)} "
                f"(CR 115, 601.2c); legal choices: {shown}{more}")

    def _payment_reason(self, oracle: Oracle, cand: Candidate, a: Action) -> str | None:
        p = a.payment
        assert p is not None   # an action without a payment is decided by _illegal_reason
        for ids, what in ((p.tap, "tap"), (p.untap, "untap"), (p.sacrifice, "sacrifice")):
            for i in ids:
                o = self.state.find(i)
                if o is None:
                    return f"the payment names '{i}', which does not exist"
                if o.zone != "battlefield":
                    return f"the payment would {what} {o.name} ({i}), which is not on the battlefield"
        want = payment_key(self.state, p, a.x or 0, self.player)
        xq = a.x if has_x(self.state, self.view, cand) else None
        # decide with one solve (or a walk of the counting DP), without listing (issue 16)
        found = oracle.find_payment(cand, xq, p.to_json(a.x or 0))
        if isinstance(found, dict) and payment_key(self.state, Payment.from_json(found), int(found.get("x", 0) or 0),
                                                   self.player) == want:
            return None
        if found is None:
            n = oracle.payment_count_known(cand, xq)
            return (f"this is not one of the{'' if n is None else f' {n}'} distinct ways to pay for "
                    f"{self._name(cand.object)}{f' with X={a.x}' if a.x else ''} (CR 601.2g-h, 602.2b)")
        payments = oracle.payments(cand, xq)
        for q in payments:
            if payment_key(self.state, Payment.from_json(q), int(q.get("x", 0) or 0), self.player) == want:
                return None
        return (f"this is not one of the {len(payments)} distinct ways to pay for {self._name(cand.object)}"
                f"{f' with X={a.x}' if a.x else ''} (CR 601.2g-h, 602.2b)")

    # -- completing and applying ------------------------------------------
    def complete(self, action: "Action | str | Mapping[str, Any]") -> Action:
        """The unique fully specified legal action extending ``action``.

        Raises :class:`IllegalActionError` if none is legal and
        :class:`AmbiguousActionError` if several are."""
        a = to_action(action)
        if a.kind != "pass":
            self._check_sound("action", subject=a.object)
        why = self._illegal_reason(a)
        if why is not None:
            raise IllegalActionError(f"{a}: {why}")
        if a.kind in ("pass", "play_land"):
            return a
        cand = a.head
        oracle = self.oracle()
        try:
            targets = a.targets
            if targets is None and target_specs(self.state, self.view, cand):
                choices = oracle.target_choices(cand)
                if len(choices) != 1:
                    shown = ", ".join(_fmt_targets(c) for c in choices[:4]) + (" ..." if len(choices) > 4 else "")
                    raise AmbiguousActionError(f"{a}: {len(choices)} legal choices of targets ({shown}); "
                                               f"name one with '-> ...'")
                targets = choices[0]
            payment, x = a.payment, a.x
            if payment is None:
                xs = a.x if has_x(self.state, self.view, cand) else None
                pays = oracle.payments(cand, xs)
                if len(pays) != 1:
                    shown = "; ".join(str(_payment_of(p)) for p in pays[:3]) + (" ..." if len(pays) > 3 else "")
                    raise AmbiguousActionError(f"{a}: {len(pays)} distinct payments ({shown}); "
                                               f"name one with 'paying ...'")
                payment = Payment.from_json(pays[0])
                x = int(pays[0].get("x", 0) or 0)
        except Undecided as u:
            raise UnsupportedActionError(f"cannot decide {cand.describe(self.state)}: {u.message}") from None
        return Action(a.kind, a.object, a.index, targets, payment, x)

    def apply(self, action: "Action | str | Mapping[str, Any]", *,
              trigger_order: Sequence[str] | None = None, rng: Any = None) -> "Situation":
        """The situation after ``action`` (the receiver is unchanged).

        * ``pass``: priority goes to the next player in turn order (CR 117.3d).
          The state does not record how many players passed in succession, so
          resolving the top of the stack or ending the step (CR 117.4) is the
          caller's move: :meth:`resolve`, or a new situation.
        * ``play_land``: the card moves from its owner's hand to the battlefield
          under their control (CR 305.1), entering tapped or with counters as its
          own text says (CR 614.1c, with counter replacement effects when their
          outcome is unique), and ``lands_played`` goes up by one. The player
          keeps priority (CR 117.3c).
        * ``cast``: the card moves to the top of the stack with the chosen
          targets and X (CR 601.2a-c), and the payment is made (CR 601.2g-h):
          permanents tapped, untapped, sacrificed; life paid and damage from mana
          abilities taken; pools left as the payment says. The caster keeps
          priority (CR 117.3c).
        * ``activate``: an ability object ``{ability: {source, index},
          controller, targets}`` goes on top of the stack (CR 602.2a) and the cost
          is paid likewise (counters removed as the cost says).

        Abilities that trigger meanwhile (a land's "enters" ability, City of
        Brass becoming tapped) are put on the stack above it (CR 603.3), active
        player's first (CR 603.3b); when one player has several,
        ``trigger_order`` (their source ids, top of the stack first) says their
        order. State-based actions then happen (CR 704.5d tokens leaving the
        battlefield, 704.5m/n attachments to objects that left).
        """
        from . import play

        if play.is_terminal(self):
            raise IllegalActionError(f"{action}: the game is over (CR 104.2a); {play.winner_of(self) or 'nobody'} won")
        try:
            if self.decision is not None:
                return play.game_apply(self, action, rng)
            full = self.complete(action)
            if full.kind == "pass":  # the game moves on (solver.turns, CR 117.3d-117.4, 500-514)
                return play.game_apply(self, "pass", rng)
            self._check_sound("apply", subject=full.object)   # contract §2.0: no state built over unread text
            return play.after_action(self, _Applier(self, full, trigger_order).run())
        except play.IllegalChoiceError as e:
            raise IllegalActionError(str(e)) from None
        except play.NotModeledError as e:
            raise UnsupportedActionError(str(e)) from None

    def push(self, action: "Action | str | Mapping[str, Any]") -> "Situation":
        """Alias of :meth:`apply` (python-chess's name; this one returns the new situation)."""
        return self.apply(action)

    # -- the game (solver.play, solver.turns) -------------------------------
    def outcomes(self, action: Any = "pass") -> list[tuple[dict, Any, "Situation"]]:
        """Every outcome of passing (or of answering the pending decision with
        ``action``) as the ``pass`` query lists them: ``(choices, probability or
        None, situation)`` — for random events (a draw from a shuffled library)."""
        from .play import NotModeledError, outcomes_of

        try:
            return outcomes_of(self, action)
        except NotModeledError as e:
            raise UnsupportedActionError(str(e)) from None

    @property
    def is_terminal(self) -> bool:
        """The game is over: at most one player has not lost (CR 104.2a)."""
        from .play import is_terminal

        return is_terminal(self)

    @property
    def winner(self) -> str | None:
        """The player who won, or None (game not over, or nobody left)."""
        from .play import winner_of

        return winner_of(self)

    def life(self, player: str) -> int:
        return self.state.player(player).life

    def poison(self, player: str) -> int:
        return self.state.player(player).poison

    def lost(self, player: str) -> bool:
        return self.state.player(player).lost

    def zone(self, zone: str, player: str | None = None) -> list[str]:
        """Ids of the objects in ``zone`` (battlefield: controlled by ``player``;
        elsewhere owned), in order (library and stack: top first)."""
        return [o.id for o in self.state.zone(zone, player)]

    @property
    def stack(self) -> list[str]:
        """Ids of the objects on the stack, top first."""
        return self.zone("stack")

    @property
    def step(self) -> str:
        return self.state.turn.step

    @property
    def active_player(self) -> str:
        return self.state.turn.active

    @property
    def priority(self) -> str | None:
        """The player holding priority (None while a pending decision is made)."""
        return None if self.decision is not None else self.state.priority

    @property
    def players(self) -> tuple[str, ...]:
        return self.state.player_ids


def _head_action(c: Candidate) -> Action:
    if c.kind == "pass":
        return Action("pass")
    return Action(c.kind, c.object, c.index if c.kind == "activate" else None,
                  alternative=c.alternative or None, kicked=True if c.kicked else None)


def _fmt_targets(targets: tuple) -> str:
    return "; ".join(", ".join(slot) if slot else "()" for slot in targets) or "(no targets)"


def _payment_of(d: Mapping[str, Any]) -> str:
    a = Action("cast", "_", None, None, Payment.from_json(d), int(d.get("x", 0) or 0))
    s = str(a)
    return s[s.index("paying"):]


class LegalActions:
    """A lazy view of the legal actions of the player with priority (python-chess's ``legal_moves``)."""

    def __init__(self, situation: Situation):
        self.situation = situation

    def _heads(self) -> Iterator[Candidate]:
        sit = self.situation
        sit._check_sound("actions")
        oracle = sit.oracle()
        for c in candidates(sit.state, sit.player, sit.view):
            try:
                ok, _ = oracle.legal(c)
            except Undecided as u:
                raise UnsupportedActionError(f"cannot decide {c.describe(sit.state)}: {u.message}") from None
            if ok:
                yield c

    def __iter__(self) -> Iterator[Action]:
        """Every fully specified legal action: heads in canonical order; for each,
        target choices in sorted order, and for each, payments in the pay query's order."""
        sit = self.situation
        oracle = sit.oracle()
        for c in self._heads():
            if c.kind in ("pass", "play_land"):
                yield _head_action(c)
                continue
            try:
                choices = oracle.target_choices(c)
                pays = oracle.payments(c)
            except Undecided as u:
                raise UnsupportedActionError(f"cannot decide {c.describe(sit.state)}: {u.message}") from None
            for t in choices:
                for p in pays:
                    yield Action(c.kind, c.object, c.index if c.kind == "activate" else None, t,
                                 Payment.from_json(p), int(p.get("x", 0) or 0))

    def __contains__(self, action: object) -> bool:
        try:
            return bool(self.situation.is_legal(action))  # type: ignore[arg-type]
        except InvalidActionError:
            return False

    def __bool__(self) -> bool:
        """True when the player can do anything: while they hold priority they can at least pass."""
        return priority_reason(self.situation.state, self.situation.player) is None

    # No ``__len__``: ``list(legal_actions)`` would call it first and count every action before
    # listing (issue 16). Use :meth:`count` for the number of fully specified legal actions.

    def heads(self) -> list[Action]:
        """The legal action heads (no targets or payment), in canonical order."""
        return [_head_action(c) for c in self._heads()]

    def count(self) -> int:
        """The number of fully specified legal actions: one per pass / land, and
        targets × payments per spell or ability (the choices are independent:
        targets are chosen before costs are paid, CR 601.2c, 601.2h)."""
        sit = self.situation
        oracle = sit.oracle()
        n = 0
        for c in self._heads():
            if c.kind in ("pass", "play_land"):
                n += 1
            else:
                try:
                    t, p = oracle.counts(c)
                except Undecided as u:
                    raise UnsupportedActionError(f"cannot decide {c.describe(sit.state)}: {u.message}") from None
                n += t * p
        return n

    def summary(self) -> dict:
        """The ``actions`` query's result for the player with priority (contract §2.6),
        computed with this situation's caches."""
        sit = self.situation
        from .soundness import blocking, scope_of, unsupported_result

        parts = blocking(sit.state, scope_of(sit.state, {"kind": "actions", "player": sit.player}), sit.view)
        if parts:
            return unsupported_result("actions", parts)
        entries, status, message = legal_action_entries(sit.state, sit.player, oracle=sit.oracle())
        if status != "ok":
            key = "error" if status == "error" else "reason"
            return {"kind": "actions", "status": status, "count": None, "actions": entries, key: message}
        return {"kind": "actions", "status": "ok", "count": len(entries), "actions": entries}

    def __repr__(self) -> str:
        return f"<LegalActions of {self.situation.player}: {', '.join(str(a) for a in self.heads())}>"


# ---------------------------------------------------------------------------
# Applying an action to a state
# ---------------------------------------------------------------------------

class _Applier:
    """Builds the state after one fully specified legal action."""

    def __init__(self, sit: Situation, action: Action, trigger_order: Sequence[str] | None):
        self.sit = sit
        self.state = sit.state
        self.action = action
        self.player = sit.player
        self.trigger_order = list(trigger_order) if trigger_order is not None else None
        self.objs: dict[str, GameObject] = {o.id: o for o in sit.state.objects}
        self.order: list[str] = [o.id for o in sit.state.objects]
        self.players = {p.id: p for p in sit.state.players}
        self.pools = dict(sit.state.mana_pool)
        self.turn = sit.state.turn
        self.next_ts = max((o.timestamp for o in sit.state.objects), default=0) + 1
        self.triggers: list[tuple[str, str, int]] = []  # (controller, source, ability index)

    # -- helpers -----------------------------------------------------------
    def stamp(self) -> int:
        ts = self.next_ts
        self.next_ts += 1
        return ts

    def put_on_stack(self, obj: GameObject) -> None:
        for oid, o in list(self.objs.items()):
            if o.zone == "stack":
                self.objs[oid] = o.with_(order=o.order + 1)
        if obj.id not in self.objs:
            self.order.append(obj.id)
        self.objs[obj.id] = obj.with_(zone="stack", order=0)

    def taken_ids(self) -> set[str]:
        return set(self.objs) | set(self.players)

    def move_to_graveyard(self, oid: str) -> None:
        o = self.objs[oid]
        self.objs[oid] = o.with_(zone="graveyard", controller=o.owner, tapped=False, sick=False, counters=(),
                                 damage=0, attached_to=None, order=10**9, timestamp=self.stamp())

    def triggered(self, source: GameObject, event: str) -> None:
        """Triggered abilities of ``source`` on ``event`` (CR 603.2), to be put on the stack later.

        Numbered as the stack names them (contract §1: the n-th triggered or
        activated ability in printed order); an ability the permanent has lost
        (Blood Moon, CR 305.7) does not trigger."""
        if source.card is None:
            return
        printed = [a for a in source.card.abilities if ir.is_activated(a) or ir.is_triggered(a)]
        wanted = [(i, a) for i, a in enumerate(printed, start=1)
                  if isinstance(a, ir.TriggeredAbility) and a.trigger.event == event]
        if not wanted:
            return
        live = self.live_abilities(source.id)
        for i, a in wanted:
            if a not in live:
                continue
            if a.targets:
                raise UnsupportedActionError(
                    f"{source.name}'s triggered ability needs targets chosen as it is put on the stack "
                    f"(CR 603.3d); apply does not model that choice yet")
            self.triggers.append((source.controller, source.id, i))

    def live_abilities(self, oid: str) -> tuple:
        """The abilities the permanent has now (after continuous effects)."""
        before = self.state.find(oid)
        if before is not None and before.zone == "battlefield":
            return self.sit.view.chars(oid).abilities
        return View(self.build()).chars(oid).abilities

    # -- payment -----------------------------------------------------------
    def pay(self, payment: Payment, x: int) -> None:
        """CR 601.2g-h: activate mana abilities and pay the total cost, as the payment describes."""
        for oid in payment.tap:
            o = self.objs[oid]
            self.objs[oid] = o.with_(tapped=True)
            self.triggered(o, "becomes_tapped")
        for oid in payment.untap:
            self.objs[oid] = self.objs[oid].with_(tapped=False)
        for oid, counters in payment.remove_counters:  # CR 118.3: removing counters as a cost
            o = self.objs[oid]
            left = dict(o.counters)
            for kind, n in counters:
                left[kind] = left.get(kind, 0) - n
            self.objs[oid] = o.with_(counters=tuple(sorted((k, v) for k, v in left.items() if v > 0)))
        self.pay_riders(payment)
        for oid, uses in payment.activated:  # CR 602.5b: these count toward "once each turn"
            o = self.objs[oid]
            done = dict(o.activated_this_turn)
            for index, n in uses:
                done[index] = done.get(index, 0) + n
            self.objs[oid] = o.with_(activated_this_turn=tuple(sorted(done.items())))
        for oid in payment.sacrifice:
            self.move_to_graveyard(oid)
        p = self.players[self.player]
        self.players[self.player] = replace(p, life=p.life - payment.life - payment.damage)
        for pid, n in payment.life_gained:   # CR 119.3 (riders of mana abilities)
            self.players[pid] = replace(self.players[pid], life=self.players[pid].life + n)
        for pid, n in payment.life_lost:
            self.players[pid] = replace(self.players[pid], life=self.players[pid].life - n)
        if payment.draw:
            self.draw(self.player, payment.draw)
        if payment.restricted_pool_after:
            # a situation file has no way to hold mana with a spending restriction (CR 106.6)
            raise UnsupportedActionError("this payment leaves restricted mana in the pool ("
                                  + "; ".join(f"{m}: {why}" for _, m, why in payment.restricted_pool_after)
                                  + "), which a situation can't hold")
        pools = dict(payment.pool_after)
        self.pools[self.player] = Mana.parse(pools.pop(self.player, ""))
        for pid, text in pools.items():
            if pid in self.players:
                self.pools[pid] = Mana.parse(text)

    def pay_riders(self, payment: Payment) -> None:
        """The riders of the mana abilities the payment activated (CR 605.1a): a
        permanent kept tapped through its controller's next untap step
        (CR 502.3, object key ``skip_untap``) and counters put on permanents."""
        for oid in payment.skip_untap + tuple(o for o, _ in payment.add_counters):
            if oid not in self.objs or self.objs[oid].zone != "battlefield":
                raise InvalidActionError(f"payment: {oid} is not a permanent")
        for pid, _ in payment.life_gained + payment.life_lost:
            if pid not in self.players:
                raise InvalidActionError(f"payment: {pid} is not a player")
        if payment.add_counters and self.sit.view.counter_replacements:
            raise UnsupportedActionError("counters put on a permanent by a mana ability with counter replacement "
                                         "effects in force (CR 614.1a, 616) are not modeled by apply")
        for oid in payment.skip_untap:
            self.objs[oid] = self.objs[oid].with_(skip_untap=True)
        for oid, counters in payment.add_counters:  # CR 122.1
            o = self.objs[oid]
            now = dict(o.counters)
            for kind, n in counters:
                now[kind] = now.get(kind, 0) + n
            self.objs[oid] = o.with_(counters=tuple(sorted((k, v) for k, v in now.items() if v > 0)))

    def draw(self, player: str, n: int) -> None:
        """CR 121.1: the player puts the top ``n`` cards of their library into their hand.
        Refused when the outcome isn't known from the situation: a library with fewer
        listed cards (an unlisted library is indistinguishable from an empty one, and
        drawing from an empty library is a loss, CR 704.5b) or a shuffled one (random)."""
        library = sorted((o for o in self.objs.values() if o.zone == "library" and o.owner == player),
                         key=lambda o: o.order)
        if player in self.state.shuffled:
            raise UnsupportedActionError(f"the payment draws {n} card(s) from {player}'s shuffled library "
                                         "(a random card); apply does not choose it")
        if len(library) < n:
            raise UnsupportedActionError(f"the payment draws {n} card(s) but {player}'s library lists "
                                         f"{len(library)}: the cards drawn are not known")
        hand = [o.order for o in self.objs.values() if o.zone == "hand" and o.owner == player]
        top = max(hand, default=-1) + 1
        for i, card in enumerate(library[:n]):
            self.objs[card.id] = card.with_(zone="hand", order=top + i)

    # -- the actions -------------------------------------------------------
    def run(self) -> GameState:
        a = self.action
        if a.kind == "pass":
            ids = self.state.player_ids
            nxt = ids[(ids.index(self.player) + 1) % len(ids)]
            self.turn = replace(self.turn, priority=nxt)
        elif a.kind == "play_land":
            self.play_land(a)
        elif a.kind == "cast":
            self.cast(a)
        elif a.kind == "suspend":
            self.suspend(a)
        else:
            self.activate(a)
        self.stack_triggers()
        self.state_based_actions()
        return self.build()

    def play_land(self, a: Action) -> None:
        o = self.objs[_object_of(a)]
        entered = o.with_(zone="battlefield", controller=self.player, tapped=False, sick=True, counters=(), damage=0,
                          attached_to=None, targets=None, x=0, timestamp=self.stamp(), order=10**9)
        counters: dict[str, int] = {}
        for ab in (o.card.abilities if o.card else ()):
            if isinstance(ab, ir.EntersWith):
                if ab.choose:
                    # "As this land enters, choose a color" (CR 614.12): the choice is the player's;
                    # apply has no way to be told it, and never chooses for them
                    raise UnsupportedActionError(f"'{o.id}' has its controller choose a {ab.choose} as it enters; "
                                                 "apply can't make that choice")
                if ab.tapped:
                    entered = entered.with_(tapped=True)
                if ab.counter:
                    amount = ab.amount if isinstance(ab.amount, int) else 0  # X of a played land is 0 (CR 107.3)
                    counters[ab.counter] = counters.get(ab.counter, 0) + amount
        self.objs[o.id] = entered
        self.turn = replace(self.turn, lands_played=self.turn.lands_played + 1)
        if counters:
            self.enter_with_counters(o.id, counters)
        self.triggered(self.objs[o.id], "enters")

    def enter_with_counters(self, oid: str, counters: dict[str, int]) -> None:
        """CR 614.1c, 616: the counters a permanent enters with, after counter
        replacement effects (Doubling Season), through the one ordering
        mechanism (:mod:`solver.replacement`). When the orders give different
        results the player would choose; apply does not choose for them."""
        probe = self.build()
        view = View(probe)
        if not view.counter_replacements:
            final = counters
        else:
            from .replacement import counter_event_outcomes

            results = counter_event_outcomes(view, oid, None, 0, True, 0)
            if len(results) != 1:
                raise AmbiguousActionError(
                    f"{oid} enters with counters whose number depends on the order of replacement effects "
                    f"(CR 616.1): {len(results)} outcomes; apply does not choose that order")
            final = dict(next(iter(results)))
        o = self.objs[oid]
        self.objs[oid] = o.with_(counters=tuple(sorted((k, v) for k, v in final.items() if v)))

    def cast(self, a: Action) -> None:
        o = self.objs[_object_of(a)]
        specs = target_specs(self.state, self.sit.view, a.head)
        spell = o.with_(zone="stack", controller=self.player, tapped=False, sick=False, counters=(), damage=0,
                        attached_to=None, x=a.x or 0, targets=a.targets if specs else None, timestamp=self.stamp())
        self.put_on_stack(spell)
        self.pay(_payment_of_complete(a), a.x or 0)

    def suspend(self, a: Action) -> None:
        """CR 702.62a, 116.2f: pay the suspend cost and exile the card from its owner's hand with N time
        counters on it (a special action: nothing goes on the stack, CR 116.3 — the player keeps
        priority). Time counters are the object key ``counters`` of the card in exile."""
        from .suspend import suspend_of

        oid = _object_of(a)
        o = self.objs[oid]
        s = suspend_of(o)
        assert s is not None   # a legal suspend action names a card with suspend
        self.pay(_payment_of_complete(a), 0)
        counters = (("time", s.time_counters),) if s.time_counters > 0 else ()
        self.objs[oid] = o.with_(zone="exile", controller=o.owner, tapped=False, sick=False, counters=counters,
                                 damage=0, attached_to=None, order=10**9, timestamp=self.stamp())

    def activate(self, a: Action) -> None:
        oid = _object_of(a)
        source = self.objs[oid]
        ab = ability_of(self.sit.view, a.head)
        assert ab is not None
        aid = _next_free(f"ability-of-{a.object}", self.taken_ids())
        specs = ab.targets
        obj = GameObject(id=aid, zone="stack", owner=self.player, controller=self.player, card=None,
                         x=a.x or 0, targets=a.targets if specs else None,
                         ability=AbilityRef(oid, stack_index(source, ab)), timestamp=self.stamp())
        self.put_on_stack(obj)
        before = source
        self.pay(_payment_of_complete(a), a.x or 0)  # {T}, {Q}, sacrifices and counters are parts of the payment (contract §2.3)
        if ab.cost.discard_self:   # cycling, channel: the card is discarded as the cost (CR 602.2b, 601.2h, 701.9)
            self.move_to_graveyard(oid)
        if ab.cost.exile_self:     # "Exile this artifact" (CR 602.2b, 601.2h, 406.2)
            gone = self.objs[oid]
            self.objs[oid] = gone.with_(zone="exile", controller=gone.owner, tapped=False, sick=False, counters=(),
                                        damage=0, attached_to=None, order=10**9, timestamp=self.stamp())
        if ab.limit is not None:   # "Activate only once each turn" (CR 602.5b): object key activated_this_turn
            o = self.objs[oid]
            done = dict(o.activated_this_turn)
            done[a.head.index] = done.get(a.head.index, 0) + 1
            self.objs[oid] = o.with_(activated_this_turn=tuple(sorted(done.items())))
        if ab.cost.loyalty is not None:
            # CR 606.3: one loyalty ability per permanent each turn; CR 606.4: a +N cost puts N loyalty
            # counters on it (as a cost: not doubled by Doubling Season, per its ruling); -N was paid above
            o = self.objs[oid]
            done = dict(o.activated_this_turn)
            done[a.head.index] = done.get(a.head.index, 0) + 1
            counters = dict(o.counters)
            if ab.cost.loyalty > 0:
                counters["loyalty"] = counters.get("loyalty", 0) + ab.cost.loyalty
            self.objs[oid] = o.with_(activated_this_turn=tuple(sorted(done.items())),
                                          counters=tuple(sorted((k, v) for k, v in counters.items() if v > 0)))
        if before.zone == "battlefield" and self.objs[oid].zone != "battlefield":  # the source left: keep its last known information
            lki = [("card", before.card), ("owner", before.owner), ("controller", before.controller),
                   ("tapped", before.tapped), ("sick", before.sick), ("counters", dict(before.counters) or None),
                   ("damage", before.damage), ("attached_to", before.attached_to), ("token", before.token),
                   ("conjured", before.conjured), ("chosen", before.chosen or None)]
            lki_t = tuple((k, (tuple(sorted(cast(dict, v).items())) if k == "counters" else v)) for k, v in lki
                          if v not in (None, False, 0, ()) or k in ("card", "owner", "controller"))
            self.objs[aid] = self.objs[aid].with_(last_known=lki_t)

    # -- afterwards --------------------------------------------------------
    def stack_triggers(self) -> None:
        """CR 603.3b: APNAP; each player orders their own triggers (``trigger_order``)."""
        if not self.triggers:
            return
        ids = self.state.player_ids
        start = ids.index(self.turn.active)
        apnap = ids[start:] + ids[:start]
        for pid in apnap:  # active player's go on the stack first (so they resolve last)
            mine = [t for t in self.triggers if t[0] == pid]
            if len(mine) > 1:
                if self.trigger_order is None:
                    raise AmbiguousActionError(
                        f"{pid} puts {len(mine)} triggered abilities on the stack and chooses their order "
                        f"(CR 603.3b); pass trigger_order=[source ids, top of the stack first]: "
                        f"{', '.join(sorted(t[1] for t in mine))}")
                rank = {s: i for i, s in enumerate(self.trigger_order)}
                missing = [t[1] for t in mine if t[1] not in rank]
                if missing:
                    raise InvalidActionError(f"trigger_order does not list {', '.join(missing)}")
                mine.sort(key=lambda t: -rank[t[1]])  # the last listed goes on the stack first
            for controller, source, index in mine:
                aid = _next_free(f"ability-of-{source}", self.taken_ids())
                self.put_on_stack(GameObject(id=aid, zone="stack", owner=controller, controller=controller,
                                             card=None, ability=AbilityRef(source, index), timestamp=self.stamp()))

    def state_based_actions(self) -> None:
        """The state-based actions a payment or a land can cause (CR 704.3):
        704.5m Auras attached to nothing legal go to the graveyard, 704.5n other
        attachments become unattached, 704.5d tokens outside the battlefield
        cease to exist (kept while an ability on the stack names them as source)."""
        changed = True
        while changed:
            changed = False
            for oid, o in list(self.objs.items()):
                if o.zone == "battlefield" and o.attached_to is not None and o.attached_to not in self.players:
                    target = self.objs.get(o.attached_to)
                    if target is None or target.zone != "battlefield":
                        if o.card is not None and "Aura" in o.card.data.subtypes:
                            self.move_to_graveyard(oid)
                        else:
                            self.objs[oid] = o.with_(attached_to=None)
                        changed = True
        sources = {o.ability.source for o in self.objs.values() if o.ability is not None}
        for oid, o in list(self.objs.items()):
            if o.token and o.zone not in ("battlefield", "stack") and oid not in sources:
                del self.objs[oid]
                self.order.remove(oid)

    def build(self) -> GameState:
        """The new state, objects in the loader's canonical order with positions renumbered
        (so that loading ``dump_state`` of it gives an equal state)."""
        zones = ("battlefield", "hand", "graveyard", "library", "exile", "command")
        ids = self.state.player_ids
        out: list[GameObject] = []
        for zone in zones:
            for pid in ids:
                group = [self.objs[i] for i in self.order if i in self.objs and self.objs[i].zone == zone and
                         (self.objs[i].controller if zone == "battlefield" else self.objs[i].owner) == pid]
                group.sort(key=lambda o: o.order)
                out.extend(o.with_(order=n) for n, o in enumerate(group))
        stack = sorted((self.objs[i] for i in self.order if i in self.objs and self.objs[i].zone == "stack"),
                       key=lambda o: o.order)
        out.extend(o.with_(order=n) for n, o in enumerate(stack))
        pools = tuple((pid, self.pools[pid]) for pid in ids if pid in self.pools and self.pools[pid])
        return replace(self.state, players=tuple(self.players[p] for p in ids), turn=self.turn, objects=tuple(out),
                       mana_pool=pools)


def _object_of(a: Action) -> str:
    """The object of a ``play_land``/``cast``/``activate`` action (never None: Action checks it)."""
    assert a.object is not None
    return a.object


def _payment_of_complete(a: Action) -> Payment:
    """The payment of a completed action (:meth:`Situation.complete` always names one)."""
    assert a.payment is not None
    return a.payment


def stack_index(source: GameObject, ability: ir.ActivatedAbility) -> int:
    """The index an ability object on the stack uses for ``ability`` (contract §1:
    the n-th triggered *or* activated ability of the source in printed order;
    the ``activate`` queries count activated abilities only)."""
    printed = [a for a in (source.card.abilities if source.card else ()) if ir.is_activated(a) or ir.is_triggered(a)]
    for i, a in enumerate(printed, start=1):
        if a is ability or a == ability:
            return i
    raise UnsupportedActionError(f"{source.name}'s ability is not printed on it (granted by an effect); "
                                 "an ability object for it cannot be named on the stack (contract §1)")


def _next_free(base: str, taken: set[str]) -> str:
    from .situation import next_free_id

    return next_free_id(base, taken)

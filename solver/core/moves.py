"""Moves: the typed actions of the game and their errors (core: plain values, below the rules and the agents' API).

* :class:`Action` — a move (``pass``, ``play_land``, ``cast``, ``activate``,
  ``suspend``; CR 116, 305.1, 601.2, 602.2, 702.62a), frozen and hashable, with
  its canonical string (the grammar is in :mod:`solver.api`'s docstring) and
  its JSON (contract §2.3, §2.6); :func:`to_action` coerces a string or a
  mapping into one.
* :class:`Payment` — one way to pay a cost (contract §2.3; CR 601.2g-h), with
  the riders of the mana abilities it activates (CR 605.1a).
* the errors about actions (:class:`ActionError` and its subclasses).

They were defined in :mod:`solver.api` (interface layer); the action-applying
engine (:mod:`solver.engine.apply`, rules layer) needs them too, so they live
here and :mod:`solver.api` re-exports every name unchanged.
"""
from __future__ import annotations

import json
import re
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Any, Mapping, Sequence

from .json_value import JsonObject
from .mana import Mana

if TYPE_CHECKING:  # pragma: no cover
    from .state import GameState


KINDS: tuple[str, ...] = ("activate", "cast", "pass", "play_land", "suspend")
"""Action kinds, in the canonical (alphabetical) order of results."""



@dataclass(frozen=True, order=True)
class Candidate:
    """An action head: the kind of action and what it acts on, without targets
    or payment. ``index`` is the 1-based activated-ability index (contract §2:
    mana abilities count in the numbering) for ``activate``, else 0."""

    kind_rank: int
    object: str
    index: int
    kind: str = field(compare=False)
    # the casting mode (solver/rules/casting_options.py, CR 601.2b, 118.9): an alternative cost or
    # permission by name ("" for the mana cost) and whether the kicker is paid (CR 702.33a)
    alternative: str = ""
    kicked: int = 0
    # the face cast or played (solver/rules/faces.py): an Adventure, a split card's half, a modal
    # double-faced card's back face (CR 715.3, 709.3, 712.11b, 712.12); "" for the card itself
    face: str = ""
    # the buyback cost is paid (an optional additional cost, CR 702.27a): 1, else 0
    buyback: int = 0
    # a land played paying the life of "As this land enters, you may pay N life. If you don't, it enters
    # tapped." (the controller's choice as it would enter, CR 614.12, 119.4): 1, else 0
    pay_life: int = 0
    # the casualty cost is paid (an optional additional cost, CR 702.153a): 1, else 0
    casualty: int = 0
    # the modes chosen for a modal spell or ability (CR 700.2, 601.2b: announced before targets), sorted
    # 1-based mode numbers in printed order; () when not chosen (or not modal)
    modes: tuple[int, ...] = ()

    @classmethod
    def make(cls, kind: str, object: str = "", index: int = 0, alternative: str = "",
             kicked: int = 0, face: str = "", buyback: int = 0, pay_life: int = 0, casualty: int = 0,
             modes: tuple[int, ...] = ()) -> "Candidate":
        if kind not in KINDS:
            raise ValueError(f"unknown action kind {kind!r}")
        return cls(KINDS.index(kind), object, index, kind, alternative, kicked, face, buyback, pay_life, casualty,
                   tuple(modes))

    def to_json(self) -> JsonObject:
        d: dict[str, Any] = {"kind": self.kind}
        if self.kind != "pass":
            d["object"] = self.object
        if self.kind == "activate":
            d["index"] = self.index
        if self.alternative:
            d["alternative"] = self.alternative
        if self.kicked:
            d["kicked"] = True if self.kicked == 1 else self.kicked
        if self.buyback:
            d["buyback"] = True
        if self.casualty:
            d["casualty"] = True
        if self.face:
            d["face"] = self.face
        if self.pay_life:
            d["pay_life"] = True
        if self.modes:
            d["modes"] = list(self.modes)
        return d

    def describe(self, state: GameState | None = None) -> str:
        name = self.object
        if state is not None and self.object:
            o = state.find(self.object)
            if o is not None:
                name = f"{o.name} ({o.id})"
        if self.kind == "pass":
            return "passing priority"
        if self.face:
            name += f" as {self.face}"
        if self.kind == "play_land":
            return f"playing {name}" + (" paying life as it enters" if self.pay_life else "")
        modes = f" choosing mode(s) {', '.join(map(str, self.modes))}" if self.modes else ""
        if self.kind == "cast":
            how = (f" for its {self.alternative!r} cost" if self.alternative else "") + (" kicked" if self.kicked else "") \
                + (" with buyback" if self.buyback else "") + (" paying its casualty" if self.casualty else "")
            return f"casting {name}{how}{modes}"
        if self.kind == "suspend":
            return f"suspending {name}"
        return f"activating ability {self.index} of {name}{modes}"


__all__ = [
    "Action", "ActionError", "AmbiguousActionError", "IllegalActionError", "InvalidActionError", "KEYWORDS",
    "Payment", "UnsupportedActionError", "UnsupportedCaseError", "to_action",
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
    """The action leaves a choice open (targets, payment, X, an order) and several ways exist.
    ``trigger_sources``: for the order of the action's own triggered abilities (CR 603.3b), their
    sources, each a choice of ``trigger_order``."""

    def __init__(self, message: str, trigger_sources: tuple[str, ...] = ()):
        super().__init__(message)
        self.trigger_sources = trigger_sources


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
    # casting costs (solver/rules/casting_options.py; pay keys exile, discard, return): cards exiled, cards
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

    def to_json(self, x: int = 0) -> JsonObject:
        d: JsonObject = {"tap": list(self.tap), "untap": list(self.untap), "sacrifice": list(self.sacrifice),
             "life": self.life, "damage": self.damage, "x": x, "pool_after": dict(self.pool_after)}
        if self.remove_counters:
            d["remove_counters"] = {o: dict(c) for o, c in self.remove_counters}
        if self.restricted_pool_after:
            out: dict[str, list[dict[str, str]]] = {}
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
    # the casting mode (actions-query extension keys; solver/rules/casting_options.py): the alternative
    # cost or permission used, and whether the kicker is paid (CR 601.2b, 118.9, 702.33a)
    alternative: str | None = None
    kicked: bool | None = None
    # the face cast or played (API extension, docs/extensions.md): an Adventure, a split card's half, a
    # modal double-faced card's back face (CR 715.3, 709.3, 712.11b, 712.12); None for the card itself
    face: str | None = None
    # the buyback cost is paid (CR 702.27a: an optional additional cost)
    buyback: bool | None = None
    # a land played paying the life of "As this land enters, you may pay N life. If you don't, it enters
    # tapped." (CR 614.12, 119.4; API extension, docs/extensions.md); None: not paying
    pay_life: bool | None = None
    # the casualty cost is paid (CR 702.153a: an optional additional cost; the spell is copied)
    casualty: bool | None = None
    # the modes chosen for a modal spell or ability (CR 700.2, 601.2b; API extension, docs/extensions.md):
    # sorted 1-based mode numbers in printed order (a mode twice where the card allows it, 700.2d); None:
    # not specified
    modes: tuple[int, ...] | None = None

    def __post_init__(self) -> None:
        if self.pay_life is not None and (self.kind != "play_land" or not isinstance(self.pay_life, bool)):
            raise InvalidActionError(f"pay_life: true or false, with 'play_land' only (got {self.pay_life!r})")
        if self.pay_life is False:
            object.__setattr__(self, "pay_life", None)
        if (self.alternative is not None or self.kicked is not None) and self.kind != "cast":
            raise InvalidActionError("'alternative' and 'kicked' apply only to 'cast'")
        if self.buyback is not None and self.kind != "cast":
            raise InvalidActionError("'buyback' applies only to 'cast' (CR 702.27a)")
        if self.buyback is not None and not isinstance(self.buyback, bool):
            raise InvalidActionError(f"buyback: expected true or false, got {self.buyback!r}")
        if self.casualty is not None and (self.kind != "cast" or not isinstance(self.casualty, bool)):
            raise InvalidActionError(f"casualty: true or false, with 'cast' only (CR 702.153a; got {self.casualty!r})")
        if self.face is not None and (self.kind not in ("cast", "play_land") or not isinstance(self.face, str)
                                      or not self.face):
            raise InvalidActionError(f"face: a face's name, with 'cast' or 'play_land' only (got {self.face!r})")
        if self.alternative is not None and (not isinstance(self.alternative, str) or not self.alternative):
            raise InvalidActionError(f"alternative: expected a name, got {self.alternative!r}")
        if self.kicked is not None and not isinstance(self.kicked, bool):
            raise InvalidActionError(f"kicked: expected true or false, got {self.kicked!r}")
        if self.kind not in KINDS:
            raise InvalidActionError(f"unknown action kind {self.kind!r} (one of: {', '.join(KINDS)})")
        self._check_modes()
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

    def _check_modes(self) -> None:
        """``modes``: a non-empty list of 1-based mode numbers, with ``cast`` or ``activate`` only (CR 700.2);
        kept sorted (the order of the modes is their printed order, CR 700.2a, 608.2c)."""
        if self.modes is None:
            return
        if self.kind not in ("cast", "activate"):
            raise InvalidActionError("'modes' applies only to 'cast' and 'activate' (CR 700.2)")
        if not isinstance(self.modes, (list, tuple)) or not self.modes or any(
                not isinstance(i, int) or isinstance(i, bool) or i < 1 for i in self.modes):
            raise InvalidActionError(f"modes: a non-empty list of mode numbers (1-based), got {self.modes!r}")
        object.__setattr__(self, "modes", tuple(sorted(self.modes)))

    # -- views -------------------------------------------------------------
    @property
    def head(self) -> Candidate:
        """The action without targets, payment and X (a candidate of :func:`solver.engine.actions.candidates`);
        with its modes when they are chosen (CR 601.2b)."""
        return Candidate.make(self.kind, self.object or "", self.index or 0, self.alternative or "",
                              1 if self.kicked else 0, self.face or "", 1 if self.buyback else 0,
                              1 if self.pay_life else 0, 1 if self.casualty else 0, self.modes or ())

    def with_(self, **kw: Any) -> "Action":
        return replace(self, **kw)

    # -- JSON --------------------------------------------------------------
    def to_json(self) -> JsonObject:
        d: dict[str, Any] = {"kind": self.kind}
        if self.object is not None:
            d["object"] = self.object
        if self.index is not None:
            d["index"] = self.index
        if self.alternative is not None:
            d["alternative"] = self.alternative
        if self.kicked:
            d["kicked"] = True
        if self.buyback:
            d["buyback"] = True
        if self.casualty:
            d["casualty"] = True
        if self.face is not None:
            d["face"] = self.face
        if self.pay_life:
            d["pay_life"] = True
        if self.modes is not None:
            d["modes"] = list(self.modes)
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
                          "alternative", "kicked", "face", "buyback", "pay_life", "casualty", "modes"}
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
        modes = d.get("modes")
        return cls(kind, d.get("object"), d.get("index"), targets, payment, x, d.get("alternative"),
                   d.get("kicked"), d.get("face"), d.get("buyback"), d.get("pay_life"), d.get("casualty"),
                   tuple(modes) if isinstance(modes, list) else modes)

    # -- strings -----------------------------------------------------------
    def __str__(self) -> str:
        if self.kind == "pass":
            return "pass"
        face = f" face={_q(self.face)}" if self.face is not None else ""
        if self.kind == "play_land":
            return f"play {_q(self.object)}{face}" + (" pay-life" if self.pay_life else "")
        parts = [self.kind, _q(self.object) + (f":{self.index}" if self.kind == "activate" else "") + face]
        if self.alternative is not None:
            parts.append(f"alternative={_q(self.alternative)}")
        if self.kicked:
            parts.append("kicked")
        if self.buyback:
            parts.append("buyback")
        if self.casualty:
            parts.append("casualty")
        if self.modes:
            parts.append("modes=" + ",".join(str(i) for i in self.modes))
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
            for word, ids in (("exiling", p.exile), ("discarding", p.discard), ("returning", p.returned)):
                if ids:
                    parts += [word, ", ".join(_q(i) for i in ids)]
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
                      "skipping-untap", "adding", "gaining", "losing", "drawing", "activating", "exiling",
                      "discarding", "returning", "kicked", "buyback", "pay-life", "casualty"})
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
            obj, face = self.ident(), self.face()
            paid = None
            if self.at_word("pay-life"):   # "As this land enters, you may pay N life" (CR 614.12)
                self.i += 1
                paid = True
            act = Action("play_land", obj, face=face, pay_life=paid)
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
            face = self.face() if verb == "cast" else None
            alternative = self.alternative() if verb == "cast" else None
            kicked = buyback = casualty = None
            if verb == "cast" and self.at_word("kicked"):
                self.i += 1
                kicked = True
            if verb == "cast" and self.at_word("buyback"):
                self.i += 1
                buyback = True
            if verb == "cast" and self.at_word("casualty"):
                self.i += 1
                casualty = True
            modes = self.modes()
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
            act = Action(verb, obj, index, None if targets is None else tuple(tuple(t) for t in targets), payment, x,
                         alternative=alternative, kicked=kicked, buyback=buyback, casualty=casualty, face=face,
                         modes=modes)
        else:
            raise InvalidActionError(f"cannot read action {self.text!r}: unknown verb {verb!r} "
                                     "(pass, play, cast, activate, suspend)")
        if self.peek() is not None:
            raise self.fail("the end of the action")
        return act

    def face(self) -> str | None:
        """``face=NAME`` after the object of ``cast``/``play`` (NAME plain or a JSON string), or None."""
        if not (self.at_word("face") and self.i + 1 < len(self.toks) and self.toks[self.i + 1][1] == "="):
            return None
        self.i += 2
        return self.ident()

    def alternative(self) -> str | None:
        """``alternative=NAME`` after the face of ``cast`` (the alternative cost or permission used,
        CR 118.9; NAME plain or a JSON string), or None."""
        if not (self.at_word("alternative") and self.i + 1 < len(self.toks) and self.toks[self.i + 1][1] == "="):
            return None
        self.i += 2
        return self.ident()

    def modes(self) -> tuple[int, ...] | None:
        """``modes=N,M`` (the modes chosen, CR 700.2, 601.2b), or None."""
        if not (self.at_word("modes") and self.i + 1 < len(self.toks) and self.toks[self.i + 1][1] == "="):
            return None
        self.i += 2
        out = [self.number()]
        while self.at("punct", ","):
            self.i += 1
            out.append(self.number())
        return tuple(out)

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
        cards: dict[str, list[str]] = {}     # exiling, discarding, returning (casting costs, CR 118.9, 601.2h)
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
            if self.at_word("exiling", "discarding", "returning"):
                word = self.take()[1]
                cards[word] = self.id_list()
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
                       tuple(lost), draw, tuple((o, tuple(u.items())) for o, u in activated.items()),
                       tuple(cards.get("exiling", ())), tuple(cards.get("discarding", ())),
                       tuple(cards.get("returning", ())))


def to_action(a: "Action | str | Mapping[str, Any]") -> Action:
    """Coerce an :class:`Action`, its string, or its JSON into an :class:`Action`."""
    if isinstance(a, Action):
        return a
    if isinstance(a, str):
        return Action.parse(a)
    if isinstance(a, Mapping):
        return Action.from_json(a)
    raise InvalidActionError(f"expected an Action, an action string or a mapping, got {type(a).__name__}")



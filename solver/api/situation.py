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

  Grammar: ``cast ID [face=NAME] [alternative=NAME] [kicked] [buyback] [casualty] [modes=N,M] [x=N] [-> TARGETS]
  [paying PAYMENT]`` and likewise
  ``activate ID:N [modes=N,M] …`` (no face); ``modes`` are the modes chosen for a modal spell or ability
  (1-based, printed order; CR 700.2, 601.2b), whose targets are then the chosen modes' (601.2c); ``play ID [face=NAME]``. ``face`` names the face cast or played —
  an Adventure, a split card's half, a modal double-faced card's back face (CR 715.3, 709.3,
  712.11b, 712.12; NAME plain or a JSON string: ``play blightstep-pathway-searstep-pathway
  face="Searstep Pathway"``); TARGETS are the target instances in printed order
  separated by ``;``, each a comma-separated list of ids or ``()`` for none;
  PAYMENT is the tapped permanents (or ``nothing``) followed by optional
  ``untapping IDS``, ``sacrificing IDS``, ``life N``, ``damage N`` and
  ``leaving PLAYER MANA`` (mana left in a pool), and the riders of mana
  abilities: ``skipping-untap IDS``, ``adding ID N KIND``, ``gaining PLAYER N``,
  ``losing PLAYER N``, ``drawing N`` (CR 605.1a), and the cards a casting cost moves:
  ``exiling IDS``, ``discarding IDS``, ``returning IDS`` (CR 118.9, 702.66a). ``alternative``
  names an alternative cost or permission (CR 118.9), as the ``pay`` query does; the API applies
  those whose only consequence is their payment (:func:`solver.rules.casting_options.api_applies`). Ids that are not plain
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

:class:`Action`, :class:`Payment` and the errors are defined in :mod:`solver.core.moves`
and the state after an action is built by :mod:`solver.engine.apply` (both in
the rules layer, under :mod:`solver.engine.transition`'s settling); this module
re-exports them and adds the situation, the legality checks and the listing.

Errors are :class:`ValueError` subclasses: :class:`InvalidActionError` (the
action cannot be read or names nothing that exists), :class:`IllegalActionError`
(well formed but not legal now), :class:`AmbiguousActionError` (legal, but
several completions exist), and :class:`UnsupportedActionError` (legal, but a
consequence of applying it is not modeled).
"""
from __future__ import annotations

from dataclasses import dataclass, replace
from functools import cached_property
from pathlib import Path
from typing import Any, Callable, Iterator, Mapping, Sequence

from mtgsolve.models.payment import Paid

from ..cards import SHIPPED, CardDB
from ..core import ir
from ..payment.paid import CostPayment
from ..queries.results import action_object, unread_object, unsupported_result
from ..engine.actions import (NOT_PAYABLE, Candidate, Oracle, Undecided, candidates, has_x, legal_action_entries,
                      modal_subject, priority_reason, target_specs)
from ..core.moves import Candidate
from ..rules.faces import at_face, face_zone_reason
from ..engine.apply import apply_action, stack_index  # noqa: F401 (stack_index: re-exported)
from ..rules.characteristics import View
from ..rules.mana_sources import card_key, class_of
# the typed moves and their errors live in the rules layer (solver.core.moves) so that the engine that applies
# them (solver.engine.apply) needs nothing from this module; every name is re-exported here unchanged
from ..core.moves import (KEYWORDS, Action,  # noqa: F401 (KEYWORDS, to_action: re-exported)
                    ActionError, AmbiguousActionError, IllegalActionError, InvalidActionError,
                    Payment, UnsupportedActionError, UnsupportedCaseError, to_action)
from ..core.state import GameState, Turn
from ..io.load import load_situation
from ..io.load import situation_from_dict
from ..io.load import dump_state
from ..rules.soundness.check import unread_parts
from ..rules.soundness.check import blocking, scope_of
from ..rules.casting_options import api_refusal
from ..queries import Options, answer
from ..core.errors import QueryError, UnsupportedCase
from ..engine.resolution import CannotResolve, NothingToResolve, ResolutionUnsupported, resolve_top
from ..queries.canonical import canonical_outcomes
from .play import DecisionActions, NoActions, is_terminal
from .play import DecisionActions, is_terminal
from . import play
from .play import NotModeledError, outcomes_of
from .play import is_terminal
from .play import winner_of

__all__ = [
    "Action", "ActionError", "AmbiguousActionError", "IllegalActionError", "InvalidActionError", "LegalActions",
    "Payment", "Situation", "UnsupportedActionError", "UnsupportedCaseError", "Verdict",
]


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

def payment_key(view: View, payment: Payment, x: int, player: str) -> tuple:
    """A canonical key: two payments with the same key leave the same situation behind.

    Objects are compared by their class of interchangeable permanents
    (:func:`solver.rules.mana_sources.class_of`, contract §2.3): the one definition the payments
    are listed with, so a payment naming another member of a class matches the listed one
    exactly when the enumeration counts them as one payment."""
    classes = class_of(view)

    def klass(oid: str) -> tuple[str, str]:
        return ("class", classes[oid]) if oid in classes else ("object", oid)

    roles: dict[str, list[int]] = {}
    for r, ids in enumerate((payment.tap, payment.untap, payment.sacrifice)):
        for i in ids:
            roles.setdefault(i, [0, 0, 0])[r] = 1
    removed = dict(payment.remove_counters)
    added = dict(payment.add_counters)
    skip = set(payment.skip_untap)
    for i in list(removed) + list(added) + list(skip):
        roles.setdefault(i, [0, 0, 0])
    objs = sorted((klass(i), tuple(rs), removed.get(i, ()), added.get(i, ()), i in skip) for i, rs in roles.items())
    pools = dict(payment.pool_after)
    pools.setdefault(player, "")
    return (tuple(objs), payment.life, payment.damage, x, tuple(sorted((p, m) for p, m in pools.items() if m)),
            payment.restricted_pool_after, payment.life_gained, payment.life_lost, payment.draw,
            tuple(sorted((klass(i), u) for i, u in payment.activated)), _card_choice_key(view, payment, klass))


def _card_choice_key(view: View, payment: Payment, klass: Any) -> tuple:
    """The cards a casting cost exiles or discards and the permanents it returns (CR 118.9, 702.66a), by
    class of interchangeable cards (:func:`solver.rules.mana_sources.card_key`: same card, owner and status,
    in the same zone) — so that a payment exiling another card than the listed ones is not taken for one."""
    def card(oid: str) -> tuple:
        o = view.state.find(oid)
        return ("card", o.zone, card_key(o)) if o is not None and o.card is not None else ("object", oid)
    return (tuple(sorted(card(i) for i in payment.exile)), tuple(sorted(card(i) for i in payment.discard)),
            tuple(sorted(klass(i) for i in payment.returned)))


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
        self._faces: dict[tuple[str, str], tuple[Situation, str]] = {}
        self.decision: Any = None  # a pending choice of the game (solver.api.play; solver.engine.turns.Decision)

    # -- construction ------------------------------------------------------
    @classmethod
    def load(cls, path: str | Path, cards: CardDB | None = None) -> "Situation":
        """Load a situation file (YAML or JSON), its card names read in ``cards`` (a
        :class:`~solver.cards.CardDB`; default: the shipped database); bad input raises a located
        :class:`~solver.core.errors.SituationError` (a ``ValueError``)."""

        loaded = load_situation(path, cards=cards or SHIPPED)
        return cls(loaded.state, source=loaded.source, queries=loaded.queries, expect=loaded.expect)

    @classmethod
    def from_dict(cls, d: Mapping[str, Any], source: str = "<situation>",
                  cards: CardDB | None = None) -> "Situation":
        """Validate a situation mapping (contract §1); card names are read in ``cards`` (default:
        the shipped database)."""

        loaded = situation_from_dict(d, source, cards=cards or SHIPPED)
        return cls(loaded.state, source=loaded.source, queries=loaded.queries, expect=loaded.expect)

    def successor(self, state: GameState, decision: Any = None) -> "Situation":
        """The situation the game reaches from this one: ``state``, with the pending ``decision``
        (:class:`solver.engine.turns.Decision`) when a player must choose in it."""
        s = Situation(state, source=self.source)
        s.decision = decision
        return s

    def to_dict(self) -> dict:
        """The situation as a contract §1 mapping (every object with its id)."""

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
        return View.of(self.state)

    def oracle(self, player: str | None = None) -> Oracle:
        """The (cached) decider of ``player``'s candidate actions."""
        p = player or self.player
        if p not in self._oracles:
            self._oracles[p] = Oracle(self.state, p, view=self.view)
        return self._oracles[p]

    def at_face(self, cand: Candidate) -> tuple["Situation", Candidate]:
        """Where a head is decided: for a head with ``face``, the situation in which its card has only
        that face's characteristics (:func:`solver.rules.faces.at_face`; CR 715.3b, 709.3b, 712.11b)
        and the head without ``face``; this situation and the head otherwise."""
        if not cand.face:
            return self, cand
        key = (cand.object, cand.face.lower())
        if key not in self._faces:
            sub, plain = at_face(self.state, replace(cand, alternative=""))
            self._faces[key] = (Situation(sub, source=self.source), plain.alternative)
        sit, need = self._faces[key]   # the alternative cost the face needs (disturb, CR 702.146a)
        return sit, replace(cand, face="", alternative=cand.alternative or need)

    def decide(self, cand: Candidate) -> tuple[bool, str | None]:
        """Is the head legal now (some target choice and payment exist)? Its face's situation decides."""
        sit, c = self.at_face(cand)
        try:
            return sit.oracle().legal(c)
        except Undecided as u:
            raise UnsupportedActionError(f"cannot decide {cand.describe(self.state)}: {u.message}") from None
        except UnsupportedCase as e:   # a rule the cost or target models don't hold (CR 118.7 …): refused
            raise UnsupportedActionError(f"cannot decide {cand.describe(self.state)}: {e}") from None

    def completions_of(self, cand: Candidate) -> list[Action]:
        """Every fully specified legal action of a legal ``cast``/``activate`` head: for a modal spell or
        ability whose head names no modes, each legal selection of modes in sorted order (CR 700.2,
        601.2b); target choices in sorted order, and for each, payments in the pay query's order (with the
        head's ``face``)."""
        sit, c = self.at_face(cand)
        oracle = sit.oracle()
        try:
            if modal_subject(sit.state, sit.view, c):
                return [a for sel in _selections(oracle, c) for a in self.completions_of(replace(cand, modes=sel))]
            choices = oracle.target_choices(c)
            pays = oracle.payments(c)
        except Undecided as u:
            raise UnsupportedActionError(f"cannot decide {cand.describe(self.state)}: {u.message}") from None
        return [Action(c.kind, c.object, c.index if c.kind == "activate" else None, t, p.move(), p.x,
                       alternative=cand.alternative or None, kicked=True if cand.kicked else None,
                       face=cand.face or None, buyback=True if cand.buyback else None,
                       casualty=True if cand.casualty else None, modes=cand.modes or None)
                for t in choices for p in pays]

    def mode_heads(self, cand: Candidate) -> list[Candidate]:
        """The heads of a legal head with each legal selection of modes (CR 700.2a-b, 601.2b) when it is a
        modal spell or ability naming none, in sorted order; else the head itself."""
        sit, c = self.at_face(cand)
        try:
            if not modal_subject(sit.state, sit.view, c):
                return [cand]
            return [replace(cand, modes=sel) for sel in _selections(sit.oracle(), c)]
        except Undecided as u:
            raise UnsupportedActionError(f"cannot decide {cand.describe(self.state)}: {u.message}") from None

    # -- soundness (contract §2.0) -------------------------------------------
    @property
    def unsupported(self) -> list[dict]:
        """Every part of this situation the project does not read, with what it could
        change: ``{object, text, affects, zone}`` (:mod:`solver.rules.soundness.check`)."""

        return [unread_object(p) | {"zone": p.zone} for p in unread_parts(self.state, self.view)]

    def blocking(self, kind: str = "actions", **query: Any) -> list[dict]:
        """The unread parts that could change the answer to a question of ``kind``
        (``actions``, ``pay``, ``targets``, ``resolve``, …) asked with ``query``'s
        arguments (``cast=``, ``player=`` …); empty when the answer is sound."""

        scope = scope_of(self.state, {"kind": kind, "player": self.player} | query)
        return [unread_object(p) for p in blocking(self.state, scope, self.view)]

    def _check_sound(self, kind: str = "actions", **query: Any) -> None:
        parts = self.blocking(kind, **query)
        if parts:
            what = "; ".join(f"{p['object']}: {p['text']} ({', '.join(p['affects'])})" for p in parts[:3])
            more = f" and {len(parts) - 3} more" if len(parts) > 3 else ""
            raise UnsupportedCaseError(f"{kind}: unread text could change the answer: {what}{more}", parts)
        if kind in ("actions", "action", "apply"):
            why = api_refusal(self.state, self.player, query.get("subject") if kind != "actions" else None)
            if why:
                raise UnsupportedCaseError(f"{kind}: {why}", [])

    # -- queries -----------------------------------------------------------
    def query(self, query: Mapping[str, Any], *, max_results: int = 10_000, timeout: float | None = None) -> dict:
        """Answer any contract §2 query on this situation."""

        return answer(self.state, dict(query), Options(max_results=max_results, timeout=timeout))

    def resolve(self) -> list[tuple[dict, "Situation"]]:
        """Resolve the top of the stack (the ``resolve`` query, contract §2.7): each
        outcome's choices and the resulting situation."""

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
        # each outcome's state is canonical (it loads again from its situation JSON unchanged);
        # in the resolve query's order (solver.queries.resolve)

        return [(o.choices, Situation(o.state)) for o, _ in canonical_outcomes(res.outcomes)]

    # -- legal actions -----------------------------------------------------
    @cached_property
    def legal_actions(self) -> "LegalActions":
        if is_terminal(self):  # the game is over (CR 104.2a): nobody acts
            return NoActions(self)  # type: ignore[return-value]
        if self.decision is not None:  # a declaration, discard or other choice of the game (solver.api.play)
            if getattr(self.decision, "refusal", None):   # unread text acting at that decision (CR 103.5a)
                raise UnsupportedActionError(self.decision.refusal)
            return DecisionActions(self)  # type: ignore[return-value]
        return LegalActions(self)

    def candidate_actions(self) -> list[Action]:
        """The index space of :meth:`legal_actions_mask`: every action head the
        player could conceivably take, legal or not, in canonical order."""
        return [_head_action(c) for c in candidates(self.state, self.player, self.view, faces=True, modes=True)]

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
        for each card with suspend in their hand (CR 116.2f); ``cast``/``play_land`` with ``face`` for
        each face a card may be cast or played as from where it is (an Adventure, a split card's half or
        both fused, a modal double-faced card's back face from the hand, an aftermath half from the
        graveyard: CR 715.3, 709.3, 702.102, 712.11b, 712.12, 702.127a), after the card's own head; and
        ``cast`` for the creature of each of their cards on an adventure (715.3d). ``mask[i]`` is 1 when that
        head is legal now (some target choice and some payment exist), else 0.
        A head is completed into full actions with ``legal_actions`` or by
        :meth:`apply` when the completion is unique.
        """
        import numpy as np

        if self.decision is not None or self.is_terminal:  # a pending choice of the game: its options (solver.api.play)
            opts = list(self.legal_actions)
            return np.ones(len(opts), dtype=np.int8), opts  # type: ignore[return-value]
        self._check_sound("actions")
        cands = candidates(self.state, self.player, self.view, faces=True, modes=True)
        mask = np.zeros(len(cands), dtype=np.int8)
        for i, c in enumerate(cands):
            ok, _ = self.decide(c)
            mask[i] = 1 if ok else 0
        return mask, [_head_action(c) for c in cands]

    def is_legal(self, action: "Action | str | Mapping[str, Any]") -> Verdict:
        """Is ``action`` legal now? A partially specified action is legal when some
        completion is. Malformed input raises :class:`InvalidActionError`."""

        if is_terminal(self):
            return Verdict(False, action, "the game is over (CR 104.2a)")  # type: ignore[arg-type]
        if self.decision is not None:  # a pending choice of the game (solver.api.play)
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
        if a.face is not None:   # decided on the situation in which the card has that face (CR 715.3b, 709.3b)
            why = face_zone_reason(self.state, a.head)
            if why:
                return why
            sit, c = self.at_face(a.head)   # with the alternative cost the face needs (disturb, CR 702.146a)
            return sit._illegal_reason(a.with_(face=None, alternative=c.alternative or None))
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
            if a.targets is not None and modal_subject(self.state, self.view, cand):
                return (f"{self._name(cand.object)} is modal: name the modes chosen with 'modes=N,…' before its "
                        "targets (CR 700.2, 601.2b-c)")
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
        want = payment_key(self.view, p, a.x or 0, self.player)
        xq = a.x if has_x(self.state, self.view, cand) else None
        # decide with one solve (or a walk of the counting DP), without listing (issue 16)
        found = oracle.find_payment(cand, xq, p, a.x or 0)
        if isinstance(found, Paid) and payment_key(self.view, CostPayment(found).move(), found.x, self.player) == want:
            return None
        if found is None:
            n = oracle.payment_count_known(cand, xq)
            return (f"this is not one of the{'' if n is None else f' {n}'} distinct ways to pay for "
                    f"{self._name(cand.object)}{f' with X={a.x}' if a.x else ''} (CR 601.2g-h, 602.2b)")
        payments = oracle.payments(cand, xq)
        for q in payments:
            if payment_key(self.view, q.move(), q.x, self.player) == want:
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
        if a.face is not None:
            sit, c = self.at_face(a.head)
            plain = a.with_(face=None, alternative=c.alternative or None)
            try:
                return sit.complete(plain).with_(face=a.face, alternative=a.alternative)
            except AmbiguousActionError as e:   # said of the action as given, with its face
                raise AmbiguousActionError(str(e).replace(str(plain), str(a), 1)) from None
        cand = a.head
        oracle = self.oracle()
        try:
            if modal_subject(self.state, self.view, cand):   # the modes first (CR 601.2b)
                sels = _selections(oracle, cand)
                if len(sels) != 1:
                    shown = "; ".join(",".join(map(str, sel)) for sel in sels[:4]) + (" ..." if len(sels) > 4 else "")
                    raise AmbiguousActionError(f"{a}: {len(sels)} legal selections of modes ({shown}); "
                                               f"name one with 'modes=…' (CR 700.2)")
                return self.complete(a.with_(modes=sels[0]))
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
                payment = pays[0].move()
                x = pays[0].x
        except Undecided as u:
            raise UnsupportedActionError(f"cannot decide {cand.describe(self.state)}: {u.message}") from None
        return Action(a.kind, a.object, a.index, targets, payment, x, alternative=a.alternative, kicked=a.kicked,
                      buyback=a.buyback, casualty=a.casualty, modes=a.modes)

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
        order. State-based actions then happen and the abilities they trigger
        go on the stack (CR 117.5, 704.3: :func:`solver.engine.transition.settle`).
        """

        if play.is_terminal(self):
            raise IllegalActionError(f"{action}: the game is over (CR 104.2a); {play.winner_of(self) or 'nobody'} won")
        try:
            if play.is_concession(action):   # CR 104.3a: at any time, whatever is pending
                return play.concede(self, self.player)
            if self.decision is not None:
                return play.game_apply(self, action, rng)
            full = self.complete(action)
            if full.kind == "pass":  # the game moves on (solver.engine.turns, CR 117.3d-117.4, 500-514)
                return play.game_apply(self, "pass", rng)
            self._check_sound("apply", subject=full.object)   # contract §2.0: no state built over unread text
            return play.after_action(self, apply_action(self.state, self.view, self.player, full, trigger_order))
        except play.IllegalChoiceError as e:
            raise IllegalActionError(str(e)) from None
        except play.NotModeledError as e:
            raise UnsupportedActionError(str(e)) from None

    def concede(self, player: str | None = None) -> "Situation":
        """CR 104.3a: ``player`` (default: the player whose decision it is) concedes and loses the
        game, at any time; ``apply("concede")`` is the same for the acting player. Not listed among
        the legal actions (it always is one). A game of more than two players: unsupported (CR 800.4a)."""
        try:
            return play.concede(self, player or self.player)
        except play.IllegalChoiceError as e:
            raise IllegalActionError(str(e)) from None
        except play.NotModeledError as e:
            raise UnsupportedActionError(str(e)) from None

    def push(self, action: "Action | str | Mapping[str, Any]") -> "Situation":
        """Alias of :meth:`apply` (python-chess's name; this one returns the new situation)."""
        return self.apply(action)

    # -- the game (solver.api.play, solver.engine.turns) -------------------------------
    def outcomes(self, action: Any = "pass") -> list[tuple[dict, Any, "Situation"]]:
        """Every outcome of passing (or of answering the pending decision with
        ``action``) as the ``pass`` query lists them: ``(choices, probability or
        None, situation)`` — for random events (a draw from a shuffled library)."""

        try:
            return outcomes_of(self, action)
        except NotModeledError as e:
            raise UnsupportedActionError(str(e)) from None

    @property
    def is_terminal(self) -> bool:
        """The game is over: at most one player has not lost (CR 104.2a)."""

        return is_terminal(self)

    @property
    def winner(self) -> str | None:
        """The player who won, or None (game not over, or nobody left)."""

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


def _selections(oracle: Oracle, cand: Candidate) -> list[tuple[int, ...]]:
    """The legal selections of modes of a modal head (CR 700.2a-b); choosing no mode ("Choose up to one —")
    has no action form: refused (:class:`Undecided`), never dropped."""
    sels = [sel for sel, _ in oracle.mode_selections(cand)]
    if () in sels:
        raise Undecided("error", "unsupported: choosing no mode of a modal spell or ability ('choose up to …', "
                                 "CR 700.2) is not an API action")
    return sels


def _head_action(c: Candidate) -> Action:
    if c.kind == "pass":
        return Action("pass")
    return Action(c.kind, c.object, c.index if c.kind == "activate" else None,
                  alternative=c.alternative or None, kicked=True if c.kicked else None, face=c.face or None,
                  buyback=True if c.buyback else None, pay_life=True if c.pay_life else None,
                  casualty=True if c.casualty else None, modes=c.modes or None)


def _fmt_targets(targets: tuple) -> str:
    return "; ".join(", ".join(slot) if slot else "()" for slot in targets) or "(no targets)"


def _payment_of(p: CostPayment) -> str:
    a = Action("cast", "_", None, None, p.move(), p.x)
    s = str(a)
    return s[s.index("paying"):]


class LegalActions:
    """A lazy view of the legal actions of the player with priority (python-chess's ``legal_moves``)."""

    def __init__(self, situation: Situation):
        self.situation = situation

    def _heads(self) -> Iterator[Candidate]:
        sit = self.situation
        sit._check_sound("actions")
        for c in candidates(sit.state, sit.player, sit.view, faces=True, modes=True):
            ok, _ = sit.decide(c)
            if ok:
                yield c

    def __iter__(self) -> Iterator[Action]:
        """Every fully specified legal action: heads in canonical order; for each,
        target choices in sorted order, and for each, payments in the pay query's order."""
        sit = self.situation
        for c in self._heads():
            if c.kind in ("pass", "play_land"):
                yield _head_action(c)
                continue
            yield from sit.completions_of(c)

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
        n = 0
        for c in self._heads():
            if c.kind in ("pass", "play_land"):
                n += 1
            else:
                at, c = sit.at_face(c)
                try:
                    t, p = at.oracle().counts(c)
                except Undecided as u:
                    raise UnsupportedActionError(f"cannot decide {c.describe(sit.state)}: {u.message}") from None
                n += t * p
        return n

    def summary(self) -> dict:
        """The ``actions`` query's result for the player with priority (contract §2.6),
        computed with this situation's caches."""
        sit = self.situation

        parts = blocking(sit.state, scope_of(sit.state, {"kind": "actions", "player": sit.player}), sit.view)
        if parts:
            return unsupported_result("actions", parts)
        found, status, message = legal_action_entries(sit.state, sit.player, oracle=sit.oracle())
        entries = [action_object(e) for e in found]
        if status != "ok":
            key = "error" if status == "error" else "reason"
            return {"kind": "actions", "status": status, "count": None, "actions": entries, key: message}
        return {"kind": "actions", "status": "ok", "count": len(entries), "actions": entries}

    def __repr__(self) -> str:
        return f"<LegalActions of {self.situation.player}: {', '.join(str(a) for a in self.heads())}>"

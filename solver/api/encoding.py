"""A fixed-size action encoding for learning agents, stable across a game.

:meth:`Situation.legal_actions_mask` indexes the *current* situation's
candidates, so its length changes from one situation to the next.  An
:class:`ActionEncoding` is built once per game (from its first situation) and
gives every situation of that game the same index space::

    index 0                      pass
    1 .. N                       play / cast card k        (k-th card of the game, ids sorted)
    N+1 .. N+F                   play / cast card k as face j  (the cards with faces, ids sorted; faces in order)
    N+F+1 .. N+F+C               cast card k with its j-th alternative cost or permission (ids sorted; printed order)
    then K slots                 cast card k kicked: with its mana cost, then with each alternative (CR 702.33a, 702.33d)
    then B slots                 cast card k with buyback: per alternative ("" first), unkicked then kicked (CR 702.27a)
    then Y slots                 cast card k paying its casualty: per alternative ("" first) (CR 702.153a)
    N+F+C+1 .. N+F+C+A           activate card k's i-th activated ability (per card, in printed order)
    N+F+C+A+1 .. N+F+C+A+S       suspend card k (the cards with suspend, ids sorted; CR 702.62a)
    then L slots                 play land card k (or its land face j) paying the life of "As this land enters,
                                 you may pay N life" (the land cards with that ability, ids sorted, then the
                                 land faces with it; CR 614.12, 119.4)
    then D slots                 a modal spell or ability's head with a selection of modes: after every slot
                                 above whose spell or ability is modal (in slot order), one slot per
                                 selection of modes its text allows, sorted (CR 700.2, 601.2b)
    N+F+C+A+S+L+D+1 .. +M        option m of a pending choice (m = 0 .. M-1)

*Cards* are every object with a card in the first situation (every zone);
for a card, "play" is playing it as a land (CR 305) when it is a land card and
casting it otherwise (CR 601) — from the hand, or the creature of a card on an adventure from
exile (CR 715.3d).  A card that may be cast or played as another face — an Adventure, a split
card's half, a modal double-faced card's back face (CR 715.3, 709.3, 712.11b, 712.12;
:func:`solver.rules.faces.faces_of`) — has a slot per face, legal while it is in its owner's hand
(the action's ``face``; an aftermath half and a disturb card's back face — cast transformed, with
disturb, CR 702.146a — while it is in its owner's graveyard).  A card with alternative costs or
permissions the API applies (those whose only consequence is their payment: "rather than pay this
spell's mana cost" lines such as Force of Will's and Daze's, spectacle, retrace — CR 118.9, 702.137a,
702.81a — and flashback, jump-start, which the spell records, 702.34a, 702.133a;
:func:`solver.rules.casting_options.api_applies`) has a slot per option (the action's
``alternative``), legal while the card is where the option casts it from; delve, convoke and improvise
are ways to pay any mode, part of its payments (CR 702.66a, 702.51a, 702.126a).  A card with kicker (one
kicker cost, CR 702.33a) has a ``kicked`` slot per mode: kicked with its mana cost, and kicked with each of
those alternatives (the action's ``kicked``; the kicked spell records it, 702.33d); a card with buyback
(CR 702.27a) a ``buyback`` slot per mode, kicked or not (the action's ``buyback``); a card with casualty
(CR 702.153a) a ``casualty`` slot per alternative (the action's ``casualty``; with kicker or buyback too, the
casualty modes have no slot).  Each card gets as many activate slots as it
has printed activated abilities (mana abilities included in the numbering,
as in contract §2; their slots are never legal: mana abilities are part of
payments; an ability that works from the hand — cycling, channel, CR 113.6k —
is legal in its slot while the card is in its owner's hand). A card with
suspend has a slot for the special action of suspending it from its owner's
hand (CR 116.2f).  A land card with "As this land enters, you may pay N life. If you don't, it enters
tapped." has a second play slot, playing it paying that life (the action's ``pay_life``; its "play" slot
plays it without paying, tapped; CR 614.12), legal while the player may play a land and has N or more
life (CR 119.4).  A modal spell or ability (CR 700.2: "Choose one —", "Choose one or both —", "Choose
two —" …) has no slot of its own: each of its slots above is offered as the ``modes`` slots of that slot,
one per selection of modes the text allows (``("modes", slot, selection)``, the action's ``modes``), legal
when that selection has a legal choice of targets and the head a payment (CR 700.2a-b).  *Options* are the choices of a pending decision — a declaration
of attackers or blockers, a damage assignment, a discard, a choice during
resolution (:mod:`solver.api.play`) — in their canonical order, or the
completions (targets × payment) of an action head the agent picked when it
has more than one (:func:`completions`).  Objects created during the game
(tokens, copies) have no slot: their actions are never offered (documented
limit).  ``mask(sit)`` is an ``int8`` array with 1 at every legal index.
"""
from __future__ import annotations

from typing import Any, Sequence

from ..core import ir
from ..core.state import GameState
from ..rules.suspend import suspend_of
from ..rules.faces import TRANSFORMED_CASTS, face_of, faces_of, pays_life_as_enters
from ..rules.casting_options import alternatives_of, api_applies, buyback_of, casualty_of, kicker_of
from .situation import Action
from ..engine.actions import is_land_card
from ..rules.replacement import life_choice
from ..rules.modes import modal_of, selections
from .situation import Action, UnsupportedActionError

__all__ = ["ActionEncoding", "completions", "TooManyOptions"]


class TooManyOptions(ValueError):
    """A choice has more options than the encoding's option slots."""


def api_alternatives(o: Any) -> list[str]:
    """The names of the alternative costs and permissions ``o`` may be cast with through the API
    (:func:`solver.rules.casting_options.api_applies`), in printed order; disturb and more than meets the
    eye are its back face's slot."""
    return [a.name for a in alternatives_of(o) if api_applies(a) and a.name not in TRANSFORMED_CASTS]


def api_kicker(o: Any) -> bool:
    """Has ``o`` a kicker the API applies (one kicker cost, CR 702.33a; :func:`~solver.rules.casting_options.api_applies`)?"""
    k = kicker_of(o)
    return k is not None and api_applies(k)


def _printed_activated(card: Any) -> int:
    return sum(1 for a in card.abilities if ir.is_activated(a)) if card is not None else 0


def _selections(state: GameState, slot: tuple) -> list[tuple[int, ...]]:
    """The selections of modes the text of a head slot's spell or ability allows (CR 700.2;
    :func:`solver.rules.modes.selections`), sorted; [] when it is not modal (or has no spell or ability)."""
    if slot[0] in ("pass", "suspend", "pay_life", "modes"):
        return []
    card = state.obj(slot[1]).card
    if card is None:
        return []
    if slot[0] == "activate":
        acts = [a for a in card.abilities if ir.is_activated(a)]
        src: Any = acts[slot[2] - 1]
    elif slot[0] == "face":
        src = next((f.spell for f in faces_of(state.obj(slot[1])) if f.data.name == slot[2]), None)
    else:
        src = card.spell
    mc = modal_of(src) if src is not None else None
    return selections(mc) if mc is not None else []


class ActionEncoding:
    """The index space of one game (module docstring)."""

    def __init__(self, first: Any, max_options: int = 256):
        state: GameState = getattr(first, "state", first)
        cards = sorted((o for o in state.objects if o.card is not None and o.zone != "stack"), key=lambda o: o.id)
        self.cards: tuple[str, ...] = tuple(o.id for o in cards)
        self.max_options = max_options
        slots: list[tuple] = [("pass",)]
        slots += [("play", o.id) for o in cards]
        slots += [("face", o.id, f.data.name) for o in cards for f in faces_of(o)]
        slots += [("mode", o.id, name) for o in cards for name in api_alternatives(o)]
        slots += [("kicked", o.id, name) for o in cards if api_kicker(o) for name in ["", *api_alternatives(o)]]
        slots += [("buyback", o.id, name, k) for o in cards if buyback_of(o) is not None
                  for name in ["", *api_alternatives(o)] for k in ((0, 1) if api_kicker(o) else (0,))]
        slots += [("casualty", o.id, name) for o in cards if casualty_of(o) is not None
                  for name in ["", *api_alternatives(o)]]
        for o in cards:
            slots += [("activate", o.id, i) for i in range(1, _printed_activated(o.card) + 1)]

        slots += [("suspend", o.id) for o in cards if suspend_of(o) is not None]
        slots += [("pay_life", o.id, "") for o in cards
                  if o.card is not None and is_land_card(o) and life_choice(o.card.abilities)]
        slots += [("pay_life", o.id, f.data.name) for o in cards for f in faces_of(o)
                  if "Land" in f.data.types and pays_life_as_enters(f)]
        slots += [("modes", base, sel) for base in slots for sel in _selections(state, base)]
        self.first_option = len(slots)
        slots += [("option", m) for m in range(max_options)]
        self.slots: tuple[tuple, ...] = tuple(slots)
        self.index: dict[tuple, int] = {s: i for i, s in enumerate(slots)}

    @property
    def size(self) -> int:
        return len(self.slots)

    def describe(self, i: int) -> str:
        s = self.slots[i]
        return " ".join(str(x) for x in s)

    # -- heads and options --------------------------------------------------
    def encode_head(self, action: Any) -> int | None:
        """The index of an action head (pass, play_land / cast, activate; with its ``modes``), or None (no slot)."""
        if getattr(action, "modes", None):
            base = self.encode_head(action.with_(modes=None))
            return None if base is None else self.index.get(("modes", self.slots[base], action.modes))
        kind = action.kind
        if kind == "pass":
            return 0
        if kind == "play_land" and action.pay_life:
            return self.index.get(("pay_life", action.object, action.face or ""))
        if kind in ("play_land", "cast") and action.face is not None:
            return self.index.get(("face", action.object, action.face))
        if kind == "cast" and action.casualty:
            if action.kicked or action.buyback:
                return None
            return self.index.get(("casualty", action.object, action.alternative or ""))
        if kind == "cast" and action.buyback:
            return self.index.get(("buyback", action.object, action.alternative or "", 1 if action.kicked else 0))
        if kind == "cast" and action.kicked:
            return self.index.get(("kicked", action.object, action.alternative or ""))
        if kind == "cast" and action.alternative is not None:
            return self.index.get(("mode", action.object, action.alternative))
        if kind in ("play_land", "cast"):
            return self.index.get(("play", action.object))
        if kind == "activate":
            return self.index.get(("activate", action.object, action.index))
        if kind == "suspend":
            return self.index.get(("suspend", action.object))
        return None

    def mask(self, sit: Any, options: Sequence[Any] | None = None) -> Any:
        """1 at every legal index of ``sit`` (``options``: a completion choice in progress)."""
        import numpy as np

        m = np.zeros(self.size, dtype=np.int8)
        if options is not None or sit.decision is not None:
            n = len(options) if options is not None else sit.legal_actions.count()
            if n > self.max_options:
                raise TooManyOptions(f"{n} options; the encoding has {self.max_options} option slots")
            m[self.first_option:self.first_option + n] = 1
            return m
        if sit.is_terminal:
            return m
        for head in sit.legal_actions.heads():
            for c in sit.mode_heads(head.head):   # a modal head: each legal selection of modes (CR 700.2a)
                i = self.encode_head(head.with_(modes=c.modes or None))
                if i is not None:
                    m[i] = 1
        return m

    def decode(self, sit: Any, i: int, options: Sequence[Any] | None = None) -> Any:
        """The action head (or option) at index ``i``."""

        s = self.slots[i]
        if s[0] == "option":
            opts = list(options) if options is not None else list(sit.legal_actions)
            return opts[s[1]]
        if s[0] == "modes":
            return self.decode(sit, self.index[s[1]]).with_(modes=s[2])
        if s[0] == "pass":
            return Action("pass")
        if s[0] == "play":
            o = sit.state.obj(s[1])

            return Action("play_land" if is_land_card(o) else "cast", s[1])
        if s[0] == "face":
            face = face_of(sit.state.obj(s[1]), s[2])
            land = face is not None and "Land" in face.data.types
            return Action("play_land" if land else "cast", s[1], face=s[2])
        if s[0] == "mode":
            return Action("cast", s[1], alternative=s[2])
        if s[0] == "kicked":
            return Action("cast", s[1], alternative=s[2] or None, kicked=True)
        if s[0] == "buyback":
            return Action("cast", s[1], alternative=s[2] or None, kicked=True if s[3] else None, buyback=True)
        if s[0] == "casualty":
            return Action("cast", s[1], alternative=s[2] or None, casualty=True)
        if s[0] == "suspend":
            return Action("suspend", s[1])
        if s[0] == "pay_life":
            return Action("play_land", s[1], face=s[2] or None, pay_life=True)
        return Action("activate", s[1], s[2])


def completions(sit: Any, head: Any) -> list[Any]:
    """Every fully specified legal action extending ``head`` (targets × distinct
    payments, in the order of ``legal_actions``)."""

    if head.kind in ("pass", "play_land"):
        return [head]
    return list(sit.completions_of(head.head))


def _features(option: Any) -> dict[str, str]:
    """An option as flat features (path → canonical JSON value), for :class:`OptionPicker`."""
    import json

    data = option.choices if hasattr(option, "choices") and not hasattr(option, "payment") else option.to_json()
    out: dict[str, str] = {}

    def rec(prefix: str, v: Any) -> None:
        if isinstance(v, dict) and v:
            for k in sorted(v):
                rec(f"{prefix}/{k}", v[k])
        else:
            out[prefix or "/"] = json.dumps(v, sort_keys=True)

    rec("", data)
    return out


class OptionPicker:
    """Choosing one of many options through at most ``max_options`` slots at a time.

    With few options each slot is an option. With more, the choice is made
    feature by feature (for a declaration of blockers: blocker by blocker,
    what it blocks; for a payment: field by field): each step offers the
    distinct values of the next feature among the options still possible,
    until one option remains — every option stays reachable and no illegal
    one is ever offered."""

    def __init__(self, options: Sequence[Any], max_options: int):
        self.options = list(options)
        self.max_options = max_options
        self.left = list(range(len(self.options)))
        self.factored = len(self.options) > max_options
        self.feats = [_features(o) for o in self.options] if self.factored else []
        self._next: tuple[str, list[str | None]] | None = None

    def slots(self) -> list[str]:
        """Labels of the current slots (their number is the mask's count)."""
        if not self.factored:
            return [str(o) for o in self.options]
        key, values = self._step()
        return [f"{key} = {v}" for v in values]

    def _step(self) -> tuple[str, list[str | None]]:
        if self._next is None:
            keys = sorted({k for i in self.left for k in self.feats[i]})
            for k in keys:
                values = self._values(k)
                if len(values) > 1:
                    if len(values) > self.max_options:
                        k, values = self._by_element(k, values)
                    self._next = (k, values)
                    break
            else:  # pragma: no cover - distinct options always differ somewhere
                raise AssertionError("options with identical features")
        return self._next

    def _values(self, key: str) -> list[str | None]:
        return sorted({self._feature(i, key) for i in self.left}, key=lambda v: (v is None, v or ""))

    def _feature(self, i: int, key: str) -> str | None:
        """Option ``i``'s value of feature ``key``; ``path[j]``: element ``j`` of a list value (None past
        its end), so that a list with too many distinct values is chosen element by element."""
        if key.endswith("]") and "[" in key and key not in self.feats[i]:
            import json

            path, j = key[:key.rindex("[")], int(key[key.rindex("[") + 1:-1])
            raw = self.feats[i].get(path)
            items = json.loads(raw) if raw is not None else None
            return json.dumps(items[j], sort_keys=True) if isinstance(items, list) and j < len(items) else None
        return self.feats[i].get(key)

    def _by_element(self, key: str, values: list[str | None]) -> tuple[str, list[str | None]]:
        """A list-valued feature with more distinct values than slots (the cards a delve payment exiles):
        its first element position whose distinct values differ and fit the slots. Every option stays
        reachable: options agreeing on every element are the same list."""
        for j in range(max(len(v or "") for v in values)):
            sub = f"{key}[{j}]"
            vals = self._values(sub)
            if 1 < len(vals) <= self.max_options:
                return sub, vals
            if len(vals) > self.max_options:
                break
        raise TooManyOptions(f"{len(values)} values for {key}; {self.max_options} option slots")

    def pick(self, slot: int) -> Any | None:
        """Take slot ``slot``: the chosen option when it is decided, else None (narrowed)."""
        if not self.factored:
            return self.options[slot]
        key, values = self._step()
        v = values[slot]
        self.left = [i for i in self.left if self._feature(i, key) == v]
        self._next = None
        if len(self.left) == 1:
            return self.options[self.left[0]]
        return None

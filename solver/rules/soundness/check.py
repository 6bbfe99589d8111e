"""Soundness: what the project does not read, and which answers it could change (contract §2.0).

An answer is ``ok`` only when no part of the situation that the project does
not model could change it. This module finds every such part once per
situation and decides, for a given question, which of them block it.

**Unread parts.** Every object in every zone is examined: each
:class:`~solver.core.ir.Unsupported` ability of its card (a line or keyword not
read), each ``UnreadEffect`` inside an ability whose structure was
read (costs, timing and targets known, what it does not), a card face the
card database does not hold (split, adventure, modal double-faced …, CR 709,
712, 715), an unreadable printed cost; each entry of ``effects`` whose source
text is unread; each ability on the stack that is not modeled. On the
battlefield the abilities are those the object has *after* continuous effects
(CR 613), so an ability removed by Blood Moon cannot block anything.

**What a part affects** (``affects``, contract §2.0): ``costs`` (CR 601.2f),
``targets`` (CR 115, 702.11, 702.16, 702.18), ``timing`` (CR 117, 305,
601.3, 602.5), ``mana`` (CR 106, 605), ``replacement`` (CR 614, 615),
``triggers`` (CR 603), ``effect`` (what happens on resolution),
``characteristics`` (CR 613), ``combat`` (CR 506–511), ``unknown``. The
reader sets it when it knows (``Unsupported.affects``); otherwise it is
classified here from the ability's kind (CR 113.3) and its words. The
classification is conservative: words that could mean a category add it, and
a static ability matching no category affects ``unknown`` — everything.

**Where it functions** (CR 113.6): abilities of permanents work on the
battlefield; on other zones a part counts only when it is spell text (an
instant or sorcery's, or any card's on the stack), a missing face, or its
words say it works from there ("this spell", "from your graveyard",
cycling, flashback …).

**Whose choices it can reach** (``reach``): an activated ability is its
controller's action (``controller``) unless "any player may activate" it; a
card in a hidden or own zone reaches its owner's casting; a static ability
reaches ``controller`` when it speaks only of "you"/"your" things, ``opponents``
when only of opponents, else ``all``. Reach narrows only the categories that
are about a player's own choices (``costs``, ``timing``, ``mana``); who may be
targeted, characteristics, replacement effects and triggers reach everyone.

**The rule of reach per question** (:func:`relevant`):

========================  =====================================================
query                     blocking parts
========================  =====================================================
could_produce             ``mana``, ``characteristics``, ``unknown`` on the battlefield
available_mana, pay       ``mana``, ``costs``, ``timing``, ``characteristics``,
                          ``unknown`` reaching the player; for ``pay`` also the
                          subject's own ``costs``/``characteristics``
targets                   ``targets``, ``characteristics``, ``unknown`` (anyone);
                          the subject's own ``targets``
actions                   ``costs``, ``targets``, ``timing``, ``mana``,
                          ``characteristics``, ``unknown`` reaching the player
order                     ``replacement``, ``mana``, ``characteristics``, ``unknown``
resolve                   the top object's parts; anyone's ``triggers``,
                          ``replacement``, ``characteristics``, ``targets``, ``unknown``
attacks, blocks           ``combat``, ``costs``, ``characteristics``, ``unknown``
pass                      every part but spell text or faces in hidden zones and
                          activated abilities off the stack (passing casts and
                          activates nothing, CR 117.3d)
========================  =====================================================

Plus, always: an ``effects`` entry whose text is unread (``unknown``).
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any, Iterable

from ...core import ir
from ..characteristics import View
from ...core.card import Card
from ...core.state import GameObject, GameState
from .unread import (_ABILITIES, ability_parts, _keyword_item_reach, _printed, _unread_effects, AFFECTS, MULTI_FACE,
                     active as _active, card_parts,
                     casting_cost, counter_rule, striation_level,
                     classify, own_color_only, pt_or_combat_only, reach as _reach, self_cast,
                     sorted_affects as _sorted,
                     words as _words)
from .inert import inert_on_board
from ..modes import unchosen_unread
from ...core.state import opponent_lost_life

#: Layouts whose other face (or half) the card database does not hold.
@dataclass(frozen=True)
class UnreadPart:
    """One part of the situation the project does not model."""

    object: str                 # the object's id (for an ``effects`` entry: its source id or card name)
    text: str                   # as printed
    affects: tuple[str, ...]    # sorted in AFFECTS order
    zone: str                   # battlefield, hand, graveyard, library, exile, command, stack, effects
    controller: str             # controller (battlefield, stack) or owner (other zones)
    kind: str                   # activated, triggered, static, spell, keyword, rider, face, effect
    reach: str = "all"          # controller | opponents | all
    active: bool = True         # functions from its zone (CR 113.6)

    def reaches(self, player: str | None) -> bool:
        if player is None or self.reach == "all":
            return True
        return (self.controller == player) == (self.reach == "controller")


@dataclass(frozen=True)
class Scope:
    """The question asked: its kind, the player whose choices it is about, and its subject."""

    kind: str
    player: str | None = None
    subject: str | None = None       # the object cast / activated / on the stack


# ---------------------------------------------------------------------------
# Classification
# ---------------------------------------------------------------------------

def _reads_pt(filters: Iterable[object]) -> bool:
    return any(getattr(f, k, None) is not None for f in filters
               for k in ("power_min", "power_max", "toughness_min", "toughness_max", "total_pt_max"))


def _card_filters(card: object) -> list[object]:
    out = []
    spell = getattr(card, "spell", None)
    for t in getattr(spell, "targets", ()) or ():
        out.append(t.filter)
    for a in getattr(card, "abilities", ()):
        for t in getattr(a, "targets", ()) or ():
            out.append(t.filter)
    return out


def _crew_of(state: GameState, player: str | None) -> bool:
    """Does a permanent ``player`` controls have a crew ability read (CR 702.122a: its cost counts power)?"""
    return any(getattr(getattr(a, "cost", None), "crew", 0) for o in state.battlefield
               if o.controller == player and o.card is not None for a in o.card.abilities)


def _pt_matters(state: GameState, scope: "Scope", text: str = "", source: str | None = None) -> bool:
    """Whether a change of power or toughness could change the answer to ``scope``: a target filter
    that reads them, or a mana ability whose amount does (CR 107.3, 208)."""
    kind = scope.kind
    if kind == "could_produce":
        return False
    if "haste" in _words(text) and kind in ("available_mana", "pay", "actions", "action", "apply") and any(
            getattr(getattr(a, "cost", None), "tap", False) or getattr(getattr(a, "cost", None), "untap", False)
            for o in state.battlefield if o.controller == scope.player and o.card is not None
            and "Creature" in o.card.data.types and (source is None or not re.search(r"\bthis creature\b", _words(text))
                                                     or o.id == source)
            for a in o.card.abilities):
        return True                  # haste lets a creature pay {T} (CR 302.6)
    if kind in ("pay", "actions", "action", "apply") and _crew_of(state, scope.player):
        return True                  # crew taps creatures by their total power (CR 702.122a)
    if kind in ("available_mana", "pay"):
        for o in state.battlefield:
            for a in (o.card.abilities if o.card else ()):
                c = getattr(getattr(a, "produce", None), "count", None)
                if c is not None and ("power" in c.what or "toughness" in c.what or c.min_power is not None):
                    return True
        return False
    if kind == "targets":
        sub = state.find(scope.subject) if scope.subject else None
        return sub is None or sub.card is None or _reads_pt(_card_filters(sub.card))
    if kind in ("actions", "action", "apply"):
        own = [o for o in state.objects if o.card is not None and (
            (o.zone == "hand" and o.owner == scope.player) or (o.zone == "battlefield" and o.controller == scope.player))]
        return any(_reads_pt(_card_filters(o.card)) for o in own)
    return True


#: Words that read an object's color (CR 105.2): color words, "color(s)", devotion (CR 700.5) — once
#: mana "of any color" / "of that color" / "of the chosen color" (what mana is, CR 106.1b) is taken out.
_READS_COLOR = re.compile(r"\b(?:white|blue|black|red|green|colou?rs?|colorless|monocolored|multicolored|"
                          r"devotion)\b")
_MANA_COLOR = re.compile(r"\bmana of (?:any (?:one )?|that |the chosen |one )colou?r\b|\bany combination of colou?rs\b"
                         r"|\bof any (?:one )?colou?r\b|\bmana of any of\b")


def _reads_color(text: str) -> bool:
    return bool(_READS_COLOR.search(_MANA_COLOR.sub(" ", _words(text))))


def _color_matters(state: GameState, part: "UnreadPart") -> bool:
    """Whether some text of the situation other than ``part`` itself reads colors (protection, "a blue
    card", "colorless Eldrazi spells", color counts, devotion, CR 105.2, 702.16, 106.6) — the only
    things an unread part about an object's own color can change (:func:`.unread.own_color_only`).
    Conservative: any such word of any card in any zone, or of an ``effects`` entry, counts."""
    def readers() -> frozenset[tuple[str, str]]:
        out: set[tuple[str, str]] = set()
        cards = [(o.id, o.card) for o in state.objects if o.card is not None]
        cards += [(e.card.name, e.card) for e in state.effects if e.card is not None]
        for oid, card in cards:
            for line in card.data.text.split("\n"):
                if _reads_color(line):
                    out.add((oid, line.strip()))
        return frozenset(out)
    return any(not (oid == part.object and line == part.text.strip())
               for oid, line in state.memo("color_readers", readers)) or bool(state.effects and any(
                   e.card is None for e in state.effects))


_COMMAND_ZONE_WORDS = re.compile(r"\bcommand zone\b|\beminence\b|\bpartner\b|\bcan be your commander\b"
                                 r"|\bbackground\b|\bcommander\b")


#: Card types of permanents (CR 110.4): such a card in the command zone is not a permanent.
_PERMANENT_TYPES = frozenset({"Artifact", "Creature", "Enchantment", "Land", "Planeswalker", "Battle"})


def _object_parts(o: GameObject, view: View | None) -> list[UnreadPart]:
    card = o.card
    if card is None:
        return []
    # a card in exile its permitted player may play (object key may_play, CR 611.2a) is cast or played as from a
    # hand: its unread parts are classified as a hand card's, reaching that player
    permitted = o.zone == "exile" and o.may_play is not None
    zone = "hand" if permitted else o.zone
    abilities = view.chars(o.id).abilities if zone == "battlefield" and view is not None else card.abilities
    own = card.abilities
    if abilities is own or abilities == own:
        # the card's own abilities: classified once per card and zone (cards are immutable and shared)
        rows = card.memo.get(("unread", zone), lambda: _rows(card, own, zone))
    elif abilities[:len(own)] == own:
        # its own abilities and some gained (a basic land type's mana ability, CR 305.6; an Equipment's grant):
        # each gained ability classified once per card, zone and ability object
        rows = card.memo.get(("unread", zone), lambda: _rows(card, own, zone)) + [
            r for a in abilities[len(own):] for r in _gained_rows(card, a, zone)]
    else:
        rows = _rows(card, abilities, zone)
    if not rows:
        return []
    who = o.may_play.player if o.may_play is not None and permitted else \
        o.controller if zone in ("battlefield", "stack") else o.owner
    types = tuple(card.data.types)
    if zone == "command" and (o.commander or set(types) & _PERMANENT_TYPES):
        # a commander card (or any permanent card) in the command zone is no permanent: its abilities work
        # there only if they say so (CR 113.6, 903.3; eminence, partner, "can be your commander") — a
        # plane's, scheme's or conspiracy's do work there (CR 901, 904, 905)
        rows = [(text, kind, affects, reach, act and bool(_COMMAND_ZONE_WORDS.search(_words(text))))
                for text, kind, affects, reach, act in rows]
    if zone == "battlefield" and view is not None:
        rows = [(text, kind, affects, reach, act and not (kind == "static" and inert_on_board(view, o, text)))
                for text, kind, affects, reach, act in rows]
    if zone == "stack" and o.modes is not None and card.spell is not None and card.spell.modes:
        # a modal spell on the stack does what its chosen modes do (CR 700.2a, 601.2b): another mode's unread
        # effect is no part of it
        drop = unchosen_unread(card.spell.modes, o.modes)
        rows = [r for r in rows if not (r[1] == "spell" and r[0] in drop)]
    if "LEVEL " in card.data.text:
        # a leveler's striation holds only on a permanent with that many level counters (CR 711.2b); a card
        # elsewhere has none
        rows = [(text, kind, affects, reach, act and _striation_holds(o, card.data.text, text))
                for text, kind, affects, reach, act in rows]
    return [UnreadPart(o.id, text, affects, zone, who, kind, reach, act) for text, kind, affects, reach, act in rows]


def _rows(card: Card, abilities: Any, zone: str) -> list[tuple[str, str, Any, Any, bool]]:
    """The unread parts of ``card`` with ``abilities`` in ``zone``: (text, kind, affects, reach, active)."""
    return _classified(card, card_parts(card, abilities, zone), zone)


def _classified(card: Card, parts: Iterable[tuple[str, str, Any]], zone: str) -> list[tuple[str, str, Any, Any, bool]]:
    """Unread parts ``(text, kind, affects)`` of ``card`` with their reach and whether they act in ``zone``."""
    types = tuple(card.data.types)
    return [(text, kind, _sorted(affects), _reach(text, kind, zone), _active(text, kind, zone, types, card.name))
            for text, kind, affects in parts]


def _gained_rows(card: Card, a: Any, zone: str) -> list[tuple[str, str, Any, Any, bool]]:
    """:func:`_rows` of one ability the card's object gained, memoized per card, zone and ability object
    (the memo holds the ability, so its id names it for as long as the entry lives)."""
    def rows() -> tuple[Any, list[tuple[str, str, Any, Any, bool]]]:
        return a, _classified(card, ability_parts(card, a, zone), zone)
    held, out = card.memo.get(("unread-gained", zone, id(a)), rows)
    return out if held is a else rows()[1]


def _striation_holds(o: GameObject, card_text: str, text: str) -> bool:
    """Whether an unread line of a leveler can function: not in a striation, or one whose level counters
    the permanent has (CR 711.2b)."""
    need = striation_level(card_text, text)
    return need is None or (o.zone == "battlefield" and o.counter("level") >= need)


def _stack_ability_parts(state: GameState, o: GameObject) -> list[UnreadPart]:
    """An ability on the stack (contract §1 ``ability``) whose source ability is not modeled."""
    if o.ability is None:
        return []
    src = state.find(o.ability.source)
    card = None if src is None else src.card
    if card is None:
        return []
    if o.ability.index < 1 or o.delayed:   # a delayed ability's instructions are read whole (CR 603.7)
        return []
    # the n-th triggered or activated ability in printed order (contract §1 ``ability``), as the
    # transition engine numbers it (solver/engine/transition.py ``ability_of``)
    numbered = ir.numbered_abilities(card.abilities)
    if len(numbered) < o.ability.index:
        return []
    a = numbered[o.ability.index - 1]
    if isinstance(a, ir.Unsupported):
        return [UnreadPart(o.id, _printed(a), _sorted({"effect", "targets"}), "stack", o.controller, "ability")]
    modes: tuple[ir.Mode, ...] = getattr(a, "modes", ()) or ()
    drop = unchosen_unread(modes, o.modes) if o.modes is not None and modes else frozenset()
    return [UnreadPart(o.id, text, ("effect",), "stack", o.controller, "ability") for _, text in _unread_effects(a)
            if text not in drop]   # a modal ability: only its chosen modes' unread effects (CR 700.2a)


def _effect_entry_parts(state: GameState) -> list[UnreadPart]:
    out = []
    for e in state.effects:
        if e.card is not None:
            texts = [_printed(u) for u in e.card.unsupported]
            if e.card.spell is not None:
                texts += [t for _, t in _unread_effects(e.card.spell)]
                if any(isinstance(d, ir.DelayedCast) for d in ir.delayed_in(e.card.spell.effects)):
                    # a "whenever you cast … this turn" ability is a ``delayed`` record, not an effect in force
                    # (CR 603.7): as an entry, what it does is not modeled
                    texts.append(e.card.data.text)
            if {"Instant", "Sorcery"} & set(e.card.data.types) and e.card.spell is None and not texts:
                texts = [e.card.data.text]
            name = e.card.name
            for t in texts:
                out.append(UnreadPart(_effect_source_id(state, name), t, ("unknown",), "effects", e.controller,
                                      "effect"))
        elif e.ability is not None:
            src = state.find(e.ability.source)
            if src is not None and src.card is not None:
                numbered = ir.numbered_abilities(src.card.abilities)
                acts = [a for a in src.card.abilities if ir.is_activated(a)]
                a = acts[e.ability.index - 1] if 0 < e.ability.index <= len(acts) else None
                if a is None and 0 < e.ability.index <= len(numbered):
                    a = numbered[e.ability.index - 1]
                if isinstance(a, ir.Unsupported):
                    out.append(UnreadPart(src.id, _printed(a), ("unknown",), "effects", e.controller, "effect"))
                elif a is not None:
                    # a modeled ability whose effect is (partly) unread: the effect in force is unread too
                    for _, text in _unread_effects(a):
                        out.append(UnreadPart(src.id, text, ("unknown",), "effects", e.controller, "effect"))
    return out + _unrecorded_x_parts(state)


def _unrecorded_x_parts(state: GameState) -> list[UnreadPart]:
    """An effect in force with "+X/+X" whose X the entry does not record (key ``x``, CR 608.2h): its
    size is unknown, so it is an unread part of everything it could change."""
    out: list[UnreadPart] = []
    if all(e.x is not None for e in state.effects):
        return out
    view = View(state)
    for e in state.effects:
        if e.x is not None:
            continue
        src, effs = view.entry_effects(e)
        if any(isinstance(x, (ir.Pump, ir.GroupPump)) and x.x is not None for x in effs):
            out.append(UnreadPart(src, "the value of X of an effect in force is not recorded "
                                  "(effects entry key x, CR 608.2h)", ("unknown",), "effects", e.controller, "effect"))
    return out


def _effect_source_id(state: GameState, name: str) -> str:
    return name


def _unknown_condition_parts(state: GameState) -> list[UnreadPart]:
    """Casting options read from a card whose condition the situation does not record: spectacle
    (CR 702.137a: "if an opponent lost life this turn") when no opponent of the card's owner is
    recorded as having lost life this turn and some opponent's ``life_lost_this_turn`` is absent.
    The option's printed line is then an unread part about what may be cast (``timing``): the
    payments of a mode don't depend on it (the ``pay`` query doesn't check conditions)."""

    out: list[UnreadPart] = []
    for o in state.objects:
        if o.card is None or o.zone in ("battlefield", "stack"):
            continue
        for a in o.card.abilities:
            if not isinstance(a, ir.AlternativeCost) or a.condition != "opponent_lost_life":
                continue
            if opponent_lost_life(state, o.owner) is not None:
                continue
            types = tuple(o.card.data.types)
            kind = "spell" if {"Instant", "Sorcery"} & set(types) else "static"
            text = a.text or a.name
            out.append(UnreadPart(o.id, text, ("timing",), o.zone, o.owner, kind, "controller",
                                  _active(text, kind, o.zone, types, o.card.name)))
    return out


def unread_parts(state: GameState, view: View | None = None) -> tuple[UnreadPart, ...]:
    """Every unread part of the situation, in object order (once per state)."""
    def collect() -> tuple[UnreadPart, ...]:
        v = view or View.of(state)
        out: list[UnreadPart] = []
        for o in state.objects:
            if o.card is not None:
                out.extend(_object_parts(o, v))
            elif o.zone == "stack":
                out.extend(_stack_ability_parts(state, o))
        out.extend(_effect_entry_parts(state))
        out.extend(_unknown_condition_parts(state))
        return tuple(out)
    return state.memo("unread_parts", collect)


# ---------------------------------------------------------------------------
# The rule of reach
# ---------------------------------------------------------------------------

_OWN_CHOICES = frozenset({"costs", "timing", "mana"})
# a cost change that names only spells' costs ("Each spell a player casts costs {1} more to cast …")
_SPELL_COST_ONLY = re.compile(r"^(?:[\w' ]*\bspells?\b[^.]*?\bcosts? (?:\{[^}]*\}|x) (?:more|less) to cast\b)(?![^.]*\bactivat)")

#: For each query kind: the categories that can change its answer.
QUERY_AFFECTS: dict[str, frozenset[str]] = {
    "could_produce": frozenset({"mana", "characteristics", "unknown"}),
    "available_mana": frozenset({"mana", "costs", "timing", "characteristics", "unknown"}),
    "pay": frozenset({"mana", "costs", "timing", "characteristics", "unknown"}),
    "targets": frozenset({"targets", "characteristics", "unknown"}),
    "actions": frozenset({"costs", "targets", "timing", "mana", "characteristics", "unknown"}),
    "order": frozenset({"replacement", "mana", "characteristics", "unknown"}),
    "resolve": frozenset({"triggers", "replacement", "characteristics", "targets", "unknown"}),
    "attacks": frozenset({"combat", "costs", "characteristics", "unknown"}),
    "blocks": frozenset({"combat", "costs", "characteristics", "unknown"}),
    "pass": frozenset(AFFECTS),
    # one fully specified action: is it legal (``action``), and what follows it (``apply``)
    "action": frozenset({"costs", "targets", "timing", "mana", "characteristics", "unknown"}),
    "apply": frozenset({"costs", "targets", "timing", "mana", "characteristics", "unknown", "triggers",
                        "replacement"}),
}


_HIDDEN = frozenset({"hand", "library", "graveyard", "exile"})
#: Words of a card's text that can act in a hidden zone without the card being cast (CR 113.6b–k).
_HIDDEN_WORK = re.compile(r"\bthis card\b|\bdiscard (?:this|~)|\bmadness\b|\bcycl|\breveal (?:this|~)\b"
                          r"|\bopening hand\b|\bmiracle\b|\bsuspend\b|\bforetell|\bplot\b|\bwarp\b|\bchannel\b"
                          r"|\bninjutsu\b")
# (an instant's or sorcery's own words — "Whenever you cast … this turn, …", "Draw three cards, then put two
# cards from your hand …" — are instructions: they act once it resolves; its triggered abilities are parts
# of kind ``triggered``, judged by their own rule)


#: Words of a permanent spell's static ability that can function on the stack: about the spell or its
#: casting (CR 113.6c-d), how it enters (CR 614.1c), characteristic-defining (CR 604.3, 113.6a).
_STACK_WORDS = re.compile(r"\bthis spell\b|\bcast\b|\bcountered\b|\bcop(?:y|ies)\b|\benter|\bescape"
                          r"|\bcolou?r|\bpower\b|\btoughness\b|\bevery\b|\bchangeling\b|\bdevoid\b|\bflash\b"
                          r"|\bsplit second\b|\bas though\b|\bstack\b|\bmana value\b|\bname|\btype|\btarget"
                          r"|\bspells?\b|\bcost")


#: Words of a card's way to be cast that can act without it being cast, as a step begins (CR 702.94a miracle:
#: drawn; 702.35a madness: discarded; 702.52a dredge: a draw replaced; 702.62a suspend).
_PASS_REACHES_HIDDEN = re.compile(r"\bmiracle\b|\bmadness\b|\bsuspend\b|\bdredge\b|\bdiscard|\breveal|\bdraw")


def _permanent_spell(state: GameState, oid: str) -> bool:
    """Is ``oid`` a permanent card on the stack (not an instant or sorcery, not an ability)?"""
    o = state.find(oid)
    return o is not None and o.zone == "stack" and o.card is not None and \
        not ({"Instant", "Sorcery"} & set(o.card.data.types))


def _top_of_stack(state: GameState) -> str | None:
    stack = state.zone("stack")
    return stack[0].id if stack else None


def _pass_stage(state: GameState) -> str:
    """What passing now does (CR 117.3d, 117.4): ``priority`` — another player still to pass gets
    priority, nothing else happens; ``resolve`` — everyone has passed, the top of the stack
    resolves; ``step`` — everyone has passed with an empty stack, the step ends."""
    passed = set(state.turn.passed) | ({state.priority} if state.priority else set())
    if any(pid not in passed for pid in (p.id for p in state.players if not p.lost)):  # alive (CR 104.2a)
        return "priority"
    return "resolve" if state.zone("stack") else "step"


def _may_trigger_at_step_end(state: GameState, part: UnreadPart) -> bool:
    from .step_reach import may_trigger_at_step_end
    from .trigger_reach import _read_trigger

    found, trig = _read_trigger(state, part.object, part.text)
    if isinstance(trig, ir.StepTrigger):  # a read step trigger: only as its step begins (CR 603.2b)
        from .step_reach import steps_entered

        return trig.step in steps_entered(state)
    if found:
        return trig is None or may_trigger_at_step_end(state, part.text, type(trig))
    return may_trigger_at_step_end(state, part.text)


def _trigger_shaped(text: str) -> bool:
    """Words of a triggered ability (CR 603.1): "When/Whenever/At …"."""
    return _words(text).startswith(("when ", "whenever ", "at the beginning", "at end of"))


def _keyword_trigger(text: str) -> bool:
    """A keyword that is a triggered ability whose event :mod:`solver.rules.soundness.trigger_reach` knows (cascade, …)."""
    from .trigger_reach import _KEYWORD_EVENTS

    w = _words(text).replace("—", " ").split()
    return bool(w) and (w[0] in _KEYWORD_EVENTS or " ".join(w[:2]) in _KEYWORD_EVENTS)


def _may_act_at_step_end(state: GameState, part: UnreadPart) -> bool:
    """Parts other than triggers that can't act as the step ends and the next begins (CR 500.2):
    a mana ability's rider (no mana ability is activated), a card's "this spell" text in a hidden
    zone (it works on the stack), "doesn't untap during … untap step" unless an untap step begins
    (CR 502.3)."""
    from .step_reach import steps_entered

    w = _words(part.text)
    if part.kind == "rider" and part.zone != "stack":
        return False
    if (part.zone == "effects" and _trigger_shaped(part.text)) or \
            (part.kind in ("static", "keyword") and _keyword_trigger(part.text)):
        from .step_reach import may_trigger_at_step_end

        if not may_trigger_at_step_end(state, part.text):
            return False             # a delayed or keyword trigger whose event can't happen then
    if part.zone in _HIDDEN and part.kind in ("static", "keyword") and re.search(r"\bthis spell\b", w):
        return False
    if part.zone == "battlefield" and part.kind == "static" and re.search(r"\bdoesn't untap during\b", w) \
            and set(part.affects) <= {"replacement"} and "untap" not in steps_entered(state):
        return False
    if part.kind == "static" and set(part.affects) <= {"replacement", "effect"} and (
            re.search(r"\bcan't be countered\b", w) or (re.search(r"\benters?\b", w) and not re.search(
                r"\buntap step\b|\bdraw\b|\bdamage\b|\bdies\b|\bdiscard", w))):
        return False                 # how permanents enter, or spells being countered: neither happens then
    if part.kind in ("static", "keyword") and set(part.affects) <= {"combat"} and not (
            set(steps_entered(state)) & {"declare_attackers", "declare_blockers", "first_strike_damage",
                                         "combat_damage"}):
        return False                 # a combat rule, and no declaration or combat damage comes (CR 506–510)
    return True


def _pass_decides(part: UnreadPart, scope: Scope, state: GameState) -> bool | None:
    """What passing does decides whether ``part`` matters (CR 117.3d, 117.4), or None: the rest of
    :func:`relevant` decides."""
    stage = _pass_stage(state)
    if stage == "priority":      # CR 117.3d: the next player receives priority, nothing else changes —
        return part.active and bool(re.search(r"\bpriority\b", _words(part.text)))  # unless it says so
    if stage == "resolve":       # CR 117.4: the top of the stack resolves, as the resolve question
        return relevant(part, Scope("resolve", scope.player, scope.subject), state)
    if part.kind == "triggered" and part.zone != "effects" and not _may_trigger_at_step_end(state, part):
        return False             # its event can't happen as the step ends (solver/rules/soundness/step_reach.py)
    if not _may_act_at_step_end(state, part):
        return False
    return None


def _may_act_in_resolution(part: UnreadPart, state: GameState, on_top: bool) -> bool:
    """Rules of ``resolve`` by what a part is: a permanent's activated ability (or its rider) acts once
    activated, not as something resolves; "doesn't untap during … untap step" waits for an untap
    step; a keyword trigger (cascade) or the resolving permanent's own trigger acts only if its event
    can happen now (solver/rules/soundness/trigger_reach.py)."""
    if part.kind in ("activated", "rider") and (
            part.zone != "stack" or (on_top and _permanent_spell(state, part.object))):
        return False
    if part.kind == "static" and set(part.affects) <= {"replacement"} and re.search(
            r"\b(?:doesn't|don't) untap during\b", _words(part.text)) and not re.search(r"\benters?\b",
                                                                                     _words(part.text)):
        return False                 # no untap step comes during a resolution (CR 502.3)
    if (part.kind in ("static", "keyword") and _keyword_trigger(part.text)) or (
            on_top and part.kind == "triggered" and _permanent_spell(state, part.object)):
        from .trigger_reach import may_trigger

        return may_trigger(state, part.object, part.zone, part.text)
    return True


#: What each keyword of :data:`.unread.KEYWORD_REACH` waits for (CR 702): the event families of a
#: resolution (:func:`.trigger_reach.produced_events`) and the steps (:func:`.step_reach.steps_entered`)
#: in which it can act; ``actions``: it is an action of its controller (activated, or a way to cast the
#: card); ``apply``: applying one action can make it act (a pass may end a step and begin the next).
_KEYWORD_ACTS: dict[str, tuple[frozenset[str], frozenset[str], bool, bool]] = {
    name: (frozenset(events.split()), frozenset(steps.split()), action, apply)
    for name, events, steps, action, apply in (
        ("crew", "", "", True, False), ("level up", "", "", True, False), ("unearth", "", "", True, False),
        ("morph", "", "", True, False), ("megamorph", "", "", True, False), ("disguise", "", "", True, False),
        ("foretell", "", "", True, False),
        ("prowess", "cast", "", False, True),                       # 702.108a: a noncreature spell cast
        ("cumulative upkeep", "", "upkeep", False, True),          # 702.24a: at the beginning of the upkeep
        ("echo", "", "upkeep", False, True),                        # 702.30a
        ("partner with", "", "", False, False),                     # 702.124j: it entered already
        ("madness", "discard", "cleanup", False, True),             # 702.35a: when discarded
        ("station", "", "", True, False), ("saddle", "", "", True, False), ("offspring", "", "", True, False),
        ("bloodthirst", "", "", False, False), ("ascend", "", "", False, False),
        ("firebending", "attack", "declare_attackers", False, True),
    )
}


def _keyword_name(text: str) -> str | None:
    w = _words(text)
    for name in sorted(_KEYWORD_ACTS, key=len, reverse=True):
        if w.startswith(name) or f", {name}" in w:
            return name
    return None


def _keyword_relevant(part: UnreadPart, scope: Scope, state: GameState) -> bool | None:
    """Whether a keyword of CR 702 with an exact reach (:data:`.unread.KEYWORD_REACH`) could change the
    answer to ``scope``; None when the part is no such keyword. An action (crew, unearth, casting face
    down) changes what its controller may do and that action's own questions only; a trigger or a
    replacement changes only what its event can reach: a resolution causing it, a step beginning in
    which it acts (CR 117.3d: passing to a player still to pass changes nothing), or applying an
    action."""
    if part.zone in ("stack", "effects") or _keyword_item_reach(part.text) is None:
        return None
    name = _keyword_name(part.text)
    if name is None:
        return None
    if not part.active:
        return False
    events, steps, action, apply = _KEYWORD_ACTS[name]
    kind, own = scope.kind, scope.subject is not None and scope.subject == part.object
    if kind == "actions":
        return action and part.controller == scope.player
    if kind in ("action", "pay", "targets"):
        return action and own
    if kind == "apply":
        return (action and own) or apply
    if kind == "pass":
        stage = _pass_stage(state)
        if stage == "priority":
            return False
        if stage == "step":
            from .step_reach import step_events, steps_entered

            entered = steps_entered(state)
            return bool(steps & set(entered)) or bool(events & step_events(entered) - {"step"})
        kind = "resolve"
    if kind == "resolve":
        from .trigger_reach import produced_events

        produced = produced_events(state)
        return bool(events) and (produced is None or bool(events & produced))
    return False                     # mana, attacks, blocks, order: none of these keywords reaches them


def _own_part_blocks(part: UnreadPart, scope: Scope, state: GameState, hit: set[str]) -> bool:
    """Whether a part of the object cast or activated changes the answer to its own ``pay``, ``targets``
    or ``actions`` question."""
    kind = scope.kind
    if kind == "pay" and self_cast(part.text) and not casting_cost(part.text):
        return False             # cycling, channel …: another action of the card, not its casting cost
    mine = {"pay": {"costs", "characteristics", "mana", "unknown"},
            "targets": {"targets", "characteristics", "unknown"}}.get(kind, hit)
    got = set(part.affects) & mine
    if got == {"characteristics"} and pt_or_combat_only(part.text) \
            and not _pt_matters(state, scope, part.text, part.object):
        return False             # its own power/toughness, and nothing asked reads them (as for actions)
    return bool(got)


def _decided_by_kind(part: UnreadPart, scope: Scope, state: GameState) -> bool | None:
    """What a part's kind alone decides, before the general rule: its own color where nothing reads colors
    (CR 105.2), a keyword of exact reach (:func:`_keyword_relevant`), a rule that spells can't be countered
    as something resolves (only a resolution that counters, CR 701.6a); None otherwise."""
    if set(part.affects) <= {"characteristics"} and own_color_only(part.text) and not _color_matters(state, part):
        return False                 # the object's own color, and nothing here reads a color (CR 105.2)
    by_keyword = _keyword_relevant(part, scope, state)
    if by_keyword is not None:
        return by_keyword
    if _land_entry_choice(part, scope, state):
        return True
    if part.kind == "static" and scope.kind == "resolve" and counter_rule(part.text) and part.active \
            and set(part.affects) <= {"effect", "replacement", "targets"}:
        from .trigger_reach import produced_events

        produced = produced_events(state)
        return produced is None or "countered" in produced
    return None


_ENTRY_CHOICE = re.compile(r"^as (?:this land|this permanent|~|[^,.]+) enters(?: the battlefield)?, you may\b")


def _land_entry_choice(part: UnreadPart, scope: Scope, state: GameState) -> bool:
    """An unread "As this land enters, you may …" of a land card in its owner's hand: its choice is part
    of the play-land action (CR 614.12; read, the shock lands' ``pay_life``), so it can change the
    owner's ``actions`` and playing that land (``action``/``apply``)."""
    if part.kind != "static" or part.zone != "hand" or scope.player not in (None, part.controller):
        return False
    if scope.kind not in ("actions", "action", "apply") or (scope.kind != "actions" and part.object != scope.subject):
        return False
    o = state.find(part.object)
    return o is not None and o.card is not None and "Land" in o.card.data.types \
        and bool(_ENTRY_CHOICE.search(_words(part.text)))


def relevant(part: UnreadPart, scope: Scope, state: GameState) -> bool:
    """Whether ``part`` could change the answer to the question ``scope`` (module docstring)."""
    decided = _decided_by_kind(part, scope, state)
    if decided is not None:
        return decided
    if scope.kind == "pass":
        decided = _pass_decides(part, scope, state)
        if decided is not None:
            return decided
    if not part.active:
        return False
    if part.zone == "effects":
        if scope.kind == "resolve" and _trigger_shaped(part.text):
            from .trigger_reach import may_trigger

            return may_trigger(state, part.object, part.zone, part.text)   # a delayed trigger (CR 603.7)
        return True                  # an effect in force whose text is unread: anything
    kind, player = scope.kind, scope.player
    hit = set(part.affects) & QUERY_AFFECTS.get(kind, frozenset(AFFECTS))
    if kind == "available_mana" and hit == {"costs"} and _SPELL_COST_ONLY.search(_words(part.text)):
        return False                 # what casting a spell costs (CR 601.2f) is no cost of a mana ability (CR 605)
    own = scope.subject is not None and part.object == scope.subject
    on_top = part.zone == "stack" and part.object == _top_of_stack(state)
    if part.zone == "stack" and part.kind in ("static", "keyword", "activated") \
            and _permanent_spell(state, part.object) and not _STACK_WORDS.search(_words(part.text)):
        # a permanent spell's abilities function once it is a permanent (CR 113.6): on the stack they
        # matter only as it resolves (resolving it, or passing with it on top) — its activated ones
        # not even then: they act once activated (CR 602.1)
        return kind in ("resolve", "pass") and on_top and _may_act_in_resolution(part, state, on_top)
    if kind == "pass":
        # passing casts nothing and activates nothing (CR 117.3d, 500.2): a card's own spell text or
        # other face off the stack, and an activated ability not on the stack, act only once cast or
        # activated — unless the words say they work from a hidden zone (discarded in cleanup,
        # madness, revealed, …), which passing can reach
        if part.zone in _HIDDEN and part.kind in ("spell", "face") and not _HIDDEN_WORK.search(_words(part.text)):
            return False
        if part.zone in _HIDDEN and part.kind == "rider":
            return False             # a rider of an ability that acts only once activated
        if part.zone in _HIDDEN and part.kind in ("static", "keyword") and self_cast(part.text) \
                and not _PASS_REACHES_HIDDEN.search(_words(part.text)):
            return False             # a way to cast the card (warp, plot, disturb …): passing casts nothing —
            #                          unless it acts as the card is drawn, discarded or revealed (miracle …)
        if part.zone != "stack" and part.kind == "activated":
            return False
        return True
    if kind in ("action", "apply"):
        if part.object != scope.subject and part.kind in ("activated", "spell", "face"):
            return False             # another card's ability or text is another action, not this one
        if part.kind == "triggered":
            if part.object != scope.subject and _words(part.text).startswith("when you cycle"):
                return False         # CR 702.29c: only cycling that very card triggers it
            return kind == "apply" and bool(set(part.affects) & {"triggers", "mana"})
        kind = "actions"             # otherwise as the actions question
        hit = set(part.affects) & (QUERY_AFFECTS["apply"] if scope.kind == "apply" else QUERY_AFFECTS["action"])
        if hit & {"triggers", "replacement"}:
            return True
    if kind == "resolve" and not _may_act_in_resolution(part, state, on_top):
        return False
    if kind == "resolve" and on_top:
        return True                  # the resolving object itself: all of it
    if kind == "resolve" and part.zone in _HIDDEN and part.kind in ("static", "keyword") \
            and re.search(r"\bthis spell\b", _words(part.text)):
        return False                 # about the card as a spell: it functions on the stack (CR 113.6c), not here
    if kind == "resolve" and part.kind == "triggered" and part.zone != "effects":
        from .trigger_reach import may_trigger

        if not may_trigger(state, part.object, part.zone, part.text):
            return False             # its event can't happen while the top resolves (CR 603.2)
    if self_cast(part.text) and part.kind not in ("spell", "face", "triggered") and not own:
        # about casting this card itself: its owner's actions only
        return scope.kind in ("actions", "pass") and part.controller == player and bool(
            set(part.affects) & QUERY_AFFECTS["actions"])
    if own and kind in ("pay", "targets", "actions"):
        return _own_part_blocks(part, scope, state, hit)
    if not own and part.kind in ("activated", "triggered", "spell", "face") and kind != "resolve" \
            and not (kind == "actions" and part.controller == player and part.zone != "stack"
                     and part.kind != "triggered"):
        # another object's ability or spell text: its own targets and effect are its own business; only
        # whether it is an action of this player (timing) or makes mana can change this answer
        hit &= {"timing", "mana"} if part.kind != "triggered" else {"mana"}
    if kind in ("available_mana", "pay") and hit & {"timing"} and part.kind not in ("activated",) \
            and not _ABILITIES.search(_words(part.text)):
        hit -= {"timing"}            # when spells may be cast or lands played doesn't change what can be paid
    if kind == "available_mana" and hit & {"costs", "timing"} and not _ABILITIES.search(_words(part.text)):
        hit -= {"costs", "timing"}   # about spells only: mana abilities are not cast (CR 605.3a)
    if "characteristics" in hit and kind not in ("resolve", "attacks", "blocks", "pass") \
            and pt_or_combat_only(part.text) and not _pt_matters(state, scope, part.text, part.object):
        hit.discard("characteristics")   # power/toughness and combat keywords: nothing here reads them
    if not hit:
        return False
    if part.kind in ("spell", "face") and part.zone != "stack":
        # a card's own spell text or other face: it matters only when its owner casts or plays it
        return kind == "actions" and part.controller == player
    if part.zone == "stack":
        # another object on the stack: its statics (split second), its characteristics as a target
        return kind in ("actions", "targets", "resolve") and bool(hit - {"triggers"}) or (
            kind == "resolve" and "triggers" in hit)
    if part.kind == "triggered":
        return kind == "resolve" or bool(hit - {"triggers"})
    if kind in ("could_produce", "order", "attacks", "blocks", "targets", "resolve"):
        return part.zone == "battlefield" or part.zone == "command" or bool(hit - _OWN_CHOICES)
    # actions, available_mana, pay: one player's own choices; costs / timing / mana narrow by reach
    if part.kind == "activated":
        if not part.reaches(player):
            return False             # another player's ability: an action of theirs, mana of theirs
        if kind != "actions" and "mana" not in part.affects:
            return False             # a non-mana activated ability pays for nothing
        return True
    if hit <= _OWN_CHOICES and not part.reaches(player):
        return False
    if part.zone not in ("battlefield", "command") and part.controller != player and hit <= _OWN_CHOICES:
        return False
    return True


def blocking(state: GameState, scope: Scope, view: View | None = None) -> list[UnreadPart]:
    """The unread parts that could change the answer to ``scope`` (contract §2.0), deduplicated."""
    seen: set[tuple[str, str]] = set()
    out: list[UnreadPart] = []
    for p in unread_parts(state, view):
        if relevant(p, scope, state) and (p.object, p.text) not in seen:
            seen.add((p.object, p.text))
            out.append(p)
    return out


def scope_of(state: GameState, query: dict) -> Scope:
    """The scope of a contract §2 query mapping (the query is already validated by its kind's code)."""
    kind = str(query.get("kind"))
    player = query.get("player")
    subject = None
    for key in ("cast", "spell", "suspend"):
        if isinstance(query.get(key), str):
            subject = query[key]
    for key in ("activate", "trigger"):
        v = query.get(key)
        if isinstance(v, dict) and isinstance(v.get("object"), str):
            subject = v["object"]
    if isinstance(query.get("subject"), str):
        subject = query["subject"]
    if kind == "order":
        ev = query.get("event")
        if isinstance(ev, dict) and isinstance(ev.get("object"), str):
            subject = ev["object"]
    if not isinstance(player, str):
        if kind in ("attacks",):
            player = state.turn.active
        elif kind == "targets" and subject is not None and state.find(subject) is not None:
            o = state.obj(subject)
            player = o.controller if o.zone in ("battlefield", "stack") else o.owner
        else:
            player = state.priority
    return Scope(kind, player, subject)


def refusal_reason(kind: str, parts: list[UnreadPart]) -> str:
    """Why a ``kind`` answer is refused for ``parts`` (contract §2.0): the first three parts'
    objects and texts (the ``reason`` of the ``unsupported`` answer,
    :func:`solver.queries.results.unsupported_result`)."""
    what = "; ".join(f"{p.object}: {p.text}" for p in parts[:3]) + (f"; and {len(parts) - 3} more"
                                                                    if len(parts) > 3 else "")
    return f"text the project does not read could change this answer: {what}"

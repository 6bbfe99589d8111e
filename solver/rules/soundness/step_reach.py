"""Could an unread triggered ability trigger when the step ends? (contract §2.0, ``pass``)

When every player has passed with an empty stack, the step ends and the game goes on to the
next step where a player receives priority (CR 117.4, 500.2; no priority in the untap step,
CR 502.4, nor usually in cleanup, CR 514.3): :func:`steps_entered` lists the steps begun,
:func:`step_events` the events their turn-based actions cause (untapping, drawing, declaring
attackers and blockers, combat damage and the deaths after it, discarding to hand size). An
unread triggered ability matters to that ``pass`` only if its event can happen then: a step
trigger ("At the beginning of your upkeep", CR 503.1) only for a step begun, any other event
family (:func:`solver.rules.soundness.trigger_reach.event_families`) only if those actions can cause it.
Unknown wordings, and any step trigger whose step the words don't name clearly, still block.
"""
from __future__ import annotations

import re

from ...core import ir
from ...core.state import GameState
from ..step_order import next_step
from .trigger_reach import TRIGGER_EVENT_FAMILIES, event_clause, event_families, regeneration_may_tap, targeting_triggers

__all__ = ["steps_entered", "step_events", "may_trigger_at_step_end", "may_trigger_in_steps", "named_steps"]

#: Step names in trigger words → the steps they name (CR 500.1).
_STEP_NAMES: tuple[tuple[frozenset[str], re.Pattern[str]], ...] = tuple(
    (frozenset(steps.split()), re.compile(rx)) for steps, rx in (
        ("upkeep", r"\bupkeep\b"),
        ("draw", r"\bdraw step\b"),
        ("main1", r"\b(?:precombat|first) main phase\b"),
        ("main2", r"\b(?:postcombat|second) main phase\b"),
        ("main1 main2", r"(?<!precombat )(?<!first )(?<!postcombat )(?<!second )\bmain phase\b"),
        ("beginning_of_combat", r"\bbeginning of (?:each |your |the |that )?combat\b"),
        ("end_of_combat", r"\bend of (?:each |the )?combat\b"),
        ("end", r"\bend step\b"),
        ("cleanup", r"\bcleanup\b"),
    ))

_STEP_EVENTS: dict[str, frozenset[str]] = {
    "untap": frozenset({"tap"}),
    "draw": frozenset({"draw"}),
    "main1": frozenset({"counters"}),  # lore counters on the active player's Sagas (CR 714.3b)
    "declare_attackers": frozenset({"attack", "tap"}),
    "declare_blockers": frozenset({"block"}),
    "first_strike_damage": frozenset({"damage", "leaves", "graveyard", "life"}),
    "combat_damage": frozenset({"damage", "leaves", "graveyard", "life"}),
    "cleanup": frozenset({"discard", "graveyard", "gain_control"}),   # control until end of turn ends (514.2)
}


def steps_entered(state: GameState) -> tuple[str, ...]:
    """The steps begun when the current one ends, up to the first in which a player receives
    priority (CR 500.1; a new turn: untap then upkeep, CR 502.4); once per state."""
    return state.memo("steps_entered", lambda: _steps_entered(state))


def _steps_entered(state: GameState) -> tuple[str, ...]:
    if state.turn.step == "cleanup":
        return ("cleanup",)              # players had priority in it: another cleanup (CR 514.3a)
    nxt = next_step(state)
    if nxt is None:
        return ("untap", "upkeep")
    if nxt == "cleanup":
        return ("cleanup", "untap", "upkeep")
    return (nxt,)


def step_events(steps: tuple[str, ...]) -> frozenset[str]:
    out: set[str] = {"step"}
    for s in steps:
        out |= _STEP_EVENTS.get(s, frozenset())
    return frozenset(out)


def named_steps(text: str) -> frozenset[str] | None:
    """The steps a step trigger's words name ("at the beginning of your upkeep": upkeep); None: unclear."""
    clause = event_clause(text)
    out: set[str] = set()
    for steps, rx in _STEP_NAMES:
        if rx.search(clause):
            out |= steps
    return frozenset(out) or None


def may_trigger_at_step_end(state: GameState, text: str, trigger_event: type[ir.Trigger] | None = None) -> bool:
    """Could a triggered part with these printed words (or this read trigger event) trigger when
    the current step ends? True unless known not to. "Becomes the target" (ward, CR 702.21a) can
    happen whenever a triggered ability with targets may be put on the stack (CR 603.3d)."""
    if trigger_event is None and "target_ability" in (event_families(text) or frozenset()) and \
            targeting_triggers(state):
        return True
    steps = steps_entered(state)
    # CR 502.2, 702.145c/f: while it is day or night, permanents may transform as a turn begins
    extra = frozenset({"transform"}) if state.day_night is not None and "untap" in steps else frozenset()
    if regeneration_may_tap(state) and "leaves" in step_events(steps):
        extra |= {"tap"}     # a destruction replaced by regeneration taps the permanent (CR 701.15a)
    return may_trigger_in_steps(steps, text, trigger_event, extra)


def may_trigger_in_steps(steps: tuple[str, ...], text: str, trigger_event: type[ir.Trigger] | None = None,
                         extra: frozenset[str] = frozenset()) -> bool:
    """Could a triggered ability with these words (or this read trigger event) trigger as these steps
    begin and their turn-based actions (and the ``extra`` events) are performed? True unless known not to."""
    if trigger_event is not None:
        if trigger_event is ir.StepTrigger:  # the step its words name (whose turn aside: conservative)
            named = named_steps(text)
            return named is None or bool(named & set(steps))
        fams = TRIGGER_EVENT_FAMILIES.get(trigger_event)
        if fams is None:
            return True
    else:
        fams = event_families(text)
    if fams is None:
        return True
    if "self_enters" in fams or "enters" in fams:
        fams = fams - {"self_enters", "enters"}
        if not fams:
            return False
    if "step" in fams:
        named = named_steps(text)
        if named is None or named & set(steps):
            return True
        fams = fams - {"step"}
        if not fams:
            return False
    return bool(fams & (step_events(steps) | extra))

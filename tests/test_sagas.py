"""Sagas (CR 714): lore counters as a Saga enters and as the precombat main phase begins, chapter
abilities triggering, and the state-based action at the final chapter (solver/rules/sagas.py)."""
from __future__ import annotations

import pytest

from mtgsolve.solver.cards import get_card
from mtgsolve.solver.core.errors import UnsupportedCase
from mtgsolve.solver.engine.turns import _lore_counters
from mtgsolve.solver.io.load import situation_from_dict
from mtgsolve.solver.queries import answer
from mtgsolve.solver.rules.sagas import chapters, chapters_triggered, final_chapter, is_saga, roman


def _state(lore: int | None, step: str = "draw", **extra):
    bf = [{"card": "History of Benalia", "counters": {"lore": lore}}] if lore is not None else []
    d = {"format": "mtgsolve/1", "players": ["alice", "bob"], "turn": {"number": 3, "active": "alice", "step": step},
         "battlefield": {"alice": bf + ["Plains"]}, **extra}
    return situation_from_dict(d).state


def test_chapter_numbers_and_the_final_chapter():
    benalia = get_card("History of Benalia")
    assert is_saga(benalia) and not is_saga(get_card("Plains"))
    assert [sorted(ns) for ns, _ in chapters(benalia)] == [[1, 2], [3]]
    assert final_chapter(benalia) == 3 and final_chapter(get_card("Plains")) is None
    assert [roman(n) for n in ("I", "II", "III", "IV", "V", "VI", "IX", "X")] == [1, 2, 3, 4, 5, 6, 9, 10]
    assert chapters_triggered(benalia, 0, 1) == ["I, II — Create a 2/2 white Knight creature token with vigilance."]
    assert chapters_triggered(benalia, 2, 3) == ["III — Knights you control get +2/+1 until end of turn."]
    assert chapters_triggered(benalia, 3, 4) == []


def test_the_main_phase_lore_counter_refuses_an_unread_chapter_and_counts_otherwise():
    """CR 714.3b: a lore counter on each Saga the active player controls; chapter II of History of
    Benalia (unread) triggers going from 1 to 2, none going from 3 to 4."""
    with pytest.raises(UnsupportedCase, match="II"):
        _lore_counters(_state(1))
    after = _lore_counters(_state(3))
    saga = next(o for o in after.battlefield if o.card is not None and o.card.name == "History of Benalia")
    assert saga.counter("lore") == 4
    alone = _state(None)
    assert _lore_counters(alone) is alone
    theirs = situation_from_dict({"format": "mtgsolve/1", "players": ["alice", "bob"],
                                  "turn": {"number": 3, "active": "alice", "step": "draw"},
                                  "battlefield": {"bob": [{"card": "History of Benalia", "counters": {"lore": 1}}]}}).state
    assert _lore_counters(theirs) is theirs      # only the active player's Sagas (CR 714.3b)


def test_a_saga_at_its_final_chapter_stays_while_its_chapter_ability_is_on_the_stack():
    """CR 714.4: sacrificed at its final chapter number, unless it is the source of a chapter ability
    that has triggered but not yet left the stack."""
    from mtgsolve.solver.engine.transition import _saga_done, _World

    def done(lore: int, stack: list) -> bool:
        d = {"format": "mtgsolve/1", "players": ["alice", "bob"],
             "turn": {"number": 4, "active": "alice", "step": "main1"},
             "battlefield": {"alice": [{"card": "History of Benalia", "counters": {"lore": lore}}]}, "stack": stack}
        state = situation_from_dict(d).state
        return _saga_done(_World(state), state.obj("history-of-benalia"))

    chapter_iii = {"ability": {"source": "history-of-benalia", "index": 2}, "controller": "alice"}
    assert done(3, []) and done(4, [])
    assert not done(2, [])
    assert not done(3, [chapter_iii])

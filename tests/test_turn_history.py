"""The turn's history (``turn.history``, issue 27): what happened this turn that rules look back at —
creatures that died (CR 700.4), life gained (119.3), creatures attacked with (508.1) — recorded by the
transition kernel, carried through resolve and pass, reset as a turn begins, and read by intervening
"if" clauses (603.4), conditional instructions (608.2c) and "whenever you attack with N or more
creatures" (508.3a). Checked against an independent reference on random boards, and for soundness both
ways (a read condition no longer blocks; an unread one, or a condition the situation does not record,
still does).

The references count from the rules (lethal damage kills, CR 704.5g; each declared attacker counts),
written here from the cards' Oracle text, not from the engine."""
from __future__ import annotations

from hypothesis import given, settings, strategies as st

from mtgsolve.solver.io.load import situation_from_dict
from mtgsolve.solver.queries import answer

_SWEEP = {"name": "Test Sweep", "types": ["Sorcery"], "mana_cost": "{1}{R}",
          "text": "This spell deals 2 damage to each creature. You gain 3 life."}


def _creature(k: int, toughness: int) -> dict:
    return {"card": {"name": f"Beast {k}", "types": ["Creature"], "power": 1, "toughness": toughness}}


@settings(max_examples=20, deadline=None)
@given(st.lists(st.integers(1, 4), max_size=4), st.integers(0, 3), st.integers(0, 5))
def test_deaths_and_life_gained_recorded_match_the_reference(toughness, died_before, gained_before):
    """CR 700.4, 704.5g, 119.3: each creature dealt lethal damage dies and is counted; alice's gain
    adds to what she gained before."""
    history: dict = {}
    if died_before:
        history["died"] = died_before
    if gained_before:
        history["gained"] = {"alice": gained_before}
    doc = {"format": "mtgsolve/1", "players": ["alice", "bob"],
           "turn": {"number": 3, "active": "alice", "step": "main1", "history": history},
           "battlefield": {"bob": [_creature(k, t) for k, t in enumerate(toughness)]},
           "stack": [{"card": _SWEEP, "controller": "alice"}]}
    res = answer(situation_from_dict(doc).state, {"kind": "resolve"})
    assert res["status"] == "ok" and res["count"] == 1, res
    got = res["outcomes"][0]["situation"]["turn"]["history"]
    died = died_before + sum(1 for t in toughness if t <= 2)
    assert got.get("died", 0) == died
    assert got.get("gained", {}) == {"alice": gained_before + 3}


_ATTACK_WATCHERS = {n: {"card": {"name": f"Rally {n}", "types": ["Enchantment"],
                                 "text": f"Whenever you attack with {w} or more creatures, you gain 1 life."}}
                    for n, w in ((2, "two"), (3, "three"))}


@settings(max_examples=15, deadline=None)
@given(st.integers(1, 3), st.sampled_from([2, 3]), st.integers(0, 2))
def test_attackers_recorded_and_counted_match_the_reference(n_creatures, watcher, before):
    """CR 508.1, 508.3a: for every declaration of attackers, the history counts the creatures declared
    on top of those before, and "whenever you attack with N or more creatures" triggers exactly when
    N or more were declared."""
    history = {"attacked": {"alice": before}} if before else {}
    doc = {"format": "mtgsolve/1", "players": ["alice", "bob"],
           "turn": {"number": 3, "active": "alice", "step": "beginning_of_combat", "priority": "bob",
                    "passed": ["alice"], "history": history},
           "battlefield": {"alice": [_ATTACK_WATCHERS[watcher]] + [_creature(k, 2) for k in range(n_creatures)]}}
    res = answer(situation_from_dict(doc).state, {"kind": "pass"})
    assert res["status"] == "ok" and res["count"] == 2 ** n_creatures, res
    for out in res["outcomes"]:
        declared = len(out["choices"]["attackers"])
        hist = out["situation"]["turn"]["history"]
        assert hist.get("attacked", {}).get("alice", 0) == before + declared
        stack = out["situation"].get("stack", [])
        assert len(stack) == (1 if declared >= watcher else 0)


def test_a_new_turn_starts_a_new_record():
    """CR 500.1: the history is this turn's — as the next turn begins it is recorded again, empty."""
    doc = {"format": "mtgsolve/1", "players": ["alice", "bob"],
           "turn": {"number": 3, "active": "alice", "step": "end", "priority": "bob", "passed": ["alice"],
                    "history": {"died": 2, "gained": {"alice": 1}, "attacked": {"alice": 2}}},
           "library": {"bob": ["Island"]}}
    res = answer(situation_from_dict(doc).state, {"kind": "pass"})
    assert res["status"] == "ok"
    for out in res["outcomes"]:
        turn = out["situation"]["turn"]
        assert turn["number"] == 4 and turn["history"] == {}, turn


def _resolve(card: str | dict, history: dict | None) -> dict:
    turn: dict = {"number": 3, "active": "alice", "step": "main2"}
    if history is not None:
        turn["history"] = history
    doc = {"format": "mtgsolve/1", "players": ["alice", "bob"], "turn": turn,
           "stack": [{"card": card, "controller": "alice"}]}
    return answer(situation_from_dict(doc).state, {"kind": "resolve"})


def test_conditional_instruction_reads_the_history():
    """CR 608.2c: Life Goes On — "You gain 4 life. If a creature died this turn, you gain 8 life
    instead." — by the recorded history; refused where it is not recorded."""
    for died, life in ((0, 24), (1, 28)):
        res = _resolve("Life Goes On", {"died": died} if died else {})
        assert res["status"] == "ok" and res["outcomes"][0]["situation"]["players"][0]["life"] == life
    assert _resolve("Life Goes On", None)["status"] == "unsupported"


def test_soundness_both_ways_unread_history_conditions_still_block():
    """A read condition no longer blocks (Mardu Hordechief's raid with the history recorded); one the
    reader does not read ("if a creature died under your control this turn") stays an unread part and
    blocks the resolution that would trigger it."""
    ok = _resolve("Mardu Hordechief", {"attacked": {"alice": 1}})
    assert ok["status"] == "ok" and len(ok["outcomes"][0]["situation"].get("stack", [])) == 1
    quiet = _resolve("Mardu Hordechief", {})
    assert quiet["status"] == "ok" and not quiet["outcomes"][0]["situation"].get("stack")
    unread = {"name": "Picky Mourner", "types": ["Creature"], "power": 1, "toughness": 1,
              "text": "When this creature enters, if a creature died under your control this turn, you gain 1 life."}
    assert _resolve(unread, {"died": 1})["status"] == "unsupported"


def test_otherwise_and_then_if_with_the_history():
    """CR 608.2c: Wedding Announcement's end step ability — with two attackers recorded it draws (not the
    token), and with its third invitation counter "Then if … three or more invitation counters" transforms it."""
    doc = {"format": "mtgsolve/1", "players": ["alice", "bob"],
           "turn": {"number": 3, "active": "alice", "step": "end", "history": {"attacked": {"alice": 2}}},
           "battlefield": {"alice": [{"card": "Wedding Announcement // Wedding Festivity", "counters": {"invitation": 2}}]},
           "library": {"alice": ["Island"]},
           "stack": [{"ability": {"source": "wedding-announcement-wedding-festivity", "index": 1}, "controller": "alice"}]}
    res = answer(situation_from_dict(doc).state, {"kind": "resolve"})
    assert res["status"] == "ok" and res["count"] == 1, res
    sit = res["outcomes"][0]["situation"]
    (perm,) = sit["battlefield"]["alice"]
    assert sit["hand"]["alice"][0]["id"] == "island" and perm.get("face") == "Wedding Festivity", sit

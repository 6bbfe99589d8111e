"""Resolving modal spells and abilities with the modes chosen (CR 700.2a, 601.2b-c, 603.3c, 608.2c;
issues 25, 26): the stack object's ``modes``, differential against tests/reference/modes_ref.py over
modal spells of many shapes (choose one, one or both, two, three with repeats, one or more) and random
boards; a modal trigger put on the stack once per legal (modes, targets) choice, against the targets
reference; soundness both ways — an unread mode blocks exactly the resolutions that chose it."""
from __future__ import annotations

import os

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from mtgsolve.solver.queries import Options, answer
from mtgsolve.solver.io.load import situation_from_dict
from mtgsolve.solver.rules.modes import selection_effects
from mtgsolve.solver.cards import get_card
from mtgsolve.solver.core import ir
from tests.reference.modes_ref import reference_modal_resolution
from tests.reference.targets_ref import reference_targets

TURN = {"number": 3, "active": "alice", "step": "main1"}
#: modal spells whose read modes deal damage, destroy, gain or lose life (counted over the database: 63
#: modal spells have two or more such modes; these cover each way of choosing, CR 700.2, 700.2d)
SPELLS = ["Abrade", "Branching Bolt", "Fiery Confluence", "Kolaghan's Command", "Kill! Maim! Burn!",
          "Crosis's Charm", "Casualties of War", "Fissure Vent", "Incendiary Command", "Boros Charm"]
PERMANENTS = ["Grizzly Bears", "Llanowar Elves", "Hill Giant", "Sol Ring", "Ornithopter", "Forest", "Island"]
EXAMPLES = int(os.environ.get("MTGSOLVE_EXAMPLES", "40"))


def ask(state, query):
    return answer(state, query, Options())


def _doc(bf_alice, bf_bob, stack):
    bf = {"alice": [{"id": f"a{i}", "card": n} for i, n in enumerate(bf_alice)],
          "bob": [{"id": f"b{i}", "card": n} for i, n in enumerate(bf_bob)]}
    return {"format": "mtgsolve/1", "players": ["alice", "bob"], "turn": TURN, "battlefield": bf,
            "stack": stack}


@settings(max_examples=EXAMPLES, deadline=None, derandomize="MTGSOLVE_EXAMPLES" not in os.environ,
          suppress_health_check=list(HealthCheck))
@given(spell=st.sampled_from(SPELLS), a=st.lists(st.sampled_from(PERMANENTS), max_size=3),
       b=st.lists(st.sampled_from(PERMANENTS), max_size=3), pick=st.integers(0, 10_000))
def test_resolution_matches_reference(spell, a, b, pick):
    hand = _doc(a, b, [])
    hand["hand"] = {"alice": [spell]}
    cast = ask(situation_from_dict(hand).state, {"kind": "targets", "cast": hand["hand"]["alice"][0].lower()
                                                 .replace("'", "").replace("!", "").replace(",", "")
                                                 .replace(" ", "-")})
    if cast["status"] != "ok" or not cast["choices"]:
        return
    i = pick % len(cast["choices"])
    modes, targets = cast["modes"][i], cast["choices"][i]
    doc = _doc(a, b, [{"card": spell, "controller": "alice", "modes": modes, "targets": targets}])
    state = situation_from_dict(doc).state
    ref = reference_modal_resolution(state)
    res = ask(state, {"kind": "resolve"})
    if ref is None:          # a chosen mode outside the reference's vocabulary (or unread): no claim here
        return
    assert res["status"] == "ok", (spell, modes, res.get("reason"))
    assert res["count"] == 1
    out = situation_from_dict(res["outcomes"][0]["situation"]).state
    assert {p.id: p.life for p in out.players} == ref["life"], (spell, modes, targets)
    assert {p: {o.id for o in out.zone("graveyard") if o.owner == p} for p in ("alice", "bob")} == ref["graveyard"]
    assert {o.id for o in out.zone("battlefield") if o.tapped} == ref["tapped"]


def test_every_selection_of_a_spell_resolves_as_the_reference():
    """Fiery Confluence (choose three, repeats allowed, CR 700.2d): every selection on one board."""
    for modes in ([1, 1, 1], [1, 2, 2], [2, 2, 2], [1, 2, 3], [3, 3, 3]):
        n3 = modes.count(3)
        doc = _doc(["Grizzly Bears", "Sol Ring"], ["Hill Giant", "Ornithopter"],
                   [{"card": "Fiery Confluence", "controller": "alice", "modes": modes,
                     "targets": [["a1"] if k % 2 == 0 else ["b1"] for k in range(n3)] or None}])
        if not n3:
            del doc["stack"][0]["targets"]
        state = situation_from_dict(doc).state
        ref = reference_modal_resolution(state)
        res = ask(state, {"kind": "resolve"})
        assert ref is not None and res["status"] == "ok", (modes, res.get("reason"))
        out = situation_from_dict(res["outcomes"][0]["situation"]).state
        assert {p.id: p.life for p in out.players} == ref["life"], modes
        assert {p: {o.id for o in out.zone("graveyard") if o.owner == p} for p in ("alice", "bob")} == ref["graveyard"]


def test_selection_effects_move_each_modes_targets():
    """CR 601.2c: the chosen modes' instances of "target" one after the other; each mode's references
    follow its own."""
    kc = get_card("Kolaghan's Command").spell
    effs = selection_effects(kc.modes, (3, 4))
    refs = [e.to for e in effs]
    assert [(r.kind, r.index) for r in refs] == [("target", 0), ("target", 1)]
    assert selection_effects(kc.modes, (4,))[0].to.index == 0


@pytest.mark.parametrize("bf_alice, bf_bob", [(["Island"], ["Grizzly Bears"]), ([], []),
                                                (["Island", "Forest"], ["Grizzly Bears", "Sol Ring"])])
def test_modal_trigger_choices_match_reference(bf_alice, bf_bob):
    """CR 603.3c-d: Deceiver Exarch's "When this creature enters, choose one —" goes on the stack once per
    legal (mode, target) choice: as many outcomes as the reference's (modes, targets) choices."""
    doc = _doc(bf_alice, bf_bob, [{"card": "Deceiver Exarch", "controller": "alice"}])
    res = ask(situation_from_dict(doc).state, {"kind": "resolve"})
    entered = _doc(bf_alice + ["Deceiver Exarch"], bf_bob, [])
    st_ = situation_from_dict(entered).state
    exarch = f"a{len(bf_alice)}"
    ref = reference_targets(st_, {"kind": "targets", "trigger": {"object": exarch, "index": 1}, "how": "trigger"})
    assert res["status"] == "ok" and res["count"] == ref["count"]
    got = sorted((tuple(t["modes"]), tuple(map(tuple, t["targets"])))
                 for o in res["outcomes"] for t in o["choices"]["triggers"])
    want = sorted((tuple(m), tuple(map(tuple, [[x.replace(exarch, "deceiver-exarch") for x in g] for g in c])))
                  for m, c in zip(ref["modes"], ref["choices"]))
    assert got == want


# ---------------------------------------------------------------------------
# Soundness both ways: an unread mode blocks exactly the choices that reach it
# ---------------------------------------------------------------------------

def _unread_modes(card) -> list[int]:
    a = card.spell if card.spell is not None and card.spell.modes else next(
        x for x in card.abilities if getattr(x, "modes", ()))
    return [i for i, m in enumerate(a.modes, start=1) if any(isinstance(e, ir.UnreadEffect) for e in m.effects)]


def test_an_unread_mode_blocks_only_the_spell_that_chose_it():
    assert _unread_modes(get_card("Abzan Charm")) == [3]
    base = {"library": {"alice": ["Forest", "Swamp"]}}
    for modes, targets, ok in (([2], None, True), ([1], [["b0"]], True), ([3], [["b0"]], False)):
        doc = _doc([], ["Hill Giant"], [{"card": "Abzan Charm", "controller": "alice", "modes": modes,
                                        **({"targets": targets} if targets else {})}])
        res = ask(situation_from_dict({**doc, **base}).state, {"kind": "resolve"})
        assert (res["status"] == "ok") is ok, (modes, res)
        if not ok:
            assert [u["text"] for u in res["unsupported"]] == [
                "Distribute two +1/+1 counters among one or two target creatures."]


def test_an_unread_mode_of_an_ability_blocks_only_that_mode():
    """Breya's Apprentice's modal activated ability: its unread first mode (exile the top card; you may play
    it) blocks the ability's resolution only when chosen; the second (+2/+0) resolves (CR 602.2b, 700.2a)."""
    card = get_card("Breya's Apprentice")
    assert _unread_modes(card) == [1]
    index = next(i for i, a in enumerate(ir.numbered_abilities(card.abilities), start=1) if getattr(a, "modes", ()))
    for modes, targets, ok in (([2], [["a0"]], True), ([1], None, False)):
        doc = _doc(["Breya's Apprentice"], [], [{"ability": {"source": "a0", "index": index}, "controller": "alice",
                                                 "modes": modes, **({"targets": targets} if targets else {})}])
        doc["library"] = {"alice": ["Forest"]}
        res = ask(situation_from_dict(doc).state, {"kind": "resolve"})
        assert (res["status"] == "ok") is ok, (modes, res)
        if ok:
            out = res["outcomes"][0]["situation"]
            assert out["effects"] == [{"ability": {"source": "a0", "index": index}, "controller": "alice",
                                       "targets": [["a0"]], "modes": [2]}]


def test_an_unread_mode_blocks_no_target_or_action_question():
    """The unread mode is effect text: the targets of the modes read, and the cast itself, stay answered."""
    doc = _doc(["Forest", "Plains", "Swamp"], ["Hill Giant"], [])
    doc["hand"] = {"alice": ["Abzan Charm"]}
    state = situation_from_dict(doc).state
    assert ask(state, {"kind": "targets", "cast": "abzan-charm"})["status"] == "ok"
    assert ask(state, {"kind": "actions"})["status"] == "ok"


def test_the_characteristics_view_reads_the_chosen_modes_of_an_entry():
    """CR 611.2a, 613.4c: an effects entry of a modal ability applies its chosen modes' effects only."""
    from mtgsolve.solver.rules.characteristics import View

    doc = _doc(["Breya's Apprentice", "Grizzly Bears"], [], [])
    base = View(situation_from_dict(doc).state).chars("a1").power
    card = get_card("Breya's Apprentice")
    index = next(i for i, a in enumerate(ir.numbered_abilities(card.abilities), start=1) if getattr(a, "modes", ()))
    doc["effects"] = [{"ability": {"source": "a0", "index": index}, "controller": "alice", "targets": [["a1"]],
                       "modes": [2]}]
    assert View(situation_from_dict(doc).state).chars("a1").power == base + 2

"""Modal spells and abilities (CR 700.2, 601.2b–c, 602.2b, 603.3c; issue 15 item 3).

* the reader (solver/reader/modes.py): mode-choice lines and "•" modes into
  ``modes`` / ``min_modes`` / ``max_modes`` / ``mode_repeat`` on spells,
  activated and triggered abilities; a mode whose targets aren't read leaves the
  card unsupported;
* the soundness layer reports the unread effects inside modes; a modal spell or ability on the
  stack resolves with the modes it records (object key ``modes``; tests/test_modes_resolve.py),
  and is refused, never guessed, without them;
* the ``targets`` query (modes chosen first, then targets; ``modes: [..]`` fixes
  them; ``modes`` / ``by_modes`` extension fields) and the ``actions`` counts;
* a hypothesis differential test against the brute-force reference
  (tests/reference/targets_ref.py) on small random boards with modal cards.

``MTGSOLVE_EXAMPLES=N`` runs N random cases (default 150, derandomized unless
``MTGSOLVE_EXAMPLES`` is set; always with ``CI=true``).
"""
from __future__ import annotations

import os
from pathlib import Path

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from mtgsolve.solver.core import ir
from mtgsolve.solver.cards import get_card
from mtgsolve.solver.rules.characteristics import View
from mtgsolve.solver.core.errors import QueryError
from mtgsolve.solver.queries import Options, answer
from mtgsolve.solver.io.load import situation_from_dict
from mtgsolve.solver.rules.targeting import has_legal_targets, target_choice_count
from tests.reference.targets_ref import reference_targets

INSTANCES = Path(__file__).resolve().parent.parent / "instances" / "targets"
TURN = {"number": 3, "active": "alice", "step": "main1"}


def state_of(**board):
    return situation_from_dict({"format": "mtgsolve/1", "players": ["alice", "bob"], "turn": TURN, **board}).state


def ask(state, query, **opts):
    return answer(state, query, Options(**opts))


# ---------------------------------------------------------------------------
# The reader
# ---------------------------------------------------------------------------


@pytest.mark.parametrize("name, lo, hi, rep, n", [
    ("Boros Charm", 1, 1, False, 3), ("Kolaghan's Command", 2, 2, False, 4), ("Abrade", 1, 1, False, 2),
    ("Cryptic Command", 2, 2, False, 4), ("Collective Brutality", 1, 3, False, 3),
    ("Applied Biomancy", 1, 2, False, 2), ("Mystic Confluence", 3, 3, True, 3)])
def test_modal_spells_are_read(name, lo, hi, rep, n):
    sp = get_card(name).spell
    assert sp is not None and sp.targets == ()
    assert (sp.min_modes, sp.max_modes, sp.mode_repeat, len(sp.modes)) == (lo, hi, rep, n)
    # no effect of its own: it does what its chosen modes do (CR 700.2a)
    assert sp.effects == ()
    assert all(m.text.startswith("•") for m in sp.modes)


def test_mode_targets_are_read_with_the_target_grammar():
    modes = get_card("Boros Charm").spell.modes
    assert modes[0].targets == (ir.TargetSpec(ir.Filter(types=frozenset({"Planeswalker"}), players=True)),)
    assert modes[1].targets == () and modes[2].targets == (ir.TargetSpec(ir.Filter(types=frozenset({"Creature"}))),)
    kc = get_card("Kolaghan's Command").spell.modes
    assert [len(m.targets) for m in kc] == [1, 1, 1, 1]
    assert kc[0].targets[0].filter.zone == "graveyard" and kc[3].targets[0].filter.is_any_target


def test_modal_activated_and_triggered_abilities():
    jitte = [a for a in get_card("Umezawa's Jitte").abilities if isinstance(a, ir.ActivatedAbility)][0]
    assert jitte.cost.remove_counters == ("charge", 1) and (jitte.min_modes, jitte.max_modes) == (1, 1)
    assert [len(m.targets) for m in jitte.modes] == [0, 1, 0]
    exarch = [a for a in get_card("Deceiver Exarch").abilities if isinstance(a, ir.TriggeredAbility)][0]
    assert exarch.trigger.event == "enters" and [m.targets[0].filter.who for m in exarch.modes] == ["you", "opponent"]
    slinger = [a for a in get_card("Sawblade Slinger").abilities if isinstance(a, ir.TriggeredAbility)][0]
    assert (slinger.min_modes, slinger.max_modes) == (0, 1)  # "choose up to one" (CR 700.2b)


@pytest.mark.parametrize("name", ["Brokers Confluence"])
def test_a_mode_whose_targets_are_not_read_leaves_the_card_unsupported(name):
    c = get_card(name)
    assert c.spell is None
    assert all(isinstance(u, ir.Unsupported) and {"targets", "effect"} <= u.affects for u in c.abilities)


def test_escalate_stays_an_unread_cost():
    c = get_card("Collective Brutality")
    (u,) = [a for a in c.abilities if isinstance(a, ir.Unsupported)]
    assert u.text.startswith("Escalate") and "costs" in u.affects


# ---------------------------------------------------------------------------
# Soundness: unread mode effects are reported; resolution never picks modes
# ---------------------------------------------------------------------------


def test_unread_mode_effects_are_reported():
    from mtgsolve.solver.rules.soundness.unread import card_parts

    parts = {text: (kind, aff) for text, kind, aff in card_parts(get_card("Collective Brutality"))}
    assert "Choose one or more —" not in parts          # the choice is read (CR 700.2a)
    assert parts["Target opponent reveals their hand. You choose an instant or sorcery card from it. That player "
                 "discards that card."] == ("spell", frozenset({"effect"}))
    ex = {t: (k, a) for t, k, a in card_parts(get_card("Deceiver Exarch"))}
    assert "When this creature enters, choose one —" not in ex   # both modes read: nothing unread


def test_resolving_a_modal_spell_without_its_modes_is_refused():
    st_ = state_of(battlefield={"bob": ["Grizzly Bears"]},
                   stack=[{"card": "Abrade", "id": "abrade", "controller": "alice", "targets": [["grizzly-bears"]]}])
    res = ask(st_, {"kind": "resolve"})
    assert res["status"] == "unsupported" and "modes" in res["reason"]


def test_an_unread_mode_effect_does_not_block_targets():
    st_ = state_of(battlefield={"alice": ["Badlands"], "bob": ["Grizzly Bears"]}, hand={"alice": ["Kolaghan's Command"]})
    res = ask(st_, {"kind": "targets", "cast": "kolaghans-command"})
    assert res["status"] == "ok" and res["count"] == 6   # modes 2 and 4 only (CR 700.2a)


# ---------------------------------------------------------------------------
# The targets query
# ---------------------------------------------------------------------------

KC_BOARD = dict(battlefield={"alice": ["Badlands", "Badlands", "Mountain"], "bob": ["Grizzly Bears", "Sol Ring"]},
                graveyard={"alice": ["Llanowar Elves"]}, hand={"alice": ["Kolaghan's Command", "Shock"]})


def test_modes_fix_the_selection():
    st_ = state_of(**KC_BOARD)
    full = ask(st_, {"kind": "targets", "cast": "kolaghans-command"})
    assert full["count"] == 17 == sum(b["count"] for b in full["by_modes"])
    assert len(full["choices"]) == len(full["modes"]) == 17
    fixed = ask(st_, {"kind": "targets", "cast": "kolaghans-command", "modes": [4, 2]})
    assert fixed["count"] == 6 and fixed["modes"] == [[2, 4]] * 6
    assert fixed["choices"] == [c for c, m in zip(full["choices"], full["modes"]) if m == [2, 4]]


@pytest.mark.parametrize("query, words", [
    ({"cast": "shock", "modes": [1]}, "has no modes"),
    ({"cast": "kolaghans-command", "modes": [1]}, "choose 2 mode(s), not 1"),
    ({"cast": "kolaghans-command", "modes": [1, 1]}, "more than once"),
    ({"cast": "kolaghans-command", "modes": [1, 5]}, "no mode 5"),
    ({"cast": "kolaghans-command", "modes": "1"}, "list of mode numbers"),
])
def test_bad_mode_selections_are_query_errors(query, words):
    with pytest.raises(QueryError) as e:
        ask(state_of(**KC_BOARD), {"kind": "targets", **query})
    assert words in e.value.message and e.value.path.endswith("modes")


def test_a_modal_spell_on_the_stack_needs_its_modes():
    st_ = state_of(battlefield={"bob": ["Grizzly Bears"]},
                   stack=[{"card": "Abrade", "id": "abrade", "controller": "alice", "targets": [["grizzly-bears"]]}])
    res = ask(st_, {"kind": "targets", "spell": "abrade"})
    assert res["status"] == "unsupported" and "modes" in res["reason"]
    res = ask(st_, {"kind": "targets", "spell": "abrade", "modes": [1], "how": "change"})
    assert res["status"] == "ok" and res["choices"] == [[["grizzly-bears"]]]


def test_choosing_no_mode_is_one_choice_with_no_targets():
    # Sawblade Slinger: "choose up to one —" and no legal target for either mode (CR 700.2b)
    st_ = state_of(battlefield={"alice": ["Sawblade Slinger"], "bob": ["Grizzly Bears"]})
    res = ask(st_, {"kind": "targets", "trigger": {"object": "sawblade-slinger", "index": 1}})
    assert res == {"kind": "targets", "status": "ok", "count": 1, "choices": [[]], "modes": [[]],
                   "by_modes": [{"modes": [], "count": 1}]}


def test_the_same_mode_more_than_once():
    # Mystic Confluence (CR 700.2d): 10 multisets of 3 modes; with one creature, no spell: mode 1 illegal
    st_ = state_of(battlefield={"bob": ["Grizzly Bears"]}, hand={"alice": ["Mystic Confluence"]})
    res = ask(st_, {"kind": "targets", "cast": "mystic-confluence"})
    assert [b["modes"] for b in res["by_modes"]] == [[2, 2, 2], [2, 2, 3], [2, 3, 3], [3, 3, 3]]
    assert res["count"] == 4 and res["choices"][0] == [["grizzly-bears"]] * 3


def test_truncated_listing_keeps_exact_counts():
    st_ = state_of(**KC_BOARD)
    full = ask(st_, {"kind": "targets", "cast": "kolaghans-command"})
    cut = ask(st_, {"kind": "targets", "cast": "kolaghans-command"}, max_results=5)
    assert cut["status"] == "truncated" and cut["count"] == 17 and cut["by_modes"] == full["by_modes"]
    assert len(cut["choices"]) == 5
    pairs = set(zip(map(repr, full["choices"]), map(repr, full["modes"])))
    assert all(p in pairs for p in zip(map(repr, cut["choices"]), map(repr, cut["modes"])))


def test_flagbearer_requirement_applies_per_selection():
    # CR 601.2b-c: modes first; an opponent's Coalition Honor Guard binds only the modes that can target it
    st_ = state_of(battlefield={"alice": ["Mountain", "Plains", "Llanowar Elves"],
                                "bob": ["Coalition Honor Guard", "Grizzly Bears"]}, hand={"alice": ["Boros Charm"]})
    res = ask(st_, {"kind": "targets", "cast": "boros-charm"})
    assert {tuple(b["modes"]): b["count"] for b in res["by_modes"]} == {(1,): 2, (2,): 1, (3,): 1}
    ref = reference_targets(st_, {"kind": "targets", "cast": "boros-charm"})
    assert res["choices"] == ref["choices"] and res["modes"] == ref["modes"]


# ---------------------------------------------------------------------------
# actions: the number of (modes, targets) choices; the API lists them
# ---------------------------------------------------------------------------


def test_actions_count_modal_choices():
    st_ = state_of(battlefield={"alice": ["Forest", "Island", "Llanowar Elves",
                                          {"card": "Umezawa's Jitte", "counters": {"charge": 1},
                                           "attached_to": "llanowar-elves"}],
                                "bob": ["Grizzly Bears"]},
                   hand={"alice": ["Applied Biomancy"]})
    acts = {(a["kind"], a.get("object"), a.get("index")): a for a in ask(st_, {"kind": "actions"})["actions"]}
    assert acts[("cast", "applied-biomancy", None)]["targets"] == 8
    assert ask(st_, {"kind": "targets", "cast": "applied-biomancy"})["count"] == 8
    assert acts[("activate", "umezawas-jitte", 1)]["targets"] == 4


def test_api_lists_modal_actions_with_their_modes():
    """The API lists each (modes, targets) choice (CR 700.2, 601.2b-c; tests/test_api_modes.py)."""
    from mtgsolve.solver.api import Situation

    s = Situation.from_dict({"format": "mtgsolve/1", "players": ["alice", "bob"], "turn": TURN,
                             "battlefield": {"alice": ["Mountain", "Plains"], "bob": ["Grizzly Bears"]},
                             "hand": {"alice": ["Boros Charm"]}})
    assert sorted(a.modes for a in s.legal_actions if a.kind == "cast") == [(1,), (1,), (2,), (3,)]


# ---------------------------------------------------------------------------
# The instances and the brute-force reference
# ---------------------------------------------------------------------------

MODE_INSTANCES = sorted(INSTANCES.glob("modes_*.yaml"))


def test_mode_instances_exist():
    assert len(MODE_INSTANCES) >= 7


@pytest.mark.parametrize("path", MODE_INSTANCES, ids=[p.stem for p in MODE_INSTANCES])
def test_mode_instances_match_reference(path):
    import yaml

    raw = yaml.safe_load(path.read_text())
    state = situation_from_dict(raw, str(path)).state
    assert "700.2" in " ".join(raw["rules"]) or "700.2a" in raw["rules"] or "700.2b" in raw["rules"]
    for q, exp in zip(raw["query"], raw["expect"]):
        res = answer(state, q)
        assert {k: res[k] for k in exp} == exp
        ref = reference_targets(state, q)
        assert {k: res[k] for k in ("count", "choices", "modes", "by_modes")} == ref


EXAMPLES = int(os.environ.get("MTGSOLVE_EXAMPLES", "0")) or None
CI = os.environ.get("CI", "").lower() in ("1", "true", "yes")

SPELLS = ("Boros Charm", "Kolaghan's Command", "Abrade", "Cryptic Command", "Collective Brutality",
          "Applied Biomancy", "Mystic Confluence", "Crush Contraband", "Izzet Charm", "Blessed Alliance")
PERMANENTS = ("Grizzly Bears", "Llanowar Elves", "Coalition Honor Guard", "Gladecover Scout", "Sol Ring",
              "Glorious Anthem", "Forest", "Mountain", "Standard Bearer")
GRAVE = ("Llanowar Elves", "Shock", "Grizzly Bears")
ABILITY_HOSTS = ("Umezawa's Jitte", "Goblin Cratermaker", "Deceiver Exarch", "Sawblade Slinger")


@st.composite
def modal_boards(draw):
    players = ["alice", "bob"]
    d: dict = {"format": "mtgsolve/1", "players": players, "turn": TURN, "battlefield": {}, "graveyard": {},
               "hand": {}, "stack": []}
    n = [0]

    def new_id() -> str:
        n[0] += 1
        return f"o{n[0]}"

    for p in players:
        d["battlefield"][p] = [{"card": c, "id": new_id()} for c in draw(st.lists(st.sampled_from(PERMANENTS),
                                                                                  max_size=3))]
        d["graveyard"][p] = [{"card": c, "id": new_id()} for c in draw(st.lists(st.sampled_from(GRAVE), max_size=2))]
    if draw(st.booleans()):
        d["stack"].append({"card": "Shock", "id": new_id(), "controller": draw(st.sampled_from(players)),
                           "targets": [["bob"]]})
    owner = draw(st.sampled_from(players))
    form = draw(st.sampled_from(("cast", "cast", "ability")))
    q: dict = {"kind": "targets"}
    if form == "cast":
        oid = new_id()
        d["hand"][owner] = [{"card": draw(st.sampled_from(SPELLS)), "id": oid}]
        q["cast"] = oid
    else:
        host = draw(st.sampled_from(ABILITY_HOSTS))
        oid = new_id()
        obj: dict = {"card": host, "id": oid}
        if host == "Umezawa's Jitte":
            obj["counters"] = {"charge": 1}
        d["battlefield"][owner].append(obj)
        key = "activate" if host in ("Umezawa's Jitte", "Goblin Cratermaker") else "trigger"
        q[key] = {"object": oid, "index": 1}
    if draw(st.booleans()):
        q["player"] = draw(st.sampled_from(players))
    return d, q


@settings(max_examples=EXAMPLES or 150, deadline=None, derandomize=CI or EXAMPLES is None, database=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(modal_boards(), st.data())
def test_modal_targets_match_brute_force(case, data):
    board, q = case
    state = situation_from_dict(board).state
    full = answer(state, q)
    assert full["status"] == "ok", full
    ref = reference_targets(state, q)
    assert {k: full[k] for k in ("count", "choices", "modes", "by_modes")} == ref
    view = View(state)
    subject = {k: q[k] for k in ("cast", "activate", "trigger") if k in q}
    assert target_choice_count(view, q.get("player"), **subject) == ref["count"]
    assert has_legal_targets(view, None, **subject) == (ref["count"] > 0)
    if ref["by_modes"]:  # one selection fixed: the same choices as in the full listing
        sel = data.draw(st.sampled_from([b["modes"] for b in ref["by_modes"]]))
        fixed = answer(state, {**q, "modes": list(reversed(sel))})
        assert fixed["choices"] == [c for c, m in zip(ref["choices"], ref["modes"]) if m == sel]
        assert fixed == {**fixed, **reference_targets(state, {**q, "modes": sel})}


def test_api_never_casts_a_modal_spell_without_modes():
    # Aether Shockwave: "Choose one — • Tap all Spirits. • Tap all non-Spirit creatures." (no target at all)
    # two selections and no modes named: ambiguous, never one picked (CR 700.2a, 601.2b)
    from mtgsolve.solver.api import AmbiguousActionError, Situation

    s = Situation.from_dict({"format": "mtgsolve/1", "players": ["alice", "bob"], "turn": TURN,
                             "battlefield": {"alice": ["Island", "Island", "Plains", "Forest"]},
                             "hand": {"alice": ["Aether Shockwave"]}})
    with pytest.raises(AmbiguousActionError):
        s.apply("cast aether-shockwave paying forest, island, island-2, plains")
    cast = s.apply("cast aether-shockwave modes=2 paying forest, island, island-2, plains")
    assert cast.state.obj("aether-shockwave").modes == (2,)
    acts = ask(s.state, {"kind": "actions"})["actions"]
    assert [a["targets"] for a in acts if a.get("object") == "aether-shockwave"] == [2]

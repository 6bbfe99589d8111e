"""Abilities that work from the hand (cycling, typecycling, channel: CR 702.29, 113.6k), per-turn
limits on non-mana abilities (CR 602.5b) and additional land plays (CR 305.2): the reader, the
soundness rule of reach, the Python API, and a differential test of the ``actions`` query against
the brute-force reference (tests/reference/actions_ref.py, pay_ref.py) on random boards with such
cards. ``MTGSOLVE_EXAMPLES`` scales the number of boards; ``CI=true`` derandomizes them."""
from __future__ import annotations

import os

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from reference.actions_ref import reference_actions
from mtgsolve.solver.core import ir
from mtgsolve.solver.api import Situation, UnsupportedActionError
from mtgsolve.solver.cards import get_card
from mtgsolve.solver.core.errors import QueryError
from mtgsolve.solver.queries import answer
from mtgsolve.solver.io.load import situation_from_dict

EXAMPLES = int(os.environ.get("MTGSOLVE_EXAMPLES", "400")) // 3


def board(**kw) -> dict:
    d = {"format": "mtgsolve/1", "players": ["alice", "bob"], "turn": {"number": 3, "active": "alice", "step": "main1"}}
    d.update(kw)
    return d


def state_of(**kw):
    return situation_from_dict(board(**kw)).state


# ---------------------------------------------------------------------------
# The reader
# ---------------------------------------------------------------------------

def _activated(name: str) -> list:
    return [a for a in get_card(name).abilities if ir.is_activated(a)]


def test_cycling_and_typecycling_are_hand_abilities():
    (cyc,) = _activated("Censor")
    assert isinstance(cyc, ir.ActivatedAbility) and cyc.zone == "hand" and cyc.cost.discard_self
    assert cyc.cost.mana.text == "{U}" and not cyc.targets
    assert [e.kind for e in cyc.effects] == ["draw"]   # CR 702.29a: "Draw a card."
    mana, land = _activated("Ash Barrens")
    assert isinstance(mana, ir.ManaAbility) and land.zone == "hand" and land.cost.mana.text == "{1}"
    (search,) = land.effects   # CR 702.29e: "… a basic land card, reveal it, put it into your hand, then shuffle"
    assert isinstance(search, ir.SearchLibrary) and search.zone == "hand" and search.shuffle
    assert search.quality is not None and search.quality.types == {"Land"} and search.quality.supertypes == {"Basic"}
    (art,) = _activated("Sojourner's Companion")   # "Artifact landcycling {2}" (CR 702.29e)
    assert art.zone == "hand" and art.cost.mana.text == "{2}"
    (art_search,) = art.effects   # a card of both types: an artifact land card (CR 205.2a)
    assert isinstance(art_search, ir.SearchLibrary) and art_search.quality is not None
    assert art_search.quality.types_all == {"Artifact", "Land"}


def test_channel_reads_cost_targets_and_reduction():
    _, ch = _activated("Otawara, Soaring City")
    assert ch.zone == "hand" and ch.cost.discard_self and ch.cost.mana.text == "{3}{U}"
    assert len(ch.targets) == 1 and ch.reduction is not None and ch.reduction[0] == 1
    assert ch.reduction[1].supertypes == frozenset({"Legendary"}) and ch.reduction[1].types == frozenset({"Creature"})


def test_wandering_emperor_timing_is_read():
    statics = [a for a in get_card("The Wandering Emperor").abilities if isinstance(a, ir.Static)]
    assert [s.kind for s in statics] == ["loyalty_as_instant_if_entered"]


def test_activation_conditions_are_read():
    _, edge = _activated("Tectonic Edge")
    assert edge.condition is not None and edge.condition.kind == "opponent_controls" and edge.condition.n == 4
    _, lib = _activated("Library of Alexandria")
    assert lib.condition is not None and lib.condition.kind == "hand_exactly" and lib.condition.n == 7


def test_transmute_only_as_a_sorcery():
    (tr,) = _activated("Muddle the Mixture")
    assert tr.zone == "hand" and tr.sorcery and tr.cost.mana.text == "{1}{U}{U}"
    s = state_of(turn={"number": 4, "active": "bob", "step": "main1", "priority": "alice"},
                 battlefield={"alice": ["Island"] * 3}, hand={"alice": ["Muddle the Mixture"]})
    assert [a["kind"] for a in answer(s, {"kind": "actions"})["actions"]] == ["pass"]


def test_limits_and_land_plays():
    (leech,) = _activated("Putrid Leech")
    assert leech.limit == 1 and leech.cost.life == 2 and leech.zone == "battlefield"
    statics = [a for a in get_card("Azusa, Lost but Seeking").abilities if isinstance(a, ir.Static)]
    assert [(s.kind, s.amount) for s in statics] == [("additional_lands", 2)]


# ---------------------------------------------------------------------------
# Soundness: read hand abilities don't block actions; their effects block resolve
# ---------------------------------------------------------------------------

def test_read_hand_ability_does_not_block_actions_but_unread_one_does():
    s = state_of(battlefield={"alice": ["Island", "Forest"]}, hand={"alice": ["Censor", "Ash Barrens"]})
    r = answer(s, {"kind": "actions"})
    assert r["status"] == "ok"
    assert {(a["object"], a["index"]) for a in r["actions"] if a["kind"] == "activate"} == {
        ("censor", 1), ("ash-barrens", 2)}
    # Edge of Autumn's "Cycling—Sacrifice a land." is not read: it still blocks its owner's actions
    b = state_of(battlefield={"alice": ["Island", "Forest"]}, hand={"alice": ["Edge of Autumn"]})
    blocked = answer(b, {"kind": "actions"})
    assert blocked["status"] == "unsupported" and "Cycling" in blocked["unsupported"][0]["text"]
    assert answer(b, {"kind": "actions", "player": "bob"})["status"] == "ok"   # not Bob's card


def test_cycled_ability_resolves_and_draws():
    s = state_of(graveyard={"alice": ["Censor"]}, library={"alice": ["Island"]},
                 stack=[{"ability": {"source": "censor", "index": 1}, "controller": "alice"}])
    r = answer(s, {"kind": "resolve"})
    assert r["status"] == "ok" and len(r["outcomes"]) == 1
    assert [o["card"] for o in r["outcomes"][0]["situation"]["hand"]["alice"]] == ["Island"]


def test_unread_cycling_effect_blocks_resolve_only():
    """"Affinitycycling" (a search for "a card with affinity", CR 702.29e: no type the reader knows)
    stays unread: it blocks resolving, not the actions."""
    s = state_of(graveyard={"alice": ["Sojourner's Enforcermite"]}, library={"alice": ["Island"]},
                 stack=[{"ability": {"source": "sojourners-enforcermite", "index": 1}, "controller": "alice"}])
    r = answer(s, {"kind": "resolve"})
    assert r["status"] == "unsupported" and "Affinitycycling" in r["unsupported"][0]["text"]
    acts = answer(s, {"kind": "actions"})   # its "Affinity for Affinity" may block; the cycling line does not
    assert acts["status"] == "ok" or not any("Affinitycycling" in u["text"] for u in acts["unsupported"])


def test_hand_ability_on_the_battlefield_is_no_action():
    s = state_of(battlefield={"alice": ["Island", "Island", "Otawara, Soaring City", "Grizzly Bears"]})
    r = answer(s, {"kind": "actions"})
    assert r["status"] == "ok" and [a["kind"] for a in r["actions"]] == ["pass"]
    with pytest.raises(QueryError):
        answer(s, {"kind": "pay", "activate": {"object": "otawara-soaring-city", "index": 2}})


# ---------------------------------------------------------------------------
# The Python API: legal actions, apply (the card is discarded as the cost)
# ---------------------------------------------------------------------------

def test_api_cycles_and_resolves():
    sit = Situation(state_of(turn={"number": 4, "active": "bob", "step": "main1", "priority": "alice"},
                             battlefield={"alice": ["Island", "Forest"]}, hand={"alice": ["Censor", "Forest"]},
                             library={"alice": ["Island"]}))
    acts = [str(a) for a in sit.legal_actions]
    assert acts == ["activate censor:1 paying island", "pass"]
    after = sit.apply(acts[0])
    assert after.zone("graveyard", "alice") == ["censor"] and after.zone("hand", "alice") == ["forest-2"]
    assert len(after.stack) == 1 and after.to_dict()["stack"][0]["ability"] == {"source": "censor", "index": 1}
    assert "island" in [o["id"] for o in after.to_dict()["battlefield"]["alice"] if o.get("tapped")]
    [(_choices, drawn)] = after.resolve()   # CR 702.29a: the ability draws a card
    assert sorted(o.name for o in drawn.state.zone("hand", "alice")) == ["Forest", "Island"]


def test_cycle_trigger_blocks_only_cycling_that_card():
    sit = Situation(state_of(turn={"number": 4, "active": "bob", "step": "main1", "priority": "alice"},
                             battlefield={"alice": ["Island"] * 3},
                             hand={"alice": ["Censor", "Shark Typhoon", "Avian Oddity"]}))
    acts = list(sit.legal_actions)
    assert len(sit.apply(next(a for a in acts if a.object == "censor")).stack) == 1   # CR 702.29c
    # Shark Typhoon's "When you cycle this card, create an X/X …" is read (tests/test_keywords2.py): it
    # triggers, above the cycling ability
    assert len(sit.apply(next(a for a in acts if a.object == "shark-typhoon")).stack) == 2
    with pytest.raises(UnsupportedActionError):   # "When you cycle this card, put a flying counter …" is unread
        sit.apply(next(a for a in acts if a.object == "avian-oddity"))


def test_encoding_has_a_slot_for_cycling():
    from mtgsolve.solver.api.encoding import ActionEncoding

    sit = Situation(state_of(turn={"number": 4, "active": "bob", "step": "main1", "priority": "alice"},
                             battlefield={"alice": ["Island"]}, hand={"alice": ["Censor"]}))
    enc = ActionEncoding(sit)
    mask = enc.mask(sit)
    legal = sorted(enc.describe(i) for i in range(enc.size) if mask[i])
    assert legal == ["activate censor 1", "pass"]
    assert str(enc.decode(sit, enc.index[("activate", "censor", 1)])) == "activate censor:1"


def test_api_counts_once_each_turn():
    sit = Situation(state_of(battlefield={"alice": ["Putrid Leech"]}))
    (act, _) = list(sit.legal_actions)
    after = sit.apply(act)
    assert after.to_dict()["battlefield"]["alice"][0]["activated_this_turn"] == {1: 1}
    assert [str(a) for a in after.legal_actions] == ["pass"]


def test_api_plays_additional_lands():
    sit = Situation(state_of(battlefield={"alice": ["Dryad of the Ilysian Grove"]}, hand={"alice": ["Forest", "Island"]}))
    one = sit.apply("play_land forest")
    two = one.apply("play_land island")
    assert two.turn.lands_played == 2 and [str(a) for a in two.legal_actions] == ["pass"]


# ---------------------------------------------------------------------------
# Differential test against the brute-force reference
# ---------------------------------------------------------------------------

LANDS = ["Forest", "Island", "Plains", "Swamp", "Mountain", "City of Brass", "Ancient Tomb"]
PERMANENTS = ["Dryad of the Ilysian Grove", "Azusa, Lost but Seeking", "Putrid Leech", "Isamaru, Hound of Konda",
              "Grizzly Bears", "Llanowar Elves", "Sol Ring", "Cloud of Faeries", "Ornithopter", "The Wandering Emperor",
              "Pendelhaven", "Raging Goblin", "Tectonic Edge", "Library of Alexandria", "Urborg, Tomb of Yawgmoth",
              "Wirewood Symbiote", "Quirion Ranger", "Relic of Progenitus"]
HAND = ["Censor", "Cloud of Faeries", "Architects of Will", "Ash Barrens", "Sojourner's Companion",
        "Otawara, Soaring City", "Takenuma, Abandoned Mire", "Eiganjo, Seat of the Empire", "Shark Typhoon",
        "Boseiju, Who Endures",
        "Forest", "Shock", "Grizzly Bears"]
STEPS = ["main1"] * 5 + ["main2", "upkeep", "declare_attackers", "end", "untap"]


@st.composite
def boards(draw):
    d = {"format": "mtgsolve/1", "players": ["alice", "bob"]}
    active = draw(st.sampled_from(["alice", "alice", "bob"]))
    priority = draw(st.sampled_from(["alice"] * 4 + ["bob"]))
    d["turn"] = {"number": 3, "active": active, "priority": priority, "step": draw(st.sampled_from(STEPS)),
                 "lands_played": draw(st.sampled_from([0, 1, 1, 2, 3]))}

    def perm(names, flags=True):
        return st.tuples(st.sampled_from(names), st.booleans(), st.booleans(), st.integers(0, 3)).map(
            lambda t: {"card": t[0], "tapped": t[1] and flags, "sick": t[2] and flags,
                       **({"activated_this_turn": {1: 1}} if t[3] == 0 and t[0] == "Putrid Leech" else {}),
                       **({"entered_this_turn": t[3] > 1, "counters": {"loyalty": t[3]}}
                          if t[0] == "The Wandering Emperor" else {})})
    d["battlefield"] = {"alice": draw(st.lists(perm(LANDS), max_size=4)) + draw(st.lists(perm(PERMANENTS), max_size=2)),
                        "bob": draw(st.lists(st.one_of(perm(LANDS, False), perm(PERMANENTS)), max_size=2))}
    if draw(st.integers(0, 2)) == 0:   # additional land plays (CR 305.2), Alice's or Bob's
        who = draw(st.sampled_from(["alice", "alice", "bob"]))
        d["battlefield"][who].append(draw(st.sampled_from(["Dryad of the Ilysian Grove", "Azusa, Lost but Seeking"])))
    d["hand"] = {"alice": draw(st.lists(st.sampled_from(HAND + ["Island", "Plains"]), max_size=3)),
                 "bob": draw(st.lists(st.sampled_from(HAND), max_size=2))}
    if draw(st.integers(0, 3)) == 0:
        d["mana_pool"] = {"alice": draw(st.sampled_from(["{U}", "{G}{W}", "{C}"]))}
    if draw(st.integers(0, 3)) == 0:   # "an opponent controls four or more lands" (Tectonic Edge)
        d["battlefield"]["bob"] += ["Swamp"] * draw(st.integers(3, 4))
    if draw(st.integers(0, 3)) == 0:   # "exactly seven cards in hand" (Library of Alexandria)
        d["hand"]["alice"] += ["Island"] * (7 - len(d["hand"]["alice"]) - draw(st.integers(0, 1)))
    return d


@settings(max_examples=EXAMPLES, deadline=None, derandomize=os.environ.get("CI") == "true",
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(boards())
def test_matches_brute_force_reference(d):
    state = situation_from_dict(d).state
    for player in ("alice", "bob"):
        got = answer(state, {"kind": "actions", "player": player})
        assert got["status"] == "ok", got
        entries = [{k: v for k, v in a.items() if k != "unread"} for a in got["actions"]]
        assert entries == reference_actions(state, player), d
    sit = Situation(state)
    summary = answer(state, {"kind": "actions"})
    mask, cands = sit.legal_actions_mask()
    heads = [a for a, m in zip(cands, mask) if m]
    assert [a.to_json() for a in heads] == [{k: v for k, v in e.items() if k in ("kind", "object", "index")}
                                            for e in summary["actions"]]
    assert sit.legal_actions.count() == sum(e.get("targets", 1) * e.get("payments", 1) for e in summary["actions"])

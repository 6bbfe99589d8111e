"""Delve (CR 702.66a), convoke (702.51a) and improvise (702.126a): the reader
(:mod:`solver.reader.casting_options`, ``PaymentOption``), the
payment model's choices (:meth:`models.payment.PaymentModel._add_helps`), the
``exile`` key of payments, soundness (the keyword no longer blocks), and a
differential test against the brute-force reference
(tests/reference/helps_ref.py) on random small boards.

``MTGSOLVE_EXAMPLES`` scales the number of generated boards (default 40);
``CI=true`` derandomizes them.
"""
from __future__ import annotations

import json
import os

from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from reference.helps_ref import brute_helped
from mtgsolve.solver.core import ir
from mtgsolve.solver.cards import get_card
from mtgsolve.solver.queries import Options, answer
from mtgsolve.solver.io.load import situation_from_dict

EXAMPLES = int(os.environ.get("MTGSOLVE_EXAMPLES", "40"))


def doc(**kw) -> dict:
    d = {"format": "mtgsolve/1", "players": ["alice", "bob"],
         "turn": {"number": 3, "active": "alice", "step": "main1"}}
    d.update(kw)
    return d


def run(d: dict, query: dict) -> dict:
    return answer(situation_from_dict(d).state, query, Options(max_results=100_000))


def test_reader_reads_delve_convoke_improvise():
    for name, kw in (("Murktide Regent", "delve"), ("Chord of Calling", "convoke"),
                     ("Reverse Engineer", "improvise")):
        card = get_card(name)
        opts = [a for a in card.abilities if isinstance(a, ir.CastingOption) and a.kind == "payment"]
        assert [a.name for a in opts] == [kw], name
        assert not any(kw in (u.text or "").lower() for u in card.unsupported), name


def test_delve_no_longer_blocks_and_other_text_still_does():
    """Murktide's delve is read: pay and actions are ok; its replacement and trigger (unread)
    don't reach the payment (CR 113.6: they function on the battlefield)."""
    d = doc(battlefield={"alice": ["Island"] * 7}, hand={"alice": ["Murktide Regent"]},
            graveyard={"alice": ["Opt"]})
    r = run(d, {"kind": "pay", "cast": "murktide-regent"})
    assert r["status"] == "ok" and r["count"] == 2, r
    a = run(d, {"kind": "actions"})
    assert a["status"] == "ok", a
    # an unread cost rule on the battlefield still blocks the payment
    d2 = doc(battlefield={"alice": ["Island"] * 7 + [{"card": {"name": "Tax Idol", "type": "Artifact",
                                                               "text": "Blue spells cost {1} more to cast while "
                                                                       "the moon is full."}}]},
             hand={"alice": ["Murktide Regent"]})
    assert run(d2, {"kind": "pay", "cast": "murktide-regent"})["status"] == "unsupported"


def test_convoke_counts_creatures_once_with_mana_abilities():
    """A Llanowar Elves tapped for {G} or convoked for {G} leaves the same situation: one payment."""
    d = doc(battlefield={"alice": ["Llanowar Elves", "Forest", "Forest"]}, hand={"alice": ["Chord of Calling"]})
    r = run(d, {"kind": "pay", "cast": "chord-of-calling", "x": 0})
    assert r["count"] == 1 and r["payments"][0]["tap"] == ["forest", "forest-2", "llanowar-elves"], r


def test_delve_with_sacrificing_mana_ability_is_unsupported():
    """A sacrificed permanent would be in the graveyard when delve exiles (CR 601.2g–h): not modeled."""
    d = doc(battlefield={"alice": ["Island", "Lotus Petal"]}, hand={"alice": ["Treasure Cruise"]},
            graveyard={"alice": ["Opt"] * 6})
    r = run(d, {"kind": "pay", "cast": "treasure-cruise"})
    assert r["status"] in ("unsupported", "error"), r


def test_delve_with_a_sacrificed_token_is_answered_and_matches_the_reference():
    """A token sacrificed for mana can't be exiled from the graveyard (CR 111.7): delve's payments are
    the model's, equal to the reference's; a token the player does not sacrifice changes nothing."""
    d = doc(battlefield={"alice": ["Island", {"card": "Lotus Petal", "token": True}]},
            hand={"alice": ["Treasure Cruise"]}, graveyard={"alice": ["Opt"] * 7})
    q = {"kind": "pay", "cast": "treasure-cruise"}
    got = run(d, q)
    assert got["status"] == "ok" and got["count"] == 3, got
    ref = brute_helped(situation_from_dict(d).state, q)
    assert sorted(json.dumps(p, sort_keys=True) for p in got["payments"]) == ref["payments"]


def test_delve_with_a_sacrificing_altar_refuses_only_for_owned_cards():
    """A mana ability that sacrifices another permanent (Ashnod's Altar: "Sacrifice a creature") with
    delve: refused while a creature card of the player's could be sacrificed, answered with only a token."""
    card = doc(battlefield={"alice": ["Island", "Ashnod's Altar", "Grizzly Bears"]},
               hand={"alice": ["Treasure Cruise"]}, graveyard={"alice": ["Opt"] * 7})
    assert run(card, {"kind": "pay", "cast": "treasure-cruise"})["status"] == "unsupported"
    token = doc(battlefield={"alice": ["Island", "Ashnod's Altar", {"card": "Grizzly Bears", "token": True}]},
                hand={"alice": ["Treasure Cruise"]}, graveyard={"alice": ["Opt"] * 7})
    q = {"kind": "pay", "cast": "treasure-cruise"}
    got = run(token, q)
    assert got["status"] == "ok", got
    ref = brute_helped(situation_from_dict(token).state, q)
    assert got["count"] == ref["count"]


# ---------------------------------------------------------------------------
# Differential test against the reference
# ---------------------------------------------------------------------------

SPELLS = ["Murktide Regent", "Gurmag Angler", "Treasure Cruise", "Chord of Calling", "Stoke the Flames",
          "Venerated Loxodon", "Reverse Engineer", "Whir of Invention", "Logic Knot"]
PERMS = ["Forest", "Island", "Mountain", "Plains", "Swamp", "Llanowar Elves", "Birds of Paradise", "Ornithopter",
         "Memnite", "Grizzly Bears", "Sol Ring", "Signal Pest", "Raging Goblin", "Savannah Lions",
         "Graven Cairns"]   # a filter land: convoke and improvise stay the model's own choices
GY = ["Opt", "Lightning Bolt", "Forest", "Brainstorm"]


@st.composite
def boards(draw):
    bf = []
    for _ in range(draw(st.integers(0, 6))):
        bf.append({"card": draw(st.sampled_from(PERMS)), "tapped": draw(st.integers(0, 4)) == 0,
                   "sick": draw(st.booleans())})
    if draw(st.integers(0, 3)) == 0:   # a token the payment may sacrifice (CR 111.7: never delved)
        bf.append({"card": "Lotus Petal", "token": True})
    gy = [draw(st.sampled_from(GY)) for _ in range(draw(st.integers(0, 5)))]
    spell = draw(st.sampled_from(SPELLS))
    d = doc(battlefield={"alice": bf}, hand={"alice": [{"card": spell, "id": "spell"}]},
            graveyard={"alice": gy})
    if draw(st.booleans()):
        d["mana_pool"] = {"alice": draw(st.sampled_from(["{U}", "{G}", "{R}", "{W}", "{C}"]))}
    x = draw(st.integers(0, 3))
    return d, x


@settings(max_examples=EXAMPLES, deadline=None, derandomize=os.environ.get("CI") == "true",
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large, HealthCheck.filter_too_much])
@given(boards())
def test_helped_payments_match_brute_force(case):
    d, x = case
    loaded = situation_from_dict(d)
    state = loaded.state
    spell = state.obj("spell")
    q = {"kind": "pay", "cast": "spell"}
    if spell.card.data.mana_cost.x_count:
        q["x"] = x
    got = answer(state, q, Options(max_results=100_000))
    if got["status"] != "ok":
        assert got["status"] in ("unsupported", "error"), got
        assume(False)
    ref = brute_helped(situation_from_dict(d).state, q)
    pays = sorted(json.dumps(p, sort_keys=True) for p in got["payments"])
    assert got["count"] == ref["count"], (json.dumps(d), pays, ref["payments"])
    assert pays == ref["payments"], json.dumps(d)
    acts = answer(state, {"kind": "actions"}, Options(max_results=100_000))
    assert acts["status"] in ("ok", "unsupported"), acts


def test_delve_counts_without_listing_and_lists_the_same():
    """The per-number-of-cards count (models/payment_delve.py) equals the CP-SAT model's
    enumeration, and its listing is the model's payments in the pay query's order."""
    from mtgsolve.models import payment as pm
    from mtgsolve.models.payment_count import counter_for
    from mtgsolve.models.payment_delve import DelveCounter
    from mtgsolve.solver.rules.characteristics import View
    from mtgsolve.solver.queries.pay import cost_of as total_cost
    from mtgsolve.solver.payment.problem import build_problem

    d = doc(battlefield={"alice": ["Island", "Island", "Island", "Swamp", {"card": "Island", "tapped": True}]},
            hand={"alice": ["Murktide Regent"]},
            graveyard={"alice": ["Opt", "Opt", "Lightning Bolt", "Forest", "Brainstorm", "Ponder"]})
    state = situation_from_dict(d).state
    view = View(state)
    problem = build_problem(view, "alice", total_cost(view, "alice", {"cast": "murktide-regent"}))
    counter = counter_for(problem)
    assert isinstance(counter, DelveCounter)
    keys = pm.PaymentModel(problem).enumerate().keys
    assert counter.count() == len(keys) == len(counter.keys())
    listed = sorted((pm.decode(problem, k) for k in keys), key=pm.Paid.sort_key)
    assert counter.payments() == listed
    assert counter.payments(5) == listed[:5]


def test_delve_with_x_any_counts_every_x():
    """x: any with delve (Logic Knot, {X}{U}{U}): counted once per announced X, equal to the
    CP-SAT model's enumeration, X up to what the lands and the graveyard can pay."""
    from mtgsolve.models import payment as pm
    from mtgsolve.models.payment_count import counter_for
    from mtgsolve.models.payment_delve import EveryXCounter
    from mtgsolve.solver.rules.characteristics import View
    from mtgsolve.solver.queries.pay import cost_of as total_cost
    from mtgsolve.solver.payment.problem import build_problem

    d = doc(battlefield={"alice": ["Island", "Island", "Island"]}, hand={"alice": ["Logic Knot"]},
            graveyard={"alice": ["Opt", "Opt", "Forest", "Brainstorm"]})
    view = View(situation_from_dict(d).state)
    problem = build_problem(view, "alice", total_cost(view, "alice", {"cast": "logic-knot", "x": "any"}))
    counter = counter_for(problem)
    assert isinstance(counter, EveryXCounter)
    keys = pm.PaymentModel(problem).enumerate().keys
    assert counter.count() == len(keys)
    assert counter.x_values() == sorted({k.x for k in keys}) == [0, 1, 2, 3, 4, 5]
    listed = sorted((pm.decode(problem, k) for k in keys), key=pm.Paid.sort_key)
    assert counter.payments() == listed


def test_convoke_as_abilities_counts_like_the_model():
    """Convoke and improvise become {T} one-mana abilities of the helpers' classes when that is
    the same payment (solver/payment/problem.py ``_helpers_as_abilities``): the counting DP then
    counts them, equal to the CP-SAT model's enumeration of the same problem, and to the model's
    own convoke choices (the problem kept as it was)."""
    from dataclasses import replace

    from mtgsolve.models import payment as pm
    from mtgsolve.models.payment_count import counter_for
    from mtgsolve.solver.rules.characteristics import View
    from mtgsolve.solver.queries.pay import cost_of as total_cost
    from mtgsolve.solver.payment.problem import build_problem

    d = doc(battlefield={"alice": ["Forest", "Forest", "Llanowar Elves", {"card": "Llanowar Elves", "sick": True},
                                   "Birds of Paradise", "Memnite", "Savannah Lions", "Grizzly Bears"]},
            hand={"alice": ["Chord of Calling"]})
    view = View(situation_from_dict(d).state)
    problem = build_problem(view, "alice", total_cost(view, "alice", {"cast": "chord-of-calling", "x": "any"}))
    helpers = [a for a in problem.abilities if "convoke" in a.label]
    assert helpers and not problem.main.convoke_classes
    counter = counter_for(problem)
    assert counter is not None
    keys = pm.PaymentModel(problem).enumerate().keys
    assert counter.count() == len(keys)
    # the model's own convoke choices on the same board give the same payments
    own = replace(problem, abilities=tuple(a for a in problem.abilities if a not in helpers),
                  main=replace(problem.main, convoke_classes=tuple(
                      (a.cls, "".join(t for t, o in zip("WUBRGC", zip(*[o.mana for o in a.outcomes])) if any(o) and t != "C"))
                      for a in helpers)))
    own_keys = pm.PaymentModel(own).enumerate().keys
    dec = lambda prob, ks: sorted((pm.decode(prob, k) for k in ks), key=pm.Paid.sort_key)  # noqa: E731
    assert dec(own, own_keys) == dec(problem, keys) == counter.payments()

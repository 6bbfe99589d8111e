"""Agents' API with mana under a spending restriction (CR 106.6).

A payment may leave restricted mana in the pool (pay's
``restricted_pool_after``). The API keeps it in the payment (JSON and text
forms round-trip, and it distinguishes payments), and ``apply`` refuses such
a payment with UnsupportedActionError, since a situation file can't hold
restricted mana — never silently dropping it.
"""
from __future__ import annotations

import pytest

from mtgsolve.solver.api import Action, Payment, Situation, UnsupportedActionError

DOC = {"format": "mtgsolve/1", "players": ["alice", "bob"], "turn": {"active": "alice", "step": "main1"},
       # Pit Automaton's first ability only: its second ("{2}, {T}: When you next activate an exhaust ability …")
       # is not read, and an unread activated ability of alice's makes her actions unsupported (contract §2.0)
       "battlefield": {"alice": [{"card": {"name": "Pit Automaton", "manaCost": "{2}", "type": "Artifact Creature — Construct",
                                           "types": ["Artifact", "Creature"], "power": "0", "toughness": "4",
                                           "text": "Defender\n{T}: Add {C}{C}. Spend this mana only to activate abilities."}},
                                 "Selesnya Signet"]}, "hand": {"alice": ["Llanowar Elves"]}}


def test_restricted_leftover_is_kept_and_applying_it_is_refused():
    s = Situation.from_dict(DOC)
    casts = [a for a in s.legal_actions if a.kind == "cast"]
    assert len(casts) == 1
    (cast,) = casts
    assert cast.payment.restricted_pool_after == (("alice", "{C}", "spend this mana only to activate abilities"),)
    assert Action.parse(str(cast)) == cast
    assert Action.from_json(cast.to_json()) == cast
    assert cast.to_json()["payment"]["restricted_pool_after"] == {
        "alice": [{"mana": "{C}", "restriction": "spend this mana only to activate abilities"}]}
    with pytest.raises(UnsupportedActionError, match="restricted mana"):
        s.apply(cast)
    s.apply("pass")  # the situation itself is fine


def test_restricted_leftover_distinguishes_payments():
    a = Payment(("x",), pool_after=(("alice", "{G}"),))
    b = Payment(("x",), pool_after=(("alice", "{G}"),), restricted_pool_after=(("alice", "{C}", "only"),))
    assert a != b and not b.is_empty

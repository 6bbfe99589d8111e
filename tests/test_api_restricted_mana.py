"""Agents' API with mana under a spending restriction (CR 106.6).

A payment may leave restricted mana in the pool (pay's
``restricted_pool_after``). The API keeps it in the payment (JSON and text
forms round-trip, and it distinguishes payments), and ``apply`` keeps it in
the pool with its restriction (the situation key ``restricted_mana_pool``):
it pays only what the restriction allows, and empties as the step ends
(CR 500.4). A restriction that belongs to its source ("of the chosen type")
can't be written and is refused, never dropped.
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


def test_restricted_leftover_is_kept_in_the_pool():
    s = Situation.from_dict(DOC)
    casts = [a for a in s.legal_actions if a.kind == "cast"]
    assert len(casts) == 1
    (cast,) = casts
    assert cast.payment.restricted_pool_after == (("alice", "{C}", "spend this mana only to activate abilities"),)
    assert Action.parse(str(cast)) == cast
    assert Action.from_json(cast.to_json()) == cast
    assert cast.to_json()["payment"]["restricted_pool_after"] == {
        "alice": [{"mana": "{C}", "restriction": "spend this mana only to activate abilities"}]}
    after = s.apply(cast)
    assert [(p, m.text, r.describe()) for p, m, r in after.state.restricted_pool] == [
        ("alice", "{C}", "spend this mana only to activate abilities")]
    assert after.state.pool("alice").text == dict(cast.payment.pool_after).get("alice", "")
    assert Situation.from_dict(after.to_dict()).state.key() == after.state.key()   # written and read back


def _workshop(hand: list[str], pool: list[dict] | None = None) -> Situation:
    doc = {"format": "mtgsolve/1", "players": ["alice", "bob"], "turn": {"active": "alice", "step": "main1"},
           "battlefield": {"alice": ["Mishra's Workshop"]}, "hand": {"alice": hand}, "library": {"alice": [], "bob": []}}
    if pool:
        doc["restricted_mana_pool"] = {"alice": pool}
    return Situation.from_dict(doc)


ARTIFACTS_ONLY = "spend this mana only to cast artifact spells"


def test_workshop_mana_left_pays_only_artifact_spells_and_empties_with_the_step():
    """Mishra's Workshop's {C}{C}{C} for Signal Pest ({1}) leaves {C}{C} that may pay only an artifact spell
    (CR 106.6): Signal Pest again, not Llanowar Elves; it is gone when the step ends (CR 500.4)."""
    s = _workshop(["Signal Pest", "Ornithopter", "Llanowar Elves"])
    cast = next(a for a in s.legal_actions if a.kind == "cast" and a.object == "signal-pest")
    after = s.apply(cast)
    assert [(m.text, r.describe()) for m, r in after.state.restricted_mana("alice")] == [("{C}{C}", ARTIFACTS_ONLY)]
    s2 = _workshop(["Signal Pest", "Llanowar Elves"], [{"mana": "{C}", "restriction": ARTIFACTS_ONLY}])
    casts = sorted({a.object for a in s2.legal_actions if a.kind == "cast"})
    assert casts == ["signal-pest"]     # from the pool's {C}, or tapping the Workshop
    pest = next(a for a in s2.legal_actions if a.kind == "cast" and a.object == "signal-pest"
                and not a.payment.tap)
    assert not pest.payment.restricted_pool_after    # the pool's {C} paid Signal Pest
    ended = s2.apply("pass").apply("pass")
    assert not ended.state.restricted_pool


def test_a_restriction_of_a_chosen_type_is_not_read_into_a_situation():
    with pytest.raises(Exception, match="restricted_mana_pool.alice\\[0\\].restriction"):
        Situation.from_dict({"format": "mtgsolve/1", "players": ["alice"], "restricted_mana_pool": {"alice": [
            {"mana": "{C}", "restriction": "spend this mana only to cast chosen-type creature spells"}]}})


def test_restricted_leftover_distinguishes_payments():
    a = Payment(("x",), pool_after=(("alice", "{G}"),))
    b = Payment(("x",), pool_after=(("alice", "{G}"),), restricted_pool_after=(("alice", "{C}", "only"),))
    assert a != b and not b.is_empty

"""Lands whose text decides how they enter (CR 614.1c, 614.12): shock lands' "As this land enters,
you may pay 2 life. If you don't, it enters tapped." — a choice carried by the play-land action
(``pay_life``) through the ``actions`` query, the Python API, the action encoding and action strings,
and one outcome per choice when an effect puts the land onto the battlefield — and fast lands'
"enters tapped unless you control two or fewer other lands" / "If you control two or more other
lands, this land enters tapped." Each shape is tested on every card of the database that has it,
and against the brute-force reference ``tests/reference/lands_ref.py``."""
from __future__ import annotations

import re

import pytest
from hypothesis import given, settings, strategies as st

from mtgsolve.solver.api import Action, IllegalActionError, Situation
from mtgsolve.solver.api.encoding import ActionEncoding
from mtgsolve.solver.cards import get_card, oracle_index
from mtgsolve.solver.core import ir
from mtgsolve.solver.io.load import situation_from_dict
from tests.reference.lands_ref import play_outcomes, put_from_hand_outcomes

SHOCK = r"As [^,]+ enters(?: the battlefield)?, you may pay \d+ life\. If you don't, it enters(?: the battlefield)? tapped\."
FAST = r"enters tapped unless you control \w+ or fewer other lands\."
IF_MORE = r"^If you control \w+ or more other lands, [^,]+ enters tapped\.$"


def _lines(pattern: str) -> list[tuple[str, str]]:
    return [(c["name"], ln) for c in oracle_index().values() for ln in (c.get("text") or "").split("\n")
            if re.search(pattern, ln)]


@pytest.mark.parametrize("pattern,field,least", [(SHOCK, "pay_life", 15), (FAST, "unless", 11), (IF_MORE, "when", 5)])
def test_every_line_of_the_shape_is_read(pattern: str, field: str, least: int) -> None:
    """Each shape over the whole database: every card with the line reads it as an
    :class:`~solver.core.ir.EntersWith` (the shock lands, fast lands and the "two or more other
    lands" lands of the database)."""
    found = _lines(pattern)
    assert len({n for n, _ in found}) >= least
    for name, line in found:
        card = get_card(name)
        got = [a for a in card.abilities if isinstance(a, ir.EntersWith) and a.tapped and getattr(a, field)]
        assert got, (name, line, [u.text for u in card.unsupported])


def _sit(hand: list[str], lands: list[str], life: int = 20) -> Situation:
    return Situation(situation_from_dict({
        "format": "mtgsolve/1", "players": [{"id": "alice", "life": life}, "bob"],
        "turn": {"number": 3, "active": "alice", "step": "main1"},
        "battlefield": {"alice": lands}, "hand": {"alice": hand}}).state)


def test_shock_land_both_ways_through_the_api() -> None:
    sit = _sit(["Godless Shrine"], ["Plains"])
    assert [str(a) for a in sit.legal_actions] == ["pass", "play godless-shrine", "play godless-shrine pay-life"]
    unpaid = sit.apply("play godless-shrine")
    assert unpaid.state.obj("godless-shrine").tapped and unpaid.state.player("alice").life == 20
    paid = sit.apply("play godless-shrine pay-life")
    assert not paid.state.obj("godless-shrine").tapped and paid.state.player("alice").life == 18
    assert paid.state.player("alice").life_lost_this_turn in (None, 2)   # a payment of life is a loss (CR 119.4)
    a = Action("play_land", "godless-shrine", pay_life=True)
    assert Action.parse(str(a)) == a and Action.from_json(a.to_json()) == a
    assert a.to_json() == {"kind": "play_land", "object": "godless-shrine", "pay_life": True}


def test_shock_land_with_too_little_life_cant_pay() -> None:
    sit = _sit(["Godless Shrine"], [], life=1)
    assert [str(a) for a in sit.legal_actions] == ["pass", "play godless-shrine"]
    with pytest.raises(IllegalActionError, match="119.4"):
        sit.apply("play godless-shrine pay-life")
    with pytest.raises(IllegalActionError, match="614.12"):
        _sit(["Plains"], []).apply("play plains pay-life")


def test_encoding_has_a_slot_for_paying() -> None:
    sit = _sit(["Godless Shrine", "Emeria's Call"], [])
    enc = ActionEncoding(sit)
    m = enc.mask(sit)
    legal = {str(enc.decode(sit, i)) for i in range(enc.size) if m[i]}
    assert legal == {"pass", "play godless-shrine", "play godless-shrine pay-life",
                     'play emerias-call-emeria-shattered-skyclave face="Emeria, Shattered Skyclave"',
                     'play emerias-call-emeria-shattered-skyclave face="Emeria, Shattered Skyclave" pay-life'}
    for i in range(enc.size):
        if m[i]:
            assert enc.encode_head(enc.decode(sit, i)) == i
    back = sit.apply('play emerias-call-emeria-shattered-skyclave face="Emeria, Shattered Skyclave" pay-life')
    assert back.state.player("alice").life == 17   # the back face's 3 life (CR 712.12, 614.12)


def test_fast_and_slow_lands_count_the_other_lands() -> None:
    for n in range(5):
        lands = ["Plains"] * n
        assert _sit(["Blooming Marsh"], lands).apply("play blooming-marsh").state.obj("blooming-marsh").tapped is (n > 2)
        den = _sit(["Den of the Bugbear"], lands).apply("play den-of-the-bugbear")
        assert den.state.obj("den-of-the-bugbear").tapped is (n >= 2)


LANDS = ["Godless Shrine", "Overgrown Tomb", "Blooming Marsh", "Spirebluff Canal", "Den of the Bugbear",
         "Hall of Storm Giants", "Plains", "Tinder Farm", "Deserted Beach"]


@settings(max_examples=25, deadline=None)
@given(land=st.sampled_from(LANDS), others=st.integers(0, 4), life=st.integers(0, 4))
def test_playing_a_land_matches_the_reference(land: str, others: int, life: int) -> None:
    """Differential: the outcomes of every legal way to play the land equal the reference's."""
    sit = _sit([land], ["Island"] * others, life=life)
    oid = land.lower().replace(" ", "-")
    got = set()
    for a in sit.legal_actions:
        if a.kind == "play_land":
            after = sit.apply(a).state
            got.add((after.obj(oid).tapped, after.player("alice").life))
    assert got == play_outcomes(oracle_index()[land]["text"], others, life)


def test_an_effect_puts_a_shock_land_onto_the_battlefield_one_outcome_per_choice() -> None:
    from mtgsolve.solver.queries import answer

    for life, want in ((20, {(True, 20), (False, 18)}), (1, {(True, 1)})):
        doc = {"format": "mtgsolve/1", "players": [{"id": "alice", "life": life}, "bob"],
               "turn": {"number": 3, "active": "alice", "step": "main1"},
               "library": {"alice": ["Overgrown Tomb"]}, "stack": [{"card": "Nature's Lore", "controller": "alice"}]}
        res = answer(situation_from_dict(doc).state, {"kind": "resolve"})
        got = set()
        for out in res["outcomes"]:
            s = out["situation"]
            for o in s.get("battlefield", {}).get("alice", []):
                players = {p["id"] if isinstance(p, dict) else p: p for p in s["players"]}
                p = players["alice"]
                got.add((bool(o.get("tapped")), p.get("life", 20) if isinstance(p, dict) else 20))
        assert got == want


def _statuses(text: str) -> dict[str, str]:
    from mtgsolve.solver.queries import answer

    land = {"card": {"name": "Test Shrine", "type": "Land", "types": ["Land"], "text": text + "\n{T}: Add {R}."}}
    st_ = situation_from_dict({"format": "mtgsolve/1", "players": ["alice", "bob"],
                               "turn": {"number": 3, "active": "alice", "step": "main1"},
                               "battlefield": {"alice": ["Mountain"]}, "hand": {"alice": [land, "Shock"]},
                               "graveyard": {"bob": [land]}}).state
    qs = {"actions": {"kind": "actions"}, "bob_actions": {"kind": "actions", "player": "bob"},
          "pay": {"kind": "pay", "cast": "shock"}, "available_mana": {"kind": "available_mana"}}
    return {k: answer(st_, q)["status"] for k, q in qs.items()}


def test_soundness_both_ways() -> None:
    """Read, a shock land blocks nothing; an unread "As this land enters, you may …" of a land in the
    hand blocks its owner's ``actions`` (the choice is part of playing it, CR 614.12) and nothing else."""
    read = _statuses("As this land enters, you may pay 2 life. If you don't, it enters tapped.")
    assert set(read.values()) == {"ok"}
    unread = _statuses("As this land enters, you may pay 2 life. If you don't, it enters tapped and you draw a card.")
    assert unread["actions"] == "unsupported"
    assert {k: v for k, v in unread.items() if k != "actions"} == {"bob_actions": "ok", "pay": "ok", "available_mana": "ok"}


@pytest.mark.parametrize("pattern,least", [
    (r"^When (?:this creature|~) enters(?: the battlefield)?, you may put an? [\w ]+ card from your hand onto the "
     r"battlefield(?: tapped)?\.$", 2),
    (r"^You may play an additional land this turn\.$", 3)])
def test_effect_shapes_over_the_database(pattern: str, least: int) -> None:
    """Each card whose line is exactly the shape reads it whole (no unread part left of it)."""
    found = [(n, ln) for c in oracle_index().values() for n in [c["name"]]
             for ln in (c.get("text") or "").replace(n, "~").split("\n") if re.search(pattern, ln)]
    assert len(found) >= least
    for name, line in found:
        assert not [u for u in get_card(name).unsupported if "put" in (u.text or "") or "additional land" in (u.text or "")], \
            (name, line)


def test_enters_tapped_trigger_is_read() -> None:
    (t,) = [a for a in get_card("Amulet of Vigor").abilities if isinstance(a, ir.TriggeredAbility)]
    assert isinstance(t.trigger, ir.ObjectEntersTrigger) and t.trigger.tapped


HAND = ["Forest", "Godless Shrine", "Blooming Marsh", "Grizzly Bears", "Tinder Farm"]


@settings(max_examples=20, deadline=None)
@given(hand=st.lists(st.sampled_from(HAND), max_size=4), life=st.integers(0, 3))
def test_put_a_land_from_the_hand_matches_the_reference(hand: list[str], life: int) -> None:
    """Differential: Arboreal Grazer's trigger resolving gives exactly the reference's outcomes."""
    from mtgsolve.solver.queries import answer

    doc = {"format": "mtgsolve/1", "players": [{"id": "alice", "life": life}, "bob"],
           "turn": {"number": 3, "active": "alice", "step": "main1"},
           "battlefield": {"alice": ["Arboreal Grazer"]}, "hand": {"alice": hand},
           "stack": [{"ability": {"source": "arboreal-grazer", "index": 1}, "controller": "alice"}]}
    res = answer(situation_from_dict(doc).state, {"kind": "resolve"})
    assert res["status"] == "ok", res
    got = set()
    for out in res["outcomes"]:
        s = out["situation"]
        put = [o for o in s.get("battlefield", {}).get("alice", []) if o["id"] != "arboreal-grazer"]
        assert all(o.get("tapped") for o in put)
        p = s["players"][0]
        got.add((put[0]["card"] if put else None, p.get("life", 20) if isinstance(p, dict) else 20))
    index = oracle_index()
    want = put_from_hand_outcomes([(("L:" if "Land" in index[n]["types"] else "") + n, index[n]["text"] or "")
                                   for n in hand], life)
    assert got == want


def test_enters_tapped_trigger_soundness_both_ways() -> None:
    """Read, Amulet of Vigor's trigger blocks nothing (it is put on the stack); a trigger on the same
    event whose effect is unread blocks the resolution that puts a land onto the battlefield tapped, and
    not the ``actions`` question."""
    from mtgsolve.solver.queries import answer

    def statuses(text: str) -> dict[str, str]:
        amulet = {"card": {"name": "Test Amulet", "type": "Artifact", "types": ["Artifact"], "text": text}}
        st_ = situation_from_dict({
            "format": "mtgsolve/1", "players": ["alice", "bob"], "turn": {"number": 3, "active": "alice", "step": "main1"},
            "battlefield": {"alice": [amulet, "Arboreal Grazer"]}, "hand": {"alice": ["Forest"]},
            "stack": [{"ability": {"source": "arboreal-grazer", "index": 1}, "controller": "alice"}]}).state
        return {k: answer(st_, {"kind": k})["status"] for k in ("resolve", "actions")}

    assert statuses("Whenever a permanent you control enters tapped, untap it.") == {"resolve": "ok", "actions": "ok"}
    unread = statuses("Whenever a permanent you control enters tapped, untap it and it phases out until it's fun.")
    assert unread == {"resolve": "unsupported", "actions": "ok"}

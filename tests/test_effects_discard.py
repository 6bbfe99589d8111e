""""Discard a card" / "discard N cards" of the controller's choice (CR 701.9a-b: all of them when the
hand holds fewer), alone and after a draw ("Draw two cards, then discard two cards": Careful Study;
"{T}: Draw a card, then discard a card": Merfolk Looter), against tests/reference/discard_ref.py:
one outcome per distinct multiset of cards discarded. Also the imperative "Mill N cards." "At random"
stays unread (another player's discard: tests/test_effects_choices.py)."""
from __future__ import annotations

import random

import pytest

from mtgsolve.solver.api import Situation
from mtgsolve.solver.cards import get_card
from tests.reference.discard_ref import discard_results

POOL = ["Island", "Island", "Forest", "Lightning Bolt", "Grizzly Bears"]


def _doc(hand: list[str], library: list[str], stack: list[dict], bf: list[dict] | None = None) -> dict:
    return {"format": "mtgsolve/1", "players": ["alice", "bob"],
            "turn": {"number": 3, "active": "alice", "step": "main1"},
            "hand": {"alice": hand}, "library": {"alice": library, "bob": ["Plains"]},
            "battlefield": {"alice": bf or []}, "stack": stack}


def _names(sit: Situation, zone: str) -> list[str]:
    return [o.name for o in sit.state.zone(zone, "alice")]


@pytest.mark.parametrize("spell,draws,discards", [("Careful Study", 2, 2)])
def test_draw_then_discard_matches_reference(spell, draws, discards):
    rng = random.Random(3)
    for _ in range(15):
        hand = [rng.choice(POOL) for _ in range(rng.randint(0, 4))]
        library = [rng.choice(POOL) for _ in range(rng.randint(0, 3))]
        sit = Situation.from_dict(_doc(hand, library, [{"card": spell, "controller": "alice"}]))
        got = [tuple(sorted(n for n in _names(out, "graveyard") if n != spell)) for _c, out in sit.resolve()]
        want = discard_results(hand + library[:draws], discards)
        assert len(got) == len(set(got)) and set(got) == want, (hand, library)


def test_a_looter_ability():
    """Merfolk Looter's "{T}: Draw a card, then discard a card." on the stack."""
    sit = Situation.from_dict(_doc(["Island", "Forest"], ["Lightning Bolt"],
                                   [{"ability": {"source": "looter", "index": 1}, "controller": "alice"}],
                                   [{"id": "looter", "card": "Merfolk Looter", "tapped": True}]))
    got = {tuple(_names(out, "graveyard")) for _c, out in sit.resolve()}
    assert got == {(n,) for (n,) in discard_results(["Island", "Forest", "Lightning Bolt"], 1)}


def test_mill_imperative():
    """Mental Note: "Mill two cards. Draw a card." (CR 701.17a)."""
    sit = Situation.from_dict(_doc([], ["Island", "Forest", "Swamp"], [{"card": "Mental Note", "controller": "alice"}]))
    [(_c, out)] = sit.resolve()
    assert _names(out, "graveyard")[:2] == ["Island", "Forest"] and _names(out, "hand") == ["Swamp"]


@pytest.mark.parametrize("name,kinds", [
    ("Careful Study", ["draw", "discard"]), ("Faithless Looting", ["draw", "discard"]),
    ("Mental Note", ["mill", "draw"]),
])
def test_reader(name, kinds):
    card = get_card(name)
    assert card.spell is not None and [e.kind for e in card.spell.effects] == kinds


@pytest.mark.parametrize("name", ["Hymn to Tourach", "Wrench Mind"])
def test_a_random_or_conditional_discard_stays_unread(name):
    """"… at random" (a random event) and "… unless they discard an artifact card" stay unread; another
    player's discard of their choice is read (tests/test_effects_choices.py)."""
    card = get_card(name)
    assert card.spell is not None and any(e.kind == "unread" for e in card.spell.effects)


def test_you_draw_and_lose_life():
    """Night's Whisper: "You draw two cards and lose 2 life." (CR 119.3: the controller loses it)."""
    card = get_card("Night's Whisper")
    assert card.spell is not None and [e.kind for e in card.spell.effects] == ["draw", "lose_life"]
    sit = Situation.from_dict({**_doc([], ["Island", "Forest"], [{"card": "Night's Whisper", "controller": "alice"}]),
                               "players": [{"id": "alice", "life": 10}, "bob"]})
    [(_c, out)] = sit.resolve()
    assert out.life("alice") == 8 and _names(out, "hand") == ["Island", "Forest"]


def test_a_card_that_acts_as_it_is_discarded_is_refused():
    """Madness (CR 702.35: "If you discard this card, discard it into exile …") is not modeled: a
    discard that could choose such a card answers unsupported, never a plain discard to the
    graveyard; a hand without one is exact."""
    doc = _doc(["Fiery Temper"], ["Island", "Forest"], [{"card": "Careful Study", "controller": "alice"}])
    r = Situation.from_dict(doc).query({"kind": "resolve"})
    assert r["status"] == "unsupported" and "Madness" in r["reason"]
    doc = _doc(["Lightning Bolt"], ["Island", "Forest"], [{"card": "Careful Study", "controller": "alice"}])
    assert Situation.from_dict(doc).query({"kind": "resolve"})["status"] == "ok"

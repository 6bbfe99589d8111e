"""The predefined tokens (CR 111.10: Treasure, Food, Gold, Clue, Blood, Powerstone, Map, Shard) and
investigate (CR 701.16a), read by grammar ("create <N> [tapped] <Name> token(s)") and created by
resolution with the abilities the rules give them, checked against tests/reference/tokens_ref.py.
A created Treasure's mana ability works in ``available_mana`` and ``pay``; a token ability the
reader does not read stays an unread part of the token (none of the predefined tokens now: Map's explore and Blood's discard cost are read)."""
from __future__ import annotations

import pytest

from mtgsolve.solver.api import Situation
from mtgsolve.solver.cards import card_from_mapping, get_card
from tests.reference.tokens_ref import TOKENS, token_count, token_record

BASE = {"format": "mtgsolve/1", "players": ["alice", "bob"], "turn": {"number": 3, "active": "alice", "step": "main1"},
        "library": {"alice": ["Island", "Forest", "Swamp"], "bob": ["Plains"]}}


def _tokens(sit: Situation) -> list[dict]:
    out = []
    for o in sit.state.zone("battlefield", "alice"):
        if o.token:
            d = o.card.data
            out.append({"name": d.name, "types": list(d.types), "subtypes": list(d.subtypes), "colors": list(d.colors),
                        "text": d.text, "tapped": o.tapped})
    return out


def test_deadly_dispute_draws_and_makes_a_treasure_that_taps_for_mana():
    sit = Situation.from_dict({**BASE, "stack": [{"card": "Deadly Dispute", "controller": "alice"}]})
    [(_choices, out)] = sit.resolve()
    assert _tokens(out) == [token_record("Treasure")]
    assert [o.name for o in out.state.zone("hand", "alice")] == ["Island", "Forest"]
    mana = out.query({"kind": "available_mana"})
    assert mana["status"] == "ok" and mana["bundles"] == ["{W}", "{U}", "{B}", "{R}", "{G}"]
    paid = out.query({"kind": "pay", "cost": "{B}"})
    assert paid["status"] == "ok" and [p["sacrifice"] for p in paid["payments"]] == [["treasure"]]


@pytest.mark.parametrize("doublers", [0, 1, 2])
def test_big_score_treasures_under_doublers(doublers):
    """Big Score: "Draw two cards and create two Treasure tokens." Each Doubling Season doubles."""
    bf = [{"id": f"season-{i}", "card": "Doubling Season"} for i in range(doublers)]
    sit = Situation.from_dict({**BASE, "battlefield": {"alice": bf},
                               "stack": [{"card": "Big Score", "controller": "alice"}]})
    [(_choices, out)] = sit.resolve()
    assert _tokens(out) == [token_record("Treasure")] * token_count(2, doublers)


def test_a_tapped_powerstone_and_an_investigation():
    """Hurkyl's Prodigy: "create a tapped Powerstone token" (CR 110.5b: it enters tapped); Thraben
    Inspector: "investigate" (CR 701.16a: create a Clue token)."""
    for card, want in (("Hurkyl's Prodigy", token_record("Powerstone", tapped=True)),
                       ("Thraben Inspector", token_record("Clue"))):
        sit = Situation.from_dict({**BASE, "battlefield": {"alice": [{"id": "c", "card": card}]},
                                   "stack": [{"ability": {"source": "c", "index": 1}, "controller": "alice"}]})
        [(_choices, out)] = sit.resolve()
        assert _tokens(out) == [want], card


@pytest.mark.parametrize("name", sorted(TOKENS))
def test_each_token_is_read_as_the_rules_define_it(name):
    """A token's card read from its rules text: every ability modeled — Map's explore (CR 701.44a) and
    Blood's "{1}, {T}, Discard a card, Sacrifice this token: Draw a card." (issue 25: the card discarded
    is a choice of the payment); an unread one would stay an unread part of the token, never dropped."""
    rec = token_record(name)
    card = card_from_mapping({"name": name, "type": f"{rec['types'][0]} — {name}", "types": rec["types"],
                              "subtypes": [name], "colors": [], "text": rec["text"]})
    unread = bool(card.unsupported) or any(getattr(e, "kind", "") == "unread"
                                           for a in card.abilities for e in getattr(a, "effects", ()))
    assert not unread, (name, card.unsupported)


@pytest.mark.parametrize("name,described", [
    ("Deadly Dispute", ["draw 2 card(s)", "create 1 Treasure token(s)"]),
    ("Bake into a Pie", ["destroy target #1", "create 1 Food token(s)"]),
    ("Big Score", ["draw 2 card(s)", "create 2 Treasure token(s)"]),
])
def test_reader_reads_predefined_tokens(name, described):
    card = get_card(name)
    assert card.spell is not None and not card.unsupported
    assert [e.describe() for e in card.spell.effects] == described


def test_a_partly_read_line_stays_unread():
    """"Its controller creates a 3/3 green Beast creature token." (Beast Within): a token for the
    target's controller, which the reader does not read here — the sentence stays unread, and
    resolving it is refused ("Its controller investigates.": tests/test_effects_its_controller.py)."""
    card = get_card("Beast Within")
    assert card.spell is not None and any(e.kind == "unread" for e in card.spell.effects)

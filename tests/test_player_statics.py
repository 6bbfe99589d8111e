"""Two statics about what a player may hold and know: "You have no maximum hand size." (CR 402.2, 514.1)
and "You may look at the top card of your library any time." (CR 401.2) — read on every database card
that prints either line alone, applied by the cleanup step and by the game session's view of a player."""
from __future__ import annotations

import gzip
import json
from pathlib import Path

import pytest

from mtgsolve.solver.api import Situation
from mtgsolve.solver.api.session import GameSession
from mtgsolve.solver.cards import get_card
from mtgsolve.solver.core import ir

ROOT = Path(__file__).resolve().parents[1]
LINES = {"You have no maximum hand size.": ir.NoMaximumHandSize,
         "You may look at the top card of your library any time.": ir.LookAtTopAnyTime}


@pytest.mark.parametrize("line", sorted(LINES))
def test_every_card_printing_the_line_reads_it(line):
    names = [c["name"] for c in json.load(gzip.open(ROOT / "solver" / "data" / "oracle-cards.json.gz"))
             if line in (c.get("text") or "").split("\n") and "//" not in c["name"]
             and "Class" not in (c.get("subtypes") or ())]   # a Class's level sections stay unread whole
    assert len(names) >= 15
    for name in names:
        assert any(isinstance(a, LINES[line]) for a in get_card(name).abilities), name


def _cleanup(tower_owner: str) -> list:
    return Situation.from_dict({
        "format": "mtgsolve/1", "players": ["alice", "bob"],
        "turn": {"number": 3, "active": "alice", "step": "end", "priority": "bob", "passed": ["alice"]},
        "battlefield": {tower_owner: ["Reliquary Tower"]}, "hand": {"alice": ["Forest"] * 6 + ["Island"] * 3},
        "library": {"alice": ["Forest"], "bob": ["Forest"]}}).outcomes("pass")


def test_no_maximum_hand_size_is_its_controllers():
    assert [len(s.zone("hand", "alice")) for _c, _p, s in _cleanup("alice")] == [9]
    assert sorted(len(s.zone("hand", "alice")) for _c, _p, s in _cleanup("bob")) == [7, 7, 7]   # FF, FI, II


def test_the_session_shows_the_top_card_to_its_controller_only():
    deck = ROOT / "benchmarks" / "decks" / "games" / "competitive" / "pauper_affinity.txt"
    game = GameSession([deck, deck], seed=0)
    game.situation = Situation.from_dict({
        "format": "mtgsolve/1", "players": ["alice", "bob"], "turn": {"number": 3, "active": "alice", "step": "main1"},
        "battlefield": {"alice": ["Vizier of the Menagerie"]},
        "library": {"alice": ["Lightning Bolt", "Forest"], "bob": ["Island", "Plains"]}})
    assert game.observe("alice")["library_top"] == {"alice": {"id": "lightning-bolt", "card": "Lightning Bolt"}}
    assert "library_top" not in game.observe("bob")

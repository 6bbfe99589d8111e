""""The color of your choice", channel effects and another player's search (issue 27 items 3-4).

* "<target> gains protection from the color of your choice until end of turn" (``Pump.chosen_protection``):
  one resolution outcome per color (CR 105.1, 608.2d), the effects entry's ``color``, protection from
  that color in the characteristics view (702.16a) — both ways: it stops that color and no other;
  an entry without its color is a located error, never a guess;
* "[cost], Discard this card: <effect>. This ability costs {N} less to activate for each …" (channel):
  the effect is read once the cost's own sentence is taken off;
* "That player may search their library for a land card with a basic land type …" (Boseiju).
Each family counted over the whole card database.
"""
from __future__ import annotations

import gzip
import json
import re
from pathlib import Path

import pytest

from mtgsolve.solver.api import Situation
from mtgsolve.solver.cards import get_card
from mtgsolve.solver.core import ir
from mtgsolve.solver.queries import Options, answer

DATA = Path(__file__).resolve().parent.parent / "solver" / "data" / "oracle-cards.json.gz"
TURN = {"number": 3, "active": "alice", "step": "main1"}


def _texts() -> list[dict]:
    return json.load(gzip.open(DATA))


def _effects(card) -> list:
    out = list(card.spell.effects) if card.spell is not None else []
    for a in card.abilities:
        out += list(getattr(a, "effects", ()) or ())
    return out


def _board(color: str | None, spell: str = "Shock") -> dict:
    entry = {"ability": {"source": "mother", "index": 1}, "controller": "alice", "targets": [["bears"]]}
    if color is not None:
        entry["color"] = color
    return {"format": "mtgsolve/1", "players": ["alice", "bob"], "turn": TURN | {"priority": "bob"},
            "battlefield": {"alice": [{"id": "mother", "card": "Mother of Runes", "tapped": True},
                                      {"id": "bears", "card": "Grizzly Bears"}], "bob": ["Mountain"]},
            "hand": {"bob": [spell]}, "effects": [entry]}


def test_one_outcome_per_color():
    sit = Situation.from_dict({"format": "mtgsolve/1", "players": ["alice", "bob"], "turn": TURN,
                               "battlefield": {"alice": [{"id": "mother", "card": "Mother of Runes", "tapped": True},
                                                         {"id": "bears", "card": "Grizzly Bears"}]},
                               "stack": [{"ability": {"source": "mother", "index": 1}, "controller": "alice",
                                          "targets": [["bears"]]}]})
    outs = sit.resolve()
    assert sorted(ch["color"]["color"] for ch, _ in outs) == sorted("WUBRG")   # CR 105.1
    for ch, after in outs:
        assert ch["color"]["player"] == "alice"
        assert after.view.chars("bears").keyword("protection") is not None
        (e,) = after.state.effects
        assert e.color == ch["color"]["color"]
        assert Situation.from_dict(after.to_dict()).state == after.state   # the key round-trips


@pytest.mark.parametrize("color, can_target", [("R", False), ("G", True), ("W", True)])
def test_chosen_protection_both_ways(color, can_target):
    sit = Situation.from_dict(_board(color))
    res = answer(sit.state, {"kind": "targets", "cast": "shock", "player": "bob"}, Options())
    assert (["bears"] in [ch[0] for ch in res["choices"]]) == can_target
    assert res["count"] == 3 + can_target   # alice, bob, Mother of Runes stay legal


def test_entry_without_its_color_is_an_error():
    with pytest.raises(ValueError, match="color"):
        Situation.from_dict(_board(None))


def test_chosen_protection_family_over_the_database():
    names = [c["name"] for c in _texts() if "protection from the color of your choice" in (c.get("text") or "")]
    read = [n for n in names if any(getattr(e, "chosen_protection", False) for e in _effects(get_card(n)))]
    assert len(names) == 30 and len(read) == 27   # left: a player's protection, "from artifacts or …", morph


def test_channel_effects_read_after_the_reduction():
    pat = re.compile(r"Discard this card: [^\n]*This ability costs \{\d+\} less to activate for each")
    names = [c["name"] for c in _texts() if pat.search(c.get("text") or "")]
    unread = [n for n in names
              if any(isinstance(e, ir.UnreadEffect) for a in get_card(n).abilities if isinstance(a, ir.ActivatedAbility)
                     and a.cost.discard_self for e in a.effects)]
    # the five channel lands; Sokenzan's "They gain haste" and Takenuma's mill-then-return stay unread
    assert len(names) == 5 and sorted(unread) == ["Sokenzan, Crucible of Defiance", "Takenuma, Abandoned Mire"]
    for n in ("Otawara, Soaring City", "Eiganjo, Seat of the Empire", "Boseiju, Who Endures"):
        assert n in names and n not in unread


def test_that_player_may_search_family():
    effs = _effects(get_card("Boseiju, Who Endures"))
    search = [e for e in effs if isinstance(e, ir.SearchLibrary)]
    assert len(search) == 1 and search[0].by_controller_of is not None and search[0].searcher_may
    assert search[0].quality.subtypes == frozenset({"Plains", "Island", "Swamp", "Mountain", "Forest"})
    vf = [e for e in _effects(get_card("Volatile Fault")) if isinstance(e, ir.SearchLibrary)]
    assert len(vf) == 1 and vf[0].by_controller_of is not None

"""Keywords of issue 25/27 read by helper kw2: suspend's triggered abilities (CR 702.62a), modular (702.43a),
fading (702.32a), vanishing (702.63a), living weapon (702.92a), combat damage triggers "to a creature" and
with no recipient, an anthem with a quoted grant, X/X tokens of a spell's mana value.

* the shapes over the whole card database (every card with the keyword and its number reads it);
* soundness both ways: read, a keyword blocks nothing; its unread variants ("Modular—Sunburst", "Vanishing"
  without a number) and a granted triggered ability block what they reach and nothing else;
* suspend's cast from exile against the brute-force targets reference (tests/reference/targets_ref.py): the
  outcomes are "decline" plus one per legal choice of the spell's targets as it is cast (Flagbearers,
  hexproof, protection), on random boards. ``MTGSOLVE_EXAMPLES`` scales the number of boards.
"""
from __future__ import annotations

import gzip
import json
import os
import re
from functools import lru_cache
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from reference.targets_ref import reference_targets
from mtgsolve.solver.cards import CardData, get_card, read_card
from mtgsolve.solver.core import ir
from mtgsolve.solver.io.load import situation_from_dict
from mtgsolve.solver.queries import answer

EXAMPLES = int(os.environ.get("MTGSOLVE_EXAMPLES", "400")) // 8
DATA = Path(__file__).resolve().parents[1] / "solver" / "data" / "oracle-cards.json.gz"


def state_of(**kw):
    d = {"format": "mtgsolve/1", "players": ["alice", "bob"], "turn": {"number": 3, "active": "alice", "step": "main1"}}
    d.update(kw)
    return situation_from_dict(d).state


@lru_cache(maxsize=1)
def _database() -> list[dict]:
    data = json.load(gzip.open(DATA))
    return data if isinstance(data, list) else list(data.values())


def _cards_with(pattern: str) -> list[dict]:
    rx = re.compile(pattern, re.M)
    return [c for c in _database() if rx.search(re.sub(r"\([^)]*\)", "", c.get("text") or ""))]


# ---------------------------------------------------------------------------
# The shapes, over the database
# ---------------------------------------------------------------------------

def _keyword_lines_read(pattern: str) -> tuple[int, list[str]]:
    """Cards whose line matching ``pattern`` (the keyword and its number alone) is read: no unread part
    names that line."""
    cards = _cards_with(pattern)
    missed = []
    rx = re.compile(pattern, re.M)
    for c in cards:
        card = read_card(CardData.from_mtgjson(c))
        lines = [ln for ln in (c.get("text") or "").split("\n") if rx.search(re.sub(r"\([^)]*\)", "", ln))]
        if any(isinstance(a, ir.Unsupported) and a.text in lines for a in card.abilities):
            missed.append(c["name"])
    return len(cards), missed


def test_counter_keywords_read_on_every_card():
    for pattern, least in ((r"^Modular \d+\b", 20), (r"^Fading \d+\b", 10), (r"^Vanishing \d+\b", 10),
                           (r"^Living weapon\b", 10)):
        n, missed = _keyword_lines_read(pattern)
        assert n >= least and not missed, (pattern, n, missed)


def test_suspend_abilities_read_on_every_card_with_fixed_counters():
    n, missed = _keyword_lines_read(r"^Suspend \d+—")
    assert n >= 50 and not missed, (n, missed)


def test_unread_variants_stay_unread():
    for name, text in (("Moon Sunburst", "Modular—Sunburst"), ("Moon Vanish", "Vanishing")):
        d = CardData.from_mtgjson({"name": name, "manaCost": "{3}", "type": "Artifact Creature — Golem",
                                   "types": ["Artifact", "Creature"], "power": "0", "toughness": "0", "text": text})
        assert any(isinstance(a, ir.Unsupported) for a in read_card(d).abilities), text


# ---------------------------------------------------------------------------
# Soundness, both ways
# ---------------------------------------------------------------------------

def _inline(text: str) -> dict:
    return {"card": {"name": "Moon Golem", "manaCost": "{3}", "type": "Artifact Creature — Golem",
                     "types": ["Artifact", "Creature"], "power": "1", "toughness": "1", "text": text}}


def test_read_keywords_block_nothing_and_unread_ones_block_what_they_reach():
    ends = {"number": 3, "active": "bob", "step": "end", "priority": "alice", "passed": ["bob"]}
    for name in ("Arcbound Ravager", "Blastoderm", "Deep Forest Hermit", "Batterskull", "Umezawa's Jitte"):
        s = state_of(turn=ends, battlefield={"alice": [name]}, hand={"alice": ["Shock"]})
        assert answer(s, {"kind": "pass"})["status"] == "ok", name
        assert answer(s, {"kind": "targets", "cast": "shock", "player": "alice"})["status"] == "ok", name
    # unread: the Sunburst golem could die or enter as a resolution goes on; it never changes Shock's targets
    s = state_of(battlefield={"alice": [_inline("Modular—Sunburst")]}, hand={"alice": ["Shock"]},
                 stack=[{"card": "Shock", "controller": "bob", "targets": [["moon-golem"]]}])
    assert answer(s, {"kind": "resolve"})["status"] == "unsupported"
    s = state_of(battlefield={"alice": [_inline("Modular—Sunburst")], "bob": ["Mountain"]},
                 hand={"alice": ["Shock"]})
    assert answer(s, {"kind": "targets", "cast": "shock"})["status"] == "ok"


def test_granted_triggered_ability_blocks_its_events_only():
    """The kernel triggers printed abilities only: a triggered ability granted by a static (Catlike
    Curiosity) is an unread part reaching triggers — combat damage is refused, Shock's targets are not."""
    damage = {"number": 3, "active": "alice", "step": "declare_blockers", "priority": "bob", "passed": ["alice"]}
    board = {"alice": [{"card": "Hill Giant", "tapped": True, "attacking": "bob"},
                       {"card": "Catlike Curiosity", "attached_to": "hill-giant"}]}
    s = state_of(turn=damage, battlefield=board, library={"alice": ["Island"]})
    res = answer(s, {"kind": "pass"})
    assert res["status"] == "unsupported" and res["unsupported"][0]["affects"] == ["triggers"]
    s = state_of(battlefield=board, hand={"alice": ["Shock"]})
    assert answer(s, {"kind": "targets", "cast": "shock"})["status"] == "ok"


def test_shark_trigger_records_the_spell_it_sizes_by():
    """Casting a noncreature spell with Shark Typhoon out puts its trigger on the stack naming that spell
    (the event object, CR 603.2): resolving, the Shark's size is the spell's mana value."""
    from mtgsolve.solver.api import Situation
    sit = Situation.from_dict({"format": "mtgsolve/1", "players": ["alice", "bob"],
                               "turn": {"number": 3, "active": "alice", "step": "main1"},
                               "battlefield": {"alice": ["Shark Typhoon", "Mountain", "Mountain"]},
                               "hand": {"alice": ["Shock"]}})
    after = sit.apply("cast shock -> bob paying mountain")
    top = after.to_dict()["stack"][0]
    assert top["ability"] == {"source": "shark-typhoon", "index": 1} and top["event_object"] == "shock"
    (out,) = answer(situation_from_dict(after.to_dict()).state, {"kind": "resolve"})["outcomes"]
    shark = [o for o in out["situation"]["battlefield"]["alice"] if o["id"] == "shark"]
    assert shark and shark[0]["card"]["power"] == "1"


# ---------------------------------------------------------------------------
# Suspend's cast against the targets reference
# ---------------------------------------------------------------------------

POOL = ["Grizzly Bears", "Troll Ascetic", "Soltari Priest", "Coalition Honor Guard", "Silvercoat Lion"]
SPELLS = ["Rift Bolt", "Ancestral Vision", "Lotus Bloom"]


@st.composite
def boards(draw):
    mine = draw(st.lists(st.sampled_from(POOL), max_size=2))
    theirs = draw(st.lists(st.sampled_from(POOL), max_size=3))
    spell = draw(st.sampled_from(SPELLS))
    return mine, theirs, spell


def _ids(names: list[str], who: str) -> list[dict]:
    return [{"id": f"{who}-{i}", "card": n} for i, n in enumerate(names)]


@settings(max_examples=EXAMPLES, deadline=None, suppress_health_check=list(HealthCheck), derandomize=bool(os.environ.get("CI")))
@given(boards())
def test_suspend_cast_matches_targets_reference(board):
    mine, theirs, spell = board
    bf = {"alice": _ids(mine, "a"), "bob": _ids(theirs, "b")}
    turn = {"number": 5, "active": "alice", "step": "upkeep", "priority": "alice"}
    cast = state_of(turn=turn, battlefield=bf, exile={"alice": [{"id": "sus", "card": spell}]},
                    stack=[{"ability": {"source": "sus", "index": 2}, "controller": "alice"}])
    got = answer(cast, {"kind": "resolve"})
    assert got["status"] == "ok", got
    chosen = sorted(json.dumps(o["choices"]["suspend_cast"].get("targets")) for o in got["outcomes"]
                    if o["choices"].get("suspend_cast", {}).get("cast"))
    in_hand = state_of(turn={"number": 5, "active": "alice", "step": "main1"}, battlefield=bf,
                       hand={"alice": [{"id": "sus", "card": spell}]})
    specs = get_card(spell).spell.targets if get_card(spell).spell is not None else ()
    if not specs:
        assert chosen == ["null"] and got["count"] == 2
        return
    ref = reference_targets(in_hand, {"kind": "targets", "cast": "sus"})
    want = sorted(json.dumps([list(g) for g in c]) for c in ref["choices"])
    assert len(chosen) == ref["count"], (chosen, ref)
    if ref["count"] > 1:      # one choice only: not recorded (it is no choice)
        assert chosen == want
    assert got["count"] == 1 + ref["count"]   # declining, or casting it with each choice (CR 702.62a)


def test_cycling_puts_the_cycle_trigger_above_with_its_x():
    """CR 702.29c: cycling Shark Typhoon for X = 2 triggers "When you cycle this card" from the graveyard;
    the trigger goes on the stack above the cycling ability (CR 603.3) with the X paid; resolved, a 2/2."""
    from mtgsolve.solver.api import Situation
    sit = Situation.from_dict({"format": "mtgsolve/1", "players": ["alice", "bob"],
                               "turn": {"number": 3, "active": "alice", "step": "main1"},
                               "battlefield": {"alice": ["Island", "Island", "Island", "Island"]},
                               "hand": {"alice": ["Shark Typhoon"]}, "library": {"alice": ["Island"]}})
    after = sit.apply("activate shark-typhoon:1 x=2 paying island, island-2, island-3, island-4")
    stack = after.to_dict()["stack"]
    assert [(o["ability"]["index"], o.get("x")) for o in stack] == [(3, 2), (2, 2)]
    (out,) = answer(situation_from_dict(after.to_dict()).state, {"kind": "resolve"})["outcomes"]
    (shark,) = out["situation"]["battlefield"]["alice"][-1:]
    assert shark["card"]["power"] == "2" and shark["token"]
    # transmute is not cycling (CR 702.53a, 702.29f); typecycling is
    assert any(getattr(a, "cycling", False) for a in get_card("Ash Barrens").abilities)
    assert not [a for a in get_card("Dimir House Guard").abilities if getattr(a, "cycling", False)]


def test_fleetwheel_attacks_only_while_animated():
    """Without its enters trigger's effect the Vehicle is no creature and can't attack (CR 301.7, 508.1a)."""
    turn = {"number": 5, "active": "alice", "step": "declare_attackers", "priority": "alice"}
    s = state_of(turn=turn, battlefield={"alice": [{"card": "Fleetwheel Cruiser", "sick": True}]})
    assert answer(s, {"kind": "attacks"})["count"] == 1
    card = get_card("Fleetwheel Cruiser")
    assert not [a for a in card.abilities if isinstance(a, ir.Unsupported)]

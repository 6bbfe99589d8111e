"""Cycling's effects, read from the keyword (CR 702.29a: "Cycling [cost]" means "[Cost], Discard this
card: Draw a card."; 702.29e: "[Type]cycling [cost]" means "… Search your library for a [type] card,
reveal it, put it into your hand, then shuffle."): the reader over every cycling line of the
database, resolution against the brute-force search reference (tests/reference/library_ref.py) on
random libraries (transmute's search by mana value too, CR 702.53a), and soundness both ways (a read
cycling ability resolves; an unread one — "artifact landcycling" — still blocks ``resolve`` and nothing
else)."""
from __future__ import annotations

import random
import re

import pytest

from mtgsolve.solver.api import Situation
from mtgsolve.solver.cards import get_card, oracle_index
from mtgsolve.solver.core import ir
from tests.reference.library_ref import search_results

POOL = ["Swamp", "Swamp", "Snow-Covered Swamp", "Forest", "Island", "Ash Barrens", "Grizzly Bears",
        "Watery Grave", "Wrath of God", "Phyrexian Arena"]


def _hand_ability(name: str) -> ir.ActivatedAbility:
    [ab] = [a for a in get_card(name).abilities if isinstance(a, ir.ActivatedAbility) and a.zone == "hand"]
    return ab


def _types(name: str) -> tuple[set[str], set[str], set[str]]:
    d = get_card(name).data
    return set(d.types), set(d.subtypes), set(d.supertypes)


@pytest.mark.parametrize("card,index,qualifies", [
    ("Twisted Abomination", 2, lambda n: "Swamp" in _types(n)[1]),                        # Swampcycling
    ("Ash Barrens", 2, lambda n: "Land" in _types(n)[0] and "Basic" in _types(n)[2]),     # Basic landcycling
    ("Dimir House Guard", 2, lambda n: get_card(n).data.mana_cost.mana_value == 4),       # Transmute (702.53a)
])
def test_typecycling_matches_the_search_reference(card, index, qualifies):
    rng = random.Random(7)
    for _ in range(12):
        library = [rng.choice(POOL) for _ in range(rng.randint(0, 5))]
        sit = Situation.from_dict({"format": "mtgsolve/1", "players": ["alice", "bob"],
                                   "turn": {"number": 3, "active": "alice", "step": "main1"},
                                   "graveyard": {"alice": [{"id": "cycled", "card": card}]},
                                   "library": {"alice": library, "bob": ["Plains"]},
                                   "stack": [{"ability": {"source": "cycled", "index": index}, "controller": "alice"}]})
        got = []
        for _c, out in sit.resolve():
            hand = [o.name for o in out.state.zone("hand", "alice")]
            got.append((hand[0] if hand else None, tuple(sorted(o.name for o in out.state.zone("library", "alice")))))
        assert len(got) == len(set(got)) and set(got) == search_results(library, qualifies, True), library


def test_cycling_draws_from_a_shuffled_library_by_chance():
    """A cycled card's draw from a library in random order is a random event (CR 121): one outcome
    per distinct card, with its probability."""
    sit = Situation.from_dict({"format": "mtgsolve/1", "players": ["alice", "bob"],
                               "turn": {"number": 3, "active": "alice", "step": "main1"},
                               "graveyard": {"alice": ["Censor"]}, "library": {"alice": ["Island", "Island", "Forest"]},
                               "shuffled": {"alice": True},
                               "stack": [{"ability": {"source": "censor", "index": 1}, "controller": "alice"}]})
    r = sit.query({"kind": "resolve"})
    assert r["status"] == "ok" and sorted(round(o["probability"], 6) for o in r["outcomes"]) == [round(1 / 3, 6), round(2 / 3, 6)]


_CYCLING = re.compile(r"^(?:(?:Basic )?[Ll]andcycling|Cycling|[A-Z][a-z'-]*cycling) \{[^ ]+\}(?: \(|$)")


def test_every_mana_cycling_line_of_the_database_is_read():
    """Every "Cycling {cost}", "Basic landcycling {cost}", "[Subtype]cycling {cost}" line of the shipped
    database is read with its effect — except a keyword naming no subtype (it stays unread)."""
    seen, unread = 0, []
    for name, record in oracle_index().items():
        lines = [ln for ln in (record.get("text") or "").split("\n") if _CYCLING.match(ln)]
        if not lines:
            continue
        abilities = [a for a in get_card(name).abilities if isinstance(a, ir.ActivatedAbility) and a.zone == "hand"]
        for line in lines:
            seen += 1
            if not any(a.text.strip() == line.strip() and not any(isinstance(e, ir.UnreadEffect) for e in a.effects)
                       for a in abilities):
                unread.append((name, line))
    assert seen > 300 and len(unread) <= 2, (seen, unread)


def test_two_typecycling_keywords_in_one_line():
    """"Plainscycling {2}, islandcycling {2}" (Sanctum Plowbeast): one ability each (CR 702.29e)."""
    plains, island = [a for a in get_card("Sanctum Plowbeast").abilities
                      if isinstance(a, ir.ActivatedAbility) and a.zone == "hand"]
    assert [e.quality.subtypes for e in plains.effects + island.effects] == [{"Plains"}, {"Island"}]  # type: ignore[union-attr]


@pytest.mark.parametrize("life,can_cycle", [(20, True), (2, True), (1, False)])
def test_cycling_for_life(life, can_cycle):
    """Street Wraith: "Cycling—Pay 2 life." — a cost of life (CR 118.1, 119.4: a player can pay life
    only up to their life total), then "Draw a card"."""
    [ab] = [a for a in get_card("Street Wraith").abilities if isinstance(a, ir.ActivatedAbility)]
    assert ab.cost.life == 2 and ab.cost.discard_self and [e.kind for e in ab.effects] == ["draw"]
    sit = Situation.from_dict({"format": "mtgsolve/1", "players": [{"id": "alice", "life": life}, "bob"],
                               "turn": {"number": 3, "active": "alice", "step": "main1"},
                               "hand": {"alice": ["Street Wraith"]}, "library": {"alice": ["Island"]}})
    acts = [str(a) for a in sit.legal_actions]
    assert (acts[0] == "activate street-wraith:1 paying life 2") == can_cycle
    if can_cycle:
        [(_c, out)] = sit.apply(acts[0]).resolve()
        assert out.life("alice") == life - 2 and [o.name for o in out.state.zone("hand", "alice")] == ["Island"]

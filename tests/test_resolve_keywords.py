"""Deathtouch and lifelink in the ``resolve`` query, and the reader's combat keywords.

* CR 702.2b, 704.5h: a creature dealt damage (any amount, not only combat
  damage) by a source with deathtouch is destroyed by the next state-based
  action check, unless indestructible (CR 702.12b).
* CR 702.15b: damage dealt by a source with lifelink makes that source's
  controller gain that much life, as part of the damage event.
* CR 702.16e: damage prevented by protection is not dealt: neither applies.
* Vigilance, reach, menace, flying, first/double strike, trample, defender and
  landwalk only matter in combat, which is not modeled: the reader records
  them (so cards bearing them are read fully) and resolution ignores them.

Cards: real ones (Vampire Nighthawk, Deadly Recluse, Cartouche of Strength,
Icehide Troll, White Knight, Prodigal Pyromancer) and inline cards (MTGJSON
field names) read by the Oracle-text reader.
"""
from __future__ import annotations

from typing import Any

import pytest

from mtgsolve.solver.cards import card_from_mapping, get_card
from mtgsolve.solver.core.ir import Keyword
from mtgsolve.solver.queries import Options, answer
from mtgsolve.solver.io.load import situation_from_dict


def situation(**kw: Any) -> dict:
    d: dict[str, Any] = {"format": "mtgsolve/1", "players": ["alice", "bob"]}
    d.update(kw)
    return d


def resolve(d: dict) -> dict:
    r = answer(situation_from_dict(d).state, {"kind": "resolve"}, Options())
    assert r["status"] == "ok", r
    return r


def life(sit: dict, player: str) -> int:
    for p in sit["players"]:
        if p == player:
            return 20
        if isinstance(p, dict) and p["id"] == player:
            return p.get("life", 20)
    raise KeyError(player)


def ids(sit: dict, zone: str, player: str) -> list[str]:
    return [o["id"] for o in sit.get(zone, {}).get(player, [])]


def damage(sit: dict, oid: str) -> int:
    for objs in sit.get("battlefield", {}).values():
        for o in objs:
            if o["id"] == oid:
                return o.get("damage", 0)
    raise KeyError(oid)


def creature(name: str, text: str, power: int, toughness: int, cost: str = "{2}{B}") -> dict:
    """An inline creature card (MTGJSON field names)."""
    return {"name": name, "manaCost": cost, "type": "Creature — Test", "types": ["Creature"],
            "subtypes": ["Test"], "text": text, "power": str(power), "toughness": str(toughness)}


# Inline cards, as situation objects ({"card": <mapping>}).
VANILLA_WURM = {"card": creature("Test Wurm", "", 6, 6, "{4}{G}{G}")}
DEATHTOUCH_PINGER = {"card": creature("Test Deathtouch Pinger",
                                      "Deathtouch\n{T}: This creature deals 1 damage to any target.", 1, 1)}
LIFELINK_PINGER = {"card": creature("Test Lifelink Pinger",
                                    "Lifelink\n{T}: This creature deals 1 damage to any target.", 1, 1, "{2}{W}")}


def cartouche_fight(host: Any, host_id: str, opponent: Any, opponent_id: str, **extra: Any) -> dict:
    """Cartouche of Strength on ``host`` (alice's), its trigger on the stack
    targeting bob's ``opponent``: "you may have enchanted creature fight target
    creature an opponent controls"."""
    return situation(battlefield={"alice": [host, {"card": "Cartouche of Strength", "attached_to": host_id}],
                                  "bob": [opponent]},
                     stack=[{"ability": {"source": "cartouche-of-strength", "index": 1},
                             "targets": [[opponent_id]]}], **extra)


def fought(r: dict) -> dict:
    """The outcome where the controller chose to fight (CR 608.2d)."""
    assert r["count"] == 2
    (sit,) = [o["situation"] for o in r["outcomes"] if o["choices"] == {"may": True}]
    return sit


# ---------------------------------------------------------------------------
# The reader
# ---------------------------------------------------------------------------

@pytest.mark.parametrize("name,keywords", [
    ("Vampire Nighthawk", ["flying", "deathtouch", "lifelink"]),
    ("Deadly Recluse", ["reach", "deathtouch"]),
    ("Serra Angel", ["flying", "vigilance"]),
    ("Boros Swiftblade", ["double strike"]),
])
def test_real_keyword_cards_are_read_fully(name, keywords):
    c = get_card(name)
    assert not c.unsupported
    assert list(c.abilities) == [Keyword(k) for k in keywords]


def test_inline_keyword_lines_single_and_comma_separated():
    c = card_from_mapping(creature("Test Keywords", "Vigilance, reach\nMenace\nDouble strike\nLifelink", 2, 2))
    assert not c.unsupported
    assert list(c.abilities) == [Keyword("vigilance"), Keyword("reach"), Keyword("menace"),
                                 Keyword("double strike"), Keyword("lifelink")]


def test_granted_keywords_include_the_new_ones():
    spell = {"name": "Test Blessing", "manaCost": "{W}", "type": "Instant", "types": ["Instant"],
             "text": "Target creature gains double strike, deathtouch, and lifelink until end of turn."}
    c = card_from_mapping(spell)
    assert not c.unsupported and c.spell is not None
    assert c.spell.effects[0].keywords == ("double strike", "deathtouch", "lifelink")


# ---------------------------------------------------------------------------
# Deathtouch (CR 702.2b, 704.5h)
# ---------------------------------------------------------------------------

def test_cartouche_deathtouch_fight_destroys_the_bigger_creature():
    # Deadly Recluse 1/2 + Cartouche = 2/3 deals 2 deathtouch damage to a 6/6, takes 6: both die.
    sit = fought(resolve(cartouche_fight("Deadly Recluse", "deadly-recluse", VANILLA_WURM, "test-wurm")))
    assert ids(sit, "graveyard", "bob") == ["test-wurm"]
    assert "deadly-recluse" in ids(sit, "graveyard", "alice")


def test_without_deathtouch_the_same_fight_leaves_the_wurm_damaged():
    sit = fought(resolve(cartouche_fight("Grizzly Bears", "grizzly-bears", VANILLA_WURM, "test-wurm")))
    assert ids(sit, "battlefield", "bob") == ["test-wurm"] and damage(sit, "test-wurm") == 3


def test_indestructible_creature_survives_deathtouch():
    # Icehide Troll's ability resolved this turn: +2/+0 and indestructible (CR 702.12b).
    d = cartouche_fight("Deadly Recluse", "deadly-recluse", "Icehide Troll", "icehide-troll",
                        effects=[{"ability": {"source": "icehide-troll", "index": 1}, "controller": "bob"}])
    sit = fought(resolve(d))
    assert ids(sit, "battlefield", "bob") == ["icehide-troll"] and damage(sit, "icehide-troll") == 2


def test_deathtouch_pinger_destroys_a_creature_with_one_damage():
    d = situation(battlefield={"alice": [DEATHTOUCH_PINGER], "bob": [VANILLA_WURM]},
                  stack=[{"ability": {"source": "test-deathtouch-pinger", "index": 1},
                          "targets": [["test-wurm"]]}])
    r = resolve(d)
    assert r["count"] == 1
    sit = r["outcomes"][0]["situation"]
    assert ids(sit, "graveyard", "bob") == ["test-wurm"] and ids(sit, "battlefield", "bob") == []


def test_deathtouch_works_from_last_known_information():
    # The pinger left the battlefield after activating: its ability still deals deathtouch damage (CR 702.2d).
    d = situation(battlefield={"bob": [VANILLA_WURM]},
                  graveyard={"alice": [DEATHTOUCH_PINGER]},
                  stack=[{"ability": {"source": "test-deathtouch-pinger", "index": 1},
                          "last_known": {"tapped": True}, "targets": [["test-wurm"]]}])
    (o,) = resolve(d)["outcomes"]
    assert ids(o["situation"], "graveyard", "bob") == ["test-wurm"]


def test_deathtouch_damage_to_a_player_is_just_damage():
    d = situation(battlefield={"alice": [DEATHTOUCH_PINGER]},
                  stack=[{"ability": {"source": "test-deathtouch-pinger", "index": 1}, "targets": [["bob"]]}])
    (o,) = resolve(d)["outcomes"]
    assert life(o["situation"], "bob") == 19 and life(o["situation"], "alice") == 20


def test_prodigal_pyromancer_without_deathtouch_does_not_destroy():
    d = situation(battlefield={"alice": ["Prodigal Pyromancer"], "bob": [VANILLA_WURM]},
                  stack=[{"ability": {"source": "prodigal-pyromancer", "index": 1}, "targets": [["test-wurm"]]}])
    (o,) = resolve(d)["outcomes"]
    assert damage(o["situation"], "test-wurm") == 1


def test_protection_prevents_deathtouch_and_lifelink():
    # White Knight has protection from black: Vampire Nighthawk's (black) damage is prevented (CR 702.16e),
    # so it is not destroyed and alice gains nothing; the Knight deals 2 to the 3/4 Nighthawk.
    sit = fought(resolve(cartouche_fight("Vampire Nighthawk", "vampire-nighthawk", "White Knight", "white-knight")))
    assert ids(sit, "battlefield", "bob") == ["white-knight"] and damage(sit, "white-knight") == 0
    assert life(sit, "alice") == 20 and damage(sit, "vampire-nighthawk") == 2


# ---------------------------------------------------------------------------
# Lifelink (CR 702.15b)
# ---------------------------------------------------------------------------

def test_lifelink_fight_gains_the_damage_dealt():
    # Vampire Nighthawk 2/3 + Cartouche = 3/4 fights Grizzly Bears: deals 3, alice gains 3.
    sit = fought(resolve(cartouche_fight("Vampire Nighthawk", "vampire-nighthawk", "Grizzly Bears",
                                         "grizzly-bears")))
    assert life(sit, "alice") == 23 and life(sit, "bob") == 20
    assert ids(sit, "graveyard", "bob") == ["grizzly-bears"] and damage(sit, "vampire-nighthawk") == 2


def test_lifelink_gain_is_the_damage_dealt_not_the_toughness():
    # 3 damage to a 6/6 still gains 3 (no trample or excess rules in a fight).
    sit = fought(resolve(cartouche_fight("Vampire Nighthawk", "vampire-nighthawk", VANILLA_WURM, "test-wurm")))
    assert life(sit, "alice") == 23
    assert ids(sit, "graveyard", "bob") == ["test-wurm"]  # and deathtouch destroyed it
    assert "vampire-nighthawk" in ids(sit, "graveyard", "alice")  # 6 damage to a 3/4


def test_lifelink_pinger_at_a_player_and_at_a_creature():
    for target in ("bob", "test-wurm"):
        d = situation(battlefield={"alice": [LIFELINK_PINGER], "bob": [VANILLA_WURM]},
                      stack=[{"ability": {"source": "test-lifelink-pinger", "index": 1}, "targets": [[target]]}])
        (o,) = resolve(d)["outcomes"]
        assert life(o["situation"], "alice") == 21
        assert life(o["situation"], "bob") == (19 if target == "bob" else 20)


def test_lifelink_goes_to_the_sources_controller_not_its_owner():
    # bob controls the lifelink pinger (owned by alice): bob gains the life.
    d = situation(battlefield={"bob": [{**LIFELINK_PINGER, "owner": "alice"}]},
                  stack=[{"ability": {"source": "test-lifelink-pinger", "index": 1}, "controller": "bob",
                          "targets": [["alice"]]}])
    (o,) = resolve(d)["outcomes"]
    assert life(o["situation"], "bob") == 21 and life(o["situation"], "alice") == 19


def test_granted_lifelink_counts():
    # Moment of Heroism resolved this turn on the Bears (+2/+2 and lifelink): the 4/4 Bears fight via the
    # Cartouche as a 5/5 and deal 5 to a 6/6: alice gains 5.
    d = cartouche_fight("Grizzly Bears", "grizzly-bears", VANILLA_WURM, "test-wurm",
                        effects=[{"card": "Moment of Heroism", "controller": "alice",
                                  "targets": [["grizzly-bears"]]}])
    sit = fought(resolve(d))
    assert life(sit, "alice") == 25 and damage(sit, "test-wurm") == 5

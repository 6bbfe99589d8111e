"""Statics that apply "as long as" a condition holds (CR 611.3a): the reader
(``solver/reader/conditional_statics.py``), the characteristics view that applies them
only while the condition holds, and the order dependence they cause in mana payments."""
from __future__ import annotations

import pytest

from mtgsolve.solver.core import ir
from mtgsolve.solver.cards import CardData, oracle_index
from mtgsolve.solver.rules.characteristics import View
from mtgsolve.solver.queries import answer
from mtgsolve.solver.reader import read
from mtgsolve.solver.io.load import situation_from_dict


def statics(name: str) -> list[ir.Static]:
    abilities, _ = read(CardData.from_mtgjson(oracle_index()[name]))
    return [a for a in abilities if isinstance(a, ir.Static)]


def custom(text: str) -> list[ir.Ability]:
    return read(CardData.from_mtgjson({"name": "Test Card", "type": "Creature — Bear", "types": ["Creature"],
                                       "text": text, "power": "2", "toughness": "2"}))[0]


def test_reads_both_word_orders_and_lists():
    raider, = statics("Goblin Tomb Raider")
    assert (raider.kind, raider.power, raider.toughness, raider.keywords) == ("pump", 1, 0, ("haste",))
    assert raider.condition == ir.ControlCount(ir.Selector(who="you", types=frozenset({"Artifact"})))
    ape, = statics("Kird Ape")   # "<static> as long as <condition>"
    assert (ape.power, ape.toughness) == (1, 2) and ape.condition.kind == "control"
    assert ape.condition.selector.subtypes == {"Forest"}
    bear, = statics("Werebear")   # threshold, behind an ability word
    assert bear.condition == ir.GraveyardCount(n=7) and bear.power == 3
    drc = statics("Dragon's Rage Channeler")   # "gets +2/+2, has flying, and attacks each combat if able"
    assert [(s.kind, s.power, s.keywords) if isinstance(s, ir.StaticPump) else s.kind for s in drc] == \
        [("pump", 2, ()), ("pump", 0, ("flying",)), "must_attack"]
    assert {s.condition for s in drc} == {ir.GraveyardTypes(n=4)}
    assert "as long as there are 4 or more card types among cards in your graveyard" in drc[0].describe()


@pytest.mark.parametrize("text", [
    "As long as this creature is monstrous, it gets +1/+1.",                # a condition not read
    "As long as you control a creature with power 4 or greater, this creature gets +1/+1.",  # reads layer 7
    "As long as it's your turn, this creature gets +1/+1 and you may draw a card.",  # not a static
    "As long as you control an artifact, spells you cast cost {1} less to cast.",   # a kind not governed
    "This spell has flash as long as you control a Merfolk.",   # works in the hand (CR 702.8a)
])
def test_other_conditions_and_statics_stay_unsupported(text):
    assert all(isinstance(a, ir.Unsupported) for a in custom(text)), custom(text)


def _view(battlefield, graveyard=None, active="alice", poison=0):
    d = {"format": "mtgsolve/1", "players": ["alice", {"id": "bob", "poison": poison}],
         "turn": {"number": 3, "active": active, "step": "main1"},
         "battlefield": battlefield, "graveyard": graveyard or {}}
    return View(situation_from_dict(d).state)


def test_applies_only_while_the_condition_holds():
    on = _view({"alice": ["Goblin Tomb Raider", "Ornithopter"]}).chars("goblin-tomb-raider")
    assert (on.power, on.keyword("haste")) == (2, True)   # a 1/2
    off = _view({"alice": ["Goblin Tomb Raider"], "bob": ["Ornithopter"]}).chars("goblin-tomb-raider")
    assert (off.power, off.keyword("haste")) == (1, False)   # bob's artifact: "you control" is alice
    seven = {"alice": ["Forest"] * 7}
    assert _view({"alice": ["Werebear"]}, seven).chars("werebear").power == 4
    assert _view({"alice": ["Werebear"]}, {"alice": ["Forest"] * 6, "bob": ["Forest"]}).chars("werebear").power == 1
    # Kird Ape reads subtypes: Breeding Pool is a Forest, Island is not
    assert _view({"alice": ["Kird Ape", "Island"]}).chars("kird-ape").toughness == 1
    assert _view({"alice": ["Kird Ape", "Breeding Pool"]}).chars("kird-ape").toughness == 3


def test_delirium_counts_card_types_not_cards():
    three = {"alice": ["Forest", "Lightning Bolt", "Grizzly Bears", "Llanowar Elves"]}
    assert _view({"alice": ["Dragon's Rage Channeler"]}, three).chars("dragons-rage-channeler").power == 1
    four = {"alice": ["Forest", "Lightning Bolt", "Grizzly Bears", "Ornithopter"]}   # artifact creature: two types
    c = _view({"alice": ["Dragon's Rage Channeler"]}, four).chars("dragons-rage-channeler")
    assert (c.power, c.toughness, c.keyword("flying")) == (3, 3, True)


def _answer(bf, query, graveyard=None):
    d = {"format": "mtgsolve/1", "players": ["alice", "bob"], "turn": {"number": 3, "active": "alice", "step": "main1"},
         "battlefield": bf, "graveyard": graveyard or {}, "query": query}
    loaded = situation_from_dict(d)
    return answer(loaded.state, loaded.queries[0])


HASTY_ELF = {"name": "Hasty Elf", "type": "Creature — Elf Druid", "types": ["Creature"], "subtypes": ["Elf", "Druid"],
             "power": "1", "toughness": "1", "manaCost": "{G}",
             "text": "As long as you control an artifact, this creature has haste.\n{T}: Add {G}."}


def test_a_sacrifice_for_mana_that_could_turn_the_condition_off_is_order_dependent():
    """Sacrificing Ornithopter to Ashnod's Altar first would take away the sick Elf's haste,
    and with it its {T} mana ability (CR 611.3a, 302.6): refused, naming both. Haste on a
    creature with no mana ability, or no mana ability that changes the condition: ok."""
    r = _answer({"alice": [{"card": HASTY_ELF, "sick": True}, "Ornithopter", "Ashnod's Altar"]},
                {"kind": "available_mana"})
    assert r["status"] == "unsupported" and "Hasty Elf" in r["reason"] and "order" in r["reason"], r
    r = _answer({"alice": [{"card": "Goblin Tomb Raider", "sick": True}, "Ornithopter", "Ashnod's Altar"]},
                {"kind": "available_mana"})
    assert r["status"] == "ok" and r["bundles"] == ["{C}{C}{C}{C}"], r   # sacrificing both
    r = _answer({"alice": [{"card": HASTY_ELF, "sick": True}, "Ornithopter", "Forest"]}, {"kind": "available_mana"})
    assert r["status"] == "ok" and r["bundles"] == ["{G}{G}"], r   # haste: the sick Elf taps for mana


def test_a_power_read_by_a_mana_ability_is_order_dependent():
    """Werebear has +3/+3 from seven cards in the graveyard; sacrificing Lion's Eye Diamond for
    mana first puts the seventh there, and Leafkin Avenger counts creatures with power 4 or
    greater (CR 107.3): refused. Without a reader of power the same board is ok."""
    six = {"alice": ["Forest"] * 6}
    r = _answer({"alice": ["Werebear", "Leafkin Avenger", "Lion's Eye Diamond"]}, {"kind": "available_mana"}, six)
    assert r["status"] == "unsupported" and "Werebear" in r["reason"], r
    r = _answer({"alice": ["Werebear", "Lion's Eye Diamond"]}, {"kind": "available_mana"}, six)
    assert r["status"] == "ok", r   # nothing reads Werebear's power


def _creature(text: str, name: str = "Test Bear") -> dict:
    return {"name": name, "type": "Creature — Bear", "types": ["Creature"], "subtypes": ["Bear"],
            "power": "2", "toughness": "2", "manaCost": "{1}{G}", "text": text}


def test_conditions_on_the_permanent_itself():
    """"As long as this creature is equipped, it gets +2/+2 and has flying" (an Equipment attached,
    CR 301.5); "… as long as it has a +1/+1 counter on it" (the counter counts too, CR 122.1a)."""
    geared = _creature("As long as this creature is equipped, it gets +2/+2 and has flying.")
    on = _view({"alice": [{"card": geared, "id": "bear"}, {"card": "Bonesplitter", "attached_to": "bear"}]})
    assert (on.chars("bear").power, on.chars("bear").keyword("flying")) == (6, True)   # +2 Bonesplitter, +2
    off = _view({"alice": [{"card": geared, "id": "bear"}, "Bonesplitter"]})
    assert (off.chars("bear").power, off.chars("bear").keyword("flying")) == (2, False)
    fed = _creature("This creature has trample as long as it has a +1/+1 counter on it.")
    assert _view({"alice": [{"card": fed, "id": "bear", "counters": {"+1/+1": 1}}]}).chars("bear").keyword("trample")
    assert not _view({"alice": [{"card": fed, "id": "bear"}]}).chars("bear").keyword("trample")
    caged = custom("This creature can't attack or block as long as it has a cage counter on it.")
    assert [(a.kind, a.condition.counter) for a in caged] == [("cant_attack", "cage"), ("cant_block", "cage")]


def test_a_pump_and_a_combat_restriction_under_one_condition():
    """"… this creature gets +2/+2 and can't block": two statics with the same condition."""
    wild = _creature("As long as there are seven or more cards in your graveyard, this creature gets +2/+2 and "
                     "can't block.")
    read = [(type(a), a.power if isinstance(a, ir.StaticPump) else None) for a in custom(wild["text"])]
    assert read == [(ir.StaticPump, 2), (ir.CantBlock, None)]
    on = _view({"alice": [{"card": wild, "id": "bear"}]}, {"alice": ["Forest"] * 7})
    assert on.chars("bear").power == 4 and [s.source for s in on.statics(ir.CantBlock)] == ["bear"]
    off = _view({"alice": [{"card": wild, "id": "bear"}]}, {"alice": ["Forest"] * 6})
    assert off.chars("bear").power == 2 and off.statics(ir.CantBlock) == []


def test_attacking_and_untapped_conditions():
    """"… as long as it's attacking" (CR 506.4) and "… as long as it's untapped"; an untapped
    pump read by a power-reading mana ability is order dependent when a {T} mana ability could
    tap it first (Leafkin Avenger counts creatures with power 4 or greater)."""
    raider = _creature("This creature gets +2/+0 as long as it's attacking.")
    d = {"format": "mtgsolve/1", "players": ["alice", "bob"],
         "turn": {"number": 3, "active": "alice", "step": "declare_blockers"},
         "battlefield": {"alice": [{"card": raider, "id": "bear", "attacking": "bob", "tapped": True},
                                   {"card": raider, "id": "home"}]}}
    v = View(situation_from_dict(d).state)
    assert (v.chars("bear").power, v.chars("home").power) == (4, 2)
    calm = _creature("As long as this creature is untapped, it gets +2/+2.")
    assert _view({"alice": [{"card": calm, "id": "bear"}]}).chars("bear").power == 4
    assert _view({"alice": [{"card": calm, "id": "bear", "tapped": True}]}).chars("bear").power == 2
    calm_elf = dict(calm, text=calm["text"] + "\n{T}: Add {G}.")
    r = _answer({"alice": [{"card": calm_elf, "id": "bear"}, "Leafkin Avenger"]}, {"kind": "available_mana"})
    assert r["status"] == "unsupported" and "untapped" in r["reason"], r
    r = _answer({"alice": [{"card": calm_elf, "id": "bear"}, "Forest"]}, {"kind": "available_mana"})
    assert r["status"] == "ok" and r["bundles"] == ["{G}{G}"], r


def test_an_unread_condition_blocks_what_it_reaches_and_nothing_else():
    """Contract §2.0: "As long as this creature is monstrous, it has haste." is not read (the
    monstrous designation is not in the situation format), so it stays an unread static that
    could change characteristics: `attacks` is refused naming it; passing priority while bob has
    still to pass moves only priority (CR 117.3d) and is answered."""
    wild = _creature("As long as this creature is monstrous, it has haste.")
    d = {"format": "mtgsolve/1", "players": ["alice", "bob"],
         "turn": {"number": 3, "active": "alice", "step": "declare_attackers"},
         "battlefield": {"alice": [{"card": wild, "id": "bear", "sick": True}]}}
    loaded = situation_from_dict(dict(d, query={"kind": "attacks"}))
    r = answer(loaded.state, loaded.queries[0])
    assert r["status"] == "unsupported" and r["unsupported"][0]["object"] == "bear", r
    loaded = situation_from_dict(dict(d, turn={"number": 3, "active": "alice", "step": "main1"}, query={"kind": "pass"}))
    r = answer(loaded.state, loaded.queries[0])
    assert r["status"] == "ok", r

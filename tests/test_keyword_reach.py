"""Keywords of CR 702 that stay unread have the reach of the ability they are, not ``unknown``
(issue 25; solver/rules/soundness/unread.py ``KEYWORD_REACH``, check.py ``_keyword_relevant``).

Each keyword is tested both ways on one board: the questions it can change are refused, every other
question is answered — for its controller in the zone where it functions, for the other player, and
in the zones where it does not function. The cards are inline, with only the keyword as text (so the
test keeps meaning what it says as the reader learns more).
"""
from __future__ import annotations

import pytest

from mtgsolve.solver.cards import get_card
from mtgsolve.solver.core import ir
from mtgsolve.solver.io.load import situation_from_dict
from mtgsolve.solver.queries import answer

#: The questions asked on every board (alice has priority in her first main phase unless said).
ALL = ("pay", "targets", "actions", "available_mana", "could_produce", "attacks", "resolve", "pass_priority",
       "pass_main2", "pass_end", "pass_blockers")


def _card(text: str, types: list[str], subtypes: list[str]) -> dict:
    d = {"name": "Keyword Holder", "manaCost": "{2}", "type": " ".join(types), "types": types,
         "subtypes": subtypes, "text": text}
    if "Creature" in types:
        d.update(power="2", toughness="2")
    return {"card": d}


def _state(extra: dict, owner: str, zone: str, step: str = "main1", passed: bool = False, stack: bool = False):
    bears: object = {"card": "Grizzly Bears", "attacking": "bob"} if step == "declare_blockers" else "Grizzly Bears"
    d: dict = {"format": "mtgsolve/1", "players": ["alice", "bob"],
               "turn": {"number": 3, "active": "alice", "step": step,
                        **({"priority": "bob", "passed": ["alice"]} if passed else {})},
               "battlefield": {"alice": ["Mountain", "Forest", "Forest", bears], "bob": ["Grizzly Bears"]},
               "hand": {"alice": ["Lightning Bolt", "Llanowar Elves"]}}
    d.setdefault(zone, {}).setdefault(owner, []).append(extra)
    if stack:
        d["stack"] = [{"card": "Lightning Bolt", "controller": "bob", "targets": [["grizzly-bears"]]}]
    return situation_from_dict(d).state


_QUERIES = {"pay": {"kind": "pay", "cast": "lightning-bolt"}, "targets": {"kind": "targets", "cast": "lightning-bolt"},
            "actions": {"kind": "actions"}, "available_mana": {"kind": "available_mana"},
            "could_produce": {"kind": "could_produce"}, "attacks": {"kind": "attacks"}}


def blocked(extra: dict, owner: str, zone: str) -> set[str]:
    """The questions of :data:`ALL` refused on the board with ``extra`` in ``owner``'s ``zone``."""
    out = set()
    s = _state(extra, owner, zone)
    for k, q in _QUERIES.items():
        if answer(s, q)["status"] != "ok":
            out.add(k)
    others = {"resolve": (_state(extra, owner, zone, stack=True), {"kind": "resolve"}),   # Bolt resolves
              "pass_priority": (_state(extra, owner, zone), {"kind": "pass"}),           # bob still to pass
              "pass_main2": (_state(extra, owner, zone, "main2", True), {"kind": "pass"}),   # the end step begins
              "pass_end": (_state(extra, owner, zone, "end", True), {"kind": "pass"}),    # cleanup, bob's upkeep
              "pass_blockers": (_state(extra, owner, zone, "declare_blockers", True), {"kind": "pass"})}  # damage
    for k, (s2, q) in others.items():
        if answer(s2, q)["status"] != "ok":
            out.add(k)
    return out


# keyword: (text, types, subtypes, zone where it functions, questions it changes for its controller there)
KEYWORDS: dict[str, tuple[str, list[str], list[str], str, set[str]]] = {
    # (crew, 702.122a, is read since issue 25: tests/test_activation_costs.py)
    # (level up, 702.87a, and unearth, 702.84a, are read since issue 25: reader/keyword_abilities.py)
    # 702.171a, 702.184a: activated, as a sorcery
    "saddle": ("Saddle 1", ["Creature"], ["Mount"], "battlefield", {"actions"}),
    "station": ("Station (Tap another creature you control: Put charge counters equal to its power on this "
                "Spacecraft. Station only as a sorcery.)", ["Artifact"], ["Spacecraft"], "battlefield", {"actions"}),
    # 702.37, 702.168: cast face down from the hand; a permanent listed is face up (nothing to turn up)
    "morph": ("Morph {4}{G}", ["Creature"], [], "hand", {"actions"}),
    "megamorph": ("Megamorph {4}{G}", ["Creature"], [], "hand", {"actions"}),
    "disguise": ("Disguise {2}{W}", ["Creature"], [], "hand", {"actions"}),
    # 702.143a: a special action from the hand (and a cast from exile later)
    "foretell": ("Foretell {1}{U}", ["Creature"], [], "hand", {"actions"}),
    # 702.175a: an additional cost as it is cast
    "offspring": ("Offspring {1}{R}", ["Creature"], [], "hand", {"actions"}),
    # 702.108a: "Whenever you cast a noncreature spell" — nothing is cast by resolving Bolt or by a step
    "prowess": ("Prowess (Whenever you cast a noncreature spell, this creature gets +1/+1 until end of turn.)",
                ["Creature"], [], "battlefield", set()),
    # 702.24a, 702.30a: "At the beginning of your upkeep" — only as an upkeep begins (the next turn's)
    "cumulative upkeep": ("Cumulative upkeep—Pay 2 life.", ["Land"], [], "battlefield", {"pass_end"}),
    "echo": ("Echo {2}{G}", ["Creature"], [], "battlefield", {"pass_end"}),
    # 702.35a: discarding it (to hand size in the cleanup step) is replaced and triggers
    "madness": ("Madness {1}{R}", ["Creature"], [], "hand", {"pass_end"}),
    # 702.124j: its trigger is on entering, which a permanent already there does not do again
    "partner with": ("Partner with Keyword Friend (When this creature enters, target player may put Keyword "
                     "Friend into their hand from their library, then shuffle.)", ["Creature"], [], "battlefield",
                     set()),
    # 702.54a: how it enters; it is already on the battlefield
    "bloodthirst": ("Bloodthirst 1", ["Creature"], [], "battlefield", set()),
    # 702.131: the city's blessing, read only by other (unread) text
    "ascend": ("Ascend", ["Creature"], [], "battlefield", set()),
    # its reminder: "Whenever this creature attacks, add {R}{R}" — no attack is declared by these questions
    "firebending": ("Firebending 2", ["Creature"], [], "battlefield", set()),
    # CR 101.2, 701.6a: countering does nothing to them; a counterspell may still target them (an unread
    # wording: a subtype)
    "can't be countered": ("Sliver spells can't be countered.", ["Enchantment"], [], "battlefield", set()),
}


@pytest.mark.parametrize("name", sorted(KEYWORDS))
def test_a_keyword_blocks_exactly_what_it_reaches_for_its_controller(name):
    text, types, subtypes, zone, reach = KEYWORDS[name]
    assert blocked(_card(text, types, subtypes), "alice", zone) == reach


@pytest.mark.parametrize("name", sorted(KEYWORDS))
def test_the_other_players_keyword_does_not_reach_alices_own_choices(name):
    text, types, subtypes, zone, reach = KEYWORDS[name]
    assert blocked(_card(text, types, subtypes), "bob", zone) == reach - {"actions", "pay"}


@pytest.mark.parametrize("name", sorted(KEYWORDS))
def test_a_keyword_does_nothing_where_it_does_not_function(name):
    text, types, subtypes, zone, _ = KEYWORDS[name]
    for other in ("battlefield", "hand", "graveyard"):
        if other != zone:
            assert blocked(_card(text, types, subtypes), "alice", other) == set(), other


def test_a_keyword_with_other_words_is_read_by_its_words():
    """ "Echo of the Lost — During your turn, you may play cards from your graveyard." is an ability word,
    not echo (CR 207.2c): its words reach alice's actions."""
    text = "Echo of the Lost — During your turn, you may play cards from your graveyard."
    assert "actions" in blocked(_card(text, ["Creature"], []), "alice", "battlefield")


def test_unread_keywords_of_real_cards_take_the_keywords_reach():
    """The same reach on the database's cards (Glacial Chasm's cumulative upkeep was `costs` for its "Pay
    2 life" and refused payments)."""
    from mtgsolve.solver.rules.soundness.unread import card_parts

    def kinds(name: str) -> dict[str, tuple[str, frozenset[str]]]:
        return {t.split(" ")[0].lower(): (k, a) for t, k, a in card_parts(get_card(name), None, "battlefield")}

    assert kinds("Glacial Chasm")["cumulative"] == ("triggered", frozenset({"triggers"}))
    assert "crew" not in kinds("Smuggler's Copter")   # read (issue 25): its unread effect only
    assert "infect" not in kinds("Blackcleave Goblin")   # read: what its damage does (CR 702.90b)


@pytest.mark.parametrize("name", ["Akiri, Line-Slinger", "Abby, Merciless Soldier", "Wilson, Refined Grizzly",
                                  "Amy Pond"])
def test_partner_and_its_variants_are_read_cr_702_124(name):
    """Partner, "Partner—<group>", "Choose a Background", "Doctor's companion": deck construction only."""
    kws = [a.name for a in get_card(name).abilities if isinstance(a, ir.Keyword)]
    assert {"partner", "choose a background", "doctor's companion"} & set(kws)
    assert not any(isinstance(a, ir.Unsupported) and a.what in ("partner", "choose a background")
                   for a in get_card(name).abilities)


def _counter_board(rule_text: str, owner: str, top: str = "Counterspell") -> object:
    rule = {"card": {"name": "Herald Rule", "type": "Enchantment", "types": ["Enchantment"], "text": rule_text}}
    d = {"format": "mtgsolve/1", "players": ["alice", "bob"],
         "turn": {"number": 3, "active": "alice", "step": "main1", "priority": "alice"},
         "battlefield": {owner: ["Forest", rule], "alice" if owner == "bob" else "bob": ["Llanowar Elves"]},
         "stack": [{"card": top, "controller": "bob", "targets": [["grizzly-bears"]]},
                   {"id": "grizzly-bears", "card": "Grizzly Bears", "controller": "alice"}]}
    return situation_from_dict(d).state


@pytest.mark.parametrize("owner,countered", [("alice", False), ("bob", True)])
def test_spells_you_control_cant_be_countered_is_read_cr_101_2(owner, countered):
    """ "Creature spells you control can't be countered." (CR 101.2, 701.6a): Counterspell resolves (its target
    was legal) and alice's Bears stay on the stack while alice controls the rule; bob's rule protects bob's
    spells only."""
    r = answer(_counter_board("Creature spells you control can't be countered.", owner), {"kind": "resolve"})
    assert r["status"] == "ok"
    after = r["outcomes"][0]["situation"]
    assert ("stack" not in after) == countered
    assert [o["id"] for o in after["graveyard"]["bob"]] == ["counterspell"]


def test_an_unread_cant_be_countered_rule_blocks_a_resolution_that_counters_only():
    """ "Sliver spells can't be countered." (a subtype the reader leaves unread): only a resolution that can
    counter a spell is refused (CR 701.6a); Lightning Bolt resolving is answered."""
    text = "Sliver spells can't be countered."
    assert answer(_counter_board(text, "alice"), {"kind": "resolve"})["status"] == "unsupported"
    d = {"format": "mtgsolve/1", "players": ["alice", "bob"],
         "turn": {"number": 3, "active": "alice", "step": "main1"},
         "battlefield": {"alice": [{"card": {"name": "Sliver Rule", "type": "Enchantment", "types": ["Enchantment"],
                                             "text": text}}], "bob": ["Grizzly Bears"]},
         "stack": [{"card": "Lightning Bolt", "controller": "bob", "targets": [["grizzly-bears"]]}]}
    assert answer(situation_from_dict(d).state, {"kind": "resolve"})["status"] == "ok"


# --- over-cautious classifications of issue 25, each both ways ---------------------------------------------
# ("Each player can't draw more than one card each turn": tests/test_soundness.py
# test_knowing_the_top_card_and_a_draw_limit_block_only_what_they_reach)

def _mana_board(text: str) -> object:
    land = {"card": {"name": "Odd Orchard", "type": "Land", "types": ["Land"], "text": "{T}: Add {G}.\n" + text}}
    return situation_from_dict({"format": "mtgsolve/1", "players": ["alice", "bob"],
                                "turn": {"number": 3, "active": "alice", "step": "main1"},
                                "battlefield": {"alice": [land], "bob": ["Grizzly Bears"]},
                                "hand": {"alice": ["Llanowar Elves"]}}).state


@pytest.mark.parametrize("text,status", [
    # a target, no mana: a triggered ability put on the stack later (CR 605.1b, 605.5a)
    ("Whenever you tap this land for mana, target opponent creates a 1/1 colorless Spirit creature token.", "ok"),
    ("Whenever you tap this land for mana, it deals 1 damage to you.", "ok"),
    # it adds mana: a triggered mana ability, which changes what can be paid
    ("Whenever you tap this land for mana, add an additional {G} during a full moon.", "unsupported"),
])
def test_a_for_mana_trigger_is_a_mana_ability_only_if_it_adds_mana_without_a_target(text, status):
    s = _mana_board(text)
    assert answer(s, {"kind": "pay", "cast": "llanowar-elves"})["status"] == status
    assert answer(s, {"kind": "available_mana"})["status"] == status
    assert answer(s, {"kind": "actions"})["status"] == status      # a triggered ability is no action (CR 603.2)


def _command(text: str, **kw) -> object:
    boss = {"card": {"name": "Pilgrim Boss", "type": "Legendary Artifact Creature", "types": ["Artifact", "Creature"],
                     "supertypes": ["Legendary"], "power": "3", "toughness": "5", "manaCost": "{5}", "text": text},
            **kw}
    return situation_from_dict({"format": "mtgsolve/1", "players": ["alice", "bob"],
                                "turn": {"number": 3, "active": "alice", "step": "main1"},
                                "battlefield": {"alice": ["Forest"]}, "command": {"alice": [boss]}}).state


def test_a_permanent_card_in_the_command_zone_is_no_permanent_cr_113_6():
    """Its activated ability works on the battlefield only (CR 113.6), commander flag or not; words about the
    command zone ("Eminence — As long as this card is in the command zone …", an ability word, CR 207.2c) do
    work there."""
    ability = "{G}: Exile the top three cards of your library. You may play them this turn without paying their " \
              "mana costs."
    assert answer(_command(ability), {"kind": "actions"})["status"] == "ok"
    assert answer(_command(ability, commander=True), {"kind": "actions"})["status"] == "ok"
    eminence = "Eminence — As long as this card is in the command zone, creature spells you cast cost {1} less " \
               "during a full moon."
    assert answer(_command(eminence), {"kind": "actions"})["status"] == "unsupported"
    on_bf = situation_from_dict({"format": "mtgsolve/1", "players": ["alice", "bob"],
                                 "turn": {"number": 3, "active": "alice", "step": "main1"},
                                 "battlefield": {"alice": ["Forest", {"card": {
                                     "name": "Pilgrim Boss", "type": "Artifact Creature", "types": ["Artifact", "Creature"],
                                     "power": "3", "toughness": "5", "text": ability}}]}}).state
    assert answer(on_bf, {"kind": "actions"})["status"] == "unsupported"


def _plating(attach: str) -> object:
    eq = {"card": {"name": "Skull Plate", "type": "Artifact", "types": ["Artifact"], "subtypes": ["Equipment"],
                   "manaCost": "{2}", "text": "Equipped creature gets +1/+0 for each artifact you control.\n" + attach}}
    return situation_from_dict({"format": "mtgsolve/1", "players": ["alice", "bob"],
                                "turn": {"number": 3, "active": "alice", "step": "main1"},
                                "battlefield": {"alice": ["Swamp", "Swamp", eq, "Grizzly Bears"]}}).state


def test_a_cards_own_power_bonus_blocks_its_own_targets_only_where_power_is_read():
    """actions and targets agree (issue 25, Cranial Plating): the +1/+0 changes what a target filter reading
    power sees, not what "target creature you control" may be."""
    q = {"kind": "targets", "activate": {"object": "skull-plate", "index": 1}}
    plain = _plating("{B}{B}: Attach this Equipment to target creature you control.")
    assert answer(plain, q)["status"] == "ok" and answer(plain, {"kind": "actions"})["status"] == "ok"
    small = _plating("{B}{B}: Attach this Equipment to target creature you control with power 2 or less.")
    assert answer(small, q)["status"] == "unsupported"


def test_levelers_and_classes_keep_their_level_lines_unread_cr_711_716():
    """Student of Warfare's first strike is its own only at level 2 (CR 711.2b); Druid Class's extra land only
    at level 2 (CR 716.2d): neither is read as the card's ability at every level."""
    student = get_card("Student of Warfare").abilities
    assert not any(isinstance(a, ir.Keyword) for a in student)
    assert isinstance(student[0], ir.ActivatedAbility) and student[0].sorcery   # level up (702.87a), read
    assert [a.what.split(":")[0] for a in student if isinstance(a, ir.Unsupported)] == \
        ["level striation 2"] * 3 + ["level striation 7"] * 3
    druid = get_card("Druid Class").abilities
    assert not any(type(a).__name__ == "AdditionalLands" for a in druid)
    assert any(isinstance(a, ir.Unsupported) and a.what.startswith("class level 2: ") for a in druid)


@pytest.mark.parametrize("name", ["prowess", "cumulative upkeep", "madness"])
def test_applying_an_action_may_make_a_trigger_keyword_act(name):
    """Legality is answered, the state after the action is not: casting Lightning Bolt triggers prowess; the
    last pass of the end step moves into the cleanup (madness: a discard to hand size) and the next turn's
    upkeep (cumulative upkeep)."""
    from mtgsolve.solver.api import Situation, UnsupportedCaseError

    text, types, subtypes, zone, _ = KEYWORDS[name]
    if name == "prowess":  # read now (CR 702.108a): its trigger goes on the stack above the spell cast
        sit = Situation(_state(_card(text, types, subtypes), "alice", zone))
        after = sit.apply("cast lightning-bolt -> bob")
        assert [(o.id, o.ability.source if o.ability else None) for o in after.state.zone("stack")] == \
            [("ability-of-keyword-holder", "keyword-holder"), ("lightning-bolt", None)]
        (_, resolved), = after.resolve()  # +1/+1 until end of turn, the Bolt still on the stack
        assert [o.id for o in resolved.state.zone("stack")] == ["lightning-bolt"]
        assert resolved.view.chars("keyword-holder").power == 3
        return
    sit = Situation(_state(_card(text, types, subtypes), "alice", zone, "end", passed=True))
    assert sit.is_legal("pass")
    with pytest.raises(UnsupportedCaseError):
        sit.apply("pass")

"""Effects of "this turn" and the counter keyword actions (issue 26, helper effb): group pumps
(CR 611.2c: the set fixed as the effect begins), combat restrictions for the turn (CR 509.1b) and
monstrosity, adapt, bolster (CR 701.37, 701.46, 701.39) — read by grammar over every card that
prints the shape, resolved by the engine, checked against tests/reference/this_turn_ref.py."""
from __future__ import annotations

import gzip
import json
import re
from functools import lru_cache
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from mtgsolve.solver.api import Situation
from mtgsolve.solver.cards import get_card
from mtgsolve.solver.core import ir
from mtgsolve.solver.engine.combat import attack_declarations, block_declarations
from mtgsolve.solver.io.load import dump_state, situation_from_dict
from mtgsolve.solver.rules.characteristics import View
from tests.reference.combat_ref import attack_reference, block_reference
from tests.reference.this_turn_ref import (adapt, bolster, explore, group_pump, monstrosity, restricted_blocks,
                                          support)
from tests.test_combat import creature

DB = Path(__file__).resolve().parents[1] / "solver" / "data" / "oracle-cards.json.gz"
VANILLA = {"Grizzly Bears": (2, 2), "Llanowar Elves": (1, 1), "Centaur Courser": (3, 3),
           "Savannah Lions": (2, 1), "Hill Giant": (3, 3), "Runeclaw Bear": (2, 2)}
#: Spells whose whole text is one group pump: (who, power, toughness).
GROUP_SPELLS = {"Overrun": ("you", 3, 3), "Cower in Fear": ("opponent", -1, -1), "Inspired Charge": ("you", 2, 1)}


def _settings(n: int):
    return settings(max_examples=n, deadline=None, derandomize=True,
                    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])


@lru_cache(maxsize=1)
def _oracle() -> list[dict]:
    return json.load(gzip.open(DB))


def _lines(pattern: str) -> list[tuple[str, str]]:
    """(card name, line) of every card line matching ``pattern`` (reminder text removed)."""
    rx = re.compile(pattern)
    out = []
    for c in _oracle():
        for line in (c.get("text") or "").split("\n"):
            line = re.sub(r"\s*\([^)]*\)", "", line)
            if rx.fullmatch(line):
                out.append((c["name"], line))
    return out


# --------------------------------------------------------------------------
# Reading, over the database
# --------------------------------------------------------------------------

def _effects_of(name: str) -> list[ir.Effect]:
    card = get_card(name)
    effs = list(card.spell.effects) if card.spell else []
    for a in card.abilities:
        effs.extend(getattr(a, "effects", ()) or ())
    return effs


@pytest.mark.parametrize("pattern,cls,least", [
    (r"Creatures you control get [+-]\d+/[+-]\d+ until end of turn\.", ir.GroupPump, 40),
    (r"Creatures you control get [+-]\d+/[+-]\d+ and gain (?:trample|flying|vigilance|haste|first strike|"
     r"lifelink|menace|deathtouch|indestructible|reach) until end of turn\.", ir.GroupPump, 10),
    (r"Monstrosity \d+\.", ir.Monstrosity, 25), (r"Adapt \d+\.", ir.Adapt, 15),
    (r"Bolster \d+\.", ir.Bolster, 3),
    (r"When (?:this creature|[A-Z][^,]*) enters, bolster \d+\.", ir.Bolster, 5),
    (r"Target creature can't block this turn\.", ir.ThisTurn, 10),
    (r"Target creature attacks this turn if able\.", ir.ThisTurn, 3),
    (r"Target creature gets [+-]\d+/[+-]\d+ until end of turn and can't be blocked this turn\.", ir.ThisTurn, 2),
    (r"Creatures without flying can't block this turn\.", ir.GroupThisTurn, 2),
    (r"When (?:this creature|[A-Z][^,]*) enters, support \d+\.", ir.PutCounters, 5),
])
def test_every_card_printing_the_shape_reads_it(pattern, cls, least):
    """The shape read by grammar on every card whose line is exactly it, alone or after a mana cost
    (counted over the database; split cards aside)."""
    found = [(n, line) for n, line in _lines(r"(?:(?:\{[^}]+\})+(?:, \{T\})?: )?" + pattern) if " // " not in n]
    assert len(found) >= least, len(found)
    missed = [n for n, _line in found if not any(isinstance(e, cls) for e in _effects_of(n))]
    assert not missed, missed[:10]


def test_group_descriptions_and_unread_neighbours():
    overrun = _effects_of("Overrun")[0]
    assert isinstance(overrun, ir.GroupPump) and overrun.group.who == "you" and overrun.keywords == ("trample",)
    assert _effects_of("Cower in Fear")[0].group.who == "opponent"
    assert "attacking" in _effects_of("Trumpet Blast")[0].group.combat
    # a rules-modifying group effect (611.2c: it binds creatures entering later): its own kind
    assert [e.kind for e in _effects_of("Falter")] == ["group_this_turn"]
    assert _effects_of("Falter")[0].group.not_keywords == frozenset({"flying"})
    # "other creatures" of a spell (other than its target) and an enchanted creature stay unread
    assert [e.kind for e in _effects_of("Intimidation Bolt")] == ["damage", "unread"]


# --------------------------------------------------------------------------
# Group pumps: the set fixed as the effect begins (CR 611.2c)
# --------------------------------------------------------------------------

@st.composite
def group_board(draw):
    def side(owner):
        names = draw(st.lists(st.sampled_from(sorted(VANILLA)), max_size=3))
        return [{"id": f"{owner}-{i}", "card": n} for i, n in enumerate(names)]
    return draw(st.sampled_from(sorted(GROUP_SPELLS))), side("a"), side("b")


@_settings(30)
@given(group_board())
def test_group_pump_matches_reference(board):
    spell, mine, theirs = board
    sit = Situation.from_dict({"format": "mtgsolve/1", "players": ["alice", "bob"],
                               "turn": {"number": 3, "active": "alice", "step": "main1"},
                               "battlefield": {"alice": mine, "bob": theirs},
                               "stack": [{"card": spell, "controller": "alice"}]})
    [(_c, out)] = sit.resolve()
    who, p, t = GROUP_SPELLS[spell]
    creatures = [(o["id"], ctl, *VANILLA[o["card"]]) for ctl, side in (("alice", mine), ("bob", theirs))
                 for o in side]
    affected, dead, pt = group_pump(creatures, "alice", who, p, t)
    state = out.state
    assert sorted(o.id for o in state.zone("graveyard") if o.id != spell.lower().replace(" ", "-")) == dead
    [entry] = state.effects
    assert sorted(entry.affected[0]) == [i for i in affected if i not in dead]
    view = View(state)
    assert {o.id: (view.chars(o.id).power, view.chars(o.id).toughness) for o in state.zone("battlefield")} == pt
    # a creature that enters afterwards is not in the set (CR 611.2c) and keeps its printed size
    later = dump_state(state)
    later.setdefault("battlefield", {}).setdefault("alice", []).append({"id": "later", "card": "Grizzly Bears"})
    v2 = View(situation_from_dict(later).state)
    assert (v2.chars("later").power, v2.chars("later").toughness) == (2, 2)


# --------------------------------------------------------------------------
# Combat restrictions for the turn (CR 509.1b)
# --------------------------------------------------------------------------

@st.composite
def restricted_block_board(draw):
    attackers = []
    for i in range(draw(st.integers(1, 2))):
        c = draw(creature(f"Attacker {chr(65 + i)}", []))
        c.update(sick=False, tapped=True, attacking="bob")
        attackers.append(c)
    blockers = [draw(creature(f"Blocker {chr(65 + i)}", [])) for i in range(draw(st.integers(1, 3)))]
    bids = [f"blocker-{chr(97 + i)}" for i in range(len(blockers))]
    aids = [f"attacker-{chr(97 + i)}" for i in range(len(attackers))]
    cant = draw(st.lists(st.sampled_from(bids), max_size=2, unique=True))
    unbl = draw(st.lists(st.sampled_from(aids), max_size=1, unique=True))
    return attackers, blockers, cant, unbl


def _declarations(state):
    count, decls, status = block_declarations(state, "bob")
    assert status == "ok" and count == len(decls)
    return sorted(tuple(sorted(d.blockers)) for d in decls)


@_settings(30)
@given(restricted_block_board())
def test_restricted_blocks_match_reference(board):
    """Both ways: "can't block this turn" (Abandon the Post, up to two targets) removes exactly the
    declarations in which one of its targets blocks; "can't be blocked this turn" (Agent of
    Horizons's ability, "this creature": here the attacker carries it as an inline card's line)
    exactly those in which that attacker is blocked; without them, the board's blocks are unchanged."""
    attackers, blockers, cant, unbl = board
    for a in attackers:
        if a["card"]["name"] in {f"Attacker {x.split('-')[1].upper()}" for x in unbl}:
            a["card"] = {**a["card"], "text": "\n".join(filter(None, [a["card"]["text"],
                                                                        "{2}{U}: This creature can't be blocked this turn."]))}
    base = {"format": "mtgsolve/1", "players": ["alice", "bob"],
            "turn": {"number": 5, "active": "alice", "step": "declare_blockers"},
            "battlefield": {"alice": attackers, "bob": blockers}}
    plain = situation_from_dict(base).state
    effects = []
    if cant:
        effects.append({"card": "Abandon the Post", "controller": "alice", "targets": [cant]})
    for a in unbl:
        effects.append({"ability": {"source": a, "index": 1}, "controller": "alice"})
    restricted = situation_from_dict({**base, "effects": effects}).state
    want = restricted_blocks(_reference(plain), set(cant), set(unbl))
    assert _declarations(restricted) == want
    assert _declarations(plain) == _reference(plain)


def _reference(state):
    return block_reference(state, "bob")


# --------------------------------------------------------------------------
# Monstrosity, adapt, bolster (CR 701.37, 701.46, 701.39)
# --------------------------------------------------------------------------

def _resolve_ability(card: str, counters: int, monstrous: bool = False):
    obj = {"id": "it", "card": card, "monstrous": monstrous}
    if counters:
        obj["counters"] = {"+1/+1": counters}
    sit = Situation.from_dict({"format": "mtgsolve/1", "players": ["alice", "bob"],
                               "turn": {"number": 5, "active": "alice", "step": "main1"},
                               "battlefield": {"alice": [obj]},
                               "stack": [{"ability": {"source": "it", "index": 1}, "controller": "alice"}]})
    [(_c, out)] = sit.resolve()
    o = out.state.obj("it")
    return o.counter("+1/+1"), o.monstrous


@pytest.mark.parametrize("counters", [0, 2])
@pytest.mark.parametrize("monstrous", [False, True])
def test_monstrosity_matches_reference(counters, monstrous):
    assert _resolve_ability("Nessian Asp", counters, monstrous) == monstrosity(counters, monstrous, 4)


@pytest.mark.parametrize("counters", [0, 1, 3])
def test_adapt_matches_reference(counters):
    assert _resolve_ability("Aeromunculus", counters)[0] == adapt(counters, 1)


def test_monstrous_is_a_permanent_key_and_a_new_object_is_not():
    with pytest.raises(Exception):
        Situation.from_dict({"format": "mtgsolve/1", "players": ["alice", "bob"],
                             "hand": {"alice": [{"card": "Nessian Asp", "monstrous": True}]}})


@_settings(25)
@given(st.lists(st.sampled_from(sorted(VANILLA)), max_size=4))
def test_bolster_matches_reference(names):
    mine = [{"id": f"c{i}", "card": n} for i, n in enumerate(names)]
    sit = Situation.from_dict({"format": "mtgsolve/1", "players": ["alice", "bob"],
                               "turn": {"number": 5, "active": "alice", "step": "main1"},
                               "battlefield": {"alice": mine}, "stack": [{"card": "Cached Defenses", "controller": "alice"}]})
    outs = sit.resolve()
    picks = bolster({o["id"]: VANILLA[o["card"]][1] for o in mine})
    got = sorted(o.id for _c, s in outs for o in s.state.zone("battlefield") if o.counter("+1/+1") == 3)
    assert got == picks and len(outs) == max(1, len(picks))


@_settings(20)
@given(st.lists(st.sampled_from(["grizzly-bears", "runeclaw-bear", "centaur-courser"]), max_size=2, unique=True),
       st.lists(st.sampled_from(["grizzly-bears", "runeclaw-bear", "centaur-courser"]), max_size=1))
def test_support_matches_reference(targets, gone):
    """Expedition Raptor's support 2: each target gets one counter; a target that left the battlefield
    gets none (CR 608.2b), and the others still do."""
    names = {"grizzly-bears": "Grizzly Bears", "runeclaw-bear": "Runeclaw Bear", "centaur-courser": "Centaur Courser"}
    bf = [{"id": "raptor", "card": "Expedition Raptor"}] + [{"id": i, "card": n} for i, n in names.items()
                                                             if i not in gone]
    gy = [{"id": i, "card": names[i]} for i in gone]
    sit = Situation.from_dict({"format": "mtgsolve/1", "players": ["alice", "bob"],
                               "turn": {"number": 5, "active": "alice", "step": "main1"},
                               "battlefield": {"alice": bf}, "graveyard": {"alice": gy},
                               "stack": [{"ability": {"source": "raptor", "index": 1}, "controller": "alice",
                                          "targets": [targets]}]})
    outs = sit.resolve()
    assert len(outs) == 1
    state = outs[0][1].state
    here = [o["id"] for o in bf]
    want = support(here, [t for t in targets if t not in gone], "raptor")
    assert {i: state.obj(i).counter("+1/+1") for i in here} == want


# --------------------------------------------------------------------------
# A rule for the turn is the printed static for that combat (differential, combat_ref)
# --------------------------------------------------------------------------

#: card -> (the side its targets are on, up to how many, the static each creature it binds would
#: print instead, a keyword the spell also grants); targets None: a group ("creatures without flying").
BLOCK_RULES = {
    "Abandon the Post": ("bob", 2, "This creature can't block.", ""),
    "Culling Mark": ("bob", 1, "This creature blocks each combat if able.", ""),
    "Artful Dodge": ("alice", 1, "This creature can't be blocked.", ""),
    "Deadly Allure": ("alice", 1, "This creature must be blocked if able.", "Deathtouch"),
    "Falter": (None, 0, "This creature can't block.", ""),
}
ATTACK_RULES = {"Boiling Blood": "This creature attacks each combat if able.",
                "Change of Heart": "This creature can't attack."}


def _with_text(obj: dict, *lines: str) -> dict:
    card = dict(obj["card"])
    card["text"] = "\n".join(x for x in [card["text"], *lines] if x)
    return {**obj, "card": card}


@st.composite
def block_rule_board(draw):
    attackers, blockers = [], []
    for i in range(draw(st.integers(1, 2))):
        c = draw(creature(f"Attacker {chr(65 + i)}", []))
        c.update(sick=False, tapped=True, attacking="bob")
        attackers.append(c)
    blockers = [draw(creature(f"Blocker {chr(65 + i)}", [])) for i in range(draw(st.integers(1, 3)))]
    card = draw(st.sampled_from(sorted(BLOCK_RULES)))
    side, most, _static, _kw = BLOCK_RULES[card]
    ids = [f"{'attacker' if side == 'alice' else 'blocker'}-{chr(97 + i)}"
           for i in range(len(attackers if side == "alice" else blockers))] if side else []
    targets = draw(st.lists(st.sampled_from(ids), min_size=1, max_size=most, unique=True)) if ids else []
    return attackers, blockers, card, targets


@_settings(40)
@given(block_rule_board())
def test_block_rules_for_the_turn_are_the_printed_statics(board):
    """CR 509.1b–c: a resolved "can't block / blocks if able / can't be blocked / must be blocked this
    turn" on the objects it names gives the declarations the brute-force combat reference gives when
    those creatures print the static instead; Falter's group binds each creature without flying."""
    attackers, blockers, card, targets = board
    side, _most, static, kw = BLOCK_RULES[card]
    base = {"format": "mtgsolve/1", "players": ["alice", "bob"],
            "turn": {"number": 5, "active": "alice", "step": "declare_blockers"}}
    effect = {"card": card, "controller": "alice", **({"targets": [targets]} if side else {})}
    ruled = situation_from_dict({**base, "battlefield": {"alice": attackers, "bob": blockers},
                                 "effects": [effect]}).state

    def printed(objs, prefix):
        out = []
        for i, o in enumerate(objs):
            oid = f"{prefix}-{chr(97 + i)}"
            bound = oid in targets if side else "Flying" not in o["card"]["text"].split("\n")
            out.append(_with_text(o, kw, static) if bound else o)
        return out
    statics = situation_from_dict({**base, "battlefield": {
        "alice": printed(attackers, "attacker") if side == "alice" else attackers,
        "bob": printed(blockers, "blocker") if side != "alice" else blockers}}).state
    assert _declarations(ruled) == block_reference(statics, "bob") == _declarations(statics)


@_settings(30)
@given(st.lists(st.sampled_from(["", "Defender", "Flying", "Haste", "Vigilance"]), min_size=1, max_size=3),
       st.sampled_from(sorted(ATTACK_RULES)), st.data())
def test_attack_rules_for_the_turn_are_the_printed_statics(kws, card, data):
    """CR 508.1c–d: "attacks this turn if able" / "can't attack this turn" on its target gives the
    attack declarations of the creature printing the static (brute-force combat reference)."""
    mine = [{"id": f"c{i}", "card": {"name": f"Creature {i}", "type": "Creature — Bear", "types": ["Creature"],
                                     "subtypes": ["Bear"], "manaCost": "{1}", "power": "2", "toughness": "2",
                                     "text": kw}} for i, kw in enumerate(kws)]
    target = data.draw(st.sampled_from([o["id"] for o in mine]))
    base = {"format": "mtgsolve/1", "players": ["alice", "bob"],
            "turn": {"number": 5, "active": "alice", "step": "declare_attackers"}}
    ruled = situation_from_dict({**base, "battlefield": {"alice": mine},
                                 "effects": [{"card": card, "controller": "bob", "targets": [[target]]}]}).state
    statics = situation_from_dict({**base, "battlefield": {"alice": [
        _with_text(o, ATTACK_RULES[card]) if o["id"] == target else o for o in mine]}}).state
    count, decls, status = attack_declarations(ruled, "alice")
    assert status == "ok" and count == len(decls)
    assert [(tuple(sorted(d.attackers)), d.cost) for d in decls] == attack_reference(statics, "alice")


@_settings(40)
@given(st.lists(st.sampled_from(["Forest", "Island", "Grizzly Bears", "Llanowar Elves"]), max_size=3),
       st.booleans())
def test_explore_matches_reference(library, shuffled):
    """Merfolk Branchwalker's explore (CR 701.44a) on every small library, in a known order or in
    random order (a chance outcome; refused where a card put back would be known on top)."""
    sit = Situation.from_dict({"format": "mtgsolve/1", "players": ["alice", "bob"],
                               "turn": {"number": 5, "active": "alice", "step": "main1"},
                               "battlefield": {"alice": [{"id": "scout", "card": "Merfolk Branchwalker"}]},
                               "library": {"alice": library, "bob": ["Island"]},
                               **({"shuffled": {"alice": True}} if shuffled else {}),
                               "stack": [{"ability": {"source": "scout", "index": 1}, "controller": "alice"}]})
    want = explore(library, {"Forest", "Island"}, shuffled)
    result = sit.query({"kind": "resolve"})
    if want is None:
        assert result["status"] == "unsupported"
        return
    assert result["status"] == "ok"
    got = []
    for o in result["outcomes"]:
        s = o["situation"]
        bf = s["battlefield"]["alice"][0]
        hand = [x["card"] for x in s.get("hand", {}).get("alice", [])]
        gy = [x["card"] for x in s.get("graveyard", {}).get("alice", [])]
        p = o.get("probability")
        got.append((bf.get("counters", {}).get("+1/+1", 0), "".join(hand), "".join(gy), p))
    assert sorted(got, key=repr) == sorted(((c, h, g, None if p is None else float(p)) for c, h, g, p in want),
                                           key=repr)

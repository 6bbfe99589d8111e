"""The ``pay`` query (contract §2.3): unit cases, reasons, bad queries, and
differential tests of the CP-SAT model against the brute-force reference
(``tests/reference/pay_ref.py``) on random small boards from the card library.

The differential tests run ``MTGSOLVE_EXAMPLES`` generated cases per test
(default 1,100 and 1,000, i.e. ≥ 2,000 in all, well under a minute on two
cores); set e.g. ``MTGSOLVE_EXAMPLES=20000`` for a long run. With ``CI=true``
the examples are derandomized (reproducible).
"""
from __future__ import annotations

import json
import os

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from reference.pay_ref import brute_pay
from mtgsolve.solver.rules.characteristics import View
from mtgsolve.solver.core.errors import QueryError
from mtgsolve.solver.core.ir import Unsupported
from mtgsolve.solver.queries import Options, answer
from mtgsolve.solver.queries.pay import count_payments, is_payable, pay_view
from mtgsolve.solver.io.load import situation_from_dict

BASE = {"format": "mtgsolve/1", "players": ["alice", "bob"]}


def pay(board: dict, query: dict, **extra) -> dict:
    d = {**BASE, **board, **extra, "query": {"kind": "pay", **query}}
    loaded = situation_from_dict(d)
    return answer(loaded.state, loaded.queries[0])


def state_of(board: dict, **extra):
    return situation_from_dict({**BASE, **board, **extra}).state


# ---------------------------------------------------------------------------
# Unit cases
# ---------------------------------------------------------------------------


def test_contract_example_bears():
    r = pay({"battlefield": {"alice": ["Forest", "Reflecting Pool", "Llanowar Elves"]},
             "hand": {"alice": ["Grizzly Bears"]}}, {"cast": "grizzly-bears"})
    assert r["status"] == "ok" and r["payable"] is True
    taps = [p["tap"] for p in r["payments"]]
    assert ["forest", "reflecting-pool"] in taps and ["forest", "llanowar-elves"] in taps
    assert r["count"] == len(r["payments"]) == 3  # Elves + Pool ({G} from the Pool) too


def test_reflection_contamination_two_forests_cannot_cast_bears():
    """Contamination replaces type and amount: either order gives only {B} (CR 616.1)."""
    r = pay({"battlefield": {"alice": ["Forest", "Forest", "Mana Reflection", "Contamination"]},
             "hand": {"alice": ["Grizzly Bears"]}}, {"cast": "grizzly-bears"})
    assert r["payable"] is False and r["count"] == 0
    assert r["reason"] == "needs {G}; no untapped source can produce {G}"


def test_interchangeable_forests_are_one_payment():
    r = pay({"battlefield": {"alice": ["Forest", "Forest", "Forest"]}}, {"cost": "{G}"})
    assert r["count"] == 1 and r["payments"][0]["tap"] == ["forest"]
    r = pay({"battlefield": {"alice": ["Forest", "Forest", "Forest"]}}, {"cost": "{1}{G}"})
    assert r["count"] == 1 and r["payments"][0]["tap"] == ["forest", "forest-2"]


def test_no_idle_activations_and_leftover_mana():
    """Sol Ring's second {C} stays in the pool; tapping an extra Forest for nothing is not a payment."""
    r = pay({"battlefield": {"alice": ["Sol Ring", "Forest"]}}, {"cost": "{1}"})
    got = {(tuple(p["tap"]), p["pool_after"]["alice"]) for p in r["payments"]}
    assert got == {(("forest",), ""), (("sol-ring",), "{C}")}


def test_filter_land_cannot_pay_for_itself():
    """Fetid Heath's {W/B} must come from mana made before it (CR 605.3a, 601.2g)."""
    r = pay({"battlefield": {"alice": ["Fetid Heath"]}}, {"cost": "{W}{W}"})
    assert r["payable"] is False
    r = pay({"battlefield": {"alice": ["Fetid Heath", "Plains"]}}, {"cost": "{W}{W}"})
    assert r["payable"] is True
    assert all(sorted(p["tap"]) == ["fetid-heath", "plains"] for p in r["payments"])


def test_sol_ring_pays_for_crystal_quarry():
    r = pay({"battlefield": {"alice": ["Sol Ring", "Sol Ring", "Wastes", "Crystal Quarry"]}},
            {"cost": "{W}{U}{B}{R}{G}"})
    assert r["payable"] is True
    assert r["payments"] == [{"tap": ["crystal-quarry", "sol-ring", "sol-ring-2", "wastes"], "untap": [],
                              "sacrifice": [], "life": 0, "damage": 0, "x": 0, "pool_after": {"alice": ""}}]


def test_order_of_whiteclay_untapped_q():
    r = pay({"battlefield": {"alice": ["Plains", "Plains", "Plains", "Order of Whiteclay"]}},
            {"activate": {"object": "order-of-whiteclay", "index": 1}})
    assert r["payable"] is False
    assert r["reason"] == "Order of Whiteclay is untapped: {Q} requires it to be tapped (CR 107.6)"


def test_order_of_whiteclay_tapped_q_untaps_it():
    r = pay({"battlefield": {"alice": ["Plains", "Plains", "Plains", {"card": "Order of Whiteclay", "tapped": True}]}},
            {"activate": {"object": "order-of-whiteclay", "index": 1}})
    assert r["count"] == 1 and r["payments"][0]["untap"] == ["order-of-whiteclay"]


def test_springleaf_drum_taps_a_sick_creature_and_q_untaps_it():
    """Drum's "tap an untapped creature" is not a {T} cost of the creature (not summoning sick),
    and a creature tapped while mana abilities are activated can then pay {Q} (CR 601.2g-h)."""
    r = pay({"battlefield": {"alice": ["Plains", "Plains", "Springleaf Drum",
                                       {"card": "Order of Whiteclay", "sick": False}]}},
            {"activate": {"object": "order-of-whiteclay", "index": 1}})
    assert r["payable"] is True
    assert r["payments"][0]["tap"] == ["plains", "plains-2", "springleaf-drum"]
    r = pay({"battlefield": {"alice": ["Springleaf Drum", {"card": "Grizzly Bears", "sick": True}]}}, {"cost": "{G}"})
    assert r["payable"] is True and r["payments"][0]["tap"] == ["grizzly-bears", "springleaf-drum"]


def test_summoning_sickness_and_haste():
    sick = {"battlefield": {"alice": [{"card": "Prodigal Pyromancer", "sick": True}]}}
    r = pay(sick, {"activate": {"object": "prodigal-pyromancer", "index": 1}})
    assert r["payable"] is False
    assert r["reason"].startswith("Prodigal Pyromancer has summoning sickness") and "CR 302.6" in r["reason"]
    elixir = {"battlefield": {"alice": [{"card": "Prodigal Pyromancer", "sick": True}, "Thousand-Year Elixir"]}}
    assert pay(elixir, {"activate": {"object": "prodigal-pyromancer", "index": 1}})["payable"] is True
    r = pay({"battlefield": {"alice": ["Forest", {"card": "Llanowar Elves", "sick": True}]},
             "hand": {"alice": ["Grizzly Bears"]}}, {"cast": "grizzly-bears"})
    assert r["payable"] is False


def test_tap_symbol_on_tapped_permanent():
    r = pay({"battlefield": {"alice": [{"card": "Prodigal Pyromancer", "tapped": True}]}},
            {"activate": {"object": "prodigal-pyromancer", "index": 1}})
    assert r["payable"] is False
    assert r["reason"] == "Prodigal Pyromancer is tapped: {T} requires it to be untapped (CR 107.5)"


def test_t_cost_source_cannot_also_tap_for_mana():
    """Fetid Heath's filter ability costs {W/B} and {T}: the Heath can't make that mana itself."""
    r = pay({"battlefield": {"alice": ["Fetid Heath"]}}, {"activate": {"object": "fetid-heath", "index": 2}})
    assert r["payable"] is False
    r = pay({"battlefield": {"alice": ["Fetid Heath", "Swamp"]}}, {"activate": {"object": "fetid-heath", "index": 2}})
    assert r["count"] == 1 and r["payments"][0]["tap"] == ["fetid-heath", "swamp"]


def test_phyrexian_life_rules():
    board = {"battlefield": {"alice": ["Mountain"]}}
    r = pay(board, {"cost": "{R/P}{R/P}"})
    assert {(tuple(p["tap"]), p["life"]) for p in r["payments"]} == {(("mountain",), 2), ((), 4)}
    r = pay(board, {"cost": "{R/P}{R/P}", "life": False})
    assert r["payable"] is False
    r = situation_from_dict({**BASE, "players": [{"id": "alice", "life": 3}, "bob"], **board,
                             "query": {"kind": "pay", "cost": "{R/P}{R/P}"}})
    res = answer(r.state, r.queries[0])
    assert {p["life"] for p in res["payments"]} == {2}   # CR 119.4: can't pay 4 life with 3


def test_damage_comes_before_life_payment():
    """Ancient Tomb's damage is dealt while mana abilities resolve, before the cost's life is paid."""
    d = {**BASE, "players": [{"id": "alice", "life": 2}, "bob"], "battlefield": {"alice": ["Ancient Tomb"]},
         "query": {"kind": "pay", "cost": "{2}{B/P}"}}
    loaded = situation_from_dict(d)
    assert answer(loaded.state, loaded.queries[0])["payable"] is False


def test_x_any_lists_every_x_and_the_maximum():
    r = pay({"battlefield": {"alice": ["Forest", "Forest", "Sol Ring"]}, "hand": {"alice": ["Endless One"]}},
            {"cast": "endless-one", "x": "any"})
    assert r["x_values"] == [0, 1, 2, 3, 4] and r["x_max"] == 4
    r = pay({"battlefield": {"alice": ["Forest", "Forest"]}, "hand": {"alice": ["Hangarback Walker"]}},
            {"cast": "hangarback-walker", "x": 1})
    assert r["count"] == 1 and r["payments"][0]["x"] == 1


def test_snow_mana():
    board = {"battlefield": {"alice": ["Snow-Covered Forest", "Forest", "Icehide Troll"]}}
    r = pay(board, {"activate": {"object": "icehide-troll", "index": 1}})
    assert r["payable"] is False
    assert "snow" in r["reason"]
    board = {"battlefield": {"alice": ["Snow-Covered Forest", "Snow-Covered Island", "Icehide Troll"]}}
    assert pay(board, {"activate": {"object": "icehide-troll", "index": 1}})["count"] == 1


ZIGGURAT = "spend this mana only to cast creature spells"
ABILITIES = "spend this mana only to activate abilities"


def test_spending_restriction_creature_spell_vs_instant():
    """CR 106.6: Ancient Ziggurat's mana pays for a creature spell, not an instant or a bare cost."""
    board = {"battlefield": {"alice": ["Ancient Ziggurat", "Forest"]},
             "hand": {"alice": ["Grizzly Bears", "Giant Growth"]}}
    bears = pay(board, {"cast": "grizzly-bears"})
    assert bears["payable"] and [p["tap"] for p in bears["payments"]] == [["ancient-ziggurat", "forest"]]
    growth = pay(board, {"cast": "giant-growth"})
    assert [p["tap"] for p in growth["payments"]] == [["forest"]]
    bolt = pay({"battlefield": {"alice": ["Ancient Ziggurat"]}, "hand": {"alice": ["Giant Growth"]}},
               {"cast": "giant-growth"})
    assert not bolt["payable"] and "Ancient Ziggurat" in bolt["reason"] and "CR 106.6" in bolt["reason"]
    bare = pay(board, {"cost": "{1}{G}"})   # purpose unknown: restricted mana can't be spent
    assert not bare["payable"] and ZIGGURAT in bare["reason"]


def test_restricted_leftover_stays_in_the_pool_apart():
    """Eldrazi Temple's {C}{C} (colorless Eldrazi only) and Pit Automaton's {C}{C} (abilities only):
    the unspent restricted {C} is listed in restricted_pool_after, never in pool_after."""
    r = pay({"battlefield": {"alice": ["Pit Automaton", "Selesnya Signet"]}, "hand": {"alice": ["Llanowar Elves"]}},
            {"cast": "llanowar-elves"})
    assert r["count"] == 1
    p = r["payments"][0]
    assert p["tap"] == ["pit-automaton", "selesnya-signet"] and p["pool_after"] == {"alice": "{W}"}
    assert p["restricted_pool_after"] == {"alice": [{"mana": "{C}", "restriction": ABILITIES}]}


def test_restricted_mana_and_a_signet():
    """Mana only for creature spells can't pay a Signet's {1}; mana "only to activate abilities" can
    (a mana ability is an activated ability, CR 605.1a)."""
    zig = pay({"battlefield": {"alice": ["Ancient Ziggurat", "Selesnya Signet"]}},
              {"activate": {"object": "selesnya-signet", "index": 1}})
    assert not zig["payable"] and "Ancient Ziggurat" in zig["reason"]
    pit = pay({"battlefield": {"alice": ["Pit Automaton", "Selesnya Signet"]}},
              {"activate": {"object": "selesnya-signet", "index": 1}})
    assert pit["count"] == 1 and pit["payments"][0]["restricted_pool_after"] == {
        "alice": [{"mana": "{C}", "restriction": ABILITIES}]}
    # as a mana ability's cost inside a payment: Ziggurat can't pay the Signet, a Forest can
    bears = pay({"battlefield": {"alice": ["Ancient Ziggurat", "Selesnya Signet"]},
                 "hand": {"alice": ["Grizzly Bears"]}}, {"cast": "grizzly-bears"})
    assert not bears["payable"]


def test_could_produce_ignores_spending_restrictions():
    """CR 106.7 is about types: a spending restriction (CR 106.6) doesn't change them."""
    d = {**BASE, "battlefield": {"alice": ["Ancient Ziggurat", "Eldrazi Temple"]},
         "query": {"kind": "could_produce"}}
    loaded = situation_from_dict(d)
    r = answer(loaded.state, loaded.queries[0])
    assert r["could_produce"]["ancient-ziggurat"] == ["W", "U", "B", "R", "G"]
    assert r["could_produce"]["eldrazi-temple"] == ["C"]


def test_celestial_dawn_spending():
    """White mana as any color; other mana only as colorless (pays generic and {C}, not colors)."""
    board = {"battlefield": {"alice": ["Celestial Dawn", "Mountain", "Sol Ring"]}}
    # lands are Plains: the Mountain taps for {W}
    assert pay(board, {"cost": "{G}"})["payable"] is True
    assert pay(board, {"cost": "{C}"})["payable"] is True
    assert pay(board, {"cost": "{R}{G}"})["payable"] is False


def test_vivid_crag_counters_make_distinct_payments():
    r = pay({"battlefield": {"alice": [{"card": "Vivid Crag", "counters": {"charge": 2}}]}}, {"cost": "{R}"})
    assert r["count"] == 2
    assert {json.dumps(p.get("remove_counters")) for p in r["payments"]} == {"null",
                                                                             '{"vivid-crag": {"charge": 1}}'}


def test_squandered_resources_and_tap_first():
    """A land may be tapped for mana, then sacrificed to Squandered Resources."""
    r = pay({"battlefield": {"alice": ["Squandered Resources", "Forest"]}}, {"cost": "{G}{G}"})
    assert r["count"] == 1 and r["payments"][0]["sacrifice"] == ["forest"]


def test_reasons():
    r = pay({"battlefield": {"alice": ["Forest", "Mountain"]}}, {"cost": "{G}{G}"})
    assert r["reason"] == "needs {G}{G}; only one untapped source can produce {G}"
    r = pay({"battlefield": {"alice": ["Tundra", "Mountain"]}}, {"cost": "{W}{U}"})
    assert r["reason"] == "needs {W}{U}; only one untapped source can produce {W} or {U}"
    r = pay({"battlefield": {"alice": ["Forest"]}}, {"cost": "{3}"})
    assert r["reason"] == "needs {3}; at most 1 mana can be made and spent"


def test_no_mana_cost_cannot_be_cast():
    r = pay({"hand": {"alice": [{"card": {"name": "Nothing", "type": "Sorcery", "types": ["Sorcery"]}}]}},
            {"cast": "nothing"})
    assert r["payable"] is False and "CR 118.6" in r["reason"]


def test_truncation_and_api():
    board = {"battlefield": {"alice": ["Birds of Paradise", "Forest", "Island", "Plains", "Swamp"]}}
    st_ = state_of(board)
    loaded = situation_from_dict({**BASE, **board, "query": {"kind": "pay", "cost": "{2}"}})
    full = answer(loaded.state, loaded.queries[0])
    cut = answer(loaded.state, loaded.queries[0], Options(max_results=2))
    assert full["count"] > 2
    # the count stays exact when the listing is cut (contract §2: "count is still exact where known");
    # this board's payments are counted by the DP of models/payment_count.py, without listing them
    assert cut["status"] == "truncated" and len(cut["payments"]) == 2 and cut["count"] == full["count"]
    assert all(p in full["payments"] for p in cut["payments"])
    view = View(st_)
    assert is_payable(view, "alice", {"cost": "{2}"}) is True
    assert is_payable(view, "alice", {"cost": "{6}"}) is False
    assert count_payments(view, "alice", {"cost": "{2}"}) == full["count"]
    assert count_payments(view, "alice", {"cost": "{2}"}, limit=3) == 3


def test_unsupported_mana_abilities_are_reported():
    rock = {"name": "Filter Rock", "type": "Artifact", "types": ["Artifact"], "manaCost": "{1}", "text": "{1}: Add {R}."}
    r = pay({"battlefield": {"alice": ["Forest", {"card": rock}]}}, {"cost": "{R}"})
    assert r["status"] == "unsupported"
    pain = {"name": "Pain Rock", "type": "Artifact", "types": ["Artifact"], "manaCost": "{1}",
            "text": "{1}, {T}, Pay 1 life: Add {R}."}
    r = pay({"battlefield": {"alice": ["Forest", {"card": pain}]}}, {"cost": "{R}"})
    assert r["status"] == "unsupported" and "life" in r["reason"]


def test_timeout_gives_a_well_formed_answer():
    board = {"battlefield": {"alice": ["Birds of Paradise"] * 3 + ["City of Brass"] * 3 + ["Fetid Heath"] * 2}}
    loaded = situation_from_dict({**BASE, **board, "query": {"kind": "pay", "cost": "{3}{W}"}})
    r = answer(loaded.state, loaded.queries[0], Options(timeout=1e-9))
    assert r["status"] in ("ok", "timeout")
    if r["status"] == "timeout":
        assert r["count"] is None


@pytest.mark.parametrize("query, path", [
    ({}, "query"),
    ({"cast": "nope"}, "query.cast"),
    ({"cost": "{Q}"}, "query.cost"),
    ({"cost": "{1}", "cast": "forest"}, "query"),
    ({"cast": "forest"}, "query.cast"),
    ({"activate": {"object": "forest", "index": 3}}, "query.activate.index"),
    ({"activate": {"object": "grizzly-bears", "index": 1}}, "query.activate.object"),
    ({"cost": "{1}", "x": 2}, "query.x"),
    ({"cost": "{X}", "x": -1}, "query.x"),
    ({"cost": "{1}", "life": "no"}, "query.life"),
    ({"cost": "{1}", "colour": 1}, "query.colour"),
    ({"cost": "{1}", "player": "carol"}, "query.player"),
    ({"activate": {"object": "forest"}, "player": "bob"}, "query.activate.object"),
])
def test_bad_queries(query, path):
    loaded = situation_from_dict({**BASE, "battlefield": {"alice": ["Forest"]}, "hand": {"alice": ["Grizzly Bears"]},
                                  "query": {"kind": "pay", **query}})
    with pytest.raises(QueryError) as e:
        answer(loaded.state, loaded.queries[0])
    assert e.value.path == path


def test_deterministic_output():
    board = {"battlefield": {"alice": ["Birds of Paradise", "Fetid Heath", "Plains", "Sol Ring", "Swamp"]}}
    outs = {json.dumps(pay(board, {"cost": "{1}{W}{B}"}), sort_keys=True) for _ in range(3)}
    assert len(outs) == 1


# ---------------------------------------------------------------------------
# Differential tests against the brute force
# ---------------------------------------------------------------------------

EXAMPLES = int(os.environ.get("MTGSOLVE_EXAMPLES", "0")) or None
CI = os.environ.get("CI", "").lower() in ("1", "true", "yes")


def _settings(default: int):
    return settings(max_examples=EXAMPLES or default, deadline=None, derandomize=CI or EXAMPLES is None,
                    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large,
                                           HealthCheck.filter_too_much])


LANDS = ["Forest", "Plains", "Island", "Swamp", "Mountain", "Wastes", "Snow-Covered Forest", "Snow-Covered Island",
         "Tundra", "Taiga", "Tropical Island", "Reflecting Pool", "Exotic Orchard", "Vivid Crag", "Mana Confluence",
         "Adarkar Wastes", "Llanowar Wastes", "Fetid Heath", "Crystal Quarry", "Tinder Farm", "Ancient Tomb",
         "Gaea's Cradle", "City of Brass", "Urborg, Tomb of Yawgmoth",
         # spending restrictions (CR 106.6): creature spells; colorless Eldrazi spells and abilities
         "Ancient Ziggurat", "Eldrazi Temple",
         # a creature spell of the chosen type (object key chosen: {type: …})
         "Unclaimed Territory",
         # riders of mana abilities (CR 605.1a): skip untap, depletion, life; "… instead" amounts
         "Cinder Marsh", "Hickory Woodlot", "Grove of the Burnwillows", "Urza's Tower", "Urza's Mine"]
OTHERS = ["Llanowar Elves", "Birds of Paradise", "Sol Ring", "Springleaf Drum", "Squandered Resources",
          "Grizzly Bears", "Order of Whiteclay", "Hangarback Walker", "Icehide Troll", "Prodigal Pyromancer",
          "Thousand-Year Elixir", "Raging Goblin", "Harvester Druid", "Naga Vitalist", "Fellwar Stone",
          "Chromatic Lantern",
          # CR 106.6: only to activate abilities; a Signet ({1}, {T}) whose cost it may pay; only artifact spells
          "Pit Automaton", "Selesnya Signet", "Mishra's Workshop",
          # CR 602.5b per-turn limits, activation conditions, CR 107.3 variable amounts (storage, batteries, power)
          "Abzan Devotee", "Kozilek's Translator", "Black Mana Battery", "Viridian Joiner", "Blazemire Verge",
          "Mage-Ring Network",
          # CR 106.6 by mana value / {X} in the cost, by the zone cast from; different colors; colors among legendaries
          "Troyan, Gutsy Explorer", "Archaeomancer's Spade", "Rootcoil Creeper", "Firemind Vessel", "Mox Amber",
          # CR 118.1 costs: tap three untapped Elves (no {T}); a -0/-1 counter, once each turn; discard the
          # hand and sacrifice, only as an instant (CR 602.5d: never during a payment)
          "Heritage Druid", "Wall of Roots", "Lion's Eye Diamond"]
COUNTERS = {"Vivid Crag": "charge", "Mage-Ring Network": "storage", "Black Mana Battery": "charge",
            "Hickory Woodlot": "depletion"}
LIMITED = ("Abzan Devotee", "Kozilek's Translator", "Wall of Roots")   # "Activate only once each turn" (CR 602.5b)
GLOBALS = ["Mana Reflection", "Contamination", "Mana Flare", "Celestial Dawn", "Blood Moon", "Prismatic Omen",
           "Heartbeat of Spring", "Nyxbloom Ancient",
           # CR 602.5: "Activated abilities of artifacts can't be activated" (mana abilities too, 605.1a);
           # "… of sources with the chosen name …" (object key chosen: {name})
           "Collector Ouphe", "Pithing Needle", "Phyrexian Revoker"]
NAMES = ["Sol Ring", "Llanowar Elves", "Forest", "Springleaf Drum", "Birds of Paradise"]   # names chosen
SYMBOLS = ["{1}", "{2}", "{W}", "{U}", "{B}", "{R}", "{G}", "{C}", "{G/W}", "{U/B}", "{2/R}", "{C/G}", "{W/P}",
           "{B/P}", "{G/U/P}", "{S}", "{X}"]
HAND = ["Grizzly Bears", "Hangarback Walker", "Endless One", "Order of Whiteclay", "Lightning Bolt", "Giant Growth",
        "Sol Ring", "Birds of Paradise", "Llanowar Elves"]


POOL_RULES = ["spend this mana only to cast creature spells", "spend this mana only to cast artifact spells",
              "spend this mana only to activate abilities"]
RESTRICTED = ("Ancient Ziggurat", "Eldrazi Temple", "Pit Automaton", "Mishra's Workshop",   # CR 106.6
              "Unclaimed Territory", "Troyan, Gutsy Explorer", "Archaeomancer's Spade", "Rootcoil Creeper")
CHOSEN_TYPES = ["Bear", "Bird", "Elf"]   # Grizzly Bears, Birds of Paradise, Llanowar Elves


TRICKY = ["Squandered Resources", "Fetid Heath", "Crystal Quarry", "Sol Ring", "Sol Ring", "Springleaf Drum",
          "Order of Whiteclay", "Tinder Farm", "Vivid Crag", "Mana Confluence", "Ancient Tomb", "Adarkar Wastes",
          "Llanowar Elves", "Grizzly Bears", "Plains", "Swamp", "Forest", "Snow-Covered Forest", "Birds of Paradise",
          "Ancient Ziggurat", "Pit Automaton", "Selesnya Signet"]


@st.composite
def boards(draw, max_perms: int = 4, pool: list[str] | None = None):
    n = draw(st.integers(1, max_perms))
    perms = []
    for _ in range(n):
        name = draw(st.sampled_from(pool or (LANDS + OTHERS)))
        obj: dict = {"card": name}
        if draw(st.integers(0, 4)) == 0:
            obj["tapped"] = True
        if name in OTHERS and draw(st.booleans()):
            obj["sick"] = True
        if name in COUNTERS:
            obj["counters"] = {COUNTERS[name]: draw(st.integers(0, 2))}
        if name in LIMITED and draw(st.integers(0, 2)) == 0:
            obj["activated_this_turn"] = {1: 1}
        if name == "Unclaimed Territory" and draw(st.integers(0, 3)):
            obj["chosen"] = {"type": draw(st.sampled_from(CHOSEN_TYPES))}   # else none chosen
        perms.append(obj)
    if draw(st.integers(0, 3)) == 0:
        g = draw(st.sampled_from(GLOBALS))
        perms.append({"card": g, "chosen": {"name": draw(st.sampled_from(NAMES))}}
                     if g in ("Pithing Needle", "Phyrexian Revoker") else g)
    opp = draw(st.lists(st.sampled_from(["Forest", "Island", "Exotic Orchard", "Karn, the Great Creator"]),
                        max_size=1))
    # the card to cast, mostly in hand; sometimes in the graveyard or exile (CR 601.2a: "spells from …")
    zone = draw(st.sampled_from(["hand", "hand", "hand", "graveyard", "exile"]))
    board: dict = {"battlefield": {"alice": perms, **({"bob": opp} if opp else {})},
                   zone: {"alice": [{"card": draw(st.sampled_from(HAND)), "id": "spell"}]}}
    pool = draw(st.lists(st.sampled_from(["{W}", "{G}", "{B}", "{C}", "{R}"]), max_size=2))
    if pool:
        board["mana_pool"] = {"alice": "".join(pool)}
    if draw(st.integers(0, 4)) == 0:   # restricted mana already in the pool (CR 106.6)
        board["restricted_mana_pool"] = {"alice": [
            {"mana": draw(st.sampled_from(["{C}", "{G}", "{C}{C}"])), "restriction": draw(st.sampled_from(POOL_RULES))}]}
    life = draw(st.sampled_from([20, 20, 20, 1, 2, 3, 0]))
    board["players"] = [{"id": "alice", "life": life}, "bob"]
    return board


@st.composite
def queries(draw, board: dict):
    names = {(p["card"] if isinstance(p, dict) else p) for p in board["battlefield"]["alice"]}
    if names & set(RESTRICTED) or "restricted_mana_pool" in board:   # casts are what restrictions judge (CR 106.6)
        kind = draw(st.sampled_from(["cost", "cast", "cast", "activate"]))
    else:
        kind = draw(st.sampled_from(["cost", "cost", "cost", "cast", "activate"]))
    q: dict = {}
    if kind == "cost":
        syms = draw(st.lists(st.sampled_from(SYMBOLS), min_size=1, max_size=3))
        q["cost"] = "".join(syms)
        if "{X}" in syms:
            q["x"] = draw(st.sampled_from([0, 1, 2, "any"]))
    elif kind == "cast":
        card = next(board[z]["alice"][0]["card"] for z in ("hand", "graveyard", "exile") if z in board)
        q["cast"] = "spell"
        if card in ("Hangarback Walker", "Endless One"):
            q["x"] = draw(st.sampled_from([0, 1, "any"]))
    else:
        return None  # filled in by the test, which knows the ids
    if draw(st.integers(0, 5)) == 0:
        q["life"] = False
    return q


def _compare(board: dict, query: dict) -> None:
    d = {**BASE, **board, "query": {"kind": "pay", **query}}
    loaded = situation_from_dict(d)
    view = View(loaded.state)
    model = pay_view(view, loaded.queries[0])
    if model["status"] == "error":
        # a case the project reports as not modeled: not a comparison (and never a crash); reject the
        # example rather than pytest.skip, which would skip the whole property test
        assert model.get("error", "").startswith("unsupported:"), model
        assume(False)
    ref = brute_pay(loaded.state, loaded.queries[0], view)
    got = sorted(json.dumps(p, sort_keys=True) for p in model["payments"])
    ctx = json.dumps(d)
    assert model["payable"] == ref["payable"], ctx
    assert model["count"] == ref["count"], (ctx, set(got) ^ set(ref["payments"]))
    assert got == ref["payments"], ctx
    assert len(set(got)) == len(got), ctx   # no duplicates
    if not model["payable"]:
        assert isinstance(model.get("reason"), str) and model["reason"], ctx
    spec = {k: v for k, v in loaded.queries[0].items() if k != "kind"}
    assert is_payable(view, "alice", spec) == model["payable"], ctx


def _modeled_activations(view: View) -> list[tuple[str, int]]:
    """(object, index) of alice's activated abilities the project models (an unsupported one
    answers status error, which would skip the whole hypothesis test)."""
    return [(o.id, i + 1) for o in view.permanents_of("alice")
            for i, a in enumerate(view.chars(o.id).activated) if not isinstance(a, Unsupported)]


@given(data=st.data())
@_settings(1100)
def test_differential_costs_and_casts(data):
    board = data.draw(boards())
    q = data.draw(queries(board))
    if q is None:
        q = {"cost": data.draw(st.sampled_from(["{1}", "{G}", "{W/U}", "{2/B}"]))}
    _compare(board, q)


@given(data=st.data())
@_settings(1000)
def test_differential_activations(data):
    board = data.draw(boards())
    loaded = situation_from_dict({**BASE, **board})
    view = View(loaded.state)
    options = _modeled_activations(view)
    if not options:
        q = {"cost": data.draw(st.sampled_from(["{1}{R}", "{C}", "{B/P}"]))}
    else:
        oid, idx = data.draw(st.sampled_from(options))
        q = {"activate": {"object": oid, "index": idx}}
    _compare(board, q)


@given(data=st.data())
@_settings(150)
def test_differential_interactions(data):
    """Boards of the cards whose costs interact (filter lands, sacrifice, Drum, {Q}, life, counters)."""
    board = data.draw(boards(max_perms=4, pool=TRICKY))
    loaded = situation_from_dict({**BASE, **board})
    view = View(loaded.state)
    options = _modeled_activations(view)
    if options and data.draw(st.booleans()):
        oid, idx = data.draw(st.sampled_from(options))
        q = {"activate": {"object": oid, "index": idx}}
    else:
        q = {"cost": data.draw(st.sampled_from(["{1}", "{W}{B}", "{2}{G}", "{W/B}{1}", "{R}{W}", "{B/P}{1}",
                                                "{S}{1}", "{X}{G}", "{3}"]))}
        if "{X}" in q["cost"]:
            q["x"] = "any"
    _compare(board, q)


ELVES = ["Heritage Druid", "Heritage Druid", "Llanowar Elves", "Elvish Visionary", "Wall of Roots", "Wall of Roots",
         "Springleaf Drum", "Forest", "Grizzly Bears", "Lion's Eye Diamond", "Arbor Adherent", "Sol Ring",
         "Selesnya Signet"]


@given(data=st.data())
@_settings(200)
def test_differential_mana_costs(data):
    """Boards of mana abilities with other costs (CR 118.1): Heritage Druid tapping three Elves
    (itself and summoning-sick ones included), Wall of Roots' -0/-1 counter once each turn, Lion's
    Eye Diamond (only as an instant: never during a payment), with Springleaf Drum tapping creatures."""
    board = data.draw(boards(max_perms=6, pool=ELVES))
    q = {"cost": data.draw(st.sampled_from(["{G}", "{1}{G}", "{G}{G}{G}", "{2}{G}{G}", "{1}", "{W}{G}", "{X}"]))}
    if "{X}" in q["cost"]:
        q["x"] = "any"
    _compare(board, q)

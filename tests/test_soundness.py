"""Soundness (contract §2.0, solver/rules/soundness/check.py): an answer is ``ok`` only when no unread part
could change it; parts that cannot change it do not block it.

Each family of unread text is tested both ways: it blocks the questions it reaches, and no other.
The unread texts are inline cards with invented wordings (so the tests keep meaning what they say
as the reader learns real cards); the real cards of issue 14 are instances in instances/soundness/.
"""
from __future__ import annotations

import os

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from mtgsolve.solver.core import ir
from mtgsolve.solver.api import Situation, UnsupportedCaseError
from mtgsolve.solver.cards import get_card
from mtgsolve.solver.queries import answer
from mtgsolve.solver.io.load import situation_from_dict
from mtgsolve.solver.rules.soundness.check import blocking, classify, scope_of, unread_parts


def card(name: str, text: str, types: tuple[str, ...] = ("Artifact",), cost: str = "{2}", **kw) -> dict:
    d = {"name": name, "manaCost": cost, "type": " ".join(types), "types": list(types), "text": text}
    if "Creature" in types:
        d.update(power="2", toughness="2")
    d.update(kw)
    return {"card": d}


def state(battlefield=None, hand=None, graveyard=None, stack=None, effects=None, active="alice", priority=None):
    d = {"format": "mtgsolve/1", "players": ["alice", "bob"],
         "turn": {"number": 3, "active": active, "step": "main1", **({"priority": priority} if priority else {})},
         "battlefield": battlefield or {}, "hand": hand or {}, "graveyard": graveyard or {}}
    if stack:
        d["stack"] = stack
    if effects:
        d["effects"] = effects
    return situation_from_dict(d).state


BASE_BF = {"alice": ["Mountain", "Forest", "Forest"], "bob": ["Grizzly Bears"]}
BASE_HAND = {"alice": ["Lightning Bolt", "Llanowar Elves"]}
QUERIES = {
    "pay": {"kind": "pay", "cast": "lightning-bolt"},
    "targets": {"kind": "targets", "cast": "lightning-bolt"},
    "actions": {"kind": "actions"},
    "available_mana": {"kind": "available_mana"},
    "could_produce": {"kind": "could_produce"},
}


def statuses(st_) -> dict[str, str]:
    return {k: answer(st_, q)["status"] for k, q in QUERIES.items()}


def with_bob(extra: dict) -> object:
    bf = {"alice": list(BASE_BF["alice"]), "bob": list(BASE_BF["bob"]) + [extra]}
    return state(battlefield=bf, hand=BASE_HAND)


def with_alice(extra: dict, zone: str = "battlefield") -> object:
    bf = {"alice": list(BASE_BF["alice"]), "bob": list(BASE_BF["bob"])}
    hand = {"alice": list(BASE_HAND["alice"])}
    gy: dict = {}
    if zone == "battlefield":
        bf["alice"].append(extra)
    elif zone == "hand":
        hand["alice"].append(extra)
    else:
        gy = {"alice": [extra]}
    return state(battlefield=bf, hand=hand, graveyard=gy)


def test_baseline_is_ok():
    assert set(statuses(state(battlefield=BASE_BF, hand=BASE_HAND)).values()) == {"ok"}


# --- families of unread text: what each blocks, and what it does not --------------------------------------

def test_an_opponents_cost_increase_blocks_casting_questions_only():
    s = with_bob(card("Tax Idol", "Noncreature spells cost {1} more to cast while the moon is full."))
    assert statuses(s) == {"pay": "unsupported", "targets": "ok", "actions": "unsupported",
                           "available_mana": "ok", "could_produce": "ok"}
    r = answer(s, QUERIES["pay"])
    assert r["unsupported"] == [{"object": "tax-idol", "affects": ["costs"],
                                 "text": "Noncreature spells cost {1} more to cast while the moon is full."}]


def test_a_reduction_for_its_controller_does_not_reach_the_opponent():
    s = with_bob(card("Bob's Lens", "Instant spells you cast cost {1} less to cast while the moon is full."))
    assert statuses(s)["pay"] == "ok" and statuses(s)["actions"] == "ok"
    # … but it reaches bob's own casting
    bob = state(battlefield={"bob": ["Mountain", card("Bob's Lens", "Instant spells you cast cost {1} less to "
                                                                   "cast while the moon is full.")]},
                hand={"bob": ["Lightning Bolt"]}, active="bob")
    assert answer(bob, {"kind": "pay", "cast": "lightning-bolt"})["status"] == "unsupported"


def test_a_targeting_restriction_blocks_targets_not_payments():
    s = with_bob(card("Veiled Idol", "Creatures can't be the target of spells cast during a full moon."))
    got = statuses(s)
    assert got["targets"] == "unsupported" and got["actions"] == "unsupported"
    assert got["pay"] == "ok" and got["available_mana"] == "ok" and got["could_produce"] == "ok"


def test_an_opponents_timing_rule_blocks_actions_only():
    s = with_bob(card("Hourglass Idol", "Each opponent can cast spells only during a full moon."))
    assert statuses(s) == {"pay": "ok", "targets": "ok", "actions": "unsupported", "available_mana": "ok",
                           "could_produce": "ok"}


def test_a_rule_on_activated_abilities_reaches_mana():
    s = with_bob(card("Gear Jammer", "Activated abilities of lands can't be activated during a full moon."))
    got = statuses(s)
    assert got["available_mana"] == "unsupported" and got["pay"] == "unsupported" and got["actions"] == "unsupported"


def test_an_unread_mana_ability_blocks_its_controllers_mana_questions_only():
    mine = with_alice(card("Moon Well", "{T}: Add one mana of the moon's color."))
    assert statuses(mine) == {"pay": "unsupported", "targets": "ok", "actions": "unsupported",
                              "available_mana": "unsupported", "could_produce": "unsupported"}
    theirs = with_bob(card("Moon Well", "{T}: Add one mana of the moon's color."))
    got = statuses(theirs)
    assert got["pay"] == "ok" and got["available_mana"] == "ok" and got["actions"] == "ok"
    assert got["could_produce"] == "unsupported"   # could_produce answers for every permanent


def test_any_player_may_activate_reaches_everyone():
    s = with_bob(card("Common Well", "{T}: Add {C}. Any player may activate this ability during a full moon."))
    assert answer(s, QUERIES["available_mana"])["status"] == "unsupported"


ODD = "{1}, {T}, Frobnicate a gizmo: Frobnicate a widget."   # a cost the reader can't read


def test_an_unread_activated_ability_is_a_possible_action_of_its_controller_only():
    mine = with_alice(card("Odd Relic", ODD))
    assert statuses(mine) == {"pay": "ok", "targets": "ok", "actions": "unsupported", "available_mana": "ok",
                              "could_produce": "ok"}
    assert set(statuses(with_bob(card("Odd Relic", ODD))).values()) == {"ok"}


def test_an_ability_whose_structure_is_read_is_an_action_even_with_its_effect_unread():
    mine = with_alice(card("Odd Relic", "{1}, {T}: Frobnicate a widget."))
    r = answer(mine, {"kind": "actions"})
    assert r["status"] == "ok"
    assert {"kind": "activate", "object": "odd-relic", "index": 1} == {
        k: v for k, v in next(a for a in r["actions"] if a["kind"] == "activate").items()
        if k in ("kind", "object", "index")}


def test_an_unread_trigger_blocks_resolution_not_choices():
    s = with_bob(card("Watcher", "Whenever a creature attacks, frobnicate a widget.", ("Creature",)))
    assert set(statuses(s).values()) == {"ok"}
    stacked = state(battlefield={"alice": ["Mountain"], "bob": ["Grizzly Bears",
                                                                card("Watcher", "Whenever a creature dies, "
                                                                     "frobnicate a widget.", ("Creature",))]},
                    stack=[{"card": "Lightning Bolt", "controller": "alice", "targets": [["grizzly-bears"]]}])
    r = answer(stacked, {"kind": "resolve"})
    assert r["status"] == "unsupported" and r["unsupported"][0]["affects"] == ["triggers"]


def test_a_combat_rule_does_not_block_casting():
    s = with_bob(card("Wall Idol", "Creatures with flying can't block during a full moon."))
    assert set(statuses(s).values()) == {"ok"}


def test_a_characteristic_change_blocks_what_reads_characteristics():
    s = with_bob(card("Moon Idol", "During a full moon, creatures are Moons in addition to their other types."))
    got = statuses(s)
    assert got["targets"] == "unsupported" and got["actions"] == "unsupported" and got["pay"] == "unsupported"


def test_unread_spell_text_in_hand_reaches_its_owner_only():
    mystery = card("Moon Bolt", "Frobnicate target widget during a full moon.", ("Instant",), "{R}")
    mine = with_alice(mystery, "hand")
    assert answer(mine, {"kind": "actions"})["status"] == "unsupported"
    r = answer(mine, {"kind": "targets", "cast": "moon-bolt"})
    assert r["status"] == "unsupported" and r["unsupported"][0]["affects"] == ["targets", "effect"]
    assert answer(mine, {"kind": "pay", "cast": "moon-bolt"})["status"] == "ok"   # the effect doesn't change costs
    assert answer(mine, QUERIES["targets"])["status"] == "ok"                     # another spell's targets
    theirs = state(battlefield=BASE_BF, hand={"alice": BASE_HAND["alice"], "bob": [mystery]})
    assert set(statuses(theirs).values()) == {"ok"}


def test_an_unread_effect_in_force_blocks_everything():
    s = state(battlefield=BASE_BF, hand=BASE_HAND,
              effects=[{"card": card("Moon Decree", "Until the next full moon, frobnicate.", ("Sorcery",))["card"],
                        "controller": "bob"}])
    assert set(statuses(s).values()) == {"unsupported"}


def test_a_graveyard_ability_reaches_its_owners_actions_only():
    back = card("Moon Wisp", "{2}{B}: Return this card from your graveyard to your hand during a full moon.",
                ("Creature",))
    mine = with_alice(back, "graveyard")
    assert statuses(mine) == {"pay": "ok", "targets": "ok", "actions": "unsupported", "available_mana": "ok",
                              "could_produce": "ok"}
    # on the battlefield the same ability does nothing (CR 113.6): it reaches no payment, target or mana
    got = statuses(with_alice(back))
    assert got["pay"] == got["targets"] == got["available_mana"] == got["could_produce"] == "ok"


def test_a_missing_face_reaches_its_owners_casting():
    s = state(battlefield={"alice": ["Mountain", "Mountain"]},
              hand={"alice": ["Galvanic Giant // Storm Reading"]})   # an Adventure no source of card-faces had
    r = answer(s, {"kind": "actions"})
    assert r["status"] == "unsupported"
    assert any("Storm Reading" in u["text"] and "timing" in u["affects"] for u in r["unsupported"])
    # bob's actions are not about alice's hand
    assert answer(s, {"kind": "actions", "player": "bob"})["status"] == "ok"


def test_an_unread_stack_object_blocks_its_own_resolution():
    s = state(stack=[{"card": card("Moon Ritual", "Frobnicate during a full moon.", ("Sorcery",))["card"],
                      "controller": "alice"}])
    r = answer(s, {"kind": "resolve"})
    assert r["status"] == "unsupported" and r["unsupported"][0]["object"] == "moon-ritual"


def test_a_stack_ability_is_numbered_among_triggered_and_activated_abilities():
    # contract §1 ``ability``: the n-th triggered or activated ability in printed order — the same
    # numbering as the engine's resolution (solver/engine/transition.py), not "activated first"
    text = "Whenever this creature attacks, frobnicate.\n{T}: Zap the moon."
    src = card("Moon Cannon", text, ("Creature",), "{2}")
    s = state(battlefield={"alice": [src]},
              stack=[{"ability": {"source": "moon-cannon", "index": 1}, "id": "t", "controller": "alice"}])
    parts = [p for p in unread_parts(s) if p.object == "t"]
    assert [p.text for p in parts] == ["frobnicate."]       # the trigger's unread effect, not "Zap the moon."


def test_a_sorcerys_hand_keyword_does_not_reach_from_the_graveyard():
    # suspend works from the hand only (CR 702.62a): in the graveyard it can't change alice's actions
    # ("Suspend X—…" is unread; "Suspend N—[cost]" is read: tests/test_suspend.py)
    end = card("Moon End", "Suspend X—{X}{B}{B}\nFrobnicate every graveyard.", ("Sorcery",), "")
    blocked = answer(state(battlefield={"alice": ["Swamp"]}, hand={"alice": [end]}), {"kind": "actions"})
    assert blocked["status"] == "unsupported" and any(u["text"].startswith("Suspend") for u in blocked["unsupported"])
    assert answer(state(battlefield={"alice": ["Swamp"]}, graveyard={"alice": [end]}),
                  {"kind": "actions"})["status"] == "ok"


def test_a_hidden_zone_keyword_works_where_its_keyword_says():
    # disturb casts from the graveyard only (CR 702.146a): in the hand it can't change alice's actions
    ghost = card("Moon Ghost", "Disturb {2}{W}{U} (You may cast this card from your graveyard transformed.)",
                 ("Creature",), "{1}{W}")
    assert answer(state(battlefield={"alice": ["Plains"]}, hand={"alice": [ghost]}), {"kind": "actions"})["status"] == "ok"
    assert answer(state(battlefield={"alice": ["Plains"]}, graveyard={"alice": [ghost]}),
                  {"kind": "actions"})["status"] == "unsupported"
    # disguise is cast from the hand; "in your graveyard" only names what it counts
    mask = card("Moon Mask", "Disguise {5}{R}. This cost is reduced by {1} for each instant and sorcery card in your "
                "graveyard.", ("Creature",), "{1}{R}")
    assert answer(state(battlefield={"alice": ["Mountain"]}, graveyard={"alice": [mask]}),
                  {"kind": "actions"})["status"] == "ok"
    assert answer(state(battlefield={"alice": ["Mountain"]}, hand={"alice": [mask]}),
                  {"kind": "actions"})["status"] == "unsupported"
    # how a spell is paid for still reaches from the graveyard: it could be cast from there
    late = card("Moon Echo", "Kicker—Sacrifice a moon.\nFrobnicate.\nFlashback {2}{R}", ("Sorcery",), "{R}")
    dearer = card("Moon Toll", "This spell costs {1} more to cast for each moon.\nFlashback {2}{R}", ("Sorcery",), "{R}")
    for c in (late, dearer):
        r = answer(state(battlefield={"alice": ["Mountain"]}, graveyard={"alice": [c]}), {"kind": "actions"})
        assert r["status"] == "unsupported", c


def test_a_granted_equip_ability_reaches_actions_not_targets_or_mana():
    smith = card("Moon Smith", "Metalcraft — Equipment you control have equip {0} as long as you control three or more "
                 "artifacts.", ("Creature",), "{W}{W}")
    s = state(battlefield={"alice": ["Swamp", "Swamp", smith], "bob": ["Grizzly Bears"]}, hand={"alice": ["Doom Blade"]})
    assert answer(s, {"kind": "targets", "cast": "doom-blade"})["status"] == "ok"
    assert answer(s, {"kind": "could_produce"})["status"] == "ok"
    assert answer(s, {"kind": "actions"})["status"] == "unsupported"


def test_chapter_abilities_are_triggers_and_reach_no_payment():
    # Urza's Saga (bob's): chapter abilities are triggered abilities (CR 714.2b)
    s = state(battlefield={"alice": ["Forest", "Forest"], "bob": ["Urza's Saga"]}, hand={"alice": ["Grizzly Bears"]})
    assert answer(s, {"kind": "pay", "cast": "grizzly-bears"})["status"] == "ok"


def test_a_removed_ability_cannot_block():
    # Blood Moon: a nonbasic land loses its abilities (CR 613.1d, 305.7): its unread text is gone
    odd = card("Moon Vale", "{T}: Add one mana of the moon's color.", ("Land",), "")
    s = state(battlefield={"alice": [odd, "Mountain"], "bob": ["Blood Moon"]})
    assert answer(s, {"kind": "available_mana"})["status"] == "ok"


# --- engine limits answer unsupported, never error -------------------------------------------------------

def test_engine_limits_answer_unsupported_with_a_reason():
    # Blazemire Verge: "Activate only if you control a Swamp or a Mountain." With Squandered Resources able to
    # sacrifice that Swamp first, the order of activations matters (not modeled)
    s = state(battlefield={"alice": ["Blazemire Verge", "Swamp", "Squandered Resources"]})
    r = answer(s, {"kind": "pay", "cost": "{R}{B}"})
    assert r["status"] == "unsupported" and "order of activations matters" in r["reason"]


def test_riders_that_change_nothing_asked_do_not_block():
    # Cavern of Souls: "…, and that spell can't be countered" — unread, irrelevant to mana answers
    s = state(battlefield={"alice": ["Cavern of Souls", "Forest"]})
    for q in ({"kind": "could_produce"}, {"kind": "available_mana"}):
        assert answer(s, q)["status"] == "ok"


def test_riders_do_not_shift_activated_ability_numbers():
    parts = get_card("Cavern of Souls").abilities
    riders = [a for a in parts if isinstance(a, ir.Unsupported)]
    assert riders and all(r.kind == "rider" for r in riders)
    assert sum(ir.is_activated(a) for a in parts) == 2


def test_an_unread_spending_restriction_blocks_mana_answers():
    # Elfhame Druid: "{T}: Add {G}{G}. Spend this mana only to cast kicked spells."
    s = state(battlefield={"alice": ["Elfhame Druid"]})
    r = answer(s, {"kind": "pay", "cost": "{G}{G}"})
    assert r["status"] == "unsupported"


# --- the API, MCP and batch carry it ----------------------------------------------------------------------

def test_the_api_refuses_rather_than_guesses():
    s = with_alice(card("Odd Relic", ODD))
    sit = Situation(s)
    assert any(p["object"] == "odd-relic" and p["zone"] == "battlefield" for p in sit.unsupported)
    assert sit.blocking("actions") and not sit.blocking("pay", cast="lightning-bolt")
    with pytest.raises(UnsupportedCaseError) as e:
        list(sit.legal_actions)
    assert e.value.parts[0]["object"] == "odd-relic"
    with pytest.raises(UnsupportedCaseError):
        sit.legal_actions_mask()
    with pytest.raises(UnsupportedCaseError):
        sit.is_legal("activate odd-relic:1")
    with pytest.raises(UnsupportedCaseError):
        sit.legal_actions.count()
    # one action the relic can't change is still decided, and applied
    assert sit.is_legal("cast lightning-bolt -> bob")
    after = sit.apply("cast lightning-bolt -> bob")
    assert after.state.zone("stack")[0].id == "lightning-bolt"
    assert sit.legal_actions.summary()["status"] == "unsupported"


def test_apply_refuses_when_an_unread_trigger_could_fire():
    s = with_bob(card("Watcher", "Whenever an opponent casts a spell, frobnicate a widget.", ("Creature",)))
    sit = Situation(s)
    assert sit.is_legal("cast lightning-bolt -> bob")          # legality: the trigger can't change it
    with pytest.raises(UnsupportedCaseError):
        sit.apply("cast lightning-bolt -> bob")                  # the state after it: the trigger could fire


def test_the_api_answers_when_nothing_unread_matters():
    s = with_bob(card("Watcher", "Whenever a creature attacks, frobnicate a widget.", ("Creature",)))
    sit = Situation(s)
    assert sit.unsupported and not sit.blocking("actions")
    assert sit.is_legal("cast lightning-bolt -> bob")


def test_mcp_legal_actions_returns_the_structured_refusal():
    pytest.importorskip("mcp")
    import asyncio
    import json

    from mtgsolve.solver.apps.mcp_server import build_server

    server = build_server()
    doc = {"format": "mtgsolve/1", "players": ["alice", "bob"],
           "battlefield": {"alice": ["Forest", card("Odd Relic", ODD)]}}

    async def call():
        return await server.call_tool("legal_actions", {"situation": doc})

    res = asyncio.run(call())
    content = res[0] if isinstance(res, tuple) else res
    items = content if isinstance(content, list) else getattr(content, "content", content)
    text = items[0].text
    payload = json.loads(text)
    assert payload["status"] == "unsupported" and payload["unsupported"][0]["object"] == "odd-relic"


# --- properties over the real card database ---------------------------------------------------------------

EXAMPLES = int(os.environ.get("MTGSOLVE_EXAMPLES", "40"))


def _cards_with_unread_parts() -> list[str]:
    from mtgsolve.solver.cards import oracle_index
    names = sorted(oracle_index())
    out = []
    for n in names[::97]:     # a deterministic spread over the database
        try:
            c = get_card(n)
        except Exception:     # pragma: no cover - a card the loader refuses is not a soundness question
            continue
        if c.unsupported or c.data.layout != "normal":
            out.append(n)
    return out


UNREAD = _cards_with_unread_parts()
ZONES = ("battlefield", "hand", "graveyard", "exile", "library", "stack")
KINDS = ("pay", "targets", "actions", "available_mana", "could_produce", "order", "resolve")


def _place(name: str, zone: str, owner: str) -> object:
    if zone == "battlefield" and {"Instant", "Sorcery"} & set(get_card(name).data.types):
        raise ValueError("an instant or sorcery is never a permanent (CR 110.4a)")
    d = {"format": "mtgsolve/1", "players": ["alice", "bob"], "turn": {"number": 3, "active": "alice"},
         "battlefield": {"alice": ["Mountain", "Forest"], "bob": ["Grizzly Bears"]},
         "hand": {"alice": ["Lightning Bolt"]}, "stack": [], "graveyard": {}, "exile": {}, "library": {}}
    if zone == "stack":
        d["stack"] = [{"card": name, "id": "subject-card", "controller": owner}]
    else:
        d.pop("stack")
        d[zone][owner] = list(d[zone].get(owner, [])) + [{"card": name, "id": "subject-card"}]
    return situation_from_dict(d).state


def _query(kind: str) -> dict:
    return {"pay": {"kind": "pay", "cast": "lightning-bolt"}, "targets": {"kind": "targets", "cast": "lightning-bolt"},
            "order": {"kind": "order", "event": {"kind": "tap_for_mana", "object": "forest"}}}.get(kind, {"kind": kind})


@settings(max_examples=EXAMPLES, deadline=None, derandomize=bool(os.environ.get("CI")),
          suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(UNREAD), st.sampled_from(ZONES), st.sampled_from(("alice", "bob")), st.sampled_from(KINDS))
def test_no_ok_answer_when_a_part_reaches_it(name, zone, owner, kind):
    """Property 1: a real card with unread parts, in any zone of either player: when the classification
    says a part reaches the question, no query path answers ``ok``."""
    try:
        s = _place(name, zone, owner)
    except Exception as e:          # a card the situation can't hold there (e.g. a token layout)
        assume(False)
        raise e
    q = _query(kind)
    assume(kind != "resolve" or s.zone("stack"))
    reached = blocking(s, scope_of(s, q))
    r = answer(s, q)
    if reached:
        assert r["status"] == "unsupported", (name, zone, owner, kind, [p.text for p in reached])
        assert {(u["object"], u["text"]) for u in r["unsupported"]} == {(p.object, p.text) for p in reached}
    else:
        assert r["status"] != "error" or "unsupported" not in r.get("error", "")
    if kind == "actions":
        sit = Situation(s)
        if reached:
            with pytest.raises(UnsupportedCaseError):
                sit.legal_actions_mask()


def _without_unread(name: str) -> dict:
    """The card as an inline card with its unread lines left out: the same object as far as the project reads it."""
    c = get_card(name)
    unread = {u.text for u in c.unsupported}
    lines = [ln for ln in c.data.text.split("\n") if ln.strip() and ln.strip() not in unread]
    d = {"name": c.data.name, "manaCost": c.data.mana_cost.text if c.data.mana_cost.symbols else "",
         "type": c.data.type_line, "types": list(c.data.types), "subtypes": list(c.data.subtypes),
         "supertypes": list(c.data.supertypes), "text": "\n".join(lines), "layout": "normal"}
    for k in ("power", "toughness", "loyalty"):
        v = getattr(c.data, k)
        if v is not None:
            d[k] = v
    return d


@settings(max_examples=EXAMPLES, deadline=None, derandomize=bool(os.environ.get("CI")),
          suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(UNREAD), st.sampled_from(ZONES), st.sampled_from(("alice", "bob")),
       st.sampled_from(("pay", "targets", "actions", "available_mana", "could_produce")))
def test_a_part_that_cannot_reach_an_answer_does_not_change_it(name, zone, owner, kind):
    """Property 2: when no part of the card reaches the question, the answer equals the answer for the
    same card with its unread lines removed (an inline card), and, in a hidden zone of the other player,
    the answer with the card removed altogether."""
    c = get_card(name)
    assume(c.data.layout == "normal" and c.unsupported and not c.data.unreadable_cost)
    try:
        s = _place(name, zone, owner)
    except Exception:
        assume(False)
        return
    q = _query(kind)
    assume(not blocking(s, scope_of(s, q)))
    got = answer(s, q)
    try:
        stripped = _place_inline(_without_unread(name), zone, owner)
    except Exception:
        assume(False)
        return
    assume(not unread_parts(stripped))          # the stripped card must read whole
    assert _norm(answer(stripped, q)) == _norm(got), (name, zone, owner, kind)
    if zone in ("hand", "library") and owner == "bob" and kind != "targets":
        bare = _place_none()
        assert _norm(answer(bare, q)) == _norm(got), (name, zone, owner, kind)


def _norm(r: dict) -> dict:
    """A result without the ``unread`` notes of actions entries (they name the very text removed)."""
    if "actions" in r:
        r = dict(r, actions=[{k: v for k, v in a.items() if k != "unread"} for a in r["actions"]])
    return r


def _place_inline(cd: dict, zone: str, owner: str) -> object:
    if zone == "stack":
        return situation_from_dict({"format": "mtgsolve/1", "players": ["alice", "bob"],
                                    "turn": {"number": 3, "active": "alice"},
                                    "battlefield": {"alice": ["Mountain", "Forest"], "bob": ["Grizzly Bears"]},
                                    "hand": {"alice": ["Lightning Bolt"]},
                                    "stack": [{"card": cd, "id": "subject-card", "controller": owner}]}).state
    d = {"format": "mtgsolve/1", "players": ["alice", "bob"], "turn": {"number": 3, "active": "alice"},
         "battlefield": {"alice": ["Mountain", "Forest"], "bob": ["Grizzly Bears"]},
         "hand": {"alice": ["Lightning Bolt"]}}
    d.setdefault(zone, {})
    d[zone][owner] = list(d[zone].get(owner, [])) + [{"card": cd, "id": "subject-card"}]
    return situation_from_dict(d).state


def _place_none() -> object:
    return situation_from_dict({"format": "mtgsolve/1", "players": ["alice", "bob"],
                                "turn": {"number": 3, "active": "alice"},
                                "battlefield": {"alice": ["Mountain", "Forest"], "bob": ["Grizzly Bears"]},
                                "hand": {"alice": ["Lightning Bolt"]}}).state


def test_classification_is_conservative_for_unknown_statics():
    assert classify("Frobnicate the widgets.", "static") == frozenset({"unknown"})
    assert "targets" in classify("Counter target spell.", "spell")
    assert classify("Whenever you cast a spell, frobnicate.", "triggered") == frozenset({"triggers"})


def test_passing_casts_and_activates_nothing_cr_117_3d():
    """An unread sorcery in hand and an unread activated ability on the battlefield cannot change
    what passing does; a trigger on the battlefield and spell text that works from the hand
    (madness: discarded to hand size in cleanup, CR 702.35) still can."""
    sorcery = card("Moon Rite", "Frobnicate target widget during a full moon.", ("Sorcery",), "{1}{G}")
    odd = card("Odd Relic", ODD)
    s = situation_from_dict({"format": "mtgsolve/1", "players": ["alice", "bob"],
                             "turn": {"number": 3, "active": "alice", "step": "main1", "priority": "bob",
                                      "passed": ["alice"]},           # the step ends (CR 117.4)
                             "battlefield": {"alice": ["Forest", odd], "bob": ["Grizzly Bears"]},
                             "hand": {"alice": [sorcery]}}).state
    r = answer(s, {"kind": "pass"})
    assert r["status"] == "ok", r.get("unsupported")
    mine = state(battlefield={"alice": ["Forest", odd], "bob": ["Grizzly Bears"]}, hand={"alice": [sorcery]})
    assert answer(mine, {"kind": "actions"})["status"] == "unsupported"  # casting or activating them: refused
    watcher = card("Watcher", "Whenever a player passes priority during a full moon, frobnicate.", ("Creature",))
    s2 = state(battlefield={"alice": ["Forest", watcher], "bob": ["Grizzly Bears"]}, hand={"alice": [sorcery]})
    assert answer(s2, {"kind": "pass"})["status"] == "unsupported"   # text about priority, even mid-round
    mad = card("Moon Madness", "Frobnicate a widget. If you discard this card during a full moon, frobnicate twice.",
               ("Sorcery",), "{1}{R}")
    s3 = situation_from_dict({"format": "mtgsolve/1", "players": ["alice", "bob"],
                              "turn": {"number": 3, "active": "alice", "step": "end", "priority": "bob",
                                       "passed": ["alice"]},       # the end step ends: cleanup (CR 514.1)
                              "battlefield": {"alice": ["Forest"], "bob": ["Grizzly Bears"]},
                              "hand": {"alice": [mad]}}).state
    r3 = answer(s3, {"kind": "pass"})
    assert r3["status"] == "unsupported" and "discard" in r3["unsupported"][0]["text"]


def test_a_permanent_spells_statics_work_once_it_is_a_permanent_cr_113_6():
    """A creature spell on the stack: its unread static "creatures you control get +1/+1 during a
    full moon" doesn't function there — another spell's targets and its caster's payments are
    answered — but it does as the spell resolves (it is a permanent then, and state-based actions
    look at the result); "This spell can't be countered …" functions on the stack (CR 113.6c)."""
    lord = card("Moon Lord", "Other creatures you control get +1/+1 during a full moon.", ("Creature",), "{1}{G}")
    s = state(battlefield={"alice": ["Mountain", "Mountain"], "bob": ["Grizzly Bears"]},
              hand={"alice": ["Lightning Bolt"]},
              stack=[{"card": lord["card"], "controller": "bob", "owner": "bob"}], priority="alice")
    assert answer(s, {"kind": "targets", "cast": "lightning-bolt"})["status"] == "ok"
    assert answer(s, {"kind": "pay", "cast": "lightning-bolt"})["status"] == "ok"
    assert answer(s, {"kind": "resolve"})["status"] == "unsupported"
    countered = state(battlefield={"alice": ["Island", "Island"], "bob": ["Grizzly Bears"]},
                      stack=[{"card": "Counterspell", "controller": "alice", "owner": "alice",
                              "targets": [["moon-lord"]]},
                             {"card": lord["card"], "controller": "bob", "owner": "bob"}])
    assert answer(countered, {"kind": "resolve"})["status"] == "ok"   # countered: its static never functions
    stubborn = card("Moon Wurm", "This spell can't be countered during a full moon.", ("Creature",), "{1}{G}")
    s2 = state(battlefield={"alice": ["Island", "Island"], "bob": ["Grizzly Bears"]},
               stack=[{"card": "Counterspell", "controller": "alice", "owner": "alice", "targets": [["moon-wurm"]]},
                      {"card": stubborn["card"], "controller": "bob", "owner": "bob"}])
    assert answer(s2, {"kind": "resolve"})["status"] == "unsupported"


def test_ones_own_spell_on_the_stack_is_no_longer_an_action():
    """Alice's unread spell already on the stack: its targets and effect are its own business — her
    next actions are answered (they would be refused while it was in her hand); its resolution is not."""
    moon = card("Moon Bolt", "Frobnicate target widget during a full moon.", ("Instant",), "{R}")
    s = state(battlefield={"alice": ["Mountain", "Mountain"], "bob": ["Grizzly Bears"]},
              hand={"alice": ["Lightning Bolt"]},
              stack=[{"card": moon["card"], "controller": "alice", "owner": "alice"}], priority="alice")
    assert answer(s, {"kind": "actions"})["status"] == "ok"
    assert answer(s, {"kind": "resolve"})["status"] == "unsupported"
    in_hand = state(battlefield={"alice": ["Mountain", "Mountain"], "bob": ["Grizzly Bears"]},
                    hand={"alice": ["Lightning Bolt", moon]})
    assert answer(in_hand, {"kind": "actions"})["status"] == "unsupported"


# --- resolve: an unread trigger matters only if its event can happen during the resolution ------------
def _bolt_at(victim: str, extra: dict, zone: str = "battlefield") -> object:
    bf = {"alice": ["Mountain"], "bob": ["Grizzly Bears"]}
    hand: dict = {}
    (bf if zone == "battlefield" else hand).setdefault("bob", []).append(extra)
    return state(battlefield=bf, hand=hand,
                 stack=[{"card": "Lightning Bolt", "controller": "alice", "targets": [[victim]]}])


@pytest.mark.parametrize("text,status", [
    ("At the beginning of your upkeep, frobnicate a widget.", "ok"),               # no step begins (CR 603.2)
    ("Whenever you cast a noncreature spell, frobnicate a widget.", "ok"),        # nothing is cast
    ("Whenever a creature attacks, frobnicate a widget.", "ok"),                  # nothing attacks
    ("Whenever a creature dies, frobnicate a widget.", "unsupported"),            # Bolt can kill (CR 704.5g)
    ("Whenever a player loses life, frobnicate a widget.", "unsupported"),        # Bolt to a player
    ("When you control no Forests, frobnicate a widget.", "unsupported"),         # a state trigger: unknown
])
def test_an_unread_trigger_blocks_resolve_only_if_its_event_can_happen(text, status):
    watcher = card("Watcher", text, ("Creature",))
    assert answer(_bolt_at("grizzly-bears", watcher), {"kind": "resolve"})["status"] == status


def test_an_enters_trigger_of_a_card_in_hand_or_a_permanent_already_there():
    """"When this creature enters, …" (read event, unread effect): a permanent already on the battlefield
    does not enter again, nor does a card in a hand when the resolution puts nothing onto the battlefield;
    a creature spell resolving does make "whenever another creature enters" trigger."""
    etb = card("Moon Scout", "When this creature enters, frobnicate a widget.", ("Creature",))
    assert answer(_bolt_at("alice", etb), {"kind": "resolve"})["status"] == "ok"
    assert answer(_bolt_at("alice", etb, "hand"), {"kind": "resolve"})["status"] == "ok"
    other = card("Moon Host", "Whenever another creature enters, frobnicate a widget.", ("Creature",))
    s = state(battlefield={"alice": ["Forest", other], "bob": []},
              stack=[{"card": "Grizzly Bears", "controller": "alice"}])
    assert answer(s, {"kind": "resolve"})["status"] == "unsupported"


def test_enters_triggers_of_hidden_cards_need_an_effect_that_moves_them():
    """"When this creature enters" of a card in a graveyard matters to a resolution that returns
    cards from graveyards to the battlefield (CR 400.7), not to a creature spell entering."""
    etb = card("Moon Scout", "When this creature enters, frobnicate a widget.", ("Creature",))
    s = state(battlefield={"alice": ["Forest", "Forest"], "bob": []}, graveyard={"alice": [etb]},
              stack=[{"card": "Grizzly Bears", "controller": "alice"}])
    assert answer(s, {"kind": "resolve"})["status"] == "ok"
    ward = card("Moon Guard", "Ward—Discard a card.", ("Creature",))
    s2 = _bolt_at("grizzly-bears", ward)
    assert answer(s2, {"kind": "resolve"})["status"] == "ok"   # ward triggers on becoming a target (CR 702.21a)


def test_passing_to_a_player_still_to_pass_changes_nothing_but_priority_cr_117_3d():
    """Alice passes while Bob has not: Bob receives priority and nothing else happens, whatever the
    unread text; once Bob has passed (turn.passed), passing resolves the top of the stack (CR 117.4)
    and the resolve rule decides; with an empty stack the step ends (every part counts)."""
    moon = card("Moon Bolt", "Frobnicate target widget during a full moon.", ("Instant",), "{R}")
    watcher = card("Watcher", "At the beginning of each end step, frobnicate a widget.", ("Creature",))
    base = {"format": "mtgsolve/1", "players": ["alice", "bob"],
            "battlefield": {"alice": ["Mountain", watcher], "bob": ["Grizzly Bears"]},
            "stack": [{"card": moon["card"], "controller": "alice", "owner": "alice"}]}
    first = situation_from_dict({**base, "turn": {"number": 3, "active": "alice", "step": "main1"}}).state
    assert answer(first, {"kind": "pass"})["status"] == "ok"
    both = situation_from_dict({**base, "turn": {"number": 3, "active": "alice", "step": "main1",
                                                 "priority": "bob", "passed": ["alice"]}}).state
    assert answer(both, {"kind": "pass"})["status"] == "unsupported"   # Moon Bolt resolves, unread
    empty = dict(base)
    del empty["stack"]
    step = situation_from_dict({**empty, "turn": {"number": 3, "active": "alice", "step": "main2",
                                                  "priority": "bob", "passed": ["alice"]}}).state
    assert answer(step, {"kind": "pass"})["status"] == "unsupported"   # the step ends: the watcher may act


@pytest.mark.parametrize("step,text,status", [
    ("main1", "At the beginning of your upkeep, frobnicate a widget.", "ok"),          # combat begins next
    ("main2", "At the beginning of your end step, frobnicate a widget.", "unsupported"),
    ("end", "At the beginning of your upkeep, frobnicate a widget.", "unsupported"),   # the next turn's upkeep
    ("main1", "Whenever you cast a noncreature spell, frobnicate a widget.", "ok"),
    ("main1", "Whenever a creature dies, frobnicate a widget.", "ok"),                 # no combat damage yet
    ("main1", "When you control no Forests, frobnicate a widget.", "unsupported"),     # unknown: blocks
])
def test_an_unread_trigger_blocks_the_end_of_a_step_only_if_it_can_trigger_then(step, text, status):
    """Everyone has passed with an empty stack: the step ends and the next begins (CR 117.4, 500.1)."""
    watcher = card("Watcher", text, ("Creature",))
    st = situation_from_dict({"format": "mtgsolve/1", "players": ["alice", "bob"],
                              "turn": {"number": 3, "active": "alice", "step": step, "priority": "bob",
                                       "passed": ["alice"]},
                              "battlefield": {"alice": ["Forest", watcher], "bob": []},
                              "library": {"alice": ["Forest"], "bob": ["Forest"]}}).state
    assert answer(st, {"kind": "pass"})["status"] == status


def test_at_the_end_of_a_step_untap_statics_and_mana_riders_act_only_when_they_can():
    """"This artifact doesn't untap during your untap step" matters when an untap step begins (the next
    turn), not when main 1 ends (CR 502.3)."""
    vault = card("Moon Vault", "This artifact doesn't untap during your untap step during a full moon.")
    for step, status in (("main1", "ok"), ("end", "unsupported")):
        st = situation_from_dict({"format": "mtgsolve/1", "players": ["alice", "bob"],
                                  "turn": {"number": 3, "active": "alice", "step": step, "priority": "bob",
                                           "passed": ["alice"]},
                                  "battlefield": {"alice": ["Forest", vault], "bob": []},
                                  "library": {"alice": ["Forest"], "bob": ["Forest"]}}).state
        assert answer(st, {"kind": "pass"})["status"] == status, step


def test_event_families_of_graveyard_leavers_and_tapped_entries():
    from mtgsolve.solver.rules.soundness.trigger_reach import event_families

    assert event_families("Whenever an instant or sorcery card leaves your graveyard, put a +1/+1 counter on "
                          "this creature.") == frozenset({"leaves_graveyard"})
    assert event_families("Whenever a permanent you control enters tapped, untap it.") == frozenset({"enters"})
    assert "tap" in event_families("Whenever this creature becomes tapped, frobnicate.")
    assert "graveyard" in event_families("Whenever a creature card is put into your graveyard from anywhere, "
                                         "frobnicate.")


def test_activated_abilities_and_keyword_triggers_during_a_resolution():
    """A permanent's unread activated ability (not activated) and a cast-trigger keyword (cascade) can't act
    while Lightning Bolt resolves; the unread effect of an activated ability on the stack blocks its own
    resolution (CR 602.2, 608.2)."""
    relic = card("Odd Relic", "{1}, {T}: Frobnicate target widget.")
    cascader = card("Moon Cascader", "Cascade", ("Creature",))
    s = state(battlefield={"alice": ["Mountain", relic], "bob": ["Grizzly Bears", cascader]},
              stack=[{"card": "Lightning Bolt", "controller": "alice", "targets": [["bob"]]}])
    assert answer(s, {"kind": "resolve"})["status"] == "ok"
    on_stack = state(battlefield={"alice": ["Mountain", relic], "bob": ["Grizzly Bears"]},
                     stack=[{"ability": {"source": "odd-relic", "index": 1}, "controller": "alice",
                             "targets": [["grizzly-bears"]]}])
    assert answer(on_stack, {"kind": "resolve"})["status"] == "unsupported"


def test_a_delayed_trigger_in_force_blocks_only_what_its_event_can_reach():
    """An effect in force "Whenever you cast a creature spell this turn, draw a card." (Glimpse of Nature,
    CR 603.7): nothing is cast while Bolt resolves nor as the step ends; any other effect in force still
    blocks everything."""
    glimpse = {"card": card("Moon Glimpse", "Whenever you cast a creature spell this turn, draw a card.",
                            ("Sorcery",))["card"], "controller": "alice"}
    s = state(battlefield={"alice": ["Mountain"], "bob": ["Grizzly Bears"]}, effects=[glimpse],
              stack=[{"card": "Lightning Bolt", "controller": "alice", "targets": [["bob"]]}])
    assert answer(s, {"kind": "resolve"})["status"] == "ok"
    step = situation_from_dict({"format": "mtgsolve/1", "players": ["alice", "bob"],
                                "turn": {"number": 3, "active": "alice", "step": "main1", "priority": "bob",
                                         "passed": ["alice"]},
                                "battlefield": {"alice": ["Mountain"], "bob": ["Grizzly Bears"]},
                                "effects": [glimpse]}).state
    assert answer(step, {"kind": "pass"})["status"] == "ok"
    assert answer(step, {"kind": "actions", "player": "alice"})["status"] == "unsupported"


def test_a_spells_instructions_in_hand_act_not_as_the_step_ends():
    """Glimpse of Nature or Brainstorm in a hand: their words ("Whenever you cast …", "… from your hand …")
    are instructions of the spell, acting once it resolves (CR 608.2)."""
    for text in ("Whenever you cast a creature spell this turn, draw a card.",
                 "Draw three cards, then put two cards from your hand on top of your library in any order."):
        spell = card("Moon Lore", text, ("Sorcery",), "{G}")
        st = situation_from_dict({"format": "mtgsolve/1", "players": ["alice", "bob"],
                                  "turn": {"number": 3, "active": "alice", "step": "main1", "priority": "bob",
                                           "passed": ["alice"]},
                                  "battlefield": {"alice": ["Forest"], "bob": []},
                                  "hand": {"alice": [spell]}}).state
        assert answer(st, {"kind": "pass"})["status"] == "ok", text


def test_a_combat_rule_acts_at_the_end_of_a_step_only_when_combat_comes():
    rule = card("Moon Drill", "Creatures you control attack each combat if able during a full moon.")
    for step, status in (("end", "ok"), ("beginning_of_combat", "unsupported")):
        st = situation_from_dict({"format": "mtgsolve/1", "players": ["alice", "bob"],
                                  "turn": {"number": 3, "active": "alice", "step": step, "priority": "bob",
                                           "passed": ["alice"]},
                                  "battlefield": {"alice": ["Forest", rule], "bob": []},
                                  "library": {"alice": ["Forest"], "bob": ["Forest"]}}).state
        assert answer(st, {"kind": "pass"})["status"] == status, step


def test_a_resolving_permanents_own_step_trigger_and_entry_rules_at_a_step_end():
    """The resolving permanent spell's "At the beginning of your end step" can't trigger as it resolves,
    its "When this enters" does (CR 603.2, 608.3); at the end of a step, "Lands you control enter untapped"
    and "can't be countered" act not (nothing enters, nothing is countered)."""
    announce = card("Moon Banner", "At the beginning of your end step, frobnicate a widget.", ("Enchantment",))
    s = state(battlefield={"alice": ["Forest"], "bob": []}, stack=[{"card": announce["card"], "controller": "alice"}])
    assert answer(s, {"kind": "resolve"})["status"] == "ok"
    scout = card("Moon Scout", "When this creature enters, frobnicate a widget.", ("Creature",))
    s2 = state(battlefield={"alice": ["Forest"], "bob": []}, stack=[{"card": scout["card"], "controller": "alice"}])
    assert answer(s2, {"kind": "resolve"})["status"] == "unsupported"
    for text in ("Lands you control enter untapped during a full moon.",
                 "Green spells you control can't be countered during a full moon."):
        rule = card("Moon Rule", text)
        st = situation_from_dict({"format": "mtgsolve/1", "players": ["alice", "bob"],
                                  "turn": {"number": 3, "active": "alice", "step": "main2", "priority": "bob",
                                           "passed": ["alice"]},
                                  "battlefield": {"alice": ["Forest", rule], "bob": []}}).state
        assert answer(st, {"kind": "pass"})["status"] == "ok", text


def test_a_commander_in_the_command_zone_is_no_permanent_cr_113_6():
    """A commander card's unread mana ability works on the battlefield, not from the command zone (CR 113.6,
    903.3)."""
    boss = card("Moon Boss", "{T}: Add {C}{C} during a full moon.", ("Creature",), supertypes=["Legendary"])
    s = situation_from_dict({"format": "mtgsolve/1", "players": ["alice", "bob"],
                             "battlefield": {"alice": ["Forest"]},
                             "command": {"alice": [{**boss, "commander": True}]}}).state
    assert answer(s, {"kind": "available_mana", "player": "alice"})["status"] == "ok"
    s2 = situation_from_dict({"format": "mtgsolve/1", "players": ["alice", "bob"],
                              "battlefield": {"alice": ["Forest", boss]}}).state
    assert answer(s2, {"kind": "available_mana", "player": "alice"})["status"] == "unsupported"


def test_a_cards_own_graveyard_trigger_needs_a_move_from_where_it_is():
    """"When <this card> is put into a graveyard from anywhere" (Emrakul): a card already in a graveyard or
    in a hand can't be put there by Lightning Bolt's resolution; on the battlefield, a creature Bolt kills can."""
    titan = card("Moon Titan", "When Moon Titan is put into a graveyard from anywhere, frobnicate a widget.",
                 ("Creature",), power="1", toughness="1")
    for zone, status in (("graveyard", "ok"), ("hand", "ok"), ("battlefield", "unsupported")):
        bf = {"alice": ["Mountain"], "bob": ["Grizzly Bears"]}
        d = {"format": "mtgsolve/1", "players": ["alice", "bob"], "battlefield": bf,
             "stack": [{"card": "Lightning Bolt", "controller": "alice",
                        "targets": [["moon-titan" if zone == "battlefield" else "bob"]]}]}
        if zone == "battlefield":
            bf["bob"] = ["Grizzly Bears", titan]
        else:
            d[zone] = {"bob": [titan]}
        assert answer(situation_from_dict(d).state, {"kind": "resolve"})["status"] == status, zone


def test_a_permanent_with_an_unread_activated_ability_may_enter_as_a_spell_resolves():
    """Neither the soundness layer nor the resolution engine refuses a creature spell whose only unread text
    is an activated ability: it acts once activated, not as the creature enters (CR 602.1, 608.3)."""
    tinker = card("Odd Tinker", ODD, ("Creature",), "{G}")
    s = state(battlefield={"alice": ["Forest"], "bob": []}, stack=[{"card": tinker["card"], "controller": "alice"}])
    r = answer(s, {"kind": "resolve"})
    assert r["status"] == "ok", r
    assert r["count"] == 1


def test_an_untap_rule_waits_for_an_untap_step_even_on_the_resolving_permanent():
    vault = card("Moon Vault", "This artifact doesn't untap during your untap step during a full moon.")
    s = state(battlefield={"alice": ["Forest"], "bob": []}, stack=[{"card": vault["card"], "controller": "alice"}])
    assert answer(s, {"kind": "resolve"})["status"] == "ok"
    entry = card("Moon Gate", "This artifact enters tapped and doesn't untap during your untap step during a full moon.")
    s2 = state(battlefield={"alice": ["Forest"], "bob": []}, stack=[{"card": entry["card"], "controller": "alice"}])
    assert answer(s2, {"kind": "resolve"})["status"] == "unsupported"   # how it enters matters as it resolves


def test_cast_this_turn_is_not_a_cost_of_the_card_itself():
    """ "cast this turn" / "cast this way" name other spells, not this card (CR 113.6): such a static
    functions on the battlefield; "this spell costs …" and casting keywords are the card's own."""
    from mtgsolve.solver.rules.soundness.unread import active, self_cast

    tax = "Each spell a player casts costs {1} more to cast for each other spell that player has cast this turn."
    assert not self_cast(tax) and active(tax, "static", "battlefield", ("Artifact",))
    assert not self_cast("Spells cast this way cost {2} less to cast.")
    assert self_cast("This spell costs {1} less to cast for each artifact you control.")
    assert self_cast("Flashback {2}{R}")
    assert not active("This spell costs {1} less to cast for each artifact you control.", "static", "battlefield",
                      ("Artifact",))


def test_an_inline_card_is_read_for_soundness_as_the_database_card_is():
    """One path: the same Oracle text inline or from the database gives the same unread parts."""
    from mtgsolve.solver.cards import get_card
    from mtgsolve.solver.io.load import situation_from_dict
    from mtgsolve.solver.rules.soundness.check import unread_parts

    sphere = get_card("Damping Sphere").data
    inline = {"name": "Test Sphere", "type": sphere.type_line, "types": list(sphere.types), "manaCost": "{1}",
              "text": sphere.text}

    def parts(card: object) -> list:
        d = {"format": "mtgsolve/1", "players": ["alice", "bob"],
             "battlefield": {"bob": [{"card": card} if isinstance(card, dict) else card]}}
        return [(p.text, p.affects, p.reach, p.active) for p in unread_parts(situation_from_dict(d).state)]

    assert parts(inline) == parts("Damping Sphere") and len(parts(inline)) == 2


def test_a_spell_cost_change_reaches_pay_not_the_mana_a_player_can_make():
    """ "Each spell … costs {1} more to cast" changes what casting costs (CR 601.2f), never a mana
    ability's cost (CR 605): it blocks `pay` for a spell and not `available_mana`; a cost change that
    names activating abilities still blocks `available_mana`."""
    from mtgsolve.solver.io.load import situation_from_dict
    from mtgsolve.solver.queries import answer

    def statuses(text: str) -> tuple[str, str]:
        d = {"format": "mtgsolve/1", "players": ["alice", "bob"],
             "turn": {"number": 3, "active": "alice", "step": "main1"},
             "battlefield": {"alice": ["Mountain"], "bob": [{"card": {"name": "Test Tax", "type": "Artifact",
                                                                      "types": ["Artifact"], "text": text}}]},
             "hand": {"alice": ["Lightning Bolt"]}}
        state = situation_from_dict(d).state
        return (answer(state, {"kind": "pay", "player": "alice", "cast": "lightning-bolt"})["status"],
                answer(state, {"kind": "available_mana", "player": "alice"})["status"])

    assert statuses("Each spell a player casts costs {1} more to cast for each other spell that player has "
                    "cast this turn.") == ("unsupported", "ok")
    assert statuses("Spells your opponents cast cost {1} more to cast for each card in their hands.") == \
        ("unsupported", "ok")
    assert statuses("Activated abilities of lands cost {1} more to activate.")[1] == "unsupported"
    assert statuses("Spells cost {1} more to cast and abilities cost {1} more to activate.")[1] == "unsupported"


# --- ward (CR 702.21a): read, it is no unread part; an unread ward cost blocks exactly triggers ------------
WARD_BF = {"alice": ["Mountain", "Forest", "Forest", "Island", "Island", "Island"], "bob": ["Grizzly Bears"]}


def _with_ward(ward: dict | str) -> object:
    bf = {"alice": list(WARD_BF["alice"]), "bob": list(WARD_BF["bob"]) + [ward]}
    return state(battlefield=bf, hand={"alice": ["Lightning Bolt", "Man-o'-War"]})


def test_a_read_ward_is_no_unread_part_cr_702_21a():
    s = _with_ward("Tomakul Honor Guard")
    assert unread_parts(s) == ()
    assert set(statuses(s).values()) == {"ok"}
    top = state(battlefield={"alice": ["Mountain"], "bob": ["Tomakul Honor Guard"]},
                stack=[{"card": "Man-o'-War", "controller": "alice"}])
    assert answer(top, {"kind": "resolve"})["status"] == "ok"


def test_an_unread_ward_cost_does_not_block_targets_pay_or_actions():
    """Ward never makes a target illegal (CR 702.21a): targeting, paying and listing actions stay ok."""
    s = _with_ward(card("Moon Guard", "Ward—Discard a card.", ("Creature",)))
    assert [p.text for p in unread_parts(s)] == ["Ward—Discard a card."]
    assert set(statuses(s).values()) == {"ok"}
    assert answer(s, {"kind": "targets", "cast": "lightning-bolt"})["count"] >= 4


def test_an_unread_ward_cost_blocks_a_resolution_that_puts_a_targeted_trigger_on_the_stack():
    """Man-o'-War's enters trigger may target the ward creature (CR 603.3d): ward would trigger."""
    guard = card("Moon Guard", "Ward—Discard a card.", ("Creature",))
    enters = state(battlefield={"alice": ["Island"], "bob": [guard]},
                   stack=[{"card": "Man-o'-War", "controller": "alice"}])
    got = answer(enters, {"kind": "resolve"})
    assert got["status"] == "unsupported" and got["unsupported"][0]["text"] == "Ward—Discard a card."
    bolt = state(battlefield={"alice": ["Mountain"], "bob": [guard]},
                 stack=[{"card": "Lightning Bolt", "controller": "alice", "targets": [["bob"]]}])
    assert answer(bolt, {"kind": "resolve"})["status"] == "ok"        # no targeting trigger anywhere
    passing = situation_from_dict({
        "format": "mtgsolve/1", "players": ["alice", "bob"],
        "turn": {"number": 3, "active": "alice", "step": "main1", "priority": "bob", "passed": ["alice"]},
        "battlefield": {"alice": ["Island"], "bob": [guard]},
        "stack": [{"card": "Man-o'-War", "controller": "alice"}]}).state
    assert answer(passing, {"kind": "pass"})["status"] == "unsupported"


def test_an_unread_ward_cost_blocks_casting_at_it_in_a_game():
    """Situation.apply: what follows a cast is its triggers (ward among them), so the unread ward blocks."""
    s = Situation(_with_ward(card("Moon Guard", "Ward—Discard a card.", ("Creature",))))
    with pytest.raises(UnsupportedCaseError):
        s.apply("cast lightning-bolt -> moon-guard paying mountain")
    ok = Situation(_with_ward("Tomakul Honor Guard"))
    after = ok.apply("cast lightning-bolt -> tomakul-honor-guard paying mountain")
    assert after.stack == ["ability-of-tomakul-honor-guard", "lightning-bolt"]


def test_becomes_the_target_of_a_spell_is_not_reached_by_a_triggered_ability():
    """A triggered ability put on the stack with targets (CR 603.3d) makes "becomes the target of a
    spell or ability" (and ward) trigger, not "becomes the target of a spell" (CR 115.1: a triggered
    ability is no spell)."""
    from mtgsolve.solver.rules.soundness.trigger_reach import event_families

    spell = event_families("Whenever this creature becomes the target of a spell, this creature deals 2 damage "
                           "to that spell's controller.")
    either = event_families("Whenever this creature becomes the target of a spell or ability an opponent "
                            "controls, sacrifice it.")
    plain = event_families("Whenever this creature becomes the target, draw a card.")
    aura = event_families("Whenever enchanted creature becomes the target of an Aura spell, draw a card.")
    assert spell is not None and "target" in spell and "target_ability" not in spell
    assert aura is not None and "target_ability" not in aura
    assert either is not None and {"target", "target_ability"} <= either
    assert plain is not None and "target_ability" in plain
    assert "target_ability" in (event_families("Ward {2}") or frozenset())


def test_knowing_the_top_card_and_a_draw_limit_block_only_what_they_reach():
    """ "You may look at the top card of your library any time." changes no legal choice; "Each player
    can't draw more than one card each turn." changes draws (resolve, pass), never what may be cast,
    targeted or paid now. Both used to be `unknown` and block every query."""
    from mtgsolve.solver.io.load import situation_from_dict
    from mtgsolve.solver.queries import answer

    def statuses(text: str) -> dict[str, str]:
        d = {"format": "mtgsolve/1", "players": ["alice", "bob"],
             "turn": {"number": 3, "active": "alice", "step": "main1"},
             "battlefield": {"alice": ["Mountain", {"card": {"name": "Test Sight", "type": "Enchantment",
                                                            "types": ["Enchantment"], "text": text}}],
                             "bob": ["Grizzly Bears"]},
             "hand": {"alice": ["Lightning Bolt"]},
             "stack": [{"card": "Divination", "controller": "bob"}]}
        state = situation_from_dict(d).state
        qs = {"targets": {"kind": "targets", "cast": "lightning-bolt"},
              "pay": {"kind": "pay", "player": "alice", "cast": "lightning-bolt"},
              "available_mana": {"kind": "available_mana", "player": "alice"},
              "actions": {"kind": "actions", "player": "alice"}, "resolve": {"kind": "resolve"}}
        return {k: answer(state, q)["status"] for k, q in qs.items()}

    look = statuses("You may look at the top card of your library any time.")
    assert {k: look[k] for k in ("targets", "pay", "available_mana", "actions")} == \
        {"targets": "ok", "pay": "ok", "available_mana": "ok", "actions": "ok"}
    limit = statuses("Each player can't draw more than one card each turn.")
    assert limit["targets"] == limit["pay"] == limit["available_mana"] == "ok"
    assert limit["resolve"] == "unsupported"            # Divination draws two: the limit reaches it
    cast_from_top = statuses("You may cast creature spells from the top of your library.")
    assert cast_from_top["actions"] == "unsupported"    # a separate permission: it adds actions

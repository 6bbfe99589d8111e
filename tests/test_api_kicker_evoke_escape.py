"""Kicker, evoke and escape through the Python API (issue 27 item 2): each mode offered as its own action
(action strings round-trip, a mask slot in the game's encoding), applied through the one kernel, recorded on
the stack object (object keys ``kicked`` — CR 702.33d — and ``cast_with: escape|evoke`` — 702.138b,
702.74a), kept by the permanent the spell becomes, and read as the spell or permanent needs it: "if this
spell was kicked" instructions (702.33e, 608.2c), "if it was kicked, it enters with" / "escapes with"
counters (614.1c, 702.138c), evoke's sacrifice trigger with its intervening if (702.74a, 603.4)."""
from __future__ import annotations

import pytest

from mtgsolve.solver.api import Action, Payment, Situation
from mtgsolve.solver.api.encoding import ActionEncoding
from mtgsolve.solver.core import ir
from mtgsolve.solver.cards import SHIPPED
from mtgsolve.solver.io.dump import dump_state
from mtgsolve.solver.io.load import situation_from_dict


def sit(**kw) -> Situation:
    d = {"format": "mtgsolve/1", "players": ["alice", "bob"], "turn": {"number": 3, "active": "alice", "step": "main1"}}
    d.update(kw)
    return Situation.from_dict(d)


def settle(s: Situation) -> Situation:
    """Pass until the stack is empty (trigger orders: the first option)."""
    for _ in range(12):
        if s.decision is not None:
            s = s.apply(next(iter(s.legal_actions)))
        elif any(o.zone == "stack" for o in s.state.objects):
            s = s.apply("pass")
        else:
            return s
    raise AssertionError("the stack did not empty")


def offered(s: Situation, pred) -> Action:
    """The one legal action matching ``pred``; it round-trips and has a slot in the game's encoding."""
    acts = [a for a in s.legal_actions if pred(a)]
    assert len(acts) == 1, [str(a) for a in s.legal_actions]
    a = acts[0]
    assert Action.parse(str(a)) == a and Action.from_json(a.to_json()) == a
    enc = ActionEncoding(s)
    i = enc.encode_head(a)
    assert i is not None and enc.mask(s)[i] == 1
    d = enc.decode(s, i)
    assert (d.object, d.alternative, bool(d.kicked)) == (a.object, a.alternative, bool(a.kicked))
    return a


def pay_count(s: Situation, card: str, **mode) -> int:
    res = s.query({"kind": "pay", "player": s.player, "cast": card, **mode})
    assert res["status"] == "ok", res
    return res["count"]


def test_kicked_spell_offered_applied_and_resolved():
    s = sit(battlefield={"alice": ["Island"] * 4, "bob": [{"card": "Grizzly Bears", "id": "bear"}]},
            hand={"alice": ["Into the Roil"]}, library={"alice": ["Forest", "Forest"]})
    plain = offered(s, lambda a: a.object == "into-the-roil" and not a.kicked)
    kicked = offered(s, lambda a: a.kicked)
    assert str(kicked) == "cast into-the-roil kicked -> bear paying island, island-2, island-3, island-4"
    assert pay_count(s, "into-the-roil", kicked=True) == 1
    after = s.apply(kicked)
    spell = after.state.obj("into-the-roil")
    assert spell.zone == "stack" and spell.kicked == 1
    assert dump_state(after.state)["stack"][0]["kicked"] == 1       # written back by dump
    done = settle(after)
    assert {o.id for o in done.state.objects if o.zone == "hand"} == {"forest", "bear"}   # drew (CR 702.33e)
    unkicked = settle(s.apply(plain))
    assert {o.id for o in unkicked.state.objects if o.zone == "hand"} == {"bear"}


def test_kicked_burst_lightning_deals_4_instead():
    s = sit(battlefield={"alice": ["Mountain"] * 5}, hand={"alice": ["Burst Lightning"]})
    a = offered(s, lambda a: a.kicked and a.targets == (("bob",),))
    assert settle(s.apply(a)).life("bob") == 16                     # CR 608.2c: "instead"
    b = offered(s, lambda a: not a.kicked and a.targets == (("bob",),))
    assert settle(s.apply(b)).life("bob") == 18


def test_kicked_permanent_remembers_and_enters_with_counters():
    s = sit(battlefield={"alice": ["Forest"] * 8}, hand={"alice": ["Baloth Gorger"]})
    done = settle(s.apply(offered(s, lambda a: a.kicked)))
    o = done.state.obj("baloth-gorger")
    assert o.zone == "battlefield" and o.kicked == 1 and o.counter("+1/+1") == 3   # CR 702.33d-e, 614.1c
    plain = settle(s.apply(offered(s, lambda a: not a.kicked and a.kind == "cast")))
    p = plain.state.obj("baloth-gorger")
    assert p.kicked == 0 and p.counter("+1/+1") == 0


def test_evoke_offered_applied_and_sacrificed():
    s = sit(battlefield={"alice": ["Island"] * 3}, hand={"alice": ["Mulldrifter"]}, library={"alice": ["Forest"] * 3})
    a = offered(s, lambda a: a.alternative == "evoke")
    after = s.apply(a)
    assert after.state.obj("mulldrifter").cast_with == "evoke"
    done = settle(after)
    assert done.state.obj("mulldrifter").zone == "graveyard"          # CR 702.74a: sacrificed
    assert sum(1 for o in done.state.objects if o.zone == "hand") == 2   # and its enters trigger drew two


def test_evoke_trigger_is_queued_only_when_evoked():
    """CR 603.4: the intervening if is checked as it triggers: a Mulldrifter not evoked has one enters
    trigger; an evoked one two (the controller orders them, 603.3b)."""
    s = sit(battlefield={"alice": ["Island"] * 5}, hand={"alice": ["Mulldrifter"]}, library={"alice": ["Forest"] * 3})
    plain = s.apply(offered(s, lambda a: a.kind == "cast" and a.alternative is None)).apply("pass").apply("pass")
    stack = [o for o in plain.state.objects if o.zone == "stack"]
    assert plain.decision is None and len(stack) == 1 and stack[0].ability.index == 1
    evoked = s.apply(offered(s, lambda a: a.alternative == "evoke")).apply("pass").apply("pass")
    assert evoked.decision is not None and evoked.decision.kind == "choose"     # two triggers to order


def test_escape_payments_match_the_pay_query_and_the_permanent_escaped():
    s = sit(battlefield={"alice": ["Swamp"] * 5},
            graveyard={"alice": ["Woe Strider", "Forest", "Forest", "Island", "Island", "Plains"]})
    esc = [a for a in s.legal_actions if a.alternative == "escape"]
    assert len(esc) == pay_count(s, "woe-strider", alternative="escape") == 3   # distinct sets of four (CR 702.138a)
    a = offered(s, lambda a: a.alternative == "escape" and "plains" not in a.payment.exile)
    assert a.payment == Payment(tap=tuple(f"swamp{x}" for x in ("", "-2", "-3", "-4", "-5")),
                                exile=("forest", "forest-2", "island", "island-2"))
    after = s.apply(a)
    assert all(after.state.obj(i).zone == "exile" for i in a.payment.exile)
    assert after.state.obj("woe-strider").cast_with == "escape"
    done = settle(after)
    o = done.state.obj("woe-strider")
    assert o.zone == "battlefield" and o.cast_with == "escape" and o.counter("+1/+1") == 2   # CR 702.138c


def test_a_zone_change_forgets_the_record():
    """CR 400.7: the permanent that leaves the battlefield is a new object, neither kicked nor escaped."""
    s = sit(battlefield={"alice": [{"card": "Woe Strider", "cast_with": "escape", "kicked": 0},
                                   {"card": "Baloth Gorger", "kicked": 1}]})
    from mtgsolve.solver.engine.transition import _World, move
    w = _World(s.state)
    a = move(w, "woe-strider", "hand")
    b = move(w, "baloth-gorger", "graveyard")
    assert (a.cast_with, b.kicked) == (None, 0)


@pytest.mark.parametrize("obj, where, message", [
    ({"card": "Lightning Bolt", "controller": "alice", "targets": [["bob"]], "kicked": 1}, "stack", "no kicker"),
    ({"card": "Into the Roil", "kicked": 1}, "hand", "stack or the permanent"),
    ({"card": "Into the Roil", "controller": "alice", "targets": [["alice"]], "kicked": 2}, "stack", "at most once"),
    ({"card": "Mulldrifter", "cast_with": "escape"}, "battlefield", "no escape"),
    ({"card": "Mulldrifter", "cast_with": "evoke"}, "graveyard", "spell on the stack or the permanent"),
])
def test_records_are_validated_with_locations(obj, where, message):
    d = {"format": "mtgsolve/1", "players": ["alice", "bob"]}
    d[where] = {"alice": [obj]} if where != "stack" else [obj]
    with pytest.raises(ValueError, match=message):
        situation_from_dict(d)


def test_records_round_trip_through_dump():
    d = {"format": "mtgsolve/1", "players": ["alice", "bob"],
         "battlefield": {"alice": [{"card": "Mulldrifter", "cast_with": "evoke"}, {"card": "Baloth Gorger", "kicked": 1}]}}
    state = situation_from_dict(d).state
    again = situation_from_dict(dump_state(state)).state
    assert dump_state(again) == dump_state(state)
    assert again.obj("mulldrifter").cast_with == "evoke" and again.obj("baloth-gorger").kicked == 1


def test_the_if_kicked_grammar_on_every_card_it_reads():
    """Every card with "If this spell was kicked, …" or "If this creature was kicked, it enters with …":
    what is read is an IfCast / EntersWith on a card with kicker, and an 'instead' form replaces an
    instruction of the same kind on the same object or player (CR 608.2c); 20+ spells, 25+ creatures."""
    spells = creatures = 0
    for name, raw in SHIPPED.index().items():
        if " was kicked" not in (raw.get("text") or ""):
            continue
        card = SHIPPED.get(name)
        conditional = [e for e in (card.spell.effects if card.spell is not None else ()) if isinstance(e, ir.IfCast)]
        entering = [a for a in card.abilities if isinstance(a, ir.EntersWith) and a.if_cast == "kicked"]
        if conditional or entering:
            assert any(isinstance(a, ir.Kicker) for a in card.abilities) or \
                any("kicker" in (u.text or "").lower() for u in card.unsupported), name   # unread: not modeled
        for e in conditional:
            assert e.how == "kicked" and e.then
            for other in e.otherwise:
                assert type(other) is type(e.then[0]) and getattr(other, "to", None) == getattr(e.then[0], "to", None)
        spells += bool(conditional)
        creatures += bool(entering)
    assert spells >= 20 and creatures >= 25


def test_buyback_offered_applied_and_returned_to_hand():
    """CR 702.27a: "Buyback [cost]" — an optional additional cost — is a mode of its own (``cast ID buyback``,
    the ``pay`` key ``buyback``, an encoding slot); the spell records it and goes to its owner's hand as it
    resolves; cast without it, to the graveyard."""
    assert any(isinstance(a, ir.Buyback) for a in SHIPPED.get("Capsize").abilities)
    s = sit(battlefield={"alice": ["Island"] * 6, "bob": [{"card": "Grizzly Bears", "id": "bear"}]},
            hand={"alice": ["Capsize"]})
    a = offered(s, lambda a: a.buyback and a.targets == (("bear",),))
    assert str(a) == "cast capsize buyback -> bear paying island, island-2, island-3, island-4, island-5, island-6"
    assert pay_count(s, "capsize", buyback=True) == 1
    after = s.apply(a)
    assert after.state.obj("capsize").buyback and dump_state(after.state)["stack"][0]["buyback"] is True
    done = settle(after)
    assert done.state.obj("capsize").zone == "hand" and done.state.obj("bear").zone == "hand"
    plain = settle(s.apply(offered(s, lambda a: not a.buyback and a.targets == (("bear",),))))
    assert plain.state.obj("capsize").zone == "graveyard"
    short = sit(battlefield={"alice": ["Island"] * 5}, hand={"alice": ["Capsize"]})
    assert not any(a.buyback for a in short.legal_actions)      # {1}{U}{U} + {3} needs six


def test_overload_offered_applied_and_acts_on_each():
    """CR 702.96b: cast for its overload cost the spell has no targets (``cast_with: overload``, no
    ``targets``) and destroys each artifact Alice doesn't control as it resolves — not hers."""
    s = sit(battlefield={"alice": ["Mountain"] * 5 + ["Ornithopter"], "bob": ["Ornithopter", "Sol Ring"]},
            hand={"alice": ["Vandalblast"]})
    a = offered(s, lambda a: a.alternative == "overload")
    assert a.targets is None and pay_count(s, "vandalblast", alternative="overload") == 1
    after = s.apply(a)
    spell = after.state.obj("vandalblast")
    assert spell.cast_with == "overload" and spell.targets is None
    assert dump_state(after.state)["stack"][0]["cast_with"] == "overload"
    done = settle(after)
    zones = {o.id: o.zone for o in done.state.objects}
    assert zones["ornithopter-2"] == zones["sol-ring"] == "graveyard" and zones["ornithopter"] == "battlefield"
    one = settle(s.apply(offered(s, lambda a: a.targets == (("sol-ring",),))))
    assert {o.id for o in one.state.objects if o.zone == "graveyard" and o.owner == "bob"} == {"sol-ring"}


def test_an_overloaded_spell_with_targets_is_a_located_error():
    d = {"format": "mtgsolve/1", "players": ["alice", "bob"], "battlefield": {"bob": ["Sol Ring"]},
         "stack": [{"card": "Vandalblast", "controller": "alice", "cast_with": "overload", "targets": [["sol-ring"]]}]}
    with pytest.raises(ValueError, match=r"stack\[0\].cast_with: a spell cast for its overload cost has no targets"):
        situation_from_dict(d)


# ---------------------------------------------------------------------------
# Differential: escape, kicker and buyback payments against the brute-force reference
# ---------------------------------------------------------------------------

GRAVE_POOL = ["Forest", "Island", "Shock", "Opt", "Woe Strider"]


@pytest.mark.parametrize("seed", range(12))
def test_mode_payments_match_the_reference(seed):
    """The ``pay`` query's payments of escape (choices of other graveyard cards, CR 702.138a), kicker
    (702.33a) and buyback (702.27a) modes, and the API's completions of them, equal the brute-force
    reference's (tests/reference/alt_costs_ref.py) on small boards."""
    import json
    import random

    from reference.alt_costs_ref import brute_cast

    from mtgsolve.solver.queries import Options, answer
    from mtgsolve.solver.rules.characteristics import View

    rng = random.Random(seed)
    grave = ["Woe Strider"] + [rng.choice(GRAVE_POOL) for _ in range(rng.randint(3, 6))]
    lands = [{"card": rng.choice(["Swamp", "Island", "Mountain"]), "tapped": rng.random() < 0.2}
             for _ in range(rng.randint(4, 9))]
    d = {"format": "mtgsolve/1", "players": ["alice", "bob"], "turn": {"number": 3, "active": "alice", "step": "main1"},
         "battlefield": {"alice": lands, "bob": ["Grizzly Bears"]},
         "hand": {"alice": ["Burst Lightning", "Capsize"]}, "graveyard": {"alice": grave}}
    s = Situation.from_dict(d)
    view = View(s.state)
    modes = [("woe-strider", {"alternative": "escape"}), ("burst-lightning", {"kicked": True}),
             ("capsize", {"buyback": True}), ("capsize", {})]
    for card, mode in modes:
        q = {"kind": "pay", "player": "alice", "cast": card, **mode}
        got = answer(s.state, q, Options(max_results=10**6))
        ref = brute_cast(s.state, q, view)
        assert got["status"] == "ok" and got["count"] == ref["count"], (q, got, ref)
        assert sorted(json.dumps(p, sort_keys=True) for p in got["payments"]) == ref["payments"], q
    listed = [a for a in s.legal_actions if a.object == "woe-strider"]
    assert len(listed) == brute_cast(s.state, {"kind": "pay", "player": "alice", "cast": "woe-strider",
                                               "alternative": "escape"}, view)["count"]

"""The upkeep cards (issues 26, 27): "This artifact doesn't untap during your untap step." (CR 502.3),
"You may pay {N}. If you do, …" (CR 608.2d, 605.3a), an intervening "if this artifact is tapped"
(CR 603.4) and "Flip a coin. If you win|lose the flip, …" (CR 705) — read by grammar over the whole
database (every card printing the shape reads it or keeps an unread part), resolved against the
independent reference tests/reference/upkeep_ref.py, and the soundness both ways."""
from __future__ import annotations

import dataclasses
import gzip
import json
import re
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings, strategies as st

from mtgsolve.solver.api import Situation
from mtgsolve.solver.api.describe import describe_card
from mtgsolve.solver.cards import SHIPPED, card_from_mapping
from mtgsolve.solver.core import ir
from mtgsolve.solver.io.load import situation_from_dict
from mtgsolve.solver.queries import answer

from tests.reference.upkeep_ref import coin_flip_lives, may_pay_results, stays_tapped, untap_up_to_results

DB = Path(__file__).resolve().parents[1] / "solver" / "data" / "oracle-cards.json.gz"
SHAPES = {
    "doesnt_untap": (r"^(?:This \w+|~) doesn't untap during your untap step\.$", ir.DoesntUntap),
    "attached_doesnt_untap": (r"^(?:Enchanted|Equipped) (?:creature|permanent|land|artifact) doesn't untap during "
                              r"its controller's untap step\.$", ir.DoesntUntap),
    "may_pay": (r"[Yy]ou may pay (?:\{[^}]+\})+\. If you do, ", ir.MayPay),
    "coin_flip": (r"[Ff]lip a coin\. If you (?:win|lose) the flip, ", ir.CoinFlip),
    "pay_or_else": (r"(?:^|\. |, )[Pp]ay (?:\{[^}]+\})+\. If you don't, ", ir.MayPay),
    "lose_game": (r"[Yy]ou lose the game\.", ir.LoseGame),
    "untap_up_to": (r"[Uu]ntap up to \w+ lands(?: you control)?\.", ir.UntapChosen),
    "skip_draw": (r"^Skip your draw step\.$", ir.SkipStep),
    "extra_turn": (r"^Take an extra turn after this one\.", ir.ExtraTurn),
    "cast_color": (r"^Whenever (?:you|a player|an opponent) casts? an? (?:white|blue|black|red|green)"
                   r"(?: or (?:white|blue|black|red|green))? spell, ", ir.CastTrigger),
}


def _walk(v: Any, cls: type, out: list) -> list:
    if isinstance(v, cls):
        out.append(v)
    if isinstance(v, (tuple, list)):
        for x in v:
            _walk(x, cls, out)
    elif dataclasses.is_dataclass(v) and not isinstance(v, type):
        for f in dataclasses.fields(v):
            _walk(getattr(v, f.name), cls, out)
    return out


@pytest.fixture(scope="module")
def database() -> list[dict]:
    return json.load(gzip.open(DB))


@pytest.mark.parametrize("shape,least,least_read", [("doesnt_untap", 35, 35), ("attached_doesnt_untap", 55, 55),
                                                    ("may_pay", 370, 90),
                                                    ("coin_flip", 55, 17), ("pay_or_else", 6, 5),
                                                    ("lose_game", 30, 6), ("cast_color", 70, 71),
                                                    ("untap_up_to", 14, 13), ("skip_draw", 15, 15),
                                                    ("extra_turn", 15, 14)])
def test_every_card_printing_the_shape_reads_it_or_keeps_it_unread(database, shape, least, least_read):
    """The grammar, no card names: every card of the database with a line of the shape (the Pacts'
    "pay …. If you don't, you lose the game." among them) either reads
    it into its IR value, or is not fully modeled (the line stays an unread part; inside an ability a
    static grants, an unread effect of that ability)."""
    rx, cls = SHAPES[shape]
    pat = re.compile(rx)
    names = sorted({c["name"] for c in database if any(pat.search(ln) for ln in (c.get("text") or "").split("\n"))})
    assert len(names) >= least
    read = [n for n in names if _walk((SHIPPED.get(n).abilities, SHIPPED.get(n).spell), cls, [])]
    assert len(read) >= least_read, (shape, len(read))
    assert not [n for n in names if n not in read and describe_card(SHIPPED.get(n))["fully_modeled"]
                and not _walk(SHIPPED.get(n).abilities, ir.UnreadEffect, [])]   # (an unread granted ability)


@pytest.mark.parametrize("text, want", [
    ("At the beginning of your upkeep, you may pay {4}. If you do, untap this artifact.",
     ir.MayPay(ir.ManaCost.parse("{4}"), (ir.Untap(ir.SELF),))),
    ("At the beginning of your upkeep, flip a coin. If you lose the flip, this artifact deals 3 damage to you.",
     ir.CoinFlip((), (ir.Damage(ir.CONTROLLER, 3),))),
    ("At the beginning of your upkeep, flip a coin. If you win the flip, draw a card. If you lose the flip, "
     "this artifact deals 3 damage to you.", ir.CoinFlip((ir.Draw(1),), (ir.Damage(ir.CONTROLLER, 3),))),
    ("At the beginning of your draw step, if this artifact is tapped, it deals 1 damage to you.",
     ir.Damage(ir.CONTROLLER, 1)),
    ("When this artifact enters, pay {1}. If you don't, you lose the game.",
     ir.MayPay(ir.ManaCost.parse("{1}"), (), (ir.LoseGame(ir.CONTROLLER),))),
    # not these templates: a payment of X (CR 107.3), a payment that isn't mana, an "otherwise"
    ("At the beginning of your upkeep, you may pay {X}. If you do, draw X cards.", None),
    ("At the beginning of your upkeep, you may pay 2 life. If you do, draw a card.", None),
    ("At the beginning of your upkeep, flip a coin. Otherwise, draw a card.", None),
])
def test_grammar(text: str, want: Any):
    card = card_from_mapping({"name": "Test Relic", "types": ["Artifact"], "text": text})
    got = [a for a in card.abilities if isinstance(a, ir.TriggeredAbility)]
    if want is None:
        assert not got or any(isinstance(e, ir.UnreadEffect) for a in got for e in a.effects)
        return
    [a] = got
    assert a.effects == (want,)
    if "if this artifact is tapped" in text:
        assert a.condition == ir.SourceTapped()


def test_doesnt_untap_static_is_read():
    card = card_from_mapping({"name": "Test Relic", "types": ["Artifact"],
                              "text": "This artifact doesn't untap during your untap step."})
    assert card.abilities == (ir.DoesntUntap("This artifact doesn't untap during your untap step."),)
    assert describe_card(card)["fully_modeled"]


# ---------------------------------------------------------------------------
# The untap step, against the reference
# ---------------------------------------------------------------------------

_PERMANENTS = ["Basalt Monolith", "Mana Vault", "Forest", "Grizzly Bears", "Sol Ring"]


@settings(max_examples=25, deadline=None)
@given(st.lists(st.tuples(st.sampled_from(_PERMANENTS), st.booleans(), st.booleans()), min_size=1, max_size=5),
       st.sampled_from(["", "Claustrophobia", "Dehydration", "Ice Over"]), st.booleans())
def test_untap_step_matches_reference(perms, aura, bobs):
    bf = [{"id": f"p{i}", "card": n, "tapped": t, "skip_untap": t and s} for i, (n, t, s) in enumerate(perms)]
    d = {"format": "mtgsolve/1", "players": ["alice", "bob"],
         "turn": {"number": 3, "active": "bob", "step": "end", "priority": "alice", "passed": ["bob"]},
         "battlefield": {"alice": bf}}
    host = next((o["id"] for o in bf if o["card"] in ("Grizzly Bears", "Basalt Monolith")), None)
    if aura and host is not None and (aura == "Ice Over") == (bf[int(host[1:])]["card"] == "Basalt Monolith"):
        # an Aura of alice's or of bob's on one of alice's permanents: "Enchanted creature / artifact doesn't
        # untap during its controller's untap step" — alice's untap step either way (CR 303.4, 502.3)
        d["battlefield"]["bob" if bobs else "alice"] = [{"id": "aura", "card": aura, "attached_to": host}] + (
            [] if bobs else bf)
    before = situation_from_dict(d).state
    res = answer(before, {"kind": "pass"})
    assert res["status"] == "ok" and res["count"] >= 1, res   # Mana Vaults' upkeep triggers: their orders
    want = stays_tapped(dataclasses.replace(before, turn=dataclasses.replace(before.turn, active="alice")))
    for out in res["outcomes"]:
        after = situation_from_dict(out["situation"]).state
        assert after.turn.active == "alice" and after.turn.step == "upkeep"
        assert {o.id for o in after.battlefield if o.tapped} == want


# ---------------------------------------------------------------------------
# "You may pay {N}. If you do, untap this artifact." against the reference
# ---------------------------------------------------------------------------

_VAULTS = {"Mana Vault": 4, "Goblin War Wagon": 2, "Brass Man": 1}


def _vault_doc(vault: str, lands: list[tuple[str, bool]]) -> dict:
    bf: list[Any] = [{"id": "vault", "card": vault, "tapped": True}]
    bf += [{"id": f"land-{i}", "card": n, "tapped": t} for i, (n, t) in enumerate(lands)]
    return {"format": "mtgsolve/1", "players": ["alice", "bob"],
            "turn": {"number": 3, "active": "alice", "step": "upkeep"},
            "battlefield": {"alice": bf},
            "stack": [{"ability": {"source": "vault", "index": 1}, "controller": "alice"}]}


@settings(max_examples=30, deadline=None)
@given(st.sampled_from(sorted(_VAULTS)),
       st.lists(st.tuples(st.sampled_from(["Mountain", "Island", "Forest"]), st.booleans()), max_size=6))
def test_may_pay_matches_reference(vault, lands):
    sit = Situation.from_dict(_vault_doc(vault, lands))
    got = []
    was = {f"land-{i}": t for i, (_n, t) in enumerate(lands)}
    for choices, out in sit.resolve():
        rec = choices["pay"]
        assert rec["player"] == "alice"
        vault_now = out.state.obj("vault")
        assert vault_now.tapped is (not rec["paid"])      # untapped only if paid (CR 608.2c)
        if rec["paid"]:
            got.append(tuple(sorted(o.name for o in out.state.zone("battlefield", "alice")
                                    if o.id in was and o.tapped and not was[o.id])))
        else:
            got.append(None)
    want = may_pay_results([n for n, t in lands if not t], _VAULTS[vault])
    assert len(got) == len(set(got)) and set(got) == want, (vault, lands)


def test_the_game_asks_the_controller_to_pay():
    """Following one path of the game, the resolving ability's controller chooses to pay or not."""
    d = _vault_doc("Mana Vault", [("Mountain", False)] * 4)
    d["turn"] = {**d["turn"], "priority": "bob", "passed": ["alice"]}
    s = Situation.from_dict(d).apply("pass")
    assert s.decision is not None and s.player == "alice"
    assert len(list(s.legal_actions)) == 2


# ---------------------------------------------------------------------------
# Coin flips (CR 705)
# ---------------------------------------------------------------------------

@pytest.mark.parametrize("life", [1, 3, 20])
def test_coin_flip_matches_reference(life):
    d = {"format": "mtgsolve/1", "players": [{"id": "alice", "life": life}, "bob"],
         "turn": {"number": 3, "active": "alice", "step": "upkeep"},
         "battlefield": {"alice": ["Mana Crypt"]},
         "stack": [{"ability": {"source": "mana-crypt", "index": 1}, "controller": "alice"}]}
    res = answer(situation_from_dict(d).state, {"kind": "resolve"})
    assert res["status"] == "ok"
    got: dict[int, Fraction] = {}
    for o in res["outcomes"]:
        st_ = situation_from_dict(o["situation"]).state
        got[st_.player("alice").life] = Fraction(o["probability"]).limit_denominator(1000)
    assert got == coin_flip_lives(life, 3)


def test_a_coin_flip_in_a_game_is_a_random_event():
    d = {"format": "mtgsolve/1", "players": ["alice", "bob"],
         "turn": {"number": 3, "active": "alice", "step": "upkeep", "priority": "bob", "passed": ["alice"]},
         "battlefield": {"alice": ["Mana Crypt"]},
         "stack": [{"ability": {"source": "mana-crypt", "index": 1}, "controller": "alice"}]}
    import random
    lives = set()
    for seed in range(8):
        s = Situation.from_dict(d).apply("pass", rng=random.Random(seed))
        lives.add(s.state.player("alice").life)
    assert lives == {17, 20}


# ---------------------------------------------------------------------------
# Soundness both ways
# ---------------------------------------------------------------------------

def _pass_status(text: str) -> str:
    d = {"format": "mtgsolve/1", "players": ["alice", "bob"],
         "turn": {"number": 3, "active": "bob", "step": "end", "priority": "alice", "passed": ["bob"]},
         "battlefield": {"alice": [{"card": {"name": "Test Relic", "types": ["Artifact"], "text": text},
                                    "tapped": True}, "Forest"]}}
    return answer(situation_from_dict(d).state, {"kind": "pass"})["status"]


def test_read_static_blocks_nothing_and_an_unread_variant_blocks_the_untap_step():
    assert _pass_status("This artifact doesn't untap during your untap step.") == "ok"
    # a condition the grammar doesn't read: it stays unread and reaches the untap step
    assert _pass_status("This artifact doesn't untap during your untap step if you control a Forest.") \
        == "unsupported"


def test_unread_flip_blocks_only_what_it_reaches():
    """An unread coin-flip trigger (its effect not read) blocks passing into its step, not the
    queries about now (targets, pay)."""
    text = "At the beginning of your upkeep, flip a coin. If you win the flip, you gain X life."
    d = {"format": "mtgsolve/1", "players": ["alice", "bob"],
         "turn": {"number": 3, "active": "bob", "step": "end", "priority": "alice", "passed": ["bob"]},
         "battlefield": {"alice": [{"card": {"name": "Test Relic", "types": ["Artifact"], "text": text}}],
                         "bob": ["Mountain"]},
         "hand": {"bob": ["Shock"]}}
    state = situation_from_dict(d).state
    assert answer(state, {"kind": "pass"})["status"] == "unsupported"
    assert answer(state, {"kind": "targets", "cast": "shock"})["status"] == "ok"
    assert answer(state, {"kind": "pay", "player": "bob", "cast": "shock"})["status"] == "ok"


# ---------------------------------------------------------------------------
# Pacts: "At the beginning of your next upkeep, pay {N}. If you don't, you lose the game."
# ---------------------------------------------------------------------------

_PACTS = {"Summoner's Pact": "{2}{G}{G}", "Pact of Negation": "{3}{U}{U}", "Slaughter Pact": "{2}{B}",
          "Pact of the Titan": "{4}{R}", "Intervention Pact": "{1}{W}{W}"}


@pytest.mark.parametrize("name", sorted(_PACTS))
def test_pacts_read_as_a_delayed_payment(name):
    spell = SHIPPED.get(name).spell
    assert spell is not None
    want = ir.Delayed("upkeep", (ir.MayPay(ir.ManaCost.parse(_PACTS[name]), (), (ir.LoseGame(ir.CONTROLLER),)),),
                      "you")
    assert want in spell.effects


def _pact_doc(lands: list[tuple[str, bool]]) -> dict:
    return {"format": "mtgsolve/1", "players": ["alice", "bob"],
            "turn": {"number": 4, "active": "alice", "step": "upkeep"},
            "battlefield": {"alice": [{"id": f"land-{i}", "card": n, "tapped": t} for i, (n, t) in enumerate(lands)]},
            "graveyard": {"alice": ["Slaughter Pact"]},
            "stack": [{"ability": {"source": "slaughter-pact", "index": 0}, "delayed": 1, "controller": "alice"}]}


def _pact_payments(untapped: list[str]) -> set:
    """{2}{B} from untapped basics (the reference's combinations, kept when one is a Swamp)."""
    return {None} | {p for p in may_pay_results(untapped, 3) if p is not None and "Swamp" in p}


@settings(max_examples=30, deadline=None)
@given(st.lists(st.tuples(st.sampled_from(["Swamp", "Island", "Forest"]), st.booleans()), max_size=6))
def test_pact_payment_matches_reference(lands):
    res = answer(situation_from_dict(_pact_doc(lands)).state, {"kind": "resolve"})
    assert res["status"] == "ok"
    was = {f"land-{i}": t for i, (_n, t) in enumerate(lands)}
    got = []
    for o in res["outcomes"]:
        rec = o["choices"]["pay"]
        after = situation_from_dict(o["situation"]).state
        assert after.player("alice").lost is (not rec["paid"])      # CR 104.3e: not paying, she loses
        got.append(tuple(sorted(x.name for x in after.zone("battlefield", "alice")
                                if x.tapped and not was[x.id])) if rec["paid"] else None)
    assert len(got) == len(set(got)) and set(got) == _pact_payments([n for n, t in lands if not t])


def test_a_pact_in_a_game_is_its_controllers_decision():
    d = _pact_doc([("Swamp", False), ("Swamp", False), ("Swamp", False)])
    d["turn"] = {**d["turn"], "priority": "bob", "passed": ["alice"]}
    s = Situation.from_dict(d).apply("pass")
    assert s.decision is not None and s.player == "alice" and len(list(s.legal_actions)) == 2


# ---------------------------------------------------------------------------
# "Whenever you cast a green spell, you may untap this creature." (CR 603.2, 105.2)
# ---------------------------------------------------------------------------

def test_a_colored_cast_trigger_triggers_on_that_color_only():
    d = {"format": "mtgsolve/1", "players": ["alice", "bob"], "turn": {"number": 3, "active": "alice", "step": "main1"},
         "battlefield": {"alice": [{"card": "Nettle Sentinel", "tapped": True}, "Forest", "Mountain"]},
         "hand": {"alice": ["Giant Growth", "Shock"]}}
    s = Situation.from_dict(d)
    assert s.apply("cast giant-growth -> nettle-sentinel paying forest").stack == ["ability-of-nettle-sentinel",
                                                                                 "giant-growth"]
    assert s.apply("cast shock -> bob paying mountain").stack == ["shock"]


@pytest.mark.parametrize("text, colors", [
    ("Whenever you cast a green spell, you gain 1 life.", [frozenset({"G"})]),
    ("Whenever a player casts a white or blue spell, you gain 1 life.", [frozenset({"W"}), frozenset({"U"})]),
])
def test_cast_trigger_colors(text, colors):
    card = card_from_mapping({"name": "Test Relic", "types": ["Artifact"], "text": text})
    [a] = card.abilities
    assert isinstance(a, ir.TriggeredAbility) and isinstance(a.trigger, ir.CastTrigger)
    assert [f.colors for f in a.trigger.spells] == colors


# ---------------------------------------------------------------------------
# "Untap up to two lands." (CR 608.2c, 701.26b) against the reference
# ---------------------------------------------------------------------------

@settings(max_examples=30, deadline=None)
@given(st.lists(st.tuples(st.sampled_from(["Island", "Forest"]), st.sampled_from(["alice", "bob"]), st.booleans()),
                max_size=5))
def test_untap_up_to_matches_reference(lands):
    bf: dict[str, list] = {"alice": [{"id": "cloud", "card": "Cloud of Faeries"}], "bob": []}
    for i, (n, who, t) in enumerate(lands):
        bf[who].append({"id": f"land-{i}", "card": n, "tapped": t})
    d = {"format": "mtgsolve/1", "players": ["alice", "bob"], "turn": {"number": 3, "active": "alice", "step": "main1"},
         "battlefield": bf, "stack": [{"ability": {"source": "cloud", "index": 1}, "controller": "alice"}]}
    res = answer(situation_from_dict(d).state, {"kind": "resolve"})
    assert res["status"] == "ok"
    got = []
    for o in res["outcomes"]:
        after = situation_from_dict(o["situation"]).state
        got.append(tuple(sorted((x.name, x.controller) for x in after.battlefield
                                if x.id.startswith("land-") and not x.tapped and lands[int(x.id[5:])][2])))
    assert len(got) == len(set(got)) and set(got) == untap_up_to_results(lands, 2)


def test_untap_up_to_as_a_delayed_trigger_is_read():
    """Teferi, Hero of Dominaria's +1: "At the beginning of the next end step, untap up to two lands." (CR 603.7a)."""
    [a] = [a for a in SHIPPED.get("Teferi, Hero of Dominaria").abilities if isinstance(a, ir.ActivatedAbility)][:1]
    assert ir.Delayed("end", (ir.UntapChosen(ir.Selector(types=frozenset({"Land"})), 2),)) in a.effects


def test_skip_draw_step_read_blocks_nothing_and_an_unread_variant_blocks_passing_into_it():
    """Soundness both ways: the read static changes the next step (no unread part); "Skip your draw
    step if …" stays unread and blocks passing out of the upkeep, not the queries about now."""
    def statuses(text: str) -> dict[str, str]:
        d = {"format": "mtgsolve/1", "players": ["alice", "bob"],
             "turn": {"number": 3, "active": "alice", "step": "upkeep", "priority": "bob", "passed": ["alice"]},
             "battlefield": {"alice": [{"card": {"name": "Test Abstinence", "types": ["Enchantment"], "text": text}},
                                       "Mountain"]},
             "hand": {"alice": ["Shock"]}, "library": {"alice": ["Island"]}}
        state = situation_from_dict(d).state
        return {k: answer(state, q)["status"] for k, q in (("pass", {"kind": "pass"}),
                                                          ("targets", {"kind": "targets", "cast": "shock"}))}
    assert statuses("Skip your draw step.") == {"pass": "ok", "targets": "ok"}
    assert statuses("Skip your draw step if you control a Mountain.") == {"pass": "unsupported", "targets": "ok"}


# ---------------------------------------------------------------------------
# Extra turns (CR 500.7): turn.extra_turns, next first
# ---------------------------------------------------------------------------

def test_extra_turns_load_dump_and_identity():
    from mtgsolve.solver.core.errors import SituationError
    from mtgsolve.solver.io.dump import dump_state
    base = {"format": "mtgsolve/1", "players": ["alice", "bob"]}
    s = situation_from_dict({**base, "turn": {"active": "alice", "extra_turns": ["bob", "alice"]}}).state
    assert s.turn.extra_turns == ("bob", "alice")
    assert dump_state(s)["turn"]["extra_turns"] == ["bob", "alice"]
    assert situation_from_dict(dump_state(s)).state.key() == s.key()
    assert s.key() != situation_from_dict({**base, "turn": {"active": "alice"}}).state.key()
    with pytest.raises(SituationError, match="extra_turns"):
        situation_from_dict({**base, "turn": {"extra_turns": ["carol"]}})


def test_extra_turn_in_a_game():
    """Time Walk resolves in alice's turn 3; passing to the end of the turn, turn 4 is alice's again and
    turn 5 bob's (CR 500.7)."""
    d = {"format": "mtgsolve/1", "players": ["alice", "bob"],
         "turn": {"number": 3, "active": "alice", "step": "main2", "priority": "bob", "passed": ["alice"]},
         "stack": [{"card": "Time Walk", "controller": "alice"}],
         "library": {"alice": ["Island"] * 3, "bob": ["Island"] * 3}}
    s = Situation.from_dict(d).apply("pass")
    assert s.state.turn.extra_turns == ("alice",)
    seen = []
    for _ in range(40):
        if s.state.turn.number > 5:
            break
        seen.append((s.state.turn.number, s.state.turn.active))
        s = s.apply("pass") if s.decision is None else s.apply(list(s.legal_actions)[0])
    assert (4, "alice") in seen and (5, "bob") in seen and (4, "bob") not in seen


def test_a_resolution_the_engine_refuses_is_a_refusal_in_a_game():
    """Found by the whole-games benchmark (seed 15, once Mana Crypt was read): a resolving permanent
    spell that enters choosing a card name (not enumerated) raised ResolutionUnsupported out of the
    turn engine; it is a refusal naming it."""
    from mtgsolve.solver.core.moves import UnsupportedActionError
    d = {"format": "mtgsolve/1", "players": ["alice", "bob"],
         "turn": {"number": 3, "active": "alice", "step": "main1", "priority": "bob", "passed": ["alice"]},
         "stack": [{"card": "Phyrexian Revoker", "controller": "alice"}]}
    with pytest.raises(UnsupportedActionError, match="card name chosen"):
        Situation.from_dict(d).apply("pass")

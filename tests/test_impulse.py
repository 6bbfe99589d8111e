"""Play permissions from exile and the graveyard (CR 611.2a, 601.2a, 305.1, 514.2): "Exile the top N cards of
your library. <Duration>, you may play those cards." and "You may play lands from your graveyard." — the reader
over the database, the situation format (``may_play``), the ``actions`` query and the Python API against the
brute-force references (tests/reference/actions_ref.py, impulse_ref.py), resolution's random events, the
durations, and soundness both ways."""
from __future__ import annotations

import dataclasses
import gzip
import json
import os
import re
from fractions import Fraction

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from reference.actions_ref import reference_actions
from reference.impulse_ref import reference_outcomes, reference_shape
from mtgsolve.solver.api import Situation
from mtgsolve.solver.api.encoding import ActionEncoding
from mtgsolve.solver.cards import get_card, other_faces
from mtgsolve.solver.core import ir
from mtgsolve.solver.core.errors import SituationError
from mtgsolve.solver.core.state import PlayPermission
from mtgsolve.solver.io.dump import dump_state
from mtgsolve.solver.io.load import situation_from_dict
from mtgsolve.solver.queries import answer
from mtgsolve.solver.rules.play_permissions import end_of_turn_permissions, next_turn_permissions

EXAMPLES = int(os.environ.get("MTGSOLVE_EXAMPLES", "400")) // 8
DATA = os.path.join(os.path.dirname(__file__), "..", "solver", "data", "oracle-cards.json.gz")
_REMINDER = re.compile(r" ?\([^)]*\)")


def board(**kw) -> dict:
    d = {"format": "mtgsolve/1", "players": ["alice", "bob"], "turn": {"number": 3, "active": "alice", "step": "main1"}}
    d.update(kw)
    return d


def _found(x, out: list) -> list:
    """Every ExileTopPlayable inside ``x`` (abilities, spell behaviour, nested instructions)."""
    if isinstance(x, ir.ExileTopPlayable):
        out.append(x)
    elif dataclasses.is_dataclass(x) and not isinstance(x, type):
        for f in dataclasses.fields(x):
            _found(getattr(x, f.name), out)
    elif isinstance(x, (tuple, list)):
        for y in x:
            _found(y, out)
    return out


# ---------------------------------------------------------------------------
# The reader, over the database
# ---------------------------------------------------------------------------

def _shape_lines() -> list[tuple[str, str]]:
    """(card name, line) of every line of the database with the template, by the reference's own regex."""
    out = []
    for c in json.load(gzip.open(DATA)):
        for line in _REMINDER.sub("", c.get("text") or "").split("\n"):
            if reference_shape(line) is not None and re.search(r"(?:^|[:,.—] )exile the top", line, re.I) \
                    and re.search(r"\.$", line) and not re.search(r"you may (?:play|cast) [^.]*\. ", line[line.lower().index("you may"):]):
                out.append((c["name"], line))
    return out


def test_every_line_of_the_template_is_read_or_left_unread():
    """Each line of the shape over the database (86 today) is read as ExileTopPlayable with the reference's
    N, duration and play/cast — or, when another part of its ability is not read (its trigger event, a
    condition, a cost), stays an unread part naming the exile (never dropped, never read looser)."""
    lines = _shape_lines()
    assert len(lines) >= 80
    read = 0
    for name, line in lines:
        card = get_card(name)
        faces = [card, *other_faces(card)]
        got = _found([[f.abilities, f.spell] for f in faces], [])
        n, until, cast = reference_shape(line)
        if got:
            read += 1
            assert any((e.amount, e.until, e.spells_only) == (n, until, cast) for e in got), (name, got)
            continue
        unread = [u for f in faces for u in _found_unread(f) if "exile the top" in u.lower()]
        assert unread, (name, line)
    assert read >= 55


def _found_unread(card) -> list[str]:
    texts = [a.text or a.what for a in card.abilities if isinstance(a, ir.Unsupported)]
    for a in [card.spell, *card.abilities]:
        texts += [e.text for e in getattr(a, "effects", ()) or () if isinstance(e, ir.UnreadEffect)]
    return texts


def test_other_wordings_stay_unread():
    """"without paying its mana cost", "one of those cards", "until your next end step", a condition: not
    this template (unread, so they block what they reach)."""
    for name in ("Golos, Tireless Pilgrim", "Mind's Desire", "Unlucky Witness", "Chandra, Dressed to Kill",
                 "Ob Nixilis, Captive Kingpin", "Fireglass Mentor"):
        assert not _found([get_card(name).abilities, get_card(name).spell], []), name


def test_lands_from_graveyard_is_read_on_every_card_that_says_it_alone():
    cards = json.load(gzip.open(DATA))
    names = [c["name"] for c in cards
             if "You may play lands from your graveyard." in (c.get("text") or "").split("\n")]
    assert len(names) >= 5
    for name in names:
        faces = [get_card(name), *other_faces(get_card(name))]
        assert any(isinstance(a, ir.PlayLandsFromGraveyard) for f in faces for a in f.abilities), name


# ---------------------------------------------------------------------------
# The situation format
# ---------------------------------------------------------------------------

def test_may_play_round_trips():
    d = board(exile={"alice": [{"card": "Shock", "may_play": {"player": "alice"}},
                               {"card": "Forest", "may_play": {"player": "bob", "until": "end_of_next_turn",
                                                              "spells_only": True}}]})
    state = situation_from_dict(d).state
    assert state.obj("shock").may_play == PlayPermission("alice")
    assert state.obj("forest").may_play == PlayPermission("bob", "end_of_next_turn", True)
    out = dump_state(state)
    assert out["exile"]["alice"][0]["may_play"] == {"player": "alice"}
    assert out["exile"]["alice"][1]["may_play"] == {"player": "bob", "until": "end_of_next_turn", "spells_only": True}
    assert situation_from_dict(out).state.key() == state.key()


@pytest.mark.parametrize("doc, where", [
    (board(hand={"alice": [{"card": "Shock", "may_play": {"player": "alice"}}]}), "hand.alice[0].may_play"),
    (board(exile={"alice": [{"card": "Shock", "may_play": {"player": "carol"}}]}), "exile.alice[0].may_play.player"),
    (board(exile={"alice": [{"card": "Shock", "may_play": {"player": "alice", "until": "forever"}}]}),
     "exile.alice[0].may_play.until"),
])
def test_may_play_errors_are_located(doc, where):
    with pytest.raises(SituationError) as e:
        situation_from_dict(doc)
    assert where in str(e.value)


# ---------------------------------------------------------------------------
# Durations (CR 514.2, 611.2)
# ---------------------------------------------------------------------------

def test_durations_end_at_the_right_cleanup():
    d = board(exile={"alice": [{"card": "Shock", "may_play": {"player": "alice"}},
                               {"card": "Mountain", "may_play": {"player": "alice", "until": "end_of_next_turn"}}],
                     "bob": [{"card": "Island", "may_play": {"player": "bob", "until": "end_of_next_turn"}}]})
    state = situation_from_dict(d).state
    after = end_of_turn_permissions(state)
    assert after.obj("shock").may_play is None and after.obj("mountain").may_play is not None
    bobs = next_turn_permissions(after, "bob")
    assert bobs.obj("island").may_play == PlayPermission("bob") and bobs.obj("mountain").may_play.until == "end_of_next_turn"
    alices = end_of_turn_permissions(next_turn_permissions(end_of_turn_permissions(bobs), "alice"))
    assert alices.obj("mountain").may_play is None and alices.obj("island").may_play is None


def test_the_permission_follows_the_game_to_the_end_of_her_next_turn():
    """Through the turn engine: alice's "until the end of your next turn" permission lasts through bob's turn
    and her next turn's main phase, and ends in that turn's cleanup step (CR 611.2, 514.2)."""
    d = board(library={"alice": ["Island"] * 3, "bob": ["Island"] * 3},
              exile={"alice": [{"card": "Shock", "may_play": {"player": "alice", "until": "end_of_next_turn"}}]})
    sit = Situation.from_dict(d)
    seen = []
    for _ in range(200):
        if sit.turn.number == 6:
            break
        seen.append((sit.turn.number, sit.step, sit.state.obj("shock").may_play))
        sit = sit.apply("pass") if sit.priority is not None else sit.apply(sit.legal_actions.heads()[0])
    kept = {(n, step) for n, step, p in seen if p is not None}
    assert (4, "upkeep") in kept and (5, "main1") in kept and (5, "end") in kept
    assert all(p is None for n, _, p in seen if n > 5) and sit.state.obj("shock").may_play is None


# ---------------------------------------------------------------------------
# Resolution: a random event from a shuffled library, never a guess
# ---------------------------------------------------------------------------

SPELLS = ["Reckless Impulse", "Act on Impulse", "Light Up the Stage"]
LIBRARY = ["Shock", "Mountain", "Island", "Grizzly Bears"]


@settings(max_examples=EXAMPLES, deadline=None, derandomize=os.environ.get("CI") == "true",
          suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(SPELLS), st.lists(st.sampled_from(LIBRARY), max_size=5), st.booleans())
def test_resolution_matches_brute_force(spell, library, shuffled):
    d = board(library={"alice": library}, stack=[{"card": spell, "controller": "alice"}])
    if shuffled:
        d["shuffled"] = {"alice": True}
    state = situation_from_dict(d).state
    got = answer(state, {"kind": "resolve"})
    assert got["status"] == "ok", got
    n, until, cast = reference_shape(get_card(spell).data.text)
    want = reference_outcomes(library, n, shuffled and len(set(library)) > 1)
    seen: dict = {}
    for o in got["outcomes"]:
        sit = o["situation"]
        exiled = sit.get("exile", {}).get("alice", [])
        assert all(x["may_play"] == {"player": "alice", **({"until": until} if until != "end_of_turn" else {}),
                                     **({"spells_only": True} if cast else {})} for x in exiled)
        left = [x["card"] for x in sit.get("library", {}).get("alice", [])]
        key = (tuple(sorted(x["card"] for x in exiled)), tuple(sorted(left)) if sit.get("shuffled") else tuple(left))
        assert key not in seen, "one outcome per distinct result"
        p = Fraction(o["probability"]).limit_denominator(1000) if "probability" in o else Fraction(1)
        seen[key] = p + sum(Fraction(q).limit_denominator(1000) for q in o.get("alternative_probabilities", ()))
    assert seen == want


# ---------------------------------------------------------------------------
# actions and the Python API against the reference
# ---------------------------------------------------------------------------

EXILED = ["Shock", "Mountain", "Lightning Bolt", "Grizzly Bears", "Llanowar Elves", "Forest"]
STEPS = ["main1"] * 4 + ["main2", "upkeep", "end"]


@st.composite
def boards(draw):
    d = board()
    d["turn"] = {"number": 3, "active": draw(st.sampled_from(["alice", "alice", "bob"])), "step": draw(st.sampled_from(STEPS)),
                 "priority": draw(st.sampled_from(["alice", "alice", "bob"])), "lands_played": draw(st.integers(0, 1))}
    d["battlefield"] = {"alice": draw(st.lists(st.sampled_from(["Mountain", "Forest"]), max_size=2)),
                        "bob": draw(st.lists(st.sampled_from(["Mountain", "Island"]), max_size=1))}
    if draw(st.booleans()):
        d["battlefield"][draw(st.sampled_from(["alice", "bob"]))].append("Crucible of Worlds")
    perm = st.fixed_dictionaries({"player": st.sampled_from(["alice", "bob"]),
                                  "until": st.sampled_from(["end_of_turn", "end_of_next_turn"]),
                                  "spells_only": st.booleans()})
    card = st.tuples(st.sampled_from(EXILED), st.one_of(st.none(), perm)).map(
        lambda t: {"card": t[0], **({"may_play": t[1]} if t[1] else {})})
    d["exile"] = {"alice": draw(st.lists(card, max_size=3)), "bob": draw(st.lists(card, max_size=2))}
    d["graveyard"] = {"alice": draw(st.lists(st.sampled_from(["Forest", "Shock", "Island"]), max_size=2)),
                      "bob": draw(st.lists(st.sampled_from(["Mountain"]), max_size=1))}
    return d


@settings(max_examples=EXAMPLES, deadline=None, derandomize=os.environ.get("CI") == "true",
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(boards())
def test_actions_match_brute_force_reference(d):
    state = situation_from_dict(d).state
    for player in ("alice", "bob"):
        got = answer(state, {"kind": "actions", "player": player})
        assert got["status"] == "ok", got
        entries = [{k: v for k, v in a.items() if k != "unread"} for a in got["actions"]]
        assert entries == reference_actions(state, player), d
    sit = Situation(state)
    summary = answer(state, {"kind": "actions"})
    mask, cands = sit.legal_actions_mask()
    heads = [a for a, m in zip(cands, mask) if m]
    assert [a.to_json() for a in heads] == [{k: v for k, v in e.items() if k in ("kind", "object", "index")}
                                            for e in summary["actions"]]
    enc = ActionEncoding(sit)
    assert int(enc.mask(sit).sum()) == len(heads)


def test_api_plays_and_casts_from_exile():
    d = board(battlefield={"alice": ["Mountain"]},
              exile={"alice": [{"card": "Shock", "may_play": {"player": "alice"}},
                               {"card": "Forest", "may_play": {"player": "alice"}}]})
    sit = Situation.from_dict(d)
    assert sorted(str(a) for a in sit.legal_actions.heads()) == ["cast shock", "pass", "play forest"]
    played = sit.apply("play forest")
    f = played.state.obj("forest")
    assert f.zone == "battlefield" and f.may_play is None and played.turn.lands_played == 1
    cast = played.apply("cast shock -> bob")
    s = cast.state.obj("shock")
    assert s.zone == "stack" and s.may_play is None
    resolved = cast.apply("pass").apply("pass")
    assert resolved.life("bob") == 18 and resolved.state.obj("shock").zone == "graveyard"


def test_crucible_through_the_api():
    sit = Situation.from_dict(board(battlefield={"alice": ["Crucible of Worlds"]}, graveyard={"alice": ["Forest"]}))
    after = sit.apply("play forest")
    assert after.state.obj("forest").zone == "battlefield"
    assert "play forest" not in [str(a) for a in Situation.from_dict(board(graveyard={"alice": ["Forest"]})).legal_actions.heads()]


# ---------------------------------------------------------------------------
# Soundness both ways
# ---------------------------------------------------------------------------

def test_read_impulse_blocks_nothing():
    state = situation_from_dict(board(library={"alice": ["Shock", "Island"]},
                                      stack=[{"card": "Reckless Impulse", "controller": "alice"}])).state
    assert answer(state, {"kind": "resolve"})["status"] == "ok"


def test_unread_permission_blocks_what_it_reaches():
    """Golos's "You may play them this turn without paying their mana costs." is not read: its ability
    resolving is refused; a card in exile whose own text is unread blocks its permitted player's actions (it is
    an action of theirs) and not the other player's."""
    g = situation_from_dict(board(battlefield={"alice": ["Golos, Tireless Pilgrim"]}, library={"alice": ["Island"] * 3},
                                  stack=[{"ability": {"source": "golos-tireless-pilgrim", "index": 2},
                                          "controller": "alice"}])).state
    assert answer(g, {"kind": "resolve"})["status"] == "unsupported"
    d = board(exile={"alice": [{"card": "Mind's Desire", "may_play": {"player": "alice"}}]},
              turn={"number": 3, "active": "alice", "step": "main1", "priority": "alice"})
    state = situation_from_dict(d).state
    assert answer(state, {"kind": "actions", "player": "alice"})["status"] == "unsupported"
    assert answer(state, {"kind": "actions", "player": "bob"})["status"] == "ok"


# ---------------------------------------------------------------------------
# "Whenever you cast … this turn" / "When you next cast … this turn" (CR 603.7a-c)
# ---------------------------------------------------------------------------

_CAST_THIS_TURN = re.compile(r"^(?:whenever you cast|when you next cast) [^.]*? this turn, ", re.I)


def _delayed_casts(card) -> list:
    out: list = []

    def walk(x):
        if isinstance(x, ir.DelayedCast):
            out.append(x)
        elif dataclasses.is_dataclass(x) and not isinstance(x, type):
            for f in dataclasses.fields(x):
                walk(getattr(x, f.name))
        elif isinstance(x, (tuple, list)):
            for y in x:
                walk(y)
    walk([[f.abilities, f.spell] for f in [card, *other_faces(card)]])
    return out


def test_every_cast_this_turn_sentence_is_read_as_a_delayed_trigger_or_unread():
    """Each line of the database opening with such a sentence (22; 45 sentences in all, most "copy that spell") is
    a DelayedCast — never a
    permanent's triggered ability — or unread (it names its event's spell, a target, X …)."""
    hits = 0
    for c in json.load(gzip.open(DATA)):
        for line in _REMINDER.sub("", c.get("text") or "").split("\n"):
            body = re.sub(r"^(?:[IVX]+(?:, [IVX]+)* — |[^—]{1,30} — )", "", line)
            if not _CAST_THIS_TURN.search(body) or ":" in body.split(",")[0]:
                continue
            hits += 1
            card = get_card(c["name"])
            trig = [a for f in [card, *other_faces(card)] for a in f.abilities
                    if isinstance(a, ir.TriggeredAbility) and a.text == line and isinstance(a.trigger, ir.CastTrigger)]
            assert not trig, (c["name"], "read as a permanent's trigger")
    assert hits >= 20
    (g,) = _delayed_casts(get_card("Glimpse of Nature"))
    assert (g.step, g.once, g.effects) == ("cast", False, (ir.Draw(1),))
    assert not _delayed_casts(get_card("Doublecast")) and not _delayed_casts(get_card("Brass Infiniscope"))


def _inline(text: str) -> dict:
    return {"name": "Test Glimpse", "type": "Sorcery", "types": ["Sorcery"], "manaCost": "{0}", "text": text}


FREE = ["Ornithopter", "Memnite", "Darksteel Relic", "Accorder's Shield"]


@settings(max_examples=EXAMPLES, deadline=None, derandomize=os.environ.get("CI") == "true",
          suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.sampled_from(FREE), min_size=1, max_size=4), st.booleans())
def test_draws_match_the_creature_spells_cast(hand, once):
    """Glimpse of Nature (each creature spell this turn) and a "when you next cast a creature spell this
    turn, draw a card" card (the next one only): after resolving it, alice casts every card of her hand in
    order, each resolving; she draws once per creature spell — the reference counts the printed types —, or
    once for the first one."""
    text = ("When you next cast a creature spell this turn, draw a card." if once
            else "Whenever you cast a creature spell this turn, draw a card.")
    d = board(hand={"alice": hand}, library={"alice": ["Island"] * 6},
              stack=[{"card": _inline(text), "controller": "alice"}])
    sit = Situation.from_dict(d)
    (_, sit), = sit.resolve()
    ids = [o.id for o in sit.state.objects if o.zone == "hand"]
    for oid in ids:
        sit = sit.apply(f"cast {oid}")
        while sit.stack:
            sit = sit.apply("pass")
    creatures = sum(1 for n in hand if "Creature" in get_card(n).data.types)
    drawn = sum(1 for o in sit.state.objects if o.zone == "hand")
    assert drawn == (min(creatures, 1) if once else creatures)
    assert bool(sit.state.delayed) == (not once or creatures == 0)


def test_delayed_cast_record_errors_are_located():
    d = board(graveyard={"alice": ["Glimpse of Nature"]},
              delayed=[{"step": "end", "controller": "alice", "source": "glimpse-of-nature"}])
    with pytest.raises(SituationError) as e:
        situation_from_dict(d)
    assert "delayed[0].step" in str(e.value)
    d["delayed"][0]["step"] = "next_cast"
    with pytest.raises(SituationError):
        situation_from_dict(d)
    d["delayed"][0]["step"] = "cast"
    assert situation_from_dict(d).state.delayed[0].step == "cast"


def test_cleanup_ends_this_turn_delayed_triggers():
    d = board(turn={"number": 3, "active": "alice", "step": "end", "priority": "bob", "passed": ["alice"]},
              graveyard={"alice": ["Glimpse of Nature"]}, library={"alice": ["Island"], "bob": ["Island"] * 2},
              delayed=[{"step": "cast", "controller": "alice", "source": "glimpse-of-nature", "turn": 3}])
    (o,) = answer(situation_from_dict(d).state, {"kind": "pass"})["outcomes"]
    assert "delayed" not in o["situation"] and o["situation"]["turn"]["number"] == 4


def test_delayed_cast_soundness_both_ways():
    """Read: resolving Glimpse of Nature, and a creature cast with its record in force, block nothing.
    Unread: Doublecast's "When you next cast an instant or sorcery spell this turn, copy that spell." refuses
    its resolution."""
    g = situation_from_dict(board(stack=[{"card": "Glimpse of Nature", "controller": "alice"}])).state
    assert answer(g, {"kind": "resolve"})["status"] == "ok"
    d = board(battlefield={"alice": ["Forest"]}, hand={"alice": ["Llanowar Elves"]},
              graveyard={"alice": ["Glimpse of Nature"]},
              delayed=[{"step": "cast", "controller": "alice", "source": "glimpse-of-nature", "turn": 3}])
    assert answer(situation_from_dict(d).state, {"kind": "actions", "player": "alice"})["status"] == "ok"
    dc = situation_from_dict(board(stack=[{"card": "Doublecast", "controller": "alice"}])).state
    assert answer(dc, {"kind": "resolve"})["status"] == "unsupported"


# ---------------------------------------------------------------------------
# "If a player is dealt damage this way, …" (CR 608.2c)
# ---------------------------------------------------------------------------

def test_dealt_damage_this_way_is_read_only_where_modeled():
    """The three "If a player is dealt damage this way, …" lines of the database: Play with Fire's scry is read
    (after its damage); Sonic Shrieker's follows a life gain and names "they", Screaming Nemesis's names "they":
    unread."""
    lines = [(c["name"], line) for c in json.load(gzip.open(DATA))
             for line in _REMINDER.sub("", c.get("text") or "").split("\n") if "If a player is dealt damage this way" in line]
    assert len(lines) == 3
    (e,) = get_card("Play with Fire").spell.effects
    assert isinstance(e, ir.IfDealtDamage) and e.damage == ir.Damage(ir.T(0), 2) and e.then == (ir.Scry(1),)
    for name in ("Sonic Shrieker", "Screaming Nemesis"):
        assert any("dealt damage this way" in t for t in _found_unread(get_card(name))), name


@settings(max_examples=EXAMPLES, deadline=None, derandomize=os.environ.get("CI") == "true",
          suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(["alice", "bob", "grizzly-bears"]), st.integers(0, 3))
def test_play_with_fire_scries_exactly_when_a_player_is_dealt_damage(target, shield):
    """Reference: the scry (two outcomes: the known top card kept or bottomed) happens iff the target is a
    player and the damage left after a shield preventing the next ``shield`` damage to it is positive."""
    d = board(battlefield={"bob": ["Grizzly Bears"]}, library={"alice": ["Island", "Mountain"]},
              stack=[{"card": "Play with Fire", "controller": "alice", "targets": [[target]]}])
    if shield:
        d["prevention"] = [{"to": target, "amount": shield}]
    got = answer(situation_from_dict(d).state, {"kind": "resolve"})
    assert got["status"] == "ok", got
    scried = target in ("alice", "bob") and 2 - shield > 0
    assert got["count"] == (2 if scried else 1)
    assert all(("scry" in o["choices"]) == scried for o in got["outcomes"])


def test_dealt_damage_soundness_both_ways():
    pwf = situation_from_dict(board(library={"alice": ["Island"]},
                                    stack=[{"card": "Play with Fire", "controller": "alice", "targets": [["bob"]]}])).state
    assert answer(pwf, {"kind": "resolve"})["status"] == "ok"
    d = board(battlefield={"alice": ["Sonic Shrieker"]}, hand={"bob": ["Island"]},
              stack=[{"ability": {"source": "sonic-shrieker", "index": 1}, "controller": "alice", "targets": [["bob"]]}])
    assert answer(situation_from_dict(d).state, {"kind": "resolve"})["status"] == "unsupported"


@pytest.mark.parametrize("card", ["Bonecrusher Giant", "Fire // Ice", "Emeria's Call", "Burst Lightning", "Shock",
                                  "Force of Will", "Forest", "Lightning Bolt", "Memnite", "Godless Shrine"])
def test_a_permitted_card_in_exile_is_cast_as_from_a_hand(card):
    """CR 601.2a, 305.1: with a permission, a card in exile is cast or played exactly as it would be from its
    owner's hand — every face (CR 715.3, 709.3, 712.11b), kicker, alternative costs not tied to a zone, a land
    paying life as it enters; with ``spells_only`` no land (face) is played."""
    lands = {"alice": ["Mountain", "Island", "Island", "Plains"], "bob": ["Grizzly Bears"]}
    turn = {"number": 3, "active": "alice", "step": "main1", "priority": "alice"}
    hand = situation_from_dict(board(turn=turn, battlefield=lands, hand={"alice": [card, "Island"]})).state
    perm = {"player": "alice"}
    exiled = situation_from_dict(board(turn=turn, battlefield=lands, hand={"alice": ["Island"]},
                                       exile={"alice": [{"card": card, "may_play": perm}]})).state
    strip = lambda r: [a for a in r["actions"] if a.get("object") != "island-3"]   # the Island in hand
    a, b = answer(hand, {"kind": "actions", "player": "alice"}), answer(exiled, {"kind": "actions", "player": "alice"})
    assert (a["status"], b["status"]) == ("ok", "ok")
    assert strip(a) == strip(b)
    cast_only = situation_from_dict(board(turn=turn, battlefield=lands, exile={"alice": [
        {"card": card, "may_play": {"player": "alice", "spells_only": True}}]})).state
    got = answer(cast_only, {"kind": "actions", "player": "alice"})["actions"]
    assert not [x for x in got if x["kind"] == "play_land"]
    assert [x for x in got if x["kind"] == "cast"] == [x for x in strip(b) if x["kind"] == "cast"]

"""The Python API and the games with cards cast or played as another face (issue 24 item 3):
an Adventure (CR 715.3), a split card's half (709.3), a modal double-faced card's back face
(712.11b) and land back face (712.12) are actions of their own (``face``), applied, resolved
(715.3d, 712.14, 709.4) and encoded (an action slot per face); the creature of a card on an
adventure is cast from exile (715.3d); a seeded game with such cards plays them."""
from __future__ import annotations

import random

import pytest

from mtgsolve.solver.api import Action, IllegalActionError, InvalidActionError, Situation, UnsupportedActionError
from mtgsolve.solver.api.encoding import ActionEncoding, completions
from mtgsolve.solver.api.games import deal_shuffled, initial_situation, parse_decklist

BORROWER = "brazen-borrower-petty-theft"
PATHWAY = "blightstep-pathway-searstep-pathway"
KIANNE = "kianne-dean-of-substance-imbraham-dean-of-theory"


def sit(**kw) -> Situation:
    d = {"format": "mtgsolve/1", "players": ["alice", "bob"], "turn": {"number": 3, "active": "alice", "step": "main1"}}
    d.update(kw)
    return Situation.from_dict(d)


def test_action_face_grammar_and_json():
    a = Action.parse('play blightstep-pathway-searstep-pathway face="Searstep Pathway"')
    assert a.kind == "play_land" and a.face == "Searstep Pathway"
    assert Action.parse(str(a)) == a and Action.from_json(a.to_json()) == a
    b = Action.parse("cast fire-ice face=Ice -> grizzly-bears paying island, island-2")
    assert b.face == "Ice" and b.targets == (("grizzly-bears",),) and b.to_json()["face"] == "Ice"
    assert Action.parse(str(b)) == b and Action.from_json(b.to_json()) == b
    with pytest.raises(InvalidActionError):
        Action("activate", "x", 1, face="Ice")


def test_faces_are_listed_masked_and_decided():
    s = sit(battlefield={"alice": ["Island", "Island", "Mountain"], "bob": ["Grizzly Bears"]},
            hand={"alice": ["Brazen Borrower", "Fire // Ice", "Blightstep Pathway"]})
    heads = [str(h) for h in s.legal_actions.heads()]
    assert heads == [f"cast {BORROWER}", f"cast {BORROWER} face=\"Petty Theft\"", "cast fire-ice face=Fire",
                     "cast fire-ice face=Ice", "pass", f"play {PATHWAY}", f'play {PATHWAY} face="Searstep Pathway"']
    mask, cands = s.legal_actions_mask()
    assert [str(c) for c, m in zip(cands, mask) if m] == heads
    assert "cast fire-ice" in [str(c) for c in cands] and not s.is_legal("cast fire-ice")   # CR 709.3
    assert "Fire or Ice" in (s.is_legal("cast fire-ice").reason or "")
    assert s.legal_actions.count() == sum(len(completions(s, h)) for h in s.legal_actions.heads())
    with pytest.raises(InvalidActionError, match="no face 'Stomp'"):
        s.is_legal("cast fire-ice face=Stomp")
    assert not s.is_legal(f'cast {PATHWAY} face="Searstep Pathway"')          # a land is played (CR 305.9)


def test_adventure_applied_resolved_and_the_creature_cast_from_exile():
    """CR 715.3: Petty Theft on the stack; 715.3d: resolved, the card is exiled on an adventure and
    Alice may cast Brazen Borrower (flash) from exile; cast, it is the creature (715.4)."""
    s = sit(battlefield={"alice": ["Island", "Island", "Island", "Island", "Island"], "bob": ["Ornithopter"]},
            hand={"alice": ["Brazen Borrower"]})
    cast = s.apply(f'cast {BORROWER} face="Petty Theft"')
    (spell,) = cast.to_dict()["stack"]
    assert spell["face"] == "Petty Theft" and spell["targets"] == [["ornithopter"]]
    assert cast.view.chars(BORROWER).mana_value == 2                                   # the face's (715.3b)
    ((_, after),) = cast.resolve()
    d = after.to_dict()
    assert d["exile"]["alice"] == [{"id": BORROWER, "card": "Brazen Borrower // Petty Theft", "on_adventure": True}]
    assert d["hand"]["bob"] == [{"id": "ornithopter", "card": "Ornithopter"}]
    assert [str(h) for h in after.legal_actions.heads()] == [f"cast {BORROWER}", "pass"]
    again = after.apply(f"cast {BORROWER}")
    (creature,) = again.to_dict()["stack"]
    assert "face" not in creature and again.view.chars(BORROWER).mana_value == 3
    ((_, bf),) = again.resolve()
    assert bf.state.obj(BORROWER).zone == "battlefield" and not bf.state.obj(BORROWER).on_adventure


def test_mdfc_back_faces_applied():
    """CR 712.12: a Pathway played as its back face is that land (its mana, 712.8d); 712.11b,
    712.14: Imbraham cast as Kianne's back face enters back face up."""
    s = sit(battlefield={"alice": ["Island", "Island", "Island", "Island"]},
            hand={"alice": ["Blightstep Pathway", "Kianne, Dean of Substance"]})
    played = s.apply(f'play {PATHWAY} face="Searstep Pathway"')
    land = played.state.obj(PATHWAY)
    assert land.zone == "battlefield" and land.card.name == "Searstep Pathway" and land.front is not None
    assert played.query({"kind": "could_produce"})["could_produce"][PATHWAY] == ["R"]
    assert not played.is_legal(f"play {PATHWAY}")      # gone from the hand
    cast = s.apply(f'cast {KIANNE} face="Imbraham, Dean of Theory"')
    ((_, after),) = cast.resolve()
    o = after.state.obj(KIANNE)
    assert o.zone == "battlefield" and o.card.name == "Imbraham, Dean of Theory"
    assert after.to_dict()["battlefield"]["alice"][-1]["face"] == "Imbraham, Dean of Theory"


def test_split_half_applied_and_the_card_back_whole():
    s = sit(battlefield={"alice": ["Island", "Island"], "bob": ["Grizzly Bears"]}, library={"alice": ["Island"]},
            hand={"alice": ["Fire // Ice"]})
    cast = s.apply("cast fire-ice face=Ice -> grizzly-bears")
    assert cast.view.chars("fire-ice").colors == {"U"}                          # CR 709.3b
    ((_, after),) = cast.resolve()
    gy = after.state.obj("fire-ice")
    assert gy.zone == "graveyard" and gy.card.name == "Fire // Ice" and gy.front is None   # CR 709.4
    with pytest.raises(IllegalActionError):
        after.apply("cast fire-ice face=Ice")           # from the hand only (CR 709.3, 601.2a)


def test_encoding_has_a_slot_per_face():
    s = sit(battlefield={"alice": ["Mountain", "Mountain"], "bob": ["Grizzly Bears"]},
            hand={"alice": ["Bonecrusher Giant", "Fire // Ice"]})
    enc = ActionEncoding(s)
    faces = [x for x in enc.slots if x[0] == "face"]
    assert faces == [("face", "bonecrusher-giant-stomp", "Stomp"), ("face", "fire-ice", "Fire"),
                     ("face", "fire-ice", "Ice")]
    legal = [enc.describe(i) for i, v in enumerate(enc.mask(s)) if v]
    assert legal == ["pass", "face bonecrusher-giant-stomp Stomp", "face fire-ice Fire"]
    head = enc.decode(s, enc.index[("face", "fire-ice", "Fire")])
    assert head == Action("cast", "fire-ice", face="Fire") and enc.encode_head(head) == enc.index[faces[1]]
    assert all(a.face == "Fire" for a in completions(s, head))


FACE_DECK = """\
4 Silverflame Squire
4 Lonesome Unicorn
4 Wax // Wane
4 Branchloft Pathway
4 Grizzly Bears
6 Forest
6 Plains
"""


def _game(seed: int, decklist: str = FACE_DECK) -> tuple[str, set[str]]:
    rng = random.Random(seed)
    deck = parse_decklist(decklist)
    s = initial_situation((deck, deck), rng)
    enc = ActionEncoding(s)
    pick = random.Random(seed + 1_000_003)
    log: list[str] = []
    faces: set[str] = set()
    try:
        while not s.is_terminal and len(log) < 1500:
            legal = [i for i, v in enumerate(enc.mask(s)) if v]
            a = enc.decode(s, legal[pick.randrange(len(legal))])
            if getattr(a, "kind", "") in ("cast", "activate"):
                full = completions(s, a)
                a = full[pick.randrange(len(full))]
            if getattr(a, "face", None):
                faces.add(a.face)
            elif a.kind == "cast" and s.state.obj(a.object).zone == "exile":
                faces.add("from exile")         # the creature of a card on an adventure (CR 715.3d)
            log.append(str(a))
            s = deal_shuffled(s.apply(a, rng=rng), rng)
    except UnsupportedActionError as e:
        log.append(f"refused: {e}")
    return "\n".join(log), faces


def test_seeded_game_plays_faces_deterministically():
    """Seeded games between two decks of modal double-faced lands, adventurers and a split card: the
    agents' random choices include every kind of face and the creatures cast from exile, every game
    ends, and the same seed gives the same transcript."""
    seen: set[str] = set()
    for seed in range(3):
        log, faces = _game(seed)
        assert "refused" not in log.rsplit("\n", 1)[-1]
        assert _game(seed)[0] == log
        seen |= faces
    assert {"Boulderloft Pathway", "Wax", "On Alert", "Rider in Need", "from exile"} <= seen, seen


def test_aftermath_half_cast_from_the_graveyard_and_exiled():
    """CR 702.127a: Fame is cast from the graveyard only, Claim from the hand only; Fame leaves the
    stack into exile."""
    s = sit(battlefield={"alice": ["Mountain", "Mountain"], "bob": ["Ornithopter"]},
            hand={"alice": ["Claim // Fame"]}, graveyard={"alice": ["Claim // Fame"]})
    assert [str(h) for h in s.legal_actions.heads()] == ["cast claim-fame-2 face=Fame", "pass"]
    assert "from a graveyard" in (s.is_legal("cast claim-fame face=Fame").reason or "")
    assert "hand" in (s.is_legal("cast claim-fame-2 face=Claim").reason or "")
    cast = s.apply("cast claim-fame-2 face=Fame -> ornithopter")
    assert cast.state.obj("claim-fame-2").zone == "stack" and cast.state.obj("claim-fame-2").card.name == "Fame"
    ((_, after),) = cast.resolve()
    o = after.state.obj("claim-fame-2")
    assert o.zone == "exile" and o.card.name == "Claim // Fame"


def test_fused_split_spell_applied_resolved_and_written():
    """CR 702.102: Wear // Tear cast fused through the API (face naming the whole card) is a spell
    with the combined characteristics and both halves' targets, written ``fused: true``; it resolves
    both halves in order; ``fused`` is validated by zone and card."""
    from mtgsolve.solver.core.errors import SituationError

    s = sit(battlefield={"alice": ["Mountain", "Plains", "Mountain"], "bob": ["Ornithopter", "Glorious Anthem"]},
            hand={"alice": ["Wear // Tear"]})
    assert [str(h) for h in s.legal_actions.heads()] == ["cast wear-tear face=Tear", "cast wear-tear face=Wear",
                                                        'cast wear-tear face="Wear // Tear"', "pass"]
    cast = s.apply('cast wear-tear face="Wear // Tear"')
    (spell,) = cast.to_dict()["stack"]
    assert spell["fused"] is True and "face" not in spell and spell["targets"] == [["ornithopter"], ["glorious-anthem"]]
    assert cast.view.chars("wear-tear").colors == {"R", "W"} and cast.view.chars("wear-tear").mana_value == 3
    assert Situation.from_dict(cast.to_dict()).state == cast.state
    ((_, after),) = cast.resolve()
    assert [o.id for o in after.state.objects if o.zone == "graveyard"] == ["wear-tear", "ornithopter", "glorious-anthem"]
    with pytest.raises(SituationError, match=r"hand\.alice\[0\]\.fused"):
        sit(hand={"alice": [{"card": "Wear // Tear", "fused": True}]})
    with pytest.raises(SituationError, match=r"stack\[0\]\.fused"):
        sit(stack=[{"card": "Fire // Ice", "fused": True, "controller": "alice"}])


DRIFTER = "baithook-angler-hook-haunt-drifter"


def test_disturb_card_cast_transformed_from_the_graveyard():
    """CR 702.146a: Baithook Angler in the graveyard is cast as Hook-Haunt Drifter (its back face up on
    the stack, 712.11a) for its disturb cost {1}{U} — the head with ``face``, which implies disturb; it
    resolves back face up (702.146b) and, dying, is exiled instead (614.1a)."""
    s = sit(battlefield={"alice": ["Island", "Island"]}, graveyard={"alice": ["Baithook Angler"]})
    assert [str(h) for h in s.legal_actions.heads()] == [f'cast {DRIFTER} face="Hook-Haunt Drifter"', "pass"]
    assert not s.is_legal(f"cast {DRIFTER}")                        # not its front face from the graveyard
    (full,) = [a for a in s.legal_actions if a.kind == "cast"]
    assert full.face == "Hook-Haunt Drifter" and full.payment.tap == ("island", "island-2")
    cast = s.apply(full)
    spell = cast.state.obj(DRIFTER)
    assert spell.zone == "stack" and spell.card.name == "Hook-Haunt Drifter" and cast.view.chars(DRIFTER).mana_value == 2
    assert Situation.from_dict(cast.to_dict()).state == cast.state
    ((_, after),) = cast.resolve()
    o = after.state.obj(DRIFTER)
    assert o.zone == "battlefield" and o.card.name == "Hook-Haunt Drifter"
    enc = ActionEncoding(s)
    assert ("face", DRIFTER, "Hook-Haunt Drifter") in enc.slots
    assert enc.decode(s, enc.index[("face", DRIFTER, "Hook-Haunt Drifter")]) == Action("cast", DRIFTER,
                                                                                       face="Hook-Haunt Drifter")


DISTURB_DECK = """\
6 Baithook Angler
4 Lantern Bearer
4 Shock
6 Island
6 Mountain
"""


def test_seeded_game_casts_disturb_cards_from_the_graveyard():
    """Seeded games with disturb cards (CR 702.146a) and Shock: the agents' random choices cast back faces
    from the graveyard, the games end, and the same seed gives the same transcript."""
    log, faces = _game(0, DISTURB_DECK)
    assert "refused" not in log.rsplit("\n", 1)[-1]
    assert _game(0, DISTURB_DECK)[0] == log
    assert {"Hook-Haunt Drifter", "Lanterns' Lift"} <= faces, faces


def test_more_than_meets_the_eye_cast_converted_through_the_api():
    """CR 702.162a: the head naming Ultra Magnus's back face casts it converted for {2}{R}{G}{W}."""
    magnus = "ultra-magnus-tactician-ultra-magnus-armored-carrier"
    s = sit(turn={"number": 5, "active": "alice", "step": "main1"},
            battlefield={"alice": ["Mountain", "Mountain", "Mountain", "Mountain", "Forest", "Plains"]},
            hand={"alice": ["Ultra Magnus, Tactician"]})
    assert [str(h) for h in s.legal_actions.heads()] == [f'cast {magnus} face="Ultra Magnus, Armored Carrier"', "pass"]
    (full,) = [a for a in s.legal_actions if a.kind == "cast"]
    cast = s.apply(full)
    assert cast.state.obj(magnus).card.name == "Ultra Magnus, Armored Carrier" and cast.view.chars(magnus).mana_value == 7

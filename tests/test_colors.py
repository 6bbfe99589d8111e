"""Colors and creature types from the card data and the characteristic-defining abilities, in every
zone (CR 105.2, 202.2, 204, 604.3, 702.73a, 702.114a; issue 24 item 4, issue 25's color holes).

* the reader reads devoid, changeling, "~ is colorless / all colors / <color> / every creature type"
  into one IR value, :class:`~solver.core.ir.CharacteristicDefining`;
* :func:`~solver.rules.characteristics.printed_colors` and ``printed_subtypes``: the data's colors,
  else a color indicator, else the read ability, else the mana cost; every creature type for a
  changeling — and the view gives them in every zone;
* the damage source of a card that left (last known information) has the card's colors too;
* each family of unread text about an object's own color blocks what reads colors and nothing else;
* a hypothesis property: the view's color of every object in every zone equals an independent
  reading of the shipped data and the mana cost (tests/reference/colors_ref.py).
"""
from __future__ import annotations

from functools import lru_cache

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from mtgsolve.solver.cards import CardData, get_card, read_card
from mtgsolve.solver.core import ir
from mtgsolve.solver.io.load import situation_from_dict
from mtgsolve.solver.queries import answer
from mtgsolve.solver.rules.characteristics import View, printed_colors, printed_subtypes
from mtgsolve.solver.rules.soundness.unread import own_characteristic, own_color_only

from reference import colors_ref


def _card(text: str, cost: str = "{2}{U}", types: tuple[str, ...] = ("Creature",), **kw):
    d = {"name": "Test Thing", "manaCost": cost, "type": " ".join(types), "types": list(types), "text": text,
         "power": "1", "toughness": "1", **kw}
    return read_card(CardData.from_mtgjson(d))


def _defining(card) -> list[ir.CharacteristicDefining]:
    return [a for a in card.abilities if isinstance(a, ir.CharacteristicDefining)]


def _state(**zones):
    d = {"format": "mtgsolve/1", "players": ["alice", "bob"], "turn": {"number": 3, "active": "alice", "step": "main1"}}
    d.update(zones)
    return situation_from_dict(d).state


# -- the reader -------------------------------------------------------------------------------

@pytest.mark.parametrize("text,colors,every", [
    ("Devoid (This card has no color.)", frozenset(), False),
    ("Changeling (This card is every creature type.)", None, True),
    ("Test Thing is colorless.", frozenset(), False),
    ("Test Thing is all colors.", frozenset("WUBRG"), False),
    ("Test Thing is all colors. This ability doesn't affect its color identity.", frozenset("WUBRG"), False),
    ("Test Thing is white and blue.", frozenset("WU"), False),
    ("Test Thing is every creature type.", None, True),
])
def test_characteristic_defining_lines_are_read(text, colors, every):
    """CR 604.3, 702.114a, 702.73a: one typed value, no unread part."""
    card = _card(text)
    (a,) = _defining(card)
    assert (a.colors, a.every_creature_type) == (colors, every)
    assert not card.unsupported and a.text == text
    assert a.describe().startswith("characteristic-defining (CR 604.3, every zone)")


def test_an_instants_color_sentence_is_read_beside_its_instructions():
    card = get_card("Ghostfire")
    assert [a.colors for a in _defining(card)] == [frozenset()]
    assert card.spell is not None and len(card.spell.targets) == 1 and card.fully_supported


@pytest.mark.parametrize("text", ["As long as you control a Swamp, Test Thing is black.",
                                  "Enchanted creature is black.", "Creatures you control are black."])
def test_conditional_or_other_color_effects_are_no_characteristic_defining_ability(text):
    """Not about the object itself unconditionally: not CR 604.3 (611.3a effects on the battlefield)."""
    assert not _defining(_card(text))


# -- printed colors and subtypes --------------------------------------------------------------

def test_printed_colors_precedence():
    """The data's colors, else a color indicator (CR 202.2e), else a read CDA (604.3), else the cost (202.2)."""
    assert printed_colors(_card("Devoid")) == frozenset()
    assert printed_colors(_card("")) == frozenset("U")
    assert printed_colors(_card("", colorIndicator=["B"])) == frozenset("B")
    assert printed_colors(_card("Devoid", colors=["R"])) == frozenset("R")   # the data wins: it holds the CDA
    assert printed_colors(get_card("Living End")) == frozenset("B")
    assert printed_colors(get_card("Dryad Arbor")) == frozenset("G")
    assert printed_colors(get_card("Ruination Guide")) == frozenset()
    assert printed_colors(get_card("Transguild Courier")) == frozenset("WUBRG")
    assert printed_colors(None) == frozenset()


def test_changeling_is_every_creature_type_and_no_land_type():
    subs = printed_subtypes(get_card("Universal Automaton"))
    assert {"Elf", "Goblin", "Shapeshifter", "Eldrazi", "Time Lord"} <= subs
    assert not subs & {"Forest", "Equipment", "Aura", "Saga", "Food"}   # CR 205.3m: creature types only
    assert printed_subtypes(get_card("Grizzly Bears")) == {"Bear"}


@pytest.mark.parametrize("zone", ["hand", "graveyard", "exile", "library", "battlefield"])
def test_the_view_gives_data_colors_and_changeling_types_in_every_zone(zone):
    s = _state(**{zone: {"alice": ["Dryad Arbor", "Universal Automaton", "Ruination Guide"]}})
    v = View(s)
    assert v.chars("dryad-arbor").colors == frozenset("G")
    assert v.chars("ruination-guide").colors == frozenset()
    assert "Elf" in v.chars("universal-automaton").subtypes


def test_a_spell_on_the_stack_has_its_data_colors():
    s = _state(stack=[{"card": "Pact of Negation", "controller": "alice", "owner": "alice",
                       "targets": [["grizzly-bears"]]}], battlefield={"bob": ["Grizzly Bears"]})
    assert View(s).chars("pact-of-negation").colors == frozenset("U")


def test_celestial_dawn_still_changes_the_color_after_the_printed_one():
    """Layer 5: a color-changing effect applies after the CDA (CR 613.3)."""
    s = _state(battlefield={"alice": ["Celestial Dawn"]}, hand={"alice": ["Ruination Guide", "Living End"]})
    v = View(s)
    assert v.chars("ruination-guide").colors == frozenset("W") == v.chars("living-end").colors


def test_a_damage_source_that_left_has_its_cards_colors():
    """Last known information of a card (CR 113.7a, 608.2h): its colors are the card's, a devoid
    card's none — protection from blue doesn't stop it (702.16e)."""
    from mtgsolve.solver.engine.resolution import _damage_source_of
    from mtgsolve.solver.engine.transition import _World

    s = _state(graveyard={"alice": ["Ruination Guide", "Pact of Negation"]})
    w = _World(s)
    assert _damage_source_of(w, "ruination-guide", "alice", current=False).colors == frozenset()
    assert _damage_source_of(w, "pact-of-negation", "alice", current=False).colors == frozenset("U")
    assert "Elf" in _damage_source_of(w, "x", "alice", get_card("Universal Automaton"), current=False).subtypes


# -- unread text about an object's own color ---------------------------------------------------

def test_own_characteristic_words():
    assert own_characteristic("Test Thing is the color of your choice.") and own_color_only(
        "Test Thing is the color of your choice.")
    assert own_characteristic("Test Thing is every creature type but Elf.")
    assert not own_color_only("Test Thing is every creature type but Elf.")
    assert not own_characteristic("As long as it's your turn, Test Thing is black.")
    assert not own_characteristic("Enchanted creature is black.")


ODD_COLOR = {"name": "Odd Drake", "manaCost": "{1}{U}", "type": "Creature — Drake", "types": ["Creature"],
             "subtypes": ["Drake"], "power": "1", "toughness": "1",
             "text": "Odd Drake is the color of your choice."}
ODD_TYPES = {"name": "Odd Mimic", "manaCost": "{1}{U}", "type": "Creature — Shapeshifter", "types": ["Creature"],
             "subtypes": ["Shapeshifter"], "power": "1", "toughness": "1",
             "text": "Odd Mimic is every creature type but the chosen one."}


def _status(s, q) -> str:
    return str(answer(s, q)["status"])


@pytest.mark.parametrize("zone", ["hand", "graveyard", "battlefield"])
def test_an_unread_own_color_blocks_what_reads_colors_in_every_zone(zone):
    """CR 604.3: it works in every zone; protection and "a blue card" read colors (702.16, 118.9)."""
    zones: dict = {"battlefield": {"bob": ["White Knight"]}, "hand": {"bob": ["Doom Blade"]}}
    zones.setdefault(zone, {})["alice"] = [{"card": ODD_COLOR}]
    s = _state(**zones)
    r = answer(s, {"kind": "targets", "cast": "doom-blade"})
    assert r["status"] == "unsupported" and r["unsupported"][0]["text"] == ODD_COLOR["text"]


def test_an_unread_own_color_changes_nothing_where_no_text_reads_colors():
    s = _state(hand={"alice": [{"card": ODD_COLOR}], "bob": ["Lightning Bolt"]},
               battlefield={"alice": ["Island", "Island"], "bob": ["Grizzly Bears", "Mountain"]})
    assert _status(s, {"kind": "targets", "cast": "lightning-bolt", "player": "bob"}) == "ok"
    assert _status(s, {"kind": "pay", "cast": "odd-drake"}) == "ok"
    assert _status(s, {"kind": "actions"}) == "ok"


def test_an_unread_creature_type_definition_works_from_the_hand():
    """Not color alone: types reach cost rules ("of the chosen type", CR 601.2f) — blocked from the hand."""
    s = _state(hand={"alice": [{"card": ODD_TYPES}]},
               battlefield={"alice": [{"card": "Herald's Horn", "chosen": {"type": "Elf"}}, "Island", "Island"]})
    assert _status(s, {"kind": "pay", "cast": "odd-mimic"}) == "unsupported"


def test_a_back_face_of_unknown_color_blocks_only_where_colors_are_read():
    face = {"card": "Grasping Shadows", "face": "Shadows' Lair"}
    reads = _state(battlefield={"alice": [face]}, hand={"alice": ["Force of Will", "Brainstorm"]})
    assert _status(reads, {"kind": "targets", "cast": "force-of-will"}) == "unsupported"
    quiet = _state(battlefield={"alice": [face, "Mountain"]}, hand={"alice": ["Lightning Bolt"]})
    assert _status(quiet, {"kind": "pay", "cast": "lightning-bolt"}) == "ok"


# -- the property: the view's colors equal an independent reading of the data ----------------------

ORDINARY = ("Grizzly Bears", "Lightning Bolt", "Counterspell", "Llanowar Elves", "Island", "Mox Opal",
            "Boros Charm", "Kitchen Finks", "Brainstorm", "Emrakul, the Aeons Torn", "Thought-Knot Seer")
_SETS_COLORS = ("are white", "are blue", "are black", "are red", "are green", "are colorless", "same is true for")


@lru_cache(maxsize=None)
def _pool() -> tuple[tuple[str, str], ...]:
    """(card name, zone) pairs a situation can hold: every card of the shipped color data and some
    ordinary ones; a later face only on the battlefield (showing that face), a permanent card
    anywhere, an instant or sorcery anywhere but the battlefield (and a split card not on the
    stack, where a half is named); no card that changes other objects' colors."""
    faces = colors_ref.later_faces()
    out: list[tuple[str, str]] = []
    for name in sorted(colors_ref.color_data()) + list(ORDINARY):
        try:
            card = get_card(name)
        except Exception:
            continue
        d = card.data
        if any(w in d.text.lower() for w in _SETS_COLORS) or d.layout in ("meld", "reversible_card"):
            continue
        if name in faces:
            if faces[name] is not None and d.layout in ("transform", "modal_dfc", "flip") and \
                    not {"Instant", "Sorcery"} & set(d.types):
                out.append((name, "battlefield"))
            continue
        spell = bool({"Instant", "Sorcery"} & set(d.types))
        zones = ["hand", "graveyard", "exile", "library"] + ([] if spell else ["battlefield"])
        if d.layout not in ("split", "aftermath", "adventure", "modal_dfc", "transform", "flip"):
            zones.append("stack")
        out.extend((name, z) for z in zones)
    return tuple(out)


def _board(picks: list[tuple[str, str]]) -> dict:
    d: dict = {"format": "mtgsolve/1", "players": ["alice", "bob"],
               "turn": {"number": 3, "active": "alice", "step": "main1"}}
    for name, zone in picks:
        if zone == "stack":
            d.setdefault("stack", []).append({"card": name, "controller": "alice", "owner": "alice"})
        else:
            d.setdefault(zone, {}).setdefault("alice", []).append(name)
            if zone == "battlefield":   # daybound/nightbound on the battlefield: it is day or night (702.145d)
                kws = {a.name for a in get_card(name).abilities if isinstance(a, ir.Keyword)}
                if kws & {"daybound", "nightbound"}:
                    need = "night" if "nightbound" in kws else "day"
                    d["day_night"] = need if d.get("day_night") in (None, need) else "both"
    return d


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.data())
def test_view_colors_equal_an_independent_reading_of_the_data(data):
    pool = _pool()
    picks = data.draw(st.lists(st.sampled_from(pool), min_size=1, max_size=5))
    board = _board(picks)
    assume(board.get("day_night") != "both")   # a daybound front and a nightbound back face can't be up together
    s = situation_from_dict(board).state
    v = View(s)
    for o in s.objects:
        if o.card is None:
            continue
        face_of = o.front.data.name if o.front is not None else None
        d = o.card.data
        want = colors_ref.printed_colors(d.name, str(d.mana_cost), d.text, face_of)
        if want is colors_ref.UNKNOWN:
            continue
        assert v.chars(o.id).colors == want, (o.id, o.zone, d.name)

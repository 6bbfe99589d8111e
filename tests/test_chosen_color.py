""""Choose a color as it enters" and "one mana of the chosen color" (CR 106.5, 614.12).

The reader compiles the Oracle lines into :class:`~solver.core.ir.EntersWith` with
``choose="color"`` and :class:`~solver.core.ir.Produce` of kind ``chosen_color``;
the engine reads the object's ``chosen`` color (situation key ``chosen``),
adds nothing for an undefined color (CR 106.5), and resolution branches on
the choice as the permanent enters. Instances: instances/mana/chosen_color.yaml,
instances/resolve/coldsteel_heart_chooses_color.yaml.
"""
from __future__ import annotations

import pytest

from mtgsolve.solver.core import ir
from mtgsolve.solver.cards import get_card
from mtgsolve.solver.core.errors import SituationError
from mtgsolve.solver.core.mana import Mana, chosen_color_letter
from mtgsolve.solver.queries import answer
from mtgsolve.solver.io.load import situation_from_dict


def _parts(name: str) -> list:
    return [a for a in get_card(name).abilities]


def test_reader_chosen_color_templates():
    heart = _parts("Coldsteel Heart")
    assert ir.EntersWith(tapped=True) in [ir.EntersWith(tapped=a.tapped) for a in heart if isinstance(a, ir.EntersWith)]
    assert any(isinstance(a, ir.EntersWith) and a.choose == "color" and not a.choose_except for a in heart)
    (mana,) = [a for a in heart if isinstance(a, ir.ManaAbility)]
    assert mana.produce == ir.ChosenColor(amount=1)
    assert get_card("Coldsteel Heart").fully_supported

    bluff = _parts("Thriving Bluff")
    (enters,) = [a for a in bluff if isinstance(a, ir.EntersWith)]
    assert enters.tapped and enters.choose == "color" and enters.choose_except == ("R",)
    (mana,) = [a for a in bluff if isinstance(a, ir.ManaAbility)]
    assert mana.produce == ir.ChosenColor((Mana.parse("{R}"),), amount=1)
    assert get_card("Thriving Bluff").fully_supported

    (trig,) = [a for a in _parts("Utopia Sprawl") if isinstance(a, ir.TriggeredManaAbility)]
    assert trig.produce == ir.ChosenColor(amount=1)


@pytest.mark.parametrize("value,letter", [("green", "G"), ("Blue", "U"), ("b", "B"), ("W", "W"),
                                          ("purple", None), (3, None), ("", None)])
def test_chosen_color_letter(value, letter):
    assert chosen_color_letter(value) == letter


def _board(*objs: dict) -> dict:
    return {"format": "mtgsolve/1", "players": ["alice", "bob"], "battlefield": {"alice": list(objs)}}


@pytest.mark.parametrize("chosen,expect", [({"color": "green"}, ["G"]), ({"color": "R"}, ["R"]), (None, [])])
def test_could_produce_follows_the_chosen_color(chosen, expect):
    obj = {"card": "Coldsteel Heart", "id": "heart"}
    if chosen:
        obj["chosen"] = chosen
    st = situation_from_dict(_board(obj)).state
    assert answer(st, {"kind": "could_produce"})["could_produce"]["heart"] == expect
    pay = answer(st, {"kind": "pay", "cost": "{G}"})
    assert pay["payable"] is (expect == ["G"])


def test_a_color_other_than_red_still_allows_the_fixed_option():
    st = situation_from_dict(_board({"card": "Thriving Bluff", "id": "bluff"})).state
    assert answer(st, {"kind": "could_produce"})["could_produce"]["bluff"] == ["R"]  # no color chosen: {R} only


def test_bad_chosen_color_is_a_located_error():
    with pytest.raises(SituationError) as e:
        situation_from_dict(_board({"card": "Coldsteel Heart", "chosen": {"color": "purple"}}), "f.yaml")
    assert str(e.value) == ("f.yaml: battlefield.alice[0].chosen.color: expected a color (white, blue, black, red, "
                            "green or W, U, B, R, G), got 'purple'")


def test_resolving_a_thriving_land_offers_every_color_but_the_excluded_one():
    doc = {"format": "mtgsolve/1", "players": ["alice", "bob"], "turn": {"active": "alice", "step": "main1"},
           "stack": [{"card": "Thriving Bluff", "id": "bluff", "controller": "alice"}]}
    res = answer(situation_from_dict(doc).state, {"kind": "resolve"})
    colors = sorted(o["choices"]["chosen"][0]["color"] for o in res["outcomes"])
    assert colors == ["black", "blue", "green", "white"]
    for o in res["outcomes"]:
        (perm,) = o["situation"]["battlefield"]["alice"]
        assert perm["tapped"] is True and perm["chosen"] == {"color": o["choices"]["chosen"][0]["color"]}

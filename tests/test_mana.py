"""Mana symbols, costs and amounts (CR 107.4, 202.3, 106.1b)."""
from __future__ import annotations

import pytest
from hypothesis import given, strategies as st

from mtgsolve.solver.core.mana import Mana, ManaCost, ManaSyntaxError, Symbol, parse_symbol

ALL_SYMBOLS = ["{W}", "{U}", "{B}", "{R}", "{G}", "{C}", "{0}", "{1}", "{12}", "{X}", "{S}",
               "{W/U}", "{W/B}", "{U/B}", "{U/R}", "{B/R}", "{B/G}", "{R/G}", "{R/W}", "{G/W}", "{G/U}",
               "{2/W}", "{2/U}", "{2/B}", "{2/R}", "{2/G}", "{C/W}", "{C/U}", "{C/B}", "{C/R}", "{C/G}",
               "{W/P}", "{U/P}", "{B/P}", "{R/P}", "{G/P}",
               "{W/U/P}", "{W/B/P}", "{U/B/P}", "{U/R/P}", "{B/R/P}", "{B/G/P}", "{R/G/P}", "{R/W/P}", "{G/W/P}",
               "{G/U/P}"]


@pytest.mark.parametrize("text", ALL_SYMBOLS)
def test_every_cr_107_4_symbol_round_trips(text):
    assert parse_symbol(text[1:-1]).text == text


@pytest.mark.parametrize("cost,mv", [
    ("{2}{G}{G}", 4), ("{X}{X}", 0), ("{1}{G/W}{G/W}", 3), ("{2/W}{2/W}{2/W}", 6), ("{1}{B/P}{B/P}", 3),
    ("{C/W}", 1), ("{S}{S}", 2), ("{W/U/P}", 1), ("", 0), ("{0}", 0), ("{16}", 16)])
def test_mana_value_cr_202_3(cost, mv):
    assert ManaCost.parse(cost).mana_value == mv


def test_canonical_cost_order():
    assert ManaCost.parse("{G}{2}{X}").text == "{X}{2}{G}"
    assert ManaCost.parse("{G}{W}{1}{1}").text == "{2}{W}{G}"
    assert ManaCost.parse("{0}").text == "{0}"


def test_payment_options():
    assert parse_symbol("W/P").payment_options() == (("W", 1), ("life", 2))
    assert parse_symbol("2/G").payment_options() == (("G", 1), ("*", 2))
    assert parse_symbol("C/U").payment_options() == (("U", 1), ("C", 1))
    assert parse_symbol("G/U/P").payment_options() == (("G", 1), ("U", 1), ("life", 2))
    assert parse_symbol("S").payment_options() == (("S", 1),)
    assert parse_symbol("3").payment_options() == (("*", 3),)


def test_hybrid_is_both_colors_cr_107_4e():
    assert ManaCost.parse("{G/W}").colors == {"G", "W"}
    assert ManaCost.parse("{2/B}").colors == {"B"}
    assert ManaCost.parse("{3}").colors == frozenset()


def test_with_x():
    assert ManaCost.parse("{X}{X}{G}").with_x(3).text == "{6}{G}"
    assert ManaCost.parse("{X}").with_x(0).text == ""


@pytest.mark.parametrize("bad", ["{Q}", "{W/W}", "{P}", "G", "{G}x", "{2/C}", "{", "{W/U/B}"])
def test_bad_symbols(bad):
    with pytest.raises(ManaSyntaxError):
        ManaCost.parse(bad)


def test_pool_strings_are_canonical():
    assert Mana.parse("{G}{W}{C}{W}").text == "{W}{W}{G}{C}"
    assert Mana.parse("{2}").text == "{C}{C}"
    with pytest.raises(ManaSyntaxError):
        Mana.parse("{X}")


@given(st.lists(st.sampled_from(["W", "U", "B", "R", "G", "C"]), max_size=12))
def test_mana_text_round_trip(letters):
    m = Mana.of(letters)
    assert Mana.parse(m.text) == m
    assert m.total == len(letters)
    assert (m + m).total == 2 * len(letters)
    assert m <= m + Mana.of("G")

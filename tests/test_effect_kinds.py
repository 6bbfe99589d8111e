"""Effect kinds as one dataclass per kind (issue 18 item 4): each effect class of
:data:`solver.core.ir.Effect` is a small frozen dataclass with a distinct read-only ``kind``
and a rules citation in its docstring, and the resolution engine has a handler for
every kind it carries out, looked up by the class (an unread effect is refused
before any handler runs)."""
from __future__ import annotations

import dataclasses

import pytest

from mtgsolve.solver.core import ir
from mtgsolve.solver.engine.resolution import _EFFECT_HANDLERS


def test_every_effect_kind_is_its_own_frozen_class():
    kinds = [c.kind for c in ir.EFFECT_CLASSES]
    assert len(set(kinds)) == len(kinds) and all(kinds)
    for cls in ir.EFFECT_CLASSES:
        assert dataclasses.is_dataclass(cls) and cls.__dataclass_params__.frozen  # type: ignore[attr-defined]
        assert "CR " in (cls.__doc__ or ""), cls.__name__
        assert "kind" not in {f.name for f in dataclasses.fields(cls)}  # a class constant, not a field


def test_kind_is_read_only():
    e = ir.Damage(ir.SELF, 2)
    with pytest.raises(dataclasses.FrozenInstanceError):
        e.kind = "destroy"  # type: ignore[misc]
    assert e.kind == "damage" and ir.UnreadEffect("x").kind == "unread"


def test_resolution_dispatches_on_every_modeled_class():
    assert set(_EFFECT_HANDLERS) == set(ir.EFFECT_CLASSES) - {ir.UnreadEffect}


def test_fields_are_only_the_kinds_own():
    assert {f.name for f in dataclasses.fields(ir.Draw)} == {"optional", "amount", "to"}
    assert {f.name for f in dataclasses.fields(ir.UnreadEffect)} == {"optional", "text"}
    assert ir.Fight(ir.SELF, ir.T(0), optional=True).describe() == "you may: this object fights target #1"

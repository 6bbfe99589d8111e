"""The IR families as sum types (issue 23): each kind of a family is its own small frozen
dataclass under the family's base class, with a distinct read-only ``kind`` (a class constant,
never a field) and a rules citation in its docstring, and the code that applies a family looks
kinds up by class (``isinstance`` or a table keyed by class), not by a ``kind`` string.

The last test keeps string dispatch from coming back: no IR class of :mod:`solver.core.ir`
has a ``kind`` *field*, except where a ``kind`` is data rather than the class of the value
(listed in ``KIND_IS_DATA`` with the reason), and trigger events have no ``event`` field."""
from __future__ import annotations

import dataclasses
import inspect

import pytest

from mtgsolve.solver.core import ir
from mtgsolve.solver.io.load import situation_from_dict
from mtgsolve.solver.rules.characteristics import View


def _name(cls: type) -> str:
    """A kind's read-only name: ``kind``, or ``event`` for trigger events."""
    return cls.__dict__.get("kind") or cls.__dict__.get("event") or ""


def _leaves(base: type) -> set[type]:
    """The concrete kinds under ``base``: subclasses with a name of their own."""
    out: set[type] = set()
    todo = list(base.__subclasses__())
    while todo:
        c = todo.pop()
        todo.extend(c.__subclasses__())
        if _name(c):
            out.add(c)
    return out


FAMILIES = [(ir.Static, ir.STATIC_CLASSES), (ir.CastingRule, ir.CASTING_RULE_CLASSES),
            (ir.ActivationCondition, ir.CONDITION_CLASSES), (ir.ManaRider, ir.RIDER_CLASSES),
            (ir.CastingOption, ir.OPTION_CLASSES), (ir.Produce, ir.PRODUCE_CLASSES), (ir.Trigger, ir.TRIGGER_CLASSES)]


@pytest.mark.parametrize("base,classes", FAMILIES, ids=lambda v: getattr(v, "__name__", ""))
def test_every_kind_is_its_own_frozen_class(base, classes):
    assert set(classes) == _leaves(base), "a kind missing from the family's list of classes"
    kinds = [_name(c) for c in classes]
    assert len(set(kinds)) == len(kinds) and all(kinds)
    for cls in classes:
        assert issubclass(cls, base) and dataclasses.is_dataclass(cls)
        assert cls.__dataclass_params__.frozen  # type: ignore[attr-defined]
        assert "CR " in (cls.__doc__ or ""), cls.__name__
        assert not {"kind", "event"} & {f.name for f in dataclasses.fields(cls)}  # a class constant, not a field


@pytest.mark.parametrize("base,classes", FAMILIES, ids=lambda v: getattr(v, "__name__", ""))
def test_no_kind_is_a_subclass_of_another(base, classes):
    """Dispatch by ``isinstance`` picks exactly one kind: no kind class derives from another."""
    for a in classes:
        assert not any(b is not a and issubclass(a, b) for b in classes), a.__name__


def test_static_fields_are_only_the_kinds_own():
    assert {f.name for f in dataclasses.fields(ir.MinBlockers)} == {"text", "condition", "affected", "amount"}
    assert {f.name for f in dataclasses.fields(ir.SpendWhiteAsAny)} == {"text", "condition"}
    assert {f.name for f in dataclasses.fields(ir.StaticPump)} == {"text", "condition", "affected", "power",
                                                                   "toughness", "keywords"}
    s = ir.CantBlock(ir.Selector(self_only=True))
    with pytest.raises(dataclasses.FrozenInstanceError):
        s.kind = "cant_attack"  # type: ignore[misc]
    assert s.kind == "cant_block" and s.describe() == "static (combat, CR 508.1/509.1): this permanent can't block"
    assert isinstance(s, ir.Static) and isinstance(s, ir.CombatStatic)


def test_view_statics_looks_statics_up_by_class():
    sig = inspect.signature(View.statics)
    assert list(sig.parameters) == ["self", "kind"]
    view = View(situation_from_dict({"format": "mtgsolve/1", "players": ["alice", "bob"],
                                     "turn": {"number": 3, "active": "alice", "step": "main1"},
                                     "battlefield": {"alice": ["Celestial Dawn"]}}).state)
    assert [s.ability.kind for s in view.statics(ir.SpendWhiteAsAny)] == ["spend_white_as_any"]
    assert view.statics(ir.CantBlock) == []


#: IR classes whose ``kind`` field is data, not the class of the value.
KIND_IS_DATA = {
    "Ref": "what an effect acts on (a target slot, the source, each opponent …) — a reference, not a behaviour",
    "Unsupported": "what sort of ability an unread part is, as far as known (activated, triggered, static, "
                   "rider or unknown): unread text has no kind class",
    "Skeleton": "the shape of an unread ability (keyword, static, triggered, activated)",
}


def test_no_ir_class_has_a_kind_field_but_the_documented_ones():
    with_kind = sorted(name for name, obj in vars(ir).items()
                       if isinstance(obj, type) and dataclasses.is_dataclass(obj)
                       and obj.__module__.startswith(ir.__name__.rsplit(".", 1)[0])
                       and {"kind", "event"} & {f.name for f in dataclasses.fields(obj)})
    assert with_kind == sorted(KIND_IS_DATA), with_kind


def test_condition_table_has_every_board_condition():
    """:func:`solver.rules.conditions.condition_holds` looks the condition up by class; the kinds
    it leaves out are the ones only statics (CR 611.3a) or non-mana activated abilities carry,
    checked by the characteristics view and :mod:`solver.rules.hand_abilities`."""
    from mtgsolve.solver.rules.conditions import _HOLDS

    elsewhere = {ir.Equipped, ir.SourceAttacking, ir.OpponentControls, ir.HandExactly}
    assert set(_HOLDS) == set(ir.CONDITION_CLASSES) - elsewhere
    assert ir.condition_classes(ir.AllConditions(parts=(ir.YourTurn(), ir.AnyCondition(parts=(ir.IsCreature(),))))) \
        == {ir.AllConditions, ir.YourTurn, ir.AnyCondition, ir.IsCreature}


def _ir_names() -> set[str]:
    """The read-only names of every kind of every family (effects included)."""
    out = {c.kind for c in ir.EFFECT_CLASSES}
    for base, classes in FAMILIES:
        out |= {_name(c) for c in classes}
    return out


def test_no_string_dispatch_on_ir_kinds_in_solver():
    """No ``x.kind == "<an IR kind name>"`` / ``x.event in (…)`` in ``solver/``: the IR is
    dispatched on by class. (Other ``kind`` strings — reader tokens, action kinds, unread parts'
    kinds — are not IR kind names and may stay; a name shared with them would show up here.)"""
    import ast
    from pathlib import Path

    names = _ir_names()
    root = Path(ir.__file__).resolve().parent.parent
    hits = []
    for path in sorted(root.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not (isinstance(node, ast.Compare) and isinstance(node.left, ast.Attribute)
                    and node.left.attr in ("kind", "event")):
                continue
            consts = [c for comp in node.comparators for c in ast.walk(comp)
                      if isinstance(c, ast.Constant) and isinstance(c.value, str)]
            if any(c.value in names for c in consts):
                hits.append(f"{path.relative_to(root)}:{node.lineno}")
    assert hits == [], hits

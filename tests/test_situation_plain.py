"""The loader's plain shape checks (no pydantic: start-up time, issue 16) agree with the pydantic
models of the situation format: on every instance file and on generated documents, the plain
checks either leave a document to the models or give exactly the values the models give."""
from __future__ import annotations

import copy
import datetime
import sys
from pathlib import Path

import pytest
import yaml
from hypothesis import HealthCheck, given, settings, strategies as st
from pydantic import BaseModel, ValidationError

from mtgsolve.solver.io import load as situation
from mtgsolve.solver.io import shape
from mtgsolve.solver.io.load import load_situation, read_document

ROOT = Path(__file__).resolve().parent.parent
FILES = sorted(p for p in (ROOT / "instances").rglob("*") if p.suffix in (".yaml", ".yml", ".json"))


def _same(plain, model, where="") -> None:
    """``plain`` (from the plain checks) holds the values of ``model`` (pydantic's), types included."""
    if isinstance(model, shape.QuerySpec):  # queries are read from the raw document; same content
        assert isinstance(plain, dict) and plain == model.model_dump(), where
    elif isinstance(model, BaseModel):
        assert isinstance(plain, situation._Plain) and plain._model == type(model).__name__, where
        for name in type(model).model_fields:
            _same(getattr(plain, name), getattr(model, name), f"{where}.{name}")
    elif isinstance(model, list):
        assert type(plain) is list and len(plain) == len(model), where
        for i, (a, b) in enumerate(zip(plain, model)):
            _same(a, b, f"{where}[{i}]")
    elif isinstance(model, dict):
        assert type(plain) is dict and list(plain) == list(model), where
        for k in model:
            _same(plain[k], model[k], f"{where}.{k}")
    else:
        assert type(plain) is type(model) and plain == model, (where, plain, model)


def _agree(d) -> bool:
    """The plain checks leave ``d`` to the models, or agree with them; True when they took it."""
    plain = situation._plain_spec(d)
    if plain is None:
        return False
    try:
        model = shape.SituationSpec.model_validate(d)
    except ValidationError as e:  # pragma: no cover - the failure this test looks for
        pytest.fail(f"the plain checks took a document the models reject: {e.errors()[0]}")
    _same(plain, model)
    return True


@pytest.mark.parametrize("cls", [situation._PlainObject, situation._PlainPlayer, situation._PlainTurn,
                                 situation._PlainEffect, situation._PlainSituation, situation._PlainAbility],
                         ids=lambda c: c._model)
def test_plain_defaults_are_the_models(cls):
    model = getattr(shape, cls._model)
    defaults = {name: f.get_default(call_default_factory=True)
                for name, f in model.model_fields.items() if not f.is_required()}
    assert cls._defaults == defaults


def test_plain_checks_know_only_model_keys():
    def keys(model):
        return {f.alias or name for name, f in model.model_fields.items()}
    assert set(situation._OBJECT_CHECKS) <= keys(shape.ObjectSpec)
    assert set(situation._SITUATION_CHECKS) <= keys(shape.SituationSpec)


def test_instance_files_agree_and_mostly_take_the_plain_path():
    taken = 0
    for f in FILES:
        d = read_document(f)
        if isinstance(d, dict) and d.get("format") == situation.FORMAT:
            taken += _agree(d)
    assert taken >= 0.9 * len(FILES), (taken, len(FILES))


def test_loading_a_plain_file_imports_no_pydantic():
    import subprocess

    code = ("import sys\nfrom mtgsolve.solver.io.load import load_situation\n"
            "load_situation('instances/examples/flagbearer_shock.yaml')\n"
            "print(sorted(m for m in sys.modules if m.split('.')[0] in ('pydantic', 'pydantic_core')))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, timeout=120)
    assert out.stdout.strip() == "[]", out.stderr[-2000:]


def test_the_models_still_answer_what_the_plain_checks_leave():
    """An inline card, last_known and errors go through the models (same objects, same messages)."""
    d = yaml.safe_load((ROOT / "instances/examples/flagbearer_shock.yaml").read_text())
    d["battlefield"]["alice"].append({"card": {"name": "Custom Bear", "type": "Creature — Bear",
                                               "types": ["Creature"], "power": 2, "toughness": "2"}})
    assert situation._plain_spec(d) is None
    loaded = situation.situation_from_dict(d, "x.yaml")
    assert "Custom Bear" in [o.card.name for o in loaded.state.objects]
    d["battlefield"]["alice"][0] = {"card": "Mountain", "tapped": "yes"}
    with pytest.raises(situation.SituationError, match=r"battlefield\.alice\[0\]\.tapped: expected true or false"):
        situation.situation_from_dict(d, "x.yaml")


JUNK = st.one_of(
    st.none(), st.booleans(), st.integers(-3, 3), st.sampled_from([10 ** 9, 10 ** 9 + 1, -(10 ** 9) - 1, 1.0, 2.5]),
    st.sampled_from(["", "x" * 200, "x" * 201, "alice", "bob", "main1", "upkeep", "Forest", "\ud800", "kind",
                     "copy", "copy_", "model_config", "_private", "format"]),
    st.just(datetime.date(2024, 1, 1)), st.lists(st.sampled_from(["alice", "", 1, None, ["a"]]), max_size=3),
    st.dictionaries(st.sampled_from(["alice", "bob", "", "source", "index", "kind", "id", 1]),
                    st.sampled_from([0, 1, "x", True, None, [], {}]), max_size=3))


def _paths(d, prefix=()):
    yield prefix, d
    if isinstance(d, dict):
        for k, v in d.items():
            yield from _paths(v, prefix + (k,))
    elif isinstance(d, list):
        for i, v in enumerate(d):
            yield from _paths(v, prefix + (i,))


SEEDS = [read_document(f) for f in FILES[::7]]


@st.composite
def mutated(draw):
    d = copy.deepcopy(draw(st.sampled_from(SEEDS)))
    for _ in range(draw(st.integers(1, 3))):
        paths = [p for p, _ in _paths(d) if p]
        if not paths:
            break
        path = draw(st.sampled_from(paths))
        node = d
        for p in path[:-1]:
            node = node[p]
        op = draw(st.sampled_from(["junk", "junk", "delete", "key"]))
        if op == "junk":
            node[path[-1]] = copy.deepcopy(draw(JUNK))  # sampled values are shared: never mutate them
        elif op == "delete":
            del node[path[-1]]
        elif isinstance(node, dict):
            node[draw(JUNK.filter(lambda k: isinstance(k, (str, int, bool)) or k is None))] = copy.deepcopy(draw(JUNK))
    return d


@settings(max_examples=300, deadline=None, derandomize=True, suppress_health_check=[HealthCheck.too_slow])
@given(mutated())
def test_generated_documents_agree(d):
    if isinstance(d, dict) and d.get("format") == situation.FORMAT:
        _agree(d)


def test_loaded_states_equal_through_either_path(monkeypatch):
    """The same GameState whichever pass checked the shape."""
    for f in FILES[::5]:
        try:
            plain = load_situation(f)
        except situation.SituationError:
            continue
        with monkeypatch.context() as m:
            m.setattr(situation, "_plain_spec", lambda d: None)
            models = load_situation(f)
        assert plain.state == models.state, f

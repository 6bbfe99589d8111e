"""Typed inside, contract dicts only at the edge (issue 23): no public function or method of the
rules, payment and engine stages (``solver/rules``, ``solver/payment``, ``solver/engine``) is
annotated to return a mapping (``dict``, ``Mapping``, ``list[dict]``, ``tuple[…, dict]`` …). They
answer in typed values (frozen dataclasses, the models' typed answers); the contract's JSON objects
are written in ``solver/queries`` (:mod:`solver.queries.payments`, :mod:`solver.queries.results`),
``solver/api`` and ``solver/apps``.

A mapping that is a genuine internal index (id → class, attacker → tax) is allowed by name below,
with the reason; an entry that no longer matches a function fails too, so the list stays exact."""
from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
STAGES = ("solver/rules", "solver/payment", "solver/engine")
# ``JsonObject`` (solver/core/json_value.py) is ``dict[str, Any]``: a mapping under its alias
MAPPING_NAMES = {"dict", "Dict", "Mapping", "MutableMapping", "OrderedDict", "defaultdict", "JsonObject"}

# (file, qualified name) → why a mapping is returned there
ALLOWED: dict[tuple[str, str], str] = {
    ("solver/rules/mana_sources.py", "class_of"):
        "an index: permanent id → its interchangeability class (dict[str, str])",
    ("solver/rules/mana_sources.py", "interchangeable_classes"):
        "an index: class → the ids of its members (dict[str, list[str]])",
    ("solver/rules/mana_sources.py", "could_produce"):
        "an index: source id → the mana types it could produce (dict[str, frozenset[str]])",
    ("solver/rules/replacement.py", "mana_event_outcomes"):
        "an index: mana produced → the orders of replacement effects giving it",
    ("solver/engine/combat.py", "attack_taxes"):
        "an index: player attacked → generic mana per attacking creature (dict[str, int])",
    ("solver/engine/combat.py", "assignment_plans"):
        "typed plans: dealer id → recipient id → damage (dict[str, dict[str, int]])",
    ("solver/rules/faces.py", "select_face"):
        "rewrites a pay/targets query (the query without 'face'), it answers nothing; its home is "
        "the query layer",
}


def _mentions_mapping(node: ast.expr) -> bool:
    for n in ast.walk(node):
        if isinstance(n, ast.Name) and n.id in MAPPING_NAMES:
            return True
        if isinstance(n, ast.Attribute) and n.attr in MAPPING_NAMES:
            return True
        if isinstance(n, ast.Constant) and isinstance(n.value, str):   # a string annotation
            try:
                if _mentions_mapping(ast.parse(n.value, mode="eval").body):
                    return True
            except SyntaxError:
                continue
    return False


def _public_functions(tree: ast.Module):
    """(qualified name, function) for module-level functions and methods of module-level classes,
    public ones only (no leading underscore, on the function or its class)."""
    for node in tree.body:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and not node.name.startswith("_"):
            yield node.name, node
        elif isinstance(node, ast.ClassDef) and not node.name.startswith("_"):
            for item in node.body:
                if isinstance(item, (ast.FunctionDef, ast.AsyncFunctionDef)) and not item.name.startswith("_"):
                    yield f"{node.name}.{item.name}", item


def _returning_mappings() -> dict[tuple[str, str], str]:
    out = {}
    for stage in STAGES:
        for path in sorted((ROOT / stage).rglob("*.py")):
            rel = str(path.relative_to(ROOT))
            for name, fn in _public_functions(ast.parse(path.read_text(encoding="utf-8"))):
                if fn.returns is not None and _mentions_mapping(fn.returns):
                    out[(rel, name)] = ast.unparse(fn.returns)
    return out


def test_no_public_function_of_the_inner_stages_returns_a_mapping():
    found = _returning_mappings()
    bad = {k: v for k, v in found.items() if k not in ALLOWED}
    assert not bad, ("public functions of solver/rules, solver/payment, solver/engine annotated to return a "
                     "mapping (return a typed value; write the contract's object in solver/queries): "
                     + "; ".join(f"{f}:{n} -> {r}" for (f, n), r in sorted(bad.items())))


def test_the_allowed_mappings_are_still_there():
    found = _returning_mappings()
    stale = sorted(k for k in ALLOWED if k not in found)
    assert not stale, f"allowed mappings that no longer exist (remove them from ALLOWED): {stale}"


def test_the_check_sees_a_contract_dict():
    tree = ast.parse("def f() -> dict: ...\nclass C:\n    def to_json(self) -> 'list[dict]': ...\n"
                     "def _g() -> dict: ...\ndef h() -> tuple[int, Mapping[str, int]] | None: ...\n")
    flagged = [n for n, fn in _public_functions(tree) if fn.returns is not None and _mentions_mapping(fn.returns)]
    assert flagged == ["f", "C.to_json", "h"]

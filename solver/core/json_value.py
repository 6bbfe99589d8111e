"""The Python type of a contract JSON object (contract.md: situations, queries, results, moves).

A JSON object's values are genuinely heterogeneous — strings, numbers, booleans, lists and
nested objects, by key — so its value type is ``Any``: a reader of one key narrows it (or the
pydantic schema in ``solver/io`` does).  Fixed-shape values inside the solver are dataclasses
or ``TypedDict``s instead; this alias is for the JSON boundary only.
"""
from __future__ import annotations

from typing import Any, TypeAlias

#: A JSON object as ``json.loads`` returns it and ``json.dumps`` takes it.
JsonObject: TypeAlias = dict[str, Any]

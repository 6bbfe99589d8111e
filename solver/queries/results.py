"""The contract's objects of the engine's typed answers, shared by the query façades and the
API (:mod:`solver.api`): the ``actions`` entries (contract §2.6), the attack and block
declarations (§2.8, §2.9) and the refusal of a question the project can't answer soundly
(§2.0). Payments have their own module, :mod:`solver.queries.payments`."""
from __future__ import annotations

from typing import Any

from ..engine.actions import ActionEntry
from ..engine.combat import AttackDeclaration, BlockDeclaration
from ..rules.soundness.check import UnreadPart, refusal_reason

__all__ = ["action_object", "attack_object", "block_object", "unread_object", "unsupported_result"]


def action_object(e: ActionEntry) -> dict:
    """One entry of the ``actions`` list (contract §2.6): the action head (kind, object,
    index, casting mode), ``targets`` and ``payments`` for ``cast`` and ``activate``
    (``payments`` only for ``suspend``), ``unread`` when not empty, ``face`` when cast as one."""
    d = e.cand.to_json()
    if e.targets is not None:
        d["targets"] = e.targets
    if e.payments is not None:
        d["payments"] = e.payments
    if e.unread:
        d["unread"] = list(e.unread)   # text of the card that can't change this entry (contract §2.0)
    if e.face is not None:
        d["face"] = e.face
    return d


def attack_object(d: AttackDeclaration) -> dict[str, Any]:
    """One declaration of the ``attacks`` answer (contract §2.8): ``attackers`` (id → what it
    attacks) and ``cost`` (``"{N}"``) when it costs mana (CR 508.1h)."""
    out: dict[str, Any] = {"attackers": dict(d.attackers)}
    if d.cost:
        out["cost"] = "{%d}" % d.cost
    return out


def block_object(d: BlockDeclaration) -> dict[str, Any]:
    """One declaration of the ``blocks`` answer (contract §2.9): ``blockers`` (id → the
    attackers it blocks)."""
    return {"blockers": {b: list(a) for b, a in d.blockers}}


def unread_object(p: UnreadPart) -> dict[str, Any]:
    """One entry of an ``unsupported`` list (contract §2.0): the object, its text as printed and
    what it could change."""
    return {"object": p.object, "text": p.text, "affects": list(p.affects)}


def unsupported_result(kind: str, parts: list[UnreadPart]) -> dict[str, Any]:
    """The ``unsupported`` answer of a ``kind`` query refused for ``parts`` (contract §2.0):
    the parts, and one sentence saying why."""
    return {"kind": kind, "status": "unsupported", "unsupported": [unread_object(p) for p in parts],
            "reason": refusal_reason(kind, parts)}

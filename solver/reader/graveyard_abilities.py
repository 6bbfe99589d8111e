"""Activated abilities that work from the graveyard (CR 113.6k): "[cost], Exile this card from your
graveyard: [effect]" — the cost moves the card out of its owner's graveyard, so the ability functions
only there (CR 113.6k), and exiling it is part of the cost (CR 602.2b, 601.2h, 406.2): every payment
exiles the same card. The ability is an :class:`~solver.core.ir.ActivatedAbility` with
``zone="graveyard"`` and ``cost.exile_self``; only the card's owner activates it (CR 602.2), at
instant speed unless "Activate only as a sorcery" (CR 602.5d).

What is not read here (the line stays with the other templates, or unread): a cost that taps,
untaps, sacrifices, removes or puts counters on the card (it is not a permanent), one that also
exiles other graveyard cards (which cards could be chosen depends on the order of payment), an
effect that names the card (it is in exile by then), and a mana ability (CR 605.1a).
"""
from __future__ import annotations

from dataclasses import replace
from typing import Sequence

from ..core.ir import ActivatedAbility, Cost
from . import grammar as g
from . import structure
from .structure import structured_sentences
from .tokens import Token

__all__ = ["line_graveyard_ability"]


def _exile_from_graveyard(item: Sequence[Token]) -> bool:
    """"Exile this card from your graveyard" / "Exile <its name> from your graveyard" as a cost item."""
    return len(item) == 5 and item[0].low == "exile" and item[1].kind == "SELF" \
        and [t.low for t in item[2:]] == ["from", "your", "graveyard"]


def _rest_cost(rest: Sequence[Sequence[Token]], comma: Token) -> Cost:
    """The cost read from the items left once exiling the card is taken out (CR 602.1a)."""
    joined: list[Token] = []
    for i, it in enumerate(rest):
        joined += ([comma] if i else []) + list(it)
    return g.parse_cost(joined) if joined else Cost()


def _body(sents: Sequence[Sequence[Token]], s) -> int:
    """The effect sentences read into scope ``s`` (the effect grammar first for one sentence, else
    their structure with unread effects); returns the number of unread sentences."""
    if len(sents) == 1:
        try:
            g.effect_sentence(sents[0], s)
            return 0
        except g.NoMatch:
            s.targets.clear()
            s.effects.clear()
        return structured_sentences(sents, s, retry=False)
    return structured_sentences(sents, s, retry=True)


def _graveyard_cost(cost: Cost) -> Cost:
    """The cost with exiling the card, when every other part can be paid while it is in a graveyard."""
    if cost.tap or cost.untap or cost.sacrifice_self or cost.remove_counters or cost.tap_other_creatures \
            or cost.put_counters or cost.discard_hand or cost.remove_x_counters or cost.loyalty is not None \
            or cost.exile_self or cost.discard_self or cost.exile_graveyard or cost.return_self:
        raise g.NoMatch("a cost part of a permanent, or a second graveyard exile")
    return replace(cost, exile_self=True)


def line_graveyard_ability(toks: Sequence[Token], ctx, raw: str) -> tuple[list, int]:
    """"[cost], Exile this card from your graveyard: [effect]. [Activate only as a sorcery.]" (CR 113.6k)."""
    k = g.find_top(toks, ":")
    if k <= 0:
        raise g.NoMatch("no colon")
    items = g.split_top(toks[:k], ",")
    mine = [it for it in items if _exile_from_graveyard(it)]
    if len(mine) != 1:
        raise g.NoMatch("no 'Exile this card from your graveyard' in the cost")
    comma = next((t for t in toks[:k] if t.kind == "PUNCT" and t.low == ","), None)
    rest = [it for it in items if not _exile_from_graveyard(it)]
    cost = _graveyard_cost(_rest_cost(rest, comma) if comma is not None else Cost())
    eff = toks[k + 1:]
    if any(t.kind == "SELF" for t in eff):
        raise g.NoMatch("the effect names the card, which the cost exiled")
    sents = g.sentences(eff)
    if not sents or any(t.low == "add" for t in sents[0][:3]):
        raise g.NoMatch("a mana ability (CR 605.1a)")
    sorcery, body = structure.sorcery_sentence(sents)
    s = g.Scope(last=None, source_is_permanent=False, x_defined=g.cost_has_x(cost))
    n = _body(body, s)
    return [ActivatedAbility(cost, tuple(s.targets), tuple(s.effects), sorcery, raw, zone="graveyard")], n

"""Costs that return a permanent to its owner's hand (CR 602.2b, 601.2h): "Return a Forest you control
to its owner's hand: Untap target creature. Activate only once each turn." (Quirion Ranger, Scryb
Ranger), "Return an Elf you control …" (Wirewood Symbiote). The Python API lists, checks and applies
them: the permanent returned is part of the action's payment (``returning``, the ``pay`` query's
``return``), moved to its owner's hand by the kernel's one payment (a new object, CR 400.7)."""
from __future__ import annotations

import pytest

from mtgsolve.solver.api import Action, IllegalActionError, Situation
from mtgsolve.solver.api.encoding import ActionEncoding, completions
from mtgsolve.solver.cards import oracle_index
from mtgsolve.solver.io.load import situation_from_dict
from mtgsolve.solver.queries import answer


def _sit(alice: list, bob: list | None = None) -> Situation:
    return Situation(situation_from_dict({
        "format": "mtgsolve/1", "players": ["alice", "bob"], "turn": {"number": 3, "active": "alice", "step": "main1"},
        "battlefield": {"alice": alice, "bob": bob or []}}).state)


def test_every_return_cost_line_of_the_database_is_read() -> None:
    """The shape over the database: each "Return a(n) <permanent> you control to its owner's hand: …" cost of
    the three cards that have it alone is read as an activated ability with a return cost."""
    from mtgsolve.solver.cards import get_card
    from mtgsolve.solver.core import ir
    import re

    names = [c["name"] for c in oracle_index().values()
             if re.search(r"(?m)^Return an? [A-Z]\w+ you control to its owner's hand:", c.get("text") or "")]
    assert len(names) >= 3
    for n in names:
        acts = [a for a in get_card(n).abilities if isinstance(a, ir.ActivatedAbility) and a.cost.return_ is not None]
        assert acts, n


def test_quirion_ranger_returns_the_forest_named_by_the_payment() -> None:
    sit = _sit(["Quirion Ranger", "Forest", {"card": "Forest", "tapped": True}], ["Grizzly Bears"])
    acts = [str(a) for a in sit.legal_actions if a.kind == "activate"]
    assert acts == [f"activate quirion-ranger:1 -> {t} paying returning {f}"
                    for t in ("grizzly-bears", "quirion-ranger") for f in ("forest", "forest-2")]
    after = sit.apply("activate quirion-ranger:1 -> grizzly-bears paying returning forest-2")
    assert after.state.obj("forest-2").zone == "hand" and after.state.obj("forest").zone == "battlefield"
    assert [o.zone for o in after.state.objects if o.ability is not None] == ["stack"]
    # once each turn (CR 602.5b): no second activation
    assert not [a for a in after.legal_actions if a.kind == "activate"]
    with pytest.raises(IllegalActionError):
        sit.apply("activate quirion-ranger:1 -> grizzly-bears paying returning quirion-ranger")


def test_wirewood_symbiote_returns_an_elf_to_its_owners_hand() -> None:
    """The Elf returned may be one Alice controls but Bob owns: it goes to Bob's hand (CR 400.3)."""
    sit = Situation(situation_from_dict({
        "format": "mtgsolve/1", "players": ["alice", "bob"], "turn": {"number": 3, "active": "alice", "step": "main1"},
        "battlefield": {"alice": ["Wirewood Symbiote", {"card": "Llanowar Elves", "owner": "bob"}],
                        "bob": ["Grizzly Bears"]}}).state)
    after = sit.apply("activate wirewood-symbiote:1 -> grizzly-bears paying returning llanowar-elves")
    elf = after.state.obj("llanowar-elves")
    assert elf.zone == "hand" and elf.owner == "bob"


def test_api_listing_encoding_and_counts_agree_with_the_query() -> None:
    sit = _sit(["Wirewood Symbiote", "Llanowar Elves", "Llanowar Elves", "Quirion Ranger", "Forest"], ["Grizzly Bears"])
    summary = answer(sit.state, {"kind": "actions"})
    assert summary["status"] == "ok"
    assert sit.legal_actions.count() == sum(e.get("targets", 1) * e.get("payments", 1) for e in summary["actions"])
    enc = ActionEncoding(sit)
    m = enc.mask(sit)
    heads = [enc.decode(sit, i) for i in range(enc.size) if m[i]]
    assert {str(h) for h in heads} == {"pass", "activate quirion-ranger:1", "activate wirewood-symbiote:1"}
    for h in heads:
        for a in completions(sit, h):
            assert Action.parse(str(a)) == a
            after = sit.apply(a)
            (gone,) = a.payment.returned if a.payment else ("",)
            if a.kind == "activate":
                assert after.state.obj(gone).zone == "hand"


def test_a_payment_moving_the_wrong_card_is_not_legal() -> None:
    """The cards a payment exiles, discards or returns are part of it (payment_key): Force of Will
    can't exile a green card, Quirion Ranger can't return a non-Forest (CR 601.2h, 118.9)."""
    sit = Situation(situation_from_dict({
        "format": "mtgsolve/1", "players": ["alice", "bob"],
        "turn": {"number": 3, "active": "bob", "step": "main1", "priority": "alice"},
        "battlefield": {"alice": ["Island"]}, "hand": {"alice": ["Force of Will", "Brainstorm", "Brainstorm", "Grizzly Bears"]},
        "stack": [{"card": "Lightning Bolt", "controller": "bob", "targets": [["alice"]]}]}).state)
    fow = 'cast force-of-will alternative="pay 1 life and exile a blue card from your hand" -> lightning-bolt paying life 1'
    assert sit.is_legal(fow + " exiling brainstorm") and sit.is_legal(fow + " exiling brainstorm-2")
    assert not sit.is_legal(fow + " exiling grizzly-bears")

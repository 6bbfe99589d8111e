""""Any number of target …" (CR 601.2c, 115.1) and "Draw a card for each card returned to your hand this way"
(608.2c): the reader over the database, the targets and actions queries, resolution (Paradoxical Outcome:
each chosen permanent to its owner's hand, 400.3; the caster draws for those that went to their hand), and a
differential test against tests/reference/bounce_draw_ref.py on random small boards."""
from __future__ import annotations

import gzip
import json
import os
import re

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from reference.bounce_draw_ref import reference_choices, reference_result
from mtgsolve.solver.cards import get_card
from mtgsolve.solver.core import ir
from mtgsolve.solver.io.load import situation_from_dict
from mtgsolve.solver.queries import Options, answer

EXAMPLES = int(os.environ.get("MTGSOLVE_EXAMPLES", "40"))
DATA = os.path.join(os.path.dirname(__file__), "..", "solver", "data", "oracle-cards.json.gz")


def test_reader_reads_any_number_of_targets():
    po = get_card("Paradoxical Outcome")
    assert po.spell is not None and not po.unsupported
    (spec,) = po.spell.targets
    assert spec.min == 0 and spec.max == ir.ANY_NUMBER and spec.filter.token is False
    ret, draw = po.spell.effects
    assert isinstance(ret, ir.ReturnToHand) and ret.to == ir.Ref("each_target", 0)
    assert isinstance(draw, ir.Draw) and draw.amount == ir.Count(ir.Selector(), what="returned_to_hand", slot=0)
    assert spec.describe().startswith("any number of target")


def test_any_number_of_targets_is_read_exactly_never_looser():
    """"Tap any number of target creatures." (moved from the unreadable targets of
    tests/test_reader_structure.py): its target is now described exactly — zero or more creatures."""
    from mtgsolve.solver.cards import card_from_mapping

    c = card_from_mapping({"name": "Test Card", "type": "Sorcery", "types": ["Sorcery"], "manaCost": "{U}",
                           "text": "Tap any number of target creatures."})
    assert c.spell is not None
    (spec,) = c.spell.targets
    assert (spec.min, spec.max, spec.filter.types) == (0, ir.ANY_NUMBER, frozenset({"Creature"}))


def test_cards_with_any_number_of_targets_read_their_targets():
    """Every card whose line says "any number of target" is read there or stays an unread part naming the
    line (never read as a fixed number of targets)."""
    cards = json.load(gzip.open(DATA))
    names = [c["name"] for c in cards if re.search(r"any number of (?:other )?target", c.get("text") or "", re.I)]
    assert len(names) >= 20
    for name in names:
        card = get_card(name)
        for a in [card.spell, *card.abilities]:
            for spec in getattr(a, "targets", ()) or ():
                assert spec.max in (1, ir.ANY_NUMBER) or spec.max <= 10, (name, spec)


BF = ["Sol Ring", "Grizzly Bears", "Memnite", "Island", "Ornithopter"]


@st.composite
def boards(draw):
    mine = []
    for i in range(draw(st.integers(0, 4))):
        o = {"card": draw(st.sampled_from(BF)), "id": f"m{i}"}
        if draw(st.integers(0, 3)) == 0:
            o["token"] = True
        if draw(st.integers(0, 3)) == 0:
            o["owner"] = "bob"
        mine.append(o)
    theirs = [{"card": draw(st.sampled_from(BF)), "id": f"t{i}"} for i in range(draw(st.integers(0, 2)))]
    library = [{"card": "Opt", "id": f"l{i}"} for i in range(3)]
    return {"format": "mtgsolve/1", "players": ["alice", "bob"], "turn": {"number": 3, "active": "alice",
            "step": "main1"}, "battlefield": {"alice": mine, "bob": theirs}, "library": {"alice": library},
            "hand": {"alice": [{"card": "Paradoxical Outcome", "id": "po"}]}}


def _zones(situation: dict) -> dict[str, list[str]]:
    out = {f"hand:{p}": sorted(o["id"] for o in objs if o["id"] != "po")
           for p, objs in situation.get("hand", {}).items()}
    out = {k: v for k, v in out.items() if v}
    out["battlefield"] = sorted(o["id"] for objs in situation.get("battlefield", {}).values() for o in objs)
    return out


@settings(max_examples=EXAMPLES, deadline=None, derandomize=os.environ.get("CI") == "true",
          suppress_health_check=[HealthCheck.too_slow])
@given(boards(), st.data())
def test_targets_and_resolution_match_the_reference(d, data):
    state = situation_from_dict(d).state
    got = answer(state, {"kind": "targets", "cast": "po"}, Options(max_results=10_000))
    want = reference_choices(d, "alice")
    assert got["status"] == "ok" and sorted(sorted(c[0]) for c in got["choices"]) == want
    chosen = data.draw(st.sampled_from(want))
    stacked = json.loads(json.dumps(d))
    stacked["hand"]["alice"] = []
    stacked["stack"] = [{"card": "Paradoxical Outcome", "id": "po", "controller": "alice", "targets": [chosen]}]
    res = answer(situation_from_dict(stacked).state, {"kind": "resolve"}, Options())
    assert res["status"] == "ok" and res["count"] == 1, res
    ref = reference_result(d, "alice", chosen)
    ref = {k: v for k, v in ref.items() if v or k == "battlefield"}
    assert _zones(res["outcomes"][0]["situation"]) == ref, (json.dumps(stacked), res["outcomes"][0])

"""The action encoding's OptionPicker (solver/api/encoding.py): a decision with more distinct values of one
list-valued feature than slots (a delve payment's exiled cards among a large graveyard, found by the games
benchmark) is chosen element by element; every option stays reachable, none is offered twice."""
from __future__ import annotations

import itertools
import json

from mtgsolve.solver.api.encoding import OptionPicker


class _Opt:
    def __init__(self, exile: list[str]):
        self.choices = {"payment": {"exile": exile}, "x": 0}

    def __repr__(self) -> str:
        return json.dumps(self.choices)


def _reach(picker: OptionPicker, target: _Opt) -> object:
    want = {"/payment/exile": json.dumps(target.choices["payment"]["exile"])}
    while True:
        labels = picker.slots()
        assert 1 < len(labels) <= picker.max_options
        key = labels[0].split(" = ")[0]
        if key in want:
            value = want[key]
        else:   # an element of the list: path[j]
            path, j = key[:key.rindex("[")], int(key[key.rindex("[") + 1:-1])
            items = json.loads(want[path])
            value = json.dumps(items[j]) if j < len(items) else "None"
        slot = next(i for i, lab in enumerate(labels) if lab.split(" = ", 1)[1] == value)
        got = picker.pick(slot)
        if got is not None:
            return got


def test_every_option_of_a_large_list_feature_is_reachable():
    cards = [f"c{i:02d}" for i in range(12)]
    options = [_Opt(list(c)) for n in (2, 3) for c in itertools.combinations(cards, n)]   # 66 + 220 = 286
    assert len({json.dumps(o.choices) for o in options}) == len(options) > 256
    for target in options[::7] + options[-3:]:
        assert _reach(OptionPicker(options, 256), target) is target

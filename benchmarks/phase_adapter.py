"""phase.rs's ``actions()`` on a given board, for side-by-side benchmarks (optional extra ``bench``).

phase-python (MIT; Python bindings of the phase.rs rules engine) needs a
``card-data.json``; its ``phase-gen`` downloads MTGJSON, which this machine
can't reach. The project's own card database (``solver/data/oracle-cards.json.gz``)
has the MTGJSON fields phase.rs reads, so the few faces a benchmark needs are
built from it offline with ``phase.build_oracle_face`` (``manaValue`` and
``colors`` filled in from the mana cost).

A board is set up by starting a game (both players keep), then moving the
wanted permanents from library and hand onto the battlefield (as if they had
entered on turn 1, so creatures aren't summoning sick) and the wanted spells
into the hand, in the precombat main phase of turn 5 with a land already
played and the active player holding priority; ``Engine.load_game`` loads
that state. Nothing here is imported by the solver.
"""
from __future__ import annotations

import copy
import gzip
import json
import statistics
import time
from pathlib import Path

DB = Path(__file__).resolve().parent.parent / "solver" / "data" / "oracle-cards.json.gz"


def _faces(names: set[str]) -> dict:
    from phase import build_oracle_face

    from mtgsolve.solver.core.mana import ManaCost

    with gzip.open(DB, "rt", encoding="utf-8") as f:
        cards = json.load(f)
    out = {}
    for c in cards:
        if c.get("name") not in names:
            continue
        c = dict(c)
        mc = c.get("manaCost") or ""
        c.setdefault("colors", [ch for ch in "WUBRG" if "{" + ch in mc])
        c.setdefault("manaValue", float(ManaCost.parse(mc).mana_value) if mc else 0.0)
        c.setdefault("identifiers", {})
        c.setdefault("legalities", {})
        if c.get("keywords") is None:
            c["keywords"] = []
        out[c["name"].lower()] = build_oracle_face(c, None)
    missing = names - {n for n in names if n.lower() in out}
    if missing:
        raise LookupError(f"cards missing from {DB.name}: {sorted(missing)}")
    return out


def _craft(st: dict, boards: tuple[tuple[list[str], list[str]], tuple[list[str], list[str]]]) -> dict:
    s = st["state"]
    objs = s["objects"]
    battlefield = []
    for pid, (want_bf, want_hand) in enumerate(boards):
        pl = s["players"][pid]
        pool = pl["library"] + pl["hand"]
        by_name: dict[str, list[int]] = {}
        for oid in pool:
            by_name.setdefault(objs[str(oid)]["name"], []).append(oid)
        take_bf = [by_name[n].pop() for n in want_bf]
        take_hand = [by_name[n].pop() for n in want_hand]
        used = set(take_bf) | set(take_hand)
        pl["library"] = [o for o in pool if o not in used]
        pl["hand"] = take_hand
        for o in pl["library"]:
            objs[str(o)]["zone"] = "Library"
        for o in take_hand:
            objs[str(o)]["zone"] = "Hand"
        for o in take_bf:
            objs[str(o)]["zone"] = "Battlefield"
            objs[str(o)]["entered_battlefield_turn"] = 1
        battlefield += take_bf
        pl["lands_played_this_turn"] = 1 if pid == 0 else 0
    s["battlefield"] = battlefield
    s["phase"] = "PreCombatMain"
    s["turn_number"] = 5
    s["lands_played_this_turn"] = 1
    return st


def game(lands: list[str], spells: list[str], opponent: list[str]):
    """A phase.rs game with ``lands`` on Alice's battlefield, ``spells`` in her hand and
    ``opponent`` on Bob's battlefield, Alice holding priority in her main phase."""
    from phase import Engine

    names = set(lands) | set(spells) | set(opponent) | {"Forest", "Island"}
    eng = Engine.from_json(json.dumps(_faces(names)))
    filler = max(0, 60 - len(lands) - len(spells))
    g = eng.new_game(list(lands) + list(spells) + ["Forest"] * filler, list(opponent) + ["Island"] * 60,
                     seed=1, first_player=0)
    for _ in range(8):
        w = g.waiting_for()
        if w.get("type") != "MulliganDecision":
            break
        who = w["data"]["pending"][0]["player"]
        keep = [a for a in g.actions() if "Keep" in repr(a)]
        g.apply(who, keep[0])
    st = _craft(copy.deepcopy(g.state()), ((list(lands), list(spells)), (list(opponent), [])))
    return eng.load_game(st)


def actions_ms(lands: list[str], spells: list[str], reps: int,
               opponent: tuple[str, ...] = ("Grizzly Bears", "White Knight", "Balduvian Bears", "Island", "Swamp")
               ) -> tuple[float, int]:
    """Median wall time (ms) of phase.rs's ``Game.actions()`` on the board, and how many actions it lists."""
    g = game(lands, spells, list(opponent))
    n = len(g.actions())
    ws = []
    for _ in range(max(reps, 5) * 3):
        t = time.perf_counter()
        g.actions()
        ws.append(time.perf_counter() - t)
    return statistics.median(ws) * 1e3, n

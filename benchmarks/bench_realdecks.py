"""Real-decks benchmark (issues 14, 15, 24): ``python -m benchmarks.bench_realdecks
[--boards N] [--seed S] [--timeout T] [--max-results M] [--json OUT] [--quick] [--decks heldout|DIR]
[--front-faces] [--references] [--records RUN.json]``.

Generates mid-game boards from the decklists of ``benchmarks/decks/``
(:mod:`benchmarks.realdecks`), loads each through the normal loader
(:func:`solver.io.load.situation_from_dict`) and answers every query through
:func:`solver.queries.answer` with ``Options(max_results, timeout)``, catching
exceptions. It prints, per query kind, the share of results by status (``ok``,
``truncated``, ``unsupported``, ``error``, ``timeout``, and ``exception`` for a
raised exception) with p50/p95 wall times; the unread texts that block the
most answers (from the ``unsupported`` entries of results, contract §2.0:
grouped by card name and text, counting answers blocked); and the share of
answers that are ``ok`` while the board holds some card with unread text;
and (issue 24) per query kind the share ``ok`` on all boards, on boards holding
a card of several faces (``Front // Back``, any zone) and on the others, with the
refusals whose reason is a missing or unrecorded face (:func:`face_refusal`:
``held`` — the card data holds the card's faces, which must be 0 — ``missing``,
``query``). ``--front-faces`` generates every object front face up (the boards
of the generator before issue 24); ``--records RUN.json`` reports an earlier
run's records (its ``--json``, e.g. made on an older commit) instead of answering.

:func:`run_boards` and :func:`summarize` return plain dicts, for tests and
other benchmarks. Timings are never asserted anywhere.
"""
from __future__ import annotations

import argparse
import json
import re
import statistics
import sys
import time
import traceback
from collections import Counter, defaultdict
from typing import Any, Iterable

from benchmarks import readme
from benchmarks.realdecks import generate_boards, load_decks

STATUSES = ("ok", "truncated", "unsupported", "error", "timeout", "exception")
KIND_ORDER = ("actions", "targets", "pay", "available_mana", "could_produce", "resolve")


# ---------------------------------------------------------------------------
# Unread text on a board
# ---------------------------------------------------------------------------

def _unread_effect_texts(ability: Any) -> list[str]:
    return [e.text for e in getattr(ability, "effects", ()) or ()
            if getattr(e, "kind", "") == "unread" and getattr(e, "text", "")]


def card_unread_lines(card: Any) -> list[str]:
    """The printed texts of a card's lines that were not read at all
    (:class:`solver.core.ir.Unsupported` parts), in printed order."""
    return [u.text or u.what for u in getattr(card, "unsupported", ())]


def card_unread_texts(card: Any) -> list[str]:
    """Every unread part of a card: whole lines not read and unread effects of
    partially read abilities (INTERFACES.md §1)."""
    out = card_unread_lines(card)
    for a in getattr(card, "abilities", ()):
        out.extend(_unread_effect_texts(a))
    if getattr(card, "spell", None) is not None:
        out.extend(_unread_effect_texts(card.spell))
    return out


def board_unread(state: Any) -> list[tuple[str, str, str]]:
    """(object id, card name, text) of every unread part of every object of
    the situation (any zone). Uses :func:`solver.rules.soundness.check.unread_parts` when
    the soundness layer is present, else the cards' own unread parts."""
    import importlib

    names = {o.id: (o.card.name if o.card is not None else "") for o in state.objects}
    try:
        unread_parts: Any = importlib.import_module("mtgsolve.solver.rules.soundness.check").unread_parts
    except (ImportError, AttributeError):
        unread_parts = None
    if unread_parts is not None:
        try:
            return [(p.object, names.get(p.object, ""), p.text) for p in unread_parts(state)]
        except Exception:  # noqa: BLE001 - fall back to the cards' own parts
            pass
    out: list[tuple[str, str, str]] = []
    for o in state.objects:
        if o.card is not None:
            out.extend((o.id, o.card.name, t) for t in card_unread_texts(o.card))
    return out


# ---------------------------------------------------------------------------
# Running
# ---------------------------------------------------------------------------

def _warm_up(opts: Any) -> None:
    """Import every query module and fill the card caches once, so the first
    timed query does not pay the process's start-up (imports, card database)."""
    from mtgsolve.solver.cards import oracle_index
    from mtgsolve.solver.queries import answer
    from mtgsolve.solver.io.load import situation_from_dict

    oracle_index()
    warm = {"format": "mtgsolve/1", "players": ["alice", "bob"],
            "battlefield": {"alice": ["Mountain", "Forest", "Llanowar Elves"], "bob": ["Grizzly Bears"]},
            "hand": {"alice": ["Lightning Bolt"]}, "stack": [{"card": "Shock", "controller": "bob",
                                                              "targets": [["alice"]]}]}
    state = situation_from_dict(warm).state
    for q in ({"kind": "actions"}, {"kind": "pay", "cast": "lightning-bolt"},
              {"kind": "targets", "cast": "lightning-bolt"}, {"kind": "available_mana"},
              {"kind": "could_produce"}, {"kind": "resolve"}):
        try:
            answer(state, q, opts)
        except Exception:  # noqa: BLE001 - only warming caches; real failures are counted later
            pass


def _decks_of(board: dict) -> list[str]:
    """The deck keys a generated board was built from (its description says so)."""
    import re

    m = re.search(r"from (\S+) and (\S+) \(seed", str(board.get("description") or ""))
    return [m.group(1), m.group(2)] if m else []


#: A card of several faces (CR 709, 710, 712, 715): its name is ``Front // Back``.
def is_two_faced(name: str) -> bool:
    return " // " in name


def _board_two_faced(state: Any) -> bool:
    """The board holds a card of several faces, in any zone (``whole``: the card, whichever face is up)."""
    return any(o.whole is not None and is_two_faced(o.whole.name) for o in state.objects)


_FACE_PART = re.compile(r"which face of this \w+ is up is not recorded|\(the other face of .+, layout \w+\): "
                        r"not in the card database|which face .* is not recorded")
_ON_ADVENTURE = re.compile(r"is on an adventure: its owner may cast the creature from exile")
_FACE_LIMIT = re.compile(r"is a split card: it is cast as one of its halves|which face .* not recorded")


def face_refusal(rec: dict) -> str | None:
    """Why an ``unsupported`` answer is refused for a missing or unrecorded face, or None: ``held``
    when the card data holds every face of the card (it must never happen), ``missing`` when it lacks
    one (card-faces.md: 21 cards stay unread), ``query`` for an engine limit about faces (a split card
    asked about without its half)."""
    from mtgsolve.solver.cards.faces import face_record

    if rec["status"] != "unsupported":
        return None
    cards = [u.get("whole") or u.get("card") or "" for u in rec["unsupported"] if _FACE_PART.search(u.get("text") or "")]
    if cards:
        return "missing" if any(face_record(c) is None for c in cards) else "held"
    return "query" if not rec["unsupported"] and _FACE_LIMIT.search(rec.get("message") or "") else None


def run_boards(boards: Iterable[dict], *, max_results: int = 1000, timeout: float | None = 10.0,
               progress: bool = False, warmup: bool = True) -> list[dict]:
    """Load every board and answer every one of its queries. One record per
    query: ``board`` (index), ``name``, ``kind``, ``query``, ``status``
    (``exception`` when it raised), ``seconds``, ``message`` (exception or
    error text), ``unsupported`` (the result's entries, each with ``card``),
    ``board_unread`` (the board holds an unread part), ``result``. A board that
    fails to load gives one record of kind ``load``."""
    from mtgsolve.solver.core.errors import MtgsolveError
    from mtgsolve.solver.queries import Options, answer
    from mtgsolve.solver.io.load import situation_from_dict

    opts = Options(max_results=max_results, timeout=timeout)
    records: list[dict] = []
    boards = list(boards)
    if warmup:
        _warm_up(opts)
    t0 = time.perf_counter()
    for i, board in enumerate(boards):
        if progress and i and i % 25 == 0:
            print(f"  … {i}/{len(boards)} boards, {time.perf_counter() - t0:.0f} s", file=sys.stderr, flush=True)
        try:
            loaded = situation_from_dict(board, source=f"board[{i}]")
        except Exception as e:  # noqa: BLE001 - every failure is a finding
            records.append({"board": i, "name": board.get("name"), "kind": "load", "query": None,
                            "status": "exception", "seconds": 0.0, "message": f"{type(e).__name__}: {e}",
                            "unsupported": [], "board_unread": False, "result": None})
            continue
        state = loaded.state
        unread = board_unread(state)
        names: dict[Any, str] = {o.id: (o.card.name if o.card is not None else "") for o in state.objects}
        wholes: dict[Any, str] = {o.id: (o.whole.name if o.whole is not None else "") for o in state.objects}
        two_faced = _board_two_faced(state)
        zones: dict[Any, str] = {o.id: o.zone for o in state.objects}
        for q in loaded.queries:
            rec: dict[str, Any] = {"board": i, "name": board.get("name"), "kind": q.get("kind"), "query": q,
                                   "decks": _decks_of(board),
                                   "board_unread": bool(unread), "unsupported": [], "message": "",
                                   "two_faced": two_faced}
            t = time.perf_counter()
            try:
                res = answer(state, dict(q), opts)
                rec["status"] = res.get("status", "ok")
                rec["result"] = res
                if rec["status"] == "error":
                    rec["message"] = str(res.get("error") or res.get("reason") or "")
                if rec["status"] == "unsupported" and not res.get("unsupported"):
                    rec["message"] = str(res.get("reason") or "")  # an engine limit, not unread text
                for u in res.get("unsupported") or ():
                    if isinstance(u, dict):
                        rec["unsupported"].append({"object": u.get("object"), "text": u.get("text"),
                                                   "affects": u.get("affects"),
                                                   "card": names.get(u.get("object"), u.get("object") or ""),
                                                   "whole": wholes.get(u.get("object"), ""),
                                                   "zone": zones.get(u.get("object"), "")})
            except MtgsolveError as e:
                rec["status"] = "exception"
                rec["message"] = f"{type(e).__name__}: {e}"
                rec["result"] = None
            except Exception as e:  # noqa: BLE001
                rec["status"] = "exception"
                tb = traceback.extract_tb(e.__traceback__)[-1]
                rec["message"] = f"{type(e).__name__}: {e} (at {tb.filename.split('/')[-1]}:{tb.lineno})"
                rec["result"] = None
            rec["seconds"] = time.perf_counter() - t
            records.append(rec)
    return records


def _card_names(doc: dict) -> Iterable[str]:
    for zone in ("battlefield", "hand", "graveyard", "exile", "library", "command"):
        for objs in (doc.get(zone) or {}).values():
            yield from (o["card"] for o in objs if isinstance(o.get("card"), str))
    yield from (o["card"] for o in doc.get("stack") or () if isinstance(o.get("card"), str))


def saved_records(path: str, boards: list[dict]) -> list[dict]:
    """The records of an earlier run (its ``--json``), on ``boards`` — the same boards, regenerated —
    with ``two_faced`` from the boards' card names where the run did not record it (runs before issue
    24: ``--front-faces`` regenerates their boards)."""
    with open(path, encoding="utf-8") as f:
        records = json.load(f)["records"]
    for r in records:
        r.setdefault("two_faced", any(is_two_faced(n) for n in _card_names(boards[r["board"]])))
    return records


def _pct(xs: list[float], p: float) -> float:
    if not xs:
        return 0.0
    xs = sorted(xs)
    k = min(len(xs) - 1, max(0, int(round(p / 100 * (len(xs) - 1)))))
    return xs[k]


def _ok_share(rs: list[dict]) -> dict:
    return {"count": len(rs), "ok": sum(1 for r in rs if r["status"] == "ok"),
            "ok_share": sum(1 for r in rs if r["status"] == "ok") / len(rs) if rs else 0.0}


def two_faced_split(records: list[dict]) -> dict:
    """Per query kind (and ``all``): the answers, and the share ``ok``, on all boards, on boards
    holding a card of several faces (any zone) and on the others (issue 24)."""
    answered = [r for r in records if r["kind"] != "load"]
    kinds = [k for k in KIND_ORDER + ("pass",) if any(r["kind"] == k for r in answered)]
    out = {}
    for k in kinds + ["all"]:
        rs = answered if k == "all" else [r for r in answered if r["kind"] == k]
        out[k] = {"all": _ok_share(rs), "two_faced": _ok_share([r for r in rs if r.get("two_faced")]),
                  "single_faced": _ok_share([r for r in rs if not r.get("two_faced")])}
    return out


def face_refusals(records: list[dict]) -> dict:
    """Refusals for a missing or unrecorded face (:func:`face_refusal`), by reason and by card and text."""
    by_reason: Counter = Counter()
    texts: Counter = Counter()
    for r in records:
        why = face_refusal(r)
        if why is None:
            continue
        by_reason[why] += 1
        for u in r["unsupported"] or [{"whole": "", "text": r.get("message") or ""}]:
            if _FACE_PART.search(u.get("text") or "") or not r["unsupported"]:
                texts[(u.get("whole") or u.get("card") or "", u.get("text") or "")] += 1
    adventure = sum(1 for r in records if r["status"] == "unsupported"
                    and any(_ON_ADVENTURE.search(u.get("text") or "") for u in r["unsupported"]))
    alone = sum(1 for r in records if face_refusal(r) in ("held", "missing")
                and all(_FACE_PART.search(u.get("text") or "") for u in r["unsupported"]))
    return {"held": by_reason["held"], "missing": by_reason["missing"], "query": by_reason["query"],
            "alone": alone, "on_adventure": adventure,
            "texts": [{"card": c, "text": t, "answers": n} for (c, t), n in texts.most_common(10)]}


def summarize(records: list[dict], top: int = 15) -> dict:
    """The report as a dict: ``per_kind`` (count, shares by status, p50/p95
    ms), ``blockers`` (top unread texts by answers blocked), ``ok_with_unread``
    (share of answers ``ok`` on boards with an unread part), ``exceptions`` and
    ``errors`` (with board name and query)."""
    by_kind: dict[str, list[dict]] = defaultdict(list)
    for r in records:
        by_kind[r["kind"]].append(r)
    kinds = [k for k in KIND_ORDER if k in by_kind] + sorted(k for k in by_kind if k not in KIND_ORDER)
    per_kind = {}
    for k in kinds + ["all"]:
        rs = records if k == "all" else by_kind[k]
        c = Counter(r["status"] for r in rs)
        times = [r["seconds"] * 1000 for r in rs]
        answered_times = [r["seconds"] * 1000 for r in rs if r["status"] in ("ok", "truncated", "timeout")]
        per_kind[k] = {"count": len(rs), "shares": {s: (c[s] / len(rs) if rs else 0.0) for s in STATUSES},
                       "counts": {s: c[s] for s in STATUSES},
                       "p50_ms": _pct(times, 50), "p95_ms": _pct(times, 95), "max_ms": max(times, default=0.0),
                       "answered_p50_ms": _pct(answered_times, 50), "answered_p95_ms": _pct(answered_times, 95)}
    blocked: Counter = Counter()
    affects: dict[tuple[str, str], set] = defaultdict(set)
    blocked_kinds: dict[tuple[str, str], Counter] = defaultdict(Counter)
    blocked_zones: dict[tuple[str, str], Counter] = defaultdict(Counter)
    sole: Counter = Counter()
    for r in records:
        keys = {(u["card"] or "", u["text"] or "") for u in r["unsupported"]}
        for key in keys:
            blocked[key] += 1
            blocked_kinds[key][r["kind"]] += 1
            if len(keys) == 1:
                sole[key] += 1
        for u in r["unsupported"]:
            key = (u["card"] or "", u["text"] or "")
            affects[key].update(u.get("affects") or ())
            blocked_zones[key][u.get("zone") or "?"] += 1
    blockers = [{"card": c, "text": t, "answers_blocked": n, "sole_blocker": sole[(c, t)],
                 "affects": sorted(affects[(c, t)]),
                 "kinds": dict(sorted(blocked_kinds[(c, t)].items())),
                 "zones": dict(sorted(blocked_zones[(c, t)].items()))}
                for (c, t), n in sorted(blocked.items(), key=lambda kv: (-kv[1], kv[0]))[:top]]
    # Answers blocked only by parts of cards outside the battlefield and the stack (hand, graveyard,
    # library, exile, command zone): most such abilities do not function there (CR 113.6), so these
    # are where the soundness layer is most likely over-cautious.
    offboard: Counter = Counter()
    for r in records:
        zs = {u.get("zone") for u in r["unsupported"]}
        if zs and not zs & {"battlefield", "stack"}:
            offboard[r["kind"]] += 1
    answered = [r for r in records if r["kind"] != "load"]
    per_deck: dict[str, Counter] = defaultdict(Counter)
    for r in answered:
        for d in set(r.get("decks") or ()):
            per_deck[d]["n"] += 1
            per_deck[d][r["status"]] += 1
    deck_rows = sorted(({"deck": d, "answers": c["n"], "ok": c["ok"] / c["n"], "unsupported": c["unsupported"] / c["n"]}
                        for d, c in per_deck.items()), key=lambda x: (x["ok"], x["deck"]))
    on_unread = [r for r in answered if r["board_unread"]]
    ok_unread = [r for r in on_unread if r["status"] == "ok"]
    return {
        "boards": len({r["board"] for r in records}),
        "queries": len(answered),
        "per_kind": per_kind,
        "blockers": blockers,
        "distinct_blockers": len(blocked),
        "boards_with_unread": len({r["board"] for r in on_unread}),
        "answers_on_unread_boards": len(on_unread),
        "ok_with_unread": len(ok_unread) / len(on_unread) if on_unread else 0.0,
        "ok_with_unread_by_kind": {
            k: (sum(1 for r in on_unread if r["kind"] == k and r["status"] == "ok")
                / max(1, sum(1 for r in on_unread if r["kind"] == k))) for k in kinds},
        "blocked_only_off_board": dict(sorted(offboard.items())),
        "per_deck": deck_rows,
        "engine_limits": [{"reason": m, "answers": n, "kinds": sorted({r["kind"] for r in records
                                                                       if r["status"] == "unsupported"
                                                                       and not r["unsupported"] and r["message"] == m})}
                          for m, n in Counter(r["message"] for r in records
                                              if r["status"] == "unsupported" and not r["unsupported"]).most_common()],
        "two_faced": two_faced_split(records),
        "boards_two_faced": len({r["board"] for r in answered if r.get("two_faced")}),
        "face_refusals": face_refusals(records),
        "exceptions": [{"board": r["board"], "name": r["name"], "query": r["query"], "message": r["message"]}
                       for r in records if r["status"] == "exception"],
        "errors": [{"board": r["board"], "name": r["name"], "query": r["query"], "message": r["message"]}
                   for r in records if r["status"] == "error"],
    }


def _two_faced_lines(rep: dict) -> list[str]:
    """The report's section on cards of several faces (issue 24)."""
    if "two_faced" not in rep:
        return []
    lines = ["", f"share ok with and without a card of several faces on the board "
                 f"({rep['boards_two_faced']} of {rep['boards']} boards hold one, any zone):",
             f"  {'kind':<15}{'all':>18}{'two-faced':>18}{'single-faced':>18}"]
    for k, v in rep["two_faced"].items():
        lines.append(f"  {k:<15}" + "".join(f"{100 * v[c]['ok_share']:>10.1f}% of {v[c]['count']:>4}"
                                             for c in ("all", "two_faced", "single_faced")))
    fr = rep["face_refusals"]
    lines.append(f"refused for a missing or unrecorded face: {fr['held']} answers for cards whose faces the data "
                 f"holds (must be 0), {fr['missing']} for cards it lacks a face of (unread, card-faces.md; "
                 f"{fr['alone']} of both for that reason alone), "
                 f"{fr['query']} for a query without the face cast; not a face but a rule of faces not modeled: "
                 f"{fr['on_adventure']} by a card on an adventure (may cast the creature from exile, CR 715.3d)")
    for t in fr["texts"]:
        lines.append(f"  {t['answers']:>5} × {t['card']}: {t['text'][:120]}")
    return lines


def format_report(rep: dict) -> str:
    lines = [f"{rep['boards']} boards, {rep['queries']} queries"]
    hdr = (f"{'kind':<15}{'n':>6}" + "".join(f"{s:>12}" for s in STATUSES)
           + f"{'p50 ms':>9}{'p95 ms':>9}{'max ms':>9}{'ans p50':>9}{'ans p95':>9}")
    lines.append(hdr)
    for k, v in rep["per_kind"].items():
        lines.append(f"{k:<15}{v['count']:>6}" + "".join(f"{100 * v['shares'][s]:>11.1f}%" for s in STATUSES)
                     + f"{v['p50_ms']:>9.1f}{v['p95_ms']:>9.1f}{v['max_ms']:>9.0f}"
                     + f"{v['answered_p50_ms']:>9.1f}{v['answered_p95_ms']:>9.1f}")
    lines.append("(p50/p95/max: every answer; ans p50/p95: answers with status ok, truncated or timeout, "
                 "i.e. that ran the models)")
    lines.append("")
    lines.append(f"answers on boards holding unread text: {rep['answers_on_unread_boards']} "
                 f"({rep['boards_with_unread']} boards); of them ok: {100 * rep['ok_with_unread']:.1f}%  ("
                 + ", ".join(f"{k} {100 * s:.0f}%" for k, s in rep["ok_with_unread_by_kind"].items()) + ")")
    if rep["blocked_only_off_board"]:
        lines.append("unsupported answers blocked only by cards in hand, graveyard, library, exile or command zone: "
                     + ", ".join(f"{k} {n}" for k, n in rep["blocked_only_off_board"].items()))
    lines.append("")
    lines.append(f"unread texts blocking the most answers (top {len(rep['blockers'])} of {rep['distinct_blockers']}):")
    for i, b in enumerate(rep["blockers"], 1):
        text = b["text"].replace("\n", " ")
        if len(text) > 110:
            text = text[:107] + "..."
        lines.append(f"{i:>3}. {b['answers_blocked']:>5} ({b['sole_blocker']:>4} alone)  {b['card']}: \"{text}\"  "
                     f"[{', '.join(b['affects'])}]")
        lines.append(" " * 24 + "kinds: " + ", ".join(f"{k} {n}" for k, n in b["kinds"].items())
                     + "; zones: " + ", ".join(f"{z} {n}" for z, n in b["zones"].items()))
    lines.extend(_two_faced_lines(rep))
    if rep["per_deck"]:
        lines.append("")
        lines.append("share ok by deck (answers on boards where the deck plays), lowest first:")
        rows = [f"{d['deck']} {100 * d['ok']:.0f}% ({d['answers']})" for d in rep["per_deck"]]
        for i in range(0, len(rows), 4):
            lines.append("  " + "; ".join(rows[i:i + 4]))
    if rep["engine_limits"]:
        lines.append("")
        lines.append("unsupported without unread text (engine limits, `reason`):")
        for e in rep["engine_limits"]:
            lines.append(f"  {e['answers']:>4} × [{', '.join(e['kinds'])}] {e['reason']}")
    if rep["exceptions"]:
        lines.append("")
        lines.append(f"exceptions ({len(rep['exceptions'])}), grouped by message:")
        for msg, n in Counter(e["message"][:200] for e in rep["exceptions"]).most_common(20):
            ex = next(e for e in rep["exceptions"] if e["message"][:200] == msg)
            lines.append(f"  {n:>4} × {msg}\n         e.g. board {ex['board']} ({ex['name']}), query {json.dumps(ex['query'])}")
    if rep["errors"]:
        lines.append("")
        lines.append(f"status error ({len(rep['errors'])}), grouped by message:")
        for msg, n in Counter(e["message"][:200] for e in rep["errors"]).most_common(20):
            ex = next(e for e in rep["errors"] if e["message"][:200] == msg)
            lines.append(f"  {n:>4} × {msg}\n         e.g. board {ex['board']} ({ex['name']}), query {json.dumps(ex['query'])}")
    return "\n".join(lines)


def _cast_as_face(state: Any, query: dict) -> tuple[Any, dict]:
    """A query casting a face (``face``: an Adventure, a split card's half, CR 715.3b, 709.3b) as the
    references take it: the situation in which the cast card has that face's characteristics, read from
    the card data alone (:func:`solver.cards.face_named`), and the query without ``face``."""
    from dataclasses import replace

    from mtgsolve.solver.cards import face_named

    if "face" not in query:
        return state, query
    o = state.obj(query["cast"])
    face = face_named(o.card, query["face"])
    if face is None:
        raise KeyError(f"{o.card.name} has no face {query['face']!r}")
    objs = tuple(replace(x, card=face, front=x.card) if x.id == o.id else x for x in state.objects)
    return replace(state, objects=objs), {k: v for k, v in query.items() if k != "face"}


def _reference(state: Any, query: dict) -> tuple[object, ...]:
    """(count,) for targets, (payable, count) for pay, by the independent references (tests/reference/)."""
    from pathlib import Path

    tests = str(Path(__file__).resolve().parent.parent / "tests")
    if tests not in sys.path:
        sys.path.insert(0, tests)
    from reference.alt_costs_ref import _options, brute_cast
    from reference.helps_ref import brute_helped, helps_of
    from reference.pay_ref import brute_pay
    from reference.targets_ref import reference_targets

    state, query = _cast_as_face(state, query)
    if query["kind"] == "targets":
        return (reference_targets(state, dict(query)).get("count"),)
    o = state.obj(query["cast"]) if "cast" in query else None
    if o is not None and helps_of(o.card):
        ref = brute_helped(state, dict(query))          # delve, convoke, improvise
    elif o is not None and _options(o):
        ref = brute_cast(state, dict(query))            # alternative and additional costs
    else:
        ref = brute_pay(state, dict(query))
    return ref["payable"], ref["count"]


def check_references(boards: list[dict], budget: float = 8.0) -> tuple[int, list[tuple], int]:
    """Every ``ok`` answer of ``pay`` and ``targets`` (re-asked with ``max_results`` 100,000) against the
    brute-force references, each given ``budget`` seconds: (equal, the differences as ``(board index,
    board name, query, answer, reference)``, reference timeouts)."""
    import signal

    from mtgsolve.solver.io.load import situation_from_dict
    from mtgsolve.solver.queries import Options, answer

    class _Slow(Exception):
        pass

    def _alarm(*_: object) -> None:
        raise _Slow()

    old = signal.signal(signal.SIGALRM, _alarm)
    equal = slow = 0
    differ: list[tuple] = []
    try:
        for i, doc in enumerate(boards):
            state = situation_from_dict(doc).state
            for q in doc.get("query") or []:
                if q["kind"] not in ("pay", "targets"):
                    continue
                r = answer(state, q, Options(max_results=100000, timeout=20))
                if r["status"] != "ok":
                    continue
                got = (r["count"],) if q["kind"] == "targets" else (r["payable"], r["count"])
                signal.setitimer(signal.ITIMER_REAL, budget)
                try:
                    want = _reference(state, q)
                except _Slow:
                    slow += 1
                    continue
                finally:
                    signal.setitimer(signal.ITIMER_REAL, 0)
                if got == want:
                    equal += 1
                else:
                    differ.append((i, doc.get("name"), q, got, want))
    finally:
        signal.signal(signal.SIGALRM, old)
    return equal, differ, slow


def readme_figure(rep: dict, decks: str) -> str:
    """The README's real-deck sentence: the share of ``ok`` answers by query kind."""
    kinds = {k: v for k, v in rep["per_kind"].items() if k not in ("all", "load")}
    ok = sum(v["counts"]["ok"] for v in kinds.values())
    total = sum(v["count"] for v in kinds.values())
    no_pass = [v for k, v in kinds.items() if k != "pass"]
    ok_np, total_np = sum(v["counts"]["ok"] for v in no_pass), sum(v["count"] for v in no_pass)
    return (f"real decks, {rep['boards']} boards ({decks}): share of sound `ok` answers — "
            + ", ".join(f"`{k}` {100 * v['shares']['ok']:.1f}%" for k, v in kinds.items())
            + f" ({100 * ok / max(total, 1):.1f}% of all {total:,} answers; "
              f"{100 * ok_np / max(total_np, 1):.1f}% without `pass`)")


def _decks_dir(name: str | None) -> Any:
    """``None``: the development corpus; ``heldout``: the held-out set; else a directory."""
    from benchmarks.realdecks import DECKS_DIR

    if name is None:
        return DECKS_DIR
    return DECKS_DIR / "heldout" if name == "heldout" else name


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m benchmarks.bench_realdecks", description=__doc__.split("\n")[0])
    ap.add_argument("--boards", type=int, default=None, help="number of boards (default 400; 40 with --quick)")
    ap.add_argument("--seed", type=int, default=20261130)
    ap.add_argument("--timeout", type=float, default=10.0, help="seconds per query (status timeout)")
    ap.add_argument("--max-results", type=int, default=1000)
    ap.add_argument("--top", type=int, default=15)
    ap.add_argument("--json", default=None, help="write the report (and the per-query records) as JSON here")
    ap.add_argument("--quick", action="store_true")
    ap.add_argument("--references", action="store_true",
                    help="also check every ok pay/targets answer against the brute-force references")
    ap.add_argument("--front-faces", action="store_true",
                    help="every object front face up, none on an adventure (the boards before issue 24)")
    ap.add_argument("--records", default=None,
                    help="report the records of an earlier run's --json (e.g. on an older commit) instead of "
                         "answering; the boards generated here tell which hold a card of several faces")
    ap.add_argument("--decks", default=None,
                    help="the decklists' directory (default benchmarks/decks; 'heldout' for benchmarks/decks/heldout, "
                         "the held-out set)")
    args, _unknown = ap.parse_known_args(sys.argv[1:] if argv is None else argv)
    n = args.boards if args.boards is not None else (40 if args.quick else 400)
    since = readme.load()
    decks = load_decks(_decks_dir(args.decks))
    t = time.perf_counter()
    boards = generate_boards(n, args.seed, decks, faces=not args.front_faces)
    gen_s = time.perf_counter() - t
    print(f"{len(decks)} decks; {n} boards generated in {gen_s:.1f} s (seed {args.seed}, timeout {args.timeout} s, "
          f"max_results {args.max_results})", flush=True)
    t = time.perf_counter()
    if args.records:
        records = saved_records(args.records, boards)
    else:
        records = run_boards(boards, max_results=args.max_results, timeout=args.timeout, progress=True)
    run_s = time.perf_counter() - t
    rep = summarize(records, top=args.top)
    print(format_report(rep))
    print(f"\nanswered in {run_s:.1f} s")
    corpus = ("development decklists" if args.decks is None else
              "held-out decklists" if "heldout" in str(args.decks) else f"decklists of {args.decks}")
    readme.line(readme_figure(rep, f"{len(decks)} {corpus}, seed {args.seed}"), since)
    if args.references:
        equal, differences, slow = check_references(boards)
        differ = len(differences)
        for i, name, q, got, want in differences[:10]:
            print(f"differs from brute force: board {i} ({name}) {q}: {got} vs the reference's {want}")
        readme.line(f"every `ok` pay/targets answer on these boards equals brute force ({equal} of {equal + differ}; "
                    f"{slow} reference timeouts)", since)
    if args.json:
        slim = [{k: v for k, v in r.items() if k != "result"} for r in records]
        with open(args.json, "w", encoding="utf-8") as f:
            json.dump({"report": rep, "records": slim, "seed": args.seed, "boards": n}, f, indent=1, default=str)
        print(f"wrote {args.json}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

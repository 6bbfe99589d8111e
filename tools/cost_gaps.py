"""Rank the activation-cost shapes that keep lines out of the "costs" coverage layer (issue 25).

For every line the costs layer concerns (:func:`solver.cards.coverage.line_layers`) and does not
read, the cost (before the line's top-level colon) is split into its items; each item the cost
grammar (:func:`solver.reader.costs.parse_cost`, item by item) does not read is counted by its template (numbers
``N``, mana ``{M}``, self-references ``~``). Lines whose every item reads are counted by the reason
the line still fails (a cost part modelled only for mana abilities, the effect, the zone …).

    python tools/cost_gaps.py solver/data/oracle-cards.json.gz [--top 60] [--examples]
"""
from __future__ import annotations

import argparse
import re
from collections import Counter

from mtgsolve.solver.cards.coverage import _ACTIVATED_KEYWORD, card_faces, is_back_face_entry, later_faces, line_layers
from mtgsolve.solver.cards.importer import load_cards
from mtgsolve.solver.reader.costs import parse_cost
from mtgsolve.solver.reader.cursor import NoMatch, find_top, split_top, strip_ability_word
from mtgsolve.solver.reader.tokens import template


def _items(toks):  # the cost's items, or None (no colon: a keyword line)
    toks = list(strip_ability_word(toks))
    k = find_top(toks, ":")
    if k <= 0:
        return None
    cost = list(toks[:k])
    if cost and cost[0].low == "[":
        return ["<loyalty>"]
    return split_top(cost, ",")


def _item_ok(it) -> bool:
    """Does the cost grammar read this one item on its own?"""
    try:
        parse_cost(it)
        return True
    except NoMatch:
        return False
    except Exception:  # a reader bug: counted as unread
        return False


def _why(r) -> str:
    """Why a line whose cost reads is still not read in the costs layer."""
    if not r.structured:
        return "structure not read"
    if r.template == "structure only":
        return "structure only (skeleton): " + _refusal(r)
    return f"template {r.template}"


def _refusal(r) -> str:
    """The structure reader's refusal of the line (its NoMatch message), first words of the
    sentence it stopped at when an effect sentence is refused."""
    from mtgsolve.solver.reader.grammar import LineContext
    from mtgsolve.solver.reader.structure import line_activated_structure
    try:
        line_activated_structure(tuple(strip_ability_word(r.tokens)), LineContext(), r.raw)
    except NoMatch as e:
        return str(e)[:60]
    except Exception as e:  # pragma: no cover - a reader bug
        return f"error {type(e).__name__}"
    return "reads alone"


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("src")
    ap.add_argument("--top", type=int, default=60)
    ap.add_argument("--examples", action="store_true")
    a = ap.parse_args()
    corpus = list(load_cards(a.src))
    named = later_faces(corpus)
    own = {str(r.get("name") or "") for r in corpus if not is_back_face_entry(r, named)}
    seen: set[str] = set()
    items: Counter = Counter()
    item_lines: Counter = Counter()
    whole: Counter = Counter()
    ex: dict = {}
    failing = 0
    for raw in corpus:
        if is_back_face_entry(raw, named):
            continue
        for f in card_faces(raw, own, seen):
            if not f.counted:
                continue
            spell = any(t in ("Instant", "Sorcery") for t in f.data.types)
            for r in f.lines:
                lay = line_layers(r, spell)
                if "costs" not in lay or lay["costs"]:
                    continue
                failing += 1
                its = _items(r.tokens)
                if its is None:
                    kw = _ACTIVATED_KEYWORD.match(r.clean)
                    key = f"keyword: {kw.group(0).lower() if kw else r.clean.split()[0].lower()}"
                    whole[key] += 1
                    ex.setdefault(key, f.data.name)
                    continue
                if its == ["<loyalty>"]:
                    whole["loyalty ability, line not read"] += 1
                    ex.setdefault("loyalty ability, line not read", f"{f.data.name}: {r.clean[:90]}")
                    continue
                bad = [template(it).strip() for it in its if not _item_ok(it)]
                for b in set(bad):
                    items[b] += 1
                    ex.setdefault(b, f.data.name)
                if bad:
                    item_lines["unread item"] += 1
                    continue
                try:
                    body = list(strip_ability_word(r.tokens))
                    cost = parse_cost(body[:find_top(body, ":")])
                    reason = "cost reads; the line fails elsewhere: " + _why(r)
                    if cost.put_counters is not None or cost.discard_hand:
                        reason = "cost part modelled only for mana abilities"
                    elif cost.remove_x_counters is not None:
                        reason = "variable counter cost (mana abilities only)"
                except NoMatch as e:
                    reason = f"items read, combination refused: {e}"
                whole[reason] += 1
                ex.setdefault(reason, f"{f.data.name}: {r.clean[:90]}")
    print(f"costs-layer lines not read: {failing}; with an unread cost item: {item_lines['unread item']}")
    print("\nUnread cost items (lines):")
    for k, n in items.most_common(a.top):
        print(f"  {n:5d}  {k}" + (f"   [e.g. {ex[k]}]" if a.examples else ""))
    print("\nLines whose cost items all read, or with no cost items:")
    for k, n in whole.most_common(a.top):
        print(f"  {n:5d}  {k}" + (f"   [e.g. {ex[k]}]" if a.examples else ""))


if __name__ == "__main__":
    main()

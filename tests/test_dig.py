"""Looking at the top N cards of a library and choosing among them (CR 401.5, 608.2c;
solver/reader/dig.py, solver/engine/dig.py, resolution._do_dig) against the brute-force
reference (tests/reference/dig_ref.py): on seeded random libraries, known and in random order,
the engine's outcomes are exactly the reference's distinct results, each once, and each outcome's
probability is the reference's chance of the cards seen (and of the random order of the rest).
The reader reads every card of the database whose text is one of the shapes (counted here)."""
from __future__ import annotations

import gzip
import json
import random
import re
from fractions import Fraction
from functools import lru_cache
from pathlib import Path

import pytest
from hypothesis import given, settings, strategies as st

from mtgsolve.solver.api import Situation
from mtgsolve.solver.cards import get_card
from mtgsolve.solver.core import ir
from mtgsolve.solver.engine.resolution import resolve_top
from tests.reference.dig_ref import Look, known_results, random_order_probability, seen_probability, shuffled_results

POOL = ["Forest", "Forest", "Island", "Mountain", "Grizzly Bears", "Lightning Bolt", "Llanowar Elves"]
ROOT = Path(__file__).resolve().parent.parent
_MV = {"Forest": 0, "Island": 0, "Mountain": 0, "Grizzly Bears": 2, "Lightning Bolt": 1, "Llanowar Elves": 1}
_CREATURES = {"Grizzly Bears", "Llanowar Elves"}

# spell: the reference's reading of its instruction
SPELLS = {
    "Dig Through Time": Look(7, 2, True, "hand", "bottom"),
    "Ancestral Memories": Look(7, 2, True, "hand", "graveyard"),
    "Impulse": Look(4, 1, True, "hand", "bottom"),
    "Commune with Nature": Look(5, 1, False, "hand", "bottom", eligible=lambda c: c in _CREATURES),
    "Lead the Stampede": Look(5, None, False, "hand", "bottom", eligible=lambda c: c in _CREATURES),
}


def _situation(library: list[str], stack: dict, shuffled: bool = False, battlefield: list | None = None,
               owner: str = "alice") -> Situation:
    libraries = {"alice": ["Plains"], "bob": ["Plains"]}
    libraries[owner] = library
    d: dict = {"format": "mtgsolve/1", "players": ["alice", "bob"],
               "turn": {"number": 3, "active": "alice", "step": "main1"},
               "battlefield": {"alice": battlefield or []},
               "library": libraries, "stack": [stack]}
    if shuffled:
        d["shuffled"] = {owner: True}
    return Situation.from_dict(d)


def _result(sit: Situation, spell: str, before: list[str], owner: str = "alice") -> tuple:
    names = lambda z: tuple(o.name for o in sit.state.zone(z, owner))   # noqa: E731
    gy = tuple(n for n in names("graveyard") if n != spell)
    bf = tuple(sorted(n for n in names("battlefield") if n not in before))
    life = 20 - sit.state.player("alice").life
    return tuple(sorted(names("hand"))), names("library"), gy, bf, names("exile"), life


def _engine(library: list[str], spell: str, shuffled: bool, stack: dict | None = None,
            battlefield: list | None = None, owner: str = "alice") -> list:
    stack = stack or {"card": spell, "controller": "alice"}
    return list(resolve_top(_situation(library, stack, shuffled, battlefield, owner).state).outcomes)


def _check(library: list[str], spell: str, look: Look, shuffled: bool, stack: dict | None = None,
           battlefield: list | None = None, owner: str = "alice") -> list:
    outcomes = _engine(library, spell, shuffled, stack, battlefield, owner)
    got = [_result(Situation(o.state), spell, battlefield or [], owner) for o in outcomes]
    if shuffled and len(set(library)) > 1 and len(library) > look.n and look.to in ("hand", "battlefield", "graveyard") \
            and look.rest in ("graveyard", "exile"):
        # the cards never seen stay a library in random order (as the reference writes them: sorted)
        got = [(g[0], tuple(sorted(g[1])), *g[2:]) for g in got]
    want = shuffled_results(library, look) if shuffled and len(set(library)) > 1 else set(known_results(library, look))
    assert len(got) == len(set(got)) and set(got) == want, (spell, library, shuffled)
    for o in outcomes:
        for choices, p in zip((o.choices,) + o.alternatives, (o.probability,) + o.alternative_probabilities):
            want_p = _probability(o.state, library, look, choices, shuffled and len(set(library)) > 1)
            # no probability is given when no outcome's chance is below 1 (nothing random happened)
            assert (Fraction(1) if p is None else p) == (Fraction(1) if want_p is None else want_p), choices
            assert p is not None or want_p in (None, 1), choices
    return outcomes


def _probability(state, library: list[str], look: Look, choices: dict, shuffled: bool) -> Fraction | None:
    """The reference's chance of one outcome's choices (None: no random event took part)."""
    name = {o.id: o.name for o in state.objects}
    p = Fraction(1)
    random_event = shuffled
    if shuffled:
        seen = [name.get(i) or _id_name(i) for i in choices["looked_at"]]
        p *= seen_probability(library, look.n, seen, ordered="graveyard" in (look.to, look.rest) or look.rest == "stay")
    dug = choices.get("dug") or choices.get("opponent_chose")
    if look.rest == "bottom_random" and dug is not None and len(dug["rest"]["bottom"]) > 1:
        p *= random_order_probability([name.get(i) or _id_name(i) for i in dug["rest"]["bottom"]])
        random_event = True
    return p if random_event else None


def _id_name(oid: str) -> str:
    return " ".join(w.capitalize() for w in re.sub(r"-\d+$", "", oid).split("-"))


def _libraries(seed: int, count: int, hi: int = 6) -> list[list[str]]:
    rng = random.Random(seed)
    return [[rng.choice(POOL) for _ in range(rng.randint(0, hi))] for _ in range(count)]


@pytest.mark.parametrize("spell", sorted(SPELLS))
def test_known_library_matches_reference(spell):
    for library in _libraries(sorted(SPELLS).index(spell), 10):
        _check(library, spell, SPELLS[spell], shuffled=False)


@pytest.mark.parametrize("spell", ["Ancestral Memories", "Commune with Nature", "Lead the Stampede"])
def test_library_in_random_order_matches_reference(spell):
    """What is seen is a random event; the cards not seen stay in random order (graveyard and hand
    only) — or the whole library is seen."""
    for library in _libraries(7 + sorted(SPELLS).index(spell), 6, hi=5):
        look = SPELLS[spell]
        if look.rest == "bottom" and len(library) > look.n and len(set(library)) > 1:
            continue   # cards seen put back under cards in random order: refused (below)
        _check(library, spell, look, shuffled=True)


def test_random_order_under_a_hidden_rest_is_refused():
    from mtgsolve.solver.engine.transition import ResolutionUnsupported
    lib = ["Forest", "Island", "Mountain", "Grizzly Bears", "Lightning Bolt", "Island", "Forest", "Mountain"]
    with pytest.raises(ResolutionUnsupported):
        _engine(lib, "Impulse", shuffled=True)


@settings(max_examples=25, deadline=None)
@given(st.lists(st.sampled_from(POOL), max_size=6), st.sampled_from(sorted(SPELLS)))
def test_property_known_library(library, spell):
    _check(library, spell, SPELLS[spell], shuffled=False)


def test_random_bottom_order_probabilities():
    """"… and the rest on the bottom of your library in a random order" (Drawn from Dreams, Shimmer of
    Possibility): each distinct order of the rest is a random outcome, all equally likely (CR 401.5)."""
    lib = ["Forest", "Island", "Mountain", "Grizzly Bears", "Lightning Bolt", "Island"]
    for spell, look in (("Drawn from Dreams", Look(7, 2, True, "hand", "bottom_random")),
                        ("Shimmer of Possibility", Look(4, 1, True, "hand", "bottom_random"))):
        _check(lib, spell, look, shuffled=False)
        _check(lib[:3], spell, look, shuffled=True)   # the whole library seen


def test_thassas_oracle_wins_with_devotion_covering_the_library():
    """CR 104.2b, 700.5: X is the devotion to blue (Thassa's Oracle's {U}{U}: 2); with two cards in the
    library the controller wins (the opponent loses); the card put on top is a choice."""
    stack = {"ability": {"source": "thassas-oracle", "index": 1}, "controller": "alice"}
    sit = _situation(["Forest", "Island"], stack, battlefield=["Thassa's Oracle"])
    outcomes = list(resolve_top(sit.state).outcomes)
    assert outcomes and all(o.losers == ("bob",) for o in outcomes)
    sit = _situation(["Forest", "Island", "Mountain"], stack, battlefield=["Thassa's Oracle"])
    outcomes = list(resolve_top(sit.state).outcomes)
    libs = {tuple(o.name for o in Situation(x.state).state.zone("library", "alice")) for x in outcomes}
    assert all(not o.losers for o in outcomes)
    # up to one of Forest, Island on top, the rest on the bottom in a random order
    assert libs == {("Mountain", "Forest", "Island"), ("Mountain", "Island", "Forest"),
                    ("Forest", "Mountain", "Island"), ("Island", "Mountain", "Forest")}


@lru_cache(maxsize=1)
def _database_texts() -> tuple[tuple[str, str], ...]:
    data = json.load(gzip.open(ROOT / "solver" / "data" / "oracle-cards.json.gz"))
    return tuple((c["name"], c.get("text") or "") for c in data)


#: The shapes of the database's lines this reader reads, as regular expressions over one line
#: (a card name, "N" or a filter stands where the shape varies).
_SHAPES = {
    "put K of them into your hand, the rest": r"(^|, )[Ll]ook at the top (\w+) cards of your library\. Put (one|two|three) of "
                                              r"them into your hand and the (rest|other) (on the bottom of your library"
                                              r"( in a random order| in any order)?|into your graveyard)\.$",
    "reveal a <type> card, the rest on the bottom": r"(^|, )[Ll]ook at the top (\w+) cards of your library\. You may reveal an? "
                                                     r"(creature|land|instant|sorcery|artifact|enchantment|planeswalker)"
                                                     r" card from among them and put (it|that card) into your hand\. "
                                                     r"Put the rest on the bottom of your library in (a random|any) order\.$",
}


@pytest.mark.parametrize("shape", sorted(_SHAPES))
def test_reader_reads_every_card_of_the_shape(shape):
    lines = sorted({(n, line) for n, text in _database_texts() for line in text.split("\n")
                    if re.search(_SHAPES[shape], line)})
    assert len(lines) >= 10, shape
    unread = [(name, line) for name, line in lines
              if any(line.startswith(u.text) or u.text in line for u in get_card(name).unsupported)]
    # the lines left unread are triggered abilities whose trigger event or condition is not read
    # (or whose X the trigger defines): the look passage itself is read wherever it stands alone
    assert all(re.match(r"^(\w+ — )?(When|Whenever|At) ", line) for _n, line in unread), unread
    assert len(unread) <= 6, unread


def test_unread_shapes_stay_unread():
    """"a noncreature, nonland card" and "where X is the amount of mana spent to cast this spell"
    are not read: the line stays an unread part."""
    for name in ("Memory Deluge",):
        card = get_card(name)
        assert card.spell is not None and any(isinstance(e, ir.UnreadEffect) for e in card.spell.effects)


_PERMANENT = lambda c: c not in ("Lightning Bolt",)   # noqa: E731  (POOL's one nonpermanent card)


def _ability(source: str, index: int, targets: list | None = None) -> dict:
    d: dict = {"ability": {"source": source, "index": index}, "controller": "alice"}
    if targets:
        d["targets"] = targets
    return d


@pytest.mark.parametrize("seed", range(3))
def test_planeswalker_and_top_card_abilities_match_reference(seed):
    """Jace, the Mind Sculptor's +2 (target player's library: the top card on the bottom or not),
    Sorin the Mirthless's +1 (into the hand, losing life equal to its mana value, CR 202.3, 119.3),
    Karn, Scion of Urza's +1 (an opponent chooses one of two revealed cards; the other exiled with
    a silver counter), Dryad Greenseeker (a land card into the hand), each against the reference."""
    cases = [
        ("Jace, the Mind Sculptor", Look(1, 1, False, "bottom", "stay"), "bob", [["bob"]]),
        ("Sorin the Mirthless", Look(1, 1, False, "hand", "stay", mv=_MV.get, lose_life=True), "alice", None),
        ("Karn, Scion of Urza", Look(2, 1, True, "hand", "exile"), "alice", None),
        ("Dryad Greenseeker", Look(1, 1, False, "hand", "stay", eligible=lambda c: c in ("Forest", "Island", "Mountain")),
         "alice", None),
    ]
    for library in _libraries(20 + seed, 4, hi=4):
        for name, look, owner, targets in cases:
            source = get_card(name).name.lower().replace(",", "").replace("'", "").replace(" ", "-")
            outcomes = _check(library, name, look, False, _ability(source, 1, targets), [name], owner)
            if name.startswith("Karn") and len(library) > 1:
                assert all(set(o.choices) <= {"opponent_chose"} for o in outcomes)
                assert {o.choices.get("opponent_chose", {}).get("player") for o in outcomes} <= {"bob"}


def test_karn_exiles_with_a_silver_counter():
    outcomes = _engine(["Forest", "Island", "Mountain"], "Karn", False, _ability("karn-scion-of-urza", 1),
                       ["Karn, Scion of Urza"])
    for o in outcomes:
        exiled = [x for x in o.state.objects if x.zone == "exile"]
        assert len(exiled) == 1 and dict(exiled[0].counters) == {"silver": 1}


def test_battlefield_with_total_mana_value():
    """"Put any number of nonland permanent cards with total mana value 4 or less from among them
    onto the battlefield" (Ao, the Dawn Sky's first mode), read and resolved as the reference says."""
    from mtgsolve.solver.reader.dig import dig_passage
    from mtgsolve.solver.reader.scope import Scope
    from mtgsolve.solver.reader.tokens import tokenize
    text = ("Look at the top seven cards of your library. Put any number of nonland permanent cards with total mana "
            "value 4 or less from among them onto the battlefield. Put the rest on the bottom of your library in a "
            "random order.")
    toks = tokenize(text)
    sents, cur = [], []
    for t in toks:
        if t.low == ".":
            sents.append(cur)
            cur = []
        else:
            cur.append(t)
    s = Scope()
    assert dig_passage(sents, 0, s) == 3
    (dig,) = s.effects
    assert isinstance(dig, ir.Dig) and dig.to == "battlefield" and dig.total_mv_max == 4 and dig.take is None
    assert dig.quality is not None and dig.quality.nontypes == frozenset({"Land"}) and dig.rest == "bottom_random"


def test_opponent_chooses_in_a_game_is_the_opponents_decision():
    from mtgsolve.solver.engine.resolution import opponent_choice_decider
    outcomes = _engine(["Forest", "Island"], "Karn", False, _ability("karn-scion-of-urza", 1), ["Karn, Scion of Urza"])
    assert len(outcomes) == 2 and opponent_choice_decider(outcomes) == "bob"


def test_karn_minus_one_puts_a_silver_countered_card_into_the_hand():
    """"Put a card you own with a silver counter on it from exile into your hand": a choice among the
    distinct such cards (two Forests with silver counters are one), none without the counter."""
    d = {"format": "mtgsolve/1", "players": ["alice", "bob"], "turn": {"number": 3, "active": "alice", "step": "main1"},
         "battlefield": {"alice": ["Karn, Scion of Urza"]}, "library": {"alice": ["Plains"], "bob": ["Plains"]},
         "exile": {"alice": [{"card": "Forest", "counters": {"silver": 1}}, {"card": "Forest", "counters": {"silver": 1}},
                             "Island", {"card": "Shock", "counters": {"silver": 1}}]},
         "stack": [_ability("karn-scion-of-urza", 2)]}
    outcomes = list(resolve_top(Situation.from_dict(d).state).outcomes)
    hands = sorted(tuple(o.name for o in Situation(x.state).state.zone("hand", "alice")) for x in outcomes)
    assert hands == [("Forest",), ("Shock",)]
    d["exile"] = {"alice": ["Island"]}
    (only,) = resolve_top(Situation.from_dict(d).state).outcomes
    assert not Situation(only.state).state.zone("hand", "alice")


def _answers(hand: list, stack: list, battlefield: list | None = None, library: list | None = None) -> dict[str, dict]:
    from mtgsolve.solver.io.load import situation_from_dict
    from mtgsolve.solver.queries import answer
    d = {"format": "mtgsolve/1", "players": ["alice", "bob"], "turn": {"number": 3, "active": "alice", "step": "main1"},
         "battlefield": {"alice": ["Island", "Island", "Mountain"] + (battlefield or []), "bob": ["Grizzly Bears"]},
         "hand": {"alice": hand}, "library": {"alice": library or ["Forest", "Island", "Shock"], "bob": ["Plains"]},
         "stack": stack}
    st = situation_from_dict(d).state
    qs = {"targets": {"kind": "targets", "cast": "lightning-bolt"},
          "pay": {"kind": "pay", "player": "alice", "cast": "lightning-bolt"},
          "available_mana": {"kind": "available_mana", "player": "alice"},
          "actions": {"kind": "actions", "player": "alice"}, "resolve": {"kind": "resolve"}}
    return {k: answer(st, q) for k, q in qs.items()}


def test_soundness_a_read_look_blocks_nothing():
    """Read look-at-the-top passages are no unread parts: every query is ok, resolving one too."""
    got = _answers(["Lightning Bolt", "Dig Through Time", "Ancestral Memories"],
                   [{"card": "Ancestral Memories", "controller": "alice"}], battlefield=["Thassa's Oracle"])
    assert {k: r["status"] for k, r in got.items()} == dict.fromkeys(got, "ok")


def test_soundness_an_unread_look_blocks_only_its_own_resolution():
    """Memory Deluge's "where X is the amount of mana spent to cast this spell" is not read: its line
    stays unread. In a hand it changes no target, payment, mana or action (it is a spell's effect);
    resolving Memory Deluge is refused naming it; resolving another spell is not."""
    got = _answers(["Lightning Bolt", "Memory Deluge"], [{"card": "Lightning Bolt", "controller": "alice",
                                                          "targets": [["bob"]]}])
    assert {k: r["status"] for k, r in got.items()} == dict.fromkeys(got, "ok")
    got = _answers(["Lightning Bolt"], [{"card": "Memory Deluge", "controller": "alice"}])
    assert got["resolve"]["status"] == "unsupported"
    assert "mana spent" in json.dumps(got["resolve"])
    assert {k: got[k]["status"] for k in ("targets", "pay", "available_mana")} == dict.fromkeys(
        ("targets", "pay", "available_mana"), "ok")


def test_soundness_an_unread_exile_trigger_is_reached_only_by_a_look_that_exiles():
    """An unread "whenever a card is put into exile from anywhere" trigger: resolving Karn, Scion of
    Urza's +1 (the other card exiled) is refused; Jace, the Mind Sculptor's +2 (the library only) is not."""
    watcher = {"card": {"name": "Test Watcher", "type": "Enchantment", "types": ["Enchantment"],
                        "text": "Whenever a card is put into exile from anywhere, you gain 1 life."}}
    karn = _answers(["Lightning Bolt"], [_ability("karn-scion-of-urza", 1)],
                    battlefield=[watcher, "Karn, Scion of Urza"])
    jace = _answers(["Lightning Bolt"], [_ability("jace-the-mind-sculptor", 1, [["bob"]])],
                    battlefield=[watcher, "Jace, the Mind Sculptor"])
    assert karn["resolve"]["status"] == "unsupported" and jace["resolve"]["status"] == "ok"
    assert "exile" in json.dumps(karn["resolve"]["unsupported"])


@pytest.mark.parametrize("seed", range(4))
def test_doomsday_matches_reference(seed):
    """Doomsday (CR 701.23a, 401.4, 107.1a): every distinct pile of five of the library and graveyard
    on top, the rest exiled, half the life lost rounded up — against tests/reference/dig_ref.pile_results."""
    from tests.reference.dig_ref import pile_results
    rng = random.Random(seed)
    for _ in range(3):
        library = [rng.choice(POOL) for _ in range(rng.randint(0, 4))]
        graveyard = [rng.choice(POOL) for _ in range(rng.randint(0, 3))]
        d = {"format": "mtgsolve/1", "players": [{"id": "alice", "life": 7}, "bob"],
             "turn": {"number": 3, "active": "alice", "step": "main1"},
             "library": {"alice": library, "bob": ["Plains"]}, "graveyard": {"alice": graveyard},
             "stack": [{"card": "Doomsday", "controller": "alice"}]}
        outcomes = list(resolve_top(Situation.from_dict(d).state).outcomes)
        got = []
        for o in outcomes:
            st = Situation(o.state).state
            got.append((tuple(x.name for x in st.zone("library", "alice")), tuple(x.name for x in st.zone("exile", "alice"))))
            assert st.player("alice").life == 3   # 7 - 4 (half of 7, rounded up)
        assert len(got) == len(set(got)) and set(got) == pile_results(library, graveyard, 5), (library, graveyard)


@settings(max_examples=15, deadline=None)
@given(st.lists(st.sampled_from(POOL), max_size=5), st.sampled_from(["Ancestral Memories", "Nagging Thoughts",
                                                                     "Lead the Stampede"]))
def test_property_library_in_random_order(library, spell):
    """Any small library in random order: the outcomes are the reference's over every order of it, with
    the reference's chances (the cards not seen stay in random order)."""
    looks = {"Ancestral Memories": SPELLS["Ancestral Memories"], "Lead the Stampede": SPELLS["Lead the Stampede"],
             "Nagging Thoughts": Look(2, 1, True, "hand", "graveyard")}
    look = looks[spell]
    if look.rest == "bottom" and len(library) > look.n and len(set(library)) > 1:
        return   # cards seen put back under cards in random order: refused (test_random_order_under_a_hidden_rest)
    _check(library, spell, look, shuffled=True)


def test_a_game_decision_among_many_outcomes_is_encodable():
    """Dig Through Time over seven distinct cards: 21 pairs taken × 120 orders of the rest = 2,520
    outcomes; the game's option picker chooses what is taken first (21 values), then the order (120),
    each within its 256 slots."""
    from mtgsolve.solver.api.encoding import OptionPicker
    lib = ["Forest", "Island", "Mountain", "Plains", "Swamp", "Grizzly Bears", "Lightning Bolt"]
    outcomes = _engine(lib, "Dig Through Time", False)
    assert len(outcomes) == 2520

    class _Opt:   # what the picker reads of a game's option: its choices
        def __init__(self, choices):
            self.choices = choices
    picker = OptionPicker([_Opt(o.choices) for o in outcomes], 256)
    first = picker.slots()
    assert len(first) == 21 and first[0].startswith("/dug/into/hand")
    assert picker.pick(0) is None and len(picker.slots()) == 120


def test_a_legendary_short_name_before_the():
    """Legendary cards name themselves by a shortened name: "Sorin" for Sorin the Mirthless, as
    "Urborg" for "Urborg, Tomb of Yawgmoth" (its −7 reads as the source's damage)."""
    from mtgsolve.solver.reader.tokens import self_names
    assert "Sorin" in self_names("Sorin the Mirthless", legendary=True)
    assert "Sorin" not in self_names("Sorin the Mirthless", legendary=False)
    card = get_card("Sorin the Mirthless")
    assert not card.unsupported

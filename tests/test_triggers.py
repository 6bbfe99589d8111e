"""Trigger events read by grammar and dispatched by the kernel (CR 603.2, 603.6a, 603.10a, 603.2b),
checked against an independent reference on random boards, through the API (actions that trigger
abilities), and for soundness both ways (a read trigger no longer blocks; an unread one still does).

The reference knows the test cards' trigger conditions as the rules state them — written here from
their Oracle text, not from the engine — and counts how many times each permanent's ability
triggers; the engine's answer is the multiset of sources of the abilities it put on the stack."""
from __future__ import annotations

from collections import Counter

from hypothesis import given, settings, strategies as st

from mtgsolve.solver.api import Situation
from mtgsolve.solver.core import ir
from mtgsolve.solver.io.load import situation_from_dict
from mtgsolve.solver.queries import answer

# name -> (Oracle text, the event it triggers on, how the reference decides)
OBSERVERS = {
    "Soul Warden": ("Whenever another creature enters, you gain 1 life.", "enters"),
    "Welcomer": ("Whenever a creature you control enters, you gain 1 life.", "enters"),
    "Mortician": ("Whenever this creature or another creature dies, you gain 1 life.", "dies"),
    "Mourner": ("Whenever a creature you control dies, you gain 1 life.", "dies"),
    "Grave Watcher": ("Whenever another creature an opponent controls dies, you gain 1 life.", "dies"),
}
_REAL = {"Soul Warden"}  # Blood Artist (its target: many outcomes) is instances/triggers/dies_another_creature…


def _card(name: str) -> object:
    if name in _REAL:
        return name
    return {"name": name, "types": ["Creature"], "subtypes": ["Human"], "power": 1, "toughness": 1,
            "text": OBSERVERS[name][0]}


def _reference_enters(board: list[tuple[str, str, str]], entering: tuple[str, str]) -> Counter[str]:
    """CR 603.6a: the permanents on the battlefield after the event look at it (the entering one too)."""
    eid, ectl = entering
    out: Counter[str] = Counter()
    for oid, name, ctl in board:
        if name == "Soul Warden":
            out[oid] += 1                                  # "another": the entering creature is not it
        elif name == "Welcomer" and ectl == ctl:
            out[oid] += 1
    return out


def _reference_dies(board: list[tuple[str, str, str]], dying: list[str]) -> Counter[str]:
    """CR 603.10a: the permanents on the battlefield just before, dying ones included, look back."""
    ctl = {oid: c for oid, _, c in board}
    out: Counter[str] = Counter()
    for oid, name, c in board:
        for d in dying:
            if name == "Mortician":
                out[oid] += 1
            elif name == "Mourner" and ctl[d] == c:
                out[oid] += 1
            elif name == "Grave Watcher" and d != oid and ctl[d] != c:
                out[oid] += 1
    return out


def _ids(names: list[tuple[str, str]]) -> list[tuple[str, str, str]]:
    """The loader's ids for the listed permanents (a slug, then -2, -3 … for repeats)."""
    seen: Counter[str] = Counter()
    out = []
    for name, ctl in names:
        base = name.lower().replace(" ", "-").replace("'", "")
        seen[base] += 1
        out.append((base if seen[base] == 1 else f"{base}-{seen[base]}", name, ctl))
    return out


def _engine_sources(doc: dict) -> Counter[str]:
    res = answer(situation_from_dict(doc).state, {"kind": "resolve"})
    assert res["status"] == "ok", res
    multisets = {tuple(sorted(Counter(o["ability"]["source"] for o in out["situation"].get("stack", [])
                                      if "ability" in o).items()))
                 for out in res["outcomes"]}
    assert len(multisets) == 1, multisets  # every outcome puts the same abilities on the stack
    return Counter(dict(next(iter(multisets))))


_PERMS = st.lists(st.tuples(st.sampled_from(sorted(OBSERVERS)), st.sampled_from(["alice", "bob"])),
                  min_size=1, max_size=3)


@settings(max_examples=25, deadline=None)
@given(_PERMS, st.sampled_from(["alice", "bob"]))
def test_enters_triggers_match_the_reference(perms, caster):
    board = _ids(perms)
    doc = {"format": "mtgsolve/1", "players": ["alice", "bob"], "turn": {"number": 3, "active": caster,
                                                                          "step": "main1"},
           "battlefield": {p: [{"card": _card(n)} for n, c in perms if c == p] for p in ("alice", "bob")},
           "stack": [{"card": "Grizzly Bears", "controller": caster}]}
    # the loader numbers ids in the battlefield's order: alice's permanents, then bob's
    board = _ids([(n, c) for n, c in perms if c == "alice"] + [(n, c) for n, c in perms if c == "bob"])
    assert _engine_sources(doc) == _reference_enters(board, ("grizzly-bears", caster))


@settings(max_examples=25, deadline=None)
@given(_PERMS, st.lists(st.booleans(), min_size=3, max_size=3))
def test_dies_triggers_look_back_and_match_the_reference(perms, lethal):
    ordered = [(n, c) for n, c in perms if c == "alice"] + [(n, c) for n, c in perms if c == "bob"]
    board = _ids(ordered)
    dying = [oid for (oid, _, _), dies in zip(board, lethal) if dies]
    bf: dict[str, list] = {"alice": [], "bob": []}
    for (oid, name, ctl), dies in zip(board, lethal + [False] * len(board)):
        card = _card(name)
        entry = {"card": card, "damage": 1} if dies else {"card": card}
        bf[ctl].append(entry)
    doc = {"format": "mtgsolve/1", "players": ["alice", "bob"], "turn": {"number": 3, "active": "alice",
                                                                          "step": "main1"},
           "battlefield": bf, "stack": [{"card": "Shock", "controller": "alice", "targets": [["bob"]]}]}
    assert _engine_sources(doc) == _reference_dies(board, dying)


STEP_TEXT = {"your": "At the beginning of your end step, you gain 1 life.",
             "each": "At the beginning of each end step, you gain 1 life.",
             "opponent's": "At the beginning of each opponent's end step, you gain 1 life."}


@settings(max_examples=20, deadline=None)
@given(st.lists(st.tuples(st.sampled_from(sorted(STEP_TEXT)), st.sampled_from(["alice", "bob"])),
                min_size=1, max_size=4), st.sampled_from(["alice", "bob"]))
def test_step_triggers_match_the_reference(keepers, active):
    """CR 603.2b: "your" — its controller's turn; "each opponent's" — an opponent's; "each" — every turn."""
    bf: dict[str, list] = {"alice": [], "bob": []}
    for i, (whose, ctl) in enumerate(keepers):
        bf[ctl].append({"card": {"name": f"Keeper {i}", "types": ["Enchantment"], "text": STEP_TEXT[whose]}})
    other = "bob" if active == "alice" else "alice"
    doc = {"format": "mtgsolve/1", "players": ["alice", "bob"],
           "turn": {"number": 4, "active": active, "step": "main2", "priority": other, "passed": [active]},
           "battlefield": bf}
    res = answer(situation_from_dict(doc).state, {"kind": "pass"})
    assert res["status"] == "ok"
    want = sum(1 for whose, ctl in keepers
               if whose == "each" or (whose == "your") == (ctl == active))
    got = {len(o["situation"].get("stack", [])) for o in res["outcomes"]}
    assert got == {want}


def _board(extra: dict | None = None, hand: list | None = None, step: str = "main1") -> Situation:
    d = {"format": "mtgsolve/1", "players": ["alice", "bob"], "turn": {"number": 3, "active": "alice", "step": step},
         "battlefield": {"alice": ["Mountain", "Forest"], "bob": []}, "hand": {"alice": hand or []}}
    for ctl, cards in (extra or {}).items():
        d["battlefield"][ctl] += cards
    return Situation(situation_from_dict(d).state)


def _stack_sources(sit: Situation) -> list[str]:
    return [o.ability.source if o.ability else o.id for o in sit.state.zone("stack")]


def test_landfall_triggers_as_a_land_is_played():
    """CR 305.1, 603.6a: Jaddi Offshoot's "Whenever a land you control enters" on playing a land."""
    sit = _board({"alice": ["Jaddi Offshoot"]}, hand=["Forest"])
    after = sit.apply("play forest-2")
    assert _stack_sources(after) == ["jaddi-offshoot"]
    ((_, resolved),) = after.resolve()
    assert resolved.state.player("alice").life == 21


def test_cast_triggers_only_for_the_spells_they_name():
    """CR 601.2i: Young Pyromancer triggers on an instant, not on a creature spell; "an opponent casts"
    not on its controller's own spells."""
    sit = _board({"alice": ["Young Pyromancer"]}, hand=["Lightning Bolt", "Llanowar Elves"])
    assert _stack_sources(sit.apply("cast lightning-bolt -> bob")) == ["young-pyromancer", "lightning-bolt"]
    assert _stack_sources(sit.apply("cast llanowar-elves")) == ["llanowar-elves"]
    watcher = {"name": "Spell Watcher", "types": ["Enchantment"],
               "text": "Whenever an opponent casts a spell, you gain 1 life."}
    sit = _board({"alice": [{"card": watcher}]}, hand=["Lightning Bolt"])
    assert _stack_sources(sit.apply("cast lightning-bolt -> bob")) == ["lightning-bolt"]


def test_trigger_events_read_by_grammar():
    """The grammar of trigger events (reader/trigger_events.py) on printed shapes."""
    from mtgsolve.solver.reader import read_lines
    from mtgsolve.solver.cards.importer import card_data

    def trig(text: str) -> ir.Trigger | None:
        data, _ = card_data({"name": "Probe", "types": ["Creature"], "type": "Creature", "text": text,
                             "power": "1", "toughness": "1"})
        lines, _ = read_lines(data)
        ab = [p for r in lines for p in r.parts if isinstance(p, ir.TriggeredAbility)]
        return ab[0].trigger if ab else None

    assert trig("At the beginning of each opponent's upkeep, you gain 1 life.") == ir.StepTrigger("upkeep", "opponent")
    assert trig("At the beginning of your first main phase, you gain 1 life.") == ir.StepTrigger("main1", "you")
    assert trig("At the beginning of the end step, you gain 1 life.") == ir.StepTrigger("end", "each")
    assert trig("Whenever this creature enters or attacks, you gain 1 life.") == \
        ir.EitherTrigger((ir.EntersTrigger(), ir.AttacksTrigger()))
    t = trig("Whenever another nontoken creature you control dies, you gain 1 life.")
    assert isinstance(t, ir.ObjectDiesTrigger) and t.what.other_than_source and t.what.token is False \
        and t.what.who == "you"
    t = trig("Whenever you cast an instant or sorcery spell, you gain 1 life.")
    assert isinstance(t, ir.CastTrigger) and t.who == "you" and [f.types for f in t.spells] == [{"Instant", "Sorcery"}]
    assert trig("Whenever you cast your second spell each turn, you gain 1 life.") == ir.CastTrigger("you", (), 2)
    assert trig("Whenever you cast your first instant or sorcery spell each turn, you gain 1 life.") is None
    # an intervening "if" (CR 603.4): its condition read, or the trigger stays unread (never firing regardless)
    assert trig("When this creature enters, if you control a Swamp, you gain 1 life.") == ir.EntersTrigger()
    assert trig("When this creature enters, if it was kicked, you gain 1 life.") is None


def test_unread_trigger_still_blocks_what_it_reaches():
    """Soundness both ways: Popular Egotist's sacrifice trigger is not read — a Shock resolving that
    kills nothing is answered; the board with the read Soul Warden resolves a creature spell."""
    egotist = {"format": "mtgsolve/1", "players": ["alice", "bob"],
               "turn": {"number": 3, "active": "alice", "step": "main1"},
               "battlefield": {"alice": ["Popular Egotist"]},
               "stack": [{"card": "Grizzly Bears", "controller": "alice"}]}
    res = answer(situation_from_dict(egotist).state, {"kind": "resolve"})
    assert res["status"] == "ok"  # nothing is sacrificed: the unread event can't happen
    from mtgsolve.solver.api import UnsupportedCaseError
    import pytest

    board = {**egotist, "stack": [], "battlefield": {"alice": ["Popular Egotist", "Grizzly Bears", "Swamp", "Swamp"]}}
    sit = Situation(situation_from_dict(board).state)
    assert answer(sit.state, {"kind": "actions"})["status"] == "ok"  # legal actions: triggers act later (603.2)
    with pytest.raises(UnsupportedCaseError):   # applying the sacrifice makes the unread ability trigger
        sit.apply("activate popular-egotist:1 paying swamp, swamp-2 sacrificing grizzly-bears")


def test_triggered_text_of_a_card_in_a_library_acts_only_on_its_own_moves():
    """CR 113.6k–n: off the battlefield a triggered ability works only if it triggers on that card's own
    moves or its being there, and one whose effect moves the card out of a zone only in that zone. Sylvan Library's draw-step ability and Goblin Guide's attack trigger in a
    library can't act (passing into the draw step is answered); Narcomoeba's "When this card is put into
    your graveyard from your library" still blocks a resolution that mills."""
    from mtgsolve.solver.rules.soundness.unread import active

    assert not active("At the beginning of your draw step, you may draw two additional cards.", "triggered",
                      "library", ("Enchantment",), "Sylvan Library")
    assert not active("Whenever this creature attacks, defending player reveals the top card of their library.",
                      "triggered", "library", ("Creature",), "Goblin Guide")
    assert active("When Narcomoeba is put into your graveyard from your library, you may put it onto the "
                  "battlefield.", "triggered", "library", ("Creature",), "Narcomoeba")
    assert active("Whenever a land you control enters, you may return this card from your graveyard to the "
                  "battlefield tapped.", "triggered", "graveyard", ("Creature",), "Bloodghast")
    assert not active("As an additional cost to cast this spell, you may exile any number of white permanents.",
                      "spell", "library", ("Instant",), "March of Otherworldly Light")
    # CR 113.6k: an effect moving the card itself out of one zone makes the ability work only there
    chick = ("Whenever you attack with three or more creatures, you may pay {R}{R}. If you do, return this card "
             "from your graveyard to the battlefield tapped and attacking with a +1/+1 counter on it.")
    assert active(chick, "triggered", "graveyard", ("Creature",), "Phoenix Chick")
    for zone in ("hand", "library", "exile"):
        assert not active(chick, "triggered", zone, ("Creature",), "Phoenix Chick")
    for zone in ("hand", "library"):
        assert not active("Whenever a land you control enters, you may return this card from your graveyard to "
                          "the battlefield tapped.", "triggered", zone, ("Creature",), "Bloodghast")
    # … unless the trigger condition puts it into that zone first
    assert active("When this creature is put into your graveyard from the battlefield, return it from your "
                  "graveyard to your hand.", "triggered", "library", ("Creature",), "Some Card")
    doc = {"format": "mtgsolve/1", "players": ["alice", "bob"],
           "turn": {"number": 3, "active": "alice", "step": "upkeep", "priority": "bob", "passed": ["alice"]},
           "battlefield": {"alice": ["Forest"]}, "library": {"alice": ["Forest", "Goblin Guide", "Sylvan Library"]}}
    assert answer(situation_from_dict(doc).state, {"kind": "pass"})["status"] == "ok"
    doc["battlefield"]["alice"].append("Sylvan Library")
    assert answer(situation_from_dict(doc).state, {"kind": "pass"})["status"] == "unsupported"


def test_keywords_that_are_triggers_read_by_their_meaning():
    """CR 702.45a bushido N, 702.91a battle cry, 702.135a afterlife N: read as the triggered ability each
    stands for (by the same trigger and effect grammar as printed text), on creature cards."""
    from mtgsolve.solver.cards import get_card

    def trig(name: str) -> ir.TriggeredAbility:
        (a,) = [x for x in get_card(name).abilities if isinstance(x, ir.TriggeredAbility)]
        return a

    bushido = trig("Samurai of the Pale Curtain")
    assert bushido.trigger == ir.EitherTrigger((ir.BlocksTrigger(), ir.BecomesBlockedTrigger()))
    assert bushido.effects == (ir.Pump(ir.SELF, 1, 1),) or "+1/+1" in bushido.describe()
    assert isinstance(trig("Signal Pest").trigger, ir.AttacksTrigger)
    afterlife = trig("Ministrant of Obligation")
    assert isinstance(afterlife.trigger, ir.DiesTrigger) and "create 2 Spirit" in afterlife.describe()


def test_second_spell_each_turn_counts_the_recorded_spells():
    """CR 601.2i: "Whenever you cast your second spell each turn" triggers on the caster's second spell,
    counted by turn.spells_cast; with no record the action is refused, not guessed."""
    from mtgsolve.solver.core.moves import UnsupportedActionError
    import pytest

    card = {"name": "Second Wind", "types": ["Enchantment"],
            "text": "Whenever you cast your second spell each turn, you gain 2 life."}

    def sit(cast: dict | None) -> Situation:
        turn: dict = {"number": 3, "active": "alice", "step": "main1"}
        if cast is not None:
            turn["spells_cast"] = cast
        return Situation(situation_from_dict({
            "format": "mtgsolve/1", "players": ["alice", "bob"], "turn": turn,
            "battlefield": {"alice": [{"card": card}, "Mountain"]}, "hand": {"alice": ["Lightning Bolt"]}}).state)

    assert _stack_sources(sit({"alice": 1}).apply("cast lightning-bolt -> bob")) == ["second-wind", "lightning-bolt"]
    assert _stack_sources(sit({}).apply("cast lightning-bolt -> bob")) == ["lightning-bolt"]
    with pytest.raises(UnsupportedActionError):
        sit(None).apply("cast lightning-bolt -> bob")


def test_when_you_cast_this_spell_triggers_from_the_stack():
    """CR 601.2i, 113.6c: "When you cast this spell" is an ability of the spell; it triggers as the spell
    becomes cast and resolves before it."""
    herald = {"name": "Test Herald", "manaCost": "{R}", "types": ["Creature"], "power": 1, "toughness": 1,
              "text": "When you cast this spell, you gain 2 life."}
    sit = Situation(situation_from_dict({
        "format": "mtgsolve/1", "players": ["alice", "bob"], "turn": {"number": 3, "active": "alice", "step": "main1"},
        "battlefield": {"alice": ["Mountain"]}, "hand": {"alice": [{"card": herald}]}}).state)
    after = sit.apply("cast test-herald")
    assert _stack_sources(after) == ["test-herald", "test-herald"]
    assert after.state.zone("stack")[0].ability is not None
    ((_, resolved),) = after.resolve()
    assert resolved.state.player("alice").life == 22 and resolved.state.zone("stack")[0].id == "test-herald"


def _pass_stacks(doc: dict) -> list[list[str]]:
    res = answer(situation_from_dict(doc).state, {"kind": "pass"})
    assert res["status"] == "ok", res
    return [[o["ability"]["source"] for o in out["situation"].get("stack", [])] for out in res["outcomes"]]


def test_unblocked_dealt_damage_and_one_or_more_deal_combat_damage():
    """CR 509.1h "attacks and isn't blocked" as blockers are declared; CR 603.2c "one or more creatures
    you control deal combat damage to a player" once for the whole damage step, however many deal it;
    "is dealt damage" once per damage event."""
    scout = {"name": "Quiet Scout", "types": ["Creature"], "power": 1, "toughness": 1,
             "text": "Whenever this creature attacks and isn't blocked, you gain 2 life."}
    banner = {"name": "Raid Banner", "types": ["Enchantment"],
              "text": "Whenever one or more creatures you control deal combat damage to a player, you gain 1 life."}
    doc = {"format": "mtgsolve/1", "players": ["alice", "bob"],
           "turn": {"number": 3, "active": "alice", "step": "declare_attackers", "priority": "bob", "passed": ["alice"]},
           "battlefield": {"alice": [{"card": scout, "attacking": "bob"}, {"card": "Grizzly Bears", "attacking": "bob"},
                                     {"card": banner}]}}
    assert _pass_stacks(doc) == [["quiet-scout"]]
    doc["turn"]["step"] = "declare_blockers"
    assert _pass_stacks(doc) == [["raid-banner"]]   # two creatures dealt damage: one trigger
    hurt = {"name": "Sore Hide", "types": ["Creature"], "power": 0, "toughness": 4,
            "text": "Whenever this creature is dealt damage, you gain 1 life."}
    res = answer(situation_from_dict({
        "format": "mtgsolve/1", "players": ["alice", "bob"], "turn": {"number": 3, "active": "alice", "step": "main1"},
        "battlefield": {"alice": [{"card": hurt}]},
        "stack": [{"card": "Shock", "controller": "bob", "targets": [["sore-hide"]]}]}).state, {"kind": "resolve"})
    assert [[o["ability"]["source"] for o in out["situation"]["stack"]] for out in res["outcomes"]] == [["sore-hide"]]


def test_attacks_alone_only_with_one_attacker():
    """CR 506.5: "Whenever a creature you control attacks alone" triggers only when it is the only
    creature declared as an attacker."""
    watcher = {"name": "Lone Watch", "types": ["Enchantment"],
               "text": "Whenever a creature you control attacks alone, you gain 1 life."}
    doc = {"format": "mtgsolve/1", "players": ["alice", "bob"],
           "turn": {"number": 3, "active": "alice", "step": "beginning_of_combat", "priority": "bob", "passed": ["alice"]},
           "battlefield": {"alice": [{"card": watcher}, "Grizzly Bears", "Savannah Lions"]}}
    res = answer(situation_from_dict(doc).state, {"kind": "pass"})
    got = sorted((len(o["choices"].get("attackers", {})), len(o["situation"].get("stack", []))) for o in res["outcomes"])
    assert got == [(0, 0), (1, 1), (1, 1), (2, 0)]


def test_a_rule_the_cost_model_lacks_refuses_the_legal_actions_never_crashes():
    """Found by the competitive-games benchmark: a cost reduction larger than the generic part of a cost with
    {X} (CR 118.7, not modeled) made listing the legal actions raise; it is a refusal naming the action."""
    from mtgsolve.solver.core.moves import UnsupportedActionError
    import pytest

    sit = Situation(situation_from_dict({
        "format": "mtgsolve/1", "players": ["alice", "bob"], "turn": {"number": 3, "active": "alice", "step": "main1"},
        "battlefield": {"alice": ["Baral, Chief of Compliance", "Mountain"]}, "hand": {"alice": ["Blaze"]}}).state)
    with pytest.raises(UnsupportedActionError, match="cannot decide casting Blaze"):
        list(sit.legal_actions)

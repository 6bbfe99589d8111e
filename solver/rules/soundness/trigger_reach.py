"""Could an unread triggered ability trigger while the top of the stack resolves? (contract §2.0)

The soundness layer refuses ``resolve`` whenever an unread part could change its outcome. A
triggered ability changes it only if its trigger event happens during the resolution (CR 603.2:
it triggers when the event occurs; CR 603.3: it is put on the stack the next time a player would
receive priority — part of the outcome). The resolving object's effects are modeled (otherwise
its own unread text refuses the question), so the events they can cause are known:

* :func:`produced_events` — the families of events the resolution of the top of the stack can
  cause: from each modeled effect (destroying → a permanent leaves the battlefield and a card is
  put into a graveyard; creating tokens → a permanent enters; drawing; …), a permanent spell
  entering the battlefield, and state-based actions after them (CR 704: damage or -N/-N can make
  creatures die). ``None`` when some effect is not one the table knows (then anything can
  happen).
* :func:`event_families` — the families a trigger's event belongs to, from its printed words or
  its read :class:`~solver.core.ir.Trigger`; ``None`` when its words name no family the table knows.

A triggered part can't trigger during the resolution when both are known and share no family:
"At the beginning of your upkeep" (no step begins during a resolution), "Whenever you cast …"
(no spell is cast by a modeled effect), "Whenever … attacks" (no attack is declared), prowess,
cascade, a Saga's chapter abilities (no lore counter is added, CR 714.2b), "When this creature
enters" of a permanent already on the battlefield (it does not enter again). Conservative
everywhere else.
"""
from __future__ import annotations

import re
from typing import Any, Iterable

from ...core import ir
from ...core.state import GameState
from ...reader.tokens import self_names

__all__ = ["produced_events", "event_families", "event_clause", "may_trigger", "targeting_triggers",
           "TRIGGER_EVENT_FAMILIES", "regeneration_may_tap"]

#: Families of events each modeled effect class can cause (CR 608.2, 704 after it); a class not
#: here (:class:`ir.UntilEndOfTurn`, :class:`ir.UnreadEffect`, …) makes the resolution's events unknown.
_EFFECT_EVENTS: dict[type, frozenset[str]] = {k: frozenset(v.split()) for k, v in {
    ir.Damage: "damage leaves graveyard life",      # damage to players is life loss (CR 120.3); SBA deaths
    ir.Destroy: "leaves graveyard",
    ir.Exile: "leaves exile leaves_graveyard",
    ir.ReturnToHand: "leaves leaves_graveyard",
    ir.ReturnToBattlefield: "enters leaves_graveyard from_graveyard",
    ir.Pump: "leaves graveyard",                    # -N/-N: state-based deaths (CR 704.5f)
    ir.Fight: "damage leaves graveyard",
    ir.Draw: "draw",
    ir.Mill: "mill graveyard",
    ir.ExileTopPlayable: "exile",
    ir.DelayedCast: "",
    ir.IfDealtDamage: "damage leaves graveyard life",   # and its instructions' (below)                             # creating the delayed ability is no event (CR 603.7a)
    ir.GainLife: "life",
    ir.LoseLife: "life",
    ir.LookAtHand: "",
    ir.CreateTokens: "enters create",
    ir.CounterSpell: "countered graveyard",
    ir.ExileIfDies: "exile leaves",
    ir.Reflexive: "target_ability",
    ir.ExiledCardTokens: "enters create",           # tokens for the linked exiled cards (CR 607.2a)                 # its own instructions' events are added (CR 603.12)                 # a later death is an exile instead (CR 614.1a)
    ir.SkipUntap: "",
    ir.Untap: "tap",
    ir.Tap: "tap",
    ir.PutCounters: "counters leaves graveyard",    # -1/-1 counters: state-based deaths
    ir.Conjure: "enters conjure from_outside",
    ir.SearchLibrary: "search shuffle enters from_library",
    ir.PutFromHand: "enters",
    ir.ArrangeTop: "",
    ir.Transform: "transform",                     # "whenever this creature transforms into …" (CR 701.27b)
    ir.Flip: "",
    ir.ReturnTransformed: "leaves enters exile transform",
    ir.Blink: "leaves enters exile graveyard",     # its Auras go to the graveyard (CR 704.5m)
    ir.GainControl: "gain_control",               # a control change; out of combat (CR 506.4): no event
    ir.ReturnExiled: "enters",
    ir.ReturnAllFromGraveyard: "enters leaves_graveyard",                     # an exiled card returns (its "enters" abilities)
    ir.RevealTop: "",                              # looking and revealing; its instructions: their own
    ir.Meld: "leaves exile enters",
    ir.Scry: "",                                   # the library's order only ("whenever you scry": no family)
    ir.Surveil: "mill graveyard",                  # library to graveyard, as milled cards go
    ir.ChooseFromTop: "",
    ir.PileOnTop: "search exile",                  # exiled from a library and a graveyard (CR 701.23a)
    ir.LoseHalfLife: "life",
    ir.ExileLibrary: "exile",
    ir.ShuffleHandIntoLibrary: "shuffle",
    ir.ExiledToHand: "",                           # exile to a hand: no draw (CR 121.1)
    ir.Dig: "graveyard enters from_library exile life",   # the most it can do (_dig_events: each one's)
    ir.PutFromHandOnTop: "",
    ir.UntilEndOfTurn: "",                         # a continuous effect begins: no event of its own (CR 611.2a)
    ir.Shuffle: "shuffle",
    ir.Discard: "discard graveyard",
    ir.CounterUnlessPays: "countered graveyard tap mana life leaves sacrifice",   # countered, or paid as ward
    ir.ItsControllerGainsLife: "life",
    ir.ItsControllerInvestigates: "enters create",
    ir.Regenerate: "",                             # a shield; the destruction it replaces taps (see below)
    ir.PreventDamage: "",                          # a shield: less damage, no event of its own
    ir.Sacrifice: "leaves graveyard sacrifice",    # evoke's sacrifice (CR 701.21a, 702.74a)
    ir.CopySpell: "cast target",                   # a copy on the stack ("cast or copy"), its targets (707.10)
    ir.IfCast: "",
    ir.IfCondition: "",
    ir.Animate: "",                                # it becomes a creature: no event of its own                            # "if you control …": its instructions, their own                                 # "if this spell was kicked": its instructions, their own
    # what is attached changes characteristics (an Equipment's -N/-N: state-based deaths); "becomes
    # attached" events have no family of their own (unknown: such a trigger blocks every resolution)
    ir.Attach: "leaves graveyard",
    ir.Unattach: "leaves graveyard",
    ir.GroupAnimate: "leaves graveyard",            # a base 0/1 or 1/1: state-based deaths (CR 704.5f-g)
    ir.GroupPump: "leaves graveyard",               # -N/-N to a group: state-based deaths (CR 704.5f)
    ir.ThisTurn: "",                                # a combat rule for the turn: no event
    ir.GroupThisTurn: "",
    ir.Monstrosity: "counters monstrous",           # +1/+1 counters; "when this becomes monstrous" (701.37b)
    ir.Adapt: "counters",
    ir.Explore: "counters graveyard mill",           # the revealed card to a hand, a counter, a card to the graveyard
    ir.Bolster: "counters",
    ir.Connive: "draw discard graveyard counters",   # draws, discards, a +1/+1 counter (CR 701.50a)
}.items()}

#: The events of the effects of players' choices (issue 26, helper effa): sacrificed permanents go
#: to the graveyard (CR 701.21a; creatures die), a returned one leaves the battlefield, counters may
#: kill (-1/-1, CR 704.5f), "unless you pay" pays as a cost does (mana abilities, CR 605.3a).
_EFFECT_EVENTS.update({k: frozenset(v.split()) for k, v in {
    ir.SacrificeChosen: "sacrifice leaves graveyard",
    ir.SacrificeUnlessPays: "sacrifice leaves graveyard tap mana life",
    ir.ReturnChosen: "leaves",
    ir.PutCountersOnEach: "counters leaves graveyard",
    ir.Proliferate: "counters leaves graveyard",
    # mana added to a pool (CR 106.4): no permanent is tapped for mana ("for mana" triggers don't
    # trigger) and no mana ability is activated (CR 605.1b); a trigger worded otherwise has no family
    ir.AddMana: "",
    ir.ChooseDiscard: "discard graveyard",
    ir.Transmute: "search shuffle",
    # "you may pay …. If you do, …": paid as a cost is (mana abilities: tap, sacrifice, life, CR 605.3a),
    # then its instructions (their own, below); a coin flip (CR 705): "whenever you win a coin flip"
    ir.MayPay: "tap mana life leaves sacrifice graveyard",
    ir.CoinFlip: "random",
    ir.LoseGame: "",                               # the game ends (CR 104.1) or the player leaves it
    ir.WinIfLibraryAtMost: "",                     # the game ends (CR 104.1)
    ir.UntapChosen: "tap",                         # untapped ("whenever … becomes untapped")
    ir.ExtraTurn: "",                              # a later turn's order: no event now
    ir.SkipNextCombat: "",                         # a later combat phase skipped: no event now
}.items()})

#: The events of the library effects (issue 26, helper library): a permanent put into a library
#: leaves the battlefield (CR 400.7); a spell shuffled into its library; cards from graveyards and
#: hands into libraries (they leave the graveyard), shuffles and draws.
_EFFECT_EVENTS.update({k: frozenset(v.split()) for k, v in {
    ir.GainLifeEqualTo: "life",
    ir.PutInLibrary: "leaves",
    ir.ShuffleSelfIntoLibrary: "shuffle",
    ir.Wheel: "shuffle draw leaves_graveyard graveyard",
    ir.GraveyardToBottom: "leaves_graveyard graveyard",
    ir.RevealTopToHand: "",                          # revealing; a card put into a hand is no draw (CR 121.1)
}.items()})

#: The events of keyword instructions (helper kw2): a counter removed (fading's sacrifice: a permanent
#: to the graveyard, CR 702.32a, 701.21a); suspend's cast from exile (CR 702.62a: a spell cast, a card
#: leaving exile, its targets' "becomes the target").
_EFFECT_EVENTS.update({k: frozenset(v.split()) for k, v in {
    ir.RemoveCounter: "counters leaves graveyard sacrifice",
    ir.CastSuspended: "cast exile target",
    ir.Cascade: "cast exile target",   # exiled from the library, maybe cast (with targets), the rest to the bottom
}.items()})

#: Event words → family. Order doesn't matter: every matching family counts.
_EVENT_WORDS: tuple[tuple[str, re.Pattern[str]], ...] = tuple((fam, re.compile(rx)) for fam, rx in (
    ("step", r"^at (?:the )?(?:beginning|end) of\b"),
    ("cast", r"\bcasts?\b|\bcopies\b|\bcopy\b"),
    ("cycle", r"\bcycles?\b|\bcycling\b"),
    ("attack", r"\battacks?\b|\battacking\b"),
    ("block", r"\bblocks?\b|\bblocked\b|\bblocking\b"),
    ("target", r"\bbecomes? the target\b|\btargets?\b"),
    ("activate", r"\bactivates?\b|\bactivated\b"),
    ("mana", r"\bfor mana\b"),
    ("draw", r"\bdraws?\b|\bdrawn\b"),
    ("enters", r"\benters?\b|\bentered\b"),
    ("leaves", r"\bdies\b|\bdie\b|\bleaves? the battlefield\b|\bput into (?:a|an|your|its owner's|their|an "
               r"opponent's) graveyard\b|\bdestroyed\b"),
    ("graveyard", r"\bgraveyards?\b"),
    ("damage", r"\bdamage\b"),
    ("life", r"\blife\b"),
    ("counters", r"\bcounters?\b|\bproliferate\b"),
    ("discard", r"\bdiscards?\b"),
    ("sacrifice", r"\bsacrifices?\b"),
    ("search", r"\bsearch(?:es)?\b"),
    ("shuffle", r"\bshuffles?\b"),
    ("mill", r"\bmills?\b|\bmilled\b"),
    ("leaves_graveyard", r"\bleaves? (?:your|a|an opponent's) graveyard\b"),
    ("exile", r"\bexiled?\b"),
    ("tap", r"\btaps?\b|\buntaps?\b|\btapped\b|\buntapped\b"),
    ("create", r"\bcreates?\b|\btokens?\b"),
    ("countered", r"\bcountered\b"),
    ("transform", r"\btransforms?\b"),
    ("random", r"\broll\b|\bflip\b|\bcoin\b"),
    ("gain_control", r"\bgains? control\b|\bcontrol of\b"),
    ("turn_face", r"\bturned face up\b|\bface-down\b"),
    ("phase", r"\bphases?\b"),
    ("monstrous", r"\bmonstrous\b"),
))

#: Keyword triggers (CR 702) by the event they trigger on.
_KEYWORD_EVENTS: dict[str, frozenset[str]] = {k: frozenset(v.split()) for k, v in {
    "prowess": "cast", "cascade": "cast", "storm": "cast", "extort": "cast", "ward": "target target_ability",
    "exalted": "attack", "annihilator": "attack", "battle cry": "attack", "melee": "attack",
    "myriad": "attack", "afflict": "block", "bushido": "block", "flanking": "block", "rampage": "block",
    "persist": "leaves", "undying": "leaves", "afterlife": "leaves", "evoke": "enters",
    "training": "attack", "mentor": "attack", "dethrone": "attack", "renown": "damage",
    "soulshift": "leaves", "exploit": "enters", "fabricate": "enters", "backup": "enters",
    "evolve": "enters", "riot": "enters", "living weapon": "enters",
}.items()}

#: A read trigger event (:class:`~solver.core.ir.Trigger`) as event families.
TRIGGER_EVENT_FAMILIES: dict[type[ir.Trigger], frozenset[str]] = {
    ir.ReflexiveTrigger: frozenset(),
    ir.DiscardTrigger: frozenset({"discard"}),   # triggers only from the instruction that made it (CR 603.12)
    ir.EntersTrigger: frozenset({"self_enters"}), ir.DiesTrigger: frozenset({"leaves"}),
    ir.AttacksTrigger: frozenset({"attack"}), ir.BecomesTappedTrigger: frozenset({"tap"}),
    ir.StepTrigger: frozenset({"step"}), ir.TappedForMana: frozenset({"mana"}),
    ir.BecomesTargetTrigger: frozenset({"target", "target_ability"}),   # ward: a spell or an ability
    ir.ObjectEntersTrigger: frozenset({"enters"}), ir.ObjectDiesTrigger: frozenset({"leaves"}),
    ir.LeavesTrigger: frozenset({"leaves"}), ir.CastTrigger: frozenset({"cast"}),
    ir.CombatDamageTrigger: frozenset({"damage"}), ir.LifeGainTrigger: frozenset({"life"}),
    ir.DrawTrigger: frozenset({"draw"}), ir.YouAttackTrigger: frozenset({"attack"}),
    ir.OtherAttacksTrigger: frozenset({"attack"}), ir.BlocksTrigger: frozenset({"block"}),
    ir.BecomesBlockedTrigger: frozenset({"block"}), ir.CastSelfTrigger: frozenset({"cast"}),
    ir.DealtDamageTrigger: frozenset({"damage"}), ir.GroupCombatDamageTrigger: frozenset({"damage"}),
    ir.UnblockedTrigger: frozenset({"block"}), ir.LastCounterRemovedTrigger: frozenset({"counters"}),
    ir.CycleTrigger: frozenset({"cycle"}),
}

_REMINDER = re.compile(r"\([^)]*\)")
_CHAPTER = re.compile(r"^[ivx]+(?:, [ivx]+)* —")
_SELF_ENTERS = re.compile(r"^(?:when|whenever) (?:this \w+|~|it) enters\b(?! or)")


def _dig_events(e: ir.Dig) -> frozenset[str]:
    """The event families of one look at the top of a library (CR 401.5): where its cards go — a
    graveyard, exile, the battlefield (from a library); into a hand or within the library none (no
    draw, CR 121.1) — and the life lost for a card taken."""
    out: set[str] = set()
    for where in (e.to, e.rest):
        out |= {"graveyard": {"graveyard"}, "exile": {"exile"}, "battlefield": {"enters", "from_library"}}.get(where, set())
    if e.lose_life_mv:
        out.add("life")
    return frozenset(out)


def _events_of_effects(effects: Iterable[Any]) -> frozenset[str] | None:
    out: set[str] = set()
    for e in effects:
        got = _EFFECT_EVENTS.get(type(e))
        if got is None:
            return None
        if isinstance(e, ir.CreateTokens) and e.attach_source:
            got = got | {"leaves", "graveyard"}      # the Equipment's bonus or none: a 0/0 Germ dies (CR 704.5f)
        if isinstance(e, ir.SearchLibrary) and e.zone == "hand":
            got = got - {"enters", "from_library"}   # found into the hand: nothing enters the battlefield
        if isinstance(e, (ir.CounterSpell, ir.CounterUnlessPays)) and e.instead:
            got = got | {e.instead}   # countered this way, it is exiled / returned instead (CR 614.1a)
        if isinstance(e, ir.Reflexive):   # a triggered ability put on the stack later, with its targets
            inner = _events_of_effects(e.effects)
            if inner is None:
                return None
            got = got | inner
        if isinstance(e, ir.Dig):
            got = _dig_events(e)
        if isinstance(e, (ir.RevealTop, ir.IfCast, ir.IfCondition)):   # revealed / kicked / a condition
            inner = _events_of_effects(e.then + (e.otherwise if isinstance(e, (ir.IfCast, ir.IfCondition)) else ()))
            if inner is None:
                return None
            got = inner
        elif isinstance(e, (ir.MayPay, ir.CoinFlip, ir.IfDealtDamage)):   # the payment's, flip's or damage's too
            inner = _events_of_effects(e.then + e.otherwise if isinstance(e, ir.MayPay) else
                                       e.then if isinstance(e, ir.IfDealtDamage) else e.win + e.lose)
            if inner is None:
                return None
            got = got | inner
        out |= got
    return frozenset(out)


def _stack_effects(state: GameState, o: Any) -> list[Any] | None:
    """The modeled effects of a stack object (all modes of a modal one), or None when unknown."""
    if o.card is not None:
        spell = o.card.spell
        if spell is None:
            return []
        return list(spell.effects) + [e for m in getattr(spell, "modes", ()) or () for e in m.effects]
    if o.ability is None:
        return None
    src = state.find(o.ability.source)
    lki = dict(o.last_known).get("card")
    card = lki if lki is not None else (src.card if src is not None else None)
    if card is None:
        return None
    numbered = ir.numbered_abilities(card.abilities)
    if not 1 <= o.ability.index <= len(numbered):
        return None
    a = numbered[o.ability.index - 1]
    if isinstance(a, ir.Unsupported):
        return None
    return list(getattr(a, "effects", ()) or ()) + [e for m in getattr(a, "modes", ()) or () for e in m.effects]


def produced_events(state: GameState) -> frozenset[str] | None:
    """The event families the resolution of the top of the stack can cause; None: unknown (once per
    state: every unread trigger of the board asks)."""
    return state.memo("produced_events", lambda: _produced_events(state))


#: What resolving a ward ability can cause (CR 702.21a): the spell or ability countered (a spell put
#: into its owner's graveyard), or its cost paid — mana abilities activated (tapping, mana), life
#: paid, a permanent sacrificed.
_WARD_EVENTS = frozenset("countered graveyard tap mana life leaves sacrifice".split())


def _is_ward(state: GameState, o: Any) -> bool:
    if o.ability is None:
        return False
    src = state.find(o.ability.source)
    card = dict(o.last_known).get("card") or (src.card if src is not None else None)
    numbered = ir.numbered_abilities(card.abilities) if card is not None else []
    return 1 <= o.ability.index <= len(numbered) and isinstance(numbered[o.ability.index - 1], ir.Ward)


def targeting_triggers(state: GameState) -> bool:
    """Could a triggered ability be put on the stack with targets after the resolution (CR 603.3d:
    a permanent then "becomes the target", ward's event)? Some read triggered ability with targets
    on a card in the game (an unread one blocks by its own rule); once per state."""
    return state.memo("targeting_triggers", lambda: _targeting_triggers(state))


def _targeting_triggers(state: GameState) -> bool:
    return any(isinstance(a, ir.TriggeredAbility) and (a.targets or any(m.targets for m in a.modes))
               for o in state.objects if o.card is not None for a in o.card.abilities)


def _produced_events(state: GameState) -> frozenset[str] | None:
    got = _produced_top_events(state)
    if got and targeting_triggers(state):
        got |= {"target_ability"}                 # a triggered ability put on the stack with targets
    if got and "leaves" in got and regeneration_may_tap(state):
        got |= {"tap"}                            # a destruction replaced by regeneration taps (CR 701.15a)
    if got and "damage" in got and _damage_to_counters(state):
        got |= {"counters", "leaves", "graveyard"}   # damage replaced by -1/-1 counters (CR 614.1a, 704.5f)
    return got


def _damage_to_counters(state: GameState) -> bool:
    """Could damage be replaced by counters (:class:`ir.DamageToCounters`, a read static on the battlefield)?"""
    return any(isinstance(a, ir.DamageToCounters) for o in state.battlefield if o.card is not None
               for a in o.card.abilities)


def regeneration_may_tap(state: GameState) -> bool:
    """Does some untapped permanent have a regeneration shield (CR 701.15a: a destruction it replaces
    taps it, a "becomes tapped" event)?"""
    return any(o.regeneration_shields and not o.tapped for o in state.objects if o.zone == "battlefield")


def _produced_top_events(state: GameState) -> frozenset[str] | None:
    stack = state.zone("stack")
    if not stack:
        return frozenset()
    top = stack[0]
    if _is_ward(state, top):
        return _WARD_EVENTS
    effects = _stack_effects(state, top)
    if effects is None:
        return None
    got = _events_of_effects(effects)
    if got is None:
        return None
    if top.card is not None and not ({"Instant", "Sorcery"} & set(top.card.data.types)):
        got |= {"enters", "leaves", "graveyard", "from_stack"}  # it enters (CR 608.3); the legend rule (704.5j)
        if _enters_with_counters(top.card):
            got |= {"counters"}                    # counters put as it enters (CR 122.6, 306.5b, 714.3a)
    if top.card is not None and ({"Instant", "Sorcery"} & set(top.card.data.types)):
        got |= {"graveyard"}                       # the spell is put into its owner's graveyard (CR 608.2n)
    return frozenset(got)


def _enters_with_counters(card: Any) -> bool:
    """A permanent card that enters with counters: a planeswalker's loyalty (CR 306.5b), a Saga's
    lore counter (714.3a), an "enters with … counters" ability (614.1c), read or not."""
    types = set(card.data.types)
    if "Planeswalker" in types or "Saga" in card.data.subtypes or "Battle" in types:
        return True
    return any(isinstance(a, ir.EntersWith) and a.counter for a in card.abilities) or \
        bool(re.search(r"\benters? with\b[^.]*\bcounters?\b", card.data.text.lower()))


def _words(text: str) -> str:
    return " ".join(_REMINDER.sub("", text).lower().replace("—", " — ").split())


def event_clause(text: str) -> str:
    """The trigger event of a printed triggered ability, lower case without reminder text: its words up
    to the first comma, after an ability word ("Landfall — …", CR 207.2c)."""
    w = _words(text)
    if " — " in w[:40]:
        head, rest = w.split(" — ", 1)
        if rest.startswith(("when", "whenever", "at ")):
            w = rest
    return w.split(",", 1)[0]


def event_families(text: str, trigger: ir.Trigger | None = None) -> frozenset[str] | None:
    """The families of a triggered ability's event; None when not known."""
    if trigger is not None:
        return TRIGGER_EVENT_FAMILIES.get(type(trigger))
    w = _words(text)
    if _CHAPTER.match(w):
        return frozenset({"counters"})             # a lore counter is added (CR 714.2b)
    for n in (2, 1):
        head = " ".join(w.split()[:n]).rstrip(" —-")
        if head in _KEYWORD_EVENTS:
            return _KEYWORD_EVENTS[head]
    clause = event_clause(text)
    if not clause.startswith(("when", "whenever", "at ")):
        return None
    if _SELF_ENTERS.match(clause):
        return frozenset({"self_enters"})
    out = {fam for fam, rx in _EVENT_WORDS if rx.search(clause)}
    if "leaves_graveyard" in out and not re.search(r"\bput into\b|\bdies\b|\bdestroyed\b", clause):
        out -= {"graveyard", "leaves"}     # a card leaving a graveyard: not one put into it
    if re.search(r"\benters? (?:the battlefield )?(?:un)?tapped\b", clause) and not re.search(
            r"\bbecomes? (?:un)?tapped\b|\b(?:un)?taps?\b", clause):
        out.discard("tap")                 # "enters tapped" is how it enters, not a tap (CR 110.5)
    if "target" in out and not _SPELL_TARGET_ONLY.search(clause):
        out.add("target_ability")          # an ability's target too (a triggered one, CR 603.3d)
    return frozenset(out) or None


#: "becomes the target of a spell" (or "of an Aura spell", "of a spell an opponent controls"): a
#: triggered ability put on the stack with targets doesn't make it trigger (CR 115.1, 603.3d)
_SPELL_TARGET_ONLY = re.compile(r"\bbecomes? the target of (?:a|an|one or more) (?:[\w-]+ ){0,2}spells?\b"
                                r"(?! or (?:an )?abilit)")


def _read_trigger(state: GameState, oid: str, text: str) -> tuple[bool, ir.Trigger | None]:
    """(found, its Trigger) for an unread effect ``text`` of a triggered ability of ``oid`` whose
    event is read; (False, None) when the text is not such an effect."""
    o = state.find(oid)
    if o is None or o.card is None:
        return False, None
    for a in o.card.abilities:
        if isinstance(a, ir.TriggeredAbility) and any(
                isinstance(e, ir.UnreadEffect) and e.text == text
                for e in list(a.effects) + [x for m in a.modes for x in m.effects]):
            return True, a.trigger
    return False, None


def may_trigger(state: GameState, oid: str, zone: str, text: str) -> bool:
    """Could this unread triggered part (of object ``oid`` in ``zone``) trigger while the top of the
    stack resolves? True unless both its event and the resolution's events are known and disjoint."""
    produced = produced_events(state)
    if produced is None:
        return True
    found, trig = _read_trigger(state, oid, text)
    fams = event_families(text, trig) if found else event_families(text)
    if found and trig is None:
        return True
    if fams is None:
        return True
    if "self_enters" in fams:
        # it enters only by being put onto the battlefield from where it is: not again from the
        # battlefield; from a hidden zone only by an effect that moves cards from there (CR 400.7)
        fams = (fams - {"self_enters"}) | ({f"from_{zone}"} if zone != "battlefield" else set())
    if _self_to_graveyard(state, oid, text):
        # "When <this card> is put into a graveyard from anywhere": only by a move from where it is —
        # never from a graveyard or exile, from a library by milling, off the battlefield or the stack
        # by leaving or being countered; a modeled effect never discards (CR 400.7, 701.9, 701.17)
        fams = _SELF_TO_GRAVEYARD.get(zone, frozenset())
    return bool(fams & produced)


#: How a card in each zone can be put into a graveyard by a resolution (families of the move).
_SELF_TO_GRAVEYARD: dict[str, frozenset[str]] = {
    "library": frozenset({"mill"}), "battlefield": frozenset({"leaves", "graveyard"}),
    "stack": frozenset({"countered"}),
}


def _self_to_graveyard(state: GameState, oid: str, text: str) -> bool:
    """Is this "When <this card> is put into a graveyard from anywhere" (its own move)?"""

    o = state.find(oid)
    if o is None or o.card is None:
        return False
    w = _words(text)
    for name in self_names(o.card.name, legendary="Legendary" in o.card.data.supertypes):
        w = w.replace(name.lower(), "~")
    return bool(re.match(r"^when (?:~|this \w+) is put into (?:a|your|its owner's) graveyard from anywhere,", w))

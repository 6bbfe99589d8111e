"""Reading the ways a spell may be cast and the costs it adds (CR 601.2b, 118.9):
alternative costs, additional costs, kicker, and casting from the graveyard.

A line template of :mod:`.grammar` (tried first, before keyword lines): it reads
the whole line or raises ``NoMatch`` (the line then goes on to the other
templates and, unread, stays :class:`~solver.core.ir.Unsupported`). What it produces,
:class:`~solver.core.ir.CastingOption`, is applied by :mod:`solver.rules.casting_options`.

Wordings read (reminder text ignored)
-------------------------------------
* "[If it's not your turn, | If you control a[n] <Subtype>, ]You may <cost>
  rather than pay this spell's mana cost." — an alternative cost (CR 118.9)
  from the hand, named by the cost as printed (Force of Will, Force of
  Negation, Daze, Gush, Fireblast, Snuff Out's "Pay 4 life");
* "As an additional cost to cast this spell, <cost>." — a mandatory
  additional cost (CR 601.2b; Deadly Dispute, Fling, Natural Order, Thud);
* "Kicker <mana>" / "Kicker—<cost>" — an optional additional cost (CR 702.33a);
* "Flashback <mana>" / "Flashback—<cost>" — an alternative cost, cast from
  the graveyard (CR 702.34a);
* "Escape—<cost>" — an alternative cost from the graveyard (CR 702.138a);
* "Evoke <mana>" / "Evoke—<cost>" — an alternative cost (CR 702.74a) and its
  triggered ability, "When this permanent enters, if its evoke cost was paid,
  its controller sacrifices it": a :class:`~solver.core.ir.TriggeredAbility` with
  ``if_cast="evoke"`` (an intervening if, CR 603.4, on the object key ``cast_with``);
* "Delve", "Convoke", "Improvise" (CR 702.66a, 702.51a, 702.126a): ways to
  pay the total cost of any mode — exiling cards from your graveyard, tapping
  untapped creatures / artifacts you control (``kind="payment"``);
* "Dash <mana>" (CR 702.109a): an alternative cost from the hand; like evoke,
  what it does to the permanent (haste, returned to the hand at the next end
  step) stays an ``Unsupported`` triggered part (``affects={"triggers",
  "combat"}``): whether a permanent was dashed is not part of a situation;
* "Spectacle <mana>" (CR 702.137a): an alternative cost from the hand, with
  the condition ``opponent_lost_life`` (an opponent lost life this turn: the
  players' ``life_lost_this_turn``; when it is not recorded the soundness
  layer reports the line as unread, :func:`solver.rules.soundness.check.unread_parts`);
* "Overload <mana>" (CR 702.96a): an alternative cost from the hand; cast this way the
  spell has no targets (CR 702.96b: "target" reads "each"; ``solver.rules.casting_options.overloaded``);
  a spell on the stack with ``cast_with: overload`` acts on each object its text describes as it resolves;
* "Suspend N—<mana>" (CR 702.62a): the special action of exiling the card from the
  hand (:class:`~solver.core.ir.Suspend`, CR 116.2f); its triggered abilities in exile stay
  an unread triggered part;
* "Prototype <mana> — P/T" (CR 702.160a, 718.3): cast prototyped (:class:`~solver.core.ir.Prototype`);
* "More Than Meets the Eye <mana>" (CR 702.162a): an alternative cost from the hand casting the card
  converted (transformed), like disturb;
* "Disturb <mana>" (CR 702.146a): an alternative cost from the graveyard; the card is cast
  transformed, its back face up on the stack (:mod:`solver.rules.faces`, 712.11a);
* "Buyback <mana>" / "Buyback—<cost>" (CR 702.27a): an optional additional cost
  (:class:`~solver.core.ir.Buyback`; the mode key ``buyback``), which a spell on the stack records (object key
  ``buyback``: it goes to its owner's hand as it resolves);
* "Jump-start" (CR 702.133a: cast from the graveyard, discarding a card in
  addition) and "Retrace" (CR 702.81a: discarding a land card in addition);
* "Casualty N" (CR 702.153a): an optional additional cost, sacrificing a creature with power N or greater
  (:class:`~solver.core.ir.Casualty`; the mode key ``casualty``, recorded by the spell, object key
  ``casualty``), and the keyword's triggered ability "When you cast this spell, if a casualty cost was paid
  for it, copy it. If the spell has any targets, you may choose new targets for the copy" (a
  :class:`~solver.core.ir.TriggeredAbility` on :class:`~solver.core.ir.CastSelfTrigger` with the intervening
  "if" ``if_cast="casualty"``, CR 603.4, and :class:`~solver.core.ir.CopySpell`). "Casualty X" (with a
  further sentence changing the copy) is not read;
* "Storm" (CR 702.40a): the cast trigger copying the spell for each other spell cast before it this turn
  (:class:`~solver.core.ir.CopySpell` with ``per="storm"``; the spell's record ``cast_before``).

A <cost> is items joined by "," / "and": mana symbols, "pay N life", "pay
<mana>", "sacrifice a|an|two|three <permanents>", "return a|an|two
<permanents> you control to its|their owner's hand", "exile a|an|two [color]
card(s) from your hand", "discard a|two card(s)", "exile N other cards from
your graveyard". <permanents> is "[basic] <type or subtype> [or <type or
subtype>]…" ("artifact or creature", "Mountains", "basic land"), for a
sacrifice also with one color ("a green creature": Natural Order).

Not read (stay unsupported): choices inside a cost ("sacrifice a creature or
pay {3}"), "you may" additional costs (Bargain, behold, collect evidence), X
amounts ("discard X cards", "pay X life"), colored permanents to return,
"discard a card at random", multikicker, "Kicker {1} and/or {2}",
surge (it depends on spells
cast earlier this turn, which a situation does not record),
conditions other than the two above, and any line with a further sentence.
"""
from __future__ import annotations

import re
from typing import Sequence

from ..core.ir import (SELF, AdditionalCost, AlternativeCost, Buyback, CardCost, CastPermission, CastSelfTrigger,
                       Casualty, CopySpell, EntersTrigger, Kicker, PaymentOption, Prototype, Sacrifice, Selector,
                       Suspend, TriggeredAbility, Unsupported, StepTrigger, RemoveCounter, CastSuspended,
                       LastCounterRemovedTrigger)
from ..core.conditions import CountersOnSource
from ..core.mana import ManaCost, ManaSyntaxError
from .cursor import NoMatch
from .tokens import Token, normalise_chars, strip_reminder
from .vocabulary import singular
from .subtypes import SUBTYPES

_NUM = {"a": 1, "an": 1, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7,
        "eight": 8, "nine": 9, "ten": 10}
_COLORS = {"white": "W", "blue": "U", "black": "B", "red": "R", "green": "G"}
_TYPES = {"artifact": "Artifact", "creature": "Creature", "enchantment": "Enchantment", "land": "Land",
          "planeswalker": "Planeswalker", "battle": "Battle"}
_MANA = r"(?:\{[^}]+\})+"


class _NoMatch(Exception):
    pass


def _nomatch(why: str) -> NoMatch:
    return NoMatch(why)


def _count(word: str) -> int:
    n = _NUM.get(word.lower())
    if n is None:
        if word.isdigit():
            return int(word)
        raise _NoMatch(f"a number, not {word!r}")
    return n


def _singular_noun(word: str, plural: bool) -> str:
    return singular(word) if plural else word


def _selectors(phrase: str, plural: bool) -> tuple[Selector, ...]:
    """"artifact or creature", "Mountains", "basic land", "nonland permanent", "Goblin" → selectors
    of permanents you control (one per alternative)."""

    out = []
    for alt in re.split(r"\s+or\s+|,\s*(?:or\s+)?", phrase.strip()):
        words = alt.split()
        if not words:
            raise _NoMatch("empty noun")
        basic = nonbasic = False
        nontypes: set[str] = set()
        while len(words) > 1:
            w = words[0].lower()
            if w == "basic":
                basic = True
            elif w == "nonbasic":
                nonbasic = True
            elif w.startswith("non") and w[3:] in _TYPES:
                nontypes.add(_TYPES[w[3:]])
            else:
                break
            words = words[1:]
        if len(words) != 1:
            raise _NoMatch(f"noun {alt!r}")
        noun = words[0]
        low = noun.lower()
        base = low[:-1] if plural and low.endswith("s") else low
        if base in _TYPES:
            out.append(Selector(who="you", types=frozenset({_TYPES[base]}), basic=basic, nonbasic=nonbasic,
                                nontypes=frozenset(nontypes)))
        elif base == "permanent":
            out.append(Selector(who="you", basic=basic, nonbasic=nonbasic, nontypes=frozenset(nontypes)))
        elif noun[:1].isupper() and _singular_noun(noun, plural) in SUBTYPES:
            out.append(Selector(who="you", subtypes=frozenset({_singular_noun(noun, plural)}), basic=basic,
                                nonbasic=nonbasic, nontypes=frozenset(nontypes)))
        else:
            raise _NoMatch(f"noun {noun!r}")
    return tuple(out)


def _mana(text: str) -> ManaCost:
    try:
        return ManaCost.parse(text)
    except (ManaSyntaxError, ValueError) as e:
        raise _NoMatch(str(e)) from None


def parse_cost(text: str) -> tuple[ManaCost | None, CardCost]:
    """A cost phrase (see the module docstring) → its mana (None: none) and other parts."""
    text = text.strip().rstrip(".").strip()
    items = [i.strip() for i in re.split(r",\s*(?:and\s+)?|\s+and\s+(?=(?:pay|sacrifice|return|exile|discard|\{))",
                                         text) if i.strip()]
    if not items:
        raise _NoMatch("empty cost")
    mana: ManaCost | None = None
    f: dict = {}

    def add_mana(m: ManaCost) -> None:
        nonlocal mana
        if mana is not None:
            raise _NoMatch("two mana parts")
        mana = m

    def once(key: str, value) -> None:
        if key in f:
            raise _NoMatch(f"two {key} parts")
        f[key] = value

    for item in items:
        low = item.lower()
        if m := re.fullmatch(_MANA, item):
            add_mana(_mana(item))
        elif m := re.fullmatch(r"pay (" + _MANA + r")", item, re.I):
            add_mana(_mana(m.group(1)))
        elif m := re.fullmatch(r"pay (\w+) life", low):
            once("life", _count(m.group(1)))
        elif m := re.fullmatch(r"sacrifice (a|an|one|two|three|four|five) (?:(white|blue|black|red|green) )?(.+)",
                               item, re.I):
            n = _count(m.group(1))
            once("sacrifice", (_selectors(m.group(3), n > 1), n))
            if m.group(2):
                once("sacrifice_color", _COLORS[m.group(2).lower()])
        elif m := re.fullmatch(r"return (a|an|one|two|three) (.+?) you control to (?:its|their) owner's hand",
                               item, re.I):
            n = _count(m.group(1))
            once("return_", (_selectors(m.group(2), n > 1), n))
        elif m := re.fullmatch(r"exile (a|an|one|two|three) (?:(white|blue|black|red|green) )?cards? from your hand",
                               low):
            once("exile_hand", (_count(m.group(1)), _COLORS.get(m.group(2) or "", "")))
        elif m := re.fullmatch(r"discard (a|one|two|three) cards?", low):
            once("discard", _count(m.group(1)))
        elif m := re.fullmatch(r"exile (\w+) other cards? from your graveyard", low):
            once("exile_graveyard", _count(m.group(1)))
        else:
            raise _NoMatch(f"cost item {item!r}")
    sac, nsac = f.get("sacrifice", ((), 0))
    ret, nret = f.get("return_", ((), 0))
    nex, color = f.get("exile_hand", (0, ""))
    cost = CardCost(life=f.get("life", 0), sacrifice=sac, sacrifice_count=nsac, return_=ret, return_count=nret,
                    exile_hand=nex, exile_hand_color=color, discard=f.get("discard", 0),
                    exile_graveyard=f.get("exile_graveyard", 0), sacrifice_color=f.get("sacrifice_color", ""))
    return mana, cost


def _keyword_cost(rest: str) -> tuple[ManaCost | None, CardCost]:
    """After a keyword: " {2}{G}" or "—<cost>"."""
    rest = rest.strip()
    if rest.startswith(("—", "-")):
        return parse_cost(rest[1:])
    if re.fullmatch(_MANA, rest):
        return _mana(rest), CardCost()
    raise _NoMatch("a keyword cost")


def read(raw: str) -> list:
    """The parts of one printed line, or raise :class:`_NoMatch`."""
    text = strip_reminder(normalise_chars(raw)).strip()
    low = text.lower()
    # alternative costs: "… rather than pay this spell's mana cost." (CR 118.9)
    m = re.fullmatch(r"(?:(if it's not your turn|if you control an? ([A-Z][\w-]*)), )?you may (.+) rather than pay "
                     r"this spell's mana cost\.", text, re.I)
    if m:
        cond, sel = "", None
        if m.group(1):
            if m.group(1).lower() == "if it's not your turn":
                cond = "not_your_turn"
            else:
                cond = "control"
                sels = _selectors(m.group(2), False)
                if len(sels) != 1:
                    raise _NoMatch("one selector")
                sel = sels[0]
        name = m.group(3).strip()
        mana, cost = parse_cost(name)
        return [AlternativeCost(name, mana if mana is not None else ManaCost.parse("{0}"), cost, cond, sel,
                                zone="hand", text=raw)]
    m = re.fullmatch(r"as an additional cost to cast this spell, (.+)", text, re.I)
    if m:
        if m.group(1).lower().startswith("you may"):
            raise _NoMatch("an optional additional cost")
        mana, cost = parse_cost(m.group(1))
        return [AdditionalCost("additional cost", mana, cost, zone="hand", text=raw)]
    m = re.fullmatch(r"casualty (\d+)", text, re.I)
    if m:
        return _casualty(int(m.group(1)), raw)
    if low == "storm":
        # CR 702.40a: "When you cast this spell, copy it for each other spell that was cast before it this
        # turn. If the spell has any targets, you may choose new targets for any of the copies."
        return [TriggeredAbility(CastSelfTrigger(), effects=(CopySpell(new_targets=True, per="storm"),), text=raw)]
    m = re.fullmatch(r"dash\s+(" + _MANA + r")", text, re.I)
    if m:
        # CR 702.109a: an alternative cost from the hand; the dashed permanent's haste and its
        # return at the next end step are not modeled (whether it was dashed is not recorded)
        return [AlternativeCost("dash", _mana(m.group(1)), CardCost(), zone="hand", text=raw),
                Unsupported("dash: if its dash cost was paid, it has haste and returns to its owner's hand at "
                            "the beginning of the next end step", raw, "triggered", frozenset({"triggers", "combat"}))]
    m = re.fullmatch(r"overload\s+(" + _MANA + r")", text, re.I)
    if m:
        # CR 702.96a–b: an alternative cost from the hand; cast this way, "target" in the spell's text
        # reads "each": the spell has no targets (solver/rules/casting_options.py: ``overloaded``) and, as it
        # resolves (object key cast_with: overload), acts on each object its text describes
        # (solver/rules/targeting.py: ``each_described``)
        return [AlternativeCost("overload", _mana(m.group(1)), CardCost(), zone="hand", text=raw)]
    m = re.fullmatch(r"suspend (\d+)\s*(?:—|-)\s*(" + _MANA + r")", text, re.I)
    if m:
        return _suspend(int(m.group(1)), _mana(m.group(2)), raw)
    m = re.fullmatch(r"prototype\s+(" + _MANA + r")\s*(?:—|-)\s*(\d+)/(\d+)", text, re.I)
    if m:
        # CR 702.160a, 718.3: cast prototyped, with that mana cost, power and toughness (solver/rules/faces.py)
        return [Prototype("prototype", _mana(m.group(1)), int(m.group(2)), int(m.group(3)), zone="hand", text=raw)]
    m = re.fullmatch(r"more than meets the eye\s+(" + _MANA + r")", text, re.I)
    if m:
        # CR 702.162a: cast converted (transformed) from the hand for that cost rather than the mana cost
        return [AlternativeCost("more than meets the eye", _mana(m.group(1)), CardCost(), zone="hand", text=raw)]
    m = re.fullmatch(r"disturb\s+(" + _MANA + r")", text, re.I)
    if m:
        # CR 702.146a: cast transformed from the graveyard for the disturb cost rather than the mana cost
        # (solver/rules/faces.py: the spell is the back face, 712.11a)
        return [AlternativeCost("disturb", _mana(m.group(1)), CardCost(), zone="graveyard", text=raw)]
    m = re.fullmatch(r"spectacle\s+(" + _MANA + r")", text, re.I)
    if m:
        # CR 702.137a: an alternative cost usable if an opponent lost life this turn
        return [AlternativeCost("spectacle", _mana(m.group(1)), CardCost(), "opponent_lost_life", zone="hand",
                                text=raw)]
    m = re.fullmatch(r"(kicker|flashback|escape|evoke)(\s*(?:—|-).+|\s+" + _MANA + r")", text, re.I)
    if m:
        kw = m.group(1).lower()
        mana, cost = _keyword_cost(m.group(2))
        if kw == "kicker":
            return [Kicker("kicker", mana, cost, zone="hand", text=raw)]
        if kw == "escape" and not cost.exile_graveyard:
            raise _NoMatch("escape exiles other cards")
        zone = "graveyard" if kw in ("flashback", "escape") else "hand"
        opt = AlternativeCost(kw, mana if mana is not None else ManaCost.parse("{0}"), cost, zone=zone, text=raw)
        if kw == "evoke":
            # CR 702.74a: evoke is also a triggered ability, "When this permanent enters, if its evoke cost was
            # paid, its controller sacrifices it" (an intervening if, 603.4, on the object key cast_with)
            return [opt, TriggeredAbility(EntersTrigger(), effects=(Sacrifice(SELF),), text=raw, if_cast="evoke")]
        return [opt]
    m = re.fullmatch(r"buyback(\s*(?:—|-).+|\s+" + _MANA + r")", text, re.I)
    if m:
        # CR 702.27a: an optional additional cost (a casting mode of pay/actions: buyback); a spell cast with
        # it paid records it (object key buyback) and goes to its owner's hand as it resolves
        mana, cost = _keyword_cost(m.group(1))
        return [Buyback("buyback", mana, cost, zone="hand", text=raw)]
    if low in ("delve", "convoke", "improvise"):
        # CR 702.66a, 702.51a, 702.126a: ways to pay the total cost, whatever the mode
        return [PaymentOption(low, zone="any", text=raw)]
    if low == "jump-start":
        return [CastPermission("jump-start", None, CardCost(discard=1), zone="graveyard", text=raw)]
    if low == "retrace":
        return [CastPermission("retrace", None, CardCost(discard=1, discard_type="Land"), zone="graveyard",
                               text=raw)]
    raise _NoMatch("not a casting option")


def _casualty(n: int, raw: str) -> list:
    """"Casualty N" (CR 702.153a): the optional additional cost — one creature you control with power N or
    greater, sacrificed (701.21a) — and the triggered ability copying the spell if it was paid (module
    docstring). The copy may have new targets whatever the reminder text says (702.153a)."""
    cost = CardCost(sacrifice=(Selector(who="you", types=frozenset({"Creature"})),), sacrifice_count=1,
                    sacrifice_power=n)
    return [Casualty("casualty", None, cost, zone="hand", text=raw),
            TriggeredAbility(CastSelfTrigger(), effects=(CopySpell(new_targets=True),), text=raw, if_cast="casualty")]


def _suspend(n: int, mana: ManaCost, raw: str) -> list:
    """"Suspend N—[mana]" (CR 702.62a): the special action from the hand (:class:`~solver.core.ir.Suspend`,
    CR 116.2f) and the keyword's two triggered abilities, which function in exile (CR 113.6):
    "At the beginning of your upkeep, if this card is suspended, remove a time counter from it." (suspended:
    in exile with a time counter on it, 702.62b) and "When the last time counter is removed from this card,
    if it's exiled, you may cast it without paying its mana cost if able. …" (:func:`suspend_abilities`).
    "Suspend X—…" (a chosen number of counters) is not read."""
    if mana.x_count:
        raise _NoMatch("suspend with {X}")
    return [Suspend(n, mana, raw), *suspend_abilities(raw)]


def suspend_abilities(raw: str) -> list[TriggeredAbility]:
    """Suspend's two triggered abilities in exile (CR 702.62a), as the rule states them."""
    upkeep = TriggeredAbility(StepTrigger("upkeep", "you", zone="exile"), effects=(RemoveCounter("time", exiled=True),),
                              text=raw, condition=CountersOnSource(n=1, counter="time"))
    last = TriggeredAbility(LastCounterRemovedTrigger("time", zone="exile"), effects=(CastSuspended(),), text=raw)
    return [upkeep, last]


def line_casting_option(toks: Sequence[Token], ctx, raw: str) -> list:
    """Line template (see the module docstring): the line's casting options, or ``NoMatch``."""
    try:
        return read(raw)
    except _NoMatch as e:
        raise _nomatch(str(e)) from None

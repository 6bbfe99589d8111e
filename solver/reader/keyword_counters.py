"""Keywords of counters that come and go, read as the abilities the rules say they are (CR 702):

* "Modular N" (CR 702.43a): "This permanent enters with N +1/+1 counters on it" and "When this permanent is
  put into a graveyard from the battlefield, you may put a +1/+1 counter on target artifact creature for each
  +1/+1 counter on this permanent" (the counters it had as it last existed, CR 603.10a, 608.2h);
* "Fading N" (CR 702.32a): "This permanent enters with N fade counters on it" and "At the beginning of your
  upkeep, remove a fade counter from this permanent. If you can't, sacrifice the permanent.";
* "Vanishing N" (CR 702.63a): "This permanent enters with N time counters on it", "At the beginning of your
  upkeep, if this permanent has a time counter on it, remove a time counter from it" and "When the last time
  counter is removed from this permanent, sacrifice it.";
* "Living weapon" (CR 702.92a): "When this Equipment enters, create a 0/0 black Phyrexian Germ creature
  token, then attach this Equipment to it."

Only a number is read ("Modular—Sunburst", CR 702.43b, and "Vanishing" without a number stay unread).
The keyword line is the text of every ability it stands for.
"""
from __future__ import annotations

from ..core import ir
from ..core.conditions import CountersOnSource
from ..core.selectors import SELF, Filter, T, TargetSpec

__all__ = ["counter_keyword"]

#: "a 0/0 black Phyrexian Germ creature token" (CR 702.92a).
_GERM: tuple[tuple[str, object], ...] = (("name", "Phyrexian Germ"), ("types", ("Creature",)),
                                         ("subtypes", ("Phyrexian", "Germ")), ("power", 0), ("toughness", 0),
                                         ("keywords", ()), ("colors", ("B",)))

#: "target artifact creature" (CR 702.43a): an artifact and a creature.
_ARTIFACT_CREATURE = Filter(types=frozenset({"Creature"}), types_all=frozenset({"Artifact", "Creature"}))


def counter_keyword(words: list[str], raw: str) -> list[ir.Ability] | None:
    """The abilities of "modular N", "fading N", "vanishing N" or "living weapon" (module docstring), or None."""
    if words == ["living", "weapon"]:
        return [ir.TriggeredAbility(ir.EntersTrigger(), effects=(ir.CreateTokens(1, _GERM, attach_source=True),),
                                    text=raw)]
    if len(words) != 2 or not words[1].isdigit():
        return None
    n = int(words[1])
    if words[0] == "modular":
        return _modular(n, raw)
    if words[0] == "fading":
        return [ir.EntersWith(counter="fade", amount=n, text=raw),
                ir.TriggeredAbility(ir.StepTrigger("upkeep", "you"),
                                    effects=(ir.RemoveCounter("fade", or_sacrifice=True),), text=raw)]
    if words[0] == "vanishing":
        return [ir.EntersWith(counter="time", amount=n, text=raw),
                ir.TriggeredAbility(ir.StepTrigger("upkeep", "you"), effects=(ir.RemoveCounter("time"),), text=raw,
                                    condition=CountersOnSource(n=1, counter="time")),
                ir.TriggeredAbility(ir.LastCounterRemovedTrigger("time"), effects=(ir.Sacrifice(SELF),), text=raw)]
    return None


def _modular(n: int, raw: str) -> list[ir.Ability]:
    """Modular N (CR 702.43a)."""
    put = ir.PutCounters(T(0), "counters:+1/+1", "+1/+1", optional=True)
    return [ir.EntersWith(counter="+1/+1", amount=n, text=raw),
            ir.TriggeredAbility(ir.DiesTrigger(any_permanent=True), targets=(TargetSpec(_ARTIFACT_CREATURE),),
                                effects=(put,), text=raw)]

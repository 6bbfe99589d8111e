"""What the additional effects of a mana ability do when it is activated now
(CR 605.1a, 605.3b: a mana ability resolves immediately, so its riders happen
during the payment; :class:`~solver.core.ir.ManaRider`).

:func:`rider_effects` turns an ability's riders into a :class:`RiderEffects`
for one activation by one player on the board as it is: conditions ("If you
control a Nissa planeswalker, you gain 2 life") are read now (CR 608.2h),
"each opponent" / "each player" become player ids, and "If there are no
depletion counters on this land, sacrifice it" becomes a sacrifice when the
cost removes the last one.

:func:`rider_dependence` says why the riders make the order of activations
matter (the payment and ``available_mana`` models treat activations as
independent), or None.
"""
from __future__ import annotations

from dataclasses import dataclass

from .characteristics import View
from .conditions import condition_holds
from ..core import ir
from ..core.ir import ActivationCondition, CompoundCondition, ControlCount, ControlPower, CountersOnSource, ManaAbility, ManaRider
from ..core.state import GameObject


@dataclass(frozen=True)
class RiderEffects:
    """The consequences of one activation besides its mana.

    ``skip_untap``: the source doesn't untap during its controller's next
    untap step (object key ``skip_untap``); ``add_counters``: (kind, n) put on
    the source; ``sacrifice``: the source is sacrificed (depletion lands);
    ``life``: ((``gain``/``lose``, player), n) life gained or lost; ``draw``:
    cards the activating player draws."""

    skip_untap: bool = False
    add_counters: tuple[tuple[str, int], ...] = ()
    sacrifice: bool = False
    life: tuple[tuple[tuple[str, str], int], ...] = ()
    draw: int = 0

    @property
    def marks(self) -> tuple:
        """What the effects leave on the source (for interchangeable members): hashable, sortable."""
        out: tuple = ()
        if self.skip_untap:
            out += (("skip_untap", "", 1),)
        out += tuple(("add", k, n) for k, n in self.add_counters)
        return out

    def __bool__(self) -> bool:
        return bool(self.skip_untap or self.add_counters or self.sacrifice or self.life or self.draw)


NONE = RiderEffects()


def _players(view: View, who: str, player: str) -> list[str]:
    if who == "you":
        return [player]
    ids = list(view.state.player_ids)
    if who == "each_opponent":
        return [p for p in ids if p != player]
    return ids


def rider_effects(view: View, source, ability: ManaAbility, player: str, counters_removed: int = 0) -> RiderEffects:
    """The :class:`RiderEffects` of activating ``ability`` of ``source`` now
    (``counters_removed``: counters of the cost's kind the cost removes)."""
    if not ability.riders:
        return NONE
    skip = False
    add: dict[str, int] = {}
    sac = False
    life: dict[tuple[str, str], int] = {}
    draw = 0
    rc = ability.cost.remove_counters or ability.cost.remove_x_counters
    for r in ability.riders:
        if r.condition is not None and not condition_holds(view, r.condition, source, player):
            continue
        if isinstance(r, ir.SkipUntapRider):
            skip = True
        elif isinstance(r, ir.AddCountersRider):
            add[r.counter] = add.get(r.counter, 0) + r.n
        elif isinstance(r, ir.SacrificeIfNone):
            left = source.counter(r.counter) - (counters_removed if rc and rc[0] == r.counter else 0)
            sac = sac or left + add.get(r.counter, 0) <= 0
        elif isinstance(r, ir.LifeRider):
            for pid in _players(view, r.who, player):
                life[(r.verb, pid)] = life.get((r.verb, pid), 0) + r.n
        elif isinstance(r, ir.DrawRider):
            draw += r.n
        else:
            raise ValueError(f"unknown mana rider {r.kind!r}")
    return RiderEffects(skip, tuple(sorted(add.items())), sac, tuple(sorted(life.items())), draw)


def _reads(cond: ActivationCondition | None) -> list[ActivationCondition]:
    if cond is None:
        return []
    if isinstance(cond, CompoundCondition):
        return [c for p in cond.parts for c in _reads(p)]
    return [cond]


def rider_dependence(view: View, player: str) -> str | None:
    """Why the player's mana abilities with riders or conditional amounts can't
    be treated as independent activations (their result would depend on the
    order of activations), or None:

    * a condition read on resolution ("If you control an Urza's Mine and an
      Urza's Power-Plant", "a creature with power 4 or greater", "If you
      control a Nissa planeswalker") about permanents that a mana ability of
      the player may sacrifice (a sacrifice cost, or a depletion land);
    * a counter read on resolution (an amount, a condition) on a permanent
      whose other mana ability, not sharing its {T}, adds or removes such counters.
    """
    perms = list(view.permanents_of(player))
    conds: list[tuple[GameObject, ActivationCondition]] = []
    sacrificable: set[str] = set()
    for o in perms:
        for ab in view.chars(o.id).mana_abilities:
            if ab.produce.instead is not None:
                conds.extend((o, c) for c in _reads(ab.produce.instead[0]))
            for r in ab.riders:
                conds.extend((o, c) for c in _reads(r.condition))
                if isinstance(r, ir.SacrificeIfNone):
                    sacrificable.add(o.id)
            if ab.cost.sacrifice_self:
                sacrificable.add(o.id)
            if ab.cost.sacrifice is not None:
                sacrificable.update(q for q in view.select(ab.cost.sacrifice, o, player)
                                    if view.state.obj(q).controller == player)
    if not conds:
        return None
    for o, c in conds:
        if isinstance(c, ControlCount) and c.selector is not None:
            hit = [q for q in view.select(c.selector, o, player) if q in sacrificable]
        elif isinstance(c, ControlPower):
            hit = [q for q in sacrificable if view.chars(q).is_creature]
        elif isinstance(c, CountersOnSource):
            kinds = set()
            for ab in view.chars(o.id).mana_abilities:
                rc = ab.cost.remove_counters or ab.cost.remove_x_counters
                if rc and not ab.cost.tap:
                    kinds.add(rc[0])
                if not ab.cost.tap:
                    kinds.update(r.counter for r in ab.riders if isinstance(r, ir.AddCountersRider))
                    if ab.cost.put_counters:
                        kinds.add(ab.cost.put_counters[0])
            hit = [o.id] if c.counter in kinds else []
        else:
            hit = []
        if hit:
            return (f"{o.name}'s mana ability reads whether {c.describe()} as it resolves while a mana ability "
                    f"may sacrifice or change {view.chars(hit[0]).name} (the order of activations matters)")
    return None

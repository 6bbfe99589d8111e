"""Reference for control-changing effects (CR 613.1b, 611.2a–b, 514.2, 302.6, 506.4) and the delayed
return of an exiled card (CR 603.7c, 400.7, 111.7), written from the rules independently of the engine.

A permanent is ``(controller, owner, tapped, sick, reverts)``: ``reverts`` is the controller it has once
the "until end of turn" control-changing effects on it end (None: the one it has now). Control-changing
effects apply in timestamp order (613.7): the latest one wins; an indefinite one also decides the control
left once the "until end of turn" ones end at cleanup.
"""
from __future__ import annotations

Perm = tuple[str, str, bool, bool, "str | None"]


def gain_control(p: Perm, player: str, until_eot: bool, untap: bool) -> Perm:
    """The permanent after ``player`` gains control of it (for the turn or indefinitely) and, with
    ``untap``, untaps it (the effect's next instruction)."""
    controller, owner, tapped, sick, reverts = p
    base = reverts if reverts is not None else controller   # its control once the turn's effects end
    if not until_eot:
        base = player                                       # the latest indefinite effect decides it
    new_sick = sick or controller != player                 # 302.6: not controlled continuously
    return (player, owner, False if untap else tapped, new_sick, None if base == player else base)


def cleanup(p: Perm) -> Perm:
    """CR 514.2: "until end of turn" effects end — it goes back to the control it has without them."""
    controller, owner, tapped, sick, reverts = p
    if reverts is None:
        return p
    return (reverts, owner, tapped, True, None)


def next_turn(p: Perm, active: str) -> Perm:
    """CR 502.3, 302.6: the active player's turn begins: their permanents untap and are no longer sick."""
    controller, owner, tapped, sick, reverts = p
    if controller != active:
        return p
    return (controller, owner, False, False, reverts)


def delayed_return(zone: str, token: bool, owner: str, controller: str, under: str) -> tuple[str, str | None]:
    """CR 603.7c, 400.7, 111.7: where the card a delayed "return it to the battlefield" remembered ends up
    (zone, its controller there): still in exile and not a token, it returns under its owner's control or
    the delayed ability's controller's; otherwise it stays where it is."""
    if zone != "exile" or token:
        return zone, None
    return "battlefield", owner if under == "owner" else controller


def attacking_tokens(n: int, defenders_per_group: list[list[str]], in_combat: bool) -> set[tuple[str, ...]]:
    """CR 508.4, 506.3: the distinct sets of what ``n`` interchangeable tokens per group entering "tapped and
    attacking" attack (the sorted list of their attack targets), each group choosing among its defenders;
    outside combat (or under a player who isn't attacking) none attacks: the one empty set."""
    if not in_combat:
        return {()}
    out: set[tuple[str, ...]] = {()}
    for defenders in defenders_per_group:
        out = {tuple(sorted(prev + pick)) for prev in out for pick in _multisets(defenders, n)}
    return out


def _multisets(items: list[str], k: int) -> list[tuple[str, ...]]:
    """Every multiset of ``k`` elements of ``items`` (sorted tuples), by plain recursion."""
    if k == 0:
        return [()]
    return sorted({tuple(sorted((x,) + rest)) for x in items for rest in _multisets(items, k - 1)})

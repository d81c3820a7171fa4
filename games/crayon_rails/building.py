"""Building track (up to 20 a turn, paid per milepost) and upgrading the train instead."""

from __future__ import annotations

import itertools

from games.core import IllegalMove
from games.crayon_rails.mapdata import board, edge
from games.crayon_rails.routing import cheapest_build_path, network, pieces, price_build
from games.crayon_rails.state import BUILD_LIMIT, UPGRADE_COST, UPGRADES, State
from games.crayon_rails.turns import require_turn


def budget(state: State, player_id: str) -> int:
    """What the player may still spend on track this turn: the 20 limit and his cash."""
    assert state.turn is not None
    return max(0, min(BUILD_LIMIT - state.turn.built, state.player(player_id).cash))


def _require_building(state: State, player_id: str) -> None:
    require_turn(state, player_id, ("initial-build", "play"))
    assert state.turn is not None
    if state.turn.upgraded:
        raise IllegalMove("You upgraded this turn, which replaces building; end your turn.")
    if state.turn.pitched:
        raise IllegalMove("You pitched cards this turn: no building.")


def resolve_path(path: list[str]) -> list[str]:
    """Milepost names for a path that may name cities; unknown names are refused."""
    resolved = []
    for place in path:
        milepost = board().resolve(place)
        if milepost is None:
            raise IllegalMove(f"{place!r} is neither a milepost (like F7) nor a city.")
        resolved.append(milepost)
    return resolved


def plan_build(
    state: State, player_id: str, path: list[str] | None, to: str | None, legacy: bool = False
) -> tuple[list[str], int]:
    """The path to build and its cost: as given, or the cheapest affordable start toward `to`
    (with `legacy`, the older search that extends the player's network only)."""
    _require_building(state, player_id)
    if path is None:
        target = board().resolve(to or "")
        if target is None:
            raise IllegalMove(f"{to!r} is neither a milepost (like F7) nor a city.")
        found = cheapest_build_path(state, player_id, target, budget(state, player_id), partial=True,
                                    from_majors=not legacy)
        if found is None or len(found.path) < 2:
            raise IllegalMove(_why_not_toward(state, player_id, target))
        return found.path, found.cost
    path = resolve_path(path)
    cost = price_build(state, player_id, path)
    assert state.turn is not None
    if state.turn.built + cost > BUILD_LIMIT:
        raise IllegalMove(f"That costs {cost}; you may spend only {BUILD_LIMIT - state.turn.built} more this turn.")
    if cost > state.player(player_id).cash:
        raise IllegalMove(f"That costs {cost} and you have {state.player(player_id).cash}.")
    return path, cost


def _why_not_toward(state: State, player_id: str, target: str) -> str:
    """Why `build to` lays nothing, naming the place as players do ("Northgate (I2)")."""
    city = board().city_at(target)
    place = f"{city.name} ({target})" if city else target
    if target in network(state.player(player_id)) and len(pieces(state.player(player_id))) == 1:
        return f"{place} is already on your track: build toward another place."
    if budget(state, player_id) < 1:
        return (f"No track toward {place} can be built now: this turn's building money (20, and your cash) "
                "is spent. End your turn.")
    return (f"No track toward {place} can be built now: the next milepost costs more than you may still spend, "
            "or every way is blocked. Try another place, or give a path.")


def build(
    state: State, player_id: str, path: list[str] | None, to: str | None, events: list[dict], legacy: bool = False
) -> None:
    path, cost = plan_build(state, player_id, path, to, legacy)
    player = state.player(player_id)
    player.track += [edge(a, b) for a, b in itertools.pairwise(path)]
    player.cash -= cost
    assert state.turn is not None
    state.turn.built += cost
    events.append({"type": "built", "player": player_id, "path": path, "cost": cost})


def check_upgrade(state: State, player_id: str, train: str) -> None:
    require_turn(state, player_id, "play")
    turn = state.turn
    assert turn is not None
    if turn.pitched or turn.building_started:
        raise IllegalMove("An upgrade replaces the turn's building; you cannot upgrade now.")
    current = state.player(player_id).train
    if train not in UPGRADES[current]:
        options = " or ".join(UPGRADES[current]) or "nothing"
        raise IllegalMove(f"A {current} train upgrades to {options}.")
    if state.player(player_id).cash < UPGRADE_COST:
        raise IllegalMove(f"An upgrade costs {UPGRADE_COST} and you have {state.player(player_id).cash}; "
                          "build instead, or end your turn.")


def upgrade(state: State, player_id: str, train: str, events: list[dict]) -> None:
    check_upgrade(state, player_id, train)
    player = state.player(player_id)
    player.cash -= UPGRADE_COST
    player.train = train
    assert state.turn is not None
    state.turn.upgraded = True
    events.append({"type": "upgraded", "player": player_id, "train": train, "cost": UPGRADE_COST})

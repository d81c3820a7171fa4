"""Running the train: placing it, moving along track (with the fee on foreign track), loads."""

from __future__ import annotations

from collections import Counter

from games.core import IllegalMove, copied
from games.crayon_rails.building import resolve_path
from games.crayon_rails.hazards import struck
from games.crayon_rails.mapdata import board, edge
from games.crayon_rails.routing import check_route, owner_past_the_fee, owners, train_route
from games.crayon_rails.state import FOREIGN_TRACK_FEE, State, chips_in_supply, free_loads, slots_used
from games.crayon_rails.turns import allowance, require_operating


def check_start(state: State, player_id: str, city: str) -> str:
    require_operating(state, player_id)
    if state.player(player_id).at is not None:
        raise IllegalMove("Your train is already on the map.")
    milepost = board().resolve(city)
    if milepost is None or board().city_at(milepost) is None:
        raise IllegalMove(f"Place your train on a city, not {city!r}.")
    return milepost


def start(state: State, player_id: str, city: str, events: list[dict]) -> None:
    milepost = check_start(state, player_id, city)
    player = state.player(player_id)
    player.at, player.came_from = milepost, None
    assert state.turn is not None
    state.turn.allowance = allowance(state, player_id)
    state.turn.operated = True
    events.append({"type": "started", "player": player_id, "city": board().city_at(milepost).name})


def plan_move(
    state: State, player_id: str, path: list[str] | None, to: str | None, legacy: bool = False
) -> tuple[list[str], int]:
    """The mileposts to run through and the fee: as given, or along `train_route` toward `to` as far as
    allowed (with `legacy`, the older route of `move to`, which recorded games replay)."""
    require_operating(state, player_id)
    if state.player(player_id).at is None:
        raise IllegalMove("Place your train on a city first: /place city:<city>.")
    if path is None:
        route = train_route(state, player_id, to or "", legacy)
        if route is None:
            raise IllegalMove(_why_no_route(state, player_id, to or ""))
        assert state.turn is not None
        if not route.path:
            raise IllegalMove(f"Your train is at {_place_here(state, player_id)} already.")
        path = route.path[: state.turn.moves_left]
    else:
        path = resolve_path(path)
        if path and path[0] == state.player(player_id).at:
            path = path[1:]
    if not path:
        raise IllegalMove("The train has no mileposts to move this turn." if to else "Name where to move.")
    return path, check_route(state, player_id, path)


def _place_here(state: State, player_id: str) -> str:
    at = state.player(player_id).at
    city = board().city_at(at) if at else None
    return city.name if city else str(at)


def _why_no_route(state: State, player_id: str, to: str) -> str:
    """Why `move to` found no route: an unknown place, a fee the player cannot pay, no track there yet (so
    build), or track the train cannot get onto from where it stands."""
    target = board().resolve(to)
    if target is None:
        return f"{to!r} is neither a milepost (like F7) nor a city."
    owner = owner_past_the_fee(state, player_id, target)
    if owner is not None:
        return (f"Your train reaches {to} only over {owner}'s track, and using it costs {FOREIGN_TRACK_FEE}, "
                f"more than you have.")
    if not any(target in section for section in owners(state)):
        name = board().city_at(target).name if board().city_at(target) else target
        return f"No track reaches {name} yet: build there first with /build to:{name}."
    return f"Your train cannot reach {to!r} along existing track."


def move(
    state: State, player_id: str, path: list[str] | None, to: str | None, events: list[dict], legacy: bool = False
) -> None:
    path, fee = plan_move(state, player_id, path, to, legacy)
    player = state.player(player_id)
    turn = state.turn
    assert turn is not None and player.at is not None
    if fee:
        owner = next(owners(state)[edge(a, b)] for a, b in zip([player.at, *path], path, strict=False)
                     if owners(state)[edge(a, b)] != player_id)
        player.cash -= fee
        state.player(owner).cash += fee
        turn.fee_paid = True
        events.append({"type": "fee_paid", "player": player_id, "to": owner, "amount": fee})
    trail = [player.at, *path]
    player.at, player.came_from = trail[-1], trail[-2]
    turn.moved += len(path)
    turn.operated = True
    events.append({"type": "moved", "player": player_id, "path": path})


def _city_here(state: State, player_id: str, verb: str) -> str:
    at = state.player(player_id).at
    city = board().city_at(at) if at else None
    if city is None:
        raise IllegalMove(f"Loads are {verb} only at cities.")
    return city.name


def check_pickup(state: State, player_id: str, load: str) -> None:
    require_operating(state, player_id)
    city = _city_here(state, player_id, "picked up")
    if load not in board().cities[city].supplies:
        raise IllegalMove(f"{city} does not supply {load}; it has {', '.join(board().cities[city].supplies)}.")
    if struck(state, city):
        raise IllegalMove(f"{city} is on strike: no pick-ups there for now.")
    if chips_in_supply(state, load) < 1:
        raise IllegalMove(f"All the {load} is already on trains.")
    trial = copied(state)
    trial.player(player_id).loads.append(load)
    player = state.player(player_id)
    if slots_used(trial, player_id) > player.capacity:
        raise IllegalMove(f"Your {player.train} train has no free slot (slots kept for private cards count).")


def pickup(state: State, player_id: str, load: str, events: list[dict]) -> None:
    check_pickup(state, player_id, load)
    state.player(player_id).loads.append(load)
    assert state.turn is not None
    state.turn.operated = True
    events.append({"type": "picked_up", "player": player_id, "load": load, "city": _city_here(state, player_id, "")})


def check_drop(state: State, player_id: str, load: str) -> None:
    require_operating(state, player_id)
    _city_here(state, player_id, "dropped")
    if Counter(state.player(player_id).loads)[load] < 1:
        raise IllegalMove(f"You carry no {load}.")
    if free_loads(state, player_id)[load] < 1:
        raise IllegalMove(f"Your {load} is locked to a card and cannot be dropped.")


def drop(state: State, player_id: str, load: str, events: list[dict]) -> None:
    check_drop(state, player_id, load)
    state.player(player_id).loads.remove(load)
    assert state.turn is not None
    state.turn.operated = True
    events.append({"type": "dropped", "player": player_id, "load": load, "city": _city_here(state, player_id, "")})

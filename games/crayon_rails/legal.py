"""A representative set of legal actions, for menus, autocomplete and random play.

Builds are offered toward the player's goal cities (`goals`), then the cheapest others; moves run a
whole leg: to every milepost the train reaches this turn, or toward each city farther along track;
every listed action is checked with the same functions `apply` uses, so each is accepted.
"""

from __future__ import annotations

from collections.abc import Callable

from games.core import IllegalMove
from games.crayon_rails.building import budget, check_upgrade, plan_build
from games.crayon_rails.derailment import check_give_up, check_private_loss
from games.crayon_rails.goals import goal_cities
from games.crayon_rails.locking import check_deliver, check_keep, check_lock, check_pitch
from games.crayon_rails.mapdata import board
from games.crayon_rails.movement import check_drop, check_pickup, check_start, plan_move
from games.crayon_rails.routing import build_search, network, train_routes, unwind_build, within_budget
from games.crayon_rails.state import UPGRADES, State, free_loads, private_cards, public_locks

BUILD_TARGETS = 6


def _accepted(check: Callable[[], object]) -> bool:
    try:
        check()
    except IllegalMove:
        return False
    return True


def legal_actions(state: State, player_id: str) -> list[dict]:
    if player_id not in [p.id for p in state.players] or state.phase == "over" or state.turn is None:
        return []
    if state.pending_losses:
        return _losses(state, player_id) if player_id in state.pending_losses else []
    if state.turn.player != player_id:
        return []
    if state.phase == "setup":
        return _keeps(state, player_id)
    actions = _operating(state, player_id) if state.phase == "play" else []
    actions += _builds(state, player_id)
    actions.append({"type": "end_turn"})
    return actions


def _losses(state: State, player_id: str) -> list[dict]:
    actions: list[dict] = [
        {"type": "give_up", "card": card.id} for card, _ in public_locks(state, player_id)
        if _accepted(lambda c=card: check_give_up(state, player_id, c.id, None))
    ]
    actions += [{"type": "give_up", "load": load} for load in sorted(free_loads(state, player_id))
                if free_loads(state, player_id)[load] > 0]
    for card in private_cards(state, player_id):
        if _accepted(lambda c=card: check_private_loss(state, player_id, c.id)):
            actions += [{"type": "keep_private", "card": card.id}, {"type": "release", "card": card.id}]
    return actions


def _keeps(state: State, player_id: str) -> list[dict]:
    offered = [card.id for card in state.pool if card.private_to is None]
    options = [{}] + [{card: demand} for card in offered for demand in range(3)]
    if len(offered) >= 2:
        options.append({offered[0]: 0, offered[1]: 0})
    return [{"type": "keep", "cards": {str(k): v for k, v in kept.items()}} for kept in options
            if _accepted(lambda kept=kept: check_keep(state, player_id, kept))]


def _builds(state: State, player_id: str) -> list[dict]:
    """Builds toward the player's goal cities first, then toward the cheapest other cities."""
    if state.turn is None or state.turn.upgraded or state.turn.pitched or budget(state, player_id) < 1:
        return []
    previous, best = build_search(state, player_id)
    own = network(state.player(player_id))
    others = sorted((best[c.at], c.name) for c in board().cities.values() if c.at in best and c.at not in own)
    targets = [*goal_cities(state, player_id), *(name for _, name in others)]
    actions: list[dict] = []
    for name in dict.fromkeys(targets):
        if _buildable_toward(state, player_id, name, previous, best):
            actions.append({"type": "build", "toward": name})
        if len(actions) == BUILD_TARGETS:
            break
    return actions


def _buildable_toward(state: State, player_id: str, name: str, previous: dict[str, str], best: dict[str, int]) -> bool:
    """Whether `build to` the city lays track, reading the one search already made where it can.

    A search stopped at the target finds the same cheapest path as the full one, so only targets
    the full search cannot answer (a city on the network or a source of the search) ask again.
    """
    at = board().cities[name].at
    if at not in best or best[at] == 0:
        return _accepted(lambda: plan_build(state, player_id, None, name))
    found = within_budget(state, player_id, unwind_build(previous, at), budget(state, player_id), partial=True)
    return found is not None and len(found.path) >= 2


def _operating(state: State, player_id: str) -> list[dict]:
    player = state.player(player_id)
    actions: list[dict] = []
    if player.at is None:
        actions += [{"type": "start", "city": c.name} for c in board().cities.values()
                    if _accepted(lambda c=c: check_start(state, player_id, c.name))]
    else:
        actions += _moves(state, player_id)
        city = board().city_at(player.at)
        for load in city.supplies if city else ():
            if _accepted(lambda load=load: check_pickup(state, player_id, load)):
                actions.append({"type": "pickup", "load": load})
        for load in sorted(set(player.loads)):
            if _accepted(lambda load=load: check_drop(state, player_id, load)):
                actions.append({"type": "drop", "load": load})
    for card in state.pool:
        for demand in range(3):
            if _accepted(lambda c=card.id, d=demand: check_lock(state, player_id, c, d)):
                actions.append({"type": "lock", "card": card.id, "demand": demand})
            if _accepted(lambda c=card.id, d=demand: check_deliver(state, player_id, c, d)):
                actions.append({"type": "deliver", "card": card.id, "demand": demand})
    if _accepted(lambda: check_pitch(state, player_id)):
        actions.append({"type": "pitch"})
    actions += [{"type": "upgrade", "train": train} for train in UPGRADES[player.train]
                if _accepted(lambda t=train: check_upgrade(state, player_id, t))]
    return actions


def _moves(state: State, player_id: str) -> list[dict]:
    """A whole leg per action: the route (as `move toward` takes it) to every milepost the train reaches
    this turn, then each city farther along track, toward which `move toward` runs as far as it can."""
    assert state.turn is not None
    moves_left = state.turn.moves_left
    routes = train_routes(state, player_id)
    reached = sorted((len(route.path), target) for target, route in routes.items() if 0 < len(route.path) <= moves_left)
    actions: list[dict] = [{"type": "move", "path": routes[target].path} for _, target in reached]
    if moves_left:
        cities = sorted(board().cities.values(), key=lambda c: c.name)
        actions += [{"type": "move", "toward": city.name} for city in cities
                    if city.at in routes and len(routes[city.at].path) > moves_left]
    return [action for action in actions
            if _accepted(lambda a=action: plan_move(state, player_id, a.get("path"), a.get("toward")))]

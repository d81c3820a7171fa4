"""The `/cities` answer: each city with its milepost, what it supplies and the open demands there.

A player plans a delivery by finding where a load is supplied and where it is wanted; the board
shows supplies, and this private text lists both for every city (or one city in detail), counting
the public pool and the asker's own kept cards, never the other player's kept cards.
"""

from __future__ import annotations

from collections.abc import Mapping

from bot.presentation.frontend import Names, display_name
from games.core import SeededRandomness, quoted
from games.crayon_rails.determinize import determinize
from games.crayon_rails.goals import goal_cities
from games.crayon_rails.mapdata import City, board
from games.crayon_rails.routing import cheapest_build_path, network, train_route
from games.crayon_rails.state import State, Turn
from games.crayon_rails.turns import allowance

SIZES = {"major": "major city", "medium": "medium city", "small": "small city"}


def open_demands(view: dict, player_id: str | None) -> dict[str, list[str]]:
    """City name -> the demands a player may still fill there: "Coal 15 (#12, your card)"."""
    found: dict[str, list[str]] = {}
    for card in view["pool"]:
        owner = card["private_to"]
        if owner is not None and owner != player_id:
            continue
        locked = {lock["demand"] for lock in card["locks"]}
        for index, demand in enumerate(card["demands"]):
            if locked and index not in locked:
                continue
            if owner:
                note = "your card"
            elif any(lock["player"] == player_id for lock in card["locks"]):
                note = "your lock"
            else:
                note = "locked" if locked else "pool"
            found.setdefault(demand["city"], []).append(
                f"{demand['load']} {demand['payoff']} (#{card['id']} {note}, demand {index})")
    return found


def city_line(city: City, demands: Mapping[str, list[str]]) -> str:
    supplies = ", ".join(city.supplies) or "nothing"
    wanted = "; ".join(demands.get(city.name, [])) or "none"
    return f"**{city.name}** {city.at} · supplies {supplies} · wants {wanted}"


def cities_text(view: dict | None, player_id: str | None, names: Names, city: str | None = None) -> str:
    """Every city (or the one named) for the asker; without a game, only places and supplies."""
    the_board = board()
    demands = open_demands(view, player_id) if view else {}
    if city:
        found = next((c for c in the_board.cities.values() if c.name.lower() == city.strip().lower()
                      or c.at == city.strip().upper()), None)
        if found is None:
            example = next(iter(the_board.cities))
            return f"There is no city called {quoted(city)}: pick one from the list, e.g. {example}."
        return _one_city(found, demands, view, player_id, names)
    seated = view is not None and any(p["id"] == player_id for p in view["players"])
    goals = goal_cities(determinize(view, SeededRandomness(0)), player_id) if seated else {}
    lines = [city_line(c, demands) + (f" · **your goal**: {goals[c.name]}" if c.name in goals else "")
             for c in sorted(the_board.cities.values(), key=lambda c: (c.size != "major", c.name))]
    head = "Cities: milepost · loads supplied · open demands (load payoff, card, demand). " \
           "Majors first; `/cities city:` for one city and who supplies what it wants."
    return "\n".join([head, *lines])


def _one_city(city: City, demands: Mapping[str, list[str]], view: dict | None, player_id: str | None,
              names: Names) -> str:
    the_board = board()
    lines = [f"**{city.name}** ({city.at}), {SIZES[city.size]}.",
             f"Supplies: {', '.join(city.supplies) or 'nothing'}."]
    for load in city.supplies:
        wanted = [f"{c.name} ({c.at}): {entry.split(' (')[0]}" for c in the_board.cities.values()
                  for entry in demands.get(c.name, []) if entry.split(" ")[0] == load]
        if wanted:
            lines.append(f"  {load} is wanted at " + "; ".join(wanted) + ".")
    here = demands.get(city.name, [])
    lines.append("Open demands here: " + ("none." if not here else ""))
    for entry in here:
        load = entry.split(" ")[0]
        suppliers = ", ".join(f"{c.name} ({c.at})" for c in the_board.suppliers(load))
        lines.append(f"  {entry}: supplied by {suppliers}.")
    if view:
        trains = [f"{display_name(names, p['id'])}'s train" for p in view["players"] if p["at"] == city.at]
        if trains:
            lines.append("Here now: " + ", ".join(trains) + ".")
        if player_id and any(p["id"] == player_id for p in view["players"]):
            lines += _your_way_there(view, player_id, city)
    return "\n".join(lines)


def _your_way_there(view: dict, player_id: str, city: City) -> list[str]:
    """Why the city matters to the asker, and what track or running it takes to get there."""
    state = as_at_own_turn(determinize(view, SeededRandomness(0)), player_id)
    lines = []
    why = goal_cities(state, player_id).get(city.name)
    if why:
        lines.append(f"Your goal: it {why}." if not why.startswith("a ") else f"Your goal: {why}.")
    if city.at in network(state.player(player_id)):
        lines.append("On your track.")
        if state.player(player_id).at and state.turn is not None:
            route = train_route(state, player_id, city.name)
            if route is not None:
                lines.append(f"Your train is {len(route.path)} mileposts away along track"
                             + (f" (with a fee of {route.fee})." if route.fee else "."))
    else:
        found = cheapest_build_path(state, player_id, city.at, budget=10_000)
        cost = f"about {found.cost} of track" if found else "no track can reach it now"
        lines.append(f"Not on your track yet: {cost} from your network (`/build to:{city.name}`).")
    return lines


def as_at_own_turn(state: State, player_id: str) -> State:
    """The state as the asker's own turn would begin (fee unpaid, his full allowance) while the other
    player acts: his way there is his own, not worked out with what the other did this turn."""
    if state.turn is not None and state.turn.player != player_id:
        state.turn = Turn(player=player_id, allowance=allowance(state, player_id))
    return state


def city_choices(current: str) -> list[tuple[str, str]]:
    """Autocomplete for a city: "Northgate (I2): Steel", matching the name, milepost or a load."""
    needle = current.strip().lower()
    return [(f"{c.name} ({c.at}): {', '.join(c.supplies)}", c.name)
            for c in sorted(board().cities.values(), key=lambda c: c.name)
            if needle in f"{c.name} {c.at} {' '.join(c.supplies)}".lower()]

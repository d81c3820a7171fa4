"""The `/cities` answer: each city with its milepost, what it supplies and the open demands there.

A player plans a delivery by finding where a load is supplied and where it is wanted; the board
shows supplies, and this private text lists both for every city (or one city in detail), counting
the public pool and the asker's own kept cards, never the other player's kept cards.
"""

from __future__ import annotations

from collections.abc import Mapping

from bot.frontend import Names, display_name
from games.crayon_rails.mapdata import City, board

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
            return f"There is no city called {city!r}: pick one from the list, e.g. {next(iter(the_board.cities))}."
        return _one_city(found, demands, view, player_id, names)
    lines = [city_line(c, demands) for c in sorted(the_board.cities.values(), key=lambda c: (c.size != "major",
                                                                                                c.name))]
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
            mine = next(p for p in view["players"] if p["id"] == player_id)
            joined = any(city.at in section for section in mine["track"])
            lines.append("On your track." if joined else "Not on your track yet: `/build to:` " + city.name + ".")
    return "\n".join(lines)


def city_choices(current: str) -> list[tuple[str, str]]:
    """Autocomplete for a city: "Northgate (I2): Steel", matching the name, milepost or a load."""
    needle = current.strip().lower()
    return [(f"{c.name} ({c.at}): {', '.join(c.supplies)}", c.name)
            for c in sorted(board().cities.values(), key=lambda c: c.name)
            if needle in f"{c.name} {c.at} {' '.join(c.supplies)}".lower()]

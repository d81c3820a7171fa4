"""What a demand is worth: a payoff scaled to the cheapest track from the nearest supplier.

The shipped deck was generated with `fair_payoff`; the data checks hold every card to it, so
a hand edit of the deck that breaks the scale is caught.
"""

from __future__ import annotations

import heapq
from functools import cache

from games.crayon_rails.mapdata import BoardMap, board

MIN_PAYOFF = 8
MAX_PAYOFF = 40
TOLERANCE = 2
"""How far a shipped payoff may stray from `fair_payoff` (room for rounding by hand)."""


def track_cost_between(the_board: BoardMap, sources: list[str], target: str) -> int | None:
    """The cheapest cost of building track on an empty map from any source to `target`."""
    best = {source: 0 for source in sources}
    queue = [(0, source) for source in sources]
    while queue:
        cost, here = heapq.heappop(queue)
        if here == target:
            return cost
        if cost > best.get(here, cost):
            continue
        for there in the_board.neighbours(here):
            total = cost + the_board.build_cost(here, there)
            if total < best.get(there, total + 1):
                best[there] = total
                heapq.heappush(queue, (total, there))
    return None


@cache
def route_cost(load: str, city: str) -> int:
    """Cheapest empty-map track cost from the nearest supplier of `load` to `city`."""
    the_board = board()
    sources = [supplier.at for supplier in the_board.suppliers(load)]
    cost = track_cost_between(the_board, sources, the_board.cities[city].at)
    if cost is None:
        raise ValueError(f"{city} cannot be reached from any supplier of {load}")
    return cost


def fair_payoff(load: str, city: str) -> int:
    """Payoff for delivering `load` to `city`: one and a half times the track cost, plus 3."""
    return max(MIN_PAYOFF, min(MAX_PAYOFF, round(3 + 1.5 * route_cost(load, city))))

"""Follow the Arrow: no rollouts; the search estimates each position by what is left to run.

The search tree considers a handful of placements (not all 120), lets the player who just moved
decide on calling Jump before his opponent moves, and estimates an unfinished race by the line
moves each side still needs to fill the five goal circles, each pawn to a circle of its own (the
cheapest assignment over the arrows), the pawn left furthest behind weighing more (LAGGARD).

Why the goal row is part of the way, not a wall: five pawns fill exactly the five goal circles,
and the middle one (c6 for black) has no arrow leading into it from the row before: only the
sideways arrows of b6 and d6 do. So a pawn on b6 or d6 may still have one move to make, and a
pawn that runs into a funnel whose goal circles are all taken (the centre lane ends at b6 and d6
only) is stuck for good: the estimate charges it STUCK, and the search steers clear of it long
before the last pawn gets there. Opponent pawns slow a way (CROWDED) but never close it, since
they move on.

Why the laggard weighs more: late in a game the lanes clog with pawns (a random or stuck opponent
parks his in the very circles the outer lanes run through), and with nothing else left to move
the last pawn is forced into the centre funnel and stuck. Bringing the pawn furthest behind on
first keeps every pawn's lane open while it still is. With this estimate the draws against a
random player fell from 35 in 200 games to 10 in 200 (bench/bench_ai.py).
"""

from __future__ import annotations

import heapq
from functools import cache, lru_cache
from itertools import permutations
from typing import Any

from games.ai_knowledge import Knowledge, margin_values
from games.core import Game
from games.follow_the_arrow_board import ARROWS, BLACK_START_ROW, DIRECTIONS, RED_START_ROW, coordinates, step

PLACEMENTS = [{"type": "place", "order": list(order)} for order in list(permutations((1, 2, 3, 4, 5)))[::15]]
"""Eight placements spread over the 120 orders: enough choice for the search to weigh."""
SCALE = 3.0
STUCK = 1000
"""What a pawn that can no longer reach a goal circle of its own costs, in line moves: far more
than five pawns that can all arrive ever cost (8 line moves at most each, plus crowding), so a
total this high means a stuck pawn."""
CROWDED = 2
"""The extra cost of a way through a circle an opponent pawn stands on."""
LAGGARD = 2
"""How much more the longest way of one pawn weighs than the others (see `_cheapest_assignment`)."""
STUCK_SHARE = 0.1
"""The share of its estimate a side keeps while one of its pawns is stuck."""


@cache
def line_links(black: bool) -> dict[str, list[str]]:
    """Where a line move may go from each circle along its arrows, forward or sideways."""
    forward = 1 if black else -1
    return {
        circle: [there for d in arrows if DIRECTIONS[d][1] * forward >= 0 and (there := step(circle, d))]
        for circle, arrows in ARROWS.items()
    }


@cache
def goal_circles(black: bool) -> tuple[str, ...]:
    row = RED_START_ROW if black else BLACK_START_ROW
    return tuple(c for c in ARROWS if coordinates(c)[1] == row)


def _distances(links: dict[str, list[str]], origin: str, crowded: frozenset[str]) -> dict[str, int]:
    """Line moves from `origin` to every circle it can reach, paying extra through `crowded`."""
    found, queue = {origin: 0}, [(0, origin)]
    while queue:
        cost, here = heapq.heappop(queue)
        if cost > found[here]:
            continue
        for there in links[here]:
            through = cost + 1 + (CROWDED if there in crowded else 0)
            if through < found.get(there, STUCK):
                found[there] = through
                heapq.heappush(queue, (through, there))
    return found


@lru_cache(maxsize=1 << 16)  # hot in search: the same pawn among the same opponents recurs
def _to_goals(black: bool, origin: str, crowded: frozenset[str]) -> tuple[int, ...]:
    """Line moves from `origin` to each goal circle (STUCK where there is no way)."""
    found = _distances(line_links(black), origin, crowded)
    return tuple(min(found.get(g, STUCK), STUCK) for g in goal_circles(black))


@lru_cache(maxsize=1 << 16)
def _cheapest_assignment(rows: tuple[tuple[int, ...], ...]) -> int:
    """The least cost of sending each pawn (a row of costs per goal) to a goal of its own.

    The cost is the total plus LAGGARD times the longest single way: a pawn left far behind is
    the one that finds every lane clogged by the end, so the estimate prefers to bring it on.
    """
    best = None
    for goals in permutations(range(len(rows[0])), len(rows)):
        ways = [row[g] for row, g in zip(rows, goals, strict=False)]
        cost = sum(ways) + LAGGARD * max(ways)
        if best is None or cost < best:
            best = cost
    return best


def remaining(state: Any, player: str) -> int:
    """Line moves the player's pawns still need to fill the goal circles, each pawn to one of its own.

    Pawns already home count too (b6 may still have to step aside to c6); opponent pawns in the
    way cost CROWDED more, the bare lower bound being too hopeful about a crowded lane.
    """
    black = player == state.black
    circles = sorted(c for c in state.pawns[player] if c)
    if not circles:
        return STUCK * len(state.pawns[player])
    opponents = frozenset(c for who, pawns in state.pawns.items() if who != player for c in pawns if c)
    rows = tuple(_to_goals(black, c, opponents) for c in circles)
    return _cheapest_assignment(rows)


class FollowTheArrowKnowledge(Knowledge):
    slug = "follow-the-arrow"
    rollout_depth = 0

    def actor(self, game: Game, state: Any) -> str | None:
        if state.jump_callable and state.last_mover:
            return state.last_mover
        return super().actor(game, state)

    def actions(self, game: Game, state: Any, player: str) -> list[dict]:
        legal = game.legal_actions(state, player)
        if legal and legal[0]["type"] == "place":
            return [a for a in PLACEMENTS if a in legal]
        return legal

    def evaluate(self, game: Game, state: Any, players: list[str]) -> dict[str, float]:
        left = {p: remaining(state, p) for p in players}
        values = margin_values({p: -min(n, STUCK) for p, n in left.items()}, SCALE)
        # a stuck side cannot win: if both are, the game heads for a draw, worth nothing to either
        return {p: v * (STUCK_SHARE if left[p] >= STUCK else 1.0) for p, v in values.items()}


KNOWLEDGE = FollowTheArrowKnowledge()

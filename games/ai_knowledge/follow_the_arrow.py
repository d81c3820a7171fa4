"""Follow the Arrow: no rollouts; the search estimates each position by what is left to run.

The search tree considers a handful of placements (not all 120), lets the player who just moved
decide on calling Jump before his opponent moves, and estimates an unfinished race by the line
moves each side still needs along the arrows to goal circles its own pawns leave free, each pawn
to a circle of its own (the cheapest assignment; a pawn that can reach none is stuck, and costs
dearly).
"""

from __future__ import annotations

import heapq
from functools import cache
from itertools import permutations
from typing import Any

from games.ai_knowledge import Knowledge, margin_values
from games.core import Game
from games.follow_the_arrow_board import ARROWS, BLACK_START_ROW, DIRECTIONS, RED_START_ROW, coordinates, step

PLACEMENTS = [{"type": "place", "order": list(order)} for order in list(permutations((1, 2, 3, 4, 5)))[::15]]
"""Eight placements spread over the 120 orders: enough choice for the search to weigh."""
SCALE = 3.0
STUCK = 40
"""What a pawn that can no longer reach a free goal circle costs, in line moves."""
CROWDED = 3
"""The extra cost of a way through a circle an opponent pawn stands on."""
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


def _distances(links: dict[str, list[str]], origin: str, blocked: set[str], crowded: set[str]) -> dict[str, int]:
    """Line moves from `origin` to every circle, never through `blocked`, paying extra through `crowded`."""
    found, queue = {origin: 0}, [(0, origin)]
    while queue:
        cost, here = heapq.heappop(queue)
        if cost > found[here]:
            continue
        for there in links[here]:
            if there in blocked:
                continue
            through = cost + 1 + (CROWDED if there in crowded else 0)
            if through < found.get(there, STUCK):
                found[there] = through
                heapq.heappush(queue, (through, there))
    return found


def remaining(state: Any, player: str) -> int:
    """Line moves the player's pawns still need to reach the goal circles his pawns at home leave free.

    Pawns at home block the way (they rarely move again) and opponent pawns slow it (they may stay
    a while); each pawn still out needs a goal circle of its own, so the cheapest assignment counts.
    """
    black = player == state.black
    goal = RED_START_ROW if black else BLACK_START_ROW
    circles = [c for c in state.pawns[player] if c]
    home = {c for c in circles if coordinates(c)[1] == goal}
    opponents = {c for who, pawns in state.pawns.items() if who != player for c in pawns if c}
    free = [c for c in ARROWS if coordinates(c)[1] == goal and c not in home]
    links = line_links(black)
    out = [c for c in circles if c not in home]
    reach = [_distances(links, c, home, opponents) for c in out]
    return min(
        (sum(min(found.get(g, STUCK), STUCK) for found, g in zip(reach, goals, strict=False))
         for goals in permutations(free, len(out))),
        default=STUCK * len(out),
    )


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

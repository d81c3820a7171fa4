"""Sample positions for benchmarks and picture tests: a game played with random legal moves.

Seeded, so the same seed always gives the same positions.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from games import get_game
from games.core import SeededRandomness


def random_states(slug: str, players: Sequence[str], seed: int = 1, max_steps: int = 400) -> list[tuple[Any, list]]:
    """Every state of one random game with the events that led to it, from the first to the end
    (or `max_steps` moves)."""
    game = get_game(slug)
    dice, chooser = SeededRandomness(seed), random.Random(seed)
    state = game.new_game(list(players), dice)
    states: list[tuple[Any, list]] = [(state, [])]
    for _ in range(max_steps):
        if game.result(state) is not None:
            break
        moves = [(player, action) for player in game.to_act(state) for action in game.legal_actions(state, player)]
        if not moves:
            break
        state, events = game.apply(state, *chooser.choice(moves), dice)
        states.append((state, events))
    return states

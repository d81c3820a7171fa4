"""How long drawing the Crayon Rails board takes: the cached terrain layer, then whole boards.

Run: python bench/bench_crayon_map.py [runs]
"""

from __future__ import annotations

import sys
import time

from bot.render.crayon_rails import draw_board, terrain_layer
from games.core import SeededRandomness
from games.crayon_rails.engine import GAME


def busy_view() -> dict:
    """A view some way into a random game, so track, trains and pool are drawn."""
    rng = SeededRandomness(7)
    state = GAME.new_game(["alice", "bob"], rng)
    for step in range(250):
        actions = [(p, a) for p in GAME.to_act(state) for a in GAME.legal_actions(state, p)]
        busy = [x for x in actions if x[1]["type"] != "end_turn"] if step % 5 else actions
        state, _ = GAME.apply(state, *(busy or actions)[step % len(busy or actions)], rng)
    return GAME.view(state, None)


def main(runs: int) -> None:
    view = busy_view()
    names = {"alice": "Alice", "bob": "Bob"}
    began = time.perf_counter()
    terrain_layer()
    print(f"terrain layer (once, cached): {(time.perf_counter() - began) * 1000:.1f} ms")
    began = time.perf_counter()
    for _ in range(runs):
        png = draw_board(view, names)
    mean = (time.perf_counter() - began) / runs
    print(f"whole board: {mean * 1000:.1f} ms mean over {runs} runs; PNG {len(png) / 1024:.0f} KiB")


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 20)

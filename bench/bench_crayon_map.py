"""How long drawing the Crayon Rails table takes: the cached map layers once, then whole pictures.

Prints the median and p95 of drawing plus PNG encoding over many runs (the target is 5 ms median).
Run: python bench/bench_crayon_map.py [runs]
"""

from __future__ import annotations

import statistics
import sys
import time

from bot.presentation.render.crayon_map import OVERVIEW, ZOOM, map_layer
from bot.presentation.render.crayon_rails import draw_board
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


def timings(view: dict, names: dict[str, str], runs: int) -> list[float]:
    """Milliseconds for each of `runs` draw+encode calls of the table picture."""
    draw_board(view, names)
    found = []
    for _ in range(runs):
        began = time.perf_counter()
        draw_board(view, names)
        found.append((time.perf_counter() - began) * 1000)
    return found


def main(runs: int) -> None:
    view = busy_view()
    names = {"alice": "Alice", "bob": "Bob"}
    began = time.perf_counter()
    map_layer(ZOOM), map_layer(OVERVIEW)
    print(f"map layers (once, cached): {(time.perf_counter() - began) * 1000:.1f} ms")
    found = sorted(timings(view, names, runs))
    png = draw_board(view, names)
    print(f"table picture draw+encode: median {statistics.median(found):.2f} ms, "
          f"p95 {found[int(len(found) * 0.95) - 1]:.2f} ms over {runs} runs; PNG {len(png) / 1024:.0f} KiB")


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 100)

"""How strong the AI is: its win rate against a uniformly random and a simple greedy player.

For each game and opponent, plays GAMES_PER_PAIRING games (the AI takes each seat in turn, two
players; Johari Bones too), prints the AI's win rate with its 95 % Wilson interval, draws, and the
AI's move time (mean, 95th percentile, max; only moves that needed a search). A shared win counts
half. Run: python -m bench.bench_ai [games-per-pairing] [slug ...]   (from the repo root, with
PYTHONPATH on it; run it alone on the machine, the move times are wall-clock).

Last measured (2026-11-22, ITERATIONS below; move ms p95 on a shared 2-core machine):
  john-henry        vs random  10000 games 51.9%  95% CI [50.9%, 52.9%]  (an edge: the interval excludes 50%)
  john-henry        vs greedy  2000 games  51.3%  95% CI [49.1%, 53.5%]  p95 0.1 ms (as strong as greedy)
  two-fat-dudes     vs random  200 games  93.0%  95% CI [88.6%, 95.8%]  p95 225 ms
  two-fat-dudes     vs greedy  200 games  56.2%  95% CI [49.3%, 62.9%]  p95 195 ms
  follow-the-arrow  vs random  200 games  94.0%  95% CI [89.8%, 96.5%]  draws 10  p95 284 ms
  follow-the-arrow  vs greedy  200 games  71.0%  95% CI [64.4%, 76.8%]  draws  1  p95 273 ms
  johari-bones      vs random  200 games 100.0%  95% CI [98.1%, 100%]  p95 164 ms
  johari-bones      vs greedy  200 games  69.2%  95% CI [62.5%, 75.2%]  p95 58 ms
  crayon-rails      vs random  200 games  95.5%  95% CI [91.7%, 97.6%]  draws/unfinished 9  p95 38 ms
  crayon-rails      vs greedy  200 games  91.0%  95% CI [86.2%, 94.2%]  draws/unfinished 8  p95 39 ms
Crayon Rails games are long (MAX_STEPS): 200 of them take about 35 minutes.
Crayon Rails after whole-leg moves (issue 21; 2026-11-25, 40 games a pairing, shared machine):
  crayon-rails      vs random   40 games 100.0%  95% CI [91.2%, 100%]  draws/unfinished 0  p95 28 ms
  crayon-rails      vs greedy   40 games  95.0%  95% CI [83.5%, 98.6%]  draws/unfinished 1  p95 39 ms
"""

from __future__ import annotations

import math
import random
import sys
import time

from bench.ai_opponents import GREEDY, uniform
from games import GAMES
from games.ai import choose_action
from games.core import SeededRandomness

GAMES_PER_PAIRING = 200
ITERATIONS = {"john-henry": 50, "two-fat-dudes": 150, "follow-the-arrow": 150, "johari-bones": 40, "crayon-rails": 1}
MAX_STEPS = {"crayon-rails": 6000}
MIN_GAMES = {"john-henry": 10000}
"""John Henry's whole edge is about two points of win rate: it takes this many games to show."""
AI, OTHER = "parlor", "rival"


def wilson(wins: float, games: int, z: float = 1.96) -> tuple[float, float]:
    if games == 0:
        return 0.0, 1.0
    p = wins / games
    centre = (p + z * z / (2 * games)) / (1 + z * z / games)
    spread = z * math.sqrt(p * (1 - p) / games + z * z / (4 * games * games)) / (1 + z * z / games)
    return max(0.0, centre - spread), min(1.0, centre + spread)


def play_one(slug: str, opponent, seed: int, times: list[float]) -> float | None:
    """The AI's share of the win in one game (None for a draw or an unfinished game)."""
    game = GAMES[slug]
    rng, chooser = SeededRandomness(seed), random.Random(seed)
    seats = [AI, OTHER] if seed % 2 == 0 else [OTHER, AI]
    state = game.new_game(seats, rng)
    for _ in range(MAX_STEPS.get(slug, 3000)):
        if game.result(state) is not None:
            break
        to_act = game.to_act(state)  # whoever is to act has a legal action; ask the others only (cheap)
        movers = [p for p in seats if p in to_act or game.legal_actions(state, p)]
        player = AI if AI in movers and (AI in game.to_act(state) or chooser.random() < 0.5) else movers[0]
        if player == AI:
            started = time.perf_counter()
            action = choose_action(game, game.view(state, AI), AI, SeededRandomness(chooser.getrandbits(32)),
                                   iterations=ITERATIONS[slug])
            elapsed = time.perf_counter() - started
            if len(game.legal_actions(state, AI)) > 1:
                times.append(elapsed)
        else:
            action = opponent(game, state, player, chooser)
        state, _ = game.apply(state, player, action, rng)
    result = game.result(state)
    if result is None or not result["winners"]:
        return None
    return 1.0 / len(result["winners"]) if AI in result["winners"] else 0.0


def bench(slug: str, name: str, opponent, games: int) -> None:
    times: list[float] = []
    outcomes = [play_one(slug, opponent, seed, times) for seed in range(games)]
    wins = sum(o or 0.0 for o in outcomes)
    draws = sum(o is None for o in outcomes)
    low, high = wilson(wins, games)
    ordered = sorted(times) or [0.0]
    p95 = ordered[min(len(ordered) - 1, int(0.95 * len(ordered)))]
    print(f"{slug:17} vs {name:7} games {games:4}  AI win rate {wins / games:6.1%}  95% CI [{low:6.1%}, {high:6.1%}]"
          f"  draws/unfinished {draws:3}  move ms mean {1000 * sum(ordered) / len(ordered):6.1f}"
          f" p95 {1000 * p95:6.1f} max {1000 * ordered[-1]:6.1f}", flush=True)


def main() -> None:
    games = int(sys.argv[1]) if len(sys.argv) > 1 else GAMES_PER_PAIRING
    slugs = sys.argv[2:] or list(ITERATIONS)
    for slug in slugs:
        count = max(games, MIN_GAMES.get(slug, 0))
        bench(slug, "random", uniform, count)
        bench(slug, "greedy", GREEDY[slug], count)


if __name__ == "__main__":
    main()

"""How long drawing and PNG-encoding one board takes, per game (median and p95 over positions).

Positions come from a seeded random game of each, sampled evenly from start to end, and every
board is drawn through its game's front end, exactly as the bot draws it.
`--pools` also compares a thread pool with a process pool for many boards at once.

This machine's speed drifts over a day (the same drawing has measured 3.2 ms and 5.4 ms of CPU
hours apart), so a reference is timed in the same run: the John Henry board saved as a full-colour
(RGB) PNG, the way every board was encoded before issue 11. The last column is each game's median
over that reference's.

Run: python bench/bench_drawing.py [--runs N] [--pools]
"""

from __future__ import annotations

import argparse
import asyncio
import io
import statistics
import time
from concurrent.futures import Executor, ProcessPoolExecutor, ThreadPoolExecutor

from PIL import Image

from bench.positions import random_states
from bot.presentation.frontends import frontend_for
from games import get_game

SEATS = {"johari-bones": 3}
NAMES = {"p1": "Alice", "p2": "Bartholomew", "p3": "Carol", "p4": "Dmitri"}
SAMPLES = 30


def sample_positions(slug: str) -> list[tuple[dict, list]]:
    """Up to SAMPLES public views (with the events that led to each) spread evenly over one
    random game, the last position included."""
    players = list(NAMES)[: SEATS.get(slug, 2)]
    states = random_states(slug, players, seed=3, max_steps=600)
    step = max(1, len(states) // SAMPLES)
    picked = [*states[::step][:SAMPLES - 1], states[-1]]
    game = get_game(slug)
    return [(game.view(state, None), events) for state, events in picked]


def draw(slug: str, position: tuple[dict, list]) -> bytes:
    view, events = position
    return frontend_for(slug).draw_board(view, NAMES, events)


def reference_ms(runs: int) -> float:
    """Median ms to save the last John Henry board as an RGB PNG (the encoding before issue 11)."""
    board = Image.open(io.BytesIO(draw("john-henry", sample_positions("john-henry")[-1]))).convert("RGB")
    times = []
    for _ in range(runs * 10):
        began = time.perf_counter()
        board.save(io.BytesIO(), format="PNG")
        times.append((time.perf_counter() - began) * 1000)
    return statistics.median(times)


def time_game(slug: str, runs: int) -> tuple[float, float, float, int]:
    """(median ms, p95 ms, median CPU ms, mean PNG bytes) of draw+encode over the sampled views.

    CPU time is shown beside wall time because the machine is shared: wall time includes
    waiting for a core, CPU time is what one board costs."""
    positions = sample_positions(slug)
    draw(slug, positions[0])  # warm caches (fonts, static layers) as a running bot would have
    times, cpu, sizes = [], [], []
    for _ in range(runs):
        for position in positions:
            began, began_cpu = time.perf_counter(), time.thread_time()
            png = draw(slug, position)
            times.append((time.perf_counter() - began) * 1000)
            cpu.append((time.thread_time() - began_cpu) * 1000)
            sizes.append(len(png))
    times.sort()
    return (statistics.median(times), times[int(len(times) * 0.95) - 1], statistics.median(cpu),
            int(statistics.mean(sizes)))


async def _many_at_once(pool: Executor | None, jobs: list[tuple[str, tuple[dict, list]]]) -> tuple[float, list[float]]:
    """(wall ms for all jobs, every gap in ms between event-loop ticks meanwhile).

    With no pool, the loop only ticks for a second: the stalls the busy machine causes anyway."""
    loop = asyncio.get_running_loop()
    gaps: list[float] = []
    done = False

    async def ticker() -> None:
        last = time.perf_counter()
        while not done:
            await asyncio.sleep(0.001)
            now = time.perf_counter()
            gaps.append((now - last) * 1000)
            last = now

    tick = asyncio.create_task(ticker())
    began = time.perf_counter()
    if pool is None:
        await asyncio.sleep(1)
    else:
        await asyncio.gather(*(loop.run_in_executor(pool, draw, slug, position) for slug, position in jobs))
    wall = time.perf_counter() - began
    done = True
    await tick
    return wall * 1000, gaps


def _stalls(gaps: list[float]) -> str:
    gaps = sorted(gaps)
    return f"event-loop gaps p99 {gaps[int(len(gaps) * 0.99)]:.1f} ms, longest {gaps[-1]:.1f} ms"


def compare_pools(slugs: list[str]) -> None:
    jobs = [(slug, position) for slug in slugs for position in sample_positions(slug)] * 4
    _, gaps = asyncio.run(_many_at_once(None, []))
    print(f"{'idle':>9}: {_stalls(gaps)}")
    for label, pool in (("threads", ThreadPoolExecutor(2)), ("processes", ProcessPoolExecutor(2))):
        with pool:
            asyncio.run(_many_at_once(pool, jobs[:8]))  # start workers, warm their caches
            wall, gaps = asyncio.run(_many_at_once(pool, jobs))
        print(f"{label:>9}: {len(jobs)} boards in {wall:.0f} ms ({wall / len(jobs):.2f} ms each), {_stalls(gaps)}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--pools", action="store_true")
    args = parser.parse_args()
    slugs = ["john-henry", "two-fat-dudes", "follow-the-arrow", "johari-bones", "crayon-rails"]
    reference = reference_ms(args.runs)
    print(f"reference: a John Henry board encoded as an RGB PNG, median {reference:.2f} ms")
    print(f"{'game':<18}{'median ms':>10}{'p95 ms':>9}{'CPU ms':>9}{'PNG KiB':>9}{'x ref':>7}")
    for slug in slugs:
        median, p95, cpu, size = time_game(slug, args.runs)
        print(f"{slug:<18}{median:>10.2f}{p95:>9.2f}{cpu:>9.2f}{size / 1024:>9.1f}{median / reference:>7.2f}")
    if args.pools:
        print("Thread pool against process pool, two workers each, many boards at once:")
        compare_pools(slugs[:4])
        print("... and with Crayon Rails boards among them:")
        compare_pools(slugs)


if __name__ == "__main__":
    main()

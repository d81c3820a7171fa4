"""How long a move takes through the host, and how much memory a busy bot holds.

Plays random legal games of every game through a real Host on a SQLite file
(WAL, one transaction per move) and times, per game: applying and committing a
move, and drawing the board reply. Prints mean and 95th percentile in ms, and
the peak Python memory while many sessions are open. Run: python bench/bench_moves.py
"""

from __future__ import annotations

import asyncio
import random
import statistics
import tempfile
import time
import tracemalloc
from pathlib import Path

from bot.play.host import Host, UserError
from bot.presentation.frontends import frontend_for
from bot.storage.store import Seat, Store
from games import GAMES

MOVES_PER_GAME = 120
SESSIONS_FOR_MEMORY = 200


def percentile(values: list[float], fraction: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(fraction * len(ordered)))]


async def start(host: Host, slug: str, channel: str) -> int:
    seats = [Seat(id=str(1000 + n), name=f"Player {n}") for n in range(GAMES[slug].min_players)]
    await host.open_lobby(guild_id="1", channel_id=channel, slug=slug, creator=seats[0])
    outcome = None
    for seat in seats[1:]:
        _, outcome = await host.join(channel, seat)
    if outcome is None:
        outcome = await host.begin(channel, seats[0].id)
    return outcome.session.id


async def time_game(host: Host, slug: str, channel: str, chooser: random.Random) -> tuple[list[float], list[float]]:
    session_id = await start(host, slug, channel)
    frontend = frontend_for(slug)
    move_ms: list[float] = []
    draw_ms: list[float] = []
    for _ in range(MOVES_PER_GAME):
        session = await host.session(session_id)
        if session.status != "active":
            break
        to_act = host.to_act(session)
        if not to_act:
            break
        player = to_act[0]
        action = chooser.choice(host.legal_actions(session, player))
        began = time.perf_counter()
        try:
            outcome = await host.act(session_id, player, action)
        except UserError:
            continue
        move_ms.append((time.perf_counter() - began) * 1000)
        began = time.perf_counter()
        frontend.draw_board(outcome.public_view, {s.id: s.name for s in outcome.session.players})
        draw_ms.append((time.perf_counter() - began) * 1000)
    return move_ms, draw_ms


async def main() -> None:
    chooser = random.Random(7)
    with tempfile.TemporaryDirectory() as folder:
        store = await Store.open(Path(folder) / "bench.sqlite3")
        host = Host(store)
        print(f"{'game':<20} {'moves':>5} {'move mean':>10} {'move p95':>9} {'draw mean':>10} {'draw p95':>9}")
        for number, slug in enumerate(GAMES):
            moves, draws = await time_game(host, slug, f"c{number}", chooser)
            print(f"{slug:<20} {len(moves):>5} {statistics.mean(moves):>8.2f}ms {percentile(moves, .95):>7.2f}ms "
                  f"{statistics.mean(draws):>8.2f}ms {percentile(draws, .95):>7.2f}ms")

        tracemalloc.start()
        for n in range(SESSIONS_FOR_MEMORY):
            slug = list(GAMES)[n % len(GAMES)]
            session_id = await start(host, slug, f"m{n}")
            session = await host.session(session_id)
            player = host.to_act(session)[0]
            await host.act(session_id, player, host.legal_actions(session, player)[0])
        current, peak = tracemalloc.get_traced_memory()
        tracemalloc.stop()
        print(f"{SESSIONS_FOR_MEMORY} open sessions cached: {current / 1024:.0f} KiB held, peak {peak / 1024:.0f} KiB")
        await store.close()


if __name__ == "__main__":
    asyncio.run(main())

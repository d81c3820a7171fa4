"""Moves per second across many channels, next to the raw aiosqlite commit rate of the same run.

Prints, on this machine and disk (a temporary folder):
- the raw rate: single-row INSERTs, each committed on its own, through aiosqlite with the store's
  settings (WAL, the same busy timeout): the ceiling for anything that commits once per move;
- moves per second through the real `Host` over the real `Store`, with 1,000 John Henry games in
  1,000 channels all moving at once, round after round: without drawing (the commit path alone),
  and with drawing (each move's board drawn in the drawing pool, as the table does);
- the ratio of the first to the raw rate (issue 11 asks for at least 0.5 without drawing);
- the longest event-loop stall seen while the moves ran (a ticker that should wake every 1 ms).

Run: python bench/bench_table.py [--channels 1000] [--rounds 3]
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import tempfile
import time
from pathlib import Path

import aiosqlite

from bot.drawing import draw_off_loop
from bot.frontends import frontend_for
from bot.host import Host
from bot.replies import image_names
from bot.store import Seat, Store

RAW_COMMITS = 3000


async def raw_commit_rate(folder: Path) -> float:
    """Single-row commits per second through aiosqlite, one INSERT and one COMMIT each."""
    db = await aiosqlite.connect(folder / "raw.sqlite3")
    await db.execute("PRAGMA journal_mode=WAL")
    await db.execute("PRAGMA busy_timeout=5000")
    await db.execute("CREATE TABLE rows (id INTEGER PRIMARY KEY, value TEXT NOT NULL)")
    await db.commit()
    began = time.perf_counter()
    for number in range(RAW_COMMITS):
        await db.execute("INSERT INTO rows (value) VALUES (?)", (f"row {number}",))
        await db.commit()
    elapsed = time.perf_counter() - began
    await db.close()
    return RAW_COMMITS / elapsed


class StallMeter:
    """How late a 1 ms ticker wakes: the event loop's longest stall while it runs."""

    def __init__(self) -> None:
        self.longest = 0.0
        self._task: asyncio.Task[None] | None = None

    async def _tick(self) -> None:
        while True:
            before = time.perf_counter()
            await asyncio.sleep(0.001)
            self.longest = max(self.longest, time.perf_counter() - before - 0.001)

    def __enter__(self) -> StallMeter:
        self._task = asyncio.get_running_loop().create_task(self._tick())
        return self

    def __exit__(self, *exc: object) -> None:
        if self._task is not None:
            self._task.cancel()


async def open_games(host: Host, channels: int) -> list[int]:
    sessions = []
    for number in range(channels):
        channel = str(10_000 + number)
        seats = [Seat(id=str(2 * number + 1_000_001), name="Ann"), Seat(id=str(2 * number + 1_000_002), name="Bo")]
        await host.open_lobby(guild_id="1", channel_id=channel, slug="john-henry", creator=seats[0])
        _, began = await host.join(channel, seats[1])
        assert began is not None
        sessions.append(began.session.id)
    return sessions


async def one_move(host: Host, session_id: int, draw: bool) -> int:
    """The first player to act makes his first legal move (and the board is drawn, if asked)."""
    session = await host.current(session_id)
    if session.status != "active":
        return 0
    player = host.to_act(session)[0]
    outcome = await host.act(session_id, player, host.legal_actions(session, player)[0])
    if draw:
        await draw_off_loop(frontend_for(outcome.session.slug).draw_board, outcome.public_view,
                            image_names(outcome.session), outcome.events)
    return 1


async def moves_per_second(folder: Path, name: str, channels: int, rounds: int, draw: bool) -> tuple[float, float]:
    store = await Store.open(folder / f"{name}.sqlite3")
    host = Host(store)
    sessions = await open_games(host, channels)
    with StallMeter() as meter:
        began = time.perf_counter()
        made = 0
        for _ in range(rounds):
            made += sum(await asyncio.gather(*(one_move(host, sid, draw) for sid in sessions)))
        elapsed = time.perf_counter() - began
    await store.close()
    return made / elapsed, meter.longest


async def main(channels: int, rounds: int, repeats: int) -> None:
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder)
        raws, bare, drawn, stalls = [], [], [], []
        for repeat in range(repeats):
            raws.append(await raw_commit_rate(path))
            rate, stall = await moves_per_second(path, f"bare{repeat}", channels, rounds, draw=False)
            bare.append(rate)
            stalls.append(stall)
            rate, stall = await moves_per_second(path, f"drawn{repeat}", channels, rounds, draw=True)
            drawn.append(rate)
            stalls.append(stall)
            (path / "raw.sqlite3").unlink()
        raw = statistics.median(raws)
        print(f"raw aiosqlite single-row commits: {raw:8.0f} /s")
        print(f"moves across {channels} channels, no drawing: {statistics.median(bare):8.0f} /s "
              f"({statistics.median(bare) / raw:.2f}x raw)")
        print(f"moves across {channels} channels, drawing:    {statistics.median(drawn):8.0f} /s "
              f"({statistics.median(drawn) / raw:.2f}x raw)")
        print(f"longest event-loop stall: {max(stalls) * 1000:.1f} ms")


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--channels", type=int, default=1000)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--repeats", type=int, default=1)
    arguments = parser.parse_args()
    asyncio.run(main(arguments.channels, arguments.rounds, arguments.repeats))

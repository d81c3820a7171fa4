"""Moves per second across many channels, next to the raw aiosqlite commit rate of the same run.

Prints, on this machine and disk (a temporary folder):
- the raw rate: single-row INSERTs, each committed on its own, through aiosqlite with the store's
  settings (WAL, the same busy timeout): the ceiling for anything that commits once per move;
- moves per second through the real `Host` over the real `Store`, with 1,000 John Henry games in
  1,000 channels all moving at once, round after round: without drawing (the commit path alone),
  and with drawing (each move's board drawn in the drawing pool, as the table does);
- the ratio of the first to the raw rate (issue 11 asks for at least 0.5 without drawing);
- the event loop's stalls while the moves ran: the longest single step it ran (one callback or task
  step: the longest time our code, or a garbage collection it triggered, kept every other channel
  waiting; issue 11 asks for at most 50 ms), the longest garbage-collector pause, and how late a 1 ms
  ticker woke (this adds the queueing behind the 1,000 moves submitted in the same instant, which
  run one after the other on one loop: it measures load, not one block).

Like the bot after its set-up (bot.collector), the bench sets start-up's objects aside first.

Run: python bench/bench_table.py [--channels 1000] [--rounds 3]
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import statistics
import tempfile
import time
from pathlib import Path

import aiosqlite

from bot.collector import set_aside_start_up
from bot.drawing import draw_off_loop
from bot.frontends import frontend_for
from bot.host import Host
from bot.replies import image_names
from bot.store import Seat, Store

RAW_COMMITS = 3000
BURSTS = (50, 200)
"""Moves submitted at once in the extra stall runs: a full garbage collection visits every live object,
and 1,000 moves in flight at once hold more objects than the 1,000 games themselves."""


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
    """The loop's longest single step, longest garbage collection, and how late a 1 ms ticker woke.

    The longest step is timed by wrapping `asyncio.Handle._run`, the one place every callback and
    task step of the loop runs through (a bench-only instrument).
    """

    def __init__(self) -> None:
        self.longest_step = self.longest_own_step = self.longest_collection = self.ticker_late = 0.0
        self._collecting = 0.0
        """Seconds spent in garbage collection so far: a step's own time leaves it out."""
        self._task: asyncio.Task[None] | None = None
        self._original_run = asyncio.events.Handle._run
        self._collection_began = 0.0

    async def _tick(self) -> None:
        while True:
            before = time.perf_counter()
            await asyncio.sleep(0.001)
            self.ticker_late = max(self.ticker_late, time.perf_counter() - before - 0.001)

    def _collection(self, phase: str, info: dict) -> None:
        if phase == "start":
            self._collection_began = time.perf_counter()
        else:
            pause = time.perf_counter() - self._collection_began
            self._collecting += pause
            self.longest_collection = max(self.longest_collection, pause)

    def __enter__(self) -> StallMeter:
        original, meter = self._original_run, self

        def timed_run(handle: asyncio.Handle) -> None:
            began, collected_before = time.perf_counter(), meter._collecting
            try:
                original(handle)
            finally:
                step = time.perf_counter() - began
                meter.longest_step = max(meter.longest_step, step)
                meter.longest_own_step = max(meter.longest_own_step, step - (meter._collecting - collected_before))

        asyncio.events.Handle._run = timed_run  # type: ignore[method-assign]
        gc.callbacks.append(self._collection)
        self._task = asyncio.get_running_loop().create_task(self._tick())
        return self

    def __exit__(self, *exc: object) -> None:
        asyncio.events.Handle._run = self._original_run  # type: ignore[method-assign]
        gc.callbacks.remove(self._collection)
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


async def moves_per_second(folder: Path, name: str, channels: int, rounds: int, draw: bool,
                           burst: int | None = None) -> tuple[float, StallMeter]:
    """Every game moves once per round, `burst` games at once (all of them if None)."""
    store = await Store.open(folder / f"{name}.sqlite3")
    host = Host(store)
    sessions = await open_games(host, channels)
    burst = burst or channels
    with StallMeter() as meter:
        began = time.perf_counter()
        made = 0
        for _ in range(rounds):
            for first in range(0, channels, burst):
                made += sum(await asyncio.gather(*(one_move(host, sid, draw) for sid in sessions[first:first + burst])))
        elapsed = time.perf_counter() - began
    await store.close()
    return made / elapsed, meter


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
        print(f"longest single step on the event loop:  {max(m.longest_step for m in stalls) * 1000:6.1f} ms")
        print(f"  the same, garbage collection left out: {max(m.longest_own_step for m in stalls) * 1000:6.1f} ms")
        print(f"longest garbage-collector pause:        {max(m.longest_collection for m in stalls) * 1000:6.1f} ms")
        print(f"1 ms ticker woke late by at most:       {max(m.ticker_late for m in stalls) * 1000:6.1f} ms"
              f" (queued behind {channels} moves submitted at once)")
        print(f"the same {channels} games in memory, fewer moves at once (no drawing):")
        for burst in BURSTS:
            _, meter = await moves_per_second(path, f"burst{burst}", channels, rounds, draw=False, burst=burst)
            print(f"  {burst:4} at once: longest step {meter.longest_step * 1000:6.1f} ms, without garbage "
                  f"collection {meter.longest_own_step * 1000:6.1f} ms, "
                  f"longest collection {meter.longest_collection * 1000:6.1f} ms")


if __name__ == "__main__":
    set_aside_start_up()
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--channels", type=int, default=1000)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--repeats", type=int, default=1)
    arguments = parser.parse_args()
    asyncio.run(main(arguments.channels, arguments.rounds, arguments.repeats))

"""Short garbage-collector pauses: start-up's objects set aside, and full collections at quiet moments.

A full collection of CPython's cyclic collector visits every tracked object, and pauses the event
loop meanwhile. Once the bot is set up, some 70,000 long-lived objects (discord.py, pydantic's
schemas, the boards' static data) would be visited by every full collection, about 35 ms each on
this machine, on top of the games' own objects. `set_aside_start_up` collects once, then freezes the
survivors (`gc.freeze`): later collections skip them. They are still freed by reference counting;
only a reference cycle among them would never be collected, and start-up objects live as long as
the process anyway. Done once per process (a test run sets up many bots in one process, and
freezing the earlier ones' leftovers would keep them for good).

What the bot gathers later (sessions, drawn text, discord.py's caches) is not frozen: it comes and
goes. A burst of moves (issue 24: 1,000 at once) promotes everything in flight to the oldest
generation and set off full collections of 80-100 ms in the middle of it. So `QuietCollector` makes
the collector's automatic full collections rare (`gc.set_threshold`: the young generations are
collected as before, a few milliseconds each) and runs the full collections itself, at most every
`FULL_EVERY` seconds, when no interaction is in flight; a bot that is never quiet still collects
once `QUIET_WAIT` seconds have passed since a full collection was due. Measured by
bench/bench_table.py and bench/bench_latency.py (the loop's longest step, the longest collection).
"""

from __future__ import annotations

import asyncio
import gc
import time
from collections.abc import Awaitable, Callable

from bot.runtime.background import Background

_set_aside = False
FULL_EVERY = 30.0
"""Seconds between full collections run at quiet moments."""
QUIET_WAIT = 60.0
"""Seconds a due full collection waits for a quiet moment before running anyway."""
CHECK_EVERY = 1.0
"""How often the collector looks for a quiet moment."""
RARE_FULL = 1000
"""The oldest generation's threshold while `QuietCollector` runs: a full collection only after this many
collections of the middle one (CPython's default is 10)."""


def set_aside_start_up() -> None:
    """Collect once, then keep everything alive now out of every later collection (first call only)."""
    global _set_aside
    if _set_aside:
        return
    _set_aside = True
    gc.collect()
    gc.freeze()


class QuietCollector:
    """Runs the full collections when `busy()` says no interaction is in flight (see the module docstring)."""

    def __init__(self, busy: Callable[[], bool], *, clock: Callable[[], float] = time.monotonic,
                 wait: Callable[[float], Awaitable[None]] = asyncio.sleep,
                 collect: Callable[[], object] = lambda: gc.collect(2)) -> None:
        self._busy = busy
        self._clock = clock
        self._wait = wait
        self._collect = collect
        self._last = clock()
        self._thresholds: tuple[int, int, int] | None = None
        self._loop = Background("parlor-quiet-collector", self.run)

    def start(self) -> None:
        if not self._loop.running:
            self._thresholds = gc.get_threshold()
            young, middle, _ = self._thresholds
            gc.set_threshold(young, middle, RARE_FULL)
            self._loop.start()

    async def stop(self) -> None:
        await self._loop.stop()
        if self._thresholds is not None:
            gc.set_threshold(*self._thresholds)
            self._thresholds = None

    async def run(self) -> None:
        while True:
            await self._wait(CHECK_EVERY)
            self.step()

    def step(self) -> bool:
        """Collect now if a full collection is due and the bot is quiet (or it has waited too long)."""
        since = self._clock() - self._last
        if since < FULL_EVERY or (self._busy() and since < FULL_EVERY + QUIET_WAIT):
            return False
        self._collect()
        self._last = self._clock()
        return True

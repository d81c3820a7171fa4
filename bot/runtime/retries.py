"""Trying again what failed to reach Discord (a game's table, a player's panel), after each of a few delays.

Discord may be unavailable for a moment. What failed is tried again on a schedule, with one try under way
for each thing at most; the tries still waiting are given up at shutdown, and the next start-up catches up
what is still behind (bot.discord.table, bot.discord.panels).
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable, Hashable


class Retries:
    """The tries waiting, one task per thing (its key), each running its attempt after every delay."""

    def __init__(self, delays: tuple[float, ...]) -> None:
        self.delays = delays
        """Seconds before each new try (tests use 0, so that none waits)."""
        self.waiting: dict[Hashable, asyncio.Task[None]] = {}

    def later(self, key: Hashable, attempt: Callable[[], Awaitable[bool]]) -> None:
        """Run `attempt` after each delay until it says it is done (it tells its own failures), unless `key`'s
        tries are under way already."""
        running = self.waiting.get(key)
        if not self.delays or (running is not None and not running.done()):
            return
        task = self.waiting[key] = asyncio.get_running_loop().create_task(self._run(attempt))
        task.add_done_callback(lambda _: self.waiting.pop(key) if self.waiting.get(key) is task else None)

    async def _run(self, attempt: Callable[[], Awaitable[bool]]) -> None:
        for delay in self.delays:
            await asyncio.sleep(delay)
            if await attempt():
                return

    def cancel(self, which: Callable[[Hashable], bool]) -> None:
        """Give up the tries of the keys `which` picks (what they would show is no longer wanted)."""
        for key, task in list(self.waiting.items()):
            if which(key):
                task.cancel()

    async def stop(self) -> None:
        """Give up every try still waiting (at shutdown)."""
        waiting = list(self.waiting.values())
        for task in waiting:
            task.cancel()
        await asyncio.gather(*waiting, return_exceptions=True)

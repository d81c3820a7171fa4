"""The gate interactions pass through, so that shutting down waits for those in flight.

On SIGTERM the bot closes the gate: new interactions are turned away with a short private
message, the ones already running finish (a bounded wait), and only then are the Discord
session and the database closed, so no handler ever meets a closed connection.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Iterator

RESTARTING = "Parlor is restarting. Nothing was changed: try again in a minute."


class Gate:
    def __init__(self) -> None:
        self.open = True
        self._running = 0
        self._idle = asyncio.Event()
        self._idle.set()

    @property
    def running(self) -> int:
        return self._running

    @contextlib.contextmanager
    def passage(self) -> Iterator[None]:
        """Count one interaction as in flight while the block runs."""
        self._running += 1
        self._idle.clear()
        try:
            yield
        finally:
            self._running -= 1
            if self._running == 0:
                self._idle.set()

    async def idle(self) -> None:
        """Return once no interaction is in flight (at once if none is)."""
        await self._idle.wait()

    async def close(self, timeout: float) -> bool:
        """Admit nothing more; wait up to `timeout` s for those in flight. True if all finished."""
        self.open = False
        try:
            await asyncio.wait_for(self._idle.wait(), timeout)
        except TimeoutError:
            return False
        return True

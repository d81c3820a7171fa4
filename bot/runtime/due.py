"""Loops that sleep until their next piece of work is due: woken early by a poke (an `asyncio.Event`), never
later than a poll, so work scheduled by another process is still seen. The wait is injectable: a test steps the
loop without sleeping."""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Awaitable, Callable

Wait = Callable[[asyncio.Event, float | None], Awaitable[None]]


async def wait_for_event(event: asyncio.Event, timeout: float | None) -> None:
    """Return when `event` is set or after `timeout` seconds (never, for None)."""
    if timeout is None:
        await event.wait()
        return
    with contextlib.suppress(TimeoutError):
        await asyncio.wait_for(event.wait(), timeout)


async def run_when_due(work: Callable[[], Awaitable[object]], next_due: Callable[[], Awaitable[float | None]], *,
                       wakeup: asyncio.Event, wait: Wait, clock: Callable[[], float], poll: float,
                       log: logging.Logger, failed: str) -> None:
    """Forever: do what is due, then sleep until the next is due, at most `poll` seconds, or until woken. A
    failure is logged (`failed`) and tried again after a poll."""
    while True:
        wakeup.clear()
        try:
            await work()
            due = await next_due()
            timeout = poll if due is None else min(poll, max(0.0, due - clock()))
        except Exception:
            log.exception(failed)
            timeout = poll
        await wait(wakeup, timeout)

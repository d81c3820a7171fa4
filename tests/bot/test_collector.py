"""Full garbage collections at quiet moments (bot.runtime.collector.QuietCollector), on an injected clock."""

from __future__ import annotations

import gc

import pytest

from bot.runtime import collector
from bot.runtime.collector import FULL_EVERY, QUIET_WAIT, RARE_FULL, QuietCollector


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def made(busy: list[bool]) -> tuple[QuietCollector, Clock, list[float]]:
    clock, collected = Clock(), []
    quiet = QuietCollector(lambda: busy[0], clock=clock, collect=lambda: collected.append(clock.now))
    return quiet, clock, collected


def test_a_full_collection_runs_when_due_and_nobody_waits():
    busy = [False]
    quiet, clock, collected = made(busy)
    clock.now += FULL_EVERY - 1
    assert not quiet.step() and collected == [], "not due yet"
    clock.now += 1
    assert quiet.step() and collected == [clock.now]
    clock.now += 1
    assert not quiet.step(), "the next one is FULL_EVERY later"


def test_it_waits_for_a_quiet_moment_but_not_for_ever():
    busy = [True]
    quiet, clock, collected = made(busy)
    clock.now += FULL_EVERY + QUIET_WAIT - 1
    assert not quiet.step() and collected == [], "moves in flight: the collection waits"
    busy[0] = False
    assert quiet.step() and len(collected) == 1, "the first quiet moment"
    busy[0] = True
    clock.now += FULL_EVERY + QUIET_WAIT
    assert quiet.step() and len(collected) == 2, "never quiet: it runs anyway once it has waited QUIET_WAIT"


async def test_running_makes_automatic_full_collections_rare_and_stopping_restores_them():
    before = gc.get_threshold()
    waits: list[float] = []

    async def wait(seconds: float) -> None:
        waits.append(seconds)
        if len(waits) > 3:
            raise collector.asyncio.CancelledError

    quiet = QuietCollector(lambda: False, wait=wait, collect=lambda: None)
    quiet.start()
    try:
        assert gc.get_threshold() == (before[0], before[1], RARE_FULL)
        with pytest.raises(collector.asyncio.CancelledError):
            await next(task for task in collector.asyncio.all_tasks() if task.get_name() == "parlor-quiet-collector")
        assert waits == [collector.CHECK_EVERY] * 4, "it looks once a CHECK_EVERY"
    finally:
        await quiet.stop()
    assert gc.get_threshold() == before

"""The gate's calm moments (bot.gate): idle work waits while an interaction is on its way to its result,
not while it finishes its tail."""

from __future__ import annotations

import asyncio

from bot.gate import Gate, result_on_its_way


async def calm_now(gate: Gate) -> bool:
    waiting = asyncio.ensure_future(gate.calm())
    for _ in range(5):
        await asyncio.sleep(0)
    calm = waiting.done()
    waiting.cancel()
    return calm


async def test_an_urgent_interaction_holds_idle_work_back_until_its_result_is_on_its_way():
    gate = Gate()
    assert await calm_now(gate)
    with gate.passage(), gate.urgent():
        assert not await calm_now(gate)
        result_on_its_way()
        assert await calm_now(gate), "its tail (deleting the old table, its answer) does not count"
        result_on_its_way()  # a second table of the same interaction changes nothing
        assert gate.running == 1
    assert await calm_now(gate)


async def test_each_urgent_interaction_counts_alone():
    gate = Gate()
    first_sent = asyncio.Event()
    second_may_end = asyncio.Event()

    async def first() -> None:
        with gate.urgent():
            result_on_its_way()
            first_sent.set()
            await second_may_end.wait()

    async def second() -> None:
        with gate.urgent():
            await second_may_end.wait()

    tasks = [asyncio.ensure_future(first()), asyncio.ensure_future(second())]
    await first_sent.wait()
    assert not await calm_now(gate), "the second one has not sent its result"
    second_may_end.set()
    await asyncio.gather(*tasks)
    assert await calm_now(gate)
    result_on_its_way()  # outside any interaction: nothing to release
    assert await calm_now(gate)

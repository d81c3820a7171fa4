"""The gate's calm moments (bot.runtime.gate): idle work waits while an interaction is on its way to its result,
not while it finishes its tail."""

from __future__ import annotations

import asyncio

from bot.runtime.gate import Gate, result_on_its_way


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


async def test_urgent_interactions_work_a_few_at_a_time_each_until_its_result_is_on_its_way():
    """In a burst, the work waits its turn (bot.discord.actions acknowledges it first): a turn ends as the result goes
    out, or when the interaction ends."""
    gate = Gate(working_at_once=2)
    working: list[str] = []
    may_go_on = {name: asyncio.Event() for name in ("first", "second", "third")}

    async def interaction(name: str) -> None:
        with gate.urgent():
            await gate.take_turn()
            working.append(name)
            await may_go_on[name].wait()
            if name == "first":
                result_on_its_way()
                await gate.take_turn()  # its turn is over: it does not take another
                working.append("first's tail")
                await asyncio.Event().wait()  # the rest of it (its answer) takes long

    tasks = {name: asyncio.ensure_future(interaction(name)) for name in may_go_on}
    await settle()
    assert working == ["first", "second"], "the third waits for a turn"
    may_go_on["first"].set()
    await settle()
    assert working == ["first", "second", "first's tail", "third"], "the first's result is on its way: its turn goes"
    may_go_on["second"].set()
    may_go_on["third"].set()
    await asyncio.gather(tasks["second"], tasks["third"])
    tasks["first"].cancel()
    await asyncio.gather(tasks["first"], return_exceptions=True)
    with gate.urgent():
        await asyncio.wait_for(gate.take_turn(), 1)
        with gate.urgent():
            await asyncio.wait_for(gate.take_turn(), 1)  # both turns are free again: the others ended
    await asyncio.wait_for(gate.take_turn(), 1)  # outside any interaction: no turn to take


async def settle() -> None:
    for _ in range(10):
        await asyncio.sleep(0)

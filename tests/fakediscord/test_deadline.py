"""The fake Discord's 3-second deadline for the first response, on a clock the test moves."""

from __future__ import annotations

import pytest

from tests.fakediscord import errors, interactions
from tests.fakediscord.state import RESPONSE_DEADLINE, World


class Clock:
    def __init__(self) -> None:
        self.now = 50.0

    def __call__(self) -> float:
        return self.now


def pressed(world: World) -> interactions.InteractionResult:
    user = world.add_user("alice", member=True, moderator=False)
    channel = world.add_channel("games")
    return interactions.new_result(world, interactions.APPLICATION_COMMAND, user, channel, {"name": "roll"})


async def test_a_deferral_within_three_seconds_is_accepted():
    world = World()
    world.clock = clock = Clock()
    result = pressed(world)
    clock.now += RESPONSE_DEADLINE - 0.01
    interactions.acknowledge(world, result, {"type": interactions.DEFERRED_MESSAGE}, {})
    assert result.acknowledged and result.thinking and not result.late


async def test_a_first_response_after_three_seconds_fails_as_unknown_interaction():
    world = World()
    world.clock = clock = Clock()
    result = pressed(world)
    clock.now += RESPONSE_DEADLINE + 0.01
    with pytest.raises(errors.DiscordHTTPError) as refused:
        interactions.acknowledge(world, result, {"type": interactions.DEFERRED_MESSAGE}, {})
    assert refused.value.code == errors.UNKNOWN_INTERACTION and result.late and not result.acknowledged


async def test_the_deadline_is_the_worlds_and_the_acknowledgement_is_timed():
    """A bench's burst may give the bot longer (its fake shares the machine) and report how late it was."""
    world = World()
    world.clock = clock = Clock()
    world.response_deadline = 60.0
    result = pressed(world)
    clock.now += RESPONSE_DEADLINE + 5
    interactions.acknowledge(world, result, {"type": interactions.DEFERRED_MESSAGE}, {})
    assert result.acknowledged and not result.late
    assert result.acknowledged_at - result.created_at == pytest.approx(RESPONSE_DEADLINE + 5)

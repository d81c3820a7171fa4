"""One player's two inputs at the same moment: a slash command that arrives while his previous move is still on
its way was sent before he could see that move, so it does nothing (bot.play.host.Host.act's `from_command`)."""

from __future__ import annotations

import asyncio

from bot.client import ParlorBot
from bot.play.host import IN_FLIGHT
from tests.e2e.helpers import table
from tests.e2e.test_table_load_e2e import seated_game
from tests.fakediscord import FakeDiscord


async def test_a_roll_typed_while_the_pressed_roll_is_on_its_way_does_nothing(fake_discord: FakeDiscord,
                                                                              parlor: ParlorBot):
    fake, host = fake_discord, parlor.host
    alice, bob = fake.create_user("alice"), fake.create_user("bob")
    channel = fake.create_channel("double-roll")
    session_id = await seated_game(parlor, channel, alice, bob)
    users = {str(alice.id): alice, str(bob.id): bob}
    while (view := host.public_view(await host.current(session_id)))["phase"] == "roll-off":
        for player in view["to_act"]:
            await fake.slash(users[player], "roll", channel=channel)
    roller = users[view["to_act"][0]]
    before = (await host.current(session_id)).version
    board = table(fake, channel)

    lock = host.sessions.lock(session_id)
    await lock.acquire()  # the pressed Roll stays on its way until released
    try:
        pressed = asyncio.create_task(fake.click(roller, board, board.button(label="Roll")["custom_id"]))
        await fake.wait_for(lambda: (session_id, str(roller.id)) in host.mover.moving,
                            what="the press to be on its way")
        typed = await fake.slash(roller, "roll", channel=channel)
        assert typed.ephemeral and typed.response.content == IN_FLIGHT
        assert not pressed.done(), "the refusal did not wait for the move before it"
    finally:
        lock.release()
    assert not (await pressed).ephemeral
    assert (await host.current(session_id)).version == before + 1, "one roll, not two"
    assert host.mover.moving == {}


async def test_the_other_players_command_meanwhile_is_played(fake_discord: FakeDiscord, parlor: ParlorBot):
    """Only the same player's second input is refused: in the roll-off both roll, at the same moment or not."""
    fake, host = fake_discord, parlor.host
    alice, bob = fake.create_user("alice"), fake.create_user("bob")
    channel = fake.create_channel("roll-off")
    session_id = await seated_game(parlor, channel, alice, bob)
    board = table(fake, channel)
    lock = host.sessions.lock(session_id)
    await lock.acquire()
    try:
        pressed = asyncio.create_task(fake.click(alice, board, board.button(label="Roll")["custom_id"]))
        await fake.wait_for(lambda: (session_id, str(alice.id)) in host.mover.moving, what="alice's press on its way")
        typed = asyncio.create_task(fake.slash(bob, "roll", channel=channel))
        await fake.wait_for(lambda: (session_id, str(bob.id)) in host.mover.moving, what="bob's roll on its way")
    finally:
        lock.release()
    assert not (await pressed).ephemeral and not (await typed).ephemeral
    assert (await host.current(session_id)).version == 3 and host.mover.moving == {}

"""John Henry's roll-off through the fake Discord: both players press the very same Roll button."""

from __future__ import annotations

import asyncio

from tests.e2e.helpers import table


async def test_both_players_press_the_same_roll_and_both_roll(fake_discord, parlor):
    fake = fake_discord
    alice, bob = fake.create_user("alice"), fake.create_user("bob")
    channel = fake.channel("games")
    await fake.slash(alice, "game start", channel=channel, game="john-henry", opponent=bob)
    lobby = table(fake, channel)
    await fake.click(bob, lobby, lobby.button(label="Join")["custom_id"])
    board = table(fake, channel)
    roll = board.button(label="Roll")["custom_id"]
    before = await parlor.host.last_session_in(str(channel.id))

    pressed = await asyncio.gather(fake.click(alice, board, roll), fake.click(bob, board, roll))

    refusals = [p.response.content for p in pressed if p.ephemeral]
    assert not refusals, f"a roll-off player's press of the shared Roll was refused: {refusals}"
    session = await parlor.host.last_session_in(str(channel.id))
    moves = await parlor.host.moves(session)
    assert {move.player for move in moves} == {str(alice.id), str(bob.id)}
    assert session.version == before.version + 2

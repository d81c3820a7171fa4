"""A component acts only where it was pressed: another channel's game is never moved from here.

Discord delivers a component only from the channel of the message that carries it; these tests forge
the delivery (#lounge's message and its button, arriving as pressed in #games) to check the host's own
guard.
"""

from __future__ import annotations

from tests.e2e.helpers import latest_board, table
from tests.fakediscord import interactions


async def press_elsewhere(fake, user, channel, message, custom_id):
    """`user` presses `custom_id` of `message` (in another channel) as though in `channel`."""
    data = {"custom_id": custom_id, "component_type": 2}
    result = interactions.new_result(fake.world, interactions.MESSAGE_COMPONENT, user, channel, data,
                                     source_message=message)
    return await fake._run(result, None, f"button {custom_id!r} pressed in #{channel.name}")


async def test_a_button_of_another_channels_game_is_refused(fake_discord, parlor):
    fake = fake_discord
    alice, bob, carol, dave = (fake.create_user(name) for name in ("alice", "bob", "carol", "dave"))
    games, lounge = fake.channel("games"), fake.channel("lounge")
    for channel, (first, second) in ((games, (alice, bob)), (lounge, (carol, dave))):
        await fake.slash(first, "game start", channel=channel, game="john-henry", opponent=second)
        lobby = table(fake, channel)
        await fake.click(second, lobby, lobby.button(label="Join")["custom_id"])
    there = latest_board(fake, lounge)
    before = await parlor.host.last_session_in(str(lounge.id))
    posted = len(fake.messages(games))

    forged = await press_elsewhere(fake, carol, games, there, there.button(label="Roll")["custom_id"])

    assert forged.ephemeral and "another channel" in forged.response.content
    after = await parlor.host.last_session_in(str(lounge.id))
    assert after.version == before.version, "the other channel's game did not move"
    assert len(fake.messages(games)) == posted, "nothing was posted here"
    rolled = await fake.click(carol, there, there.button(label="Roll")["custom_id"])
    assert not rolled.ephemeral, "the same button still works where it belongs"


async def test_a_lobby_button_of_another_channel_is_refused(fake_discord, parlor):
    fake = fake_discord
    alice, bob, carol = (fake.create_user(name) for name in ("alice", "bob", "carol"))
    games, lounge = fake.channel("games"), fake.channel("lounge")
    await fake.slash(alice, "game start", channel=games, game="johari-bones")
    await fake.slash(bob, "game start", channel=lounge, game="johari-bones")
    there = table(fake, lounge)

    forged = await press_elsewhere(fake, carol, games, there, there.button(label="Join")["custom_id"])

    assert forged.ephemeral and "another channel" in forged.response.content
    for channel, creator in ((games, alice), (lounge, bob)):
        session = await parlor.host.last_session_in(str(channel.id))
        assert session.player_ids == [str(creator.id)], "nobody was seated by the forged press"

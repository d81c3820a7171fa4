"""A private answer with Share (bot.discord.share): `/stats` answers its asker alone; Share posts it for everyone,
once, pinging nobody, and takes the button off the private answer."""

from __future__ import annotations

import asyncio

from bot.client import ParlorBot
from tests.conftest import start_bot
from tests.e2e.helpers import pings
from tests.fakediscord import FakeDiscord


def share_button(message) -> str:
    return next(button["custom_id"] for button in message.buttons() if button["label"] == "Share")


async def test_stats_answer_privately_and_share_posts_them_once(fake_discord: FakeDiscord, parlor: ParlorBot):
    alice, bob = fake_discord.create_user("alice"), fake_discord.create_user("bob")
    channel = fake_discord.channel("games")
    asked = await fake_discord.slash(alice, "stats", channel=channel, user=bob)
    private = asked.response
    assert asked.ephemeral and private.visible_to == alice.id
    assert private.content == "bob has not finished a game on this server yet."
    assert fake_discord.messages(channel) == [], "nothing public yet"

    pressed = await fake_discord.click(alice, private, share_button(private))
    await fake_discord.wait_for(lambda: private.buttons() == [], what="the Share button to go")
    [posted] = fake_discord.messages(channel)
    assert posted.content.startswith("Shared by alice:") and private.content in posted.content
    assert pressed.followups == [posted]
    assert pings(fake_discord, [channel]) == [], "sharing pings nobody"


async def test_a_share_button_works_after_a_restart(fake_discord: FakeDiscord, tmp_path):
    database = str(tmp_path / "parlor.sqlite3")
    alice = fake_discord.create_user("alice")
    channel = fake_discord.channel("games")
    first, _ = await start_bot(fake_discord, database)
    try:
        private = (await fake_discord.slash(alice, "stats", channel=channel)).response
    finally:
        await first.close()
    second, _ = await start_bot(fake_discord, database)
    try:
        await fake_discord.click(alice, private, share_button(private))
        await fake_discord.wait_for(lambda: private.buttons() == [], what="the Share button to go")
        assert fake_discord.messages(channel)[-1].content == f"Shared by alice:\n{private.content}"
    finally:
        await second.close()
    fake_discord.assert_no_unknown_routes()


async def test_an_empty_leaderboard_is_said_privately_with_nothing_to_share(fake_discord: FakeDiscord,
                                                                            parlor: ParlorBot):
    alice = fake_discord.create_user("alice")
    board = await fake_discord.slash(alice, "leaderboard", channel=fake_discord.channel("games"))
    assert board.ephemeral and board.response.content.startswith("No rated game on this server yet")
    assert board.response.buttons() == [], "no Share button for an empty leaderboard"


async def test_two_presses_of_share_at_once_post_once(fake_discord: FakeDiscord, parlor: ParlorBot):
    """A double click (or two devices) sends two interactions before the button goes: one post, one notice."""
    alice = fake_discord.create_user("alice")
    channel = fake_discord.channel("games")
    private = (await fake_discord.slash(alice, "stats", channel=channel)).response
    button = share_button(private)
    first, second = await asyncio.gather(fake_discord.click(alice, private, button),
                                         fake_discord.click(alice, private, button))
    await fake_discord.wait_for(lambda: private.buttons() == [], what="the Share button to go")
    assert len(fake_discord.messages(channel)) == 1, "the answer is posted once"
    told = [m for m in first.messages + second.messages if m.content == "That answer is already shared in the channel."]
    assert len(told) == 1 and told[0].visible_to == alice.id, "the second press is told, privately"

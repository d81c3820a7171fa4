"""A private answer with Share (bot.share): `/stats` answers its asker alone; Share posts it for everyone,
once, pinging nobody, and takes the button off the private answer."""

from __future__ import annotations

from bot.client import ParlorBot
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

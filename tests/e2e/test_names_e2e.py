"""Display names are shown as written in Discord's text: a name with markdown (bold, a masked link) is escaped
wherever Parlor writes it (the final table's ratings, a shared leaderboard or history, the stand-in's line)."""

from __future__ import annotations

import discord

from bot.client import ParlorBot
from tests.bot.conftest import FakeClock
from tests.e2e.helpers import latest_board, table
from tests.e2e.test_ai_e2e import HOUR, quick_ai
from tests.e2e.test_dice_e2e import reply
from tests.e2e.test_john_henry_e2e import play_to_the_end, start_game
from tests.e2e.test_share_e2e import share_button
from tests.fakediscord import FakeDiscord

MARKDOWN_NAME = "**Boss** [x](https://e.x)"
ESCAPED = discord.utils.escape_markdown(MARKDOWN_NAME)


def rendered(text: str) -> bool:
    """Whether the name appears unescaped (Discord would render it) in `text`."""
    return MARKDOWN_NAME in text.replace(ESCAPED, "")


async def test_a_markdown_name_is_escaped_on_the_final_table_and_in_shares(fake_discord: FakeDiscord,
                                                                           parlor: ParlorBot):
    boss, bob = fake_discord.create_user(MARKDOWN_NAME), fake_discord.create_user("bob")
    channel = fake_discord.channel("games")
    await start_game(fake_discord, channel, boss, bob)
    await play_to_the_end(fake_discord, channel, [boss, bob])
    final = latest_board(fake_discord, channel)
    ratings = next(field["value"] for field in final.embed.get("fields", []) if field["name"].startswith("Ratings"))
    assert ESCAPED in ratings and not rendered(ratings)
    for command in ("game history", "leaderboard"):
        asked = await fake_discord.slash(bob, command, channel=channel)
        await fake_discord.click(bob, asked.response, share_button(asked.response))
        shared = fake_discord.messages(channel)[-1]
        assert shared.content.startswith("Shared by") and not rendered(shared.content), shared.content
    assert ESCAPED in shared.content, "the leaderboard names every rated player"


async def test_a_markdown_name_is_escaped_in_the_stand_in_line(fake_discord: FakeDiscord, parlor: ParlorBot):
    quick_ai(parlor)
    clock = FakeClock()
    parlor.host.clock = parlor.dispatcher.clock = clock
    alice, boss = fake_discord.create_user("alice"), fake_discord.create_user(MARKDOWN_NAME)
    channel = fake_discord.channel("games")
    await fake_discord.slash(alice, "game start", channel=channel, game="john-henry", opponent=boss)
    await fake_discord.slash(boss, "game join", channel=channel)
    await fake_discord.slash(alice, "roll", channel=channel)
    clock.advance(49 * HOUR)
    substituted = await fake_discord.slash(alice, "game substitute", channel=channel)
    assert ESCAPED in substituted.response.content and not rendered(substituted.response.content)
    await parlor.ai.idle()
    description = table(fake_discord, channel).embed["description"]
    assert f"plays for {ESCAPED}" in description and not rendered(description)


async def test_a_markdown_name_is_escaped_in_game_verify(fake_discord: FakeDiscord, parlor: ParlorBot):
    """The verifier's report quotes the file's names; `/game verify` shows them as written (the offline verifier
    prints plain text, as written too)."""
    alice, boss = fake_discord.create_user("alice"), fake_discord.create_user(MARKDOWN_NAME)
    channel = fake_discord.channel("games")
    await start_game(fake_discord, channel, alice, boss)
    await fake_discord.slash(alice, "roll", channel=channel)
    await fake_discord.slash(boss, "game abandon", channel=channel)
    said = (await reply(await fake_discord.slash(alice, "game verify", channel=channel))).content
    assert "The record checks out" in said and f"alice, {ESCAPED}." in said and not rendered(said), said

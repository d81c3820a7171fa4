"""Display names are shown as written in Discord's text: a name with markdown (bold, a masked link) is escaped
wherever Parlor writes it (the final table's ratings, a shared leaderboard or history, the stand-in's line,
`/game verify`, a player's private words; `/game log`'s lines: tests/bot/test_replies.py)."""

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
from tests.fakediscord.state import FakeChannel, FakeMessage, FakeUser

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


async def johari_for_two(fake: FakeDiscord, channel: FakeChannel, first: FakeUser, second: FakeUser) -> None:
    await fake.slash(first, "game start", channel=channel, game="johari-bones")
    lobby = table(fake, channel)
    await fake.click(second, lobby, lobby.button(label="Join")["custom_id"])
    lobby = table(fake, channel)
    await fake.click(first, lobby, lobby.button(label="Begin")["custom_id"])


def panel(fake: FakeDiscord, user: FakeUser) -> FakeMessage:
    [found] = [m for m in fake.dms(user) if m.content.startswith("Your view in")]
    return found


async def test_a_markdown_name_is_escaped_in_a_players_bones_in_words(fake_discord: FakeDiscord, parlor: ParlorBot):
    """Johari Bones' 'Show my bones' reply and DM panel list the other player's bones under his name: escaped
    there too (a player who asked for text gets all his picture shows in those words)."""
    fake = fake_discord
    alice, boss = fake.create_user("alice"), fake.create_user(MARKDOWN_NAME)
    channel = fake.channel("games")
    await fake.slash(alice, "game view", channel=fake.dm_channel(alice), mode="text")
    await johari_for_two(fake, channel, alice, boss)
    board = table(fake, channel)
    mine = await fake.click(alice, board, board.button(label="Show my bones")["custom_id"])
    assert f"{ESCAPED} (blue square): face up" in mine.response.content, mine.response.content
    assert not rendered(mine.response.content), mine.response.content
    assert ESCAPED in panel(fake, alice).content and not rendered(panel(fake, alice).content)
    theirs = await fake.click(boss, board, board.button(label="Show my bones")["custom_id"])
    assert MARKDOWN_NAME in theirs.response.attachment("your-view.png").description, "alt text keeps names as written"
    assert "You: face up" in theirs.response.content and "alice: face up" in theirs.response.content
    assert not rendered(theirs.response.content), theirs.response.content

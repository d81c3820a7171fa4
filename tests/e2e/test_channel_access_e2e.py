"""A channel whose permissions keep Parlor from showing a table (bot.discord.channel_access), through the fake Discord:
the fake refuses the bot's messages there as Discord does, and its interactions carry the bot's permissions."""

from __future__ import annotations

from bot.client import ParlorBot
from tests.e2e.helpers import table, tables
from tests.e2e.test_john_henry_e2e import start_game
from tests.fakediscord import FakeDiscord
from tests.fakediscord import permissions as perms


async def test_a_game_started_where_parlor_may_not_post_is_refused_and_changes_nothing(fake_discord: FakeDiscord,
                                                                                       parlor: ParlorBot):
    fake = fake_discord
    alice, bob = fake.create_user("alice"), fake.create_user("bob")
    channel = fake.create_channel("announcements")
    fake.deny_bot(channel, perms.SEND_MESSAGES | perms.EMBED_LINKS)
    refused = await fake.slash(alice, "game start", channel=channel, game="john-henry", opponent=bob)
    assert refused.ephemeral
    assert refused.response.content.startswith(
        "I can't show a game in this channel: I don't have the Send Messages and Embed Links permissions here.")
    assert "play in another channel" in refused.response.content
    assert fake.messages(channel) == [] and fake.http_errors == [], "nothing was tried in the channel"
    assert await parlor.host.store.open_session_in(str(channel.id)) is None, "no lobby holds the channel"
    fake.deny_bot(channel, 0)  # the permissions granted: the same command now opens the game
    await start_game(fake, channel, alice, bob)


async def test_permissions_taken_away_mid_game_refuse_moves_but_not_a_private_look(fake_discord: FakeDiscord,
                                                                                   parlor: ParlorBot):
    fake = fake_discord
    alice, bob = fake.create_user("alice"), fake.create_user("bob")
    channel = fake.create_channel("games-room")
    await start_game(fake, channel, alice, bob)
    board = table(fake, channel)
    session = await parlor.host.last_session_in(str(channel.id))
    fake.deny_bot(channel, perms.ATTACH_FILES)
    pressed = await fake.click(alice, board, board.button(label="Roll")["custom_id"])
    assert pressed.ephemeral and "don't have the Attach Files permission here" in pressed.response.content
    assert (await parlor.host.current(session.id)).version == session.version, "the move was not made"
    assert tables(fake, channel) == [board] and fake.http_errors == []
    status = await fake.slash(bob, "game status", channel=channel)
    assert status.ephemeral and status.response.embed, "a private look needs nothing in the channel"
    abandoned = await fake.slash(bob, "game abandon", channel=channel)  # the way out: not refused
    assert abandoned.ephemeral and abandoned.response.content.startswith(
        "Done, but I can't update the game's table in this channel: I don't have the Attach Files permission here.")
    assert (await parlor.host.current(session.id)).status == "abandoned"


async def test_a_text_only_server_needs_no_attach_files(fake_discord: FakeDiscord, parlor: ParlorBot):
    fake = fake_discord
    alice, bob = fake.create_user("alice"), fake.create_user("bob")
    moderator = fake.create_user("mod", moderator=True)
    channel = fake.create_channel("words-only")
    fake.deny_bot(channel, perms.ATTACH_FILES)
    await fake.slash(moderator, "settings tables", channel=channel, mode="text")
    opened = await fake.slash(alice, "game start", channel=channel, game="john-henry", opponent=bob)
    assert not opened.ephemeral
    lobby = table(fake, channel)
    await fake.click(bob, lobby, lobby.button(label="Join")["custom_id"])
    assert table(fake, channel).attachments == [] and fake.http_errors == []


async def test_a_table_refused_on_a_text_only_server_does_not_ask_for_attach_files(fake_discord: FakeDiscord,
                                                                                   parlor: ParlorBot):
    """A text-only server's tables carry no picture (docs/players.md, "Without sight or colour"): the note on a table
    refused after the change was saved names what it lacks, and not Attach Files, which it does not need."""
    fake = fake_discord
    alice, bob = fake.create_user("alice"), fake.create_user("bob")
    moderator = fake.create_user("mod", moderator=True)
    channel = fake.create_channel("words-only")
    await fake.slash(moderator, "settings tables", channel=channel, mode="text")
    await fake.slash(alice, "game start", channel=channel, game="john-henry", opponent=bob)
    lobby = table(fake, channel)
    await fake.click(bob, lobby, lobby.button(label="Join")["custom_id"])
    session = await parlor.host.last_session_in(str(channel.id))
    assert session.status == "active" and table(fake, channel).attachments == []
    fake.deny_bot(channel, perms.SEND_MESSAGES | perms.ATTACH_FILES)
    abandoned = await fake.slash(bob, "game abandon", channel=channel)
    assert abandoned.ephemeral and abandoned.response.content.startswith(
        "Done, but I can't update the game's table in this channel: I don't have the Send Messages permission "
        "here. Someone who manages the channel can allow it")
    assert (await parlor.host.current(session.id)).status == "abandoned"


async def test_in_a_thread_it_is_send_messages_in_threads_that_is_asked_for(fake_discord: FakeDiscord,
                                                                            parlor: ParlorBot):
    """A thread takes Send Messages in Threads, not the channel's Send Messages: the up-front refusal and the
    one for a table refused after the change was saved both name the permission that matters there, and point
    to where it is set: a thread has no permission settings of its own, it takes its channel's."""
    fake = fake_discord
    alice, bob = fake.create_user("alice"), fake.create_user("bob")
    thread = fake.create_thread("rematch", parent=fake.channel("games"))
    fake.deny_bot(thread, perms.SEND_MESSAGES_IN_THREADS)
    refused = await fake.slash(alice, "game start", channel=thread, game="john-henry", opponent=bob)
    assert refused.ephemeral and refused.response.content.startswith(
        "I can't show a game in this thread: I don't have the Send Messages in Threads permission here. A thread "
        "takes its permissions from the channel it belongs to: someone who manages that channel can allow it")
    fake.deny_bot(thread, perms.SEND_MESSAGES)  # the channel's Send Messages does not count in a thread
    await start_game(fake, thread, alice, bob)
    session = await parlor.host.last_session_in(str(thread.id))
    fake.deny_bot(thread, perms.SEND_MESSAGES | perms.SEND_MESSAGES_IN_THREADS | perms.ATTACH_FILES)
    abandoned = await fake.slash(bob, "game abandon", channel=thread)
    assert abandoned.ephemeral and abandoned.response.content.startswith(
        "Done, but I can't update the game's table in this thread: I don't have the Send Messages in Threads and "
        "Attach Files permissions here. A thread takes its permissions from the channel it belongs to")
    assert (await parlor.host.current(session.id)).status == "abandoned"

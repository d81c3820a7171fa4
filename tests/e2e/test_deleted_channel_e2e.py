"""A channel deleted with a game in it (cogs.channels): the game ends there, and nothing tries to reach it."""

from __future__ import annotations

import asyncio

import discord

from bot.client import ParlorBot
from bot.discord.records import END_REASONS
from tests.e2e.test_john_henry_e2e import start_game
from tests.fakediscord import FakeDiscord
from tests.fakediscord.state import FakeChannel


def deletion_taken_in(parlor: ParlorBot, monkeypatch) -> asyncio.Event:
    """Set once the bot has taken in a deleted channel (`Tables.channel_deleted`), however it learnt of it."""
    ended = asyncio.Event()
    channel_deleted = parlor.tables.channel_deleted

    async def told(channel_id: str) -> None:
        await channel_deleted(channel_id)
        ended.set()

    monkeypatch.setattr(parlor.tables, "channel_deleted", told)
    return ended


async def deleted_and_told(fake: FakeDiscord, parlor: ParlorBot, channel: FakeChannel, monkeypatch) -> None:
    """Delete `channel`, and wait for the bot to have taken it in."""
    ended = deletion_taken_in(parlor, monkeypatch)
    fake.delete_channel(channel)
    await asyncio.wait_for(ended.wait(), timeout=5)


async def test_a_game_whose_channel_is_deleted_ends_there_and_nothing_tries_to_reach_it(fake_discord: FakeDiscord,
                                                                                       parlor: ParlorBot,
                                                                                       monkeypatch):
    fake = fake_discord
    alice, bob = fake.create_user("alice"), fake.create_user("bob")
    channel = fake.create_channel("short-lived")
    await start_game(fake, channel, alice, bob)
    session = await parlor.host.last_session_in(str(channel.id))
    assert await parlor.host.store.pending_timers(session.id), "the game waits on someone, with a reminder"
    await deleted_and_told(fake, parlor, channel, monkeypatch)
    after = await parlor.host.session(session.id)
    assert (after.status, after.end_reason) == ("abandoned", "channel deleted")
    assert END_REASONS[after.end_reason] == "abandoned: its channel was deleted"
    assert await parlor.host.store.pending_timers(session.id) == [], "no reminder for a channel that is gone"
    assert await parlor.host.store.tables_behind() == [], "nothing left to show at the next start-up"
    assert await parlor.tables.catch_up() == 0 and fake.http_errors == []
    lobby = fake.create_channel("still-here")
    await start_game(fake, lobby, alice, bob)  # the players are free to play elsewhere


async def test_a_deleted_thread_ends_its_game_too(fake_discord: FakeDiscord, parlor: ParlorBot):
    fake = fake_discord
    alice, bob = fake.create_user("alice"), fake.create_user("bob")
    channel = fake.create_channel("thread-like")
    await start_game(fake, channel, alice, bob)
    session = await parlor.host.last_session_in(str(channel.id))
    event = discord.RawThreadDeleteEvent({"id": str(channel.id), "guild_id": str(channel.guild_id),
                                          "parent_id": str(channel.id), "type": 11})
    await parlor.get_cog("Channels").on_raw_thread_delete(event)
    assert (await parlor.host.session(session.id)).end_reason == "channel deleted"
    event_again = discord.RawThreadDeleteEvent({"id": str(channel.id), "guild_id": str(channel.guild_id),
                                                "parent_id": str(channel.id), "type": 11})
    await parlor.get_cog("Channels").on_raw_thread_delete(event_again)  # nothing open there: nothing happens
    assert (await parlor.host.session(session.id)).version == session.version + 1


async def seated_game_in_a_channel_deleted_unseen(fake: FakeDiscord, parlor: ParlorBot) -> int:
    """A John Henry game whose channel is then deleted while the bot is not told (as if it were down)."""
    alice, bob = fake.create_user("alice"), fake.create_user("bob")
    channel = fake.create_channel("deleted-while-away")
    await start_game(fake, channel, alice, bob)
    del fake.world.channels[channel.id]
    return (await parlor.host.last_session_in(str(channel.id))).id


async def test_a_channel_deleted_while_the_bot_was_away_ends_its_game_when_its_table_finds_it_gone(
        fake_discord: FakeDiscord, parlor: ParlorBot):
    session_id = await seated_game_in_a_channel_deleted_unseen(fake_discord, parlor)
    session = await parlor.host.session(session_id)
    await parlor.host.store.update_session(session, now=parlor.host.clock() + 1, waiting_since=session.waiting_since)
    parlor.host.sessions.forget(session_id)
    await parlor.tables.show(session_id)  # as at start-up: Discord answers Unknown Channel; nothing is raised
    ended = await parlor.host.session(session_id)
    assert (ended.status, ended.end_reason) == ("abandoned", "channel deleted")
    assert parlor.tables.retries.waiting == {}, "no try again at a channel that is gone"
    assert await parlor.host.store.tables_behind() == []


async def test_a_reminder_that_finds_its_channel_gone_ends_the_game(fake_discord: FakeDiscord, parlor: ParlorBot,
                                                                   monkeypatch):
    session_id = await seated_game_in_a_channel_deleted_unseen(fake_discord, parlor)
    ended = deletion_taken_in(parlor, monkeypatch)
    await parlor.host.store._db.execute("UPDATE timers SET due_at = 0 WHERE session_id = ?", (session_id,))
    parlor.dispatcher.wake(0)
    await asyncio.wait_for(ended.wait(), timeout=5)
    assert (await parlor.host.session(session_id)).end_reason == "channel deleted"
    assert await parlor.host.store.pending_timers(session_id) == [], "no more reminders"

"""A channel deleted with a game in it (cogs.channels): the game ends there, and nothing tries to reach it."""

from __future__ import annotations

import asyncio

import discord

from bot.client import ParlorBot
from bot.records import END_REASONS
from tests.e2e.test_john_henry_e2e import start_game
from tests.fakediscord import FakeDiscord


async def test_a_game_whose_channel_is_deleted_ends_there_and_nothing_tries_to_reach_it(fake_discord: FakeDiscord,
                                                                                       parlor: ParlorBot,
                                                                                       monkeypatch):
    fake = fake_discord
    alice, bob = fake.create_user("alice"), fake.create_user("bob")
    channel = fake.create_channel("short-lived")
    await start_game(fake, channel, alice, bob)
    session = await parlor.host.last_session_in(str(channel.id))
    assert await parlor.host.store.pending_timers(session.id), "the game waits on someone, with a reminder"
    ended = asyncio.Event()
    channel_gone = parlor.tables.channel_gone

    async def told(gone) -> None:
        await channel_gone(gone)
        ended.set()

    monkeypatch.setattr(parlor.tables, "channel_gone", told)
    fake.delete_channel(channel)
    await asyncio.wait_for(ended.wait(), timeout=5)
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

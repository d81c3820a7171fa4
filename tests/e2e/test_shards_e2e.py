"""Shards end to end: two bots, each running one shard of two, share one database and split the guilds.

Discord sends each guild's events to shard (guild_id >> 22) % shard_count, and the fake does the same,
so every guild's commands and buttons reach exactly one of the two bots.
"""

from __future__ import annotations

import asyncio

from bot.client import ShardedParlorBot
from tests.conftest import start_bot
from tests.e2e.helpers import latest_board, mentioned, player_to_act, table, tables
from tests.fakediscord import FakeDiscord
from tests.fakediscord.components import STRING_SELECT
from tests.fakediscord.gateway import shard_of
from tests.fakediscord.state import FakeChannel, FakeUser


def interactions_sent_to(fake: FakeDiscord, shard_id: int) -> set[str]:
    """The channel ids of every interaction the fake sent to the session of `shard_id`."""
    session = fake.gateway.live_sessions[shard_id]
    return {frame["d"]["channel_id"] for frame in session.sent if frame.get("t") == "INTERACTION_CREATE"}


async def test_two_shard_processes_each_serve_their_own_guilds(fake_discord: FakeDiscord, tmp_path):
    east = fake_discord.create_guild("East", shard=(0, 2))
    west = fake_discord.create_guild("West", shard=(1, 2))
    alice, bob = fake_discord.create_user("alice"), fake_discord.create_user("bob")
    database = str(tmp_path / "parlor.sqlite3")
    bots = []
    for shard_id in (0, 1):
        bot, _ = await start_bot(fake_discord, database, ready_shards=(shard_id,), shard_count=2,
                                 shard_ids=[shard_id])
        bots.append(bot)
    try:
        for shard_id, bot in enumerate(bots):
            assert isinstance(bot, ShardedParlorBot) and bot.shard_ids == [shard_id]
            expected = {g.id for g in fake_discord.world.guilds if shard_of(g.id, 2) == shard_id}
            assert {g.id for g in bot.guilds} == expected

        for guild in (east, west):
            games = fake_discord.channel("games", guild)
            await fake_discord.slash(alice, "game start", channel=games, game="john-henry", opponent=bob)
            lobby = table(fake_discord, games)
            await fake_discord.click(bob, lobby, lobby.button(label="Join")["custom_id"])
            assert set(mentioned(table(fake_discord, games))) == {alice.id, bob.id}
            rolled = await fake_discord.slash(alice, "roll", channel=games)
            assert not rolled.ephemeral and latest_board(fake_discord, games).attachment("board.png")

        east_games, west_games = (str(fake_discord.channel("games", g).id) for g in (east, west))
        assert interactions_sent_to(fake_discord, 0) == {east_games}
        assert interactions_sent_to(fake_discord, 1) == {west_games}
        sessions = await bots[0].host.store.sessions_where("status = 'active'")
        assert {s.guild_id for s in sessions} == {str(east.id), str(west.id)}, "one database holds both"
    finally:
        for bot in bots:
            await bot.close()
    fake_discord.assert_no_unknown_routes()


async def johari_on_two_shards(fake: FakeDiscord, postgres_url: str, alice: FakeUser, bob: FakeUser
                               ) -> tuple[list[ShardedParlorBot], FakeChannel]:
    """Two processes, one per shard, on one PostgreSQL; Alice and Bob begin Johari Bones by buttons in a guild
    of shard 1. The processes (shard 0's first), and the game's channel."""
    west = fake.create_guild("West", shard=(1, 2))
    bots = [(await start_bot(fake, postgres_url, ready_shards=(n,), shard_count=2, shard_ids=[n]))[0] for n in (0, 1)]
    games = fake.channel("games", west)
    try:
        await fake.slash(alice, "game start", channel=games, game="johari-bones", opponent=bob)
        lobby = table(fake, games)
        await fake.click(bob, lobby, lobby.button(label="Join")["custom_id"])
        lobby = table(fake, games)
        await fake.click(alice, lobby, lobby.button(label="Begin")["custom_id"])
    except BaseException:
        for bot in bots:
            await bot.close()
        raise
    return bots, games


async def test_a_johari_bone_placed_from_a_direct_message_leaves_one_table(fake_discord: FakeDiscord,
                                                                           postgres_url: str):
    """Discord sends a DM's interactions to shard 0, so a bone placed from a `/hand` reply in a DM is a move made by
    the process of shard 0 in a guild of shard 1, which posts the game's new table there. Each process must then
    take the other's table as the one to replace: a process that kept its own idea of the table (having read the
    game afresh for `/game status`, or for `/hand`) left two tables with live buttons in the channel."""
    fake = fake_discord
    alice, bob = fake.create_user("alice"), fake.create_user("bob")
    bots, games = await johari_on_two_shards(fake, postgres_url, alice, bob)
    try:
        first = player_to_act(table(fake, games), [alice, bob])
        second = bob if first is alice else alice

        async def draw_and_place_from_the_dm(user: FakeUser) -> None:
            await fake.slash(user, "draw", channel=games)
            reply = (await fake.slash(user, "hand", channel=fake.dm_channel(user))).response
            placed = await fake.click(user, reply, reply.buttons()[0]["custom_id"])
            assert not placed.ephemeral and not placed.followups

        async def draw_and_place_in_the_channel(user: FakeUser) -> None:
            reply = (await fake.slash(user, "draw", channel=games)).response
            await fake.click(user, reply, reply.buttons()[0]["custom_id"])

        await draw_and_place_from_the_dm(first)
        assert player_to_act(table(fake, games), [alice, bob]) is second
        status = await fake.slash(second, "game status", channel=games)
        assert status.ephemeral
        await draw_and_place_in_the_channel(second)
        assert player_to_act(table(fake, games), [alice, bob]) is first, "one table, the latest"
        await draw_and_place_from_the_dm(first)
        session = await bots[1].host.last_session_in(str(games.id))
        shown = [m.embed["footer"]["text"] for m in tables(fake, games)]
        assert shown == [f"Game #{session.id} · update {session.version}"], "one table, showing the last move"
    finally:
        for bot in bots:
            await bot.close()
    fake.assert_no_unknown_routes()


async def test_two_processes_scoring_one_johari_hand_at_once_leave_one_table(fake_discord: FakeDiscord,
                                                                             postgres_url: str):
    """At scoring time both players choose a box at once: alice from her `/hand` reply in a DM (the process of
    shard 0), bob in the channel (the process of shard 1). Both moves stand; the channel must keep one table."""
    fake = fake_discord
    alice, bob = fake.create_user("alice"), fake.create_user("bob")
    bots, games = await johari_on_two_shards(fake, postgres_url, alice, bob)
    try:
        host = bots[1].host
        while host.public_view(session := await host.last_session_in(str(games.id)))["phase"] != "scoring":
            player = host.to_act(session)[0]
            await host.act(session.id, player, host.legal_actions(session, player)[0])
        await bots[1].tables.show(session.id)
        menus = []
        for user, where in ((alice, fake.dm_channel(alice)), (bob, games)):
            reply = (await fake.slash(user, "hand", channel=where)).response
            menus.append((user, reply, next(c for c in reply.walk_components() if c.get("type") == STRING_SELECT)))

        posts = f"/channels/{games.id}/messages"
        posted = sum(1 for method, path, _ in fake.world.requests if method == "POST" and path.endswith(posts))
        release = fake.hold("POST", rf"{posts}")
        scoring = [asyncio.create_task(fake.select(user, reply, menu["custom_id"], [menu["options"][0]["value"]]))
                   for user, reply, menu in menus]
        await fake.wait_for(lambda: sum(1 for method, path, _ in fake.world.requests
                                        if method == "POST" and path.endswith(posts)) == posted + 2,
                            what="both processes re-posting the table")
        release.set()
        for scored in scoring:
            assert not (await scored).ephemeral, "both boxes were scored"
        session = await host.store.session(session.id)
        shown = [m.embed["footer"]["text"] for m in tables(fake, games)]
        assert shown == [f"Game #{session.id} · update {session.version}"], "one table, showing both scores"
    finally:
        for bot in bots:
            await bot.close()
    fake.assert_no_unknown_routes()

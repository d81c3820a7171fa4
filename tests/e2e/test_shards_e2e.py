"""Shards end to end: two bots, each running one shard of two, share one database and split the guilds.

Discord sends each guild's events to shard (guild_id >> 22) % shard_count, and the fake does the same,
so every guild's commands and buttons reach exactly one of the two bots.
"""

from __future__ import annotations

from bot.client import ShardedParlorBot
from tests.conftest import start_bot
from tests.e2e.helpers import latest_board, mentioned, table
from tests.fakediscord import FakeDiscord
from tests.fakediscord.gateway import shard_of


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

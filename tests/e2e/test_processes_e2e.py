"""Two bot processes (`python -m bot`, shards 0 and 1 of 2) share one PostgreSQL database.

Games in guilds of both shards play to the end; a kill -9 of one process loses no acknowledged move,
its games go on after its restart, and every reminder is sent exactly once: by the process that owns
the game's guild, even for a reminder that fell due while that process was dead.

Reminders here come every few seconds of real time (REMINDER_HOURS is a setting of the processes);
the test waits for them as for any message, never by sleeping.
"""

from __future__ import annotations

import time
from pathlib import Path

from bot.storage.store import Store
from games import get_game
from tests.e2e.helpers import is_over, latest_board
from tests.e2e.processes import bot_process, kill, stop
from tests.e2e.test_john_henry_e2e import play_to_the_end, start_game, take_turn
from tests.fakediscord import FakeDiscord
from tests.fakediscord.state import FakeChannel

REMINDER_SECONDS = 3.0
SHARD_COUNT = 2


def reminders_in(fake: FakeDiscord, channel: FakeChannel) -> list[str]:
    return [m.content for m in fake.messages(channel) if m.content.startswith("⏰")]


async def fired_reminders(store: Store, channel: FakeChannel) -> int:
    """Reminders the database says were sent for the channel's game since its last move (a move drops
    the fired ones)."""
    session = await store.open_session_in(str(channel.id))
    assert session is not None
    async with store._db.execute("SELECT COUNT(*) FROM timers WHERE session_id = ? AND kind = 'reminder'"
                                 " AND fired = 1", (session.id,)) as cursor:
        (count,) = await cursor.fetchone()
    return count


async def test_two_processes_on_one_postgres_share_the_work_and_survive_a_kill(
        fake_discord: FakeDiscord, postgres_url: str, tmp_path: Path):
    fake = fake_discord
    east = fake.create_guild("East", shard=(0, SHARD_COUNT))
    west = fake.create_guild("West", shard=(1, SHARD_COUNT))
    alice, bob = fake.create_user("alice"), fake.create_user("bob")
    players = [alice, bob]
    east_games, west_games = fake.channel("games", east), fake.channel("games", west)
    settings = {"SHARD_COUNT": str(SHARD_COUNT), "REMINDER_HOURS": str(REMINDER_SECONDS / 3600)}

    async def start(shard_id: int):
        return await bot_process(fake, tmp_path, postgres_url, SHARD_IDS=str(shard_id), **settings)

    processes = {0: await start(0), 1: await start(1)}
    store = await Store.connect(postgres_url)
    try:
        await fake.wait_until_ready(timeout=30, shards=(0, 1))
        await start_game(fake, east_games, alice, bob)
        await start_game(fake, west_games, alice, bob)
        for step in range(6):
            await take_turn(fake, east_games, players, step)
            await take_turn(fake, west_games, players, step)
        idle_from = {c.id: len(reminders_in(fake, c)) for c in (east_games, west_games)}

        # Idle: each process reminds the players of its own guild's game, once per period.
        for channel in (east_games, west_games):
            await fake.wait_for(lambda c=channel: reminders_in(fake, c), timeout=30, what="a first reminder")

        # kill -9 the process of shard 1: every move it acknowledged is in the database.
        await kill(processes.pop(1))
        west_session = await store.open_session_in(str(west_games.id))
        assert west_session is not None
        assert len(await store.moves(west_session.id)) == 6, "no acknowledged move was lost"
        footer = latest_board(fake, west_games).embed["footer"]["text"]
        assert footer.endswith(f"update {west_session.version}")

        # While it is down, the other process goes on reminding its own guild only.
        reminded_west = len(reminders_in(fake, west_games))
        east_before = len(reminders_in(fake, east_games))
        await fake.wait_for(lambda: len(reminders_in(fake, east_games)) >= east_before + 2, timeout=30,
                            what="the live process's reminders")
        assert len(reminders_in(fake, west_games)) == reminded_west, "the dead process's guild waits for it"
        # One reminder per player to act: two while both roll (three roll-off ties in a row: 1 run in 216).
        overdue = [t for t in await store.pending_timers(west_session.id) if t.kind == "reminder"]
        game = get_game(west_session.slug)
        assert len(overdue) == len(game.to_act(game.state_from_json(west_session.state))) >= 1
        assert all(t.due_at <= time.time() for t in overdue), "its next reminders fell due while it was down"

        # Its replacement starts and sends what fell due while it was down, once.
        processes[1] = await start(1)
        await fake.wait_until_ready(timeout=30, shards=(1,))
        await fake.wait_for(lambda: len(reminders_in(fake, west_games)) > reminded_west, timeout=30,
                            what="the overdue reminder")
        for channel in (east_games, west_games):
            # Right after a reminder, the next is a period away: the database and the channel agree.
            count = len(reminders_in(fake, channel))
            await fake.wait_for(lambda c=channel, n=count: len(reminders_in(fake, c)) > n, timeout=30,
                                what="another reminder")
            sent = len(reminders_in(fake, channel)) - idle_from[channel.id]
            assert await fired_reminders(store, channel) == sent, \
                "every reminder the database marked sent reached the channel exactly once"

        # Both games play to the end, each in the process of its shard.
        await take_turn(fake, west_games, players, 6)
        assert len(await store.moves(west_session.id)) == 7, "the game went on where it stopped"
        await play_to_the_end(fake, east_games, players)
        await play_to_the_end(fake, west_games, players)
        assert is_over(latest_board(fake, east_games)) and is_over(latest_board(fake, west_games))
        for channel in (east_games, west_games):
            (session,) = await store.sessions_where("channel_id = ?", (str(channel.id),))
            assert session.status == "finished"
            assert await store.pending_timers(session.id) == [], "nothing left to remind after the end"
    finally:
        for process in processes.values():
            await stop(process)
        await store.close()
    fake.assert_no_unknown_routes()

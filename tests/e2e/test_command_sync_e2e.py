"""Commands are synced only when they changed since the last sync, or when forced."""

from __future__ import annotations

import asyncio

from bot.client import ParlorBot
from bot.discord.command_sync import fingerprint
from bot.storage.store import Store
from tests.conftest import bot_settings, start_bot


async def restart(fake, database: str, **settings) -> ParlorBot:
    """Start the bot again on the same database; return once it is connected (its sync decided)."""
    identified = fake.gateway.identify_count
    bot = ParlorBot(bot_settings(fake, database).model_copy(update=settings))
    fake.watch_bot(asyncio.create_task(bot.start(fake.token)))
    await fake.wait_for(lambda: fake.gateway.identify_count > identified and fake.gateway.connected,
                        timeout=10, what="the restarted bot")
    return bot


async def test_a_second_start_with_unchanged_commands_makes_no_sync_request(fake_discord, tmp_path):
    fake = fake_discord
    database = str(tmp_path / "parlor.sqlite3")
    first, _ = await start_bot(fake, database)
    await first.close()
    assert fake.commands.sync_count == 1

    second = await restart(fake, database)
    try:
        alice = fake.create_user("alice")
        answered = await fake.slash(alice, "game start", channel=fake.channel("games"), game="john-henry")
        assert not answered.ephemeral, "the commands synced before still work"
    finally:
        await second.close()
    assert fake.commands.sync_count == 1, "an unchanged command tree is not synced again"

    forced = await restart(fake, database, force_command_sync=True)
    await forced.close()
    assert fake.commands.sync_count == 2, "FORCE_COMMAND_SYNC syncs anyway"

    store = await Store.open(database)
    await store.set_meta("command_sync:global", "the fingerprint of an older command tree")
    await store.close()
    changed = await restart(fake, database)
    await changed.close()
    assert fake.commands.sync_count == 3, "a tree that differs from the last synced one is synced"
    fake.assert_no_unknown_routes()


def test_the_fingerprint_changes_with_the_commands_the_application_and_the_target():
    commands = [{"name": "roll", "description": "Roll the dice", "options": []}]
    base = fingerprint(1, None, commands)
    assert base == fingerprint(1, None, [dict(commands[0])])
    renamed = [{**commands[0], "description": "Roll"}]
    assert len({base, fingerprint(1, None, renamed), fingerprint(2, None, commands), fingerprint(1, 5, commands)}) == 4

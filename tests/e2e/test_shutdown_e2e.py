"""SIGTERM, as a service manager sends it: in-flight moves finish and show, nothing errors, exit is prompt.

The bot runs as its own process (`python -m bot`) against the fake Discord, as in production.
"""

from __future__ import annotations

import asyncio
import sqlite3
from pathlib import Path

from tests.e2e.helpers import table, tables
from tests.e2e.processes import bot_process, stop
from tests.fakediscord import FakeDiscord

CLOSING_ERRORS = ("Session is closed", "Connection closed", "Traceback", "ERROR")
CHANNELS = 8


async def test_sigterm_lets_moves_in_flight_finish_and_show(fake_discord: FakeDiscord, tmp_path: Path):
    fake = fake_discord
    fake.deferred_timeout = 30.0
    database = tmp_path / "parlor.sqlite3"
    process = await bot_process(fake, tmp_path, f"sqlite:///{database}")
    await fake.wait_until_ready(timeout=20)
    alice, bob = fake.create_user("alice"), fake.create_user("bob")
    channels = [fake.create_channel(f"term-{n}") for n in range(CHANNELS)]
    for channel in channels:
        await fake.slash(alice, "game start", channel=channel, game="john-henry", opponent=bob)
        lobby = table(fake, channel)
        await fake.click(bob, lobby, lobby.button(label="Join")["custom_id"])
    before = len(fake.interactions.by_id)

    moves = [asyncio.create_task(fake.slash(alice, "roll", channel=channel)) for channel in channels]
    await fake.wait_for(lambda: len(fake.interactions.by_id) == before + CHANNELS
                        and all(r.acknowledged for r in list(fake.interactions.by_id.values())[before:]),
                        timeout=10, what="the moves to be acknowledged")
    process.terminate()
    results = await asyncio.gather(*moves)
    _, stderr = await asyncio.wait_for(process.communicate(), timeout=20)
    errors = stderr.decode(errors="replace")
    assert process.returncode == 0, errors
    assert not [word for word in CLOSING_ERRORS if word in errors], errors
    assert not [r for r in results if r.late], "every move was acknowledged in time"

    with sqlite3.connect(database) as db:
        versions = dict(db.execute("SELECT channel_id, version FROM sessions"))
    for channel, result in zip(channels, results, strict=True):
        [shown] = tables(fake, channel)
        footer = shown.embed["footer"]["text"]
        assert footer.endswith(f"update {versions[str(channel.id)]}"), "a committed move is on its table"
        if result.ephemeral:
            assert "restarting" in result.response.content, result.response.content


async def test_sigterm_exits_promptly_while_discord_is_unreachable(fake_discord: FakeDiscord, tmp_path: Path):
    process = await bot_process(fake_discord, tmp_path, f"sqlite:///{tmp_path / 'parlor.sqlite3'}")
    await fake_discord.wait_until_ready(timeout=20)
    await fake_discord.stop()
    await stop(process)

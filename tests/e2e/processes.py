"""The bot as a real process (`python -m bot`), pointed at the fake Discord: start, SIGTERM, kill -9."""

from __future__ import annotations

import asyncio
import os
import sys
from pathlib import Path

from tests.fakediscord import FakeDiscord

ROOT = Path(__file__).resolve().parents[2]


async def bot_process(fake: FakeDiscord, folder: Path, database_url: str,
                      **settings: str) -> asyncio.subprocess.Process:
    """`python -m bot` in `folder` with these settings (names as in .env, e.g. SHARD_IDS="1")."""
    env = {**os.environ, "DISCORD_TOKEN": fake.token, "DATABASE_URL": database_url,
           "DISCORD_API_BASE": fake.api_base, "DISCORD_GATEWAY_URL": fake.gateway_url,
           "DISCORD_GUILD_ID": "", "PYTHONPATH": str(ROOT), "LOG_LEVEL": "WARNING", **settings}
    return await asyncio.create_subprocess_exec(sys.executable, "-m", "bot", cwd=folder, env=env,
                                                stdout=asyncio.subprocess.DEVNULL, stderr=asyncio.subprocess.PIPE)


async def stop(process: asyncio.subprocess.Process) -> None:
    """SIGTERM, as a service manager would send: the bot must close cleanly and promptly."""
    process.terminate()
    try:
        _, stderr = await asyncio.wait_for(process.communicate(), timeout=10)
    except TimeoutError:
        process.kill()
        _, stderr = await process.communicate()
        raise AssertionError(f"the bot did not stop on SIGTERM: {stderr.decode(errors='replace')}") from None
    assert process.returncode == 0, stderr.decode(errors="replace")


async def kill(process: asyncio.subprocess.Process) -> None:
    """kill -9: no clean-up at all, as when the machine or the OOM killer takes the process."""
    process.kill()
    await process.communicate()

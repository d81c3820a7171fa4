"""The `fake_discord` pytest fixture: a started FakeDiscord per test, with discord.py pointed at it.

Import it into a conftest (`from tests.fakediscord.fixtures import fake_discord`) to make it available.
Stop the bot before this fixture tears down (a bot fixture that depends on `fake_discord` does).
"""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest_asyncio

from tests.fakediscord.api import FakeDiscord
from tests.fakediscord.connect import point_discord_py_at


@pytest_asyncio.fixture
async def fake_discord() -> AsyncIterator[FakeDiscord]:
    async with FakeDiscord() as fake:
        restore = point_discord_py_at(fake.api_base, fake.gateway_url)
        try:
            yield fake
        finally:
            restore()

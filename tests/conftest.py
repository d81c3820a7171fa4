"""Fixtures shared by every test folder: the fake Discord on loopback and the real bot against it."""

from __future__ import annotations

import asyncio
import os
from collections.abc import AsyncIterator, Iterator
from typing import Any

import pytest
import pytest_asyncio

from bot.client import ParlorBot, create_bot
from bot.config import Settings
from tests.fakediscord import FakeDiscord
from tests.fakediscord.fixtures import fake_discord  # noqa: F401
from tests.postgres_server import PostgresMissing, PostgresServer


@pytest.fixture(scope="session")
def postgres_server() -> Iterator[PostgresServer]:
    """A real PostgreSQL for the whole session, started in a temporary folder.

    Missing PostgreSQL fails the run in CI (CI=true) and skips the PostgreSQL tests elsewhere.
    """
    try:
        server = PostgresServer()
        server.start()
    except PostgresMissing as error:
        if os.environ.get("CI"):
            pytest.fail(f"CI needs PostgreSQL: {error}")
        pytest.skip(str(error))
    yield server
    server.stop()


@pytest.fixture
def postgres_url(postgres_server: PostgresServer) -> str:
    """A fresh, empty PostgreSQL database for one test: its DATABASE_URL."""
    return postgres_server.create_database()


DATABASE_KINDS = ("sqlite", "postgresql")


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line("markers", "both_databases: run each test on SQLite and on PostgreSQL")


def pytest_generate_tests(metafunc: pytest.Metafunc) -> None:
    """`pytestmark = pytest.mark.both_databases` runs a module's database tests on both databases."""
    if metafunc.definition.get_closest_marker("both_databases") and "database_kind" in metafunc.fixturenames:
        metafunc.parametrize("database_kind", DATABASE_KINDS)


@pytest.fixture
def database_kind() -> str:
    """Which database `database_url` is: SQLite, or both for modules marked `both_databases`."""
    return "sqlite"


@pytest.fixture
def database_url(request: pytest.FixtureRequest, database_kind: str, tmp_path) -> str:
    """A fresh empty database of `database_kind`, as a DATABASE_URL."""
    if database_kind == "postgresql":
        return request.getfixturevalue("postgres_url")
    return f"sqlite:///{tmp_path / 'parlor.sqlite3'}"


def bot_settings(fake: FakeDiscord, database: str, **overrides: Any) -> Settings:
    """Settings as a user would write them, pointed at the fake; global commands, as in production.

    `database` is a SQLite file or a DATABASE_URL; `overrides` are further settings (e.g. shard_count)."""
    url = database if "://" in database else f"sqlite:///{database}"
    return Settings(_env_file=None, discord_token=fake.token, database_url=url,
                    discord_api_base=fake.api_base, discord_gateway_url=fake.gateway_url,
                    discord_guild_id=None, **overrides)


async def start_bot(fake: FakeDiscord, database: str, *, ready_shards: tuple[int, ...] | None = None,
                    **overrides: Any) -> tuple[ParlorBot, asyncio.Task[None]]:
    """The real bot, in-process, connected and ready (on `ready_shards`, when it runs only some shards);
    any crash fails the fake's waits at once."""
    bot = create_bot(bot_settings(fake, database, **overrides))
    task = asyncio.create_task(bot.start(fake.token))
    fake.watch_bot(task)
    await fake.wait_until_ready(shards=ready_shards)
    await asyncio.wait_for(bot.wait_until_ready(), 10)
    return bot, task


@pytest_asyncio.fixture
async def parlor(fake_discord: FakeDiscord, database_url: str) -> AsyncIterator[ParlorBot]:  # noqa: F811
    """The real bot, in-process, connected to the fake Discord; fails the test on any unknown route.

    Its database is `database_url`'s: SQLite, or both databases in a module marked `both_databases`."""
    bot, task = await start_bot(fake_discord, database_url)
    yield bot
    await bot.close()
    await task
    fake_discord.assert_no_unknown_routes()


def pytest_sessionfinish(session: pytest.Session, exitstatus: int) -> None:
    """Stop the worker thread of any aiosqlite connection a failing test left open.

    Such a thread is not a daemon: left alone it keeps the interpreter alive after the last test, so one
    failure would hang the whole run (and CI) instead of reporting it.
    """
    import threading

    from aiosqlite import core

    for thread in threading.enumerate():
        if getattr(thread, "_target", None) is core._connection_worker_thread and thread.is_alive():
            thread._args[0].put_nowait((None, lambda: core._STOP_RUNNING_SENTINEL))

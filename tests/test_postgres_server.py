"""The test PostgreSQL server starts, and every test gets a database of its own."""

from __future__ import annotations

import asyncpg


async def test_each_test_gets_an_empty_database_of_its_own(postgres_server, postgres_url):
    other = postgres_server.create_database()
    assert other != postgres_url
    first = await asyncpg.connect(postgres_url)
    try:
        await first.execute("CREATE TABLE marker (n INTEGER)")
        assert await first.fetchval("SELECT current_setting('server_version_num')::int") >= 120000
    finally:
        await first.close()
    second = await asyncpg.connect(other)
    try:
        assert await second.fetchval("SELECT to_regclass('marker')") is None
    finally:
        await second.close()

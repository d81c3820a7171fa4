"""Reads see committed data only, and a COMMIT that fails is rolled back."""

from __future__ import annotations

import asyncio
import sqlite3

import pytest

from bot.storage.store import Seat, Store

ALICE = Seat(id="101", name="Alice")


async def lobby(store: Store):
    return await store.create_lobby(guild_id="1", channel_id="7", slug="john-henry", creator=ALICE, invited=[],
                                    options={}, now=1.0)


async def test_a_concurrent_reader_never_sees_a_version_that_is_not_committed(store):
    session = await lobby(store)
    inside, reader_started = asyncio.Event(), asyncio.Event()

    async def writer() -> None:
        async with store._transaction():
            await store._db.execute("UPDATE sessions SET version = 99 WHERE id = ?", (session.id,))
            inside.set()
            await reader_started.wait()
            # Round trips through the database thread while the reader is under way: enough for it to
            # finish, were it allowed to read inside this transaction.
            for _ in range(20):
                await store._db.execute("SELECT 1")
            raise RuntimeError("the move is abandoned before its commit")

    async def reader():
        await inside.wait()
        reader_started.set()
        return await store.session(session.id)

    written, read = await asyncio.gather(writer(), reader(), return_exceptions=True)
    assert isinstance(written, RuntimeError)
    assert read.version == 0, "the reader saw a version that was rolled back"
    assert (await store.session(session.id)).version == 0


async def test_many_reads_during_many_moves_see_only_versions_that_were_committed(store):
    session = await lobby(store)
    committed = {0}

    async def moves() -> None:
        current = session
        for number in range(30):
            if number % 3 == 2:
                # A move whose transaction fails after its UPDATE ran: its version never exists.
                with pytest.raises(TypeError):
                    await store.record_move(current, player=ALICE.id, action={"type": "x"},
                                            outcomes={"bad": object()}, now=2.0)
            else:
                current = await store.record_move(current, player=ALICE.id, action={"type": "x"}, outcomes={},
                                                  now=2.0)
                committed.add(current.version)

    async def reads() -> list[int]:
        seen = []
        for _ in range(200):
            seen.append((await store.session(session.id)).version)
        return seen

    _, *seen = await asyncio.gather(moves(), reads(), reads())
    observed = {version for versions in seen for version in versions}
    assert observed <= committed, f"read versions that were never committed: {observed - committed}"


async def test_a_failed_commit_is_rolled_back_and_the_store_goes_on(store):
    session = await lobby(store)
    with pytest.raises(sqlite3.IntegrityError):
        async with store._transaction():
            # Foreign keys checked at COMMIT: the COMMIT itself fails, leaving SQLite inside the transaction.
            await store._db.execute("PRAGMA defer_foreign_keys = ON")
            await store._db.execute("UPDATE sessions SET version = 42 WHERE id = ?", (session.id,))
            await store._db.execute("INSERT INTO moves (session_id, seq, player, action, outcomes, created_at)"
                                    " VALUES (999, 1, 'x', '{}', '{}', 0)")
    assert not store._db.raw.in_transaction
    assert (await store.session(session.id)).version == 0, "the failed transaction left nothing behind"
    moved = await store.record_move(session, player=ALICE.id, action={"type": "x"}, outcomes={}, now=2.0)
    assert moved.version == 1

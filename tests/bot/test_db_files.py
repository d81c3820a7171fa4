"""The database folder and files are private to the bot's user whatever the umask."""

from __future__ import annotations

import os
import stat

import pytest

from bot.storage.store import Seat, Store


def mode(path) -> int:
    return stat.S_IMODE(os.stat(path).st_mode)


@pytest.fixture(params=[0o022, 0o002, 0o000])
def umask(request):
    old = os.umask(request.param)
    yield request.param
    os.umask(old)


async def test_folder_is_0700_and_database_wal_and_shm_are_0600(tmp_path, umask):
    path = tmp_path / "data" / "parlor.sqlite3"
    store = await Store.open(path)
    try:
        await store.create_lobby(guild_id="1", channel_id="7", slug="john-henry",
                                 creator=Seat(id="101", name="Alice"), invited=[], options={}, now=1.0)
        files = [path, f"{path}-wal", f"{path}-shm"]
        assert all(os.path.exists(file) for file in files), "WAL mode keeps -wal and -shm while open"
        assert mode(path.parent) == 0o700
        assert {str(file): mode(file) for file in files} == {str(file): 0o600 for file in files}
    finally:
        await store.close()


async def test_a_database_left_readable_by_others_is_tightened_at_start(tmp_path, umask):
    folder = tmp_path / "chosen"
    folder.mkdir()
    os.chmod(folder, 0o755)
    path = folder / "parlor.sqlite3"
    await (await Store.open(path)).close()
    os.chmod(path, 0o644)
    store = await Store.open(path)
    try:
        assert mode(path) == 0o600
        assert mode(folder) == 0o755, "a folder the operator made is his to set"
    finally:
        await store.close()

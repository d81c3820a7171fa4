"""QA qa-today: defects a player or operator meets in what changed on 2026-11-27 (each xfail until fixed)."""

from __future__ import annotations

import pytest

from bot.client import ParlorBot
from tests.fakediscord import FakeDiscord
from tests.fakediscord.interactions import InteractionResult


async def whole_log(fake: FakeDiscord, parlor: ParlorBot, result: InteractionResult, channel) -> str:
    """The text of every message `/game log` answered with, once its last move has come."""
    session = await parlor.host.last_session_in(str(channel.id))
    last = len(await parlor.host.moves(session))
    await fake.wait_for(lambda: f"\n{last}. " in result.text, what="the log's last move")
    return result.text


# -- /game log ---------------------------------------------------------------------------------------------

# -- a database path naming a folder -------------------------------------------------------------------------

@pytest.mark.xfail(strict=True, reason="bot/store.py checks path.is_dir() only; Path('data/') drops the slash, so a "
                                       "folder not made yet becomes a database file named 'data'")
async def test_a_database_path_ending_in_a_slash_is_told_as_a_folder(tmp_path):
    """The operator sets DATABASE_URL=sqlite:///data/ meaning "keep it in the folder data", which does not exist
    yet. Parlor made a SQLite file called `data` (mode 0600) and started on it, without a word; the folder he
    meant can no longer be made there. README: "a path naming a folder rather than a file is told as such, with
    a file in it to set instead"."""
    from tests.e2e.test_storage_trouble_e2e import start_up_on

    returncode, lines = await start_up_on("sqlite:///data/", tmp_path)
    assert not (tmp_path / "data").is_file(), f"a database file named 'data' was made: {lines}"
    assert returncode != 0 and "folder" in lines[-1] and "sqlite:///data/parlor.sqlite3" in lines[-1], lines

"""Who gets text instead of pictures (bot.play.text_view), on SQLite and PostgreSQL."""

from __future__ import annotations

import pytest

from bot.play.text_view import TextView
from bot.storage.store import Store

pytestmark = pytest.mark.both_databases


async def test_settings_are_kept_apart_per_server_and_per_user(store, database_url):
    view = TextView(store)
    assert await view.pictures_for("1") and await view.pictures_for("1", "101"), "pictures by default"
    await store.set_turn_dms("101", True)
    await view.set_user_text("101", True)
    assert await view.pictures_for("1"), "a user's choice leaves the public table alone"
    assert not await view.pictures_for("1", "101") and await view.pictures_for("1", "102")
    assert await store.turn_dm_users(["101"]) == {"101"}, "the user's other setting stays"
    await store.set_guild_hours("2", reminder_hours=3.0)
    await view.set_server_text("2", True)
    assert not await view.pictures_for("2") and not await view.pictures_for("2", "102")
    assert (await store.guild_settings("2")).reminder_hours == 3.0 and await view.pictures_for("1")

    reopened = await Store.connect(database_url)
    try:
        again = TextView(reopened)
        assert await again.server_text("2") and not await again.server_text("1")
        assert await again.user_text("101") and not await again.user_text("102")
        await again.set_server_text("2", False)
        assert await again.pictures_for("2")
    finally:
        await reopened.close()

"""One table after any crash (issue 42): a superseded table is recorded as still to delete together with the
table that replaces it, and its deletion is finished at start-up or on the game's next update."""

from __future__ import annotations

from bot.storage.store import TableRecord
from tests.conftest import start_bot
from tests.e2e.helpers import game_number, tables
from tests.e2e.test_table_load_e2e import restart_and_expect_one_table_up_to_date, seated_game
from tests.fakediscord import FakeDiscord


async def test_a_crash_before_the_old_table_is_deleted_leaves_one_table_after_the_restart(fake_discord: FakeDiscord,
                                                                                         tmp_path):
    fake = fake_discord
    database = str(tmp_path / "parlor.sqlite3")
    first, _ = await start_bot(fake, database)
    alice, bob = fake.create_user("alice"), fake.create_user("bob")
    channel = fake.channel("games")
    try:
        session_id = await seated_game(first, channel, alice, bob)
        [old] = tables(fake, channel)

        async def crash(*args, **kwargs) -> None:
            raise ConnectionResetError("the process died after recording the new table, before deleting the old")

        first.tables._finish_retiring = crash  # type: ignore[method-assign]
        await fake.slash(alice, "roll", channel=channel)
        shown = tables(fake, channel)
        assert len(shown) == 2 and shown[0].id == old.id, "the new table is posted, the old one still there"
        assert any(b.get("label") == "Roll" for b in old.buttons()), "with buttons that look live"
        record: TableRecord | None = await first.host.store.table(session_id)
        assert record is not None and record.retiring == [str(old.id)], "recorded as still to delete"
    finally:
        await first.close()

    await restart_and_expect_one_table_up_to_date(fake, database, channel)
    assert old.deleted
    fake.assert_nothing_refused()


async def test_an_old_table_discord_would_not_delete_goes_with_the_games_next_update(fake_discord: FakeDiscord,
                                                                                    parlor):
    fake = fake_discord
    alice, bob = fake.create_user("alice"), fake.create_user("bob")
    channel = fake.channel("games")
    session_id = await seated_game(parlor, channel, alice, bob)
    [old] = tables(fake, channel)
    fake.unavailable("DELETE", rf"/channels/{channel.id}/messages/{old.id}", times=100)  # until it lets it
    await fake.slash(alice, "roll", channel=channel)
    assert len(tables(fake, channel)) == 2 and not old.deleted
    assert not old.buttons(), "its buttons at least are taken away"
    assert (await parlor.host.store.table(session_id)).retiring == [str(old.id)]
    fake.world.refusals.clear()  # Discord deletes messages again

    session = await parlor.host.last_session_in(str(channel.id))
    mover = next(u for u in (alice, bob) if str(u.id) == parlor.host.to_act(session)[0])
    await fake.slash(mover, "roll", channel=channel)

    await fake.wait_for(lambda: old.deleted, what="the old table deleted on the next update")
    assert [game_number(m) for m in tables(fake, channel)] == [session_id], "one table"
    assert (await parlor.host.store.table(session_id)).retiring == []
    fake.assert_nothing_refused()

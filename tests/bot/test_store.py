"""The store against a real SQLite file and a real PostgreSQL: migrations, the one-open-game rule,
versions, the move log."""

from __future__ import annotations

import asyncio
import json
import sqlite3

import pytest

from bot.storage.migrations import MIGRATIONS
from bot.storage.store import ChannelBusy, PanelRecord, Seat, StaleVersion, Store

ALICE = Seat(id="101", name="Alice")
pytestmark = pytest.mark.both_databases


async def test_migrations_run_once_and_reopening_keeps_data(database_url):
    store = await Store.connect(database_url)
    assert await store.schema_version() == len(MIGRATIONS)
    lobby = await store.create_lobby(guild_id="1", channel_id="7", slug="john-henry", creator=ALICE,
                                     invited=[], options={}, now=1.0)
    await store.close()

    reopened = await Store.connect(database_url)
    assert await reopened.schema_version() == len(MIGRATIONS)
    again = await reopened.session(lobby.id)
    assert again == lobby
    await reopened.close()


async def test_wal_mode_is_on(tmp_path):
    store = await Store.open(tmp_path / "db.sqlite3")
    await store.close()
    with sqlite3.connect(tmp_path / "db.sqlite3") as raw:
        assert raw.execute("PRAGMA journal_mode").fetchone()[0] == "wal"


async def test_one_open_session_per_channel(database_url):
    store = await Store.connect(database_url)
    first = await store.create_lobby(guild_id="1", channel_id="7", slug="john-henry", creator=ALICE,
                                     invited=[], options={}, now=1.0)
    with pytest.raises(ChannelBusy):
        await store.create_lobby(guild_id="1", channel_id="7", slug="john-henry", creator=ALICE,
                                 invited=[], options={}, now=2.0)
    await store.update_session(first, now=3.0, status="abandoned")
    second = await store.create_lobby(guild_id="1", channel_id="7", slug="john-henry", creator=ALICE,
                                      invited=[], options={}, now=4.0)
    assert second.id != first.id
    await store.close()


async def test_stale_version_writes_nothing(database_url):
    store = await Store.connect(database_url)
    lobby = await store.create_lobby(guild_id="1", channel_id="7", slug="john-henry", creator=ALICE,
                                     invited=[], options={}, now=1.0)
    await store.update_session(lobby, now=2.0, status="active", state="{}")
    with pytest.raises(StaleVersion):
        await store.record_move(lobby, player="101", action={"type": "roll"}, outcomes={"rolls": [3]},
                                now=3.0, state='{"stale": true}')
    assert await store.moves(lobby.id) == []
    current = await store.session(lobby.id)
    assert current.state == "{}" and current.version == 1
    await store.close()


async def test_record_move_appends_in_sequence(database_url):
    store = await Store.connect(database_url)
    session = await store.create_lobby(guild_id="1", channel_id="7", slug="john-henry", creator=ALICE,
                                       invited=[], options={}, now=1.0)
    for n in range(3):
        session = await store.record_move(session, player="101", action={"type": "roll"},
                                          outcomes={"rolls": [n + 1], "shuffles": []}, now=2.0 + n, state=str(n))
    moves = await store.moves(session.id)
    assert [m.seq for m in moves] == [1, 2, 3]
    assert [m.outcomes["rolls"] for m in moves] == [[1], [2], [3]]
    assert session.version == 3 and session.state == "2"
    await store.close()


async def test_json_columns_read_back_as_the_json_module_would_give_them(database_url):
    """The JSON columns are written by orjson (bot.storage.records.json_text): names in any script, keys that are not
    strings, nesting and None come back exactly as a json.dumps/json.loads round trip gives them, both from
    the write itself and from a fresh read."""
    store = await Store.connect(database_url)
    session = await store.create_lobby(guild_id="1", channel_id="7", slug="john-henry", creator=ALICE,
                                       invited=["202"], options={"seats": 3, "note": "Zoë 周"}, now=1.0)
    action = {"type": "say", "text": 'Élodie said "hi" \\ 🎲', "counts": {3: [1, 2.5, None]}}
    events = [{"type": "said", "by": "Ånne", "to": {7: True}}]
    written = await store.record_move(session, player="101", action=action, outcomes={"rolls": [6], 1: "x"},
                                      now=2.0, state="{}", turn_events=events, waiting_since={"101": 2.0})
    through_json = json.loads(json.dumps(events))
    assert written.turn_events == through_json and written.waiting_since == {"101": 2.0}
    [move] = await store.moves(session.id)
    assert move.action == json.loads(json.dumps(action)) and move.outcomes == {"rolls": [6], "1": "x"}
    again = await store.session(session.id)
    assert again.turn_events == through_json and again.options == {"seats": 3, "note": "Zoë 周"}
    assert again.invited == ["202"] and again == written
    await store.close()


async def test_two_stores_on_one_database_never_both_apply_a_move_from_one_version(database_url):
    """Two processes' stores (two connections or pools) racing from the same version: one move wins."""
    one, two = await Store.connect(database_url), await Store.connect(database_url)
    lobby = await one.create_lobby(guild_id="1", channel_id="7", slug="john-henry", creator=ALICE,
                                   invited=[], options={}, now=1.0)
    session = await one.update_session(lobby, now=2.0, status="active", state="{}")
    results = await asyncio.gather(
        *(store.record_move(session, player="101", action={"type": "roll"}, outcomes={"rolls": [n]},
                            now=3.0, state=str(n)) for n, store in enumerate((one, two))),
        return_exceptions=True)
    assert sorted(type(r).__name__ for r in results) == ["SessionRecord", "StaleVersion"]
    (winner,) = [r for r in results if not isinstance(r, BaseException)]
    assert [m.outcomes["rolls"] for m in await two.moves(session.id)] == [[int(winner.state)]]
    assert (await one.session(session.id)).version == session.version + 1
    await one.close()
    await two.close()


async def test_processes_starting_together_on_a_new_database_migrate_it_once(database_url):
    stores = await asyncio.gather(*(Store.connect(database_url) for _ in range(3)))
    assert [await store.schema_version() for store in stores] == [len(MIGRATIONS)] * 3
    lobby = await stores[0].create_lobby(guild_id="1", channel_id="7", slug="john-henry", creator=ALICE,
                                         invited=[], options={}, now=1.0)
    assert await stores[2].session(lobby.id) == lobby
    for store in stores:
        await store.close()


async def test_a_players_sessions_are_found_by_seat_not_by_look_alike_text(store):
    """Ids with LIKE wildcards, and a name that spells another player's seat, never match wrongly."""
    tricky = [Seat(id="1_1", name="Under"), Seat(id="1%", name="Percent"), Seat(id="a\\b", name="Slash"),
              Seat(id="9", name='x", "id": "7'), Seat(id="7", name="Seven")]
    sessions = {}
    for n, seat in enumerate(tricky):
        sessions[seat.id] = await store.create_lobby(guild_id="1", channel_id=f"c{n}", slug="john-henry",
                                                     creator=seat, invited=[], options={}, now=1.0)
    for probe in ["1_1", "1%", "a\\b", "9", "7", "121", "1", "1x"]:
        found = await store.sessions_with_player(probe, ("lobby",))
        expected = [sessions[probe].id] if probe in sessions else []
        assert [s.id for s in found] == expected, probe


async def test_closed_dm_marks_are_kept_apart_from_turn_notices(store):
    """bot.discord.dm_reach: a refusal marks the user, his acting clears it; /notify's own setting stays as it was."""
    from bot.discord.dm_reach import DmReach

    await store.set_turn_dms("1", True)
    reach = DmReach(store)
    assert await reach.reachable(["1", "2"]) == ["1", "2"]
    await reach.refused("1")
    await reach.refused("2")
    assert await reach.reachable(["1", "2", "3"]) == ["3"]
    assert await DmReach(store).reachable(["1"]) == [], "the mark outlives the process"
    await reach.acted("1")
    assert await reach.reachable(["1", "2"]) == ["1"] and await store.turn_dm_users(["1"]) == {"1"}
    later = DmReach(store)
    await later.acted("2")
    assert await store.dms_closed_users() == set(), "a process started later knows the marks made before"


async def test_a_games_panels_are_listed_together(database_url):
    store = await Store.connect(database_url)
    game = await store.create_lobby(guild_id="1", channel_id="8", slug="johari-bones", creator=ALICE,
                                    invited=[], options={}, now=1.0)
    other = await store.create_lobby(guild_id="1", channel_id="9", slug="johari-bones", creator=ALICE,
                                     invited=[], options={}, now=1.0)
    for session, player, message in ((game, "202", "2"), (game, "101", "1"), (other, "101", "3")):
        await store.save_panel(PanelRecord(session_id=session.id, player=player, channel_id="50", message_id=message))
    assert [(p.player, p.message_id) for p in await store.panels_of(game.id)] == [("101", "1"), ("202", "2")]
    await store.close()


async def test_a_panel_keeps_what_it_shows_and_the_running_games_panels_are_listed(database_url):
    """What a panel shows (bot.discord.panels.fingerprint), to catch up at start-up those of running games
    behind them."""
    store = await Store.connect(database_url)
    running = await store.create_lobby(guild_id="1", channel_id="8", slug="johari-bones", creator=ALICE,
                                       invited=[], options={}, now=1.0)
    running = await store.update_session(running, now=2.0, status="active", state="{}")
    over = await store.create_lobby(guild_id="1", channel_id="9", slug="johari-bones", creator=ALICE,
                                    invited=[], options={}, now=1.0)
    await store.update_session(over, now=2.0, status="abandoned")
    for session, message in ((running, "1"), (over, "2")):
        await store.save_panel(PanelRecord(session_id=session.id, player="101", channel_id="50", message_id=message))
    assert (await store.panel(running.id, "101")).shows is None, "not known until it is shown"
    await store.save_panel(PanelRecord(session_id=running.id, player="101", channel_id="50", message_id="1",
                                       shows="abc"))
    assert [(p.session_id, p.shows) for p in await store.running_panels()] == [(running.id, "abc")]
    await store.close()

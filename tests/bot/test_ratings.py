"""Ratings (bot.play.ratings) on SQLite and PostgreSQL: which finished games count, in which pool, written with
the finishing move, never twice."""

from __future__ import annotations

import asyncio

import pytest

from bot.play.host import Host
from bot.play.ratings import AI_RATED, ALL, PEOPLE, new_rating, places, shown
from bot.storage.migrations import MIGRATIONS
from bot.storage.store import Rating, RatingChange, Seat, StaleVersion, Store
from games import get_game
from games.core import SeededRandomness
from tests.bot.conftest import ALICE, BOB, CAROL
from tests.bot.waiting import HOUR, start_game

pytestmark = pytest.mark.both_databases


async def play_out(host: Host, session_id: int, limit: int = 3000) -> None:
    """Everyone (the AI's seats too) takes his first legal action until the game is over."""
    for _ in range(limit):
        session = await host.session(session_id)
        if session.status != "active":
            return
        player = host.to_act(session)[0]
        await host.act(session_id, player, host.legal_actions(session, player)[0],
                       by_ai=player in session.ai_played)
    raise AssertionError("the game did not end")


async def ratings(host: Host, guild: str, slug: str, pool: str, players: list[str]) -> dict[str, Rating]:
    found = await host.store.ratings(guild, slug, [(pool, player) for player in players])
    return {player: rating for (_, player), rating in found.items()}


def test_places_put_the_winners_first_then_the_others_by_score():
    assert places({"winners": ["a"], "scores": {"a": 40, "b": 10, "c": 25}}) == {"a": 1, "c": 2, "b": 3}
    assert places({"winners": ["a", "b"], "scores": {"a": 30, "b": 30, "c": 5, "d": 5}}) == \
        {"a": 1, "b": 1, "c": 3, "d": 3}
    assert places({"winners": ["b"], "scores": {"a": 50, "b": 20}}) == {"b": 1, "a": 2}, "winning beats points"


async def test_a_finished_game_moves_both_pools_and_records_its_change_once(host):
    session_id = await start_game(host, "john-henry", "900", [ALICE, BOB])
    await play_out(host, session_id)
    session = await host.session(session_id)
    [winner] = session.result["winners"]
    loser = BOB.id if winner == ALICE.id else ALICE.id
    for pool in (PEOPLE, ALL):
        rated = await ratings(host, "1", "john-henry", pool, [ALICE.id, BOB.id])
        assert shown(rated[winner]) > shown(new_rating()) > shown(rated[loser])
        assert rated[winner].games == rated[loser].games == 1
    changes = await host.store.rating_changes(session_id)
    assert {(c.pool, c.player) for c in changes} == {(p, x) for p in (PEOPLE, ALL) for x in (ALICE.id, BOB.id)}
    assert all(c.before is None and c.after.games == 1 for c in changes)

    before = await ratings(host, "1", "john-henry", PEOPLE, [ALICE.id, BOB.id])
    await host.replay(session_id)
    restarted = Host(host.store, clock=host.clock)
    await restarted.replay(session_id)
    assert await restarted.session(session_id) == session
    assert await ratings(host, "1", "john-henry", PEOPLE, [ALICE.id, BOB.id]) == before, "replay rates nothing"


async def test_an_abandoned_game_does_not_count(host):
    await start_game(host, "follow-the-arrow", "900", [ALICE, BOB])
    session = await host.abandon("900", ALICE.id, can_manage=False)
    assert await host.store.rating_changes(session.id) == []
    assert await ratings(host, "1", "follow-the-arrow", ALL, [ALICE.id, BOB.id]) == {}


async def test_a_claimed_game_counts_as_a_win_for_those_who_stayed(host, clock):
    session_id = await start_game(host, "johari-bones", "900", [ALICE, BOB, CAROL])
    session = await host.session(session_id)
    idle = host.to_act(session)[0]
    stayed = [p for p in session.player_ids if p != idle]
    clock.advance(48 * HOUR + 1)
    await host.claim("900", stayed[0])
    rated = await ratings(host, "1", "johari-bones", PEOPLE, session.player_ids)
    assert shown(rated[stayed[0]]) == shown(rated[stayed[1]]) > shown(new_rating()) > shown(rated[idle])


async def test_games_with_the_ai_count_apart_and_the_ai_has_its_own_rating(host):
    await host.open_lobby(guild_id="1", channel_id="900", slug="johari-bones", creator=ALICE)
    await host.join("900", BOB)
    session, _ = await host.seat_ai("900", ALICE.id, fill=True)
    assert [seat.id for seat in session.players] == [ALICE.id, BOB.id, "ai-1", "ai-2"]
    await play_out(host, session.id)
    assert await ratings(host, "1", "johari-bones", PEOPLE, [ALICE.id, BOB.id, AI_RATED]) == {}
    rated = await ratings(host, "1", "johari-bones", ALL, [ALICE.id, BOB.id, AI_RATED, "ai-2"])
    assert set(rated) == {ALICE.id, BOB.id, AI_RATED}, "both AI seats move the AI's one rating"
    assert rated[AI_RATED].games == 1
    changes = await host.store.rating_changes(session.id)
    assert {c.pool for c in changes} == {ALL} and {c.name for c in changes} >= {"Parlor (AI)", "Alice"}


async def test_ratings_are_per_server_and_per_game(host):
    for guild, channel in (("1", "900"), ("2", "950")):
        session_id = await start_game(host, "john-henry", channel, [ALICE, BOB], guild=guild)
        await play_out(host, session_id)
    first = await ratings(host, "1", "john-henry", PEOPLE, [ALICE.id, BOB.id])
    second = await ratings(host, "2", "john-henry", PEOPLE, [ALICE.id, BOB.id])
    assert {r.games for r in first.values()} == {r.games for r in second.values()} == {1}
    assert await ratings(host, "1", "two-fat-dudes", PEOPLE, [ALICE.id, BOB.id]) == {}
    board = await host.store.leaderboard("1", PEOPLE, "john-henry", 10)
    assert [row.name for row in board] and board[0].rating.mu > board[1].rating.mu


async def last_move(host: Host, session_id: int) -> tuple[str, dict]:
    """Play first legal actions up to the one that would end the game; return it unplayed."""
    while True:
        session = await host.session(session_id)
        player = host.to_act(session)[0]
        action = host.legal_actions(session, player)[0]
        game = get_game(session.slug)
        after, _ = game.apply(host.state_of(session), player, action, SeededRandomness(1))
        if game.result(after) is not None:
            return player, action
        await host.act(session_id, player, action)


async def test_two_games_finishing_at_once_for_the_same_player_both_count(host):
    """Each finishing write checks the ratings it read: the second is refused, re-read and made again."""
    sessions = [await start_game(host, "follow-the-arrow", channel, [ALICE, other])
                for channel, other in (("900", BOB), ("901", CAROL))]
    last = [await last_move(host, session_id) for session_id in sessions]
    await asyncio.gather(*(host.act(session_id, player, action)
                           for session_id, (player, action) in zip(sessions, last, strict=True)))
    assert (await ratings(host, "1", "follow-the-arrow", PEOPLE, [ALICE.id]))[ALICE.id].games == 2


async def test_the_last_rated_game_is_the_one_that_ended_last_not_the_one_begun_last(host):
    """`/stats` shows what "the last game" did to each rating: the game that ended last, whenever it began."""
    begun_first = await start_game(host, "john-henry", "900", [ALICE, BOB])
    begun_last = await start_game(host, "john-henry", "901", [ALICE, CAROL])
    await play_out(host, begun_last)
    await play_out(host, begun_first)
    last = await host.store.last_rating_changes("1", ALICE.id)
    ended_last = {change.pool: change for change in await host.store.rating_changes(begun_first)
                  if change.player == ALICE.id}
    for pool in (PEOPLE, ALL):
        shown = last[("john-henry", pool)]
        assert (shown.before, shown.after) == (ended_last[pool].before, ended_last[pool].after)
        assert shown.after.games == 2


async def test_a_finishing_write_from_stale_ratings_is_refused_whole(host):
    first = await start_game(host, "follow-the-arrow", "900", [ALICE, BOB])
    await play_out(host, first)
    second = await start_game(host, "follow-the-arrow", "901", [ALICE, CAROL])
    player, action = await last_move(host, second)
    session = await host.session(second)
    stale = RatingChange(pool=PEOPLE, player=ALICE.id, name="Alice", before=None,
                         after=Rating(mu=30.0, sigma=7.0, games=1))
    with pytest.raises(StaleVersion):
        await host.store.record_move(session, player=player, action=action, outcomes={}, now=1.0,
                                     ratings=[stale], status="finished")
    assert (await host.store.session(second)).version == session.version, "nothing of the move was written"
    assert await host.store.rating_changes(second) == []


async def test_ratings_survive_reopening_the_database(database_url):
    store = await Store.connect(database_url)
    host = Host(store, seed_source=iter(range(1, 10_000)).__next__)
    session_id = await start_game(host, "john-henry", "900", [ALICE, Seat(id="202", name="Bob")])
    await play_out(host, session_id)
    before = await host.store.player_ratings("1", ALICE.id)
    await store.close()
    reopened = await Store.connect(database_url)
    assert await reopened.player_ratings("1", ALICE.id) == before and len(before) == 2
    assert (await reopened.guild_settings("1")).leaderboard_with_ai is False
    assert (await reopened.set_leaderboard_with_ai("1", True)).leaderboard_with_ai is True
    await reopened.close()


async def test_a_database_from_before_ratings_is_migrated_and_keeps_its_games(database_url, monkeypatch):
    """Migration 6 on a database made by the migrations before it, on SQLite and PostgreSQL."""
    import bot.storage.store

    monkeypatch.setattr(bot.storage.store, "MIGRATIONS", MIGRATIONS[:5])
    old = await Store.connect(database_url)
    assert await old.schema_version() == 5
    lobby = await old.create_lobby(guild_id="1", channel_id="7", slug="john-henry", creator=ALICE, invited=[],
                                   options={}, now=1.0)
    await old.set_guild_hours("1", reminder_hours=6.0)
    await old.close()
    monkeypatch.setattr(bot.storage.store, "MIGRATIONS", MIGRATIONS)
    store = await Store.connect(database_url)
    assert await store.schema_version() == len(MIGRATIONS)
    assert await store.session(lobby.id) == lobby
    settings = await store.guild_settings("1")
    assert settings.reminder_hours == 6.0 and settings.leaderboard_with_ai is False
    host = Host(store, seed_source=iter(range(1, 10_000)).__next__)
    await host.join("7", BOB)
    await play_out(host, lobby.id)
    assert len(await store.rating_changes(lobby.id)) == 4, "two players, two pools"
    await store.close()


async def test_a_seat_the_ai_stood_in_for_is_rated_as_its_person_in_the_pool_with_ai_games(host, clock):
    session_id = await start_game(host, "john-henry", "900", [ALICE, BOB])
    await host.act(session_id, ALICE.id, {"type": "roll"})  # Bob never rolls for first player
    clock.advance(49 * HOUR)
    await host.substitute("900", ALICE.id)
    await play_out(host, session_id)
    assert await ratings(host, "1", "john-henry", PEOPLE, [ALICE.id, BOB.id]) == {}
    rated = await ratings(host, "1", "john-henry", ALL, [ALICE.id, BOB.id, AI_RATED])
    assert set(rated) == {ALICE.id, BOB.id}, "the AI's own rating moves only with its own seats"

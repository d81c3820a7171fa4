"""The host against a real SQLite file and a real PostgreSQL: lobbies, moves, locking, refusals, replay."""

from __future__ import annotations

import asyncio

import pytest

from bot.play.host import Host, UserError
from bot.storage.store import Store
from games import get_game
from tests.bot.conftest import ALICE, BOB, CAROL

pytestmark = pytest.mark.both_databases

CHANNEL = "900"


async def start_john_henry(host: Host) -> int:
    await host.open_lobby(guild_id="1", channel_id=CHANNEL, slug="john-henry", creator=ALICE)
    session, outcome = await host.join(CHANNEL, BOB)
    assert outcome is not None and outcome.began, "a full two-player lobby begins on its own"
    return session.id


async def play_until_over(host: Host, session_id: int, limit: int = 500) -> None:
    for _ in range(limit):
        session = await host.session(session_id)
        if session.status != "active":
            return
        player = host.public_view(session)["to_act"][0]
        await host.act(session_id, player, host.legal_actions(session, player)[0])
    raise AssertionError("the game did not end")


async def test_lobby_refuses_a_second_game_and_unknown_games(host):
    await host.open_lobby(guild_id="1", channel_id=CHANNEL, slug="john-henry", creator=ALICE)
    with pytest.raises(UserError, match="already open"):
        await host.open_lobby(guild_id="1", channel_id=CHANNEL, slug="two-fat-dudes", creator=BOB)
    with pytest.raises(UserError, match="no game called"):
        await host.open_lobby(guild_id="1", channel_id="901", slug="chess", creator=BOB)


async def test_invited_opponent_has_the_seat(host):
    await host.open_lobby(guild_id="1", channel_id=CHANNEL, slug="john-henry", creator=ALICE, invited=[BOB.id])
    with pytest.raises(UserError, match="saved for the invited") as refused:
        await host.join(CHANNEL, CAROL)
    assert "declines with **Leave**" in refused.value.message and "another channel" in refused.value.message, \
        "Carol is told what to do instead"
    session, outcome = await host.join(CHANNEL, BOB)
    assert outcome is not None and session.player_ids == [ALICE.id, BOB.id]


async def test_an_invited_player_declines_with_leave_and_frees_his_seat(host):
    await host.open_lobby(guild_id="1", channel_id=CHANNEL, slug="john-henry", creator=ALICE, invited=[BOB.id])
    declined = await host.leave(CHANNEL, BOB.id)
    assert declined.status == "lobby" and declined.invited == [] and declined.player_ids == [ALICE.id]
    with pytest.raises(UserError, match="not in this lobby") as refused:
        await host.leave(CHANNEL, BOB.id)
    assert "**Join** (or `/game join`)" in refused.value.message, "a refusal says what to do instead"
    session, outcome = await host.join(CHANNEL, CAROL)
    assert outcome is not None and session.player_ids == [ALICE.id, CAROL.id], "the seat kept for Bob was free"


async def test_join_twice_and_leave(host):
    await host.open_lobby(guild_id="1", channel_id=CHANNEL, slug="john-henry", creator=ALICE)
    with pytest.raises(UserError, match="already joined"):
        await host.join(CHANNEL, ALICE)
    closed = await host.leave(CHANNEL, ALICE.id)
    assert closed.status == "abandoned"
    with pytest.raises(UserError, match=r"lobby here was closed before its game began\. `/game start`") as refused:
        await host.open_session(CHANNEL)
    assert "/game begin" not in refused.value.message


async def test_leaving_a_game_that_has_begun(host):
    """Its players are pointed to `/game abandon`; Carol, who is not playing, was pointed there too, where she
    would be refused."""
    await start_john_henry(host)
    with pytest.raises(UserError, match="/game abandon"):
        await host.leave(CHANNEL, ALICE.id)
    with pytest.raises(UserError, match="You are not playing in this game") as refused:
        await host.leave(CHANNEL, CAROL.id)
    assert "abandon" not in refused.value.message


async def test_after_a_game_ends_a_move_says_it_is_over_and_how_to_start_another(host):
    await host.open_lobby(guild_id="1", channel_id=CHANNEL, slug="john-henry", creator=ALICE)
    _, began = await host.join(CHANNEL, BOB)
    session = began.session
    while session.status == "active":
        player = host.to_act(session)[0]
        session = (await host.act(session.id, player, {"type": "roll"})).session
    with pytest.raises(UserError, match="John Henry game here is over") as refused:
        await host.act_in_channel(CHANNEL, ALICE.id, {"type": "roll"})
    assert "`/game start`" in refused.value.message and "rematch" not in refused.value.message, "no match here"
    assert "no game" not in refused.value.message


async def test_no_game_here(host):
    with pytest.raises(UserError, match="/game start"):
        await host.act_in_channel(CHANNEL, ALICE.id, {"type": "roll"})


async def test_a_move_survives_closing_and_reopening_the_store(database_url, clock):
    store = await Store.connect(database_url)
    host = Host(store, clock=clock)
    session_id = await start_john_henry(host)
    outcome = await host.act(session_id, ALICE.id, {"type": "roll"})
    await store.close()

    reopened = Host(await Store.connect(database_url), clock=clock)
    session = await reopened.session(session_id)
    assert session.version == outcome.session.version
    assert reopened.public_view(session) == outcome.public_view
    assert len(await reopened.moves(session)) == 1
    await reopened.store.close()


async def test_illegal_move_writes_nothing(host):
    session_id = await start_john_henry(host)
    before = await host.session(session_id)
    with pytest.raises(UserError) as refusal:
        await host.act(session_id, CAROL.id, {"type": "roll"})
    assert CAROL.id not in refusal.value.message
    with pytest.raises(UserError):
        await host.act(session_id, ALICE.id, {"type": "fly"})
    after = await host.session(session_id)
    assert after == before
    assert await host.moves(after) == []


async def test_refusals_name_players_not_ids(host):
    session_id = await start_john_henry(host)
    await host.act(session_id, ALICE.id, {"type": "roll"})
    session = await host.session(session_id)
    if ALICE.id in host.public_view(session)["to_act"]:
        return  # a roll-off tie: Alice may roll again, nothing to refuse
    with pytest.raises(UserError) as refusal:
        await host.act(session_id, ALICE.id, {"type": "roll"})
    assert ALICE.id not in refusal.value.message and BOB.id not in refusal.value.message


async def test_two_concurrent_moves_apply_one_after_the_other(host):
    session_id = await start_john_henry(host)
    base = (await host.session(session_id)).version
    results = await asyncio.gather(
        host.act(session_id, ALICE.id, {"type": "roll"}),
        host.act(session_id, BOB.id, {"type": "roll"}),
        return_exceptions=True,
    )
    moves = await host.moves(await host.session(session_id))
    successes = [r for r in results if not isinstance(r, Exception)]
    assert len(moves) == len(successes) >= 1
    assert sorted(r.session.version for r in successes) == list(range(base + 1, base + 1 + len(successes)))
    # No lost update: the stored state is what the log replays to.
    session = await host.session(session_id)
    assert (await host.replay(session_id)).model_dump_json() == session.state


async def test_two_clicks_of_one_button_move_once(host):
    session_id = await start_john_henry(host)
    version = (await host.session(session_id)).version
    results = await asyncio.gather(
        host.act(session_id, ALICE.id, {"type": "roll"}, expected_version=version),
        host.act(session_id, ALICE.id, {"type": "roll"}, expected_version=version),
        return_exceptions=True,
    )
    assert sum(not isinstance(r, Exception) for r in results) == 1
    assert isinstance(next(r for r in results if isinstance(r, Exception)), UserError)
    assert len(await host.moves(await host.session(session_id))) == 1


async def test_replay_reproduces_a_whole_game(host):
    session_id = await start_john_henry(host)
    await play_until_over(host, session_id)
    session = await host.session(session_id)
    assert session.status == "finished" and session.result["winners"]
    replayed = await host.replay(session_id)
    assert replayed.model_dump_json() == session.state
    assert get_game("john-henry").result(replayed) == session.result


async def test_moves_after_the_end_are_refused(host):
    session_id = await start_john_henry(host)
    await play_until_over(host, session_id)
    with pytest.raises(UserError, match="is over"):
        await host.act(session_id, ALICE.id, {"type": "roll"})


async def test_abandon_needs_a_player_or_manage_channels(host):
    await start_john_henry(host)
    with pytest.raises(UserError, match="Manage Channels"):
        await host.abandon(CHANNEL, CAROL.id, can_manage=False)
    abandoned = await host.abandon(CHANNEL, CAROL.id, can_manage=True)
    assert abandoned.status == "abandoned"


async def test_multi_player_lobby_begins_on_request(host):
    await host.open_lobby(guild_id="1", channel_id=CHANNEL, slug="johari-bones", creator=ALICE)
    with pytest.raises(UserError, match="at least 2"):
        await host.begin(CHANNEL, ALICE.id)
    _, outcome = await host.join(CHANNEL, BOB)
    assert outcome is None, "Johari seats up to four, so it waits for Begin"
    with pytest.raises(UserError, match="Only a player"):
        await host.begin(CHANNEL, CAROL.id)
    with pytest.raises(UserError, match="Only Alice, who opened this lobby"):
        await host.begin(CHANNEL, BOB.id)
    began = await host.begin(CHANNEL, ALICE.id)
    assert began.session.status == "active"
    assert began.session.setup_outcomes["shuffles"], "the deal's shuffle is recorded for replay"


async def test_once_the_creator_has_left_any_player_may_begin(host):
    await host.open_lobby(guild_id="1", channel_id=CHANNEL, slug="johari-bones", creator=ALICE)
    await host.join(CHANNEL, BOB)
    await host.join(CHANNEL, CAROL)
    await host.leave(CHANNEL, ALICE.id)
    began = await host.begin(CHANNEL, CAROL.id)
    assert began.session.player_ids == [BOB.id, CAROL.id]


async def test_memory_stays_bounded_however_many_games_were_hosted(host, monkeypatch):
    monkeypatch.setattr("bot.play.sessions.STATE_CACHE_SIZE", 3)
    ids = []
    for n in range(5):
        channel = f"70{n}"
        await host.open_lobby(guild_id="1", channel_id=channel, slug="john-henry", creator=ALICE)
        session, _ = await host.join(channel, BOB)
        ids.append(session.id)
    assert len(host.sessions.states) == 3
    assert len(host.sessions.locks) == 0, "no lock outlives its use"
    # An evicted game is read back from the store and plays on.
    outcome = await host.act(ids[0], ALICE.id, {"type": "roll"})
    assert outcome.session.version == (await host.session(ids[0])).version
    await play_until_over(host, ids[1])
    assert ids[1] not in host.sessions.states, "finished games leave the cache"


async def test_legal_actions_are_listed_once_per_version(host, monkeypatch):
    session_id = await start_john_henry(host)
    game = get_game("john-henry")
    listed: list[str] = []
    original = game.legal_actions
    monkeypatch.setattr(game, "legal_actions", lambda state, player: listed.append(player) or original(state, player))
    session = await host.session(session_id)
    player = host.to_act(session)[0]
    await host.act(session_id, player, host.legal_actions(session, player)[0])
    moved = await host.session(session_id)
    listed.clear()
    first = host.legal_by_player(moved)
    first[ALICE.id].clear()  # a caller's change never reaches the memory
    again = host.legal_by_player(moved)
    assert again == {p: original(host.state_of(moved), p) for p in moved.player_ids}
    assert host.legal_actions(moved, BOB.id) == again[BOB.id]
    assert listed == [], "the move listed the new version's actions once; every later call is served from memory"


async def test_a_channel_s_next_game_is_found_after_the_last_one_ended(host):
    """The host remembers each channel's open game (no read before a move): once that game is over, the
    channel's next one is found, whichever way it was opened."""
    first = await host.open_lobby(guild_id="1", channel_id="c-next", slug="john-henry", creator=ALICE)
    assert (await host.open_session("c-next")).id == first.id
    await host.abandon("c-next", ALICE.id, can_manage=False)
    with pytest.raises(UserError):
        await host.open_session("c-next")
    second = await host.open_lobby(guild_id="1", channel_id="c-next", slug="two-fat-dudes", creator=BOB)
    assert (await host.open_session("c-next")).id == second.id
    await host.join("c-next", ALICE)
    assert (await host.open_session("c-next")).status == "active", "the copy it returns is the latest"


async def test_an_abandon_that_waited_on_the_last_move_leaves_its_result_standing(host):
    """The abandon reached the game's lock while its last move was committing: that game is over, played out,
    rated; the abandon is refused and writes nothing."""
    await host.open_lobby(guild_id="1", channel_id=CHANNEL, slug="john-henry", creator=ALICE)
    _, began = await host.join(CHANNEL, BOB)
    session_id, game = began.session.id, get_game("john-henry")
    for _ in range(500):
        session = await host.current(session_id)
        player = host.to_act(session)[0]
        action = host.legal_actions(session, player)[0]
        after, _ = game.apply(host.state_of(session), player, action, await host.mover.chance_of_next_move(session))
        if game.result(after) is not None:
            break
        await host.act(session_id, player, action)
    last, abandon = await asyncio.gather(host.act(session_id, player, action),
                                         host.abandon(CHANNEL, BOB.id, can_manage=False), return_exceptions=True)
    assert last.session.status == "finished"
    assert isinstance(abandon, UserError) and "is over" in abandon.message
    stored = await host.store.session(session_id)
    assert (stored.status, stored.end_reason, stored.version) == ("finished", "played out", last.session.version)


async def test_two_abandons_at_once_write_once(host):
    await host.open_lobby(guild_id="1", channel_id=CHANNEL, slug="john-henry", creator=ALICE)
    _, began = await host.join(CHANNEL, BOB)
    first, second = await asyncio.gather(host.abandon(CHANNEL, ALICE.id, can_manage=False),
                                         host.abandon(CHANNEL, BOB.id, can_manage=False), return_exceptions=True)
    assert first.status == "abandoned" and isinstance(second, UserError) and "abandoned" in second.message
    assert (await host.store.session(began.session.id)).version == began.session.version + 1


async def test_the_channels_last_session_passes_over_a_lobby_closed_empty(host):
    await host.open_lobby(guild_id="1", channel_id=CHANNEL, slug="john-henry", creator=ALICE)
    _, began = await host.join(CHANNEL, BOB)
    await host.abandon(CHANNEL, ALICE.id, can_manage=False)
    await host.open_lobby(guild_id="1", channel_id=CHANNEL, slug="john-henry", creator=ALICE)
    await host.leave(CHANNEL, ALICE.id)
    assert (await host.last_session_in(CHANNEL)).id == began.session.id, "the game that began, not the closed lobby"
    lobby = await host.open_lobby(guild_id="1", channel_id=CHANNEL, slug="john-henry", creator=CAROL)
    assert (await host.last_session_in(CHANNEL)).id == lobby.id, "an open lobby comes first"


def test_an_engine_refusal_names_players_as_written_not_as_markdown():
    """Engines name players by id; a refusal shows their names, escaped, so that `**bob**` is not drawn
    bold in Discord (and the page's script, which reads Discord's escapes, shows it as written too)."""
    from bot.storage.store import Seat, SessionRecord

    session = SessionRecord(id=7, guild_id="1", channel_id="2", slug="follow-the-arrow", status="active",
                            creator="101", players=[Seat(id="101", name="a_b"), Seat(id="102", name="**bob**")],
                            invited=[], options={}, setup_outcomes=None, state=None, version=3, result=None,
                            end_reason=None, created_at=0.0, updated_at=0.0)
    told = Host.humanize(session, "102 called Jump: you must jump this turn (use /jump). It is 101's turn.")
    assert told == r"\*\*bob\*\* called Jump: you must jump this turn (use /jump). It is a\_b's turn."

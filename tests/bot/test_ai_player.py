"""The AI at the table, against the real host and store: AI seats, the runner, stand-ins, the record."""

from __future__ import annotations

import asyncio

import pytest

from bot.discord.records import stats
from bot.play.ai_player import AiPlayer
from bot.play.host import IN_FLIGHT, Host, UserError
from tests.bot.conftest import ALICE, BOB, CAROL

CHANNEL = "900"
HOUR = 3600.0


class Recorder:
    """Stands in for the table: the outcomes the AI's moves produced, in order."""

    def __init__(self) -> None:
        self.outcomes = []

    async def __call__(self, outcome) -> None:
        self.outcomes.append(outcome)


async def no_pause(seconds: float) -> None:
    await asyncio.sleep(0)


def runner(host: Host) -> tuple[AiPlayer, Recorder]:
    posted = Recorder()
    seeds = iter(range(10_000, 1_000_000))
    ai = AiPlayer(host, posted, sleep=no_pause, iterations=20, seed_source=lambda: next(seeds))
    host.changed = ai.poke
    return ai, posted


async def play_as_people(host: Host, ai: AiPlayer, session_id: int, limit: int = 2000) -> None:
    """People take their first legal action whenever the game waits on them; the AI plays its seats."""
    for _ in range(limit):
        await ai.idle()
        session = await host.session(session_id)
        if session.status != "active":
            return
        people = [p for p in host.to_act(session) if p not in session.ai_played]
        assert people, "the game waits on the AI, but the AI is idle"
        await host.act(session_id, people[0], host.legal_actions(session, people[0])[0])
    raise AssertionError("the game did not end")


async def test_a_whole_game_against_the_ai_is_logged_replayable_and_recorded(host):
    ai, posted = runner(host)
    await host.open_lobby(guild_id="1", channel_id=CHANNEL, slug="two-fat-dudes", creator=ALICE)
    session, began = await host.seat_ai(CHANNEL, ALICE.id)
    assert began is not None and session.status == "active", "two seats filled: the game begins"
    assert [seat.name for seat in session.players] == ["Alice", "Parlor (AI)"] and session.ai_played == ["ai-1"]
    await play_as_people(host, ai, session.id)

    final = await host.session(session.id)
    assert final.status == "finished" and final.result["ai_seats"] == ["ai-1"]
    moves = await host.moves(final)
    assert {move.player for move in moves} == {ALICE.id, "ai-1"}, "the AI's moves are in the log"
    assert posted.outcomes and all(o.session.id == session.id for o in posted.outcomes)
    assert (await host.replay(session.id)).model_dump() == host.state_of(final).model_dump()
    assert final.waiting_since is None


async def test_fill_seats_ai_players_in_every_free_seat_and_begins(host):
    ai, _ = runner(host)
    await host.open_lobby(guild_id="1", channel_id=CHANNEL, slug="johari-bones", creator=ALICE)
    session, began = await host.seat_ai(CHANNEL, ALICE.id, fill=True)
    assert began is not None
    assert [seat.id for seat in session.players] == [ALICE.id, "ai-1", "ai-2", "ai-3"]
    assert [seat.name for seat in session.players][1:] == ["Parlor (AI)", "Parlor (AI 2)", "Parlor (AI 3)"]
    assert list(session.waiting_since or {}) == [ALICE.id] or ALICE.id not in host.to_act(session)
    await ai.stop()


async def test_seating_the_ai_is_refused_where_it_makes_no_sense(host):
    with pytest.raises(UserError, match="no game"):
        await host.seat_ai(CHANNEL, ALICE.id)
    await host.open_lobby(guild_id="1", channel_id=CHANNEL, slug="john-henry", creator=ALICE, invited=[BOB.id])
    with pytest.raises(UserError, match="saved for the invited"):
        await host.seat_ai(CHANNEL, ALICE.id)
    with pytest.raises(UserError, match="Only a player in the lobby"):
        await host.seat_ai(CHANNEL, CAROL.id)


async def test_only_the_lobbys_creator_fills_it_and_begins(host):
    """`/game fill` begins the game, and beginning early is the creator's call (`/game begin`): Bob, who joined
    Alice's lobby, began it with the AI in every free seat before she had her players."""
    await host.open_lobby(guild_id="1", channel_id=CHANNEL, slug="johari-bones", creator=ALICE)
    await host.join(CHANNEL, BOB)
    with pytest.raises(UserError, match="Only Alice, who opened this lobby, can begin the game"):
        await host.seat_ai(CHANNEL, BOB.id, fill=True)
    unchanged = await host.open_session(CHANNEL)
    assert unchanged.status == "lobby" and unchanged.player_ids == [ALICE.id, BOB.id]
    session, began = await host.seat_ai(CHANNEL, ALICE.id, fill=True)
    assert began is not None and session.player_ids == [ALICE.id, BOB.id, "ai-1", "ai-2"]


async def test_fill_with_the_free_seat_saved_for_the_invited_says_so(host):
    """It said "John Henry needs at least 2 players", though the seat it could not fill is Bob's."""
    await host.open_lobby(guild_id="1", channel_id=CHANNEL, slug="john-henry", creator=ALICE, invited=[BOB.id])
    with pytest.raises(UserError, match="saved for the invited") as refused:
        await host.seat_ai(CHANNEL, ALICE.id, fill=True)
    assert "at least" not in refused.value.message
    assert (await host.open_session(CHANNEL)).player_ids == [ALICE.id]


async def test_a_lobby_left_to_the_ai_alone_closes(host):
    """The AI never begins a game: a lobby its last person left stood open, holding the channel, and nobody
    but a moderator could abandon it (only its players may)."""
    await host.open_lobby(guild_id="1", channel_id=CHANNEL, slug="johari-bones", creator=ALICE)
    await host.seat_ai(CHANNEL, ALICE.id)
    closed = await host.leave(CHANNEL, ALICE.id)
    assert closed.status == "abandoned" and closed.end_reason == "empty lobby"
    await host.open_lobby(guild_id="1", channel_id=CHANNEL, slug="john-henry", creator=BOB)


async def test_a_person_cannot_move_for_an_ai_seat(host):
    _, _ = runner(host)
    host.changed = lambda session: None  # the AI stays out: we look at the seat itself
    await host.open_lobby(guild_id="1", channel_id=CHANNEL, slug="john-henry", creator=ALICE)
    session, _ = await host.seat_ai(CHANNEL, ALICE.id)
    with pytest.raises(UserError):
        await host.act(session.id, ALICE.id, {"type": "roll"}, by_ai=True)


async def substitute_scene(host: Host):
    ai, posted = runner(host)
    await host.open_lobby(guild_id="1", channel_id=CHANNEL, slug="john-henry", creator=ALICE)
    session, _ = await host.join(CHANNEL, BOB)
    await host.act(session.id, ALICE.id, {"type": "roll"})  # Bob never rolls for first player
    return ai, posted, session.id


async def test_substitute_waits_for_the_turn_clock_then_the_ai_plays_and_the_player_returns(host, clock):
    ai, posted, session_id = await substitute_scene(host)
    with pytest.raises(UserError, match="not run out yet"):
        await host.substitute(CHANNEL, ALICE.id)
    clock.advance(49 * HOUR)
    with pytest.raises(UserError, match="waiting on you"):
        await host.substitute(CHANNEL, BOB.id)
    with pytest.raises(UserError, match="not playing for you"):
        await host.return_to_seat(CHANNEL, BOB.id)
    session, idle = await host.substitute(CHANNEL, ALICE.id)
    assert idle == [BOB.id] and session.ai_played == [BOB.id] and session.status == "active"
    assert session.waiting_since is None or BOB.id not in session.waiting_since, "nobody waits on the AI"
    await ai.idle()
    after = await host.session(session_id)
    assert any(move.player == BOB.id for move in await host.moves(after)), "the AI rolled for Bob"
    assert posted.outcomes

    with pytest.raises(UserError, match="/game return"):
        await host.act(session_id, BOB.id, {"type": "roll"})
    moves = await host.moves(after)
    returned = await host.return_to_seat(CHANNEL, BOB.id)
    assert returned.ai_played == [] and returned.players[1].stand_ins == [[2, moves[-1].seq]], \
        "the stand-in ran from the first move after the substitute to the last before the return"
    assert {move.player for move in moves[1:]} <= {BOB.id, ALICE.id} and moves[1].player == BOB.id
    host.changed = lambda session: None
    from tests.bot.test_host import play_until_over
    await play_until_over(host, session_id)
    final = await host.session(session_id)
    assert final.result["stand_ins"] == {BOB.id: returned.players[1].stand_ins}
    assert "ai_seats" not in final.result


async def test_a_command_while_the_ai_moves_for_you_is_told_the_ai_plays_for_you(host, clock):
    """Only a player's own move on its way makes his command "still being made" (IN_FLIGHT): Bob, back while
    the AI's roll for him is on its way, was told his own move was, not that `/game return` takes his seat."""
    _, _, session_id = await substitute_scene(host)
    host.changed = lambda session: None  # the AI stays out: the test makes its move
    clock.advance(49 * HOUR)
    await host.substitute(CHANNEL, ALICE.id)
    lock = host.sessions.lock(session_id)
    await lock.acquire()
    try:
        ai_move = asyncio.create_task(host.act(session_id, BOB.id, {"type": "roll"}, by_ai=True))
        while not lock._waiters:  # the AI's roll is on its way, waiting for the game
            await asyncio.sleep(0)
        typed = asyncio.create_task(host.act(session_id, BOB.id, {"type": "roll"}, from_command=True))
        await asyncio.sleep(0)
    finally:
        lock.release()
    await ai_move
    with pytest.raises(UserError, match="/game return") as refused:
        await typed
    assert refused.value.message != IN_FLIGHT


async def test_a_rematch_seats_the_player_the_ai_stood_in_for_himself_and_keeps_the_ais_own_seats(host, clock):
    """A stand-in is for an idle player of one game: the rematch of a game the AI finished for Bob waits on Bob,
    and its record has no stand-in stretch (the last game's move numbers mean nothing in it)."""
    ai, _, session_id = await substitute_scene(host)
    clock.advance(49 * HOUR)
    await host.substitute(CHANNEL, ALICE.id)
    await play_as_people(host, ai, session_id)
    assert (await host.session(session_id)).players[1].stand_in

    rematch = (await host.rematch(CHANNEL, ALICE.id)).session
    assert [(seat.id, seat.ai, seat.stand_in, seat.stand_ins) for seat in rematch.players] == [
        (ALICE.id, False, False, []), (BOB.id, False, False, [])]
    assert rematch.ai_played == [] and BOB.id in (rematch.waiting_since or {})
    await ai.idle()
    assert not await host.moves(rematch), "the AI did not roll for Bob"

    host.changed = lambda session: None
    await host.abandon(CHANNEL, ALICE.id, can_manage=False)
    await host.open_lobby(guild_id="1", channel_id=CHANNEL, slug="john-henry", creator=ALICE)
    against, _ = await host.seat_ai(CHANNEL, ALICE.id)
    host.changed = ai.poke
    await play_as_people(host, ai, against.id)
    again = (await host.rematch(CHANNEL, ALICE.id)).session
    assert again.ai_played == ["ai-1"] and again.players[1].ai, "an AI seat of its own stays the AI's"
    await ai.stop()


async def test_stats_count_games_with_the_ai_apart(host):
    ai, _ = runner(host)
    await host.open_lobby(guild_id="1", channel_id=CHANNEL, slug="john-henry", creator=ALICE)
    session, _ = await host.seat_ai(CHANNEL, ALICE.id)
    await play_as_people(host, ai, session.id)
    rows = await stats(host, ALICE.id, "1")
    assert [(row.slug, row.played, row.against_ai) for row in rows] == [("john-henry", 1, True)]


async def test_an_ai_move_refused_on_its_own_game_falls_back_to_a_legal_one(host, monkeypatch, caplog):
    """Should the search ever choose an illegal action, the AI would choose it again forever: it plays its first
    legal action instead, and the log says so, naming the action's type only."""
    import bot.play.ai_player

    def faulty(game, view, player, rng, **budget):
        return {"type": "roll", "secret": "a-hidden-bone"}  # no game accepts this

    monkeypatch.setattr(bot.play.ai_player, "choose_action", faulty)
    ai, posted = runner(host)
    await host.open_lobby(guild_id="1", channel_id=CHANNEL, slug="two-fat-dudes", creator=ALICE)
    session, _ = await host.seat_ai(CHANNEL, ALICE.id)
    await host.act(session.id, ALICE.id, host.legal_actions(session, ALICE.id)[0])  # the roll-off waits on the AI
    with caplog.at_level("DEBUG"):
        await asyncio.wait_for(ai.idle(), 30)  # before, it chose the refused action again and again
    assert posted.outcomes, "the AI moved"
    assert "the AI's roll in session" in caplog.text and "a-hidden-bone" not in caplog.text

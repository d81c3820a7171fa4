"""The host draws every outcome from the game's committed seed; records build and check from the store."""

from __future__ import annotations

import pytest

from bot.discord.game_record import build_record, finished_session, record_file
from bot.play.host import Host, UserError
from bot.presentation.dice_table import dice_line
from bot.storage.store import Store
from games import get_game
from games.core import RecordingRandomness
from games.dice import DiceRandomness, commitment
from games.verify import verify
from tests.bot.conftest import ALICE, BOB, FakeClock
from tests.bot.test_follow_the_arrow_commands import finish, placed, seated
from tests.bot.test_host import CHANNEL, play_until_over, start_john_henry


def derived(session, seq: int, game, state, player, action):
    """What the engine draws for this step from the session's own seed."""
    rng = RecordingRandomness(DiceRandomness(session.dice_seed, seq))
    game.apply(state, player, action, rng)
    return rng.outcomes


async def test_setup_and_every_move_come_from_the_seed(host):
    session_id = await start_john_henry(host)
    session = await host.session(session_id)
    assert len(session.dice_seed) == 64
    assert session.dice_seed not in repr(session), "the seed never shows in a repr (logs, tracebacks)"
    game = get_game("john-henry")
    setup = RecordingRandomness(DiceRandomness(session.dice_seed, 0))
    game.new_game(session.player_ids, setup)
    assert session.setup_outcomes == setup.outcomes
    for seq in (1, 2, 3):
        session = await host.session(session_id)
        player = host.public_view(session)["to_act"][0]
        action = host.legal_actions(session, player)[0]
        expected = derived(session, seq, game, host.state_of(session), player, action)
        await host.act(session_id, player, action)
        assert (await host.moves(session))[-1].outcomes == expected
        assert (await host.moves(session))[-1].seq == seq


async def test_the_line_shows_the_commitment_while_running_and_the_seed_once_over(host):
    session_id = await start_john_henry(host)
    session = await host.session(session_id)
    line = dice_line(session)
    assert commitment(session.dice_seed) in line and session.dice_seed not in line
    with pytest.raises(UserError, match="still running"):
        await finished_session(host, CHANNEL, "1", None)
    await play_until_over(host, session_id)
    over = await host.session(session_id)
    assert over.dice_seed in dice_line(over) and commitment(over.dice_seed) in dice_line(over)
    record = build_record(over, await host.moves(over))
    verdict = verify(record)
    assert verdict.ok, verdict.text
    assert record.end == "played out" and record.result == over.result
    winner = next(seat.name for seat in over.players if seat.id == over.result["winners"][0])
    assert record_file(record).description.endswith(f"for /game verify. Game over: {winner} won.")


async def test_abandoned_and_claimed_games_are_records_too(host, clock):
    session_id = await start_john_henry(host)
    await host.act(session_id, ALICE.id, {"type": "roll"})
    abandoned = await host.abandon(CHANNEL, ALICE.id, can_manage=False)
    assert abandoned.dice_seed in dice_line(abandoned)
    session = await finished_session(host, CHANNEL, "1", None)
    record = build_record(session, await host.moves(session))
    assert record.end == "abandoned" and verify(record).ok
    assert record_file(record).description.endswith("The game was abandoned.")
    with pytest.raises(UserError, match="no game #999"):
        await finished_session(host, CHANNEL, "1", 999)
    with pytest.raises(UserError, match=f"no game #{session_id}"):
        await finished_session(host, CHANNEL, "2", session_id)


async def test_without_a_number_the_last_game_over_stands_in_for_the_one_running(host):
    first_id = await start_john_henry(host)
    await play_until_over(host, first_id)
    await host.open_lobby(guild_id="1", channel_id=CHANNEL, slug="john-henry", creator=ALICE)
    assert (await finished_session(host, CHANNEL, "1", None)).id == first_id
    with pytest.raises(UserError, match=r"John Henry #\d+ has not begun yet\. Its record"):
        await finished_session(host, CHANNEL, "1", (await host.last_session_in(CHANNEL)).id)


async def test_a_rematch_draws_a_new_seed(host):
    session = await seated(host, options={"black": BOB.id})
    over = placed(black=BOB.id, red=ALICE.id).model_copy(
        update={"phase": "over", "turn": None, "winner": BOB.id, "points": 8})
    first = await finish(host, session, over.model_dump_json())
    rematch = await host.rematch(CHANNEL, ALICE.id)
    assert rematch.session.dice_seed not in (None, first.dice_seed)
    setup = RecordingRandomness(DiceRandomness(rematch.session.dice_seed, 0))
    get_game("follow-the-arrow").new_game(rematch.session.player_ids, setup, rematch.session.options)
    assert rematch.session.setup_outcomes == setup.outcomes


async def test_a_game_begun_before_committed_dice_still_plays_and_replays(host, store):
    session_id = await start_john_henry(host)
    session = await host.session(session_id)
    session = await store.update_session(session, now=1.0, dice_seed=None)
    await play_until_over(host, session_id)
    over = await host.session(session_id)
    assert over.dice_seed is None and dice_line(over) is None
    assert (await host.replay(session_id)).model_dump_json() == over.state
    with pytest.raises(UserError, match="before Parlor committed its dice"):
        await finished_session(host, CHANNEL, "1", None)


async def test_lobbies_that_never_began_have_no_record(host):
    """An open lobby is told as not begun: it was "still running" to the player who had just opened it."""
    await host.open_lobby(guild_id="1", channel_id=CHANNEL, slug="john-henry", creator=ALICE)
    with pytest.raises(UserError, match=r"John Henry #\d+ has not begun yet and no earlier game"):
        await finished_session(host, CHANNEL, "1", None)
    await host.leave(CHANNEL, ALICE.id)
    with pytest.raises(UserError, match="never began"):
        await finished_session(host, CHANNEL, "1", None)


async def test_a_claimed_game_reveals_its_seed_and_checks_out(host, clock):
    await host.open_lobby(guild_id="1", channel_id=CHANNEL, slug="follow-the-arrow", creator=ALICE,
                          options={"first": ALICE.id})
    await host.join(CHANNEL, BOB)
    clock.advance(100 * 3600)
    claimed = await host.claim(CHANNEL, BOB.id)
    assert claimed.status == "finished" and claimed.dice_seed in dice_line(claimed)
    record = build_record(claimed, await host.moves(claimed))
    verdict = verify(record)
    assert record.end == "timeout" and verdict.ok, verdict.text
    assert "claimed on the turn clock" in verdict.text


async def other_process(database_url: str) -> Host:
    """A second bot process on the same database: its own store and host, knowing nothing in memory."""
    return Host(await Store.connect(database_url), clock=FakeClock(), seed_source=lambda: 7)


async def test_a_first_move_draws_the_same_dice_whether_its_host_began_the_game_or_not(store, database_url,
                                                                                      monkeypatch):
    """The host that began a game knows it has logged no move and reads nothing; another process reads
    the log to number the move: both draw the first move's dice from seq 1."""
    began_here = Host(store, clock=FakeClock(), seed_source=lambda: 7)  # every game gets the same seed
    games = []
    for channel in ("971", "972"):
        await began_here.open_lobby(guild_id="1", channel_id=channel, slug="john-henry", creator=ALICE)
        games.append((await began_here.join(channel, BOB))[0])
    assert games[0].dice_seed == games[1].dice_seed

    async def no_read(session_id: int) -> int:
        raise AssertionError("the first move of a game this host began read the log")

    monkeypatch.setattr(store, "last_seq", no_read)
    await began_here.act(games[0].id, ALICE.id, {"type": "roll"})
    monkeypatch.undo()
    elsewhere = await other_process(database_url)
    try:
        await elsewhere.act(games[1].id, ALICE.id, {"type": "roll"})
    finally:
        await elsewhere.store.close()
    expected = derived(games[0], 1, get_game("john-henry"), began_here.state_of(games[0]), ALICE.id,
                       {"type": "roll"})
    for session in games:
        [move] = await store.moves(session.id)
        assert (move.seq, move.outcomes) == (1, expected)


async def test_a_move_after_another_process_moved_is_made_again_on_the_game_read_afresh(host, database_url):
    """This host's copy is stale: its write is refused, the game read again, and the move made on it with
    the dice of its own number (seq 2), not those its stale copy would have drawn."""
    session_id = await start_john_henry(host)
    elsewhere = await other_process(database_url)
    try:
        await elsewhere.act(session_id, ALICE.id, {"type": "roll"})
    finally:
        await elsewhere.store.close()
    before = await host.store.session(session_id)
    game = get_game("john-henry")
    expected = derived(before, 2, game, game.state_from_json(before.state), BOB.id, {"type": "roll"})
    outcome = await host.act(session_id, BOB.id, {"type": "roll"})
    moves = await host.store.moves(session_id)
    assert [(m.seq, m.player) for m in moves] == [(1, ALICE.id), (2, BOB.id)]
    assert moves[-1].outcomes == expected
    assert outcome.session == await host.store.session(session_id)
    assert (await host.replay(session_id)).model_dump_json() == outcome.session.state


async def test_a_move_is_refused_when_another_process_moves_again_while_it_is_retried(host, database_url,
                                                                                      monkeypatch):
    session_id = await start_john_henry(host)
    elsewhere = await other_process(database_url)
    read = host.store.session

    async def read_then_moved_elsewhere(session_id: int):
        session = await read(session_id)
        await elsewhere.act(session_id, BOB.id, {"type": "roll"})
        return session

    try:
        await elsewhere.act(session_id, ALICE.id, {"type": "roll"})
        monkeypatch.setattr(host.store, "session", read_then_moved_elsewhere)
        with pytest.raises(UserError, match="Someone else moved at the same moment"):
            await host.act(session_id, BOB.id, {"type": "roll"})
    finally:
        await elsewhere.store.close()
    monkeypatch.undo()
    assert [(m.seq, m.player) for m in await host.store.moves(session_id)] == [(1, ALICE.id), (2, BOB.id)]
    assert (await host.replay(session_id)).model_dump_json() == (await host.store.session(session_id)).state


async def test_a_move_that_looks_illegal_on_a_stale_copy_is_judged_on_the_game_another_process_moved(
        store, database_url):
    """This process last saw Alice to play; another moved the game on (her turn passed, Bob's came). Bob's
    roll here is judged on the game as it is, not refused as "not your turn"; a move illegal on the game as
    it is stays refused."""
    here = Host(store, clock=FakeClock(), seed_source=lambda: 7)
    await here.open_lobby(guild_id="1", channel_id="981", slug="john-henry", creator=ALICE)
    session, _ = await here.join("981", BOB)
    for _ in range(20):  # past the roll-off: one player to act at a time
        session = await here.current(session.id)
        if len(here.to_act(session)) == 1:
            break
        await here.act(session.id, here.to_act(session)[0], {"type": "roll"})
    first = here.to_act(session)[0]
    elsewhere = await other_process(database_url)
    try:
        while elsewhere.to_act(moved := await elsewhere.current(session.id)) == [first]:
            await elsewhere.act(session.id, first, {"type": "roll"})
        [second] = elsewhere.to_act(moved)
    finally:
        await elsewhere.store.close()
    assert here.to_act(await here.current(session.id)) == [first], "this process's copy is stale"
    outcome = await here.act(session.id, second, {"type": "roll"})
    assert outcome.session.version == moved.version + 1
    [waiting] = [player for player in (first, second) if player not in here.to_act(outcome.session)]
    with pytest.raises(UserError):
        await here.act(session.id, waiting, {"type": "roll"})  # not his turn on the game as it is

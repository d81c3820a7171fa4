"""`/game verify` in the game's own server compares a record with Parlor's own copy (bot.play.own_copy): its seed,
its facts and every move, so a record cut short, reseeded or naming a game without a record is refused."""

from __future__ import annotations

import copy

from bot.discord.game_record import build_record, check_record
from bot.play.host import Host
from bot.play.own_copy import moves_difference
from games.dice import commitment, seed_from_int
from games.record import GameRecord
from games.verify import verify
from tests.bot.conftest import ALICE, BOB
from tests.bot.test_host import CHANNEL, play_until_over, start_john_henry

HOUR = 3600.0
GUILD = "1"


async def first_legal_moves(host: Host, session_id: int, count: int) -> None:
    for _ in range(count):
        session = await host.session(session_id)
        player = host.to_act(session)[0]
        await host.act(session_id, player, host.legal_actions(session, player)[0])


async def record_of_channel(host: Host, channel: str = CHANNEL) -> GameRecord:
    session = await host.last_session_in(channel)
    return build_record(session, await host.moves(session))


def edited(record: GameRecord, edit) -> GameRecord:
    data = copy.deepcopy(record.model_dump())
    edit(data)
    return GameRecord.model_validate(data)


async def test_the_whole_record_matches_and_one_cut_short_is_refused_in_its_server_alone(host):
    """An abandoned game stops anywhere, so a copy without its last moves replays: only Parlor's copy tells."""
    session_id = await start_john_henry(host)
    await first_legal_moves(host, session_id, 8)
    await host.abandon(CHANNEL, BOB.id, can_manage=False)
    record = await record_of_channel(host)
    whole = await check_record(host, record, GUILD)
    assert whole.ok and f"Every move, the players' names, the game's number and the AI's seats match Parlor's own " \
                          f"copy of game #{session_id} on this server." in whole.text, whole.text

    cut = edited(record, lambda data: data.update(moves=data["moves"][:5]))
    assert verify(cut).ok, "offline, a shorter abandoned game cannot be told apart (docs/players.md says so)"
    assert (await check_record(host, cut, None)).ok, "nor in a direct message, which has no game of its own"
    refused = await check_record(host, cut, GUILD)
    sixth = record.moves[5]
    assert not refused.ok and refused.lines[-1] == (
        f"DISAGREES with Parlor's own copy of game #{session_id} on this server: 3 moves are missing from the "
        f"file, from move 6 ({record.names[sixth.player]}: {{\"type\": \"{sixth.action['type']}\"}}).")
    assert (await check_record(host, cut, "2")).ok, "another server has no game of that number"


async def test_a_claimed_games_record_cut_back_to_the_same_idle_player_is_refused(host, clock):
    await host.open_lobby(guild_id=GUILD, channel_id=CHANNEL, slug="two-fat-dudes", creator=ALICE)
    await host.join(CHANNEL, BOB)
    session = await host.last_session_in(CHANNEL)
    for _ in range(40):  # play until it is Bob's turn alone, some moves in
        session = await host.session(session.id)
        to_act = host.to_act(session)
        if to_act == [BOB.id] and len(await host.moves(session)) >= 6:
            break
        await host.act(session.id, to_act[0], host.legal_actions(session, to_act[0])[0])
    clock.advance(49 * HOUR)
    await host.claim(CHANNEL, ALICE.id)
    record = await record_of_channel(host)
    assert (await check_record(host, record, GUILD)).ok
    cuts = (edited(record, lambda data, k=k: data.update(moves=data["moves"][:-k])) for k in range(1, 6))
    cut = next(cut for cut in cuts if verify(cut).ok)  # Bob was also the one waited on a few moves earlier
    refused = await check_record(host, cut, GUILD)
    assert not refused.ok and "missing from the file, from move" in refused.lines[-1], refused.text


async def test_a_record_of_this_servers_game_with_another_seed_is_refused(host):
    """Follow the Arrow draws no chance when its options name who goes first, so any seed replays it."""
    await host.open_lobby(guild_id=GUILD, channel_id=CHANNEL, slug="follow-the-arrow", creator=ALICE,
                          options={"first": ALICE.id})
    await host.join(CHANNEL, BOB)
    session = await host.last_session_in(CHANNEL)
    await play_until_over(host, session.id, limit=1000)
    record = await record_of_channel(host)
    seed = seed_from_int(int(record.seed, 16) ^ 1)
    reseeded = edited(record, lambda data: data.update(seed=seed, commitment=commitment(seed)))
    assert verify(reseeded).ok
    refused = await check_record(host, reseeded, GUILD)
    assert not refused.ok and refused.lines[-1] == (
        f"DISAGREES with Parlor's own copy of game #{session.id} on this server: its seed is another (the table "
        f"showed the commitment {record.commitment}).")
    renamed = edited(reseeded, lambda data: data["players"][0].update(name="Mallory"))
    both = (await check_record(host, renamed, GUILD)).text
    assert f"its seed is another (the table showed the commitment {record.commitment}); the players or their " \
           "names differ." in both, both


async def test_a_record_naming_a_game_that_has_none_is_refused_and_compared_with_nothing(host):
    """A running game's moves and dice stay Parlor's until it ends: a file naming it learns nothing of them."""
    first = await start_john_henry(host)
    await play_until_over(host, first)
    record = await record_of_channel(host)
    await host.open_lobby(guild_id=GUILD, channel_id="901", slug="john-henry", creator=ALICE)
    _, began = await host.join("901", BOB)
    await first_legal_moves(host, began.session.id, 3)
    running = await host.session(began.session.id)
    named = edited(record, lambda data: data.update(game_id=running.id))
    refused = await check_record(host, named, GUILD)
    assert not refused.ok and refused.lines[-1] == (
        f"DISAGREES with Parlor's own copy of game #{running.id} on this server: that game is still running, so "
        "Parlor has no record of it.")
    assert commitment(running.dice_seed) not in refused.text and "move" not in refused.lines[-1]


async def test_the_first_move_added_or_changed_is_named(host):
    session_id = await start_john_henry(host)
    await first_legal_moves(host, session_id, 6)
    await host.abandon(CHANNEL, BOB.id, can_manage=False)
    session = await host.session(session_id)
    stored = await host.moves(session)
    record = build_record(session, stored)
    fifth = record.moves[4]
    assert moves_difference(record, stored, session) is None
    assert moves_difference(record, stored[:4], session) == (
        f"the file holds 2 moves more than Parlor's copy, from move 5 ({record.names[fifth.player]}: "
        f"{{\"type\": \"{fifth.action['type']}\"}})")
    given_dice = edited(record, lambda data: data["moves"][2]["action"].update(dice=[6, 6]))
    assert moves_difference(given_dice, stored, session).startswith("move 3 differs in its action: the file has ")
    rolled = next(move for move in record.moves if move.outcomes.rolls)
    other_die = edited(record, lambda data: data["moves"][rolled.seq - 1]["outcomes"].update(rolls=[7]))
    assert moves_difference(other_die, stored, session).startswith(
        f"move {rolled.seq} differs in its dice and shuffles: the file has ")
    assert '"rolls": [7]' in moves_difference(other_die, stored, session)

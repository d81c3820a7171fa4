"""John Henry end to end: the real bot, through the fake Discord, from /game start to the golden spike."""

from __future__ import annotations

import logging
from pathlib import Path

from bot.client import ParlorBot
from games import GAMES
from tests.e2e.helpers import is_over, latest_board, mentioned, pings, player_to_act, table, tables
from tests.e2e.processes import bot_process, stop
from tests.fakediscord import FakeDiscord
from tests.fakediscord.state import FakeChannel, FakeUser


async def start_game(fake: FakeDiscord, channel: FakeChannel, alice: FakeUser, bob: FakeUser) -> None:
    opened = await fake.slash(alice, "game start", channel=channel, game="john-henry", opponent=bob)
    lobby = table(fake, channel)
    assert not opened.ephemeral and lobby.pinged == [bob.id], "the invited opponent is mentioned"
    joined = await fake.click(bob, lobby, lobby.button(label="Join")["custom_id"])
    assert not joined.ephemeral
    board = table(fake, channel)
    assert lobby.deleted, "the lobby card gave way to the board"
    assert board.attachment("board.png").data.startswith(b"\x89PNG")
    assert set(board.pinged) == {alice.id, bob.id}, "both roll for the first turn"


async def take_turn(fake: FakeDiscord, channel: FakeChannel, players: list[FakeUser], step: int) -> None:
    """The player to act presses a button on the latest board, or uses /roll every third step."""
    board = latest_board(fake, channel)
    player = player_to_act(board, players)
    labels = [b["label"] for b in board.buttons()]
    if step % 3 == 0 and "Keep the 6" not in labels:
        result = await fake.slash(player, "roll", channel=channel)
    else:
        label = "Keep the 6" if "Keep the 6" in labels and step % 2 else "Roll"
        result = await fake.click(player, board, board.button(label=label)["custom_id"])
    assert not result.ephemeral, f"a legal move was refused: {result.response.content}"
    assert not result.messages, "a move answers on the table, not with a message of its own"
    table(fake, channel)


async def play_to_the_end(fake: FakeDiscord, channel: FakeChannel, players: list[FakeUser]) -> None:
    for step in range(400):
        if is_over(latest_board(fake, channel)):
            return
        await take_turn(fake, channel, players, step)
    raise AssertionError("the game did not end")


async def test_two_users_play_a_whole_game(fake_discord: FakeDiscord, parlor: ParlorBot):
    alice, bob = fake_discord.create_user("alice"), fake_discord.create_user("bob")
    channel = fake_discord.channel("games")
    await start_game(fake_discord, channel, alice, bob)
    await play_to_the_end(fake_discord, channel, [alice, bob])

    final = latest_board(fake_discord, channel)
    session = await parlor.host.last_session_in(str(channel.id))
    winner = session.result["winners"][0]
    assert f"Winner: <@{winner}>" in final.content

    assert [b["label"] for b in final.buttons()] == ["Rematch", "New game"]
    assert len(tables(fake_discord, channel)) == 1, "one table for the whole game"

    status = await fake_discord.slash(bob, "game status", channel=channel)
    assert status.ephemeral and status.response.pinged == []
    assert "game is over" in status.response.content and f"<@{winner}>" in status.response.content
    assert (await parlor.host.replay(session.id)).model_dump_json() == session.state


async def test_pings_only_when_the_player_to_act_changes_and_rematch_keeps_the_seats(fake_discord, parlor):
    alice, bob, carol = (fake_discord.create_user(name) for name in ("alice", "bob", "carol"))
    channel = fake_discord.channel("games")
    await start_game(fake_discord, channel, alice, bob)
    seen = pings(fake_discord, [channel])
    announced: list[set[int]] = [{alice.id, bob.id}]
    for step in range(400):
        board = table(fake_discord, channel)
        if is_over(board):
            break
        await take_turn(fake_discord, channel, [alice, bob], step)
        now = table(fake_discord, channel)
        new = pings(fake_discord, [channel])[len(seen):]
        seen = pings(fake_discord, [channel])
        to_act = {p.id for p in (alice, bob) if p.id in mentioned(now)} if not is_over(now) else set()
        newly = to_act - announced[-1]
        if newly:
            assert [set(p) for _, p in new] == [newly], "a new turn pings the new player(s) once"
        else:
            assert new == [], "no ping while the same player acts again, nor at the end"
        announced.append(to_act)
    spectator = await fake_discord.slash(carol, "game status", channel=channel)
    assert spectator.ephemeral and spectator.response.visible_to == carol.id
    for command in ("game history", "game log", "game list", "game rules", "stats"):
        await fake_discord.slash(carol, command, channel=channel)
    assert pings(fake_discord, [channel]) == seen, "status, history, log, list, rules and stats ping nobody"

    final = table(fake_discord, channel)
    rematch = await fake_discord.click(bob, final, final.button(label="Rematch")["custom_id"])
    assert not rematch.ephemeral
    again = table(fake_discord, channel)
    assert again is not final and final.buttons() == [], "the finished table keeps no live buttons"
    session = await parlor.host.last_session_in(str(channel.id))
    assert session.status == "active" and session.player_ids == [str(alice.id), str(bob.id)]
    assert (await parlor.host.replay(session.id)).model_dump_json() == session.state


async def test_a_third_user_and_an_out_of_turn_player_are_refused_privately(fake_discord, parlor):
    alice, bob, carol = (fake_discord.create_user(name) for name in ("alice", "bob", "carol"))
    channel = fake_discord.channel("games")
    await start_game(fake_discord, channel, alice, bob)
    board = latest_board(fake_discord, channel)
    before = await parlor.host.last_session_in(str(channel.id))

    refused = await fake_discord.click(carol, board, board.button(label="Roll")["custom_id"])
    assert refused.ephemeral and refused.response.visible_to == carol.id
    assert "not playing" in refused.response.content
    assert refused.response not in fake_discord.visible_messages(alice, channel)

    # Alice rolls her roll-off die; pressing Roll again before Bob has rolled is out of turn.
    await fake_discord.slash(alice, "roll", channel=channel)
    latest = latest_board(fake_discord, channel)
    if alice.id not in mentioned(latest):
        again = await fake_discord.slash(alice, "roll", channel=channel)
        assert again.ephemeral and again.response.visible_to == alice.id
        assert board.deleted, "the table before the turn changed is gone, with its buttons"
    after = await parlor.host.last_session_in(str(channel.id))
    assert after.version == before.version + 1, "only Alice's one legal roll changed the game"


async def test_refusals_when_there_is_no_game_or_it_is_over(fake_discord, parlor):
    alice = fake_discord.create_user("alice")
    channel = fake_discord.channel("games")
    nothing = await fake_discord.slash(alice, "roll", channel=channel)
    assert nothing.ephemeral and "/game start" in nothing.response.content
    wrong_verb_lobby = await fake_discord.slash(alice, "game start", channel=channel, game="john-henry")
    assert not wrong_verb_lobby.ephemeral
    early = await fake_discord.slash(alice, "roll", channel=channel)
    assert early.ephemeral and "not begun" in early.response.content
    rules = await fake_discord.slash(alice, "game rules", channel=channel)
    assert rules.ephemeral and "John Henry" in rules.response.embed["title"]


async def test_a_button_from_before_a_restart_still_works(fake_discord: FakeDiscord, tmp_path: Path):
    alice, bob = fake_discord.create_user("alice"), fake_discord.create_user("bob")
    channel = fake_discord.channel("games")
    database = tmp_path / "parlor.sqlite3"

    first = await bot_process(fake_discord, tmp_path, f"sqlite:///{database}")
    await fake_discord.wait_until_ready(timeout=20)
    await start_game(fake_discord, channel, alice, bob)
    for step in range(4):
        await take_turn(fake_discord, channel, [alice, bob], step * 2 + 1)
    board_before = latest_board(fake_discord, channel)
    footer_before = board_before.embed["footer"]["text"]
    await stop(first)

    identified = fake_discord.gateway.identify_count
    second = await bot_process(fake_discord, tmp_path, f"sqlite:///{database}")
    try:
        await fake_discord.wait_for(lambda: fake_discord.gateway.identify_count > identified
                                    and fake_discord.gateway.connected, timeout=20, what="the restarted bot")
        if not is_over(board_before):
            player = player_to_act(board_before, [alice, bob])
            label = "Roll" if any(b["label"] == "Roll" for b in board_before.buttons()) else "Keep the 6"
            pressed = await fake_discord.click(player, board_before, board_before.button(label=label)["custom_id"])
            assert not pressed.ephemeral, pressed.response.content
            after = table(fake_discord, channel).embed["footer"]["text"]
            number_before = int(footer_before.rsplit(" ", 1)[1])
            assert after.endswith(f"update {number_before + 1}"), "the game went on from the same state"
            await play_to_the_end(fake_discord, channel, [alice, bob])
    finally:
        await stop(second)
    fake_discord.assert_no_unknown_routes()


async def test_an_unexpected_error_is_logged_answered_privately_and_changes_nothing(
        fake_discord, parlor, monkeypatch, caplog):
    alice, bob = fake_discord.create_user("alice"), fake_discord.create_user("bob")
    channel = fake_discord.channel("games")
    await start_game(fake_discord, channel, alice, bob)
    before = await parlor.host.last_session_in(str(channel.id))

    def broken_apply(*args, **kwargs):
        raise RuntimeError("a bug in the engine")

    monkeypatch.setattr(GAMES["john-henry"], "apply", broken_apply)
    with caplog.at_level(logging.ERROR):
        result = await fake_discord.slash(alice, "roll", channel=channel)
    assert result.ephemeral and result.response.content.startswith("Sorry, something went wrong")
    assert "a bug in the engine" not in result.response.content
    assert any(r.exc_info and "a bug in the engine" in str(r.exc_info[1]) for r in caplog.records)
    after = await parlor.host.last_session_in(str(channel.id))
    assert after.version == before.version and await parlor.host.moves(after) == []

"""John Henry end to end: the real bot, through the fake Discord, from /game start to the golden spike."""

from __future__ import annotations

import logging
from pathlib import Path

from bot.client import ParlorBot
from bot.presentation.frontends import frontend_for
from bot.presentation.render import john_henry as render
from bot.presentation.words import image_names
from games import GAMES
from tests.bot.conftest import FakeClock
from tests.e2e.helpers import game_number, is_over, latest_board, mentioned, pings, player_to_act, table, tables
from tests.e2e.processes import bot_process, stop
from tests.fakediscord import FakeDiscord
from tests.fakediscord.state import FakeChannel, FakeMessage, FakeUser


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

    assert [b["label"] for b in final.buttons()] == ["Rematch", "New game", "Replay"]
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


async def test_the_ai_driving_the_spike_is_told_in_well_formed_bold(fake_discord, parlor):
    """An AI seat is named in bold ("**Parlor (AI)**", no Discord user to mention); the winning line used to wrap
    it in bold again, "****Parlor (AI)** drives the golden spike…**", which Discord shows with stray asterisks."""
    from tests.e2e.test_ai_e2e import quick_ai  # here: that module imports this one, through test_dice_e2e

    fake = fake_discord
    quick_ai(parlor)
    alice = fake.create_user("alice")
    for seed in range(1, 20):  # the dice of each game are fixed; play until one is the AI's
        parlor.host._seed_source = lambda seed=seed: seed
        channel = fake.create_channel(f"game-{seed}")
        await fake.slash(alice, "game start", channel=channel, game="john-henry", opponent=fake.bot_user)
        for _ in range(200):
            await parlor.ai.idle()
            session = await parlor.host.last_session_in(str(channel.id))
            if session.status != "active":
                break
            await fake.slash(alice, "roll", channel=channel)
        if session.result["winners"] == ["ai-1"]:
            break
    else:
        raise AssertionError("the AI won none of the games")
    told = table(fake, channel).embed["description"]
    assert "🏆 **Parlor (AI)** **drives the golden spike at Promontory Point!**" in told, told
    assert "***" not in told, "bold within bold"


async def rolled_to_john_henry(fake: FakeDiscord, parlor: ParlorBot, channel: FakeChannel,
                               players: list[FakeUser]) -> FakeMessage:
    """Players press Roll until a 6 calls John Henry (seed 51: the fifth move); returns that table."""
    parlor.host._seed_source = lambda: 51
    await start_game(fake, channel, *players)
    for _ in range(40):
        board = table(fake, channel)
        if any(button["label"] == "Keep the 6" for button in board.buttons()):
            return board
        await fake.click(player_to_act(board, players), board, board.button(label="Roll")["custom_id"])
    raise AssertionError("nobody rolled a 6")


async def test_a_kept_six_taken_back_is_called_what_its_button_said(fake_discord, parlor):
    """The undo names the kind of move it took back; John Henry's `stop` is the **Keep the 6** button, and
    "took back move 6 (stop)" named a move no player had seen."""
    alice, bob = fake_discord.create_user("alice"), fake_discord.create_user("bob")
    channel = fake_discord.channel("games")
    board = await rolled_to_john_henry(fake_discord, parlor, channel, [alice, bob])
    keeper = player_to_act(board, [alice, bob])
    await fake_discord.click(keeper, board, board.button(label="Keep the 6")["custom_id"])
    kept = table(fake_discord, channel)
    undone = await fake_discord.click(keeper, kept, kept.button(label=f"Undo ({keeper.name})")["custom_id"])
    assert not undone.ephemeral, undone.response.content
    told = table(fake_discord, channel).embed["description"]
    assert "took back move 6 (keep the 6)." in told and "stop" not in told, told
    log = await fake_discord.slash(bob, "game log", channel=channel)
    assert f"6. {keeper.name} keeps the 6." in log.response.content
    assert f"7. {keeper.name} took back move 6 (keep the 6)." in log.response.content


async def test_calling_john_henry_is_told_once_as_what_happened_and_once_as_what_to_do(fake_discord, parlor):
    """The table asks for the bonus die or the kept 6 in its state line; the event line used to ask too, so the
    table asked twice, and `/game log` kept asking long after the choice was made."""
    alice, bob = fake_discord.create_user("alice"), fake_discord.create_user("bob")
    channel = fake_discord.channel("games")
    board = await rolled_to_john_henry(fake_discord, parlor, channel, [alice, bob])
    caller = player_to_act(board, [alice, bob])
    told = board.embed["description"]
    assert f"🔨 John Henry steps out of legend to work for <@{caller.id}>!\n" in told, told
    assert told.lower().count("roll the bonus die or keep the 6") == 1, told
    assert told.endswith(f"<@{caller.id}>: roll the bonus die or keep the 6"), "the state line asks"
    await fake_discord.click(caller, board, board.button(label="Roll")["custom_id"])
    log = (await fake_discord.slash(bob, "game log", channel=channel)).response.content
    assert f"5. {caller.name} rolls 6. 🔨 John Henry steps out of legend to work for {caller.name}!\n" in log, log


async def test_the_rules_in_brief_give_the_rulings_a_player_meets_with_john_henry(fake_discord, parlor):
    """/game rules said "a 1 on either die moves just 1" and "doubles kill him", not which counts for 1 and 1
    (doubles: a move of 2), nor what the bonus die is paired with, nor what a 6 does once he is dead."""
    alice = fake_discord.create_user("alice")
    rules = await fake_discord.slash(alice, "game rules", channel=fake_discord.channel("games"), game="john-henry")
    told = rules.response.embed["description"]
    assert "1 and 1 are doubles" in told, told
    assert "the bonus die and the 6 are your two dice" in told, told
    assert "once he is dead, a 6 is just a 6" in told, told


async def test_the_final_table_counts_no_moves_the_log_and_the_check_would_contradict(fake_discord, parlor):
    """The final table of a 24-move game said "move 25", while `/game log` ends at move 24 and `/game verify` says
    "All 24 moves replay": its number counts updates (the start, each stand-in), and now says so."""
    alice, bob = fake_discord.create_user("alice"), fake_discord.create_user("bob")
    channel = fake_discord.channel("games")
    parlor.host._seed_source = lambda: 1
    await start_game(fake_discord, channel, alice, bob)
    await play_to_the_end(fake_discord, channel, [alice, bob])
    session = await parlor.host.last_session_in(str(channel.id))
    moves = len(await parlor.host.moves(session))
    checked = await fake_discord.slash(alice, "game verify", channel=channel)
    assert f"All {moves} moves replay" in checked.response.content
    footer = latest_board(fake_discord, channel).embed["footer"]["text"]
    assert footer == f"Game #{session.id} · update {session.version}" and "move" not in footer


async def claimed_in_the_roll_off(fake_discord, parlor) -> FakeMessage:
    """Alice rolls for first player, Bob never does, and Alice claims the game: its final table."""
    alice, bob = fake_discord.create_user("alice"), fake_discord.create_user("bob")
    channel = fake_discord.channel("games")
    clock = FakeClock()
    parlor.host.clock = clock
    await start_game(fake_discord, channel, alice, bob)
    await fake_discord.slash(alice, "roll", channel=channel)
    clock.advance(49 * 3600)
    claimed = await fake_discord.slash(alice, "game claim", channel=channel)
    assert not claimed.ephemeral, claimed.response.content
    return table(fake_discord, channel)


async def test_a_claimed_game_is_described_as_waiting_on_nobody(fake_discord, parlor):
    """Bob never rolled for first player and Alice claimed: the table's words end the game, but the picture's
    description still said "Roll-off for first player, waiting for bob" after "Game over: alice won"."""
    final = await claimed_in_the_roll_off(fake_discord, parlor)
    alt = final.attachment("board.png").description
    assert alt.startswith(f"Board of John Henry #{game_number(final)}, update ") and "Game over: alice won." in alt
    assert "waiting for" not in alt and "waiting for" not in final.embed["description"], alt


async def test_a_claimed_games_board_asks_nobody_to_roll(fake_discord, parlor):
    """The picture of a claimed game still read "Roll for first player: bob" above the board: it is drawn
    from the game as it ended, which waits on nobody ("Game over")."""
    final = await claimed_in_the_roll_off(fake_discord, parlor)
    session = await parlor.host.session(game_number(final))
    view, names = parlor.host.public_view(session), image_names(session)
    assert view["to_act"] and render._status(view, names).startswith("Roll for first player")
    drawn = final.attachment("board.png").data
    draw = frontend_for("john-henry").draw_board
    assert drawn == draw({**view, "to_act": []}, names, session.turn_events)
    assert drawn != draw(view, names, session.turn_events)
    assert render._status({**view, "to_act": []}, names) == "Game over"

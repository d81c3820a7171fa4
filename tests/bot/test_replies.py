"""Board and lobby messages built from views: mentions, buttons, pictures; no Discord connection needed."""

from __future__ import annotations

import importlib
import io
import re

import discord
import pytest
from discord.ext import commands

from bot.discord.buttons import ActionButton, LobbyButton, ReplayButton, TableButton
from bot.discord.replies import (
    LOG_MESSAGES_MAX,
    as_edit,
    board_embed,
    board_message,
    lobby_message,
    log_messages,
    rules_embed,
)
from bot.play.host import TURN_EVENTS_KEPT, Host, turn_events
from bot.play.turn_events import EARLIER_CUT
from bot.presentation.frontends import frontend_for
from bot.presentation.user_text import MESSAGE_MAX
from bot.presentation.words import (
    EARLIER,
    TABLE_TEXT_MAX,
    fitted,
    game_label,
    headline,
    log_lines,
    state_words,
    text_names,
)
from bot.storage.store import Seat
from games import GAMES, get_game
from games.core import IllegalMove, ScriptedRandomness
from tests.bot.conftest import ALICE, BOB, CAROL
from tests.bot.waiting import start_game

CHANNEL = "900"
PNG = b"\x89PNG\r\n\x1a\n-a-picture"


async def test_a_board_mentions_whose_turn_it_is_and_offers_versioned_buttons(host: Host):
    await host.open_lobby(guild_id="1", channel_id=CHANNEL, slug="john-henry", creator=ALICE)
    session, began = await host.join(CHANNEL, BOB)
    message = board_message(began.session, began.public_view, began.session.turn_events, png=PNG,
                            ping=[ALICE.id, BOB.id])
    assert message["content"] == f"<@{ALICE.id}>, <@{BOB.id}>: your turn."
    assert {u.id for u in message["allowed_mentions"].users} == {int(ALICE.id), int(BOB.id)}
    assert message["embed"].description.startswith(f"The game begins: <@{ALICE.id}>, <@{BOB.id}>.")
    assert message["embed"].image.url == "attachment://board.png"
    assert message["file"].fp.read(8) == b"\x89PNG\r\n\x1a\n"
    [roll] = message["view"].children
    assert isinstance(roll, ActionButton) and roll.custom_id == f"parlor:act:{session.id}:{began.session.version}:roll"


async def test_the_footer_names_the_games_update_not_a_move_number(host: Host):
    """The version counts every change (a stand-in, an undo, a setting, the game's start), not the moves
    made: "move 14" after 9 moves misled players, so the footer, picture or text only, says "update 14"."""
    await host.open_lobby(guild_id="1", channel_id=CHANNEL, slug="john-henry", creator=ALICE)
    _, began = await host.join(CHANNEL, BOB)
    session = began.session
    assert session.version > 0 and not await host.moves(session), "no move made yet"
    for picture in (True, False):
        footer = board_embed(session, began.public_view, picture=picture).footer.text
        assert footer == f"Game #{session.id} · update {session.version}"


async def test_a_finished_board_names_the_winner_pings_nobody_and_offers_rematch_and_new_game(host: Host):
    await host.open_lobby(guild_id="1", channel_id=CHANNEL, slug="john-henry", creator=ALICE)
    _, began = await host.join(CHANNEL, BOB)
    session = began.session
    while session.status == "active":
        player = host.to_act(session)[0]
        outcome = await host.act(session.id, player, host.legal_actions(session, player)[0])
        session = outcome.session
    message = board_message(session, outcome.public_view, session.turn_events, png=PNG)
    assert f"Winner: <@{session.result['winners'][0]}>" in message["content"]
    assert message["allowed_mentions"].users == []
    assert [item.item.label for item in message["view"].children] == ["Rematch", "New game", "Replay"]
    assert [type(item) for item in message["view"].children] == [TableButton, TableButton, ReplayButton]


@pytest.mark.parametrize("slug", sorted(GAMES))
async def test_an_abandoned_table_says_so_once_and_waits_on_nobody(host: Host, slug: str):
    """The state an abandoned game stopped in still names whom it waited on: the table leaves that line out."""
    session_id = await start_game(host, slug, CHANNEL, [ALICE, BOB])
    running = await host.current(session_id)
    waiting = state_words(running, host.public_view(running), text_names(running)).splitlines()
    abandoned = await host.abandon(CHANNEL, ALICE.id, can_manage=False)
    view = host.public_view(abandoned)
    ended = state_words(abandoned, view, text_names(abandoned)).splitlines()
    assert set(ended) < set(waiting), f"{slug}: {ended} still says whose turn it is"
    message = board_message(abandoned, view, [], headline(abandoned), png=PNG)
    said = f"{message['content']}\n{message['embed'].description}"
    assert said.count("abandoned") == 1, said
    assert "**New game**" in message["embed"].description


async def test_the_player_who_may_call_jump_is_named_but_not_pinged(host: Host):
    game = get_game("follow-the-arrow")
    state = game.new_game([ALICE.id, BOB.id], ScriptedRandomness(rolls=[1]))
    # Play legal moves until a jump becomes callable.
    chooser_index = 0
    for _ in range(200):
        view = game.view(state, None)
        if view["jump_callable"] or view["phase"] == "over":
            break
        player = game.to_act(state)[0]
        actions = [a for a in game.legal_actions(state, player) if a["type"] != "decline_call"]
        state, _ = game.apply(state, player, actions[chooser_index % len(actions)], ScriptedRandomness())
        chooser_index += 7
    view = game.view(state, None)
    assert view["jump_callable"], "the scripted line reaches a callable jump"
    await host.open_lobby(guild_id="1", channel_id=CHANNEL, slug="follow-the-arrow", creator=ALICE)
    _, began = await host.join(CHANNEL, BOB)
    message = board_message(began.session, view, png=PNG)
    caller = view["last_mover"]
    assert f"<@{caller}>: your opponent can jump" in message["content"]
    assert message["allowed_mentions"].users == [], "only a change of turn pings"


async def test_the_lobby_card_mentions_the_invited_and_offers_join_leave_begin(host: Host):
    session = await host.open_lobby(guild_id="1", channel_id=CHANNEL, slug="johari-bones", creator=ALICE,
                                    invited=[CAROL.id])
    message = lobby_message(session, ping=[CAROL.id])
    assert message["content"] == f"<@{CAROL.id}>"
    assert [u.id for u in message["allowed_mentions"].users] == [int(CAROL.id)]
    labels = [item.item.label for item in message["view"].children if isinstance(item, LobbyButton)]
    assert labels == ["Join", "Leave", "Begin"]


async def test_a_lobby_abandoned_before_it_began_says_so_and_invites_nobody(host: Host):
    await host.open_lobby(guild_id="1", channel_id=CHANNEL, slug="johari-bones", creator=ALICE, invited=[CAROL.id])
    closed = await host.abandon(CHANNEL, ALICE.id, can_manage=False)
    message = lobby_message(closed)
    text = message["embed"].description
    assert "closed before its game began" in text and "empty" not in text
    assert "Join" not in text and "Invited" not in text and "Begin" not in text
    assert message["content"] is None and message["view"].children == []


async def test_the_log_reads_like_the_narration_with_names_and_dice(host: Host):
    await host.open_lobby(guild_id="1", channel_id=CHANNEL, slug="john-henry", creator=ALICE)
    _, began = await host.join(CHANNEL, BOB)
    outcome = await host.act(began.session.id, ALICE.id, {"type": "roll"})
    outcome = await host.act(began.session.id, BOB.id, {"type": "roll"})
    moves = await host.narrated_moves(outcome.session)
    text = "\n".join(log_lines(outcome.session, moves))
    first = moves[0][0].outcomes["rolls"][0]
    assert text.startswith(f"1. Alice rolls {first} for first player.\n2. Bob rolls ")
    assert ALICE.id not in text and "roll-off" not in text and "{" not in text


async def test_the_log_escapes_a_name_with_markdown_and_a_file_gets_it_as_written(host: Host):
    """docs/players.md: names are escaped wherever Parlor writes them into a message, `/game log` too; a log file is
    no Discord text, so it gets the names as written (a web page's, escaped for its script: bot.web.page_text)."""
    boss = Seat(id=BOB.id, name="**Boss** [x](https://e.x)")
    await host.open_lobby(guild_id="1", channel_id=CHANNEL, slug="john-henry", creator=ALICE)
    _, began = await host.join(CHANNEL, boss)
    outcome = await host.act(began.session.id, ALICE.id, {"type": "roll"})
    outcome = await host.act(began.session.id, boss.id, {"type": "roll"})
    moves = await host.narrated_moves(outcome.session)
    escaped = discord.utils.escape_markdown(boss.name)
    assert log_lines(outcome.session, moves)[1].startswith(f"2. {escaped} rolls ")
    told = "\n".join(message["content"] for message in log_messages(outcome.session, log_lines(outcome.session, moves)))
    assert boss.name not in told.replace(escaped, ""), "escaped wherever it is named"
    assert log_lines(outcome.session, moves, escape=None)[1].startswith(f"2. {boss.name} rolls ")


async def test_the_log_says_ai_only_for_the_moves_the_ai_made_for_a_person(host: Host):
    """docs/players.md: `/game log` tells the game as the table told it. The AI stood in for Bob from move 3 to 5 and
    again from move 7 on (as `/game substitute` and `/game return` record it): his moves 4 and 8 were the AI's,
    2 and 6 his own, whatever his seat is now."""
    await host.open_lobby(guild_id="1", channel_id=CHANNEL, slug="john-henry", creator=ALICE)
    _, began = await host.join(CHANNEL, BOB)
    session = began.session
    for _ in range(8):
        player = host.to_act(session)[0]
        session = (await host.act(session.id, player, host.legal_actions(session, player)[0])).session
    moves = await host.narrated_moves(session)
    assert [move.player for move, _ in moves] == [ALICE.id, BOB.id] * 4
    bob = BOB.model_copy(update={"stand_in": True, "stand_ins": [[3, 5], [7, -1]]})
    lines = log_lines(session.model_copy(update={"players": [ALICE, bob]}), moves)
    for seq in (2, 6):
        assert lines[seq - 1].startswith(f"{seq}. Bob rolls") and "(AI)" not in lines[seq - 1], lines[seq - 1]
    for seq in (4, 8):
        assert lines[seq - 1].startswith(f"{seq}. Bob (AI) rolls"), lines[seq - 1]
    assert all(line.startswith(f"{seq}. Alice rolls") for seq, line in enumerate(lines, start=1) if seq % 2)

async def _began(host: Host):
    await host.open_lobby(guild_id="1", channel_id=CHANNEL, slug="two-fat-dudes", creator=ALICE)
    return (await host.join(CHANNEL, BOB))[1].session


async def test_a_log_too_long_for_one_message_comes_whole_from_move_1_in_several(host: Host):
    session = await _began(host)
    lines = [f"{n}. Alice rolls {n % 6 + 1} and walks {'far ' * 20}" for n in range(1, 80)]
    messages = log_messages(session, lines)
    assert 1 < len(messages) <= LOG_MESSAGES_MAX
    assert all(len(m["content"]) <= MESSAGE_MAX and "file" not in m for m in messages)
    assert messages[0]["content"].startswith(f"**{game_label(session)}**\n1. Alice rolls 2 ")
    assert "\n".join(m["content"] for m in messages).splitlines()[1:] == lines, "every move, cut between moves"


async def test_a_log_longer_than_a_few_messages_comes_whole_as_a_file_with_the_latest_moves_shown(host: Host):
    session = await _began(host)
    lines = [f"{n}. Bob builds a track {'onward ' * 20}" for n in range(1, 400)]
    (message,) = log_messages(session, lines)
    text = message["content"]
    assert len(text) <= MESSAGE_MAX and "399 moves, is in the file below" in text
    assert text.endswith(lines[-1]) and "\n…\n" in text and f"\n{lines[0]}\n" not in text
    told = message["file"].fp.read().decode()
    assert message["file"].filename == f"parlor-two-fat-dudes-{session.id}-log.txt"
    assert told.splitlines() == [game_label(session), *lines]


async def test_a_log_file_names_players_as_written_while_its_message_escapes_them(host: Host):
    session = await _began(host)
    name = "**Boss** [x](https://e.x)"
    written = [f"{n}. {name} builds a track {'onward ' * 20}" for n in range(1, 400)]
    lines = [line.replace(name, discord.utils.escape_markdown(name)) for line in written]
    (message,) = log_messages(session, lines, written)
    assert message["content"].endswith(lines[-1]), "the message is Discord's text: names escaped"
    assert message["file"].fp.read().decode().splitlines() == [game_label(session), *written]


async def test_a_log_without_moves_says_so(host: Host):
    session = await _began(host)
    assert log_messages(session, []) == [{"content": f"**{game_label(session)}**\nNo moves yet."}]


@pytest.mark.parametrize("module", ["cogs.crayon_rails", "cogs.follow_the_arrow", "cogs.johari_bones",
                                    "cogs.two_fat_dudes"])
def test_game_rules_list_every_command_of_the_game(module):
    cog_module = importlib.import_module(module)
    cog = next(value for value in vars(cog_module).values()
               if isinstance(value, type) and issubclass(value, commands.Cog) and value is not commands.Cog)
    names = {command.name for command in cog.__cog_app_commands__}
    assert names
    embed = rules_embed(cog_module.SLUG)
    listed = embed.fields[0].value
    for name in names:
        assert f"`/{name}`" in listed or f"`/{name} " in listed, f"/{name} is missing from {cog_module.SLUG}'s rules"


@pytest.mark.parametrize("slug", ["john-henry", "two-fat-dudes", "follow-the-arrow", "johari-bones"])
def test_game_rules_list_the_shared_verbs_the_game_uses(slug):
    listed = rules_embed(slug).fields[0].value
    for verb in ("roll", "move", "place"):
        try:
            frontend_for(slug).verb_action(verb, {})
        except IllegalMove as refusal:
            if "is not used in this game" in refusal.message:
                continue
        assert f"`/{verb}`" in listed or f"`/{verb} " in listed, f"/{verb} is missing from the rules of {slug}"


@pytest.mark.parametrize("slug", sorted(GAMES))
def test_game_rules_commands_read_cleanly(slug):
    """Each line: the command as typed, in code, a dash, what it does; never "`/roll`: /roll —" (issue 21)."""
    for line in rules_embed(slug).fields[0].value.splitlines():
        assert re.fullmatch(r"`/[a-z]+( [^`]+)?` — [^/\s].*\S", line), line
        assert "`: /" not in line and line.count(" — ") == 1, line


def test_one_point_is_never_one_pts():
    """"1 point", "1 pt" in pictures; and no picture or text writes a number before a bare "pts" (issue 21)."""
    from pathlib import Path

    from bot.presentation.frontend import points_text
    from bot.presentation.render.canvas import pts

    assert [points_text(n) for n in (1, -1, 0, 12)] == ["1 point", "-1 point", "0 points", "12 points"]
    assert points_text(1, bold=True) == "**1** point" and [pts(1), pts(21)] == ["1 pt", "21 pts"]
    root = Path(__file__).resolve().parents[2] / "bot"
    for source in root.rglob("*.py"):
        if source.name in ("canvas.py", "frontend.py"):
            continue  # where points_text and pts are written
        text = source.read_text()
        assert not re.search(r"\} pts\b|\}\*\* points\b|\} points\.", text), f"{source.name} spells points itself"


def test_an_edit_shows_exactly_the_new_message_and_nothing_left_of_the_old():
    picture = discord.File(io.BytesIO(PNG), "step.png")
    embed = discord.Embed(title="Build preview")
    with_picture = as_edit({"content": "Where to?", "file": picture, "embed": embed, "ephemeral": True})
    assert with_picture == {"content": "Where to?", "attachments": [picture], "embed": embed, "view": None}
    assert as_edit({"content": "Which box?", "files": [picture]})["attachments"] == [picture]
    words = as_edit({"content": "Build cancelled."})
    assert words == {"content": "Build cancelled.", "attachments": [], "embed": None, "view": None}
    assert as_edit({"embeds": [embed]}) == {"embeds": [embed], "attachments": [], "content": None, "view": None}


async def test_a_table_too_long_for_discord_keeps_its_headline_its_latest_events_and_whose_turn(host: Host):
    """Ruling (docs/players.md, "Without sight or colour"): past 4,000 characters the oldest of what happened goes,
    never the headline at the top nor the state's end, which says whose turn it is and what to do."""
    session_id = await start_game(host, "crayon-rails", CHANNEL, [ALICE, BOB])
    session = await host.current(session_id)
    view = host.public_view(session)
    cities = ("Northgate", "Eastbay", "Southport", "Westholm")
    events = [{"type": "moved", "player": ALICE.id, "path": [city]} for _ in range(40) for city in cities]
    headline = "Parlor plays for Bob until they take the seat back with `/game return`."
    message = board_message(session, view, events, headline, png=None)
    text = message["embed"].description
    state = state_words(session, view, text_names(session))
    assert len(text) <= TABLE_TEXT_MAX and text.count("moves to") < len(events), "the oldest moves went"
    assert text.startswith(f"{headline}\n{EARLIER}\n"), "the headline first, then where the earlier moves are"
    assert text.endswith(f"<@{ALICE.id}> moves to Westholm.\n{state}"), "the latest move, then the state whole"
    assert state.splitlines()[-1].startswith("To act: ")


async def test_a_long_turn_whose_first_events_the_host_dropped_says_where_they_went(host: Host):
    """The table holds a turn's last `TURN_EVENTS_KEPT` events: the ones before go, counted, and the table
    says where they are even when the rest fits in its words."""
    session_id = await start_game(host, "crayon-rails", CHANNEL, [ALICE, BOB])
    session = (await host.current(session_id)).model_copy(update={"turn_events": []})
    moves = [{"type": "moved", "player": ALICE.id, "path": [f"milepost {number}"]} for number in range(45)]
    kept = turn_events(session, [ALICE.id], [ALICE.id], moves[:43])
    assert TURN_EVENTS_KEPT == 40 and kept == [{"type": EARLIER_CUT, "events": 3}, *moves[3:43]]
    session = session.model_copy(update={"turn_events": kept})
    more = turn_events(session, [ALICE.id], [ALICE.id], moves[43:])
    assert more == [{"type": EARLIER_CUT, "events": 5}, *moves[5:]], "the count grows as the turn goes on"
    text = board_message(session, host.public_view(session), more, png=None)["embed"].description
    assert len(text) < TABLE_TEXT_MAX and text.count(EARLIER) == 1
    assert text.startswith(f"{EARLIER}\n<@{ALICE.id}> moves to milepost 5.\n"), text[:200]
    assert turn_events(session, [ALICE.id], [BOB.id], moves[:2]) == moves[:2], "a new turn starts whole"


def test_a_state_too_long_alone_loses_its_middle_lines_and_keeps_its_first_and_last():
    state = "\n".join(["Play, round 3", *(f"#{card}: a pool card's three demands" for card in range(300)),
                       "To act: Alice"])
    told = [f"Alice moves to milepost {number}." for number in range(10)]
    text = fitted("The headline.", told, state, limit=1000)
    assert len(text) <= 1000 and "milepost 8" not in text
    assert text.startswith(f"The headline.\n{EARLIER}\nAlice moves to milepost 9.\nPlay, round 3\n#0")
    assert text.endswith("…\nTo act: Alice"), "the state's first line and last line stay"
    assert fitted("The headline.", told, "Short.") == "\n".join(["The headline.", *told, "Short."]), "what fits"

"""Finished games stay readable: `/game list`, `/game history` and `/stats` queries and texts."""

from __future__ import annotations

import pytest

from bot.discord import records
from bot.storage.store import Seat
from tests.bot.conftest import ALICE, BOB, CAROL
from tests.bot.waiting import HOUR, play_until_over, start_game

DAVE = Seat(id="404", name="Dave")
pytestmark = pytest.mark.both_databases  # the queries behind /game list, history and /stats run on both


async def test_list_shows_a_players_open_games_on_this_server_or_everywhere(host, clock):
    first = await start_game(host, "follow-the-arrow", "900", [ALICE, BOB], options={"first": BOB.id})
    second = await start_game(host, "follow-the-arrow", "901", [CAROL, ALICE], options={"first": ALICE.id})
    lobby = await host.open_lobby(guild_id="1", channel_id="902", slug="johari-bones", creator=ALICE)
    finished = await start_game(host, "john-henry", "903", [ALICE, BOB])
    await play_until_over(host, finished)
    elsewhere = await start_game(host, "follow-the-arrow", "950", [ALICE, DAVE], guild="2")
    await start_game(host, "follow-the-arrow", "904", [BOB, CAROL])

    here = await records.games_of(host, ALICE.id, "1")
    assert [s.id for s in here] == [lobby.id, second, first], "open games on this server, newest first"
    everywhere = await records.games_of(host, ALICE.id, None)
    assert [s.id for s in everywhere] == [elsewhere, lobby.id, second, first]

    clock.advance(2 * HOUR)
    text = records.game_list_text(host, ALICE.id, here, everywhere=False)
    lines = text.splitlines()
    assert lines[0] == "**Your games on this server:**"
    assert lines[1] == f"• Johari Bones #{lobby.id} in https://discord.com/channels/1/902: lobby, 1 joined"
    assert lines[2] == (f"• Follow the Arrow #{second} in https://discord.com/channels/1/901: "
                        "**your turn**, for 2 h")
    assert lines[3] == (f"• Follow the Arrow #{first} in https://discord.com/channels/1/900: "
                        "waiting on Bob for 2 h")
    assert "not in any game anywhere" in records.game_list_text(host, CAROL.id, [], everywhere=True)


async def test_history_lists_the_channels_past_games_newest_first(host, clock):
    played = await start_game(host, "john-henry", "900", [ALICE, BOB])
    await play_until_over(host, played)
    clock.advance(HOUR)
    await host.open_lobby(guild_id="1", channel_id="900", slug="john-henry", creator=ALICE)
    await host.leave("900", ALICE.id)  # an empty lobby never began: not history
    abandoned = await start_game(host, "follow-the-arrow", "900", [ALICE, CAROL])
    await host.abandon("900", CAROL.id, can_manage=False)
    claimed = await start_game(host, "follow-the-arrow", "900", [ALICE, BOB], options={"first": ALICE.id})
    clock.advance(48 * HOUR)
    await host.claim("900", BOB.id)
    await start_game(host, "follow-the-arrow", "901", [ALICE, BOB])

    sessions = await records.history(host, "900")
    assert [s.id for s in sessions] == [claimed, abandoned, played]
    winner = (await host.session(played)).result["winners"][0]
    text = records.history_text(sessions).splitlines()
    assert text[0] == "**Past games in this channel:**"
    assert text[1] == (f"• Follow the Arrow #{claimed}, <t:{int(clock())}:d>: won by Bob (claimed on the turn clock)")
    assert text[2].endswith(": abandoned")
    assert text[3].endswith(f": won by {'Alice' if winner == ALICE.id else 'Bob'} (played to the end)")
    assert records.history_text(await records.history(host, "999")) == "No game has finished in this channel yet."


async def test_stats_count_finished_games_played_and_won_per_game_on_this_server(host, clock):
    winners = []
    for channel in ("900", "901"):
        session_id = await start_game(host, "john-henry", channel, [ALICE, BOB])
        await play_until_over(host, session_id)
        winners += (await host.session(session_id)).result["winners"]
    await start_game(host, "follow-the-arrow", "902", [ALICE, BOB], options={"first": BOB.id})
    clock.advance(48 * HOUR)
    await host.claim("902", ALICE.id)
    await start_game(host, "follow-the-arrow", "903", [ALICE, CAROL])  # still running: not counted
    elsewhere = await start_game(host, "john-henry", "950", [ALICE, BOB], guild="2")
    await play_until_over(host, elsewhere)

    rows = await records.stats(host, ALICE.id, "1")
    assert rows == [records.GameStats("follow-the-arrow", 1, 1),
                    records.GameStats("john-henry", 2, winners.count(ALICE.id))]
    text = records.stats_text("Alice", rows)
    assert "Follow the Arrow: 1 played, 1 won" in text
    assert f"All games: 3 played, {1 + winners.count(ALICE.id)} won" in text
    assert await records.stats(host, CAROL.id, "1") == []
    assert records.stats_text("Carol", []) == "Carol has not finished a game on this server yet."


def test_the_ais_own_stats_count_its_games_without_setting_them_apart():
    """Every game the AI played is a game with the AI: "John Henry with Parlor (AI)" or a line of games between
    people would read oddly for the AI itself."""
    rows = [records.GameStats("john-henry", 3, 2, against_ai=True), records.GameStats("two-fat-dudes", 1, 0, True)]
    assert records.stats_text("Parlor (AI)", rows, of_ai=True).splitlines() == [
        "**Parlor (AI) on this server:**",
        "The games in which it had a seat of its own (a win by any of its seats is its win):",
        "• John Henry: 3 played, 2 won",
        "• Two Fat Dudes in a Narrow Hallway: 1 played, 0 won",
        "All games: 4 played, 2 won"]


def test_a_player_who_played_only_with_the_ai_is_not_told_all_games_0_played():
    """Alice's only game was one with the AI: her stats listed it, then said 'All games: 0 played, 0 won (between
    people)' above 'All games with Parlor (AI): 1 played'."""
    rows = [records.GameStats("johari-bones", 1, 0, against_ai=True)]
    assert records.stats_text("Alice", rows).splitlines() == [
        "**Alice on this server:**",
        "• Johari Bones with Parlor (AI): 1 played, 0 won",
        "All games with Parlor (AI): 1 played, 0 won"]

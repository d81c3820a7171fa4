"""Ratings end to end: a 3-player Johari Bones game and a game against the AI move ratings that the final
table shows (an edit of the table, no extra post), `/stats` and `/leaderboard` (private, then Share)."""

from __future__ import annotations

import io
import random
import re

import pytest
from PIL import Image

from bot.client import ParlorBot
from bot.play.ratings import ALL, PEOPLE, shown
from bot.presentation.standings import BRONZE, GOLD, SILVER
from tests.bot.test_standings import rank_marks
from tests.e2e.helpers import pings, table, tables
from tests.e2e.random_play import RandomPlay
from tests.e2e.test_ai_e2e import against_the_ai, play_out
from tests.e2e.test_share_e2e import share_button
from tests.fakediscord import FakeDiscord
from tests.fakediscord.commands import CommandError


def rating_field(message) -> tuple[str, dict[str, str]]:
    """The final table's ratings field: its name, and each player's line ("1,072 (+72)") by name."""
    field = next(f for embed in message.embeds for f in embed.get("fields", []) if f["name"].startswith("Ratings"))
    return field["name"], dict(line.split(": ", 1) for line in field["value"].splitlines())


async def test_ratings_after_a_three_player_johari_game(fake_discord: FakeDiscord, parlor: ParlorBot):
    channel = fake_discord.channel("games")
    users = [fake_discord.create_user(name) for name in ("alice", "bob", "carol")]
    game = RandomPlay(fake_discord, parlor, channel, users, random.Random(11))
    await game.open("johari-bones")
    await game.play_to_the_end()
    session = await game.session()
    assert session.status == "finished" and len(session.players) == 3

    final = table(fake_discord, channel)
    assert fake_discord.messages(channel)[-1] is final, "the ratings are on the table: no extra post"
    assert [m for m in fake_discord.messages(channel) if m not in tables(fake_discord, channel)] == []
    name, lines = rating_field(final)
    assert name == "Ratings" and set(lines) == {"alice", "bob", "carol"}
    places = {seat.name: (seat.id in session.result["winners"]) for seat in session.players}
    for user in users:
        [rated] = [r for r in await parlor.host.store.player_ratings(str(channel.guild_id), str(user.id))
                   if r.pool == PEOPLE]
        assert rated.slug == "johari-bones" and rated.rating.games == 1
        assert lines[user.name].startswith(f"{shown(rated.rating):,} (")
        if places[user.name]:
            assert "(+" in lines[user.name], "a winner's rating rises"

    asked = await fake_discord.slash(users[0], "stats", channel=channel)
    assert asked.ephemeral
    rating, delta = lines["alice"].split(" ", 1)
    assert f"Johari Bones: rating **{rating}** ({delta[1:-1]} in the last game)" in asked.response.content
    # The chart of her rating (issue 45): the one game she has, charted without being named.
    [chart] = asked.response.attachments
    assert chart.filename == "rating.png" and Image.open(io.BytesIO(chart.data)).width == 720
    assert chart.description == (f"alice's rating in Johari Bones (games between people) over 1 rated game: "
                                 f"first {rating}, highest {rating}, current {rating}.")
    other = await fake_discord.slash(users[0], "stats", channel=channel, user=users[1], game="two-fat-dudes")
    assert other.ephemeral and not other.response.attachments
    assert "No rated Two Fat Dudes in a Narrow Hallway game yet (games between people): no rating chart to draw." in \
        other.response.content


async def test_ratings_after_a_game_against_the_ai_count_apart(fake_discord: FakeDiscord, parlor: ParlorBot):
    _, alice = await against_the_ai(fake_discord, parlor, "john-henry", seed=3)
    channel = fake_discord.channel("john-henry-vs-ai")
    name, lines = rating_field(table(fake_discord, channel))
    assert name == "Ratings (games with Parlor (AI), counted apart)" and set(lines) == {"alice", "Parlor (AI)"}
    guild = str(channel.guild_id)
    assert {r.pool for r in await parlor.host.store.player_ratings(guild, str(alice.id))} == {ALL}
    assert [r.pool for r in await parlor.host.store.player_ratings(guild, "ai-1")] == [ALL]

    board = await fake_discord.slash(alice, "leaderboard", channel=channel)
    assert board.ephemeral and "No rated game on this server yet" in board.response.content, "AI games count apart"
    moderator = fake_discord.create_user("mod", moderator=True)
    saved = await fake_discord.slash(moderator, "settings leaderboard", channel=channel, ai_games="on")
    assert "Saved" in saved.response.content
    board = await fake_discord.slash(alice, "leaderboard", channel=channel, game="john-henry")
    text = board.response.content
    assert "games with Parlor (AI) counted too" in text and "Parlor (AI)" in text and "alice" in text

    ai_stats = await fake_discord.slash(alice, "stats", channel=channel, user=fake_discord.bot_user)
    assert re.search(r"• John Henry: rating \*\*[0-9,]+\*\* \([+−][0-9]+ in the last game\)",
                     ai_stats.response.content)


async def test_the_leaderboard_is_private_until_shared(fake_discord: FakeDiscord, parlor: ParlorBot):
    channel = fake_discord.channel("games")
    users = [fake_discord.create_user(name) for name in ("alice", "bob")]
    game = RandomPlay(fake_discord, parlor, channel, users, random.Random(5))
    await game.open("john-henry")
    await game.play_to_the_end()
    winner = (await game.session()).result["winners"][0]
    before = len(fake_discord.messages(channel))
    seen = pings(fake_discord, [channel])

    asked = await fake_discord.slash(users[1], "leaderboard", channel=channel, game="john-henry")
    private = asked.response
    assert asked.ephemeral and private.visible_to == users[1].id
    [picture] = private.attachments
    assert picture.filename == "leaderboard.png"
    first = next(u.name for u in users if str(u.id) == winner)
    assert picture.description.startswith(f"Leaderboard of John Henry. John Henry: 1. {first} ")
    image = Image.open(io.BytesIO(picture.data))
    assert image.width == 720 and image.format == "PNG"
    assert len(fake_discord.messages(channel)) == before, "nothing public yet"

    await fake_discord.click(users[1], private, share_button(private))
    await fake_discord.wait_for(lambda: private.buttons() == [], what="the Share button to go")
    shared = fake_discord.messages(channel)[-1]
    assert shared.content.startswith("Shared by bob:") and "**Leaderboard: John Henry**" in shared.content
    assert shared.attachments[0].description == picture.description
    assert shared.attachments[0].data == picture.data
    assert pings(fake_discord, [channel]) == seen, "sharing pings nobody"


async def test_only_manage_server_changes_whether_ai_games_count(fake_discord: FakeDiscord, parlor: ParlorBot):
    channel = fake_discord.channel("games")
    member, admin = fake_discord.create_user("member"), fake_discord.create_user("admin", moderator=True)
    with pytest.raises(CommandError, match="needs permissions"):
        await fake_discord.slash(member, "settings leaderboard", channel=channel, ai_games="on")
    # A server's admin may open /settings to everyone (Server Settings > Integrations): the bot still refuses.
    fake_discord.commands.find("settings", channel)["default_member_permissions"] = None
    refused = await fake_discord.slash(member, "settings leaderboard", channel=channel, ai_games="on")
    assert refused.ephemeral and refused.response.content == "Only members with Manage Server can change this " \
        "server's settings."
    assert not (await parlor.host.store.guild_settings(str(channel.guild_id))).leaderboard_with_ai
    seen = await fake_discord.slash(member, "settings leaderboard", channel=channel)
    assert seen.ephemeral and "counts games between people only" in seen.response.content, "anyone may look"
    saved = await fake_discord.slash(admin, "settings leaderboard", channel=channel, ai_games="on")
    assert saved.ephemeral and saved.response.content.startswith("Saved.")
    assert (await parlor.host.store.guild_settings(str(channel.guild_id))).leaderboard_with_ai
    assert fake_discord.messages(channel) == [], "settings are answered privately"


async def test_players_with_equal_ratings_share_a_rank(fake_discord: FakeDiscord, parlor: ParlorBot):
    """Two John Henry games between four newcomers: both winners show the same rating, and so do both losers."""
    users = [fake_discord.create_user(name) for name in ("alice", "bob", "carol", "dave")]
    for name, (first, second) in (("games", users[:2]), ("lounge", users[2:])):
        channel = fake_discord.channel(name)
        await fake_discord.slash(first, "game start", channel=channel, game="john-henry", opponent=second)
        lobby = table(fake_discord, channel)
        await fake_discord.click(second, lobby, lobby.button(label="Join")["custom_id"])
        await play_out(parlor, channel)
    guild = str(channel.guild_id)
    rows = await parlor.host.store.leaderboard(guild, PEOPLE, "john-henry", 10)
    ratings = [shown(row.rating) for row in rows]
    assert len(set(ratings)) < len(ratings), f"a tie to show: {ratings}"
    expected = [f"{1 + sum(other > mine for other in ratings)}. {row.name} {mine:,} (1 game)"
                for row, mine in zip(rows, ratings, strict=True)]

    asked = await fake_discord.slash(users[0], "leaderboard", channel=channel, game="john-henry")
    lines = asked.response.content.splitlines()
    assert lines[1:5] == expected, "standard competition ranking: equal ratings share a rank"
    [picture] = asked.response.attachments
    assert picture.description == f"Leaderboard of John Henry. John Henry: {'; '.join(expected)}."
    image = Image.open(io.BytesIO(picture.data))
    for index, line in enumerate(expected):
        medal = {1: GOLD, 2: SILVER, 3: BRONZE}.get(int(line.split(".")[0]))
        assert medal is None or rank_marks(image, index, medal), f"{line}: its rank is drawn in its medal's colour"

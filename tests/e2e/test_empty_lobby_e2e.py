"""A lobby closed before its game began never was a game: "the last game" of its channel (its record, its
rematch, its table's buttons) is still the one played before it, and the closed lobby's card invites nobody."""

from __future__ import annotations

from bot.client import ParlorBot
from tests.e2e.helpers import game_number, table, tables
from tests.e2e.test_dice_e2e import reply
from tests.e2e.test_john_henry_e2e import play_to_the_end, start_game
from tests.fakediscord import FakeDiscord
from tests.fakediscord.state import FakeChannel, FakeUser


async def a_game_then_an_empty_lobby(fake: FakeDiscord, channel: FakeChannel, alice: FakeUser, bob: FakeUser
                                     ) -> int:
    """Alice and Bob play John Henry to the end; then Alice opens a lobby and leaves it. The first game's number."""
    await start_game(fake, channel, alice, bob)
    await play_to_the_end(fake, channel, [alice, bob])
    first = game_number(table(fake, channel))
    await fake.slash(alice, "game start", channel=channel, game="john-henry")
    await fake.slash(alice, "game leave", channel=channel)
    return first


async def test_export_and_verify_pass_over_an_empty_lobby(fake_discord: FakeDiscord, parlor: ParlorBot):
    fake = fake_discord
    alice, bob = fake.create_user("alice"), fake.create_user("bob")
    channel = fake.channel("games")
    first = await a_game_then_an_empty_lobby(fake, channel, alice, bob)

    exported = await reply(await fake.slash(alice, "game export", channel=channel))
    assert exported.attachments[0].filename == f"parlor-john-henry-{first}.json", exported.content
    await start_game(fake, channel, alice, bob)
    exported = await reply(await fake.slash(alice, "game export", channel=channel))
    assert exported.attachments[0].filename == f"parlor-john-henry-{first}.json", exported.content
    checked = await reply(await fake.slash(bob, "game verify", channel=channel))
    assert "The record checks out" in checked.content and f"game #{first}" in checked.content


async def test_the_last_games_players_rematch_after_an_empty_lobby(fake_discord: FakeDiscord, parlor: ParlorBot):
    fake = fake_discord
    alice, bob = fake.create_user("alice"), fake.create_user("bob")
    channel = fake.channel("games")
    first = await a_game_then_an_empty_lobby(fake, channel, alice, bob)
    final = next(message for message in tables(fake, channel) if game_number(message) == first)
    assert [b["label"] for b in final.buttons()] == ["Rematch", "New game", "Replay"], "the closed lobby gave them back"

    rematch = await fake.click(bob, final, final.button(label="Rematch")["custom_id"])
    assert not rematch.ephemeral, rematch.text
    again = await parlor.host.last_session_in(str(channel.id))
    assert again.status == "active" and again.player_ids == [str(alice.id), str(bob.id)]
    assert final.buttons() == [], "the rematch spent them"


async def test_slash_rematch_after_an_empty_lobby(fake_discord: FakeDiscord, parlor: ParlorBot):
    fake = fake_discord
    alice, bob = fake.create_user("alice"), fake.create_user("bob")
    channel = fake.channel("games")
    await a_game_then_an_empty_lobby(fake, channel, alice, bob)
    rematch = await fake.slash(bob, "game rematch", channel=channel)
    assert not rematch.ephemeral, rematch.text
    assert (await parlor.host.last_session_in(str(channel.id))).status == "active"


async def test_a_lobby_open_takes_the_buttons_of_the_last_game(fake_discord: FakeDiscord, parlor: ParlorBot):
    """While a lobby is open, the finished game's Rematch is spent; a lobby that begins keeps it so."""
    fake = fake_discord
    alice, bob, carol = fake.create_user("alice"), fake.create_user("bob"), fake.create_user("carol")
    channel = fake.channel("games")
    await start_game(fake, channel, alice, bob)
    await play_to_the_end(fake, channel, [alice, bob])
    final = table(fake, channel)
    await fake.slash(carol, "game start", channel=channel, game="john-henry")
    assert final.buttons() == []
    lobby = table(fake, channel)
    await fake.click(alice, lobby, lobby.button(label="Join")["custom_id"])
    assert (await parlor.host.last_session_in(str(channel.id))).status == "active"
    assert final.buttons() == []
    await fake.slash(carol, "game abandon", channel=channel)
    assert final.buttons() == [], "a game that began, even abandoned, is the channel's last game"


async def test_a_closed_lobby_card_invites_nobody(fake_discord: FakeDiscord, parlor: ParlorBot):
    fake = fake_discord
    alice = fake.create_user("alice")
    channel = fake.channel("games")
    await fake.slash(alice, "game start", channel=channel, game="john-henry")
    await fake.slash(alice, "game leave", channel=channel)
    card = table(fake, channel)
    assert "The lobby is empty and has been closed." in card.text
    assert "Join" not in card.text and "Joined" not in card.text and card.buttons() == []
    status = await fake.slash(alice, "game status", channel=channel)
    assert "has been closed" in status.text and "Join" not in status.text


async def test_status_log_and_table_pass_over_an_empty_lobby(fake_discord: FakeDiscord, parlor: ParlorBot):
    """What the channel's game commands show after a lobby closed empty is the game played before it."""
    fake = fake_discord
    alice, bob = fake.create_user("alice"), fake.create_user("bob")
    channel = fake.channel("games")
    first = await a_game_then_an_empty_lobby(fake, channel, alice, bob)
    status = await fake.slash(bob, "game status", channel=channel)
    assert "The game is over" in status.text and "closed" not in status.text, status.text
    log = await fake.slash(bob, "game log", channel=channel)
    assert f"#{first}" in log.text and "rolls" in log.text, log.text
    await fake.slash(bob, "game table", channel=channel)
    assert game_number(table(fake, channel)) == first, "the last game's table comes to the bottom"

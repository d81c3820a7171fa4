"""Text instead of pictures (bot.play.text_view), end to end: a server's text-only tables,
a user's own views as text."""

from __future__ import annotations

import pytest

import bot.presentation.frontends.crayon_rails as crayon_frontend
from bot.client import ParlorBot
from tests.e2e.helpers import is_over, player_to_act, table
from tests.e2e.test_private_edits_e2e import building_game
from tests.fakediscord import CommandError, FakeDiscord
from tests.fakediscord.state import FakeChannel, FakeMessage


def files_in(fake: FakeDiscord, channels: list[FakeChannel]) -> list[str]:
    """Every file the bot sent in these channels (the fake keeps them all, edits included)."""
    ids = {channel.id for channel in channels}
    return [file.filename for message, file in fake.world.sent_files
            if message.author_id == fake.bot_user.id and message.channel_id in ids]


async def test_a_whole_john_henry_game_on_a_text_only_server(fake_discord: FakeDiscord, parlor: ParlorBot):
    fake = fake_discord
    alice, bob = fake.create_user("alice"), fake.create_user("bob")
    moderator = fake.create_user("mod", moderator=True)
    channel = fake.channel("games")
    with pytest.raises(CommandError, match="needs permissions"):
        await fake.slash(alice, "settings tables", channel=channel, mode="text")
    saved = await fake.slash(moderator, "settings tables", channel=channel, mode="text")
    assert saved.ephemeral and saved.response.content.startswith("Saved. This server's tables are text only")

    await fake.slash(alice, "game start", channel=channel, game="john-henry", opponent=bob)
    lobby = table(fake, channel)
    await fake.click(bob, lobby, lobby.button(label="Join")["custom_id"])
    shown: list[FakeMessage] = []
    for _ in range(400):
        board = table(fake, channel)
        if is_over(board):
            break
        assert not board.attachments and "image" not in board.embed, "no picture"
        assert "Golden spike" in board.embed["description"], "the state in words"
        player = player_to_act(board, [alice, bob])
        labels = [button["label"] for button in board.buttons()]
        assert "Roll" in labels or "Keep the 6" in labels, labels
        label = "Keep the 6" if "Keep the 6" in labels and len(shown) % 2 else "Roll"
        pressed = await fake.click(player, board, board.button(label=label)["custom_id"])
        assert not pressed.ephemeral, pressed.response.content
        shown.append(board)
    else:
        raise AssertionError("the game did not end")
    final = table(fake, channel)
    session = await parlor.host.last_session_in(str(channel.id))
    assert session.status == "finished" and f"<@{session.result['winners'][0]}>" in final.content
    assert [button["label"] for button in final.buttons()] == ["Rematch", "New game", "Replay"]
    assert not final.attachments and len(shown) > 5
    status = await fake.slash(bob, "game status", channel=channel)
    assert status.ephemeral and not status.response.attachments and "Golden spike" in status.response.text
    ranked = await fake.slash(alice, "leaderboard", channel=channel)
    assert ranked.ephemeral and "John Henry" in ranked.response.content and not ranked.response.attachments
    assert files_in(fake, [channel, fake.dm_channel(alice), fake.dm_channel(bob)]) == [], "no picture was sent"

    back = await fake.slash(moderator, "settings tables", channel=channel, mode="pictures")
    assert "picture" in back.response.content
    await fake.slash(alice, "game table", channel=channel)
    assert table(fake, channel).attachment("board.png").description.startswith("Board of John Henry")
    assert (await fake.slash(alice, "leaderboard", channel=channel)).response.attachment("leaderboard.png")


async def test_a_user_who_asks_for_text_gets_his_own_views_in_words(fake_discord: FakeDiscord, parlor: ParlorBot):
    """The public table stays a picture for everyone; Alice's status and her bones come as text, Bob's as pictures."""
    fake = fake_discord
    alice, bob = fake.create_user("alice"), fake.create_user("bob")
    channel = fake.channel("games")
    asked = await fake.slash(alice, "game view", channel=fake.dm_channel(alice), mode="text")
    assert asked.ephemeral and "one message for everyone" in asked.response.content
    await fake.slash(alice, "game start", channel=channel, game="johari-bones")
    lobby = table(fake, channel)
    await fake.click(bob, lobby, lobby.button(label="Join")["custom_id"])
    await fake.click(alice, table(fake, channel), table(fake, channel).button(label="Begin")["custom_id"])
    board = table(fake, channel)
    assert board.attachment("board.png"), "the table is the server's: a picture"

    [alice_panel] = fake.dms(alice)
    [bob_panel] = fake.dms(bob)
    assert not alice_panel.attachments and "face in" in alice_panel.content, "her bones in words"
    assert bob_panel.attachment("your-view.png").description.startswith("bob's private view")
    pictured = bob_panel.attachment("your-view.png").description
    for shown in ("pile", "turns left"):  # all his picture shows, hers in words
        assert shown in pictured and shown in alice_panel.content, shown
    assert "bob (blue square, you)" in pictured and "alice (orange circle, you)" in alice_panel.content
    mine = await fake.click(alice, board, board.button(label="Show my bones")["custom_id"])
    assert mine.ephemeral and not mine.response.attachments and "face in" in mine.response.content
    assert "pile" in mine.response.content and "alice (orange circle, you)" in mine.response.content
    theirs = await fake.click(bob, board, board.button(label="Show my bones")["custom_id"])
    assert theirs.response.attachment("your-view.png")
    status = await fake.slash(alice, "game status", channel=channel)
    assert not status.response.attachments and "Hand 1 of 10" in status.response.text
    assert (await fake.slash(bob, "game status", channel=channel)).response.attachment("board.png")

    await fake.slash(alice, "game view", channel=channel, mode="pictures")
    assert (await fake.slash(alice, "game status", channel=channel)).response.attachment("board.png")


async def test_a_build_preview_in_words_draws_no_picture(fake_discord: FakeDiscord, parlor: ParlorBot,
                                                      monkeypatch: pytest.MonkeyPatch):
    """A user who asked for text gets `/build to:`'s preview in words, and no picture is drawn for it at all."""
    fake = fake_discord
    alice, bob = fake.create_user("alice"), fake.create_user("bob")
    channel = fake.create_channel("rails-in-words")
    await building_game(fake, channel, alice, bob)
    drawn: list[list[str]] = []
    real = crayon_frontend.draw_build_preview

    def counted(view: dict, names: dict, path: list[str], caption: str) -> bytes:
        drawn.append(path)
        return real(view, names, path, caption)

    monkeypatch.setattr(crayon_frontend, "draw_build_preview", counted)
    [first, *_] = await fake.autocomplete(alice, "build", channel, focused="to", to="")

    await fake.slash(alice, "game view", channel=channel, mode="text")
    shown = await fake.slash(alice, "build", channel=channel, to=first["value"])
    assert shown.ephemeral and not shown.response.attachments and "image" not in shown.response.embed
    assert "sections from" in shown.response.embed["description"], "the preview in words"
    assert drawn == [], "nothing drawn that is not sent"

    await fake.slash(alice, "game view", channel=channel, mode="pictures")
    shown = await fake.slash(alice, "build", channel=channel, to=first["value"])
    assert shown.response.attachment("build-preview.png") and len(drawn) == 1

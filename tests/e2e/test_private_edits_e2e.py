"""A private reply edited from one step to the next shows exactly the new message (bot.discord.replies.as_edit).

Discord keeps what an edit leaves out, so an edit that sends no file used to keep the old picture (and the
old embed, whose image points at it). The `/build to:` preview is the private reply that goes from a
picture to words alone: Cancel, or Confirm, leaves a line of text, nothing of the preview.
"""

from __future__ import annotations

from bot.client import ParlorBot
from tests.e2e.helpers import latest_board
from tests.fakediscord import FakeDiscord
from tests.fakediscord.state import FakeChannel, FakeUser

SLUG = "crayon-rails"


async def building_game(fake: FakeDiscord, channel: FakeChannel, alice: FakeUser, bob: FakeUser) -> None:
    """Alice and Bob keep no card; Alice is to build."""
    await fake.slash(alice, "game start", channel=channel, game=SLUG, opponent=bob)
    lobby = fake.last_message(channel)
    await fake.click(bob, lobby, lobby.button(label="Join")["custom_id"])
    for user in (alice, bob):
        board = latest_board(fake, channel)
        kept = await fake.click(user, board, board.button(label="Keep none")["custom_id"])
        assert not kept.ephemeral, kept.response.content


async def preview(fake: FakeDiscord, channel: FakeChannel, user: FakeUser):
    """A `/build to:` preview toward the first city the command suggests, with its picture."""
    [first, *_] = await fake.autocomplete(user, "build", channel, focused="to", to="")
    shown = await fake.slash(user, "build", channel=channel, to=first["value"])
    message = shown.response
    assert shown.ephemeral and message.attachment("build-preview.png"), message.content
    assert message.embeds and message.buttons()
    return message


async def test_a_cancelled_or_confirmed_preview_keeps_no_picture_embed_or_buttons(fake_discord: FakeDiscord,
                                                                                 parlor: ParlorBot):
    alice, bob = fake_discord.create_user("alice"), fake_discord.create_user("bob")
    channel = fake_discord.create_channel("rails")
    await building_game(fake_discord, channel, alice, bob)

    shown = await preview(fake_discord, channel, alice)
    await fake_discord.click(alice, shown, shown.button(label="Cancel")["custom_id"])
    assert shown.content == "Build cancelled: nothing was built."
    assert (shown.attachments, shown.embeds, shown.buttons()) == ([], [], []), "only the new words are shown"

    shown = await preview(fake_discord, channel, alice)
    await fake_discord.click(alice, shown, shown.button(label="Confirm")["custom_id"])
    assert shown.content.startswith("Built")
    assert (shown.attachments, shown.embeds, shown.buttons()) == ([], [], []), "only the new words are shown"


async def test_a_stale_preview_shows_the_reason_alone(fake_discord: FakeDiscord, parlor: ParlorBot):
    """A preview's Confirm pressed once the turn has moved on is turned down in place: its picture, embed
    and buttons go, the reason stays."""
    alice, bob = fake_discord.create_user("alice"), fake_discord.create_user("bob")
    channel = fake_discord.create_channel("rails-late")
    await building_game(fake_discord, channel, alice, bob)
    shown = await preview(fake_discord, channel, alice)
    ended = await fake_discord.slash(alice, "endturn", channel=channel)
    assert not ended.ephemeral, ended.response.content
    await fake_discord.click(alice, shown, shown.button(label="Confirm")["custom_id"])
    assert shown.content and not shown.content.startswith("Built"), shown.content
    assert (shown.attachments, shown.embeds, shown.buttons()) == ([], [], []), "only the refusal is shown"

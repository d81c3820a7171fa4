"""Which permissions a table needs in a channel, and the refusal that names them (bot.discord.channel_access)."""

from __future__ import annotations

from types import SimpleNamespace

import discord
import pytest

from bot.discord.channel_access import cannot_show, missing_for_table, require_table_access
from bot.discord.channel_access import table_forbidden as forbidden_with_pictures
from bot.play.host import UserError
from bot.play.text_view import TextView

EVERYTHING = discord.Permissions(view_channel=True, send_messages=True, send_messages_in_threads=True,
                                 embed_links=True, attach_files=True)


def table_forbidden(granted: discord.Permissions, *, in_thread: bool) -> str:
    """The note on a refused table where tables carry a picture (a text-only server's: below)."""
    return forbidden_with_pictures(granted, in_thread=in_thread, pictures=True)


def without(**flags: bool) -> discord.Permissions:
    granted = discord.Permissions(EVERYTHING.value)
    granted.update(**{flag: False for flag in flags})
    return granted


def test_a_table_needs_to_see_the_channel_post_in_it_and_show_an_embed_and_its_picture():
    assert missing_for_table(EVERYTHING, in_thread=False, pictures=True) == []
    assert missing_for_table(discord.Permissions.none(), in_thread=False, pictures=True) == [
        "View Channel", "Send Messages", "Embed Links", "Attach Files"]
    assert missing_for_table(without(attach_files=True), in_thread=False, pictures=False) == [], "text only"


def test_in_a_thread_it_is_sending_in_threads_that_counts():
    assert missing_for_table(without(send_messages=True), in_thread=True, pictures=True) == []
    assert missing_for_table(without(send_messages_in_threads=True), in_thread=True, pictures=True) == [
        "Send Messages in Threads"]


def test_the_refusal_names_what_is_missing_who_can_grant_it_and_that_nothing_changed():
    one = cannot_show(["Attach Files"])
    assert one.startswith("I can't show a game in this channel: I don't have the Attach Files permission here.")
    assert "can allow it for Parlor" in one and one.endswith("Nothing was changed.")
    several = cannot_show(["Send Messages", "Embed Links", "Attach Files"])
    assert "the Send Messages, Embed Links and Attach Files permissions here" in several and "allow them" in several


def interaction(granted: discord.Permissions, guild_id: int | None = 1, channel_type=discord.ChannelType.text):
    return SimpleNamespace(app_permissions=granted, guild_id=guild_id, channel=SimpleNamespace(type=channel_type))


async def test_only_a_server_channel_that_says_what_it_lacks_is_refused(store):
    text_view = TextView(store)
    with pytest.raises(UserError, match="Attach Files permission"):
        await require_table_access(interaction(without(attach_files=True)), text_view)
    with pytest.raises(UserError, match="Send Messages in Threads"):
        await require_table_access(interaction(without(send_messages_in_threads=True),
                                               channel_type=discord.ChannelType.public_thread), text_view)
    await require_table_access(interaction(EVERYTHING), text_view)
    await require_table_access(interaction(discord.Permissions.none()), text_view)  # Discord did not say
    await require_table_access(interaction(without(send_messages=True), guild_id=None), text_view)  # a DM
    await text_view.set_server_text("1", True)
    await require_table_access(interaction(without(attach_files=True)), text_view)  # tables in words


def test_a_change_saved_but_its_table_refused_says_what_is_missing_when_discord_says():
    told = table_forbidden(without(embed_links=True, attach_files=True), in_thread=False)
    assert told.startswith("Done, but I can't update the game's table in this channel: I don't have the Embed "
                           "Links and Attach Files permissions here.")
    assert "Discord does not let me post here" in table_forbidden(discord.Permissions.none(), in_thread=False)


def test_a_text_only_servers_refused_table_does_not_ask_for_attach_files():
    told = forbidden_with_pictures(without(embed_links=True, attach_files=True), in_thread=False, pictures=False)
    assert "I don't have the Embed Links permission here." in told and "Attach Files" not in told


def test_a_table_refused_in_a_thread_names_send_messages_in_threads_not_send_messages():
    in_thread = table_forbidden(without(send_messages=True, send_messages_in_threads=True), in_thread=True)
    assert "I don't have the Send Messages in Threads permission here." in in_thread
    in_channel = table_forbidden(without(send_messages=True, send_messages_in_threads=True), in_thread=False)
    assert "I don't have the Send Messages permission here." in in_channel
    allowed_there = table_forbidden(without(send_messages=True), in_thread=True)
    assert "Discord does not let me post here" in allowed_there, "Send Messages is not what a thread lacks"


def test_in_a_thread_the_refusals_point_to_the_settings_of_the_channel_it_belongs_to():
    """A thread has no permission settings ("Edit Channel → Permissions" is its channel's): saying "someone who
    manages the channel" in a thread sent him looking for settings the thread does not have."""
    refused = cannot_show(["Send Messages in Threads"], in_thread=True)
    assert refused.startswith("I can't show a game in this thread: ")
    assert "takes its permissions from the channel it belongs to: someone who manages that channel" in refused
    told = table_forbidden(without(send_messages_in_threads=True), in_thread=True)
    assert "in this thread" in told and "the channel it belongs to" in told
    assert "belongs to" not in cannot_show(["Send Messages"]) + table_forbidden(without(embed_links=True),
                                                                                in_thread=False)

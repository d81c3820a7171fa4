"""Whether Parlor may show a game's table in an interaction's channel, from the permissions Discord sends.

A table is a message of the bot's in the channel: an embed, its buttons and, unless the server shows
tables as text (bot.text_view), a picture. Where the channel's permissions deny the bot any of that,
no game there could be seen: anything that would start or change one is refused up front
(`require_table_access`, in bot.actions `play`), saying which permissions to grant, and nothing
changes. Without it, `/game start` opened a lobby nobody could see, which held the channel.

The permissions are the interaction's `app_permissions` (the bot's, in that channel, overwrites
included), so the check costs no REST call. An interaction that carries none (value 0) is not refused.
In a thread, posting takes Send Messages in Threads (the channel's Send Messages does not count there),
and both the refusal and the note on a table refused after the change name that one.
"""

from __future__ import annotations

import discord

from bot.frontend import joined
from bot.host import UserError
from bot.text_view import TextView

UNKNOWN_CHANNEL = 10003
"""Discord's error code for a channel that no longer exists (deleted while the bot was away, say)."""

THREADS = (discord.ChannelType.public_thread, discord.ChannelType.private_thread, discord.ChannelType.news_thread)


def missing_for_table(granted: discord.Permissions, *, in_thread: bool, pictures: bool) -> list[str]:
    """The permissions a table needs that `granted` lacks, named as Discord's channel settings name them."""
    needed = [("view_channel", "View Channel"),
              ("send_messages_in_threads", "Send Messages in Threads") if in_thread
              else ("send_messages", "Send Messages"),
              ("embed_links", "Embed Links")]
    if pictures:
        needed.append(("attach_files", "Attach Files"))
    return [name for flag, name in needed if not getattr(granted, flag)]


def _lacking(missing: list[str]) -> str:
    plural = len(missing) > 1
    return (f"I don't have the {joined(missing)} permission{'s' if plural else ''} here. Someone who manages the "
            f"channel can allow {'them' if plural else 'it'} for Parlor (Edit Channel → Permissions)")


def cannot_show(missing: list[str]) -> str:
    """The refusal: what is missing, who can grant it, and what to do meanwhile."""
    return (f"I can't show a game in this channel: {_lacking(missing)}, or play in another channel. "
            "Nothing was changed.")


def in_a_thread(interaction: discord.Interaction) -> bool:
    """Whether the interaction comes from a thread (where posting takes Send Messages in Threads)."""
    return getattr(interaction.channel, "type", None) in THREADS


def table_forbidden(granted: discord.Permissions, *, in_thread: bool) -> str:
    """What the actor is told when his change is saved but Discord refused its table: which permissions
    are missing, as far as the interaction says."""
    missing = missing_for_table(granted, in_thread=in_thread, pictures=True) if granted.value else []
    lacking = _lacking(missing) if missing else "Discord does not let me post here"
    return f"Done, but I can't update the game's table in this channel: {lacking}."


async def require_table_access(interaction: discord.Interaction, text_view: TextView) -> None:
    """Refuse (UserError) an interaction in a server channel where Parlor could not show the game's table.
    The server's text-only setting is read only if Attach Files is what the bot lacks."""
    granted = interaction.app_permissions
    if interaction.guild_id is None or granted.value == 0:
        return
    pictures = granted.attach_files or await text_view.pictures_for(str(interaction.guild_id))
    missing = missing_for_table(granted, in_thread=in_a_thread(interaction), pictures=pictures)
    if missing:
        raise UserError(cannot_show(missing))


def channel_is_gone(error: BaseException) -> bool:
    """Whether Discord refused a call because its channel was deleted."""
    return isinstance(error, discord.NotFound) and error.code == UNKNOWN_CHANNEL

"""Whether Parlor may show a game's table in an interaction's channel, from the permissions Discord sends.

A table is a message of the bot's in the channel: an embed, its buttons and, unless the server shows
tables as text (bot.play.text_view), a picture. Where the channel's permissions deny the bot any of that,
no game there could be seen: anything that would start or change one is refused up front
(`require_table_access`, in bot.discord.actions `play`), saying which permissions to grant, and nothing
changes. Without it, `/game start` opened a lobby nobody could see, which held the channel.

The permissions are the interaction's `app_permissions` (the bot's, in that channel, overwrites
included), so the check costs no REST call. An interaction that carries none (value 0) is not refused.
In a thread, posting takes Send Messages in Threads (the channel's Send Messages does not count there),
and both the refusal and the note on a table refused after the change name that one, and send whoever
grants it to the settings of the channel the thread belongs to (a thread has no permissions of its own).
"""

from __future__ import annotations

import discord

from bot.play.host import UserError
from bot.play.text_view import TextView
from bot.presentation.frontend import joined

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


def _lacking(missing: list[str], *, in_thread: bool) -> str:
    """What is missing and where it is granted: a thread has no permissions of its own, it takes its channel's."""
    plural = len(missing) > 1
    lacking = f"I don't have the {joined(missing)} permission{'s' if plural else ''} here. "
    allow = f"can allow {'them' if plural else 'it'} for Parlor"
    if in_thread:
        return (f"{lacking}A thread takes its permissions from the channel it belongs to: someone who manages that "
                f"channel {allow} there (Edit Channel → Permissions)")
    return f"{lacking}Someone who manages the channel {allow} (Edit Channel → Permissions)"


def _here(in_thread: bool) -> str:
    return "this thread" if in_thread else "this channel"


def cannot_show(missing: list[str], *, in_thread: bool = False) -> str:
    """The refusal: what is missing, who can grant it, and what to do meanwhile."""
    return (f"I can't show a game in {_here(in_thread)}: {_lacking(missing, in_thread=in_thread)}, or play in "
            "another channel. Nothing was changed.")


def in_a_thread(interaction: discord.Interaction) -> bool:
    """Whether the interaction comes from a thread (where posting takes Send Messages in Threads)."""
    return getattr(interaction.channel, "type", None) in THREADS


def table_forbidden(granted: discord.Permissions, *, in_thread: bool, pictures: bool) -> str:
    """What the actor is told when his change is saved but Discord refused its table: which permissions
    are missing, as far as the interaction says (Attach Files only where tables carry a picture)."""
    missing = missing_for_table(granted, in_thread=in_thread, pictures=pictures) if granted.value else []
    lacking = _lacking(missing, in_thread=in_thread) if missing else "Discord does not let me post here"
    return f"Done, but I can't update the game's table in {_here(in_thread)}: {lacking}."


async def needs_attach_files(interaction: discord.Interaction, text_view: TextView) -> bool:
    """Whether a table here carries a picture, so Attach Files counts: not on a text-only server. The
    server's setting is read only if Attach Files is what the bot lacks."""
    return interaction.app_permissions.attach_files or await text_view.pictures_for(str(interaction.guild_id))


async def require_table_access(interaction: discord.Interaction, text_view: TextView) -> None:
    """Refuse (UserError) an interaction in a server channel where Parlor could not show the game's table."""
    granted = interaction.app_permissions
    if interaction.guild_id is None or granted.value == 0:
        return
    pictures = await needs_attach_files(interaction, text_view)
    in_thread = in_a_thread(interaction)
    missing = missing_for_table(granted, in_thread=in_thread, pictures=pictures)
    if missing:
        raise UserError(cannot_show(missing, in_thread=in_thread))


def channel_is_gone(error: BaseException) -> bool:
    """Whether Discord refused a call because its channel was deleted."""
    return isinstance(error, discord.NotFound) and error.code == UNKNOWN_CHANNEL

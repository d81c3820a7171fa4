"""`/game replay` and presses of the Replay button (bot.discord.buttons.ReplayButton) on a finished game's table:
the game's animated replay, answered to the asker alone with Share (bot.discord.share), as `/stats` is.

The replay itself is made and kept by bot.presentation.replays, off the event loop; one `Replays` per host.
Only the public table is ever replayed, so anyone on the server may ask for any of its finished games.
"""

from __future__ import annotations

import discord

from bot.discord.attachments import attachment
from bot.discord.dispatch import handles
from bot.discord.share import answer_privately, shareable
from bot.play.host import Host, UserError
from bot.presentation.replays import replayable, replays_of
from bot.storage.store import SessionRecord
from games import get_game


def _host(interaction: discord.Interaction) -> Host:
    """The bot's host (bot.discord.actions.host_of, which this module may not import: actions reach the table's
    buttons, and the buttons this one)."""
    return interaction.client.host  # type: ignore[attr-defined]


def _label(session: SessionRecord) -> str:
    return f"{get_game(session.slug).title} #{session.id}"


@handles("replay")
async def press_replay(interaction: discord.Interaction, session_id: int) -> None:
    """Replay on a finished game's table (bot.discord.buttons.ReplayButton): its replay, to the presser alone."""
    await answer_privately(interaction, "replay", str(session_id))


async def ask_replay(interaction: discord.Interaction, number: int | None) -> None:
    """`/game replay [game]`: the game named, else the channel's latest finished one (none: the answer says so)."""
    if number is None:
        session = await _host(interaction).last_game_in(str(interaction.channel_id), over=True)
        number = session.id if session is not None else None
    await answer_privately(interaction, "replay", "" if number is None else str(number))


@shareable("replay")
async def replay_answer(interaction: discord.Interaction, argument: str) -> dict:
    """The replay of game `argument` of the interaction's server: private first, the same when shared."""
    host = _host(interaction)
    if not argument:
        raise UserError("No game has ended in this channel yet: `/game replay` shows a finished game.")
    session = await host.store.session(int(argument)) if argument.isdigit() else None
    guild_id = str(interaction.guild_id) if interaction.guild_id else None
    if session is None or session.guild_id != guild_id:
        raise UserError(f"There is no game #{argument} on this server. `/game history` lists this channel's.")
    if why := replayable(session):
        raise UserError(f"{_label(session)} {why}.")
    made = await replays_of(host).replay(session)
    return {"content": f"The replay of {_label(session)}: {made.frames} frames.",
            "file": attachment(made.animation.data, made.filename, description=made.alt_text)}

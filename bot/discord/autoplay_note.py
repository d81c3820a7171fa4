"""How a move made for a player by autoplay (bot.play.autoplay) reaches Discord: a line in the game's channel
saying so, then the table and panels as after any move."""

from __future__ import annotations

import logging

import discord

from bot.discord.actions import game_channel, show_ai_move
from bot.play.host import MoveOutcome

log = logging.getLogger(__name__)

VERBS = {"roll": "Rolled"}


def autoplay_text(outcome: MoveOutcome, player: str, action_type: str = "roll") -> str:
    return f"🎲 {VERBS.get(action_type, 'Moved')} for <@{player}> (autoplay)."  # shown as his name, pinging nobody


async def show_autoplayed(client: discord.Client, outcome: MoveOutcome, player: str) -> None:
    try:
        await game_channel(client, outcome.session).send(autoplay_text(outcome, player),
                                                         allowed_mentions=discord.AllowedMentions.none())
    except discord.HTTPException:
        log.exception("could not say in session %s that a move was autoplayed", outcome.session.id)
    await show_ai_move(client, outcome)

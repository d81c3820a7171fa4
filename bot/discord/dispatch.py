"""Where a pressed persistent item hands its press: a handler by the kind of press.

The items (bot.discord.buttons, bot.discord.components) only read their custom_id; the modules that handle
presses (bot.discord.presses, bot.discord.actions) register their handlers here when imported, and the
client imports them at start-up. So an item never imports a handler, which builds items again: the items
sit below the handlers, with no import circle between them.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

import discord

PressHandler = Callable[..., Awaitable[None]]
HANDLERS: dict[str, PressHandler] = {}


def handles(kind: str) -> Callable[[PressHandler], PressHandler]:
    """Register the handler of presses of `kind` (its arguments: the interaction, then what the item read)."""

    def register(handler: PressHandler) -> PressHandler:
        HANDLERS[kind] = handler
        return handler

    return register


async def dispatch(kind: str, interaction: discord.Interaction, *press: Any) -> None:
    """Hand a press to its handler."""
    await HANDLERS[kind](interaction, *press)

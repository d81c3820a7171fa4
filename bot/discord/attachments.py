"""Files sent to Discord, each with its alt text (bot.presentation.alt_text builds the words)."""

from __future__ import annotations

import io

import discord

from bot.presentation.alt_text import shorten


def attachment(data: bytes, filename: str, *, description: str) -> discord.File:
    """A file to send, with its alt text (cut to Discord's limit); an empty description is a bug. The
    description is sent as given: the alt text builders make it plain, keeping names as written."""
    description = description.strip()
    if not description:
        raise ValueError(f"{filename} has no alt text")
    return discord.File(io.BytesIO(data), filename=filename, description=shorten(description))

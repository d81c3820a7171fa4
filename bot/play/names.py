"""Players' names in the host's own words: engines name players by id, a refusal names them as written."""

from __future__ import annotations

import re

from bot.storage.store import SessionRecord
from games.record import with_names

_MARKDOWN = re.compile(r"([\\*_~|`>#\[\]])")
"""What Discord's markdown reads in a name, backslash first: each escaped shows as written (and on a web page,
whose script reads Discord's escapes, bot.web.page_text)."""


def name_as_written(name: str) -> str:
    """A display name for Discord's text, escaped so that `**bob**` or `a_b_c` is not drawn as markup. (For the
    host, which imports no Discord: elsewhere `discord.utils.escape_markdown` does the same.)"""
    return _MARKDOWN.sub(r"\\\1", name)


def humanize(session: SessionRecord, message: str) -> str:
    """Engines name players by id; show their names instead, as written (escaped for Discord's markdown)."""
    return with_names(message, {seat.id: name_as_written(seat.name) for seat in session.players})

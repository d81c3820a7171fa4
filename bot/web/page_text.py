"""Text for a web page, as its script (static/parlor.js `rich`) draws it: Discord's **bold** and `code`, and a
backslash before a punctuation mark showing that mark as written (Discord's own escape); nothing else.

A page takes the table's Discord text as it is, escapes included, with each mention replaced by the
player's name escaped for the page (`page_names`): a name is never markup, so `**bob**` or `a*b*c`
appears as written, where a name put in raw was drawn bold. Anything else a page shows with names in
it (the move log, the answer to a press, a refusal) names them the same way.
"""

from __future__ import annotations

import re
from collections.abc import Mapping

from bot.presentation.words import named
from games.record import with_names

LONG_TEXT = 100_000
_MARKS = re.compile(r"([\\*`])")
"""What the page's script reads as markup: `**`, a backtick and a backslash (each escaped, the script needs no more)."""


def page_escaped(name: str) -> str:
    """A name as the page's script shows it as written."""
    return _MARKS.sub(r"\\\1", name)


def page_names(names: Mapping[str, str]) -> dict[str, str]:
    """Each player's name escaped for a page."""
    return {player: page_escaped(name) for player, name in names.items()}


def page_text(text: str, names: Mapping[str, str]) -> str:
    """Discord text for a page: each mention becomes the player's name (from `names`), escaped for it."""
    return named(text, page_names(names), LONG_TEXT)


def page_refusal(said: str, names: Mapping[str, str]) -> str:
    """A refusal for a page: players named by mention, or by id as an engine names them (`Host.humanize`)."""
    return with_names(page_text(said, names), page_names(names))

"""Discord's markdown escape, for the table's words that the web shows too.

The table's words are Discord text (bold, code, escaped names) in both windows: the web page takes them as
they are, escapes included (bot.web.page_text). So the web, which imports no `discord`, escapes names the
way `discord.utils.escape_markdown` does, with the same patterns (discord.py 2.x, its defaults); the Discord
window passes discord.py's own function (`escape=`), and tests/bot/test_markdown_escape.py checks they agree.
"""

from __future__ import annotations

import re
from collections.abc import Callable

Escape = Callable[[str], str]

_MARKDOWN_STOCK = r"(?P<markdown>[_\\~|\*`]|^>(?:>>)?\s|\[.+\]\(.+\)|^#{1,3}|^\s*-)"
_URL = r"(?P<url><[^: >]+:\/[^ >]+>|(?:https?|steam):\/\/[^\s<]+[^<.,:;\"\'\]\s])"
_ESCAPED = re.compile(f"(?:{_URL}|{_MARKDOWN_STOCK})", re.MULTILINE)


def markdown_escaped(text: str) -> str:
    """`text` shown as written in Discord's markdown: each mark escaped with a backslash, links left alone."""
    return _ESCAPED.sub(lambda match: match["url"] or "\\" + match["markdown"], text)

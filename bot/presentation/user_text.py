"""Replies that quote what a user typed stay short and within Discord's limits, whatever he typed.

A refusal may quote the user's own text (`/build to:`, `/keep cards:`); an option value can be 6,000
characters, a message only 2,000. So every refusal is bounded here on its way out: the user's long
option values (and any other run of text without spaces) are cut to a short prefix, and the whole is
capped below Discord's limit. Engines and frontends quote with `games.core.quoted`, which cuts too;
this is the net under the places that do not.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any

from games.core import QUOTE_LIMIT, quoted

MESSAGE_MAX = 2000
"""Discord's limit on a message's content: every reply Parlor writes is cut or paged to it."""
REFUSAL_LIMIT = 600
"""A refusal says what to do in a few lines; more is a quote that ran away."""
LONG_WORD = 60


def typed_values(data: Mapping[str, Any] | None) -> Iterator[str]:
    """Every text value the user typed into an interaction: command options and form fields."""
    stack: list[Any] = [data or {}]
    while stack:
        item = stack.pop()
        if isinstance(item, Mapping):
            value = item.get("value")
            if isinstance(value, str):
                yield value
            stack.extend(item.get("options") or [])
            stack.extend(item.get("components") or [])
            if isinstance(item.get("component"), Mapping):
                stack.append(item["component"])


def _cut(text: str, limit: int) -> str:
    return text if len(text) <= limit else text[: max(0, limit - 1)] + "…"


def _cut_long_words(message: str) -> str:
    return " ".join(word if len(word) <= LONG_WORD else _cut(word, QUOTE_LIMIT) for word in message.split(" "))


def bounded_refusal(message: str, typed: Iterator[str] | list[str] = ()) -> str:
    """`message` with the user's long text cut to a short prefix, and short enough for one reply."""
    for value in sorted(set(typed), key=len, reverse=True):
        if len(value) <= QUOTE_LIMIT:
            continue
        for form in (repr(value), repr(value.strip()), value, value.strip(), value.lower(), value.strip().lower()):
            if len(form) > QUOTE_LIMIT and form in message:
                message = message.replace(form, quoted(value) if form.startswith("'") else _cut(form, QUOTE_LIMIT))
    return _cut(_cut_long_words(message), REFUSAL_LIMIT)

"""A table's message as the REST request that shows it, built whole before it is sent (issue 24).

discord.py builds a message's multipart body as its request goes out (aiohttp's FormData: a part at a
time, one write each). A move's table is written while the move's commit is in flight (bot.discord.table), so
its request is built then too, as one body: once the commit is done, what is left is the call itself,
one write on the socket. The request still goes through discord.py's HTTP client (its authentication,
rate limits and retries), with the payload discord.py itself builds for `send` or `edit`
(`handle_message_parameters`) and the same parts: `payload_json`, then `files[n]`.

A table's items are all persistent (`DynamicItem`s, dispatched by their custom ids: bot.discord.buttons,
bot.discord.components), so no view is kept for the message, as discord.py's own `send` would.
"""

from __future__ import annotations

import uuid
from typing import Any, NamedTuple

import discord
from aiohttp.payload import BytesPayload
from discord.http import Route, handle_message_parameters

from bot.discord.replies import as_edit


class TableRequest(NamedTuple):
    """The request that shows a message: an edit of the table in place, or a new message."""

    edit: bool
    body: dict[str, Any]
    """Keyword arguments for `discord.http.HTTPClient.request`: JSON, or one multipart payload."""


def built(message: dict[str, Any], allowed_mentions: discord.AllowedMentions | None, *, edit: bool) -> TableRequest:
    """The request that shows `message` (`send` keyword arguments): as a new message, or as an `edit` that
    shows exactly it (bot.discord.replies `as_edit`).
    `allowed_mentions`: the client's own, merged as discord.py does."""
    fields = as_edit(message) if edit else message
    previous = allowed_mentions if fields.get("content") is not None else None
    params = handle_message_parameters(**fields, previous_allowed_mentions=previous)
    if not params.files:
        return TableRequest(edit, {"json": params.payload})
    return TableRequest(edit, {"data": _multipart(params.multipart)})


def _multipart(fields: list[dict[str, Any]]) -> BytesPayload:
    """discord.py's form fields (`payload_json`, then each file) as one multipart/form-data body, part for
    part as aiohttp's FormData writes them when discord.py sends a message itself."""
    boundary = uuid.uuid4().hex
    chunks: list[bytes] = []
    for field in fields:
        disposition = f'form-data; name="{_quoted(field["name"])}"'
        value = field["value"]
        if "filename" in field:
            disposition += f'; filename="{_quoted(field["filename"])}"'
            start = value.tell()
            data = value.read()
            value.seek(start)  # read, not used up: the message can still be sent another way
        else:
            data = value.encode()
        content_type = field.get("content_type", "text/plain; charset=utf-8")
        head = f"--{boundary}\r\nContent-Type: {content_type}\r\nContent-Disposition: {disposition}\r\n\r\n"
        chunks += [head.encode(), data, b"\r\n"]
    chunks.append(f"--{boundary}--\r\n".encode())
    return BytesPayload(b"".join(chunks), content_type=f"multipart/form-data; boundary={boundary}")


def _quoted(value: str) -> str:
    return value.replace("\\", "\\\\").replace('"', '\\"')


async def sent(client: discord.Client, channel_id: int, message_id: str | None, request: TableRequest) -> str:
    """Send `request`: edit message `message_id` in place (discord.NotFound if it is gone), or post a new
    message. The id of the message that shows it."""
    if request.edit:
        route = Route("PATCH", "/channels/{channel_id}/messages/{message_id}", channel_id=channel_id,
                      message_id=int(message_id or 0))
    else:
        route = Route("POST", "/channels/{channel_id}/messages", channel_id=channel_id)
    return str((await client.http.request(route, **request.body))["id"])

"""A table's request, built whole ahead of its sending (bot.discord.table_request), is the request discord.py
sends for the same message itself: the same payload, and a multipart body part for part as aiohttp's
FormData writes it (only the boundary differs)."""

from __future__ import annotations

import io
import re

import aiohttp
import discord
from discord.http import handle_message_parameters

from bot.discord import table_request
from bot.discord.replies import as_edit


def message(picture: bytes | None) -> dict:
    view = discord.ui.View(timeout=None)
    view.add_item(discord.ui.Button(label="Roll", custom_id="parlor:test:roll"))
    sent = {"content": "<@101>: your turn.", "embed": discord.Embed(title="John Henry", description="A roll."),
            "view": view, "allowed_mentions": discord.AllowedMentions(users=[discord.Object(101)])}
    if picture is not None:
        sent["file"] = discord.File(io.BytesIO(picture), filename="board.png", description="The board: a race.")
    return sent


async def as_discord_py_sends_it(fields: dict) -> tuple[str, bytes] | dict:
    """The body discord.py's HTTP client sends for these `send`/`edit` keyword arguments."""
    params = handle_message_parameters(**fields)
    if not params.files:
        return params.payload
    form = aiohttp.FormData(quote_fields=False)
    for field in params.multipart:
        form.add_field(**field)
    writer = form()
    return writer.content_type, await writer.as_bytes()


def unbounded(content_type: str, body: bytes) -> bytes:
    boundary = re.search(r"boundary=(\S+)", content_type).group(1)
    return body.replace(boundary.encode(), b"BOUNDARY")


async def test_a_table_with_a_picture_is_sent_as_discord_py_would_send_it_as_a_new_message_or_an_edit():
    picture = b"\x89PNG fake picture bytes " * 100
    for edit in (False, True):
        request = table_request.built(message(picture), None, edit=edit)
        assert request.edit is edit
        payload = request.body["data"]
        content_type, expected = await as_discord_py_sends_it(as_edit(message(picture)) if edit else message(picture))
        assert payload.content_type.startswith("multipart/form-data; boundary=")
        assert unbounded(payload.content_type, payload._value) == unbounded(content_type, expected)
        assert b"The board: a race." in payload._value, "the picture's alt text goes with it"


async def test_a_table_without_a_picture_is_plain_json_and_reading_its_file_uses_nothing_up():
    request = table_request.built(message(None), None, edit=False)
    assert request.body == {"json": await as_discord_py_sends_it(message(None))}
    edit = table_request.built(message(None), None, edit=True)
    assert edit.body["json"]["attachments"] == [] and edit.body["json"]["embeds"], "an edit replaces what was there"

    shown = message(b"picture")
    table_request.built(shown, None, edit=False)
    assert shown["file"].fp.read() == b"picture", "the message can still be sent another way"

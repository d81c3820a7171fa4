"""Reading message bodies (JSON or multipart with payload_json + files[n]) and applying them to messages."""

from __future__ import annotations

import json
import mimetypes
import re
from dataclasses import dataclass
from typing import Any

from aiohttp import web

from tests.fakediscord import validation
from tests.fakediscord.state import EPHEMERAL, LOADING, FakeAttachment, FakeMessage, World, now_iso

FILE_FIELD = re.compile(r"files\[(\d+)\]")
SETTABLE_FLAGS = EPHEMERAL | (1 << 2) | (1 << 12) | validation.COMPONENTS_V2
RAW_BODY = web.RequestKey("raw_body", bytearray)
"""Where the server records a request's body (`World.requests`); a multipart body's parts are added here."""


@dataclass
class Upload:
    filename: str
    data: bytes


async def read_body(request: web.Request) -> tuple[dict[str, Any], dict[int, Upload]]:
    """The JSON payload and the uploaded files by index, whichever way discord.py sent them."""
    if request.content_type.startswith("multipart/"):
        payload: dict[str, Any] = {}
        files: dict[int, Upload] = {}
        reader = await request.multipart()
        while (part := await reader.next()) is not None:
            name = part.name or ""  # type: ignore[union-attr]
            data = await part.read(decode=False)  # type: ignore[union-attr]
            request.get(RAW_BODY, bytearray()).extend(data)
            if name == "payload_json":
                payload = json.loads(data)
            elif match := FILE_FIELD.fullmatch(name):
                files[int(match.group(1))] = Upload(part.filename or name, bytes(data))  # type: ignore[union-attr]
        return payload, files
    raw = await request.read()  # cached by the server's middleware, which records every body
    return (json.loads(raw) if raw else {}), {}


def _new_attachments(world: World, entries: list[dict[str, Any]], files: dict[int, Upload]) -> list[FakeAttachment]:
    """Files referenced by `attachments` entries (index ids), then any uploaded file not referenced."""
    made: list[FakeAttachment] = []
    used: set[int] = set()
    for entry in entries:
        index = entry.get("id")
        if isinstance(index, int) and index in files:
            used.add(index)
            made.append(_attachment(world, files[index], entry.get("filename"), entry.get("description")))
    made += [_attachment(world, upload, None, None) for index, upload in sorted(files.items()) if index not in used]
    return made


def _attachment(world: World, upload: Upload, filename: str | None, description: str | None) -> FakeAttachment:
    name = filename or upload.filename
    return FakeAttachment(
        id=world.snowflake(),
        filename=name,
        data=upload.data,
        description=description,
        content_type=mimetypes.guess_type(name)[0],
    )


MENTION = re.compile(r"<@!?(\d+)>")


def pings(body: dict[str, Any]) -> list[int]:
    """The users a new message notifies: mentioned in its content and allowed by `allowed_mentions`
    (absent, Discord notifies every user mentioned)."""
    mentioned = [int(m) for m in MENTION.findall(body.get("content") or "")]
    allowed = body.get("allowed_mentions")
    if allowed is None or "users" in (allowed.get("parse") or []):
        return list(dict.fromkeys(mentioned))
    users = {int(u) for u in allowed.get("users") or []}
    return list(dict.fromkeys(m for m in mentioned if m in users))


def create(
    world: World,
    body: dict[str, Any],
    files: dict[int, Upload],
    *,
    channel_id: int,
    author_id: int,
    **recorded: Any,
) -> FakeMessage:
    """A new message from a create body; `recorded` sets the fake's own fields (visible_to, interaction_id...)."""
    validation.check_message(body, has_files=bool(files), editing=False)
    message = FakeMessage(
        id=world.snowflake(),
        channel_id=channel_id,
        author_id=author_id,
        content=body.get("content") or "",
        embeds=body.get("embeds") or [],
        components=body.get("components") or [],
        attachments=_new_attachments(world, body.get("attachments") or [], files),
        flags=(body.get("flags") or 0) & SETTABLE_FLAGS,
        pinged=pings(body),
        **recorded,
    )
    world.sent_files.extend((message, attachment) for attachment in message.attachments)
    return world.add_message(message)


def edit(world: World, message: FakeMessage, body: dict[str, Any], files: dict[int, Upload]) -> FakeMessage:
    """Apply a PATCH: only the keys present change; `attachments` lists which old ones stay."""
    validation.check_message(body, has_files=bool(files), editing=True)
    if "content" in body:
        message.content = body["content"] or ""
    if "embeds" in body:
        message.embeds = body["embeds"] or []
    if "components" in body:
        message.components = body["components"] or []
    if "flags" in body and body["flags"] is not None:
        message.flags = (message.flags & EPHEMERAL) | (body["flags"] & SETTABLE_FLAGS & ~EPHEMERAL)
    if "attachments" in body:
        keep = {str(e.get("id")) for e in body["attachments"] or []}
        kept = [a for a in message.attachments if str(a.id) in keep]
        added = _new_attachments(world, body["attachments"] or [], files)
        message.attachments = kept + added
    else:
        added = _new_attachments(world, [], files) if files else []
        message.attachments = message.attachments + added
    world.sent_files.extend((message, attachment) for attachment in added)
    message.flags &= ~LOADING
    message.edits += 1
    message.edited_timestamp = now_iso()
    world.message_event("MESSAGE_UPDATE", message)
    return message

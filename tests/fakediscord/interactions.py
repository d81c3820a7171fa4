"""Interactions: the payloads dispatched to the bot, and what the bot answered (callback, edits, follow-ups).

One `InteractionResult` per interaction is both the record the fake's REST routes update and what the
test API returns, so a test reads the bot's answer straight from it.
"""

from __future__ import annotations

import secrets
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from tests.fakediscord import errors, messages, payloads, validation
from tests.fakediscord import permissions as perms
from tests.fakediscord.messages import Upload
from tests.fakediscord.state import EPHEMERAL, LOADING, FakeChannel, FakeMessage, FakeUser, World

APPLICATION_COMMAND, MESSAGE_COMPONENT, AUTOCOMPLETE, MODAL_SUBMIT = 2, 3, 4, 5
MESSAGE, DEFERRED_MESSAGE, DEFERRED_UPDATE, UPDATE_MESSAGE, AUTOCOMPLETE_RESULT, MODAL = 4, 5, 6, 7, 8, 9
LAUNCH_ACTIVITY = 12
ALLOWED_CALLBACKS = {
    APPLICATION_COMMAND: {MESSAGE, DEFERRED_MESSAGE, MODAL, LAUNCH_ACTIVITY},
    MESSAGE_COMPONENT: {MESSAGE, DEFERRED_MESSAGE, DEFERRED_UPDATE, UPDATE_MESSAGE, MODAL, LAUNCH_ACTIVITY},
    AUTOCOMPLETE: {AUTOCOMPLETE_RESULT},
    MODAL_SUBMIT: {MESSAGE, DEFERRED_MESSAGE, DEFERRED_UPDATE, UPDATE_MESSAGE},
}
CHAT_INPUT_COMMAND_MESSAGE = 20
ATTACHMENT_SIZE_LIMIT = 10 * 1024 * 1024
CHOICES_MAX = 25


@dataclass(eq=False)
class InteractionResult:
    """What one interaction produced.

    `response` is the original response: the message a type-4 reply created, the "thinking" message
    of a type-5 deferral once the bot edited it or sent its first follow-up (which replaces it, as on
    Discord), or for a component/modal answered with type 6/7 the message that was updated.
    `followups` are the messages posted to the interaction webhook, in order. `modal` is the modal the
    bot opened (type 9) and `choices` the autocomplete answer (type 8).
    """

    id: int
    token: str
    type: int
    user: FakeUser
    channel: FakeChannel
    payload: dict[str, Any] = field(repr=False)
    world: World = field(repr=False)
    source_message: FakeMessage | None = None
    callback_type: int | None = None
    response: FakeMessage | None = None
    followups: list[FakeMessage] = field(default_factory=list)
    modal: dict[str, Any] | None = None
    choices: list[dict[str, Any]] | None = None
    created_at: float = 0.0
    acknowledged_at: float | None = None
    """When the bot's acknowledgement arrived (the world's clock)."""
    edits_at_ack: int = 0
    late: bool = False
    """The bot tried to respond after the deadline and was refused, as Discord refuses it."""

    @property
    def acknowledged(self) -> bool:
        return self.callback_type is not None

    @property
    def deferred(self) -> bool:
        return self.callback_type in (DEFERRED_MESSAGE, DEFERRED_UPDATE)

    @property
    def thinking(self) -> bool:
        """Deferred with type 5 and not yet answered: the user still sees "Bot is thinking..."."""
        return self.response is not None and self.response.loading and not self.response.deleted

    @property
    def updated(self) -> bool:
        """After a type-6 deferral: the bot has since edited (or deleted) the message, or followed up."""
        source = self.source_message
        return bool(self.followups) or source is None or source.deleted or source.edits > self.edits_at_ack

    @property
    def ephemeral(self) -> bool:
        """The response is a private message still there (a deleted "thinking…" answered nothing)."""
        return self.response is not None and self.response.ephemeral and not self.response.deleted

    @property
    def messages(self) -> list[FakeMessage]:
        """The response (once it is more than a placeholder, and not deleted) and every follow-up."""
        found = [] if self.response is None or self.response.loading or self.response.deleted else [self.response]
        return found + [m for m in self.followups if m is not self.response]

    @property
    def text(self) -> str:
        return "\n".join(m.text for m in self.messages)

    async def wait_for_followup(
        self, predicate: Callable[[FakeMessage], bool] | None = None, timeout: float = 5.0
    ) -> FakeMessage:
        def check() -> FakeMessage | None:
            return next((m for m in self.followups if predicate is None or predicate(m)), None)

        return await self.world.wait_until(check, timeout, f"a follow-up to interaction {self.id}")


def new_result(
    world: World,
    kind: int,
    user: FakeUser,
    channel: FakeChannel,
    data: dict[str, Any],
    source_message: FakeMessage | None = None,
) -> InteractionResult:
    result = InteractionResult(
        id=world.snowflake(),
        token=f"aW50ZXJhY3Rpb24{secrets.token_urlsafe(48)}",
        type=kind,
        user=user,
        channel=channel,
        payload={},
        world=world,
        source_message=source_message,
        created_at=world.clock(),
    )
    result.payload = _payload(world, result, data)
    return result


def _payload(world: World, result: InteractionResult, data: dict[str, Any]) -> dict[str, Any]:
    bot = world.bot_user
    channel = result.channel
    payload: dict[str, Any] = {
        "id": str(result.id),
        "application_id": str(bot.id),
        "type": result.type,
        "data": data,
        "token": result.token,
        "version": 1,
        "locale": "en-US",
        "entitlements": [],
        "attachment_size_limit": ATTACHMENT_SIZE_LIMIT,
        "channel_id": str(channel.id),
        "channel": payloads.channel(world, channel, viewer=None if channel.is_dm else result.user),
    }
    if channel.is_dm:
        payload["user"] = payloads.user(result.user)
        payload["context"] = 1
        payload["authorizing_integration_owners"] = {"0": "0"}
        payload["app_permissions"] = str(perms.BOT)
    else:
        guild = world.guild_of(channel) or world.guild
        payload["guild_id"] = str(guild.id)
        payload["guild"] = {"id": str(guild.id), "locale": "en-US", "features": []}
        payload["guild_locale"] = "en-US"
        payload["member"] = payloads.member(world, result.user, with_permissions=True, guild=guild)
        payload["context"] = 0
        payload["authorizing_integration_owners"] = {"0": str(guild.id)}
        payload["app_permissions"] = str(world.bot_permissions_in(channel))
    if result.source_message is not None:
        payload["message"] = payloads.message(world, result.source_message)
    return payload


class InteractionLog:
    """Every interaction sent, found by id (callbacks) or token (webhook routes)."""

    def __init__(self, world: World) -> None:
        self._world = world
        self.by_id: dict[int, InteractionResult] = {}
        self.by_token: dict[str, InteractionResult] = {}

    def add(self, result: InteractionResult) -> None:
        self.by_id[result.id] = result
        self.by_token[result.token] = result

    def for_callback(self, interaction_id: str, token: str) -> InteractionResult:
        result = self.by_id.get(int(interaction_id)) if interaction_id.isdigit() else None
        if result is None or result.token != token:
            raise errors.unknown("interaction", errors.UNKNOWN_INTERACTION)
        return result

    def for_webhook(self, application_id: str, token: str) -> InteractionResult:
        result = self.by_token.get(token)
        if result is None or application_id != str(self._world.bot_user.id) or not result.acknowledged:
            raise errors.unknown("Webhook", errors.UNKNOWN_WEBHOOK)
        return result


def acknowledge(world: World, result: InteractionResult, body: dict[str, Any], files: dict[int, Upload]) -> dict:
    """Apply the interaction callback (POST /interactions/{id}/{token}/callback); returns the ?with_response body."""
    if result.acknowledged:
        raise errors.DiscordHTTPError(400, errors.ALREADY_ACKNOWLEDGED, "Interaction has already been acknowledged.")
    if world.clock() - result.created_at > world.response_deadline:
        result.late = True
        world.changed()
        raise errors.unknown("interaction", errors.UNKNOWN_INTERACTION)
    kind = body.get("type")
    if kind not in ALLOWED_CALLBACKS[result.type] or (
        kind in (DEFERRED_UPDATE, UPDATE_MESSAGE) and result.source_message is None
    ):
        raise errors.invalid_form(f"callback type {kind} is not valid for interaction type {result.type}")
    result.acknowledged_at = world.clock()
    data = body.get("data") or {}
    if kind == MESSAGE:
        result.response = _reply(world, result, data, files)
    elif kind == DEFERRED_MESSAGE:
        result.response = _placeholder(world, result, ephemeral=bool((data.get("flags") or 0) & EPHEMERAL))
    elif kind in (DEFERRED_UPDATE, UPDATE_MESSAGE):
        result.response = result.source_message
        result.edits_at_ack = result.source_message.edits if result.source_message is not None else 0
        if kind == UPDATE_MESSAGE and result.source_message is not None:
            messages.edit(world, result.source_message, data, files)
    elif kind == AUTOCOMPLETE_RESULT:
        choices = data.get("choices") or []
        if len(choices) > CHOICES_MAX:
            raise errors.invalid_form(f"{len(choices)} autocomplete choices, more than {CHOICES_MAX}")
        result.choices = choices
    elif kind == LAUNCH_ACTIVITY:
        if not world.activities:
            raise errors.DiscordHTTPError(400, 50235, "This application cannot launch an Activity here.")
    else:
        validation.check_modal(data)
        result.modal = data
    result.callback_type = kind
    world.changed()
    return _callback_body(world, result, kind)


def _callback_body(world: World, result: InteractionResult, kind: int) -> dict[str, Any]:
    interaction: dict[str, Any] = {"id": str(result.id), "type": result.type}
    resource: dict[str, Any] = {"type": kind}
    if result.response is not None:
        interaction["response_message_id"] = str(result.response.id)
        interaction["response_message_loading"] = result.response.loading
        interaction["response_message_ephemeral"] = result.response.ephemeral
        if kind in (MESSAGE, UPDATE_MESSAGE):
            resource["message"] = payloads.message(world, result.response)
    return {"interaction": interaction, "resource": resource}


def _reply(
    world: World, result: InteractionResult, body: dict[str, Any], files: dict[int, Upload], *, followup: bool = False
) -> FakeMessage:
    ephemeral = bool((body.get("flags") or 0) & EPHEMERAL)
    return messages.create(
        world,
        body,
        files,
        channel_id=result.channel.id,
        author_id=world.bot_user.id,
        visible_to=result.user.id if ephemeral else None,
        type=CHAT_INPUT_COMMAND_MESSAGE if result.type == APPLICATION_COMMAND and not followup else 0,
        webhook_id=world.bot_user.id,
        interaction_id=result.id,
        interaction_user_id=result.user.id,
        interaction_type=result.type,
    )


def _placeholder(world: World, result: InteractionResult, *, ephemeral: bool) -> FakeMessage:
    message = FakeMessage(
        id=world.snowflake(),
        channel_id=result.channel.id,
        author_id=world.bot_user.id,
        flags=LOADING | (EPHEMERAL if ephemeral else 0),
        type=CHAT_INPUT_COMMAND_MESSAGE if result.type == APPLICATION_COMMAND else 0,
        visible_to=result.user.id if ephemeral else None,
        webhook_id=world.bot_user.id,
        interaction_id=result.id,
        interaction_user_id=result.user.id,
        interaction_type=result.type,
    )
    return world.add_message(message)


def followup(world: World, result: InteractionResult, body: dict[str, Any], files: dict[int, Upload]) -> FakeMessage:
    """POST /webhooks/{app}/{token}: the first follow-up after a type-5 deferral replaces the thinking message."""
    if result.thinking and result.response is not None:
        message = messages.edit(world, result.response, {k: v for k, v in body.items() if k != "flags"}, files)
        message.pinged = messages.pings(body)
    else:
        message = _reply(world, result, body, files, followup=True)
    result.followups.append(message)
    world.changed()
    return message


def webhook_message(result: InteractionResult, message_id: str) -> FakeMessage:
    """The message a webhook route names: @original or one of this interaction's follow-ups."""
    if message_id == "@original":
        found = result.response
    else:
        found = next((m for m in result.followups if str(m.id) == message_id), None)
        if found is None and result.response is not None and str(result.response.id) == message_id:
            found = result.response
    if found is None or found.deleted:
        raise errors.unknown("Message", errors.UNKNOWN_MESSAGE)
    return found

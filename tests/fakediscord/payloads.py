"""The JSON shapes Discord sends, built from the recorded world (field names as in Discord's API v10)."""

from __future__ import annotations

from typing import Any

from tests.fakediscord.state import (
    FakeAttachment,
    FakeChannel,
    FakeGuild,
    FakeMessage,
    FakeRole,
    FakeUser,
    World,
    now_iso,
)


def user(u: FakeUser) -> dict[str, Any]:
    return {
        "id": str(u.id),
        "username": u.name,
        "global_name": None if u.bot else u.name,
        "discriminator": "0",
        "avatar": None,
        "bot": u.bot,
        "system": False,
        "public_flags": 0,
    }


def client_user(u: FakeUser) -> dict[str, Any]:
    return {**user(u), "verified": True, "mfa_enabled": False, "flags": 0, "email": None, "locale": "en-US"}


def member(world: World, u: FakeUser, *, with_user: bool = True, with_permissions: bool = False,
           guild: FakeGuild | None = None) -> dict[str, Any]:
    guild = guild or world.guild
    in_guild = {r.id for r in guild.roles}
    data: dict[str, Any] = {
        "roles": [str(r) for r in u.role_ids if r in in_guild],
        "nick": None,
        "avatar": None,
        "banner": None,
        "joined_at": u.joined_at,
        "premium_since": None,
        "deaf": False,
        "mute": False,
        "pending": False,
        "flags": 0,
        "communication_disabled_until": None,
    }
    if with_user:
        data["user"] = user(u)
    if with_permissions:
        data["permissions"] = str(world.permissions_of(u, guild))
    return data


def role(r: FakeRole) -> dict[str, Any]:
    return {
        "id": str(r.id),
        "name": r.name,
        "color": 0,
        "colors": {"primary_color": 0, "secondary_color": None, "tertiary_color": None},
        "hoist": False,
        "icon": None,
        "unicode_emoji": None,
        "position": r.position,
        "permissions": str(r.permissions),
        "managed": r.name == "Parlor",
        "mentionable": False,
        "flags": 0,
    }


def channel(world: World, c: FakeChannel, *, viewer: FakeUser | None = None) -> dict[str, Any]:
    """A channel object; `viewer` adds the `permissions` field interactions carry for the invoking user."""
    last = world.channel_messages(c.id)
    last_id = str(last[-1].id) if last else None
    if c.is_dm:
        recipient = world.users[c.recipient_id or 0]
        return {"id": str(c.id), "type": 1, "last_message_id": last_id, "flags": 0, "recipients": [user(recipient)]}
    data: dict[str, Any] = {
        "id": str(c.id),
        "type": c.type,
        "guild_id": str(c.guild_id),
        "name": c.name,
        "position": c.position,
        "permission_overwrites": [],
        "topic": None,
        "nsfw": False,
        "last_message_id": last_id,
        "rate_limit_per_user": 0,
        "parent_id": None,
        "flags": 0,
    }
    if c.is_thread:
        data.update(parent_id=str(c.parent_id), owner_id=str(world.bot_user.id), message_count=len(last),
                    member_count=1, thread_metadata={"archived": False, "auto_archive_duration": 1440,
                                                     "archive_timestamp": now_iso(), "locked": False})
    if viewer is not None:
        data["permissions"] = str(world.permissions_of(viewer, world.guild_of(c)))
    return data


def guild_create(world: World, g: FakeGuild | None = None) -> dict[str, Any]:
    g = g or world.guild
    members = world.members()
    return {
        "id": str(g.id),
        "name": g.name,
        "icon": None,
        "splash": None,
        "discovery_splash": None,
        "banner": None,
        "description": None,
        "owner_id": str(g.owner_id),
        "afk_channel_id": None,
        "afk_timeout": 300,
        "verification_level": 0,
        "default_message_notifications": 0,
        "explicit_content_filter": 0,
        "mfa_level": 0,
        "nsfw_level": 0,
        "premium_tier": 0,
        "premium_subscription_count": 0,
        "premium_progress_bar_enabled": False,
        "preferred_locale": "en-US",
        "system_channel_id": None,
        "system_channel_flags": 0,
        "rules_channel_id": None,
        "public_updates_channel_id": None,
        "safety_alerts_channel_id": None,
        "vanity_url_code": None,
        "application_id": None,
        "max_members": 500000,
        "features": [],
        "roles": [role(r) for r in g.roles],
        "emojis": [],
        "stickers": [],
        "joined_at": world.bot_user.joined_at,
        "large": False,
        "unavailable": False,
        "member_count": len(members),
        "members": [member(world, m, guild=g) for m in members],
        "channels": [channel(world, c) for c in world.guild_channels(g)],
        "threads": [channel(world, c) for c in world.guild_threads(g)],
        "presences": [],
        "voice_states": [],
        "stage_instances": [],
        "guild_scheduled_events": [],
        "soundboard_sounds": [],
    }


def attachment(world: World, message: FakeMessage, a: FakeAttachment) -> dict[str, Any]:
    return attachment_in(world, message.channel_id, a, ephemeral=message.ephemeral)


def attachment_in(world: World, channel_id: int, a: FakeAttachment, *, ephemeral: bool = False) -> dict[str, Any]:
    """An attachment as Discord describes it: in a message, or a file attached to a command option."""
    url = f"{world.base_url}/attachments/{channel_id}/{a.id}/{a.filename}"
    data: dict[str, Any] = {
        "id": str(a.id),
        "filename": a.filename,
        "size": a.size,
        "url": url,
        "proxy_url": url,
        "content_type": a.content_type,
        "flags": 0,
    }
    if a.description is not None:
        data["description"] = a.description
    if ephemeral:
        data["ephemeral"] = True
    return data


def message(world: World, m: FakeMessage, *, gateway: bool = False) -> dict[str, Any]:
    """A message object; `gateway` adds guild_id and member as MESSAGE_CREATE carries them."""
    author = world.users[m.author_id]
    data: dict[str, Any] = {
        "id": str(m.id),
        "channel_id": str(m.channel_id),
        "author": user(author),
        "content": m.content,
        "timestamp": m.timestamp,
        "edited_timestamp": m.edited_timestamp,
        "tts": False,
        "mention_everyone": False,
        "mentions": [],
        "mention_roles": [],
        "attachments": [attachment(world, m, a) for a in m.attachments],
        "embeds": m.embeds,
        "components": m.components,
        "pinned": False,
        "type": m.type,
        "flags": m.flags,
    }
    if author.bot:
        data["application_id"] = str(world.bot_user.id)
    if m.webhook_id is not None:
        data["webhook_id"] = str(m.webhook_id)
    channel_of = world.channels.get(m.channel_id)
    guild = world.guild_of(channel_of) if channel_of is not None else None
    if m.interaction_id is not None:
        invoker = world.users[m.interaction_user_id or 0]
        data["interaction_metadata"] = {
            "id": str(m.interaction_id),
            "type": m.interaction_type,
            "user": user(invoker),
            "authorizing_integration_owners": {"0": str((guild or world.guild).id)},
        }
    if gateway and guild is not None:
        data["guild_id"] = str(guild.id)
        if author.member:
            data["member"] = member(world, author, with_user=False, guild=guild)
    return data

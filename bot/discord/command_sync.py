"""Sync the slash commands only when they changed since the last sync.

Discord rate-limits command updates and global changes take a while to reach every server, so
a restart with the same commands must not push them again. The fingerprint of what a sync would
send (the payload, the application and where it goes: global or one development server) is kept
in the database after each sync; the next start compares and syncs only when it differs.
FORCE_COMMAND_SYNC=1 or `python -m bot --sync-commands` syncs anyway (e.g. after the commands were
deleted by hand in the Developer Portal).
"""

from __future__ import annotations

import hashlib
import json
import logging
from typing import Any

import discord
from discord import app_commands

from bot.storage.store import Store

log = logging.getLogger(__name__)


def fingerprint(application_id: int | None, guild_id: int | None, payload: list[dict[str, Any]]) -> str:
    """A digest of everything a sync sends, and to whom: equal fingerprints need no new sync."""
    text = json.dumps({"application": application_id, "guild": guild_id, "commands": payload},
                      sort_keys=True, separators=(",", ":"), default=str)
    return hashlib.sha256(text.encode()).hexdigest()


def _meta_key(guild_id: int | None) -> str:
    return f"command_sync:{guild_id or 'global'}"


async def sync_if_changed(tree: app_commands.CommandTree, store: Store, application_id: int | None,
                          guild_id: int | None, *, force: bool = False) -> bool:
    """Sync `tree` globally (or to `guild_id`) when it changed since the last sync, or when forced.

    True when a sync request was made.
    """
    guild = discord.Object(guild_id) if guild_id else None
    if guild is not None:
        tree.copy_global_to(guild=guild)
    payload = [command.to_dict(tree) for command in tree.get_commands(guild=guild)]
    digest = fingerprint(application_id, guild_id, payload)
    if not force and await store.meta(_meta_key(guild_id)) == digest:
        log.info("slash commands unchanged since the last sync: not syncing (FORCE_COMMAND_SYNC=1 forces it)")
        return False
    synced = await tree.sync(guild=guild)
    await store.set_meta(_meta_key(guild_id), digest)
    log.info("synced %d commands %s", len(synced), f"to guild {guild_id}" if guild_id else "globally")
    return True

"""Pointing the unmodified discord.py at the fake: the two class attributes it reads its URLs from.

- `discord.http.Route.BASE` is read every time a Route is built, by the bot's HTTPClient and by the
  webhook adapter that sends interaction callbacks and follow-ups (discord/webhook/async_.py builds
  its routes with the same Route class), so one assignment covers all REST traffic.
- `discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY` is where `Client.connect` opens the websocket:
  a non-sharded Client never calls GET /gateway/bot, and after READY it resumes at READY's
  `resume_gateway_url` (which the fake points back at itself). AutoShardedClient asks GET /gateway/bot,
  which the fake also answers with its own URL.
"""

from __future__ import annotations

from collections.abc import Callable

import discord.gateway
import discord.http
import yarl


def point_discord_py_at(api_base: str, gateway_url: str) -> Callable[[], None]:
    """Set both URLs process-wide; returns a function that puts the previous values back."""
    old_base = discord.http.Route.BASE
    old_gateway = discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY
    discord.http.Route.BASE = api_base
    discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(gateway_url)

    def restore() -> None:
        discord.http.Route.BASE = old_base
        discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = old_gateway

    return restore

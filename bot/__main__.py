"""`python -m bot`: start Parlor with the settings from the environment and `.env`."""

from __future__ import annotations

import argparse
import asyncio
import logging
import signal
import sys
from collections.abc import Mapping
from typing import Any

import aiohttp
import discord
from pydantic import ValidationError

from bot.client import WebUnavailable, create_bot, point_at_discord
from bot.config import MissingToken, Settings
from bot.logs import configure_logging
from bot.storage.storage_errors import StorageError
from bot.storage.store import DatabaseUnavailable, Store


def parse_arguments(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="python -m bot", description="Start Parlor (settings: environment, .env).")
    parser.add_argument("--sync-commands", action="store_true",
                        help="sync the slash commands with Discord even if unchanged since the last sync")
    return parser.parse_args(argv)


def main(argv: list[str] | None = None) -> int:
    arguments = parse_arguments(argv)
    try:
        settings = Settings()
        if arguments.sync_commands:
            settings = settings.model_copy(update={"force_command_sync": True})
        token = settings.require_token()
    except MissingToken as error:
        print(f"parlor: {error}", file=sys.stderr)
        return 2
    except ValidationError as error:
        problems = "; ".join(_problem(e) for e in error.errors())
        print(f"parlor: bad setting: {problems}", file=sys.stderr)
        return 2
    configure_logging(settings.log_level)
    point_at_discord(settings)
    try:
        asyncio.run(_run(settings, token))
    except KeyboardInterrupt:
        logging.getLogger("bot").info("stopped")
    except StorageError as error:
        where = settings.database_url.rsplit("@", 1)[-1]  # never the password of a PostgreSQL URL
        print(f"parlor: cannot use the database {where}: {error.startup}. Fix that and start "
              "again; no game was touched.", file=sys.stderr)
        return 2
    except DatabaseUnavailable as error:
        print(f"parlor: {error}. Check DATABASE_URL and that the server is running.", file=sys.stderr)
        return 2
    except discord.LoginFailure:
        print("parlor: Discord refused DISCORD_TOKEN: copy a fresh token from the Developer Portal "
              "(Bot -> Reset Token).", file=sys.stderr)
        return 2
    except WebUnavailable as error:
        print(f"parlor: {error}. Choose another WEB_PORT (or WEB_HOST), or leave WEB_PORT unset.", file=sys.stderr)
        return 2
    except aiohttp.ClientConnectorError as error:
        print(f"parlor: cannot reach Discord at {error.host}:{error.port} ({error.os_error.strerror or error.os_error})"
              ": check this machine's connection (and DISCORD_API_BASE, if set).", file=sys.stderr)
        return 2
    return 0


def _problem(error: Mapping[str, Any]) -> str:
    """One setting's problem, as the .env names it: "WEB_PORT: …" (a rule across settings names none)."""
    message = str(error["msg"]).removeprefix("Value error, ")
    where = ".".join(map(str, error["loc"])).upper()
    return f"{where}: {message}" if where else message


async def _run(settings: Settings, token: str) -> None:
    # The database first: one that cannot be written stops the bot here, before it goes online.
    store = await Store.connect(settings.database_url)
    async with create_bot(settings, store=store) as bot:
        # SIGTERM (a service manager, a container stop) closes the bot from inside the loop: every move is
        # already committed, so a clean close only tidies the connection and the database.
        loop = asyncio.get_running_loop()
        for stop_signal in (signal.SIGTERM, signal.SIGINT):
            loop.add_signal_handler(stop_signal, lambda: asyncio.ensure_future(bot.close()))
        await bot.start(token)


if __name__ == "__main__":
    sys.exit(main())

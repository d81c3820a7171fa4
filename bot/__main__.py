"""`python -m bot`: start Parlor with the settings from the environment and `.env`."""

from __future__ import annotations

import argparse
import asyncio
import logging
import signal
import sys
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import aiohttp
import discord
from pydantic import ValidationError

from bot.client import OpsUnavailable, WebUnavailable, create_bot, point_at_discord
from bot.config import MissingToken, Settings
from bot.logs import configure_logging
from bot.ops.backup import BackupRefused, backup, restore
from bot.storage.storage_errors import StorageError
from bot.storage.store import DatabaseUnavailable, Store


def parse_arguments(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="python -m bot", description="Start Parlor (settings: environment, .env).")
    parser.add_argument("--sync-commands", action="store_true",
                        help="sync the slash commands with Discord even if unchanged since the last sync")
    commands = parser.add_subparsers(dest="command", metavar="{backup,restore}")
    commands.add_parser("backup", help="copy the SQLite database to FILE, safely while the bot runs"
                        ).add_argument("file", type=Path)
    commands.add_parser("restore", help="check FILE (every game replayed) and put it in place of the SQLite "
                        "database; stop the bot first").add_argument("file", type=Path)
    return parser.parse_args(argv)


def copy_command(command: str, file: Path) -> int:
    """`backup FILE` or `restore FILE`: they need DATABASE_URL only, not the token."""
    try:
        settings = Settings()
    except ValidationError as error:
        print(f"parlor: bad setting: {'; '.join(_problem(e) for e in error.errors())}", file=sys.stderr)
        return 2
    try:
        if command == "backup":
            backup(settings.database_url, file)
            print(f"parlor: backed up to {file}")
        else:
            found = asyncio.run(restore(settings.database_url, file))
            print(f"parlor: restored {file} ({found.games} games replayed to their stored states)")
    except (BackupRefused, StorageError, OSError) as error:
        print(f"parlor: {command}: {getattr(error, 'startup', None) or error}", file=sys.stderr)
        return 2
    return 0


def main(argv: list[str] | None = None) -> int:
    arguments = parse_arguments(argv)
    if arguments.command is not None:
        return copy_command(arguments.command, arguments.file)
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
    except OpsUnavailable as error:
        print(f"parlor: {error}. Choose another OPS_PORT (or OPS_HOST), or leave OPS_PORT unset.", file=sys.stderr)
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

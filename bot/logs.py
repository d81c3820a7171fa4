"""Logging set-up: the bot's own loggers at the chosen level, libraries never below INFO.

Libraries log whole payloads at DEBUG: discord.py every request and gateway event (a DM carries a
player's private view), aiosqlite every statement with its parameters (a Johari Bones state holds
every hidden bone and the draw pile). Hidden information must not reach a log line at any level, so
LOG_LEVEL=DEBUG lowers only Parlor's own loggers (`bot`, `cogs`, `games`), which never log a state
or a private view; every other logger is held at INFO, named or not.
"""

from __future__ import annotations

import logging
from typing import TextIO

OWN_LOGGERS = ("bot", "cogs", "games", "__main__")
PAYLOAD_LOGGERS = ("discord", "aiosqlite", "aiohttp", "asyncio", "PIL", "websockets", "asyncpg")
"""Libraries known to print payloads (or reprs of calls) at DEBUG; capped by level, not only filtered."""
LIBRARY_FLOOR = logging.INFO


def _own(name: str) -> bool:
    return any(name == own or name.startswith(own + ".") for own in OWN_LOGGERS)


class LibraryFloor(logging.Filter):
    """Drops records below INFO from any logger that is not Parlor's own (a library we did not list)."""

    def filter(self, record: logging.LogRecord) -> bool:
        return record.levelno >= LIBRARY_FLOOR or _own(record.name)


def configure_logging(level: str, stream: TextIO | None = None) -> logging.Handler:
    """Log to `stream` (stderr by default) at `level`, with every library capped at INFO."""
    handler = logging.StreamHandler(stream)
    handler.setFormatter(logging.Formatter("%(asctime)s %(levelname)s %(name)s: %(message)s"))
    handler.addFilter(LibraryFloor())
    root = logging.getLogger()
    root.addHandler(handler)
    root.setLevel(level)
    floor = max(LIBRARY_FLOOR, logging.getLevelName(level))
    for name in PAYLOAD_LOGGERS:
        logging.getLogger(name).setLevel(floor)
    return handler

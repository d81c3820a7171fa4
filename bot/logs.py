"""Logging set-up: the bot's own loggers at the chosen level, libraries never below INFO.

Libraries log whole payloads at DEBUG: discord.py every request and gateway event (a DM carries a
player's private view), aiosqlite every statement with its parameters (a Johari Bones state holds
every hidden bone and the draw pile). Hidden information must not reach a log line at any level, so
LOG_LEVEL=DEBUG lowers only Parlor's own loggers (`bot`, `cogs`, `games`), which never log a state
or a private view; every other logger is held at INFO, named or not.

An error's message is data, not code: a pydantic validation error quotes the input it refused (a state,
with every hidden bone), a KeyError its key, an engine's refusal what the mover holds. So the traceback of a
logged error keeps its frames and its type, but its message only when the type is known to speak of the bot's
own trouble (`TELLING_TYPES`: Discord's and the network's errors, the operating system's, the database's, and
the interpreter's own about code); any other message is withheld. A bug anywhere that logs an exception
therefore cannot put a hidden state in the log.
"""

from __future__ import annotations

import logging
import sqlite3
import traceback
from types import TracebackType
from typing import TextIO

import aiohttp
import discord

from bot.storage.storage_errors import StorageError

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


TELLING_TYPES: tuple[type[BaseException], ...] = (
    discord.HTTPException, discord.ClientException, discord.GatewayNotFound, aiohttp.ClientConnectionError,
    OSError, sqlite3.Error, StorageError, AttributeError, TypeError, NameError, ImportError, NotImplementedError,
    RecursionError)
"""Errors whose messages are kept in the log: they say what failed (a request, a connection, a file, the
database, a name in the code), never what a game holds. Not every library error is one: discord.py's
CommandInvokeError repeats the message of the error it wraps, aiohttp's response errors their URL (an
interaction's token), PostgreSQL's data errors the value they refused."""
WITHHELD = "(message withheld: it could quote a game's hidden state)"
CAUSE = "\nThe above exception was the direct cause of the following exception:\n\n"
CONTEXT = "\nDuring handling of the above exception, another exception occurred:\n\n"


def _told(error: BaseException) -> str:
    """The last line of `error`'s traceback: its type, and its message if its type is one of TELLING_TYPES."""
    if isinstance(error, TELLING_TYPES):
        return "".join(traceback.format_exception_only(type(error), error))
    kind = type(error)
    name = kind.__qualname__ if kind.__module__ == "builtins" else f"{kind.__module__}.{kind.__qualname__}"
    return f"{name}: {WITHHELD}\n"


def withheld_traceback(error: BaseException) -> str:
    """`error`'s traceback as Python prints it, causes and contexts first, each message told or withheld
    (see the module docstring)."""
    chain: list[tuple[BaseException, str]] = []  # each error, and what links it to the one after it
    seen: set[int] = set()
    link = ""
    current: BaseException | None = error
    while current is not None and id(current) not in seen:
        seen.add(id(current))
        chain.append((current, link))
        if current.__cause__ is not None:
            current, link = current.__cause__, CAUSE
        elif current.__context__ is not None and not current.__suppress_context__:
            current, link = current.__context__, CONTEXT
        else:
            current = None
    parts = []
    for each, link in reversed(chain):
        if each.__traceback__ is not None:
            parts.append("Traceback (most recent call last):\n")
            parts.extend(traceback.format_tb(each.__traceback__))
        parts.append(_told(each))
        parts.append(link)
    return "".join(parts).rstrip("\n")


class WithholdingFormatter(logging.Formatter):
    """Formats a record's exception by `withheld_traceback`, never by the message-quoting default."""

    def formatException(self, ei: tuple[type[BaseException] | None, BaseException | None,
                                        TracebackType | None]) -> str:
        return withheld_traceback(ei[1]) if ei[1] is not None else ""

    def format(self, record: logging.LogRecord) -> str:
        record.exc_text = None  # another handler may have cached the default, message and all
        return super().format(record)


def configure_logging(level: str, stream: TextIO | None = None) -> logging.Handler:
    """Log to `stream` (stderr by default) at `level`, with every library capped at INFO and every error's
    message withheld unless its type speaks of the bot's own trouble."""
    handler = logging.StreamHandler(stream)
    handler.setFormatter(WithholdingFormatter("%(asctime)s %(levelname)s %(name)s: %(message)s"))
    handler.addFilter(LibraryFloor())
    root = logging.getLogger()
    root.addHandler(handler)
    root.setLevel(level)
    floor = max(LIBRARY_FLOOR, logging.getLevelName(level))
    for name in PAYLOAD_LOGGERS:
        logging.getLogger(name).setLevel(floor)
    return handler

"""Discord's JSON errors, raised inside request handlers and turned into responses by the server."""

from __future__ import annotations


class DiscordHTTPError(Exception):
    """An error response as Discord shapes it: HTTP status plus {"message", "code"} in the body."""

    def __init__(self, status: int, code: int, message: str) -> None:
        super().__init__(f"{status} {code}: {message}")
        self.status = status
        self.code = code
        self.message = message


def unknown(what: str, code: int) -> DiscordHTTPError:
    return DiscordHTTPError(404, code, f"Unknown {what}")


def invalid_form(reason: str) -> DiscordHTTPError:
    """50035: the body was refused; the reason says which rule the bot's message broke."""
    return DiscordHTTPError(400, 50035, f"Invalid Form Body: {reason}")


UNKNOWN_CHANNEL = 10003
UNKNOWN_MESSAGE = 10008
UNKNOWN_USER = 10013
UNKNOWN_WEBHOOK = 10015
UNKNOWN_INTERACTION = 10062
UNKNOWN_APPLICATION = 10002
CANNOT_DM = 50007
MISSING_ACCESS = 50001
MISSING_PERMISSIONS = 50013
EMPTY_MESSAGE = 50006
ALREADY_ACKNOWLEDGED = 40060

ARRANGED = frozenset({CANNOT_DM, MISSING_ACCESS, MISSING_PERMISSIONS, UNKNOWN_CHANNEL})
"""Refusals that follow from what a test arranged (`refuse_dms`, `deny_bot`, `delete_channel`), not from a call
Discord refuses whatever the world: left out of `World.refused`."""

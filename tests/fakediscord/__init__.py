"""A fake Discord (REST + gateway on 127.0.0.1) that the real discord.py client connects to, for e2e tests."""

from tests.fakediscord.api import FakeDiscord
from tests.fakediscord.commands import CommandError
from tests.fakediscord.connect import point_discord_py_at
from tests.fakediscord.interactions import InteractionResult
from tests.fakediscord.state import FakeAttachment, FakeChannel, FakeMessage, FakeRole, FakeUser

__all__ = [
    "CommandError",
    "FakeAttachment",
    "FakeChannel",
    "FakeDiscord",
    "FakeMessage",
    "FakeRole",
    "FakeUser",
    "InteractionResult",
    "point_discord_py_at",
]

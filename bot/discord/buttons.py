"""Persistent buttons: everything they need travels in their custom_id.

They are `DynamicItem`s registered once at start-up (bot.client), so a button on a message
sent before a restart still works: the custom_id names the session, the version
it was drawn for and the action, and the host checks that version. A press goes to its
handler through bot.discord.dispatch.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import ClassVar, Self

import discord

from bot.discord.dispatch import dispatch
from bot.presentation.frontend import TOKEN_PATTERN


class ActionButton(discord.ui.DynamicItem[discord.ui.Button],
                   template=rf"parlor:act:(?P<session>[0-9]+):(?P<version>[0-9]+):(?P<token>{TOKEN_PATTERN})"):
    """A frontend button: a game action or a step (handled by `bot.discord.presses`), for the players it names."""

    def __init__(self, session_id: int, version: int, token: str, *, label: str = "Go",
                 style: discord.ButtonStyle = discord.ButtonStyle.primary) -> None:
        super().__init__(discord.ui.Button(label=label, style=style,
                                           custom_id=f"parlor:act:{session_id}:{version}:{token}"))
        self.session_id = session_id
        self.version = version
        self.token = token

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Button,
                             match: re.Match[str]) -> ActionButton:
        return cls(int(match["session"]), int(match["version"]), match["token"],
                   label=item.label or "Go", style=item.style)

    async def callback(self, interaction: discord.Interaction) -> None:
        await dispatch("act", interaction, self.session_id, self.version, self.token)


class VerbButton(discord.ui.DynamicItem[discord.ui.Button], template=r"parlor:verb:(?!)"):
    """A button that names its session and a verb ("parlor:<kind>:<session>:<verb>").

    Not registered itself (its template matches nothing): each kind below gives its own template,
    labels and callback.
    """

    kind: ClassVar[str]
    labels: ClassVar[dict[str, tuple[str, discord.ButtonStyle]]]

    def __init__(self, session_id: int, verb: str) -> None:
        label, style = self.labels[verb]
        super().__init__(discord.ui.Button(label=label, style=style,
                                           custom_id=f"parlor:{self.kind}:{session_id}:{verb}"))
        self.session_id = session_id
        self.verb = verb

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Button,
                             match: re.Match[str]) -> Self:
        return cls(int(match["session"]), match["verb"])


class LobbyButton(VerbButton, template=r"parlor:lobby:(?P<session>[0-9]+):(?P<verb>join|leave|begin)"):
    """Join, Leave or Begin on a lobby card."""

    kind = "lobby"
    labels = {"join": ("Join", discord.ButtonStyle.success),
              "leave": ("Leave", discord.ButtonStyle.secondary),
              "begin": ("Begin", discord.ButtonStyle.primary)}

    async def callback(self, interaction: discord.Interaction) -> None:
        await dispatch("lobby", interaction, self.session_id, self.verb)


class TableButton(VerbButton, template=r"parlor:table:(?P<session>[0-9]+):(?P<verb>rematch|new)"):
    """Rematch (same seats) or New game (a lobby for the same game) on a finished game's table."""

    kind = "table"
    labels = {"rematch": ("Rematch", discord.ButtonStyle.success),
              "new": ("New game", discord.ButtonStyle.secondary)}

    async def callback(self, interaction: discord.Interaction) -> None:
        await dispatch("table", interaction, self.session_id, self.verb)


class UndoButton(discord.ui.DynamicItem[discord.ui.Button],
                 template=r"parlor:undo:(?P<session>[0-9]+):(?P<version>[0-9]+)"):
    """Undo on a running game's table: takes back the latest move for the one player who may (games.undo).

    Shown only while someone may; the host refuses anyone else, and a press from an earlier version."""

    def __init__(self, session_id: int, version: int, *, label: str = "Undo") -> None:
        super().__init__(discord.ui.Button(label=label, style=discord.ButtonStyle.secondary,
                                           custom_id=f"parlor:undo:{session_id}:{version}"))
        self.session_id = session_id
        self.version = version

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Button,
                             match: re.Match[str]) -> UndoButton:
        return cls(int(match["session"]), int(match["version"]), label=item.label or "Undo")

    async def callback(self, interaction: discord.Interaction) -> None:
        await dispatch("undo", interaction, self.session_id, self.version)


BUTTON_ITEMS: dict[tuple[str, str], Callable[..., discord.ui.Item]] = {}
"""(game slug, button token) -> what to draw instead of an `ActionButton` for a frontend button that
is not a plain action (e.g. one that opens a form). Called like `ActionButton(session_id, version,
token, label=..., style=...)`; a game's cog registers its own in `setup` along with the item class."""


REPLAY_LABEL = "Replay"


class ReplayButton(discord.ui.DynamicItem[discord.ui.Button], template=r"parlor:replay:(?P<session>[0-9]+)"):
    """Replay on a finished or abandoned game's table: its replay, to the presser alone, with Share
    (bot.discord.replays). Named by the game's number only, so it works after a restart."""

    def __init__(self, session_id: int) -> None:
        super().__init__(discord.ui.Button(label=REPLAY_LABEL, style=discord.ButtonStyle.secondary, emoji="🎞️",
                                           custom_id=f"parlor:replay:{session_id}"))
        self.session_id = session_id

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Button,
                             match: re.Match[str]) -> ReplayButton:
        return cls(int(match["session"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        await dispatch("replay", interaction, self.session_id)

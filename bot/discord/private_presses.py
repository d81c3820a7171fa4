"""Presses on the same private message at the same moment (a double click): a refusal must not hide a move.

A component on a private message (a build preview's Confirm, a drawn bone's places, a pawn's destinations)
is answered by editing or deleting that message (bot.discord.actions). Pressed twice at once, the first press makes
the move and the second is refused (its button belongs to an earlier turn); both answer on the same message,
in whichever order Discord takes them, so the refusal could land last and tell the player his move failed
when it was made (or find the message deleted, and fail).

So a refusal leaves a private message alone when a move was made from the content it was pressed on: a press
on that message drawn for the same version of the game, or an earlier one (`shows_a_move`). A press still
under way on that message is waited for first, until its work is over: its move may be why this one is
refused. A message whose buttons went stale for any other reason (the opponent moved) still gets the
refusal, and so does a later press on what the move left there (drawn for a later version).

Kept in memory only: after a restart no earlier press is under way, and a press on a message whose move was
made before the restart is refused on it as before.
"""

from __future__ import annotations

import asyncio
import contextlib
import re
from collections import OrderedDict
from collections.abc import Iterator

import discord

VERSIONED = re.compile(r"parlor:[a-z-]+:[0-9]+:(?P<version>[0-9]+)(?::|$)")
"""A component drawn for one version of its game: parlor:<kind>:<session>:<version>[:…] (bot.discord.components,
bot.discord.buttons, cogs.crayon_rails)."""
KEPT = 4096
"""Private messages whose move is remembered at most; the oldest are forgotten first."""


def drawn_version(interaction: discord.Interaction) -> int | None:
    """The version of the game the pressed component was drawn for; None for one that names none."""
    found = VERSIONED.match(str((interaction.data or {}).get("custom_id") or ""))
    return int(found["version"]) if found else None


def private_message_id(interaction: discord.Interaction) -> int | None:
    """The private (ephemeral) message a component or modal was used on, if it was used on one."""
    message = interaction.message
    if message is None or not message.flags.ephemeral or interaction.type not in (
            discord.InteractionType.component, discord.InteractionType.modal_submit):
        return None
    return message.id


class PrivatePresses:
    """The presses under way on each private message, and the latest version a move was made from there."""

    def __init__(self) -> None:
        self._under_way: dict[int, dict[int, asyncio.Future[bool]]] = {}
        self._moved_from: OrderedDict[int, int] = OrderedDict()

    @contextlib.contextmanager
    def pressing(self, interaction: discord.Interaction) -> Iterator[None]:
        """Count the press as under way on its private message (if it is on one) while the block runs."""
        message = private_message_id(interaction)
        if message is None:
            yield
            return
        presses = self._under_way.setdefault(message, {})
        presses[interaction.id] = asyncio.get_running_loop().create_future()
        try:
            yield
        finally:
            self.worked(interaction, moved=False)
            presses.pop(interaction.id, None)
            if not presses:
                self._under_way.pop(message, None)

    def worked(self, interaction: discord.Interaction, *, moved: bool) -> None:
        """The press's work is over (the first call counts): `moved` if it made a move from its message."""
        message = private_message_id(interaction)
        done = self._under_way.get(message, {}).get(interaction.id) if message is not None else None
        if done is None or done.done():
            return
        version = drawn_version(interaction)
        if moved and version is not None:
            self._moved_from[message] = max(version, self._moved_from.pop(message, version))
            while len(self._moved_from) > KEPT:
                self._moved_from.popitem(last=False)
        done.set_result(moved)

    async def shows_a_move(self, interaction: discord.Interaction) -> bool:
        """Whether the private message this refused press was on shows (or is about to) a move made from the
        content it was pressed on, once the other presses under way there are over."""
        message = private_message_id(interaction)
        version = drawn_version(interaction)
        if message is None or version is None:
            return False
        self.worked(interaction, moved=False)  # refused: the others need not wait for it
        others = [done for press, done in self._under_way.get(message, {}).items() if press != interaction.id]
        await asyncio.gather(*others)
        return self._moved_from.get(message, -1) >= version

"""Each player's latest private reply per game: a new one takes its place, so old ones do not pile up.

A private reply (an ephemeral message: the choice of where a pawn goes, the bone just drawn, a menu's
next step, **Show my bones**) can only be changed or deleted through the interaction that sent it, for
15 minutes. So the reply path (`bot.discord.actions.show_done`) hands each new one to `PrivateNotes.shown`,
which deletes the one the same player got before in the same game, before showing the new one: that
one has been read, and he has asked for something newer. A reply the player chose
a move on goes at once (`bot.discord.presses.publish`), through that press, and is forgotten here
(`dismissed`: it is found by the interaction that posted it, which Discord names on the message), so it is
not deleted a second time (Discord would refuse that: 404 Unknown Message); together they leave each player
at most one private note per game, each deleted once.

Rulings: kept in memory only (after a restart, or past Discord's 15 minutes, an older note stays: it
cannot be deleted any more); refusals are not tracked (each says something once and changes nothing),
nor are `/build to:` previews (alternatives a player may want to compare before confirming one).
"""

from __future__ import annotations

import contextlib
import logging
from collections import OrderedDict

import discord

log = logging.getLogger(__name__)
KEPT = 4096
"""Notes remembered at most (players × games in play); the oldest are forgotten first."""


class PrivateNotes:
    """The latest private reply of each (game, player), as the interaction that can still delete it."""

    def __init__(self) -> None:
        self._latest: OrderedDict[tuple[int, int], discord.Interaction] = OrderedDict()

    async def shown(self, session_id: int, interaction: discord.Interaction) -> None:
        """`interaction` just answered its user privately about `session_id`: delete his note before it."""
        key = (session_id, interaction.user.id)
        before = self._latest.pop(key, None)
        self._latest[key] = interaction
        while len(self._latest) > KEPT:
            self._latest.popitem(last=False)
        if before is not None and before.id != interaction.id:
            with contextlib.suppress(discord.HTTPException):
                await before.delete_original_response()

    def dismissed(self, session_id: int, press: discord.Interaction) -> None:
        """`press` was made on a private reply about `session_id` that it is about to delete: if that reply is
        the player's note, it is gone, and is not deleted again when his next note is shown."""
        message = press.message
        posted_by = message.interaction_metadata if message is not None else None
        if posted_by is None:
            return
        key = (session_id, press.user.id)
        note = self._latest.get(key)
        if note is not None and note.id == posted_by.id:
            del self._latest[key]

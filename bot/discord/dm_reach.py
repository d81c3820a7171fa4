"""Whom the bot may send a direct message: nobody whose DMs Discord just refused (50007).

Each refused DM costs a request Discord turns down, and a player with closed DMs would refuse every
panel update and turn notice of a long game. So after one refusal the user is marked, and the bot
sends him nothing by DM until he acts again (any command, button or menu of Parlor, which means he
may have opened his DMs meanwhile) or turns `/notify on` (which tries a DM at once and says if it is
refused; also when notices were already on, if he was marked). His private view stays one press away:
**Show my bones** and `/hand` answer in the channel.

Rulings: the mark is kept in the database (`user_settings.dms_closed`), so a restart does not try
again, and read before every DM, so any process sees another's mark. Clearing it costs a write, so
each process clears only the marks it knows of (its own, those read at its start and those it has
read since): a player marked by another process and acting only in this one's servers stays marked
until he acts there too or turns `/notify on`; the error is on the side of sending less.
"""

from __future__ import annotations

import logging
from collections.abc import Iterable

import discord

from bot.storage.store import Store

log = logging.getLogger(__name__)
CANNOT_DM = 50007
"""Discord's error code for "Cannot send messages to this user"."""


def refused_dm(error: discord.HTTPException) -> bool:
    """Whether a failed DM means the user does not accept DMs from us (not a passing failure)."""
    return isinstance(error, discord.Forbidden) or error.code == CANNOT_DM


class DmReach:
    """The closed-DM marks of one bot process, over the store that keeps them."""

    def __init__(self, store: Store) -> None:
        self.store = store
        self.known_closed: set[str] | None = None
        """The marks this process knows of (None until first read from the store)."""

    async def _known(self) -> set[str]:
        if self.known_closed is None:
            self.known_closed = await self.store.dms_closed_users()
        return self.known_closed

    async def reachable(self, users: Iterable[str]) -> list[str]:
        """Those of `users` the bot may try to DM now."""
        users = list(users)
        closed = await self.store.dms_closed_users(users) if users else set()
        (await self._known()).update(closed)
        return [user for user in users if user not in closed]

    async def refused(self, user: str) -> None:
        """Discord refused a DM to `user`: send him none until he acts."""
        log.info("player %s does not accept direct messages; none until he acts again", user)
        (await self._known()).add(user)
        await self.store.set_dms_closed(user, True)

    async def reopen(self, user: str) -> bool:
        """`/notify on` is about to try a DM: clear `user`'s mark, whichever process set it (the store's).
        Whether he had one, i.e. a DM to him was refused since he last acted."""
        closed = not await self.reachable([user])
        await self.acted(user)
        return closed

    async def acted(self, user: str) -> None:
        """`user` used the bot: his DMs may be open again (costs nothing unless he was marked)."""
        known = await self._known()
        if user in known:
            await self.store.set_dms_closed(user, False)
            known.discard(user)

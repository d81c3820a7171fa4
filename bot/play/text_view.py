"""Text instead of pictures, for screen-reader users and slow connections (issue 25 item 3).

Two settings, kept in the database:

- **A server's tables** (`/settings tables mode:text`, Manage Server): every game table in the server
  is posted as text only: the same message (whose turn it is, what happened, the state in words in
  the embed) and the same buttons and menus, without the board picture. Anything that server's
  players are shown privately (`/game status`, panels, previews) comes as text too.
- **A user's own view** (`/game view mode:text`, anywhere, for every server): a table is one public
  message that everyone in the channel reads, so one person's choice cannot change it (that is the
  server's setting). What is his alone follows it: his `/game status`, his Johari Bones panel (the DM
  and the ephemeral one: his bones in words), a step's map and a Crayon Rails build preview come
  without pictures, their words in their place.

A server's setting is kept in memory once read (one process owns a server, see bot.runtime.shards); a user's
is read when needed, since the processes of a sharded bot share users.
"""

from __future__ import annotations

from bot.storage.store import Store

MODES = ("pictures", "text")


class TextView:
    """Who gets text instead of pictures."""

    def __init__(self, store: Store) -> None:
        self.store = store
        self._servers: dict[str | None, bool] = {}

    async def server_text(self, guild_id: str | None) -> bool:
        """Whether the server shows its tables as text only."""
        cached = self._servers.get(guild_id)
        if cached is None:
            cached = self._servers[guild_id] = (await self.store.guild_settings(guild_id)).text_tables
        return cached

    def known_text(self, guild_id: str | None) -> bool:
        """Whether the server is known (already read) to want text only: for work that cannot wait on a read."""
        return bool(self._servers.get(guild_id))

    async def set_server_text(self, guild_id: str, on: bool) -> None:
        await self.store.set_text_tables(guild_id, on)
        self._servers.pop(guild_id, None)

    async def user_text(self, user_id: str) -> bool:
        return await self.store.text_view(user_id)

    async def set_user_text(self, user_id: str, on: bool) -> None:
        await self.store.set_text_view(user_id, on)

    async def pictures_for(self, guild_id: str | None, user_id: str | None = None) -> bool:
        """Whether a picture goes with what is shown: in public (`user_id` None), or to that user alone."""
        if await self.server_text(guild_id):
            return False
        return user_id is None or not await self.user_text(user_id)

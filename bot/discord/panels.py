"""Each player's private panel: one direct message per game, edited in place when his view changes.

Games with hidden information (Johari Bones) give every player a view of his own. The first
change of what is private in it sends him one DM (the panel); every later change of what the panel
follows (`Frontend.panel_digest`: any bone of his own hand, face up included, the bone he drew, the hidden
bones of others he sees) edits that same message, so a whole game leaves one panel per player instead of
a picture per change. What is only public and not his own (others' face-up bones, whose turn, the pile,
the totals) edits no panel: the table shows it live, and editing every player's DM at every move would
cost a request per player per move; the panel says so, and which move it shows. A panel is edited too
when nothing private is left (the hand revealed), so that it never keeps offering a drawn bone to
place; once the game is over it says so (the last move edits every panel, whatever it changed), and a
game that ends without a move (abandoned, claimed, its channel deleted) closes every panel with a line
saying so (`Panels.close`). Turn notices
(`/notify on`) are separate short DMs sent only when his turn comes (`bot.play.timers`).

A player who asked for text (`/game view mode:text`, bot.play.text_view) gets his view in words instead
of the picture. A player whose DMs are closed is told once per game in the channel (naming no bone and
pinging nobody) to use `/hand` or **Show my bones** instead; after one refused DM no panel is sent
to him until he acts again (bot.discord.dm_reach).

A panel's record keeps a fingerprint of what it shows (`fingerprint`: what it follows, and whether the game
runs; a hash, never the bones). A panel Discord failed to edit (unavailable for a moment) is tried again after
`TABLE_RETRIES` seconds, as a table is, with the player's view as it is then; and at start-up every panel of
a running game whose fingerprint is not its player's view now (that edit failed past its tries, or the bot
stopped before making it) is edited (`catch_up`). Each goes only to its own player's direct messages.
"""

from __future__ import annotations

import hashlib
import json
import logging
from typing import Any

import discord

from bot.discord.attachments import attachment
from bot.discord.dm_reach import DmReach, refused_dm
from bot.discord.replies import escaped_names
from bot.discord.table import TABLE_RETRIES
from bot.play.ai_seats import is_ai_id
from bot.play.host import Host, MoveOutcome
from bot.presentation.alt_text import private_alt, turn_words, update_label
from bot.presentation.frontends import frontend_for
from bot.presentation.user_text import MESSAGE_MAX
from bot.presentation.words import game_label, image_names, mention
from bot.runtime.drawing import draw_off_loop
from bot.runtime.retries import Retries
from bot.runtime.shards import Shards
from bot.storage.store import PanelRecord, SessionRecord

log = logging.getLogger(__name__)
PANEL_FILE = "your-view.png"
UPDATED = ("This message is updated when your bones or the hidden bones you see change; "
           "the table shows the rest as it is now.")
"""What a running game's panel follows (`Frontend.panel_digest`): not every move, which the table shows."""


def fingerprint(session: SessionRecord, view: dict, player: str) -> str:
    """What `player`'s panel shows of `view`, as far as it must be kept up to date: what it follows
    (`Frontend.panel_digest`) and whether the game runs. Hashed, so that no bone is written out again."""
    shown = [frontend_for(session.slug).panel_digest(view, player), session.status == "active"]
    return hashlib.sha256(json.dumps(shown, sort_keys=True, default=str).encode()).hexdigest()[:32]


async def user_of(client: discord.Client, player: str) -> discord.User:
    """The Discord user behind a player id, from the cache or fetched (members are not cached)."""
    return client.get_user(int(player)) or await client.fetch_user(int(player))


class Panels:
    """Sends and edits the private panels through a connected client."""

    def __init__(self, client: discord.Client, host: Host, reach: DmReach) -> None:
        self.client = client
        self.host = host
        self.reach = reach
        self.told_dms_closed: set[tuple[int, str]] = set()
        """(session, player) already told in the channel that their DMs are closed."""
        self.retries = Retries(TABLE_RETRIES)
        """The panels that failed to update, by (session, player), each tried again (`_retry`)."""

    async def update(self, outcome: MoveOutcome) -> None:
        """Refresh the panel of every player whose private view the move changed."""
        session = outcome.session
        frontend = frontend_for(session.slug)
        if not frontend.hides_anything:
            return
        changed = []
        for player, after in outcome.views_after.items():
            if is_ai_id(player):
                continue  # the AI reads its view from the host, not from a direct message
            before = outcome.views_before.get(player, {})
            ended = session.status != "active"  # his bones need not change: the panel must stop promising edits
            if not ended and frontend.panel_digest(after, player) == frontend.panel_digest(before, player):
                continue
            # Nothing private any more (the hand revealed): no DM is due, but a panel he has must not keep
            # showing what was his alone, such as a drawn bone to place.
            if (frontend.private_digest(after) is not None
                    or await self.host.store.panel(session.id, player) is not None):
                changed.append(player)
        reachable = await self.reach.reachable(changed)
        closed = [player for player in changed if player not in reachable]
        for player in reachable:
            try:
                await self.show(session, player, outcome.views_after[player])
            except discord.HTTPException as error:
                if not refused_dm(error):
                    log.warning("could not update the panel of player %s in session %s", player, session.id)
                    self._retry_later(session.id, player)
                    continue
                closed.append(player)
                await self.reach.refused(player)
        await self._tell_closed(session, closed)

    async def show(self, session: SessionRecord, player: str, view: dict) -> None:
        """Edit the player's panel to show `view`, or send it if he has none (or it was deleted)."""
        frontend = frontend_for(session.slug)
        names = image_names(session)
        ended = turn_words(session, view, escaped_names(session))  # who won, as the picture's banner says
        content = (f"Your view in {game_label(session)} (<#{session.channel_id}>), as of {update_label(session)}. "
                   + (UPDATED if session.status == "active" else ended))
        files = []
        if await self.host.text_view.pictures_for(session.guild_id, player):
            png = await draw_off_loop(frontend.draw_private, view, names, player)
            files = [attachment(png, PANEL_FILE, description=private_alt(session, view, names, player))]
        else:
            words = frontend.private_alt_text(view, escaped_names(session), player)  # all the picture shows
            content = f"{content}\n{words}"[:MESSAGE_MAX]
        shows = fingerprint(session, view, player)
        record = await self.host.store.panel(session.id, player)
        if record is not None:
            channel = self.client.get_partial_messageable(int(record.channel_id))
            try:
                await channel.get_partial_message(int(record.message_id)).edit(
                    content=content, attachments=files)
                if record.shows != shows:
                    await self.host.store.save_panel(record.model_copy(update={"shows": shows}))
                return
            except discord.NotFound:
                pass
        user = await user_of(self.client, player)
        sent = await user.send(content, files=files)
        await self.host.store.save_panel(PanelRecord(session_id=session.id, player=player, shows=shows,
                                                     channel_id=str(sent.channel.id), message_id=str(sent.id)))

    async def bring_up_to_date(self, session_id: int, player: str) -> bool:
        """Edit the player's panel if it does not show his view as it is now; True if it was edited."""
        session = await self.host.current(session_id)
        view = self.host.view_for(session, player)
        record = await self.host.store.panel(session_id, player)
        if record is None or record.shows == fingerprint(session, view, player):
            return False
        await self.show(session, player, view)
        return True

    async def catch_up(self, shards: Shards | None = None) -> int:
        """Bring every panel of a running game that is behind its game up to date (at start-up); returns how
        many. A process running some shards catches up its own guilds' panels only."""
        caught = 0
        for record in await self.host.store.running_panels(shards):
            try:
                caught += await self.bring_up_to_date(record.session_id, record.player)
            except discord.HTTPException as error:
                log.warning("could not bring the panel of player %s in session %s up to date",
                            record.player, record.session_id)
                if refused_dm(error):
                    await self.reach.refused(record.player)
                else:
                    self._retry_later(record.session_id, record.player)
        return caught

    def _retry_later(self, session_id: int, player: str) -> None:
        """Have a panel that failed to update tried again (unless that is under way already)."""
        self.retries.later((session_id, player), lambda: self._retry(session_id, player))

    async def _retry(self, session_id: int, player: str) -> bool:
        """One more try at the panel, with the player's view as it is now (nothing to do when another update got
        there first); True once it is up to date, or his DMs refuse it."""
        try:
            await self.bring_up_to_date(session_id, player)
            return True
        except discord.HTTPException as error:
            if refused_dm(error):
                await self.reach.refused(player)
                return True
            log.warning("the panel of player %s in session %s is still behind its game", player, session_id)
            return False

    async def stop(self) -> None:
        """Give up the tries still waiting (at shutdown: the next start-up catches those panels up)."""
        await self.retries.stop()

    async def close(self, session: SessionRecord) -> None:
        """The game ended without a move (abandoned, claimed, its channel deleted): each panel says so instead
        of his view, whose prompts (a drawn bone to place) would wait for a move that cannot come."""
        if not frontend_for(session.slug).hides_anything:
            return
        self.retries.cancel(lambda key: key[0] == session.id)  # a try would put back the view this closes
        ending = "The game was abandoned." if session.status == "abandoned" else "The game is over."
        content = f"Your view in {game_label(session)} (<#{session.channel_id}>): {ending} This message is closed."
        for record in await self.host.store.panels_of(session.id):
            channel = self.client.get_partial_messageable(int(record.channel_id))
            try:
                await channel.get_partial_message(int(record.message_id)).edit(content=content, attachments=[])
            except discord.HTTPException:
                log.warning("could not close the panel of player %s in session %s", record.player, session.id)

    async def _tell_closed(self, session: SessionRecord, closed: list[str]) -> None:
        closed = [player for player in closed if (session.id, player) not in self.told_dms_closed]
        if not closed:
            return
        self.told_dms_closed.update((session.id, player) for player in closed)
        channel = self.client.get_partial_messageable(int(session.channel_id))
        who = ", ".join(mention(p) for p in closed)
        text: dict[str, Any] = {"allowed_mentions": discord.AllowedMentions.none()}
        await channel.send(f"{who}: I can't send you direct messages. Use `/hand` or the **Show my bones** "
                           "button to see your private view.", **text)

"""One user intent, from interaction to reply: the path every command and button shares.

`play` is the path of anything that may change a game. The host commits, the game's table is
brought up to date (`bot.discord.table`), the players' private panels are refreshed (`bot.discord.panels`), and
the actor gets his private note, if any. All this usually takes a few milliseconds, so the
interaction is answered only afterwards (`Acknowledgement`): with the private note or the refusal
itself, in one call, if there is one; else as before, a private "thinking…" removed at once. No
REST call goes in front of the table's (issue 24). A component on a private message is still
acknowledged first, as an update of that message, which its next step or dismissal then edits; so is
any interaction that arrives while others are on their way to their results (a burst of moves: the
REST calls queue, and an answer sent last could miss Discord's deadline); its work then waits its turn
(bot.runtime.gate), so that the interactions arriving meanwhile are acknowledged first.
Should the work outlast `ACK_WITHIN` seconds (a slow disk, Discord's rate limits), the private
"thinking…" is sent then, well inside Discord's 3-second deadline, and the answer replaces it. If
the acknowledgement fails, a move already made stays made and shown, and the failure is logged.

A refusal is a private message saying what to do instead and changes nothing; an unexpected
error is logged with its traceback and answered with an apology. A refusal on a private message takes
that message's place, unless a press on it at the same moment (a double click) made its move: that result
stays (bot.discord.private_presses). `guarded` is the same for
commands that only read and answer at once (rules, log, lists).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass
from typing import Any

import discord

from bot.discord.channel_access import in_a_thread, needs_attach_files, require_table_access, table_forbidden
from bot.discord.dispatch import handles
from bot.discord.panels import user_of
from bot.discord.private_presses import PrivatePresses, private_message_id
from bot.discord.replies import as_edit
from bot.play.host import Host, MoveOutcome, UserError
from bot.presentation.frontends import frontend_for
from bot.presentation.user_text import bounded_refusal, typed_values
from bot.presentation.words import APOLOGY
from bot.runtime.gate import RESTARTING, Gate, result_on_its_way
from bot.runtime.metrics import METRICS
from bot.storage.storage_errors import StorageError
from bot.storage.store import Seat, SessionRecord
from games import get_game
from games.core import IllegalMove

__all__ = ["user_of"]

log = logging.getLogger(__name__)

TABLE_BEHIND = ("Your move is saved, but I could not update the game's table just now; it catches up "
                "by itself (or use `/game table`).")


@dataclass
class Done:
    """What a game interaction did, for the reply path.

    `session_id`: the game whose table to bring up to date; `outcome`: a committed move (its
    private views go to the panels); `private`: keyword arguments of a message for the actor
    alone; `update`: an edit of the private message a pressed component was on;
    `to_bottom`: re-post the table at the bottom of the channel; `dismiss`: delete the private
    message the pressed component was on (it has been read: bot.discord.presses.publish).
    """

    session_id: int | None = None
    outcome: MoveOutcome | None = None
    private: dict[str, Any] | None = None
    update: dict[str, Any] | None = None
    to_bottom: bool = False
    dismiss: bool = False
    note_of: int | None = None
    """The game a private reply is about when `session_id` is not set (bot.discord.private_notes)."""
    ended: SessionRecord | None = None
    """A game that ended without a move (abandoned, claimed): its players' private panels are closed."""

    @classmethod
    def of(cls, outcome: MoveOutcome, **more: Any) -> Done:
        return cls(session_id=outcome.session.id, outcome=outcome, **more)


GameWork = Callable[[], Awaitable[MoveOutcome | Done | None]]


def host_of(interaction: discord.Interaction) -> Host:
    return interaction.client.host  # type: ignore[attr-defined]


def seat_of(user: discord.abc.User) -> Seat:
    return Seat(id=str(user.id), name=getattr(user, "display_name", None) or user.name)


def _deferred_thinking(interaction: discord.Interaction) -> bool:
    return interaction.response.type is discord.InteractionResponseType.deferred_channel_message


async def refuse(interaction: discord.Interaction, message: str) -> None:
    """Tell only the user what went wrong and what to do instead
    (quoting his text short: bot.presentation.user_text)."""
    message = bounded_refusal(message, list(typed_values(interaction.data)))
    METRICS.refusals.inc()
    if not interaction.response.is_done():
        await interaction.response.send_message(message, ephemeral=True)
    elif _on_private_message(interaction) and await _shows_a_move(interaction):
        log.info("interaction %s: refused on a private message that shows the move of a press at the same "
                 "moment (a double click), so it is left showing that", interaction.id)
    elif _deferred_thinking(interaction) or _on_private_message(interaction):
        # "thinking…", or a private message whose button no longer applies: the refusal alone is left there.
        await interaction.edit_original_response(**as_edit({"content": message}))
    else:
        await interaction.followup.send(message, ephemeral=True)


async def acknowledge(interaction: discord.Interaction) -> None:
    """Defer at once, privately: "thinking…" for the user alone, removed or replaced by his answer.

    A component on a private message (a drawn bone's places, a build preview) is deferred as an
    update of that message instead, which its result then edits.
    """
    if interaction.response.is_done():
        return
    if _on_private_message(interaction):
        await interaction.response.defer()
    else:
        await interaction.response.defer(ephemeral=True, thinking=True)


ACK_WITHIN = 1.0
"""Seconds a game interaction runs unanswered before it is acknowledged (Discord allows 3)."""


class Acknowledgement:
    """An interaction's acknowledgement, sent only if its work outlasts `ACK_WITHIN` (or when asked)."""

    def __init__(self, interaction: discord.Interaction) -> None:
        self._interaction = interaction
        self._sending: asyncio.Future[None] | None = None
        self._timer = asyncio.get_running_loop().call_later(ACK_WITHIN, self.send)

    def send(self) -> asyncio.Future[None]:
        """Acknowledge now, once; the future is done when Discord has it."""
        self._timer.cancel()
        if self._sending is None:
            self._sending = asyncio.ensure_future(acknowledge(self._interaction))
        return self._sending

    def withhold(self) -> bool:
        """Answer directly instead: True if no acknowledgement was sent (none will be), False if one was."""
        self._timer.cancel()
        return self._sending is None


def _on_private_message(interaction: discord.Interaction) -> bool:
    return private_message_id(interaction) is not None


def _presses(interaction: discord.Interaction) -> PrivatePresses | None:
    return getattr(interaction.client, "private_presses", None)


async def _shows_a_move(interaction: discord.Interaction) -> bool:
    """Whether another press on the same private message made a move from what this one was pressed on
    (bot.discord.private_presses): its result is left there, not this refusal."""
    presses = _presses(interaction)
    return presses is not None and await presses.shows_a_move(interaction)


async def answer_directly(interaction: discord.Interaction, done: Done, private: dict[str, Any] | None) -> bool:
    """Answer an unacknowledged interaction with its private note in one call; False if it needs the usual
    path (a private message's step, a dismissal, nothing to say: "thinking…", then removed)."""
    if _on_private_message(interaction) or done.dismiss:
        return False
    private = private or done.update
    if private is not None:
        await _note_shown(interaction, done, private)
        await interaction.response.send_message(**{**private, "ephemeral": True})
        return True
    return False


async def _note_shown(interaction: discord.Interaction, done: Done, private: dict[str, Any]) -> None:
    """A private reply with items about a game is about to answer: the one he had before for it goes first
    (bot.discord.private_notes)."""
    about = done.session_id if done.session_id is not None else done.note_of
    notes = getattr(interaction.client, "private_notes", None)
    view = private.get("view")
    if about is not None and notes is not None and view is not None and view.children:
        # Without items (/game status) it takes nobody's place: the note before may hold his pending choice.
        await notes.shown(about, interaction)


def _gate(interaction: discord.Interaction) -> Gate | None:
    return getattr(interaction.client, "gate", None)


async def tell_storage_trouble(interaction: discord.Interaction, error: StorageError) -> None:
    """The database failed and rolled back: say so, and what to do (no apology: it is not a bug)."""
    log.warning("interaction %s: storage trouble (%s): %s", interaction.id, type(error).__name__, error)
    with contextlib.suppress(discord.HTTPException):
        await refuse(interaction, error.reply)


async def guarded(interaction: discord.Interaction, work: Callable[[], Awaitable[None]], *,
                  tries_dms: bool = False) -> None:
    """Run `work`, turning refusals into ephemeral replies and crashes into an apology. The user's DMs may be
    open again now (bot.discord.dm_reach), unless `tries_dms`: the work tries a DM itself and keeps his mark itself."""
    gate = _gate(interaction)
    if gate is not None and not gate.open:
        with contextlib.suppress(discord.HTTPException):
            await refuse(interaction, RESTARTING)
        return
    with gate.passage() if gate is not None else contextlib.nullcontext():
        try:
            reach = getattr(interaction.client, "dm_reach", None)
            if reach is not None and not tries_dms:
                # His DMs may be open again (bot.discord.dm_reach); a database in trouble must not cost him his command.
                with contextlib.suppress(StorageError):
                    await reach.acted(str(interaction.user.id))
            await work()
        except (UserError, IllegalMove) as error:
            await refuse(interaction, error.message)
        except StorageError as error:
            await tell_storage_trouble(interaction, error)
        except Exception:
            log.exception("interaction %s failed", interaction.id)
            with contextlib.suppress(discord.HTTPException):
                await refuse(interaction, APOLOGY)


async def play(interaction: discord.Interaction, work: GameWork, *, shows_table: bool = True,
               tries_dms: bool = False) -> None:
    """Acknowledge, run `work` (which may commit), then show its result: see the module docstring.
    `shows_table`: the work starts or changes the channel's game, so the bot must be able to show its table
    there (bot.discord.channel_access); False for work whose answer is private only. `tries_dms`: see `guarded`."""

    gate, presses = _gate(interaction), _presses(interaction)

    async def steps() -> None:
        with gate.urgent() if gate is not None else contextlib.nullcontext():
            await urgent_steps()

    async def urgent_steps() -> None:
        acknowledgement = Acknowledgement(interaction)
        if _on_private_message(interaction):
            acknowledgement.send()  # its step or dismissal edits that message: acknowledged while it is there
        elif gate is not None and gate.urgent_now > 1:
            acknowledgement.send()  # others are on their way too: its answer could queue past Discord's deadline
        if gate is not None:
            await gate.take_turn()  # in a burst, the work waits its turn, so that new arrivals' answers go first
        try:
            if shows_table:
                await require_table_access(interaction, host_of(interaction).text_view)
            got = await work()
        except BaseException:
            if presses is not None:
                presses.worked(interaction, moved=False)
            if not acknowledgement.withhold():
                await acknowledgement.send()  # a refusal answers the acknowledged interaction (if it failed: that)
            raise
        done = Done.of(got) if isinstance(got, MoveOutcome) else (got or Done())
        if presses is not None:
            presses.worked(interaction, moved=done.outcome is not None)
        await show_done(interaction, done, acknowledgement)

    with presses.pressing(interaction) if presses is not None else contextlib.nullcontext():
        await guarded(interaction, steps, tries_dms=tries_dms)


async def pressed_session(interaction: discord.Interaction, session_id: int) -> SessionRecord:
    """The session a pressed component names, refused unless it belongs where it was pressed."""
    guild = str(interaction.guild_id) if interaction.guild_id is not None else None
    return await host_of(interaction).session_pressed_in(session_id, channel_id=str(interaction.channel_id),
                                                         guild_id=guild, player=str(interaction.user.id))


async def show_done(interaction: discord.Interaction, done: Done,
                    acknowledgement: Acknowledgement | None = None) -> None:
    """The table, the panels, then the actor's private note (or the end of his "thinking…").

    `acknowledgement`: the interaction's, if it may not be sent yet (then the answer may go directly)."""
    client = interaction.client
    private = done.private
    if done.session_id is not None:
        try:
            await client.tables.show(done.session_id, to_bottom=done.to_bottom)  # type: ignore[attr-defined]
        except discord.Forbidden:
            # The channel's permissions changed since the work began (or it was the way out: /game abandon).
            log.warning("not allowed to update the table of session %s in its channel", done.session_id)
            pictures = await needs_attach_files(interaction, host_of(interaction).text_view)
            forbidden = table_forbidden(interaction.app_permissions, in_thread=in_a_thread(interaction),
                                        pictures=pictures)
            private = private or {"content": forbidden}
        except Exception:
            log.exception("could not update the table of session %s", done.session_id)
            private = private or {"content": TABLE_BEHIND}
    result_on_its_way()  # the table is on its way, or there is none and the answer below is the result
    if done.outcome is not None:
        try:
            await client.panels.update(done.outcome)  # type: ignore[attr-defined]
        except Exception:
            log.exception("could not update the panels of session %s", done.outcome.session.id)
    elif done.ended is not None:
        try:
            await client.panels.close(done.ended)  # type: ignore[attr-defined]
        except Exception:
            log.exception("could not close the panels of session %s", done.ended.id)
    if acknowledgement is not None:
        if acknowledgement.withhold() and await answer_directly(interaction, done, private):
            return
        await acknowledgement.send()
    update = done.update
    if update is not None and _deferred_thinking(interaction):
        # Acknowledged with a private "thinking…" (not on a private message): that is what can change.
        private, update = private or update, None
    # The pressed private message is edited last: that edit is what tells the user the press is done.
    if private is not None:
        if _deferred_thinking(interaction):
            await _note_shown(interaction, done, private)
            # Gone: his newer reply, pressed at the same moment (a double click), replaced this one
            # (bot.discord.private_notes).
            with contextlib.suppress(discord.NotFound):
                await interaction.edit_original_response(**as_edit(private))
        else:
            await interaction.followup.send(**{**private, "ephemeral": True})
    if update is not None:
        await interaction.edit_original_response(**as_edit(update))
    if done.dismiss and not _deferred_thinking(interaction):
        with contextlib.suppress(discord.NotFound):
            await interaction.delete_original_response()
    if private is None and _deferred_thinking(interaction):
        with contextlib.suppress(discord.NotFound):
            await interaction.delete_original_response()


def game_channel(client: discord.Client, session: SessionRecord) -> discord.PartialMessageable:
    """The game's channel, to post in without fetching it first."""
    guild_id = int(session.guild_id) if session.guild_id else None
    return client.get_partial_messageable(int(session.channel_id), guild_id=guild_id)


async def game_session(interaction: discord.Interaction, slug: str, command: str) -> SessionRecord:
    """The channel's game when it is `slug`; otherwise a refusal pointing at the commands that fit."""
    session = await host_of(interaction).open_session(str(interaction.channel_id))
    if session.slug != slug:
        usable = ", ".join(f"/{verb}" for verb in frontend_for(session.slug).usable_commands) or "the buttons"
        raise UserError(f"/{command} is a {get_game(slug).title} command; this channel plays "
                        f"{get_game(session.slug).title}: use {usable}.")
    return session


async def perform_in_channel(interaction: discord.Interaction,
                             build: Callable[[SessionRecord], Mapping[str, Any]]) -> None:
    """A slash command's action on the channel's game, built from the session once it is read."""

    async def work() -> MoveOutcome:
        host = host_of(interaction)
        session = await host.open_session(str(interaction.channel_id))
        return await host.act(session.id, str(interaction.user.id), build(session), from_command=True)

    await play(interaction, work)


async def perform_game_command(interaction: discord.Interaction, slug: str, command: str,
                               build: Callable[[], Mapping[str, Any]]) -> None:
    """A game's own command: check the channel plays that game, build the action, move, show the table."""

    async def work() -> MoveOutcome:
        session = await game_session(interaction, slug, command)
        return await host_of(interaction).act(session.id, str(interaction.user.id), build(), from_command=True)

    await play(interaction, work)


@handles("lobby")
async def press_lobby_button(interaction: discord.Interaction, session_id: int, verb: str) -> None:
    async def work() -> Done:
        session = await pressed_session(interaction, session_id)
        if session.status != "lobby":
            raise UserError("This lobby is closed. Look for the game's table, or `/game start`.")
        return await lobby_step(interaction, verb)

    await play(interaction, work)


async def lobby_step(interaction: discord.Interaction, verb: str) -> Done:
    """Join, leave or begin the channel's lobby; the table (the lobby card, then the board) follows."""
    host = host_of(interaction)
    channel_id = str(interaction.channel_id)
    player = str(interaction.user.id)
    if verb == "join":
        session, began = await host.join(channel_id, seat_of(interaction.user))
        return Done.of(began) if began is not None else Done(session_id=session.id)
    if verb == "leave":
        session = await host.leave(channel_id, player)
        return Done(session_id=session.id)
    return Done.of(await host.begin(channel_id, player))


@handles("table")
async def press_table_button(interaction: discord.Interaction, session_id: int, verb: str) -> None:
    """Rematch or New game on a finished game's table."""

    async def work() -> Done:
        host = host_of(interaction)
        channel_id = str(interaction.channel_id)
        if verb == "rematch":
            return Done.of(await host.rematch(channel_id, str(interaction.user.id)))
        last = await pressed_session(interaction, session_id)
        session = await host.open_lobby(guild_id=str(interaction.guild_id) if interaction.guild_id else None,
                                        channel_id=channel_id, slug=last.slug, creator=seat_of(interaction.user))
        return Done(session_id=session.id)

    await play(interaction, work)


async def show_ai_move(client: discord.Client, outcome: MoveOutcome) -> None:
    """A move the AI made (bot.play.ai_player) is shown like anyone's: the table, then the private panels."""
    try:
        await client.tables.show(outcome.session.id)  # type: ignore[attr-defined]
    except Exception:
        log.exception("could not update the table of session %s after the AI's move", outcome.session.id)
    await client.panels.update(outcome)  # type: ignore[attr-defined]

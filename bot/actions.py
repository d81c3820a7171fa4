"""One user intent, from interaction to reply: the path every command and button shares.

Cogs parse options and call these; these call the host, and only after the host
has committed do they answer Discord. A refusal is an ephemeral reply; an
unexpected error is logged with its traceback and answered with an apology.
"""

from __future__ import annotations

import contextlib
import io
import logging
from collections.abc import Awaitable, Callable, Mapping
from typing import Any

import discord

from bot.ai_seats import is_ai_id
from bot.drawing import draw_off_loop
from bot.frontends import frontend_for
from bot.host import Host, MoveOutcome, UserError
from bot.replies import board_message, game_label, image_names, lobby_message, mention, outcome_message
from bot.storage_errors import StorageError
from bot.store import Seat, SessionRecord
from bot.user_text import bounded_refusal, typed_values
from games import get_game
from games.core import IllegalMove

log = logging.getLogger(__name__)

APOLOGY = ("Sorry, something went wrong on my side. Nothing you did was lost: `/game status` shows where "
           "the game stands, and you can try again.")


def host_of(interaction: discord.Interaction) -> Host:
    return interaction.client.host  # type: ignore[attr-defined]


def seat_of(user: discord.abc.User) -> Seat:
    return Seat(id=str(user.id), name=getattr(user, "display_name", None) or user.name)


async def refuse(interaction: discord.Interaction, message: str) -> None:
    """Tell only the user what went wrong and what to do instead (quoting his text short: bot.user_text)."""
    message = bounded_refusal(message, list(typed_values(interaction.data)))
    if interaction.response.is_done():
        await interaction.followup.send(message, ephemeral=True)
    else:
        await interaction.response.send_message(message, ephemeral=True)


async def tell_storage_trouble(interaction: discord.Interaction, error: StorageError) -> None:
    """The database failed and rolled back: say so, and what to do (no apology: it is not a bug)."""
    log.warning("interaction %s: storage trouble (%s): %s", interaction.id, type(error).__name__, error)
    with contextlib.suppress(discord.HTTPException):
        await refuse(interaction, error.reply)


async def guarded(interaction: discord.Interaction, work: Callable[[], Awaitable[None]]) -> None:
    """Run `work`, turning refusals into ephemeral replies and crashes into an apology."""
    try:
        await work()
    except UserError as error:
        await refuse(interaction, error.message)
    except IllegalMove as error:
        await refuse(interaction, error.message)
    except StorageError as error:
        await tell_storage_trouble(interaction, error)
    except Exception:
        log.exception("interaction %s failed", interaction.id)
        with contextlib.suppress(discord.HTTPException):
            await refuse(interaction, APOLOGY)


async def pressed_session(interaction: discord.Interaction, session_id: int) -> SessionRecord:
    """The session a pressed component names, refused unless it belongs where it was pressed."""
    guild = str(interaction.guild_id) if interaction.guild_id is not None else None
    return await host_of(interaction).session_pressed_in(session_id, channel_id=str(interaction.channel_id),
                                                         guild_id=guild, player=str(interaction.user.id))


async def announce(interaction: discord.Interaction, outcome: MoveOutcome) -> None:
    """The public reply to a committed move, then each affected player's private view."""
    await interaction.response.send_message(**outcome_message(outcome))
    await send_private_views(interaction.client, interaction.channel, outcome)


async def user_of(client: discord.Client, player: str) -> discord.User:
    """The Discord user behind a player id, from the cache or fetched (members are not cached)."""
    return client.get_user(int(player)) or await client.fetch_user(int(player))


def game_channel(client: discord.Client, session: SessionRecord) -> discord.PartialMessageable:
    """The game's channel, to post in without fetching it first."""
    guild_id = int(session.guild_id) if session.guild_id else None
    return client.get_partial_messageable(int(session.channel_id), guild_id=guild_id)


async def send_private_views(client: discord.Client, channel: Any, outcome: MoveOutcome) -> None:
    """DM each player whose private view changed; tell the channel (naming no bone) if DMs are closed.

    The channel is told once per game and player, not at every change: the notice names the way
    round (/hand, Show my bones), and repeating it each turn would bury the game's messages.
    """
    session = outcome.session
    frontend = frontend_for(session.slug)
    closed: list[str] = []
    for player, after in outcome.views_after.items():
        if is_ai_id(player):
            continue  # the AI reads its view from the host, not from a direct message
        digest = frontend.private_digest(after)
        if digest is None or digest == frontend.private_digest(outcome.views_before.get(player, {})):
            continue
        try:
            user = await user_of(client, player)
            png = await draw_off_loop(frontend.draw_private, after, image_names(session), player)
            await user.send(
                f"Your view in {game_label(session)} (<#{session.channel_id}>):",
                file=discord.File(io.BytesIO(png), filename="your-view.png"),
            )
        except discord.Forbidden:
            closed.append(player)
        except discord.HTTPException:
            log.warning("could not DM player %s of session %s", player, session.id)
            closed.append(player)
    told: set[tuple[int, str]] = client.told_dms_closed  # type: ignore[attr-defined]
    closed = [player for player in closed if (session.id, player) not in told]
    if closed and channel is not None:
        told.update((session.id, player) for player in closed)
        who = ", ".join(mention(p) for p in closed)
        await channel.send(f"{who}: I can't send you direct messages. Use `/hand` or the **Show my bones** "
                           "button to see your private view.",
                           allowed_mentions=discord.AllowedMentions(users=True))


async def perform_in_channel(interaction: discord.Interaction, action: Mapping[str, Any]) -> None:
    """A slash command's action on the channel's game."""

    async def work() -> None:
        host = host_of(interaction)
        outcome = await host.act_in_channel(str(interaction.channel_id), str(interaction.user.id), action)
        await announce(interaction, outcome)

    await guarded(interaction, work)


async def game_session(interaction: discord.Interaction, slug: str, command: str) -> SessionRecord:
    """The channel's game when it is `slug`; otherwise a refusal pointing at the commands that fit."""
    session = await host_of(interaction).open_session(str(interaction.channel_id))
    if session.slug != slug:
        usable = ", ".join(f"/{verb}" for verb in frontend_for(session.slug).usable_commands) or "the buttons"
        raise UserError(f"/{command} is a {get_game(slug).title} command; this channel plays "
                        f"{get_game(session.slug).title}: use {usable}.")
    return session


async def perform_game_command(interaction: discord.Interaction, slug: str, command: str,
                               build: Callable[[], Mapping[str, Any]]) -> None:
    """A game's own command: check the channel plays that game, build the action, move, post the board."""

    async def work() -> None:
        session = await game_session(interaction, slug, command)
        outcome = await host_of(interaction).act(session.id, str(interaction.user.id), build())
        await announce(interaction, outcome)

    await guarded(interaction, work)


async def clear_buttons(interaction: discord.Interaction) -> None:
    """The pressed message's buttons are spent; remove them so nobody presses a stale one."""
    if interaction.message is not None:
        with contextlib.suppress(discord.HTTPException):
            await interaction.message.edit(view=None)


async def press_lobby_button(interaction: discord.Interaction, session_id: int, verb: str) -> None:
    async def work() -> None:
        session = await pressed_session(interaction, session_id)
        if session.status != "lobby":
            raise UserError("This lobby is closed. Look for the game's latest message, or `/game start`.")
        channel = str(interaction.channel_id)
        if verb == "join":
            await join(interaction, channel)
        elif verb == "leave":
            await leave(interaction, channel)
        else:
            await begin(interaction, channel)

    await guarded(interaction, work)


async def join(interaction: discord.Interaction, channel_id: str) -> None:
    session, began = await host_of(interaction).join(channel_id, seat_of(interaction.user))
    if began is not None:
        await announce_start(interaction, began)
    else:
        await interaction.response.send_message(
            **lobby_message(session, note=f"{mention(str(interaction.user.id))} joined."))


async def leave(interaction: discord.Interaction, channel_id: str) -> None:
    session = await host_of(interaction).leave(channel_id, str(interaction.user.id))
    if session.status == "abandoned":
        await interaction.response.send_message("The lobby is empty and has been closed.")
    else:
        await interaction.response.send_message(
            **lobby_message(session, note=f"{mention(str(interaction.user.id))} left."))


async def begin(interaction: discord.Interaction, channel_id: str) -> None:
    outcome = await host_of(interaction).begin(channel_id, str(interaction.user.id))
    await announce_start(interaction, outcome)


async def show_ai_move(client: discord.Client, outcome: MoveOutcome) -> None:
    """The public reply to a move the AI made (bot.ai_player), then the players' private views."""
    channel = game_channel(client, outcome.session)
    await channel.send(**outcome_message(outcome))
    await send_private_views(client, channel, outcome)


async def announce_start(interaction: discord.Interaction, outcome: MoveOutcome) -> None:
    players = ", ".join(mention(p) for p in outcome.session.player_ids)
    await interaction.response.send_message(
        **board_message(outcome.session, outcome.public_view, headline=f"The game begins: {players}.",
                        legal=outcome.legal))
    await send_private_views(interaction.client, interaction.channel, outcome)

"""Pressing a frontend component in Discord: read the press, check it, then show the next step or make the move.

The checks, and whether a press is a step or an action, are the press dispatcher's (bot.presentation.press),
shared with the web pages; a refusal is a private reply. A step (first the pawn, then its destination) is
shown to the presser alone; an action is made through the host and then shown on the table, and the player
gets his private components (e.g. where to put the bone he drew) in a reply only he sees.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import discord

from bot.discord.actions import Done, guarded, host_of, play, pressed_session
from bot.discord.attachments import attachment
from bot.discord.components import component_view, form_modal
from bot.discord.dispatch import handles
from bot.discord.replies import escaped_names
from bot.play.host import Host, MoveOutcome, UserError
from bot.presentation.alt_text import private_alt, step_alt
from bot.presentation.frontend import (
    ActionButton,
    Form,
    Select,
    Step,
    form_answers,
    narrate,
)
from bot.presentation.frontends import frontend_for
from bot.presentation.press import Pressed, not_offered, offered, step_or_action, undo_offered
from bot.presentation.user_text import MESSAGE_MAX
from bot.presentation.words import image_names, text_names
from bot.runtime.drawing import draw_off_loop
from bot.storage.store import SessionRecord

PRIVATE_FILE = "your-view.png"
STEP_FILE = "step.png"


async def check_press(interaction: discord.Interaction, session_id: int, version: int, key: str,
                      kind: type, tokens: Sequence[str] = ()) -> Pressed:
    """The press's component, or a refusal: stale version, unknown component, or someone else's."""
    session = await pressed_session(interaction, session_id)
    return await offered(host_of(interaction), session, str(interaction.user.id), version, key, kind, tokens)


@handles("act")
async def press_button(interaction: discord.Interaction, session_id: int, version: int, token: str) -> None:
    """A button: a step shown to the presser, or an action."""

    async def work() -> Done:
        pressed = await check_press(interaction, session_id, version, token, ActionButton)
        return await _step_or_act(interaction, pressed, version, [token])

    await play(interaction, work)


@handles("undo")
async def press_undo(interaction: discord.Interaction, session_id: int, version: int) -> None:
    """Undo on the table (bot.discord.buttons.UndoButton)."""

    async def work() -> Done:
        host, player = host_of(interaction), str(interaction.user.id)
        session = await pressed_session(interaction, session_id)
        return await undone(host, await undo_offered(host, session, player, version), player)

    await play(interaction, work)


async def undone(host: Host, outcome: MoveOutcome, player: str) -> Done:
    """An undo's answer: the choices it gave back to `player`, for him alone (a Johari Bones placement taken
    back leaves him a drawn bone to place again, and the reply that offered its places is gone)."""
    return Done.of(outcome, private=await actors_panel(outcome, player, host))


@handles("sel")
async def choose(interaction: discord.Interaction, session_id: int, version: int, key: str,
                 tokens: list[str]) -> None:
    """A select menu: the chosen options must be ones it offers."""

    async def work() -> Done:
        pressed = await check_press(interaction, session_id, version, key, Select, tokens)
        assert isinstance(pressed.component, Select)
        offered = {option.token for option in pressed.component.options}
        if not tokens or not set(tokens) <= offered:
            raise UserError(not_offered(host_of(interaction), pressed.session, pressed.player, version, tokens))
        return await _step_or_act(interaction, pressed, version, tokens)

    await play(interaction, work)


@handles("form")
async def open_form(interaction: discord.Interaction, session_id: int, version: int, key: str) -> None:
    """A form's button: open its modal for a player who may use it."""

    async def work() -> None:
        pressed = await check_press(interaction, session_id, version, key, Form)
        assert isinstance(pressed.component, Form)
        modal = form_modal(session_id, version, pressed.component)
        await interaction.response.send_modal(modal)
        # Forget the modal object: its answer is handled from the custom_id (cogs/components.py), the
        # same way before and after a restart.
        modal.stop()

    await guarded(interaction, work)


def form_values(data: Mapping[str, Any]) -> dict[str, str]:
    """The text inputs of a modal submit, by custom_id, wherever they are nested."""
    values: dict[str, str] = {}
    stack = list(data.get("components") or [])
    while stack:
        component = stack.pop()
        if "value" in component and "custom_id" in component:
            values[component["custom_id"]] = str(component["value"])
        stack.extend(component.get("components") or [])
        if isinstance(component.get("component"), dict):
            stack.append(component["component"])
    return values


async def submit_form(interaction: discord.Interaction, session_id: int, version: int, key: str) -> None:
    """A form's answers: the frontend turns them into an action, checked like any press."""

    async def work() -> Done:
        pressed = await check_press(interaction, session_id, version, key, Form)
        assert isinstance(pressed.component, Form)
        frontend = frontend_for(pressed.session.slug)
        action = frontend.action_for_form(key, form_answers(pressed.component, form_values(interaction.data or {})))
        return await _act(interaction, pressed, version, action)

    await play(interaction, work)


async def _step_or_act(interaction: discord.Interaction, pressed: Pressed, version: int,
                       tokens: list[str]) -> Done:
    step, action = step_or_action(pressed, tokens)
    if step is not None:
        return await show_step(interaction, pressed.session, step)
    return await _act(interaction, pressed, version, action)


def _from_private_message(interaction: discord.Interaction) -> bool:
    """Pressed on an ephemeral reply or in a direct message, rather than on the public table."""
    message = interaction.message
    if message is None:
        return False
    return bool(message.flags.ephemeral) or interaction.guild_id is None


async def show_step(interaction: discord.Interaction, session: SessionRecord, step: Step) -> Done:
    """The next choices, for the presser alone: in place of the private reply he chose on, else a new one."""
    view = component_view(session.slug, session.id, session.version, list(step.components), image_names(session))
    message: dict = {"content": step.text, "view": view, "allowed_mentions": discord.AllowedMentions.none()}
    host = host_of(interaction)
    if step.picture is not None and await host.text_view.pictures_for(session.guild_id, str(interaction.user.id)):
        names = image_names(session)
        png = await draw_off_loop(step.picture, names)
        alt = step_alt(session, host.public_view(session), names, step.alt or step.text)
        message["files"] = [attachment(png, STEP_FILE, description=alt)]
    if _from_private_message(interaction):
        return Done(update=message)
    return Done(private=message, note_of=session.id)


async def _act(interaction: discord.Interaction, pressed: Pressed, version: int, action: dict) -> Done:
    host = host_of(interaction)
    outcome = await host.act(pressed.session.id, pressed.player, action, expected_version=version)
    return publish(interaction, outcome, await actors_panel(outcome, pressed.player, host))


def publish(interaction: discord.Interaction, outcome: MoveOutcome, panel: dict | None = None) -> Done:
    """A committed move: the table shows it; the presser gets his private panel (the choice the move
    opened for him alone) if any.

    A private reply he chose on has been read: it becomes that panel, or it is deleted (the table
    tells what the move did), so a game leaves no private note per move behind. A message in his
    direct messages is not deleted: it is closed, saying what the move did."""
    message = interaction.message
    if message is not None and message.flags.ephemeral:
        if panel is not None:
            return Done.of(outcome, update=panel)
        return Done.of(outcome, dismiss=True)
    closed = ({"content": _done(outcome), "allowed_mentions": discord.AllowedMentions.none()}
              if _from_private_message(interaction) else None)
    return Done.of(outcome, private=panel, update=closed)


async def private_panel(session: SessionRecord, view: dict, player: str,
                        legal: Mapping[str, list[dict]], *, pictures: bool = True) -> dict | None:
    """Keyword arguments for `player`'s private reply: his words, picture (unless he asked for text:
    bot.play.text_view, and then the words say all the picture would) and private components."""
    frontend = frontend_for(session.slug)
    components = frontend.private_components(view, player, legal)
    names, escaped = image_names(session), escaped_names(session)
    text = (frontend.private_text(view, escaped, player) if pictures
            else frontend.private_alt_text(view, escaped, player))
    if not components and not text:
        return None
    kwargs: dict[str, Any] = {
        "content": text[:MESSAGE_MAX] or "Your choices (only you see this):",
        "view": component_view(session.slug, session.id, session.version, components, names),
        "ephemeral": True,
        "allowed_mentions": discord.AllowedMentions.none(),
    }
    if frontend.private_view and pictures:
        png = await draw_off_loop(frontend.draw_private, view, names, player)
        kwargs["file"] = attachment(png, PRIVATE_FILE, description=private_alt(session, view, names, player))
    return kwargs


def _done(outcome: MoveOutcome) -> str:
    """What a move made from a private reply did, in the table's words, for that reply."""
    lines = narrate(frontend_for(outcome.session.slug), list(outcome.events), text_names(outcome.session))
    return "\n".join(lines)[:MESSAGE_MAX] or "Done: see the table."


async def actors_panel(outcome: MoveOutcome, player: str, host: Host) -> dict | None:
    """After a player's own move, his private panel when the move opened private choices for him."""
    view = outcome.views_after.get(player)
    if view is None or outcome.session.status != "active":
        return None
    if not frontend_for(outcome.session.slug).private_components(view, player, outcome.legal):
        return None
    pictures = await host.text_view.pictures_for(outcome.session.guild_id, player)
    return await private_panel(outcome.session, view, player, outcome.legal, pictures=pictures)

"""A press on a player's personal page, through the same checks and host path as a Discord button.

The page sends the game version it was drawn for, the kind of control, its key and the chosen tokens
(or a form's answers). The press dispatcher (bot.presentation.press) checks them exactly as for a Discord press
(the version, that the control is still offered, that it is his); a step's choices go back to the page alone; an
action goes through `Host.act` (the version check and one transaction), and then the Discord table
and the private panels are brought up to date like after any move (`show_move`).
"""

from __future__ import annotations

import base64
from collections.abc import Awaitable, Callable, Mapping
from typing import Any

from bot.play.host import Host, MoveOutcome, UserError
from bot.presentation.frontend import Form, Select, Step, form_answers, narrate
from bot.presentation.frontends import frontend_for
from bot.presentation.press import KINDS, NOT_OFFERED, Pressed, offered, step_or_action, undo_offered
from bot.presentation.words import image_names
from bot.runtime.drawing import draw_off_loop
from bot.storage.store import SessionRecord
from bot.web.page_text import page_names
from bot.web.pages import step_choices

ShowMove = Callable[[MoveOutcome], Awaitable[None]]


class BadPress(UserError):
    """A request no page of ours sends (missing fields, wrong types)."""


def _request(body: Any) -> tuple[int, str, str, list[str], dict[str, str]]:
    if not isinstance(body, Mapping):
        raise BadPress("That request is not a move: reload the page.")
    version, kind, key = body.get("version"), body.get("kind"), body.get("key")
    tokens, values = body.get("tokens") or [], body.get("values") or {}
    if (not isinstance(version, int) or kind not in (*KINDS, "undo") or not isinstance(key, str)
            or not isinstance(tokens, list) or not all(isinstance(t, str) for t in tokens)
            or not isinstance(values, Mapping)):
        raise BadPress("That request is not a move: reload the page.")
    return version, kind, key, tokens, {str(k): str(v) for k, v in values.items()}


async def press(host: Host, session: SessionRecord, player: str, body: Any, show_move: ShowMove) -> dict:
    """Do what the page asked; returns what to tell the page (`done` or `step`), or raises `UserError`."""
    version, kind, key, tokens, values = _request(body)
    if kind == "undo":
        return await _moved(await undo_offered(host, session, player, version), show_move)
    pressed = await offered(host, session, player, version, key, KINDS[kind], tokens)
    frontend = frontend_for(session.slug)
    if isinstance(pressed.component, Form):
        action = frontend.action_for_form(key, form_answers(pressed.component, values))
    else:
        tokens = tokens if isinstance(pressed.component, Select) else [key]
        step, action = _step_or_action(pressed, tokens)
        if step is not None:
            return {"step": await _step_page(step, session)}
    return await _moved(await host.act(session.id, player, action, expected_version=version), show_move)


def _step_or_action(pressed: Pressed, tokens: list[str]) -> tuple[Step | None, dict]:
    """The step the chosen token opens (for the page), else the action the choice stands for; a menu's
    choice must be one it offers, as many as it allows."""
    component = pressed.component
    if isinstance(component, Select):
        offered_tokens = {option.token for option in component.options}
        if not tokens or not set(tokens) <= offered_tokens or len(tokens) > component.max_values:
            raise UserError(NOT_OFFERED)
    return step_or_action(pressed, tokens)


async def _step_page(step: Step, session: SessionRecord) -> dict:
    """A step for the chooser's page alone: its words, its choices, and its picture (a build's preview)
    inline, since it is drawn for him and this answer only."""
    page = step_choices(step, image_names(session))
    if step.picture is not None:
        png = await draw_off_loop(step.picture, image_names(session))
        page["picture"] = "data:image/png;base64," + base64.b64encode(png).decode()
    return page


async def _moved(outcome: MoveOutcome, show_move: ShowMove) -> dict:
    await show_move(outcome)
    lines = narrate(frontend_for(outcome.session.slug), list(outcome.events), page_names(image_names(outcome.session)))
    return {"done": "\n".join(lines) or "Done.", "version": outcome.session.version}

"""A press, from either window: is it one the game offers the presser now, and is it a step or an action?

Every press is checked against the game as it is now, not against what the message or page says: the
version it was drawn for must be current, the component must still be one the frontend declares (on the
table, in the presser's private view, or in a step he may open), the presser must be one of its `players`,
and a menu's choice must be one it offers. Any other press is refused (`UserError`) and changes nothing.
The Discord window (bot.discord.presses) and the web's (bot.web.play) read the press from their own
request, come through here, and render what it gives: a step for the presser alone, or the action to make.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from bot.play.host import Host, MoveOutcome, UserError
from bot.presentation.frontend import ActionButton, Component, Form, Frontend, Select, Step, step_key
from bot.presentation.frontends import frontend_for
from bot.storage.store import SessionRecord
from games.core import IllegalMove

NOT_OFFERED = "That choice is not offered to you now: use the latest table's buttons and menus."
KINDS: dict[str, type] = {"button": ActionButton, "select": Select, "form": Form}
"""A pressed component's kind, as a page names it."""


def not_yours(session: SessionRecord, players: tuple[str, ...], presser: str, why: str = "") -> str:
    """The refusal for a component meant for other players; it names them (and the engine's reason, if any)."""
    if not players:
        return "Nobody can use that now: use the latest table's buttons and menus."
    names = " or ".join(session.name_of(player) for player in players)
    if presser not in session.player_ids:
        return f"You are not playing in this game: that is for {names} to use."
    return f"That is for {names} to use, not you.{' ' + why if why else ''}"


@dataclass
class Pressed:
    """A press that passed the checks: the component, and what the presser's game looks like."""

    session: SessionRecord
    player: str
    component: Component
    own_view: dict
    legal: dict[str, list[dict]]


def key_of(component: Component) -> str:
    """What a press names a component by: a button's token, a menu's or form's key."""
    return component.token if isinstance(component, ActionButton) else component.key


def declared(frontend: Frontend, public: dict, own: dict, player: str,
             legal: Mapping[str, list[dict]]) -> list[Component]:
    """Everything the player could see now: the table's components and his private ones."""
    return [*frontend.components(public, legal), *frontend.private_components(own, player, legal)]


def _find(frontend: Frontend, key: str, kind: type, found: list[Component], own: dict, player: str,
          legal: Mapping[str, list[dict]]) -> Component | None:
    for component in found:
        if isinstance(component, kind) and key_of(component) == key:
            return component
    step = frontend.expand(step_key(key), own, player, legal)
    if step is None:
        return None
    return next((c for c in step.components if isinstance(c, kind) and key_of(c) == key), None)


async def offered(host: Host, session: SessionRecord, player: str, version: int, key: str, kind: type,
                  tokens: Sequence[str] = ()) -> Pressed:
    """The component `key` of the game at `version`, if `player` may use it now; else a refusal.
    `tokens`: a menu's choice, which a refusal may explain (`not_offered`)."""
    session = await host.require_current(session, version, player)
    frontend = frontend_for(session.slug)
    legal = host.legal_by_player(session)
    own = host.view_for(session, player)
    found = declared(frontend, host.public_view(session), own, player, legal)
    component = _find(frontend, key, kind, found, own, player, legal)
    if component is None:
        raise UserError(not_offered(host, session, player, version, tokens))
    if component.players is not None and player not in component.players:
        why = ""
        if player in session.player_ids and isinstance(component, ActionButton):
            why = _engine_refusal(host, session, frontend, component.token, player, version)
        raise UserError(not_yours(session, component.players, player, why))
    return Pressed(session, player, component, own, legal)


def not_offered(host: Host, session: SessionRecord, player: str, version: int, tokens: Sequence[str]) -> str:
    """The refusal for a choice not offered now. One made in a menu drawn before the game moved on says the
    engine's reason, which tells what changed and what to do now: a pawn's destinations chosen after the
    opponent called Jump get "Bob called Jump: you must jump this turn (use /jump)", not a bare refusal."""
    if len(tokens) == 1 and version < session.version:
        why = _engine_refusal(host, session, frontend_for(session.slug), tokens[0], player, None)
        if why:
            return f"{why} That menu was drawn before: use the latest table's buttons and menus."
    return NOT_OFFERED


def _engine_refusal(host: Host, session: SessionRecord, frontend: Frontend, token: str, player: str,
                    version: int | None) -> str:
    """The engine's reason why a seated player may not make a button's (or a menu option's) move now (it says
    more than we can); nothing for a token that opens a step or stands for no move."""
    if frontend.expand(token, host.view_for(session, player), player, host.legal_by_player(session)) is not None:
        return ""
    try:
        action = frontend.action_for_button(token)
    except (IllegalMove, UserError):
        return ""
    try:
        host.preview(session, player, action, expected_version=version)
    except (IllegalMove, UserError) as refusal:
        return refusal.message
    return ""


def step_or_action(pressed: Pressed, tokens: Sequence[str]) -> tuple[Step | None, dict]:
    """The step the one chosen token opens (shown to the presser alone), else the action the choice stands
    for: a menu of several choices as one action, else the button's (or the one option's) token."""
    frontend = frontend_for(pressed.session.slug)
    if len(tokens) == 1:
        step = frontend.expand(tokens[0], pressed.own_view, pressed.player, pressed.legal)
        if step is not None:
            return step, {}
    component = pressed.component
    if isinstance(component, Select) and component.max_values > 1:
        return None, frontend.action_for_choice(component.key, list(tokens))
    return None, frontend.action_for_button(tokens[0])


async def undo_offered(host: Host, session: SessionRecord, player: str, version: int) -> MoveOutcome:
    """Take back `player`'s move if the Undo drawn at `version` is his now; anyone else is told whose it
    is, like any component meant for someone else."""
    session = await host.require_current(session, version, player)
    undoer = await host.undoer(session)
    if player != undoer:
        raise UserError(not_yours(session, (undoer,) if undoer else (), player))
    return await host.undo(session.id, player, expected_version=version)


def usable(frontend: Frontend, public: dict, own: dict, player: str,
           legal: Mapping[str, list[dict]]) -> list[Component]:
    """The table's and his private components that `player` may use now, for a page that offers them all at
    once. A button that is neither an action nor a step (Johari's "Show my bones": the page shows his bones
    anyway) is left out, and so is a step whose choices the page already offers."""
    mine = [component for component in declared(frontend, public, own, player, legal)
            if component.players is None or player in component.players]
    keys = {key_of(component) for component in mine}
    kept = []
    for component in mine:
        if isinstance(component, ActionButton):
            step = frontend.expand(component.token, own, player, legal)
            if step is not None and step.components and {key_of(c) for c in step.components} <= keys:
                continue
            if step is None and not _is_action(frontend, component.token):
                continue
        kept.append(component)
    return kept


def _is_action(frontend: Frontend, token: str) -> bool:
    try:
        frontend.action_for_button(token)
    except IllegalMove:
        return False
    return True

"""What a web page shows, built from views only, as the JSON its script draws.

Everyone's page (`public`) renders the Discord table's model (bot.presentation.table_model): the board's
picture (its address), whose turn it is, the narration since the turn changed, the board in words
(the table's own text, names instead of mentions), and the move log. Its turn line is the model's
watcher's line ("alice's turn."), not the message's ping ("@alice: your turn.").

A player's personal page (`personal`) is the same table with his own part in it, not a second message
stacked on the first: one picture (the public board: his private picture would be the same board again,
and Johari's his bones on it), what only he sees as a compact part in words under its own title
(`Frontend.private_title`/`private_part`: "Your bones"), and his choices under a prompt of their own
(`bot.presentation.words.move_prompt`: "Place the 5-5 on…"). Nothing of it is ever built for anyone else.

Payloads and pictures are kept per game version, so a hundred open pages cost one build per move.
"""

from __future__ import annotations

import asyncio
from collections import OrderedDict
from collections.abc import Mapping
from typing import Any

from bot.play.host import Host
from bot.presentation.frontend import Component, Form, Frontend, Select, Step
from bot.presentation.frontends import frontend_for
from bot.presentation.press import usable
from bot.presentation.table_model import lobby_model, table_model
from bot.presentation.words import (
    LABEL_MAX,
    ended_view,
    headline,
    image_names,
    move_prompt,
    named,
    text_names,
)
from bot.runtime.drawing import draw_off_loop
from bot.storage.store import SessionRecord
from bot.web.move_log import MoveLogs
from bot.web.page_text import LONG_TEXT, page_text
from games import get_game

CACHED_VERSIONS = 256
"""Public payloads and board pictures kept (one per game version)."""


class Pages:
    """Builds (and keeps) the pages' payloads and pictures for a host."""

    def __init__(self, host: Host) -> None:
        self.host = host
        self._public: OrderedDict[tuple[int, int], dict] = OrderedDict()
        self._boards: OrderedDict[tuple[int, int], bytes] = OrderedDict()
        self._reading: dict[int, asyncio.Future[SessionRecord]] = {}
        self.logs = MoveLogs(host)

    async def fresh(self, session_id: int) -> SessionRecord:
        """The game as committed in the store (another process may have moved it); pages that wake
        together for one change share one read."""
        reading = self._reading.get(session_id)
        if reading is None:
            reading = asyncio.ensure_future(self.host.session(session_id))
            self._reading[session_id] = reading
            reading.add_done_callback(lambda _: self._reading.pop(session_id, None))
        return await asyncio.shield(reading)

    async def public(self, session: SessionRecord, board_url: str) -> dict:
        """Everyone's page: nothing but the public view and the session's public facts."""
        key = (session.id, session.version)
        cached = self._public.get(key)
        if cached is None:
            cached = await self._build_public(session)
            _keep(self._public, key, cached, CACHED_VERSIONS)
        has_board = session.state is not None
        return {**cached, "board": f"{board_url}?v={session.version}" if has_board else None}

    async def _build_public(self, session: SessionRecord) -> dict:
        names = image_names(session)
        page: dict[str, Any] = {
            "game": get_game(session.slug).title, "number": session.id, "version": session.version,
            "status": session.status, "players": [seat.name for seat in session.players],
        }
        if session.state is None:
            page.update(turn="", headline="", narration=[], text=page_text(lobby_model(session).text, names),
                        log=[], dice="")
            return page
        table = table_model(session, self.host.public_view(session), session.turn_events, headline(session),
                            picture=False)
        page.update(
            # Whose turn it is as a watcher reads it (the message's ping line, "@alice: your turn.", is Discord's).
            turn=page_text(table.watch, names),
            # An abandoned table's headline points to its New game button, which a page does not have.
            headline=page_text(table.headline or "", names) if session.status != "abandoned" else "",
            narration=[page_text(line, names) for line in table.told],
            text=page_text(table.state, names),
            log=await self.logs.lines(session),
            dice=(table.dice or "").replace("`", ""),  # as the table shows it, without Discord's code marks
        )
        return page

    async def personal(self, session: SessionRecord, player: str, board_url: str) -> dict:
        """`player`'s own page: the public page, his own part of the table, and what he may do now."""
        page = await self.public(session, board_url)
        names = image_names(session)
        page["you"] = names.get(player, player)
        if session.status != "active" or session.state is None:
            return {**page, "private_title": "", "private_text": "", "prompt": "", "choices": []}
        frontend = frontend_for(session.slug)
        public, own = self.host.public_view(session), self.host.view_for(session, player)
        legal = self.host.legal_by_player(session)
        choices = usable_choices(frontend, public, own, player, legal, names)
        if await self.host.undoer(session) == player:
            choices.append({"kind": "undo", "key": "undo", "label": "Undo my last move"})
        return {**page, "private_title": frontend.private_title,
                "private_text": page_text(frontend.private_part(own, text_names(session), player), names),
                "prompt": page_text(move_prompt(session, public, own, player), names) if choices else "",
                "choices": choices}

    async def board(self, session: SessionRecord) -> bytes:
        """The public board's picture, drawn as the table draws it (once per version)."""
        key = (session.id, session.version)
        png = self._boards.get(key)
        if png is None:
            view = ended_view(session, self.host.public_view(session))
            png = await draw_off_loop(frontend_for(session.slug).draw_board, view, image_names(session),
                                      session.turn_events)
            _keep(self._boards, key, png, CACHED_VERSIONS)
        return png


def usable_choices(frontend: Frontend, public: dict, own: dict, player: str, legal: Mapping[str, list[dict]],
                   names: Mapping[str, str]) -> list[dict]:
    """The components `player` may use now (bot.presentation.press.usable), as the page draws them."""
    return [choice(component, names) for component in usable(frontend, public, own, player, legal)]


def step_choices(step: Step, names: Mapping[str, str]) -> dict:
    """A step opened from a page: its words and its components, for the chooser alone."""
    return {"text": page_text(step.text, names), "choices": [choice(component, names) for component in step.components]}


def choice(component: Component, names: Mapping[str, str]) -> dict:
    """One component as the page draws it: buttons (a menu's options as buttons too), or a form."""
    if isinstance(component, Select):
        return {"kind": "select", "key": component.key, "label": named(component.placeholder, names, LABEL_MAX),
                "min": component.min_values, "max": min(component.max_values, len(component.options)),
                "options": [{"token": option.token, "label": named(option.label, names, LONG_TEXT),
                             "description": named(option.description, names, LONG_TEXT)}
                            for option in component.options]}
    if isinstance(component, Form):
        return {"kind": "form", "key": component.key, "label": named(component.label, names, LABEL_MAX),
                "title": component.title,
                "fields": [{"key": field.key, "label": field.label, "placeholder": field.placeholder,
                            "min": field.min_length, "max": field.max_length} for field in component.fields]}
    return {"kind": "button", "key": component.token, "label": named(component.label, names, LABEL_MAX),
            "style": component.style}


def _keep(cache: OrderedDict, key: Any, value: Any, size: int) -> None:
    cache[key] = value
    cache.move_to_end(key)
    while len(cache) > size:
        cache.popitem(last=False)


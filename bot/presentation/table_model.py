"""What a table (and a lobby card) says and offers, built once from the views as plain data: the model both
windows render.

The Discord message (bot.discord.replies.table_message) and the web page (bot.web.pages) are two renderings
of the same `TableModel`, so a wording fix lands in both. Everything here reads views and session metadata
only, never engine state.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from bot.presentation.alt_text import board_alt, update_label
from bot.presentation.dice_table import dice_line
from bot.presentation.frontend import Component
from bot.presentation.frontends import frontend_for
from bot.presentation.markdown import Escape, markdown_escaped
from bot.presentation.words import (
    LABEL_MAX,
    board_content,
    ended_view,
    fitted,
    image_names,
    lobby_lines,
    lobby_waiting,
    mention,
    narration,
    state_words,
    text_names,
    watch_line,
)
from bot.storage.store import SessionRecord
from games import get_game


@dataclass(frozen=True)
class TableModel:
    """A table: its words (Discord text, mentions in), its picture's alt text, and its choices with the keys
    a press sends back (the frontend's components, for the players each names)."""

    session_id: int
    version: int
    slug: str
    status: str
    title: str
    content: str | None
    """Whose turn it is (or the result) and what the others may do now: the message's text, the page's turn."""
    watch: str
    """Whose turn it is (or the result) as a watcher reads it, without the message's pings: a web page's turn line
    ("alice's turn.", where the message says "@alice: your turn.")."""
    headline: str | None
    told: tuple[str, ...]
    """What happened since the turn last changed, one line per event."""
    state: str
    """The game as it stands, in its frontend's words."""
    words: str
    """The headline, what happened and the state, fitted to a table's length (`fitted`)."""
    footer: str
    dice: str | None
    alt: str | None
    """The picture's alt text; None when the table has no picture."""
    components: tuple[Component, ...]
    names: Mapping[str, str]
    """Each player's name where no mention can show (labels, pictures)."""
    undo_label: str | None
    """The Undo offer, named for the one who may take his move back; None while nobody may."""
    end_offers: tuple[str, ...]
    """Once the game is over: "rematch" (finished), "new" (finished or abandoned) and "replay" (an ended game that
    began: bot.presentation.replays)."""
    ping: tuple[str, ...]


def table_model(session: SessionRecord, public_view: dict, events: Sequence[dict] = (), headline: str | None = None,
                *, legal: Mapping[str, list[dict]] | None = None, undoer: str | None = None, ping: Sequence[str] = (),
                picture: bool = True, escape: Escape = markdown_escaped) -> TableModel:
    """The table of `session` at `public_view`, with what happened (`events`) under the `headline`; its
    choices drawn from every player's `legal` actions while the game runs; Undo named for `undoer`."""
    names = text_names(session)
    pictured = image_names(session)
    told = tuple(narration(session, events, names))
    state = state_words(session, public_view, names)
    running = session.status == "active"
    ended = session.status in ("finished", "abandoned")
    offers = (("rematch",) if session.status == "finished" else ()) + (("new",) if ended else ()) + (
        ("replay",) if ended and session.setup_outcomes is not None else ())
    return TableModel(
        session_id=session.id, version=session.version, slug=session.slug, status=session.status,
        title=get_game(session.slug).title,
        content=board_content(session, public_view, escape),
        watch=watch_line(session, public_view, escape),
        headline=headline, told=told, state=state, words=fitted(headline, told, state),
        footer=f"Game #{session.id} · {update_label(session)}",
        dice=dice_line(session),
        alt=board_alt(session, ended_view(session, public_view), pictured, events) if picture else None,
        components=tuple(frontend_for(session.slug).components(public_view, legal or {}) if running else ()),
        names=pictured,
        undo_label=(f"Undo ({pictured.get(undoer, undoer)})"[:LABEL_MAX]
                    if undoer is not None and running else None),
        end_offers=offers,
        ping=tuple(ping),
    )


@dataclass(frozen=True)
class LobbyModel:
    """A lobby card: who has joined, who is invited, how it begins, and the verbs its buttons offer."""

    session_id: int
    title: str
    content: str | None
    """The invited who have not joined, mentioned."""
    text: str
    verbs: tuple[str, ...]
    """"join", "leave" and (when the game takes a range of players) "begin", while the lobby is open."""
    footer: str
    ping: tuple[str, ...]


def lobby_model(session: SessionRecord, *, ping: Sequence[str] = ()) -> LobbyModel:
    """The lobby card of `session`; a lobby closed before its game began says so and offers nothing."""
    game = get_game(session.slug)
    verbs: tuple[str, ...] = ()
    if session.status == "lobby":
        verbs = ("join", "leave", "begin") if game.min_players < game.max_players else ("join", "leave")
    return LobbyModel(
        session_id=session.id, title=f"Lobby: {game.title}",
        content=" ".join(mention(p) for p in lobby_waiting(session)) or None,
        text="\n".join(filter(None, lobby_lines(session))), verbs=verbs, footer=f"Game #{session.id}",
        ping=tuple(ping),
    )

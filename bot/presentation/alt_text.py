"""Alt text: every picture Parlor sends carries the game's state in words (issue 25).

Discord reads an attachment's `description` to screen-reader users, up to `ALT_TEXT_MAX` characters.
`bot.discord.attachments.attachment` is the one place Parlor builds a file to send, and it refuses a file without a
description, so no picture can leave without one. The texts are built here from views only:

- a board (the table, `/game status`) from the public view: the game and update, whose turn it is or
  who won, the frontend's `alt_text` (by default its `describe_state`, the embed's own words), then
  what happened since the turn last changed;
- a private picture (a Johari panel, a step's picture, a build preview) from its owner's view: the
  same head, then all the picture shows him (`Frontend.private_alt_text`: his bones, and what the
  table shows too, such as Johari's pile and score sheets). It goes only to him, so it may name his
  bones; a public description never says more than the public view.

Names are display names (a screen reader spells a mention's id), and markdown marks are dropped, but
never from a name: a player named `__init__` is read as written (`plain_named` builds the words with a
token for each name, drops the marks, then puts the names back). The head
(game, update, whose turn) always fits; past the limit the oldest events go first (the latest
`EVENTS_AT_LEAST` characters stay), then the end of the state. A game whose state runs long says
its essentials in `Frontend.alt_text` (Crayon Rails: cash, train, loads, locked cards).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence

from bot.presentation.frontend import Names, joined, narrate
from bot.presentation.frontends import frontend_for
from bot.storage.store import SessionRecord
from games import get_game

ALT_TEXT_MAX = 1024
"""Discord's limit on an attachment's description."""
EVENTS_AT_LEAST = 200
"""Characters kept for the turn's events when the state leaves less (the latest events are kept)."""
_MARKDOWN = re.compile(r"\*\*|__|`")
_NAME_TOKEN = re.compile("\x00([0-9]+)\x00")
"""A name's stand-in while words are made plain (`plain_named`): no markdown mark, nothing a player types."""


def update_label(session: SessionRecord) -> str:
    """Which moment of the game a table, panel or picture shows: "update 14". The game's version counts
    every change (each move, an undo, a stand-in, a setting), so it is named so that nobody reads it as
    the number of moves made (the README's table section)."""
    return f"update {session.version}"


def plain(text: str) -> str:
    """Text as a screen reader should get it: no markdown marks, lines as sentences."""
    lines = [line.strip() for line in _MARKDOWN.sub("", text).splitlines()]
    return " ".join(line if line.endswith((".", "!", "?", ":")) else f"{line}." for line in lines if line)


def plain_named(words: Callable[[Names], str], names: Names) -> str:
    """The words `words` builds from `names`, made plain with every name as written: a name's `__` or
    backticks are part of it, not marks. The words are built with a token for each name, then made plain,
    then the names put back."""
    players = list(names)
    tokens = {player: f"\x00{index}\x00" for index, player in enumerate(players)}
    return _NAME_TOKEN.sub(lambda found: names[players[int(found[1])]], plain(words(tokens)))


def latest(text: str, limit: int) -> str:
    """The end of `text` within `limit` characters: an ellipsis, then the latest sentences (or words)."""
    if len(text) <= limit:
        return text
    tail = text[len(text) - limit + 1:]
    for mark in (". ", " "):
        if mark in tail[:limit // 2]:
            return "…" + tail[tail.index(mark) + len(mark):]
    return "…" + tail


def shorten(text: str, limit: int = ALT_TEXT_MAX, marks: Sequence[str] = (" ",)) -> str:
    """`text` within `limit` characters, cut with an ellipsis when longer: at the last of the first of
    `marks` found in its second half (e.g. between list entries, else between words)."""
    if len(text) <= limit:
        return text
    cut = text[:limit - 1]
    mark = next((mark for mark in marks if mark in cut[limit // 2:]), None)
    if mark is not None:
        cut = cut[:cut.rindex(mark)]
    return cut.rstrip(" ,;") + "…"


def ending(winners: Sequence[str]) -> str:
    """How a game ended, from its winners' names."""
    return f"Game over: {joined(winners)} won." if winners else "Game over: nobody won."


def turn_words(session: SessionRecord, view: dict, names: Names) -> str:
    """Whose turn it is, or how the game ended, with display names."""
    if session.status == "finished":
        winners = [names.get(w, w) for w in (session.result or {}).get("winners") or []]
        return ending(winners)
    if session.status == "abandoned":
        return "The game was abandoned."
    to_act = [names.get(p, p) for p in view.get("to_act") or []]
    if not to_act:
        return ""
    return f"{to_act[0]}'s turn." if len(to_act) == 1 else f"{joined(to_act)} to act."


def _head(session: SessionRecord, view: dict, names: Names, what: str) -> str:
    title = get_game(session.slug).title
    return f"{what} of {title} #{session.id}, {update_label(session)}. {turn_words(session, view, names)}".strip()


def board_alt(session: SessionRecord, view: dict, names: Names, events: Sequence[dict] = ()) -> str:
    """The public board in words: see the module docstring."""
    frontend = frontend_for(session.slug)
    told = [event for event in events if event.get("type") != "began"]
    happened = plain_named(lambda named: "\n".join(narrate(frontend, told, named)), names)
    head = _head(session, view, names, "Board")
    state = plain_named(lambda named: frontend.alt_text(view, named), names)
    room = ALT_TEXT_MAX - len(head) - len(" Last: ") - 1
    last = latest(happened, max(room - len(state), EVENTS_AT_LEAST))
    state = shorten(state, room - len(last))
    return " ".join(part for part in (head, state, f"Last: {last}" if last else "") if part)


def private_alt(session: SessionRecord, view: dict, names: Names, viewer: str) -> str:
    """`viewer`'s own picture in words, for him alone: the head, then what his view shows him."""
    own = plain_named(lambda named: frontend_for(session.slug).private_alt_text(view, named, viewer), names)
    what = f"{names.get(viewer, viewer)}'s private view"
    return " ".join(part for part in (_head(session, view, names, what), own) if part)


def step_alt(session: SessionRecord, view: dict, names: Names, text: str) -> str:
    """A step's picture (e.g. proposed track on the map), for the chooser alone: the head and the step's words."""
    return " ".join(part for part in (_head(session, view, names, "Map"), plain(text)) if part)

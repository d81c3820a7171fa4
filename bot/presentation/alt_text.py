"""Alt text: every picture Parlor sends carries the game's state in words (issue 25), briefly.

Discord reads an attachment's `description` to screen-reader users, up to `ALT_TEXT_MAX` characters.
`bot.discord.attachments.attachment` is the one place Parlor builds a file to send, and it refuses a file without
a description, so no picture can leave without one. The texts are built here from views only, in this order:

- the head: what the picture is (the board, someone's private view, a map), the game and update;
- who acts: whose turn it is ("alice's turn.", "alice and bob to act.") or who won, said once (the state's
  own turn line is left out), then what is awaited in the game's words where it has them
  (`Frontend.alt_awaited`: "Roll the bonus die or keep the 6.");
- what changed: the latest line the table told ("Last: …"; a board only);
- the state: a board's from the public view (`Frontend.alt_text`: what the picture shows that matters, not
  its static parts, such as Two Fat Dudes' thirteen spaces); a private picture's from its owner's view
  (`Frontend.private_alt_text`, which may name his Johari bones: it goes only to him); a step's
  picture's from the step's words without milepost codes (`Step.alt`, Crayon Rails' build preview);
- then, if room is left, the turn's earlier lines ("Before that: …"), the latest kept.

Each game has a budget, well under Discord's limit, that its alt text never passes (`ALT_BUDGETS`):
John Henry 500, Two Fat Dudes 600, Follow the Arrow 700 (ten pawns and their arrows), Johari Bones 900
(at scoring, four 32-character names said as whose turn it is, then each player's four bones and total,
which all stay) and Crayon Rails 900 (its worst case: two 32-character names with five locked cards each, a
super train full and four events in force, which all stay). Games of shorter names stay well within.
Within it the latest line takes at most a quarter (its end is kept), the state is cut at its end (each
game puts first what matters most: Crayon Rails' tracks and Johari's score sheets come last), and the
earlier lines fill what is left. tests/bot/test_alt_text_budgets.py plays long random games of every game to hold this.

Names are display names (a screen reader spells a mention's id), and markdown marks are dropped, but
never from a name: a player named `__init__` is read as written (`plain_named` builds the words with a
token for each name, drops the marks, then puts the names back).
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
ALT_BUDGETS = {"john-henry": 500, "two-fat-dudes": 600, "follow-the-arrow": 700, "johari-bones": 900,
               "crayon-rails": 900}
"""Each game's most characters for a picture's alt text: see the module docstring."""
DEFAULT_BUDGET = 600
LATEST_SHARE = 4
"""The latest line of what happened takes at most this fraction of the budget (its end is kept)."""
EARLIER_AT_LEAST = 40
"""Room below which the turn's earlier lines are left out rather than cut to a stub."""
TURN_LINES = ("To roll: ", "To act: ", "Waiting for ")
"""The words' own lines of whose turn it is (John Henry, Crayon Rails, Johari Bones' private picture), left out
of the alt text's state: the turn is said once, before it."""
_MARKDOWN = re.compile(r"\*\*|__|`")
_NAME_TOKEN = re.compile("\x00([0-9]+)\x00")
"""A name's stand-in while words are made plain (`plain_named`): no markdown mark, nothing a player types."""


def update_label(session: SessionRecord) -> str:
    """Which moment of the game a table, panel or picture shows: "update 14". The game's version counts
    every change (each move, an undo, a stand-in, a setting), so it is named so that nobody reads it as
    the number of moves made (docs/players.md, the table)."""
    return f"update {session.version}"


def plain(text: str) -> str:
    """Text as a screen reader should get it: no markdown marks, lines as sentences."""
    lines = [line.strip() for line in _MARKDOWN.sub("", text).splitlines()]
    return " ".join(line if line.endswith((".", "!", "?", ":")) else f"{line}." for line in lines if line)


def plain_named(words: Callable[[Names], str], names: Names) -> str:
    """The words `words` builds from `names`, made plain with every name as written: a name's `__` or
    backticks are part of it, not marks. The words are built with a token for each name, then made plain,
    then the names put back."""
    return " ".join(plain_lines(lambda tokens: words(tokens).splitlines(), names))


def plain_lines(lines: Callable[[Names], Sequence[str]], names: Names) -> list[str]:
    """As `plain_named`, line by line: each line `lines` builds, as a plain sentence."""
    players = list(names)
    tokens = {player: f"\x00{index}\x00" for index, player in enumerate(players)}
    named = (_NAME_TOKEN.sub(lambda found: names[players[int(found[1])]], plain(line)) for line in lines(tokens))
    return [line for line in named if line]


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


def budget(slug: str) -> int:
    """How many characters a picture's alt text of this game may take (see the module docstring)."""
    return ALT_BUDGETS.get(slug, DEFAULT_BUDGET)


def _head(session: SessionRecord, what: str) -> str:
    return f"{what} of {get_game(session.slug).title} #{session.id}, {update_label(session)}."


def _turn(session: SessionRecord, view: dict, names: Names) -> str:
    """Whose turn it is (or who won), said once, then what is awaited in the game's words where it has them."""
    turn = turn_words(session, view, names)
    if session.status != "active" or not turn:
        return turn
    awaited = plain_named(lambda named: frontend_for(session.slug).alt_awaited(view, named), names)
    return f"{turn} {awaited}".strip()


def _without_turn(state: str) -> str:
    """The state's words without their own line of whose turn it is: the turn is said once already."""
    return "\n".join(line for line in state.splitlines() if not line.startswith(TURN_LINES))


def _composed(session: SessionRecord, view: dict, names: Names, what: str, state: str,
              happened: Sequence[str] = ()) -> str:
    """The head, whose turn, the latest line of what happened, the state, then the turn's earlier lines, within
    the game's budget: the latest line is cut to `LATEST_SHARE` of it, the state at its end, the earlier lines
    from the oldest."""
    limit = budget(session.slug)
    last = f"Last: {latest(happened[-1], limit // LATEST_SHARE)}" if happened else ""
    lead = " ".join(part for part in (_head(session, what), _turn(session, view, names), last) if part)
    room = limit - len(lead) - 1
    state = shorten(state, room) if state and room > len(" …") else ""
    told = " ".join(part for part in (lead, state) if part)
    room = limit - len(told) - len(" Before that: ")
    if happened[:-1] and room >= EARLIER_AT_LEAST:
        told = f"{told} Before that: {latest(' '.join(happened[:-1]), room)}"
    return shorten(told, limit)


def board_alt(session: SessionRecord, view: dict, names: Names, events: Sequence[dict] = ()) -> str:
    """The public board in words: see the module docstring."""
    frontend = frontend_for(session.slug)
    told = [event for event in events if event.get("type") != "began"]
    happened = plain_lines(lambda named: narrate(frontend, told, named), names)
    state = plain_named(lambda named: _without_turn(frontend.alt_text(view, named)), names)
    return _composed(session, view, names, "Board", state, happened)


def private_alt(session: SessionRecord, view: dict, names: Names, viewer: str) -> str:
    """`viewer`'s own picture in words, for him alone: the head, whose turn, then what his view shows him."""
    own = plain_named(lambda named: _without_turn(frontend_for(session.slug).private_alt_text(view, named, viewer)),
                      names)
    return _composed(session, view, names, f"{names.get(viewer, viewer)}'s private view", own)


def step_alt(session: SessionRecord, view: dict, names: Names, text: str) -> str:
    """A step's picture (e.g. proposed track on the map), for the chooser alone: the head, whose turn and the
    step's words (`Step.alt`, without milepost codes, where the step has them)."""
    return _composed(session, view, names, "Map", plain(text))

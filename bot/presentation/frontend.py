"""How a game looks and is driven in Discord, apart from its rules.

Each game has one `Frontend` (in `bot/presentation/frontends/<module>.py`, exported as
`FRONTEND`): it draws the board from a view, narrates the engine's events,
declares the components (buttons, select menus, forms) that fit the next step,
and turns the shared verbs (/roll, /move, /place) into the game's actions. It
sees views and legal actions only, never raw state, so hidden information
cannot reach Discord through it.

Components. `components(view, legal)` are drawn on the public table from the
public view and every seated player's legal actions; `private_components(view,
viewer, legal)` are drawn only in `viewer`'s own private replies, from his own
view (a choice that depends on what only he sees belongs there). Each names the
`players` who may use it (None: anyone); the bot refuses anyone else privately
before the engine sees anything. A chosen token is either a step
(`expand(token, ...)` returns the next `Step`: a short text and more components,
shown to the chooser alone) or an action (`action_for_button(token)`). A select
option's value and a button's token are the same kind of token. A press on a step's
component is checked by opening the step again: `expand(step_key(key))` must return
it, so a step's components carry keys (a button: its token) whose part before any
"=" is the token that opened the step (the step "pawn.3" holds the menu "pawn.3",
or "pawn.3=2" when chunked). A multi-select (`max_values` > 1) hands all its chosen
tokens to `action_for_choice`.
Discord's limits (25 options a menu, 5 buttons a row, 5 rows a message, 100
characters a label or value) are the frontend's to respect: group choices in
steps (first the pawn, then the destination) and use `chunked_select` when a
step may still hold more than 25.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace
from itertools import groupby
from typing import Any

from bot.play.turn_events import EARLIER_CUT
from games.core import IllegalMove

TOKEN_PATTERN = r"[A-Za-z0-9_.=,-]{1,60}"
_TOKEN = re.compile(TOKEN_PATTERN)

Names = Mapping[str, str]
"""Player id -> how to show that player (a mention in text, a display name in images)."""

Events = Sequence[dict]
"""The engine's events of the move just made (empty when a board is drawn again without a move)."""


def points_text(amount: int, *, bold: bool = False) -> str:
    """"1 point", "-1 point", "12 points" (optionally the number in bold): never "1 points"."""
    number = f"**{amount}**" if bold else str(amount)
    return f"{number} point" if abs(amount) == 1 else f"{number} points"


def display_name(names: Names, player_id: str) -> str:
    """How to show a player; an id with no name (a spectator, a test) shows as itself."""
    return names.get(player_id, player_id)


def joined(names: Sequence[str]) -> str:
    """Names as words: alice; alice and bob; alice, bob and carol."""
    return names[0] if len(names) == 1 else f"{', '.join(names[:-1])} and {names[-1]}"


def narrate(frontend: Frontend, events: Events, names: Names) -> list[str]:
    """The lines a table tells for `events`: an undo (games.undo) the same way in every game, the rest
    as the game's frontend tells them. An undo names the move's kind only, never what it moved. The
    frontend gets each run of events between undos whole, since one sentence may tell several of them
    (Two Fat Dudes: a roll, the move and what it scored)."""
    lines: list[str] = []
    events = [event for event in events if event.get("type") != EARLIER_CUT]
    for undone, run in groupby(events, key=lambda event: event.get("type") == "undone"):
        if not undone:
            lines.extend(frontend.describe_events(list(run), names))
            continue
        for event in run:
            kind = str(event.get("action", "move"))
            what = frontend.move_kinds.get(kind, kind.replace("_", " "))
            lines.append(f"{display_name(names, event['player'])} took back move {event['move']} ({what}).")
    return lines


MAX_OPTIONS = 25
MAX_ROWS = 5
MAX_ROW_BUTTONS = 5
MAX_TEXT = 100
"""Discord's limits: options in a menu, action rows in a message, buttons in a row, a label or value."""

Players = tuple[str, ...] | None
"""Who may use a component: these player ids, or anyone (None)."""


def _check_token(token: str, what: str) -> None:
    if not _TOKEN.fullmatch(token):
        raise ValueError(f"{what} {token!r} must match {TOKEN_PATTERN}")


@dataclass(frozen=True)
class ActionButton:
    """A button for the next step; `token` travels in the button's custom_id."""

    label: str
    token: str
    style: str = "primary"  # primary, secondary, success or danger
    players: Players = None

    def __post_init__(self) -> None:
        _check_token(self.token, "button token")

    @property
    def key(self) -> str:
        return self.token


Button = ActionButton


@dataclass(frozen=True)
class Option:
    """One choice of a select menu: what the player reads, and the token it stands for."""

    label: str
    token: str
    description: str = ""

    def __post_init__(self) -> None:
        _check_token(self.token, "option token")


@dataclass(frozen=True)
class Select:
    """A select menu; with `max_values` > 1 a multi-select whose values `action_for_choice` reads."""

    key: str
    placeholder: str
    options: tuple[Option, ...]
    players: Players = None
    min_values: int = 1
    max_values: int = 1

    def __post_init__(self) -> None:
        _check_token(self.key, "select key")
        if not 1 <= len(self.options) <= MAX_OPTIONS:
            raise ValueError(f"select {self.key!r} has {len(self.options)} options; give 1 to {MAX_OPTIONS}")
        if len({option.token for option in self.options}) != len(self.options):
            raise ValueError(f"select {self.key!r} offers a token twice")


@dataclass(frozen=True)
class Field:
    """One text input of a form."""

    key: str
    label: str
    placeholder: str = ""
    min_length: int = 1
    max_length: int = 9


@dataclass(frozen=True)
class Form:
    """A button that opens a short form (a Discord modal); `action_for_form` turns the answers into an action."""

    label: str
    key: str
    title: str
    fields: tuple[Field, ...]
    players: Players = None
    style: str = "secondary"

    def __post_init__(self) -> None:
        _check_token(self.key, "form key")


Component = ActionButton | Select | Form


class AnswerRefused(IllegalMove):
    """A form's answer the game cannot read. Discord's form closes when sent, so the message says to open it
    again (`form_label`); a web page's form stays open with the answer in it, so a page says `problem` and
    `how` alone (bot.web.server)."""

    def __init__(self, problem: str, how: str, form_label: str, command: str) -> None:
        super().__init__(f"{problem}: press **{form_label}** again and {how} (or use `{command}`).")
        self.problem = problem
        self.how = how


def form_answers(form: Form, values: Mapping[str, str]) -> dict[str, str]:
    """The form's own fields from `values`, each within its length: Discord's modal enforces them, a web page's
    request (or a forged one) is checked here, before any frontend reads an answer."""
    answers = {}
    for field in form.fields:
        value = str(values.get(field.key, ""))
        if not field.min_length <= len(value) <= field.max_length:
            raise IllegalMove(f"{field.label} takes {field.min_length} to {field.max_length} characters; "
                              f"that answer has {len(value)}.")
        answers[field.key] = value
    return answers


@dataclass(frozen=True)
class Step:
    """What choosing a step token shows the chooser alone: a line of text and the next components."""

    text: str
    components: tuple[Component, ...]
    picture: Callable[[Names], bytes] | None = None
    """A picture for the step (e.g. proposed track on the map), drawn off the event loop when shown."""
    alt: str = ""
    """The picture's words for its alt text where `text` would read badly aloud (milepost codes); else `text`."""


def chunked_select(key: str, placeholder: str, options: list[Option], players: Players = None) -> list[Select]:
    """`options` as one menu, or several of at most 25 each (keys `key=2`, `key=3`, ...) when there are more."""
    chunks = [options[start:start + MAX_OPTIONS] for start in range(0, len(options), MAX_OPTIONS)]
    if len(chunks) == 1:
        return [Select(key, placeholder, tuple(chunks[0]), players)]
    return [Select(key if number == 1 else f"{key}={number}", f"{placeholder} ({number}/{len(chunks)})",
                   tuple(chunk), players) for number, chunk in enumerate(chunks, start=1)]


def step_key(key: str) -> str:
    """The token that produced a step's component: its key without a chunk number."""
    return key.partition("=")[0]


Legal = Mapping[str, list[dict]]
"""Player id -> that player's legal actions now (empty for players who may not act)."""


class Frontend:
    """Defaults shared by every game's front end; subclasses fill in the game."""

    slug: str = ""
    rules_text: str = ""
    """Our own short summary of the rules, shown by /game rules."""

    private_view: bool = False
    """Whether players have a private view worth a picture of its own (drawn by `draw_private`)."""

    private_title: str = "Your view"
    """What a player's own part is called where it stands beside the table (a web page: "Your bones")."""

    verbs: Mapping[str, str] = {}
    """Shared verb -> one line on how it is used in this game (for help and refusals)."""

    commands: Mapping[str, str] = {}
    """The game's own commands (its cog's) -> one line each, listed with the verbs by /game rules."""

    move_kinds: Mapping[str, str] = {}
    """Action type -> how the players know that kind of move, where its type is not that (John Henry's `stop` is
    **Keep the 6**): an undo names the kind of move it took back (`narrate`). Otherwise the type, spaced out."""

    @property
    def usable_commands(self) -> list[str]:
        """Every command this game uses, shared verbs first: for /game rules and for refusals."""
        return [*self.verbs, *self.commands]

    def draw_board(self, view: dict, names: Names, events: Events = ()) -> bytes:
        """The public board as PNG bytes; `events` lets it show what just happened (the dice rolled)."""
        raise NotImplementedError

    def describe_events(self, events: list[dict], names: Names) -> list[str]:
        """One line of text per event worth telling the channel."""
        return []

    def turn_words(self, view: dict, player: str) -> str:
        """What the table's turn line asks of a player to act: "your turn", unless the game waits on him for
        something else within another's turn (Crayon Rails: the load a derailment costs him)."""
        return "your turn"

    def describe_state(self, view: dict, names: Names) -> str:
        """A few lines for the embed: scores, positions; readable without the image."""
        return ""

    def alt_text(self, view: dict, names: Names) -> str:
        """The public board's state for its picture's alt text (bot.presentation.alt_text): by default the
        embed's words.
        A game whose words run long says the essentials here instead."""
        return self.describe_state(view, names)

    def alt_awaited(self, view: dict, names: Names) -> str:
        """What the players to act are awaited for, a sentence the alt text puts after whose turn it is ("alice's
        turn. Roll the bonus die or keep the 6."), which it says once (its state leaves the turn out); "" for
        nothing more."""
        return ""

    def buttons(self, view: dict) -> list[ActionButton]:
        """Buttons for what can be done next, given the public view (older, simpler form of `components`)."""
        return []

    def components(self, view: dict, legal: Legal) -> list[Component]:
        """The public table's components. By default `buttons`, each for the players it is legal for.

        A token that is no action (e.g. one that shows a private view) is for anyone.
        """
        found: list[Component] = []
        for button in self.buttons(view):
            if button.players is None:
                try:
                    action = self.action_for_button(button.token)
                except IllegalMove:
                    action = None
                if action is not None:
                    players = tuple(player for player, actions in legal.items() if action in actions)
                    button = replace(button, players=players or tuple(view.get("to_act") or ()))
            found.append(button)
        return found

    def private_components(self, view: dict, viewer: str, legal: Legal) -> list[Component]:
        """Components only `viewer` sees (in his private replies), drawn from his own `view`."""
        return []

    def private_text(self, view: dict, names: Names, viewer: str) -> str:
        """The words of `viewer`'s private panel (what his own view shows him)."""
        return ""

    def private_part(self, view: dict, names: Names, viewer: str) -> str:
        """What `viewer`'s own view shows him, beside the table on his web page under `private_title` (which says
        only he sees it): by default his panel's words."""
        return self.private_text(view, names, viewer)

    def choice_prompt(self, view: dict, names: Names, viewer: str) -> str:
        """What `viewer`'s choices ask of him, in words drawn from his own `view` ("Place the 5-5 on…"); "" where
        the table's words say it (bot.presentation.words.move_prompt)."""
        return ""

    def private_alt_text(self, view: dict, names: Names, viewer: str) -> str:
        """`viewer`'s private picture in words, for its alt text (bot.presentation.alt_text): all that picture shows
        him, which may be more than the panel's words beside it. By default those words."""
        return self.private_text(view, names, viewer)

    def expand(self, token: str, view: dict, viewer: str, legal: Legal) -> Step | None:
        """The next step a step token opens for `viewer` (his own view); None when `token` is an action."""
        return None

    def action_for_button(self, token: str) -> dict:
        """The action a button token (or a single select option's token) stands for."""
        raise IllegalMove("That button is not part of this game.")

    def action_for_choice(self, key: str, tokens: list[str]) -> dict:
        """The action of a multi-select: by default only single choices, read as a button token."""
        if len(tokens) != 1:
            raise IllegalMove("Choose one option.")
        return self.action_for_button(tokens[0])

    def action_for_form(self, key: str, values: Mapping[str, str]) -> dict:
        """The action a filled-in form stands for."""
        raise IllegalMove("That form is not part of this game.")

    def verb_action(self, verb: str, options: Mapping[str, Any]) -> dict:
        """Turn a shared verb and its options into this game's action."""
        usable = ", ".join(f"/{name}" for name in self.usable_commands) or "the buttons"
        raise IllegalMove(f"/{verb} is not used in this game; use {usable}.")

    def choices(self, verb: str, option: str, legal: list[dict], typed: Mapping[str, Any],
                view: dict | None = None, viewer: str = "") -> list[tuple[str, str]]:
        """Autocomplete for a command option: (label, value) pairs drawn from the legal actions.

        `typed` holds the options the user has filled in so far, so that e.g. the
        destinations offered follow the pawn already chosen; `view` (the public view) and `viewer`
        let a label say what the choice costs, as the table's menus do.
        """
        return []

    def prompts(self, view: dict) -> dict[str, str]:
        """Players to ping besides those to act, with what they may do now (e.g. call Jump)."""
        return {}

    def private_digest(self, view: dict) -> Any:
        """What of a player's own view is private; a change is sent to him by DM.

        Games with nothing hidden return None, so nobody gets a DM.
        """
        return None

    def panel_digest(self, view: dict, viewer: str) -> Any:
        """What of `viewer`'s own view his private panel follows: a change edits it (bot.discord.panels). By default
        what is private (`private_digest`)."""
        return self.private_digest(view)

    @property
    def hides_anything(self) -> bool:
        """Whether a player's own view may hold what the public one hides: the game's frontend says what
        (`private_digest`). Where nothing is hidden, nobody's own view need be worked out after a move."""
        return type(self).private_digest is not Frontend.private_digest

    def draw_private(self, view: dict, names: Names, viewer: str) -> bytes:
        """`viewer`'s own view as PNG bytes (defaults to the public board)."""
        return self.draw_board(view, names)

"""How a game looks and is driven in Discord, apart from its rules.

Each game has one `Frontend` (in `bot/frontends/<module>.py`, exported as
`FRONTEND`): it draws the board from a view, narrates the engine's events,
says which buttons fit the next step, and turns the shared verbs (/roll,
/move, /place) into the game's actions. It sees views only, never raw state,
so hidden information cannot reach Discord through it.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from games.core import IllegalMove

TOKEN_PATTERN = r"[A-Za-z0-9_.=,-]{1,60}"
_TOKEN = re.compile(TOKEN_PATTERN)

Names = Mapping[str, str]
"""Player id -> how to show that player (a mention in text, a display name in images)."""

Events = Sequence[dict]
"""The engine's events of the move just made (empty when a board is drawn again without a move)."""


def display_name(names: Names, player_id: str) -> str:
    """How to show a player; an id with no name (a spectator, a test) shows as itself."""
    return names.get(player_id, player_id)


@dataclass(frozen=True)
class ActionButton:
    """A button for the next step; `token` travels in the button's custom_id."""

    label: str
    token: str
    style: str = "primary"  # primary, secondary, success or danger

    def __post_init__(self) -> None:
        if not _TOKEN.fullmatch(self.token):
            raise ValueError(f"button token {self.token!r} must match {TOKEN_PATTERN}")


class Frontend:
    """Defaults shared by every game's front end; subclasses fill in the game."""

    slug: str = ""
    rules_text: str = ""
    """Our own short summary of the rules, shown by /game rules."""

    verbs: Mapping[str, str] = {}
    """Shared verb -> one line on how it is used in this game (for help and refusals)."""

    def draw_board(self, view: dict, names: Names, events: Events = ()) -> bytes:
        """The public board as PNG bytes; `events` lets it show what just happened (the dice rolled)."""
        raise NotImplementedError

    def describe_events(self, events: list[dict], names: Names) -> list[str]:
        """One line of text per event worth telling the channel."""
        return []

    def describe_state(self, view: dict, names: Names) -> str:
        """A few lines for the embed: scores, positions; readable without the image."""
        return ""

    def buttons(self, view: dict) -> list[ActionButton]:
        """Buttons for what can be done next, given the public view."""
        return []

    def action_for_button(self, token: str) -> dict:
        """The action a button token stands for."""
        raise IllegalMove("That button is not part of this game.")

    def verb_action(self, verb: str, options: Mapping[str, Any]) -> dict:
        """Turn a shared verb and its options into this game's action."""
        usable = ", ".join(f"/{name}" for name in self.verbs) or "the buttons"
        raise IllegalMove(f"/{verb} is not used in this game; use {usable}.")

    def choices(self, verb: str, option: str, legal: list[dict], typed: Mapping[str, Any]) -> list[tuple[str, str]]:
        """Autocomplete for a command option: (label, value) pairs drawn from the legal actions.

        `typed` holds the options the user has filled in so far, so that e.g. the
        destinations offered follow the pawn already chosen.
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

    def draw_private(self, view: dict, names: Names, viewer: str) -> bytes:
        """`viewer`'s own view as PNG bytes (defaults to the public board)."""
        return self.draw_board(view, names)

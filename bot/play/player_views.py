"""Each seated player's view of a game state, worked out only when someone asks for it.

A move's outcome offers every player's view before and after it (bot.play.host MoveOutcome): the private
panels compare them (bot.discord.panels), a private answer shows one (bot.discord.presses). Most games hide nothing, so
nobody asks, and a move no longer pays four or more views it throws away (issue 24: some 8 % of a John
Henry move's work on the event loop, more for a Crayon Rails map).
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence

from pydantic import BaseModel

from games.core import Game


class PlayerViews(Mapping[str, dict]):
    """`game.view(state, player)` for each of `players`, each worked out once, on first use.

    The state must not change afterwards: engines never change a state they were given (they copy it
    first), and the host keeps each version's state as it was."""

    def __init__(self, game: Game, state: BaseModel, players: Sequence[str]) -> None:
        self._game = game
        self._state = state
        self._players = list(dict.fromkeys(players))
        self._views: dict[str, dict] = {}

    def __getitem__(self, player: str) -> dict:
        view = self._views.get(player)
        if view is None:
            if player not in self._players:
                raise KeyError(player)
            view = self._views[player] = self._game.view(self._state, player)
        return view

    def __contains__(self, player: object) -> bool:
        return player in self._players  # without working the view out

    def __iter__(self) -> Iterator[str]:
        return iter(self._players)

    def __len__(self) -> int:
        return len(self._players)

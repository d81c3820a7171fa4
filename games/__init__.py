"""The game registry: every rules engine in this package, keyed by slug.

Each engine module exports `GAME`, an object following the contract in
`games.core`. Modules are discovered, so adding a game touches nothing here.
"""

from __future__ import annotations

from games.core import Game, IllegalMove, UnknownGame, quoted
from games.discovery import discover

__all__ = ["GAMES", "Game", "IllegalMove", "UnknownGame", "get_game"]


GAMES: dict[str, Game] = {game.slug: game for game in discover(__name__, __path__, "GAME")}


def get_game(slug: str) -> Game:
    """The engine for `slug`; raises `UnknownGame` naming the games that exist."""
    try:
        return GAMES[slug]
    except KeyError:
        known = ", ".join(sorted(GAMES)) or "none"
        raise UnknownGame(f"There is no game called {quoted(slug)}. Games: {known}.") from None

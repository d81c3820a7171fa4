"""The game registry: every rules engine in this package, keyed by slug.

Each engine module exports `GAME`, an object following the contract in
`games.core`. Modules are discovered, so adding a game touches nothing here.
"""

from __future__ import annotations

import importlib
import pkgutil

from games.core import Game, IllegalMove, UnknownGame

__all__ = ["GAMES", "Game", "IllegalMove", "UnknownGame", "get_game"]


def _discover() -> dict[str, Game]:
    found: dict[str, Game] = {}
    for module_info in sorted(pkgutil.iter_modules(__path__), key=lambda m: m.name):
        if module_info.name == "core" or module_info.name.startswith("_"):
            continue
        module = importlib.import_module(f"{__name__}.{module_info.name}")
        game = getattr(module, "GAME", None)
        if game is not None:
            found[game.slug] = game
    return found


GAMES: dict[str, Game] = _discover()


def get_game(slug: str) -> Game:
    """The engine for `slug`; raises `UnknownGame` naming the games that exist."""
    try:
        return GAMES[slug]
    except KeyError:
        known = ", ".join(sorted(GAMES)) or "none"
        raise UnknownGame(f"There is no game called {slug!r}. Games: {known}.") from None

"""One `Frontend` per game, discovered like the engines and keyed by slug."""

from __future__ import annotations

from bot.presentation.frontend import Frontend
from games.discovery import discover

FRONTENDS: dict[str, Frontend] = {frontend.slug: frontend for frontend in discover(__name__, __path__, "FRONTEND")}


def frontend_for(slug: str) -> Frontend:
    return FRONTENDS[slug]

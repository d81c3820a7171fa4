"""One `Frontend` per game, discovered like the engines and keyed by slug."""

from __future__ import annotations

import importlib
import pkgutil

from bot.frontend import Frontend


def _discover() -> dict[str, Frontend]:
    found: dict[str, Frontend] = {}
    for module_info in sorted(pkgutil.iter_modules(__path__), key=lambda m: m.name):
        module = importlib.import_module(f"{__name__}.{module_info.name}")
        frontend = getattr(module, "FRONTEND", None)
        if frontend is not None:
            found[frontend.slug] = frontend
    return found


FRONTENDS: dict[str, Frontend] = _discover()


def frontend_for(slug: str) -> Frontend:
    return FRONTENDS[slug]

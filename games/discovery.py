"""Find the one object each module of a package exports under a given name.

Both registries (engines here, frontends in the bot) are built this way, so a
new game is added by adding its modules, not by editing a list.
"""

from __future__ import annotations

import importlib
import pkgutil
from collections.abc import Iterable
from typing import Any


def discover(package_name: str, package_path: Iterable[str], attribute: str) -> list[Any]:
    """Every module-level `attribute` found in the package's modules, in module-name order."""
    found = []
    for module_info in sorted(pkgutil.iter_modules(package_path), key=lambda m: m.name):
        if module_info.name.startswith("_"):
            continue
        module = importlib.import_module(f"{package_name}.{module_info.name}")
        exported = getattr(module, attribute, None)
        if exported is not None:
            found.append(exported)
    return found

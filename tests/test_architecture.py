"""The house's shape, checked on every run: no import circles, small modules, few modules left loose in bot/.

The layers' direction is import-linter's to check (`lint-imports`, contracts in pyproject.toml); a circle inside a
layer is not, so it is checked here on grimp's graph of every import, those inside functions included.
"""

from __future__ import annotations

from pathlib import Path

import grimp

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("bot", "cogs", "games")
MODULE_LINES_MAX = 600
DATA_MODULES = {"games/crayon_rails/mapdata.py"}
"""Data, not code: the Crayon Rails map may be as long as the map is."""
LOOSE_IN_BOT_MAX = 12


def circles(graph: grimp.ImportGraph) -> list[list[str]]:
    """Every group of modules that import each other in a circle (Tarjan's strongly connected components)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def visit(root: str) -> None:
        work = [(root, iter(sorted(graph.find_modules_directly_imported_by(root))))]
        index[root] = low[root] = len(index)
        stack.append(root)
        on_stack.add(root)
        while work:
            module, imported = work[-1]
            step = next(imported, None)
            if step is not None:
                if step not in index:
                    index[step] = low[step] = len(index)
                    stack.append(step)
                    on_stack.add(step)
                    work.append((step, iter(sorted(graph.find_modules_directly_imported_by(step)))))
                elif step in on_stack:
                    low[module] = min(low[module], index[step])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[module])
            if low[module] == index[module]:
                group = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    group.append(member)
                    if member == module:
                        break
                if len(group) > 1:
                    found.append(sorted(group))

    for module in sorted(graph.modules):
        if module not in index:
            visit(module)
    return found


def test_no_modules_import_each_other_in_a_circle():
    graph = grimp.build_graph(*PACKAGES, cache_dir=None)  # no cache: the suite may run in any folder
    assert circles(graph) == []


def test_the_circle_finder_finds_a_circle():
    graph = grimp.ImportGraph()
    for module in ("a", "b", "c", "d"):
        graph.add_module(module)
    graph.add_import(importer="a", imported="b")
    graph.add_import(importer="b", imported="c")
    graph.add_import(importer="c", imported="a")
    graph.add_import(importer="c", imported="d")
    assert circles(graph) == [["a", "b", "c"]]


def test_no_module_is_over_600_lines():
    long = {str(path.relative_to(ROOT)): lines for package in PACKAGES for path in (ROOT / package).rglob("*.py")
            if (lines := len(path.read_text().splitlines())) > MODULE_LINES_MAX}
    assert {path: lines for path, lines in long.items() if path not in DATA_MODULES} == {}


def test_bot_keeps_at_most_a_dozen_modules_outside_its_packages():
    loose = sorted(path.name for path in (ROOT / "bot").glob("*.py"))
    assert len(loose) <= LOOSE_IN_BOT_MAX, loose

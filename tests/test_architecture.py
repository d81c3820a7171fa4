"""The house's shape, checked on every run: no import circles, small modules, few modules left loose in bot/.

The layers' direction is import-linter's to check (`lint-imports`, contracts in pyproject.toml); a circle inside a
layer is not, so it is checked here on the graph of every import statement in the code, those inside functions
included, read from the source with `ast` (no cache, no import of the code).
"""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("bot", "cogs", "games")
MODULE_LINES_MAX = 600
DATA_MODULES = {"games/crayon_rails/mapdata.py"}
"""Data, not code: the Crayon Rails map may be as long as the map is."""
LOOSE_IN_BOT_MAX = 12


def import_graph(root: Path = ROOT, packages: tuple[str, ...] = PACKAGES) -> dict[str, set[str]]:
    """Each module of `packages` -> the modules of `packages` it imports (a package's `__init__` is the package)."""
    modules: dict[str, Path] = {}
    for package in packages:
        for path in (root / package).rglob("*.py"):
            name = ".".join(path.relative_to(root).with_suffix("").parts)
            modules[name.removesuffix(".__init__")] = path
    graph: dict[str, set[str]] = {}
    for module, path in modules.items():
        here = module if path.name == "__init__.py" else module.rpartition(".")[0]
        imported: set[str] = set()
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.Import):
                names = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom):
                base = node.module or ""
                if node.level:
                    parent = here.split(".")[: len(here.split(".")) - node.level + 1]
                    base = ".".join([*parent, *([node.module] if node.module else [])])
                names = [base, *(f"{base}.{alias.name}" for alias in node.names)]
            else:
                continue
            imported.update(name for name in names if name in modules and name != module)
        graph[module] = imported
    return graph


def circles(graph: dict[str, set[str]]) -> list[list[str]]:
    """Every group of modules that import each other in a circle (Tarjan's strongly connected components)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def visit(root: str) -> None:
        work = [(root, iter(sorted(graph[root])))]
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
                    work.append((step, iter(sorted(graph[step]))))
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

    for module in sorted(graph):
        if module not in index:
            visit(module)
    return found


def test_no_modules_import_each_other_in_a_circle():
    assert circles(import_graph()) == []


def test_the_circle_finder_finds_a_circle():
    graph = {"a": {"b"}, "b": {"c"}, "c": {"a", "d"}, "d": set()}
    assert circles(graph) == [["a", "b", "c"]]


def test_the_import_graph_sees_imports_inside_functions_and_relative_ones(tmp_path):
    (tmp_path / "pkg").mkdir()
    (tmp_path / "pkg" / "__init__.py").write_text("")
    (tmp_path / "pkg" / "one.py").write_text("def later():\n    from pkg import two\n")
    (tmp_path / "pkg" / "two.py").write_text("from . import one\n")
    graph = import_graph(tmp_path, ("pkg",))
    assert graph["pkg.one"] == {"pkg", "pkg.two"} and graph["pkg.two"] == {"pkg", "pkg.one"}
    assert circles(graph) == [["pkg.one", "pkg.two"]]


def test_no_module_is_over_600_lines():
    long = {str(path.relative_to(ROOT)): lines for package in PACKAGES for path in (ROOT / package).rglob("*.py")
            if (lines := len(path.read_text().splitlines())) > MODULE_LINES_MAX}
    assert {path: lines for path, lines in long.items() if path not in DATA_MODULES} == {}


def test_bot_keeps_at_most_a_dozen_modules_outside_its_packages():
    loose = sorted(path.name for path in (ROOT / "bot").glob("*.py"))
    assert len(loose) <= LOOSE_IN_BOT_MAX, loose

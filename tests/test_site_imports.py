"""The page's own Python stays in parts that import one another in one direction (issue 42).

Why: ``shell.py`` once imported ``duel_desk`` inside a function, and ``duel_desk`` imports
``live``, which imports ``shell``: a circle that worked only because the import waited for
the first finished game. A circle makes the order modules are imported in matter (a name
not yet defined when the other module runs), so the shell now takes its next steps from a
hook (``Shell.next_steps``) that the browser side fills. And no file or class grows past
what a person can hold in mind: the shell was 2,254 lines, its class 1,330.

The graph is read with :mod:`ast` from the files themselves, imports inside functions
included: those run too, later. Imports under ``if TYPE_CHECKING:`` are left out: they
never run (a part names ``Shell`` in its type hints only).
"""
from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SITE_PY = ROOT / "site" / "py"
#: the page's modules, each imported by its file's name (buildlib.runtime zips site/py/ at the
#: top level; a game's page module is ``play_<id>`` there, which no module imports)
SOURCES = (SITE_PY, SITE_PY / "pages", ROOT / "site" / "games")
MAX_FILE_LINES = 800
MAX_CLASS_LINES = 400
#: the shell and its parts (issue 42): they must exist, and import neither the live table nor
#: the campaign's duel desk
SHELL_PARTS = ("shell", "session", "shell_log", "shell_draws", "shell_chart", "shell_links", "shell_saved",
               "shell_status", "shell_result", "shell_bots")
#: the browser runner and its parts (issue 42): ``shell_browser.py`` was 1,049 lines, its class
#: ``Runner`` 750
BROWSER_PARTS = ("shell_browser", "browser_host", "browser_open", "browser_render", "browser_now", "browser_log",
                 "browser_events", "browser_files", "browser_audience")


def modules() -> dict[str, Path]:
    """Every page module by the name it is imported by; a game page in parts (a package in
    ``site/games``, issue 42) is its package's name and ``<package>.<part>`` for each part."""
    out: dict[str, Path] = {}
    for folder in SOURCES:
        found = {path.stem: path for path in folder.glob("*.py")}
        for init in folder.glob("*/__init__.py"):
            found[init.parent.name] = init
            found.update({f"{init.parent.name}.{p.stem}": p for p in init.parent.glob("*.py") if p != init})
        for name, path in sorted(found.items()):
            assert name not in out, f"two page modules are called {name}: {out[name]} and {path}"
            out[name] = path
    return out


def is_type_checking(test: ast.expr) -> bool:
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"
    )


def imported(tree: ast.AST, package: str = "") -> set[str]:
    """The top-level module names ``tree`` imports anywhere, but under ``if TYPE_CHECKING:``;
    in a part of a page in parts (``package``), its relative imports as ``<package>.<part>``
    (or the package itself for ``from . import name``)."""
    out: set[str] = set()
    todo: list[ast.AST] = [tree]
    while todo:
        node = todo.pop()
        if isinstance(node, ast.If) and is_type_checking(node.test):
            todo.extend(node.orelse)
            continue
        if isinstance(node, ast.Import):
            out.update(alias.name.partition(".")[0] for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            out.add(node.module.partition(".")[0])
        elif isinstance(node, ast.ImportFrom) and node.level == 1 and package:
            out.add(f"{package}.{node.module.partition('.')[0]}" if node.module else package)
        todo.extend(ast.iter_child_nodes(node))
    return out


def import_graph() -> dict[str, set[str]]:
    mods = modules()
    return {name: imported(ast.parse(path.read_text(encoding="utf-8")),
                           name if path.name == "__init__.py" else name.rpartition(".")[0]) & set(mods) - {name}
            for name, path in mods.items()}


def find_cycle(graph: dict[str, set[str]]) -> list[str] | None:
    """One import circle as its modules in order (the first again at the end), or None."""
    state: dict[str, int] = {}  # 1: on the path being walked, 2: done
    path: list[str] = []

    def walk(name: str) -> list[str] | None:
        state[name] = 1
        path.append(name)
        for nxt in sorted(graph[name]):
            if state.get(nxt) == 1:
                return path[path.index(nxt):] + [nxt]
            if nxt not in state and (found := walk(nxt)) is not None:
                return found
        path.pop()
        state[name] = 2
        return None

    for name in sorted(graph):
        if name not in state and (found := walk(name)) is not None:
            return found
    return None


def test_the_cycle_finder_finds_a_circle_and_clears_a_tree() -> None:
    tree = imported(ast.parse("import a\nfrom b.c import d\ndef f():\n    import e\n"
                              "if TYPE_CHECKING:\n    import g\nelse:\n    import h\n"))
    assert tree == {"a", "b", "e", "h"}
    assert find_cycle({"a": {"b"}, "b": {"c"}, "c": {"a"}}) == ["a", "b", "c", "a"]
    assert find_cycle({"a": {"b", "c"}, "b": {"c"}, "c": set()}) is None


def test_the_page_modules_import_one_another_without_a_circle() -> None:
    graph = import_graph()
    assert {"shell", "live", "duel_desk", "shell_browser", "metagame"} <= set(graph)
    assert find_cycle(graph) is None, f"an import circle: {' -> '.join(find_cycle(graph) or [])}"


def test_the_shell_and_its_parts_import_neither_duel_desk_nor_live() -> None:
    graph = import_graph()
    for name in SHELL_PARTS:
        assert name in graph, f"{name}.py is gone: update SHELL_PARTS"
        assert not graph[name] & {"duel_desk", "live", "live_browser", "remote", "shell_browser"}, name


def test_no_file_in_site_py_is_over_800_lines_and_no_class_over_400() -> None:
    held = sorted(SITE_PY.glob("*.py"))  # every one of them
    assert {f"{name}.py" for name in SHELL_PARTS + BROWSER_PARTS} <= {p.name for p in held}
    for path in held:
        text = path.read_text(encoding="utf-8")
        lines = len(text.splitlines())
        assert lines <= MAX_FILE_LINES, f"{path.name} has {lines} lines (at most {MAX_FILE_LINES})"
        for node in ast.walk(ast.parse(text)):
            if isinstance(node, ast.ClassDef):
                size = (node.end_lineno or node.lineno) - node.lineno + 1
                assert size <= MAX_CLASS_LINES, f"{path.name}: class {node.name} has {size} lines"


def test_every_game_page_is_a_package_of_parts_none_over_800_lines_no_class_over_400() -> None:
    """The game pages too (issue 42): each page holds its board and controls as parts the
    page class composes; they were 931 to 1,548 lines, their classes 824 to 1,274."""
    games = ROOT / "site" / "games"
    held = sorted(games.rglob("*.py"))
    assert {p.parent.name for p in held if p.name == "__init__.py"} >= {"campaign", "conquests", "metagame", "reign",
                                                                           "world"}
    for path in held:
        text = path.read_text(encoding="utf-8")
        lines = len(text.splitlines())
        where = path.relative_to(games)
        assert lines <= MAX_FILE_LINES, f"{where} has {lines} lines (at most {MAX_FILE_LINES})"
        for node in ast.walk(ast.parse(text)):
            if isinstance(node, ast.ClassDef):
                size = (node.end_lineno or node.lineno) - node.lineno + 1
                assert size <= MAX_CLASS_LINES, f"{where}: class {node.name} has {size} lines"

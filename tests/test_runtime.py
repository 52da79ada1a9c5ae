"""The runtime the pages get (issue 38): the site's Python and the standard library it uses,
compiled to bytecode by Pyodide at build time (buildlib/bytecode.py), and a lock file with no
packages. Checked on the build's output, in CPython (the bytecode is Pyodide's 3.14, so it
is read as data here, never loaded)."""
from __future__ import annotations

import _imp
import ast
import json
import zipfile
from io import BytesIO
from pathlib import Path

import pytest

from buildlib import runtime

ROOT = Path(__file__).resolve().parent.parent
FULL_STDLIB = ROOT / "node_modules" / "pyodide" / "python_stdlib.zip"
SOURCES = [*ROOT.joinpath("conquest").rglob("*.py"), *ROOT.joinpath("site", "py").rglob("*.py"),
           *ROOT.joinpath("site", "games").rglob("*.py")]


@pytest.fixture(scope="module")
def files() -> dict[str, bytes]:
    return runtime.runtime_files()


def zip_names(data: bytes) -> list[str]:
    return zipfile.ZipFile(BytesIO(data)).namelist()


def module_files(name: str, stdlib: set[str]) -> list[str]:
    """The full standard library's file for a module name, if it has one (a builtin has none,
    and a frozen one, like ``os`` or ``abc``, comes inside the interpreter)."""
    if _imp.is_frozen(name):
        return []
    path = name.replace(".", "/")
    return [f for f in (f"{path}.py", f"{path}/__init__.py") if f in stdlib]


def test_the_standard_library_is_bytecode_of_every_module_the_site_imports(files: dict[str, bytes]) -> None:
    shipped = set(zip_names(files["runtime/pyodide/python_stdlib.zip"]))
    assert shipped and not [n for n in shipped if n.endswith(".py")]
    full = set(zip_names(FULL_STDLIB.read_bytes()))
    # every import in the site's sources, inside functions too, that names a module of the
    # standard library written in Python, is shipped as bytecode
    missing = []
    for path in SOURCES:
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            names = [a.name for a in node.names] if isinstance(node, ast.Import) else (
                [node.module] if isinstance(node, ast.ImportFrom) and node.level == 0 and node.module else [])
            for name in names:
                for f in module_files(name, full):
                    if f + "c" not in shipped:
                        missing.append(f"{path.relative_to(ROOT)}: {name}")
    assert missing == []
    # and Pyodide's own start-up modules are there (it imports them before any page runs)
    for name in ("_pyodide/_base.pyc", "pyodide/__init__.pyc", "asyncio/__init__.pyc", "encodings/__init__.pyc"):
        assert name in shipped
    # what no page imports is not: tests, GUIs, servers
    assert not [n for n in shipped if n.startswith(("unittest/", "tkinter/", "idlelib/", "http/server", "xmlrpc/"))]
    assert len(shipped) < len(full) / 2


def test_the_app_is_bytecode_and_its_data(files: dict[str, bytes]) -> None:
    names = set(zip_names(files[runtime.APP_ZIP]))
    source = set(zip_names(runtime.app_zip()))
    # PyScript's package, which it writes as source on every start, waits as bytecode
    pyscript = {n for n in names if n.startswith("pyscript/__pycache__/")}
    assert {p.split("/")[-1].split(".")[0] for p in pyscript} == {n[:-3] for n in runtime.pyscript_package()}
    assert {n + "c" if n.endswith(".py") else n for n in source} == names - pyscript
    app = zipfile.ZipFile(BytesIO(files[runtime.APP_ZIP]))
    magic = {app.read(n)[:4] for n in names if n.endswith(".pyc")}
    std = zipfile.ZipFile(BytesIO(files["runtime/pyodide/python_stdlib.zip"]))
    assert magic == {std.read("json/__init__.pyc")[:4]}  # one interpreter compiled both


def test_the_lock_file_lists_no_package(files: dict[str, bytes]) -> None:
    lock = json.loads(files["runtime/pyodide/pyodide-lock.json"])
    full = json.loads((ROOT / "node_modules" / "pyodide" / "pyodide-lock.json").read_bytes())
    assert lock == {"info": full["info"], "packages": {}}


def test_page_bootstraps_say_whether_the_module_came_with_the_snapshot(files: dict[str, bytes]) -> None:
    boot = files["py/play_world.py"].decode()
    assert '"play_world" in sys.modules' in boot and "conquestPageModule" in boot

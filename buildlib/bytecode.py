"""Run inside Pyodide by ``buildlib/runtime.py`` (through ``pyodide_run.mjs``): compile the
site's Python and the part of the standard library it uses to bytecode (issue 38).

Why: Pyodide ships its standard library as source, so every boot compiled what it imported
(Python's own start-up, Pyodide's modules, PyScript's, ours): about 2 s of a 2.5 s runtime
boot on the project's machine, four times that on a phone. Compiled once here, by the same
interpreter that runs the pages, a page only loads bytecode. Only modules something imports
are shipped, without docstrings and with lines but no columns in their location tables, so
the bytecode costs fewer bytes than the source it replaces (the site's first visit must
cost no more than a bare PyScript page's).

What is kept: every standard-library module in ``sys.modules`` after Pyodide has booted, the
site's modules have all been imported, the app archive has been unpacked the way PyScript
does it, and every module named by an ``import`` anywhere in the site's and PyScript's
sources (imports inside functions too) has been imported; plus ``keep`` from the job.

Job (``/work/job.json``): ``app`` (the app zip, sources), ``keep`` (module names), ``home``
(where pages unpack the app), ``pyscript_package`` (the package PyScript writes on every
start, file name -> text, exactly as it writes it: its imports count, and it is compiled into
the app zip's ``pyscript/__pycache__``). Writes ``/work/out/python_stdlib.zip``,
``/work/out/app.zip`` and ``/work/out/closure.json`` (the kept modules).
"""
from __future__ import annotations

import ast
import importlib
import importlib.util
import json
import marshal
import os
import shutil
import sys
import types
import zipfile

WORK = "/work"
STDLIB = f"/lib/python{sys.version_info.major}{sys.version_info.minor}.zip"
APP_DIR = "/tmp/conquest-app"
PYSCRIPT_DIR = "/tmp/pyscript-package"
#: fixed entry dates, so a build is byte for byte the same from the same inputs
DATE = (2020, 1, 1, 0, 0, 0)


class _NoDocstrings(ast.NodeTransformer):
    """Drops docstrings (as ``-OO`` would) but keeps asserts and line numbers: nothing reads
    a docstring at run time, and they were a third of the bytecode's bytes."""

    def generic_visit(self, node: ast.AST) -> ast.AST:
        super().generic_visit(node)
        body = getattr(node, "body", None)
        if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)) and body:
            first = body[0]
            if isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant) and isinstance(first.value.value, str):
                node.body = body[1:] or [ast.copy_location(ast.Pass(), first)]
        return node


def _varint(v: int) -> bytearray:
    out = bytearray()
    while v >= 64:
        out.append(0x40 | (v & 63))
        v >>= 6
    out.append(v)
    return out


def lines_only(code: types.CodeType) -> types.CodeType:
    """The code with a location table of lines only, without the columns.

    Why: the columns (the ``^^^^`` under a failing expression in a traceback) were a third
    of the bytecode's bytes. A traceback still names every line. The table is CPython's
    (Objects/locations.md): entries of up to 8 code units, form 13 ("no column") holding
    the line's change as a signed varint, form 15 for units with no line."""
    consts = tuple(lines_only(c) if isinstance(c, types.CodeType) else c for c in code.co_consts)
    lines = [p[0] for p in code.co_positions()]
    table = bytearray()
    prev, i = code.co_firstlineno, 0
    while i < len(lines):
        line, n = lines[i], 1
        while n < 8 and i + n < len(lines) and lines[i + n] == line:
            n += 1
        if line is None:
            table.append(0x80 | (15 << 3) | (n - 1))
        else:
            delta = line - prev
            table.append(0x80 | (13 << 3) | (n - 1))
            table += _varint((-delta << 1) | 1 if delta < 0 else delta << 1)
            prev = line
        i += n
    new = code.replace(co_consts=consts, co_linetable=bytes(table))
    if [p[0] for p in new.co_positions()] != lines:  # never ship a table that reads back wrong
        raise ValueError(f"line table of {code.co_qualname} in {code.co_filename} did not round-trip")
    return new


def compiled(source: bytes, filename: str) -> bytes:
    """The module's code, marshalled: without docstrings, lines without columns."""
    tree = _NoDocstrings().visit(ast.parse(source, filename))
    return marshal.dumps(lines_only(compile(tree, filename, "exec", dont_inherit=True)))


def pyc(source: bytes, filename: str) -> bytes:
    """A sourceless .pyc: the header's date and size are never checked without a source."""
    return importlib.util.MAGIC_NUMBER + (0).to_bytes(4, "little") * 3 + compiled(source, filename)


def hashed_pyc(source: bytes, filename: str) -> bytes:
    """An unchecked hash-based .pyc (PEP 552): used beside its source whatever the source
    file's date, since its hash is never compared."""
    flags = (0b01).to_bytes(4, "little")  # hash-based, source not checked
    return importlib.util.MAGIC_NUMBER + flags + importlib.util.source_hash(source) + compiled(source, filename)


def put(z: zipfile.ZipFile, name: str, data: bytes) -> None:
    info = zipfile.ZipInfo(name, date_time=DATE)
    info.compress_type = zipfile.ZIP_STORED if name.endswith("/") else zipfile.ZIP_DEFLATED
    info.external_attr = (0o40755 if name.endswith("/") else 0o644) << 16
    z.writestr(info, data, compresslevel=9)


def imported_names(path: str) -> set[str]:
    """Absolute module names an ``import`` in the file names, at any depth of the code."""
    with open(path, "rb") as f:
        tree = ast.parse(f.read(), path)
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.update(a.name for a in node.names)
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            names.add(node.module)
            names.update(f"{node.module}.{a.name}" for a in node.names)  # submodules
    return names


def try_import(name: str) -> None:
    try:
        importlib.import_module(name)
    except Exception:  # noqa: BLE001 - a name that is not a module, or not for this platform
        pass


def main() -> None:
    with open(f"{WORK}/job.json", encoding="utf-8") as f:
        job = json.load(f)
    std = zipfile.ZipFile(STDLIB)
    std_top = {n.split("/")[0].removesuffix(".py") for n in std.namelist()} | set(sys.builtin_module_names)

    # the app, unpacked as the pages unpack it (this imports what unpacking needs: zipfile)
    shutil.unpack_archive(f"{WORK}/{job['app']}", APP_DIR, "zip")
    sys.path.insert(0, APP_DIR)
    sources: list[str] = []
    for root, _, files in os.walk(APP_DIR):
        sources += [os.path.join(root, f) for f in sorted(files) if f.endswith(".py")]
    # PyScript's package, written out as PyScript writes it, so that its imports count too
    with open(f"{WORK}/{job['pyscript_package']}", encoding="utf-8") as f:
        package = json.load(f)
    os.makedirs(PYSCRIPT_DIR, exist_ok=True)
    for name, text in sorted(package.items()):
        with open(f"{PYSCRIPT_DIR}/{name}", "w", encoding="utf-8") as f:
            f.write(text)
        sources.append(f"{PYSCRIPT_DIR}/{name}")
    for path in sorted(sources):
        if path.startswith(APP_DIR + "/"):
            rel = path[len(APP_DIR) + 1 : -3].replace("/", ".")
            importlib.import_module(rel.removesuffix(".__init__"))  # an app module that fails to import fails the build
    wanted = set(job["keep"])
    for path in sources:
        wanted |= {n for n in imported_names(path) if n.split(".")[0] in std_top}
    for name in sorted(wanted):
        try_import(name)

    prefix = STDLIB + "/"
    # by where each was loaded from: the frozen ones (importlib's, zipimport) name the zip as
    # their file but come from the interpreter itself, and are not shipped
    origins = (getattr(getattr(m, "__spec__", None), "origin", None) for m in list(sys.modules.values()))
    kept = sorted({o[len(prefix):] for o in origins if isinstance(o, str) and o.startswith(prefix)})
    os.makedirs(f"{WORK}/out", exist_ok=True)
    dirs = sorted({n[: i + 1] for n in kept for i, c in enumerate(n) if c == "/"})
    with zipfile.ZipFile(f"{WORK}/out/python_stdlib.zip", "w") as out:
        for d in dirs:
            put(out, d, b"")
        for name in kept:
            put(out, name + "c", pyc(std.read(name), prefix + name))

    app = zipfile.ZipFile(f"{WORK}/{job['app']}")
    with zipfile.ZipFile(f"{WORK}/out/app.zip", "w") as out:
        for info in app.infolist():
            data = app.read(info)
            if info.filename.endswith(".py"):
                put(out, info.filename + "c", pyc(data, f"{job['home']}/{info.filename}"))
            else:
                put(out, info.filename, data)
        # PyScript writes its own package as source on every start and imports it; its
        # bytecode waits in __pycache__ (unpacked from the app before PyScript writes), as
        # unchecked hash-based .pyc files: used whatever the written files' dates (PEP 552)
        for name, text in sorted(package.items()):
            filename = f"{job['home']}/pyscript/{name}"
            cached = importlib.util.cache_from_source(filename)[len(job["home"]) + 1 :]
            put(out, cached, hashed_pyc(text.encode("utf-8"), filename))
    with open(f"{WORK}/out/closure.json", "w", encoding="utf-8") as f:
        json.dump({"python": sys.version.split()[0], "modules": kept}, f, indent=0)


main()

"""Runtime packaging: what of Pyodide, PyScript and our Python each page needs, and nothing else.

Why apart from build.py: these are the details of shipping a Python runtime (a trimmed
standard library, the PyScript chunks the pages load, the app zip, the bootstrap that
reports a failed page, the offline cache list); build.py only conducts.
"""
from __future__ import annotations

import io
import json
import re
import sys
import zipfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SITE_SRC = ROOT / "site"
NODE = ROOT / "node_modules"
sys.path.insert(0, str(SITE_SRC / "py"))

from contract import ENGINE_FAILED, LAZY_DATA_URL, PLAY_PREFIX  # noqa: E402

from buildlib.errors import BuildError  # noqa: E402
from conquest.catalog import LAZY_DIR  # noqa: E402

# Pyodide files a page needs (no packages: the engines use the standard library only).
PYODIDE_FILES = ["pyodide.mjs", "pyodide.asm.mjs", "pyodide.asm.wasm", "python_stdlib.zip", "pyodide-lock.json"]
# PyScript chunks loaded lazily that our pages do use (core's static imports are followed).
PYSCRIPT_LAZY = ["deprecations-manager-", "error-", "zip-"]
# PyScript plugins no page uses: switched off so their chunks are neither loaded nor shipped.
PYSCRIPT_PLUGINS_OFF = ["!codemirror", "!donkey", "!py-editor", "!py-game", "!py-terminal"]
# Standard-library parts no page uses: left out of the shipped stdlib to cut bytes and boot time.
STDLIB_DROP = (
    "test/",
    "unittest/",
    "idlelib/",
    "tkinter/",
    "turtledemo/",
    "_pyrepl/",
    "pydoc_data/",
    "lib2to3/",
    "ensurepip/",
    "venv/",
    "xmlrpc/",
    "wsgiref/",
    "curses/",
    "dbm/",
    "sqlite3/",
    "multiprocessing/",
    "doctest.py",
    "pdb.py",
    "pydoc.py",
    "turtle.py",
    "imaplib.py",
    "smtplib.py",
    "poplib.py",
    "ftplib.py",
    "nntplib.py",
    "mailbox.py",
)


def trimmed_stdlib(path: Path) -> bytes:
    """Pyodide's stdlib zip without the parts no page uses (tests, GUIs, servers)."""
    src = zipfile.ZipFile(path)
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", zipfile.ZIP_DEFLATED, compresslevel=9) as dst:
        for info in src.infolist():
            if info.filename.startswith(STDLIB_DROP):
                continue
            new = zipfile.ZipInfo(info.filename, date_time=(2020, 1, 1, 0, 0, 0))
            new.external_attr = info.external_attr
            new.compress_type = zipfile.ZIP_DEFLATED if not info.is_dir() else zipfile.ZIP_STORED
            dst.writestr(new, b"" if info.is_dir() else src.read(info))
    return buf.getvalue()


def pyscript_files() -> dict[str, bytes]:
    """core.js, the chunks it imports statically, and the lazy chunks our pages use."""
    dist = NODE / "@pyscript" / "core" / "dist"
    if not (dist / "core.js").exists():
        raise BuildError(dist / "core.js", "missing: run `npm ci` first")
    wanted = ["core.js", "core.css"]
    for f in sorted(dist.glob("*.js")):
        if any(f.name.startswith(p) for p in PYSCRIPT_LAZY):
            wanted.append(f.name)
    todo = list(wanted)
    seen: set[str] = set()
    out: dict[str, bytes] = {}
    while todo:
        name = todo.pop()
        if name in seen:
            continue
        seen.add(name)
        path = dist / name
        if not path.exists():
            raise BuildError(path, "imported by PyScript but missing")
        data = path.read_bytes()
        # drop source-map comments: the maps are not shipped
        data = re.sub(rb"\n//# sourceMappingURL=[^\n]*", b"", data)
        out[name] = data
        if name.endswith(".js"):
            todo.extend(m.decode() for m in re.findall(rb'from\s*"\./([^"]+\.js)"', data))
    return out


def lazy_files() -> dict[str, bytes]:
    """The data only some saves need (``conquest.catalog.LAZY_DIR``: questions of earlier
    editions of a bank), served beside app.zip instead of inside it, so no first visit
    downloads them; the page fetches one when a save needs it, and the service worker
    caches them with the rest of the site, so an old link opens offline too."""
    return {
        f"{LAZY_DATA_URL}{path.relative_to(LAZY_DIR).as_posix()}": path.read_bytes()
        for path in sorted(LAZY_DIR.rglob("*.json"))
    }


def app_zip() -> bytes:
    """The ``conquest`` package and the page modules, unpacked by PyScript into the cwd
    (without :func:`lazy_files`)."""
    buf = io.BytesIO()
    files: list[tuple[str, Path]] = []
    for path in sorted((ROOT / "conquest").rglob("*")):
        if path.is_relative_to(LAZY_DIR):
            continue
        if path.is_file() and "__pycache__" not in path.parts and path.suffix in {".py", ".json"}:
            files.append((path.relative_to(ROOT).as_posix(), path))
    for path in sorted((SITE_SRC / "py").glob("*.py")):
        files.append((path.name, path))
    for name, path in page_modules().items():
        files.append((f"{name}.py", path))
    with zipfile.ZipFile(buf, "w", zipfile.ZIP_DEFLATED, compresslevel=9) as z:
        for arc, path in files:
            info = zipfile.ZipInfo(arc, date_time=(2020, 1, 1, 0, 0, 0))
            info.compress_type = zipfile.ZIP_DEFLATED
            info.external_attr = 0o644 << 16
            z.writestr(info, path.read_bytes())
    return buf.getvalue()


BOOTSTRAP = """# Written by build.py: run the page module, and say so in the page if it fails.
import js

try:
    import {module} as page

    if hasattr(page, "main"):
        page.main()
except BaseException as exc:
    js.window.{hook}(f"{{type(exc).__name__}}: {{exc}}")
    raise
"""


def page_modules() -> dict[str, Path]:
    """Page entry modules by name: site/py/pages/<name>.py and site/games/<id>.py (play_<id>)."""
    out = {p.stem: p for p in sorted((SITE_SRC / "py" / "pages").glob("*.py"))}
    out.update({f"{PLAY_PREFIX}{p.stem}": p for p in sorted((SITE_SRC / "games").glob("*.py"))})
    return out


def page_scripts() -> dict[str, bytes]:
    return {f"py/{name}.py": BOOTSTRAP.format(module=name, hook=ENGINE_FAILED).encode() for name in page_modules()}


def static_files() -> dict[str, bytes]:
    return {
        f"static/{p.relative_to(SITE_SRC / 'static').as_posix()}": p.read_bytes()
        for p in sorted((SITE_SRC / "static").rglob("*"))
        if p.is_file()
    }


def module_source(name: str) -> Path:
    """Where a page module's source lives (for errors that name the file)."""
    gid = name[len(PLAY_PREFIX) :] if name.startswith(PLAY_PREFIX) else None
    return SITE_SRC / "games" / f"{gid}.py" if gid else SITE_SRC / "py" / "pages" / f"{name}.py"


def runtime_files() -> dict[str, bytes]:
    """Pyodide (trimmed), PyScript (only the chunks used), our app zip and page bootstraps."""
    files: dict[str, bytes] = {}
    for name in PYODIDE_FILES:
        src = NODE / "pyodide" / name
        if not src.exists():
            raise BuildError(src, "missing: run `npm ci` first")
        files[f"runtime/pyodide/{name}"] = trimmed_stdlib(src) if name == "python_stdlib.zip" else src.read_bytes()
    for name, data in pyscript_files().items():
        files[f"runtime/pyscript/{name}"] = data
    files["py/app.zip"] = app_zip()
    files.update(lazy_files())
    files.update(page_scripts())
    files.update(live_files())
    return files


#: live play (issue 22): the pinned Trystero (Nostr strategy), its one dependency, and the
#: QR encoder, served from ``runtime/live/`` like Pyodide. No bundler: the ES modules are
#: copied and their bare imports rewritten to the copies' relative paths (an import map
#: would be an inline script, which the Content-Security-Policy forbids).
LIVE_IMPORTS = {
    '"@trystero-p2p/core"': '"./core/index.mjs"',
    '"@noble/secp256k1"': '"./secp256k1.mjs"',
}


def live_files() -> dict[str, bytes]:
    """``runtime/live/``: nostr.mjs (imports rewritten), core/*.mjs, secp256k1.mjs, qrcode.mjs."""
    files: dict[str, bytes] = {}
    core = NODE / "@trystero-p2p" / "core" / "dist"
    sources = {
        "nostr.mjs": NODE / "@trystero-p2p" / "nostr" / "dist" / "index.mjs",
        "secp256k1.mjs": NODE / "@noble" / "secp256k1" / "index.js",
        "qrcode.mjs": NODE / "qrcode-generator" / "dist" / "qrcode.mjs",
    }
    for name, src in sources.items():
        if not src.exists():
            raise BuildError(src, "missing: run `npm ci` first")
        text = src.read_text(encoding="utf-8")
        for bare, rel in LIVE_IMPORTS.items():
            text = text.replace(f"from {bare}", f"from {rel}")
        text = text.replace("//# sourceMappingURL=index.mjs.map", "")
        files[f"runtime/live/{name}"] = text.encode()
    if not core.is_dir():
        raise BuildError(core, "missing: run `npm ci` first")
    for src in sorted(core.glob("*.mjs")):
        text = src.read_text(encoding="utf-8")
        text = "\n".join(x for x in text.split("\n") if not x.startswith("//# sourceMappingURL="))
        files[f"runtime/live/core/{src.name}"] = text.encode()
    for name, data in files.items():
        if b'from "@' in data:
            raise BuildError(core, f"{name} still imports a package by name; add it to LIVE_IMPORTS")
    return files


def boot_files(version: str) -> dict[str, bytes]:
    """The interpreter module PyScript is given (it knows the build's version, for the
    snapshot cache) and the worker that makes the snapshot."""
    boot = (SITE_SRC / "boot.mjs").read_text(encoding="utf-8")
    if "__VERSION__" not in boot:
        raise BuildError(SITE_SRC / "boot.mjs", "must contain __VERSION__")
    return {
        "runtime/pyodide/conquest-boot.mjs": boot.replace("__VERSION__", json.dumps(version)).encode(),
        "runtime/pyodide/conquest-snapshot-worker.mjs": (SITE_SRC / "snapshot-worker.mjs").read_bytes(),
    }


def service_worker(files: dict[str, bytes], version: str) -> bytes:
    """The offline cache: every file of the site, versioned by the build's content hash."""
    names = sorted(n for n in files if n != "sw.js" and not n.startswith("."))
    urls = ["./"] + [n[: -len("index.html")] if n.endswith("index.html") else n for n in names]
    template = (SITE_SRC / "sw.js").read_text(encoding="utf-8")
    if "__VERSION__" not in template or "__FILES__" not in template:
        raise BuildError(SITE_SRC / "sw.js", "must contain __VERSION__ and __FILES__")
    return (
        template.replace("__VERSION__", json.dumps(version)).replace("__FILES__", json.dumps(sorted(set(urls)), indent=0))
    ).encode("utf-8")



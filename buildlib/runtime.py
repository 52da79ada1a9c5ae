"""Runtime packaging: what of Pyodide, PyScript and our Python each page needs, and nothing else.

Why apart from build.py: these are the details of shipping a Python runtime (a trimmed
standard library, the PyScript chunks the pages load, the app zip, the bootstrap that
reports a failed page, the offline cache list); build.py only conducts.
"""
from __future__ import annotations

import hashlib
import io
import json
import re
import shutil
import subprocess
import sys
import tempfile
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
#: (not "zip-": PyScript unpacks a zip with it only for MicroPython; Pyodide's unpackArchive does it here)
PYSCRIPT_LAZY = ["deprecations-manager-", "error-"]
# PyScript plugins no page uses: switched off so their chunks are neither loaded nor shipped.
PYSCRIPT_PLUGINS_OFF = ["!codemirror", "!donkey", "!py-editor", "!py-game", "!py-terminal"]
#: Standard-library modules kept beyond what bytecode.py finds imported (issue 38): codecs a
#: string or a zip file name may be decoded with at run time, looked up by name only then.
STDLIB_KEEP = [
    "encodings.ascii", "encodings.latin_1", "encodings.utf_8", "encodings.utf_8_sig", "encodings.utf_16",
    "encodings.utf_32", "encodings.cp437", "encodings.idna", "encodings.punycode", "encodings.raw_unicode_escape",
    "encodings.unicode_escape", "encodings.base64_codec", "encodings.hex_codec",
]
#: the app zip's path in the site: the pages' PyScript config, their preload, the snapshot worker
APP_ZIP = "py/app.zip"
#: where PyScript unpacks the app zip (its ``files`` config, "./*": Pyodide's home folder)
APP_HOME = "/home/pyodide"


def compiled_runtime() -> dict[str, bytes]:
    """The app zip and the standard library as bytecode, only the modules the pages use
    (``buildlib/bytecode.py``, run by Pyodide under Node), keyed ``app.zip``,
    ``python_stdlib.zip`` and ``closure.json``.

    Why a cache: booting Pyodide takes a few seconds, and a build is run several times
    by the tests; the result depends only on the inputs hashed here."""
    app = app_zip()
    job = {"app": "app.zip", "keep": STDLIB_KEEP, "home": APP_HOME, "pyscript_package": "pyscript.json"}
    package = json.dumps(pyscript_package(), sort_keys=True).encode()
    node = shutil.which("node")
    if node is None:
        raise BuildError(NODE, "Node.js is required to compile the pages' Python (apt-get install -y nodejs)")
    inputs = [app, json.dumps(job).encode(), package, (NODE / "pyodide" / "python_stdlib.zip").read_bytes(),
              (NODE / "pyodide" / "pyodide.asm.wasm").read_bytes()[:1 << 20],
              (ROOT / "buildlib" / "bytecode.py").read_bytes(), (ROOT / "buildlib" / "pyodide_run.mjs").read_bytes()]
    key = hashlib.sha256(b"".join(hashlib.sha256(x).digest() for x in inputs)).hexdigest()[:24]
    cache = Path(tempfile.gettempdir()) / "conquest-bytecode" / key
    names = ["app.zip", "python_stdlib.zip", "closure.json"]
    if all((cache / n).is_file() for n in names):
        return {n: (cache / n).read_bytes() for n in names}
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp)
        (work / "app.zip").write_bytes(app)
        (work / "job.json").write_text(json.dumps(job))
        (work / "pyscript.json").write_bytes(package)
        run = subprocess.run(
            [node, str(ROOT / "buildlib" / "pyodide_run.mjs"), str(NODE / "pyodide"), str(work),
             str(ROOT / "buildlib" / "bytecode.py")],
            capture_output=True, text=True,
        )
        if run.returncode != 0:
            raise BuildError(ROOT / "buildlib" / "bytecode.py", f"compiling the pages' Python failed:\n{run.stderr[-4000:]}")
        out = {n: (work / "out" / n).read_bytes() for n in names}
    cache.mkdir(parents=True, exist_ok=True)
    for n, data in out.items():
        (cache / n).write_bytes(data)
    return out


def pyscript_package() -> dict[str, str]:
    """The Python package PyScript writes into every page's file system and imports (its
    build's artifact ``src/stdlib/pyscript.js``: the text of each file, as written)."""
    src = NODE / "@pyscript" / "core" / "src" / "stdlib" / "pyscript.js"
    text = src.read_text(encoding="utf-8")
    try:
        files = json.loads(text[text.index("export default") + len("export default"):].strip().rstrip(";"))["pyscript"]
    except (ValueError, KeyError) as exc:
        raise BuildError(src, f"PyScript's package is no longer a JSON object here: {exc}") from None
    return {name: body for name, body in files.items() if isinstance(body, str) and name.endswith(".py")}


def lock_file() -> bytes:
    """Pyodide's lock file without its package list: the pages load no package, and Pyodide
    reads only the lock's ``info`` then (its ABI check); 119 KB fewer to fetch and parse."""
    lock = json.loads((NODE / "pyodide" / "pyodide-lock.json").read_bytes())
    return json.dumps({"info": lock["info"], "packages": {}}, sort_keys=True).encode()


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
        if path.name == "__init__.py":  # a page in parts (issue 42): its package, whole
            files += [(f"{name}/{part.name}", part) for part in sorted(path.parent.glob("*.py"))]
        else:
            files.append((f"{name}.py", path))
    with zipfile.ZipFile(buf, "w", zipfile.ZIP_DEFLATED, compresslevel=9) as z:
        for arc, path in files:
            info = zipfile.ZipInfo(arc, date_time=(2020, 1, 1, 0, 0, 0))
            info.compress_type = zipfile.ZIP_DEFLATED
            info.external_attr = 0o644 << 16
            z.writestr(info, path.read_bytes())
    return buf.getvalue()


BOOTSTRAP = """# Written by build.py: run the page module, and say so in the page if it fails.
import sys

import js

try:
    js.performance.mark("page-import-start")
    # the page module came with the Python snapshot (issue 38) or is imported now
    js.globalThis.conquestPageModule = "snapshot" if "{module}" in sys.modules else "imported"
    import {module} as page

    js.performance.mark("page-import-end")
    if hasattr(page, "main"):
        page.main()
    js.performance.mark("page-main-end")
except BaseException as exc:
    js.window.{hook}(f"{{type(exc).__name__}}: {{exc}}")
    raise
"""


def game_page_source(gid: str) -> Path | None:
    """A game's page module: ``site/games/<id>.py``, or, for a page in parts (issue 42), the
    package ``site/games/<id>/`` (its ``__init__.py`` holds the page; its parts sit beside it
    and are imported relatively, so the page is ``play_<id>`` in the site and ``<id>`` in
    the tests alike). None if the game has no page."""
    for path in (SITE_SRC / "games" / f"{gid}.py", SITE_SRC / "games" / gid / "__init__.py"):
        if path.is_file():
            return path
    return None


def page_modules() -> dict[str, Path]:
    """Page entry modules by name: site/py/pages/<name>.py and each game's page (play_<id>,
    see :func:`game_page_source`)."""
    out = {p.stem: p for p in sorted((SITE_SRC / "py" / "pages").glob("*.py"))}
    gids = sorted({p.stem for p in (SITE_SRC / "games").glob("*.py")}
                  | {p.parent.name for p in (SITE_SRC / "games").glob("*/__init__.py")})
    out.update({f"{PLAY_PREFIX}{gid}": path for gid in gids if (path := game_page_source(gid))})
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
    if gid:
        return game_page_source(gid) or SITE_SRC / "games" / f"{gid}.py"
    return SITE_SRC / "py" / "pages" / f"{name}.py"


def runtime_files() -> dict[str, bytes]:
    """Pyodide (its standard library as bytecode, only the modules the pages use), PyScript
    (only the chunks used), our app zip (bytecode) and page bootstraps."""
    files: dict[str, bytes] = {}
    compiled = compiled_runtime()
    made = {"python_stdlib.zip": compiled["python_stdlib.zip"], "pyodide-lock.json": lock_file()}
    for name in PYODIDE_FILES:
        src = NODE / "pyodide" / name
        if not src.exists():
            raise BuildError(src, "missing: run `npm ci` first")
        files[f"runtime/pyodide/{name}"] = made[name] if name in made else src.read_bytes()
    for name, data in pyscript_files().items():
        files[f"runtime/pyscript/{name}"] = data
    files[APP_ZIP] = compiled["app.zip"]
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
    if "__VERSION__" not in boot or "__APP_ZIP__" not in boot:
        raise BuildError(SITE_SRC / "boot.mjs", "must contain __VERSION__ and __APP_ZIP__")
    boot = boot.replace("__VERSION__", json.dumps(version)).replace("__APP_ZIP__", json.dumps("../../" + APP_ZIP))
    return {
        "runtime/pyodide/conquest-boot.mjs": boot.encode(),
        "runtime/pyodide/conquest-snapshot-worker.mjs": (SITE_SRC / "snapshot-worker.mjs").read_bytes(),
    }


#: files only of use online, left out of the offline cache's first fill (issue 38: a first
#: visit costs no more bytes than a bare PyScript page's): a guest's page and its scripts (a
#: guest is at a live table, over the network) and live play's transport and QR code (loaded
#: when a table opens). The service worker still keeps each one the first time it is fetched.
ONLINE_ONLY = re.compile(r"play/[^/]+/guest/|static/guest(-dom)?\.js$|runtime/live/")


def service_worker(files: dict[str, bytes], version: str) -> bytes:
    """The offline cache: every file of the site but ``ONLINE_ONLY``, versioned by the build's
    content hash."""
    names = sorted(n for n in files if n != "sw.js" and not n.startswith(".") and not ONLINE_ONLY.match(n))
    urls = ["./"] + [n[: -len("index.html")] if n.endswith("index.html") else n for n in names]
    template = (SITE_SRC / "sw.js").read_text(encoding="utf-8")
    if "__VERSION__" not in template or "__FILES__" not in template:
        raise BuildError(SITE_SRC / "sw.js", "must contain __VERSION__ and __FILES__")
    return (
        template.replace("__VERSION__", json.dumps(version)).replace("__FILES__", json.dumps(sorted(set(urls)), indent=0))
    ).encode("utf-8")



#!/usr/bin/env python3
"""Build the static site into ``_site/``: one linear pipeline.

    load + validate data  ->  render pages  ->  write _site/ (cleaned first)

Why one straight pipeline: when something is wrong the error names the file at fault and
nothing half-built is left behind. Everything is decided from files in this repository and
``node_modules`` (the pinned Pyodide and PyScript); nothing is fetched.

Usage: ``python build.py [--out _site]``.
"""
from __future__ import annotations

import argparse
import hashlib
import html
import io
import json
import re
import shutil
import sys
import zipfile
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent
SITE_SRC = ROOT / "site"
TEMPLATES = SITE_SRC / "templates"
NODE = ROOT / "node_modules"

sys.path.insert(0, str(ROOT))

# The games on the site, in order, from each game's data file (conquest/catalog.py): the
# rules pages exist for all of them; a play page exists once the engine and template exist.
from conquest.catalog import CatalogError, catalog  # noqa: E402
from conquest.seats import PALETTE, PALETTE_NAMES  # noqa: E402

GAME_INFO: list[dict[str, Any]] = []

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


class BuildError(Exception):
    """A build failure that names the file at fault."""

    def __init__(self, path: Path | str, message: str) -> None:
        rel = Path(path).relative_to(ROOT) if Path(path).is_absolute() and ROOT in Path(path).parents else path
        super().__init__(f"{rel}: {message}")


# --------------------------------------------------------------------------------------
# 1. load + validate
# --------------------------------------------------------------------------------------
@dataclass
class Inputs:
    games: dict[str, Any]
    rules: dict[str, tuple[str, str]]  # id -> (title, markdown)
    maps: list[Any] = field(default_factory=list)
    world_data: dict[str, Any] = field(default_factory=dict)
    conquests_data: dict[str, Any] = field(default_factory=dict)
    credits: list[dict[str, str]] = field(default_factory=list)
    pyodide_version: str = ""
    pyscript_version: str = ""


def read_json(path: Path) -> Any:
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise BuildError(path, "missing") from None
    except ValueError as exc:
        raise BuildError(path, f"not valid JSON: {exc}") from None


def load_inputs() -> Inputs:
    from conquest.core import games

    try:
        registry = games()
    except Exception as exc:  # a broken engine module must name itself
        raise BuildError(ROOT / "conquest" / "games", f"a game failed to load: {exc!r}") from exc
    try:
        GAME_INFO[:] = [f.to_json() for f in catalog().values()]
    except CatalogError as exc:
        raise BuildError(ROOT / "conquest" / "data", str(exc)) from None
    for gid in registry:
        if gid not in catalog():
            raise BuildError(ROOT / "conquest" / "data" / f"{gid}.json", f"game {gid!r} is registered but has no 'facts'")

    rules: dict[str, tuple[str, str]] = {}
    for info in GAME_INFO:
        path = SITE_SRC / "rules" / f"{info['id']}.md"
        if not path.exists():
            raise BuildError(path, "the rules page of this game is missing")
        text = path.read_text(encoding="utf-8")
        first = text.splitlines()[0] if text else ""
        if not first.startswith("# "):
            raise BuildError(path, "must start with '# <title>'")
        rules[info["id"]] = (first[2:].strip(), text)

    maps: list[Any] = []
    try:
        from conquest import maps as maps_mod
    except ImportError:
        maps_mod = None
    if maps_mod is not None:
        for map_id in maps_mod.available_maps():
            try:
                maps.append(maps_mod.load_map(map_id))
            except maps_mod.MapError as exc:
                raise BuildError(ROOT / "conquest" / "data" / "maps" / f"{map_id}.json", str(exc)) from None

    data_dir = ROOT / "conquest" / "data"
    world = read_json(data_dir / "world.json")
    for key in ("trade_values", "trade_step_after"):
        if key not in world:
            raise BuildError(data_dir / "world.json", f"missing {key!r}")
    conquests = read_json(data_dir / "conquests.json")

    pyodide_pkg = read_json(NODE / "pyodide" / "package.json")
    pyscript_pkg = read_json(NODE / "@pyscript" / "core" / "package.json")
    for name in PYODIDE_FILES:
        if not (NODE / "pyodide" / name).exists():
            raise BuildError(NODE / "pyodide" / name, "missing: run `npm ci` first")

    credits = load_credits(maps)
    return Inputs(
        games=registry,
        rules=rules,
        maps=maps,
        world_data=world,
        conquests_data=conquests,
        credits=credits,
        pyodide_version=pyodide_pkg["version"],
        pyscript_version=pyscript_pkg["version"],
    )


def load_credits(maps: list[Any]) -> list[dict[str, str]]:
    path = SITE_SRC / "credits.json"
    items = read_json(path)
    if not isinstance(items, list) or not all(
        isinstance(i, dict) and {"what", "source", "license"} <= set(i) for i in items
    ):
        raise BuildError(path, "expected a list of {what, source, license, url?}")
    # one row per data source, naming every map that uses it
    merged: dict[tuple[str, str, str], list[str]] = {}
    extra: dict[tuple[str, str, str], dict[str, str]] = {}
    for m in maps:
        for c in m.credits:
            key = (c.get("what", ""), c.get("source", ""), c.get("license", ""))
            merged.setdefault(key, []).append(m.id)
            extra.setdefault(key, dict(c))
    for key, ids in merged.items():
        label = "Map" if len(ids) == 1 else "Maps"
        items.append({**extra[key], "what": f"{label} {', '.join(ids)}: {key[0]}"})
    return items


# --------------------------------------------------------------------------------------
# 2. render
# --------------------------------------------------------------------------------------
def markdown_to_html(text: str, source: Path, replacements: dict[str, Callable[[], str]]) -> str:
    from markdown_it import MarkdownIt

    md = MarkdownIt("commonmark", {"html": False, "linkify": False, "typographer": True}).enable("table")
    out: list[str] = []
    chunk: list[str] = []
    for line in text.splitlines():
        marker = re.fullmatch(r"\s*\[\[([a-z]+:[a-z0-9-]+(?::[a-z0-9-]+)?)\]\]\s*", line)
        if marker:
            out.append(md.render("\n".join(chunk)))
            chunk = []
            key = marker.group(1)
            if key not in replacements:
                raise BuildError(source, f"unknown marker [[{key}]]")
            out.append(replacements[key]())
        else:
            chunk.append(line)
    out.append(md.render("\n".join(chunk)))
    body = "".join(out)
    # the page's <h1> comes from the markdown; demote nothing, but mark reconstructed parts
    body = body.replace("<blockquote>\n<p><strong>Reconstructed:</strong>", '<blockquote class="reconstructed">\n<p><strong>Reconstructed:</strong>')
    return body


def world_card_table(data: dict[str, Any], source: Path) -> str:
    """W5's trade values, from the game's data file conquest/data/world.json."""
    values = data["trade_values"]
    step = data["trade_step_after"]
    rows = "".join(f"<tr><td>{i + 1}</td><td>{v}</td></tr>" for i, v in enumerate(values))
    n = len(values)
    more = "".join(
        f"<tr><td>{n + k}</td><td>{values[-1] + step * k}</td></tr>" for k in range(1, 3)
    )
    return (
        '<table class="data"><caption>Card trade values, counted over the whole game (W5)</caption>'
        "<thead><tr><th>Trade</th><th>Troops</th></tr></thead><tbody>"
        f"{rows}{more}<tr><td>then</td><td>+{step} each trade</td></tr></tbody></table>"
    )


def world_continent_table(maps: list[Any], source: Path) -> str:
    """W1's continents and bonuses: the groups of the world42 map."""
    world = next((m for m in maps if m.id == "world42"), None)
    if world is None:
        raise BuildError(ROOT / "conquest" / "data" / "maps" / "world42.json", "needed for [[table:world-continents]]")
    rows = "".join(
        f"<tr><td>{html.escape(g.name)}</td><td>{len(g.territories)}</td><td>+{g.bonus}</td></tr>"
        for g in world.groups
    )
    return (
        '<table class="data"><caption>Continents and their bonuses (W1, W4)</caption>'
        "<thead><tr><th>Continent</th><th>Territories</th><th>Bonus</th></tr></thead>"
        f"<tbody>{rows}</tbody></table>"
    )


def data_table(table: dict[str, Any], source: Path) -> str:
    """One table a game gives its rules page (``Game.rules_tables``), escaped here."""
    try:
        caption, head, rows = table["caption"], table["head"], table["rows"]
    except (KeyError, TypeError):
        raise BuildError(source, "a rules table needs caption, head and rows") from None
    cell = lambda v: html.escape(str(v))  # noqa: E731
    body = "".join("<tr>" + "".join(f"<td>{cell(v)}</td>" for v in row) + "</tr>" for row in rows)
    return (
        f'<div class="table-scroll"><table class="data"><caption>{cell(caption)}</caption>'
        "<thead><tr>" + "".join(f"<th>{cell(h)}</th>" for h in head) + "</tr></thead>"
        f"<tbody>{body}</tbody></table></div>"
    )


def conquests_diagrams(data: dict[str, Any], source: Path) -> str:
    try:
        from buildlib.conquests_diagrams import render_move_diagrams
    except ImportError as exc:
        raise BuildError(ROOT / "buildlib" / "conquests_diagrams.py", f"cannot import: {exc}") from None
    figures = []
    for d in render_move_diagrams(data):
        figures.append(
            f'<figure class="move-diagram">{d["svg"]}<figcaption>{html.escape(d["caption"])}</figcaption></figure>'
        )
    return '<div class="move-diagrams">' + "".join(figures) + "</div>"


@dataclass
class Page:
    path: str  # output path relative to _site, e.g. "rules/world/index.html"
    template: str
    context: dict[str, Any]
    script: str  # the page's Python entry module under site/py/pages


def plan_pages(inp: Inputs) -> list[Page]:
    # a game is listed as playable once its engine, template and page module all exist
    playable = [
        g
        for g in GAME_INFO
        if g["id"] in inp.games
        and (TEMPLATES / "games" / f"{g['id']}.html").exists()
        and (SITE_SRC / "games" / f"{g['id']}.py").exists()
    ]
    pages = [
        Page("index.html", "index.html", {"games": GAME_INFO, "playable": playable}, "home"),
        Page("credits/index.html", "credits.html", {"credits": inp.credits}, "static"),
    ]
    for info in GAME_INFO:
        gid = info["id"]
        source = SITE_SRC / "rules" / f"{gid}.md"
        title, text = inp.rules[gid]
        replacements: dict[str, Callable[[], str]] = {
            "table:world-card-values": lambda s=source: world_card_table(inp.world_data, s),
            "table:world-continents": lambda s=source: world_continent_table(inp.maps, s),
            "diagrams:conquests": lambda s=source: conquests_diagrams(inp.conquests_data, s),
        }
        if gid in inp.games:
            for name, table in inp.games[gid].rules_tables().items():
                replacements[f"table:{gid}:{name}"] = lambda t=table, s=source: data_table(t, s)
        body = markdown_to_html(text, source, replacements)
        pages.append(
            Page(
                f"rules/{gid}/index.html",
                "rules.html",
                {"game": info, "title": title, "body": body, "playable": info in playable},
                "static",
            )
        )
    if inp.maps and (TEMPLATES / "maps.html").exists():
        from buildlib.mapsvg import render_map_svg

        rendered = []
        for m in inp.maps:
            rendered.append(
                {
                    "id": m.id,
                    "title": m.title,
                    "svg": render_map_svg(m, id_prefix=f"{m.id}-"),
                    "territories": len(m.territories),
                    "edges": len(m.edges),
                    "sea_links": len(m.sea_links),
                    "groups": m.groups,
                    "credits": m.credits,
                }
            )
        pages.append(Page("maps/index.html", "maps.html", {"maps": rendered}, "static"))
    for info in playable:
        gid = info["id"]
        game = inp.games[gid]
        n = game.max_players
        ctx: dict[str, Any] = {
            "game": info,
            "palette": list(zip(PALETTE, PALETTE_NAMES, strict=True)),
            "bot_levels": list(game.bot_levels()),
            "default_seats": game.min_players,
            "seat_names": [f"Player {i + 1}" for i in range(n)],
            "seat_who": ["human"] * n,
            "duel_games": [
                (g.id, g.title) for g in inp.games.values() if g.id != gid and g.min_players <= 2 <= g.max_players
            ],
        }
        if inp.maps:
            ctx["maps"] = {m.id: m for m in inp.maps}
        pages.append(Page(f"play/{gid}/index.html", f"games/{gid}.html", ctx, f"play_{gid}"))
    return pages


def render_pages(inp: Inputs, pages: list[Page], asset_version: str) -> dict[str, bytes]:
    import jinja2

    env = jinja2.Environment(
        loader=jinja2.FileSystemLoader(str(TEMPLATES)),
        autoescape=True,
        undefined=jinja2.StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
    )
    out: dict[str, bytes] = {}
    nav = [{"href": "", "label": "Games"}, {"href": "maps/", "label": "Maps"}, {"href": "credits/", "label": "Credits"}]
    modules = page_modules()
    for page in pages:
        depth = page.path.count("/")
        root = "../" * depth
        if page.script not in modules:
            where = SITE_SRC / "games" / f"{page.script[5:]}.py" if page.script.startswith("play_") else (
                SITE_SRC / "py" / "pages" / f"{page.script}.py"
            )
            raise BuildError(where, f"the Python entry of {page.path} is missing")
        try:
            template = env.get_template(page.template)
            text = template.render(
                root=root,
                nav=nav,
                page_path=page.path,
                page_script=f"{root}py/{page.script}.py",
                py_config=json.dumps(
                    {
                        "interpreter": f"{root}runtime/pyodide/conquest-boot.mjs",
                        "files": {f"{root}py/app.zip": "./*"},
                        "plugins": PYSCRIPT_PLUGINS_OFF,
                    }
                ),
                mpy_config=json.dumps({"plugins": PYSCRIPT_PLUGINS_OFF}),
                asset_version=asset_version,
                games_info=GAME_INFO,
                games_info_json=json.dumps([{"id": g["id"], "title": g["title"]} for g in GAME_INFO]).replace("<", "\\u003c"),
                **page.context,
            )
        except jinja2.TemplateError as exc:
            where = getattr(exc, "filename", None) or str(TEMPLATES / page.template)
            raise BuildError(Path(where), f"{type(exc).__name__}: {exc}") from None
        out[page.path] = text.encode("utf-8")
    return out


# --------------------------------------------------------------------------------------
# 3. runtime files
# --------------------------------------------------------------------------------------
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


def app_zip() -> bytes:
    """The ``conquest`` package and the page modules, unpacked by PyScript into the cwd."""
    buf = io.BytesIO()
    files: list[tuple[str, Path]] = []
    for path in sorted((ROOT / "conquest").rglob("*")):
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
    js.window.conquestEngineFailed(f"{{type(exc).__name__}}: {{exc}}")
    raise
"""


def page_modules() -> dict[str, Path]:
    """Page entry modules by name: site/py/pages/<name>.py and site/games/<id>.py (play_<id>)."""
    out = {p.stem: p for p in sorted((SITE_SRC / "py" / "pages").glob("*.py"))}
    out.update({f"play_{p.stem}": p for p in sorted((SITE_SRC / "games").glob("*.py"))})
    return out


def page_scripts() -> dict[str, bytes]:
    return {f"py/{name}.py": BOOTSTRAP.format(module=name).encode() for name in page_modules()}


def static_files() -> dict[str, bytes]:
    return {
        f"static/{p.relative_to(SITE_SRC / 'static').as_posix()}": p.read_bytes()
        for p in sorted((SITE_SRC / "static").rglob("*"))
        if p.is_file()
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


# --------------------------------------------------------------------------------------
# 4. write
# --------------------------------------------------------------------------------------
def write_site(out_dir: Path, files: dict[str, bytes]) -> None:
    if out_dir.exists():
        shutil.rmtree(out_dir)
    for rel, data in sorted(files.items()):
        path = out_dir / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(data)


def content_hash(parts: Iterable[tuple[str, bytes]]) -> str:
    h = hashlib.sha256()
    for name, data in sorted(parts):
        h.update(name.encode())
        h.update(hashlib.sha256(data).digest())
    return h.hexdigest()[:12]


def build(out_dir: Path) -> dict[str, bytes]:
    inp = load_inputs()
    pages = plan_pages(inp)

    files: dict[str, bytes] = {}
    for name in PYODIDE_FILES:
        src = NODE / "pyodide" / name
        files[f"runtime/pyodide/{name}"] = trimmed_stdlib(src) if name == "python_stdlib.zip" else src.read_bytes()
    for name, data in pyscript_files().items():
        files[f"runtime/pyscript/{name}"] = data
    files["py/app.zip"] = app_zip()
    files.update(page_scripts())
    files.update(static_files())
    files["favicon.svg"] = (SITE_SRC / "favicon.svg").read_bytes()
    files[".nojekyll"] = b""

    # the version covers everything but the pages, which embed it
    version = content_hash(files.items())
    files.update(render_pages(inp, pages, version))
    version = content_hash(files.items())
    boot = (SITE_SRC / "boot.mjs").read_text(encoding="utf-8")
    if "__VERSION__" not in boot:
        raise BuildError(SITE_SRC / "boot.mjs", "must contain __VERSION__")
    files["runtime/pyodide/conquest-boot.mjs"] = boot.replace("__VERSION__", json.dumps(version)).encode()
    files["runtime/pyodide/conquest-snapshot-worker.mjs"] = (SITE_SRC / "snapshot-worker.mjs").read_bytes()
    files["sw.js"] = service_worker(files, version)
    files["version.json"] = json.dumps(
        {"version": version, "pyodide": inp.pyodide_version, "pyscript": inp.pyscript_version}
    ).encode()
    write_site(out_dir, files)
    return files


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", default=str(ROOT / "_site"), help="output folder (default: _site)")
    args = parser.parse_args(argv)
    try:
        files = build(Path(args.out))
    except BuildError as exc:
        print(f"build failed: {exc}", file=sys.stderr)
        return 1
    total = sum(len(v) for v in files.values())
    print(f"built {len(files)} files, {total / 1e6:.1f} MB, into {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())

#!/usr/bin/env python3
"""Build the static site into ``_site/``: one linear pipeline, conducted here.

    load + validate data  ->  plan and render pages  ->  package the runtime  ->  write _site/

Why one straight pipeline: when something is wrong the error names the file at fault and
nothing half-built is left behind. Everything is decided from files in this repository and
``node_modules`` (the pinned Pyodide and PyScript); nothing is fetched. The details live in
``buildlib/``: ``rules.py`` (rules pages and their tables), ``runtime.py`` (what of Pyodide,
PyScript and our Python is shipped), ``mapsvg.py`` (maps); the contracts with the pages are
named in ``site/py/contract.py``.

Usage: ``python build.py [--out _site]``.
"""
from __future__ import annotations

import argparse
import hashlib
import json
import shutil
import sys
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent
SITE_SRC = ROOT / "site"
TEMPLATES = SITE_SRC / "templates"
NODE = ROOT / "node_modules"

sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(SITE_SRC / "py"))  # the page-side contracts (contract.py)

from contract import SITE_DATA_ID, play_module  # noqa: E402

from buildlib import rules as rules_mod  # noqa: E402
from buildlib import runtime  # noqa: E402
from buildlib.errors import BuildError  # noqa: E402
from buildlib.runtime import service_worker  # noqa: E402,F401 - part of the build's API (tests)
from conquest.bots import levels as bot_levels  # noqa: E402
from conquest.catalog import CatalogError, GameFacts, catalog, load_data  # noqa: E402
from conquest.seats import PALETTE, PALETTE_NAMES  # noqa: E402

__all__ = ["BuildError", "CONTENT_SECURITY_POLICY", "build", "content_hash", "load_inputs", "main", "service_worker"]

#: Every page's Content-Security-Policy, as a ``<meta http-equiv>`` (GitHub Pages sends no
#: headers). Why each part (issue 10, item 7): scripts only from the site itself, none inline
#: (page scripts are files); ``'wasm-unsafe-eval'`` is what Pyodide needs to compile its
#: WebAssembly, and nothing more: the pages boot and play without ``'unsafe-eval'``
#: (tests/browser/test_csp.py watches for ``securitypolicyviolation``). Workers and fetches
#: stay on the origin (the snapshot worker, the runtime files); ``blob:`` is needed for the
#: downloads the pages make (files, offline copies) and images the pages draw. Styles may be
#: inline (the map and chart set ``style`` attributes): they cannot run code.
#: live play's signalling relays (``conquest/data/live.json``): the relays people may pick and
#: the local ones (tests, a relay on one's own machine); ``connect-src`` allows exactly these
LIVE_RELAYS = [*load_data("live")["relays"], *load_data("live")["local_relays"]]
CONTENT_SECURITY_POLICY = "; ".join(
    [
        "default-src 'self'",
        "script-src 'self' 'wasm-unsafe-eval'",
        "style-src 'self' 'unsafe-inline'",
        "img-src 'self' data: blob:",
        "connect-src 'self' " + " ".join(LIVE_RELAYS),
        "worker-src 'self'",
        "manifest-src 'self'",
        "object-src 'none'",
        "base-uri 'self'",
        "form-action 'self'",
    ]
)


# --------------------------------------------------------------------------------------
# 1. load + validate
# --------------------------------------------------------------------------------------
@dataclass
class Inputs:
    facts: dict[str, GameFacts]  # every game of the site, in order (the catalog)
    games: dict[str, Any]  # the registered engines
    rules: dict[str, tuple[str, str]]  # id -> (title, markdown)
    maps: list[Any] = field(default_factory=list)
    conquests_data: dict[str, Any] = field(default_factory=dict)
    credits: list[dict[str, str]] = field(default_factory=list)
    pyodide_version: str = ""
    pyscript_version: str = ""

    def playable(self) -> list[str]:
        """Games with a play page: engine, template and page module all exist."""
        return [
            gid
            for gid in self.facts
            if gid in self.games
            and (TEMPLATES / "games" / f"{gid}.html").exists()
            and runtime.game_page_source(gid) is not None
        ]


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
        facts = catalog()
    except CatalogError as exc:
        raise BuildError(ROOT / "conquest" / "data", str(exc)) from None
    for gid in registry:
        if gid not in facts:
            raise BuildError(ROOT / "conquest" / "data" / f"{gid}.json", f"game {gid!r} is registered but has no 'facts'")

    rules: dict[str, tuple[str, str]] = {}
    for gid in facts:
        path = SITE_SRC / "rules" / f"{gid}.md"
        if not path.exists():
            raise BuildError(path, "the rules page of this game is missing")
        text = path.read_text(encoding="utf-8")
        first = text.splitlines()[0] if text else ""
        if not first.startswith("# "):
            raise BuildError(path, "must start with '# <title>'")
        rules[gid] = (first[2:].strip(), text)

    for name in SHARED_RULES:  # pages of every game's rules, not of one game
        path = SITE_SRC / "rules" / f"{name}.md"
        text = path.read_text(encoding="utf-8")
        first = text.splitlines()[0] if text else ""
        if not first.startswith("# "):
            raise BuildError(path, "must start with '# <title>'")
        rules[name] = (first[2:].strip(), text)

    maps: list[Any] = []
    from conquest import maps as maps_mod

    for map_id in maps_mod.available_maps():
        try:
            maps.append(maps_mod.load_map(map_id))
        except maps_mod.MapError as exc:
            raise BuildError(ROOT / "conquest" / "data" / "maps" / f"{map_id}.json", str(exc)) from None

    data_dir = ROOT / "conquest" / "data"
    conquests = read_json(data_dir / "conquests.json")

    pyodide_pkg = read_json(NODE / "pyodide" / "package.json")
    pyscript_pkg = read_json(NODE / "@pyscript" / "core" / "package.json")
    for name in runtime.PYODIDE_FILES:
        if not (NODE / "pyodide" / name).exists():
            raise BuildError(NODE / "pyodide" / name, "missing: run `npm ci` first")

    return Inputs(
        facts=facts,
        games=registry,
        rules=rules,
        maps=maps,
        conquests_data=conquests,
        credits=load_credits(maps),
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
# 2. plan + render pages
# --------------------------------------------------------------------------------------
@dataclass
class Page:
    path: str  # output path relative to _site, e.g. "rules/world/index.html"
    template: str
    context: dict[str, Any]
    script: str  # the page's Python entry module (see runtime.page_modules)


def rules_body(inp: Inputs, gid: str) -> str:
    source = SITE_SRC / "rules" / f"{gid}.md"
    replacements: dict[str, Callable[[], str]] = {
        "diagrams:conquests": lambda: rules_mod.conquests_diagrams(inp.conquests_data, source),
    }
    if gid in inp.games:
        for name, table in inp.games[gid].rules_tables().items():
            replacements[f"table:{gid}:{name}"] = lambda t=table: rules_mod.data_table(t, source)
    return rules_mod.markdown_to_html(inp.rules[gid][1], source, replacements)


def game_page_context(inp: Inputs, gid: str) -> dict[str, Any]:
    """What the shell template (game.html) needs to draw the set-up before Python starts."""
    game = inp.games[gid]
    n = game.max_players
    ctx: dict[str, Any] = {
        "game": inp.facts[gid].to_json(),
        "palette": list(zip(PALETTE, PALETTE_NAMES, strict=True)),
        "bot_levels": list(bot_levels(game)),
        "default_seats": game.min_players,
        "seat_names": [f"Player {i + 1}" for i in range(n)],
        "seat_who": ["human"] * n,
        "duel_games": [(g.id, g.title) for g in inp.games.values() if g.id != gid and g.min_players <= 2 <= g.max_players],
        "maps": {m.id: m for m in inp.maps},
    }
    return ctx


#: the landing page's text for each game's picture (previews/<id>.svg says the same inside)
#: rules pages shared by every game (``site/rules/<name>.md`` -> ``rules/<name>/``): how the
#: draws are made and checked (issue 26)
SHARED_RULES = ("draws",)

PICTURE_ALT = {
    "world": "The world map, its 42 territories coloured by the players who hold them",
    "campaign": "The Short Campaign map with the three players' bases",
    "reign": "A territory card with its Influenced and Controlled faces",
    "conquests": "The 6x6 board in its starting position",
    "metagame": "The wheel that picks the game of a duel, slices coloured by game",
}


def plan_pages(inp: Inputs) -> list[Page]:
    playable = inp.playable()
    infos = [f.to_json() for f in inp.facts.values()]
    pages = [
        Page("index.html", "index.html", {"games": infos, "playable": [i for i in infos if i["id"] in playable],
                                          "pictures": {gid: PICTURE_ALT.get(gid, "") for gid in playable}}, "home"),
        Page("credits/index.html", "credits.html", {"credits": inp.credits}, "static"),
    ]
    for info in infos:
        gid = info["id"]
        pages.append(
            Page(
                f"rules/{gid}/index.html",
                "rules.html",
                {"game": info, "title": inp.rules[gid][0], "body": rules_body(inp, gid), "playable": gid in playable},
                "static",
            )
        )
    for name in SHARED_RULES:
        title = inp.rules[name][0]
        pages.append(
            Page(
                f"rules/{name}/index.html",
                "rules.html",
                {"game": {"id": name, "title": title}, "title": title, "body": rules_body(inp, name), "playable": False},
                "static",
            )
        )
    if inp.maps and (TEMPLATES / "maps.html").exists():
        from buildlib.mapsvg import render_map_svg

        rendered = [
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
            for m in inp.maps
        ]
        pages.append(Page("maps/index.html", "maps.html", {"maps": rendered}, "static"))
    for gid in playable:
        pages.append(Page(f"play/{gid}/index.html", f"games/{gid}.html", game_page_context(inp, gid), play_module(gid)))
        # issue 37: the same page for a guest device, without the engine (the host draws it)
        pages.append(Page(f"play/{gid}/guest/index.html", f"games/{gid}.html",
                          {**game_page_context(inp, gid), "guest": True, "guest_config": guest_config()}, play_module(gid)))
    return pages


def guest_config() -> str:
    """What a guest page's script (``static/guest.js``) needs of ``conquest/data/live.json``
    (the page runs no Python to read it): the transport's constants and the join link's
    bounds, as JSON safe inside a ``<script type="application/json">``."""
    live = load_data("live")
    conf = {
        "appId": live["app_id"], "relays": live["relays"], "maxChars": live["max_update_chars"],
        "maxOut": live["max_message_chars"], "maxName": live["max_name_chars"],
    }
    return json.dumps(conf).replace("<", "\\u003c")


def render_pages(inp: Inputs, pages: list[Page], asset_version: str) -> dict[str, bytes]:
    import jinja2

    env = jinja2.Environment(
        loader=jinja2.FileSystemLoader(str(TEMPLATES)),
        autoescape=True,
        undefined=jinja2.StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
    )
    from buildlib.mapsvg import label_lines, label_tiers, uncrowded

    env.filters["label_lines"] = label_lines  # map labels broken as the collision checks break them
    env.globals["uncrowded"] = uncrowded
    env.globals["label_tiers"] = label_tiers
    out: dict[str, bytes] = {}
    nav = [{"href": "", "label": "Games"}, {"href": "maps/", "label": "Maps"}, {"href": "credits/", "label": "Credits"}]
    modules = runtime.page_modules()
    # the playable games and their titles: Python reads which games play here; frame.js lists
    # saved games with their titles before the engine is ready (issue 38)
    site_data = json.dumps(
        {"playable": inp.playable(), "titles": {gid: inp.facts[gid].title for gid in inp.playable()}}
    ).replace("<", "\\u003c")
    for page in pages:
        root = "../" * page.path.count("/")
        if page.script not in modules:
            raise BuildError(runtime.module_source(page.script), f"the Python entry of {page.path} is missing")
        try:
            text = env.get_template(page.template).render(
                root=root,
                nav=nav,
                page_path=page.path,
                page_script=f"{root}py/{page.script}.py",
                app_zip=f"{root}{runtime.APP_ZIP}",
                py_config=json.dumps(
                    {
                        "interpreter": f"{root}runtime/pyodide/conquest-boot.mjs",
                        "files": {f"{root}{runtime.APP_ZIP}": "./*"},
                        "plugins": runtime.PYSCRIPT_PLUGINS_OFF,
                    }
                ),
                mpy_config=json.dumps({"plugins": runtime.PYSCRIPT_PLUGINS_OFF}),
                asset_version=asset_version,
                site_data_id=SITE_DATA_ID,
                csp=CONTENT_SECURITY_POLICY,
                theme_colour=THEME_COLOUR,
                site_data_json=site_data,
                **{"guest": False, "live_relays": load_data("live")["relays"], **page.context},
            )
        except jinja2.TemplateError as exc:
            where = getattr(exc, "filename", None) or str(TEMPLATES / page.template)
            raise BuildError(Path(where), f"{type(exc).__name__}: {exc}") from None
        out[page.path] = text.encode("utf-8")
    return out


#: the installed app's name and colours (the header's and the page's, site/static/style.css)
APP_NAME = "Conquest"
THEME_COLOUR = "#1f4e79"
BACKGROUND_COLOUR = "#fbfaf7"


def preview_files(inp: Inputs) -> dict[str, bytes]:
    """``previews/<id>.svg``: each playable game's picture for the landing page (issue 21,
    item 11), drawn from the game's own data (``buildlib.previews``). Files, not inline:
    the landing page's first paint stays small and the pictures load beside it."""
    from buildlib.previews import preview

    out = {}
    for gid in inp.playable():
        try:
            picture = preview(gid)
        except Exception as exc:  # a picture that cannot be drawn names its game
            raise BuildError(ROOT / "buildlib" / "previews.py", f"the picture of {gid!r} failed: {exc!r}") from exc
        if picture:
            out[f"previews/{gid}.svg"] = picture.encode("utf-8")
    return out


def question_pictures() -> dict[str, bytes]:
    """``pictures/<kind>/<key>.svg``: the files the Short Campaign questions' pictures name
    (issue 40), of the bank and of its earlier editions (an old save's question shows its
    picture too), and no others. In ``files`` before the service worker is written, so they
    are cached with the site and a game plays offline. A bad picture or a missing file names
    the file at fault (``buildlib/pictures.py``)."""
    from buildlib.pictures import picture_files
    from conquest.games.campaign.questions import BANK_FILE, LEGACY_FILE, bank_from_json

    banks = []
    for path in (BANK_FILE, LEGACY_FILE):
        try:
            banks.append(bank_from_json(read_json(path)))
        except (ValueError, KeyError, TypeError, IndexError) as exc:
            raise BuildError(path, f"the question bank cannot be read: {exc}") from None
    return picture_files(banks, NODE)


def app_files(inp: Inputs) -> dict[str, bytes]:
    """The web app manifest and its icons (issue 10, item 8), so the site installs as an app.

    Icons come from the site's own SVG (favicon.svg): as it is for ``any`` purpose, and set
    inside a full-bleed square with the safe margin for ``maskable`` (launchers crop those
    to circles or rounded squares). SVG icons declare ``sizes: any``; PNG renderings of the
    same SVGs (issue 23: iOS and Safari read no SVG icon) come at 192 and 512 px for the
    manifest and 180 px for ``apple-touch-icon`` (full-bleed: iOS rounds the corners
    itself and would fill transparent ones with black). The shortcuts open each game's
    play page; names and the description come from the catalog.
    """
    icon = (SITE_SRC / "favicon.svg").read_text(encoding="utf-8")
    if not icon.startswith("<svg "):
        raise BuildError(SITE_SRC / "favicon.svg", "must start with '<svg '")
    # the maskable icon's safe zone is the central 80%: the logo fills 70% of the square
    maskable = (
        '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 100 100">'
        f'<rect width="100" height="100" fill="{THEME_COLOUR}"/>'
        + icon.replace("<svg ", '<svg x="15" y="15" width="70" height="70" ', 1)
        + "</svg>"
    )
    titles = [f.title for f in inp.facts.values()]
    manifest = {
        "name": APP_NAME,
        "short_name": APP_NAME,
        "description": f"Conquest games to play with friends in the browser ({', '.join(titles)}): "
        "no install, even offline.",
        "start_url": "./",
        "scope": "./",
        "id": "./",
        "display": "standalone",
        "theme_color": THEME_COLOUR,
        "background_color": BACKGROUND_COLOUR,
        "icons": [
            {"src": "favicon.svg", "sizes": "any", "type": "image/svg+xml", "purpose": "any"},
            {"src": "icon-maskable.svg", "sizes": "any", "type": "image/svg+xml", "purpose": "maskable"},
            *[{"src": name, "sizes": f"{size}x{size}", "type": "image/png", "purpose": purpose}
              for name, (_, size, purpose) in PNG_ICONS.items() if purpose],
        ],
        "shortcuts": [
            {"name": inp.facts[gid].title, "url": f"play/{gid}/"} for gid in inp.playable()
        ],
    }
    svgs = {"favicon.svg": icon, "icon-maskable.svg": maskable}
    return {
        "manifest.webmanifest": json.dumps(manifest, indent=1, ensure_ascii=False).encode("utf-8"),
        "icon-maskable.svg": maskable.encode("utf-8"),
        **{name: render_png(svgs[src], size) for name, (src, size, _) in PNG_ICONS.items()},
    }


#: PNG icons: name -> (the SVG it is rendered from, size in px, manifest purpose or "" for
#: the apple-touch-icon, which base.html links and the manifest does not list)
PNG_ICONS: dict[str, tuple[str, int, str]] = {
    "icon-192.png": ("favicon.svg", 192, "any"),
    "icon-512.png": ("favicon.svg", 512, "any"),
    "icon-maskable-512.png": ("icon-maskable.svg", 512, "maskable"),
    "apple-touch-icon.png": ("icon-maskable.svg", 180, ""),
}


def render_png(svg: str, size: int) -> bytes:
    """One SVG as a square PNG of ``size`` px, by cairosvg (the ``build`` extra; it needs
    the system's cairo library, Debian's ``libcairo2``)."""
    try:
        import cairosvg
    except OSError as exc:  # cairocffi found no libcairo
        raise BuildError(SITE_SRC / "favicon.svg", f"cannot render PNG icons: {exc} (apt-get install -y libcairo2)") from None
    return cairosvg.svg2png(bytestring=svg.encode("utf-8"), output_width=size, output_height=size)


# --------------------------------------------------------------------------------------
# 3. write
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

    files = runtime.runtime_files()
    files.update(runtime.static_files())
    files["favicon.svg"] = (SITE_SRC / "favicon.svg").read_bytes()
    files.update(app_files(inp))
    files.update(preview_files(inp))
    files.update(question_pictures())
    files[".nojekyll"] = b""

    # the version covers everything but the pages, which embed it
    version = content_hash(files.items())
    files.update(render_pages(inp, pages, version))
    version = content_hash(files.items())
    files.update(runtime.boot_files(version))
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

"""The contracts between the build, the engines and the pages, each named once and checked.

Why: the build writes what the pages read (module names, the site-data element, the hook a
failed page calls), and each game's facts (title, seats, pages) are declared once in its
data file. These tests tie every reader to the one declaration.
"""
from __future__ import annotations

import importlib
import re
from pathlib import Path

import page_host  # noqa: F401 - puts site/py and site/games on sys.path
import pytest
from contract import ENGINE_FAILED, PLAY_PREFIX, SITE_DATA_ID, game_of_module, play_module
from shell import GamePage

import build
from conquest.catalog import DATA_DIR, CatalogError, _parse_facts, catalog, facts
from conquest.core import games

ROOT = Path(__file__).resolve().parent.parent


def test_every_game_has_facts_rules_and_the_engine_agrees() -> None:
    cat = catalog()
    assert list(cat) == sorted(cat, key=lambda g: cat[g].order)
    for gid, f in cat.items():
        assert (ROOT / "site" / "rules" / f"{gid}.md").exists(), gid
        assert f.min_seats <= f.max_seats
    for gid, game in games().items():
        assert gid in cat, f"{gid} is registered but has no facts in conquest/data/{gid}.json"
        assert (game.title, game.min_players, game.max_players, game.ruling_prefix) == (
            cat[gid].title, cat[gid].min_seats, cat[gid].max_seats, cat[gid].ruling_prefix,
        )


def test_facts_are_validated_with_the_file_named() -> None:
    with pytest.raises(CatalogError, match=r"conquest/data/x.json: facts.seats"):
        _parse_facts("x", {"title": "X", "seats": [3, 2], "players": "", "blurb": "", "ruling_prefix": "X", "order": 1})
    with pytest.raises(CatalogError, match=r"facts.title must be a str"):
        _parse_facts("x", {"seats": [2, 2]})
    assert facts("metagame").title == "Conquest Metagame"
    assert sorted(p.stem for p in DATA_DIR.glob("*.json") if p.stem in catalog()) == sorted(catalog())


def test_play_pages_module_names_and_page_classes() -> None:
    inp = build.load_inputs()
    playable = inp.playable()
    assert "metagame" in playable
    for gid in playable:
        name = play_module(gid)
        assert name.startswith(PLAY_PREFIX) and game_of_module(name) == gid
        module = importlib.import_module(gid)  # site/games/<id>.py imports without a browser
        pages = [v for v in vars(module).values() if isinstance(v, type) and issubclass(v, GamePage) and v is not GamePage]
        assert [p.game_id for p in pages] == [gid], f"site/games/{gid}.py must define one GamePage for {gid}"
        assert callable(getattr(module, "main", None)), f"site/games/{gid}.py needs main()"
        template = (ROOT / "site" / "templates" / "games" / f"{gid}.html").read_text(encoding="utf-8")
        assert template.startswith('{% extends "game.html" %}'), f"games/{gid}.html must stand on the shell"
    assert game_of_module("home") is None


def test_build_and_frame_share_the_site_data_and_failure_hook(tmp_path: Path) -> None:
    files = build.build(tmp_path / "site")
    page = files["play/metagame/index.html"].decode()
    m = re.search(rf'<script type="application/json" id="{SITE_DATA_ID}">(.*?)</script>', page)
    assert m and '"playable"' in m.group(1)
    frame_js = (ROOT / "site" / "static" / "frame.js").read_text(encoding="utf-8")
    assert f"window.{ENGINE_FAILED} =" in frame_js
    boot = files[f"py/{PLAY_PREFIX}metagame.py"].decode()
    assert f"js.window.{ENGINE_FAILED}(" in boot and f"import {PLAY_PREFIX}metagame as page" in boot
    # the shell's containers named in shell_browser.py and its parts (browser_*.py) exist in the
    # shell template (the log's scroll box is not a container: the shell draws it inside the
    # log, issue 20 item 10)
    parts = [ROOT / "site" / "py" / "shell_browser.py", *sorted((ROOT / "site" / "py").glob("browser_*.py"))]
    runner = "\n".join(path.read_text(encoding="utf-8") for path in parts)
    drawn = {"shell-prompt", "shell-audience", "shell-readonly", "shell-log-scroll", "shell-ready"}  # Ready: the pass screen's
    shell_ids = set(re.findall(r'"(shell-[a-z-]+)"', runner)) - drawn
    assert 'id="shell-log-scroll"' in (ROOT / "site" / "py" / "shell_log.py").read_text(encoding="utf-8")
    for sid in shell_ids:
        assert f'id="{sid}"' in page, sid

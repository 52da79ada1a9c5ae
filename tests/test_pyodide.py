"""The engines on Pyodide's Python 3.14 (the browser's interpreter), run under Node.

Why not only the browser tests: this checks every game's engine on the exact interpreter
the pages use, quickly and without a page, so a 3.11-only construct fails here by name.
"""
from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

from conquest.core import games

ROOT = Path(__file__).resolve().parent.parent


def test_engines_run_on_pyodide() -> None:
    node = shutil.which("node")
    assert node, "node is needed to run Pyodide outside the browser"
    out = subprocess.run(
        [node, str(ROOT / "tests" / "pyodide_check.mjs"), str(ROOT)],
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert out.returncode == 0, out.stderr[-3000:]
    report = json.loads(out.stdout.strip().splitlines()[-1])
    assert report["python"].startswith("3.14")
    assert set(report["games"]) == set(games())
    for gid, r in report["games"].items():
        assert r["replay_equal"], gid
        assert r["steps"] > 0, gid
    hostile = report["hostile"]  # issue 20, item 2: refused before the parser recurses
    assert hostile["link_chars"] < 110
    assert hostile["nesting_link"] == hostile["nesting_file"] == "json-depth"
    assert hostile["deep_pack"] == "S8.pack" and hostile["after"]

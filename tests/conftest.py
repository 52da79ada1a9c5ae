"""Shared pytest set-up: the repository root on sys.path (for build.py and tools/), and the
page-side modules (``site/py``: the shell, ``ui``; ``site/games``: the game pages), which
the page runtime also puts at the top level, so tests import them as the pages do."""
from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
for path in (ROOT, ROOT / "site" / "py", ROOT / "site" / "games"):
    if str(path) not in sys.path:
        sys.path.insert(0, str(path))

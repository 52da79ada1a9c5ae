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

try:  # the property tests' profile: example counts decide, never the machine's speed
    from hypothesis import HealthCheck, settings

    settings.register_profile("conquest", deadline=None, suppress_health_check=[HealthCheck.too_slow])
    settings.load_profile("conquest")
except ImportError:  # hypothesis is in the test extra; without it those tests fail to import
    pass

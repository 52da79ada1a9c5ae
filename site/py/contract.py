"""The contracts between build.py and the pages, named once (both import this module).

Why a module: the build writes what the pages read (module names, the element with the
site's facts, the hook a failed page calls), and a name spelled twice drifts. Pure Python,
no ``js``: build.py imports it under CPython, the pages under Pyodide.
"""
from __future__ import annotations

__all__ = ["PLAY_PREFIX", "SITE_DATA_ID", "ENGINE_FAILED", "LAZY_DATA_URL", "play_module", "game_of_module"]

#: a game's page module is shipped as ``play_<game id>.py`` (from ``site/games/<id>.py``)
PLAY_PREFIX = "play_"
#: the JSON element every page carries: ``{"playable": [game ids with a play page]}``
SITE_DATA_ID = "site-data"
#: what the build's bootstrap calls in the page when the page's Python raised (frame.js)
ENGINE_FAILED = "conquestEngineFailed"
#: where the build serves the files of ``conquest.catalog.LAZY_DIR`` (kept out of app.zip),
#: from the site's root; a page fetches one only when a save needs it
LAZY_DATA_URL = "py/lazy/"


def play_module(game_id: str) -> str:
    return f"{PLAY_PREFIX}{game_id}"


def game_of_module(module: str) -> str | None:
    """The game id of a play page module, or None for the other pages' modules."""
    return module[len(PLAY_PREFIX) :] if module.startswith(PLAY_PREFIX) else None

"""Launching Debian's Chromium for the browser tests and benchmarks, in one place.

Why these flags: Playwright cannot download its own browsers here, so the system
``chromium`` is used; as root it needs ``--no-sandbox``, and the background-networking
flags keep it from calling out of a machine whose only network is 127.0.0.1.
"""
from __future__ import annotations

import shutil
from typing import Any

CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
    "--disable-quic",
]


def chromium_path() -> str:
    exe = shutil.which("chromium")
    if exe is None:
        raise RuntimeError("Debian's chromium is required: apt-get install -y chromium")
    return exe


def launch_chromium(playwright: Any) -> Any:
    """A headless Chromium browser from a ``sync_playwright()`` handle."""
    return playwright.chromium.launch(executable_path=chromium_path(), args=CHROMIUM_ARGS)

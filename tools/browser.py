"""Launching Debian's Chromium for the browser tests and benchmarks, in one place.

Why these flags: Playwright cannot download its own browsers here, so the system
``chromium`` is used; as root it needs ``--no-sandbox``, and the background-networking
flags keep it from calling out of a machine whose only network is 127.0.0.1.
"""
from __future__ import annotations

import re
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
    # live play (issue 22): WebRTC between pages on this machine finds its peers by their
    # local addresses; Chromium otherwise hides them behind mDNS names nobody resolves here
    "--disable-features=WebRtcHideLocalIpsWithMdns",
]


def chromium_path() -> str:
    exe = shutil.which("chromium")
    if exe is None:
        raise RuntimeError("Debian's chromium is required: apt-get install -y chromium")
    return exe


def launch_chromium(playwright: Any) -> Any:
    """A headless Chromium browser from a ``sync_playwright()`` handle."""
    predicates_as_functions()
    return playwright.chromium.launch(executable_path=chromium_path(), args=CHROMIUM_ARGS)


_FUNCTION = re.compile(r"\s*(async\s+)?(function\b|\([^()]*\)\s*=>|[A-Za-z_$][\w$]*\s*=>)")


def predicates_as_functions() -> None:
    """Let ``page.wait_for_function("<expression>")`` work under the site's
    Content-Security-Policy.

    Why: Playwright polls an expression predicate with ``eval`` inside the page, which the
    policy forbids (no ``'unsafe-eval'``: see build.CONTENT_SECURITY_POLICY); a function
    predicate is called directly. So an expression becomes ``() => (<expression>)``, the
    same test, and the pages are tested with the policy they ship.
    """
    from playwright.sync_api import Frame, Page

    for cls in (Page, Frame):
        original = cls.wait_for_function
        if getattr(original, "_as_function", False):
            continue

        def wait_for_function(self: Any, expression: str, *args: Any, _original: Any = original, **kw: Any) -> Any:
            if isinstance(expression, str) and not _FUNCTION.match(expression):
                expression = f"() => ({expression})"
            return _original(self, expression, *args, **kw)

        wait_for_function._as_function = True  # type: ignore[attr-defined]
        cls.wait_for_function = wait_for_function

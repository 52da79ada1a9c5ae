"""Launching Debian's Chromium for the browser tests and benchmarks, in one place.

Why these flags: Playwright cannot download its own browsers here, so the system
``chromium`` is used; as root it needs ``--no-sandbox``, and the background-networking
flags keep it from calling out of a machine whose only network is 127.0.0.1.
"""
from __future__ import annotations

import os
import re
import shutil
import warnings
from pathlib import Path
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
    # V8 write-protects JIT and WebAssembly code pages with the CPU's memory protection keys
    # where the CPU has them (flag "pku"; this machine's has not); that bookkeeping has a
    # known race ("Check failed: jit_page.has_value()", chromium issue 360909072) hit when
    # several threads compile WebAssembly at once, as a Pyodide page does. The project's CI
    # of 36bd2e2 lost 13 pages to "Target crashed" while booting Python, 10 of them on the
    # Conquests page; none crashed here in three full runs. Off for the tests and benchmarks;
    # crash_report() below says what a crash was if one still happens.
    "--js-flags=--no-memory-protection-keys",
]


#: runs ``chromium`` with its output appended to $CONQUEST_CHROMIUM_STDERR
STDERR_WRAPPER = Path(__file__).resolve().parent / "chromium-stderr.sh"


def chromium_path() -> str:
    exe = shutil.which("chromium")
    if exe is None:
        raise RuntimeError("Debian's chromium is required: apt-get install -y chromium")
    return exe


def launch_chromium(playwright: Any, stderr_log: Path | None = None) -> Any:
    """A headless Chromium browser from a ``sync_playwright()`` handle.

    With ``stderr_log``, what Chromium and its renderers print (a failed check, a fatal
    signal) is appended to that file, for ``crash_report``: Playwright keeps it otherwise,
    and a crashed page says only "Target crashed"."""
    predicates_as_functions()
    exe = chromium_path()
    if stderr_log is not None:
        env = {**os.environ, "CONQUEST_CHROMIUM_STDERR": str(stderr_log)}
        try:
            return playwright.chromium.launch(executable_path=str(STDERR_WRAPPER), args=CHROMIUM_ARGS, env=env)
        except Exception as err:  # noqa: BLE001 - the tests still run, without the report
            warnings.warn(f"Chromium started without its output kept ({err})", stacklevel=2)
    return playwright.chromium.launch(executable_path=exe, args=CHROMIUM_ARGS)


#: what a renderer that died says on its way out (Chromium's and V8's fatal messages)
_FATAL = re.compile(r"Check failed|Fatal error|FATAL:|Received signal|Out of memory|Intentionally crashing", re.IGNORECASE)


def crash_report(stderr_log: Path | None) -> str:
    """One line on why a page may have crashed: the CPU's memory protection keys, the
    kernel's count of processes killed for want of memory, and the last fatal lines
    Chromium printed. Why: a crash seen only on another machine must say what it was."""
    try:
        flags = next((ln for ln in Path("/proc/cpuinfo").read_text().splitlines() if ln.startswith("flags")), "")
        pku = "yes" if " pku" in flags else "no"
    except OSError:
        pku = "unknown"
    try:
        vmstat = dict(ln.split() for ln in Path("/proc/vmstat").read_text().splitlines() if ln.count(" ") == 1)
        oom = vmstat.get("oom_kill", "unknown")
    except OSError:
        oom = "unknown"
    fatal: list[str] = []
    if stderr_log is not None and stderr_log.exists():
        lines = stderr_log.read_text(errors="replace").splitlines()
        fatal = [ln.strip()[:200] for ln in lines if _FATAL.search(ln)][-4:]
    return f"CPU pku: {pku}; processes killed for memory since boot: {oom}; Chromium's last fatal lines: {fatal or 'none'}"


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

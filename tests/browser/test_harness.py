"""The browser tests' own harness: a page that crashes says why.

Why: the project's CI of 36bd2e2 lost 13 pages to "Target crashed" that never crashed here;
Playwright says no more than that, so the harness keeps what Chromium prints and adds it,
with the machine's facts, to the failure (tools.browser.crash_report).
"""
from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tools.browser import crash_report


def test_a_crashed_page_is_reported_with_what_chromium_printed(context: Any, base_url: str,
                                                            chromium_stderr: Path) -> None:
    page = context.new_page()
    page.goto(base_url + "rules/")
    with pytest.raises(Exception):  # noqa: B017, PT011 - the navigation itself is cut off
        page.goto("chrome://crash")
    with pytest.raises(Exception, match="Target crashed"):
        page.evaluate("1")
    report = crash_report(chromium_stderr)
    assert "Intentionally crashing" in report, report
    assert report.startswith("CPU pku: ") and "processes killed for memory since boot: " in report

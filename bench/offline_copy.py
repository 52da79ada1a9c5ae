#!/usr/bin/env python3
"""Offline copies (issue 15): how big each game's single-file copy is, how long the site
takes to make it, and how fast its engine is ready when opened from disk.

For every game page: a default game is started on the site (served by tools/serve.py from
a fresh build), "Download offline copy" is clicked, and the file is opened as ``file://``
in fresh offline browser contexts (every non-``file:`` request aborted). Printed per game:
  - the file's size (MB) and the time from the click to the download (ms, first click)
  - engine ready from disk: the page's ``engine-ready`` mark (from navigation start), and
    of that, Python's start (``python-load-start`` to ``python-load-end``), medians
  - for comparison, engine ready of the same page over HTTP in a fresh context (cold)
Medians over --runs runs. Tests never assert on time; this prints figures.

Usage: python bench/offline_copy.py [--runs 3] [--games world,reign]
"""
from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tools.browser import launch_chromium  # noqa: E402
from tools.serve import serve_in_thread  # noqa: E402

GAMES = ["metagame", "world", "reign", "campaign", "conquests"]
NOT_STARTING = "() => document.documentElement.dataset.engine !== 'starting'"
MARKS = """() => {
    const at = (n) => { const m = performance.getEntriesByName(n)[0]; return m ? m.startTime : null; };
    return {ready: at("engine-ready"), start: at("python-load-start"), end: at("python-load-end")};
}"""


def ready_marks(context, url: str) -> dict[str, float]:  # noqa: ANN001
    page = context.new_page()
    page.goto(url)
    page.wait_for_function(NOT_STARTING, timeout=120_000)
    state = page.evaluate("document.documentElement.dataset.engine")
    if state != "ready":
        raise SystemExit(f"{url}: engine {state}")
    marks = page.evaluate(MARKS)
    page.close()
    return marks


def offline_context(browser):  # noqa: ANN001, ANN201
    ctx = browser.new_context(offline=True)
    ctx.route(lambda url: not url.startswith("file:"), lambda route: route.abort())
    return ctx


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--games", default=",".join(GAMES))
    args = parser.parse_args()
    from playwright.sync_api import sync_playwright

    import build

    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        site = Path(tmp) / "_site"
        build.build(site)
        server, base = serve_in_thread(site)
        with sync_playwright() as p:
            browser = launch_chromium(p)
            for game in args.games.split(","):
                ctx = browser.new_context(accept_downloads=True)
                page = ctx.new_page()
                page.goto(f"{base}play/{game}/")
                page.wait_for_function(NOT_STARTING, timeout=120_000)
                page.click("#shell-start")
                page.wait_for_selector("#shell-game:not([hidden])")
                t0 = time.perf_counter()
                with page.expect_download(timeout=120_000) as info:
                    page.click("#shell-offline")
                made_ms = (time.perf_counter() - t0) * 1000
                path = Path(tmp) / f"{game}.html"
                info.value.save_as(path)
                ctx.close()
                disk, http = [], []
                for _ in range(args.runs):
                    c = offline_context(browser)
                    disk.append(ready_marks(c, path.as_uri()))
                    c.close()
                    c = browser.new_context()
                    http.append(ready_marks(c, f"{base}play/{game}/"))
                    c.close()
                med = lambda xs, k: statistics.median(x[k] for x in xs)  # noqa: E731
                rows.append((
                    game,
                    path.stat().st_size / 1e6,
                    made_ms,
                    med(disk, "ready"),
                    statistics.median(x["end"] - x["start"] for x in disk),
                    med(http, "ready"),
                ))
            browser.close()
        server.shutdown()
    print(f"offline copies, medians of {args.runs} runs (engine ready: ms from navigation start)")
    print(f"{'game':<10} {'file MB':>8} {'made ms':>8} {'ready disk':>11} {'python':>8} {'ready http':>11}")
    for game, mb, made, ready, python, http_ready in rows:
        print(f"{game:<10} {mb:>8.2f} {made:>8.0f} {ready:>11.0f} {python:>8.0f} {http_ready:>11.0f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())

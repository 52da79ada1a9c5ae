#!/usr/bin/env python3
"""The Game of Conquests' computer in the real page: search speed (nodes per second) in Pyodide.

Builds the site into a temporary folder, serves it, opens the play page in Debian's
Chromium with the computer (hard) playing both sides (the shell's seats, ``#seat-who-0/1``),
the time per move set to ``--think`` seconds, and prints the page's own figure after each
move (``#cq-ai-stats``: nodes over the time spent inside the search's steps, as the shell's
bot runner drives them in slices) and the total. For comparison it also runs the
same kind of search in this CPython over the same positions.

Usage: python bench/conquests_page.py [--plies 6] [--think 1]
"""
from __future__ import annotations

import argparse
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tools.browser import launch_chromium  # noqa: E402
from tools.serve import serve_in_thread  # noqa: E402

READY = "document.documentElement.dataset.engine === 'ready'"
MOVES = "#cq-moves code"


def cpython_speed(log: list[str], think: float) -> float:
    """Nodes per second of the page's own bot (hard, ``think`` seconds per move) in this Python
    over the positions the page met: the time inside its steps, as the page measures it."""
    from conquest.bots import run_thinking
    from conquest.games.conquests import GAME
    from conquest.games.conquests.ai import SearchBot
    from conquest.rng import Rng
    from conquest.session import Match

    match = Match("conquests", {})
    nodes, busy = 0, 0.0
    for text in log:
        bot = SearchBot("hard", Rng(1), seconds=think)
        run_thinking(bot.think(GAME, match.state))
        assert bot.search is not None
        busy += bot.busy
        nodes += bot.search.nodes
        match.play(text)
    return nodes / busy if busy else 0.0


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--plies", type=int, default=6)
    ap.add_argument("--think", type=int, choices=(1, 3, 10, 30), default=1)
    args = ap.parse_args()

    from playwright.sync_api import sync_playwright

    import build

    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "_site"
        build.build(out)
        server, url = serve_in_thread(out)
        try:
            with sync_playwright() as p:
                browser = launch_chromium(p)
                context = browser.new_context(viewport={"width": 1280, "height": 900})
                # the computer's time per move is a preference kept in this browser
                context.add_init_script(
                    f"localStorage.setItem('conquest:conquests:think-seconds', '{args.think}')"
                )
                page = context.new_page()
                errors: list[str] = []
                page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
                page.goto(url + "play/conquests/")
                page.wait_for_function(READY, timeout=120_000)
                page.select_option("#seat-who-0", "hard")
                page.select_option("#seat-who-1", "hard")
                page.click("#shell-start")
                print(f"page: hard v hard, {args.think} s per move")
                for ply in range(1, args.plies + 1):
                    page.wait_for_function(
                        f"document.querySelectorAll('{MOVES}').length >= {ply} || document.querySelector('#cq-result')",
                        timeout=(args.think + 30) * 1000,
                    )
                    print(f"  {ply:>2}. {page.locator(MOVES).nth(ply - 1).inner_text():<12} "
                          f"{page.locator('#cq-ai-stats').inner_text()}", flush=True)
                    if page.locator("#cq-result").count():
                        break
                log = [c.inner_text() for c in page.locator(MOVES).all()]
                page_nps = int(page.locator("#cq-ai-stats").get_attribute("data-nps") or 0)
                browser.close()
        finally:
            server.shutdown()
    print(f"in the page (Pyodide, Chromium): {page_nps:,} nodes per second over {len(log)} moves")
    print(f"same positions in this CPython:  {cpython_speed(log, args.think):,.0f} nodes per second")
    if errors:
        print("console errors:", errors)


if __name__ == "__main__":
    main()

#!/usr/bin/env python3
"""Benchmark of the metagame host console IN THE PAGE (Pyodide in Chromium); prints figures.

Not a test: it asserts nothing. It builds the site into a temporary folder (or uses
``--site``), serves it like GitHub Pages (``tools.serve``), opens ``play/metagame/`` in
Debian's Chromium and measures inside Pyodide through the page's ``window.conquestBench``
hook (``site/games/metagame/bench.py``, set by the page's ``main``; timed with ``performance.now()``):

- the time to apply one action (parse + apply over a 500-action campaign: the mean from one
  timed loop, p95 and max one by one; the page's clock is coarse, about 0.1 ms);
- the time to replay a 500-action campaign (``Match`` from its log; best and median);
- the time of one ``GAME.view`` (what every render of the console computes);
- the page's own figures when it opens that campaign from a host link (replay on opening)
  and when it plays one step (engine and page update), read from its "Speed" line, and
  what its "Measure the engine's speed here" button shows;
- the link length after 100 turns with 8 players (bots, the invasion-heavy worst case too).

Targets (issue #4): apply <= 2 ms, replay of 500 actions <= 300 ms, link <= 1,500 characters.
The campaigns come from the bots of ``bench/metagame.py`` (aggressive: invades whenever it can).

Usage: python bench/metagame_page.py [--site _site] [--repeats 5] [--seeds 5]
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

import metagame as engine_bench  # noqa: E402  (bench/metagame.py: bots and campaigns)

from conquest.games.metagame import GAME  # noqa: E402
from conquest.savecode import make_fragment  # noqa: E402
from conquest.session import replay  # noqa: E402
from tools.browser import launch_chromium  # noqa: E402
from tools.serve import serve_in_thread  # noqa: E402

READY = "document.documentElement.dataset.engine === 'ready'"
#: a typical GitHub Pages address of the page, for the length of a real link
PAGES_URL = "https://conquest-games.github.io/conquest/play/metagame/"


def campaign_500() -> dict:
    """A 500-action campaign of 8 aggressive bots (invasions are the heavy actions)."""
    base = {"players": [{"name": n} for n in engine_bench.NAMES], "games": engine_bench.GAMES}
    seed = 1
    while True:
        m = engine_bench.campaign(base, "aggressive", seed, turns=None, max_actions=500)
        if len(m.log) >= 500:
            return m.save().to_json()
        seed += 7


def links_after_100_turns(seeds: int) -> dict[str, list[tuple[int, int]]]:
    """(full URL, fragment after '#') lengths per kind of bot; the page's seed is 0 (no set-up chance)."""
    base = {"players": [{"name": n} for n in engine_bench.NAMES], "games": engine_bench.GAMES}
    out: dict[str, list[tuple[int, int]]] = {}
    for kind in ("greedy", "mixed", "random", "aggressive"):
        out[kind] = []
        for seed in range(seeds):
            m = engine_bench.campaign(base, kind, seed, turns=100, max_actions=100_000)
            save = m.save().to_json()
            save["options"]["seed"] = 0  # as the page starts every campaign
            frag = make_fragment(save, "h")
            out[kind].append((len(PAGES_URL) + 1 + len(frag), len(frag)))
    return out


def main() -> int:
    from playwright.sync_api import sync_playwright

    ap = argparse.ArgumentParser()
    ap.add_argument("--site", default=None, help="a built site (default: build into a temporary folder)")
    ap.add_argument("--repeats", type=int, default=5)
    ap.add_argument("--seeds", type=int, default=5)
    args = ap.parse_args()

    save = campaign_500()
    with tempfile.TemporaryDirectory() as tmp:
        if args.site:
            site = Path(args.site)
        else:
            import build

            site = Path(tmp) / "_site"
            build.build(site)
        server, url = serve_in_thread(site)
        with sync_playwright() as p:
            browser = launch_chromium(p)
            page = browser.new_context().new_page()
            page.goto(url + "play/metagame/")
            page.wait_for_function(READY, timeout=120_000)
            page.evaluate(f"window.conquestBench({json.dumps(json.dumps(save))}, 1)")  # warm up
            runs = [
                json.loads(page.evaluate(f"window.conquestBench({json.dumps(json.dumps(save))}, 1)"))
                for _ in range(args.repeats)
            ]
            # the page itself opening that campaign from a host link, then playing one step
            page2 = browser.new_context().new_page()
            page2.goto(url + "play/metagame/#" + make_fragment(save, "h"))
            page2.wait_for_function(READY, timeout=120_000)
            opened = page2.inner_text("#shell-perf")
            host_len = page2.inner_text("#shell-host-len")
            legal = [str(a) for a in GAME.legal_actions(replay(save).state)]
            step = ""
            if legal:
                page2.fill("#mg-typed-text", legal[-1])
                page2.press("#mg-typed-text", "Enter")
                step = page2.inner_text("#shell-perf")
            # the page's own "Measure" button (its own bot campaign of 500 actions)
            page2.click("#mg-speed")
            page2.wait_for_function(
                "document.getElementById('mg-speed-out').dataset.result !== undefined", timeout=120_000
            )
            button = page2.inner_text("#mg-speed-out")
            browser.close()
        server.shutdown()

    links = links_after_100_turns(args.seeds)
    worst = max(max(u for u, _ in v) for v in links.values())
    worst_frag = max(max(f for _, f in v) for v in links.values())

    def med(key: str) -> float:
        return statistics.median(r[key] for r in runs)

    print(f"in-page (Pyodide, Chromium), {runs[0]['actions']}-action campaign, {args.repeats} runs, medians:")
    print(
        f"  apply one action: mean {med('apply_ms_mean'):.3f} ms, p95 {med('apply_ms_p95'):.3f} ms, "
        f"max {med('apply_ms_max'):.2f} ms   (target <= 2 ms)"
    )
    print(
        f"  replay {runs[0]['actions']} actions: best {min(r['replay_ms_best'] for r in runs):.0f} ms, "
        f"median {med('replay_ms_best'):.0f} ms over {args.repeats} runs   (target <= 300 ms)"
    )
    print(f"  one view (every render computes it): mean {med('view_ms_mean'):.2f} ms")
    print(f"  the page opening it from a host link: {opened}")
    if step:
        print(f"  the page after one typed step: {step}")
    print(f"  its host link in the page: {host_len}")
    print(f"  the page's 'Measure' button: {button}")
    print(f"\nlink length after 100 turns, 8 players, full URL at {PAGES_URL} ({args.seeds} seeds):")
    for kind, pairs in links.items():
        urls = [u for u, _ in pairs]
        print(
            f"  {kind:<10} URL max {max(urls):5d}  mean {statistics.mean(urls):7.0f}  "
            f"(after '#': max {max(f for _, f in pairs)})"
        )
    print(
        f"  worst {worst} characters with that address, {worst_frag} after the '#'   "
        "(target <= 1,500; chat apps cut at about 2,000)"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""Live play's speed and weight (issue 22): prints figures, asserts nothing.

1. From a guest's tap to every device showing the new step: three Chromium pages (a host
   and two guests) at one World Conquest table over WebRTC, signalled through a local
   ``nostr-relay`` (tools/relay.py); the median over the taps (the target is under 150 ms).
   Measured from Python around Playwright calls, so each figure includes a few ms of the
   test driver's own round trips.
2. The bytes live play adds to the site (runtime/live/, static/live.js, static/live.css),
   raw and gzipped: the service worker precaches every file, so this is what a first visit
   adds; a page that never opens a table loads only live.js and live.css at once.

Run: ``.venv/bin/python bench/live.py [taps]`` (needs the ``test`` extra and chromium).
"""
from __future__ import annotations

import gzip
import json
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import build  # noqa: E402
from tools.browser import launch_chromium  # noqa: E402
from tools.relay import local_relay  # noqa: E402
from tools.serve import serve_in_thread  # noqa: E402


def weight(files: dict[str, bytes]) -> None:
    live = {k: v for k, v in files.items() if k.startswith("runtime/live/") or k.startswith("static/live.")}
    raw = sum(len(v) for v in live.values())
    gz = sum(len(gzip.compress(v, 9)) for v in live.values())
    at_once = sum(len(gzip.compress(v, 9)) for k, v in live.items() if k.startswith("static/live."))
    print(f"live play adds {len(live)} files: {raw / 1024:.0f} KiB raw, {gz / 1024:.0f} KiB gzipped "
          f"(loaded by every game page at once: {at_once / 1024:.1f} KiB gzipped; the rest when a table opens, "
          "and precached by the service worker)")


def main(taps: int = 15) -> None:
    from playwright.sync_api import sync_playwright

    with tempfile.TemporaryDirectory() as tmp:
        files = build.build(Path(tmp) / "_site")
        weight(files)
        server, url = serve_in_thread(Path(tmp) / "_site")
        with local_relay() as relay, sync_playwright() as p:
            browser = launch_chromium(p)
            settings = json.dumps({"relays": [relay], "iceServers": []})
            pages = []
            for w, hgt in ((1280, 900), (1280, 900), (360, 740)):
                ctx = browser.new_context(viewport={"width": w, "height": hgt})
                ctx.add_init_script(f"localStorage.setItem('conquest:live-settings', {json.dumps(settings)});")
                pages.append(ctx.new_page())
            host, bob, cy = pages
            ready = "document.documentElement.dataset.engine === 'ready'"
            host.goto(url + "play/world/", wait_until="commit")
            host.wait_for_function(ready, timeout=180_000)
            host.select_option("#seat-who-1", "human")
            host.select_option("#seat-who-2", "human")
            host.check("#wc-deal")
            host.click("#shell-start")
            host.click("#live-start")
            host.wait_for_selector("#live-join-url")
            join = host.inner_text("#live-join-url")
            t_join = time.perf_counter()
            for page, seat in ((bob, 1), (cy, 2)):
                page.goto(join, wait_until="commit")
                page.wait_for_function(ready, timeout=180_000)
                page.click(f"button[data-take='{seat}']", timeout=180_000)
            print(f"two guests joined and seated in {time.perf_counter() - t_join:.1f} s (page loads included)")

            def step(page) -> str:  # noqa: ANN001
                return str(page.locator("#wc-panel-inner").get_attribute("data-step"))

            times: list[float] = []
            for _ in range(taps * 3):
                actor = next((pg for pg in pages if pg.locator("#wc-panel-inner").get_attribute("data-act") not in ("wait", None)
                              and pg.locator("#wc-choose-go").count()), None)
                if actor is None:
                    time.sleep(0.2)
                    continue
                before = step(actor)
                t0 = time.perf_counter()
                actor.click("#wc-choose-go")
                for pg in pages:
                    pg.wait_for_function(f"() => document.getElementById('wc-panel-inner').dataset.step !== '{before}'",
                                         timeout=30_000, polling=5)
                if actor is not host:
                    times.append((time.perf_counter() - t0) * 1000)
                if len(times) >= taps:
                    break
            if times:
                print(f"guest tap to all three devices showing the new step: median {statistics.median(times):.0f} ms, "
                      f"min {min(times):.0f}, max {max(times):.0f} over {len(times)} taps (target < 150 ms)")
            browser.close()
        server.shutdown()


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 15)

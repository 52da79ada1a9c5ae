"""Live play's speed and weight (issue 22): prints figures, asserts nothing.

1. From a guest's tap to every device showing the new step: three Chromium pages (a host
   and two guests) at one World Conquest table over WebRTC, signalled through a local
   ``nostr-relay`` (tools/relay.py); the median over the taps (the target is under 150 ms).
   Two figures, each the median over at least 20 guest taps (``taps``, default 20):

   - the pages' own clocks (one machine, one clock): from the click event on the guest's
     page to the frame painted after each device's render, with the path in between (the
     ``trace`` live setting: intent sent, host received, updates sent, each device's read
     and render);
   - the driver's clock (Python around Playwright's calls): from just before the click is
     asked for to the last of the three pages seen with the new step, which adds the
     driver's own round trips to three pages. Taps alternate between Playwright's plain
     ``click`` (which first waits for the button to be visible, stable over two animation
     frames and hit by the pointer) and ``click(force=True)`` (the same trusted mouse
     events, without those waits: what a person's tap is); each is printed.
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


def trace(page) -> list[tuple[str, float]]:  # noqa: ANN001
    return [(str(a), float(b)) for a, b in page.evaluate("() => window.conquestLiveTrace.slice()")]


def breakdown(actor, host, other, tap: float) -> dict[str, float]:  # noqa: ANN001
    """One tap's path through the pages (``trace`` setting of live_browser.py): the actor's
    intent leaves, the host takes and answers it, each device draws the new step and the
    browser paints it. ``tap``: the click event's time on the actor's clock."""
    a, hst, o = trace(actor), trace(host), trace(other)

    def first(rows: list[tuple[str, float]], what: str, after: float = 0.0) -> float:
        return next((t for w, t in rows if w == what and t >= after), float("nan"))

    sent = first(a, "send", tap)
    h_in = first(hst, "received", sent)
    h_send = first(hst, "send", h_in)
    out = {
        "tap to intent sent (the actor's handler)": sent - tap,
        "intent in transit to the host": h_in - sent,
        "host: intent read, applied, saved, first update sent": h_send - h_in,
        "host: all updates handed over": first(hst, "handled", h_in) - h_in,
        "host: tap to painted": first(hst, "painted", h_in) - tap,
    }
    for label, rows in (("actor", a), ("other guest", o)):
        r_in = first(rows, "received", h_send)
        out[f"{label}: update in transit"] = r_in - h_send
        out[f"{label}: update read (verified, parsed)"] = first(rows, "handled", r_in) - r_in
        out[f"{label}: render"] = first(rows, "rendered", r_in) - first(rows, "handled", r_in)
        # the DOM patch's share of that render (dom.spent: a length in ms, written just before)
        at = next((i for i, (w, t) in enumerate(rows) if w == "received" and t >= h_send), None)
        dom_ms = next((t for w, t in rows[at:] if w == "dom-ms"), float("nan")) if at is not None else float("nan")
        out[f"{label}: render, of which the DOM patch"] = dom_ms
        if label == "other guest" and at is not None:  # the patch by container (after the first render row)
            end = next((i for i, (w, _) in enumerate(rows) if i > at and w == "rendered"), len(rows))
            for w, v in rows[at:end]:
                if w.startswith("dom-ms:"):
                    out[f"  patch {w[7:]}"] = v
        out[f"{label}: tap to painted"] = first(rows, "painted", r_in) - tap
    out["TAP TO EVERY DEVICE PAINTED"] = max(out["host: tap to painted"], out["actor: tap to painted"],
                                             out["other guest: tap to painted"])
    return out


def main(taps: int = 20) -> None:
    from playwright.sync_api import sync_playwright

    with tempfile.TemporaryDirectory() as tmp:
        files = build.build(Path(tmp) / "_site")
        weight(files)
        server, url = serve_in_thread(Path(tmp) / "_site")
        with local_relay() as relay, sync_playwright() as p:
            browser = launch_chromium(p)
            settings = json.dumps({"relays": [relay], "iceServers": [], "trace": True})
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

            times: dict[bool, list[float]] = {False: [], True: []}  # by force=
            phases: dict[str, list[float]] = {}
            force = False
            for _ in range(taps * 6):
                actor = next((pg for pg in pages if pg.locator("#wc-panel-inner").get_attribute("data-act") not in ("wait", None)
                              and pg.locator("#wc-choose-go").count()), None)
                if actor is None:
                    time.sleep(0.2)
                    continue
                before = step(actor)
                for pg in pages:
                    pg.evaluate("() => { window.conquestLiveTrace.length = 0; }")
                actor.evaluate("""() => document.addEventListener('click',
                    (ev) => { window.conquestTapAt = performance.timeOrigin + ev.timeStamp; },
                    { capture: true, once: true })""")
                t0 = time.perf_counter()
                actor.click("#wc-choose-go", force=force and actor is not host)
                for pg in pages:
                    pg.wait_for_function(f"() => document.getElementById('wc-panel-inner').dataset.step !== '{before}'",
                                         timeout=30_000, polling=5)
                if actor is not host:
                    times[force].append((time.perf_counter() - t0) * 1000)
                    force = not force
                    for pg in pages:  # the next frame is painted on every page
                        pg.evaluate("() => new Promise((ok) => requestAnimationFrame(() => setTimeout(ok, 0)))")
                    tap = float(actor.evaluate("() => window.conquestTapAt"))
                    other = [pg for pg in pages if pg not in (actor, host)][0]
                    for name, value in breakdown(actor, host, other, tap).items():
                        phases.setdefault(name, []).append(value)
                if min(len(v) for v in times.values()) >= taps:
                    break
            if phases:
                shown = phases["TAP TO EVERY DEVICE PAINTED"]
                print(f"guest tap to all three devices painting the new step (the pages' clocks, from the click "
                      f"event to the frame after the render): median {statistics.median(shown):.0f} ms, "
                      f"min {min(shown):.0f}, max {max(shown):.0f} over {len(shown)} taps (target < 150 ms)")
                for forced, label in ((False, "click()"), (True, "click(force=True)")):
                    got = times[forced]
                    if got:
                        print(f"the same seen by the test driver ({label}, then three pages polled in turn, its "
                              f"own round trips included): median {statistics.median(got):.0f} ms, "
                              f"min {min(got):.0f}, max {max(got):.0f} over {len(got)} taps")
                print("where the time goes (medians, ms, from the pages' own clocks):")
                for name, values in phases.items():
                    if len(values) * 2 >= len(shown):  # a container patched in at least half the taps
                        print(f"  {name:<44} {statistics.median(values):7.1f}")
            browser.close()
        server.shutdown()


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 20)

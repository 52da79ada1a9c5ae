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

3. With ``--join-ages 0,60,180``: how long a guest takes to join a World Conquest table by the
   table's age (issue 36: the peer library re-makes its pooled offers older than 57 s, and
   before the fix in static/live.js a guest the host had to offer to never connected to a
   table more than a minute old). At each age, ``--guests`` fresh guests (each a new browser
   context) open the join link, one after another; each line gives, on the guest page's
   clock, the link opened to the seat buttons shown and the guest's engine ready to the seat
   buttons (the connection's own share), or "not connected in N s" (``--bound``), and which
   side made the offer (the library's smaller peer id offers). Then a guest takes a seat and
   reloads its page (``--reloads`` times): the reload to "You play Bob" on its panel; then the
   host reloads as often: the reload to Bob's device listed connected again. ``--default-ice``
   leaves the ICE servers out of the live settings (the library's public STUN servers, which
   a machine without internet cannot reach); ``--site DIR`` serves a built site as it is (an
   older live.js, say). Each line ends with the machine's load average.

Run: ``.venv/bin/python bench/live.py [taps]`` (figures 1 and 2), or
``.venv/bin/python bench/live.py --join-ages 0,60,180 [--guests 2] [--bound 120] [--reloads 2]
[--default-ice] [--site DIR]`` (figure 3); needs the ``test`` extra and chromium.
"""
from __future__ import annotations

import argparse
import gzip
import json
import os
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


# --------------------------------------------------------------------------------------
# joins and reconnections by the table's age (issue 36): --join-ages
# --------------------------------------------------------------------------------------
#: what each page notes on its own clock (ms since its navigation started): its engine
#: ready, the seat buttons shown (connected to the host), "You play ..." in its status
MARKS = """(() => {
  const m = window.benchMarks = {};
  const look = () => {
    const now = performance.now();
    if (m.ready === undefined && document.documentElement && document.documentElement.dataset.engine === 'ready') m.ready = now;
    if (m.seats === undefined && document.querySelector('button[data-take]')) m.seats = now;
    const st = document.getElementById('live-status');
    if (m.seated === undefined && st && st.textContent.includes('You play')) m.seated = now;
  };
  new MutationObserver(look).observe(document, { subtree: true, childList: true, attributes: true, characterData: true });
})();"""
ENGINE_MS = 180_000


def load() -> str:
    one, five, fifteen = os.getloadavg()
    return f"load {one:.2f} {five:.2f} {fifteen:.2f}"


def device(browser, settings: dict[str, object], width: int = 1280, height: int = 900):  # noqa: ANN001, ANN201
    """A new browser context (a device of its own: storage, service worker) whose pages take
    ``settings`` as their live settings and note :data:`MARKS`; its page."""
    ctx = browser.new_context(viewport={"width": width, "height": height})
    ctx.add_init_script(f"localStorage.setItem('conquest:live-settings', {json.dumps(json.dumps(settings))});")
    ctx.add_init_script(MARKS)
    return ctx, ctx.new_page()


def mark(page, name: str, timeout_ms: float) -> float | None:  # noqa: ANN001
    """The page's mark ``name`` (ms on its clock), waited for; None if not within the time."""
    try:
        return float(page.wait_for_function(f"() => window.benchMarks && window.benchMarks.{name}",
                                            timeout=timeout_ms, polling=50).json_value())
    except Exception:  # noqa: BLE001 - a timeout: said by the caller
        return None


def peer_id(page) -> str | None:  # noqa: ANN001
    """This page's id in the peer library's room (the ``record`` setting shows it)."""
    try:
        return page.evaluate("() => window.conquestLiveRoom ? String(window.conquestLiveRoom.self) : null")
    except Exception:  # noqa: BLE001
        return None


def offerer(host_id: str | None, guest_id: str | None) -> str:
    """Which side made the offer: the peer library's smaller id offers (``selfId < peerId``)."""
    if not host_id or not guest_id:
        return "offer by ? (an id unknown)"
    return f"offer by {'host' if host_id < guest_id else 'guest'} (host {host_id[:6]}, guest {guest_id[:6]})"


def status(page) -> str:  # noqa: ANN001
    try:
        return " ".join(page.inner_text("#live-status", timeout=1000).split())[:90]
    except Exception:  # noqa: BLE001
        return "?"


def join_once(browser, settings: dict[str, object], join: str, host, bound_s: float, label: str,  # noqa: ANN001
              name: str | None = None):  # noqa: ANN201
    """A fresh guest opens the join link; prints how long until the seat buttons show. Returns
    (context, page, connected)."""
    ctx, page = device(browser, settings)
    page.goto(join, wait_until="commit")
    ready = mark(page, "ready", ENGINE_MS)
    if ready is None:
        print(f"{label}: engine not ready in {ENGINE_MS // 1000} s; {load()}", flush=True)
        return ctx, page, False
    if name:
        page.fill("#live-name", name)
        page.dispatch_event("#live-name", "change")
    seats = mark(page, "seats", bound_s * 1000)
    who = offerer(peer_id(host), peer_id(page))
    if seats is None:
        print(f"{label}: not connected in {bound_s:.0f} s (engine ready {ready / 1000:.1f} s after the link opened; "
              f"status: {status(page)!r}); {who}; {load()}", flush=True)
        return ctx, page, False
    print(f"{label}: link to seat buttons {seats / 1000:.1f} s, engine ready to seat buttons {(seats - ready) / 1000:.2f} s; "
          f"{who}; {load()}", flush=True)
    return ctx, page, True


def joins(browser, url: str, settings: dict[str, object], ages: list[float], guests: int, bound_s: float,  # noqa: ANN001
          reloads: int) -> None:
    """Guests joining a World Conquest table at each age; then a seated guest's reloads and the
    host's, each until the two are connected again."""
    from tests.browser.test_live_page import midgame

    hctx, host = device(browser, settings)
    host.goto(url + "play/world/#" + midgame(), wait_until="commit")
    if mark(host, "ready", ENGINE_MS) is None:
        raise RuntimeError("the host's engine was not ready")
    host.click("#live-start")
    host.wait_for_selector("#live-join-url")
    opened = time.monotonic()  # the table's age counts from its join link shown
    join = host.inner_text("#live-join-url")
    ice = "default (public STUN servers, unreachable here)" if "iceServers" not in settings else json.dumps(settings["iceServers"])
    print(f"table open (ICE servers: {ice}; {guests} fresh guest(s) per age, each a new browser context; "
          f"times on the guest page's clock); {load()}", flush=True)
    for age in sorted(ages):
        wait = opened + age - time.monotonic()
        if wait > 0:
            time.sleep(wait)
        for g in range(guests):
            at = time.monotonic() - opened
            ctx, _, _ = join_once(browser, settings, join, host, bound_s, f"age {age:>4.0f} s (at {at:.0f} s), guest {g + 1}")
            ctx.close()
    if reloads <= 0:
        return

    # a guest takes a seat (fresh guests until one connects), then reloads its page
    bob = None
    for attempt in range(1, 5):
        at = time.monotonic() - opened
        ctx, page, ok = join_once(browser, settings, join, host, bound_s, f"seating Bob (at {at:.0f} s), try {attempt}", "Bob")
        if ok:
            bob = page
            break
        ctx.close()
    if bob is None:
        print("no guest connected to take a seat: no reload figures", flush=True)
        return
    bob.click("button[data-take='1']")
    bob.wait_for_function("() => document.getElementById('live-status').textContent.includes('You play Bob')", timeout=60_000)
    host.wait_for_function("() => document.getElementById('live-seats').textContent.includes(\"Bob's device\")", timeout=60_000)
    step = None
    for r in range(1, reloads + 1):  # the step shown before the reload (the last one known, if none now)
        step = bob.evaluate("() => { const p = document.getElementById('wc-panel-inner'); return p ? p.dataset.step : null; }") or step
        at = time.monotonic() - opened
        bob.reload(wait_until="commit")
        ready = mark(bob, "ready", ENGINE_MS)
        seated = mark(bob, "seated", bound_s * 1000) if ready is not None else None
        who = offerer(peer_id(host), peer_id(bob))
        label = f"guest reload {r} (at {at:.0f} s)"
        if seated is None:
            print(f"{label}: not back at its seat in {bound_s:.0f} s (status: {status(bob)!r}); {who}; {load()}", flush=True)
            continue
        try:
            same = bob.wait_for_function("(s) => { const p = document.getElementById('wc-panel-inner');"
                                         " return p && p.dataset.step === s ? performance.now() : false; }",
                                         arg=step, timeout=30_000, polling=50).json_value()
            panel = f"panel at the same step {float(same) / 1000:.1f} s"
        except Exception:  # noqa: BLE001
            panel = "panel not at the same step within 30 s"
        print(f"{label}: reload to 'You play Bob' {seated / 1000:.1f} s, engine ready to seated "
              f"{(seated - ready) / 1000:.2f} s, {panel}; {who}; {load()}", flush=True)

    # the host reloads: its table reopens from storage; the guest finds it again
    back = ("() => { const e = document.getElementById('live-seats'); const t = e ? e.textContent : '';"
            " return t.includes(\"Bob's device\") && !t.includes(\"Bob's device (disconnected\") ? performance.now() : false; }")
    for r in range(1, reloads + 1):
        at = time.monotonic() - opened
        host.reload(wait_until="commit")
        ready = mark(host, "ready", ENGINE_MS)
        label = f"host reload {r} (at {at:.0f} s)"
        try:
            listed = float(host.wait_for_function(back, timeout=bound_s * 1000, polling=50).json_value())
        except Exception:  # noqa: BLE001
            print(f"{label}: Bob not listed connected in {bound_s:.0f} s (Bob's status: {status(bob)!r}); "
                  f"{offerer(peer_id(host), peer_id(bob))}; {load()}", flush=True)
            continue
        share = f", host engine ready to listed {(listed - ready) / 1000:.2f} s" if ready is not None else ""
        print(f"{label}: reload to Bob listed connected {listed / 1000:.1f} s{share}; "
              f"{offerer(peer_id(host), peer_id(bob))}; {load()}", flush=True)
    hctx.close()


def main(taps: int = 20, site: Path | None = None) -> None:
    from playwright.sync_api import sync_playwright

    with tempfile.TemporaryDirectory() as tmp:
        if site is None:
            site = Path(tmp) / "_site"
            files = build.build(site)
        else:
            files = {str(f.relative_to(site)): f.read_bytes() for f in site.rglob("*") if f.is_file()}
        weight(files)
        server, url = serve_in_thread(site)
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


def main_joins(site: Path | None, ages: list[float], guests: int, bound_s: float, reloads: int, default_ice: bool) -> None:
    from playwright.sync_api import sync_playwright

    with tempfile.TemporaryDirectory() as tmp:
        if site is None:
            site = Path(tmp) / "_site"
            build.build(site)
        server, url = serve_in_thread(site)
        with local_relay() as relay, sync_playwright() as p:
            browser = launch_chromium(p)
            settings: dict[str, object] = {"relays": [relay], "record": True}
            if not default_ice:
                settings["iceServers"] = []
            print(f"site {site}; chromium {browser.version}; {os.cpu_count()} cores; {load()}", flush=True)
            joins(browser, url, settings, ages, guests, bound_s, reloads)
            browser.close()
        server.shutdown()


def cli(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("taps", nargs="?", type=int, default=20, help="figure 1: guest taps per kind (default 20)")
    ap.add_argument("--join-ages", help="figure 3 instead: join a table at these ages, in seconds (e.g. 0,60,180,600)")
    ap.add_argument("--guests", type=int, default=2, help="fresh guests per age (default 2)")
    ap.add_argument("--bound", type=float, default=120, help="seconds a guest may take to connect (default 120)")
    ap.add_argument("--reloads", type=int, default=2, help="guest reloads, then host reloads (default 2 each; 0: none)")
    ap.add_argument("--default-ice", action="store_true", help="the live settings name no ICE servers: the library's "
                    "public STUN servers (unreachable here)")
    ap.add_argument("--site", type=Path, help="serve this built site as it is (default: build one into a temp folder)")
    args = ap.parse_args(argv)
    if args.join_ages is not None:
        ages = [float(a) for a in args.join_ages.split(",") if a.strip()]
        main_joins(args.site, ages, args.guests, args.bound, args.reloads, args.default_ice)
    else:
        main(args.taps, args.site)


if __name__ == "__main__":
    cli()

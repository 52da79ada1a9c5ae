"""Guest pages at a live table (issue 37): prints figures, asserts nothing (never a test).

Since issue 37 the host's page (Chromium, runs Pyodide) draws every guest device's page and
sends it ui trees and patches over WebRTC; a guest device opens the game's guest page
(``play/<game>/guest/#live=...``, static/guest.js, no Python). Before it, a guest opened the
game's page (``play/<game>/#live=...``) and booted the whole engine first. The site is served
gzip-compressed as GitHub Pages serves it (tools/serve.py); the pages meet through a local
Nostr relay (tools/relay.py), and WebRTC stays on 127.0.0.1 (``iceServers: []``). Every line
ends with the machine's 1-minute load average (two cores: the host, the guests, the relay and
this driver share them).

1. A guest's first visit on a phone, after (the current tree's build) and before (a site
   built from ``--before-commit``, default 6111d09, in a ``git worktree`` of a temp folder;
   there the host's own page makes the join link, to the game's page). The phone: a fresh
   browser context (cold cache) 360x740, mobile and touch, the CPU slowed 4x and Chrome's
   "Fast 4G" (40 ms, 9 Mb/s each way) on its page's DevTools session. The host: an
   unthrottled desktop context that opened a World Conquest table (tests' ``midgame()``).
   Figures: (a) bytes transferred, the sum of ``Network.loadingFinished.encodedDataLength``
   on the guest page's session until the seat buttons show (with the server's own count of
   what it sent meanwhile, a service worker's downloads included, which the page's session
   does not see); (b) from the join link's navigation start (the page's
   ``performance.timeOrigin``) to ``button[data-take='1']`` visible (a rAF loop in the page
   notes the first frame it is); (c) from the guest's first message heard from the host
   (its ``trace``: the first "received"; a guest page traces the host's first ui tree, the
   before-site's game page the host's hello just before it) to the same frame. In brackets,
   where the time went on the page's clock: its load event, its first message to the host
   (the room joined), the host's first answer. "Before" is bounded at ``--bound`` seconds
   (default 240): "not shown in N s".
2. A guest's tap to every device showing the new step: a host (Ann) and two guests (Bob,
   Cy), all desktop and unthrottled, at a World table; whenever a guest is to move it clicks
   ``#wc-end``, else ``#wc-choose-go``, else a trade; on the pages' own clocks, from the
   click event on the guest's page (a capture listener) to the first animation frame in
   which ``#wc-panel-inner``'s ``data-step`` changed, on each of the three pages; the
   median, p90 and max over ``--taps`` taps (default 20) of the last of the three (and
   each page's median). Ann's moves (the host clicks ``#wc-end``) are not counted. For the
   current site, then the before-site (``--no-before-taps`` leaves it out).
3. The host's load. (a) A six-seat World game of six people: the host keeps Ann, five guests
   take the other seats and a sixth guest watches (six guest devices); ``--steps`` steps
   (default 10) played by whoever is to move. (b) A Metagame console (the capital duel of
   tests' ``capital_duel_link()``) with its "Audience on their own devices" table and
   ``--audience`` watching devices (default 20, light desktop contexts, joined one after
   another); the console enters the duel's result (the defender won: the campaign goes on)
   and then plays ``--mg-steps`` typed actions (default 5, the first legal action each).
   Per step: the host's time (from the click on the host, or the host's first "received"
   after a guest's click, to the host's last "send" of the step), the host page's longest
   main-thread task in the step (a ``longtask`` PerformanceObserver: tasks of 50 ms or more,
   "none" otherwise; the target is 200 ms at most) and the bytes the host sent per device
   (its ``conquestLiveSent`` texts of the step, UTF-8, before signing, over the number of
   guest devices) with the container whose patch weighed most and its share; then a summary.

Run: ``.venv/bin/python bench/guests.py [--part 1,2,3] [--taps 20] [--before-commit 6111d09]``
(more options: ``--help``); needs the ``test`` extra, chromium, git and node_modules.
"""
from __future__ import annotations

import argparse
import json
import math
import os
import statistics
import subprocess
import sys
import tempfile
import time
import traceback
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import build  # noqa: E402
from tools.browser import launch_chromium  # noqa: E402
from tools.relay import local_relay  # noqa: E402
from tools.serve import Handler, serve_in_thread  # noqa: E402

ENGINE_MS = 180_000
COLOURS6 = ("#e69f00", "#56b4e9", "#009e73", "#cc79a7", "#0072b2", "#d55e00")
NAMES6 = ("Ann", "Bob", "Cy", "Dee", "Eve", "Fay")
#: Chrome DevTools' "Fast 4G" preset
FAST_4G = {"offline": False, "latency": 40, "downloadThroughput": 9_000_000 / 8, "uploadThroughput": 9_000_000 / 8}

#: on every page: the epoch ms of the first frame in which the first seat button is visible
SEATS_SHOWN = """(() => {
  if (window !== window.top) return;
  window.benchSeatsShown = null;
  const look = () => {
    const b = document.querySelector("button[data-take='1']");
    if (b) {
      const r = b.getBoundingClientRect();
      const seen = r.width > 0 && r.height > 0
        && (!b.checkVisibility || b.checkVisibility({ visibilityProperty: true, opacityProperty: true }));
      if (seen) { window.benchSeatsShown = performance.timeOrigin + performance.now(); return; }
    }
    requestAnimationFrame(look);
  };
  requestAnimationFrame(look);
})();"""

#: on a host's pages: its long main-thread tasks, [epoch ms at the start, duration ms]
LONG_TASKS = """(() => {
  if (window !== window.top) return;
  window.benchLongTasks = [];
  try {
    new PerformanceObserver((list) => {
      for (const e of list.getEntries()) window.benchLongTasks.push([performance.timeOrigin + e.startTime, e.duration]);
    }).observe({ type: 'longtask', buffered: true });
  } catch (e) { window.benchLongTasks = null; }
})();"""

#: the step a page shows, by game (a JS expression)
STEP_KEY = {
    "world": "(() => { const e = document.getElementById('wc-panel-inner'); return e ? e.dataset.step : null; })()",
    "metagame": "(() => { const e = document.getElementById('shell-bar');"
                " const m = e && e.textContent.match(/Step (\\d+)/); return m ? m[1] : null; })()",
}

#: a rAF loop: the epoch ms of the first frame in which the page's step differs from ``before``
WATCH_STEP = """([key, before]) => {
  const get = new Function('return ' + key);
  window.benchStepAt = null;
  const look = () => {
    const now = get();
    if (now !== null && now !== before) { window.benchStepAt = performance.timeOrigin + performance.now(); return; }
    requestAnimationFrame(look);
  };
  requestAnimationFrame(look);
}"""

#: the click (or submit) event's epoch ms, on this page's clock
ARM_TAP = """() => {
  window.benchTapAt = null;
  const f = (ev) => { if (window.benchTapAt === null) window.benchTapAt = performance.timeOrigin + ev.timeStamp; };
  document.addEventListener('click', f, { capture: true, once: true });
  document.addEventListener('submit', f, { capture: true, once: true });
}"""

#: a World page: [data-act, data-step, a hand-over "Ready" shown]
WORLD_STATE = """() => {
  const p = document.getElementById('wc-panel-inner');
  const ho = document.querySelector('#shell-handover button');
  return [p ? p.dataset.act || null : null, p ? p.dataset.step || null : null, !!(ho && ho.getClientRects().length)];
}"""

#: what a person to move at World taps, in this order: the first one shown and enabled
WORLD_BUTTONS = ["#wc-end", "#wc-choose-go", "[data-trade]", "[id^='wc-panel-trade-']", "[id^='wc-defend-']"]
FIRST_SHOWN = """(sels) => {
  for (const s of sels) {
    const e = document.querySelector(s);
    if (e && !e.disabled && e.getClientRects().length) return s;
  }
  return null;
}"""

#: how many texts the host's page sent so far, and [count, UTF-8 bytes] of those from ``i`` on
SENT_COUNT = "() => (window.conquestLiveSent || []).length"
SENT_SINCE = """(i) => {
  const xs = (window.conquestLiveSent || []).slice(i);
  const enc = new TextEncoder();
  const by = {};  // a ui patch's operations by the container they patch (the heaviest is named)
  for (const s of xs) {
    try {
      const m = JSON.parse(s);
      for (const op of (m && Array.isArray(m.ops) ? m.ops : [])) by[op[1]] = (by[op[1]] || 0) + JSON.stringify(op).length;
    } catch (e) { /* not JSON: counted in the bytes only */ }
  }
  const top = Object.entries(by).sort((a, b) => b[1] - a[1])[0] || [null, 0];
  return [xs.length, xs.reduce((a, s) => a + enc.encode(s).length, 0), top[0], top[1]];
}"""


def load() -> str:
    return f"load average {os.getloadavg()[0]:.2f}"


def say(text: str) -> None:
    print(text, flush=True)


def pct(values: list[float], q: float) -> float:
    """The ``q`` quantile (nearest rank)."""
    xs = sorted(values)
    return xs[max(0, min(len(xs) - 1, math.ceil(q * len(xs)) - 1))]


def settings_script(relay: str) -> str:
    settings = json.dumps({"relays": [relay], "iceServers": [], "record": True, "trace": True})
    return f"try {{ localStorage.setItem('conquest:live-settings', {json.dumps(settings)}); }} catch (e) {{}}"


def desktop(browser: Any, relay: str, host: bool = False) -> tuple[Any, Any]:
    """A fresh desktop context (a device of its own) with the live settings; a host's notes
    its long tasks. Its page."""
    ctx = browser.new_context(viewport={"width": 1280, "height": 900})
    ctx.add_init_script(settings_script(relay))
    if host:
        ctx.add_init_script(LONG_TASKS)
    return ctx, ctx.new_page()


def engine_ready(page: Any) -> None:
    page.wait_for_function("document.documentElement.dataset.engine === 'ready'", timeout=ENGINE_MS, polling=200)


def open_table(host: Any, url: str, fragment: str) -> str:
    """The host's page opens a World table of the game ``fragment``; the join link."""
    host.goto(url + "play/world/#" + fragment, wait_until="commit")
    engine_ready(host)
    host.click("#live-start")
    return str(host.wait_for_selector("#live-join-url", timeout=60_000).inner_text())


def trace(page: Any) -> list[tuple[str, float]]:
    return [(str(a), float(b)) for a, b in page.evaluate("() => (window.conquestLiveTrace || []).slice()")]


def close(*ctxs: Any) -> None:
    for c in ctxs:
        with suppress(Exception):
            c.close()


def quiet(seconds: float = 3.0, bound: float = 120.0) -> None:
    """Until the server has sent nothing for ``seconds`` (a host's service worker precaching
    the site, say), at most ``bound`` seconds."""
    end = time.monotonic() + bound
    last, since = Handler.bytes_sent, time.monotonic()
    while time.monotonic() < end:
        time.sleep(0.5)
        if Handler.bytes_sent != last:
            last, since = Handler.bytes_sent, time.monotonic()
        elif time.monotonic() - since >= seconds:
            return


def seat_guest(page: Any, join: str, seat: int | None, name: str, bound_ms: float = ENGINE_MS) -> float:
    """A guest opens the join link and takes ``seat`` (None: watches); seconds it took."""
    t0 = time.monotonic()
    page.goto(join, wait_until="commit")
    if seat is None:  # every seat may be taken: the host's first page drawn for it
        page.wait_for_function("() => document.documentElement.dataset.guest === 'ready'", timeout=bound_ms, polling=200)
        return time.monotonic() - t0
    page.wait_for_selector(f"button[data-take='{seat}']", timeout=bound_ms)
    with suppress(Exception):
        page.fill("#live-name", name, timeout=5_000)
        page.dispatch_event("#live-name", "change")
    if seat is not None:
        page.click(f"button[data-take='{seat}']")
        page.wait_for_function(f"() => (document.getElementById('live-status') || {{textContent: ''}})"
                               f".textContent.includes('You play {name}')", timeout=60_000)
    return time.monotonic() - t0


# --------------------------------------------------------------------------------------
# the sites: the current tree's build, and one of an older commit
# --------------------------------------------------------------------------------------
def build_current(out: Path) -> Path:
    build.build(out)
    return out


@contextmanager
def before_site(commit: str, keep: Path | None) -> Iterator[Path]:
    """The site as built at ``commit`` (a git worktree in a temp folder, its build.py run with
    this checkout's Python and node_modules); ``keep``: built there once and reused."""
    if keep is not None and (keep / "index.html").exists():
        yield keep
        return
    with tempfile.TemporaryDirectory(prefix="conquest-before-") as tmp:
        src = Path(tmp) / "src"
        out = keep if keep is not None else Path(tmp) / "site"
        subprocess.run(["git", "-C", str(ROOT), "worktree", "add", "--detach", str(src), commit],
                       check=True, capture_output=True, text=True)
        try:
            (src / "node_modules").symlink_to(ROOT / "node_modules")
            done = subprocess.run([sys.executable, "build.py", "--out", str(out)], cwd=src, capture_output=True, text=True)
            if done.returncode != 0:
                raise RuntimeError(f"the build of {commit} failed: {(done.stderr or done.stdout)[-800:]}")
            say(f"before-site: {commit} built ({done.stdout.strip().splitlines()[-1] if done.stdout.strip() else 'ok'})")
        finally:
            subprocess.run(["git", "-C", str(ROOT), "worktree", "remove", "--force", str(src)], capture_output=True)
            subprocess.run(["git", "-C", str(ROOT), "worktree", "prune"], capture_output=True)
        yield out


# --------------------------------------------------------------------------------------
# 1. a guest's first visit on a phone
# --------------------------------------------------------------------------------------
def first_visit(browser: Any, relay: str, url: str, label: str, bound_s: float) -> str:
    """One phone guest's first visit to a table opened by a desktop host; its line."""
    from tests.browser.test_live_page import midgame

    hctx, host = desktop(browser, relay, host=True)
    gctx = None
    try:
        join = open_table(host, url, midgame())
        quiet()  # the host's page and its service worker have loaded what they load
        gctx = browser.new_context(viewport={"width": 360, "height": 740}, is_mobile=True, has_touch=True)
        gctx.add_init_script(settings_script(relay))
        gctx.add_init_script(SEATS_SHOWN)
        page = gctx.new_page()
        cdp = gctx.new_cdp_session(page)
        cdp.send("Network.enable")
        page.goto(url + "bench-blank", wait_until="load")  # this origin's renderer first (a 404, nothing cached)
        cdp.send("Emulation.setCPUThrottlingRate", {"rate": 4})
        cdp.send("Network.emulateNetworkConditions", FAST_4G)
        finished: list[tuple[float, float]] = []  # (monotonic s, encoded bytes)
        clock: list[float] = []  # wall - monotonic, seconds
        urls: dict[str, str] = {}

        def sent(ev: dict[str, Any]) -> None:
            if not clock and "wallTime" in ev:
                clock.append(float(ev["wallTime"]) - float(ev["timestamp"]))
            urls[ev["requestId"]] = str(ev.get("request", {}).get("url", ""))

        cdp.on("Network.requestWillBeSent", sent)
        cdp.on("Network.loadingFinished", lambda ev: finished.append((float(ev["timestamp"]), float(ev["encodedDataLength"]))))
        server0 = Handler.bytes_sent
        t0 = time.time()
        page.goto(join, wait_until="commit")
        try:
            page.wait_for_function("() => window.benchSeatsShown", timeout=bound_s * 1000, polling=500)
        except Exception:  # noqa: BLE001 - a timeout: said in the line
            n = sum(b for _, b in finished)
            return (f"{label}: not shown in {bound_s:.0f} s ({n / 1e6:.2f} MB transferred by then, "
                    f"{len(finished)} responses; join link {join.split('#')[0].removeprefix(url)}); {load()}")
        server = Handler.bytes_sent - server0
        shown = float(page.evaluate("() => window.benchSeatsShown"))
        origin = float(page.evaluate("() => performance.timeOrigin"))
        offset = clock[0] if clock else time.time() - time.monotonic()
        got = [(t, b) for t, b in finished if (t + offset) * 1000 <= shown + 1]
        total = sum(b for _, b in got)
        rows = trace(page)
        heard = next((t for w, t in rows if w == "received"), None)
        answer = f"{(shown - heard) / 1000:.2f} s" if heard is not None else "? (no trace)"
        # where the time went, on the page's clock: its load event, its first message sent
        # (the room joined, the host's hello heard), the host's first answer
        loaded = float(page.evaluate("() => { const n = performance.getEntriesByType('navigation')[0];"
                                     " return n ? n.loadEventEnd : NaN; }"))
        first_send = next((t for w, t in rows if w == "send"), float("nan"))
        path = (f"page loaded {loaded / 1000:.2f} s, first message to the host {(first_send - origin) / 1000:.2f} s, "
                f"host's first answer {((heard or float('nan')) - origin) / 1000:.2f} s")
        drift = (origin - t0 * 1000) / 1000
        return (f"{label}: {total / 1024:.0f} KiB transferred in {len(got)} responses (server sent {server / 1024:.0f} KiB "
                f"meanwhile), link opened to seats shown {(shown - origin) / 1000:.2f} s, host's first answer to seats "
                f"shown {answer} [{path}; navigation started {drift * 1000:.0f} ms after goto; join link "
                f"{join.split('#')[0].removeprefix(url)}]; {load()}")
    finally:
        close(gctx, hctx)


def part1(browser: Any, relay: str, url: str, before_url: str | None, bound_s: float) -> None:
    say("1. a guest's first visit on a phone (360x740, CPU 4x slower, Fast 4G, cold cache), to a desktop host's "
        "World table; gzip as GitHub Pages")
    lines = []
    for label, u, bound in (("after ", url, bound_s), ("before", before_url, bound_s)):
        if u is None:
            lines.append(f"{label}: no before-site")
            continue
        try:
            lines.append(first_visit(browser, relay, u, label, bound))
        except Exception as exc:  # noqa: BLE001 - said, and the next figure runs
            lines.append(f"{label}: failed: {type(exc).__name__}: {str(exc).splitlines()[0][:300]}")
        say("   " + lines[-1])
    say("   --- both together ---")
    for line in lines:
        say("   " + line)
    say(f"   {load()}")


# --------------------------------------------------------------------------------------
# shared: one step, watched on every page
# --------------------------------------------------------------------------------------
def world_state(page: Any) -> tuple[str | None, str | None, bool]:
    a, s, ho = page.evaluate(WORLD_STATE)
    return a, s, bool(ho)


def world_actor(pages: list[Any]) -> tuple[Any, str] | None:
    """The page whose person is to move and what it taps (guests before the host); None."""
    for page in reversed(pages):  # guests first: the host is pages[0]
        act, _, handover = world_state(page)
        if handover:
            page.locator("#shell-handover button").first.click()
            page.wait_for_timeout(300)
            act, _, _ = world_state(page)
        if act in (None, "wait", "over"):
            continue
        sel = page.evaluate(FIRST_SHOWN, WORLD_BUTTONS)
        if sel:
            return page, sel
    return None


def next_actor(pages: list[Any], polls: int) -> tuple[Any, str] | None:
    """Who moves next and with which control (``world_actor``), asked every 0.2 s, at most
    ``polls`` times (None: nobody moved meanwhile)."""
    for _ in range(polls):
        found = world_actor(pages)
        if found is not None:
            return found
        time.sleep(0.2)
    return None


def watch_step(pages: list[Any], game: str) -> list[str | None]:
    """A rAF watcher on each page for its step to change; the steps before."""
    befores = []
    for page in pages:
        before = page.evaluate(f"() => {STEP_KEY[game]}")
        page.evaluate(WATCH_STEP, [STEP_KEY[game], before])
        befores.append(before)
    return befores


def step_shown(pages: list[Any], timeout_ms: float = 30_000) -> list[float]:
    """Each page's epoch ms of the first frame with the new step (waited for)."""
    return [float(p.wait_for_function("() => window.benchStepAt", timeout=timeout_ms, polling=50).json_value())
            for p in pages]


# --------------------------------------------------------------------------------------
# 2. a guest's tap to every device showing the new step
# --------------------------------------------------------------------------------------
def taps(browser: Any, relay: str, url: str, label: str, n: int) -> None:
    from tests.browser.test_live_page import midgame

    ctxs = []
    try:
        hctx, host = desktop(browser, relay, host=True)
        bctx, bob = desktop(browser, relay)
        cctx, cy = desktop(browser, relay)
        ctxs = [hctx, bctx, cctx]
        join = open_table(host, url, midgame())
        for page, seat, name in ((bob, 1, "Bob"), (cy, 2, "Cy")):
            took = seat_guest(page, join, seat, name)
            say(f"   {label}: {name} seated {took:.1f} s after opening the link; {load()}")
        host.wait_for_function("() => document.getElementById('live-seats').textContent.includes(\"Cy's device\")",
                               timeout=60_000)
        pages = [host, bob, cy]
        shown: list[float] = []
        per_page: list[list[float]] = [[], [], []]
        misses = 0
        while len(shown) < n and misses < 10:
            found = next_actor(pages, 150)
            if found is None:
                break
            actor, sel = found
            watch_step(pages, "world")
            actor.evaluate(ARM_TAP)
            try:
                actor.locator(sel).first.click(timeout=10_000)
                at = step_shown(pages)
            except Exception as exc:  # noqa: BLE001 - said, then the next tap
                misses += 1
                say(f"   {label}: a tap ({'host' if actor is host else 'guest'} {sel}) not shown on every page: "
                    f"{str(exc).splitlines()[0][:200]}")
                continue
            if actor is host:
                continue  # Ann's moves are not counted
            tap = float(actor.evaluate("() => window.benchTapAt"))
            shown.append(max(at) - tap)
            for i, t in enumerate(at):
                per_page[i].append(t - tap)
        if not shown:
            say(f"   {label}: no guest tap measured; {load()}")
            return
        say(f"   {label}: guest tap to the last of the three devices showing the new step: median "
            f"{statistics.median(shown):.0f} ms, p90 {pct(shown, 0.9):.0f}, max {max(shown):.0f} over {len(shown)} taps "
            f"(each page's median: host {statistics.median(per_page[0]):.0f}, Bob {statistics.median(per_page[1]):.0f}, "
            f"Cy {statistics.median(per_page[2]):.0f} ms); {load()}")
    except Exception as exc:  # noqa: BLE001
        say(f"   {label}: failed: {type(exc).__name__}: {str(exc).splitlines()[0][:300]}; {load()}")
    finally:
        close(*ctxs)


def part2(browser: Any, relay: str, url: str, before_url: str | None, n: int) -> None:
    say(f"2. a guest's tap to every device showing the new step (host + 2 guests, desktop, unthrottled), {n} taps")
    taps(browser, relay, url, "after ", n)
    if before_url is not None:
        taps(browser, relay, before_url, "before", n)


# --------------------------------------------------------------------------------------
# 3. the host's load
# --------------------------------------------------------------------------------------
def midgame6(seed: int = 3) -> str:
    """A host link to a World game of six people (bots' moves up to Ann's attack, after a
    round in which every seat moved)."""
    from conquest.bots import run_thinking
    from conquest.core import get_game
    from conquest.games.world.bots import RuleBot
    from conquest.rng import Rng
    from conquest.savecode import make_fragment
    from conquest.session import Match

    world = get_game("world")
    seats = [{"name": n, "colour": c} for n, c in zip(NAMES6, COLOURS6, strict=True)]
    m = Match(world, {"seats": seats, "order": "fixed", "deal": True}, rng=Rng(seed))
    m.resolve_chance()
    bot = RuleBot(Rng(seed))
    others = False
    while not (m.state.phase == "attack" and m.state.current == 0 and others):
        others = others or (m.state.phase in ("reinforce", "attack") and m.state.current != 0)
        m.play(run_thinking(bot.think(world, m.state)))
    return make_fragment(m.save().to_json(), "h")


class HostStep:
    """One step's figures on the host: time, longest task, bytes per device."""

    def __init__(self, host: Any, actor: Any, devices: int) -> None:
        self.host, self.actor, self.devices = host, actor, devices
        self.i_trace = int(host.evaluate("() => (window.conquestLiveTrace || []).length"))
        self.i_sent = int(host.evaluate(SENT_COUNT))
        self.top: str | None = None
        self.top_share = 0.0
        actor.evaluate(ARM_TAP)

    def done(self) -> tuple[float, float, float, int]:
        """(host ms, longest task ms, bytes per device, texts sent): once every page shows it."""
        end = time.time() * 1000
        self.host.wait_for_timeout(300)  # a straggling send of the step
        tap = float(self.actor.evaluate("() => window.benchTapAt") or float("nan"))
        rows = [(w, t) for w, t in trace(self.host)[self.i_trace:]]
        if self.actor is self.host:
            start = tap
        else:
            start = next((t for w, t in rows if w == "received" and t >= tap - 1), float("nan"))
        sends = [t for w, t in rows if w == "send" and t >= start and t <= end]
        host_ms = (max(sends) - start) if sends else float("nan")
        tasks = self.host.evaluate("(w) => (window.benchLongTasks || []).filter(([s, d]) => s + d >= w[0] && s <= w[1])"
                                   ".reduce((m, [s, d]) => Math.max(m, d), 0)", [tap, end])
        count, size, self.top, top_size = self.host.evaluate(SENT_SINCE, self.i_sent)
        self.top_share = top_size / max(1, size)
        return host_ms, float(tasks), size / max(1, self.devices), int(count)

    def heaviest(self) -> str:
        """The container whose patch weighed most in the step, and its share of the bytes."""
        return f"; heaviest patch {self.top} {self.top_share:.0%}" if self.top else ""


def measured_step(label: str, what: str, game: str, pages: list[Any], step: HostStep, act: Any, polling: int,
                  rows: list[tuple[float, float, float, int]]) -> None:
    """``act()`` plays a step; once every page shows it, its figures are a row and a line
    (a step not shown everywhere: said, and a row of nothing)."""
    befores = [p.evaluate(f"() => {STEP_KEY[game]}") for p in pages]
    try:
        act()
        for p, b in zip(pages, befores, strict=True):
            p.wait_for_function(f"(b) => {{ const s = {STEP_KEY[game]}; return s !== null && s !== b; }}",
                                arg=b, timeout=60_000, polling=polling)
        r = step.done()
    except Exception as exc:  # noqa: BLE001
        say(f"   {label}: {what} not shown on every device: {str(exc).splitlines()[0][:200]}")
        rows.append((float("nan"), 0.0, 0.0, 0))
        return
    rows.append(r)
    say(f"   {label}: {what}: host {r[0]:.0f} ms, longest task {task(r[1])}, "
        f"{r[2] / 1024:.1f} KiB per device ({r[3]} texts{step.heaviest()}); {load()}")


def task(ms: float) -> str:
    """A longest task's duration; none at all: none of 50 ms or more (what the browser notes)."""
    return f"{ms:.0f} ms" if ms > 0 else "none >= 50 ms"


def summary(label: str, rows: list[tuple[float, float, float, int]]) -> None:
    ok = [r for r in rows if not math.isnan(r[0])]
    if not ok:
        say(f"   {label}: no step measured; {load()}")
        return
    hs, ts, bs = [r[0] for r in ok], [r[1] for r in ok], [r[2] for r in ok]
    say(f"   {label} summary over {len(ok)} steps: host time per step median {statistics.median(hs):.0f} ms, "
        f"max {max(hs):.0f}; longest main-thread task {task(max(ts))} (target <= 200; a task of 50 ms or more in "
        f"{sum(t > 0 for t in ts)} of the steps); bytes sent per device per step median {statistics.median(bs) / 1024:.1f} KiB, "
        f"max {max(bs) / 1024:.1f} KiB; {load()}")


def host_world6(browser: Any, relay: str, url: str, steps: int) -> None:
    label = "3a World, 6 guest devices"
    ctxs: list[Any] = []
    try:
        hctx, host = desktop(browser, relay, host=True)
        ctxs.append(hctx)
        join = open_table(host, url, midgame6())
        guests = []
        for i in range(6):
            seat = i + 1 if i < 5 else None
            name = NAMES6[seat] if seat is not None else "Gus"
            ctx, page = desktop(browser, relay)
            ctxs.append(ctx)
            try:
                took = seat_guest(page, join, seat, name, 120_000)
                guests.append(page)
                say(f"   {label}: {name} {'seated' if seat else 'watching'} {took:.1f} s after opening the link; {load()}")
            except Exception as exc:  # noqa: BLE001
                say(f"   {label}: {name} did not join: {str(exc).splitlines()[0][:200]}; {load()}")
        pages = [host, *guests]
        rows = []
        while len(rows) < steps:
            found = next_actor(pages, 100)
            if found is None:
                break
            actor, sel = found
            step = HostStep(host, actor, len(guests))
            who = "host" if actor is host else f"guest {pages.index(actor)}"
            measured_step(label, f"step {len(rows) + 1} by {who} ({sel})", "world", pages, step,
                          lambda a=actor, q=sel: a.locator(q).first.click(timeout=10_000), 50, rows)
        summary(label, rows)
    except Exception as exc:  # noqa: BLE001
        say(f"   {label}: failed: {type(exc).__name__}: {str(exc).splitlines()[0][:300]}; {load()}")
    finally:
        close(*ctxs)


def metagame_action(host: Any) -> str | None:
    """The first legal action of the console's game now (its save, replayed)."""
    from conquest.games.metagame import GAME
    from conquest.session import replay
    from tests.browser.live_kit import host_save

    state = replay(host_save(host)).states[-1]
    acts = GAME.legal_actions(state)
    return str(acts[0]) if acts else None


def host_metagame(browser: Any, relay: str, url: str, audience: int, steps: int) -> None:
    from tests.browser.test_metagame_duels_page import capital_duel_link

    label = f"3b Metagame, {audience} audience devices"
    ctxs: list[Any] = []
    try:
        link, _ = capital_duel_link()
        hctx, host = desktop(browser, relay, host=True)
        ctxs.append(hctx)
        host.goto(url + link, wait_until="commit")
        engine_ready(host)
        host.click("#mg-live-audience")
        join = str(host.wait_for_selector("#live-join-url", timeout=60_000).inner_text())
        guests = []
        failed = 0
        t_all = time.monotonic()
        for i in range(audience):
            try:
                ctx = browser.new_context(viewport={"width": 1280, "height": 900})
            except Exception as exc:  # noqa: BLE001 - the machine holds no more
                say(f"   {label}: no context {i + 1}: {str(exc).splitlines()[0][:200]}")
                break
            ctx.add_init_script(settings_script(relay))
            ctxs.append(ctx)
            page = ctx.new_page()
            t0 = time.monotonic()
            try:
                page.goto(join, wait_until="commit")
                page.wait_for_function("() => (document.getElementById('live-status') || {textContent: ''})"
                                       ".textContent.includes('You are watching')", timeout=120_000, polling=200)
                guests.append(page)
                if (i + 1) % 5 == 0 or i == 0:
                    say(f"   {label}: device {i + 1} watching {time.monotonic() - t0:.1f} s after opening the link "
                        f"({len(guests)} watching, {time.monotonic() - t_all:.0f} s in all); {load()}")
            except Exception as exc:  # noqa: BLE001
                failed += 1
                say(f"   {label}: device {i + 1} not watching in 120 s: {str(exc).splitlines()[0][:160]}; {load()}")
                if failed >= 3:
                    say(f"   {label}: three devices failed: going on with {len(guests)}")
                    break
        label = f"3b Metagame, {len(guests)} audience devices"
        pages = [host, *guests]
        rows = []
        for k in range(steps + 1):
            what = "#mg-won-d" if k == 0 else (metagame_action(host) or "")
            if not what:
                say(f"   {label}: the game has no move left")
                break

            def act(w: str = what) -> None:
                if w == "#mg-won-d":
                    host.click("#mg-won-d", timeout=10_000)
                else:
                    host.fill("#mg-typed-text", w, timeout=10_000)
                    host.click("#mg-typed button[type=submit]", timeout=10_000)

            measured_step(label, f"step {k + 1} ({what})", "metagame", pages, HostStep(host, host, len(guests)), act, 100, rows)
        summary(label, rows)
    except Exception as exc:  # noqa: BLE001
        say(f"   {label}: failed: {type(exc).__name__}: {str(exc).splitlines()[0][:300]}; {load()}")
        traceback.print_exc()
    finally:
        close(*ctxs)


def part3(browser: Any, relay: str, url: str, steps: int, audience: int, mg_steps: int) -> None:
    say("3. the host's load (a desktop host, unthrottled): time per step, longest main-thread task, bytes per device")
    host_world6(browser, relay, url, steps)
    host_metagame(browser, relay, url, audience, mg_steps)


# --------------------------------------------------------------------------------------
def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--part", default="1,2,3", help="which parts, e.g. 1,3 (default 1,2,3)")
    ap.add_argument("--taps", type=int, default=20, help="part 2: guest taps (default 20)")
    ap.add_argument("--before-commit", default="6111d09", help="the commit built as 'before' (default 6111d09)")
    ap.add_argument("--before-site", type=Path, help="build the before-site into this folder once and reuse it")
    ap.add_argument("--bound", type=float, default=240, help="part 1: seconds a guest may take (default 240)")
    ap.add_argument("--no-before-taps", action="store_true", help="part 2: the current site only")
    ap.add_argument("--steps", type=int, default=10, help="part 3a: steps of the six-seat World game (default 10)")
    ap.add_argument("--audience", type=int, default=20, help="part 3b: audience devices (default 20)")
    ap.add_argument("--mg-steps", type=int, default=5, help="part 3b: typed actions after the duel's result (default 5)")
    args = ap.parse_args(argv)
    parts = {int(x) for x in args.part.split(",") if x.strip()}
    from playwright.sync_api import sync_playwright

    need_before = 1 in parts or (2 in parts and not args.no_before_taps)
    with tempfile.TemporaryDirectory(prefix="conquest-after-") as tmp, local_relay() as relay:
        site = build_current(Path(tmp) / "_site")
        server, url = serve_in_thread(site)
        before_ctx = before_site(args.before_commit, args.before_site) if need_before else None
        before_server = None
        try:
            before_url = None
            if before_ctx is not None:
                try:
                    before_dir = before_ctx.__enter__()
                    before_server, before_url = serve_in_thread(before_dir)
                except Exception as exc:  # noqa: BLE001
                    say(f"no before-site: {exc}")
                    before_ctx = None
            with sync_playwright() as p:
                browser = launch_chromium(p)
                say(f"chromium {browser.version}; {os.cpu_count()} cores; relay {relay}; {load()}")
                if 1 in parts:
                    part1(browser, relay, url, before_url, args.bound)
                if 2 in parts:
                    part2(browser, relay, url, None if args.no_before_taps else before_url, args.taps)
                if 3 in parts:
                    part3(browser, relay, url, args.steps, args.audience, args.mg_steps)
                browser.close()
        finally:
            if before_server is not None:
                before_server.shutdown()
            if before_ctx is not None:
                with suppress(Exception):
                    before_ctx.__exit__(None, None, None)
            server.shutdown()


if __name__ == "__main__":
    main()

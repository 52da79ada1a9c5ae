#!/usr/bin/env python3
"""Site benchmark: how fast a page shows and its engine becomes ready, and what it costs.

Prints, for the landing page and every game page, beside a bare PyScript page (the baseline:
same Pyodide, PyScript's default set-up, served by the same server, in the same run,
interleaved):
  - first paint (first-contentful-paint), ms
  - engine ready cold (a fresh browser context: empty caches), warm (a reload once the
    service worker has cached the site and the Python snapshot is kept, after SETTLE_MS
    idle), offline (ours: a reload with the network off)
  - the first visit's bytes as the server sent them (gzip, as GitHub Pages serves), the
    service worker's caching included, and any file fetched twice with a full answer
  - where the time went (marks set by boot.mjs, the bootstrap build.py writes, frame.py):
    before the runtime starts, the runtime (warm: the snapshot read and restored), PyScript's
    set-up (its package, the app unpacked), importing the page module, its main, opening
    the game
  - the machine's load average before and after (absolute times drift; the ratios are the
    finding)
Medians over --runs runs. Targets (issue 38): cold at most 0.8x the bare page's, warm at
least 3x faster than the bare page's warm, first paint at most 300 ms, first visit no more
bytes than the bare page's.

Then the same boot times in Firefox and WebKit (issue 23; tools/engines.py: Debian's
firefox-esr through puppeteer-core, WebKitGTK's MiniBrowser through Selenium), each beside
its own bare PyScript page: first paint, engine ready cold (fresh profile) and warm (reload
once our Python snapshot is kept, or after --snapshot-wait seconds without it). Offline and
bytes are Chromium's (the other drivers have no offline switch or transfer sizes here).

Usage: python bench/site.py [--runs 3] [--pages landing,world,...] [--site _site]
       [--engines chromium,firefox,webkit]
"""
from __future__ import annotations

import argparse
import math
import os
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tools.browser import launch_chromium  # noqa: E402
from tools.serve import Handler, serve_in_thread  # noqa: E402

READY = "document.documentElement.dataset.engine === 'ready'"

BARE = """<!doctype html>
<html data-engine="starting"><head><meta charset="utf-8"><title>bare PyScript</title>
<link rel="stylesheet" href="pyscript/core.css">
<script type="module" src="pyscript/core.js"></script></head>
<body><h1>Bare PyScript page</h1>
<script type="py" config='{"interpreter": "pyodide/pyodide.mjs"}'>
import js
js.document.documentElement.dataset.engine = "ready"
js.performance.mark("engine-ready")
</script></body></html>
"""


def make_baseline(tmp: Path) -> Path:
    """A bare PyScript page: the full PyScript dist and the untrimmed Pyodide files."""
    site = tmp / "bare"
    shutil.copytree(ROOT / "node_modules" / "@pyscript" / "core" / "dist", site / "pyscript")
    (site / "pyodide").mkdir()
    for name in ["pyodide.mjs", "pyodide.asm.mjs", "pyodide.asm.wasm", "python_stdlib.zip", "pyodide-lock.json"]:
        shutil.copy(ROOT / "node_modules" / "pyodide" / name, site / "pyodide" / name)
    (site / "index.html").write_text(BARE)
    return site


#: the pages measured: label -> path under the site (the landing page and every game page)
PAGES = {
    "landing": "",
    "world": "play/world/",
    "reign": "play/reign/",
    "campaign": "play/campaign/",
    "conquests": "play/conquests/",
    "metagame": "play/metagame/",
}
#: how long the browser is left idle between a visit and the return visit measured as warm
SETTLE_MS = 3000
#: marks set on the way to ready, in order (boot.mjs, the bootstrap build.py writes, frame.py)
PHASE_MARKS = ["python-load-start", "python-load-end", "page-import-start", "page-import-end",
               "page-main-end", "engine-ready"]
#: where the time went: label -> (from mark, to mark); "nav" is the navigation's start (0)
PHASES = {
    "before": ("nav", "python-load-start"),
    "runtime": ("python-load-start", "python-load-end"),
    "pyscript": ("python-load-end", "page-import-start"),
    "imports": ("page-import-start", "page-import-end"),
    "main": ("page-import-end", "page-main-end"),
    "open": ("page-main-end", "engine-ready"),
}


def measure(page, url: str, how: str) -> dict[str, float]:
    t0 = time.perf_counter()
    if how == "goto":
        page.goto(url)
    else:
        page.reload()
    page.wait_for_function(READY, timeout=180_000)
    wall = (time.perf_counter() - t0) * 1000
    at = page.evaluate(
        "(names) => Object.fromEntries(names.map(n => [n, (performance.getEntriesByName(n)[0] || "
        "{startTime: NaN}).startTime]))",
        ["first-contentful-paint", *PHASE_MARKS],
    )
    sizes = page.evaluate(
        "() => [...performance.getEntriesByType('navigation'), ...performance.getEntriesByType('resource')]"
        ".reduce((a, r) => [a[0] + r.transferSize, a[1] + r.decodedBodySize], [0, 0])"
    )
    out = {"fcp": at["first-contentful-paint"], "ready": at["engine-ready"], "wall": wall,
           "page_bytes": sizes[0], "page_decoded": sizes[1],
           "boot": page.evaluate("String(globalThis.conquestBoot || '')")}
    at["nav"] = 0.0
    for name, (a, b) in PHASES.items():
        out[name] = at.get(b, math.nan) - at.get(a, math.nan)
    return out


#: --phone: Chromium's DevTools throttling, "Fast 4G" and a 4x slower CPU (the brief's phone)
PHONE_CPU = 4
PHONE_NET = {"offline": False, "latency": 40, "downloadThroughput": 9_000_000 / 8, "uploadThroughput": 1_500_000 / 8}


def run(browser, base: str, path: str, ours: bool, phone: bool = False) -> dict[str, dict[str, float]]:
    """One page in a fresh browser context: cold; warm (a reload; ours: once the service
    worker has cached the site and the Python snapshot is kept); offline (ours)."""
    out: dict[str, dict[str, float]] = {}
    ctx = browser.new_context()
    page = ctx.new_page()
    if phone:
        cdp = ctx.new_cdp_session(page)
        cdp.send("Emulation.setCPUThrottlingRate", {"rate": PHONE_CPU})
        cdp.send("Network.enable")
        cdp.send("Network.emulateNetworkConditions", PHONE_NET)
    Handler.bytes_sent = 0
    Handler.record = []
    try:
        cold = measure(page, base + path, "goto")
        if ours:  # the service worker's caching of the whole site counts in the first visit
            page.wait_for_function("navigator.serviceWorker.controller !== null", timeout=180_000)
            page.wait_for_function("globalThis.conquestSnapshot !== undefined", timeout=180_000)
        record = Handler.record
        cold["server_bytes"] = sum(n for _, _, n in record)
        fetched: dict[str, int] = {}
        for url, status, _ in record:
            if status == 200:
                key = url.split("?", 1)[0]
                fetched[key] = fetched.get(key, 0) + 1
        cold["twice"] = sorted(u for u, n in fetched.items() if n > 1)  # type: ignore[assignment]
        cold["requests"] = len(record)
        out["cold"] = cold
        # a returning visitor comes back to an idle browser: what the first visit left running
        # (the snapshot's worker, the service worker's caching, WebAssembly's optimising
        # compiler) has finished
        page.wait_for_timeout(SETTLE_MS)
        out["warm"] = measure(page, base + path, "reload")
        if ours:
            ctx.set_offline(True)
            out["offline"] = measure(page, base + path, "reload")
            ctx.set_offline(False)
    finally:
        Handler.record = None
        ctx.close()
    return out


MARKS = """() => {
    const at = (n) => (performance.getEntriesByName(n)[0] || { startTime: NaN }).startTime;
    return { fcp: at('first-contentful-paint'), ready: at('engine-ready'),
             py_start: at('python-load-start'), py_end: at('python-load-end'),
             boot: String(globalThis.conquestBoot || '') };
}"""


def run_other(engine, base: str, ours: bool, snapshot_wait: float) -> dict[str, dict[str, float]]:
    """Firefox or WebKit: cold in a fresh profile, then warm (a reload)."""
    ctx = engine.new_context()
    try:
        page = ctx.new_page()
        page.goto(base)
        page.wait(f"() => {READY}", timeout=300, what="engine ready")
        cold = page.evaluate(MARKS)
        if ours:  # the snapshot is made a few idle seconds after the first boot
            end = time.monotonic() + snapshot_wait
            while time.monotonic() < end and not page.evaluate("() => globalThis.conquestSnapshot !== undefined"):
                time.sleep(0.5)
        page.reload()
        page.wait(f"() => {READY}", timeout=300, what="engine ready")
        warm = page.evaluate(MARKS)
        return {"cold": cold, "warm": warm}
    finally:
        ctx.close()


def other_engines(names: list[str], ours: str, bare: str, runs: int, snapshot_wait: float) -> None:
    from tools.engines import EngineMissing, launch

    for name in names:
        try:
            engine = launch(name)
        except EngineMissing as exc:
            print(f"{name}: skipped: {exc}")
            continue
        rows: dict[str, list[dict[str, dict[str, float]]]] = {"conquest": [], "bare PyScript": []}
        try:
            version = engine.version()
            for i in range(runs):
                order = [("conquest", ours, True), ("bare PyScript", bare, False)]
                for label, url, is_ours in order if i % 2 == 0 else order[::-1]:
                    rows[label].append(run_other(engine, url, is_ours, snapshot_wait))
        finally:
            engine.close()
        print(f"\n{name} {version}: median of {runs} runs; ms from navigation start")
        print(f"{'page':<15}{'first paint':>12}{'ready cold':>12}{'ready warm':>12}  warm boot")
        for label, rs in rows.items():
            def m(phase: str, key: str, rs=rs) -> float:
                return statistics.median(r[phase][key] for r in rs)
            boots = ",".join(sorted({r["warm"]["boot"] or "-" for r in rs}))
            print(f"{label:<15}{m('cold', 'fcp'):>12.0f}{m('cold', 'ready'):>12.0f}{m('warm', 'ready'):>12.0f}  {boots}")


def med(rows: list[dict[str, Any]], key: str) -> float:
    vals = [r[key] for r in rows if not math.isnan(r[key])]
    return statistics.median(vals) if vals else math.nan


def print_chromium(results: dict[str, dict[str, list[dict[str, Any]]]], runs: int, load: str) -> None:
    print(f"Chromium, median of {runs} runs; ms from navigation start (the browser's clock); machine load {load}")
    print("1st visit: what the server sent (compressed as served) for the first visit, the service worker's "
          "caching included; page MB: what the page itself fetched, compressed / uncompressed")
    print(f"{'page':<11}{'paint':>7}{'cold':>7}{'warm':>7}{'offline':>8}{'1st visit MB':>13}{'page MB':>13}"
          f"{'cold/bare':>10}{'bare/warm':>10}")
    bare = results["bare PyScript"]
    for name, r in results.items():
        c, w = med(r["cold"], "ready"), med(r["warm"], "ready")
        print(
            f"{name:<11}{med(r['cold'], 'fcp'):>7.0f}{c:>7.0f}{w:>7.0f}{med(r.get('offline', []), 'ready'):>8.0f}"
            f"{med(r['cold'], 'server_bytes') / 1e6:>13.2f}"
            f"{med(r['cold'], 'page_bytes') / 1e6:>6.2f} /{med(r['cold'], 'page_decoded') / 1e6:>5.2f}"
            f"{c / med(bare['cold'], 'ready'):>10.2f}{med(bare['warm'], 'ready') / w:>10.2f}"
        )
    print("targets (issue 38): cold/bare <= 0.80, bare/warm >= 3.0, paint <= 300 ms, 1st visit <= bare's")
    print("\nwhere the time went, ms (cold | warm): before the runtime, runtime load (warm: snapshot restore), "
          "PyScript set-up, imports, the page's main, opening the game")
    print(f"{'page':<11}" + "".join(f"{k:>16}" for k in PHASES))
    for name, r in results.items():
        cells = "".join(f"{med(r['cold'], k):>8.0f}|{med(r['warm'], k):<7.0f}" for k in PHASES)
        boots = ",".join(sorted({x["boot"] or "-" for x in r["warm"]}))
        print(f"{name:<11}{cells}  warm boot: {boots}")
    for name, r in results.items():
        twice = sorted({u for x in r["cold"] for u in x["twice"]})
        if twice:
            print(f"{name}: fetched twice with a 200 on the first visit: {', '.join(twice)}")


def main() -> int:
    from playwright.sync_api import sync_playwright

    parser = argparse.ArgumentParser()
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--phone", action="store_true", help="throttle CPU and network like a phone on Fast 4G")
    parser.add_argument("--pages", default=",".join(PAGES), help="comma-separated: " + ", ".join(PAGES))
    parser.add_argument("--site", default=str(ROOT / "_site"))
    parser.add_argument("--engines", default="chromium,firefox,webkit",
                        help="comma-separated: chromium, firefox, webkit")
    parser.add_argument("--snapshot-wait", type=float, default=60.0,
                        help="seconds to wait for our Python snapshot before the warm reload (Firefox, WebKit)")
    args = parser.parse_args()
    engines = [e.strip() for e in args.engines.split(",") if e.strip()]
    if "chromium" not in engines:
        with tempfile.TemporaryDirectory() as tmp:
            bare_dir = make_baseline(Path(tmp))
            ours_srv, ours = serve_in_thread(Path(args.site))
            bare_srv, bare = serve_in_thread(bare_dir)
            try:
                other_engines(engines, ours, bare, args.runs, args.snapshot_wait)
            finally:
                ours_srv.shutdown()
                bare_srv.shutdown()
        return 0
    pages = {k: PAGES[k] for k in (x.strip() for x in args.pages.split(",")) if k}
    with tempfile.TemporaryDirectory() as tmp, sync_playwright() as p:
        bare_dir = make_baseline(Path(tmp))
        ours_srv, ours = serve_in_thread(Path(args.site))
        bare_srv, bare = serve_in_thread(bare_dir)
        browser = launch_chromium(p)
        load = "{:.2f} {:.2f} {:.2f}".format(*os.getloadavg())
        results: dict[str, dict[str, list[dict[str, Any]]]] = {
            name: {"cold": [], "warm": [], "offline": []} for name in ["bare PyScript", *pages]
        }
        # interleaved, the bare page first and last in turn, so a busy moment of the
        # machine hits both alike
        for i in range(args.runs):
            order = [("bare PyScript", bare, "", False)] + [(k, ours, v, True) for k, v in pages.items()]
            for name, base, path, is_ours in order if i % 2 == 0 else order[::-1]:
                for phase, row in run(browser, base, path, is_ours, args.phone).items():
                    results[name][phase].append(row)
        browser.close()
        load += " -> {:.2f} {:.2f} {:.2f}".format(*os.getloadavg())
        if args.phone:
            print(f"phone profile: CPU {PHONE_CPU}x slower, {PHONE_NET['latency']} ms, 9 Mbit/s down (Fast 4G)")
        print_chromium(results, args.runs, load)
        others = [e for e in engines if e != "chromium"]
        try:
            if others:
                other_engines(others, ours, bare, args.runs, args.snapshot_wait)
        finally:
            ours_srv.shutdown()
            bare_srv.shutdown()
    return 0


if __name__ == "__main__":
    sys.exit(main())

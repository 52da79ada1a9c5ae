#!/usr/bin/env python3
"""Site benchmark: how fast a page shows and its engine becomes ready, and what it costs.

Prints, for our landing page and for a bare PyScript page (the baseline, same Pyodide,
default PyScript set-up, served by the same server in the same run):
  - first paint (first-contentful-paint), ms
  - engine ready cold (fresh browser context: empty cache), warm (reload), offline (ours)
  - bytes transferred on the first visit
Medians over --runs runs. Targets (issue #2): ready <= 2.5 s cold, <= 1.0 s warm, warm at
least 2x faster than the baseline's warm, first visit <= 7 MB.

Then the same boot times in Firefox and WebKit (issue 23; tools/engines.py: Debian's
firefox-esr through puppeteer-core, WebKitGTK's MiniBrowser through Selenium), each beside
its own bare PyScript page: first paint, engine ready cold (fresh profile) and warm (reload
once our Python snapshot is kept, or after --snapshot-wait seconds without it). Offline and
bytes are Chromium's (the other drivers have no offline switch or transfer sizes here).

Usage: python bench/site.py [--runs 5] [--site _site] [--engines chromium,firefox,webkit]
"""
from __future__ import annotations

import argparse
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path

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


def measure(page, base: str, how: str) -> dict[str, float]:
    t0 = time.perf_counter()
    if how == "goto":
        page.goto(base)
    else:
        page.reload()
    page.wait_for_function(READY, timeout=120_000)
    wall = (time.perf_counter() - t0) * 1000
    fcp = page.evaluate(
        "(performance.getEntriesByName('first-contentful-paint')[0] || {startTime: NaN}).startTime"
    )
    ready = page.evaluate("(performance.getEntriesByName('engine-ready')[0] || {startTime: NaN}).startTime")
    marks = page.evaluate(
        "Object.fromEntries(['python-load-start', 'python-load-end'].map("
        "n => [n, (performance.getEntriesByName(n)[0] || {startTime: NaN}).startTime]))"
    )
    transferred = page.evaluate(
        "performance.getEntriesByType('resource').reduce((a, r) => a + r.transferSize, 0)"
        " + performance.getEntriesByType('navigation').reduce((a, r) => a + r.transferSize, 0)"
    )
    return {
        "fcp": fcp,
        "ready": ready,
        "wall": wall,
        "bytes": transferred,
        "py_start": marks["python-load-start"],
        "py_end": marks["python-load-end"],
    }


def run(browser, base: str, runs: int, offline: bool) -> dict[str, list[dict[str, float]]]:
    """Cold (new context), warm (reload; ours: after the snapshot is kept), offline (ours)."""
    out: dict[str, list[dict[str, float]]] = {"cold": [], "warm": [], "offline": []}
    for _ in range(runs):
        ctx = browser.new_context()
        page = ctx.new_page()
        Handler.bytes_sent = 0
        cold = measure(page, base, "goto")
        if offline:  # let the service worker finish caching: its downloads count too
            page.evaluate("navigator.serviceWorker.ready.then(() => true)")
            page.wait_for_timeout(500)
        cold["server_bytes"] = Handler.bytes_sent
        out["cold"].append(cold)
        if offline:  # ours keeps a Python snapshot after the first visit: wait for it
            page.wait_for_function("globalThis.conquestSnapshot !== undefined", timeout=120_000)
        out["warm"].append(measure(page, base, "reload"))
        if offline:
            page.wait_for_function("navigator.serviceWorker.controller !== null", timeout=60_000)
            ctx.set_offline(True)
            out["offline"].append(measure(page, base, "reload"))
            ctx.set_offline(False)
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


def med(rows: list[dict[str, float]], key: str) -> float:
    return statistics.median(r[key] for r in rows) if rows else float("nan")


def print_chromium(results: dict[str, dict[str, list[dict[str, float]]]], runs: int) -> None:
    print(f"median of {runs} runs; times in ms from navigation start (browser clock)")
    print("1st visit MB: bytes the server sent for the first visit, service worker's caching included")
    print(f"{'page':<15}{'first paint':>12}{'ready cold':>12}{'ready warm':>12}{'offline':>10}{'1st visit MB':>14}")
    for name, r in results.items():
        print(
            f"{name:<15}{med(r['cold'], 'fcp'):>12.0f}{med(r['cold'], 'ready'):>12.0f}{med(r['warm'], 'ready'):>12.0f}"
            f"{med(r['offline'], 'ready'):>10.0f}{med(r['cold'], 'server_bytes') / 1e6:>14.2f}"
        )
    ours_r, bare_r = results["conquest"], results["bare PyScript"]
    for phase in ("cold", "warm"):
        r = ours_r[phase]
        print(
            f"ours {phase}: to loadPyodide start {med(r, 'py_start'):.0f} ms, loadPyodide "
            f"{statistics.median(x['py_end'] - x['py_start'] for x in r):.0f} ms, then PyScript set-up and the "
            f"page's Python {statistics.median(x['ready'] - x['py_end'] for x in r):.0f} ms"
        )
    print(f"ratio bare/ours warm ready: {med(bare_r['warm'], 'ready') / med(ours_r['warm'], 'ready'):.2f}x")
    print(f"ratio bare/ours cold ready: {med(bare_r['cold'], 'ready') / med(ours_r['cold'], 'ready'):.2f}x")
    print("targets: cold <= 2500 ms, warm <= 1000 ms, warm >= 2x faster than bare, first visit <= 7 MB")


def main() -> int:
    from playwright.sync_api import sync_playwright

    parser = argparse.ArgumentParser()
    parser.add_argument("--runs", type=int, default=5)
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
    with tempfile.TemporaryDirectory() as tmp, sync_playwright() as p:
        bare_dir = make_baseline(Path(tmp))
        ours_srv, ours = serve_in_thread(Path(args.site))
        bare_srv, bare = serve_in_thread(bare_dir)
        browser = launch_chromium(p)
        # interleaved, so a busy moment of the machine hits both pages alike
        results: dict[str, dict[str, list[dict[str, float]]]] = {
            "conquest": {"cold": [], "warm": [], "offline": []},
            "bare PyScript": {"cold": [], "warm": [], "offline": []},
        }
        for i in range(args.runs):
            order = [("conquest", ours, True), ("bare PyScript", bare, False)]
            for name, url, offline in order if i % 2 == 0 else order[::-1]:
                for phase, rows in run(browser, url, 1, offline=offline).items():
                    results[name][phase] += rows
        browser.close()
        print_chromium(results, args.runs)
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

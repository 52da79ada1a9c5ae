"""Benchmark of a Metagame campaign at a live table (issue 39): prints figures, asserts nothing.

Run: ``.venv/bin/python bench/metagame_live.py [--players 4] [--seeds 3]``

Four computer players (``GreedyMetagameBot``) play whole campaigns, twice each seed:
- **before**: every choice made at the host's console (as before live campaign tables),
  counting the console's inputs for each (a pick or button; a count per game and Assign; a
  sacrifice's picks, its button and its question);
- **after**: each player's choices made on their own device, through the trees the host's
  page sends it (``tests/metagame_table.py``: picks, buttons, typed counts, the question on
  the page), the host spinning and recording each result.

Printed per invasion: the host's inputs (before and after) and the players' (after); and
the time from a player's confirm until every device was sent the step: the host's page
applying it and drawing every device's page, in CPython (no network).

``--browser N``: the same time in real browsers, end to end: a Chromium host (desktop) and two
360x740 guest pages (Bob, Cy) at a 3-player campaign table over the local relay (as
``tests/browser/test_metagame_live_page.py``); N confirms on the phones (capitals, then
claims: the Choose list's first option and OK; Ann's turns are passed at the console and not
counted), each from the click event on the phone (its clock) to the first animation frame in
which each of the three pages shows the new step (``bench/guests.py``'s watchers).
"""
from __future__ import annotations

import argparse
import statistics
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
for p in (ROOT, ROOT / "tests", ROOT / "site" / "py", ROOT / "site" / "games"):
    sys.path.insert(0, str(p))

from metagame_table import play  # noqa: E402


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--players", type=int, default=4)
    ap.add_argument("--seeds", type=int, default=3)
    ap.add_argument("--max-steps", type=int, default=3000)
    ap.add_argument("--browser", type=int, default=0, help="confirms measured in real browsers (0: none)")
    args = ap.parse_args()
    if args.browser:
        browser_confirms(args.browser)
    rows = []
    for seed in range(1, args.seeds + 1):
        before, _ = play(args.players, seed, args.max_steps, at_console=True)
        after, _ = play(args.players, seed, args.max_steps)
        rows.append((seed, before, after))
    print(f"{args.players}-player campaigns, {args.seeds} seeds; inputs per invasion")
    print("seed | steps before/after | ended before/after | invasions before/after | "
          "host before | host after | players' devices after")
    for seed, b, a in rows:
        print(f"{seed} | {b.steps}/{a.steps} | {b.over}/{a.over} | {b.invasions}/{a.invasions} | "
              f"{b.host_in_invasions / max(1, b.invasions):.1f} | {a.host_in_invasions / max(1, a.invasions):.1f} | "
              f"{a.device_in_invasions / max(1, a.invasions):.1f}")
    b_all = sum(b.host_in_invasions for _, b, _ in rows) / max(1, sum(b.invasions for _, b, _ in rows))
    a_all = sum(a.host_in_invasions for _, _, a in rows) / max(1, sum(a.invasions for _, _, a in rows))
    print(f"host inputs per invasion: before {b_all:.1f}, after {a_all:.1f}")
    print(f"host inputs in a whole campaign: before {statistics.mean(b.host_inputs for _, b, _ in rows):.0f}, "
          f"after {statistics.mean(a.host_inputs for _, _, a in rows):.0f} (mean)")
    ms = sorted(x for _, _, a in rows for x in a.confirm_ms)
    if ms:
        p95 = ms[min(len(ms) - 1, int(len(ms) * 0.95))]
        print(f"a player's confirm to every device sent the step ({args.players} devices, host's page, CPython): "
              f"median {statistics.median(ms):.1f} ms, p95 {p95:.1f} ms, max {ms[-1]:.1f} ms over {len(ms)} confirms")
    marks = {k: sum(a.by.get(k, 0) for _, _, a in rows) for k in ("p", "h", "")}
    print(f"log steps after: {marks['p']} made on the players' devices, {marks['h']} by the host for them, "
          f"{marks['']} the host's own (spins, draws, duel results)")


def browser_confirms(n: int) -> None:
    import statistics
    import tempfile

    from playwright.sync_api import sync_playwright

    from bench.guests import ARM_TAP, build_current, desktop, load, pct, seat_guest, step_shown, watch_step
    from tests.browser.test_metagame_live_page import plan
    from tools.browser import launch_chromium
    from tools.relay import local_relay
    from tools.serve import serve_in_thread

    fragment, _, _, _ = plan()
    with tempfile.TemporaryDirectory(prefix="conquest-mg-live-") as tmp, local_relay() as relay:
        site = build_current(Path(tmp) / "_site")
        server, url = serve_in_thread(site)
        try:
            with sync_playwright() as p:
                browser = launch_chromium(p)
                hctx, host = desktop(browser, relay, host=True)
                phones = []
                for _ in range(2):
                    ctx, page = desktop(browser, relay)
                    page.set_viewport_size({"width": 360, "height": 740})
                    phones.append((ctx, page))
                host.goto(url + "play/metagame/#" + fragment, wait_until="commit")
                host.wait_for_function("document.documentElement.dataset.engine === 'ready'", timeout=240_000)
                host.click("#live-start")
                join = str(host.wait_for_selector("#live-join-url", timeout=60_000).inner_text())
                for (_, page), seat, name in ((phones[0], 1, "Bob"), (phones[1], 2, "Cy")):
                    seat_guest(page, join, seat, name)
                pages = [host, phones[0][1], phones[1][1]]
                shown: list[float] = []
                for _ in range(n * 3):
                    if len(shown) >= n:
                        break
                    bar = str(host.inner_text("#shell-bar"))
                    if "Ann:" in bar:  # Ann has no device: the console plays her seat
                        host.fill("#mg-typed-text", "p" if "claim" in bar else "")
                        if "claim" not in bar:
                            host.select_option("#mg-choose-t", index=0)
                            watch_step(pages, "metagame")
                            host.click("#mg-choose-go")
                        else:
                            watch_step(pages, "metagame")
                            host.press("#mg-typed-text", "Enter")
                        step_shown(pages)
                        continue
                    phone = pages[1] if "Bob:" in bar else pages[2]
                    phone.wait_for_selector("#mg-choose:not([hidden]) #mg-choose-t", timeout=30_000)
                    phone.select_option("#mg-choose-t", index=0)
                    watch_step(pages, "metagame")
                    phone.evaluate(ARM_TAP)
                    phone.click("#mg-choose-go")
                    at = step_shown(pages)
                    shown.append(max(at) - float(phone.evaluate("() => window.benchTapAt")))
                print(f"in browsers (Chromium; host, two 360 px guest pages; local relay): a phone's confirm to the "
                      f"last of the three pages showing the step: median {statistics.median(shown):.0f} ms, "
                      f"p90 {pct(shown, 0.9):.0f}, max {max(shown):.0f} over {len(shown)} confirms; {load()}")
                for ctx in [hctx] + [c for c, _ in phones]:
                    ctx.close()
                browser.close()
        finally:
            server.shutdown()


if __name__ == "__main__":
    main()

"""A Metagame invasion whose duel (The Game of Conquests) is played live (issue 22, M12).

Three Chromium contexts: the console's device (the Metagame page, and the duel's page it
opens, which runs the table), Ann's device and Bob's phone. They meet through a real Nostr
relay on 127.0.0.1 (``tools/relay.py``), as in ``test_live_page``. Each player opens the link
the console made for their seat and types their moves; the duel is the shortest finish
from the start (four plies, Bob wins); the console takes the result by itself (the duel's
page autosaves, a ``storage`` event wakes the console, which replays the duel).
"""
from __future__ import annotations

import tempfile
import time
from typing import Any

from playwright.sync_api import expect

from tests.browser.conftest import shots_at_two_widths, watch
from tests.browser.live_kit import (
    device,
    end_checks,
    guest_ready,
    ready,
    type_duel,
)
from tests.browser.test_metagame_duels_page import capital_duel_link

#: after Black's e5d4 White has no legal move: Black (Bob, the defender) wins (C5)
HELPMATE = ("c1c2", "d6d1", "c2c3+C2@b3", "e5d4")
#: the shortest finish from the start that White (Ann, the attacker) wins (as tests/live_kit.py)
WHITE_WINS = ("c1c2", "c6c5", "d1d6", "c5c4", "b2c3")
SHOTS = tempfile.gettempdir()


def duel_devices(browser: Any, base_url: str, relay: str) -> tuple[tuple[Any, ...], tuple[Any, ...]]:
    """``(contexts, watches)`` of the console's device (which runs the duel's table too),
    Ann's device and Bob's phone (360x740)."""
    made = [device(browser, base_url, relay), device(browser, base_url, relay),
            device(browser, base_url, relay, 360, 740)]
    return tuple(c for c, _ in made), tuple(w for _, w in made)


def open_duel_table(cctx: Any, console: Any, base_url: str) -> tuple[Any, Any]:
    """"Play live" on the console: the click opens the duel's table in a new tab of its device."""
    with cctx.expect_page() as opened:
        console.click("#mg-duel-live")
    table = opened.value
    return table, watch(table, base_url)


def open_links(players: tuple[Any, Any], urls: list[str]) -> None:
    """Each player opens the link the console made for their seat, on their own device."""
    for page, url in zip(players, urls, strict=True):
        page.goto(url, wait_until="commit")


def seated(players: tuple[Any, Any]) -> None:
    """Ann and Bob are seated by their links (nobody picked a seat)."""
    for page, name in zip(players, ("Ann", "Bob"), strict=True):
        guest_ready(page)
        page.wait_for_function(
            f"() => (document.getElementById('live-status')||{{textContent:''}}).textContent.includes('You play {name}')",
            timeout=120_000)


def test_metagame_duel_played_live_on_two_devices_and_taken_by_the_console(browser: Any, base_url: str, relay: str) -> None:
    link, _ = capital_duel_link()
    (cctx, actx, bctx), (cw, aw, bw) = duel_devices(browser, base_url, relay)
    console, ann, bob = cw.page, aw.page, bw.page
    try:
        t0 = time.monotonic()
        console.goto(base_url + link, wait_until="commit")
        ready(console)
        console.wait_for_selector("#mg-duel-live")
        console.locator("#mg-duel").scroll_into_view_if_needed()
        console.screenshot(path=f"{SHOTS}/live-duel-offer-1280.png", full_page=False)
        table, tw = open_duel_table(cctx, console, base_url)
        # the links wait for the table's signing key, which the duel's page makes when it opens
        console.wait_for_selector("#mg-live-wait")
        ready(table)
        console.wait_for_selector("#mg-live-url-1", timeout=60_000)
        urls = [console.inner_text(f"#mg-live-url-{s}") for s in (0, 1)]
        watch_url = console.inner_text("#mg-live-url-watch")
        assert all("/play/conquests/guest/#live=" in u for u in (*urls, watch_url)) and watch_url not in urls
        assert "/play/conquests/?slot=" in table.url
        table.wait_for_selector("#live-join-url", timeout=60_000)  # the stored table opened
        # one way to the table (issue 36): its tab holds the table's lock, so the console says
        # where it is instead of offering to open a second tab of it
        expect(console.locator("#mg-duel-table")).to_contain_text("open in its own tab of this browser")
        assert console.locator("#mg-duel-open").count() == 0
        shots_at_two_widths(console, f"{SHOTS}/live-duel-console-table-open", "#mg-duel-table")
        # every seat is kept for a named player: the host's tab says whose link each waits for
        expect(table.locator("#live-intro")).to_contain_text("Ann and Bob each open their own link")
        expect(table.locator("#live-intro")).not_to_contain_text("pick a free seat")
        expect(table.locator("#live-seats")).to_contain_text("waiting for Bob's own link")
        expect(table.locator("#live-summary")).to_contain_text("waiting for Ann and Bob")
        shots_at_two_widths(table, f"{SHOTS}/live-duel-host-waiting", "#live-panel")
        open_links((ann, bob), urls)
        expect(table.locator("#live-seats")).to_contain_text("Ann's device")
        print(f"console and table up after {time.monotonic() - t0:.1f} s")
        seated((ann, bob))
        print(f"players seated after {time.monotonic() - t0:.1f} s")
        console.bring_to_front()
        console.wait_for_selector("#mg-live-qr-1", timeout=30_000)  # both codes drawn locally
        for width in (1280, 360):
            console.set_viewport_size({"width": width, "height": 900})
            console.locator("#mg-duel").scroll_into_view_if_needed()
            console.screenshot(path=f"{SHOTS}/live-duel-panel-{width}.png", full_page=False)
        # a phone's taps reach every control of the panel: at least 44 px tall
        heights = console.evaluate("() => [...document.querySelectorAll('#mg-duel button, #mg-duel a.button')]"
                                   ".map(b => b.getBoundingClientRect().height)")
        assert heights and min(heights) >= 44, heights
        console.set_viewport_size({"width": 1280, "height": 900})
        table.bring_to_front()
        table.screenshot(path=f"{SHOTS}/live-duel-table-1280.png", full_page=False)
        bob.screenshot(path=f"{SHOTS}/live-duel-bob-360.png", full_page=False)
        # opened by their seat's link with no name typed: the name field holds the seat's name
        expect(bob.locator("#live-name")).to_have_value("Bob")
        expect(ann.locator("#live-name")).to_have_value("Ann")
        # seated by their links: nobody picked a seat, and no seat is left for anyone else
        assert ann.locator("#live-free").count() == 0 and bob.locator("#live-free").count() == 0
        expect(table.locator("#live-seats")).not_to_contain_text("disconnected")

        type_duel((ann, bob), HELPMATE, (table,))
        print(f"duel over after {time.monotonic() - t0:.1f} s")
        expect(bob.locator("#cq-result")).to_be_visible()
        # the console took the result by itself: replayed, recorded, the duel panel gone
        expect(console.locator("#mg-duel")).to_have_count(0, timeout=30_000)
        last = console.locator("#shell-log li").last
        expect(last).to_contain_text("Bob")
        expect(last).to_contain_text("played live")
        saved = console.evaluate("""() => {
            const id = new URLSearchParams(location.search).get('slot')
                || Object.keys(localStorage).find(k => k.startsWith('conquest:slot:') && localStorage.getItem(k).includes('"metagame"'))?.slice(14);
            return localStorage.getItem('conquest:slot:' + id);
        }""")
        assert saved and "dd:conquests@live:" in saved
        console.screenshot(path=f"{SHOTS}/live-duel-taken-1280.png", full_page=False)
        end_checks(cw, tw, aw, bw, guests=(aw, bw))
    finally:
        for c in (cctx, actx, bctx):
            c.close()


def test_metagame_audience_watches_live_on_another_device(browser: Any, base_url: str, relay: str) -> None:
    link, _ = capital_duel_link()
    cctx, cw = device(browser, base_url, relay)
    fctx, fw = device(browser, base_url, relay, 360, 740)
    console, fan = cw.page, fw.page
    try:
        console.goto(base_url + link, wait_until="commit")
        ready(console)
        console.click("#mg-live-audience")
        console.wait_for_selector("#live-join-url")
        join = console.inner_text("#live-join-url")
        fan.goto(join, wait_until="commit")
        guest_ready(fan)
        fan.wait_for_function(
            "() => (document.getElementById('live-status')||{textContent:''}).textContent.includes('You are watching')",
            timeout=120_000)
        assert fan.locator("#live-free").count() == 0  # every seat is kept by the console
        expect(fan.locator("#shell-bar")).to_contain_text("Step 8")
        assert fan.locator("#mg-duel").count() == 0 and fan.locator("#mg-won-a").count() == 0
        fan.screenshot(path=f"{SHOTS}/live-audience-360.png", full_page=False)
        console.locator("#live-panel").scroll_into_view_if_needed()
        console.screenshot(path=f"{SHOTS}/live-audience-host-1280.png", full_page=False)
        # the host enters the duel's winner by hand; the audience's device follows
        console.click("#mg-won-a")
        expect(fan.locator("#shell-bar")).to_contain_text("Step 9", timeout=30_000)
        end_checks(cw, fw, guests=(fw,))
    finally:
        for c in (cctx, fctx):
            c.close()


def test_a_capitals_second_duel_is_played_live_at_the_first_duels_table(browser: Any, base_url: str, relay: str) -> None:
    """Issue 42: Ann invades Bob's capital (two wins needed, M12). She wins the first duel on
    her device; the console sets the second duel up at the same table (the same room code and
    links), the table's tab opens it by itself, and both players' devices, still at the
    table, get the new game without a new link; Ann wins again and takes the capital."""
    link, capital = capital_duel_link()
    (cctx, actx, bctx), (cw, aw, bw) = duel_devices(browser, base_url, relay)
    console, ann, bob = cw.page, aw.page, bw.page
    try:
        console.goto(base_url + link, wait_until="commit")
        ready(console)
        table, tw = open_duel_table(cctx, console, base_url)
        ready(table)
        console.wait_for_selector("#mg-live-url-1", timeout=60_000)
        urls = [console.inner_text(f"#mg-live-url-{s}") for s in (0, 1)]
        code = console.inner_text("#mg-live-code")
        first = table.url
        table.wait_for_selector("#live-join-url", timeout=60_000)
        open_links((ann, bob), urls)
        seated((ann, bob))
        type_duel((ann, bob), WHITE_WINS, (table,))
        # the console took Ann's first win by itself and set the second duel up at the same table
        expect(console.locator("#mg-duel-title")).to_have_text("Duel (second game): The Game of Conquests",
                                                               timeout=30_000)
        expect(console.locator("#shell-log li").last).to_contain_text("Ann wins the first game")
        expect(console.locator("#mg-live-same")).to_contain_text("same links")
        assert console.inner_text("#mg-live-code") == code
        assert [console.inner_text(f"#mg-live-url-{s}") for s in (0, 1)] == urls
        # the table's tab opened the second duel by itself (another slot), and runs it still
        expect(table.locator("#shell-duel")).to_contain_text("Duel (second game)", timeout=30_000)
        assert table.url != first and "?slot=" in table.url
        expect(console.locator("#mg-duel-table")).to_contain_text("open in its own tab of this browser")
        # both devices, by the links they opened for the first duel, are at the second one's start
        for page in (ann, bob, table):
            page.wait_for_function("() => document.querySelectorAll('#cq-moves .cq-ply').length === 0",
                                   timeout=30_000)
        expect(ann.locator("#live-status")).to_contain_text("You play Ann")
        console.screenshot(path=f"{SHOTS}/live-duel-second-console-1280.png", full_page=False)
        bob.screenshot(path=f"{SHOTS}/live-duel-second-bob-360.png", full_page=False)
        type_duel((ann, bob), WHITE_WINS, (table,))
        expect(console.locator("#shell-log li").last).to_contain_text("takes Bob's capital", timeout=30_000)
        expect(console.locator("#mg-duel")).to_have_count(0)
        assert capital
        end_checks(cw, tw, aw, bw, guests=(aw, bw))
    finally:
        for c in (cctx, actx, bctx):
            c.close()

"""One authority per live table (issue 36), in a real browser: a second tab of the host's
table on the same browser (two pages of one Chromium context: one storage, one set of Web
Locks) does not become a second host. It opens no room, says so in its live panel, and only
shows the game, following the first tab; a guest on another device joins the first tab's
table and sees its steps. Over the local Nostr relay of ``test_live_page``.
"""
from __future__ import annotations

import tempfile
from typing import Any

from tests.browser.conftest import shots_at_two_widths, watch
from tests.browser.live_kit import device, no_page_errors, ready, sit
from tests.browser.test_live_page import act_of, open_table

SHOTS = tempfile.gettempdir()


def test_a_second_tab_of_the_host_s_table_only_shows_the_game(browser: Any, base_url: str, relay: str) -> None:
    hctx, hw = device(browser, base_url, relay)
    gctx, gw = device(browser, base_url, relay)
    first, bob = hw.page, gw.page
    try:
        join = open_table(first, base_url)
        code = first.inner_text("#live-code")
        assert "?slot=" in first.url
        # the same game in a second tab of the same browser (e.g. a link clicked again)
        sw = watch(hctx.new_page(), base_url)
        second = sw.page
        second.goto(first.url, wait_until="commit")
        ready(second)
        second.wait_for_selector("#live-elsewhere")
        words = second.inner_text("#live-panel")
        assert "open in another tab of this browser" in words and "only shows the game" in words
        assert second.locator("#live-join-url, #live-start, #live-code").count() == 0  # no second room
        stored = first.evaluate("() => JSON.parse(localStorage.getItem('conquest:live-table:'"
                                " + new URLSearchParams(location.search).get('slot'))).code")
        assert stored == code  # the second tab left the first tab's table as it was
        # a guest joins: it reaches the first tab's table (the only one), takes Bob's seat
        sit(bob, join, "Bob", 1, first)
        first.wait_for_function("() => document.getElementById('live-seats').textContent.includes(\"Bob's device\")")
        # the first tab plays; the second follows it, and Bob's device too
        step = act_of(first)[1]
        first.click("#shell-handover button")  # Ann and Cy share the first tab's device: Ready (Ann)
        first.click("#wc-end")
        first.wait_for_function(f"() => document.getElementById('wc-panel-inner').dataset.step !== '{step}'")
        now = act_of(first)[1]
        for page in (second, bob):
            page.wait_for_function(f"() => document.getElementById('wc-panel-inner').dataset.step === '{now}'",
                                   timeout=30_000)
        assert second.locator("#wc-end").count() == 0  # nothing to play here
        shots_at_two_widths(second, f"{SHOTS}/live-second-tab", "#live-panel")
        no_page_errors(hw, sw, gw)
    finally:
        for c in (hctx, gctx):
            c.close()

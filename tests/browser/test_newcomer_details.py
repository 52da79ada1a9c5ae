"""Issue 9 item 14, the smaller things a newcomer met, in a real browser: rules tables that
fit a phone, credits that break no word in the middle, and a styled "not found" page for an
unknown address opened offline. One page, several checks per load (the suite stays short)."""

from __future__ import annotations

import tempfile
from pathlib import Path

from tests.browser.conftest import watch

#: every word of the credits table's cells (the long addresses aside) on one line
WORDS_BROKEN = """() => {
    const broken = [];
    for (const cell of document.querySelectorAll(".credits table td, .credits table th")) {
        const walker = document.createTreeWalker(cell, NodeFilter.SHOW_TEXT);
        for (let node = walker.nextNode(); node; node = walker.nextNode()) {
            if (node.parentElement.closest(".url")) continue;
            const re = /\\S+/g;
            for (let m = re.exec(node.data); m; m = re.exec(node.data)) {
                const r = document.createRange();
                r.setStart(node, m.index);
                r.setEnd(node, m.index + m[0].length);
                const tops = new Set([...r.getClientRects()].map((x) => Math.round(x.top)));
                if (tops.size > 1) broken.push(m[0]);
            }
        }
    }
    return broken;
}"""


def test_phone_tables_credits_and_the_offline_not_found_page(context, base_url: str) -> None:
    page = context.new_page()
    w = watch(page, base_url)
    page.set_viewport_size({"width": 360, "height": 740})
    page.goto(base_url + "rules/reign/")
    assert page.evaluate("document.documentElement.scrollWidth") <= 360  # no table wider than the phone
    assert page.locator(".rules table").count() >= 1
    assert page.locator(".rules table:not(.table-scroll table)").count() == 0  # each scrolls in its box
    assert page.evaluate("[...document.querySelectorAll('th')].filter(t => !t.textContent.trim()).length") == 0
    page.goto(base_url + "credits/")
    assert page.evaluate("document.documentElement.scrollWidth") <= 360
    assert page.evaluate(WORDS_BROKEN) == []
    # offline, an address that is not part of the site gets a styled page with a way back
    page.set_viewport_size({"width": 1280, "height": 900})
    page.goto(base_url)
    w.wait_engine()
    page.evaluate("navigator.serviceWorker.ready")
    page.reload()
    page.wait_for_function("navigator.serviceWorker.controller !== null", timeout=60_000)
    w.wait_engine()
    context.set_offline(True)
    try:
        page.goto(base_url + "play/no-such-game/?x=<b>1</b>")
        assert page.inner_text("h1") == "Page not found"
        assert "no-such-game" in page.inner_text("#not-found-url") and page.locator("main b").count() == 0
        header = page.evaluate("getComputedStyle(document.querySelector('.site-header')).backgroundColor")
        assert header not in ("rgba(0, 0, 0, 0)", "transparent")  # the site's style sheet applies
        page.screenshot(path=str(Path(tempfile.gettempdir()) / "conquest-not-found-1280.png"))
        page.click("text=Go to the games")
        w.wait_engine()
        assert page.url.rstrip("/") == base_url.rstrip("/") and page.locator("main").inner_text().strip()
    finally:
        context.set_offline(False)
    w.forgive_navigation_aborts()
    w.failed[:] = [f for f in w.failed if "no-such-game" not in f]
    # the not-found page's own status (404) is what the browser reports here, not a fault
    w.console_errors[:] = [e for e in w.console_errors if "status of 404" not in e]
    w.assert_clean()

"""Draws nobody can rig (issue 26) in a real browser: the Metagame's "say a word" spin, with
the audience tab showing the seal before and the word as it is used, and "Check the draws"
recomputing every draw in Pyodide; the page's own host link then passes ``verify``."""

from __future__ import annotations

import io
import re
import tempfile
from pathlib import Path

from conquest.__main__ import verify
from conquest.savecode import make_fragment, parse_fragment
from tests.browser.test_metagame_page import log_codes, save_at_spin

SHOTS = Path(tempfile.gettempdir()) / "conquest-shots"
SHOTS.mkdir(exist_ok=True)


def test_metagame_say_a_word_spin(open_page, context) -> None:
    save = save_at_spin()
    w = open_page("play/metagame/#" + make_fragment(save, "h"))
    page = w.page
    with context.expect_page() as popup:
        page.click("#mg-audience-open")
    aud = popup.value
    aud.wait_for_function("document.documentElement.dataset.engine === 'ready'", timeout=90_000)
    aud.wait_for_function("document.getElementById('shell-prompt').textContent.includes('spin the wheel')")
    # the seal is on both screens before anyone is asked for a word
    seal = page.inner_text("#mg-seal")
    commitment = re.search(r"committed to ([0-9a-f]{8})…", seal).group(1)
    aud.wait_for_selector("#mg-seal")
    aud.wait_for_function("c => document.getElementById('mg-seal').textContent.includes(c)", arg=commitment)
    assert not aud.is_visible("#mg-word-form")  # the audience sees no controls
    page.set_viewport_size({"width": 1280, "height": 900})
    page.locator("#mg-word-form").scroll_into_view_if_needed()
    page.screenshot(path=str(SHOTS / "draws-word-1280.png"))
    # an empty word is refused with a message; nothing is drawn
    steps = len(log_codes(page))
    page.select_option("#mg-word-who", label="Cy")
    page.click("#mg-spin-word")
    assert "cannot be empty" in page.inner_text("#shell-toast")
    assert len(log_codes(page)) == steps
    # Cy says "Lighthouse 42" on the call; the host types it and spins
    page.fill("#mg-word", "Lighthouse 42")
    page.click("#mg-spin-word")
    page.wait_for_function("n => document.querySelectorAll('#shell-log li code').length > n", arg=steps)
    k = int(re.match(r"r(\d+) ", log_codes(page)[-1]).group(1))
    aud.wait_for_selector("#mg-word-used")
    aud.wait_for_function(
        "() => document.getElementById('mg-word-used').textContent.includes('Cy') && "
        "document.getElementById('mg-word-used').textContent.includes('Lighthouse 42')"
    )
    assert aud.locator("#mg-word-used").is_visible()
    page.wait_for_timeout(3600)  # the wheel stops
    aud.screenshot(path=str(SHOTS / "draws-word-audience-1280.png"))
    assert "said by Cy: “Lighthouse 42”" in page.inner_text("#shell-log")
    # Check the draws: recomputed in the page (Pyodide)
    page.click("#shell-check-draws")
    verdict = page.locator("#shell-draw-verdict")
    verdict.wait_for()
    assert verdict.get_attribute("data-status") == "checked", verdict.inner_text()
    assert "1 said" in verdict.inner_text()
    # the page's own link passes verify in CPython, with the word and the slice drawn
    url = page.inner_text("#shell-host-url")
    _, saved = parse_fragment(url.split("#", 1)[1])
    assert saved["draws"]["c"][-1] == "2:Lighthouse 42"
    out = io.StringIO()
    assert verify(url, out=out) == 0, out.getvalue()
    assert "Draws: All" in out.getvalue() and "1 said" in out.getvalue()
    assert f"r{k} " in saved["log"][-1] + " "
    # at 360 px the form is usable by taps: targets at least 44 px tall
    page.set_viewport_size({"width": 360, "height": 780})
    page.click("#shell-undo")
    page.wait_for_selector("#mg-word-form")
    for sel in ("#mg-word", "#mg-word-who", "#mg-spin-word", "#shell-check-draws"):
        box = page.locator(sel).bounding_box()
        assert box is not None and box["height"] >= 44 and box["x"] >= 0 and box["x"] + box["width"] <= 360, (sel, box)
    page.locator("#mg-word-form").scroll_into_view_if_needed()
    page.screenshot(path=str(SHOTS / "draws-word-360.png"))
    w.assert_clean()

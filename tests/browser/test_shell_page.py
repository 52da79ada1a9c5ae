"""The shell's glue in the browser (its logic is tested in CPython: tests/test_shell.py).

- the set-up is plain HTML: what a person types while Python starts is kept and used;
- a link pasted into the address bar of an open game page opens (``hashchange``);
- the audience tab follows the host (tested with the Metagame in test_metagame_page.py).
"""
from __future__ import annotations

from conquest.games.metagame import GAME
from conquest.savecode import make_fragment
from conquest.session import Match
from tests.browser.conftest import watch


def test_setup_typed_while_the_engine_starts_is_kept(context, base_url) -> None:
    page = context.new_page()
    w = watch(page, base_url)
    held: list = []
    # hold the interpreter's WebAssembly until the person has typed
    page.route("**/pyodide.asm.wasm", lambda route: held.append(route))
    page.goto(base_url + "play/metagame/", wait_until="domcontentloaded")
    page.wait_for_function("document.getElementById('seat-name-0') !== null")
    assert page.evaluate("document.documentElement.dataset.engine") == "starting"
    page.fill("#seat-name-0", "Early Ann")
    page.fill("#seat-name-1", "Early Bob")
    page.select_option("#seat-count", "2")
    assert not page.is_visible("#seat-name-2")  # the count hides rows without Python (CSS)
    page.wait_for_function("() => true")
    for _ in range(100):
        if held:
            break
        page.wait_for_timeout(50)
    assert held, "the page never asked for the interpreter"
    for route in held:
        route.continue_()
    page.unroute("**/pyodide.asm.wasm")
    w.wait_engine()
    assert page.input_value("#seat-name-0") == "Early Ann"
    page.click("#shell-start")
    page.wait_for_selector("#shell-game:not([hidden])")
    assert "Early Ann" in page.inner_text("#mg-players") and "Early Bob" in page.inner_text("#mg-players")
    assert page.locator("#mg-players tbody tr").count() == 2
    w.assert_clean()


def test_a_link_pasted_into_an_open_page_opens(open_page) -> None:
    w = open_page("play/metagame/")
    page = w.page
    m = Match(GAME, {"players": ["Pasted Ann", "Pasted Bob", "Pasted Cy"], "seed": 0})
    m.play("k0")
    page.evaluate("h => { location.hash = h }", make_fragment(m.save().to_json(), "h"))
    page.wait_for_selector("#shell-game:not([hidden])")
    assert "Pasted Ann" in page.inner_text("#mg-players")
    page.wait_for_function("!location.hash")  # stored in a slot, then taken out of the address
    assert "?slot=" in page.url
    # a broken one says why and keeps what is open
    page.evaluate("() => { location.hash = 'h=c1.broken' }")
    page.wait_for_function("document.getElementById('shell-toast').textContent.includes('could not be opened')")
    assert "Pasted Ann" in page.inner_text("#mg-players")
    w.assert_clean()

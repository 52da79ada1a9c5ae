"""Issue 42: "With storage disabled, a reload just after a step of a game over 3,000 steps
loses that step: finish the link before the page is left, in all three engines."

A long game's link code was made in slices after the step (issue 20, item 10), and the
address, where a game storage refused is kept, followed only when they were done: a reload
in between opened the game without the step. Now the step's own task writes it
(``SavedGames._store_unsaved``, from the last code's mark). Each engine opens a World game
of ``LINKS_AT_ONCE`` + 100 steps from its link with storage disabled, makes one step
through the page's own controls, notes the address as the step is drawn (a
MutationObserver: before any later task) and reloads at once: the step is there.

Storage is disabled by a page beside the game's (``nostorage.html``: the game page with a
script first that makes ``localStorage`` throw, as a browser with storage disabled does),
since Firefox and WebKit here have no init scripts; the page's scripts are its own
(``script-src 'self'``), so this one is a file too. One page, one step and one reload an
engine; Firefox and WebKit in ``test_engines.py`` (its browsers, one an engine), with
this file's helpers.
"""
from __future__ import annotations

from pathlib import Path
from typing import Any

from tests.browser.conftest import watch
from tools.hostile import long_match

#: what ``DISABLED`` in test_hostile_page.py does, as a file the page's CSP lets run
NO_STORAGE_JS = ("Object.defineProperty(window, 'localStorage', "
                 "{get() { throw new DOMException('denied', 'SecurityError'); }});\n")
#: after the click, the first other step drawn and the address at that moment (a mutation
#: observer's callback runs before any later task: a code made in slices is not there yet)
WATCH_STEP = """(n) => {
  window.cqSeen = null;
  new MutationObserver(() => {
    const e = document.querySelector('#shell-bar .shell-stepno');
    const m = e && /Step (\\d+)/.exec(e.textContent);
    if (m && +m[1] !== n && window.cqSeen === null) window.cqSeen = [+m[1], location.hash];
  }).observe(document.body, {subtree: true, childList: true, characterData: true});
  return true;
}"""
#: the Choose list's Go in the middle of the window: the storage notice at its foot covers it
#: there (Firefox's click landed on the notice)
TO_GO = ("() => { document.getElementById('wc-choose-go').scrollIntoView({block: 'center', behavior: 'instant'});"
         " return true; }")
STEP_IS = ("(n) => { const e = document.querySelector('#shell-bar .shell-stepno');"
           " return !!e && e.textContent.startsWith('Step ' + n); }")


def no_storage_page(site_dir: Path) -> str:
    """``play/world/nostorage.html``: the World page with storage disabled (made once)."""
    page = site_dir / "play" / "world" / "nostorage.html"
    if not page.exists():
        (site_dir / "static" / "test-nostorage.js").write_text(NO_STORAGE_JS)
        html = (site_dir / "play" / "world" / "index.html").read_text()
        html = html.replace("<head>", '<head>\n<script src="../../static/test-nostorage.js"></script>', 1)
        page.write_text(html)
    return "play/world/nostorage.html"


def long_link() -> tuple[int, str]:
    from shell_links import LINKS_AT_ONCE

    from conquest.savecode import make_fragment

    match = long_match("world", LINKS_AT_ONCE + 100)
    return len(match.log), make_fragment(match.save().to_json(), "h")


def check_seen(seen: Any, n: int) -> None:
    """The address as the step was drawn holds the game with the step."""
    from conquest.savecode import parse_fragment

    assert seen is not None and seen[0] == n + 1, seen
    _, save = parse_fragment(seen[1])
    assert len(save["log"]) == n + 1


def test_with_storage_disabled_a_reload_right_after_a_long_games_step_keeps_it_in_chromium(
        context: Any, base_url: str, site_dir: Path) -> None:
    n, frag = long_link()
    page = context.new_page()
    w = watch(page, base_url)
    page.goto(f"{base_url}{no_storage_page(site_dir)}#{frag}")
    w.wait_engine()
    page.wait_for_function(STEP_IS, arg=n)
    assert "storage is disabled" in page.inner_text("#shell-toast")
    ready = page.locator("#shell-ready")  # a pass screen first, if the game has one
    if ready.count() and ready.is_visible():
        ready.click()
    page.evaluate(WATCH_STEP, n)
    page.evaluate(TO_GO)
    page.click("#wc-choose-go")  # troops placed from the Choose list: one step
    seen = page.wait_for_function("window.cqSeen").json_value()
    page.reload()  # at once
    check_seen(seen, n)
    w.wait_engine()
    page.wait_for_function(STEP_IS, arg=n + 1)
    w.forgive_navigation_aborts()
    w.assert_clean()

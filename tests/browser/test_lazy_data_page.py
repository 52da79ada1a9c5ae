"""Data kept out of app.zip is fetched without blocking the page (issue 42).

An old Short Campaign link needs the questions of earlier editions of the bank
(``conquest/data/legacy/``, served at ``py/lazy/``). The page once fetched them with a
synchronous ``XMLHttpRequest``, which froze it for as long as the network took. Now the
fetch is asynchronous: the page says what loads meanwhile and stays responsive, opens the
game once the file is in, and says why when it cannot be fetched (a 404, offline), keeping
the link. Every page here records any ``XMLHttpRequest.open`` with ``async`` false (an init
script) and none may happen.

Service workers are blocked in these contexts, so the test's routes see the page's fetch
(the worker's cache answering it offline: test_campaign_page.py).
"""
from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from conquest.savecode import make_fragment
from tests.browser.conftest import PageWatch, watch

OLD_SAVE = Path(__file__).resolve().parent.parent / "data" / "campaign_save_2026-11-22.json"
LAZY = "**/py/lazy/**"
#: every XMLHttpRequest the page opens is reported; a synchronous one is the failure
RECORD_XHR = """
(() => {
  const open = XMLHttpRequest.prototype.open;
  XMLHttpRequest.prototype.open = function (method, url, async, ...rest) {
    try { window.conquestTestXhr(String(url), async === undefined ? true : Boolean(async)); } catch (e) {}
    return open.call(this, method, url, async === undefined ? true : async, ...rest);
  };
})();
"""


def old_fragment() -> str:
    return make_fragment(json.loads(OLD_SAVE.read_text(encoding="utf-8")), "h")


class LazyContext:
    """A browser context whose pages report every ``XMLHttpRequest.open`` (``xhr``)."""

    def __init__(self, browser: Any) -> None:
        self.ctx = browser.new_context(viewport={"width": 1280, "height": 900}, service_workers="block")
        #: (url, async) of every XMLHttpRequest opened on any of its pages
        self.xhr: list[tuple[str, bool]] = []
        self.ctx.expose_function("conquestTestXhr", lambda url, is_async: self.xhr.append((url, is_async)))
        self.ctx.add_init_script(RECORD_XHR)

    def new_page(self) -> Any:
        return self.ctx.new_page()


@pytest.fixture
def lazy_context(browser: Any) -> Any:
    lc = LazyContext(browser)
    yield lc
    lc.ctx.close()


def held_routes(w: PageWatch, held: list[Any], what: str) -> None:
    """Wait until the page has asked for the lazy file (the route holds it)."""
    for _ in range(1200):  # the engine starts first: up to a minute on a busy machine
        if held:
            return
        w.page.wait_for_timeout(50)
    raise AssertionError(f"the page never asked for {what}")


def no_sync_xhr(lc: LazyContext) -> None:
    assert [url for url, is_async in lc.xhr if not is_async] == [], lc.xhr
    assert not any("/py/lazy/" in url for url, _ in lc.xhr), lc.xhr


def test_an_old_link_says_its_questions_load_then_opens(lazy_context: LazyContext, base_url: str) -> None:
    """While the file is on its way the page says so and answers (a script runs at once: no
    synchronous request holds its thread); once it is in, the game opens to the same end."""
    page = lazy_context.new_page()
    w = watch(page, base_url)
    held: list[Any] = []
    page.route(LAZY, lambda route: held.append(route))
    page.goto(base_url + "play/campaign/#" + old_fragment())
    held_routes(w, held, "the earlier editions' questions")
    page.wait_for_function(
        "document.getElementById('shell-toast').textContent.includes("
        "'loading the questions of earlier editions of the question bank')", timeout=30_000)
    assert page.evaluate("1 + 1") == 2  # the page's thread is free while the file is on its way
    assert page.evaluate("document.documentElement.dataset.engine") == "starting"  # the game is not open yet
    assert len(held) == 1 and held[0].request.url.endswith("/py/lazy/campaign_questions.json")
    held[0].continue_()
    w.wait_engine("ready")
    page.wait_for_selector("#cp-edition")
    assert "earlier edition of the question bank" in page.inner_text("#cp-edition")
    assert "Cleo wins with 4,500 points" in page.inner_text("#shell-prompt")
    assert "loading the questions" not in page.inner_text("#shell-toast")
    assert "?slot=" in page.url  # stored, as any link
    assert len([u for u in w.requests if "/py/lazy/" in u]) == 1
    no_sync_xhr(lazy_context)
    # the recorder sees a synchronous request when there is one (opened, never sent)
    page.evaluate("() => new XMLHttpRequest().open('GET', 'sync-xhr-control', false)")
    page.wait_for_function("() => true")
    for _ in range(40):
        if lazy_context.xhr:
            break
        page.wait_for_timeout(50)
    assert [(u.rsplit("/", 1)[-1], a) for u, a in lazy_context.xhr] == [("sync-xhr-control", False)]
    w.assert_clean()


@pytest.mark.parametrize("failure", ["404", "offline"])
def test_an_old_link_whose_questions_cannot_be_fetched_says_why_and_stays(lazy_context: LazyContext, base_url: str,
                                                                          failure: str) -> None:
    """A 404, or no network: the page says which and what to do, and the link stays in the
    address bar (a reload tries again); nothing is stored, nothing else breaks."""
    page = lazy_context.new_page()
    w = watch(page, base_url)
    if failure == "404":
        page.route(LAZY, lambda route: route.fulfill(status=404, body="not here", content_type="text/plain"))
    else:
        page.route(LAZY, lambda route: route.abort("internetdisconnected"))
    frag = old_fragment()
    page.goto(base_url + "play/campaign/#" + frag)
    w.wait_engine("ready")
    page.wait_for_function("document.getElementById('shell-toast').textContent.includes('could not be loaded')")
    toast = page.inner_text("#shell-toast")
    assert "This game needs the questions of earlier editions of the question bank" in toast
    assert ("HTTP 404" in toast) if failure == "404" else ("offline" in toast)
    assert "reload the page to try again" in toast
    assert page.evaluate("location.hash") == "#" + frag  # the link is kept
    assert page.evaluate("localStorage.getItem('conquest:slots')") in (None, "[]")
    no_sync_xhr(lazy_context)
    # the browser's own line for the refused request is all that may be said in the console
    w.console_errors[:] = [e for e in w.console_errors if "404" not in e and "Failed to load resource" not in e]
    w.failed[:] = [f for f in w.failed if "/py/lazy/" not in f]
    w.assert_clean()


def test_an_old_link_opened_from_the_home_page_waits_for_its_questions(lazy_context: LazyContext, base_url: str) -> None:
    """The home page keeps the link while the file is on its way, stores the game once it is
    in, and goes to its page, which fetches the file itself and opens it."""
    page = lazy_context.new_page()
    w = watch(page, base_url)
    held: list[Any] = []
    page.route(LAZY, lambda route: held.append(route))
    frag = old_fragment()
    page.goto(base_url + "#" + frag)
    held_routes(w, held, "the earlier editions' questions")
    page.wait_for_function(
        "document.querySelector('#notice-banner .banner-text').textContent.includes('is loading from the site')",
        timeout=30_000)
    assert page.evaluate("location.hash") == "#" + frag  # kept until the game is stored
    held[0].continue_()
    page.unroute(LAZY)  # the game's page fetches it again, from the site
    page.wait_for_url("**/play/campaign/?slot=*", timeout=60_000)
    w.wait_engine("ready")
    page.wait_for_selector("#cp-edition")
    assert "Cleo wins with 4,500 points" in page.inner_text("#shell-prompt")
    no_sync_xhr(lazy_context)
    w.forgive_navigation_aborts()
    w.assert_clean()

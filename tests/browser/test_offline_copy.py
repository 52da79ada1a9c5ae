"""A saved page plays from disk (issue 15): "Download offline copy" on a game page, the file
opened as ``file://`` in a browser with the network cut, and the game played on.

World Conquest in full: the person places troops on the site, downloads the copy, opens it
with every request that is not ``file:`` aborted (and the context offline), plays on,
reopens the file (the moves kept by this browser, under the copies' own storage prefix),
and writes the file again with "Save to file", which a fresh browser profile that keeps
nothing for ``file://`` pages opens at the new step, telling the person that only "Save to
file" keeps the moves there. The other games: each page's copy is made and boots its engine from disk at the
game's step (their page Python runs under plain Pyodide there, not PyScript). Every copy
carries the rules it links to, and its Rules links open them within the file (issue 42).
"""
from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

from offline import FILE_PREFIX
from playwright.sync_api import expect

from tests.browser.conftest import ENGINE_TIMEOUT_MS
from tests.browser.test_world_page import wait_act

STATE = re.compile(r'<script type="application/json" id="offline-copy">(.*?)</script>', re.S)
NO_STORAGE = """Object.defineProperty(window, "localStorage", {
    get() { throw new DOMException("The operation is insecure.", "SecurityError"); },
});"""
#: the runtime (Pyodide's wasm, its trimmed standard library), engine and page, gzipped
MAX_BYTES = 12_000_000


def step_no(page: Any) -> int:
    return int(re.search(r"Step (\d+)", page.inner_text("#shell-bar .shell-stepno")).group(1))


def download_copy(page: Any, to: Path) -> dict[str, Any]:
    """Click the shell's offline button, save the file, return the copy's own data."""
    with page.expect_download(timeout=60_000) as info:
        page.click("#shell-offline")
    info.value.save_as(to)
    text = to.read_text(encoding="utf-8")
    assert to.stat().st_size < MAX_BYTES
    assert text.startswith("<!doctype html>")
    assert "runtime/pyscript" not in text and 'type="py"' not in text
    found = STATE.search(text)
    assert found is not None
    return json.loads(found.group(1))


class Disk:
    """A browser context with no network: only ``file:`` is let through; anything else
    (http, https, ws) is aborted and recorded, and so are console and page errors."""

    def __init__(self, browser: Any, storage: bool = True) -> None:
        self.context = browser.new_context(viewport={"width": 1280, "height": 900}, offline=True)
        self.requests: list[str] = []
        self.errors: list[str] = []
        self.context.route(lambda url: not url.startswith("file:"), self.refuse)
        if not storage:  # as in browsers that keep nothing for file:// pages
            self.context.add_init_script(NO_STORAGE)

    def refuse(self, route: Any) -> None:
        self.requests.append(route.request.url)
        route.abort()

    def open(self, path: Path, page: Any = None) -> Any:
        if page is None:
            page = self.context.new_page()
            page.on("console", lambda m: self.errors.append(m.text) if m.type == "error" else None)
            page.on("pageerror", lambda e: self.errors.append(str(e)))
            page.on("request", lambda r: None if r.url.startswith(("file:", "blob:", "data:")) else self.requests.append(r.url))
        page.goto(path.as_uri())
        page.wait_for_function("() => document.documentElement.dataset.engine !== 'starting'", timeout=ENGINE_TIMEOUT_MS)
        assert page.evaluate("document.documentElement.dataset.engine") == "ready", self.errors
        return page

    def assert_clean(self) -> None:
        assert not self.requests, f"the offline copy made requests: {self.requests}"
        assert not self.errors, f"errors in the offline copy: {self.errors}"

    def close(self) -> None:
        self.context.close()


def rules_in_the_copy(copy: Any, title: str) -> None:
    """Issue 42: the copy's Rules links lead to rules it carries, with no network: the
    crumbs' Rules to the game's rules page (as the site renders it), and the link the page's
    Python draws to the rules of the draws (``../../rules/draws/`` on the site, nothing from
    a file) to those; the game stays as it was."""
    url, at = copy.url, step_no(copy)
    link = copy.locator("#shell-rules-link")
    assert link.get_attribute("href") == "#offline-rules"
    link.click()
    rules = copy.locator("#offline-rules")
    expect(rules).to_be_in_viewport()
    expect(rules.locator("article.rules h1")).to_have_text(title)
    assert "carried in this offline copy" in rules.inner_text()
    assert copy.url.split("#")[0] == url.split("#")[0] and step_no(copy) == at  # no link was opened
    draws = copy.locator("#shell-draws a")
    draws.scroll_into_view_if_needed()
    draws.click()
    carried = copy.locator("#offline-rules-draws")
    expect(carried).to_be_in_viewport()
    expect(carried.locator("article.rules h1")).to_contain_text("draw")
    assert copy.url.split("#")[0] == url.split("#")[0] and step_no(copy) == at


def test_world_copy_plays_on_from_disk_and_saves_itself(open_page, browser, tmp_path: Path) -> None:  # noqa: ANN001
    w = open_page("play/world/")
    page = w.page
    page.fill("#shell-title-input", "Offline </script> night")
    page.check("#wc-deal")
    page.click("#shell-start")
    page.wait_for_selector("#shell-game:not([hidden])")
    act, step = wait_act(page, None)
    for _ in range(2):
        page.click("#wc-choose-go")
        act, step = wait_act(page, step)
    assert act == "setup"
    at = step_no(page)
    assert page.inner_text("#shell-offline") == "Download offline copy"
    first = tmp_path / "copy.html"
    state = download_copy(page, first)
    assert state["game"] == "world" and state["save"]["options"]["title"] == "Offline </script> night"
    assert len(state["save"]["log"]) == at
    assert "Offline copy saved as conquest-world-offline-script-night-offline.html" in page.inner_text("#shell-toast")
    w.assert_clean()

    disk = Disk(browser)
    try:
        copy = disk.open(first)
        assert "?slot=" in copy.url  # the file's game was stored and opened
        assert step_no(copy) == at and copy.title().endswith("(offline copy)")
        rules_in_the_copy(copy, "World Conquest")
        assert copy.inner_text("#shell-offline") == "Save to file"
        assert copy.locator("img[src^='data:']").count() >= 1
        act, step = wait_act(copy, None)
        for _ in range(3):  # the person places three more troops; the bots answer each
            assert act == "setup"
            copy.click("#wc-choose-go")
            act, step = wait_act(copy, step)
        later = step_no(copy)
        assert later >= at + 3
        keys = copy.evaluate("Object.keys(localStorage)")
        assert keys and all(k.startswith(FILE_PREFIX) for k in keys), keys

        # opened again from disk: the moves this browser kept, not the file's older step
        copy = disk.open(first, copy)
        assert step_no(copy) == later

        # "Save to file": the same file with the game as it is now
        second = tmp_path / "again.html"
        saved = download_copy(copy, second)
        assert saved["copy"] == state["copy"] and len(saved["save"]["log"]) == later
        assert "Saved conquest-world-" in copy.inner_text("#shell-toast")
        disk.assert_clean()
    finally:
        disk.close()

    # another profile, one that keeps nothing for file:// pages: the file alone holds the
    # game, and the person is told that only "Save to file" keeps the moves
    fresh = Disk(browser, storage=False)
    try:
        again = fresh.open(second)
        assert step_no(again) == later
        assert "Save to file" in again.inner_text("#notice-banner")
        act, step = wait_act(again, None)
        again.click("#wc-choose-go")  # still plays, in the page's memory
        wait_act(again, step)
        assert step_no(again) > later
        fresh.assert_clean()
    finally:
        fresh.close()


def test_every_other_game_page_makes_a_copy_that_boots_from_disk(open_page, browser, tmp_path: Path) -> None:  # noqa: ANN001
    """One site tab and one offline profile for the four, so the site boots warm after the
    first page (the suite's time goes to what is tested: each copy booting from disk)."""
    w = open_page("play/metagame/")
    disk = Disk(browser)
    try:
        for game in ("metagame", "reign", "campaign", "conquests"):
            if game != "metagame":
                w.page.goto(w.base_url + f"play/{game}/")
                w.wait_engine()
            w.page.click("#shell-start")
            w.page.wait_for_selector("#shell-game:not([hidden])")
            path = tmp_path / f"{game}.html"
            state = download_copy(w.page, path)
            assert state["game"] == game and state["module"] == f"play_{game}"
            copy = disk.open(path)
            assert copy.locator("#shell-game").is_visible(), game
            # the rules it links to are in the file (issue 42): the game's and the draws'
            assert copy.locator("#shell-rules-link").get_attribute("href") == "#offline-rules", game
            assert [copy.get_attribute(f"#offline-rules{x}", "data-offline-rules") for x in ("", "-draws")] == \
                [game, "draws"]
            assert copy.locator(".offline-rules article.rules h1").count() == 2, game
            assert step_no(copy) >= len(state["save"]["log"]), game
            keys = copy.evaluate("Object.keys(localStorage)")  # games and preferences alike
            assert keys and all(k.startswith(FILE_PREFIX) for k in keys), (game, keys)
            copy.close()
        w.forgive_navigation_aborts()
        w.assert_clean()
        disk.assert_clean()
    finally:
        disk.close()

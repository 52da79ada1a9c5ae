"""The site in a real browser: every page boots, stays on its origin, works offline, and
treats text from links and files as text (issue #2)."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from conquest.core import games
from conquest.savecode import make_fragment
from conquest.session import Match
from tests.browser.conftest import engine_files

HOSTILE = "<img src=x onerror=alert(1)>"


def site_pages(site_dir: Path) -> list[str]:
    return sorted(
        p.relative_to(site_dir).as_posix()[: -len("index.html")] for p in site_dir.rglob("index.html")
    )


def test_every_page_boots_clean(site_dir: Path, context, open_page) -> None:
    """Every page boots clean, and under the Content-Security-Policy build.py states (issue
    10, item 7; one walk over the pages checks both: each page boots once)."""
    from tests.browser.test_csp import RECORD, policy_problems

    context.add_init_script(RECORD)
    pages = site_pages(site_dir)
    assert any(p.startswith("play/") for p in pages) and "maps/" in pages
    rules = {p for p in pages if p.startswith("rules/")}
    # each game's rules, and how a draw is made and checked (issue 26)
    assert "" in pages and "credits/" in pages and rules == {f"rules/{g}/" for g in games()} | {"rules/draws/"}
    guests = {p for p in pages if p.endswith("/guest/")}
    assert guests == {f"play/{g}/guest/" for g in games()}  # issue 37: each game's guest page
    for path in pages:
        w = open_page(path, wait=None if path in guests else "ready")
        if path in guests:
            # no engine; opened without a join link, it says so (and asks for nothing of Python)
            w.page.wait_for_function("document.documentElement.dataset.guest === 'no-link'")
            assert "join link" in w.page.inner_text("#guest-status")
            assert w.page.locator("#engine-status").count() == 0
            assert not engine_files(w.requests), path
        else:
            # static content is in the HTML, the engine is ready, nothing left the origin
            assert w.page.locator("main").inner_text().strip(), path
            assert w.page.locator("#engine-status").inner_text().strip() == "Engine ready"
        assert policy_problems(w.page) == [], path
        w.assert_clean()
        w.page.close()


def test_rules_pages_show_reconstructed_parts_and_tables(open_page) -> None:
    w = open_page("rules/world/")
    assert w.page.locator("table.data caption", has_text="Card trade values").count() == 1
    assert w.page.locator("table.data caption", has_text="Continents").count() == 1
    w = open_page("rules/conquests/")
    assert w.page.locator(".move-diagram svg").count() >= 12
    assert w.page.locator("blockquote.reconstructed").count() >= 1
    w = open_page("credits/")
    text = w.page.locator("main").inner_text()
    for needle in ("Pyra Drake", "CC BY-SA 4.0", "Pyodide", "PyScript"):
        assert needle in text


def a_real_save(log_extra: list[str] | None = None, title: str | None = None) -> dict:
    """A save of a registered game: a few legal steps of its default set-up."""
    game = next(iter(games().values()))
    match = Match(game, game.default_options())
    match.resolve_chance()
    for _ in range(3):
        actions = match.legal_actions()
        if not actions:
            break
        match.play(actions[0])
    save = match.save().to_json()
    if title is not None:
        save["options"]["title"] = title
    save["log"] += log_extra or []
    return save


def test_hostile_log_entry_in_a_link_is_text(open_page) -> None:
    save = a_real_save(log_extra=[HOSTILE])
    w = open_page("#" + make_fragment(save, "h"))
    banner = w.page.locator("#error-banner")
    banner.wait_for(state="visible")
    assert HOSTILE in banner.inner_text()
    assert w.page.locator("img[src='x']").count() == 0
    assert not w.dialogs
    assert "#" not in w.page.url  # the fragment is consumed: a reload does not re-open it


def test_hostile_title_from_a_link_is_text(open_page) -> None:
    save = a_real_save(title=HOSTILE)
    open_page("#" + make_fragment(save, "v"), wait=None)
    # a playable game's link goes on to its play page; the saved-games list shows the title as text
    w = open_page("")
    w.page.wait_for_function("(localStorage.getItem('conquest:slots') || '').includes('onerror')", timeout=90_000)
    w.page.reload()
    w.wait_engine()
    row = w.page.locator("#slot-list tbody tr")
    row.first.wait_for()
    assert HOSTILE in row.first.inner_text()
    assert w.page.locator("img[src='x']").count() == 0 and not w.dialogs


@pytest.mark.parametrize(
    ("fragment", "needle"),
    [("#h=c1.!!!!", "damaged"), ("#h=c7.AAAA", "another version"), ("#zzz", "not a Conquest game")],
)
def test_broken_links_say_why_and_keep_games(open_page, fragment: str, needle: str) -> None:
    w = open_page("")
    w.page.evaluate("localStorage.setItem('keep', '1')")
    w = open_page(fragment)
    assert needle in w.page.locator("#error-banner").inner_text()
    assert w.page.evaluate("localStorage.getItem('keep')") == "1"


def test_saved_games_import_rename_export_delete(open_page, tmp_path: Path) -> None:
    save = a_real_save()
    f = tmp_path / "my game.json"
    f.write_text(json.dumps(save))
    w = open_page("")
    w.page.set_input_files("#import-file", str(f))
    rows = w.page.locator("#slot-list tbody tr")
    rows.first.wait_for()
    assert rows.count() == 1 and "my game" in rows.first.inner_text()
    # rename in place, a small form rather than the browser's prompt (issue 9 item 14)
    w.page.get_by_role("button", name="Rename").first.click()
    field = w.page.locator("#slot-list .rename-form input")
    assert field.evaluate("e => e === document.activeElement") and "my game" in field.input_value()
    field.press("Escape")  # cancels
    assert "my game" in rows.first.inner_text() and w.page.locator(".rename-form").count() == 0
    w.page.get_by_role("button", name="Rename").first.click()
    field.fill("Renamed campaign")
    field.press("Enter")
    w.page.wait_for_function("document.querySelector('#slot-list tbody tr').innerText.includes('Renamed')")
    assert w.page.evaluate("document.activeElement.textContent") == "Rename"  # the focus comes back
    with w.page.expect_download() as dl:
        w.page.get_by_role("button", name="Export").first.click()
    exported = json.loads(Path(dl.value.path()).read_text())
    # the file carries the slot's own record: its name and dates travel with it (issue 10)
    record = exported.pop("slot")
    assert exported == save and record["name"] == "Renamed campaign" and record["created"] > 0
    # a broken file adds nothing and says why
    bad = tmp_path / "bad.json"
    bad.write_text("{not json")
    w.page.set_input_files("#import-file", str(bad))
    w.page.locator("#error-banner").wait_for(state="visible")
    assert "bad.json" in w.page.locator("#error-banner").inner_text()
    assert rows.count() == 1
    w.answers.append(True)
    w.page.get_by_role("button", name="Delete").first.click()
    w.page.wait_for_function("!document.querySelector('#slot-list tbody')")


def test_full_storage_gives_a_clear_message(open_page, tmp_path: Path) -> None:
    save = a_real_save()
    f = tmp_path / "game.json"
    f.write_text(json.dumps(save))
    w = open_page("")
    w.page.evaluate(
        """() => { const chunk = 'x'.repeat(100000); let i = 0;
        try { for (;;) localStorage.setItem('fill' + (i++), chunk); } catch (e) {}
        try { for (;;) localStorage.setItem('small' + (i++), 'x'.repeat(100)); } catch (e) {} }"""
    )
    w.page.set_input_files("#import-file", str(f))
    w.page.locator("#error-banner").wait_for(state="visible")
    assert "storage is full" in w.page.locator("#error-banner").inner_text()
    w.page.evaluate("localStorage.clear()")


def test_offline_reload_and_navigation(context, base_url: str) -> None:
    from tests.browser.conftest import watch

    page = context.new_page()
    w = watch(page, base_url)
    page.goto(base_url)
    w.wait_engine()
    # wait until the service worker controls the page and has filled its cache
    page.evaluate("navigator.serviceWorker.ready")
    page.reload()
    page.wait_for_function("navigator.serviceWorker.controller !== null", timeout=60_000)
    w.wait_engine()
    context.set_offline(True)
    try:
        for path in ("", "rules/metagame/", "credits/"):
            page.goto(base_url + path)
            w.wait_engine()
            assert page.locator("main").inner_text().strip()
    finally:
        context.set_offline(False)


def test_disabled_storage_says_so_and_still_plays(context, base_url: str, tmp_path: Path) -> None:
    from tests.browser.conftest import watch

    context.add_init_script(
        "Object.defineProperty(window, 'localStorage', {get() { throw new DOMException('denied', 'SecurityError'); }});"
    )
    page = context.new_page()
    w = watch(page, base_url)
    page.goto(base_url)
    w.wait_engine()
    assert "does not let the site keep games" in page.locator("#notice-banner").inner_text()
    f = tmp_path / "game.json"
    save = a_real_save()
    f.write_text(json.dumps(save))
    page.set_input_files("#import-file", str(f))
    # nowhere to keep it: it opens on its page with the game in the address (issue 20, item 9)
    page.wait_for_url(f"**/play/{save['game']}/#h=*")
    w.wait_engine()
    assert page.inner_text(".shell-stepno").startswith(f"Step {len(save['log'])}")
    assert "slot=" not in page.url and "storage is disabled" in page.inner_text("#shell-toast")


def test_check_only_replays_a_link_without_storing_it(open_page) -> None:
    w = open_page("")
    good = a_real_save()
    w.page.fill("#open-link-input", "#" + make_fragment(good, "h"))
    w.page.click("#check-link")
    result = w.page.locator("#check-result")
    result.wait_for(state="visible")
    assert "OK:" in result.inner_text() and result.get_attribute("data-result") == "ok"
    bad = a_real_save(log_extra=[HOSTILE])
    w.page.fill("#open-link-input", "#" + make_fragment(bad, "h"))
    w.page.click("#check-link")
    w.page.wait_for_function("document.getElementById('check-result').dataset.result === 'refused'")
    assert HOSTILE in result.inner_text() and "REFUSED step" in result.inner_text()
    assert w.page.locator("img[src='x']").count() == 0
    assert w.page.evaluate("localStorage.getItem('conquest:slots')") in (None, "[]")
    w.assert_clean()


def test_open_takes_a_live_join_link_to_its_game_page_here(browser, base_url: str) -> None:
    """Issue 36: a join link pasted into the box opens the game's guest page on this site (the
    other origin it names is ignored) with its ``#live=`` fragment. The game page is stubbed
    (service workers blocked, so the route sees the request): only the navigation is checked,
    no relay is needed (a typed room code: test_live_page.py, over the local relay)."""
    from tests.browser.conftest import watch

    ctx = browser.new_context(viewport={"width": 1280, "height": 900}, service_workers="block")
    try:
        w = watch(ctx.new_page(), base_url)
        w.page.goto(base_url)
        w.wait_engine()
        frag = "#live=ABCDEFGH." + "p" * 22 + "." + "K" * 87
        w.page.route(f"{base_url}play/world/guest/", lambda route: route.fulfill(body="<p>arrived</p>", content_type="text/html"))
        w.page.fill("#open-link-input", f"  https://elsewhere.example/play/world/{frag}\n")
        w.page.click("#open-link-form button[type=submit]")
        w.page.wait_for_url(f"{base_url}play/world/guest/{frag}")  # the guest page (issue 37)
        assert w.page.inner_text("body") == "arrived"
        w.forgive_navigation_aborts()
        w.assert_clean()
    finally:
        ctx.close()


def test_second_visit_boots_from_the_python_snapshot(context, base_url: str, tmp_path: Path) -> None:
    from tests.browser.conftest import watch

    page = context.new_page()
    w = watch(page, base_url)
    page.goto(base_url)
    w.wait_engine()
    assert page.evaluate("globalThis.conquestBoot") == "plain"
    page.wait_for_function("globalThis.conquestSnapshot !== undefined", timeout=120_000)
    assert page.evaluate("globalThis.conquestSnapshot") == "saved"
    # issue 38: kept packed (the memory without its all-zero blocks), and holding the whole
    # app imported, the question bank read: more than the interpreter's first 30 MiB heap,
    # which boot.mjs grows before restoring
    stored = page.evaluate("""async () => {
        const cache = await caches.open('python-snapshot');
        const [key] = await cache.keys();
        const words = new Uint32Array(await (await cache.match(key)).arrayBuffer(), 0, 3);
        return [words[0], words[1]];
    }""")
    assert stored[0] == 0x50535143 and stored[1] > 30 * 2**20
    page.reload()
    w.wait_engine()
    assert page.evaluate("globalThis.conquestBoot") == "snapshot"
    assert page.evaluate("globalThis.conquestPageModule") == "snapshot"  # nothing imported now
    # the restored interpreter does real work: import a save file and list it
    f = tmp_path / "game.json"
    save = a_real_save()
    f.write_text(json.dumps(save))
    page.set_input_files("#import-file", str(f))
    # storage works after a snapshot boot: the imported game is kept and listed
    page.locator("#slot-list tbody tr").first.wait_for()
    assert "storage is disabled" not in page.inner_text("body")
    w.assert_clean()


def test_a_game_page_is_usable_before_its_engine_is_ready(browser, base_url: str) -> None:
    """Issue 38: at first paint, before Python runs, a game page lists this browser's saved
    games of its game (from the storage index, as text; the landing page every game's), its
    rules link is there, and a Start
    pressed then is neither lost nor a page reload: it goes ahead once the engine is ready.
    The engine is held back by holding Pyodide's WebAssembly until the test lets it go."""
    ctx = browser.new_context(viewport={"width": 360, "height": 740}, service_workers="block")
    held: list = []
    try:
        page = ctx.new_page()
        page.goto(base_url + "credits/")
        hostile = "<img src=x onerror=alert(1)>"
        index = [{"id": "abc123", "game": "reign", "name": hostile, "mode": "host", "created": 1, "updated": 2,
                  "steps": 7, "rev": 1, "result": ""},
                 {"id": "zzz999", "game": "world", "name": "Other game", "mode": "host", "created": 1,
                  "updated": 3, "steps": 1, "rev": 1, "result": ""},
                 {"id": "BAD ID", "game": "reign", "name": "refused", "mode": "host", "created": 1, "updated": 4,
                  "steps": 1, "rev": 1, "result": ""}]
        page.evaluate("(v) => localStorage.setItem('conquest:slots', v)", json.dumps(index))
        ctx.route("**/pyodide.asm.wasm", lambda route: held.append(route))
        # the landing page lists every playable game's saves, with the game's title
        page.goto(base_url)
        page.locator("#slot-list #shell-saved-early").wait_for()
        assert page.locator("#slot-list a").all_inner_texts() == ["Resume “Other game”", f"Resume “{hostile}”"]
        assert page.locator("#slot-list a").first.get_attribute("href") == "play/world/?slot=zzz999"
        assert "World Conquest · 1 step" in page.inner_text("#slot-list")
        # one "Your saved games" heading: the landing page's own, none inside the early list
        assert page.locator("h2", has_text="Your saved games").count() == 1
        assert page.locator("img[src='x']").count() == 0
        held.clear()  # that page's engine is never let go
        page.goto(base_url + "play/reign/")
        early = page.locator("#shell-saved-early")
        early.wait_for()
        assert page.evaluate("document.documentElement.dataset.engine") == "starting"
        links = early.locator("a")
        assert links.count() == 1 and links.first.inner_text() == f"Resume “{hostile}”"
        assert links.first.get_attribute("href") == "?slot=abc123"
        assert early.locator("h2").inner_text() == "Your saved games"  # a game page's list has its heading
        assert page.locator("img[src='x']").count() == 0
        assert page.locator("#shell-rules-link").is_visible()
        page.fill("#seat-name-0", "Early Ann")
        page.click("#shell-setup-form [type=submit]")
        assert page.locator("#notice-banner .banner-text").inner_text().startswith("The game engine is still starting")
        assert page.url == base_url + "play/reign/" and page.input_value("#seat-name-0") == "Early Ann"
        page.wait_for_function("() => true")  # let the held request arrive
        while not held:
            page.wait_for_timeout(100)
        for route in held:
            route.continue_()
        page.wait_for_function("document.documentElement.dataset.engine === 'ready'", timeout=180_000)
        # the Start pressed while it booted went ahead: the game is on, with the name typed
        page.wait_for_function("document.getElementById('shell-setup').hidden", timeout=60_000)
        assert "Early Ann" in page.inner_text("body")
        assert page.locator("#shell-saved-early").count() == 0
        assert page.locator("#notice-banner").is_hidden()
    finally:
        ctx.unroute("**/pyodide.asm.wasm")
        ctx.close()

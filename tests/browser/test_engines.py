"""Every game in Firefox and in Safari's engine (WebKit), on every run (issue 23).

The rules and the page logic are tested in CPython and the glue in Chromium; this keeps
what differs between engines: Pyodide booting under SpiderMonkey and JavaScriptCore, the
pages' controls, storage, the service worker, share links and deep input. One browser per
engine for the whole session (``engine`` in conftest.py: Debian's ``firefox-esr`` through
puppeteer-core, WebKitGTK's MiniBrowser through Selenium; see tools/engines.py).

Which engines: CONQUEST_ENGINES (conftest.py), by default ``firefox,webkit-full``: every test
in both (WebKit 90 s on the idle 2-core machine, its later pages booting from the first one's
Python snapshot). ``webkit`` is WebKit's short set for a quick local run: each game boots and
makes its first move (with the computers' replies), storage, a host link opened on another
origin and reloaded offline, and the deep links.

Per engine, in this order (the tests share the engine's ``main`` profile, so the landing
page lists the games the first test saved):
  - each game page boots and a short game is played through its own controls: a few moves,
    a chance step (dice, a deal, a question, the wheel; The Game of Conquests has none), an
    undo, and a computer player's move (WebKit's short set: up to the first move);
  - the landing page lists the five saved games;
  - a host link opens in a fresh profile at the same step, and the page reloads from the
    service worker with the server gone (offline);
  - deeply nested links; a 6-player World game with a long log (not in WebKit's short set);
  - Firefox only: "Download offline copy" saves a file that opens from ``file://`` and plays;
  - with storage disabled, a step of a game over 3,000 steps survives a reload made at once
    (issue 42; ``test_long_reload.py``).
"""
from __future__ import annotations

import json
import re
import tempfile
import time
from pathlib import Path
from typing import Any

import pytest

from conquest.games.world import GAME as WORLD
from conquest.games.world.bots import RuleBot
from conquest.rng import Rng
from conquest.savecode import make_fragment
from conquest.session import Match
from tests.browser.conftest import FREE_POINT, engine_files
from tests.browser.test_metagame_page import save_at_spin
from tools.engines import Page
from tools.serve import serve_in_thread

pytestmark = pytest.mark.cross

SHOTS = Path(tempfile.gettempdir()) / "conquest-engines"

def select(page: Page, selector: str, value: str) -> None:
    """Set a form's select or checkbox as a person would, with the change event."""
    ok = page.evaluate(
        """(s, v) => {
            const el = document.querySelector(s);
            if (!el) return false;
            if (el.type === 'checkbox') el.checked = v === 'on'; else el.value = v;
            el.dispatchEvent(new Event('input', { bubbles: true }));
            el.dispatchEvent(new Event('change', { bubbles: true }));
            return true;
        }""",
        selector, value,
    )
    assert ok, selector


def click_territory(page: Page, element_id: str) -> None:
    """A real pointer click on a free point of a map territory."""
    point = page.evaluate(FREE_POINT, element_id)
    assert point is not None, f"{element_id} has no free point to click"
    page.click_at(*point)


def log_len(page: Page) -> int:
    return page.count("#shell-log li")


def step_no(page: Page) -> int:
    found = re.search(r"Step (\d+)", page.text("#shell-bar .shell-stepno"))
    assert found, page.text("#shell-bar")
    return int(found.group(1))


def wait_step_change(page: Page, before: int, timeout: float = 90) -> int:
    page.wait(
        "(n) => { const e = document.querySelector('#shell-bar .shell-stepno');"
        " const m = e && /Step (\\d+)/.exec(e.textContent); return m && +m[1] !== n; }",
        before, timeout=timeout, what=f"a step other than {before}",
    )
    return step_no(page)


def act_of(page: Page, panel: str) -> tuple[str, str]:
    return tuple(page.evaluate(  # type: ignore[return-value]
        "(id) => { const e = document.getElementById(id); return e ? [e.dataset.act || '', e.dataset.step || ''] : ['', '']; }",
        panel))


def wait_act(page: Page, panel: str, acting: tuple[str, ...], last: str | None, timeout: float = 90) -> tuple[str, str]:
    page.wait(
        """(id, acting, last) => {
            const e = document.getElementById(id);
            return e && acting.includes(e.dataset.act) && (e.dataset.step !== last || e.dataset.act === 'over');
        }""",
        panel, list(acting), last or "", timeout=timeout, what=f"{panel} acting",
    )
    at_rest(page)
    return act_of(page, panel)


def at_rest(page: Page) -> None:
    """Wait until the page has stopped scrolling (two polls in a row at the same place):
    after a step the shell scrolls the result and the next decision into view, smoothly
    (issue 41), and a click computed on a moving element lands beside it."""
    page.evaluate("() => { window.cqLastY = null; return true; }")
    page.wait(
        """() => { const y = scrollY + [...document.querySelectorAll('.play-sheet')].reduce((a, s) => a + s.scrollTop, 0);
            const same = window.cqLastY === y; window.cqLastY = y; return same; }""",
        what="the page at rest",
    )


def start(page: Page, base: str, gid: str, fields: dict[str, str]) -> None:
    page.goto(f"{base}play/{gid}/")
    page.wait_engine()
    for sel, value in fields.items():
        select(page, sel, value)
    page.click("#shell-start")
    page.wait("() => !document.getElementById('shell-game').hidden", what="the game")


def undo(page: Page) -> None:
    """Undo once no computer is thinking, and the step count goes down (a computer's reply
    is taken back with it).

    The count is watched by a MutationObserver on the status bar, not only polled: in a
    Short Campaign the game goes on by itself after the Undo (a computer answers, a
    person's clock runs out), and a slow engine's polls may come only after it has."""
    page.wait("() => { const b = document.getElementById('shell-undo');"
              " return b && !b.disabled && !document.getElementById('shell-thinking'); }", what="Undo")
    before = step_no(page)
    page.evaluate(
        """(n) => {
            window.cqLowestStep = n;
            const bar = document.getElementById('shell-bar');
            const read = () => {
                const e = bar.querySelector('.shell-stepno');
                const m = e && /Step (\\d+)/.exec(e.textContent);
                if (m && +m[1] < window.cqLowestStep) window.cqLowestStep = +m[1];
            };
            if (window.cqStepWatch) window.cqStepWatch.disconnect();
            window.cqStepWatch = new MutationObserver(read);
            window.cqStepWatch.observe(bar, {subtree: true, childList: true, characterData: true});
        }""",
        before,
    )
    page.click("#shell-undo")
    page.wait("(n) => window.cqLowestStep < n", before, what=f"a step before {before}")


def clean(page: Page) -> None:
    """Nothing in the page's error banner and (Firefox) no console or page error."""
    assert page.banner() == "", page.banner()
    ev = page.events()  # type: ignore[attr-defined]
    assert not ev["errors"], ev["errors"]
    assert not ev["console"], ev["console"]


# -- one short game per page ---------------------------------------------------------------
def play_world(page: Page, base: str, short: bool) -> None:
    start(page, base, "world", {"#wc-deal": "on", "#wc-order": "fixed"})  # the deal: a chance step
    assert page.count("#wc-map .territory") == 42
    panel, acting = "wc-panel-inner", ("setup", "reinforce", "attack", "over")
    act, step = wait_act(page, panel, acting, None)
    lit = page.evaluate("() => document.querySelector('#wc-map .territory.is-eligible').dataset.index")
    click_territory(page, f"wc-t{lit}")  # a troop on the map
    act, step = wait_act(page, panel, acting, step)
    assert "plac" in page.text("#shell-log")  # the computers placed in between
    if short:
        return
    page.click("#wc-choose-go")  # and one from the Choose list
    act, step = wait_act(page, panel, acting, step)
    assert act == "setup"
    assert "plac" in page.text("#shell-log")  # the computers placed in between
    undo(page)


def play_reign(page: Page, base: str, short: bool) -> None:
    start(page, base, "reign", {"#seat-who-1": "Random"})
    panel, acting = "rg-stage-inner", ("pick", "battle", "respond", "turn", "over")
    act, step = wait_act(page, panel, acting, None)
    assert act == "pick"
    page.click("#rg-stage .rg-sc-row button:nth-child(1)")
    page.press("5")  # keys 1-5 pick the card at that place
    page.wait("() => !document.getElementById('rg-pick-go').disabled", what="two cards chosen")
    page.click("#rg-pick-go")
    act, step = wait_act(page, panel, acting, step)  # the computer picked and the cards are dealt
    assert act in ("turn", "pick", "battle", "respond"), act
    if short:
        return
    if act == "turn" and page.count("#rg-realloc"):
        # Reallocate's draft (R5): two taps swap two cards in the draft, the confirm plays it
        page.click("#rg-more summary")
        page.click("#rg-realloc .rg-place:nth-child(1)")
        page.click("#rg-realloc .rg-place:nth-child(4)")
        page.wait("() => !document.getElementById('rg-realloc-go').disabled", what="a drafted arrangement")
        page.click("#rg-realloc-go")
        act, step = wait_act(page, panel, acting, step)
        assert "change places" in page.text("#shell-log")
    moves = page.count("#rg-board .rg-card-acts button") + page.count("#rg-actions button")
    assert moves > 0
    if page.count("#rg-board .rg-card-acts button"):
        page.click("#rg-board .rg-card-acts button")
        wait_act(page, panel, acting, step)
    undo(page)


def play_conquests(page: Page, base: str, short: bool) -> None:
    start(page, base, "conquests", {"#seat-who-0": "human", "#seat-who-1": "easy"})
    page.click("#cq-sq-b2")
    page.wait("() => document.querySelectorAll('#cq-marks .dot').length === 3", what="the marks")
    page.click("#cq-sq-b3")
    page.wait("() => document.querySelectorAll('#cq-moves code').length >= 2", what="the computer's move")
    assert page.text("#cq-moves code") == "b2b3"
    if short:
        return
    undo(page)
    assert page.count("#cq-moves code") == 0


def play_campaign(page: Page, base: str, short: bool) -> None:
    start(page, base, "campaign", {})
    panel = "cp-stage-inner"
    acting = ("hold", "answer-guess", "answer-choice", "pick", "attack", "over")
    step: str | None = None
    done = 0
    while done < (1 if short else 3):
        act, step = wait_act(page, panel, acting, step)
        if act == "hold":
            page.click("#cp-go")
            page.wait("() => document.getElementById('cp-stage-inner').dataset.act !== 'hold'")
            step = None
            continue
        if act == "answer-guess":  # a question drawn: the chance step
            low = int(page.evaluate("() => document.getElementById('cp-guess').min"))
            page.fill("#cp-guess", str(low + 1))
            page.click("#cp-guess-go")
        elif act == "answer-choice":
            page.click("#cp-opt-0")
        elif act in ("pick", "attack"):
            idx = page.evaluate("() => document.querySelector('#cp-map .territory.is-eligible').dataset.index")
            click_territory(page, f"cp-t{idx}")
        done += 1
    assert log_len(page) >= (1 if short else 3)
    if short:
        return
    undo(page)


def play_metagame(page: Page, base: str, short: bool) -> None:
    # the host console has no computer seats (the people play their duels elsewhere)
    start(page, base, "metagame", {"#seat-count": "2"})
    assert page.count("#mg-map .territory") == 100
    for n in (1,) if short else (1, 2):  # capitals, by pointer clicks on the map
        first = page.evaluate("() => document.querySelector('#mg-territories .territory.is-eligible').id")
        click_territory(page, first)
        page.wait("(n) => document.querySelectorAll('#mg-marks .cap-mark').length === n", n, what="a capital")
    if short:
        return
    undo(page)
    assert page.count("#mg-marks .cap-mark") == 1
    # the wheel (the chance step), from a host link of a campaign at its spin: the link
    # opens in the same page (hashchange), and the spin is drawn and logged
    page.goto(f"{base}play/metagame/#" + make_fragment(save_at_spin(), "h"))
    page.wait("() => document.getElementById('shell-prompt').textContent.includes('spin the wheel')",
              what="the spin prompt")
    before = step_no(page)
    page.click_button("#mg-actions", "Spin the wheel")
    assert wait_step_change(page, before) > before
    assert re.search(r"\br\d+ ", page.text("#shell-log")) or "spin" in page.text("#shell-log").lower()


GAMES = {
    "world": play_world,
    "reign": play_reign,
    "conquests": play_conquests,
    "campaign": play_campaign,
    "metagame": play_metagame,
}


GAMES_FIRST = next(iter(GAMES))


@pytest.mark.parametrize("gid", list(GAMES))
def test_each_game_boots_and_plays(engine: Any, main_context: Any, base_url: str, gid: str) -> None:
    page = main_context.new_page()
    t0 = time.monotonic()
    GAMES[gid](page, base_url, engine.short)
    SHOTS.mkdir(exist_ok=True)
    page.screenshot(str(SHOTS / f"{engine.name}-{gid}.png"))
    clean(page)
    host = page.text("#shell-host-url")
    assert host.startswith(base_url) and "#h=" in host
    engine.host_links[gid] = (host, step_no(page))
    # how Python booted (boot.mjs: "plain", or our snapshot restored) and when it was ready
    boot, ready_s = page.evaluate(
        "() => [globalThis.conquestBoot, Math.round(performance.getEntriesByName('engine-ready')[0].startTime / 100) / 10]")
    engine.timings[f"{gid}-boot"] = [boot, ready_s]
    if gid == GAMES_FIRST:
        # The first page stays until its Python snapshot is kept (boot.mjs makes it in a
        # worker a few seconds after the engine is ready). Left sooner, as every page was,
        # each page booted plainly and started a snapshot worker that the next navigation
        # killed: in WebKit a second Pyodide boot's worth of CPU wasted per page.
        page.wait("() => globalThis.conquestSnapshot", timeout=120, what="the Python snapshot")
        assert page.evaluate("() => globalThis.conquestSnapshot") == "saved"
        engine.snapshot_saved = True
    elif engine.snapshot_saved:
        assert boot == "snapshot", f"{gid} booted {boot!r}, not from the snapshot the first page kept"
    engine.timings[gid] = round(time.monotonic() - t0, 1)


def test_landing_page_lists_the_saved_games(engine: Any, main_context: Any, base_url: str) -> None:
    if not engine.host_links:
        pytest.fail("lists what test_each_game_boots_and_plays saved: run them in the same session")
    page = main_context.new_page()
    page.goto(base_url)
    page.wait_engine()
    page.wait("() => !!document.querySelector('#slot-list caption')", what="the saved games", timeout=30)
    caption = page.text("#slot-list caption")
    assert int(caption.split()[0]) >= len(engine.host_links), caption
    listed = page.text("#slot-list")
    for gid in engine.host_links:
        title = {"world": "World Conquest", "reign": "To Reign Supreme", "conquests": "The Game of Conquests",
                 "campaign": "Short Campaign", "metagame": "Conquest Metagame"}[gid]
        assert title in listed, f"{title} not listed: {listed[:2000]}"
    clean(page)


def test_host_link_in_a_fresh_profile_then_offline(engine: Any, main_context: Any, site_dir: Path) -> None:
    """The World host link opens in a fresh profile (another origin: a server of its own)
    at the same step; once the service worker holds the site, the server goes away and
    the page reloads from the worker at that step and plays on. WebKit's short set opens
    it in the session's own browser on that other origin (storage, service workers and
    caches are per origin, so nothing of the first game is there): a new WebKit session
    costs a MiniBrowser start and a boot with nothing cached. There the deeply nested links
    are then opened on this page, offline (one boot fewer)."""
    host, steps = engine.host_links.get("world") or pytest.fail("the World game did not run")
    server, url = serve_in_thread(site_dir)
    ctx = main_context if engine.short else engine.new_context()
    try:
        page = ctx.new_page()
        page.goto(url + "play/world/#" + host.split("#", 1)[1])
        page.wait_engine()
        page.wait("() => !document.getElementById('shell-game').hidden", what="the game")
        assert step_no(page) == steps
        page.wait("() => navigator.serviceWorker.controller !== null", timeout=120, what="the service worker")
        server.shutdown()
        server.server_close()
        page.reload()
        page.wait_engine()
        page.wait("() => !document.getElementById('shell-game').hidden", what="the game offline")
        assert step_no(page) == steps
        panel, acting = "wc-panel-inner", ("setup",)
        act, step = wait_act(page, panel, acting, None)
        page.click("#wc-choose-go")  # plays on, offline
        assert wait_step_change(page, steps) > steps
        if engine.short:
            refuse_deep_links(page, url + "play/world/", engine.deep)
        clean(page)
    finally:
        server.shutdown()
        if ctx is not main_context:
            ctx.close()


# -- deep input ---------------------------------------------------------------------------
def nested_link(depth: int) -> str:
    """A host link whose save nests ``depth`` lists deep in its options (hostile input)."""
    import base64
    import zlib

    text = f'{{"v":1,"game":"world","options":{{"d{depth}":' + "[" * depth + "]" * depth + '},"log":[]}'
    comp = zlib.compressobj(9, zlib.DEFLATED, -15)
    raw = comp.compress(text.encode()) + comp.flush()
    return "h=c1." + base64.urlsafe_b64encode(raw).decode().rstrip("=")


def long_world_save(seats: int = 6, seed: int = 5) -> dict[str, Any]:
    """A 6-player World game the Rule-based bot played for every seat, to the end."""
    colours = ["#e69f00", "#56b4e9", "#009e73", "#f0e442", "#0072b2", "#d55e00"]
    opts = {"seats": [{"name": f"P{i + 1}", "colour": colours[i]} for i in range(seats)], "order": "fixed", "deal": True}
    m = Match(WORLD, opts, rng=Rng(seed))
    m.resolve_chance()
    bot = RuleBot(Rng(seed))
    while m.state.phase != "over" and len(m.log) < 6000:
        gen = bot.think(WORLD, m.state)
        try:
            while True:
                next(gen)
        except StopIteration as stop:
            m.play(stop.value)
    return m.save().to_json()


DEPTHS = (100, 1000, 10_000, 100_000)


def refuse_deep_links(page: Page, url: str, deep: dict[int, str]) -> None:
    """Open links nested ever deeper in ``page`` (a booted World page at ``url``, through
    ``hashchange``): each is refused in words and Python lives on."""
    for depth in DEPTHS:
        if page.count("#shell-toast .shell-toast-close"):  # the last message goes, so the next is new
            page.click("#shell-toast .shell-toast-close")
            page.wait("() => !document.querySelector('#shell-toast .shell-toast-close')", what="no message")
        page.goto(url + "#" + nested_link(depth))
        said = page.wait(
            "() => { const b = document.getElementById('error-banner'); "
            "if (b && !b.hidden) return b.textContent; "
            "const t = document.getElementById('shell-toast'); "
            "return t && t.textContent.includes('could not be opened') ? t.textContent : ''; }",
            what=f"a message about the {depth}-deep link", timeout=30)
        deep[depth] = said[:160]
        assert "could not be opened" in said, said
        assert page.evaluate("() => document.documentElement.dataset.engine") == "ready"


def test_deeply_nested_links(engine: Any, main_context: Any, base_url: str) -> None:
    """One page (one boot): links nested ever deeper are refused in words and Python lives
    on. Before the bounded parser of issue 20, Firefox's Pyodide died of "too much
    recursion" at 100,000 levels and the page said nothing; JavaScriptCore's stack is the
    smallest of the three engines. WebKit's short set opens them on the page of the test
    above, offline (a boot fewer)."""
    if engine.short:
        pytest.skip("WebKit's short set opens the deep links in test_host_link_in_a_fresh_profile_then_offline")
    page = main_context.new_page()
    page.goto(base_url + "play/world/")
    page.wait_engine()
    refuse_deep_links(page, base_url + "play/world/", engine.deep)
    clean(page)


def test_long_six_player_world_game(engine: Any, main_context: Any, base_url: str) -> None:
    """Memory and time: a 6-player World game the bots played to the end opens from its
    link at its last step (thousands of steps replayed): the slowest test in WebKit, so it is
    in WebKit's long set only (CONQUEST_ENGINES=webkit-full)."""
    if engine.short:
        pytest.skip("WebKit's short set: the long World game runs with CONQUEST_ENGINES=webkit-full")
    save = long_world_save()
    page = main_context.new_page()
    page.goto(base_url + "play/world/")
    page.wait_engine()
    t0 = time.monotonic()
    page.goto(base_url + "play/world/#" + make_fragment(save, "h"))
    page.wait("(n) => { const e = document.querySelector('#shell-bar .shell-stepno');"
              " return e && e.textContent.includes('Step ' + n); }", len(save["log"]), what="the long game", timeout=120)
    engine.timings["world-long"] = round(time.monotonic() - t0, 1)
    engine.timings["world-long-steps"] = len(save["log"])
    page.screenshot(str(SHOTS / f"{engine.name}-world-long.png"))
    assert step_no(page) == len(save["log"])
    clean(page)


# -- Firefox: the offline copy from file:// ------------------------------------------------
def test_offline_copy_opens_from_file_and_plays(engine: Any, main_context: Any, base_url: str) -> None:
    if engine.name != "firefox":
        pytest.skip("WebKitGTK's automation saves no downloads; the offline copy is Firefox's (issue 23)")
    page = main_context.new_page()
    page.goto(base_url + "play/world/")
    page.wait_engine()
    page.wait("() => document.querySelectorAll('#shell-saved-list li, #shell-saved-list a').length > 0",
              what="the saved World game")
    page.goto(engine.host_links["world"][0])
    page.wait("() => !document.getElementById('shell-game').hidden", what="the game")
    at = step_no(page)
    before = set(engine.downloads.iterdir())
    page.click("#shell-offline")
    end = time.monotonic() + 120
    while time.monotonic() < end:
        new = [p for p in set(engine.downloads.iterdir()) - before if p.suffix == ".html"]
        if new and not list(engine.downloads.glob("*.part")):
            break
        time.sleep(0.5)
    assert new, "no offline copy was saved"
    copy = new[0]
    text = copy.read_text(encoding="utf-8")
    state = json.loads(re.search(r'<script type="application/json" id="offline-copy">(.*?)</script>', text, re.S).group(1))
    assert state["game"] == "world" and len(state["save"]["log"]) == at
    ctx = engine.new_context()
    try:
        disk = ctx.new_page()
        disk.goto(copy.as_uri())
        disk.wait_engine()
        assert step_no(disk) == at
        act, step = wait_act(disk, "wc-panel-inner", ("setup",), None)
        disk.click("#wc-choose-go")
        assert wait_step_change(disk, at) > at
        outside = [u for u in disk.events()["requests"] if not u.startswith(("file:", "blob:", "data:"))]
        assert not outside, outside
        clean(disk)
    finally:
        ctx.close()


# -- live play: a guest on this engine at a Chromium host's table ---------------------------
def test_live_table_guest_on_this_engine(engine: Any, main_context: Any, base_url: str, relay: str,
                                         browser: Any) -> None:
    """Friends on the call use any browser (issue 22 in Chromium, here the others): a host in
    Chromium opens a live World table; this engine's page opens the join link, takes Bob's
    seat, plays his turn, and the host's page follows, through the local relay.
    Issue 37: the join link opens the game's guest page, which runs no engine (nothing of
    Pyodide, PyScript or the app is asked for): the host's page draws it. A browser without
    WebRTC (WebKitGTK as Debian builds it has no RTCPeerConnection; so has an iPhone in
    Lockdown Mode) plays through the relays alone; as a host it says at once why it cannot
    hold a table, and points to the links way.
    Issue 36: the table is five minutes old when the guest joins (the host's clock set back
    while it opened: test_live_page.AGEABLE_HOST; the host makes the offer, the side that
    failed), and the guest's page reloads after its turn and is back at its seat."""
    from live import HOST_NO_WEBRTC

    from tests.browser.test_live_page import device, midgame, open_table

    settings = json.dumps({"relays": [relay], "iceServers": []})
    hctx, hw = device(browser, base_url, relay, ageable=True)  # Chromium, told the same relay
    try:
        host = hw.page
        join = open_table(host, base_url, minutes_old=5)
        assert "/play/world/guest/#live=" in join
        # the session's own profile, told the local relay first (no public relay is asked)
        page = main_context.new_page()
        page.goto(base_url)
        page.evaluate("(s) => { localStorage.setItem('conquest:live-settings', s); return true; }", settings)
        # its engine ready before the page is left: every page preloads pyodide.asm.wasm, and
        # Firefox logs "A ServiceWorker intercepted the request and encountered an unexpected
        # error" for a preload the next navigation cuts off (2 of 3 runs of this test alone)
        page.wait_engine()
        webrtc = bool(page.evaluate("() => typeof RTCPeerConnection !== 'undefined'"))
        t0 = time.monotonic()
        page.goto(join)
        page.wait("() => document.documentElement.dataset.guest === 'ready'", what="the page the host drew", timeout=120)
        engine.timings["live-guest-shown"] = round(time.monotonic() - t0, 1)
        asked = page.evaluate("() => performance.getEntriesByType('resource').map(e => e.name)")
        assert not engine_files(asked), engine_files(asked)
        page.wait("() => !!document.getElementById('live-name')", what="the guest's panel")
        page.fill("#live-name", "Bob")
        page.evaluate("() => { document.getElementById('live-name').dispatchEvent(new Event('change', {bubbles: true})); return true; }")
        page.wait("() => !!document.querySelector(\"button[data-take='1']\")", what="Bob's free seat", timeout=120)
        page.click("button[data-take='1']")
        page.wait("() => document.getElementById('live-status').textContent.includes('You play Bob')", what="seated",
                  timeout=60)
        engine.timings["live-guest-seated"] = round(time.monotonic() - t0, 1)
        engine.timings["live-guest-way"] = "WebRTC" if webrtc else "relays"
        # Cy's seat stays on the host's device: Ann presses Ready on its hand-over screen
        host.get_by_role("button", name="Ready (Ann)").click()
        host.click("#wc-end")
        page.wait("() => (document.getElementById('wc-panel-inner') || {dataset: {act: 'wait'}}).dataset.act !== 'wait'",
                  what="Bob's turn", timeout=60)
        step = page.evaluate("() => document.getElementById('wc-panel-inner').dataset.step")
        for control in ("#wc-end", "#wc-choose-go", "[data-trade]"):
            if page.count(control):
                page.click(control)
                break
        else:
            raise AssertionError(f"no control for Bob's turn: {page.text('#wc-panel-inner')[:300]}")
        host.wait_for_function(f"() => document.getElementById('wc-panel-inner').dataset.step !== '{step}'",
                               timeout=60_000)
        page.wait(f"() => document.getElementById('wc-panel-inner').dataset.step !== '{step}'", what="the next step here")
        engine.timings["live-guest-turn"] = round(time.monotonic() - t0, 1)
        page.screenshot(str(SHOTS / f"{engine.name}-live-guest.png"))
        # the guest's page reloads: it finds the table again and is back at Bob's seat
        t1 = time.monotonic()
        page.evaluate("() => { setTimeout(() => location.reload(), 0); return true; }")
        page.wait("() => document.documentElement.dataset.guest !== 'ready'", what="the reload", timeout=30)
        page.wait("() => (document.getElementById('live-status') || {textContent: ''}).textContent.includes('You play Bob')",
                  what="back at Bob's seat after the reload", timeout=120)
        engine.timings["live-guest-reload"] = round(time.monotonic() - t1, 1)
        if not webrtc:
            # as a host: the game from a host link, then "Play live" says why not, in words
            page = main_context.new_page()
            page.goto(base_url + "play/world/#" + midgame())
            page.wait_engine()
            page.wait("() => !!document.getElementById('live-start')", what="Play live")
            page.click("#live-start")
            page.wait("(t) => (document.getElementById('shell-toast') || {}).textContent?.includes(t)",
                      HOST_NO_WEBRTC[:60], what="the host's no-WebRTC words", timeout=30)
            assert page.count("#live-join-url") == 0
            page.screenshot(str(SHOTS / f"{engine.name}-live-host-no-webrtc.png"))
        clean(page)
    finally:
        hctx.close()


def test_with_storage_disabled_a_reload_right_after_a_long_games_step_keeps_it(
        engine: Any, main_context: Any, base_url: str, site_dir: Path) -> None:
    """Issue 42: a step of a game over 3,000 steps, made with storage disabled, survives a
    reload made at once (``test_long_reload.py`` says how, and checks it in Chromium)."""
    from tests.browser.test_long_reload import (
        STEP_IS,
        TO_GO,
        WATCH_STEP,
        check_seen,
        long_link,
        no_storage_page,
    )

    n, frag = long_link()
    page = main_context.new_page()
    page.goto(f"{base_url}{no_storage_page(site_dir)}#{frag}")
    page.wait_engine()
    page.wait(STEP_IS, n, what=f"step {n}", timeout=180)
    assert "storage is disabled" in page.text("#shell-toast")
    if page.evaluate("() => { const b = document.getElementById('shell-ready'); return !!b && !!b.offsetParent; }"):
        page.click("#shell-ready")
    page.evaluate(WATCH_STEP, n)
    page.evaluate(TO_GO)
    page.click("#wc-choose-go")
    seen = page.wait("() => window.cqSeen", what="the step drawn")
    page.reload()  # at once
    check_seen(seen, n)
    page.wait_engine()
    page.wait(STEP_IS, n + 1, what=f"step {n + 1} after the reload", timeout=180)
    found = re.search(r"Step (\d+)", page.text("#shell-bar .shell-stepno"))
    assert found and int(found.group(1)) == n + 1

"""Live play in real browsers, shared by the browser tests (issue 42): a device, a table, a
seat, a duel typed move by move, and the checks every live test ends with.

Why one module: each live test file had set its devices up its own way (a context told the
local relay, a guest seated by its name and its Take button) and played its duel in a loop
of its own; the copies had begun to differ (one wrote the live settings where a tab opened
by a link refuses storage, the others not). Every device here meets the others through the
local Nostr relay on 127.0.0.1 (``tools/relay.py``): the pages take it from the live
settings and no STUN server is asked (``iceServers: []``), so nothing leaves the machine.
"""
from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

from playwright.sync_api import expect

from tests.browser.conftest import ENGINE_TIMEOUT_MS, engine_files, watch

#: a host page whose table can be made old at once (issue 36): its peer id sorts first, so it
#: makes the offer to every guest (the side that failed on an old table), and its clock can be
#: set back while the table opens (``conquestClockSkew(ms)``): the peer library dates its pooled
#: offers by ``Date.now``, so with the clock right again they are that old. (Not moved on: the
#: relays' subscriptions are dated by the same clock, and a later one would miss the guests.)
AGEABLE_HOST = """(() => {
  const random = Math.random.bind(Math);
  Math.random = () => random() / 64;
  const now = Date.now.bind(Date);
  let skew = 0;
  Date.now = () => now() + skew;
  window.conquestClockSkew = (ms) => { skew = ms; return skew; };
})();"""


def device(browser: Any, base_url: str, relay: str, width: int = 1280, height: int = 900, ageable: bool = False,
           record: bool = True, **context: Any) -> tuple[Any, Any]:
    """A device: a browser context whose pages take the local relay, and its first page,
    watched (``conftest.watch``). ``record``: every text the page receives is kept
    (``window.conquestLiveReceived``); ``ageable``: :data:`AGEABLE_HOST`; ``context``: more
    options of the context (``viewport`` here wins over ``width`` and ``height``)."""
    ctx = browser.new_context(**{"viewport": {"width": width, "height": height}, **context})
    settings = json.dumps({"relays": [relay], "iceServers": [], "record": record})
    # in a try: a tab opened by a link starts as about:blank, where storage is refused
    ctx.add_init_script(f"try {{ localStorage.setItem('conquest:live-settings', {json.dumps(settings)}); }} catch (e) {{}}")
    if ageable:
        ctx.add_init_script(AGEABLE_HOST)
    return ctx, watch(ctx.new_page(), base_url)


def ready(page: Any) -> None:
    """The page's engine is ready."""
    page.wait_for_function("document.documentElement.dataset.engine === 'ready'", timeout=ENGINE_TIMEOUT_MS)


def guest_ready(page: Any) -> None:
    """A guest page (issue 37: no engine) shows what the host's page drew for it."""
    page.wait_for_function("document.documentElement.dataset.guest === 'ready'", timeout=120_000)


def no_engine_requested(w: Any) -> None:
    """Issue 37: a guest device asks for nothing of the engine (no Pyodide, PyScript or app)."""
    engine = engine_files(w.requests)
    assert not engine, engine


def host_save(host: Any) -> dict[str, Any]:
    """The save of the game the host's page has open, as its storage holds it."""
    raw = host.evaluate("""() => {
        const id = new URLSearchParams(location.search).get('slot');
        return localStorage.getItem('conquest:slot:' + id);
    }""")
    obj = json.loads(raw)
    return obj.get("save", obj)


def open_table(host: Any, url: str, minutes_old: int = 0) -> str:
    """The host opens ``url`` (a game's page and link) and a live table there; returns the
    join link. ``minutes_old``: the table made that old at once (an ``ageable`` host's clock
    set back while the table opens)."""
    host.goto(url, wait_until="commit")
    ready(host)
    if minutes_old:
        host.evaluate(f"() => conquestClockSkew(-{minutes_old} * 60 * 1000)")
    host.click("#live-start")
    join = str(host.wait_for_selector("#live-join-url", timeout=30_000).inner_text())
    assert "#live=" in join and len(join.split("#live=")[1].split(".")) == 3  # code, password, host's key
    if minutes_old:
        host.wait_for_function("() => !!window.conquestLiveRoom")
        host.wait_for_timeout(1000)  # the pool's offers are made (about 0.2 s)
        host.evaluate("() => conquestClockSkew(0)")  # the table is that old now
    return join


def _panel(page: Any) -> str:
    """A page's live panel in words, for a failure's message (never fails itself)."""
    try:
        return str(page.inner_text("#live-panel", timeout=2_000))[:600]
    except Exception as exc:  # noqa: BLE001 - only words for a message
        return f"(no panel: {type(exc).__name__})"


def sit(page: Any, join: str, name: str, seat: int, host: Any = None) -> None:
    """A guest opens the join link, types their name and takes ``seat``; a failure says what
    the guest's panel (and the ``host``'s, given) showed."""
    page.goto(join, wait_until="commit")
    guest_ready(page)
    page.fill("#live-name", name)
    page.dispatch_event("#live-name", "change")
    try:
        page.wait_for_selector(f"button[data-take='{seat}']", timeout=120_000)
        page.click(f"button[data-take='{seat}']")
        page.wait_for_function(f"() => document.getElementById('live-status').textContent.includes('You play {name}')")
    except Exception:
        where = "" if host is None else f" / host: {_panel(host)}"
        raise AssertionError(f"{name}: {_panel(page)}{where}") from None


def moves_shown(page: Any, n: int) -> None:
    """The Game of Conquests' move list shows at least ``n`` moves."""
    page.wait_for_function(f"() => document.querySelectorAll('#cq-moves .cq-ply').length >= {n}", timeout=60_000)


def type_duel(players: Sequence[Any], moves: Sequence[str], watchers: Sequence[Any] = ()) -> None:
    """A duel of The Game of Conquests typed move by move, each on the device of the player
    whose move it is (``players``: White's, then Black's; White moves first); after each,
    every device (and each of ``watchers``) shows it."""
    for i, move in enumerate(moves):
        mover, other = (players[0], players[1]) if i % 2 == 0 else (players[1], players[0])
        expect(mover.locator("#cq-typed")).to_be_visible(timeout=30_000)
        expect(other.locator("#cq-typed")).to_be_hidden()  # not their move: nothing to type
        mover.fill("#cq-typed-text", move)
        mover.press("#cq-typed-text", "Enter")
        for page in (*players, *watchers):
            moves_shown(page, i + 1)


def no_page_errors(*watches: Any) -> None:
    """The pages threw nothing (requests cut off by the test's own navigations forgiven)."""
    for w in watches:
        w.forgive_navigation_aborts()
        assert not w.page_errors, w.page_errors


def end_checks(*watches: Any, guests: Sequence[Any] = ()) -> None:
    """What a live test ends with: each of the ``guests``' pages asked for nothing of the
    engine (issue 37), and no page of ``watches`` threw."""
    for w in guests:
        no_engine_requested(w)
    no_page_errors(*watches)

"""Issue 21 at 1280x800, where only the browser shows it (the page logic is tested in CPython,
tests/test_page_results.py): the keyboard after a step and "Skip to content" (item 2), the
live region (item 10), the Metagame console's wheel and map labels (item 8), the message
box of The Game of Conquests (item 6), the offline copy's rules (item 9) and the landing
page's pictures and "Continue" (item 11).
"""
from __future__ import annotations

from pathlib import Path
from typing import Any

from conquest.core import get_game
from conquest.savecode import make_fragment
from conquest.session import Match
from tests.browser.conftest import ENGINE_TIMEOUT_MS
from tests.browser.test_offline_copy import Disk, download_copy
from tests.browser.test_world_page import late_position

DESK = {"width": 1280, "height": 800}


def overlaps(boxes: list[dict[str, float]]) -> list[tuple[int, int]]:
    out = []
    for i, a in enumerate(boxes):
        for j in range(i + 1, len(boxes)):
            b = boxes[j]
            if min(a["r"], b["r"]) > max(a["l"], b["l"]) + 0.5 and min(a["b"], b["b"]) > max(a["t"], b["t"]) + 0.5:
                out.append((i, j))
    return out


def test_skip_link_focus_after_a_step_and_the_live_region(open_page) -> None:  # noqa: ANN001
    """World: "Skip to content" is no game link; a trade from the placing panel keeps the
    focus in the panel (its button is gone after the trade) and is announced."""
    frag, _winner = late_position()
    w = open_page(f"play/world/#{frag}")
    page = w.page
    page.set_viewport_size(DESK)
    page.wait_for_selector("#wc-panel-inner[data-act='reinforce']", timeout=ENGINE_TIMEOUT_MS)
    page.focus("a.skip")  # shown when focused, as a keyboard user meets it
    page.keyboard.press("Enter")
    page.wait_for_timeout(300)
    assert page.locator("#shell-toast .shell-toast-box.error").count() == 0
    assert "#main" in page.url
    trade = page.locator(".wc-trade-offer button").first
    assert trade.is_visible() and trade.bounding_box()["y"] < DESK["height"]  # the trade, where one places
    trade.focus()
    page.keyboard.press("Enter")
    page.wait_for_function("document.getElementById('shell-announce').textContent.includes('trades')")
    assert page.evaluate("!!document.activeElement.closest('#wc-panel')"), page.evaluate(
        "document.activeElement.outerHTML.slice(0, 120)")
    # the result is beside the controls, in the first screen
    box = page.locator("#wc-panel #shell-result-inner").bounding_box()
    assert box is not None and box["y"] + box["height"] < DESK["height"]
    # the campaign page's skip link too
    page.goto(w.base_url + "play/campaign/")
    w.wait_engine()
    page.focus("a.skip")  # shown when focused, as a keyboard user meets it
    page.keyboard.press("Enter")
    page.wait_for_timeout(300)
    assert page.locator("#shell-toast .shell-toast-box.error").count() == 0
    w.forgive_navigation_aborts()
    w.assert_clean()


def test_console_wheel_in_view_when_spinning_and_labels_apart(open_page) -> None:  # noqa: ANN001
    from buildlib.previews import NAMES, SEED, _think
    from conquest.bots import levels
    from conquest.rng import Rng

    game = get_game("metagame")
    m = Match(game, {"players": [{"name": n} for n in NAMES], "seed": 0}, rng=Rng(SEED))
    bot = next(iter(levels(game).values()))(Rng(SEED))
    while game.view(m.state, None)["phase"] != "spin":
        m.resolve_chance()
        m.play(_think(game, bot, m.state))
    w = open_page(f"play/metagame/#{make_fragment(m.save().to_json(), 'h')}")
    page = w.page
    page.set_viewport_size(DESK)
    page.wait_for_selector("#mg-spin")
    page.evaluate("window.scrollTo(0, 0)")
    spin = page.locator("#mg-spin").bounding_box()
    wheel = page.locator("#mg-wheel-box").bounding_box()
    assert spin["y"] >= 0 and wheel["y"] + wheel["height"] <= DESK["height"], (spin, wheel)
    # the wheel's labels whole (two lines where needed), none cut
    labels = page.eval_on_selector_all("#mg-spinner text", "ts => ts.map(t => t.textContent)")
    titles = {g.get("title") or g["name"] for g in game.view(m.state, None)["games"]}
    assert labels and all(any(x.replace(" ", "") == t.replace(" ", "") for t in titles) for x in labels), labels
    # the map's labels as drawn: none overlaps another
    boxes = page.eval_on_selector_all(
        "#mg-map text.label",
        """ts => ts.filter(t => t.getClientRects().length && getComputedStyle(t).display !== 'none'
                && getComputedStyle(t.parentNode).display !== 'none')
            .map(t => { const r = t.getBoundingClientRect(); return {l: r.left, t: r.top, r: r.right, b: r.bottom}; })""",
    )
    assert len(boxes) >= 70 and overlaps(boxes) == [], overlaps(boxes)[:5]
    page.click("#mg-spin")  # the wheel turns in view
    page.wait_for_timeout(200)
    wheel = page.locator("#mg-wheel-box").bounding_box()
    assert wheel["y"] >= 0 and wheel["y"] + wheel["height"] <= DESK["height"]
    w.forgive_navigation_aborts()
    w.assert_clean()


def test_conquests_message_box_shows_its_last_line(open_page) -> None:  # noqa: ANN001
    save = Match(get_game("conquests"), {"position": "2gC2/6/6/6/6/G5 s b 0 1",
                                         "seats": [{"name": "Ann", "colour": "#fffdf6"},
                                                   {"name": "Bob", "colour": "#2d2a26"}]}).save().to_json()
    w = open_page(f"play/conquests/#{make_fragment(save, 'h')}")
    page = w.page
    page.set_viewport_size(DESK)
    page.wait_for_selector("#cq-sq-c6")
    page.click("#cq-sq-c6")
    page.click("#cq-sq-d6")
    page.wait_for_selector("#cq-status-box.is-place")
    assert page.inner_text("#cq-info-text").startswith("Black General moving from c6 to d6")
    clip = page.evaluate("(() => { const b = document.getElementById('cq-status-box');"
                         " return [b.scrollHeight, b.clientHeight]; })()")
    assert clip[0] <= clip[1] + 1, clip
    w.forgive_navigation_aborts()
    w.assert_clean()


def test_offline_copy_carries_its_rules(open_page, browser, tmp_path: Path) -> None:  # noqa: ANN001
    w = open_page("play/reign/")
    w.page.click("#shell-start")
    w.page.wait_for_selector("#shell-game:not([hidden])")
    path = tmp_path / "reign.html"
    download_copy(w.page, path)
    text = path.read_text(encoding="utf-8")
    assert 'id="offline-rules"' in text and 'href="#offline-rules"' in text
    disk = Disk(browser)
    try:
        copy: Any = disk.open(path)
        copy.click("#shell-rules-link")
        copy.wait_for_timeout(300)
        rules = copy.locator("#offline-rules")
        assert "To Reign Supreme" in rules.locator("h1").first.inner_text()
        top = rules.bounding_box()["y"]
        assert -2 <= top < 900  # scrolled to, within the copy
        assert copy.locator("#shell-toast .shell-toast-box.error").count() == 0
        disk.assert_clean()
    finally:
        disk.close()
    w.forgive_navigation_aborts()
    w.assert_clean()


def test_landing_page_pictures_and_continue_first(open_page) -> None:  # noqa: ANN001
    w = open_page("play/reign/")
    w.page.click("#shell-start")
    w.page.wait_for_selector("#shell-game:not([hidden])")
    page = w.page
    page.goto(w.base_url)
    w.wait_engine()
    page.set_viewport_size(DESK)
    link = page.locator("#continue-link")
    link.wait_for()
    assert link.inner_text().startswith("Continue: To Reign Supreme, step ")
    assert link.bounding_box()["y"] < page.locator("ul.cards").first.bounding_box()["y"]
    page.evaluate("document.querySelectorAll('.card-picture img').forEach(i => i.loading = 'eager')")
    page.wait_for_function("[...document.querySelectorAll('.card-picture img')].every(i => i.complete)")
    sizes = page.eval_on_selector_all(".card-picture img", "is => is.map(i => [i.getAttribute('src'), i.naturalWidth])")
    assert len(sizes) == 5 and all(width > 0 for _, width in sizes), sizes
    page.click("#continue-link")
    page.wait_for_selector("#shell-game:not([hidden])", timeout=ENGINE_TIMEOUT_MS)
    w.forgive_navigation_aborts()
    w.assert_clean()


class Keys:
    """A person at the keyboard alone: Tab to a control, keys on it; ``tabs`` counts every Tab."""

    LIMIT = 400

    def __init__(self, page: Any) -> None:
        self.page = page
        self.tabs = 0
        self.per: list[tuple[str, int]] = []

    def tab_to(self, selector: str) -> None:
        for n in range(self.LIMIT):
            if self.page.evaluate("(sel) => !!document.activeElement && document.activeElement.matches(sel)", selector):
                self.per.append((selector, n))
                return
            self.page.keyboard.press("Tab")
            self.tabs += 1
        raise AssertionError(f"{self.LIMIT} Tab presses never reached {selector}")

    def choose(self, t: int) -> None:
        """Territory ``t`` in the Choose list under the map: Tab to it, arrow keys, Tab to OK, Enter."""
        self.tab_to("#wc-choose-t")
        at, want = self.page.evaluate(
            "(t) => { const s = document.getElementById('wc-choose-t');"
            " return [s.selectedIndex, [...s.options].findIndex((o) => o.value === String(t))]; }", t)
        assert want >= 0, f"territory {t} is not in the Choose list"
        for _ in range(abs(want - at)):
            self.page.keyboard.press("ArrowDown" if want > at else "ArrowUp")
        assert self.page.input_value("#wc-choose-t") == str(t)
        self.tab_to("#wc-choose-go")
        self.page.keyboard.press("Enter")


def test_a_world_turn_by_keyboard_and_the_log_is_one_tab_stop(open_page) -> None:  # noqa: ANN001
    """Issue 21, item 2: a World turn (place every troop, attack until done, end the turn)
    with the keyboard alone, Tab to each control and the Choose list for the territories.
    The log's ~60 View buttons were ~60 Tab stops that every round trip from the panel back
    to the Choose list walked through (149 presses counted for one turn); they are one Tab
    stop now, arrow keys moving within the log (a roving tabindex)."""
    from conquest.games.world.rules import RULES
    from tests.browser.test_world_page import board, wait_act

    frag, _winner = late_position()
    w = open_page(f"play/world/#{frag}")
    page = w.page
    page.set_viewport_size(DESK)
    act, step = wait_act(page, None)
    assert act == "reinforce"
    keys = Keys(page)
    own, _troops = board(page)
    me = own[int(page.locator("#wc-map .territory.is-eligible").first.get_attribute("data-index") or 0)]
    keys.tab_to("#wc-place-all")
    page.keyboard.press("Enter")
    page.wait_for_function("document.getElementById('wc-place-n').value === document.getElementById('wc-place-n').max")
    fronts = [t for t in range(42) if own[t] == me and any(own[d] != me for d in RULES.adj[t])]
    front = min(fronts, key=lambda t: RULES.names[t])
    keys.choose(front)
    act, step = wait_act(page, step)
    assert act == "attack"
    own, _troops = board(page)
    enemy = next(d for d in RULES.adj[front] if own[d] != me)
    keys.choose(front)
    page.wait_for_selector("#wc-cancel")
    keys.choose(enemy)
    page.wait_for_selector("#wc-blitz")
    keys.tab_to("#wc-blitz")
    page.keyboard.press("Enter")
    act, step = wait_act(page, step)
    own, _troops = board(page)
    assert own[enemy] == me, "the attack until done did not take the territory (a 99% chance)"
    keys.tab_to("#wc-end")
    page.keyboard.press("Enter")
    page.wait_for_function(f"document.getElementById('wc-panel-inner').dataset.step !== '{step}'")
    print(f"World turn by keyboard: {keys.tabs} Tab presses ({keys.per})")
    assert keys.tabs <= 70, keys.per  # 303 before (60 View buttons in every round trip), 66 after
    # the log: one Tab stop, arrow keys within it (once the computers' turns are over)
    wait_act(page, step)
    views = page.locator("#shell-log button[data-view]")
    assert views.count() >= 20
    stops = page.eval_on_selector_all("#shell-log button[data-view]", "bs => bs.filter(b => b.tabIndex >= 0).length")
    assert stops == 1, f"{stops} of the log's View buttons are Tab stops"
    keys.tab_to("#shell-log button[data-view]")
    last = page.evaluate("document.activeElement.dataset.view")
    page.keyboard.press("ArrowUp")
    assert int(page.evaluate("document.activeElement.dataset.view")) == int(last) - 1
    page.keyboard.press("Home")
    first = page.evaluate("document.activeElement.dataset.view")
    assert first == views.first.get_attribute("data-view")
    page.keyboard.press("End")
    assert page.evaluate("document.activeElement.dataset.view") == last
    page.keyboard.press("ArrowUp")
    page.keyboard.press("Tab")  # out of the log in one press, whichever View had the focus
    assert not page.evaluate("!!document.activeElement.closest('#shell-log')")
    page.keyboard.press("Shift+Tab")  # and back to the View last moved to
    assert int(page.evaluate("document.activeElement.dataset.view")) == int(last) - 1

    w.forgive_navigation_aborts()
    w.assert_clean()


def test_world_names_at_the_whole_map_on_a_desktop(open_page) -> None:  # noqa: ANN001
    """Issue 21, left item 4: at 1280x800 World's whole map drew its names at 5.6 px, so
    they were hidden until zoomed in (0 of 42 names shown). Shown now where they can be: at
    least 9 px as drawn, 12 px for most, apart from each other and from the troop badges."""
    frag, _winner = late_position()
    w = open_page(f"play/world/#{frag}")
    page = w.page
    page.set_viewport_size(DESK)
    page.wait_for_selector("#wc-panel-inner[data-act='reinforce']", timeout=ENGINE_TIMEOUT_MS)
    page.wait_for_timeout(300)  # the map's size observed (mapview.js)

    def shown() -> list[dict[str, Any]]:
        return page.eval_on_selector_all(
            "#wc-map text.label",
            """ts => ts.filter(t => t.getClientRects().length && getComputedStyle(t.parentNode).display !== 'none')
                .map(t => { const r = t.getBoundingClientRect(), m = t.getScreenCTM();
                    return {l: r.left, t: r.top, r: r.right, b: r.bottom, id: t.id,
                            px: parseFloat(getComputedStyle(t).fontSize) * Math.hypot(m.a, m.b)}; })""",
        )

    names = shown()
    sizes = sorted(n["px"] for n in names) or [0.0]
    print(f"World at 1280x800, whole map: {len(names)} of 42 names shown, "
          f"{sum(p >= 12 for p in sizes)} at 12 px or more, smallest {sizes[0]:.1f} px")
    assert len(names) >= 25 and sizes[0] >= 9 and sum(p >= 12 for p in sizes) >= 20
    assert len({n["id"][len("wc-lm"):] for n in names}) == len(names)  # each name once
    assert overlaps(names) == []
    badges = page.eval_on_selector_all(
        "#wc-marks-inner circle.wc-badge",
        "cs => cs.map(c => { const r = c.getBoundingClientRect(); return {l: r.left, t: r.top, r: r.right, b: r.bottom}; })")
    assert len(badges) == 42
    hits = [(n["id"], j) for n in names for j in range(len(badges)) if overlaps([n, badges[j]])]
    assert hits == [], hits
    # zoomed in: every name, at the map's own size (the larger set is gone)
    page.click(".wc-maptools button[data-zoom='in']")
    page.click(".wc-maptools button[data-zoom='in']")
    page.wait_for_function("!document.getElementById('wc-map').classList.contains('labels-small')")
    inside = [n for n in shown() if n["id"].startswith("wc-l") and not n["id"].startswith("wc-lm")]
    assert inside and not [n for n in shown() if n["id"].startswith("wc-lm")]
    assert min(n["px"] for n in inside) >= 9
    w.assert_clean()

"""The metagame host console in a real browser (issue #4).

``test_campaign_by_clicking_and_typing`` plays a 3-player campaign through the page only
(clicks, keys, typed text): set-up with a preset, capitals, claims, an invasion with a
sacrifice, a block, a spin and a re-spin, undo, a reload in the middle of the invasion,
stepping back through the log, a capital invasion with two duels, the host link opened in
a fresh browser context and the view link refusing edits. Positions are built quickly with
the host's typed corrections (M17). The spin draws crypto randomness, so the test reads
the log and follows whichever branch the draw gives.

To decide what to type, the test decodes the page's own host link and replays it with the
engine (the page is the only player; the test never writes the page's storage).
"""

from __future__ import annotations

import json
import re
import tempfile
from pathlib import Path

from conquest.games.metagame import GAME
from conquest.savecode import make_fragment, parse_fragment
from conquest.session import Match
from tests.browser.conftest import click_territory as click_on_map

#: screenshots of what the tests look at (not committed; for people reviewing the pages)
SHOTS = Path(tempfile.gettempdir()) / "conquest-shots"
SHOTS.mkdir(exist_ok=True)
HOSTILE = "<i>Cy</i>"
HOSTILE_GAME = "<b>Go</b>"


def typed(page, text: str) -> None:
    page.fill("#mg-typed-text", text)
    page.press("#mg-typed-text", "Enter")


def pick(page, t: int) -> None:
    """Pick territory ``t`` with the keyboard: focus it on the map, press Enter."""
    page.locator(f"#mg-t{t}").focus()
    page.keyboard.press("Enter")


def reload(w) -> None:
    """Reload as a host closing and reopening the tab."""
    w.page.reload()
    w.wait_engine()


def click_territory(page, t: int) -> None:
    """A real mouse click on territory ``t`` of this page's map."""
    click_on_map(page, f"mg-t{t}")


def mirror(page) -> Match:
    """The campaign the page holds, from its own host link."""
    url = page.inner_text("#shell-host-url")
    _, save = parse_fragment(url.split("#", 1)[1])
    return Match(GAME, save["options"], save["log"])


def log_codes(page) -> list[str]:
    return page.locator("#shell-log li code").all_text_contents()


def prompt(page) -> str:
    return page.inner_text("#shell-prompt")


def wait_prompt(page, text: str) -> None:
    """Wait until the prompt says ``text`` (after a spin it says so once the wheel stops)."""
    page.wait_for_function(
        "t => document.getElementById('shell-prompt').textContent.includes(t)", arg=text, timeout=10_000
    )


def far_from(state, target: int, owner: int, n: int, avoid: set[int]) -> list[int]:
    """``n`` neutral territories at distance >= 2 from ``target`` and from each other's picks."""
    dist = state.board.dist
    out: list[int] = []
    for t in sorted(range(len(state.owner)), key=lambda t: -dist[target][t]):
        if state.owner[t] == -1 and t not in avoid and all(dist[t][u] >= 2 for u in out):
            out.append(t)
        if len(out) == n:
            break
    return out


def test_campaign_by_clicking_and_typing(open_page, browser, base_url, tmp_path) -> None:
    w = open_page("play/metagame/")
    page = w.page
    page.emulate_media(reduced_motion="reduce")  # the short spin (the other test sees the long one)
    assert page.locator("#mg-map .territory").count() == 100  # the map is in the HTML

    # -- set-up: names (one hostile), a typed game, a preset saved and reused ------------
    names = page.locator(".shell-seat input[type=text]")
    for i, name in enumerate(["Ann", "Bob", HOSTILE]):
        names.nth(i).fill(name)
    page.evaluate("localStorage.setItem('conquest:metagame:presets', '{not json')")  # damaged: ignored
    page.fill("#mg-typed-games", f"Chess on BoardGameArena\n{HOSTILE_GAME}")
    page.fill("#mg-preset-name", "Friday")
    page.click("#mg-preset-save")
    stored = json.loads(page.evaluate("localStorage.getItem('conquest:metagame:presets')"))
    assert stored["presets"][0]["name"] == "Friday" and HOSTILE_GAME in stored["presets"][0]["games"]
    page.fill("#mg-typed-games", "")
    page.select_option("#mg-preset", index=1)
    page.click("#mg-preset-use")
    assert "Chess on BoardGameArena" in page.input_value("#mg-typed-games")
    page.click("#shell-start")
    page.wait_for_selector("#shell-game:not([hidden])")

    # -- capitals by keyboard, one round of claims ---------------------------------------
    assert "pick a capital" in prompt(page)
    for _ in range(3):
        page.locator("#mg-territories .territory.is-eligible").first.focus()
        page.keyboard.press("Enter")
    assert page.locator("#mg-marks .cap-mark").count() == 3
    assert "claim a neutral territory" in prompt(page)
    typed(page, "i0")  # refused with the ruling's reason; nothing changes
    assert "M5" in page.inner_text("#shell-toast")
    assert len(log_codes(page)) == 3
    for _ in range(2):
        page.locator("#mg-territories .territory.is-eligible").first.focus()
        page.keyboard.press("Enter")
    # Cy claims with the mouse (the map's pointer handling turns a click into a pick)
    first = int(page.locator("#mg-territories .territory.is-eligible").first.get_attribute("data-index"))
    click_territory(page, first)
    assert [c[0] for c in log_codes(page)] == ["k", "k", "k", "c", "c", "c"]
    assert "Turn 3" in page.locator("#shell-log li").nth(5).inner_text()
    # names from the form are text, never markup
    assert HOSTILE in page.inner_text("#mg-players") and page.locator("#mg-players i").count() == 0

    # -- position for an invasion (host corrections, typed) ------------------------------
    m = mirror(page)
    st = m.state
    ann_cap, bob_cap = st.capital[0], st.capital[1]
    target = next(t for t in st.board.adj[ann_cap] if st.owner[t] == -1)
    taken = {target}
    ann_far = far_from(st, target, 0, 3, taken | set(st.board.adj[target]))
    taken |= set(ann_far)
    bob_far = far_from(st, target, 1, 2, taken | set(st.board.adj[target]))
    for t in ann_far:
        typed(page, f"!o{t}=0")
    for t in [target, *bob_far]:
        typed(page, f"!o{t}=1")
    typed(page, "!t0r=1")  # Ann holds a re-spin token
    page.click("#mg-tools summary")  # and Bob a block token, through the corrections form
    page.select_option("#mg-fix-tp", label="Bob")
    page.select_option("#mg-fix-tk", "b")
    page.fill("#mg-fix-tn", "1")
    page.click("#mg-fix-tokens button")
    assert log_codes(page)[-1] == "!t1b=1"
    assert "B1" in page.text_content("#mg-marks")

    # -- invasion: sacrifice, block ------------------------------------------------------
    pick(page, target)
    assert log_codes(page)[-1] == f"i{target}"
    assert "sacrifice up to" in prompt(page)
    assert "X = ZA + ZD" in page.inner_text("#mg-invasion")
    pick(page, ann_far[0])
    assert page.locator(f"#mg-t{ann_far[0]}.is-picked").count() == 1
    w.answers.append(True)  # spending territories asks first (issue 9 item 6)
    page.click("#mg-actions button:has-text('Sacrifice 1 selected')")
    assert "block" in prompt(page)
    pick(page, bob_far[0])
    w.answers.append(True)
    page.click("#mg-actions button:has-text('Block: sacrifice 1 of 1')")
    assert not w.answers  # both steps asked
    assert log_codes(page)[-2:] == [f"s{ann_far[0]}", f"b{bob_far[0]}"]

    # -- the attacker's slices: live validation, typed counts ----------------------------
    inv = mirror(page).state.inv
    assert "assign exactly" in prompt(page)
    # a game's name from the form is text, never markup
    assert HOSTILE_GAME in page.inner_text(".mg-slice-editor") and page.locator("#mg-invasion b").count() == 0
    counts = page.locator(".mg-slice-editor input[type=number]")
    counts.nth(0).fill(str(inv.cap_a))
    msgs = page.inner_text(".mg-slice-msgs")
    assert f"{inv.z_a - inv.cap_a} slice" in msgs and "left" in msgs and "more game" in msgs
    assert page.is_disabled("#mg-assign")
    left = inv.z_a - inv.cap_a
    for i in range(1, 5):
        if left <= 0:
            break
        take = min(inv.cap_a, left)
        counts.nth(i).fill(str(take))
        left -= take
    assert page.inner_text(".mg-slice-msgs").strip() == "ready"
    page.click("#mg-assign")
    assert log_codes(page)[-1].startswith("w")

    # -- the host closes the tab in the middle of the invasion and comes back ------------
    steps = len(log_codes(page))
    reload(w)
    assert len(log_codes(page)) == steps and "assign exactly" in prompt(page)
    page.locator(".mg-slice-editor input[type=number]").nth(1).fill("1")  # a draft survives too
    reload(w)
    assert page.locator(".mg-slice-editor input[type=number]").nth(1).input_value() == "1"
    page.click(".mg-slice-editor button:has-text('Fill for me')")
    page.click("#mg-assign")

    # -- spin, then the re-spin prompt -----------------------------------------------------
    x = mirror(page).state.inv.x
    assert page.locator(".mg-wheel .spinner path").count() == x
    assert page.locator("#mg-invasion b").count() == 0  # game names on the wheel are text
    assert page.locator(".mg-wheel-list li").count() >= 1
    page.click("#mg-actions button:has-text('Spin the wheel')")
    first = log_codes(page)[-1]
    assert re.fullmatch(r"r\d+ [\d,]+", first), first
    page.wait_for_selector(".mg-drawn")  # the result is shown when the wheel stops
    assert "Drawn: slice" in page.inner_text("#mg-invasion")
    assert "re-spin" in prompt(page)
    spend = GAME.sacrificable(mirror(page).state, 0, target)[0]
    w.answers.append(True)
    pick(page, spend)
    codes = log_codes(page)
    assert codes[-2] == f"x{spend}" and codes[-1].startswith("r")
    assert "Spin history (2 spins)" in page.inner_text("#mg-spins summary")
    wait_prompt(page, "record the winner")

    # -- the duel, undo, the duel again ------------------------------------------------------
    page.click("#mg-result button:has-text('(defender) won')")
    if "gift" in prompt(page):
        w.answers.append(True)
        page.locator("#mg-territories .territory.is-eligible").first.focus()
        page.keyboard.press("Enter")
    after = len(log_codes(page))
    for _ in range(2):  # the gift (if any), then the duel result
        page.click("#shell-undo")
        if "record the winner" in prompt(page):
            break
    assert "record the winner" in prompt(page) and len(log_codes(page)) < after
    page.click("#mg-result button:has-text('(attacker) won')")
    assert "wins and takes" in page.inner_text("#shell-log li:last-child")

    # -- step back through the log and come back -------------------------------------------
    page.click("#shell-log li:nth-child(4) button")
    assert page.is_visible("#shell-viewing .shell-viewing") and "Viewing step 4" in page.inner_text("#shell-viewing")
    assert page.locator("#mg-actions button").count() == 0
    assert page.locator(f"#mg-t{target}[style*='--owner-fill']").count() == 0  # neutral back then
    page.click("#shell-view-present")
    assert not page.is_visible("#shell-viewing .shell-viewing")

    # -- a capital invasion with two duels ------------------------------------------------
    page.click("#mg-actions button:has-text('Pass')")  # Bob
    page.click("#mg-actions button:has-text('Pass')")  # Cy
    st = mirror(page).state
    door = next(t for t in st.board.adj[bob_cap] if st.owner[t] != 1)
    typed(page, f"!o{door}=0")
    pick(page, bob_cap)
    assert "capital" in page.inner_text("#mg-invasion h3")
    if "sacrifice up to" in prompt(page):
        page.click("#mg-actions button:has-text('No sacrifice')")
    for _ in range(2):
        page.click(".mg-slice-editor button:has-text('Fill for me')")
        page.click("#mg-assign")
    page.click("#mg-actions button:has-text('Spin the wheel')")
    page.wait_for_selector(".mg-drawn")
    while "re-spin" in prompt(page):
        page.click("#mg-actions button:has-text('Keep the result')")
    assert "must win twice" in page.inner_text("#mg-result")
    page.click("#mg-result button:has-text('(attacker) won')")
    assert "second game" in prompt(page)
    page.click("#mg-result button:has-text('(attacker) won')")
    assert "eliminated" in page.inner_text("#shell-log li:last-child")
    assert page.locator("#mg-players tr.is-out").count() == 1
    assert page.locator("#shell-chart svg polyline").count() == 3
    steps = len(log_codes(page))
    with page.expect_download() as dl:
        page.click("#shell-download")
    campaign_file = tmp_path / dl.value.suggested_filename
    dl.value.save_as(campaign_file)
    host_url = page.inner_text("#shell-host-url")
    view_url = page.inner_text("#shell-view-url")
    w.forgive_navigation_aborts()
    assert int(re.search(r"([\d,]+) of 2,000", page.inner_text("#shell-host-len"))[1].replace(",", "")) == len(
        host_url
    )
    w.assert_clean()

    # -- the host link in a fresh browser: the campaign continues there --------------------
    ctx = browser.new_context(viewport={"width": 360, "height": 800})
    try:
        from tests.browser.conftest import watch

        other = watch(ctx.new_page(), base_url)
        other.page.goto(host_url)
        other.wait_engine()
        assert len(log_codes(other.page)) == steps
        other.page.click("#mg-actions button:has-text('Pass')")
        assert len(log_codes(other.page)) == steps + 1
        other.assert_clean()

        # -- the view link: read-only, edits refused ---------------------------------------
        viewer = watch(ctx.new_page(), base_url)
        viewer.page.goto(view_url)
        viewer.wait_engine()
        vp = viewer.page
        assert vp.is_visible("#shell-readonly-note") and not vp.is_visible("#mg-tools")
        assert not vp.is_visible("#mg-typed") and not vp.is_visible("#shell-undo")
        assert vp.locator("#mg-actions button").count() == 0
        vp.locator(f"#mg-t{target}").focus()
        vp.keyboard.press("Enter")
        assert "read-only" in vp.inner_text("#shell-toast")
        assert len(log_codes(vp)) == steps
        viewer.assert_clean()

        # -- the downloaded file opens on the set-up page of another browser ---------------
        other.page.goto(base_url + "play/metagame/")
        other.wait_engine()
        assert other.page.locator("#shell-saved-list li").count() >= 1  # resume what this browser holds
        other.page.set_input_files("#shell-import", str(campaign_file))
        other.page.wait_for_url("**/play/metagame/?slot=*")
        other.wait_engine()
        assert len(log_codes(other.page)) == steps
        other.forgive_navigation_aborts()
        other.assert_clean()
    finally:
        ctx.close()


def save_at_spin() -> dict:
    """A 3-player usa100 campaign whose next step is the host's spin."""
    m = Match(GAME, {"players": ["Ann", "Bob", "Cy"], "seed": 3})
    view = GAME.view(m.state, None)
    m.play(f"k{view['eligible']['territories'][0]}")
    while m.state.phase == "capital":
        m.play(str(GAME.legal_actions(m.state)[-1]))
    m.play(f"!o{m.state.board.adj[m.state.capital[0]][0]}=1")  # give Bob a territory next to Ann's capital
    target = m.state.board.adj[m.state.capital[0]][0]
    m.play(f"i{target}")
    while m.state.phase != "spin":
        m.play(str(GAME.legal_actions(m.state)[0]))
    return m.save().to_json()


def test_spin_animation_and_audience_view(open_page, context) -> None:
    """The wheel lands on the drawn slice; the audience tab follows the host's console."""
    save = save_at_spin()
    w = open_page("play/metagame/#" + make_fragment(save, "h"))
    page = w.page
    with context.expect_page() as popup:
        page.click("#mg-audience-open")
    aud = popup.value
    aud.wait_for_function("document.documentElement.dataset.engine === 'ready'", timeout=90_000)
    aud.wait_for_function("document.getElementById('shell-prompt').textContent.includes('spin the wheel')")
    assert not aud.is_visible("#mg-actions button") and not aud.is_visible("#shell-log")
    x = int(re.search(r"X = ZA \+ ZD = (\d+)", page.inner_text("#mg-invasion")).group(1))
    page.click("#mg-actions button:has-text('Spin the wheel')")
    k = int(re.match(r"r(\d+) ", log_codes(page)[-1]).group(1))
    aud.wait_for_selector(".mg-drawn")
    assert f"slice {k + 1} of {x}" in aud.inner_text(".mg-drawn")
    big = aud.locator("#mg-result .mg-result-game")  # the audience sees the result large
    assert big.is_visible() and float(big.evaluate("e => parseFloat(getComputedStyle(e).fontSize)")) >= 40
    page.wait_for_timeout(3600)  # the animation ends on the drawn slice
    for p in (page, aud):
        transform = p.eval_on_selector(".mg-wheel .spinner", "e => e.style.transform")
        angle = float(re.search(r"rotate\(([-\d.e]+)deg\)", transform).group(1))
        off = (angle + (k + 0.5) * 360 / x) % 360
        assert min(off, 360 - off) < 1e-6
    # an undo on the host takes the audience back too
    page.click("#shell-undo")
    assert "spin the wheel" in prompt(page)
    aud.wait_for_function("document.getElementById('shell-prompt').textContent.includes('spin the wheel')")
    # the speed figures, measured in this page (no assertion on time: only that they are shown)
    page.click("#mg-speed")
    page.wait_for_function("document.getElementById('mg-speed-out').dataset.result !== undefined")
    assert "Replay a 500-action campaign" in page.inner_text("#mg-speed-out")
    w.assert_clean()


def save_at_turn() -> tuple[dict, int]:
    """A 3-player campaign on Ann's first turn with Bob's territory beside her capital."""
    m = Match(GAME, {"players": ["Ann", "Bob", "Cy"], "games": ["conquests", "reign", "Chess", "Go"], "seed": 3})
    m.play(f"k{GAME.view(m.state, None)['eligible']['territories'][0]}")
    while m.state.phase == "capital":
        m.play(str(GAME.legal_actions(m.state)[-1]))
    target = m.state.board.adj[m.state.capital[0]][0]
    m.play(f"!o{target}=1")
    return m.save().to_json(), target


def active(page) -> str:
    return page.evaluate("document.activeElement ? document.activeElement.id : ''")


def test_keyboard_invasion_within_40_keys(open_page) -> None:
    """Issue 9 item 5: the map is one Tab stop with arrow keys and letters between territories
    and a drawn focus ring; after each step the focus goes to the next control; a whole
    invasion (declare, slices, spin, result) from the page's first Tab takes <= 40 keys."""
    save, target = save_at_turn()
    w = open_page("play/metagame/#" + make_fragment(save, "h"))
    page = w.page
    page.emulate_media(reduced_motion="reduce")
    names = Match(GAME, save["options"], save["log"]).state.board.names
    assert page.locator("#mg-map .territory[tabindex='0']").count() == 1  # one Tab stop
    # the map takes the width it has, its names >= 11 px on screen at 1280 (issue 9 item 13)
    assert page.evaluate("document.getElementById('mg-map').getBoundingClientRect().width") >= 800
    assert float(page.get_attribute("#mg-map", "data-label-px")) >= 11
    keys: list[str] = []

    def press(key: str) -> str:
        keys.append(key)
        page.keyboard.press(key)
        return active(page)

    while not active(page).startswith("mg-t"):
        press("Tab")
        assert len(keys) < 25, keys
    first = active(page)
    assert page.locator(f"#{first}.is-eligible").count() == 1  # the Tab stop rests on a choice
    cy_capital = Match(GAME, save["options"], save["log"]).state.capital[2]
    page.locator(f"#mg-t{cy_capital}").focus()  # not a choice: the toast says why (issue 9 item 9)
    page.keyboard.press("Enter")
    assert "must border one of Ann's" in page.inner_text("#shell-toast [role=status]")
    page.locator(f"#{first}").focus()
    ring = page.locator("#mg-map .focus-ring path").first
    assert ring.get_attribute("d") == page.get_attribute(f"#{first}", "d") and ring.is_visible()
    moved = press("ArrowRight")
    assert moved.startswith("mg-t") and moved != first  # arrows move between territories
    assert page.locator("#mg-map .territory[tabindex='0']").count() == 1
    letter = names[target][0].lower()
    while active(page) != f"mg-t{target}":  # a letter jumps to the choices with that initial
        press(letter)
        assert len(keys) < 40, keys
    press("Enter")
    assert log_codes(page)[-1] == f"i{target}"
    for _ in range(2):  # the slices of each side: the first count has the focus
        assert active(page) == "mg-count-0"
        assert press("Shift+Tab") == "mg-fill"
        assert press("Enter") == "mg-assign"
        press("Enter")
    assert active(page) == "mg-spin"
    page.set_viewport_size({"width": 360, "height": 740})  # a phone: the wheel is below the fold
    # names too small to read on the phone's whole map wait for a zoom
    page.wait_for_function("document.getElementById('mg-map').classList.contains('labels-small')")
    press("Enter")
    page.wait_for_selector(".mg-drawn")  # the wheel stopped: the next control has the focus
    page.wait_for_timeout(800)  # the smooth scroll
    box = page.locator("#mg-result").bounding_box()
    assert box is not None and 0 <= box["y"] and box["y"] + box["height"] <= 740, box  # scrolled into view
    result = page.locator("#mg-result .mg-result-game")
    assert result.is_visible() and result.inner_text() in page.inner_text(".mg-drawn")
    # on a phone the name is on the result's first line, after "The wheel drew", in larger
    # type than the words around it (issue 41: a line of its own pushed the duel's choice off
    # the screen)
    size = float(result.evaluate("e => parseFloat(getComputedStyle(e).fontSize)"))
    label = page.locator("#mg-result-text > .mg-result-label").first
    assert size >= 17 and size >= 1.2 * float(label.evaluate("e => parseFloat(getComputedStyle(e).fontSize)"))
    name_box, label_box = result.bounding_box(), label.bounding_box()
    assert name_box is not None and label_box is not None
    assert name_box["y"] < label_box["y"] + label_box["height"], (name_box, label_box)  # the same first line
    # every label on the wheel reads upright where it came to rest (its angle on screen)
    angles = page.evaluate(
        "[...document.querySelectorAll('#mg-spinner text')].map(t => { const m = t.getScreenCTM();"
        " return Math.atan2(m.b, m.a) * 180 / Math.PI; })"
    )
    assert angles and all(abs(a) <= 90.5 for a in angles), angles
    page.screenshot(path=str(SHOTS / "metagame-result-360.png"))
    page.set_viewport_size({"width": 1280, "height": 900})
    while "re-spin" in prompt(page):
        assert "Drawn: " in prompt(page)  # the re-spin choice names the drawn game
        page.wait_for_function("document.activeElement && document.activeElement.id === 'mg-keep'")
        press("Enter")
    page.wait_for_function("document.activeElement && document.activeElement.id === 'mg-won-a'")
    page.screenshot(path=str(SHOTS / "metagame-result-1280.png"))
    assert press("Tab") == "mg-won-d"
    press("Enter")
    assert "Bob earns a block token" in page.inner_text("#shell-log li:last-child")  # issue 9 item 11
    print(f"keyboard-only invasion: {len(keys)} key presses ({' '.join(keys)})")
    assert len(keys) <= 40, keys
    assert active(page).startswith("mg-t")  # the next player's turn: back on the map
    w.assert_clean()

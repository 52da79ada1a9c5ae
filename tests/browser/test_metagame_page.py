"""The metagame host console in a real browser: set-up, the map as the console, an invasion
through the wheel, undo, autosave across a reload, and the read-only view link."""

from __future__ import annotations

import re

from conquest.games.metagame import GAME
from conquest.savecode import make_fragment
from conquest.session import Match


def typed(page, text: str) -> None:
    page.fill("#mg-typed-text", text)
    page.press("#mg-typed-text", "Enter")


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


def test_new_campaign_capitals_and_claims_by_keyboard(open_page) -> None:
    w = open_page("play/metagame/")
    page = w.page
    assert page.locator("#mg-map .territory").count() == 100  # the map is in the HTML
    page.click("#mg-start")
    page.wait_for_selector("#mg-console:not([hidden])")
    assert "pick a capital" in page.inner_text("#mg-prompt")
    for _ in range(3):
        page.locator("#mg-territories .territory.is-eligible").first.focus()
        page.keyboard.press("Enter")
    assert "claim a neutral territory" in page.inner_text("#mg-prompt")
    assert page.locator("#mg-marks .cap-mark").count() == 3
    typed(page, "i0")  # refused: the reason cites the ruling, nothing changes
    assert re.search(r"M5", page.inner_text("#error-banner"))
    assert page.locator("#mg-log li").count() == 3
    page.locator("#mg-territories .territory.is-eligible").first.dispatch_event("click")
    assert page.locator("#mg-log li").count() == 4 and "claims" in page.inner_text("#mg-log")
    page.click("#mg-undo")
    assert page.locator("#mg-log li").count() == 3
    w.assert_clean()


def test_invasion_spin_lands_on_the_drawn_slice_and_reload_keeps_it(open_page, base_url) -> None:
    save = save_at_spin()
    w = open_page("play/metagame/#" + make_fragment(save, "h"))
    page = w.page
    assert "spin the wheel" in page.inner_text("#mg-prompt")
    x = int(re.search(r"X = ZA \+ ZD = (\d+)", page.inner_text("#mg-invasion")).group(1))
    assert page.locator(".mg-wheel .spinner path").count() == x
    page.click("#mg-actions button:has-text('Spin the wheel')")
    last = page.locator("#mg-log li code").last.inner_text()
    k, total = map(int, re.match(r"r(\d+)/(\d+) ", last).groups())
    assert total == x
    page.wait_for_timeout(3600)  # the animation ends on the drawn slice
    angle = float(
        re.search(
            r"rotate\(([-\d.e]+)deg\)", page.eval_on_selector(".mg-wheel .spinner", "e => e.style.transform")
        ).group(1)
    )
    assert (
        abs((angle + (k + 0.5) * 360 / x) % 360) < 1e-6
        or abs((angle + (k + 0.5) * 360 / x) % 360 - 360) < 1e-6
    )
    assert "record the winner" in page.inner_text("#mg-prompt") or "re-spin" in page.inner_text("#mg-prompt")
    steps = page.locator("#mg-log li").count()
    assert re.search(r"\d[\d,]* characters", page.inner_text("#mg-host-len"))
    page.reload()
    w.wait_engine()
    assert page.locator("#mg-log li").count() == steps  # autosaved
    view_url = page.inner_text("#mg-view-url")
    v = open_page(view_url[len(base_url) :])
    assert v.page.is_visible("#mg-readonly") and not v.page.is_visible("#mg-tools")
    assert v.page.locator("#mg-actions button").count() == 0
    w.assert_clean()
    v.assert_clean()

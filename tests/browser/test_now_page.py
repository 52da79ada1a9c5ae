"""``static/guest-dom.js`` brings a tap's result and the next decision into view (issue 41):
when the host says an update follows the device's tap or a step (``"now": true``), the
elements marked ``data-now`` are scrolled into the screen (both when they fit; else the next
decision), in the page or in the phone's sheet under the map (``.play-sheet``); an update
without it (a timer's) leaves the person's scrolling alone. And the shell's message is docked
under the status bar once a game shows (``dockToast``). Chromium, the site's CSP, reduced
motion (no smooth scrolling to wait for).
"""
from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import pytest

import build
from tests.browser.conftest import watch
from tests.browser.tapwalk import out_of_view

PAGE = f"""<!doctype html>
<html lang="en"><head><meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="{build.CONTENT_SECURITY_POLICY}">
<title>A guest page</title></head>
<body><div id="shell-toast"></div><section id="shell-setup" hidden></section>
<section id="shell-game" hidden><div id="shell-top"><div id="shell-bar"></div></div><div id="nw-a"></div></section>
</body></html>"""


def gap(px: int) -> dict[str, Any]:
    return {"g": "div", "a": {"style": f"height: {px}px"}}


def marked(kind: str, text: str, px: int = 40) -> dict[str, Any]:
    return {"g": "p", "a": {"id": f"nw-{kind}", "data-now": kind, "style": f"height: {px}px; margin: 0"}, "c": [text]}


class View:
    def __init__(self, page: Any) -> None:
        self.page = page
        self.n = 0

    def send(self, containers: dict[str, Any], **extra: Any) -> None:
        msg = {"t": "ui", "n": self.n + 1, "full": True, "c": containers, **extra}
        got = self.page.evaluate("(text) => window.view.apply(JSON.parse(text))", json.dumps(msg))
        assert got["applied"], got
        self.n += 1

    def y(self) -> float:
        return float(self.page.evaluate("scrollY"))


@pytest.fixture
def view(browser: Any, base_url: str) -> Iterator[View]:
    ctx = browser.new_context(viewport={"width": 360, "height": 740}, reduced_motion="reduce")
    page = ctx.new_page()
    w = watch(page, base_url)
    page.route(base_url + "now-test/", lambda route: route.fulfill(body=PAGE, content_type="text/html"))
    page.goto(base_url + "now-test/")
    page.evaluate(
        """async (url) => {
            const { createView } = await import(url);
            window.view = createView({ send: () => {} });
        }""",
        base_url + "static/guest-dom.js",
    )
    yield View(page)
    w.assert_clean()
    ctx.close()


def test_a_tap_brings_the_result_and_the_next_decision_into_view(view: View) -> None:
    page = {"nw-a": [gap(1500), marked("result", "Ann rolled 6, 5, 1"), gap(300), marked("next", "End the turn"), gap(2000)]}
    view.send(page, hide={"shell-game": False})
    assert view.y() == 0
    assert out_of_view(view.page)  # drawn far below: no "now", no scroll
    view.send(page, now=True)
    assert out_of_view(view.page) == []
    bottom = view.page.evaluate("document.getElementById('nw-next').getBoundingClientRect().bottom")
    assert 735 <= bottom <= 740.5  # the least scroll: the next decision just at the foot
    # the person scrolls away; a timer's update (no "now") leaves them there
    view.page.evaluate("scrollTo(0, 100)")
    view.send(page)
    assert view.y() == 100


def test_when_both_do_not_fit_the_next_decision_wins(view: View) -> None:
    view.send({"nw-a": [gap(200), marked("result", "The battle"), gap(1500), marked("next", "Choose a card"), gap(2000)]},
              hide={"shell-game": False}, now=True)
    nxt = view.page.evaluate("document.getElementById('nw-next').getBoundingClientRect().bottom")
    assert 700 <= nxt <= 741  # the next decision at the foot, as much of what is above as fits


def test_in_the_sheet_under_the_map_the_sheet_scrolls_and_the_map_stays(view: View) -> None:
    sheet = {"g": "div", "a": {"class": "play-sheet", "style": "height: 300px; overflow-y: auto"},
             "c": [gap(900), marked("result", "Last roll: 6 5"), marked("next", "End the turn"), gap(900)]}
    view.send({"nw-a": [{"g": "div", "a": {"id": "nw-map", "style": "height: 380px"}}, sheet]},
              hide={"shell-game": False}, now=True)
    assert out_of_view(view.page) == []
    assert view.page.evaluate("document.getElementById('nw-map').getBoundingClientRect().top") >= -0.5 - 60


def test_the_message_is_docked_under_the_status_bar_once_a_game_shows(view: View) -> None:
    parent = "() => document.getElementById('shell-toast').parentElement.id"
    view.send({"nw-a": []}, hide={"shell-game": True})
    assert view.page.evaluate(parent) == ""  # above the set-up (the body)
    view.send({"nw-a": []}, hide={"shell-game": False})
    assert view.page.evaluate(parent) == "shell-top"

"""Issue 40: a Short Campaign question with a picture, on the page at 360 px and 1280 px.

A seeded game (Ann here, two computer players) is opened from its link just as a battle
question with a picture is put to Ann: the game is played by the computer for every seat in
CPython until the first such question (the flag, emoji and element-card categories only,
with the varied draw), and its log, cut there, is Ann's link. On the page the picture is the
site's own file (``pictures/<kind>/<key>.svg``, copied by the build), loaded and drawn large
above the options with its text alternative for screen readers, and the question, the picture
and the first option are on the first screen at both widths. After Ann answers, the reveal
draws the same picture small. Screenshots: ``<tmp>/conquest-shots/campaign-picture-*.png``.
"""
from __future__ import annotations

import tempfile
from pathlib import Path
from typing import Any

import pytest

from conquest.bots import play_match
from conquest.games.campaign import GAME
from conquest.games.campaign.bots import CampaignBot
from conquest.games.campaign.questions import load_bank
from conquest.rng import Rng
from conquest.savecode import make_fragment
from conquest.session import Match
from tests.browser.conftest import watch

SHOTS = Path(tempfile.gettempdir()) / "conquest-shots"
SHOTS.mkdir(exist_ok=True)
SEATS = [{"name": "Ann", "colour": "#e69f00"}, {"name": "Bob", "colour": "#56b4e9", "bot": "Medium"},
         {"name": "Cy", "colour": "#009e73", "bot": "Medium"}]
#: the picture categories and one with guess questions for the expansion round
OPTIONS = {"seats": SEATS, "seconds": 60, "mix": True, "categories": ["flags", "emoji", "elements"]}


def picture_link(kind: str) -> tuple[str, dict[str, Any]]:
    """A host link whose game puts a question with a picture of ``kind`` (flag, emoji) to Ann
    (seat 0) now, and that question's public data (text, options, picture)."""
    bank = load_bank()
    cut: list[list[str]] = []

    def on_step(m: Match) -> None:
        s = m.state
        q = bank.questions.get(s.question) if s.question else None
        if not cut and q is not None and q.picture is not None and q.picture.kind == kind and 0 in s.asked:
            cut.append(list(m.log))

    bots = {"seats": [{**seat, "bot": "Medium"} for seat in SEATS], **{k: v for k, v in OPTIONS.items() if k != "seats"}}
    play_match(GAME, bots, lambda seat: CampaignBot(Rng(100 + seat)), Rng(7), max_actions=400, on_step=on_step)
    assert cut, f"no {kind} question reached Ann in this seeded game"
    m = Match(GAME, OPTIONS, cut[0])
    q = bank.questions[m.state.question]
    return make_fragment(m.save().to_json(), "h"), q.public()


@pytest.mark.parametrize("width,height,kind", [(360, 740, "flag"), (1280, 800, "emoji")])
def test_a_picture_question_on_the_page(browser: Any, base_url: str, width: int, height: int, kind: str) -> None:
    frag, question = picture_link(kind)
    pic = question["picture"]
    phone = width < 600
    ctx = browser.new_context(viewport={"width": width, "height": height}, has_touch=phone, is_mobile=phone)
    try:
        page = ctx.new_page()
        w = watch(page, base_url)
        page.goto(f"{base_url}play/campaign/#{frag}")
        w.wait_engine()
        page.wait_for_function("document.getElementById('cp-stage-inner')?.dataset.act === 'answer-choice'",
                               timeout=60_000)
        img = page.locator("#cp-question .cp-picture img")
        img.wait_for()
        page.wait_for_function("document.querySelector('#cp-question .cp-picture img').complete")
        got = img.evaluate("i => ({src: i.getAttribute('src'), alt: i.alt, w: i.naturalWidth, "
                           "box: i.getBoundingClientRect().toJSON()})")
        assert got["src"].endswith(f"pictures/{kind}/{pic['key']}.svg"), got
        assert got["w"] > 0, f"the picture did not load: {got}"  # the site's own file, served
        assert got["alt"] == pic["alt"] and got["alt"], got
        box = got["box"]
        assert box["height"] >= 60 and box["width"] >= 60, f"the picture is drawn too small: {box}"
        # the question, the picture and the first option on the first screen, no swipe
        first = page.locator("#cp-question button").first.bounding_box()
        assert first is not None and first["y"] + first["height"] <= height, (first, height)
        assert box["y"] >= 0 and box["y"] + box["height"] <= height, box
        assert box["x"] >= 0 and box["x"] + box["width"] <= width, box
        assert page.evaluate("document.documentElement.scrollWidth") <= width  # nothing wider than the screen
        page.screenshot(path=str(SHOTS / f"campaign-picture-{kind}-{width}.png"))
        # Ann answers; the reveal draws the same picture, small
        page.locator("#cp-question button").first.click()
        page.wait_for_selector("#cp-reveal .cp-picture.is-small", timeout=60_000)
        page.screenshot(path=str(SHOTS / f"campaign-picture-{kind}-reveal-{width}.png"))
        w.assert_clean()
    finally:
        ctx.close()

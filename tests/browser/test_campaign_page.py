"""The Short Campaign page in a real browser: one person and two computer players, to the end.

The page's logic is tested in CPython (tests/test_page_campaign.py); this keeps the glue:
the build-time map takes clicks, the question screen takes clicks, number keys and a typed
guess with Enter, the countdown ticks, the bots play through the shell's runner, and the game
ends with its winner, with no console error. The person answers at once and skips the pause
after each reveal ("Show the question now"), so the game takes well under a minute of play.
Before it, the set-up's file input reads a broken question pack (its problems listed as
text) and a good one, which is then removed again.
"""
from __future__ import annotations

import json
from pathlib import Path

from tests.browser.conftest import click_territory as click_on_map

HOSTILE = "<img src=x onerror=alert(1)>"
PACK = Path(__file__).resolve().parent.parent / "data" / "campaign_pack.json"
#: what the stage waits for when the person must act, and the end
ACTING = ("hold", "answer-guess", "answer-choice", "pick", "attack", "over")


def stage(page) -> tuple[str, str]:
    el = page.locator("#cp-stage-inner")
    return str(el.get_attribute("data-act")), str(el.get_attribute("data-step"))


def wait_acting(page, last_step: str | None) -> tuple[str, str]:
    """Until the person must act (or the game is over) at a step other than ``last_step``."""
    page.wait_for_function(
        """([acting, last]) => {
            const el = document.getElementById('cp-stage-inner');
            return el && acting.includes(el.dataset.act) && (el.dataset.step !== last || el.dataset.act === 'hold');
        }""",
        arg=[list(ACTING), last_step or ""],
        timeout=30_000,
    )
    return stage(page)


def click_territory(page, t: int) -> None:
    """A real mouse click on territory ``t`` of this page's map."""
    click_on_map(page, f"cp-t{t}")


def play_to_the_end(page, counts: dict[str, int]) -> None:
    """The person's side of one game, by every input the page takes, counted in ``counts``."""
    step: str | None = None
    for _ in range(400):
        act, step = wait_acting(page, step)
        if act == "over":
            break
        if act == "hold":
            counts["hold"] += 1
            page.click("#cp-go")
            page.wait_for_function("document.getElementById('cp-stage-inner').dataset.act !== 'hold'")
            step = None
            continue
        if act == "answer-guess":
            low = int(page.get_attribute("#cp-guess", "min") or 0)
            high = int(page.get_attribute("#cp-guess", "max") or 0)
            assert page.evaluate("document.activeElement.id") == "cp-guess"  # focused for typing
            if counts["guess"] == 0:  # the countdown ticks (host.later), focus and all
                shown = page.inner_text("#cp-secs")
                page.wait_for_function("t => document.getElementById('cp-secs').textContent !== t", arg=shown)
                assert int(page.inner_text("#cp-secs").split()[0]) < int(shown.split()[0])
                assert page.evaluate("document.activeElement.id") == "cp-guess"
            page.keyboard.type(str((low + high) // 3))
            page.keyboard.press("Enter")
            counts["guess"] += 1
        elif act == "answer-choice":
            if counts["key"] <= counts["click"]:
                assert page.evaluate("document.activeElement.id") == "cp-opt-0"
                page.keyboard.press("2" if counts["key"] % 2 == 0 else "c")
                counts["key"] += 1
            else:
                page.click("#cp-opt-0")
                counts["click"] += 1
        else:  # pick or attack: on the map, now and then from the list below it
            choices = page.locator("#cp-map .territory.is-eligible")
            assert choices.count() > 0
            if counts["map"] <= 2 * counts["list"]:
                click_territory(page, int(choices.first.get_attribute("data-index") or 0))
                counts["map"] += 1
            else:
                page.locator("#cp-choose-inner button").first.click()
                counts["list"] += 1
    else:
        raise AssertionError("the game did not end")


def test_a_whole_game_with_one_person_and_two_bots(open_page, tmp_path: Path) -> None:
    w = open_page("play/campaign/")
    page = w.page
    assert page.locator("#cp-map .territory").count() == 15  # the map is in the HTML
    page.fill("#seat-name-0", HOSTILE)
    assert page.input_value("#seat-who-1") == "Medium" and page.input_value("#seat-who-2") == "Medium"
    page.wait_for_selector("#cp-cat-capitals")  # the categories need the engine

    # a question pack from a file: a broken one says why (as text), a good one loads
    broken = tmp_path / "broken.json"
    broken.write_text(json.dumps({"title": HOSTILE, "questions": [{"type": "riddle", "text": HOSTILE}]}))
    page.set_input_files("#cp-pack-file", str(broken))
    page.wait_for_selector("#cp-pack-problems li")
    assert '"type" must be "choice" or "guess"' in page.inner_text("#cp-pack-problems")
    page.set_input_files("#cp-pack-file", str(PACK))
    page.wait_for_selector("#cp-pack-title")
    assert page.inner_text("#cp-pack-title") == "“Test pack”"
    assert not page.is_checked("#cp-cat-capitals") and "16 guess" not in page.inner_text("#cp-count")
    page.click("#cp-pack-remove")
    page.wait_for_selector("#cp-pack-title", state="detached")
    assert page.is_checked("#cp-cat-capitals")
    page.click("#shell-start")
    page.wait_for_selector("#shell-game:not([hidden])")

    counts = {"key": 0, "click": 0, "guess": 0, "hold": 0, "map": 0, "list": 0}
    for game in range(3):  # games are not seeded: one where the person never wins a pick is replayed
        if game:
            page.click("#shell-rematch")
            page.wait_for_function("document.getElementById('cp-stage-inner').dataset.act !== 'over'")
        play_to_the_end(page, counts)
        final = page.inner_text("#cp-final")
        assert "wins with" in final and "points" in final
        assert "wins with" in page.inner_text("#shell-prompt")
        if counts["map"] >= 1:
            break
    assert counts["key"] >= 1 and counts["click"] >= 1 and counts["guess"] >= 3 and counts["map"] >= 1, counts
    assert page.locator("img[src=x]").count() == 0 and HOSTILE in page.inner_text("#cp-score")
    assert page.locator("#shell-log li").count() > 20
    w.assert_clean()


def test_a_link_to_a_game_saved_before_the_bank_was_rebuilt_opens(open_page) -> None:
    """A link made by the engine and bank of cf13780 (tests/data/campaign_save_2026-11-22.json):
    the page fetches the earlier editions' questions (kept out of app.zip) only then, replays
    the game to the same end, and says it was played with an earlier edition's questions."""
    from conquest.savecode import make_fragment

    save = json.loads((Path(__file__).resolve().parent.parent / "data" / "campaign_save_2026-11-22.json").read_text())
    w = open_page("play/campaign/#" + make_fragment(save, "h"), wait=None)
    fetched: list[str] = []  # the engine starts seconds after the load event: in time
    w.page.on("request", lambda req: fetched.append(req.url) if "/py/lazy/" in req.url else None)
    w.wait_engine("ready")
    page = w.page
    page.wait_for_selector("#cp-edition")
    assert "earlier edition of the question bank" in page.inner_text("#cp-edition")
    assert "Cleo wins with 4,500 points" in page.inner_text("#shell-prompt")
    assert "Lahore (Pakistan) to Shenyang (China)" in page.inner_text("#cp-reveal")
    assert "4,459 km" in page.inner_text("#cp-right")
    assert len(fetched) == 1 and fetched[0].endswith("/py/lazy/campaign_questions.json")
    w.assert_clean()


def test_an_old_game_made_into_an_offline_copy_plays_from_disk(open_page, browser, tmp_path: Path) -> None:
    """The copy of an old game carries the earlier editions' questions it needs (they are not
    in app.zip) and replays from disk with no request."""
    from conquest.savecode import make_fragment
    from tests.browser.test_offline_copy import Disk, download_copy

    save = json.loads((Path(__file__).resolve().parent.parent / "data" / "campaign_save_2026-11-22.json").read_text())
    w = open_page("play/campaign/#" + make_fragment(save, "h"))
    w.page.wait_for_selector("#cp-edition")
    path = tmp_path / "old.html"
    download_copy(w.page, path)
    assert path.read_text(encoding="utf-8").count("data-offline-lazy=") == 1
    disk = Disk(browser)
    try:
        copy = disk.open(path)
        copy.wait_for_selector("#cp-edition")
        assert "Cleo wins with 4,500 points" in copy.inner_text("#shell-prompt")
        copy.close()
        disk.assert_clean()
    finally:
        disk.close()


def test_an_old_link_opens_offline_once_the_site_was_visited(browser, base_url: str) -> None:
    """The service worker caches the earlier editions' questions with the rest of the site,
    and the page's fetch of them is answered from that cache offline."""
    from conquest.savecode import make_fragment
    from tests.browser.conftest import watch

    save = json.loads((Path(__file__).resolve().parent.parent / "data" / "campaign_save_2026-11-22.json").read_text())
    context = browser.new_context(viewport={"width": 360, "height": 800})
    try:
        page = context.new_page()
        w = watch(page, base_url)
        page.goto(base_url + "play/campaign/")
        w.wait_engine()
        page.evaluate("navigator.serviceWorker.ready.then(() => true)")
        page.reload()
        page.wait_for_function("navigator.serviceWorker.controller !== null", timeout=60_000)
        w.wait_engine()
        context.set_offline(True)
        try:
            page.goto(base_url + "play/campaign/?offline=1#" + make_fragment(save, "h"))
            w.wait_engine()
            page.wait_for_selector("#cp-edition")
            assert "Cleo wins with 4,500 points" in page.inner_text("#shell-prompt")
        finally:
            context.set_offline(False)
    finally:
        context.close()

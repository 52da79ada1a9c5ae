"""The page's own limits with hostile and heavy input (issue 20): in a real browser, under
Pyodide, where the stack is far smaller than CPython's and a fatal error ends the engine.

Each game page opens a link nested 4,700 lists deep (102 characters: before, Pyodide
suffered a fatal "Maximum call stack size exceeded" and the link stayed in the address, so
"Reload to try again" failed again), then, in the same page, a long accepted game: the page
stays alive and answers. How long the main thread was blocked is printed by
``bench/hostile_page.py`` (the Long Tasks API); tests never assert on time.
"""
from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tests.browser.conftest import watch
from tools.hostile import game_ids, long_match, nesting_fragment

REFUSED = "That link could not be opened"


def take_the_device(page: Any) -> None:
    """A hot-seat game with something private opens behind a pass screen, where only Ready
    reacts (issue 19): the person to act takes the device first."""
    ready = page.locator("#shell-ready")
    if ready.count() and ready.is_visible():
        ready.click()
        ready.wait_for(state="detached")


@pytest.mark.parametrize("game_id", game_ids())
def test_a_nesting_link_is_refused_then_a_long_game_opens_in_the_same_page(context, base_url: str, game_id: str) -> None:
    match = long_match(game_id)
    page = context.new_page()
    w = watch(page, base_url)
    page.goto(f"{base_url}play/{game_id}/#{nesting_fragment(game_id)}")
    w.wait_engine()  # before: "failed", Pyodide's fatal error
    toast = page.locator("#shell-toast")
    toast.get_by_text(REFUSED).wait_for()
    assert "nest deeper than" in toast.inner_text()
    assert page.evaluate("location.hash") == ""  # a reload starts clean
    # the engine is alive: the worst accepted link of this game opens in the same page
    from conquest.savecode import make_fragment

    page.evaluate("(f) => { location.hash = f; }", make_fragment(match.save().to_json(), "h"))
    page.wait_for_function(f"document.querySelector('.shell-stepno') && "
                           f"document.querySelector('.shell-stepno').textContent.startsWith('Step {len(match.log)}')")
    assert "slot=" in page.url and page.evaluate("location.hash") == ""
    # and it answers: the log's action codes are shown at a click
    take_the_device(page)
    page.click("#shell-show-codes")
    page.wait_for_function("document.getElementById('shell-log').classList.contains('show-codes')")
    page.evaluate("localStorage.clear()")
    w.forgive_navigation_aborts()
    w.assert_clean()


def test_a_nested_pack_is_refused_and_a_good_pack_still_loads(context, base_url: str, tmp_path: Path) -> None:
    """Item 3: before, a pack nested 100,000 deep (200 KB) stopped Pyodide, and every later
    file pick failed with "SystemError: Cannot enter a promising task"."""
    bad = tmp_path / "nested.json"
    bad.write_text("[" * 100_000 + "]" * 100_000)
    page = context.new_page()
    w = watch(page, base_url)
    page.goto(base_url + "play/campaign/")
    w.wait_engine()
    page.set_input_files("#cp-pack-file", str(bad))
    page.locator("#cp-pack-problems").get_by_text("brackets nest too deeply").wait_for()
    page.set_input_files("#cp-pack-file", str(Path(__file__).parent.parent / "data" / "campaign_pack.json"))
    page.locator("#cp-pack-title").wait_for()
    assert "Test pack" in page.inner_text("#cp-pack-title")
    w.assert_clean()


DISABLED = "Object.defineProperty(window, 'localStorage', {get() { throw new DOMException('denied', 'SecurityError'); }});"


@pytest.mark.parametrize("game_id", ["world", "campaign"])
def test_with_storage_disabled_a_link_and_its_moves_survive_a_reload(context, base_url: str, game_id: str) -> None:
    """Item 9: before, the page replaced the link with ``?slot=<id>`` of a slot held only in
    memory, and a reload lost the game and every move."""
    from conquest.savecode import make_fragment, parse_fragment

    match = long_match(game_id, 40)
    context.add_init_script(DISABLED)
    page = context.new_page()
    w = watch(page, base_url)
    page.goto(f"{base_url}play/{game_id}/#{make_fragment(match.save().to_json(), 'h')}")
    w.wait_engine()
    n = len(match.log)
    assert page.inner_text(".shell-stepno").startswith(f"Step {n}")
    assert "slot=" not in page.url and "storage is disabled" in page.inner_text("#shell-toast")
    _, save = parse_fragment(page.evaluate("location.hash"))
    assert save["log"] == match.log
    take_the_device(page)
    w.answers.append(True)  # Undo asks first where something is private (issue 19)
    page.click("#shell-undo")  # a move made with storage disabled
    page.wait_for_function(f"!document.querySelector('.shell-stepno').textContent.startsWith('Step {n}')")
    w.answers.clear()  # asked or not, nothing more is expected
    step = page.inner_text(".shell-stepno").split(" ")[1]
    _, save = parse_fragment(page.evaluate("location.hash"))
    assert len(save["log"]) == int(step) < n and "slot=" not in page.url
    page.reload()
    w.wait_engine()
    assert page.inner_text(".shell-stepno").startswith(f"Step {step}")  # the game and the move are kept
    w.forgive_navigation_aborts()
    w.assert_clean()

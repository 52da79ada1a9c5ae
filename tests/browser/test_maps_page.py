"""The Maps page: all three maps drawn at build time, pan/zoom/info working without Python."""

from __future__ import annotations

from typing import Any

import pytest

MAPS = {"usa100": 100, "world42": 42, "campaign15": 15}


def _open(open_page: Any) -> Any:
    # the maps and their viewer work before (and without) the engine: do not wait for it
    w = open_page("maps/", wait=None)
    w.page.wait_for_selector("#usa100-t-chicago")
    return w


def test_maps_are_drawn_and_labelled(open_page: Any) -> None:
    w = _open(open_page)
    page = w.page
    for map_id, n in MAPS.items():
        assert page.locator(f"#map-{map_id} svg .territory").count() == n
        assert page.locator(f"#map-{map_id} svg text.label").count() == n
    assert page.locator("#map-usa100 svg .sea-link").count() >= 1
    assert page.locator("#map-world42 svg .sea-link").count() >= 24
    chicago = page.locator("#usa100-t-chicago")
    assert chicago.get_attribute("aria-label") == "Chicago"
    assert chicago.get_attribute("tabindex") == "0"
    w.wait_engine("ready")
    w.assert_clean()


def test_hover_focus_and_keyboard(open_page: Any) -> None:
    w = _open(open_page)
    page = w.page
    page.hover("#usa100-t-chicago")
    info = page.locator("#map-usa100 .map-info")
    assert "Chicago" in info.inner_text() and "Indianapolis" in info.inner_text()
    assert "is-neighbour" in (page.get_attribute("#usa100-t-indianapolis", "class") or "")
    page.focus("#world42-t-alaska")
    text = page.locator("#map-world42 .map-info").inner_text()
    assert "Alaska" in text and "Kamchatka" in text
    page.keyboard.press("+")
    assert float(page.get_attribute("#map-world42 svg", "data-zoom")) > 1
    page.keyboard.press("ArrowLeft")
    page.keyboard.press("0")
    assert page.get_attribute("#map-world42 svg", "data-zoom") == "1.00"
    page.keyboard.press("Tab")
    assert page.evaluate("document.activeElement.id").startswith("world42-t-")
    page.keyboard.press("Enter")
    assert "is-selected" in page.evaluate("document.activeElement.getAttribute('class')")
    w.assert_clean()


def test_wheel_drag_and_buttons(open_page: Any) -> None:
    w = _open(open_page)
    page = w.page
    svg = page.locator("#map-usa100 svg")
    svg.scroll_into_view_if_needed()
    box = svg.bounding_box()
    assert box is not None
    page.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    page.mouse.wheel(0, -500)
    page.wait_for_function("Number(document.querySelector('#map-usa100 svg').dataset.zoom) > 1")
    before = page.get_attribute("#map-usa100 svg g.viewport", "transform")
    page.mouse.down()
    page.mouse.move(box["x"] + box["width"] / 3, box["y"] + box["height"] / 3, steps=6)
    page.mouse.up()
    assert page.get_attribute("#map-usa100 svg g.viewport", "transform") != before
    page.click("#map-usa100 .map-tools [data-action=reset]")
    assert page.get_attribute("#map-usa100 svg", "data-zoom") == "1.00"
    page.click("#map-usa100 .map-tools [data-action=in]")
    assert float(page.get_attribute("#map-usa100 svg", "data-zoom")) > 1
    w.assert_clean()


@pytest.mark.parametrize("width", [360])
def test_usable_on_a_phone(browser: Any, base_url: str, width: int) -> None:
    ctx = browser.new_context(viewport={"width": width, "height": 740}, has_touch=True, is_mobile=True)
    try:
        page = ctx.new_page()
        page.goto(base_url + "maps/")
        page.wait_for_selector("#usa100-t-chicago")
        assert page.evaluate("document.documentElement.scrollWidth") <= width
        page.tap("#usa100-t-miami")
        assert "Miami" in page.locator("#map-usa100 .map-info").inner_text()
        assert "is-selected" in (page.get_attribute("#usa100-t-miami", "class") or "")
    finally:
        ctx.close()

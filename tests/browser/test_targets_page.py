"""Every target at least 44x44 CSS px on a 360x740 phone, on every page of the site (issue 41, point 9).

Measured as drawn: each visible ``a, button, input, select, summary, label[for], [role=button]``'s
box (padding included, so a 44 px hit area made by padding counts). Not measured, as WCAG 2.5.8
allows:

- a link in running text: its block holds other words than its links (a sentence), except the
  site's navigation (the top menu, breadcrumbs, the footer), which is always measured;
- a ``label[for]`` of a text field or a list: the field itself is the 44 px target beside it
  (the label of a checkbox, a radio or a file input is the target, and is measured);
- a checkbox or radio whose label is the 44 px target; a file input drawn by a 44 px label;
- a map's territory (inside its SVG): the map zooms (+, or a tap), and the shapes are the
  geography's (WCAG's "essential" exception); the map's own buttons are measured.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from tests.browser.conftest import ENGINE_TIMEOUT_MS, watch

MIN = 44
PHONE = {"viewport": {"width": 360, "height": 740}, "has_touch": True, "is_mobile": True}
GAMES = ("world", "reign", "campaign", "conquests", "metagame")
RULES = (*GAMES, "draws")
#: (address, waits for the engine)
PAGES = (
    [("", False), ("maps/", False), ("credits/", False), ("play/world/guest/", False)]
    + [(f"rules/{g}/", False) for g in RULES]
    + [(f"play/{g}/", True) for g in GAMES]
)

_SMALL = """(min) => {
    const seen = (e) => e.getClientRects().length && getComputedStyle(e).visibility !== 'hidden'
        && !e.closest('[hidden], .visually-hidden, [aria-hidden=true]');
    const block = (e) => { let p = e.parentElement;
        while (p && getComputedStyle(p).display.startsWith('inline')) p = p.parentElement; return p; };
    const words = (b) => { let t = '';
        const walk = (n) => { for (const c of n.childNodes) {
            if (c.nodeType === 3) t += c.textContent;
            else if (c.nodeType === 1 && !c.matches('a, button, input, select, label')) walk(c); } };
        walk(b); return t.replace(/[\\s›·|,.:;()–—-]/g, ''); };
    const nav = (e) => e.closest('.site-header, .site-footer, .crumbs, nav');
    const big = (r) => r.width >= min - 0.5 && r.height >= min - 0.5;
    const wh = (e) => { const r = e.getBoundingClientRect(); return [Math.round(r.width), Math.round(r.height)]; };
    const labelOf = (e) => (e.id && document.querySelector(`label[for="${CSS.escape(e.id)}"]`)) || e.closest('label');
    const out = [];
    for (const e of document.querySelectorAll('a[href], button, input, select, summary, label[for], [role=button]')) {
        if (e.closest('svg')) continue;  // a map's territory: zoomed (+, a tap), its size is the map's
        if (e.matches('input[type=hidden]')) continue;
        if (!seen(e)) {  // a checkbox drawn by its label, a file input by a button-like label
            const l = e.matches('input') && labelOf(e);
            if (l && seen(l) && !big(l.getBoundingClientRect())) out.push([`label of ${e.id}`, ...wh(l)]);
            continue;
        }
        if (e.matches('a') && !nav(e) && words(block(e)).length > 0) continue;  // running text
        if (e.matches('label[for]')) {
            const f = document.getElementById(e.htmlFor);
            if (!f || !f.matches('input[type=checkbox], input[type=radio], input[type=file]')) continue;
        }
        if (e.matches('input[type=checkbox], input[type=radio], input[type=file]')) {
            const l = labelOf(e);
            if (l && seen(l) && big(l.getBoundingClientRect())) continue;
        }
        const r = e.getBoundingClientRect();
        if (!big(r)) out.push([`${e.tagName.toLowerCase()}${e.id ? '#' + e.id : ''} "${(e.textContent || e.value || e.type || '').trim().slice(0, 30)}"`,
                               Math.round(r.width), Math.round(r.height)]);
    }
    return out;
}"""


@pytest.fixture
def phone(browser: Any) -> Iterator[Any]:
    ctx = browser.new_context(**PHONE)
    yield ctx
    ctx.close()


def test_every_target_on_every_page_is_44_px_on_a_phone(phone: Any, base_url: str) -> None:
    small: dict[str, list[Any]] = {}
    for path, engine in PAGES:
        page = phone.new_page()
        w = watch(page, base_url)
        page.goto(base_url + path)
        if engine:
            page.wait_for_function("document.documentElement.dataset.engine !== 'starting'", timeout=ENGINE_TIMEOUT_MS)
        else:
            page.wait_for_load_state("load")
        found = page.evaluate(_SMALL, MIN)
        if found:
            small[path or "/"] = found
        w.forgive_navigation_aborts()
        page.close()
    worst = sorted((min(wd, ht), where, what, wd, ht) for where, rows in small.items() for what, wd, ht in rows)
    print(f"\ntargets under {MIN} px: {len(worst)} on {len(small)} pages")
    for _, where, what, wd, ht in worst[:40]:
        print(f"  {where}: {what} {wd}x{ht}")
    assert not small, f"targets under {MIN}x{MIN} px at 360 px: {small}"

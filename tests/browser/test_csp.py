"""The Content-Security-Policy in a real browser (issue 10, item 7): every page carries the
policy build.py states, boots its engine under it, and plays under it, with no
``securitypolicyviolation`` reported (a violation would mean either an attack or a page part
the policy blocks)."""
from __future__ import annotations

from pathlib import Path

import build
from conquest.games.metagame import GAME
from conquest.savecode import make_fragment
from conquest.session import Match
from tests.browser.conftest import watch
from tests.browser.test_site import site_pages

#: recorded from the first script on: every violation the page reports
RECORD = """
window.__csp = [];
document.addEventListener("securitypolicyviolation", (e) => {
  window.__csp.push(`${e.violatedDirective} blocked ${e.blockedURI || "(inline)"} at ${e.sourceFile}:${e.lineNumber}`);
});
"""


def violations(page) -> list[str]:
    return page.evaluate("window.__csp")


def test_every_page_boots_under_the_policy(context, base_url: str, site_dir: Path) -> None:
    context.add_init_script(RECORD)
    pages = site_pages(site_dir)
    assert any(p.startswith("play/") for p in pages) and "maps/" in pages
    for path in pages:
        page = context.new_page()
        w = watch(page, base_url)
        page.goto(base_url + path)
        if path.endswith("/guest/"):  # a guest page (issue 37) runs no engine
            page.wait_for_function("document.documentElement.dataset.guest === 'no-link'")
        else:
            w.wait_engine()
        policy = page.get_attribute("meta[http-equiv='Content-Security-Policy']", "content")
        assert policy == build.CONTENT_SECURITY_POLICY, path
        assert "'unsafe-eval'" not in policy and "'unsafe-inline'" not in policy.split("script-src")[1].split(";")[0]
        # nothing inline runs: every script that is code has a src
        inline = page.evaluate(
            """[...document.scripts].filter(s => !s.src && (!s.type || s.type === 'module' || s.type.includes('javascript'))).length"""
        )
        assert inline == 0, path
        assert violations(page) == [], f"{path}: {violations(page)}"
        w.assert_clean()
        page.close()


def test_playing_under_the_policy_reports_nothing(context, base_url: str) -> None:
    """A campaign opened from a link, moves typed and played, undone, the map zoomed."""
    context.add_init_script(RECORD)
    page = context.new_page()
    w = watch(page, base_url)
    m = Match(GAME, {"players": ["Ann", "Bob", "Cy"], "seed": 2})
    page.goto(base_url + "play/metagame/#" + make_fragment(m.save().to_json(), "h"))
    w.wait_engine()
    for _ in range(3):
        action = m.legal_actions()[0]
        m.play(action)
        page.fill("#mg-typed-text", m.log[-1])
        page.press("#mg-typed-text", "Enter")
        page.wait_for_function(f"document.querySelector('.shell-stepno').textContent.startsWith('Step {len(m.log)}')")
    page.click("#shell-undo")
    page.wait_for_function("document.querySelector('.shell-stepno').textContent.startsWith('Step 2')")
    assert violations(page) == []
    # the maps page's own script (a file now) pans and zooms
    page.goto(base_url + "maps/")
    w.wait_engine()
    page.locator(".map-tools button[data-action='in']").first.click()
    assert violations(page) == []
    w.assert_clean()

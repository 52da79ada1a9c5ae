"""The Content-Security-Policy in a real browser (issue 10, item 7): every page carries the
policy build.py states, boots its engine under it, and plays under it, with no
``securitypolicyviolation`` reported (a violation would mean either an attack or a page part
the policy blocks). Every page's boot is checked by ``test_site.test_every_page_boots_clean``
with :func:`policy_problems` (one walk over the pages, not two)."""
from __future__ import annotations

import build
from conquest.games.metagame import GAME
from conquest.savecode import make_fragment
from conquest.session import Match
from tests.browser.conftest import watch

#: recorded from the first script on: every violation the page reports
RECORD = """
window.__csp = [];
document.addEventListener("securitypolicyviolation", (e) => {
  window.__csp.push(`${e.violatedDirective} blocked ${e.blockedURI || "(inline)"} at ${e.sourceFile}:${e.lineNumber}`);
});
"""


def violations(page) -> list[str]:
    return page.evaluate("window.__csp")


def policy_problems(page) -> list[str]:
    """What is wrong with a booted page's policy, in words (empty: nothing): the policy is
    build.py's, allows no eval and no inline script, no inline code runs, and nothing was
    reported. ``test_site.test_every_page_boots_clean`` asks it of every page as it boots it."""
    out = []
    policy = page.get_attribute("meta[http-equiv='Content-Security-Policy']", "content")
    if policy != build.CONTENT_SECURITY_POLICY:
        return [f"the policy is {policy!r}"]
    if "'unsafe-eval'" in policy or "'unsafe-inline'" in policy.split("script-src")[1].split(";")[0]:
        out.append("the policy allows eval or inline scripts")
    # nothing inline runs: every script that is code has a src
    inline = page.evaluate(
        """[...document.scripts].filter(s => !s.src && (!s.type || s.type === 'module' || s.type.includes('javascript'))).length"""
    )
    if inline:
        out.append(f"{inline} inline scripts")
    return out + violations(page)


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

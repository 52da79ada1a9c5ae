"""``static/guest-dom.js`` in Chromium (issue 37): a guest device runs no engine, the host
draws its page, and this module applies the host's ``ui`` trees and patches by the rules of
``site/py/dom.py`` and sends back the person's events. The host is not trusted: what the
allow-list refuses is dropped (and counted), and the rest of the page is still drawn.

One page on the site's origin, under the site's Content-Security-Policy, with a few empty
containers; the module is imported from the built site. Each test draws into containers of
its own; the sequence numbers go on across them (one view, as on a device).
"""
from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import pytest

import build
from tests.browser.conftest import watch

CONTAINERS = ("gd-a", "gd-b", "gd-c", "gd-d", "gd-e", "gd-deep")
PAGE = f"""<!doctype html>
<html lang="en"><head><meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="{build.CONTENT_SECURITY_POLICY}">
<title>A guest page</title></head>
<body>{"".join(f'<div id="{c}"></div>' for c in CONTAINERS)}<p id="gd-home">The controls</p></body></html>"""


class Guest:
    """The page and its view; ``n`` is the last message the view applied."""

    def __init__(self, page: Any) -> None:
        self.page = page
        self.n = 0

    def apply(self, msg: dict[str, Any]) -> dict[str, bool]:
        # as JSON text, parsed in the page as guest.js does (and Playwright's own argument
        # passing stops at 100 levels: a deep tree would not reach the page)
        got = self.page.evaluate("(text) => window.view.apply(JSON.parse(text))", json.dumps(msg))
        if got["applied"]:
            self.n = msg["n"]
        return got

    def full(self, containers: dict[str, list[Any]], **extra: Any) -> dict[str, bool]:
        return self.apply({"t": "ui", "n": self.n + 1, "full": True, "c": containers, **extra})

    def patch(self, ops: list[list[Any]], **extra: Any) -> dict[str, bool]:
        return self.apply({"t": "ui", "n": self.n + 1, "base": self.n, "ops": ops, **extra})

    def sent(self) -> list[dict[str, Any]]:
        """The messages sent since the last call (taken)."""
        return self.page.evaluate("window.sent.splice(0)")

    def dropped(self) -> int:
        return self.page.evaluate("window.view.dropped")


@pytest.fixture(scope="module")
def guest(browser: Any, base_url: str) -> Iterator[Guest]:
    ctx = browser.new_context(viewport={"width": 1000, "height": 800})
    page = ctx.new_page()
    w = watch(page, base_url)
    page.route(base_url + "guest-dom-test/", lambda route: route.fulfill(body=PAGE, content_type="text/html"))
    page.goto(base_url + "guest-dom-test/")
    page.evaluate(
        """async (url) => {
            const { createView } = await import(url);
            window.sent = [];
            window.view = createView({ send: (m) => window.sent.push(m) });
        }""",
        base_url + "static/guest-dom.js",
    )
    yield Guest(page)
    w.assert_clean()
    ctx.close()


def test_a_whole_tree_is_built_with_text_as_text_svg_in_its_namespace_and_keys_by_place(guest: Guest) -> None:
    got = guest.full({"gd-a": [{"g": "div", "a": {"class": "box"}, "c": [
        "<script>window.pwned = 1</script>",
        {"g": "button", "a": {"id": "gd-go", "type": "button"}, "c": ["Go"], "e": ["click"]},
        {"g": "svg", "s": 1, "a": {"viewBox": "0 0 10 10", "width": "10"},
         "c": [{"g": "circle", "s": 1, "a": {"cx": "5", "cy": "5", "r": "4"}}]},
    ]}]})
    assert got == {"applied": True, "resync": False}
    dom = guest.page.evaluate("""() => {
        const box = document.querySelector("#gd-a > div.box");
        return {
            kids: box.childNodes.length,
            first: [box.childNodes[0].nodeType, box.childNodes[0].data],
            scripts: document.querySelectorAll("script").length,
            svg: box.querySelector("svg").namespaceURI,
            circle: box.querySelector("circle").namespaceURI,
            viewBox: box.querySelector("svg").getAttribute("viewBox"),
            key: document.getElementById("gd-go").getAttribute("data-on-click"),
            pwned: window.pwned ?? null,
            lastN: window.view.lastN,
        };
    }""")
    assert dom["kids"] == 3
    assert dom["first"] == [3, "<script>window.pwned = 1</script>"]  # a text node, never markup
    assert dom["scripts"] == 0 and dom["pwned"] is None
    assert dom["svg"] == dom["circle"] == "http://www.w3.org/2000/svg"
    assert dom["viewBox"] == "0 0 10 10"
    assert dom["key"] == "gd-a/.0.1/click"
    assert dom["lastN"] == guest.n

    guest.sent()
    guest.page.click("#gd-go")
    sent = guest.sent()
    assert len(sent) == 1, sent
    ev = sent[0]
    assert ev["x"] > 0 and ev["y"] > 0
    del ev["x"], ev["y"]
    assert ev == {"t": "ev", "k": "gd-a/.0.1/click", "type": "click", "v": "", "c": False, "key": "",
                  "f": {}, "d": {}, "u": {}, "m": ""}


def test_patch_ops_change_the_dom_and_typed_text_survives_a_value(guest: Guest) -> None:
    guest.full({"gd-c": [
        {"g": "ul", "c": [{"g": "li", "c": ["one"]}, {"g": "li", "c": ["two"]}, {"g": "li", "c": ["three"]}]},
        {"g": "input", "a": {"id": "gd-name", "type": "text"}, "p": {"value": ""}, "e": ["input"]},
    ]})
    got = guest.patch([
        ["s", "gd-c", [0, 0, 0], "uno"],
        ["r", "gd-c", [0, 1], {"g": "li", "a": {"class": "new"}, "c": ["dos"], "e": ["click"]}],
        ["x", "gd-c", [0], 2],
        ["r", "gd-c", [0, 2], {"g": "li", "c": ["tres"]}],  # the index past the last: appended
        ["a", "gd-c", [0], {"class": "list", "aria-label": "Steps"}, ["keydown"]],
        ["p", "gd-c", [1], {"value": "from the host"}],
    ])
    assert got == {"applied": True, "resync": False}
    dom = guest.page.evaluate("""() => {
        const ul = document.querySelector("#gd-c > ul");
        return {
            items: [...ul.children].map((li) => li.textContent),
            kids: ul.childNodes.length,
            cls: ul.className, label: ul.getAttribute("aria-label"),
            ulKey: ul.getAttribute("data-on-keydown"),
            liKey: ul.children[1].getAttribute("data-on-click"), liCls: ul.children[1].className,
            value: document.getElementById("gd-name").value,
        };
    }""")
    assert dom == {"items": ["uno", "dos", "tres"], "kids": 3, "cls": "list", "label": "Steps",
                   "ulKey": "gd-c/.0/keydown", "liKey": "gd-c/.0.1/click", "liCls": "new",
                   "value": "from the host"}

    # typed text in the focused field survives a patch that sets its value...
    guest.sent()
    guest.page.fill("#gd-name", "")
    guest.page.keyboard.type("Ann")
    assert guest.patch([["p", "gd-c", [1], {"value": "host again"}]])["applied"]
    assert guest.page.input_value("#gd-name") == "Ann"
    # ...and is sent once, when the typing pauses, not key by key
    guest.page.wait_for_function("window.sent.length > 0")
    guest.page.wait_for_timeout(400)
    sent = guest.sent()
    assert [(m["k"], m["type"], m["v"]) for m in sent] == [("gd-c/.1/input", "input", "Ann")]
    # a field nobody is typing in takes the host's value
    guest.page.evaluate("document.activeElement.blur()")
    assert guest.patch([["p", "gd-c", [1], {"value": "host again"}]])["applied"]
    assert guest.page.input_value("#gd-name") == "host again"


def test_a_list_that_moved_on_drops_its_first_rows_and_names_its_handlers_anew(guest: Guest) -> None:
    """The log's window of rows moves on a row a step (remote.py ``_moved``): ``d`` drops the
    first rows and every handler key below is written again for its new place, ``m`` changes
    only the attributes named (null takes one off). A tap on a row then names that row's
    handler by its new place, as the host's handlers are named."""
    rows = [{"g": "li", "a": {"data-step": str(i), "aria-setsize": "9"},
             "c": [{"g": "button", "c": [f"View {i}"], "e": ["click"]}]} for i in range(1, 10)]
    guest.full({"gd-d": [{"g": "ol", "c": rows}]})
    assert guest.page.get_attribute("#gd-d li:nth-child(3) button", "data-on-click") == "gd-d/.0.2.0/click"
    got = guest.patch([
        ["d", "gd-d", [0], 2],
        ["m", "gd-d", [0, 0], {"aria-setsize": "10", "class": "is-viewed"}],
        ["m", "gd-d", [0, 1], {"aria-setsize": None}],
        ["r", "gd-d", [0, 7], {"g": "li", "a": {"data-step": "10"}, "c": [{"g": "button", "c": ["View 10"], "e": ["click"]}]}],
    ])
    assert got == {"applied": True, "resync": False}
    dom = guest.page.evaluate("""() => [...document.querySelectorAll('#gd-d li')].map((li) =>
        [li.dataset.step, li.getAttribute('aria-setsize'), li.className, li.querySelector('button').getAttribute('data-on-click')])""")
    assert [d[0] for d in dom] == [str(i) for i in range(3, 11)]
    assert dom[0][1:] == ["10", "is-viewed", "gd-d/.0.0.0/click"]
    assert dom[1][1] is None and dom[1][3] == "gd-d/.0.1.0/click"
    assert all(d[3] == f"gd-d/.0.{i}.0/click" for i, d in enumerate(dom))
    guest.sent()
    guest.page.click("#gd-d li:nth-child(2) button")  # step 4, now the second row
    assert [m["k"] for m in guest.sent() if m["t"] == "ev"] == ["gd-d/.0.1.0/click"]
    # more rows dropped than there are: the page is not what the host thinks, so it asks again
    assert guest.patch([["d", "gd-d", [0], 50]])["resync"]


def test_a_details_the_person_closed_stays_closed(guest: Guest) -> None:
    guest.full({"gd-b": [{"g": "details", "a": {"open": ""}, "c": [{"g": "summary", "c": ["More"]}, {"g": "p", "c": ["inside"]}]}]})
    is_open = "document.querySelector('#gd-b > details').open"
    assert guest.page.evaluate(is_open) is True
    guest.page.click("#gd-b summary")
    assert guest.page.evaluate(is_open) is False
    assert guest.patch([["a", "gd-b", [0], {"open": "", "class": "more"}, []]])["applied"]
    assert guest.page.evaluate(is_open) is False
    assert guest.page.evaluate("document.querySelector('#gd-b > details').className") == "more"
    # a whole redraw patches in place: the same
    guest.full({"gd-b": [{"g": "details", "a": {"open": ""}, "c": [{"g": "summary", "c": ["More"]}, {"g": "p", "c": ["inside"]}]}]})
    assert guest.page.evaluate(is_open) is False


def test_a_patch_on_another_base_changes_nothing_and_asks_for_the_whole_page(guest: Guest) -> None:
    snapshot = "() => [document.body.textContent, document.getElementsByTagName('*').length, document.getElementById('gd-a').hidden]"
    before = guest.page.evaluate(snapshot)
    dropped = guest.dropped()
    got = guest.apply({"t": "ui", "n": guest.n + 1, "base": guest.n + 5,
                       "ops": [["s", "gd-c", [0, 0, 0], "CHANGED"], ["x", "gd-a", [], 0]], "hide": {"gd-a": True}})
    assert got == {"applied": False, "resync": True}
    assert guest.page.evaluate(snapshot) == before
    assert guest.page.evaluate("window.view.lastN") == guest.n
    assert guest.dropped() == dropped


def test_the_allow_list_drops_what_is_not_allowed_and_keeps_the_rest(guest: Guest, base_url: str) -> None:
    dropped = guest.dropped()
    got = guest.full({"gd-d": [
        {"g": "script", "c": ["window.pwned = 2"]},
        {"g": "iframe", "a": {"src": "https://evil.example/"}},
        {"g": "button", "a": {"id": "gd-ok", "onclick": "window.pwned = 3"}, "c": ["OK"], "e": ["click"]},
        {"g": "a", "a": {"id": "gd-js", "href": "javascript:window.pwned = 4"}, "c": ["js"]},
        {"g": "a", "a": {"id": "gd-evil", "href": "https://evil.example/"}, "c": ["evil"]},
        {"g": "span", "a": {"id": "gd-bg", "style": "background:url(x)"}, "c": ["bg"]},
        {"g": "svg", "s": 1, "c": [{"g": "use", "s": 1, "a": {"href": "http://x"}},
                                   {"g": "use", "s": 1, "a": {"href": "#gd-local"}}]},
        {"g": "a", "a": {"id": "gd-hash", "href": "#gd-here"}, "c": ["here"]},
        {"g": "a", "a": {"id": "gd-rel", "href": "../rules/world/"}, "c": ["rules"]},
        {"g": "a", "a": {"id": "gd-same", "href": base_url + "maps/"}, "c": ["maps"]},
        {"g": "p", "a": {"id": "gd-p", "data-on-click": "forged", "data-x": "1", "style": "color: red"}, "c": ["kept"], "e": ["click"]},
        {"g": "input", "a": {"id": "gd-file", "type": "file"}},
        {"g": "form", "a": {"id": "gd-form", "action": "https://evil.example/"}},
        {"g": "a", "a": {"id": "gd-js2", "href": " java\tscript:window.pwned = 5"}, "c": ["js2"]},
        "after",
    ]})
    assert got == {"applied": True, "resync": False}
    dom = guest.page.evaluate("""() => {
        const box = document.getElementById("gd-d");
        const attr = (id, name) => document.getElementById(id).getAttribute(name);
        const uses = [...box.querySelectorAll("use")];
        return {
            kids: box.childNodes.length,
            bad: box.querySelectorAll("script, iframe").length,
            pwned: window.pwned ?? null,
            onclick: attr("gd-ok", "onclick"), okKey: attr("gd-ok", "data-on-click"),
            hrefs: ["gd-js", "gd-evil", "gd-js2", "gd-hash", "gd-rel", "gd-same"].map((id) => attr(id, "href")),
            bg: attr("gd-bg", "style"), pStyle: attr("gd-p", "style"), pKey: attr("gd-p", "data-on-click"),
            pData: attr("gd-p", "data-x"),
            uses: uses.map((u) => u.getAttribute("href")),
            fileType: [attr("gd-file", "type"), document.getElementById("gd-file").type],
            action: attr("gd-form", "action"),
            last: box.lastChild.data,
            counted: window.conquestGuestDropped === window.view.dropped,
        };
    }""")
    assert dom["bad"] == 0 and dom["pwned"] is None
    # a dropped node keeps its place (an empty comment), so the host's paths still hold
    assert dom["kids"] == 15 and dom["last"] == "after"
    assert dom["onclick"] is None and dom["okKey"] == "gd-d/.2/click"
    assert dom["hrefs"] == [None, None, None, "#gd-here", "../rules/world/", base_url + "maps/"]
    assert dom["bg"] is None and dom["pStyle"] == "color: red"
    assert dom["pKey"] == "gd-d/.10/click" and dom["pData"] == "1"
    assert dom["uses"] == [None, "#gd-local"]
    assert dom["fileType"] == [None, "text"]
    assert dom["action"] is None
    assert dom["counted"]
    # script, iframe, onclick, 3 hrefs, style, use's href, data-on-click, type=file, action
    assert guest.dropped() - dropped == 11

    # a patch into a dropped node's place, or to a container not drawn into, is dropped too
    dropped = guest.dropped()
    got = guest.patch([["r", "gd-d", [0, 0], "inside a script"], ["s", "nowhere", [0], "x"],
                       ["r", "gd-d", [0], {"g": "b", "c": ["instead"]}]])
    assert got == {"applied": True, "resync": False}
    assert guest.page.evaluate("document.querySelector('#gd-d > b').textContent") == "instead"
    assert guest.dropped() - dropped == 2



def test_an_img_is_only_a_question_picture_of_the_site(guest: Guest) -> None:
    """Issue 40: a Short Campaign picture reaches a device as an ``img`` (its alt text kept);
    any other source, another site's or another file of this one, is dropped."""
    def img(i: int, src: str) -> dict[str, Any]:
        return {"g": "img", "a": {"id": f"gd-img{i}", "src": src, "alt": "A national flag", "width": "160",
                                  "height": "120", "decoding": "async"}}

    # the committed bank may name no picture yet: the two files are served here
    svg = '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 4 3"><rect width="4" height="3" fill="#00f"/></svg>'
    guest.page.route("**/pictures/**", lambda route: route.fulfill(body=svg, content_type="image/svg+xml"))
    dropped = guest.dropped()
    srcs = ["../../../pictures/flag/fr.svg", "../../../pictures/emoji/1f1eb-1f1f7.svg", "https://evil.example/x.svg",
            "../../../py/app.zip", "../../../pictures/flag/../../sw.js", "javascript:alert(1)", "//evil.example/a.svg"]
    got = guest.full({"gd-b": [{"g": "figure", "c": [img(i, s) for i, s in enumerate(srcs)]}]})
    assert got == {"applied": True, "resync": False}
    kept = guest.page.evaluate("""() => [...document.querySelectorAll('#gd-b img')]
        .map((i) => [i.getAttribute('src'), i.alt, i.getAttribute('width')])""")
    assert kept == [[s if i < 2 else None, "A national flag", "160"] for i, s in enumerate(srcs)]
    assert guest.dropped() - dropped == len(srcs) - 2
    guest.page.wait_for_function("[...document.querySelectorAll('#gd-b img[src]')].every((i) => i.complete)")
    guest.page.unroute("**/pictures/**")

def test_depth_over_64_is_cut(guest: Guest) -> None:
    tree: Any = "deep"
    for _ in range(70):
        tree = {"g": "div", "c": [tree]}
    dropped = guest.dropped()
    assert guest.full({"gd-deep": [tree]})["applied"]
    depth = guest.page.evaluate("""() => {
        let el = document.getElementById("gd-deep"), n = 0;
        while (el.firstElementChild) { el = el.firstElementChild; n++; }
        return [n, document.getElementById("gd-deep").textContent];
    }""")
    assert depth == [64, ""]
    assert guest.dropped() == dropped + 1


def test_focus_goes_home_when_its_element_is_removed_and_picks_and_keys_are_sent(guest: Guest) -> None:
    guest.full({"gd-e": [{"g": "button", "a": {"id": "gd-step"}, "c": ["End the turn"]}]})
    guest.page.focus("#gd-step")
    assert guest.patch([["r", "gd-e", [0], {"g": "p", "c": ["Done"]}]], home="gd-home")["applied"]
    assert guest.page.evaluate("[document.activeElement.id, document.activeElement.getAttribute('tabindex')]") == ["gd-home", "-1"]
    guest.sent()
    guest.page.evaluate("document.body.dispatchEvent(new CustomEvent('game-pick', { detail: '7', bubbles: true }))")
    guest.page.keyboard.press("Shift+U")
    # every keydown goes (the host decides what is a shortcut), Shift itself too
    assert guest.sent() == [{"t": "pick", "i": 7}, {"t": "key", "key": "Shift", "m": "s"}, {"t": "key", "key": "U", "m": "s"}]

"""``dom.mount`` touches only what changed (issue 20, item 10), on a small DOM in CPython.

In the page every read of an element (its tag, attributes, children) is a call across the
JS boundary; a press re-rendered the whole page and read back every element, which blocked
the main thread over 200 ms on a long World game. Here ``js`` is a stand-in document that
counts every use of an element, so the test asserts on the work done, never on time.
"""
from __future__ import annotations

import importlib
import sys
import types
from typing import Any

import pytest
from ui import Event, h, same, svg

XHTML = "http://www.w3.org/1999/xhtml"


class Counter:
    uses = 0


class FakeNode:
    """The few DOM members ``dom.py`` uses; every attribute read counts as a call."""

    def __init__(self, tag: str | None = None, ns: str | None = None, data: str = "") -> None:
        object.__setattr__(self, "_kids", [])
        object.__setattr__(self, "_attrs", {})
        object.__setattr__(self, "_parent", None)
        object.__setattr__(self, "_tag", tag)
        object.__setattr__(self, "_ns", ns or XHTML)
        object.__setattr__(self, "data", data)
        object.__setattr__(self, "value", "")
        object.__setattr__(self, "checked", False)
        object.__setattr__(self, "id", "")

    def __getattribute__(self, name: str) -> Any:
        if not name.startswith("_"):
            Counter.uses += 1
        return object.__getattribute__(self, name)

    # -- what dom.py reads and calls
    @property
    def nodeType(self) -> int:  # noqa: N802 - the DOM's names
        return 3 if self._tag is None else 1

    @property
    def localName(self) -> str:  # noqa: N802
        return self._tag or ""

    @property
    def namespaceURI(self) -> str:  # noqa: N802
        return self._ns

    @property
    def attributes(self) -> list[Any]:
        return [types.SimpleNamespace(name=k, value=v) for k, v in self._attrs.items()]

    @property
    def childNodes(self) -> Any:  # noqa: N802
        return _Kids(self._kids)

    def getAttribute(self, k: str) -> Any:  # noqa: N802
        return self._attrs.get(k)

    def setAttribute(self, k: str, v: str) -> None:  # noqa: N802
        self._attrs[k] = v

    def removeAttribute(self, k: str) -> None:  # noqa: N802
        self._attrs.pop(k, None)

    def appendChild(self, child: FakeNode) -> None:  # noqa: N802
        object.__setattr__(child, "_parent", self)
        self._kids.append(child)

    def replaceWith(self, new: FakeNode) -> None:  # noqa: N802
        parent = self._parent
        parent._kids[parent._kids.index(self)] = new
        object.__setattr__(new, "_parent", parent)

    def remove(self) -> None:
        self._parent._kids.remove(self)

    def isSameNode(self, other: Any) -> bool:  # noqa: N802
        return other is self

    def text(self) -> str:
        return self.data if self._tag is None else "".join(k.text() for k in self._kids)


class _Kids(list):
    @property
    def length(self) -> int:
        return len(self)


@pytest.fixture
def dom(monkeypatch: pytest.MonkeyPatch) -> Any:
    document = types.SimpleNamespace(
        createElement=lambda tag: FakeNode(tag),
        createElementNS=lambda ns, tag: FakeNode(tag, ns),
        createTextNode=lambda text: FakeNode(None, data=text),
        addEventListener=lambda *a: None,
        activeElement=None,
    )
    ffi = types.ModuleType("pyodide.ffi")
    ffi.create_proxy = lambda fn: fn  # type: ignore[attr-defined]
    ffi.jsnull = object()  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, "js", types.SimpleNamespace(document=document, performance=types.SimpleNamespace(now=lambda: 0.0)))
    monkeypatch.setitem(sys.modules, "pyodide", types.ModuleType("pyodide"))
    monkeypatch.setitem(sys.modules, "pyodide.ffi", ffi)
    monkeypatch.delitem(sys.modules, "dom", raising=False)
    return importlib.import_module("dom")


def board(marked: int, log: list[str], clicks: list[int]) -> Any:
    """A page-like tree: a map of 40 marks, a log, buttons with handlers."""
    marks = [svg("circle", cx=str(i), r="3", cls="on" if i == marked else None) for i in range(40)]
    return h(
        "div",
        h("p", f"Step {len(log)}", id="bar"),
        svg("svg", *marks, viewBox="0 0 40 10"),
        h("ol", *[h("li", line, h("button", "View", on_click=lambda ev, i=i: clicks.append(i))) for i, line in enumerate(log)]),
    )


def test_an_unchanged_render_makes_no_call_into_the_dom_and_a_change_only_a_few(dom: Any) -> None:
    container = FakeNode("div")
    clicks: list[int] = []
    log = [f"step {i}" for i in range(120)]
    dom.mount(container, board(3, log, clicks), "box")
    first = Counter.uses
    assert container.text().startswith("Step 120")

    Counter.uses = 0
    dom.mount(container, board(3, log, clicks), "box")  # a press that changed nothing on screen
    assert Counter.uses <= 3  # the container's check (same node, children count); before: every element

    Counter.uses = 0
    dom.mount(container, board(4, log, clicks), "box")  # one mark moved
    moved = Counter.uses
    assert moved < first / 10
    svg_el = container._kids[0]._kids[1]
    assert [k._attrs.get("class") for k in svg_el._kids[3:5]] == [None, "on"]

    # the handlers of unchanged elements are the new closures, under the keys they had
    li = container._kids[0]._kids[2]._kids[7]
    key = li._kids[1]._attrs["data-on-click"]
    dom._handlers[key](Event())
    assert clicks == [7]


def test_the_dom_is_read_again_when_it_is_not_what_the_last_render_left(dom: Any) -> None:
    container = FakeNode("div")
    dom.mount(container, h("p", "a", h("b", "x")), "box")
    container._kids[0].remove()  # an outer render emptied this container
    dom.mount(container, h("p", "a", h("b", "x")), "box")
    assert container.text() == "ax"
    other = FakeNode("div")  # the container was made anew
    dom.mount(other, h("p", "a", h("b", "x")), "box")
    assert other.text() == "ax"
    dom.forget()  # a style set outside a render: the next render patches from the DOM
    container._kids[0]._kids[1].setAttribute("style", "opacity: 0.3")
    dom.mount(container, h("p", "a", h("b", "x")), "box")
    assert "style" not in container._kids[0]._kids[1]._attrs


def test_same_compares_what_the_dom_shows_and_never_an_input() -> None:
    a = h("p", "x", h("button", "Go", on_click=lambda ev: None), cls="k")
    b = h("p", "x", h("button", "Go", on_click=lambda ev: 1), cls="k")
    assert same(a, b)
    assert not same(a, h("p", "x", h("button", "Go"), cls="k"))  # a handler fewer
    assert not same(a, h("p", "y", h("button", "Go", on_click=lambda ev: None), cls="k"))
    assert not same(h("input", value="1"), h("input", value="1"))  # the person may have typed

"""The one builder that turns :mod:`ui` trees into the page's DOM (browser only).

Why patch in place instead of replacing: a re-render after every step must not drop the
keyboard focus, the text being typed or a scrolled list. ``mount`` walks the old DOM and
the new tree side by side, keeps elements whose tag matches, and only sets what changed.

Why delegated events: a handler per element per render would need a JS proxy each time
(and leak them). Instead each element with handlers gets ``data-on-<type>`` keys, and one
listener per event type on the document finds the nearest key and calls the Python handler.
"""
from __future__ import annotations

from typing import Any

import js  # type: ignore[import-not-found]
from pyodide.ffi import create_proxy, jsnull  # type: ignore[import-not-found]
from ui import Event, Node

document = js.document
_handlers: dict[str, Any] = {}
_owned: dict[str, int] = {}  # mount id -> how many handler keys its last render made
_listening: set[str] = set()
_report: list[Any] = [None]  # the shell's error reporter (set by ``set_reporter``)
_after: list[Any] = [None]
_proxies: list[Any] = []
#: what each container was last given (its element and the tree's children): the next render
#: compares trees in Python and leaves alone, without a browser call, every subtree that
#: would come out the same (issue 22: a live table's device draws every step; walking the
#: unchanged DOM through Pyodide's proxies was most of a render)
_last: dict[str, tuple[Any, list[Node | str], dict[int, int]]] = {}
#: the render in progress: where each node's handler keys began (by ``id(node)``), and the
#: same of the container's last render. A subtree is left alone only if its keys begin at
#: the same number as last time: a handler added or removed before it shifts every key
#: after it, and the DOM's ``data-on-*`` must then be written again
_starts: list[dict[int, int]] = [{}]
_before: list[dict[int, int]] = [{}]
#: attributes the person changes (a <details> opened or closed): set when an element is
#: made, then left to the person, so a re-render never snaps a panel shut
_USER_OWNED = {"open"}


def nullish(value: Any) -> bool:
    """JS ``null`` arrives as ``jsnull`` (not None) in Pyodide; ``undefined`` as None."""
    return value is None or value is jsnull


def set_reporter(fn: Any, after: Any = None) -> None:
    """Who shows a handler's exception to people (the shell's message area), and what runs
    after every handler (the page's render, so what a click changed is on screen at once)."""
    _report[0] = fn
    _after[0] = after


def _dispatch(ev: Any) -> None:
    kind = {"focusin": "focus", "focusout": "blur"}.get(str(ev.type), str(ev.type))
    attr = f"data-on-{kind}"
    target = ev.target
    node = None if nullish(target) or not hasattr(target, "closest") else target.closest(f"[{attr}]")
    if nullish(node):
        return
    fn = _handlers.get(str(node.getAttribute(attr)))
    if fn is None:
        return
    value = ""
    checked = False
    try:
        if hasattr(node, "value") and not nullish(node.value):
            value = str(node.value)
        checked = bool(getattr(node, "checked", False))
    except Exception:  # an element without value: nothing to read
        pass
    detail = getattr(ev, "detail", None)
    detail = None if nullish(detail) else detail
    key = str(getattr(ev, "key", "") or "")
    x = float(getattr(ev, "clientX", 0) or 0)
    y = float(getattr(ev, "clientY", 0) or 0)
    data = _dataset(node)
    under: dict[str, str] = {}
    if kind.startswith("pointer"):
        hit = document.elementFromPoint(x, y)
        hit = None if nullish(hit) else hit.closest("[data-sq], [data-index], [data-key]")
        under = {} if nullish(hit) else _dataset(hit)
    fields: dict[str, str] = {}
    if kind == "submit":
        ev.preventDefault()
        for pair in js.FormData.new(node).entries():
            fields[str(pair[0])] = str(pair[1])
    event = Event(
        type=kind, value=value, checked=checked, key=key, detail=detail, fields=fields,
        x=x, y=y, data=data, under=under, raw=ev,
        ctrl=bool(getattr(ev, "ctrlKey", False)), alt=bool(getattr(ev, "altKey", False)),
        meta=bool(getattr(ev, "metaKey", False)), shift=bool(getattr(ev, "shiftKey", False)),
    )
    try:
        fn(event)
    except Exception as exc:
        if _report[0] is not None:
            _report[0](exc)
        else:
            raise
    if _after[0] is not None:
        _after[0]()


def _dataset(node: Any) -> dict[str, str]:
    out: dict[str, str] = {}
    for a in node.attributes:
        name = str(a.name)
        if name.startswith("data-") and not name.startswith("data-on-"):
            out[name[5:]] = str(a.value)
    return out


def _listen(kind: str) -> None:
    if kind in _listening:
        return
    _listening.add(kind)
    proxy = create_proxy(_dispatch)
    _proxies.append(proxy)
    # focus and blur do not bubble: their bubbling twins are focusin and focusout
    dom_kind = {"focus": "focusin", "blur": "focusout"}.get(kind, kind)
    document.addEventListener(dom_kind, proxy)


def _key(owner: str, fn: Any) -> str:
    """Keys count up from 0 in each render of a container, so an element in the same place
    keeps the same key and a re-render does not rewrite every ``data-on-*`` attribute."""
    n = _owned.get(owner, 0)
    _owned[owner] = n + 1
    k = f"{owner}.{n}"
    _handlers[k] = fn
    return k


def _attrs_of(node: Node, owner: str) -> dict[str, str]:
    attrs = dict(node.attrs)
    for kind, fn in node.on.items():
        _listen(kind)
        attrs[f"data-on-{kind}"] = _key(owner, fn)
    return attrs


def _create(node: Node | str, owner: str) -> Any:
    if isinstance(node, str):
        return document.createTextNode(node)
    el = document.createElementNS(node.ns, node.tag) if node.ns else document.createElement(node.tag)
    _starts[0][id(node)] = _owned.get(owner, 0)
    for k, v in _attrs_of(node, owner).items():
        el.setAttribute(k, v)
    for c in node.children:
        el.appendChild(_create(c, owner))
    _set_props(el, node)
    return el


def _set_props(el: Any, node: Node) -> None:
    for k, v in node.props.items():
        if k == "value":
            if str(el.value) != str(v) and document.activeElement != el:
                el.value = str(v)
        elif k == "checked":
            el.checked = bool(v)


def _same(old: Node | str | None, new: Node | str) -> bool:
    """Whether ``new`` draws exactly what ``old`` drew: the same tags, attributes, text and
    handlers' places (the handlers themselves are new functions each render; their keys
    count in the same order, so the DOM's ``data-on-*`` stay right). A node with properties
    (a field's value, a box's checked) is never the same: a render sets those again, as
    the person may have changed them since."""
    if isinstance(new, str) or isinstance(old, str) or old is None:
        return old == new
    if (old.tag != new.tag or old.ns != new.ns or old.props or new.props or old.attrs != new.attrs
            or list(old.on) != list(new.on) or len(old.children) != len(new.children)):
        return False
    return all(_same(a, b) for a, b in zip(old.children, new.children, strict=True))


def _has_on(node: Node | str) -> bool:
    """Whether a subtree has any handler (a shift of the keys matters only there)."""
    return not isinstance(node, str) and (bool(node.on) or any(_has_on(c) for c in node.children))


def _keep(node: Node | str, owner: str) -> None:
    """A subtree left as it is: its handlers take their keys again, in the order a patch
    gives them (the node's own, then its children's)."""
    if isinstance(node, str):
        return
    _starts[0][id(node)] = _owned.get(owner, 0)
    for kind, fn in node.on.items():
        _listen(kind)
        _key(owner, fn)
    for c in node.children:
        _keep(c, owner)


def _patch(el: Any, node: Node | str, owner: str, old: Node | str | None = None) -> Any:
    """Make ``el`` show ``node``; returns the element now in its place. ``old``: the tree
    this element was last made from (None: unknown), so an unchanged subtree is skipped."""
    if old is not None and _same(old, node) and (
            isinstance(node, str) or _before[0].get(id(old)) == _owned.get(owner, 0) or not _has_on(node)):
        _keep(node, owner)
        return el
    if isinstance(node, str):
        if int(el.nodeType) == 3:
            if str(el.data) != node:
                el.data = node
            return el
        new = document.createTextNode(node)
        el.replaceWith(new)
        return new
    same = int(el.nodeType) == 1 and str(el.localName) == node.tag and (
        (node.ns or "http://www.w3.org/1999/xhtml") == str(el.namespaceURI)
    )
    if not same:
        new = _create(node, owner)
        el.replaceWith(new)
        return new
    _starts[0][id(node)] = _owned.get(owner, 0)
    want = _attrs_of(node, owner)
    for name in [str(a.name) for a in el.attributes]:
        if name not in want and name not in _USER_OWNED:
            el.removeAttribute(name)
    for k, v in want.items():
        if k in _USER_OWNED:
            continue
        if el.getAttribute(k) != v:
            el.setAttribute(k, v)
    before = old.children if isinstance(old, Node) and old.tag == node.tag and old.ns == node.ns else None
    _patch_children(el, node.children, owner, before)
    _set_props(el, node)
    return el


def _patch_children(el: Any, children: list[Node | str], owner: str,
                    old: list[Node | str] | None = None) -> None:
    existing = list(el.childNodes)
    if old is not None and len(old) != len(existing):
        old = None  # something else changed this element's children: trust only the DOM
    for i, child in enumerate(children):
        if i < len(existing):
            _patch(existing[i], child, owner, old[i] if old is not None else None)
        else:
            el.appendChild(_create(child, owner))
    for extra in existing[len(children) :]:
        extra.remove()


#: milliseconds spent in :func:`mount` since the benchmark last reset it (bench/live.py reads
#: it through live_browser's trace: how much of a render is the DOM's and how much Python's)
spent: list[float] = [0.0]
#: the same by container id (the benchmark prints the costliest)
spent_by: dict[str, float] = {}


def mount(container: Any, tree: Node, owner: str | None = None) -> None:
    """Show ``tree`` inside ``container`` (a fragment's children, or the one node)."""
    if nullish(container):
        return
    t0 = float(js.performance.now())
    try:
        _mount(container, tree, owner)
    finally:
        ms = float(js.performance.now()) - t0
        spent[0] += ms
        key = owner or str(container.id or "anon")
        spent_by[key] = spent_by.get(key, 0.0) + ms


def _mount(container: Any, tree: Node, owner: str | None) -> None:
    owner = owner or str(container.id or "anon")
    for n in range(_owned.pop(owner, 0)):  # the next render reuses (or drops) these keys
        _handlers.pop(f"{owner}.{n}", None)
    children = tree.children if tree.tag == "#fragment" else [tree]
    last = _last.get(owner)
    old = last[1] if last is not None and bool(last[0].isSameNode(container)) else None
    _before[0] = last[2] if old is not None and last is not None else {}
    _starts[0] = {}
    _patch_children(container, children, owner, old)
    _last[owner] = (container, list(children), _starts[0])
    _before[0] = {}


def mount_id(element_id: str, tree: Node) -> None:
    mount(document.getElementById(element_id), tree, element_id)

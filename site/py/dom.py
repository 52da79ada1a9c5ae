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
from ui import Event, Node, same

document = js.document
_handlers: dict[str, Any] = {}
_owned: dict[str, list[str]] = {}  # mount id -> the handler keys its last render made
#: mount id -> (its container, the children its last render mounted): what a render compares with
_last: dict[str, tuple[Any, list[Node | str]]] = {}
_listening: set[str] = set()
_report: list[Any] = [None]  # the shell's error reporter (set by ``set_reporter``)
_after: list[Any] = [None]
_proxies: list[Any] = []
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


def _key(owner: str, path: str, kind: str, fn: Any) -> str:
    """A handler's key is its element's place in the container and its event, so an element
    in the same place keeps the same key: a re-render neither rewrites every ``data-on-*``
    attribute nor needs to touch an element that did not change (its new closure is
    registered under the key it already has)."""
    k = f"{owner}/{path}/{kind}"
    _owned.setdefault(owner, []).append(k)
    _handlers[k] = fn
    return k


def _attrs_of(node: Node, owner: str, path: str) -> dict[str, str]:
    attrs = dict(node.attrs)
    for kind, fn in node.on.items():
        _listen(kind)
        attrs[f"data-on-{kind}"] = _key(owner, path, kind, fn)
    return attrs


def _rekey(node: Node | str, owner: str, path: str) -> None:
    """An unchanged subtree: only its handlers' new closures are registered."""
    if isinstance(node, str):
        return
    for kind, fn in node.on.items():
        _key(owner, path, kind, fn)
    for i, c in enumerate(node.children):
        if not isinstance(c, str):
            _rekey(c, owner, f"{path}.{i}")


def _create(node: Node | str, owner: str, path: str) -> Any:
    if isinstance(node, str):
        return document.createTextNode(node)
    el = document.createElementNS(node.ns, node.tag) if node.ns else document.createElement(node.tag)
    for k, v in _attrs_of(node, owner, path).items():
        el.setAttribute(k, v)
    for i, c in enumerate(node.children):
        el.appendChild(_create(c, owner, f"{path}.{i}"))
    _set_props(el, node)
    return el


def _set_props(el: Any, node: Node) -> None:
    for k, v in node.props.items():
        if k == "value":
            if str(el.value) != str(v) and document.activeElement != el:
                el.value = str(v)
        elif k == "checked":
            el.checked = bool(v)


def _patch(el: Any, node: Node | str, owner: str, path: str, old: Node | str | None) -> Any:
    """Make ``el`` show ``node``; returns the element now in its place. ``old`` is what the
    last render put there (None: not known): where it equals ``node``, the DOM is left as it
    is, without a single call into it (issue 20, item 10: a press re-rendered the whole page,
    and each element read back cost calls across the JS boundary)."""
    if old is not None and same(old, node):
        _rekey(node, owner, path)
        return el
    if isinstance(node, str):
        if int(el.nodeType) == 3:
            if str(el.data) != node:
                el.data = node
            return el
        new = document.createTextNode(node)
        el.replaceWith(new)
        return new
    same_tag = int(el.nodeType) == 1 and str(el.localName) == node.tag and (
        (node.ns or "http://www.w3.org/1999/xhtml") == str(el.namespaceURI)
    )
    if not same_tag:
        new = _create(node, owner, path)
        el.replaceWith(new)
        return new
    want = _attrs_of(node, owner, path)
    for name in [str(a.name) for a in el.attributes]:
        if name not in want and name not in _USER_OWNED:
            el.removeAttribute(name)
    for k, v in want.items():
        if k in _USER_OWNED:
            continue
        if el.getAttribute(k) != v:
            el.setAttribute(k, v)
    known = old.children if isinstance(old, Node) and old.tag == node.tag else None
    _patch_children(el, node.children, owner, path, known)
    _set_props(el, node)
    return el


def _patch_children(el: Any, children: list[Node | str], owner: str, path: str,
                    old: list[Node | str] | None = None) -> None:
    existing = list(el.childNodes)
    if old is not None and len(old) != len(existing):
        old = None  # the DOM is not what the last render left: patch from the DOM itself
    for i, child in enumerate(children):
        if i < len(existing):
            _patch(existing[i], child, owner, f"{path}.{i}", old[i] if old is not None and i < len(old) else None)
        else:
            el.appendChild(_create(child, owner, f"{path}.{i}"))
    for extra in existing[len(children) :]:
        extra.remove()


def forget() -> None:
    """The DOM was changed outside a render (``set_style`` during a drag): the next render
    compares with the DOM itself, not with the last tree, so it puts back what the tree says."""
    _last.clear()


#: milliseconds spent in :func:`mount` since the benchmark last reset it (bench/live.py reads
#: it through live_browser's trace: how much of a render is the DOM's and how much Python's)
spent: list[float] = [0.0]
#: the same by container id (the benchmark prints the costliest)
spent_by: dict[str, float] = {}


def mount(container: Any, tree: Node, owner: str | None = None) -> None:
    """Show ``tree`` inside ``container`` (a fragment's children, or the one node); the time
    it takes is added to :data:`spent` (the live benchmark's split of a render)."""
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
    """The last tree mounted in each container is kept: the new one is compared with it and
    only what changed is patched. If the container is no longer the element it was, or holds
    another number of children than the last render left, the DOM itself is read instead.
    """
    owner = owner or str(container.id or "anon")
    for k in _owned.pop(owner, ()):  # the next render reuses (or drops) these keys
        _handlers.pop(k, None)
    children = tree.children if tree.tag == "#fragment" else [tree]
    last = _last.get(owner)
    old: list[Node | str] | None = None
    if last is not None and bool(last[0].isSameNode(container)) and int(container.childNodes.length) == len(last[1]):
        old = last[1]
    if old is not None and len(old) == len(children) and all(same(o, c) for o, c in zip(old, children, strict=True)):
        for i, c in enumerate(children):  # nothing changed: not one call into the DOM
            _rekey(c, owner, f".{i}")
    else:
        _patch_children(container, children, owner, "", old)
    _last[owner] = (container, list(children))


def mount_id(element_id: str, tree: Node) -> None:
    mount(document.getElementById(element_id), tree, element_id)

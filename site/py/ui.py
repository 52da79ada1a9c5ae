"""Element trees: what every renderer returns, turned into DOM in the page and HTML in tests.

Why a tree and not DOM calls: a renderer that returns plain data is a pure function of
(view, page state), so pytest runs every page's logic under CPython without a browser
(``to_html``, ``find``, ``fire``), and the browser side (``dom.py``) is one small builder
that patches the page in place (focus and typed text survive a re-render).

Text is always text: ``to_html`` escapes it and ``dom.py`` sets it with ``textContent``, so
a name from a link can never become markup. Event handlers are Python callables in the
tree (``on_click=...``); they receive an :class:`Event`.
"""
from __future__ import annotations

import html
import re
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any

__all__ = ["SVG_NS", "Node", "Event", "h", "svg", "frag", "to_html", "find", "find_all", "text", "fire", "bidi_text", "isolate", "isolate_text", "isolate_tree", "names_pattern", "reversing_texts", "same"]

SVG_NS = "http://www.w3.org/2000/svg"
Child = "Node | str | None"
_EVENTS = (
    "click", "input", "change", "submit", "keydown", "focus", "blur",
    "pointerdown", "pointermove", "pointerup", "pointercancel", "pointerover", "pointerout",
)


#: characters that change the direction of text (embeddings, overrides, isolates, marks) and
#: the right-to-left scripts (Hebrew, Arabic, Syriac, Thaana, N'Ko...; their presentation forms)
_BIDI = re.compile("[\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069\u0590-\u08ff\ufb1d-\ufdff\ufe70-\ufeff]")
FSI, PDI = "\u2068", "\u2069"


def bidi_text(text: str) -> bool:
    """Whether ``text`` holds right-to-left letters or direction controls."""
    return _BIDI.search(text) is not None


def isolate(text: str) -> str:
    """Text from a person or a file, isolated from the line it is put in (issue 20, item 8).

    A name holding a right-to-left override (U+202E) reversed the rest of the line it was
    in ("… to play.", the log's words). Between FIRST STRONG ISOLATE and POP DIRECTIONAL
    ISOLATE its direction stays inside it: what ``<bdi>`` does, in plain text, so it also
    holds where a name is only part of a sentence (prompts, messages, labels). Plain
    left-to-right text is returned as it is.
    """
    return f"{FSI}{text}{PDI}" if _BIDI.search(text) else text


#: embeddings and overrides (LRE RLE PDF LRO RLO): outside an isolate, one reverses what follows
_EMBEDS = "\u202a\u202b\u202c\u202d\u202e"
_OPENERS = "\u2066\u2067\u2068"  # LRI RLI FSI


def _runs(text: str) -> tuple[bool, int]:
    """``(an embedding or override outside every isolate, isolates left open at the end)``.

    Either one leaks past the text into the rest of its line: an override reverses it, an
    open isolate swallows it. A stray PDI is ignored by the bidi algorithm, as here.
    """
    depth = 0
    loose = False
    for ch in text:
        if ch in _OPENERS:
            depth += 1
        elif ch == PDI:
            depth = max(0, depth - 1)
        elif ch in _EMBEDS and depth == 0:
            loose = True
    return loose, depth


#: at most this many names are sought in each text (longest first): a custom map may hold
#: thousands of names, and past these the whole-text isolation below still holds the line
MAX_ISOLATED_NAMES = 200


def names_pattern(names: Iterable[str]) -> re.Pattern[str] | None:
    """One pattern for the names that need isolating (right-to-left text or controls in them),
    each with or without the FSI…PDI already around it; None when no name needs it."""
    need = sorted({n for n in names if n and _BIDI.search(n)}, key=len, reverse=True)[:MAX_ISOLATED_NAMES]
    if not need:
        return None
    alts = "|".join(re.escape(n) for n in need)
    return re.compile(f"{FSI}({alts}){PDI}|({alts})")


def isolate_text(text: str, pattern: re.Pattern[str] | None) -> str:
    """``text`` with each known name in it isolated, and then, if a direction control is
    still outside an isolate (a name cut short, a text from a file), the whole text isolated,
    so nothing in it reverses the rest of its line (issue 20, item 8)."""
    if not _BIDI.search(text):
        return text
    if pattern is not None:
        text = pattern.sub(lambda m: f"{FSI}{m.group(1) or m.group(2)}{PDI}", text)
    loose, still_open = _runs(text)
    if loose or still_open:
        text = f"{FSI}{text}{PDI * (still_open + 1)}"
    return text


def isolate_tree(node: Node, pattern: re.Pattern[str] | None) -> Node:
    """Every text in ``node`` through :func:`isolate_text`, in place; returns ``node``.

    Why one pass over the finished tree: names from a person or a file reach the page's text
    by many paths (seat lists, prompts, a wheel's labels, buttons, a select's options); one
    pass where every tree is mounted (``shell_browser.Runner``) cannot miss one the way each
    sentence isolating its own names did. Attributes are not shown inline and are left alone.
    """
    kids = node.children
    for i, c in enumerate(kids):
        if isinstance(c, str):
            if _BIDI.search(c):
                kids[i] = isolate_text(c, pattern)
        else:
            isolate_tree(c, pattern)
    return node


def reversing_texts(node: Node) -> list[str]:
    """Texts in ``node`` holding a direction control outside an FSI…PDI isolate or ``<bdi>``:
    each one reverses (or reorders) the rest of its line. The counter the tests assert on."""
    out: list[str] = []
    if node.tag == "bdi":
        return out
    for c in node.children:
        if isinstance(c, str):
            if _BIDI.search(c) and any(_runs(c)):
                out.append(c)
        else:
            out.extend(reversing_texts(c))
    return out


@dataclass
class Event:
    """What a handler gets, in the page and in tests alike.

    ``value``/``checked`` are the target's at the time of the event, ``key`` the key pressed,
    ``detail`` a custom event's payload, ``fields`` a submitted form's fields; ``raw`` is the
    browser's event (None in tests).
    """

    type: str = "click"
    value: str = ""
    checked: bool = False
    key: str = ""
    detail: Any = None
    #: a form's named fields at a submit (text; a ticked checkbox is "on")
    fields: dict[str, str] = field(default_factory=dict)
    #: pointer position in client pixels (pointer events), and the ``data-*`` attributes of
    #: the element the handler is on and of the element under the pointer (for drags)
    #: modifier keys held (keyboard and pointer events)
    ctrl: bool = False
    alt: bool = False
    meta: bool = False
    shift: bool = False
    x: float = 0.0
    y: float = 0.0
    data: dict[str, str] = field(default_factory=dict)
    under: dict[str, str] = field(default_factory=dict)
    raw: Any = None
    prevented: bool = False

    def prevent(self) -> None:
        self.prevented = True
        if self.raw is not None:
            self.raw.preventDefault()

    def reset_form(self) -> None:
        """Empty the submitted form (a typed action once played)."""
        if self.raw is not None:
            self.raw.target.reset()


@dataclass
class Node:
    """One element: tag, attributes (strings), children, handlers by event type."""

    tag: str
    attrs: dict[str, str] = field(default_factory=dict)
    children: list[Node | str] = field(default_factory=list)
    ns: str | None = None
    on: dict[str, Callable[[Event], Any]] = field(default_factory=dict)
    #: properties set on the DOM element rather than as attributes (value, checked)
    props: dict[str, Any] = field(default_factory=dict)

    def __iter__(self) -> Iterator[Node]:
        return walk(self)


@lru_cache(maxsize=512)
def _attr_name(key: str) -> str:
    """A keyword's attribute name (cached: a render asks it ten thousand times, for a few
    dozen distinct keywords)."""
    if key == "cls":
        return "class"
    if key == "for_":
        return "for"
    return key.rstrip("_").replace("_", "-")


def _build(tag: str, ns: str | None, children: Iterable[Any], attrs: dict[str, Any]) -> Node:
    node = Node(tag, ns=ns)
    for key, value in attrs.items():
        if key.startswith("on_") and key[3:] in _EVENTS:
            if value is not None:
                node.on[key[3:]] = value
            continue
        if key in ("value", "checked") and tag in ("input", "select", "textarea"):
            node.props[key] = value
            if key == "value":
                node.attrs["value"] = str(value)
            elif value:
                node.attrs["checked"] = ""
            continue
        if value is None or value is False:
            continue
        node.attrs[_attr_name(key)] = "" if value is True else str(value)
    for child in children:
        _add(node, child)
    return node


def _add(node: Node, child: Any) -> None:
    if child is None or child is False:
        return
    if isinstance(child, Node):
        node.children.append(child)
    elif isinstance(child, str):
        if child:
            node.children.append(child)
    elif isinstance(child, (list, tuple)) or hasattr(child, "__next__"):
        for c in child:
            _add(node, c)
    else:
        node.children.append(str(child))


def h(tag: str, *children: Any, **attrs: Any) -> Node:
    """An HTML element: ``h("button", "Undo", cls="small", on_click=undo)``."""
    return _build(tag, None, children, attrs)


def svg(tag: str, *children: Any, **attrs: Any) -> Node:
    """An SVG element (attribute names with ``_`` become ``-``: ``stroke_width``)."""
    return _build(tag, SVG_NS, children, attrs)


def frag(*children: Any) -> Node:
    """Several nodes where one is expected; mounted as the container's children."""
    return _build("#fragment", None, children, {})


_VOID = {"br", "hr", "img", "input", "meta", "link", "source", "wbr"}


def to_html(node: Node | str) -> str:
    """HTML text of a tree, every text and attribute escaped (for tests and the build)."""
    if isinstance(node, str):
        return html.escape(node, quote=False)
    inner = "".join(to_html(c) for c in node.children)
    if node.tag == "#fragment":
        return inner
    attrs = "".join(f' {k}="{html.escape(v, quote=True)}"' for k, v in node.attrs.items())
    if node.tag in _VOID and node.ns is None:
        return f"<{node.tag}{attrs}>"
    return f"<{node.tag}{attrs}>{inner}</{node.tag}>"


def same(a: Node | str, b: Node | str) -> bool:
    """Whether two trees make the same DOM, so ``dom.mount`` may leave it as it is (issue 20,
    item 10): same tags, attributes, texts and kinds of handler (a handler is a new closure
    each render; its key is its place, so the DOM's key stays right). A node with properties
    (an input's ``value``, ``checked``) is never the same: the person may have changed the
    DOM's, and a render sets it as before."""
    if isinstance(a, str) or isinstance(b, str):
        return a == b
    if (
        a.tag != b.tag or a.ns != b.ns or a.props or b.props or a.attrs != b.attrs
        or a.on.keys() != b.on.keys() or len(a.children) != len(b.children)
    ):
        return False
    return all(same(x, y) for x, y in zip(a.children, b.children, strict=True))


def walk(node: Node) -> Iterator[Node]:
    yield node
    for c in node.children:
        if isinstance(c, Node):
            yield from walk(c)


def unmark(node: Node, attr: str = "data-now") -> Node:
    """``node`` with ``attr`` taken off it and everything in it. Issue 41: a page marks its
    newest result once, so the shell's result box it wraps must not carry a mark of its own
    (the Metagame's and World's panels)."""
    for n in walk(node):
        n.attrs.pop(attr, None)
    return node


def _matches(node: Node, selector: str) -> bool:
    """A tiny selector: ``#id``, ``.class``, ``tag``, ``tag.class``, ``[attr=value]``."""
    if selector.startswith("#"):
        return node.attrs.get("id") == selector[1:]
    if selector.startswith("[") and selector.endswith("]"):
        key, _, value = selector[1:-1].partition("=")
        return key in node.attrs and (not value or node.attrs[key] == value.strip("\"'"))
    tag, _, cls = selector.partition(".")
    if tag and node.tag != tag:
        return False
    return not cls or cls in node.attrs.get("class", "").split()


def _select(node: Node, parts: list[str], ancestors: list[Node]) -> Iterator[Node]:
    """Nodes matching the last part whose ancestors match the earlier ones, in order."""
    if _matches(node, parts[-1]):
        need = parts[:-1]
        i = len(ancestors)
        for part in reversed(need):
            while i > 0 and not _matches(ancestors[i - 1], part):
                i -= 1
            if i == 0:
                break
            i -= 1
        else:
            yield node
    for c in node.children:
        if isinstance(c, Node):
            yield from _select(c, parts, [*ancestors, node])


def find_all(node: Node, selector: str) -> list[Node]:
    """Matches of a selector; parts separated by spaces are descendants (``.box button``)."""
    return list(_select(node, selector.split(), []))


def find(node: Node, selector: str) -> Node:
    """The first match; raises LookupError naming the selector (tests read better)."""
    for n in _select(node, selector.split(), []):
        return n
    raise LookupError(f"no element matches {selector!r}")


def text(node: Node | str) -> str:
    """The text content, like the DOM's ``textContent``."""
    if isinstance(node, str):
        return node
    return "".join(text(c) for c in node.children)


def fire(node: Node, selector: str, event: str = "click", **fields: Any) -> Any:
    """Call the handler of the first element matching ``selector`` (tests' click)."""
    target = find(node, selector)
    handler = target.on.get(event)
    if handler is None:
        raise LookupError(f"{selector!r} has no {event} handler")
    return handler(Event(type=event, **fields))

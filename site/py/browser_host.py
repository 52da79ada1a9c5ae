"""The shell's :class:`shell.Host` in the page: storage, time, the address bar, timers,
preferences, new tabs, the set-up form's fields and a device's pointer.

Why a part of its own (issue 42): these are the side effects the shell asks for by name
(``Shell.host``); a test gives the shell a fake one instead (``tests/page_host.py``).
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Any

import dom
import frame
import js  # type: ignore[import-not-found]
from browser_now import scroll_behavior
from pyodide.ffi import create_proxy  # type: ignore[import-not-found]

from conquest.store import SlotStore

if TYPE_CHECKING:
    from shell_browser import Runner

__all__ = ["BrowserHost", "read_form", "touch_screen"]

document = js.document


class BrowserHost:
    """:class:`shell.Host` in the page."""

    def __init__(self, runner: Runner) -> None:
        self.runner = runner
        #: a touch screen without a mouse: the page says "Tap", not "Click" (issue 41, point 7)
        self.touch = touch_screen()

    @property
    def store(self) -> SlotStore:
        return frame.store()

    def now(self) -> float:
        return frame.now()

    def clock(self) -> float:
        return float(js.performance.now())

    def page_url(self) -> str:
        site = document.documentElement.getAttribute("data-site-url")  # an offline copy's page on the site
        return str(site) if not frame.nullish(site) and site else f"{js.location.origin}{js.location.pathname}"

    def go(self, query: str) -> None:
        js.history.replaceState(js.history.state, "", query)

    def later(self, ms: float, fn: Any) -> None:
        js.setTimeout(create_proxy(lambda: self.runner.guard(fn)), ms)

    def rerender(self) -> None:
        self.runner.render()

    def focus(self, element_id: str) -> None:
        node = document.getElementById(element_id)
        if not frame.nullish(node):
            node.focus(js.Object.fromEntries([["preventScroll", False]]))

    def reveal(self, element_id: str) -> None:
        node = document.getElementById(element_id)
        if frame.nullish(node):
            return
        sheet = node.closest(".play-sheet")
        if not frame.nullish(sheet) and sheet.scrollHeight > sheet.clientHeight + 1:
            # a phone's play screen (issue 21): only the sheet under the map scrolls, the
            # page stays put, so the map stays on screen beside the result
            node.scrollIntoView(js.Object.fromEntries([["block", "nearest"], ["behavior", scroll_behavior()]]))
            return
        r = node.getBoundingClientRect()
        if r.top < 0 or r.bottom > js.window.innerHeight:
            node.scrollIntoView(js.Object.fromEntries([["block", "center"], ["behavior", scroll_behavior()]]))

    def pref_key(self, key: str) -> str:
        """An offline copy keeps its preferences under its storage prefix too (offline.py)."""
        return str(getattr(self.store.backend, "prefix", "")) + key

    def load_pref(self, key: str) -> str | None:
        try:
            value = js.window.localStorage.getItem(self.pref_key(key))
        except Exception:  # storage disabled: no preferences
            return None
        return None if frame.nullish(value) else str(value)

    def save_pref(self, key: str, value: str) -> bool:
        try:
            js.window.localStorage.setItem(self.pref_key(key), value)
            return True
        except Exception:
            return False

    def open_tab(self, url: str) -> bool:
        """A page in a new tab (during a click, so the browser allows it); False if refused."""
        try:
            opened = js.window.open(url, "_blank", "noopener")
        except Exception:  # noqa: BLE001 - refused: the page shows its link instead
            return False
        # with "noopener" the browser returns null even when it opened the tab
        return True if frame.nullish(opened) else bool(opened)

    def confirm(self, question: str) -> bool:
        """A dialog's text is shown as a tree's is: names isolated (``Shell.isolate_text``)."""
        return bool(js.window.confirm(self.runner.shell.isolate_text(question)))

    def form_fields(self, form_id: str) -> dict[str, str]:
        form = document.getElementById(form_id)
        return {} if frame.nullish(form) else read_form(form)

    def set_fields(self, values: Any) -> None:
        for eid, value in values.items():
            node = document.getElementById(eid)
            if frame.nullish(node):
                continue
            if isinstance(value, bool):
                node.checked = value
            else:
                node.value = str(value)

    def set_style(self, element_id: str, prop: str, value: str) -> None:
        node = document.getElementById(element_id)
        if not frame.nullish(node):
            node.style.setProperty(prop, value)
            dom.forget()  # the next render puts back what its tree says (a drag's ghost)


def touch_screen() -> bool:
    """True on a device whose main pointer is a finger (no hover, coarse): its words say
    "Tap" (``shell.tap_word``). Asked once: a phone does not become a desktop mid-game."""
    try:
        return bool(js.window.matchMedia("(hover: none) and (pointer: coarse)").matches)
    except Exception:  # noqa: BLE001 - no matchMedia: a mouse's words
        return False


def read_form(form: Any) -> dict[str, str]:
    """Every field of a form as text (checkboxes: "on" when ticked, else absent)."""
    data = js.FormData.new(form)
    out: dict[str, str] = {}
    for pair in data.entries():
        out[str(pair[0])] = str(pair[1])
    return out

"""Bringing "now" into view: the newest result and the next decision a page marks
(``data-now``), the shell's message docked in the flow, and how far and how smoothly to scroll.

Why a part of its own (issue 42): what the person sees after a tap, a bot's or a peer's
step (issue 41) is one question, asked of the drawn page after each render
(``browser_render.Renderer``) and of an element a page reveals (``BrowserHost.reveal``);
``shell.now_scroll`` decides the distance, in CPython, and this reads the page and scrolls.
"""
from __future__ import annotations

from typing import Any

import frame
import js  # type: ignore[import-not-found]
from shell import now_scroll, whole_px

__all__ = ["bring_now", "dock_toast", "scroll_behavior"]

document = js.document


def scroll_behavior() -> str:
    """"smooth", unless the person asked for less motion (``prefers-reduced-motion``)."""
    try:
        return "auto" if bool(js.window.matchMedia("(prefers-reduced-motion: reduce)").matches) else "smooth"
    except Exception:  # noqa: BLE001
        return "auto"


def _marked(kind: str) -> Any:
    """The first drawn element marked ``data-now=kind`` (issue 41), or None."""
    for node in document.querySelectorAll(f'[data-now="{kind}"]'):
        if node.getClientRects().length and str(js.window.getComputedStyle(node).visibility) != "hidden":
            return node
    return None


def _scrolling_sheet(node: Any) -> Any:
    sheet = node.closest(".play-sheet")
    return sheet if not frame.nullish(sheet) and sheet.scrollHeight > sheet.clientHeight + 1 else None


def bring_now() -> None:
    """The newest result and the next decision the page marks (``data-now``) into the screen
    after a tap, a bot's or a peer's step (issue 41): a person should never have to swipe to
    see what a tap did and what to do next. ``shell.now_scroll`` decides how far; on a phone's
    play screen the page scrolls to the sheet under the map and the sheet to the marks in it
    (the map stays in sight), and a sticky status bar is not counted as room.
    ``guest-dom.js`` ``bringNow`` does the same on a guest's device."""
    ready = document.getElementById("shell-ready")  # a pass screen: Ready is the next decision
    ready = None if frame.nullish(ready) or not ready.getClientRects().length else ready
    if ready is not None:  # the whole pass screen when it fits: its "Pass to Bob" heading too
        box = ready.closest("#shell-handover")
        if not frame.nullish(box) and float(box.getBoundingClientRect().height) <= float(js.window.innerHeight):
            ready = box
    marks = [ready if ready is not None else _marked("next"), _marked("result")]
    if all(m is None for m in marks):
        return
    sheets = [None if m is None else _scrolling_sheet(m) for m in marks]
    top_box = document.getElementById("shell-top")
    room_top = 0.0
    inside_top = any(m is not None and not frame.nullish(top_box) and bool(top_box.contains(m)) for m in marks)
    if not frame.nullish(top_box) and not inside_top and str(js.window.getComputedStyle(top_box).position) == "sticky":
        room_top = float(top_box.getBoundingClientRect().height)
    height = float(js.window.innerHeight)

    def span(node: Any) -> tuple[float, float]:
        r = node.getBoundingClientRect()
        return float(r.top), float(r.bottom)

    # a next decision taller than the screen: the control the page put the focus on in it
    # (``focus_home``, the winner's buttons) stands for it, rather than its top
    active = document.activeElement
    if marks[0] is not None and not frame.nullish(active) and not bool(active.isSameNode(marks[0])) \
            and bool(marks[0].contains(active)) and active.getClientRects().length:
        t, b = span(marks[0])
        if b - t > (float(sheets[0].clientHeight) if sheets[0] is not None else height - room_top):
            marks[0] = active
    page = [None if m is None else span(sh if sh is not None else m) for m, sh in zip(marks, sheets, strict=True)]
    dy = now_scroll(page[0], page[1], room_top, height)
    sheet = sheets[0] if sheets[0] is not None else sheets[1]
    ds = 0.0
    if sheet is not None:
        st, _ = span(sheet)
        st += float(sheet.clientTop)
        inner = [span(m) if m is not None and sh is not None and bool(sh.isSameNode(sheet)) else None
                 for m, sh in zip(marks, sheets, strict=True)]
        inner = [None if x is None else (x[0] - dy, x[1] - dy) for x in inner]
        ds = now_scroll(inner[0], inner[1], max(st - dy, room_top), min(st - dy + float(sheet.clientHeight), height))
    # to a place, not by a distance: a smooth scroll still running (a page's ``reveal``) would
    # add its own rest to a distance
    # in whole pixels away from zero: a box that overhangs by a fraction (rects are fractional,
    # a sheet's clientHeight whole) is brought in, not left 0.6 px out (seen at 360 px)
    how = scroll_behavior()
    dy, ds = whole_px(dy), whole_px(ds)
    if dy:
        js.window.scrollTo(js.Object.fromEntries([["top", float(js.window.scrollY) + dy], ["behavior", how]]))
    if sheet is not None and ds:
        sheet.scrollTo(js.Object.fromEntries([["top", float(sheet.scrollTop) + ds], ["behavior", how]]))



def dock_toast(game_shown: bool) -> None:
    """The shell's message in the flow (issue 41: a toast over the board covered the very
    square it spoke of): docked under the status bar (``#shell-top``) while a game shows, so it
    is where the person looks and covers nothing; above the set-up before that."""
    toast, top, setup = (document.getElementById(i) for i in ("shell-toast", "shell-top", "shell-setup"))
    if frame.nullish(toast) or frame.nullish(top) or frame.nullish(setup):
        return
    docked = bool(top.contains(toast))
    if game_shown and not docked:
        top.append(toast)
    elif not game_shown and docked:
        setup.before(toast)

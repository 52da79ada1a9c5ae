"""The log drawn as it is scrolled (issue 20, item 10): only the lines in sight of its box
are drawn, again at the next frame when the box scrolls; a line asked for is scrolled into
sight, and the chart is drawn at its box's width, read at the next frame.

Why a part of its own (issue 42): the frames asked for and the chart's width are this
part's state, and reading the page's geometry is kept out of the render's task.
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Any

import frame
import js  # type: ignore[import-not-found]
from pyodide.ffi import create_proxy  # type: ignore[import-not-found]

if TYPE_CHECKING:
    from shell_browser import Runner

__all__ = ["LogScroller"]

document = js.document


class LogScroller:
    """The log's box and the chart's width on ``runner``'s page (``Runner.log_view``)."""

    def __init__(self, runner: Runner) -> None:
        self.runner = runner
        self.shell = runner.shell
        # element scrolls do not bubble: ``Runner.boot`` listens on the document, capturing
        self._log_frame = self._place_frame = False
        self.chart_width = 640  # the chart box's width at the last frame (``_place_log``)
        self._log_frame_proxy = create_proxy(lambda t: self.runner.guard(self.log_scrolled))
        self._place_frame_proxy = create_proxy(lambda t: self.runner.guard(self._place_log))

    def on_scroll(self, ev: Any) -> None:
        """A scroll of the log's box: its lines are drawn again at the next frame (one
        render a frame however many scroll events come)."""
        target = ev.target
        if self._log_frame or frame.nullish(target) or str(getattr(target, "id", "") or "") != "shell-log-scroll":
            return
        self._log_frame = True
        js.requestAnimationFrame(self._log_frame_proxy)

    def log_geometry(self) -> tuple[Any, float] | None:
        """The log's box and the height of one of its rows (every row is as tall, style.css)."""
        box = document.getElementById("shell-log-scroll")
        row = None if frame.nullish(box) else box.querySelector("li[data-step]")
        if frame.nullish(box) or frame.nullish(row):
            return None
        height = float(row.getBoundingClientRect().height)
        return (box, height) if height > 0 else None

    def log_scrolled(self) -> None:
        """Tell the shell which line is at the top of the box; draw the log again if the lines
        in sight come near the edge of those drawn (the focus stays on its step)."""
        self._log_frame = False
        geo = self.log_geometry()
        if geo is None or self.shell.session is None:
            return
        box, row = geo
        top = float(box.scrollTop)
        at_end = top + float(box.clientHeight) >= float(box.scrollHeight) - 2
        if self.shell.log.scrolled(int(top // row), at_end):
            self.mount_log()

    def mount_log(self) -> None:
        """Draw the log; the keyboard focus stays on its step. Rows are patched in place by
        position, so when the drawn lines move, the button that had the focus shows another
        step: the focus goes back to the step's own button."""
        active = document.activeElement
        box = document.getElementById("shell-log-scroll")
        had_focus = not frame.nullish(active) and not frame.nullish(box) and bool(box.contains(active))
        self.runner.mount("shell-log-box", self.shell.log.render())
        step = self.shell.log.focus
        if had_focus and step is not None and str(getattr(document.activeElement, "id", "")) != f"shell-view-{step}":
            node = document.getElementById(f"shell-view-{step}")
            if not frame.nullish(node):
                node.focus(js.Object.fromEntries([["preventScroll", True]]))

    def place_log(self) -> None:
        """After the log is drawn: at the next frame (reading its geometry lays the page out,
        65 ms of a freshly opened Game of Conquests page, better not in the render's task), a
        line the shell asks for is scrolled into sight (a step viewed from elsewhere, Home or
        End), and a log following the newest steps stays at its end."""
        if not self._place_frame:
            self._place_frame = True
            js.requestAnimationFrame(self._place_frame_proxy)

    def _place_log(self) -> None:
        self._place_frame = False
        # the chart is drawn at the width its box had at the last frame: reading it in the
        # render laid the whole page out inside the render's task (70 ms of a freshly opened
        # Game of Conquests page, and again after every step); drawn again when it changed
        box = document.getElementById("shell-chart")
        width = int(box.clientWidth or 0) if not frame.nullish(box) else 0
        if width and width != self.chart_width and self.shell.session is not None:
            self.chart_width = width
            self.runner.mount("shell-chart", self.shell.chart.render(width))
        geo = self.log_geometry()
        if geo is None:
            return
        box, row = geo
        step = self.shell.log.take_reveal()
        height = float(box.clientHeight)
        if step is not None:
            y = (step - 1) * row
            if not float(box.scrollTop) <= y <= float(box.scrollTop) + height - row:
                box.scrollTop = max(0.0, y - height / 2 + row / 2)
        elif self.shell.log.top is None:
            box.scrollTop = float(box.scrollHeight)

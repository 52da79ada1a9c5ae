"""Rendering the page: every container the shell and the game page draw, mounted (each tree
through ``Shell.isolated``), the focus kept on a control, what is "now" brought into view
after an act (``browser_now.bring_now``), and the live region's words.

Why a part of its own (issue 42): a render has its own state (whether one runs, what the
last one showed as now, when the person last acted, what was last announced) and is the
one place every tree is mounted.
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Any

import dom
import frame
import js  # type: ignore[import-not-found]
from browser_now import bring_now, dock_toast
from duel_desk import duel_banner
from ui import Node

if TYPE_CHECKING:
    from shell_browser import Runner

__all__ = ["ACTED_MS", "Renderer", "apply_patch", "mark_field_errors"]

document = js.document
#: a render this soon after a click, tap or key brings the marked result and next into view
ACTED_MS = 1500.0


class Renderer:
    """The render of ``runner``'s page (``Runner.renderer``)."""

    def __init__(self, runner: Runner) -> None:
        self.runner = runner
        self.shell, self.host, self.page, self.game = runner.shell, runner.host, runner.page, runner.game
        self.rendering = False
        self.split_below = False  # the next render draws what lies below the board in a task of its own
        self.announced = ""  # the last text given to the live region #shell-announce
        #: when the person last clicked, tapped or typed (``host.clock``), and the step the last
        #: render showed: a render after either brings ``data-now`` into view (``bring_now``);
        #: a timer's alone does not (a notice fading): it would fight the person's scrolling
        self.acted_at = -1e9
        self.now_key: Any = None

    def render(self) -> None:
        if self.rendering:
            return
        self.rendering = True
        t0 = self.host.clock()
        try:
            self._render()
            self.shell.perf["render"] = self.host.clock() - t0
            if self.shell.session is not None:
                dom.mount_id("shell-perf", self.shell.render_perf())
        finally:
            self.rendering = False
        self.runner.schedule_bot()

    def _render(self) -> None:
        game = document.getElementById("shell-game")
        active = document.activeElement
        in_game = not frame.nullish(game) and not frame.nullish(active) and bool(game.contains(active))
        self._mount()
        if in_game and self.shell.session is not None:
            self.keep_focus()
        s = self.shell.session
        # the step, and which elements are marked: a new result or next decision drawn by a
        # timer (the wheel at rest) is brought into view too; the same ones again are not
        marks = tuple(f"{n.id}:{n.dataset.now}" for n in document.querySelectorAll("[data-now]"))
        key = None if s is None else (id(s), len(s.match.log), s.viewing, marks)
        # (a game just opened is placed by mapboard.js: its status bar at the top)
        same_game = key is not None and self.now_key is not None and key[0] == self.now_key[0]
        if same_game and (key != self.now_key or self.host.clock() - self.acted_at < ACTED_MS):
            self.acted_at = -1e9
            # in a task of its own: after what the render started (a page's ``reveal`` a task
            # later, a smooth scroll), so the marks have the last word
            self.host.later(0, bring_now)
        self.now_key = key

    def on_act(self, ev: Any) -> None:
        self.acted_at = self.host.clock()

    def keep_focus(self) -> None:
        """The control a person used is gone (Roll after a conquest, End the turn): focus goes
        to the page's ``focus_home`` (its panel of controls), not to the page's start."""
        active = document.activeElement
        # (two proxies of one JS object are not ``is`` each other: compare in JS terms)
        if not frame.nullish(active) and str(active.tagName) != "BODY" and bool(active.isConnected):
            return
        if self.shell.session is not None and self.shell.session.needs_handover() is not None:
            target = document.querySelector("#shell-handover button")  # Ready (drawn by the shell)
        else:
            target = document.getElementById(self.page.focus_home)
            if frame.nullish(target):
                target = document.querySelector("#shell-bar > div")  # the status bar
        if frame.nullish(target):
            return
        if not target.hasAttribute("tabindex") and not target.matches("button, a, input, select, textarea"):
            target.setAttribute("tabindex", "-1")
        target.focus(js.Object.fromEntries([["preventScroll", True]]))

    def mount(self, cid: str, tree: Node) -> None:
        """Every tree a page shows goes through :meth:`Shell.isolated` (issue 20, item 8)."""
        dom.mount_id(cid, self.shell.isolated(tree))

    def _mount(self) -> None:
        shell, s = self.shell, self.shell.session
        dock_toast(s is not None or self.runner.tabs.audience)
        self.mount("shell-toast", shell.render_message())
        if self.runner.live is not None:
            self.runner.live.mount()
        setup, game = document.getElementById("shell-setup"), document.getElementById("shell-game")
        live_table = self.runner.live is not None and self.runner.live.role is not None and s is not None
        if not live_table:
            self._mount_saved()
        mark_field_errors(shell.field_errors)
        if s is None:
            setup.hidden = self.runner.tabs.audience
            game.hidden = not self.runner.tabs.audience
            for cid, tree in self.page.render_setup().items():
                self.mount(cid, tree)
            if self.runner.tabs.audience:
                self.mount("shell-bar", Node("p", children=["Waiting for the host's page…"], attrs={"id": "shell-prompt"}))
            return
        setup.hidden = True
        game.hidden = False
        document.documentElement.classList.toggle("shell-readonly", s.mode == "view")
        view = s.view()
        self.mount("shell-bar", shell.bar.render(self.page.prompt(view)))
        self.mount("shell-over", shell.result.render_over_row())
        self.mount("shell-duel", duel_banner(self.host, s, shell))  # a campaign's duel, a copy for one player
        self.mount("shell-viewing", shell.log.render_viewing())
        handover = shell.handover.render()
        self.mount("shell-handover", handover)
        document.getElementById("shell-game").classList.toggle("is-handover", "hidden" not in handover.attrs)
        drawn = self.page.render(view)
        if isinstance(drawn, Node):
            drawn = {"game-controls": drawn}
        for cid, tree in drawn.items():
            self.mount(cid, tree)
        for eid, patch in self.page.paint(view).items():
            apply_patch(document.getElementById(eid), patch)
        if live_table:  # below the board: drawn once the step is on the screen (issue 22's speed)
            self.runner.live.after_paint(self._mount_below)
        elif self.split_below:  # a game just opened (begin_open)
            self.split_below = False
            self.host.later(0, self._mount_below)
        else:
            self._mount_below()
        self.page.after_render()
        self.announce(shell.result.announcement())
        self.runner.tabs.broadcast()
        if self.runner.live is not None:
            self.runner.live.after_render()

    def _mount_saved(self) -> None:
        s = self.shell.session
        try:
            slots = self.host.store.list(self.game.id)
        except Exception:  # noqa: BLE001 - the game on screen matters more than the list
            slots = []
        self.mount("shell-saved", self.shell.saved.render(slots, None if s is None else s.slot_id))

    def _mount_below(self) -> None:
        """The log, the links, the chart (and the saved games' list): what lies below the
        board. At a live table every device draws each step; these wait for the next frame
        there, so the board and its controls show the step first."""
        shell, s = self.shell, self.shell.session
        if s is None:
            return
        if self.runner.live is not None and self.runner.live.role is not None:
            self._mount_saved()
        self.runner.log_view.mount_log()
        self.mount("shell-links", shell.links.render(self.host.page_url()))
        self.mount("shell-chart", shell.chart.render(self.runner.log_view.chart_width))
        self.runner.log_view.place_log()  # and the chart's width is read at the next frame, with the log's place

    def announce(self, text: str) -> None:
        """Tell screen readers what just happened (issue 21, item 10): ``#shell-announce`` is a
        polite live region that stays in the page; only a changed text is written, so a
        re-render that changes nothing says nothing again."""
        if text == self.announced:
            return
        self.announced = text
        box = document.getElementById("shell-announce")
        if not frame.nullish(box):
            box.textContent = self.shell.isolate_text(text)  # names as every shown text has them


def mark_field_errors(errors: dict[str, str]) -> None:
    """Set-up errors beside their fields, announced (``aria-invalid`` and a message)."""
    for node in document.querySelectorAll("[data-field-error]"):
        node.remove()
    for node in document.querySelectorAll("[aria-invalid='true']"):
        node.removeAttribute("aria-invalid")
    for fid, msg in errors.items():
        field = document.getElementById(fid)
        if frame.nullish(field):
            continue
        field.setAttribute("aria-invalid", "true")
        note = document.createElement("span")
        note.className = "field-error"
        note.setAttribute("data-field-error", fid)
        note.setAttribute("role", "alert")
        note.textContent = msg
        field.insertAdjacentElement("afterend", note)


def apply_patch(node: Any, patch: dict[str, Any]) -> None:
    """Change a build-time element: classes on/off, style properties, attributes."""
    if frame.nullish(node):
        return
    for cls, on in patch.get("class", {}).items():
        node.classList.toggle(cls, bool(on))
    for prop, value in patch.get("style", {}).items():
        if value is None:
            node.style.removeProperty(prop)
        else:
            node.style.setProperty(prop, str(value))
    for name, value in patch.get("attrs", {}).items():
        if value is None:
            node.removeAttribute(name)
        else:
            node.setAttribute(name, str(value))

"""A fake browser for the page tests: the shell's ``Host`` in CPython.

Why: every page's logic (set-up, renderers, handlers, the bot runner) is plain Python that
talks to the browser only through :class:`shell.Host`, so tests drive a page with this
host and read the ``ui`` trees it renders, no Chromium needed. Import this module first: it
puts ``site/py`` and ``site/games`` on ``sys.path`` like the page's runtime does.
"""
from __future__ import annotations

import sys
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
for sub in ("site/py", "site/games"):
    path = str(ROOT / sub)
    if path not in sys.path:
        sys.path.insert(0, path)

from duel_desk import duel_next  # noqa: E402
from shell import GamePage, Shell  # noqa: E402
from ui import Node  # noqa: E402

from conquest.core import get_game  # noqa: E402
from conquest.store import MemoryBackend, SlotStore  # noqa: E402


class FakeHost:
    """Storage in memory, a clock that only moves when told, timers run by ``run_timers``."""

    def __init__(self, quota: int | None = None) -> None:
        self.backend = MemoryBackend(quota)
        self.store = SlotStore(self.backend)
        self.t = 1_000_000.0
        self.timers: list[tuple[float, Callable[[], None]]] = []
        self.query = ""
        self.confirms: list[bool] = []
        self.asked: list[str] = []
        self.fields: dict[str, dict[str, str]] = {}
        self.set: dict[str, Any] = {}
        self.focused: str | None = None
        self.revealed: list[str] = []
        self.styles: dict[tuple[str, str], str] = {}
        self.renders = 0
        self.opened: list[str] = []  # pages opened in a new tab

    def now(self) -> float:
        return self.t

    def clock(self) -> float:
        return self.t

    def advance(self, ms: float) -> None:
        self.t += ms

    def page_url(self) -> str:
        return "http://127.0.0.1:8000/play/test/"

    def go(self, query: str) -> None:
        self.query = query

    def later(self, ms: float, fn: Callable[[], None]) -> None:
        self.timers.append((self.t + ms, fn))

    def run_timers(self) -> None:
        """Move the clock past every timer and run them (and the ones they add)."""
        while self.timers:
            self.timers.sort(key=lambda x: x[0])
            when, fn = self.timers.pop(0)
            self.t = max(self.t, when)
            fn()

    def rerender(self) -> None:
        self.renders += 1

    def focus(self, element_id: str) -> None:
        self.focused = element_id

    def reveal(self, element_id: str) -> None:
        self.revealed.append(element_id)

    def set_style(self, element_id: str, prop: str, value: str) -> None:
        self.styles[(element_id, prop)] = value

    def load_pref(self, key: str) -> str | None:
        return self.backend.get(key)

    def save_pref(self, key: str, value: str) -> bool:
        try:
            self.backend.set(key, value)
        except Exception:
            return False
        return True

    def open_tab(self, url: str) -> bool:
        self.opened.append(url)
        return True

    def confirm(self, question: str) -> bool:
        self.asked.append(question)
        return self.confirms.pop(0) if self.confirms else False

    def form_fields(self, form_id: str) -> dict[str, str]:
        return dict(self.fields.get(form_id, {}))

    def set_fields(self, values: Mapping[str, str | bool]) -> None:
        self.set.update(values)


def make_page(page_class: type[GamePage], host: FakeHost | None = None) -> tuple[Shell, GamePage, FakeHost]:
    """A page on the shell with a fake host, as ``shell_browser.Runner`` makes it (a campaign's
    duel ends with its own next step, ``duel_desk.duel_next``)."""
    host = host or FakeHost()
    shell = Shell(get_game(page_class.game_id), host)
    shell.next_steps.append(duel_next)
    page = page_class(shell)
    shell.page = page
    return shell, page, host


def render_all(shell: Shell) -> dict[str, Node]:
    """Every tree the page would mount, by container id (as ``Runner._render`` does)."""
    s = shell.session
    assert s is not None and shell.page is not None
    view = s.view()
    drawn = shell.page.render(view)
    if isinstance(drawn, Node):
        drawn = {"game-controls": drawn}
    out = dict(drawn)
    out["shell-bar"] = shell.bar.render(shell.page.prompt(view))
    out["shell-over"] = shell.result.render_over_row()
    out["shell-viewing"] = shell.log.render_viewing()
    out["shell-handover"] = shell.handover.render()
    out["shell-log-box"] = shell.log.render()
    out["shell-links"] = shell.links.render("http://127.0.0.1:8000/play/x/")
    out["shell-chart"] = shell.chart.render()
    out["shell-toast"] = shell.render_message()
    return {cid: shell.isolated(tree) for cid, tree in out.items()}  # as ``Runner.mount`` does

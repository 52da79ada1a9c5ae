"""The links panel: the host link, the view link and a copy's link for the next player, with
their lengths against what a chat message allows; a long game's code made in slices.

Why a part of its own (issue 42): the links keep their own state (the panel last drawn, the
code being made in slices and the code made) and their own work between renders.
"""
from __future__ import annotations

import math
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from ui import Node, h

from conquest.savecode import SaveEncoder

if TYPE_CHECKING:
    from shell import Shell

__all__ = ["CHAT_LIMIT", "LINKS_AT_ONCE", "LINK_SLICE_MS", "LinksPanel"]

#: what chat apps let through in one message (Discord 2,000; Teams about 2,048)
CHAT_LIMIT = 2000
#: a game this long makes its links in slices of their own after the render a press needs
#: (compressing its save is ``SaveEncoder``'s work, ``LINK_SLICE_MS`` a task), and judges
#: its draws' codes only when codes are shown
LINKS_AT_ONCE = 3000
LINK_SLICE_MS = 30.0


class LinksPanel:
    """The links of the game open in ``shell`` (``Shell.links``)."""

    def __init__(self, shell: Shell) -> None:
        self.shell = shell
        self._cache: tuple[Any, Node] | None = None
        #: a long game's link code: ``(key, SaveEncoder)`` while it is made in slices, then
        #: ``(key, code)`` (issue 20, item 10)
        self._work: tuple[Any, SaveEncoder] | None = None
        self._code: tuple[Any, str] | None = None
        #: the encoder of the last code made: the next step's code starts from its mark
        self._last: SaveEncoder | None = None

    def render(self, base: str) -> Node:
        s = self.shell.session
        assert s is not None
        seat = self.shell.pending()
        if seat is not None:  # a link opens the game at the present, past the pass screen
            return h("div", h("p", f"The links come back when {s.seat_name(seat)} has pressed Ready.",
                              cls="muted"), id="shell-links-inner")
        key = (id(s), base, *self.save_key())
        if self._cache is not None and self._cache[0] == key:
            return self._cache[1]  # compressing the save again for every click is waste
        code = None
        if len(s.match.log) > LINKS_AT_ONCE:
            # a long game's links are made in slices after this render, each its own task, so
            # a press (or a bot's step) is on screen first and nothing blocks long (issue 20,
            # item 10: compressing an 80,000-step save was one 120-400 ms block)
            code = self.code(id(s), self.save_key())
            if code is None:
                return h("div", h("p", "Preparing the links…", cls="muted", role="status"), id="shell-links-inner")
        links = s.links(base, code)
        rows = []
        mine = s.seat_link(base, code)
        if mine is not None:  # a copy for one player: the next link is made for the other one
            seat, url = mine
            name = s.seat_name(seat)
            rows.append(h(
                "div",
                h("button", f"Copy the link for {name}", type="button", cls="small", id="shell-copy-seat",
                  data_copy=url),
                " ",
                h("span", f"{len(url):,} of {CHAT_LIMIT:,} characters a chat message allows", cls="shell-len"),
                h("p", f"This copy plays for {s.seat_name(s.only_seat)}. Send {name} this link: "
                       f"it opens a copy that plays for {name}.", cls="muted"),
                h("span", url, cls="url", id="shell-seat-url"),
                cls="shell-link-row",
            ))
        for mode, label in (("h", "host"), ("v", "view")):
            if mode == "h" and s.mode != "host":
                continue
            url = links[mode]
            over = len(url) > CHAT_LIMIT
            what = (
                "Host link: continues the game on another device"
                if mode == "h"
                else f"View link: the game as it is now, at step {len(s.match.log)}; read-only. Send a new one "
                "after more steps."
            )
            rows.append(
                h(
                    "div",
                    h("button", f"Copy {label} link" + (f" (step {len(s.match.log)})" if mode == "v" else ""),
                      type="button", cls="small", id=f"shell-copy-{label}", data_copy=url),
                    " ",
                    h("span", f"{len(url):,} of {CHAT_LIMIT:,} characters a chat message allows"
                      + (" — too long for a chat message: send the file instead" if over else ""),
                      cls="shell-len" + (" over" if over else ""), id=f"shell-{label}-len"),
                    h("p", what, cls="muted"),
                    h("span", url, cls="url", id=f"shell-{label}-url"),
                    cls="shell-link-row",
                )
            )
        tree = h("div", *rows, id="shell-links-inner")
        self._cache = (key, tree)
        return tree

    def save_key(self) -> tuple[Any, ...]:
        """Which save the session holds (its log's length and end, its undos, mode and seat): its
        links and the audience tab's message are made again only when it changes."""
        s = self.shell.session
        assert s is not None
        return (len(s.match.log), tuple(s.match.log[-1:]), len(s.match.undone), s.mode, s.only_seat)

    def code(self, sid: int, key: Any) -> str | None:
        """The link code of the game on screen (``key``: which log it is), or None while it is
        being made: then a :class:`SaveEncoder` goes on in tasks of ``LINK_SLICE_MS`` and the
        page is drawn again when the code is ready. A newer step drops older work."""
        key = (sid, key)
        if self._code is not None and self._code[0] == key:
            return self._code[1]
        if self._work is None or self._work[0] != key:
            s = self.shell.session
            assert s is not None
            self._work = (key, SaveEncoder(s.save(), after=self._last))
            self.shell.host.later(0, self._slice)
        return None

    def code_now(self, save: Mapping[str, Any] | None = None) -> str:
        """The link code of the game on screen (``save``: its save, if the caller has it),
        made in this task: for what cannot wait for the slices, the address of a game
        storage refused (``SavedGames``), which a reload right after a step must find
        (issue 42). Cheap after a step: the code starts from the last one's mark."""
        s = self.shell.session
        assert s is not None
        key = (id(s), self.save_key())
        if self._code is not None and self._code[0] == key:
            return self._code[1]
        work = self._work
        enc = work[1] if work is not None and work[0] == key else SaveEncoder(
            s.save() if save is None else save, after=self._last)
        code = enc.advance(math.inf, self.shell.host.clock)
        assert code is not None
        self._done(key, enc, code)
        return code

    def _slice(self) -> None:
        work = self._work
        s = self.shell.session
        if work is None or s is None or work[0][0] != id(s):
            return
        code = work[1].advance(LINK_SLICE_MS, self.shell.host.clock)
        if code is None:
            self.shell.host.later(0, self._slice)
            return
        self._done(work[0], work[1], code)
        self.shell.host.rerender()

    def _done(self, key: Any, enc: SaveEncoder, code: str) -> None:
        if self._work is not None and self._work[0] == key:
            self._work = None
        self._code, self._last = (key, code), enc

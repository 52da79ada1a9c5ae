"""The Metagame console's duel panel, drawn (issue 14, M12; live duels: issue 22).

Why apart from ``duel_desk.py``: that file sets a duel up, ties it to its campaign and takes
its result; this is what the host reads and clicks of it. :class:`DuelPanel` is a part the
desk owns (``DuelDesk.panel``): it keeps its own state (the live duel's QR codes, whether its
links were shown waiting) and asks the desk only through :class:`DuelOwner`.
"""
from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import replace
from typing import Any, Protocol

import live
from ui import Node, h

from conquest.core import Game, get_game


class DuelOwner(Protocol):
    """What the panel reads of the duel's desk and asks of it (``duel_desk.DuelDesk``)."""

    shell: Any
    note: str | None  # why the last look could not decide the duel
    drawn: bool  # the duel last looked at ended in a draw

    def due(self) -> str | None: ...

    def tie(self) -> dict[str, Any] | None: ...

    def start(self, mode: str, open_now: bool = False, after: Mapping[str, Any] | None = None) -> None: ...

    def share_link(self, t: Mapping[str, Any]) -> tuple[int, str] | None: ...

    def duel_url(self, t: Mapping[str, Any]) -> str: ...

    def forget(self) -> None: ...

    def take_link(self, text: str) -> bool: ...

    def live_links(self, t: Mapping[str, Any]) -> tuple[str, list[tuple[int, str, str]], str] | None: ...

    def table_state(self, t: Mapping[str, Any]) -> str: ...


class DuelPanel:
    """What the console shows of the duel due now, and its buttons."""

    def __init__(self, desk: DuelOwner) -> None:
        self.desk = desk
        #: QR codes of the live duel's links, by link (drawn in the page, see wire_duel_desk)
        self.qr: dict[str, Node] = {}
        #: the live duel's panel says its links wait for the table's key (the page looks again)
        self.shown_waiting = False
        #: the page's way to draw the missing QR codes after a render (None in CPython)
        self.draw_qr: Callable[[], None] | None = None

    # -- the panel --------------------------------------------------------------------------
    def render(self, view: Mapping[str, Any]) -> Node | None:
        """The duel panel, or None when no built-in duel is due."""
        desk = self.desk
        gid = desk.due()
        if gid is None:
            return None
        s = desk.shell.session
        assert s is not None
        state = s.match.state
        inv = state.inv
        game = get_game(gid)
        title = game.title
        # secret simultaneous choices (a battle's cards) live only in the page that asks them:
        # a link cannot carry them from one player to the other
        secret = type(game).join_secret is not Game.join_secret
        a, d = state.player_name(inv.attacker), state.player_name(inv.defender)
        second = " (second game)" if inv.duel_wins else ""
        kids: list[Any] = [h("h4", f"Duel{second}: {title}", id="mg-duel-title")]
        t = desk.tie()
        if t is None:
            kids += [
                h("p", f"Play this duel with {a} and {d}'s names and colours, here or live on their own "
                       "two devices; the campaign takes the result by itself.", cls="mg-msg"),
                # a <p>, not a <div>: the next render's link row must not reuse these buttons (the
                # page's patcher keeps elements by tag, and a reused button would copy the link)
                h("p",
                  h("button", "Play here, on this device", type="button", id="mg-duel-here",
                    on_click=lambda ev: desk.start("here", open_now=True)),
                  h("button", "Play live on the two players' devices", type="button", id="mg-duel-live",
                    cls="secondary", on_click=lambda ev: desk.start("live", open_now=True)),
                  None if secret else h("button", "Play by link", type="button", id="mg-duel-link",
                                        cls="secondary", on_click=lambda ev: desk.start("link")),
                  cls="mg-actions"),
                h("p", f"{title} has secret choices made at one device, so it is played here, not by link.",
                  cls="mg-msg muted") if secret else None,
                h("p", "Played elsewhere, or abandoned? Enter the winner with the buttons below "
                       "(the log says it was entered by hand).", cls="mg-msg muted"),
            ]
        elif t.get("mode") == "link":
            seat, url = desk.share_link(t) or (0, "")
            first = (a, d)[seat] if seat in (0, 1) else a  # duel_setup seats the attacker first
            kids += [
                h("p", f"Send this link to {first}, who moves first. Each player makes a move and sends "
                       "the link made for the other (under Links on the duel page). When the duel ends, "
                       "paste its last link here.", cls="mg-msg"),
                h("div",
                  h("input", type="text", readonly=True, value=url, id="mg-duel-url", cls="url",
                    aria_label="The duel's link"),
                  h("button", "Copy", type="button", cls="small secondary", data_copy=url, id="mg-duel-copy"),
                  cls="mg-actions"),
                h("a", "Open it here too", href=desk.duel_url(t), target="_blank", rel="noopener",
                  cls="button secondary", id="mg-duel-open"),
            ]
        elif t.get("mode") == "live":
            kids += self.render_live(t, second)
        else:
            kids += [
                h("p", f"The duel is set up on this device: {a} against {d}. When it ends, "
                       "this console takes the result by itself.", cls="mg-msg"),
                h("a", f"Open the duel{second}", href=desk.duel_url(t), target="_blank", rel="noopener",
                  cls="button", id="mg-duel-open"),
            ]
        if t is not None:
            kids.append(h(
                "form",
                h("label", "Finished duel's link", for_="mg-duel-paste"),
                h("input", type="text", name="link", id="mg-duel-paste", autocomplete="off",
                  placeholder="https://…#h=…"),
                h("button", "Take the result", type="submit", cls="small", id="mg-duel-take"),
                id="mg-duel-paste-form", cls="mg-choose",
                on_submit=lambda ev: desk.take_link(ev.fields.get("link", "")),
            ))
            kids.append(h("button", "Set the duel up again", type="button", cls="small secondary",
                          id="mg-duel-reset", on_click=lambda ev: desk.forget()))
        if desk.note:
            kids.append(h("p", desk.note, cls="mg-msg bad", id="mg-duel-note", role="alert"))
        if desk.drawn and t is not None:
            again = str(t.get("mode", "here"))
            kids.append(h("button", "Play the duel again", type="button", id="mg-duel-again",
                          on_click=lambda ev: desk.start(again, open_now=True)))
        return h("section", *kids, id="mg-duel", cls="mg-duel")

    def render_live(self, t: Mapping[str, Any], second: str) -> list[Any]:
        """The live duel: the table's tab, each player's link and QR code, the spectators' link."""
        links = self.desk.live_links(t)
        kids: list[Any] = [
            h("p", "Played live: each player plays their seat on their own device. This device runs the "
                   "duel's table in its own tab: keep that tab open. When the duel ends, this console "
                   "takes the result by itself and replays it (M12).", cls="mg-msg"),
            self.table_way(t, second),
        ]
        if links is None:
            kids.append(h("p", "The live table of this duel is not in this browser any more: set the duel up "
                               "again, or enter the winner by hand.", cls="mg-msg bad", id="mg-live-lost"))
            return kids
        code, seats, watch = links
        kids.append(h("p", "Room code ", h("strong", code, id="mg-live-code"), cls="mg-msg"))
        if t.get("table_from"):  # a capital's second duel, at the first duel's table (issue 42)
            kids.append(h("p", "The second game is played at the first game's table: the same room code and the "
                               "same links. The players' devices still at the table get it by themselves; a player "
                               "who left opens their link again.", cls="mg-msg", id="mg-live-same"))
        self.shown_waiting = not watch
        if not watch:
            kids.append(h("p", "The players' links show here once the duel's table has opened in its tab "
                               "(it makes the key that signs the table's messages).", cls="mg-msg",
                          id="mg-live-wait"))
            return kids
        for seat, name, url in seats:
            kids.append(h(
                "div",
                h("p", h("strong", f"{name}'s link"), f" (their seat only: send it to {name} alone)", cls="mg-msg"),
                self._qr(url, f"mg-live-qr-{seat}"),
                h("p",
                  h("button", f"Copy {name}'s link", type="button", cls="small secondary", data_copy=url,
                    id=f"mg-live-copy-{seat}"),
                  cls="mg-actions"),
                h("span", url, cls="url", id=f"mg-live-url-{seat}"),
                cls="mg-live-seat", data_seat=str(seat),
            ))
        kids.append(h(
            "div",
            h("p", "Spectators may watch with this link:", cls="mg-msg muted"),
            h("p", h("button", "Copy the spectators' link", type="button", cls="small secondary", data_copy=watch,
                     id="mg-live-copy-watch"), cls="mg-actions"),
            h("span", watch, cls="url", id="mg-live-url-watch"),
            cls="mg-live-watch",
        ))
        kids.append(h("p", live.PRIVACY, cls="mg-msg muted live-privacy"))
        return kids

    def table_way(self, t: Mapping[str, Any], second: str) -> Node:
        """One way to the duel's table (issue 36). "Play live" opens the table's tab by
        itself; a link to open it besides would open a second tab of the same table, which
        only shows the game (``live_browser``: one tab runs a table). So the link is offered
        only while no tab of this browser runs the table (closed, or never opened); else the
        panel says where it is (a page cannot bring another tab to the front)."""
        state = self.desk.table_state(t)
        if state == "open":
            return h("p", "The duel's table is open in its own tab of this browser: switch to that tab to see "
                          "the board.", cls="mg-msg", id="mg-duel-table", role="status")
        if state == "opening":
            return h("p", "The duel's table is opening in a new tab of this browser: switch to that tab to see "
                          "the board.", cls="mg-msg", id="mg-duel-table", role="status")
        return h("a", f"Open the duel's table{second}", href=self.desk.duel_url(t), target="_blank", rel="noopener",
                 cls="button", id="mg-duel-open")

    def _qr(self, url: str, id_: str) -> Node | None:
        node = self.qr.get(url)
        # two codes on one page: one id each, on a copy (a drawn tree is never changed after,
        # dom.py compares it with the next render's)
        return None if node is None else replace(node, attrs={**node.attrs, "id": id_})

    def after_render(self) -> None:
        """The live duel's QR codes not drawn yet, drawn by the page."""
        if self.draw_qr is not None and self.qr_wanted():
            self.draw_qr()

    def qr_wanted(self) -> list[str]:
        """The live duel's links whose QR code the page has not drawn yet."""
        t = self.desk.tie()
        links = self.desk.live_links(t) if t is not None and t.get("mode") == "live" else None
        if links is None:
            return []
        return [url for _, _, url in links[1] if url not in self.qr]

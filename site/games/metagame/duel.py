"""The console's side of a duel: its decision box, the winner buttons, a player's own link.

Why a part: the duel desk (``duel_desk.DuelDesk``) sets a built-in duel up and takes its
result; this part places it on the console (under the drawn game, with the winner buttons
for a duel played elsewhere, issue 41), carries out what the desk asks after a render (open
the duel's tab, bring its panel into view), and, on the host's page, draws every device's
page again when the live duel's links change, so that each player's device shows that
player's own link (issue 39).
"""
from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ui import Node, h

from conquest.games.metagame.actions import Duel


class DuelBox:
    """Where the duel shows on the console, and what the devices were last told of it."""

    def __init__(self, page: Any) -> None:
        self.page = page
        self.shell = page.shell
        #: the host's page: its live table's devices' pages (``remote.Devices``) or None (set
        #: in main), drawn again when what they show of this page changes
        self.device_pages: Any = None
        self.links_told: Any = None

    def after_render(self) -> None:
        """What the desk asked for during the render, and the devices told of its links."""
        desk = self.page.duel_desk
        url, desk.open_now = desk.open_now, None
        if url is not None:  # "Play here, on this device" opens the duel at once (item 7)
            self.shell.host.open_tab(url)
        desk.after_render()  # a live duel's QR codes (drawn in the page)
        self.tell_devices()
        if desk.reveal:  # a refused or drawn duel: its panel in view (issue 39)
            desk.reveal = False
            self.shell.host.reveal("mg-duel")

    def tell_devices(self) -> None:
        """The host's page: when the live duel's links change, every device's page is drawn
        again (each shows its player's own link, ``render_my_duel``). Looked up only while
        devices are connected: a render with none reads no storage for it."""
        devices = self.device_pages() if self.device_pages is not None else None
        s = self.shell.session
        if devices is None or not devices.pages or s is None or s.mode != "host":
            return
        t = self.page.duel_desk.tie()
        links = self.page.duel_desk.live_links(t) if t is not None and t.get("mode") == "live" else None
        if links != self.links_told:
            self.links_told = links
            devices.redraw()

    def my_duel(self) -> tuple[str, str] | None:
        """On a player's device at a live campaign table, at a duel played live: the duel's
        title and this player's own link to it (from the host's page, issue 39)."""
        s = self.shell.session
        host = self.page.host_page
        if s is None or s.mode != "guest" or s.only_seat is None or getattr(host, "game_id", None) != self.page.game_id:
            return None
        state = s.match.state
        inv = state.inv
        if state.phase != "duel" or inv is None or s.only_seat not in (inv.attacker, inv.defender):
            return None
        return host.duel_desk.player_link(state.players[s.only_seat].name)

    def render_my_duel(self, view: Mapping[str, Any]) -> Node | None:
        mine = self.my_duel()
        if mine is None:
            return None
        title, url = mine
        return h("section", h("h4", f"Your duel: {title}"),
                 h("p", "It is played live on its own table: open your seat's link here, play, and come back; "
                        "the host's console takes the result by itself (M12).", cls="mg-msg"),
                 h("p", h("a", "Open my duel", href=url, target="_blank", rel="noopener", id="mg-my-duel",
                          cls="button"), cls="mg-actions"),
                 id="mg-my-duel-box", cls="mg-duel")

    def winner_buttons(self, view: Mapping[str, Any]) -> list[Node]:
        """The duel's result: shown once the wheel has stopped, beside the drawn game."""
        s = self.shell.session
        inv = view["invasion"]
        if s is None or s.locked() or view["phase"] != "duel" or view["outcome"] is not None or self.page.wheel.spinning():
            return []
        a = view["players"][inv["attacker"]]["name"]
        d = view["players"][inv["defender"]]["name"]
        kids: list[Node] = []
        if inv["needed_wins"] == 2:
            nth = "second" if inv["duel_wins"] else "first"
            kids.append(h("p", f"Capital: {a} must win twice. Result of the {nth} game:", cls="mg-msg"))
        kids.append(h("div",
                      self.page.controls.button(f"{a} (attacker) won", Duel("a"), id="mg-won-a"),
                      self.page.controls.button(f"{d} (defender) won", Duel("d"), id="mg-won-d"),
                      cls="mg-actions mg-result-actions", id="mg-winners"))
        return kids

    def render_decide(self, view: Mapping[str, Any]) -> Node | None:
        """The duel's next decision under the drawn game, in one box the shell brings into
        view (issue 41): how the duel is played (here, live, by link; it stood above the
        wheel, off the screen after a spin) and, for a duel played elsewhere, its winner."""
        kids = [self.page.duel_desk.render(view) if view["phase"] == "duel" else None, *self.winner_buttons(view)]
        if not any(k is not None for k in kids):
            return None
        return h("div", *kids, id="mg-decide", cls="mg-decide")

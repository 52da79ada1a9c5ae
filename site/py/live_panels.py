"""The live panels (issues 22, 36, 37): the host's table, a guest device's, a second tab's;
the join link's QR code; connection problems, said in plain words while they last.

Why apart: what people read about a table is drawn from the table's state and never
changes it (the controls call back ``on``); the browser glue (``live_browser.py``) and the
guest devices' pages (``remote.py``) mount these trees.
"""
from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from live_guest import Guest
from live_seating import Seating
from live_table import Table
from live_wire import MAX_NAME
from shell import and_list
from ui import Node, h

from conquest.session import excerpt


# -- renderers: the live panel ------------------------------------------------------------------
def qr_svg(modules: Sequence[Sequence[bool]], label: str) -> Node:
    """A QR code as one SVG path (modules from the pinned encoder; drawn here, no network)."""
    from ui import svg

    n = len(modules)
    d = "".join(f"M{c + 4} {r + 4}h1v1h-1z" for r, row in enumerate(modules) for c, on in enumerate(row) if on)
    return svg("svg", svg("title", label), svg("rect", x=0, y=0, width=n + 8, height=n + 8, fill="#fff"),
               svg("path", d=d, fill="#000"), viewBox=f"0 0 {n + 8} {n + 8}", role="img",
               aria_label=label, cls="live-qr", id="live-qr")


PRIVACY = (
    "How it works: the devices talk directly (WebRTC). To find each other they post encrypted "
    "notes on public Nostr relays: a relay sees that devices meet under a scrambled room name, "
    "when, and their IP addresses, never the game (the password in the link encrypts it, and "
    "the part of a link after # is never sent to any server). The link also names the host's "
    "key: the host's device signs what it sends, so no other device can pose as the host. "
    "Every device at the table sees the other devices' IP addresses."
)
#: a browser without WebRTC (typeof RTCPeerConnection is "undefined": an iPhone in Lockdown
#: Mode, some apps' own browsers, WebKitGTK as Debian builds it) cannot hold a table: said at
#: once (as a guest it plays through the relays alone: ``static/live.js`` openRelay, issue 37)
_WHY_NO_WEBRTC = (
    "it has no WebRTC, the direct connection between devices that live play uses (some browsers "
    "turn it off, such as an iPhone in Lockdown Mode or an app's own browser)."
)
HOST_NO_WEBRTC = (
    f"This browser cannot hold a live table: {_WHY_NO_WEBRTC} Open this game in another browser to "
    "play it live (copy the host link under “Links and files”), or play by links instead: send the "
    "host link after each turn."
)
HOST_NO_CONNECTION = (
    "Guests cannot reach this table now. Some networks (mobile carriers, offices) block direct "
    "connections between devices: then enter a TURN server under Live settings (each device needs "
    "it), or play by links instead: send the host link under “Links and files” after each turn."
)


# -- connection problems (issue 36): said in what is known, shown only while they last ----------
#: a problem about a peer that has not come back within this long is no longer shown (the peer
#: library tries again by itself; a device that gave up is no problem of the table's)
PROBLEM_MS = 60_000


def explain_problem(raw: str) -> str:
    """The peer library's words for a failed connection, in plain words (what is known)."""
    low = raw.lower()
    if "after exchanging sdp" in low:
        return "a device found this table through the relays but could not connect to it directly"
    if "handshake" in low:
        return "a device connected but did not finish greeting this one in time (it tries again)"
    if "password" in low:
        return "a device came with another password for this room (an old or altered link)"
    return excerpt(raw, 120)


class Problems:
    """Connection problems, each about one peer, shown only while they last (issue 36).

    Why: a problem that was set once and never cleared ("handshake timed out" beside
    "Connected") told people something was wrong all game. A problem goes when its peer
    connects or leaves, when the guest hears from its host, or after :data:`PROBLEM_MS`."""

    def __init__(self) -> None:
        self.items: dict[str, tuple[str, float]] = {}

    def add(self, peer: str, raw: str, now_ms: float) -> None:
        self.items[peer] = (explain_problem(raw), now_ms)
        if len(self.items) > 16:  # bounded: the oldest go
            for key in sorted(self.items, key=lambda k: self.items[k][1])[:-16]:
                del self.items[key]

    def resolved(self, peer: str) -> None:
        self.items.pop(peer, None)

    def clear(self) -> None:
        self.items.clear()

    def current(self, now_ms: float) -> list[str]:
        """The problems still worth showing, newest last, each once."""
        live_items = sorted((t, text) for text, t in self.items.values() if now_ms - t < PROBLEM_MS)
        out: list[str] = []
        for _, text in live_items:
            if text not in out:
                out.append(text)
        return out


def render_host_panel(table: Table, join_url: str, qr: Node | None, on: Callable[..., Any],
                      levels: Sequence[str]) -> Node:
    """The host's table: join link (copy or share), QR code, room code; seats and devices; Close.
    Drawn from the table's record (``table.seating``); ``on`` answers its controls."""
    record = table.seating
    s = record.session
    rows = []
    devices = list(record.devices.values())
    for i, seat in enumerate(s.seats()):
        d = next((x for x in devices if x.seat == i), None)
        if seat.is_bot:
            where = "the computer"
        elif i in record.reserved and (d is None or d.token == record.reserved[i]) and not (d and d.connected):
            # kept for one person's own link (a Metagame duel): nobody else may sit here
            where = f"waiting for {seat.name}'s own link"
        elif d is not None:
            where = f"{d.name}'s device" + ("" if d.connected else " (disconnected, waiting)")
        elif i in record.kept():
            where = "this device"
        elif record.game.host_is_referee:
            where = "open: played from this page until its player takes it"
        else:
            where = "open: a guest may take it"
        free = d is None and not seat.is_bot and i not in record.kept()
        options = [h("option", "This device", value="", selected=d is None and not seat.is_bot and not free),
                   h("option", "Open: a guest may take it", value="open", selected=free)]
        options += [h("option", f"{x.name}'s device", value=x.token, selected=x is d) for x in devices]
        if i not in record.reserved:  # a campaign duel's seat is its player's, never the computer's (M12)
            options += [h("option", f"Computer ({lv})", value=f"bot:{lv}", selected=seat.is_bot and seat.who == lv)
                        for lv in levels]
        rows.append(h(
            "li",
            h("span", cls="swatch", style=f"background:{seat.colour}", aria_hidden="true"),
            h("strong", seat.name), " — ", h("span", where, cls="live-where"),
            h("label", f"Who plays {seat.name}: ",
              h("select", *options, id=f"live-seat-{i}", cls="live-seat-select",
                on_change=lambda ev, k=i: on("seat", k, ev.value))),
            data_seat=str(i), cls="live-seat",
        ))
    watchers = [d for d in devices if d.seat is None]
    return h(
        "div",
        h("h2", "Live table"),
        h("p", _host_intro(record), cls="muted", id="live-intro"),
        h("div",
          h("button", "Copy the join link", type="button", cls="small", id="live-copy-join", data_copy=join_url),
          # the phone's own share sheet (issue 36): static/frame.js calls navigator.share, and
          # static/live.css hides the button where the browser has no Web Share API
          h("button", "Share…", type="button", cls="small", id="live-share-join", data_share=join_url,
            data_share_title=f"{record.game.title}: join my live table"),
          h("p", "Room code ", h("strong", record.code, id="live-code"), cls="live-code-line"),
          h("span", join_url, cls="url", id="live-join-url"),
          cls="live-join") if join_url else h("p", "Preparing the table's key…", cls="muted", role="status"),
        qr,
        h("ul", *rows, id="live-seats", cls="live-seats", aria_label="Seats at the live table"),
        h("p", f"Watching: {', '.join(d.name + ('' if d.connected else ' (gone)') for d in watchers)}"
          if watchers else "Nobody is watching.", cls="muted", id="live-watchers"),
        h("ul", *[h("li", t) for t in record.log_notes[-5:]], cls="live-notes muted", aria_live="polite"),
        h("button", "Close the table", type="button", id="live-close", cls="secondary",
          on_click=lambda ev: on("close")),
        h("p", PRIVACY, cls="muted live-privacy"),
        id="live-panel-inner", cls="live-panel",
    )


def _host_intro(record: Seating) -> str:
    """What the host tells its friends. Where every person's seat is kept for a named
    player's own link (a Metagame duel's two players), no seat is free to pick: say whose
    link each seat waits for, and that anyone else who opens the table's link watches."""
    s = record.session
    people = [i for i, seat in enumerate(s.seats()) if not seat.is_bot and i not in record.kept()]
    private = "Each device sees only what its seat may see."
    if people and not record.free_seats() and all(i in record.reserved for i in people):
        names = [s.seats()[i].name for i in people]
        return (f"Every seat here is kept for its player: {and_list(names)} each open their own link, "
                f"given where the table was made, on their own device. Anyone else who opens the join "
                f"link below watches. {private}")
    return f"Friends open this link (or scan the code) on their own device, pick a free seat and play. {private}"


#: what a second tab of a table says in its live panel (issue 36)
ELSEWHERE = ("This live table is open in another tab of this browser, which runs it: the players' devices "
             "are connected to that tab. This tab only shows the game as it goes on; play and change the "
             "table in the other tab.")
ELSEWHERE_RELOAD = "Closed the other tab? Reload this one to run the table here."


def render_elsewhere_panel() -> Node:
    """The live panel of a tab whose table another tab of this browser runs (issue 36)."""
    return h(
        "div",
        h("h2", "Live table"),
        h("p", ELSEWHERE, id="live-elsewhere", role="status"),
        h("p", ELSEWHERE_RELOAD, cls="muted"),
        id="live-panel-inner", cls="live-panel live-elsewhere",
    )


def guest_summary(guest: Guest) -> str:
    """The folded panel's one line on a guest's device, as the host draws it (issue 37: the
    device's own page speaks until the host answers): its seat, or that it watches."""
    seats, you = guest.meta.get("seats") or [], guest.meta.get("you")
    if guest.closed:
        return "Live table: closed by the host"
    if isinstance(you, int) and 0 <= you < len(seats) and isinstance(seats[you], Mapping):
        return f"Live table: you play {seats[you].get('name', '')}"
    return "Live table: you are watching"


def guest_wants_open(guest: Guest) -> bool:
    """Whether a guest's folded panel should be open: it needs the person (no seat yet, a
    closed table); once seated it folds so the board has the screen."""
    return guest.closed or not isinstance(guest.meta.get("you"), int)


def render_guest_panel(guest: Guest, on: Callable[..., Any]) -> Node:
    """A guest device's table, as the host's page draws it for that device (issue 37): its
    seat (pick a free one), its name, who is where; what peers see. (Before the host answers,
    the device's own page speaks: ``static/guest.js``.)"""
    meta = guest.meta
    seats = meta.get("seats") or []
    you = meta.get("you")
    parts: list[Any] = [h("h2", "Live table")]
    if guest.closed:
        parts.append(h("p", "The host closed the table.", id="live-status"))
    else:
        who = seats[you]["name"] if isinstance(you, int) and 0 <= you < len(seats) else None
        parts.append(h("p", f"Connected. You play {who}." if who else "Connected. You are watching.",
                       id="live-status", role="status"))
    parts.append(h("label", "Your name ",
                   h("input", type="text", id="live-name", maxlength=str(MAX_NAME), value=guest.name,
                     autocomplete="nickname", on_change=lambda ev: on("name", ev.value))))
    buttons = []
    for i, seat in enumerate(seats):
        if not isinstance(seat, Mapping):
            continue
        if seat.get("where") == "free":
            buttons.append(h("button", f"Play {seat.get('name', '')}", type="button", cls="live-take",
                             data_take=str(i), on_click=lambda ev, k=i: on("claim", k)))
    if buttons and not isinstance(you, int):
        parts.append(h("div", h("p", "Free seats:"), *buttons, id="live-free", cls="live-free"))
    if isinstance(you, int):
        parts.append(h("button", "Watch instead", type="button", cls="small secondary", id="live-watch",
                       on_click=lambda ev: on("claim", None)))
    listing = [
        h("li", h("span", cls="swatch", style=f"background:{x.get('colour', '#888')}", aria_hidden="true"),
          f"{x.get('name', '')}: " + ("computer" if x.get("bot") else
                                     (f"{x.get('device')}'s device" + ("" if x.get("connected") else " (away)"))
                                     if x.get("device") else {"host": "the host's device", "reserved": "kept for its player"}
                                     .get(str(x.get("where")), "free")))
        for x in seats if isinstance(x, Mapping)
    ]
    parts.append(h("ul", *listing, cls="live-seats", id="live-seats"))
    parts.append(h("p", PRIVACY, cls="muted live-privacy"))
    return h("div", *parts, id="live-panel-inner", cls="live-panel")

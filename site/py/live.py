"""Live play across devices (issue 22): the table protocol, browser-free.

Why apart from the shell: live play is one more way to reach the same save, not a new one
(design.md, "Live play across devices"). The host's page keeps its :class:`shell.Session`
and its slot exactly as in hot-seat play; a :class:`Table` beside it answers the other
devices. A guest's page runs the same :class:`shell.GamePage` on a :class:`GuestSession`
whose match mirrors what the host sends (redacted states, ``Game.redact``), so the board
and controls are the hot-seat ones. Nothing here imports ``js``: the transport is two
callables (``send(peer, text)`` on the host, ``send(text)`` on a guest), a browser data
channel in the page (``live_browser.py``) and a fake network in the tests.

Peers are untrusted. Every message from a device is checked in this order: the device's
rate (a token bucket: a flood is dropped before anything is parsed, so it neither freezes
the host nor delays the others), its size (bounded before parsing), its JSON and shape,
then what it asks: a guest acts only for its own seat and only at the present step, a
spectator for no seat, and the engine refuses what is not legal with its own message.
A refusal is answered to that device alone and changes nothing.

Where each part is (issue 42: one concern a module): the keys and links
(``live_links.py``), the messages' limits and checks (``live_wire.py``), the sessions of
both sides (``live_sessions.py``), the host's table (its record ``live_seating.py``, what
it sends ``live_sync.py``, what it answers ``live_table.py``), the guest's side
(``live_guest.py``) and the panels (``live_panels.py``). This module gathers their names:
the pages and the tests say ``live.Table``, ``live.parse_join_fragment``, … as before.
"""
from __future__ import annotations

from live_guest import Guest
from live_links import (
    CODE_ALPHABET,
    GUEST_DIR,
    HOST_KEY_CHARS,
    JOIN_LINK_DAMAGED,
    JOIN_LINK_NO_GAME,
    JOIN_PREFIX,
    LOOKING,
    MAX_LINK_RELAYS,
    NOT_FOUND,
    RELAY_CHARS,
    RELAYS_MARK,
    TABLE_KEY,
    TABLE_LOCK,
    device_token,
    guest_page,
    is_room_code,
    join_fragment,
    link_relays,
    new_table_keys,
    parse_join_fragment,
    parse_seat_key,
    pasted_join_link,
    preseated_table,
    relays_fragment,
    seat_fragment,
    table_lock,
    transport_settings,
)
from live_panels import (
    ELSEWHERE,
    ELSEWHERE_RELOAD,
    HOST_NO_CONNECTION,
    HOST_NO_WEBRTC,
    PRIVACY,
    PROBLEM_MS,
    Problems,
    explain_problem,
    guest_summary,
    guest_wants_open,
    qr_svg,
    render_elsewhere_panel,
    render_guest_panel,
    render_host_panel,
)
from live_seating import Device, Seating
from live_sessions import GuestSession, MirrorMatch, TableSession, adopt, cite, show_only
from live_sync import TableSync
from live_table import Table
from live_wire import (
    GUEST_KINDS,
    MAX_IN,
    MAX_NAME,
    MAX_SHARES,
    MAX_UPDATE,
    SETTINGS,
    LiveError,
    RateLimit,
    parse_message,
    part_from_json,
    part_to_json,
    stranger_limit,
)

__all__ = [
    # the protocol (live_wire)
    "SETTINGS", "MAX_IN", "MAX_UPDATE", "MAX_NAME", "MAX_SHARES", "GUEST_KINDS", "LiveError", "parse_message",
    "part_to_json", "part_from_json", "RateLimit", "stranger_limit",
    # keys and links (live_links)
    "CODE_ALPHABET", "HOST_KEY_CHARS", "JOIN_PREFIX", "GUEST_DIR", "RELAYS_MARK", "MAX_LINK_RELAYS", "RELAY_CHARS",
    "TABLE_KEY", "TABLE_LOCK", "JOIN_LINK_DAMAGED", "JOIN_LINK_NO_GAME", "LOOKING", "NOT_FOUND", "new_table_keys",
    "join_fragment", "guest_page", "seat_fragment", "parse_seat_key", "parse_join_fragment", "preseated_table",
    "relays_fragment", "link_relays", "transport_settings", "is_room_code", "pasted_join_link", "device_token",
    "table_lock",
    # sessions (live_sessions)
    "MirrorMatch", "GuestSession", "TableSession", "cite", "adopt", "show_only",
    # the host's table (live_seating, live_sync, live_table) and the guest's side (live_guest)
    "Device", "Seating", "TableSync", "Table", "Guest",
    # panels (live_panels)
    "qr_svg", "PRIVACY", "HOST_NO_WEBRTC", "HOST_NO_CONNECTION", "PROBLEM_MS", "explain_problem", "Problems",
    "render_host_panel", "ELSEWHERE", "ELSEWHERE_RELOAD", "render_elsewhere_panel", "guest_summary",
    "guest_wants_open", "render_guest_panel",
]

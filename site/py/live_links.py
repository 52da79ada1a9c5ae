"""A live table's keys and links (issues 22, 36, 37): room codes, passwords, join links and
their fragments, the relays a link names, a link or code pasted into the landing page, and
the names under which a host's page keeps its table and its lock.

Why apart: these are plain texts read from untrusted places (a link's fragment, a pasted
text, this device's stored settings), checked here before anything uses them; the landing
page (``pages/home.py``), the Metagame console (``duel_desk.py``) and the host's page
(``live_browser.py``) use them without a table.
"""
from __future__ import annotations

import re
import secrets
from collections.abc import Sequence
from typing import Any

from live_wire import MAX_NAME, MAX_UPDATE, SETTINGS

from conquest.savecode import load_json

#: the fragment of a join link: ``#live=<room code>.<password>.<host key>`` (never sent to a
#: relay); a link made for one seat adds ``.<seat key>`` (:func:`seat_fragment`)
JOIN_PREFIX = "#live="
#: where a host's page keeps its open table, by the game's slot (``+ slot id``): the host's
#: page reopens it after a reload, and the Metagame console writes one for a duel
TABLE_KEY = "conquest:live-table:"
#: the lock (the browser's Web Locks, ``navigator.locks``) that the one tab running a table
#: holds for its page's life, by room code (:func:`table_lock`)
TABLE_LOCK = "conquest:live-lock:"


# -- codes and links -------------------------------------------------------------------------
_CODE_ALPHABET = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789"  # no 0/O, 1/I: read aloud on a call
#: the same letters, for the transport (a new table's code is made from its key: codeForKey)
CODE_ALPHABET = _CODE_ALPHABET


def new_table_keys() -> tuple[str, str]:
    """A short room code people can read aloud, and the table's password (both random).

    Why two: the room code names the meeting place on the relays (they see it, hashed by
    Trystero); the password encrypts the signalling and travels only in the link's
    fragment, which browsers never send to any server.
    """
    code = "".join(secrets.choice(_CODE_ALPHABET) for _ in range(int(SETTINGS["room_code_chars"])))
    password = secrets.token_urlsafe(int(SETTINGS["password_chars"]) * 3 // 4)[: int(SETTINGS["password_chars"])]
    return code, password


#: a P-256 public key, raw (65 bytes: 0x04, x, y), in base64url without padding
HOST_KEY_CHARS = 87


def join_fragment(code: str, password: str, host_key: str) -> str:
    """``#live=<code>.<password>.<host's public key>``.

    Why the key: every guest knows the password, so the password cannot tell the host from
    another guest. The host signs every message it sends (ECDSA P-256, WebCrypto, over the
    receiving peer's id and the text: ``static/live.js``) and a guest takes only messages
    signed by the key its link names; a peer posing as the host is ignored."""
    return f"{JOIN_PREFIX}{code}.{password}.{host_key}"


#: a game's guest page, under its play page (issue 37): the same page without the engine
GUEST_DIR = "guest/"


def guest_page(page_url: str) -> str:
    """The guest page of the game whose play page is ``page_url`` (``…/play/<game>/`` ->
    ``…/play/<game>/guest/``): where join links lead, so a guest device boots no engine.
    (A join link to the play page itself goes there too: ``static/joining.js``.)"""
    base = page_url.split("#", 1)[0].split("?", 1)[0]
    if base.endswith("index.html"):
        base = base[: -len("index.html")]
    if not base.endswith("/"):
        base += "/"
    return base if base.endswith("/" + GUEST_DIR) else base + GUEST_DIR


def seat_fragment(code: str, password: str, host_key: str, seat_key: str) -> str:
    """A join link's fragment for one seat: the device that opens it is the device the
    host's table already seats there (the seat key is that device's token,
    :func:`preseated_table`)."""
    return f"{join_fragment(code, password, host_key)}.{seat_key}"


def _key_ok(key: str) -> bool:
    return 16 <= len(key) <= 64 and all(c.isalnum() or c in "-_" for c in key)


def parse_seat_key(fragment: str) -> str | None:
    """The seat key of a link made for one seat (:func:`seat_fragment`), or None."""
    if parse_join_fragment(fragment) is None:
        return None
    key = fragment.split(RELAYS_MARK, 1)[0][len(JOIN_PREFIX) :].split(".")[3:4]
    return key[0] if key else None


def preseated_table(code: str, password: str, people: Sequence[tuple[str, int]]) -> tuple[dict[str, Any], list[str]]:
    """A table record (what :meth:`Seating.to_json` stores, ``Table.seating``) whose seats are already given to
    devices not yet connected, one per ``(name, seat)``; and their keys, in that order.

    Why: a Metagame duel is between two named players (M12). The console seats each one
    before anyone joins, so no seat is free: a spectator who opens the table's link can only
    watch, and each player's own link (:func:`seat_fragment`) finds their seat waiting. The
    record has no signing key yet: the duel's page makes one when it opens the table, and the
    console shows the links once it is stored.
    """
    keys = [device_token() for _ in people]
    devices = [{"token": k, "name": name[:MAX_NAME], "seat": seat} for k, (name, seat) in zip(keys, people, strict=True)]
    reserved = {str(seat): k for k, (_, seat) in zip(keys, people, strict=True)}
    return {"code": code, "password": password, "devices": devices, "kept": [], "reserved": reserved}, keys


def parse_join_fragment(fragment: str) -> tuple[str, str, str] | None:
    """``(code, password, host key)`` from a join link's fragment (a seat's link adds its
    seat key: :func:`parse_seat_key`; a host's own relays may follow: :func:`link_relays`),
    or None when it is not one."""
    fragment = fragment.split(RELAYS_MARK, 1)[0]
    if not fragment.startswith(JOIN_PREFIX) or len(fragment) > 320:
        return None
    parts = fragment[len(JOIN_PREFIX) :].split(".")
    if len(parts) not in (3, 4):
        return None
    if len(parts) == 4 and not _key_ok(parts[3]):
        return None
    code, password, key = parts[:3]
    ok = set(_CODE_ALPHABET)
    if not (4 <= len(code) <= 16 and set(code) <= ok and 8 <= len(password) <= 64 and len(key) == HOST_KEY_CHARS):
        return None
    if not all(c.isalnum() or c in "-_" for c in password + key):
        return None
    return code, password, key


# -- a host's own relays travel in its join link (issue 36) ------------------------------------
#: after the join fragment: ``&relays=<base64url of the relay addresses, one per line>``
RELAYS_MARK = "&relays="
#: at most this many relays, each at most RELAY_CHARS long, ws:// or wss:// only
MAX_LINK_RELAYS = 4
RELAY_CHARS = 120
_RELAY = re.compile(r"wss?://[A-Za-z0-9.-]{1,100}(?::[0-9]{1,5})?(?:/[A-Za-z0-9._~/-]{0,60})?")


def relays_fragment(relays: Sequence[str]) -> str:
    """The part a join link adds for a host that uses relays other than the site's own: a
    guest then needs to type nothing (checked by :func:`link_relays` on the guest's side)."""
    import base64

    kept = [r for r in relays if _RELAY.fullmatch(r) and len(r) <= RELAY_CHARS][:MAX_LINK_RELAYS]
    if not kept:
        return ""
    return RELAYS_MARK + base64.urlsafe_b64encode("\n".join(kept).encode()).decode().rstrip("=")


def link_relays(fragment: str) -> list[str] | None:
    """The relays a join link names (None: it names none, or they are not plain ws/wss
    addresses within the bounds: then the guest's own relays are used and nothing is read).
    Bounded before it is decoded; data, never markup."""
    import base64
    import binascii

    if RELAYS_MARK not in fragment:
        return None
    raw = fragment.split(RELAYS_MARK, 1)[1]
    if not raw or len(raw) > (MAX_LINK_RELAYS * (RELAY_CHARS + 1)) * 4 // 3 + 4 or not re.fullmatch(r"[A-Za-z0-9_-]+", raw):
        return None
    try:
        text = base64.urlsafe_b64decode(raw + "=" * (-len(raw) % 4)).decode("utf-8")
    except (binascii.Error, ValueError):
        return None
    relays = text.split("\n")
    if not 1 <= len(relays) <= MAX_LINK_RELAYS or not all(len(r) <= RELAY_CHARS and _RELAY.fullmatch(r) for r in relays):
        return None
    return relays


# -- a join link pasted into the landing page's box (issue 36) --------------------------------
#: a join link's page, ``…/play/<game id>/``: only the game id is taken from it, never its origin
_PLAY_PATH = re.compile(r"(?:^|/)play/([a-z0-9_-]{1,40})(?:/(?:guest/?)?)?$")
JOIN_LINK_DAMAGED = (
    "That is a live table's join link, but it is incomplete or damaged (a link cut short when it "
    "was copied?). Ask the host to send it again: “Copy the join link” or “Share…” on their page."
)
JOIN_LINK_NO_GAME = (
    "That is a live table's join link, but it does not name one of this site's games "
    "(…/play/<game>/#live=…). Ask the host to send the whole link again."
)


def transport_settings(pref: str | None) -> dict[str, Any]:
    """What the transport (``static/live.js``) is given: the relays (this device's Live
    settings, else ``live.json``'s), ICE servers, TURN, and the test and benchmark switches,
    from the stored preference text (anything malformed in it is left out)."""
    try:
        raw = load_json(pref or "{}", "preference")
    except ValueError:
        raw = {}
    raw = raw if isinstance(raw, dict) else {}
    relays = [r for r in raw.get("relays", []) if isinstance(r, str)] or list(SETTINGS["relays"])
    out: dict[str, Any] = {"appId": SETTINGS["app_id"], "relays": relays[:8], "maxChars": MAX_UPDATE,
                           "codeAlphabet": _CODE_ALPHABET}
    for switch in ("trickleIce", "record", "trace"):  # trace: the benchmark's; record: the tests'
        if raw.get(switch) is True:
            out[switch] = True
    ice = raw.get("iceServers")
    if isinstance(ice, list):
        out["iceServers"] = [x for x in ice if isinstance(x, dict)]
    turn = raw.get("turn")
    if isinstance(turn, dict) and isinstance(turn.get("urls"), str) and turn["urls"]:
        out["turn"] = {k: str(v) for k, v in turn.items() if k in ("urls", "username", "credential")}
    return out


#: what the landing page says while it asks the relays for a typed room code's table
LOOKING = "Looking for table {code} on the relays…"
NOT_FOUND = (
    "No table answered to the code {code}. Check the code with the host (their live panel shows it), "
    "and that their page is open with its live table on; or ask for the join link or its QR code."
)


def is_room_code(text: str) -> bool:
    """Whether typed text is a room code alone (any case, spaces anywhere), as the host's
    panel shows it and people read it aloud (the landing page then looks its table up)."""
    code = "".join(text.split()).upper()
    return len(code) == int(SETTINGS["room_code_chars"]) and set(code) <= set(_CODE_ALPHABET)


def pasted_join_link(text: str, root: str, games: Sequence[str] | set[str]) -> tuple[str, str] | None:
    """What the landing page's "Open" does with ``text`` (issue 36): ``("open", url)`` for a
    live table's join link, ``("code", CODE)`` for a room code alone (the page asks the relays
    for its table: ``pages/home.py`` ``find_table``), ``("say", words)`` for a join link that
    cannot be opened, None for anything else (it is opened as a game link, as before).

    Why the URL is rebuilt: a pasted link may come from anywhere, and the box must never send
    anyone to another origin. Only the game id is taken from its path (one of ``games``, the
    site's), the fragment is checked (:func:`parse_join_fragment`, :func:`link_relays`) and
    written again, and the page is ``root`` (this site's, absolute) + ``play/<game id>/guest/``
    (the game's guest page, issue 37)."""
    text = text.strip()
    if is_room_code(text):
        return "code", "".join(text.split()).upper()
    before, sep, frag = text.partition("#")
    if not sep or not frag.startswith(JOIN_PREFIX[1:]):
        return None
    fragment = "#" + frag
    keys = parse_join_fragment(fragment)
    if keys is None:
        return "say", JOIN_LINK_DAMAGED
    found = _PLAY_PATH.search(before.split("?", 1)[0])
    gid = None if found is None else found.group(1)
    if gid is None or gid not in games:
        return "say", JOIN_LINK_NO_GAME
    seat = parse_seat_key(fragment)
    clean = seat_fragment(*keys, seat) if seat else join_fragment(*keys)
    clean += relays_fragment(link_relays(fragment) or [])  # the host's own relays, if valid
    return "open", f"{guest_page(root.rstrip('/') + '/play/' + gid + '/')}{clean}"


# -- a device's key, a table's lock ---------------------------------------------------------------
def device_token() -> str:
    """A device's key at a table: random, kept by the device, so a reload finds its seat."""
    return secrets.token_urlsafe(18)


def table_lock(code: str) -> str:
    """The name of the lock held by the tab that runs table ``code``. Issue 36, one
    authority per table: a second tab or window of the same table in this browser (a
    reload's twin, the Metagame console's "Open the duel's table" clicked again) must not
    become a second host, with a second history and the guests split between the two; it
    finds the lock taken and only shows the game (:func:`live_sessions.show_only`)."""
    return TABLE_LOCK + code

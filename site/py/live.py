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
"""
from __future__ import annotations

import json
import re
import secrets
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from shell import HUMAN, Session, ShellError, and_list
from ui import FSI, PDI, Node, h

from conquest.catalog import load_data
from conquest.core import ConquestError, Game, GameError
from conquest.rng import Rng
from conquest.savecode import load_json
from conquest.session import Match, ReplayError, excerpt

__all__ = [
    "SETTINGS",
    "LiveError",
    "MirrorMatch",
    "GuestSession",
    "TableSession",
    "RateLimit",
    "Table",
    "Guest",
    "parse_message",
    "new_table_keys",
    "join_fragment",
    "parse_join_fragment",
    "parse_seat_key",
    "seat_fragment",
    "preseated_table",
    "TABLE_KEY",
    "table_lock",
    "show_only",
    "render_elsewhere_panel",
]

#: tunable numbers and the relays (``conquest/data/live.json``; build.py reads the relays too)
SETTINGS: dict[str, Any] = load_data("live")
MAX_IN = int(SETTINGS["max_message_chars"])
MAX_UPDATE = int(SETTINGS["max_update_chars"])
MAX_NAME = int(SETTINGS["max_name_chars"])
#: what a guest may send, and the fields each kind carries (shape checks)
GUEST_KINDS = {"hello", "act", "secret", "claim", "resync", "bye", "share"}
#: a device's share of the next draws (issue 26): fresh hex digits, sent after each update
_SHARE = re.compile(r"[0-9a-f]{6}")
#: the most devices' shares one draw records (a table never seats more)
MAX_SHARES = 24
#: the fragment of a join link: ``#live=<room code>.<password>.<host key>`` (never sent to a
#: relay); a link made for one seat adds ``.<seat key>`` (:func:`seat_fragment`)
JOIN_PREFIX = "#live="
#: where a host's page keeps its open table, by the game's slot (``+ slot id``): the host's
#: page reopens it after a reload, and the Metagame console writes one for a duel
TABLE_KEY = "conquest:live-table:"
#: the lock (the browser's Web Locks, ``navigator.locks``) that the one tab running a table
#: holds for its page's life, by room code (:func:`table_lock`)
TABLE_LOCK = "conquest:live-lock:"


class LiveError(ShellError):
    """A refusal of the table (stale step, another seat, a malformed message, …)."""


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
    """A table record (what :meth:`Table.to_json` stores) whose seats are already given to
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


# -- messages --------------------------------------------------------------------------------
def parse_message(raw: Any, limit: int = MAX_IN) -> dict[str, Any]:
    """A message from a device as data: bounded before it is parsed, then shape-checked.

    Raises :class:`LiveError` (code ``live.malformed``) with a note that quotes a short,
    escaped excerpt; the caller answers the device with it and changes nothing.
    """
    if not isinstance(raw, str):
        raise LiveError("live.malformed", "A message must be text.")
    if len(raw) > limit:
        raise LiveError("live.malformed", f"A message of {len(raw):,} characters is over the limit of {limit:,}.")
    try:
        msg = load_json(raw, "message")  # bounded nesting: Pyodide's stack is small (issue 20)
    except (ValueError, RecursionError):
        raise LiveError("live.malformed", f"Not a message: {excerpt(raw)}.") from None
    if not isinstance(msg, dict) or not isinstance(msg.get("t"), str):
        raise LiveError("live.malformed", f"Not a message: {excerpt(raw)}.")
    return msg


def _int(msg: Mapping[str, Any], key: str, lo: int, hi: int) -> int:
    v = msg.get(key)
    if not isinstance(v, int) or isinstance(v, bool) or not lo <= v <= hi:
        raise LiveError("live.malformed", f"The message's {key} must be a whole number {lo}..{hi}, not {excerpt(v, 20)}.")
    return v


def _text(msg: Mapping[str, Any], key: str, limit: int) -> str:
    v = msg.get(key)
    if not isinstance(v, str) or len(v) > limit:
        raise LiveError("live.malformed", f"The message's {key} must be text of at most {limit} characters.")
    return v


def part_to_json(part: Any) -> Any:
    """A secret part as JSON: plain values as they are, engine values as their text."""
    if part is None or isinstance(part, (str, int, float, bool)):
        return part
    if isinstance(part, (list, tuple)):
        return [part_to_json(x) for x in part]
    return str(part)


def part_from_json(raw: Any, depth: int = 0) -> Any:
    """A secret part from a device: only plain values, lists become tuples (the engines'
    parts), at most 3 levels and 16 items deep; anything else is malformed."""
    if raw is None or isinstance(raw, (str, int, float, bool)):
        if isinstance(raw, str) and len(raw) > 200:
            raise LiveError("live.malformed", "A choice's text is too long.")
        return raw
    if isinstance(raw, list) and depth < 3 and len(raw) <= 16:
        return tuple(part_from_json(x, depth + 1) for x in raw)
    raise LiveError("live.malformed", f"Not a choice: {excerpt(raw, 40)}.")


# -- rate limit ------------------------------------------------------------------------------
@dataclass
class RateLimit:
    """A token bucket per device: ``burst`` messages at once, ``per_second`` after that."""

    burst: float = float(SETTINGS["rate_burst"])
    per_second: float = float(SETTINGS["rate_per_second"])
    tokens: float = float(SETTINGS["rate_burst"])
    at: float | None = None
    dropped: int = 0

    def allow(self, now_ms: float) -> bool:
        if self.at is not None:
            self.tokens = min(self.burst, self.tokens + (now_ms - self.at) / 1000.0 * self.per_second)
        self.at = now_ms
        if self.tokens >= 1.0:
            self.tokens -= 1.0
            return True
        self.dropped += 1
        return False


def stranger_limit(pool: dict[str, RateLimit], peer: str) -> RateLimit:
    """The rate of a peer not (yet) known as a device, from a pool bounded to 256 peers (a
    flood of fresh ids empties it rather than growing it)."""
    if len(pool) > 256:
        pool.clear()
    return pool.setdefault(peer, RateLimit())


# -- the guest's mirror of the host's match ----------------------------------------------------
class MirrorMatch:
    """What a guest's page holds of the match: the log and states as its seat may know them.

    The host sends them (redacted per seat); nothing is replayed or drawn here, and there is
    no save to write: a guest's page never stores the game (the host is the one source).
    """

    def __init__(self, game: Game[Any, Any], options: Mapping[str, Any]) -> None:
        self.game = game
        self.options: dict[str, Any] = dict(options)
        self.log: list[str] = []
        self.states: list[Any] = []
        self.undone: list[tuple[int, tuple[str, ...]]] = []
        self.rng = Rng(None)

    @property
    def state(self) -> Any:
        return self.states[-1]

    def legal_actions(self) -> list[Any]:
        return self.game.legal_actions(self.state)

    def outcome(self) -> Any:
        return self.game.outcome(self.state)

    def save(self) -> Any:
        raise LiveError("live.guest", "This page plays at a live table: the game is saved on the host's device.")

    def play(self, action: Any) -> Any:
        raise LiveError("live.guest", "At a live table the host's page plays every step.")

    def undo(self) -> bool:
        raise LiveError("live.guest", "Only the host can take back a step at a live table.")

    def resolve_chance(self) -> int:
        return 0

    def truncate(self, length: int) -> None:
        del self.log[length:]
        del self.states[length + 1 :]


@dataclass
class GuestSession(Session):
    """A guest's session: plays its one seat by sending intents to the host.

    ``only_seat`` is the seat (None: a spectator), so the shell's own refusal ("this copy
    plays for …") answers a tap for another seat before anything is sent.
    """

    send_intent: Callable[[dict[str, Any]], None] | None = None
    #: seats whose secret part the host has (never the part itself)
    chosen: tuple[int, ...] = ()
    spectator: bool = False
    #: an intent is on its way to the host: not sent twice
    pending: int | None = None
    #: seats whose choice made ahead the host holds (``Game.ahead``; never the choice)
    held: tuple[int, ...] = ()
    #: the host's newest commitment and the number of the draw it seals next (issue 26)
    seal: tuple[str, int] | None = None

    def locked(self) -> bool:
        """Nothing to play here: a spectator, an earlier step, another seat's move (the
        page then shows the waiting state, as for a computer's move), or the host's step
        (``Game.host_step``: the Metagame's spin)."""
        seat = self.acting_seat()
        return (self.spectator or self.viewing is not None or (seat is not None and seat != self.only_seat)
                or self.game.host_step(self.match.state) is not None)

    def choosing_ahead(self) -> bool:
        """This seat may choose its next step now, while another seat's is awaited, and has
        not yet (``Game.ahead``)."""
        seat = self.only_seat
        return (seat is not None and seat not in self.held and seat in self.game.ahead(self.match.state)
                and self.game.outcome(self.match.state) is None)

    def viewer(self) -> int | None:
        return self.only_seat

    def needs_handover(self) -> int | None:
        return None  # every person has their own device

    def bot_to_act(self) -> int | None:
        return None  # the host's page runs the bots

    def acting_seat(self) -> int | None:
        state = self.match.state
        secret = self.game.simultaneous(state)
        if secret:
            done = set(self.chosen) | set(self.secret_parts)
            if self.only_seat in secret and self.only_seat not in done:
                return self.only_seat
            return next((s for s in secret if s not in done), None)
        if self.game.outcome(state) is not None:
            return None
        if self.choosing_ahead():
            return self.only_seat
        return self.game.to_move(state)

    def chosen_seats(self) -> list[int]:
        """Who has chosen: as the host last said (``chosen`` in its meta), and this device's
        own part on its way."""
        secret = self.game.simultaneous(self.match.state)
        done = set(self.chosen) | set(self.secret_parts)
        return [s for s in secret if s in done]

    def _guard(self, check_seat: bool = True) -> None:
        if self.viewing is not None:
            raise ShellError("shell.viewing", "You are looking at an earlier step: choose “Back to the present” to play.")
        seat = self.acting_seat()
        if check_seat and self.only_seat is not None and seat is not None and seat != self.only_seat:
            raise ShellError(
                "shell.not-your-seat",
                f"You play {self.seat_name(self.only_seat)} at this live table; it is {self.seat_name(seat)}'s move"
                + cite(self.game) + ".",
            )

    def _intent_guard(self) -> None:
        if self.spectator:
            raise LiveError("live.spectator", "You are watching this table: spectators cannot play.")
        ruling = self.game.host_step(self.match.state)
        if ruling is not None:
            raise LiveError("live.host-step", f"{ruling}: your device waits for the host.")
        self._guard()

    def play(self, action: Any) -> None:
        self._intent_guard()
        text = action if isinstance(action, str) else self.game.format_action(action)
        n = len(self.match.log)
        if self.pending == n:
            return
        self.pending = n
        if self.send_intent is not None:
            self.send_intent({"t": "act", "step": n, "action": text})

    def give_secret(self, seat: int, part: Any) -> bool:
        self._intent_guard()
        if seat != self.only_seat or seat not in self.game.simultaneous(self.match.state):
            raise LiveError("live.not-secret", "That choice is not asked of you now.")
        self.secret_parts[seat] = part
        if self.send_intent is not None:
            self.send_intent({"t": "secret", "step": len(self.match.log), "part": part_to_json(part)})
        return False

    def undo(self) -> list[str]:
        raise LiveError("live.guest", "Only the host can take back a step at a live table.")


@dataclass
class TableSession(Session):
    """The host's session while a table is open: seats played on other devices are
    ``remote``; the host's own clicks never play for them, and no hand-over screen is
    shown for them (their person has their own device)."""

    remote: frozenset[int] = frozenset()
    #: set while a guest's intent is applied (the host's authority, not its person)
    by_remote: bool = False
    #: a referee host (``Game.host_is_referee``, M3) makes this remote seat's present
    #: choice from its own page ("Choose for Bob here"); cleared by the next step
    override: int | None = None
    #: choices made ahead by remote seats (``Game.ahead``): seat -> (log length when made,
    #: the action), played by :meth:`play` once that seat's step comes
    held: dict[int, tuple[int, Any]] = field(default_factory=dict)
    #: set while the host plays one of its own actions (``Game.host_only``: a correction, M17),
    #: which no seat's device waits for
    hosting: bool = False

    def local_humans(self) -> list[int]:
        return [i for i in self.humans() if i not in self.remote]

    def acting_seat(self) -> int | None:
        """At a secret step: this device's people first, then bots, then other devices,
        so bots and guests choose at the same time as the host's people."""
        state = self.match.state
        secret = self.game.simultaneous(state)
        if not secret:
            return super().acting_seat()
        left = [s for s in secret if s not in self.secret_parts]
        if not left:
            return None
        seats = self.seats()
        rank = {s: (2 if s in self.remote else (1 if s < len(seats) and seats[s].is_bot else 0)) for s in left}
        return min(left, key=lambda s: (rank[s], secret.index(s)))

    def waits_for_device(self) -> int | None:
        """The remote seat whose own device the present step waits for (its choice is not
        the host's to make unless it takes it over, ``override``); None otherwise."""
        seat = self.acting_seat()
        if (self.by_remote or self.hosting or seat is None or seat not in self.remote or self.override == seat
                or self.game.host_step(self.match.state) is not None):
            return None
        return seat

    def locked(self) -> bool:
        return super().locked() or self.waits_for_device() is not None

    def viewer(self) -> int | None:
        if self.mode != "host" or not self.game.hidden_information:
            return None
        local = self.local_humans()
        if not local:
            return None
        if len(local) == 1:
            return local[0]
        return self.shown_seat if self.shown_seat in local else None

    def needs_handover(self) -> int | None:
        seat = self.acting_seat()
        if seat is not None and seat in self.remote:
            return None
        if len(self.local_humans()) < 2:
            return None
        return super().needs_handover()

    def bot_to_act(self) -> int | None:
        seat = self.acting_seat()
        if seat is not None and seat in self.remote:
            return None
        return super().bot_to_act()

    def _guard(self, check_seat: bool = True) -> None:
        super()._guard(check_seat)
        seat = self.waits_for_device()
        if check_seat and seat is not None:
            if self.game.host_is_referee:
                name = self.seat_name(seat)
                raise LiveError("live.remote-seat", f"It is {name}'s choice, on their own device. To make it for "
                                f"them, use “Choose for {name} here” first (M3).")
            raise LiveError("live.remote-seat", f"It is {self.seat_name(seat)}'s move, on their own device.")

    def take_over(self, seat: int) -> None:
        """The referee host makes ``seat``'s present choice here (M3); logged as the host's."""
        if not self.game.host_is_referee or seat != self.acting_seat() or seat not in self.remote:
            raise LiveError("live.take-over", "That seat's choice is not awaited now.")
        self.override = seat

    def play(self, action: Any, contribution: str | None = None) -> None:
        """As the shell's, and at a referee's table (M3) each seat's choice is marked with who
        made it: the seat's own device, or the host for a seat played on another device.
        A choice held ahead (``Game.ahead``) is played as soon as its step comes."""
        game = self.game
        if isinstance(action, str):
            action = game.parse_action(action)
        seat = self.acting_seat()
        if game.host_is_referee and seat is not None and seat in self.remote:
            action = game.made_by(action, "p" if self.by_remote else "h")
        self.hosting = not self.by_remote and game.host_only(action) is not None
        try:
            super().play(action, contribution)
        finally:
            self.hosting = False
        self.override = None
        self._play_held()

    def _play_held(self) -> None:
        n = len(self.match.log)
        for seat, (made_at, action) in list(self.held.items()):
            state = self.match.state
            if n > made_at + 1 or self.game.outcome(state) is not None:
                del self.held[seat]  # the step it was made for went another way (an undo, a correction)
            elif n == made_at + 1 and self.game.to_move(state) == seat and not self.game.ahead(state):
                del self.held[seat]
                self.by_remote = True
                try:
                    self.play(self.game.made_by(action, "p"))
                except GameError:
                    pass  # refused now: the seat is asked again, as at its own step
                finally:
                    self.by_remote = False

    def undo(self) -> list[str]:
        self.held.clear()  # a choice made ahead was made for the step the undo takes away
        self.override = None
        return super().undo()

    def give_secret(self, seat: int, part: Any) -> bool:
        if seat in self.remote and not self.by_remote:
            raise LiveError("live.remote-seat", f"{self.seat_name(seat)} chooses on their own device.")
        return super().give_secret(seat, part)


def cite(game: Game[Any, Any]) -> str:
    """" (M3)": the game's ruling on who acts at a live table, for a refusal; or nothing."""
    return f" ({game.live_ruling})" if game.live_ruling else ""


def adopt(session: Session, cls: type[Session], **extra: Any) -> Session:
    """The same session as another class (all its fields kept): a table opened or closed."""
    from dataclasses import fields

    base = {f.name: getattr(session, f.name) for f in fields(Session)}
    return cls(**base, **extra)


# -- the host's table ----------------------------------------------------------------------------
@dataclass
class Device:
    """A device at the table, known by the random token it keeps (so a reload rejoins)."""

    token: str
    name: str
    peer: str | None = None
    seat: int | None = None
    limit: RateLimit = field(default_factory=RateLimit)
    #: the host's log texts this device has been sent (a prefix of the log, or older)
    synced: list[str] | None = None
    sent_meta: Any = None
    noted_at: float = -1e18
    #: its share of the next draws (issue 26), sent after it saw the last update; None once
    #: it is sent new steps (it then sends a fresh one)
    share: str | None = None

    @property
    def connected(self) -> bool:
        return self.peer is not None

    def to_json(self) -> dict[str, Any]:
        return {"token": self.token, "name": self.name, "seat": self.seat}


class Table:
    """The host's side of a live table: the one authority (design.md).

    ``send(peer, text)`` delivers to one device. The host's session must be a
    :class:`TableSession`; ``seats_of_devices`` keeps which seat each device plays, by the
    device's token, so a reload of either side finds its seat again.
    """

    def __init__(self, shell: Any, send: Callable[[str, str], None], code: str, password: str) -> None:
        self.shell = shell
        self.send = send
        self.code = code
        self.password = password
        self.devices: dict[str, Device] = {}
        self.peers: dict[str, str] = {}  # peer id -> token
        self.open = True
        #: messages parsed (for the flood test: a flood is dropped before parsing)
        self.parsed = 0
        self.log_notes: list[str] = []  # what the host is told (joins, refusals)
        self._kept: set[int] | None = None
        #: seats kept for one device each, by its token (a Metagame duel's two players): no
        #: other device may take them, even while their player watches or is away
        self.reserved: dict[int, str] = {}
        #: redacted states as JSON, by (step, seat): states never change, so a rejoin or a
        #: second device of the same seat costs no engine work (checked by identity)
        self._redacted: dict[tuple[int, int | None], tuple[Any, Any]] = {}
        #: the host's signing key pair (``{"private": JWK text, "public": raw base64url}``),
        #: kept with the table so a reload signs with the key the guests' links name
        self.host_key: dict[str, str] | None = None
        self.sync_session()

    # -- state ---------------------------------------------------------------------------
    @property
    def session(self) -> TableSession:
        s = self.shell.session
        assert isinstance(s, TableSession), "the host's session must be a TableSession"
        return s

    @property
    def game(self) -> Game[Any, Any]:
        return self.shell.game

    def sync_session(self) -> None:
        """Make the host's session a TableSession whose remote seats are the devices' seats."""
        s = self.shell.session
        if s is None:
            return
        if not isinstance(s, TableSession):
            s = adopt(s, TableSession)
            self.shell.session = s
        # a referee's table (M3): a seat whose device is away is played from the host's page
        s.remote = frozenset(d.seat for d in self.devices.values()
                             if d.seat is not None and (d.connected or not self.game.host_is_referee))
        if getattr(s.match, "draws", None) is not None:
            s.match.contribute = self.contribution

    def contribution(self) -> str | None:
        """The next draw's contribution (issue 26): every connected device's share and the
        host's own, ``"@h=… 0=… 2=…"`` (seats from 0; ``w`` a watcher); None without any
        device's share (the draw is then automatic)."""
        shares = [(d.seat, d.share) for d in self.devices.values() if d.peer is not None and d.share]
        if not shares:
            return None
        parts = [f"h={secrets.token_hex(3)}"]
        parts += [f"{'w' if seat is None else seat}={share}" for seat, share in shares[:MAX_SHARES]]
        return "@" + " ".join(parts)

    def to_json(self) -> dict[str, Any]:
        """What the host's storage keeps, so a reload (or a crash) reopens the same table."""
        out = {"code": self.code, "password": self.password, "devices": [d.to_json() for d in self.devices.values()],
               "kept": None if self._kept is None else sorted(self._kept), "key": self.host_key}
        if self.reserved:
            out["reserved"] = {str(k): v for k, v in sorted(self.reserved.items())}
        s = self.shell.session
        held = getattr(s, "held", None)
        if held:  # choices made ahead (``Game.ahead``): a reload of the host's page keeps them
            out["held"] = {str(seat): [at, self.game.format_action(a)] for seat, (at, a) in sorted(held.items())}
        return out

    def restore(self, obj: Mapping[str, Any]) -> None:
        for d in obj.get("devices", []):
            if isinstance(d, Mapping) and isinstance(d.get("token"), str) and isinstance(d.get("name"), str):
                seat = d.get("seat")
                self.devices[d["token"]] = Device(d["token"], d["name"][:MAX_NAME],
                                                  seat=seat if isinstance(seat, int) else None)
        kept = obj.get("kept")
        self._kept = {x for x in kept if isinstance(x, int)} if isinstance(kept, list) else None
        reserved = obj.get("reserved")
        if isinstance(reserved, Mapping):
            self.reserved = {int(k): v for k, v in reserved.items()
                             if isinstance(k, str) and k.isdigit() and len(k) < 3 and isinstance(v, str)}
        key = obj.get("key")
        if (isinstance(key, Mapping) and isinstance(key.get("private"), str) and isinstance(key.get("public"), str)
                and len(key["public"]) == HOST_KEY_CHARS):
            self.host_key = {"private": key["private"], "public": key["public"]}
        self.sync_session()
        held = obj.get("held")
        if isinstance(held, Mapping) and isinstance(self.shell.session, TableSession):
            self._restore_held(held)

    def _restore_held(self, held: Mapping[Any, Any]) -> None:
        """Choices made ahead, as stored: each checked again against the game as it is (a
        stale or damaged one is dropped: its seat is asked again, nothing wrong is played)."""
        s = self.session
        for key, value in list(held.items())[:16]:
            if not (isinstance(key, str) and key.isdigit() and isinstance(value, list) and len(value) == 2
                    and isinstance(value[0], int) and isinstance(value[1], str)):
                continue
            seat, at = int(key), value[0]
            if at != len(s.match.log):
                continue
            try:
                s.held[seat] = (at, self.game.check_ahead(s.match.state, seat, self.game.parse_action(value[1][:200])))
            except GameError:
                continue

    def free_seats(self) -> list[int]:
        """Human seats no device plays and the host's people do not keep: ``keep``."""
        s = self.session
        taken = {d.seat for d in self.devices.values() if d.seat is not None}
        return [i for i, seat in enumerate(s.seats())
                if not seat.is_bot and i not in taken and i not in self.kept() and i not in self.reserved]

    def may_take(self, device: Device, seat: int) -> bool:
        """A free seat, or the one kept for this device that nobody else plays now."""
        if seat in self.free_seats():
            return True
        return self.reserved.get(seat) == device.token and all(d.seat != seat for d in self.devices.values())

    def kept(self) -> set[int]:
        """Seats the host's own device keeps: by default its first human seat; the host
        may open it to guests (``release``) or take seats back (``assign(seat, None)``)."""
        s = self.session
        taken = {d.seat for d in self.devices.values() if d.seat is not None}
        local = [i for i, seat in enumerate(s.seats()) if not seat.is_bot and i not in taken]
        if self._kept is None:
            return set() if self.game.host_is_referee else set(local[:1])  # M3: a role, not a seat
        return self._kept & set(local)

    def keep_all(self) -> None:
        """The host's device keeps every human seat: a table only to watch (the Metagame
        console's audience on their own devices, where the host enters every step)."""
        self._kept = set(range(len(self.session.seats())))
        self.save_table()
        self.sync(meta_only=True)

    def release(self, seat: int) -> None:
        """The host's device gives up ``seat``: a guest may take it."""
        self._kept = self.kept() - {seat}
        self.reserved.pop(seat, None)  # the host opens it: any guest may take it
        self.save_table()
        self.sync(meta_only=True)

    # -- the transport's events ---------------------------------------------------------
    def connected(self, peer: str) -> None:
        """A peer joined the room: tell it who the host is (it answers with hello)."""
        self._send(peer, {"t": "host", "game": self.game.id, "code": self.code})

    def disconnected(self, peer: str) -> None:
        token = self.peers.pop(peer, None)
        if token is not None and token in self.devices:
            d = self.devices[token]
            d.peer = None
            d.synced = None
            self.note(f"{d.name} disconnected; their seat waits for them.")
            self.sync_session()
            self.sync(meta_only=True)

    def receive(self, peer: str, raw: Any, now_ms: float) -> None:
        """One message from a device: rate, size, JSON, shape, then what it asks."""
        token = self.peers.get(peer)
        device = self.devices.get(token) if token else None
        limit = device.limit if device is not None else self._stranger_limit(peer)
        if not limit.allow(now_ms):
            if device is not None and now_ms - device.noted_at > 1000:
                device.noted_at = now_ms
                self._refuse(peer, LiveError("live.flood", "Too many messages: some were dropped. Slow down."))
            return
        self.parsed += 1
        try:
            msg = parse_message(raw)
            kind = msg["t"]
            if kind not in GUEST_KINDS:
                raise LiveError("live.malformed", f"Unknown message kind {excerpt(kind, 20)}.")
            if not self.open:
                raise LiveError("live.closed", "The host closed this table.")
            if kind == "hello":
                self._hello(peer, msg)
                return
            if device is None:
                raise LiveError("live.unknown", "Say hello first: this device has not joined the table.")
            if kind == "bye":
                self.disconnected(peer)
            elif kind == "resync":
                device.synced = None
                self.sync_device(device)
            elif kind == "claim":
                self._claim(device, msg)
            elif kind == "act":
                self._act(device, msg)
            elif kind == "secret":
                self._secret(device, msg)
            elif kind == "share":
                share = msg.get("share")
                if not isinstance(share, str) or not _SHARE.fullmatch(share):
                    raise LiveError("live.malformed", "A share of the draws is six hex digits.")
                device.share = share
        except ConquestError as exc:
            self._refuse(peer, exc)
            if device is not None:
                self.sync_device(device)  # the device is put back to the present

    def _stranger_limit(self, peer: str) -> RateLimit:
        if not hasattr(self, "_strangers"):
            self._strangers: dict[str, RateLimit] = {}
        return stranger_limit(self._strangers, peer)

    # -- what devices ask -----------------------------------------------------------------
    def _hello(self, peer: str, msg: Mapping[str, Any]) -> None:
        token = _text(msg, "device", 64)
        if len(token) < 16:
            raise LiveError("live.malformed", "A device's token must be at least 16 characters.")
        given = " ".join(_text(msg, "name", 200).split())[:MAX_NAME]
        name = given or "Guest"
        want = msg.get("want")
        device = self.devices.get(token)
        if device is None:
            if len(self.devices) >= 32:
                raise LiveError("live.full", "This table is full.")
            device = Device(token, name)
            self.devices[token] = device
            self.note(f"{name} joined the table.")
        else:
            old = device.peer
            if old is not None and old != peer:
                self.peers.pop(old, None)
            # a device that gives no name keeps the one it had (a seat the host named for a
            # person, as the Metagame console does for a duel's two players)
            device.name = name = given or device.name
            self.note(f"{name} is back" + (f" at {self.session.seat_name(device.seat)}'s seat." if device.seat is not None else "."))
            if given and device.seat is not None:
                self.name_seat(device.seat, given)
        if device.peer != peer:
            device.synced = None  # a new connection (a reload): everything again
        device.peer = peer
        self.peers[peer] = token
        if device.seat is None and isinstance(want, int) and not isinstance(want, bool) and self.may_take(device, want):
            device.seat = want
            self.note(f"{name} sits at {self.session.seat_name(want)}'s seat.")
            if given:
                self.name_seat(want, given)
        self.save_table()
        self.sync_session()
        self.sync()

    def _claim(self, device: Device, msg: Mapping[str, Any]) -> None:
        raw = msg.get("seat")
        if raw is None:
            device.seat = None
            self.note(f"{device.name} now watches.")
        else:
            seat = _int(msg, "seat", 0, 15)
            if seat != device.seat and not self.may_take(device, seat):
                raise LiveError("live.seat-taken", f"{self.session.seat_name(seat)}'s seat is not free.")
            device.seat = seat
            self.note(f"{device.name} sits at {self.session.seat_name(seat)}'s seat.")
            if device.name != "Guest":
                self.name_seat(seat, device.name)
        self.save_table()
        self.sync_session()
        self.sync()

    def name_seat(self, seat: int, name: str) -> bool:
        """The seat takes the name its person typed on their device, in the game's sentences
        and on every device ("Bea: place a troop", not "Player 2"; issue 36).

        Not a seat kept for a named player (a Metagame duel's: the seat is that player's), nor
        a name another seat has. The names are in the game's options, and some games keep them
        in their states too: the states are replayed with the new options (the log, the draws
        and their record are unchanged), and every device is sent everything again. A name
        the game refuses leaves the seat as it was. Returns whether the name changed."""
        s = self.session
        m = s.match
        name = " ".join(name.split())[:MAX_NAME]
        seats = s.seats()
        if not name or seat in self.reserved or not 0 <= seat < len(seats):
            return False
        plain = [x.name.replace(FSI, "").replace(PDI, "") for x in seats]
        if plain[seat] == name or name in plain:
            return False
        options = dict(m.options)
        for key in ("seats", "players"):
            raw = options.get(key)
            if isinstance(raw, list) and seat < len(raw):
                items = list(raw)
                if isinstance(items[seat], Mapping):
                    items[seat] = {**items[seat], "name": name}
                elif key == "players" or not isinstance(options.get("seats"), list):
                    items[seat] = name
                else:
                    continue
                options[key] = items
                break
        else:
            return False
        try:
            fresh = Match(m.game, options, m.log, rng=Rng(0), checkable=False)
        except (ReplayError, GameError, ValueError, TypeError, KeyError):
            return False
        if len(fresh.states) != len(m.states):
            return False
        m.options = fresh.options
        m.states = fresh.states
        self._redacted.clear()
        for d in self.devices.values():
            d.synced = None  # the states they hold name the seat's old name
        self.note(f"{plain[seat]}'s seat is now called {name}.")
        self.shell.after_change()
        return True

    def _present(self, device: Device, msg: Mapping[str, Any]) -> int:
        """The device's seat, if the message was sent at the present step; else refused."""
        if device.seat is None:
            raise LiveError("live.spectator", "You are watching this table: spectators cannot play.")
        n = len(self.session.match.log)
        step = _int(msg, "step", 0, 10**9)
        if step != n:
            raise LiveError(
                "live.stale",
                f"That was sent at step {step}, but the game is at step {n} now: nothing was changed. "
                "Your screen is up to date again.",
            )
        if self.session.viewing is not None:
            self.session.viewing = None
        return device.seat

    def _act(self, device: Device, msg: Mapping[str, Any]) -> None:
        seat = self._present(device, msg)
        text = _text(msg, "action", 200)
        s = self.session
        mover = s.acting_seat()
        if self.game.simultaneous(s.match.state):
            raise LiveError("live.secret", "Everyone chooses in secret now: send a choice, not a move.")
        try:
            action = self.game.parse_action(text)
        except GameError as exc:
            raise LiveError(exc.code, exc.message) from None
        ruling = self.game.host_only(action)
        if ruling is not None:
            raise LiveError("live.host-only", f"{ruling}: a player's device cannot send {excerpt(text, 24)}. "
                                              "Nothing was changed.")
        step_ruling = self.game.host_step(s.match.state)
        if step_ruling is not None:
            raise LiveError("live.host-step", f"{step_ruling}: nothing was changed.")
        if mover != seat and seat in self.game.ahead(s.match.state):
            self._ahead(device, seat, action)
            return
        if mover != seat:
            raise LiveError(
                "live.not-your-seat",
                f"It is {s.seat_name(mover)}'s move, not {s.seat_name(seat)}'s{cite(self.game)}: nothing was changed."
                if mover is not None else "Nobody moves now: nothing was changed.",
            )
        s.by_remote = True
        try:
            s.play(action)  # the engine's refusal (its own message) propagates; nothing changed
        finally:
            s.by_remote = False
        self.after_change()

    def _ahead(self, device: Device, seat: int, action: Any) -> None:
        """A choice made ahead (``Game.ahead``: the defender's slices while the attacker
        assigns, M9): checked now, held by the host's session, played when its step comes."""
        s = self.session
        if seat in s.held:
            raise LiveError("live.chosen", "Your choice is already in; it is played when its step comes.")
        s.held[seat] = (len(s.match.log), self.game.check_ahead(s.match.state, seat, action))
        self.note(f"{s.seat_name(seat)} has chosen ahead; it is played when their step comes.")
        self.save_table()
        self.shell.after_change()
        self.sync(meta_only=True)

    def _secret(self, device: Device, msg: Mapping[str, Any]) -> None:
        seat = self._present(device, msg)
        s = self.session
        secret = self.game.simultaneous(s.match.state)
        if seat not in secret:
            raise LiveError("live.not-secret", "No secret choice is asked of you now.")
        if seat in s.secret_parts:
            raise LiveError("live.chosen", "You have already chosen; the others are choosing.")
        part = part_from_json(msg.get("part"))
        # the part alone is checked now (with any allowed part for the others), so a bad one
        # is refused to its sender and never costs another seat its choice
        probe = {x: (s.secret_parts.get(x) if x in s.secret_parts else _any_part(self.game, s.match.state, x))
                 for x in secret}
        probe[seat] = part
        self.game.join_secret(s.match.state, probe)
        s.by_remote = True
        try:
            done = s.give_secret(seat, part)
        finally:
            s.by_remote = False
        if done:
            self.after_change()
        else:
            self.sync(meta_only=True)

    def after_change(self) -> None:
        """A guest's step was played: the host's page saves and everyone is sent the news.

        The host's own page is drawn by its transport after this returns
        (``live_browser``), once the updates are signed and on their way: a render first
        would hold every device back by the host's render time (bench/live.py)."""
        self.shell.after_change()
        self.sync()

    # -- the host's own controls ------------------------------------------------------------
    def assign(self, seat: int, token: str | None) -> None:
        """Move a seat to a device (``token``), or back to this device (None)."""
        for d in self.devices.values():
            if d.seat == seat:
                d.seat = None
        if token is not None:
            d = self.devices.get(token)
            if d is None:
                raise LiveError("live.unknown", "That device is not at the table.")
            d.seat = seat
        else:
            self._kept = self.kept() | {seat}
        if seat in self.reserved:  # the host moved the seat: it is kept for where it went
            if token is None:
                del self.reserved[seat]
            else:
                self.reserved[seat] = token
        self.save_table()
        self.sync_session()
        self.sync()

    def make_bot(self, seat: int, level: str) -> None:
        """A seat is played by a computer from now on (e.g. someone had to leave)."""
        s = self.session
        if seat in self.reserved and level != HUMAN:
            raise LiveError("live.duel-seat", f"M12: this duel's seats are its two players'; {s.seat_name(seat)}'s "
                                              "seat cannot be given to the computer (the campaign would refuse the "
                                              "result).")
        raw = s.match.options.get("seats")
        if not isinstance(raw, list) or not 0 <= seat < len(raw) or not isinstance(raw[seat], Mapping):
            raise LiveError("live.no-bot", "This game's seats cannot be given to the computer here.")
        for d in self.devices.values():
            if d.seat == seat:
                d.seat = None
        seats = [dict(x) for x in raw]
        if level == HUMAN:
            seats[seat].pop("bot", None)
        else:
            seats[seat]["bot"] = level
        s.match.options["seats"] = seats
        self.save_table()
        self.sync_session()
        self.shell.after_change()
        self.sync()

    def close(self) -> None:
        self.open = False
        for d in self.devices.values():
            if d.peer is not None:
                self._send(d.peer, {"t": "closed"})
        self.shell.session = adopt(self.session, Session)

    def note(self, text: str) -> None:
        self.log_notes = [*self.log_notes[-19:], text]

    def save_table(self) -> None:
        saver = getattr(self, "saver", None)
        if callable(saver):
            saver(self.to_json())

    # -- sending -------------------------------------------------------------------------------
    def _send(self, peer: str, msg: Mapping[str, Any]) -> None:
        self.send(peer, json.dumps(msg, separators=(",", ":"), ensure_ascii=False))

    def _refuse(self, peer: str, exc: Exception) -> None:
        message = exc.message if isinstance(exc, ConquestError) else "The host could not use that message."
        code = exc.code if isinstance(exc, ConquestError) else "live.error"
        self._send(peer, {"t": "refused", "code": code, "message": message})

    def meta(self, device: Device) -> dict[str, Any]:
        s = self.session
        seats = []
        for i, seat in enumerate(s.seats()):
            d = next((x for x in self.devices.values() if x.seat == i), None)
            seats.append({
                "name": seat.name,
                "colour": seat.colour,
                "bot": seat.is_bot,
                "where": "bot" if seat.is_bot else ("device" if d is not None else ("host" if i in self.kept() else
                         ("free" if self.may_take(device, i) else "reserved"))),
                "device": d.name if d is not None else None,
                "connected": d.connected if d is not None else True,
            })
        secret = self.game.simultaneous(s.match.state)
        return {
            "seats": seats,
            "you": device.seat,
            "chosen": [x for x in secret if x in s.secret_parts],
            "ahead": sorted(s.held),
            "seal": self.seal(),
            "watching": sum(1 for d in self.devices.values() if d.seat is None and d.connected),
        }

    def seal(self) -> list[Any] | None:
        """The host's newest commitment and the next draw's number (issue 26): public, so
        every device shows it before the draw it seals (the Metagame's wheel, M10)."""
        rec = getattr(self.session.match, "draws", None)
        if rec is None or not rec.seals:
            return None
        return [rec.seals[-1].commitment, rec.count + 1]

    def _redact_json(self, state: Any, index: int, seat: int | None) -> Any:
        """A state as ``seat`` may know it, as JSON (cached: a state never changes)."""
        key = (index, seat)
        hit = self._redacted.get(key)
        if hit is not None and hit[0] is state:
            return hit[1]
        g = self.game
        value = g.state_to_json(g.redact(state, seat))
        self._redacted[key] = (state, value)
        return value

    def sync(self, meta_only: bool = False) -> None:
        """Send every connected device what changed since it was last sent anything."""
        if not self.open:
            return
        for d in list(self.devices.values()):
            if d.peer is not None:
                self.sync_device(d, meta_only=meta_only)

    def sync_device(self, d: Device, meta_only: bool = False) -> None:
        """One device's update: the log and states it lacks, redacted for its seat.

        A device whose seat changed (claimed, moved, given to the computer) is sent
        everything again: what it holds was redacted for its old seat."""
        if d.peer is None:
            return
        if d.synced is not None and d.sent_meta is not None and d.sent_meta.get("you") != d.seat:
            d.synced = None
        s = self.session
        m = s.match
        log = m.log
        seat = d.seat
        base = 0
        if d.synced is not None and not meta_only:
            while base < min(len(d.synced), len(log)) and d.synced[base] == log[base]:
                base += 1
        meta = self.meta(d)
        if meta_only and d.synced is not None:
            if meta != d.sent_meta:
                d.sent_meta = meta
                self._send(d.peer, {"t": "meta", **meta})
            return
        if d.synced is not None and base == len(log) == len(d.synced) and meta == d.sent_meta:
            return
        g = self.game
        msg: dict[str, Any] = {
            "t": "sync",
            "base": base,
            "log": [g.redact_text(m.states[i], log[i], seat) for i in range(base, len(log))],
            "states": [self._redact_json(m.states[i], i, seat) for i in range(base if base == 0 else base + 1, len(log) + 1)],
            "undone": [[at, [_mask_undone(g, m, at, t, seat) for t in texts]] for at, texts in m.undone],
            **meta,
        }
        if base == 0:
            msg["options"] = _public_options(m.options)
            msg["game"] = g.id
        if base < len(log):
            d.share = None  # it sees new steps: its next share is made after them
        d.synced = list(log)
        d.sent_meta = meta
        self._send(d.peer, msg)


def _any_part(game: Game[Any, Any], state: Any, seat: int) -> Any:
    choices = game.secret_choices(state, seat)
    return choices[0] if choices else None


def _mask_undone(game: Game[Any, Any], match: Any, at: int, text: str, seat: int | None) -> str:
    """A chance result taken back by an undo, as ``seat`` may read it (W5: a card's kind)."""
    if at < len(match.states):
        try:
            return game.redact_text(match.states[at], text, seat)
        except Exception:  # noqa: BLE001 - masking must never fail open
            return "?"
    return text if not game.hidden_information else "?"


def _public_options(options: Mapping[str, Any]) -> dict[str, Any]:
    """The options a guest needs (seats, rules); the set-up seed is only for replays."""
    return {k: v for k, v in options.items() if k != "seed"}


# -- the guest's side -----------------------------------------------------------------------------
class Guest:
    """A guest's page at a live table: hello, the host's updates, intents.

    ``send(text)`` delivers to the host's peer. ``shell.session`` becomes a
    :class:`GuestSession` at the first update; the page renders it like any session.
    """

    def __init__(self, shell: Any, send: Callable[[str], None], token: str, name: str = "") -> None:
        self.shell = shell
        self.send = send
        self.token = token
        self.name = name
        self.want: int | None = None
        self.host_peer: str | None = None
        self.meta: dict[str, Any] = {}
        self.closed = False
        self.refusals: list[str] = []
        self.received = 0
        self.failures = 0
        #: messages not signed by the host's key (a peer posing as the host): ignored
        self.forged = 0
        self.share_at = -1e18  # when this device last sent its share of the draws
        self.share_due = False  # a share held back by the rate is waiting to be sent
        #: opened by a link made for one seat (``seat_fragment``): an empty name field takes
        #: that seat's name once the host says which seat it is
        self.seat_link = False

    @property
    def session(self) -> GuestSession | None:
        s = self.shell.session
        return s if isinstance(s, GuestSession) else None

    def _send(self, msg: Mapping[str, Any]) -> None:
        self.send(json.dumps(msg, separators=(",", ":"), ensure_ascii=False))

    def hello(self) -> None:
        self._send({"t": "hello", "device": self.token, "name": self.name, "want": self.want})

    def host_seen(self, peer: str) -> bool:
        """A peer says it is the host: the latest one is taken (a host that reloads comes
        back under a new peer id, maybe before its old one is seen to leave)."""
        self.host_peer = peer
        return True

    def host_left(self, peer: str) -> None:
        if peer == self.host_peer:
            self.host_peer = None

    def claim(self, seat: int | None) -> None:
        self._send({"t": "claim", "seat": seat})

    def receive(self, peer: str, raw: Any, signed: bool) -> None:
        """A message from a peer: only the host's are taken; a bad one is noted, never fatal.

        ``signed``: the transport checked the text's signature against the host's public key
        from the join link (``static/live.js``). Anything else, from any peer, is not the
        host's: it is counted and dropped before it is parsed, whatever it claims to be."""
        if not signed:
            self.forged += 1
            return
        try:
            msg = parse_message(raw, MAX_UPDATE)
        except LiveError as exc:
            self.shell.say(f"A message from the host could not be read: {exc.message}", "error")
            return
        kind = msg.get("t")
        if kind == "host":
            if self.host_seen(peer):
                self.hello()
            return
        if peer != self.host_peer:
            return  # only the host speaks to guests
        self.received += 1
        try:
            if kind == "sync":
                self._sync(msg)
            elif kind == "meta":
                self._meta(msg)
            elif kind == "refused":
                text = str(msg.get("message", ""))[:400]
                self.refusals.append(text)
                self.shell.say(text, "error")
                s = self.session
                if s is not None:
                    s.pending = None
                    s.secret_parts.clear()
            elif kind == "closed":
                self.closed = True
                s = self.session
                if s is not None:
                    s.spectator = True
                self.shell.say("The host closed the table. The game stays on the host's device.", "notice")
        except (GameError, LiveError, KeyError, TypeError, ValueError, IndexError) as exc:
            self.failures += 1
            self.shell.say(f"An update from the host could not be used ({type(exc).__name__}: {exc}).", "error")
            if self.failures <= 3:  # ask again, a few times, never in a loop
                self._send({"t": "resync"})

    def _meta(self, msg: Mapping[str, Any]) -> None:
        self.meta = {k: msg.get(k) for k in ("seats", "you", "chosen", "ahead", "seal", "watching")}
        s = self.session
        if s is None:
            return
        you = msg.get("you")
        s.only_seat = you if isinstance(you, int) else None
        seats = msg.get("seats")
        if self.seat_link and not self.name and isinstance(you, int) and isinstance(seats, list) \
                and 0 <= you < len(seats) and isinstance(seats[you], Mapping):
            # the seat's own link: its person is the one the seat is named after
            name = str(seats[you].get("name", "")).replace(FSI, "").replace(PDI, "")
            self.name = " ".join(name.split())[:MAX_NAME]
        s.spectator = s.only_seat is None or self.closed
        chosen = msg.get("chosen")
        s.chosen = tuple(x for x in chosen if isinstance(x, int)) if isinstance(chosen, list) else ()
        held = msg.get("ahead")
        s.held = tuple(x for x in held if isinstance(x, int)) if isinstance(held, list) else ()
        seal = msg.get("seal")
        s.seal = ((str(seal[0])[:128], int(seal[1])) if isinstance(seal, list) and len(seal) == 2
                  and isinstance(seal[1], int) else None)

    def _sync(self, msg: Mapping[str, Any]) -> None:
        """The host's update: from step ``base`` on, the log and states (redacted for this
        seat). Everything is read and checked before anything on screen changes."""
        game = self.shell.game
        base = msg["base"]
        log, states = msg["log"], msg["states"]
        if not isinstance(base, int) or not isinstance(log, list) or not isinstance(states, list):
            raise LiveError("live.malformed", "bad update")
        texts = [str(t)[:200] for t in log]
        values = [game.state_from_json(raw) for raw in states]
        undone = [(int(at), tuple(str(t) for t in ts)) for at, ts in msg.get("undone", [])]
        s = self.session
        if base == 0:
            if msg.get("game") != game.id or len(values) != len(texts) + 1:
                raise LiveError("live.malformed", "The host's update does not fit this page.")
            match = MirrorMatch(game, msg.get("options") or {})
            match.log, match.states, match.undone = texts, values, undone
            s = GuestSession(match, None, "guest", send_intent=self._send)
            self.shell.session = s
            self._meta(msg)
            if self.shell.page is not None:
                self.shell.page.reset()
                self.shell.page.opened()
            self.shell.clear_message()
            self.failures = 0
            self.send_share()
            return
        if s is None or base > len(s.match.log) or len(values) != len(texts):
            raise LiveError("live.malformed", "The host's update does not follow this page's.")
        s.match.truncate(base)
        s.match.log.extend(texts)
        s.match.states.extend(values)
        s.match.undone = undone
        s.pending = None
        if texts or base < len(s.match.log) - len(texts):
            s.secret_parts.clear()
            if s.viewing is not None and s.viewing > len(s.match.log):
                s.viewing = None
            if self.shell.page is not None:
                self.shell.page.reset()
            self.shell.clear_message()
        self._meta(msg)
        self.failures = 0
        if texts:
            self.send_share()

    def send_share(self) -> None:
        """This device's fresh share of the next draws (issue 26), made after it saw the last
        step: the host's page mixes it into each draw, so no draw is the host's alone.

        At most one per ``share_every_ms`` (live.json): computer players can step faster
        than a device may send; a draw made meanwhile takes the shares the host holds. A share
        held back by that limit is sent when it ends (the host forgets a share once it sends
        new steps, so a dropped one would leave the next draws without this device)."""
        now = self.shell.host.clock()
        wait = float(SETTINGS["share_every_ms"]) - (now - self.share_at)
        if wait > 0:
            if not self.share_due:
                self.share_due = True
                self.shell.host.later(wait, self._share_due)
            return
        self.share_at = now
        self._send({"t": "share", "share": secrets.token_hex(3)})

    def _share_due(self) -> None:
        self.share_due = False
        self.send_share()


def device_token() -> str:
    return secrets.token_urlsafe(18)


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
    """The host's table: join link (copy or share), QR code, room code; seats and devices; Close."""
    s = table.session
    rows = []
    devices = list(table.devices.values())
    for i, seat in enumerate(s.seats()):
        d = next((x for x in devices if x.seat == i), None)
        if seat.is_bot:
            where = "the computer"
        elif i in table.reserved and (d is None or d.token == table.reserved[i]) and not (d and d.connected):
            # kept for one person's own link (a Metagame duel): nobody else may sit here
            where = f"waiting for {seat.name}'s own link"
        elif d is not None:
            where = f"{d.name}'s device" + ("" if d.connected else " (disconnected, waiting)")
        elif i in table.kept():
            where = "this device"
        elif table.game.host_is_referee:
            where = "open: played from this page until its player takes it"
        else:
            where = "open: a guest may take it"
        free = d is None and not seat.is_bot and i not in table.kept()
        options = [h("option", "This device", value="", selected=d is None and not seat.is_bot and not free),
                   h("option", "Open: a guest may take it", value="open", selected=free)]
        options += [h("option", f"{x.name}'s device", value=x.token, selected=x is d) for x in devices]
        if i not in table.reserved:  # a campaign duel's seat is its player's, never the computer's (M12)
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
        h("p", _host_intro(table), cls="muted", id="live-intro"),
        h("div",
          h("button", "Copy the join link", type="button", cls="small", id="live-copy-join", data_copy=join_url),
          # the phone's own share sheet (issue 36): static/frame.js calls navigator.share, and
          # static/live.css hides the button where the browser has no Web Share API
          h("button", "Share…", type="button", cls="small", id="live-share-join", data_share=join_url,
            data_share_title=f"{table.game.title}: join my live table"),
          h("p", "Room code ", h("strong", table.code, id="live-code"), cls="live-code-line"),
          h("span", join_url, cls="url", id="live-join-url"),
          cls="live-join") if join_url else h("p", "Preparing the table's key…", cls="muted", role="status"),
        qr,
        h("ul", *rows, id="live-seats", cls="live-seats", aria_label="Seats at the live table"),
        h("p", f"Watching: {', '.join(d.name + ('' if d.connected else ' (gone)') for d in watchers)}"
          if watchers else "Nobody is watching.", cls="muted", id="live-watchers"),
        h("ul", *[h("li", t) for t in table.log_notes[-5:]], cls="live-notes muted", aria_live="polite"),
        h("button", "Close the table", type="button", id="live-close", cls="secondary",
          on_click=lambda ev: on("close")),
        h("p", PRIVACY, cls="muted live-privacy"),
        id="live-panel-inner", cls="live-panel",
    )


def _host_intro(table: Table) -> str:
    """What the host tells its friends. Where every person's seat is kept for a named
    player's own link (a Metagame duel's two players), no seat is free to pick: say whose
    link each seat waits for, and that anyone else who opens the table's link watches."""
    s = table.session
    people = [i for i, seat in enumerate(s.seats()) if not seat.is_bot and i not in table.kept()]
    private = "Each device sees only what its seat may see."
    if people and not table.free_seats() and all(i in table.reserved for i in people):
        names = [s.seats()[i].name for i in people]
        return (f"Every seat here is kept for its player: {and_list(names)} each open their own link, "
                f"given where the table was made, on their own device. Anyone else who opens the join "
                f"link below watches. {private}")
    return f"Friends open this link (or scan the code) on their own device, pick a free seat and play. {private}"


def table_lock(code: str) -> str:
    """The name of the lock held by the tab that runs table ``code``. Issue 36, one
    authority per table: a second tab or window of the same table in this browser (a
    reload's twin, the Metagame console's "Open the duel's table" clicked again) must not
    become a second host, with a second history and the guests split between the two; it
    finds the lock taken and only shows the game (:func:`show_only`)."""
    return TABLE_LOCK + code


#: what a second tab of a table says in its live panel (issue 36)
ELSEWHERE = ("This live table is open in another tab of this browser, which runs it: the players' devices "
             "are connected to that tab. This tab only shows the game as it goes on; play and change the "
             "table in the other tab.")
ELSEWHERE_RELOAD = "Closed the other tab? Reload this one to run the table here."


def show_only(session: Session) -> None:
    """A second tab of a table (issue 36) plays nothing and saves nothing: its session is
    an audience's (``Session.locked``: no step, no computer's move; ``Shell.autosave``
    writes only a host's session), so the tab that runs the table keeps the one history."""
    session.mode = "audience"
    session.bot = None
    session.viewing = None


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

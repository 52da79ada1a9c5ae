"""The host's table, its record (issue 22): the devices at the table, who sits where, and what
the host's storage keeps of it (:class:`Seating`, ``Table.seating``).

Why apart: what a table *is* (its devices, its seats kept and reserved, its signing key,
choices held ahead) is read by everything else the table does: answering a device
(``live_table.py``), and what each device is sent (``live_sync.py``). Those parts are given
this record; it knows neither of them, nor the transport.
"""
from __future__ import annotations

import secrets
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from live_links import HOST_KEY_CHARS
from live_sessions import TableSession, adopt
from live_wire import MAX_NAME, MAX_SHARES, RateLimit

from conquest.core import Game, GameError


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


class Seating:
    """A live table's record: its devices (by token, so a reload of either side finds its seat
    again), the seats the host keeps or reserves, and the signing key; stored by
    :meth:`to_json` (through ``saver``), reopened by :meth:`restore`. :class:`live_table.Table`
    owns one and answers the devices on it."""

    def __init__(self, shell: Any, code: str, password: str) -> None:
        self.shell = shell
        self.code = code
        self.password = password
        self.devices: dict[str, Device] = {}
        self.peers: dict[str, str] = {}  # peer id -> token
        self.log_notes: list[str] = []  # what the host is told (joins, refusals)
        self._kept: set[int] | None = None
        #: seats kept for one device each, by its token (a Metagame duel's two players): no
        #: other device may take them, even while their player watches or is away
        self.reserved: dict[int, str] = {}
        #: the host's signing key pair (``{"private": JWK text, "public": raw base64url}``),
        #: kept with the table so a reload signs with the key the guests' links name
        self.host_key: dict[str, str] | None = None
        #: where :meth:`save` keeps the record (the host page's preference); None keeps nothing
        self.saver: Callable[[dict[str, Any]], None] | None = None
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

    def note(self, text: str) -> None:
        self.log_notes = [*self.log_notes[-19:], text]

    def save(self) -> None:
        """The record as it is now, to the host's storage (``saver``)."""
        if self.saver is not None:
            self.saver(self.to_json())

    # -- the record's changes (the table saves and sends them) --------------------------------
    def device_at(self, seat: int) -> Device | None:
        """The device that plays ``seat`` (at most one: a seat taken is nobody else's)."""
        return next((d for d in self.devices.values() if d.seat == seat), None)

    def vacate(self, seat: int) -> None:
        """No device plays ``seat`` any more (its device, if any, watches)."""
        for d in self.devices.values():
            if d.seat == seat:
                d.seat = None

    def keep_all(self) -> None:
        """The host's device keeps every human seat (``Table.keep_all``)."""
        self._kept = set(range(len(self.session.seats())))

    def release(self, seat: int) -> None:
        """The host's device gives up ``seat``, reserved or not: any guest may take it."""
        self._kept = self.kept() - {seat}
        self.reserved.pop(seat, None)

    def assign(self, seat: int, token: str | None) -> None:
        """``seat`` to the device ``token``, or back to the host's device (None); a seat kept
        for a named player is kept for where it went."""
        self.vacate(seat)
        if token is not None:
            self.devices[token].seat = seat
        else:
            self._kept = self.kept() | {seat}
        if seat in self.reserved:
            if token is None:
                del self.reserved[seat]
            else:
                self.reserved[seat] = token

"""The host's side of a live table (issue 22): the one authority, answering every device.

Why apart from its record (``live_seating.py``) and what it sends (``live_sync.py``): this is
where a device's message is checked, in the order the protocol promises (rate, size, JSON,
shape, then what it asks: a guest acts only for its own seat and only at the present step),
and where the host's own controls move seats. The table owns those two parts and says when
each is used: the record changes, is saved, then every device is sent the news.
"""
from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from typing import Any

from live_seating import Device, Seating
from live_sessions import TableSession, adopt, cite
from live_sync import TableSync
from live_wire import (
    _SHARE,
    GUEST_KINDS,
    MAX_NAME,
    LiveError,
    RateLimit,
    _int,
    _text,
    parse_message,
    part_from_json,
    stranger_limit,
)
from shell import HUMAN, Session

from conquest.core import ConquestError, Game, GameError
from conquest.rng import Rng
from conquest.session import Match, ReplayError, excerpt


class Table:
    """The host's side of a live table: the one authority (design.md).

    ``send(peer, text)`` delivers to one device (replaced by ``remote.Devices.attach``). The
    host's session must be a :class:`TableSession`. Its record (devices, seats, what is
    stored) is ``seating``, a :class:`live_seating.Seating`; what each device is sent is made
    by ``updates``, a :class:`live_sync.TableSync`; here, what it answers, and when.
    """

    def __init__(self, shell: Any, send: Callable[[str, str], None], code: str, password: str) -> None:
        self.shell = shell
        self.send = send
        self.seating = Seating(shell, code, password)
        self.updates = TableSync(self.seating)
        self.open = True
        #: messages parsed (for the flood test: a flood is dropped before parsing)
        self.parsed = 0
        self._strangers: dict[str, RateLimit] = {}

    @property
    def session(self) -> TableSession:
        return self.seating.session

    @property
    def game(self) -> Game[Any, Any]:
        return self.seating.game

    # -- sending ------------------------------------------------------------------------------
    def _send(self, peer: str, msg: Mapping[str, Any]) -> None:
        self.send(peer, json.dumps(msg, separators=(",", ":"), ensure_ascii=False))

    def _refuse(self, peer: str, exc: Exception) -> None:
        message = exc.message if isinstance(exc, ConquestError) else "The host could not use that message."
        code = exc.code if isinstance(exc, ConquestError) else "live.error"
        self._send(peer, {"t": "refused", "code": code, "message": message})

    def sync(self, meta_only: bool = False) -> None:
        """Send every connected device what changed since it was last sent anything."""
        if not self.open:
            return
        for d in list(self.seating.devices.values()):
            self.sync_device(d, meta_only=meta_only)

    def sync_device(self, d: Device, meta_only: bool = False) -> None:
        """One connected device's update, if it lacks anything (``TableSync.update``)."""
        if d.peer is None:
            return
        msg = self.updates.update(d, meta_only)
        if msg is not None:
            self._send(d.peer, msg)

    def _saved(self, sync_session: bool = True, meta_only: bool = False) -> None:
        """A change of the record: stored, the session's remote seats follow it (unless
        nothing about seats changed), and every device is told."""
        self.seating.save()
        if sync_session:
            self.seating.sync_session()
        self.sync(meta_only=meta_only)

    # -- the transport's events ---------------------------------------------------------
    def connected(self, peer: str) -> None:
        """A peer joined the room: tell it who the host is (it answers with hello)."""
        self._send(peer, {"t": "host", "game": self.game.id, "code": self.seating.code})

    def disconnected(self, peer: str) -> None:
        table = self.seating
        token = table.peers.pop(peer, None)
        if token is not None and token in table.devices:
            d = table.devices[token]
            d.peer = None
            d.synced = None
            table.note(f"{d.name} disconnected; their seat waits for them.")
            table.sync_session()
            self.sync(meta_only=True)

    def receive(self, peer: str, raw: Any, now_ms: float) -> None:
        """One message from a device: rate, size, JSON, shape, then what it asks."""
        token = self.seating.peers.get(peer)
        device = self.seating.devices.get(token) if token else None
        limit = device.limit if device is not None else stranger_limit(self._strangers, peer)
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

    # -- what devices ask -----------------------------------------------------------------
    def _hello(self, peer: str, msg: Mapping[str, Any]) -> None:
        token = _text(msg, "device", 64)
        if len(token) < 16:
            raise LiveError("live.malformed", "A device's token must be at least 16 characters.")
        given = " ".join(_text(msg, "name", 200).split())[:MAX_NAME]
        name = given or "Guest"
        want = msg.get("want")
        table = self.seating
        device = table.devices.get(token)
        if device is None:
            if len(table.devices) >= 32:
                raise LiveError("live.full", "This table is full.")
            device = Device(token, name)
            table.devices[token] = device
            table.note(f"{name} joined the table.")
        else:
            old = device.peer
            if old is not None and old != peer:
                table.peers.pop(old, None)
            # a device that gives no name keeps the one it had (a seat the host named for a
            # person, as the Metagame console does for a duel's two players)
            device.name = name = given or device.name
            table.note(f"{name} is back" + (f" at {self.session.seat_name(device.seat)}'s seat." if device.seat is not None else "."))
            if given and device.seat is not None:
                self.name_seat(device.seat, given)
        if device.peer != peer:
            device.synced = None  # a new connection (a reload): everything again
        device.peer = peer
        table.peers[peer] = token
        if device.seat is None and isinstance(want, int) and not isinstance(want, bool) and table.may_take(device, want):
            device.seat = want
            table.note(f"{name} sits at {self.session.seat_name(want)}'s seat.")
            if given:
                self.name_seat(want, given)
        self._saved()

    def _claim(self, device: Device, msg: Mapping[str, Any]) -> None:
        raw = msg.get("seat")
        if raw is None:
            device.seat = None
            self.seating.note(f"{device.name} now watches.")
        else:
            seat = _int(msg, "seat", 0, 15)
            if seat != device.seat and not self.seating.may_take(device, seat):
                raise LiveError("live.seat-taken", f"{self.session.seat_name(seat)}'s seat is not free.")
            device.seat = seat
            self.seating.note(f"{device.name} sits at {self.session.seat_name(seat)}'s seat.")
            if device.name != "Guest":
                self.name_seat(seat, device.name)
        self._saved()

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
        if not name or seat in self.seating.reserved or not 0 <= seat < len(seats):
            return False
        plain = [x.name for x in seats]  # as given (Session.seats isolates none, issue 42)
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
        self.updates.forget()  # the states they hold name the seat's old name
        self.seating.note(f"{plain[seat]}'s seat is now called {name}.")
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
        self.seating.note(f"{s.seat_name(seat)} has chosen ahead; it is played when their step comes.")
        self.seating.save()
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
    def keep_all(self) -> None:
        """The host's device keeps every human seat: a table only to watch (the Metagame
        console's audience on their own devices, where the host enters every step)."""
        self.seating.keep_all()
        self._saved(sync_session=False, meta_only=True)

    def release(self, seat: int) -> None:
        """The host's device gives up ``seat``: a guest may take it."""
        self.seating.release(seat)
        self._saved(sync_session=False, meta_only=True)

    def assign(self, seat: int, token: str | None) -> None:
        """Move a seat to a device (``token``), or back to this device (None)."""
        if token is not None and token not in self.seating.devices:
            raise LiveError("live.unknown", "That device is not at the table.")
        self.seating.assign(seat, token)
        self._saved()

    def make_bot(self, seat: int, level: str) -> None:
        """A seat is played by a computer from now on (e.g. someone had to leave)."""
        s = self.session
        if seat in self.seating.reserved and level != HUMAN:
            raise LiveError("live.duel-seat", f"M12: this duel's seats are its two players'; {s.seat_name(seat)}'s "
                                              "seat cannot be given to the computer (the campaign would refuse the "
                                              "result).")
        raw = s.match.options.get("seats")
        if not isinstance(raw, list) or not 0 <= seat < len(raw) or not isinstance(raw[seat], Mapping):
            raise LiveError("live.no-bot", "This game's seats cannot be given to the computer here.")
        self.seating.vacate(seat)
        seats = [dict(x) for x in raw]
        if level == HUMAN:
            seats[seat].pop("bot", None)
        else:
            seats[seat]["bot"] = level
        s.match.options["seats"] = seats
        self.seating.save()
        self.seating.sync_session()
        self.shell.after_change()
        self.sync()

    def close(self) -> None:
        self.open = False
        for d in self.seating.devices.values():
            if d.peer is not None:
                self._send(d.peer, {"t": "closed"})
        self.shell.session = adopt(self.session, Session)


def _any_part(game: Game[Any, Any], state: Any, seat: int) -> Any:
    choices = game.secret_choices(state, seat)
    return choices[0] if choices else None

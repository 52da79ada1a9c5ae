"""The host's side of a live table (issue 22): the one authority, answering every device.

Why apart from its record (``live_seating.py``) and what it sends (``live_sync.py``): this is
where a device's message is checked, in the order the protocol promises (rate, size, JSON,
shape, then what it asks: a guest acts only for its own seat and only at the present step),
and where the host's own controls move seats.
"""
from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from live_seating import Device
from live_sessions import adopt, cite
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


class Table(TableSync):
    """The host's side of a live table: the one authority (design.md).

    ``send(peer, text)`` delivers to one device. The host's session must be a
    :class:`TableSession`; ``seats_of_devices`` keeps which seat each device plays, by the
    device's token, so a reload of either side finds its seat again.

    Its record (devices, seats, what is stored) is :class:`live_seating.Seating`, what it
    sends each device :class:`live_sync.TableSync`; here, what it answers.
    """

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


def _any_part(game: Game[Any, Any], state: Any, seat: int) -> Any:
    choices = game.secret_choices(state, seat)
    return choices[0] if choices else None

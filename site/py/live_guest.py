"""A guest's side of a live table (issue 22): hello, the host's updates, intents.

Why apart: a guest trusts only messages signed by the host's key, and reads each update
whole before anything on its screen changes; nothing here decides anything (the host is the
one authority, ``live_table.py``).
"""
from __future__ import annotations

import json
import secrets
from collections.abc import Callable, Mapping
from typing import Any

from live_sessions import GuestSession, MirrorMatch
from live_wire import MAX_NAME, MAX_UPDATE, SETTINGS, LiveError, parse_message

from conquest.core import GameError


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
            name = str(seats[you].get("name", ""))  # as given: seats isolate no name (issue 42)
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

"""What a live table sends each device (issue 22): its update, redacted for its seat.

Why apart: this is where the host's authority meets what each device may know
(``Game.redact``, ``Game.redact_text``): one place to read when checking that no seat is
sent another's secrets. It reads the table's record (``live_seating.Seating``) and makes the
messages; the table (``live_table.py``) says when to sync and sends them.
"""
from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from live_seating import Device, Seating

from conquest.core import Game


class TableSync:
    """Each device's update: what changed since it was last sent anything, redacted for its
    seat (``Table.updates``). Keeps what each device was sent on its :class:`Device`, and
    the redacted states it made."""

    def __init__(self, seating: Seating) -> None:
        self.seating = seating
        #: redacted states as JSON, by (step, seat): states never change, so a rejoin or a
        #: second device of the same seat costs no engine work (checked by identity)
        self._redacted: dict[tuple[int, int | None], tuple[Any, Any]] = {}

    def forget(self) -> None:
        """The states were made again (a seat renamed, ``Table.name_seat``): nothing made
        before is reused, and every device is sent everything again."""
        self._redacted.clear()
        for d in self.seating.devices.values():
            d.synced = None

    def meta(self, device: Device) -> dict[str, Any]:
        """Who sits where, as ``device`` is told it, and the step's public facts."""
        table = self.seating
        s = table.session
        seats = []
        for i, seat in enumerate(s.seats()):
            d = table.device_at(i)
            seats.append({
                "name": seat.name,
                "colour": seat.colour,
                "bot": seat.is_bot,
                "where": "bot" if seat.is_bot else ("device" if d is not None else ("host" if i in table.kept() else
                         ("free" if table.may_take(device, i) else "reserved"))),
                "device": d.name if d is not None else None,
                "connected": d.connected if d is not None else True,
            })
        secret = table.game.simultaneous(s.match.state)
        return {
            "seats": seats,
            "you": device.seat,
            "chosen": [x for x in secret if x in s.secret_parts],
            "ahead": sorted(s.held),
            "seal": self.seal(),
            "watching": sum(1 for d in table.devices.values() if d.seat is None and d.connected),
        }

    def seal(self) -> list[Any] | None:
        """The host's newest commitment and the next draw's number (issue 26): public, so
        every device shows it before the draw it seals (the Metagame's wheel, M10)."""
        rec = getattr(self.seating.session.match, "draws", None)
        if rec is None or not rec.seals:
            return None
        return [rec.seals[-1].commitment, rec.count + 1]

    def _redact_json(self, state: Any, index: int, seat: int | None) -> Any:
        """A state as ``seat`` may know it, as JSON (cached: a state never changes)."""
        key = (index, seat)
        hit = self._redacted.get(key)
        if hit is not None and hit[0] is state:
            return hit[1]
        g = self.seating.game
        value = g.state_to_json(g.redact(state, seat))
        self._redacted[key] = (state, value)
        return value

    def update(self, d: Device, meta_only: bool = False) -> dict[str, Any] | None:
        """One device's update: the log and states it lacks, redacted for its seat, or only
        who sits where (``meta_only``); None when it has everything. Noted on ``d`` as sent.

        A device whose seat changed (claimed, moved, given to the computer) is sent
        everything again: what it holds was redacted for its old seat."""
        if d.synced is not None and d.sent_meta is not None and d.sent_meta.get("you") != d.seat:
            d.synced = None
        m = self.seating.session.match
        log = m.log
        seat = d.seat
        base = 0
        if d.synced is not None and not meta_only:
            while base < min(len(d.synced), len(log)) and d.synced[base] == log[base]:
                base += 1
        meta = self.meta(d)
        if meta_only and d.synced is not None:
            if meta == d.sent_meta:
                return None
            d.sent_meta = meta
            return {"t": "meta", **meta}
        if d.synced is not None and base == len(log) == len(d.synced) and meta == d.sent_meta:
            return None
        g = self.seating.game
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
        return msg


def _mask_undone(game: Game[Any, Any], match: Any, at: int, text: str, seat: int | None) -> str:
    """A chance result taken back by an undo, as ``seat`` may read it (W5: a card's kind).

    The device's page says a masked one as the game does (``Game.secret_result``: "a card",
    ``shell_log.LogWindow.taken_back``). When the state it was drawn in is gone (undone
    further back), whose it was cannot be told here: a secret one is masked for everybody
    (as a spectator reads it), anything else of a game with hidden information is "?"."""
    if at < len(match.states):
        try:
            return game.redact_text(match.states[at], text, seat)
        except Exception:  # noqa: BLE001 - masking must never fail open
            return "?"
    if not game.hidden_information:
        return text
    if game.secret_result(text) is not None:
        try:
            masked = game.redact_text(match.state, text, None)
        except Exception:  # noqa: BLE001 - masking must never fail open
            masked = text
        if masked != text:
            return masked
    return "?"


def _public_options(options: Mapping[str, Any]) -> dict[str, Any]:
    """The options a guest needs (seats, rules); the set-up seed is only for replays."""
    return {k: v for k, v in options.items() if k != "seed"}

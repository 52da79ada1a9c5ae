"""What a live table sends each device (issue 22): its update, redacted for its seat.

Why apart: this is where the host's authority meets what each device may know
(``Game.redact``, ``Game.redact_text``): one place to read when checking that no seat is
sent another's secrets. The rest of the table (``live_table.py``) only says when to sync.
"""
from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from live_seating import Device, Seating

from conquest.core import ConquestError, Game


class TableSync(Seating):
    """Sending: each device is sent what changed since it was last sent anything (the base
    of :class:`live_table.Table`)."""

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

"""The live table's wire protocol (issue 22): its limits, and how a device's message is read.

Why apart: the host's :class:`live_table.Table`, the guest's :class:`live_guest.Guest` and the
guest devices' pages (``remote.py``) read untrusted texts the same way: bounded before they
are parsed, then shape-checked, each device's rate limited before anything else. Nothing
here knows the game or the table.
"""
from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from shell import ShellError

from conquest.catalog import load_data
from conquest.savecode import load_json
from conquest.session import excerpt

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


class LiveError(ShellError):
    """A refusal of the table (stale step, another seat, a malformed message, …)."""


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

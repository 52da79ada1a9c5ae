"""Share links: a save, compressed and base64url-encoded, and its defensive decoder.

A link fragment is ``<mode>=<code>`` where mode is ``h`` (host: may continue) or ``v``
(view: read-only), and code is ``c1.`` followed by base64url (no padding) of the raw-deflate
compressed compact JSON of the save. The fragment never reaches a server.

To keep links short enough for chat messages, the link's JSON may carry the log as one
string joined by ``;`` (when no entry is empty or contains one) instead of a list: about 4% shorter
links, since the quotes and commas around each entry do not compress away. Decoding turns
it back into the list, so the save itself is always ``{v, game, options, log: [...]}``.

Everything here treats its input as hostile: a link is typed, truncated, mangled by chat
apps, or crafted. Each failure is a :class:`SaveCodeError` with a stable code and a message
for people; nothing else escapes, and nothing is ever rendered as markup here. Messages
quote at most a short, escaped excerpt of the input.

Text is checked too (:func:`validate_save`): no string anywhere may hold a lone surrogate
(valid JSON, ``"\\ud800"``, but not Unicode: it cannot be encoded or shown); names and titles
(``options.title`` and every value under a ``name`` or ``title`` key, such as players'
names and a custom map's territory names) may hold no control character (C0, DEL, C1);
log entries and option keys neither; other option text may hold only tab, line feed and
carriage return (multi-line text such as a question pack). Numbers are bounded too: no
option needs a whole number of 2**63 or more (the set-up seed is the largest).

A save kept in this browser (a slot) or exported from it also carries its ``slot`` record:
``{"name", "created", "updated", "mode", "rev"}`` (issue 10, items 3 and 10), so the list of
saved games can always be rebuilt whole from the saves themselves and a file keeps its name
and dates. It is checked like the rest, and links never carry it (:func:`encode_save`).
"""
from __future__ import annotations

import base64
import binascii
import json
import math
import re
import zlib
from collections.abc import Callable, Mapping
from functools import lru_cache
from typing import Any

from conquest.core import ConquestError
from conquest.session import SAVE_FORMAT, excerpt

__all__ = [
    "CODE_PREFIX",
    "MAX_CODE_CHARS",
    "MAX_JSON_BYTES",
    "SaveCodeError",
    "encode_save",
    "SaveEncoder",
    "decode_save",
    "validate_save",
    "make_fragment",
    "parse_fragment",
    "link_fragment",
    "decode_link",
    "check_text",
    "json_nesting_error",
    "load_json",
    "MAX_JSON_DEPTH",
    "MAX_LOG_ENTRIES",
    "REPLAY_BUDGET_US",
    "max_steps",
    "SLOT_KEY",
    "check_slot_record",
]

CODE_PREFIX = "c1."
#: a link longer than this is not a link we made (our own stay far below)
MAX_CODE_CHARS = 200_000
#: the inflated JSON may not exceed this (a zip bomb stops here)
MAX_JSON_BYTES = 2_000_000
#: A save's size is budgeted by its bytes (MAX_CODE_CHARS, MAX_JSON_BYTES) and by the cost of
#: replaying it, not by one step count for every game (issue 20, item 11: a legal 6-seat World
#: Conquest game passes 20,000 steps). The budget: opening the worst accepted save of any game
#: takes at most this much CPU time in CPython (and 200 MB; see tests/test_hardening_budget.py
#: and bench/fuzz_links.py, which measure each game's worst case).
REPLAY_BUDGET_US = 2_000_000
#: each game's data file declares the replay cost of its dearest step, measured
#: (``"replay": {"step_cost_us": n}``); its log may hold REPLAY_BUDGET_US // n steps
DEFAULT_STEP_COST_US = 100
#: no game's budget allows more steps than this: the bound before the game is known
MAX_LOG_ENTRIES = 100_000
MAX_ACTION_CHARS = 2_000
MAX_OPTIONS_DEPTH = 8
#: whole numbers in options stay below this (the set-up seed is the largest any game uses)
MAX_OPTION_INT = 2**63
#: keys whose text values are names or titles people see: no control characters at all
NAME_KEYS = frozenset({"name", "title"})
_SURROGATE = re.compile(r"[\ud800-\udfff]")
_CONTROL = re.compile("[\x00-\x1f\x7f-\x9f]")
#: control characters other text may not hold (tab, line feed and carriage return may stay)
_CONTROL_BUT_LINES = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f]")
_SIMPLE_KEY = re.compile(r"[A-Za-z_][A-Za-z0-9_]{0,29}")
_B64URL = re.compile(r"[A-Za-z0-9_-]*")
_GAME_ID = re.compile(r"[a-z][a-z0-9_-]{0,39}")
MODES = {"h": "host", "v": "view"}


class SaveCodeError(ConquestError, ValueError):
    """A link or file that is not a usable save; ``code`` is stable, ``message`` for people."""


LOG_SEPARATOR = ";"
#: the optional record of a stored slot inside a save (see the module docstring)
SLOT_KEY = "slot"
#: the draws' seals and contributions (issue 26): links carry them, so anyone can check
DRAWS_KEY = "draws"
#: a slot's revision counts its writes; no browser writes a slot 2**53 times
MAX_SLOT_REV = 2**53


def encode_save(save: Mapping[str, Any]) -> str:
    """The link code of a save dict (``Save.to_json()``); validates it first."""
    code = SaveEncoder(save).advance(math.inf, lambda: 0.0)
    assert code is not None
    return code


class SaveEncoder:
    """:func:`encode_save` in slices, so a page makes a long game's link while it answers
    (issue 20, item 10: compressing an 80,000-step World save was one block of the page's
    main thread, 120-400 ms under Pyodide). Checking the save and writing its JSON is the
    first slice (milliseconds); then the JSON goes to the compressor ``CHUNK`` bytes at a
    time until a slice's time is up. The compressor is fed without flushing, so the code
    is the same however it is sliced (``tests/test_savecode.py``): the clock only decides
    where a slice ends, never what comes out.

    ``after``: the encoder of an earlier save of the same game (the step before). Each
    encoder keeps the compressor's state at its :attr:`mark`, ``MARK_BEFORE_LOG_END`` bytes
    of JSON before the end of its log; a save whose JSON starts with those same bytes (the
    next step's, an undo's: only the log's end and what follows it differ) starts from
    there, so its code costs the JSON and the last few kilobytes, not the whole compression
    again (issue 42: with storage refused, the address gets a long game's code in the
    step's own task, so a reload at once keeps the step). The code is the same bytes
    (compressing ``a`` then ``b`` is compressing ``a + b``); where the JSON differs earlier,
    the compression starts from the beginning."""

    #: bytes given to the compressor between two looks at the clock
    CHUNK = 16_384
    #: where the mark is kept: this many bytes of JSON before the end of the log (about 500
    #: steps of World: an undo of fewer still starts from it)
    MARK_BEFORE_LOG_END = 4_096

    def __init__(self, save: Mapping[str, Any], after: SaveEncoder | None = None) -> None:
        self.save = save
        self.after = after
        self.raw: bytes | None = None
        self.pos = 0
        self.parts: list[bytes] = []
        self.comp = zlib.compressobj(9, zlib.DEFLATED, -15, 9)
        self.code: str | None = None
        #: ``(JSON up to the mark, the compressor's state there, what it gave until there)``
        self.mark: tuple[bytes, Any, bytes] | None = None
        self.mark_at = 0
        #: where this code's compression started: 0, or the earlier encoder's mark
        self.resumed_at = 0

    def advance(self, budget_ms: float, clock: Callable[[], float]) -> str | None:
        """About ``budget_ms`` of work (at least one chunk); the code once it is complete."""
        if self.code is not None:
            return self.code
        start = clock()
        if self.raw is None:
            obj: dict[str, Any] = validate_save(self.save)
            obj.pop(SLOT_KEY, None)  # this browser's bookkeeping stays here
            if obj["log"] and all(obj["log"]) and LOG_SEPARATOR not in "".join(obj["log"]):  # one character
                obj = {**obj, "log": LOG_SEPARATOR.join(obj["log"])}
            self.raw = json.dumps(obj, separators=(",", ":"), ensure_ascii=False, sort_keys=True).encode("utf-8")
            self._start_from(self.after)
            self.after = None  # no chain of encoders is kept
        while self.pos < len(self.raw):
            end = self.pos + self.CHUNK
            if self.pos < self.mark_at <= end:
                self.parts.append(self.comp.compress(self.raw[self.pos : self.mark_at]))
                self.parts = [b"".join(self.parts)]
                self.mark = (self.raw[: self.mark_at], self.comp.copy(), self.parts[0])
                self.pos = self.mark_at
            self.parts.append(self.comp.compress(self.raw[self.pos : end]))
            self.pos = min(end, len(self.raw))
            if clock() - start >= budget_ms and self.pos < len(self.raw):
                return None
        packed = b"".join(self.parts) + self.comp.flush()
        self.code = CODE_PREFIX + base64.urlsafe_b64encode(packed).rstrip(b"=").decode("ascii")
        self.parts = []
        return self.code

    def _start_from(self, earlier: SaveEncoder | None) -> None:
        """Place the mark in this JSON, and start from ``earlier``'s mark if this JSON starts
        with the bytes it was kept after (otherwise from the beginning)."""
        raw = self.raw
        assert raw is not None
        key = raw.find(b'"log":')
        log_end = raw.find(b'"', key + 7) if raw[key + 6 : key + 7] == b'"' else raw.find(b'],"', key)
        self.mark_at = max(0, (log_end if key >= 0 and log_end >= 0 else len(raw)) - self.MARK_BEFORE_LOG_END)
        mark = earlier.mark if earlier is not None else None
        if mark is None or not raw.startswith(mark[0]):
            return
        prefix, comp, packed = mark
        self.comp, self.parts, self.pos, self.resumed_at = comp.copy(), [packed], len(prefix), len(prefix)
        if self.mark_at <= self.pos:
            self.mark = mark  # an undo: the earlier mark still holds for this JSON and the next

    @property
    def progress(self) -> float:
        """How much of the JSON is compressed, from 0 to 1."""
        return 0.0 if not self.raw else min(1.0, self.pos / len(self.raw))


def decode_save(code: str) -> dict[str, Any]:
    """Turn a link code back into a validated save dict, or raise SaveCodeError."""
    if not isinstance(code, str):
        raise SaveCodeError("type", "A game link must be text.")
    code = code.strip()
    if not code:
        raise SaveCodeError("empty", "The link holds no game: the part after # is empty.")
    if len(code) > MAX_CODE_CHARS:
        raise SaveCodeError("too-long", f"The link is {len(code):,} characters long; no game link is that long.")
    version, dot, body = code.partition(".")
    if not dot or not re.fullmatch(r"c\d{1,3}", version):
        raise SaveCodeError(
            "not-a-link", "This does not look like a Conquest game link (it should start with 'c1.')."
        )
    if version + "." != CODE_PREFIX:
        raise SaveCodeError(
            "version",
            f"This link was made by another version of Conquest (format {version!r}); "
            f"this site reads format {CODE_PREFIX[:-1]!r}.",
        )
    if not _B64URL.fullmatch(body):
        raise SaveCodeError(
            "base64", "The link is damaged: it contains characters a game link never has (was it cut or edited?)."
        )
    try:
        packed = base64.urlsafe_b64decode(body + "=" * (-len(body) % 4))
    except (binascii.Error, ValueError):
        raise SaveCodeError("base64", "The link is damaged: its code is cut short or edited.") from None
    inflater = zlib.decompressobj(-15)
    try:
        raw = inflater.decompress(packed, MAX_JSON_BYTES + 1)
    except zlib.error:
        raise SaveCodeError("compression", "The link is damaged: its game data does not unpack.") from None
    if len(raw) > MAX_JSON_BYTES or inflater.unconsumed_tail:
        raise SaveCodeError("too-large", "The link unpacks to more data than any game needs; it was refused.")
    if not inflater.eof:
        raise SaveCodeError("truncated", "The link is cut short: copy the whole link, up to its last character.")
    if inflater.unused_data:
        raise SaveCodeError("trailing", "The link is damaged: it carries extra data after the game.")
    return parse_save_json(raw, what="link", joined_log=True)


def parse_save_json(raw: bytes | str, what: str = "file", joined_log: bool = False) -> dict[str, Any]:
    """Parse and validate save JSON from a link or a file (links may join the log, see above)."""
    if isinstance(raw, bytes):
        if len(raw) > MAX_JSON_BYTES:
            raise SaveCodeError("too-large", f"The {what} is larger than any saved game; it was refused.")
        try:
            raw = raw.decode("utf-8")
        except UnicodeDecodeError:
            raise SaveCodeError("encoding", f"The {what} is not UTF-8 text.") from None
    elif len(raw) > MAX_JSON_BYTES:
        raise SaveCodeError("too-large", f"The {what} is larger than any saved game; it was refused.")
    obj = load_json(raw, what)
    if joined_log and isinstance(obj, dict) and isinstance(obj.get("log"), str):
        if len(obj["log"]) > MAX_JSON_BYTES:
            raise SaveCodeError("schema", f"The {what}'s log is too long.")
        steps = obj["log"].count(LOG_SEPARATOR) + 1
        game_id = obj.get("game") if isinstance(obj.get("game"), str) else ""
        if steps > max_steps(game_id):  # counted before the list is built
            raise SaveCodeError("too-many-steps", _too_many_steps(what, steps, game_id))
        obj["log"] = obj["log"].split(LOG_SEPARATOR)
    return validate_save(obj, what=what)


#: the deepest nesting of objects and lists any input may have (a save needs about 10: the
#: options may nest 8 deep, MAX_OPTIONS_DEPTH). Checked on the raw text before parsing,
#: because the parser recurses once per level: CPython stops near 1,000 levels with a
#: RecursionError, Pyodide's far smaller stack overflows fatally near 4,700 (issue 20,
#: item 2), killing the page's engine. 32 fits both with room to spare.
MAX_JSON_DEPTH = 32
_JSON_STRING = re.compile(r'"[^"\\]*(?:\\.[^"\\]*)*"', re.S)
#: what JSON may hold outside strings, brackets aside (dropped before the depth is measured;
#: Python reads NaN and Infinity too, and the checks after it refuse them);
#: braces become brackets (a mismatch is the parser's to find, within the depth)
_OUTSIDE = str.maketrans({**dict.fromkeys("0123456789+-.eE,: \t\n\rtruefalsnNaIiy"), "{": "[", "}": "]"})


@lru_cache(maxsize=4)
def _nesting(max_depth: int) -> re.Pattern[str]:
    """A pattern for brackets that match and nest at most ``max_depth`` deep: linear time
    (possessive repeats, nothing to backtrack), and the regular-expression engine keeps its
    own stack on the heap, so it never overflows the interpreter's."""
    pattern = r"\[\]"
    for _ in range(max_depth - 1):
        pattern = r"\[(?:" + pattern + r")*+\]"
    return re.compile("(?:" + pattern + ")*+")


def json_nesting_error(text: str, max_depth: int = MAX_JSON_DEPTH) -> str | None:
    """None if ``text`` may go to the parser; else why not: ``json-depth`` (brackets nest
    deeper than ``max_depth`` or do not match) or ``json`` (a character JSON never has
    outside a string, so it is not JSON).

    Linear time in C loops only (regular expressions and ``str.translate``): strings are cut
    out, the rest reduced to its brackets, and those matched against :func:`_nesting`.
    """
    rest = _JSON_STRING.sub("", text).translate(_OUTSIDE)
    if rest.strip("[]"):
        return "json"
    return None if _nesting(max_depth).fullmatch(rest) else "json-depth"


def load_json(text: str | bytes, what: str = "file", max_depth: int = MAX_JSON_DEPTH) -> Any:
    """``json.loads`` for input from a link, a file, a peer or a person: the one bounded parser.

    The codec, the save-file reader, the question-pack reader, a duel record's options and
    the page (under Pyodide: the same Python) all parse through here, so none of them
    recurses deeper than ``max_depth``. Raises :class:`SaveCodeError` (a ValueError):
    ``json-depth`` for nesting, ``json`` for text that is not JSON.
    """
    if isinstance(text, bytes):
        try:
            text = text.decode("utf-8")
        except UnicodeDecodeError:
            raise SaveCodeError("encoding", f"The {what} is not UTF-8 text.") from None
    problem = json_nesting_error(text, max_depth)
    if problem == "json-depth":
        raise SaveCodeError(
            "json-depth",
            f"The {what} is not a saved game: its brackets nest deeper than {max_depth} levels "
            "or do not match.",
        )
    try:
        if problem:
            raise ValueError(problem)
        return json.loads(text)
    except (ValueError, RecursionError):
        raise SaveCodeError("json", f"The {what} does not hold a saved game (it is not valid JSON).") from None


@lru_cache(maxsize=32)
def max_steps(game_id: str) -> int:
    """The most steps a save of ``game_id`` may hold: its replay budget over the declared
    cost of its dearest step (see REPLAY_BUDGET_US), never over MAX_LOG_ENTRIES."""
    from conquest.catalog import CatalogError, load_data

    cost = DEFAULT_STEP_COST_US
    if isinstance(game_id, str) and _GAME_ID.fullmatch(game_id):
        try:
            declared = load_data(game_id).get("replay", {}).get("step_cost_us")
        except (CatalogError, AttributeError):
            declared = None
        if isinstance(declared, int) and not isinstance(declared, bool) and declared > 0:
            cost = declared
    return min(MAX_LOG_ENTRIES, REPLAY_BUDGET_US // cost)


def _too_many_steps(what: str, steps: int, game_id: str) -> str:
    return (
        f"The {what}'s log has {steps:,} steps; a game of {excerpt(game_id, 40)} here holds at most "
        f"{max_steps(game_id):,}, what this site replays within its time budget "
        f"({REPLAY_BUDGET_US / 1e6:g} s of computing)."
    )


def _key_path(path: str, key: str) -> str:
    """``path.key`` for messages, with an odd or long key quoted short."""
    return f"{path}.{key}" if _SIMPLE_KEY.fullmatch(key) else f"{path}[{excerpt(key, 20)}]"


def check_text(value: str, path: str, strict: bool) -> None:
    """Refuse text that is not Unicode, or holds control characters (``strict``: any, else all
    but tab, line feed and carriage return). Why: see the module docstring."""
    if _SURROGATE.search(value):
        raise SaveCodeError(
            "text",
            f"The text at {path} is not valid Unicode (it holds a lone surrogate such as \\ud800); "
            "it was refused.",
        )
    bad = (_CONTROL if strict else _CONTROL_BUT_LINES).search(value)
    if bad:
        raise SaveCodeError(
            "text",
            f"The text at {path} holds a control character ({excerpt(bad.group())}); "
            "names, titles and moves are plain text.",
        )


def _check_json_value(value: Any, path: str, depth: int = 0, name: bool = False) -> None:
    if depth > MAX_OPTIONS_DEPTH:
        raise SaveCodeError("schema", f"The game options are nested too deeply at {path}.")
    if value is None or isinstance(value, bool):
        return
    if isinstance(value, int):
        if not -MAX_OPTION_INT < value < MAX_OPTION_INT:
            digits = int(value.bit_length() * 0.30103) + 1
            raise SaveCodeError(
                "schema", f"The number at {path} is too large (about {digits:,} digits); no option needs it."
            )
        return
    if isinstance(value, str):
        if len(value) > 10_000:
            raise SaveCodeError("schema", f"The text at {path} is too long.")
        check_text(value, path, strict=name)
        return
    if isinstance(value, float):
        if value != value or value in (float("inf"), float("-inf")):
            raise SaveCodeError("schema", f"The number at {path} is not finite.")
        return
    if isinstance(value, list):
        if len(value) > 10_000:
            raise SaveCodeError("schema", f"The list at {path} is too long.")
        for i, item in enumerate(value):
            _check_json_value(item, f"{path}[{i}]", depth + 1, name)
        return
    if isinstance(value, dict):
        if len(value) > 1_000:
            raise SaveCodeError("schema", f"The object at {path} has too many keys.")
        for key, item in value.items():
            if not isinstance(key, str):
                raise SaveCodeError("schema", f"A key at {path} is not text.")
            check_text(key, f"a key at {path}", strict=True)
            _check_json_value(item, _key_path(path, key), depth + 1, key in NAME_KEYS)
        return
    raise SaveCodeError("schema", f"The value at {path} is not plain data.")


def validate_save(obj: Any, what: str = "save") -> dict[str, Any]:
    """Check the shape of a save; return a clean copy. The log itself is checked by replay."""
    if not isinstance(obj, Mapping):
        raise SaveCodeError("schema", f"The {what} does not hold a saved game (expected an object).")
    missing = [k for k in ("v", "game", "options", "log") if k not in obj]
    if missing:
        raise SaveCodeError("schema", f"The {what} is missing {', '.join(missing)}.")
    extra = sorted(set(obj) - {"v", "game", "options", "log", "undone", DRAWS_KEY, SLOT_KEY})
    if extra:
        raise SaveCodeError("schema", f"The {what} has fields this site does not know: {', '.join(excerpt(x, 30) for x in extra[:5])}.")
    version = obj["v"]
    if not isinstance(version, int) or isinstance(version, bool):
        raise SaveCodeError("schema", f"The {what}'s format version is not a number.")
    if version != SAVE_FORMAT:
        raise SaveCodeError(
            "version", f"The {what} uses save format {version}; this site reads format {SAVE_FORMAT}."
        )
    game = obj["game"]
    if not isinstance(game, str) or not _GAME_ID.fullmatch(game):
        raise SaveCodeError("schema", f"The {what} names no valid game.")
    options = obj["options"]
    if not isinstance(options, Mapping):
        raise SaveCodeError("schema", f"The {what}'s options are not an object.")
    _check_json_value(dict(options), "options")
    log = obj["log"]
    if not isinstance(log, list):
        raise SaveCodeError("schema", f"The {what}'s log is not a list.")
    if len(log) > max_steps(game):
        raise SaveCodeError("too-many-steps", _too_many_steps(what, len(log), game))
    # in bulk first (an 80,000-step log is checked in milliseconds); entry by entry only
    # to name the first bad step
    # (C loops: a generator over 80,000 entries took 30-250 ms under Pyodide, and a long
    # game's save is checked when it is opened, stored and linked; issue 20, item 10)
    if (set(map(type, log)) - {str} or (log and max(map(len, log)) > MAX_ACTION_CHARS)) or (
        _SURROGATE.search(joined := "".join(log)) or _CONTROL.search(joined)
    ):
        for i, entry in enumerate(log):
            if not isinstance(entry, str):
                raise SaveCodeError("schema", f"Step {i + 1} of the {what}'s log is not text.")
            if len(entry) > MAX_ACTION_CHARS:
                raise SaveCodeError("schema", f"Step {i + 1} of the {what}'s log is too long.")
            check_text(entry, f"step {i + 1} of the {what}'s log", strict=True)
    out: dict[str, Any] = {"v": version, "game": game, "options": dict(options), "log": list(log)}
    undone = _check_undone(obj.get("undone", []), what)
    if undone:
        out["undone"] = undone
    if DRAWS_KEY in obj:
        out[DRAWS_KEY] = _check_draws(obj[DRAWS_KEY], game, what)
    if SLOT_KEY in obj:
        out[SLOT_KEY] = check_slot_record(obj[SLOT_KEY], what)
    return out


def _check_draws(record: Any, game: str, what: str) -> dict[str, Any]:
    """The draw record's shape and bounds (issue 26; :class:`conquest.draws.DrawRecord`):
    whether the draws recompute is for Check the draws and ``verify`` to say, not a reason
    to refuse the save (it opens, and the check names the first bad draw)."""
    from conquest.draws import DrawError, DrawRecord

    try:
        return DrawRecord.from_json(record, max_draws=max_steps(game) + MAX_UNDONE * MAX_UNDONE_RESULTS).to_json()
    except DrawError as exc:
        raise SaveCodeError("draws", f"The {what}'s {exc.message[4:]}") from None


def check_slot_record(rec: Any, what: str) -> dict[str, Any]:
    """The ``slot`` record: name (text), created/updated (ms since the epoch), mode, rev."""
    if not isinstance(rec, Mapping):
        raise SaveCodeError("schema", f"The {what}'s slot record is not an object.")
    extra = sorted(set(rec) - {"name", "created", "updated", "mode", "rev"})
    if extra:
        raise SaveCodeError(
            "schema", f"The {what}'s slot record has fields this site does not know: {excerpt(', '.join(extra), 60)}."
        )
    out: dict[str, Any] = {}
    name = rec.get("name", "")
    if not isinstance(name, str) or len(name) > 10_000:
        raise SaveCodeError("schema", f"The {what}'s slot name is not short text.")
    check_text(name, f"the {what}'s slot name", strict=True)
    out["name"] = name
    for key in ("created", "updated"):
        value = rec.get(key, 0)
        if isinstance(value, bool) or not isinstance(value, (int, float)) or not 0 <= value < 1e15:
            raise SaveCodeError("schema", f"The {what}'s slot date {key!r} is not a time.")
        out[key] = float(value)
    mode = rec.get("mode", "host")
    if mode not in ("host", "view"):
        raise SaveCodeError("schema", f"The {what}'s slot mode is neither 'host' nor 'view'.")
    out["mode"] = mode
    rev = rec.get("rev", 0)
    if isinstance(rev, bool) or not isinstance(rev, int) or not 0 <= rev < MAX_SLOT_REV:
        raise SaveCodeError("schema", f"The {what}'s slot revision is not a count.")
    out["rev"] = rev
    return out


#: at most this many undos that took back a drawn result are kept, and this many results each
MAX_UNDONE, MAX_UNDONE_RESULTS = 1000, 50


def _check_undone(undone: Any, what: str) -> list[list[Any]]:
    """``[[step, [result, ...]], ...]``: chance results drawn, then taken back by an undo.

    Kept in the save so nobody can re-roll a spin or dice unseen (design.md): they show in
    the log, in view links and in ``verify``, and never replay.
    """
    if not isinstance(undone, list) or len(undone) > MAX_UNDONE:
        raise SaveCodeError("schema", f"The {what}'s taken-back results are not a list of at most {MAX_UNDONE:,}.")
    out = []
    for i, item in enumerate(undone):
        ok = (
            isinstance(item, list)
            and len(item) == 2
            and isinstance(item[0], int)
            and not isinstance(item[0], bool)
            and 0 <= item[0] <= MAX_LOG_ENTRIES
            and isinstance(item[1], list)
            and 1 <= len(item[1]) <= MAX_UNDONE_RESULTS
            and all(isinstance(r, str) and 0 < len(r) <= MAX_ACTION_CHARS for r in item[1])
        )
        if not ok:
            raise SaveCodeError("schema", f"Taken-back result {i + 1} of the {what} is not [step, [results]].")
        for r in item[1]:
            check_text(r, f"taken-back result {i + 1} of the {what}", strict=True)
        out.append([item[0], list(item[1])])
    return out


def make_fragment(save: Mapping[str, Any], mode: str = "h") -> str:
    """The URL fragment (without '#') for a save: ``h=<code>`` or ``v=<code>``."""
    if mode not in MODES:
        raise ValueError(f"unknown link mode {mode!r}")
    return f"{mode}={encode_save(save)}"


def link_fragment(text: str) -> str:
    """The fragment of a link: everything after its first ``#`` (the text itself if it has none).

    The one reading of a fragment, as a browser's ``location.hash`` has it (the URL standard:
    the fragment starts at the first ``#``; a later ``#`` belongs to it). The pages read
    ``location.hash`` through :func:`parse_fragment` and ``verify`` reads a pasted URL
    through :func:`decode_link`, both through here, so a URL with two ``#`` gets one verdict
    (issue 20, item 6: verify read after the last ``#``, the page after the first).
    """
    text = text.strip()
    return text.split("#", 1)[1] if "#" in text else text


def is_anchor(fragment: str) -> bool:
    """A fragment shaped like a place in the page (``#main``, from "Skip to content"): no
    ``=`` and only an id's characters. A page leaves it alone when its document has an
    element of that id (``frame.names_a_place``) instead of saying the link holds no game
    (issue 21, item 2); anything else is read as a link and checked."""
    frag = fragment[1:] if fragment.startswith("#") else fragment
    return 0 < len(frag) <= 100 and "=" not in frag and all(c.isascii() and (c.isalnum() or c in "-_") for c in frag)


def parse_fragment(fragment: str) -> tuple[str, dict[str, Any]]:
    """``(mode, save)`` from a URL fragment (with or without '#', or a whole URL: see
    :func:`link_fragment`); SaveCodeError if unusable."""
    if not isinstance(fragment, str):
        raise SaveCodeError("type", "A game link must be text.")
    frag = link_fragment(fragment).strip()
    mode, eq, code = frag.partition("=")
    if not eq or mode not in MODES:
        raise SaveCodeError(
            "not-a-link", "The part of the link after # is not a Conquest game (expected #h=… or #v=…)."
        )
    return MODES[mode], decode_save(code)


def decode_link(text: str) -> tuple[str, dict[str, Any]]:
    """``(mode, save)`` from anything a person pastes: a whole URL, a fragment (``#h=c1.…``,
    ``h=c1.…``) or a bare code (``c1.…``, opened as a host link). ``verify`` and Check read
    links here; anything with a ``#`` is read exactly as a page reads its address
    (:func:`parse_fragment`), so the two never disagree on a URL."""
    if not isinstance(text, str):
        raise SaveCodeError("type", "A game link must be text.")
    if "#" in text or text.strip()[:2] in ("h=", "v="):
        return parse_fragment(text)  # exactly what a page makes of it
    return MODES["h"], decode_save(text)

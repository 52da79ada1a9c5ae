"""Text from links and files, and what ``verify`` prints of it (issue 10, B2 and B6).

- The decoder refuses lone surrogates anywhere and control characters in names, titles,
  moves and keys (other option text may hold only tab and line breaks).
- ``verify`` writes no raw control character from its input to the terminal, quotes at
  most a short escaped excerpt of it, and answers a long argument without asking the file
  system for a file of that name (ENAMETOOLONG).
"""

from __future__ import annotations

import base64
import io
import json
import os
import subprocess
import sys
import zlib
from pathlib import Path
from typing import Any

import pytest

from conquest.__main__ import verify
from conquest.core import InvalidOptions
from conquest.games.metagame import GAME
from conquest.savecode import SaveCodeError, decode_save, encode_save, parse_save_json
from conquest.session import Match, ReplayError

ROOT = Path(__file__).resolve().parent.parent


def link_of(raw_json: str) -> str:
    """A link code made by hand from JSON text (so it may hold what encode_save refuses)."""
    comp = zlib.compressobj(9, zlib.DEFLATED, -15)
    packed = comp.compress(raw_json.encode("utf-8", "surrogatepass")) + comp.flush()
    return "c1." + base64.urlsafe_b64encode(packed).rstrip(b"=").decode()


def save_json(options: str = '{"players":2}', log: str = "[]") -> str:
    return '{"v":1,"game":"metagame","options":' + options + ',"log":' + log + "}"


def clean(text: str) -> bool:
    """Only printable characters and line breaks."""
    return all(ch == "\n" or ch.isprintable() for ch in text)


# ------------------------------------------------------------------------------------------
# lone surrogates and control characters
# ------------------------------------------------------------------------------------------
SURROGATES = [
    save_json('{"players":[{"name":"\\ud800"},{"name":"B"}]}'),
    save_json('{"title":"ok \\udfff"}'),
    save_json('{"\\ud83d":1}'),
    save_json('{"games":["\\ud800x","Go","Chess"]}'),
    save_json(log='["p","c1\\udc00"]'),
]


@pytest.mark.parametrize("raw", SURROGATES)
def test_lone_surrogates_are_refused(raw: str) -> None:
    assert "\\ud" in raw  # valid JSON: the surrogate is an escape
    for decode in (lambda: decode_save(link_of(raw)), lambda: parse_save_json(raw)):
        with pytest.raises(SaveCodeError) as info:
            decode()
        assert info.value.code == "text" and "lone surrogate" in info.value.message
        assert clean(info.value.message)


CONTROLS = [
    save_json('{"title":"a\\u001b[2Jb"}'),
    save_json('{"title":"two\\nlines"}'),
    save_json('{"players":[{"name":"Ann\\u0007"},{"name":"B"}]}'),
    save_json('{"players":[{"name":"Ann\\tLee"},{"name":"B"}]}'),
    save_json('{"players":[{"name":"\\u009bAnn"},{"name":"B"}]}'),
    save_json('{"players":[{"name":"A\\u007f"},{"name":"B"}]}'),
    save_json('{"map_data":{"territories":[{"id":"a","name":"x\\u0000"}]}}'),
    save_json('{"a\\u0001":1}'),
    save_json(log='["p","c1\\r"]'),
    save_json('{"games":["Chess\\u001b","Go","Hex"]}'),
]


@pytest.mark.parametrize("raw", CONTROLS)
def test_control_characters_in_names_titles_keys_and_moves_are_refused(raw: str) -> None:
    with pytest.raises(SaveCodeError) as info:
        parse_save_json(raw)
    assert info.value.code == "text" and "control character" in info.value.message
    assert clean(info.value.message)
    with pytest.raises(SaveCodeError):
        decode_save(link_of(raw))


def test_other_option_text_may_hold_line_breaks_only() -> None:
    ok = {"v": 1, "game": "x", "options": {"pack": {"question": "one\ntwo\tthree\r"}}, "log": []}
    assert decode_save(encode_save(ok)) == ok
    with pytest.raises(SaveCodeError):
        encode_save({**ok, "options": {"pack": {"question": "bell\x07"}}})


def test_the_engine_refuses_control_characters_in_names_given_directly() -> None:
    """Set-ups that do not come through the decoder (the page's form) are checked too."""
    for bad in ("Ann\x07", "\x1b[31mRed", "Bo\x85b\x9b", "A\ud800"):
        with pytest.raises(InvalidOptions) as info:
            Match(GAME, {"players": [bad, "B"]})
        assert clean(info.value.message)
        with pytest.raises(InvalidOptions):
            GAME.normalize_options({"games": [bad, "Go", "Chess"]})
    opts = GAME.normalize_options({"players": ["Ann\tLee\n", "B"]})
    assert opts["players"][0] == {"name": "Ann Lee"}  # whitespace collapses, as before


# ------------------------------------------------------------------------------------------
# what verify prints
# ------------------------------------------------------------------------------------------
def run(arg: str, verbose: bool = False) -> tuple[int, str]:
    out = io.StringIO()
    code = verify(arg, verbose=verbose, out=out)
    return code, out.getvalue()


HOSTILE_INPUTS = [
    "/tmp/\x1b[2J\x1b]0;pwned\x07.json",
    "\x1b[31mnot a link",
    "h=\x1b[2Jc1.AAAA",
    "c1.\u202eevil",
    save_json('{"title":"\\u001b[2J"}'),
    save_json('{"players":[{"name":"\\u202eAnn"},{"name":"B"}]}', '["k1","k\\u202e2"]'),
    save_json('{"players":2}', '["k1","k2","\\u001b[2J"]'),
    "a\x00b.json",
    "{\x1b",
]


@pytest.mark.parametrize("arg", HOSTILE_INPUTS)
def test_verify_never_writes_raw_control_characters(arg: str) -> None:
    for verbose in (False, True):
        code, text = run(arg, verbose)
        assert code in (0, 1, 2), text
        assert clean(text), repr(text)


def test_verify_escapes_names_it_prints() -> None:
    """A name with a right-to-left override passes the decoder (it is not a control
    character) but reaches the terminal escaped."""
    raw = save_json('{"players":[{"name":"\\u202eAnn"},{"name":"B"}]}', '["k1"]')
    code, text = run(raw, verbose=True)
    assert code == 0 and "\\u202eAnn" in text and "\u202e" not in text


def test_long_argument_is_not_asked_of_the_file_system() -> None:
    """``verify "H=<300 characters>"`` died with ENAMETOOLONG; now a plain refusal."""
    for arg in ("H=" + "A" * 300, "A" * 5000, "x/" * 3000, "Q" * 1_000_000):
        code, text = run(arg)
        assert code == 2 and text.startswith("error:"), text[:200]
        assert len(text) < 400


def test_cli_prints_no_traceback() -> None:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    for arg in ("H=" + "A" * 300, "c1." + "A" * 100_000, "/no/such/file.json"):
        proc = subprocess.run(
            [sys.executable, "-m", "conquest", "verify", arg],
            capture_output=True,
            text=True,
            env=env,
            cwd=ROOT,
            timeout=60,
        )
        assert proc.returncode == 2, proc.stderr
        assert "Traceback" not in proc.stdout + proc.stderr and len(proc.stdout) < 400


@pytest.mark.parametrize(
    ("options", "log"),
    [
        ({"players": 2}, ["k1", "c" + "9" * 1999]),  # a 2,000-character step
        ({"players": 2}, ["k1", "s" + ".".join(["1"] * 900)]),
        ({"players": 2, "games": ["x" * 61, "Go", "Chess"]}, []),
        ({"players": 2, "y" * 5000: 1}, []),
    ],
)
def test_refusals_quote_a_short_excerpt(options: dict[str, Any], log: list[str]) -> None:
    raw = json.dumps({"v": 1, "game": "metagame", "options": options, "log": log})
    code, text = run(raw, verbose=True)
    assert code in (1, 2) and len(text) < 600, text
    try:
        Match(GAME, options, log)
    except (ReplayError, InvalidOptions) as exc:
        assert len(exc.message) < 400, exc.message
    else:
        pytest.fail("expected a refusal")


def test_huge_files_are_not_read_whole(tmp_path: Path) -> None:
    path = tmp_path / "big.json"
    path.write_bytes(b"{" + b" " * 5_000_000 + b"}")
    code, text = run(str(path))
    assert code == 2 and len(text) < 300

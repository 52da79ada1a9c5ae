"""Every reader of JSON in the page goes through the one bounded parser (issue 20, item 2).

Why: under Pyodide a list nested a few thousand deep overflows the engine's stack, a fatal
error no ``except`` catches. The links, files and packs were bounded in round one; the offline
copy's own data, the preferences (seat locks, live-play settings, duel ties), another tab's
message and a peer's message were still read by ``json.loads``: data a person or a file can
change like any other. CPython shows the same fault as a RecursionError.
"""
from __future__ import annotations

import ast
import json
from pathlib import Path

import pytest
from duel_desk import TIES_KEY, load_ties
from live import LiveError, parse_message
from offline import read_copy_state
from page_host import FakeHost

from conquest.savecode import SaveCodeError

ROOT = Path(__file__).resolve().parent.parent
DEEP = "[" * 5000 + "]" * 5000


def test_no_page_module_parses_json_past_the_bounded_reader() -> None:
    """``json.loads`` appears in no module of ``site/py``: all read through ``savecode.load_json``."""
    calls = []
    for path in sorted((ROOT / "site" / "py").glob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Attribute) and node.attr in ("loads", "load") and getattr(node.value, "id", "") == "json":
                calls.append(f"{path.name}:{node.lineno}")
    assert calls == []


def test_offline_copy_data_nested_deep_is_refused_in_words() -> None:
    text = json.dumps({"v": 1, "game": "world", "module": "play_world", "copy": "ab"})[:-1] + ', "save": ' + DEEP + "}"
    with pytest.raises(SaveCodeError) as info:
        read_copy_state(text)
    assert "damaged" in info.value.message


def test_a_preference_nested_deep_is_read_as_empty() -> None:
    host = FakeHost()
    host.backend.set(TIES_KEY, DEEP)
    assert load_ties(host) == {}


def test_a_peer_message_nested_deep_is_refused_as_malformed() -> None:
    raw = '{"t": "step", "x": ' + "[" * 2000 + "]" * 2000 + "}"
    with pytest.raises(LiveError) as info:
        parse_message(raw)
    assert info.value.code == "live.malformed"

"""Nesting refused on the raw text before the JSON parser recurses (issue 20, items 2 and 3).

Why a test in CPython for a page's problem: under Pyodide the parser's recursion ends the
engine for good (tests/browser/test_hostile_page.py shows the page side); here the bound
itself: exact at the limit, blind to brackets inside strings, quick on 2 MB.
"""
from __future__ import annotations

import json

import pytest

from conquest.games.campaign import PackError, load_pack
from conquest.savecode import MAX_NESTING, SaveCodeError, check_nesting, parse_fragment, parse_save_json
from tools.hostile import nesting_fragment


def nested(depth: int) -> str:
    return "[" * depth + "]" * depth


def test_the_limit_is_exact_and_strings_do_not_count() -> None:
    check_nesting(nested(MAX_NESTING), "file")
    check_nesting(json.dumps(["[" * 100, {"a": "{{{{" * 50}]), "file")
    check_nesting(json.dumps(["\\\"[[[[[[[[[[[[[[[[[[[[[[[["]), "file")
    with pytest.raises(SaveCodeError) as err:
        check_nesting(nested(MAX_NESTING + 1), "file")
    assert err.value.code == "nesting"
    with pytest.raises(SaveCodeError):
        check_nesting("[" + '{"a":' * MAX_NESTING + "1" + "}" * MAX_NESTING + "]", "file")


@pytest.mark.parametrize("game_id", ["world", "campaign", "metagame", "reign", "conquests"])
def test_a_102_character_nesting_link_is_refused_as_such(game_id: str) -> None:
    frag = nesting_fragment(game_id)
    assert len(frag) < 110
    with pytest.raises(SaveCodeError) as err:
        parse_fragment(frag)
    assert err.value.code == "nesting" and len(err.value.message) < 200


def test_a_pack_nested_100000_deep_is_refused_and_files_too() -> None:
    with pytest.raises(PackError) as err:
        load_pack(nested(100_000))
    assert "nested more than" in err.value.problems[0]
    with pytest.raises(SaveCodeError):
        parse_save_json(nested(1_000_000), what="file")


def test_real_saves_and_deep_but_flat_text_pass() -> None:
    check_nesting("[]" * 1_000_000, "file")  # 2 MB, one level: fine (the parser decides the rest)
    check_nesting(nested(MAX_NESTING) * 50_000, "file")
    from tools.hostile import long_match

    save = long_match("metagame", 20).save().to_json()
    assert parse_save_json(json.dumps(save))["log"] == save["log"]

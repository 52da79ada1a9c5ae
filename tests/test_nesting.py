"""Nesting refused on the raw text before the JSON parser recurses (issue 20, items 2 and 3).

Why a test in CPython for a page's problem: under Pyodide the parser's recursion ends the
engine for good (tests/browser/test_hostile_page.py shows the page side); here the bound
itself: exact at the limit, blind to brackets inside strings, quick on 2 MB.
"""
from __future__ import annotations

import json

import pytest

from conquest.games.campaign import PackError, load_pack
from conquest.savecode import MAX_JSON_DEPTH, SaveCodeError, load_json, parse_fragment, parse_save_json
from tools.hostile import nesting_fragment


def nested(depth: int) -> str:
    return "[" * depth + "]" * depth


def test_the_limit_is_exact_and_strings_do_not_count() -> None:
    load_json(nested(MAX_JSON_DEPTH), "file")
    load_json(json.dumps(["[" * 100, {"a": "{{{{" * 50}]), "file")
    load_json(json.dumps(["\\\"[[[[[[[[[[[[[[[[[[[[[[[["]), "file")
    with pytest.raises(SaveCodeError) as err:
        load_json(nested(MAX_JSON_DEPTH + 1), "file")
    assert err.value.code == "json-depth"
    with pytest.raises(SaveCodeError):
        load_json("[" + '{"a":' * MAX_JSON_DEPTH + "1" + "}" * MAX_JSON_DEPTH + "]", "file")


@pytest.mark.parametrize("game_id", ["world", "campaign", "metagame", "reign", "conquests"])
def test_a_102_character_nesting_link_is_refused_as_such(game_id: str) -> None:
    frag = nesting_fragment(game_id)
    assert len(frag) < 110
    with pytest.raises(SaveCodeError) as err:
        parse_fragment(frag)
    assert err.value.code == "json-depth" and len(err.value.message) < 200


def test_a_pack_nested_100000_deep_is_refused_and_files_too() -> None:
    with pytest.raises(PackError) as err:
        load_pack(nested(100_000))
    assert "nest too deeply" in err.value.problems[0]
    with pytest.raises(SaveCodeError):
        parse_save_json(nested(1_000_000), what="file")


def test_real_saves_and_deep_but_flat_text_pass() -> None:
    assert load_json("[" + ",".join(["[]"] * 500_000) + "]", "file")[0] == []  # 1 MB, two levels: fine
    assert len(load_json("[" + ",".join([nested(MAX_JSON_DEPTH - 1)] * 20_000) + "]", "file")) == 20_000
    from tools.hostile import long_match

    save = long_match("metagame", 20).save().to_json()
    assert parse_save_json(json.dumps(save))["log"] == save["log"]

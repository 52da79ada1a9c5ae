"""The share-link codec: round trips, and a decoder that survives anything (design.md)."""
from __future__ import annotations

import base64
import json
import random
import zlib

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from conquest.savecode import (
    CODE_PREFIX,
    MAX_JSON_BYTES,
    SaveCodeError,
    decode_save,
    encode_save,
    make_fragment,
    parse_fragment,
    parse_save_json,
)

#: text a save may hold: no lone surrogates and no control characters (the decoder refuses
#: both in names, titles and moves; see test_hardening_text.py)
plain_text = st.characters(blacklist_categories=("Cs", "Cc"))
json_scalars = st.none() | st.booleans() | st.integers(-(2**53), 2**53) | st.text(plain_text, max_size=30)
json_values = st.recursive(
    json_scalars,
    lambda inner: st.lists(inner, max_size=5) | st.dictionaries(st.text(plain_text, max_size=10), inner, max_size=5),
    max_leaves=20,
)
saves = st.builds(
    lambda game, options, log: {"v": 1, "game": game, "options": options, "log": log},
    st.from_regex(r"[a-z][a-z0-9_-]{0,15}", fullmatch=True),
    st.dictionaries(st.text(plain_text, max_size=12), json_values, max_size=6),
    st.lists(st.text(plain_text, max_size=40), max_size=60),
)


def raw_code(payload: bytes, prefix: str = CODE_PREFIX) -> str:
    comp = zlib.compressobj(9, zlib.DEFLATED, -15)
    packed = comp.compress(payload) + comp.flush()
    return prefix + base64.urlsafe_b64encode(packed).rstrip(b"=").decode()


@given(saves)
@settings(max_examples=300)
def test_round_trip(save: dict) -> None:
    code = encode_save(save)
    assert code.startswith(CODE_PREFIX)
    assert set(code[len(CODE_PREFIX) :]) <= set("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_")
    assert decode_save(code) == save


@given(saves, st.sampled_from(["h", "v"]))
@settings(max_examples=100)
def test_fragment_round_trip(save: dict, mode: str) -> None:
    frag = make_fragment(save, mode)
    assert parse_fragment("#" + frag) == ({"h": "host", "v": "view"}[mode], save)


@given(st.text(max_size=300))
@settings(max_examples=500)
def test_random_text_never_crashes(text: str) -> None:
    try:
        decode_save(text)
    except SaveCodeError as exc:
        assert exc.code and exc.message
    try:
        parse_fragment(text)
    except SaveCodeError as exc:
        assert exc.code and exc.message


@given(saves, st.data())
@settings(max_examples=300)
def test_mutated_links_fail_cleanly(save: dict, data: st.DataObject) -> None:
    code = encode_save(save)
    body = list(code)
    for _ in range(data.draw(st.integers(1, 4))):
        op = data.draw(st.sampled_from(["flip", "cut", "insert", "delete"]))
        i = data.draw(st.integers(0, max(0, len(body) - 1)))
        if op == "flip" and body:
            body[i] = data.draw(st.sampled_from(list("AZaz09-_=+/.%<>")))
        elif op == "cut":
            body = body[:i]
        elif op == "insert":
            body.insert(i, data.draw(st.characters()))
        elif body:
            del body[i]
    try:
        result = decode_save("".join(body))
    except SaveCodeError as exc:
        assert exc.message
    else:  # a mutation that still decodes must still be a valid save
        assert set(result) == {"v", "game", "options", "log"}


@pytest.mark.parametrize(
    ("code", "expected"),
    [
        ("", "empty"),
        ("hello", "not-a-link"),
        ("c9.AAAA", "version"),
        ("c1.!!!!", "base64"),
        ("c1.A", "base64"),
        ("c1." + base64.urlsafe_b64encode(b"not deflate at all").decode().rstrip("="), "compression"),
        ("x" * 300_000, "too-long"),
    ],
)
def test_specific_failures(code: str, expected: str) -> None:
    with pytest.raises(SaveCodeError) as info:
        decode_save(code)
    assert info.value.code == expected


def test_zip_bomb_is_capped() -> None:
    code = raw_code(b"[" + b"0," * (MAX_JSON_BYTES) + b"0]")
    assert len(code) < 10_000  # tiny link, huge payload
    with pytest.raises(SaveCodeError) as info:
        decode_save(code)
    assert info.value.code == "too-large"


def test_truncated_and_trailing() -> None:
    good = encode_save({"v": 1, "game": "x", "options": {}, "log": ["a"] * 50})
    packed = base64.urlsafe_b64decode(good[3:] + "=" * (-len(good[3:]) % 4))
    cut = CODE_PREFIX + base64.urlsafe_b64encode(packed[:-3]).decode().rstrip("=")
    with pytest.raises(SaveCodeError) as info:
        decode_save(cut)
    assert info.value.code in {"truncated", "compression"}
    extra = CODE_PREFIX + base64.urlsafe_b64encode(packed + b"junk").decode().rstrip("=")
    with pytest.raises(SaveCodeError) as info:
        decode_save(extra)
    assert info.value.code == "trailing"


@pytest.mark.parametrize(
    "obj",
    [
        [],
        "save",
        {"v": 1, "game": "x", "options": {}},
        {"v": 2, "game": "x", "options": {}, "log": []},
        {"v": True, "game": "x", "options": {}, "log": []},
        {"v": 1, "game": "<img src=x>", "options": {}, "log": []},
        {"v": 1, "game": "x", "options": [], "log": []},
        {"v": 1, "game": "x", "options": {}, "log": 5},
        {"v": 1, "game": "x", "options": {}, "log": [1, 2]},
        {"v": 1, "game": "x", "options": {}, "log": [], "extra": 1},
        {"v": 1, "game": "x", "options": {"a": float("nan")}, "log": []},
    ],
)
def test_schema_errors(obj: object) -> None:
    with pytest.raises(SaveCodeError) as info:
        decode_save(raw_code(json.dumps(obj).encode()))
    assert info.value.code in {"schema", "version", "json"}


def test_deep_nesting_refused() -> None:
    deep = {"v": 1, "game": "x", "options": {"a": json.loads("[" * 500 + "]" * 500)}, "log": []}
    with pytest.raises(SaveCodeError):
        decode_save(raw_code(json.dumps(deep).encode()))
    with pytest.raises(SaveCodeError):
        parse_save_json("[" * 100_000 + "]" * 100_000)


def test_hostile_text_is_kept_as_data() -> None:
    hostile = "<img src=x onerror=alert(1)>"
    save = {"v": 1, "game": "x", "options": {"title": hostile}, "log": [hostile]}
    assert decode_save(encode_save(save)) == save


def test_random_bytes_fuzz() -> None:
    rng = random.Random(7)
    for _ in range(2_000):
        blob = bytes(rng.randrange(256) for _ in range(rng.randrange(1, 80)))
        code = CODE_PREFIX + base64.urlsafe_b64encode(blob).decode().rstrip("=")
        try:
            decode_save(code)
        except SaveCodeError:
            pass


def test_links_join_the_log_and_files_do_not() -> None:
    save = {"v": 1, "game": "x", "options": {}, "log": ["a1", "b2 c", "d;e"]}
    assert decode_save(encode_save(save)) == save  # an entry with ';' keeps the list form
    plain = {"v": 1, "game": "x", "options": {}, "log": ["a1", "b2 c"]}
    code = encode_save(plain)
    packed = base64.urlsafe_b64decode(code[3:] + "=" * (-len(code[3:]) % 4))
    assert json.loads(zlib.decompress(packed, -15))["log"] == "a1;b2 c"
    assert decode_save(code) == plain
    with pytest.raises(SaveCodeError):  # a file always has the list form
        parse_save_json(json.dumps({**plain, "log": "a1;b2 c"}))


def test_a_long_save_compressed_in_slices_gives_the_same_code_as_in_one_call() -> None:
    """Issue 20, item 10: a long game's link is made in slices (``SaveEncoder``), the page
    answering between them. The slices end by a clock; the code never depends on where:
    every slicing gives the bytes one ``compress`` call over the whole JSON gives, and the
    code decodes to the save."""
    from conquest.savecode import SaveEncoder
    from tools.hostile import long_match

    save = long_match("world", 6000).save().to_json()
    log = save["log"]
    whole = json.dumps({**save, "log": ";".join(log)}, separators=(",", ":"), ensure_ascii=False,
                       sort_keys=True).encode()
    comp = zlib.compressobj(9, zlib.DEFLATED, -15, 9)
    expected = CODE_PREFIX + base64.urlsafe_b64encode(comp.compress(whole) + comp.flush()).rstrip(b"=").decode()
    assert encode_save(save) == expected
    ticks = [0.0]

    def clock() -> float:  # each look at the clock is a millisecond later
        ticks[0] += 1.0
        return ticks[0]

    assert len(whole) > 3 * 7777
    for chunk, budget in ((SaveEncoder.CHUNK, 0.0), (1000, 0.0), (4096, 3.0), (7777, 1.0), (len(whole), 0.0)):
        enc = SaveEncoder(save)
        enc.CHUNK = chunk
        slices, code = 0, None
        while code is None:
            slices += 1
            assert slices < 10_000
            code = enc.advance(budget, clock)
        assert code == expected
        assert slices == (-(-len(whole) // chunk) if budget == 0.0 else -(-len(whole) // (chunk * int(budget))))
        assert enc.advance(0.0, clock) == code and enc.progress == 1.0
    assert decode_save(expected)["log"] == log

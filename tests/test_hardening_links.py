"""Hostile links, packs and names, round two (issue 20), the CPython side: options checked for
type and range before anything is built (items 1, 5), nesting refused before parsing (item 2),
Short Campaign's replay linear (item 4), one fragment reader (item 6), every refusal quoting
input short (item 7), and a long legal game always savable (item 11).

Tests assert refusals, verdicts and memory (tracemalloc peaks), never wall time; the times
are printed (``pytest -s``) and measured by ``bench/fuzz_links.py``. Every fuzzed case is
seeded and the counts are small: a few seconds per test.
"""

from __future__ import annotations

import base64
import functools
import io
import json
import random
import re
import sys
import time
import tracemalloc
import zlib
from collections.abc import Callable
from typing import Any

import pytest

from conquest.__main__ import verify
from conquest.catalog import load_data
from conquest.core import ConquestError, InvalidOptions, excerpt, games, get_game
from conquest.games.campaign import PackError, load_pack
from conquest.games.campaign.questions import GUESS
from conquest.games.world.rules import RULES
from conquest.rng import Rng
from conquest.savecode import (
    MAX_JSON_DEPTH,
    MAX_LOG_ENTRIES,
    REPLAY_BUDGET_US,
    SaveCodeError,
    decode_link,
    decode_save,
    encode_save,
    json_nesting_error,
    load_json,
    make_fragment,
    max_steps,
    parse_fragment,
    parse_save_json,
)
from conquest.session import Match
from conquest.store import MemoryBackend, SlotStore

#: the budget of the worst accepted save (issue 20, item 4): tracemalloc peak
MEMORY_BUDGET = 200_000_000
#: a refusal "at once" allocates next to nothing
REFUSAL_MEMORY = 5_000_000


def measure(label: str, work: Callable[[], Any]) -> tuple[Any, float, int]:
    """(result or the exception raised, CPU seconds, tracemalloc peak); prints the figures."""
    tracemalloc.start()
    cpu = time.process_time()
    try:
        result: Any = work()
    except Exception as exc:  # noqa: BLE001 - the caller asserts on what was raised
        result = exc
    cpu = time.process_time() - cpu
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    print(f"{label}: {cpu:.3f} s CPU (traced), peak {peak / 1e6:.1f} MB")
    return result, cpu, peak


def link_of(obj: dict[str, Any]) -> str:
    """A link code made by hand (any JSON, valid save or not), as an attacker would."""
    raw = json.dumps(obj, separators=(",", ":")).encode() if not isinstance(obj, (str, bytes)) else obj
    raw = raw.encode() if isinstance(raw, str) else raw
    comp = zlib.compressobj(9, zlib.DEFLATED, -15)
    return "c1." + base64.urlsafe_b64encode(comp.compress(raw) + comp.flush()).decode().rstrip("=")


def run_verify(text: str) -> tuple[int, str]:
    out = io.StringIO()
    return verify(text, out=out), out.getvalue()


# ------------------------------------------------------------------------------------------
# items 1 and 5: options checked for type and range in one place, before anything is built
# ------------------------------------------------------------------------------------------
@pytest.mark.parametrize("players", [1_000_000_000, 10**6, -1, 7])
def test_world_refuses_an_absurd_player_count_at_once(players: int) -> None:
    """Was: the seat list built first (930 MB and a MemoryError for 10**9, 254 MB for 10**6)."""
    game = get_game("world")
    err, _, peak = measure(f"World players={players}", lambda: Match(game, {"players": players}))
    assert isinstance(err, InvalidOptions) and err.code == "options.players", err
    assert "W2" in err.message and "3 to 6" in err.message and len(err.message) < 200
    assert peak < REFUSAL_MEMORY
    link = "#h=" + link_of({"v": 1, "game": "world", "options": {"players": players}, "log": []})
    code, said = run_verify(link)
    assert code == 1 and "3 to 6" in said, said
    assert len(link) < 120  # the 84-character link


def test_every_game_declares_an_options_schema_its_defaults_fit() -> None:
    for gid, game in games().items():
        schema = game.options_schema
        assert schema is not None and schema.keys, gid
        normal = game.default_options()
        assert game.normalize_options(normal) == normal  # the schema accepts what the game writes
        cost = load_data(gid)["replay"]["step_cost_us"]  # item 11: its replay cost sets its cap
        assert isinstance(cost, int) and max_steps(gid) == min(MAX_LOG_ENTRIES, REPLAY_BUDGET_US // cost)


def test_metagame_map_data_of_the_wrong_shape_is_refused_clearly() -> None:
    """Item 5: ``{"map_data": {"territories": 1}}`` gave a TypeError from board.py."""
    game = get_game("metagame")
    for bad in ({"territories": 1}, {"territories": [1]}, {"edges": [[1, 2]]}, {"territories": [{"label": "x"}]}):
        err, _, peak = measure(f"map_data {bad}", lambda bad=bad: Match(game, {"map_data": bad}))
        assert isinstance(err, InvalidOptions) and err.code == "options.map_data", err
        assert err.message.startswith("M1:") and len(err.message) < 200 and peak < REFUSAL_MEMORY
    code, said = run_verify(json.dumps({"v": 1, "game": "metagame", "options": {"map_data": {"territories": 1}}, "log": []}))
    assert code == 1 and "map_data.territories" in said, said


#: values of every shape, for every option of every game
_WRONG = [None, True, -1, 10**6, 10**30, 2.5, "", "x" * 5000, [], [1] * 3, ["y" * 3000] * 3, [[[]]], {}, {"k": 1},
          [{"name": 5}] * 3, [{"name": "a", "colour": 7}] * 3, [{"name": "n" * 3000}] * 2, {"territories": 1},
          {"territories": [{"id": 1}]}, [None] * 6, list(range(10_000))]


@pytest.mark.parametrize("game_id", sorted(games()))
def test_options_of_any_shape_are_refused_clearly_or_accepted(game_id: str) -> None:
    """Every option of every game, given values of every shape: an InvalidOptions with a short
    message, or a game; never another exception, never a large allocation."""
    game = get_game(game_id)
    keys = [*game.options_schema.keys, "z" * 9000]
    refused = 0
    for key in keys:
        for value in _WRONG:
            err, _, peak = measure(f"{game_id} {key[:20]}={str(value)[:20]}", lambda k=key, v=value: Match(game, {k: v}))
            assert isinstance(err, (Match, InvalidOptions)), (key, value, err)
            if isinstance(err, InvalidOptions):
                refused += 1
                assert len(err.message) < 400, err.message
            assert peak < 4 * REFUSAL_MEMORY, (key, value)
    assert refused > len(keys) * len(_WRONG) // 2


# ------------------------------------------------------------------------------------------
# item 2: nesting refused on the raw text, before the parser recurses
# ------------------------------------------------------------------------------------------
def _shallow_stack(work: Callable[[], Any]) -> Any:
    """Run ``work`` with little room on the stack, as under Pyodide: nothing in it may recurse
    more than a few dozen levels (the C parser counts against the recursion limit)."""
    frames, frame = 0, sys._getframe()
    while frame is not None:
        frames, frame = frames + 1, frame.f_back
    old = sys.getrecursionlimit()
    sys.setrecursionlimit(frames + MAX_JSON_DEPTH + 60)
    try:
        return work()
    except Exception as exc:  # noqa: BLE001 - the caller asserts on it
        return exc
    finally:
        sys.setrecursionlimit(old)


def test_the_nesting_link_is_refused_before_parsing() -> None:
    """The issue's 102-character link: a log nested 4,700 lists deep (fatal under Pyodide)."""
    text = '{"v":1,"game":"world","options":{},"log":' + "[" * 4700 + "]" * 4700 + "}"
    code = link_of(text)
    assert len("#h=" + code) < 110
    err = _shallow_stack(lambda: parse_fragment("#h=" + code))
    assert isinstance(err, SaveCodeError) and err.code == "json-depth", err
    assert f"{MAX_JSON_DEPTH} levels" in err.message
    for reader in (lambda: parse_save_json(text), lambda: load_json(text.encode())):  # a save file, Check
        err = _shallow_stack(reader)
        assert isinstance(err, SaveCodeError) and err.code == "json-depth", err
    assert run_verify(text)[0] == 2 and run_verify("#h=" + code)[0] == 2
    unclosed = "[" * 100_000  # never closed: the parser would recurse before finding out
    assert isinstance(_shallow_stack(lambda: parse_save_json(unclosed)), SaveCodeError)


def test_a_duel_record_nested_991_deep_is_a_refused_step_not_a_traceback() -> None:
    """Was: ``verify`` exit 3 (RecursionError) on a duel step followed by lists 991 deep."""
    step = "dd:reign:a:1:" + "[" * 991 + "]" * 991 + ":"
    code, said = run_verify(json.dumps({"v": 1, "game": "metagame", "options": {"players": 2}, "log": [step]}))
    assert code == 1 and "REFUSED step 1" in said and "nest" in said, said
    err = _shallow_stack(lambda: get_game("metagame").parse_action(step))
    assert isinstance(err, ConquestError) and err.code == "action.duel-options"


def test_a_question_pack_nested_100000_deep_is_refused_and_a_good_one_still_loads() -> None:
    deep = '{"title":"x","questions":' + "[" * 100_000 + "]" * 100_000 + "}"
    err = _shallow_stack(lambda: load_pack(deep))
    assert isinstance(err, PackError) and "nest" in err.message, err
    good = {"title": "Small", "questions": [
        {"type": "guess", "category": "c", "text": f"How many {i}?", "answer": i + 1, "min": 0, "max": 100}
        for i in range(12)
    ]}
    assert isinstance(_shallow_stack(lambda: load_pack(json.dumps(good))), dict)


@pytest.mark.parametrize(
    ("text", "verdict"),
    [
        ("[]", None),
        ('{"a":[1,{"b":"[[[[{{"}],"c":"\\"]]"}', None),
        ("[" * MAX_JSON_DEPTH + "]" * MAX_JSON_DEPTH, None),
        ("[" * (MAX_JSON_DEPTH + 1) + "]" * (MAX_JSON_DEPTH + 1), "json-depth"),
        ('{"a":' * 40 + "1" + "}" * 40, "json-depth"),
        ("[[[]", "json-depth"),
        ("]", "json-depth"),
        ('{"x": NaN, "y": -Infinity, "z": [true, false, null, 1.5e-3]}', None),
        ("[x]", "json"),
        ('["unterminated]', "json"),
    ],
)
def test_json_nesting_check(text: str, verdict: str | None) -> None:
    assert json_nesting_error(text) == verdict


# ------------------------------------------------------------------------------------------
# item 4 (and 11): each game's worst accepted log opens within the memory budget
# ------------------------------------------------------------------------------------------
def campaign_unanswered(steps: int) -> tuple[dict[str, Any], list[str]]:
    """Short Campaign's dearest log: question after question that nobody answers (S8: a legal
    game where everyone walks away). The draws are the driver's own first candidates."""
    game = get_game("campaign")
    m = Match(game, {"seed": 1}, rng=Rng(1))
    m.resolve_chance()  # the Bases, then the first expansion question
    log = list(m.log[:-1])
    pool = game.setup(m.state).pool
    eligible = list(pool.eligible[GUESS])
    order = eligible + [q for q in pool.fallback[GUESS] if q not in set(eligible)]
    i = 0
    while len(log) < steps:
        qid = order[i] if i < len(order) else eligible[(i - len(order)) % len(eligible)]
        log += ["Q" + qid, "a-,-,-"]
        i += 1
    return dict(m.options), log[:steps]


def world_long(steps: int, seed: int = 5) -> tuple[dict[str, Any], list[str]]:
    """A legal 6-seat World Conquest game of ``steps`` steps, built fast: each turn places its
    reinforcements on one territory, rolls one die against a neighbour holding 2 or more troops
    (so never a conquest) and ends the turn."""
    game = get_game("world")
    rng = Rng(seed)
    m = Match(game, {"players": 6, "seed": seed}, rng=rng)
    m.resolve_chance()
    while m.state.phase in ("claim", "setup"):
        acts = game.legal_actions(m.state)
        m.play(acts[rng.below(len(acts))])
    attacked = False
    while len(m.log) < steps:
        st = m.state
        me = st.current
        mine = [t for t, o in enumerate(st.owner) if o == me]
        if st.phase == "reinforce":
            front = [t for t in mine if any(st.owner[d] != me and st.troops[d] >= 2 for d in RULES.adj[t])]
            t = front[rng.below(len(front))] if front else mine[0]
            m.play(f"p{t}x{st.pool}" if st.pool > 1 else f"p{t}")
            attacked = False
            continue
        if st.phase == "attack" and not attacked:
            attacked = True
            pairs = [(t, d) for t in mine if st.troops[t] >= 2 for d in RULES.adj[t] if st.owner[d] != me and st.troops[d] >= 2]
            if pairs:
                t, d = pairs[0]
                m.play(f"a{t}-{d}x1")
                continue
        m.play("e")
    return dict(m.options), list(m.log[:steps])


def test_short_campaign_replay_is_linear_in_the_steps() -> None:
    """Was: 20,000 unanswered steps took 10.2 s and 418 MB (a tuple copied at every draw):
    memory four times the steps is four times the peak, not sixteen; at the game's cap it
    stays far within the budget (the time: bench/fuzz_links.py)."""
    game = get_game("campaign")
    options, log = campaign_unanswered(12_000)
    small, _, small_peak = measure("campaign 3,000 unanswered steps", lambda: Match(game, options, log[:3000]))
    big, _, peak = measure("campaign 12,000 unanswered steps", lambda: Match(game, options, log))
    assert isinstance(small, Match) and isinstance(big, Match) and len(big.log) == len(log)
    assert peak < 6 * small_peak  # linear: 4 times the steps (a quadratic cost is 16 times)
    assert peak / len(log) * max_steps("campaign") < MEMORY_BUDGET // 4
    assert big.state.used == tuple(t[1:] for t in log if t.startswith("Q"))


@functools.cache
def _world_25000() -> tuple[dict[str, Any], tuple[str, ...]]:
    options, log = world_long(25_000)
    return options, tuple(log)


def test_a_world_game_past_20000_steps_is_savable_linkable_and_exportable() -> None:
    """Item 11: was refused with ``too-many-steps`` beyond 20,000 steps."""
    game = get_game("world")
    options, steps = _world_25000()
    log = list(steps)
    save = {"v": 1, "game": "world", "options": options, "log": log}
    code = encode_save(save)
    assert decode_save(code)["log"] == log
    mode, again = decode_link(f"https://example.org/play/world/#{make_fragment(save, 'v')}")
    assert mode == "view" and again["log"] == log
    store = SlotStore(MemoryBackend())
    slot = store.import_text(json.dumps(save), "long game", now=1)
    _, text = store.export(slot.id)
    assert parse_save_json(text)["log"] == log
    match, _, peak = measure(f"World, {len(log):,} steps ({len(code):,}-character link)", lambda: Match(game, options, log))
    assert isinstance(match, Match) and game.outcome(match.state) is None
    cap = max_steps("world")
    assert cap > 20_000 and peak / len(log) * cap < MEMORY_BUDGET  # its worst at the cap: bench/fuzz_links.py


def test_each_game_is_capped_by_its_replay_cost_with_a_clear_message() -> None:
    for gid in games():
        cap = max_steps(gid)
        assert 10_000 <= cap <= REPLAY_BUDGET_US
        over = {"v": 1, "game": gid, "options": {}, "log": ";".join(["e"] * (cap + 1))}
        err, _, peak = measure(f"{gid}, one step over its cap of {cap:,}", lambda over=over: decode_save(link_of(over)))
        assert isinstance(err, SaveCodeError) and err.code == "too-many-steps" and f"{cap:,}" in err.message
        assert "budget" in err.message and len(err.message) < 300 and peak < 3 * REFUSAL_MEMORY


# ------------------------------------------------------------------------------------------
# item 6: one fragment reader for the page and verify
# ------------------------------------------------------------------------------------------
def page_opens(url: str) -> tuple[str, Any]:
    """What a game page does with ``url``: the browser's ``location.hash`` (from the first
    ``#``) through :func:`parse_fragment` (site/py/browser_open.py Opener.open_fragment)."""
    fragment = "#" + url.split("#", 1)[1] if "#" in url else ""
    try:
        return "ok", parse_fragment(fragment)[1]
    except SaveCodeError as exc:
        return "refused", exc.code


def verify_opens(url: str) -> tuple[str, Any]:
    try:
        return "ok", decode_link(url)[1]
    except SaveCodeError as exc:
        return "refused", exc.code


def test_the_page_and_verify_read_the_same_fragment() -> None:
    """Was: 922 disagreements in 100,000 fuzzed inputs (the page read after the first #,
    verify after the last)."""
    rnd = random.Random(20)
    good = make_fragment({"v": 1, "game": "world", "options": {"players": 3, "seed": 1}, "log": []})
    other = make_fragment({"v": 1, "game": "reign", "options": {"seed": 2}, "log": []})
    parts = [good, other, "", "#", "x", "h=", "v=c1.", "?a=1", good[:20], " "]
    disagree = 0
    for _ in range(2000):
        url = "https://example.org/play/world/" + "".join(
            rnd.choice(["#", "#", ""]) + rnd.choice(parts) for _ in range(rnd.randint(1, 4))
        )
        page, cli = page_opens(url), verify_opens(url)
        if "#" in url and page != cli:
            disagree += 1
    assert disagree == 0
    both = f"https://example.org/#{good}#{other}"
    assert page_opens(both) == verify_opens(both) and page_opens(both)[0] == "refused"
    assert run_verify(both)[0] == 2


# ------------------------------------------------------------------------------------------
# item 7: every refusal quotes input through the one excerpt helper
# ------------------------------------------------------------------------------------------
_PREFIXES = ["", "a", "p", "Q", "d", "da:", "dd:reign:a:1:", "f", "b", "B", "O", "D", "R", "t", "x", "!o", "!",
             "w", "r0 ", "s", "i", "c", "g", "m", "e", "C", "b2", "a1-", "p1x", "Z"]
_FILLERS = ["~", "\u202e", "é", "\x07"]


def _longest_quoted_run(message: str, filler: str) -> int:
    """The longest run of ``filler`` in a message, as written or escaped (how much was quoted)."""
    escaped = repr(filler)[1:-1]
    runs = re.findall(f"(?:{re.escape(filler)}|{re.escape(escaped)})+", message)
    return max((r.count(filler) + r.count(escaped) if escaped != filler else len(r) for r in runs), default=0)


@pytest.mark.parametrize("game_id", sorted(games()))
def test_refusals_quote_long_input_short(game_id: str) -> None:
    """Was: 73 refusals quoting raw input at length (whole 2,000-character steps, a
    9,000-character option key). Long fuzzed texts through the game's parser and engine
    (live states along a seeded playout), its options and set-up: no refusal quotes more
    than the excerpt's 60 characters of them."""
    game = get_game(game_id)
    rnd = random.Random(7)
    m = Match(game, {**game.default_options(), "seed": 1}, rng=Rng(1))
    m.resolve_chance()
    states = [m.state]
    for _ in range(40):
        acts = game.legal_actions(m.state)
        if game.outcome(m.state) is not None or not acts:
            break
        m.play(acts[rnd.randrange(len(acts))])
        states.append(m.state)
    checked = 0
    for _ in range(300):
        filler = rnd.choice(_FILLERS)
        text = (rnd.choice(_PREFIXES) + filler * 2000)[: rnd.choice([100, 500, 1999])]
        try:
            game.apply(rnd.choice(states), game.parse_action(text))
        except ConquestError as exc:
            checked += 1
            assert _longest_quoted_run(exc.message, filler) <= 60, exc.message[:300]
    keys = list(game.options_schema.keys)
    for _ in range(150):
        filler = rnd.choice(_FILLERS)
        long = filler * rnd.choice([100, 3000, 9000])
        options = rnd.choice([
            {long: 1},
            {rnd.choice(keys): long},
            {rnd.choice(keys): [long] * 3},
            {rnd.choice(keys): [{"name": long}] * 3},
            {rnd.choice(keys): [{"name": f"P{i}", "bot": long, "colour": long} for i in range(3)]},
            {rnd.choice(keys): {long: 1, "title": long, "territories": [{"id": long}]}},
        ])
        try:
            Match(game, options)
        except ConquestError as exc:
            checked += 1
            assert _longest_quoted_run(exc.message, filler) <= 60, exc.message[:300]
    assert checked > 300


def test_the_excerpt_bounds_what_it_writes_not_only_what_it_reads() -> None:
    assert len(excerpt("\u202e" * 500)) < 120
    assert excerpt("short") == "'short'"
    assert excerpt(list(range(1000))) == "a list of 1,000 items"


def test_a_save_with_a_long_unknown_field_or_category_is_refused_short() -> None:
    err = _shallow_stack(lambda: parse_save_json(json.dumps({"v": 1, "game": "world", "options": {}, "log": [], "k" * 9000: 1})))
    assert isinstance(err, SaveCodeError) and len(err.message) < 200, err
    names = [f"{i}" + "c" * 198 for i in range(200)]
    err, _, _ = measure("200 unknown categories", lambda: Match(get_game("campaign"), {"categories": names}))
    assert isinstance(err, InvalidOptions) and err.message.count("(199 characters)") <= 5, err
    assert _longest_quoted_run(err.message, "c") <= 60 and len(err.message) < 800

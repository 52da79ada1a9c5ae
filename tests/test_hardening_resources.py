"""Resource bounds of links (issue 10, B1): refused at once, or replayed within a stated budget.

The budget: replaying the worst link the decoder and the metagame accept (a custom map at the
caps, 200 territories and 1,000 borders, 8 players, a log at the cap of 20,000 steps of the
most expensive kind) takes at most 200 MB of Python memory (tracemalloc peak) and, in
CPython, about a second on one idle core (2 s is the budget). Tests assert the memory and
the refusals, never wall time: the times are printed (``pytest -s``).

Every case is seeded and bounded (a few seconds in all).
"""

from __future__ import annotations

import base64
import io
import json
import random
import time
import tracemalloc
import zlib
from collections.abc import Callable
from typing import Any

import pytest

from conquest.__main__ import verify
from conquest.core import InvalidOptions, games
from conquest.games.metagame import GAME
from conquest.games.metagame.board import MAX_EDGES, MAX_TERRITORIES
from conquest.rng import Rng
from conquest.savecode import SaveCodeError, decode_save, encode_save, max_steps, parse_save_json
from conquest.session import Match

#: the metagame's step cap: its replay budget over its dearest step (issue 20, item 11)
MAX_LOG_ENTRIES = max_steps("metagame")

#: the memory budget of the worst accepted replay (tracemalloc peak)
MEMORY_BUDGET = 200_000_000
#: a refusal "at once" allocates next to nothing
REFUSAL_MEMORY = 5_000_000


def measure(label: str, work: Callable[[], Any]) -> tuple[Any, float, int]:
    """Run ``work`` under tracemalloc: (result or the exception raised, CPU seconds, peak bytes).

    CPU seconds, not wall time: the machine running the tests may be shared."""
    tracemalloc.start()
    start, cpu = time.perf_counter(), time.process_time()
    try:
        result: Any = work()
    except Exception as exc:  # noqa: BLE001 - the caller asserts on what was raised
        result = exc
    seconds, cpu = time.perf_counter() - start, time.process_time() - cpu
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    print(f"{label}: {seconds:.3f} s ({cpu:.3f} s CPU, traced), peak {peak / 1e6:.1f} MB")
    return result, cpu, peak


def grid_map(w: int, h: int, extra_edges: int = 0, seed: int = 1) -> dict[str, Any]:
    """A w x h grid map, plus ``extra_edges`` seeded random borders (a denser, non-planar map)."""
    from test_metagame import grid_map as grid

    m = grid(w, h)
    have = {tuple(sorted(e)) for e in m["edges"]}
    ids = [t["id"] for t in m["territories"]]
    rnd = random.Random(seed)
    target = len(have) + extra_edges
    while len(have) < target:
        have.add(tuple(sorted(rnd.sample(ids, 2))))
    m["edges"] = [list(e) for e in sorted(have)]
    return m


def _save(options: dict[str, Any], log: list[str] | None = None) -> dict[str, Any]:
    return {"v": 1, "game": "metagame", "options": options, "log": log or []}


# ------------------------------------------------------------------------------------------
# options checked for type and range before anything is built from them
# ------------------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("players", "expected"),
    [(1_000_000_000, "M2: the option players must be a whole number 2 to 8"), (-5, "2 to 8 items, not -5")],
)
def test_absurd_player_count_is_refused_at_once(players: int, expected: str) -> None:
    text = json.dumps(_save({"players": players}))
    out = io.StringIO()
    code, _, peak = measure(f"verify players={players}", lambda: verify(text, out=out))
    assert code == 1 and expected in out.getvalue(), out.getvalue()
    assert peak < REFUSAL_MEMORY
    err, _, peak = measure(f"Match players={players}", lambda: Match(GAME, {"players": players}))
    assert isinstance(err, InvalidOptions) and expected in err.message
    assert peak < REFUSAL_MEMORY


def test_player_count_of_4000_digits_is_refused_with_a_short_message() -> None:
    huge = int("9" * 4000)
    text = '{"v":1,"game":"metagame","options":{"players":' + "9" * 4000 + '},"log":[]}'
    err, _, peak = measure("parse 4,000-digit players", lambda: parse_save_json(text))
    assert isinstance(err, SaveCodeError) and "too large" in err.message and len(err.message) < 200
    assert peak < REFUSAL_MEMORY
    out = io.StringIO()
    assert verify(text, out=out) == 2 and len(out.getvalue()) < 300
    err, _, peak = measure("Match 4,000-digit players", lambda: Match(GAME, {"players": huge}))
    assert isinstance(err, InvalidOptions) and "2 to 8" in err.message and len(err.message) < 200
    assert peak < REFUSAL_MEMORY


@pytest.mark.parametrize(
    "options",
    [
        {"players": [{"name": "A"}] * 1000},
        {"players": True},
        {"players": 2.5},
        {"games": ["g" + str(i) for i in range(5000)]},
        {"token_pool": 10**30},
        {"seed": 10**30},
        {"zzz" * 3000: 1},
    ],
)
def test_other_absurd_options_are_refused_at_once(options: dict[str, Any]) -> None:
    err, _, peak = measure(f"Match {str(options)[:30]}", lambda: Match(GAME, options))
    assert isinstance(err, InvalidOptions), err
    assert len(err.message) < 300 and peak < REFUSAL_MEMORY


def test_custom_maps_are_bounded() -> None:
    big = grid_map(MAX_TERRITORIES + 1, 1)
    err, _, _ = measure("201 territories", lambda: Match(GAME, {"map_data": big}))
    assert isinstance(err, InvalidOptions) and f"at most {MAX_TERRITORIES}" in err.message
    dense = grid_map(10, 10, extra_edges=MAX_EDGES)  # 180 grid borders + 1,000
    err, _, _ = measure("1,180 borders", lambda: Match(GAME, {"map_data": dense}))
    assert isinstance(err, InvalidOptions) and f"at most {MAX_EDGES:,}" in err.message
    named = grid_map(3, 3)
    named["territories"][4]["name"] = "N" * 10_000
    err, _, _ = measure("a 10,000-character territory name", lambda: Match(GAME, {"map_data": named}))
    assert isinstance(err, InvalidOptions) and "characters" in err.message and len(err.message) < 200
    at_cap = grid_map(20, 10, extra_edges=MAX_EDGES - 370)
    match, _, _ = measure("200 territories, 1,000 borders", lambda: Match(GAME, {"map_data": at_cap}))
    assert isinstance(match, Match) and len(match.state.board) == MAX_TERRITORIES


# ------------------------------------------------------------------------------------------
# the log cap
# ------------------------------------------------------------------------------------------
def test_logs_over_the_cap_are_refused_with_a_clear_message() -> None:
    save = _save({"players": 2}, ["p"] * (MAX_LOG_ENTRIES + 1))
    # a link made by hand, the log joined as p;p;p;... (a few hundred characters)
    raw = json.dumps({**save, "log": ";".join(save["log"])}, separators=(",", ":")).encode()
    comp = zlib.compressobj(9, zlib.DEFLATED, -15)
    code = "c1." + base64.urlsafe_b64encode(comp.compress(raw) + comp.flush()).decode().rstrip("=")
    err, _, peak = measure("link of 20,001 steps", lambda: decode_save(code))
    assert isinstance(err, SaveCodeError) and err.code == "too-many-steps"
    assert f"at most {MAX_LOG_ENTRIES:,}" in err.message and peak < 3 * REFUSAL_MEMORY
    err, _, _ = measure("file of 20,001 steps", lambda: parse_save_json(json.dumps(save)))
    assert isinstance(err, SaveCodeError) and err.code == "too-many-steps"


def test_a_100_round_campaign_of_8_players_fits_the_cap() -> None:
    """The cap leaves room for the longest real campaigns."""
    # the longest invasion uses 13 steps: i s b w w spin r x- x<t> r da dd g
    assert 8 * 100 * 13 + 8 <= MAX_LOG_ENTRIES
    from test_metagame_campaigns import InvadingBot

    bots = [InvadingBot(Rng(i)) for i in range(8)]
    m = Match(GAME, {"players": 8, "seed": 0}, rng=Rng(0))
    while GAME.outcome(m.state) is None and m.state.turn <= 800:
        m.play(bots[GAME.to_move(m.state)].choose(GAME, m.state))
    save = m.save().to_json()
    print(f"100 rounds, 8 invasion-heavy players: {len(save['log']):,} steps")
    assert decode_save(encode_save(save))["log"] == save["log"]


# ------------------------------------------------------------------------------------------
# the worst accepted link replays within the budget
# ------------------------------------------------------------------------------------------
def _capitals(options: dict[str, Any]) -> list[str]:
    m = Match(GAME, options)
    for _ in range(8):
        m.play(GAME.legal_actions(m.state)[-1])
    return list(m.log)


def _worst_corrections(options: dict[str, Any]) -> list[str]:
    """Host corrections only: each builds a new owner tuple and re-checks M13 and M16."""
    log = _capitals(options)
    state = Match(GAME, options, log).state
    free = [t for t in range(len(state.board)) if t not in state.capital]
    return log + [f"!o{free[i % len(free)]}={i % 8}" for i in range(MAX_LOG_ENTRIES - len(log))]


def test_worst_accepted_link_replays_within_budget() -> None:
    """The heaviest accepted metagame link. Host corrections are the worst steps: measured
    against endless invasions (the defender always holds, the biggest sacrifices, every
    re-spin) on grid, dense and star maps, they cost as much time and 4-8 times the memory."""
    options = {"players": 8, "seed": 0, "map_data": grid_map(20, 10, extra_edges=MAX_EDGES - 370)}
    log = _worst_corrections(options)
    assert len(log) == MAX_LOG_ENTRIES
    code = encode_save(_save(options, log))

    def open_link() -> Match:
        save = decode_save(code)
        return Match(GAME, save["options"], save["log"])

    match, seconds, peak = measure(f"worst link ({len(code):,} characters)", open_link)
    assert isinstance(match, Match) and len(match.log) == MAX_LOG_ENTRIES
    assert peak < MEMORY_BUDGET
    del match
    start, cpu = time.perf_counter(), time.process_time()
    Match(GAME, options, log)
    seconds, cpu = time.perf_counter() - start, time.process_time() - cpu
    print(f"  the same replay untraced: {seconds:.3f} s, {cpu:.3f} s CPU (budget 2 s)")


@pytest.mark.parametrize("game_id", sorted(games()))
def test_every_game_replays_within_budget_at_the_cap(game_id: str) -> None:
    """Any game: memory per replayed step, times the cap, stays within the budget."""
    game = games()[game_id]
    rng = Rng(3)
    m = Match(game, {**game.default_options(), "seed": 3}, rng=rng)
    m.resolve_chance()
    while len(m.log) < 300 and game.outcome(m.state) is None and game.legal_actions(m.state):
        acts = game.legal_actions(m.state)
        m.play(acts[rng.below(len(acts))])
    options, log = dict(m.options), list(m.log)
    replayed, seconds, peak = measure(
        f"{game_id}: replay of {len(log)} steps", lambda: Match(game, options, log)
    )
    assert isinstance(replayed, Match)
    per_step = peak / max(1, len(log))
    cap = max_steps(game_id)
    print(
        f"  {game_id}: {per_step / 1e3:.1f} kB and {1e3 * seconds / max(1, len(log)):.2f} ms CPU per step (traced): "
        f"about {per_step * cap / 1e6:.0f} MB and {seconds / max(1, len(log)) * cap:.1f} s "
        f"at {cap:,} steps"
    )
    assert per_step * cap < MEMORY_BUDGET

"""Benchmark of the metagame engine in CPython (not a test: prints figures, asserts nothing).

Run: ``.venv/bin/python bench/metagame.py [--seeds N]``

Prints:
- the share-link length after 100 turns with 8 players on usa100, for greedy, random,
  mixed and "aggressive" (invades whenever it can) bots, compressed with
  ``conquest.savecode`` (raw deflate + base64url) when present, else zlib + base64url;
- the time to apply one action (parse + apply; mean and p95) over those campaigns;
- the time to replay a 500-action campaign from its save (``conquest.session.replay``).

Falls back to a 10x10 grid map when usa100 is not available (and says so).
"""

from __future__ import annotations

import argparse
import base64
import json
import statistics
import sys
import time
import zlib
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from conquest.bots import RandomBot  # noqa: E402
from conquest.bots.metagame_greedy import GreedyMetagameBot  # noqa: E402
from conquest.core import GameError  # noqa: E402
from conquest.games.metagame import GAME  # noqa: E402
from conquest.games.metagame.actions import Invade  # noqa: E402
from conquest.rng import Rng  # noqa: E402
from conquest.session import Match, replay  # noqa: E402

NAMES = ["Alexandra", "Benjamin", "Charlotte", "Dominic", "Eleanor", "Frederick", "Georgina", "Harrison"]
GAMES = ["conquests", "reign", "Chess on BoardGameArena", "Go", "Carcassonne", "Patchwork"]


class AggressiveBot(RandomBot):
    """Random, but invades whenever it can: the invasion-heavy worst case for link length."""

    def choose(self, game: Any, state: Any) -> Any:
        actions = game.legal_actions(state)
        if state.phase == "turn":
            inv = [a for a in actions if isinstance(a, Invade)]
            if inv:
                return inv[self.rng.below(len(inv))]
        return actions[self.rng.below(len(actions))]


def grid_map(w: int, h: int) -> dict[str, Any]:
    ids = [f"t{i}" for i in range(w * h)]
    edges = [[ids[y * w + x], ids[y * w + x + 1]] for y in range(h) for x in range(w - 1)]
    edges += [[ids[y * w + x], ids[(y + 1) * w + x]] for y in range(h - 1) for x in range(w)]
    return {
        "id": "grid",
        "title": "Grid",
        "width": w * 10,
        "height": h * 10,
        "territories": [
            {"id": t, "name": t.upper(), "group": "g", "label": [0, 0], "path": "M0 0h1v1z"} for t in ids
        ],
        "edges": edges,
        "sea_links": [],
        "groups": [{"id": "g", "name": "G", "bonus": 0, "territories": ids}],
        "context": [],
        "credits": [],
    }


def encode(save: dict[str, Any]) -> tuple[str, str]:
    try:
        from conquest.savecode import encode_save
    except ImportError:
        raw = json.dumps(save, separators=(",", ":"), sort_keys=True).encode("utf-8")
        return base64.urlsafe_b64encode(zlib.compress(raw, 9)).rstrip(
            b"="
        ).decode(), "zlib+base64url (no savecode)"
    return encode_save(save), "conquest.savecode (raw deflate + base64url)"


def make_bots(kind: str, seed: int) -> list[Any]:
    out: list[Any] = []
    for i in range(8):
        rng = Rng(seed * 100 + i)
        if kind == "greedy" or (kind == "mixed" and i % 2):
            out.append(GreedyMetagameBot(rng))
        elif kind == "aggressive":
            out.append(AggressiveBot(rng))
        else:
            out.append(RandomBot(rng))
    return out


def campaign(
    options: dict[str, Any], kind: str, seed: int, turns: int | None, max_actions: int, sealed: bool = False
) -> Match:
    """``sealed``: draws from a sealed chain with automatic contributions (issue 26), as in play."""
    bots = make_bots(kind, seed)
    m = Match(GAME, {**options, "seed": seed}, rng=Rng(seed), checkable=sealed)
    while GAME.outcome(m.state) is None and len(m.log) < max_actions:
        if turns is not None and m.state.turn > turns:
            break
        seat = GAME.to_move(m.state)
        m.play(bots[seat].choose(GAME, m.state))
    return m


def time_actions(options: dict[str, Any], log: list[str]) -> list[float]:
    m = Match(GAME, options)
    state = m.state
    times = []
    for text in log:
        t0 = time.perf_counter()
        state = GAME.apply(state, GAME.parse_action(text))
        times.append(time.perf_counter() - t0)
    return times


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--seeds", type=int, default=5)
    args = ap.parse_args()
    base: dict[str, Any] = {"players": [{"name": n} for n in NAMES], "games": GAMES}
    try:
        t0 = time.perf_counter()
        Match(GAME, {**base, "seed": 0}).state.board.dist  # noqa: B018 - the all-pairs distances
        load = time.perf_counter() - t0
        map_note = f"usa100 (first load with distances {load * 1000:.0f} ms)"
    except GameError as exc:
        base["map_data"] = grid_map(10, 10)
        map_note = f"10x10 grid: usa100 not available ({exc})"
    print(f"map: {map_note}; 8 players, {len(GAMES)} games on the list")

    print("\nlink length after 100 turns (characters of the code; the URL adds the page address + '#h='):")
    print("  unsealed: draws as before issue 26; sealed: with the draw record (seal, one automatic")
    print("  contribution per spin), as the pages now save")
    codec = ""
    all_times: list[float] = []
    for kind in ("greedy", "mixed", "random", "aggressive"):
        for sealed in (False, True):
            lengths, actions, spins = [], [], []
            for seed in range(args.seeds):
                m = campaign(base, kind, seed, turns=100, max_actions=100_000, sealed=sealed)
                code, codec = encode(m.save().to_json())
                lengths.append(len(code))
                actions.append(len(m.log))
                spins.append(m.draws.count if m.draws is not None else 0)
                if not sealed:
                    all_times += time_actions(m.options, m.log)
            print(
                f"  {kind:<10} {'sealed' if sealed else 'unsealed':<8} max {max(lengths):5d}  "
                f"mean {statistics.mean(lengths):7.0f}  (log {min(actions)}-{max(actions)} actions"
                + (f", {min(spins)}-{max(spins)} draws)" if sealed else ")")
            )
    print(f"  codec: {codec}")

    all_times.sort()
    mean = statistics.mean(all_times)
    p95 = all_times[int(0.95 * (len(all_times) - 1))]
    print(
        f"\napply one action (parse + apply, {len(all_times)} actions): mean {mean * 1e6:.0f} us, "
        f"p95 {p95 * 1e6:.0f} us, max {all_times[-1] * 1e6:.0f} us"
    )

    m = campaign(base, "aggressive", 1, turns=None, max_actions=500)
    while len(m.log) < 500 and GAME.outcome(m.state) is not None:
        m = campaign(base, "aggressive", len(m.log) + 7, turns=None, max_actions=500)
    save = m.save().to_json()
    runs = []
    for _ in range(5):
        t0 = time.perf_counter()
        again = replay(save)
        runs.append(time.perf_counter() - t0)
    assert again.state == m.state
    print(
        f"replay a {len(save['log'])}-action campaign: best {min(runs) * 1000:.0f} ms, "
        f"median {statistics.median(runs) * 1000:.0f} ms (CPython {sys.version.split()[0]})"
    )


if __name__ == "__main__":
    main()

"""Where does a Reallocate pay in To Reign Supreme? (R5, R13; a bench: prints figures, asserts nothing)

Ruling R13 keeps Reallocate rare by design, and asks the strongest level (Monte Carlo) to play
it where it pays. This bench looks for such positions and plays them out:

- **Search** (``--games N``): seeded Monte Carlo self-play games (``N`` per setup from
  ``--seed``) give the positions where the player to move may Reallocate; each is also tried
  with ``--shuffles K`` random rearrangements of its Influenced cards (a Reallocate's own kind
  of change: the same holders, reach and numbers). ``--drawn D`` and ``--lean L`` add positions
  drawn at random (see :func:`random_position`). In each the Monte Carlo level, built as the
  game builds it (``MonteCarloBot(Rng(1))``), chooses an action; the positions where it
  chooses a Reallocate are judged as below and printed as state JSON, and the counts per kind
  of position are printed at the end.
- **Scan** (``--scan N``): does the level miss Reallocates that pay? ``N`` self-play
  positions played out after the level's own choice and after its best Reallocate.
- **Judge** (``--position NAME``): a position of ``tests/test_reign_choices.py`` (such as
  ``TEMPTING``) played out ``--playouts`` times (seeds from ``--playout-seed``) with the Monte
  Carlo level on both sides, once after the level's choice and once after its best Reallocate
  (or, where it Reallocates, its best other action): the games the player to move wins on
  each line. A Reallocate pays where its line wins clearly more.

Why positions drawn at random as well as the level's own games: the level never Reallocates
in its own games (R13), so the positions where it might lie off their path.

The figures of 29 November 2026 are on the rules page (``site/rules/reign.md``, "Positions
built to tempt it"): no position found where the level Reallocates.

Run (heavy; the machine is shared): ``nice -n 19 .venv/bin/python bench/reign_reallocate_search.py``
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import random
import sys
import time
from dataclasses import replace
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from conquest.bots import run_thinking  # noqa: E402
from conquest.games.reign import GAME  # noqa: E402
from conquest.games.reign.actions import Reallocate  # noqa: E402
from conquest.games.reign.bots import Clock, MonteCarloBot, prune_reallocations  # noqa: E402
from conquest.games.reign.state import State  # noqa: E402
from conquest.rng import Rng  # noqa: E402
from conquest.session import Match  # noqa: E402

MAX_ACTIONS = 3000


def choose(s: State) -> Any:
    """The strongest level's action in ``s``, as the game builds the level."""
    return run_thinking(MonteCarloBot(Rng(1)).think(GAME, s))


def ranked(s: State) -> list[tuple[float, Any]]:
    """Every action the level weighs in ``s`` with its value, best first."""
    bot = MonteCarloBot(Rng(1))
    seat = GAME.to_move(s)
    out = []
    for a in prune_reallocations(GAME, s, GAME.legal_actions(s)):
        out.append((run_thinking(bot.action_value(GAME, s, seat, a, Clock(), bot.lookahead)), a))
    out.sort(key=lambda va: -va[0])
    return out


def second_choice(s: State) -> Any:
    """The level's best action in ``s`` that is not a Reallocate."""
    return next(a for _, a in ranked(s) if not isinstance(a, Reallocate))


def play_out(s: State, seed: int) -> int | None:
    """The winner of ``s`` played on by the Monte Carlo level on both sides."""
    bots = [MonteCarloBot(Rng(seed * 2 + 1)), MonteCarloBot(Rng(seed * 2 + 2))]
    for _ in range(MAX_ACTIONS):
        if s.winner is not None or s.phase == "over":
            return s.winner
        seats = GAME.simultaneous(s)
        if seats:
            parts = {k: run_thinking(bots[k].think_secret(GAME, s, k)) for k in seats}
            s = GAME.apply(s, GAME.join_secret(s, parts))
        else:
            s = GAME.apply(s, run_thinking(bots[GAME.to_move(s)].think(GAME, s)))
    return None


def wins(s: State, first: Any, n: int, seed0: int) -> int:
    """Games the player to move in ``s`` wins, of ``n``, after playing ``first``."""
    me = s.active
    after = GAME.apply(s, first)
    return sum(play_out(after, seed) == me for seed in range(seed0, seed0 + n))


def judge(s: State, n: int, seed0: int) -> tuple[Any, int, Any, int]:
    """(the level's choice, its line's wins, its second choice, that line's wins), of ``n``."""
    a = choose(s)
    b = second_choice(s) if isinstance(a, Reallocate) else next(x for _, x in ranked(s) if isinstance(x, Reallocate))
    return a, wins(s, a, n, seed0), b, wins(s, b, n, seed0)


def positions(setup: str, seed: int) -> list[State]:
    """The turn positions of one seeded Monte Carlo self-play game where the player to move
    may Reallocate (2 coins, at least two Influenced cards)."""
    bots = [MonteCarloBot(Rng(seed * 2 + 1)), MonteCarloBot(Rng(seed * 2 + 2))]
    match = Match(GAME, {"setup": setup, "seed": seed}, rng=Rng(seed))
    match.resolve_chance()
    out: list[State] = []
    for _ in range(MAX_ACTIONS):
        s = match.state
        if GAME.outcome(s) is not None:
            break
        seats = GAME.simultaneous(s)
        if seats:
            parts = {k: run_thinking(bots[k].think_secret(GAME, s, k)) for k in seats}
            match.play(GAME.join_secret(s, parts))
            continue
        if s.phase == "turn" and s.actions_left > 0 and GAME.reallocations(s) and any(
            isinstance(a, Reallocate) for a in GAME.legal_actions(s)
        ):
            out.append(s)
        match.play(run_thinking(bots[GAME.to_move(s)].think(GAME, s)))
    return out


def shuffled(s: State, rnd: random.Random) -> State:
    """``s`` with its Influenced cards rearranged at random (holders stay)."""
    lays = GAME.reallocations(s)
    return replace(s, layout=lays[rnd.randrange(len(lays))])


def random_position(rnd: random.Random, lean: bool = False) -> State:
    """A position drawn at random: any layout, rungs (nobody Controlling six), Wealth (2 to
    12), Military (0 to 12), tracker, hand and discard, and 1 to 3 actions left to the player
    to move (a game's positions are a small part of these).

    ``lean``: one action left, the player to move at Wealth 2 to 4 and both at Military 0 to
    7, where the other actions are worth least (little to spend, one action to spend it on)
    and a Resupply floor that a Reallocate raises is most often above what a player has."""
    while True:
        ladder = [rnd.randrange(4) for _ in range(6)]
        if 0 < sum(r in (1, 2) for r in ladder) and ladder.count(0) < 6 and ladder.count(3) < 6:
            break
    active = rnd.randrange(2)
    players = []
    for seat in range(2):
        cards = list(range(5))
        rnd.shuffle(cards)
        cut = rnd.randrange(3, 6)  # at least one card in hand: a battle needs one
        wealth = rnd.randrange(2, 5) if lean and seat == active else rnd.randrange(2, 13)
        military = rnd.randrange(0, 8) if lean else rnd.randrange(0, 13)
        players.append(
            {"wealth": wealth, "military": military, "tracker": sorted(cards[:2]),
             "hand": sorted(cards[2:cut]), "discard": sorted(cards[cut:])}
        )
    layout = list(range(6))
    rnd.shuffle(layout)
    return GAME.state_from_json({
        "setup": rnd.choice(("easy", "challenging")), "names": ["Ana", "Ben"], "layout": layout,
        "ladder": ladder, "players": players, "phase": "turn", "active": active,
        "turn": rnd.randrange(3, 12), "actions_left": 1 if lean else rnd.randrange(1, 4), "fresh": [],
        "battle": None, "last": None, "winner": None, "fought": 0, "edition": 4,
    })


def report(label: str, s: State, a: Any, playouts: int, playout_seed: int) -> None:
    """A position where the level Reallocates, judged (see :func:`judge`)."""
    b = second_choice(s)
    wa, wb = wins(s, a, playouts, playout_seed), wins(s, b, playouts, playout_seed)
    print(f"{label}: {a} wins {wa}/{playouts}, {b} wins {wb}/{playouts}\n  {json.dumps(GAME.state_to_json(s))}", flush=True)


def search(games: int, seed0: int, shuffles: int, drawn: int, lean: int, playouts: int, playout_seed: int) -> None:
    """Ask the level in every position of the search; judge those where it Reallocates."""
    rnd = random.Random(seed0)
    t0 = time.perf_counter()
    tally: dict[str, list[int]] = {}

    def ask(kind: str, label: str, s: State) -> None:
        got = tally.setdefault(kind, [0, 0])
        got[0] += 1
        a = choose(s)
        if isinstance(a, Reallocate):
            got[1] += 1
            report(f"{kind}, {label}", s, a, playouts, playout_seed)

    for setup in ("easy", "challenging"):
        for seed in range(seed0, seed0 + games):
            for base in positions(setup, seed):
                for k in range(shuffles + 1):
                    s = base if k == 0 else shuffled(base, rnd)
                    ask("self-play" if k == 0 else "self-play, cards rearranged", f"{setup} game {seed} turn {s.turn}", s)
    for kind, n, thin in (("drawn", drawn, False), ("drawn lean", lean, True)):
        for k in range(n):
            s = random_position(rnd, thin)
            if any(isinstance(a, Reallocate) for a in GAME.legal_actions(s)):
                ask(kind, f"position {k}", s)
    for kind, (n, c) in tally.items():
        print(f"{kind}: the level Reallocated in {c} of {n} positions")
    print(f"({time.perf_counter() - t0:.0f} s)")


def scan(games: int, seed0: int, n: int, playouts: int, playout_seed: int) -> None:
    """Does the level miss Reallocates that pay? In ``n`` self-play positions (every other
    one with its cards rearranged at random), the games won after the level's own choice and
    after its best Reallocate, ``playouts`` each."""
    rnd = random.Random(seed0)
    pool = [s for setup in ("easy", "challenging") for seed in range(seed0, seed0 + games) for s in positions(setup, seed)]
    rnd.shuffle(pool)
    better = clearly = 0
    for k, s in enumerate(pool[:n]):
        if k % 2:
            s = shuffled(s, rnd)
        r = ranked(s)
        own = r[0][1]
        best_r = next(a for _, a in r if isinstance(a, Reallocate))
        wo, wr = wins(s, own, playouts, playout_seed), wins(s, best_r, playouts, playout_seed)
        better += wr > wo
        clearly += wr >= wo + playouts // 4
        print(f"{s.setup} turn {s.turn}: the level's {own} won {wo}/{playouts}, {best_r} {wr}/{playouts}", flush=True)
    print(f"the best Reallocate won more in {better} of {min(n, len(pool))} positions, a quarter of the games more in {clearly}")


def _position(name: str) -> State:
    path = ROOT / "tests" / "test_reign_choices.py"
    spec = importlib.util.spec_from_file_location("test_reign_choices", path)
    assert spec is not None and spec.loader is not None
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return GAME.state_from_json(getattr(mod, name))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=10, help="self-play games per setup to take positions from")
    ap.add_argument("--seed", type=int, default=0, help="the first self-play game's seed")
    ap.add_argument("--shuffles", type=int, default=3, help="random rearrangements tried per position")
    ap.add_argument("--drawn", type=int, default=0, help="positions drawn at random to try as well")
    ap.add_argument("--lean", type=int, default=0, help="lean positions drawn at random to try as well")
    ap.add_argument("--scan", type=int, default=0, help="instead play out this many self-play positions (see scan)")
    ap.add_argument("--playouts", type=int, default=40, help="games played out per line")
    ap.add_argument("--playout-seed", type=int, default=5000, help="the first playout's seed")
    ap.add_argument("--position", help="judge this position of tests/test_reign_choices.py instead")
    args = ap.parse_args()
    if args.position:
        s = _position(args.position)
        a, wa, b, wb = judge(s, args.playouts, args.playout_seed)
        n = args.playouts
        print(f"{args.position}: the level plays {a}: {wa}/{n} won; {b} instead: {wb}/{n} won")
        for v, x in ranked(s)[:8]:
            print(f"  {v:8.3f} {x}")
        return
    if args.scan:
        scan(args.games, args.seed, args.scan, args.playouts, args.playout_seed)
        return
    search(args.games, args.seed, args.shuffles, args.drawn, args.lean, args.playouts, args.playout_seed)


if __name__ == "__main__":
    main()

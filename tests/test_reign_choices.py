"""To Reign Supreme's choices and levels (issue 25).

Seeded self-play of the strongest level (Monte Carlo): issue 25 asks every action, purchase
and strategy card to be chosen in at least 5% of the situations where it is legal
(``bench/reign.py``'s :func:`choice_counts` says what a situation is). Edition 2 of the values
(Disband 2 coins per Military, Recruit up to 3) brought Disband and Recruit above it (edition
1: 3.5% and 1.9% of 100 Monte Carlo games per setup); edition 3 (the Apothecary defends 2,
Steady Advance 2, Raid 3) brings Reform above it (edition 2: 34 of 821 turns, 4.1%). Reallocate
is still below (edition 3: 0 of 1,298 turns), issue 25's open gap: one test checks that no
other choice is, and the whole aim is a strict expected failure, reported until values close
the gap. And the strongest level beats Random in at least 95% of a few seeded games.

Why 100 games per setup (seeds 0 to 99, both processes of the machine, about a minute): Reform,
Recruit and Restructure are chosen in about 5.5-7% of their situations with edition 3, and a
small sample cannot tell that from under 5%. Seeds 0 to 5 gave Restructure 4 of 123 (3.3%) and
seeds 0 to 29 Reform 9 of 210 (4.3%), where seeds 0 to 99 give 127 of 1,957 (6.5%) and 43 of
698 (6.2%), and seeds 50,000 to 50,199 give 285 of 4,107 (6.9%) and 84 of 1,470 (5.7%). The
bench measures the same over other seeds (``--choices``, ``--choices-seed``).
"""
from __future__ import annotations

import functools
import importlib.util
import sys
from pathlib import Path
from types import ModuleType

import pytest

from conquest.games.reign import GAME

ROOT = Path(__file__).resolve().parent.parent


def _bench() -> ModuleType:
    spec = importlib.util.spec_from_file_location("bench_reign", ROOT / "bench" / "reign.py")
    assert spec is not None and spec.loader is not None
    mod = sys.modules.get("bench_reign")
    if mod is None:
        mod = importlib.util.module_from_spec(spec)
        sys.modules["bench_reign"] = mod
        spec.loader.exec_module(mod)
    return mod


BENCH = _bench()
GAMES_PER_SETUP = 100
PROCS = 2


#: issue 25's open gap: the choice edition 3 leaves below 5% for the strongest level
OPEN_GAP = {"Reallocate"}


@functools.cache
def _totals() -> dict[str, list[int]]:
    return BENCH.choices(None, "Monte Carlo", GAMES_PER_SETUP, 0, PROCS)


def _low() -> dict[str, str]:
    return {k: f"{c} of {n}" for k, (n, c, *_) in _totals().items() if c < 0.05 * n}


def test_every_choice_but_the_open_gap_is_made_by_the_strongest_level() -> None:
    r = GAME.rules
    expected = (
        set(BENCH.ACTION_KINDS.values())
        | {f"buy {k.name}" for k in r.kinds}
        | {f"card {c.name}" for c in r.cards}
    )
    assert set(_totals()) == expected  # every choice met its situation in these games
    low = _low()
    assert set(low) <= OPEN_GAP, f"chosen in under 5% of the situations where legal: {low}"
    for k in ("Disband", "Recruit", "Reform"):  # editions 1 (the first two) and 2 (Reform) left these below 5%
        n, c, *_ = _totals()[k]
        assert c >= 0.05 * n, (k, c, n)


@pytest.mark.xfail(strict=True, reason="issue 25 is open: Reallocate is chosen in under 5% of its situations")
def test_every_choice_is_made_by_the_strongest_level() -> None:
    low = _low()
    assert not low, f"chosen in under 5% of the situations where legal: {low}"


def _wins(strong: str, weak: str, n: int, seeds: tuple[int, int]) -> tuple[int, int]:
    """Games ``strong`` wins against ``weak`` (Easy setup): half as Player 1 from seed
    ``seeds[0]`` on, half as Player 2 from ``seeds[1]`` on (as ``bench/reign.py`` plays them)."""
    g1 = BENCH.run_games(None, "easy", (strong, weak), n // 2, 1, seed0=seeds[0])
    g2 = BENCH.run_games(None, "easy", (weak, strong), n - n // 2, 1, seed0=seeds[1])
    return sum(g["winner"] == 0 for g in g1) + sum(g["winner"] == 1 for g in g2), n


def test_the_strongest_level_beats_random() -> None:
    won, n = _wins("Monte Carlo", "Random", 8, (30_000, 31_000))
    assert won >= 0.95 * n, f"Monte Carlo beat Random in {won} of {n}"


def test_the_strongest_level_beats_the_next() -> None:
    """Issue 25 asks at least 60%. Twenty seeded games check the direction and the size on
    these values; the interval comes from the bench (bench/reign.py --vs-games 300: Monte Carlo
    beat Heuristic in 229 of 300, 76.3% [71.2-80.8], the whole interval above 60%)."""
    won, n = _wins("Monte Carlo", "Heuristic", 20, (32_000, 33_000))
    assert won >= 0.6 * n, f"Monte Carlo beat Heuristic in {won} of {n}"


def test_the_bench_makes_a_weighted_level_from_its_name() -> None:
    """``bench/reign.py --weights``: the level's name carries its weights, so each process of
    the bench builds the same bot (the rules page quotes such a level's choices)."""
    from conquest.games.reign.bots import MonteCarloBot
    from conquest.rng import Rng

    bot = BENCH.make_bot(BENCH.WEIGHTED + '{"face": 0.25, "rung": [-4, -1, 1, 4]}', Rng(1))
    assert isinstance(bot, MonteCarloBot)
    assert bot.weights is not None and bot.weights.face == 0.25 and bot.weights.rung == (-4, -1, 1, 4)
    assert type(BENCH.make_bot("Heuristic", Rng(1))).__name__ == "HeuristicBot"


def test_the_bench_says_when_a_choice_is_a_first_movers_grab() -> None:
    """``bench/reign_reallocate_trial.json`` holds values under which the strongest level does
    choose Reallocate (the rules page: 'Why Reallocate is not chosen'), and the bench says
    when: on the game's first turn, by Player 1. In this seeded game (Easy, seed 3) Player 1
    opens with a Reallocate and a Develop; every choice made on the first turn is Player 1's."""
    from conquest.games.reign.data import rules_from_dict
    from conquest.games.reign.engine import ReignGame

    values = BENCH.values_arg(str(ROOT / "bench" / "reign_reallocate_trial.json"))
    data = BENCH.apply_overrides(values)
    assert BENCH.worked_example_holds(data)  # R9: the seed's worked example still adds up
    game = ReignGame(rules_from_dict(data))
    counts = BENCH.choice_counts(game, "easy", ("Monte Carlo", "Monte Carlo"), 3)
    assert counts["Reallocate"][1:] == [1, 1, 1]  # chosen once: on the first turn, by Player 1
    assert counts["Develop"][2] == 1  # the other action of that turn
    first = {k for k, (_, _, on_first, _) in counts.items() if on_first}
    assert first == {"Reallocate", "Develop"}
    for k, (n, c, on_first, by_p1) in counts.items():
        assert 0 <= on_first <= c <= n and 0 <= by_p1 <= c, k
    # the game's own values: the same seed, no Reallocate, and the counts still add up
    plain = BENCH.choice_counts(GAME, "easy", ("Monte Carlo", "Monte Carlo"), 3)
    assert plain["Reallocate"][1] == 0

"""To Reign Supreme's choices and levels (issue 25; rulings R5 and R13).

Seeded self-play of the strongest level (Monte Carlo): issue 25 asks every action, purchase
and strategy card to be chosen in at least 5% of the situations where it is legal
(``bench/reign.py``'s :func:`choice_counts` says what a situation is). Edition 2 of the values
(Disband 2 coins per Military, Recruit up to 3) brought Disband and Recruit above it (edition
1: 3.5% and 1.9% of 100 Monte Carlo games per setup); edition 3 (the Apothecary defends 2,
Steady Advance 2, Raid 3) brings Reform above it (edition 2: 34 of 821 turns, 4.1%); edition 4
gives Recruit the seed's two amounts, read as 2 or 3 (R5): read as 1 or 2, Recruit fell to 38
of 1,797 turns (2.1%), as 2 or 3 it is chosen in 89 of 1,699 (5.2%; edition 3: 95 of 1,755).

Reallocate is rare by design (ruling R13): every value set that made it common made it the
first player's first-turn grab, so seat balance wins and it is not required to be chosen often.
One test checks that every other choice is made in 5% or more of its situations; another
builds a position by hand where a Reallocate looks tempting (the opponent Influences the best
cards, out of reach) and checks the strongest level weighs it and declines it, as played-out
games say it should (see that test). No position where it pays has been found to test the other
way (``bench/reign_reallocate_search.py``; the rules page's "Positions built to tempt it" has
the figures). And the strongest level beats Random in at least 95% of a few seeded games.

Why 100 games per setup (seeds 0 to 99, both processes of the machine, about a minute): Reform,
Recruit and Restructure are chosen in about 5-7% of their situations, and a small sample cannot
tell that from under 5%. Seeds 0 to 5 gave Restructure 4 of 123 (3.3%) and seeds 0 to 29 Reform
9 of 210 (4.3%), where seeds 0 to 99 give 132 of 1,957 (6.7%) and 43 of 698 (6.2%). The bench
measures the same over other seeds (``--choices``, ``--choices-seed``).
"""
from __future__ import annotations

import functools
import importlib.util
import sys
from pathlib import Path
from types import ModuleType

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


#: R13: Reallocate is rare by design (seat balance wins); it is not required to reach 5%
RARE_BY_DESIGN = {"Reallocate"}


@functools.cache
def _totals() -> dict[str, list[int]]:
    return BENCH.choices(None, "Monte Carlo", GAMES_PER_SETUP, 0, PROCS)


def _low() -> dict[str, str]:
    return {k: f"{c} of {n}" for k, (n, c, *_) in _totals().items() if c < 0.05 * n}


def test_every_choice_but_reallocate_is_made_by_the_strongest_level() -> None:
    r = GAME.rules
    expected = (
        set(BENCH.ACTION_KINDS.values())
        | {f"buy {k.name}" for k in r.kinds}
        | {f"card {c.name}" for c in r.cards}
    )
    assert set(_totals()) == expected  # every choice met its situation in these games
    low = _low()
    assert set(low) <= RARE_BY_DESIGN, f"chosen in under 5% of the situations where legal: {low}"
    # editions 1 (Disband, Recruit) and 2 (Reform) left these below 5%, and Recruit read as 1 or 2 (R5)
    for k in ("Disband", "Recruit", "Reform"):
        n, c, *_ = _totals()[k]
        assert c >= 0.05 * n, (k, c, n)


#: R13, a position built by hand (plain state data, Challenging setup): Ana (seat 0, to move,
#: 2 actions, Wealth 3, Military 12) Influences the Weapons Workshop and the Merchant Harbour on
#: her side; Ben Influences the Soldier Training Grounds and The Citadel in the middle, out of her
#: reach, and Controls the Iron Mine and the Agricultural Lands on his side. No battle or Reform
#: is open to either player next turn. Layout codes by place: w s m / h c a (data-file order:
#: w m s c a h, so the indices below).
TEMPTING = {
    "setup": "challenging", "names": ["Ana", "Ben"], "layout": [0, 2, 1, 5, 3, 4],
    "ladder": [2, 1, 0, 2, 1, 0],
    "players": [
        {"wealth": 3, "military": 12, "tracker": [3, 4], "hand": [0, 1, 2], "discard": []},
        {"wealth": 6, "military": 8, "tracker": [1, 3], "hand": [0, 2, 4], "discard": []},
    ],
    "phase": "turn", "active": 0, "turn": 5, "actions_left": 2, "fresh": [], "battle": None,
    "last": None, "winner": None, "fought": 0, "edition": 4,
}


def test_reallocate_is_weighed_and_declined_where_it_does_not_pay() -> None:
    """R13: the strongest level weighs Reallocate and plays it only where it pays.

    Here a Reallocate (2 coins, R5) brings the Training Grounds and The Citadel, better cards
    once Developed, to Ana's side and gives Ben the Workshop and the Harbour; she can then
    Develop one. It does not pay: played out with the Monte Carlo level on both sides (30 seeded
    games each, seeds 3,000 to 3,029), Ana won 30 after Developing both her own cards and 0 after
    Reallocate then Develop. A Reallocate only changes which card lies where among the
    Influenced places (holders, reach and battles stay), and Control now is worth more than
    a better card later. The level weighs the rearrangement and Develops instead (then attacks
    the middle card its new Control reaches).
    """
    from conquest.bots import run_thinking
    from conquest.games.reign.actions import Develop, Reallocate
    from conquest.games.reign.bots import Clock, MonteCarloBot, prune_reallocations
    from conquest.rng import Rng

    state = GAME.state_from_json(TEMPTING)
    grab = Reallocate("swmcha")  # the Grounds and The Citadel to Ana's side, Ben's cards to the middle
    assert grab in GAME.legal_actions(state) and grab in prune_reallocations(GAME, state, GAME.legal_actions(state))
    assert GAME.apply(state, grab).players[0].wealth == 3 - GAME.rules.reallocate.value
    bot = MonteCarloBot(Rng(1))
    grab_value = run_thinking(bot.action_value(GAME, state, 0, grab, Clock(), bot.lookahead))
    develop_value = run_thinking(bot.action_value(GAME, state, 0, Develop("h"), Clock(), bot.lookahead))
    assert develop_value > grab_value
    played = []
    s = state
    while s.phase == "turn" and s.active == 0:  # the level's turn (it Develops, then attacks from there)
        action = run_thinking(MonteCarloBot(Rng(1)).think(GAME, s))
        played.append(action)
        s = GAME.apply(s, action)
    assert isinstance(played[0], Develop) and not any(isinstance(a, Reallocate) for a in played), played


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


def test_the_bench_says_who_made_a_choice_and_when() -> None:
    """``choice_counts`` also counts, of each choice, how many were made on the game's first
    turn and how many by Player 1: a choice made only there would be a first mover's grab, not a
    choice of the game (R13; ``bench/reign_reallocate_trial.json`` holds values under which
    Reallocate is exactly that, a bench input: ``--values bench/reign_reallocate_trial.json``).
    In this seeded game (Easy, seed 3) Player 1's first turn Develops, and no one Reallocates."""
    counts = BENCH.choice_counts(GAME, "easy", ("Monte Carlo", "Monte Carlo"), 3)
    first = {k for k, (_, _, on_first, _) in counts.items() if on_first}
    assert "Develop" in first and "Reallocate" not in first
    for k in first:  # every choice of the first turn is Player 1's
        n, c, on_first, by_p1 = counts[k]
        assert on_first <= by_p1, k
    for k, (n, c, on_first, by_p1) in counts.items():
        assert 0 <= on_first <= c <= n and 0 <= by_p1 <= c, k
    assert counts["Reallocate"][0] > 0 and counts["Reallocate"][1] == 0  # legal, not chosen (R13)

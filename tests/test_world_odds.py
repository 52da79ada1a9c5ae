"""World Conquest's odds: the exact single-roll tables, the whole-battle calculator, and the
engine's dice checked against them by seeded sampling (deterministic, no wall time)."""

from __future__ import annotations

from fractions import Fraction
from itertools import product

import pytest
from test_world import ALASKA, KAMCHATKA, play, position

from conquest.games.world import GAME, odds
from conquest.games.world.actions import Roll
from conquest.games.world.odds import battle_odds, battle_summary, roll_counts, roll_odds, win_chance
from conquest.rng import Rng

#: every pairing of W6, by hand from the rules of comparison (the classic Risk table)
KNOWN = {
    (1, 1): {(0, 1): 15, (1, 0): 21},
    (1, 2): {(0, 1): 55, (1, 0): 161},
    (2, 1): {(0, 1): 125, (1, 0): 91},
    (2, 2): {(0, 2): 295, (1, 1): 420, (2, 0): 581},
    (3, 1): {(0, 1): 855, (1, 0): 441},
    (3, 2): {(0, 2): 2890, (1, 1): 2611, (2, 0): 2275},
}


@pytest.mark.parametrize(("a", "d"), sorted(KNOWN))
def test_single_roll_counts_for_every_pairing(a: int, d: int) -> None:
    assert dict(roll_counts(a, d)) == KNOWN[(a, d)]
    total = 6 ** (a + d)
    assert roll_odds(a, d) == {k: Fraction(c, total) for k, c in KNOWN[(a, d)].items()}
    assert sum(roll_odds(a, d).values()) == 1


def test_three_against_two_as_published() -> None:
    p = roll_odds(3, 2)
    assert p[(0, 2)] == Fraction(2890, 7776) and p[(1, 1)] == Fraction(2611, 7776) and p[(2, 0)] == Fraction(2275, 7776)
    assert odds.PAIRINGS == ((1, 1), (1, 2), (2, 1), (2, 2), (3, 1), (3, 2))
    with pytest.raises(ValueError, match="W6"):
        roll_counts(4, 2)


def test_expected_losses_in_units_of_7776() -> None:
    assert odds.UNIT == 7776
    assert odds.expected_units(3, 2) == (2611 + 2 * 2275, 2 * 2890 + 2611)
    assert odds.expected_units(1, 1) == (21 * 216, 15 * 216)


# -- the engine's dice against the table ---------------------------------------------------------
def _sample_rolls(count: int, seed: int) -> tuple[dict[tuple[int, int], int], list[int]]:
    """Draw ``count`` 3-against-2 rolls the way the driver does (ChanceSpec -> Rng -> chance_action)."""
    st = play(position(troops={ALASKA: 50, KAMCHATKA: 50}), "a0-29x3")
    spec = GAME.chance(st)
    assert spec is not None and spec.sizes == (6,) * 5
    rng = Rng(seed)
    outcomes: dict[tuple[int, int], int] = {}
    faces = [0] * 6
    for _ in range(count):
        roll = GAME.chance_action(st, rng.draw(spec.sizes))
        assert isinstance(roll, Roll)
        key = odds.compare(roll.attack, roll.defend)
        outcomes[key] = outcomes.get(key, 0) + 1
        for f in roll.attack + roll.defend:
            faces[f - 1] += 1
    return outcomes, faces


def test_sampled_dice_fit_the_exact_table_chi_square() -> None:
    n = 20_000
    outcomes, faces = _sample_rolls(n, seed=20261122)
    exact = roll_odds(3, 2)
    chi2 = sum((outcomes.get(k, 0) - n * float(p)) ** 2 / (n * float(p)) for k, p in exact.items())
    assert chi2 < 13.82  # 2 degrees of freedom, p = 0.001
    expected = 5 * n / 6
    chi2_faces = sum((f - expected) ** 2 / expected for f in faces)
    assert chi2_faces < 20.52  # 5 degrees of freedom, p = 0.001


# -- whole battles -----------------------------------------------------------------------------------
def test_small_battles_by_hand() -> None:
    # 2 troops (one die) against 1: a single 1-vs-1 roll
    assert battle_odds(2, 1).win == Fraction(15, 36)
    # 3 against 1: 2 dice (125/216); after a loss, 1 die with 2 troops (15/36)
    assert battle_odds(3, 1).win == Fraction(125, 216) + Fraction(91, 216) * Fraction(15, 36)
    # cannot attack: nothing happens
    b = battle_odds(1, 5)
    assert b.win == 0 and b.outcomes == ((1, 5, Fraction(1)),)


@pytest.mark.parametrize(("a", "d", "until"), [(10, 6, 1), (30, 30, 1), (12, 4, 5), (7, 9, 2), (100, 100, 1)])
def test_battle_distribution_is_a_distribution(a: int, d: int, until: int) -> None:
    b = battle_odds(a, d, until)
    assert sum(p for *_, p in b.outcomes) == 1
    assert sum(b.attacker_left.values()) == 1 and sum(b.defender_left.values()) == 1
    # a finished battle: the defender is gone, or the attacker stopped at ``until`` (or 1)
    assert all(dl == 0 or al == max(until, 1) for al, dl, _ in b.outcomes)
    assert all(al >= until for al, _, _ in b.outcomes)
    assert b.expected_attacker_losses == sum(p * (a - al) for al, _, p in b.outcomes)
    assert 0 <= b.win <= 1 and b.to_json()["win"] == pytest.approx(float(b.win))


def test_float_tables_agree_with_the_exact_calculator() -> None:
    for a, d, until in product(range(1, 16), range(1, 12), (1, 2, 4)):
        exact = battle_odds(a, d, until)
        w, left_win, left_lose = battle_summary(a, d, until)
        assert win_chance(a, d, until) == pytest.approx(float(exact.win), abs=1e-12)
        assert w == pytest.approx(float(exact.win), abs=1e-12)
        if exact.win:
            mean = sum(p * al for al, dl, p in exact.outcomes if dl == 0) / exact.win
            assert left_win == pytest.approx(float(mean), abs=1e-9)
        if exact.win < 1:
            mean = sum(p * dl for _, dl, p in exact.outcomes if dl > 0) / (1 - exact.win)
            assert left_lose == pytest.approx(float(mean), abs=1e-9)


@pytest.mark.parametrize(("a", "d", "until"), [(10, 6, 1), (8, 5, 3)])
def test_battle_odds_match_a_seeded_simulation_through_the_engine(a: int, d: int, until: int) -> None:
    """Attack until done through the engine 3000 times: the share of won battles lies within
    4 standard errors of the exact chance, and so does the mean number of attackers left."""
    start = position(troops={ALASKA: a, KAMCHATKA: d})
    action = f"b0-29u{until}" if until > 1 else "b0-29"
    rng = Rng(a * 1000 + d * 10 + until)
    runs, wins, left = 3000, 0, 0
    for _ in range(runs):
        st = play(start, action)
        while (spec := GAME.chance(st)) is not None:
            st = GAME.apply(st, GAME.chance_action(st, rng.draw(spec.sizes)))
        won = st.owner[KAMCHATKA] == 0
        wins += won
        left += st.troops[ALASKA] + (st.troops[KAMCHATKA] if won else 0)
    exact = battle_odds(a, d, until)
    p = float(exact.win)
    assert abs(wins / runs - p) < 4 * (p * (1 - p) / runs) ** 0.5
    mean = float(sum(pr * al for al, _, pr in exact.outcomes))
    var = float(sum(pr * al * al for al, _, pr in exact.outcomes)) - mean**2
    assert abs(left / runs - mean) < 4 * (var / runs) ** 0.5


def test_bad_battles_are_refused() -> None:
    for args in [(0, 3), (3, 0), (5, 5, 0), (True, 3), (1001, 1)]:
        with pytest.raises(ValueError):
            battle_odds(*args)
    with pytest.raises(ValueError, match="W6"):
        battle_odds(5, 5, 1, 4)


def test_float_tables_scale_huge_battles() -> None:
    # beyond FLOAT_CAP troops a side the floats scale the battle down: still a probability,
    # still on the right side of an even fight
    assert 0.5 < win_chance(900, 600) <= 1.0
    assert 0.0 <= win_chance(600, 900) < 0.5
    w, s, r = battle_summary(900, 600)
    assert 0 < s <= 900 and 0 < r <= 600

"""The shared core: RNG and chance draws, the registry, the match driver."""
from __future__ import annotations

import pytest

from conquest.core import Game, IllegalAction, InvalidAction, games, get_game
from conquest.rng import Rng, apply_shuffle


def test_seeded_rng_is_reproducible() -> None:
    assert Rng(3).draw([6, 6, 6, 100]) == Rng(3).draw([6, 6, 6, 100])
    r = Rng(None)
    assert all(0 <= v < 6 for v in r.draw([6] * 50))
    with pytest.raises(ValueError):
        r.below(0)


def test_shuffle_draws_make_a_permutation() -> None:
    items = list(range(10))
    draws = Rng(1).shuffle_indices(10)
    assert len(draws) == 9
    assert sorted(apply_shuffle(items, draws)) == items
    with pytest.raises(ValueError):
        apply_shuffle(items, draws[:-1])
    with pytest.raises(ValueError):
        apply_shuffle(items, (99,) * 9)


def test_shuffle_is_uniform_enough() -> None:
    counts: dict[tuple[object, ...], int] = {}
    rng = Rng(11)
    for _ in range(6000):
        perm = tuple(apply_shuffle("abc", rng.shuffle_indices(3)))
        counts[perm] = counts.get(perm, 0) + 1
    assert len(counts) == 6
    assert all(800 < c < 1200 for c in counts.values())


def test_registry_lists_games_in_order() -> None:
    reg = games()
    assert list(reg) == sorted(reg)
    for gid, game in reg.items():
        assert isinstance(game, Game) and game.id == gid and game.title
        assert get_game(gid) is game
    with pytest.raises(KeyError):
        get_game("no-such-game")


def test_errors_are_value_errors_with_codes() -> None:
    for cls in (InvalidAction, IllegalAction):
        err = cls("code.x", "M7: refused")
        assert isinstance(err, ValueError)
        assert err.to_json() == {"kind": cls.__name__, "code": "code.x", "message": "M7: refused"}

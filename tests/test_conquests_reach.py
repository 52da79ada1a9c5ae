"""The play page's "squares this fighter can reach" (rules.reach) agrees with the move generator."""
from __future__ import annotations

from conquest.games.conquests import GAME, position_from_text
from conquest.games.conquests import rules as R
from conquest.games.conquests.ai import random_action
from conquest.rng import Rng


def test_reach_is_the_move_tables_targets_for_both_sides() -> None:
    rng = Rng(5)
    state = GAME.new_game({}, 0)
    for _ in range(60):
        if GAME.outcome(state) is not None:
            break
        for side in (0, 1):
            pseudo = R.pseudo_moves(state.board, side)
            for sq, p in enumerate(state.board):
                if p and R.owner_of(p) == side:
                    assert R.reach(state.board, sq) == sorted(t for s, t in pseudo if s == sq)
        state = GAME.apply(state, random_action(state, rng))


def test_reach_of_an_empty_square_and_a_blocked_slide() -> None:
    state = position_from_text("2g3/6/6/2L++3/2S3/2G3 - b 0 1")  # Black to move, in Danger
    assert R.reach(state.board, R.parse_square("d4")) == []
    # a level-3 Lancer on c3 slides orthogonally: up to c6, the first enemy on the file (Black's
    # General: that is the Danger), not down through its own Soldier
    reach = [R.square_name(t) for t in R.reach(state.board, R.parse_square("c3"))]
    assert "c2" not in reach and "c6" in reach and {"a3", "f3", "c4", "c5"} <= set(reach)

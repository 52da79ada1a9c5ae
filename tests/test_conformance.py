"""One conformance test over every registered game (design.md, "How we test").

Seeded random playouts through the match driver check the protocol itself: terminal means
no legal actions, states round-trip through JSON, saves round-trip through links, replaying
a log gives the same state, action texts round-trip, views are JSON, and a refused action
leaves the state as it was.
"""
from __future__ import annotations

import copy
import json

import pytest

from conquest.core import GameError, games
from conquest.rng import Rng
from conquest.savecode import decode_save, encode_save
from conquest.session import Match, replay

MAX_STEPS = 300
SEEDS = [1, 2, 3]


@pytest.mark.parametrize("seed", SEEDS)
@pytest.mark.parametrize("game_id", sorted(games()))
def test_random_playout_conforms(game_id: str, seed: int) -> None:
    game = games()[game_id]
    rng = Rng(seed)
    match = Match(game, game.default_options(), rng=rng)
    match.resolve_chance()
    for step in range(MAX_STEPS):  # noqa: B007 - step names the failing step
        state = match.state
        before = copy.deepcopy(game.state_to_json(state))
        # JSON round trip of the state
        encoded = json.loads(json.dumps(game.state_to_json(state)))
        assert game.state_from_json(encoded) == state
        # views are JSON for every seat and for spectators
        for seat in [None, *range(game.max_players)]:
            json.dumps(game.view(state, seat))
        actions = game.legal_actions(state)
        outcome = game.outcome(state)
        assert (outcome is None) == bool(actions or game.chance(state)), (
            f"{game_id}: terminal must mean no legal actions (step {step})"
        )
        if outcome is not None:
            break
        assert actions == game.legal_actions(state), "legal actions must come in a stable order"
        for a in actions:
            assert game.parse_action(game.format_action(a)) == a
        # a refused action changes nothing
        n_states, n_log = len(match.states), len(match.log)
        for bad in ("", "nonsense-action 99 99", "\x00"):
            with pytest.raises(GameError):
                match.play(bad)
        assert game.state_to_json(match.state) == before
        assert (len(match.states), len(match.log)) == (n_states, n_log)
        match.play(actions[rng.below(len(actions))])
    # the whole save through a link, then replay
    save = match.save().to_json()
    again = replay(decode_save(encode_save(save)))
    assert again.state == match.state
    assert again.log == match.log


def test_every_game_has_a_rules_prefix_and_title() -> None:
    for game in games().values():
        assert game.title and game.ruling_prefix, game.id

"""Computer players, generic over games, and a driver that plays whole matches with them.

Why generic: the conformance test, the benchmarks and the pages' "bot" seats all need a
player for any registered game. A bot only sees the engine protocol
(:class:`conquest.core.Game`): it picks one of ``legal_actions``. All its randomness goes
through a :class:`conquest.rng.Rng`, so a seeded match replays exactly.

Game-specific bots live in modules next to this one (``metagame_greedy`` ...).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any, Protocol

from conquest.core import Game
from conquest.rng import Rng
from conquest.session import Match

__all__ = ["Bot", "RandomBot", "play_match"]


class Bot(Protocol):
    """Anything that picks an action for the seat to move."""

    def choose(self, game: Game[Any, Any], state: Any) -> Any: ...


class RandomBot:
    """Uniform over ``legal_actions``: the baseline and the conformance test's player."""

    def __init__(self, rng: Rng | None = None) -> None:
        self.rng = rng if rng is not None else Rng(None)

    def choose(self, game: Game[Any, Any], state: Any) -> Any:
        actions = game.legal_actions(state)
        if not actions:
            raise ValueError("no legal action to choose from")
        return actions[self.rng.below(len(actions))]


def play_match(
    game: Game[Any, Any] | str,
    options: Mapping[str, Any] | None,
    bots: Sequence[Bot] | Callable[[int], Bot],
    rng: Rng,
    max_actions: int = 10_000,
    on_step: Callable[[Match], None] | None = None,
) -> Match:
    """Play until the end or ``max_actions`` player actions; chance steps use ``rng``.

    ``bots`` is one bot per seat, or a function from seat to bot. A game whose
    ``to_move`` is None outside chance and the end is driven by seat 0.
    """
    match = Match(game, options, rng=rng)
    match.resolve_chance()
    pick = bots if callable(bots) else (lambda seat: bots[seat % len(bots)])
    played = 0
    while played < max_actions and match.outcome() is None:
        state = match.state
        if not match.game.legal_actions(state):
            break
        seat = match.game.to_move(state)
        action = pick(0 if seat is None else seat).choose(match.game, state)
        match.play(action)
        played += 1
        if on_step is not None:
            on_step(match)
    return match

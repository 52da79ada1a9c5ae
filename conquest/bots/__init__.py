"""Computer players, generic over games, and a driver that plays whole matches with them.

Why generic: the conformance test, the benchmarks and the pages' "bot" seats all need a
player for any registered game. A bot only sees the engine protocol
(:class:`conquest.core.Game`): it picks one of ``legal_actions``. All its randomness goes
through a :class:`conquest.rng.Rng`, so a seeded match replays exactly.

Game-specific bots live in modules next to this one (``metagame_greedy`` ...).
"""

from __future__ import annotations

from collections.abc import Callable, Generator, Mapping, Sequence
from typing import Any

from conquest.core import Game
from conquest.rng import Rng
from conquest.session import Match

__all__ = ["Bot", "RandomBot", "levels", "play_match", "run_thinking"]


class Bot:
    """A computer player. Subclasses override ``think`` (sliced) or ``choose`` (at once).

    ``think`` is a generator that yields (``None``) every few milliseconds of work and
    returns the action: the page's bot runner drives it in slices so the page keeps
    answering clicks, shows that the bot is thinking, and can stop it. ``choose`` runs the
    same thinking to the end, for tests, benchmarks and the CPython match driver.
    ``think_secret`` picks this seat's part at a simultaneous secret step
    (``Game.simultaneous``) from its own view only.
    """

    def __init__(self, rng: Rng | None = None) -> None:
        self.rng = rng if rng is not None else Rng(None)

    def think(self, game: Game[Any, Any], state: Any) -> Generator[None, None, Any]:
        if type(self).choose is Bot.choose:
            raise NotImplementedError(f"{type(self).__name__} overrides neither think nor choose")
        return self.choose(game, state)
        yield  # pragma: no cover - makes this a generator

    def choose(self, game: Game[Any, Any], state: Any) -> Any:
        return run_thinking(self.think(game, state))

    def think_secret(self, game: Game[Any, Any], state: Any, seat: int) -> Generator[None, None, Any]:
        parts = game.secret_choices(state, seat)
        if not parts:
            raise ValueError(f"seat {seat} has no secret choice to make")
        return parts[self.rng.below(len(parts))]
        yield  # pragma: no cover - makes this a generator

    def choose_secret(self, game: Game[Any, Any], state: Any, seat: int) -> Any:
        return run_thinking(self.think_secret(game, state, seat))


def run_thinking(thinking: Generator[None, None, Any]) -> Any:
    """Drive a bot's thinking to its end and return what it chose."""
    while True:
        try:
            next(thinking)
        except StopIteration as stop:
            return stop.value


class RandomBot(Bot):
    """Uniform over ``legal_actions``: the baseline and the conformance test's player."""

    def choose(self, game: Game[Any, Any], state: Any) -> Any:
        actions = game.legal_actions(state)
        if not actions:
            raise ValueError("no legal action to choose from")
        return actions[self.rng.below(len(actions))]


def levels(game: Game[Any, Any]) -> dict[str, Callable[[Rng], Bot]]:
    """The computer players a set-up offers for ``game``: its own, or a random one."""
    return dict(game.bot_levels()) or {"Random": RandomBot}


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
        secret = match.game.simultaneous(state)
        if secret:
            parts = {s: pick(s).choose_secret(match.game, state, s) for s in secret}
            action = match.game.join_secret(state, parts)
        else:
            seat = match.game.to_move(state)
            action = pick(0 if seat is None else seat).choose(match.game, state)
        match.play(action)
        played += 1
        if on_step is not None:
            on_step(match)
    return match

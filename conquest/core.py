"""The engine protocol every game follows, its errors, and the registry of games.

Why one protocol: the site, the save links, the conformance test and the bots all drive
every game the same way, so a new game is one engine module, one data file and one
template, nothing else touched.

A game is an instance of a :class:`Game` subclass exposed as ``GAME`` by a module or
package under :mod:`conquest.games`. The registry finds it by itself.

The protocol (see ``shared/spec/design.md``):

- ``new_game(options, seed) -> state``: ``options`` is a plain JSON dict, already
  normalised by ``normalize_options``; ``seed`` drives only set-up randomness that every
  player may see anyway (it is stored in the save).
- ``legal_actions(state) -> list[Action]`` in a stable order; empty at a chance step and
  at the end.
- ``apply(state, action) -> state``: pure, never mutates its input. Raises
  :class:`InvalidAction` or :class:`IllegalAction`; then nothing changed.
- ``chance(state) -> ChanceSpec | None``: when the game waits for dice, a shuffle or a
  spin, what must be drawn. The driver (:mod:`conquest.session`) draws it with
  :mod:`conquest.rng` and applies the resulting chance action, which goes into the log
  like any other action. So replay is exact and a link never predicts the next roll.
- ``outcome(state) -> Outcome | None``: ``None`` while the game goes on.
- ``view(state, player) -> dict``: JSON for that seat, hidden information stripped
  (``player=None`` is a spectator).
- ``to_move(state) -> int | None``: the seat expected to act (``None`` at chance/end).
- ``parse_action(text) -> Action`` and ``str(action)``: the canonical text, round-trips.
- ``state_to_json(state) -> dict`` / ``state_from_json(obj) -> state``: round-trips.
"""
from __future__ import annotations

import importlib
import pkgutil
from abc import ABC, abstractmethod
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Generic, TypeVar

from conquest.catalog import GameFacts, facts

__all__ = [
    "ConquestError",
    "GameError",
    "InvalidAction",
    "IllegalAction",
    "InvalidOptions",
    "ChanceSpec",
    "Outcome",
    "Game",
    "games",
    "get_game",
]


class ConquestError(Exception):
    """Every refusal in the project: a stable ``code`` for programs, a message for people.

    Shared by the engines (:class:`GameError`), links (``SaveCodeError``) and storage
    (``StorageError``), so the page shows any of them the same way.
    """

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message

    def __str__(self) -> str:
        return self.message

    def to_json(self) -> dict[str, str]:
        return {"kind": type(self).__name__, "code": self.code, "message": self.message}


class GameError(ConquestError, ValueError):
    """Base of the engine's refusals."""


class InvalidAction(GameError):
    """The action text or value is malformed: it could never be legal."""


class IllegalAction(GameError):
    """The action is well formed but not allowed now; the message cites the ruling."""


class InvalidOptions(GameError):
    """The options given to ``new_game`` are not acceptable."""


@dataclass(frozen=True)
class ChanceSpec:
    """What the game waits for: ``sizes`` is one integer per value to draw.

    Each value is drawn uniformly in ``range(size)``: dice are ``(6, 6, 6)``, a wheel of X
    slices is ``(X,)``, a Fisher-Yates shuffle of n items is ``(n, n-1, ..., 2)``. The game
    turns the drawn values into its own chance action with ``chance_action``.
    """

    kind: str
    sizes: tuple[int, ...]


@dataclass(frozen=True)
class Outcome:
    """The end of a game: ``winners`` are seat numbers (several for a shared win)."""

    winners: tuple[int, ...]
    reason: str
    scores: tuple[float, ...] = field(default=())

    def to_json(self) -> dict[str, Any]:
        return {"winners": list(self.winners), "reason": self.reason, "scores": list(self.scores)}


S = TypeVar("S")
A = TypeVar("A")


class Game(ABC, Generic[S, A]):
    """One game's rules. Subclasses are stateless: all state is in the state values."""

    #: stable identifier used in saves, links, URLs and the registry; the game's facts
    #: (title, seats, rulings prefix) are read from ``conquest/data/<id>.json`` by id
    id: str = ""

    @property
    def facts(self) -> GameFacts:
        """The game's facts, declared once in its data file (see :mod:`conquest.catalog`)."""
        return facts(self.id)

    @property
    def title(self) -> str:
        return self.facts.title

    @property
    def min_players(self) -> int:
        return self.facts.min_seats

    @property
    def max_players(self) -> int:
        return self.facts.max_seats

    @property
    def ruling_prefix(self) -> str:
        return self.facts.ruling_prefix

    # -- set-up -----------------------------------------------------------------------
    def normalize_options(self, options: Mapping[str, Any] | None) -> dict[str, Any]:
        """Check options and fill defaults; raise :class:`InvalidOptions`. Must be idempotent."""
        return dict(options or {})

    def default_options(self) -> dict[str, Any]:
        return self.normalize_options({})

    @abstractmethod
    def new_game(self, options: Mapping[str, Any], seed: int) -> S: ...

    # -- play -------------------------------------------------------------------------
    @abstractmethod
    def legal_actions(self, state: S) -> list[A]: ...

    @abstractmethod
    def apply(self, state: S, action: A) -> S: ...

    @abstractmethod
    def outcome(self, state: S) -> Outcome | None: ...

    @abstractmethod
    def to_move(self, state: S) -> int | None: ...

    def chance(self, state: S) -> ChanceSpec | None:
        """Games without chance never wait for a draw."""
        return None

    def chance_action(self, state: S, values: Sequence[int]) -> A:
        raise NotImplementedError(f"{self.id} has no chance steps")

    def chance_result_type(self, state: S, spec: ChanceSpec) -> type | None:
        """The class of the action that answers the pending draw ``spec`` (None: unknown).

        Replay asks this of every logged draw (a log may not skip one). The default builds a
        result; a game whose results are costly to build says the class directly.
        """
        try:
            return type(self.chance_action(state, [0] * len(spec.sizes)))
        except GameError:
            return None  # the engine alone decides

    @abstractmethod
    def view(self, state: S, player: int | None) -> dict[str, Any]: ...

    # -- text forms -------------------------------------------------------------------
    @abstractmethod
    def parse_action(self, text: str) -> A: ...

    def format_action(self, action: A) -> str:
        return str(action)

    def describe_action(self, state: S, action: A) -> str:
        """Plain words for the log shown to people; defaults to the canonical text."""
        return self.format_action(action)

    @abstractmethod
    def state_to_json(self, state: S) -> dict[str, Any]: ...

    @abstractmethod
    def state_from_json(self, obj: Mapping[str, Any]) -> S: ...

    # -- what the shared page shell asks of every game ------------------------------------
    #: True when ``view`` differs between seats (hands, secret picks): on one shared device
    #: the shell then hides the board behind a pass-the-device screen between seats.
    hidden_information: bool = False

    def stats(self, state: S) -> dict[str, list[float]]:
        """Per-seat numbers the shell charts over time, e.g. ``{"Territories": [...]}``.

        One list per named number, one value per seat. Computed from the state alone, so a
        chart is a replay of the log.
        """
        return {}

    def simultaneous(self, state: S) -> tuple[int, ...]:
        """Seats that must each choose in secret now (a battle's cards, a quiz's answers).

        Empty when the next step is an ordinary one. While it is not empty, each seat's
        part comes from ``secret_choices``; the shell keeps the parts in the page (never in
        a save, link or view) and applies ``join_secret(state, parts)`` as one logged step,
        the reveal. ``legal_actions`` then lists joint actions (or, where parts are
        open-ended like a guess, a representative finite set of them).
        """
        return ()

    def secret_choices(self, state: S, seat: int) -> list[Any]:
        """The parts ``seat`` may choose at a simultaneous step (what its controls offer)."""
        return []

    def join_secret(self, state: S, parts: Mapping[int, Any]) -> A:
        """One action from every secret part; raises IllegalAction for a part not allowed."""
        raise NotImplementedError(f"{self.id} has no simultaneous steps")

    def bot_levels(self) -> dict[str, Callable[[Any], Any]]:
        """The game's own computer players, weakest first: ``{level name: factory(rng) -> Bot}``.

        Empty by default; :func:`conquest.bots.levels` adds a random player for every game,
        so the set-up always offers at least one (see :mod:`conquest.bots`).
        """
        return {}

    def rules_tables(self) -> dict[str, dict[str, Any]]:
        """Tables for the rules page, built from the game's data file.

        ``{name: {"caption": str, "head": [str, ...], "rows": [[cell, ...], ...]}}``; the
        rules text places one with the marker ``[[table:<game id>:<name>]]``. Data, not
        markup: build.py renders and escapes it, so the numbers have one owner.
        """
        return {}

    # -- helpers shared by all games ----------------------------------------------------
    def is_terminal(self, state: S) -> bool:
        return self.outcome(state) is not None

    def check_legal(self, state: S, action: A, code: str, message: str) -> None:
        """Raise IllegalAction unless ``action`` is among the legal actions."""
        if action not in self.legal_actions(state):
            raise IllegalAction(code, message)


_REGISTRY: dict[str, Game[Any, Any]] | None = None


def games() -> dict[str, Game[Any, Any]]:
    """All games under :mod:`conquest.games`, by id, in a stable (sorted) order.

    Discovery instead of a hand-kept list: adding a game touches no other file.
    """
    global _REGISTRY
    if _REGISTRY is None:
        import conquest.games as pkg

        found: dict[str, Game[Any, Any]] = {}
        for info in sorted(pkgutil.iter_modules(pkg.__path__), key=lambda i: i.name):
            if info.name.startswith("_"):
                continue
            module = importlib.import_module(f"{pkg.__name__}.{info.name}")
            game = getattr(module, "GAME", None)
            if isinstance(game, Game):
                if game.id in found:
                    raise RuntimeError(f"two games share the id {game.id!r}")
                found[game.id] = game
        _REGISTRY = dict(sorted(found.items()))
    return _REGISTRY


def get_game(game_id: str) -> Game[Any, Any]:
    """One game by id, importing only that game's module when the registry is not built.

    Why the fast path: a page that opens one game should not pay for importing all five.
    """
    if _REGISTRY is None and isinstance(game_id, str) and game_id.isidentifier():
        try:
            module = importlib.import_module(f"conquest.games.{game_id}")
        except ModuleNotFoundError as exc:
            if exc.name != f"conquest.games.{game_id}":
                raise
        else:
            game = getattr(module, "GAME", None)
            if isinstance(game, Game) and game.id == game_id:
                return game
    try:
        return games()[game_id]
    except KeyError:
        raise KeyError(f"unknown game {game_id!r}") from None

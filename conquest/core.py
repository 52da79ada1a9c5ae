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
  spin, what must be drawn. The driver (:mod:`conquest.session`) draws it by the rule of
  :mod:`conquest.draws` (the host's sealed chain and a contribution, so anyone can
  recompute it) and applies the resulting chance action, which goes into the log like any
  other action. So replay is exact and a link never predicts the next roll.
- ``outcome(state) -> Outcome | None``: ``None`` while the game goes on.
- ``view(state, player) -> dict``: JSON for that seat, hidden information stripped
  (``player=None`` is a spectator).
- ``to_move(state) -> int | None``: the seat expected to act (``None`` at chance/end).
- ``parse_action(text) -> Action`` and ``str(action)``: the canonical text, round-trips.
- ``state_to_json(state) -> dict`` / ``state_from_json(obj) -> state``: round-trips.
"""
from __future__ import annotations

import functools
import importlib
import pkgutil
from abc import ABC, abstractmethod
from collections.abc import Callable, Iterator, Mapping, Sequence
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
    "OptionsSchema",
    "excerpt",
    "Outcome",
    "Game",
    "games",
    "get_game",
    "VIEWER_KEYS",
    "private_items",
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

#: the most characters of untrusted text a message quotes (see :func:`excerpt`)
EXCERPT_CHARS = 60


def excerpt(text: object, limit: int = EXCERPT_CHARS) -> str:
    """A short, escaped excerpt of untrusted text for messages: repr-quoted, at most ``limit`` characters.

    Why: refusals are shown on pages and terminals; a crafted link's megabytes, control
    characters or right-to-left overrides must not travel with them. ``repr`` escapes every
    character Python does not consider printable. The one excerpt helper of the project
    (:mod:`conquest.session` re-exports it): every refusal quotes raw input through it.
    """
    if isinstance(text, int) and not isinstance(text, bool) and text.bit_length() > 64:
        return f"a number of about {int(text.bit_length() * 0.30103) + 1:,} digits"
    if isinstance(text, (list, tuple, dict, set, frozenset)) and len(text) > limit:
        return f"a {type(text).__name__} of {len(text):,} items"
    s = text if isinstance(text, str) else str(text)
    shown = s[:limit]
    quoted = repr(shown)
    if len(quoted) > limit + 2:  # escapes (\u202e is six characters) count against the limit too
        width = 0
        for end, ch in enumerate(shown):
            width += len(repr(ch)) - 2
            if width > limit:
                shown = shown[:end]
                break
        quoted = repr(shown)
    if len(shown) < len(s):
        return quoted + f"… ({len(s):,} characters)"
    return quoted


# ------------------------------------------------------------------------------------------
# options schemas: type and range checked before any game builds anything from its options
# ------------------------------------------------------------------------------------------
def _type_name(value: Any) -> str:
    if value is None:
        return "nothing (null)"
    if isinstance(value, bool):
        return "true or false"
    if isinstance(value, int):
        return "a whole number"
    if isinstance(value, float):
        return "a number"
    if isinstance(value, str):
        return "text"
    if isinstance(value, list):
        return "a list"
    if isinstance(value, Mapping):
        return "an object"
    return type(value).__name__


def _describe_schema(schema: Mapping[str, Any], bounds: Callable[[Any], int]) -> str:
    if "any" in schema:
        alts = [alt for alt in schema["any"] if "null" not in alt] or schema["any"]
        return " or ".join(_describe_schema(alt, bounds) for alt in alts)
    if "null" in schema:
        return "nothing (null)"
    if "bool" in schema:
        return "true or false"
    if "int" in schema:
        lo, hi = (bounds(b) for b in schema["int"])
        return f"a whole number {lo:,} to {hi:,}"
    if "number" in schema:
        return "a number"
    if "text" in schema:
        return f"text of at most {schema['text']:,} characters"
    if "list" in schema:
        lo, hi = (bounds(b) for b in schema["list"])
        return f"a list of {lo:,} to {hi:,} items" if lo != hi else f"a list of {lo:,} items"
    if "object" in schema:
        return "an object"
    return "plain data"


class OptionsSchema:
    """A game's options, declared as data under ``"options_schema"`` in its data file.

    Why: the options come from links and files, and an engine that builds something from
    them first (a list of a billion seats, issue 20 item 1; a map whose territories are a
    number, item 5) fails with MemoryError or TypeError before its own checks. So every
    option's type and range is checked here, by the protocol, before ``normalize_options``
    runs (see :meth:`Game.__init_subclass__`), for every game the same way; an engine's own
    checks then see only values of the declared shape. The schema is coarse on purpose
    (types, ranges, sizes); the rules' exact checks stay in the engines.

    A schema is one object per value: ``{"int": [lo, hi]}`` (a bound may be ``"min_seats"``
    or ``"max_seats"``, the game's facts), ``{"number": true}``, ``{"bool": true}``,
    ``{"null": true}``, ``{"text": max_chars}``, ``{"list": [lo, hi], "of": schema}``,
    ``{"object": {key: schema}, "open": bool}`` (``open``: other keys hold any plain data),
    ``{"any": [schema, ...]}``, ``{"json": true}`` (any plain data), ``{"ref": name}`` (a
    schema under ``"defs"``). The whole: ``{"keys": {option: schema}, "defs": {...}}``; an
    option's schema may name the ruling its refusal cites (``"rule": "W2"``).
    """

    def __init__(self, game: Game[Any, Any], spec: Mapping[str, Any]) -> None:
        self.game = game
        self.keys: Mapping[str, Any] = spec.get("keys", {})
        self.defs: Mapping[str, Any] = spec.get("defs", {})

    def _bound(self, b: Any) -> int:
        if b == "min_seats":
            return self.game.min_players
        if b == "max_seats":
            return self.game.max_players
        return int(b)

    def _fail(self, path: str, value: Any, schema: Mapping[str, Any]) -> InvalidOptions:
        key = path.split(".")[0].split("[")[0]
        want = _describe_schema(self._resolve(schema), self._bound)
        if isinstance(value, str):
            shown = excerpt(value, 30)
        elif isinstance(value, (int, float)) and not isinstance(value, bool):
            shown = excerpt(value, 30)[1:-1] if abs(value) < 2**64 else excerpt(value)
        elif isinstance(value, (list, tuple)):
            shown = f"a list of {len(value):,} items"
        else:
            shown = _type_name(value)
        rule = self.keys.get(key, {}).get("rule")
        return InvalidOptions(
            f"options.{key}", f"{rule + ': ' if rule else ''}the option {path} must be {want}, not {shown}"
        )

    def _resolve(self, schema: Mapping[str, Any]) -> Mapping[str, Any]:
        while "ref" in schema:
            schema = self.defs[schema["ref"]]
        return schema

    def matches(self, value: Any, schema: Mapping[str, Any]) -> bool:
        try:
            self.check_value(value, schema, "")
        except InvalidOptions:
            return False
        return True

    def check_value(self, value: Any, schema: Mapping[str, Any], path: str) -> None:
        schema = self._resolve(schema)
        if "rule" in schema and len(schema) == 1:
            raise ValueError(f"{self.game.id}: an options schema with a rule but no type")
        if "any" in schema:
            for alt in schema["any"]:
                if self.matches(value, alt):
                    return
            # the message of the alternative of the same type, else the whole choice
            same = [a for a in schema["any"] if self._same_kind(value, self._resolve(a))]
            if len(same) == 1:
                self.check_value(value, same[0], path)
            raise self._fail(path, value, schema)
        if "json" in schema:
            return
        if "null" in schema:
            if value is not None:
                raise self._fail(path, value, schema)
            return
        if "bool" in schema:
            if not isinstance(value, bool):
                raise self._fail(path, value, schema)
            return
        if "int" in schema:
            lo, hi = (self._bound(b) for b in schema["int"])
            if isinstance(value, bool) or not isinstance(value, int) or not lo <= value <= hi:
                raise self._fail(path, value, schema)
            return
        if "number" in schema:
            if isinstance(value, bool) or not isinstance(value, (int, float)):
                raise self._fail(path, value, schema)
            return
        if "text" in schema:
            if not isinstance(value, str) or len(value) > schema["text"]:
                raise self._fail(path, value, schema)
            return
        if "list" in schema:
            lo, hi = (self._bound(b) for b in schema["list"])
            if not isinstance(value, (list, tuple)) or not lo <= len(value) <= hi:
                raise self._fail(path, value, schema)
            for i, item in enumerate(value):
                self.check_value(item, schema["of"], f"{path}[{i}]")
            return
        if "object" in schema:
            if not isinstance(value, Mapping):
                raise self._fail(path, value, schema)
            self.check_keys(value, schema["object"], path, open_=bool(schema.get("open")))
            return
        raise ValueError(f"{self.game.id}: unknown options schema {dict(schema)!r}")

    @staticmethod
    def _same_kind(value: Any, schema: Mapping[str, Any]) -> bool:
        kinds = {"list": (list, tuple), "object": (Mapping,), "text": (str,)}
        return any(k in schema and isinstance(value, t) for k, t in kinds.items())

    def check_keys(self, obj: Mapping[str, Any], keys: Mapping[str, Any], path: str, open_: bool = False) -> None:
        where = f" in {path}" if path else ""
        if not open_:
            unknown = [k for k in obj if k not in keys]
            if unknown:
                shown = ", ".join(excerpt(k, 30) for k in unknown[:3]) + (", …" if len(unknown) > 3 else "")
                raise InvalidOptions(
                    "options.unknown",
                    f"{self.game.title} has no option{'s' if len(unknown) > 1 else ''} {shown}{where}",
                )
        for key, sub in keys.items():
            if key in obj:
                self.check_value(obj[key], sub, f"{path}.{key}" if path else key)

    def check(self, options: Any) -> None:
        """Raise :class:`InvalidOptions` unless ``options`` fit the schema; builds nothing."""
        if options is None:
            return
        if not isinstance(options, Mapping):
            raise InvalidOptions("options", f"{self.game.title}: the options must be an object, not {_type_name(options)}")
        self.check_keys(options, self.keys, "")


def _checked_normalize(normalize: Callable[..., dict[str, Any]]) -> Callable[..., dict[str, Any]]:
    """``normalize_options`` behind the game's options schema (see :class:`OptionsSchema`)."""

    @functools.wraps(normalize)
    def checked(self: Game[Any, Any], options: Mapping[str, Any] | None) -> dict[str, Any]:
        schema = self.options_schema
        if schema is not None:
            schema.check(options)
        return normalize(self, options)

    checked.__schema_checked__ = True  # type: ignore[attr-defined]
    return checked


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
    def __init_subclass__(cls, **kwargs: Any) -> None:
        """Every game's ``normalize_options`` first checks its options schema: the one
        place where options are checked for type and range (issue 20, item 1), whichever
        caller (a link, a file, the set-up page, ``new_game`` itself) normalises them."""
        super().__init_subclass__(**kwargs)
        own = cls.__dict__.get("normalize_options")
        if own is not None and not getattr(own, "__schema_checked__", False):
            cls.normalize_options = _checked_normalize(own)  # type: ignore[method-assign]

    @property
    def options_schema(self) -> OptionsSchema | None:
        """The game's options schema, from ``"options_schema"`` in its data file (cached).

        None only for a game without a data file (a test's own game); every registered game
        declares one (tests/test_hardening_options.py)."""
        if "_options_schema" not in self.__dict__:
            from conquest.catalog import CatalogError, load_data

            try:
                spec = load_data(self.id).get("options_schema")
            except CatalogError:
                spec = None
            self.__dict__["_options_schema"] = OptionsSchema(self, spec) if isinstance(spec, Mapping) else None
        return self.__dict__["_options_schema"]

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
    #: True when ``view`` may differ between seats (hands, secret picks): the shell then
    #: draws a seat's own view for the person who took the device for it. Whether a
    #: pass-the-device screen is asked is decided from the views themselves at that moment
    #: (:func:`private_items`), never from this flag.
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

    # -- live play across devices (issue 22) ----------------------------------------------
    def redact(self, state: S, seat: int | None) -> S:
        """The state as ``seat`` may know it (``None``: a spectator): what a live table sends
        to that seat's device, which plays on it with the same page as hot-seat play.

        Why a state and not only the view: the guest's page runs the same board and
        controls, which ask the engine for legal actions and views. The contract (tested
        for every game in ``tests/test_redaction.py``): ``view(redact(s, seat), seat) ==
        view(s, seat)``; the seat's own legal actions and secret choices are unchanged;
        the result round-trips through JSON; and it depends on nothing the seat may not
        know. Default: the state itself, for games whose state holds no secret (secret
        choices in progress never enter a state: the host keeps them).
        """
        return state

    #: the host is a referee, not a seat (the Metagame, M3): at a live table its device keeps
    #: no seat by default, a seat whose device is not connected is played from the host's
    #: page, and the host may make the choice of a seat played on another device, marked as
    #: the host's (``made_by``). False: the host plays the seats it keeps, and only those.
    host_is_referee: bool = False
    #: the ruling that says who may act at a live table, cited in its refusals ("M3")
    live_ruling: str = ""

    def host_step(self, state: S) -> str | None:
        """The ruling that gives the step now to the host, whichever seat it belongs to (the
        Metagame's spin, M10, and duel result, M12); None when the seat ``to_move`` acts.
        At a live table no other device is offered it, and any device's move is refused."""
        return None

    def host_only(self, action: A) -> str | None:
        """The ruling that keeps ``action`` to the host (a spin, a correction): refused from
        any seat's device at a live table, with this text. None: a seat may play it."""
        return None

    def made_by(self, action: A, by: str) -> A:
        """``action`` marked with who made it at a live table: ``"p"`` the seat's own
        device, ``"h"`` the host for a seat played on another device (host_is_referee).
        Default: unmarked (the log does not say)."""
        return action

    def ahead(self, state: S) -> tuple[int, ...]:
        """Seats that may already choose their next step while another seat's is awaited
        (the Metagame's defender sets slices while the attacker does, M9): a live table
        holds such a choice, checked by ``check_ahead``, and plays it once its step comes."""
        return ()

    def check_ahead(self, state: S, seat: int, action: A) -> A:
        """The choice ``seat`` made ahead (see ``ahead``), checked as it will be played:
        returns the action, or raises IllegalAction; the state does not change."""
        raise IllegalAction("ahead.none", "No choice can be made ahead now.")

    def redact_text(self, before: S, text: str, seat: int | None) -> str:
        """A log entry (played in ``before``) as ``seat`` may read it; default: as it is.

        A game whose log records something private (a card drawn) masks it here, so the log
        a guest receives holds no more than its redacted states.
        """
        return text

    def secret_result(self, text: str) -> str | None:
        """Words for a chance result whose value not everyone may see (W5: "a card"), said
        instead of it where its state is not at hand to judge who may (the chance results an
        undo took back, kept on record for everyone, issue 42); None for one anyone may see.
        ``text`` is the result's log text or its redaction (:meth:`redact_text`): both answer
        alike. Default: None, every result is public."""
        return None

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


#: top-level keys of a view that name whose view it is (``viewer`` in World Conquest and
#: the Metagame, ``seat`` in Short Campaign): a seat number, not information about the
#: game, so :func:`private_items` leaves them out
VIEWER_KEYS = frozenset({"viewer", "seat"})

PathItem = tuple[tuple[Any, ...], Any]


def private_items(game: Game[Any, Any], state: Any, seat: int) -> list[PathItem]:
    """What ``view(state, seat)`` has that the spectator's ``view(state, None)`` lacks.

    Each item is ``(path, value)``: e.g. ``(("hand", "cavalry"), 2)`` for a World Conquest
    hand, ``(("secret", "choices"), [...])`` at a secret step of To Reign Supreme. Why from
    the views and not from a flag of the game: whether a screen shows something private is
    a property of the moment (nobody holds a card during World Conquest's set-up), and the
    views are where each game already says what a seat may see. A leaf that holds nothing
    (``None``, 0, ``False``, ``""``, empty containers) is not an item: an empty hand tells
    nothing the spectator does not know. An empty list means nothing is private: the shell
    may draw this seat's view for anyone.
    """
    out: list[PathItem] = []
    _diff((), game.view(state, seat), game.view(state, None), out)
    return out


def _empty(value: Any) -> bool:
    if isinstance(value, Mapping):
        return all(_empty(v) for v in value.values())
    if isinstance(value, (list, tuple)):
        return all(_empty(v) for v in value)
    return value is None or value is False or value == 0 or value == ""


def _diff(path: tuple[Any, ...], mine: Any, public: Any, out: list[PathItem]) -> None:
    if mine == public:
        return
    if isinstance(mine, Mapping):
        other = public if isinstance(public, Mapping) else {}
        for key, value in mine.items():
            if path or key not in VIEWER_KEYS:
                _diff((*path, key), value, other.get(key), out)
        return
    if isinstance(mine, (list, tuple)) and isinstance(public, (list, tuple)) and len(mine) == len(public):
        for i, (a, b) in enumerate(zip(mine, public, strict=True)):
            _diff((*path, i), a, b, out)
        return
    if not _empty(mine):
        out.append((path, mine))


def importing_games() -> Iterator[str]:
    """Import the games one module at a time, yielding each one's name (issue 20, item 10):
    the Metagame's page needs every game (its wheel's built-in duels), and importing them
    all at once blocked the page for about 3 s; a page runs this a module per slice."""
    import conquest.games as pkg

    for info in sorted(pkgutil.iter_modules(pkg.__path__), key=lambda i: i.name):
        if not info.name.startswith("_"):
            importlib.import_module(f"{pkg.__name__}.{info.name}")
            yield info.name
    games()


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

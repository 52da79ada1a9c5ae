"""Saves and the match driver: the history is the source of truth.

A save is ``{"v": 1, "game": id, "options": {...}, "log": [action texts]}``. The set-up
seed is ``options["seed"]`` and a name people gave the game is ``options["title"]``; neither
reaches the rules (``new_game`` gets the rest). Replaying the log from ``new_game`` gives the state; undo is
"replay all but the last". Chance results are in the log as ordinary actions (drawn by
:mod:`conquest.rng` when they happen), so replay needs no generator at all.

Every logged step goes through one decision, :func:`advance`: live play
(:meth:`Match.play`), replay (:class:`Match` from a log, :func:`replay`) and
``python -m conquest verify`` (through :func:`replay_steps`) all use it, so a log one of
them accepts the others accept too. Its rule beyond the engine's own: where the game waits
for a draw (``Game.chance``), only that draw's result may follow, never an ordinary action.
"""
from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from conquest.core import (
    ChanceSpec,
    Game,
    GameError,
    IllegalAction,
    InvalidOptions,
    excerpt,
    get_game,
)
from conquest.draws import Chain, DrawRecord, Seal, auto_contribution, draw_values
from conquest.rng import Rng, new_seed

__all__ = ["SAVE_FORMAT", "Save", "ReplayError", "Match", "Step", "advance", "replay", "replay_steps", "excerpt"]

SAVE_FORMAT = 1
@dataclass(frozen=True)
class Save:
    """A whole game as data: what links, files and localStorage carry."""

    game: str
    options: Mapping[str, Any]
    log: tuple[str, ...] = ()
    version: int = SAVE_FORMAT
    #: chance results drawn and then taken back by an undo: ``((step, (result, ...)), ...)``
    undone: tuple[tuple[int, tuple[str, ...]], ...] = ()
    #: the draws' seals and contributions (:class:`conquest.draws.DrawRecord` as JSON); None
    #: in saves made before issue 26: their draws are "not checkable"
    draws: Mapping[str, Any] | None = None

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"v": self.version, "game": self.game, "options": dict(self.options), "log": list(self.log)}
        if self.undone:  # only when there is any: older saves and links stay byte for byte
            out["undone"] = [[at, list(texts)] for at, texts in self.undone]
        if self.draws is not None:
            out["draws"] = dict(self.draws)
        return out

    @classmethod
    def from_json(cls, obj: Mapping[str, Any]) -> Save:
        """Trusts the shape; untrusted input goes through :func:`conquest.savecode.validate_save`."""
        return cls(
            game=obj["game"],
            options=dict(obj["options"]),
            log=tuple(obj["log"]),
            version=obj["v"],
            undone=tuple((int(at), tuple(texts)) for at, texts in obj.get("undone", ())),
            draws=obj.get("draws"),
        )


class ReplayError(GameError):
    """A save whose log does not replay: names the first bad step and why."""

    def __init__(self, index: int, text: str, cause: GameError) -> None:
        super().__init__(
            "replay." + cause.code,
            f"step {index + 1} of the log, {excerpt(text)}, was refused: {cause.message}",
        )
        self.index = index
        self.text = text
        self.cause = cause


@dataclass(frozen=True)
class Step:
    """One accepted step of a log: what :func:`replay_steps` yields."""

    index: int
    #: the canonical text, as the log keeps it
    text: str
    action: Any
    before: Any
    after: Any
    #: the draw the game waited for before this step (None: an ordinary step)
    chance: ChanceSpec | None


def advance(game: Game[Any, Any], state: Any, text: str) -> tuple[Any, Any, ChanceSpec | None]:
    """The one decision on a logged step: ``(action, new state, the draw it answered)``.

    Parses ``text``; where the game waits for a draw, refuses anything but that draw's
    result (code ``chance.pending``): a log that skips a pending spin or roll was not made
    by this driver, which draws at once (:meth:`Match.resolve_chance`), so neither replay
    nor ``verify`` may accept it. Then the engine applies the action (and checks that a
    drawn value is possible). Raises the engine's :class:`GameError`; nothing changes then.
    """
    spec = game.chance(state)
    action = game.parse_action(text)
    if spec is not None:
        expected = game.chance_result_type(state, spec)
        if expected is not None and type(action) is not expected:
            raise IllegalAction(
                "chance.pending",
                f"the game waits for a draw ({spec.kind}) here; {excerpt(text)} is not its result",
            )
    return action, game.apply(state, action), spec


def replay_steps(game: Game[Any, Any], state: Any, log: Iterable[str]) -> Iterator[Step]:
    """Replay ``log`` from ``state`` one :class:`Step` at a time; ReplayError at the first bad one.

    The loop of :class:`Match` and of ``python -m conquest verify``: one function, so they
    cannot disagree on a log.
    """
    for index, text in enumerate(log):
        try:
            action, after, spec = advance(game, state, text)
        except GameError as exc:
            raise ReplayError(index, text, exc) from None
        yield Step(index, game.format_action(action), action, state, after, spec)
        state = after


def _split_options(game: Game[Any, Any], options: Mapping[str, Any]) -> tuple[dict[str, Any], int]:
    """Take out what belongs to the save, not the rules: the set-up seed and the title."""
    opts = dict(options)
    seed = opts.pop("seed", 0)
    if not isinstance(seed, int) or isinstance(seed, bool) or not 0 <= seed < 2**63:
        raise InvalidOptions(
            "options.seed", f"the set-up seed must be a whole number 0..2**63-1, not {excerpt(seed, 30)}"
        )
    title = opts.pop("title", None)
    if title is not None and (not isinstance(title, str) or len(title) > 200):
        raise InvalidOptions("options.title", "the game's title must be text of at most 200 characters")
    return game.normalize_options(opts), seed


class Match:
    """A game in progress: its save, every state along its log, and an RNG for chance steps.

    Keeping every intermediate state makes "look at the map at turn 12" and undo instant;
    states are immutable, so sharing is cheap.

    Draws (issue 26): a new game keeps a :class:`~conquest.draws.DrawRecord` and derives
    every result from the host's sealed chain (:attr:`chain`, in memory only) and a
    contribution per draw (:meth:`resolve_chance`), so anyone can recompute it. By default
    only games drawing with the operating system's generator do (``checkable``); a seeded
    RNG (tests, benchmarks) draws directly unless ``checkable=True``, where the seed also
    makes the secret and the automatic contributions. A save without a record whose log
    already holds steps stays as it was: its draws are "not checkable".
    """

    def __init__(
        self,
        game: Game[Any, Any] | str,
        options: Mapping[str, Any] | None = None,
        log: Iterable[str] = (),
        rng: Rng | None = None,
        undone: Iterable[tuple[int, Iterable[str]]] = (),
        draws: Mapping[str, Any] | DrawRecord | None = None,
        checkable: bool | None = None,
    ) -> None:
        self.game: Game[Any, Any] = get_game(game) if isinstance(game, str) else game
        raw = dict(options or {})
        raw.setdefault("seed", new_seed() if rng is None or rng.seed is None else rng.below(2**31))
        opts, seed = _split_options(self.game, raw)
        self.options: dict[str, Any] = {**opts, "seed": seed}
        if raw.get("title") is not None:
            self.options["title"] = raw["title"]
        self.rng = rng if rng is not None else Rng(None)
        self.log: list[str] = []
        #: chance results an undo took back, never erased: ``[(step, (result, ...)), ...]``
        self.undone: list[tuple[int, tuple[str, ...]]] = [(int(at), tuple(ts)) for at, ts in undone]
        self.states: list[Any] = [self.game.new_game(opts, seed)]
        for step in replay_steps(self.game, self.states[0], log):
            self.log.append(step.text)
            self.states.append(step.after)
        if checkable is None:
            checkable = rng is None or rng.seed is None
        #: the draws' record (None: a save from before issue 26, or drawing unchecked)
        self.draws: DrawRecord | None = None
        if isinstance(draws, DrawRecord):
            self.draws = draws.copy()
        elif draws is not None:
            self.draws = DrawRecord.from_json(draws)
        elif checkable and not self.log and not self.undone:
            self.draws = DrawRecord()
        #: the host's secret chain and which seal of the record it is (never saved)
        self.chain: Chain | None = None
        self._seal_index = -1
        #: where a draw's contribution comes from when none is given: a live table's
        #: devices' shares (None from it, or no provider: automatic)
        self.contribute: Callable[[], str | None] | None = None

    # -- reading --------------------------------------------------------------------
    @property
    def state(self) -> Any:
        return self.states[-1]

    def save(self) -> Save:
        return Save(
            game=self.game.id,
            options=dict(self.options),
            log=tuple(self.log),
            undone=tuple(self.undone),
            draws=None if self.draws is None else self.draws.to_json(),
        )

    def legal_actions(self) -> list[Any]:
        return self.game.legal_actions(self.state)

    def outcome(self) -> Any:
        return self.game.outcome(self.state)

    # -- playing --------------------------------------------------------------------
    def _push(self, text: str) -> Any:
        action, new_state, _ = advance(self.game, self.state, text)
        self.log.append(self.game.format_action(action))
        self.states.append(new_state)
        return new_state

    def play(self, action: Any, contribution: str | None = None) -> Any:
        """Apply a player's action (value or text), then draw any chance steps it opens
        (with ``contribution``, e.g. a word said aloud, else an automatic one).

        A refused action raises and changes nothing.
        """
        text = action if isinstance(action, str) else self.game.format_action(action)
        self._push(text)
        self.resolve_chance(contribution)
        return self.state

    def seal(self) -> str | None:
        """Seal a fresh secret chain now, before any contribution it will meet; its commitment.

        The Metagame console calls this before it asks for a word, so the commitment is in
        the save (and on the audience's screen) before the word is said; otherwise the first
        draw seals. A seal nothing was drawn under stays in the record, marked unused: a
        page opened again between a seal and its draw shows (a host re-sealing after
        hearing a word would be choosing). None when this game's draws are not recorded.
        """
        rec = self.draws
        if rec is None:
            return None
        self.chain = Chain(self.rng.below)
        rec.seals.append(Seal(rec.count, self.chain.commitment))
        self._seal_index = len(rec.seals) - 1
        return self.chain.commitment

    @property
    def commitment(self) -> str | None:
        """The commitment the next draw will be checked against (None: no seal yet)."""
        if self.draws is None or self.chain is None:
            return None
        return self.chain.commitment

    def resolve_chance(self, contribution: str | None = None) -> int:
        """Draw and apply every pending chance step; returns how many were drawn.

        With a draw record, each result comes from the sealed chain's next link and
        ``contribution`` (a said word, live shares; see :mod:`conquest.draws`), or, when it
        is None, the page's own automatic contribution.
        """
        drawn = 0
        while (spec := self.game.chance(self.state)) is not None:
            rec = self.draws
            if rec is None:
                values = self.rng.draw(spec.sizes)
                self._push(self.game.format_action(self.game.chance_action(self.state, values)))
            else:
                seal = rec.seals[self._seal_index] if self.chain is not None else None
                if seal is None or self._seal_index != len(rec.seals) - 1 or rec.count - seal.first >= self.chain.length:
                    self.seal()
                seal = rec.seals[self._seal_index]
                assert self.chain is not None
                number = rec.count
                link = self.chain.link(number - seal.first)
                given = contribution if contribution is not None else (self.contribute() if self.contribute else None)
                if given is None:
                    given = auto_contribution(self.rng.below)
                values = draw_values(link, number + 1, given, spec.sizes)
                self._push(self.game.format_action(self.game.chance_action(self.state, values)))
                rec.contributions.append(given)
                seal.revealed = link
            drawn += 1
        return drawn

    def kept_draws(self) -> list[int]:
        """The draw number (0-based) of each chance step of the log, in order."""
        if self.draws is None:
            return []
        return self.draws.kept_draws([len(texts) for _, texts in self.undone])

    def undo(self) -> bool:
        """Take back the last player action, with the chance steps it caused.

        Chance results after it go too, so an undo never keeps a roll for a different move;
        the next roll is drawn afresh. The results taken back stay on record in
        :attr:`undone` (and in the save), so a re-roll is never hidden.
        """
        if not self.log:
            return False
        try:
            kept = self.kept_draws() if self.draws is not None else []
        except ValueError:  # a damaged record (Check the draws says where): undo still works
            kept = []
        drawn: list[str] = []
        before = ""
        while self.log:
            text = self.log.pop()
            self.states.pop()
            if self.game.chance(self.states[-1]) is not None:
                drawn.append(text)
            else:
                before = text
                break
        if drawn:
            self.undone.append((len(self.log), tuple(reversed(drawn))))
            if self.draws is not None:
                first = kept[-len(drawn)] if len(kept) >= len(drawn) else max(0, self.draws.count - len(drawn))
                self.draws.undone.append((first, before))
        return True

    def prefix_save(self, n: int) -> dict[str, Any]:
        """The save of the first ``n`` log steps ("continue from here").

        Results taken back after a later step go with the steps left out; in the draw record
        the draws of everything left out stay counted, listed as left out (``x``), so the
        branch's draws still check and none of them can be drawn again.
        """
        save = self.save().to_json()
        save["log"] = save["log"][:n]
        groups = list(zip(self.undone, self.draws.undone if self.draws is not None else [None] * len(self.undone),
                          strict=False))
        kept_groups = [(u, r) for u, r in groups if u[0] <= n]
        if kept_groups:
            save["undone"] = [[at, list(texts)] for (at, texts), _ in kept_groups]
        else:
            save.pop("undone", None)
        if self.draws is None:
            return save
        rec = self.draws.copy()
        left: list[int] = []
        try:
            kept = self.kept_draws()
        except ValueError:
            return save  # a damaged record stays as it is: Check the draws names the fault
        chance_steps = [i for i in range(len(self.log)) if self.game.chance(self.states[i]) is not None]
        left += [d for i, d in zip(chance_steps, kept, strict=False) if i >= n]
        for (at, texts), r in groups:
            if at > n and r is not None:
                left += range(r[0], r[0] + len(texts))
        rec.undone = [r for _, r in kept_groups if r is not None]
        for d in sorted(left):
            if rec.dropped and sum(rec.dropped[-1]) == d:
                rec.dropped[-1] = (rec.dropped[-1][0], rec.dropped[-1][1] + 1)
            else:
                rec.dropped.append((d, 1))
        rec.dropped.sort()
        save["draws"] = rec.to_json()
        return save

    def truncate(self, length: int) -> None:
        """Step back to the position after ``length`` log entries (for "go back to here")."""
        if not 0 <= length <= len(self.log):
            raise ValueError(f"no step {length} in a log of {len(self.log)}")
        del self.log[length:]
        del self.states[length + 1 :]


class Replay:
    """A :class:`Match` rebuilt from a log a slice at a time (issue 20, item 10).

    Why: opening a long game replayed it in one block of the page's main thread (a 6,000-step
    World game 1.6 s). :meth:`advance` replays steps until ``budget_ms`` have passed on the
    clock it is given, then returns, so the page can answer between slices. The steps, and so
    the match, are those of ``Match(game, options, log)`` however it is sliced: only where the
    slices end depends on time. A refused step raises :class:`ReplayError` as ``Match`` does.
    """

    #: the clock is read once per this many steps (a step is ~20-60 µs; a clock call is not free)
    CHECK_EVERY = 16

    def __init__(
        self,
        game: Game[Any, Any] | str,
        options: Mapping[str, Any] | None,
        log: Sequence[str],
        rng: Rng | None = None,
        undone: Iterable[tuple[int, Iterable[str]]] = (),
        draws: Mapping[str, Any] | None = None,
    ) -> None:
        # options and the draws' record checked here; a log with no record stays "not
        # checkable", as Match(game, options, log) leaves it (issue 26)
        self.match = Match(game, options, (), rng=rng, undone=undone, draws=draws,
                           checkable=False if log else None)
        self.total = len(log)
        self.slices = 0
        self._steps = replay_steps(self.match.game, self.match.states[0], log)

    @property
    def done(self) -> int:
        return len(self.match.log)

    def advance(self, budget_ms: float, clock: Callable[[], float]) -> bool:
        """Replay for about ``budget_ms`` (at least ``CHECK_EVERY`` steps); True when the whole
        log is replayed and :attr:`match` is complete."""
        start = clock()
        self.slices += 1
        log, states, every = self.match.log, self.match.states, self.CHECK_EVERY
        for step in self._steps:
            log.append(step.text)
            states.append(step.after)
            if len(log) % every == 0 and len(log) < self.total and clock() - start >= budget_ms:
                return False
        return True


def replay(save: Save | Mapping[str, Any], rng: Rng | None = None) -> Match:
    """Rebuild a match from a save; raises :class:`ReplayError` at the first bad step."""
    if not isinstance(save, Save):
        save = Save.from_json(save)
    return Match(save.game, save.options, save.log, rng=rng, undone=save.undone, draws=save.draws)


def replay_states(game: Game[Any, Any], options: Mapping[str, Any], log: Sequence[str]) -> list[Any]:
    """Every state along ``log`` (for charts and stepping back)."""
    return list(Match(game, options, log).states)


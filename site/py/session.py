"""One game open in the page, and what it is made of: seats, the set-up form, a save being
opened, a bot's turn, and the :class:`Session` (the match and what this device looks at).

Why a module of its own (issue 42): this is the match and the per-device state around it,
with no page part in it (no renderer, no handler): the shell's parts (``shell_*.py``) and the
live table (``live.py``) build on it, and it imports none of them. ``shell`` re-exports its
names, so ``from shell import Session`` keeps working.
"""
from __future__ import annotations

import gc
import math
from collections.abc import Callable, Generator, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import lazy_data
from ui import bidi_text

from conquest.catalog import GameFacts
from conquest.core import ConquestError, Game, GameError, private_items
from conquest.draws import DrawError
from conquest.rng import Rng
from conquest.savecode import SaveCodeError, make_fragment
from conquest.seats import PALETTE, PALETTE_NAMES
from conquest.session import Match, Replay, ReplayError

__all__ = [
    "HUMAN",
    "BotTurn",
    "Opening",
    "Seat",
    "Session",
    "ShellError",
    "and_list",
    "check_save",
    "colour_name",
    "option_texts",
    "parse_setup",
    "plural",
    "tap_word",
    "tap_word_lower",
]

HUMAN = "human"


class ShellError(ConquestError):
    """A refusal of the shell itself (read-only copy, looking at an earlier step, …)."""


def plural(n: int, one: str, many: str | None = None) -> str:
    """``1 territory``, ``2 territories``: counts in plain words."""
    return f"{n:,} {one if n == 1 else (many or one + 's')}"


def and_list(names: Sequence[str]) -> str:
    """"Ann", "Ann and Bob", "Ann, Bob and Cy"."""
    if len(names) <= 1:
        return "".join(names)
    return f"{', '.join(names[:-1])} and {names[-1]}"


# -- seats ---------------------------------------------------------------------------------
@dataclass(frozen=True)
class Seat:
    """One seat at the table: who sits there and whether a person or a bot plays it."""

    name: str
    colour: str
    who: str = HUMAN  # HUMAN or a bot level name from ``Game.bot_levels``

    @property
    def is_bot(self) -> bool:
        return self.who != HUMAN

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"name": self.name, "colour": self.colour}
        if self.is_bot:
            out["bot"] = self.who
        return out


def parse_setup(
    fields: Mapping[str, str], facts: GameFacts, levels: Sequence[str]
) -> tuple[list[Seat], list[tuple[str, str]]]:
    """Seats from the set-up form's fields; errors as ``(field id, message)``.

    The form is plain HTML (people may fill it in while Python starts), so this reads names
    like ``seat-name-0``; every error names the field, so the page can show it beside it.
    """
    errors: list[tuple[str, str]] = []
    raw_count = fields.get("seat-count", str(facts.max_seats if facts.min_seats == facts.max_seats else 0))
    try:
        count = int(raw_count)
    except ValueError:
        count = -1
    if not facts.min_seats <= count <= facts.max_seats:
        errors.append(
            ("seat-count", f"{facts.title} is played by {facts.min_seats}–{facts.max_seats} players.")
        )
        return [], errors
    seats: list[Seat] = []
    for i in range(count):
        name = " ".join(str(fields.get(f"seat-name-{i}", "")).split())[:40]
        colour = str(fields.get(f"seat-colour-{i}", PALETTE[i % len(PALETTE)]))
        who = str(fields.get(f"seat-who-{i}", HUMAN))
        if not name:
            errors.append((f"seat-name-{i}", f"Player {i + 1} needs a name."))
        if colour not in PALETTE:
            errors.append((f"seat-colour-{i}", f"Pick a colour for player {i + 1} from the list."))
        if who != HUMAN and who not in levels:
            errors.append((f"seat-who-{i}", f"Pick who plays for player {i + 1} from the list."))
        seats.append(Seat(name or f"Player {i + 1}", colour, who))
    seen: dict[str, int] = {}
    for i, s in enumerate(seats):
        if s.colour in seen:
            other = seats[seen[s.colour]].name
            errors.append(
                (f"seat-colour-{i}", f"{s.name} and {other} have the same colour; give each their own.")
            )
        seen.setdefault(s.colour, i)
    names: dict[str, int] = {}
    for i, s in enumerate(seats):
        key = s.name.casefold()
        if key in names:
            errors.append((f"seat-name-{i}", f"Two players are called {s.name}; give each their own name."))
        names.setdefault(key, i)
    return seats, errors


def colour_name(colour: str) -> str:
    return dict(zip(PALETTE, PALETTE_NAMES, strict=True)).get(colour, colour)


def tap_word(host: Any) -> str:
    """"Tap" on a touch screen, "Click" with a mouse (issue 41, point 7): a host says which by
    ``touch`` (``shell_browser.BrowserHost``: the device's pointer; ``remote.RemoteHost``: what
    the guest's device said when it joined); a host without it is a mouse's."""
    return "Tap" if getattr(host, "touch", False) else "Click"


def tap_word_lower(host: Any) -> str:
    """:func:`tap_word` inside a sentence: "tap" or "click"."""
    return tap_word(host).lower()


def check_save(save: Mapping[str, Any]) -> Match:
    """Replay a save from outside (link, file, slot); a clear message if it is unusable.

    At once, so it cannot wait for a data file the game needs (``lazy_data``): while one is
    on its way it refuses with the code ``loading`` (the caller may try again once
    ``lazy_data.current.when_settled``); :class:`Opening` waits by itself."""
    opening = Opening(save)
    while True:
        match = opening.advance(math.inf, lambda: 0.0)
        if match is not None:
            return match
        if opening.waiting:
            opening.waiting = False  # nobody resumes this one: its caller asks again
            raise SaveCodeError("loading", f"This game needs {opening.loading_what}, which this page is still "
                                           "loading from the site; try again in a moment.")


def data_refusal(what: str, why: str) -> str:
    """The words for a game that cannot open because a data file it needs was not fetched."""
    return (f"This game needs {what}, which could not be loaded: {why.rstrip('.')}. Nothing was changed: "
            "try again once this device can reach the site.")


class Opening:
    """:func:`check_save` in slices, so the page answers while a long game opens (issue 20,
    item 10: a 6,000-step World game blocked the page 1.6 s, the Metagame's first game 3 s).

    First ``warm`` (an iterator whose every step is one slice's work: the Metagame page
    imports the other games, one module a slice), then the log replayed by
    :class:`~conquest.session.Replay`. The match is the same however it is sliced; the
    messages are :func:`check_save`'s.

    With ``freeze`` (the page's), what each slice made is moved out of the cyclic collector's
    way at the slice's end (``gc.freeze``), as the opened game is once it is open: every
    step's state is kept (a past step is a lookup), so the collector's full passes, which
    walk every object it tracks, grew with the replay, and one fell in a slice now and then
    (160-190 ms in CPython at 80,000 steps; issue 42: the World link of 80,000 steps blocked
    the page 1.2 s). Frozen objects are still freed when dropped (reference counts); only a
    cycle among them stays.

    A game that needs a data file the page has not fetched yet (an old Short Campaign game's
    questions, ``lazy_data``; issue 42: the fetch no longer blocks the page) is refused by
    the engine while the file is on its way: the opening then waits (:attr:`waiting`, the
    progress says what loads; :meth:`when_ready`) and replays again from the start once
    the fetch has settled. A fetch that failed is said in words (offline, a 404), code
    ``data``: the save itself may be good, so a caller keeps it.
    """

    #: how many times an opening waits for data files before taking the engine's refusal
    MAX_WAITS = 3

    def __init__(self, save: Mapping[str, Any], warm: Iterator[Any] | None = None, freeze: bool = False) -> None:
        from conquest.core import get_game

        try:
            game = get_game(save["game"])
        except KeyError:
            raise SaveCodeError("game", f"This is a game of {save['game']!r}, which this site does not have.") from None
        self.save = save
        self.game = game
        self.warm = warm
        self.freeze = freeze
        self.replay: Replay | None = None
        self.slices = 0
        #: a data file the game needs is on its way: nothing to do until :meth:`when_ready`
        self.waiting = False
        #: what it waited for, in words (``lazy_data.LazyData.what``)
        self.loading_what = ""
        self.waits = 0

    @property
    def total(self) -> int:
        return len(self.save["log"])

    @property
    def done(self) -> int:
        return 0 if self.replay is None else self.replay.done

    def advance(self, budget_ms: float, clock: Callable[[], float]) -> Match | None:
        """One slice of about ``budget_ms``; the match when it is complete."""
        try:
            return self._advance(budget_ms, clock)
        finally:
            if self.freeze:
                gc.freeze()

    def _advance(self, budget_ms: float, clock: Callable[[], float]) -> Match | None:
        self.slices += 1
        if self.warm is not None:
            if next(self.warm, None) is not None:
                return None
            self.warm = None
        if self.waiting:
            if lazy_data.current is not None and lazy_data.current.busy():
                return None  # still on its way: :meth:`when_ready` says when to go on
            self.waiting = False
        try:
            if self.replay is None:
                save = self.save
                self.replay = Replay(self.game, save["options"], save["log"], rng=Rng(None),
                                     undone=save.get("undone", ()), draws=save.get("draws"))
            return self.replay.match if self.replay.advance(budget_ms, clock) else None
        except (ReplayError, GameError, DrawError) as exc:
            if self._wait_for_data():
                return None
            self._data_failed(exc.message)
            if isinstance(exc, ReplayError):
                raise SaveCodeError("replay", f"The saved game does not replay: {exc.message}") from None
            if isinstance(exc, GameError):
                raise SaveCodeError("options", f"The saved game cannot be set up: {exc.message}") from None
            raise SaveCodeError("draws", f"The saved game's {exc.message[4:]}") from None

    def _wait_for_data(self) -> bool:
        """A refusal while a data file is on its way: wait for it, then replay from the start."""
        lazy = lazy_data.current
        if lazy is None or not lazy.busy() or self.waits >= self.MAX_WAITS:
            return False
        self.waits += 1
        self.waiting = True
        self.loading_what = lazy.what()
        self.replay = None
        return True

    def _data_failed(self, refusal: str) -> None:
        """A refusal for want of a data file whose fetch failed (offline, a 404): that is the
        reason, in words, code ``data`` (the engine's own refusal only names the question it
        could not find)."""
        lazy = lazy_data.current
        failed = None if lazy is None else lazy.failure_in(refusal)
        if failed is not None:
            raise SaveCodeError("data", data_refusal(*failed))

    def when_ready(self, fn: Callable[[], None]) -> None:
        """Call ``fn()`` once the data file this opening waits for has arrived or failed (then
        :meth:`advance` goes on); at once when it waits for nothing."""
        def ready() -> None:
            self.waiting = False
            fn()

        lazy = lazy_data.current
        if not self.waiting or lazy is None:
            ready()
        else:
            lazy.when_settled(ready)

    def progress(self) -> str:
        if self.waiting:
            return f"Opening the game: loading {self.loading_what} from the site…"
        if self.replay is None:
            return "Opening the game: loading the rules…"
        return f"Opening the game: step {self.done:,} of {self.total:,}…"


def option_texts(options: Any, limit: int = 20_000) -> list[str]:
    """The texts in a game's options with right-to-left letters or direction controls in them
    (at most ``limit`` values visited: options are bounded by their schema, this by itself)."""
    out: list[str] = []
    todo = [options]
    seen = 0
    while todo and seen < limit:
        item = todo.pop()
        seen += 1
        if isinstance(item, str):
            if bidi_text(item):
                out.append(item)
        elif isinstance(item, Mapping):
            todo.extend(item.values())
        elif isinstance(item, (list, tuple)):
            todo.extend(item)
    return out


# -- bots ----------------------------------------------------------------------------------
@dataclass
class BotTurn:
    """A bot thinking about one decision, advanced in slices so the page keeps answering.

    ``key`` is the log length and seat it thinks for: if anything changed meanwhile (undo,
    a jump, another tab) its answer is dropped, never played on the wrong position.
    """

    seat: int
    thinking: Generator[None, None, Any]
    key: tuple[int, int, bool]
    bot: Any = None
    secret: bool = False
    slices: int = 0
    busy_ms: float = 0.0

    def progress(self) -> float | None:
        """How far the bot has thought, 0..1, when it says (``Bot.progress``)."""
        fn = getattr(self.bot, "progress", None)
        try:
            value = fn() if callable(fn) else None
        except Exception:  # a figure for people; never worth breaking the page for
            return None
        return None if value is None else max(0.0, min(1.0, float(value)))

    def advance(self, budget_ms: float, clock: Callable[[], float]) -> tuple[bool, Any]:
        """Think for about ``budget_ms``; ``(True, choice)`` when done."""
        start = clock()
        self.slices += 1
        try:
            while True:
                next(self.thinking)
                if clock() - start >= budget_ms:
                    self.busy_ms += clock() - start
                    return False, None
        except StopIteration as stop:
            self.busy_ms += clock() - start
            return True, stop.value


# -- the session: one game open in the page -------------------------------------------------
@dataclass
class Session:
    """A game open in the page: the match, its slot, seats, and what is being looked at."""

    match: Match
    slot_id: str | None = None
    mode: str = "host"  # "host" (may play) or "view" (a read-only copy)
    viewing: int | None = None  # log length of the step looked at; None = the present
    #: the seat that pressed Ready last and still holds the device: only its private things
    #: may be drawn (hot-seat). None: nobody has pressed Ready since the device last moved
    shown_seat: int | None = None
    #: the person who holds the device now: the last human seat to act (the device moves
    #: when the acting human seat changes, whether or not a Ready was asked); see
    #: :meth:`follow_device`
    device: int | None = None
    #: secret parts chosen so far at a simultaneous step: only in the page, never saved
    secret_parts: dict[int, Any] = field(default_factory=dict)
    bot: BotTurn | None = None
    bots_paused: bool = False
    #: when the person on screen pressed Ready (the host's clock), for timed answers
    ready_at: float = 0.0
    #: a copy that plays for one seat only (a link made for one player, ``?as=N``): steps of
    #: the other side are refused, as far as a page can (issue 14; anyone may edit the
    #: address, so this guards against mistakes, not cheating); None: every seat
    only_seat: int | None = None
    #: the slot's revision this page last read or wrote (conquest.store: two tabs, one game)
    rev: int = 0
    #: another tab saved this game since this page read it: nothing is saved over it until
    #: the person opens the newer version or keeps this page's line as a new slot
    conflict: bool = False
    #: storage refused this game (full): until it can be stored, every step retries, the
    #: warning stands, and the address bar carries the game so a reload keeps it
    unsaved: bool = False
    #: the last answer of :meth:`is_private`: (state, seat, answer); asked at every drawing
    _private_memo: tuple[Any, int, bool] | None = None
    #: the log length before the last step a person played (issue 21, item 10): the steps
    #: from here on (their action, the dice or reveal it drew, the computer's replies) are
    #: "what just happened", shown beside the controls and announced; None: nothing yet
    result_from: int | None = None

    @property
    def game(self) -> Game[Any, Any]:
        return self.match.game

    # -- seats ------------------------------------------------------------------------
    def seats(self) -> list[Seat]:
        """Seats from the options: ``seats``, or ``players`` (where a bare string is a name;
        in ``seats`` a bare string is a bot level, as older Game of Conquests links have)."""
        raw = self.match.options.get("seats")
        players = self.match.options.get("players")
        names = [p.get("name") if isinstance(p, Mapping) else p for p in players] if isinstance(players, list) else []
        names_only = not isinstance(raw, list)
        if names_only:
            raw = players
        out: list[Seat] = []
        n = self.game.max_players if not isinstance(raw, list) else len(raw)
        for i in range(n):
            item = raw[i] if isinstance(raw, list) else None
            name = f"Player {i + 1}"
            colour = PALETTE[i % len(PALETTE)]
            who = HUMAN
            if i < len(names) and isinstance(names[i], str) and names[i]:
                name = names[i]  # a game may keep names apart from the seats ("players")
            if isinstance(item, Mapping):
                name = str(item.get("name") or name)
                colour = str(item.get("colour") or colour)
                bot = item.get("bot")
                who = str(bot) if isinstance(bot, str) and bot else HUMAN
            elif isinstance(item, str) and names_only:
                name = item or name
            elif isinstance(item, str):  # a level name alone
                who = item
            # the name as given: isolated where it is shown, by the one pass every mounted tree
            # goes through (``Shell.isolated``, issue 20 item 8); isolated here too, it reached
            # every other use (a renamed seat, a guest's meta, the chart's cut) wrapped
            out.append(Seat(name, colour, who))
        return out

    def seat_name(self, seat: int | None) -> str:
        seats = self.seats()
        return seats[seat].name if seat is not None and 0 <= seat < len(seats) else "—"

    # -- reading ----------------------------------------------------------------------
    def locked(self) -> bool:
        """Nothing can be played: a read-only copy or audience tab, or an earlier step."""
        return self.mode != "host" or self.viewing is not None

    def shown_state(self) -> Any:
        return self.match.states[self.viewing] if self.viewing is not None else self.match.state

    def step(self) -> int:
        return self.viewing if self.viewing is not None else len(self.match.log)

    def acting_seat(self) -> int | None:
        """Who must act now: the next seat without a secret part, or ``to_move``."""
        state = self.match.state
        secret = self.game.simultaneous(state)
        if secret:
            return next((s for s in secret if s not in self.secret_parts), None)
        if self.game.outcome(state) is not None:
            return None
        return self.game.to_move(state)

    def chosen_seats(self) -> list[int]:
        """The seats that have made their secret part at the present simultaneous step, in
        the step's order: who, never what (the parts stay in this page until the reveal)."""
        secret = self.game.simultaneous(self.match.state)
        return [s for s in secret if s in self.secret_parts]

    def humans(self) -> list[int]:
        return [i for i, s in enumerate(self.seats()) if not s.is_bot]

    def at_device(self) -> int | None:
        """The one person at this device when only one can be (a copy for one seat, or one
        person among bots), else None: several people share it (hot-seat)."""
        if self.only_seat is not None:
            return self.only_seat
        humans = self.humans()
        return humans[0] if len(humans) == 1 else None

    def follow_device(self) -> None:
        """The device goes with the acting person: when the human seat to act is another
        than the one holding it, it has passed, and the last Ready no longer counts.

        Called after every step, undo and secret part (and before every drawing), so a
        turn that goes from Ann to Ben and back to Ann without a Ready (nothing private for
        Ben) does not show Ann's hand again until Ann presses Ready: Ben may still be
        looking. Bots never take the device.
        """
        seat = self.acting_seat()
        seats = self.seats()
        if seat is None or seat >= len(seats) or seats[seat].is_bot or seat == self.device:
            return
        self.device = seat
        self.shown_seat = None

    def viewer(self) -> int | None:
        """Whose view to draw, at the present or at any earlier step.

        A read-only copy sees what a spectator sees. One person at the device (a copy for one
        seat, or one person among bots) sees their own. Several people at one device: the
        view of the person who pressed Ready last while they still hold the device, never
        the last seat shown; before that person's Ready, the spectator's view.
        """
        if self.mode != "host" or not self.game.hidden_information:
            return None
        alone = self.at_device()
        if alone is not None:
            return alone
        self.follow_device()
        return self.shown_seat

    def view(self) -> dict[str, Any]:
        return self.game.view(self.shown_state(), self.viewer())

    def is_private(self, seat: int) -> bool:
        """Whether drawing ``seat``'s view now would show something the spectator may not
        see: from the views themselves (``conquest.core.private_items``), never from the
        game's ``hidden_information`` flag. A secret simultaneous step is always private for
        the seat choosing: its own choice in progress is on screen."""
        state = self.match.state
        if self.game.simultaneous(state):
            return True
        memo = self._private_memo
        if memo is None or memo[0] is not state or memo[1] != seat:
            memo = self._private_memo = (state, seat, bool(private_items(self.game, state, seat)))
        return memo[2]

    def private_anywhere(self, state: Any) -> bool:
        """Whether anybody holds something private at ``state`` (or chooses in secret)."""
        return bool(self.game.simultaneous(state)) or any(
            private_items(self.game, state, seat) for seat in range(len(self.seats()))
        )

    def needs_handover(self) -> int | None:
        """The seat that must take the device and press Ready before anything else, or None.

        Asked exactly when the screen would otherwise show something private to the wrong
        person: several people share this device, the seat to act is a person who has not
        pressed Ready since the device came to them, and their view now holds something the
        spectator's lacks (a hand, a secret choice). Nothing private of the person before is
        drawn either way (:meth:`viewer` falls back to the spectator's view). While this is
        not None the pass screen is the only thing that reacts (``Shell.refuse_if_pending``).
        """
        if self.mode != "host" or self.at_device() is not None or len(self.humans()) < 2:
            return None
        self.follow_device()
        seat = self.acting_seat()
        if seat is None or seat != self.device or seat == self.shown_seat:
            return None
        return seat if self.is_private(seat) else None

    def bot_to_act(self) -> int | None:
        if self.locked() or self.bots_paused:
            return None
        seat = self.acting_seat()
        if seat is None or seat >= len(self.seats()) or not self.seats()[seat].is_bot:
            return None
        return seat

    def save(self) -> dict[str, Any]:
        return self.match.save().to_json()

    # -- playing ----------------------------------------------------------------------
    def _guard(self, check_seat: bool = True) -> None:
        if self.mode != "host":
            raise ShellError(
                "shell.read-only", "This is a read-only copy: only the copy with the host link can be played."
            )
        if self.viewing is not None:
            raise ShellError(
                "shell.viewing", "You are looking at an earlier step: choose “Back to the present” to play."
            )
        seat = self.acting_seat()
        if check_seat and self.only_seat is not None and seat is not None and seat != self.only_seat:
            other = self.seat_name(seat)
            raise ShellError(
                "shell.not-your-seat",
                f"This copy plays for {self.seat_name(self.only_seat)}; it is {other}'s move. "
                f"Send {other} the link made for them (under Links).",
            )

    def play(self, action: Any, contribution: str | None = None) -> None:
        """Play an engine action (value or text); a refusal raises and changes nothing.

        ``contribution``: for the draws it opens, a word a player said aloud (issue 26);
        None draws with this device's own automatic contribution."""
        self._guard()
        if contribution is None:
            self.match.play(action)
        else:
            self.match.play(action, contribution)
        self.secret_parts.clear()
        self.bot = None
        self.follow_device()

    def give_secret(self, seat: int, part: Any) -> bool:
        """One seat's secret part; when every seat has chosen, the reveal is played.

        Returns True when the reveal was played. The parts stay in this object only, so no
        save, link or view made meanwhile can hold them. Open-ended parts (a guess and its
        time) are checked by ``join_secret``; a refused part is dropped and the seat asked
        again.
        """
        self._guard()
        secret = self.game.simultaneous(self.match.state)
        if seat not in secret:
            raise ShellError("shell.not-secret", "That choice is not asked for now.")
        self.secret_parts[seat] = part
        if not all(s in self.secret_parts for s in secret):
            self.follow_device()  # the next seat chooses alone: the device goes to them
            return False
        try:
            action = self.game.join_secret(self.match.state, dict(self.secret_parts))
        except GameError:
            del self.secret_parts[seat]
            raise
        self.play(action)
        return True

    def undo(self) -> list[str]:
        """Take back the last step; chance results it drew stay on record as taken back."""
        self._guard(check_seat=False)
        if self.only_seat is not None and self.match.log:
            mover = self.game.to_move(self.match.states[-2])
            if mover is not None and mover != self.only_seat:
                raise ShellError(
                    "shell.not-your-seat",
                    f"This copy plays for {self.seat_name(self.only_seat)}; only their own last step can be "
                    "taken back here.",
                )
        before = list(self.match.log)
        if not self.match.undo():
            return []
        removed = before[len(self.match.log) :]
        self.secret_parts.clear()
        self.bot = None
        self.follow_device()  # a step of another person taken back: the device goes to them
        return removed

    def last_step(self) -> tuple[int, int | None] | None:
        """The step Undo takes back: ``(log index, the seat that played it)``, skipping the
        chance results drawn after it (they go with it); None on an empty log."""
        k = len(self.match.log) - 1
        while k > 0 and self.game.chance(self.match.states[k]) is not None:
            k -= 1
        if k < 0:
            return None
        return k, self.game.to_move(self.match.states[k])

    def jump(self, step: int | None) -> None:
        """Look at the game after ``step`` log entries (None or the last: the present)."""
        if step is not None and not 0 <= step <= len(self.match.log):
            raise ShellError("shell.no-step", f"There is no step {step}.")
        self.viewing = None if step is None or step == len(self.match.log) else step
        self.bot = None

    def branch_save(self) -> dict[str, Any]:
        """The save of the game as it was at the step on screen: "continue from here".

        A step waiting for a draw keeps the results that were drawn after it, so branching
        never re-rolls dice or a wheel.
        """
        n = self.step()
        while n < len(self.match.log) and self.game.chance(self.match.states[n]) is not None:
            n += 1
        return self.match.prefix_save(n)

    def links(self, base: str, code: str | None = None) -> dict[str, str]:
        """The host and view links: one code, checked and compressed once (it was twice: a
        second of CPython on an 80,000-step game at every step, issue 20, item 10); ``code``:
        this save's, made already (in slices: ``shell_links.LinksPanel.code``)."""
        code = code or make_fragment(self.save(), "h").partition("=")[2]
        return {mode: f"{base}#{mode}={code}" for mode in ("h", "v")}

    def seat_link(self, base: str, code: str | None = None) -> tuple[int, str] | None:
        """In a copy for one seat: the link for the seat that moves next (``?as=N``), or None."""
        if self.only_seat is None:
            return None
        seat = self.acting_seat()
        if seat is None or seat == self.only_seat:
            others = [i for i in self.humans() if i != self.only_seat]
            if not others:
                return None
            seat = others[0]
        return seat, f"{base}?as={seat}#h={code or make_fragment(self.save(), 'h').partition('=')[2]}"

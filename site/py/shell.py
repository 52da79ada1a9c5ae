"""The shell every game page stands on: its logic and its shared renderers, browser-free.

Why one shell: links, save slots, the log, undo, "viewing step N", seats with bots, the bot
runner, pass-the-device screens and the chart work the same in every game, so they are
written once here and a game page (``site/games/<id>.py``) holds only its board, controls
and prompts. Nothing here imports ``js``: the browser side (``shell_browser.py``) gives the
shell a :class:`Host` for storage, time and the clipboard, and turns the trees the
renderers return into DOM. So pytest runs all of this, and every page's logic, in CPython
with a fake host.
"""
from __future__ import annotations

import json
import math
from collections.abc import Callable, Generator, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

from ui import FSI, PDI, Node, bidi_text, h, isolate, isolate_tree, names_pattern, svg

from conquest.bots import levels as bot_levels
from conquest.catalog import GameFacts
from conquest.core import ConquestError, Game, GameError, private_items
from conquest.draws import DrawCheck, DrawError, check_draws, describe_contribution
from conquest.rng import Rng
from conquest.savecode import SaveCodeError, SaveEncoder, make_fragment
from conquest.seats import PALETTE, PALETTE_NAMES
from conquest.session import Match, Replay, ReplayError
from conquest.store import CONFLICT_MESSAGE, Slot, SlotStore, StorageError

__all__ = [
    "CHAT_LIMIT",
    "LOG_SHOWN",
    "LOG_WINDOW",
    "HUMAN",
    "Host",
    "Seat",
    "Session",
    "ShellError",
    "GamePage",
    "BotTurn",
    "parse_setup",
    "check_save",
    "plural",
]

#: what chat apps let through in one message (Discord 2,000; Teams about 2,048)
CHAT_LIMIT = 2000
#: The log is drawn as the person scrolls it (issue 20, item 10: drawing a 6,023-step World
#: log whole blocked the page 17 s; pages of 120 lines behind buttons still took 450 ms a
#: press): its box is as tall as every line (rows of one height, ``--log-row`` in style.css,
#: the lines not drawn stand as padding), and only the lines in sight are drawn, with
#: ``LOG_MARGIN`` more on each side so a scroll shows drawn lines before the next render.
#: The most lines the box shows at once (its height over a row's, with room to spare)
LOG_SHOWN = 20
#: lines drawn above and below those in sight (at the newest, the last 60 lines are drawn, as
#: the log did before it was drawn as scrolled)
LOG_MARGIN = 40
#: so never more than this many lines are drawn, however long the log
LOG_WINDOW = LOG_SHOWN + 2 * LOG_MARGIN
#: how far PageUp and PageDown move in the log
LOG_PAGE = 10
#: steps listed in "What just happened" beside the controls (the rest are in the log)
RESULT_SHOWN = 6
#: how long a notice (not an error) stays in the toast, in ms (Shell.say)
NOTICE_MS = 8000.0
HUMAN = "human"
#: what the log shows instead of the code of a chance result nobody else may see
HIDDEN_CODE = "(secret)"
#: a game this long makes its links in slices of their own after the render a press needs
#: (compressing its save is ``SaveEncoder``'s work, ``LINK_SLICE_MS`` a task), and judges
#: its draws' codes only when codes are shown
LINKS_AT_ONCE = 3000
LINK_SLICE_MS = 30.0
#: line styles of the charts: dashes as well as colours, so lines differ without colour
DASHES = ("", "7 3", "2 3", "9 3 2 3", "4 4", "1 2", "12 4", "5 2 1 2")


#: the rules page on draws (issue 26), from a game page at ``play/<id>/``
DRAWS_RULES_URL = "../../rules/draws/"


class ShellError(ConquestError):
    """A refusal of the shell itself (read-only copy, looking at an earlier step, …)."""


def plural(n: int, one: str, many: str | None = None) -> str:
    """``1 territory``, ``2 territories``: counts in plain words."""
    return f"{n:,} {one if n == 1 else (many or one + 's')}"


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


Span = tuple[float, float]  # an element's top and bottom, in px, as drawn


def now_scroll(next_box: Span | None, result_box: Span | None, top: float, bottom: float) -> float:
    """How far to scroll (px, down positive) so the next decision and the newest result of the
    last action (``data-now``, issue 41) are inside the room ``top..bottom`` after a tap.

    Why one rule for every page: on a 360x740 phone the result of a tap and the next control
    were often off screen (a battle 1,600 px above, the dice 1,171 px down in the sheet). As
    little scrolling as can be, so the screen does not jump: both when they fit together;
    otherwise the next decision wins (all of it, or its top when it is taller than the room),
    with as much of the result as fits beside it. ``guest-dom.js`` ``bringNow`` is the same."""

    def contain(t: float, b: float) -> float:
        if b - t > bottom - top:
            return t - top  # taller than the room: its top at the top
        return t - top if t < top else b - bottom if b > bottom else 0.0

    boxes = [x for x in (next_box, result_box) if x is not None]
    if not boxes:
        return 0.0
    t, b = min(x[0] for x in boxes), max(x[1] for x in boxes)
    if b - t <= bottom - top or next_box is None:
        return contain(t, b) if next_box is not None else contain(*boxes[0])
    nt, nb = next_box
    if result_box is not None and result_box[0] < nt and nb - nt <= bottom - top:
        return nb - bottom  # the result above: the next at the foot, the result's end over it
    return nt - top


# -- the host: what the browser (or a test) provides ---------------------------------------
class Host(Protocol):
    """Side effects the shell needs; ``shell_browser.BrowserHost`` in the page, a fake in tests."""

    store: SlotStore

    def now(self) -> float: ...  # milliseconds since the epoch (slot dates)

    def clock(self) -> float: ...  # a monotonic millisecond clock (bot slices)

    def page_url(self) -> str: ...  # this page's address without query or fragment

    def go(self, query: str) -> None: ...  # replace the address's query (e.g. "?slot=abc")

    def later(self, ms: float, fn: Callable[[], None]) -> None: ...

    def rerender(self) -> None: ...

    def focus(self, element_id: str) -> None: ...  # move the keyboard focus

    def reveal(self, element_id: str) -> None: ...  # scroll into view when out of sight

    def set_style(self, element_id: str, prop: str, value: str) -> None: ...

    def load_pref(self, key: str) -> str | None: ...  # a page's own small stored setting

    def save_pref(self, key: str, value: str) -> bool: ...  # False when storage refused it

    def confirm(self, question: str) -> bool: ...

    def open_tab(self, url: str) -> bool: ...  # a page in a new tab; False when the browser refused

    def form_fields(self, form_id: str) -> dict[str, str]: ...  # a static form's fields now

    def set_fields(self, values: Mapping[str, str | bool]) -> None: ...  # by element id


def check_save(save: Mapping[str, Any]) -> Match:
    """Replay a save from outside (link, file, slot); a clear message if it is unusable."""
    opening = Opening(save)
    while True:
        match = opening.advance(math.inf, lambda: 0.0)
        if match is not None:
            return match


class Opening:
    """:func:`check_save` in slices, so the page answers while a long game opens (issue 20,
    item 10: a 6,000-step World game blocked the page 1.6 s, the Metagame's first game 3 s).

    First ``warm`` (an iterator whose every step is one slice's work: the Metagame page
    imports the other games, one module a slice), then the log replayed by
    :class:`~conquest.session.Replay`. The match is the same however it is sliced; the
    messages are :func:`check_save`'s.
    """

    def __init__(self, save: Mapping[str, Any], warm: Iterator[Any] | None = None) -> None:
        from conquest.core import get_game

        try:
            game = get_game(save["game"])
        except KeyError:
            raise SaveCodeError("game", f"This is a game of {save['game']!r}, which this site does not have.") from None
        self.save = save
        self.game = game
        self.warm = warm
        self.replay: Replay | None = None
        self.slices = 0

    @property
    def total(self) -> int:
        return len(self.save["log"])

    @property
    def done(self) -> int:
        return 0 if self.replay is None else self.replay.done

    def advance(self, budget_ms: float, clock: Callable[[], float]) -> Match | None:
        """One slice of about ``budget_ms``; the match when it is complete."""
        self.slices += 1
        if self.warm is not None:
            if next(self.warm, None) is not None:
                return None
            self.warm = None
        try:
            if self.replay is None:
                save = self.save
                self.replay = Replay(self.game, save["options"], save["log"], rng=Rng(None),
                                     undone=save.get("undone", ()), draws=save.get("draws"))
            return self.replay.match if self.replay.advance(budget_ms, clock) else None
        except ReplayError as exc:
            raise SaveCodeError("replay", f"The saved game does not replay: {exc.message}") from None
        except GameError as exc:
            raise SaveCodeError("options", f"The saved game cannot be set up: {exc.message}") from None
        except DrawError as exc:
            raise SaveCodeError("draws", f"The saved game's {exc.message[4:]}") from None

    def progress(self) -> str:
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
            out.append(Seat(isolate(name), colour, who))  # shown in sentences: isolated (item 8)
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
        this save's, made already (in slices: :meth:`Shell.link_code`)."""
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


# -- the page contract -----------------------------------------------------------------------
class GamePage:
    """What a game page adds to the shell: its options, its board, its controls.

    A page keeps all its own state in its instance (no module globals) and renders through
    methods that return :mod:`ui` trees, so pytest drives it with a fake host.
    """

    game_id: str = ""
    #: its views show every game (the Metagame's wheel): a game opens after they are
    #: imported, a module a slice (``core.importing_games``), not in one block
    needs_all_games: bool = False

    def __init__(self, shell: Shell) -> None:
        self.shell = shell
        #: on a device's page drawn by the host's (issue 37): the host's own page, for what
        #: only it holds and a device's page may show of it (the Metagame: the player's own
        #: link to a duel played live); None elsewhere
        self.host_page: GamePage | None = None

    # set-up
    def options(self, seats: list[Seat], fields: Mapping[str, str]) -> dict[str, Any]:
        """``new_game`` options from the seats and the page's own set-up fields."""
        return {"seats": [s.to_json() for s in seats]}

    def render_setup(self) -> dict[str, Node]:
        """Parts of the set-up that need the engine (e.g. saved presets), by container id."""
        return {}

    def open_fragment(self, fragment: str) -> bool:
        """A fragment this page handles itself (e.g. a position link); True if handled."""
        return False

    # play
    def opened(self) -> None:
        """A game was just opened (link, slot, file, new): restore page-local drafts."""

    def make_bot(self, level: str, rng: Rng) -> Any:
        """The bot for a seat of ``level``; None: the game's own ``bot_levels`` factory.

        A page overrides this for its own settings (e.g. a time limit per move)."""
        return None

    def on_key(self, ev: Any) -> bool:
        """A key pressed anywhere on the page outside a text field (``ui.Event`` with
        ``key`` and modifiers); True when the page used it."""
        return False

    def pick(self, index: int) -> None:
        """A pick on the build-time board (the map's click, tap or Enter): ``game-pick``."""

    def after_render(self) -> None:
        """Browser-only finishing touches after a render (animations, focus)."""

    def result_until(self) -> int | None:
        """The last step "What just happened" may show and announce (None: every one): a
        page cuts off a draw that is not to be read yet (a question behind "Get ready")."""
        return None

    #: where the keyboard focus goes when the control a person used is gone after the step
    #: (issue 21, item 2: not to the page's start, from where Tab walks the whole log); the
    #: element gets ``tabindex=-1``, so the next Tab reaches the first control inside it
    focus_home = "shell-bar-inner"

    def reset(self) -> None:
        """Forget half-made choices (after any step, undo or jump)."""

    def render(self, view: Mapping[str, Any]) -> Node:
        """The board and controls for ``view`` (the shell decides whose view)."""
        raise NotImplementedError

    def paint(self, view: Mapping[str, Any]) -> dict[str, dict[str, Any]]:
        """Changes to build-time elements (a map's territories): ``{element id: patch}``."""
        return {}

    def prompt(self, view: Mapping[str, Any]) -> str:
        """One line: what happens now and who does it."""
        seat = self.shell.session.acting_seat() if self.shell.session else None
        return f"{self.shell.session.seat_name(seat)} to play." if seat is not None else ""

    def log_label(self, before: Any) -> str:
        """A short label before a log line (e.g. "Turn 3"), from the state it was played in."""
        return ""

    def chart_points(self, states: Sequence[Any]) -> list[tuple[int, int]]:
        """Which states the chart shows, as ``(x, state index)``; default every step."""
        return [(i, i) for i in range(len(states))]

    chart_x_label = "steps played"


# -- the shell ---------------------------------------------------------------------------------
class Shell:
    """One game page's shared parts: session, messages, and the shared renderers."""

    def __init__(self, game: Game[Any, Any], host: Host) -> None:
        self.game = game
        self.host = host
        self.session: Session | None = None
        self.page: GamePage | None = None
        self.message: tuple[str, str] | None = None  # (kind, text): the toast
        self.field_errors: dict[str, str] = {}
        #: the first log line in sight, as the browser last said (``log_scrolled``); None: the
        #: box is at its end and follows the newest steps
        self.log_top: int | None = None
        #: the lines drawn by the last render_log, ``[start, end)``
        self.log_drawn: tuple[int, int] = (0, 0)
        #: a step whose line the browser is to scroll into sight (``take_log_reveal``)
        self.log_reveal: int | None = None
        self._log_viewed: int | None = None  # the viewed step last brought into sight
        #: the log's View button that is its one Tab stop (a roving tabindex, issue 21 item 2);
        #: None: the viewed step's, else the newest drawn
        self.log_focus: int | None = None
        self.show_codes = False
        self._links_cache: tuple[Any, Node] | None = None
        #: a long game's link code: ``(key, SaveEncoder)`` while it is made in slices, then
        #: ``(key, code)`` (issue 20, item 10)
        self._link_work: tuple[Any, SaveEncoder] | None = None
        self._link_code: tuple[Any, str] | None = None
        #: speed in this browser: "replay" (opening), "apply" (last step), "render" (ms)
        self.perf: dict[str, float] = {}
        #: state index -> (that state, its stats): only the chart's points are computed
        self._stats_cache: dict[int, tuple[Any, dict[str, list[float]]]] = {}
        #: (the states, how many, the last: held, so no other object takes its id; the points)
        self._chart_memo: tuple[Any, int, Any, list[tuple[int, int]]] | None = None
        self._chart_due: Any = None  # the states whose chart waits for a task of its own
        #: log index -> (the state after it, whether it is a draw the spectator cannot see)
        self._hidden_memo: dict[int, tuple[Any, bool]] = {}
        #: log lines already put in words, by index: ``(before, after, text, names, line)``
        #: (a render draws the last steps again; a live table renders on every device at each step)
        self._line_memo: dict[int, tuple[Any, Any, str, tuple[tuple[str, ...], bool], dict[str, Any]]] = {}
        #: slots of this game that cannot be opened, and why (checked when the page starts and
        #: whenever one fails to open): listed plainly with Delete and Export as stored
        self.damaged: dict[str, str] = {}
        #: the last "Check the draws" verdict and the log length it was made at (issue 26)
        self.draw_check: tuple[int, int, DrawCheck] | None = None
        #: (the options it was made for, the pattern of their names to isolate)
        self._bidi_pattern: tuple[Any, Any] | None = None

    # -- messages: where the person acts, announced, cleared when no longer true --------
    def say(self, text: str, kind: str = "notice") -> None:
        """Show ``text`` in the toast. A notice goes by itself after NOTICE_MS: on a phone
        the toast sits over the foot of the play sheet, where a long question put the
        Answer button (a notice said after "Play again" covered it in a timed question); an
        error stays until dismissed or the next step, to be read."""
        message = (kind, text)
        self.message = message
        if kind == "notice":
            def fade() -> None:
                if self.message is message:  # not a newer one
                    self.message = None
                    self.host.rerender()

            self.host.later(NOTICE_MS, fade)

    def refuse(self, exc: Exception) -> None:
        if isinstance(exc, ConquestError):
            self.say(exc.message, "error")
        else:
            self.say(f"Something went wrong ({type(exc).__name__}: {exc}). Your game is unchanged.", "error")

    def clear_message(self) -> None:
        self.message = None

    # -- opening games ----------------------------------------------------------------
    def open(self, match: Match, slot: Slot | None, mode: str = "host") -> Session:
        self.session = Session(match, slot.id if slot else None, "view" if mode == "view" else mode)
        self.session.rev = slot.rev if slot is not None else 0
        if slot is not None and slot.mode == "view":
            self.session.mode = "view"
        if self.session.mode == "host" and match.resolve_chance():
            self.autosave()  # a game that starts with a draw (deal, seat order) draws it now
        self._stats_cache.clear()
        self.log_top = None
        self.log_reveal = self._log_viewed = None
        self.log_focus = None
        if self.page is not None:
            self.page.reset()
            self.page.opened()
        return self.session

    def slot_name(self, save: Mapping[str, Any], mode: str) -> str:
        title = save["options"].get("title")
        base = str(title) if isinstance(title, str) and title.strip() else self.game.title
        return f"{base} (view)" if mode == "view" else base

    def start(self, fields: Mapping[str, str]) -> Session | None:
        """The set-up form was sent: check it, start the game, store it in a new slot."""
        assert self.page is not None
        seats, errors = parse_setup(fields, self.game.facts, list(bot_levels(self.game)))
        self.field_errors = dict(errors)
        if errors:
            self.say(errors[0][1], "error")
            return None
        title = " ".join(str(fields.get("title", "")).split())[:80]
        try:
            options = self.page.options(seats, fields)
            if title and title != self.game.title:
                options["title"] = title
            match = Match(self.game, options, rng=Rng(None))
        except GameError as exc:
            self.say(exc.message, "error")
            return None
        slot = None
        try:
            slot = self.host.store.create(match.save().to_json(), title or self.game.title, self.host.now())
        except StorageError:
            pass  # said by autosave below, which keeps the game in the address bar meanwhile
        self.clear_message()
        session = self.open(match, slot)
        if slot is not None:
            self.host.go(f"?slot={slot.id}")
        else:
            session.unsaved = True
            self.autosave()
        return session

    # -- playing through the shell (autosave, messages) -------------------------------
    def play(self, action: Any, contribution: str | None = None) -> bool:
        """Play and autosave; a refusal becomes the message and changes nothing.

        ``contribution``: see :meth:`Session.play` (a said word for the draw it opens)."""
        s = self.session
        if s is None:
            return False
        t0 = self.host.clock()
        mark = len(s.match.log)
        by_bot = self._bot_acts(s)
        try:
            self.refuse_if_pending()
            if contribution is None:
                s.play(action)
            else:
                s.play(action, contribution)
        except ConquestError as exc:
            self.say(exc.message, "error")
            return False
        self.perf["apply"] = self.host.clock() - t0
        self._note_result(s, mark, by_bot)
        self.after_change()
        return True

    @staticmethod
    def _bot_acts(s: Session) -> bool:
        seat = s.acting_seat()
        seats = s.seats()
        return seat is not None and seat < len(seats) and seats[seat].is_bot

    @staticmethod
    def _note_result(s: Session, mark: int, by_bot: bool) -> None:
        """A person's step starts a new "what just happened"; the computer's replies (and a
        computer's steps before anyone acted) join the one on screen (item 10)."""
        if not by_bot or s.result_from is None:
            s.result_from = mark

    def give_secret(self, seat: int, part: Any) -> bool:
        s = self.session
        if s is None:
            return False
        mark = len(s.match.log)
        by_bot = s.seats()[seat].is_bot if 0 <= seat < len(s.seats()) else False
        try:
            self.refuse_if_pending()
            done = s.give_secret(seat, part)
        except ConquestError as exc:
            self.say(exc.message, "error")
            return False
        if done:
            # the reveal is everyone's result: shown from the secret step on
            self._note_result(s, mark, by_bot and s.result_from is not None and s.result_from < mark)
            self.after_change()
        return True

    def undo(self) -> None:
        """Take back the last step (and the computer's steps after the last person's).

        Several people at one device: asked first, naming the step and whose it is, since
        it may be another person's; if it is, the device goes to that person and a pass
        screen comes before anything private is drawn (``Session.follow_device``)."""
        s = self.session
        if s is None:
            return
        try:
            self.refuse_if_pending()
            if not self.undo_confirmed():
                return
            removed = s.undo()
            # against the computer, back to the last person's move (else it would play again)
            steps = 1 if removed else 0
            while removed and s.humans() and s.match.log and (seat := s.acting_seat()) is not None \
                    and s.seats()[seat].is_bot:
                s.undo()
                steps += 1
        except ConquestError as exc:
            self.say(exc.message, "error")
            return
        s.result_from = None  # the undo's own message says what happened
        if removed:
            n = len(s.match.log)
            taken = [x for at, texts in s.match.undone if at >= n for x in texts]
            what = "the last step" if steps == 1 else f"the last {steps} steps, back to your move"
            self.say(
                f"Took back {what}."
                + (f" Chance results stay on record as taken back ({', '.join(taken)})." if taken else ""),
                "notice",
            )
        self.after_change(keep_message=True)

    def undo_confirmed(self) -> bool:
        """With several people at this device and something private on either side of the
        step (a hand, a secret choice), ask before taking it back: it may be another
        person's, whose things then go behind a pass screen. Where nothing is private on
        either side (the Metagame, The Game of Conquests, World Conquest's set-up), Undo
        stays one tap (issue 21's Undo of a pick)."""
        s = self.session
        if s is None or s.mode != "host" or s.locked() or s.at_device() is not None or len(s.humans()) < 2:
            return True
        last = s.last_step()
        if last is None:
            return True
        k, mover = last
        if not (s.private_anywhere(s.match.state) or s.private_anywhere(s.match.states[k])):
            return True
        who = f"{s.seat_name(mover)}'s" if mover is not None else "the"
        words = self.log_lines(k, k + 1)[0]["words"]
        if self.host.confirm(
            f"Take back step {k + 1}, {who} move ({words})? Everyone at this device should agree."
            + (f" The device then goes back to {s.seat_name(mover)}." if mover is not None and mover != s.device
               else "")
        ):
            return True
        self.say("Nothing was taken back.")
        return False

    # -- the pass screen: while it stands, nothing else reacts ---------------------------
    def pending(self) -> int | None:
        """The seat a pass screen waits for (``Session.needs_handover``), or None."""
        return None if self.session is None else self.session.needs_handover()

    def refuse_if_pending(self) -> None:
        """Every control of the page but Ready refuses while the device is being passed:
        a log View, Earlier/Later, the step box, Undo, a move, a key (issue 19)."""
        seat = self.pending()
        if seat is not None and self.session is not None:
            name = self.session.seat_name(seat)
            raise ShellError(
                "shell.handover",
                f"Pass the device to {name} first: until {name} presses Ready, only the Ready button works.",
            )

    def key(self, ev: Any) -> bool:
        """A key pressed outside a text field: the page's shortcut, unless a pass screen
        stands (then no shortcut works). True when the page used it."""
        if self.session is None or self.pending() is not None or self.page is None:
            return False
        return bool(self.page.on_key(ev))

    def pick(self, index: int) -> None:
        """A pick on the build-time board (map click, tap, Enter): the page's, unless a pass
        screen stands (then it is refused, and said)."""
        if self.page is None or self.session is None:
            return
        try:
            self.refuse_if_pending()
        except ShellError as exc:
            self.say(exc.message, "error")
            return
        self.page.pick(index)

    def close(self) -> None:
        """Back to the set-up (the game stays in the saved games)."""
        self.session = None
        self.clear_message()
        if self.page is not None:
            self.page.reset()
        self.host.go("?")

    def after_change(self, keep_message: bool = False) -> None:
        if not keep_message:
            self.clear_message()
        if self.page is not None:
            self.page.reset()
        self.autosave()

    def autosave(self) -> None:
        s = self.session
        if s is not None and s.slot_id is None and s.unsaved and s.mode == "host":
            self._store_unsaved()
            return
        if s is None or s.slot_id is None or s.mode != "host":
            return
        try:
            slot = self.host.store.autosave(s.slot_id, s.save(), self.host.now(), rev=s.rev,
                                            result=self.result_words())
        except StorageError as exc:
            if exc.code == "conflict":
                s.conflict = True  # render_message shows the choice; nothing is written
                return
            self.say(f"{exc} Copy the host link or download the game to keep it.", "error")
            return
        s.rev, s.conflict = slot.rev, False

    def _store_unsaved(self) -> None:
        """A game storage refused (issue 10, item 9): try again to store it in a new slot; while
        that fails, the game goes into the address bar (a reload keeps it) and the warning
        stands, saying exactly what to do."""
        s = self.session
        assert s is not None
        save = s.save()
        try:
            slot = self.host.store.create(save, self.slot_name(save, "host"), self.host.now())
        except StorageError as exc:
            if len(save["log"]) > LINKS_AT_ONCE:
                # a long game's code is made in slices (a block of 120-400 ms for 80,000
                # steps, at every step); the address follows when it is ready (_link_slice)
                code = self.link_code(id(s), self.save_key())
                if code is not None:
                    self.host.go("#h=" + code)
            else:
                self.host.go("#" + make_fragment(save, "h"))
            self.say(
                f"{exc} Meanwhile this game is kept in the address bar after every step: a reload keeps it, "
                "and you can bookmark or copy the address.",
                "error",
            )
            return
        s.slot_id, s.rev, s.unsaved = slot.id, slot.rev, False
        self.host.go(f"?slot={slot.id}")
        self.say(f"Saved in this browser now, as “{slot.name}”.")

    # -- two tabs on one game (issue 10, item 3) ----------------------------------------
    def slot_changed(self, slot_id: str) -> None:
        """Another tab wrote a slot (the browser's ``storage`` event): if it is this page's
        game and now holds a newer revision of another line, say so and offer the choice."""
        s = self.session
        if s is None or s.slot_id != slot_id or s.mode != "host":
            return
        try:
            save, rec = self.host.store.read(slot_id)
        except StorageError as exc:
            if exc.code == "missing" and not any(sl.id == slot_id for sl in self.host.store.list(self.game.id)):
                s.slot_id = None  # deleted elsewhere: this page keeps the game, unsaved
                self.say("This game was deleted in another tab. It is still open here: keep it as a new "
                         "saved game with “Continue from here”, or download it.", "error")
            return
        rev = rec["rev"] if rec is not None else s.rev
        if rev == s.rev:
            return
        if save == s.save():
            s.rev = rev  # the same game (e.g. saved by this page's twin): nothing to choose
            return
        s.conflict = True

    def open_newer(self) -> None:
        """The person chose the version another tab saved: open it (this page's line goes)."""
        s = self.session
        if s is None or s.slot_id is None:
            return
        try:
            slot = self.host.store.get(s.slot_id)
            match = check_save(self.host.store.open(s.slot_id))
        except (SaveCodeError, StorageError) as exc:
            self.say(f"{exc.message} This page's game is unchanged.", "error")
            return
        self.open(match, slot, slot.mode)
        self.say(f"Opened the newer version of “{slot.name}” ({plural(len(match.log), 'step')}).")

    def keep_as_new(self) -> Slot | None:
        """The person keeps this page's line: a new slot; the other tab's game stays as it is."""
        s = self.session
        if s is None:
            return None
        save = s.save()
        try:
            old = self.host.store.get(s.slot_id).name if s.slot_id else self.slot_name(save, "host")
        except StorageError:
            old = self.slot_name(save, "host")
        name = f"{old} (this tab's line)"
        try:
            slot = self.host.store.create(save, name, self.host.now())
        except StorageError as exc:
            self.say(str(exc), "error")
            return None
        s.slot_id, s.rev, s.conflict = slot.id, slot.rev, False
        self.host.go(f"?slot={slot.id}")
        self.say(f"Kept this page's game as a new saved game, “{slot.name}”; the other tab's game is unchanged.")
        return slot

    def render_conflict(self) -> Node:
        return h(
            "div",
            h("span", CONFLICT_MESSAGE, cls="shell-toast-text", id="shell-conflict-text"),
            h("span",
              h("button", "Open the newer version", type="button", id="shell-conflict-reload", cls="small",
                on_click=lambda ev: self.open_newer()),
              h("button", "Keep mine as a new saved game", type="button", id="shell-conflict-keep",
                cls="small secondary", on_click=lambda ev: self.keep_as_new()),
              cls="shell-conflict-actions"),
            id="shell-toast-inner",
            cls="shell-toast-box error shell-conflict",
            role="alert",
        )

    def jump(self, step: int | None) -> None:
        if self.session is None:
            return
        try:
            self.refuse_if_pending()
            self.session.jump(step)
        except ConquestError as exc:
            self.say(exc.message, "error")
            return
        if self.page is not None:
            self.page.reset()

    def branch(self) -> Slot | None:
        """"Continue from here": the game up to the step on screen, as a new slot."""
        s = self.session
        if s is None:
            return None
        try:
            self.refuse_if_pending()
        except ShellError as exc:
            self.say(exc.message, "error")
            return None
        save = s.branch_save()
        name = f"{self.slot_name(save, 'host')} (from step {s.step()})"
        try:
            slot = self.host.store.create(save, name, self.host.now())
        except StorageError:
            slot = None
        match = Match(
            self.game, save["options"], save["log"], rng=Rng(None), undone=save.get("undone", ()), draws=save.get("draws")
        )
        session = self.open(match, slot)
        if slot is None:  # storage refused (full, disabled): the new line lives in the address bar
            session.unsaved = True
            self.autosave()
            return None
        self.say(f"Continuing from step {len(save['log'])} as a new saved game, “{name}”; the original is kept.")
        self.host.go(f"?slot={slot.id}")
        return slot

    # -- bots ---------------------------------------------------------------------------
    def bot_turn(self) -> BotTurn | None:
        """The bot decision to think about now (started if needed), or None."""
        s = self.session
        if s is None:
            return None
        seat = s.bot_to_act()
        if seat is None:
            s.bot = None
            return None
        secret = bool(self.game.simultaneous(s.match.state))
        key = (len(s.match.log), seat, secret)
        if s.bot is not None and s.bot.key == key:
            return s.bot
        bot = self.page.make_bot(s.seats()[seat].who, Rng(None)) if self.page else None
        if bot is None:
            levels = bot_levels(self.game)
            bot = (levels.get(s.seats()[seat].who) or next(iter(levels.values())))(Rng(None))
        state = s.match.state
        thinking = bot.think_secret(self.game, state, seat) if secret else bot.think(self.game, state)
        s.bot = BotTurn(seat, thinking, key, bot=bot, secret=secret)
        return s.bot

    def bot_step(self, budget_ms: float) -> bool:
        """Advance the bot one slice; True when it played (the page re-renders)."""
        s = self.session
        turn = self.bot_turn()
        if s is None or turn is None:
            return False
        done, choice = turn.advance(budget_ms, self.host.clock)
        if not done:
            return False
        if s.bot is not turn:  # the position changed while it thought
            return False
        s.bot = None
        if turn.secret:
            return self.give_secret(turn.seat, choice)
        return self.play(choice)

    def stop_bots(self) -> None:
        if self.session is not None:
            self.session.bots_paused = True
            self.session.bot = None
            self.say(f"The computer players are paused. {tap_word(self.host)} “Let the computer play” to go on.")

    def resume_bots(self) -> None:
        if self.session is not None:
            self.session.bots_paused = False
            self.clear_message()

    # -- hot-seat ---------------------------------------------------------------------
    def ready(self, seat: int) -> None:
        """The person of ``seat`` has the device: their view may be drawn, their clock runs
        (``Session.ready_at``: a timed answer counts from here)."""
        s = self.session
        if s is not None and 0 <= seat < len(s.seats()) and not s.seats()[seat].is_bot:
            s.device = s.shown_seat = seat
            s.ready_at = self.host.clock()

    # -- text direction: every mounted tree passes here (issue 20, item 8) -------------
    def isolated(self, tree: Node) -> Node:
        """``tree`` with every name from the game's options isolated in its texts, and any
        text still holding a loose direction control isolated whole (:func:`ui.isolate_tree`).

        The names are every text in the options with right-to-left letters or controls in it
        (seat and player names, a title, a wheel's games, a custom map's territories): they
        are what a link or a file brings, wherever a page writes them.
        """
        s = self.session
        key = None if s is None else id(s.match.options)
        if self._bidi_pattern is None or self._bidi_pattern[0] != key:
            names = option_texts(s.match.options) if s is not None else []
            self._bidi_pattern = (key, names_pattern(names))
        return isolate_tree(tree, self._bidi_pattern[1])

    # -- renderers of the shared parts --------------------------------------------------
    def render_message(self) -> Node:
        if self.session is not None and self.session.conflict:
            return self.render_conflict()
        if self.message is None:
            return h("div", id="shell-toast-inner", hidden=True)
        kind, body = self.message
        return h(
            "div",
            h("span", body, cls="shell-toast-text"),
            h("button", "×", type="button", cls="shell-toast-close", aria_label="Dismiss",
              on_click=lambda ev: self.clear_message()),
            id="shell-toast-inner",
            cls=f"shell-toast-box {kind}",
            role="alert" if kind == "error" else "status",
            # a refusal is the newest result of the tap that was refused (issue 41): brought
            # into view with the page's next decision (shell_browser.bring_now)
            data_now="result" if kind == "error" else None,
        )

    def result_words(self) -> str:
        """A finished game's result in a few words ("Ann won", "Ann and Bob won", "A draw");
        "" while it goes on. Kept in the saved games' list (item 3)."""
        s = self.session
        if s is None:
            return ""
        out = self.game.outcome(s.match.state)
        if out is None:
            return ""
        names = [s.seat_name(w) for w in out.winners]
        if not names:
            return "A draw"
        if len(names) == len(s.seats()) and len(names) > 1:
            return "A draw"
        return (" and ".join(names) if len(names) <= 2 else ", ".join(names[:-1]) + " and " + names[-1]) + " won"

    def rematch(self) -> Session | None:
        """The same players and options again, a new game in a new slot; the finished one
        stays in the saved games (item 3: the next step offered where the game ends)."""
        s = self.session
        if s is None:
            return None
        try:
            match = Match(self.game, dict(s.match.options), rng=Rng(None))
        except GameError as exc:
            self.say(exc.message, "error")
            return None
        save = match.save().to_json()
        name = self.slot_name(save, "host")
        slot = None
        try:
            slot = self.host.store.create(save, name, self.host.now())
        except StorageError as exc:
            self.say(f"{exc} The finished game is unchanged.", "error")
            return None
        session = self.open(match, slot)
        self.host.go(f"?slot={slot.id}")
        self.say(f"A new game of {self.game.title} with the same players; the finished one is in your saved games.")
        return session

    def render_over(self) -> Node | None:
        """A finished game's next steps, in the bar at the top where the last move was seen
        (item 3: they were only at the page's foot, and Undo was offered instead)."""
        s = self.session
        assert s is not None
        words = self.result_words()
        if not words or s.viewing is not None:
            return None
        from duel_desk import duel_next  # here: duel_desk imports live, which imports shell

        duel = duel_next(self)  # a campaign's duel: its own next step (M12), not "Play again"
        if duel is not None:
            return duel
        rematch = None
        if s.mode == "host" and s.only_seat is None:
            rematch = h("button", "Play again", type="button", id="shell-rematch", cls="small",
                        on_click=lambda ev: self.rematch(),
                        title="A new game with the same players and options")
        return h("span",  # the page's prompt beside it says who won, in the game's own words
                 rematch,
                 h("a", "Start or resume another game", href="?", id="shell-over-new", cls="button small secondary"),
                 cls="shell-over")

    def render_over_row(self, hide: bool = False) -> Node:
        """The finished game's next steps in a row of their own right under the status bar
        (``#shell-over``): in the bar they were cut off on a phone, where it is at most 56 px
        tall (issue 21: "Play again" half shown, "Start or resume another game" not at all).
        ``hide``: none (a live table's guest)."""
        over = self.render_over() if self.session is not None and not hide else None
        if over is None:
            return h("div", id="shell-over-inner", hidden=True)
        return h("div", over, id="shell-over-inner", role="group", aria_label="The game is over: what next")

    def chosen_words(self) -> str:
        """Who has already chosen at an open secret step ("Bob has chosen; waiting for Ann"),
        the same words on every device of a live table and at a hot-seat device (issue 22):
        names only, never a choice. "" when no secret step is open, nobody has chosen yet,
        or an earlier step is on screen."""
        s = self.session
        if s is None or s.viewing is not None:
            return ""
        secret = self.game.simultaneous(s.match.state)
        done = s.chosen_seats()
        if not secret or not done:
            return ""
        names = [s.seat_name(x) for x in done]
        left = [s.seat_name(x) for x in secret if x not in done]
        words = f"{and_list(names)} {'has' if len(names) == 1 else 'have'} chosen"
        if left:
            words += f"; waiting for {and_list(left)}"
        return words

    def render_status(self, prompt: str) -> Node:
        """The sticky bar: whose turn, what to do, and Undo beside it (a finished game's next
        steps are right under it, ``render_over_row``)."""
        s = self.session
        assert s is not None
        over = bool(self.result_words()) and s.viewing is None
        seat = s.acting_seat()
        seats = s.seats()
        swatch = None
        if seat is not None and seat < len(seats):
            swatch = h("span", cls="swatch", style=f"background:{seats[seat].colour}", aria_hidden="true")
        step = f"Step {s.step()} of {len(s.match.log)}" if s.viewing is not None else f"Step {len(s.match.log)}"
        chosen = self.chosen_words()
        undo = None
        if s.mode == "host" and not over:
            undo = h(
                "button", "Undo", type="button", id="shell-undo", cls="secondary small",
                disabled=s.locked() or not s.match.log or self.pending() is not None,
                on_click=lambda ev: self.undo(),
                aria_label="Undo the last step",
            )
        thinking = None
        if s.bot is not None or s.bot_to_act() is not None:
            who = s.seat_name(s.bot.seat if s.bot else s.bot_to_act())
            progress = s.bot.progress() if s.bot is not None else None
            thinking = h(
                "span",
                h("span", f"{who} (computer) is thinking…", cls="shell-thinking-text"),
                h("progress", max="100", value=str(int(progress * 100)), id="shell-bot-progress",
                  aria_label="How far the computer has thought") if progress is not None else None,
                h("button", "Stop", type="button", id="shell-bot-stop", cls="small secondary",
                  on_click=lambda ev: self.stop_bots()),
                id="shell-thinking", cls="shell-thinking", role="status",
            )
        elif s.bots_paused and any(x.is_bot for x in seats) and not s.locked():
            thinking = h("button", "Let the computer play", type="button", id="shell-bot-go", cls="small",
                         on_click=lambda ev: self.resume_bots())
        return h(
            "div",
            swatch,
            h("p", h("span", f"{step} · ", cls="shell-stepno"), h("span", self.isolate_names(prompt), id="shell-prompt"),
              h("span", f" · {chosen}", id="shell-chosen", cls="shell-chosen") if chosen else None),
            thinking,
            undo,
            id="shell-bar-inner",
            cls="shell-bar-inner" + (" is-past" if s.viewing is not None else ""),
        )

    def result_lines(self) -> tuple[list[dict[str, Any]], int]:
        """The steps since the person's last action in words (at most ``RESULT_SHOWN``), and
        how many earlier ones of them are left to the log."""
        s = self.session
        if s is None or s.result_from is None or s.viewing is not None:
            return [], 0
        n = len(s.match.log)
        until = self.page.result_until() if self.page is not None else None
        if until is not None:
            n = max(0, min(n, until))
        start = min(max(0, s.result_from), n)
        first = max(start, n - RESULT_SHOWN)
        return self.log_lines(first, n), first - start

    def announcement(self) -> str:
        """What a screen reader is told after a step: the same words as the result box, in
        one line (the page writes it into the polite live region ``#shell-announce``)."""
        lines, _ = self.result_lines()
        # a log line ends its own sentence ("... (S3)."): a second full stop read "S3).." (issue 41)
        return " ".join(f"Step {x['step']}: {x['words']}" + ("" if str(x["words"]).endswith((".", "!", "?")) else ".")
                        for x in lines)

    def render_result(self) -> Node:
        """"What just happened": every result of the last action (a person's step, the dice
        or reveal it drew, the computer's replies) in words, for the page to place in its
        controls, where the person is looking (issue 21, item 10). Announced through
        ``#shell-announce`` (see :meth:`announcement`), so this box is not a live region
        itself (it is rebuilt with the panel; a live region must stay put)."""
        lines, earlier = self.result_lines()
        if not lines:
            return h("div", id="shell-result-inner", cls="shell-result", hidden=True)
        items = [
            h("li", h("span", f"Step {line['step']}", cls="shell-turn"),
              h("span", line["label"], cls="shell-turn") if line["label"] else None,
              h("span", line["words"]), cls="is-chance" if line["chance"] else None, value=str(line["step"]))
            for line in lines
        ]
        return h(
            "div",
            h("p", "What just happened", cls="shell-result-title"),
            h("ol", *items, cls="shell-result-list", id="shell-result-list"),
            h("p", f"{plural(earlier, 'earlier step')} since then in the log below.", cls="muted")
            if earlier else None,
            # a phone's sheet shows the newest two lines (style.css): the others are in the log
            h("p", "The earlier ones are in the log below.", cls="muted shell-result-more")
            if len(lines) > 2 and not earlier else None,
            id="shell-result-inner",
            cls="shell-result",
        )

    def render_perf(self) -> Node:
        """How fast the engine and the page are in this very browser (figures for hosts)."""
        s, perf = self.session, self.perf
        parts = []
        if "replay" in perf and s is not None:
            parts.append(f"Game of {plural(int(perf.get('replay_steps', 0)), 'step')} replayed in "
                         f"{perf['replay']:.0f} ms on opening"
                         + (f" ({plural(int(perf['replay_slices']), 'slice')})" if perf.get("replay_slices") else ""))
        if "apply" in perf:
            parts.append(f"last step: engine {perf['apply']:.1f} ms")
        if "render" in perf:
            parts.append(f"page update {perf['render']:.0f} ms")
        return h("p", ("Speed in this browser: " + "; ".join(parts) + ".") if parts else "",
                 id="shell-perf-inner", cls="muted")

    def render_viewing(self) -> Node:
        s = self.session
        assert s is not None
        if s.viewing is None or self.pending() is not None:
            return h("div", id="shell-viewing-inner", hidden=True)
        n = len(s.match.log)
        return h(
            "div",
            h("strong", f"Viewing step {s.viewing} of {n}: the game as it was then. Nothing can be played here."),
            self.viewed_words(s.viewing),
            h("button", "◀ Earlier", type="button", cls="small", id="shell-view-prev",
              disabled=s.viewing <= 0, on_click=lambda ev: self.jump(max(0, (s.viewing or 0) - 1))),
            h("button", "Later ▶", type="button", cls="small", id="shell-view-next",
              on_click=lambda ev: self.jump((s.viewing or 0) + 1)),
            h("label", "Step ", h("input", type="number", min="0", max=str(n), value=str(s.viewing),
                                  id="shell-view-step", cls="shell-step-input",
                                  on_change=lambda ev: self._jump_typed(ev.value)), for_="shell-view-step"),
            h("button", "Back to the present", type="button", id="shell-view-present",
              on_click=lambda ev: self.jump(None)),
            None if s.mode != "host" else h(
                "button", "Continue from here", type="button", id="shell-branch", cls="secondary",
                on_click=lambda ev: self.branch(),
                title="Start a new saved game from this step; the original stays as it is",
            ),
            id="shell-viewing-inner",
            cls="shell-viewing",
        )

    def viewed_words(self, step: int) -> Node | None:
        """The viewed step's line of the log, whole: the log's rows show two or three lines of
        text (a phone's row cuts a long one), so the step on screen is also said here."""
        s = self.session
        assert s is not None
        if not 0 < step <= len(s.match.log):
            return None
        line = self.log_lines(step - 1, step)[0]
        return h("p", h("span", line["label"], cls="shell-turn") if line["label"] else None, " " if line["label"] else None,
                 line["words"], h("span", f" ({line['draw']})", cls="shell-draw") if line["draw"] else None,
                 id="shell-viewing-words", cls="shell-viewing-words")

    def _jump_typed(self, value: str) -> None:
        try:
            self.jump(int(value))
        except ValueError:
            self.say("Type the number of a step.", "error")

    def log_lines(self, start: int, end: int) -> list[dict[str, Any]]:
        """Plain words for log entries ``start..end-1``; never raises (a log is data)."""
        s = self.session
        assert s is not None
        out = []
        names = tuple(seat.name for seat in s.seats())
        draws = self.draw_labels()
        # in a long game a draw's code is judged only when codes are shown: judging it takes
        # views of the states around it, a second for a log window of a 40,000-step Campaign
        # (issue 20, item 10); until then the code is not in the page at all
        lazy = not self.show_codes and len(s.match.log) > LINKS_AT_ONCE
        for i in range(start, end):
            text = s.match.log[i]
            before = s.match.states[i]
            after = s.match.states[i + 1] if i + 1 < len(s.match.states) else None
            memo = self._line_memo.get(i)
            drawn = draws.get(i, "")
            if (memo is not None and memo[0] is before and memo[1] is after and memo[2] == text
                    and memo[3] == (names, lazy) and memo[4]["draw"] == (drawn if memo[4]["chance"] else "")):
                out.append(memo[4])
                continue
            chance = self.game.chance(before) is not None
            try:
                words = self.game.describe_action(before, self.game.parse_action(text))
            except Exception:  # describing is best effort; the code is still shown
                words = text
            label = self.page.log_label(before) if self.page is not None else ""
            code = HIDDEN_CODE if chance and (lazy or self.hidden_draw(i)) else text
            line = {"step": i + 1, "words": self.isolate_names(words), "code": code, "chance": chance,
                    "label": label, "draw": drawn if chance else ""}
            self._line_memo[i] = (before, after, text, (names, lazy), line)
            out.append(line)
        return out

    def draw_labels(self) -> dict[int, str]:
        """Log index -> how its draw was made (issue 26): "draw 12, automatic" or "draw 12,
        said by Bob: “whale”". Empty for a game whose draws are not recorded; never raises."""
        s = self.session
        assert s is not None
        names = [seat.name for seat in s.seats()]
        return {i: f"draw {d + 1}, {describe_contribution(c, names, short=True)}"
                for i, (d, c) in self.draws_by_step().items()}

    def draws_by_step(self) -> dict[int, tuple[int, str]]:
        """Log index -> (draw number from 0, its contribution); cached per log; never raises."""
        s = self.session
        assert s is not None
        rec = getattr(s.match, "draws", None)
        if rec is None:
            return {}
        key = (id(s.match), id(rec), rec.count, len(s.match.log), len(s.match.undone))
        memo = getattr(self, "_draws_memo", None)
        if memo is not None and memo[0] == key:
            return memo[1]
        try:
            kept = s.match.kept_draws()
        except Exception:  # noqa: BLE001 - a damaged record: Check the draws says where
            kept = []
        steps = [i for i in range(len(s.match.log)) if self.game.chance(s.match.states[i]) is not None]
        found = {i: (d, rec.contributions[d]) for i, d in zip(steps, kept, strict=False) if d < rec.count}
        self._draws_memo = (key, found)
        return found

    def check_draws(self) -> DrawCheck | None:
        """"Check the draws": recompute every draw of the game from its seals and contributions
        (the very check ``python -m conquest verify`` makes) and say the verdict."""
        s = self.session
        if s is None:
            return None
        if not hasattr(s.match, "kept_draws"):  # a live guest's mirror: the record is the host's
            self.say("At a live table the host's device keeps the draws' record: check the host's link "
                     "(Check the draws there, or python -m conquest verify).")
            return None
        result = check_draws(self.game, s.match.states, s.match.log, s.match.undone, getattr(s.match, "draws", None))
        if result.at_step is not None and self.hidden_draw(result.at_step):
            # a card in someone's hand: the verdict may not show what it is (issue 19)
            result.problem = (f"step {result.at_step + 1} of the log (a card in a hand, not shown here) is not what "
                              "its link, number and contribution give")
        self.draw_check = (id(s), len(s.match.log), result)
        self.say(result.summary(), "error" if result.status == "mismatch" else "notice")
        return result

    def render_draw_check(self) -> Node:
        """The "Check the draws" button and its last verdict (while the log is unchanged)."""
        s = self.session
        assert s is not None
        shown = self.draw_check
        verdict = None
        if shown is not None and shown[0] == id(s) and shown[1] == len(s.match.log):
            result = shown[2]
            verdict = h("p", result.summary(), id="shell-draw-verdict", role="status",
                        cls="shell-draw-verdict " + ("is-bad" if result.status == "mismatch" else "is-ok"),
                        data_status=result.status)
        return h(
            "div",
            h("button", "Check the draws", type="button", cls="small secondary", id="shell-check-draws",
              disabled=self.pending() is not None, on_click=lambda ev: self.check_draws()),
            h("span", " Recomputes every spin, roll, shuffle and deal from the host's seal and each draw's "
                      "contribution (", h("a", "how the draws are made", href=DRAWS_RULES_URL), ").", cls="muted"),
            verdict,
            id="shell-draws",
            cls="shell-draws",
        )

    def hidden_draw(self, i: int) -> bool:
        """Whether log entry ``i`` is a chance result the spectator cannot see (a card drawn
        into a secret hand): its code is then not drawn, since it would tell everybody at
        the device what the card is (issue 19). Cached per state; never raises (a log is
        data: a draw that cannot be judged keeps its code)."""
        s = self.session
        assert s is not None
        before, after = s.match.states[i], s.match.states[i + 1]
        memo = self._hidden_memo.get(i)
        if memo is None or memo[0] is not after:
            try:
                hidden = draw_is_hidden(self.game, before, after, s.match.log[i])
            except Exception:  # noqa: BLE001
                hidden = False
            memo = self._hidden_memo[i] = (after, hidden)
        return memo[1]

    def isolate_names(self, text: str) -> str:
        """``text`` (an engine's words) with each seat name in it isolated (issue 20, item 8):
        the engines write names into sentences ("Ann claims Alaska"), where a name's
        right-to-left override reversed the rest of the line."""
        s = self.session
        if s is None:
            return text
        for seat in s.seats():
            if seat.name.startswith(FSI) and seat.name.endswith(PDI):
                raw = seat.name[1:-1]
                text = text.replace(seat.name, raw).replace(raw, seat.name)
        return text

    def render_log(self) -> Node:
        """The log in plain words, drawn as the person scrolls (see ``LOG_SHOWN``), each line
        with "View"; taken-back chance results listed where they were drawn."""
        s = self.session
        assert s is not None
        n = len(s.match.log)
        start, end = self.log_range()
        self.log_drawn = (start, end)
        inert = self.pending() is not None  # the pass screen: words only, no button reacts
        items: list[Node] = []
        lines = self.log_lines(start, end)
        stop = self.log_stop([line["step"] for line in lines])
        for line in lines:
            step = line["step"]
            cls = "is-viewed" if s.viewing == step else ("is-future" if s.viewing is not None and step > s.viewing else None)
            items.append(
                h(
                    "li",
                    h("span", f"{step:,}", cls="shell-stepnum", aria_hidden="true"),
                    h("span",
                      h("span", line["label"], cls="shell-turn") if line["label"] else None,
                      h("span", line["words"]),
                      h("span", f" ({line['draw']})", cls="shell-draw") if line["draw"] else None,
                      " ",
                      h("code", line["code"], cls="shell-code"),
                      cls="shell-line"),
                    h("button", "View", type="button", cls="small", data_view=str(step), disabled=inert,
                      id=f"shell-view-{step}", tabindex="0" if step == stop else "-1",
                      aria_label=f"View the game after step {step}", on_click=lambda ev, k=step: self.view_step(k)),
                    cls=cls,
                    data_step=str(step),
                    value=str(step),
                    aria_posinset=str(step),
                    aria_setsize=str(n),
                )
            )
        undone = [
            h("li", f"Taken back after step {at}: " + "; ".join(self.taken_back_words(at, x) for x in texts)
              + " (drawn, then undone)", h("code", " ".join(texts), cls="shell-code"), cls="shell-taken-back")
            for at, texts in s.match.undone
        ]
        shown = f"steps {start + 1:,} to {end:,} of {n:,} drawn" if n else "no steps yet"
        return h(
            "div",
            h("label", h("input", type="checkbox", id="shell-show-codes", checked=self.show_codes, disabled=inert,
                         on_change=lambda ev: setattr(self, "show_codes", ev.checked)),
              " Show the action codes (for hosts who type actions)", cls="shell-codes-toggle"),
            h("div",
              h("ol", *items, id="shell-log", cls="shell-log" + (" show-codes" if self.show_codes else ""),
                start=str(start + 1), data_before=str(start), data_after=str(n - end),
                style=f"--log-before:{start};--log-after:{n - end}",
                aria_label=f"Log of the game ({shown}): one Tab stop; the arrow keys, Page Up, Page Down, "
                           "Home and End move between its steps",
                on_keydown=None if inert else (lambda ev: self.log_key(ev))),
              id="shell-log-scroll", cls="shell-log-scroll", data_steps=str(n)),
            h("ul", *undone, cls="shell-taken", aria_label="Chance results taken back") if undone else None,
            self.render_draw_check(),
            id="shell-log-inner",
        )

    def log_stop(self, steps: Sequence[int]) -> int | None:
        """The one View button of the drawn ``steps`` that Tab reaches (issue 21, item 2: the
        ~60 buttons were ~60 Tab stops between the controls and the map): the one last moved to
        with the arrow keys or used, else the step on screen, else the newest."""
        s = self.session
        if not steps or s is None:
            return None
        for k in (self.log_focus, s.viewing):
            if k is not None and k in steps:
                return k
        return steps[-1]

    def log_key(self, ev: Any, steps: Sequence[int] | None = None) -> None:
        """Arrow keys (Up/Left: earlier, Down/Right: later), Page Up/Down, Home and End move
        through the whole log's View buttons (a roving tabindex), drawing the lines they reach
        (issue 20, item 10); other keys are left to the page."""
        s = self.session
        assert s is not None
        n = len(s.match.log)
        drawn = list(range(self.log_drawn[0] + 1, self.log_drawn[1] + 1)) if steps is None else list(steps)
        stop = self.log_stop(drawn)
        if stop is None:
            return
        moves = {"ArrowUp": stop - 1, "ArrowLeft": stop - 1, "ArrowDown": stop + 1, "ArrowRight": stop + 1,
                 "Home": 1, "End": n, "PageUp": stop - LOG_PAGE, "PageDown": stop + LOG_PAGE}
        if ev.key not in moves or ev.ctrl or ev.alt or ev.meta:
            return
        ev.prevent()
        self.log_focus = max(1, min(n, moves[ev.key]))
        if not self.log_drawn[0] < self.log_focus <= self.log_drawn[1]:
            self.log_top = max(0, self.log_focus - 1 - LOG_SHOWN // 2)
            self.log_reveal = self.log_focus
            self.host.rerender()  # its button is drawn before it takes the focus
        self.host.focus(f"shell-view-{self.log_focus}")

    def view_step(self, step: int) -> None:
        """A log View pressed: that step on screen, and its button the log's Tab stop."""
        self.log_focus = step
        self._log_viewed = step  # it is in sight already: the log stays where the person put it
        self.jump(step)

    def log_range(self) -> tuple[int, int]:
        """The log lines drawn, ``[start, end)``: those in sight (``log_top``, else the newest)
        and ``LOG_MARGIN`` more each side, never more than ``LOG_WINDOW``. A step viewed from
        elsewhere (◀ Earlier, a typed step, the audience following the host) is brought into
        sight once, so the person can scroll away from it again."""
        s = self.session
        assert s is not None
        n = len(s.match.log)
        top = max(0, n - LOG_SHOWN) if self.log_top is None else max(0, min(self.log_top, n - 1))
        if s.viewing is not None and s.viewing != self._log_viewed:
            self._log_viewed = s.viewing
            if not top < s.viewing <= top + LOG_SHOWN // 2:
                top = self.log_top = max(0, min(s.viewing - 1 - LOG_SHOWN // 4, n - 1))
                self.log_reveal = s.viewing
        elif s.viewing is None:
            self._log_viewed = None
        start = max(0, top - LOG_MARGIN)
        return start, min(n, top + LOG_SHOWN + LOG_MARGIN)

    def log_scrolled(self, first: int, at_end: bool) -> bool:
        """The browser says the log's box shows line ``first`` (0-based) at its top, and
        whether it is scrolled to its end (then it follows the newest steps). True when the
        lines in sight come near the edge of those drawn: the log is to be drawn again."""
        s = self.session
        if s is None:
            return False
        n = len(s.match.log)
        self.log_top = None if at_end else max(0, min(first, n - 1))
        start, end = self.log_drawn
        top = max(0, n - LOG_SHOWN) if self.log_top is None else self.log_top
        near = LOG_MARGIN // 3
        return (start > 0 and top < start + near) or (end < n and top + LOG_SHOWN > end - near)

    def take_log_reveal(self) -> int | None:
        """The step whose line the browser should scroll into sight after this render (once)."""
        step, self.log_reveal = self.log_reveal, None
        return step

    def taken_back_words(self, at: int, text: str) -> str:
        """A chance result drawn after step ``at`` and then undone, in words (issue 21, item 8:
        "r26 12,12,10,10" says nothing to a person); its code stays beside it. Best effort:
        the state it was drawn in is on the present line only while ``at`` is."""
        s = self.session
        assert s is not None
        if 0 <= at < len(s.match.states):
            try:
                return self.game.describe_action(s.match.states[at], self.game.parse_action(text))
            except Exception:  # noqa: BLE001 - a log entry is data; its code is shown then
                pass
        return text

    def render_links(self, base: str) -> Node:
        s = self.session
        assert s is not None
        seat = self.pending()
        if seat is not None:  # a link opens the game at the present, past the pass screen
            return h("div", h("p", f"The links come back when {s.seat_name(seat)} has pressed Ready.",
                              cls="muted"), id="shell-links-inner")
        key = (id(s), base, *self.save_key())
        if self._links_cache is not None and self._links_cache[0] == key:
            return self._links_cache[1]  # compressing the save again for every click is waste
        code = None
        if len(s.match.log) > LINKS_AT_ONCE:
            # a long game's links are made in slices after this render, each its own task, so
            # a press (or a bot's step) is on screen first and nothing blocks long (issue 20,
            # item 10: compressing an 80,000-step save was one 120-400 ms block)
            code = self.link_code(id(s), self.save_key())
            if code is None:
                return h("div", h("p", "Preparing the links…", cls="muted", role="status"), id="shell-links-inner")
        links = s.links(base, code)
        rows = []
        mine = s.seat_link(base, code)
        if mine is not None:  # a copy for one player: the next link is made for the other one
            seat, url = mine
            name = s.seat_name(seat)
            rows.append(h(
                "div",
                h("button", f"Copy the link for {name}", type="button", cls="small", id="shell-copy-seat",
                  data_copy=url),
                " ",
                h("span", f"{len(url):,} of {CHAT_LIMIT:,} characters a chat message allows", cls="shell-len"),
                h("p", f"This copy plays for {s.seat_name(s.only_seat)}. Send {name} this link: "
                       f"it opens a copy that plays for {name}.", cls="muted"),
                h("span", url, cls="url", id="shell-seat-url"),
                cls="shell-link-row",
            ))
        for mode, label in (("h", "host"), ("v", "view")):
            if mode == "h" and s.mode != "host":
                continue
            url = links[mode]
            over = len(url) > CHAT_LIMIT
            what = (
                "Host link: continues the game on another device"
                if mode == "h"
                else f"View link: the game as it is now, at step {len(s.match.log)}; read-only. Send a new one "
                "after more steps."
            )
            rows.append(
                h(
                    "div",
                    h("button", f"Copy {label} link" + (f" (step {len(s.match.log)})" if mode == "v" else ""),
                      type="button", cls="small", id=f"shell-copy-{label}", data_copy=url),
                    " ",
                    h("span", f"{len(url):,} of {CHAT_LIMIT:,} characters a chat message allows"
                      + (" — too long for a chat message: send the file instead" if over else ""),
                      cls="shell-len" + (" over" if over else ""), id=f"shell-{label}-len"),
                    h("p", what, cls="muted"),
                    h("span", url, cls="url", id=f"shell-{label}-url"),
                    cls="shell-link-row",
                )
            )
        tree = h("div", *rows, id="shell-links-inner")
        self._links_cache = (key, tree)
        return tree

    def save_key(self) -> tuple[Any, ...]:
        """Which save the session holds (its log's length and end, its undos, mode and seat): its
        links and the audience tab's message are made again only when it changes."""
        s = self.session
        assert s is not None
        return (len(s.match.log), tuple(s.match.log[-1:]), len(s.match.undone), s.mode, s.only_seat)

    def link_code(self, sid: int, key: Any) -> str | None:
        """The link code of the game on screen (``key``: which log it is), or None while it is
        being made: then a :class:`SaveEncoder` goes on in tasks of ``LINK_SLICE_MS`` and the
        page is drawn again when the code is ready. A newer step drops older work."""
        key = (sid, key)
        if self._link_code is not None and self._link_code[0] == key:
            return self._link_code[1]
        if self._link_work is None or self._link_work[0] != key:
            s = self.session
            assert s is not None
            self._link_work = (key, SaveEncoder(s.save()))
            self.host.later(0, self._link_slice)
        return None

    def _link_slice(self) -> None:
        work = self._link_work
        s = self.session
        if work is None or s is None or work[0][0] != id(s):
            return
        code = work[1].advance(LINK_SLICE_MS, self.host.clock)
        if code is None:
            self.host.later(0, self._link_slice)
            return
        self._link_work = None
        self._link_code = (work[0], code)
        if s.unsaved and s.slot_id is None and s.mode == "host" and work[0][1] == self.save_key():
            self.host.go("#h=" + code)  # storage refused it: the address keeps the game
        self.host.rerender()

    def render_saved(self, slots: Sequence[Slot], current: str | None = None) -> Node:
        """This game's saved games in this browser, newest first: resume any of them."""
        mine = [sl for sl in slots if sl.game == self.game.id]
        if not mine:
            return h("div", id="shell-saved-inner", hidden=True)
        items = []
        names = shown_names(mine)
        for sl in sorted(mine, key=lambda x: -x.updated):
            why = sl.damaged or self.damaged.get(sl.id, "")
            if why:
                items.append(self._damaged_item(sl, why))
                continue
            note = f" · {plural(sl.steps, 'step')}" + (" · read-only view" if sl.mode == "view" else "")
            verb = "Open" if sl.result or sl.mode == "view" else "Resume"
            items.append(
                h(
                    "li",
                    h("a", f"{verb} “{isolate(names[sl.id])}”", href=f"?slot={sl.id}", cls="button secondary"),
                    h("span", f" · Finished: {isolate(sl.result)}", cls="shell-slot-result") if sl.result else None,
                    h("span", note, cls="muted"),
                    h("span", "", cls="shell-when", data_when=str(sl.updated)),
                    cls="is-current" if sl.id == current else None,
                )
            )
        return h(
            "div",
            h("h2", f"Your games of {self.game.title}"),
            h("p", "Saved in this browser after every step.", cls="muted"),
            h("ul", *items, id="shell-saved-list"),
            id="shell-saved-inner",
        )

    def _damaged_item(self, sl: Slot, why: str) -> Node:
        """A slot that cannot be opened: said plainly, with what can still be done."""
        return h(
            "li",
            h("span", f"“{isolate(sl.name)}” is damaged and cannot be opened.", cls="shell-damaged-name"),
            h("span", f" {why}", cls="muted"),
            h("button", "Export as stored", type="button", cls="small secondary", data_export_raw=sl.id,
              aria_label=f"Export the damaged game “{sl.name}” as stored")
            if self.host.store.has_data(sl.id) else None,
            h("button", "Delete", type="button", cls="small secondary",
              aria_label=f"Delete the damaged game “{sl.name}”", on_click=lambda ev, sid=sl.id: self.delete_damaged(sid)),
            cls="is-damaged",
            data_slot=sl.id,
        )

    def delete_damaged(self, slot_id: str) -> None:
        try:
            name = self.host.store.get(slot_id).name
        except StorageError:
            name = "this game"
        if not self.host.confirm(f"Delete the damaged game “{name}” from this browser? This cannot be undone."):
            return
        self.host.store.delete(slot_id)
        self.damaged.pop(slot_id, None)
        self.say(f"Deleted the damaged game “{name}”.")

    def check_slots(self) -> None:
        """Note which of this game's slots cannot be opened (once, when the page starts)."""
        try:
            slots = self.host.store.list(self.game.id, check=True)
        except StorageError:
            return
        self.damaged = {sl.id: sl.damaged for sl in slots if sl.damaged}

    def render_handover(self) -> Node:
        s = self.session
        seat = None if s is None else s.needs_handover()
        if seat is None:
            return h("div", id="shell-handover-inner", hidden=True)
        name = s.seat_name(seat) if s else ""
        return h(
            "div",
            h("h2", f"Pass to {name}"),
            h("p", f"{name}: {tap_word_lower(self.host)} Ready when nobody else can see the screen. Until then nothing private "
                   "is shown and only this button works."),
            h("button", f"Ready ({name})", type="button", id="shell-ready", on_click=lambda ev: self.ready(seat)),
            id="shell-handover-inner",
            cls="shell-handover",
            role="dialog",
            aria_modal="true",
            aria_label=f"Pass the device to {name}",
        )

    # -- the chart ------------------------------------------------------------------------
    def stats_series(self) -> tuple[list[str], list[tuple[int, dict[str, list[float]]]]]:
        """Named per-seat numbers at the chart's points (cached). Only the points are computed:
        every state's stats took 0.4 s of a 6,000-step World game in CPython, seconds in the
        page (issue 20, item 10), where the chart shows one point a turn."""
        s = self.session
        assert s is not None and self.page is not None
        states = s.match.states
        cache = self._stats_cache
        points = self.chart_points()
        for _x, i in points:
            hit = cache.get(i)
            if hit is None or hit[0] is not states[i]:  # a state undo or a jump replaced
                cache[i] = (states[i], self.game.stats(states[i]))
        pts = [(x, cache[i][1]) for x, i in points]
        names = list(pts[-1][1]) if pts else []
        return names, pts

    def chart_points(self) -> list[tuple[int, int]]:
        """The page's chart points, thinned; worked out again only when the log changed: the
        pages find them by walking every state, 80-130 ms of an 80,000-step game under
        Pyodide, and a render that changed no step (a scroll of the log, a step viewed)
        needs none of that (issue 20, item 10)."""
        s = self.session
        assert s is not None and self.page is not None
        states = s.match.states
        last = states[-1] if states else None
        memo = self._chart_memo
        if memo is None or memo[0] is not states or memo[1] != len(states) or memo[2] is not last:
            memo = self._chart_memo = (states, len(states), last, thin_points(self.page.chart_points(states)))
        return memo[3]

    def render_chart(self, width: int = 640) -> Node:
        s = self.session
        assert s is not None
        memo = self._chart_memo
        if len(s.match.log) > LINKS_AT_ONCE and (memo is None or memo[0] is not s.match.states):
            # a long game just opened: its chart's points (a walk over every state, 70 ms of
            # an 80,000-step game under Pyodide) are found in a task of their own, after the
            # render that shows the game (issue 20, item 10); later steps find them inline
            if self._chart_due is not s.match.states:
                self._chart_due = s.match.states
                self.host.later(0, self.host.rerender)
                return h("div", h("p", "Drawing the chart…", cls="muted"), id="shell-chart-inner")
        names, pts = self.stats_series()
        if not names or not pts:
            return h("div", h("p", "The chart starts with the first steps.", cls="muted"), id="shell-chart-inner")
        assert self.page is not None
        seats = s.seats()
        charts = []
        marker = None
        if s.viewing is not None:
            marker = next((x for x, i in self.chart_points() if i >= s.viewing), None)
        for name in names:
            # a visible title over each chart (item 4: the title was only inside the SVG)
            charts.append(h("figure",
                            h("figcaption", f"{name[:1].upper()}{name[1:]} per player", cls="shell-chart-title"),
                            line_chart(name, [(x, st.get(name, [])) for x, st in pts], seats, width,
                                       self.page.chart_x_label, marker),
                            cls="shell-chart-figure"))
        return h("div", *charts, id="shell-chart-inner")


def and_list(names: Sequence[str]) -> str:
    """"Ann", "Ann and Bob", "Ann, Bob and Cy"."""
    if len(names) <= 1:
        return "".join(names)
    return f"{', '.join(names[:-1])} and {names[-1]}"


def shown_names(slots: Sequence[Slot]) -> dict[str, str]:
    """Each slot's name as listed: two games of one name are told apart by a number in the
    order they were started ("Duel: Ann vs Cat for Pullman (2)"), item 3."""
    by_name: dict[str, list[Slot]] = {}
    for sl in slots:
        by_name.setdefault(sl.name, []).append(sl)
    out = {}
    for name, group in by_name.items():
        group.sort(key=lambda x: (x.created, x.id))
        for i, sl in enumerate(group):
            out[sl.id] = name if len(group) == 1 else f"{name} ({i + 1})"
    return out


#: a chart draws at most about this many points a line: a 900-pixel chart shows no more, and a
#: 40,000-step game's 20,000 points took over a second to draw (issue 20, item 10)
MAX_CHART_POINTS = 300


def thin_points(points: list[tuple[int, int]], most: int = MAX_CHART_POINTS) -> list[tuple[int, int]]:
    """Every ``stride``-th point and the last, the stride a power of two so the points kept
    stay the same as a game grows (their stats stay cached) until the stride doubles."""
    stride = 1
    while len(points) > most * stride:
        stride *= 2
    if stride == 1:
        return points
    out = points[::stride]
    if out[-1] != points[-1]:
        out.append(points[-1])
    return out


def chart_number(v: float) -> str:
    """A value as a chart shows it: whole numbers whole, others to one decimal (item 4: the
    luck chart said "Ann 2.9668")."""
    return f"{v:g}" if float(v).is_integer() else f"{v:.1f}"


def line_chart(
    name: str,
    pts: list[tuple[int, list[float]]],
    seats: Sequence[Seat],
    w: int,
    x_label: str,
    marker: int | None = None,
) -> Node:
    """One SVG line chart: a line per seat, with dashes as well as colours."""
    w = max(320, min(900, w))
    h_, left, right, top, bottom = (220 if w < 500 else 260), 40, 110, 10, 30
    xmax = max(1, pts[-1][0])
    values = [v for _, vs in pts for v in vs]
    ymin = min(0.0, min(values, default=0.0))
    ymax = max(4.0, max(values, default=0.0))
    step = 10 ** max(0, int(math.log10(max(1.0, ymax - ymin))) - 1) * 2
    ymax = math.ceil(ymax / step) * step
    ymin = math.floor(ymin / step) * step if ymin < 0 else 0.0

    def sx(x: float) -> float:
        return left + (w - left - right) * x / xmax

    def sy(y: float) -> float:
        return top + (h_ - top - bottom) * (1 - (y - ymin) / (ymax - ymin or 1))

    kids: list[Node] = []
    for y in sorted({ymin, (ymin + ymax) / 2, ymax}):
        kids.append(svg("line", x1=left, x2=w - right, y1=f"{sy(y):.1f}", y2=f"{sy(y):.1f}", cls="grid"))
        kids.append(svg("text", f"{y:g}", x=left - 4, y=f"{sy(y) + 4:.1f}", text_anchor="end"))
    for x in sorted({0, xmax // 2, xmax}):
        kids.append(svg("text", str(x), x=f"{sx(x):.1f}", y=h_ - bottom + 14, text_anchor="middle"))
    kids.append(svg("text", x_label, x=(left + w - right) / 2, y=h_ - 4, text_anchor="middle"))
    kids.append(svg("line", x1=left, x2=left, y1=top, y2=h_ - bottom, cls="axis"))
    kids.append(svg("line", x1=left, x2=w - right, y1=h_ - bottom, y2=h_ - bottom, cls="axis"))
    if marker is not None:
        mx = max(0, min(marker, xmax))
        kids.append(svg("line", x1=f"{sx(mx):.1f}", x2=f"{sx(mx):.1f}", y1=top, y2=h_ - bottom, cls="marker"))
    ends = []
    for p, seat in enumerate(seats):
        line = [(x, vs[p]) for x, vs in pts if p < len(vs)]
        if not line:
            continue
        dash = DASHES[p % len(DASHES)]
        if len(line) == 1:
            kids.append(svg("circle", cx=f"{sx(line[0][0]):.1f}", cy=f"{sy(line[0][1]):.1f}", r=3, fill=seat.colour))
        else:
            points = " ".join(f"{sx(x):.1f},{sy(v):.1f}" for x, v in line)
            kids.append(svg("polyline", points=points, fill="none", stroke=seat.colour, stroke_width=2.2,
                            stroke_dasharray=dash or None))
        ends.append([sy(line[-1][1]), p, line[-1][1]])
    ends.sort()
    for i in range(1, len(ends)):  # keep the end labels apart
        ends[i][0] = max(ends[i][0], ends[i - 1][0] + 12)
    for y, p, v in ends:
        seat = seats[p]
        kids.append(svg("rect", x=w - right + 6, y=f"{y - 5:.1f}", width=9, height=9, fill=seat.colour))
        short = seat.name.strip(FSI + PDI)[:12]  # cut, then isolated again (item 8)
        kids.append(svg("text", f"{isolate(short)} {chart_number(v)}", x=w - right + 18, y=f"{y + 3:.1f}"))
    return svg(
        "svg", svg("title", f"{name} per player over {xmax} {x_label}"), *kids,
        viewBox=f"0 0 {w} {h_}", role="img", cls="shell-chart", aria_label=f"{name} per player over time",
        data_stat=name,
    )


def draw_is_hidden(game: Game[Any, Any], before: Any, after: Any, text: str) -> bool:
    """Whether the chance result ``text`` (``before`` -> ``after``) is hidden from the
    spectator: found from the views, as the hand-over is. Other results the draw could have
    had (each drawn value at its lowest, middle and highest) leave the spectator's view as
    it is: e.g. a card drawn into a hand (the spectator sees one card more, not which). A
    die or a wheel shows: the spectator's view differs at once."""
    spec = game.chance(before)
    if spec is None:
        return False
    public = game.view(after, None)
    other = False
    for j, size in enumerate(spec.sizes):
        for v in sorted({0, size // 2, size - 1}):
            values = [0] * len(spec.sizes)
            values[j] = v
            alt = game.chance_action(before, values)
            if game.format_action(alt) == text:
                continue
            if game.view(game.apply(before, alt), None) != public:
                return False
            other = True
    return other


def dumps(obj: Any) -> str:
    return json.dumps(obj, separators=(",", ":"), ensure_ascii=False)

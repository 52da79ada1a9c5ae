"""The Game of Conquests: state, actions, position text and the rules engine (rulings C1-C6).

Decisions where the rulings are silent (also in this package's README.md):

- **One action per turn.** A move is ``c1c2`` (from, to; a capture is written the same
  way). A General move with the optional placement of C4 is one action:
  ``c1c2+S2@b1`` = General c1 to c2, then a level-2 Soldier from the reserve onto b1.
  The placed letter is always upper case (the mover's colour is implied). Parsing also
  accepts ``c1-c2``, ``c1xc2`` and upper-case squares; ``str()`` gives the canonical form.
- **Danger is judged on the completed action** (C5): a General move that alone would stand
  in Danger is legal if its placement blocks the attack; every placement after a safe
  General move is legal (a placed fighter of one's own can only block).
- **No legal move loses** (C5) whether or not the General is in Danger. The loss check comes
  before the draws, so a move that leaves the opponent without a move wins even on the
  200th quiet ply.
- **Draws** (C5): the current position (board, levels, reserves, side to move) occurring
  the 3rd time since the last capture or placement (both are irreversible: reserves only
  grow by capture and shrink by placement, so no earlier position can come back); and 200
  plies in a row without a capture (a placement does not reset that count).
- **Outcome**: a win is ``winners=(seat,)``, scores (1, 0); a draw is ``winners=()``,
  scores (0.5, 0.5). Seat 0 is White (uncoloured, moves first, C1), seat 1 Black.

Position text (C6), one line of five space-separated fields, like chess's FEN::

    algcla/1s2s1/6/6/1S2S1/ALGCLA - w 0 1

1. the board, rank 6 first, ranks separated by ``/``, files a to f; a fighter is its
   letter (S Soldier, A Archer, L Lancer, C Champion, G General; upper case White, lower
   case Black) followed by one ``+`` per level above 1 (``L++`` is a level-3 Lancer);
   a digit 1-6 counts empty squares;
2. the reserves: ``-`` for none, else the fighters in the same notation, White's first,
   each side sorted S, A, L, C then by level (``S+l++`` = White level-2 Soldier and Black
   level-3 Lancer);
3. the side to move, ``w`` or ``b``;
4. plies since the last capture (0-200);
5. the move number, starting at 1 and counting up after Black moves.

The last two may be left out (read as ``0 1``).
"""
from __future__ import annotations

import functools
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from conquest.core import Game, IllegalAction, InvalidAction, InvalidOptions, Outcome, excerpt

from . import rules as R

__all__ = [
    "Action",
    "State",
    "ConquestsGame",
    "GAME",
    "position_to_text",
    "position_from_text",
    "state_to_json",
    "state_from_json",
]

COLOURS = ("White", "Black")
#: who may sit at a seat: a person or one of the computer levels of :mod:`.ai`
SEAT_KINDS = ("human", "random", "easy", "medium", "hard")
_MAX_TEXT = 200


# -- actions ---------------------------------------------------------------------------------


@dataclass(frozen=True, order=True)
class Action:
    """One turn: move ``frm`` -> ``to``; after a General move optionally place ``place``
    (``kind << 2 | level``, 0 for none) from the reserve on ``place_sq`` (C4)."""

    frm: int
    to: int
    place: int = 0
    place_sq: int = -1

    def __str__(self) -> str:
        text = R.square_name(self.frm) + R.square_name(self.to)
        if self.place:
            text += f"+{R.KINDS[self.place >> 2]}{self.place & 3}@{R.square_name(self.place_sq)}"
        return text

    @property
    def move(self) -> R.Move:
        return (self.frm, self.to, self.place, self.place_sq)


_ACTION_RE = re.compile(r"^([a-f][1-6])[-x]?([a-f][1-6])(?:\+([salcg])([1-9])@([a-f][1-6]))?$")


def parse_action(text: str) -> Action:
    """Canonical ``c1c2`` / ``c1c2+S2@b1``; tolerant of case, ``-``/``x`` and spaces around."""
    if not isinstance(text, str):
        raise InvalidAction("syntax", f"an action is a text such as 'b2b3', not {type(text).__name__}")
    m = _ACTION_RE.match(text.strip().lower())
    if not m:
        raise InvalidAction(
            "syntax",
            f"{excerpt(text)} is not a move: write from-square and to-square such as 'b2b3', "
            "and after a General move optionally '+', a fighter letter, its level, '@' and a square "
            "(e.g. 'c1c2+S2@b1')",
        )
    frm, to = R.parse_square(m.group(1)), R.parse_square(m.group(2))
    if frm == to:
        raise InvalidAction("syntax", f"{excerpt(text)} does not move: from and to are the same square")
    if m.group(3) is None:
        return Action(frm, to)
    kind = R.KINDS.index(m.group(3).upper())
    level = int(m.group(4))
    if kind == R.GENERAL:
        raise InvalidAction("syntax", f"{excerpt(text)}: a General is never in the reserve (C2, C3)")
    if not 1 <= level <= R.MAX_LEVEL[kind]:
        raise InvalidAction(
            "syntax", f"{excerpt(text)}: a {R.NAMES[kind]} has levels 1 to {R.MAX_LEVEL[kind]} (C2)"
        )
    psq = R.parse_square(m.group(5))
    return Action(frm, to, kind << 2 | level, psq)


# -- state -----------------------------------------------------------------------------------


@dataclass(frozen=True)
class State:
    """A position plus what the draw rules need.

    ``board``: 36 fighter codes (see :mod:`.rules`); ``reserves``: per side, sorted codes
    without owner; ``history``: Zobrist keys of the positions since the last capture or
    placement, oldest first, the current one last (repetition, C5); ``quiet``: plies since
    the last capture (C5); ``ply``: plies since the first move of the game (or of the
    position text's move number); ``last``: the last action's text, for the view.
    """

    board: tuple[int, ...]
    reserves: tuple[tuple[int, ...], tuple[int, ...]]
    to_move: int
    quiet: int
    ply: int
    history: tuple[int, ...]
    last: str | None = None

    @property
    def key(self) -> int:
        return self.history[-1]


def _piece_text(p: int, owner: int | None = None) -> str:
    owner = R.owner_of(p) if owner is None else owner
    letter = R.KINDS[R.kind_of(p)]
    return (letter if owner == R.WHITE else letter.lower()) + "+" * (R.level_of(p) - 1)


def position_to_text(state: State) -> str:
    """The one-line position text of C6 (see the module docstring)."""
    ranks = []
    for rank in range(R.SIZE - 1, -1, -1):
        out = []
        empty = 0
        for f in range(R.SIZE):
            p = state.board[rank * R.SIZE + f]
            if p:
                if empty:
                    out.append(str(empty))
                    empty = 0
                out.append(_piece_text(p))
            else:
                empty += 1
        if empty:
            out.append(str(empty))
        ranks.append("".join(out))
    reserve = "".join(_piece_text(rc, owner) for owner in (0, 1) for rc in state.reserves[owner]) or "-"
    side = "wb"[state.to_move]
    return f"{'/'.join(ranks)} {reserve} {side} {state.quiet} {state.ply // 2 + 1}"


_PIECE_RE = re.compile(r"([SALCGsalcg])(\+*)|([1-6])|(.)")


def _bad(message: str) -> InvalidOptions:
    return InvalidOptions("position", f"C6: bad position text: {message}")


def _parse_pieces(text: str, where: str) -> list[int | None]:
    """Fighters and empty runs: a code per fighter, None per empty square."""
    out: list[int | None] = []
    for m in _PIECE_RE.finditer(text):
        letter, pluses, digit, other = m.groups()
        if other is not None:
            raise _bad(f"unexpected {excerpt(other)} in {where}")
        if digit is not None:
            out.extend([None] * int(digit))
            continue
        kind = R.KINDS.index(letter.upper())
        level = 1 + len(pluses)
        if level > R.MAX_LEVEL[kind]:
            raise _bad(
                f"{letter}{pluses} in {where}: a {R.NAMES[kind]} has at most level {R.MAX_LEVEL[kind]}"
            )
        out.append(R.code(R.WHITE if letter.isupper() else R.BLACK, kind, level))
    return out


def position_from_text(text: str) -> State:
    """Parse C6 text into a fresh state (no history); raises InvalidOptions with the reason."""
    if not isinstance(text, str):
        raise _bad(f"expected a text, not {type(text).__name__}")
    if len(text) > _MAX_TEXT:
        raise _bad(f"longer than {_MAX_TEXT} characters")
    fields = text.split()
    if len(fields) not in (3, 5):
        raise _bad("expected 5 fields: board, reserves, side to move, quiet plies, move number")
    board_text, reserve_text, side_text = fields[:3]
    ranks = board_text.split("/")
    if len(ranks) != R.SIZE:
        raise _bad(f"the board needs {R.SIZE} ranks separated by '/', found {len(ranks)}")
    board = [0] * R.NSQ
    for i, rank_text in enumerate(ranks):
        rank = R.SIZE - 1 - i
        squares = _parse_pieces(rank_text, f"rank {rank + 1}")
        if len(squares) != R.SIZE:
            raise _bad(f"rank {rank + 1} has {len(squares)} squares, not {R.SIZE}")
        for f, p in enumerate(squares):
            board[rank * R.SIZE + f] = p or 0
    reserves: list[list[int]] = [[], []]
    if reserve_text != "-":
        for p in _parse_pieces(reserve_text, "the reserves"):
            if p is None:
                raise _bad("the reserves list fighters only, no digits")
            if R.kind_of(p) == R.GENERAL:
                raise _bad("a General is never in the reserve (C3)")
            reserves[R.owner_of(p)].append(p & 31)
    if side_text not in ("w", "b"):
        raise _bad(f"side to move must be 'w' or 'b', not {excerpt(side_text)}")
    side = 0 if side_text == "w" else 1
    quiet, move_no = 0, 1
    if len(fields) == 5:
        if not (fields[3].isdigit() and fields[4].isdigit()) or len(fields[3]) > 4 or len(fields[4]) > 5:
            raise _bad("quiet plies and move number must be whole numbers")
        quiet, move_no = int(fields[3]), int(fields[4])
        if quiet > R.QUIET_PLIES:
            raise _bad(f"quiet plies must be 0 to {R.QUIET_PLIES}")
        if move_no < 1:
            raise _bad("the move number starts at 1")
    for owner in (0, 1):
        for kind in range(5):
            n = sum(1 for p in board if p and R.owner_of(p) == owner and R.kind_of(p) == kind)
            n += sum(1 for rc in reserves[owner] if rc >> 2 == kind)
            if kind == R.GENERAL and n != 1:
                raise _bad(f"{COLOURS[owner]} must have exactly one General on the board, found {n}")
            if n > R.START_COUNTS[kind]:
                raise _bad(
                    f"{COLOURS[owner]} has {n} {R.NAMES[kind]}s; "
                    f"a side owns at most {R.START_COUNTS[kind]} (C1)"
                )
    if R.in_danger(board, side ^ 1):
        raise _bad(
            f"{COLOURS[side ^ 1]} is not to move but its General is in Danger (C5): "
            "that cannot happen in play"
        )
    res = (tuple(sorted(reserves[0])), tuple(sorted(reserves[1])))
    ply = 2 * (move_no - 1) + side
    key = R.position_key(board, res, side)
    return State(tuple(board), res, side, quiet, ply, (key,), None)


def state_to_json(state: State) -> dict[str, Any]:
    """Position text + repetition history (hex keys: exact in JavaScript too) + last move."""
    return {
        "position": position_to_text(state),
        "history": [f"{k:016x}" for k in state.history],
        "last": state.last,
    }


def state_from_json(obj: Mapping[str, Any]) -> State:
    if not isinstance(obj, Mapping):
        raise ValueError("a conquests state is a JSON object")
    base = position_from_text(obj.get("position"))  # type: ignore[arg-type]
    hist = obj.get("history")
    if not isinstance(hist, list) or not hist or len(hist) > R.QUIET_PLIES + 2:
        raise ValueError("state history must be a non-empty list of position keys")
    try:
        keys = tuple(int(k, 16) for k in hist)
    except (TypeError, ValueError):
        raise ValueError("state history must hold hexadecimal position keys") from None
    if keys[-1] != base.key:
        raise ValueError("state history does not end with the current position")
    last = obj.get("last")
    if last is not None:
        last = str(parse_action(last))
    return State(base.board, base.reserves, base.to_move, base.quiet, base.ply, keys, last)


# -- analysis (cached: the page, the AI root and outcome() ask the same question) -------------


@functools.lru_cache(maxsize=4096)
def _analyse(board: tuple[int, ...], reserves: tuple[tuple[int, ...], ...], side: int) -> tuple[
    tuple[Action, ...], bool
]:
    moves = R.legal_moves(list(board), side, reserves[side])
    actions = tuple(sorted(Action(s, t, pc & 31, ps) for s, t, pc, ps in moves))
    return actions, R.in_danger(board, side)


def apply_move(state: State, action: Action) -> State:
    """Play an action known to be legal (no checks): the engine and tests share this."""
    board = list(state.board)
    side = state.to_move
    p = board[action.frm]
    q = board[action.to]
    board[action.to] = p
    board[action.frm] = 0
    reserves = [list(state.reserves[0]), list(state.reserves[1])]
    if q:
        kind, level = R.kind_of(q), R.level_of(q)
        if level < R.MAX_LEVEL[kind]:  # C3: back to its owner's reserve one level up, else retired
            reserves[side ^ 1].append(kind << 2 | (level + 1))
            reserves[side ^ 1].sort()
    if action.place:
        board[action.place_sq] = side << 5 | action.place
        reserves[side].remove(action.place)
    res = (tuple(reserves[0]), tuple(reserves[1]))
    key = R.position_key(board, res, side ^ 1)
    irreversible = bool(q) or bool(action.place)
    history = (key,) if irreversible else state.history + (key,)
    return State(
        tuple(board),
        res,
        side ^ 1,
        0 if q else state.quiet + 1,
        state.ply + 1,
        history,
        str(action),
    )


# -- seats -------------------------------------------------------------------------------------

_COLOUR_RE = re.compile(r"^#[0-9a-f]{6}$")
_SEAT_KEYS = frozenset({"name", "colour", "bot"})
_NAME_MAX = 40


def _normalize_seat(seat: Any) -> str | dict[str, str]:
    """One seat of the ``seats`` option: a level name (older links) or the shell's seat.

    Why both: links made before the page shell carry ``"human"``/``"hard"``; the shell
    writes the seat's name and colour too. A name is data shown as text, never markup.
    """
    bad = InvalidOptions(
        "options.seats",
        f"each seat is one of {', '.join(SEAT_KINDS)} or a seat with a name, a colour (#rrggbb) "
        "and optionally a computer level",
    )
    if isinstance(seat, str):
        if seat not in SEAT_KINDS:
            raise bad
        return seat
    if not isinstance(seat, Mapping) or not set(seat) <= _SEAT_KEYS:
        raise bad
    name, colour = seat.get("name"), seat.get("colour")
    if not isinstance(name, str) or not name.strip() or len(name) > _NAME_MAX:
        raise bad
    if not isinstance(colour, str) or not _COLOUR_RE.match(colour.lower()):
        raise bad
    out = {"name": name, "colour": colour.lower()}
    if "bot" in seat:
        bot = seat["bot"]
        if not isinstance(bot, str) or bot not in SEAT_KINDS or bot == "human":
            raise bad
        out["bot"] = bot
    return out


# -- the game ----------------------------------------------------------------------------------


class ConquestsGame(Game[State, Action]):
    """The rules of The Game of Conquests as the :class:`conquest.core.Game` protocol."""

    id = "conquests"

    # -- set-up ----------------------------------------------------------------------------
    def normalize_options(self, options: Mapping[str, Any] | None) -> dict[str, Any]:
        """``position`` (C6 text, default: the start of C1), stored canonical; ``seats``; ``title``.

        ``seats`` (optional) says who plays White and Black: each ``"human"`` or a computer
        level (``random``, ``easy``, ``medium``, ``hard``), or the page shell's seat
        ``{"name": ..., "colour": "#rrggbb", "bot": level}`` (``bot`` left out for a person).
        The rules ignore it; it rides in the save so that a link to a game against the
        computer continues against it.
        """
        opts = dict(options or {})
        unknown = sorted(set(opts) - {"position", "seats", "title"})
        if unknown:
            raise InvalidOptions("options", f"unknown option(s) for {self.title}: {', '.join(excerpt(k, 30) for k in unknown[:5])}")
        if "position" in opts and opts["position"] is not None:
            opts["position"] = position_to_text(position_from_text(opts["position"]))
        else:
            opts.pop("position", None)
        if "seats" in opts:
            seats = opts["seats"]
            if not isinstance(seats, (list, tuple)) or len(seats) != 2:
                raise InvalidOptions(
                    "options.seats", f"seats must be two of {', '.join(SEAT_KINDS)} (White, Black)"
                )
            opts["seats"] = [_normalize_seat(x) for x in seats]
        if "title" in opts:  # the site's name for the game (saved-games list); data, never markup
            title = opts["title"]
            if not isinstance(title, str) or len(title) > 200:
                raise InvalidOptions("options.title", "the title must be a text of at most 200 characters")
        return opts

    def new_game(self, options: Mapping[str, Any], seed: int) -> State:
        """No chance in this game: the seed is unused. A start position may be given (C6)."""
        text = (options or {}).get("position") or R.START_TEXT
        return position_from_text(text)

    # -- play --------------------------------------------------------------------------------
    def legal_actions(self, state: State) -> list[Action]:
        if self.outcome(state) is not None:
            return []
        return list(_analyse(state.board, state.reserves, state.to_move)[0])

    def in_danger(self, state: State) -> bool:
        return _analyse(state.board, state.reserves, state.to_move)[1]

    def repetitions(self, state: State) -> int:
        """How many times the current position has occurred (C5 draws at 3)."""
        return state.history.count(state.key)

    def outcome(self, state: State) -> Outcome | None:
        actions, danger = _analyse(state.board, state.reserves, state.to_move)
        side = state.to_move
        if not actions:
            winner = side ^ 1
            if danger:
                reason = f"C5: {COLOURS[side]}'s General is in Danger with no escape: {COLOURS[winner]} wins"
            else:
                reason = f"C5: {COLOURS[side]} has no legal move: {COLOURS[winner]} wins"
            scores = (1.0, 0.0) if winner == 0 else (0.0, 1.0)
            return Outcome((winner,), reason, scores)
        if state.quiet >= R.QUIET_PLIES:
            return Outcome((), f"C5: draw, {R.QUIET_PLIES} plies without a capture", (0.5, 0.5))
        if self.repetitions(state) >= R.REPETITIONS:
            return Outcome((), "C5: draw, the same position occurred a third time", (0.5, 0.5))
        return None

    def to_move(self, state: State) -> int | None:
        return None if self.outcome(state) is not None else state.to_move

    def apply(self, state: State, action: Action) -> State:
        if isinstance(action, str):
            action = parse_action(action)
        if not isinstance(action, Action):
            raise InvalidAction("type", f"not an action of {self.title}: {excerpt(action)}")
        if self.outcome(state) is not None:
            raise IllegalAction("game_over", f"C5: {action}: the game is over")
        if action not in _analyse(state.board, state.reserves, state.to_move)[0]:
            raise self._why_illegal(state, action)
        return apply_move(state, action)

    def _why_illegal(self, state: State, action: Action) -> IllegalAction:
        """Name the first rule the action breaks, for the message shown to the player."""
        side = state.to_move
        board = state.board
        text = str(action)
        p = board[action.frm]
        frm, to = R.square_name(action.frm), R.square_name(action.to)
        if not p:
            return IllegalAction("no_fighter", f"{text}: there is no fighter on {frm}")
        if R.owner_of(p) != side:
            return IllegalAction("not_yours", f"{text}: the fighter on {frm} is {COLOURS[side ^ 1]}'s")
        name = f"level-{R.level_of(p)} {R.NAMES[R.kind_of(p)]}"
        if (action.frm, action.to) not in R.pseudo_moves(board, side):
            q = board[action.to]
            if R.REACH[p][action.frm * R.NSQ + action.to] is None:
                return IllegalAction("unreachable", f"C2: {text}: the {name} on {frm} cannot move to {to}")
            if q and R.owner_of(q) == side:
                return IllegalAction("blocked", f"C2: {text}: {to} holds one of your own fighters")
            return IllegalAction("blocked", f"C2: {text}: the {name} on {frm} is blocked on its way to {to}")
        if action.place:
            kind, level = action.place >> 2, action.place & 3
            pname = f"level-{level} {R.NAMES[kind]}"
            if R.kind_of(p) != R.GENERAL:
                return IllegalAction(
                    "placement", f"C4: {text}: a fighter may be placed only after a General move"
                )
            if action.place not in state.reserves[side]:
                return IllegalAction("reserve", f"C4: {text}: there is no {pname} in your reserve")
            allowed = R.PLACE[side][kind][action.to]
            if action.place_sq not in allowed:
                where = "the two side squares or three behind"
                if kind == R.SOLDIER:
                    where = "any of the eight squares"
                return IllegalAction(
                    "placement",
                    f"C4: {text}: a {R.NAMES[kind]} is placed on {where} "
                    f"next to the General's new square {to}",
                )
            if board[action.place_sq] and action.place_sq != action.frm:  # the square left is empty
                square = R.square_name(action.place_sq)
                return IllegalAction("placement", f"C4: {text}: {square} is not empty")
        return IllegalAction("danger", f"C5: {text} would leave your General in Danger")

    # -- views and text ------------------------------------------------------------------------
    def parse_action(self, text: str) -> Action:
        return parse_action(text)

    def describe_action(self, state: State, action: Action) -> str:
        side = state.to_move
        p = state.board[action.frm]
        if not p:
            return str(action)
        q = state.board[action.to]
        words = (
            f"{COLOURS[side]} {R.NAMES[R.kind_of(p)]} (level {R.level_of(p)}) "
            f"{R.square_name(action.frm)} to {R.square_name(action.to)}"
        )
        if q:
            k, lvl = R.kind_of(q), R.level_of(q)
            fate = (
                f"which goes to {COLOURS[side ^ 1]}'s reserve at level {lvl + 1}"
                if lvl < R.MAX_LEVEL[k]
                else "which retires from the game"
            )
            words += f", captures the {R.NAMES[k]} (level {lvl}), {fate}"
        if action.place:
            words += (
                f", then places a level-{action.place & 3} {R.NAMES[action.place >> 2]} "
                f"on {R.square_name(action.place_sq)}"
            )
        return words

    def view(self, state: State, player: int | None) -> dict[str, Any]:
        """Everything is public in this game, so every seat gets the same view."""
        out = self.outcome(state)
        squares = []
        for sq, p in enumerate(state.board):
            if p:
                squares.append(
                    {
                        "square": R.square_name(sq),
                        "owner": R.owner_of(p),
                        "fighter": R.KINDS[R.kind_of(p)],
                        "name": R.NAMES[R.kind_of(p)],
                        "level": R.level_of(p),
                        "max_level": R.MAX_LEVEL[R.kind_of(p)],
                    }
                )
        reserves = []
        for owner in (0, 1):
            counts: dict[int, int] = {}
            for rc in state.reserves[owner]:
                counts[rc] = counts.get(rc, 0) + 1
            reserves.append(
                [
                    {"fighter": R.KINDS[rc >> 2], "name": R.NAMES[rc >> 2], "level": rc & 3, "count": n}
                    for rc, n in sorted(counts.items())
                ]
            )
        legal = [] if out else [str(a) for a in _analyse(state.board, state.reserves, state.to_move)[0]]
        return {
            "game": self.id,
            "position": position_to_text(state),
            "board": squares,
            "reserves": reserves,
            "to_move": state.to_move,
            "to_move_name": COLOURS[state.to_move],
            "in_danger": self.in_danger(state),
            "last_move": state.last,
            "legal": legal,
            "ply": state.ply,
            "move_number": state.ply // 2 + 1,
            "quiet_plies": state.quiet,
            "repetitions": self.repetitions(state),
            "outcome": out.to_json() if out else None,
        }

    # -- what the page shell asks (charts, computer players) ----------------------------------
    def stats(self, state: State) -> dict[str, list[float]]:
        """Fighters each side has on the board and in its reserve: the shell's chart shows
        captures (a fighter moves from one side's board to the other's reserve, C3) and
        placements (back from the reserve, C4) over the game."""
        board = [0.0, 0.0]
        for p in state.board:
            if p:
                board[R.owner_of(p)] += 1
        return {
            "Fighters on the board": board,
            "In reserve": [float(len(state.reserves[0])), float(len(state.reserves[1]))],
        }

    def bot_levels(self) -> dict[str, Callable[[Any], Any]]:
        """The computer levels of :mod:`.ai`, weakest first, as bots the shell drives in slices."""
        from .ai import LEVELS, SearchBot

        return {level: functools.partial(SearchBot, level) for level in LEVELS}

    def state_to_json(self, state: State) -> dict[str, Any]:
        return state_to_json(state)

    def state_from_json(self, obj: Mapping[str, Any]) -> State:
        return state_from_json(obj)


GAME = ConquestsGame()

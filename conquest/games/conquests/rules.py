"""Move tables and the fast move generator of The Game of Conquests.

Why a module of its own: the engine (:mod:`.game`) and the computer player (:mod:`.ai`)
must agree exactly on what a legal move is, and the AI needs it fast. So the tables are
built once from the data file ``conquest/data/conquests.json`` (the movement tables are
**reconstructed**, ruling C2: they live in data, never in code) into flat lists indexed by
small integers, and the generator works on a plain mutable list of 36 squares.

Encoding (internal; the outside world sees texts such as ``c1c2`` and ``L+``):

- a square is ``rank * 6 + file`` with a1 = 0, f1 = 5, a6 = 30;
- a fighter is ``owner << 5 | kind << 2 | level`` with owner 0 = White, 1 = Black, kind
  0..4 = Soldier, Archer, Lancer, Champion, General, level 1..3; an empty square is 0;
- a reserve fighter is stored without the owner bits (``kind << 2 | level``).
"""
from __future__ import annotations

import json
from collections.abc import Mapping, MutableSequence, Sequence
from pathlib import Path
from typing import Any

from conquest.core import excerpt

__all__ = [
    "DATA_PATH",
    "KINDS",
    "SOLDIER",
    "ARCHER",
    "LANCER",
    "CHAMPION",
    "GENERAL",
    "WHITE",
    "BLACK",
    "SIZE",
    "NSQ",
    "Move",
    "load_data",
    "DATA",
    "NAMES",
    "MAX_LEVEL",
    "START_COUNTS",
    "RAYS",
    "REACH",
    "PLACE",
    "GENERAL_CODE",
    "START_TEXT",
    "REPETITIONS",
    "QUIET_PLIES",
    "square_name",
    "parse_square",
    "code",
    "owner_of",
    "kind_of",
    "level_of",
    "attacked",
    "in_danger",
    "pseudo_moves",
    "legal_moves",
    "ZOBRIST_PIECE",
    "ZOBRIST_RESERVE",
    "ZOBRIST_SIDE",
    "position_key",
]

#: the data file, found relative to the package so it also works inside Pyodide
DATA_PATH = Path(__file__).resolve().parents[2] / "data" / "conquests.json"

KINDS = "SALCG"
SOLDIER, ARCHER, LANCER, CHAMPION, GENERAL = range(5)
WHITE, BLACK = 0, 1
SIZE = 6
NSQ = SIZE * SIZE
FILES = "abcdef"

#: a move as the generator makes it: (from, to, placed fighter code with owner or 0, placement square or -1)
Move = tuple[int, int, int, int]


def code(owner: int, kind: int, level: int) -> int:
    return owner << 5 | kind << 2 | level


def owner_of(piece: int) -> int:
    return piece >> 5


def kind_of(piece: int) -> int:
    return (piece >> 2) & 7


def level_of(piece: int) -> int:
    return piece & 3


def square_name(sq: int) -> str:
    return FILES[sq % SIZE] + str(sq // SIZE + 1)


def parse_square(text: str) -> int:
    """``"c2"`` -> 8; raises ValueError on anything that is not a square of the 6x6 board."""
    if len(text) != 2 or text[0] not in FILES or text[1] not in "123456":
        raise ValueError(f"{excerpt(text)} is not a square (files a-f, ranks 1-6)")
    return (int(text[1]) - 1) * SIZE + FILES.index(text[0])


# -- the data file ------------------------------------------------------------------------


def load_data(path: Path | None = None) -> dict[str, Any]:
    """Read and check the data file; a broken file fails loudly at import, not mid-game."""
    with open(path or DATA_PATH, encoding="utf-8") as fh:
        data = json.load(fh)
    _check_data(data)
    return data


def _check_data(data: Mapping[str, Any]) -> None:
    fighters = data.get("fighters")
    if not isinstance(fighters, Mapping) or sorted(fighters) != sorted(KINDS):
        raise ValueError(f"conquests.json: 'fighters' must describe exactly {', '.join(KINDS)}")
    for letter, spec in fighters.items():
        levels = spec.get("levels")
        if not isinstance(levels, Mapping) or not levels:
            raise ValueError(f"conquests.json: fighter {letter} has no levels")
        if sorted(levels) != [str(n) for n in range(1, len(levels) + 1)] or len(levels) > 3:
            raise ValueError(f"conquests.json: fighter {letter} levels must be '1'..'n', n <= 3")
        for lvl, moves in levels.items():
            for move in moves:
                kind = move.get("kind")
                rng = move.get("range")
                if kind not in ("step", "slide"):
                    raise ValueError(f"conquests.json: {letter}{lvl}: kind must be step or slide")
                if kind == "step" and rng != 1:
                    raise ValueError(f"conquests.json: {letter}{lvl}: a step has range 1")
                if kind == "slide" and not (rng is None or (isinstance(rng, int) and rng >= 1)):
                    raise ValueError(f"conquests.json: {letter}{lvl}: a slide range is null or >= 1")
                for vec in move.get("vectors", ()):
                    if (
                        not isinstance(vec, list)
                        or len(vec) != 2
                        or not all(isinstance(v, int) for v in vec)
                        or vec == [0, 0]
                    ):
                        raise ValueError(f"conquests.json: {letter}{lvl}: bad vector {excerpt(vec)}")
    if len(fighters["G"]["levels"]) != 1:
        raise ValueError("conquests.json: the General is never promoted (C2): one level only")
    placement = data.get("placement", {})
    for key in ("default", "S"):
        if not isinstance(placement.get(key), list):
            raise ValueError(f"conquests.json: placement.{key} must be a list of offsets")


DATA: dict[str, Any] = load_data()
NAMES: tuple[str, ...] = tuple(DATA["fighters"][k]["name"] for k in KINDS)
MAX_LEVEL: tuple[int, ...] = tuple(len(DATA["fighters"][k]["levels"]) for k in KINDS)
START_TEXT: str = DATA["start"]
REPETITIONS: int = int(DATA.get("draw", {}).get("repetitions", 3))
QUIET_PLIES: int = int(DATA.get("draw", {}).get("quiet_plies", 200))
GENERAL_CODE = (code(WHITE, GENERAL, 1), code(BLACK, GENERAL, 1))


def _start_counts() -> tuple[int, ...]:
    """How many of each kind a side owns at the start (upper bound for any position)."""
    board = START_TEXT.split()[0]
    return tuple(sum(1 for ch in board if ch == letter) for letter in KINDS)


START_COUNTS = _start_counts()


def _orient(owner: int, vec: Sequence[int]) -> tuple[int, int]:
    """Relative (right, forward) -> board (file, rank): Black faces down, so turn it 180 degrees."""
    dx, dy = vec
    return (dx, dy) if owner == WHITE else (-dx, -dy)


def _build_tables() -> tuple[list[Any], list[Any], list[Any]]:
    rays: list[Any] = [None] * 64
    reach: list[Any] = [None] * 64
    place: list[Any] = [[None] * 5, [None] * 5]
    for owner in (WHITE, BLACK):
        for kind, letter in enumerate(KINDS):
            for lvl_text, moves in DATA["fighters"][letter]["levels"].items():
                c = code(owner, kind, int(lvl_text))
                per_sq: list[tuple[tuple[int, ...], ...]] = []
                flat: list[tuple[int, ...] | None] = [None] * (NSQ * NSQ)
                for sq in range(NSQ):
                    x0, y0 = sq % SIZE, sq // SIZE
                    sq_rays: list[tuple[int, ...]] = []
                    for move in moves:
                        limit = 1 if move["kind"] == "step" else (move["range"] or NSQ)
                        for vec in move["vectors"]:
                            dx, dy = _orient(owner, vec)
                            ray: list[int] = []
                            x, y = x0, y0
                            while len(ray) < limit:
                                x, y = x + dx, y + dy
                                if not (0 <= x < SIZE and 0 <= y < SIZE):
                                    break
                                ray.append(y * SIZE + x)
                            if ray:
                                sq_rays.append(tuple(ray))
                                for i, t in enumerate(ray):
                                    # the first way found wins; vectors are unique per level
                                    if flat[sq * NSQ + t] is None:
                                        flat[sq * NSQ + t] = tuple(ray[:i])
                    per_sq.append(tuple(sq_rays))
                rays[c] = per_sq
                reach[c] = flat
            offsets = DATA["placement"]["S" if letter == "S" else "default"]
            table: list[tuple[int, ...]] = []
            for sq in range(NSQ):
                x0, y0 = sq % SIZE, sq // SIZE
                targets = []
                for vec in offsets:
                    dx, dy = _orient(owner, vec)
                    x, y = x0 + dx, y0 + dy
                    if 0 <= x < SIZE and 0 <= y < SIZE:
                        targets.append(y * SIZE + x)
                table.append(tuple(targets))
            place[owner][kind] = table
    return rays, reach, place


#: RAYS[fighter][square] -> rays, each a tuple of squares in the order the fighter passes them
#: REACH[fighter][from * 36 + to] -> squares that must be empty for the move, or None if unreachable
#: PLACE[owner][kind][general square] -> squares where that kind may be placed (C4)
RAYS, REACH, PLACE = _build_tables()


# -- attacks and moves ---------------------------------------------------------------------


def attacked(board: Sequence[int], sq: int, by: int) -> bool:
    """Could a fighter of side ``by`` move onto ``sq`` now? (Danger, C5, is this for the General.)"""
    reach = REACH
    base = -1
    for s in range(NSQ):
        p = board[s]
        if p and p >> 5 == by:
            base = s * NSQ + sq
            path = reach[p][base]
            if path is not None:
                for b in path:
                    if board[b]:
                        break
                else:
                    return True
    return False


def in_danger(board: Sequence[int], side: int) -> bool:
    """C5: is ``side``'s General attackable by the other side?"""
    return attacked(board, board.index(GENERAL_CODE[side]), side ^ 1)


def pseudo_moves(board: Sequence[int], side: int) -> list[tuple[int, int]]:
    """Every (from, to) the move tables allow, before the Danger test: blocked by own fighters,
    a slide stops on (and captures) the first enemy (C2)."""
    out: list[tuple[int, int]] = []
    rays = RAYS
    for s in range(NSQ):
        p = board[s]
        if p and p >> 5 == side:
            for ray in rays[p][s]:
                for t in ray:
                    q = board[t]
                    if q:
                        if q >> 5 != side:
                            out.append((s, t))
                        break
                    out.append((s, t))
    return out


def reach(board: Sequence[int], sq: int) -> list[int]:
    """Squares the fighter on ``sq`` could move to by its move table now (C2), whoever is to
    move and before the Danger test: own fighters block, a slide stops on the first enemy.
    For the play page's "what can this fighter do" display; empty if ``sq`` is empty."""
    p = board[sq]
    if not p:
        return []
    side = p >> 5
    out: list[int] = []
    for ray in RAYS[p][sq]:
        for t in ray:
            q = board[t]
            if q:
                if q >> 5 != side:
                    out.append(t)
                break
            out.append(t)
    return sorted(out)


def legal_moves(board: MutableSequence[int], side: int, reserve: Sequence[int]) -> list[Move]:
    """All legal moves of ``side``: a move, or a General move plus one placement (C4).

    The whole action is judged when it is complete (C5): a General move that would be in
    Danger alone is legal if the placed fighter blocks the attack. ``board`` is restored.
    """
    out: list[Move] = []
    gcode = GENERAL_CODE[side]
    gsq = board.index(gcode)
    opp = side ^ 1
    kinds = sorted(set(reserve))
    place = PLACE[side]
    owner_bits = side << 5
    for s, t in pseudo_moves(board, side):
        p = board[s]
        q = board[t]
        board[t] = p
        board[s] = 0
        if p == gcode:
            ok = not attacked(board, t, opp)
            if ok:
                out.append((s, t, 0, -1))
            for rc in kinds:
                pc = owner_bits | rc
                for ps in place[rc >> 2][t]:
                    if board[ps] == 0:
                        if ok:
                            out.append((s, t, pc, ps))
                        else:
                            board[ps] = pc
                            if not attacked(board, t, opp):
                                out.append((s, t, pc, ps))
                            board[ps] = 0
        elif not attacked(board, gsq, opp):
            out.append((s, t, 0, -1))
        board[s] = p
        board[t] = q
    return out


# -- hashing ---------------------------------------------------------------------------------

_MASK = (1 << 64) - 1


def _splitmix64(seed: int) -> Any:
    """A fixed, platform-independent stream (Python ints): same keys in CPython and Pyodide."""
    while True:
        seed = (seed + 0x9E3779B97F4A7C15) & _MASK
        z = seed
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
        yield z ^ (z >> 31)


def _zobrist() -> tuple[list[list[int]], list[list[int]], int]:
    stream = _splitmix64(0xC0C0_5EED)
    piece = [[next(stream) for _ in range(NSQ)] for _ in range(64)]
    # reserve: one key per (fighter with owner, how many of it already there)
    reserve = [[next(stream) for _ in range(9)] for _ in range(64)]
    return piece, reserve, next(stream)


ZOBRIST_PIECE, ZOBRIST_RESERVE, ZOBRIST_SIDE = _zobrist()


def position_key(board: Sequence[int], reserves: Sequence[Sequence[int]], side: int) -> int:
    """The 64-bit Zobrist key of board + reserves + side to move (what repetition compares)."""
    key = ZOBRIST_SIDE if side else 0
    zp = ZOBRIST_PIECE
    for s in range(NSQ):
        p = board[s]
        if p:
            key ^= zp[p][s]
    for owner, res in enumerate(reserves):
        seen: dict[int, int] = {}
        for rc in res:
            c = owner << 5 | rc
            n = seen.get(c, 0)
            key ^= ZOBRIST_RESERVE[c][n]
            seen[c] = n + 1
    return key

"""A deliberately simple, independent move generator for The Game of Conquests (perft only).

Why: exact move counts are only worth something if two different programs agree on them.
This one shares nothing with the engine except the data file: a dict board keyed by
(file, rank), its own position-text parser, no tables, no bit tricks, slow and obvious.

Perft definition (the same in the engine test): ``perft(p, 0) = 1``; a finished position
(no legal move, or drawn: 200 quiet plies, third repetition) has no children; otherwise
``perft(p, d) = sum(perft(child, d - 1))`` over the legal actions. A General move with a
placement is one action per (fighter, level, square) choice, next to the plain move.

Run as a script to (re)write ``tests/data/conquests_perft.json``.
"""
from __future__ import annotations

import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
DATA = json.loads((ROOT / "conquest" / "data" / "conquests.json").read_text(encoding="utf-8"))
PERFT_FILE = Path(__file__).resolve().parent / "data" / "conquests_perft.json"

FILES = "abcdef"


def parse(text):
    """Position text -> dict with board {(f, r): (colour, letter, level)}, reserves, side, quiet."""
    fields = text.split()
    board = {}
    rows = fields[0].split("/")
    for i, row in enumerate(rows):
        r = 5 - i
        f = 0
        j = 0
        while j < len(row):
            ch = row[j]
            if ch.isdigit():
                f += int(ch)
                j += 1
                continue
            level = 1
            j += 1
            while j < len(row) and row[j] == "+":
                level += 1
                j += 1
            board[(f, r)] = ("w" if ch.isupper() else "b", ch.upper(), level)
            f += 1
    reserves = {"w": [], "b": []}
    if fields[1] != "-":
        j = 0
        s = fields[1]
        while j < len(s):
            ch = s[j]
            level = 1
            j += 1
            while j < len(s) and s[j] == "+":
                level += 1
                j += 1
            reserves["w" if ch.isupper() else "b"].append((ch.upper(), level))
    quiet = int(fields[3]) if len(fields) > 3 else 0
    return {"board": board, "reserves": reserves, "side": fields[2], "quiet": quiet, "seen": []}


def forward_vector(colour, vec):
    dx, dy = vec
    if colour == "w":
        return dx, dy
    return -dx, -dy


def targets(board, square, fighter):
    """Squares the fighter on ``square`` could move to (own fighters block, enemies stop slides)."""
    colour, letter, level = fighter
    result = []
    for move in DATA["fighters"][letter]["levels"][str(level)]:
        if move["kind"] == "step":
            limit = 1
        else:
            limit = move["range"] if move["range"] is not None else 99
        for vec in move["vectors"]:
            dx, dy = forward_vector(colour, vec)
            x, y = square
            for _ in range(limit):
                x += dx
                y += dy
                if not (0 <= x < 6 and 0 <= y < 6):
                    break
                other = board.get((x, y))
                if other is None:
                    result.append((x, y))
                    continue
                if other[0] != colour:
                    result.append((x, y))
                break
    return result


def general_square(board, colour):
    for sq, fighter in board.items():
        if fighter[0] == colour and fighter[1] == "G":
            return sq
    raise AssertionError("no General")


def in_danger(board, colour):
    target = general_square(board, colour)
    for sq, fighter in board.items():
        if fighter[0] != colour and target in targets(board, sq, fighter):
            return True
    return False


def top_level(letter):
    return len(DATA["fighters"][letter]["levels"])


def play(pos, frm, to, placed=None):
    """A new position after moving frm -> to and optionally placing (letter, level, square)."""
    board = dict(pos["board"])
    colour = pos["side"]
    enemy = "b" if colour == "w" else "w"
    reserves = {"w": list(pos["reserves"]["w"]), "b": list(pos["reserves"]["b"])}
    fighter = board.pop(frm)
    captured = board.get(to)
    board[to] = fighter
    if captured is not None:
        if captured[2] < top_level(captured[1]):
            reserves[enemy].append((captured[1], captured[2] + 1))
    if placed is not None:
        letter, level, sq = placed
        reserves[colour].remove((letter, level))
        board[sq] = (colour, letter, level)
    new = {"board": board, "reserves": reserves, "side": enemy}
    if captured is not None:
        new["quiet"] = 0
    else:
        new["quiet"] = pos["quiet"] + 1
    if captured is not None or placed is not None:
        new["seen"] = []
    else:
        new["seen"] = pos["seen"] + [snapshot(pos)]
    return new


def snapshot(pos):
    return (
        tuple(sorted(pos["board"].items())),
        tuple(sorted(pos["reserves"]["w"])),
        tuple(sorted(pos["reserves"]["b"])),
        pos["side"],
    )


def placement_squares(colour, general_at, letter):
    if letter == "S":
        offsets = DATA["placement"]["S"]
    else:
        offsets = DATA["placement"]["default"]
    out = []
    for vec in offsets:
        dx, dy = forward_vector(colour, vec)
        x, y = general_at[0] + dx, general_at[1] + dy
        if 0 <= x < 6 and 0 <= y < 6:
            out.append((x, y))
    return out


def children(pos):
    """Every legal action's resulting position (the whole action is judged, C5)."""
    colour = pos["side"]
    out = []
    for frm, fighter in list(pos["board"].items()):
        if fighter[0] != colour:
            continue
        for to in targets(pos["board"], frm, fighter):
            plain = play(pos, frm, to)
            if not in_danger(plain["board"], colour):
                out.append(plain)
            if fighter[1] != "G":
                continue
            for letter, level in sorted(set(pos["reserves"][colour])):
                for sq in placement_squares(colour, to, letter):
                    if sq in plain["board"]:
                        continue
                    child = play(pos, frm, to, (letter, level, sq))
                    if not in_danger(child["board"], colour):
                        out.append(child)
    return out


def finished(pos, kids):
    if not kids:
        return True
    if pos["quiet"] >= 200:
        return True
    me = snapshot(pos)
    return sum(1 for s in pos["seen"] if s == me) + 1 >= 3


def perft(pos, depth):
    if depth == 0:
        return 1
    kids = children(pos)
    if finished(pos, kids):
        return 0
    if depth == 1:
        return len(kids)
    return sum(perft(kid, depth - 1) for kid in kids)


#: the start and mid-game positions with reserves; perft depths 1-4 of each are stored
POSITIONS = [
    "algcla/1s2s1/6/6/1S2S1/ALGCLA - w 0 1",
    # White's General b3 in Danger from the Soldier on b4; a Black Soldier stuck on d1
    "al1g1a/4l1/1s4/1G2S1/2C+3/AL1sLA S+c+ w 0 9",
    # Black to move, promoted fighters on both sides, four reserves
    "1lagla/S5/6/2s+3/2A+3/2GS+Ls A+L+C++c+ b 0 23",
    # an open middle game, both Generals able to place
    "s+gl+1La/1as+1CS/6/S5/4G1/A4A L+l+c++ w 0 16",
    # Black in Danger with few escapes
    "a3la/4C+g/s4c/1l1GA+1/4S1/AL1L+2 S+s+ b 0 11",
    # near the quiet-ply limit: draws cut the tree at depth 2
    "a1g1l1/1s4/6/3S2/1L2C1/2G3 A+ w 198 120",
]


def main(argv):
    depth = int(argv[1]) if len(argv) > 1 else 4
    out = []
    for text in POSITIONS:
        pos = parse(text)
        counts = [perft(pos, d) for d in range(1, depth + 1)]
        print(text, counts, flush=True)
        out.append({"position": text, "perft": counts})
    PERFT_FILE.parent.mkdir(parents=True, exist_ok=True)
    doc = {
        "about": "Exact move counts of The Game of Conquests, written by tests/conquests_reference.py. "
        "perft[d-1] = number of action sequences of length d (placements count as separate actions; "
        "finished positions have no children).",
        "positions": out,
    }
    PERFT_FILE.write_text(json.dumps(doc, indent=2) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))

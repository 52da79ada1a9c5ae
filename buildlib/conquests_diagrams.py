"""Move diagrams of The Game of Conquests for the rules page (build time only).

Why generated: the movement tables are reconstructed (ruling C2) and live in
``conquest/data/conquests.json``; drawing the diagrams from that same file means the page
can never disagree with the engine. One small SVG per fighter and level: a 7x7 grid with
the fighter in the middle, forward up, a dot on each square a step reaches, an arrow for
each slide (the range written at the tip when it is limited), and the same moves in words
for screen readers (``role="img"``, ``aria-label`` and ``<title>``).
"""
from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import svgwrite

__all__ = ["render_move_diagrams", "describe_moves", "direction_name"]

GRID = 7
CELL = 26
PAD = 4
TOP = 14  # room above the grid for the 'forward' mark
LEGEND = 18
CENTRE = GRID // 2

_NAMES = {
    (0, 1): "forward",
    (0, -1): "back",
    (-1, 0): "left",
    (1, 0): "right",
    (-1, 1): "diagonally forward-left",
    (1, 1): "diagonally forward-right",
    (-1, -1): "diagonally back-left",
    (1, -1): "diagonally back-right",
}
_ORTHOGONAL = {(0, 1), (0, -1), (-1, 0), (1, 0)}
_DIAGONAL = {(-1, 1), (1, 1), (-1, -1), (1, -1)}


def direction_name(vec: Sequence[int]) -> str:
    """Words for one vector relative to forward (forward is up in every diagram)."""
    v = (int(vec[0]), int(vec[1]))
    if v in _NAMES:
        return _NAMES[v]
    right, fwd = v
    parts = []
    if fwd:
        parts.append(f"{abs(fwd)} {'forward' if fwd > 0 else 'back'}")
    if right:
        parts.append(f"{abs(right)} {'right' if right > 0 else 'left'}")
    return "a jump of " + " and ".join(parts)


def _directions(vectors: Sequence[Sequence[int]]) -> str:
    vs = {(int(a), int(b)) for a, b in vectors}
    if vs == _ORTHOGONAL | _DIAGONAL:
        return "in all eight directions"
    words = []
    if _ORTHOGONAL <= vs:
        words.append("straight forward, back, left and right")
        vs -= _ORTHOGONAL
    if _DIAGONAL <= vs:
        words.append("diagonally in all four directions")
        vs -= _DIAGONAL
    if {(-1, 1), (1, 1)} <= vs:
        words.append("diagonally forward (left or right)")
        vs -= {(-1, 1), (1, 1)}
    if {(-1, -1), (1, -1)} <= vs:
        words.append("diagonally back (left or right)")
        vs -= {(-1, -1), (1, -1)}
    if {(-1, 0), (1, 0)} <= vs:
        words.append("sideways (left or right)")
        vs -= {(-1, 0), (1, 0)}
    order = list(_NAMES)
    for v in sorted(vs, key=lambda v: order.index(v) if v in order else 99):
        words.append(direction_name(v))
    if len(words) > 1:
        return ", ".join(words[:-1]) + " or " + words[-1]
    return words[0] if words else "nowhere"


def describe_moves(moves: Sequence[Mapping[str, Any]]) -> str:
    """The moves of one level in plain words, e.g. 'slides forward; steps one square back'."""
    phrases = []
    for move in moves:
        where = _directions(move["vectors"])
        if move["kind"] == "step":
            phrases.append(f"steps one square {where}")
        else:
            rng = move.get("range")
            limit = "any distance" if rng is None else f"up to {rng} square{'s' if rng != 1 else ''}"
            phrases.append(f"slides {where}, {limit}")
    return "; ".join(phrases) if phrases else "cannot move"


def _centre(col: float, row: float) -> tuple[float, float]:
    return PAD + col * CELL + CELL / 2, TOP + PAD + row * CELL + CELL / 2


def _arrow(dwg: svgwrite.Drawing, group: Any, vec: Sequence[int], length: int, label: str | None) -> None:
    dx, dy = int(vec[0]), int(vec[1])
    x0, y0 = _centre(CENTRE, CENTRE)
    # shorten the start so the arrow leaves the fighter's disc
    norm = (dx * dx + dy * dy) ** 0.5
    ux, uy = dx / norm, -dy / norm
    x1, y1 = _centre(CENTRE + dx * length, CENTRE - dy * length)
    sx, sy = x0 + ux * CELL * 0.45, y0 + uy * CELL * 0.45
    ex, ey = x1 + ux * CELL * 0.3, y1 + uy * CELL * 0.3
    group.add(dwg.line((sx, sy), (ex - ux * 6, ey - uy * 6), stroke="currentColor", stroke_width=2.5))
    # a triangular head, no markers (several SVGs share one page: no ids to clash)
    px, py = -uy, ux
    bx, by = ex - ux * 9, ey - uy * 9
    head = [(ex, ey), (bx + px * 5, by + py * 5), (bx - px * 5, by - py * 5)]
    group.add(dwg.polygon(head, fill="currentColor"))
    if label:
        lx, ly = ex + ux * 2 + px * 8, ey + uy * 2 + py * 8
        group.add(
            dwg.text(label, insert=(lx, ly + 4), font_size=11, text_anchor="middle", fill="currentColor")
        )


def _diagram(letter: str, name: str, level: int, moves: Sequence[Mapping[str, Any]], words: str) -> str:
    size = PAD * 2 + GRID * CELL
    label = f"{name}, level {level}: {words}. Forward is up."
    height = TOP + size + LEGEND
    dwg = svgwrite.Drawing(size=(size, height), debug=False)
    dwg.viewbox(0, 0, size, height)
    dwg.attribs.update({"role": "img", "aria-label": label, "class": "conquests-moves"})
    dwg.attribs["style"] = "max-width:100%;height:auto"
    dwg.set_desc(title=label)
    board = dwg.g(**{"class": "squares"})
    for row in range(GRID):
        for col in range(GRID):
            dark = (row + col) % 2 == 1
            board.add(
                dwg.rect(
                    (PAD + col * CELL, TOP + PAD + row * CELL),
                    (CELL, CELL),
                    fill="#d9c4a0" if dark else "#f3e9d6",
                    stroke="#b9a27e",
                    stroke_width=0.5,
                )
            )
    dwg.add(board)
    marks = dwg.g(**{"class": "moves", "color": "#1f4e79"})
    has_slide = has_limit = False
    for move in moves:
        for vec in move["vectors"]:
            dx, dy = int(vec[0]), int(vec[1])
            if move["kind"] == "step":
                col, row = CENTRE + dx, CENTRE - dy
                if 0 <= col < GRID and 0 <= row < GRID:
                    cx, cy = _centre(col, row)
                    marks.add(dwg.circle((cx, cy), r=5.5, fill="currentColor"))
            else:
                has_slide = True
                has_limit = has_limit or move.get("range") is not None
                reach = max(abs(dx), abs(dy))
                fit = CENTRE // reach
                rng = move.get("range")
                length = fit if rng is None else min(fit, int(rng))
                _arrow(dwg, marks, vec, length, None if rng is None else str(rng))
    dwg.add(marks)
    cx, cy = _centre(CENTRE, CENTRE)
    piece = dwg.g(**{"class": "fighter"})
    piece.add(dwg.circle((cx, cy), r=CELL * 0.42, fill="#fffaf0", stroke="#333", stroke_width=1.5))
    piece.add(dwg.text(letter, insert=(cx, cy + 1), font_size=13, font_weight="bold", text_anchor="middle",
                       fill="#222"))
    for i in range(level):  # chevrons under the letter, as on the cubes
        y = cy + 5 + i * 3
        piece.add(dwg.polyline([(cx - 4, y + 2), (cx, y), (cx + 4, y + 2)], fill="none", stroke="#222",
                               stroke_width=1))
    dwg.add(piece)
    legend = "dot: step"
    if has_slide:
        legend += " \u00b7 arrow: slide, " + ("number = most squares" if has_limit else "any distance")
    dwg.add(dwg.text("\u2191 forward", insert=(size / 2, TOP - 2), font_size=10, text_anchor="middle", fill="#333"))
    dwg.add(dwg.text(legend, insert=(size / 2, height - 5), font_size=9, text_anchor="middle",
                     fill="#333"))
    return dwg.tostring()


def render_move_diagrams(data: Mapping[str, Any]) -> list[dict[str, Any]]:
    """One entry per fighter and level: ``{"fighter", "level", "svg", "caption"}``.

    ``data`` is the parsed ``conquest/data/conquests.json``; fighters come in its ``kinds``
    order (Soldier, Archer, Lancer, Champion, General), levels ascending.
    """
    fighters = data["fighters"]
    order = list(data.get("kinds") or fighters)
    out = []
    for letter in order:
        spec = fighters[letter]
        name = str(spec["name"])
        for level_text in sorted(spec["levels"], key=int):
            level = int(level_text)
            moves = spec["levels"][level_text]
            words = describe_moves(moves)
            svg = _diagram(letter, name, level, moves, words)
            out.append(
                {
                    "fighter": name,
                    "letter": letter,
                    "level": level,
                    "svg": svg,
                    "caption": f"{name}, level {level}: {words}.",
                }
            )
    return out

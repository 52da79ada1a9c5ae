"""World Conquest's dice: the last roll drawn as dice, the attacker's red and the defender's
white, compared in pairs, with what they cost each side.

Why a part: the roll is drawn in two places, the dice box beside the map and the top of the
panel when a roll is among what the last step did (the result, issue 21), from one
renderer; it only reads the view.
"""
from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from ui import Node, h, svg

from conquest.games.world import odds as world_odds
from conquest.games.world.rules import RULES

if TYPE_CHECKING:
    from . import WorldPage

#: pip positions of a die face on a 0..1 square
PIPS = {
    1: ((0.5, 0.5),),
    2: ((0.27, 0.27), (0.73, 0.73)),
    3: ((0.27, 0.27), (0.5, 0.5), (0.73, 0.73)),
    4: ((0.27, 0.27), (0.73, 0.27), (0.27, 0.73), (0.73, 0.73)),
    5: ((0.27, 0.27), (0.73, 0.27), (0.5, 0.5), (0.27, 0.73), (0.73, 0.73)),
    6: ((0.27, 0.25), (0.73, 0.25), (0.27, 0.5), (0.73, 0.5), (0.27, 0.75), (0.73, 0.75)),
}


class DiceBox:
    """The renderer of the last roll (no state of its own)."""

    def __init__(self, page: WorldPage) -> None:
        self.page = page

    def render(self, view: Mapping[str, Any], at: str = "wc-dice") -> Node:
        """The last roll as dice: the attacker's red, the defender's white, compared in pairs
        (``at``: the id prefix, as the roll is drawn in the dice box and in the panel; in the
        panel in one row, the defender's after a gap, so the result box stays short)."""
        lr = view["last_roll"]
        if lr is None:
            return h("div", h("p", "No dice rolled yet.", cls="muted"), id=f"{at}-inner")
        att, dfn = lr["attack"], lr["defend"]
        al, dl = world_odds.compare(tuple(att), tuple(dfn))
        size, gap = 30, 8
        one_row = at != "wc-dice"
        width = (len(att) + len(dfn)) * (size + gap) + 2 * gap if one_row else max(len(att), len(dfn)) * (size + gap)
        rows = 1 if one_row else 2
        kids: list[Node] = []
        for row, faces, cls in ((0, att, "wc-die-att"), (1, dfn, "wc-die-def")):
            for i, f in enumerate(faces):
                x = (i + row * len(att)) * (size + gap) + row * 2 * gap if one_row else i * (size + gap)
                kids.append(self.die(x + 2, (0 if one_row else row * (size + gap)) + 2, size, f, cls))
        owner_src = view["owner"][lr["src"]]
        owner_dst = view["owner"][lr["dst"]]
        words = []
        if dl:
            words.append(f"defender loses {dl}")
        if al:
            words.append(f"attacker loses {al}")
        faces = f"attack {' '.join(map(str, att))} against {' '.join(map(str, dfn))}"
        return h(
            "div",
            h("p", f"Last roll: {RULES.names[lr['src']]} → {RULES.names[lr['dst']]}", cls="wc-roll-where"),
            svg("svg", svg("title", faces), *kids, viewBox=f"0 0 {width + 2} {rows * (size + gap) + 2}",
                cls="wc-dice-svg", role="img", aria_label=f"Dice: {faces}", id=f"{at}-svg",
                width=str(width + 2), height=str(rows * (size + gap) + 2)),
            h("p", f"{'; '.join(words)}." + (f" {self.page.name(owner_dst)} now holds {RULES.names[lr['dst']]}."
                                              if owner_dst == owner_src else ""), cls="wc-roll-result"),
            id=f"{at}-inner",
        )

    @staticmethod
    def die(x: float, y: float, size: float, face: int, cls: str) -> Node:
        pips = [svg("circle", cx=f"{x + px * size:.1f}", cy=f"{y + py * size:.1f}", r=f"{size * 0.09:.1f}",
                    cls="pip") for px, py in PIPS.get(face, ())]
        return svg("g", svg("rect", x=str(x), y=str(y), width=str(size), height=str(size), rx="5"), *pips,
                   cls=f"wc-die {cls}", data_face=str(face))

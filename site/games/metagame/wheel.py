"""The wheel: its SVG, its turn to the drawn slice, and the drawn game announced beside it.

Why a part: the wheel holds the page's one animation, and its state with it (how far it has
turned, the last spin whose turn was shown, when it stops). The match driver draws the slice
(:mod:`conquest.draws`); the wheel only turns to it, and the result is shown once it stops
(``spinning``), on every device that draws the page too (issue 39). Its labels are split
over two lines and kept upright where the wheel comes to rest.
"""
from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Any

from ui import Node, h, svg

from conquest.draws import describe_contribution
from conquest.games.metagame import GAME
from conquest.seats import WHEEL_COLOURS

#: the wheel's animation: 3.2 s, or 0.4 s with reduced motion (the CSS has the same numbers)
SPIN_MS, SPIN_MS_REDUCED = 3200, 400


def slice_path(a0: float, a1: float) -> str:
    """The SVG path of the slice from ``a0`` to ``a1`` degrees (clockwise from the top) of the
    200-unit wheel; a whole turn is a circle (one game holds every slice)."""
    r = 92.0
    if a1 - a0 >= 359.99:
        return "M100,8 A92,92 0 1 1 99.99,8 Z"
    p0 = (100 + r * math.sin(math.radians(a0)), 100 - r * math.cos(math.radians(a0)))
    p1 = (100 + r * math.sin(math.radians(a1)), 100 - r * math.cos(math.radians(a1)))
    large = 1 if a1 - a0 > 180 else 0
    return f"M100,100 L{p0[0]:.2f},{p0[1]:.2f} A{r},{r} 0 {large} 1 {p1[0]:.2f},{p1[1]:.2f} Z"


def label_lines(title: str, width: int = 11) -> list[str]:
    """A wheel label in at most two lines of about ``width`` characters, split between words
    (issue 21, item 8: "To Reign Supreme" was cut to "To Reign Supre"); a word too long for
    a line is kept whole, and only a third line's words are dropped, with an ellipsis."""
    lines: list[str] = []
    for word in title.split():
        if lines and len(lines[-1]) + 1 + len(word) <= width:
            lines[-1] += " " + word
        else:
            lines.append(word)
    if len(lines) > 2:
        lines = [lines[0], lines[1] + "…"]
    return lines or [""]


def upright(angle: float, turn: float) -> float:
    """A wheel label's rotation so that it reads upright where the wheel comes to rest
    (``turn`` degrees): flipped by half a turn when it would stand on its head."""
    net = (angle + turn) % 360
    return angle + 180 if 90 < net < 270 else angle


def wheel_colour(g: int) -> str:
    """Game ``g``'s colour (Okabe-Ito first, then Tableau); the list beside the wheel names them."""
    return WHEEL_COLOURS[g % len(WHEEL_COLOURS)]


class Wheel:
    """The wheel's turn, the spin it last showed, and its renderers."""

    def __init__(self, page: Any) -> None:
        self.page = page
        self.shell = page.shell
        self.turn = 0.0  # degrees the wheel has turned (animations continue from there)
        self.last_shown = -1  # log index of the last spin result whose animation was shown
        self.reveal_at = 0.0  # clock time when the spinning wheel stops and the result shows
        self.reduced_motion = False

    def reset(self) -> None:
        """After any step: an undo that took a spin back makes the next one turn again."""
        if self.shell.session is not None:
            self.last_shown = min(self.last_shown, self.last_spin_index())

    def opened(self) -> None:
        """A campaign was opened: its spins count as seen (no turn for an old result)."""
        self.last_shown = self.last_spin_index()

    def last_spin_index(self) -> int:
        """Log index of the latest spin result of the invasion under way (-1 if none)."""
        s = self.shell.session
        assert s is not None
        for i in range(len(s.match.log) - 1, -1, -1):
            text = s.match.log[i]
            if text.startswith("r"):
                return i
            if text.startswith("i"):
                return -1
        return -1

    def spinning(self) -> bool:
        return self.reveal_at > self.shell.host.clock()

    def landed(self) -> None:
        """The wheel stopped: the result shows and the focus goes to what comes next."""
        self.page.flow.want_focus = "next"
        self.page.flow.want_reveal = "mg-result"
        self.shell.host.rerender()

    def start(self) -> None:
        """A new spin result: the wheel turns to it; the result shows when it stops."""
        s = self.shell.session
        assert s is not None
        newest = self.last_spin_index()
        if newest <= self.last_shown or s.viewing is not None:
            return
        inv = GAME.view(s.match.state, None)["invasion"]
        if not inv or not inv["spins"]:
            return
        x = inv["numbers"]["X"]
        k = inv["spins"][-1]["slice"]
        final = (-(k + 0.5) * 360.0 / x) % 360
        start = self.turn
        self.turn = start - (start % 360) + 360 * 5 + final
        self.last_shown = newest
        ms = SPIN_MS_REDUCED if self.reduced_motion else SPIN_MS
        self.reveal_at = self.shell.host.clock() + ms + 80
        self.shell.host.later(ms + 120, self.landed)
        self.page.flow.want_reveal = "mg-wheel-box"

    def render(self, view: Mapping[str, Any]) -> list[Node]:
        """The wheel as SVG: X slices coloured by game; it turns so the drawn slice ends under
        the pointer. Labels stay upright when their slice stops under the pointer."""
        s = self.shell.session
        assert s is not None
        inv = view["invasion"]
        x = inv["numbers"]["X"]
        step = 360.0 / x
        spins = [sp["slice"] for sp in inv["spins"]]
        if s.viewing is not None or not spins:
            if spins:
                self.turn = (-(spins[-1] + 0.5) * step) % 360
            elif s.viewing is None:
                self.turn = 0.0
        drawn_k = spins[-1] if spins and not self.spinning() else None
        titles = {g["index"]: g.get("title") or g["name"] for g in view["games"]}
        paths, labels = [], []
        k = 0
        for seg in inv["wheel"]:
            colour = wheel_colour(seg["game"])
            for _ in range(seg["count"]):
                paths.append(svg("path", d=slice_path(k * step, (k + 1) * step), fill=colour, stroke="#fff",
                                 stroke_width=0.6 if x < 120 else 0.2, data_slice=str(k),
                                 cls="is-drawn" if k == drawn_k else None))
                k += 1
            mid = math.radians((seg["start"] + seg["count"] / 2) * step - 90)
            if seg["count"] * step >= 14:
                lx, ly = 100 + 60 * math.cos(mid), 100 + 60 * math.sin(mid)
                lines = label_lines(titles.get(seg["game"], seg["name"]))
                longest = max(len(x) for x in lines)
                size = 8 if longest <= 11 else max(5.5, 8 * 11 / longest)  # fits the 60-unit radius
                tspans = [svg("tspan", line, x=f"{lx:.1f}", dy=f"{(i - (len(lines) - 1) / 2) * 1.1 if i == 0 else 1.1:.2f}em")
                          for i, line in enumerate(lines)]
                labels.append(svg("text", *tspans, x=f"{lx:.1f}", y=f"{ly:.1f}",
                                  transform=f"rotate({upright(math.degrees(mid) + 90, self.turn):.1f} "
                                            f"{lx:.1f} {ly:.1f})",
                                  font_size=f"{size:g}", text_anchor="middle", dominant_baseline="central", fill="#111",
                                  stroke="#fff", stroke_width=2, paint_order="stroke", cls="mg-wheel-label"))
        if drawn_k is not None:  # the drawn slice above the others, below the labels
            paths.append(paths.pop(next(i for i, p in enumerate(paths) if p.attrs.get("data-slice") == str(drawn_k))))
        drawn = "; then ".join(f"slice {sp['slice'] + 1} of {x}: {titles.get(sp['game'], sp['name'])}" for sp in inv["spins"])
        wheel = svg(
            "svg",
            svg("g", *paths, *labels, cls="spinner", id="mg-spinner", style=f"transform: rotate({self.turn}deg)"),
            svg("polygon", points="100,16 93,0 107,0", fill="#111"),
            viewBox="0 0 200 210", role="img", cls="mg-wheel",
            aria_label=f"The wheel: {x} slices" + (f"; drawn: {drawn}" if drawn and not self.spinning() else ""),
        )
        items = []
        for seg in inv["wheel"]:
            pct = round(100 * seg["count"] / x, 1)
            first, last = seg["start"] + 1, seg["start"] + seg["count"]
            span = f"slice {first}" if first == last else f"slices {first}–{last}"
            items.append(h("li", h("span", cls="swatch", style=f"background:{wheel_colour(seg['game'])}"),
                           h("span", f"{titles.get(seg['game'], seg['name'])}: {span}, {seg['count']} of {x} ({pct}%) — "
                                     f"attacker {seg['a']}, defender {seg['d']}")))
        out = [self.render_result(view),
               h("div", wheel, cls="mg-wheel-box", id="mg-wheel-box"),
               h("ul", *items, cls="mg-wheel-list", aria_label="The wheel's slices")]
        used = self.page.word.contribution() if inv["spins"] else None
        if inv["spins"]:
            out.append(h("p", f"Drawn: {drawn} (M10).", cls="mg-msg mg-drawn", hidden=self.spinning()))
        if used is not None:
            number, contribution = used
            names = [seat.name for seat in s.seats()]
            out.append(h("p", f"How it was drawn: draw {number}, from the host's sealed draws and "
                              f"{describe_contribution(contribution, names)}. Each of the {x} slices was equally "
                              "likely; anyone can recompute it (Check the draws under the log, or "
                              "python -m conquest verify with the link). The animation only turns the wheel.",
                         cls="mg-trust", id="mg-how"))
        elif inv["spins"]:
            out.append(h("p", "How it was drawn: by the host's browser (crypto.getRandomValues), each of the "
                              f"{x} slices equally likely. This game was saved before draws were sealed, so its "
                              "draws are not checkable.", cls="mg-trust", id="mg-how"))
        elif view["phase"] == "spin":
            out.append(h("p", f"Each of the {x} slices is equally likely: a game's chance is its share of the slices.",
                         cls="mg-trust"))
            out.append(self.page.word.render_seal())
        return out

    def render_result(self, view: Mapping[str, Any]) -> Node:
        """The drawn game, large beside the wheel (and in the audience tab), announced once
        the wheel stops ("spinning" while it turns); the duel's winner buttons below it."""
        inv = view["invasion"]
        spins = inv["spins"] if inv else []
        if not spins:
            return h("div", h("div", id="mg-result-text", role="status"), id="mg-result", cls="mg-result",
                     hidden=True)
        if self.spinning():
            return h("div", h("div", h("strong", "The wheel is spinning…"), id="mg-result-text", role="status"),
                     id="mg-result", cls="mg-result is-spinning")
        sp = spins[-1]
        titles = {g["index"]: g.get("title") or g["name"] for g in view["games"]}
        pl = view["players"]
        again = " (after a re-spin)" if len(spins) > 1 else ""
        return h(
            "div",
            h("div",
              h("span", f"The wheel drew{again}", cls="mg-result-label"),
              h("strong", titles.get(sp["game"], sp["name"]), cls="mg-result-game"),
              h("span", f"{pl[inv['attacker']]['name']} and {pl[inv['defender']]['name']} play it · "
                        f"slice {sp['slice'] + 1} of {inv['numbers']['X']}", cls="mg-result-label"),
              self.page.word.render_used(),
              id="mg-result-text", role="status"),
            self.page.duel.render_decide(view),
            id="mg-result", cls="mg-result",
        )

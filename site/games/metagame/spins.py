"""The spin history below the log: every spin of the campaign, and the ones an undo took back.

Why a part: it is the campaign's record of trust (M10): who spun, for which territory, the
wheel as it stood and the slice drawn, each with its step's code; a spin taken back by an
undo stays listed as taken back, so no draw disappears unseen.
"""
from __future__ import annotations

from typing import Any

from shell import plural
from ui import Node, h

from conquest.core import GameError
from conquest.games.metagame import GAME


class SpinHistory:
    """The list of spins, drawn from the match's log (no state of its own)."""

    def __init__(self, page: Any) -> None:
        self.shell = page.shell

    def render(self) -> Node:
        """Every spin of the campaign: who, where, the wheel and the drawn slice (trust, M10)."""
        s = self.shell.session
        assert s is not None
        rows = []
        for i, text in enumerate(s.match.log):
            if not text.startswith("r"):
                continue
            before = s.match.states[i]
            inv = before.inv
            if inv is None:
                continue
            try:
                k = GAME.parse_action(text).k
                game = self.game_title(before.games[inv.game_at(k)])
            except (GameError, IndexError, AttributeError):
                continue
            pl = before.players
            again = " (re-spin)" if inv.spins else ""
            wheel = ", ".join(f"{self.game_title(before.games[g])} {n}" for g, n in inv.layout)
            rows.append(h("li", h("span", f"Turn {before.turn}", cls="mg-turn"),
                          h("span", f"{pl[inv.attacker].name} → {before.board.names[inv.target]} "
                                    f"({pl[inv.defender].name}){again}: slice {k + 1} of {inv.x}: {game}. "),
                          h("span", f"Wheel: {wheel}. ", cls="muted"), h("code", text)))
        taken = [(at, x) for at, texts in s.match.undone for x in texts if x.startswith("r")]
        for at, text in taken:
            rows.append(h("li", f"Taken back by an undo after step {at}: {self.spin_words(at, text)}, taken back "
                                "(drawn, then undone). ", h("code", text), cls="mg-taken-back"))
        spins = plural(len(rows) - len(taken), "spin") + (f", {len(taken)} taken back" if taken else "")
        return h(
            "details",
            h("summary", f"Spin history ({spins})", id="mg-spins-title"),
            h("ol", *rows, cls="mg-spin-list") if rows else h("p", "No spins yet.", cls="muted"),
            cls="mg-more", id="mg-spins-inner", open=True if rows else None,
        )

    def spin_words(self, at: int, text: str) -> str:
        """A spin in words: "slice 27 of 44: Chess" (its wheel is the one of the state it was
        drawn in, on the present line while ``at`` is)."""
        s = self.shell.session
        assert s is not None
        try:
            before = s.match.states[at]
            inv = before.inv
            k = GAME.parse_action(text).k
            return f"slice {k + 1} of {inv.x}: {self.game_title(before.games[inv.game_at(k)])}"
        except (GameError, IndexError, AttributeError):
            return f"a spin ({text})"

    @staticmethod
    def game_title(name: str) -> str:
        from conquest.catalog import catalog

        f = catalog().get(name)
        return f.title if f is not None else name

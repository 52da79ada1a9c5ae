"""The moves played on The Game of Conquests page: the list by number and each move's words.

Why a part: the engine's words for every logged move (``describe_action``) are cached here
while the log keeps its states, so one render asks the engine only for the moves new since
the last; the move list, its buttons that view the game after a move, and the status's
"what just happened" all read them.
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ui import Node, h

from conquest.core import InvalidAction
from conquest.games.conquests import GAME, State

if TYPE_CHECKING:
    from . import ConquestsPage


class MoveList:
    """The words of each logged move (cached) and the list of moves."""

    def __init__(self, page: ConquestsPage) -> None:
        self.page = page
        self._words: list[tuple[Any, str]] = []  # describe_action of each logged move (cached)

    def sync(self) -> None:
        """The engine's words for every logged move, kept while the log keeps its states (one
        check per render; the move list and the status read them)."""
        s = self.page.shell.session
        assert s is not None
        states, log = s.match.states, s.match.log
        keep = 0
        while keep < min(len(self._words), len(log)) and self._words[keep][0] is states[keep]:
            keep += 1
        del self._words[keep:]
        for j in range(len(self._words), len(log)):
            try:
                words = GAME.describe_action(states[j], GAME.parse_action(log[j]))
            except InvalidAction:
                words = log[j]
            self._words.append((states[j], words))

    def words(self, i: int) -> str:
        return self._words[i][1]

    def describe_last(self, state: State) -> str:
        s = self.page.shell.session
        assert s is not None
        i = s.step() - 1
        return self.words(i) if i >= 0 else str(state.last)

    def render(self) -> Node:
        """The moves by number, White's then Black's; each shows the game after it."""
        shell = self.page.shell
        s = shell.session
        assert s is not None
        first_ply = s.match.states[0].ply
        items: list[Node] = []
        item: Node | None = None
        for i, text in enumerate(s.match.log):
            ply = first_ply + i
            if item is None or ply % 2 == 0:
                item = h("li", value=str(ply // 2 + 1))
                items.append(item)
                if ply % 2 == 1:
                    item.children.append(h("span", "…"))
            viewed = s.viewing == i + 1
            item.children.append(h(
                "button", h("code", text), type="button", cls="cq-ply" + (" is-viewed" if viewed else ""),
                title=self.words(i), aria_label=f"View the game after {self.words(i)}",
                on_click=lambda ev, k=i + 1: shell.jump(k),
            ))
        return h("div", h("ol", *items, id="cq-moves", cls="cq-moves", aria_label="Moves played"),
                 cls="cq-moves-box")

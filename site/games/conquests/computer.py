"""The computer's side of The Game of Conquests page: its time per move, its thinking bar, its figures.

Why a part: the time per move is this browser's preference (a stored setting, not the
game's), the bar moves between the search's slices without a re-render, and the figures
(nodes, depth, nodes per second) add up over every move the computer made since the page
opened; none of it is the board's or the game's, and all of it changes together.
"""
from __future__ import annotations

from typing import TYPE_CHECKING

from ui import Node, h

from conquest.games.conquests.ai import SearchBot
from conquest.rng import Rng

if TYPE_CHECKING:
    from . import ConquestsPage

#: the computer's time per move (seconds), a preference of this browser: hard searches until
#: then (iterative deepening); easy and medium search a fixed depth and are done long before
THINK_KEY = "conquest:conquests:think-seconds"
THINK_CHOICES = (1, 3, 10, 30)
THINK_DEFAULT = 3
#: update the "thinking" bar at most this often (milliseconds)
PROGRESS_EVERY_MS = 100


def think_choice(raw: str | None) -> int:
    """The stored time per move, if it is one of the choices."""
    try:
        value = int(float(raw or ""))
    except ValueError:
        return THINK_DEFAULT
    return value if value in THINK_CHOICES else THINK_DEFAULT


class Computer:
    """The time per move, the search's progress and the figures of its moves."""

    def __init__(self, page: ConquestsPage, think_seconds: int) -> None:
        self.page = page
        self.think_seconds = think_seconds
        # the computer's figures: the last move's words and the totals since the page opened
        self.ai_words = ""
        self.total_nodes = 0
        self.total_busy = 0.0
        self.progress_pct = 0
        self._progress_at = -1e18

    def make_bot(self, level: str, rng: Rng) -> SearchBot:
        """The computer with this browser's time per move; it reports its progress and figures."""
        self.progress_pct = 0
        return SearchBot(level, rng, seconds=float(self.think_seconds), on_progress=self._bot_progress,
                         on_done=self._bot_done)

    def _bot_progress(self, bot: SearchBot) -> None:
        """Between the computer's steps: move the bar (no re-render: the page keeps answering)."""
        host = self.page.shell.host
        now = host.clock()
        if now - self._progress_at < PROGRESS_EVERY_MS or bot.search is None:
            return
        self._progress_at = now
        self.progress_pct = int(100 * bot.progress())
        host.set_style("cq-progress-fill", "width", f"{self.progress_pct}%")
        depth = f"depth {bot.search.depth}, " if bot.search.depth else ""
        host.set_style("cq-progress-words", "--cq-think", f'"{depth}{bot.search.nodes:,} nodes"')

    def _bot_done(self, bot: SearchBot) -> None:
        """The search's figures: nodes per second over the time spent searching (the slices,
        not the pauses between them), for this move and all the computer's moves so far."""
        search = bot.search
        if search is None:
            return
        self.progress_pct = 0
        self.total_nodes += search.nodes
        self.total_busy += bot.busy
        if search.nodes:
            nps = search.nodes / bot.busy if bot.busy > 0 else 0.0
            depth = f" to depth {search.depth}" if search.depth else ""
            words = (f"Computer ({bot.level}): {search.nodes:,} nodes{depth} in {bot.busy:.2f} s, "
                     f"{nps:,.0f} nodes per second.")
        else:
            what = "a random choice" if bot.level == "random" else "one legal move"
            words = f"Computer ({bot.level}): {what}, no search."
        if self.total_busy > 0 and self.total_nodes:
            words += (f" All its moves so far: {self.total_nodes:,} nodes, "
                      f"{self.total_nodes / self.total_busy:,.0f} nodes per second.")
        self.ai_words = words

    def nps(self) -> int:
        return int(self.total_nodes / self.total_busy) if self.total_busy > 0 else 0

    def set_think(self, value: str) -> None:
        """The computer's time per move: this browser's preference (the next move on)."""
        self.think_seconds = think_choice(value)
        if not self.page.shell.host.save_pref(THINK_KEY, str(self.think_seconds)):
            self.page.shell.say("This browser's storage refused the setting; it holds on this page only.")

    # -- renderers -----------------------------------------------------------------------------
    def render_progress(self) -> Node:
        """The computer's thinking bar; its width and words are set between slices."""
        return h(
            "span",
            h("span", h("span", id="cq-progress-fill", cls="cq-progress-fill", style=f"width:{self.progress_pct}%"),
              id="cq-progress", cls="cq-progress", role="presentation"),
            h("span", id="cq-progress-words", cls="cq-progress-words", aria_hidden="true"),
            cls="cq-thinking",
        )

    def render_think(self, shown: bool) -> Node:
        """The time per move (shown while a computer sits at the table of a game played here)."""
        return h("p",
                 h("label", "Computer's time per move", for_="cq-think"),
                 h("select", *[h("option", f"{n} second{'s' if n > 1 else ''}", value=str(n)) for n in THINK_CHOICES],
                   id="cq-think", value=str(self.think_seconds), on_change=lambda ev: self.set_think(ev.value)),
                 id="cq-think-row", cls="cq-think-row", hidden=not shown)

    def render_stats(self) -> Node:
        """The last move's figures and the totals (``data-nps`` for the browser tests)."""
        return h("p", self.ai_words, id="cq-ai-stats", cls="cq-ai-stats muted", hidden=not self.ai_words,
                 data_nps=str(self.nps()) if self.ai_words else None)

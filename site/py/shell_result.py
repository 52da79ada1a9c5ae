"""What the last action did and how a game ended: "What just happened" beside the controls
(announced to screen readers), and a finished game's next steps under the status bar.

Why a part of its own (issue 42): these are the page's answers to a step, with their own
controls (Play again, the next steps a page adds through ``Shell.next_steps``).
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Any

from session import Session, plural
from ui import Node, h

from conquest.core import GameError
from conquest.rng import Rng
from conquest.session import Match
from conquest.store import StorageError

if TYPE_CHECKING:
    from shell import Shell

__all__ = ["RESULT_SHOWN", "Results"]

#: steps listed in "What just happened" beside the controls (the rest are in the log)
RESULT_SHOWN = 6


class Results:
    """The results of the game open in ``shell`` (``Shell.result``)."""

    def __init__(self, shell: Shell) -> None:
        self.shell = shell

    def words(self) -> str:
        """A finished game's result in a few words ("Ann won", "Ann and Bob won", "A draw");
        "" while it goes on. Kept in the saved games' list (item 3)."""
        s = self.shell.session
        if s is None:
            return ""
        out = self.shell.game.outcome(s.match.state)
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
        s = self.shell.session
        if s is None:
            return None
        try:
            match = Match(self.shell.game, dict(s.match.options), rng=Rng(None))
        except GameError as exc:
            self.shell.say(exc.message, "error")
            return None
        save = match.save().to_json()
        name = self.shell.slot_name(save, "host")
        slot = None
        try:
            slot = self.shell.host.store.create(save, name, self.shell.host.now())
        except StorageError as exc:
            self.shell.say(f"{exc} The finished game is unchanged.", "error")
            return None
        session = self.shell.open(match, slot)
        self.shell.host.go(f"?slot={slot.id}")
        self.shell.say(f"A new game of {self.shell.game.title} with the same players; "
                       "the finished one is in your saved games.")
        return session

    def render_over(self) -> Node | None:
        """A finished game's next steps, in the bar at the top where the last move was seen
        (item 3: they were only at the page's foot, and Undo was offered instead): the first
        a page's hook in ``Shell.next_steps`` gives, else Play again and another game."""
        s = self.shell.session
        assert s is not None
        words = self.words()
        if not words or s.viewing is not None:
            return None
        for next_step in self.shell.next_steps:  # a campaign's duel: its own (M12), not "Play again"
            own = next_step(self.shell)
            if own is not None:
                return own
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
        over = self.render_over() if self.shell.session is not None and not hide else None
        if over is None:
            return h("div", id="shell-over-inner", hidden=True)
        return h("div", over, id="shell-over-inner", role="group", aria_label="The game is over: what next")

    def lines(self) -> tuple[list[dict[str, Any]], int]:
        """The steps since the person's last action in words (at most ``RESULT_SHOWN``), and
        how many earlier ones of them are left to the log."""
        s = self.shell.session
        if s is None or s.result_from is None or s.viewing is not None:
            return [], 0
        n = len(s.match.log)
        until = self.shell.page.result_until() if self.shell.page is not None else None
        if until is not None:
            n = max(0, min(n, until))
        start = min(max(0, s.result_from), n)
        first = max(start, n - RESULT_SHOWN)
        return self.shell.log.lines(first, n), first - start

    def announcement(self) -> str:
        """What a screen reader is told after a step: the same words as the result box, in
        one line (the page writes it into the polite live region ``#shell-announce``)."""
        lines, _ = self.lines()
        # a log line ends its own sentence ("... (S3)."): a second full stop read "S3).." (issue 41)
        return " ".join(f"Step {x['step']}: {x['words']}" + ("" if str(x["words"]).endswith((".", "!", "?")) else ".")
                        for x in lines)

    def render(self) -> Node:
        """"What just happened": every result of the last action (a person's step, the dice
        or reveal it drew, the computer's replies) in words, for the page to place in its
        controls, where the person is looking (issue 21, item 10). Announced through
        ``#shell-announce`` (see :meth:`announcement`), so this box is not a live region
        itself (it is rebuilt with the panel; a live region must stay put)."""
        lines, earlier = self.lines()
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

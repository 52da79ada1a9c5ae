"""The game's draws as the page shows them (issue 26): how each was made, which a spectator
may not see, and "Check the draws" under the log.

Why a part of its own (issue 42): the log, the links' lazy codes and the check all ask the
same questions of the draw record, cached here once per log, and "Check the draws" has its
own control and verdict.
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ui import Node, h

from conquest.core import Game
from conquest.draws import DrawCheck, check_draws, describe_contribution

if TYPE_CHECKING:
    from shell import Shell

__all__ = ["DRAWS_RULES_URL", "Draws", "draw_is_hidden"]

#: the rules page on draws (issue 26), from a game page at ``play/<id>/``
DRAWS_RULES_URL = "../../rules/draws/"


class Draws:
    """The draws of the game open in ``shell`` (``Shell.draws``): their labels in the log, which
    of them the spectator cannot see, and the "Check the draws" button with its verdict."""

    def __init__(self, shell: Shell) -> None:
        self.shell = shell
        #: log index -> (the state after it, whether it is a draw the spectator cannot see)
        self._hidden_memo: dict[int, tuple[Any, bool]] = {}
        #: (the record and log it was found for, log index -> (draw number, contribution))
        self._by_step_memo: tuple[Any, dict[int, tuple[int, str]]] | None = None
        #: the last "Check the draws" verdict and the log length it was made at (issue 26)
        self.verdict: tuple[int, int, DrawCheck] | None = None

    def labels(self) -> dict[int, str]:
        """Log index -> how its draw was made (issue 26): "draw 12, automatic" or "draw 12,
        said by Bob: “whale”". Empty for a game whose draws are not recorded; never raises."""
        s = self.shell.session
        assert s is not None
        names = [seat.name for seat in s.seats()]
        return {i: f"draw {d + 1}, {describe_contribution(c, names, short=True)}"
                for i, (d, c) in self.by_step().items()}

    def by_step(self) -> dict[int, tuple[int, str]]:
        """Log index -> (draw number from 0, its contribution); cached per log; never raises."""
        s = self.shell.session
        assert s is not None
        rec = getattr(s.match, "draws", None)
        if rec is None:
            return {}
        key = (id(s.match), id(rec), rec.count, len(s.match.log), len(s.match.undone))
        memo = self._by_step_memo
        if memo is not None and memo[0] == key:
            return memo[1]
        try:
            kept = s.match.kept_draws()
        except Exception:  # noqa: BLE001 - a damaged record: Check the draws says where
            kept = []
        steps = [i for i in range(len(s.match.log)) if self.shell.game.chance(s.match.states[i]) is not None]
        found = {i: (d, rec.contributions[d]) for i, d in zip(steps, kept, strict=False) if d < rec.count}
        self._by_step_memo = (key, found)
        return found

    def hidden(self, i: int) -> bool:
        """Whether log entry ``i`` is a chance result the spectator cannot see (a card drawn
        into a secret hand): its code is then not drawn, since it would tell everybody at
        the device what the card is (issue 19). Cached per state; never raises (a log is
        data: a draw that cannot be judged keeps its code)."""
        s = self.shell.session
        assert s is not None
        before, after = s.match.states[i], s.match.states[i + 1]
        memo = self._hidden_memo.get(i)
        if memo is None or memo[0] is not after:
            try:
                hidden = draw_is_hidden(self.shell.game, before, after, s.match.log[i])
            except Exception:  # noqa: BLE001
                hidden = False
            memo = self._hidden_memo[i] = (after, hidden)
        return memo[1]

    def check(self) -> DrawCheck | None:
        """"Check the draws": recompute every draw of the game from its seals and contributions
        (the very check ``python -m conquest verify`` makes) and say the verdict."""
        s = self.shell.session
        if s is None:
            return None
        if not hasattr(s.match, "kept_draws"):  # a live guest's mirror: the record is the host's
            self.shell.say("At a live table the host's device keeps the draws' record: check the host's link "
                           "(Check the draws there, or python -m conquest verify).")
            return None
        result = check_draws(self.shell.game, s.match.states, s.match.log, s.match.undone, getattr(s.match, "draws", None))
        if result.at_step is not None and self.hidden(result.at_step):
            # a card in someone's hand: the verdict may not show what it is (issue 19)
            result.problem = (f"step {result.at_step + 1} of the log (a card in a hand, not shown here) is not what "
                              "its link, number and contribution give")
        self.verdict = (id(s), len(s.match.log), result)
        self.shell.say(result.summary(), "error" if result.status == "mismatch" else "notice")
        return result

    def render(self) -> Node:
        """The "Check the draws" button and its last verdict (while the log is unchanged)."""
        s = self.shell.session
        assert s is not None
        shown = self.verdict
        verdict = None
        if shown is not None and shown[0] == id(s) and shown[1] == len(s.match.log):
            result = shown[2]
            verdict = h("p", result.summary(), id="shell-draw-verdict", role="status",
                        cls="shell-draw-verdict " + ("is-bad" if result.status == "mismatch" else "is-ok"),
                        data_status=result.status)
        return h(
            "div",
            h("button", "Check the draws", type="button", cls="small secondary", id="shell-check-draws",
              disabled=self.shell.pending() is not None, on_click=lambda ev: self.check()),
            h("span", " Recomputes every spin, roll, shuffle and deal from the host's seal and each draw's "
                      "contribution (", h("a", "how the draws are made", href=DRAWS_RULES_URL), ").", cls="muted"),
            verdict,
            id="shell-draws",
            cls="shell-draws",
        )


def draw_is_hidden(game: Game[Any, Any], before: Any, after: Any, text: str) -> bool:
    """Whether the chance result ``text`` (``before`` -> ``after``) is hidden from the
    spectator: found from the views, as the hand-over is. Other results the draw could have
    had (each drawn value at its lowest, middle and highest) leave the spectator's view as
    it is: e.g. a card drawn into a hand (the spectator sees one card more, not which). A
    die or a wheel shows: the spectator's view differs at once."""
    spec = game.chance(before)
    if spec is None:
        return False
    public = game.view(after, None)
    other = False
    for j, size in enumerate(spec.sizes):
        for v in sorted({0, size // 2, size - 1}):
            values = [0] * len(spec.sizes)
            values[j] = v
            alt = game.chance_action(before, values)
            if game.format_action(alt) == text:
                continue
            if game.view(game.apply(before, alt), None) != public:
                return False
            other = True
    return other

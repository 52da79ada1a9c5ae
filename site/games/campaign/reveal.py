"""The Short Campaign's reveal: the last question's right answer, everyone's answers and times,
who won it and what the answers decided, in words.

Why a part: the reveal reads the game around the last Answers step (the states before and
after it) to say what happened (a territory taken, a tower felled, a battle held), which
nothing else on the page needs; the stage shows it beside the question to come, or as the
result of the last step.
"""
from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from shell import plural
from ui import Node, h

from conquest.games.campaign import GAME
from conquest.games.campaign.engine import rules

if TYPE_CHECKING:
    from . import CampaignPage

PLACES = ("1st", "2nd", "3rd")


class Reveal:
    """The renderer of the last answered question and its words (no state of its own)."""

    def __init__(self, page: CampaignPage) -> None:
        self.page = page
        self.shell = page.shell

    def render(self, view: Mapping[str, Any]) -> Node | None:
        """The last answered question: its right answer, everyone's answers, who won."""
        rv = view["reveal"]
        s = self.shell.session
        assert s is not None
        if rv is None:
            return None
        i = self.page.clock.last_answers(s.step())
        before = s.match.states[i] if i is not None else None
        after = s.match.states[i + 1] if i is not None else None
        q = rv["question"]
        choice = q["kind"] == "choice"
        rows = {r["seat"]: r for r in rv["answers"]}
        order = [x for x in rv["ranking"] if x in rows] + [x for x in rows if x not in rv["ranking"]]
        winner = self.winner(rv, before, after)
        lines = []
        for place, seat in enumerate(order):
            r = rows[seat]
            if not r["answered"]:
                what, how = "no answer", ""
            elif choice:
                opt = next((o["text"] for o in q["options"] if o["letter"] == r["answer"]), "")
                what = f"{r['answer']}: {opt}"
                how = "right" if r["correct"] else "wrong"
            else:
                what = f"{int(r['answer']):,}"
                how = "exact" if r["distance"] == 0 else f"{r['distance']:,} off"
            badge = PLACES[place] if (not choice and r["answered"] and place < len(PLACES)) else ""
            lines.append(h(
                "tr",
                h("td", h("span", cls="swatch", style=f"background:{self.page.seat_colour(seat)}", aria_hidden="true"),
                  f" {r['name']}" + (" ★" if seat == winner else ""),
                  h("span", badge, cls="cp-place") if badge else None),
                h("td", h("span", what, cls="cp-given"),
                  h("span", how, cls="cp-how " + ("ok" if how in ("right", "exact") else "bad" if how == "wrong" else ""))
                  if how else None),
                h("td", f"{r['ms'] / 1000:.1f} s" if r["answered"] else "—", cls="num"),
                cls="is-winner" if seat == winner else None, data_seat=str(seat),
            ))
        return h(
            "section",
            h("p", "Last question · " + q["category"], cls="cp-qhead"),
            h("p", q["text"], cls="cp-rtext"),
            self.page.stage.render_picture(q, small=True),
            h("p", "Right answer: ", h("strong", q["answer"], id="cp-right"), cls="cp-answer"),
            h("table",
              h("thead", h("tr", h("th", "Player"), h("th", "Answer"), h("th", "Time", cls="num"))),
              h("tbody", *lines), cls="data cp-answers"),
            h("p", self.outcome_words(rv, before, after), cls="cp-outcome", id="cp-outcome"),
            cls="cp-reveal", id="cp-reveal", aria_label="The last question's answers",
        )

    @staticmethod
    def winner(rv: Mapping[str, Any], before: Any, after: Any) -> int | None:
        """Whom the reveal favoured: closest guess, or the battle's winner."""
        result = rv["result"]
        if result in ("expand", "final") and rv["ranking"]:
            return int(rv["ranking"][0])
        if before is None or after is None:
            return None
        if result == "attacker":
            return int(before.attacker)
        if result in ("defender", "defender-bonus"):
            return int(before.defender)
        return None

    def outcome_words(self, rv: Mapping[str, Any], before: Any, after: Any) -> str:
        """What the answers decided, in a sentence."""
        result = rv["result"]
        name = self.page.name
        if result == "expand" and after is not None:
            firsts = [x for i, x in enumerate(after.picks) if x not in after.picks[:i]]
            return "; ".join(
                f"{name(x)} {'was closest' if k == 0 else 'came second'}: {plural(after.picks.count(x), 'pick')}"
                for k, x in enumerate(firsts)
            ) + " (S3)."
        if result == "none":
            return "Nobody answered in time: another question for this round (S3)."
        if result == "final":
            return f"{name(rv['ranking'][0])} wins the tie-break and the game (S7)."
        if result == "again":
            return "Still level: another question decides (S7)."
        if before is None or after is None:
            return ""
        att, dfd, t = before.attacker, before.defender, before.target
        where = GAME.setup(before).board.names[t] if 0 <= t < len(before.owner) else "the territory"
        if result == "both-right":
            return f"Both right: a guess question decides the battle for {where} (S5)."
        if result == "attacker":
            if before.alive[dfd] and not after.alive[dfd]:
                return (f"{name(att)} fells the last tower of {where}: {name(dfd)} is out, and {name(att)} takes "
                        f"all their territories and points, +{rules().elimination_bonus:,} (S6).")
            if after.owner[t] == att:
                gain = after.points[att] - before.points[att]
                return f"{name(att)} takes {where}, {gain:+,}; {name(dfd)} {after.points[dfd] - before.points[dfd]:+,} (S5)."
            left = after.towers[before.base.index(t)]
            return f"{name(att)} fells a tower of {where}: {left} still standing, the siege goes on (S6)."
        bonus = f" and scores the defence bonus, +{rules().defence_bonus}" if result == "defender-bonus" else ""
        return f"{name(dfd)} holds {where}{bonus} (S5)."

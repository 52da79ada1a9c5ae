"""To Reign Supreme's battle reveal: both sides' choices and arithmetic, from the logged step.

Why a part: once both secret parts are in, the reveal is read back from the log (the step
itself, the state before it, the engine's report) and spelled out in words and sums (R7,
R8); it stays in full until a person at this device acts, then folds into "Last battle".
It keeps no state: everything comes from the session's log.
"""
from __future__ import annotations

from typing import TYPE_CHECKING

from shell import plural
from ui import Node, h

from conquest.games.reign import GAME
from conquest.games.reign.actions import Reveal
from conquest.games.reign.state import State

from .battle import side_sums, sum_line
from .symbols import coins

if TYPE_CHECKING:
    from . import ReignPage


class BattleReveal:
    """The last battle's reveal, as news or folded."""

    def __init__(self, page: ReignPage) -> None:
        self.page = page

    def last_index(self) -> int | None:
        """The log index of the battle reveal the state on screen reports, if any."""
        s = self.page.session()
        n = s.step()
        for i in range(n - 1, -1, -1):
            try:
                if isinstance(GAME.parse_action(s.match.log[i]), Reveal):
                    return i
            except Exception:  # noqa: S112 - a log entry that does not parse is not a reveal
                continue
        return None

    def is_news(self, k: int) -> bool:
        """Shown in full until a person at this device has acted since the battle."""
        s = self.page.session()
        seats = s.seats()
        for i in range(k + 1, s.step()):
            who = GAME.to_move(s.match.states[i])
            if who is not None and not seats[who].is_bot:
                return False
        return True

    def render(self, st: State) -> Node | None:
        page = self.page
        name = page.name
        rep = st.last
        k = self.last_index()
        if rep is None or k is None:
            return None
        s = page.session()
        before = s.match.states[k]
        action = GAME.parse_action(s.match.log[k])
        if not isinstance(action, Reveal) or before.battle is None:
            return None
        r = page.rules
        att, dfd = rep.attacker, rep.defender
        cols = []
        for seat in (att, dfd):
            part = action.parts[seat]
            counts = page.codec.counts(part)
            sums = side_sums(r, before, seat, part.card, counts)
            card = r.cards[r.card_index(part.card)]
            hired = sums["hired"]
            cas = rep.casualties[seat]
            soldiers = max(0, cas - hired)
            inflicted = rep.casualties[1 - seat]
            cols.append(h(
                "div",
                h("h3", f"{name(seat)} ({'attacker' if seat == att else 'defender'})", data_seat=str(seat)),
                h("p", f"Played {GAME.part_words(part)}; paid {coins(sums['cost'])}."),
                sum_line("sword", "Attack", sums["attack"], f"attack-{seat}"),
                sum_line("heart", "Defence", sums["defence"], f"defence-{seat}"),
                sum_line("bolt", "Damage", sums["damage"], f"damage-{seat}"),
                h("p", h("strong", f"Casualties {cas}", data_total=f"casualties-{seat}"),
                  f" = {name(1 - seat)}'s damage {rep.damage[1 - seat]} − defence {rep.defence[seat]}"
                  + (f" (at most the {hired + before.players[seat].military} troops there)" if cas
                     < max(0, rep.damage[1 - seat] - rep.defence[seat]) else "")
                  + (f": {min(cas, hired)} hired troops, then {soldiers} Military" if cas else "")),
                h("p", h("strong", f"Wealth earned {rep.earned[seat]}", data_total=f"earned-{seat}"),
                  f" = {inflicted} casualties inflicted × {card.coins.value} ({card.name})"),
                cls="rg-reveal-side", style=f"--seat:{page.colour(seat)}",
            ))
        margin = rep.attack[att] - rep.attack[dfd]
        where = r.territories[rep.territory].name
        if rep.won:
            why = (f"{name(att)} wins by {margin}, "
                   + (f"more than {name(dfd)}'s action level {rep.level}" if margin > rep.level
                      else f"not more than {name(dfd)}'s action level {rep.level}"))
        elif rep.casualties[dfd] >= r.casualties_for_step:
            why = (f"{name(dfd)} holds ({rep.attack[dfd]} to {rep.attack[att]}), but lost "
                   f"{rep.casualties[dfd]} troops ({r.casualties_for_step} or more)")
        else:
            why = f"{name(dfd)} holds ({rep.attack[dfd]} to {rep.attack[att]})"
        ladder = (f"{where}: {GAME.rung_words(before, rep.before)} → {GAME.rung_words(before, rep.after)}"
                  if rep.steps else f"{where} stays {GAME.rung_words(before, rep.after)}")
        played = "; ".join(f"{name(x)} played {r.cards[r.card_index(action.parts[x].card)].name} "
                           f"(attack {rep.attack[x]})" for x in (att, dfd))
        losses = (f"Casualties: {name(att)} {rep.casualties[att]}, {name(dfd)} {rep.casualties[dfd]}; "
                  f"Wealth earned: {name(att)} {rep.earned[att]}, {name(dfd)} {rep.earned[dfd]}.")
        body = [
            h("p", h("strong", why), f": {plural(rep.steps, 'step')} on the ladder (R8).", id="rg-reveal-result"),
            h("p", ladder, id="rg-reveal-ladder"),
            h("p", f"{played}. {losses}", id="rg-reveal-words", cls="rg-reveal-words"),
        ]
        counted = h("details", h("summary", "How it was counted"), h("div", *cols, cls="rg-reveal-cols"),
                    cls="rg-reveal-count", id="rg-reveal-count")
        if self.is_news(k):
            # kept in full until a person at this device acts (issue 41: the battle's result in
            # words, in view, above the next decision; the arithmetic one tap away)
            return h("section", h("h2", f"Battle over {where}"), *body, counted,
                     cls="rg-panel rg-reveal", id="rg-reveal", aria_label="Battle result")
        return h("details", h("summary", f"Last battle: over {where} (step {k + 1})"), *body,
                 h("div", *cols, cls="rg-reveal-cols"), cls="rg-panel rg-reveal is-old", id="rg-reveal")

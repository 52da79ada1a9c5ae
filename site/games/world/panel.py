"""World Conquest's panel under the map: what the person may do now, phase by phase (place,
attack with exact odds, move troops, defend), with what the last step did at its top.

Why a part: the panel is where a person acts; it draws the draft (:mod:`.draft`) with every
amount settable by taps alone (a stepper beside each number) and the exact chances of the
attack at hand, and says what the page waits for (``data-act``, ``data-step``) and what to
bring into view (``data-now``, issue 41). Its buttons call the draft's handlers.
"""
from __future__ import annotations

from collections.abc import Callable, Mapping
from fractions import Fraction
from typing import TYPE_CHECKING, Any

from shell import plural
from ui import Node, h, unmark

from conquest.games.world import GAME
from conquest.games.world import odds as world_odds
from conquest.games.world.rules import RULES

if TYPE_CHECKING:
    from . import WorldPage


def pct(p: float | Fraction) -> str:
    """A chance for people: one decimal, never "100%" or "0%" for something that may fail."""
    x = float(p) * 100
    if 0 < x < 0.1:
        return "<0.1%"
    if 99.9 < x < 100:
        return ">99.9%"
    return f"{x:.1f}%"





class Panel:
    """The panel's renderers, one per phase of a turn (no state of their own: the draft's)."""

    def __init__(self, page: WorldPage) -> None:
        self.page = page
        self.shell = page.shell
        self.draft = page.draft

    def render(self, view: Mapping[str, Any], state: Any) -> Node:
        """What the person may do now: place, attack (with odds), fortify, defend, end.

        ``data-act`` (the phase the person acts in, "wait" or "over") and ``data-step`` tell
        tests and scripts when the person must act."""
        s = self.shell.session
        assert s is not None
        out = view["outcome"]
        result = self.render_result(view)
        if out is not None:
            w = out["winners"][0] if out.get("winners") else None
            # the result first, then what the last step did: on a phone both on the first screen
            unmark(result)
            return h("div", h("p", f"{self.page.name(w)} holds the world and wins (W7).", cls="wc-win", id="wc-win",
                              data_now="result"), result,
                     id="wc-panel-inner", cls="wc-panel is-over", data_act="over", data_step=str(len(s.match.log)))
        seat = self.page.acting_person()
        if seat is None or s.viewing is not None:
            return h("div", result, h("p", str(view["phase_text"]), cls="muted"), id="wc-panel-inner", cls="wc-panel",
                     data_act="wait", data_step=str(len(s.match.log)))
        ph = state.phase
        # issue 41: what the last step did (the roll's dice) first, the step's controls right
        # under it, each marked for the shell to bring into view after a tap
        body: list[Node | None] = [result]
        if ph in ("claim", "setup"):
            body.append(h("p", f"{self.verb()} {'an empty territory' if ph == 'claim' else 'one of yours'} on the map "
                               f"or in the list. {state.reserve[seat]} of your start troops are left to place; "
                               "each seat places one at a time (W3).", id="wc-place-note", data_now="next"))
        elif ph == "reinforce":
            body.append(self.render_reinforce(view, state))
        elif ph == "attack":
            body.append(self.render_attack(state))
        elif ph == "defend":
            body.append(self.render_defend(state))
        return h("div", *body, id="wc-panel-inner", cls="wc-panel", data_act=ph, data_step=str(len(s.match.log)))

    def verb(self) -> str:
        """"Tap" on a touch screen, "Click" with a mouse (issue 41)."""
        return "Tap" if getattr(self.shell.host, "touch", False) else "Click"

    def render_result(self, view: Mapping[str, Any]) -> Node:
        """What the last action did, at the top of the panel where the person acts (issue 21,
        items 1 and 10): the shell's words, and the dice when a roll is among them."""
        box = unmark(self.shell.result.render())
        lines, _ = self.shell.result.lines()
        if "hidden" in box.attrs:
            return box
        if view["last_roll"] is None or not any(x["chance"] for x in lines):
            box.attrs["data-now"] = "result"
            return box
        return h("div", self.page.dice.render(view, "wc-here"), box, id="wc-result", cls="wc-result", data_now="result")

    def render_reinforce(self, view: Mapping[str, Any], state: Any) -> Node:
        if view["must_trade"]:
            return h("div", h("p", f"You hold {plural(state.hand_size(state.current), 'card')}: trade a set first (W5).",
                              cls="wc-must"), self.page.cards.trade_offer(view), data_now="next")
        pool = state.pool
        n = self.draft.place_count(state)
        return h(
            "div",
            h("p", f"{plural(pool, 'troop')} to place. {self.verb()} your territories on the map or pick them "
                   "in the list.", id="wc-pool"),
            self.page.cards.trade_offer(view),
            h("p",
              h("label", "Troops per pick ", for_="wc-place-n"),
              self.stepper(h("input", type="number", id="wc-place-n", min="1", max=str(pool), value=str(n), cls="wc-num",
                              on_change=lambda ev: self.draft.set_place(ev.value)), n, 1, pool, self.draft.set_place, "Troops per pick"),
              h("button", "All", type="button", cls="small secondary", id="wc-place-all",
                on_click=lambda ev: self.draft.set_place("0")),
              h("button", "One", type="button", cls="small secondary", id="wc-place-one",
                on_click=lambda ev: self.draft.set_place("1")),
              cls="wc-row"),
            data_now="next",
        )

    @staticmethod
    def stepper(field: Node, value: int, lo: int, hi: int, set_: Callable[[str], None], what: str) -> Node:
        """A number field with − and + beside it (ids ``<field>-less``/``-more``): on a phone
        every amount (troops per pick, to move in, to leave, to fortify) is set by taps alone,
        no keyboard (issue 21)."""
        fid = str(field.attrs.get("id", ""))
        return h(
            "span",
            h("button", "−", type="button", cls="small secondary wc-step", id=f"{fid}-less",
              aria_label=f"{what}: one fewer", disabled=value <= lo, on_click=lambda ev: set_(str(value - 1))),
            field,
            h("button", "+", type="button", cls="small secondary wc-step", id=f"{fid}-more",
              aria_label=f"{what}: one more", disabled=value >= hi, on_click=lambda ev: set_(str(value + 1))),
            cls="wc-stepper",
        )

    def render_attack(self, state: Any) -> Node:
        """The source with Cancel and End the turn in one row at the top (issue 41: End the
        turn was under the battle and the targets, 1,171 px down a phone's sheet), then the
        battle, the move or the targets."""
        end = h("button", "End the turn", type="button", id="wc-end", cls="secondary",
                on_click=lambda ev: self.draft.end_turn())
        if self.draft.src is None:
            return h("div", h("p", f"{self.verb()} one of your territories with 2 or more troops to attack or move "
                                   "from.", cls="muted"),
                     h("p", end, cls="wc-row"), id="wc-attack-start", data_now="next")
        src = self.draft.src
        head = h("p", h("strong", RULES.names[src]), f": {plural(state.troops[src], 'troop')}. ",
                 h("button", "Cancel", type="button", cls="small secondary", id="wc-cancel",
                   on_click=lambda ev: self.draft.cancel()),
                 end, cls="wc-row wc-attack-head", id="wc-attack-head")
        kids: list[Node | None] = [head]
        if self.draft.dst is None:
            head.attrs["data-now"] = "next"
            kids.append(self.render_targets(state))
        elif state.owner[self.draft.dst] == state.current:
            kids.append(self.render_fortify(state))
        else:
            kids.append(self.render_battle(state))
            kids.append(self.render_targets(state))
        return h("div", *kids)

    def render_targets(self, state: Any) -> Node:
        """Every attack from the source with its exact chance of taking the territory
        (attacking until done), and the moves to own neighbours."""
        assert self.draft.src is not None
        src = self.draft.src
        rows = []
        for d in self.draft.enemy_targets(state, src):
            bo = world_odds.battle_odds(state.troops[src], state.troops[d], 1)
            rows.append(h(
                "li",
                h("button", f"Attack {RULES.names[d]}", type="button", cls="small", data_index=str(d),
                  aria_pressed="true" if d == self.draft.dst else "false", on_click=lambda ev, x=d: self.draft.pick(x)),
                h("span", f" {self.page.name(state.owner[d])}, {plural(state.troops[d], 'troop')}: ", cls="wc-who"),
                h("strong", pct(bo.win), cls="wc-odds", data_odds=str(d)),
                h("span", " to take it attacking until done", cls="muted"),
                cls="is-picked" if d == self.draft.dst else None,
            ))
        for d in self.draft.own_targets(state, src):
            rows.append(h(
                "li",
                h("button", f"Move to {RULES.names[d]}", type="button", cls="small secondary", data_index=str(d),
                  on_click=lambda ev, x=d: self.draft.pick(x)),
                h("span", f" yours, {plural(state.troops[d], 'troop')}", cls="muted"),
            ))
        if not rows:
            return h("p", "No neighbour to attack or move to.", cls="muted")
        return h("ul", *rows, id="wc-targets", cls="wc-targets", aria_label="Attacks and moves from here")

    def render_battle(self, state: Any) -> Node:
        """One roll (dice and the troops stated to move in, with this roll's odds), attack
        until done, and attack until N left, each with its exact chance."""
        assert self.draft.src is not None and self.draft.dst is not None
        src, dst = self.draft.src, self.draft.dst
        a, d = state.troops[src], state.troops[dst]
        dice, most = self.draft.attack_dice(state)
        move = self.draft.attack_move(state, dice)
        ddice = min(RULES.defend_max, d)
        dice_buttons = [
            h("button", h("span", "✓ ", cls="wc-pressed-mark", aria_hidden="true") if k == dice else None, str(k),
              type="button", cls="small" + (" is-pressed" if k == dice else " secondary"),
              id=f"wc-dice-{k}", aria_pressed="true" if k == dice else "false",
              on_click=lambda ev, x=k: self.draft.set_dice(x))
            for k in range(1, most + 1)
        ]
        one = world_odds.roll_odds(dice, ddice)
        lines = []
        for (al, dl), p in sorted(one.items(), key=lambda kv: (kv[0][0], -kv[0][1])):
            parts = []
            if dl:
                parts.append(f"defender loses {dl}")
            if al:
                parts.append(f"you lose {al}")
            lines.append(h("li", f"{', '.join(parts)}: ", h("strong", pct(p))))
        who_defends = (f"the defender chooses 1 or {ddice} dice" if state.defender_choice and ddice > 1
                       else f"against {ddice} {'die' if ddice == 1 else 'dice'}")
        until = max(1, min(self.draft.until, a - 1))
        full = world_odds.battle_odds(a, d, 1)
        part = world_odds.battle_odds(a, d, until)
        return h(
            "div",
            h("div",
              h("h3", f"Attack {RULES.names[dst]} ({self.page.name(state.owner[dst])}, {plural(d, 'troop')})"),
              h("p", h("button", "Attack until done", type="button", id="wc-blitz",
                       on_click=lambda ev: self.draft.blitz(1)),
                " take it: ", h("strong", pct(full.win), id="wc-blitz-odds"), cls="wc-row"),
              # on a phone the troops to move in are said by their stepper just below, not here
              # too: the roll's line stays one line (issue 41, world.css)
              h("p", h("button", f"Roll {dice} {'die' if dice == 1 else 'dice'}", type="button", id="wc-roll",
                       on_click=lambda ev: self.draft.roll()),
                h("span", f" {who_defends}", h("span", f"; {move} would move in (W6)", cls="wc-roll-move"), "."),
                cls="wc-row"),
              id="wc-battle-go", cls="wc-battle-go", data_now="next"),
            h("div",
              h("span", "Dice ", cls="wc-lab"), *dice_buttons,
              h("label", " Move in", h("span", " on a win", cls="wc-wide"), " ", for_="wc-move"),
              self.stepper(h("input", type="number", id="wc-move", min=str(dice), max=str(a - 1), value=str(move),
                              cls="wc-num", on_change=lambda ev: self.draft.set_move(ev.value)),
                            move, dice, a - 1, self.draft.set_move, "Troops to move in"),
              cls="wc-row"),
            h("ul", *lines, cls="wc-rollodds", id="wc-rollodds", aria_label="Odds of this roll"),
            h("p", f"On average you lose {float(full.expected_attacker_losses):.1f} and they lose "
                   f"{float(full.expected_defender_losses):.1f}.", cls="muted"),
            h("p",
              h("button", "Attack until", type="button", id="wc-until-go", cls="secondary",
                on_click=lambda ev: self.draft.blitz(until)),
              self.stepper(h("input", type="number", id="wc-until", aria_label="Troops to leave behind", min="1",
                              max=str(max(1, a - 1)), value=str(until), cls="wc-num",
                              on_change=lambda ev: self.draft.set_until(ev.value)),
                            until, 1, max(1, a - 1), self.draft.set_until, "Troops to leave behind"),
              " left: ", h("strong", pct(part.win), id="wc-until-odds"),
              cls="wc-row"),
            h("p", "All but the troops left move in on a win.", cls="muted small"),
            cls="wc-battle", id="wc-battle",
        )

    def render_fortify(self, state: Any) -> Node:
        assert self.draft.src is not None and self.draft.dst is not None
        n = self.draft.fortify_count(state)
        top = state.troops[self.draft.src] - 1
        return h(
            "div",
            h("h3", f"Move troops to {RULES.names[self.draft.dst]}"),
            h("p",
              h("label", "Troops ", for_="wc-amount"),
              self.stepper(h("input", type="number", id="wc-amount", min="1", max=str(top), value=str(n), cls="wc-num",
                              on_change=lambda ev: self.draft.set_amount(ev.value)), n, 1, top, self.draft.set_amount, "Troops to move"),
              h("button", f"Move {n} and end the turn", type="button", id="wc-fortify",
                on_click=lambda ev: self.draft.fortify()),
              cls="wc-row"),
            h("p", "One move a turn, between neighbours, leaving at least 1 behind (W8).", cls="muted"),
            cls="wc-fortify-box", id="wc-fortify-box", data_now="next",
        )

    def render_defend(self, state: Any) -> Node:
        b = state.battle
        dice = GAME.attack_dice(state)
        rows = []
        for k in range(1, min(RULES.defend_max, state.troops[b.dst]) + 1):
            lose = sum((p for (al, dl), p in world_odds.roll_odds(dice, k).items() if dl == 0), Fraction(0))
            rows.append(h("p",
                          h("button", f"Defend with {k} {'die' if k == 1 else 'dice'}", type="button",
                            id=f"wc-defend-{k}", on_click=lambda ev, x=k: self.draft.defend(x)),
                          f" you lose nothing: {pct(lose)}", cls="wc-row"))
        return h("div",
                 h("h3", f"{self.page.name(state.current)} attacks {RULES.names[b.dst]} from {RULES.names[b.src]} "
                         f"with {dice} {'die' if dice == 1 else 'dice'}"),
                 *rows, id="wc-defend", data_now="next")

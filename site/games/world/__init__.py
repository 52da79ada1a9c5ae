"""The World Conquest play page: the world map, troops, dice, cards and exact odds.

Why this is all that is here: the shell (``shell.py``) gives the page its set-up seats,
links, saves, log, undo, "viewing step N", chart, bot runner and pass-the-device screens;
every rule and number comes from :mod:`conquest.games.world` (``GAME.view``,
``GAME.legal_actions``, :mod:`conquest.games.world.odds`). The map is in the HTML from the
build; here it is only recoloured (:meth:`WorldPage.paint`) and given a layer of troop
counts, outlines and odds (``#wc-marks``). Picks on the map (or the Choose list under it,
for keyboards and small screens) build the engine's action values step by step: a source,
then a target, then dice and the troops to move in, then the roll.

Every name comes from a link or the set-up form and reaches the page as text only (``ui``
trees never hold markup).
"""
from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from fractions import Fraction
from typing import Any

from shell import GamePage, Seat, Shell, plural
from ui import Event, Node, h, svg

from conquest.games.world import GAME
from conquest.games.world import odds as world_odds
from conquest.games.world.actions import Attack, Blitz, Defend, EndTurn, Fortify, Place, Trade
from conquest.games.world.rules import CARD_KINDS, CARD_NAMES, RULES
from conquest.maps import load_map

#: the map drawn by the template (build time)
MAP_ID = "world42"
SET_WORDS = {"iii": "three infantry", "ccc": "three cavalry", "aaa": "three artillery", "ica": "one of each kind"}
CONTINENT_NAMES = {c.id: c.name for c in RULES.continents}
#: a card's picture: a letter big enough to read at 360 px, with the kind's name beside it
CARD_MARK = {"i": "I", "c": "C", "a": "A"}
#: pip positions of a die face on a 0..1 square
PIPS = {
    1: ((0.5, 0.5),),
    2: ((0.27, 0.27), (0.73, 0.73)),
    3: ((0.27, 0.27), (0.5, 0.5), (0.73, 0.73)),
    4: ((0.27, 0.27), (0.73, 0.27), (0.27, 0.73), (0.73, 0.73)),
    5: ((0.27, 0.27), (0.73, 0.27), (0.5, 0.5), (0.27, 0.73), (0.73, 0.73)),
    6: ((0.27, 0.25), (0.73, 0.25), (0.27, 0.5), (0.73, 0.5), (0.27, 0.75), (0.73, 0.75)),
}


def pct(p: float | Fraction) -> str:
    """A chance for people: one decimal, never "100%" or "0%" for something that may fail."""
    x = float(p) * 100
    if 0 < x < 0.1:
        return "<0.1%"
    if 99.9 < x < 100:
        return ">99.9%"
    return f"{x:.1f}%"


def ink_on(colour: str) -> str:
    """Black or white text, whichever reads better on ``colour`` (a #rrggbb)."""
    try:
        r, g, b = (int(colour[i : i + 2], 16) for i in (1, 3, 5))
    except ValueError:
        return "#111"
    return "#111" if 0.299 * r + 0.587 * g + 0.114 * b > 140 else "#fff"


#: a map odds label's half width and half height (10 px text, "87.7%"), and a badge's radius
ODDS_HALF = (15.0, 6.0)
BADGE_R = 9.0
#: where an odds label may go around its territory's badge: below, right, left, further below, above
ODDS_SPOTS = ((0.0, 16.0), (26.0, 0.0), (-26.0, 0.0), (0.0, 28.0), (0.0, -16.0))


def odds_spot(x: float, y: float, badges: Sequence[tuple[float, float]]) -> tuple[float, float]:
    """A spot for an odds label beside the badge at (``x``, ``y``) that covers no troop badge
    (issue 41: "87.7%" was drawn over a neighbour's badge); below it if none is free."""
    hw, hh = ODDS_HALF
    for dx, dy in ODDS_SPOTS:
        cx, cy = x + dx, y + dy
        if all(abs(bx - cx) > hw + BADGE_R or abs(by - cy) > hh + BADGE_R for bx, by in badges):
            return cx, cy
    return x, y + ODDS_SPOTS[0][1]


def unmark(node: Node) -> Node:
    """``node`` with no ``data-now`` mark in it (issue 41: the page marks the newest result
    once; the shell's box it wraps may carry its own)."""
    node.attrs.pop("data-now", None)
    for c in node.children:
        if not isinstance(c, str):
            unmark(c)
    return node


def parse_int(raw: Any, default: int) -> int:
    try:
        return int(str(raw).strip())
    except ValueError:
        return default


class WorldPage(GamePage):
    """The page's own state (one object) and renderers."""

    game_id = "world"
    focus_home = "wc-panel-inner"  # the controls, after a step (issue 21, item 2)
    chart_x_label = "turns"

    def __init__(self, shell: Shell) -> None:
        super().__init__(shell)
        #: the half-made action: a source, a target, and the amounts chosen for it
        self.src: int | None = None
        self.dst: int | None = None
        self.dice = 0  # 0: the most allowed
        self.move = 0  # 0: as many as the dice
        self.until = 2
        self.amount = 0  # fortify: 0 = all but one
        self.place_n = 0  # reinforcements per pick: 0 = all that are left
        self.labels: dict[int, tuple[float, float]] = {}
        self.paths: dict[int, str] = {}
        self.reduced_motion = False
        self._colours: tuple[Any, list[str]] = (None, [])
        #: the patches last sent to the build-time map, by element id
        self._painted: dict[str, dict[str, Any]] = {}

    # -- set-up -----------------------------------------------------------------------------
    def options(self, seats: list[Seat], fields: Mapping[str, str]) -> dict[str, Any]:
        """Seats (so a link reopens the same table), the seat order (W2), the random deal
        (W3) and the defender's dice choice (W6), as the engine's options."""
        out: dict[str, Any] = {"seats": [s.to_json() for s in seats]}
        out["order"] = "fixed" if fields.get("order") == "fixed" else "random"
        out["deal"] = "deal" in fields
        out["defender_choice"] = "defender-choice" in fields
        return out

    # -- reading the game -------------------------------------------------------------------
    def reset(self) -> None:
        """After every step, undo or jump: keep a half-made attack only while it still fits
        (the same attack may go on after a roll), and after a conquest go on from the
        conquered territory when it can attack."""
        s = self.shell.session
        if s is None:
            self.src = self.dst = None
            return
        state = s.match.state
        me = state.current
        if state.phase != "attack" or self.src is None or state.owner[self.src] != me:
            self.src = self.dst = None
            self.dice = self.move = self.amount = 0
            return
        if self.dst is not None and state.owner[self.dst] == me and state.troops[self.src] >= 1:
            won = self.dst
            self.dst = None
            self.dice = self.move = 0
            self.src = won if won in self.sources(state) and self.enemy_targets(state, won) else None
            return
        if state.troops[self.src] < 2:
            self.src = self.dst = None
            return
        if self.dst is not None and self.dst not in RULES.adjset[self.src]:
            self.dst = None

    def opened(self) -> None:
        self.src = self.dst = None
        self.place_n = 0

    def name(self, seat: int | None) -> str:
        return self.shell.session.seat_name(seat) if self.shell.session else "—"

    def colour(self, seat: int) -> str:
        """A seat's colour; the seats are read once per render (``Session.seats`` parses
        the options each time, and the map asks for 42 colours)."""
        s = self.shell.session
        if s is None:
            return "#999999"
        if self._colours[0] is not s.match.options:
            self._colours = (s.match.options, [x.colour for x in s.seats()])
        colours = self._colours[1]
        return colours[seat] if 0 <= seat < len(colours) else "#999999"

    def acting_person(self) -> int | None:
        """The seat a person at this device must play now, or None (bots, locked, over)."""
        s = self.shell.session
        if s is None or s.locked():
            return None
        seat = s.acting_seat()
        if seat is None or s.seats()[seat].is_bot or s.needs_handover() is not None:
            return None
        return seat

    @staticmethod
    def sources(state: Any) -> list[int]:
        """Own territories with 2 or more troops and a neighbour: where an attack or a move starts."""
        me = state.current
        return [t for t in range(RULES.size) if state.owner[t] == me and state.troops[t] >= 2]

    @staticmethod
    def enemy_targets(state: Any, src: int) -> list[int]:
        me = state.owner[src]
        return [d for d in RULES.adj[src] if state.owner[d] != me]

    @staticmethod
    def own_targets(state: Any, src: int) -> list[int]:
        me = state.owner[src]
        return [d for d in RULES.adj[src] if state.owner[d] == me]

    def choices(self, state: Any) -> list[int]:
        """Territories lit up for the person to pick now (none for bots or a locked copy)."""
        if self.acting_person() is None:
            return []
        ph, me = state.phase, state.current
        if ph == "claim":
            return [t for t in range(RULES.size) if state.owner[t] < 0]
        if ph in ("setup", "reinforce"):
            if ph == "reinforce" and state.hand_size(me) >= RULES.must_trade_at:
                return []
            return state.territories_of(me)
        if ph == "attack":
            if self.src is None:
                return [t for t in self.sources(state) if RULES.adj[t]]
            return sorted(self.enemy_targets(state, self.src) + self.own_targets(state, self.src))
        return []

    # -- picks: the map, the Choose list ------------------------------------------------------
    def pick(self, index: int) -> None:
        """A territory was picked on the map (click, tap, Enter) or in the Choose list."""
        s = self.shell.session
        if s is None or not 0 <= index < RULES.size:
            return
        state = s.shown_state()
        name = RULES.names[index]
        owner = state.owner[index]
        about = f"{name}: " + ("empty" if owner < 0 else f"{self.name(owner)}, {plural(state.troops[index], 'troop')}")
        seat = self.acting_person()
        if seat is None:
            why = " This copy is read-only." if s.locked() else " It is not your move."
            self.shell.say(about + "." + why)
            return
        ph = state.phase
        if ph in ("claim", "setup"):
            if index in self.choices(state):
                self.shell.play(Place(index))
            else:
                need = "an empty territory" if ph == "claim" else "one of your territories"
                self.shell.say(f"{about}. Pick {need}.")
            return
        if ph == "reinforce":
            if state.hand_size(state.current) >= RULES.must_trade_at:
                self.shell.say(f"You hold {state.hand_size(state.current)} cards: trade a set first (W5).", "error")
                return
            if owner != state.current:
                self.shell.say(f"{about}. Place reinforcements on your own territories.")
                return
            self.shell.play(Place(index, self.place_count(state)))
            return
        if ph == "attack":
            self.pick_attack(state, index, about)
            return
        self.shell.say(about + ".")

    def pick_attack(self, state: Any, index: int, about: str) -> None:
        me = state.current
        if self.src is not None and index == self.src:
            self.src = self.dst = None
            return
        if self.src is not None and index in RULES.adjset[self.src]:
            self.dst = index
            self.dice = self.move = self.amount = 0
            return
        if state.owner[index] == me and state.troops[index] >= 2:
            self.src, self.dst = index, None
            self.dice = self.move = self.amount = 0
            return
        if state.owner[index] == me:
            self.shell.say(f"{about}: an attack or a move needs at least 2 troops there (W6, W8).")
        elif self.src is None:
            self.shell.say(f"{about}. First pick your territory to attack from.")
        else:
            self.shell.say(f"{about}: it does not border {RULES.names[self.src]}.")

    def chose(self, value: str) -> None:
        """A territory from the Choose list (OK): the focus goes back to the list, where the
        next pick of the step is made (issue 21, item 2: from OK, Tab walked the whole page
        round to reach it again); when the list empties, to the panel (``focus_home``)."""
        if value.isdigit():
            self.pick(int(value))
            self.shell.host.focus("wc-choose-t")

    def on_key(self, ev: Event) -> bool:
        """Escape drops the half-made attack or move."""
        if ev.key == "Escape" and (self.src is not None or self.dst is not None):
            self.src = self.dst = None
            return True
        return False

    # -- amounts -----------------------------------------------------------------------------
    def place_count(self, state: Any) -> int:
        pool = state.pool
        return pool if self.place_n <= 0 else max(1, min(self.place_n, pool))

    def set_place(self, raw: str) -> None:
        self.place_n = max(0, parse_int(raw, 0))

    def attack_dice(self, state: Any) -> tuple[int, int]:
        """(dice, most dice) for the attack from ``src``: W6 at most 3 and troops - 1."""
        assert self.src is not None
        most = min(RULES.attack_max, state.troops[self.src] - 1)
        dice = most if self.dice <= 0 else max(1, min(self.dice, most))
        return dice, most

    def attack_move(self, state: Any, dice: int) -> int:
        """The troops stated to move in: at least the dice, at most troops - 1 (W6)."""
        assert self.src is not None
        top = state.troops[self.src] - 1
        return dice if self.move <= 0 else max(dice, min(self.move, top))

    def fortify_count(self, state: Any) -> int:
        assert self.src is not None
        top = state.troops[self.src] - 1
        return top if self.amount <= 0 else max(1, min(self.amount, top))

    def set_dice(self, k: int) -> None:
        self.dice = k

    def set_move(self, raw: str) -> None:
        self.move = max(0, parse_int(raw, 0))

    def set_until(self, raw: str) -> None:
        self.until = max(1, parse_int(raw, 2))

    def set_amount(self, raw: str) -> None:
        self.amount = max(0, parse_int(raw, 0))

    # -- playing -----------------------------------------------------------------------------
    def roll(self) -> None:
        s = self.shell.session
        if s is None or self.src is None or self.dst is None:
            return
        state = s.match.state
        dice, _ = self.attack_dice(state)
        self.shell.play(Attack(self.src, self.dst, dice, self.attack_move(state, dice)))

    def blitz(self, until: int = 1) -> None:
        s = self.shell.session
        if s is None or self.src is None or self.dst is None:
            return
        top = s.match.state.troops[self.src] - 1
        self.shell.play(Blitz(self.src, self.dst, max(1, min(until, top))))

    def fortify(self) -> None:
        s = self.shell.session
        if s is None or self.src is None or self.dst is None:
            return
        self.shell.play(Fortify(self.src, self.dst, self.fortify_count(s.match.state)))

    def end_turn(self) -> None:
        self.shell.play(EndTurn())

    def trade(self, cards: str) -> None:
        self.shell.play(Trade(cards))

    def defend(self, dice: int) -> None:
        self.shell.play(Defend(dice))

    def cancel(self) -> None:
        self.src = self.dst = None

    # -- the shell's hooks ---------------------------------------------------------------------
    def log_label(self, before: Any) -> str:
        return f"Turn {before.turn}" if before.turn else "Set-up"

    def chart_points(self, states: Sequence[Any]) -> list[tuple[int, int]]:
        """The start of every turn (x: the turn), and the state now."""
        pts: list[tuple[int, int]] = []
        for i, st in enumerate(states):
            if i == 0 or st.turn != states[i - 1].turn:
                pts.append((st.turn, i))
        if states:
            last = len(states) - 1
            if pts and pts[-1][0] == states[last].turn:
                pts[-1] = (states[last].turn, last)
            else:
                pts.append((states[last].turn, last))
        return pts

    def prompt(self, view: Mapping[str, Any]) -> str:
        """One line: the phase and what to do next."""
        s = self.shell.session
        assert s is not None
        if view["outcome"] is not None:
            return str(view["phase_text"])
        seat = self.acting_person()
        if seat is None or s.viewing is not None:
            return str(view["phase_text"])
        state = s.match.state
        who = self.name(seat)
        ph = state.phase
        # short: the phone's status bar shows two lines at 360 px (issue 41: "…or one of
        # yours to mo…" was cut at its third line); the panel under the map says the rest
        if ph == "claim":
            return f"{who}: claim an empty territory (W3), {state.reserve[seat]} troops left."
        if ph == "setup":
            return f"{who}: place a troop on one of yours (W3), {state.reserve[seat]} left."
        if ph == "reinforce":
            if view["must_trade"]:
                return f"{who}: trade a set of cards first (W5)."
            return f"{who}: place {plural(state.pool, 'troop')} on yours (W4)."
        if ph == "attack":
            if self.src is None:
                return f"{who}: pick your territory to attack from, or end the turn (W6)."
            if self.dst is None:
                return f"{who}: pick a neighbour of {RULES.names[self.src]} to attack or move to."
            if state.owner[self.dst] == seat:
                return f"{who}: move troops to {RULES.names[self.dst]}; it ends the turn (W8)."
            return f"{who}: attack {RULES.names[self.dst]}: roll, or attack until done (W6)."
        if ph == "defend":
            return f"{who}: choose your dice to defend {RULES.names[state.battle.dst]} (W6)."
        return str(view["phase_text"])

    # -- rendering ------------------------------------------------------------------------------
    def render(self, view: Mapping[str, Any]) -> dict[str, Node]:
        s = self.shell.session
        assert s is not None
        state = s.shown_state()
        return {
            "wc-marks": self.render_marks(view, state),
            "wc-panel": self.render_panel(view, state),
            "wc-choose": self.render_choose(state),
            "wc-dice": self.render_dice(view),
            "wc-cards": self.render_cards(view),
            "wc-seats": self.render_seats(view),
        }

    def render_panel(self, view: Mapping[str, Any], state: Any) -> Node:
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
            return h("div", h("p", f"{self.name(w)} holds the world and wins (W7).", cls="wc-win", id="wc-win",
                              data_now="result"), result,
                     id="wc-panel-inner", cls="wc-panel is-over", data_act="over", data_step=str(len(s.match.log)))
        seat = self.acting_person()
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
        return h("div", self.render_dice(view, "wc-here"), box, id="wc-result", cls="wc-result", data_now="result")

    def trade_offer(self, view: Mapping[str, Any]) -> Node | None:
        """The sets the person may trade now, offered in the placing panel itself (item 1): the
        cards box further down is not where someone placing troops looks."""
        s = self.shell.session
        assert s is not None
        if s.viewing is not None or self.acting_person() != view["viewer"] and view["viewer"] is not None:
            return None
        can = [str(a)[1:] for a in GAME.legal_actions(s.match.state) if isinstance(a, Trade)]
        if not can:
            return None
        value = view["next_trade_value"]
        return h(
            "div",
            h("p", f"You may trade a set of cards for {plural(value, 'more troop')} now (W5):", id="wc-trade-note"),
            h("div", *[h("button", f"Trade {SET_WORDS[st]} for {value}", type="button", id=f"wc-panel-trade-{st}",
                         cls="secondary", on_click=lambda ev, x=st: self.trade(x)) for st in can],
              cls="wc-trades"),
            cls="wc-trade-offer",
        )

    def render_reinforce(self, view: Mapping[str, Any], state: Any) -> Node:
        if view["must_trade"]:
            return h("div", h("p", f"You hold {plural(state.hand_size(state.current), 'card')}: trade a set first (W5).",
                              cls="wc-must"), self.trade_offer(view), data_now="next")
        pool = state.pool
        n = self.place_count(state)
        return h(
            "div",
            h("p", f"{plural(pool, 'troop')} to place. {self.verb()} your territories on the map or pick them "
                   "in the list.", id="wc-pool"),
            self.trade_offer(view),
            h("p",
              h("label", "Troops per pick ", for_="wc-place-n"),
              self.stepper(h("input", type="number", id="wc-place-n", min="1", max=str(pool), value=str(n), cls="wc-num",
                              on_change=lambda ev: self.set_place(ev.value)), n, 1, pool, self.set_place, "Troops per pick"),
              h("button", "All", type="button", cls="small secondary", id="wc-place-all",
                on_click=lambda ev: self.set_place("0")),
              h("button", "One", type="button", cls="small secondary", id="wc-place-one",
                on_click=lambda ev: self.set_place("1")),
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
                on_click=lambda ev: self.end_turn())
        if self.src is None:
            return h("div", h("p", f"{self.verb()} one of your territories with 2 or more troops to attack or move "
                                   "from.", cls="muted"),
                     h("p", end, cls="wc-row"), id="wc-attack-start", data_now="next")
        src = self.src
        head = h("p", h("strong", RULES.names[src]), f": {plural(state.troops[src], 'troop')}. ",
                 h("button", "Cancel", type="button", cls="small secondary", id="wc-cancel",
                   on_click=lambda ev: self.cancel()),
                 end, cls="wc-row wc-attack-head", id="wc-attack-head")
        kids: list[Node | None] = [head]
        if self.dst is None:
            head.attrs["data-now"] = "next"
            kids.append(self.render_targets(state))
        elif state.owner[self.dst] == state.current:
            kids.append(self.render_fortify(state))
        else:
            kids.append(self.render_battle(state))
            kids.append(self.render_targets(state))
        return h("div", *kids)

    def render_targets(self, state: Any) -> Node:
        """Every attack from the source with its exact chance of taking the territory
        (attacking until done), and the moves to own neighbours."""
        assert self.src is not None
        src = self.src
        rows = []
        for d in self.enemy_targets(state, src):
            bo = world_odds.battle_odds(state.troops[src], state.troops[d], 1)
            rows.append(h(
                "li",
                h("button", f"Attack {RULES.names[d]}", type="button", cls="small", data_index=str(d),
                  aria_pressed="true" if d == self.dst else "false", on_click=lambda ev, x=d: self.pick(x)),
                h("span", f" {self.name(state.owner[d])}, {plural(state.troops[d], 'troop')}: ", cls="wc-who"),
                h("strong", pct(bo.win), cls="wc-odds", data_odds=str(d)),
                h("span", " to take it attacking until done", cls="muted"),
                cls="is-picked" if d == self.dst else None,
            ))
        for d in self.own_targets(state, src):
            rows.append(h(
                "li",
                h("button", f"Move to {RULES.names[d]}", type="button", cls="small secondary", data_index=str(d),
                  on_click=lambda ev, x=d: self.pick(x)),
                h("span", f" yours, {plural(state.troops[d], 'troop')}", cls="muted"),
            ))
        if not rows:
            return h("p", "No neighbour to attack or move to.", cls="muted")
        return h("ul", *rows, id="wc-targets", cls="wc-targets", aria_label="Attacks and moves from here")

    def render_battle(self, state: Any) -> Node:
        """One roll (dice and the troops stated to move in, with this roll's odds), attack
        until done, and attack until N left, each with its exact chance."""
        assert self.src is not None and self.dst is not None
        src, dst = self.src, self.dst
        a, d = state.troops[src], state.troops[dst]
        dice, most = self.attack_dice(state)
        move = self.attack_move(state, dice)
        ddice = min(RULES.defend_max, d)
        dice_buttons = [
            h("button", h("span", "✓ ", cls="wc-pressed-mark", aria_hidden="true") if k == dice else None, str(k),
              type="button", cls="small" + (" is-pressed" if k == dice else " secondary"),
              id=f"wc-dice-{k}", aria_pressed="true" if k == dice else "false",
              on_click=lambda ev, x=k: self.set_dice(x))
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
        until = max(1, min(self.until, a - 1))
        full = world_odds.battle_odds(a, d, 1)
        part = world_odds.battle_odds(a, d, until)
        return h(
            "div",
            h("div",
              h("h3", f"Attack {RULES.names[dst]} ({self.name(state.owner[dst])}, {plural(d, 'troop')})"),
              h("p", h("button", "Attack until done", type="button", id="wc-blitz",
                       on_click=lambda ev: self.blitz(1)),
                " take it: ", h("strong", pct(full.win), id="wc-blitz-odds"), cls="wc-row"),
              # on a phone the troops to move in are said by their stepper just below, not here
              # too: the roll's line stays one line (issue 41, world.css)
              h("p", h("button", f"Roll {dice} {'die' if dice == 1 else 'dice'}", type="button", id="wc-roll",
                       on_click=lambda ev: self.roll()),
                h("span", f" {who_defends}", h("span", f"; {move} would move in (W6)", cls="wc-roll-move"), "."),
                cls="wc-row"),
              id="wc-battle-go", cls="wc-battle-go", data_now="next"),
            h("div",
              h("span", "Dice ", cls="wc-lab"), *dice_buttons,
              h("label", " Move in", h("span", " on a win", cls="wc-wide"), " ", for_="wc-move"),
              self.stepper(h("input", type="number", id="wc-move", min=str(dice), max=str(a - 1), value=str(move),
                              cls="wc-num", on_change=lambda ev: self.set_move(ev.value)),
                            move, dice, a - 1, self.set_move, "Troops to move in"),
              cls="wc-row"),
            h("ul", *lines, cls="wc-rollodds", id="wc-rollodds", aria_label="Odds of this roll"),
            h("p", f"On average you lose {float(full.expected_attacker_losses):.1f} and they lose "
                   f"{float(full.expected_defender_losses):.1f}.", cls="muted"),
            h("p",
              h("button", "Attack until", type="button", id="wc-until-go", cls="secondary",
                on_click=lambda ev: self.blitz(until)),
              self.stepper(h("input", type="number", id="wc-until", aria_label="Troops to leave behind", min="1",
                              max=str(max(1, a - 1)), value=str(until), cls="wc-num",
                              on_change=lambda ev: self.set_until(ev.value)),
                            until, 1, max(1, a - 1), self.set_until, "Troops to leave behind"),
              " left: ", h("strong", pct(part.win), id="wc-until-odds"),
              cls="wc-row"),
            h("p", "All but the troops left move in on a win.", cls="muted small"),
            cls="wc-battle", id="wc-battle",
        )

    def render_fortify(self, state: Any) -> Node:
        assert self.src is not None and self.dst is not None
        n = self.fortify_count(state)
        top = state.troops[self.src] - 1
        return h(
            "div",
            h("h3", f"Move troops to {RULES.names[self.dst]}"),
            h("p",
              h("label", "Troops ", for_="wc-amount"),
              self.stepper(h("input", type="number", id="wc-amount", min="1", max=str(top), value=str(n), cls="wc-num",
                              on_change=lambda ev: self.set_amount(ev.value)), n, 1, top, self.set_amount, "Troops to move"),
              h("button", f"Move {n} and end the turn", type="button", id="wc-fortify",
                on_click=lambda ev: self.fortify()),
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
                            id=f"wc-defend-{k}", on_click=lambda ev, x=k: self.defend(x)),
                          f" you lose nothing: {pct(lose)}", cls="wc-row"))
        return h("div",
                 h("h3", f"{self.name(state.current)} attacks {RULES.names[b.dst]} from {RULES.names[b.src]} "
                         f"with {dice} {'die' if dice == 1 else 'dice'}"),
                 *rows, id="wc-defend", data_now="next")

    def render_choose(self, state: Any) -> Node:
        """The map's choices as a list too: for the keyboard, screen readers and small screens."""
        choices = self.choices(state)
        if not choices:
            return h("form", id="wc-choose-form", cls="wc-choose", hidden=True)
        opts = []
        for t in choices:
            owner = state.owner[t]
            who = "empty" if owner < 0 else ("yours" if owner == state.current else self.name(owner))
            opts.append((RULES.names[t], t, f"{RULES.names[t]} ({who}, {state.troops[t]})"))
        opts.sort()
        # the list follows the current choice (issue 41: it kept "Afghanistan" from an earlier
        # step while the map was on Alaska): the target picked, else the list's first; a
        # territory zoomed in on or focused on the map is set by mapboard.js (data-map)
        now = self.dst if self.dst in choices else opts[0][1]
        return h(
            "form",
            h("label", "Choose", for_="wc-choose-t"),
            h("select", *[h("option", label, value=str(t)) for _, t, label in opts], id="wc-choose-t", name="t",
              value=str(now), data_map="wc-map"),
            h("button", "OK", type="submit", cls="small", id="wc-choose-go"),
            id="wc-choose-form", cls="wc-choose",
            on_submit=lambda ev: self.chose(ev.fields.get("t", "")),
        )

    def render_dice(self, view: Mapping[str, Any], at: str = "wc-dice") -> Node:
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
            h("p", f"{'; '.join(words)}." + (f" {self.name(owner_dst)} now holds {RULES.names[lr['dst']]}."
                                              if owner_dst == owner_src else ""), cls="wc-roll-result"),
            id=f"{at}-inner",
        )

    @staticmethod
    def die(x: float, y: float, size: float, face: int, cls: str) -> Node:
        pips = [svg("circle", cx=f"{x + px * size:.1f}", cy=f"{y + py * size:.1f}", r=f"{size * 0.09:.1f}",
                    cls="pip") for px, py in PIPS.get(face, ())]
        return svg("g", svg("rect", x=str(x), y=str(y), width=str(size), height=str(size), rx="5"), *pips,
                   cls=f"wc-die {cls}", data_face=str(face))

    def render_cards(self, view: Mapping[str, Any]) -> Node:
        """The person's hand, the next trade's value and the sets they may trade now."""
        hand = view["hand"]
        value = view["next_trade_value"]
        head = h("p", f"Next trade: {value} troops (trades so far: {view['trades']}). Deck: {view['deck']} cards.",
                 id="wc-next-trade")
        if hand is None:
            return h("div", h("h2", "Cards"), head,
                     h("p", "Hands are secret: each player's count is in the table.", cls="muted"),
                     id="wc-cards-inner")
        cards = []
        for kind, cname in zip(CARD_KINDS, CARD_NAMES, strict=True):
            for _ in range(hand[kind]):
                cards.append(h("li", h("span", CARD_MARK[kind], cls="wc-card-mark", aria_hidden="true"),
                               h("span", cname, cls="wc-card-name"), cls=f"wc-card is-{kind}"))
        s = self.shell.session
        assert s is not None
        can = set()
        if self.acting_person() == view["viewer"] and view["phase"] == "reinforce" and s.viewing is None:
            can = {str(a)[1:] for a in GAME.legal_actions(s.match.state) if isinstance(a, Trade)}
        trades = [
            h("button", f"Trade {SET_WORDS[st]} for {value}", type="button", id=f"wc-trade-{st}",
              disabled=st not in can, on_click=lambda ev, x=st: self.trade(x))
            for st in view["sets"]
        ]
        note = None
        if view["sets"] and not can:
            note = h("p", "Sets are traded while placing reinforcements, at the start of your turn (W5).", cls="muted")
        return h(
            "div",
            h("h2", f"Your cards ({sum(hand.values())})"),
            h("ul", *cards, cls="wc-hand", id="wc-hand") if cards else h("p", "No cards yet: conquer a territory "
                                                                         "in a turn to draw one.", cls="muted"),
            head,
            h("div", *trades, cls="wc-trades") if trades else None,
            note,
            id="wc-cards-inner",
        )

    def render_seats(self, view: Mapping[str, Any]) -> Node:
        rows = []
        current = view["current"]
        for info in view["seats"]:
            seat = info["seat"]
            cls = " ".join(c for c in ("is-current" if seat == current and view["outcome"] is None else "",
                                       "" if info["alive"] else "is-out") if c) or None
            conts = ", ".join(CONTINENT_NAMES.get(c, c) for c in info["continents"])
            rows.append(h(
                "tr",
                h("td", h("span", cls="swatch", style=f"background:{self.colour(seat)}", aria_hidden="true"), cls="sw"),
                h("th", info["name"], scope="row", cls="wc-name"),
                h("td", str(info["territories"]), cls="num"),
                h("td", str(info["troops"]), cls="num"),
                h("td", str(info["cards"]), cls="num"),
                h("td", f"+{info['reinforcement']}", cls="num", title=conts or None),
                cls=cls,
            ))
        order = " → ".join(self.name(s) for s in view["order"]) if view["order"] else "not drawn yet"
        return h(
            "div",
            h("table",
              h("thead", h("tr", h("th", "", scope="col"), h("th", "Player", scope="col"),
                           h("th", "Land", scope="col", title="Territories"), h("th", "Troops", scope="col"),
                           h("th", "Cards", scope="col"), h("th", "Next", scope="col",
                                                             title="Reinforcements at the next turn (W4)"))),
              h("tbody", *rows), cls="data wc-players", id="wc-players"),
            h("p", f"Turn order: {order}. Turn {view['turn']}." if view["turn"] else f"Turn order: {order}.",
              cls="muted"),
            id="wc-seats-inner",
        )

    # -- the map: paints of the build-time SVG, and the layer of troops and odds -----------------
    def paint(self, view: Mapping[str, Any]) -> dict[str, dict[str, Any]]:
        """Owners' colours, the choices lit (the others fade), the source and the target."""
        s = self.shell.session
        assert s is not None
        state = s.shown_state()
        choices = set(self.choices(state))
        battle = view["battle"]
        out: dict[str, dict[str, Any]] = {"wc-map": {"class": {"has-choices": bool(choices)}}}
        full = self._paint_all(out, state, choices, battle)
        # only what changed since the last paint goes to the DOM: the build-time map keeps
        # what was set, and 42 territories x several browser calls on every render add up
        changed = {k: v for k, v in full.items() if self._painted.get(k) != v}
        self._painted.update(changed)
        return changed

    def _paint_all(self, out: dict[str, dict[str, Any]], state: Any, choices: set[int],
                   battle: Mapping[str, Any] | None) -> dict[str, dict[str, Any]]:
        for t in range(RULES.size):
            owner = state.owner[t]
            who = "empty" if owner < 0 else f"{self.name(owner)}, {plural(state.troops[t], 'troop')}"
            out[f"wc-t{t}"] = {
                "style": {"--owner-fill": self.colour(owner) if owner >= 0 else None},
                "class": {
                    "is-eligible": t in choices,
                    "is-source": t == self.src or (battle is not None and battle["src"] == t),
                    "is-target": t == self.dst or (battle is not None and battle["dst"] == t),
                },
                "attrs": {"aria-label": f"{RULES.names[t]}: {who}" + (", a choice now" if t in choices else "")},
            }
        return out

    def load_shapes(self) -> None:
        if not self.labels:
            m = load_map(MAP_ID)
            self.labels = {tr.index: (float(tr.label[0]), float(tr.label[1])) for tr in m.territories}
            self.paths = {tr.index: tr.path for tr in m.territories}

    def outline(self, t: int, kind: str) -> list[Node]:
        """A territory's outline above every territory, white underneath so it shows on any colour."""
        self.load_shapes()
        d = self.paths.get(t)
        if d is None:
            return []
        return [svg("path", d=d, cls=f"wc-outline-under is-{kind}"), svg("path", d=d, cls=f"wc-outline is-{kind}")]

    def render_marks(self, view: Mapping[str, Any], state: Any) -> Node:
        """Each territory's troops in a badge of the owner's colour; the choices' outlines;
        while a source is picked, the chance of taking each neighbour beside it."""
        self.load_shapes()
        # three groups, in drawing order: the outlines come and go with each step's choices,
        # the badges stay in place, so a redraw changes only the badges that changed
        # (dom.py compares the trees place by place; issue 22's speed at a live table)
        lines: list[Node] = []
        for t in sorted(self.choices(state)):
            lines += self.outline(t, "choice")
        if self.src is not None:
            lines += self.outline(self.src, "source")
        if self.dst is not None:
            lines += self.outline(self.dst, "target")
        kids: list[Node] = []
        odds: list[Node] = []
        for t in range(RULES.size):
            at = self.labels.get(t)
            owner = state.owner[t]
            if at is None or owner < 0:
                continue
            x, y = at[0], at[1] + 12
            colour = self.colour(owner)
            k = state.troops[t]
            r = 9.0 if k < 100 else 11.0
            kids.append(svg("g",
                            svg("circle", cx=f"{x:.1f}", cy=f"{y:.1f}", r=str(r), fill=colour, cls="wc-badge"),
                            svg("text", str(k), x=f"{x:.1f}", y=f"{y:.1f}", fill=ink_on(colour), cls="wc-troops"),
                            data_t=str(t)))
        if self.src is not None and self.acting_person() is not None and state.phase == "attack":
            a = state.troops[self.src]
            badges = [(lx, ly + 12) for t, (lx, ly) in self.labels.items() if state.owner[t] >= 0]
            for d in self.enemy_targets(state, self.src):
                at = self.labels.get(d)
                if at is None:
                    continue
                p = world_odds.battle_odds(a, state.troops[d], 1).win
                ox, oy = odds_spot(at[0], at[1] + 12, badges)
                odds.append(svg("text", pct(p), x=f"{ox:.1f}", y=f"{oy:.1f}", cls="wc-map-odds",
                                data_odds=str(d)))
        return svg("g", svg("g", *lines), svg("g", *kids), svg("g", *odds), id="wc-marks-inner")


def main() -> None:
    """In the page: run the page on the shell."""
    from shell_browser import run

    run(WorldPage)

"""The To Reign Supreme play page: six territory cards, two strength trackers, secret battles.

Why this is all that is here: the shell (``shell.py``) gives the page its set-up seats,
links, saves, log, undo, "viewing step N", chart, bot runner and pass-the-device screens;
every rule and number comes from :mod:`conquest.games.reign` (``GAME.view``,
``GAME.legal_actions``, the data file through ``GAME.rules``). The page draws the view and
turns clicks and keys into the engine's action values.

The battle's secret step (R10): the person choosing a strategy card and purchases sees
their own totals computed live from the data file (the same sums as R7), then hands the
choice to ``Shell.give_secret``. The choice lives only in ``Session.secret_parts`` until
both have chosen; this page never draws those parts, and its own draft is dropped as soon
as it is handed over, so a pass-the-device screen, a save or a link made meanwhile cannot
show it. The reveal then spells out both sides' arithmetic from the logged step.

Seats: the engine keeps the shell's ``seats`` (who is a computer, colours) in its options,
so a link or save reopens them on any device.
"""
from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from shell import GamePage, Seat, Session, Shell, plural, tap_word
from ui import Node, find_all, h, svg

from conquest.core import InvalidOptions
from conquest.games.reign import GAME
from conquest.games.reign.actions import (
    Battle,
    Develop,
    Disband,
    EndTurn,
    Fight,
    Part,
    Pick,
    Reallocate,
    Recover,
    Recruit,
    Reform,
    Restructure,
    Reveal,
    WarCouncil,
)
from conquest.games.reign.data import Rules
from conquest.games.reign.engine import SETUPS
from conquest.games.reign.state import State, rel
from conquest.seats import PALETTE

#: the stored setting that keeps a saved game's seats (who plays, colour) by slot id
#: words of the four symbols the seed lost (rulings, "R." preamble)
SYMBOLS = {"coin": "coins", "sword": "swords", "heart": "defence (hearts)", "bolt": "damage (bolts)"}
SETUP_WORDS = {
    "easy": "Easy: you sit at the long sides, every card is on someone's side",
    "challenging": "Challenging: you sit at the short ends, the middle column is nobody's",
}
#: what each symbol means, for the tap-to-explain legend (issue 41: a touch screen never shows
#: the hover titles that said it)
MEANINGS = {
    "coin": "Coins, Wealth. A territory's coins count towards your Wealth at the resupply; a strategy "
            "card's coins are earned for each casualty it inflicts; purchases cost coins.",
    "sword": "Swords, Military and attack. A territory's swords count towards your Military at the resupply; "
             "a strategy card's swords add to its attack.",
    "heart": "Hearts, defence. Each one stops a casualty; a card you Control defends itself with its hearts.",
    "bolt": "Bolts, damage. Each one can cause a casualty; the bolts of the cards you Control join every "
            "battle you fight.",
}


# -- symbols ---------------------------------------------------------------------------------
def icon(kind: str, label: str | None = None) -> Node:
    """One of the four symbols as SVG, with its words as the text alternative."""
    words = label or SYMBOLS[kind]
    shapes: list[Node]
    if kind == "coin":
        shapes = [svg("circle", cx=8, cy=8, r=6.5, fill="#f2c14e", stroke="#8a6a12", stroke_width=1.3),
                  svg("circle", cx=8, cy=8, r=3.6, fill="none", stroke="#8a6a12", stroke_width=1)]
    elif kind == "sword":
        shapes = [svg("path", d="M13.5 2.5 L6 10 M4.2 8.2 L7.8 11.8 M5.5 10.5 L2.5 13.5",
                      stroke="#39424e", stroke_width=1.8, stroke_linecap="round", fill="none")]
    elif kind == "heart":
        shapes = [svg("path", d="M8 14 C2 9.5 1 6.5 3.3 4.2 C5.2 2.5 7.3 3.3 8 5 C8.7 3.3 10.8 2.5 12.7 4.2 "
                                "C15 6.5 14 9.5 8 14 Z", fill="#c0392b")]
    else:
        shapes = [svg("path", d="M9.5 1 L3 9 H7 L6 15 L13 6.5 H9 Z", fill="#6c4bb4")]
    return svg("svg", svg("title", words), *shapes, viewBox="0 0 16 16", width=16, height=16,
               cls=f"rg-icon rg-{kind}", role="img", aria_label=words)


def val(kind: str, n: int, signed: bool = False) -> Node:
    """A number beside its symbol: ``(coin) 2``."""
    return h("span", icon(kind), h("span", f"{n:+d}" if signed else str(n)), cls="rg-val",
             title=f"{n} {SYMBOLS[kind]}")


def coins(n: int) -> str:
    return plural(n, "coin")


def legend() -> Node:
    """The four symbols' meanings behind one tap (a ``<details>``; its summary is a 44 px target)."""
    return h(
        "details",
        h("summary", "What ", *[icon(k) for k in ("coin", "sword", "heart", "bolt")], " mean", id="rg-legend-open"),
        h("dl", *[x for k in ("coin", "sword", "heart", "bolt")
                  for x in (h("dt", icon(k), f" {SYMBOLS[k].capitalize()}"), h("dd", MEANINGS[k], data_symbol=k))],
          cls="rg-legend-list"),
        id="rg-legend", cls="rg-legend",
    )


def mark(node: Node | None, now: str) -> Node | None:
    """``data-now`` on a node (issue 41): ``result`` for what the last action did, ``next`` for
    the control or panel to act on next; the shell brings both into view."""
    if node is not None:
        node.attrs["data-now"] = now
    return node


def track(label: str, kind: str, n: int, hi: int) -> Node:
    """A strength tracker row: ``Wealth (coin) 5`` and ``hi`` cells, ``n`` of them filled."""
    cells = [svg("rect", x=i * 10 + 1, y=1, width=8, height=12, rx=2,
                 cls="rg-cell is-on" if i < n else "rg-cell") for i in range(hi)]
    return h(
        "div",
        h("span", label, cls="rg-track-label"),
        val(kind, n),
        svg("svg", svg("title", f"{label} {n} of {hi}"), *cells, viewBox=f"0 0 {hi * 10} 14",
            cls="rg-track-cells", role="img", aria_label=f"{label} {n} of {hi}"),
        cls="rg-track",
    )


class ReignPage(GamePage):
    """The page's own state (one object) and renderers."""

    game_id = "reign"
    focus_home = "rg-stage-inner"  # the controls, after a step (issue 21, item 2)
    chart_x_label = "steps played"

    def __init__(self, shell: Shell) -> None:
        super().__init__(shell)
        self.codec = GAME.codec
        #: the battle draft of the person choosing now: a card code and purchases per kind
        self.card: str | None = None
        self.counts: list[int] = [0] * len(self.rules.kinds)
        #: the set-up draft: the two cards for the tracker
        self.picks: list[str] = []
        #: the Reallocate draft (R5): the layout as it would be, and the place tapped first
        self.arrangement: tuple[int, ...] | None = None
        self.held: int | None = None
        #: ``(log length, seat)`` the drafts belong to: another step or seat drops them
        self.draft_key: tuple[int, int] | None = None

    # -- set-up -----------------------------------------------------------------------------
    def options(self, seats: list[Seat], fields: Mapping[str, str]) -> dict[str, Any]:
        """The setup (R1) and the seats (names, colours, who plays), kept in the options."""
        setup = str(fields.get("setup", "easy") or "easy")
        if setup not in SETUPS:
            raise InvalidOptions("options.setup", "Pick the easy or the challenging setup.")
        return {"setup": setup, "seats": [s.to_json() for s in seats]}

    def opened(self) -> None:
        self.reset()

    def reset(self) -> None:
        """Forget half-made choices (after any step, undo or jump)."""
        self.card = None
        self.counts = [0] * len(self.rules.kinds)
        self.picks = []
        self.arrangement = None
        self.held = None
        self.draft_key = None

    # -- who is at the device --------------------------------------------------------------
    def session(self) -> Session:
        s = self.shell.session
        assert s is not None
        return s

    def state(self) -> State:
        st = self.session().shown_state()
        assert isinstance(st, State)
        return st

    @property
    def rules(self) -> Rules:
        """The values of the game on the table: its edition's (an old save keeps the values
        it was played with, R5, R9); the data file's before a game is open."""
        if self.shell.session is None:
            return GAME.rules
        return GAME.rules_of(self.state())

    def colour(self, seat: int) -> str:
        seats = self.session().seats()
        return seats[seat].colour if seat < len(seats) else PALETTE[seat]

    def name(self, seat: int) -> str:
        return self.session().seat_name(seat)

    def me(self) -> int | None:
        """The seat this device may play now, or None (a computer's move, a read-only copy,
        an earlier step, the game over, or the device not yet handed over)."""
        s = self.session()
        if s.locked() or s.needs_handover() is not None:
            return None
        seat = s.acting_seat()
        if seat is None or s.seats()[seat].is_bot:
            return None
        viewer = s.viewer()
        if viewer is not None and viewer != seat:
            return None
        return seat

    def check_draft(self, seat: int) -> None:
        key = (len(self.session().match.log), seat)
        if self.draft_key != key:
            self.reset()
            self.draft_key = key

    # -- playing -----------------------------------------------------------------------------
    def play(self, action: Any) -> None:
        self.shell.play(action)

    def choose_card(self, seat: int, code: str) -> None:
        self.check_draft(seat)
        self.card = code

    def buy(self, seat: int, kind: int, delta: int) -> None:
        """One more or one fewer of a purchase kind, within R6 and the seat's Wealth."""
        self.check_draft(seat)
        counts = list(self.counts)
        counts[kind] += delta
        r = self.rules
        if not 0 <= counts[kind] <= r.max_each or sum(counts) > r.max_total:
            return
        if r.purchase_cost(tuple(counts)) > self.state().players[seat].wealth:
            self.shell.say(f"Not enough Wealth for another {r.kinds[kind].name}.", "error")
            return
        self.counts = counts
        self.shell.clear_message()

    def part(self) -> Part | None:
        if self.card is None:
            return None
        return Part(self.card, self.codec.buys(tuple(self.counts)))

    def confirm_battle(self, seat: int) -> None:
        """Hand the draft to the shell as this seat's secret part, then forget it."""
        self.check_draft(seat)
        part = self.part()
        if part is None:
            self.shell.say("Choose a strategy card first.", "error")
            return
        if self.shell.give_secret(seat, part):
            self.reset()

    def toggle_pick(self, seat: int, code: str) -> None:
        self.check_draft(seat)
        if code in self.picks:
            self.picks.remove(code)
        elif len(self.picks) < 2:
            self.picks.append(code)
        else:
            self.picks = [self.picks[1], code]

    def confirm_pick(self, seat: int) -> None:
        self.check_draft(seat)
        if len(self.picks) != 2:
            self.shell.say("Choose two cards for your strength tracker.", "error")
            return
        codes = self.codec.card_codes
        if self.shell.give_secret(seat, Pick("".join(sorted(self.picks, key=codes.index)))):
            self.reset()

    def tap_place(self, seat: int, q: int) -> None:
        """The Reallocate draft (R5): the first tap picks up the card at place ``q``, the
        second swaps it with the card at another Influenced place; a tap on the held card
        puts it down. Any arrangement is reached by swaps; nothing is played until confirmed."""
        self.check_draft(seat)
        st = self.state()
        if q not in st.influenced():
            return
        lay = list(self.arrangement or st.layout)
        if self.held is None:
            self.held = q
        elif self.held == q:
            self.held = None
        else:
            lay[self.held], lay[q] = lay[q], lay[self.held]
            self.held = None
        self.arrangement = tuple(lay)

    def undo_arrangement(self, seat: int) -> None:
        self.check_draft(seat)
        self.arrangement = None
        self.held = None

    def drafted(self, st: State) -> Reallocate | None:
        """The Reallocate the draft makes, or None while it moves nothing."""
        if self.arrangement is None or self.arrangement == st.layout:
            return None
        codes = [t.code for t in self.rules.territories]
        return Reallocate("".join(codes[t] for t in self.arrangement))

    def confirm_arrangement(self, seat: int) -> None:
        """Play the drafted layout as one Reallocate; the engine refuses what R5 does not allow."""
        self.check_draft(seat)
        action = self.drafted(self.state())
        if action is None:
            self.shell.say("Swap at least two Influenced cards first (R5).", "error")
            return
        self.play(action)

    def on_key(self, ev: Any) -> bool:
        """In a battle or the set-up: keys 1-5 choose the strategy card shown at that place."""
        if ev.ctrl or ev.alt or ev.meta or not str(ev.key).isdigit():
            return False
        seat = self.me()
        if seat is None:
            return False
        st = self.state()
        n = int(ev.key) - 1
        if st.phase == "battle" and seat not in self.session().secret_parts:
            hand = [self.rules.cards[c].code for c in st.players[seat].hand]
            if 0 <= n < len(hand):
                self.choose_card(seat, hand[n])
                return True
        if st.phase == "setup" and seat not in self.session().secret_parts and 0 <= n < len(self.rules.cards):
            self.toggle_pick(seat, self.rules.cards[n].code)
            return True
        return False

    # -- words ---------------------------------------------------------------------------------
    def prompt(self, view: Mapping[str, Any]) -> str:
        s = self.session()
        st = self.state()
        if view.get("outcome"):
            return str(view["outcome"]["reason"]).removeprefix("R11: ") + "."
        if st.phase == "setup":
            seat = s.acting_seat()
            return f"{self.name(seat)}: choose two cards for the strength tracker, in secret." if seat is not None else ""
        if st.phase == "battle" and st.battle is not None:
            seat = s.acting_seat()
            where = self.rules.territories[st.layout[st.battle.place]].name
            who = self.name(seat) if seat is not None else ""
            return f"Battle over {where}: {who} chooses a card and purchases, in secret."
        if st.phase == "respond" and st.battle is not None:
            return f"{self.name(1 - st.active)}: Restructure before the battle, or fight as you stand."
        if st.phase == "turn":
            return f"{self.name(st.active)}'s turn: {plural(st.actions_left, 'action')} left."
        return ""

    def log_label(self, before: Any) -> str:
        return f"Turn {before.turn}" if getattr(before, "turn", 0) else "Set-up"

    # -- rendering -------------------------------------------------------------------------------
    def render(self, view: Mapping[str, Any]) -> dict[str, Node]:
        st = self.state()
        seat = self.me()
        legal = GAME.legal_actions(st) if seat is not None and st.phase in ("turn", "respond") else []
        trees = {
            "rg-stage": self.render_stage(view, st, seat, legal),
            "rg-board": self.render_board(view, st, seat, legal),
            "rg-side": self.render_side(view, st),
        }
        self.mark_now(trees, st, seat)
        return trees

    def mark_now(self, trees: Mapping[str, Node], st: State, seat: int | None) -> None:
        """Issue 41: the newest result (``data-now="result"``) and the next decision
        (``data-now="next"``), one of each at most; the shell brings both into view after a tap
        or a step (``browser_now.bring_now``), so "next" is a control or a short panel, never a
        panel taller than a phone's screen."""
        def there(eid: str) -> Node | None:
            for tree in trees.values():
                for node in find_all(tree, f"#{eid}"):
                    return node
            return None

        s = self.session()
        drafting = self.draft_key is not None and self.draft_key == (len(s.match.log), seat)
        reveal, shell_result = there("rg-reveal"), there("shell-result-inner")
        candidates = (
            ("rg-reveal", reveal is not None and reveal.tag == "section"),
            ("rg-totals", drafting and st.phase == "battle" and (self.card is not None or any(self.counts))),
            ("rg-pick-summary", drafting and st.phase == "setup" and bool(self.picks)),
            ("rg-realloc-summary", drafting and (self.arrangement is not None or self.held is not None)),
            ("rg-winner", True),
            ("shell-result-inner", shell_result is not None and "hidden" not in shell_result.attrs),
        )
        result = next((eid for eid, on in candidates if on and there(eid) is not None), None)
        nxt: str | None = None
        if st.phase == "setup" and seat is not None and there("rg-pick") is not None:
            nxt = "rg-pick-go" if len(self.picks) == 2 else "rg-pick-cards"
        elif st.phase == "battle" and there("rg-battle") is not None:
            # the cards, not the whole panel: at 360 px the panel is taller than the screen,
            # and the result above it must stay in view beside the cards (issue 41)
            nxt = "rg-battle-go" if self.card is not None else "rg-battle-cards"
        elif st.phase == "respond" and there("rg-respond") is not None:
            nxt = "rg-respond"
        elif st.phase == "turn" and seat is not None:
            if self.drafted(st) is not None:
                nxt = "rg-realloc-go"
            elif self.held is not None:
                nxt = "rg-realloc"
            else:
                nxt = "rg-turn"
        elif there("rg-waiting") is not None:
            nxt = "rg-waiting"
        if result is not None:
            mark(there(result), "result")
        if nxt is not None:
            mark(there(nxt), "next")

    # the stage: what happens now (set-up pick, battle, the reveal, the end)
    def render_stage(self, view: Mapping[str, Any], st: State, seat: int | None, legal: list[Any]) -> Node:
        s = self.session()
        # what the last action did, a bot's turn step by step (items 5 and 10)
        kids: list[Node | None] = [self.shell.result.render()]
        act = "wait"
        reveal = self.render_reveal(st)
        news = reveal is not None and reveal.tag == "section"
        if news:  # the battle's result right above the next decision (issue 41)
            kids.append(reveal)
        if view.get("outcome"):
            act = "over"
            winner = st.winner if st.winner is not None else 0
            kids.append(h("h2", f"{self.name(winner)} wins: Controls all six territories (R11)", id="rg-winner"))
        elif st.phase == "setup":
            if seat is not None and seat not in s.secret_parts:
                act = "pick"
                kids.append(self.render_pick(seat))
            else:
                kids.append(self.waiting_line(st))
        elif st.phase == "battle" and st.battle is not None:
            if seat is not None and seat not in s.secret_parts:
                act = "battle"
                kids.append(self.render_battle(st, seat))
            else:
                kids.append(self.waiting_line(st))
        elif st.phase == "respond" and st.battle is not None:
            kids.append(self.render_respond(st, seat, legal))
            act = "respond" if seat is not None else "wait"
        elif st.phase == "turn":
            act = "turn" if seat is not None else "wait"
            kids.append(self.render_turn(st, seat, legal) if seat is not None else self.waiting_turn(st))
        if reveal is not None and not news:
            kids.append(reveal)
        return h("div", *kids, id="rg-stage-inner", cls="rg-stage", data_act=act, data_step=str(s.step()),
                 data_phase=st.phase)

    def render_turn(self, st: State, seat: int, legal: list[Any]) -> Node:
        """The turn's decision in words, under the last result: the cards' own buttons follow
        right below; with no action left, ending the turn is right here (issue 41)."""
        end = next((a for a in legal if isinstance(a, EndTurn)), None)
        if st.actions_left:
            words = f"{tap_word(self.shell.host)} Attack, Reform or Develop on a card below."
        else:
            words = "Or first Restructure (no action), under the cards."
        return h(
            "section",
            h("h2", f"Your turn, {self.name(seat)}: {plural(st.actions_left, 'action')} left"),
            h("p", words, cls="muted"),
            h("button", "End the turn", type="button", id="rg-end-now", cls="secondary",
              on_click=lambda ev, x=end: self.play(x)) if end is not None and not st.actions_left else None,
            cls="rg-panel rg-turn", id="rg-turn", aria_label="Your turn",
        )

    def waiting_line(self, st: State) -> Node:
        s = self.session()
        what = "their tracker cards" if st.phase == "setup" else "a card and purchases"
        seat = s.acting_seat()
        mine = [x for x in s.secret_parts if not s.seats()[x].is_bot]
        # on a live device the seat still choosing is not this one (``acting_seat`` is None
        # there): named from the choices still missing, so the waiting line is never empty
        # (issue 41: it is the device's next thing to look at)
        still = [x for x in GAME.simultaneous(st) if x not in s.secret_parts] if seat is None else [seat]
        lines = []
        if mine and still:
            lines.append(h("p", f"{self.name(mine[0])} has chosen; the choice stays hidden until both have chosen."))
        if still:
            lines.append(h("p", f"Waiting for {self.name(still[0])} to choose {what} in secret…"))
        return h("div", *lines, cls="rg-waiting", id="rg-waiting", role="status")

    def waiting_turn(self, st: State) -> Node:
        """Another device's turn (live): whose it is, where this device's eye goes next."""
        return h("div", h("p", f"{self.name(st.active)}'s turn: waiting for {self.name(st.active)} to play…"),
                 cls="rg-waiting", id="rg-waiting", role="status")

    def render_pick(self, seat: int) -> Node:
        self.check_draft(seat)
        r = self.rules
        buttons = []
        for i, c in enumerate(r.cards):
            on = c.code in self.picks
            buttons.append(h(
                "button",
                h("span", f"{i + 1}. {c.name}", cls="rg-sc-name"),
                self.card_values(c),
                type="button", cls="rg-sc" + (" is-on" if on else ""), aria_pressed="true" if on else "false",
                data_card=c.code, on_click=lambda ev, k=c.code: self.toggle_pick(seat, k),
            ))
        hand = [c.name for c in r.cards if c.code not in self.picks]
        return h(
            "section",
            h("h2", f"{self.name(seat)}: set up your strength tracker"),
            h("p", "Lay two of your five Military Strategy cards on the tracker; you battle with the other "
                   "three. The other player chooses at the same time and cannot see your choice.", cls="muted"),
            h("div", *buttons, cls="rg-sc-row", id="rg-pick-cards", role="group", aria_label="Cards for the tracker"),
            h("p", f"In your hand: {', '.join(hand)}" if len(self.picks) == 2 else
              f"Chosen {len(self.picks)} of 2.", id="rg-pick-summary", aria_live="polite"),
            h("button", "Lay these two on the tracker", type="button", id="rg-pick-go",
              disabled=len(self.picks) != 2, on_click=lambda ev: self.confirm_pick(seat)),
            cls="rg-panel", id="rg-pick", aria_label="Tracker cards",
        )

    def card_values(self, c: Any) -> Node:
        """A strategy card's four values with their symbols (R9)."""
        return h("span", val("sword", c.attack.value), val("heart", c.defence.value), val("bolt", c.damage.value),
                 h("span", val("coin", c.coins.value), " per casualty", cls="rg-per"), cls="rg-sc-vals")

    # -- the battle screen ----------------------------------------------------------------------
    def side_sums(self, st: State, seat: int, card: str | None, counts: Sequence[int]) -> dict[str, Any]:
        """R7's three sums for one side, term by term, from the engine (one place for the arithmetic)."""
        r = self.rules
        sums: dict[str, Any] = dict(GAME.side_terms(st, seat, r.card_index(card) if card else None, counts))
        sums["cost"] = r.purchase_cost(tuple(counts))
        sums["hired"] = sum(n for kind, n in zip(r.kinds, counts, strict=True) if kind.dies_first)
        return sums

    @staticmethod
    def total(terms: Sequence[tuple[str, int]]) -> int:
        return sum(n for _, n in terms)

    def sum_line(self, kind: str, word: str, terms: Sequence[tuple[str, int]], key: str) -> Node:
        body = " + ".join(f"{n} ({label})" if label[:1].isdigit() else f"{n} {label}" for label, n in terms) or "0"
        return h("p", icon(kind, word), h("strong", f" {word} {self.total(terms)}", data_total=key),
                 h("span", f" = {body}", cls="rg-terms"), cls="rg-sum")

    def render_battle(self, st: State, seat: int) -> Node:
        self.check_draft(seat)
        r = self.rules
        pend = st.battle
        assert pend is not None
        att, dfd = pend.attacker, 1 - pend.attacker
        other = 1 - seat
        p = st.players[seat]
        where = GAME.tname(st, pend.place)
        level = GAME.level(st.players[dfd])
        role = "attack" if seat == att else "defend"
        cards = []
        for i, ci in enumerate(p.hand):
            c = r.cards[ci]
            on = self.card == c.code
            cards.append(h(
                "button", h("span", f"{i + 1}. {c.name}", cls="rg-sc-name"), self.card_values(c),
                type="button", cls="rg-sc" + (" is-on" if on else ""), aria_pressed="true" if on else "false",
                data_card=c.code, on_click=lambda ev, k=c.code: self.choose_card(seat, k),
            ))
        sums = self.side_sums(st, seat, self.card, self.counts)
        cost = sums["cost"]
        rows = []
        for k, kind in enumerate(r.kinds):
            n = self.counts[k]
            effect = ", ".join(
                f"+{v} {w}" for v, w in ((kind.attack, "attack"), (kind.defence, "defence"), (kind.damage, "damage")) if v
            )
            nxt = r.prices[n] if n < r.max_each else None
            more = list(self.counts)
            more[k] += 1
            can_add = (
                nxt is not None and sum(self.counts) < r.max_total and r.purchase_cost(tuple(more)) <= p.wealth
            )
            rows.append(h(
                "li",
                h("span", h("strong", kind.name), h("span", f" {effect}", cls="muted"), cls="rg-buy-name"),
                h("button", "−", type="button", cls="small secondary", data_buy=f"{kind.code}-",
                  aria_label=f"One {kind.name} fewer", disabled=n == 0,
                  on_click=lambda ev, kk=k: self.buy(seat, kk, -1)),
                h("output", str(n), cls="rg-buy-n", data_count=kind.code, aria_label=f"{kind.plural}: {n}"),
                h("button", "+", type="button", cls="small", data_buy=f"{kind.code}+",
                  aria_label=f"One more {kind.name}" + (f" ({coins(nxt)})" if nxt is not None else ""),
                  disabled=not can_add, on_click=lambda ev, kk=k: self.buy(seat, kk, 1)),
                h("span", f"next: {coins(nxt)}" if nxt is not None else f"at most {r.max_each}", cls="rg-buy-next muted"),
                cls="rg-buy",
            ))
        o = st.players[other]
        their = ", ".join(r.cards[c].name for c in o.hand)
        return h(
            "section",
            h("h2", f"{self.name(seat)}: you {role} {where}"),
            h("p", f"{self.name(att)} attacks, {self.name(dfd)} defends; ties go to the defender. "
                   "Choose a card and any purchases, then confirm.", cls="muted"),
            h("details",
              h("summary", "How the battle is won, and what the other side could bring"),
              h("p", f"{self.name(dfd)}'s action level is {level}: winning by more than {level} moves the card "
                     f"{r.steps_big_win} steps, a smaller win {r.steps_win}, a loss that kills "
                     f"{r.casualties_for_step} or more {r.steps_loss}.", cls="muted"),
              h("p", f"What {self.name(other)} could bring: Military {o.military}, Wealth {o.wealth}, "
                     f"cards {their or 'none'}; bolts of Controlled cards {GAME.bolts(st, other)}.", cls="muted"),
              cls="rg-battle-more"),
            h("h3", "Strategy card"),
            h("div", *cards, cls="rg-sc-row", id="rg-battle-cards", role="group",
              aria_label="Your strategy cards (keys 1 to 3)"),
            h("h3", "Purchases ", h("span", f"(at most {r.max_each} of each, {r.max_total} in all; "
                                          f"the first of a kind costs {r.prices[0]}, the second {r.prices[-1]})",
                                     cls="rg-buys-rule")),
            h("ul", *rows, cls="rg-buys"),
            h(
                "div",
                h(
                    "div",
                    self.sum_line("sword", "Attack", sums["attack"], "attack"),
                    self.sum_line("heart", "Defence", sums["defence"], "defence"),
                    self.sum_line("bolt", "Damage", sums["damage"], "damage"),
                    h("p", icon("coin", "Cost"), h("strong", f" Cost {coins(cost)}", data_total="cost"),
                      h("span", f" of {p.wealth} Wealth: {p.wealth - cost} left", cls="rg-terms"), cls="rg-sum"),
                    id="rg-totals", cls="rg-totals", aria_live="polite",
                ),
                h("button", "Confirm my choice (secret)", type="button", id="rg-battle-go",
                  disabled=self.card is None, on_click=lambda ev: self.confirm_battle(seat)),
                id="rg-decide", cls="rg-decide",
            ),
            cls="rg-panel rg-battle", id="rg-battle", aria_label="Battle choice",
        )

    def render_respond(self, st: State, seat: int | None, legal: list[Any]) -> Node:
        pend = st.battle
        assert pend is not None
        where = GAME.tname(st, pend.place)
        head = h("h2", f"{self.name(pend.attacker)} attacks {where}")
        if seat is None:
            return h("section", head, h("p", f"{self.name(1 - pend.attacker)} decides whether to Restructure first…"),
                     cls="rg-panel", id="rg-respond")
        cost = self.rules.restructure.value
        restr = [a for a in legal if isinstance(a, Restructure)]
        return h(
            "section",
            head,
            h("p", f"{self.name(1 - pend.attacker)}: fight as you stand, or first Restructure Military "
                   f"({coins(cost)}): put other cards on your tracker, to keep a card for this battle.", cls="muted"),
            h("button", "Fight as we stand", type="button", id="rg-fight", on_click=lambda ev: self.play(Fight())),
            h("details", h("summary", f"Restructure first ({plural(len(restr), 'way')}, {coins(cost)})"),
              h("div", *[self.restructure_button(st, a) for a in restr], cls="rg-row"),
              cls="rg-more", id="rg-restructure") if restr else None,
            cls="rg-panel", id="rg-respond",
        )

    def restructure_button(self, st: State, a: Restructure) -> Node:
        r = self.rules
        names = " and ".join(r.cards[r.card_index(c)].name for c in a.tracker)
        return h("button", f"Restructure: {names} on the tracker ({coins(r.restructure.value)})", type="button",
                 cls="small secondary", data_action=str(a), on_click=lambda ev, x=a: self.play(x))

    # -- the reveal -------------------------------------------------------------------------------
    def last_reveal(self) -> int | None:
        """The log index of the battle reveal the state on screen reports, if any."""
        s = self.session()
        n = s.step()
        for i in range(n - 1, -1, -1):
            try:
                if isinstance(GAME.parse_action(s.match.log[i]), Reveal):
                    return i
            except Exception:  # noqa: S112 - a log entry that does not parse is not a reveal
                continue
        return None

    def reveal_is_news(self, k: int) -> bool:
        """Shown in full until a person at this device has acted since the battle."""
        s = self.session()
        seats = s.seats()
        for i in range(k + 1, s.step()):
            who = GAME.to_move(s.match.states[i])
            if who is not None and not seats[who].is_bot:
                return False
        return True

    def render_reveal(self, st: State) -> Node | None:
        rep = st.last
        k = self.last_reveal()
        if rep is None or k is None:
            return None
        s = self.session()
        before = s.match.states[k]
        action = GAME.parse_action(s.match.log[k])
        if not isinstance(action, Reveal) or before.battle is None:
            return None
        r = self.rules
        att, dfd = rep.attacker, rep.defender
        cols = []
        for seat in (att, dfd):
            part = action.parts[seat]
            counts = self.codec.counts(part)
            sums = self.side_sums(before, seat, part.card, counts)
            card = r.cards[r.card_index(part.card)]
            hired = sums["hired"]
            cas = rep.casualties[seat]
            soldiers = max(0, cas - hired)
            inflicted = rep.casualties[1 - seat]
            cols.append(h(
                "div",
                h("h3", f"{self.name(seat)} ({'attacker' if seat == att else 'defender'})", data_seat=str(seat)),
                h("p", f"Played {GAME.part_words(part)}; paid {coins(sums['cost'])}."),
                self.sum_line("sword", "Attack", sums["attack"], f"attack-{seat}"),
                self.sum_line("heart", "Defence", sums["defence"], f"defence-{seat}"),
                self.sum_line("bolt", "Damage", sums["damage"], f"damage-{seat}"),
                h("p", h("strong", f"Casualties {cas}", data_total=f"casualties-{seat}"),
                  f" = {self.name(1 - seat)}'s damage {rep.damage[1 - seat]} − defence {rep.defence[seat]}"
                  + (f" (at most the {hired + before.players[seat].military} troops there)" if cas
                     < max(0, rep.damage[1 - seat] - rep.defence[seat]) else "")
                  + (f": {min(cas, hired)} hired troops, then {soldiers} Military" if cas else "")),
                h("p", h("strong", f"Wealth earned {rep.earned[seat]}", data_total=f"earned-{seat}"),
                  f" = {inflicted} casualties inflicted × {card.coins.value} ({card.name})"),
                cls="rg-reveal-side", style=f"--seat:{self.colour(seat)}",
            ))
        margin = rep.attack[att] - rep.attack[dfd]
        where = r.territories[rep.territory].name
        if rep.won:
            why = (f"{self.name(att)} wins by {margin}, "
                   + (f"more than {self.name(dfd)}'s action level {rep.level}" if margin > rep.level
                      else f"not more than {self.name(dfd)}'s action level {rep.level}"))
        elif rep.casualties[dfd] >= r.casualties_for_step:
            why = (f"{self.name(dfd)} holds ({rep.attack[dfd]} to {rep.attack[att]}), but lost "
                   f"{rep.casualties[dfd]} troops ({r.casualties_for_step} or more)")
        else:
            why = f"{self.name(dfd)} holds ({rep.attack[dfd]} to {rep.attack[att]})"
        ladder = (f"{where}: {GAME.rung_words(before, rep.before)} → {GAME.rung_words(before, rep.after)}"
                  if rep.steps else f"{where} stays {GAME.rung_words(before, rep.after)}")
        played = "; ".join(f"{self.name(x)} played {r.cards[r.card_index(action.parts[x].card)].name} "
                           f"(attack {rep.attack[x]})" for x in (att, dfd))
        losses = (f"Casualties: {self.name(att)} {rep.casualties[att]}, {self.name(dfd)} {rep.casualties[dfd]}; "
                  f"Wealth earned: {self.name(att)} {rep.earned[att]}, {self.name(dfd)} {rep.earned[dfd]}.")
        body = [
            h("p", h("strong", why), f": {plural(rep.steps, 'step')} on the ladder (R8).", id="rg-reveal-result"),
            h("p", ladder, id="rg-reveal-ladder"),
            h("p", f"{played}. {losses}", id="rg-reveal-words", cls="rg-reveal-words"),
        ]
        counted = h("details", h("summary", "How it was counted"), h("div", *cols, cls="rg-reveal-cols"),
                    cls="rg-reveal-count", id="rg-reveal-count")
        if self.reveal_is_news(k):
            # kept in full until a person at this device acts (issue 41: the battle's result in
            # words, in view, above the next decision; the arithmetic one tap away)
            return h("section", h("h2", f"Battle over {where}"), *body, counted,
                     cls="rg-panel rg-reveal", id="rg-reveal", aria_label="Battle result")
        return h("details", h("summary", f"Last battle: over {where} (step {k + 1})"), *body,
                 h("div", *cols, cls="rg-reveal-cols"), cls="rg-panel rg-reveal is-old", id="rg-reveal")

    # -- the board --------------------------------------------------------------------------------
    def render_board(self, view: Mapping[str, Any], st: State, seat: int | None, legal: list[Any]) -> Node:
        if not st.layout:
            return h("div", h("p", "The territory cards are being dealt…"), id="rg-board-inner")
        by_place: dict[int, list[Any]] = {}
        codes = {t.code: i for i, t in enumerate(self.rules.territories)}
        for a in legal:
            if isinstance(a, (Battle, Reform, Develop)):
                by_place.setdefault(st.place_of(codes[a.t]), []).append(a)
        cards = [self.render_territory(view["places"][q], st, q, by_place.get(q, []), seat) for q in range(6)]
        sides = SETUP_WORDS[st.setup]
        return h(
            "div",
            legend(),
            h("div", *cards, cls=f"rg-grid is-{st.setup}", role="list", aria_label="The six territories"),
            h("p", f"{sides}. Top row: {self.side_words(st, 0)}; bottom row: {self.side_words(st, 3)}."
              if st.setup == "easy" else
              f"{sides}. Left column: {self.name(0)}'s side; right column: {self.name(1)}'s side.",
              cls="rg-sides muted"),
            self.render_actions(st, seat, legal),
            id="rg-board-inner",
        )

    def side_words(self, st: State, place: int) -> str:
        side = GAME.side_of(st, place)
        return "nobody's side" if side is None else f"{self.name(side)}'s side"

    def why_not_attack(self, st: State, q: int, seat: int) -> str:
        """Why a card offers no Attack to the person whose turn it is (issue 21, item 5): a
        card that says nothing looks broken."""
        if st.actions_left <= 0:
            return "No actions left this turn (R4)."
        mine = rel(st.ladder[q], seat)
        if mine == 3:
            return "You Control it: nothing to attack (R2)."
        if mine == 2:
            return "You Influence it: Develop it to Control it (R2)."
        if not GAME.in_reach(st, seat, q):
            return "Out of reach: not on your side nor next to a card you Control (R1)."
        return ""

    def render_territory(self, item: Mapping[str, Any], st: State, q: int, acts: list[Any],
                         seat: int | None = None) -> Node:
        t = self.rules.territories[st.layout[q]]
        holder = st.holder(q)
        controlled = bool(item["controlled"])
        kind = "Controlled" if controlled else "Influenced"
        r = self.rules
        buttons = []
        for a in acts:
            if isinstance(a, Battle):
                label, tip = "Attack", "declare a battle"
            elif isinstance(a, Reform):
                label, tip = f"Reform ({coins(GAME.reform_cost(st, st.active))})", "Influence it without battle"
            else:
                label, tip = f"Develop ({coins(r.develop.value)})", "turn your Influence into Control"
            buttons.append(h("button", label, type="button", cls="small", data_action=str(a),
                             aria_label=f"{label}: {t.name}, {tip}", on_click=lambda ev, x=a: self.play(x)))

        def face_row(side: Any, label: str, on: bool) -> Node:
            vals = [val("coin", side.coins.value), val("sword", side.swords.value)]
            if side.damage.value:
                vals.append(val("bolt", side.damage.value, signed=True))
            if side.heart.value:
                vals.append(val("heart", side.heart.value, signed=True))
            return h("p", h("span", label, cls="rg-face-label"), *vals, cls="rg-face" + (" is-up" if on else ""))

        why = ""
        if seat is not None and st.phase == "turn" and not any(isinstance(a, Battle) for a in acts):
            why = self.why_not_attack(st, q, seat)
        side = GAME.side_of(st, q)
        fresh = " (new: its values count from the end of the turn)" if q in st.fresh else ""
        last = st.last is not None and st.last.place == q
        return h(
            "div",
            h("h3", t.name),
            h("p", h("span", kind, cls="rg-badge"), f" by {self.name(holder)}{fresh}", cls="rg-state"),
            face_row(t.influenced, "Influenced", not controlled),
            face_row(t.controlled, "Controlled", controlled),
            h("p", "nobody's side" if side is None else f"{self.name(side)}'s side", cls="rg-sidetag muted"),
            h("div", *buttons, cls="rg-card-acts") if buttons else None,
            h("p", why, cls="rg-why muted") if why else None,
            role="listitem", cls=f"rg-card is-{kind.lower()}" + (" is-last" if last else ""),
            data_place=str(q), data_rung=str(st.ladder[q]), data_territory=t.code,
            style=f"--holder:{self.colour(holder)}", aria_label=f"{t.name}: {kind} by {self.name(holder)}",
        )

    def render_actions(self, st: State, seat: int | None, legal: list[Any]) -> Node | None:
        if seat is None or st.phase != "turn":
            return None
        r = self.rules
        p = st.players[seat]
        main: list[Node] = []
        more: list[Node] = []
        for a in legal:
            if isinstance(a, Recruit):
                main.append(self.action_button(a, f"Recruit {a.n} ({coins(a.n * r.recruit_rate.value)})"))
            elif isinstance(a, Disband):
                main.append(self.action_button(a, f"Disband {a.n} (+{coins(a.n * r.disband_rate.value)})"))
            elif isinstance(a, Recover):
                main.append(self.action_button(
                    a, f"Recover (+{r.recover_coins.value} Wealth, +{r.recover_military.value} Military)"))
            elif isinstance(a, WarCouncil):
                names = " and ".join(r.cards[r.card_index(c)].name for c in a.cards)
                more.append(self.action_button(a, f"War Council: take back {names}"))
        if any(isinstance(a, Reallocate) for a in legal):  # before the (many) Restructures
            more.append(self.render_reallocate(st, seat))
        more.extend(self.restructure_button(st, a) for a in legal if isinstance(a, Restructure))
        end = next((a for a in legal if isinstance(a, EndTurn)), None)
        if st.actions_left:
            main.extend(self.unavailable(st, seat, legal, ("recruit", "disband")))
        more.extend(self.unavailable(st, seat, legal, ("war-council", "reallocate", "restructure")))
        return h(
            "section",
            h("h2", f"Your turn, {self.name(seat)}: {plural(st.actions_left, 'action')} left"),
            h("p", f"Wealth {p.wealth}, Military {p.military}. Attack, Reform or Develop a card above, or:",
              cls="muted") if st.actions_left else
            h("p", "No actions left: Restructure (no action) or end the turn.", cls="muted"),
            h("div", *main, cls="rg-row") if main else None,
            h("details", h("summary", f"More: War Council, Reallocate, Restructure "
                                      f"({sum(1 for x in more if x.tag == 'button' or x.tag == 'fieldset')} possible)"),
              h("div", *more, cls="rg-row"), cls="rg-more", id="rg-more") if more else None,
            h("p", h("button", "End the turn", type="button", id="rg-end", cls="secondary",
                     on_click=lambda ev, x=end: self.play(x))) if end is not None else None,
            cls="rg-panel rg-actions", id="rg-actions", aria_label="Actions",
        )

    def render_reallocate(self, st: State, seat: int) -> Node:
        """Reallocate as the seed has it (R5): pick up any Influenced cards, yours and your
        opponent's, and put them back in any order in the same places, in one action. A
        button per Influenced place, named by the card lying there now and showing the card
        the draft puts there; tap two to swap them, as often as needed, then confirm."""
        self.check_draft(seat)
        r = self.rules
        lay = self.arrangement or st.layout
        names = [t.name for t in r.territories]
        rows = []
        for q in st.influenced():
            here, now = names[st.layout[q]], names[lay[q]]
            held = self.held == q
            moved = lay[q] != st.layout[q]
            label = f"{here}'s place: {now}" if moved else f"{here}"
            who = self.name(st.holder(q))
            rows.append(h(
                "button", h("span", label), h("span", f" · {who} Influences", cls="muted"),
                type="button", cls="small rg-place" + (" is-held" if held else "") + (" is-moved" if moved else ""),
                aria_pressed="true" if held else "false", data_place=str(q),
                aria_label=(f"{label}, Influenced by {who}" + (": picked up, tap another card to swap" if held else "")),
                on_click=lambda ev, x=q: self.tap_place(seat, x),
            ))
        draft = self.drafted(st)
        changed = draft is not None
        if draft is not None:
            summary = f"The draft: {GAME.reallocate_words(st, draft)}."
        elif self.held is not None:
            summary = f"{names[st.layout[self.held]]} picked up: tap another Influenced card to swap them."
        else:
            summary = "Tap two Influenced cards to swap them; repeat until they lie as you want, then confirm."
        n_moved = sum(1 for q in range(len(lay)) if lay[q] != st.layout[q])
        return h(
            "fieldset",
            h("legend", f"Reallocate ({coins(r.reallocate.value)}, one action)"),
            h("p", "Each place keeps the player who Influences it; only which territory lies there changes. "
                   "Controlled cards stay (R5).", cls="muted"),
            h("div", *rows, cls="rg-row rg-places", role="group", aria_label="Influenced cards"),
            h("p", summary, id="rg-realloc-summary", aria_live="polite"),
            h("div",
              h("button", f"Reallocate: move {n_moved} cards ({coins(r.reallocate.value)})" if changed
                else "Reallocate", type="button", cls="small", id="rg-realloc-go", disabled=not changed,
                on_click=lambda ev: self.confirm_arrangement(seat)),
              h("button", "Start again", type="button", cls="small secondary", id="rg-realloc-reset",
                on_click=lambda ev: self.undo_arrangement(seat)) if changed or self.held is not None else None,
              cls="rg-row"),
            cls="rg-realloc", id="rg-realloc",
        )

    def unavailable(self, st: State, seat: int, legal: list[Any], kinds: Sequence[str]) -> list[Node]:
        """The actions of ``kinds`` the person cannot take now, each saying why (issue 21, item
        5: a Recruit button or a "More" section that vanishes with no reason looks broken)."""
        r = self.rules
        p = st.players[seat]
        has = {type(a) for a in legal}
        why: list[tuple[str, str]] = []
        no_action = "no actions left (R4)" if st.actions_left <= 0 else ""
        if "recruit" in kinds and Recruit not in has:
            least = min(r.recruit_amounts.values)  # R5: the smallest amount the game's edition lists
            why.append(("Recruit", no_action or (f"Military is at most {r.max_strength} (R3)"
                        if p.military + least > r.max_strength else
                        f"needs {coins(least * r.recruit_rate.value)}; you have {p.wealth} Wealth (R5)")))
        if "disband" in kinds and Disband not in has:
            why.append(("Disband", no_action or ("no Military to disband (R5)" if p.military <= 0 else
                        f"Wealth is at most {r.max_strength} (R3)")))
        if "war-council" in kinds and WarCouncil not in has:
            why.append(("War Council", no_action or "no discarded strategy cards to take back (R5)"))
        if "reallocate" in kinds and Reallocate not in has:
            infl = len(st.influenced())
            why.append(("Reallocate", no_action or (f"needs {coins(r.reallocate.value)}; you have {p.wealth} Wealth (R5)"
                        if p.wealth < r.reallocate.value else
                        f"needs two Influenced cards to rearrange; there {'is' if infl == 1 else 'are'} {infl} (R5)")))
        if "restructure" in kinds and Restructure not in has:
            why.append(("Restructure", f"needs {coins(r.restructure.value)}; you have {p.wealth} Wealth (R5)"
                        if p.wealth < r.restructure.value else "no strategy cards in hand (R5)"))
        return [h("span", h("button", name, type="button", cls="small secondary", disabled=True,
                            aria_describedby=f"rg-why-{name.lower().replace(' ', '-')}"),
                  h("span", f" {reason}", cls="muted", id=f"rg-why-{name.lower().replace(' ', '-')}"),
                  cls="rg-unavailable", data_unavailable=name)
                for name, reason in why]

    def action_button(self, a: Any, label: str) -> Node:
        return h("button", label, type="button", cls="small", data_action=str(a), on_click=lambda ev, x=a: self.play(x))

    # -- the side: strength trackers and hands ----------------------------------------------------
    def render_side(self, view: Mapping[str, Any], st: State) -> Node:
        r = self.rules
        boxes = []
        for seat in (0, 1):
            p = st.players[seat]
            pv = view["players"][seat]
            total = p.wealth + p.military
            turn = " · to play" if st.phase == "turn" and st.active == seat and not view.get("outcome") else ""
            who = " (computer)" if self.session().seats()[seat].is_bot else ""

            def names(cards: Sequence[int]) -> str:
                return ", ".join(r.cards[c].name for c in cards) or "none"

            boxes.append(h(
                "section",
                h("h2", h("span", cls="swatch", style=f"background:{self.colour(seat)}", aria_hidden="true"),
                  f"{self.name(seat)}{who}{turn}"),
                track("Wealth", "coin", p.wealth, r.max_strength),
                track("Military", "sword", p.military, r.max_strength),
                h("p", f"Wealth + Military {total}: {plural(GAME.level(p), 'action')} a turn (R4)"
                  + (f"; the first player's first turn has {r.first_turn_actions}"
                     if st.phase == "turn" and st.turn == 1 and st.active == seat
                     and GAME.level(p) > r.first_turn_actions else ""),
                  cls="rg-level", data_level=str(GAME.level(p))),
                h("p", f"Resupply to at least {pv['base']['coins']} Wealth and {pv['base']['swords']} Military; "
                       f"Controls {plural(pv['controlled'], 'card')}.", cls="muted"),
                h("p", h("strong", "Hand: "), names(p.hand), cls="rg-hand") if p.tracker else None,
                h("p", h("strong", "Tracker: "), names(p.tracker), " · ", h("strong", "Discarded: "), names(p.discard),
                  cls="muted") if p.tracker else None,
                cls="rg-player", data_seat=str(seat), style=f"--seat:{self.colour(seat)}",
                aria_label=f"{self.name(seat)}'s strength",
            ))
        return h("div", *boxes, id="rg-side-inner")


def main() -> None:
    from shell_browser import run

    run(ReignPage)


__all__ = ["ReignPage", "icon", "main"]

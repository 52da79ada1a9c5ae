"""The To Reign Supreme rules (rulings R1-R12), as a :class:`conquest.core.Game`.

Why the engine does all the arithmetic: a battle adds up a dozen numbers on each side
(R7), and the seed's own worked example gets one of them wrong. Here every number comes
from the data file and the ruling it follows, every refusal names the ruling, and the
secret choices never enter the state: both are carried by the one ``Reveal`` step (R10).

Choices where the rulings are silent are documented where they are made and listed in the
docstring of :mod:`conquest.games.reign`.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import replace
from itertools import combinations, permutations, product
from typing import Any

from conquest.core import ChanceSpec, Game, IllegalAction, InvalidAction, InvalidOptions, Outcome, excerpt
from conquest.games.reign.actions import (
    Action,
    ActionCodec,
    Battle,
    Deal,
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
    Setup,
    WarCouncil,
)
from conquest.games.reign.data import Rules, current_edition, editions, load_rules
from conquest.games.reign.state import Pending, Player, Report, State, rel, state_from_json, state_to_json
from conquest.rng import apply_shuffle

__all__ = ["ReignGame", "NEIGHBOURS", "SIDES", "SETUPS", "Totals"]

SETUPS = ("easy", "challenging")
ROWS, COLS = 2, 3
#: R1: orthogonal neighbours on the 2 x 3 grid, places numbered row by row
NEIGHBOURS: tuple[tuple[int, ...], ...] = tuple(
    tuple(
        q
        for q in range(ROWS * COLS)
        if abs(q // COLS - p // COLS) + abs(q % COLS - p % COLS) == 1
    )
    for p in range(ROWS * COLS)
)
#: R1: the places on each seat's side. Easy: the players sit at the long sides (a row
#: each). Challenging: at the short ends (a column each); the middle column is nobody's.
SIDES: dict[str, tuple[frozenset[int], frozenset[int]]] = {
    "easy": (frozenset({0, 1, 2}), frozenset({3, 4, 5})),
    "challenging": (frozenset({0, 3}), frozenset({2, 5})),
}
#: R1: who Influences each place at the start (rung 2: seat 0, rung 1: seat 1). In the
#: Challenging setup seat 0 also takes the top middle card and seat 1 the bottom one, so
#: the start is the same for both seats turned by 180 degrees.
START_LADDER = {"easy": (2, 2, 2, 1, 1, 1), "challenging": (2, 2, 1, 2, 1, 1)}
DEFAULT_NAMES = ("Player 1", "Player 2")
MAX_NAME = 24
RUNG_WORDS = ("Controlled by {1}", "Influenced by {1}", "Influenced by {0}", "Controlled by {0}")


class Totals:
    """One battle's numbers (R7), computed once and shared by the engine and the bots."""

    __slots__ = ("attack", "defence", "damage", "casualties", "earned", "cost", "won", "steps", "level")

    def __init__(self) -> None:
        self.attack = [0, 0]
        self.defence = [0, 0]
        self.damage = [0, 0]
        self.casualties = [0, 0]
        self.earned = [0, 0]
        self.cost = [0, 0]
        self.won = False
        self.steps = 0
        self.level = 0


def the(name: str) -> str:
    """``the Iron Mine`` but ``The Citadel``: a territory's name inside a sentence."""
    return name if name.startswith("The ") else "the " + name


def possessive(name: str) -> str:
    """``the Iron Mine's``, ``the Soldier Training Grounds'``."""
    return name + ("'" if name.endswith("s") else "'s")


def _coins(n: int) -> str:
    return f"{n} coin" if n == 1 else f"{n} coins"


def _illegal(code: str, message: str) -> IllegalAction:
    return IllegalAction(code, message)


class ReignGame(Game[State, Action]):
    """To Reign Supreme for two seats; ``rules`` defaults to the data file's."""

    id = "reign"
    #: the battle choices are secret (R10): on one device the shell passes it between seats
    hidden_information = True

    def __init__(self, rules: Rules | None = None) -> None:
        self._rules = rules
        #: values given by the caller (the bench's tuning): every edition plays with them
        self._fixed = rules is not None
        self._codec: ActionCodec | None = None

    @property
    def rules(self) -> Rules:
        if self._rules is None:
            self._rules = load_rules()
        return self._rules

    def rules_of(self, state: State) -> Rules:
        """The values ``state`` is played with: its edition's (R5, R9), unless this game was
        built with values of its own (the bench's tuning)."""
        if self._fixed or state.edition == current_edition():
            return self.rules
        return load_rules(state.edition)

    def may_recover(self, state: State) -> bool:
        """R5: Recover is "skip an action to recover after a battle" (the seed): allowed in a
        turn with a battle or within ``recover_within`` turns after one, whoever attacked
        (the turn of the battle is recorded in the state). Edition 1 allowed it any time."""
        within = self.rules_of(state).recover_within
        return within is None or (state.fought > 0 and state.turn - state.fought <= within)

    @property
    def codec(self) -> ActionCodec:
        """The action texts of this game's codes; a Recruit parses with the amounts of any
        edition (R5), so an old log's ``+1`` reaches :meth:`_recruit`, which asks its edition."""
        if self._codec is None:
            amounts = {n for ed in editions() for n in load_rules(ed).recruit_amounts.values}
            self._codec = ActionCodec(self.rules, tuple(sorted(amounts)))
        return self._codec

    # -- set-up -----------------------------------------------------------------------
    def normalize_options(self, options: Mapping[str, Any] | None) -> dict[str, Any]:
        """``setup`` "easy" (default) or "challenging" (R1); ``players`` two names (optional).

        Default names are left out so links stay short.
        """
        raw = dict(options or {})
        unknown = set(raw) - {"setup", "players", "seats"}
        if unknown:
            raise InvalidOptions("options.unknown", f"unknown option(s): {', '.join(excerpt(k, 30) for k in sorted(unknown)[:5])}")
        setup = raw.get("setup", "easy")
        if setup not in SETUPS:
            raise InvalidOptions("options.setup", f"R1: the setup is 'easy' or 'challenging', not {excerpt(setup)}")
        out: dict[str, Any] = {"setup": setup}
        seats = raw.get("seats")
        if seats is not None:
            # the page's seats: who plays each side (a person or a bot level) and its colour,
            # kept in the options so a link or save reopens them; names as under "players"
            if not isinstance(seats, list) or len(seats) != 2 or not all(isinstance(s, Mapping) for s in seats):
                raise InvalidOptions("options.seats", "To Reign Supreme has exactly two seats")
            kept = []
            for i, s in enumerate(seats):
                extra = set(s) - {"name", "colour", "bot"}
                if extra:
                    raise InvalidOptions("options.seats", f"seat {i + 1} has unknown fields: {', '.join(excerpt(k, 30) for k in sorted(extra)[:5])}")
                seat: dict[str, Any] = {}
                colour = s.get("colour")
                if colour is not None:
                    if not isinstance(colour, str) or not re.fullmatch(r"#[0-9a-fA-F]{6}", colour):
                        raise InvalidOptions("options.seats", f"seat {i + 1}'s colour must look like #56b4e9")
                    seat["colour"] = colour.lower()
                bot = s.get("bot")
                if bot is not None:
                    if bot not in self.bot_levels():
                        raise InvalidOptions("options.seats", f"seat {i + 1}'s computer level is unknown: {excerpt(bot, 40)}")
                    seat["bot"] = bot
                kept.append(seat)
            if any("name" in s for s in seats):  # names given with the seats (idempotent without)
                raw["players"] = [s.get("name") for s in seats]
            if any(kept):
                out["seats"] = kept
        players = raw.get("players")
        if players is not None:
            if not isinstance(players, list) or len(players) != 2:
                raise InvalidOptions("options.players", "To Reign Supreme has exactly two players")
            names = []
            for i, p in enumerate(players):
                name = p.get("name") if isinstance(p, Mapping) else p
                if not isinstance(name, str) or not name.strip():
                    raise InvalidOptions("options.players", f"player {i + 1} needs a name")
                name = " ".join(name.split())
                if len(name) > MAX_NAME:
                    raise InvalidOptions("options.players", f"player {i + 1}'s name is longer than {MAX_NAME}")
                names.append(name)
            if names[0].casefold() == names[1].casefold():
                raise InvalidOptions("options.players", "the two players need different names")
            if tuple(names) != DEFAULT_NAMES:
                out["players"] = names
        return out

    def new_game(self, options: Mapping[str, Any], seed: int) -> State:
        opts = self.normalize_options(options)
        r = self.rules
        names = tuple(opts.get("players", DEFAULT_NAMES))
        start = Player(wealth=r.start_wealth, military=r.start_military)
        return State(
            setup=opts["setup"],
            names=(names[0], names[1]),
            layout=(),
            ladder=START_LADDER[opts["setup"]],
            players=(start, start),
            phase="deal",
            edition=current_edition(),
        )

    # -- board questions ----------------------------------------------------------------
    def side_of(self, state: State, place: int) -> int | None:
        """R1: the seat whose side ``place`` is on (None for the Challenging middle)."""
        for seat in (0, 1):
            if place in SIDES[state.setup][seat]:
                return seat
        return None

    def in_reach(self, state: State, seat: int, place: int) -> bool:
        """R1: a card on the seat's side, or next to a card the seat Controls."""
        if place in SIDES[state.setup][seat]:
            return True
        return any(rel(state.ladder[q], seat) == 3 for q in NEIGHBOURS[place])

    def may_develop(self, state: State, seat: int, place: int) -> bool:
        """R1, the project's reading of the seed's Challenging setup: a card on nobody's side
        (the middle column) is Developed only from a Controlled neighbour.

        The seed: "the middle two Territories would not be adjacent to any Controlled
        Territories and players must first Control the adjacent Territory on their side before
        proceeding to the middle Territories". Without this a player Develops the middle card
        it starts with on turn 1 and reaches the opponent's side at once. A card on someone's
        side needs nothing more: the seed asks adjacency only to take a card from the opponent.
        """
        return self.side_of(state, place) is not None or self.in_reach(state, seat, place)

    def face(self, state: State, place: int) -> Any:
        """The face-up side of the card at ``place`` (Controlled or Influenced)."""
        t = self.rules_of(state).territories[state.layout[place]]
        return t.controlled if state.ladder[place] in (0, 3) else t.influenced

    def base(self, state: State, seat: int) -> tuple[int, int]:
        """R3: coins and swords of the seat's cards, each clamped to the tracker's range."""
        coins = swords = 0
        for p in range(len(state.layout)):
            if rel(state.ladder[p], seat) >= 2:
                f = self.face(state, p)
                coins += f.coins.value
                swords += f.swords.value
        lo, hi = self.rules_of(state).min_strength, self.rules_of(state).max_strength
        return min(hi, max(lo, coins)), min(hi, max(lo, swords))

    def bolts(self, state: State, seat: int) -> int:
        """R7, R11: damage of every card the seat Controls, except cards the active seat
        took Control of this turn (their values count from the end of the turn)."""
        total = 0
        for p in range(len(state.layout)):
            if rel(state.ladder[p], seat) == 3 and not (seat == state.active and p in state.fresh):
                total += self.face(state, p).damage.value
        return total

    def level(self, player: Player) -> int:
        """R4: the action level of a player's Wealth + Military as they stand."""
        return self.rules.actions_for(player.wealth + player.military)

    def reform_cost(self, state: State, seat: int) -> int:
        """R5: 1 coin plus 1 per card the opponent Controls."""
        r = self.rules_of(state)
        return r.reform.value + r.reform_per_control.value * state.controlled(1 - seat)

    def name(self, state: State, seat: int) -> str:
        return state.names[seat]

    def tname(self, state: State, place: int) -> str:
        return self.rules.territories[state.layout[place]].name

    def _place(self, state: State, code: str, text: str) -> int:
        try:
            return state.place_of(self.rules.territory_index(code))
        except (KeyError, ValueError):
            raise InvalidAction("action.territory", f"{excerpt(text)}: no territory has the code {excerpt(code)}") from None

    # -- whose move ---------------------------------------------------------------------
    def to_move(self, state: State) -> int | None:
        """The seat to act; None at the deal, at the secret steps (both seats) and at the end."""
        if state.phase == "turn":
            return state.active
        if state.phase == "respond":
            return 1 - state.active
        return None

    def chance(self, state: State) -> ChanceSpec | None:
        """R1: the six territory cards are shuffled and laid out: a Fisher-Yates draw."""
        if state.phase == "deal":
            return ChanceSpec("deal", tuple(range(6, 1, -1)))
        return None

    def chance_action(self, state: State, values: Sequence[int]) -> Deal:
        codes = [t.code for t in self.rules.territories]
        return Deal("".join(str(c) for c in apply_shuffle(codes, values)), state.edition)

    def outcome(self, state: State) -> Outcome | None:
        if state.winner is None:
            return None
        scores = tuple(float(state.controlled(s)) for s in (0, 1))
        return Outcome((state.winner,), f"R11: {state.names[state.winner]} Controls all six territories", scores)

    # -- secret steps -------------------------------------------------------------------
    def simultaneous(self, state: State) -> tuple[int, ...]:
        """The tracker cards at set-up and every battle's card and purchases (R10)."""
        return (0, 1) if state.phase in ("setup", "battle") else ()

    def _picks(self) -> list[Pick]:
        codes = self.codec.card_codes
        return [Pick(a + b) for a, b in combinations(codes, 2)]

    def parts(self, state: State, seat: int, canonical: bool = False) -> list[Part]:
        """R6: every card in hand with every affordable purchase set (at most 2 of a kind,
        4 in all). ``canonical``: only no purchase or one single purchase, the bounded set
        ``legal_actions`` lists (any other part is accepted by ``apply``)."""
        r = self.rules_of(state)
        player = state.players[seat]
        codec = self.codec
        k = len(r.kinds)
        if canonical:
            options = [tuple(0 for _ in range(k))] + [tuple(int(i == j) for i in range(k)) for j in range(k)]
        else:
            options = [
                c for c in product(range(r.max_each + 1), repeat=k) if sum(c) <= r.max_total
            ]
        buys = [codec.buys(c) for c in options if r.purchase_cost(c) <= player.wealth]
        return [Part(r.cards[card].code, b) for card in sorted(player.hand) for b in buys]

    def secret_choices(self, state: State, seat: int) -> list[Any]:
        if state.phase == "setup":
            return list(self._picks())
        if state.phase == "battle":
            return self.parts(state, seat)
        return []

    def join_secret(self, state: State, parts: Mapping[int, Any]) -> Action:
        """One Reveal (or Setup) from both seats' parts; IllegalAction names the ruling."""
        if state.phase not in ("setup", "battle"):
            raise _illegal("R12.phase", "R12: no secret choice is being made now")
        if set(parts) != {0, 1}:
            raise _illegal("R10.parts", "R10: both players choose before the reveal")
        got = []
        for seat in (0, 1):
            p = parts[seat]
            if state.phase == "setup":
                text = p if isinstance(p, str) else p.cards if isinstance(p, Pick) else None
                if text is None:
                    raise InvalidAction("action.part", f"{excerpt(p)} is not a choice of two tracker cards")
                p = Pick(self.codec.cards(text, text, 2))
            else:
                if isinstance(p, str):
                    p = self.codec.part(p, p)
                if not isinstance(p, Part):
                    raise InvalidAction("action.part", f"{excerpt(p)} is not a battle choice")
                self._check_part(state, seat, p)
            got.append(p)
        if state.phase == "setup":
            return Setup((got[0], got[1]))
        return Reveal((got[0], got[1]))

    # -- legal actions ------------------------------------------------------------------
    def legal_actions(self, state: State) -> list[Action]:
        """In a stable order. At a battle's secret step: every pair of the two seats'
        canonical parts (no purchase or one single purchase: at most 15 x 15 = 225)."""
        ph = state.phase
        if ph == "setup":
            picks = self._picks()
            return [Setup((a, b)) for a in picks for b in picks]
        if ph == "battle":
            return [Reveal((a, b)) for a in self.parts(state, 0, True) for b in self.parts(state, 1, True)]
        if ph == "respond":
            return [Fight(), *self._restructures(state, 1 - state.active)]
        if ph != "turn":
            return []
        return self.turn_actions(state)

    def _restructures(self, state: State, seat: int) -> list[Action]:
        """Restructure Military (any time, no action): any other pair of cards out of the
        tracker and the hand goes on the tracker, paid in coins (R5)."""
        r = self.rules_of(state)
        p = state.players[seat]
        if p.wealth < r.restructure.value or not p.hand:
            return []
        pool = sorted(p.tracker + p.hand)
        cur = tuple(sorted(p.tracker))
        return [Restructure(r.cards[a].code + r.cards[b].code) for a, b in combinations(pool, 2) if (a, b) != cur]

    @staticmethod
    def reallocations(state: State) -> list[tuple[int, ...]]:
        """Every layout one Reallocate can make (R5): the Influenced cards, both players'
        (the project's reading of "with the same player Influencing the new cards in the same
        locations"), put back in any other order in the same places; Controlled cards stay.

        Why every arrangement and not only swaps: the seed's "pick up any Influenced territory
        cards and rearrange them as you desire" is one action, so moving three cards round
        must not take two actions and twice the coins. With six Influenced cards that is
        6! - 1 = 719 layouts, in a stable order (``itertools.permutations`` of the cards
        as they lie, place by place); the bots weigh them by what they change
        (:func:`conquest.games.reign.bots.prune_reallocations`).
        """
        infl = state.influenced()
        cards = tuple(state.layout[q] for q in infl)
        out: list[tuple[int, ...]] = []
        for perm in permutations(cards):
            if perm == cards:
                continue
            lay = list(state.layout)
            for q, t in zip(infl, perm, strict=True):
                lay[q] = t
            out.append(tuple(lay))
        return out

    def reallocate_words(self, state: State, action: Reallocate) -> str:
        """Where each moved card goes, named by the card that lay there: "the Iron Mine and
        The Citadel change places", or for more cards "the Iron Mine to The Citadel's place,
        The Citadel to the Merchant Harbour's place, …" (the log's and the page's words, R5)."""
        r = self.rules_of(state)
        try:
            lay = [r.territory_index(c) for c in self.codec.layout(action.layout, str(action))]
        except (InvalidAction, KeyError):
            return excerpt(str(action))
        if len(lay) != len(state.layout):
            return excerpt(str(action))
        names = [r.territories[t].name for t in state.layout]
        moves = [(r.territories[t].name, q) for q, t in enumerate(lay) if t != state.layout[q]]
        if len(moves) == 2:  # two cards moved: a swap, named as they lay
            return f"{the(names[moves[0][1]])} and {the(names[moves[1][1]])} change places"
        parts = [f"{the(card)} to {possessive(the(names[q]))} place" for card, q in moves]
        return ", ".join(parts) if parts else "nothing moves"

    def turn_actions(self, state: State) -> list[Action]:
        r = self.rules_of(state)
        me = state.active
        p = state.players[me]
        out: list[Action] = []
        if state.actions_left > 0:
            codes = [t.code for t in r.territories]
            places = range(6)
            for q in places:
                if rel(state.ladder[q], me) <= 1 and self.in_reach(state, me, q):
                    out.append(Battle(codes[state.layout[q]]))
            reform = self.reform_cost(state, me)
            if p.wealth >= reform:
                for q in places:
                    if rel(state.ladder[q], me) == 1 and self.in_reach(state, me, q):
                        out.append(Reform(codes[state.layout[q]]))
            if p.wealth >= r.develop.value:
                for q in places:
                    if rel(state.ladder[q], me) == 2 and self.may_develop(state, me, q):
                        out.append(Develop(codes[state.layout[q]]))
            if p.wealth >= r.reallocate.value:
                out.extend(Reallocate("".join(codes[t] for t in lay)) for lay in self.reallocations(state))
            hi = r.max_strength
            for n in r.recruit_amounts.values:
                if p.wealth >= n * r.recruit_rate.value and p.military + n <= hi:
                    out.append(Recruit(n))
            for n in range(1, r.disband_max.value + 1):
                if p.military >= n and p.wealth + n * r.disband_rate.value <= hi:
                    out.append(Disband(n))
            if self.may_recover(state):
                out.append(Recover())
            if p.discard:
                ds = sorted(p.discard)
                for k in range(1, len(ds) + 1):
                    for sub in combinations(ds, k):
                        out.append(WarCouncil("".join(r.cards[c].code for c in sub)))
        out.extend(self._restructures(state, me))
        out.append(EndTurn())
        return out

    # -- applying -----------------------------------------------------------------------
    def parse_action(self, text: str) -> Action:
        return self.codec.parse(text)

    def apply(self, state: State, action: Action) -> State:
        if isinstance(action, str):
            action = self.parse_action(action)
        handler = self._HANDLERS.get(type(action))
        if handler is None:
            raise InvalidAction("action.type", f"not an action of To Reign Supreme: {excerpt(action)}")
        if state.phase == "over":
            raise _illegal("R11.over", f"R11: {action}: the game is over, {state.names[state.winner or 0]} has won")
        return handler(self, state, action)

    def _phase(self, state: State, action: Action, *phases: str) -> None:
        """R12 (turn order and phases, the project's reading): each action has its moment."""
        if state.phase not in phases:
            now = {
                "deal": "the territory cards are being dealt",
                "setup": "both players are choosing their tracker cards",
                "turn": f"it is {state.names[state.active]}'s turn",
                "respond": f"{state.names[1 - state.active]} is answering a declared battle",
                "battle": "both players are choosing their battle cards and purchases",
            }.get(state.phase, state.phase)
            raise _illegal("R12.phase", f"R12: {action}: not now: {now}")

    def _need_action(self, state: State, action: Action) -> None:
        self._phase(state, action, "turn")
        if state.actions_left <= 0:
            raise _illegal("R4.no-actions", f"R4: {action}: {state.names[state.active]} has no action left this turn")

    def _pay(self, state: State, seat: int, coins: int, action: Action, ruling: str) -> Player:
        p = state.players[seat]
        if p.wealth < coins:
            raise _illegal(
                f"{ruling}.coins",
                f"{ruling}: {action} costs {coins} coin{'s' if coins != 1 else ''}; "
                f"{state.names[seat]} has {p.wealth}",
            )
        return replace(p, wealth=p.wealth - coins)

    @staticmethod
    def _set_player(state: State, seat: int, p: Player) -> tuple[Player, Player]:
        return (p, state.players[1]) if seat == 0 else (state.players[0], p)

    def _used(self, state: State, **changes: Any) -> State:
        """One action spent; the turn ends by itself when nothing is left to do."""
        s = replace(state, actions_left=state.actions_left - 1, **changes)
        return self._settle(s)

    def _settle(self, s: State) -> State:
        s = self._check_win(s)
        if s.phase == "turn" and s.actions_left <= 0 and not self._restructures(s, s.active):
            return self._start_turn(s, 1 - s.active)
        return s

    def _check_win(self, s: State) -> State:
        """R11: the first to Control all six wins at once."""
        for seat in (0, 1):
            if s.controlled(seat) == 6:
                return replace(s, phase="over", winner=seat, battle=None, actions_left=0)
        return s

    def _start_turn(self, s: State, seat: int) -> State:
        """Resupply (R3) and count the actions (R4); new Control is in force (R11)."""
        r = self.rules_of(s)
        coins, swords = self.base(s, seat)
        p = s.players[seat]
        p = replace(p, wealth=max(p.wealth, coins), military=max(p.military, swords))
        turn = s.turn + 1
        n = self.level(p)
        if turn == 1:
            n = min(n, r.first_turn_actions)
        return replace(
            s,
            players=self._set_player(s, seat, p),
            phase="turn",
            active=seat,
            turn=turn,
            actions_left=n,
            fresh=(),
            battle=None,
        )

    def _deal(self, state: State, a: Deal) -> State:
        """The layout, and the edition of the values the game is played with from here on:
        the deal's (a log made before edition 2 wrote none: edition 1)."""
        self._phase(state, a, "deal")
        if a.edition not in editions():
            raise _illegal(
                "R9.edition",
                f"R9: {a}: no edition {a.edition} of the reconstructed values "
                f"(editions: {', '.join(map(str, editions()))})",
            )
        s = replace(state, edition=a.edition)
        r = self.rules_of(s)
        layout = tuple(r.territory_index(c) for c in self.codec.layout(a.layout, str(a)))
        return replace(s, layout=layout, phase="setup")

    def _setup(self, state: State, a: Setup) -> State:
        self._phase(state, a, "setup")
        r = self.rules_of(state)
        players = []
        for seat in (0, 1):
            cards = self.codec.cards(a.picks[seat].cards, str(a), 2)
            tracker = tuple(r.card_index(c) for c in cards)
            hand = tuple(i for i in range(len(r.cards)) if i not in tracker)
            players.append(replace(state.players[seat], tracker=tracker, hand=hand, discard=()))
        s = replace(state, players=(players[0], players[1]))
        return self._start_turn(s, 0)

    def _battle(self, state: State, a: Battle) -> State:
        self._need_action(state, a)
        me = state.active
        q = self._place(state, a.t, str(a))
        name = self.tname(state, q)
        if rel(state.ladder[q], me) >= 2:
            raise _illegal("R2.own", f"R2: {a}: {state.names[me]} already holds {the(name)}; battles are over the opponent's cards")
        if not self.in_reach(state, me, q):
            raise _illegal(
                "R1.adjacent",
                f"R1: {a}: {the(name)} is not on {state.names[me]}'s side and not next to a card {state.names[me]} Controls",
            )
        s = replace(state, actions_left=state.actions_left - 1, battle=Pending(me, q))
        phase = "respond" if self._restructures(s, 1 - me) else "battle"
        return replace(s, phase=phase)

    def _fight(self, state: State, a: Fight) -> State:
        self._phase(state, a, "respond")
        return replace(state, phase="battle")

    def _check_part(self, state: State, seat: int, part: Part) -> tuple[int, tuple[int, ...], int]:
        r = self.rules_of(state)
        p = state.players[seat]
        if not isinstance(part, Part) or self.codec.part(str(part), str(part)) != part:
            raise InvalidAction("action.part", f"{excerpt(part)} is not a battle choice in canonical form")
        card = r.card_index(part.card)
        if card not in p.hand:
            held = ", ".join(r.cards[c].name for c in sorted(p.hand)) or "nothing"
            raise _illegal(
                "R10.hand",
                f"R10: {part}: {r.cards[card].name} is not in {state.names[seat]}'s hand (it holds {held})",
            )
        counts = self.codec.counts(part)
        cost = r.purchase_cost(counts)
        if cost > p.wealth:
            raise _illegal(
                "R6.coins",
                f"R6: {part}: these purchases cost {cost} coins (1 for the first of a kind, 2 for the second); "
                f"{state.names[seat]} has {p.wealth}",
            )
        return card, counts, cost

    def side_terms(
        self, state: State, seat: int, card: int | None, counts: Sequence[int]
    ) -> dict[str, list[tuple[str, int]]]:
        """R7's three sums of one side in the battle under way, term by term, each with its label.

        Why terms and not totals: the battle screen shows the arithmetic ("9 = 6 Military + 3
        Steady Advance"), and the totals the engine decides with must be the same numbers, so
        both read this one place. ``card`` may be None while a player is still choosing.
        """
        r = self.rules_of(state)
        pend = state.battle
        assert pend is not None
        p = state.players[seat]
        attack: list[tuple[str, int]] = [("Military", p.military)]
        defence: list[tuple[str, int]] = []
        damage: list[tuple[str, int]] = []
        if card is not None:
            c = r.cards[card]
            attack.append((c.name, c.attack.value))
            defence.append((c.name, c.defence.value))
            damage.append((c.name, c.damage.value))
        if seat != pend.attacker and state.controls(seat, pend.place):
            heart = self.face(state, pend.place).heart.value
            if heart:
                defence.append((f"{self.tname(state, pend.place)} heart", heart))
        bolts = self.bolts(state, seat)
        if bolts:
            damage.append(("Controlled cards' bolts", bolts))
        for kind, n in zip(r.kinds, counts, strict=True):
            if not n:
                continue
            label = f"{n} {kind.name if n == 1 else kind.plural}"
            for terms, v in ((attack, kind.attack), (defence, kind.defence), (damage, kind.damage)):
                if v:
                    terms.append((label, v * n))
        return {"attack": attack, "defence": defence, "damage": damage}

    def battle_totals(self, state: State, parts: tuple[Part, Part]) -> tuple[Totals, list[Any]]:
        """R6-R8: every number of the battle under way, without changing anything."""
        r = self.rules_of(state)
        pend = state.battle
        assert pend is not None
        att, dfd = pend.attacker, 1 - pend.attacker
        t = Totals()
        info = []
        hired = [0, 0]
        for seat in (0, 1):
            card_i, counts, cost = self._check_part(state, seat, parts[seat])
            terms = self.side_terms(state, seat, card_i, counts)
            t.attack[seat], t.defence[seat], t.damage[seat] = (sum(n for _, n in terms[k]) for k in ("attack", "defence", "damage"))
            t.cost[seat] = cost
            hired[seat] = sum(n for kind, n in zip(r.kinds, counts, strict=True) if kind.dies_first)
            info.append((card_i, r.cards[card_i]))
        for seat in (0, 1):
            raw = max(0, t.damage[1 - seat] - t.defence[seat])
            # you cannot lose more troops than you have: casualties stop at hired + Military
            t.casualties[seat] = min(raw, hired[seat] + state.players[seat].military)
        for seat in (0, 1):
            t.earned[seat] = t.casualties[1 - seat] * info[seat][1].coins.value
        # R8: the defender's action level as the tracker shows it, before the battle's
        # purchases are paid (the Rules card tracks battle spending, not the tracker)
        t.level = self.level(state.players[dfd])
        t.won = t.attack[att] > t.attack[dfd]
        margin = t.attack[att] - t.attack[dfd]
        if t.won:
            t.steps = r.steps_big_win if margin > t.level else r.steps_win
        elif t.casualties[dfd] >= r.casualties_for_step:
            t.steps = r.steps_loss
        else:
            t.steps = 0
        return t, [hired, info]

    def _reveal(self, state: State, a: Reveal) -> State:
        self._phase(state, a, "battle")
        r = self.rules_of(state)
        pend = state.battle
        assert pend is not None
        t, (hired, info) = self.battle_totals(state, a.parts)
        att = pend.attacker
        players = []
        hi = r.max_strength
        for seat in (0, 1):
            p = state.players[seat]
            lost = max(0, t.casualties[seat] - hired[seat])  # R7: hired troops die first
            card_i = info[seat][0]
            hand = tuple(c for c in p.hand if c != card_i)
            discard = tuple(sorted((*p.discard, card_i)))
            if not hand:  # the last card played: the discards come back (battle order 2)
                hand, discard = discard, ()
            players.append(
                replace(
                    p,
                    wealth=min(hi, p.wealth - t.cost[seat] + t.earned[seat]),
                    military=max(r.min_strength, p.military - lost),
                    hand=hand,
                    discard=discard,
                )
            )
        before = state.ladder[pend.place]
        after = min(3, before + t.steps) if att == 0 else max(0, before - t.steps)
        ladder = list(state.ladder)
        ladder[pend.place] = after
        fresh = state.fresh
        if rel(after, att) == 3 and rel(before, att) != 3:
            fresh = (*fresh, pend.place)
        report = Report(
            attacker=att,
            place=pend.place,
            territory=state.layout[pend.place],
            parts=(str(a.parts[0]), str(a.parts[1])),
            attack=(t.attack[0], t.attack[1]),
            defence=(t.defence[0], t.defence[1]),
            damage=(t.damage[0], t.damage[1]),
            casualties=(t.casualties[0], t.casualties[1]),
            earned=(t.earned[0], t.earned[1]),
            level=t.level,
            steps=t.steps,
            before=before,
            after=after,
        )
        s = replace(
            state,
            players=(players[0], players[1]),
            ladder=tuple(ladder),
            fresh=fresh,
            battle=None,
            last=report,
            phase="turn",
            fought=state.turn,
        )
        return self._settle(s)

    def _reform(self, state: State, a: Reform) -> State:
        self._need_action(state, a)
        me = state.active
        q = self._place(state, a.t, str(a))
        name = self.tname(state, q)
        if rel(state.ladder[q], me) != 1:
            raise _illegal("R2.reform", f"R2: {a}: Reform turns a card the opponent Influences (not Controls); {the(name)} is not one")
        if not self.in_reach(state, me, q):
            raise _illegal("R1.adjacent", f"R1: {a}: {the(name)} is not on {state.names[me]}'s side and not next to a card {state.names[me]} Controls")
        p = self._pay(state, me, self.reform_cost(state, me), a, "R5")
        ladder = list(state.ladder)
        ladder[q] = 2 if me == 0 else 1
        return self._used(state, players=self._set_player(state, me, p), ladder=tuple(ladder))

    def _develop(self, state: State, a: Develop) -> State:
        self._need_action(state, a)
        me = state.active
        q = self._place(state, a.t, str(a))
        if rel(state.ladder[q], me) != 2:
            raise _illegal("R2.develop", f"R2: {a}: Develop turns a card {state.names[me]} Influences into Control; {the(self.tname(state, q))} is not one")
        if not self.may_develop(state, me, q):
            raise _illegal(
                "R1.middle",
                f"R1: {a}: {the(self.tname(state, q))} is on nobody's side; {state.names[me]} must first "
                "Control a card next to it (the seed: Control the adjacent card on one's side first)",
            )
        p = self._pay(state, me, self.rules_of(state).develop.value, a, "R5")
        ladder = list(state.ladder)
        ladder[q] = 3 if me == 0 else 0
        return self._used(state, players=self._set_player(state, me, p), ladder=tuple(ladder), fresh=(*state.fresh, q))

    def _reallocate(self, state: State, a: Reallocate) -> State:
        self._need_action(state, a)
        r = self.rules_of(state)
        me = state.active
        layout = tuple(r.territory_index(c) for c in self.codec.layout(a.layout, str(a)))
        if layout == state.layout:
            raise _illegal("R5.reallocate", f"R5: {a}: Reallocate must move at least one card")
        influenced = state.influenced()
        for q in range(len(layout)):
            if layout[q] != state.layout[q] and q not in influenced:
                raise _illegal(
                    "R5.reallocate",
                    f"R5: {a}: only Influenced cards are picked up; {the(self.tname(state, q))} is Controlled and stays",
                )
        p = self._pay(state, me, r.reallocate.value, a, "R5")
        return self._used(state, players=self._set_player(state, me, p), layout=layout)

    def _recruit(self, state: State, a: Recruit) -> State:
        """R5: Recruit buys one of the amounts the data file lists for the game's edition
        (edition 4: 2 or 3; edition 1: 1 or 2; editions 2 and 3: 1, 2 or 3), so an old log's
        ``+1`` replays as it was played and a game of edition 4 refuses it (``R5.amount``)."""
        self._need_action(state, a)
        r = self.rules_of(state)
        me = state.active
        if a.n not in r.recruit_amounts.values:
            if self._fixed:
                where = "with these values"
            else:
                allowed = [str(ed) for ed in editions() if a.n in load_rules(ed).recruit_amounts.values]
                listed = ", ".join(allowed[:-1]) + f" and {allowed[-1]}" if len(allowed) > 1 else "".join(allowed)
                where = f"in this game (edition {state.edition} of the values" + (
                    f"; games of edition{'s' if len(allowed) > 1 else ''} {listed} allowed Recruit {a.n}"
                    if allowed else ""
                ) + ")"
            raise _illegal("R5.amount", f"R5: {a}: Recruit buys {r.recruit_amounts.words()} Military at a time {where}")
        p = self._pay(state, me, a.n * r.recruit_rate.value, a, "R5")
        if p.military + a.n > r.max_strength:
            raise _illegal("R3.range", f"R3: {a}: Military cannot go above {r.max_strength}")
        return self._used(state, players=self._set_player(state, me, replace(p, military=p.military + a.n)))

    def _disband(self, state: State, a: Disband) -> State:
        self._need_action(state, a)
        r = self.rules_of(state)
        me = state.active
        p = state.players[me]
        if p.military < a.n:
            raise _illegal("R5.military", f"R5: {a}: {state.names[me]} has only {p.military} Military")
        gain = a.n * r.disband_rate.value
        if p.wealth + gain > r.max_strength:
            raise _illegal("R3.range", f"R3: {a}: Wealth cannot go above {r.max_strength}")
        p = replace(p, military=p.military - a.n, wealth=p.wealth + gain)
        return self._used(state, players=self._set_player(state, me, p))

    def _recover(self, state: State, a: Recover) -> State:
        self._need_action(state, a)
        r = self.rules_of(state)
        me = state.active
        if not self.may_recover(state):
            since = "this turn" if r.recover_within == 0 else f"this turn or in the last {r.recover_within} turns"
            raise _illegal(
                "R5.recover",
                f"R5: {a}: Recover is skipping an action to recover after a battle; you fought no battle {since}",
            )
        p = state.players[me]
        hi = r.max_strength
        p = replace(
            p,
            wealth=min(hi, p.wealth + r.recover_coins.value),
            military=min(hi, p.military + r.recover_military.value),
        )
        return self._used(state, players=self._set_player(state, me, p))

    def _war_council(self, state: State, a: WarCouncil) -> State:
        self._need_action(state, a)
        r = self.rules_of(state)
        me = state.active
        p = state.players[me]
        cards = [r.card_index(c) for c in self.codec.cards(a.cards, str(a))]
        for c in cards:
            if c not in p.discard:
                raise _illegal("R5.war-council", f"R5: {a}: {r.cards[c].name} is not among {state.names[me]}'s discarded cards")
        p = self._pay(state, me, r.war_council.value, a, "R5")
        p = replace(
            p,
            hand=tuple(sorted((*p.hand, *cards))),
            discard=tuple(c for c in p.discard if c not in cards),
        )
        return self._used(state, players=self._set_player(state, me, p))

    def _restructure(self, state: State, a: Restructure) -> State:
        self._phase(state, a, "turn", "respond")
        r = self.rules_of(state)
        seat = state.active if state.phase == "turn" else 1 - state.active
        p = state.players[seat]
        new = tuple(r.card_index(c) for c in self.codec.cards(a.tracker, str(a), 2))
        pool = set(p.tracker) | set(p.hand)
        if not set(new) <= pool:
            raise _illegal(
                "R5.restructure",
                f"R5: {a}: the tracker takes cards from the tracker and the hand only, not discarded ones",
            )
        if set(new) == set(p.tracker):
            raise _illegal("R5.restructure", f"R5: {a}: these are the tracker cards already")
        p = self._pay(state, seat, r.restructure.value, a, "R5")
        hand = tuple(sorted(pool - set(new)))
        p = replace(p, tracker=tuple(sorted(new)), hand=hand)
        s = replace(state, players=self._set_player(state, seat, p))
        if state.phase == "respond":
            return replace(s, phase="battle")
        return self._settle(s)

    def _end_turn(self, state: State, a: EndTurn) -> State:
        self._phase(state, a, "turn")
        return self._start_turn(state, 1 - state.active)

    _HANDLERS: dict[type, Callable[[ReignGame, State, Any], State]] = {
        Deal: _deal,
        Setup: _setup,
        Battle: _battle,
        Fight: _fight,
        Reveal: _reveal,
        Reform: _reform,
        Develop: _develop,
        Reallocate: _reallocate,
        Recruit: _recruit,
        Disband: _disband,
        Recover: _recover,
        WarCouncil: _war_council,
        Restructure: _restructure,
        EndTurn: _end_turn,
    }

    # -- words --------------------------------------------------------------------------
    def part_words(self, part: Part) -> str:
        """``Steady Advance and 1 Mercenary``: a battle part in plain words."""
        r = self.rules
        try:
            name = r.cards[r.card_index(part.card)].name
        except KeyError:
            return str(part)
        bits = []
        for kind, n in zip(r.kinds, self.codec.counts(part), strict=True):
            if n:
                bits.append(f"{n} {kind.name if n == 1 else kind.plural}")
        if not bits:
            return name
        items = [name, *bits]
        return ", ".join(items[:-1]) + " and " + items[-1]

    def rung_words(self, state: State, rung: int) -> str:
        return RUNG_WORDS[rung].format(*state.names)

    def describe_action(self, state: State, action: Action) -> str:
        r = self.rules_of(state)
        who = state.names[state.active]
        try:
            if isinstance(action, Deal):
                names = [r.territories[r.territory_index(c)].name for c in action.layout]
                return f"The territories are dealt: {', '.join(names[:3])} / {', '.join(names[3:])}"
            if isinstance(action, Setup):
                bits = []
                for seat in (0, 1):
                    cards = [r.cards[r.card_index(c)].name for c in action.picks[seat].cards]
                    bits.append(f"{state.names[seat]} lays {' and '.join(cards)} on the tracker")
                return "; ".join(bits)
            if isinstance(action, (Battle, Reform, Develop)):
                q = self._place(state, action.t, str(action))
                name = self.tname(state, q)
                if isinstance(action, Battle):
                    return f"{who} attacks {the(name)}"
                if isinstance(action, Reform):
                    return f"{who} Reforms {the(name)} ({_coins(self.reform_cost(state, state.active))})"
                return f"{who} Develops {the(name)} ({_coins(r.develop.value)})"
            if isinstance(action, Fight):
                return f"{state.names[1 - state.active]} defends without restructuring"
            if isinstance(action, Reveal) and state.battle is not None:
                att = state.battle.attacker
                name = self.tname(state, state.battle.place)
                text = (
                    f"{state.names[att]} attacks {the(name)} with {self.part_words(action.parts[att])}; "
                    f"{state.names[1 - att]} defends with {self.part_words(action.parts[1 - att])}"
                )
                try:
                    after = self.apply(state, action).last
                except (InvalidAction, IllegalAction):
                    return text
                assert after is not None
                return text + ". " + self.report_words(state, after)
            if isinstance(action, Reallocate):
                return f"{who} Reallocates: {self.reallocate_words(state, action)}"
            if isinstance(action, Recruit):
                return f"{who} recruits {action.n} Military for {_coins(action.n * r.recruit_rate.value)}"
            if isinstance(action, Disband):
                return f"{who} disbands {action.n} Military for {_coins(action.n * r.disband_rate.value)}"
            if isinstance(action, Recover):
                return f"{who} recovers (+{r.recover_coins.value} Wealth, +{r.recover_military.value} Military)"
            if isinstance(action, WarCouncil):
                cards = [r.cards[r.card_index(c)].name for c in action.cards]
                return f"{who} holds a War Council and takes back {' and '.join(cards)}"
            if isinstance(action, Restructure):
                seat = state.active if state.phase != "respond" else 1 - state.active
                cards = [r.cards[r.card_index(c)].name for c in action.tracker]
                return f"{state.names[seat]} restructures: {' and '.join(cards)} go on the tracker ({_coins(r.restructure.value)})"
            if isinstance(action, EndTurn):
                return f"{who} ends the turn"
        except (KeyError, ValueError):
            pass
        return str(action)

    def report_words(self, state: State, rep: Report) -> str:
        """The result of a battle in plain words."""
        att, dfd = rep.attacker, rep.defender
        a, d = state.names[att], state.names[dfd]
        name = self.rules_of(state).territories[rep.territory].name
        head = (
            f"{a} wins {rep.attack[att]} to {rep.attack[dfd]}"
            if rep.won
            else f"{d} holds, {rep.attack[dfd]} to {rep.attack[att]}"
        )
        loss = f"casualties {a} {rep.casualties[att]}, {d} {rep.casualties[dfd]}"
        earn = f"spoils {a} {rep.earned[att]}, {d} {rep.earned[dfd]} coins"
        if rep.steps:
            moved = f"{the(name)} is now {self.rung_words(state, rep.after)}"
        else:
            moved = f"{the(name)} stays {self.rung_words(state, rep.after)}"
        return f"{head}; {loss}; {earn}; {moved}"

    # -- JSON and views -----------------------------------------------------------------
    def state_to_json(self, state: State) -> dict[str, Any]:
        return state_to_json(state)

    def state_from_json(self, obj: Mapping[str, Any]) -> State:
        return state_from_json(obj)

    def stats(self, state: State) -> dict[str, list[float]]:
        return {
            "Wealth": [float(p.wealth) for p in state.players],
            "Military": [float(p.military) for p in state.players],
            "Territories controlled": [float(state.controlled(s)) for s in (0, 1)],
        }

    def view(self, state: State, player: int | None) -> dict[str, Any]:
        """Everything on the table, for any seat: the same for both (see below).

        Hands are open information in this game: every player has the same five cards, the
        two on the tracker lie face up and played cards are revealed and discarded face up,
        so each hand is known by elimination. The only secrets are the choices of a secret
        step, and those never enter the state (R10). A seat's view adds the choices it may
        make at such a step (what its controls offer), never the choice itself.
        """
        r = self.rules_of(state)
        out_of = self.outcome(state)
        places = []
        for q in range(6):
            item: dict[str, Any] = {
                "place": q,
                "row": q // COLS,
                "col": q % COLS,
                "side": self.side_of(state, q),
                "rung": state.ladder[q],
                "holder": state.holder(q),
                "controlled": state.ladder[q] in (0, 3),
            }
            if state.layout:
                t = r.territories[state.layout[q]]
                f = self.face(state, q)
                item.update(
                    territory=t.code,
                    name=t.name,
                    state=self.rung_words(state, state.ladder[q]),
                    face={"coins": f.coins.value, "swords": f.swords.value, "damage": f.damage.value, "heart": f.heart.value},
                    fresh=q in state.fresh,
                    reach=[self.in_reach(state, s, q) for s in (0, 1)],
                )
            places.append(item)
        players = []
        for seat in (0, 1):
            p = state.players[seat]
            coins, swords = self.base(state, seat) if state.layout else (0, 0)
            players.append(
                {
                    "name": state.names[seat],
                    "wealth": p.wealth,
                    "military": p.military,
                    "action_level": self.level(p),
                    "base": {"coins": coins, "swords": swords},
                    "tracker": [r.cards[c].code for c in p.tracker],
                    "hand": [r.cards[c].code for c in p.hand],
                    "discard": [r.cards[c].code for c in p.discard],
                    "controlled": state.controlled(seat),
                }
            )
        view: dict[str, Any] = {
            "game": self.id,
            "setup": state.setup,
            "phase": state.phase,
            "turn": state.turn,
            "active": state.active,
            "to_move": self.to_move(state),
            "actions_left": state.actions_left,
            "places": places,
            "players": players,
            "battle": None,
            "last_battle": None,
            "secret": None,
            "outcome": out_of.to_json() if out_of else None,
            "state": state_to_json(state),
        }
        if state.battle is not None:
            b = state.battle
            view["battle"] = {
                "attacker": b.attacker,
                "place": b.place,
                "territory": r.territories[state.layout[b.place]].code,
                "defender_level": self.level(state.players[1 - b.attacker]),
            }
        if state.last is not None:
            rep = state.last
            view["last_battle"] = {**state_to_json(state)["last"], "won": rep.won, "words": self.report_words(state, rep)}
        seats = self.simultaneous(state)
        if seats:
            secret: dict[str, Any] = {"seats": list(seats)}
            if player in seats:
                secret["choices"] = [str(c) for c in self.secret_choices(state, player)]
            view["secret"] = secret
        return view

    # -- the shell's extras -------------------------------------------------------------
    def bot_levels(self) -> dict[str, Callable[[Any], Any]]:
        from conquest.games.reign.bots import BOT_LEVELS

        return dict(BOT_LEVELS)

    def rules_tables(self) -> dict[str, dict[str, Any]]:
        from conquest.games.reign.tables import rules_tables

        return rules_tables(self.rules)

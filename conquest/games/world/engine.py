"""The World Conquest rules (rulings W1-W9) as a :class:`conquest.core.Game`.

Why the engine does all the counting: reinforcements (W4), the game-wide trade values (W5),
the dice limits and the move-in count (W6) are what people get wrong at a table; here every
number follows the ruling it is named after, and a refused action changes nothing and
quotes the ruling that refused it.

Choices where the rulings are silent are documented where they are made and listed in the
docstring of :mod:`conquest.games.world`.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Any

from conquest.core import ChanceSpec, Game, IllegalAction, InvalidAction, InvalidOptions, Outcome, excerpt
from conquest.rng import apply_shuffle

from . import odds
from .actions import (
    SETS,
    Action,
    Attack,
    Blitz,
    Deal,
    Defend,
    Draw,
    EndTurn,
    Fortify,
    Order,
    Place,
    Roll,
    Trade,
    parse_action,
)
from .rules import CARD_KINDS, CARD_NAMES, RULES
from .state import CHANCE_PHASES, Battle, Cards, State
from .state import evolve as replace

__all__ = ["WorldGame", "conceal", "reinforcements", "set_cards"]

N = RULES.size
MAX_NAME = 40
_COLOUR = re.compile(r"#[0-9a-fA-F]{6}")
_OPTION_KEYS = {"seats", "players", "order", "deal", "defender_choice"}
_NO_CARDS: Cards = (0, 0, 0)


def _illegal(code: str, action: Action | str, message: str) -> IllegalAction:
    """Every refusal names the action as written and the ruling: "'a0-29x3': W6: ..."."""
    return IllegalAction(code, f"'{action}': {message}")


def set_cards(cards: str) -> Cards:
    """The count triple of a set in :data:`SETS` ("iii" -> (3, 0, 0), "ica" -> (1, 1, 1))."""
    return (cards.count("i"), cards.count("c"), cards.count("a"))


def _sub(a: Cards, b: Cards) -> Cards:
    return (a[0] - b[0], a[1] - b[1], a[2] - b[2])


def _add(a: Cards, b: Cards) -> Cards:
    return (a[0] + b[0], a[1] + b[1], a[2] + b[2])


def _sets_in(hand: Cards) -> list[str]:
    """W5: the sets a hand can trade, in the order of :data:`SETS`."""
    return [s for s in SETS if all(h >= n for h, n in zip(hand, set_cards(s), strict=True))]


def reinforcements(state: State, seat: int) -> tuple[int, list[int]]:
    """W4 without cards: (max(3, territories // 3), indices of the continents held)."""
    owner = state.owner
    held = [ci for ci, c in enumerate(RULES.continents) if all(owner[t] == seat for t in c.members)]
    return RULES.base_reinforcement(owner.count(seat)), held


def conceal(state: State, seat: int | None) -> State:
    """The state as ``seat`` may know it: other hands and the deck replaced by a stand-in.

    Why: bots receive the whole state, but W5 hands are secret. A bot calls this first and
    thinks on the result only. What a seat knows of the cards it does not hold is the
    unseen pool (all cards minus its hand minus the public discards) and how many cards
    each other hand and the deck hold; the stand-in deals that pool out by a fixed rule
    (kinds in turn, most plentiful first), so it depends on nothing else.
    """
    seen = state.hands[seat] if seat is not None and 0 <= seat < state.n else _NO_CARDS
    pool = list(_sub(_sub(RULES.deck, seen), state.discard))
    hands = []

    def take(k: int) -> Cards:
        got = [0, 0, 0]
        for _ in range(k):
            i = 0 if pool[0] >= pool[1] and pool[0] >= pool[2] else (1 if pool[1] >= pool[2] else 2)
            pool[i] -= 1
            got[i] += 1
        return (got[0], got[1], got[2])

    for s in range(state.n):
        hands.append(seen if s == seat else take(state.hand_size(s)))
    deck = take(sum(state.deck))
    return replace(state, hands=tuple(hands), deck=deck)


#: a card drawn, as the log reads for every seat but the drawer's (W5)
MASKED_DRAW = "C?"


class WorldGame(Game[State, Action]):
    """World Conquest: 3-6 seats, 42 territories, dice and cards (rulings W1-W9)."""

    id = "world"
    #: W5: hands are secret (other seats see only how many cards each holds)
    hidden_information = True

    # -- options --------------------------------------------------------------------------------
    def normalize_options(self, options: Mapping[str, Any] | None) -> dict[str, Any]:
        """``seats`` (the shell's list of {name, colour, bot}) or ``players`` (a count);
        ``order`` "random" (W2 default) or "fixed"; ``deal`` (W3 random deal);
        ``defender_choice`` (W6: ask the defender for dice instead of rolling the most).

        Defaults are left out of the result so links stay short; the result is idempotent.
        """
        o = dict(options or {})
        unknown = sorted(set(o) - _OPTION_KEYS)
        if unknown:
            raise InvalidOptions("options.unknown", f"unknown World Conquest options: {', '.join(excerpt(k, 30) for k in unknown[:5])}")
        lo, hi = self.min_players, self.max_players
        raw = o.get("seats")
        if raw is None:
            count = o.get("players", lo)
            if not isinstance(count, int) or isinstance(count, bool):
                raise InvalidOptions("options.players", f"W2: players is a number {lo}..{hi}")
            raw = [{"name": f"Player {i + 1}"} for i in range(count)]
        elif "players" in o and o["players"] != (len(raw) if isinstance(raw, list) else None):
            raise InvalidOptions("options.players", "give either seats or players, or both agreeing")
        if not isinstance(raw, list) or not lo <= len(raw) <= hi:
            raise InvalidOptions("options.seats", f"W2: World Conquest has {lo} to {hi} seats")
        seats: list[dict[str, str]] = []
        seen: set[str] = set()
        for i, item in enumerate(raw):
            if isinstance(item, str):
                item = {"name": item}
            if not isinstance(item, Mapping) or set(item) - {"name", "colour", "bot"}:
                raise InvalidOptions("options.seats", f"seat {i + 1} must be {{name, colour, bot}}")
            name = item.get("name") or f"Player {i + 1}"
            if not isinstance(name, str) or not name.strip() or len(name) > MAX_NAME:
                raise InvalidOptions("options.seats", f"seat {i + 1} needs a name of 1 to {MAX_NAME} characters")
            name = " ".join(name.split())
            if name.casefold() in seen:
                raise InvalidOptions("options.seats", f"two seats are called {excerpt(name)}")
            seen.add(name.casefold())
            seat = {"name": name}
            colour = item.get("colour")
            if colour is not None:
                if not isinstance(colour, str) or not _COLOUR.fullmatch(colour):
                    raise InvalidOptions("options.seats", f"{name}'s colour must look like #56b4e9")
                seat["colour"] = colour.lower()
            bot = item.get("bot")
            if bot is not None:
                if not isinstance(bot, str) or not 0 < len(bot) <= MAX_NAME:
                    raise InvalidOptions("options.seats", f"{name}'s bot level must be a level name")
                seat["bot"] = bot
            seats.append(seat)
        out: dict[str, Any] = {"seats": seats}
        order = o.get("order", "random")
        if order not in ("random", "fixed"):
            raise InvalidOptions("options.order", "W2: the seat order is 'random' or 'fixed' (as seated)")
        if order == "fixed":
            out["order"] = "fixed"
        for key in ("deal", "defender_choice"):
            val = o.get(key, False)
            if not isinstance(val, bool):
                raise InvalidOptions(f"options.{key}", f"{key} is true or false")
            if val:
                out[key] = True
        n = len(seats)
        start = RULES.start_troops.get(n)
        if start is None or start * n < N:
            raise InvalidOptions("options.seats", f"W3: no start troops for {n} seats in the data file")
        return out

    def new_game(self, options: Mapping[str, Any], seed: int) -> State:
        """The set-up. No randomness comes from the seed: the seat order (W2) and the deal
        (W3) are chance steps, drawn and logged like dice (W9)."""
        opts = self.normalize_options(options)
        names = tuple(s["name"] for s in opts["seats"])
        n = len(names)
        state = State(
            names=names,
            deal=bool(opts.get("deal")),
            defender_choice=bool(opts.get("defender_choice")),
            phase="order",
            order=(),
            current=0,
            owner=(-1,) * N,
            troops=(0,) * N,
            reserve=(RULES.start_troops[n],) * n,
            pool=0,
            hands=(_NO_CARDS,) * n,
            deck=RULES.deck,
            discard=_NO_CARDS,
            trades=0,
            luck=(0,) * n,
        )
        if opts.get("order") == "fixed":
            state = self._ordered(state, tuple(range(n)))
        return state

    def _ordered(self, state: State, order: tuple[int, ...]) -> State:
        if state.deal:
            return replace(state, order=order, current=order[0], phase="deal")
        return replace(state, order=order, current=order[0], phase="claim")

    # -- whose move, what is drawn ------------------------------------------------------------
    def to_move(self, state: State) -> int | None:
        if state.phase in CHANCE_PHASES or state.phase == "over":
            return None
        if state.phase == "defend":
            assert state.battle is not None
            return state.owner[state.battle.dst]
        return state.current

    def attack_dice(self, state: State) -> int:
        """W6: the attacker's dice for the pending roll of the battle under way."""
        b = state.battle
        if b is None:
            return 0
        if b.until == 0:
            return b.dice
        return odds.repeat_dice(state.troops[b.src], b.until)

    def chance(self, state: State) -> ChanceSpec | None:
        ph = state.phase
        if ph == "order":
            return ChanceSpec("order", tuple(range(state.n, 1, -1)))
        if ph == "deal":
            return ChanceSpec("deal", tuple(range(N, 1, -1)))
        if ph == "roll":
            assert state.battle is not None
            return ChanceSpec("dice", (RULES.sides,) * (self.attack_dice(state) + state.battle.ddice))
        if ph == "draw":
            pile = state.deck if sum(state.deck) else state.discard
            return ChanceSpec("card", (sum(pile),))
        return None

    def chance_action(self, state: State, values: Sequence[int]) -> Action:
        ph = state.phase
        if ph == "order":
            return Order(tuple(int(x) for x in apply_shuffle(list(range(state.n)), values)))  # type: ignore[arg-type]
        if ph == "deal":
            cards = apply_shuffle(list(range(N)), values)
            owners = [0] * N
            for k, t in enumerate(cards):
                owners[int(t)] = state.order[k % state.n]  # type: ignore[call-overload]
            return Deal(tuple(owners))
        if ph == "roll":
            k = self.attack_dice(state)
            faces = [int(v) + 1 for v in values]
            return Roll(tuple(sorted(faces[:k], reverse=True)), tuple(sorted(faces[k:], reverse=True)))
        if ph == "draw":
            pile = state.deck if sum(state.deck) else state.discard
            (v,) = values
            for kind, count in zip(CARD_KINDS, pile, strict=True):
                if v < count:
                    return Draw(kind)
                v -= count
            raise ValueError(f"card draw {values[0]} out of range for a pile of {sum(pile)}")
        raise IllegalAction("chance.none", f"W9: nothing is being drawn in the {ph} phase")

    def outcome(self, state: State) -> Outcome | None:
        if state.phase != "over":
            return None
        w = state.winner
        return Outcome(
            winners=(w,),
            reason=f"W7: {state.names[w]} holds all {N} territories",
            scores=tuple(1.0 if s == w else 0.0 for s in range(state.n)),
        )

    # -- legal actions ------------------------------------------------------------------------------
    def legal_actions(self, state: State) -> list[Action]:
        """Every legal action, in a stable order (territories by index, then amounts).

        Long in the attack phase (about 4 x troops per attackable border) but complete:
        each listed action is accepted by ``apply`` and each accepted action is listed.
        """
        ph = state.phase
        me = state.current
        owner, troops = state.owner, state.troops
        if ph == "claim":
            return [Place(t) for t in range(N) if owner[t] < 0]
        if ph == "setup":
            return [Place(t) for t in range(N) if owner[t] == me]
        if ph == "reinforce":
            hand = state.hands[me]
            out: list[Action] = [Trade(s) for s in _sets_in(hand)]
            if sum(hand) < RULES.must_trade_at:
                for t in range(N):
                    if owner[t] == me:
                        out.extend(Place(t, k) for k in range(1, state.pool + 1))
            return out
        if ph == "defend":
            b = state.battle
            assert b is not None
            return [Defend(k) for k in range(1, min(RULES.defend_max, troops[b.dst]) + 1)]
        if ph == "attack":
            out = []
            for s in range(N):
                ts = troops[s]
                if owner[s] != me or ts < 2:
                    continue
                for d in RULES.adj[s]:
                    if owner[d] == me:
                        continue
                    for k in range(1, min(RULES.attack_max, ts - 1) + 1):
                        out.extend(Attack(s, d, k, m) for m in range(k, ts))
                    out.extend(Blitz(s, d, u) for u in range(1, ts))
            for s in range(N):
                ts = troops[s]
                if owner[s] != me or ts < 2:
                    continue
                for d in RULES.adj[s]:
                    if owner[d] == me:
                        out.extend(Fortify(s, d, k) for k in range(1, ts))
            out.append(EndTurn())
            return out
        return []

    # -- apply ------------------------------------------------------------------------------
    def apply(self, state: State, action: Action) -> State:
        if isinstance(action, str):
            action = parse_action(action)
        handler = _HANDLERS.get(type(action))
        if handler is None:
            raise InvalidAction("action.type", f"not a World Conquest action: {excerpt(action)}")
        if state.phase == "over":
            raise _illegal("W7.over", action, f"W7: the game is over; {state.names[state.winner]} won")
        return handler(self, state, action)

    def _phase(self, state: State, action: Action, *phases: str) -> None:
        if state.phase not in phases:
            raise _illegal(f"phase.{state.phase}", action, f"not now: {_PHASE_TEXT[state.phase]}")

    def _terr(self, t: int, action: Action) -> None:
        if not 0 <= t < N:
            raise _illegal("W1.territory", action, f"W1: there is no territory {t} (0..{N - 1})")

    # W2 / W3: set-up ------------------------------------------------------------------------
    def _order(self, state: State, a: Order) -> State:
        self._phase(state, a, "order")
        if len(a.seats) != state.n:
            raise _illegal("W2.order", a, f"W2: the order must name all {state.n} seats once")
        return self._ordered(state, a.seats)

    def _deal(self, state: State, a: Deal) -> State:
        """W3 random deal: one troop on each territory, the cards dealt round in turn order
        (with 4 or 5 seats the first in the order get one more territory)."""
        self._phase(state, a, "deal")
        n = state.n
        want = [N // n + (1 if k < N % n else 0) for k in range(n)]
        if len(a.owners) != N or any(a.owners.count(state.order[k]) != want[k] for k in range(n)):
            raise _illegal("W3.deal", a, f"W3: a deal gives each of the {N} territories to a seat, "
                           f"round in turn order ({', '.join(map(str, want))})")
        reserve = list(state.reserve)
        for o in a.owners:
            reserve[o] -= 1
        state = replace(state, owner=a.owners, troops=(1,) * N, reserve=tuple(reserve))
        return self._after_claim(state, state.order[(N - 1) % n])

    def _after_claim(self, state: State, last: int) -> State:
        """W3: once all territories are held, placing goes on in turn order after ``last``."""
        nxt = self._next_with_reserve(state, last)
        if nxt is None:
            return self._start_turn(replace(state, phase="setup"), state.order[0])
        return replace(state, phase="setup", current=nxt)

    def _next_with_reserve(self, state: State, after: int) -> int | None:
        order = state.order
        i = order.index(after)
        for k in range(1, len(order) + 1):
            s = order[(i + k) % len(order)]
            if state.reserve[s] > 0:
                return s
        return None

    def _place(self, state: State, a: Place) -> State:
        self._phase(state, a, "claim", "setup", "reinforce")
        self._terr(a.t, a)
        me, ph = state.current, state.phase
        name = RULES.names[a.t]
        if ph in ("claim", "setup") and a.n != 1:
            raise _illegal("W3.one", a, "W3: during the set-up troops are placed one at a time")
        if ph == "claim":
            if state.owner[a.t] >= 0:
                raise _illegal(
                    "W3.claim", a,
                    f"W3: claim an empty territory first ({name} is {state.names[state.owner[a.t]]}'s)",
                )
        elif state.owner[a.t] != me:
            rule = "W3" if ph == "setup" else "W4"
            raise _illegal(f"{rule}.own", a, f"{rule}: place troops on your own territories ({name} is not yours)")
        if ph == "reinforce":
            if state.hand_size(me) >= RULES.must_trade_at:
                raise _illegal(
                    "W5.must-trade", a,
                    f"W5: with {state.hand_size(me)} cards you must trade a set before placing troops",
                )
            if not 1 <= a.n <= state.pool:
                raise _illegal("W4.pool", a, f"W4: you have {state.pool} troops to place, not {a.n}")
        owner = list(state.owner)
        troops = list(state.troops)
        owner[a.t] = me
        troops[a.t] += a.n
        if ph == "reinforce":
            pool = state.pool - a.n
            return replace(
                state, owner=tuple(owner), troops=tuple(troops), pool=pool,
                phase="reinforce" if pool else "attack",
            )
        reserve = list(state.reserve)
        reserve[me] -= 1
        state = replace(state, owner=tuple(owner), troops=tuple(troops), reserve=tuple(reserve))
        if ph == "claim":
            if -1 in state.owner:
                i = state.order.index(me)
                return replace(state, current=state.order[(i + 1) % state.n])
            return self._after_claim(state, me)
        nxt = self._next_with_reserve(state, me)
        if nxt is None:
            return self._start_turn(state, state.order[0])
        return replace(state, current=nxt)

    # W4 / W5: the turn's start and cards ------------------------------------------------------
    def _start_turn(self, state: State, seat: int) -> State:
        base, held = reinforcements(state, seat)
        pool = base + sum(RULES.continents[c].bonus for c in held)
        return replace(
            state, phase="reinforce", current=seat, pool=pool, conquered=False, draws=0,
            battle=None, turn=state.turn + 1,
        )

    def _trade(self, state: State, a: Trade) -> State:
        self._phase(state, a, "reinforce")
        me = state.current
        hand = state.hands[me]
        need = set_cards(a.cards)
        if any(h < k for h, k in zip(hand, need, strict=True)):
            have = ", ".join(f"{h} {n}" for h, n in zip(hand, CARD_NAMES, strict=True))
            raise _illegal("W5.cards", a, f"W5: you do not hold that set (you hold {have})")
        hands = list(state.hands)
        hands[me] = _sub(hand, need)
        value = RULES.trade_value(state.trades)
        return replace(
            state, hands=tuple(hands), discard=_add(state.discard, need), trades=state.trades + 1,
            pool=state.pool + value,
        )

    # W6 / W7: battles ---------------------------------------------------------------------------
    def _check_attack(self, state: State, a: Attack | Blitz) -> int:
        """W6 checks common to one roll and a repeated attack; returns the source's troops."""
        self._phase(state, a, "attack")
        self._terr(a.src, a)
        self._terr(a.dst, a)
        me = state.current
        src, dst = RULES.names[a.src], RULES.names[a.dst]
        if state.owner[a.src] != me:
            raise _illegal("W6.own", a, f"W6: attack from your own territory ({src} is not yours)")
        ts = state.troops[a.src]
        if ts < 2:
            raise _illegal("W6.two", a, f"W6: attack from a territory with at least 2 troops ({src} has {ts})")
        if a.dst not in RULES.adjset[a.src]:
            raise _illegal("W6.adjacent", a, f"W6: attack an adjacent territory ({dst} does not border {src})")
        if state.owner[a.dst] == me:
            raise _illegal("W6.enemy", a, f"W6: attack someone else's territory ({dst} is yours)")
        return ts

    def _attack(self, state: State, a: Attack) -> State:
        ts = self._check_attack(state, a)
        most = min(RULES.attack_max, ts - 1)
        if not 1 <= a.dice <= most:
            raise _illegal(
                "W6.dice", a,
                f"W6: roll 1 to min({RULES.attack_max}, troops - 1) dice: 1 to {most} from {RULES.names[a.src]}",
            )
        if not a.dice <= a.move <= ts - 1:
            raise _illegal(
                "W6.move", a,
                f"W6: state at least the dice rolled ({a.dice}) and at most troops - 1 ({ts - 1}) to move in",
            )
        return self._start_roll(state, Battle(a.src, a.dst, a.dice, a.move, 0))

    def _blitz(self, state: State, a: Blitz) -> State:
        ts = self._check_attack(state, a)
        if not 1 <= a.until <= ts - 1:
            raise _illegal(
                "W6.until", a,
                f"W6: attack until 1 to {ts - 1} troops are left ({RULES.names[a.src]} has {ts})",
            )
        return self._start_roll(state, Battle(a.src, a.dst, 0, 0, a.until))

    def _start_roll(self, state: State, b: Battle) -> State:
        """W6: the defender chooses 1..min(2, troops) dice; by default (and for bots) the most."""
        most = min(RULES.defend_max, state.troops[b.dst])
        if state.defender_choice and most > 1:
            return replace(state, battle=replace(b, ddice=0), phase="defend")
        return replace(state, battle=replace(b, ddice=most), phase="roll")

    def _defend(self, state: State, a: Defend) -> State:
        self._phase(state, a, "defend")
        b = state.battle
        assert b is not None
        most = min(RULES.defend_max, state.troops[b.dst])
        if not 1 <= a.dice <= most:
            raise _illegal(
                "W6.defend", a, f"W6: defend {RULES.names[b.dst]} with 1 to min(2, troops) dice: 1 to {most}"
            )
        return replace(state, battle=replace(b, ddice=a.dice), phase="roll")

    def _roll(self, state: State, a: Roll) -> State:
        """W6/W9: compare the dice, remove the losses, and settle a conquest (W7)."""
        self._phase(state, a, "roll")
        b = state.battle
        assert b is not None
        k, j = self.attack_dice(state), b.ddice
        if len(a.attack) != k or len(a.defend) != j:
            raise _illegal("W9.dice", a, f"W9: this roll is {k} attacking against {j} defending dice")
        if not all(1 <= f <= RULES.sides for f in a.attack + a.defend):
            raise _illegal("W9.faces", a, f"W9: dice show 1 to {RULES.sides}")
        al, dl = odds.compare(a.attack, a.defend)
        me, foe = state.current, state.owner[b.dst]
        troops = list(state.troops)
        troops[b.src] -= al
        troops[b.dst] -= dl
        ea, ed = odds.expected_units(k, j)
        luck = list(state.luck)
        luck[me] += dl * odds.UNIT - ed
        luck[foe] += al * odds.UNIT - ea
        state = replace(state, troops=tuple(troops), luck=tuple(luck), last_roll=(a.attack, a.defend, b.src, b.dst))
        if troops[b.dst] == 0:
            return self._conquer(state, b, foe)
        if b.until and odds.repeat_dice(troops[b.src], b.until) > 0:
            return self._start_roll(state, b)
        return replace(state, battle=None, phase="attack")

    def _conquer(self, state: State, b: Battle, foe: int) -> State:
        """W7: the stated troops move in; a seat left with no territory is out and its cards
        go to the conqueror (W5); holding every territory wins."""
        me = state.current
        ts = state.troops[b.src]
        # one roll: the stated number (W6 checked it when stated; a conquering roll costs the
        # attacker nothing, so it still fits). Repeated: all but ``until`` (>= the dice rolled).
        move = b.move if b.until == 0 else ts - b.until
        owner = list(state.owner)
        troops = list(state.troops)
        owner[b.dst] = me
        troops[b.src] -= move
        troops[b.dst] = move
        state = replace(
            state, owner=tuple(owner), troops=tuple(troops), conquered=True, battle=None, phase="attack"
        )
        if foe not in state.owner:
            hands = list(state.hands)
            hands[me] = _add(hands[me], hands[foe])
            hands[foe] = _NO_CARDS
            state = replace(state, hands=tuple(hands))
        if state.owner.count(me) == N:
            state = replace(state, phase="over", winner=me)
        return state

    # W8 and the turn's end -------------------------------------------------------------------
    def _fortify(self, state: State, a: Fortify) -> State:
        self._phase(state, a, "attack")
        self._terr(a.src, a)
        self._terr(a.dst, a)
        me = state.current
        src, dst = RULES.names[a.src], RULES.names[a.dst]
        if state.owner[a.src] != me or state.owner[a.dst] != me:
            raise _illegal("W8.own", a, f"W8: fortify between two of your territories ({src}, {dst})")
        if a.dst not in RULES.adjset[a.src]:
            raise _illegal("W8.adjacent", a, f"W8: fortify between adjacent territories ({src}, {dst})")
        ts = state.troops[a.src]
        if not 1 <= a.n <= ts - 1:
            raise _illegal("W8.leave", a, f"W8: move 1 to {ts - 1} troops, leaving at least 1 in {src}")
        troops = list(state.troops)
        troops[a.src] -= a.n
        troops[a.dst] += a.n
        return self._end_turn(replace(state, troops=tuple(troops)))

    def _end(self, state: State, a: EndTurn) -> State:
        self._phase(state, a, "attack")
        return self._end_turn(state)

    def _end_turn(self, state: State) -> State:
        """W5: a conquering turn draws a card (a chance step), then the next seat plays."""
        draws = RULES.cards_per_turn if state.conquered else 0
        return self._next_draw(replace(state, draws=draws))

    def _next_draw(self, state: State) -> State:
        if state.draws > 0 and (sum(state.deck) or sum(state.discard)):
            return replace(state, phase="draw")
        # when every card is in a hand (deck and discards empty) the draw is skipped
        order = state.order
        i = order.index(state.current)
        for k in range(1, len(order) + 1):
            s = order[(i + k) % len(order)]
            if s in state.owner:
                return self._start_turn(replace(state, draws=0), s)
        raise AssertionError("no seat left")  # pragma: no cover - the game ends first

    def _draw(self, state: State, a: Draw) -> State:
        self._phase(state, a, "draw")
        deck, discard = state.deck, state.discard
        if not sum(deck):  # W5: the discards are reshuffled into a new deck
            deck, discard = discard, _NO_CARDS
        i = CARD_KINDS.index(a.kind)
        if deck[i] == 0:
            raise _illegal("W5.deck", a, f"W5: no {CARD_NAMES[i]} card is left in the deck")
        got = ((1, 0, 0), (0, 1, 0), (0, 0, 1))[i]
        hands = list(state.hands)
        hands[state.current] = _add(hands[state.current], got)
        state = replace(
            state, deck=_sub(deck, got), discard=discard, hands=tuple(hands), draws=state.draws - 1
        )
        return self._next_draw(state)

    # -- text ---------------------------------------------------------------------------------
    def parse_action(self, text: str) -> Action:
        return parse_action(text)

    def describe_action(self, state: State, action: Action) -> str:
        """Plain words with names; a card drawn is not named (W5: hands are secret)."""
        from .view import describe

        return describe(self, state, action)

    # -- JSON ---------------------------------------------------------------------------------
    def state_to_json(self, state: State) -> dict[str, Any]:
        b = state.battle
        return {
            "names": list(state.names),
            "deal": state.deal,
            "defender_choice": state.defender_choice,
            "phase": state.phase,
            "order": list(state.order),
            "current": state.current,
            "owner": list(state.owner),
            "troops": list(state.troops),
            "reserve": list(state.reserve),
            "pool": state.pool,
            "hands": [list(h) for h in state.hands],
            "deck": list(state.deck),
            "discard": list(state.discard),
            "trades": state.trades,
            "conquered": state.conquered,
            "draws": state.draws,
            "battle": None if b is None else [b.src, b.dst, b.dice, b.move, b.until, b.ddice],
            "last_roll": None
            if state.last_roll is None
            else [list(state.last_roll[0]), list(state.last_roll[1]), state.last_roll[2], state.last_roll[3]],
            "luck": list(state.luck),
            "turn": state.turn,
            "winner": state.winner,
        }

    def state_from_json(self, obj: Mapping[str, Any]) -> State:
        try:
            b = obj["battle"]
            lr = obj["last_roll"]
            state = State(
                names=tuple(str(x) for x in obj["names"]),
                deal=bool(obj["deal"]),
                defender_choice=bool(obj["defender_choice"]),
                phase=str(obj["phase"]),
                order=tuple(int(x) for x in obj["order"]),
                current=int(obj["current"]),
                owner=tuple(int(x) for x in obj["owner"]),
                troops=tuple(int(x) for x in obj["troops"]),
                reserve=tuple(int(x) for x in obj["reserve"]),
                pool=int(obj["pool"]),
                hands=tuple((int(h[0]), int(h[1]), int(h[2])) for h in obj["hands"]),
                deck=(int(obj["deck"][0]), int(obj["deck"][1]), int(obj["deck"][2])),
                discard=(int(obj["discard"][0]), int(obj["discard"][1]), int(obj["discard"][2])),
                trades=int(obj["trades"]),
                conquered=bool(obj["conquered"]),
                draws=int(obj["draws"]),
                battle=None if b is None else Battle(*(int(x) for x in b)),
                last_roll=None
                if lr is None
                else (tuple(int(x) for x in lr[0]), tuple(int(x) for x in lr[1]), int(lr[2]), int(lr[3])),
                luck=tuple(int(x) for x in obj["luck"]),
                turn=int(obj["turn"]),
                winner=int(obj["winner"]),
            )
        except (KeyError, TypeError, ValueError, IndexError) as exc:
            raise InvalidAction("state.json", f"not a World Conquest state: {exc}") from None
        if state.phase not in _PHASE_TEXT or len(state.owner) != N or len(state.troops) != N:
            raise InvalidAction("state.json", "not a World Conquest state: bad phase or board size")
        return state

    # -- live play: what each device receives (issue 22) --------------------------------------
    def redact(self, state: State, seat: int | None) -> State:
        """W5: other hands and the deck's make-up replaced by :func:`conceal`'s stand-in,
        which is built from what ``seat`` knows only (its hand, the discards, the counts)."""
        return conceal(state, seat)

    def redact_text(self, before: State, text: str, seat: int | None) -> str:
        """W5: the kind of a card drawn is the drawer's alone; others read ``C?``."""
        if text.startswith("C") and (seat is None or seat != before.current):
            return MASKED_DRAW
        return text

    def secret_result(self, text: str) -> str | None:
        """W5: a card drawn (``Ci``, ``Cc``, ``Ca``, or ``C?`` masked) is "a card" to all but
        its drawer; dice are public."""
        return "a card" if text.startswith("C") else None

    # -- what the page shows --------------------------------------------------------------------
    def view(self, state: State, player: int | None) -> dict[str, Any]:
        from .view import build_view

        return build_view(self, state, player)

    def stats(self, state: State) -> dict[str, list[float]]:
        """Per seat: territories held, troops on the map, and luck.

        Luck is the sum, over every roll the seat took part in (attacking or defending), of
        the troops its dice removed minus the number expected for that pairing of dice
        (from the exact single-roll table): 0 is average, +3 is three troops better off
        than average dice would have left them.
        """
        n = state.n
        terr = [0] * n
        troops = [0] * n
        for o, k in zip(state.owner, state.troops, strict=True):
            if o >= 0:
                terr[o] += 1
                troops[o] += k
        return {
            "Territories": [float(x) for x in terr],
            "Troops": [float(x) for x in troops],
            "Luck": [round(x / odds.UNIT, 4) for x in state.luck],
        }

    def bot_levels(self) -> dict[str, Any]:
        from .bots import LEVELS

        return dict(LEVELS)

    def rules_tables(self) -> dict[str, dict[str, Any]]:
        """W5 trade values, W1/W4 continents, W3 start troops and the W6 single-roll odds."""
        values = [[str(i + 1), str(RULES.trade_value(i))] for i in range(len(RULES.trade_values) + 2)]
        values.append(["then", f"+{RULES.trade_step_after} each trade"])
        return {
            "card-values": {
                "caption": "Card trade values, counted over the whole game (W5)",
                "head": ["Trade", "Troops"],
                "rows": values,
            },
            "continents": {
                "caption": "Continents and their bonuses (W1, W4)",
                "head": ["Continent", "Territories", "Bonus"],
                "rows": [[c.name, str(len(c.members)), f"+{c.bonus}"] for c in RULES.continents],
            },
            "start-troops": {
                "caption": "Start troops by the number of players (W3)",
                "head": ["Players", "Troops each"],
                "rows": [[str(n), str(t)] for n, t in sorted(RULES.start_troops.items())],
            },
            "dice-odds": {
                "caption": "One roll: every pairing of dice and how often each result comes up (W6)",
                "head": ["Dice", "Result", "Rolls", "Chance"],
                "rows": odds.dice_table_rows(),
            },
        }


_PHASE_TEXT = {
    "order": "the seat order is being drawn (W2)",
    "deal": "the territories are being dealt (W3)",
    "claim": "the set-up: claim an empty territory (W3)",
    "setup": "the set-up: place a troop on your territory (W3)",
    "reinforce": "trade cards and place reinforcements (W4, W5)",
    "attack": "attack, fortify or end the turn (W6-W8)",
    "defend": "the defender chooses dice (W6)",
    "roll": "the dice are being rolled (W9)",
    "draw": "a card is being drawn (W5)",
    "over": "the game is over (W7)",
}

_HANDLERS: dict[type, Any] = {
    Order: WorldGame._order,
    Deal: WorldGame._deal,
    Place: WorldGame._place,
    Trade: WorldGame._trade,
    Attack: WorldGame._attack,
    Blitz: WorldGame._blitz,
    Defend: WorldGame._defend,
    Roll: WorldGame._roll,
    Fortify: WorldGame._fortify,
    EndTurn: WorldGame._end,
    Draw: WorldGame._draw,
}

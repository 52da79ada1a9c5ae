"""What a seat may see of a World Conquest state, and the log's plain words.

Why apart from the engine: the view is what the page draws, and it is where hidden
information is stripped (W5: other hands show only their size), so it is kept in one small
place that is easy to check. Everything here is JSON-ready data, never markup.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from conquest.core import GameError

from . import odds
from .actions import Action, Attack, Blitz, Deal, Defend, Draw, EndTurn, Fortify, Order, Place, Roll, Trade
from .rules import CARD_KINDS, RULES
from .state import State

if TYPE_CHECKING:
    from .engine import WorldGame

__all__ = ["build_view", "describe"]

_SET_WORDS = {"iii": "three infantry", "ccc": "three cavalry", "aaa": "three artillery", "ica": "one of each kind"}


def _cards(c: tuple[int, int, int]) -> dict[str, int]:
    return dict(zip(CARD_KINDS, c, strict=True))


def build_view(game: WorldGame, state: State, player: int | None) -> dict[str, Any]:
    """The state for ``player`` (``None`` or a seat that is not playing: a spectator).

    Public: the board, every seat's card count, the discards, the deck's size. Private:
    ``hand`` and ``sets`` are only ``player``'s own.
    """
    from .engine import _sets_in, reinforcements

    n = state.n
    me = player if player is not None and 0 <= player < n else None
    terr = [0] * n
    troops = [0] * n
    for o, k in zip(state.owner, state.troops, strict=True):
        if o >= 0:
            terr[o] += 1
            troops[o] += k
    seats = []
    for s in range(n):
        base, held = reinforcements(state, s)
        seats.append(
            {
                "seat": s,
                "name": state.names[s],
                "alive": state.alive(s),
                "territories": terr[s],
                "troops": troops[s],
                "cards": state.hand_size(s),
                "reserve": state.reserve[s],
                "reinforcement": base + sum(RULES.continents[c].bonus for c in held),
                "continents": [RULES.continents[c].id for c in held],
                "luck": round(state.luck[s] / odds.UNIT, 3),
            }
        )
    b = state.battle
    battle = None
    if b is not None:
        battle = {
            "src": b.src,
            "dst": b.dst,
            "attacker": state.current,
            "defender": state.owner[b.dst],
            "dice": game.attack_dice(state),
            "defend_dice": b.ddice,
            "until": b.until,
            "move": b.move if b.until == 0 else None,
        }
        if b.until:
            battle["win_chance"] = odds.win_chance(state.troops[b.src], state.troops[b.dst], b.until)
    lr = state.last_roll
    out = outcome.to_json() if (outcome := game.outcome(state)) else None
    view: dict[str, Any] = {
        "game": game.id,
        "phase": state.phase,
        "phase_text": _phase_text(state),
        "turn": state.turn,
        "order": list(state.order),
        "current": state.current,
        "to_move": game.to_move(state),
        "viewer": me,
        "seats": seats,
        "owner": list(state.owner),
        "troops": list(state.troops),
        "pool": state.pool if state.phase == "reinforce" else 0,
        "trades": state.trades,
        "next_trade_value": RULES.trade_value(state.trades),
        "must_trade": state.phase == "reinforce" and state.hand_size(state.current) >= RULES.must_trade_at,
        "deck": sum(state.deck),
        "discard": _cards(state.discard),
        "conquered": state.conquered,
        "battle": battle,
        "last_roll": None if lr is None else {"attack": list(lr[0]), "defend": list(lr[1]), "src": lr[2], "dst": lr[3]},
        "hand": None,
        "sets": [],
        "outcome": out,
    }
    if me is not None:
        view["hand"] = _cards(state.hands[me])
        view["sets"] = _sets_in(state.hands[me])
    return view


def _phase_text(state: State) -> str:
    """Whose turn it is and what they do, in the third person: every device at a live table
    shows it, so "your" would speak to the wrong person on all but one (issue 36); the page
    says "your" only to the person acting (``site/games/world.py``, ``prompt``)."""
    who = state.names[state.current] if state.order else ""
    ph = state.phase
    if ph == "order":
        return "Drawing the seat order (W2)"
    if ph == "deal":
        return "Dealing the territories (W3)"
    if ph == "claim":
        return f"{who} claims an empty territory (W3)"
    if ph == "setup":
        return f"{who} places a troop on one of their territories ({state.reserve[state.current]} left, W3)"
    if ph == "reinforce":
        return f"{who} places {state.pool} troops (W4)"
    if ph == "attack":
        return f"{who} attacks, fortifies or ends the turn (W6-W8)"
    if ph == "defend":
        assert state.battle is not None
        return f"{state.names[state.owner[state.battle.dst]]} chooses how many dice defend (W6)"
    if ph == "roll":
        return "Rolling the dice (W9)"
    if ph == "draw":
        return f"{who} draws a card (W5)"
    return f"{state.names[state.winner]} holds the world (W7)"


def _t(t: int) -> str:
    return RULES.names[t] if 0 <= t < RULES.size else f"territory {t}"


def _troops(k: int) -> str:
    return f"{k} troop" + ("" if k == 1 else "s")


def describe(game: WorldGame, state: State, action: Action) -> str:
    """Plain words for the log ("Ana attacks Kamchatka from Alaska with 3 dice").

    Works on any action, legal or not; consequences of a roll (a conquest, a seat out, the
    win) are worked out by applying it. A card drawn is not named: hands are secret (W5).
    """
    names = state.names
    who = names[state.current] if 0 <= state.current < len(names) and state.order else "?"
    if isinstance(action, Order):
        return "Seat order drawn: " + ", ".join(names[s] for s in action.seats if 0 <= s < len(names))
    if isinstance(action, Deal):
        counts = ", ".join(f"{names[s]} {action.owners.count(s)}" for s in state.order)
        return f"Territories dealt at random: {counts}"
    if isinstance(action, Place):
        if state.phase == "claim":
            return f"{who} claims {_t(action.t)}"
        if state.phase == "setup":
            return f"{who} places a troop on {_t(action.t)}"
        left = state.pool - action.n
        return f"{who} places {_troops(action.n)} on {_t(action.t)}" + (f" ({left} left to place)" if left > 0 else "")
    if isinstance(action, Trade):
        value = RULES.trade_value(state.trades)
        return f"{who} trades {_SET_WORDS.get(action.cards, action.cards)} for {value} troops (trade {state.trades + 1} of the game)"
    if isinstance(action, Attack):
        move = f"; {action.move} would move in" if action.move != action.dice else ""
        return f"{who} attacks {_t(action.dst)} from {_t(action.src)} with {action.dice} {'die' if action.dice == 1 else 'dice'}{move}"
    if isinstance(action, Blitz):
        until = "until done" if action.until == 1 else f"until {action.until} troops are left"
        return f"{who} attacks {_t(action.dst)} from {_t(action.src)} {until}"
    if isinstance(action, Defend):
        b = state.battle
        dst = _t(b.dst) if b else "?"
        defender = names[state.owner[b.dst]] if b else "?"
        return f"{defender} defends {dst} with {action.dice} {'die' if action.dice == 1 else 'dice'}"
    if isinstance(action, Roll):
        return _describe_roll(game, state, action)
    if isinstance(action, Fortify):
        return f"{who} moves {_troops(action.n)} from {_t(action.src)} to {_t(action.dst)} and ends the turn"
    if isinstance(action, EndTurn):
        return f"{who} ends the turn"
    if isinstance(action, Draw):
        return f"{who} draws a card"
    return str(action)


def _describe_roll(game: WorldGame, state: State, action: Roll) -> str:
    b = state.battle
    if b is None:
        return str(action)
    me, foe = state.current, state.owner[b.dst]
    names = state.names
    al, dl = odds.compare(action.attack, action.defend)
    faces = f"{names[me]} rolls {' '.join(map(str, action.attack))} against {names[foe]}'s {' '.join(map(str, action.defend))}"
    losses = []
    if dl:
        losses.append(f"{names[foe]} loses {dl}")
    if al:
        losses.append(f"{names[me]} loses {al}")
    text = f"{faces}: {', '.join(losses)}"
    try:
        after = game.apply(state, action)
    except GameError:
        return text
    if after.owner[b.dst] == me:
        text += f"; {names[me]} takes {_t(b.dst)} and moves {_troops(after.troops[b.dst])} in"
        if foe not in after.owner:
            got = state.hand_size(foe)
            text += f"; {names[foe]} is out" + (f" and {names[me]} takes {got} card{'s' if got != 1 else ''}" if got else "")
        if after.phase == "over":
            text += f"; {names[me]} holds all {RULES.size} territories and wins"
    return text


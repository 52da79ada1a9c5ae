"""The Conquest Metagame rules (rulings M1-M17): :class:`MetagameRules`.

Why the engine computes everything: the seed text asks the host to do arithmetic under
pressure (X, Y, Z, doubled on a capital, caps raised by sacrifices, who may block or
re-spin). Here every number comes with the ruling it follows, every step lists what is
eligible, and a refused action changes nothing and says which ruling refused it.

What each phase allows, offers and asks is the table in :mod:`.phases`; this module keeps
the transitions (the handlers, one per action type) and the eligibility rules. It never
imports :mod:`.view`: the view is built from the rules, and the registered game,
:class:`conquest.games.metagame.game.MetagameGame`, joins the two.

Choices where the rulings are silent are documented where they are made, and listed in
the module docstring of :mod:`conquest.games.metagame`.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import replace
from typing import Any

from conquest.core import ChanceSpec, Game, IllegalAction, InvalidAction, InvalidOptions, Outcome
from conquest.games.metagame.actions import (
    BY,
    CHOICES,
    Action,
    Agree,
    Block,
    Claim,
    Duel,
    Gift,
    Invade,
    Pass,
    PickCapital,
    Respin,
    Sacrifice,
    SetCapital,
    SetOwner,
    SetTokens,
    Slices,
    Spin,
    SpinResult,
    parse_action,
    quote,
)
from conquest.games.metagame.board import Board, BoardError, board_for_options, check_map_size
from conquest.games.metagame.duelrecord import replay_duel
from conquest.games.metagame.duels import default_games, game_title
from conquest.games.metagame.phases import (
    CORRECTIONS,
    PHASE_RULES,
    RECORDED_BY_HOST,
    SPUN_BY_HOST,
    Phase,
    Seat,
)
from conquest.games.metagame.state import NEUTRAL, Invasion, Player, State

__all__ = [
    "MetagameRules",
    "PALETTE",
    "PALETTE_NAMES",
    "slice_report",
    "canonical_allocs",
    "seat_of",
    "side_of",
    "game_label",
]

DEFAULT_MAP = "usa100"
#: the default player colours: the Okabe-Ito palette (told apart with the common kinds of
#: colour blindness), black swapped for grey so territory names stay readable on it
PALETTE = ("#e69f00", "#56b4e9", "#009e73", "#f0e442", "#0072b2", "#d55e00", "#cc79a7", "#999999")
PALETTE_NAMES = ("Orange", "Sky blue", "Bluish green", "Yellow", "Blue", "Vermilion", "Reddish purple", "Grey")
MIN_PLAYERS = 2
MAX_PLAYERS = 8
#: M9 needs at most 3 games for any side (a side with 3 territories has Z = 3, cap 1)
MIN_GAMES = 3
MAX_GAMES = 40
MAX_NAME = 40
MAX_GAME_NAME = 60
MAX_POOL = 999
MAX_TOKENS = 999
_COLOUR = re.compile(r"#[0-9a-fA-F]{6}")
_OPTION_KEYS = {"players", "games", "token_pool", "map", "map_data"}


def _illegal(code: str, message: str) -> IllegalAction:
    return IllegalAction(code, message)


# ------------------------------------------------------------------------------------------
# Options: every value is checked for type and range before anything is built from it
# (a link can say ``"players": 1000000000``)
# ------------------------------------------------------------------------------------------
def _describe_value(value: Any) -> str:
    """A short account of a refused option value: never thousands of digits or characters."""
    if isinstance(value, bool) or value is None:
        return repr(value)
    if isinstance(value, int):
        if -(10**12) < value < 10**12:
            return str(value)
        return f"a number of about {int(value.bit_length() * 0.30103) + 1:,} digits"
    if isinstance(value, str):
        return quote(value, 30)
    if isinstance(value, (list, tuple)):
        return f"a list of {len(value):,} entries"
    if isinstance(value, Mapping):
        return "an object"
    return f"a {type(value).__name__}"


def _clean_text(raw: str, code: str, what: str, limit: int) -> str:
    """Whitespace collapsed; refused if too long or holding control or non-Unicode characters.

    Why refuse rather than strip: names travel in every link, log line and terminal; a
    control character (an escape sequence) or a lone surrogate (which cannot be encoded)
    is never what a host typed on purpose, so the set-up says so instead of guessing.
    """
    if len(raw) > 4 * limit:  # before any work on it
        raise InvalidOptions(code, f"{what} is longer than {limit} characters")
    text = " ".join(raw.split())
    for ch in text:
        cat = unicodedata.category(ch)
        if cat == "Cc":
            raise InvalidOptions(code, f"{what} holds a control character ({quote(ch)}); use plain text")
        if cat == "Cs":
            raise InvalidOptions(code, f"{what} holds a broken character (a lone surrogate); retype it")
    if len(text) > limit:
        raise InvalidOptions(code, f"{what} is longer than {limit} characters")
    return text


def _norm_players(raw: Any) -> list[dict[str, str]]:
    if raw is None:
        raw = MIN_PLAYERS
    if isinstance(raw, int) and not isinstance(raw, bool):
        # the range first: a count from a link is built into a list only once it is 2..8
        if not MIN_PLAYERS <= raw <= MAX_PLAYERS:
            raise InvalidOptions(
                "options.players", f"M2: {MIN_PLAYERS} to {MAX_PLAYERS} players, not {_describe_value(raw)}"
            )
        raw = [{} for _ in range(raw)]
    if not isinstance(raw, list):
        raise InvalidOptions(
            "options.players",
            f"players must be a number of players or a list of {{name, colour}}, not {_describe_value(raw)}",
        )
    if not MIN_PLAYERS <= len(raw) <= MAX_PLAYERS:
        raise InvalidOptions("options.players", f"M2: {MIN_PLAYERS} to {MAX_PLAYERS} players, not {len(raw):,}")
    out: list[dict[str, str]] = []
    seen: set[str] = set()
    for i, p in enumerate(raw):
        if isinstance(p, str):
            p = {"name": p}
        if not isinstance(p, Mapping):
            raise InvalidOptions("options.players", f"player {i + 1} must be a name and a colour")
        name = p.get("name", f"Player {i + 1}")
        if not isinstance(name, str) or not name.strip():
            raise InvalidOptions("options.players.name", f"M2: player {i + 1} needs a name")
        name = _clean_text(name, "options.players.name", f"player {i + 1}'s name", MAX_NAME)
        if name.casefold() in seen:
            raise InvalidOptions("options.players.name", f"two players are called {quote(name)}")
        seen.add(name.casefold())
        colour = p.get("colour", PALETTE[i % len(PALETTE)])
        if not isinstance(colour, str) or not _COLOUR.fullmatch(colour):
            raise InvalidOptions("options.players.colour", f"M2: {name}'s colour must look like #56b4e9")
        colour = colour.lower()
        # the default colour is left out: 8 hex colours are ~60 characters of every link
        out.append(
            {"name": name} if colour == PALETTE[i % len(PALETTE)] else {"name": name, "colour": colour}
        )
    return out


def _norm_games(raw: Any) -> list[str]:
    if raw is None:
        raw = list(default_games())
    if not isinstance(raw, list):
        raise InvalidOptions("options.games", f"games must be a list of names, not {_describe_value(raw)}")
    if len(raw) > MAX_GAMES:  # duplicates are refused too, so a longer list never qualifies
        raise InvalidOptions(
            "options.games", f"M9: the wheel holds at most {MAX_GAMES} games; {len(raw):,} given"
        )
    out: list[str] = []
    seen: set[str] = set()
    for g in raw:
        if not isinstance(g, str) or not g.strip():
            raise InvalidOptions("options.games", "M9: every game on the wheel needs a name")
        g = _clean_text(g, "options.games", f"the game name {quote(g, 20)}", MAX_GAME_NAME)
        if g.casefold() in seen:
            raise InvalidOptions("options.games", f"M9: {quote(g)} is on the list twice")
        seen.add(g.casefold())
        out.append(g)
    if not MIN_GAMES <= len(out) <= MAX_GAMES:
        raise InvalidOptions(
            "options.games",
            f"M9: the wheel needs {MIN_GAMES} to {MAX_GAMES} games (a side holding 3 territories has "
            f"Z = 3 and a cap of 1, so it needs 3 games); {len(out)} given",
        )
    return out


# ------------------------------------------------------------------------------------------
# Who acts, and game names for people
# ------------------------------------------------------------------------------------------
def seat_of(state: State) -> int | None:
    """The seat the phase waits for (the table's ``seat``); None at a draw and at the end."""
    who = PHASE_RULES[state.phase].seat
    if who is Seat.CURRENT:
        return state.current
    inv = state.inv
    if inv is None or who is Seat.NOBODY:
        return None
    return inv.attacker if who is Seat.ATTACKER else inv.defender


def side_of(state: State) -> str:
    """``"a"`` when the attacker's side acts now (slices, re-spin), ``"d"`` for the defender's."""
    return "d" if PHASE_RULES[state.phase].seat is Seat.DEFENDER else "a"


def game_label(state: State, g: int) -> str:
    """The title people see for game ``g`` of the session's list; never raises.

    A log can name a game the list does not have (``w,,,1`` with three games): the
    message then says so instead of failing.
    """
    if 0 <= g < len(state.games):
        return game_title(state.games[g])
    return f"game {g + 1} (not on the list of {len(state.games)})"


# ------------------------------------------------------------------------------------------
# Slices (M9): the assignment report the UI shows, and the canonical assignments
# ------------------------------------------------------------------------------------------
def canonical_allocs(z: int, cap: int, n_games: int) -> list[tuple[tuple[int, int], ...]]:
    """A bounded, stable list of valid assignments of ``z`` slices, each game <= ``cap``.

    Why: the number of valid assignments explodes, but random bots and the conformance
    test need ``legal_actions`` to list some. These are: for each game g, fill g to the cap,
    then the following games in list order (wrapping); then the even spread over all games
    when it fits. Any other valid assignment is accepted by ``apply``.
    """
    out: list[tuple[tuple[int, int], ...]] = []
    for start in range(n_games):
        alloc: dict[int, int] = {}
        left, i = z, start
        while left > 0 and len(alloc) < n_games:
            take = min(cap, left)
            alloc[i % n_games] = take
            left -= take
            i += 1
        if left == 0:
            out.append(tuple(sorted(alloc.items())))
    if z >= n_games:
        base, extra = divmod(z, n_games)
        if base + (1 if extra else 0) <= cap:
            out.append(tuple((g, base + (1 if g < extra else 0)) for g in range(n_games)))
    seen: set[tuple[tuple[int, int], ...]] = set()
    unique = []
    for a in out:
        if a not in seen:
            seen.add(a)
            unique.append(a)
    return unique


def slice_report(
    state: State, alloc: Mapping[int, int] | Iterable[tuple[int, int]], side: str | None = None
) -> dict[str, Any]:
    """Check a draft assignment for the side assigning now (or ``side`` "a"/"d").

    Returns the numbers and the messages the UI shows while the player edits ("2 slices
    left", "needs 1 more game", "Chess has 6 slices; the cap is 5"), and ``ok``.
    """
    inv = state.inv
    if inv is None:
        return {"ok": False, "messages": ["no invasion is under way"]}
    if side is None:
        side = side_of(state)
    z, cap = (inv.z_a, inv.cap_a) if side == "a" else (inv.z_d, inv.cap_d)
    pairs = list(alloc.items()) if isinstance(alloc, Mapping) else list(alloc)
    counts: dict[int, int] = {}
    messages: list[str] = []
    for g, n in pairs:
        if not 0 <= g < len(state.games):
            messages.append(f"there is no game number {g} on the list")
            continue
        if n < 0:
            messages.append(f"{game_label(state, g)} cannot have {count_of(n, 'slice', 'slices')}")
            continue
        if n:
            counts[g] = counts.get(g, 0) + n
    total = sum(counts.values())
    over = [g for g, n in sorted(counts.items()) if n > cap]
    for g in over:
        messages.append(f"M9: {game_label(state, g)} has {count_of(counts[g], 'slice', 'slices')}; the cap is {cap}")
    left = z - total
    if left > 0:
        messages.append(f"{left} slice{'s' if left != 1 else ''} left")
    elif left < 0:
        messages.append(f"M9: {-left} slice{'s' if left != -1 else ''} too many; assign exactly {z}")
    chosen = len(counts)
    reach = chosen * cap
    more = 0
    if reach < z:
        more = -(-(z - reach) // cap)
        messages.append(f"needs {more} more game{'s' if more != 1 else ''}")
    ok = not messages
    return {
        "side": side,
        "z": z,
        "cap": cap,
        "assigned": total,
        "left": left,
        "over_cap": over,
        "games_chosen": chosen,
        "more_games_needed": more,
        "min_games": -(-z // cap),
        "ok": ok,
        "messages": messages or ["ready"],
    }


# ------------------------------------------------------------------------------------------
# The rules
# ------------------------------------------------------------------------------------------
class MetagameRules(Game[State, Action]):
    """Conquest Metagame's rules: a 2-8 player campaign where a weighted wheel picks each duel.

    Abstract only in ``view``: :class:`conquest.games.metagame.game.MetagameGame` adds the
    host console's view (from :mod:`.view`) and is what the registry finds.
    """

    id = "metagame"

    # -- set-up -----------------------------------------------------------------------
    def normalize_options(self, options: Mapping[str, Any] | None) -> dict[str, Any]:
        if options is not None and not isinstance(options, Mapping):
            raise InvalidOptions("options", "the options must be an object")
        o = dict(options or {})
        unknown = sorted(k if isinstance(k, str) else repr(k) for k in set(o) - _OPTION_KEYS)
        if unknown:
            shown = ", ".join(quote(k, 30) for k in unknown[:5]) + (", …" if len(unknown) > 5 else "")
            raise InvalidOptions("options.unknown", f"unknown metagame options: {shown}")
        pool = o.get("token_pool")
        if pool is not None and (
            not isinstance(pool, int) or isinstance(pool, bool) or not 0 <= pool <= MAX_POOL
        ):
            raise InvalidOptions(
                "options.token_pool",
                f"M15: the token pool is a number 0..{MAX_POOL} or unlimited, not {_describe_value(pool)}",
            )
        map_id = o.get("map", DEFAULT_MAP)
        if not isinstance(map_id, str) or not re.fullmatch(r"[a-z0-9_-]{1,40}", map_id):
            raise InvalidOptions("options.map", "the map id must be a short lower-case name")
        map_data = o.get("map_data")
        if map_data is not None:
            if not isinstance(map_data, Mapping):
                raise InvalidOptions("options.map_data", "map_data must be a map object")
            try:
                check_map_size(map_data)
            except BoardError as exc:
                raise InvalidOptions("options.map_data", f"M1: {exc}") from None
        out: dict[str, Any] = {
            "players": _norm_players(o.get("players")),
            "games": _norm_games(o.get("games")),
        }
        if map_id != DEFAULT_MAP:  # the default map is left out of links (~15 characters)
            out["map"] = map_id
        if pool is not None:  # unlimited is the default and is left out of links
            out["token_pool"] = pool
        if map_data is not None:
            out["map_data"] = dict(map_data)
        return out

    def new_game(self, options: Mapping[str, Any], seed: int) -> State:
        """No set-up randomness: the host fixes the turn order (M2) and players pick capitals."""
        opts = self.normalize_options(options)
        try:
            board = board_for_options(opts.get("map", DEFAULT_MAP), opts.get("map_data"))
        except BoardError as exc:
            raise InvalidOptions("options.map", str(exc)) from None
        n = len(opts["players"])
        if len(board) < n:
            raise InvalidOptions("options.map", f"the map has {len(board)} territories for {n} players")
        return State(
            board=board,
            players=tuple(
                Player(p["name"], p.get("colour", PALETTE[i % len(PALETTE)]))
                for i, p in enumerate(opts["players"])
            ),
            games=tuple(opts["games"]),
            pool=opts.get("token_pool"),
            owner=(NEUTRAL,) * len(board),
            capital=(NEUTRAL,) * n,
            block=(0,) * n,
            respin=(0,) * n,
        )

    # -- eligibility (shared by legal_actions, apply and view) -----------------------
    @staticmethod
    def capital_candidates(state: State, p: int) -> list[int]:
        """M4: neutral territories at distance >= 3 from every territory another player owns."""
        dist = state.board.dist
        others = [t for t, o in enumerate(state.owner) if o >= 0 and o != p]
        return [t for t, o in enumerate(state.owner) if o == NEUTRAL and all(dist[t][u] >= 3 for u in others)]

    @staticmethod
    def claimable(state: State, p: int) -> list[int]:
        """M5: neutral territories adjacent to any of ``p``'s."""
        adj, owner = state.board.adj, state.owner
        return [t for t, o in enumerate(owner) if o == NEUTRAL and any(owner[u] == p for u in adj[t])]

    @staticmethod
    def invadable(state: State, p: int) -> list[int]:
        """M5: other players' territories adjacent to any of ``p``'s."""
        adj, owner = state.board.adj, state.owner
        return [t for t, o in enumerate(owner) if o >= 0 and o != p and any(owner[u] == p for u in adj[t])]

    @staticmethod
    def sacrificable(state: State, p: int, target: int) -> list[int]:
        """M7/M8/M11: own, not the capital, not the target, not adjacent to the target."""
        adj = state.board.adjset[target]
        cap = state.capital[p]
        return [t for t, o in enumerate(state.owner) if o == p and t != cap and t != target and t not in adj]

    @staticmethod
    def giftable(state: State, p: int, target: int) -> list[int]:
        """M14: the attacker's non-capital territories adjacent to the target."""
        cap = state.capital[p]
        return [t for t in state.board.adj[target] if state.owner[t] == p and t != cap]

    def can_respin(self, state: State, p: int) -> bool:
        """M11: a re-spin token and an eligible territory; at most one re-spin per invasion."""
        inv = state.inv
        return (
            inv is not None
            and inv.respin_by == NEUTRAL
            and state.respin[p] > 0
            and bool(self.sacrificable(state, p, inv.target))
        )

    def can_block(self, state: State) -> bool:
        """M8: a block token and at least s eligible territories."""
        inv = state.inv
        assert inv is not None
        d = inv.defender
        return state.block[d] > 0 and len(self.sacrificable(state, d, inv.target)) >= len(inv.sacrificed)

    @staticmethod
    def pool_free(state: State, kind: str) -> int | None:
        """M15: tokens of that kind left in the pool; None when unlimited."""
        if state.pool is None:
            return None
        held = state.block if kind == "b" else state.respin
        return max(0, state.pool - sum(held))

    # -- turn order -------------------------------------------------------------------
    def to_move(self, state: State) -> int | None:
        """The seat expected to act; the host presses spin and records duels for the attacker's seat."""
        return seat_of(state)

    # -- a live campaign table (M3): the players' devices and the host ---------------------
    host_is_referee = True  # M3: the host is a role, not a seat
    live_ruling = "M3"

    def host_step(self, state: State) -> str | None:
        """M10, M12: the spin and the duel's result are the host's, whoever's invasion it is."""
        return PHASE_RULES[state.phase].by_host or None

    def host_only(self, action: Action) -> str | None:
        """What no player's device may send (M3): the spin, a duel's result, corrections."""
        if isinstance(action, (Spin, SpinResult)):
            return SPUN_BY_HOST
        if isinstance(action, Duel):
            return RECORDED_BY_HOST
        if isinstance(action, CORRECTIONS):
            return "M17: only the host corrects the campaign"
        if isinstance(action, Agree):
            return "M16: only the host records an end by mutual agreement"
        return None

    def made_by(self, action: Action, by: str) -> Action:
        """M3: a player's choice says who made it at a live table (``@p``, ``@h``)."""
        return replace(action, by=by) if isinstance(action, CHOICES) and by in BY else action

    def ahead(self, state: State) -> tuple[int, ...]:
        """M9 at a live table: the defender assigns slices while the attacker does."""
        if state.phase is Phase.SLICES_A and state.inv is not None:
            return (state.inv.defender,)
        return ()

    def check_ahead(self, state: State, seat: int, action: Action) -> Action:
        """The defender's slices made while the attacker assigns: checked as the defender's
        step will check them (M9: the defender's Z and cap are fixed when the invasion is
        declared, so what is valid now stays valid)."""
        if seat not in self.ahead(state) or not isinstance(action, Slices):
            raise _illegal("M9.ahead", f"M9: {quote(str(action))} cannot be chosen ahead; only the defender's slices")
        self._slices(replace(state, phase=Phase.SLICES_D), action)
        return action

    def chance(self, state: State) -> ChanceSpec | None:
        if PHASE_RULES[state.phase].chance is not None and state.inv is not None:
            return ChanceSpec("spin", (state.inv.x,))
        return None

    def chance_action(self, state: State, values: Sequence[int]) -> SpinResult:
        inv = state.inv
        if PHASE_RULES[state.phase].chance is not SpinResult or inv is None:
            raise _illegal("M10.not-spinning", "M10: the wheel is not being spun")
        (k,) = values
        return SpinResult(int(k), inv.layout)

    def outcome(self, state: State) -> Outcome | None:
        """M16: most territories wins; a tie is a shared win."""
        if state.phase is not Phase.OVER:
            return None
        counts = state.counts()
        best = max(counts)
        winners = tuple(p for p, c in enumerate(counts) if c == best)
        return Outcome(winners=winners, reason=state.ended or "over", scores=tuple(float(c) for c in counts))

    # -- legal actions ------------------------------------------------------------------
    def legal_actions(self, state: State) -> list[Action]:
        """The phase's moves (the table's ``moves``), each kind's offers in a stable order.

        Host corrections (M17) and the agreement (M16) are accepted by ``apply`` at the
        allowed moments but never listed: they are the host's, not a move.
        """
        rule = PHASE_RULES[state.phase]
        if rule.invasion and state.inv is None:
            return []
        acts: list[Action] = []
        for kind in rule.moves:
            acts += _OFFERS[kind](self, state)
        return acts

    def _offer_capitals(self, state: State) -> list[Action]:
        cands = self.capital_candidates(state, state.current)
        if cands:
            return [PickCapital(t) for t in cands]
        return [PickCapital(t, True) for t, o in enumerate(state.owner) if o == NEUTRAL]

    def _offer_claims(self, state: State) -> list[Action]:
        return [Claim(t) for t in self.claimable(state, state.current)]

    def _offer_invasions(self, state: State) -> list[Action]:
        return [Invade(t) for t in self.invadable(state, state.current)]

    def _offer_sacrifices(self, state: State) -> list[Action]:
        inv = state.inv
        assert inv is not None
        elig = self._by_distance(state, self.sacrificable(state, inv.attacker, inv.target), inv.target)
        acts: list[Action] = [Sacrifice()]
        acts += [Sacrifice(tuple(sorted(elig[:s]))) for s in range(1, min(inv.y_a, len(elig)) + 1)]
        return acts

    def _offer_blocks(self, state: State) -> list[Action]:
        inv = state.inv
        assert inv is not None
        elig = self._by_distance(state, self.sacrificable(state, inv.defender, inv.target), inv.target)
        s = len(inv.sacrificed)
        acts: list[Action] = [Block()]
        if state.block[inv.defender] > 0 and len(elig) >= s:
            acts.append(Block(tuple(sorted(elig[:s]))))
        return acts

    def _offer_slices(self, state: State) -> list[Action]:
        inv = state.inv
        assert inv is not None
        z, cap = (inv.z_a, inv.cap_a) if side_of(state) == "a" else (inv.z_d, inv.cap_d)
        return [Slices(a) for a in canonical_allocs(z, cap, len(state.games))]

    def _offer_respins(self, state: State) -> list[Action]:
        inv = state.inv
        p = seat_of(state)
        assert inv is not None and p is not None
        return [Respin(None)] + [Respin(t) for t in self.sacrificable(state, p, inv.target)]

    def _offer_gifts(self, state: State) -> list[Action]:
        inv = state.inv
        assert inv is not None
        return [Gift(t) for t in self.giftable(state, inv.attacker, inv.target)]

    @staticmethod
    def _by_distance(state: State, ts: list[int], target: int) -> list[int]:
        """Canonical order for offered sacrifices: farthest from the target first."""
        row = state.board.dist[target]
        return sorted(ts, key=lambda t: (-row[t], t))

    # -- apply ------------------------------------------------------------------------
    def apply(self, state: State, action: Action) -> State:
        if isinstance(action, str):
            action = parse_action(action)
        handler = _HANDLERS.get(type(action))
        if handler is None:
            raise InvalidAction("action.type", f"{quote(repr(action))} is not a metagame action")
        self._check_phase(state, action)
        return handler(self, state, action)

    def _check_phase(self, state: State, action: Action) -> None:
        """Refuse an action the phase table does not allow now, naming the ruling."""
        rule = PHASE_RULES[state.phase]
        kind = type(action)
        if kind in rule.allows and (state.inv is not None or not rule.invasion):
            return
        if state.phase is Phase.OVER:
            if kind is Agree:
                raise _illegal("M16.over", "M16: the campaign is already over")
            if kind in CORRECTIONS:
                raise _illegal("M16.over", "M16: the campaign is over; undo the last step to correct it")
            raise _illegal("M16.over", f"M16: the campaign is over; {quote(action)} cannot be played")
        if kind in CORRECTIONS and rule.invasion:
            raise _illegal(
                "M17.mid-invasion",
                "M17: corrections are made between turns; finish the invasion or undo it first",
            )
        if kind is Agree and state.phase is Phase.CAPITAL:
            raise _illegal("M16.too-early", "M16: the campaign has not started; finish picking capitals")
        raise _illegal(
            "phase", f"{quote(action)} is not possible now: the campaign is at the {rule.step} step"
        )

    def _territory(self, state: State, t: int, what: str) -> None:
        if not 0 <= t < len(state.board):
            raise IllegalAction(
                "M1.no-territory", f"M1: there is no territory {t} on this map ({quote(what)})"
            )

    def _pick_capital(self, state: State, a: PickCapital) -> State:
        self._territory(state, a.t, str(a))
        p = state.current
        if state.owner[a.t] != NEUTRAL:
            raise _illegal(
                "M4.not-neutral",
                f"M4: a capital must be a neutral territory; {_tname(state, a.t)} is held",
            )
        cands = self.capital_candidates(state, p)
        if a.override:
            if cands:
                raise _illegal(
                    "M4.override-not-needed",
                    f"M4: the host may override only when no territory qualifies; {len(cands)} do",
                )
        elif a.t not in cands:
            if not cands:
                raise _illegal(
                    "M4.none-qualifies",
                    "M4: no territory is 3 or more away from every other player's; "
                    "the host may override (k<territory>!)",
                )
            row = state.board.dist[a.t]
            d, u = min((row[u], u) for u, o in enumerate(state.owner) if o not in (NEUTRAL, p))
            raise _illegal(
                "M4.too-close",
                f"M4: a capital must be 3 or more steps from every territory another player owns; "
                f"{_tname(state, a.t)} is {plural_steps(d)} from {_pname(state, state.owner[u])}'s {_tname(state, u)}",
            )
        owner = list(state.owner)
        owner[a.t] = p
        capital = list(state.capital)
        capital[p] = a.t
        nxt = p + 1
        if nxt >= len(state.players):
            return replace(state, owner=tuple(owner), capital=tuple(capital), phase=Phase.TURN, current=0, turn=1)
        return replace(state, owner=tuple(owner), capital=tuple(capital), current=nxt)

    def _claim(self, state: State, a: Claim) -> State:
        self._territory(state, a.t, str(a))
        p = state.current
        if state.owner[a.t] != NEUTRAL:
            raise _illegal(
                "M5.claim-not-neutral",
                f"M5: only a neutral territory can be claimed; "
                f"{_tname(state, a.t)} is held by {_pname(state, state.owner[a.t])}",
            )
        if not any(state.owner[u] == p for u in state.board.adj[a.t]):
            raise _illegal(
                "M5.claim-not-adjacent",
                f"M5: a claimed territory must border one of "
                f"{_pname(state, p)}'s; {_tname(state, a.t)} does not",
            )
        owner = list(state.owner)
        owner[a.t] = p
        return self._end_turn(replace(state, owner=tuple(owner)))

    def _pass(self, state: State, a: Pass) -> State:
        return self._end_turn(state)

    def _invade(self, state: State, a: Invade) -> State:
        self._territory(state, a.t, str(a))
        p = state.current
        d = state.owner[a.t]
        if d == NEUTRAL:
            raise _illegal("M5.invade-neutral", f"M5: {_tname(state, a.t)} is neutral; claim it instead")
        if d == p:
            raise _illegal(
                "M5.invade-own", f"M5: {_tname(state, a.t)} is already {_pname(state, p)}'s"
            )
        if not any(state.owner[u] == p for u in state.board.adj[a.t]):
            raise _illegal(
                "M5.invade-not-adjacent",
                f"M5: an invaded territory must border one of "
                f"{_pname(state, p)}'s; {_tname(state, a.t)} does not",
            )
        counts = state.counts()
        inv = Invasion(
            attacker=p,
            defender=d,
            target=a.t,
            m=2 if state.capital[d] == a.t else 1,
            n_a=counts[p],
            n_d=counts[d],
        )
        st = replace(state, inv=inv, phase=Phase.SACRIFICE)
        if inv.y_a < 1 or not self.sacrificable(st, p, a.t):
            st = replace(st, phase=Phase.SLICES_A)
        return st

    def _set_of(self, state: State, ts: tuple[int, ...], p: int, target: int, rule: str, who: str) -> None:
        elig = set(self.sacrificable(state, p, target))
        adj = state.board.adj[target]
        for t in ts:
            self._territory(state, t, who)
            name = _tname(state, t)
            if state.owner[t] != p:
                raise _illegal(
                    f"{rule}.not-own",
                    f"{rule}: a sacrificed territory must be {_pname(state, p)}'s own; {name} is not",
                )
            if t == state.capital[p]:
                raise _illegal(f"{rule}.capital", f"{rule}: a capital cannot be sacrificed ({name})")
            if t == target:
                raise _illegal(f"{rule}.target", f"{rule}: the target itself cannot be sacrificed")
            if t in adj:
                raise _illegal(
                    f"{rule}.adjacent",
                    f"{rule}: a sacrificed territory must not border the target; {name} does",
                )
            assert t in elig

    def _sacrifice(self, state: State, a: Sacrifice) -> State:
        inv = state.inv
        assert inv is not None
        if not a.ts:
            return replace(state, phase=Phase.SLICES_A)
        if len(a.ts) > inv.y_a:
            raise _illegal(
                "M7.too-many",
                f"M7: at most YA = {count_of(inv.y_a, 'territory', 'territories')} may be sacrificed; {len(a.ts)} named",
            )
        self._set_of(state, a.ts, inv.attacker, inv.target, "M7", str(a))
        owner = list(state.owner)
        for t in a.ts:
            owner[t] = NEUTRAL
        st = replace(state, owner=tuple(owner), inv=replace(inv, sacrificed=a.ts), phase=Phase.BLOCK)
        if not self.can_block(st):
            st = replace(st, phase=Phase.SLICES_A)
        return st

    def _block(self, state: State, a: Block) -> State:
        inv = state.inv
        assert inv is not None
        if not a.ts:
            return replace(state, phase=Phase.SLICES_A)
        d = inv.defender
        if state.block[d] < 1:
            raise _illegal("M8.no-token", f"M8: {_pname(state, d)} holds no block token")
        s = len(inv.sacrificed)
        if len(a.ts) != s:
            raise _illegal(
                "M8.count",
                f"M8: a block sacrifices exactly s = {count_of(s, 'territory', 'territories')}; {len(a.ts)} named",
            )
        self._set_of(state, a.ts, d, inv.target, "M8", str(a))
        owner = list(state.owner)
        for t in a.ts:
            owner[t] = NEUTRAL
        block = list(state.block)
        block[d] -= 1  # spent tokens go back to the pool (seed 8)
        return replace(
            state, owner=tuple(owner), block=tuple(block), inv=replace(inv, blocked=a.ts), phase=Phase.SLICES_A
        )

    def _slices(self, state: State, a: Slices) -> State:
        inv = state.inv
        assert inv is not None
        side = side_of(state)
        rep = slice_report(state, a.alloc, side)
        if not rep["ok"]:
            why = "; ".join(m.removeprefix("M9: ") for m in rep["messages"])
            raise _illegal(
                "M9.slices",
                f"M9: each side assigns exactly its Z = {count_of(rep['z'], 'slice', 'slices')}, "
                f"no game above its cap of {rep['cap']}: {why}",
            )
        if side == "a":
            return replace(state, inv=replace(inv, slices_a=a.alloc), phase=Phase.SLICES_D)
        return replace(state, inv=replace(inv, slices_d=a.alloc), phase=Phase.SPIN)

    def _spin(self, state: State, a: Spin) -> State:
        return replace(state, phase=Phase.SPINNING)

    def _spin_result(self, state: State, a: SpinResult) -> State:
        inv = state.inv
        assert inv is not None
        if a.layout != inv.layout:
            raise _illegal(
                "M10.layout", f"M10: the recorded wheel ({a.x} slices) is not this invasion's wheel"
            )
        if not 0 <= a.k < inv.x:
            raise _illegal("M10.slice", f"M10: there is no slice {a.k} on a wheel of {inv.x}")
        inv2 = replace(inv, spins=inv.spins + (a.k,))
        st = replace(state, inv=inv2, phase=Phase.DUEL)
        if inv2.respin_by == NEUTRAL:
            if self.can_respin(st, inv.attacker):
                st = replace(st, phase=Phase.RESPIN_A)
            elif self.can_respin(st, inv.defender):
                st = replace(st, phase=Phase.RESPIN_D)
        return st

    def _respin(self, state: State, a: Respin) -> State:
        inv = state.inv
        assert inv is not None
        side = side_of(state)
        p = inv.attacker if side == "a" else inv.defender
        if a.t is None:  # the attacker decides first; then the defender may re-spin
            if side == "a" and self.can_respin(state, inv.defender):
                return replace(state, phase=Phase.RESPIN_D)
            return replace(state, phase=Phase.DUEL)
        self._territory(state, a.t, str(a))
        if state.respin[p] < 1:
            raise _illegal("M11.no-token", f"M11: {_pname(state, p)} holds no re-spin token")
        self._set_of(state, (a.t,), p, inv.target, "M11", str(a))
        owner = list(state.owner)
        owner[a.t] = NEUTRAL
        respin = list(state.respin)
        respin[p] -= 1
        return replace(
            state,
            owner=tuple(owner),
            respin=tuple(respin),
            inv=replace(inv, respin_by=p, respin_spent=a.t),
            phase=Phase.SPINNING,
        )

    def _duel(self, state: State, a: Duel) -> State:
        inv = state.inv
        assert inv is not None
        if a.winner not in ("a", "d"):
            raise InvalidAction("action.duel", "M12: a duel is won by the attacker (a) or the defender (d)")
        if a.record is not None:
            # M12, a built-in game played here: the record is replayed with the duel game's
            # engine; the winner and the seats must be this invasion's (IllegalAction if not)
            replay_duel(state, a.winner, a.record)
            state = replace(state, duel_steps=state.duel_steps + len(a.record.log))
        if a.winner == "a":
            inv2 = replace(inv, duel_wins=inv.duel_wins + 1)
            if inv2.duel_wins < inv2.needed_wins:
                return replace(state, inv=inv2)  # M12: a capital needs a second win
            return self._attacker_wins(replace(state, inv=inv2))
        return self._defender_wins(state)

    def _earn(self, state: State, kind: str, p: int) -> tuple[int, ...]:
        held = list(state.block if kind == "b" else state.respin)
        free = self.pool_free(state, kind)
        if free is None or free > 0:
            held[p] += 1
        return tuple(held)

    def _attacker_wins(self, state: State) -> State:
        """M13: the target changes hands; a capital brings everything and eliminates."""
        inv = state.inv
        assert inv is not None
        owner = list(state.owner)
        owner[inv.target] = inv.attacker
        if inv.m == 2:
            owner = [inv.attacker if o == inv.defender else o for o in owner]
        st = replace(state, owner=tuple(owner))
        if inv.sacrifice_counts:
            st = replace(st, respin=self._earn(st, "r", inv.attacker))
        return self._end_turn(st)

    def _defender_wins(self, state: State) -> State:
        """M14: the defender keeps the target, earns a block token and receives a gift."""
        inv = state.inv
        assert inv is not None
        st = replace(state, block=self._earn(state, "b", inv.defender))
        if self.giftable(st, inv.attacker, inv.target):
            return replace(st, phase=Phase.GIFT)
        return self._end_turn(st)  # M14: nothing to give (the log says so)

    def _gift(self, state: State, a: Gift) -> State:
        inv = state.inv
        assert inv is not None
        self._territory(state, a.t, str(a))
        if a.t not in self.giftable(state, inv.attacker, inv.target):
            raise _illegal(
                "M14.gift",
                f"M14: the gift must be one of {_pname(state, inv.attacker)}'s "
                f"non-capital territories bordering the target; {_tname(state, a.t)} is not",
            )
        owner = list(state.owner)
        owner[a.t] = inv.defender
        return self._end_turn(replace(state, owner=tuple(owner)))

    # -- after every resolution -------------------------------------------------------
    def _settle(self, state: State) -> State:
        """Players left with no territory are out: tokens back to the pool, no capital (M13)."""
        if state.phase is Phase.CAPITAL:
            return state
        counts = state.counts()
        if 0 not in counts:
            return state
        block = tuple(b if counts[p] else 0 for p, b in enumerate(state.block))
        respin = tuple(r if counts[p] else 0 for p, r in enumerate(state.respin))
        capital = tuple(c if counts[p] else NEUTRAL for p, c in enumerate(state.capital))
        return replace(state, block=block, respin=respin, capital=capital)

    def _end_reason(self, state: State) -> str | None:
        """M16, checked after every resolution."""
        counts = state.counts()
        if len(counts) - counts.count(0) <= 1:
            return "last"
        if 4 * max(counts) > 3 * len(state.board):
            return "majority"
        return None

    def _next_alive(self, state: State, after: int) -> int:
        n = len(state.players)
        for k in range(1, n + 1):
            q = (after + k) % n
            if state.alive(q):
                return q
        return after

    def _end_turn(self, state: State) -> State:
        st = self._settle(replace(state, inv=None, phase=Phase.TURN))
        reason = self._end_reason(st)
        if reason:
            return replace(st, phase=Phase.OVER, ended=reason)
        return replace(st, current=self._next_alive(st, st.current), turn=st.turn + 1)

    # -- host corrections (M17) and agreement (M16) ------------------------------------
    def _after_correction(self, state: State) -> State:
        if state.phase is Phase.CAPITAL:
            return state
        st = self._settle(state)
        reason = self._end_reason(st)
        if reason:
            return replace(st, phase=Phase.OVER, ended=reason)
        if not st.alive(st.current):
            st = replace(st, current=self._next_alive(st, st.current))
        return st

    def _check_seat(self, state: State, p: int) -> None:
        if not 0 <= p < len(state.players):
            raise IllegalAction(
                "M2.no-player", f"M2: there is no player {p} (seats 0..{len(state.players) - 1})"
            )

    def _set_owner(self, state: State, a: SetOwner) -> State:
        self._territory(state, a.t, str(a))
        if a.player is not None:
            self._check_seat(state, a.player)
        new = NEUTRAL if a.player is None else a.player
        owner = list(state.owner)
        owner[a.t] = new
        capital = tuple(NEUTRAL if (c == a.t and p != new) else c for p, c in enumerate(state.capital))
        return self._after_correction(replace(state, owner=tuple(owner), capital=capital))

    def _set_capital(self, state: State, a: SetCapital) -> State:
        self._check_seat(state, a.player)
        if a.t is not None:
            self._territory(state, a.t, str(a))
            if state.owner[a.t] != a.player:
                raise _illegal(
                    "M17.capital-not-own",
                    f"M17: a capital must be one of the player's territories; "
                    f"give {_tname(state, a.t)} to {_pname(state, a.player)} first",
                )
        capital = list(state.capital)
        capital[a.player] = NEUTRAL if a.t is None else a.t
        return self._after_correction(replace(state, capital=tuple(capital)))

    def _set_tokens(self, state: State, a: SetTokens) -> State:
        self._check_seat(state, a.player)
        if a.count > MAX_TOKENS:
            raise _illegal("M17.tokens", f"M17: at most {MAX_TOKENS} tokens")
        held = list(state.block if a.kind == "b" else state.respin)
        held[a.player] = a.count
        if state.pool is not None and sum(held) > state.pool:
            kind = "block" if a.kind == "b" else "re-spin"
            raise _illegal("M15.pool", f"M15: the pool holds only {state.pool} {kind} tokens in all")
        st = replace(state, block=tuple(held)) if a.kind == "b" else replace(state, respin=tuple(held))
        return self._after_correction(st)

    def _agree(self, state: State, a: Agree) -> State:
        return replace(self._settle(replace(state, inv=None)), phase=Phase.OVER, ended="agreement")

    # -- text ---------------------------------------------------------------------------
    def parse_action(self, text: str) -> Action:
        return parse_action(text)

    # -- JSON -------------------------------------------------------------------------
    def state_to_json(self, state: State) -> dict[str, Any]:
        inv = state.inv
        board = state.board
        return {
            "map": board.map_id if board.data is None else None,
            "map_data": board.data,
            "players": [{"name": p.name, "colour": p.colour} for p in state.players],
            "games": list(state.games),
            "pool": state.pool,
            "owner": list(state.owner),
            "capital": list(state.capital),
            "block": list(state.block),
            "respin": list(state.respin),
            "phase": state.phase.value,
            "current": state.current,
            "turn": state.turn,
            "ended": state.ended,
            "duel_steps": state.duel_steps,
            "inv": None
            if inv is None
            else {
                "attacker": inv.attacker,
                "defender": inv.defender,
                "target": inv.target,
                "m": inv.m,
                "n_a": inv.n_a,
                "n_d": inv.n_d,
                "sacrificed": list(inv.sacrificed),
                "blocked": list(inv.blocked),
                "slices_a": [list(x) for x in inv.slices_a],
                "slices_d": [list(x) for x in inv.slices_d],
                "spins": list(inv.spins),
                "respin_by": inv.respin_by,
                "respin_spent": inv.respin_spent,
                "duel_wins": inv.duel_wins,
            },
        }

    def state_from_json(self, obj: Mapping[str, Any]) -> State:
        try:
            board: Board = board_for_options(obj["map"] or "", obj.get("map_data"))
            i = obj["inv"]
            inv = (
                None
                if i is None
                else Invasion(
                    attacker=i["attacker"],
                    defender=i["defender"],
                    target=i["target"],
                    m=i["m"],
                    n_a=i["n_a"],
                    n_d=i["n_d"],
                    sacrificed=tuple(i["sacrificed"]),
                    blocked=tuple(i["blocked"]),
                    slices_a=tuple((g, n) for g, n in i["slices_a"]),
                    slices_d=tuple((g, n) for g, n in i["slices_d"]),
                    spins=tuple(i["spins"]),
                    respin_by=i["respin_by"],
                    respin_spent=i["respin_spent"],
                    duel_wins=i["duel_wins"],
                )
            )
            return State(
                board=board,
                players=tuple(Player(p["name"], p["colour"]) for p in obj["players"]),
                games=tuple(obj["games"]),
                pool=obj["pool"],
                owner=tuple(obj["owner"]),
                capital=tuple(obj["capital"]),
                block=tuple(obj["block"]),
                respin=tuple(obj["respin"]),
                phase=Phase(obj["phase"]),
                current=obj["current"],
                turn=obj["turn"],
                inv=inv,
                ended=obj["ended"],
                duel_steps=obj.get("duel_steps", 0),
            )
        except (KeyError, TypeError, ValueError, BoardError) as exc:
            raise InvalidAction("state.json", f"not a metagame state: {quote(str(exc), 120)}") from None


def _pname(state: State, p: int) -> str:
    return state.player_name(p)


def _tname(state: State, t: int) -> str:
    return state.territory_name(t)


def plural_steps(d: int) -> str:
    return count_of(d, "step", "steps")


def count_of(n: int, one: str, many: str) -> str:
    """A count with its noun in the right number: "1 slice", "3 slices" (never "1 slices")."""
    return f"{n} {one if n == 1 else many}"


#: what ``apply`` does for each action type (after the phase table allowed it)
_HANDLERS: dict[type, Callable[[MetagameRules, State, Any], State]] = {
    PickCapital: MetagameRules._pick_capital,
    Claim: MetagameRules._claim,
    Pass: MetagameRules._pass,
    Invade: MetagameRules._invade,
    Sacrifice: MetagameRules._sacrifice,
    Block: MetagameRules._block,
    Slices: MetagameRules._slices,
    Spin: MetagameRules._spin,
    SpinResult: MetagameRules._spin_result,
    Respin: MetagameRules._respin,
    Duel: MetagameRules._duel,
    Gift: MetagameRules._gift,
    SetOwner: MetagameRules._set_owner,
    SetCapital: MetagameRules._set_capital,
    SetTokens: MetagameRules._set_tokens,
    Agree: MetagameRules._agree,
}

#: what ``legal_actions`` offers for each move type the phase table lists
_OFFERS: dict[type, Callable[[MetagameRules, State], list[Action]]] = {
    PickCapital: MetagameRules._offer_capitals,
    Claim: MetagameRules._offer_claims,
    Invade: MetagameRules._offer_invasions,
    Pass: lambda game, state: [Pass()],
    Sacrifice: MetagameRules._offer_sacrifices,
    Block: MetagameRules._offer_blocks,
    Slices: MetagameRules._offer_slices,
    Spin: lambda game, state: [Spin()],
    Respin: MetagameRules._offer_respins,
    Duel: lambda game, state: [Duel("a"), Duel("d")],
    Gift: MetagameRules._offer_gifts,
}

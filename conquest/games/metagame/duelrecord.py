"""A duel played here, carried in the campaign's log as evidence (M12, issue 14).

Why evidence rather than a typed winner: when the wheel lands on one of the project's own
two-player games, the two duellists play it in the site, and the campaign takes the result
by itself. The metagame's ``Duel`` action then carries the whole finished duel (its game
id, its set-up seed, its rules options and its log), and :meth:`MetagameRules.apply`
replays it with the duel game's own engine: the winner must be the one the action names,
and the duel's seats must be the attacker and the defender. So anyone holding the host
link can re-check every duel (``python -m conquest verify`` replays them too), and a
typed ``da``/``dd`` stays what it is: a result the host entered by hand.

Generic over the registry: any registered two-player game (:func:`builtin_games`) can be
a duel; the seats go into its options as the shell's seats (``{"name", "colour"}``), the
form every game page's set-up writes, so a later game joins with no change here.

The text (one log step), kept short for links and free of ``;`` (the link's log
separator)::

    da:conquests:a:1234:<options>:<step>,<step>,...
    da:conquests@live:a:1234:<options>:<step>,<step>,...   (played at a live table, issue 22)

``da``/``dd`` is the winner (attacker/defender), then the duel game's id, who sat in the
duel's first seat (``a`` the attacker, ``d`` the defender), the set-up seed, the rules
options that differ from the game's defaults (compact JSON, empty when none), and the
duel's log. ``@live`` after the game id, optional, says the duel was played at a live
table (the campaign's log says "played live"); a record without it reads as before.
``%``, ``,``, ``:`` and ``;`` inside the options and the steps are written ``%25``,
``%2C``, ``%3A``, ``%3B``.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from conquest.core import GameError, IllegalAction, excerpt
from conquest.games.metagame.actions import (
    DUEL_HOWS,
    MAX_RECORD_CHARS,
    SEAT_KEYS,
    DuelRecord,
    format_record,
    parse_record,
)
from conquest.games.metagame.phases import Phase

#: the most duel moves one campaign replays (all its duels together). Why: a link is data
#: from anyone, and every duel in it is replayed when it opens; 5,000 moves of The Game of
#: Conquests replay in about 0.3 s in CPython (64 us a move), so the worst accepted link stays
#: within the budget of tests/test_hardening_resources.py. A real campaign's link is too long
#: for a chat message long before (about 4 characters a move).
MAX_CAMPAIGN_DUEL_STEPS = 5_000

__all__ = [
    "DuelRecord",
    "format_record",
    "parse_record",
    "duel_game_id",
    "duel_options",
    "duel_setup",
    "replay_duel",
    "duel_from_save",
    "MAX_RECORD_CHARS",
    "MAX_CAMPAIGN_DUEL_STEPS",
    "SEAT_KEYS",
]


# -- hand-over: metagame -> duel -----------------------------------------------------------
def duel_game_id(state: Any) -> str | None:
    """The registry id of the built-in game the wheel chose (M12), or None (typed or not spun)."""
    from conquest.games.metagame.duels import builtin_games

    inv = state.inv
    if inv is None or not inv.spins:
        return None
    try:
        name = state.games[inv.game_at(inv.spins[-1])]
    except IndexError:
        return None
    return name if name in builtin_games() else None


def _seat(state: Any, p: int) -> dict[str, str]:
    player = state.players[p]
    return {"name": player.name, "colour": player.colour}


def duel_options(state: Any, first: str, rules: Mapping[str, Any] | None = None) -> dict[str, Any]:
    """The duel game's options: ``rules`` plus the two seats, attacker and defender, in order.

    The seats are the shell's (``{"name", "colour"}``): what every game page's set-up writes,
    so every registered game accepts them.
    """
    inv = state.inv
    order = (inv.attacker, inv.defender) if first == "a" else (inv.defender, inv.attacker)
    return {**dict(rules or {}), "seats": [_seat(state, p) for p in order]}


def duel_setup(state: Any, first: str = "a", rules: Mapping[str, Any] | None = None) -> dict[str, Any]:
    """What the console opens: ``{"game", "options"}`` for the duel the wheel chose.

    The options carry the two players' names and colours and a title naming the invasion
    (the shell's saved-games list shows it, and the duel page says which campaign it is for).
    Raises IllegalAction when no built-in duel is due.
    """
    gid = duel_game_id(state)
    inv = state.inv
    if gid is None or state.phase is not Phase.DUEL or inv is None:
        raise IllegalAction("M12.no-duel", "M12: no duel in one of the site's own games is due now")
    a, d = state.players[inv.attacker].name, state.players[inv.defender].name
    nth = " (second game)" if inv.duel_wins else ""
    # the turn tells apart two duels for one territory in the saved games (issue 21, item 3)
    title = f"Duel{nth}: {a} vs {d} for {state.territory_name(inv.target)}, turn {state.turn}"
    return {"game": gid, "options": {**duel_options(state, first, rules), "title": title[:200]}}


# -- hand-over: duel -> metagame -----------------------------------------------------------
def replay_duel(state: Any, winner: str, rec: DuelRecord) -> Any:
    """Replay ``rec`` against the invasion under way; the finished Match, or IllegalAction (M12)."""
    from conquest.core import get_game
    from conquest.session import Match, ReplayError

    gid = duel_game_id(state)
    inv = state.inv
    if gid is None or inv is None:
        raise IllegalAction(
            "M12.duel-typed",
            "M12: the wheel did not land on one of the site's games; enter the winner by hand",
        )
    if rec.game != gid:
        raise IllegalAction(
            "M12.duel-game", f"M12: the wheel chose {gid}, but the duel record is a game of {rec.game}"
        )
    if state.duel_steps + len(rec.log) > MAX_CAMPAIGN_DUEL_STEPS:
        raise IllegalAction(
            "M12.duel-budget",
            f"M12: this campaign already carries {state.duel_steps:,} moves of duels played here; with this "
            f"duel's {len(rec.log):,} it would pass {MAX_CAMPAIGN_DUEL_STEPS:,}, the most a campaign replays "
            "(so any link opens quickly); enter the winner by hand",
        )
    game = get_game(gid)
    try:
        match = Match(
            game, {**duel_options(state, rec.first, rec.rules_options()), "seed": rec.seed}, rec.log
        )
    except ReplayError as exc:
        raise IllegalAction("M12.duel-replay", f"M12: the duel does not replay: {exc.message}") from None
    except GameError as exc:
        raise IllegalAction(
            "M12.duel-options", f"M12: the duel's options are refused: {exc.message}"
        ) from None
    out = game.outcome(match.state)
    if out is None:
        raise IllegalAction("M12.duel-unfinished", f"M12: the duel of {game.title} is not finished")
    if len(out.winners) != 1:
        raise IllegalAction("M12.duel-drawn", "M12: a drawn duel decides nothing; play it again")
    side = rec.first if out.winners[0] == 0 else ("d" if rec.first == "a" else "a")
    if side != winner:
        who = state.player_name(inv.attacker if side == "a" else inv.defender)
        raise IllegalAction(
            "M12.duel-winner", f"M12: the duel replays to a win for {who}, not what this step records"
        )
    return match


def duel_from_save(state: Any, save: Mapping[str, Any], how: str = "") -> tuple[str, DuelRecord]:
    """The console's hand-over: a finished duel save -> ``(winner, record)`` for a ``Duel`` action.
    ``how`` is ``"live"`` for a duel the console sent to a live table (``DUEL_HOWS``), else "".

    Checks, with the duel game's engine, that the save is the game the wheel chose, that
    its two seats are the attacker and the defender (names and colours, no computer player),
    and that it is finished with one winner. Raises IllegalAction (M12) saying why not.
    """
    from conquest.core import get_game

    gid = duel_game_id(state)
    if gid is None or state.inv is None:
        raise IllegalAction("M12.no-duel", "M12: no duel in one of the site's own games is due now")
    if save.get("game") != gid:
        raise IllegalAction(
            "M12.duel-game", f"M12: the wheel chose {gid}; that save is a game of {excerpt(save.get('game'))}"
        )
    game = get_game(gid)
    raw = dict(save.get("options") or {})
    seed = raw.get("seed", 0)
    if not isinstance(seed, int) or isinstance(seed, bool) or not 0 <= seed < 2**63:
        raise IllegalAction("M12.duel-options", "M12: the duel's set-up seed is not a whole number")
    rules = {k: v for k, v in raw.items() if k not in SEAT_KEYS}
    try:
        given = game.normalize_options({k: v for k, v in raw.items() if k not in ("title", "seed")})
        defaults = game.normalize_options({})
        first = next(
            (f for f in ("a", "d") if game.normalize_options(duel_options(state, f, rules)) == given), None
        )
    except GameError as exc:
        raise IllegalAction(
            "M12.duel-options", f"M12: the duel's options are refused: {exc.message}"
        ) from None
    if first is None:
        raise IllegalAction(
            "M12.duel-seats",
            f"M12: the duel's two seats must be {state.player_name(state.inv.attacker)} and "
            f"{state.player_name(state.inv.defender)} with their colours, both played by people",
        )
    kept = {
        k: v for k, v in game.normalize_options(rules).items() if k not in SEAT_KEYS and defaults.get(k) != v
    }
    opts = json.dumps(kept, separators=(",", ":"), sort_keys=True, ensure_ascii=False) if kept else ""
    if how and how not in DUEL_HOWS:
        raise IllegalAction("M12.duel-how", f"M12: a duel is played here or live, not {excerpt(how)}")
    rec = DuelRecord(gid, first, seed, opts, tuple(str(x) for x in save.get("log", ())), how)
    match = None
    for winner in ("a", "d"):
        try:
            match = replay_duel(state, winner, rec)
        except IllegalAction as exc:
            if exc.code != "M12.duel-winner":
                raise
            continue
        text = format_record(winner, rec)
        if len(text) > MAX_RECORD_CHARS:
            raise IllegalAction(
                "M12.duel-long",
                f"M12: this duel's record ({len(text):,} characters) is longer than a campaign link's step "
                f"holds ({MAX_RECORD_CHARS:,}); enter the winner by hand",
            )
        return winner, rec
    raise AssertionError(match)  # one of the two sides always matches a finished, undrawn duel

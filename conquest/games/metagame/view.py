"""What the host console shows: the view dict and the plain-words log.

Why in the engine package and not in the page: every number the host would otherwise
work out by hand (M6 numbers with their explanation, caps, who may block or re-spin,
which territories are eligible now) is rules logic, tested here; the page only draws it.
Everything is JSON (lists, dicts, strings, numbers); territories are given both as map
indices and ids.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from conquest.games.metagame.actions import (
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
)
from conquest.games.metagame.state import NEUTRAL, State

if TYPE_CHECKING:
    from conquest.games.metagame.engine import MetagameGame

__all__ = ["build_view", "describe_action", "builtin_games"]

_BUILTINS: dict[str, str] | None = None


def builtin_games() -> dict[str, str]:
    """Registered two-player games (id -> title): the wheel may offer them as built-in duels."""
    global _BUILTINS
    if _BUILTINS is None:
        from conquest.games.metagame.engine import KNOWN_BUILTINS

        found = dict(KNOWN_BUILTINS)
        try:
            from conquest.core import games

            for gid, g in games().items():
                if gid != "metagame" and g.min_players <= 2 <= g.max_players:
                    found[gid] = g.title
        except Exception:  # another game failing to import must not break the metagame
            pass
        _BUILTINS = found
    return _BUILTINS


def _tlist(state: State, ts: list[int] | tuple[int, ...]) -> dict[str, Any]:
    ids = state.board.ids
    return {"territories": list(ts), "ids": [ids[t] for t in ts]}


def _alloc_names(state: State, alloc: tuple[tuple[int, int], ...]) -> str:
    return ", ".join(f"{state.games[g]} {n}" for g, n in alloc)


def _invasion_view(game: MetagameGame, state: State) -> dict[str, Any] | None:
    inv = state.inv
    if inv is None:
        return None
    b = state.board
    pa, pd = state.players[inv.attacker].name, state.players[inv.defender].name
    cap_note = (
        " (the target is the defender's capital, so m = 2: X, Y and Z are doubled)" if inv.m == 2 else ""
    )
    explain = [
        f"nA = {inv.n_a}: territories {pa} held when the invasion was declared",
        f"nD = {inv.n_d}: territories {pd} held{cap_note}",
        f"ZA = m x nA = {inv.m} x {inv.n_a} = {inv.z_a} slices for {pa}",
        f"ZD = m x nD = {inv.m} x {inv.n_d} = {inv.z_d} slices for {pd}",
        f"X = ZA + ZD = {inv.x} slices on the wheel",
        f"YA = m x floor(nA/2) = {inv.y_a}; YD = m x floor(nD/2) = {inv.y_d}",
    ]
    if inv.y_a == 0:
        explain.append(f"{pa}'s cap of 0 is raised to 1 (M6)")
    if inv.y_d == 0:
        explain.append(f"{pd}'s cap of 0 is raised to 1 (M6)")
    if inv.sacrificed and not inv.blocked:
        explain.append(f"{pa} sacrificed {len(inv.sacrificed)}: cap YA + s = {inv.cap_a} per game (M7)")
    if inv.blocked:
        explain.append(f"{pd} blocked: the sacrifice gives no cap bonus and no re-spin token (M8)")
    explain.append(f"Per-game caps: {pa} {inv.cap_a}, {pd} {inv.cap_d}")
    if inv.m == 2:
        explain.append(f"{pa} must win the duel twice; {pd} holds by winning either (M12)")
    out: dict[str, Any] = {
        "attacker": inv.attacker,
        "defender": inv.defender,
        "target": inv.target,
        "target_id": b.ids[inv.target],
        "target_name": b.names[inv.target],
        "capital": inv.m == 2,
        "numbers": {
            "nA": inv.n_a,
            "nD": inv.n_d,
            "m": inv.m,
            "X": inv.x,
            "ZA": inv.z_a,
            "ZD": inv.z_d,
            "YA": inv.y_a,
            "YD": inv.y_d,
            "cap_a": inv.cap_a,
            "cap_d": inv.cap_d,
        },
        "explain": explain,
        "sacrificed": _tlist(state, inv.sacrificed),
        "blocked": _tlist(state, inv.blocked),
        "slices": {"a": [list(x) for x in inv.slices_a], "d": [list(x) for x in inv.slices_d]},
        "spins": [],
        "respin_by": None if inv.respin_by == NEUTRAL else inv.respin_by,
        "duel_wins": inv.duel_wins,
        "needed_wins": inv.needed_wins,
        "wheel": [],
    }
    if inv.slices_a and inv.slices_d:
        a_map, d_map = dict(inv.slices_a), dict(inv.slices_d)
        start = 0
        for g, n in inv.layout:
            out["wheel"].append(
                {
                    "game": g,
                    "name": state.games[g],
                    "start": start,
                    "count": n,
                    "a": a_map.get(g, 0),
                    "d": d_map.get(g, 0),
                }
            )
            start += n
    for k in inv.spins:
        g = inv.game_at(k)
        out["spins"].append({"slice": k, "game": g, "name": state.games[g]})
    if inv.spins:
        g = inv.game_at(inv.spins[-1])
        out["chosen_game"] = {"game": g, "name": state.games[g], "builtin": state.games[g] in builtin_games()}
    if state.phase in ("slices_a", "slices_d"):
        from conquest.games.metagame.engine import slice_report

        out["slice_check"] = slice_report(state, {})
    return out


def _prompt(game: MetagameGame, state: State) -> tuple[str, dict[str, Any] | None, list[str]]:
    """The step's instruction, the territories eligible for it, and notes."""
    ph, notes = state.phase, []
    name = game._pname
    inv = state.inv
    if ph == "capital":
        p = state.current
        cands = game.capital_candidates(state, p)
        if cands:
            return (
                f"{name(state, p)}: pick a capital (M4)",
                {"kind": "capital", **_tlist(state, cands)},
                notes,
            )
        neutral = [t for t, o in enumerate(state.owner) if o == NEUTRAL]
        notes.append("M4: no territory is 3 or more away from every other player's; the host may override")
        return (
            f"Host: override M4 and pick {name(state, p)}'s capital",
            {"kind": "capital_override", **_tlist(state, neutral)},
            notes,
        )
    if ph == "turn":
        p = state.current
        claim, invade = game.claimable(state, p), game.invadable(state, p)
        return (
            f"{name(state, p)}: claim a neutral territory, invade a neighbour, or pass (M5)",
            {"kind": "turn", **_tlist(state, sorted(claim + invade)), "claim": claim, "invade": invade},
            notes,
        )
    if ph == "over":
        return ("The campaign is over (M16)", None, notes)
    assert inv is not None
    a, d = name(state, inv.attacker), name(state, inv.defender)
    if ph == "sacrifice":
        elig = game.sacrificable(state, inv.attacker, inv.target)
        return (
            f"{a}: sacrifice up to {min(inv.y_a, len(elig))} territories (not the capital, not bordering "
            f"the target) to raise the cap, or none (M7)",
            {"kind": "sacrifice", "max": inv.y_a, **_tlist(state, elig)},
            notes,
        )
    if ph == "block":
        elig = game.sacrificable(state, inv.defender, inv.target)
        s = len(inv.sacrificed)
        return (
            f"{d}: spend a block token and sacrifice exactly {s} to cancel the cap bonus, or not (M8)",
            {"kind": "block", "exactly": s, **_tlist(state, elig)},
            notes,
        )
    if ph in ("slices_a", "slices_d"):
        who, z, cap = (a, inv.z_a, inv.cap_a) if ph == "slices_a" else (d, inv.z_d, inv.cap_d)
        return (
            f"{who}: assign exactly {z} slices over one or more games, at most {cap} per game (M9)",
            None,
            notes,
        )
    if ph == "spin":
        return (f"Host: spin the wheel ({inv.x} slices) (M10)", None, notes)
    if ph == "spinning":
        return ("The wheel is being drawn (M10)", None, notes)
    if ph in ("respin_a", "respin_d"):
        p = inv.attacker if ph == "respin_a" else inv.defender
        elig = game.sacrificable(state, p, inv.target)
        return (
            f"{name(state, p)}: spend a re-spin token and one territory not bordering the target to "
            f"spin again, or keep the result (M11)",
            {"kind": "respin", **_tlist(state, elig)},
            notes,
        )
    if ph == "duel":
        g = state.games[inv.game_at(inv.spins[-1])]
        nth = " (second game)" if inv.duel_wins else ""
        return (f"Host: {a} and {d} play {g}{nth}; record the winner (M12)", None, notes)
    if ph == "gift":
        elig = game.giftable(state, inv.attacker, inv.target)
        return (
            f"{a}: give {d} one non-capital territory bordering the target (M14)",
            {"kind": "gift", **_tlist(state, elig)},
            notes,
        )
    return ("", None, notes)


def build_view(game: MetagameGame, state: State, player: int | None) -> dict[str, Any]:
    b = state.board
    counts = state.counts()
    n = len(b)
    players = []
    for p, pl in enumerate(state.players):
        cap = state.capital[p]
        players.append(
            {
                "seat": p,
                "name": pl.name,
                "colour": pl.colour,
                "territories": counts[p],
                "share": round(100 * counts[p] / n, 1),
                "capital": None if cap == NEUTRAL else cap,
                "capital_id": None if cap == NEUTRAL else b.ids[cap],
                "block": state.block[p],
                "respin": state.respin[p],
                "alive": state.alive(p),
            }
        )
    prompt, eligible, notes = _prompt(game, state)
    outcome = game.outcome(state)
    builtins = builtin_games()
    standings = sorted(
        ({"seat": p, "name": pl.name, "territories": counts[p]} for p, pl in enumerate(state.players)),
        key=lambda r: (-r["territories"], r["seat"]),
    )
    return {
        "game": game.id,
        "map": b.map_id,
        "size": n,
        "majority": 3 * n // 4 + 1,
        "phase": state.phase,
        "prompt": prompt,
        "turn": state.turn,
        "current": state.current,
        "to_move": game.to_move(state),
        "viewer": player,
        "players": players,
        "owner": list(state.owner),
        "capitals": [c for c in state.capital if c != NEUTRAL],
        "games": [
            {"index": i, "name": g, "builtin": g in builtins, "title": builtins.get(g, g)}
            for i, g in enumerate(state.games)
        ],
        "pool": {
            "size": state.pool,
            "block_free": game.pool_free(state, "b"),
            "respin_free": game.pool_free(state, "r"),
        },
        "eligible": eligible,
        "invasion": _invasion_view(game, state),
        "legal": [str(a) for a in game.legal_actions(state)],
        "notes": notes,
        "standings": standings,
        "outcome": None if outcome is None else outcome.to_json(),
        "ended": state.ended,
    }


def describe_action(game: MetagameGame, state: State, action: Action) -> str:
    """The log line for ``action`` played in ``state`` (before it is applied)."""
    nm, tn = game._pname, game._tname
    inv = state.inv
    p = state.current
    if isinstance(action, PickCapital):
        extra = " (host override: no territory qualified, M4)" if action.override else ""
        return f"{nm(state, p)} picks {tn(state, action.t)} as capital{extra}"
    if isinstance(action, Claim):
        return f"{nm(state, p)} claims {tn(state, action.t)}"
    if isinstance(action, Pass):
        return f"{nm(state, p)} passes"
    if isinstance(action, Invade):
        owner = state.owner[action.t] if 0 <= action.t < len(state.board) else NEUTRAL
        cap = " (capital!)" if owner >= 0 and state.capital[owner] == action.t else ""
        return f"{nm(state, p)} invades {tn(state, action.t)} of {nm(state, owner)}{cap}"
    if isinstance(action, Agree):
        return "Host records a mutual agreement to end the campaign (M16)"
    if isinstance(action, SetOwner):
        who = "neutral" if action.player is None else nm(state, action.player)
        return f"Host correction: {tn(state, action.t)} is now {who} (M17)"
    if isinstance(action, SetCapital):
        where = "no capital" if action.t is None else f"capital {tn(state, action.t)}"
        return f"Host correction: {nm(state, action.player)} has {where} (M17)"
    if isinstance(action, SetTokens):
        kind = "block" if action.kind == "b" else "re-spin"
        return f"Host correction: {nm(state, action.player)} holds {action.count} {kind} tokens (M17)"
    if inv is None:
        return str(action)
    a, d = nm(state, inv.attacker), nm(state, inv.defender)
    if isinstance(action, Sacrifice):
        if not action.ts:
            return f"{a} sacrifices nothing"
        return f"{a} sacrifices {', '.join(tn(state, t) for t in action.ts)} (cap +{len(action.ts)})"
    if isinstance(action, Block):
        if not action.ts:
            return f"{d} does not block"
        return f"{d} spends a block token and sacrifices {', '.join(tn(state, t) for t in action.ts)}"
    if isinstance(action, Slices):
        who = a if state.phase == "slices_a" else d
        return f"{who} assigns slices: {_alloc_names(state, action.alloc)}"
    if isinstance(action, Spin):
        return f"Host spins the wheel ({inv.x} slices)"
    if isinstance(action, SpinResult):
        try:
            g = state.games[inv.game_at(action.k)]
        except IndexError:
            g = "?"
        return (
            f"The wheel lands on slice {action.k + 1} of {action.x}: {g} "
            f"(wheel: {_alloc_names(state, action.layout)})"
        )
    if isinstance(action, Respin):
        who = a if state.phase == "respin_a" else d
        if action.t is None:
            return f"{who} keeps the result"
        return f"{who} spends a re-spin token and {tn(state, action.t)} to spin again"
    if isinstance(action, Duel):
        if action.winner == "a":
            if inv.duel_wins + 1 < inv.needed_wins:
                return f"{a} wins the first game; a capital needs a second win"
            if inv.m == 2:
                return f"{a} wins and takes {d}'s capital and all {d}'s territories; {d} is eliminated"
            return f"{a} wins and takes {tn(state, inv.target)}"
        gifts = game.giftable(state, inv.attacker, inv.target)
        tail = "" if gifts else f"; {a} has no non-capital territory bordering it, so nothing is given (M14)"
        return f"{d} wins and keeps {tn(state, inv.target)}{tail}"
    if isinstance(action, Gift):
        return f"{a} gives {tn(state, action.t)} to {d} (M14)"
    return str(action)

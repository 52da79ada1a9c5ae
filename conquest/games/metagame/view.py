"""What the host console shows: the view dict and the plain-words log.

Why in the engine package and not in the page: every number the host would otherwise
work out by hand (M6 numbers with their explanation, caps, who may block or re-spin,
which territories are eligible now) is rules logic, tested here; the page only draws it.
Everything is JSON (lists, dicts, strings, numbers); territories are given both as map
indices and ids.

Games are shown by title, never by id: each entry of the session's list keeps its
``name`` (what the list holds, the key the page links with) and gets a ``title`` (what
people read, from :mod:`.duels`).

This module imports the rules (:mod:`.engine`); the rules never import it.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

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
from conquest.games.metagame.duels import builtin_games, catalog_id, game_title
from conquest.games.metagame.engine import MetagameRules, count_of, game_label, seat_of, side_of, slice_report
from conquest.games.metagame.phases import PHASE_RULES
from conquest.games.metagame.state import NEUTRAL, State

__all__ = ["build_view", "describe_action", "builtin_games", "prompt_values", "game_entry"]


def _tlist(state: State, ts: list[int] | tuple[int, ...]) -> dict[str, Any]:
    ids = state.board.ids
    return {"territories": list(ts), "ids": [ids[t] for t in ts]}


def _alloc_names(state: State, alloc: tuple[tuple[int, int], ...]) -> str:
    return ", ".join(f"{game_label(state, g)} {n}" for g, n in alloc)


def game_entry(name: str) -> dict[str, Any]:
    """One entry of the session's list as the page needs it.

    ``name``: the list's entry (a catalog id or a typed name); ``title``: what people see;
    ``id``: the catalog id when the project has the game (its rules page exists), else None;
    ``builtin``: the app can play it here (M12, a registered two-player game).
    """
    return {"name": name, "title": game_title(name), "id": catalog_id(name), "builtin": name in builtin_games()}


def _invasion_view(game: MetagameRules, state: State) -> dict[str, Any] | None:
    inv = state.inv
    if inv is None:
        return None
    b = state.board
    pa, pd = state.player_name(inv.attacker), state.player_name(inv.defender)
    cap_note = (
        " (the target is the defender's capital, so m = 2: X, Y and Z are doubled)" if inv.m == 2 else ""
    )
    explain = [
        f"nA = {inv.n_a}: territories {pa} held when the invasion was declared",
        f"nD = {inv.n_d}: territories {pd} held{cap_note}",
        f"ZA = m x nA = {inv.m} x {inv.n_a} = {count_of(inv.z_a, 'slice', 'slices')} for {pa}",
        f"ZD = m x nD = {inv.m} x {inv.n_d} = {count_of(inv.z_d, 'slice', 'slices')} for {pd}",
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
                    **game_entry(state.games[g]),
                    "start": start,
                    "count": n,
                    "a": a_map.get(g, 0),
                    "d": d_map.get(g, 0),
                }
            )
            start += n
    for k in inv.spins:
        g = inv.game_at(k)
        out["spins"].append({"slice": k, "game": g, **game_entry(state.games[g])})
    if inv.spins:
        g = inv.game_at(inv.spins[-1])
        out["chosen_game"] = {"game": g, **game_entry(state.games[g])}
    if PHASE_RULES[state.phase].moves == (Slices,):
        out["slice_check"] = slice_report(state, {})
    return out


# -- the prompt: the table's template, filled ------------------------------------------------
def _eligible_capital(game: MetagameRules, state: State) -> dict[str, Any]:
    cands = game.capital_candidates(state, state.current)
    if cands:
        return {"kind": "capital", **_tlist(state, cands)}
    neutral = [t for t, o in enumerate(state.owner) if o == NEUTRAL]
    return {"kind": "capital_override", **_tlist(state, neutral)}


def _eligible_turn(game: MetagameRules, state: State) -> dict[str, Any]:
    p = state.current
    claim, invade = game.claimable(state, p), game.invadable(state, p)
    return {"kind": "turn", **_tlist(state, sorted(claim + invade)), "claim": claim, "invade": invade}


def _eligible_sacrifice(game: MetagameRules, state: State) -> dict[str, Any]:
    inv = state.inv
    assert inv is not None
    elig = game.sacrificable(state, inv.attacker, inv.target)
    return {"kind": "sacrifice", "max": inv.y_a, **_tlist(state, elig)}


def _eligible_block(game: MetagameRules, state: State) -> dict[str, Any]:
    inv = state.inv
    assert inv is not None
    elig = game.sacrificable(state, inv.defender, inv.target)
    return {"kind": "block", "exactly": len(inv.sacrificed), **_tlist(state, elig)}


def _eligible_respin(game: MetagameRules, state: State) -> dict[str, Any]:
    inv, p = state.inv, seat_of(state)
    assert inv is not None and p is not None
    return {"kind": "respin", **_tlist(state, game.sacrificable(state, p, inv.target))}


def _eligible_gift(game: MetagameRules, state: State) -> dict[str, Any]:
    inv = state.inv
    assert inv is not None
    return {"kind": "gift", **_tlist(state, game.giftable(state, inv.attacker, inv.target))}


#: the territory lists the page highlights, by the phase table's ``eligible`` key
_ELIGIBLE: dict[str, Callable[[MetagameRules, State], dict[str, Any]]] = {
    "capital": _eligible_capital,
    "turn": _eligible_turn,
    "sacrifice": _eligible_sacrifice,
    "block": _eligible_block,
    "respin": _eligible_respin,
    "gift": _eligible_gift,
}


def counted(values: dict[str, Any]) -> dict[str, Any]:
    """The prompt's counts with their noun in the right number ("1 slice", "2 territories")."""

    return {
        **values,
        "z_slices": count_of(values["z"], "slice", "slices"),
        "x_slices": count_of(values["x"], "slice", "slices"),
        "most_territories": count_of(values["most"], "territory", "territories"),
        "s_territories": count_of(values["s"], "territory", "territories"),
    }


def prompt_values(state: State, eligible: dict[str, Any] | None = None) -> dict[str, Any]:
    """The values of the prompt templates' fields (:data:`.phases.PROMPT_FIELDS`) now."""
    seat = seat_of(state)
    values: dict[str, Any] = {
        "player": "" if seat is None else state.player_name(seat),
        "attacker": "",
        "defender": "",
        "z": 0,
        "cap": 0,
        "x": 0,
        "most": 0,
        "s": 0,
        "game": "",
        "nth": "",
        "record": "record the winner",
    }
    inv = state.inv
    if inv is None:
        return values
    a_side = side_of(state) == "a"
    values.update(
        attacker=state.player_name(inv.attacker),
        defender=state.player_name(inv.defender),
        z=inv.z_a if a_side else inv.z_d,
        cap=inv.cap_a if a_side else inv.cap_d,
        x=inv.x,
        s=len(inv.sacrificed),
        nth=" (second game)" if inv.duel_wins else "",
    )
    if eligible is not None and Sacrifice in PHASE_RULES[state.phase].moves:
        values["most"] = min(inv.y_a, len(eligible["territories"]))
    if inv.spins:
        try:
            name = inv.game_at(inv.spins[-1])
            values["game"] = game_label(state, name)
            if name in builtin_games():
                values["record"] = "play it here (the result is taken by itself) or record the winner"
        except IndexError:
            values["game"] = "?"
    return values


def _prompt(game: MetagameRules, state: State) -> tuple[str, dict[str, Any] | None, list[str]]:
    """The step's instruction, the territories eligible for it, and notes."""
    rule = PHASE_RULES[state.phase]
    notes: list[str] = []
    if rule.invasion and state.inv is None:
        return ("", None, notes)
    eligible = _ELIGIBLE[rule.eligible](game, state) if rule.eligible else None
    template = rule.prompt
    if eligible is not None and eligible["kind"] == "capital_override":
        template = rule.alt_prompt
        notes.append("M4: no territory is 3 or more away from every other player's; the host may override")
    return template.format(**counted(prompt_values(state, eligible))), eligible, notes


def build_view(game: MetagameRules, state: State, player: int | None) -> dict[str, Any]:
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
    standings = sorted(
        ({"seat": p, "name": pl.name, "territories": counts[p]} for p, pl in enumerate(state.players)),
        key=lambda r: (-r["territories"], r["seat"]),
    )
    return {
        "game": game.id,
        "map": b.map_id,
        "size": n,
        "majority": 3 * n // 4 + 1,
        "phase": state.phase.value,
        "prompt": prompt,
        "turn": state.turn,
        "current": state.current,
        "to_move": game.to_move(state),
        "viewer": player,
        "players": players,
        "owner": list(state.owner),
        "capitals": [c for c in state.capital if c != NEUTRAL],
        "games": [{"index": i, **game_entry(g)} for i, g in enumerate(state.games)],
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


def _duel_how(action: Duel) -> str:
    """How a duel's result came in: entered by hand, or played here or live and replayed (M12;
    "live" from the record's optional ``@live``, issue 22)."""
    rec = action.record
    if rec is None:
        return "Duel result entered by hand: "
    steps = plural_steps(len(rec.log))
    where = "live" if rec.how == "live" else "here"
    return f"Duel of {game_title(rec.game)} played {where} ({steps}, replayed and checked): "


def plural_steps(n: int) -> str:
    return f"{n:,} step{'s' if n != 1 else ''}"


def _duel_result(game: MetagameRules, state: State, action: Duel) -> str:
    inv = state.inv
    assert inv is not None
    a, d, tn = state.player_name(inv.attacker), state.player_name(inv.defender), state.territory_name
    if action.winner == "a":
        if inv.duel_wins + 1 < inv.needed_wins:
            return f"{a} wins the first game; a capital needs a second win"
        if inv.m == 2:
            return f"{a} wins and takes {d}'s capital and all {d}'s territories; {d} is eliminated"
        return f"{a} wins and takes {tn(inv.target)}"
    gifts = game.giftable(state, inv.attacker, inv.target)
    tail = "" if gifts else f"; {a} has no non-capital territory bordering it, so nothing is given (M14)"
    return f"{d} wins and keeps {tn(inv.target)}{tail}"


def _tokens_earned(game: MetagameRules, state: State, action: Duel) -> str:
    """The tokens a duel's result earns (M13 re-spin, M14 block), as the engine's own step
    gives them, or why none is given when one was due (M15: the pool is empty)."""
    from dataclasses import replace

    inv = state.inv
    try:  # the record (a duel played here) is checked when played; its result is enough here
        after = game.apply(state, replace(action, record=None) if getattr(action, "record", None) else action)
    except Exception:  # the log line of a refused step never raises
        return ""
    if inv is None:
        return ""
    a, d = state.player_name(inv.attacker), state.player_name(inv.defender)
    if action.winner == "d":
        got = after.block[inv.defender] > state.block[inv.defender]
        return f"; {d} earns a block token" if got else f"; the pool has no block token left for {d} (M15)"
    if inv.duel_wins + 1 < inv.needed_wins or not inv.sacrifice_counts:
        return ""
    got = after.respin[inv.attacker] > state.respin[inv.attacker]
    return f"; {a} earns a re-spin token" if got else f"; the pool has no re-spin token left for {a} (M15)"


def describe_action(game: MetagameRules, state: State, action: Action) -> str:
    """The log line for ``action`` played in ``state`` (before it is applied).

    Defensive: the page and ``verify`` may describe any parsed action, legal or not, so
    every index (territory, seat, game, slice) is looked up without raising.
    """
    nm, tn = state.player_name, state.territory_name
    inv = state.inv
    p = state.current
    if isinstance(action, PickCapital):
        extra = " (host override: no territory qualified, M4)" if action.override else ""
        return f"{nm(p)} picks {tn(action.t)} as capital{extra}"
    if isinstance(action, Claim):
        return f"{nm(p)} claims {tn(action.t)}"
    if isinstance(action, Pass):
        return f"{nm(p)} passes"
    if isinstance(action, Invade):
        owner = state.owner[action.t] if 0 <= action.t < len(state.board) else NEUTRAL
        if owner < 0:
            return f"{nm(p)} invades {tn(action.t)} (neutral)"
        cap = " (capital!)" if state.capital[owner] == action.t else ""
        return f"{nm(p)} invades {tn(action.t)} of {nm(owner)}{cap}"
    if isinstance(action, Agree):
        return "Host records a mutual agreement to end the campaign (M16)"
    if isinstance(action, SetOwner):
        who = "neutral" if action.player is None else nm(action.player)
        return f"Host correction: {tn(action.t)} is now {who} (M17)"
    if isinstance(action, SetCapital):
        where = "no capital" if action.t is None else f"capital {tn(action.t)}"
        return f"Host correction: {nm(action.player)} has {where} (M17)"
    if isinstance(action, SetTokens):
        kind = "block" if action.kind == "b" else "re-spin"
        return f"Host correction: {nm(action.player)} holds {count_of(action.count, kind + ' token', kind + ' tokens')} (M17)"
    if inv is None:
        return str(action)
    a, d = nm(inv.attacker), nm(inv.defender)
    if isinstance(action, Sacrifice):
        if not action.ts:
            return f"{a} sacrifices nothing"
        return f"{a} sacrifices {', '.join(tn(t) for t in action.ts)} (cap +{len(action.ts)})"
    if isinstance(action, Block):
        if not action.ts:
            return f"{d} does not block"
        return f"{d} spends a block token and sacrifices {', '.join(tn(t) for t in action.ts)}"
    if isinstance(action, Slices):
        who = a if side_of(state) == "a" else d
        return f"{who} assigns slices: {_alloc_names(state, action.alloc)}"
    if isinstance(action, Spin):
        return f"Host spins the wheel ({inv.x} slices)"
    if isinstance(action, SpinResult):
        try:
            g = game_label(state, inv.game_at(action.k))
        except IndexError:
            g = "no game (there is no such slice)"
        return (
            f"The wheel lands on slice {action.k + 1} of {action.x}: {g} "
            f"(wheel: {_alloc_names(state, action.layout)})"
        )
    if isinstance(action, Respin):
        who = a if side_of(state) == "a" else d
        if action.t is None:
            return f"{who} keeps the result"
        return f"{who} spends a re-spin token and {tn(action.t)} to spin again"
    if isinstance(action, Duel):
        return _duel_how(action) + _duel_result(game, state, action) + _tokens_earned(game, state, action)
    if isinstance(action, Gift):
        return f"{a} gives {tn(action.t)} to {d} (M14)"
    return str(action)


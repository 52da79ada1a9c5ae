"""The rules page's tables, built from the data file (``Game.rules_tables``).

Why here: the numbers have one owner, ``conquest/data/reign.json``; the rules page places
these tables with ``[[table:reign:<name>]]`` markers, so a tuned value shows on the page at
the next build. Every reconstructed value (R5, R9) carries a star, and each caption says
what the star means. Few, short columns: the tables must read on a 360 px phone.
"""

from __future__ import annotations

from typing import Any

from conquest.games.reign.data import Num, Rules, Side

__all__ = ["rules_tables"]

STAR = "* reconstructed (R5, R9): the seed's icons were lost; tuned by self-play, see the data file"


def _side(side: Side) -> str:
    """``2 coins, 1 sword*, +1 damage``: one face of a territory card in words."""

    def amount(n: Num, one: str, many: str) -> str:
        word = one if abs(n.value) == 1 else many
        return f"{n.text()} {word}"

    bits = [amount(side.coins, "coin", "coins"), amount(side.swords, "sword", "swords")]
    if side.damage.value:
        bits.append(f"{side.damage.text(signed=True)} damage")
    if side.heart.value:
        bits.append(f"{side.heart.text(signed=True)} heart when defended")
    return ", ".join(bits)


def _coins(n: Num) -> str:
    return f"{n.text()} coin{'s' if n.value != 1 else ''}"


def rules_tables(r: Rules) -> dict[str, dict[str, Any]]:
    strategy = {
        "caption": (
            "Military Strategy cards, the same five for each player (R9); Coins: Wealth earned per "
            "casualty inflicted. " + STAR
        ),
        "head": ["Card", "Attack", "Defence", "Damage", "Coins"],
        "rows": [
            [c.name, c.attack.text(), c.defence.text(), c.damage.text(), c.coins.text()] for c in r.cards
        ],
    }
    territories = {
        "caption": "Territory cards: what each face gives its holder (R3, R7, R9). " + STAR,
        "head": ["Territory", "Influenced side", "Controlled side"],
        "rows": [
            [t.name + ("*" if t.reconstructed_name else ""), _side(t.influenced), _side(t.controlled)]
            for t in r.territories
        ],
    }
    recruit, disband = r.recruit_rate, r.disband_rate
    actions = {
        "caption": "Actions and their costs (R5). " + STAR,
        "head": ["Action", "Cost or gain"],
        "rows": [
            ["Battle", "no coins"],
            ["Reform", f"{_coins(r.reform)} + {r.reform_per_control.text()} per card the opponent Controls"],
            ["Develop", _coins(r.develop)],
            ["Reallocate", _coins(r.reallocate)],
            ["Recruit", f"{_coins(recruit)} per Military gained, {r.recruit_amounts.text()} at a time"],
            ["Disband", f"gain {_coins(disband)} per Military lost, up to {r.disband_max.text()} at a time"],
            ["Recover", f"gain {r.recover_coins.text()} Wealth and {r.recover_military.text()} Military"],
            ["War Council", "free" if r.war_council.value == 0 else _coins(r.war_council)],
            ["Restructure Military (no action, any time)", _coins(r.restructure)],
        ],
    }
    effects = []
    for k in r.kinds:
        bits = []
        for value, word in ((k.attack, "attack"), (k.defence, "defence"), (k.damage, "damage")):
            if value:
                bits.append(f"+{value}{'*' if word in k.reconstructed else ''} {word}")
        effects.append([k.name, ", ".join(bits)])
    prices = " + ".join(str(p) for p in r.prices)
    purchases = {
        "caption": (
            f"Battle purchases (R6): at most {r.max_each} of each, {r.max_total} in all; "
            f"the first of a kind costs {r.prices[0]}, the second {r.prices[1] if len(r.prices) > 1 else '-'} "
            f"(two cost {prices})"
            + (". * reconstructed (R6): the seed's icon was lost" if any(k.reconstructed for k in r.kinds) else "")
        ),
        "head": ["Purchase", "Effect"],
        "rows": effects,
    }
    levels = []
    thresholds = list(r.action_levels)
    for i, (lo, n) in enumerate(thresholds):
        if i == 0:
            span = f"{lo} or more"
        else:
            hi = thresholds[i - 1][0] - 1
            span = f"{lo} to {hi}" if lo > 0 else f"{hi} or less"
        levels.append([span, str(n)])
    action_levels = {
        "caption": f"Actions per turn (R4); the first player's first turn has {r.first_turn_actions}",
        "head": ["Wealth + Military", "Actions"],
        "rows": levels,
    }
    return {
        "strategy": strategy,
        "territories": territories,
        "actions": actions,
        "purchases": purchases,
        "levels": action_levels,
    }

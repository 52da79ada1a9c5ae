"""World Conquest's numbers and board, read once from ``conquest/data/world.json`` and the map.

Why a module of its own: the engine, the odds module, the bots and the rules tables all
need the same numbers (start troops, trade values, dice limits) and the same board
(adjacency by index, continents), and each number must have one owner, the data file.
Everything here is computed once at import and is immutable; states hold territory
*indices* into :data:`RULES`, never names, so action texts stay short (W1 board, W3-W6
numbers).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from conquest.catalog import load_data
from conquest.maps import load_map

__all__ = ["CARD_KINDS", "CARD_NAMES", "Continent", "Rules", "RULES", "load_rules"]

#: card kinds in the order used everywhere (hands and decks are count triples in this order)
CARD_KINDS = ("i", "c", "a")
CARD_NAMES = ("infantry", "cavalry", "artillery")


class RulesDataError(ValueError):
    """The data file does not describe a game this engine can play; names the key."""


@dataclass(frozen=True)
class Continent:
    """A group of the map (W1): its territories by index and its bonus (W4)."""

    id: str
    name: str
    bonus: int
    members: tuple[int, ...]


@dataclass(frozen=True)
class Rules:
    """The board as index graphs plus every tunable number of W3-W6."""

    map_id: str
    ids: tuple[str, ...]
    names: tuple[str, ...]
    adj: tuple[tuple[int, ...], ...]
    adjset: tuple[frozenset[int], ...]
    continents: tuple[Continent, ...]
    continent_of: tuple[int, ...]
    start_troops: dict[int, int]
    min_reinforcement: int
    territories_per_troop: int
    deck: tuple[int, int, int]
    trade_values: tuple[int, ...]
    trade_step_after: int
    must_trade_at: int
    cards_per_turn: int
    sides: int
    attack_max: int
    defend_max: int

    @property
    def size(self) -> int:
        return len(self.ids)

    def trade_value(self, k: int) -> int:
        """W5: the value of the k-th trade of the game (k counts from 0, game-wide)."""
        if k < len(self.trade_values):
            return self.trade_values[k]
        return self.trade_values[-1] + self.trade_step_after * (k - len(self.trade_values) + 1)

    def base_reinforcement(self, territories: int) -> int:
        """W4 without continents and cards: max(3, floor(territories / 3))."""
        return max(self.min_reinforcement, territories // self.territories_per_troop)


def _int(obj: dict[str, Any], key: str, low: int = 0) -> int:
    val = obj.get(key)
    if not isinstance(val, int) or isinstance(val, bool) or val < low:
        raise RulesDataError(f"conquest/data/world.json: {key!r} must be a whole number >= {low}")
    return val


def load_rules() -> Rules:
    """Build :class:`Rules` from the data file and its map; fails loudly naming the key."""
    data = load_data("world")
    md = load_map(str(data.get("map", "world42")))
    terrs = sorted(md.territories, key=lambda t: t.index)
    index = {t.id: t.index for t in terrs}
    adj = tuple(tuple(index[n] for n in md.neighbours(t.id)) for t in terrs)
    continents = tuple(
        Continent(g.id, g.name, g.bonus, tuple(sorted(index[x] for x in g.territories))) for g in md.groups
    )
    continent_of = [0] * len(terrs)
    for ci, c in enumerate(continents):
        for t in c.members:
            continent_of[t] = ci
    raw_start = data.get("start_troops")
    if not isinstance(raw_start, dict) or not raw_start:
        raise RulesDataError("conquest/data/world.json: 'start_troops' must map seat counts to troops")
    start = {int(k): int(v) for k, v in raw_start.items()}
    cards = data.get("cards")
    if not isinstance(cards, dict):
        raise RulesDataError("conquest/data/world.json: 'cards' must give the count of each kind")
    if cards.get("wild", 0):
        raise RulesDataError("conquest/data/world.json: W5 has no wild cards; 'wild' must be 0")
    deck = (_int(cards, "infantry"), _int(cards, "cavalry"), _int(cards, "artillery"))
    values = data.get("trade_values")
    if not isinstance(values, list) or not values or not all(isinstance(v, int) and v > 0 for v in values):
        raise RulesDataError("conquest/data/world.json: 'trade_values' must be a list of positive numbers")
    dice = data.get("dice")
    if not isinstance(dice, dict):
        raise RulesDataError("conquest/data/world.json: 'dice' must give sides, attack_max and defend_max")
    # 5 cards of 3 kinds always hold a set (three alike, or else 2+2+1: one of each), so a
    # forced trade is always possible; a lower threshold could force an impossible trade
    must = _int(data, "must_trade_at", 5)
    sides, attack_max, defend_max = _int(dice, "sides", 2), _int(dice, "attack_max", 1), _int(dice, "defend_max", 1)
    if sides > 9 or attack_max > 9 or defend_max > 9:
        raise RulesDataError("conquest/data/world.json: dice are written one digit each, so at most 9")
    return Rules(
        map_id=md.id,
        ids=tuple(t.id for t in terrs),
        names=tuple(t.name for t in terrs),
        adj=adj,
        adjset=tuple(frozenset(a) for a in adj),
        continents=continents,
        continent_of=tuple(continent_of),
        start_troops=start,
        min_reinforcement=_int(data, "min_reinforcement"),
        territories_per_troop=_int(data, "territories_per_troop", 1),
        deck=deck,
        trade_values=tuple(values),
        trade_step_after=_int(data, "trade_step_after"),
        must_trade_at=must,
        cards_per_turn=_int(data, "cards_per_conquering_turn"),
        sides=sides,
        attack_max=attack_max,
        defend_max=defend_max,
    )


RULES = load_rules()

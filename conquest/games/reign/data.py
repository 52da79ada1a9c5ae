"""To Reign Supreme's numbers, read from ``conquest/data/reign.json`` into frozen values.

Why a loader of its own: the seed lost its icons, so most numbers are reconstructions (R5,
R9) that the project tunes by self-play. They live in the data file, never in code; this
module checks them once and hands the engine, the bots and the rules tables one typed
object. A value in the file is either a plain number (given by the seed or derived from its
worked examples) or ``{"value": n, "reconstructed": true}``; :class:`Num` keeps the marker
so the rules tables can star every reconstructed value.

``Rules`` can also be built from a modified dict (:func:`rules_from_dict`): the balance
bench tunes values without touching the file.
"""

from __future__ import annotations

import copy
import functools
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from conquest.catalog import load_data

__all__ = [
    "Num",
    "Amounts",
    "StrategyCard",
    "Side",
    "Territory",
    "PurchaseKind",
    "Rules",
    "RulesError",
    "rules_from_dict",
    "load_rules",
    "raw_data",
    "edition_data",
    "current_edition",
    "editions",
    "set_value",
    "get_value",
]


class RulesError(ValueError):
    """The data file breaks a ruling (R1-R11) or is malformed; names the place."""


@dataclass(frozen=True)
class Num:
    """A number from the data file and whether the seed gives it (False) or not (True)."""

    value: int
    reconstructed: bool = False

    def __int__(self) -> int:
        return self.value

    def text(self, signed: bool = False) -> str:
        """The value for a rules table: a star marks a reconstruction (R5, R9)."""
        s = f"{self.value:+d}" if signed else str(self.value)
        return s + ("*" if self.reconstructed else "")


@dataclass(frozen=True)
class Amounts:
    """The amounts one action may take, listed in the data file (R5: Recruit's two).

    Why a list and not a maximum: the seed's Recruit shows two amounts ("- or -", "+ or
    +", icons lost), so the data file names them; the engine, the legal-action list, the
    bots and the rules page all read this one list."""

    values: tuple[int, ...]
    reconstructed: bool = False

    def words(self) -> str:
        """``1 or 2``: the amounts in a sentence (refusals, the log)."""
        w = [str(v) for v in self.values]
        return w[0] if len(w) == 1 else ", ".join(w[:-1]) + " or " + w[-1]

    def text(self) -> str:
        """``1 or 2*`` for the rules tables: a star marks a reconstruction (R5)."""
        return self.words() + ("*" if self.reconstructed else "")


@dataclass(frozen=True)
class StrategyCard:
    """One Military Strategy card (R9): the same five values for both colours."""

    code: str
    name: str
    attack: Num
    defence: Num
    damage: Num
    coins: Num  # wealth earned per casualty inflicted (R7)


@dataclass(frozen=True)
class Side:
    """One face of a territory card: coins and swords feed Resupply (R3); damage (bolts)
    counts in every battle of its Controller, heart only when the card itself is defended
    (R7)."""

    coins: Num
    swords: Num
    damage: Num
    heart: Num


@dataclass(frozen=True)
class Territory:
    code: str
    name: str
    influenced: Side
    controlled: Side
    #: the sixth territory is the project's own (R9); its name is a reconstruction too
    reconstructed_name: bool = False


@dataclass(frozen=True)
class PurchaseKind:
    """A battle purchase (R6): what one of them adds, and whether it dies first (R7)."""

    code: str
    name: str
    plural: str
    attack: int
    defence: int
    damage: int
    dies_first: bool
    #: which of attack, defence and damage are reconstructed (the rules page stars them)
    reconstructed: tuple[str, ...] = ()


@dataclass(frozen=True)
class Rules:
    """Every number the engine uses, checked against the rulings."""

    start_wealth: int
    start_military: int
    min_strength: int
    max_strength: int
    #: (min W+M, actions), highest threshold first (R4)
    action_levels: tuple[tuple[int, int], ...]
    first_turn_actions: int
    steps_big_win: int
    steps_win: int
    steps_loss: int
    casualties_for_step: int
    max_each: int
    max_total: int
    prices: tuple[int, ...]  # price of the 1st, 2nd ... purchase of one kind (R6)
    kinds: tuple[PurchaseKind, ...]
    develop: Num
    reform: Num
    reform_per_control: Num
    reallocate: Num
    recruit_rate: Num
    #: the Military one Recruit may buy (R5): the data file's list, from edition 4 two amounts
    recruit_amounts: Amounts
    disband_rate: Num
    disband_max: Num
    recover_coins: Num
    recover_military: Num
    #: Recover only in a turn with a battle or right after one (the seed's "skip an action
    #: to recover after a battle"): at most this many turns after it; None: any time
    recover_within: int | None
    war_council: Num
    restructure: Num
    cards: tuple[StrategyCard, ...]
    territories: tuple[Territory, ...]

    def actions_for(self, total: int) -> int:
        """R4: the action level of a Wealth + Military total."""
        for threshold, n in self.action_levels:
            if total >= threshold:
                return n
        return self.action_levels[-1][1]

    def purchase_cost(self, counts: tuple[int, ...]) -> int:
        """R6: the first of a kind costs ``prices[0]``, the second ``prices[1]``."""
        return sum(sum(self.prices[:n]) for n in counts)

    def card_index(self, code: str) -> int:
        for i, c in enumerate(self.cards):
            if c.code == code:
                return i
        raise KeyError(code)

    def territory_index(self, code: str) -> int:
        for i, t in enumerate(self.territories):
            if t.code == code:
                return i
        raise KeyError(code)


def _num(raw: Any, where: str, lo: int = -12, hi: int = 12) -> Num:
    rec = False
    if isinstance(raw, Mapping):
        if set(raw) != {"value", "reconstructed"} or raw["reconstructed"] is not True:
            raise RulesError(f"{where}: write a reconstructed value as {{\"value\": n, \"reconstructed\": true}}")
        raw, rec = raw["value"], True
    if not isinstance(raw, int) or isinstance(raw, bool) or not lo <= raw <= hi:
        raise RulesError(f"{where}: expected a whole number from {lo} to {hi}, not {raw!r}")
    return Num(raw, rec)


def _amounts(raw: Any, where: str, lo: int = 1, hi: int = 12) -> Amounts:
    """A list of amounts, rising, each from ``lo`` to ``hi``; marked like a number (R5)."""
    rec = False
    if isinstance(raw, Mapping):
        if set(raw) != {"value", "reconstructed"} or raw["reconstructed"] is not True:
            raise RulesError(f"{where}: write a reconstructed list as {{\"value\": [...], \"reconstructed\": true}}")
        raw, rec = raw["value"], True
    ok = isinstance(raw, list) and raw and all(
        isinstance(v, int) and not isinstance(v, bool) and lo <= v <= hi for v in raw
    )
    if not ok or list(raw) != sorted(set(raw)):
        raise RulesError(f"{where}: expected a rising list of whole numbers from {lo} to {hi}, not {raw!r}")
    return Amounts(tuple(raw), rec)


def _int(raw: Any, where: str, lo: int = 0, hi: int = 99) -> int:
    return _num(raw, where, lo, hi).value


def _code(raw: Any, where: str, upper: bool) -> str:
    ok = isinstance(raw, str) and len(raw) == 1 and raw.isalpha() and raw.isascii()
    if not ok or raw.isupper() != upper:
        case = "an upper-case" if upper else "a lower-case"
        raise RulesError(f"{where}: the code must be {case} letter, not {raw!r}")
    return raw


def _side(raw: Any, where: str) -> Side:
    if not isinstance(raw, Mapping):
        raise RulesError(f"{where}: expected an object")
    return Side(
        coins=_num(raw.get("coins"), f"{where}.coins"),
        swords=_num(raw.get("swords"), f"{where}.swords"),
        damage=_num(raw.get("damage", 0), f"{where}.damage", 0, 6),
        heart=_num(raw.get("heart", 0), f"{where}.heart", 0, 6),
    )


def rules_from_dict(obj: Mapping[str, Any]) -> Rules:
    """Check a whole data file (as a dict) and build :class:`Rules`; RulesError names the key."""
    try:
        st = obj["strength"]
        levels = tuple(
            (_int(e["min_total"], "action_levels.min_total", 0, 24), _int(e["actions"], "action_levels.actions", 1, 9))
            for e in obj["action_levels"]
        )
        if not levels or [t for t, _ in levels] != sorted((t for t, _ in levels), reverse=True) or levels[-1][0] != 0:
            raise RulesError("action_levels: thresholds must go down to 0 (R4)")
        bt = obj["battle"]
        pu = obj["purchases"]
        kinds = tuple(
            PurchaseKind(
                code=_code(k["code"], "purchases.kinds.code", upper=False),
                name=str(k["name"]),
                plural=str(k["plural"]),
                attack=_int(k["attack"], "purchases.kinds.attack", 0, 6),
                defence=_int(k["defence"], "purchases.kinds.defence", 0, 6),
                damage=_int(k["damage"], "purchases.kinds.damage", 0, 6),
                dies_first=bool(k["dies_first"]),
                reconstructed=tuple(
                    f for f in ("attack", "defence", "damage") if isinstance(k[f], dict) and k[f].get("reconstructed")
                ),
            )
            for k in pu["kinds"]
        )
        prices = tuple(_int(p, "purchases.prices", 0, 12) for p in pu["prices"])
        max_each = _int(pu["max_each"], "purchases.max_each", 0, 9)
        if len(prices) != max_each:
            raise RulesError("purchases.prices: one price per purchase of a kind (R6)")
        co = obj["costs"]
        if "max" in co["recruit"]:
            raise RulesError(
                "costs.recruit.max: Recruit's amounts are listed since edition 4 (costs.recruit.amounts, R5)"
            )
        cards = tuple(
            StrategyCard(
                code=_code(c["code"], "strategy_cards.code", upper=True),
                name=str(c["name"]),
                attack=_num(c["attack"], f"strategy_cards.{c['code']}.attack", 0, 12),
                defence=_num(c["defence"], f"strategy_cards.{c['code']}.defence", 0, 12),
                damage=_num(c["damage"], f"strategy_cards.{c['code']}.damage", 0, 12),
                coins=_num(c["coins"], f"strategy_cards.{c['code']}.coins", 0, 12),
            )
            for c in obj["strategy_cards"]
        )
        territories = tuple(
            Territory(
                code=_code(t["code"], "territories.code", upper=False),
                name=str(t["name"]),
                influenced=_side(t["influenced"], f"territories.{t['code']}.influenced"),
                controlled=_side(t["controlled"], f"territories.{t['code']}.controlled"),
                reconstructed_name=bool(t.get("reconstructed_name", False)),
            )
            for t in obj["territories"]
        )
        rules = Rules(
            start_wealth=_int(st["start_wealth"], "strength.start_wealth", 0, 99),
            start_military=_int(st["start_military"], "strength.start_military", 0, 99),
            min_strength=_int(st["min"], "strength.min", 0, 99),
            max_strength=_int(st["max"], "strength.max", 1, 99),
            action_levels=levels,
            first_turn_actions=_int(obj["first_turn_actions"], "first_turn_actions", 1, 9),
            steps_big_win=_int(bt["steps_big_win"], "battle.steps_big_win", 0, 3),
            steps_win=_int(bt["steps_win"], "battle.steps_win", 0, 3),
            steps_loss=_int(bt["steps_loss_with_casualties"], "battle.steps_loss_with_casualties", 0, 3),
            casualties_for_step=_int(bt["casualties_for_a_step"], "battle.casualties_for_a_step", 0, 99),
            max_each=max_each,
            max_total=_int(pu["max_total"], "purchases.max_total", 0, 99),
            prices=prices,
            kinds=kinds,
            develop=_num(co["develop"]["coins"], "costs.develop.coins", 0, 12),
            reform=_num(co["reform"]["coins"], "costs.reform.coins", 0, 12),
            reform_per_control=_num(co["reform"]["coins_per_opponent_control"], "costs.reform", 0, 12),
            reallocate=_num(co["reallocate"]["coins"], "costs.reallocate.coins", 0, 12),
            recruit_rate=_num(co["recruit"]["coins_per_military"], "costs.recruit", 1, 12),
            recruit_amounts=_amounts(co["recruit"]["amounts"], "costs.recruit.amounts"),
            disband_rate=_num(co["disband"]["coins_per_military"], "costs.disband", 1, 12),
            disband_max=_num(co["disband"]["max"], "costs.disband.max", 1, 12),
            recover_coins=_num(co["recover"]["coins"], "costs.recover.coins", 0, 12),
            recover_military=_num(co["recover"]["military"], "costs.recover.military", 0, 12),
            recover_within=None
            if co["recover"].get("turns_after_battle") is None
            else _int(co["recover"]["turns_after_battle"], "costs.recover.turns_after_battle", 0, 9),
            war_council=_num(co["war_council"]["coins"], "costs.war_council.coins", 0, 12),
            restructure=_num(co["restructure"]["coins"], "costs.restructure.coins", 0, 12),
            cards=cards,
            territories=territories,
        )
    except (KeyError, TypeError) as exc:
        raise RulesError(f"conquest/data/reign.json: missing or malformed {exc}") from None
    _check(rules)
    return rules


def _check(r: Rules) -> None:
    """The constraints the rulings put on the numbers, so a bad edit fails at load time."""
    if len(r.cards) != 5:
        raise RulesError("strategy_cards: five Military Strategy cards per colour (R9)")
    if len(r.territories) != 6:
        raise RulesError("territories: six territory cards (R1, R9)")
    if len({c.code for c in r.cards}) != 5 or len({t.code for t in r.territories}) != 6:
        raise RulesError("codes of cards and territories must be distinct")
    if {c.code for c in r.cards} & set("LR"):
        raise RulesError("strategy_cards: L and R start other action texts; pick other card letters")
    if len({k.code for k in r.kinds}) != len(r.kinds):
        raise RulesError("purchases.kinds: codes must be distinct")
    for c in r.cards:
        if c.attack.value not in (2, 3):
            raise RulesError(f"strategy_cards.{c.code}: every card has attack 2 or 3 (R9)")
    have = {(c.attack.value, c.defence.value, c.damage.value, c.coins.value) for c in r.cards}
    # the seed's worked example: the attacker's card plus one Apothecary defends 4, the
    # defender's card plus the Iron Mine's heart 1 defends 4 (R6, R9); editions 1 and 2 read
    # the Apothecary as +1 (the card 3/3/2/1), edition 3 as +2 (the card 3/2/2/1)
    apothecary = next((k.defence for k in r.kinds if k.code == "a"), 1)
    for example in ((3, 4 - apothecary, 2, 1), (2, 3, 2, 2)):
        if example not in have:
            raise RulesError(f"strategy_cards: the worked example's card {example} must be one of them (R9)")
    if not 0 <= r.min_strength < r.max_strength:
        raise RulesError("strength: min must be below max (R3)")
    if not r.steps_big_win >= r.steps_win >= r.steps_loss:
        raise RulesError("battle: a bigger win moves the card at least as far (R8)")


def set_value(d: Any, path: str, value: Any) -> None:
    """Set one value of a data dict by its dotted path (``costs.reallocate.coins``,
    ``strategy_cards.A.defence``: a list is entered by an item's ``code``), keeping the
    reconstruction marker of a value that had one (R5, R9)."""
    keys = path.split(".")
    for k in keys[:-1]:
        d = next(x for x in d if x.get("code") == k) if isinstance(d, list) else d[k]
    cur = d.get(keys[-1])
    d[keys[-1]] = {"value": value, "reconstructed": True} if isinstance(cur, dict) and value is not None else value


def get_value(d: Any, path: str) -> Any:
    """The value at a dotted path (see :func:`set_value`), without its marker."""
    keys = path.split(".")
    for k in keys[:-1]:
        d = next(x for x in d if x.get("code") == k) if isinstance(d, list) else d[k]
    v = d.get(keys[-1])
    return v["value"] if isinstance(v, dict) else v


def raw_data() -> dict[str, Any]:
    """A deep copy of the data file (the bench edits copies while tuning)."""
    return copy.deepcopy(load_data("reign"))


@functools.cache
def current_edition() -> int:
    """The edition of the values the data file holds: new games are dealt with it. Read
    once: the engine asks for every state it applies to (it was a third of a bot's time)."""
    return int(load_data("reign").get("edition", 1))


def editions() -> tuple[int, ...]:
    """Every edition a game may be played with: the earlier ones and the current."""
    earlier = load_data("reign").get("earlier_editions", {})
    return tuple(sorted({int(k) for k in earlier} | {current_edition()}))


def edition_data(edition: int) -> dict[str, Any]:
    """The data file as it was in ``edition``: the current values with that edition's
    differences put back (``earlier_editions``). Why kept: a saved game or a link replays
    with the values it was played with (the deal records the edition)."""
    d = raw_data()
    if edition == current_edition():
        return d
    earlier = d.get("earlier_editions", {}).get(str(edition))
    if earlier is None:
        raise RulesError(f"no edition {edition} of the values (editions: {', '.join(map(str, editions()))})")
    for path, value in earlier["values"].items():
        set_value(d, path, value)
    return d


_RULES: dict[int, Rules] = {}


def load_rules(edition: int | None = None) -> Rules:
    """The rules of one edition of the data file (default: the current), read once."""
    ed = current_edition() if edition is None else edition
    got = _RULES.get(ed)
    if got is None:
        got = _RULES[ed] = rules_from_dict(edition_data(ed))
    return got

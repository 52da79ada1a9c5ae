"""Short Campaign's computer players: a skill level is accuracy, guess spread and speed (S2).

Why a bot may know the answer: it stands for a person at the table, who knows a fact or
not. So besides its own view (all it uses for picks and attacks), a bot asks the engine's
:meth:`~conquest.games.campaign.engine.CampaignGame.answer_key`, a function that is not the
view and that the page never calls for people, and then answers like a person of its level:

- **accuracy**: the chance it knows a multiple-choice answer; otherwise it picks one of
  the four options at random (so it is still right a quarter of the time);
- **spread**: how far its guesses stray: a typical relative error (0.3 = about 30%) for
  quantities (guesses are log-normal around the answer), or that share of a quarter of the
  question's range when the range is narrow next to the answer (a year, say);
- **time_ms**: its answers take a time drawn uniformly in this range, a third longer when
  it does not know; **silence**: the chance it lets the clock run out.

The numbers live in ``conquest/data/campaign.json`` (``bots``). All randomness goes through
the bot's :class:`conquest.rng.Rng`, so a seeded match replays exactly.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Generator
from functools import partial
from typing import Any

from conquest.bots import Bot
from conquest.rng import Rng

__all__ = ["CampaignBot", "bot_levels"]

_UNIT = 2**30


class CampaignBot(Bot):
    """One level of player; ``level`` names an entry of the data file's ``bots``."""

    def __init__(self, rng: Rng | None = None, level: str = "Medium") -> None:
        super().__init__(rng)
        from conquest.games.campaign.engine import rules

        params = rules().bots
        if level not in params:
            raise ValueError(f"no Short Campaign bot level {level!r} (levels: {', '.join(params)})")
        self.level = level
        p = params[level]
        self.accuracy: float = p["accuracy"]
        self.spread: float = p["spread"]
        self.time_ms: tuple[int, int] = (p["time_ms"][0], p["time_ms"][1])
        self.silence: float = p["silence"]

    # -- randomness -----------------------------------------------------------------------
    def _uniform(self) -> float:
        return self.rng.below(_UNIT) / _UNIT

    def _chance(self, p: float) -> bool:
        return self._uniform() < p

    def _normal(self) -> float:
        """A standard normal draw (Box-Muller) from the bot's own generator."""
        u1 = (self.rng.below(_UNIT) + 1) / (_UNIT + 1)
        u2 = self._uniform()
        return math.sqrt(-2.0 * math.log(u1)) * math.cos(2.0 * math.pi * u2)

    def _time(self, limit: int, unsure: bool) -> int:
        lo, hi = self.time_ms
        ms = lo + self._uniform() * (hi - lo)
        if unsure:
            ms *= 4 / 3
        return max(0, min(limit, int(ms)))

    # -- answering (the simultaneous secret step) ---------------------------------------
    def think_secret(self, game: Any, state: Any, seat: int) -> Generator[None, None, Any]:
        view = game.view(state, seat)
        q = view["question"]
        if q is None or seat not in view["answering"]:
            raise ValueError(f"seat {seat} has no question to answer")
        key = game.answer_key(state)  # the bot's knowledge: see the module docstring
        limit = view["time_limit_ms"]
        if self._chance(self.silence):
            return None
        if q["kind"] == "choice":
            letters = [o["letter"] for o in q["options"]]
            knows = self._chance(self.accuracy)
            letter = key if knows else letters[self.rng.below(len(letters))]
            return (letter, self._time(limit, not knows))
        return (self.guess(int(key), q["min"], q["max"]), self._time(limit, False))
        yield  # pragma: no cover - makes this a generator

    def guess(self, answer: int, lo: int, hi: int) -> int:
        """A guess around ``answer`` with this level's spread, inside the question's range."""
        z = self._normal()
        width = hi - lo
        if answer <= width:
            value = answer * math.exp(self.spread * z)
        else:
            value = answer + z * self.spread * width / 4
        return max(lo, min(hi, round(value)))

    # -- picks and attacks (from the bot's own view) --------------------------------------
    def think(self, game: Any, state: Any) -> Generator[None, None, Any]:
        seat = game.to_move(state)
        view = game.view(state, seat)
        actions = game.legal_actions(state)
        if not actions:
            raise ValueError("no legal action to choose from")
        by_text = {str(a): a for a in actions}
        if view["phase"] == "pick":
            t = self.choose_pick(view, seat)
            return by_text.get(f"p{t}", actions[0])
        if view["phase"] == "attack":
            t = self.choose_target(view, seat)
            return by_text.get(f"t{t}", actions[0])
        return actions[0]
        yield  # pragma: no cover - makes this a generator

    def choose_pick(self, view: dict[str, Any], seat: int) -> int:
        """Room to grow and a short border: own and free neighbours count, rivals' do not.
        The weakest level picks at random."""
        options = view["pickable"]
        if self.level == "Easy":
            return options[self.rng.below(len(options))]
        terr = view["territories"]

        def score(t: int) -> tuple[int, int]:
            owners = [terr[u]["owner"] for u in terr[t]["neighbours"]]
            own = sum(1 for o in owners if o == seat)
            free = sum(1 for o in owners if o == -1)
            rival = len(owners) - own - free
            return (2 * own + free - rival, -t)

        return max(options, key=score)

    def win_chance(self) -> float:
        """The bot's own estimate of winning one battle (S5), assuming a defender who is
        right 60% of the time and an even guess question when both are right."""
        right = self.accuracy + (1 - self.accuracy) / 4
        return right * 0.4 + right * 0.6 * 0.5

    def choose_target(self, view: dict[str, Any], seat: int) -> int:
        """The largest expected swing in points between the bot and the defender (a Base
        must be won once per standing tower); a little extra against the leader."""
        options = view["targets"]
        if self.level == "Easy":
            return options[self.rng.below(len(options))]
        terr = view["territories"]
        players = view["players"]
        leader = max(range(len(players)), key=lambda s: players[s]["points"])
        p = self.win_chance()

        def score(t: int) -> tuple[float, int]:
            info = terr[t]
            d = info["owner"]
            if info["base_of"] is not None and info["towers"]:
                swing = (2 * players[d]["points"] + 1000) * p ** info["towers"]
            elif info["demolished"]:
                swing = 2000 * p
            else:
                swing = (400 + info["value"]) * p
            swing -= (1 - p) * 60  # the defence bonus the defender may earn
            if d == leader and d != seat:
                swing *= 1.1
            return (swing, -t)

        return max(options, key=score)


def bot_levels() -> dict[str, Callable[[Any], Any]]:
    """The levels named in the data file, weakest first: ``{name: factory(rng) -> bot}``."""
    from conquest.games.campaign.engine import rules

    return {name: partial(CampaignBot, level=name) for name in rules().bots}

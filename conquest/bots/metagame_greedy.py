"""A simple greedy metagame bot: grows fast, invades where it pays, never gambles tokens.

Why this shape: duel results are not the bot's to decide (the host records them); in
self-play they are drawn at random through the bot's :class:`conquest.rng.Rng`, so the wheel
and the slices do not change the odds and only territory choices matter. The bot:

- capital (M4): the qualifying territory with the most territories within distance 2;
- turn (M5): claim the neutral territory with the most neutral neighbours; else invade a
  capital when its owner holds 4 or more (two duel wins take everything: 1/4 x nD beats
  the 3/4 risk of a gift), else the territory of the largest neighbour; else pass;
- no sacrifice, block or re-spin (they cost territories for no change in random odds);
- slices: the first canonical assignment;
- duel: the winner drawn with probability ``duel_odds`` for the attacker;
- gift (M14): the territory with the fewest own neighbours.
"""

from __future__ import annotations

from typing import Any

from conquest.bots import Bot
from conquest.games.metagame.actions import (
    Block,
    Claim,
    Duel,
    Gift,
    Invade,
    Pass,
    PickCapital,
    Respin,
    Sacrifice,
)
from conquest.games.metagame.engine import MetagameRules
from conquest.games.metagame.phases import Phase
from conquest.games.metagame.state import NEUTRAL, State
from conquest.rng import Rng

__all__ = ["GreedyMetagameBot"]


class GreedyMetagameBot(Bot):
    def __init__(self, rng: Rng | None = None, duel_odds: float = 0.5) -> None:
        super().__init__(rng)
        self.duel_odds = duel_odds

    def choose(self, game: MetagameRules, state: State) -> Any:
        actions = game.legal_actions(state)
        if not actions:
            raise ValueError("no legal action to choose from")
        ph = state.phase
        adj, owner, dist = state.board.adj, state.owner, state.board.dist
        if ph is Phase.CAPITAL:

            def room(a: PickCapital) -> tuple[int, int]:
                return (sum(1 for d in dist[a.t] if 0 <= d <= 2), -a.t)

            return max(actions, key=room)
        if ph is Phase.TURN:
            claims = [a for a in actions if isinstance(a, Claim)]
            if claims:
                return max(claims, key=lambda a: (sum(1 for u in adj[a.t] if owner[u] == NEUTRAL), -a.t))
            invades = [a for a in actions if isinstance(a, Invade)]
            if invades:
                counts = state.counts()
                capitals = [
                    a for a in invades if state.capital[owner[a.t]] == a.t and counts[owner[a.t]] >= 4
                ]
                if capitals:
                    return max(capitals, key=lambda a: (counts[owner[a.t]], -a.t))
                others = [a for a in invades if state.capital[owner[a.t]] != a.t] or invades
                return max(others, key=lambda a: (counts[owner[a.t]], -a.t))
            return Pass()
        if ph is Phase.SACRIFICE:
            return Sacrifice()
        if ph is Phase.BLOCK:
            return Block()
        if ph in (Phase.RESPIN_A, Phase.RESPIN_D):
            return Respin(None)
        if ph is Phase.DUEL:
            return Duel("a" if self.rng.below(1_000_000) < self.duel_odds * 1_000_000 else "d")
        if ph is Phase.GIFT:
            inv = state.inv
            assert inv is not None
            gifts = [a for a in actions if isinstance(a, Gift)]
            return min(gifts, key=lambda a: (sum(1 for u in adj[a.t] if owner[u] == inv.attacker), a.t))
        return actions[0]

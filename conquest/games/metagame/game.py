"""The registered game: the rules (:mod:`.engine`) joined with the host console's view (:mod:`.view`).

Why a module of its own: the protocol puts ``view`` and ``describe_action`` on the game,
but the view is built from the rules, so the rules module must not import the view. This
module imports both; nothing imports it but the package, so there is no import loop.
"""

from __future__ import annotations

from typing import Any

from conquest.games.metagame.actions import BY, Action, Duel
from conquest.games.metagame.duels import game_title
from conquest.games.metagame.engine import MetagameRules
from conquest.games.metagame.state import State
from conquest.games.metagame.view import build_view, describe_action

__all__ = ["MetagameGame"]


class MetagameGame(MetagameRules):
    """Conquest Metagame: a 2-8 player campaign where a weighted wheel picks each duel."""

    def view(self, state: State, player: int | None) -> dict[str, Any]:
        """Everything the host console shows (the metagame has no hidden information)."""
        return build_view(self, state, player)

    def stats(self, state: State) -> dict[str, list[float]]:
        """Territories per player: the console's chart over the turns."""
        return {"Territories": [float(c) for c in state.counts()]}

    def describe_action(self, state: State, action: Action) -> str:
        """Plain words for the log, with the consequences the engine worked out, and who made
        a choice at a live table (M3): on the player's own device, or the host for them."""
        words = describe_action(self, state, action)
        by = getattr(action, "by", "")
        return f"{words} ({BY[by]})" if by in BY else words

    def verify_note(self, state: State, action: Action) -> str | None:
        """What ``python -m conquest verify`` says of a duel step (M12): replayed, or typed.

        A step that reached here was accepted, so a recorded duel has just been replayed
        with its own engine (winner and seats checked).
        """
        if not isinstance(action, Duel) or state.inv is None:
            return None
        inv = state.inv
        who = state.player_name(inv.attacker if action.winner == "a" else inv.defender)
        side = "attacker" if action.winner == "a" else "defender"
        rec = action.record
        if rec is None:
            return f"duel entered by hand by the host: {who} ({side}) won"
        n = len(rec.log)
        return f"duel replayed: {game_title(rec.game)}, {n:,} step{'s' if n != 1 else ''}, {who} ({side}) won"

"""The registered game: the rules (:mod:`.engine`) joined with the host console's view (:mod:`.view`).

Why a module of its own: the protocol puts ``view`` and ``describe_action`` on the game,
but the view is built from the rules, so the rules module must not import the view. This
module imports both; nothing imports it but the package, so there is no import loop.
"""

from __future__ import annotations

from typing import Any

from conquest.games.metagame.actions import Action
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
        """Plain words for the log, with the consequences the engine worked out."""
        return describe_action(self, state, action)

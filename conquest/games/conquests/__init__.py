"""The Game of Conquests (issue #5): 6x6, two sides, fighters that come back promoted.

``GAME`` is the engine the registry finds (id ``"conquests"``); :mod:`.ai` holds the
computer players; :mod:`.rules` the move tables built from ``conquest/data/conquests.json``.
See README.md in this folder for the action text, the position text and the rules decisions.
"""
from __future__ import annotations

from .game import (
    GAME,
    Action,
    ConquestsGame,
    State,
    parse_action,
    position_from_text,
    position_to_text,
    state_from_json,
    state_to_json,
)

__all__ = [
    "GAME",
    "Action",
    "ConquestsGame",
    "State",
    "parse_action",
    "position_from_text",
    "position_to_text",
    "state_from_json",
    "state_to_json",
]

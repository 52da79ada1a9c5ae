"""Short Campaign (issue 13): a three-player trivia conquest, rulings S1-S8.

Modules: :mod:`.actions` (short action texts), :mod:`.state` (frozen state, phases as
data), :mod:`.questions` (the bundled bank, hosts' question packs, a game's pool),
:mod:`.engine` (the rules), :mod:`.view` (what the page shows, the log's words),
:mod:`.bots` (Easy / Medium / Hard players). README.md next to this file documents the
pack format, the action texts and every choice made where the rulings are silent.
"""

from __future__ import annotations

from conquest.games.campaign.engine import CampaignGame
from conquest.games.campaign.questions import PackError, load_bank, load_pack

__all__ = ["GAME", "CampaignGame", "PackError", "load_bank", "load_pack"]

GAME = CampaignGame()

"""World Conquest (issue 11): the engine (rulings W1-W9), its exact odds and its bots.

Modules: :mod:`.rules` (numbers from ``conquest/data/world.json`` and the world42 map, by
territory index), :mod:`.state` (frozen state, phases as data), :mod:`.actions` (compact
action texts, see the table there), :mod:`.engine` (the rules), :mod:`.view` (what a seat
sees, the log's words), :mod:`.odds` (exact single-roll and whole-battle odds),
:mod:`.bots` (Random, Rule-based, Strong).

Choices where the rulings are silent (the rules page says the same):

- Options: ``seats`` (the shell's list of ``{name, colour, bot}``; ``players: n`` is a short
  form), ``order`` ("random" by default, or "fixed" as seated, W2), ``deal`` (W3 random
  deal), ``defender_choice`` (W6: off by default, the defender rolls the most; on, the
  defender is asked before each roll where 2 dice are possible). Defaults are left out of
  the options so links stay short.
- No randomness comes from the set-up seed: the seat order (W2), the deal (W3), every roll
  (W9) and every card (W5) are chance steps, drawn by the driver when they happen and
  logged, so a link never predicts one.
- Cards have only a kind (W5), so the deck is three counts and a draw is uniform over the
  cards left: the same chance as a shuffled pile, with nothing stored that a link could
  reveal. When the deck is empty the discards become the deck; when every card is in a
  hand no card is drawn. The log holds the kind drawn (``Ci``), which is needed to replay;
  the words shown to people (``describe_action``) never name it, and ``view`` shows other
  hands only as counts (``hidden_information`` is True).
- Set-up: one troop at a time, in turn order, first on empty territories, then on own ones,
  continuing in turn order after whoever claimed (or was dealt) the 42nd territory. The
  deal goes round in turn order from a shuffle; with 4 or 5 seats the first seats in the
  order get one territory more. The first turn is the first seat's.
- Reinforcements are placed in batches (``p12x5``); trades happen in the reinforce stage,
  before the last troop is placed; a hand of 5 or more must trade before any troop is
  placed, until it is below 5. Cards taken by eliminating a seat are traded at a later
  turn's start like any others (W5 names only the start of a turn).
- One roll (``a0-29x3m5``) states dice and the troops to move in (W6). "Attack until done"
  / "until N left" (``b0-29``, ``b0-29u4``) repeats rolls with the most dice that cannot
  take the source below N, ``min(3, troops - 1, troops - N)``, and its stated move-in is
  "all but N". Each roll is its own logged chance step, the same as clicking each.
- Fortifying (W8) ends the turn; ``e`` ends it without a move. A conquering roll never
  costs the attacker a troop, so the stated move-in always fits.
- ``legal_actions`` is complete (every amount, every dice/move-in pair, every N) and so
  grows with the troops (about 4 x troops per attackable border in the attack stage).
- Luck (``stats``) is exact: per seat, troops its dice removed minus the expected number
  for that pairing, summed over every roll it attacked or defended in.
"""

from __future__ import annotations

from .engine import WorldGame

__all__ = ["GAME", "WorldGame"]

GAME = WorldGame()

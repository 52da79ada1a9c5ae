"""Conquest Metagame (issue #4): the hub campaign where a weighted wheel picks each duel.

Modules: :mod:`.board` (the map as an index graph), :mod:`.phases` (the phases and the one
table of what each allows and asks), :mod:`.state` (frozen state), :mod:`.actions` (compact
action texts), :mod:`.duels` (the games a duel can be played in: titles from the catalog,
"built in" from the registry), :mod:`.duelrecord` (a duel played here: hand-over and
replay), :mod:`.engine` (rulings M1-M17), :mod:`.view` (the host
console's view and log lines, built from the engine), :mod:`.game` (the registered game:
rules plus view). Imports go one way: view imports engine, never the reverse.

Choices where the rulings are silent (the rules page and the report repeat them):

- Slice assignment is one action per side carrying the whole assignment (``w0:5,2:3``,
  game indices into the session's list). ``legal_actions`` offers a bounded canonical set
  (fill from each game in turn, plus the even spread); ``apply`` accepts any valid one.
  The page edits a draft and checks it with :func:`slice_report`.
- Sacrifice and block offers in ``legal_actions`` are canonical too (per size, the
  territories farthest from the target); any eligible set is accepted.
- The attacker assigns first, then the defender. The attacker decides on a re-spin first;
  if they keep the result, the defender may re-spin.
- The host presses spin (``spin``); the draw is then a chance step ``r<k> <layout>`` (X is the sum of the layout).
- A duel in one of the site's own two-player games (any registered game for two) is played
  on that game's page and comes back as ``da:<game>:...``: the whole finished duel, which
  ``apply`` replays with the duel game's engine (winner and seats must be the invasion's;
  :mod:`.duelrecord`). The host may still type ``da``/``dd`` (a game played elsewhere, an
  abandoned duel); the log then says "entered by hand" (M12). A duel record is one log step
  of at most 2,000 characters (a link's limit per step), and a campaign replays at most 5,000
  duel moves in all (``State.duel_steps``); past either, the winner is entered by hand.
- M4 override: ``k<t>!`` is legal only when no neutral territory qualifies; it then allows
  any neutral territory.
- M14: with exactly zero eligible territories the gift step is skipped and the log line of
  the duel result says so; otherwise the attacker always chooses (even among one).
- M15: a pool size applies to each kind (N block tokens and N re-spin tokens); a token
  earned while the pool is empty is not earned.
- M17: corrections (``!o``, ``!k``, ``!t``) are accepted between turns and during capital
  picks, not mid-invasion (undo the invasion instead); they are never in ``legal_actions``.
  A player left with no territory (by any step) is out, tokens back to the pool; a
  correction giving a territory back revives them.
- M16: the host's agreement ends the campaign at any step after the capitals except while
  the wheel is being drawn: once spin is pressed, only the drawn result may follow (the
  rule :func:`conquest.session.advance` applies to every game).
- At least 3 games on the wheel: a side with 3 territories has Z = 3 and a cap of 1. The
  default wheel is the project's two-player games (by id) then "Chess", "Go"... up to 3;
  games show by title wherever people see them (:mod:`.duels`).
- Names (players, games) are whitespace-collapsed text without control characters or
  lone surrogates. A map in the options has at most 200 territories and 1,000 borders
  (:mod:`.board`), so any accepted link replays within a stated budget.
- Default player colours are the Okabe-Ito palette (black swapped for grey), which people
  with the common kinds of colour blindness tell apart; a default colour, like the default
  map ``usa100``, is left out of the options so links stay short.
"""

from __future__ import annotations

from conquest.games.metagame.engine import MetagameRules, canonical_allocs, slice_report
from conquest.games.metagame.game import MetagameGame
from conquest.games.metagame.phases import PHASE_RULES, Phase

__all__ = ["GAME", "MetagameGame", "MetagameRules", "Phase", "PHASE_RULES", "slice_report", "canonical_allocs"]

GAME = MetagameGame()

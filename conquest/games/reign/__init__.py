"""To Reign Supreme (issue 12): two players, six territory cards, secret battle choices.

``GAME`` is the engine the registry finds (id ``"reign"``; title, seats and rulings prefix
come from the facts in ``conquest/data/reign.json``). Modules: :mod:`.data` (the numbers of
the data file, checked against the rulings), :mod:`.state` (frozen state, the ladder as one
rung per place), :mod:`.actions` (short action texts), :mod:`.engine` (rulings R1-R12),
:mod:`.tables` (the rules page's tables), :mod:`.bots` (Random, Heuristic, Monte Carlo).

Choices where the rulings are silent (the rules page says the same):

- R12, turn order and phases (the project's reading of the seed's "The dark player goes
  first ... Players alternate taking turns"; not yet in the shared rulings): the deal, then
  the tracker choice, then turns, Player 1 first. Only the active player acts in a turn,
  except the defender's answer to a declared battle; a battle's secret step takes only the
  two secret choices; nothing is played before the deal or after the end. Every action made
  at another moment is refused with code ``R12.phase``.

- Set-up: the territory cards are dealt by a chance step (``L`` + the codes at places 0..5,
  row by row, + the edition of the values from edition 2 on: ``Lwmscah2``). Then both
  players choose their two tracker cards at once, in secret (a simultaneous step, revealed
  as ``tAB/DE``), so neither sees the other's choice first.
- Challenging setup: each player also Influences one middle card, seat 0 the top one and
  seat 1 the bottom one, so the start is the same for both turned by 180 degrees (R1).
- Hands are open information: both players hold the same five cards, the tracker's two lie
  face up and played cards are discarded face up, so each hand is known by elimination.
  The only secrets are the choices of a secret step, and they never enter the state (R10).
- A turn's actions are counted once, after Resupply (R4); the defender's action level in
  R8 is read when the choices are revealed, from Wealth + Military as the tracker shows
  them, before the battle's purchases are paid (the seed's Rules card tracks battle
  spending apart from the tracker).
- A battle is declared over a card; how far the card moves is decided by the result (R8),
  so Conquer, Overthrow and Occupy are the names of results, not separate declarations.
- When a battle is declared and the defender can pay for Restructure Military, the
  defender gets one step to Restructure or fight as is (``p``): Restructure is allowed
  "while defending". The attacker Restructures, at any time, during their own turn; when
  the actions are used up and they can still pay, the turn ends with ``e``, otherwise at once.
- Challenging setup: a middle card (on nobody's side) is Developed only from a Controlled
  neighbour (``ReignGame.may_develop``; the seed: "must first Control the adjacent Territory
  on their side before proceeding to the middle Territories"), refused as ``R1.middle``.
  A card on someone's side is Developed without one (adjacency is asked only to take a card
  from the opponent).
- Reallocate picks up both players' Influenced cards (the seed's "with the same player
  Influencing the new cards in the same locations"); no neighbour is needed.
- Casualties cannot exceed the troops a side has (hired troops plus Military); spoils and
  R8's "3 or more casualties" count the troops that actually fell.
- A player whose hand is empty after a battle takes the discards back at once (the seed's
  "if the player has no Military Strategy Cards in his hand he may pick up all").
- Reallocate is any rearrangement of the Influenced cards in one action (the seed's "rearrange
  them as you desire"); ``legal_actions`` lists every one (up to 719), the bots weigh one per
  split of the cards between the players and every swap (``bots.prune_reallocations``). Recruit and Disband cannot push a value past 12;
  Recover may (the excess is lost).
- Editions of the reconstructed values (R5, R9; issue 25): the data file holds the current
  edition and what earlier ones changed (``earlier_editions``); the deal writes the edition
  (none written: edition 1, the logs made before editions), the state keeps it, and
  ``ReignGame.rules_of(state)`` gives its values, so an old save or link replays as played.
  Edition 4 gives Recruit the seed's two amounts, read as 2 or 3 (R5; the data file lists them,
  ``costs.recruit.amounts``): a Recruit text parses with any edition's amounts and the engine
  refuses one the game's edition lacks (``R5.amount``), so an edition-3 log's ``+1`` replays.
- Reallocate is rare by design (R13): it stays legal at R5's price; the bots weigh it like any
  action and, with these values, almost never find it worth its coins and action.
- Recover: the seed's "skip an action to recover after a battle" is one value of the data
  file (``costs.recover.turns_after_battle``; the state keeps the turn of the last battle);
  edition 2 leaves it off (Recover at any time): with it the first seat won 59-68% of
  Heuristic self-play (issue 25; the rules page has the figures).
- New Control (R11): Control counts at once for adjacency and for victory; the card's
  values (its damage in battle) count for the new holder from the end of the turn.
- A battle's joint actions in ``legal_actions`` are the pairs of each seat's canonical parts
  (a card with no purchase or one purchase: at most 15 x 15 = 225); ``secret_choices`` lists
  every legal part (up to 3 cards x 50 purchase sets) and ``apply`` accepts any legal pair.
"""

from __future__ import annotations

from conquest.games.reign.engine import ReignGame

__all__ = ["GAME", "ReignGame"]

GAME = ReignGame()

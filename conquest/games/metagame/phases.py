"""The metagame's phases and the one table of what each phase allows and asks.

Why one table: "what may happen now?" is asked by ``apply`` (refuse anything else),
``legal_actions`` (offer the moves), ``to_move`` (whose seat), ``chance`` (is a draw due),
the view (the prompt the page shows) and the bot. Before, each of them held its own chain of
``if phase == "..."`` over bare strings, and they could drift apart. Now each phase is a
:class:`Phase` member (a ``str`` enum, so saved state JSON keeps the same strings) and
:data:`PHASE_RULES` says, once, for every phase:

- ``moves``: the action types a player may play, in the order ``legal_actions`` lists them;
- ``host``: the host's actions accepted here but never listed (M16 agreement, M17 corrections);
- ``chance``: the chance action drawn here (the wheel, M10), if any;
- ``seat``: whose seat is expected to act (``to_move``); the host presses spin and records
  duels for the attacker's seat;
- ``prompt``: the sentence the page shows, a ``str.format`` template over the names listed
  in :data:`PROMPT_FIELDS`; ``alt_prompt`` is the variant for when no ordinary move
  qualifies (the M4 override);
- ``step``: how refusals name the step ("the campaign is at the spin (M10) step");
- ``eligible``: which territory list the page highlights (a key of the view's table);
- ``by_host``: the ruling that makes the step the host's at a live table (the spin, the
  duel's result), whoever ``seat`` names.

The transitions themselves stay in the engine's handlers: they depend on the position
(who can block, who can re-spin), not on the phase alone.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from conquest.games.metagame.actions import (
    Agree,
    Block,
    Claim,
    Duel,
    Gift,
    Invade,
    Pass,
    PickCapital,
    Respin,
    Sacrifice,
    SetCapital,
    SetOwner,
    SetTokens,
    Slices,
    Spin,
    SpinResult,
)

__all__ = ["SPUN_BY_HOST", "RECORDED_BY_HOST", "Phase", "Seat", "PhaseRule", "PHASE_RULES", "CORRECTIONS", "PROMPT_FIELDS", "rule"]


class Phase(StrEnum):
    """Every phase, in the order a campaign meets them; the values are the saved strings."""

    CAPITAL = "capital"  # M4: ``current`` picks a capital
    TURN = "turn"  # M5: ``current`` claims, invades or passes
    SACRIFICE = "sacrifice"  # M7: the attacker may sacrifice
    BLOCK = "block"  # M8: the defender may block the sacrifice
    SLICES_A = "slices_a"  # M9: the attacker assigns ZA slices
    SLICES_D = "slices_d"  # M9: the defender assigns ZD slices
    SPIN = "spin"  # M10: waiting for the host to press spin
    SPINNING = "spinning"  # M10: chance step, the wheel is drawn
    RESPIN_A = "respin_a"  # M11: the attacker may re-spin
    RESPIN_D = "respin_d"  # M11: the defender may re-spin
    DUEL = "duel"  # M12: the host records the duel's winner
    GIFT = "gift"  # M14: the losing attacker picks the territory to give
    OVER = "over"  # M16: the campaign has ended


class Seat(StrEnum):
    """Whose seat a phase waits for."""

    CURRENT = "current"  # the player whose turn it is (capital picks, turns)
    ATTACKER = "attacker"
    DEFENDER = "defender"
    NOBODY = "nobody"  # a draw is due, or the campaign is over


#: M17: the host's corrections (accepted between turns and during capital picks)
CORRECTIONS: tuple[type, ...] = (SetOwner, SetCapital, SetTokens)

#: the names a prompt template may use (the view fills them all)
PROMPT_FIELDS = (
    "player",  # the name of the seat the phase waits for
    "attacker",
    "defender",
    "z",  # slices the side assigning now must place (M9)
    "cap",  # that side's per-game cap (M6/M7)
    "x",  # slices on the wheel (M6)
    "most",  # the most territories the attacker may sacrifice now (M7)
    "s",  # the size of the sacrifice a block must match (M8)
    "game",  # the title of the game the wheel chose (M12)
    "nth",  # " (second game)" on a capital's second duel, else ""
    "record",  # how the result comes in: played here for a built-in game, else typed (M12)
    # the counts with their noun in the right number ("1 slice", "3 slices"): issue 9
    "z_slices",
    "x_slices",
    "most_territories",
    "s_territories",
)


@dataclass(frozen=True)
class PhaseRule:
    """What one phase allows and what it asks (see the module docstring)."""

    step: str
    seat: Seat
    moves: tuple[type, ...] = ()
    host: tuple[type, ...] = ()
    chance: type | None = None
    prompt: str = ""
    alt_prompt: str = ""
    eligible: str | None = None
    #: an invasion is under way (``State.inv`` is set)
    invasion: bool = False
    #: the ruling that gives this step to the host, not a player's device (M3, M10, M12)
    by_host: str = ""

    @property
    def allows(self) -> tuple[type, ...]:
        """Every action type ``apply`` accepts in this phase."""
        return self.moves + self.host + ((self.chance,) if self.chance is not None else ())


#: the seed's words, and the rulings, that keep a step to the host at a live table
SPUN_BY_HOST = "M10: the wheel must be spun by the host"
RECORDED_BY_HOST = "M12: the host records the duel's result"

_SLICES = "{player}: assign exactly {z_slices} over one or more games, at most {cap} per game (M9)"
_RESPIN = (
    "{player}: spend a re-spin token and one territory not bordering the target to spin again, "
    "or keep the result (M11)"
)

PHASE_RULES: dict[Phase, PhaseRule] = {
    Phase.CAPITAL: PhaseRule(
        step="capital pick (M4)",
        seat=Seat.CURRENT,
        moves=(PickCapital,),
        host=CORRECTIONS,
        prompt="{player}: pick a capital (M4)",
        alt_prompt="Host: override M4 and pick {player}'s capital",
        eligible="capital",
    ),
    Phase.TURN: PhaseRule(
        step="turn (M5)",
        seat=Seat.CURRENT,
        moves=(Claim, Invade, Pass),
        host=CORRECTIONS + (Agree,),
        prompt="{player}: claim a neutral territory, invade a neighbour, or pass (M5)",
        eligible="turn",
    ),
    Phase.SACRIFICE: PhaseRule(
        step="sacrifice (M7)",
        seat=Seat.ATTACKER,
        moves=(Sacrifice,),
        host=(Agree,),
        prompt=(
            "{player}: sacrifice up to {most_territories} (not the capital, not bordering the target) "
            "to raise the cap, or none (M7)"
        ),
        eligible="sacrifice",
        invasion=True,
    ),
    Phase.BLOCK: PhaseRule(
        step="block (M8)",
        seat=Seat.DEFENDER,
        moves=(Block,),
        host=(Agree,),
        prompt="{player}: spend a block token and sacrifice exactly {s_territories} to cancel the cap bonus, or not (M8)",
        eligible="block",
        invasion=True,
    ),
    Phase.SLICES_A: PhaseRule(
        step="attacker's slices (M9)",
        seat=Seat.ATTACKER,
        moves=(Slices,),
        host=(Agree,),
        prompt=_SLICES,
        invasion=True,
    ),
    Phase.SLICES_D: PhaseRule(
        step="defender's slices (M9)",
        seat=Seat.DEFENDER,
        moves=(Slices,),
        host=(Agree,),
        prompt=_SLICES,
        invasion=True,
    ),
    Phase.SPIN: PhaseRule(
        step="spin (M10)",
        seat=Seat.ATTACKER,
        moves=(Spin,),
        host=(Agree,),
        prompt="Host: spin the wheel ({x_slices}) (M10)",
        invasion=True,
        by_host=SPUN_BY_HOST,
    ),
    # A draw is due: only the drawn result may follow (conquest.session checks the same for
    # every game), so not even the agreement can jump over a spin the host has pressed.
    Phase.SPINNING: PhaseRule(
        step="wheel draw (M10)",
        seat=Seat.NOBODY,
        chance=SpinResult,
        prompt="The wheel is being drawn (M10)",
        invasion=True,
        by_host=SPUN_BY_HOST,
    ),
    Phase.RESPIN_A: PhaseRule(
        step="attacker's re-spin (M11)",
        seat=Seat.ATTACKER,
        moves=(Respin,),
        host=(Agree,),
        prompt=_RESPIN,
        eligible="respin",
        invasion=True,
    ),
    Phase.RESPIN_D: PhaseRule(
        step="defender's re-spin (M11)",
        seat=Seat.DEFENDER,
        moves=(Respin,),
        host=(Agree,),
        prompt=_RESPIN,
        eligible="respin",
        invasion=True,
    ),
    Phase.DUEL: PhaseRule(
        step="duel result (M12)",
        seat=Seat.ATTACKER,
        moves=(Duel,),
        host=(Agree,),
        prompt="Host: {attacker} and {defender} play {game}{nth}; {record} (M12)",
        invasion=True,
        by_host=RECORDED_BY_HOST,
    ),
    Phase.GIFT: PhaseRule(
        step="attacker's gift (M14)",
        seat=Seat.ATTACKER,
        moves=(Gift,),
        host=(Agree,),
        prompt="{player}: give {defender} one non-capital territory bordering the target (M14)",
        eligible="gift",
        invasion=True,
    ),
    Phase.OVER: PhaseRule(step="end (M16)", seat=Seat.NOBODY, prompt="The campaign is over (M16)"),
}


def rule(phase: Phase | str) -> PhaseRule:
    """The table's row for ``phase`` (a member or its saved string)."""
    return PHASE_RULES[Phase(phase)]
